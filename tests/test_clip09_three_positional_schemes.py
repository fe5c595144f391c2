"""Clip 09 ThreePositionalSchemes: data binding, act 1's matrices painted by one colour scale with
its bar, act 2's similarity matrices (pixels, one size, a colour bar each with the matrix's range),
the measured diagonal spreads labelled with what they are, captions, and the layout audit over
the config matrix."""

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
from scenes.kit import BAD, BG, GOOD, fmt_measure
from scenes.kit.layout import _texts_in
from scenes.positions import ThreePositionalSchemes, fmt_tick, nice_tick


@pytest.fixture(scope="module")
def final():
    return render_final_frame(ThreePositionalSchemes)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(ThreePositionalSchemes, tmp_path_factory)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = ThreePositionalSchemes.build_data(cfg)
    inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    P = my_sinusoidal_position(cfg.T, cfg.d, cfg.rope_base)
    E = learned_absolute_position(cfg.T, cfg.d, cfg.n_max, cfg.seed)
    np.testing.assert_array_equal(d.X, inp.X)
    np.testing.assert_array_equal(d.P, P)
    np.testing.assert_array_equal(d.E, E)
    np.testing.assert_allclose(d.Q, inp.X @ inp.Wq, atol=1e-12)
    np.testing.assert_array_equal(d.X_sin, inp.X + P)
    np.testing.assert_array_equal(d.X_learned, inp.X + E)
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


def test_act_one_paints_every_matrix_by_one_scale_with_its_bar(final):
    scene, _ = final
    d = scene.data
    sc = scene.in_scale
    shown = [(scene.x_in, d.X)] + list(zip(scene.middles, (d.P, d.E, d.Q))) \
        + list(zip(scene.results, (d.X_sin, d.X_learned, d.Q_rope)))
    m = max(float(np.max(np.abs(a))) for _, a in shown)
    assert (sc.norm.vmin, sc.norm.vmax) == (-m, m)  # the scale covers every entry shown
    bar = scene.in_bar
    assert bar.color_scale is sc
    assert [t.text for t in bar.tick_labels] == [fmt_measure(-m), "0.0", fmt_measure(m)]
    for h, A in shown:
        np.testing.assert_array_equal(h.values, A)
        for i in range(A.shape[0]):
            for j in range(A.shape[1]):
                assert rgb255(h.cell(i, j).get_fill_color()).tolist() == rgb255(sc.rgb(A[i, j])).tolist(), (i, j)


def test_final_frame_colours_every_similarity_matrix_by_its_values(final):
    scene, frame = final
    d = scene.data
    for h, S, sc in zip(scene.sims, (d.sim_sin, d.sim_learned, d.sim_rope), scene.sim_scales):
        np.testing.assert_array_equal(h.values, S)
        for m in range(0, d.T_sim, 2):
            for n in range(1, d.T_sim, 3):
                got = pixel(scene, frame, h.cell_center(m, n))
                assert np.abs(got - rgb255(sc.rgb(S[m, n]))).max() <= 6, (m, n, got)


def test_the_similarity_matrices_are_one_size_and_the_largest_things_on_screen(final):
    scene, _ = final
    widths = [h.width for h in scene.sims]
    assert max(widths) - min(widths) < 1e-9
    content = scene.layout.content
    assert sum(h.width * h.height for h in scene.sims) >= 0.27 * content.width * content.height
    for h in scene.sims:
        assert h.width > 2.5


def test_each_colour_bar_spans_its_matrix_scale(final):
    scene, _ = final
    d = scene.data
    for bar, sc in zip(scene.sim_bars, scene.sim_scales):
        assert bar.color_scale is sc
        vals = bar.values
        assert vals.min() > sc.norm.vmin and vals.max() < sc.norm.vmax
    assert (scene.sim_scales[0].norm.vmin, scene.sim_scales[0].norm.vmax) == (-1.0, 1.0)
    r = float(np.max(np.abs(d.sim_rope)))
    assert (scene.sim_scales[2].norm.vmin, scene.sim_scales[2].norm.vmax) == (-r, r)
    top = nice_tick(r)  # a round tick inside the range, drawn where its value sits
    assert 0.5 * r < top <= r
    assert scene.sim_bars[2].tick_labels[-1].text == fmt_tick(top)
    assert [t.text for t in scene.sim_bars[0].tick_labels] == ["\u22121", "0", "1"]
    bar = scene.sim_bars[2]
    np.testing.assert_allclose(bar.tick_labels[-1].get_y(), bar.point_of(top)[1], atol=1e-6)
    assert [nice_tick(x) for x in (6.04, 0.83, 12.7, 1.0)] == [6.0, 0.8, 10.0, 1.0]


def test_the_picked_diagonal_is_constant_on_screen(final):
    scene, frame = final
    d = scene.data
    k = scene.DIAG
    vals = [d.sim_rope[m, m - k] for m in range(k, d.T_sim)]
    assert max(vals) - min(vals) <= d.defects[2]
    colours = [pixel(scene, frame, scene.sims[2].cell_center(m, m - k)) for m in range(k, d.T_sim)]
    assert max(np.abs(c - colours[0]).max() for c in colours) <= 4


def test_the_figures_on_screen_are_the_measured_ones_and_say_what_they_measure(final):
    scene, frame = final
    d = scene.data
    assert [v.text for v in scene.defect_values] == [fmt_measure(x) for x in d.defects]
    for v, x in zip(scene.defect_values, d.defects):
        want = GOOD if x < 1e-9 else BAD
        assert np.abs(dominant_ink(scene, frame, v, BG) - rgb255(want)).max() <= 40
    # each figure is labelled with the kind of value it measures, and its verdict
    kinds = [v[0].original_text for v in scene.verdicts]
    assert kinds == ["cosines on a diagonal", "cosines on a diagonal", "scores on a diagonal"]
    assert [v[2].original_text for v in scene.verdicts] == [
        "\u2192 depend on m \u2212 n only", "\u2192 depend on m and n", "\u2192 depend on m \u2212 n only"]
    # no check or cross glyph that could read as a multiplication sign beside a figure
    texts = [getattr(t, "original_text", "") or getattr(t, "text", "") for m in scene.mobjects for t in _texts_in(m)]
    assert not any(ch in t for t in texts for ch in "\u2717\u00d7\u2713")


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


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)


def test_every_corner_keeps_lecture_pacing_and_true_verdicts(corners):
    for name, res in corners.items():
        scene = res.scene
        assert 20 <= scene.time <= 75, (name, scene.time)
        # the measured claim the narration makes holds: sinusoidal and RoPE constant, the fresh table not
        assert scene.relative_only() == (True, False, True), name
