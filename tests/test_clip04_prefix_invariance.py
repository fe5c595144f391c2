"""Clip 04 PrefixInvariance: data binding, rows landing on rows, the defects drawn where they were
measured, one entry's bits, the measured figures typeset, captions, lecture language (labels bound,
every beat changing the picture, one subject a frame), the closing takeaway, and the still drawn with
the clip's own scale."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    shipped_audit,
    assert_captions_readable,
    dominant_ink,
    pixel,
    render_final_frame,
    rgb255,
)
from mathcore import attention_fn, lecture_inputs, load_config, prefix_defects, prefix_invariance_max_defect
from mathcore.causal import float_sum_orders
from mathcore.causal_bits import differing_bits, float_bits, prefix_entry_pair, worst_prefix_entry
from scenes.clips.c04_prefix_invariance import PrefixInvariance
from scenes.figures import causal as fig
from scenes.figures import designed_stills
from scenes.kit import BG, HIGHLIGHT, VERIFIED, fmt_measure, fmt_value
from scenes.kit.theme import CONTENT_BOTTOM
from scenes.audit.beats import DIMMED, audit_clip, signature
from scenes.kit.numbers import nice_ceil
from scenes.stills.spec import HeatmapPanel as StillHeatmap


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PrefixInvariance)


@pytest.fixture(scope="module")
def beats():
    """The picture at the end of every beat (the plot is read before the aside and the close fade it)."""
    res = shipped_audit(PrefixInvariance)
    return res.scene, dict(res.beat_frames)


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
    assert d.max_fixed == prefix_invariance_max_defect(fixed, li.X) == 0.0
    assert d.max_blas == prefix_invariance_max_defect(blas, li.X)
    assert d.max_blas < 1e-12  # BLAS differs at most in the last bits
    np.testing.assert_array_equal(d.Y_full[: cfg.T - 1], d.Y_prefix)  # bitwise: the clip's claim
    assert d.sum_orders == float_sum_orders(*d.sum_terms)
    assert d.cmap_signed == cfg.cmap_signed
    # one entry's bits: where the BLAS kernel is worst, from both passes and both kernels
    assert d.entry == worst_prefix_entry(blas, li.X)
    for bits, f in ((d.fixed_bits, fixed), (d.blas_bits, blas)):
        full, pre = prefix_entry_pair(f, li.X, *d.entry)
        np.testing.assert_array_equal(bits, [float_bits(full), float_bits(pre)])
    t, i, j = d.entry
    assert prefix_entry_pair(fixed, li.X, t, i, j)[0] == d.Y_full[i, j]
    assert not differing_bits(*prefix_entry_pair(fixed, li.X, t, i, j)).any()
    assert differing_bits(*prefix_entry_pair(blas, li.X, t, i, j)).any() == (d.max_blas > 0)


def test_both_maps_print_and_paint_the_computed_outputs(final):
    scene, frame = final
    d = scene.data
    T, dm = d.Y_full.shape
    for hm, Y in ((scene.full, d.Y_full), (scene.prefix, d.Y_prefix)):
        np.testing.assert_array_equal(hm.values, Y)
        assert hm.show_values  # the shipped config's maps print their numbers
        assert [t.text for t in hm.labels] == [fmt_value(v, 2) for v in Y.ravel()]
    # the full map at the end of the clip (brought forward): every cell the colour of its value
    for i in range(T):
        for j in range(dm):
            got = pixel(scene, frame, scene.full.cell(i, j).get_corner([-1, 1, 0]) + np.array([0.08, -0.06, 0]))
            want = rgb255(scene.scale.rgb(d.Y_full[i, j]))
            assert np.abs(got - want).max() <= 8, (i, j, got, want)
    bar = scene.bar
    assert bar.color_scale is scene.scale is scene.full.color_scale is scene.prefix.color_scale
    m = nice_ceil(float(np.max(np.abs(np.concatenate([d.Y_full.ravel(), d.Y_prefix.ravel()])))))
    assert (bar.color_scale.norm.vmin, bar.color_scale.norm.vmax) == pytest.approx((-m, m))
    assert [t.text for t in bar.tick_labels] == [f"\u2212{m:g}", "0", f"{m:g}"]  # round ticks


def test_prefix_rows_landed_exactly_on_the_full_rows_and_handed_over(final):
    scene, frame = final
    d = scene.data
    full = scene.full
    T, dm = d.Y_full.shape
    assert len(scene.landed) == T - 1
    for i, p in enumerate(scene.landed):
        np.testing.assert_allclose(p, scene.targets[i], atol=1e-6)
    # the prefix rows left the screen once they landed: only the full map's cells are drawn there
    on_screen = {id(f) for m in scene.mobjects for f in m.get_family()}
    assert not any(id(c) in on_screen for row in scene.prefix.cells for c in row)
    assert all(id(c) in on_screen for row in full.cells for c in row)
    # one green mark beside each landed row (still at the end, with the map), none beside the new row
    assert len(scene.checks) == T - 1
    for i, mk in enumerate(scene.checks):
        assert abs(mk.get_center()[1] - full.cell(i, 0).get_center()[1]) < 1e-6
        assert mk.get_left()[0] > full.get_right()[0]
        assert np.abs(dominant_ink(scene, frame, mk, BG) - rgb255(VERIFIED)).max() <= 40
    # the new row was outlined in HIGHLIGHT where the full map stood then
    assert scene.new_row.get_top()[1] < scene.targets[T - 2][1] + 0.1
    assert scene.new_row.get_bottom()[1] < scene.targets[T - 1][1] < scene.new_row.get_top()[1]
    assert scene.new_row.get_stroke_color().to_hex() == HIGHLIGHT.to_hex()
    assert scene.landed_outline.get_bottom()[1] == pytest.approx(full.cell(T - 2, 0).get_bottom()[1], abs=0.05)
    assert scene.landed_outline.get_bottom()[1] < full.cell(T - 2, 0).get_bottom()[1]


def test_the_defects_are_drawn_where_they_were_measured(beats):
    scene, frames = beats
    frame = frames["blas" if scene.data.max_blas else "blas_same"]
    d = scene.data
    T = d.X.shape[0]
    plot = scene.plot
    for name, values in (("fixed", d.defects_fixed), ("blas", d.defects_blas)):
        marks = scene.series[name]
        assert len(marks) == T
        for x, v, mk in zip(marks.xs, values, marks):
            if v == 0.0:  # an exact zero: the mark on the axis floor
                assert mk.exact and mk.value == 0.0
                floor = plot.to_point(x, plot.y_range[0])
                assert abs(mk[0].get_center()[0] - floor[0]) < 1e-6 and mk[0].get_bottom()[1] >= floor[1] - 1e-6
            else:  # a bar up to the measured value on the log axis
                assert not mk.exact and mk.value == v
                top = plot.to_point(x, v)
                assert abs(mk[0].get_top()[1] - top[1]) < 1e-6 and abs(mk[0].get_center()[0] - top[0]) < 1e-6
                assert np.abs(pixel(scene, frame, mk[0].get_center()) - rgb255(BG)).sum() > 60
    # log ticks typeset as 10^k, never e-notation
    assert all("10^" in t.typst_code for t in plot.y_tick_labels)


def test_the_figures_on_screen_are_the_measured_ones(beats):
    scene, frames = beats
    frame = frames["blas" if scene.data.max_blas else "blas_same"]
    d = scene.data
    assert scene.fixed_max.figure.text == fmt_measure(d.max_fixed) == "exactly 0"
    assert scene.blas_max.figure.text == fmt_measure(d.max_blas)
    ink_fixed = dominant_ink(scene, frame, scene.fixed_max, BG)
    ink_blas = dominant_ink(scene, frame, scene.blas_max, BG)
    assert np.abs(ink_fixed - rgb255(VERIFIED)).max() <= 40
    assert np.abs(ink_blas - rgb255(HIGHLIGHT)).max() <= 40
    left, right = d.sum_orders
    assert scene.why_left.typst_code.replace(" ", "").endswith(repr(left) + "$")
    assert scene.why_right.typst_code.replace(" ", "").endswith(repr(right) + "$")
    assert scene.why_neq.typst_code.strip("$ ") == ("!=" if left != right else "=")
    # the proof: one typeset line, the exact zero with its mark and a check
    assert scene.proof_fixed.figure.exact and scene.proof_fixed.check in scene.proof_fixed
    src = scene.proof_fixed.value[0].typst_code
    assert 'Y_"full"' in src and '"Attn"' in src and "lr(|" in src
    assert 'class("normal", :)' in src  # the slice's colon without a relation's spaces: Y_full[:t], not Y [: t]


def test_one_entry_is_shown_bit_for_bit(final):
    scene, _ = final
    d = scene.data
    for pair, bits in ((scene.bits_fixed, d.fixed_bits), (scene.bits_blas, d.blas_bits)):
        for strip, b in zip(pair.strips, bits):
            np.testing.assert_array_equal(strip.bits, b)
            assert len(strip.cells) == 64
            for k, cell in enumerate(strip.cells):  # a set bit is bright, a clear one faint
                assert (cell.get_fill_color().to_hex() == "#E8E6E3") == bool(b[k])
        np.testing.assert_array_equal(pair.differ, bits[0] != bits[1])
        assert len(pair.marks) == 2 * int(pair.differ.sum())  # each differing bit outlined on both strips
    assert not scene.bits_fixed.differ.any()
    assert scene.bits_fixed.readout[-1].text.replace(" ", "") == "64of64bitsequal"
    same = 64 - int(scene.bits_blas.differ.sum())
    assert scene.bits_blas.readout[-1].text.replace(" ", "") == f"{same}of64bitsequal"


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert any(fmt_measure(scene.data.max_blas) in c.text for c in caps)
    assert_captions_readable(caps)


def test_the_key_figures_end_above_the_subtitle_band(final):
    scene, _ = final
    for m in (scene.plot, scene.why, scene.inference, scene.full, scene.key_fixed, scene.bits_blas):
        assert m.get_bottom()[1] >= CONTENT_BOTTOM - 1e-6


# ------------------------------------------------------------------ lecture language and the takeaway
def test_labels_name_the_arrays_shown_with_them(final):
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}

    def pairs(key):
        return {q for q, _ in rec[key].named}, {q for q, _ in rec[key].shown}

    assert pairs("full") == ({"Y_full"}, {"Y_full"})
    assert pairs("prefix") == ({"Y_full", "Y_prefix"}, {"Y_full", "Y_prefix"})
    assert pairs("last_row") == ({"Y_full"}, {"Y_full"})
    assert pairs("close") == (set(), {"Y_full"})  # the map brought forward, named by the proof under it
    for r in scene.audit.records:
        for q, vals in r.shown:
            np.testing.assert_array_equal(vals, scene.quantities()[q])
    assert not [p for p in scene.audit.lecture if p.kind in ("binding", "notation")]


def test_every_beat_changes_the_picture_one_subject_at_a_time(final):
    scene, _ = final
    for r in scene.audit.records:
        assert r.start is not None and r.start != signature(r), r.key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]
    rec = {r.key: r for r in scene.audit.records}
    content = scene.layout.content

    def visible_texts(key):
        return [i for i in rec[key].items if i.kind == "text" and not i.header and i.opacity >= DIMMED]

    # the plot's stage shows no output map; the aside shows neither the plot nor a map
    numbers = {fmt_value(v, 2) for v in scene.data.Y_full.ravel()}
    for key in ("every_prefix", "bitwise", "why", "inference"):
        assert not [i for i in visible_texts(key) if i.name.strip("'") in numbers], key
    assert not [i for i in visible_texts("why") if i.is_math and "10^" in i.text]
    # the plot is the subject of its beats: most of the content's width
    assert scene.plot.axes.width >= 0.6 * content.width
    # in the bits beat the plot steps back (dimmed), and comes back for BLAS
    dim = [i for i in rec["bitwise"].items if i.kind == "text" and i.is_math and "10^" in i.text]
    assert dim and all(i.opacity < DIMMED for i in dim)


def test_the_clip_ends_on_the_full_outputs_and_the_exact_zero_large(final):
    scene, _ = final
    content = scene.layout.content
    rec = {r.key: r for r in scene.audit.records}["close"]
    visible = [i for i in rec.items if not i.header and i.opacity > DIMMED]
    maths = [i.text for i in visible if i.kind == "text" and i.is_math]
    assert any(fig.prefix_proofs(scene.data)[0].formula in t for t in maths)
    assert not [t for t in maths if "10^" in t or "0.6" in t]  # the plot and the aside are gone
    assert scene.full.height >= 0.6 * content.height
    assert all(any(f is g for m in scene.mobjects for g in m.get_family()) for f in scene.closing_picture)
    take = scene.takeaway()
    assert content.contains(take)
    assert scene.proof_fixed.get_top()[1] < scene.full.get_bottom()[1]  # the proof under the outputs


def test_the_still_and_the_clip_use_one_scale_per_quantity(final):
    scene, _ = final
    d = scene.data
    still = designed_stills("PrefixInvariance", d, scene.cfg)[0]
    clip_scales = {"Y_full": scene.full.color_scale, "Y_prefix": scene.prefix.color_scale}
    q = scene.quantities()
    panels = [p for p in still.panels.values() if isinstance(p, StillHeatmap)]
    assert len(panels) == 2
    for p in panels:
        name = next(k for k in clip_scales if np.array_equal(q[k], p.values))
        assert p.scale.same_as(clip_scales[name]) and p.scale.same_as(fig.prefix_scales(d)[name]), name
    fixed, blas = fig.prefix_proofs(d)
    assert still.proof[0] == fixed.still_text("every $t$, one fixed summation order, bit for bit")
    assert still.proof[1] == blas.still_text("the same check with a BLAS matmul kernel")
    assert "0 (exact)" in still.proof[0] and "e-" not in " ".join(still.proof)


def test_beats_whose_picture_says_more_than_the_narration_are_described(final):
    scene, _ = final
    d = scene.data
    described = {c.key: c.describe for c in scene.captions if c.describe}
    blas = "blas" if d.max_blas else "blas_same"
    assert {"full", "slide", "last_row", "every_prefix", "bitwise", blas, "why", "close"} <= set(described)
    t, i, j = d.entry
    assert f"row {i}, column {j}" in described["bitwise"] and f"first {t} tokens" in described["bitwise"]
    if d.max_blas:
        assert f"{64 - int((d.blas_bits[0] != d.blas_bits[1]).sum())} of 64 bits agree" in described["blas"]
    assert all("{" not in s and "e-" not in s for s in described.values())
