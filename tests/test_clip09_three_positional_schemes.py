"""Clip 09 ThreePositionalSchemes: data binding, the final frame's pixels, the printed measures, captions."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, pixel, render_final_frame, rgb255
from mathcore import (
    apply_rope,
    learned_absolute_position,
    lecture_inputs,
    load_config,
    my_sinusoidal_position,
    relative_score_grid,
    toeplitz_defect,
)
from mathcore.rope_measures import cosine_similarity_matrix
from scenes.kit import BG, GOOD, BAD, fmt_measure
from scenes.positions import ThreePositionalSchemes


@pytest.fixture(scope="module")
def final():
    return render_final_frame(ThreePositionalSchemes)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = ThreePositionalSchemes.build_data(cfg)
    inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    np.testing.assert_array_equal(d.X, inp.X)
    np.testing.assert_array_equal(d.X_sin, inp.X + my_sinusoidal_position(cfg.T, cfg.d, cfg.rope_base))
    np.testing.assert_array_equal(d.X_learned, inp.X + learned_absolute_position(cfg.T, cfg.d, cfg.n_max, cfg.seed))
    np.testing.assert_allclose(d.Q_rope, apply_rope(inp.X @ inp.Wq, base=cfg.rope_base), atol=1e-12)
    Ts = cfg.T_heatmap
    np.testing.assert_array_equal(d.sim_sin, cosine_similarity_matrix(my_sinusoidal_position(Ts, cfg.d, cfg.rope_base)))
    np.testing.assert_array_equal(d.sim_learned, cosine_similarity_matrix(learned_absolute_position(Ts, cfg.d, cfg.n_max, cfg.seed)))
    G = relative_score_grid((inp.X @ inp.Wq)[0], (inp.X @ inp.Wk)[0], Ts, cfg.rope_base)
    np.testing.assert_allclose(d.sim_rope, G, atol=1e-12)
    assert d.defects == tuple(toeplitz_defect(S) for S in (d.sim_sin, d.sim_learned, d.sim_rope))
    # RoPE's grid depends on m − n only; the fresh learned table's does not
    assert d.defects[2] < 1e-12 and d.defects[1] > 0.1
    assert d.n_max == cfg.n_max


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("seed = 7", "seed = 11").replace("n_max = 1024", "n_max = 2048")
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = ThreePositionalSchemes.build_data(load_config(p))
    assert d.n_max == 2048
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 11).X)


def test_final_frame_colours_every_matrix_by_its_values(final):
    scene, frame = final
    d = scene.data
    for h, S, sc in zip(scene.sims, (d.sim_sin, d.sim_learned, d.sim_rope), scene.sim_scales):
        np.testing.assert_array_equal(h.values, S)
        for m in range(0, d.T_sim, 2):
            for n in range(1, d.T_sim, 3):
                got = pixel(scene, frame, h.cell_center(m, n))
                assert np.abs(got - rgb255(sc.rgb(S[m, n]))).max() <= 6, (m, n, got)
    for h, R in zip(scene.results, (d.X_sin, d.X_learned, d.Q_rope)):
        np.testing.assert_array_equal(h.values, R)
        for i in range(R.shape[0]):
            for j in range(R.shape[1]):
                got = pixel(scene, frame, h.cell_center(i, j))
                assert np.abs(got - rgb255(scene.in_scale.rgb(R[i, j]))).max() <= 6, (i, j)


def test_the_picked_diagonal_is_constant_on_screen(final):
    scene, frame = final
    d = scene.data
    k = scene.DIAG
    vals = [d.sim_rope[m, m - k] for m in range(k, d.T_sim)]
    assert max(vals) - min(vals) <= d.defects[2]
    colours = [pixel(scene, frame, scene.sims[2].cell_center(m, m - k)) for m in range(k, d.T_sim)]
    assert max(np.abs(c - colours[0]).max() for c in colours) <= 4


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert [v.text for v in scene.defect_values] == [fmt_measure(x) for x in d.defects]
    for v, x in zip(scene.defect_values, d.defects):
        want = GOOD if x < 1e-9 else BAD
        assert np.abs(dominant_ink(scene, frame, v, BG) - rgb255(want)).max() <= 40


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert_captions_readable(caps)
    assert any(fmt_measure(scene.data.defects[2]) in c.text for c in caps)
    assert any(str(scene.data.n_max) in c.text for c in caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)
