"""The scene kit: theme, widgets, plots, narration, and the no-LaTeX guarantee."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from conftest import LatexAttempted
from mathcore import load_config
from scenes.catalog import LECTURE
from scenes.kit import (
    ColorScale,
    Heatmap,
    LabelledMatrix,
    NarrationError,
    Plot,
    TokenRow,
    VectorDial,
    downsample_minmax,
    fmt_measure,
    fmt_value,
    narration,
    reading_time,
    register_fonts,
    token_color,
)


# ------------------------------------------------------------------------------ no LaTeX
@pytest.mark.parametrize("build", [
    lambda m: m.MathTex("x^2"),
    lambda m: m.Tex("hello"),
    lambda m: m.DecimalNumber(1.5),
    lambda m: m.Matrix([[1, 2], [3, 4]]),
])
def test_any_latex_compile_fails_the_tests(build):
    import manim

    with pytest.raises(LatexAttempted):
        build(manim)


def test_kit_text_and_math_need_no_latex():
    from scenes.kit import label, math, mono

    assert label("x").width > 0 and mono("x = 1").width > 0
    assert math("sum_(i=1)^n x_i").width > 0


def _same_drawing(a, b) -> bool:
    fa, fb = a.family_members_with_points(), b.family_members_with_points()
    return len(fa) == len(fb) and all(
        np.array_equal(x.points, y.points) and np.array_equal(x.fill_rgbas, y.fill_rgbas)
        and np.array_equal(x.stroke_rgbas, y.stroke_rgbas) for x, y in zip(fa, fb))


def test_text_and_math_read_back_from_the_disk_cache_are_what_is_built(tmp_path, monkeypatch):
    """A label or formula another process built is read from the cache: the same points and colours as one
    built here; a damaged entry is dropped (said in one line) and built again, never used; a different
    canvas or font size is another entry; with the cache off nothing is kept."""
    from manim import tempconfig

    import clipcache
    from scenes.kit import theme

    def use(mode: str) -> clipcache.Store:
        s = clipcache.Store(tmp_path, mode)
        s.report = lambda line: None
        monkeypatch.setattr(clipcache, "_store", s)
        return s

    def kept() -> int:
        return clipcache.Store(tmp_path).usage()["mobjects"].entries

    use("off")
    theme._BUILT.clear()
    fresh = [theme.label("Größe · Äpfel", size=24), theme.math("sum_(i=1)^n x_i", size=24)]
    assert kept() == 0  # off means off
    store = use("on")
    for round_ in range(2):  # written, then read back
        theme._BUILT.clear()
        again = [theme.label("Größe · Äpfel", size=24), theme.math("sum_(i=1)^n x_i", size=24)]
        assert all(_same_drawing(a, b) for a, b in zip(fresh, again)), round_
        assert kept() == 2
    for f in (tmp_path / "mobjects").rglob("*.*"):
        f.write_bytes(f.read_bytes()[:100])  # cut short (a disk that lost its tail: a writer cannot, it renames)
    theme._BUILT.clear()
    assert _same_drawing(fresh[0], theme.label("Größe · Äpfel", size=24))
    assert len(store.repairs) == 1 and "damaged mobjects entry" in store.repairs[0]
    assert kept() == 2  # the damaged label dropped and kept anew (the formula, damaged too, waits for its read)
    theme._BUILT.clear()
    theme.label("Größe · Äpfel", size=25)
    from manim import config

    w, h = config.pixel_width, config.pixel_height
    with tempconfig({"pixel_width": w // 2, "pixel_height": h // 2}):
        theme.label("Größe · Äpfel", size=24)  # a label is laid out on one canvas whatever the frame's: the same entry
    assert kept() == 3
    theme._BUILT.clear()
    with tempconfig({"pixel_width": w // 2, "pixel_height": h // 2}):
        theme.math("sum_(i=1)^n x_i", size=24)  # a formula's entry is the frame's
    assert kept() == 4
    theme._BUILT.clear()


def test_fonts_shipped_are_registered():
    names = register_fonts()
    assert "Inter-Regular.otf" in names and "DejaVuSansMono.ttf" in names


# ------------------------------------------------------------------------------ numbers and colours
def test_measures_are_formatted_honestly():
    assert fmt_measure(0.0) == "exactly 0"
    assert fmt_measure(2.220446049250313e-16) == "≈ 2.2 × 10⁻¹⁶"
    assert fmt_measure(1e-300) != "exactly 0"
    assert fmt_measure(3.5) == "3.5" and fmt_measure(0.826) == "0.83" and fmt_measure(12.3) == "12"
    assert fmt_measure(-2.43) == "\u22122.4" and fmt_measure(1.2e-4) == "≈ 1.2 × 10⁻⁴"
    assert fmt_value(-0.004, 2) == "0.00" and fmt_value(-1.25, 1) == "\u22121.2"


@given(arrays(np.float64, st.integers(1, 20), elements=st.floats(-5, 5)))
def test_color_scale_is_matplotlibs_norm_and_colormap(values):
    s = ColorScale("viridis", -5.0, 5.0)
    want = matplotlib.colormaps["viridis"](matplotlib.colors.Normalize(-5, 5)(values))[..., :3]
    np.testing.assert_allclose(s.rgb(values), want)
    got = np.array(s.color(values[0]).to_rgb())
    np.testing.assert_allclose(got, want[0], atol=1 / 255)


def test_a_stretched_diverging_scale_is_signed_and_symmetric_about_zero():
    """A diverging scale with a gamma stretches both sides alike (sign(v) |v|^gamma), 0 stays the middle, its
    colour bar shows the stretch with a round tick each side; a one-sided scale keeps matplotlib's PowerNorm."""
    from scenes.kit.widgets import ColorBar

    s = ColorScale("RdBu_r", -5.0, 5.0, gamma=0.5)
    np.testing.assert_allclose(s.position([-5, -1.25, 0, 1.25, 5]), [0, 0.25, 0.5, 0.75, 1])
    np.testing.assert_allclose(s.rgb(2.0) , matplotlib.colormaps["RdBu_r"](0.5 + 0.5 * np.sqrt(0.4))[:3])
    assert s.ticks() == [-5.0, -1.0, 0.0, 1.0, 5.0]
    np.testing.assert_allclose(s.norm.inverse(s.norm(np.array([-3.0, 0.7]))), [-3.0, 0.7])
    bar = ColorBar(s, height=2.0)
    assert [t.text for t in bar.tick_labels] == ["\u22125", "\u22121", "0", "1", "5"]
    np.testing.assert_allclose(bar.point_of(1.25)[1] - bar.frame.get_bottom()[1], 1.5, atol=1e-9)  # 3/4 up
    assert not ColorScale("RdBu_r", -5.0, 5.0).gamma and ColorScale("RdBu_r", -5.0, 5.0).ticks() == [-5.0, 0.0, 5.0]
    assert isinstance(ColorScale("viridis", 0.0, 1.0, gamma=0.5).norm, matplotlib.colors.PowerNorm)


def test_a_bar_too_short_for_its_ticks_keeps_its_ends_and_zero():
    """A short horizontal bar cannot hold −1.5, −0.5, 0, 0.5, 1.5 side by side (CI's sweep: clip 07 at T = 3, d = 2):
    it drops the inner round values, keeps the ends and 0, and no two labels touch; a long one keeps all five."""
    from scenes.kit.widgets import ColorBar

    s = ColorScale("seismic", -1.5, 1.5, gamma=0.5)
    assert s.ticks() == [-1.5, -0.5, 0.0, 0.5, 1.5]
    short = ColorBar(s, height=2.0, horizontal=True)
    assert short.ticks == (-1.5, 0.0, 1.5) and [t.text for t in short.tick_labels] == ["\u22121.5", "0", "1.5"]
    xs = sorted((t.get_left()[0], t.get_right()[0]) for t in short.tick_labels)
    assert all(b[0] - a[1] >= 0.1 for a, b in zip(xs, xs[1:]))
    assert ColorBar(s, height=6.0, horizontal=True).ticks == (-1.5, -0.5, 0.0, 0.5, 1.5)


def test_color_scale_rejects_an_empty_range():
    with pytest.raises(ValueError, match="vmax > vmin"):
        ColorScale("viridis", 1.0, 1.0)


# ------------------------------------------------------------------------------ widgets
def test_heatmap_paints_each_cell_from_its_value_and_marks_masked_cells():
    v = np.array([[0.1, 0.9], [-np.inf, 0.5]])
    s = ColorScale("magma", 0, 1)
    h = Heatmap(v, s, show_values=True)
    for i in range(2):
        for j in range(2):
            col = np.array(h.cell(i, j).get_fill_color().to_rgb())
            if np.isfinite(v[i, j]):
                np.testing.assert_allclose(col, s.rgb(v[i, j]), atol=1 / 255)
    assert [t.text for t in h.labels] == ["0.10", "0.90", "\u2212\u221e", "0.50"]
    assert h.cell(0, 0).get_center()[0] < h.cell(0, 1).get_center()[0]
    assert h.cell(0, 0).get_center()[1] > h.cell(1, 0).get_center()[1]
    h2 = h.recolored(np.zeros((2, 2)))
    np.testing.assert_array_equal(h2.values, 0) and np.testing.assert_array_equal(h.values, v)


def test_a_printed_matrix_keeps_a_margin_of_its_cells_colour_round_every_number():
    """Every value of a matrix printed at one size (``uniform_values``, as ``value_map`` prints them) takes at
    most ``VALUE_FILL`` of its cell's width, and the widest is at that share when it had to shrink: at 0.88 a row
    of "−0.29 −0.30 −0.32" read as one string running across the borders (review round 9, clip 04)."""
    from scenes.kit.widgets import VALUE_FILL

    v = np.array([[-0.35, -1.49, -1.12, 1.88], [-0.29, -0.30, -0.32, 0.78]])
    h = Heatmap(v, ColorScale("RdBu_r", -2, 2), (0.8, 0.6), show_values=True, value_size=40, uniform_values=True)
    widths = [t.width for t in h.labels]
    # (within 1 %: text drawn at a scaled size is not exactly the scaled width of the probe)
    assert VALUE_FILL * 0.8 * 0.99 <= max(widths) <= VALUE_FILL * 0.8 * 1.01
    assert VALUE_FILL <= 0.8  # a clear margin: at least a tenth of the cell on each side of the widest number
    for t, (i, j) in zip(h.labels, [(i, j) for i in range(2) for j in range(4)]):
        c = h.cell(i, j)
        assert t.get_left()[0] - c.get_left()[0] >= 0.09 * c.width - 1e-6, (i, j)


def test_labelled_matrix_permutes_rows_into_the_right_slots():
    from manim import Scene

    X = np.arange(12, dtype=float).reshape(4, 3)
    m = LabelledMatrix(X, row_labels=[f"x_{i}" for i in range(4)])
    assert [[t.text for t in row] for row in m.entries] == [[fmt_value(v, 1) for v in r] for r in X]
    perm = [2, 0, 3, 1]
    anim = m.permute_rows(perm)
    np.testing.assert_array_equal(m.row_order, perm)
    scene = Scene()
    scene.add(m)
    anim.begin()
    anim.interpolate(1.0)
    for slot, src in enumerate(perm):
        assert m.rows[src][0].get_center()[1] == pytest.approx(m.slot_center(slot)[1])
    np.testing.assert_array_equal(m.row_order[m.row_order.argsort()], np.arange(4))


def test_labelled_matrix_colours_labels_by_token():
    m = LabelledMatrix(np.zeros((3, 2)), row_labels=["a", "b", "c"], row_colors=[token_color(2), token_color(0), token_color(1)])
    got = [tuple(np.round(lab.get_fill_color().to_rgb(), 3)) for lab in m.row_labels]
    want = [tuple(np.round(token_color(k).to_rgb(), 3)) for k in (2, 0, 1)]
    assert got == want


def test_token_row_boxes_in_order():
    r = TokenRow(["the", "cat", "ate"])
    xs = [b.get_center()[0] for b in r.boxes]
    assert xs == sorted(xs) and [t.text for t in r.texts] == ["the", "cat", "ate"]


@given(st.floats(-20, 20))
def test_vector_dial_points_at_its_angle(angle):
    d = VectorDial(angle=0.0, radius=1.5)
    d.set_angle(angle)
    tip = d.tip() - d.center
    np.testing.assert_allclose(tip[:2], 1.5 * np.array([np.cos(angle), np.sin(angle)]), atol=1e-6)
    assert d.angle == angle


# ------------------------------------------------------------------------------ plots
@given(arrays(np.float64, st.integers(1, 3000), elements=st.floats(-1e6, 1e6)), st.integers(1, 200))
def test_downsampling_keeps_real_points_ends_and_extremes(y, buckets):
    x = np.arange(len(y), dtype=float)
    idx = downsample_minmax(x, y, buckets)
    assert np.all(np.diff(idx) > 0) and idx[0] == 0 and idx[-1] == len(y) - 1
    assert len(idx) <= max(len(y) if len(y) <= 4 * buckets else 0, 4 * buckets)
    assert y[idx].max() == y.max() and y[idx].min() == y.min()


def test_downsampling_buckets_by_screen_position_on_a_log_axis():
    t = np.arange(1, 10001, dtype=float)
    p = Plot((1, 10000), (0, 1), x_log=True)
    idx = downsample_minmax(p._frac(t, p.x_range, True), np.sin(t), 100)
    assert set(range(10)) <= set(idx.tolist())  # every early sample: they are pixels apart


def test_plot_maps_data_to_the_screen():
    p = Plot((1, 1000), (1e-16, 1), width=6, height=3, x_log=True, y_log=True, x_ticks=[1, 10, 100, 1000])
    a, b = p.to_point(1, 1e-16), p.to_point(1000, 1)
    assert b[0] - a[0] == pytest.approx(6) and b[1] - a[1] == pytest.approx(3)
    assert p.to_point(10, 1e-8)[0] - a[0] == pytest.approx(2)
    assert p.to_point(10, 1e-8)[1] - a[1] == pytest.approx(1.5)
    # a log axis is labelled 10^k, typeset; a linear one with round digits
    assert [t.typst_code.strip("$ ") for t in p.x_tick_labels] == ["10^0", "10^1", "10^2", "10^3"]
    lin = Plot((0, 12000), (0, 1), x_ticks=[0, 5000, 10000], y_ticks=[0, 0.5, 1])
    assert [t.text for t in lin.x_tick_labels] == ["0", "5000", "10\u2009000"]
    assert [t.text for t in lin.y_tick_labels] == ["0", "0.5", "1"]
    with pytest.raises(ValueError, match="positive"):
        Plot((0, 10), (0, 1), x_log=True)


# ------------------------------------------------------------------------------ narration and pacing
def test_every_clip_in_the_catalog_has_its_narration_when_its_scene_exists():
    from scenes.catalog import CLIPS

    for c in CLIPS:
        lines = narration(c)
        assert {"title", "close"} <= set(lines), c.name
        tables = {"say", "describe"}  # the spoken form of a caption, and the beats' audio descriptions
        fails = {"student_fail", "student_fail_say"}  # a student's failing variants (kit.student) and their voice
        assert all(isinstance(v, str) and v.strip() for k, v in lines.items() if k not in tables | fails), c.name
        for t in tables & set(lines):
            assert isinstance(lines[t], dict) and set(lines[t]) <= set(lines) - tables - fails, (c.name, t)
            assert all(isinstance(v, str) and v.strip() for v in lines[t].values()), (c.name, t)
        if "student_fail" in lines:  # each variant replaces a beat's caption, or is the error card's ("error")
            fail = lines["student_fail"]
            assert isinstance(fail, dict) and set(fail) <= set(lines) - tables - fails | {"error"}, c.name
            assert all(isinstance(v, str) and v.strip() for v in fail.values()), c.name
            assert set(lines.get("student_fail_say", {})) <= set(fail), c.name
        else:
            assert "student_fail_say" not in lines, c.name


def test_missing_narration_is_one_clear_error():
    from scenes.catalog import Clip

    with pytest.raises(NarrationError, match=r"99_nope\.toml: narration file not found"):
        narration(Clip(99, "Nope", "permutation", "§0", "Nope", "nope"))


def test_reading_time_follows_the_house_pace():
    assert reading_time("one two") == pytest.approx(1.6)
    assert reading_time(" ".join(["w"] * 25)) == pytest.approx(10.0)


def test_the_catalog_is_the_storyboard_in_order():
    assert [c.number for c in LECTURE] == list(range(16))
    assert len({c.slug for c in LECTURE}) == 16 and len({c.scene for c in LECTURE}) == 16
    assert load_config().T >= 3


@pytest.mark.parametrize("clip", ["03_causal_mask", "07_same_multiset", "13_extrapolation_cliff"])
def test_the_audit_measures_every_box_as_manim_does_and_draws_nothing(clip, monkeypatch):
    """The audit's one-pass box is Manim's four edges, for every mobject the audited clip ends on
    (text, formulas, heatmaps, plots, empty groups); and an audit that wants no picture draws none."""
    from manim import Mobject

    from scenes.catalog import CLIPS
    from scenes.audit import beats as audit
    from scenes.render import scene_class

    drawn = []
    monkeypatch.setattr("manim.camera.camera.Camera.capture_mobjects", lambda self, *a, **k: drawn.append(1))
    res = audit.audit_clip(scene_class(next(c for c in CLIPS if c.name == clip)))
    assert res.records and not drawn
    family = [f for m in res.scene.mobjects for f in m.get_family()]
    assert len(family) > 200
    for f in family + [Mobject()]:
        manim_box = (f.get_left()[0], f.get_bottom()[1], f.get_right()[0], f.get_top()[1])
        assert audit._box(f) == tuple(float(v) for v in manim_box), f


# ------------------------------------------------------------------------------ mobject copies
def _same_copy(a, b, orig, memo_a: dict, memo_b: dict, path: str = "m") -> None:
    """``a`` (our copy) and ``b`` (Manim's) of ``orig``: the same types and values, the same sharing
    (an object met twice in ``orig`` is one object in each copy), and nothing mutable shared with ``orig``."""
    import enum

    from manim import ManimColor
    from manim.mobject.mobject import Mobject

    assert type(a) is type(b), (path, type(a), type(b))
    if isinstance(orig, (bool, int, float, str, bytes, type(None), enum.Enum, ManimColor, np.generic)) or callable(orig) \
            and not isinstance(orig, Mobject):
        assert (a is orig) == (b is orig) or a == b, path
        return
    if id(orig) in memo_a:  # met before: both copies point back at the copy they made then
        assert a is memo_a[id(orig)] and b is memo_b[id(orig)], f"{path}: sharing differs"
        return
    memo_a[id(orig)], memo_b[id(orig)] = a, b
    if isinstance(orig, np.ndarray):
        assert a is not orig and a.dtype == b.dtype and a.shape == b.shape, path
        assert a.flags.c_contiguous == b.flags.c_contiguous and a.flags.f_contiguous == b.flags.f_contiguous, path
        assert np.array_equal(a, b, equal_nan=True), path
        return
    if isinstance(orig, (list, tuple)):
        assert len(a) == len(b) == len(orig), path
        if isinstance(orig, list):
            assert a is not orig, path
        for i, (x, y, o) in enumerate(zip(a, b, orig)):
            _same_copy(x, y, o, memo_a, memo_b, f"{path}[{i}]")
        return
    if isinstance(orig, dict):
        assert a is not orig and list(a) == list(b) == list(orig), path
        for k in orig:
            _same_copy(a[k], b[k], orig[k], memo_a, memo_b, f"{path}[{k!r}]")
        return
    if isinstance(orig, Mobject):
        assert a is not orig and list(vars(a)) == list(vars(b)), (path, set(vars(a)) ^ set(vars(b)))
        assert a.original_id == b.original_id == str(id(orig)), path
        for k, o in vars(orig).items():
            if k != "original_id":
                _same_copy(vars(a)[k], vars(b)[k], o, memo_a, memo_b, f"{path}.{k}")
        return
    # anything else was handed to copy.deepcopy by both (or shared by both: svgelements paths)
    assert (a is orig) == (b is orig), path


@pytest.mark.parametrize("clip", ["02_permutation_equivariance", "11_rope_rotates_qk"])
def test_a_mobject_copy_is_manims_own_attribute_for_attribute(clip, monkeypatch):
    """scenes.kit.copying replaces Manim's Mobject.__deepcopy__ (44 % of an audit) by one that skips
    copy.deepcopy for what it knows: over every mobject of a clip's last picture (text, Typst, matrices,
    plots, dials), its copy has Manim's copy's types, values, memory order and sharing, owns every
    array and list (a change to it leaves the original alone), and draws the same pixels."""
    import copy

    from manim.mobject.mobject import Mobject

    from scenes.catalog import resolve
    from scenes.kit import copying
    from scenes.audit.beats import audit_clip
    from scenes.render import scene_class

    assert Mobject.__deepcopy__ is copying.mobject_deepcopy  # installed for the tests (conftest, patches.py)
    scene = audit_clip(scene_class(resolve([clip])[0]), load_config(), frame_size=(256, 144)).scene
    group = scene.mobjects
    assert sum(len(m.get_family()) for m in group) > 100
    ours = [copy.deepcopy(m) for m in group]
    monkeypatch.setattr(Mobject, "__deepcopy__", copying._MANIM_DEEPCOPY)
    manims = [copy.deepcopy(m) for m in group]
    monkeypatch.undo()
    for i, (a, b, o) in enumerate(zip(ours, manims, group)):  # each its own deepcopy, with its own memo
        _same_copy(a, b, o, {}, {}, f"mobjects[{i}]")
    # a copy is its own: moving it moves nothing of the original
    before = [m.points.copy() for m in group[0].get_family()]
    ours[0].shift([1.0, 0.5, 0.0])
    assert all(np.array_equal(p, m.points) for p, m in zip(before, group[0].get_family()))
    # and the copies draw what the originals draw, pixel for pixel
    def draw(mobs):
        scene.clear()
        scene.add(*mobs)
        scene.renderer.update_frame(scene)
        return np.array(scene.renderer.get_frame())

    frame_o = draw(group)
    assert frame_o.std() > 0
    assert np.array_equal(draw([copy.deepcopy(m) for m in group]), frame_o)


def test_a_label_pango_drew_in_a_fallback_font_is_never_kept_on_disk(tmp_path, monkeypatch):
    """A worker whose Pango lost the registered Inter drew labels in a fallback font and wrote them to the
    shared mobject cache: every later process was served them (a fresh clone's suite: widths 8 to 15 % off, layouts
    refused).  A label is measured against Inter's own font file first; one that is off is laid out again with
    the fonts registered anew, and if still off stays in its process only."""
    from manim import Text

    import clipcache
    from scenes.kit import theme

    store = clipcache.Store(tmp_path)
    monkeypatch.setattr(clipcache, "_store", store)
    good = theme.label("a label drawn in Inter", size=theme.LABEL)
    assert store.usage()["mobjects"].entries == 1
    monkeypatch.setattr(theme, "Text", lambda text, font, **kw: Text(text, font="DejaVu Sans", **kw))
    wrong = theme.label("a label drawn in a fallback", size=theme.LABEL)
    assert store.usage()["mobjects"].entries == 1, "a label in the wrong font was written to the shared cache"
    assert wrong.width > 1.05 * theme._inter_width("a label drawn in a fallback", theme.LABEL, "NORMAL")
    assert abs(good.width - theme._inter_width("a label drawn in Inter", theme.LABEL, "NORMAL")) < 0.02


@pytest.mark.parametrize("where", ["text folder", "svg cache"])
def test_an_svg_pango_drew_in_a_fallback_font_under_inters_name_is_drawn_again(tmp_path, monkeypatch, where):
    """Manim reads a Text's SVG back from its text folder by a hash of the text and the font's name, so one SVG that
    a process without Inter drew (kept in the shared text folder by a worker) was served under Inter's name to every
    later process: re-registering the fonts drew nothing anew (a fresh clone's suite: font measures 8 to 15 % off,
    layouts refused).  The label that measures off drops that SVG and is laid out again, in Inter.  In a render
    worker the SVG is written back from the cache (kind ``svg``, ``scenes/render/patches.py``): the label drops
    that entry too, or the fallback's outlines would be written back under Inter's name again."""
    import shutil
    from pathlib import Path

    from manim import Text, tempconfig

    import clipcache
    from scenes.kit import theme
    from scenes.render import patches

    store = clipcache.Store(tmp_path)
    store.report = lambda line: None
    monkeypatch.setattr(clipcache, "_store", store)
    text = f"a poisoned label, once ({where})"
    theme.register_fonts()
    if where == "svg cache":  # the typeset files through the cache, as a render worker has them
        monkeypatch.setitem(patches._TYPESET, "text", Text._text2svg)
        monkeypatch.setattr(Text, "_text2svg", patches._text2svg)
    w, h = theme.TEXT_CANVAS  # the canvas every label is laid out on (the svg cache's key holds it)
    with tempconfig({"pixel_width": w, "pixel_height": h}):
        inter = Text(text, font=theme.SANS, font_size=theme.LABEL, color=theme.FG, weight="NORMAL")
        fallback = Text(text, font="DejaVu Sans", font_size=theme.LABEL, color=theme.FG, weight="NORMAL")
        if where == "svg cache":  # the fallback's outlines kept under Inter's key; the file gone with its worker
            store.put(*inter.svg_entry, Path(fallback.file_name).read_bytes())
            Path(inter.file_name).unlink()
        else:
            shutil.copyfile(fallback.file_name, inter.file_name)  # the fallback's outlines under Inter's hash
        assert Text(text, font=theme.SANS, font_size=theme.LABEL, color=theme.FG).width > 1.05 * inter.width
    t = theme.label(text, size=theme.LABEL)
    assert abs(t.width - theme._inter_width(text, theme.LABEL, "NORMAL")) < 0.02
    assert not getattr(t, "not_for_disk", False) and store.usage()["mobjects"].entries == 1


REPO_ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
FONT_PROBE = r"""
import sys, tempfile
from manim import Text, config
config.media_dir = tempfile.mkdtemp()  # nothing Manim drew before
import scenes  # what every entry point imports first
from mathcore import typeset
s = "a label Pango finds by fontconfig alone"
print(Text(s, font="Inter", font_size=30).width / typeset.ink_width(s, 30, "NORMAL"))
"""


def test_every_process_finds_inter_in_fontconfig_itself_without_registering_it():
    """Importing ``scenes`` points fontconfig at a configuration with the lecture's fonts (FONTCONFIG_FILE, never
    rescanned), so a process draws Inter whether or not it registered the fonts, and whatever became of what it
    registered: a fresh clone's suite lost them in one worker and drew every later label in a fallback font.
    Turned off, the same process draws the fallback."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}

    def ratio(**extra) -> float:
        out = subprocess.run([sys.executable, "-c", FONT_PROBE], env={**env, **extra}, capture_output=True, text=True,
                             cwd=REPO_ROOT, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        return float(out.stdout.strip().splitlines()[-1])

    assert abs(ratio() - 1.0) < 0.01
    assert abs(ratio(ATTENTION_CLIPS_FONTCONFIG="0") - 1.0) > 0.05


def test_a_family_colour_never_passes_for_a_concept_colour():
    """Clip 12 with four widths drew its second width in the 'cool' ramp's #9D61FF, the seen violet to within
    1 %: the audit read it as the concept drawn without its role, and so would a student.  Every ramp colour
    keeps RAMP_APART from every concept colour; the ramp's order still reads (each colour moves least)."""
    from scenes.kit.theme import CONCEPT_COLORS, RAMP_APART, ramp

    for cmap in ("cool", "plasma"):
        for n in range(1, 9):
            cols = [np.asarray(ramp(k, n, cmap).to_rgb()) for k in range(n)]
            for c in cols:
                assert all(np.max(np.abs(c - np.asarray(v.to_rgb()))) >= RAMP_APART for v in CONCEPT_COLORS.values())
            assert len({tuple(np.round(c, 3)) for c in cols}) == n
    assert ramp(1, 4, "cool").to_hex().upper() != "#9D61FF" and ramp(0, 3, "cool").to_hex().upper() == "#738CFF"


def test_a_removed_font_configuration_is_written_again_by_the_next_process(tmp_path):
    """FONTCONFIG_FILE points child processes at .render-cache/fontconfig/fonts.conf; a user who clears
    .render-cache between two commands (or a cache clean) removes it, and a process started with the variable
    still set must not look for its fonts in a file that is gone: importing ``scenes`` writes it again."""
    import os
    import subprocess
    import sys

    import scenes

    conf = REPO_ROOT / ".render-cache" / "fontconfig" / "fonts.conf"
    assert REPO_ROOT / "scenes" == __import__("pathlib").Path(scenes.__file__).resolve().parent
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    conf.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", "import scenes, os; print(os.environ['FONTCONFIG_FILE'])"],
                         env=env, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == str(conf)
    assert conf.is_file() and "/etc/fonts/fonts.conf" in conf.read_text() and str(conf) not in conf.read_text()


# ------------------------------------------------------------------------------ words and math on one line
def test_a_worded_line_sets_its_words_in_the_sans_and_its_maths_in_typst():
    """Review (issue 33): verdict lines and labels wrote their words inside Typst math (``"pair" 63 "at" m``),
    so the words came out in the serif math font.  ``worded_line`` sets the words as the theme's sans ``Text``
    and only the ``$…$`` pieces as Typst math, on one baseline, in reading order."""
    from manim import MathTypst, Text

    from scenes.kit.proofs import line_baseline, worded_line
    from scenes.kit.theme import SANS

    line = worded_line("pair 63 at $m = 2 L = 8192$, past $L$")
    assert [type(p) for p in line.pieces] == [Text, MathTypst, Text, MathTypst]
    assert [w.text for w in line.words] == ["pair63at", ",past"]  # Text.text drops plain spaces
    assert all(w.font == SANS for w in line.words)
    assert [m.typst_code.strip("$ ") for m in line.maths] == ["m = 2 L = 8192", "L"]
    assert not any('"' in m.typst_code for m in line.maths)  # no words smuggled into the math
    xs = [p.get_left()[0] for p in line.pieces]
    assert xs == sorted(xs) and all(a.get_right()[0] < b.get_left()[0] + 1e-6 for a, b in zip(line.pieces,
                                                                                                line.pieces[1:]))
    base = line_baseline(line.pieces[0])
    assert all(abs(line_baseline(p) - base) < 0.02 for p in line.pieces)
    assert line.source == "pair 63 at $m = 2 L = 8192$, past $L$"


def test_a_worded_verdict_keeps_its_words_sans_and_its_figure_math():
    from manim import MathTypst, Text

    from scenes.kit.numbers import Figure
    from scenes.kit.proofs import worded_verdict

    v = worded_verdict("every $m > 172$ has a twin at $d = 256$:", Figure(0.66, "66 %", "66 %"), passed=False)
    assert v._verdict and v.figure.text == "66 %" and v.formula.startswith("every")
    assert [type(p) for p in v.line.pieces] == [Text, MathTypst, Text, MathTypst, Text, MathTypst]
    assert v.line.words[-1].text == ":"
    assert v.value is v.line.pieces[-1] and v.value.typst_code.strip("$ ") == "66 %"
    assert v.check.get_right()[0] < v.line.get_left()[0]  # the mark first, then the words and the figure
    w = worded_verdict("$max |Delta|$", 0.0, passed=True)
    assert w.figure.exact and any(getattr(p, "text", "") == "exact" for p in w.value.get_family())


def test_a_worded_verdict_sets_its_relation_before_the_figure_on_one_math_line():
    """``relation``: the matrix a verdict measures, typeset with its figure (one Typst line), the words before it
    in the sans; ``≈`` alone for rounding noise (never ``= ≈``)."""
    from scenes.kit.proofs import worded_verdict

    v = worded_verdict("causal:", 0.83, passed=False, relation="norm(A)_F =")
    assert [w.text for w in v.line.words] == ["causal:"]
    assert v.value.typst_code.strip("$ ").startswith("norm(A)_F =") and "0.83" in v.value.typst_code
    assert "norm(A)_F" in v.formula and v.figure.value == 0.83
    noise = worded_verdict("self:", 2.7e-16, passed=True, relation="norm(A)_F =")
    assert "=" not in noise.value.typst_code.split("norm(A)_F", 1)[1]
    assert worded_verdict("plain", 0.5).formula == "plain"  # without a relation: as before


@pytest.mark.parametrize("passed", [True, False])
def test_a_worded_verdicts_mark_follows_pass_or_fail(passed):
    from scenes.kit.proofs import worded_verdict
    from scenes.kit.theme import FAILED, VERIFIED

    v = worded_verdict("the angle there", 0.95, passed=passed)
    assert v.passed is passed
    want = VERIFIED if passed else FAILED
    assert v.check.get_stroke_color().to_hex() == want.to_hex()
    assert v.check._role == ("verified" if passed else "failed")
    # the words are never painted in the verdict's colour: the mark alone says pass or fail
    assert all(w.get_fill_color().to_hex() != want.to_hex() for w in v.line.words)


@pytest.mark.parametrize("x, relation", [(1.5921, "approx"), (0.5, "="), (1024, "="), (0.83, "="),
                                         (2.2e-16, "approx"), (12345.0, "=")])
def test_a_rounded_figure_is_related_by_approx_an_exact_one_by_equals(x, relation):
    """A formula relating a figure its digits round (max |ΔY| = 1.5921… printed "1.6") writes ≈: "= 1.6" would
    claim an equality that is false; exact digits (0.5, a count) keep "="."""
    from scenes.kit.theme import figure

    code = figure(x, prefix="max |Delta Y| =").typst_code.strip("$ ")
    rel = code.split("max |Delta Y|", 1)[1].split()[0]
    assert rel == relation, code

