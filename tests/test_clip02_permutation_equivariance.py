"""Clip 02 PermutationEquivariance: data binding, travelled cells handed over to maps of what they show, the
deck's weights and outputs scales shared with the still (issue 33: one scale a quantity across the deck), the
trial marks (dots, or min-max columns for many trials; exact zeros on the floor), the running maximum, why only
rounding is left as a picture (one output row as the sum it is, its terms reordered by P), the verdict at the
close, fixed-point permutations, printed figures, captions, and the truth checks over the config matrix."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    dominant_ink,
    pixel,
    rgb255,
)
from mathcore import attention_fn, equivariance_defects, lecture_inputs, load_config, self_attention
from mathcore.permutation import permutation_row_defects
from mathcore.equivariance import THRESHOLD, equivariance_defect
from scenes.clips.c02_permutation_equivariance import PermutationEquivariance
from scenes.figures.equivariance import EQUIVARIANT, shuffled
from scenes.audit.beats import DIMMED, audit_clip, signature
from scenes.audit.truth import truth_problems
from scenes.clips.c02_widgets import TrialMarks, staircase
from scenes.kit import BG, BLUE, FG, HIGHLIGHT, TITLE, VERIFIED, Plot, fmt_measure, math
from scenes.kit.numbers import measure, nice_count_ticks
from scenes.kit.scales import scale
from scenes.kit.theme import CONTENT_BOTTOM

SCENE = PermutationEquivariance


FIXED_POINTS = ([4, 2, 0, 3, 1], [3, 1, 0, 2])  # keep token 3 / token 1 in place


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PermutationEquivariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    perm = list(cfg.perm)
    Y, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
    Y_PX, A_PX = self_attention(li.X[perm], li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(d.X, li.X)
    np.testing.assert_array_equal(d.PX, li.X[perm])
    np.testing.assert_array_equal(d.A, A)
    np.testing.assert_array_equal(d.PA, A[perm])  # the rows moved
    np.testing.assert_array_equal(d.Y, Y)
    np.testing.assert_array_equal(d.PY, Y[perm])
    np.testing.assert_array_equal(d.A_PX, A_PX)
    np.testing.assert_array_equal(d.Y_PX, Y_PX)
    np.testing.assert_array_equal(d.A_moved, A[perm][:, perm])  # rows AND columns moved
    assert np.max(np.abs(d.A_PX - d.A_moved)) == d.weights_defect < 1e-15
    attn = attention_fn(li.Wq, li.Wk, li.Wv)
    assert d.defect == equivariance_defect(attn, li.X, perm) == float(np.linalg.norm(Y_PX - Y[perm]))
    perms, defects = equivariance_defects(attn, li.X, cfg.n_trials, cfg.seed)
    np.testing.assert_array_equal(d.run.perms, perms)
    np.testing.assert_array_equal(d.run.defects, defects)
    np.testing.assert_array_equal(d.run.running_max, np.maximum.accumulate(defects))
    assert len(d.run.defects) == cfg.n_trials >= 100
    assert 0 < d.run.max_defect < THRESHOLD and d.run.passed
    assert d.zero_trials == int(np.sum(defects == 0.0))
    assert d.cmap == cfg.cmap_weights and d.cmap_signed == cfg.cmap_signed
    np.testing.assert_array_equal(d.row_defects, permutation_row_defects(attn, li.X, perm))
    np.testing.assert_array_equal(d.V, li.X @ li.Wv)
    assert d.why_row == int(np.argmax(d.row_defects)) and d.why_token == perm[d.why_row]
    # the picture: the deck's scales (weights linear from 0 to 1, outputs from the config)
    assert d.picture.weights is scale("weights", cfg) and d.picture.outputs is scale("outputs", cfg)
    # the log axis reaches a decade under the smallest defect and labels the pass line
    lo, hi = d.picture.axis
    assert 10.0 ** lo < defects[defects > 0].min() / 10 and hi == -9 and -10 in d.picture.ticks


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("n_trials = 100", "n_trials = 130").replace("seed = 7", "seed = 11")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    cfg = load_config(p)
    d = PermutationEquivariance.build_data(cfg)
    assert len(d.run.defects) == 130
    np.testing.assert_array_equal(d.X, lecture_inputs(cfg.T, cfg.d, 11).X)


def test_cells_travelled_to_P_A_Pt(final):
    scene, _ = final
    d = scene.data
    perm = d.perm
    T = len(perm)
    first, rows, cols = scene.maps
    scale = d.picture.weights
    for i in range(T):
        for j in range(T):
            # after the rows beat: the cell that held A[perm[i], j] sits in grid slot (i, j)
            np.testing.assert_allclose(first.heat.cells[perm[i]][j].get_center(), first.slot(i, j), atol=1e-6)
            # after the columns beat: the cell that held (P A)[i, perm[j]] sits in slot (i, j)
            np.testing.assert_allclose(rows.heat.cells[i][perm[j]].get_center(), rows.slot(i, j), atol=1e-6)
            # and each map they were handed over to shows what they show, in the same colours and places
            np.testing.assert_allclose(rows.slot(i, j), first.slot(i, j), atol=1e-6)
            np.testing.assert_allclose(cols.heat.cell_center(i, j), first.slot(i, j), atol=1e-6)
            np.testing.assert_allclose(cols.heat.cell(i, j).get_fill_color().to_rgb(), scale.rgb(d.A_moved[i, j]),
                                       atol=1e-6)
    np.testing.assert_array_equal(rows.heat.values, d.PA)
    np.testing.assert_array_equal(cols.heat.values, d.A_moved)
    assert cols.order == [int(k) for k in perm]  # the keys' names travelled with their columns
    assert scene.A_final is cols.heat
    # the input tokens and the output rows moved by the same P
    np.testing.assert_array_equal(scene.p.X_col.row_order, perm)
    np.testing.assert_array_equal(scene.p.X_col.values, d.PX)
    np.testing.assert_array_equal(scene.p.Y_mat.values, d.PY)
    out = d.picture.outputs
    for slot in range(d.PY.shape[0]):  # slot i shows row perm[i] of Y, i.e. row i of Attn(PX) up to rounding
        for j in range(d.PY.shape[1]):
            np.testing.assert_allclose(scene.p.Y_mat.heat.cell(slot, j).get_fill_color().to_rgb(), out.rgb(d.PY[slot, j]),
                                       atol=1e-6)


def test_weights_are_painted_on_the_decks_weights_scale(final):
    """Issue 33: clip 02's A was on a square-root scale while clip 03's same A was linear (one cell yellow in one,
    green in the other).  Now A, P A Pᵀ, their colour bar, the weights in the "why" sums and the still are all
    painted by the deck's one weights scale, linear from 0 to 1 (the scale every clip showing weights asks
    for).  On the old main the scale had a gamma and named no quantity, so this fails there."""
    scene, _ = final
    d, cfg = scene.data, scene.cfg
    w = scale("weights", cfg)
    assert (w.vmin, w.vmax, w.gamma, w.quantity) == (0.0, 1.0, None, "weights")
    assert scene.A_final.color_scale is w and scene.p.bar.color_scale is w
    for t in (*scene.sums[0].terms, *scene.sums[1].terms):
        assert t.weight.color_scale is w
    T = d.A.shape[0]
    for i in range(T):
        for j in range(T):
            np.testing.assert_allclose(scene.A_final.cell(i, j).get_fill_color().to_rgb(), w.rgb(d.A_moved[i, j]),
                                       atol=1e-6)
    assert shuffled(d, cfg).panels["A"].scale is w
    assert [f"{t:g}" for t in scene.p.bar.ticks] == ["0", "0.5", "1"]


def test_still_and_clip_share_every_scale_and_axis(final, corners):
    for scene in (final[0], corners["max"].scene):
        d, cfg = scene.data, scene.cfg
        s = shuffled(d, cfg)
        for k in "AB":  # A and P A Pᵀ: the clip's weights scale, colormap, bounds and stretch
            assert s.panels[k].scale.same_as(scene.p.bar.color_scale)
            assert s.panels[k].scale.same_as(scene.A_final.color_scale)
        assert s.panels["B"].cbar_ticks == d.picture.weight_ticks
        lo, hi = d.picture.axis
        assert s.panels["C"].ylim == (10.0 ** lo, 10.0 ** hi) == scene.q.plot.y_range
        assert s.panels["C"].yticks == tuple(10.0 ** e for e in d.picture.ticks)
        assert scene.p.Y_mat.heat.color_scale is d.picture.outputs is scale("outputs", cfg)


def test_plot_draws_every_trial_and_the_running_max(final):
    scene, frame = final
    run = scene.data.run
    for q in (scene.q, scene.q_close):  # the trials beats, and the close
        plot, marks = q.plot, q.marks
        assert marks.mode == "dots"  # 100 trials: one dot each
        positive = np.flatnonzero(run.defects > 0)
        assert len(marks.dots) == len(positive)
        for dot, k in zip(marks.dots, positive):
            np.testing.assert_allclose(dot.get_center(), plot.to_point(k + 1, run.defects[k]), atol=1e-9)
        assert len(marks.zeros) == scene.data.zero_trials
        _assert_staircase(plot, q.curve, run.running_max)
        # the pass line is drawn at 1e-10, named on itself, and every mark lies below it
        assert abs(q.line.get_center()[1] - plot.to_point(1, THRESHOLD)[1]) < 1e-9
        assert max(dot.get_center()[1] for dot in marks.dots) < q.line.get_center()[1]
        assert q.line_label.text == "passline" and q.line_label.get_bottom()[1] > q.line.get_y()
    # the final frame: the staircase in the highlight colour, the trials dimmed behind it
    q = scene.q_close
    pts = np.asarray(q.curve.get_anchors())
    mids = (pts[1:] + pts[:-1]) / 2
    long_runs = [m for m, a, b in zip(mids, pts[:-1], pts[1:]) if abs(b[0] - a[0]) > 0.5]
    assert long_runs
    step = scene.frame_size[1] / frame.shape[0]  # one pixel, in units
    hi, bg = rgb255(HIGHLIGHT).astype(float), rgb255(BG).astype(float)

    def ink(px):  # how much of the highlight colour a pixel holds over the background, if it holds nothing else
        a = float(np.dot(px - bg, hi - bg) / np.dot(hi - bg, hi - bg))
        return a if np.abs(px - (bg + a * (hi - bg))).max() <= 12 else 0.0

    hits = [max(ink(pixel(scene, frame, m + [0, k * step, 0]).astype(float)) for k in (-1, 0, 1)) > 0.6
            for m in long_runs]
    assert np.mean(hits) > 0.5
    assert all(dot.get_fill_opacity() <= DIMMED for dot in q.marks.dots)


def _assert_staircase(plot, curve, running_max):
    pts = np.asarray(curve.get_anchors())
    xs, ys = pts[:, 0], pts[:, 1]
    for k, v in enumerate(running_max):
        x = plot.to_point(k + 1, v)[0]
        at = np.flatnonzero(xs <= x + 1e-9)
        assert len(at), k
        y = ys[at[-1]]  # the latest anchor at or before trial k+1 (the top of a riser at k+1)
        assert abs(y - plot.to_point(k + 1, plot.y_clip(v))[1]) < 1e-9, k
    # corners only where the maximum changes: 2 per change, plus the ends
    changes = int(np.sum(running_max[1:] != running_max[:-1]))
    assert len(curve.steps) == changes + 1


def test_many_trials_are_drawn_as_one_min_max_column_per_pixel_column():
    rng = np.random.default_rng(0)
    n = 10_000
    defects = 10.0 ** rng.uniform(-17, -15, n)
    defects[rng.choice(n, 40, replace=False)] = 0.0
    plot = Plot((0, n + 1), (1e-18, 1e-9), width=7.0, height=4.0, y_log=True)
    marks = TrialMarks(plot, defects)
    assert marks.mode == "band" and len(marks.dots) == 0
    assert len(marks.columns) <= int(7.0 * 60 / 2)  # what the pixels can show, not 10 000 marks
    assert len(marks.submobjects) < 400 and len(marks.band.submobjects) == 0  # one VMobject for the columns
    covered = np.zeros(n, bool)
    for first, last, lo, hi in marks.columns:
        seg = defects[first:last + 1]
        pos = seg[seg > 0]
        assert lo == pos.min() and hi == pos.max()  # each column spans exactly its trials' range
        covered[first:last + 1] = True
    assert covered[defects > 0].all()
    # each column is drawn from its min to its max on the log axis
    pts = marks.band.points
    assert plot.to_point(1, defects[defects > 0].min())[1] == pytest.approx(pts[:, 1].min(), abs=1e-9)
    assert plot.to_point(1, defects.max())[1] == pytest.approx(pts[:, 1].max(), abs=1e-9)
    # exact zeros: a hollow diamond on the floor in every column that holds one
    assert 0 < len(marks.zeros) <= 40 and marks.zero_count == 40
    floor = plot.to_point(1, 1e-18)[1]
    for z in marks.zeros:
        assert z.value == 0.0 and abs(z[0].get_bottom()[1] - floor) < 0.05


def test_count_ticks_are_few_and_round():
    assert nice_count_ticks(100) == [1, 25, 50, 75, 100]
    assert nice_count_ticks(10_000) == [1, 2500, 5000, 7500, 10000]
    for n in (100, 130, 777, 4321, 10_000):
        t = nice_count_ticks(n)
        assert t[0] == 1 and len(t) <= 6 and t[-1] <= n


def test_staircase_has_corners_only_where_the_maximum_changes():
    v = np.maximum.accumulate(np.array([1e-16, 1e-16, 3e-16, 2e-16, 3e-16, 5e-16] * 50))
    plot = Plot((0, len(v) + 1), (1e-18, 1e-9), y_log=True)
    s = staircase(plot, v, BLUE)
    assert len(s.steps) == 3 and len(np.asarray(s.get_anchors())) < 20
    _assert_staircase(plot, s, v)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    # this P's figure in the lecture's number style, named by the plot's axis title (the quantity's formula)
    assert measure(d.defect).math in scene.check[0].typst_code and "norm(" in scene.q.y_title.typst_code
    assert scene.check[1].text == "thisP,fromclip01"  # Text.text drops spaces
    assert measure(d.run.max_defect).math in scene.q.max_text[0].typst_code
    assert scene.q.max_text[1].text == f"over{len(d.run.defects)}randompermutations"  # Text.text drops spaces
    v = scene.close_verdict
    assert v._verdict and v.passed is d.run.passed is True and v.figure.value == d.run.max_defect
    assert measure(d.run.max_defect).math in v.value.typst_code
    # the close says what the maximum is over: the random permutations tried, not every P ("max_P" before)
    assert v.formula == f"max over {len(d.run.defects)} random $P$" and "max_P" not in v.formula
    assert v.check.get_stroke_color().to_hex() == VERIFIED.to_hex()
    texts = " ".join(c.text for c in scene.captions)
    assert fmt_measure(d.defect) in texts and fmt_measure(d.run.max_defect) in texts and "10⁻¹⁰" in texts
    assert "\u22120.0" not in texts and "-0.0" not in texts and "e-1" not in texts and "e−1" not in texts


def test_why_is_a_picture_of_one_row_whose_terms_reorder(final):
    """Issue 33, 02 `why`/`rounding`: the "why" was a text slide headed "why exact?" over a measured ≈ 4.7 × 10⁻¹⁶.
    Now it is one output row drawn as the weighted sum of value vectors it is, and under it the same row of
    Attn(P X): the same (weight, value) terms in the order P gives them, beside the columns they sum to; the
    difference printed under them is that row's measured defect.  On the old main the clip had no sums (and
    said "exact" over a non-zero figure), so this fails there."""
    scene, frame = final
    d = scene.data
    T = d.X.shape[0]
    top, bottom = scene.sums
    t, m = d.why_token, d.why_row
    np.testing.assert_array_equal(top.result.values[:, 0], d.Y[t])
    np.testing.assert_array_equal(bottom.result.values[:, 0], d.Y_PX[m])
    assert top.order == list(range(T)) and bottom.order == [int(k) for k in d.perm]
    for line in (top, bottom):
        for j, term in zip(line.order, line.terms):
            assert term.weight.values[0, 0] == d.A[t, j]
            np.testing.assert_array_equal(term.column.values[:, 0], d.V[j])
            assert term.name.typst_code.strip("$ ") == f"v_{j}"
    # the sums the lines draw are the rows they name: Σ A_tj v_j is y_t, and the reordered terms give Attn(P X)_m
    np.testing.assert_allclose(sum(d.A[t, j] * d.V[j] for j in bottom.order), d.Y_PX[m], atol=1e-12)
    np.testing.assert_allclose(sum(d.A[t, j] * d.V[j] for j in top.order), d.Y[t], atol=1e-12)
    # the figure under them is that row's measured difference, rounding, never called exact
    row = float(np.linalg.norm(d.Y_PX[m] - d.Y[t]))
    assert row == d.row_defects[m] > 0 and measure(row).math in scene.row_check.value.typst_code and scene.row_check.passed
    recs = {r.key: r for r in scene.audit.records}
    assert {"why.y", "why.attn_px"} <= {q for q, _ in recs["rounding"].shown}
    for rec in scene.audit.records:  # "exact" only in a verdict, over a true zero
        assert not [i for i in rec.items if i.kind == "text" and "exact" in (i.text or "").lower() and not i.verdict], rec.key


def test_the_picture_of_one_permutation_fills_the_frame_to_its_foot(final):
    """Issue 33: beats setup to outputs left the bottom 190 px (at 1080p) empty, a strip kept for a line that came
    later.  Now the picture reaches the content area's foot at each of them (the defect comes on the plot).  On
    the old main the lowest thing drawn stood ~1.4 units above the foot, so this fails there."""
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    for key in ("setup", "permute_input", "rows", "cols", "outputs"):
        bottom = min(i.box[1] for i in recs[key].items if not i.header and i.opacity > DIMMED)
        assert bottom < CONTENT_BOTTOM + 0.5, (key, bottom)


def test_the_closing_beat_brings_the_equation_and_its_verdict_forward(final):
    scene, frame = final
    take = scene.takeaway()
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert all(id(m) in on_screen for m in take.family_members_with_points())
    content = scene.layout.content
    assert take.width > 0.85 * content.width and take.height > 0.85 * content.height  # large: the whole frame
    eq = scene.final if hasattr(scene.final, "typst_code") else scene.final[0]
    assert "\"Attn\"(P X) = P dot \"Attn\"(X)" in eq.typst_code
    assert abs(eq.height - math(EQUIVARIANT.typst, size=TITLE).height) < 1e-6  # set at title size
    assert np.abs(dominant_ink(scene, frame, eq, BG) - rgb255(FG)).max() <= 40  # green only in the verdict
    assert scene.close_verdict in take.get_family()
    # and nothing of part 1 or of the sums is left
    for m in (scene.A_final, scene.p.X_col, scene.p.Y_mat, *scene.sums, scene.check, scene.row_check):
        assert not any(id(f) in on_screen for f in m.get_family())
    closing = scene.audit.records[-1]
    assert closing.key == "close" and closing.start != signature(closing)  # the picture changed


def test_labels_name_what_is_drawn_under_them(final):
    """A's name changes with what its map shows (A, P A, P A Pᵀ), bound to that array; while A's rows and
    columns travel, Y's name still reads Y = A V, so Y steps back (dimmed, background)."""
    records = {r.key: r for r in final[0].audit.records}
    want = {"setup": "A", "rows": "PA", "cols": "A_moved", "outputs": "A_moved"}
    for beat, q in want.items():
        assert q in {n for n, _ in records[beat].named} and q in {n for n, _ in records[beat].shown}, beat
    for beat in ("rows", "cols"):
        y_eq = [it for it in records[beat].items if it.text == "Y = A V"]
        assert y_eq and all(it.opacity < 0.3 for it in y_eq), beat
    assert "PY" in {n for n, _ in records["outputs"].named}
    assert not final[0].audit.lecture  # no static beat, no notebook notation, every label bound
    assert not truth_problems(final[0].audit.records) and PermutationEquivariance.STAGED


def test_exact_zeros_are_counted_and_marked_under_a_corner_config(corners):
    """The min corner has trials whose defect is exactly 0: the clip marks and counts them."""
    res = corners["min"]
    scene = res.scene
    d = scene.data
    assert d.zero_trials > 0
    assert len(scene.marks.zeros) == d.zero_trials
    assert f"exactly0in{d.zero_trials}of{len(d.run.defects)}trials" == scene.zero_note[1].text
    assert any(f"{d.zero_trials} of them give exactly 0" in c.text for c in scene.captions)


def test_every_corner_holds_the_truth_checks_and_a_narrow_Y_widens(corners):
    for name, res in corners.items():
        assert not truth_problems(res.records), name
    scene = corners["T6_d2"].scene  # d = 2: Y's cells widen into the width a narrow Y leaves
    assert scene.y_wide > 1.0
    heat = scene.p.Y_mat.heat
    assert heat.cell(0, 0).width > 1.2 * heat.cell(0, 0).height
    assert abs(scene.p.y_bar.frame.height - heat.height) < 1e-6
    assert corners["max"].scene.marks.mode == "band"  # 10 000 trials


def test_fixed_point_permutations_leave_nothing_standing(corners, tmp_path):
    """A token the permutation keeps in place has a row and a column of A that do not travel: none
    of its cells, nor its key's name, may stay on screen over the trials plot."""
    from scenes.render.matrix import write_config

    by_perm = {tuple(r.scene.data.perm): r for r in corners.values()}
    for perm in FIXED_POINTS:
        res = by_perm.get(tuple(perm))
        if res is None:  # not a corner of the matrix (any more): audit it here
            cfg = load_config(write_config({"sizes.T": len(perm), "permutation.perm": perm}, tmp_path / "p.toml"))
            res = audit_clip(PermutationEquivariance, cfg)
        assert not res.problems, (perm, [str(p) for p in res.problems][:5])
        scene = res.scene
        fixed = [k for k, v in enumerate(perm) if k == v]
        assert fixed
        after = [r for r in res.records if r.key in ("check", "check_zero", "trials", "trials_zeros", "running_max",
                                                      "why", "rounding", "close")]
        assert len(after) == 6
        for rec in after:
            names = {it.text for it in rec.items if it.opacity > 0.02}
            assert not any(f"x_{k}" in names for k in fixed), (perm, rec.key)
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
        for m in scene.maps:
            assert not any(id(f) in on_screen for f in m.get_family()), perm


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    described = {c.key for c in caps if c.describe}
    assert {"setup", "rows", "cols", "trials", "running_max", "why", "rounding", "close"} <= described | {"trials_zeros"}
    assert "exact" not in scene._narration["why"].lower()




def test_running_max_counts_no_steps_a_viewer_cannot_see(final):
    """Review round 10 (02 running_max): the sentence said the running maximum "climbs in 3 visible steps", but on the
    log axis (9 decades in ~400 px at 720p) its rises are 7, 4 and 2 px: not steps a viewer counts.  The axis is the
    still's too (it must hold the pass line), so the words stop counting: the sentence and the description say where
    the maximum ends, bound to the label that prints it.  On the old narration the caption counted "3 visible
    steps", so this fails there."""
    scene, _ = final
    q = scene.q
    rm = np.asarray(scene.data.run.running_max, dtype=float)
    ys = [q.plot.to_point(1, v)[1] for v in q.plot.y_clip(rm)]
    rises_px = np.diff(ys) * 720 / 8.0  # scene units to pixels at 720p (the frame is 8 units tall)
    if scene.cfg == load_config():
        assert 0 < rises_px.max() < 8  # the shipped run's tallest rise: a few pixels
    (cap,) = [c for c in scene.captions if c.key == "running_max"]
    for text in (cap.text, cap.describe):
        assert "step" not in text and "climb" not in text, text
    assert fmt_measure(scene.data.run.max_defect) in cap.text
    rec = {r.key: r for r in scene.audit.records}["running_max"]
    assert [c for c in rec.claims if c.name == "max" and c.bound and c.visible]


def test_this_P_is_named_beside_its_dot(final, corners):
    """Review round 10 (02 trials): the words "this P" stood on the x axis's floor, ~90 px under the dot they name.
    Now they stand beside it, on its left, in the room its column keeps between the y axis and the dot: level with
    it (their heights overlap), a tight gap from it, clear of the y axis and of every trial's mark (at every corner).
    On the old code the words sat under the dot, their top below its bottom, so this fails there."""
    from scenes.kit.compose import GAP

    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        t, dot, plot = scene.this_tag, scene.this_p, scene.q.plot
        assert t is not None and t.text == "thisP"
        gap = dot.get_left()[0] - t.get_right()[0]
        assert -1e-6 <= gap <= GAP.small, gap  # beside it, on its left
        assert t.get_bottom()[1] < dot.get_top()[1] and t.get_top()[1] > dot.get_bottom()[1]  # level with it
        axis_x = plot.to_point(plot.x_range[0], plot.y_range[0])[0]
        assert t.get_left()[0] > axis_x + GAP.tight - 1e-6  # clear of the y axis
        marks = [*scene.q.marks.dots, *scene.q.marks.zeros] if scene.q.marks.mode == "dots" else [scene.q.marks.band]
        assert all(m.get_left()[0] > t.get_right()[0] for m in marks)  # every trial right of the words


def test_the_outputs_are_named_by_the_equation_they_prove(final, corners):
    """Review round 10 (02 outputs): Attn(P X) = P·Attn(X), the property the clip proves, was written only at the close,
    never over the matrices it compares.  Now, once Y's rows have moved as the chips did, their name is that
    equation, at the heading's size, over Y, inside the frame and a section's gap from A's name (P A Pᵀ), bound to P Y
    and named in the description.  On the old code the name was "P Y", so this fails there."""
    from scenes.kit import HEADING
    from scenes.kit.compose import GAP

    scene, _ = final
    name = scene.p.Y_name
    assert EQUIVARIANT.typst in name.typst_code
    assert abs(name.height - math(EQUIVARIANT.typst, size=HEADING).height) < 1e-6  # at the heading's size
    rec = {r.key: r for r in scene.audit.records}["outputs"]
    eq = [it for it in rec.items if it.text == EQUIVARIANT.typst]
    assert eq and all(it.opacity > 0.9 for it in eq), [it.text for it in rec.items if it.kind == "text"]
    assert any(n == "PY" and t == EQUIVARIANT.typst for n, t in rec.named), rec.named
    (cap,) = [c for c in scene.captions if c.key == "outputs"]
    assert "Attn(P X) = P·Attn(X)" in cap.describe and "Attn(P X) = P·Attn(X)" in cap.text
    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        if not scene.data.weights or scene.data.bad_rows:
            continue
        name, p = scene.p.Y_name, scene.p
        assert name.get_bottom()[1] > p.Y_body.get_top()[1]  # over Y
        assert name.get_right()[0] <= scene.layout.content.right + 1e-6
        assert name.get_top()[1] <= scene.layout.content.top + 1e-6  # under the header's rule
        assert name.get_left()[0] >= p.A_name.get_right()[0] + GAP.section - 1e-6


def test_the_close_shows_its_result_large(final, corners):
    """Review (A−): the close's plot was a short strip (about 2.3 units of a 6-unit content area) under the equation
    and a separate verdict line.  Now the plot takes more than half the content area's height, and the verdict
    (✓ with its figure) sits on it, just above the staircase (review round 4: not decades above it), under the
    pass line.  On the old code the plot was 0.39 of the content's height, so this fails there."""
    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        q, content = scene.q_close, scene.layout.content
        assert q.plot.axes.height > 0.5 * content.height, q.plot.axes.height / content.height
        v = scene.close_verdict
        # on the plot: over the staircase, clear of its label (beside it or over it), under the pass line
        cl = q.curve_label
        assert q.curve.get_top()[1] < v.get_bottom()[1] and v.get_top()[1] < q.line.get_y()
        assert v.get_right()[0] < cl.get_left()[0] or cl.get_top()[1] < v.get_bottom()[1]


def test_the_peak_weight_is_printed_on_its_cell_and_travels_with_it(final):
    """Review (A−), 02 setup/rows/cols: the descriptions name "the brightest cell, weight {peak}", but the number was
    not on screen.  Now it is printed on its cell of A (at most 0.74 of the cell each way, in the colour that reads
    on it) and travels with the rows and the columns: at the end of each of those beats a text reading the
    caption's value sits inside the cell that holds the largest weight.  On the old code no such text was drawn,
    so this fails there."""
    scene, _ = final
    d = scene.data
    peak = scene.caption_values()["peak"]
    assert peak == fmt_measure(float(np.max(d.A)))
    recs = {r.key: r for r in scene.audit.records}
    for key, m in zip(("setup", "rows", "cols"), scene.maps):
        r, c = m.peak_at
        assert m.heat.values[r, c] == np.max(d.A)
        x, y, _ = m.slot(r, c)  # where that cell stood at the end of the beat (its grid slot; it may travel later)
        h = m.cell / 2
        cl, cb, cr, ct = x - h, y - h, x + h, y + h
        texts = [i for i in recs[key].items if i.kind == "text" and i.text.replace(" ", "") == str(peak) and i.opacity > 0.9]
        assert texts, key
        left, bottom, right, top = texts[0].box
        assert cl < left and right < cr and cb < bottom and top < ct, key
        assert right - left <= 0.74 * (cr - cl) and top - bottom <= 0.74 * (ct - cb), key
        assert m.peak_text.get_fill_color().to_hex() == m.color_scale.text_color(float(np.max(d.A))).to_hex()


def test_the_why_sums_fill_the_frame_when_values_are_short(corners):
    """Looking at the frames under the T6_d2 corner: with d = 2 each value column is two cells, and the "why" sums
    stood as two short lines with the lower part of the frame empty (0.49 of the content's height).  Now the cells of few value
    dimensions grow taller in proportion, and the two lines span more than 0.55 of the content's height.  On the
    old code they spanned 0.49, so this fails there."""
    seen = 0
    for name, res in corners.items():
        scene = getattr(res, "scene", None)
        if scene is None or scene.data.X.shape[1] > 2:
            continue
        top, bottom = scene.sums
        span = top.get_top()[1] - bottom.get_bottom()[1]
        assert span > 0.55 * scene.layout.content.height, (name, span / scene.layout.content.height)
        seen += 1
    assert seen


def test_this_ps_mark_stands_clear_of_the_y_axis(final, corners):
    """Review R1 (02 check): this P's mark sat at x = 0 on the plot's y axis, half hidden by it.  The plot now
    keeps as much room before trial 1 as after the last, so the whole mark is right of the axis (at every
    corner).  On the old code its centre was on the axis, so this fails there."""
    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        plot = scene.q.plot
        axis_x = plot.to_point(plot.x_range[0], plot.y_range[0])[0]  # the y axis's line
        assert scene.this_p.get_left()[0] > axis_x + 1e-3, (scene.this_p.get_left()[0], axis_x)


def _decade(plot, y: float) -> float:
    """The decade (log10 of the value) a height ``y`` on ``plot``'s log axis reads as."""
    lo, hi = plot.y_range
    y_lo, y_hi = plot.to_point(1, lo)[1], plot.to_point(1, hi)[1]
    a, b = np.log10(lo), np.log10(hi)
    return a + (y - y_lo) / (y_hi - y_lo) * (b - a)


def test_the_maximum_is_written_on_the_staircases_level(final, corners):
    """Review round 4 (02 running_max, close): the "max ≈ 4.7 × 10⁻¹⁶" label was printed at the height of 10⁻¹¹ and
    the close's ✓ verdict at 10⁻¹²: on a log axis height reads as value, decades above the one they name.  Now both
    sit just above the staircase's top step (their foot within a decade of the maximum), above every trial's mark,
    clear of the staircase's label and far under the pass line.  On the old code the label's foot read about 10⁻¹²
    (3.5 decades over the maximum), so this fails there."""
    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        d = scene.data
        top = np.log10(d.run.max_defect)
        for q, m in ((scene.q, scene.q.max_text), (scene.q_close, scene.close_verdict)):
            if not len(m) or m not in q.group.get_family():
                continue  # no label (the close carries none on its first plot) or the verdict over the plot
            foot = _decade(q.plot, m.get_bottom()[1])
            assert m.get_bottom()[1] > q.curve.get_top()[1]  # over the staircase and every mark under it
            assert _decade(q.plot, m.get_top()[1]) < np.log10(d.run.threshold) - 1  # far from the pass line
            cl = q.curve_label
            if m.get_right()[0] < cl.get_left()[0]:  # beside the staircase's label: within a decade of the maximum
                assert top <= foot < top + 1.0, (foot, top)
            else:  # where both do not fit side by side: right over that label, which sits on the staircase
                assert cl.get_top()[1] < m.get_bottom()[1] <= cl.get_top()[1] + 0.2 + 1e-6
    q = final[0].q_close
    assert final[0].close_verdict in q.group.get_family()  # the shipped close: the verdict on its plot


def test_this_ps_dot_stands_in_its_own_column_and_stays_through_the_trials(final, beats):
    """Review round 4 (02 check): this P's dot was yellow, like the running maximum and weight 1: it is in the
    text's colour.  Review round 8 (02 check, trials): it stood in trial 1's column, and when the trials came a
    different point (trial 1's, ≈ 2.4 × 10⁻¹⁶, 5 px lower) took that place while this P's dot vanished: a viewer
    watching x = 1 saw the point drop.  Now this P has a column of its own before trial 1, clear of trial 1's mark
    and of the y axis, and its dot stays, at the same place, through the trials and the running maximum (tagged
    "this P" where the words fit clear of the marks).  On the old code the dot sat at x = 1 and left as the trials
    came, so this fails there."""
    scene, frames = beats
    d = scene.data
    plot = scene.q.plot
    assert scene.this_p.get_fill_color().to_hex() != HIGHLIGHT.to_hex()
    assert scene.this_p.get_fill_color().to_hex() == FG.to_hex()
    trial1 = plot.to_point(1, plot.y_range[0])[0]
    axis_x = plot.to_point(plot.x_range[0], plot.y_range[0])[0]
    assert axis_x < scene.this_p.get_left()[0] and scene.this_p.get_right()[0] < trial1 - 0.115 - 0.1
    assert abs(scene.this_p.get_y() - plot.to_point(1, plot.y_clip(d.defect))[1]) < 1e-6  # at its own defect
    recs = {r.key: r for r in scene.audit.records}
    where = scene.this_p.get_center()[:2]
    for key in ("check", "trials", "running_max"):
        seen = [i for i in recs[key].items if i.opacity > 0.9 and abs((i.box[0] + i.box[2]) / 2 - where[0]) < 1e-3
                and abs((i.box[1] + i.box[3]) / 2 - where[1]) < 1e-3]
        assert seen, key  # the same dot, at the same place, at full strength
    assert scene.this_tag is not None  # the words "this P" beside it
    assert scene.this_tag.text == "thisP"  # Text.text drops spaces
    marks = list(scene.q.marks.dots)
    t = scene.this_tag
    assert not any(m.get_left()[0] < t.get_right()[0] and m.get_right()[0] > t.get_left()[0]
                   and m.get_bottom()[1] < t.get_top()[1] and m.get_top()[1] > t.get_bottom()[1] for m in marks)
    assert "yellow dot" not in " ".join(c.text for c in scene.captions)
    described = {c.key: c.describe for c in scene.captions if c.describe}
    assert "stays where it stood, before trial 1" in described["trials"]


def test_the_printed_weights_add_up_as_the_sum_says(final, corners):
    """Review round 4 (02 why): the weights of y₃ printed to 2 places summed to 0.99 under an "=": a viewer adding
    them saw the weights fail to sum to 1.  Now, where the printed weights do not add to 1, both lines say ≈ (the
    weights rounded), and the description says so.  On the old code the lines said "=" over 0.99, so this fails
    there."""
    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        d = scene.data
        w = d.A[d.why_token]
        for line in scene.sums:
            printed = [float(t.weight.values[0, 0]) for t in line.terms]
            assert printed == [float(x) for x in (w[j] for j in line.order)]
            shown = round(sum(round(x, line.decimals) for x in printed), line.decimals)
            rel = line.eq.typst_code.strip("$ ")
            assert rel == ("=" if shown == 1 else "approx"), (shown, rel)
    scene = final[0]
    assert scene.printed_sum(scene.data.A[scene.data.why_token], 2) != 1  # the shipped row: 0.99
    assert scene.sums[0].eq.typst_code.strip("$ ") == "approx"
    assert f"{scene.caption_values()['relation']}" == "is ≈, its weights rounded,"


def test_rounding_says_the_terms_are_the_same_up_to_rounding(final):
    """Review round 4 (02 rounding): "adding the same numbers in another order" overstated it: the weights are
    recomputed for P X, so the terms too are the same only up to rounding.  On the old code the sentence said "the
    same numbers", so this fails there."""
    texts = " ".join(c.text for c in final[0].captions)
    assert "same terms, up to rounding, summed in another order" in texts
    assert "same numbers" not in texts


def test_As_formula_is_centred_over_A_and_apart_from_Xs_name(final, corners):
    """Review round 4 (02 setup, permute_input): "X" and "A = softmax(QKᵀ/√d)" sat on one line, a gap apart, and read
    as one expression "X A = softmax(…)" (then "PX A = …").  Now A's name is centred over A's map and a section's
    gap from X's name and from P X's.  On the old code the gap was about 0.6 units, so this fails there."""
    from scenes.kit.compose import GAP
    from scenes.kit.notation import N
    from scenes.kit import HEADING

    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        a, p = scene.a_formula, scene.p
        assert abs(a.get_x() - scene.maps[0].heat.get_x()) < 1e-6
        px = math(f"{N.permutation.math} {N.inputs.math}", size=HEADING).width
        assert a.get_left()[0] >= p.X_col.get_x() + px / 2 + GAP.section - 1e-6
