"""Clip 02 PermutationEquivariance: data binding, travelled cells, colour scales and bars, the trial
marks (dots, or min-max columns for many trials; exact zeros on the floor), the running maximum,
final-frame pixels, printed figures, captions, and the layout audit over the config matrix."""

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
)
from mathcore import attention_fn, equivariance_defects, lecture_inputs, load_config, self_attention
from mathcore.equivariance import THRESHOLD, equivariance_defect
from scenes.equivariance import PermutationEquivariance, _tick2
from scenes.kit import BG, BLUE, ColorScale, Plot, fmt_measure, fmt_value
from scenes.kit.equivariance_widgets import TrialMarks, nice_count_ticks, staircase


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PermutationEquivariance)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(PermutationEquivariance, tmp_path_factory)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PermutationEquivariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    perm = list(cfg.perm)
    Y, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
    Y_PX, A_PX = self_attention(li.X[perm], li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(d.X, li.X)
    np.testing.assert_array_equal(d.A, A)
    np.testing.assert_array_equal(d.Y, Y)
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
    # the cell that held A[perm[i], perm[j]] now sits in grid slot (i, j), with its colour
    for i in range(T):
        for j in range(T):
            cell = scene.A_map.cells[perm[i]][perm[j]]
            np.testing.assert_allclose(cell.get_center(), scene.A_grid[i, j], atol=1e-6)
            want = scene.scale.rgb(d.A_moved[i, j])
            np.testing.assert_allclose(cell.get_fill_color().to_rgb(), want, atol=1e-6)
    # and the input tokens and output rows moved by the same P
    np.testing.assert_array_equal(scene.X_col.row_order, perm)
    np.testing.assert_array_equal(scene.Y_mat.row_order, perm)
    assert scene.y_numbers  # the shipped config shows Y's numbers
    printed = [[t.text for t in scene.Y_mat.entries[k]] for k in scene.Y_mat.row_order]
    assert printed == [[fmt_value(v, 2) for v in row] for row in d.Y_PX]  # P·Y prints as Attn(PX)


def test_weights_are_coloured_on_their_own_range_with_a_colour_bar(final):
    scene, _ = final
    d = scene.data
    # per-purpose normalisation: 0 .. the largest weight (2 significant digits, rounded up), not 0 .. 1
    scale = ColorScale.for_weights(d.cmap, d.A)
    assert scene.scale.norm.vmin == 0.0 and scene.scale.norm.vmax == scale.norm.vmax
    assert d.A.max() <= scene.scale.norm.vmax < 1.0
    # the hand-over heatmap is Attn(PX)'s own weights, painted by that scale
    np.testing.assert_array_equal(scene.A_final.values, d.A_PX)
    T = d.A_PX.shape[0]
    for i in range(T):
        for j in range(T):
            np.testing.assert_allclose(scene.A_final.cell(i, j).get_fill_color().to_rgb(),
                                       scale.rgb(d.A_PX[i, j]), atol=1e-6)
    # the colour bar covers exactly that range, and its ticks say so
    bar = scene.bar
    assert bar.color_scale is scene.scale
    np.testing.assert_allclose(bar.values[[0, -1]], [0.0 + (bar.values[1] - bar.values[0]) / 2,
                                                     scale.norm.vmax - (bar.values[1] - bar.values[0]) / 2])
    assert [t.text for t in bar.tick_labels] == [_tick2(v) for v in scene.bar_ticks]
    assert scene.bar_ticks[-1] == scale.norm.vmax
    for stripe, v in zip(bar.stripes, bar.values):
        np.testing.assert_allclose(stripe.get_fill_color().to_rgb(), scale.rgb(v), atol=1e-6)
    # the bar stands beside A, as tall as A
    assert abs(bar.frame.height - scene.A_map.height) < 1e-6
    assert bar.get_left()[0] > scene.A_map.get_right()[0]


def test_plot_draws_every_trial_and_the_running_max(final):
    scene, frame = final
    run = scene.data.run
    plot = scene.plot
    marks = scene.marks
    assert marks.mode == "dots"  # 100 trials: one dot each
    positive = np.flatnonzero(run.defects > 0)
    assert len(scene.trial_dots) == len(positive)
    for dot, k in zip(scene.trial_dots, positive):
        np.testing.assert_allclose(dot.get_center(), plot.to_point(k + 1, run.defects[k]), atol=1e-9)
    assert len(marks.zeros) == scene.data.zero_trials
    # the running maximum: a staircase whose height at every trial is the measured running max
    _assert_staircase(plot, scene.max_curve, run.running_max)
    # the pass line is drawn at 1e-10, and every mark lies below it
    assert abs(scene.line.get_center()[1] - plot.to_point(1, THRESHOLD)[1]) < 1e-9
    assert max(dot.get_center()[1] for dot in scene.trial_dots) < scene.line.get_center()[1]
    ink = dominant_ink(scene, frame, scene.line_label, BG)
    assert np.abs(ink - rgb255(scene.line_label.color)).max() <= 40
    # the dots are there in the final frame, in their colour
    hits = [np.abs(pixel(scene, frame, dot.get_center()) - rgb255(BLUE)).max() <= 60 for dot in scene.trial_dots]
    assert np.mean(hits) > 0.5


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
    assert scene.max_value.text == fmt_measure(d.run.max_defect)
    assert scene.defect_value.text == fmt_measure(d.defect)
    assert f"over{len(d.run.defects)}P" in scene.max_text[0].text  # Text.text drops spaces
    assert scene.max_value in scene.mobjects or any(scene.max_value in m.get_family() for m in scene.mobjects)
    assert dominant_ink(scene, frame, scene.max_value, BG).tolist() != rgb255(BG).tolist()
    texts = " ".join(c.text for c in scene.captions)
    assert fmt_measure(d.defect) in texts and fmt_measure(d.run.max_defect) in texts
    assert "\u22120.0" not in texts and "-0.0" not in texts


def test_exact_zeros_are_counted_and_marked_under_a_corner_config(corners):
    """The min corner has trials whose defect is exactly 0.0: the clip marks and counts them."""
    res = corners["min"]
    scene = res.scene
    d = scene.data
    assert d.zero_trials > 0
    assert len(scene.marks.zeros) == d.zero_trials
    assert f"{d.zero_trials}of{len(d.run.defects)}P" in "".join(t.text for t in scene.zero_note[1])
    assert any(f"{d.zero_trials} of them give exactly 0.0" in c.text for c in scene.captions)


def test_wide_outputs_turn_into_coloured_cells_with_their_own_colour_bar(corners):
    """At d = 6 the numbers of Y would squeeze A: Y is drawn as cells on a signed scale instead."""
    scene = corners["max"].scene
    d = scene.data
    assert not scene.y_numbers
    np.testing.assert_array_equal(scene.Y_mat.values, d.Y)
    scale = ColorScale.symmetric(d.cmap_signed, np.concatenate([d.Y.ravel(), d.Y_PX.ravel()]))
    assert (scene.y_scale.norm.vmin, scene.y_scale.norm.vmax) == (scale.norm.vmin, scale.norm.vmax)
    np.testing.assert_array_equal(scene.Y_mat.row_order, d.perm)
    for slot, k in enumerate(scene.Y_mat.row_order):  # slot i shows row perm[i] of Y, i.e. row i of Attn(PX)
        row = scene.Y_mat.rows[int(k)]
        for j, cell in enumerate(list(row)[:-1]):
            np.testing.assert_allclose(cell.get_fill_color().to_rgb(), scale.rgb(d.Y_PX[slot, j]), atol=1e-6)
    assert abs(scene.y_bar.frame.height - scene.Y_mat.heat.height) < 1e-6
    assert scene.marks.mode == "band"  # 10 000 trials


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)
    for name, res in corners.items():
        assert 20 <= res.scene.time <= 75, (name, res.scene.time)
