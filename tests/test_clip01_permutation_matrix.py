"""Clip 01 PermutationMatrix: data binding, the pixels of the product and of Pᵀ P X, captions, config edits,
lecture language (π as math, the verdicts in the deck's style, labels bound to their arrays), the claims each
sentence makes against the picture (issue 33), the closing beat, and the still drawn from the clip's own
description."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    dominant_ink,
    pixel,
    rgb255,
    shipped_audit,
)
from mathcore import check_permutation, lecture_inputs, load_config, permutation_matrix
from scenes.audit.beats import DIMMED, signature
from scenes.audit.truth import truth_problems
from scenes.clips.c01_permutation_matrix import PermutationMatrix
from scenes.figures import designed_stills
from scenes.kit import BG, VERIFIED, fmt_value, token_color
from scenes.kit.layout import min_xheight_px
from scenes.kit.scales import scale
from scenes.stills.spec import HeatmapPanel

SCENE = PermutationMatrix


FRAME = (14.222222222222221, 8.0)


@pytest.fixture(scope="module")
def beats():
    """The picture at the end of every beat."""
    res = shipped_audit(PermutationMatrix)
    res.scene.frame_size = FRAME
    return res.scene, dict(res.beat_frames)


def recs(scene) -> dict:
    return {r.key: r for r in scene.audit.records}


def area(mob) -> float:
    return mob.width * mob.height


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PermutationMatrix.build_data(cfg)
    X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
    P = permutation_matrix(cfg.perm)
    np.testing.assert_array_equal(d.X, X)
    np.testing.assert_array_equal(d.perm, cfg.perm)
    np.testing.assert_array_equal(d.P, P)
    np.testing.assert_array_equal(d.PX, X[list(cfg.perm)])
    np.testing.assert_array_equal(d.PT, P.T)
    np.testing.assert_array_equal(d.undone, P.T @ (P @ X))
    chk = check_permutation(X, cfg.perm)
    assert d.gather_equal is chk.matmul_equals_gather is True
    assert d.orthogonality_defect == chk.orthogonality_defect == 0.0
    assert d.gather_defect == float(np.max(np.abs(P @ X - X[list(cfg.perm)]))) == 0.0
    assert d.transpose_defect == float(np.max(np.abs(P.T @ P - np.eye(cfg.T)))) == 0.0


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("perm = [2, 0, 4, 1, 5, 3]", "perm = [5, 4, 3, 2, 1, 0]").replace("seed = 7", "seed = 8")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    cfg = load_config(p)
    d = PermutationMatrix.build_data(cfg)
    np.testing.assert_array_equal(d.P, np.eye(6)[::-1])
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 8).X)


def test_widgets_draw_the_data_and_print_it(final):
    scene, _ = final
    d = scene.data
    np.testing.assert_array_equal(scene.P_map.values, d.P)
    np.testing.assert_array_equal(scene.PT_map.values, d.P.T)
    np.testing.assert_array_equal(scene.X_map.heat.values, d.X)
    np.testing.assert_array_equal(scene.PX_map.heat.values, d.PX)
    np.testing.assert_array_equal(scene.back_map.heat.values, d.undone)
    for m in (scene.X_map, scene.PX_map, scene.back_map):
        assert [t.text for t in m.heat.labels] == [fmt_value(v, 1).replace("\u2212", "−") for v in m.heat.values.ravel()]
    np.testing.assert_array_equal(np.round(d.X, 1), d.X)  # the printed value is the exact value


def test_every_grid_is_painted_by_the_decks_scale_of_its_quantity(final):
    """X, P X and Pᵀ P X on the deck's "inputs" scale, P and Pᵀ on its "weights" scale (issue 33: one scale a
    quantity across the deck), in the clip and in its still."""
    scene, _ = final
    cfg = scene.cfg
    for m in (scene.X_map.heat, scene.PX_map.heat, scene.back_map.heat, scene.X_alone.heat):
        assert m.color_scale is scale("inputs", cfg)
    for m in (scene.P_map, scene.PT_map):
        assert m.color_scale is scale("weights", cfg)
    still = designed_stills("PermutationMatrix", scene.data, cfg)[0]
    assert still.panels["P"].scale is scale("weights", cfg)
    assert still.panels["X"].scale is still.panels["Y"].scale is scale("inputs", cfg)


def test_the_product_colours_P_by_its_values(beats):
    scene, frames = beats
    frame = frames["product"]
    s = scale("weights", scene.cfg)
    T = scene.data.P.shape[0]
    grid = scene.PT_map  # P's grid (P's own cells were flipped into Pᵀ's places later on)
    for i in range(T):
        for j in range(T):
            got = pixel(scene, frame, grid.cell(i, j).get_corner(np.array([-1, 1, 0])) * 0.8
                        + grid.cell_center(i, j) * 0.2)  # beside its digit
            want = rgb255(s.rgb(scene.data.P[i, j]))
            assert np.abs(got - want).max() <= 6, (i, j, got, want)


def test_the_product_rows_sit_where_the_permutation_says(beats):
    scene, frames = beats
    frame = frames["product"]
    d = scene.data
    s = scale("inputs", scene.cfg)
    px = scene.PX_map.copy().shift(scene.back_map.heat.get_center() - scene.PX_map.heat.get_center())  # where it stood
    for slot, src in enumerate(d.perm):
        # the name in slot m is token π(m), in that token's colour, level with X's row m
        ink = dominant_ink(scene, frame, px.names[slot], BG)
        assert np.abs(ink - rgb255(token_color(int(src)))).max() <= 40, (slot, src, ink)
        assert abs(px.heat.cell_center(slot, 0)[1] - scene.X_map.heat.cell_center(slot, 0)[1]) < 1e-6
        # and its cells are the colours of row π(m) of X
        cell = px.heat.cell(slot, 0)
        got = pixel(scene, frame, cell.get_corner(np.array([-1, 1, 0])) * 0.85 + cell.get_center() * 0.15)
        assert np.abs(got - rgb255(s.rgb(d.X[int(src), 0]))).max() <= 6, (slot, got)


def test_P_transpose_moves_every_row_back(beats):
    """Issue 33, 01 `check_orthogonal`: "Pᵀ moves every row back" was said while nothing moved.  Now a beat
    says it while Pᵀ stands in P's place and P X's rows have flown back: the grid on the right is Pᵀ (P X),
    computed by mathcore, row j named x_j in slot j and painted like row j of X.  On the old main there was no
    Pᵀ and no Pᵀ P X on screen at any beat, so this fails there."""
    scene, frames = beats
    d = scene.data
    assert "back" in scene._narration["undo_rows"] and "Pᵀ" in scene._narration["undo_rows"]
    rec = recs(scene)["undo_rows"]
    assert {q for q, _ in rec.shown} >= {"PT", "PX", "undone"}
    np.testing.assert_array_equal(dict(rec.shown)["undone"], d.X)  # Pᵀ P X is X, bit for bit
    np.testing.assert_array_equal(dict(rec.shown)["PT"], d.P.T)
    frame = frames["undo_rows"]
    s = scale("inputs", scene.cfg)
    back = scene.back_map
    for j in range(d.X.shape[0]):
        assert back.rows[j] == j
        ink = dominant_ink(scene, frame, back.names[j], BG)
        assert np.abs(ink - rgb255(token_color(j))).max() <= 40, j
        for c in range(d.X.shape[1]):
            cell = back.heat.cell(j, c)
            got = pixel(scene, frame, cell.get_corner(np.array([-1, 1, 0])) * 0.85 + cell.get_center() * 0.15)
            assert np.abs(got - rgb255(s.rgb(d.X[j, c]))).max() <= 6, (j, c)
    # the rows moved: at the start of the beat the right grid was empty outlines
    assert rec.start != signature(rec)
    # and P X stands where X stood: Pᵀ · P X = X reads left to right
    assert scene.PT_map.get_right()[0] < scene.PX_map.heat.get_left()[0] < scene.eq.get_left()[0] < back.heat.get_left()[0]


def test_the_verdicts_are_the_decks_and_measured(final):
    scene, frame = final
    d = scene.data
    for v, value, src in ((scene.check_gather, d.gather_defect, "x_(pi(m))"), (scene.check_undo, d.transpose_defect, "P^T P - I")):
        assert getattr(v, "_verdict", False) and v.passed is True
        assert v.figure.value == value == 0.0 and v.figure.exact
        assert src in v.formula
        assert v.check.get_stroke_color().to_hex() == VERIFIED.to_hex()
        assert v.value.figure.text == "exactly 0" if hasattr(v.value, "figure") else True


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert [c.key for c in caps] == ["title", "rows", "perm", "build", "product", "check_gather", "undo", "undo_rows",
                                    "check_orthogonal", "close"]


def test_the_truth_checks_hold_under_the_shipped_config(final):
    """Every claim shown, one subject a frame, the deck's scales, colours and verdicts: zero findings."""
    scene, _ = final
    assert not truth_problems(scene.audit.records)
    assert PermutationMatrix.STAGED


def test_every_sentence_names_what_is_on_screen(final):
    """Issue 33: descriptions name elements through claims; T and d are drawn (the braces' labels)."""
    scene, _ = final
    r = recs(scene)
    T, dm = scene.data.X.shape
    texts = {i.text for i in r["rows"].items if i.kind == "text"}
    assert f"{T} tokens" in {t.replace(" ", " ") for t in texts} or any(f"{T}" in t and "tokens" in t for t in texts)
    for key in ("rows", "perm", "build", "product", "undo", "undo_rows", "close"):
        assert r[key].describe, key
        assert [c for c in r[key].claims if c.where == "describe" and c.bound and c.visible], key


def test_P_is_built_in_place_with_its_numbers_and_indices(final):
    scene, _ = final
    pm, d = scene.PT_map, scene.data  # P's grid (P's own cells were flipped into Pᵀ's places later on)
    T = d.P.shape[0]
    assert [t.text for t in scene.P_map.labels] == [fmt_value(v, 0) for v in d.P.ravel()]
    rec = recs(scene)["build"]
    digits = [i for i in rec.items if i.kind == "text" and i.name.strip("'") in {"0", "1"} and i.opacity > 0.99]
    assert len(digits) >= T * T and min(i.xheight_px for i in digits) >= 8.5
    # P's rows line up with X's and P X's
    for i in range(T):
        assert abs(pm.cell_center(i, 0)[1] - scene.X_map.heat.cell_center(i, 0)[1]) < 1e-6
        assert abs(pm.cell_center(i, 0)[1] - scene.PX_map.heat.cell_center(i, 0)[1]) < 1e-6


def full_box(rec) -> np.ndarray:
    boxes = np.array([i.box for i in rec.items if not i.header and i.opacity > 0.9])
    return np.array([boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max()])


def test_the_product_spans_the_frame_and_stays_legible(final):
    scene, _ = final
    content = scene.layout.content
    box = full_box(recs(scene)["product"])
    assert box[2] - box[0] >= 0.85 * content.width and box[3] - box[1] >= 0.75 * content.height
    assert min_xheight_px(scene.product) >= 8.5
    # P X stood right of "=" (the undo slid it into X's place, where X stood left of "=")
    assert scene.X_name.get_x() < scene.eq.get_left()[0] < scene.eq.get_right()[0] < scene.back_map.name_edge()


def test_X_alone_is_large_and_braced_with_T_and_d(final):
    scene, _ = final
    T, dm = scene.data.X.shape
    content = scene.layout.content
    cells = np.array([i.box for i in recs(scene)["rows"].items if i.kind == "graphic" and i.filled and i.data])
    grid = (cells[:, 2].max() - cells[:, 0].min()) * (cells[:, 3].max() - cells[:, 1].min())
    assert grid >= 0.35 * content.width * content.height
    assert scene.T_label.text.replace(" ", "") == f"{T}tokens" and scene.d_label.text.replace(" ", "") == f"{dm}numberseach"


def test_every_corner_keeps_the_product_in_order_legible_and_timed(corners):
    for name, res in corners.items():
        sc = res.scene
        assert min_xheight_px(sc.product) >= 8.5, name
        assert sc.PT_map.get_right()[0] < sc.X_map.name_edge(), name
        assert sc.eq.get_right()[0] < sc.back_map.name_edge(), name
        for slot, src in enumerate(sc.data.perm):  # slot m of P X holds token π(m), level with its row m
            assert sc.PX_map.names[slot].get_color() == token_color(int(src)), name
            assert abs(sc.PX_map.heat.cell_center(slot, 0)[1] - sc.back_map.heat.cell_center(slot, 0)[1]) < 1e-6, name
        assert not truth_problems(res.records), name


# ------------------------------------------------------------------ lecture language and the takeaway
def test_pi_is_written_as_math_and_each_entry_sits_under_its_row(final):
    scene, _ = final
    d, order = scene.data, scene.order
    src = order.line.typst_code
    assert src.strip("$ ").startswith("pi =") and "perm" not in src
    assert [len(e) for e in order.entries] == [1] * len(d.perm)  # one glyph per entry (T <= 6)
    assert [t.text for t in order.slots] == [str(m) for m in range(len(d.perm))]
    for e, slot in zip(order.entries, order.slots):
        assert abs(e[0].get_x() - slot.get_x()) < 0.05 and slot.get_bottom()[1] > e[0].get_top()[1]
    for rec in scene.audit.records:  # no notebook name on screen at any beat
        assert not [i for i in rec.items if i.kind == "text" and "perm" in (i.text or i.name)], rec.key


def test_labels_name_the_arrays_shown_with_them(final):
    scene, _ = final
    r = recs(scene)
    assert (scene.X_name._names, scene.P_name._names, scene.PX_name._names) == ("X", "P", "PX")
    assert {q for q, _ in r["rows"].named} == {q for q, _ in r["rows"].shown} == {"X"}
    for key in ("product", "check_gather"):
        assert {q for q, _ in r[key].named} == {q for q, _ in r[key].shown} == {"P", "X", "PX"}, key
    assert {q for q, _ in r["undo_rows"].named} == {q for q, _ in r["undo_rows"].shown} == {"PT", "PX", "undone"}
    assert {q for q, _ in r["check_orthogonal"].named} == {q for q, _ in r["check_orthogonal"].shown} == {"PT", "P", "PTP"}
    assert {q for q, _ in r["close"].named} == {q for q, _ in r["close"].shown} == {"X", "PX", "PTP"}
    for rec in r.values():
        for q, vals in rec.shown:
            np.testing.assert_array_equal(vals, scene.quantities()[q])


def test_every_beat_changes_the_picture(final):
    scene, _ = final
    for rec in scene.audit.records:
        assert rec.start is not None and rec.start != signature(rec), rec.key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_P_transpose_P_is_drawn_as_the_identity_under_its_verdict(beats):
    """Issue 33: "So Pᵀ P is the identity, exactly" was said over Pᵀ, P X and X, with Pᵀ P nowhere on screen.  Now
    the beat draws Pᵀ, P and their product, computed by mathcore: every cell of the product is I's (1 on the
    diagonal, 0 elsewhere), painted so, and named I; the verdict max |Pᵀ P − I| = 0 stands over it.  On the old
    main there was no Pᵀ P in the clip's data, so this fails there."""
    scene, frames = beats
    d, o = scene.data, scene.ortho
    T = d.P.shape[0]
    np.testing.assert_array_equal(d.PTP, d.P.T @ d.P)
    np.testing.assert_array_equal(d.PTP, np.eye(T))  # what the sentence claims
    rec = recs(scene)["check_orthogonal"]
    assert "identity" in scene._narration["check_orthogonal"]
    shown = dict(rec.shown)
    np.testing.assert_array_equal(shown["PTP"], np.eye(T))
    np.testing.assert_array_equal(shown["PT"], d.P.T)
    np.testing.assert_array_equal(shown["P"], d.P)
    # the picture is the equation Pᵀ · P = I, left to right, each grid named
    # (I's name stays where it stood: the close moves the grid itself to its last place)
    assert o.PT.get_right()[0] < o.P.get_left()[0] < o.P.get_right()[0] < o.eq.get_left()[0] < o.I_name.get_left()[0]
    assert [m.typst_code.strip("$ ") for m in (o.PT_name, o.P_name, o.I_name)] == ["P^T", "P", "I"]
    s = scale("weights", scene.cfg)
    frame = frames["check_orthogonal"]
    grid = o.I_place  # where the product stood in this beat
    for i in range(T):
        for j in range(T):
            cell = grid.cell(i, j)
            got = pixel(scene, frame, cell.get_corner(np.array([-1, 1, 0])) * 0.8 + cell.get_center() * 0.2)
            assert np.abs(got - rgb255(s.rgb(float(i == j)))).max() <= 6, (i, j)
    # the verdict that measures it is on screen, over the product
    assert scene.check_undo.figure.value == 0.0 and scene.check_undo.passed
    verdicts = [i for i in rec.items if i.kind == "text" and i.is_math and "P^T P - I" in i.text and i.opacity > DIMMED]
    assert verdicts and all(i.verdict for i in verdicts)
    assert rec.start != signature(rec)


def test_the_clip_ends_on_P_X_and_P_transpose_P_each_over_its_verdict(beats):
    """The close shows the two results that prove the property over the deck's verdicts that measure them:
    X, an arrow P, and P X (review RD, round 3: with X gone, "P only moves rows" had no before and after), its
    rows named x_π(m), over max_m |(P X)_m − x_π(m)| = 0; Pᵀ P = I over max |Pᵀ P − I| = 0; the rest gone."""
    scene, frames = beats
    d, f = scene.data, scene.final
    close = recs(scene)["close"]
    visible = [i for i in close.items if not i.header and i.opacity > DIMMED]
    np.testing.assert_array_equal(dict(close.shown)["PX"], d.PX)
    np.testing.assert_array_equal(dict(close.shown)["X"], d.X)
    np.testing.assert_array_equal(dict(close.shown)["PTP"], np.eye(d.P.shape[0]))
    words = {i.name.strip("'") for i in visible if i.kind == "text" and not i.is_math}
    cells = {t.text for t in f.PX.heat.labels} | {t.text for t in scene.ortho.I.labels}
    assert words <= {"exact"} | cells, words  # the verdicts' marks, P X's numbers and Pᵀ P's 0s and 1s
    ordered = [f"x{k}" for k in d.perm]
    assert [n.typst_code.replace(" ", "").replace("_", "").strip("$") for n in f.PX.names] == ordered
    T = d.X.shape[0]
    assert [n.typst_code.replace(" ", "").replace("_", "").strip("$") for n in f.X.names] == [f"x{k}" for k in range(T)]
    # X, the arrow, P X in a row, left to right, level with Pᵀ P; the verdicts under all three grids
    assert f.X.heat.get_right()[0] < f.arrow.get_left()[0] < f.arrow.get_right()[0] < f.PX.heat.get_left()[0]
    assert f.PX.heat.get_right()[0] < scene.ortho.I.get_left()[0]
    assert abs(f.PX.heat.get_y() - scene.ortho.I.get_y()) < 1e-6 and abs(f.X.heat.get_y() - f.PX.heat.get_y()) < 1e-6
    g, u = scene.check_gather, scene.check_undo
    lowest = min(f.X.heat.get_bottom()[1], f.PX.heat.get_bottom()[1], scene.ortho.I.get_bottom()[1])
    assert g.get_top()[1] < lowest and u.get_top()[1] < lowest
    assert id(f.arrow) in {i.mid for i in visible}
    # the pixels: P X's rows are X's rows π(m), Pᵀ P the identity
    s_in, s_w = scale("inputs", scene.cfg), scale("weights", scene.cfg)
    frame = frames["close"]
    for m, src in enumerate(d.perm):
        cell = f.PX.heat.cell(m, 0)
        got = pixel(scene, frame, cell.get_corner(np.array([-1, 1, 0])) * 0.85 + cell.get_center() * 0.15)
        assert np.abs(got - rgb255(s_in.rgb(d.X[int(src), 0]))).max() <= 6, m
        cell = scene.ortho.I.cell(m, m)
        got = pixel(scene, frame, cell.get_corner(np.array([-1, 1, 0])) * 0.85 + cell.get_center() * 0.15)
        assert np.abs(got - rgb255(s_w.rgb(1.0))).max() <= 6, m
    # large: the two panels span most of the content's width
    content = scene.layout.content
    assert f.width >= 0.6 * content.width
    # nothing else at full strength: the two grids (cells, numbers, row names), their names, the two verdicts
    arrow = {id(m) for m in f.arrow.get_family()}
    graphics = [i for i in visible if i.kind == "graphic" and not i.data and not i.verdict and i.mid not in arrow]
    assert not graphics, [i.name for i in graphics]
    # and X's pixels are X: row m of X is x_m
    for m in range(T):
        cell = f.X.heat.cell(m, 0)
        got = pixel(scene, frame, cell.get_corner(np.array([-1, 1, 0])) * 0.85 + cell.get_center() * 0.15)
        assert np.abs(got - rgb255(s_in.rgb(d.X[m, 0]))).max() <= 6, m


def test_the_still_and_the_clip_draw_one_description(final):
    """Issue 20: the still paints P, X and P X with the clip's own scales and prints the clip's verdicts."""
    scene, _ = final
    d, cfg = scene.data, scene.cfg
    still = designed_stills("PermutationMatrix", d, cfg)[0]
    P, X, PX = still.panels["P"], still.panels["X"], still.panels["Y"]
    assert all(isinstance(p, HeatmapPanel) for p in (P, X, PX))
    np.testing.assert_array_equal(P.values, d.P)
    np.testing.assert_array_equal(X.values, d.X)
    np.testing.assert_array_equal(PX.values, d.PX)
    assert X.yticks == tuple(f"$x_{{{k}}}$" for k in range(d.X.shape[0]))
    assert PX.yticks == tuple(f"$x_{{{int(k)}}}$" for k in d.perm)  # the same row names as the clip's P X
    pic = d.picture
    assert still.proof == (pic.gather.still_line, pic.undo.still_line)
    assert all(line.startswith("\u2713 $") and line.endswith("= 0$  exact") for line in still.proof)
    assert scene.check_gather.formula == pic.gather.math and scene.check_undo.formula == pic.undo.math
    assert pic.order_text in still.subtitle and "perm" not in still.subtitle
