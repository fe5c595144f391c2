"""Clip 08 SinusoidalPosition: data binding, the wave panel sharing the matrix's position axis,
the colour bar as the panel's value axis, the proof beat's pixels (the fastest pair of waves with
their samples beside the full matrix), the takeaway (the matrix alone, large, its pairs labelled
with their wavelengths, bound to PE), the printed measures in the lecture's number style, the
still drawn on the clip's own scale, captions true for every config, and the layout and lecture
audit over the config matrix."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    shipped_audit,
    assert_captions_readable,
    corner_results,
    dominant_ink,
    pixel,
    rgb255,
    to_pixel,
)
from mathcore import load_config, my_sinusoidal_position, sinusoidal_wavelengths
from mathcore.rope_measures import sinusoidal_at
from scenes.figures import designed_stills
from scenes.figures.positions import base_figure, pe_scale, sample_check, wavelength_figures
from scenes.kit import BG, COS, SIN, VERIFIED, numbers
from scenes.audit.beats import audit_clip
from scenes.kit.notation import N
from scenes.kit.numbers import notebook_output
from scenes.clips.c08_sinusoidal_position import SinusoidalPosition

W, H = 427, 240


@pytest.fixture(scope="module")
def run():
    """One silent run: every beat's picture (small) and the audit of every beat."""
    res = shipped_audit(SinusoidalPosition)
    res.frames = dict(res.beat_frames)
    return res


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


def test_the_formula_prints_the_configured_base_in_the_lecture_style():
    bases = (100.0, 10000.0, 500000.0, 1e9, 2.5e7)
    assert [base_figure(b).text for b in bases] == ["100", "10\u2009000", "500\u2009000", "10⁹", "25 million"]
    assert base_figure(1e9).math == "10^9" and base_figure(10000.0).math == "10 thin 000"
    for b in bases:
        assert notebook_output(base_figure(b).text) is None


def test_wavelengths_read_in_the_lecture_number_style():
    assert [f.text for f in wavelength_figures([6.2832, 62.83, 628.3, 6283.2, 3.5e7])] == [
        "6.3", "63", "628", "6283", "≈ 3.5 × 10⁷"]


def test_the_takeaway_is_the_matrix_large_with_its_wavelengths(run):
    """The closing frame: the matrix alone (the waves, the panel and the notes gone), painted by PE,
    filling most of the content area, each column pair labelled with its measured wavelength, the
    formula and the verified gap under it."""
    scene, frame = run.scene, run.frames["close"]
    d, pm = scene.data, scene.pm
    take = scene.takeaway()
    assert take is scene.final and on_screen(scene, pm.heat)
    np.testing.assert_array_equal(pm.heat.values, d.PE)
    assert pm.heat._shows == "PE"
    scale = pe_scale(d.cmap)
    for m in range(d.T):
        for j in range(d.d):
            got = pixel(scene, frame, pm.heat.cell_center(m, j))
            assert np.abs(got - rgb255(scale.rgb(d.PE[m, j]))).max() <= 4, (m, j, got)
    content = scene.layout.content
    assert pm.heat.width * pm.heat.height >= 0.3 * content.width * content.height  # the largest thing by far
    assert pm.heat.width > 2 * scene.wm.heat.width  # it grew from the working matrix
    # each pair's label is its wavelength, over its own two columns
    for i, (mark, f) in enumerate(zip(pm.marks, wavelength_figures(d.wavelengths))):
        assert mark[1].typst_code.strip("$ ").replace(" ", "") == f"lambda_{i}={f.math}".replace(" ", "")
        assert pm.heat.cell(0, 2 * i).get_left()[0] - 1e-6 <= mark[0].get_center()[0] <= pm.heat.cell(0, 2 * i + 1).get_right()[0]
    # nothing else is left: the panel, the waves and the notes are gone
    assert not on_screen(scene, scene.wm.panel) and not on_screen(scene, scene.curves[0])
    assert not on_screen(scene, scene.lam_lines) and not on_screen(scene, scene.final_dots)
    fig, ok = sample_check(d)
    assert ok and fig.text == numbers.measure(d.sample_defect).text


def test_the_panel_shares_the_matrix_position_axis_and_the_bar_is_its_value_axis(run):
    scene = run.scene
    d, wm = scene.data, scene.wm
    for m in range(d.T):  # position m of the waves is row m of the matrix
        assert abs(wm.panel.row_y(m) - wm.heat.cell_center(m, 0)[1]) < 1e-9
    # the bar spans the scale, and a value's colour sits right above where the panel draws it
    assert (wm.bar.color_scale.norm.vmin, wm.bar.color_scale.norm.vmax) == (-1.0, 1.0)
    for v in (-1.0, 0.0, 1.0):
        assert abs(wm.bar.point_of(v)[0] - wm.panel.value_x(v)) < 1e-9
    assert [t.text for t in wm.bar.tick_labels] == ["\u22121", "0", "1"]


def test_the_proof_shows_the_fastest_pair_with_its_samples(run):
    scene, frame = run.scene, run.frames["check"]
    d, wm = scene.data, scene.wm
    scale = pe_scale(d.cmap)
    dots = scene.final_dots
    assert len(dots) == 2 * d.T
    for k, dot in enumerate(dots):
        j, m = k // d.T, k % d.T  # sine samples, then cosine samples
        v = d.samples[m, j]
        np.testing.assert_allclose(dot.get_center(), wm.panel.to_point(v, m), atol=1e-9)
        assert rgb255(dot.get_fill_color()).tolist() == rgb255(scale.rgb(v)).tolist()
        assert rgb255(dot.get_stroke_color()).tolist() == rgb255((SIN, COS)[j]).tolist()
        assert np.abs(pixel(scene, frame, dot.get_center()) - rgb255(scale.rgb(v))).max() <= 40, (m, j)
    # beside them, the full matrix painted by PE
    for m in range(d.T):
        for j in range(d.d):
            got = pixel(scene, frame, wm.heat.cell_center(m, j))
            assert np.abs(got - rgb255(scale.rgb(d.PE[m, j]))).max() <= 4, (m, j, got)
    # and the measured gap, typeset, in the colour of a check that passed
    assert abs(dominant_ink(scene, frame, scene.check_line, BG) - rgb255(VERIFIED)).max() <= 40


def test_the_fastest_pairs_curves_are_drawn_where_the_waves_are(run):
    scene, frame = run.scene, run.frames["check"]
    d, wm = scene.data, scene.wm
    for curve, col in ((scene.curves[0][0], 0), (scene.curves[0][1], 1)):
        pts = np.vstack([curve.get_start_anchors(), curve.get_end()[None, :]])
        want = wm.panel.to_point(d.waves[:, col], d.wave_x)
        assert np.abs(pts[:, :2] - want[:, :2]).max() < 1e-6
        assert rgb255(curve.get_stroke_color()).tolist() == rgb255((SIN, COS)[col]).tolist()
        # ink of the curve's colour where the wave is, between two samples (no dot there)
        k = int(np.argmin(np.abs(d.wave_x - 1.5)))
        at = wm.panel.to_point(d.waves[k, col], d.wave_x[k])
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


def test_the_figures_on_screen_are_the_measured_ones_in_the_lecture_style(run):
    scene = run.scene
    d = scene.data
    fig = scene.check_line.figure
    assert fig.text == numbers.measure(d.sample_defect).text and fig.approx  # ≈ 1.1 × 10⁻¹⁶, typeset
    assert "times 10^" in scene.check_line.typst_code
    printed = [line.typst_code.strip("$ ") for line in scene.lam_lines]
    assert printed == [f"lambda_{i} = {f.math}" for i, f in enumerate(wavelength_figures(d.wavelengths))]
    # every text of every beat is lecture language: no e-notation, code name or 0.0
    assert not [p for p in run.lecture if p.kind == "notation"]


def test_one_notation_with_the_deck(run):
    """Position m (not p), the matrix PE, the rate θᵢ, as the kit's notation table has them."""
    scene = run.scene
    maths = [it.text for rec in run.records for it in rec.items if it.kind == "text" and it.is_math]
    assert any(f"{N.encoding_matrix.math}_(m, 2i)" in t for t in maths)
    assert any(N.rate.math in t for t in maths)
    assert not any('"PE"[' in t or "[p," in t or "omega" in t for t in maths)  # the old PE[p, 2i], ω_i
    assert all("{" not in c.text and "p_" not in c.text for c in scene.captions)
    assert scene.wm.m_name.typst_code.strip("$ ") == N.position.math


def test_every_beat_changes_the_picture_and_labels_name_what_is_shown(run):
    assert not [p for p in run.lecture if p.kind in ("static", "binding")]
    close = run.records[-1]
    assert close.key == "close"
    assert ("PE" in {q for q, _ in close.shown}) and ("PE" in {q for q, _ in close.named})


def test_the_still_uses_the_clips_scale(run, corners):
    """Issue 20: the still and the clip draw PE on one scale (bounds and colormap), in every config."""
    for res in [run, *corners.values()]:
        scene = res.scene
        still = designed_stills("SinusoidalPosition", scene.data, scene.cfg)[0]
        assert still.panels["M"].scale.same_as(scene.scale_)
        assert scene.wm.heat.color_scale.same_as(scene.scale_) and scene.pm.heat.color_scale.same_as(scene.scale_)
        np.testing.assert_array_equal(still.panels["M"].values, scene.data.PE)


def test_captions_one_per_beat_and_long_enough_to_read(run):
    scene = run.scene
    caps = scene.captions
    assert len(caps) >= 9
    assert_captions_readable(caps)
    assert any(sample_check(scene.data)[0].text in c.text for c in caps)


def test_every_corner_keeps_lecture_pacing_and_true_captions(corners):
    for name, res in corners.items():
        scene = res.scene
        d = scene.data
        # "the last pair turns through only x % of a cycle": the share printed is the measured one
        share = 100.0 * (d.T - 1) / d.wavelengths[-1]
        assert any(numbers.measure(share).text in c.text for c in scene.captions), name
        assert share < 50, name
        assert sample_check(d)[1], name  # the samples are the matrix, to rounding, in every config


def test_a_base_between_two_integers_is_printed_as_rounded():
    f = base_figure(12345.678)
    assert f.approx and f.text == "≈ 12\u2009346" and f.math.startswith("approx")
    assert not base_figure(10000.0).approx and not base_figure(1e9).approx
