"""Clip 04 PrefixInvariance: data binding, rows landing on rows, the measured figures drawn and printed, captions."""

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
from mathcore import attention_fn, lecture_inputs, load_config, prefix_defects, prefix_invariance_max_defect
from mathcore.causal import float_sum_orders
from scenes.causal import PrefixInvariance
from scenes.kit import ACCENT, BG, GOOD, fmt_measure, fmt_value


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PrefixInvariance)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PrefixInvariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
    blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
    np.testing.assert_array_equal(d.X, li.X)
    np.testing.assert_array_equal(d.Y_full, fixed(li.X))
    np.testing.assert_array_equal(d.Y_prefix, fixed(li.X[: cfg.T - 1]))
    assert d.Y_prefix.shape == (cfg.T - 1, cfg.d)
    np.testing.assert_array_equal(d.defects_fixed, prefix_defects(fixed, li.X))
    np.testing.assert_array_equal(d.defects_blas, prefix_defects(blas, li.X))
    assert d.max_fixed == prefix_invariance_max_defect(fixed, li.X) == 0.0
    assert d.max_blas == prefix_invariance_max_defect(blas, li.X)
    assert d.max_blas < 1e-12  # BLAS differs at most in the last bits
    np.testing.assert_array_equal(d.Y_full[: cfg.T - 1], d.Y_prefix)  # bitwise: the clip's claim
    assert d.sum_orders == float_sum_orders(*d.sum_terms)
    assert d.cmap_signed == cfg.cmap_signed


def test_both_maps_print_and_paint_the_computed_outputs(final):
    scene, frame = final
    d = scene.data
    T, dm = d.Y_full.shape
    for hm, Y in ((scene.full, d.Y_full), (scene.prefix, d.Y_prefix)):
        np.testing.assert_array_equal(hm.values, Y)
        assert [t.text for t in hm.labels] == [fmt_value(v, 2) for v in Y.ravel()]
    # the full map at the end of the clip: every cell the colour of its value
    for i in range(T):
        for j in range(dm):
            got = pixel(scene, frame, scene.full.cell(i, j).get_corner([-1, 1, 0]) + np.array([0.08, -0.06, 0]))
            want = rgb255(scene.scale.rgb(d.Y_full[i, j]))
            assert np.abs(got - want).max() <= 8, (i, j, got, want)
    bar = scene.bar
    assert bar.color_scale is scene.scale
    m = float(np.max(np.abs(np.concatenate([d.Y_full.ravel(), d.Y_prefix.ravel()]))))
    assert (bar.color_scale.norm.vmin, bar.color_scale.norm.vmax) == pytest.approx((-m, m))


def test_prefix_rows_landed_exactly_on_the_full_rows_and_handed_over(final):
    scene, frame = final
    d = scene.data
    full = scene.full
    T, dm = d.Y_full.shape
    assert len(scene.landed) == T - 1
    for i, p in enumerate(scene.landed):
        np.testing.assert_allclose(p, full.cell(i, 0).get_center(), atol=1e-6)
    # the prefix rows left the screen once they landed: only the full map's cells are drawn there
    on_screen = {id(f) for m in scene.mobjects for f in m.get_family()}
    assert not any(id(c) in on_screen for row in scene.prefix.cells for c in row)
    assert all(id(c) in on_screen for row in full.cells for c in row)
    # one green mark beside each landed row, none beside the new row; the new row outlined in ACCENT
    assert len(scene.checks) == T - 1
    for i, mk in enumerate(scene.checks):
        assert abs(mk.get_center()[1] - full.cell(i, 0).get_center()[1]) < 1e-6
        assert mk.get_left()[0] > full.get_right()[0]
        assert np.abs(dominant_ink(scene, frame, mk, BG) - rgb255(GOOD)).max() <= 40
    assert scene.new_row.get_top()[1] < full.cell(T - 2, 0).get_bottom()[1] + 0.1
    assert scene.landed_outline.get_bottom()[1] == pytest.approx(full.cell(T - 2, 0).get_bottom()[1] - 0.04)


def test_the_defects_are_drawn_where_they_were_measured(final):
    scene, frame = final
    d = scene.data
    T = d.X.shape[0]
    plot = scene.plot
    for name, values in (("fixed", d.defects_fixed), ("blas", d.defects_blas)):
        marks = scene.series[name]
        assert len(marks) == T
        for x, v, mk in zip(marks.xs, values, marks):
            if v == 0.0:  # an exact zero: the mark on the axis floor
                assert mk.exact and mk.value == 0.0
                floor = plot.to_point(x, plot.y_range[0])
                assert abs(mk[0].get_center()[0] - floor[0]) < 1e-6 and mk[0].get_bottom()[1] >= floor[1] - 1e-6
            else:  # a bar up to the measured value on the log axis
                assert not mk.exact and mk.value == v
                top = plot.to_point(x, v)
                assert abs(mk[0].get_top()[1] - top[1]) < 1e-6 and abs(mk[0].get_center()[0] - top[0]) < 1e-6
                assert np.abs(pixel(scene, frame, mk[0].get_center()) - rgb255(BG)).sum() > 60


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.fixed_max.text == fmt_measure(d.max_fixed) == "0.0"
    assert scene.blas_max.text == fmt_measure(d.max_blas)
    ink_fixed = dominant_ink(scene, frame, scene.fixed_max, BG)
    ink_blas = dominant_ink(scene, frame, scene.blas_max, BG)
    assert np.abs(ink_fixed - rgb255(GOOD)).max() <= 40
    assert (np.abs(ink_blas - rgb255(ACCENT)).max() <= 40) == (d.max_blas != 0.0)
    left, right = d.sum_orders
    assert scene.why_left.text.replace(" ", "").replace("\n", "").endswith(repr(left))
    assert scene.why_right.text.replace(" ", "").replace("\n", "").endswith(repr(right))
    assert scene.why_neq.typst_code.strip("$ ") == ("!=" if left != right else "=")


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert any(fmt_measure(scene.data.max_blas) in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene)
    for m in (scene.plot, scene.why, scene.inference, scene.full, scene.key_zero):
        assert m.get_bottom()[1] >= -3.1 - 1e-6


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(tmp_path_factory):
    assert_layout_holds(corner_results(PrefixInvariance, tmp_path_factory))
