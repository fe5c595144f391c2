"""Clip 10 RoPEAngleGrid: data binding, the final frame's pixels, dials driven by the grid, captions."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, pixel, render_final_frame, rgb255
from mathcore import load_config, rope_angle_grid, rope_frequencies
from mathcore.rope_measures import angle_grid_defect
from scenes.kit import BG, ColorScale, fmt_measure
from scenes.rope import RoPEAngleGrid, fmt_rate


@pytest.fixture(scope="module")
def final():
    return render_final_frame(RoPEAngleGrid)


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
    assert d.cmap == cfg.cmap_angles


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    p = tmp_path / "lecture.toml"
    p.write_text(src.replace("rope_base = 10000.0", "rope_base = 500000.0"))
    d = RoPEAngleGrid.build_data(load_config(p))
    np.testing.assert_array_equal(d.grid, rope_angle_grid(d.T, 16, 500000.0))


def test_final_frame_colours_the_grid_by_angle_mod_2pi(final):
    scene, frame = final
    d = scene.data
    scale = ColorScale(d.cmap, 0.0, 2 * np.pi)
    np.testing.assert_array_equal(scene.heat.values, d.wrapped)
    for m in range(d.T):
        for i in range(d.d // 2):
            got = pixel(scene, frame, scene.heat.cell_center(m, i))
            assert np.abs(got - rgb255(scale.rgb(d.wrapped[m, i]))).max() <= 4, (m, i, got)


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
    # the picked row is framed
    box = scene.row_box
    assert abs(box.get_center()[1] - scene.heat.cell_center(d.m_pick, 0)[1]) < 1e-6
    assert scene.m_label[1].text == str(d.m_pick)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.defect_value.text == fmt_measure(d.defect)
    caps = [c[1].text for c in scene.dials.captions]
    assert caps == [f"θ={fmt_rate(t)}" for t in d.theta]  # Pango's Text.text drops spaces
    assert dominant_ink(scene, frame, scene.defect_value, BG).tolist() != rgb255(BG).tolist()


def test_fmt_rate_keeps_two_significant_digits():
    assert [fmt_rate(x) for x in (1.0, 0.316227, 0.1, 0.000316227)] == ["1.0", "0.32", "0.1", "0.00032"]


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 8
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)
