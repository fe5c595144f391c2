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
from scenes.kit.numbers import measure
from scenes.stills.draw import DARK, DIVERGING, LIGHT, figure, save
from scenes.stills.spec import FigureStill, HeatmapPanel, TextLine, PlotPanel, TextPanel
from scenes.stills.text import mathify, missing_glyphs, sci, wrap
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
    assert builders(c.scene), f"{c.scene} has no designed still in scenes/figures/{c.family}.py"
    stills = specs(all_stills, name)
    assert stills and all(isinstance(s, FigureStill) for s in stills)
    assert len({s.name for s in stills}) == len(stills)  # one file name per still
    for s in stills:
        assert re.fullmatch(r"[a-z0-9_]+", s.name), s.name
        assert s.title and s.size[0] <= 7.07  # fits the handout's text width 1:1
    # the registry is the one source: no clip draws stills of its own
    assert "stills" not in vars(scene_class(c))


def test_registry_takes_precedence_and_a_missing_still_is_named():
    assert set(REGISTRY) <= {c.scene for c in LECTURE}
    with pytest.raises(MissingStillError, match="NoSuchScene"):
        designed_stills("NoSuchScene", None, CFG)


# ================================================================== glyphs and math
@pytest.mark.parametrize("name", CLIP_IDS)
def test_no_glyph_is_missing_in_either_theme(all_stills, name):
    for still in specs(all_stills, name):
        bad = {s: missing_glyphs(s) for s in still.texts() if missing_glyphs(s)}
        assert not bad, f"{still.name}: the label font lacks {bad}"
        for theme in ("dark", "light"):
            _, caught = draw_all(still, theme)
            glyphs = [w for w in caught if re.search(r"Glyph .* missing|does not have a glyph", w)]
            assert not glyphs, f"{name}/{still.name} ({theme}): {glyphs}"
            # and the layout fits: matplotlib gives up on a figure whose parts cannot all fit
            layout = [w for w in caught if "constrained_layout not applied" in w or "tight_layout" in w]
            assert not layout, f"{name}/{still.name} ({theme}): {layout}"


def test_a_missing_glyph_is_caught():
    """The check above would catch the old ``Pᵀ`` label: the font lacks it, mathtext does not."""
    assert missing_glyphs("P·Aᵀ") == {"ᵀ"}
    assert missing_glyphs(mathify("P·Aᵀ")) == set() and mathify("Pᵀ") == "P$^{\\top}$"
    assert missing_glyphs(r"$P A P^\top$") == set()
    still = FigureStill("t", "P·Pᵀ", {"A": TextPanel((TextLine("x"),))})
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
        heat = panels(still, HeatmapPanel)
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
        for p in panels(still, HeatmapPanel):
            if p.scale.name in DIVERGING:
                assert p.scale.norm.vmin == -p.scale.norm.vmax, (still.name, p.title)
            v = np.asarray(p.values, float)
            fin = v[np.isfinite(v)]
            if fin.size and p.scale.name not in ("twilight", "twilight_shifted", "hsv"):
                # nothing the still prints is clipped by its scale (angles wrap by design)
                assert p.scale.norm.vmin <= fin.min() + 1e-12 and fin.max() <= p.scale.norm.vmax + 1e-12, p.title


def test_a_diverging_map_off_centre_is_refused():
    still = FigureStill("t", "t", {"A": HeatmapPanel(np.array([[-1.0, 2.0]]), ColorScale("RdBu_r", -1, 2))})
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
    s = FigureStill("t", "t", {"A": HeatmapPanel(v, ColorScale("viridis", 0, 1))})
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
    from scenes.clips.c00_title import Title

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
    from scenes.clips.c15_recap import Recap

    d = Recap.build_data(CFG)
    still = specs(all_stills, "15_recap")[0]
    cards = list(still.panels.values())
    assert len(cards) == len(d.answers) == 4
    for card, a in zip(cards, d.answers):
        q, ans, *proofs = card.lines  # the question, its answer, then each measured proof after its clip
        assert q.text == mathify(a.question) and ans.text == mathify(a.answer)
        assert [p.chips for p in proofs] == [(pr.clip,) for pr in a.proofs]
        assert [p.text for p in proofs] == [pr.still_text() for pr in a.proofs]
        assert card.frame == f"clip:{a.home[0].number}"


# ================================================================== 01–14: each still's data is mathcore's
def key(all_stills, name: str) -> FigureStill:
    return specs(all_stills, name)[0]


def series_by_label(plot: PlotPanel) -> dict:
    return {s.label: s for s in plot.series if s.label}


def test_01_P_X_and_PX_are_the_permutation(all_stills):
    from mathcore import lecture_inputs, permutation_matrix
    from scenes.kit.scales import scale

    s = key(all_stills, "01_permutation_matrix")
    X = lecture_inputs(CFG.T, CFG.d, CFG.seed).X
    perm = list(CFG.perm)
    P, Xp, PX = s.panels["P"], s.panels["X"], s.panels["Y"]
    np.testing.assert_array_equal(P.values, permutation_matrix(perm))
    assert P.scale is scale("weights", CFG) and (P.scale.name, P.scale.vmin, P.scale.vmax) == (CFG.cmap_weights, 0.0, 1.0)
    # X and P X are value-coloured grids on the deck's inputs scale, their numbers printed, as in the clip
    assert isinstance(Xp, HeatmapPanel) and isinstance(PX, HeatmapPanel) and Xp.annotate and PX.annotate
    assert Xp.scale is PX.scale is scale("inputs", CFG)
    np.testing.assert_array_equal(Xp.values, X)
    np.testing.assert_array_equal(PX.values, X[perm])
    assert PX.yticks == tuple(f"$x_{{{k}}}$" for k in perm)  # rows named x_π(m)
    assert "\\pi = (" + ", ".join(map(str, perm)) + ")" in s.subtitle  # π as math, not the code name
    # the deck's verdicts: the mark, the formula, its measured figure (an exact zero marked)
    assert s.proof[0].startswith("\u2713 $\\max_m") and s.proof[0].endswith("= 0$  exact")
    assert "P^{\\top} P - I" in s.proof[1] and s.proof[1].endswith("= 0$  exact")


def test_02_A_moves_to_PAPt_and_the_running_maximum(all_stills):
    from mathcore import attention_fn, equivariance_defects, lecture_inputs, self_attention

    s = key(all_stills, "02_permutation_equivariance")
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    perm = list(CFG.perm)
    _, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
    _, A_PX = self_attention(li.X[perm], li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(s.panels["A"].values, A)
    np.testing.assert_array_equal(s.panels["B"].values, A_PX)
    np.testing.assert_allclose(s.panels["B"].values, A[perm][:, perm], atol=1e-15)  # P A Pᵀ
    from scenes.kit.scales import scale

    for k in "AB":  # the deck's weights scale, linear from 0 to 1, as in every clip that shows weights
        assert s.panels[k].scale is scale("weights", CFG) and s.panels[k].scale.gamma is None
    _, defects = equivariance_defects(attention_fn(li.Wq, li.Wk, li.Wv), li.X, CFG.n_trials, CFG.seed)
    ser = series_by_label(s.panels["C"])
    np.testing.assert_array_equal(ser["running maximum"].y, np.maximum.accumulate(defects))
    dots = ser["defect of each $P$"].y
    np.testing.assert_array_equal(dots[defects > 0], defects[defects > 0])
    assert np.isnan(dots[defects == 0]).all()  # exact zeros are marked on the floor, not plotted at 0
    if (defects == 0).any():
        np.testing.assert_array_equal(ser["exactly 0"].x, np.flatnonzero(defects == 0) + 1)
    assert s.panels["C"].hlines[0].value == 1e-10
    from scenes.figures.equivariance import mathtext

    assert s.proof[0].startswith("\u2713 $") and mathtext(defects.max()) in s.proof[0]  # the verdict, its figure


def test_03_the_mask_the_zeros_and_the_row_sums(all_stills):
    from mathcore import lecture_inputs, self_attention_trace

    s = key(all_stills, "03_causal_mask")
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    tr_self = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=False)
    S = s.panels["S"].values
    assert np.isneginf(S[np.triu_indices(CFG.T, 1)]).all()
    np.testing.assert_array_equal(S, tr.masked)
    np.testing.assert_array_equal(s.panels["A"].values, tr.weights)
    np.testing.assert_array_equal(s.panels["B"].values, tr_self.weights)
    assert (tr.weights[np.triu_indices(CFG.T, 1)] == 0.0).all()
    sc = ColorScale.symmetric(CFG.cmap_signed, tr.scaled)
    assert (s.panels["S"].scale.norm.vmin, s.panels["S"].scale.norm.vmax) == (sc.norm.vmin, sc.norm.vmax)
    assert (s.panels["A"].scale.norm.vmin, s.panels["A"].scale.norm.vmax) == (0.0, 1.0)
    assert sci(float(np.max(np.abs(tr.weights.sum(-1) - 1)))) in s.proof[0]
    assert s.proof[1].endswith("= 0 (exact)")  # the kit's exact zero, never 0.0
    assert [t for t in s.panels["S"].cbar_ticklabels] == ["\u2212" + f"{sc.norm.vmax:g}", "0", f"{sc.norm.vmax:g}"]
    assert [ln.text for ln in s.panels["C"].lines if ln.mono] == ["mask = np.tri(T, dtype=bool)",
                                                                 "S[~mask] = -np.inf", "A = softmax(S, axis=-1)"]


def test_04_prefix_rows_and_both_kernels(all_stills):
    from mathcore import attention_fn, lecture_inputs, prefix_defects

    s = key(all_stills, "04_prefix_invariance")
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
    blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
    full, pre = fixed(li.X), fixed(li.X[:CFG.T - 1])
    np.testing.assert_array_equal(s.panels["F"].values, full)
    np.testing.assert_array_equal(s.panels["P"].values, pre)
    np.testing.assert_array_equal(full[:CFG.T - 1], pre)  # bitwise: what the still shows
    groups = {g.label: g.values for g in s.panels["B"].groups}
    np.testing.assert_array_equal(groups["fixed order"], prefix_defects(fixed, li.X))
    np.testing.assert_array_equal(groups["BLAS matmul"], prefix_defects(blas, li.X))
    assert s.proof[0].endswith("= 0 (exact)") and "bit for bit" in s.proof[0]
    assert sci(float(prefix_defects(blas, li.X).max())) in s.proof[1]


def test_05_caches_outputs_and_staleness(all_stills):
    from mathcore import attention_fn, bidirectional_staleness, kv_cache_decode, lecture_inputs

    s = key(all_stills, "05_kv_cache")
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(s.panels["K"].values, tr.steps[-1].K_cache)
    np.testing.assert_array_equal(s.panels["V"].values, tr.steps[-1].V_cache)
    np.testing.assert_array_equal(s.panels["Y"].values, attention_fn(li.Wq, li.Wk, li.Wv, causal=True)(li.X))
    stale = bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv)
    for i, g in enumerate(s.panels["B"].groups):  # group i: past row i, one bar per appended token
        expect = [stale[t - 1][i] if i < t else np.nan for t in range(1, CFG.T)]
        np.testing.assert_array_equal(g.values, expect)
        assert g.color == f"token:{i}"
    assert s.proof[0].endswith("= 0 (exact)")


def test_06_swap_defects_per_row(all_stills):
    from mathcore import causal_mask, lecture_inputs
    from mathcore.equivariance import default_swap, swap_report

    s = key(all_stills, "06_causal_breaks_equivariance")
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    r = swap_report(li.X, li.Wq, li.Wk, li.Wv, *default_swap(CFG.T))
    self_rows, causal_rows = s.panels["S"].data, s.panels["C"].data  # the clip's charts: self-attention, then causal
    np.testing.assert_array_equal(causal_rows, r.causal_rows)
    np.testing.assert_array_equal(self_rows, r.self_rows)
    mask, perm = s.panels["M"].data
    np.testing.assert_array_equal(mask, causal_mask(CFG.T))
    np.testing.assert_array_equal(perm, r.perm)
    from scenes.figures.equivariance import mathtext

    # the two totals as verdicts: ✗ causal, ✓ self-attention, each with its measured figure
    assert s.proof[0].startswith("\u2717 $") and mathtext(r.causal_total) in s.proof[0]
    assert s.proof[1].startswith("\u2713 $") and mathtext(r.self_total) in s.proof[1]
    assert r"\neq" in s.subtitle  # the takeaway: Attn_causal(P X) ≠ P Attn_causal(X)
    assert r.causal_total > 1e-3 and r.self_total < 1e-10


def test_07_same_words_same_outputs(all_stills):
    from mathcore import attention_fn, lecture_inputs, my_sinusoidal_position, sentence_pair

    s = key(all_stills, "07_same_multiset")
    sp = sentence_pair(CFG.sentence_a, CFG.sentence_b, CFG.d, CFG.seed)
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    attn = attention_fn(li.Wq, li.Wk, li.Wv)
    PE = my_sinusoidal_position(len(sp.tokens_a), CFG.d, CFG.rope_base)
    for k, X, pos in (("A", sp.X_a, None), ("B", sp.X_b, None), ("C", sp.X_a, PE), ("D", sp.X_b, PE)):
        Y = attn(X if pos is None else X + pos)
        v = s.panels[k].values
        np.testing.assert_allclose(v[:-1], Y, atol=1e-15)
        np.testing.assert_allclose(v[-1], Y.mean(axis=0), atol=1e-15)
    a, b = (s.panels[k].yticks[:-1] for k in "AB")
    assert a == sp.tokens_a and b == sp.tokens_b
    # no positions: matched tokens agree to rounding; with positions: a visible gap
    m = sp.matching()
    np.testing.assert_allclose(s.panels["B"].values[:-1], s.panels["A"].values[:-1][m], atol=1e-14)
    assert np.max(np.abs(s.panels["D"].values[:-1] - s.panels["C"].values[:-1][m])) > 1e-3
    for k in "ABCD":  # the deck's "sentence vectors" scale (the clip's one), its stretch declared on the bar
        assert s.panels[k].scale.norm.vmax == -s.panels[k].scale.norm.vmin
        assert s.panels[k].scale.quantity == "sentence vectors" and s.panels[k].scale.gamma == 0.5
    assert s.panels["B"].colorbar == "output (square-root scale)"
    assert s.proof[0].startswith("\u2713 ") and s.proof[1].startswith("\u2717 ")  # equal; apart with positions


def test_08_the_matrix_is_my_sinusoidal_position(all_stills):
    from mathcore import my_sinusoidal_position, sinusoidal_wavelengths

    s = key(all_stills, "08_sinusoidal_position")
    M = s.panels["M"]
    T, d = M.values.shape
    assert T == CFG.T_heatmap
    np.testing.assert_array_equal(M.values, my_sinusoidal_position(T, d, CFG.rope_base))
    assert (M.scale.name, M.scale.norm.vmin, M.scale.norm.vmax) == (CFG.cmap_signed, -1.0, 1.0)
    dots = [ser for ser in s.panels["W"].series if ser.kind == "dots"]
    assert len(dots) == d
    offsets = s.panels["W"].yticks
    for j, ser in enumerate(dots):  # the samples drawn are the matrix's columns (shifted to their lane)
        np.testing.assert_allclose(ser.y - offsets[j // 2], M.values[:, j], atol=1e-12)
    lam = sinusoidal_wavelengths(d, CFG.rope_base)
    text = " ".join(ln.text for ln in s.panels["F"].lines)
    assert all(f"= {measure(v).text}" in text for v in lam)  # the wavelengths in the lecture's number style
    assert "m,\\,2i" in text and "p," not in text  # position m, as in the clip (not p)
    assert M.cbar_ticks == (-1.0, 0.0, 1.0) and M.cbar_ticklabels == ("\u22121", "0", "1")  # the clip's bar


def test_09_one_tokens_score_under_each_scheme_and_toeplitz(all_stills):
    """Like with like: the score q_m · k_n of one token under each scheme, on one scale; only RoPE's is
    a function of m − n (Toeplitz, measured), and the proof says so with its measured spread."""
    from mathcore import lecture_inputs, toeplitz_defect
    from mathcore.scheme_compare import scheme_scores

    s = key(all_stills, "09_three_positional_schemes")
    Ts = CFG.T_heatmap
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    sc = scheme_scores(li.X[0], li.Wq, li.Wk, Ts, CFG.rope_base, CFG.n_max, CFG.seed)
    for key_, S in zip("ABC", sc.grids):
        np.testing.assert_array_equal(s.panels[key_].values, S)
        assert s.panels[key_].scale.same_as(s.panels["A"].scale)  # one scale: one quantity
    top = max(float(np.max(np.abs(S))) for S in sc.grids)
    assert s.panels["A"].scale.norm.vmax == -s.panels["A"].scale.norm.vmin >= top
    assert sc.relative() == (False, False, True)
    assert sci(toeplitz_defect(sc.rope)) in s.proof[0] and "m - n" in s.proof[0]


def test_10_the_angle_grid(all_stills):
    from mathcore import rope_angle_grid

    s = key(all_stills, "10_rope_angle_grid")
    table, slow = s.panels["A"], s.panels["B"]  # the whole table on one cyclic scale; the slow pairs on a log scale
    T = CFG.T_heatmap
    grid = rope_angle_grid(T, 16, CFG.rope_base)
    nf = grid.shape[1] - slow.values.shape[1]
    np.testing.assert_array_equal(table.values, np.mod(grid, 2 * np.pi))
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(slow.values, np.log10(grid[:, nf:]))
    assert (table.scale.name, table.scale.norm.vmin, table.scale.norm.vmax) == (CFG.cmap_angles, 0.0, 2 * np.pi)
    # the deck's "slow angles" scale, never the weights' colormap (issue 33: viridis on log angles)
    assert slow.scale.quantity == "slow angles" and slow.scale.name != CFG.cmap_weights
    assert (grid[-1, :nf] >= np.pi / 2).all() and (grid[-1, nf:] < np.pi / 2).all()  # fast pairs reach a quarter turn
    assert s.proof[0].endswith(sci(0.0))  # the measured gap: exactly 0, marked exact


def test_11_scores_shift_and_V(all_stills):
    from mathcore import lecture_inputs
    from mathcore.rope_measures import shift_output_defect

    s = key(all_stills, "11_rope_rotates_qk")
    li = lecture_inputs(CFG.T, CFG.d, CFG.seed)
    q_pairs, _ = s.panels["Q"].data
    shift = int(re.search(r"positions (\d+) to", s.panels["B"].title)[1])
    plain = shift_output_defect(li.X, li.Wq, li.Wk, li.Wv, shift, CFG.rope_base, rotate_v=False)
    rot = shift_output_defect(li.X, li.Wq, li.Wk, li.Wv, shift, CFG.rope_base, rotate_v=True)
    assert sci(plain) in s.panels["B"].note and sci(rot) in s.panels["D"].note
    np.testing.assert_allclose(np.max(np.abs(s.panels["B"].values - s.panels["A"].values)), plain, atol=1e-15)
    np.testing.assert_allclose(np.max(np.abs(s.panels["D"].values - s.panels["C"].values)), rot, atol=1e-15)
    assert rot > 1e-3 and plain < 1e-12
    # every pair's length is kept by the rotations (the dials draw lengths honestly)
    np.testing.assert_allclose(np.linalg.norm(q_pairs[1], axis=-1), np.linalg.norm(q_pairs[2], axis=-1), rtol=1e-12)


def test_12_every_computed_sample_is_drawn(all_stills):
    from mathcore import sinusoidal_dilution

    s = key(all_stills, "12_positional_dilution")
    t, cos = sinusoidal_dilution(CFG.dilution_t_max, CFG.dilution_widths, CFG.rope_base)
    curves = {ser.label: ser for ser in s.panels["A"].series if ser.kind == "line"}
    for w, c in zip(CFG.dilution_widths, cos):
        ser = curves[f"$d$ = {w}"]
        np.testing.assert_array_equal(ser.x, t)
        np.testing.assert_array_equal(ser.y, c)  # never downsampled, never re-invented
    assert s.panels["A"].x_log


def test_13_unseen_pairs_and_the_wall(all_stills):
    from mathcore.extrapolation import LLAMA2, unseen_pair_counts

    s = key(all_stills, "13_extrapolation_cliff")
    x_max = 4 * CFG.n_max
    curve = next(ser for ser in s.panels["C"].series if ser.kind == "step")
    np.testing.assert_array_equal(curve.x, np.arange(1, x_max + 1))
    np.testing.assert_array_equal(curve.y, unseen_pair_counts(np.arange(1, x_max + 1), LLAMA2.head_dim,
                                                              CFG.train_length, CFG.rope_base))
    assert (curve.y[:CFG.train_length - 1] == 0).all() and curve.y[CFG.train_length - 1] > 0
    walls = [r.value for r in s.panels["A"].vlines]
    assert walls == [CFG.n_max]
    # the table's untrained rows in the failure's colour, as clip 13 paints them; sinusoidal's unseen stretch not
    # (review round 7: the clip's untrained rows shared the unseen pale blue; round 8 moved them to the red tint)
    past = {p: next(sp for sp in s.panels[p].spans if sp.lo == CFG.train_length) for p in "AB"}
    assert past["A"].color == "bad" and past["B"].color == "unseen", past
    assert f"no row for position {CFG.n_max}" in s.proof[-1]


def test_14_the_table_and_the_wavelengths(all_stills):
    from mathcore import learned_absolute_table
    from mathcore.extrapolation import GPT2, LLAMA2, LLAMA3, pairs_without_a_turn, rope_wavelengths

    s = key(all_stills, "14_gpt2_to_llama")
    table = learned_absolute_table(GPT2.d_model, GPT2.n_max, CFG.seed)
    T = s.panels["T"]
    rows = np.array([int(r) for r in T.yticks])
    cols = np.array([int(c) for c in T.xticks])
    np.testing.assert_array_equal(T.values, table[np.ix_(rows, cols)])  # real entries, labelled by their index
    assert rows.max() < GPT2.n_max
    sc = ColorScale.symmetric(CFG.cmap_signed, table)
    assert (T.scale.norm.vmin, T.scale.norm.vmax) == (sc.norm.vmin, sc.norm.vmax)
    wl = [ser.y for ser in s.panels["W"].series]
    np.testing.assert_array_equal(wl[0], rope_wavelengths(LLAMA2.head_dim, LLAMA2.rope_base))
    np.testing.assert_array_equal(wl[1], rope_wavelengths(LLAMA3.head_dim, LLAMA3.rope_base))
    n_slow = pairs_without_a_turn(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base)
    assert f"{n_slow} of {LLAMA2.head_dim // 2}" in s.proof[0]


def test_a_measured_width_is_kept_per_font_setting_and_equals_a_fresh_measure():
    """``text_width`` keeps each measure (wrapping re-measures the same lines in every theme), keyed by
    the rc context's font settings too: under another font the same string measures anew."""
    import matplotlib as mpl

    from scenes.stills import text as S

    s = r"the weights $A_{ij} = \mathrm{softmax}(q_i \cdot k_j)$ sum to 1"
    S._measure.cache_clear()
    first = S.text_width(s, 10.5)
    assert S.text_width(s, 10.5) == first and S._measure.cache_info().hits == 1
    with mpl.rc_context({"font.family": "monospace", "mathtext.fontset": "stix"}):
        other = S.text_width(s, 10.5)
    assert other != first and S._measure.cache_info().misses == 2
    S._measure.cache_clear()
    assert S.text_width(s, 10.5) == first  # what a fresh measure gives
    assert S.text_width(s, 12) > first
