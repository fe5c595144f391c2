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
    pixel,
    rgb255,
    to_pixel,
)
from mathcore import load_config, my_sinusoidal_position, sinusoidal_wavelengths
from mathcore.rope_measures import sinusoidal_at
from scenes.figures import designed_stills
from scenes.figures.positions import base_figure, pe_scale, sample_check, wavelength_figures
from scenes.kit import COS, SIN, VERIFIED, numbers
from scenes.kit.notation import N
from scenes.kit.numbers import notebook_output
from scenes.clips.c08_sinusoidal_position import SinusoidalPosition, cycle_share, last_waves_shape

W, H = 427, 240


SCENE = SinusoidalPosition


@pytest.fixture(scope="module")
def run():
    """One silent run: every beat's picture (small) and the audit of every beat."""
    res = shipped_audit(SinusoidalPosition)
    res.frames = dict(res.beat_frames)
    return res


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
    """The closing frame: the matrix alone (the waves and the panel gone), painted by PE, filling most
    of the content area, each column pair's measured wavelength under its own two columns, the
    formula over it and the verdict under it."""
    scene, frame = run.scene, run.frames["close"]
    d, pm = scene.data, scene.pm
    take = scene.takeaway()
    assert take is scene.final and on_screen(scene, pm.heat)
    np.testing.assert_array_equal(pm.heat.values, d.PE)
    assert pm.heat._shows == "PE"
    scale = pe_scale(scene.cfg)
    for m in range(d.T):
        for j in range(d.d):
            got = pixel(scene, frame, pm.heat.cell_center(m, j))
            assert np.abs(got - rgb255(scale.rgb(d.PE[m, j]))).max() <= 4, (m, j, got)
    content = scene.layout.content
    assert pm.heat.width * pm.heat.height >= 0.3 * content.width * content.height  # the largest thing by far
    assert pm.heat.width * pm.heat.height > scene.wm.heat.width * scene.wm.heat.height  # it grew
    assert_wavelengths_under_their_pairs(pm.heat, pm.lams, d)
    # nothing else is left: the panel and the waves are gone; the verdict and the formula frame it
    assert not on_screen(scene, scene.wm.panel) and not on_screen(scene, scene.curves[0])
    assert not on_screen(scene, scene.final_dots)
    assert on_screen(scene, scene.proof) and scene.proof.passed and scene.proof._verdict
    assert scene.proof.get_top()[1] < pm.heat.get_bottom()[1]
    fig, ok = sample_check(d)
    assert ok and fig.text == numbers.measure(d.sample_defect).text


def assert_wavelengths_under_their_pairs(heat, lams, d) -> None:
    """Each pair's wavelength, typeset, centred under its own two columns (or kept over the matrix when
    wider), below the matrix."""
    assert [m.typst_code.strip("$ ") for m in lams] == [f.math for f in wavelength_figures(d.wavelengths)]
    for i, lab in enumerate(lams):
        left, right = heat.cell(0, 2 * i).get_left()[0], heat.cell(0, 2 * i + 1).get_right()[0]
        assert left - 1e-6 <= lab.get_x() <= right + 1e-6 or lab.width > right - left, i
        assert lab.get_top()[1] < heat.get_bottom()[1], i
        # the nearest pair to the label is its own
        centres = [(heat.cell(0, 2 * k).get_left()[0] + heat.cell(0, 2 * k + 1).get_right()[0]) / 2
                   for k in range(d.d // 2)]
        assert int(np.argmin(np.abs(np.array(centres) - lab.get_x()))) == i or lab.width > right - left, i


def test_each_wavelength_is_written_under_its_pair_as_that_pair_fills(run):
    """Issue 33: clip 08 listed the wavelengths in a column of notes far from their columns.  Now λᵢ is
    under column pair i, and appears with its pair: at the end of pair i's beat the wavelengths of pairs
    0 to i are on screen (pair i's lit), the later ones not yet.  On the old main there was no label under
    any column (the wavelengths were lines of the notes column, right of the matrix)."""
    scene = run.scene
    d, wm = scene.data, scene.wm
    assert_wavelengths_under_their_pairs(wm.heat, wm.lams, d)
    keys = ["pair0", "pair1", "pair_mid", "pair_last"]
    recs = {r.key: r for r in run.records}
    figs = [f.math for f in wavelength_figures(d.wavelengths)]
    for i, key in enumerate(keys):
        shown = {it.text for it in recs[key].items if it.kind == "text" and it.opacity > 0.9}
        assert all(figs[k] in shown for k in range(i + 1)), key
        assert not any(figs[k] in shown for k in range(i + 1, len(figs)) if figs[k] not in figs[: i + 1]), key
    # the row of wavelengths is named by its definition, λᵢ = 2π/θᵢ, on the row itself
    # (rounded under the columns: "≈" after the definition, review round 9)
    assert wm.lam_name.typst_code.strip("$ ") == "lambda_i = 2 pi \\/ theta_i approx"
    assert all(abs(float(t.typst_code.strip("$ ")) - w) > 1e-9 for t, w in zip(wm.lams, scene.data.wavelengths)
               if t.typst_code.strip("$ ").replace(".", "").isdigit())
    assert abs(wm.lam_name.get_y() - wm.lams[0].get_y()) < wm.lams[0].height


def test_one_formula_line_and_one_subject_a_beat(run):
    """Issue 33: clip 08 was a dashboard (waves, matrix and a column of four formulas and the wavelength
    list, all at full strength).  Now the formula is ONE line (its parts on one baseline, over the whole
    frame), no other formula is on screen while the matrix fills, every beat names its subject, and no
    beat has more than three groups at full strength (the audit's staging checks: on the old main every
    beat lacked a subject and the notes column was a fourth group)."""
    from scenes.audit.truth import staging_problems

    scene = run.scene
    line = scene.line
    ys = [p.get_y() for p in line]
    assert max(ys) - min(ys) < 0.5 * max(p.height for p in line)  # one line
    assert line.width > 0.8 * scene.layout.content.width
    assert not staging_problems(run.records)
    for rec in run.records[2:-2]:  # the pair beats: the formula line is the only formula besides the labels
        maths = [it.text for it in rec.items if it.kind == "text" and it.is_math and it.opacity > 0.9
                 and "=" in it.text and "lambda" not in it.text]
        assert len(maths) <= 3, (rec.key, maths)  # the line's three parts
    assert all(rec.subject for rec in run.records[1:])


def test_the_proof_shows_the_fastest_pair_with_its_samples(run):
    scene, frame = run.scene, run.frames["check"]
    d, wm = scene.data, scene.wm
    scale = pe_scale(scene.cfg)
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
    # and the verdict where the formula was: a check mark in the colour of a check that passed
    mark = scene.proof.check
    assert mark._role == "verified" and on_screen(scene, mark)
    assert rgb255(mark.get_stroke_color() if mark.get_stroke_width() else mark.get_fill_color()).tolist() == \
        rgb255(VERIFIED).tolist()


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
    fig = scene.proof.figure
    assert fig.text == numbers.measure(d.sample_defect).text and fig.approx  # ≈ 1.1 × 10⁻¹⁶, typeset
    assert "times 10^" in scene.proof.value.typst_code
    printed = [lab.typst_code.strip("$ ") for lab in scene.wm.lams]
    assert printed == [f.math for f in wavelength_figures(d.wavelengths)]
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
    assert "PE" in {q for q, _ in close.shown}


def test_the_still_uses_the_clips_scale(run, corners):
    """Issue 20: the still and the clip draw PE on one scale (bounds and colormap), in every config."""
    for res in [run, *corners.values()]:
        scene = res.scene
        still = designed_stills("SinusoidalPosition", scene.data, scene.cfg)[0]
        assert still.panels["M"].scale.same_as(scene.scale_)
        assert scene.wm.heat.color_scale.same_as(scene.scale_) and scene.pm.heat.color_scale.same_as(scene.scale_)
        np.testing.assert_array_equal(still.panels["M"].values, scene.data.PE)


def test_captions_carry_the_clips_figures(run):
    scene = run.scene
    caps = scene.captions
    assert len(caps) >= 9
    assert any(sample_check(scene.data)[0].text in c.text for c in caps)


def test_every_corner_keeps_true_captions(corners):
    for name, res in corners.items():
        d = res.scene.data
        # "all T rows cover less than a tenth of one cycle" of the last pair: measured in every corner
        assert (d.T - 1) / d.wavelengths[-1] < 0.1, name
        assert sample_check(d)[1], name  # the samples are the matrix, to rounding, in every config


def test_the_last_pair_covers_less_than_a_tenth_of_a_cycle_in_every_allowed_config():
    """The caption's claim for the last pair, over the config's whole range (base from 100, T_heatmap up
    to 16): the slowest allowed pair is the last one at the smallest base and the most rows."""
    for base in (100.0, 1e4, 1e9):
        for T in (8, 16):
            assert (T - 1) / sinusoidal_wavelengths(8, base)[-1] < 0.1, (base, T)


def test_a_base_between_two_integers_is_printed_as_rounded():
    f = base_figure(12345.678)
    assert f.approx and f.text == "≈ 12\u2009346" and f.math.startswith("approx")
    assert not base_figure(10000.0).approx and not base_figure(1e9).approx


def test_the_last_pairs_cycle_share_is_the_measured_one(run):
    """Review (issue 33): "all 12 rows cover less than a tenth of one cycle" was true but 57x too weak
    (11/6283 ≈ 0.0018). The caption now prints the share computed from the data: the true share is below
    the printed bound and above the next round bound down. The old caption (no "1/500") fails this."""
    d = run.scene.data
    f = (d.T - 1) / d.wavelengths[-1]
    share = cycle_share(d.T, d.wavelengths[-1])
    assert share == "under 1/500" and f < 1 / 500 and f > 1 / 1000
    cap = next(c.text for c in run.scene.captions if "slowest" in c.text)
    assert f"span {share} of one cycle" in cap, cap
    assert cycle_share(16, sinusoidal_wavelengths(8, 100.0)[-1]) == "under 1/10"


def test_the_last_pairs_waves_are_described_as_they_are_drawn(run):
    """Review (issue 33): the description said the last pair's waves "bend only slightly", but they are
    straight vertical lines: over all rows the sine moves less than a fortieth of the bar's span. The
    description says "straight" then; the old one (with "bend") fails this."""
    d = run.scene.data
    last = d.samples[:, -2:]
    assert np.ptp(last[:, 0]) < 0.05 and np.ptp(last[:, 1]) < 0.05
    assert "straight" in last_waves_shape(last)
    assert "straight" in str(run.scene.caption_values()["last_waves"])


def test_the_close_claims_nothing_it_does_not_measure():
    """Review (issue 33): the close called PE "a fingerprint for every position", which the clip never
    measures or shows. The old close fails this."""
    import pathlib, tomllib
    t = tomllib.loads(pathlib.Path("assets/narration/08_sinusoidal_position.toml").read_text())
    assert "fingerprint" not in t["sinusoidal_position"]["close"]
    assert "bend" not in t["sinusoidal_position"]["describe"]["pair_last"]


def test_the_positions_name_labels_their_axis_and_the_bar_has_its_own(run):
    """Review (issue 33): the italic m sat at the colour bar's left end and read as the bar's label. m now
    sits under the row indices (its axis), and the bar is named PE at its left end."""
    wm = run.scene.wm
    assert wm.m_name.get_top()[1] < wm.heat.get_bottom()[1]
    assert abs(wm.m_name.get_x() - wm.row_idx.get_x()) < wm.row_idx.width
    assert wm.bar_name.get_right()[0] <= wm.bar.frame.get_left()[0]
    assert abs(wm.bar_name.get_y() - wm.bar.frame.get_y()) < wm.bar.frame.height


def test_the_verdict_and_the_pair_name_set_their_words_in_the_sans(run):
    """Review (issue 33): the verdict read max |"wave" − "PE"| and the pairs' name "pair" i, words typeset in the
    serif math font.  Both are now worded lines: the words in the house sans, only the maths (PE, the formula's
    own name, and i) in Typst."""
    from manim import Text

    from scenes.kit.theme import SANS

    scene = run.scene
    v = scene.proof
    assert v._verdict and v.passed
    assert [w.text for w in v.line.words] == ["againstitswaves,largestgap"] and all(isinstance(w, Text) and w.font == SANS
                                                                         for w in v.line.words)
    assert [m.typst_code.strip("$ ") for m in v.line.maths][0] == '"PE"'
    assert v.value is v.line.maths[-1] and v.value.typst_code.strip("$ ").startswith("approx")
    name = scene.wm.pair_name
    assert [w.text for w in name.words] == ["pair"] and all(w.font == SANS for w in name.words)
    assert [m.typst_code.strip("$ ") for m in name.maths] == [N.pair.math]


def test_the_close_keeps_which_column_is_the_sine_and_which_the_cosine(final):
    """Review R1 (08 close): the grown matrix dropped the pair headers, so nothing said which column of a pair
    is the sine and which the cosine.  Now a rule in the sine's colour lies over every even column and one in
    the cosine's over every odd column, as in the formula above.  On the old code the close had no rules."""
    scene, _ = final
    pm = scene.pm
    D = scene.data.PE.shape[1]
    assert len(pm.rules) == D // 2
    for i, (s, c) in enumerate(pm.rules):
        assert s.get_stroke_color().to_hex() == scene.WAVES[0][0].to_hex()
        assert c.get_stroke_color().to_hex() == scene.WAVES[1][0].to_hex()
        assert abs(s.get_x() - pm.heat.cell(0, 2 * i).get_x()) < 1e-6 and abs(c.get_x() - pm.heat.cell(0, 2 * i + 1).get_x()) < 1e-6
        assert s.get_y() > pm.heat.get_top()[1]


def test_the_close_keeps_the_matrix_colour_bar_and_every_pair_beat_is_described(final):
    """Review RB (08): the close left a value-coloured matrix without its scale, and pair1 and pair_mid, whose
    columns fill silently, had no description."""
    scene, _ = final
    on = {id(f) for m in scene.mobjects for f in m.get_family()}
    bar = scene.close_bar
    assert id(bar) in on and bar.get_left()[0] > scene.pm.heat.get_right()[0]
    assert abs(bar.get_y() - scene.pm.heat.get_y()) < 0.05 and bar.height < 1.15 * scene.pm.heat.height
    assert (scene.scale_.norm.vmin, scene.scale_.norm.vmax) == (-1.0, 1.0)
    from manim import VGroup

    assert scene.layout.content.contains(VGroup(scene.pm.heat, bar))
    described = {r.key: r.describe for r in scene.audit.records}
    for key in ("pair1", "pair_mid"):
        assert described.get(key), key


def test_the_check_shows_every_pair_against_its_samples(beats):
    """Review round 8: the check beat brought back only pair 0's waves and samples while its verdict measures the whole
    matrix.  Now every pair's samples come back on its waves, slowest to fastest: each pair has its own dots, the
    samples of its two columns, and the beat ends on the fastest pair (its wavelength lit, as in the pairs' beats)."""
    scene, _ = beats
    d = scene.data
    n = d.d // 2
    assert len(scene.check_dots) == n and scene.check_dots[0] is scene.final_dots
    assert len({id(g) for g in scene.check_dots}) == n
    for i, dots in enumerate(scene.check_dots):
        assert len(dots) == 2 * d.T, i  # a sine and a cosine sample per position
    # at the end of the check the fastest pair's wavelength is lit, the others in plain ink
    from scenes.kit import HIGHLIGHT

    rec = next(r for r in scene.audit.records if r.key == "check")
    want = np.array(HIGHLIGHT.to_rgb())

    def lit(i):
        ids = {id(f) for f in scene.wm.lams[i].get_family()}
        rgbs = [np.array(it.rgb) for it in rec.items if it.mid in ids and it.rgb is not None]
        assert rgbs, i
        return all(np.abs(c - want).max() < 0.02 for c in rgbs)

    assert lit(0) and not any(lit(i) for i in range(1, n))
