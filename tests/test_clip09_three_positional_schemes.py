"""Clip 09 ThreePositionalSchemes: data binding (act 1's matrices, act 2's score grids from
mathcore.scheme_compare), act 1 painted by one colour scale with its bar, act 2 compared like with
like (one token's score q_m · k_n under every scheme, on one scale, one map large at a time, its pixels
at every beat), the measured diagonal spreads and verdicts (green only for a check that passed), the
comparison chart against the pass line, the takeaway (RoPE's score, a function of m − n alone),
labels bound to what is shown, the still on the clip's scale, captions, and the layout and lecture
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
)
from mathcore import apply_rope, learned_absolute_position, lecture_inputs, load_config, my_sinusoidal_position
from mathcore.scheme_compare import scheme_scores
from scenes.figures import designed_stills
from scenes.figures.positions import PASS_LINE, input_scale, score_scale, spread_figures, verdict
from scenes.kit import BG, FG, VERIFIED, numbers
from scenes.audit.beats import audit_clip
from scenes.kit.layout import _texts_in
from scenes.clips.c09_three_positional_schemes import ThreePositionalSchemes

W, H = 427, 240


@pytest.fixture(scope="module")
def run():
    """One silent run: every beat's picture (small) and the audit of every beat."""
    res = shipped_audit(ThreePositionalSchemes)
    res.frames = dict(res.beat_frames)
    return res


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(ThreePositionalSchemes, tmp_path_factory)


def on_screen(scene, mob) -> bool:
    return any(mob is f for m in scene.mobjects for f in m.get_family())


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
    # act 2: the first token's score at every (m, n), under each scheme
    want = scheme_scores(inp.X[0], inp.Wq, inp.Wk, cfg.T_heatmap, cfg.rope_base, cfg.n_max, cfg.seed)
    for got, exp in zip(d.scores.grids, want.grids):
        np.testing.assert_array_equal(got, exp)
    assert d.scores.defects == want.defects and d.T_sim == cfg.T_heatmap
    # RoPE's score depends on m − n only; the added schemes' do not (though the encodings alone are relative)
    assert d.scores.relative() == (False, False, True)
    assert d.scores.defects[2] < 1e-12 and min(d.scores.defects[:2]) > 1e-3 and d.scores.gram_defect < 1e-12
    assert d.n_max == cfg.n_max


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("seed = 7", "seed = 11").replace("n_max = 1024", "n_max = 2048")
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = ThreePositionalSchemes.build_data(load_config(p))
    assert d.n_max == 2048
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 11).X)


def test_act_one_paints_every_matrix_by_one_scale_with_its_bar(run):
    scene = run.scene
    d = scene.data
    sc = scene.in_scale
    shown = [(scene.x_in, d.X)] + [(g[1][0], A) for g, A in zip(scene.schemes1, (d.P, d.E, d.Q))] \
        + [(g[1][2], A) for g, A in zip(scene.schemes1, (d.X_sin, d.X_learned, d.Q_rope))]
    m = max(float(np.max(np.abs(a))) for _, a in shown)
    top = numbers.nice_ceil(m)
    assert (sc.norm.vmin, sc.norm.vmax) == (-top, top) and m <= top  # covers every entry, ends round
    assert sc.same_as(input_scale(d))
    bar = scene.in_bar
    assert bar.color_scale is sc
    assert [t.text for t in bar.tick_labels] == [numbers.tick(-top), "0", numbers.tick(top)]
    for h, A in shown:
        np.testing.assert_array_equal(h.values, A)
        for i in range(A.shape[0]):
            for j in range(A.shape[1]):
                assert rgb255(h.cell(i, j).get_fill_color()).tolist() == rgb255(sc.rgb(A[i, j])).tolist(), (i, j)


def test_act_two_repaints_one_large_map_per_scheme_on_one_scale(run):
    """Like with like: the same quantity (the score) for every scheme, on one scale, the map the
    largest thing on screen, its cells the right colours at the end of each scheme's beat."""
    scene = run.scene
    d = scene.data
    sc = scene.score_scale
    top = numbers.nice_ceil(max(float(np.max(np.abs(S))) for S in d.scores.grids))
    assert (sc.vmin, sc.vmax) == (-top, top) and sc.same_as(score_scale(d))
    assert [t.text for t in scene.map.bar.tick_labels] == [numbers.tick(-top), "0", numbers.tick(top)]
    content = scene.layout.content
    assert scene.map.heat.width * scene.map.heat.height >= 0.2 * content.width * content.height
    for key, S in (("sin_spread", d.scores.sinusoidal), ("learned_score", d.scores.learned),
                   ("rope_score", d.scores.rope)):
        frame = run.frames[key]
        rec = next(r for r in run.records if r.key == key)
        path = next(q for q, _ in rec.shown if q.startswith("scores."))
        assert path == {"sin_spread": "scores.sinusoidal", "learned_score": "scores.learned",
                        "rope_score": "scores.rope"}[key]
        for m in range(0, d.T_sim, 2):
            for n in range(1, d.T_sim, 3):
                got = pixel(scene, frame, scene.map.heat.cell_center(m, n))
                assert np.abs(got - rgb255(sc.rgb(S[m, n]))).max() <= 6, (key, m, n, got)


def test_the_picked_diagonal_is_constant_for_rope_and_not_for_the_added_schemes(run):
    scene = run.scene
    d = scene.data
    k = scene.DIAG
    for key, S, const in (("sin_spread", d.scores.sinusoidal, False), ("rope_score", d.scores.rope, True)):
        vals = np.array([S[m, m - k] for m in range(k, d.T_sim)])
        frame = run.frames[key]
        colours = [pixel(scene, frame, scene.map.heat.cell_center(m, m - k)) for m in range(k, d.T_sim)]
        spread = max(np.abs(c - colours[0]).max() for c in colours)
        if const:
            assert np.ptp(vals) <= d.scores.defects[2] and spread <= 4
        else:
            assert np.ptp(vals) > 0.1 and spread > 10
    # the outline marks exactly those cells
    for box, m in zip(scene.diag, range(k, d.T_sim)):
        np.testing.assert_allclose(box.get_center(), scene.map.heat.cell_center(m, m - k), atol=1e-9)


def test_the_figures_on_screen_are_the_measured_ones_and_green_only_where_a_check_passed(run):
    scene = run.scene
    d = scene.data
    rel = d.scores.relative()
    frame = run.frames["rope_score"]
    for k, notes in enumerate(scene.notes2):
        fig = notes[1][1]
        assert fig.figure.text == spread_figures(d)[k].text
        ink = rgb255(VERIFIED if rel[k] else FG)
        assert rgb255(fig.get_color()).tolist() == ink.tolist(), k
        words = notes[1][2].text
        assert words.replace("$", "").replace("  ", " ").startswith("depends on")
        assert ("only" in words) == rel[k]
    assert np.abs(dominant_ink(scene, frame, scene.notes2[2][1][1], BG) - rgb255(VERIFIED)).max() <= 40
    assert [verdict(r) for r in rel] == ["m and n", "m and n", "m − n only"]
    # no check or cross glyph that could read as a multiplication sign beside a figure
    texts = [getattr(t, "original_text", "") or getattr(t, "text", "") for m in scene.mobjects for t in _texts_in(m)]
    assert not any(ch in t for t in texts for ch in "\u2717\u2713")


def test_the_comparison_puts_each_spread_against_the_pass_line(run):
    scene = run.scene
    d = scene.data
    chart = scene.chart
    plot, marks = chart[0], chart[1]
    for k, (mark, v) in enumerate(zip(marks, d.scores.defects)):
        if v > 0:  # a bar from the floor up to the measured spread
            np.testing.assert_allclose(mark.get_top()[1], plot.to_point(k, v)[1], atol=1e-6)
            np.testing.assert_allclose(mark.get_x(), plot.to_point(k, v)[0], atol=1e-6)
        want = VERIFIED if d.scores.relative()[k] else None
        if want is not None:
            assert rgb255(mark.get_fill_color()).tolist() == rgb255(want).tolist()
        else:
            assert rgb255(mark.get_fill_color()).tolist() != rgb255(VERIFIED).tolist()
    line = chart[3]
    np.testing.assert_allclose(line.get_y(), plot.to_point(0, PASS_LINE)[1], atol=1e-6)
    assert [t.figure.text for t in chart.tops] == [f.text for f in spread_figures(d)]
    # only RoPE's bar lies under the line
    assert [m.get_top()[1] < line.get_y() for m in marks] == [False, False, True]


def test_the_takeaway_is_ropes_score_large_with_its_identity_and_check(run):
    scene, frame = run.scene, run.frames["close"]
    d = scene.data
    take = scene.takeaway()
    m, diag, name, text = take
    assert all(on_screen(scene, f) for x in take for f in x.family_members_with_points())
    np.testing.assert_array_equal(m.heat.values, d.scores.rope)
    assert m.heat._shows == "scores.rope" and m.title._names == "scores.rope"
    assert m.heat.width > scene.map.heat.width  # larger than in act 2, the tabs gone
    assert not on_screen(scene, scene.tabs) and not on_screen(scene, scene.chart)
    sc = scene.score_scale
    for i in range(0, d.T_sim, 3):
        for j in range(d.T_sim):
            got = pixel(scene, frame, m.heat.cell_center(i, j))
            assert np.abs(got - rgb255(sc.rgb(d.scores.rope[i, j]))).max() <= 6, (i, j)
    eq, check, dep = text
    assert "R_m W_q x" in eq[0].typst_code and "R_(n - m)" in eq[1].typst_code
    assert abs(eq[1][0].get_left()[0] - eq[0][scene.EQ_AT].get_left()[0]) < 1e-6  # "=" under "="
    assert check[1].figure.text == spread_figures(d)[2].text
    assert rgb255(check[1].get_color()).tolist() == rgb255(VERIFIED).tolist()
    assert "only" in dep.text


def test_every_beat_changes_the_picture_and_labels_name_what_is_shown(run):
    assert not [p for p in run.lecture if p.kind in ("static", "binding", "notation")], run.lecture
    shown = {r.key: {q for q, _ in r.shown} for r in run.records}
    assert {"X", "P", "X_sin"} <= shown["sinusoidal"] and {"E", "X_learned"} <= shown["learned"]
    assert {"Q", "Q_rope"} <= shown["rope"] and "scores.sinusoidal" in shown["score"]
    assert "scores.rope" in shown["close"]


def test_the_still_uses_the_clips_scales(run, corners):
    """Issue 20: the still draws the three score grids on the clip's one score scale, in every config."""
    for res in [run, *corners.values()]:
        scene = res.scene
        still = designed_stills("ThreePositionalSchemes", scene.data, scene.cfg)[0]
        for key, S in zip("ABC", scene.data.scores.grids):
            assert still.panels[key].scale.same_as(scene.score_scale)
            assert scene.map.heat.color_scale.same_as(scene.score_scale)
            np.testing.assert_array_equal(still.panels[key].values, S)


def test_captions_one_per_beat_and_long_enough_to_read(run):
    scene = run.scene
    caps = scene.captions
    assert len(caps) >= 10
    assert_captions_readable(caps)
    assert any(spread_figures(scene.data)[2].text in c.text for c in caps)
    assert any(numbers.count(scene.data.n_max).text in c.text for c in caps)


def test_every_corner_keeps_lecture_pacing_and_true_verdicts(corners):
    for name, res in corners.items():
        scene = res.scene
        # the measured claim the narration makes holds: only RoPE's score depends on m − n alone
        assert scene.relative() == (False, False, True), name
        assert [c.key for c in scene.captions][-2:] == ["compare", "close"], name


def test_a_table_shorter_than_the_maps_limits_the_comparison_to_its_rows(tmp_path):
    """n_max may be below T_heatmap (8 rows, 16 positions): the learned table has no row past n_max, so
    all three schemes are compared over the positions it has, and the clip holds its layout."""
    from scenes.render.matrix import write_config

    cfg = load_config(write_config({"positions.n_max": 10, "sizes.T_heatmap": 14, "positions.rope_base": 12345.678,
                                    "positions.train_length": 9}, tmp_path / "c.toml"))
    d = ThreePositionalSchemes.build_data(cfg)
    assert d.T_sim == 10 and all(S.shape == (10, 10) for S in d.scores.grids)
    res = audit_clip(ThreePositionalSchemes, cfg)
    assert not res.problems and not res.contrast, [str(p) for p in [*res.problems, *res.contrast][:10]]
    assert res.scene.relative() == (False, False, True)
