"""Clip 10 RoPEAngleGrid: data binding, the final frame's pixels (fast pairs mod 2π on the cyclic
scale, slow pairs on their log scale), colour bars, dials driven by the grid, clean readout steps,
captions true under every corner config, and the layout audit over the config matrix."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    assert_captions_readable,
    assert_inside_frame,
    assert_layout_holds,
    corner_results,
    dominant_ink,
    pixel,
    render_final_frame,
    rgb255,
)
from mathcore import load_config, rope_angle_grid, rope_frequencies
from mathcore.rope_measures import angle_grid_defect
from scenes.kit import BG, FAINT, ColorScale, fmt_measure, label
from scenes.rope import (
    QUARTER_TURN,
    RoPEAngleGrid,
    StepLabels,
    decade_ticks,
    fmt_rate,
    fmt_small,
    log_scale_bounds,
)


@pytest.fixture(scope="module")
def final():
    return render_final_frame(RoPEAngleGrid)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(RoPEAngleGrid, tmp_path_factory)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = RoPEAngleGrid.build_data(cfg)
    np.testing.assert_array_equal(d.grid, rope_angle_grid(cfg.T_heatmap, 16, cfg.rope_base))
    np.testing.assert_array_equal(d.wrapped, np.mod(d.grid, 2 * np.pi))
    np.testing.assert_array_equal(d.theta, rope_frequencies(16, cfg.rope_base))
    assert d.defect == angle_grid_defect(cfg.T_heatmap, 16, cfg.rope_base)
    # the storyboard's claim: the grid equals m · base^(−2i/d)
    m, i = np.meshgrid(np.arange(d.T), np.arange(8), indexing="ij")
    np.testing.assert_allclose(d.grid, m * cfg.rope_base ** (-2 * i / 16), rtol=1e-15, atol=0)
    assert d.cmap == cfg.cmap_angles and d.cmap_log == cfg.cmap_weights


@pytest.mark.parametrize("T, base", [(8, 100.0), (12, 10000.0), (16, 500000.0), (16, 1e9), (8, 1e9)])
def test_fast_and_slow_pairs_are_split_by_the_measured_angles(tmp_path, T, base):
    src = load_config().path.read_text()
    p = tmp_path / "lecture.toml"
    p.write_text(src.replace("rope_base = 10000.0", f"rope_base = {base!r}").replace("T_heatmap = 12", f"T_heatmap = {T}"))
    d = RoPEAngleGrid.build_data(load_config(p))
    nf = d.n_fast
    # fast pairs reach a quarter turn in the table, slow pairs never do; both kinds are there
    assert 1 <= nf < d.d // 2
    assert np.all(d.grid[-1, :nf] >= QUARTER_TURN) and np.all(d.grid[:, nf:] < QUARTER_TURN)
    # the slow pairs' colours are their log angles, -inf (no colour: the "0" swatch) only where the angle is exactly 0
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(d.log_slow, np.log10(d.grid[:, nf:]))
    assert np.all(np.isneginf(d.log_slow[0])) and np.all(np.isfinite(d.log_slow[1:]))
    lo, hi = log_scale_bounds(d.log_slow)
    assert lo <= d.log_slow[1:].min() and d.log_slow.max() <= hi and hi - lo >= 1


def test_decade_ticks_label_both_ends_evenly():
    for lo, hi in [(-4, 1), (-8, 1), (-2, 1), (-1, 0), (-9, 2)]:
        for most in (2, 3, 5, 6):
            t = decade_ticks(lo, hi, most)
            assert t[0] == lo and t[-1] == hi and len(t) <= max(most, 2)
            steps = np.diff(t)
            assert np.all(steps >= steps[0])  # only the last step may be longer


def test_final_frame_colours_fast_pairs_mod_2pi_and_slow_pairs_by_log_angle(final):
    scene, frame = final
    d = scene.data
    tb = scene.table
    nf = d.n_fast
    cyc = ColorScale(d.cmap, 0.0, 2 * np.pi)
    lo, hi = log_scale_bounds(d.log_slow)
    logs = ColorScale(d.cmap_log, lo, hi)
    np.testing.assert_array_equal(tb.fast.values, d.wrapped[:, :nf])
    np.testing.assert_array_equal(tb.slow.values, d.log_slow)
    for m in range(d.T):
        for i in range(d.d // 2):
            got = pixel(scene, frame, tb.cell(m, i).get_center())
            if i < nf:
                want = rgb255(cyc.rgb(d.wrapped[m, i]))
            elif m == 0:
                want = rgb255(FAINT)  # an angle of exactly 0: the swatch's colour, not a colour of the scale
            else:
                want = rgb255(logs.rgb(np.log10(d.grid[m, i])))
            assert np.abs(got - want).max() <= 4, (m, i, got, want)
    # the slow pairs are not one flat colour: every slow column spans a visible range of colours
    for i in range(nf, d.d // 2):
        col = np.array([pixel(scene, frame, tb.cell(m, i).get_center()) for m in range(1, d.T)])
        assert np.abs(col.max(axis=0) - col.min(axis=0)).max() > 30, i


def test_each_colour_bar_spans_its_scale(final):
    scene, frame = final
    tb = scene.table
    d = scene.data
    assert (tb.cyc_bar.color_scale.norm.vmin, tb.cyc_bar.color_scale.norm.vmax) == (0.0, 2 * np.pi)
    lo, hi = log_scale_bounds(d.log_slow)
    assert (tb.log_bar.color_scale.norm.vmin, tb.log_bar.color_scale.norm.vmax) == (lo, hi)
    assert tb.log_ticks[0] == lo and tb.log_ticks[-1] == hi
    # each bar is painted with its panel's scale, stripe by stripe, from its scale's low end to its high end
    for bar, scale in ((tb.log_bar, tb.log_scale), (tb.cyc_bar, tb.cyc_scale)):
        assert bar.color_scale is scale
        vmin, vmax = scale.norm.vmin, scale.norm.vmax
        assert vmin < bar.values[0] < bar.values[1] and bar.values[-2] < bar.values[-1] < vmax
        for stripe, v in zip(bar.stripes, bar.values):
            assert np.abs(rgb255(stripe.get_fill_color()) - rgb255(scale.rgb(v))).max() <= 1
    # the "0" swatch is drawn in the colour of row m = 0 of the slow panel
    assert np.abs(pixel(scene, frame, tb.zero_swatch.get_center()) - rgb255(FAINT)).max() <= 4


def test_the_dials_show_the_picked_row_of_the_grid(final):
    scene, frame = final
    d = scene.data
    row = d.grid[d.m_pick]
    np.testing.assert_allclose(scene.dials.angles, row, atol=1e-12)
    # the hands on screen point where the grid says (mod 2π)
    tips = scene.dials.tips()
    for dial, tip, a in zip(scene.dials.dials, tips, row):
        v = tip - dial.center
        drawn = np.arctan2(v[1], v[0])
        assert abs(np.angle(np.exp(1j * (drawn - a)))) < 1e-6
    # the picked row is framed in both panels, and the readout names it
    for box, target in zip(scene.row_boxes, scene.row_targets(d.m_pick)):
        assert abs(box.get_center()[1] - target[1]) < 1e-6
    assert scene.m_label.text == str(d.m_pick)
    assert str(d.m_pick) in [t.text for t in scene.table.row_idx]  # the boxed row is always labelled
    assert scene.m_label in scene.mobjects or any(scene.m_label in m.get_family() for m in scene.mobjects)
    others = [lab for lab in scene.m_labels[:-1] if any(lab in m.get_family() for m in scene.mobjects)]
    assert not others  # only the last position is on screen


def test_step_labels_never_show_two_figures_at_once():
    labels = [label(str(m)) for m in range(6)]
    anim = StepLabels(labels, run_time=5)
    anim.begin()
    for a in np.linspace(0, 1, 241):
        anim.interpolate(a)
        shown = [lab.text for lab in labels if lab.get_fill_opacity() > 1e-6]
        assert len(shown) <= 1, (a, shown)
    anim.interpolate(1.0)
    assert [lab.get_fill_opacity() for lab in labels] == [0.0] * 5 + [1.0]


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.defect_value.text == fmt_measure(d.defect)
    caps = [c[1].text for c in scene.dials.captions]
    assert caps == [fmt_small(t) for t in d.theta]
    assert dominant_ink(scene, frame, scene.defect_value, BG).tolist() != rgb255(BG).tolist()


def test_the_base_is_printed_as_given_or_marked_approximate():
    from scenes.rope import base_math

    assert [base_math(b) for b in (100.0, 10000.0, 500000.0, 123456.5, 1e7, 1e9, 4.005e8)] == [
        "b = 100", "b = 10000", "b = 500000", "b = 123456.5", "b = 10^7", "b = 10^9", "b = 4.005 dot 10^8"]
    assert [base_math(b) for b in (12345.678901, 563268461.7364, 99999999.0)] == [
        "b approx 12350", "b approx 5.633 dot 10^8", "b approx 10^8"]


def test_number_formats():
    assert [fmt_rate(x) for x in (1.0, 0.316227, 0.1, 0.000316227)] == ["1.0", "0.32", "0.1", "0.00032"]
    assert [fmt_small(x) for x in (1.0, 0.0056, 0.001, 0.000316227, 1.33e-8)] == ["1.0", "0.0056", "0.001", "3.2e−4", "1.3e−8"]


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 8
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)


def test_narration_is_true_and_the_clip_paced_under_every_corner(corners):
    for name, res in corners.items():
        scene = res.scene
        d = scene.data
        texts = [c.text for c in scene.captions]
        assert 20 <= scene.time <= 75, (name, scene.time)
        # "exactly" only when the measured gap is exactly zero; the gap printed is the measured one
        check = next(t for t in texts if "−2i/d" in t)
        assert ("exactly" in check) == (d.defect == 0.0), (name, check)
        assert fmt_measure(d.defect) in check
        # the slow pairs named are the ones under a quarter turn
        slow = next(t for t in texts if "quarter turn" in t)
        assert f"Pairs {d.n_fast} to {d.d // 2 - 1}" in slow, (name, slow)
        assert d.grid[-1, d.n_fast] < QUARTER_TURN <= d.grid[-1, d.n_fast - 1]
