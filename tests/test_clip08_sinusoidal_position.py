"""Clip 08 SinusoidalPosition: data binding, the wave panel sharing the matrix's position axis,
the colour bar as the panel's value axis, the final frame's pixels (the full matrix beside its
fastest pair of waves with their samples), the printed measures, captions true for every config,
and the layout audit over the config matrix."""

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
    to_pixel,
)
from mathcore import load_config, my_sinusoidal_position, sinusoidal_wavelengths
from mathcore.rope_measures import sinusoidal_at
from scenes.kit import BG, ColorScale, fmt_measure
from scenes.positions import SinusoidalPosition, base_math, fmt_length


@pytest.fixture(scope="module")
def final():
    return render_final_frame(SinusoidalPosition)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(SinusoidalPosition, tmp_path_factory)


def on_screen(scene, mob) -> bool:
    return any(mob is f for m in scene.mobjects for f in m.get_family())


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


def test_the_formula_prints_the_configured_base():
    assert [base_math(b) for b in (100.0, 10000.0, 500000.0, 1e9, 2.5e7)] == [
        "100", "10000", "500000", "(10^9)", "(2.5 dot 10^7)"]


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


def test_the_panel_shares_the_matrix_position_axis_and_the_bar_is_its_value_axis(final):
    scene, _ = final
    d, panel, bar = scene.data, scene.panel, scene.bar
    for p in range(d.T):  # position p of the waves is row p of the matrix
        assert abs(panel.row_y(p) - scene.heat.cell_center(p, 0)[1]) < 1e-9
    # the bar spans the scale, and a value's colour sits right above where the panel draws it
    assert (bar.color_scale.norm.vmin, bar.color_scale.norm.vmax) == (-1.0, 1.0)
    for v in (-1.0, 0.0, 1.0):
        assert abs(bar.point_of(v)[0] - panel.value_x(v)) < 1e-9
    assert [t.text for t in bar.tick_labels] == ["\u22121", "0", "1"]


def test_the_clip_ends_on_its_fastest_pair_with_its_samples(final):
    scene, frame = final
    d = scene.data
    assert on_screen(scene, scene.curves[0]) and not on_screen(scene, scene.curves[-1])
    scale = ColorScale(d.cmap, -1.0, 1.0)
    dots = scene.final_dots
    assert on_screen(scene, dots) and len(dots) == 2 * d.T
    for k, dot in enumerate(dots):
        j, p = k // d.T, k % d.T  # sine samples, then cosine samples
        v = d.samples[p, j]
        np.testing.assert_allclose(dot.get_center(), scene.panel.to_point(v, p), atol=1e-9)
        assert rgb255(dot.get_fill_color()).tolist() == rgb255(scale.rgb(v)).tolist()
        assert np.abs(pixel(scene, frame, dot.get_center()) - rgb255(scale.rgb(v))).max() <= 40, (p, j)


def test_the_fastest_pairs_curves_are_drawn_where_the_waves_are(final):
    scene, frame = final
    d = scene.data
    for curve, col in ((scene.curves[0][0], 0), (scene.curves[0][1], 1)):
        pts = np.vstack([curve.get_start_anchors(), curve.get_end()[None, :]])
        want = scene.panel.to_point(d.waves[:, col], d.wave_x)
        assert np.abs(pts[:, :2] - want[:, :2]).max() < 1e-6
        # ink of the curve's colour where the wave is, between two samples (no dot there)
        k = int(np.argmin(np.abs(d.wave_x - 1.5)))
        at = scene.panel.to_point(d.waves[k, col], d.wave_x[k])
        r, c = to_pixel(scene, at, frame)
        want_rgb = rgb255(curve.get_stroke_color())
        window = frame[r - 2 : r + 3, c - 2 : c + 3].reshape(-1, 3).astype(int)
        assert np.abs(window - want_rgb).max(axis=1).min() <= 100, col
        # and none half a unit to the side, where that wave does not run
        other = d.waves[k, 1 - col]
        side = 0.5 * np.sign(d.waves[k, col] - other) or 0.5
        r2, c2 = to_pixel(scene, at + np.array([side, 0, 0]), frame)
        away = frame[r2 - 1 : r2 + 2, c2 - 1 : c2 + 2].reshape(-1, 3).astype(int)
        assert np.abs(away - want_rgb).max(axis=1).min() > 150, col


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


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)


def test_every_corner_keeps_lecture_pacing_and_true_captions(corners):
    for name, res in corners.items():
        scene = res.scene
        d = scene.data
        assert 20 <= scene.time <= 75, (name, scene.time)
        # "the last pair turns through only x % of a cycle": the share printed is the measured one
        share = 100.0 * (d.T - 1) / d.wavelengths[-1]
        assert any(fmt_measure(share) in c.text for c in scene.captions), name
        assert share < 50, name
