"""Clip 03 CausalMask: data binding, the code on screen, the final frame's pixels, captions."""

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
from mathcore import causal_mask, lecture_inputs, load_config, self_attention_trace, softmax
from mathcore.causal import above_diagonal_max, mask_sweep, row_sum_defect, row_sums
from scenes.causal import CAUSAL_CODE, CausalMask
from scenes.kit import BG, ColorScale, fmt_measure, fmt_value


@pytest.fixture(scope="module")
def final():
    return render_final_frame(CausalMask)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = CausalMask.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    tr_self = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=False)
    assert d.scaled.shape == (cfg.T, cfg.T)
    np.testing.assert_array_equal(d.scaled, tr.scaled)
    np.testing.assert_array_equal(d.mask, causal_mask(cfg.T))
    np.testing.assert_array_equal(d.masked, tr.masked)
    np.testing.assert_array_equal(d.weights, tr.weights)
    np.testing.assert_array_equal(d.weights_self, tr_self.weights)
    for a, b in zip(d.sweep, mask_sweep(tr.scaled, tr.mask), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(d.sweep[-1], tr.masked)
    np.testing.assert_array_equal(d.row_sums, row_sums(tr.weights))
    assert d.row_sum_defect == row_sum_defect(tr.weights) < 1e-15
    assert d.upper_max == above_diagonal_max(tr.weights) == 0.0
    assert d.cmap_weights == cfg.cmap_weights and d.cmap_signed == cfg.cmap_signed


def test_the_code_on_screen_computes_the_causal_weights_bitwise():
    d = CausalMask.build_data(load_config())
    ns = {"np": np, "softmax": softmax, "S": np.array(d.scaled), "T": d.scaled.shape[0]}
    exec(CAUSAL_CODE, ns)
    np.testing.assert_array_equal(ns["mask"], d.mask)
    np.testing.assert_array_equal(ns["S"], d.masked)
    np.testing.assert_array_equal(ns["A"], d.weights)
    assert len(CAUSAL_CODE.splitlines()) == 3


def test_the_sweep_masks_one_diagonal_at_a_time(final):
    scene, _ = final
    d = scene.data
    T = d.scaled.shape[0]
    assert len(scene.sweep_shown) == T - 1
    prev = d.scaled
    for k, stage in enumerate(scene.sweep_shown, start=1):
        i, j = np.nonzero(np.isneginf(stage) & ~np.isneginf(prev))
        assert np.all(j - i == k) and len(i) == T - k
        prev = stage
    np.testing.assert_array_equal(prev, d.masked)
    np.testing.assert_array_equal(scene.S_map.values, d.masked)
    # after the sweep the map prints −∞ exactly where the mask removed a score, the score elsewhere
    texts = [t.text for t in scene.S_map.labels]
    want = ["\u2212\u221e" if np.isneginf(v) else fmt_value(v, 1) for v in d.masked.ravel()]
    assert texts == want
    # the code panel shows exactly the code the test above executed
    assert scene.code.source == CAUSAL_CODE
    assert [ "".join(ch for ch in s if not ch.isspace()) for s in scene.code.text_lines] == [
        "".join(ch for ch in s if not ch.isspace()) for s in CAUSAL_CODE.splitlines()]


def test_final_frame_colours_both_heatmaps_by_their_weights(final):
    scene, frame = final
    d = scene.data
    scale = ColorScale(d.cmap_weights, 0.0, 1.0)
    T = d.weights.shape[0]
    for hm, A in ((scene.A_small, d.weights), (scene.self_map, d.weights_self)):
        np.testing.assert_array_equal(hm.values, A)
        for i in range(T):
            for j in range(T):
                got = pixel(scene, frame, hm.cell_center(i, j))
                want = rgb255(scale.rgb(A[i, j]))
                assert np.abs(got - want).max() <= 6, (i, j, got, want)
    # causal: the cells above the diagonal are the colour of exactly 0, the left heatmap's are not all
    zero = rgb255(scale.rgb(0.0))
    for i in range(T):
        for j in range(i + 1, T):
            assert np.abs(pixel(scene, frame, scene.A_small.cell_center(i, j)) - zero).max() <= 6
    assert any(np.abs(pixel(scene, frame, scene.self_map.cell_center(0, j)) - zero).max() > 30 for j in range(1, T))
    # the causal map sits right of the self-attention map
    assert scene.A_small.get_center()[0] > scene.self_map.get_right()[0]


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.sum_value.text == fmt_measure(d.row_sum_defect)
    assert scene.zero_value.text == fmt_measure(d.upper_max) == "0.0"
    for v in (scene.sum_value, scene.zero_value):
        assert dominant_ink(scene, frame, v, BG).tolist() != rgb255(BG).tolist()
    assert [t.text for t in scene.sum_labels] == [fmt_value(s, 2) for s in d.row_sums]
    # the big weight map printed exact zeros as "0" above the diagonal
    T = d.weights.shape[0]
    texts = [t.text for t in scene.A_map_printed]
    assert [texts[i * T + j] for i in range(T) for j in range(i + 1, T)] == ["0"] * (T * (T - 1) // 2)


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert any(fmt_measure(scene.data.row_sum_defect) in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene)
    for m in (scene.A_small, scene.self_map, scene.proof_sum, scene.proof_zero):
        assert m.get_bottom()[1] >= -3.1 - 1e-6


def test_colour_bars_span_the_scales_they_explain(final):
    scene, _ = final
    d = scene.data
    m = float(np.max(np.abs(d.scaled)))
    for bar, (lo, hi), cmap in ((scene.S_bar[1], (-m, m), d.cmap_signed), (scene.A_bar[1], (0.0, 1.0), d.cmap_weights),
                                (scene.pair_bar, (0.0, 1.0), d.cmap_weights)):
        assert (bar.color_scale.norm.vmin, bar.color_scale.norm.vmax) == pytest.approx((lo, hi))
        assert bar.color_scale.name == cmap
    # the big map and its bar share one scale, phase by phase
    assert scene.S_bar[1].color_scale is scene.score_scale is scene.S_map.color_scale
    assert scene.A_bar[1].color_scale is scene.weight_scale is scene.A_map.color_scale
    assert scene.pair_bar.color_scale is scene.A_small.color_scale is scene.self_map.color_scale


def test_the_big_map_is_the_subject_and_its_numbers_are_legible(final):
    from scenes.kit.layout import min_xheight_px

    scene, _ = final
    content = scene.layout.content
    assert scene.S_map.width * scene.S_map.height >= 0.3 * content.width * content.height
    assert min_xheight_px(scene.A_map_printed[0]) >= 8.0
    assert min_xheight_px(scene.proof_zero) >= 8.0 and min_xheight_px(scene.proof_sum) >= 8.0


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(tmp_path_factory):
    assert_layout_holds(corner_results(CausalMask, tmp_path_factory))
