"""Clip 07 SameMultiset: data binding, the deck's scales for the sentences' embeddings and outputs (the outputs
on a signed square-root stretch, so they no longer wash out to white; issue 33) shared with the still, labels
bound to what the maps show at every beat (the positions beat shows X + PE under its name, and PE itself),
words on one baseline (abbreviated only when they cannot fit), matched lines, every difference a verdict, the
takeaway (matched outputs equal without positions, apart with them, each with its verdict), captions, and the
truth checks over the config matrix."""

from __future__ import annotations

import numpy as np

from frames import (
    dominant_ink,
    pixel,
    rgb255,
)
from mathcore import lecture_inputs, load_config, my_sinusoidal_position, self_attention, sentence_pair
from mathcore.equivariance import compare_multiset
from scenes.clips.c07_same_multiset import SameMultiset, abbreviations, rounded
from scenes.figures.equivariance import same_words
from scenes.audit.beats import DIMMED, signature
from scenes.audit.truth import truth_problems
from scenes.kit import BG, FAILED, VERIFIED, ColorScale
from scenes.kit.scales import scale
from scenes.kit.layout import baseline_y
from scenes.kit.numbers import measure, notebook_output, tick


SCENE = SameMultiset


def src(m) -> str:
    """The Typst source of a typeset figure (an exact zero is the formula and its mark)."""
    m = m if hasattr(m, "typst_code") else m[0]
    return m.typst_code.strip("$ ")


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = SameMultiset.build_data(cfg)
    sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    assert d.tokens_a == tuple(cfg.sentence_a.split()) and d.tokens_b == tuple(cfg.sentence_b.split())
    np.testing.assert_array_equal(d.table, sp.table)
    np.testing.assert_array_equal(d.matching, sp.matching())
    assert [d.tokens_a[k] for k in d.matching] == list(d.tokens_b)
    T = len(d.tokens_a)
    np.testing.assert_array_equal(d.PE, my_sinusoidal_position(T, cfg.d, cfg.rope_base))
    # without positions: the outputs are the same rows, matched token for token
    Y_a = self_attention(sp.X_a, li.Wq, li.Wk, li.Wv)[0]
    Y_b = self_attention(sp.X_b, li.Wq, li.Wk, li.Wv)[0]
    np.testing.assert_array_equal(d.plain.Y_a, Y_a)
    np.testing.assert_array_equal(d.plain.Y_b, Y_b)
    np.testing.assert_array_equal(d.matched_plain, Y_a[sp.matching()])
    np.testing.assert_array_equal(d.plain.diffs, np.max(np.abs(Y_b - Y_a[sp.matching()]), axis=1))
    assert d.plain.max_diff < 1e-14
    assert d.plain.pooled_gap == np.max(np.abs(Y_a.mean(0) - Y_b.mean(0))) < 1e-14
    # with positions: measured gaps
    pos = compare_multiset(sp.X_a, sp.X_b, sp.matching(), li.Wq, li.Wk, li.Wv, positions=d.PE)
    np.testing.assert_array_equal(d.positioned.X_a, sp.X_a + d.PE)
    np.testing.assert_array_equal(d.positioned.Y_a, self_attention(sp.X_a + d.PE, li.Wq, li.Wk, li.Wv)[0])
    np.testing.assert_array_equal(d.matched_pos, d.positioned.Y_a[sp.matching()])
    np.testing.assert_array_equal(d.positioned.diffs, pos.diffs)
    assert d.positioned.max_diff > 0.1 and d.positioned.pooled_gap > 0.1
    assert d.cmap == cfg.cmap_signed
    # the deck's one scale for the sentences' vectors: embeddings (with and without positions), outputs, means
    pic = d.picture
    assert pic.inputs is pic.outputs and pic.inputs.quantity == "sentence vectors"
    every = [d.table, d.positioned.X_a, d.positioned.X_b, d.plain.Y_a, d.plain.Y_b, d.positioned.Y_a, d.positioned.Y_b]
    assert pic.outputs.vmax == -pic.outputs.vmin >= max(np.abs(a).max() for a in every) and pic.outputs.gamma == 0.5
    assert pic.plain_equal and not pic.positioned_equal


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace('a = "the cat ate the mouse"', 'a = "the dog bit the man"').replace(
        'b = "the mouse ate the cat"', 'b = "the man bit the dog"')
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = SameMultiset.build_data(load_config(p))
    assert d.tokens_b == ("the", "man", "bit", "the", "dog")
    assert d.plain.max_diff < 1e-14 < d.positioned.max_diff


def test_the_outputs_no_longer_wash_out(final):
    """Issue 33: on ±5 the outputs (mostly under 1.3 in size) washed out to near white.  Now they are painted by the
    deck's "sentence vectors" scale, a signed square-root stretch declared by its colour bar's ticks (−5, −1, 0, 1,
    5): the median output reaches at least a third of the way from white to the map's end, where on the linear ±5
    scale it reached under a fifth.  On the old main the scale was linear, so this fails there."""
    scene, _ = final
    d = scene.data
    s = d.picture.outputs
    outs = np.abs(np.concatenate([d.plain.Y_a.ravel(), d.positioned.Y_a.ravel(), d.positioned.Y_b.ravel()]))
    typical = float(np.median(outs))
    linear = ColorScale(s.name, s.vmin, s.vmax)
    reach = lambda sc: abs(float(sc.position(typical)) - 0.5) * 2  # noqa: E731  (0 at white, 1 at the map's end)
    assert reach(linear) < 0.2 and reach(s) > 0.33, (typical, reach(linear), reach(s))
    assert [f"{t:g}" for t in s.ticks()] == ["-5", "-1", "0", "1", "5"]
    assert [t.text for t in scene.bar_pos.bar.tick_labels] == [tick(v) for v in s.ticks()]  # the bar declares it
    want = scale("sentence vectors", scene.cfg, [d.table, d.plain.X_a, d.plain.X_b, d.positioned.X_a - d.plain.X_a,
                                                  d.positioned.X_a, d.positioned.X_b, d.plain.Y_a, d.plain.Y_b,
                                                  d.plain.pooled_a, d.plain.pooled_b, d.positioned.Y_a, d.positioned.Y_b,
                                                  d.positioned.pooled_a, d.positioned.pooled_b])
    for m in (scene.Y_a, scene.Y_b):
        assert m.color_scale.same_as(want) and m.color_scale.quantity == "sentence vectors"


def test_every_map_shows_its_named_array_on_its_quantitys_one_scale(final):
    """The scale a map is painted with is the one of its quantity at every beat: the inputs (X and
    X + PE) on one, the outputs (with and without positions) on the other; and the names over the
    maps say, beat by beat, what is drawn (the positions beat shows X + PE, not Attn(X))."""
    scene, _ = final
    pic = scene.data.picture
    records = {r.key: r for r in scene.audit.records}
    records["separate"] = records.get("separate") or records["separate_same_place"]
    want = {"shuffled": ("plain.X_a", "plain.X_b"), "attend": ("plain.Y_a", "plain.Y_b"),
            "positions": ("positioned.X_a", "positioned.X_b"), "separate": ("positioned.Y_a", "positioned.Y_b")}
    for beat, qs in want.items():
        named = {q for q, _ in records[beat].named}
        shown = {q for q, _ in records[beat].shown}
        assert set(qs) <= named and set(qs) <= shown, beat
    texts = {beat: {t for _, t in records[beat].named} for beat in want}
    assert "X_a + \"PE\"" in texts["positions"] and "\"Attn\"(X_a + \"PE\")" in texts["separate"]
    assert scene.Y_a.color_scale is pic.outputs and scene.bar_pos.bar.color_scale is pic.outputs
    assert scene.bar_in.bar.color_scale is pic.inputs and scene.bar_in2.bar.color_scale is pic.inputs
    assert scene.bar_out.bar.color_scale is pic.outputs
    assert [t.text for t in scene.bar_pos.bar.tick_labels] == [tick(v) for v in pic.outputs.ticks()]
    assert not scene.audit.lecture
    # the pe beat shows what is added, PE, on the scale of the inputs it is added to (review round 5: PE on its own
    # ±1 bar painted a 1 deep red that turned a light tint once added to the ±3 inputs)
    assert "PE" in {q for q, _ in records["pe"].shown} and scene.pe.color_scale is pic.inputs
    # review round 7: PE was shown beside the outputs Attn(X) while the narration added it to the inputs; now the
    # sentences' grids are back to X_a and X_b, named so, when PE comes in
    pe_texts = {i.text for i in records["pe"].texts()}
    assert {"X_a", "X_b"} <= pe_texts and not {"\"Attn\"(X_a)", "\"Attn\"(X_b)"} & pe_texts, " | ".join(sorted(pe_texts))
    np.testing.assert_array_equal(scene.pe.values, scene.data.PE)


def test_final_frame_shows_the_matched_outputs_side_by_side(final):
    scene, frame = final
    d = scene.data
    scale = d.picture.outputs
    panels = scene.final
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert all(id(m) in on_screen for m in panels.family_members_with_points())
    content = scene.layout.content
    assert panels.width > 0.7 * content.width  # the takeaway, large
    heats = [m for m in panels.get_family() if hasattr(m, "_shows")]
    assert [h._shows for h in heats] == ["plain.Y_b", "matched_plain", "positioned.Y_b", "matched_pos"]
    for heat, values in zip(heats, (d.plain.Y_b, d.matched_plain, d.positioned.Y_b, d.matched_pos)):
        np.testing.assert_array_equal(heat.values, values)
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                got = pixel(scene, frame, heat.cell_center(i, j))
                assert np.abs(got - rgb255(scale.rgb(values[i, j]))).max() <= 4, (i, j)
    # equal without positions (to rounding), apart with them: the colours say it and the figures measure it
    a, b = heats[0].values, heats[1].values
    assert np.max(np.abs(a - b)) == d.plain.max_diff < 1e-14
    assert np.max(np.abs(heats[2].values - heats[3].values)) == d.positioned.max_diff > 0.1
    verdicts = scene.final_verdicts  # each comparison's verdict: ✓ equal without positions, ✗ apart with them
    assert [v._verdict for v in verdicts] == [True, True] and [v.passed for v in verdicts] == [True, False]
    assert [v.figure.value for v in verdicts] == [d.plain.max_diff, d.positioned.max_diff]
    for v, color in zip(verdicts, (VERIFIED, FAILED)):
        assert np.abs(dominant_ink(scene, frame, v.check, BG) - rgb255(color)).max() <= 40
    closing = scene.audit.records[-1]
    assert closing.key == "close" and closing.start != signature(closing)


def test_lines_join_each_token_to_its_match(final):
    scene, _ = final
    d = scene.data
    for i, (ln, src) in enumerate(zip(scene.links, d.matching)):
        assert abs(ln.get_start()[1] - scene.Y_a.cell_center(int(src), 0)[1]) < 1e-6
        assert abs(ln.get_end()[1] - scene.Y_b.cell_center(i, 0)[1]) < 1e-6
        assert d.tokens_a[int(src)] == d.tokens_b[i]
        # every line is whole, grid to grid, at the end as at the match beat (review round 4: at the differences
        # they shrank to stubs short of b's rows)
        assert 0 < scene.Y_b.get_left()[0] - ln.get_end()[0] <= 0.15, (i, ln.get_end()[0], scene.Y_b.get_left()[0])
    assert scene.short == {w: w for w in d.vocab}  # the shipped words fit whole
    assert [t.text for t in scene.words_a.texts] == list(d.tokens_a)
    assert [t.text for t in scene.words_b.texts] == list(d.tokens_b)
    # each word chip sits on its heatmap row, every word on one baseline in its chip
    for col, heat in ((scene.words_a, scene.Y_a), (scene.words_b, scene.Y_b)):
        depths = []
        for i, (box, text) in enumerate(col.chips):
            assert abs(box.get_y() - heat.cell_center(i, 0)[1]) < 1e-6
            depths.append(baseline_y(text) - box.get_bottom()[1])
        assert max(depths) - min(depths) < 1e-3, depths  # "mouse" no higher than "the"


def test_at_match_each_line_reaches_the_row_of_the_same_word(beats):
    """07 `match` describes lines that "join a row of the first sentence to the row of the same word in the
    second"; they used to stop a third of the way across (the differences' room, before there were differences).
    Now at that beat each line runs from a's row to the left edge of b's grid, at b's row of the same word, in its
    colour: the pixels on the line just short of b's grid, at row i, are word i's colour (the lines step back
    for the differences in the next beat).  On the old main those pixels were the background, so this fails there."""
    sc, frames = beats
    d = sc.data
    off = sc.centred_dx  # at `match` the picture stands centred, half the differences' column right of its end
    for i, w in enumerate(d.tokens_b):
        assert d.tokens_a[int(d.matching[i])] == w
        # the line from a's row of the word to b's: the point on it just short of b's grid
        x0, y0 = sc.Y_a.get_right()[0] + off, sc.Y_a.cell_center(int(d.matching[i]), 0)[1]
        x1, y1 = sc.Y_b.get_left()[0] - 0.12 + off, sc.Y_b.cell_center(i, 0)[1]
        x = x1 - 0.2
        y = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        want = rgb255(sc.word_color(w))
        near = [pixel(sc, frames["match"], np.array([x, y + dy, 0])) for dy in (-0.02, 0.0, 0.02)]
        assert min(np.abs(p - want).max() for p in near) <= 60, (i, w, near, want)  # a thin line, antialiased


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data

    # every difference is a check: ✓ and its figure where the pair is equal, ✗ where it differs
    for marks, values in ((scene.diffs, d.plain.diffs), (scene.diffs_shown, d.positioned.diffs)):
        assert [m.figure.value for m in marks] == list(values)
        assert [m.passed for m in marks] == [bool(v < 1e-10) for v in values]
        assert all(m._verdict for m in marks)
    for k, t in enumerate(scene.diffs_shown):
        assert abs(t.get_center()[1] - scene.Y_b.cell_center(k, 0)[1]) < 1e-6
    assert scene.pool_shown.figure.value == d.positioned.pooled_gap and not scene.pool_shown.passed
    assert scene.pool_text.figure.value == d.plain.pooled_gap and scene.pool_text.passed
    texts = " ".join(c.text for c in scene.captions)
    for v in (d.plain.max_diff, d.plain.pooled_gap, d.positioned.max_diff):
        assert measure(v).text in texts
    assert all(notebook_output(c.text) is None for c in scene.captions)


def test_still_and_clip_share_every_scale(final, corners):
    for scene in (final[0], corners["max"].scene):
        d = scene.data
        s = same_words(d, scene.cfg)
        for k in "ABCD":
            assert s.panels[k].scale.same_as(d.picture.outputs)
        assert scene.Y_a.color_scale.same_as(s.panels["C"].scale)
        assert scene.table.color_scale.same_as(d.picture.inputs)


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    keys = {c.key.replace("separate_same_place", "separate") for c in caps if c.describe}
    assert {"table", "shuffled", "match", "pe", "positions", "separate", "close"} <= keys


def test_the_table_beat_describes_what_it_draws(final):
    """Issue 33: 07 `table`'s description named "two empty grids" that were not visible.  Now they are drawn (the
    grids each sentence's rows will fill, empty outlines), and the description names them through a binding the
    audit checks is on screen.  On the old main no such grids were drawn, so this fails there."""
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}["table"]
    assert "two empty grids" in rec.describe
    bound = [c for c in rec.claims if c.name == "grids"]
    assert bound and bound[0].bound and bound[0].visible
    T, dm = len(scene.data.tokens_a), scene.data.table.shape[1]
    assert [len(g) for g in scene.slots] == [T * dm, T * dm]
    for g, heat, dx in zip(scene.slots, (scene.Y_a, scene.Y_b), (0.0, scene.push)):  # the grids the rows then fill
        # (b's stands `push` further right while the table shows, and comes in to its place after it)
        np.testing.assert_allclose(g[0].get_center(), heat.cell_center(0, 0) + [dx, 0, 0], atol=1e-6)
    assert not truth_problems(scene.audit.records) and SameMultiset.STAGED


def test_every_corner_holds_the_truth_checks(corners):
    for name, res in corners.items():
        assert not truth_problems(res.records), name


def test_abbreviations_cut_long_words_only_and_keep_them_apart():
    words = ("attentive", "transformers", "remember", "positional", "a")
    assert abbreviations(words, None) == {w: w for w in words}
    cut = abbreviations(words, 6)
    assert cut["a"] == "a" and cut["attentive"] == "atten\u2026"
    assert len(set(cut.values())) == len(words)
    pair = abbreviations(("position", "positional"), 5)
    assert pair["position"] != pair["positional"]


def test_long_words_are_whole_in_the_sentences_and_abbreviated_beside_the_rows(corners):
    # eight long words: the sentences beat shows them whole; beside the rows they are abbreviated
    scene = corners["max"].scene
    assert any(v != w for w, v in scene.short.items())
    assert [t.text for t in scene.words_a.texts] == [scene.short[w] for w in scene.data.tokens_a]
    assert [t.text for t in scene.row_a.texts] == list(scene.data.tokens_a)
    assert scene.row_a.lines >= 2  # the chips wrapped instead of running off the frame


def test_separate_describes_the_means_it_shows(final):
    """07 `separate` draws the two means with their difference (✗ and a figure) under the grids; its description
    names that figure, bound to the verdict drawn, which the audit holds visible at that beat."""
    scene, _ = final
    d = scene.data
    rec = [r for r in scene.audit.records if r.key.startswith("separate")][0]
    bound = [c for c in rec.claims if c.name == "pooled_pos"]
    assert bound and bound[0].bound and bound[0].visible
    assert measure(d.positioned.pooled_gap).text in rec.describe
    assert scene.pool_shown.figure.value == d.positioned.pooled_gap
    assert d.positioned.pooled_gap == float(np.max(np.abs(d.positioned.pooled_a - d.positioned.pooled_b)))


def test_positions_show_one_subject_on_one_scale_at_a_time(final):
    """Review round 2: `positions` was a dashboard: X + PE, PE and two stacked colour bars, one colormap on two norms
    (PE on ±1, the inputs on ±3), so the colours could not be added by eye.  Now PE comes alone first (`pe`: the
    sentences dimmed, PE's rows labelled with their positions m = 0 … T − 1, its own colour bar the one on screen),
    then the sum (`positions`: PE gone, the inputs plus PE on the input bar, the one on screen).  Checked on the
    recorded beats: at each, every coloured cell at full strength is painted by one quantity's scale, and one
    colour bar is on screen."""
    scene, _ = final
    d = scene.data
    T = len(d.tokens_a)
    records = {r.key: r for r in scene.audit.records}
    pe_ids = {id(c) for c in scene.pe.cells.get_family()} if hasattr(scene.pe, "cells") else set()
    pe_ids |= {id(f) for f in scene.pe.get_family()}
    grid_ids = {id(f) for m in (scene.Y_a, scene.Y_b) for f in m.get_family()}
    for key, full, dimmed in (("pe", pe_ids, grid_ids), ("positions", grid_ids, pe_ids)):
        rec = records[key]
        strong = [i for i in rec.items if i.mid in full and i.kind == "graphic" and i.filled and i.opacity > 0.9]
        assert strong, key
        assert not [i for i in rec.items if i.mid in dimmed and i.kind == "graphic" and i.filled and i.opacity >= DIMMED], key
        bars = [t for t in (scene.pe_bar, scene.bar_out, scene.bar_pos)
                if any(i.mid in {id(f) for f in t.get_family()} and i.opacity > 0.9 for i in rec.items)]
        assert len(bars) == 1, (key, len(bars))
        assert bars[0] is scene.pe_bar is scene.bar_in2
    # review round 5: PE is drawn on the inputs' scale, the one bar on screen while it and then the sums show, so a
    # PE value and the same value in an input are one colour (PE's own ±1 bar made a 1 deep red there, a tint here)
    assert scene.pe.color_scale is scene.pe_bar.bar.color_scale is d.picture.inputs
    np.testing.assert_array_equal(scene.pe.values, d.PE)
    # the positions are labelled on PE's rows, 0 to T − 1, and the sentence says so
    assert [t.typst_code.strip("$ ") for t in scene.pe_pos] == [str(m) for m in range(T)]
    for m, t in enumerate(scene.pe_pos):
        assert abs(t.get_y() - scene.pe.cell_center(m, 0)[1]) < 1e-6
    cap = {c.key: c for c in scene.captions}
    assert f"0 to {T - 1}" in cap["pe"].text
    assert {c.name for c in records["pe"].claims if c.bound and c.visible} >= {"pe", "last"}


def test_the_word_that_moves_most_is_said_where_it_stands_in_both(final, corners):
    """Review round 2: 'ate' stands in the same place in both sentences yet changes most once positions are added,
    and nobody said it.  Now, where the largest gap is at a word in the same place in both sentences, the sentence
    says so; where it is not, the sentence says only the largest gap."""
    for scene in (final[0], *[r.scene for r in corners.values()]):
        d = scene.data
        worst = int(np.argmax(d.positioned.diffs))
        # review round 5: both "the"s also stand in the same place and differ: the sentence says "even the words in
        # the same place" where every word in the same place in both sentences differs, the largest among them
        places = [k for k in range(len(d.tokens_b)) if d.tokens_a[k] == d.tokens_b[k]]
        same = (int(d.matching[worst]) == worst and d.tokens_a[worst] == d.tokens_b[worst]
                and all(int(d.matching[k]) == k and d.positioned.diffs[k] >= 1e-10 for k in places))
        (cap,) = [c for c in scene.captions if c.key.startswith("separate")]
        assert (cap.key == "separate_same_place") == same, cap.key
        if same:
            assert "even the words in the same place" in cap.text
            assert f"'{d.tokens_b[worst]}', one of them, differs most, by {rounded(d.positioned.max_diff).text}" in cap.text
            for k in places:  # each word in the same place: its outputs with positions differ between the sentences
                assert np.max(np.abs(d.positioned.Y_b[k] - d.positioned.Y_a[k])) >= 1e-10
    d = final[0].data
    assert d.tokens_b[int(np.argmax(d.positioned.diffs))] == "ate"
    assert [k for k in range(len(d.tokens_b)) if d.tokens_a[k] == d.tokens_b[k]] == [0, 2, 3]  # the, ate, the


def test_a_rounded_gap_reads_approx_at_the_close(final):
    """Review round 2: the close read "max|Δ| = 2.4" for a gap of 2.35…: a rounded figure written with "=".  Now a
    figure whose printed digits are rounded reads "≈"."""
    scene, _ = final
    d = scene.data
    v = scene.final_verdicts[1]
    assert float(measure(d.positioned.max_diff).text) != d.positioned.max_diff
    assert v.value.typst_code.strip("$ ").endswith("approx " + measure(d.positioned.max_diff).math)
    assert v.figure.value == d.positioned.max_diff and not v.passed


def test_inputs_and_outputs_read_on_one_bar_whose_ticks_show_its_stretch(final):
    """Review round 7: the inputs stood on a linear ±3 bar and the outputs on a square-root ±5 bar "(zoomed near 0)",
    so one vector space had two colour scales and a parenthesis.  Now every vector the sentences carry (the table's
    rows, X, PE, X + PE, the outputs and their means) is painted by one scale: the bars under the inputs and the
    outputs are the same scale, differing only in their word, and its ticks (−5, −1, 0, 1, 5) show the stretch: 1 sits
    √(1/5) of the way from 0 to 5, more than the linear 1/5.  PE, read on the inputs' bar, lies inside its ends."""
    scene, _ = final
    s = scene.data.picture.outputs
    assert s.gamma == 0.5
    bars = (scene.bar_in, scene.bar_out, scene.pe_bar, scene.bar_pos)
    assert all(b.bar.color_scale is s for b in bars)
    assert [b[0].text for b in bars] == ["input", "output", "input", "output"]
    ticks = [[t.text for t in b.bar.tick_labels] for b in bars]
    assert all(t == ticks[0] for t in ticks) and len(ticks[0]) >= 3
    assert abs((float(s.position(1.0)) - 0.5) * 2 - np.sqrt(1 / s.vmax)) < 1e-9 and np.sqrt(1 / s.vmax) > 1 / s.vmax
    PE = scene.data.PE
    assert -1.0 <= PE.min() and PE.max() <= 1.0
    inputs = scene.pe_bar.bar.color_scale
    assert inputs.vmin < -1.0 and inputs.vmax > 1.0
    # (review round 7: the description's "its own values lie between −1 and 1" was true but not on screen: gone)
    assert "between −1 and 1" not in {r.key: r for r in scene.audit.records}["pe"].describe


def test_the_match_lines_stay_whole_while_the_differences_and_means_show(beats):
    """Review round 4: at the differences and the means the match lines shrank to stubs that no longer reached b's
    rows, just as the numbers arrived.  Now the differences stand right of b's words and every line keeps reaching
    b's grid: at `diffs`, `pooled` and the separate beat, the pixels on each line just short of b's grid are its
    word's colour (on the old code they were the background, or a difference's digits)."""
    sc, frames = beats
    d = sc.data
    keys = [k for k in frames if k == "diffs" or k.startswith("separate")]  # (at `pooled` they leave for the means)
    assert len(keys) == 2, list(frames)
    for key in keys:
        for i, w in enumerate(d.tokens_b):
            x0, y0 = sc.Y_a.get_right()[0], sc.Y_a.cell_center(int(d.matching[i]), 0)[1]
            x1, y1 = sc.Y_b.get_left()[0] - 0.12, sc.Y_b.cell_center(i, 0)[1]
            x = x1 - 0.2
            y = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
            want = rgb255(sc.word_color(w))
            near = [pixel(sc, frames[key], np.array([x, y + dy, 0])) for dy in (-0.02, 0.0, 0.02)]
            assert min(np.abs(p - want).max() for p in near) <= 60, (key, i, w, near, want)


def test_differences_head_and_bar_stand_apart(final):
    """Review round 4: the "max|Δ|" head sat on Attn(X_b)'s baseline, 80 px from it, reading as one expression; the
    colour bar and its word were stacked just under the mean strips.  Now the differences (and their head, and the
    means' difference) stand right of b's words, and the colour bar keeps a wide gap under the means."""
    scene, _ = final
    right_of_words = scene.words_b.get_right()[0]
    for marks in (scene.diffs, scene.diffs_shown):
        assert all(m.get_left()[0] > right_of_words for m in marks)
    assert scene.pool_shown.get_left()[0] > right_of_words
    # the means' own verdict, at `pooled`, stands under them, below the sentences' rows
    assert scene.pool_text.get_top()[1] < min(scene.Y_a.get_bottom()[1], scene.Y_b.get_bottom()[1])
    assert scene.diff_head.get_left()[0] > right_of_words
    assert scene.diff_head.get_left()[0] - scene.name_b.get_right()[0] > 1.0  # a column apart (it was ~0.9 on its line)
    foot = min(p.get_bottom()[1] for p in (*scene.pools_shown, *scene.pool_words))
    for bar in (scene.bar_out, scene.bar_pos):
        assert foot - bar.get_top()[1] > 0.3, foot - bar.get_top()[1]


def test_every_rounded_difference_reads_approx(final, corners):
    """Review round 4: the ✗ figures beside the rows read "0.87", "2.4" (rounded, without "≈") while the ✓ ones and
    the close read "≈".  Now every difference whose printed digits are a rounding of it is typeset with "approx"."""
    for scene in (final[0], *[r.scene for r in corners.values()]):
        for m in (*scene.diffs, *scene.diffs_shown, scene.pool_text, scene.pool_shown):
            f = measure(m.figure.value)
            if f.exact:
                continue
            printed_rounded = f.approx or float(f.text.replace("\u2212", "-")) != m.figure.value
            assert ("approx" in src(m.value)) == printed_rounded, (src(m.value), m.figure.value)



def test_the_counts_said_are_the_counts_shown(final):
    """Review round 4b: beat 01 said "the same 5 words" and beat 02 "each of the 4 words".  Now the sentences beat
    counts tokens (the chips of a sentence: 5) and the table beat distinct words (the table's rows: 4), and each
    count is the number of things it names on screen."""
    scene, _ = final
    d = scene.data
    cap = {c.key: c.text for c in scene.captions}
    T, V = len(d.tokens_a), len(d.vocab)
    assert f"the same {T} tokens" in cap["sentences"] and f"the {V} distinct words" in cap["table"]
    assert T == len(scene.row_a.tokens) == len(scene.row_b.tokens) == len(d.tokens_b)
    assert V == len(set(d.tokens_a)) == len(set(d.tokens_b)) == d.table.shape[0] == len(scene.table_words.chips)
    assert sorted(d.tokens_a) == sorted(d.tokens_b)  # the same tokens, in another order
    assert T != V  # the shipped pair repeats a word: both counts are needed, and differ


def test_the_close_defines_p_and_reads_its_rows_by_word(final):
    """Review round 4b: P was never defined on screen, the close's grids had no words, and "word order is invisible"
    held only for attention without a mask.  Now the close draws P's definition under the comparisons, b's words
    between each pair of grids, level with their rows (P puts a's rows in b's order, so both grids' rows are b's
    words), and the spoken close says "or a mask"."""
    scene, frame = final
    d = scene.data
    assert "permutationmatrixthatputsa'swordsinb'sorder" in scene.p_def[1].text.replace(" ", "")
    assert scene.p_def[0].typst_code.strip("$ ") == "P"
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert id(scene.p_def) in on_screen or all(id(m) in on_screen for m in scene.p_def.family_members_with_points())
    # P Attn(X_a) is Attn(X_a) with its rows in b's order: row i of it is a's row of b's word i
    for i, w in enumerate(d.tokens_b):
        assert d.tokens_a[int(d.matching[i])] == w
        np.testing.assert_array_equal(d.matched_plain[i], d.plain.Y_a[int(d.matching[i])])
    heats = scene.final_heats
    for words, (hb, hm) in zip(scene.final_words, (heats[:2], heats[2:])):
        assert [t.text for t in words.texts] == [scene.short[w] for w in d.tokens_b]
        for i, chip in enumerate(words.chips):
            assert abs(chip.get_y() - hb.cell_center(i, 0)[1]) < 1e-6 and abs(chip.get_y() - hm.cell_center(i, 0)[1]) < 1e-6
            assert hb.get_right()[0] < chip.get_left()[0] and chip.get_right()[0] < hm.get_left()[0]
    # larger than round 4b's grids (~120 × 150 px): each grid at least 1.3 times as tall
    assert heats[0].height > 1.3 * 150 / 720 * 8
    cap = {c.key: c.text for c in scene.captions}
    assert "Without positions or a mask" in cap["close"]
    rec = scene.audit.records[-1]
    assert {c.name for c in rec.claims if c.bound and c.visible} >= {"p_def", "pairs", "proof", "mask"}
    # review round 5: "or a mask" was said but no mask was named on screen; now the equal comparison is headed so
    assert scene.mask.text.replace(" ", "") == "withoutpositionsoramask"
    # and the right formula stands off the frame's margin
    c = scene.layout.content
    assert scene.final.get_right()[0] < c.right - 0.1 and scene.final.get_left()[0] > c.left + 0.1


def test_the_means_are_the_subject_of_pooled(beats):
    """Review round 4b: at `pooled` nothing was dimmed and the means did not stand out among grids, lines and ten
    figures.  Now the lines leave, the rows and their differences are dimmed, and the two means stand large between
    the sentences (wider than a sentence's rows), their verdict under them."""
    sc, frames = beats
    rec = {r.key: r for r in sc.audit.records}["pooled"]
    ids = lambda *ms: {id(f) for m in ms for f in m.get_family()}  # noqa: E731
    background = ids(sc.Y_a, sc.Y_b, *sc.diffs)
    assert not [i for i in rec.items if i.mid in background and i.opacity >= DIMMED]
    assert not [i for i in rec.items if i.mid in ids(*sc.links) and i.opacity > 0.05]
    assert [i for i in rec.items if i.mid in ids(*sc.pools) and i.opacity > 0.9]
    assert sc.pools_big and all(p.width > sc.Y_a.width for p in sc.pools)
    np.testing.assert_array_equal(sc.pools[0].values[0], sc.data.plain.pooled_a)
    np.testing.assert_array_equal(sc.pools[1].values[0], sc.data.plain.pooled_b)
    assert sc.pool_text.figure.value == sc.data.plain.pooled_gap and sc.pool_text.passed


def test_the_word_that_differs_most_is_framed_in_both(final):
    """Review round 4b: the 'ate' row (same input in both, largest change) was not highlighted.  Now the word whose
    matched outputs differ most is framed, chip and row, in both sentences, in the highlight colour."""
    scene, _ = final
    d = scene.data
    worst = int(np.argmax(d.positioned.diffs))
    fa, fb = scene.worst_frames
    for fr, col, heat, i in ((fa, scene.words_a, scene.Y_a, int(d.matching[worst])), (fb, scene.words_b, scene.Y_b, worst)):
        assert col.texts[i].text == scene.short[d.tokens_b[worst]]
        assert abs(fr.get_y() - heat.cell_center(i, 0)[1]) < 1e-6
        assert fr.height < 1.5 * scene.cell  # one row
        assert fr.get_left()[0] <= col.chips[i].get_left()[0] + 1e-6 and fr.get_right()[0] >= heat.get_right()[0]
    assert fa._role == fb._role == "highlight"
    (cap,) = [c for c in scene.captions if c.key.startswith("separate")]
    assert "the words around it moved" in cap.text
    # around it, in the shipped pair: a word at another place differs between the sentences
    assert any(a != b for k, (a, b) in enumerate(zip(d.tokens_a, d.tokens_b)) if k != worst)


def test_the_table_is_large_and_the_picture_centred_until_the_differences(beats):
    """Review round 5: at `table` the embedding table, the beat's subject, was the smallest grid on screen, an empty
    band stood between the grids and a floating colour bar, and the whole picture jumped ~150 px left between `match`
    and `diffs`.  Now b's side stands out at the right while the table shows (table, shuffled), the table taking the
    wider middle, larger than each sentence's grid; the bar stands right under the rows while no means show there."""
    sc, frames = beats
    c = sc.layout.content
    recs = {r.key: r for r in sc.audit.records}
    assert sc.table.width * sc.table.height > sc.Y_a.width * sc.Y_a.height
    assert sc.table.width > sc.Y_a.width
    # at `table` what is drawn spans the content area edge to edge (a's words at the left, b's at the right)
    boxes = [i.box for i in recs["table"].items if not i.header and i.opacity > 0.05]
    lo, hi = min(b[0] for b in boxes), max(b[2] for b in boxes)
    assert lo < c.left + 0.3 and hi > c.right - 0.3, (lo - c.left, c.right - hi)
    # review round 7: the differences' column, kept empty from `attend` on, left the right quarter of the frame empty;
    # now the two sides stand centred while no differences show (attend, match, pe, positions) and step left, in
    # one slide, when they come in (diffs, pooled, and the separate beat): b's words stand at one x in each stage
    ids = {id(f) for f in sc.words_b.get_family()}
    xs = {key: max(i.box[2] for i in recs[key].items if i.mid in ids)
          for key in ("attend", "match", "diffs", "pooled", "pe", "positions")}
    apart, beside = [xs[k] for k in ("attend", "match", "pe", "positions")], [xs[k] for k in ("diffs", "pooled")]
    assert max(apart) - min(apart) < 1e-6 and max(beside) - min(beside) < 1e-6, xs
    assert abs(apart[0] - beside[0] - sc.centred_dx) < 1e-6 and sc.centred_dx > 0.5, (xs, sc.centred_dx)
    for key in ("attend", "match", "positions"):  # centred: as much room at the left as at the right
        boxes = [i.box for i in recs[key].items if not i.header and i.opacity > 0.05]
        lo, hi = min(b[0] for b in boxes), max(b[2] for b in boxes)
        assert abs((lo - c.left) - (c.right - hi)) < 0.15, (key, lo - c.left, c.right - hi)
    assert sc.dx == 0.0
    # the bar right under the rows while no means show under them: at most a normal gap between
    for bar in (sc.bar_in, sc.pe_bar):
        assert sc.Y_a.get_bottom()[1] - bar.get_top()[1] <= 0.32 + 0.2, sc.Y_a.get_bottom()[1] - bar.get_top()[1]
    for key in ("diffs", "close"):  # with the differences (and at the close) the width is used to its right edge
        boxes = [i.box for i in recs[key].items if not i.header and i.opacity > 0.05]
        assert max(b[2] for b in boxes) > c.right - 0.6, key


def test_round7_no_mask_is_shown_chips_are_legible_and_the_close_is_two_panels(beats):
    """Review round 6: "or a mask" was said at the close but no mask was ever on screen; the words' chips wrote "the"
    in its own pink on a tint of it (3.5:1); the close's two formulas ran into each other ("… P Attn(X_a)" 47 px from
    "Attn(X_b + PE) ≠ …"), reading as one line.  Now the attention beat writes "no mask" under the shared weights,
    every chip's word is white (≥ 4.5:1 on its tint), and a rule stands between the two comparisons."""
    from scenes.audit.contrast import over, ratio
    from scenes.kit import FG

    scene, frames = beats
    rec = {r.key: r for r in scene.audit.records}
    attend = [i.name for i in rec["attend"].texts() if i.opacity > 0.5]
    assert any("nomask" in n.replace(" ", "") for n in attend), attend
    # white words on every chip (the sentences' rows, the close's columns), legible on their tint over the background
    bg = np.array(BG.to_rgb())
    for col in [scene.words_a, scene.words_b, *scene.final_words]:
        for chip, t in zip(col.chips, col.texts):
            assert np.allclose(t.get_fill_color().to_rgb(), FG.to_rgb())
            box = chip[0]
            tint = over(np.array(box.get_fill_color().to_rgb()), box.get_fill_opacity(), bg)
            assert ratio(np.array(FG.to_rgb()), tint) >= 4.5
    # the close: a rule between the comparisons, clear of both (formulas included) by at least a wide gap's half
    rule = scene.final[2]
    x = rule.get_x()
    left, right = scene.final_cases
    assert left.get_right()[0] + 0.25 <= x <= right.get_left()[0] - 0.25
    assert rule.get_top()[1] >= min(left.get_top()[1], right.get_top()[1]) - 1e-6
