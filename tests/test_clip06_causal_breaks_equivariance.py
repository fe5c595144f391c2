"""Clip 06 CausalBreaksEquivariance: data binding, the causal mask coloured by the tokens in its slots and
kept beside the chart while the rows are narrated, horizontal bars whose lengths are the defects (the failing
ones in the failed colour), exact zeros marked on the log axis, the measured quantity named over the chart,
the totals as verdicts, the takeaway at the close, the still, captions, and the truth checks over the config
matrix (issue 33)."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    dominant_ink,
    pixel,
    rgb255,
)
from mathcore import attention_fn, causal_mask, lecture_inputs, load_config, permutation_row_defects, swap_permutation
from mathcore.equivariance import THRESHOLD, equivariance_defect
from scenes.clips.c06_causal_breaks_equivariance import CausalBreaksEquivariance
from scenes.figures.equivariance import swap_defects
from scenes.audit.beats import DIMMED, signature
from scenes.audit.truth import truth_problems
from scenes.kit import BG, FAILED, FG, VERIFIED, fmt_measure, token_color
from scenes.kit.numbers import measure, notebook_output
from scenes.kit.notation import token_text


from manim import VGroup  # noqa: E402
from scenes.kit.theme import LABEL, math  # noqa: E402

SCENE = CausalBreaksEquivariance


def src(m) -> str:
    """The Typst source of a typeset figure (an exact zero is the formula and its mark)."""
    m = m if hasattr(m, "typst_code") else m[0]
    return m.typst_code.strip("$ ")


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = CausalBreaksEquivariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    r = d.report
    assert (r.i, r.j) == (1, cfg.T - 2)  # a future token moved into the past
    p = swap_permutation(cfg.T, r.i, r.j)
    np.testing.assert_array_equal(r.perm, p)
    np.testing.assert_array_equal(d.PX, li.X[p])
    causal = attention_fn(li.Wq, li.Wk, li.Wv, causal=True)
    full = attention_fn(li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(r.causal_rows, permutation_row_defects(causal, li.X, p))
    np.testing.assert_array_equal(r.self_rows, permutation_row_defects(full, li.X, p))
    assert r.causal_total == equivariance_defect(causal, li.X, p)
    assert r.self_total == equivariance_defect(full, li.X, p)
    # what the clip claims about the rows
    assert np.all(r.causal_rows[: r.i] == 0.0)
    assert np.all(r.causal_rows[r.i : r.j + 1] > 1e-3)
    assert np.all(r.causal_rows[r.j + 1 :] < THRESHOLD)
    assert np.all(r.self_rows < THRESHOLD)
    assert r.self_total < THRESHOLD < r.causal_total
    np.testing.assert_array_equal(d.mask, causal_mask(cfg.T))
    # the picture's log axis holds every positive defect and labels the pass line's decade
    lo, hi = d.picture.axis
    v = np.concatenate([r.causal_rows, r.self_rows])
    assert 10.0 ** lo < v[v > 0].min() and v.max() <= 10.0 ** hi and -10 in d.picture.ticks


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("seed = 7", "seed = 12")
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = CausalBreaksEquivariance.build_data(load_config(p))
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 12).X)
    assert d.report.causal_total != CausalBreaksEquivariance.build_data(load_config()).report.causal_total


def recs(scene) -> dict:
    return {r.key: r for r in scene.audit.records}


def row_beats(scene) -> dict:
    """The row beats of the run and the rows each narrates: the rows before slot i, row i, row j, the rows between
    (when there are any) and the rows after j."""
    r = scene.data.report
    T = len(r.perm)
    want = {"before_one": range(0, r.i), "past": [r.i], "future": [r.j], "between": range(r.i + 1, r.j),
            "between_one": range(r.i + 1, r.j), "after": range(r.j + 1, T)}
    keys = {c.key for c in scene.captions}
    return {k: list(v) for k, v in want.items() if k in keys}


def test_bars_have_the_lengths_of_the_defects_and_fail_in_the_failed_colour(final, beats):
    scene, _ = final
    frame = beats[1]["totals"]  # the chart's last beat (the close leaves the takeaway over the verdicts alone)
    r = scene.data.report
    chart = scene.causal_chart
    plot = scene.wide_chart.plot  # the close widened the chart into this one
    for m, (bar, v) in enumerate(zip(chart.bars, r.causal_rows)):
        left = plot.to_point(plot.x_range[0], 0.0)[0]
        assert abs(bar.get_left()[0] - left) < 1e-6
        if v > 0:
            assert abs(bar.get_right()[0] - plot.to_point(min(v, plot.x_range[1]), 0.0)[0]) < 1e-6, (m, v)
        assert abs(bar.get_y() - chart.row_y(m)) < 1e-6
        want = FAILED if v >= THRESHOLD else FG
        np.testing.assert_allclose(bar.get_fill_color().to_rgb(), want.to_rgb(), atol=1e-6)
        assert (getattr(bar, "_role", None) == "failed") == (v >= THRESHOLD)
        if bar.width > 0.3:  # its colour over the background, mid-bar, at the totals
            got = pixel(scene, frame, bar.get_center())
            # every row at full strength at the totals: the bar's colour at an opacity of 0.85 to 1 over the ground
            blends = [np.round(a * rgb255(want) + (1 - a) * rgb255(BG)) for a in np.linspace(0.85, 1.0, 16)]
            assert min(np.abs(got - b).max() for b in blends) <= 6, (m, got)
    # self-attention's chart (before its bars became causal attention's): every bar short of the pass line, none red
    assert np.all(scene.self_chart.values < THRESHOLD)
    failed = np.asarray(FAILED.to_rgb())
    assert not [i for i in recs(scene)["self"].items if i.kind == "graphic" and i.filled
                and np.abs(np.asarray(i.fill_rgb) - failed).max() < 0.02]
    # an exact zero has no bar on a log axis but a hollow diamond on the floor, marked 0
    zero_rows = np.flatnonzero(r.causal_rows == 0.0)
    assert len(zero_rows) and set(chart.zeros) == set(zero_rows.tolist())
    on_screen = {i.mid for i in recs(scene)["totals"].items if i.opacity > 0.9}  # the chart's last beat
    for m in zero_rows:
        z = chart.zeros[int(m)]
        # its figure is the deck's verdict: ✓, then 0 with its "exact" mark (review round 3: "◇ 0" lacked "exact")
        v = z[1]
        assert z.value == 0.0 and id(z[0]) in on_screen and getattr(v, "_verdict", False) and v.passed
        assert v.figure.exact and src(v.value) == "0" and v.value[1].text == "exact"
    # the pass line stands at 10⁻¹⁰ and is named on itself
    assert abs(chart.line.get_x() - plot.to_point(THRESHOLD, 0.0)[0]) < 1e-6
    assert scene.line_label.get_left()[0] > chart.line.get_x()


def test_who_sees_what_stays_on_screen_while_it_is_narrated(final):
    """Issue 33: "which rows see what" was narrated after the staircase that showed it had been removed.  Now the
    mask (row m sees slots 0 … m, each in the colour of the token there after the swap) is on screen, at full
    strength and level with the chart's rows, at every beat from the swap to the totals; the band of each row
    beat covers those rows of the mask.  On the old main the mask was gone from the `self` beat on, so this fails
    there."""
    scene, _ = final
    r = scene.data.report
    mask = scene.mask
    T = len(r.perm)
    np.testing.assert_array_equal(mask.mask, causal_mask(T))
    for t in range(T):
        for s_ in range(T):
            cell = mask.cells[t][s_]
            if s_ <= t:  # seen: the colour of the token now in slot s (after the swap)
                np.testing.assert_allclose(cell.get_fill_color().to_rgb(), token_color(int(r.perm[s_])).to_rgb(), atol=1e-6)
            else:  # hidden: an outline only
                assert cell.get_fill_opacity() == 0.0
    past = {i.mid: i for i in recs(scene)["past"].items}
    for t in range(T):  # the mask's rows are the chart's, while narrated
        box = past[id(mask.cells[t][0])].box
        assert abs((box[1] + box[3]) / 2 - scene.tall.self_chart.row_y(t)) < 0.01
    seen_ids = {id(mask.cells[t][s_]) for t in range(T) for s_ in range(t + 1)}
    beats = row_beats(scene)
    assert {"before_one", "past", "future", "between", "after"} <= set(beats)
    for key in ("self", "causal", *beats):
        rec = recs(scene)[key]
        seen = [i for i in rec.items if i.mid in seen_ids and i.opacity >= 0.9 - 1e-9]
        narrated = beats.get(key)
        want = sum(t + 1 for t in (narrated if narrated is not None else range(T)))
        assert len(seen) >= want, key  # every seen cell of the narrated rows, at full strength
        assert "row" in scene._narration[key].lower() or key in ("self", "causal"), key
    # the chips over the mask's columns, in the order the swap gave them
    np.testing.assert_array_equal(scene.tokens.row_order, r.perm)
    np.testing.assert_array_equal(scene.tokens.values, scene.data.PX)
    for slot in range(T):
        assert abs(scene.tokens.chip(slot).get_x() - mask.cells[T - 1][slot].get_x()) < 1e-6


def test_the_measured_quantity_is_named_over_the_chart(final):
    """Issue 33: the per-row quantity ‖Attn(PX)_m − (P·Attn(X))_m‖ was never named on screen.  Now its formula
    stands over the chart at every chart beat, and the bars are bound to the measured rows.  On the old main no
    such formula was drawn, so this fails there."""
    scene, _ = final
    want = scene.data.picture.row_formula.typst
    assert scene.self_formula.typst_code.strip("$ ") == want and "norm(" in want and "_m" in want
    causal = scene.causal_formula.typst_code.strip("$ ")
    assert causal == want.replace('"Attn"', '"Attn"_"causal" ')
    for key in ("self", "causal", *row_beats(scene), "totals"):
        rec = recs(scene)[key]
        texts = [i.text for i in rec.items if i.kind == "text" and i.opacity > 0.9]
        # self-attention's quantity over its chart; causal attention's, with its subscript, over causal bars
        assert (want if key == "self" else causal) in texts, key
        assert (causal if key == "self" else want) not in texts, key
    assert "causal_rows" in {q for q, _ in recs(scene)["causal"].shown}
    assert "self_rows" in {q for q, _ in recs(scene)["self"].shown}


def test_no_legend_the_series_are_named_on_their_axis(final):
    """Issue 33: the legend's swatches were white and grey while the data were red and green.  Now there is no
    legend: one chart, named under its axis ("self-attention", then "causal attention"), its failing bars in the
    failed colour, and no green anywhere but the verdict's ✓."""
    scene, frame = final
    r = recs(scene)
    for key, name in (("self", "self-attention"), ("causal", "causalattention")):
        names = [i.text for i in r[key].items if i.kind == "text" and i.opacity > 0.9]
        assert name.replace("-", "") in [n.replace(" ", "").replace("-", "") for n in names], key
    for rec in scene.audit.records:
        for it in rec.items:
            rgb = it.fill_rgb if it.kind == "graphic" and it.filled else it.stroke_rgb if it.kind == "graphic" else it.rgb
            if rgb is not None and np.abs(np.asarray(rgb) - np.asarray(VERIFIED.to_rgb())).max() < 0.02:
                assert it.verdict, (rec.key, it.name)


def test_the_swaps_descriptions_name_only_what_is_drawn(final):
    """Issue 33: the description of `swap` (and `self`) named a hollow diamond that was not in the frame.  Now
    every description's diamond is bound to a diamond on screen at that beat (the audit's claim check), and no
    description before the causal chart mentions one."""
    scene, _ = final
    for rec in scene.audit.records:
        if "diamond" in rec.describe:
            assert rec.key not in ("tokens", "swap", "self"), rec.key
            assert [c for c in rec.claims if c.name == "zero" and c.bound and c.visible], rec.key
    assert not truth_problems(scene.audit.records) and CausalBreaksEquivariance.STAGED


def test_the_totals_are_verdicts_and_the_close_says_the_takeaway(final):
    """Issue 33: 06 closed without its verdict and never showed "causal ≠ equivariant".  Now the two totals are
    the deck's verdicts (✗ causal with its figure, ✓ self-attention with its figure), and the close shows
    Attn_causal(P X) ≠ P·Attn_causal(X) over the two verdicts, the mask and (round 11) the chart gone."""
    scene, frame = final
    r = scene.data.report
    causal, self_ = scene.verdicts
    assert causal._verdict and not causal.passed and causal.figure.value == r.causal_total
    assert self_._verdict and self_.passed and self_.figure.value == r.self_total
    assert measure(r.causal_total).math in causal.value.typst_code and measure(r.self_total).math in self_.value.typst_code
    assert np.abs(dominant_ink(scene, frame, causal.check, BG) - rgb255(FAILED)).max() <= 40
    assert np.abs(dominant_ink(scene, frame, self_.check, BG) - rgb255(VERIFIED)).max() <= 40
    assert "!=" in scene.takeaway_line.typst_code and "causal" in scene.takeaway_line.typst_code
    close = recs(scene)["close"]
    texts = [i.text for i in close.items if i.kind == "text" and i.opacity > DIMMED]
    assert scene.takeaway_line.typst_code.strip("$ ") in texts
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    take = scene.takeaway()
    assert all(id(m) in on_screen for m in take.family_members_with_points())
    for m in (scene.mask, scene.tokens, scene.formula):  # what made room
        assert not any(id(f) in on_screen for f in m.get_family())
    content = scene.layout.content
    axes = scene.causal_chart.plot.axes[0]
    assert axes.get_end()[0] - axes.get_start()[0] > 0.7 * content.width  # the chart across the frame
    np.testing.assert_allclose(scene.causal_chart.bars[1].get_right(), scene.wide_chart.bars[1].get_right(), atol=1e-6)
    assert close.start != signature(close)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, _ = final
    r = scene.data.report
    assert scene.value_rows == [m for m in range(len(r.perm)) if r.causal_rows[m] >= THRESHOLD]
    for v, m in zip(scene.values, scene.value_rows):
        # typeset, three digits (the total recomputes), "≈" for a rounded figure (review round 8), after a ✗
        assert src(v.value) == "approx " + measure(r.causal_rows[m], 3).math
        assert v._verdict and not v.passed and v.check.get_right()[0] < v.value.get_left()[0]
    # every passing row of the causal chart carries its ✓ and figure, past the pass line, in one column
    for chart in (scene.tall.causal_chart, scene.wide_chart):
        passing = [m for m in range(len(r.perm)) if r.causal_rows[m] < THRESHOLD]
        assert sorted(chart.passes) == passing
        xs = {round(chart.passes[m].check.get_left()[0], 6) for m in passing}
        assert len(xs) == 1 and min(xs) > chart.line.get_x()
        for m in passing:
            v = chart.passes[m]
            assert v._verdict and v.passed and v.figure.value == r.causal_rows[m]
            if chart is scene.wide_chart:  # (the tall chart was morphed into it at the totals)
                assert abs(v.get_center()[1] - chart.row_y(m)) < 1e-6
    texts = " ".join(c.text for c in scene.captions)
    assert fmt_measure(r.causal_total) in texts and fmt_measure(r.self_total) in texts
    assert all(notebook_output(c.text) is None for c in scene.captions) and "row t" not in texts


def test_still_draws_the_clips_rows_on_the_clips_axis(final):
    import matplotlib

    matplotlib.use("Agg")
    from scenes.stills.draw import figure

    scene, _ = final
    d = scene.data
    s = swap_defects(d, scene.cfg)
    np.testing.assert_array_equal(s.panels["S"].data, d.report.self_rows)
    np.testing.assert_array_equal(s.panels["C"].data, d.report.causal_rows)
    fig = figure(s, "dark")
    axes = [ax for ax in fig.axes if ax.get_xscale() == "log"]
    assert len(axes) == 2
    lo, hi = d.picture.axis
    for ax in axes:
        assert ax.get_xlim() == (10.0 ** lo, 10.0 ** hi) == scene.causal_chart.plot.x_range
        np.testing.assert_allclose(ax.get_xticks(), [10.0 ** e for e in scene.ticks()])


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert {"tokens", "swap", "self", "causal", "past", "future", "between", "totals", "close"} <= \
        {c.key for c in caps if c.describe}


def test_every_corner_holds_the_truth_checks_and_marks_every_zero(corners):
    for name, res in corners.items():
        assert not truth_problems(res.records), name
        r = res.scene.data.report
        assert set(res.scene.causal_chart.zeros) == set(np.flatnonzero(r.causal_rows == 0.0).tolist()), name
        assert set(res.scene.self_chart.zeros) == set(np.flatnonzero(r.self_rows == 0.0).tolist()), name


def _between_and_before(scene):
    """The `before…` and `between…` captions of a run, by the beat's key prefix."""
    caps = {c.key: c for c in scene.captions}
    before = [c for k, c in caps.items() if k.startswith("before")]
    between = [c for k, c in caps.items() if k.startswith("between")]
    return before, between


def _check_who_sees_what(scene, records=None):
    r = scene.data.report
    T = len(r.perm)
    mask = causal_mask(T)
    before, _ = _between_and_before(scene)
    caps = {c.key: c for c in scene.captions}
    # row i holds x_{π(i)} = x_j; it now sees i + 1 slots, where x_j (at row j before the swap) saw j + 1
    held_i, held_j = int(r.perm[r.i]), int(r.perm[r.j])
    assert (held_i, held_j) == (r.j, r.i)
    now_i, was_i = int(mask[r.i].sum()), int(mask[held_i].sum())
    now_j, was_j = int(mask[r.j].sum()), int(mask[held_j].sum())

    def n(k):
        return f"{k} token" if k == 1 else f"{k} tokens"

    # the rows that change: two rows are "rows 0 and 1", more a range "rows 1 to 4" (review round 8); the worst
    # figure with "≈", as its bar's label prints it
    span = f"{r.i} and {r.j}" if r.j == r.i + 1 else f"{r.i} to {r.j}"
    worst = float(np.max(r.causal_rows))
    assert f"rows {span} change, by up to ≈ {measure(worst, 3).text}." in caps["causal"].text, caps["causal"].text
    # review round 8: one beat a swapped row, the count its token saw before the swap framed dashed on that row
    # (review round 9: "dashed, the 2 it saw in row 1" read as the tokens it saw; the frame holds other tokens now;
    # round 11: "slots" were a third name for a position, never drawn: the frame counts the row's cells)
    assert caps["past"].text == (f"Row {r.i} now holds {token_text(held_i)}: it sees {n(now_i)}; dashed, as many "
                                 f"cells as it saw in row {held_i}."), caps["past"].text
    assert caps["future"].text == (f"Row {r.j} holds {token_text(held_j)}: it sees {n(now_j)}; dashed, as many "
                                   f"cells as it saw in row {held_j}."), caps["future"].text
    # each dashed frame surrounds exactly the first `was` slots of its row: the count the sentence says
    for ghost, row, was in zip(scene.ghosts, (r.i, r.j), (was_i, was_j)):
        cells = scene.mask.cells[row]
        assert ghost.get_left()[0] < cells[0].get_left()[0] and ghost.get_right()[0] > cells[was - 1].get_right()[0]
        if was < T:
            assert ghost.get_right()[0] < cells[was].get_center()[0], (row, was)
        assert abs(ghost.get_center()[1] - cells[0].get_center()[1]) < 1e-6
    # the rows between: x_j now in slot i, which each of them sees; x_i now in slot j, which none of them sees
    mid = list(range(r.i + 1, r.j))
    between = [c for k, c in caps.items() if k.startswith("between")]
    if not mid:
        assert not between
    else:
        (cap,) = between
        who = f"Row {mid[0]} sees" if len(mid) == 1 else \
            "Rows " + ", ".join(map(str, mid[:-1])) + f" and {mid[-1]} see"  # "rows 2 and 3", never "2 to 3"
        assert cap.text.startswith(f"{who} {token_text(held_i)} where {token_text(r.i)} stood; {token_text(r.i)} is "
                                   "now out of "), cap.text
        assert mask[mid][:, r.i].all() and not mask[mid][:, r.j].any() and int(r.perm[r.j]) == r.i
        # x_i's chip stands over slot j
        assert abs(scene.tokens.chips[r.i].get_x() - scene.mask.cells[T - 1][r.j].get_x()) < 1e-6
    # the counts are bound to the mask's rows and the dashed frames they count
    recs_ = {x.key: x for x in (records if records is not None else scene.audit.records)}
    for key, names in (("past", {"ni", "nj_n"}), ("future", {"nj", "ni_n"})):
        bound = {c.name for c in recs_[key].claims if c.bound and c.visible}
        assert names <= bound, (key, bound)
    if len(mid) > 1:
        assert "mid" in {c.name for c in recs_[between[0].key].claims if c.bound and c.visible}
    # the rows before slot i: counted right (one row is "Row 0 sees", several "Rows 0 to i − 1 see")
    if r.i == 0:
        assert not before
    else:
        (b,) = before
        if r.i == 1:
            assert b.text.startswith("Row 0 sees "), b.text
        else:
            assert b.text.startswith(f"Rows 0 to {r.i - 1} see "), b.text


def test_between_says_what_each_swapped_token_now_sees(final):
    """Review of issue 33: `between` said "Rows 1 to 4 see x₄ in slot 1, where x₁ was": but row 4 is x₁ itself,
    which changes because it now sees three more tokens, and row 1 is x₄, which now sees only x₀ and itself.
    `before` said "Rows before slot 1 … they do not change" of a single row.  Now the sentence says, from the
    permutation and the mask, what the token in row i and the token in row j see now and saw before, and the
    rows before slot i are counted.  The old sentences fail every assertion here."""
    scene, _ = final
    _check_who_sees_what(scene)


def test_who_sees_what_is_true_in_every_corner(corners):
    for name, res in corners.items():
        _check_who_sees_what(res.scene, res.records)


def test_the_close_verdicts_name_the_matrix_they_measure(final):
    """Review of issue 33: the close's verdicts read "causal: ‖·‖_F = 0.83", "self: ‖·‖_F ≈ 2.7 × 10⁻¹⁶": a
    placeholder norm of bars no longer on screen.  Now each names its matrix, Attn(PX) − P·Attn(X), and its
    figure is that matrix's Frobenius norm computed here."""
    scene, _ = final
    cfg = load_config()
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    r = scene.data.report
    P = np.eye(cfg.T)[r.perm]
    causal, self_ = scene.verdicts
    for v, fn, sub in ((causal, attention_fn(li.Wq, li.Wk, li.Wv, causal=True), '_(display("causal")) '),
                       (self_, attention_fn(li.Wq, li.Wk, li.Wv), "")):
        assert "dot)" not in v.formula
        assert f'"Attn"{sub}(P X) - P dot "Attn"{sub}(X)' in v.formula, v.formula
        assert v.figure.value == pytest.approx(np.linalg.norm(fn(P @ li.X) - P @ fn(li.X)), rel=1e-12, abs=1e-18)


def test_the_rows_fill_the_frame_while_they_are_narrated(final):
    """Review of issue 33 (helper b): from `self` to `after` the mask and the chart stood in the top two thirds,
    the strip kept for the totals empty under them for five beats.  Now they are drawn taller, down into that
    strip, while the rows are narrated; at `totals` the same picture, flatter, makes room and the verdicts arrive
    under it.  Checked on the recorded beats: the lowest full-strength ink of each row beat reaches below where
    the verdicts later stand; the mask's rows stay level with the chart's rows in both pictures."""
    scene, _ = final
    content = scene.layout.content
    verdicts_top = scene.verdicts.get_top()[1]
    T = len(scene.data.report.perm)
    for key in ("self", "causal", *row_beats(scene)):
        rec = recs(scene)[key]
        low = min(i.box[1] for i in rec.items if not i.header and i.opacity > 0.9)
        assert low < verdicts_top, (key, low, verdicts_top)
        assert low - content.bottom < 0.25 * content.height, key  # the lower quarter is not left empty
    tall = scene.tall
    assert tall.causal_chart.pitch > scene.wide_chart.pitch
    past = {i.mid: i for i in recs(scene)["past"].items}
    for t in range(T):  # while narrated: the mask's rows level with the tall chart's
        box = past[id(scene.mask.cells[t][0])].box
        assert abs((box[1] + box[3]) / 2 - tall.self_chart.row_y(t)) < 0.01  # (its causal twin morphed on)
    totals = recs(scene)["totals"]
    assert min(i.box[1] for i in totals.items if not i.header and i.opacity > 0.9) <= scene.verdicts.get_bottom()[1] + 1e-6


def test_the_totals_are_short_lines_with_legible_subscripts(final):
    """Review round 10: the totals read "✗ causal attention: ‖Attn_causal(PX) − P·Attn_causal(X)‖_F ≈ 0.830", edge
    to edge (x ≈ 65–1215 of 1280), with no space after "attention:", and the subscript "causal" a Typst script at
    the 8 px floor.  Now each is ✓/✗ and the matrix with its figure only (the chart is named on itself), at most
    four fifths of the content area wide, and causal attention's subscript is set at the text's size: no glyph of the
    line is smaller than its text's x-height."""
    scene, _ = final
    content = scene.layout.content
    for v in scene.verdicts:
        assert not hasattr(v, "line")  # no sans name before the formula
        assert v.width < 0.8 * content.width, v.width  # was 0.9 of the frame
        assert '_"causal"' not in v.formula and "norm(" in v.formula
    causal = scene.verdicts[0]
    assert 'display("causal")' in causal.formula
    # the subscript's letters as tall as the word set at the text's size (as a script they were 70 %)
    sub = math('"Attn"' + CausalBreaksEquivariance.CAUSAL_SUB, size=LABEL).family_members_with_points()[4:]
    word = math('"causal"', size=LABEL).family_members_with_points()
    assert len(sub) == len(word) == 6
    for g, w in zip(sub, word):
        assert g.height >= 0.97 * w.height, (g.height, w.height)


def test_the_close_is_one_subject_over_its_verdicts(final):
    """Review round 10: the close was the totals' dashboard, nothing dimmed: the chart, two verdicts and the
    takeaway.  Now the chart leaves, and the takeaway, the largest thing on screen, stands over the two verdicts."""
    scene, _ = final
    close = recs(scene)["close"]
    shown = [i for i in close.items if not i.header and i.opacity > DIMMED]
    chart = {id(m) for m in VGroup(scene.causal_chart, scene.row_names, scene.values, scene.line_label).get_family()}
    assert not [i for i in shown if i.mid in chart]
    take = scene.takeaway_line
    assert take.height > max(v.height for v in scene.verdicts)
    assert take.width * take.height > max(v.width * v.height for v in scene.verdicts)
    assert take.get_bottom()[1] > scene.verdicts.get_top()[1]


def test_the_pass_line_is_named_over_its_line_at_the_totals(final):
    """Review round 10: at the totals "pass line" moved from over its dashed line (beats 03–09) to the tick row,
    reading "10⁻¹⁰ pass line".  Now it stands over the line's top as in the tall picture, clear of every tick."""
    scene, _ = final
    chart, lab = scene.wide_chart, scene.line_label
    assert lab.get_bottom()[1] >= chart.line.get_top()[1] - 1e-6
    assert chart.line.get_x() < lab.get_left()[0] < chart.line.get_x() + 0.3
    ticks_top = max(t.get_top()[1] for t in chart.plot.x_tick_labels)
    assert lab.get_bottom()[1] > ticks_top + 1.0
    name = chart.plot.x_axis_label  # the chart's name beside it, left, in the same strip
    assert name.get_right()[0] < lab.get_left()[0] and abs(name.get_y() - lab.get_y()) < 0.2


def test_one_word_for_a_position(final):
    """Review round 10: a position had three names, "row" (drawn), "slot" (said, never drawn) and "position m".
    Now every sentence says "row" for an output's place and names a token by its chip."""
    scene, _ = final
    for c in scene.captions:
        for text in (c.text, c.describe):
            assert "slot" not in text and "position" not in text, (c.key, text)


def _cells(rec, cells):
    ids = {id(c): c for c in cells}
    return [i for i in rec.items if i.mid in ids]


def test_self_attention_shows_no_mask_and_causal_the_staircase(final):
    """Review round 2: at `self` the causal staircase stood beside self-attention's bars, which have no mask.  Now
    at `self` every cell of the grid is filled (every row sees all T tokens, in the colour of the token in that
    slot), and at `causal` the hidden cells are empty outlines again: the staircase beside the causal bars."""
    scene, _ = final
    r = scene.data.report
    T = len(r.perm)
    cells = [scene.mask.cells[t][s_] for t in range(T) for s_ in range(T)]
    hidden = [scene.mask.cells[t][s_] for t in range(T) for s_ in range(t + 1, T)]
    self_rec, causal_rec = recs(scene)["self"], recs(scene)["causal"]
    filled = [i for i in _cells(self_rec, cells) if i.filled and i.opacity >= 0.9 - 1e-9]
    assert len(filled) == T * T
    assert not [i for i in _cells(causal_rec, hidden) if i.filled]
    assert len([i for i in _cells(causal_rec, cells) if i.filled]) == T * (T + 1) // 2
    assert "every row sees all" in self_rec.describe and f"all {T} tokens" in self_rec.describe
    assert "staircase comes back" in causal_rec.describe


def test_row_beats_dim_the_other_rows_and_never_fill_over_the_subject(final):
    """Review round 2: the yellow band laid a translucent fill over the rows it highlighted, washing them out.  Now
    the band is an outline only, and every row outside it (its name, its mask row, its bar, its figure) is dimmed
    below the audit's background level, while the narrated rows stay at full strength."""
    scene, _ = final
    r = scene.data.report
    T = len(r.perm)
    for key, rows in row_beats(scene).items():
        rec = recs(scene)[key]
        bands = [i for i in rec.items if i.role == "highlight" and i.kind == "graphic"]
        assert bands and not [i for i in bands if i.filled], key
        for m in range(T):
            names = _cells(rec, [scene.row_names[m]]) or [i for i in rec.items if i.kind == "text"
                                                           and i.text.replace(" ", "") == f"row{m}"]
            bar = _cells(rec, [scene.tall.causal_chart.bars[m]]) or _cells(rec, [scene.causal_chart.bars[m]])
            level = max(i.opacity for i in _cells(rec, list(scene.mask.cells[m])))
            if m in rows:
                assert level >= 0.9 - 1e-9, (key, m)
            else:
                assert level < DIMMED, (key, m, level)
            del names, bar


def test_a_rounded_total_reads_approx(final):
    """Review round 2: the causal total read "= 0.83", a rounded figure written with "=".  Now a total whose printed
    figure is not its value reads "≈" (the figure's own "≈" for rounding noise), and the printed figure is the
    total rounded."""
    scene, _ = final
    r = scene.data.report
    causal, self_ = scene.verdicts
    assert float(measure(r.causal_total).text) != r.causal_total
    assert "approx " + measure(r.causal_total).math in causal.value.typst_code
    assert "= " not in causal.value.typst_code.split("_F", 1)[1]
    assert self_.value.typst_code.count("approx") == 1


def test_the_total_is_what_the_printed_rows_give(final):
    """Review round 3: the rows read 0.47, 0.26, 0.14, 0.61 and the total ≈ 0.83, but the root of the sum of the
    printed rows' squares is 0.825, which a student rounds to 0.82.  Now the rows and the total are printed to three
    digits, and the total worked out from the printed rows rounds to the printed total."""
    scene, _ = final
    r = scene.data.report
    printed = [float(src(v.value).removeprefix("approx ").replace("\u2212", "-")) for v in scene.values]
    assert len(printed) == len(scene.value_rows) and all(len(src(v.value).split(".")[1]) == 3 for v in scene.values)
    np.testing.assert_allclose(printed, r.causal_rows[scene.value_rows], atol=5e-4)
    causal = scene.verdicts[0]
    shown = causal.figure.text
    assert shown == f"{r.causal_total:.3f}" and "approx " + causal.figure.math in causal.value.typst_code
    rows_only = r.causal_rows[[m for m in range(len(r.causal_rows)) if m not in scene.value_rows]]
    assert np.all(rows_only < 1e-10)  # the unprinted rows are zero or rounding noise
    assert f"{np.sqrt(np.sum(np.square(printed))):.3f}" == shown


def test_the_measured_quantity_has_a_row_of_its_own(final):
    """Review round 3: the quantity over the chart sat ~15 px from the x₅ chip and ran to the right margin.  Now it
    stands in its own row over the chips and the chart, at the size of a label, inside the content area; at the
    close the takeaway takes that row."""
    scene, _ = final
    content = scene.layout.content
    for f in (scene.self_formula, scene.causal_formula):
        assert f.get_bottom()[1] > scene.tall.tokens.get_top()[1] + 0.1
        assert content.left - 1e-6 <= f.get_left()[0] and f.get_right()[0] <= content.right + 1e-6
    # (round 11: where the chart leaves at the close, the takeaway stands large over the verdicts instead)
    if scene.data.odd_rows:
        assert abs(scene.takeaway_line.get_y() - scene.causal_formula.get_y()) < 0.05


def test_each_swapped_row_outlines_its_token_and_frames_what_it_saw(final):
    """Review round 8: `between` said three things over one outline of rows 1 to 4, comparing with the order before
    the swap, no longer on screen.  Now row i, row j and the rows between each have their beat: row i's cell of
    x_j (slot i) and row j's cell of x_i (slot j) outlined, each row with a dashed frame around as many slots as
    its token saw before the swap, at full strength in its own beat and gone in the next."""
    scene, _ = final
    r = scene.data.report
    steps = {k: (rows, marks) for k, rows, marks in scene.steps}
    (cell_i, ghost_i), (cell_j, ghost_j) = steps["past"][1], steps["future"][1]
    for cell, (row, slot) in ((cell_i, (r.i, r.i)), (cell_j, (r.j, r.j))):
        np.testing.assert_allclose(cell.get_center(), scene.mask.cells[row][slot].get_center(), atol=1e-6)
    assert (ghost_i, ghost_j) == tuple(scene.ghosts)

    def level(key, mob):
        ids = {id(m) for m in mob.get_family()}
        return max([i.opacity for i in recs(scene)[key].items if i.mid in ids] + [0.0])

    assert level("past", ghost_i) >= 0.9 and level("future", ghost_i) == 0.0
    assert level("future", ghost_j) >= 0.9 and level("between", ghost_j) == 0.0
    assert level("between", steps["between"][1]) >= 0.9


def test_the_verdicts_align_their_formulas_and_mark_their_own_lines(final, corners):
    """Review round 3: the two verdict lines did not align their formulas.  Now both formulas start at one x.
    Review round 10 (06 close): the marks stood in one column (round 8), so the ✗ stood ~150 px left of "causal:",
    in the column of the longer "self-attention:".  Now each mark stands a list's gap before its own name, on its
    line, and the names are the charts' ("causal attention", "self-attention"), nearly as wide, so the marks stand
    within ~50 px of one column too (at every corner).  On the old code the ✗ stood 1.7 units from its name, so
    this fails there."""
    from scenes.kit.compose import GAP

    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        a, b = scene.verdicts
        assert abs(a.value.get_left()[0] - b.value.get_left()[0]) < 1e-6
        for v in (a, b):  # round 11: no names (the lines ran edge to edge): each mark just before its formula
            gap = v.value.get_left()[0] - v.check.get_right()[0]
            assert 0 <= gap <= GAP.small + 1e-6, gap  # at its own line: just before its formula
            assert v.value.get_bottom()[1] < v.check.get_y() < v.value.get_top()[1]  # on the line's level
        assert abs(a.check.get_x() - b.check.get_x()) < 0.6  # nearly one column (review round 8)


def test_the_chips_in_a_row_keep_the_decks_gap(final, corners):
    """Review round 10 (06 self to after): over the small mask the chips were 0.9 of a column wide, ~0.05 units
    apart, and their outlines touched.  Now every two neighbouring chips are at least the deck's gap between the
    items of a list apart (GAP.small), over the large mask and the small one, and each still stands over its
    column (the mask's columns widen where the chips need it), at every corner.  On the old code the small mask's
    chips stood 0.056 units apart, so this fails there."""
    from scenes.kit.compose import GAP

    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        T = len(scene.data.report.perm)
        for tokens, mask in ((scene.tokens, scene.mask), (scene.big[1], scene.big[2])):
            boxes = sorted((tokens.chips[k][0] for k in range(T)), key=lambda b: b.get_x())
            for left, right in zip(boxes, boxes[1:]):
                assert right.get_left()[0] - left.get_right()[0] >= GAP.small - 1e-6
            for slot in range(T):
                assert abs(tokens.chip(slot).get_x() - mask.cells[T - 1][slot].get_x()) < 1e-6
        # a wider mask narrows the chart beside it, not the one that widens at the totals: its axis ends where the
        # compact chart's does, each failing row's figure a gap past its bar (looking at the max corner: the widened
        # chart's bars ran into their ✗)
        wide, compact = scene.wide_chart, scene.compact.causal_chart
        assert abs(wide.plot.axes[0].get_end()[0] - compact.plot.axes[0].get_end()[0]) < 1e-6
        for v, m in zip(scene.wide_values, scene.value_rows):
            assert v.get_left()[0] >= wide.bars[m].get_right()[0] + GAP.small - 1e-6
