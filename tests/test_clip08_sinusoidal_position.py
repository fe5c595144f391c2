"""Clip 08 SinusoidalPosition: data binding, the final frame's pixels, the printed measure, captions."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, pixel, render_final_frame, rgb255, to_pixel
from mathcore import load_config, my_sinusoidal_position, sinusoidal_wavelengths
from mathcore.rope_measures import sinusoidal_at
from scenes.kit import BG, ColorScale, fmt_measure
from scenes.positions import SinusoidalPosition, fmt_length


@pytest.fixture(scope="module")
def final():
    return render_final_frame(SinusoidalPosition)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = SinusoidalPosition.build_data(cfg)
    assert (d.T, d.d, d.base) == (cfg.T_heatmap, 8, cfg.rope_base)
    np.testing.assert_array_equal(d.PE, my_sinusoidal_position(cfg.T_heatmap, 8, cfg.rope_base))
    np.testing.assert_array_equal(d.wavelengths, sinusoidal_wavelengths(8, cfg.rope_base))
    np.testing.assert_array_equal(d.waves, sinusoidal_at(d.wave_x, 8, cfg.rope_base))
    assert d.sample_defect == float(np.max(np.abs(sinusoidal_at(np.arange(d.T), 8, cfg.rope_base) - d.PE)))
    assert 0 < d.sample_defect < 1e-14
    # wavelengths fall geometrically: pair i+1 is base^(2/d) times slower
    np.testing.assert_allclose(d.wavelengths[1:] / d.wavelengths[:-1], cfg.rope_base ** (2 / 8))
    assert d.cmap == cfg.cmap_signed


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("rope_base = 10000.0", "rope_base = 500000.0").replace("T_heatmap = 12", "T_heatmap = 9")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = SinusoidalPosition.build_data(load_config(p))
    np.testing.assert_array_equal(d.PE, my_sinusoidal_position(9, 8, 500000.0))


def test_final_frame_cells_are_coloured_by_my_sinusoidal_position(final):
    scene, frame = final
    d = scene.data
    np.testing.assert_array_equal(scene.heat.values, d.PE)
    scale = ColorScale(d.cmap, -1.0, 1.0)
    for p in range(d.T):
        for j in range(d.d):
            got = pixel(scene, frame, scene.heat.cell_center(p, j))
            want = rgb255(scale.rgb(d.PE[p, j]))
            assert np.abs(got - want).max() <= 4, (p, j, got, want)


def test_the_last_pairs_curves_are_drawn_where_the_waves_are(final):
    scene, frame = final
    d = scene.data
    i = d.d // 2 - 1
    sin_curve, cos_curve = scene.curves[i][0], scene.curves[i][1]
    for curve, col in ((sin_curve, 2 * i), (cos_curve, 2 * i + 1)):
        pts = np.vstack([curve.get_start_anchors(), curve.get_end()[None, :]])
        want = scene.plot.to_point(d.wave_x[curve.data_index], d.waves[curve.data_index, col])
        assert np.abs(pts[:, :2] - want[:, :2]).max() < 1e-6
        # the curve's ink is drawn at its middle point
        mid = scene.plot.to_point(d.wave_x[len(d.wave_x) // 2], d.waves[len(d.wave_x) // 2, col])
        r, c = to_pixel(scene, mid, frame)
        want_rgb = rgb255(curve.get_stroke_color())
        window = frame[r - 2 : r + 3, c - 2 : c + 3].reshape(-1, 3).astype(int)
        assert np.abs(window - want_rgb).max(axis=1).min() <= 100, col
        # and not half a unit towards the plot's middle, where no curve runs
        for dy in (-0.5 * np.sign(mid[1] - scene.plot.to_point(0, 0)[1]),):
            r2, c2 = to_pixel(scene, mid + np.array([0, dy, 0]), frame)
            away = frame[r2 - 1 : r2 + 2, c2 - 1 : c2 + 2].reshape(-1, 3).astype(int)
            assert np.abs(away - want_rgb).max(axis=1).min() > 150, (col, dy)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.defect_value.text == fmt_measure(d.sample_defect)
    assert scene.defect_value.text != "0.0"
    printed = [grp[1].text for grp in scene.lambdas]
    assert printed == [fmt_length(w) for w in d.wavelengths]
    assert dominant_ink(scene, frame, scene.defect_value, BG).tolist() != rgb255(BG).tolist()


def test_fmt_length_reads_like_a_count_of_positions():
    assert [fmt_length(x) for x in (6.2832, 62.83, 628.3, 6283.2)] == ["6.3", "62.8", "628", "6\u2009283"]


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert_captions_readable(caps)
    assert any(fmt_measure(scene.data.sample_defect) in c.text for c in caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)
