"""Clip 14 GPT2ToLLaMA: GPT-2's table, then LLaMA's RoPE, from mathcore; labels bound to the arrays
they name; real model sizes as labelled facts in lecture language; the closing picture (n_max rows
against rotations defined at any m); the still in the same scale and colours."""

from __future__ import annotations

import re

import numpy as np

from frames import (
    pixel,
    rgb255,
)
from mathcore import learned_absolute_table, load_config
from mathcore.extrapolation import (
    GPT2,
    LLAMA2,
    LLAMA3,
    pair_angles,
    pairs_without_a_turn,
    rope_wavelengths,
    training_arcs,
    wrapped_in_training,
)
from mathcore.measure import rope_unseen_pairs
from mathcore.positions import LEARNED_STD
from scenes.clips.c14_gpt2_to_llama import GPT2ToLLaMA, period_text
from scenes.figures import stills_for
from scenes.figures.extrapolation import base_colors, hex_of, table_scale
from scenes.kit import FAILED, FG, SEEN, UNSEEN, ColorScale
from scenes.kit.numbers import count, nice_ceil, tick


SCENE = GPT2ToLLaMA
FINAL_SIZE = (854, 480)


def shown(s: str) -> str:
    return s.replace(" ", "")  # Text.text drops plain spaces


def band_words(mob) -> str:
    return "".join(t.text for t in mob.get_family() if getattr(t, "text", ""))


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = GPT2ToLLaMA.build_data(cfg)
    np.testing.assert_array_equal(d.table, learned_absolute_table(768, 1024, cfg.seed))
    assert d.table.shape == (GPT2.n_max, GPT2.d_model) == (1024, 768)
    np.testing.assert_array_equal(d.sample, d.table[np.ix_(d.sample_rows, d.sample_cols)])  # real entries
    np.testing.assert_array_equal(d.corner, d.table[: d.zoom[0], : d.zoom[1]])
    np.testing.assert_array_equal(d.wavelengths[0], rope_wavelengths(128, 10000.0))
    np.testing.assert_array_equal(d.wavelengths[1], rope_wavelengths(128, 500000.0))
    assert d.wl_range[0] <= d.wavelengths.min() and d.wavelengths.max() <= d.wl_range[1]
    assert d.slow_pairs == pairs_without_a_turn(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base) == 18
    assert (d.llama2, d.llama3, d.gpt2) == (LLAMA2, LLAMA3, GPT2)
    assert d.n_params == 1024 * 768
    assert d.slow_angle == pair_angles(d.slow_position, LLAMA2.head_dim, LLAMA2.rope_base)[d.slow_index]


def test_the_table_is_painted_by_its_values(final):
    scene, frame = final
    d = scene.data
    scale = scene.scale
    # the corner shown large: every cell painted in the table's one scale
    r, c = d.zoom
    for i in range(r):
        for j in range(c):
            assert scene.zoom_map.cell(i, j).get_fill_color().to_hex() == scale.color(d.table[i, j]).to_hex()
    # the closing thumbnail on screen: the sampled rows and features, pixel for pixel
    thumb = scene.thumb.image
    for i in range(0, len(d.sample_rows), 3):
        for j in range(0, len(d.sample_cols), 2):
            got = pixel(scene, frame, thumb.cell_center(i, j))
            assert np.abs(got - rgb255(scale.rgb(d.sample[i, j]))).max() <= 6, (i, j, got)
    # the last drawn row is the table's last sampled row; the cap line sits under row n_max - 1
    assert d.sample_rows[-1] < GPT2.n_max <= d.sample_rows[-1] + (d.sample_rows[1] - d.sample_rows[0])
    for table in (scene.view, scene.thumb):
        assert abs(table.cap_line.get_center()[1] - table.image.get_bottom()[1]) < 1e-9
        assert table.cap_line.get_stroke_color().to_hex() == FAILED.to_hex()
    assert np.abs(pixel(scene, frame, scene.thumb.cap_line.get_center()) - rgb255(FAILED)).max() <= 30


def test_the_wavelengths_are_plotted(final):
    scene, _ = final
    d = scene.data
    for k, curve in enumerate(scene.wl_curves):
        np.testing.assert_allclose(curve.points[0::4],
                                   scene.plot.to_point(curve.data_index, d.wavelengths[k][curve.data_index])[:-1])
        np.testing.assert_array_equal(curve.values, d.wavelengths[k])
        # each curve is named at its end, in its colour
        end = scene.plot.to_point(d.n_pairs - 1, d.wavelengths[k, -1])
        tag = scene.wl_tags[k]
        assert tag.get_left()[0] > scene.plot.axes[0].get_right()[0]
        assert abs(tag.get_y() - end[1]) < 0.6 or len(scene.chart.end_labels.leaders)
        assert tag[0].get_fill_color().to_hex() == curve.get_stroke_color().to_hex()
    # the training-length line sits at 4 096 on the log axis, in the seen colour, labelled L
    assert abs(scene.train_line.get_center()[1] - scene.plot.to_point(0, LLAMA2.train_length)[1]) < 1e-9
    assert scene.train_line.get_stroke_color().to_hex() == SEEN.to_hex()
    # its words in the sans, its maths in Typst: compared apart
    assert [w.text for w in scene.L_label.words] == [f"{LLAMA2.name}:"]
    assert [m.typst_code.strip("$ ") for m in scene.L_label.maths] == [f"L = {count(LLAMA2.train_length).math}"]


def test_the_figures_on_screen_are_the_measured_ones_in_lecture_language(final):
    scene, _ = final
    d = scene.data
    assert scene.params_value.text == shown(count(d.table.size).text) == "786\u2009432"
    assert band_words(scene.band_label) == shown(f"{d.slow_pairs} of {d.n_pairs}: no full turn in training")
    # the wall's words as clip 13 wrote them at its wall (review round 7: "the wall of clip 13" had no echo)
    assert [w.text for w in scene.cap_text.words] == [shown("no row for")]
    assert [m.typst_code.strip("$ ") for m in scene.cap_text.maths] == [f"m = {count(GPT2.n_max).math}"]
    assert scene.zoom_text[0].text == shown(f"rows 0 to {d.zoom[0] - 1}, features 0 to {d.zoom[1] - 1}")
    # real sizes as labelled facts, typeset: n_max as a subscripted symbol, never the code's names
    # real sizes as labelled facts on the table itself (round 4b: no formula line beside the heading): its rows
    # counted by the brace, its width in features, its edge rows
    assert scene.rows_text.text == shown(f"{count(GPT2.n_max).text} rows") and not hasattr(scene, "gpt_facts")
    assert any(getattr(f, "text", "") == shown(f"{GPT2.d_model} features across") for f in scene.shape_text.get_family())
    bases = [t[1].typst_code for t in scene.wl_tags]
    assert "b = 10 thin 000" in bases[0] and "b = 500 thin 000" in bases[1]
    texts = " ".join(getattr(f, "text", "") or getattr(f, "typst_code", "")
                     for m in (scene.gpt, scene.llama_heads, scene.chart, scene.summary) for f in m.get_family())
    assert "wpe" not in texts and ".." not in texts and "2559196" not in texts
    # the slowest LLaMA-3 pair is said rounded to what it means
    assert scene.caption_values()["wl3"] == "≈ 2.6 × 10⁶"


def test_the_colour_bar_spans_the_tables_round_scale(final):
    scene, _ = final
    bar = scene.colorbar
    assert bar.color_scale is scene.scale
    lim = float(np.max(np.abs(scene.data.table)))
    top = nice_ceil(lim)
    assert np.isclose(scene.scale.vmin, -top) and np.isclose(scene.scale.vmax, top) and top >= lim
    assert [t.text for t in bar.tick_labels] == [tick(v) for v in scene.scale.ticks()] == ["\u22120.1", "0", "0.1"]


def test_labels_are_bound_to_the_arrays_they_name(final):
    scene, _ = final
    q = scene.quantities()
    assert scene.view.image._shows == "sample" and scene.thumb.image._shows == "sample"
    np.testing.assert_array_equal(scene.view.image.values, q["sample"])
    assert scene.zoom_map._shows == scene.zoom_text._names == "corner"
    np.testing.assert_array_equal(scene.zoom_map.values, q["corner"])
    for k, name in enumerate(("wl_llama2", "wl_llama3")):
        assert scene.wl_curves[k]._shows == scene.wl_tags[k]._names == name
        np.testing.assert_array_equal(scene.wl_curves[k].values, q[name])


def test_the_zoom_connectors_and_the_curves_cross_no_text(final):
    scene, _ = final
    texts = [scene.zoom_text, scene.init_text, scene.gpt_head, scene.cap_text]  # the count is said at beat 01
    for line in scene.view.zoom_lines:
        for t in texts:
            assert line.get_top()[1] <= t.get_bottom()[1] + 1e-6 or line.get_bottom()[1] >= t.get_top()[1] - 1e-6 \
                or line.get_right()[0] <= t.get_left()[0] + 1e-6 or line.get_left()[0] >= t.get_right()[0] - 1e-6, t
    # the training-length label sits on its line at the left end, clear of both curves there
    p = scene.plot
    assert 0 < scene.L_label.get_bottom()[1] - scene.train_line.get_y() < 0.2
    assert p.axes[0].get_left()[0] < scene.L_label.get_left()[0] < p.axes[0].get_center()[0]
    for curve in scene.wl_curves:
        under = curve.points[(curve.points[:, 0] >= scene.L_label.get_left()[0])
                             & (curve.points[:, 0] <= scene.L_label.get_right()[0])]
        assert len(under) and under[:, 1].max() < scene.train_line.get_y()


def test_the_slow_pairs_are_marked_in_the_unseen_colour(final):
    scene, _ = final
    d = scene.data
    first_slow = d.n_pairs - d.slow_pairs
    # the band covers exactly the LLaMA-2 pairs whose wavelength exceeds the training length
    assert np.all(d.wavelengths[0, first_slow:] > LLAMA2.train_length)
    assert np.all(d.wavelengths[0, :first_slow] <= LLAMA2.train_length)
    p = scene.plot
    assert abs(scene.slow_band.get_left()[0] - p.to_point(first_slow - 0.5, 1)[0]) < 1e-6
    assert abs(scene.slow_band.get_bottom()[1] - scene.train_line.get_y()) < 1e-6
    assert scene.slow_band.get_fill_color().to_hex() == UNSEEN.to_hex()
    # its words in the text colour, on the band (review round 3: a pale blue beside LLaMA-2's blue, two blues)
    assert all(t.get_fill_color().to_hex() == FG.to_hex() for t in scene.band_label.get_family()
               if getattr(t, "text", ""))


def test_the_stages_one_subject_at_a_time(final):
    """GPT-2's table and LLaMA's plot are never on screen together: the table leaves as RoPE comes in."""
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    for key in ("table", "corner", "cap"):
        texts = [it.text for it in recs[key].items if it.kind == "text" and not it.header]
        assert not any("positions per full turn" in t or "LLaMA" in t for t in texts), key
    for key in ("rope", "speeds", "slow", "base", "tie"):
        texts = [it.text for it in recs[key].items if it.kind == "text" and not it.header]
        assert not any("parameters" in t or "features" in t for t in texts), key


def test_the_close_ends_on_a_last_row_against_a_slow_pair_past_training(final):
    """Issue 33: the close shows a *slow* pair at an angle past the arc training swept (the old close showed pair 0,
    a fast pair).  Round 4b: the rest is gone, the dial as large as the table."""
    scene, frame = final
    d = scene.data
    on = {id(f) for m in scene.mobjects for f in m.get_family()}
    assert all(id(f) in on for f in scene.summary.get_family())
    assert id(scene.plot.axes[0]) not in on and id(scene.view.image) not in on  # the rest is gone
    content = scene.layout.content
    assert scene.summary.width >= 0.6 * content.width and scene.summary.height >= 0.6 * content.height
    # LLaMA-2's slowest pair at three times its training length: never completed a turn, and its angle there is
    # past the arc it swept in training (mathcore's rule for an unseen angle)
    i, m = d.slow_index, d.slow_position
    assert i == d.n_pairs - 1 and m > LLAMA2.train_length
    assert not wrapped_in_training(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base)[i]
    assert rope_unseen_pairs([m], LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base)[0, i] and d.slow_unseen
    assert np.isclose(scene.closing_dial.angle, pair_angles(m, LLAMA2.head_dim, LLAMA2.rope_base)[i])
    arc = training_arcs(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base)[i]
    assert np.isclose(scene.slow_arc.angle, arc) and scene.closing_dial.angle > arc
    assert scene.slow_arc._role == "seen" and scene.arc_words.text == "training"
    assert np.isclose(d.slow_angle, m * 2 * np.pi / rope_wavelengths(LLAMA2.head_dim, LLAMA2.rope_base)[i])
    close = scene.captions[-1].text
    assert f"LLaMA-2's pair {i}" in close and count(m).text in close and "an unseen angle" in close

def test_the_table_is_named_an_initialisation_never_a_trained_table(final):
    """Issue 33: 14 `corner` said "every entry is a trained parameter" over values drawn from
    N(0, 0.02²), GPT-2's initialisation.  The words now say so, on screen and in the caption."""
    scene, _ = final
    d = scene.data
    assert LEARNED_STD == 0.02
    assert abs(d.table.std() - LEARNED_STD) < 0.001 and abs(d.table.mean()) < 0.001  # what was drawn: N(0, 0.02²)
    said = " ".join(c.text for c in scene.captions)
    assert "trained parameter" not in said and "trained table" not in said
    corner = next(c.text for c in scene.captions if "N(0" in c.text)
    assert "initialises" in corner and "0.02²" in corner
    # the corner's note says what the values are: the words in the sans, the distribution in math
    assert [w.text for w in scene.init_text.words] == [shown("Hugging Face's GPT-2 init:")]
    assert [m.typst_code.strip("$ ") for m in scene.init_text.maths] == [f"N(0, {LEARNED_STD:g}^2)"]
    assert not any("trained" in getattr(f, "text", "") for m in (scene.gpt, scene.summary) for f in m.get_family())
    corner_items = {it.mid for it in next(r for r in scene.audit.records if r.key == "corner").items}
    assert all(id(p) in corner_items for p in scene.init_text.pieces)


def test_the_slow_pairs_are_counted_per_model_from_its_own_base_and_train_length(final):
    """Issue 33: "18 of 64 never turn" was false (they turn, they never *complete* a turn) and one band at
    LLaMA-2's 4096 was shown for both models, while LLaMA-3's curve crosses that line near pair 32.  Each
    model now has its line at its own L and its band over its own count."""
    scene, _ = final
    d = scene.data
    W = scene.chart
    for k, m in enumerate((LLAMA2, LLAMA3)):
        wl = rope_wavelengths(m.head_dim, m.rope_base)
        # a pair never completes a turn in L positions when L·θᵢ < 2π, i.e. its period exceeds L
        n = int((m.train_length * 2 * np.pi / wl < 2 * np.pi).sum())
        assert n == d.slow_of(k) == pairs_without_a_turn(m.head_dim, m.train_length, m.rope_base)
        assert abs(W.train_lines[k].get_y() - scene.plot.to_point(0, m.train_length)[1]) < 1e-9
        first = d.n_pairs - n
        assert abs(W.bands[k].get_left()[0] - scene.plot.to_point(first - 0.5, 1)[0]) < 1e-6
        assert abs(W.bands[k].get_bottom()[1] - W.train_lines[k].get_y()) < 1e-6
        # what the count means, on its band (whose floor is the L line: λᵢ > L), so no full turn within training
        assert band_words(W.band_labels[k]) == shown(f"{n} of {d.n_pairs}: no full turn in training")
        assert np.all(wl[d.n_pairs - n:] > m.train_length) and np.all(wl[:d.n_pairs - n] <= m.train_length)
    assert (d.slow_pairs, d.slow_pairs3) == (18, 29)
    said = " ".join(c.text for c in scene.captions)
    assert "never turn" not in said and f"{d.slow_pairs3} of {d.n_pairs}" in said
    # the band framed at the end is LLaMA-3's own
    assert W.outline is W.outlines[1]
    assert abs(W.outline.get_left()[0] - W.bands[1].get_left()[0]) < 1e-6


def _said_value(text: str) -> float:
    """A period as said: "≈ 5.4 × 10⁴" -> 5.4e4, "≈ 2.6 × 10⁶" -> 2.6e6."""
    t = text.replace("≈", "").replace("\u2009", "").replace(" ", "")
    if "×10" in t:
        mant, exp = t.split("×10")
        return float(mant) * 10 ** int(exp.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
    return float(t)


def _typeset_value(typst: str) -> float:
    """The same printed in Typst: "approx 54 thin 410" -> 54410, "approx 2.6 times 10^6" -> 2.6e6."""
    t = typst.replace("approx", "").replace("thin", "").replace(" ", "")
    if "times10^" in t:
        mant, exp = t.split("times10^")
        return float(mant) * 10 ** int(exp)
    return float(t)


def _on_at(scene, key, mob) -> bool:
    rec = next(r for r in scene.audit.records if r.key == key)
    ids = {it.mid for it in rec.items}
    return any(id(f) in ids for f in mob.get_family())


def test_the_spoken_periods_are_printed_where_their_lines_end(final):
    """Issue 33: 14 `speeds`/`base` spoke of periods (≈ 6, 54 410, ≈ 2.6 million) that were never drawn.  Each is
    printed at its line's end as λ₆₃ (the y axis names λᵢ, positions per full turn), with "≈": a period of
    54 410.2 positions is rounded (round 3: rounded numbers carry ≈), and said as the same number."""
    scene, _ = final
    d = scene.data
    last = d.n_pairs - 1
    assert "lambda_i" in scene.chart.title.maths[0].typst_code
    for key, k in (("speeds", 0), ("base", 1)):
        wl = d.wavelengths[k][-1]
        code = scene.periods[k].typst_code.strip("$ ")
        assert code.startswith(f"lambda_({last}) approx ")
        shown_value, said = _typeset_value(code.split(f"lambda_({last})")[1]), period_text(wl)
        assert said.startswith("≈") and not np.isclose(wl, round(wl), rtol=0, atol=1e-9)  # rounded, so ≈
        assert np.isclose(shown_value, _said_value(said), rtol=1e-9)  # printed = said
        assert abs(shown_value - wl) / wl < 0.02  # and both are the measured period
        assert _on_at(scene, key, scene.periods[k]), key
        # beside its line's end
        end = scene.plot.to_point(d.n_pairs - 1, wl)
        assert scene.periods[k].get_left()[0] > scene.plot.axes[0].get_right()[0]
        assert abs(scene.wl_tags[k].get_y() - end[1]) < 1.0
        cap = scene.captions[[r.key for r in scene.audit.records].index(key)].text
        assert said in cap, cap
    # one format for both long periods (review round 3: "54 410" beside "2.6 × 10⁶"), and 2π named for pair 0
    assert [period_text(w) for w in (d.wl_llama2[0], d.wl_llama2[-1], d.wl_llama3[-1])] == \
        ["2π ≈ 6.3", "≈ 5.4 × 10⁴", "≈ 2.6 × 10⁶"]
    assert [w.text for w in scene.start_period.words] == [shown("pair 0:")]
    assert scene.start_period.maths[0].typst_code.strip("$ ") == "lambda_0 = 2 pi approx 6.3"
    assert np.isclose(d.wl_llama2[0], 2 * np.pi) and _on_at(scene, "speeds", scene.start_period)
    assert "2π ≈ 6.3" in scene.captions[[r.key for r in scene.audit.records].index("speeds")].text
    # λᵢ = 2π/θᵢ on the y axis's title: what the plot shows tied to the θᵢ the narration turns by
    assert "lambda_i = 2 pi slash theta_i" in scene.chart.title.maths[0].typst_code
    theta = LLAMA2.rope_base ** (-2 * np.arange(d.n_pairs) / LLAMA2.head_dim)
    assert np.allclose(d.wl_llama2, 2 * np.pi / theta)


def test_one_symbol_per_width_model_width_then_head_dimension(final):
    """Review R2 (14 `rope`): d meant GPT-2's model width 768 in beats 01–03, then LLaMA's head dimension 128
    in beats 04–08.  The width is d_model now; d is the head dimension, named in words beside it."""
    scene, _ = final
    # GPT-2's width is said in words on its table ("768 features across"), never as d
    assert any(getattr(f, "text", "") == shown(f"{GPT2.d_model} features across") for f in scene.shape_text.get_family())
    assert not any("d =" in getattr(f, "typst_code", "") for f in scene.gpt.get_family())
    f = scene.formula
    assert shown("head dimension") in "".join(w.text for w in f.words)
    assert any(m.typst_code.strip("$ ") == f"d = {LLAMA2.head_dim}" for m in f.maths)
    assert any("theta_i" in m.typst_code and "slash d" in m.typst_code for m in f.maths)
    said = {r.key: c.text for r, c in zip(scene.audit.records, scene.captions)}
    assert f"dimension {LLAMA2.head_dim}" in said["rope"] and f"{GPT2.d_model} numbers" in said["table"]


def test_rope_is_never_said_over_empty_axes(final):
    """Issue 33: 14 `rope` said "for any m" over empty axes for 7 s.  Its beat draws LLaMA-2's line."""
    scene, _ = final
    rec = next(r for r in scene.audit.records if r.key == "rope")
    assert any(it.mid == id(scene.wl_curves[0]) or it.mid in {id(f) for f in scene.wl_curves[0].get_family()}
               for it in rec.items)
    assert "for any m" not in scene.captions[[r.key for r in scene.audit.records].index("rope")].text


def test_every_beat_changes_the_picture_and_speaks_lecture_language(final, corners):
    for name, r in {"final": final[0].audit, **corners}.items():
        kinds = {p.kind for p in r.lecture}
        assert not kinds & {"static", "notation", "binding"}, (name, [str(p) for p in r.lecture][:5])


def test_the_still_uses_the_clips_scale_and_colours(final):
    scene, _ = final
    d = scene.data
    still = stills_for(GPT2ToLLaMA, scene.cfg, d)[0]
    T, W = still.panels["T"], still.panels["W"]
    assert T.scale.same_as(scene.scale) and T.scale.same_as(table_scale(d))  # bounds and colormap
    assert T.scale.name == d.cmap == scene.cfg.cmap_signed
    np.testing.assert_array_equal(T.values, d.sample)
    assert list(T.cbar_ticks) == scene.scale.ticks() == list(scene.colorbar.ticks)
    for k, ser in enumerate(W.series):
        np.testing.assert_array_equal(ser.y, d.wavelengths[k])
        assert ser.color == hex_of(scene.wl_curves[k].get_stroke_color()) == hex_of(base_colors()[k])
    assert W.ylim == d.wl_range and W.y_log


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert any("clip 13" in c.text for c in caps) and caps[-1].text.startswith("One reason the table went away")
    assert any("≈ 2.6 × 10⁶" in c.text for c in caps)


def test_the_colour_bar_is_the_tables_scale_under_every_corner(corners):
    for name, r in corners.items():
        # every colormap: the bar's ticks are the scale's round values and the scale covers the table
        sc = ColorScale.symmetric(r.scene.data.cmap, r.scene.data.table)
        assert r.scene.scale.same_as(sc), name


def test_the_band_and_the_close_name_their_model(final):
    """Review (issue 33): LLaMA-2's band read "18 of 64 never complete a turn in 4096" with no model named
    while LLaMA-3's line was drawn through it, and the close said "Pair 63 at m = 8192" right after
    LLaMA-3 (L = 8192) though the dial is LLaMA-2's. Both now name LLaMA-2; the old texts fail this."""
    scene = final[0] if isinstance(final, tuple) else final.scene
    d = scene.data
    for k, text in enumerate(scene.band_texts):
        name = ("LLaMA-2", "LLaMA-3")[k]
        # the band's count under the dashed line that names its model and L (the band's words say what it means)
        assert text.replace("\n", " ").startswith(f"{d.slow_of(k)} of {d.n_pairs}")
        assert [w.text for w in scene.chart.L_labels[k].words] == [shown(f"{name}:")]
    close = scene.captions[-1].text
    assert f"At m = {count(12288).text}, LLaMA-2's pair 63 is at ≈ 81°" in close, close
    # and on screen: the close's heading names the model with its own train length (m = 2L is LLaMA-2's)
    assert [w.text for w in scene.close_head.words] == [shown("LLaMA-2: RoPE,")]
    assert [m.typst_code.strip("$ ") for m in scene.close_head.maths] == [f"L = {count(LLAMA2.train_length).math}"]


def test_the_tables_edges_are_named_row_0_and_row_1023(final):
    """Review (issue 33): the table's shape must be honest, 1024 rows: its top edge is named "row 0" and its
    bottom edge "row 1023" beside the drawn table, large at its first beats and small at the close (the old
    table named neither edge)."""
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    for table, rows, beats in ((scene.view.image, scene.view.row_labels, ("table", "corner", "cap")),
                               (scene.thumb.image, scene.thumb_rows, ("close",))):
        top, bottom = rows
        assert (top.text, bottom.text) == ("row0", shown(f"row {count(GPT2.n_max - 1).text}")) == ("row0", "row1023")
        assert abs(top.get_top()[1] - table.get_top()[1]) < 1e-6
        assert abs(bottom.get_bottom()[1] - table.get_bottom()[1]) < 1e-6
        assert top.get_right()[0] < table.get_left()[0] and bottom.get_right()[0] < table.get_left()[0]
        for key in beats:
            items = {it.mid: it for it in recs[key].items}
            assert all(id(t) in items and items[id(t)].opacity > 0.9 for t in rows), key
    # the drawn rows stand for all 1024: every 32nd row drawn, the last drawn row within the last stretch
    d = scene.data
    step = d.sample_rows[1] - d.sample_rows[0]
    assert d.sample_rows[0] == 0 and d.sample_rows[-1] + step == GPT2.n_max
    # the table is large: at its first beat it spans most of the content's height
    assert scene.view.image.height >= 0.7 * scene.layout.content.height


def test_labels_set_their_words_in_the_sans_and_only_the_maths_in_typst(final):
    """Review (issue 33): words written inside Typst math came out in the serif math font ("pair" i,
    "LLaMA-2:" L = 4096, "pair" 63 "at" m = 8192).  Every such label is now a worded line: sans words, and
    Typst only for the maths."""
    scene, _ = final
    for line in (scene.chart.x_label, *scene.chart.L_labels, scene.rope_verdict.line, scene.init_text,
                 scene.far_line, scene.seen_line):
        assert line.words and line.maths
        assert not any('"' in m.typst_code for m in line.maths), line.source
    # review round 6: a number inside a sentence in the sentence's sans ("past 1023" beside "row 1023",
    # "enlarged ≈ 69 times"), never in the serif maths
    assert not scene.table_verdict.line.maths and "1023" in "".join(w.text for w in scene.table_verdict.line.words)
    assert not hasattr(scene.zoom_text[1], "maths") and "≈" in scene.zoom_text[1].text
    texts = [f.typst_code for m in (scene.gpt, scene.llama_heads, scene.chart, scene.summary)
             for f in m.get_family() if hasattr(f, "typst_code")]
    words = re.compile(r'(?<![_^])"[^"]*"')  # a quoted word set in the math (a quoted script, n_"max", is notation)
    assert not any(words.search(t) for t in texts), [t for t in texts if words.search(t)]


def test_the_close_names_the_position_past_training_in_its_verdict(final):
    """The close's ✓ reads "m = 12 288: pair 63 at ≈ 81°": the position three times LLaMA-2's L (not 2L = 8192,
    LLaMA-3's L one beat earlier), far past GPT-2's last row, and the angle measured there in whole degrees."""
    scene, _ = final
    d = scene.data
    assert d.slow_position == 3 * LLAMA2.train_length == 12288 and d.slow_position != LLAMA3.train_length
    assert d.slow_position > GPT2.n_max - 1
    v = scene.far_line  # round 7: a measurement, under the ✓, with no mark of its own
    assert [w.text for w in v.words] == [shown(f": pair {d.slow_index} at"), ","]
    deg = int(round(np.degrees(pair_angles(d.slow_position, LLAMA2.head_dim, LLAMA2.rope_base)[d.slow_index])))
    assert deg == 81
    # m = 3L on screen, as the recap says it ("three times LLaMA-2's training length")
    times = d.slow_position // LLAMA2.train_length
    assert times * LLAMA2.train_length == d.slow_position and times == 3
    assert [m.typst_code.strip("$ ") for m in v.maths] == [f"m = {count(d.slow_position).math} = {times} L",
                                                         f"approx {deg}°"]

def test_the_table_is_the_large_subject_of_its_first_beat(final):
    """Issue 33 review: the opening ``table`` beat showed the table as a 4:3 block in the middle of a dark frame
    ("a thumbnail in a corner, two thirds empty").  At its first beat the table now fills the height under the
    heading (its true shape kept: as wide for its height as 768 features over 1024 rows) and a brace down its
    right side counts its rows, with what is drawn of it said beside the brace."""
    scene, _ = final
    d, V = scene.data, scene.view
    items = {it.mid: it for it in {r.key: r for r in scene.audit.records}["table"].items}

    def box(mob):  # the drawn extent of ``mob`` at the beat, from the audit's visible leaves
        got = [items[id(f)].box for f in mob.get_family() if id(f) in items and items[id(f)].opacity > 0.9]
        assert got, mob
        return min(g[0] for g in got), min(g[1] for g in got), max(g[2] for g in got), max(g[3] for g in got)

    l, b, r, t = box(V.image)
    content = scene.layout.content
    head_bottom = scene.gpt_head.get_bottom()[1]
    assert t - b >= 0.9 * (head_bottom - content.bottom), (t - b, head_bottom - content.bottom)
    assert t - b >= 0.8 * content.height
    # its shape is the real table's: width over height as 768 features over 1024 rows
    assert abs((r - l) / (t - b) - GPT2.d_model / GPT2.n_max) < 0.01
    # the brace spans the drawn rows, and its words count them (mathcore's n_max) and say what is drawn
    bl, bb, br, bt = box(scene.rows_brace)
    assert bl >= r and abs(bt - t) < 0.1 and abs(bb - b) < 0.1
    assert scene.rows_text.text == shown(f"{count(GPT2.n_max).text} rows")
    said = " ".join(m.text for m in scene.shape_text.get_family() if hasattr(m, "text"))
    step_r, step_c = d.sample_rows[1] - d.sample_rows[0], d.sample_cols[1] - d.sample_cols[0]
    assert f"every{step_r}nd" in said and f"every{step_c}th" in said and f"{GPT2.d_model}" in said
    assert box(scene.shape_text)[0] > br
    # the brace and its words leave at the next beat, with the table back at its place beside its corner
    corner = {it.mid for it in {r.key: r for r in scene.audit.records}["corner"].items}
    assert not any(id(f) in corner for f in scene.rows_brace.get_family())


# GPT-2's position-table initialisations, from their sources: OpenAI's gpt-2 ``src/model.py`` draws ``wpe`` with
# ``random_normal_initializer(stddev=0.01)`` (``wte`` with 0.02); Hugging Face's ``GPT2Config.initializer_range``
# (and nanoGPT's ``_init_weights``) draw every embedding, ``wpe`` included, with std 0.02.
OPENAI_WPE_STD = 0.01
HF_EMBEDDING_STD = 0.02


def test_the_initialisation_is_named_by_whose_it_is(final):
    """Review R2: 14 `corner` said "as GPT-2 initialises it: N(0, 0.02²)", false of OpenAI's GPT-2 (its wpe is
    drawn with σ = 0.01).  The σ drawn is Hugging Face's, and every sentence that names it says so; the heading
    says the table is the one at initialisation from the first beat."""
    scene, _ = final
    d = scene.data
    sigma = float(d.table.std())
    assert abs(sigma - HF_EMBEDDING_STD) < 0.001 and abs(sigma - OPENAI_WPE_STD) > 0.005  # the table drawn: HF's σ
    assert LEARNED_STD == HF_EMBEDDING_STD != OPENAI_WPE_STD
    lines = [c.text for c in scene.captions if "N(0" in c.text]
    lines += [" ".join(w.text for w in scene.init_text.words)]
    assert lines and all(shown("Hugging Face's GPT-2") in shown(t) for t in lines), lines
    assert not any(re.search(r"as GPT-2 initiali|^GPT-2 init", t) for t in lines)
    assert scene.gpt_head.text == shown("GPT-2's position table, at initialisation")
    recs = {r.key: r for r in scene.audit.records}
    for key in ("table", "corner"):  # on screen, at full strength, while the table's values are the subject
        items = {it.mid: it for it in recs[key].items}
        assert id(scene.gpt_head) in items and items[id(scene.gpt_head)].opacity > 0.9, key
    # the cap beat: the values no longer matter, the heading drops "at initialisation" (review round 7)
    items = {it.mid: it for it in recs["cap"].items}
    assert not (id(scene.gpt_head) in items and items[id(scene.gpt_head)].opacity > 0.1)
    assert scene.cap_head.text == shown("GPT-2's position table")
    assert id(scene.cap_head) in items and items[id(scene.cap_head)].opacity > 0.9


def test_the_names_at_the_line_ends_stay_clear_of_the_bands_words(final):
    """Review R2, beats 05–09: the "LLaMA-3 / b / ≈ 2.6 million" stack rose over the plot's top, level with the
    band's words "… complete a turn in 4096" a hair to its left, so the two read as one line.  The names stay
    at their lines' ends, under the plot's top; the bands' words stand over it."""
    scene, _ = final
    W = scene.chart
    top = W.plot.axes[1].get_top()[1]
    for tag in scene.wl_tags:
        assert tag.get_top()[1] <= top + 1e-6 and tag.get_left()[0] > W.plot.axes[0].get_right()[0]
    # the bands' words on their bands, every line of them over the curve drawn with them (review round 3: label
    # on the data; round 4: the axis no higher than that needs, so a line's own box, not the column's)
    for k, lab in enumerate(W.band_labels):
        assert lab.get_top()[1] <= top and lab.get_bottom()[1] > W.train_lines[k].get_y()
        for line in lab:
            c = W.curves[k]
            under = c.points[(c.points[:, 0] >= line.get_left()[0]) & (c.points[:, 0] <= line.get_right()[0])]
            assert not len(under) or under[:, 1].max() < line.get_bottom()[1]
    d = scene.data
    for k, tag in enumerate(scene.wl_tags):  # still beside its own line's end
        end = W.plot.to_point(d.n_pairs - 1, d.wavelengths[k][-1])
        assert tag.get_bottom()[1] - 1.0 < end[1] < tag.get_top()[1] + 1.0


def test_the_plot_spans_most_of_the_frame(final):
    """Review R2, beats 05–09: the period plot filled only the left ~70 % of the frame, its names' column as wide
    as "≈ 2.6 million per turn".  The periods at the line ends are the numbers alone (the y axis says "positions
    per full turn"), and the plot spans at least three quarters of the content's width."""
    scene, _ = final
    W = scene.chart
    assert [w.text for w in W.title.words] == [shown("positions per full turn,")]
    assert all("turn" not in p.typst_code for p in scene.periods)
    # (0.7: the names' column carries λ₆₃ with its period since round 3: "54 410" had no unit)
    assert W.plot.axes[0].width >= 0.7 * scene.layout.content.width


def test_the_tie_says_exactly_what_it_counts(final):
    """Review R2 (14 `tie`): "LLaMA-3 *still* has 29 of 64 pairs short of a turn" read as if the larger base
    were meant to lower the count (it raises it, 18 -> 29).  The sentence now says what is counted, for LLaMA-3
    alone: pairs whose L·θᵢ < 2π in its own 8192 training positions, and that band is the one on screen."""
    scene, _ = final
    d = scene.data
    said = {r.key: c.text for r, c in zip(scene.audit.records, scene.captions)}
    tie = said["tie"]
    wl = rope_wavelengths(LLAMA3.head_dim, LLAMA3.rope_base)
    n = int((LLAMA3.train_length * 2 * np.pi / wl < 2 * np.pi).sum())
    assert n == d.slow_pairs3 == 29
    assert "still" not in tie and "short of" not in tie
    # review round 5: "yet its larger base slows the pairs" posed a paradox the clip never resolved
    assert "yet" not in tie
    # what the larger base buys, said and drawn (review round 6: "29 of 64" had no meaning): over LLaMA-3's 8192
    # training positions LLaMA-2's base would leave 14 pairs without a full turn (fewer than its own 18 at 4096),
    # LLaMA-3's larger base 29
    wl2_ = rope_wavelengths(LLAMA2.head_dim, LLAMA2.rope_base)
    at2 = int((LLAMA3.train_length * 2 * np.pi / wl2_ < 2 * np.pi).sum())
    assert at2 == d.slow_pairs3_at2 == 14 and at2 < d.slow_pairs < n
    assert (f"At L = {count(LLAMA3.train_length).text}, LLaMA-3's larger base leaves {n} of {d.n_pairs} pairs "
            f"without a full turn, LLaMA-2's {at2}: their angles never wrap in training.") == tie
    # drawn: a dot where LLaMA-2's line crosses LLaMA-3's L line (λᵢ = L between pairs 49 and 50), its count
    # under it in LLaMA-2's colour, right of where the line runs
    assert wl2_[49] < LLAMA3.train_length < wl2_[50] and 49 < d.cross2 < 50
    p = scene.chart.plot
    assert np.allclose(scene.cross_dot.get_center(), p.to_point(d.cross2, LLAMA3.train_length))
    assert np.allclose(scene.cross_dot.get_center()[1], scene.chart.train_lines[1].get_y())
    words = band_words(scene.cross_text)
    assert words.endswith(shown(f"{at2} of {d.n_pairs}"))
    assert [m.typst_code.strip("$ ") for m in scene.cross_text.get_family() if hasattr(m, "typst_code")] == [
        f"b = {count(LLAMA2.rope_base).math}"]
    assert scene.cross_text.get_top()[1] < scene.cross_dot.get_bottom()[1]
    assert scene.cross_text.get_right()[0] <= p.axes[0].get_right()[0]
    for f in scene.cross_text.get_family():
        if getattr(f, "text", "") or hasattr(f, "typst_code"):
            assert f.get_color().to_hex() == scene.base_colors[0].to_hex()
    assert _on_at(scene, "tie", scene.cross_mark) and not _on_at(scene, "base", scene.cross_mark)
    assert _opacity_at(scene, "tie", scene.cross_text) > 0.9
    wl2 = rope_wavelengths(LLAMA2.head_dim, LLAMA2.rope_base)
    assert LLAMA3.rope_base > LLAMA2.rope_base and np.all(wl[1:] > wl2[1:])  # every pair but 0 slower
    assert not _on_at(scene, "tie", scene.chart.train_lines[0])  # one dashed L at a time
    assert _on_at(scene, "tie", scene.chart.band_labels[1]) and _on_at(scene, "tie", scene.chart.train_lines[1])
    assert not _on_at(scene, "tie", scene.chart.band_labels[0])  # LLaMA-2's count is gone when LLaMA-3's is said


def test_the_close_answers_why_the_table_went_away(final):
    """Review R2 / round 4b (14 `close`): the clip promised "why the position table went away"; round 4b called
    "why the table went away: 786 432 parameters …" overstated (0.6 % of GPT-2 small's parameters) and the close a
    dashboard.  It now gives one reason, the one its picture proves: GPT-2's ✗ (no row past 1023, the table's last
    row) beside LLaMA-2's ✓ (an angle at m = 12 288, far past it); no parameter count, no pointer to a lecture."""
    scene, _ = final
    d = scene.data
    close = scene.captions[-1].text
    assert close.startswith("One reason the table went away") and "parameters" not in close
    assert "lecture" not in close
    assert f"no row past {count(GPT2.n_max - 1).text}" in close and d.table.shape[0] == GPT2.n_max
    # GPT-2's verdict: ✗, no row past the table's last row, on screen at the close
    v = scene.table_verdict
    assert v._verdict and v.passed is False
    assert [w.text for w in v.line.words] == [shown(f"no row past {d.table.shape[0] - 1}")]  # in the sans
    assert _on_at(scene, "close", v)
    # RoPE's verdict: ✓, an angle at every m (defined everywhere), no last row
    r = scene.rope_verdict
    assert r._verdict and r.passed is True and _on_at(scene, "close", r)
    assert [w.text for w in r.line.words] == [shown("an angle at every"), shown(": no last row")]
    far = np.array([GPT2.n_max, d.slow_position, 10 ** 6, 10 ** 9])
    theta = LLAMA2.rope_base ** (-2 * np.arange(d.n_pairs) / LLAMA2.head_dim)
    for m in far:  # defined at every m: finite and exactly m·θᵢ mod 2π, far past every table
        a = pair_angles(int(m), LLAMA2.head_dim, LLAMA2.rope_base)
        assert np.all(np.isfinite(a)) and np.allclose(a, (m * theta) % (2 * np.pi))
    assert "RoPE has an angle at every m" in close

def test_round4_the_chart_reads_cleanly(final):
    """Review round 4 (14): the y axis ran to 10⁹ over data ending at 2.6 × 10⁶; the "18 of 64" words straddled
    their band's left edge; LLaMA-2 periwinkle, the violet L line and LLaMA-3 magenta were three purple-blues;
    a faint unlabelled band stayed in beat 07; LLaMA-2's labels barely dimmed when its line "dims"."""
    from scenes.kit.compose import DIMMED
    from manim import DOWN, LEFT, RIGHT, UP

    from scenes.kit.theme import CONCEPT_COLORS, SEEN
    scene, _ = final
    W, d = scene.chart, scene.data
    # the axis ends at most two decades over the slowest pair (10⁸ for 2.6 × 10⁶; 10⁹ before), at least one
    top = max(float(np.max(w)) for w in d.wavelengths)
    hi = None
    y_top = W.plot.axes[1].get_top()[1]
    decade = W.plot.to_point(0, 10.0)[1] - W.plot.to_point(0, 1.0)[1]
    over = (y_top - W.plot.to_point(0, top)[1]) / decade  # decades of axis over the slowest pair
    assert 0 < over < 2, (over, hi)
    # every band's words wholly inside its band, and no line of them crossed by its own curve
    for k, lab in enumerate(W.band_labels):
        b = W.bands[k]
        assert lab.get_left()[0] >= b.get_left()[0] - 1e-6 and lab.get_right()[0] <= b.get_right()[0] + 1e-6
        assert lab.get_top()[1] <= b.get_top()[1] + 1e-6 and lab.get_bottom()[1] >= b.get_bottom()[1] - 1e-6
        for line in lab:
            (l, bo, _), (r, t, _) = line.get_corner(DOWN + LEFT), line.get_corner(UP + RIGHT)
            pts = W.curves[k].points
            assert not np.any((pts[:, 0] > l) & (pts[:, 0] < r) & (pts[:, 1] > bo) & (pts[:, 1] < t))
    # the two models' colours: far from the training line's violet, from each other and from every concept colour
    rgb = [np.asarray(c.to_rgb()) for c in scene.base_colors]
    seen = np.asarray(SEEN.to_rgb())
    assert min(np.linalg.norm(c - seen) for c in rgb) > 0.5  # the cool ramp's periwinkle was 0.26 from it
    assert np.linalg.norm(rgb[0] - rgb[1]) > 0.8  # periwinkle to magenta was 0.64
    for c in rgb:
        assert min(np.linalg.norm(c - np.asarray(v.to_rgb())) for v in CONCEPT_COLORS.values()) > 0.25
    # beat 07: no ghost of LLaMA-2's band; beat 08 (round 10): both lines and their names at full strength, the two
    # bases compared at one L, the periods at their ends gone (said at `speeds` and `base`)
    assert _opacity_at(scene, "base", W.bands[0]) == 0
    for k in range(2):
        for mob in (W.curves[k], scene.wl_tags[k][0], scene.wl_tags[k][1]):
            assert _opacity_at(scene, "tie", mob) > DIMMED + 0.5, mob
        assert not _on_at(scene, "tie", scene.periods[k])


def _opacity_at(scene, key, mob) -> float:
    """The largest opacity among ``mob``'s leaves the audit saw at the end of beat ``key`` (0: none drawn)."""
    rec = next(r for r in scene.audit.records if r.key == key)
    ids = {id(f) for f in mob.get_family()}
    return max([it.opacity for it in rec.items if it.mid in ids], default=0.0)


def test_round4_words_and_picture_agree_and_the_close_is_level(final):
    """Review round 4 (14): beat 01 said GPT-2 "learns" its rows over a table headed "at initialisation"; the
    description said "0.10" where the bar reads 0.1; the close's ✗ sat at the bottom and its ✓ at the top; the
    lecture-6 arrow started at nothing; the cap beat left the zoom at full strength."""
    from scenes.kit.compose import DIMMED
    scene, _ = final
    table = next(c.text for c in scene.captions if c.key == "table")
    assert "here at initialisation" in table and "learns one row" not in table and shown("at initialisation") in scene.gpt_head.text
    corner = next(c.describe for c in scene.captions if c.key == "corner")
    bar = scene.colorbar.tick_labels[-1].text
    assert bar == "0.1" and f"minus {bar} to {bar}." in corner and "0.10" not in corner
    # the verdicts level: each right under its picture
    x, tick = scene.table_verdict, scene.rope_verdict
    assert abs(x.get_y() - tick.get_y()) < 0.25, (x.get_y(), tick.get_y())
    # the cap beat: the rule the subject; the corner's enlargement, bar and words gone (review round 6: dimmed,
    # they were grey clutter), the table alone in the middle of the frame
    for mob in (scene.view.zoom_map, scene.colorbar, scene.view.notes, scene.view.zoom_lines, scene.view.corner):
        assert not _on_at(scene, "cap", mob)
    assert _opacity_at(scene, "cap", scene.view.cap_line) > 0.9
    assert "fade away" in next(c.describe for c in scene.captions if c.key == "cap")
    del DIMMED
    # the leaders run outside the grid: nowhere inside the table's cells (the table as it stood beside its corner:
    # the cap beat grows it back to the full height)
    left, bottom, right, top = _corner_box(scene)
    for line in scene.view.zoom_lines:
        pts = line.points
        inside = (pts[:, 0] > left + 0.05) & (pts[:, 0] < right - 0.05) & (
            pts[:, 1] < top - 0.05) & (pts[:, 1] > bottom + 0.05)
        assert not inside.any()


def _corner_box(scene):
    """The table's box at the corner beat (left, bottom, right, top): shrunk by the big table's scale to its place
    beside the enlarged corner; the cap beat grows it back."""
    img = scene.view.image
    w, h = img.width / scene.table_scale, img.height / scene.table_scale
    (x, y, _) = scene.table_home
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def test_round10_the_zoom_marker_frames_the_drawn_cell_whose_block_it_enlarges(final):
    """Review round 10 (14 `corner`): the enlargement showed rows 0–7 × features 0–11 while the table beside it is
    drawn as every 32nd row and 64th feature, so the yellow speck at its corner (a few pixels, inside one drawn cell)
    did not visibly match what it enlarged.  The enlargement is now the whole block the table's first drawn cell
    stands for, rows 0–31 × features 0–63, every value; the yellow box frames exactly that cell (whose colour is
    the block's first entry, as is the enlargement's first cell); the table's sampling is written under it; the
    words say the block and its true scale."""
    scene, _ = final
    d, V = scene.data, scene.view
    step_r, step_c = int(d.sample_rows[1] - d.sample_rows[0]), int(d.sample_cols[1] - d.sample_cols[0])
    assert d.zoom == (step_r, step_c) == (32, 64)
    np.testing.assert_array_equal(d.corner, d.table[:step_r, :step_c])
    # the table at its place beside the corner (the beat shrinks it back there before drawing the marker)
    left, bottom, right, top = _corner_box(scene)
    cell_w, cell_h = (right - left) / len(d.sample_cols), (top - bottom) / len(d.sample_rows)
    # the box is the block at its true size on the drawn table, which is one drawn cell
    assert np.isclose(V.corner.width, (right - left) * d.zoom[1] / GPT2.d_model)
    assert np.isclose(V.corner.height, (top - bottom) * d.zoom[0] / GPT2.n_max)
    assert np.isclose(V.corner.width, cell_w) and np.isclose(V.corner.height, cell_h)
    assert np.allclose(V.corner.get_corner([-1, 1, 0])[:2], [left, top])  # the table's top-left corner
    # an outline, so the cell's colour shows: the same colour as the enlargement's first cell (entry (0, 0))
    assert V.corner.get_fill_opacity() == 0 and V.corner.get_stroke_width() > 0
    assert d.sample[0, 0] == d.corner[0, 0]
    assert V.image.cell(0, 0).get_fill_color().to_hex() == V.zoom_map.cell(0, 0).get_fill_color().to_hex()
    # the table's sampling said under it while the corner is enlarged, and gone with the enlargement
    assert scene.drawn_note.text == shown(f"every {step_r}nd row, {step_c}th feature")
    assert _on_at(scene, "corner", scene.drawn_note) and not _on_at(scene, "table", scene.drawn_note)
    assert not _on_at(scene, "cap", scene.drawn_note)
    assert scene.drawn_note.get_top()[1] < bottom and scene.drawn_note.get_right()[0] <= right + 1e-6
    assert scene.drawn_note.get_right()[0] < V.zoom_map.get_left()[0]  # never on under the enlargement's words
    # the table keeps the real shape, so one entry is square on it; the enlargement's cells are square too
    entry_h, entry_w = (top - bottom) / GPT2.n_max, (right - left) / GPT2.d_model
    assert np.isclose(entry_h, entry_w, rtol=0.02)
    cell = V.zoom_map.height / d.zoom[0]
    assert np.isclose(V.zoom_map.width / d.zoom[1], cell, rtol=1e-3)
    factor = cell / entry_h
    assert np.isclose(V.zoom_map.height / V.corner.height, factor) and np.isclose(factor, scene.zoom_factor)
    # said under the enlargement, rounded, so with ≈
    assert scene.zoom_text[0].text == shown("rows 0 to 31, features 0 to 63")
    line = scene.zoom_text[1]  # in the sans, the number too (review round 6)
    assert line.text == shown(f"every value, enlarged ≈ {int(round(factor))} times")
    assert _on_at(scene, "corner", line) and _on_at(scene, "corner", V.corner)
    desc = next(c.describe for c in scene.captions if c.key == "corner")
    assert f"about {int(round(factor))} times" in desc and "speck" not in desc
    assert f"all {count(step_r * step_c).text} values of that block" in desc
    assert "every 32nd row, 64th feature" in desc and "rows 0 to 31 by features 0 to 63" in desc


def test_round5_the_chart_labels_sit_on_their_data(final):
    """Review round 4b (14 `speeds`, `slow`): "pair 0: λ₀ = 2π ≈ 6.3" stood 80 px from the point it names, with no
    point drawn; the 10⁴ grid line struck through "LLaMA-2: L = 4096"; the bands' words broke in different places
    (three lines, then two)."""
    from manim import DOWN, LEFT, UP

    scene, _ = final
    W, d = scene.chart, scene.data
    p = W.plot
    # pair 0's point drawn at (0, 2π), its words led to it
    assert np.allclose(W.start_dot.get_center(), p.to_point(0, d.wl_llama2[0]))
    assert np.allclose(W.start_leader.get_start(), W.start_dot.get_center())
    assert np.linalg.norm(W.start_leader.get_end() - scene.start_period.get_left()) < 0.1
    assert _on_at(scene, "speeds", W.start_dot) and _on_at(scene, "speeds", W.start_leader)
    assert scene.start_period.get_bottom()[1] > p.axes[0].get_y()  # clear of the x axis
    # no grid line through an L label's words, unless the page's colour is knocked out behind them
    grid = [g.get_start()[1] for g in p.grid if abs(g.get_start()[1] - g.get_end()[1]) < 1e-9]
    for lab in W.L_labels:
        words = [m for m in lab if m is not getattr(lab, "knockout", None)]
        lo, hi = min(m.get_bottom()[1] for m in words), max(m.get_top()[1] for m in words)
        for y in grid:
            if lo < y < hi:
                k = lab.knockout
                assert k.get_bottom()[1] <= lo and k.get_top()[1] >= hi and k.get_fill_opacity() == 1.0
                assert k.get_left()[0] <= min(m.get_left()[0] for m in words)
    # the bands' words broken at the same places
    lines = [[band_words(line) for line in lab] for lab in W.band_labels]
    assert [[t.split(":", 1)[-1] for t in ls] for ls in lines][0][1:] == \
        [[t.split(":", 1)[-1] for t in ls] for ls in lines][1][1:] and len(lines[0]) == len(lines[1])
    del DOWN, LEFT, UP


def test_round5_the_descriptions_follow_the_bands(final):
    """Review round 4b (14 `base`/`tie`): LLaMA-2's band leaves at `base`, but only the `tie` description said it
    was gone.  `base` says the band clears and its L line stays; `tie` says the L line goes."""
    scene, _ = final
    W = scene.chart
    desc = {c.key: c.describe for c in scene.captions}
    # (round 10: LLaMA-2's L line and pair 0's words leave at `base` too, the two bases compared alone)
    assert "band, its words, its dashed L line and pair 0's words clear away" in desc["base"]
    assert _opacity_at(scene, "base", W.bands[0]) == 0 and not _on_at(scene, "base", W.band_labels[0])
    for mob in (W.train_lines[0], W.L_labels[0], scene.start_period, W.start_mark):
        assert not _on_at(scene, "base", mob) and _on_at(scene, "slow", mob)
    assert "dashed L line" not in desc["tie"] and "band gone" not in desc["tie"]
    assert "the periods at the lines' ends clear away" in desc["tie"]
    assert not _on_at(scene, "tie", W.train_lines[0])


def test_round6_the_closing_tick_says_defined_not_seen(final):
    """Review round 6 (14 `close`), the deck's convention (round 7, shared with clips 13 and 15): a pair turned past
    its training arc is a new angle, a measured fact, neither a success nor a failure.  The ✓ goes only on "an
    angle at every m: no last row" (defined everywhere); "m = 12 288 = 3L: pair 63 at ≈ 81°, past training's ≈ 27°:
    an unseen angle" is a measurement in the unseen pale blue with no mark next to it; the ✗ only on the table's
    hard failure (no row past 1023)."""
    from mathcore.extrapolation import training_arcs
    from scenes.kit.theme import VERIFIED

    scene, _ = final
    d = scene.data
    arc = float(training_arcs(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base)[d.slow_index])
    assert np.isclose(arc, (LLAMA2.train_length - 1) * LLAMA2.rope_base ** (-2 * d.slow_index / LLAMA2.head_dim))
    deg_arc = int(round(np.degrees(arc)))
    assert deg_arc == 27 and np.degrees(d.slow_angle) > np.degrees(arc)  # the hand past every angle training met
    assert d.slow_unseen
    # the ✓: defined at every m, no last row -- its words say nothing of what training saw
    v = scene.rope_verdict
    assert v._verdict and v.passed is True and v.check.get_color().to_hex() == VERIFIED.to_hex()
    said = "".join(w.text for w in v.line.words)
    assert said == shown("an angle at every: no last row") and "seen" not in said and "°" not in said
    # the measurement: two lines in the unseen colour, no ✓ or ✗ of their own, the figure and "unseen angle"
    b = scene.beyond
    assert b._role == "unseen" and not getattr(b, "_verdict", False)
    assert [m.typst_code.strip("$ ") for m in scene.seen_line.maths] == [f"approx {deg_arc}°"]
    assert shown("an unseen angle") in "".join(w.text for w in scene.seen_line.words)
    for line in (scene.far_line, scene.seen_line):
        for f in (*line.words, *line.maths):
            assert f.get_color().to_hex() == UNSEEN.to_hex()
    ticks = [f for f in scene.summary.get_family() if getattr(f, "_role", None) == "verified"]
    assert [id(t) for t in ticks] == [id(v.check)]  # one ✓, on "an angle at every m"
    assert not any(getattr(f, "_role", None) in ("verified", "failed") or getattr(f, "_verdict", False)
                   for f in b.get_family())  # no ✓ or ✗ next to "unseen"
    assert _on_at(scene, "close", b) and _on_at(scene, "close", scene.unseen_arc)
    # under the ✓, not beside the ✗
    assert b.get_top()[1] < v.get_bottom()[1] and b.get_left()[0] > scene.table_verdict.get_right()[0]
    # the unseen arc: from training's end to the hand's angle, on the dial
    ua = scene.unseen_arc
    assert np.isclose(ua.start_angle, arc) and np.isclose(ua.start_angle + ua.angle, d.slow_angle)
    close = next(c for c in scene.captions if c.key == "close")
    # one term for a pair turned past its training arc (round 8): "an unseen angle", never "never seen"
    assert "an unseen angle" in close.text and "never seen" not in close.text and f"≈ {deg_arc}°" in close.describe
    assert "a tick: an angle at every m: no last row" in close.describe and "with no mark" in close.describe
    assert "tick: m =" not in close.describe  # the ✓ is not on the far angle


def test_round8_the_tie_says_why_a_larger_base_is_the_goal(final):
    """Review round 7 (14 `tie`): "29 of 64 without a full turn" could read as worse than 14; nothing said why more
    such pairs is the goal.  Said (since round 10 not written over the plot): a pair with no full turn gives each position its own
    angle.  Measured: over LLaMA-3's L positions, a pair whose period exceeds L has its angle m·θᵢ rising from 0 and
    still under 2π at the last position, so no two positions share an angle on it; every other pair comes back
    round (two positions within one turn's step of each other in angle).  LLaMA-3's base gives 29 such pairs at
    L = 8192, LLaMA-2's would give 14."""
    scene, _ = final
    d = scene.data
    L = LLAMA3.train_length
    m = np.arange(L)
    counts = []
    for base in (LLAMA2.rope_base, LLAMA3.rope_base):
        theta = 2 * np.pi / rope_wavelengths(LLAMA3.head_dim, base)
        own = 0
        for th in theta:
            ang = np.sort(np.mod(m * th, 2 * np.pi))
            gaps = np.diff(ang)
            if (L - 1) * th < 2 * np.pi:  # no full turn: the angles rise with m, all apart by θ at least
                assert np.all(np.diff(np.mod(m * th, 2 * np.pi)) > 0) and gaps.min() >= th * (1 - 1e-9)
                own += 1
            else:  # a full turn: some position comes back closer to another's angle than one step apart
                assert gaps.min() < th
        counts.append(own)
    assert counts == [d.slow_pairs3_at2, d.slow_pairs3] == [14, 29]
    assert counts[1] == pairs_without_a_turn(LLAMA3.head_dim, L, LLAMA3.rope_base)
    tie = next(c for c in scene.captions if c.key == "tie")
    # round 10: the reason is said, not written over the plot (a seventh annotation there)
    assert "their angles never wrap in training" in tie.text and "without a full turn" in tie.text
    assert "larger base leaves" in tie.text and not hasattr(scene, "why_text")


def _full_texts_at(scene, key) -> list:
    """The texts at full strength at the end of beat ``key``, as the audit saw them (the clip's title bar aside)."""
    rec = next(r for r in scene.audit.records if r.key == key)
    return [it for it in rec.items if it.kind == "text" and it.opacity > 0.9 and not it.header]


def test_round10_the_tie_is_one_idea_on_the_plot(final):
    """Review round 10 (14 `tie`): the beat carried seven annotations at once (the heading and θᵢ formula, the axis
    title, a three-line "why a larger base" box over the plot, the L line's words, the band's count, the dot's
    count, both line ends with b and λ₆₃, and pair 0's λ₀).  One idea now: at LLaMA-3's L, the larger base leaves
    more pairs without a full turn.  On the plot only the L line's words and the two counts where they are
    measured; beside it only the two lines' names with their bases; the heading says the point."""
    from manim import DOWN, LEFT, RIGHT, UP

    scene, _ = final
    W = scene.chart
    p = W.plot
    (x0, y0, _), (x1, y1, _) = p.axes[0].get_start(), np.array([p.axes[0].get_end()[0], p.axes[1].get_top()[1], 0])
    texts = _full_texts_at(scene, "tie")

    def ids(*mobs):
        return {id(f) for m in mobs for f in m.get_family()}

    on_plot = [it for it in texts if it.box[0] >= x0 - 1e-6 and it.box[2] <= x1 + 1e-6
               and it.box[1] >= y0 - 1e-6 and it.box[3] <= y1 + 1e-6]
    allowed = ids(W.L_labels[1], W.band_labels[1], scene.cross_text)
    assert on_plot and all(it.mid in allowed for it in on_plot), [it.name for it in on_plot if it.mid not in allowed]
    for mob in (W.L_labels[1], W.band_labels[1], scene.cross_text):  # each of them there
        assert any(it.mid in ids(mob) for it in on_plot), mob
    # right of the plot: the two names and bases only (the periods said at `speeds` and `base` are gone)
    beside = [it for it in texts if it.box[0] > x1]
    names = ids(*[t[0] for t in scene.wl_tags], *[t[1] for t in scene.wl_tags])
    assert beside and all(it.mid in names for it in beside), [it.name for it in beside if it.mid not in names]
    # over the plot: the heading that says the point, and the axis's title; nothing of LLaMA's formula line
    over = [it for it in texts if it.box[1] > y1]
    assert all(it.mid in ids(scene.tie_head, W.title) for it in over), [it.name for it in over]
    assert scene.tie_head.text == shown("A larger base: more pairs without a full turn")
    assert _on_at(scene, "tie", scene.tie_head) and not _on_at(scene, "tie", scene.llama_heads)
    assert not _on_at(scene, "base", scene.tie_head)
    desc = next(c.describe for c in scene.captions if c.key == "tie")
    assert "The heading becomes the heading" not in desc and "A larger base: more pairs without a full turn" in desc
    # the base beat: the two lines compared, pair 0's words and LLaMA-2's L line gone (said at `speeds`/`slow`)
    base = _full_texts_at(scene, "base")
    assert not any(it.mid in ids(scene.start_period, W.L_labels[0], W.band_labels[0]) for it in base)
    del DOWN, LEFT, RIGHT, UP


def test_round8_the_cap_is_the_table_at_full_height_closed_by_the_wall(final):
    """Review round 7 (14 `cap`): a ~300 px table and one red line left ~60 % of the frame empty, under a heading
    still saying "at initialisation", and "the wall of clip 13" had no echo.  Now the table is back at its full
    height in its true shape, its rows counted by the brace (1024 rows, m = 0 to 1023), and the red rule under its
    last row runs on to clip 13's words for its wall: no row for m = 1024."""
    scene, _ = final
    V = scene.view
    recs = {r.key: r for r in scene.audit.records}
    items = {it.mid: it for it in recs["cap"].items}

    def box(mob):
        got = [items[id(f)].box for f in mob.get_family() if id(f) in items and items[id(f)].opacity > 0.9]
        assert got, mob
        return min(g[0] for g in got), min(g[1] for g in got), max(g[2] for g in got), max(g[3] for g in got)

    content = scene.layout.content
    l, b, r, t = box(V.image)
    assert t - b >= 0.8 * content.height and abs((r - l) / (t - b) - GPT2.d_model / GPT2.n_max) < 0.01
    # the rule under the last drawn row, from the table's left edge out past the brace to the wall's words
    rl, rb, rr, rt = box(scene.cap_rule)
    assert abs((rb + rt) / 2 - b) < 0.05 and rl <= l and rr >= box(scene.cap_words)[2] - 1e-6
    assert box(scene.cap_brace)[0] >= r and box(scene.cap_words)[0] > box(scene.cap_brace)[2]
    assert box(scene.cap_words)[1] >= (rb + rt) / 2  # the words stand on the rule
    assert band_words(scene.cap_count) == shown(f"{count(GPT2.n_max).text} rows") + shown("to")
    assert [m.typst_code.strip("$ ") for m in scene.cap_count.get_family() if hasattr(m, "typst_code")] == [
        "m = 0", count(GPT2.n_max - 1).math]
    assert band_words(scene.wall_note) == shown("the wall of clip 13")
    # the whole picture spans more than half the content's width, in its middle
    group = [box(m) for m in (V.row_labels, V.image, scene.cap_brace, scene.cap_count, scene.cap_words)]
    gl, gr = min(g[0] for g in group), max(g[2] for g in group)
    assert gr - gl >= 0.55 * content.width and abs((gl + gr) / 2 - content.center[0]) < 0.3
    cap = next(c for c in scene.captions if c.key == "cap")
    assert "1024 rows, m = 0 to 1023" in cap.describe and "no row for m = 1024" in cap.describe


def test_round8_the_dial_is_named_on_itself(final):
    """Review round 7 (14 `close`): the dial had no "pair 63" or "m = 12 288" on it, only in the words below."""
    scene, _ = final
    d, dial = scene.data, scene.closing_dial
    words = band_words(scene.dial_tag)
    assert words.startswith(shown(f"pair {d.slow_index}"))
    assert [m.typst_code.strip("$ ") for m in scene.dial_tag.get_family() if hasattr(m, "typst_code")] == [
        f"m = {count(d.slow_position).math}"]
    # inside the dial's face, under its hub
    for corner in (scene.dial_tag.get_corner([-1, -1, 0]), scene.dial_tag.get_corner([1, -1, 0]),
                   scene.dial_tag.get_corner([-1, 1, 0]), scene.dial_tag.get_corner([1, 1, 0])):
        assert np.linalg.norm(corner[:2] - dial.center[:2]) < dial.radius
    assert scene.dial_tag.get_top()[1] < dial.center[1]
    assert _opacity_at(scene, "close", scene.dial_tag) > 0.9
