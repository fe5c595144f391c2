"""Clip 05 KVCache: data binding, caches and outputs drawn from the trace, the measured figures, captions."""

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
from mathcore import bidirectional_staleness, kv_cache_decode, lecture_inputs, load_config, self_attention
from mathcore.causal import append_change, prefix_outputs
from scenes.causal import KVCache
from scenes.kit import BG, GOOD, fmt_measure, fmt_value


@pytest.fixture(scope="module")
def final():
    return render_final_frame(KVCache)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = KVCache.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv)
    assert len(d.trace.steps) == cfg.T
    for a, b in zip(d.trace.steps, tr.steps, strict=True):
        assert a.t == b.t and a.recompute_defect == b.recompute_defect
        for f in ("q", "K_cache", "V_cache", "weights", "y"):
            np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    # the cache grows by one row per step and keeps every old row unchanged
    for s in d.trace.steps:
        assert s.K_cache.shape[0] == s.V_cache.shape[0] == s.t + 1 == len(s.weights)
        np.testing.assert_array_equal(s.K_cache, d.trace.steps[-1].K_cache[: s.t + 1])
    np.testing.assert_array_equal(d.trace.Y_cached, self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True)[0])
    assert d.max_defect == tr.max_defect == 0.0
    stale = bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv)
    for a, b in zip(d.staleness, stale, strict=True):
        np.testing.assert_array_equal(a, b)
    assert d.min_stale == min(float(s.min()) for s in stale) > 0
    assert d.causal_change_max == max(float(c.max()) for c in append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True)) == 0.0
    for a, b in zip(d.Y_bidir, prefix_outputs(li.X, li.Wq, li.Wk, li.Wv, causal=False), strict=True):
        np.testing.assert_array_equal(a, b)


def test_caches_weights_and_outputs_are_drawn_from_the_trace(final):
    scene, _ = final
    d = scene.data
    last = d.trace.steps[-1]
    np.testing.assert_array_equal(scene.K_map.values, last.K_cache)
    np.testing.assert_array_equal(scene.V_map.values, last.V_cache)
    np.testing.assert_array_equal(scene.Y_map.values, d.trace.Y_cached)
    for s, wg in zip(d.trace.steps, scene.weight_groups, strict=True):
        nums, bars = wg
        assert [t.text for t in nums] == [fmt_value(w, 2) for w in s.weights]
        for i, w in enumerate(s.weights):  # bar length is the weight
            assert abs(bars.length_of(i) - max(w * bars.length, 1e-3)) < 1e-9
            assert abs(bars.bars[i].get_center()[1] - scene.K_map.cell(i, 0).get_center()[1]) < 1e-6
    # one colour bar for every cache, query and output cell, spanning the values they show
    m = float(np.max(np.abs(np.concatenate([last.K_cache.ravel(), last.V_cache.ravel(), d.trace.Y_cached.ravel(),
                                            *[s.q for s in d.trace.steps]]))))
    assert scene.bar.color_scale is scene.scale is scene.K_map.color_scale is scene.V_map.color_scale
    assert (scene.bar.color_scale.norm.vmin, scene.bar.color_scale.norm.vmax) == pytest.approx((-m, m))
    # each row's mark stands for its step's measured recompute defect: a check only for an exact 0.0
    assert scene.status == [fmt_measure(s.recompute_defect) for s in d.trace.steps]
    for s_, mk in zip(d.trace.steps, scene.checks, strict=True):
        assert mk.defect == s_.recompute_defect
        assert (getattr(mk, "text", None) is None) == (s_.recompute_defect == 0.0)
        if s_.recompute_defect == 0.0:
            assert mk.get_stroke_color().to_hex() == GOOD.to_hex()
        assert abs(mk.get_center()[1] - scene.Y_map.cell(s_.t, 0).get_center()[1]) < 1e-6
        assert mk.get_left()[0] > scene.Y_map.get_right()[0]


def test_final_frame_draws_the_bidirectional_outputs_and_the_bars(final):
    scene, frame = final
    d = scene.data
    T = len(d.trace.steps)
    hm = scene.bi_map
    np.testing.assert_array_equal(hm.values, d.Y_bidir[-1])
    for i in range(T):
        for j in range(hm.values.shape[1]):
            got = pixel(scene, frame, hm.cell(i, j).get_center())
            want = rgb255(scene.bi_scale.rgb(d.Y_bidir[-1][i, j]))
            assert np.abs(got - want).max() <= 6, (i, j, got, want)
    # the stage after token t holds the bidirectional outputs of the first t+1 tokens
    for t, st in enumerate(scene.bi_stages):
        np.testing.assert_array_equal(st[: t + 1], d.Y_bidir[t])
    # its own colour scale, ending at the last picture's largest value; the bar says where earlier values were cut
    m = float(np.max(np.abs(d.Y_bidir[-1])))
    bar = scene.bi_bar
    assert bar.color_scale is scene.bi_scale
    assert (bar.color_scale.norm.vmin, bar.color_scale.norm.vmax) == pytest.approx((-m, m))
    clipped = any(float(np.abs(y).max()) > m for y in d.Y_bidir)
    assert [t.text.replace(" ", "") for t in bar.tick_labels] == [t.replace(" ", "") for t in scene.bi_tick_text]
    assert scene.bi_tick_text[-1].startswith("\u2265") == clipped
    # every bar's top sits at its measured change on the log axis, and is painted
    for t, (bars, s) in enumerate(zip(scene.bar_groups, d.staleness, strict=True), start=1):
        assert len(bars) == t
        for i, (bar, v) in enumerate(zip(bars, s)):
            top = scene.plot.to_point(scene.bar_x[t - 1][i], v)
            assert abs(bar.get_top()[1] - top[1]) < 1e-6 and abs(bar.get_center()[0] - top[0]) < 1e-6
            mid = bar.get_center()
            assert np.abs(pixel(scene, frame, mid) - rgb255(BG)).sum() > 60


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.proof_value.text == fmt_measure(d.max_defect) == "0.0"
    assert scene.stale_value.text == fmt_measure(d.min_stale)
    assert scene.causal_value.text == fmt_measure(d.causal_change_max) == "0.0"
    for v in (scene.stale_value, scene.causal_value):
        assert dominant_ink(scene, frame, v, BG).tolist() != rgb255(BG).tolist()


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 12
    assert any(fmt_measure(scene.data.min_stale) in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene)
    for m in (scene.plot, scene.proof_bi_row, scene.proof_causal_row, scene.proof, scene.legend_cached, scene.bi_map):
        assert m.get_bottom()[1] >= -3.1 - 1e-6


def test_the_decoding_picture_does_not_overlap(final):
    scene, _ = final
    lowest_row = min(scene.K_map.get_bottom()[1], scene.V_map.get_bottom()[1], scene.Y_map.get_bottom()[1])
    top_row = max(scene.K_map.get_top()[1], scene.V_map.get_top()[1], scene.Y_map.get_top()[1])
    assert scene.legend.get_bottom()[1] > top_row and scene.legend_cached.get_bottom()[1] > top_row
    assert scene.legend.get_left()[0] > scene.q_note.get_right()[0]
    assert scene.proof.get_top()[1] < lowest_row
    assert scene.q_map.get_bottom()[1] > scene.K_map.get_top()[1]


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(tmp_path_factory):
    assert_layout_holds(corner_results(KVCache, tmp_path_factory))
