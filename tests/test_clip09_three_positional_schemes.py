"""Clip 09 ThreePositionalSchemes: data binding (act 1's matrices, act 2's score grids from
mathcore.scheme_compare), act 1 on the deck's inputs scale with its bar, the input shown once under each
scheme (no empty frame), act 2 compared like with like (one token's score q_m · k_n under every scheme,
on the deck's "scheme scores" scale, one map large at a time, its pixels at every beat), each scheme's
widest diagonal outlined with its cells' distances from the first drawn as bars on an axis zoomed to the
scheme's own values (so the learned table's spread is visible, where the map's shared scale hides it),
the verdicts (✓ only where the check passed), the comparison chart against the pass line, the takeaway
(RoPE's score, a function of m − n alone, its identity as clip 11 writes it, and its verdict), the
learned table named as what it is (an initialisation, never trained), the still on the clip's scale,
captions, and the layout and truth audit over the config matrix (the clip is STAGED)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from frames import (
    pixel,
    rgb255,
    shipped_audit,
)
from mathcore import apply_rope, learned_absolute_position, lecture_inputs, load_config, my_sinusoidal_position
from mathcore.measure import toeplitz_defect
from mathcore.positions import LEARNED_STD
from mathcore.scheme_compare import scheme_scores
from scenes.audit.beats import audit_clip
from scenes.clips.c09_three_positional_schemes import ThreePositionalSchemes
from scenes.figures import designed_stills
from scenes.figures.positions import (
    PASS_LINE,
    diagonal_distances,
    input_scale,
    spread_axis,
    score_scale,
    spread_figures,
    verdict,
    widest_diagonal,
)
from scenes.kit import numbers
from scenes.kit.layout import _texts_in
from scenes.kit.scales import scale as deck_scale

SCENE = ThreePositionalSchemes


NARRATION = "assets/narration/09_three_positional_schemes.toml"


@pytest.fixture(scope="module")
def run():
    """One silent run: every beat's picture (small) and the audit of every beat."""
    res = shipped_audit(ThreePositionalSchemes)
    res.frames = dict(res.beat_frames)
    return res


def on_screen(scene, mob) -> bool:
    return any(mob is f for m in scene.mobjects for f in m.get_family())


def record(run, key):
    return next(r for r in run.records if r.key == key)


def texts(mob) -> list[str]:
    return [getattr(t, "typst_code", None) or getattr(t, "original_text", "") or getattr(t, "text", "")
            for t in _texts_in(mob)]


# ------------------------------------------------------------------ data
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
    # RoPE's score depends on m − n only; the added schemes' do not
    assert d.scores.relative() == (False, False, True)
    assert d.scores.defects[2] < 1e-12 and min(d.scores.defects[:2]) > 1e-3
    # each scheme's outlined diagonal is where its spread is largest: its cells' largest distance from the
    # first IS the scheme's toeplitz_defect (one number per scheme, on the bars, the verdict and the chart)
    for k, S in enumerate(d.scores.grids):
        dist = d.distances[k]
        diag = np.diagonal(S, offset=-d.diags[k])
        np.testing.assert_array_equal(dist, np.abs(diag - diag[0]))
        if not d.scores.relative()[k]:
            assert dist.max() == toeplitz_defect(S), k
    assert d.diags[2] == 1  # a relative score has no widest diagonal: the longest off the main one


def test_widest_diagonal_finds_a_perturbed_diagonal_and_none_in_rounding():
    """The rule that picks the outlined diagonal, on grids made for it: a Toeplitz grid with one cell
    moved has its widest diagonal through that cell; a Toeplitz grid (rounding only) gets m − n = 1."""
    T = 7
    toeplitz = np.fromfunction(lambda m, n: np.cos(0.7 * (m - n)), (T, T))
    assert toeplitz_defect(toeplitz) < PASS_LINE and widest_diagonal(toeplitz) == 1
    bumped = toeplitz.copy()
    bumped[5, 2] += 0.3  # on m − n = 3
    assert widest_diagonal(bumped) == 3
    np.testing.assert_allclose(diagonal_distances(bumped, 3).max(), 0.3)
    bumped[1, 4] += 0.5  # on m − n = −3, wider
    assert widest_diagonal(bumped) == -3
    np.testing.assert_allclose(diagonal_distances(bumped, -3), [0, 0.5, 0, 0], atol=1e-12)


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("seed = 7", "seed = 11").replace("n_max = 1024", "n_max = 2048")
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = ThreePositionalSchemes.build_data(load_config(p))
    assert d.n_max == 2048
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 11).X)


# ------------------------------------------------------------------ act 1
def test_act_one_paints_every_matrix_by_the_decks_inputs_scale_with_its_bar(run):
    scene = run.scene
    d = scene.data
    sc = scene.in_scale
    assert sc.same_as(deck_scale("inputs", scene.cfg)) and sc.same_as(input_scale(scene.cfg))
    shown = [(scene.x_in, d.X)] + [(g[1][0], A) for g, A in zip(scene.schemes1, (d.P, d.E, d.Q))] \
        + [(g[1][2], A) for g, A in zip(scene.schemes1, (d.X_sin, d.X_learned, d.Q_rope))] \
        + [(c[0], d.X) for c in scene.copies]
    m = max(float(np.max(np.abs(a))) for _, a in shown)
    assert sc.norm.vmin <= -m and m <= sc.norm.vmax  # covers every entry: no clipped colour
    for bar in (scene.in_bar, scene.bar0):
        assert bar.color_scale is sc
    for h, A in shown:
        np.testing.assert_array_equal(h.values, A)
        for i in range(A.shape[0]):
            for j in range(A.shape[1]):
                assert rgb255(h.cell(i, j).get_fill_color()).tolist() == rgb255(sc.rgb(A[i, j])).tolist(), (i, j)


def test_the_input_beat_fills_the_frame_with_the_input_once_per_scheme(run):
    """Issue 33: the input beat was an empty frame (one small grid, 81 % empty).  Now the input stands
    once under each scheme's name, each copy the input's own values, as large as a column allows."""
    scene, frame = run.scene, run.frames["input"]
    d = scene.data
    content = scene.layout.content
    assert len(scene.copies) == 3
    heads = [c[3].text.replace(" ", "") for c in scene.copies]
    assert heads == ["Sinusoidal", "Learnedabsolute", "RoPE"]
    area = sum(c[0].width * c[0].height for c in scene.copies)
    assert area >= 0.3 * content.width * content.height
    from scenes.audit.records import coverage
    from scenes.audit.truth import HALF_EMPTY

    rec = record(run, "input")  # in the shipped config it passes the empty-frame check on its own (the excuse is
    assert rec.subject is not None and coverage(rec, rec.header_bottom - 0.15) >= HALF_EMPTY  # for short, wide inputs)
    for c in scene.copies:
        for i in range(d.X.shape[0]):
            for j in range(d.X.shape[1]):
                got = pixel(scene, frame, c[0].cell_center(i, j))
                assert np.abs(got - rgb255(scene.in_scale.rgb(d.X[i, j]))).max() <= 6, (i, j)


def test_the_learned_table_is_named_an_initialisation_never_trained(run):
    """Issue 33: the clip said "trained table" in one beat and "a fresh table" in another, over values
    drawn from N(0, 0.02²): the table is GPT-2's initialisation, never trained (as clip 14 says).  Every
    sentence and label names it so, and the σ printed is the table's own (mathcore's LEARNED_STD)."""
    import tomllib
    from pathlib import Path

    narr = tomllib.loads(Path(NARRATION).read_text())
    lines = [*narr["three_positional_schemes"].values(), *narr["three_positional_schemes"]["describe"].values()]
    lines = [t for t in lines if isinstance(t, str)]
    for t in lines:
        assert not re.search(r"(?<!never )trained table|fresh table|learned table", t), t
    cap = run.scene.caption("learned")
    assert "initialised" in cap and "never trained" in cap and f"N(0, {LEARNED_STD:g}²)" in cap
    desc = run.scene.descs[1].text
    assert f"~ N(0, {LEARNED_STD:g}²)" in desc and "trained" not in desc
    assert LEARNED_STD == 0.02
    seen = " ".join(it.text for it in record(run, "learned").items if it.kind == "text" and it.text)
    assert "(untrained)" in seen.replace(" ", "") and "1024-rowtable" in seen.replace(" ", "")


def test_q_m_is_the_query_at_position_m_as_clip_11_writes_it(run):
    """Issue 33: clip 11 writes qₘ for the query at position m (qₘ · kₙ = (Rₘq)ᵀ(Rₙk)); clip 09 wrote
    ``q_m = W_q x_m`` for the un-turned query.  Now the turned query is qₘ and the un-turned one W_q x_m."""
    scene = run.scene
    def code(t):
        return t.replace(" ", "").strip("$")

    middle, result = scene.schemes1[2][1][1], scene.schemes1[2][1][3]
    assert code(middle.typst_code) == "W_qx_m"
    assert code(result.typst_code) == "q_m=R_mW_qx_m"
    a, b = scene.identity()
    assert code(a.typst_code) == "q_mdotk_n=(R_mq)^top(R_nk)" and code(b.typst_code) == "=q^topR_(m-n)^topk"
    every = [code(t) for m in scene.mobjects for t in texts(m)]
    every += [code(t) for g in scene.schemes1 for t in texts(g)]
    assert not any(t.startswith("q_m=W_qx_m") for t in every)


# ------------------------------------------------------------------ act 2
def test_act_two_repaints_one_large_map_per_scheme_on_the_decks_scheme_scores_scale(run):
    scene = run.scene
    d = scene.data
    sc = scene.score_scale
    assert sc.same_as(deck_scale("scheme scores", scene.cfg, values=list(d.scores.grids)))
    assert sc.same_as(score_scale(d, scene.cfg))
    top = max(float(np.max(np.abs(S))) for S in d.scores.grids)
    assert sc.vmin <= -top and top <= sc.vmax
    content = scene.layout.content
    for mp, S, path in zip(scene.maps, d.scores.grids, scene.PATHS):  # one large map per scheme, bound to its grid
        assert mp.heat.width * mp.heat.height >= 0.25 * content.width * content.height
        np.testing.assert_array_equal(mp.heat.values, S)
        assert mp.heat._shows == path and mp.title._names == path
    frame = run.frames["score"]  # the sinusoidal map, at the end of the beat that shows it whole
    assert "scores.sinusoidal" in {q for q, _ in record(run, "score").shown}
    for m in range(0, d.T_sim, 2):
        for n in range(1, d.T_sim, 3):
            got = pixel(scene, frame, scene.map.heat.cell_center(m, n))
            assert np.abs(got - rgb255(sc.rgb(d.scores.sinusoidal[m, n]))).max() <= 6, (m, n, got)


def test_review_round8_each_scheme_one_subject_at_a_time_the_map_yields_to_a_large_plot(run, corners):
    """Review round 8 (09): beats 06–08 were a map and a ~290 px log plot side by side (a dashboard).  Now each
    beat ends on one subject: the outlined diagonal's distances on a plot most of the frame wide, its map gone,
    the diagonal's name carried over into the plot's title; the dots keep one colour (the outline's highlight)
    from beat 06 to the comparison of beat 09."""
    from scenes.kit.theme import HIGHLIGHT

    for res in [run, *corners.values()]:
        scene = res.scene
        content = scene.layout.content
        for k, key in enumerate(("sin_spread", "learned_score", "rope_score")):
            rec = record(res, key)
            notes = scene.notes2[k]
            assert not any(q.startswith("scores.") for q, _ in rec.shown), (key, rec.shown)
            assert notes.plot.width >= 0.6 * content.width and notes.plot.height >= 0.35 * content.height
            assert notes.diag.typst_code.replace(" ", "").strip("$").endswith(f"={numbers.tick(scene.data.diags[k])}")
        inks = set()
        for notes in scene.notes2:
            for dt in notes.bars:
                ink = dt[0].get_stroke_color() if dt.value == 0.0 else dt.get_fill_color()
                inks.add(tuple(rgb255(ink).tolist()))
        for mk in scene.chart[1]:
            inks.add(tuple(rgb255(mk[0].get_stroke_color() if hasattr(mk, "value") and mk.value == 0.0 else
                                  mk.get_fill_color()).tolist()))
        assert inks == {tuple(rgb255(HIGHLIGHT).tolist())}, inks


def dots_show(notes, values) -> bool:
    """Each outlined cell after the first has its dot at its distance on the notes' log axis (an exact zero a
    hollow diamond on the floor)."""
    plot = notes.plot
    for dot, v in zip(notes.bars, values[1:]):
        if v > 0:
            if abs(dot.get_center()[1] - plot.to_point(0, v)[1]) > 1e-6:
                return False
        elif abs(dot[0].get_bottom()[1] - plot.to_point(0, plot.y_range[0])[1]) > 0.05:
            return False
    return len(notes.bars) == len(values) - 1


def one_scale(*plots) -> bool:
    """The plots read one quantity on one axis: the same log range, so a height means one value in all."""
    return all(p.y_log for p in plots) and len({tuple(p.y_range) for p in plots}) == 1


def test_every_spread_stands_on_one_log_axis_with_the_pass_line(run):
    """Issue 33 / review round 2: the outlined cells' distances stood on three axes of their own (0–12, 0–0.6,
    0–0.08, the last one empty), so the same quantity read on three scales; the learned table's spread was
    "zoomed" into view.  Now the three schemes' distances and the comparison's spreads stand on one log axis
    (spread_axis) with the pass line across: sinusoidal's and the learned table's dots far over it, RoPE's
    under it, so "on the same axis, a diagonal still moves by 0.42" is what the picture shows."""
    scene = run.scene
    d = scene.data
    plots = [n.plot for n in scene.notes2] + [scene.chart[0]]
    assert one_scale(*plots)
    lo, hi = spread_axis(d)
    assert plots[0].y_range == (10.0 ** lo, 10.0 ** hi)
    vals = np.concatenate([*d.distances, d.scores.defects])
    assert 10.0 ** lo < min(vals[vals > 0].min(), PASS_LINE) and vals.max() < 10.0 ** hi  # every value on the axis
    for k, notes in enumerate(scene.notes2):
        assert dots_show(notes, d.distances[k]), k
        np.testing.assert_allclose(notes.line.get_y(), notes.plot.to_point(0, PASS_LINE)[1], atol=1e-6)
        over = [dot.get_y() > notes.line.get_y() for dot, v in zip(notes.bars, d.distances[k][1:]) if v > 0]
        rel = scene.relative()[k]
        assert (not any(over)) if rel else (max(d.distances[k]) >= PASS_LINE), k
    # the learned spread, the largest of its dots, sits well over the pass line: a third of the axis or more
    notes = scene.notes2[1]
    top = max(notes.bars, key=lambda b: b.get_y())
    assert top.get_y() - notes.line.get_y() >= notes.plot.height_units / 3
    rec = record(run, "learned_score")
    seen = {c.name: c.visible for c in rec.claims if c.bound}
    assert seen["bars_learned"] and seen["axis_learned"] and seen["pass_learned"] and seen["verdict_learned"]
    c = next(c for c in rec.claims if c.name == "spread_learned")
    assert c.bound and c.visible and c.text == spread_figures(d)[1].text
    assert notes.tallest.figure.text == spread_figures(d)[1].text
    described = {c.key: c.describe for c in scene.captions if c.describe}
    assert "the same log axis" in described["learned_score"] and "zoomed" not in scene.caption("learned_score")


def test_the_one_scale_check_fails_on_a_case_made_for_it(run):
    """The check above, on the old staging: each scheme's distances on a linear axis zoomed to its own values
    (0 to 12, 0 to 0.6): one quantity on two scales, and the check says so."""
    from scenes.kit import Plot

    scene = run.scene
    own = [Plot((0, 5), (0.0, top), width=5, height=2) for top in (12.0, 0.6)]
    assert not one_scale(*own)
    logs = [Plot((0, 5), (1e-16, top), width=5, height=2, y_log=True) for top in (1e3, 1e1)]
    assert not one_scale(*logs)
    assert one_scale(*[n.plot for n in scene.notes2])


def test_each_scheme_outlines_its_widest_diagonal_and_its_bars_are_its_distances(run):
    scene = run.scene
    d = scene.data
    for k, key in enumerate(("sin_spread", "learned_score", "rope_score")):
        heat = scene.maps[k].heat  # outlined before it yields to the plot (review round 8)
        boxes = scene.outlines[k]
        rows = [m for m in range(d.T_sim) if 0 <= m - d.diags[k] < d.T_sim]
        assert len(boxes) == len(rows)
        for box, m in zip(boxes, rows):
            np.testing.assert_allclose(box.get_center(), heat.cell_center(m, m - d.diags[k]), atol=1e-9)
        assert scene.diag_names[k].typst_code.strip("$ ").endswith(f"= {numbers.tick(d.diags[k])}")
        notes = scene.notes2[k]
        assert dots_show(notes, d.distances[k])
        for dot, m in zip(notes.bars, rows[1:]):  # one dot over each outlined cell after the first, by its m
            np.testing.assert_allclose(dot.get_x(), notes.plot.to_point(m, 1.0)[0], atol=1e-6)
        # RoPE's outlined cells are painted one colour; the added schemes' differ
        cols = [rgb255(heat.cell(m, m - d.diags[k]).get_fill_color()).astype(int) for m in rows]
        spread = max(np.abs(c - cols[0]).max() for c in cols)
        if k == 2:
            assert spread <= 4 and float(d.distances[2].max()) < PASS_LINE
        elif k == 0:
            assert spread > 10


def test_verdicts_on_screen_are_the_measured_ones_marked_only_where_the_check_passed(run):
    scene = run.scene
    d = scene.data
    rel = d.scores.relative()
    for k, notes in enumerate(scene.notes2):
        assert notes.check.figure.text == spread_figures(d)[k].text
        assert notes.check.passed == rel[k] == (d.scores.defects[k] < PASS_LINE)
        assert ("only" in notes.dep.text) == rel[k]
    assert [verdict(r) for r in rel] == ["as m and n", "as m and n", "only as m − n"]


def test_the_comparison_puts_each_spread_against_the_pass_line_with_its_verdict(run):
    scene = run.scene
    d = scene.data
    chart = scene.chart
    plot, marks = chart[0], chart[1]
    for k, (mark, v) in enumerate(zip(marks, d.scores.defects)):
        if v > 0:  # review R1: a dot at the measured spread (a bar's length on a log axis is the floor's artefact)
            from manim import Dot

            assert isinstance(mark, Dot)
            np.testing.assert_allclose(mark.get_center()[:2], plot.to_point(k, v)[:2], atol=1e-6)
    line = chart[3]
    np.testing.assert_allclose(line.get_y(), plot.to_point(0, PASS_LINE)[1], atol=1e-6)
    assert [t.figure.text for t in chart.tops] == [f.text for f in spread_figures(d)]
    assert [t.passed for t in chart.tops] == list(d.scores.relative())
    assert [m.get_y() < line.get_y() for m in marks] == [False, False, True]


def test_the_takeaway_is_ropes_score_large_with_its_identity_and_verdict(run):
    scene, frame = run.scene, run.frames["close"]
    d = scene.data
    take = scene.takeaway()
    m, diag, name, text = take
    assert all(on_screen(scene, f) for x in take for f in x.family_members_with_points())
    np.testing.assert_array_equal(m.heat.values, d.scores.rope)
    assert m.heat._shows == "scores.rope" and m.title._names == "scores.rope"
    assert m.heat.width >= scene.map.heat.width - 1e-9
    assert not on_screen(scene, scene.chart)
    sc = scene.score_scale
    for i in range(0, d.T_sim, 3):
        for j in range(d.T_sim):
            got = pixel(scene, frame, m.heat.cell_center(i, j))
            assert np.abs(got - rgb255(sc.rgb(d.scores.rope[i, j]))).max() <= 6, (i, j)
    eq, check, dep = text
    assert "(R_m q)^top (R_n k)" in eq[0].typst_code and "R_(m - n)^top" in eq[1].typst_code
    assert abs(eq[1][0].get_left()[0] - eq[0][scene.EQ_AT].get_left()[0]) < 1e-6  # "=" under "="
    assert check._verdict and check.passed and check.figure.text == spread_figures(d)[2].text
    assert "only" in dep.text
    rec = record(run, "close")
    assert rec.subject is not None and not rec.why


def test_every_beat_names_its_subject_and_its_descriptions_name_elements_by_claims(run):
    describe = [r for r in run.records if r.key != "title"]
    assert all(r.subject is not None for r in describe)
    for r in describe:
        if r.describe:
            assert any(c.bound and c.where == "describe" for c in r.claims), r.key
        assert all(c.visible for c in r.claims if c.bound), (r.key, [c.name for c in r.claims if c.bound and not c.visible])
    # the only excuses: act 1's matrices, whose shape sets how much they fill, and the chart's log axis
    assert {r.key for r in describe if r.why} == {"input", "sinusoidal", "learned", "rope", "sin_spread",
                                                  "learned_score", "rope_score", "compare"}


def test_every_beat_changes_the_picture_and_labels_name_what_is_shown(run):
    assert not [p for p in run.lecture if p.kind in ("static", "binding", "notation")], run.lecture
    shown = {r.key: {q for q, _ in r.shown} for r in run.records}
    assert "X" in shown["input"]
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


def test_captions_carry_the_clips_figures(run):
    scene = run.scene
    caps = scene.captions
    assert len(caps) >= 10
    assert any(spread_figures(scene.data)[2].text in c.text for c in caps)
    assert any(numbers.count(scene.data.n_max).text in c.text for c in caps)


def test_every_corner_keeps_lecture_pacing_true_verdicts_and_no_problem(corners):
    for name, res in corners.items():
        scene = res.scene
        assert scene.relative() == (False, False, True), name
        assert [c.key for c in scene.captions][-2:] == ["compare", "close"], name
        assert not res.problems, (name, [str(p) for p in res.problems[:5]])


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


def test_the_still_shows_each_schemes_widest_diagonal_and_its_distances_as_the_clip_does(run, corners):
    """Issue 33: the still had the clip's flaw (the learned grid one flat colour, its spread only in words).
    Now it outlines each scheme's widest diagonal on its grid and draws the cells' distances from the first
    under it, on the clip's axis: the same bars as the clip, the learned spread a visible share of its axis."""
    for res in [run, *corners.values()]:
        scene = res.scene
        d = scene.data
        still = designed_stills("ThreePositionalSchemes", d, scene.cfg)[0]
        for k, (grid_key, bars_key) in enumerate(zip("ABC", "GHI")):
            rows = [m for m in range(d.T_sim) if 0 <= m - d.diags[k] < d.T_sim]
            boxes = still.panels[grid_key].boxes
            assert [(b.rows, b.cols) for b in boxes] == [((m, m), (m - d.diags[k],) * 2) for m in rows]
            panel = still.panels[bars_key]
            dist = d.distances[k][1:]
            np.testing.assert_array_equal(panel.series[0].y[dist > 0], dist[dist > 0])
            np.testing.assert_array_equal(panel.series[0].x, rows[1:])
            assert panel.y_log and panel.ylim == scene.notes2[k].plot.y_range  # the clip's one log axis
            assert [r.value for r in panel.hlines] == [PASS_LINE]
            assert panel.title.strip("$") == f"m - n = {d.diags[k]}"
        learned = still.panels["H"]
        assert np.nanmax(learned.series[0].y) > 1e6 * PASS_LINE


def test_the_spread_verdicts_set_their_word_in_the_sans(run):
    """Review (issue 33): each scheme's verdict read max "spread" = 0.42, the word typeset in the serif math
    font.  It is now the deck's worded verdict: "spread" in the house sans, max and the figure in Typst."""
    from manim import Text

    from scenes.kit.theme import SANS

    scene = run.scene
    d = scene.data
    for k, notes in enumerate(scene.notes2):
        v = notes.check
        assert v._verdict and v.passed is scene.relative()[k]
        # never "spread:" (review round 3); under one diagonal's plot, every diagonal's (round 9)
        assert [w.text for w in v.line.words] == ["spread,alldiagonals"]
        assert all(isinstance(w, Text) and w.font == SANS for w in v.line.words)
        assert not any('"' in m.typst_code for m in v.line.maths)
        assert v.line.maths[0].typst_code.strip("$ ") == "max"
        assert v.figure.text == spread_figures(d)[k].text and v.value is v.line.maths[-1]


def test_review_r1_words_and_picture_agree(final):
    """Review R1 (09): the map of one token at every position was not said to be so nor named by scheme; "its
    widest diagonal" (the main diagonal is wider); the description's "turn yellow" (they are outlined); RoPE
    "turns the query and key" with only the query shown; the untrained table named untrained only in speech."""
    scene, _ = final
    said = {c.key: c.text for c in scene.captions}
    described = {c.key: c.describe for c in scene.captions if c.describe}
    what = scene.overview_what.text.replace("$", "").replace(" ", "")
    assert f"onetokenxatall{scene.data.T_sim}positions" in what  # the count of positions said
    # the map's scheme named by focus: sinusoidal's query at full strength, the two to come dimmed (no "map:" line)
    from scenes.kit.theme import DIM, FG

    heads = [r[0] for r in scene.overview_rows]
    assert [h.text.replace(" ", "") for h in heads] == ["Sinusoidal", "Learnedabsolute", "RoPE"]
    assert [rgb255(h.get_fill_color()).tolist() for h in heads] == [rgb255(c).tolist() for c in (FG, DIM, DIM)]
    assert not any("map:" in t for t in texts(scene.overview))
    assert "widest" not in said["sin_spread"] and "spreads most" in said["sin_spread"]
    assert "turn yellow" not in described["sin_spread"] and "is outlined" in described["sin_spread"]
    assert scene.untrained_tag.text == "(untrained)" and scene.untrained_tag in scene.schemes1[1][1]
    assert "untrained" in " ".join(t.text for t in scene.notes2[1].head.get_family() if hasattr(t, "text"))
    # the outlined diagonal is the one where the scheme's score spreads most
    from scenes.figures.positions import diagonal_distances

    for S, k, rel in zip(scene.data.scores.grids, scene.data.diags, scene.relative()):
        T = S.shape[0]
        if not rel:  # a scheme that spreads: the outlined diagonal is where its cells move most from the first
            most = max(float(diagonal_distances(S, o).max()) for o in range(-(T - 1), T))
            assert float(diagonal_distances(S, k).max()) == pytest.approx(most, rel=1e-12)


def test_one_offset_m_minus_n_and_math_positions(run):
    """Review round 2: the close wrote the identity with R₍ₙ₋ₘ₎ while the diagonal's name and the verdict say
    m − n; and m, N(0, 0.02²) were set in the sans.  Now n − m is never on screen, in a caption or a
    description (R_mᵀR_n written R₍ₘ₋ₙ₎ᵀ, as clip 11 keeps to m − n), and every m in act 1's lines is math."""
    scene = run.scene
    words = [it.text for rec in run.records for it in rec.items if it.kind == "text"]
    words += [c.text for c in scene.captions] + [c.describe or "" for c in scene.captions]
    flat = ["".join(t.replace("−", "-").split()) for t in words]
    assert not [t for t in flat if "n-m" in t], [t for t in words if "n - m" in t or "n − m" in t]
    for line in scene.descs:
        prose = [t for t in texts(line[1]) if not t.startswith("$") and "typst" not in type(t).__name__]
        sans = [getattr(t, "original_text", "") for t in _texts_in(line[1]) if not hasattr(t, "typst_code")]
        assert not any(re.search(r"\bm\b|N\(", w) for w in sans), (prose, sans)
    maths = [t.typst_code.strip("$ ") for t in _texts_in(scene.descs[1]) if hasattr(t, "typst_code")]
    assert "m" in maths and any("cal(N)(0, 0.02^2)" in t for t in maths)


def test_review_round3_one_verdict_form_the_exact_zero_named_and_one_axis(run, corners):
    """Review round 3 (09): "max spread: 7.9" had a colon and no ≈ where RoPE's read ≈ 1.8 × 10⁻¹⁵; the exact zero
    on RoPE's axis was a hollow diamond with no label; the axis had no tick under 10⁻¹⁰, so 1.8 × 10⁻¹⁵ could not be
    read from it; the learned diagonal's axis began at m = 0, the others' at 1; the notes repeated beat 05's formulas
    and named the axis in a tiny caption.  Now each verdict relates its figure the deck's one way (≈ for a rounded
    or noisy figure, = for an exact one), every exact zero is named "0 exact" over its diamond, a labelled tick lies
    within a decade over the smallest spread, the three notes' axes share one x range, titled |score − first|."""
    from scenes.kit.numbers import rounded

    for res in [run, *corners.values()]:
        scene = res.scene
        d = scene.data
        ranges = set()
        for k, notes in enumerate(scene.notes2):
            v, fig = notes.check, spread_figures(d)[k]
            code = v.value.typst_code.replace(" ", "") if hasattr(v.value, "typst_code") else \
                v.value[0].typst_code.replace(" ", "")
            code = code.strip("$")
            if fig.exact:
                assert code.startswith("=0") or code == "0", code
            elif fig.approx or rounded(fig):
                assert code.startswith("approx") and ":" not in "".join(w.text for w in v.line.words), code
            else:
                assert code.startswith("="), code
            zeros = [dt for dt in notes.bars if dt.value == 0.0]
            assert bool(zeros) == bool(len(notes.zero_tag))
            if zeros:  # "0 exact" over the first diamond
                tag = notes.zero_tag[0][0]
                assert tag.figure.exact and abs(tag.get_x() - zeros[0].get_x()) < tag.width
                assert tag.get_bottom()[1] > zeros[0].get_top()[1]
            pos = d.distances[k][d.distances[k] > 0]
            if len(pos) and pos.min() < PASS_LINE:  # a dot under the pass line is read against a labelled tick
                assert any(t < PASS_LINE for t in notes.y_ticks), notes.y_ticks
                assert len(notes.plot.y_tick_labels) == len(notes.y_ticks)
            ranges.add(notes.plot.x_range)
            assert "lr(|\"score\" - \"first\"|)" in notes.title.typst_code
            assert not any("W_q" in t for t in texts(notes))  # beat 05's formulas are not repeated
        assert len(ranges) == 1 and ranges.pop() == (-0.6, d.T_sim - 0.4)
        # the comparison's three dots in one ink: the ✓ or ✗ over each carries its verdict (pass/fail greys swapped
        # between clips)
        inks = {tuple(rgb255(mk[0].get_stroke_color() if hasattr(mk, "value") and mk.value == 0.0 else
                             mk.get_fill_color()).tolist()) for mk in scene.chart[1]}
        assert len(inks) == 1


def _turn(v: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Pair i of ``v`` (features 2i, 2i + 1) turned by ``angles[i]``: a plain 2-D rotation per pair, written out here
    (not mathcore's apply_rope), to check what the rope beat says."""
    out = np.empty_like(v)
    for i, a in enumerate(angles):
        c, s = np.cos(a), np.sin(a)
        out[2 * i], out[2 * i + 1] = c * v[2 * i] - s * v[2 * i + 1], s * v[2 * i] + c * v[2 * i + 1]
    return out


def test_review_round8_rope_turns_every_pair_by_its_own_angle_the_key_as_well_as_the_query(run):
    """Review round 8 (09): the rope beat said RoPE "turns the query at position m by m's angle" (one angle, the query
    only).  Now narration, screen and description say pair i of the query at m turns by m θᵢ and pair i of the key at n
    by n θᵢ, and kₙ = Rₙ W_k xₙ is written under qₘ; this computes both: the drawn result's row m is W_q xₘ with pair i
    turned by m θᵢ (θᵢ = b^(−2i/d), one angle per pair, not one per position), and the map's RoPE score at (m, n) is
    the query turned by m θᵢ dotted with the key turned by n θᵢ (turning only the query does not give it)."""
    scene = run.scene
    d, cfg = scene.data, scene.cfg
    inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    theta = cfg.rope_base ** (-np.arange(0, cfg.d, 2) / cfg.d)
    assert len(set(np.round(theta, 12))) == cfg.d // 2  # each pair its own rate
    for m in range(cfg.T):
        np.testing.assert_allclose(d.Q_rope[m], _turn((inp.X @ inp.Wq)[m], m * theta), atol=1e-12)
    x = inp.X[0]
    q, k = x @ inp.Wq, x @ inp.Wk
    both = np.array([[_turn(q, m * theta) @ _turn(k, n * theta) for n in range(d.T_sim)] for m in range(d.T_sim)])
    np.testing.assert_allclose(d.scores.rope, both, atol=1e-12)
    query_only = np.array([[_turn(q, m * theta) @ k for n in range(d.T_sim)] for m in range(d.T_sim)])
    assert np.abs(query_only - d.scores.rope).max() > 100 * PASS_LINE  # the key's turn is not optional
    # what is said and drawn
    said = {c.key: c.text for c in scene.captions}
    described = {c.key: c.describe for c in scene.captions if c.describe}
    for text in (said["rope"], described["rope"]):
        assert "m θᵢ" in text and "n θᵢ" in text and "key" in text, text
    assert "m's angle" not in said["rope"]
    line = "".join(t.replace(" ", "") for t in texts(scene.descs[2]))
    assert "mtheta_i" in line and "ntheta_i" in line and "k_n" in line and "q_m" in line
    assert scene.key_eq.typst_code.replace(" ", "").strip("$") == "k_n=R_nW_kx_n"
    assert scene.key_eq in scene.schemes1[2][1].get_family()
    seen = " ".join(it.text for it in record(run, "rope").items if it.kind == "text" and it.text).replace(" ", "")
    assert "k_n=R_nW_kx_n" in seen.replace("$", "")
    # the score beat defines the key at n for every scheme, beside its query at m
    from scenes.figures.positions import score_formulas

    for row, (qf, kf) in zip(scene.overview_rows, score_formulas()):
        got = [t.replace(" ", "").strip("$") for t in texts(row)]
        assert qf.replace(" ", "") in got and kf.replace(" ", "") in got, got


def test_review_round8_the_pass_line_sits_between_rounding_and_any_position_effect(run, corners):
    """Review round 8 (09): "why 10⁻¹⁰?".  The comparison now says under the chart that a spread under the pass line
    is rounding, not position.  This computes it: float64 rounding of these scores (a d-term dot product of numbers as
    large as the map's) is bounded by d · ε · max Σ|qᵢ kᵢ|, far under the line, and RoPE's measured spread lies within
    that bound; each added scheme's spread, set by position, is orders of magnitude over the line."""
    for res in [run, *corners.values()]:
        scene = res.scene
        d, cfg = scene.data, scene.cfg
        inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        x = inp.X[0]
        theta = cfg.rope_base ** (-np.arange(0, cfg.d, 2) / cfg.d)
        q, k = x @ inp.Wq, x @ inp.Wk
        mass = max(np.abs(_turn(q, m * theta)) @ np.abs(_turn(k, n * theta))
                   for m in range(d.T_sim) for n in range(d.T_sim))
        rounding = 4 * cfg.d * np.finfo(float).eps * mass  # both cells' errors and the rotations' own
        assert rounding < PASS_LINE / 1e3
        sin, learned, rope = d.scores.defects
        assert rope <= rounding and sin > 1e3 * PASS_LINE and learned > 1e3 * PASS_LINE
        words = " ".join(t for t in texts(scene.chart.note)).replace("$", "")
        assert "under the pass line" in words and "rounding, not position" in words
        assert "10^(−10)" in words.replace(" ", "") or "10^(-10)" in words.replace(" ", "")
        assert on_screen(scene, scene.chart.note) is False  # gone at the close
        rec = record(res, "compare" if scene.relative() == (False, False, True) else "compare_other")
        seen = " ".join(it.text for it in rec.items if it.kind == "text" and it.text)
        assert "rounding, not position" in seen


def test_a_verdict_under_one_diagonal_says_it_measures_every_diagonal(run):
    """Review round 9: under the plot of one diagonal (m − n = 1), RoPE's "max spread ≈ 1.8 × 10⁻¹⁵" read as that
    diagonal's peak, which is lower; the figure is the largest spread over every diagonal.  The verdict under each
    scheme's plot now says so; the figure is the largest over all diagonals, and above the drawn diagonal's own."""
    d = run.scene.data
    S = d.scores.rope
    T = S.shape[0]
    spreads = {k: max(abs(S[i, i - k] - S[k, 0]) for i in range(k, T)) for k in range(T)}  # lower diagonals
    spreads.update({-k: max(abs(S[i - k, i] - S[0, k]) for i in range(k, T)) for k in range(1, T)})
    assert max(spreads.values()) == pytest.approx(d.scores.defects[2], rel=1e-12, abs=1e-30)
    for key in ("sin_spread", "learned_score", "rope_score"):
        rec = next(r for r in run.records if r.key.startswith(key))
        words = " ".join(i.text for i in rec.texts() if i.opacity > 0.9)
        assert "all diagonals" in words, (key, words)


def test_review_round10_the_pass_line_is_named_and_said_and_the_deck_phrase_is_used(run):
    """Review round 10 (09): in beat 06 the dashed pass line was drawn but never explained on screen or aloud; and
    "depends on m − n only" was looser than the deck's settled phrase (clip 15): "position enters scores only as
    m − n".  Now the line is named on the line's end in two words, "pass line", with what it means under the name,
    "under: rounding", at full strength in every plot beat, and beat 06's sentence says it; every verdict's words say
    how position enters (RoPE's: only as m − n; the added schemes': as m and n), the close the deck's phrase whole,
    and no caption or frame says "depends on"."""
    scene = run.scene
    for k, key in enumerate(("sin_spread", "learned_score", "rope_score")):
        rec = next(r for r in run.records if r.key.startswith(key))
        full = [it.text for it in rec.texts() if it.opacity > 0.9]
        assert "pass line" in full and "under: rounding" in full, (key, full)
        name, means = scene.notes2[k].line_name
        line = scene.notes2[k].line
        assert name.get_bottom()[1] > line.get_y() > means.get_bottom()[1]  # the name over it, the meaning under
        assert name.get_left()[0] > line.get_right()[0]
    says = {c.key: c.text for c in scene.captions}
    assert "pass line" in says["sin_spread"] and "rounding" in says["sin_spread"]
    rel = scene.relative()
    for k, notes in enumerate(scene.notes2):
        words = notes.dep.text.replace("$", "")
        assert words.startswith("position enters") and (("only as" in words) == rel[k])
    if rel[2]:
        assert "position enters RoPE's scores only as m − n" in says["close"]
        take = " ".join(t for t in texts(scene.final[3])).replace("$", "")
        assert "position enters scores" in take and "only as" in take
    for r in run.records:
        seen = " ".join(it.text for it in r.texts() if it.opacity > 0.3)
        assert "depends on" not in seen, r.key
    assert not any("depends on" in c.text for c in scene.captions)
