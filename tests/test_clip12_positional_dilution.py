"""Clip 12 PositionalDilution: the computed curves, the measured onsets, the final frame."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, pixel, render_final_frame, rgb255
from mathcore import load_config, sinusoidal_dilution
from mathcore.extrapolation import ambiguity_onset
from scenes.extrapolation import WIDTH_COLORS, PositionalDilution, fmt_count


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PositionalDilution, 854, 480)  # full 480p: the marker dots are small


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PositionalDilution.build_data(cfg)
    t, cos = sinusoidal_dilution(cfg.dilution_t_max, cfg.dilution_widths, cfg.rope_base)
    np.testing.assert_array_equal(d.t, t)
    np.testing.assert_array_equal(d.cos, cos)
    assert d.t[0] == 1 and d.t[-1] == cfg.dilution_t_max
    assert d.widths == tuple(cfg.dilution_widths)
    for row, o in zip(cos, d.onsets):
        assert o == ambiguity_onset(row, 2.0)
        # the onset's definition holds on the real curve
        assert row[o.witness - 1] >= row[o.t - 1] and o.witness >= 2 * o.t


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("dilution_widths = [16, 64, 256]", "dilution_widths = [32, 128]").replace(
        "dilution_t_max = 10000", "dilution_t_max = 2000")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = PositionalDilution.build_data(load_config(p))
    assert d.widths == (32, 128) and d.cos.shape == (2, 2000)


def test_curves_draw_only_computed_samples(final):
    scene, _ = final
    d = scene.data
    for curve, row in zip(scene.curves, d.cos):
        idx = curve.data_index
        assert len(idx) < len(row)  # downsampled ...
        assert idx[0] == 0 and idx[-1] == len(row) - 1
        # ... and every drawn vertex is a computed (t, cos) pair where the plot maps it
        np.testing.assert_allclose(curve.points[0::4], scene.plot.to_point(d.t[idx], row[idx])[:-1], atol=1e-9)
        # the global extremes of the computed curve survive the downsampling
        assert row.argmin() in idx and row.argmax() in idx


def test_final_frame_marks_each_onset_where_it_was_measured(final):
    scene, frame = final
    d = scene.data
    for k, o in enumerate(d.onsets):
        ring = scene.markers[k][3]
        assert np.allclose(ring.get_center(), scene.plot.to_point(o.t, o.cos_t))
        # the dot at (t*, c(t*)) is painted in its width's colour
        got = pixel(scene, frame, scene.plot.to_point(o.t, o.cos_t))
        assert np.abs(got - rgb255(WIDTH_COLORS[k])).max() <= 30, (k, got)
    # the drop line of each marker sits at x = t*
    for k, o in enumerate(d.onsets):
        drop = scene.markers[k][0]
        assert abs(drop.get_center()[0] - scene.plot.to_point(o.t, 0)[0]) < 1e-6
    # the legend's swatches carry the curve colours
    for k, row in enumerate(scene.legend_rows):
        assert row[0].get_stroke_color().to_hex() == WIDTH_COLORS[k].to_hex()
        got = pixel(scene, frame, row[0].get_center())
        assert np.abs(got - rgb255(WIDTH_COLORS[k])).max() <= 40, (k, got)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, _ = final
    d = scene.data
    printed = [v.text for v in scene.onset_values]
    assert printed == [fmt_count(o.t).replace(" ", "") for o in d.onsets]  # Text.text drops plain spaces
    assert [w.text for w in scene.width_labels] == [f"d={w}" for w in d.widths]  # Text.text drops spaces
    assert printed == ["2", "15", "172"]  # the lecture config's widths 16, 64, 256


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 7
    assert any("172" in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.15)
