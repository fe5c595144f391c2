"""Clip 04 PrefixInvariance (restaged, issue 33): data binding; both passes painted on the deck's "outputs" scale
(the same y₀ colours as clip 05); the prefix rows landing on the full rows; the defects drawn where they were
measured; one entry's 64 bits as the subject of its beats (fields named, the last bits magnified, "1 ulp" from
``ulp_distance``); the two summation trees from ``float_sum_orders``/``float_sum_partials``; the inference
picture (A · V = Y, A painted by the mathcore weights, the cached step its last row); lecture notation (no code
indexing, one notation through the clip); every caption and description claim computed from the data and
bound to an element visible at its beat; the close (the full outputs, every prefix bracketed, the verdict);
and the still on the clip's scales."""

from __future__ import annotations

import re

import numpy as np
import pytest

from frames import dominant_ink, pixel, rgb255, shipped_audit
from mathcore import (
    attention_fn,
    kv_cache_decode,
    lecture_inputs,
    load_config,
    prefix_defects,
    prefix_invariance_max_defect,
    self_attention,
    self_attention_trace,
)
from mathcore.causal import SUM_ORDER_EXAMPLE, float_sum_orders, float_sum_partials
from mathcore.causal_bits import differing_bits, float_bits, prefix_entry_pair, ulp_distance, worst_prefix_entry
from scenes.audit.beats import DIMMED
from scenes.audit.truth import claim_problems
from scenes.clips.c04_prefix_invariance import PrefixInvariance, blas_marks_text, cache_formula, float_text
from scenes.clips.c04_widgets import FIELDS
from scenes.figures import causal as fig
from scenes.figures import designed_stills
from scenes.kit import BG, FAILED, FG, HIGHLIGHT, VERIFIED, fmt_measure, fmt_value
from manim import VGroup
from scenes.kit import HEADING, LABEL, label
from scenes.kit.scales import scale
from scenes.kit.theme import CONTENT_BOTTOM, FAINT
from scenes.stills.spec import HeatmapPanel as StillHeatmap


@pytest.fixture(scope="module")
def run():
    """The clip under the shipped config, every animation skipped: the scene, its audit and every beat's frame."""
    res = shipped_audit(PrefixInvariance)
    return res.scene, res


def _rec(res, key):
    return next(r for r in res.records if r.key == key)


def _visible_ids(rec) -> set[int]:
    return {it.mid for it in rec.items if it.opacity >= DIMMED}


def _texts(rec) -> list[str]:
    return [it.text for it in rec.items if it.kind == "text" and not it.header and it.opacity >= DIMMED]


def _box_centre(rec, mob):
    """Where ``mob`` stood at the end of beat ``rec`` (its recorded box), as a point."""
    it = next(i for i in rec.items if i.mid == id(mob))
    l, b, r, t = it.box
    return np.array([(l + r) / 2, (b + t) / 2, 0.0])


def _caption(scene, key):
    return next(c for c in scene.captions if c.key == key)


# ------------------------------------------------------------------ the data
def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PrefixInvariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
    blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
    np.testing.assert_array_equal(d.X, li.X)
    np.testing.assert_array_equal(d.Y_full, fixed(li.X))
    np.testing.assert_array_equal(d.Y_prefix, fixed(li.X[: cfg.T - 1]))
    assert d.Y_prefix.shape == (cfg.T - 1, cfg.d)
    np.testing.assert_array_equal(d.defects_fixed, prefix_defects(fixed, li.X))
    np.testing.assert_array_equal(d.defects_blas, prefix_defects(blas, li.X))
    # the clip shows the proper prefixes, t = 1 … T−1: mathcore's last entry (t = T, the full pass against
    # itself) is 0 by construction, so the largest over every t is the largest over the proper ones
    assert d.defects_fixed[-1] == d.defects_blas[-1] == 0.0
    assert d.max_fixed == prefix_invariance_max_defect(fixed, li.X) == float(np.max(d.defects_fixed[:-1])) == 0.0
    assert d.max_blas == prefix_invariance_max_defect(blas, li.X) == float(np.max(d.defects_blas[:-1]))
    assert 0.0 < d.max_blas < 1e-12  # the shipped config: BLAS differs, in the last bits only
    np.testing.assert_array_equal(d.Y_full[: cfg.T - 1], d.Y_prefix)  # bitwise: the clip's claim
    assert d.sum_terms == SUM_ORDER_EXAMPLE
    assert d.sum_orders == float_sum_orders(*d.sum_terms)
    assert d.sum_partials == float_sum_partials(*d.sum_terms)
    assert d.cmap_signed == cfg.cmap_signed
    # one entry's bits: where the BLAS kernel is worst, from both passes and both kernels
    assert d.entry == worst_prefix_entry(blas, li.X)
    t, i, j = d.entry
    assert d.fixed_values == prefix_entry_pair(fixed, li.X, t, i, j)
    assert d.blas_values == prefix_entry_pair(blas, li.X, t, i, j)
    for bits, vals in ((d.fixed_bits, d.fixed_values), (d.blas_bits, d.blas_values)):
        np.testing.assert_array_equal(bits, [float_bits(vals[0]), float_bits(vals[1])])
    assert d.fixed_values[0] == d.Y_full[i, j]
    assert not differing_bits(*d.fixed_values).any()
    assert abs(d.blas_values[0] - d.blas_values[1]) == d.max_blas  # the entry is where the maximum is attained
    assert d.blas_ulps == ulp_distance(*d.blas_values) == 1
    # the inference picture: the full pass's weights and values, and each kernel's decoding run
    tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    np.testing.assert_array_equal(d.A, tr.weights)
    np.testing.assert_array_equal(d.V, tr.V)
    np.testing.assert_allclose(d.A @ d.V, d.Y_full, atol=1e-12)  # A · V = Y, as drawn
    for kernel, got in (("fixed", d.cache_fixed), ("blas", d.cache_blas)):  # the last step's own row
        run_ = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv, kernel=kernel)
        full = self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True, kernel=kernel)[0]
        assert got == float(np.max(np.abs(run_.Y_cached[-1] - full[-1])))
    assert d.cache_fixed == 0.0 and d.cache_blas > 0.0


# ------------------------------------------------------------------ the two passes
def test_both_passes_print_and_paint_the_computed_outputs_on_the_decks_outputs_scale(run):
    """Issue 33: y₀ was on ±2 in clip 04 and on ±3 in clip 05.  Both clips now paint outputs on the deck's
    "outputs" scale: the same value, the same colour.  Every cell of both maps, at the beat that shows both,
    is painted in its value's colour (a map painted with the old per-clip scale would fail)."""
    scene, res = run
    d = scene.data
    T, dm = d.Y_full.shape
    outs = scale("outputs", scene.cfg)
    assert scene.scale.quantity == "outputs" and scene.scale.same_as(outs)
    # clip 05's outputs: the very same scale
    assert fig.kv_scales(None, scene.cfg)["trace.Y_cached"].same_as(scene.scale)
    assert scene.bar.color_scale is scene.scale is scene.full.color_scale is scene.prefix.color_scale
    rec = _rec(res, "prefix")
    frame = scene.beat_frames["prefix"]
    for hm, Y in ((scene.full, d.Y_full), (scene.prefix, d.Y_prefix)):
        np.testing.assert_array_equal(hm.values, Y)
        assert [t.text for t in hm.labels] == [fmt_value(v, 2) for v in Y.ravel()]
        for i in range(Y.shape[0]):
            for j in range(dm):
                c = hm.cell(i, j)
                corner = _box_centre(rec, c) + np.array([-c.width / 2 + 0.08, c.height / 2 - 0.06, 0])
                got = pixel(scene, frame, corner)
                assert np.abs(got - rgb255(outs.rgb(Y[i, j]))).max() <= 8, (i, j)
    # the rows are named y_m (full) and y_m^((t)) (prefix: the letter, never a digit that reads as a row index; its
    # length said under its grid, t = T − 1: review round 3), in the tokens' colours
    assert [m.typst_code.strip("$ ") for m in scene.full_labels] == [f"y_{n}" for n in range(T)]
    assert [m.typst_code.strip("$ ") for m in scene.prefix_labels] == [f"y_{n}^((t))" for n in range(T - 1)]
    assert scene.prefix_len.typst_code.strip("$ ") == f"t = {T - 1}"
    assert id(scene.prefix_len) in _visible_ids(_rec(res, "prefix"))
    assert scene.full_head.typst_code.strip("$ ") == fig.passes(T)
    assert scene.prefix_head.typst_code.strip("$ ") == fig.passes(T - 1)


def test_prefix_rows_land_on_the_full_rows_and_the_brace_spans_them(run):
    scene, res = run
    d = scene.data
    T = d.Y_full.shape[0]
    full = scene.full
    assert len(scene.landed) == T - 1
    for i, p in enumerate(scene.landed):  # each prefix row's destination is the full row of the same index
        np.testing.assert_allclose(p, scene.targets[i], atol=1e-6)
    rec = _rec(res, "slide")
    ids = _visible_ids(rec)
    assert not any(id(c) in ids for row in scene.prefix.cells for c in row)  # handed over: the prefix is gone
    assert all(id(c) in ids for row in full.cells for c in row)
    # the brace spans rows 0 … T−2 (the landed ones), not the new row
    brace = scene.landed_brace
    top = full.cell(0, 0).get_top()[1]
    assert abs(brace.get_top()[1] - top) < 0.1
    assert abs(brace.get_bottom()[1] - full.cell(T - 2, 0).get_bottom()[1]) < 0.1
    # its verdict: the measured defect of the prefix of T−1 tokens, exactly zero, with a check
    v = scene.slide_proof
    assert v._verdict and v.passed and v.figure.exact and v.figure.text == fmt_measure(d.defects_fixed[T - 2])
    assert d.defects_fixed[T - 2] == float(np.max(np.abs(d.Y_prefix - d.Y_full[: T - 1]))) == 0.0
    assert "y_m^((t))" in v.formula and "m < t" in v.formula and "[" not in v.formula


def test_the_new_row_is_the_one_the_mask_lets_read_the_last_token(run):
    """'rows 0 to T−2 never saw token T−1': the causal weights of every earlier row on the last token are
    exactly 0 (from mathcore's weights), and the outline frames row T−1, tagged with x_(T−1)."""
    scene, res = run
    d = scene.data
    T = d.Y_full.shape[0]
    assert np.all(d.A[: T - 1, T - 1] == 0.0) and d.A[T - 1, T - 1] > 0.0
    rec = _rec(res, "last_row")
    ids = _visible_ids(rec)
    assert id(scene.new_row) in ids and all(id(c) in ids for c in scene.full.cells[T - 1])
    row_y = _box_centre(rec, scene.full.cell(T - 1, 0))[1]
    assert abs(_box_centre(rec, scene.new_row)[1] - row_y) < 0.05
    assert scene.new_row.get_stroke_color().to_hex() == HIGHLIGHT.to_hex() and scene.new_row._role == "highlight"
    assert scene.new_tag[1].typst_code.strip("$ ") == f"x_{T - 1}"
    assert "new" in _caption(scene, "last_row").text.lower() and f"token {T - 1}" in _caption(scene, "last_row").text


# ------------------------------------------------------------------ every prefix, on the plot
def test_every_prefix_figure_is_written_in_its_kernels_column(run):
    """Review round 2 (04 `every_prefix`): a log axis from 10⁻¹⁷ to 10⁻¹⁵ held nothing but floor diamonds, a plot
    whose data it cannot draw.  Now each prefix length t has a row, each kernel a column, and each cell is the
    figure measured there (``prefix_defects``): "0" for an exact zero, the deck's "≈ …" otherwise, in the
    highlight.  No log axis is on screen at either beat.  Main fails: its marks are diamonds and bars on a plot."""
    scene, res = run
    d = scene.data
    T = d.X.shape[0]
    li = lecture_inputs(T, d.X.shape[1], scene.cfg.seed)
    tb = scene.table
    for name, kernel, marks in (("fixed order", "fixed", scene.fixed_marks), ("BLAS matmul", "blas", scene.blas_marks)):
        want = prefix_defects(attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel=kernel), li.X)[: T - 1]
        assert marks is tb.marks[name] and len(marks) == T - 1
        for t, (v, mk, tc) in enumerate(zip(want, marks, tb.ts[1]), 1):
            assert mk.value == v and mk.exact == (v == 0.0)
            assert tc.typst_code.strip("$ ") == str(t) and abs(mk.get_y() - tc.get_y()) < 1e-6  # on its t's row
            if v == 0.0:
                assert mk.typst_code.strip("$ ") == "0"
            else:
                assert mk.figure.text == fmt_measure(v) and mk._role == "highlight"
        assert tb.names[name].text.replace(" ", "") == name.replace(" ", "")
    assert all(mk.exact for mk in scene.fixed_marks)  # the fixed order: a column of zeros
    plot_ids = {id(m) for m in scene.plot.get_family()}
    for key in ("every_prefix", "blas"):
        rec = _rec(res, key)
        assert not plot_ids & _visible_ids(rec), key  # no log axis
        assert not [t for t in _texts(rec) if "10^(-17)" in t or "10^(-15)" in t]
    assert tb.width >= 0.75 * scene.layout.content.width  # the subject of its beats


def test_each_verdict_states_its_bar(run):
    """Review round 2: clip 02 gives ✓ at ≈ 4.7 × 10⁻¹⁶ ("under 10⁻¹⁰"), this clip ✗ at ≈ 2.2 × 10⁻¹⁶: the bar
    flips and no frame said so.  Every verdict here now says its bar in words, "bit for bit" (passed only at an
    exact 0) or "not bit for bit", and names its kernel where two stand together.  Main fails: its verdicts are
    bare formulas."""
    scene, res = run
    d = scene.data
    cases = [(scene.proof_fixed, d.max_fixed, "fixed order", "every_prefix"),
             (scene.proof_blas, d.max_blas, "BLAS", "blas"),
             (scene.inf_fixed, d.cache_fixed, "fixed order", "inference"),
             (scene.inf_blas, d.cache_blas, "BLAS", "inference"),
             (scene.proof_close, d.max_fixed, "fixed order", "close")]
    for v, value, kernel, key in cases:
        exact = value == 0.0
        words = v.formula.split("$")[0]
        assert v.passed == exact and kernel in words, (key, words)
        assert ("not bit for bit" in words) == (not exact) and "bit for bit" in words, (key, words)
        assert v.figure.text == fmt_measure(value)
        ids = _visible_ids(_rec(res, key))
        assert all(id(w) in ids for w in v.line.words), key
    assert d.max_blas > 0.0 and d.cache_blas > 0.0  # the shipped config: BLAS is not bit for bit


def test_the_tables_verdicts_are_the_measured_figures_in_the_verdict_style(run):
    scene, res = run
    d = scene.data
    assert scene.proof_fixed.figure.text == fmt_measure(d.max_fixed) == "exactly 0"
    assert scene.proof_fixed.passed and scene.proof_fixed.check._role == "verified"
    assert scene.proof_blas.figure.text == fmt_measure(d.max_blas)
    assert not scene.proof_blas.passed and scene.proof_blas.check._role == "failed"
    # each verdict at full strength in its own beat: the fixed order's with its column, the BLAS kernel's with
    # its column (the fixed order's column and verdict recede then, focus by dimming, still readable)
    for key, v, colour in (("every_prefix", scene.proof_fixed, VERIFIED), ("blas", scene.proof_blas, FAILED)):
        rec = _rec(res, key)
        c = _box_centre(rec, v.check)
        it = next(i for i in rec.items if i.mid == id(v.check))
        assert it.opacity >= 0.99
        assert np.abs(dominant_ink(scene, scene.beat_frames[key], v.check.copy().move_to(c), BG)
                      - rgb255(colour)).max() <= 40
    rec = _rec(res, "blas")
    receded = [i for i in rec.items if i.mid in {id(m) for m in scene.key_fixed.get_family()} and i.opacity > 0]
    assert receded and all(abs(i.opacity - scene.FIXED_WORDS) < 1e-6 for i in receded)
    marks = [i for i in rec.items if i.mid in {id(m) for m in scene.fixed_marks.get_family()} and i.opacity > 0]
    assert marks and all(i.opacity <= scene.FIXED_DIMMED + 1e-6 for i in marks)
    # the verdicts stand right of the table's columns
    right = max(c.get_right()[0] for c in (*scene.fixed_marks, *scene.blas_marks))
    for v in (scene.proof_fixed, scene.proof_blas):
        assert v.get_left()[0] > right
    assert blas_marks_text(d.defects_blas[:-1]) in _caption(scene, "blas").describe


def test_blas_marks_text_says_what_the_column_reads():
    assert blas_marks_text([2e-16, 0.0, 0.0]) == f"{fmt_measure(2e-16)} at t = 1, 0 at the other lengths"
    assert blas_marks_text([0.0, 1e-16, 3e-16]).startswith(f"{fmt_measure(1e-16)} at t = 2 and "
                                                          f"{fmt_measure(3e-16)} at t = 3,")
    assert blas_marks_text([1e-16, 1e-16]) == f"{fmt_measure(1e-16)} at t = 1 and {fmt_measure(1e-16)} at t = 2"
    assert blas_marks_text([0.0, 0.0]) == "0 at every t"


# ------------------------------------------------------------------ bit for bit
@pytest.mark.parametrize("which", ["fixed", "blas"])
def test_one_entry_is_shown_bit_for_bit_as_the_subject(run, which):
    """Issue 33: the bit strips were squeezed into the bottom quarter under a plot at full strength (8 px
    cells at 480p).  Now each board is the subject of its beat, alone: the strips span the content's width,
    the fields are named, the last bits are magnified with their digits, and the plot is gone."""
    scene, res = run
    d = scene.data
    board = scene.board_fixed if which == "fixed" else scene.board_blas
    bits = d.fixed_bits if which == "fixed" else d.blas_bits
    values = d.fixed_values if which == "fixed" else d.blas_values
    key = "bitwise" if which == "fixed" else "blas_bits"
    content = scene.layout.content
    for strip, b in zip(board.strips, bits):
        np.testing.assert_array_equal(strip.bits, b)
        assert len(strip.cells) == 64
        for k, cell in enumerate(strip.cells):  # a set bit bright, a clear one faint
            assert cell.get_fill_color().to_hex() == (FG if b[k] else FAINT).to_hex(), k
        assert strip.width >= 0.9 * content.width  # large: across the frame
        assert strip.cells[0].height >= 0.35  # ≥ 23 px tall at 480p
        assert {n: strip.fields[n] for _, n in FIELDS} == {"sign": (0, 1), "exponent": (1, 12), "fraction": (12, 64)}
    np.testing.assert_array_equal(board.differ, bits[0] != bits[1])
    assert len(board.marks) == 2 * int(board.differ.sum())  # each differing bit outlined on both strips
    # the zoom prints the last bits of both values as 0s and 1s
    for row_, b in zip(board.zoom_rows, bits):
        assert [t.text for t in row_[1]] == [str(int(x)) for x in b[64 - board.zoom:]]
    # each value printed in full: the shortest decimal that is exactly that float64
    for head, v in zip(board.heads, values):
        printed = head.typst_code.strip("$ ").rsplit("=", 1)[1].strip().replace("−", "-")
        assert float(printed) == v and printed == float_text(v).replace("−", "-")
    assert fig.passes(d.X.shape[0]) in board.heads[0].typst_code
    assert fig.passes(d.entry[0]) in board.heads[1].typst_code
    # the subject alone: no plot and no output map visible at this beat
    rec = _rec(res, key)
    texts = _texts(rec)
    assert not [t for t in texts if "10^" in t and "times" not in t and "≈" not in t and "approx" not in t]
    numbers = {fmt_value(v, 2) for v in d.Y_full.ravel()}
    assert not [t for t in texts if t.strip("'") in numbers]
    ids = _visible_ids(rec)
    assert all(any(id(c) in ids for c in s.cells) for s in board.strips)
    assert not any(id(m) in ids for m in scene.fixed_marks)


def test_the_ulp_tag_and_the_bit_verdicts_are_measured(run):
    scene, _ = run
    d = scene.data
    t, i, j = d.entry
    assert not scene.board_fixed.differ.any() and len(scene.board_fixed.tag) == 0
    ulps = ulp_distance(*d.blas_values)
    assert scene.board_blas.tag.text.replace(" ", "") == (f"{ulps}ulp" if ulps == 1 else f"{ulps}ulps")
    assert scene.board_blas.tag._role == "highlight"
    differ = int(differing_bits(*d.blas_values).sum())
    assert len(scene.board_blas.zoom_marks) == 2 * differ  # every differing bit is in the zoom
    vf, vb = scene.bits_verdict_fixed, scene.bits_verdict_blas
    assert vf.passed and vf.figure.exact and vf.check._role == "verified"
    assert not vb.passed and vb.figure.text == fmt_measure(abs(d.blas_values[0] - d.blas_values[1]))
    assert vb.check._role == "failed"
    for v in (vf, vb):  # lecture notation: y_(i, j)^((t)) against y_(i, j), never nested indices (review round 3)
        assert f"y_({i}, {j})^((t))" in v.formula and f"- y_({i}, {j})" in v.formula and ")_" not in v.formula
    assert f"t = {t}" in scene.board_fixed.heads[1].typst_code  # the prefix's length said by its pass


# ------------------------------------------------------------------ why, and inference
def test_the_summation_trees_print_the_float_sums_of_both_orders(run):
    scene, res = run
    d = scene.data
    trees = scene.trees
    a, b, c = d.sum_terms
    left, right = float_sum_orders(a, b, c)
    ab, bc = float_sum_partials(a, b, c)
    assert [r.typst_code.strip("$ ") for r in trees.roots] == [repr(left), repr(right)]
    assert [p.typst_code.strip("$ ") for p in trees.partials] == [repr(ab), repr(bc)]
    assert trees.neq.typst_code.strip("$ ") == ("!=" if left != right else "=") == "!="
    for leaves in trees.leaves:
        assert [lf[1].typst_code.strip("$ ") for lf in leaves] == [repr(a), repr(b), repr(c)]
    # the first sum sits over its own pair: (a + b) over the first two leaves, (b + c) over the last two
    for k, (x, y) in enumerate(((0, 1), (1, 2))):
        mid = (trees.leaves[k][x].get_x() + trees.leaves[k][y].get_x()) / 2
        assert abs(trees.partials[k].get_x() - mid) < 1e-6
    texts = _texts(_rec(res, "why"))  # the sentence's two halves, both on screen
    assert any("float sums depend on their order" in t for t in texts)
    assert any("BLAS picks the order from the matrix shape" in t for t in texts)
    assert "float sums depend on order" in _caption(scene, "why").text and "BLAS" in _caption(scene, "why").text
    ids = _visible_ids(_rec(res, "why"))
    assert all(id(m) in ids for m in (*trees.roots, *trees.partials, trees.neq))


def test_inference_is_a_picture_a_cached_step_beside_the_recompute(run):
    """Issue 33 and review round 2: `inference` was A · V = Y with a colour bar, two side labels and two verdicts
    (a dashboard).  Now it is a picture of two things: the cached step (the newest query's weights a_(T−1, n),
    printed beside the rows of V they weigh, equal to one row y_(T−1)^cached from ``kv_cache_decode``) beside the
    full recompute's Y, its last row y_(T−1)^full level with the cached row, both outlined.  Colours from the
    deck's scales; the weights the causal weights' last row."""
    scene, res = run
    d = scene.data
    T, dm = d.Y_full.shape
    frame = scene.beat_frames["inference"]
    rec = _rec(res, "inference")
    li = lecture_inputs(T, dm, scene.cfg.seed)
    step = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv, kernel="fixed")
    np.testing.assert_array_equal(d.a_step[:, 0], d.A[-1])
    np.testing.assert_allclose(d.a_step[:, 0] @ d.V, d.y_cached[0], atol=1e-12)  # a · V = y, as drawn
    np.testing.assert_array_equal(d.y_cached[0], step.Y_cached[-1])
    np.testing.assert_array_equal(d.y_cached[0], d.Y_full[-1])  # fixed order: the same bits
    sc = {"A": scale("weights", scene.cfg), "Y": scale("outputs", scene.cfg)}
    # the context (the weights, V, the recompute's earlier rows) dimmed once the two last rows are the subject
    # (review round 3): its cells' colours blend toward the background by the clip's level
    level = scene.CONTEXT_DIMMED
    for hm, vals, name in ((scene.inf_V, d.V, "Y"), (scene.inf_Y, d.Y_full, "Y"), (scene.inf_y, d.y_cached, "Y")):
        np.testing.assert_array_equal(hm.values, vals)
        assert hm.color_scale.same_as(sc[name])
        for i in range(vals.shape[0]):
            for j in range(vals.shape[1]):
                c = hm.cell(i, j)
                corner = _box_centre(rec, c) + np.array([-c.width / 2 + 0.06, c.height / 2 - 0.05, 0])
                got = pixel(scene, frame, corner)
                want = rgb255(sc[name].rgb(vals[i, j])).astype(float)
                dimmed = hm in (scene.inf_V, scene.inf_A) or (hm is scene.inf_Y and i < T - 1)
                if dimmed:  # receded toward the background
                    bg = rgb255(BG).astype(float)
                    assert np.abs(got - bg).max() <= max(8.0, level * 1.7 * np.abs(want - bg).max()), (name, i, j)
                else:
                    assert np.abs(got - want).max() <= 8, (name, i, j)
    # the weights printed on their cells, one per cached row, beside the row they weigh
    assert [t.text for t in scene.inf_A.labels] == [fmt_value(v, 2) for v in d.a_step[:, 0]]
    for n in range(T):
        assert abs(scene.inf_A.cell(n, 0).get_y() - scene.inf_V.cell(n, 0).get_y()) < 1e-6
    # the cached row level with the recompute's last row; both outlined (highlight)
    fy, fY = scene.cached_rows
    assert abs(scene.inf_y.get_y() - scene.inf_Y.cell(T - 1, 0).get_y()) < 1e-6
    assert abs(fy.get_y() - scene.inf_y.get_y()) < 1e-6 and abs(fY.get_y() - scene.inf_Y.cell(T - 1, 0).get_y()) < 1e-6
    assert scene.cached_rows._role == "highlight"
    assert scene.inf_y.get_right()[0] < scene.inf_Y.get_left()[0]  # beside it, on its left
    assert scene.cached_tag.text.replace(" ", "") == "cachedstep"
    assert scene.recompute_tag.text.replace(" ", "") == "fullrecompute"
    names = [m.typst_code.strip("$ ") for m in scene.inf_names]
    assert names == [f"a_({T - 1} n)", "V", f'y_{T - 1}^"cached"', "Y", f'y_{T - 1}^"full"']
    ids = _visible_ids(rec)
    for m in (scene.inf_A, scene.inf_V, scene.inf_y, scene.inf_Y, *scene.cached_rows, *scene.inf_names,
              scene.cached_tag, scene.recompute_tag):
        assert id(m) in ids or any(id(f) in ids for f in m.get_family())
    for v, kernel in ((scene.inf_fixed, "fixed"), (scene.inf_blas, "blas")):
        run_ = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv, kernel=kernel)
        full = self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True, kernel=kernel)[0]
        own = float(np.max(np.abs(run_.Y_cached[-1] - full[-1])))
        assert v.figure.text == fmt_measure(own) and v.passed == (own == 0.0)
        np.testing.assert_array_equal(run_.Y_cached[-1], run_.steps[-1].y)  # the cached step is the last row
    assert fmt_measure(d.cache_fixed) in _caption(scene, "inference").describe
    # no paragraph: no text of more than six words at this beat
    words = [it.text for it in rec.items if it.kind == "text" and not it.is_math and not it.header
             and it.opacity >= DIMMED]
    assert words and not [t for t in words if len(t.split()) > 6]


def test_the_cached_steps_figures_belong_to_the_outlined_row(run):
    """Review 2026-12-06 (04 `inference`): the BLAS ✗ ≈ 2.2 × 10⁻¹⁶ stood under the outline of row 5, "cached
    step", but 2.2 × 10⁻¹⁶ is row 0's difference (max over every decoding step); row 5's own is 5.6 × 10⁻¹⁷.
    Each verdict now prints the outlined row's own difference (cached decoding against a full recompute,
    the same kernel), its formula names that row; and V and Y share one scale with a bar on screen, so
    y_0 = v_0 reads as one row in one colour.  Main fails: its BLAS figure is the max over rows (row 0's),
    which differs from the last row's here, and V is on the inputs scale with no bar."""
    scene, res = run
    d = scene.data
    T, dm = d.Y_full.shape
    li = lecture_inputs(T, dm, scene.cfg.seed)
    run_ = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv, kernel="blas")
    full = self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")[0]
    per_row = np.max(np.abs(run_.Y_cached - full), axis=1)
    assert per_row[-1] != per_row.max()  # the case: the shipped config's last row is not where the max is
    assert scene.inf_blas.figure.text == fmt_measure(per_row[-1]) != fmt_measure(per_row.max())
    assert scene.cached_rows[1].get_y() == pytest.approx(scene.inf_Y.cell(T - 1, 0).get_y(), abs=1e-6)
    assert f"y_{T - 1}^" in cache_formula(T - 1)  # the verdicts' formula names the outlined row
    np.testing.assert_array_equal(d.V[0], d.Y_full[0])  # y_0 = v_0 ...
    assert scene.inf_V.color_scale.same_as(scene.inf_Y.color_scale)  # ... in one colour
    assert scene.inf_bar.color_scale.same_as(scene.inf_Y.color_scale)
    ids = _visible_ids(_rec(res, "inference"))
    assert id(scene.inf_bar) in ids or any(id(m) in ids for m in scene.inf_bar.get_family())


@pytest.mark.parametrize("which", ["fixed", "blas"])
def test_each_bit_board_names_its_kernel(run, which):
    """Review round 2 (04 `bitwise`, `blas_bits`): nothing on screen said which kernel computed the strips; the
    two boards had the same labels and different numbers.  Each names its kernel over the strips, clear of the
    headers, at full strength in its beat.  Main fails: its boards have no ``kernel_tag``."""
    scene, res = run
    board = getattr(scene, f"board_{which}")
    key = "bitwise" if which == "fixed" else "blas_bits"
    want = "fixed order" if which == "fixed" else "BLAS matmul"
    tag = board.kernel_tag
    assert tag.text.replace(" ", "") == want.replace(" ", "")
    assert any(abs(tag.get_y() - h.get_y()) < 1e-6 for h in board.heads)
    for h in board.heads:
        assert tag.get_left()[0] > h.get_right()[0] or abs(tag.get_y() - h.get_y()) > (tag.height + h.height) / 2
    assert tag.get_right()[0] <= scene.layout.content.right + 1e-6
    rec = _rec(res, key)
    it = next(i for i in rec.items if i.mid == id(tag))
    assert it.opacity >= 0.99


# ------------------------------------------------------------------ notation
def test_lecture_notation_never_code_indexing(run):
    """Issue 33: `Y_full[:5]`, `X[:t]`, `Attn(X[:1])[0,1]`, and the drift Attn(x₀,…,x₅) → Y_prefix →
    Attn(X[:t]).  Now one notation: a pass Attn(x_0, …, x_(t−1)), its rows y_m^((t)), the full pass's y_m."""
    scene, res = run
    texts = [t for r in res.records for t in _texts(r)]
    bad = [t for t in texts if re.search(r"\[[^\]]*:|class\(\"normal\", :\)|\]\s*\[|_\"prefix\"|\[\s*\d+\s*,", t)]
    assert not bad, bad
    assert not [t for t in texts if re.search(r"\bX\s*\[", t)]
    heads = [t for t in texts if t.startswith('"Attn"')]
    assert heads and all(re.fullmatch(r'"Attn"_"causal" \(x_0(, x_1(, x_2)?|, dots, x_\d+)?\)(, t = \d+)?',
                                      t.split(":")[0].strip()) for t in heads), heads
    for c in scene.captions:  # nor in the words
        assert not re.search(r"\[|Y_|_full|_prefix", c.text + (c.describe or "")), c.text
    assert not [p for p in res.lecture if p.kind in ("binding", "notation")]


# ------------------------------------------------------------------ every sentence, from the data and on screen
def test_every_claim_is_computed_from_the_data_and_bound_to_a_visible_element(run):
    """Each sentence's filled-in values are recomputed here from mathcore and found in the caption or the
    description of their beat; each bound value's element is on screen at that beat (the audit's claim
    record); and every description names at least one element through a claim."""
    scene, res = run
    d = scene.data
    T, dm = d.Y_full.shape
    t, i, j = d.entry
    li = lecture_inputs(T, dm, scene.cfg.seed)
    fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
    blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
    differ = int(differing_bits(*prefix_entry_pair(blas, li.X, t, i, j)).sum())
    want = {
        "full": [f"all {T} tokens", f"y 0 to y {T - 1}", f"{T} rows", f"{dm} columns"],
        "prefix": [f"first {T - 1} tokens", f"{T - 1} rows"],
        "slide": ["exactly the same numbers", f"rows 0 to {T - 2}"],
        "last_row": [f"row {T - 1} is new", f"rows 0 to {T - 2} never saw token {T - 1}"],
        "every_prefix": [f"1 to {T - 1} tokens", fmt_measure(prefix_invariance_max_defect(fixed, li.X))],
        "bitwise": ["all 64 bits", f"row {i}, column {j}"],
        "blas": [fmt_measure(prefix_invariance_max_defect(blas, li.X)), blas_marks_text(prefix_defects(blas, li.X)[: T - 1])],
        "blas_bits": [f"{ulp_distance(*prefix_entry_pair(blas, li.X, t, i, j))} unit in the last place",
                      f"{64 - differ} of 64 bits agree", f"the last {differ} are outlined"],
        "why": [repr(float_sum_orders()[0]), repr(float_sum_partials()[0]), repr(float_sum_partials()[1])],
        "inference": [fmt_measure(d.cache_blas), f"last row, y {T - 1} full", "bit for bit only in a fixed order"],
        "close": [f"{T - 1} brackets", f"from 1 to {T - 1}", fmt_measure(d.max_fixed)],
    }
    # the measured truths the sentences state
    assert np.array_equal(fixed(li.X)[: T - 1], fixed(li.X[: T - 1]))  # "exactly the same numbers"
    assert float_sum_orders()[0] != float_sum_orders()[1]  # "float sums depend on order"
    assert not differing_bits(*prefix_entry_pair(fixed, li.X, t, i, j)).any()  # "equal in all 64 bits"
    for key, phrases in want.items():
        c = _caption(scene, key)
        said = c.text + " " + (c.describe or "")
        for p in phrases:
            assert p in said, (key, p, said)
    # the values bound to what shows them, per beat, each visible at the end of its beat
    bound = {"full": {"n_tokens", "full_grid", "d"}, "prefix": {"T1", "prefix_grid"}, "slide": {"landed"},
             "last_row": {"last_row"}, "every_prefix": {"max_fixed", "every_t"}, "bitwise": {"bits", "prefix_pass"},
             "blas": {"max_blas", "blas_bars"}, "blas_bits": {"ulps", "bits_same", "bits_blas"}, "why": {"trees"},
             "inference": {"step", "cache_fixed", "cache_blas"}, "close": {"brackets", "close_fixed"}}
    for rec in res.records:
        if rec.key == "title":
            continue
        names = {cr.name for cr in rec.claims if cr.bound}
        assert bound[rec.key] <= names, (rec.key, names)
        assert all(cr.visible for cr in rec.claims if cr.bound), (rec.key, rec.claims)
        assert any(cr.bound and cr.where == "describe" for cr in rec.claims), rec.key
    assert claim_problems(res.records) == []  # and each plain value is printed on screen at its beat


def test_captions_one_per_beat_and_the_measured_figures_said(run):
    scene, _ = run
    caps = scene.captions
    assert [c.key for c in caps] == [r.key for r in scene.audit.records]
    assert any(fmt_measure(scene.data.max_blas) in c.text for c in caps)
    assert all("{" not in (c.describe or "") and "e-" not in (c.describe or "") for c in caps)


def test_the_key_figures_end_above_the_subtitle_band(run):
    scene, _ = run
    for m in (scene.plot, scene.why, scene.inference, scene.full, scene.key_fixed, scene.board_fixed,
              scene.board_blas, scene.proof_close):
        assert m.get_bottom()[1] >= CONTENT_BOTTOM - 1e-6


# ------------------------------------------------------------------ the close and the still
def test_the_clip_ends_on_the_full_outputs_every_prefix_bracketed_and_the_exact_zero(run):
    scene, res = run
    d = scene.data
    T = d.Y_full.shape[0]
    content = scene.layout.content
    rec = res.records[-1]
    assert rec.key == "close"
    shown = {q for q, _ in rec.shown}
    assert shown == {"Y_full"}
    texts = _texts(rec)
    fixed, _ = fig.prefix_proofs(d)
    assert fixed.formula in scene.proof_close.formula and scene.proof_close.passed and scene.proof_close.figure.exact
    assert any(fixed.formula.replace(" ", "") in t.replace(" ", "") for t in texts)
    # review round 2: the close said "exactly" after BLAS was shown 1 ulp off; it now says in which order, on
    # screen and in the sentence (BLAS's own prefixes are not bit for bit: the qualifier is needed)
    assert d.max_blas > 0.0
    assert "fixed order, bit for bit" in scene.proof_close.formula
    assert any("fixed order, bit for bit" in t for t in texts)
    assert "fixed order" in _caption(scene, "close").text
    assert not [t for t in texts if "10^" in t or "0.6" in t or "dots" in t]  # the plot, the aside and the passes went
    ids = _visible_ids(rec)
    assert not any(id(m) in ids for m in (*scene.board_blas.strips, scene.trees.neq, scene.inf_A))
    # the brackets: one per proper prefix t = 1 … T−1, bracket t from row 0 to row t−1
    hm = scene.close_map
    np.testing.assert_array_equal(hm.values, d.Y_full)
    brackets = scene.prefix_brackets
    assert len(brackets) == T  # T − 1 brackets and "t ="
    for t in range(1, T):
        br, num = brackets[t - 1]
        assert num.typst_code.strip("$ ") == str(t)
        assert abs(br.get_bottom()[1] - hm.cell(t - 1, 0).get_bottom()[1]) < 0.1
        assert abs(br.get_top()[1] - hm.cell(0, 0).get_top()[1]) < 0.1
        assert br.get_left()[0] > hm.get_right()[0]
    assert hm.height >= 0.5 * content.height  # large
    assert content.contains(scene.takeaway())
    assert scene.proof_close.get_top()[1] < hm.get_bottom()[1]  # the verdict under the outputs


def test_the_still_and_the_clip_use_one_scale_per_quantity(run):
    scene, _ = run
    d = scene.data
    still = designed_stills("PrefixInvariance", d, scene.cfg)[0]
    panels = [p for p in still.panels.values() if isinstance(p, StillHeatmap)]
    assert len(panels) == 2
    for p in panels:
        assert p.scale.same_as(scene.scale) and p.scale.quantity == "outputs"
    vals = [p.values for p in panels]
    assert any(np.array_equal(v, d.Y_full) for v in vals) and any(np.array_equal(v, d.Y_prefix) for v in vals)
    fixed, blas = fig.prefix_proofs(d)
    assert still.proof[0] == fixed.still_text("every $t$, one fixed summation order, bit for bit")
    assert still.proof[1] == blas.still_text("the same check with a BLAS matmul kernel")
    assert "0 (exact)" in still.proof[0] and "e-" not in " ".join(still.proof)
    # the still's words in lecture notation too
    words = " ".join([p.title or "" for p in panels] + list(still.proof) + [still.subtitle])
    assert "[" not in words.replace("[\\!", "") and "Y_{\\mathrm{full}}" not in words


def test_passes_writes_lecture_notation():
    # causal named on the symbol (review round 3: plain Attn is clip 02's unmasked map)
    assert fig.passes(1) == '"Attn"_"causal" (x_0)'
    assert fig.passes(3) == '"Attn"_"causal" (x_0, x_1, x_2)'
    assert fig.passes(6) == '"Attn"_"causal" (x_0, dots, x_5)'
    assert fig.passes_tex(6) == r"\mathrm{Attn}(x_0, \ldots, x_{5})"
    assert fig.prefix_row("n") == "y_n^((t))" and fig.prefix_row("12") == "y_(12)^((t))"
    assert fig.prefix_row("0, 1") == "y_(0, 1)^((t))" and fig.prefix_length(5) == "t = 5"


@pytest.mark.parametrize("which", ["fixed", "blas"])
def test_the_zooms_title_stands_inside_the_leaders_fan(run, which):
    """The leader lines from the strips' last bits to their magnified copy end over the zoom's title (they ran
    to the rows' corners and crossed "the last 8 bits"): no leader passes through the title's box."""
    scene, _ = run
    b = getattr(scene, f"board_{which}")
    t = b.zoom_title
    for ln in b.leaders:
        (_, y0, _), (_, y1, _) = ln.get_start(), ln.get_end()
        assert min(y0, y1) >= t.get_top()[1] - 1e-6, (min(y0, y1), t.get_top()[1])
    assert b.leaders[0].get_end()[0] <= t.get_left()[0] and b.leaders[1].get_end()[0] >= t.get_right()[0]


def test_the_product_stands_in_the_middle_of_its_room(run):
    """The inference beat's picture (the cached step and the recompute), with its names, is centred in the room over the verdicts (with few rows it
    hung from the top over an empty band)."""
    scene, _ = run
    room_top = scene.layout.content.top
    from scenes.kit.compose import GAP

    room_bottom = scene.inf_lines.get_top()[1] + GAP.wide  # the verdicts' strip and its gap
    from manim import VGroup

    product = VGroup(scene.cached_tag, scene.recompute_tag, scene.inf_names, scene.inf_A, scene.inf_V, scene.inf_Y)
    above, below = room_top - product.get_top()[1], product.get_bottom()[1] - room_bottom
    assert abs(above - below) < 0.15, (above, below)


def test_review_round3_causal_named_shortest_prefix_said_brackets_bold(run):
    """Review round 3 (04): the bitwise sentence said "from both passes" while the strips compare the full pass
    with x₀ alone (t = 1), unannounced; the close's prefix brackets were thin grey lines, the least salient thing
    on screen; the inference's row names' superscripts were under the 8 px floor at 480p."""
    scene, res = run
    d = scene.data
    t = d.entry[0]
    said = {c.key: c.text for c in scene.captions}
    assert t == 1 and "shortest prefix" in said["bitwise"] and "both passes" not in said["bitwise"]
    assert f"t = {t}" in scene.board_fixed.heads[1].typst_code
    from scenes.kit import HEADING
    from scenes.kit.theme import math

    for br in scene.prefix_brackets[:-1]:  # each bracket (its three strokes) and its t, in the highlight, bold
        assert all(rgb255(ln.get_stroke_color()).tolist() == rgb255(HIGHLIGHT).tolist() and ln.stroke_width >= 4
                   for ln in br[0])
    last = d.Y_full.shape[0] - 1
    for m in (scene.inf_names[2], scene.inf_names[4]):  # the two rows' names at the heading size
        assert m.height == pytest.approx(math(m.typst_code.strip("$ "), size=HEADING).height, rel=0.02)
    assert scene.inf_names[2].typst_code.strip("$ ") == f'y_{last}^"cached"'


def test_the_last_row_beat_qualifies_cannot_change(run):
    """Review round 8: "rows 0 to 4 never saw token 5, so they cannot change" was said unconditionally, three beats
    before BLAS shows them change by an ulp.  The sentence now says where it holds: in exact arithmetic."""
    line = run[0].caption("last_row")
    assert "cannot change" in line and "in exact arithmetic" in line


def test_review_round10_only_proper_prefixes_are_counted_on_a_table_that_fills_the_frame(run):
    """Review round 10 (04): the table and the close counted t = T, the full pass compared with itself (a 0 that
    proves nothing), and the narration said "from 1 token to 6"; the table was small type over half an empty
    frame.  Now every prefix shown, counted and said is a proper one, t = 1 … T−1 (the table's rows, the close's
    brackets, the sentences), and the table's type is larger than the verdicts' heading.  Main fails: its table
    and brackets run to t = T, in heading-size type."""
    from scenes.kit import HEADING

    scene, res = run
    T = scene.data.X.shape[0]
    proper = [str(t) for t in range(1, T)]
    tb = scene.table
    assert [c.typst_code.strip("$ ") for c in tb.ts[1]] == proper  # the table's rows
    assert [br[1].typst_code.strip("$ ") for br in scene.prefix_brackets[:-1]] == proper  # the close's brackets
    for key in ("every_prefix", "close"):
        c = _caption(scene, key)
        said = c.text + " " + c.describe
        assert f"to {T - 1}" in said and f"to {T}" not in said, key
    visible = _visible_ids(_rec(res, "every_prefix"))
    assert all(id(c) in visible for c in tb.ts[1])
    assert tb.size > HEADING  # the table is its beats' subject: its figures outsize the verdicts beside them
    content = scene.layout.content
    rows = VGroup(*tb.ts[1])
    assert rows.height >= 0.5 * content.height  # its rows span at least half the content's height


def test_review_round10_the_weights_are_printed_uncoloured_and_each_kernel_is_named_over_both_strips(run):
    """Review round 10 (04): the inference beat painted the weights in a third colour map (viridis) with no colour
    bar beside the outputs' diverging one; beat 08 named "BLAS matmul" level with the second strip only, where
    beat 06 names "fixed order" over both.  Now the weights are figures in outlined, unfilled cells (one colour map
    on screen, the outputs'), and both kernels' names stand in one place, level with the first header, at one
    size.  Main fails: the weights' cells are filled, and the BLAS name is level with the second header."""
    scene, _ = run
    d = scene.data
    np.testing.assert_array_equal(scene.inf_A.values, d.a_step)
    for n in range(d.a_step.shape[0]):
        assert scene.inf_A.cell(n, 0).get_fill_opacity() == 0.0  # no colour: the figures are the weights
    assert [t.text for t in scene.inf_A.labels] == [fmt_value(v, 2) for v in d.a_step[:, 0]]
    tags = [b.kernel_tag for b in (scene.board_fixed, scene.board_blas)]
    for b, tag in zip((scene.board_fixed, scene.board_blas), tags):
        assert abs(tag.get_y() - b.heads[0].get_y()) < 1e-6  # over both strips, beside the first header
        assert tag.get_left()[0] > b.heads[0].get_right()[0]
    assert tags[0].height == pytest.approx(label("fixed order", size=HEADING).height, rel=0.05) or \
        tags[0].height == pytest.approx(label("fixed order", size=LABEL).height, rel=0.05)
    assert abs(tags[0].get_right()[0] - tags[1].get_right()[0]) < 1e-6
