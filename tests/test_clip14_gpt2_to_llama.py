"""Clip 14 GPT2ToLLaMA: GPT-2's table beside LLaMA's RoPE, from mathcore; the final frame."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    assert_captions_readable,
    assert_inside_frame,
    assert_layout_holds,
    corner_results,
    pixel,
    render_final_frame,
    rgb255,
)
from mathcore import learned_absolute_table, load_config
from mathcore.extrapolation import GPT2, LLAMA2, LLAMA3, pairs_without_a_turn, rope_wavelengths
from scenes.extrapolation import GPT2ToLLaMA, fmt_count
from scenes.kit import BG, ColorScale


@pytest.fixture(scope="module")
def final():
    return render_final_frame(GPT2ToLLaMA, 854, 480)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(GPT2ToLLaMA, tmp_path_factory)


def shown(s: str) -> str:
    return s.replace(" ", "")  # Text.text drops plain spaces


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = GPT2ToLLaMA.build_data(cfg)
    np.testing.assert_array_equal(d.table, learned_absolute_table(768, 1024, cfg.seed))
    assert d.table.shape == (GPT2.n_max, GPT2.d_model) == (1024, 768)
    np.testing.assert_array_equal(d.wavelengths[0], rope_wavelengths(128, 10000.0))
    np.testing.assert_array_equal(d.wavelengths[1], rope_wavelengths(128, 500000.0))
    assert d.slow_pairs == pairs_without_a_turn(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base) == 18
    assert (d.llama2, d.llama3, d.gpt2) == (LLAMA2, LLAMA3, GPT2)
    assert d.n_params == 1024 * 768


def test_final_frame_paints_the_table_by_its_values(final):
    scene, frame = final
    d = scene.data
    scale = ColorScale.symmetric(d.cmap, d.table)
    r, c = d.zoom
    for i in range(r):
        for j in range(c):
            got = pixel(scene, frame, scene.zoom_map.cell_center(i, j))
            assert np.abs(got - rgb255(scale.rgb(d.table[i, j]))).max() <= 4, (i, j, got)
    sub = d.table[np.ix_(d.sample_rows, d.sample_cols)]
    for i in range(0, len(d.sample_rows), 3):
        for j in range(0, len(d.sample_cols), 2):
            got = pixel(scene, frame, scene.image.cell_center(i, j))
            assert np.abs(got - rgb255(scale.rgb(sub[i, j]))).max() <= 6, (i, j, got)
    # the last drawn row is the table's last sampled row; the cap line sits under row n_max - 1
    assert d.sample_rows[-1] < GPT2.n_max <= d.sample_rows[-1] + (d.sample_rows[1] - d.sample_rows[0])
    assert abs(scene.cap_line.get_center()[1] - scene.image.get_bottom()[1]) < 1e-9


def test_final_frame_plots_the_wavelengths(final):
    scene, frame = final
    d = scene.data
    for k, curve in enumerate(scene.wl_curves):
        np.testing.assert_allclose(curve.points[0::4], scene.plot.to_point(curve.data_index, d.wavelengths[k][curve.data_index])[:-1])
        end = scene.plot.to_point(d.n_pairs - 1, d.wavelengths[k, -1])
        assert abs(scene.wl_values[k].get_y() - end[1]) < 1e-6
    # the training-length line sits at 4 096 on the log axis
    assert abs(scene.train_line.get_center()[1] - scene.plot.to_point(0, LLAMA2.train_length)[1]) < 1e-9
    got = pixel(scene, frame, scene.plot.to_point(d.n_pairs // 2, d.wavelengths[0, d.n_pairs // 2]))
    # an anti-aliased line pixel: nearer the LLaMA-2 colour than the background or the LLaMA-3 colour
    dist = {name: np.abs(got - rgb255(c)).sum() for name, c in
            (("llama2", scene.base_colors[0]), ("llama3", scene.base_colors[1]), ("bg", BG))}
    assert min(dist, key=dist.get) == "llama2", (got, dist)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, _ = final
    d = scene.data
    assert scene.params_value.text == shown(fmt_count(d.table.size)) == "786\u2009432"
    assert scene.slow_value.text == shown(f"{d.slow_pairs} of {d.n_pairs}")
    assert [v.text for v in scene.wl_values] == [shown(fmt_count(round(w))) for w in d.wavelengths[:, -1]]
    assert scene.wl_values[0].text == "54\u2009410"
    assert scene.shape_text.text == shown(f"wpe: ({fmt_count(d.table.shape[0])}, {d.table.shape[1]})")
    assert scene.cap_text.text == shown(f"no row {fmt_count(GPT2.n_max)}")


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert any("clip 13" in c.text for c in caps) and any("lecture 6" in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.15)


def test_the_colour_bar_spans_the_tables_scale(final):
    scene, _ = final
    bar = scene.colorbar
    assert bar.color_scale is scene.scale
    lim = float(np.max(np.abs(scene.data.table)))
    assert np.isclose(scene.scale.norm.vmin, -lim) and np.isclose(scene.scale.norm.vmax, lim)
    assert [t.text for t in bar.tick_labels] == [f"{-lim:.2f}".replace("-", "\u2212"), "0.00", f"{lim:.2f}"]


def test_the_zoom_connectors_and_the_curves_cross_no_text(final):
    scene, _ = final
    texts = [scene.shape_text, scene.zoom_text, scene.params_text, scene.sample_text, scene.gpt_head, scene.cap_text]
    for line in scene.zoom_lines:
        for t in texts:
            assert line.get_top()[1] <= t.get_bottom()[1] + 1e-6 or line.get_bottom()[1] >= t.get_top()[1] - 1e-6 \
                or line.get_right()[0] <= t.get_left()[0] + 1e-6 or line.get_left()[0] >= t.get_right()[0] - 1e-6, t
    # the training-length label is beside the line, right of the plot where no curve runs
    p = scene.plot
    assert scene.train_text.get_left()[0] > p.axes[0].get_right()[0]
    assert abs(scene.train_text.get_y() - scene.train_line.get_y()) < 0.35


def test_the_slow_pairs_are_marked_and_named_with_their_model(final):
    scene, _ = final
    d = scene.data
    first_slow = d.n_pairs - d.slow_pairs
    # the band covers exactly the LLaMA-2 pairs whose wavelength exceeds the training length
    assert np.all(d.wavelengths[0, first_slow:] > LLAMA2.train_length)
    assert np.all(d.wavelengths[0, :first_slow] <= LLAMA2.train_length)
    p = scene.plot
    assert abs(scene.slow_band.get_left()[0] - p.to_point(first_slow - 0.5, 1)[0]) < 1e-6
    assert abs(scene.slow_band.get_bottom()[1] - scene.train_line.get_y()) < 1e-6
    assert "LLaMA-2" in scene.slow_text[1].text


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)
    for name, r in corners.items():
        assert 20 <= r.scene.time <= 75, (name, r.scene.time)
