"""Clip 05 KVCache: data binding, caches and outputs drawn from the trace, one colour scale for the whole
clip, the concept colours of keys, values and the query, the measured figures typeset, captions,
lecture language (labels bound, every beat changing the picture), the closing takeaway, and the still
drawn with the clip's own scale."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DL, VGroup

from frames import (
    dominant_ink,
    pixel,
    rgb255,
)
from mathcore import bidirectional_staleness, kv_cache_decode, lecture_inputs, load_config, self_attention
from mathcore.causal import append_change, prefix_outputs
from scenes.clips.c05_kv_cache import KVCache
from scenes.clips.c05_widgets import NEW_INK
from scenes.figures import causal as fig
from scenes.figures import designed_stills
from scenes.kit import BG, KEY, QUERY, VALUE, VERIFIED, fmt_measure, fmt_value
from scenes.kit.theme import CONTENT_BOTTOM
from scenes.audit.beats import DIMMED, signature
from scenes.kit.scales import scale as deck_scale
from scenes.stills.spec import HeatmapPanel as StillHeatmap


SCENE = KVCache


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = KVCache.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv)
    assert len(d.trace.steps) == cfg.T
    for a, b in zip(d.trace.steps, tr.steps, strict=True):
        assert a.t == b.t and a.recompute_defect == b.recompute_defect
        for f in ("q", "K_cache", "V_cache", "weights", "y"):
            np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    # the cache grows by one row per step and keeps every old row unchanged
    for s in d.trace.steps:
        assert s.K_cache.shape[0] == s.V_cache.shape[0] == s.t + 1 == len(s.weights)
        np.testing.assert_array_equal(s.K_cache, d.trace.steps[-1].K_cache[: s.t + 1])
    np.testing.assert_array_equal(d.K, tr.steps[-1].K_cache)
    np.testing.assert_array_equal(d.V, tr.steps[-1].V_cache)
    np.testing.assert_array_equal(d.Q, [s.q for s in tr.steps])
    np.testing.assert_array_equal(d.trace.Y_cached, self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True)[0])
    assert d.max_defect == tr.max_defect == 0.0
    stale = bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv)
    for a, b in zip(d.staleness, stale, strict=True):
        np.testing.assert_array_equal(a, b)
    assert d.min_stale == min(float(s.min()) for s in stale) > 0
    assert d.causal_change_max == max(float(c.max()) for c in append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True)) == 0.0
    for a, b in zip(d.Y_bidir, prefix_outputs(li.X, li.Wq, li.Wk, li.Wv, causal=False), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(d.Y_bidir_full, d.Y_bidir[-1])
    assert d.cmap_signed == cfg.cmap_signed


def test_caches_weights_and_outputs_are_drawn_from_the_trace(final):
    scene, _ = final
    d = scene.data
    last = d.trace.steps[-1]
    np.testing.assert_array_equal(scene.K_map.values, last.K_cache)
    np.testing.assert_array_equal(scene.V_map.values, last.V_cache)
    np.testing.assert_array_equal(scene.Y_map.values, d.trace.Y_cached)
    np.testing.assert_array_equal(scene.q_map.values, last.q[None, :])  # the query row shows the last step's query
    for s, wg in zip(d.trace.steps, scene.weight_groups, strict=True):
        nums, cells = wg
        assert [t.text for t in nums] == ["1" if w == 1.0 else fmt_value(w, 2) for w in s.weights]
        np.testing.assert_array_equal(cells.values[:, 0], s.weights)  # one cell per weight, its value
        for i, w in enumerate(s.weights):  # level with the cache row it weighs
            assert abs(cells.cell(i, 0).get_center()[1] - scene.K_map.cell(i, 0).get_center()[1]) < 1e-6
            assert abs(nums[i].get_center()[1] - cells.cell(i, 0).get_center()[1]) < 1e-6


def test_the_cached_frame_holds_the_k_and_v_rows_not_the_outputs(final):
    """Issue 33 (05 `legend`): main's "cached" brace spanned the outputs y_0 … y_4, but a KV cache holds K
    and V, not outputs.  The frame named "cached" now goes round the K and V rows of the past tokens
    (0 … T−2) and nothing else: its left before k's names, its right past V's last column, short of the
    weights and the outputs; the new row T−1 stays outside it."""
    scene, _ = final
    b = scene.board
    T = len(scene.data.trace.steps)
    frame = b.brace
    assert list(b.cache_rows) == list(range(T - 1))
    assert frame.get_left()[0] <= b.k_labels.get_left()[0] and frame.get_right()[0] >= scene.V_map.get_right()[0]
    assert frame.get_right()[0] < scene.Y_map.get_left()[0] and frame.get_right()[0] < min(
        n.get_left()[0] for wg in scene.weight_groups for n in wg[0])  # not the weights, not the outputs
    for hm in (scene.K_map, scene.V_map):
        assert frame.get_top()[1] >= hm.cell(0, 0).get_top()[1] - 1e-6
        assert frame.get_bottom()[1] == pytest.approx(hm.cell(T - 2, 0).get_bottom()[1], abs=0.05)
        assert frame.get_bottom()[1] > hm.cell(T - 1, 0).get_center()[1]  # the new row is outside
    word = b.tags[0][1]
    assert word.text == "cached" and word.get_right()[0] < frame.get_left()[0]


def test_one_colour_scale_for_every_cell_of_the_clip(final):
    """Issue 33: the deck's scales (one per quantity): K and every query on its "inputs" scale (X's
    projections); V and every output, cached or bidirectional, on its "outputs" scale (main painted y_0 on ±3
    here and on ±2 in clip 04; then V on ±3 beside y_0 = v_0 on ±2: see the test after this one)."""
    scene, _ = final
    cfg = scene.cfg
    ins, outs = deck_scale("inputs", cfg), deck_scale("outputs", cfg)
    for hm in (scene.K_map, scene.q_map):
        assert hm.color_scale is scene.in_scale
    for hm in (scene.V_map, scene.Y_map, scene.bi_map):
        assert hm.color_scale is scene.out_scale
    assert scene.in_scale.same_as(ins) and scene.out_scale.same_as(outs)
    for q, sc in fig.kv_scales(scene.data, cfg).items():
        assert sc.same_as(ins if q in ("K", "Q") else outs), q


def test_v0_and_y0_are_one_row_in_one_colour_under_the_bar_they_share(beats):
    """Review 2026-12-06 (05, colour): causally y_0 = v_0 (the first token attends to itself alone), yet main
    painted v_0 on the inputs' ±3 and y_0 on the outputs' ±2: the same numbers in two colours either side
    of the weights, and no colour bar at all.  Now V and the outputs share the outputs scale, and its bar
    stands beside them from the first beat: the pixels of v_0's cells and y_0's are the same colours.
    Main fails the first assertion (V on the inputs scale) and has no ``board.bar``."""
    scene, frames = beats
    d = scene.data
    np.testing.assert_array_equal(d.V[0], d.trace.Y_cached[0])  # what the sentence claims: y_0 is v_0
    b = scene.board
    assert scene.V_map.color_scale is scene.Y_map.color_scale is b.bar.color_scale
    assert b.bar.color_scale.same_as(deck_scale("outputs", scene.cfg))
    frame = frames["legend"]
    for j in range(d.V.shape[1]):
        pv = pixel(scene, frame, scene.V_map.cell(0, j).get_center())
        py = pixel(scene, frame, scene.Y_map.cell(0, j).get_center())
        assert np.abs(np.asarray(pv, int) - np.asarray(py, int)).max() <= 2, (j, pv, py)
    rec = {r.key: r for r in scene.audit.records}
    for key in ("setup", "legend", "equal"):  # the bar is on screen while V and the outputs are
        assert any(r.quantity == "outputs" and r.what == "ColorBar" for r in rec[key].scales), key
    assert any(r.quantity == "outputs" and r.what == "ColorBar" for r in rec["stale"].scales)  # and by the bidirectional outputs


def test_every_step_computes_the_new_tokens_query_key_and_value(final):
    """Review 2026-12-06 (05, beats 02–05): the note beside the query said "only the new query is computed",
    step1 "only its own query is new", legend "only the newest row is computed"; but each step computes
    q_m, k_m AND v_m from token m (``kv_cache_decode``) and reads k_n, v_n (n < m) from the cache.  This
    computes that from mathcore, then holds the narration and the note to it: main's texts fail both."""
    scene, _ = final
    cfg = scene.cfg
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    from mathcore.attention import matmul

    steps = scene.data.trace.steps
    for m, s in enumerate(steps):  # step m computes q_m, k_m and v_m from x_m ...
        x = li.X[m:m + 1]
        np.testing.assert_array_equal(s.q, matmul(x, li.Wq, "fixed")[0])
        np.testing.assert_array_equal(s.K_cache[m], matmul(x, li.Wk, "fixed")[0])
        np.testing.assert_array_equal(s.V_cache[m], matmul(x, li.Wv, "fixed")[0])
        if m:  # ... and the rows before are the previous step's cache, read unchanged
            np.testing.assert_array_equal(s.K_cache[:m], steps[m - 1].K_cache)
            np.testing.assert_array_equal(s.V_cache[:m], steps[m - 1].V_cache)
    says = {c.key: c.text for c in scene.captions}
    for key in ("step0", "step1"):
        assert all(w in says[key] for w in ("query", "key", "value", "computed")), key
        assert "only" not in says[key], key
    assert "read from the cache" in says["step1"]
    note = "".join(t.text for t in scene.board.q_note.get_family() if hasattr(t, "text"))
    assert "only" not in note and "query" in note


def test_the_table_of_changes_names_its_rows_and_its_quantity(beats):
    """Review 2026-12-06 (05, beats 07–10): the table's rows had no names until the close and ‖Δy_n‖ was
    named only in the verdict.  From ``bidir`` on, row n is named y_n beside its first cell (level with it),
    and the corner says ‖Δy_n‖; from ``proof_bidir`` on the outputs are gone (review round 5: one subject), so
    y_n names the table's row alone."""
    scene, _ = beats
    T = len(scene.data.trace.steps)
    for t in (scene.bi_picture_in(scene.proof_top, scene.data.Y_bidir_full)[3], scene.table_big, scene.c_table):
        assert len(t.rows) == T - 1
        for n, lab in enumerate(t.rows):
            first = t.cells[n][n]  # column m = n + 1 is the first where y_n is a past row
            assert abs(lab.get_y() - first.get_y()) < 0.08 and lab.get_right()[0] <= first.get_left()[0] + 1e-6
            assert first.get_left()[0] - lab.get_right()[0] < 0.4
        assert t.corner.get_top()[1] > t.cells[0][0].get_top()[1]  # over the first row, with the heads
    rec = {r.key: r for r in scene.audit.records}
    for key in ("bidir", "stale", "proof_bidir", "proof_causal"):  # on screen, at full strength, from bidir on
        names_ = [it.name.strip("'") for it in rec[key].items if it.kind == "text" and it.opacity >= 0.99]
        assert "norm(Delta y_n)" in names_, key
        for n in range(T - 1):  # y_n beside the table's row, and beside the outputs while they are there
            want = {"bidir": 1 + (n == 0), "stale": 2}.get(key, 1)
            assert names_.count(f"y_{n}") == want, (key, n)


def test_keys_values_and_the_query_wear_their_concept_colours(final):
    scene, _ = final
    b = scene.board
    assert all(lab.get_color().to_hex() == KEY.to_hex() for lab in b.k_labels)
    assert all(lab.get_color().to_hex() == VALUE.to_hex() for lab in b.v_labels)
    assert all(lab.get_color().to_hex() == QUERY.to_hex() for lab in b.q_labels)
    heads = {h.text: h.get_color().to_hex() for h in b.heads}
    assert heads["Kcache"] == KEY.to_hex() and heads["Vcache"] == VALUE.to_hex()
    assert all(mk.get_stroke_color().to_hex() == NEW_INK.to_hex() for mk in scene.markers)  # look here: the new row


def test_final_frame_draws_the_bidirectional_outputs_and_the_changes(beats):
    scene, frames = beats
    frame = frames["stale"]  # the last beat the outputs are on screen (review round 5: the table alone after it)
    d = scene.data
    T = len(d.trace.steps)
    hm = scene.bi_map
    np.testing.assert_array_equal(hm.values, d.Y_bidir[-1])
    for i in range(T):
        for j in range(hm.values.shape[1]):
            got = pixel(scene, frame, hm.cell(i, j).get_corner(DL) + np.array([0.1, 0.1, 0]))
            want = rgb255(scene.out_scale.rgb(d.Y_bidir[-1][i, j]))
            assert np.abs(got - want).max() <= 6, (i, j, got, want)
    # the stage after token m holds the bidirectional outputs of the first m+1 tokens
    for m, st in enumerate(scene.bi_stages):
        np.testing.assert_array_equal(st[: m + 1], d.Y_bidir[m])
    # the table prints every measured change where it belongs: column m (token x_m appended), row n (y_n)
    for tab in (scene.table, scene.table_big):
        for m, s in enumerate(d.staleness, start=1):
            assert [t.text for t in tab.numbers[m - 1]] == [fmt_measure(float(v)) for v in s]
            np.testing.assert_array_equal(tab.values[: m, m - 1], s)


def test_the_figures_on_screen_are_the_measured_ones(final):
    """Issue 33 (05's close had no ✗): the results close as verdicts, ✓ for cached = recompute, ✓ for the causal
    change and ✗ for the bidirectional change, each with its measured figure."""
    scene, frame = final
    d = scene.data
    assert scene.proof_value.figure.text == fmt_measure(d.max_defect) == "exactly 0"
    assert scene.stale_value.figure.text == scene.stale_bound.text
    assert scene.causal_value.figure.text == fmt_measure(d.causal_change_max) == "exactly 0"
    assert scene.proof.passed and scene.proof_causal.passed and not scene.proof_bi.passed
    assert scene.recompute_verdict.passed and scene.cached_verdict.passed
    assert scene.recompute_verdict.figure.text == fmt_measure(d.max_defect) == "exactly 0"
    assert scene.cached_verdict.figure.text == "exactly 0" and scene.proof_bi.value.figure.text == scene.stale_bound.text
    for v in (scene.recompute_verdict, scene.cached_verdict):  # the two shown in the close (the ✗ was beat 09's)
        assert dominant_ink(scene, frame, v.value, BG).tolist() != rgb255(BG).tolist()
        assert np.abs(dominant_ink(scene, frame, v.check, BG) - rgb255(VERIFIED)).max() <= 40


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 12
    assert any(scene.stale_bound.text in c.text for c in caps)


def test_the_key_figures_end_above_the_subtitle_band(final):
    scene, _ = final
    for m in (scene.table, scene.proof_bi, scene.proof_causal, scene.proof, scene.board.tags, scene.bi_map,
              scene.recompute_verdict, scene.cached_verdict, scene.close_context, scene.table_big, scene.c_table):
        assert m.get_bottom()[1] >= CONTENT_BOTTOM - 1e-6


def test_the_decoding_picture_does_not_overlap(final):
    scene, _ = final
    b = scene.board
    lowest_row = min(scene.K_map.get_bottom()[1], scene.V_map.get_bottom()[1], scene.Y_map.get_bottom()[1])
    top_row = max(scene.K_map.get_top()[1], scene.V_map.get_top()[1], scene.Y_map.get_top()[1])
    assert b.tags.get_right()[0] <= scene.V_map.get_right()[0] + 0.2  # the tags stand on the caches' side
    assert b.tags.get_top()[1] <= top_row + 0.2 and b.tags.get_bottom()[1] >= lowest_row - 0.1
    assert b.q_note.get_left()[0] > scene.q_map.get_right()[0]
    assert scene.q_map.get_bottom()[1] > scene.K_map.get_top()[1]
    assert scene.V_map.get_left()[0] > scene.K_map.get_right()[0] and scene.Y_map.get_left()[0] > scene.V_map.get_right()[0]


@pytest.mark.parametrize("d_model", [2, 6])
def test_the_board_fits_every_allowed_length_and_its_bars_are_the_weights(final, tmp_path, d_model):
    """Found by the sweep in CI: 5 tokens of 6 features left the cells 0.002 too narrow (``k_4`` sets
    wider than ``k_5``) and the clip would not build. The bars now give way before the cells do."""
    from scenes.figures.causal import kv_scales
    from scenes.kit.compose import GAP
    from scenes.clips.c05_widgets import DecodeBoard
    from scenes.render.matrix import write_config

    scene, _ = final
    region = scene.layout.content
    for T in range(3, 7):
        cfg = load_config(write_config({"sizes.T": T, "sizes.d": d_model, "permutation.perm": list(range(T))[::-1]},
                                       tmp_path / f"T{T}.toml"))
        d = KVCache.build_data(cfg)
        sc = kv_scales(d, cfg)
        b = DecodeBoard(d.trace.steps, d.trace.Y_cached, sc["K"], sc["trace.Y_cached"], region)
        assert b.cell_w >= GAP.normal and b.cell_h >= GAP.normal, (T, b.cell_w, b.cell_h)
        assert b.MIN_BAR_LEN <= b.bar_len <= b.BAR_LEN
        assert b.get_left()[0] >= region.left - 1e-6 and b.get_right()[0] <= region.right + 1e-6, T
        for s, (nums, cells) in zip(d.trace.steps, b.weights, strict=True):
            np.testing.assert_array_equal(cells.values[:, 0], s.weights)
            assert all(t.width <= cells.cell_w for t in nums)  # each weight's figure inside its cell


# ------------------------------------------------------------------ lecture language and the takeaway
def test_widgets_show_the_arrays_they_are_bound_to(final):
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}
    assert {q for q, _ in rec["legend"].shown} == {"K", "V", "trace.Y_cached"}
    assert {q for q, _ in rec["stale"].shown} == {"Y_bidir_full"}
    for r in scene.audit.records:
        for q, vals in r.shown:
            np.testing.assert_array_equal(vals, scene.quantities()[q])
    assert not [p for p in scene.audit.lecture if p.kind in ("binding", "notation")]


def test_every_beat_changes_the_picture(final):
    scene, _ = final
    for r in scene.audit.records:
        assert r.start is not None and r.start != signature(r), r.key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_the_clip_ends_on_its_takeaway_large_and_its_contrast_dimmed(final):
    """Review round 10 (05 close): two small panels side by side (a dashboard), the takeaway no larger than its
    contrast.  (Round 6: three verdicts and no picture; round 5: two tables and two verdict blocks crowded it.)  Now one
    subject: the causal table of changes, every cell "0", the largest thing on screen, ✓ the largest change exactly 0
    under it and ✓ cached = full recompute (exactly 0) across the top; right of it, small and dimmed below the
    audit's background opacity, the bidirectional table, every cell a grey of the log scale."""
    from scenes.audit.truth import FULL
    from scenes.kit.compose import DIMMED as DIM_LEVEL

    scene, frame = final
    content = scene.layout.content
    d = scene.data
    close = {r.key: r for r in scene.audit.records}["close"]
    assert d.trace.max_defect == 0.0 and d.causal_change_max == 0.0
    words = lambda v: "".join(p.text for p in v.line.words).replace(" ", "")  # noqa: E731
    assert words(scene.recompute_verdict).startswith("cached=fullrecompute")
    assert words(scene.cached_verdict).startswith("causal:largestchange") and scene.cached_verdict.passed
    assert scene.close_bi_head.text == "bidirectional"
    # the subject: every cell "0", larger than the bidirectional table and at least half the area of beat 10's
    assert all(t.text == "0" for col in scene.close_causal.numbers for t in col)
    assert all(float(v) == 0.0 for s_ in d.causal_changes for v in s_)
    big, small = scene.close_causal, scene.close_bi
    assert big.cell_w * big.cell_h >= 4 * small.cell_w * small.cell_h
    assert np.isclose(small.cells[0][0].width, small.cell_w) and np.isclose(small.cells[0][0].height, small.cell_h)
    assert big.cell_w * big.cell_h >= 0.5 * scene.c_table.cell_w * scene.c_table.cell_h
    cells = VGroup(*[c for col in big.cells for c in col])
    assert cells.width >= 0.45 * content.width
    assert scene.cached_verdict.get_top()[1] < cells.get_bottom()[1]
    assert scene.recompute_verdict.get_bottom()[1] > big.get_top()[1]
    # the contrast: right of the subject, its cells the log scale's greys, at the dimmed level
    sc = scene.scales()["staleness"]
    for m, col in enumerate(small.cells, start=1):
        for n, cell in enumerate(col):
            assert cell.get_fill_color().to_hex().lower() == sc.color(float(d.staleness[m - 1][n])).to_hex().lower()
    assert scene.close_context.get_left()[0] > VGroup(big, scene.cached_verdict).get_right()[0]
    by_mid = {}
    for it in close.items:
        by_mid.setdefault(it.mid, []).append(it.opacity)
    ctx = [max(by_mid[id(f)]) for f in scene.close_context.get_family() if id(f) in by_mid]
    assert ctx and max(ctx) <= DIM_LEVEL + 1e-6
    full = [max(by_mid[id(f)]) for f in VGroup(big, scene.cached_verdict).get_family() if id(f) in by_mid]
    assert full and min(full) >= FULL
    for v in (scene.recompute_verdict, scene.cached_verdict):
        assert dominant_ink(scene, frame, v.value, BG).tolist() != rgb255(BG).tolist()
    on_screen = {id(f) for m in scene.mobjects for f in m.get_family()}
    for gone in (scene.K_map, scene.Y_map, scene.bi_map, scene.table_big, scene.c_table, scene.proof, scene.proof_bi):
        assert not any(id(f) in on_screen for f in gone.get_family())
    assert content.contains(scene.close_take)
    desc = {c.key: c.describe for c in scene.captions if c.describe}["close"]
    assert desc.index("causal table") < desc.index("full recompute") < desc.index("dimmed")
    says = {c.key: c.text for c in scene.captions}
    assert "next layer" in says["close"] and "stale" in says["close"]


def test_round10_the_change_is_named_once_where_the_table_is_read(run):
    """Review round 10 (05 07–11): ‖Δy_n‖ was named twice, at the table's corner and over its colour bar.  At every
    beat that draws a table of changes, the quantity is named exactly once on screen, at the corner of the table
    at full strength (the dimmed contrast of the close has no heads of its own)."""
    for r in run.records:
        if r.key not in ("bidir", "stale", "proof_bidir", "proof_causal", "close"):
            continue
        named = [it for it in r.items if it.kind == "text" and it.opacity >= DIMMED
                 and it.name.strip("'") == "norm(Delta y_n)"]
        assert len(named) == 1, (r.key, len(named))


def test_the_changes_colour_scale_has_its_bar_named_by_its_quantity_and_range(run):
    """Review round 5 (05 08): on a linear (square-root) grey the one large change (3.1) left the cells 0.010,
    0.023, 0.089 near-black, like "no change", the opposite of the beat's point.  The scale is now a log grey, whole
    decades from below the smallest change (at CHANGE_FLOOR of the bar at least) to the largest: every cell that
    moved is a visible grey.  Its bar stands right of the table wherever the table does, named ‖Δy_n‖, its ticks
    round decades (review round 5: not 3.1)."""
    from scenes.kit.scales import CHANGE_FLOOR

    scene = run.scene
    d = scene.data
    moved = np.concatenate([np.asarray(s, float) for s in d.staleness])
    lo, hi = float(moved.min()), float(moved.max())
    sc = deck_scale("output changes", scene.cfg, values=[*d.staleness, *d.causal_changes])
    assert sc.log and sc.vmax == pytest.approx(hi) and sc.vmin < lo
    assert np.log10(sc.vmin) == pytest.approx(round(np.log10(sc.vmin)))  # a whole decade
    rgb = np.asarray(sc.rgb(np.geomspace(sc.vmin, hi, 32)), float)[:, :3]
    assert np.abs(rgb[:, 0] - rgb[:, 2]).max() < 0.02 and np.abs(rgb[:, 0] - rgb[:, 1]).max() < 0.02  # grey: no hue
    assert rgb[0].max() < 0.05 and rgb[-1].min() > 0.95  # black to white
    assert float(sc.position(lo)) >= CHANGE_FLOOR - 1e-9
    bg = np.asarray(BG.to_rgb(), float)
    for v in moved:  # every cell that moved is visibly apart from the background (and from an unpainted 0)
        assert np.abs(np.asarray(sc.rgb(float(v)))[:3] - bg).max() >= 0.2, v
    for bar, table in ((scene.change_bar_bi, scene.table), (scene.change_bar_big, scene.table_big)):
        assert bar.color_scale.same_as(sc)
        assert not bar.title.submobjects and not bar.title.has_points()  # review round 10: ‖Δy_n‖ is named once, at the table's corner
        assert 2 <= len(bar.ticks) <= 4
        for t, lab in zip(bar.ticks, bar.tick_labels):  # round decades, printed as such
            assert np.log10(t) == pytest.approx(round(np.log10(t))) and sc.vmin <= t <= sc.vmax
            assert float(lab.text) == pytest.approx(t)
        cells = VGroup(*[c for col in table.cells for c in col])
        assert bar.frame.get_left()[0] > cells.get_right()[0]  # right of its table, level with it
        assert bar.get_top()[1] <= cells.get_top()[1] + 1e-6 and bar.get_bottom()[1] >= cells.get_bottom()[1] - 0.01
    rec = {r.key: r for r in run.records}
    for key in ("stale", "proof_bidir"):  # on screen while the table is painted
        assert any(r.quantity == "output changes" and r.what == "ColorBar" for r in rec[key].scales), key


def test_the_full_recompute_is_pictured_beside_the_cached_outputs(run):
    """Review round 4 (05 06): "differ by exactly 0" compared against a full recompute that was never shown, under
    "fixed order, bit for bit", words the narration never used.  The caches make way, and one causal pass over
    every token (mathcore's Y_full) stands left of the cached outputs, cell for cell the same size, under the
    verdict "cached = full recompute"; the two are equal bit for bit, as the verdict's exact 0 says."""
    scene = run.scene
    d = scene.data
    np.testing.assert_array_equal(d.trace.Y_full, d.trace.Y_cached)  # what the verdict claims
    np.testing.assert_array_equal(scene.full_map.values, d.trace.Y_full)
    np.testing.assert_array_equal(scene.Y_wide.values, d.trace.Y_cached)
    assert scene.full_map.cell_w == pytest.approx(scene.Y_wide.cell_w)
    assert scene.full_map.get_right()[0] < scene.Y_wide.get_left()[0]
    assert scene.full_head.text.replace(" ", "") == "fullrecompute" and scene.cached_head.text == "cached"
    rec = next(r for r in run.records if r.key == "equal")
    texts = " ".join(i.text for i in rec.items if i.kind == "text" and i.opacity > DIMMED).replace(" ", "")
    assert "cached=fullrecompute:" in texts and "bitforbit" not in texts
    code = scene.proof.formula.replace(" ", "")
    assert 'norm(y_m^"cached"-y_m^"full")' in code and "lr(|" not in code  # a vector's difference by a norm
    assert d.max_defect == 0.0  # every entry equal, so every norm of the difference is 0
    visible = _visible(run, "equal")
    for m in (scene.full_map, scene.Y_wide, scene.full_head, scene.cached_head):
        assert {id(f) for f in m.get_family()} & visible, type(m).__name__
    for m in (scene.K_map, scene.V_map):  # the caches made way
        assert not ({id(f) for f in m.get_family()} & visible)
    C = scene.layout.content
    pair = VGroup(scene.full_group, scene.cached_outputs)
    assert C.contains(pair) and pair.width >= 0.7 * C.width
    says = {c.key: c.text for c in scene.captions}
    desc = {c.key: c.describe for c in scene.captions if c.describe}
    assert "full recompute" in says["equal"] and "full recompute" in desc["equal"]


def test_the_weights_column_has_slots_a_colour_bar_and_room_from_v(run):
    """Review round 4 (05 01–03): the weights' head read on with "V cache" (40 px), its column had no slots while
    every other had, and its colours (the deck's weights scale) had no bar."""
    from scenes.kit import LABEL, label

    scene = run.scene
    b = scene.board
    T = len(scene.data.trace.steps)
    assert len(b.w_slots) == T and b.w_slots in b.slots
    w_head, v_head = b.heads[2], b.heads[1]
    assert w_head.get_left()[0] - v_head.get_right()[0] >= 0.5  # a clear gap between the two heads
    assert b.w_bar is not None and b.w_bar.color_bar.color_scale.same_as(deck_scale("weights", scene.cfg))
    assert [t.text for t in b.w_bar.color_bar.tick_labels] == ["0", "0.5", "1"]
    assert b.w_bar.get_left()[0] > b.q_note.get_right()[0]
    rec = {r.key: r for r in run.records}
    for key in ("setup", "step0", "step1", "rest", "legend"):
        assert any(r.quantity == "weights" and r.what == "ColorBar" for r in rec[key].scales), key
    assert label("weights", size=LABEL).width < b.w_slots[0].width


def test_one_delta_notation_and_verdicts_in_words(run):
    """Review round 5 (05 09–11): the tables read ‖Δy_n‖, the verdicts ‖Δy_n^(m)‖ with "m, n<m" under min and max,
    ≈ 4–5 px at 854×480.  The verdicts now say "smallest change", "largest change" in words at the heading size;
    ‖Δy_n‖ is written one way, where the tables and their bars name their cells."""
    scene = run.scene
    for v in (scene.proof_bi, scene.proof_causal, scene.cached_verdict, scene.recompute_verdict):
        assert "Delta" not in v.formula and "^((m))" not in v.formula and "min_" not in v.formula
    assert "smallest change" in scene.proof_bi.formula and "largest change" in scene.proof_causal.formula
    for t in (scene.table, scene.table_big, scene.c_table):
        assert t.corner.typst_code.replace(" ", "") == "$norm(Deltay_n)$"


def test_the_still_and_the_clip_use_one_scale_per_quantity(final):
    scene, _ = final
    d = scene.data
    still = designed_stills("KVCache", d, scene.cfg)[0]
    clip_scales = {"K": scene.K_map.color_scale, "V": scene.V_map.color_scale,
                   "trace.Y_cached": scene.Y_map.color_scale, "Y_bidir_full": scene.bi_map.color_scale}
    q = scene.quantities()
    panels = [p for p in still.panels.values() if isinstance(p, StillHeatmap)]
    assert len(panels) == 3
    for p in panels:
        name = next(k for k in clip_scales if np.array_equal(q[k], p.values))
        assert p.scale.same_as(clip_scales[name]) and p.scale.same_as(fig.kv_scales(d, scene.cfg)[name]), name
    assert (still.panels["K"].title_color, still.panels["V"].title_color) == ("key", "value")
    cached, bidir, causal = fig.kv_proofs(d)
    assert still.proof[0] == cached.still_text("cached = full recompute at every step")
    assert "0 (exact)" in still.proof[0] and "e-" not in " ".join(still.proof)


def test_beats_whose_picture_says_more_than_the_narration_are_described(final):
    scene, _ = final
    described = {c.key: c.describe for c in scene.captions if c.describe}
    assert {"setup", "step0", "rest", "legend", "stale", "close"} <= set(described)
    assert "weight is 1," in described["step0"] and scene.data.trace.steps[0].weights[0] == 1.0
    assert scene.stale_bound.text in described["proof_bidir"] and "dimmed" in described["close"]
    assert all("{" not in s and "e-" not in s for s in described.values())


# found by the random sweep (tests/test_config_matrix.py) on this branch: six tokens of six features whose
# changes print as long as 0.0044 left the outputs map narrow, its title past the frame's left edge
FOUND_NARROW_OUTPUTS_TITLE = {
    "lecture.number": 73, "lecture.title": "noÖ ÄØe", "lecture.notebook": "3121 ", "lecture.seed": 4636,
    "sizes.T": 6, "sizes.d": 6, "sizes.T_heatmap": 12, "sizes.n_trials": 178, "permutation.perm": [2, 4, 5, 0, 1, 3],
    "sentences.a": "false ttfzm s verdict", "sentences.b": "s ttfzm verdict false", "positions.n_max": 23704,
    "positions.train_length": 142, "positions.rope_base": 100.0, "positions.dilution_widths": [72],
    "positions.dilution_t_max": 7461, "colors.weights": "magma", "colors.signed": "seismic", "colors.angles": "twilight",
}


def test_a_narrow_outputs_map_keeps_its_title_in_the_frame(tmp_path):
    """The sweep's case: the title "bidirectional outputs" over a map narrower than it started at x −7.22,
    past the safe area (−6.76); it now starts where the map's names do, and the beats hold (the table's
    long figures excuse the half-empty check, by name)."""
    from scenes.audit.beats import audit_clip
    from scenes.render.matrix import write_config

    cfg = load_config(write_config(FOUND_NARROW_OUTPUTS_TITLE, tmp_path / "found.toml"))
    res = audit_clip(KVCache, cfg)
    assert not res.problems, [str(p) for p in res.problems[:5]]
    assert res.scene.bi_title.get_left()[0] >= res.scene.layout.content.left - 1e-6


def test_the_close_states_both_results_as_verdicts_with_a_true_bound(final):
    """Review round 3 (05 close): "at least 0.010" was the rounded minimum; were the minimum 0.0097 it would be
    false.  The bound is now the exact minimum cut down (never rounded up) to two significant digits, written
    ≥; a test computes the minimum from mathcore and holds the printed bound to it.  ✓ causal: the largest change
    of a past row is exactly 0; ✗ bidirectional: every past row moves, the least by at least the bound."""
    from scenes.clips.c05_kv_cache import lower_bound

    scene, _ = final
    cfg = scene.cfg
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    exact_min = min(float(s.min()) for s in bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv))
    causal_max = max(float(c.max()) for c in append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True))
    f = scene.stale_bound
    printed = float(f.text.removeprefix("≥ "))
    assert f.text.startswith("≥ ") and printed <= exact_min and printed == f.value
    assert exact_min - printed < 10 ** (np.floor(np.log10(exact_min)) - 1) + 1e-15  # two significant digits kept
    for x in (0.0097, 0.0100938, 0.31, 3.14159, 0.00999999, 0.0044):  # never above the value, whatever its digits
        assert float(lower_bound(x).text.removeprefix("≥ ")) <= x, x
    assert lower_bound(0.0097).text == "≥ 0.0097" and lower_bound(0.0100938).text == "≥ 0.010"
    for v, passed, value in ((scene.cached_verdict, True, causal_max), (scene.proof_bi, False, f.value)):
        assert v._verdict and v.passed is passed and v.figure.value == value
        assert v.get_left()[0] >= scene.layout.content.left - 1e-6 and v.get_right()[0] <= scene.layout.content.right + 1e-6
    assert causal_max == 0.0 and scene.cached_verdict.figure.exact
    code = scene.proof_bi.value.typst_code
    assert ">=" in code and "approx" not in code and " = " not in code
    says = {c.key: c.text for c in scene.captions}
    assert f"every past row moves by {f.text}" in says["proof_bidir"]  # review round 4: not "the least by ≥ 0.010"


def test_the_verdicts_are_read_at_heading_size(final):
    """Review round 5 (05 11): the verdicts' sub- and superscripts were under the legibility floor at 854×480.
    Every verdict of 09–11 is words and a figure, no sub- or superscript: its smallest letters (the "exact" mark)
    no smaller than the deck's smallest text, its words and figure at the heading size."""
    from scenes.kit import HEADING, SMALL, label
    from scenes.kit.layout import min_xheight_px

    scene, _ = final
    floor = min_xheight_px(label("x", size=SMALL))
    for v in (scene.proof_bi, scene.proof_causal, scene.recompute_verdict, scene.cached_verdict):
        assert min_xheight_px(v.line) >= 0.99 * floor
        assert min_xheight_px(v.line.words[0]) >= 0.99 * min_xheight_px(label("x", size=HEADING))


def proof_height(size):
    from scenes.kit.proofs import proof_line

    return proof_line("max_(m, thin n < m) norm(Delta y_n)", 0.0, size=size, passed=True).value.height


def test_the_descriptions_place_the_verdicts_where_they_are_drawn(final):
    """Review of issue 33 (helper b), and review round 5 (05 09–10: 09's verdict stood at the left, 10's centred):
    `equal`'s verdict takes the query's strip across the top; 09's and 10's verdicts stand in one slot under the
    table, centred, the same place in both, as described."""
    scene, _ = final
    described = {c.key: c.describe for c in scene.captions if c.describe}
    heads_top = max(h.get_top()[1] for h in scene.board.heads)
    assert scene.proof.get_bottom()[1] > heads_top  # across the top, over the caches' heads
    assert "query" in described["equal"] and "tokens" not in described["equal"]
    assert "across the top" in described["equal"] and "under the outputs" not in described["equal"]
    key = "proof_bidir" if scene.data.min_stale > 0.0 else "proof_bidir_some"
    assert "under it" in described[key] and "stands alone" in described[key]
    assert "in the same place under it" in described["proof_causal"]
    slot = scene.verdict_slot
    for v, t in ((scene.proof_bi, scene.table_big), (scene.proof_causal, scene.c_table)):
        assert slot.contains(v) and v.get_top()[1] < min(c.get_bottom()[1] for col in t.cells for c in col)
        assert v.get_x() == pytest.approx(slot.center[0], abs=1e-6)
    assert scene.proof_bi.get_y() == pytest.approx(scene.proof_causal.get_y(), abs=0.05)


# ------------------------------------------------------------------ review round 2
@pytest.fixture(scope="module")
def run():
    from frames import shipped_audit

    return shipped_audit(KVCache)


def _visible(res, key) -> set[int]:
    rec = next(r for r in res.records if r.key == key)
    return {it.mid for it in rec.items if it.opacity >= DIMMED}


def test_the_causal_check_has_its_picture_the_same_table_all_zeros(run):
    """Review round 2 (05 `proof_causal`): the ✓ had no picture.  The table flips to causal attention: the same
    staircase in the same cells, each cell the change ``append_change(causal=True)`` measured, every one 0
    (unpainted: a log scale has no colour for 0, the figures say it); the bidirectional table and verdict are
    gone."""
    res = run
    scene = res.scene
    d = scene.data
    cfg = scene.cfg
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    causal = append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    for a, b in zip(d.causal_changes, causal, strict=True):
        np.testing.assert_array_equal(a, b)
        assert np.all(b == 0.0)
    tab = scene.c_table
    for m, s_ in enumerate(causal, start=1):
        assert [t.text for t in tab.numbers[m - 1]] == ["0"] * m
        np.testing.assert_array_equal(tab.values[:m, m - 1], s_)
        for n in range(m):  # the bidirectional table's cells, the same places
            assert np.allclose(tab.cells[m - 1][n].get_center(), scene.table_big.cells[m - 1][n].get_center(),
                               atol=1e-6)
            assert tab.cells[m - 1][n].get_fill_opacity() == 0.0
    key = "proof_causal"
    ids = _visible(res, key)
    for m in (*[t for col in tab.numbers for t in col], scene.proof_causal.check):
        assert id(m) in ids or any(id(f) in ids for f in m.get_family()), m
    gone = {id(f) for f in VGroup_of(scene.table_big, scene.proof_bi, scene.change_bar_big).get_family()}
    assert not gone & ids
    assert scene.proof_causal.passed and scene.causal_value.figure.text == fmt_measure(max(float(c.max()) for c in causal))


def VGroup_of(*mobs):
    from manim import VGroup

    return VGroup(*mobs)


def test_stale_outputs_are_tied_to_the_next_layers_keys_and_values(run):
    """Review round 2 (05 `stale`): the table measures past outputs y_n, but in one layer the cached k_n, v_n
    depend on x_n alone and never go stale; the argument reaches the cache only because the next layer reads the
    y_n as its keys and values.  That line is now on screen under the picture while the changes fill, and said.
    Main fails: it has no ``next_layer``."""
    res = run
    scene = res.scene
    d = scene.data
    cfg = scene.cfg
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    # the one-layer caches do not change when a token is appended: row n of K and V is x_n's alone
    tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv)
    for m, st in enumerate(tr.steps[1:], start=1):
        np.testing.assert_array_equal(st.K_cache[:m], tr.steps[m - 1].K_cache)
    assert d.min_stale > 0.0  # while the outputs, the next layer's inputs, do move
    note = scene.next_layer
    words = "".join(p.text for p in note.words).replace(" ", "")
    assert "thenextlayercomputesitskeysandvaluesfromthese" in words
    assert [m.typst_code.strip("$ ") for m in note.maths] == ["y_n"]
    ids = _visible(res, "stale")
    assert all(id(p) in ids or any(id(f) in ids for f in p.get_family()) for p in note.pieces)
    assert note.get_top()[1] < scene.bi_map.get_bottom()[1] or note.get_top()[1] < min(
        c.get_bottom()[1] for col in scene.table.cells for c in col)
    cap = next(c for c in scene.captions if c.key == "stale")
    assert "next layer's input" in cap.text and "the next layer computes its keys and values from these y n" in cap.describe


def test_legend_says_what_the_cache_saves_not_step1_again(run):
    """Review round 2 (05 `legend`): its sentence repeated step1's almost word for word.  It now makes the beat's
    own point, cached against new: the keys and values of rows 0 to T−2 are read back, only row T−1 is new, true
    of the frame (the "cached" frame round K and V rows 0 to T−2, "new" on the last row)."""
    res = run
    scene = res.scene
    T = len(scene.data.trace.steps)
    says = {c.key: c.text for c in scene.captions}
    assert says["legend"] != says["step1"]
    assert f"rows 0 to {T - 2}" in says["legend"] and f"only row {T - 1} is new" in says["legend"]
    assert "keys and values" in says["legend"] and "never recomputed" in says["legend"]
    b = scene.board
    assert list(b.cache_rows) == list(range(T - 1))
    ids = _visible(res, "legend")
    assert id(b.brace) in ids or any(id(f) in ids for f in b.brace.get_family())


# ------------------------------------------------------------------ review round 3
def test_step1_outlines_the_rows_it_reads_from_the_cache(run):
    """Review round 3 (05 step1): "key 0 and value 0 read from the cache" was not shown.  At the end of step1
    k_0 and v_0 are outlined (the rows before the new one, which q_1 weighs), and gone once the legend's frame
    says it for every row."""
    res = run
    scene = res.scene
    says = {c.key: c for c in scene.captions}
    assert "key 0 and value 0 read from the cache" in says["step1"].text and says["step1"].describe
    marks = scene.read_marks
    ids = _visible(res, "step1")
    assert all(id(m) in ids for m in marks)
    for mk, hm in zip(marks, (scene.K_map, scene.V_map), strict=True):  # round row 0, not row 1
        assert mk.get_top()[1] >= hm.cell(0, 0).get_top()[1] and mk.get_bottom()[1] > hm.cell(1, 0).get_center()[1]
    assert not any(id(m) in _visible(res, "legend") for m in marks)


def test_the_weights_wear_the_decks_weight_colours(run):
    """Review round 3 (05): the weights were white bars here and viridis cells in clips 02–04.  Each weight is
    now a cell painted on the deck's weights scale (the config's colormap over [0, 1]), its figure on it."""
    scene = run.scene
    w = deck_scale("weights", scene.cfg)
    for s_, (_, cells) in zip(scene.data.trace.steps, scene.weight_groups, strict=True):
        assert cells.color_scale.same_as(w)
        for i, x in enumerate(s_.weights):
            assert cells.cell(i, 0).get_fill_color().to_hex().lower() == w.color(x).to_hex().lower()


def test_from_the_verdicts_on_the_table_is_the_one_subject(run):
    """Review round 5 (05 07–11): a dashboard of two panels, a table and two colour bars.  From `proof_bidir` on the
    outputs are gone and the table alone stands large (its cells larger than beside the outputs) and centred with
    its bar; the note on the next layer stood in the slot the verdicts take, under the picture."""
    scene = run.scene
    C = scene.proof_top
    a, b = scene.table, scene.table_big
    assert b.cell_w * b.cell_h > a.cell_w * a.cell_h
    group = VGroup(b, scene.change_bar_big)
    assert C.contains(group) and abs(group.get_x() - C.center[0]) < 0.35
    ids = _visible(run, "proof_bidir")
    for gone in (scene.bi_map, scene.bi_bar, scene.next_layer):
        assert not ({id(f) for f in gone.get_family()} & ids)
    assert scene.next_layer.get_top()[1] < scene.bi_map.get_bottom()[1]


def test_tokens_and_outputs_do_not_wear_the_key_or_value_hue(run):
    """Review round 3 (05): k_0 in the key's blue sat beside y_0 in token 0's blue, v_n in the value's magenta
    beside token 3's.  Tokens and outputs are named in the neutral ink here."""
    from scenes.kit import FG

    scene = run.scene
    b = scene.board
    for lab in (*b.y_labels, *scene.bi_labels, *scene.table.rows, *scene.table.heads, *scene.table_big.rows):
        assert lab.get_color().to_hex() == FG.to_hex()
    for chip in b.chips:
        assert chip[0].get_stroke_color().to_hex() == FG.to_hex()


def test_the_tables_of_changes_are_painted_by_the_decks_change_scale(run):
    """Review round 4 (05 08, 11): the ‖Δy_n‖ tables were white figures on black.  Every cell that moved is painted
    on the deck's "output changes" scale, its figure in that scale's text colour; the causal table (every change
    exactly 0) stays unpainted."""
    from scenes.kit.theme import HIGHLIGHT as HL

    scene = run.scene
    d = scene.data
    sc = deck_scale("output changes", scene.cfg, values=[*d.staleness, *d.causal_changes])
    for table in (scene.table, scene.table_big):
        assert table.color_scale.same_as(sc)
        for m, s in enumerate(d.staleness, start=1):
            for n, v in enumerate(s):
                cell, fig_ = table.cells[m - 1][n], table.numbers[m - 1][n]
                assert cell.get_fill_opacity() == 1.0 or table is scene.table  # (the first fills as it arrives)
                assert cell.get_fill_color().to_hex().lower() == sc.color(float(v)).to_hex().lower()
                assert fig_.get_color().to_hex().lower() == sc.text_color(float(v)).to_hex().lower()
    assert all(c.get_fill_opacity() == 0.0 for col in scene.c_table.cells for c in col)
    # no cell of the scale is the highlight's yellow (the outlined smallest change keeps one meaning)
    rgb = np.asarray(sc.rgb(np.geomspace(sc.vmin, sc.vmax, 64)), float)[:, :3]
    assert np.linalg.norm(rgb - np.array(HL.to_rgb()), axis=1).min() > 0.3


def test_the_new_row_is_marked_apart_from_the_query_and_the_weights(run):
    """Review round 5 (05 05): "new" in the highlight's gold stood by q_5 in the query's orange, two warm hues of
    two meanings (and round 4: viridis paints a weight of 1 in that gold).  The new row's outline and the word
    "new" are the foreground ink, bold, far from the query's hue and from every weight's colour, on every step;
    the rows read back in step 1 are outlined in the highlight's amber, apart from both."""
    from scenes.kit import DIM

    scene = run.scene
    ink = np.asarray(NEW_INK.to_rgb(), float)
    assert np.linalg.norm(ink - np.asarray(QUERY.to_rgb(), float)) > 0.5
    w = deck_scale("weights", scene.cfg)
    for s_ in scene.data.trace.steps:
        assert scene.new_outlined[s_.t]
        assert np.linalg.norm(np.asarray(w.rgb(np.asarray(s_.weights)))[..., :3] - ink, axis=-1).min() > 0.3
    new = scene.board.tag_words[1]
    assert new.text == "new" and new.get_color().to_hex() == NEW_INK.to_hex()
    # review round 6: the grey read-back outline looked like the empty slots' borders; it is the highlight's amber
    from scenes.kit.theme import HIGHLIGHT

    assert all(mk.get_stroke_color().to_hex() == HIGHLIGHT.to_hex() != DIM.to_hex() for mk in scene.read_marks)
    assert all(mk.get_stroke_width() > scene.read_marks[0].get_stroke_width() for mk in scene.markers)




# ------------------------------------------------------------------ review round 5
def test_the_boards_colour_bars_name_what_they_paint(run):
    """Review round 5 (05 01–06): one bar (the outputs', −2…2) stood beside the outputs, unnamed, while q and k are
    painted too; its description said only "V and the outputs share" it.  (q and k are on the deck's inputs scale,
    ±3: the lecture's keys and queries reach 2.5, past the outputs' ±2, so one bar cannot serve all four.)  Two bars
    now stand in one column right of the outputs, each named on screen by what it paints, in their concept colours:
    q, k over the inputs scale, v, y over the outputs scale."""
    from scenes.kit import FG

    scene = run.scene
    b = scene.board
    d = scene.data
    assert max(np.abs(d.K).max(), np.abs(d.Q).max()) <= scene.in_scale.vmax
    assert max(np.abs(d.V).max(), np.abs(d.trace.Y_cached).max()) <= scene.out_scale.vmax
    for bar, scale, names_, colours in ((b.in_bar, scene.in_scale, ["q", "k"], (QUERY, KEY)),
                                        (b.bar, scene.out_scale, ["v", "y"], (VALUE, FG))):
        assert bar.color_scale is scale
        assert [m.typst_code.strip("$ ") for m in bar.title] == names_
        assert [m.get_color().to_hex() for m in bar.title] == [c.to_hex() for c in colours]
        assert bar.title.get_bottom()[1] > bar.frame.get_top()[1]
        assert bar.get_left()[0] > scene.Y_map.get_right()[0]  # beside the outputs, clear of them
    assert scene.K_map.color_scale is scene.q_map.color_scale is b.in_bar.color_scale
    assert scene.V_map.color_scale is scene.Y_map.color_scale is b.bar.color_scale
    assert b.in_bar.get_bottom()[1] > b.bar.get_top()[1]  # q and k's over v and y's
    for key in ("setup", "legend"):
        ids = _visible(run, key)
        for bar in (b.in_bar, b.bar):
            assert all(id(m) in ids or any(id(f) in ids for f in m.get_family()) for m in bar.title), key
    desc = {c.key: c.describe for c in scene.captions if c.describe}
    assert "two colour bars, q and k's over v and y's" in desc["setup"]


def test_one_wording_for_the_full_recompute_and_the_legends_grammar(run):
    """Review round 5 (05 05, 06): "keys and values rows 0 to 4"; SAYS "a full recompute", DESCRIBED "one causal
    pass over every token" for one picture labelled "full recompute"."""
    scene = run.scene
    T = len(scene.data.trace.steps)
    says = {c.key: c.text for c in scene.captions}
    desc = {c.key: c.describe for c in scene.captions if c.describe}
    assert f"the keys and values of rows 0 to {T - 2}," in says["legend"]
    assert "full recompute" in says["equal"] and "full recompute" in desc["equal"] and "causal pass" not in desc["equal"]


def test_round6_the_bidirectional_outputs_are_named_over_their_map_and_their_bar_by_y(final):
    """Review round 6 (05 bidir): "bidirectional outputs" in one line, wider than the map, sat on the margin flush
    under the title rule while the other heads are centred; the outputs' bar, unnamed, stood beside the table and
    read as the table's.  Now the name is one word a line centred over the map, and the bar is named y."""
    scene, _ = final
    title, hm, bar = scene.bi_title, scene.bi_map, scene.bi_bar
    assert [t.text for t in title] == ["bidirectional", "outputs"]
    assert abs(title.get_x() - hm.get_x()) < 1e-6 or title.get_left()[0] >= scene.layout.content.left - 1e-6
    assert abs(title[0].get_x() - title[1].get_x()) < 1e-6 and title[0].get_y() > title[1].get_y()
    assert bar.title.typst_code.strip("$ ") == "y"
    assert bar.frame.get_left()[0] > hm.get_right()[0]
