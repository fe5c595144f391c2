"""Clip 11 RoPERotatesQK: data binding, hands where RoPE puts them, heatmap pixels, printed measures."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, pixel, render_final_frame, rgb255
from mathcore import apply_rope, lecture_inputs, load_config
from mathcore.rope_measures import rope_self_attention_trace, shift_output_defect
from scenes.kit import BAD, BG, GOOD, fmt_measure, fmt_value
from scenes.rope import RoPERotatesQK


@pytest.fixture(scope="module")
def final():
    return render_final_frame(RoPERotatesQK)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = RoPERotatesQK.build_data(cfg)
    inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    np.testing.assert_allclose(d.q, (inp.X @ inp.Wq)[RoPERotatesQK.Q_TOKEN], atol=1e-12)
    np.testing.assert_allclose(d.k, (inp.X @ inp.Wk)[RoPERotatesQK.K_TOKEN], atol=1e-12)
    qm = apply_rope(d.q[None], [d.m], cfg.rope_base)[0]
    kn = apply_rope(d.k[None], [d.n], cfg.rope_base)[0]
    assert d.score == pytest.approx(qm @ kn, abs=1e-12)
    np.testing.assert_allclose(d.q_pairs[1].ravel(), qm, atol=1e-12)
    assert d.score_gap == abs(d.score_shifted - d.score) < 1e-12
    assert 0 < d.score_gap_max < 1e-12
    pos = np.arange(cfg.T, dtype=float)
    np.testing.assert_array_equal(d.Y_rot_shifted, rope_self_attention_trace(
        inp.X, inp.Wq, inp.Wk, inp.Wv, pos + d.s, cfg.rope_base, rotate_v=True).output)
    assert d.defect_plain == shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, d.s, cfg.rope_base)
    assert d.defect_rot == shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, d.s, cfg.rope_base, rotate_v=True)
    assert d.defect_plain < 1e-12 < 0.1 < d.defect_rot


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    p = tmp_path / "lecture.toml"
    p.write_text(src.replace("seed = 7", "seed = 9"))
    d = RoPERotatesQK.build_data(load_config(p))
    inp = lecture_inputs(6, 4, 9)
    np.testing.assert_allclose(d.q, (inp.X @ inp.Wq)[RoPERotatesQK.Q_TOKEN], atol=1e-12)


def test_the_hands_point_where_rope_puts_q_and_k_after_the_shift(final):
    scene, _ = final
    d = scene.data
    for i, dial in enumerate(scene.dials):
        want = np.arctan2([d.q_pairs[2, i, 1], d.k_pairs[2, i, 1]], [d.q_pairs[2, i, 0], d.k_pairs[2, i, 0]])
        got = dial.tip_angles()
        assert np.abs(np.angle(np.exp(1j * (got - want)))).max() < 1e-6, (i, got, want)
        # the angle between q and k is the one at (m, n): the shift did not change it
        before = np.arctan2(d.q_pairs[1, i, 1], d.q_pairs[1, i, 0]) - np.arctan2(d.k_pairs[1, i, 1], d.k_pairs[1, i, 0])
        assert abs(np.angle(np.exp(1j * (got[0] - got[1] - before)))) < 1e-6


def test_final_frame_colours_the_outputs_by_their_values(final):
    scene, frame = final
    d = scene.data
    for (ha, hb), (Ya, Yb) in zip(scene.y_maps, ((d.Y_plain, d.Y_plain_shifted), (d.Y_rot, d.Y_rot_shifted))):
        for h, Y in ((ha, Ya), (hb, Yb)):
            np.testing.assert_array_equal(h.values, Y)
            for i in range(Y.shape[0]):
                for j in range(Y.shape[1]):
                    got = pixel(scene, frame, h.cell_center(i, j))
                    assert np.abs(got - rgb255(scene.y_scale.rgb(Y[i, j]))).max() <= 4, (i, j)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.score_val.text == fmt_value(d.score, 4) == scene.score_shift_val.text
    assert scene.gap_val.text == fmt_measure(d.score_gap)
    assert scene.gap_max_val.text == fmt_measure(d.score_gap_max)
    assert [v.text for v in scene.defect_vals] == [fmt_measure(d.defect_plain), fmt_measure(d.defect_rot)]
    for v, want in zip(scene.defect_vals, (GOOD, BAD)):
        assert np.abs(dominant_ink(scene, frame, v, BG) - rgb255(want)).max() <= 40


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 12
    assert_captions_readable(caps)
    assert any(fmt_measure(scene.data.defect_rot) in c.text for c in caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)
