"""Clip 11 RoPERotatesQK: data binding (tokens chosen from the data for any T), hands where RoPE
puts them, the angle arc between q and k, heatmap pixels and their colour bar, printed measures
and positions, captions true under every corner config, and the layout audit over the matrix."""

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
from mathcore import apply_rope, lecture_inputs, load_config
from mathcore.rope_measures import rope_self_attention_trace, shift_output_defect
from scenes.kit import BAD, BG, GOOD, fmt_measure, fmt_value
from scenes.rope import RoPERotatesQK, pick_query_key


@pytest.fixture(scope="module")
def final():
    return render_final_frame(RoPERotatesQK)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(RoPERotatesQK, tmp_path_factory)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = RoPERotatesQK.build_data(cfg)
    inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    a, b = pick_query_key(inp.X @ inp.Wq, inp.X @ inp.Wk)
    assert (d.q_token, d.k_token) == (a, b) and (d.m, d.n) == (a, b)  # each token at its own position
    np.testing.assert_allclose(d.q, (inp.X @ inp.Wq)[a], atol=1e-12)
    np.testing.assert_allclose(d.k, (inp.X @ inp.Wk)[b], atol=1e-12)
    qm = apply_rope(d.q[None], [d.m], cfg.rope_base)[0]
    kn = apply_rope(d.k[None], [d.n], cfg.rope_base)[0]
    assert d.score == pytest.approx(qm @ kn, abs=1e-12)
    np.testing.assert_allclose(d.q_pairs[1].ravel(), qm, atol=1e-12)
    np.testing.assert_allclose(d.q_pairs[0].ravel(), d.q, atol=0)  # stage 0: not rotated
    assert d.score_gap == abs(d.score_shifted - d.score) < 1e-12
    assert 0 < d.score_gap_max < 1e-12
    pos = np.arange(cfg.T, dtype=float)
    np.testing.assert_array_equal(d.Y_rot_shifted, rope_self_attention_trace(
        inp.X, inp.Wq, inp.Wk, inp.Wv, pos + d.s, cfg.rope_base, rotate_v=True).output)
    assert d.defect_plain == shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, d.s, cfg.rope_base)
    assert d.defect_rot == shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, d.s, cfg.rope_base, rotate_v=True)
    assert d.defect_plain < 1e-12 < 0.1 < d.defect_rot


@pytest.mark.parametrize("T", [3, 4, 5, 6])
@pytest.mark.parametrize("d", [2, 4, 6])
def test_any_allowed_T_and_d_builds_with_tokens_from_the_data(tmp_path, T, d):
    src = load_config().path.read_text()
    p = tmp_path / "lecture.toml"
    p.write_text(src.replace("T = 6 ", f"T = {T} ").replace("d = 4 ", f"d = {d} ")
                 .replace("perm = [2, 0, 4, 1, 5, 3]", f"perm = {list(range(T))[::-1]}"))
    cfg = load_config(p)
    assert (cfg.T, cfg.d) == (T, d)
    data = RoPERotatesQK.build_data(cfg)
    assert T > data.q_token > data.k_token >= 1  # a real query row and key row, both past position 0
    inp = lecture_inputs(T, d, cfg.seed)
    np.testing.assert_allclose(data.q, (inp.X @ inp.Wq)[data.q_token], atol=1e-12)
    assert data.Y_plain.shape == (T, d)


def test_pick_query_key_maximises_the_shortest_hands_share():
    rng = np.random.default_rng(3)
    Q, K = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    a, b = pick_query_key(Q, K)

    def share(a, b):
        qn, kn = np.linalg.norm(Q[a].reshape(-1, 2), axis=1), np.linalg.norm(K[b].reshape(-1, 2), axis=1)
        return np.min(np.minimum(qn, kn) / np.maximum(qn, kn))

    assert share(a, b) == max(share(x, y) for x in range(2, 5) for y in range(1, x))
    with pytest.raises(ValueError):
        pick_query_key(Q[:2], K[:2])


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
        # and the arc drawn between them spans that angle, from k's hand to q's
        arc = scene.arcs[i]
        assert abs(np.angle(np.exp(1j * (arc.between - before)))) < 1e-9
        start = arc.get_start() - dial.center
        end = arc.get_end() - dial.center
        assert abs(np.angle(np.exp(1j * (np.arctan2(start[1], start[0]) - got[1])))) < 1e-3
        assert abs(np.angle(np.exp(1j * (np.arctan2(end[1], end[0]) - got[0])))) < 1e-3


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


def test_the_colour_bar_spans_the_outputs_scale(final):
    scene, _ = final
    d = scene.data
    bar = scene.outputs.bar
    M = float(np.max(np.abs(np.concatenate([d.Y_plain, d.Y_plain_shifted, d.Y_rot, d.Y_rot_shifted]))))
    assert bar.color_scale is scene.y_scale
    assert (scene.y_scale.norm.vmin, scene.y_scale.norm.vmax) == (-M, M)
    for stripe, v in zip(bar.stripes, bar.values):
        assert np.abs(rgb255(stripe.get_fill_color()) - rgb255(scene.y_scale.rgb(v))).max() <= 1
    assert [t.text for t in bar.tick_labels] == [fmt_value(v, 1).replace(" ", "") for v in (-M, 0.0, M)]


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.score_val.text == fmt_value(d.score, 4) == scene.score_shift_val.text
    assert scene.gap_val.text == fmt_measure(d.score_gap)
    assert scene.gap_max_val.text == fmt_measure(d.score_gap_max)
    assert scene.summary[-1].text == fmt_measure(d.score_gap_max)
    assert [v.text for v in scene.defect_vals] == [fmt_measure(d.defect_plain), fmt_measure(d.defect_rot)]
    for v, want in zip(scene.defect_vals, (GOOD, BAD)):
        assert np.abs(dominant_ink(scene, frame, v, BG) - rgb255(want)).max() <= 40
    # the readouts name the positions the hands were last turned to, by token
    assert [r.text for r in scene.pos_read] == [str(d.m + d.s), str(d.n + d.s)]
    assert scene.who[0][1].text.replace(" ", "") == f"queryoftoken{d.q_token}"
    assert scene.who[1][1].text.replace(" ", "") == f"keyoftoken{d.k_token}"


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
        first = texts[1]
        assert f"token {d.q_token}" in first and f"token {d.k_token}" in first
        assert ("one two-dimensional pair" in first) == (d.q.size == 2), (name, first)
        assert any(f"m = {d.m} and k by n = {d.n}" in t for t in texts), name
        assert any(f"m − n = {d.m - d.n}" in t for t in texts), name
        assert any(fmt_measure(d.defect_plain) in t for t in texts) and d.defect_plain < 1e-12, name
        assert any(fmt_measure(d.defect_rot) in t for t in texts) and d.defect_rot > 1e-3, name
