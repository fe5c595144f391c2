"""Clip 12 PositionalDilution: the computed curves, the measured onsets, the final frame, the layout
over the config matrix, and narration that stays true for every config."""

from __future__ import annotations

from types import SimpleNamespace

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
from mathcore import load_config, sinusoidal_dilution
from mathcore.extrapolation import ambiguity_onset
from scenes.extrapolation import WIDTH_COLORS, PositionalDilution, PositionalDilutionData, fmt_count
from scenes.kit import BG


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PositionalDilution, 854, 480)  # full 480p: the marker dots are small


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(PositionalDilution, tmp_path_factory)


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


def test_each_width_has_its_own_panel_on_one_shared_axis(final):
    scene, _ = final
    d = scene.data
    assert len(scene.panels) == len(d.widths) == len(scene.curves)
    xs = [p.to_point(d.t[[0, 99, -1]], 0.0)[:, 0] for p in scene.panels]
    for x in xs[1:]:
        np.testing.assert_allclose(x, xs[0])  # the same t sits at the same x in every panel
    tops = [p.axes[0].get_y() for p in scene.panels]
    assert all(a > b for a, b in zip(tops, tops[1:]))  # stacked top to bottom, in the config's order
    # no curve lies over another: each stays inside its own panel's box
    h = scene.stack.panel_height
    for p, c in zip(scene.panels, scene.curves):
        y0 = p.axes[0].get_y()
        assert c.get_bottom()[1] >= y0 - 1e-6 and c.get_top()[1] <= y0 + h + 1e-6


def test_curves_draw_only_computed_samples(final):
    scene, _ = final
    d = scene.data
    for p, curve, row in zip(scene.panels, scene.curves, d.cos):
        idx = curve.data_index
        assert len(idx) < len(row)  # downsampled ...
        assert idx[0] == 0 and idx[-1] == len(row) - 1
        # ... and every drawn vertex is a computed (t, cos) pair where its panel maps it
        np.testing.assert_allclose(curve.points[0::4], p.to_point(d.t[idx], row[idx])[:-1], atol=1e-9)
        # the global extremes of the computed curve survive the downsampling
        assert row.argmin() in idx and row.argmax() in idx


def test_final_frame_marks_each_onset_where_it_was_measured(final):
    scene, frame = final
    d = scene.data
    for k, (p, o) in enumerate(zip(scene.panels, d.onsets)):
        ring = scene.markers[k][3]
        assert np.allclose(ring.get_center(), p.to_point(o.t, o.cos_t))
        witness = scene.markers[k][4]
        assert np.allclose(witness.get_center(), p.to_point(o.witness, o.cos_witness))
        # the dot at (t*, c(t*)) is painted in its width's colour
        got = pixel(scene, frame, p.to_point(o.t, o.cos_t))
        assert np.abs(got - rgb255(WIDTH_COLORS[k])).max() <= 30, (k, got)
        # the drop line sits at x = t*, and the blurred zone starts there
        assert abs(scene.markers[k][0].get_center()[0] - p.to_point(o.t, 0)[0]) < 1e-6
        assert abs(scene.shades[k].get_left()[0] - p.to_point(o.t, 0)[0]) < 1e-6
        assert abs(scene.shades[k].get_right()[0] - p.axes[0].get_right()[0]) < 1e-6
    # each width's tag is printed in its curve's colour, beside its own panel
    for k, (tag, curve) in enumerate(zip(scene.width_labels, scene.curves)):
        assert curve.get_stroke_color().to_hex() == WIDTH_COLORS[k].to_hex()
        ink = dominant_ink(scene, frame, tag, BG)
        assert np.abs(ink - rgb255(WIDTH_COLORS[k])).max() <= 40, (k, ink)
        p = scene.panels[k]
        assert p.axes[0].get_y() - 0.2 <= tag.get_y() <= p.axes[0].get_y() + scene.stack.panel_height + 0.2


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, _ = final
    d = scene.data
    printed = [v.text for v in scene.onset_values]
    assert printed == [f"t*={fmt_count(o.t)}".replace(" ", "") for o in d.onsets]  # Text.text drops spaces
    assert [w.text for w in scene.width_labels] == [f"d={w}" for w in d.widths]
    assert printed == ["t*=2", "t*=15", "t*=172"]  # the lecture config's widths 16, 64, 256
    assert "2t" in scene.rule.typst_code  # the rule prints the factor the onsets were measured with
    assert d.factor == 2.0


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


# ------------------------------------------------------------------ layout and narration over the config matrix
def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)


def test_every_corner_stays_within_lecture_pacing(corners):
    for name, r in corners.items():
        assert 20 <= r.scene.time <= 75, (name, r.scene.time)


def test_narration_matches_the_measured_values_in_every_corner(corners):
    for name, r in corners.items():
        scene = r.scene
        d = scene.data
        text = " ".join(c.text for c in scene.captions)
        found = [o.t for o in d.onsets if o.t is not None]
        for t in found:
            assert fmt_count(t) in text, name
        if len(found) == len(d.widths):
            assert "still" not in text, name  # no width is said to keep positions apart
        if not found:
            assert "no longer tells" not in text and "every width blurs" not in text, name
        if "Wider helps" in text:
            assert d.wider_waits_longer(), name
        if "the cosine falls steadily" in text:
            assert d.falls_steadily(0), name


def fake(cos, widths):
    """Data for the variant chooser, from hand-made curves (no config needed)."""
    cos = np.asarray(cos, dtype=float)
    t = np.arange(1, cos.shape[1] + 1)
    return PositionalDilutionData(t=t, cos=cos, widths=tuple(widths), base=10000.0, factor=2.0,
                                  onsets=tuple(ambiguity_onset(r, 2.0) for r in cos))


def variant(data, key):
    return PositionalDilution.variant(SimpleNamespace(data=data), key)


def test_the_words_follow_the_numbers():
    steady = np.linspace(1, 0, 50)
    wobbly = np.cos(np.arange(1, 51))
    # a curve that falls all the way: no onset, "falls steadily"
    d = fake([steady], [64])
    assert d.onsets[0].t is None and d.falls_steadily(0)
    assert variant(d, "first") == "first_steady"
    assert variant(d, "marks") == "marks_none" and variant(d, "close") == "close_none"
    # one width blurs, the other does not
    d = fake([wobbly, steady], [2, 64])
    assert variant(d, "marks") == "marks_some" and variant(d, "meaning") == "meaning_some"
    assert variant(d, "close") == "close_some" and variant(d, "first") == "first"
    # both blur, the narrower first: "wider helps"; listed widest first, the words do not change
    d = fake([wobbly, 0.5 * wobbly + 0.5], [2, 64])
    assert all(o.t is not None for o in d.onsets)
    assert variant(d, "close") == ("close" if d.wider_waits_longer() else "close_all")
