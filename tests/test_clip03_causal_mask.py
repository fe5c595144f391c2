"""Clip 03 CausalMask: data binding, the code on screen, the pixels at the end of the beats, captions,
lecture language (typeset proofs, labels bound to their arrays, every beat changing the picture), the
closing takeaway, and the still drawn with the clip's own scales."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DL

from frames import (
    dominant_ink,
    pixel,
    rgb255,
)
from mathcore import causal_mask, lecture_inputs, load_config, self_attention_trace, softmax
from mathcore.causal import above_diagonal_max, mask_sweep, row_sum_defect, row_sums
from scenes.clips.c03_causal_mask import CAUSAL_CODE, CausalMask
from scenes.figures import designed_stills
from scenes.figures import causal as fig
from scenes.kit import BG, fmt_measure, fmt_value
from scenes.kit.theme import CONTENT_BOTTOM
from scenes.audit.beats import DIMMED, signature
from scenes.kit.scales import scale as deck_scale
from scenes.stills.spec import HeatmapPanel as StillHeatmap


SCENE = CausalMask


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = CausalMask.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    tr_self = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=False)
    assert d.scaled.shape == (cfg.T, cfg.T)
    np.testing.assert_array_equal(d.scaled, tr.scaled)
    np.testing.assert_array_equal(d.mask, causal_mask(cfg.T))
    np.testing.assert_array_equal(d.masked, tr.masked)
    np.testing.assert_array_equal(d.weights, tr.weights)
    np.testing.assert_array_equal(d.weights_self, tr_self.weights)
    for a, b in zip(d.sweep, mask_sweep(tr.scaled, tr.mask), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(d.sweep[-1], tr.masked)
    np.testing.assert_array_equal(d.row_sums, row_sums(tr.weights))
    assert d.row_sum_defect == row_sum_defect(tr.weights) < 1e-15
    assert d.upper_max == above_diagonal_max(tr.weights) == 0.0
    assert d.cmap_weights == cfg.cmap_weights and d.cmap_signed == cfg.cmap_signed


def test_the_code_on_screen_computes_the_causal_weights_bitwise():
    d = CausalMask.build_data(load_config())
    ns = {"np": np, "softmax": softmax, "S": np.array(d.scaled), "T": d.scaled.shape[0]}
    exec(CAUSAL_CODE, ns)
    np.testing.assert_array_equal(ns["mask"], d.mask)
    np.testing.assert_array_equal(ns["S"], d.masked)
    np.testing.assert_array_equal(ns["A"], d.weights)
    assert len(CAUSAL_CODE.splitlines()) == 3
    assert CAUSAL_CODE is fig.CAUSAL_CODE  # one definition, shared by the clip and its still


def test_the_sweep_masks_one_diagonal_at_a_time(final):
    scene, _ = final
    d = scene.data
    T = d.scaled.shape[0]
    assert len(scene.sweep_shown) == T - 1
    prev = d.scaled
    for k, stage in enumerate(scene.sweep_shown, start=1):
        i, j = np.nonzero(np.isneginf(stage) & ~np.isneginf(prev))
        assert np.all(j - i == k) and len(i) == T - k
        prev = stage
    np.testing.assert_array_equal(prev, d.masked)
    np.testing.assert_array_equal(scene.sweep_values, d.masked)
    # after the sweep the map prints −∞ exactly where the mask removed a score, the score elsewhere
    want = ["\u2212\u221e" if np.isneginf(v) else fmt_value(v, 1) for v in d.masked.ravel()]
    assert scene.sweep_texts == want
    # then softmax turned the same cells into the weights
    np.testing.assert_array_equal(scene.A_map.values, d.weights)
    assert scene.A_map is scene.S_map
    # the code panel shows exactly the code the test above executed
    assert scene.code.source == CAUSAL_CODE
    assert ["".join(ch for ch in s if not ch.isspace()) for s in scene.code.text_lines] == [
        "".join(ch for ch in s if not ch.isspace()) for s in CAUSAL_CODE.splitlines()]


def test_both_heatmaps_are_painted_by_their_weights(final, beats):
    """Issue 33: A on the deck's one "weights" scale (linear, 0 to 1, as clip 02 paints it); main's clip
    painted it on a scale of its own, so the same cell read in one colour in clip 02 and another here."""
    d = final[0].data
    scale = deck_scale("weights", final[0].cfg)
    assert (scale.norm.vmin, scale.norm.vmax) == (0.0, 1.0)
    T = d.weights.shape[0]
    zero = rgb255(scale.rgb(0.0))
    # side by side, before the close: both maps, every cell the colour of its weight
    scene, frames = beats
    frame = frames["side_by_side"]  # both maps at full strength
    for hm, A in ((scene.A_small, d.weights), (scene.self_map, d.weights_self)):
        np.testing.assert_array_equal(hm.values, A)
        assert hm.color_scale.same_as(scale)
    assert any(np.abs(pixel(scene, frame, scene.self_map.cell_center(0, j)) - zero).max() > 30 for j in range(1, T))
    assert scene.side_geometry["rows_left"] > scene.self_map.get_right()[0]  # the causal map stood right of it
    for i in range(T):
        for j in range(T):
            # self-attention's cells' paint is its weights'
            got = rgb255(scene.self_map.cell(i, j).get_fill_color().to_rgb())
            assert np.abs(got - rgb255(scale.rgb(d.weights_self[i, j]))).max() <= 2, (i, j, got)
    # the last frame: the causal map brought forward, its cells still the colour of their weights
    scene, frame = final
    for i in range(T):
        for j in range(T):
            # a cell's corner, clear of its printed number and the future's outline
            got = pixel(scene, frame, scene.A_small.cell(i, j).get_corner(DL) + np.array([0.1, 0.1, 0]))
            assert np.abs(got - rgb255(scale.rgb(d.weights[i, j]))).max() <= 6, (i, j, got)
            if j > i:  # above the diagonal: the colour of exactly 0
                assert np.abs(got - zero).max() <= 6


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.sum_value.figure.text == fmt_measure(d.row_sum_defect)
    assert scene.zero_value.figure.text == fmt_measure(d.upper_max) == "exactly 0"
    assert scene.zero_value.figure.exact and scene.proof_zero.check in scene.proof_zero  # a check: an exact claim held
    for v in (scene.sum_value, scene.zero_value):
        assert dominant_ink(scene, frame, v, BG).tolist() != rgb255(BG).tolist()
    assert [t.text for t in scene.sum_labels] == [fmt_value(s, 2) for s in d.row_sums]
    # the big weight map printed exact zeros as "0" above the diagonal
    T = d.weights.shape[0]
    texts = [t.text for t in scene.A_map_printed]
    assert [texts[i * T + j] for i in range(T) for j in range(i + 1, T)] == ["0"] * (T * (T - 1) // 2)


def test_the_proofs_are_one_typeset_line_each(final):
    scene, _ = final
    for proof, p in zip((scene.proof_sum, scene.proof_zero), fig.mask_proofs(scene.data)):
        src = proof.value[0].typst_code if p.value == 0.0 else proof.value.typst_code
        assert src.strip("$ ").startswith(p.formula)  # the formula and its figure on one math line
        assert "e-" not in src and "0.0" not in src
    s = scene.proof_sum.value.typst_code
    assert "lr(|" in s and "approx" in s and "= approx" not in s  # growing bars, ≈ in place of "= ≈"


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert any(fmt_measure(scene.data.row_sum_defect) in c.text for c in caps)


def test_the_key_figures_end_above_the_subtitle_band(final):
    scene, _ = final
    for m in (scene.A_small, scene.proof_sum, scene.proof_zero):
        assert m.get_bottom()[1] >= CONTENT_BOTTOM - 1e-6


def test_the_maps_are_painted_on_the_decks_scales(final):
    """Issue 33: the scores on the deck's "scores" scale, every weight (the big map after softmax, both maps
    side by side, the mask's 0s and 1s) on its "weights" scale; every cell prints its number.  The one colour
    bar (the weights', at side by side) is gone by the end (``test_side_by_side_shows_the_weights_colour_bar``)."""
    from scenes.kit import ColorBar

    scene, _ = final
    cfg = scene.cfg
    assert scene.score_scale.same_as(deck_scale("scores", cfg))
    assert scene.weight_scale.same_as(deck_scale("weights", cfg))
    assert scene.sweep_scale is scene.score_scale  # the sweep masks the scores on their own scale
    assert scene.A_map.color_scale is scene.weight_scale
    assert scene.A_small.color_scale.same_as(scene.weight_scale) and scene.self_map.color_scale.same_as(scene.weight_scale)
    assert scene.A_map.show_values and scene.A_small.show_values and scene.self_map.show_values
    assert not [m for m in scene.mobjects for f in m.get_family() if isinstance(f, ColorBar)]


def test_the_big_map_is_the_subject_and_its_numbers_are_legible(final):
    from scenes.kit.layout import min_xheight_px

    scene, _ = final
    content = scene.layout.content
    w, h = scene.big_map_size
    assert w * h >= 0.3 * content.width * content.height
    assert min_xheight_px(scene.A_map_printed[0]) >= 8.0
    assert min_xheight_px(scene.proof_zero) >= 8.0 and min_xheight_px(scene.proof_sum) >= 8.0


# ------------------------------------------------------------------ lecture language and the takeaway
def test_labels_name_the_arrays_shown_with_them(final):
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}

    def named(key):
        return {q for q, _ in rec[key].named}

    def shown(key):
        return {q for q, _ in rec[key].shown}

    assert named("scores") == shown("scores") == named("code") == shown("code") == {"scaled"}  # S's formula names it
    assert named("mask") == {"mask"} and shown("mask") == {"scaled", "mask"}
    assert named("sweep") == {"mask"} and shown("sweep") == {"masked", "mask"}
    assert named("softmax") == shown("softmax") == named("zeros") == {"weights"}
    assert named("side_by_side") == shown("side_by_side") == {"weights", "weights_self"}
    for key in ("proof_sum", "proof_zero"):  # self-attention has left: the proofs are about A
        assert named(key) == shown(key) == {"weights"}, key
    assert named("close") == shown("close") == {"weights"}
    for r in scene.audit.records:
        for q, vals in r.shown:
            np.testing.assert_array_equal(vals, np.asarray(scene.quantities()[q], dtype=float))
    assert not [p for p in scene.audit.lecture if p.kind in ("binding", "notation")]


def test_every_beat_changes_the_picture(final):
    scene, _ = final
    for r in scene.audit.records:
        assert r.start is not None and r.start != signature(r), r.key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_the_clip_ends_on_the_causal_map_and_its_proofs_large(final):
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    close = recs["close"]
    content = scene.layout.content
    visible = [i for i in close.items if not i.header and i.opacity > DIMMED]
    words = {i.name.strip("'") for i in visible if i.kind == "text" and not i.is_math}
    assert "self-attention" not in words and "mask" not in words and "causalattention" in words
    maths = [i.text for i in visible if i.kind == "text" and i.is_math]
    assert sum(p.formula in t for t in maths for p in fig.mask_proofs(scene.data)) == 2  # both proofs stay
    # the map grew: well beyond its side-by-side size, to most of the content's height
    assert scene.A_small.height >= 0.7 * content.height
    assert scene.A_small.height >= 0.99 * scene.side_height  # never smaller than side by side showed it
    assert all(any(f is g for m in scene.mobjects for g in m.get_family()) for f in scene.closing_picture)
    take = scene.takeaway()
    assert content.contains(take) and take.width >= 0.6 * content.width
    # the zeros of the causal map are outlined on it
    assert scene.zero_outline.get_top()[1] == pytest.approx(scene.A_small.get_top()[1], abs=1e-6)
    # review RD (round 3): the close repeated beat 09; the causal line was only spoken.  It now writes the
    # takeaway across the top, over the map and the proofs, true of the map: row m weighs no token after m, and
    # each of tokens 0 … m is a term of its sum (a weight, if tiny, on every one)
    line = scene.takeaway_line
    for part in line:  # both of its lines on screen at full strength
        assert {id(f) for f in part.get_family()} & {i.mid for i in visible}, part
    assert line.get_bottom()[1] > scene.proof_sum.get_top()[1] and line.get_left()[0] > scene.A_small.get_right()[0]
    A = scene.data.weights
    T = A.shape[0]
    assert (A[np.triu_indices(T, 1)] == 0.0).all() and (A[np.tril_indices(T)] > 0.0).all()
    assert scene.description("close").count("row m weighs only tokens 0 to m") == 1
    recs_09 = recs["proof_zero"] if "proof_zero" in recs else None
    assert recs_09 is None or not {id(f) for f in line.get_family()} & {i.mid for i in recs_09.items}  # new here


def test_the_still_and_the_clip_use_one_scale_per_quantity(final):
    """Issue 20: the still paints every quantity with the clip's own scale (bounds and colormap), prints
    the clip's proofs, and lists the clip's code."""
    scene, _ = final
    d = scene.data
    still = designed_stills("CausalMask", d, scene.cfg)[0]
    q = scene.quantities()
    clip_scales = {"masked": scene.sweep_scale, "weights_self": scene.self_map.color_scale,
                   "weights": scene.A_small.color_scale}
    panels = [p for p in still.panels.values() if isinstance(p, StillHeatmap)]
    assert len(panels) == 3
    for p in panels:
        name = next(k for k, v in q.items() if v.shape == p.values.shape and np.array_equal(v, p.values, equal_nan=True))
        assert p.scale.same_as(clip_scales[name]), name
        assert p.scale.same_as(fig.mask_scales(d, scene.cfg)[name])
    sum_p, zero_p = fig.mask_proofs(d)
    assert still.proof == (sum_p.still_text("every causal row sums to 1"),
                           zero_p.still_text("every weight above the diagonal"))
    assert "0 (exact)" in still.proof[1] and "e-" not in " ".join(still.proof)
    assert [ln.text for ln in still.panels["C"].lines if ln.mono] == CAUSAL_CODE.splitlines()


def test_beats_whose_picture_says_more_than_the_narration_are_described(final):
    scene, _ = final
    described = {c.key: c.describe for c in scene.captions if c.describe}
    assert {"scores", "mask", "sweep", "softmax", "zeros", "side_by_side", "close"} <= set(described)
    T = scene.data.scaled.shape[0]
    assert f"{T * (T - 1) // 2} cells" in described["sweep"]  # the measured count, filled in
    assert all("{" not in t and "e-" not in t for t in described.values())


def test_the_future_has_one_colour_and_one_meaning(final):
    """Issue 33 ("03's green outline marks the allowed cells, then the forbidden zeros"): main's clip drew a
    green outline around the allowed cells and later the same green around the forbidden zeros, and its still
    boxed the zeros in the verified green.  Now the future (cells n > m) is outlined in the highlight colour
    wherever it is drawn (scores, zeros, the close), and the green is left to the verdicts.  Review R1: in the
    highlight yellow it meant "future, forbidden" beside viridis' yellow "weight 1" (and the mask's yellow "may
    attend"): now it is white dashes (on a dark line), a colour no weight, score or marker has."""
    from scenes.kit import FG, HIGHLIGHT, VERIFIED

    scene, _ = final
    T = scene.data.scaled.shape[0]
    ends = {scene.weight_scale.color(v).to_hex().lower() for v in (0.0, 1.0)}
    for outline in (scene.future, scene.zeros, scene.zero_outline):
        dashes = outline[1]
        assert dashes.get_stroke_color().to_hex() == FG.to_hex()
        assert FG.to_hex() not in (HIGHLIGHT.to_hex(), VERIFIED.to_hex())
        assert dashes.get_stroke_color().to_hex().lower() not in ends
        assert len(dashes.submobjects) >= 12  # dashed, not one solid line
    # on the closing map it hugs the future: from the first row's top to the right edge, never the diagonal
    outline, hm = scene.zero_outline, scene.A_small
    assert outline.get_top()[1] == pytest.approx(hm.cell(0, 1).get_top()[1], abs=0.05)
    assert outline.get_right()[0] == pytest.approx(hm.cell(0, T - 1).get_right()[0], abs=0.05)
    assert outline.get_left()[0] >= hm.cell(0, 0).get_right()[0] - 0.05
    still = designed_stills("CausalMask", scene.data, scene.cfg)[0]
    boxes = [b for p in still.panels.values() if isinstance(p, StillHeatmap) for b in p.boxes]
    assert boxes and all(b.color == "accent" for b in boxes)
    assert all(b.cols[0] > b.rows[1] for b in boxes)  # every box strictly above the diagonal


def test_the_weights_colours_are_named_as_the_configs_colormap_draws_them():
    """The softmax description said "dark purple for 0 to yellow for 1" whatever the weights colormap: under
    magma and inferno 0 is black, under cividis and plasma dark blue.  The names now come from the config's
    colormap, each checked here against the colormap's own ends."""
    import matplotlib

    from mathcore.config import WEIGHT_CMAPS
    from scenes.clips.c03_causal_mask import WEIGHT_END_NAMES

    def looks(rgb) -> str:
        r, g, b = rgb[:3]
        if max(r, g, b) < 0.1:
            return "black"
        if r > 0.85 and g > 0.85:
            return "pale yellow" if b > 0.5 else "yellow"
        if b > r and b > g:
            return "dark purple" if r > 0.2 else "dark blue"
        return "?"

    assert set(WEIGHT_END_NAMES) == set(WEIGHT_CMAPS)
    for name in WEIGHT_CMAPS:
        cm = matplotlib.colormaps[name]
        assert WEIGHT_END_NAMES[name] == (looks(cm(0.0)), looks(cm(1.0))), name


def test_the_scores_colours_are_named_as_the_configs_signed_colormap_draws_them():
    """The scores' description said "red for positive, blue for negative" under every signed colormap: RdBu
    draws positive scores blue, PuOr, BrBG and PiYG neither red nor blue.  Each name is checked against the
    hue of the colormap's end."""
    import colorsys

    import matplotlib

    from mathcore.config import SIGNED_CMAPS
    from scenes.clips.c03_causal_mask import SIGNED_END_NAMES

    def hue_name(rgb) -> str:
        h, _, v = colorsys.rgb_to_hsv(*rgb[:3])
        h *= 360
        for lo, hi, name in ((15, 45, "brown" if v < 0.6 else "orange"), (75, 150, "green"), (150, 190, "teal"),
                             (190, 255, "blue"), (255, 300, "purple"), (300, 335, "magenta")):
            if lo <= h < hi:
                return name
        return "red" if h >= 335 or h < 15 else "?"

    assert set(SIGNED_END_NAMES) == set(SIGNED_CMAPS)
    for name in SIGNED_CMAPS:
        cm = matplotlib.colormaps[name]
        assert SIGNED_END_NAMES[name] == (hue_name(cm(0.0)), hue_name(cm(1.0))), name


def test_printed_numbers_leave_their_cells_air(final):
    """Review (A−), clip 03: the numbers printed in the cells took up to 0.88–0.92 of a cell's width and crowded
    it.  Now every number printed on the big map (scores, −∞, weights), on both maps side by side and on the
    closing map takes at most 0.74 of its cell's width and of its height.  On the old code the scores' widest
    ("−0.7", "−∞") filled 0.88 of their cells, so this fails there."""
    scene, _ = final
    hm_labels = [(scene.A_map, scene.A_map_printed), (scene.A_small, list(scene.A_small.labels)),
                 (scene.self_map, list(scene.self_map.labels))]
    for hm, labels in hm_labels:
        assert labels
        rows, cols = hm.values.shape
        for k, t in enumerate(labels):
            cell = hm.cell(k // cols, k % cols)
            assert t.width <= 0.74 * cell.width + 1e-9 and t.height <= 0.74 * cell.height + 1e-9, (k, t.text)
            np.testing.assert_allclose(t.get_center()[:2], cell.get_center()[:2], atol=1e-6)
    # the scores as the sweep left them (the widest strings the big map prints) are held to it too
    from scenes.clips.c03_widgets import ExactHeatmap

    d = scene.data
    probe = ExactHeatmap(d.masked, scene.score_scale, (1.0, 0.8), show_values=True, decimals=1, value_size=60,
                         uniform_values=True)
    assert all(t.width <= 0.74 and t.height <= 0.74 * 0.8 for t in probe.labels)


def test_side_by_side_shows_the_weights_colour_bar(final):
    """Review (A−), clip 03 side_by_side: the two maps of weights stood without a scale.  Now the deck's one
    weights colour bar (the same scale and ticks as clip 02's A) stands beside the causal map, as tall as it, at
    full strength at the end of that beat, and its description names it.  On the old code no bar was drawn."""
    from scenes.figures.equivariance import picture02

    scene, _ = final
    cfg = scene.cfg
    bar = scene.w_bar
    assert bar.color_scale.same_as(deck_scale("weights", cfg))
    pic = picture02(np.array([1e-16]), 1e-16, 1e-10, cfg)
    assert bar.color_scale.same_as(pic.weights) and bar.ticks == tuple(pic.weight_ticks)
    rec = {r.key: r for r in scene.audit.records}["side_by_side"]
    l, b, r, t = bar.stripes.get_left()[0], bar.stripes.get_bottom()[1], bar.stripes.get_right()[0], bar.stripes.get_top()[1]
    inside = [i for i in rec.items if i.opacity > 0.9 and i.box[0] >= l - 1e-6 and i.box[2] <= r + 1e-6
              and i.box[1] >= b - 1e-6 and i.box[3] <= t + 1e-6]
    assert len(inside) >= len(bar.stripes) // 2
    described = {c.key: c.describe for c in scene.captions if c.describe}
    assert "a colour bar from 0 to 1" in described["side_by_side"]


def test_the_mask_is_neutral_not_the_weights_colours(final):
    """Review R1 (03 mask): the mask's 1s were viridis yellow, the colour later meaning weight 1.  Now its cells
    are two neutral greys, light for 1 (may attend) and dark for 0, and no cell has a weights-scale colour."""
    scene, _ = final
    mm = scene.mask_map
    weight_colours = {scene.weight_scale.color(v).to_hex().lower() for v in np.linspace(0, 1, 101)}
    T = mm.values.shape[0]
    for i in range(T):
        for j in range(T):
            c = mm.cell(i, j).get_fill_color()
            r, g, b = c.to_rgb()
            assert max(r, g, b) - min(r, g, b) < 0.06  # a grey (the deck's faint grey for 0)
            assert c.to_hex().lower() not in weight_colours
            assert (r > 0.5) == bool(scene.data.mask[i, j])  # light where a query may attend


def test_the_scores_have_their_colour_bar_and_sans_legend(final):
    """Review R1 (03 scores): the diverging scores had no colour bar, and "row m: query q_m" was set in the serif
    math font.  Now the scores' bar (the map's own scale) stands beside the map, and the legend's words are sans."""
    from manim import Text

    scene, _ = final
    assert scene.s_bar.color_scale is scene.score_scale
    assert scene.s_bar_gap > 0
    for line in scene.S_note[1:]:
        assert line.words and all(isinstance(w, Text) for w in line.words)
        assert {"row", "column"} & {w.text.strip(": ") for w in line.words}


def test_the_positions_stay_framed_and_clear_of_the_titles(beats):
    """Review R1 (03 proof_zero): the column indices came back over the "causal attention" title and a row index
    sat on the "mask" arrow.  Now the causal map keeps its indices from side by side to the close, its title over
    the column indices, the arrow ending before the row indices."""
    scene, _ = beats
    g = scene.side_geometry  # as laid out for side by side and the proofs
    assert g["title_bottom"] > g["cols_top"] and g["self_right"] < g["rows_left"]
    rows, cols, title = scene.pair_rows, scene.pair_cols, scene.causal_title  # and at the close
    assert title.get_bottom()[1] > cols.get_top()[1]
    assert all(m in scene.mobjects or any(m in f.get_family() for f in scene.mobjects) for m in (rows, cols))
    assert abs(g["titles_y"][0] - g["titles_y"][1]) < 0.02  # the two titles on one line


def test_the_words_claim_only_what_the_clip_shows(final):
    """Review R1 (03): the close said "this triangle lets a model reuse its work" (reuse, the KV cache, is clip
    05's and is not shown here) and side by side said "weighs the whole sentence" over indices 0 to 5."""
    scene, _ = final
    said = {c.key: c.text for c in scene.captions}
    assert "reuse" not in said["close"] and "sentence" not in said["side_by_side"]


def test_the_proofs_stand_beside_the_causal_map_alone(final):
    """Review RC (03 proof_sum): the proofs sat under the dimmed self-attention map, which still took 40 % of the
    frame, while the description said "under" the causal map; and side by side's description said "both maps keep
    their row and column numbers" over a self-attention map that has none.  Now self-attention leaves for the
    proofs, each proof comes on the causal map's right under the words it proves, and the description claims
    indices for the causal map alone."""
    scene, _ = final
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert id(scene.self_map) not in on_screen and id(scene.self_title) not in on_screen
    for head, proof in ((scene.sum_head_words, scene.proof_sum), (scene.zero_head_words, scene.proof_zero)):
        assert proof.get_left()[0] > scene.pair_sums.get_right()[0]  # right of the map and its sums
        assert head.get_bottom()[1] > proof.get_top()[1] - 0.05  # the words over the proof they head
    rec = {r.key: r for r in scene.audit.records}
    assert "both maps keep" not in rec["side_by_side"].describe.lower()
    assert "with their row and column numbers" in rec["side_by_side"].describe  # both maps have them now


def test_side_by_side_says_nothing_acts_on_the_weights(final):
    """Review round 8 (03 side_by_side): an arrow labelled "mask" ran from the bidirectional weights to the causal
    weights, as if the mask acted on weights; it acts on the scores, before softmax.  Now the two maps stand side by
    side under their titles, "bidirectional attention" and "causal attention", each with its row and column
    numbers, and nothing is drawn between them (the causal map's row numbers excepted): no arrow, no word.  On the
    old code the arrow and its "mask" stood in that gap, so this fails there."""
    scene, _ = final
    T = scene.data.scaled.shape[0]
    rec = {r.key: r for r in scene.audit.records}["side_by_side"]
    left, right = scene.side_geometry["self_right"], scene.side_geometry["rows_left"]
    bottom, top = scene.self_map.get_bottom()[1], scene.causal_title.get_top()[1]
    between = [i for i in rec.items if i.opacity > 0.3 and not i.header and i.box[0] >= left - 1e-6
               and i.box[2] <= right + 1e-6 and i.box[3] > bottom and i.box[1] < top]
    assert not between, [(i.name, i.text) for i in between]
    assert not any("mask" in (i.text or "").lower() for i in rec.items if i.opacity > 0.3 and not i.header)
    assert (scene.self_title.text, scene.causal_title.text) == ("bidirectionalattention", "causalattention")  # Text drops spaces
    for hm, rows, cols, title in ((scene.self_map, scene.self_rows, scene.self_cols, scene.self_title),
                                  (scene.A_small, scene.pair_rows, scene.pair_cols, scene.causal_title)):
        assert [t.text for t in rows] == [str(i) for i in range(T)] == [t.text for t in cols]
        assert rows.get_right()[0] < hm.get_left()[0] and cols.get_bottom()[1] > hm.get_top()[1]
        assert title.get_bottom()[1] > cols.get_top()[1]  # the title over its column numbers
        assert rows.get_left()[0] - 1e-6 <= title.get_left()[0] and title.get_right()[0] <= hm.get_right()[0] + 1e-6


def test_the_zeros_beat_says_no_word_the_picture_lacks(final):
    """Review round 8 (03 zeros): the voice said "an exact zero" while "exact" (a verdict's word) came on screen
    only with the measured proof, three beats later.  Now the zeros' sentence says they are zeros, as the printed
    "0"s and e^(−∞) = 0 show; "exactly 0" is said with the proof that measures it."""
    scene, _ = final
    said = {c.key: c.text for c in scene.captions}
    assert "exact" not in said["zeros"].lower()
    assert "exactly" in said["proof_zero"] or "exactly" in said["close"]


def test_the_second_verdicts_words_wait_dimmed_beside_the_first(final):
    """Review round 8 (03 proof_sum): under the first verdict a third of the frame stood empty for 6 s.  Now the
    second verdict's words, "no weight on the future", stand there dimmed (background, not yet a claim) while the
    first is measured, and come to full strength with their proof.  On the old code they were not drawn in
    proof_sum, so this fails there."""
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}
    sum_key = "proof_sum" if "proof_sum" in rec else "proof_sum_exact"
    words = {id(f) for f in scene.zero_head_words.get_family()}
    dimmed = [i for i in rec[sum_key].items if i.mid in words and i.opacity > 0.02]
    assert dimmed and all(i.opacity < 0.3 for i in dimmed)
    full = [i for i in rec["proof_zero"].items if i.mid in words]
    assert full and all(i.opacity > 0.9 for i in full)
