"""Stills: every clip has a designed still; what a still draws is its data, computed by mathcore,
in the clip's own colour scales; no glyph is ever missing; dark (slides) and light (print) themes.

The designed stills live in ``scenes/figures/`` (one module per clip family); these tests read the
specs without drawing where they can, and draw each still once per theme to check the figure.
"""

from __future__ import annotations

import io
import re
import warnings

import numpy as np
import pytest

from mathcore import load_config
from scenes.catalog import CLIPS, LECTURE, PROPERTIES
from scenes.figures import REGISTRY, MissingStillError, builders, designed_stills, stills_for
from scenes.kit import BG, ColorScale
from scenes.kit.stills import (
    DARK,
    DIVERGING,
    LIGHT,
    Bars,
    FigureStill,
    Heatmap,
    HeatmapStill,
    Line,
    Plot,
    Text,
    as_figure,
    figure,
    mathify,
    missing_glyphs,
    save,
    wrap,
)
from scenes.render.stills import scene_class

CFG = load_config()
CLIP_IDS = [c.name for c in CLIPS]


@pytest.fixture(scope="module")
def all_stills() -> dict[str, list]:
    """Every clip's stills, built once: clip name -> specs (a clip that fails to build maps to its error)."""
    out = {}
    for c in CLIPS:
        try:
            out[c.name] = stills_for(scene_class(c), CFG)
        except Exception as e:  # reported by the test of that clip
            out[c.name] = e
    return out


def specs(all_stills, name: str) -> list:
    s = all_stills[name]
    if isinstance(s, Exception):
        raise s
    return s


def panels(still: FigureStill, kind) -> list:
    return [p for p in still.panels.values() if isinstance(p, kind)]


def drawn_meshes(fig) -> list:
    """The value grids a figure draws (QuadMeshes tagged ``values``), in drawing order."""
    return [a for a in fig.findobj() if getattr(a, "get_gid", lambda: None)() == "values"]


def draw_all(still, theme) -> tuple:
    """Draw ``still`` to PNG and PDF in ``theme``; return (figure, warnings raised while drawing)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = figure(still, theme)
        for fmt in ("png", "pdf"):
            fig.savefig(io.BytesIO(), format=fmt, facecolor=fig.get_facecolor())
    return fig, [str(w.message) for w in caught]


# ================================================================== every clip has a designed still
@pytest.mark.parametrize("name", CLIP_IDS)
def test_every_clip_has_a_designed_still(all_stills, name):
    c = next(c for c in CLIPS if c.name == name)
    assert builders(c.scene), f"{c.scene} has no designed still in scenes/figures/{c.module}.py"
    stills = specs(all_stills, name)
    assert stills and all(isinstance(s, FigureStill) for s in stills)
    assert len({s.name for s in stills}) == len(stills)  # one file name per still
    for s in stills:
        assert re.fullmatch(r"[a-z0-9_]+", s.name), s.name
        assert s.title and s.size[0] <= 7.07  # fits the handout's text width 1:1
    # the clip's own stills() (the base default) is the registry too
    cls = scene_class(c)
    if "stills" not in cls.__dict__:
        assert [s.name for s in cls.stills(cls.build_data(CFG), CFG)] == [s.name for s in stills]


def test_registry_takes_precedence_and_a_missing_still_is_named():
    assert set(REGISTRY) <= {c.scene for c in LECTURE}
    with pytest.raises(MissingStillError, match="NoSuchScene"):
        designed_stills("NoSuchScene", None, CFG)


# ================================================================== glyphs and math
@pytest.mark.parametrize("name", CLIP_IDS)
def test_no_glyph_is_missing_in_either_theme(all_stills, name):
    for still in specs(all_stills, name):
        bad = {s: missing_glyphs(s) for s in as_figure(still).texts() if missing_glyphs(s)}
        assert not bad, f"{still.name}: the label font lacks {bad}"
        for theme in ("dark", "light"):
            _, caught = draw_all(still, theme)
            glyphs = [w for w in caught if re.search(r"Glyph .* missing|does not have a glyph", w)]
            assert not glyphs, f"{name}/{still.name} ({theme}): {glyphs}"


def test_a_missing_glyph_is_caught():
    """The check above would catch the old ``Pᵀ`` label: the font lacks it, mathtext does not."""
    assert missing_glyphs("P·Aᵀ") == {"ᵀ"}
    assert missing_glyphs(mathify("P·Aᵀ")) == set() and mathify("Pᵀ") == "$P^{\\top}$"
    assert missing_glyphs(r"$P A P^\top$") == set()
    still = FigureStill("t", "P·Pᵀ", {"A": Text((Line("x"),))})
    _, caught = draw_all(still, "light")
    assert any("Glyph" in w and "missing" in w for w in caught)


def test_wrapping_never_splits_math_or_strands_an_operator():
    s = r"a long line with $\|\mathrm{Attn}(PX) - P\,\mathrm{Attn}(X)\|_F$ and (m − n) in it " * 3
    for width in (60, 120, 200, 400):
        lines = wrap(s, width, 10)
        assert " ".join(lines).split() == s.split()
        assert all(ln.count("$") % 2 == 0 for ln in lines)
        assert not any(ln.startswith("−") or ln.endswith("−") for ln in lines)


# ================================================================== what is drawn is the spec
@pytest.mark.parametrize("name", CLIP_IDS)
def test_drawn_cells_are_the_specs_values_in_the_specs_scale(all_stills, name):
    for still in specs(all_stills, name):
        heat = panels(still, Heatmap)
        fig, _ = draw_all(still, "light")
        meshes = drawn_meshes(fig)
        assert len(meshes) == len(heat)
        for p, m in zip(heat, meshes):
            arr = np.ma.masked_invalid(np.asarray(p.values, float))
            got = m.get_array().reshape(arr.shape)
            np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(arr))
            np.testing.assert_array_equal(got.filled(0), arr.filled(0))
            assert (m.norm.vmin, m.norm.vmax) == (p.scale.norm.vmin, p.scale.norm.vmax)
            assert m.cmap.name == p.scale.cmap.name
            # the colour of every finite cell is the scale's colour for its value
            rgba = m.to_rgba(got)
            finite = ~np.ma.getmaskarray(got)
            np.testing.assert_allclose(rgba[finite][:, :3], p.scale.rgb(arr.filled(0)[finite]), atol=1e-9)


@pytest.mark.parametrize("name", CLIP_IDS)
def test_diverging_maps_are_centred_at_zero(all_stills, name):
    for still in specs(all_stills, name):
        for p in panels(still, Heatmap):
            if p.scale.name in DIVERGING:
                assert p.scale.norm.vmin == -p.scale.norm.vmax, (still.name, p.title)
            v = np.asarray(p.values, float)
            fin = v[np.isfinite(v)]
            if fin.size and p.scale.name not in ("twilight", "twilight_shifted", "hsv"):
                # nothing the still prints is clipped by its scale (angles wrap by design)
                assert p.scale.norm.vmin <= fin.min() + 1e-12 and fin.max() <= p.scale.norm.vmax + 1e-12, p.title


def test_a_diverging_map_off_centre_is_refused():
    still = FigureStill("t", "t", {"A": Heatmap(np.array([[-1.0, 2.0]]), ColorScale("RdBu_r", -1, 2))})
    with pytest.raises(ValueError, match="centred at 0"):
        figure(still, "light")


# ================================================================== the two themes
def _luminance(hexcol: str) -> float:
    rgb = np.array([int(hexcol[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    lin = np.where(rgb <= 0.03928, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(lin @ [0.2126, 0.7152, 0.0722])


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_themes_paper_and_ink():
    assert DARK.bg == BG.to_hex().upper()[:7] and LIGHT.bg == "#FFFFFF"
    for th in (DARK, LIGHT):
        assert contrast(th.fg, th.bg) >= 10
        assert contrast(th.dim, th.bg) >= 4.5  # small grey text stays readable
        for role in ("accent", "good", "bad", "blue", "purple", *(f"family:{k}" for k in range(len(PROPERTIES)))):
            assert contrast(th.color(role), th.bg) >= 4.5, (th.name, role)
        assert len(th.families) == len(PROPERTIES)
    # the same hue families on paper: each light family colour is nearest its dark counterpart
    for k, (d, li) in enumerate(zip(DARK.families, LIGHT.families)):
        hue = lambda h: np.array([int(h[i:i + 2], 16) for i in (1, 3, 5)], float)  # noqa: E731
        dists = [np.linalg.norm(hue(li) / max(hue(li).max(), 1) - hue(o) / max(hue(o).max(), 1)) for o in DARK.families]
        assert int(np.argmin(dists)) == k


def test_value_colours_do_not_depend_on_the_theme():
    """A still's cells are painted identically on slides and on paper: only the furniture changes."""
    v = np.array([[0.0, 0.25], [0.5, 1.0]])
    s = FigureStill("t", "t", {"A": Heatmap(v, ColorScale("viridis", 0, 1))})
    dark, light = (drawn_meshes(figure(s, th))[0] for th in ("dark", "light"))
    np.testing.assert_array_equal(dark.to_rgba(dark.get_array()), light.to_rgba(light.get_array()))
    assert figure(s, "dark").get_facecolor()[:3] == pytest.approx(tuple(np.array(BG.to_rgb())), abs=1e-3)
    assert figure(s, "light").get_facecolor()[:3] == (1.0, 1.0, 1.0)


def test_both_themes_write_png_and_svg(tmp_path):
    from PIL import Image

    still = designed_stills("Title", scene_class(LECTURE[0]).build_data(CFG), CFG)[0]
    for theme, corner in (("dark", BG.to_rgb()), ("light", (1, 1, 1))):
        paths = save(still, tmp_path / f"map.{theme}", theme)
        assert [p.suffix for p in paths] == [".png", ".svg"] and all(p.stat().st_size for p in paths)
        im = np.asarray(Image.open(paths[0]).convert("RGB"), float) / 255
        assert im.shape[1] == pytest.approx(still.size[0] * 200, abs=2)  # savefig.dpi 200
        np.testing.assert_allclose(im[1, 1], corner, atol=2 / 255)
        assert "<text" not in paths[1].read_text()  # glyphs as paths: the SVG needs no fonts


# ================================================================== 00 and 15: the frame of the lecture
def test_00_the_property_map_is_the_catalog(all_stills):
    from scenes.framing import Title

    d = Title.build_data(CFG)
    still = specs(all_stills, "00_title")[0]
    assert still.title == f"Lecture {CFG.number} · {CFG.title}" and CFG.notebook in still.subtitle
    cards = list(still.panels.values())
    assert len(cards) == len(PROPERTIES)
    for k, (card, (name, nums)) in enumerate(zip(cards, PROPERTIES)):
        assert card.frame == f"family:{k}"
        assert card.lines[0].text == name and card.lines[0].color == f"family:{k}"
        assert [ln.chips for ln in card.lines[1:]] == [(n,) for n in nums]
        by_number = {c.number: c for c in LECTURE}
        assert [ln.text for ln in card.lines[1:]] == [by_number[n].title for n in nums]
    for th in (DARK, LIGHT):  # a clip's chip takes its family's colour
        for k, (_, nums) in enumerate(PROPERTIES):
            assert {th.color(f"clip:{n}") for n in nums} == {th.families[k]}
    assert d.number == CFG.number


def test_15_the_diary_answers_are_the_recaps(all_stills):
    from scenes.framing import Recap

    d = Recap.build_data(CFG)
    still = specs(all_stills, "15_recap")[0]
    cards = list(still.panels.values())
    assert len(cards) == len(d.answers) == 4
    for card, a in zip(cards, d.answers):
        q, ans, link = card.lines
        assert q.text == mathify(a.question) and ans.text == mathify(a.answer)
        assert link.chips == tuple(c.number for c in a.clips)
        assert card.frame == f"clip:{a.clips[0].number}"
