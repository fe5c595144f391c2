"""Clip 01 PermutationMatrix: data binding, the pixels of the product and the takeaway, captions, config
edits, lecture language (π as math, the measured figures typeset, labels bound to their arrays), the
closing beat, and the still drawn from the clip's own description."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    shipped_audit,
    assert_captions_readable,
    corner_results,
    dominant_ink,
    pixel,
    render_final_frame,
    rgb255,
)
from mathcore import check_permutation, lecture_inputs, load_config, permutation_matrix
from scenes.figures import designed_stills
from scenes.kit import BG, VERIFIED, ColorScale, fmt_measure, fmt_value, token_color
from scenes.audit.beats import DIMMED, audit_clip, signature
from scenes.kit.layout import min_xheight_px
from scenes.stills.spec import DrawnPanel, HeatmapPanel
from scenes.clips.c01_permutation_matrix import PermutationMatrix


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PermutationMatrix)


@pytest.fixture(scope="module")
def beats():
    """The picture at the end of every beat (the product is read before the close fades it)."""
    res = shipped_audit(PermutationMatrix)
    return res.scene, dict(res.beat_frames)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    return corner_results(PermutationMatrix, tmp_path_factory)


def area(mob) -> float:
    return mob.width * mob.height


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PermutationMatrix.build_data(cfg)
    X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
    np.testing.assert_array_equal(d.X, X)
    np.testing.assert_array_equal(d.perm, cfg.perm)
    np.testing.assert_array_equal(d.P, permutation_matrix(cfg.perm))
    np.testing.assert_array_equal(d.PX, X[list(cfg.perm)])
    chk = check_permutation(X, cfg.perm)
    assert d.gather_equal is chk.matmul_equals_gather is True
    assert d.orthogonality_defect == chk.orthogonality_defect == 0.0


def test_a_config_edit_reaches_the_clip(tmp_path, monkeypatch):
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
    np.testing.assert_array_equal(scene.X_mat.values, d.X)
    np.testing.assert_array_equal(scene.PX_mat.values, d.PX)
    for mat in (scene.X_mat, scene.PX_mat):
        printed = [[t.text for t in row] for row in mat.entries]
        assert printed == [[fmt_value(v, 1) for v in row] for row in mat.values]
    # the printed value is the exact value (inputs are rounded to the printed decimals)
    np.testing.assert_array_equal(np.round(d.X, 1), d.X)


def test_the_product_colours_P_by_its_values(beats):
    scene, frames = beats
    scene.frame_size = (14.222222222222221, 8.0)
    frame = frames["check_orthogonal"]
    scale = ColorScale(scene.data.cmap, 0.0, 1.0)
    T = scene.data.P.shape[0]
    for i in range(T):
        for j in range(T):
            got = pixel(scene, frame, scene.P_map.cell_center(i, j))
            want = rgb255(scale.rgb(scene.data.P[i, j]))
            assert np.abs(got - want).max() <= 4, (i, j, got, want)


def test_the_product_rows_sit_where_the_permutation_says(beats):
    scene, frames = beats
    scene.frame_size = (14.222222222222221, 8.0)
    frame = frames["check_orthogonal"]
    perm = scene.data.perm
    for slot, src in enumerate(perm):
        row = scene.PX_mat.rows[slot]
        # on screen at the end of the product (the close fades it): the label x_perm[i] at slot i
        rec = {r.key: r for r in scene.audit_records}["check_orthogonal"]
        c = row[1].get_center()
        assert [i for i in rec.items if i.kind == "text" and i.opacity > 0.99 and f"x_{int(src)}" in i.text
                and abs((i.box[0] + i.box[2]) / 2 - c[0]) < 1e-3 and abs((i.box[1] + i.box[3]) / 2 - c[1]) < 1e-3]
        # the label in slot i is token perm[i], drawn in that token's colour
        ink = dominant_ink(scene, frame, scene.PX_mat.row_labels[slot], BG)
        assert np.abs(ink - rgb255(token_color(int(src)))).max() <= 40, (slot, src, ink)
        # and it sits at slot i's height, level with X's row i
        assert abs(row[0].get_center()[1] - scene.PX_mat.slot_center(slot)[1]) < 1e-6
        assert abs(row[0].get_center()[1] - scene.X_mat.rows[slot][0].get_center()[1]) < 1e-6


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    orth, gather = scene.check_orth, scene.check_gather
    # max |P Pᵀ − I| is exactly 0: typeset "0" in the formula, with the word "exact" in the verified colour
    assert orth.figure.text == fmt_measure(d.orthogonality_defect) == "exactly 0" and orth.figure.exact
    formula, mark = orth
    assert "P P^T = I" in formula.typst_code and formula.typst_code.strip("$ ").endswith("= 0")
    assert mark.text == "exact" and mark.get_fill_color().to_hex() == VERIFIED.to_hex()
    assert dominant_ink(scene, frame, mark, BG).tolist() != rgb255(BG).tolist()
    # (P X)_m = x_π(m), and its verdict says what np.array_equal(P @ X, X[perm]) said
    assert "x_(pi(m))" in gather[0].typst_code
    assert gather[1].text.endswith("bitforbit") == d.gather_equal
    assert gather[1].get_fill_color().to_hex() == VERIFIED.to_hex()


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 7
    assert_captions_readable(caps)
    assert [c.start for c in caps] == sorted(c.start for c in caps)


def test_P_is_built_large_with_its_numbers_and_indices(final):
    scene, _ = final
    pb, d = scene.P_build, scene.data
    T = d.P.shape[0]
    np.testing.assert_array_equal(pb.map.values, d.P)
    assert [t.text for t in pb.map.labels] == [fmt_value(v, 0) for v in d.P.ravel()]
    assert [t.text for t in pb.cols] == [str(j) for j in range(T)] == [t.text for t in pb.rows]
    # the subject of the build: P, a fifth of the content area or more; beside it only the list of
    # indices at full strength (X is dimmed: next test)
    content = scene.layout.content
    assert area(pb.map) >= 0.2 * content.width * content.height
    assert area(pb.map) > 3 * area(scene.order)
    rec = {r.key: r for r in scene.audit.records}["build"]  # P's digits as they stood in that beat
    digits = [i for i in rec.items if i.kind == "text" and i.name.strip("'") in {"0", "1"} and i.opacity > 0.99]
    assert len(digits) >= T * T and min(i.xheight_px for i in digits) >= 12


def test_while_P_is_built_X_is_dimmed(final):
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}["build"]
    entries = {fmt_value(v, 1) for v in scene.data.X.ravel()}
    shown = [i for i in rec.items if i.kind == "text" and i.name.strip("'") in entries]
    assert shown and max(i.opacity for i in shown) < DIMMED
    ones = [i for i in rec.items if i.kind == "text" and i.name == "'1'"]
    assert len(ones) >= scene.data.P.shape[0] and min(i.opacity for i in ones) > 0.99


def test_the_product_spans_the_frame_and_keeps_P_legible(final):
    scene, _ = final
    content = scene.layout.content
    assert scene.product.width >= 0.8 * content.width
    assert content.contains(scene.product)
    assert min_xheight_px(scene.product) >= 8.5  # P's indices and X's subscripts included
    # P's rows line up with the slots of P·X
    for i in range(scene.data.P.shape[0]):
        assert abs(scene.P_map.cell_center(i, 0)[1] - scene.PX_mat.slot_center(i)[1]) < 1e-6


def test_the_equals_sign_stands_clear_between_X_and_PX_and_ends_undimmed(final):
    scene, _ = final
    assert scene.X_mat.get_right()[0] < scene.eq.get_left()[0] < scene.eq.get_right()[0] < scene.PX_mat.get_left()[0]
    assert scene.eq.get_fill_opacity() == pytest.approx(1.0)
    assert min(b.get_stroke_opacity() for b in scene.PX_mat.brackets) == pytest.approx(1.0)


def test_every_corner_keeps_the_product_in_order_legible_and_timed(matrix):
    for name, res in matrix.items():
        sc = res.scene
        assert min_xheight_px(sc.product) >= 8.5, name
        assert sc.P_map.get_right()[0] < sc.X_mat.get_left()[0], name
        assert sc.X_mat.get_right()[0] < sc.eq.get_left()[0] and sc.eq.get_right()[0] < sc.PX_mat.get_left()[0], name
        T = sc.data.P.shape[0]
        for slot, src in enumerate(sc.data.perm):  # slot i of P·X holds token perm[i], level with X's row i
            assert sc.PX_mat.row_labels[slot].get_color() == token_color(int(src)), name
            assert abs(sc.PX_mat.rows[slot].get_y() - sc.X_mat.rows[slot].get_y()) < 1e-6, name
        assert T == len(sc.PX_mat.rows)


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
    # no notebook name on screen at any beat
    for rec in scene.audit.records:
        assert not [i for i in rec.items if i.kind == "text" and "perm" in (i.text or i.name)], rec.key


def test_labels_name_the_arrays_shown_with_them(final):
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}
    assert (scene.X_name._names, scene.P_name._names, scene.PX_name._names) == ("X", "P", "PX")
    assert (scene.X_mat._shows, scene.P_map._shows, scene.PX_mat._shows) == ("X", "P", "PX")
    assert {q for q, _ in rec["rows"].named} == {"X"} and {q for q, _ in rec["rows"].shown} == {"X"}
    assert {q for q, _ in rec["build"].named} == {"P"}  # X is dimmed: background, named by nothing visible
    for key in ("product", "check_gather", "check_orthogonal"):
        assert {q for q, _ in rec[key].named} == {q for q, _ in rec[key].shown} == {"P", "X", "PX"}, key
        for q, vals in rec[key].shown:
            np.testing.assert_array_equal(vals, scene.quantities()[q])


def test_every_beat_changes_the_picture(final):
    scene, _ = final
    for rec in scene.audit.records:
        assert rec.start is not None and rec.start != signature(rec), rec.key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_the_clip_ends_on_its_two_proofs_large(final):
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    close, before = recs["close"], recs["check_orthogonal"]
    visible = [i for i in close.items if not i.header and i.opacity > DIMMED]
    words = {i.name.strip("'") for i in visible if i.kind == "text" and not i.is_math}
    assert words == {"exact", "✓bitforbit"}, words  # the verdicts of the two proofs, nothing else
    maths = [i for i in visible if i.kind == "text" and i.is_math]
    assert len(maths) == 2  # the two proof lines and nothing else: P, X and P X are gone
    gone = {fmt_value(v, 1) for v in scene.data.X.ravel()}
    assert not [i for i in visible if i.kind == "text" and i.name.strip("'") in gone]

    def width(rec, src):
        box = next(i.box for i in rec.items if i.kind == "text" and i.is_math and src in i.text)
        return box[2] - box[0], box

    for src in ("x_(pi(m))", "P P^T = I"):
        w0, _ = width(before, src)
        w1, box = width(close, src)
        assert w1 >= 1.5 * w0, src  # brought forward, large
    content = scene.layout.content
    assert abs(scene.takeaway().get_center()[0] - content.center[0]) < 0.05
    assert abs(scene.takeaway().get_center()[1] - content.center[1]) < 0.05
    assert scene.takeaway().width >= 0.6 * content.width
    # stacked: (P X)_m = x_π(m) above P Pᵀ = I
    assert scene.check_gather.get_bottom()[1] > scene.check_orth.get_top()[1]


def test_the_still_and_the_clip_draw_one_description(final):
    """Issue 20: the still paints P with the clip's own scale (bounds and colormap), prints the clip's
    proof lines, and colours nothing the clip does not (X and P X are tables in both)."""
    scene, _ = final
    d, cfg = scene.data, scene.cfg
    still = designed_stills("PermutationMatrix", d, cfg)[0]
    P, X, PX = still.panels["P"], still.panels["X"], still.panels["Y"]
    assert isinstance(P, HeatmapPanel) and P.scale is d.picture.scale
    for widget in (scene.P_map, scene.P_build.map):
        assert widget.color_scale.same_as(P.scale)
        assert (widget.color_scale.name, widget.color_scale.vmin, widget.color_scale.vmax) == (cfg.cmap_weights, 0, 1)
    assert isinstance(X, DrawnPanel) and isinstance(PX, DrawnPanel)  # numbers, no colour scale, as in the clip
    np.testing.assert_array_equal(X.data["values"], d.X)
    np.testing.assert_array_equal(PX.data["values"], d.PX)
    assert PX.data["rows"] == tuple(int(k) for k in d.perm)  # the same row names as the clip's P X
    assert not hasattr(scene.X_mat, "color_scale") and not hasattr(scene.PX_mat, "color_scale")
    pic = d.picture
    assert still.proof == tuple(f"{p.mathtext}  {p.verdict}" for p in (pic.gather, pic.orthogonal))
    assert scene.check_gather[0].typst_code.strip("$ ") == pic.gather.math
    assert scene.check_orth[0].typst_code.strip("$ ") == pic.orthogonal.typst
    assert pic.order_text in still.subtitle and "perm" not in still.subtitle
