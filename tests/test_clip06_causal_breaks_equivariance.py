"""Clip 06 CausalBreaksEquivariance: data binding, the causal mask coloured by the tokens in its slots,
horizontal bars whose lengths are the defects and whose colours are their verdicts, exact zeros marked
on the log axis, the tokens becoming the rows' names, printed figures, the takeaway (the chart across
the frame with both totals), the still's axis, captions, and the layout and lecture-language audit
over the config matrix."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    assert_captions_readable,
    corner_results,
    dominant_ink,
    pixel,
    render_final_frame,
    rgb255,
)
from mathcore import attention_fn, causal_mask, lecture_inputs, load_config, permutation_row_defects, swap_permutation
from mathcore.equivariance import THRESHOLD, equivariance_defect
from scenes.clips.c06_causal_breaks_equivariance import CausalBreaksEquivariance
from scenes.figures.equivariance import swap_defects
from scenes.kit import BG, FAILED, VERIFIED, fmt_measure, token_color
from scenes.audit.beats import signature
from scenes.kit.numbers import measure, notebook_output


def src(m) -> str:
    """The Typst source of a typeset figure (an exact zero is the formula and its mark)."""
    m = m if hasattr(m, "typst_code") else m[0]
    return m.typst_code.strip("$ ")


@pytest.fixture(scope="module")
def final():
    return render_final_frame(CausalBreaksEquivariance)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(CausalBreaksEquivariance, tmp_path_factory)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = CausalBreaksEquivariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    r = d.report
    assert (r.i, r.j) == (1, cfg.T - 2)  # a future token moved into the past
    p = swap_permutation(cfg.T, r.i, r.j)
    np.testing.assert_array_equal(r.perm, p)
    np.testing.assert_array_equal(d.PX, li.X[p])
    causal = attention_fn(li.Wq, li.Wk, li.Wv, causal=True)
    full = attention_fn(li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(r.causal_rows, permutation_row_defects(causal, li.X, p))
    np.testing.assert_array_equal(r.self_rows, permutation_row_defects(full, li.X, p))
    assert r.causal_total == equivariance_defect(causal, li.X, p)
    assert r.self_total == equivariance_defect(full, li.X, p)
    # what the clip claims about the rows
    assert np.all(r.causal_rows[: r.i] == 0.0)
    assert np.all(r.causal_rows[r.i : r.j + 1] > 1e-3)
    assert np.all(r.causal_rows[r.j + 1 :] < THRESHOLD)
    assert np.all(r.self_rows < THRESHOLD)
    assert r.self_total < THRESHOLD < r.causal_total
    np.testing.assert_array_equal(d.mask, causal_mask(cfg.T))
    # the picture's log axis holds every positive defect and labels the pass line's decade
    lo, hi = d.picture.axis
    v = np.concatenate([r.causal_rows, r.self_rows])
    assert 10.0 ** lo < v[v > 0].min() and v.max() <= 10.0 ** hi and -10 in d.picture.ticks


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("seed = 7", "seed = 12")
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = CausalBreaksEquivariance.build_data(load_config(p))
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 12).X)
    assert d.report.causal_total != CausalBreaksEquivariance.build_data(load_config()).report.causal_total


def test_bars_have_the_lengths_of_the_defects_and_the_colours_of_their_verdicts(final):
    scene, frame = final
    r = scene.data.report
    chart = scene.chart_wide  # the close widened the chart to this one
    plot = chart.plot
    for s, rows in ((0, r.self_rows), (1, r.causal_rows)):
        for m, (bar, v) in enumerate(zip(scene.chart.bars[s], rows)):
            left = plot.to_point(plot.x_range[0], 0.0)[0]
            assert abs(bar.get_left()[0] - left) < 1e-6
            if v > 0:
                assert abs(bar.get_right()[0] - plot.to_point(min(v, plot.x_range[1]), 0.0)[0]) < 1e-6, (s, m, v)
            assert (bar.get_y() > chart.row_y(m)) == (s == 0) and abs(bar.get_y() - chart.row_y(m)) < chart.pitch / 2
            verdict = VERIFIED if v < THRESHOLD else FAILED
            c = bar.get_stroke_color() if s == 0 else bar.get_fill_color()
            np.testing.assert_allclose(c.to_rgb(), verdict.to_rgb(), atol=1e-6)
            if s == 1 and bar.width > 0.3:  # a filled bar: its colour over the background, mid-bar
                got = pixel(scene, frame, bar.get_center())
                a = bar.get_fill_opacity()
                want = np.round(a * rgb255(verdict) + (1 - a) * rgb255(BG))
                assert np.abs(got - want).max() <= 6, (m, got, want)
            if s == 0:  # a hollow bar: its inside is the background
                assert bar.get_fill_opacity() == 0.0 and bar.get_stroke_opacity() == 1.0
    # an exact zero has no bar on a log axis but a hollow diamond on the floor, in its verdict's colour
    zero_rows = np.flatnonzero(r.causal_rows == 0.0)
    assert len(zero_rows)  # row 0 sees the same tokens before and after the swap
    assert set(scene.chart.zeros[1]) == set(zero_rows.tolist())
    assert set(scene.chart.zeros[0]) == set(np.flatnonzero(r.self_rows == 0.0).tolist())
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    for m in zero_rows:
        assert scene.chart.bars[1][m].width < 0.01
        z = scene.chart.zeros[1][int(m)]
        assert z.value == 0.0 and id(z[0]) in on_screen
        np.testing.assert_allclose(z[0].get_stroke_color().to_rgb(), VERIFIED.to_rgb(), atol=1e-6)
        assert abs(z[0].get_left()[0] - plot.to_point(plot.x_range[0], 0.0)[0]) < 0.05
    # the pass line stands at 10⁻¹⁰ and is named on itself
    assert abs(scene.chart.line.get_x() - plot.to_point(THRESHOLD, 0.0)[0]) < 1e-6
    assert abs(scene.line_label.get_x() - scene.chart.line.get_x()) < 1e-6 or \
        scene.line_label.get_left()[0] > scene.chart.line.get_x()


def test_the_tokens_sit_where_the_swap_puts_them_and_become_the_rows_names(final):
    scene, _ = final
    r = scene.data.report
    np.testing.assert_array_equal(scene.tokens.row_order, r.perm)
    np.testing.assert_array_equal(scene.tokens.values, scene.data.PX)
    for m in range(len(r.perm)):  # the token in slot m sits beside output row m
        chip = scene.tokens.chip(m)
        assert abs(chip.get_y() - scene.chart.row_y(m)) < 1e-6 and abs(chip.get_x() - scene.chip_x) < 1e-6
        assert abs(scene.row_names[m].get_y() - scene.chart.row_y(m)) < 1e-6


def test_the_mask_shows_which_slots_each_row_sees_in_the_colour_of_their_token(final):
    scene, _ = final
    r = scene.data.report
    mask = scene.mask
    T = len(r.perm)
    np.testing.assert_array_equal(mask.mask, causal_mask(T))
    for t in range(T):
        for s in range(T):
            cell = mask.cells[t][s]
            if s <= t:  # seen: filled with the colour of the token now in slot s (after the swap)
                np.testing.assert_allclose(cell.get_fill_color().to_rgb(), token_color(int(r.perm[s])).to_rgb(), atol=1e-6)
                assert cell.get_fill_opacity() > 0.3
            else:  # hidden: an outline only
                assert cell.get_fill_opacity() == 0.0
        # the mask's rows are the chart's rows
        assert abs(mask.cells[t][0].get_y() - scene.chart.row_y(t)) < 1e-6
    # its columns are the tokens' slots: one pitch apart, as the chips were
    np.testing.assert_allclose(np.diff([c.get_x() for c in mask.cells[0]]), scene.tokens.row_height, atol=1e-6)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    r = scene.data.report
    for v, fig in zip(r.causal_rows, scene.values):
        assert src(fig) == measure(v).math  # typeset, in the lecture's number style
    assert scene.values[0].figure.exact and scene.values[0][1].text == "exact"  # exactly zero, marked exact
    pic = scene.data.picture
    assert [src(t) for t in scene.totals] == [pic.causal_total.typst, pic.self_total.typst]
    assert measure(r.causal_total).math in pic.causal_total.typst and measure(r.self_total).math in pic.self_total.typst
    for mob, color in zip(scene.totals, (FAILED, VERIFIED)):
        assert np.abs(dominant_ink(scene, frame, mob, BG) - rgb255(color)).max() <= 40
    texts = " ".join(c.text for c in scene.captions)
    assert fmt_measure(r.causal_total) in texts and fmt_measure(r.self_total) in texts
    assert all(notebook_output(c.text) is None for c in scene.captions) and "row t" not in texts


def test_the_close_widens_the_chart_with_both_totals(final):
    scene, _ = final
    take = scene.takeaway()
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert all(id(m) in on_screen for m in take.family_members_with_points())
    content = scene.layout.content
    axes = scene.chart.plot.axes[0]
    assert axes.get_end()[0] - axes.get_start()[0] > 0.75 * content.width  # the chart across the frame
    for m in (scene.tokens, scene.values):  # the chips and the printed figures made room
        assert not any(id(f) in on_screen for f in m.get_family())
    # the transform landed exactly on the wide chart
    np.testing.assert_allclose(scene.chart.bars[1][1].get_right(), scene.chart_wide.bars[1][1].get_right(), atol=1e-6)
    closing = scene.audit.records[-1]
    assert closing.key == "close" and closing.start != signature(closing)


def test_still_draws_the_clips_rows_on_the_clips_axis(final):
    import matplotlib

    matplotlib.use("Agg")
    from scenes.stills.draw import figure

    scene, _ = final
    d = scene.data
    s = swap_defects(d, scene.cfg)
    np.testing.assert_array_equal(s.panels["B"].data[0], d.report.self_rows)
    np.testing.assert_array_equal(s.panels["B"].data[1], d.report.causal_rows)
    fig = figure(s, "dark")
    axes = [ax for ax in fig.axes if ax.get_xscale() == "log"]
    assert len(axes) == 1
    lo, hi = d.picture.axis
    assert axes[0].get_xlim() == pytest.approx((10.0 ** lo, 10.0 ** hi)) == scene.chart.plot.x_range
    np.testing.assert_allclose(axes[0].get_xticks(), [10.0 ** e for e in d.picture.ticks])


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert_captions_readable(caps)
    assert {"tokens", "swap", "self", "causal", "close"} <= {c.key for c in caps if c.describe}


def test_every_exact_zero_is_marked_under_every_corner(corners):
    for name, res in corners.items():
        r = res.scene.data.report
        # every exact zero of either series is marked on the floor, under every config
        assert set(res.scene.chart.zeros[1]) == set(np.flatnonzero(r.causal_rows == 0.0).tolist()), name
        assert set(res.scene.chart.zeros[0]) == set(np.flatnonzero(r.self_rows == 0.0).tolist()), name
        after = list(range(r.j + 1, len(r.perm)))
        if after and np.all(r.causal_rows[after] == 0.0):
            assert any("exactly 0" in c.text for c in res.scene.captions), name
