"""The layout kit and the beat audit: measured legibility, regions, fitting, wrapping,
collision-free annotations, and a checker that catches each kind of fault it claims to."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import DOWN, LEFT, RIGHT, UP, Line, MathTypst, Rectangle, Square, VGroup

from scenes.kit import SMALL, LABEL, ClipScene, TokenRow, label, math
from scenes.audit.beats import check, snapshot
from scenes.kit.layout import (
    FIT_XHEIGHT_PX,
    MIN_XHEIGHT_PX,
    PX_PER_UNIT,
    SAFE,
    LayoutError,
    Region,
    baseline_y,
    fit_label,
    min_xheight_px,
    overlay,
    place_annotations,
    spread_1d,
    typst_script_scale,
    xheight_px,
)


# ------------------------------------------------------------------ measuring legibility
@pytest.mark.parametrize("expr, want", [
    ("x", 1.0), ("x_x", 0.7), ("x^x", 0.7), ("x_(x_x)", 0.5), ("x^(x/x)", 0.5), ("(x/x)/x", 0.7),
    ("x/x", 1.0), ("scripts(x)_(x)", 0.7), ('x_"x"', 0.7 * 0.95), ("frac(x, x)", 1.0),
    ("x_x(x_x)", 0.5), ("x_x (x_x)", 0.7),  # a call takes its parentheses into the script; after a space, not
])
def test_script_scale_matches_the_glyphs_typst_draws(expr, want):
    assert typst_script_scale(expr) == pytest.approx(want)
    m = MathTypst(expr, font_size=100)
    heights = [s.height for s in m.family_members_with_points() if s.height > 0.05]
    base = MathTypst("x", font_size=100).height
    # the smallest x drawn is the base x scaled by the script factor (strings: their own x-height)
    assert min(heights) / base == pytest.approx(want, abs=0.03)


def test_x_height_is_the_height_of_an_x_at_854x480():
    for size in (SMALL, LABEL, 40):
        assert xheight_px(label("x", size=size)) == pytest.approx(label("x", size=size).height * PX_PER_UNIT, rel=0.01)
        m = math("x", size=size)
        assert xheight_px(m) == pytest.approx(m.height * PX_PER_UNIT, rel=1e-3)
    # scaling the mobject scales what is measured
    t = label("word", size=LABEL)
    before = xheight_px(t)
    t.scale(0.5)
    assert xheight_px(t) == pytest.approx(before / 2)


def test_x_height_agrees_with_the_rendered_pixels():
    """The measure is the ink: render an x and a subscript x at 854×480 and count rows."""
    from manim import tempconfig

    from scenes.kit.theme import BG

    def ink_rows(mob) -> int:
        from manim import Scene

        with tempconfig({"pixel_width": 854, "pixel_height": 480, "save_last_frame": True, "write_to_movie": False,
                         "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none",
                         "background_color": BG}):
            sc = Scene(skip_animations=True)
            sc.add(mob)
            sc.renderer.update_frame(sc, ignore_skipping=True)
            frame = np.array(sc.renderer.get_frame())[..., :3].astype(int)
        inked = np.abs(frame - np.array([14, 17, 23])).sum(axis=2) > 180
        rows = np.flatnonzero(inked.any(axis=1))
        return int(rows.max() - rows.min() + 1)

    for mob in (label("x", size=SMALL), math("x", size=LABEL)):
        assert abs(ink_rows(mob) - xheight_px(mob)) <= 1.5
    sub = math("x_x", size=LABEL)
    small_x = min((s for s in sub.family_members_with_points()), key=lambda s: s.height)
    assert abs(ink_rows(small_x.copy()) - xheight_px(sub)) <= 1.5


def test_min_x_height_looks_inside_groups():
    g = VGroup(label("big", size=40), VGroup(math("y_i", size=SMALL)))
    assert min_xheight_px(g) == pytest.approx(xheight_px(g[1][0]))
    assert min_xheight_px(Square()) == np.inf


# ------------------------------------------------------------------ regions
def test_regions_split_without_overlap_and_cover_their_parent():
    r = Region(-6, 6, -3, 3, "r")
    cols = r.columns(1, 2, 1, gap=0.4)
    assert cols[0].left == -6 and cols[-1].right == pytest.approx(6)
    assert all(a.right + 0.4 == pytest.approx(b.left) for a, b in zip(cols, cols[1:]))
    assert cols[1].width == pytest.approx(2 * cols[0].width)
    rows = r.rows(1, 1, gap=0.2)
    assert rows[0].top == 3 and rows[1].bottom == pytest.approx(-3) and rows[0].bottom - rows[1].top == pytest.approx(0.2)
    top, rest = r.take_top(1.0, gap=0.2)
    assert top.height == 1.0 and rest.top == pytest.approx(1.8)
    with pytest.raises(LayoutError):
        Region(0, 0, 0, 1)


def test_fit_scales_down_to_fit_and_places():
    r = Region(-2, 2, -1, 1)
    m = Rectangle(width=8, height=1)
    r.fit(m, align=UP)
    assert m.width == pytest.approx(4) and r.contains(m) and m.get_top()[1] == pytest.approx(1)


def test_fit_refuses_to_shrink_text_under_the_floor():
    r = Region(0, 0.5, 0, 0.5)
    t = label("a long label that cannot fit", size=SMALL)
    assert not r.fits(t)
    with pytest.raises(LayoutError, match="px"):
        r.fit(t)
    # a label that fits at a legible size is fitted
    ok = label("ok", size=SMALL)
    Region(0, 2, 0, 1).fit(ok)
    assert xheight_px(ok) >= FIT_XHEIGHT_PX - 1e-9


# ------------------------------------------------------------------ text that fits
def test_fit_label_wraps_then_refuses():
    g = fit_label("the cat ate the mouse and then the dog", 2.5, size=SMALL, max_lines=3)
    assert len(g) >= 2 and all(line.width <= 2.5 + 1e-6 for line in g)
    assert " ".join(line.text for line in g).replace(" ", "") == g.text.replace(" ", "")
    assert min_xheight_px(g) >= FIT_XHEIGHT_PX - 1e-6
    with pytest.raises(LayoutError):
        fit_label("supercalifragilistic expialidocious", 0.6, size=SMALL, max_lines=2)
    # a word too long for any line is cut with hyphens when allowed
    g = fit_label("x" * 80, 4.0, size=SMALL, max_lines=3, break_words=True)
    assert len(g) >= 2 and all(line.width <= 4.0 + 1e-6 for line in g) and g[0].text.endswith("-")


def test_token_row_wraps_and_keeps_words_on_one_baseline():
    row = TokenRow("the mouse ate the cat quickly".split(), max_width=4.0)
    assert row.lines == 2 and row.width <= 4.0 + 1e-6
    offsets = [baseline_y(t) - b.get_bottom()[1] for t, b in zip(row.texts, row.boxes)]
    assert max(offsets) - min(offsets) < 1e-6
    one = TokenRow("the mouse".split())
    assert one.lines == 1


# ------------------------------------------------------------------ annotations
@given(st.lists(st.floats(-5, 5), min_size=1, max_size=8), st.lists(st.floats(0.1, 1.0), min_size=8, max_size=8))
@settings(max_examples=80)
def test_spread_keeps_order_gap_bounds_and_stays_put_when_free(targets, sizes):
    sizes = sizes[: len(targets)]
    lo, hi = -8.0, 8.0
    c = spread_1d(targets, sizes, lo, hi, gap=0.1)
    order = np.argsort(targets, kind="stable")
    cs, ss = c[order], np.asarray(sizes)[order]
    assert np.all(cs[1:] - ss[1:] / 2 - (cs[:-1] + ss[:-1] / 2) >= 0.1 - 1e-9)  # no two closer than the gap
    assert cs[0] - ss[0] / 2 >= lo - 1e-9 and cs[-1] + ss[-1] / 2 <= hi + 1e-9
    t = np.asarray(targets)[order]
    free = np.all(t[1:] - ss[1:] / 2 - (t[:-1] + ss[:-1] / 2) >= 0.1)
    if free and t[0] - ss[0] / 2 >= lo and t[-1] + ss[-1] / 2 <= hi:
        np.testing.assert_allclose(cs, t)  # labels that do not touch stay on their anchors


def test_spread_refuses_what_cannot_fit():
    with pytest.raises(LayoutError):
        spread_1d([0, 0, 0], [1, 1, 1], -1, 1, gap=0.1)


def test_annotations_that_would_collide_get_leaders():
    a = [np.array([x, 0, 0]) for x in (0.0, 0.05)]
    labs = [label("L = 64", size=SMALL), label("n_max = 65536", size=SMALL)]
    g = place_annotations(labs, a, side=DOWN, bounds=(-6, 6))
    l0, l1 = g.labels
    assert l0.get_right()[0] < l1.get_left()[0]  # spread apart along x
    assert len(g.leaders) >= 1


# ------------------------------------------------------------------ the audit catches each fault
class _Probe(ClipScene):
    """A scene whose mobjects a test sets, for the checker."""


def _record(*mobs, header=False):
    class S:
        mobjects = list(mobs)
        time = 0.0

    s = S()
    if header:
        s.header = None
    return snapshot(s, "probe")


def test_audit_finds_text_off_frame_and_in_the_subtitle_band():
    far = label("off", size=LABEL).move_to([SAFE.right + 0.1, 0, 0])
    low = label("low", size=LABEL).move_to([0, SAFE.bottom - 0.05, 0])
    kinds = {p.kind for p in check([_record(far, low)])}
    assert {"frame", "band"} <= kinds
    assert not check([_record(label("fine", size=LABEL))])


def test_audit_finds_overlapping_texts_and_lines_through_text():
    a = label("alpha", size=LABEL)
    b = label("beta", size=LABEL).move_to(a.get_center() + 0.1 * RIGHT)
    probs = check([_record(a, b)])
    assert any(p.kind == "overlap" and "overlaps text" in p.message for p in probs)
    t = label("crossed", size=LABEL)
    line = Line(t.get_left() + LEFT, t.get_right() + RIGHT, stroke_width=3)
    assert any("runs through" in p.message for p in check([_record(t, line)]))
    # the same line under the text (not through it) is fine
    below = Line(t.get_corner(DOWN + LEFT) + 0.1 * DOWN, t.get_corner(DOWN + RIGHT) + 0.1 * DOWN, stroke_width=3)
    assert not check([_record(t, below)])


def test_audit_allows_declared_overlays_and_dimmed_things():
    cell = Square(1.0, fill_color="#3366cc", fill_opacity=1.0, stroke_width=0)
    v = label("0.5", size=LABEL).move_to(cell)
    assert any(p.kind == "overlap" for p in check([_record(cell, v)]))
    overlay(cell, v)
    assert not check([_record(cell, v)])
    other = label("0.7", size=LABEL).move_to(cell)
    assert any(p.kind == "overlap" for p in check([_record(cell, other)]))  # not part of the unit
    dimmed = label("0.7", size=LABEL).move_to(cell).set_opacity(0.2)
    assert not check([_record(cell, dimmed)])


def test_audit_finds_small_text_including_typst_scripts():
    tiny = label("tiny", size=LABEL).scale(0.4)
    assert any(p.kind == "small" for p in check([_record(tiny)]))
    nested = math("x_(i_j)", size=LABEL)  # second-level script: 50 %
    assert xheight_px(nested) < MIN_XHEIGHT_PX
    assert any(p.kind == "small" for p in check([_record(nested)]))
    assert not check([_record(math("x_i", size=LABEL))])


def test_audit_sees_parts_of_groups_manim_has_regrouped():
    """Manim splits a group when a part leaves the scene; overlay marks live on the parts."""
    cell = Square(1.0, fill_color="#3366cc", fill_opacity=1.0)
    v = label("0.5", size=LABEL).move_to(cell)
    overlay(cell, v)
    assert not check([_record(VGroup(cell), VGroup(VGroup(v)))])


# ------------------------------------------------------------------ copies share what never changes
def test_copies_share_parse_data_but_not_points_or_colours():
    a = label("shared", size=LABEL)
    b = a.copy()
    ga, gb = a.submobjects[0], b.submobjects[0]
    assert ga.path_obj is gb.path_obj  # the parsed SVG path: built once, read never again
    assert ga.points is not gb.points
    b.set_color("#ff0000")
    assert a.get_color().to_hex().lower() != "#ff0000"
    b.shift(RIGHT)
    assert not np.allclose(ga.points, gb.points)


# ------------------------------------------------------------------ number changes
def test_a_chain_of_swaps_shows_one_figure_at_a_time():
    """Swaps chained in one Succession (a counter stepping 0, 1, 2, 3): Manim adds every
    mobject up front, yet only one figure is ever visible, and only the last stays."""
    from manim import Scene, Succession, tempconfig

    from scenes.kit.motion import Readout

    seen = []
    with tempconfig({"pixel_width": 160, "pixel_height": 90, "frame_rate": 10, "write_to_movie": False,
                     "save_last_frame": False, "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none"}):
        class Chain(Scene):
            def construct(self):
                r = Readout("0", np.array([0.0, 0, 0]), LABEL)
                self.add(r.current)
                steps = [r.to(str(k)) for k in (1, 2, 3)]
                self.labels = [r.current]

                def watch(_m, dt=0):
                    visible = [t.text for t in self.mobjects_texts() if max(
                        np.max(sm.get_fill_opacities()) for sm in t.family_members_with_points()) > 0.05]
                    seen.append(visible)

                probe = Square(0.01).set_opacity(0)
                probe.add_updater(watch)
                self.add(probe)
                self.play(Succession(*steps), run_time=3.0)
                self.final = r

            def mobjects_texts(self):
                from manim import Text

                return [m for top in self.mobjects for m in top.get_family() if isinstance(m, Text)]

        sc = Chain()
        sc.render()
    assert seen and all(len(v) <= 1 for v in seen), [v for v in seen if len(v) > 1][:3]
    assert [t.text for t in sc.mobjects_texts()] == ["3"]
    assert xheight_px(sc.final.current) >= MIN_XHEIGHT_PX
