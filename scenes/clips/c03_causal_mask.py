"""03 ``CausalMask`` (§3): the score heatmap S; the three lines of code; the mask, and the future it
removes outlined on the scores; the future masked one diagonal at a time to −∞; softmax row by row
turns every −∞ into an exact 0 in the same cells; self-attention and causal attention side by side.
Ends on the causal map, its rows' sums beside it and its future outlined, with the two verdicts:
every row sums to 1 (measured) and every weight above the diagonal is exactly 0.

One colour, one meaning: the highlight outline marks *the future* (cells n > m) wherever it is
drawn (the scores the mask removes, the −∞, the zeros); the verified green appears only in the
two verdicts.  Scores and weights are painted on the deck's scales (``kit.scales``: "scores",
"weights").

The picture description it shares with its still (scales, code, proofs) is in
``scenes/figures/causal.py``; the widgets only this clip draws are in ``c03_widgets.py``.

Render directly with ``manim -ql scenes/clips/c03_causal_mask.py CausalMask``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    DashedVMobject,
    ManimColor,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from mathcore import (
    lecture_inputs,
    self_attention_trace,
)
from mathcore.causal import (
    above_diagonal_max,
    mask_sweep,
    row_sum_defect,
    row_sums,
)
from mathcore.config import LectureConfig
from scenes.clips.c03_widgets import CodePanel, ExactHeatmap, staircase_outline, tint
from scenes.figures.causal import (
    CAUSAL_CODE,
    MN,
    NN,
    M,
    mask_proofs,
    mask_scales,
)
from scenes.kit import (
    BG,
    DIM,
    FG,
    HEADING,
    HIGHLIGHT,
    KEY,
    LABEL,
    QUERY,
    SMALL,
    ClipScene,
    ColorBar,
    ColorScale,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    swap,
)
from scenes.kit.binding import claim, claim_built, names, role, shows
from scenes.kit.compose import GAP, column, reveal, row, titled
from scenes.kit.layout import LayoutError, Region, legible_scale, overlay
from scenes.kit.numbers import tick
from scenes.kit.motion import dim, set_level, undim
from scenes.kit.student import fail_key
from scenes.kit.theme import FAILED
from scenes.kit.proofs import Reveal, hide, worded_line, morph_cells, proof_line, restage, row_parts, settle, value_map


# what the ends of each allowed weights colormap look like, as a description says them (tests check each against
# the colormap: the description said "dark purple for 0" under magma's black too)
WEIGHT_END_NAMES = {"viridis": ("dark purple", "yellow"), "cividis": ("dark blue", "yellow"),
                    "magma": ("black", "pale yellow"), "inferno": ("black", "pale yellow"),
                    "plasma": ("dark blue", "yellow")}
# and of each allowed signed colormap, (negative, positive): the scores' description said "red for positive, blue
# for negative" under RdBu, whose positive end is blue, and under PuOr, BrBG and PiYG, which have neither
SIGNED_END_NAMES = {"RdBu_r": ("blue", "red"), "RdBu": ("red", "blue"), "coolwarm": ("blue", "red"),
                    "PuOr": ("brown", "purple"), "BrBG": ("brown", "teal"), "PiYG": ("magenta", "green"),
                    "seismic": ("blue", "red"), "bwr": ("blue", "red")}


# only lays the mask out (its cells are repainted in neutral greys by ``MaskGrid``)
MASK_PROBE = ColorScale("gray", 0.0, 1.0)


@dataclass(frozen=True)
class CausalMaskData:
    """What clip 03 draws, all from ``self_attention_trace`` on the lecture inputs."""

    scaled: np.ndarray  # (T, T) S = Q Kᵀ / √d
    mask: np.ndarray  # (T, T) bool, causal_mask(T)
    sweep: tuple[np.ndarray, ...]  # mask_sweep stages: diagonal k masked in stage k
    masked: np.ndarray  # (T, T) S with the future at -inf
    weights: np.ndarray  # (T, T) causal A
    weights_self: np.ndarray  # (T, T) self-attention A (no mask)
    row_sums: np.ndarray  # (T,) Σ_n A_mn of the causal A
    row_sum_defect: float  # max_m |Σ_n A_mn − 1|
    upper_max: float  # max A_mn over n > m (exactly 0.0)
    cmap_weights: str
    cmap_signed: str
    # a student's causal weights (``clips render --student``): the future cells (n > m) it weighs (not exactly
    # 0: the cells outlined in red) and the rows whose sum is not 1 (beyond rounding); empty for the lecture
    leaked: tuple = ()
    bad_sums: tuple = ()


FUTURE = FG  # the future's outline and tag: white, dashed (yellow is the weights' 1 and the "look here" marker)


def future_outline(hm, stroke_width: float = 5):
    """The outline of ``hm``'s future (cells ``n > m``, strictly above the diagonal), white and dashed over a dark
    line (so it reads on the pale scores too): the one meaning of that outline in this clip, wherever it is drawn,
    and a colour no data cell and no marker has.  ``[0]`` the dark line, ``[1]`` the white dashes."""
    solid = staircase_outline(hm, color=FUTURE, stroke_width=stroke_width, upper=True)
    halo = solid.copy().set_stroke(BG, width=stroke_width + 3, opacity=0.85)
    dashed = DashedVMobject(solid, num_dashes=max(12, 6 * hm.values.shape[0]), dashed_ratio=0.6)
    dashed.set_stroke(FUTURE, width=stroke_width)
    return VGroup(halo, dashed)


class CausalMask(ClipScene):
    """03 · The causal mask: −∞ above the diagonal, exact zeros after softmax."""

    TIDY_PLAYS = True
    STAGED = True
    STUDENT = "causal"  # `clips render --student`: the student's causal weights are the map drawn
    SUM_TOL = 1e-12  # a student's row sums to 1 within rounding (the checks' ROW_SUM_TOL)

    MAX_CELL = 1.9  # the big map's cells, at most (few tokens: larger cells)
    PAIR_CELL = 1.9  # the side-by-side maps' cells, at most
    PROOF_GROWTH = 1.5  # the causal map alone, over its proofs, grows at most this much
    MAP_SHARE = 1.0  # the closing picture fills this share of the content (the causal map its height)

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> CausalMaskData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
        tr_self = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=False)
        return CausalMaskData(
            scaled=tr.scaled, mask=tr.mask, sweep=tuple(mask_sweep(tr.scaled, tr.mask)), masked=tr.masked,
            weights=tr.weights, weights_self=tr_self.weights, row_sums=row_sums(tr.weights),
            row_sum_defect=row_sum_defect(tr.weights), upper_max=above_diagonal_max(tr.weights),
            cmap_weights=cfg.cmap_weights, cmap_signed=cfg.cmap_signed,
        )

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> CausalMaskData:
        """The student's causal weights ``A`` (from their causal attention on the lecture's inputs, as the checks
        read them) in place of mathcore's, with what they measure and the cells and rows that fail."""
        from dataclasses import replace

        lecture = cls.build_data(cfg)
        A = np.asarray(student.array(cls.STUDENT, "A"), dtype=float)
        if A.shape != lecture.weights.shape:
            raise ValueError(f"the student's weights are {A.shape}, clip 03 draws {lecture.weights.shape}")
        T = A.shape[0]
        sums = row_sums(A)
        leaked = [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(A != 0, 1)))]
        leaked.sort(key=lambda c: -abs(A[c]))  # the largest first
        return replace(lecture, weights=A, row_sums=sums, row_sum_defect=row_sum_defect(A),
                       upper_max=above_diagonal_max(A), leaked=tuple(leaked),
                       bad_sums=tuple(int(m) for m in range(T) if abs(sums[m] - 1.0) > cls.SUM_TOL))

    def student_values(self) -> dict:
        """The failing variants' values, bound to the red outlines, sums and verdicts that show them."""
        out = super().student_values()
        d = self.data
        frames = getattr(self, "leak_frames", None)
        if frames is not None and d.leaked:
            i, j = d.leaked[0]
            out.update(leaked=claim(len(d.leaked), *frames),
                       largest=claim(fmt_value(float(d.weights[i, j]), 2), frames[0]),
                       leak_row=claim(i, frames[0]), leak_col=claim(j, frames[0]))
        if d.bad_sums and hasattr(self, "pair_sums"):
            m = d.bad_sums[0]
            out.update(bad_sum_row=claim(m, self.pair_sums[m]),
                       bad_sum=claim(fmt_value(float(d.row_sums[m]), 2), self.pair_sums[m]),
                       nbad_sums=claim(len(d.bad_sums), *[self.pair_sums[k] for k in d.bad_sums]))
        return out

    def leak_outlines(self, hm, stroke_width: float = 5) -> VGroup:
        """Red outlines on the future cells of ``hm`` a student's weights do not set to 0."""
        return VGroup(*[role(SurroundingRectangle(hm.cell(i, j), color=FAILED, buff=-0.03, stroke_width=stroke_width),
                             "failed") for i, j in self.data.leaked])

    def scales(self) -> dict:
        """The deck's scales; the mask's 0s and 1s in neutral greys (light: may attend, dark: may not), not in
        the weights' colours, which later mean weight 0 and weight 1."""
        return mask_scales(self.data, self.cfg)

    def caption_values(self) -> dict:
        d = self.data
        T = d.scaled.shape[0]
        score = self.scales()["scaled"]
        future = T * (T - 1) // 2
        out = {"T": T, "last": T - 1, "row_sum_defect": fmt_measure(d.row_sum_defect),
               "upper_max": fmt_measure(d.upper_max), "masked": future,
               "score_lo": tick(score.vmin), "score_hi": tick(score.vmax),
               "takeaway": "row m weighs only tokens 0 to m"}

        def bound(name, value, *attrs):  # a claim once what shows it is built (the title card has nothing yet)
            claim_built(out, self, name, value, *attrs)

        bound("T", T, "S_map")
        bound("score_grid", f"{T} by {T} grid of scores", "S_map")
        bound("score_bar", "its colour bar", "s_bar")
        bound("score_range", f"from {fmt_value(float(d.scaled.min()), 1)} to {fmt_value(float(d.scaled.max()), 1)}",
              "S_map")
        bound("code_panel", "three lines of code", "code")
        bound("mask_grid", "mask", "mask_map")
        bound("future_cells", f"{future} future cells", "future")
        bound("masked", future, "future")
        if hasattr(self, "sum_labels"):  # each sum was faded in on its own
            out["sums"] = claim(fmt_value(1.0, 2), *self.sum_labels)
        bound("zeros", f"{future} zeros", "zeros")
        bound("self_grid", "bidirectional attention", "self_map")
        bound("weight_bar", "a colour bar from 0 to 1", "w_bar")
        bound("causal_grid", "causal attention", "A_small")
        bound("row_sum_defect", fmt_measure(d.row_sum_defect), "proof_sum")
        bound("upper_max", fmt_measure(d.upper_max), "proof_zero")
        bound("zero_outline", "outline", "zero_outline")
        bound("takeaway", "row m weighs only tokens 0 to m", "takeaway_line")
        bound("pair_sums", "the sum of every row", "pair_sums")
        lo, hi = WEIGHT_END_NAMES[self.cfg.cmap_weights]
        out["weight_colours"] = f"{lo} for 0 to {hi} for 1"
        bound("weight_colours", out["weight_colours"], "A_map")
        neg, pos = SIGNED_END_NAMES[self.cfg.cmap_signed]
        # a sign's colour is named only where some score reaches halfway to its end of the scale (the sweep: at
        # T = 3 every positive score was near white, and "green for positive" named a colour not drawn)
        sc = getattr(self, "score_scale", None)
        if sc is None:
            out["score_colours"] = f"{pos} for positive, {neg} for negative"
        else:
            S, half = np.asarray(d.scaled, dtype=float), 0.5 * float(sc.norm.vmax)
            named = [w for w, hit in ((f"{pos} for positive", S.max() >= half), (f"{neg} for negative", S.min() <= -half))
                     if hit]
            out["score_colours"] = ", ".join(named) or "pale, every score near zero"
        bound("score_colours", out["score_colours"], "S_map")
        return out

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        """The first picture: the code top left with a note under it (one column that reads as one
        group), the big map on the right, its indices around it and, later, its rows' sums beside it.
        Every cell prints its number, so the map needs no colour bar to be read."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        sc = self.scales()
        self.score_scale, self.weight_scale = sc["scaled"], sc["weights"]

        self.code = CodePanel(CAUSAL_CODE)
        role(self.code.marker, "highlight")
        left, right = C.take_left(self.code.width, gap=GAP.wide)
        left.place(self.code, UP)
        notes = left.below(self.code, gap=GAP.normal)  # a note reads with the code: one group

        # the big map: scores, then weights in the same cells; row indices left, column indices above,
        # the causal rows' sums right of it (the future's tag stands there before the sums arrive)
        sum_w = max(label("1.00", size=SMALL).width, label("future", size=SMALL).width,
                    ColorBar(self.score_scale, height=1.0).width) + GAP.small
        idx = label("0", size=SMALL)
        block = Region(right.left + idx.width + GAP.normal, right.right - sum_w - GAP.small, right.bottom,
                       right.top - idx.height - GAP.normal, "map")
        cell_h = min(block.height / T, self.MAX_CELL)
        cell_w = min(block.width / T, 1.3 * cell_h, self.MAX_CELL)
        self.S_map = shows(value_map(d.scaled, self.score_scale, cell_w, cell_h, decimals=1, size=HEADING,
                                     cls=ExactHeatmap), "scaled")
        block.place(self.S_map, UP)
        self.big_map_size = (self.S_map.width, self.S_map.height)  # the subject of the first beats
        self.row_idx = self.S_map.index_labels("rows")
        self.col_idx = self.S_map.index_labels("cols")
        self.sum_labels = VGroup(*[
            label(fmt_value(s, 2), size=SMALL).next_to(self.S_map.cell(i, T - 1), RIGHT, buff=GAP.small)
            for i, s in enumerate(d.row_sums)])
        self.sum_head = math("Sigma", size=LABEL).move_to(
            [self.sum_labels.get_center()[0], self.col_idx.get_center()[1], 0])
        self.frame_parts = VGroup(self.row_idx, self.col_idx)  # what frames the map (part of its subject)
        # the scores' diverging colour bar beside the map, under its first row (where the future's tag stands
        # later); it leaves when the mask arrives (the printed scores still read; one subject a frame)
        cell_h = self.S_map.cell(0, 0).height
        tick_h = label("0", size=SMALL).height
        self.s_bar = ColorBar(self.score_scale, height=(T - 1) * cell_h - 2 * tick_h)
        self.s_bar.shift(np.array([self.S_map.get_right()[0] + GAP.small,
                                   (self.S_map.cell(1, 0).get_top()[1] + self.S_map.get_bottom()[1]) / 2, 0.0])
                         - np.array([self.s_bar.frame.get_left()[0], self.s_bar.frame.get_y(), 0.0]))
        self.s_bar_gap = self.s_bar.get_left()[0] - self.S_map.get_right()[0]  # beside the map, never on it

        # the future: the cells n > m, outlined on the map (the scores the mask removes, later their zeros)
        self.future = future_outline(self.S_map)
        self.future_tag = label("future", size=SMALL, color=FUTURE)
        self.future_tag.next_to(self.S_map.cell(0, T - 1), RIGHT, buff=GAP.small)

        # notes under the code, each as large as the notes region allows, top-aligned (so the left
        # column reads as one block)
        q, k = tint(f"q_{M}", QUERY), tint(f"k_{NN}", KEY)
        self.S_note = column(math(f"S_({MN}) = ({q} dot {k}) / sqrt(d)", size=HEADING),
                             worded_line("row", math(M, size=LABEL, color=DIM), ": query",
                                         role(math(q, size=LABEL), "query"), size=LABEL, color=DIM),
                             worded_line("column", math(NN, size=LABEL, color=DIM), ": key",
                                         role(math(k, size=LABEL), "key"), size=LABEL, color=DIM), align=ORIGIN)
        grow(notes, self.S_note)
        names(self.S_note[0], "scaled")  # the formula names the map it defines
        self.mask_name = names(mono("mask", size=LABEL), "mask")
        self.mask_note = label("1 = may attend", size=SMALL, color=DIM)
        note_strip, mask_region = notes.take_bottom(self.mask_note.height, gap=GAP.small)
        _, mask_region = mask_region.take_left(self.mask_name.width, gap=GAP.normal)
        self.mask_map = shows(mask_map(d.mask, None, mask_region), "mask")
        self.mask_name.next_to(self.mask_map, LEFT, buff=GAP.normal)
        self.mask_note.next_to(self.mask_map, DOWN, buff=GAP.small)
        self.mask_group = VGroup(self.mask_name, self.mask_map, self.mask_note)
        notes.place(self.mask_group, UP)
        self.exp_note = column(math(f"A_({MN}) = exp(S_({MN})) / (sum_({NN}' <= {M}) exp(S_({M} {NN}')))", size=LABEL),
                               math("e^(-infinity) = 0", size=HEADING), gap="wide", align=ORIGIN)
        grow(notes, self.exp_note)
        names(self.exp_note[0], "weights")

    def side_by_side_layout(self) -> None:
        """Self-attention and causal attention side by side, as large as the content allows, numbers
        printed; the verdicts (built here) come under them once the maps make room."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        p_sum, p_zero = mask_proofs(d)
        self.proof_sum = proof_line(p_sum.formula, p_sum.value, size=LABEL, passed=p_sum.passed)
        self.proof_zero = proof_line(p_zero.formula, p_zero.value, size=LABEL, passed=p_zero.passed)
        self.proofs = row(self.proof_sum, self.proof_zero, gap="section")
        self.proof_strip, self.proof_top = C.take_bottom(self.proofs.height, gap=GAP.normal)
        settle(self.proof_strip, self.proofs)
        self.sum_value, self.zero_value = self.proof_sum.value, self.proof_zero.value

        # two titled maps, side by side, nothing between them: the mask acts on the scores before softmax, not
        # on these weights (an arrow "mask" from one weights map to the other said it did; review round 8)
        self.self_title = names(label("bidirectional attention", size=LABEL), "weights_self")
        self.causal_title = names(label("causal attention", size=LABEL), "weights")
        # the gap between the two maps' frames (the causal map's row indices stand in it): wide, two subjects side
        # by side; with the left map's indices it keeps the maps no larger than the close shows the causal map
        between = 2 * GAP.section
        sum_w = label("1.00", size=SMALL).width + GAP.small
        # the weights' colour bar beside the causal map: the deck's one weights scale, as clip 02 shows A
        ticks = tuple(self.weight_scale.ticks(2))
        side = max(sum_w, ColorBar(self.weight_scale, height=1.0, ticks=ticks).width + GAP.small)
        # both maps keep their positions framed (query m down the rows, key n along the columns, as the big map
        # had them), each title over its column indices
        idx = label(str(T - 1), size=SMALL)
        idx_w, idx_h = idx.width + 0.12, idx.height + 0.1
        title_h = self.self_title.height + GAP.tight + idx_h
        cell = min((C.height - title_h) / T, (C.width - between - 2 * side - 2 * idx_w) / (2 * T), self.PAIR_CELL)
        self.self_map = shows(value_map(d.weights_self, self.weight_scale, cell, cell, cls=ExactHeatmap),
                              "weights_self")
        self.A_small = shows(value_map(d.weights, self.weight_scale, cell, cell, cls=ExactHeatmap), "weights")
        self.self_rows, self.self_cols = self.self_map.index_labels("rows"), self.self_map.index_labels("cols")
        self.pair_rows, self.pair_cols = self.A_small.index_labels("rows"), self.A_small.index_labels("cols")
        self_g = titled(VGroup(self.self_map, self.self_rows, self.self_cols), self.self_title, gap="tight")
        causal_g = titled(VGroup(self.A_small, self.pair_rows, self.pair_cols), self.causal_title, gap="tight")
        self.pair = row(self_g, causal_g, gap=between, align="bottom")
        C.place(self.pair)
        self.self_title.set_x(self.self_map.get_x())  # each title centred over its own map
        self.causal_title.set_x(self.A_small.get_x())
        self.self_title.set_y(self.causal_title.get_y())  # the two titles on one line
        for title, hm, rows in ((self.self_title, self.self_map, self.self_rows),
                                (self.causal_title, self.A_small, self.pair_rows)):
            room = hm.get_right()[0] - rows.get_left()[0]  # a title no wider than its map and indices
            if title.width > room:
                title.scale(room / title.width)
            title.set_x(min(max(title.get_x(), rows.get_left()[0] + title.width / 2), hm.get_right()[0] - title.width / 2))
        self.side_geometry = {"self_right": self.self_map.get_right()[0], "rows_left": self.pair_rows.get_left()[0],
                              "title_bottom": self.causal_title.get_bottom()[1], "cols_top": self.pair_cols.get_top()[1],
                              "titles_y": (self.self_title.get_y(), self.causal_title.get_y())}
        self.w_bar = ColorBar(self.weight_scale, height=self.A_small.height, ticks=ticks)
        self.w_bar.next_to(self.A_small, RIGHT, buff=GAP.small).set_y(self.A_small.get_y())
        over = max(0.0, self.w_bar.get_right()[0] - C.right)  # the bar's ticks stay in the frame
        VGroup(self.pair, self.w_bar).shift(over * LEFT)

    def build_on_causal(self) -> None:
        d = self.data
        T = d.scaled.shape[0]
        self.zero_outline = future_outline(self.A_small, stroke_width=3.5)
        self.pair_sums = VGroup(*[
            label(fmt_value(s, 2), size=SMALL).next_to(self.A_small.cell(i, T - 1), RIGHT, buff=GAP.small)
            for i, s in enumerate(d.row_sums)])
        self.pair_sum_head = math("Sigma", size=LABEL).next_to(self.pair_sums, UP, buff=GAP.small)
        self.pair_sum_head.set_y(self.pair_cols.get_y())
        self.pair_height, self.pair_center = self.A_small.height, self.A_small.get_center().copy()

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.scaled.shape[0]
        S = self.S_map

        hide(S)
        self.add(S)
        self.beat("scores", FadeIn(self.S_note), FadeIn(self.col_idx), FadeIn(self.row_idx), FadeIn(self.s_bar),
                  Reveal(S, [[*row_parts(S, i), *([S.frame] if i == 0 else [])] for i in range(T)],
                         shift=GAP.small * LEFT),
                  run_time=1.6, subject=VGroup(S, self.frame_parts, self.s_bar))
        # the code arrives over the note: the lines that turn this map causal
        self.beat("code", FadeIn(self.code, shift=GAP.normal * RIGHT), run_time=1.0,
                  subject=VGroup(self.code, S, self.frame_parts))

        # line 1: the mask, drawn under the code; the future it removes outlined on the map
        self.beat("mask", self.code.focus(0), swap(self.S_note, self.mask_group), Create(self.future),
                  FadeIn(self.future_tag), FadeOut(self.s_bar), run_time=1.4,
                  subject=VGroup(self.mask_group, S, self.frame_parts, self.future, self.future_tag))

        # line 2: the future, one diagonal at a time, to -inf (the printed values are swapped, never morphed)
        steps = []
        self.sweep_shown = []  # the arrays the heatmap was animated through, in order
        for k in range(1, T):
            self.sweep_shown.append(d.sweep[k])
            cells = [(i, i + k) for i in range(T - k)]
            flash = role(VGroup(*[SurroundingRectangle(S.cell(i, j), color=HIGHLIGHT, buff=0, stroke_width=4)
                                  for i, j in cells]), "highlight")
            steps.append(Succession(FadeIn(flash), morph_cells(S, d.sweep[k], cells), FadeOut(flash)))
        shows(S, "masked")
        self.sweep_values, self.sweep_scale = S.values, S.color_scale  # what the map shows once the sweep is done
        self.sweep_texts = [t.text for t in S.labels]
        self.play(self.code.focus(1), run_time=0.5)
        self.beat("sweep", Succession(*steps), run_time=0.75 * (T - 1), subject=VGroup(S, self.frame_parts, self.future, self.future_tag))

        # line 3: softmax, row by row: the same cells turn from scores into weights
        self.play(self.code.focus(2), swap(self.mask_group, self.exp_note), FadeOut(self.future),
                  FadeOut(self.future_tag), run_time=0.8)
        S.repaint_with(self.weight_scale, decimals=2)
        rows = [AnimationGroup(morph_cells(S, d.weights, [(i, j) for j in range(T)]),
                               FadeIn(self.sum_labels[i], shift=GAP.tight * LEFT)) for i in range(T)]
        shows(S, "weights")
        self.A_map = S
        self.A_map_printed = list(S.labels)  # the weight labels as printed (row-major)
        self.beat(fail_key("softmax", bool(d.leaked or d.bad_sums)), FadeIn(self.sum_head),
                  LaggedStart(*rows, lag_ratio=0.6), run_time=0.6 * T + 0.6,
                  subject=VGroup(S, self.frame_parts, self.sum_labels, self.sum_head))
        # the future again, now its zeros: the same outline, the same cells
        self.zeros = future_outline(S)
        self.leak_frames = self.leak_outlines(S)  # a student's future weights that are not 0: outlined in red
        self.beat(fail_key("zeros", bool(d.leaked)), Create(self.zeros),
                  *([Create(self.leak_frames)] if d.leaked else []),
                  Indicate(self.exp_note[1], color=HIGHLIGHT, scale_factor=1.15), run_time=1.0,
                  subject=VGroup(S, self.frame_parts, self.sum_labels, self.sum_head, self.zeros))

        # side by side: self-attention beside causal attention, numbers printed
        self.side_by_side_layout()
        self.play(FadeOut(self.zeros), *([FadeOut(self.leak_frames)] if d.leaked else []), FadeOut(self.exp_note),
                  FadeOut(self.sum_labels),
                  FadeOut(self.sum_head), FadeOut(self.code),
                  run_time=0.6)
        self.beat(fail_key("side_by_side", bool(d.leaked)), AnimationGroup(ReplacementTransform(S, self.A_small),
                                                                           ReplacementTransform(self.row_idx, self.pair_rows),
                                                                           ReplacementTransform(self.col_idx, self.pair_cols),
                                                                           FadeIn(self.causal_title)),
                  reveal([self.self_title, self.self_map, VGroup(self.self_rows, self.self_cols)]),
                  FadeIn(self.w_bar), run_time=1.6,
                  subject=VGroup(self.self_map, self.self_rows, self.self_cols, self.A_small, self.pair_rows,
                                 self.pair_cols))

        # the maps make room for the verdicts; the proofs, one at a time, on the causal map while
        # self-attention steps back
        # self-attention has made its point: it leaves; the causal map grows on the left, its sums beside it,
        # and its two proofs come one at a time on its right (where the close keeps them)
        sum_w = label("1.00", size=SMALL).width + GAP.small
        C = self.layout.content
        causal = VGroup(self.A_small, self.pair_rows, self.pair_cols, self.causal_title)
        self.sum_head_words = label("every row sums to 1", size=HEADING + 4)
        self.zero_head_words = label("no weight on the future", size=HEADING + 4)
        verdicts = column(column(self.sum_head_words, self.proof_sum, gap="small", align=LEFT),
                          column(self.zero_head_words, self.proof_zero, gap="small", align=LEFT),
                          gap="section", align=LEFT)
        room = C.width - verdicts.width - sum_w - GAP.wide
        k = min(C.height / causal.height, room / causal.width, self.PROOF_GROWTH)
        width = causal.width * k + sum_w + GAP.wide + verdicts.width
        x0 = C.center[0] - width / 2
        verdicts.move_to([x0 + width - verdicts.width / 2, C.center[1], 0])
        back = [self.self_map, self.self_title, self.self_rows, self.self_cols]
        self.side_height = self.A_small.height  # as side by side showed it
        self.play(FadeOut(self.w_bar), *[FadeOut(m) for m in back],
                  causal.animate.scale(k).move_to([x0 + causal.width * k / 2, C.center[1], 0]), run_time=0.8)
        self.build_on_causal()
        for m in d.bad_sums:  # a student's rows that do not sum to 1: their sums in red
            role(self.pair_sums[m], "failed").set_color(FAILED)
        # the second verdict's words wait, dimmed, where it comes next (the right half is not left empty)
        set_level(self.zero_head_words, level=0.0)
        self.add(self.zero_head_words)
        self.beat(fail_key("proof_sum" if d.row_sum_defect != 0.0 else "proof_sum_exact", bool(d.bad_sums)),
                  FadeIn(self.pair_sums, shift=GAP.tight * LEFT), FadeIn(self.pair_sum_head),
                  FadeIn(self.sum_head_words), FadeIn(self.proof_sum, shift=GAP.small * LEFT),
                  dim(self.zero_head_words), run_time=0.9,
                  subject=VGroup(self.A_small, self.causal_title, self.pair_rows, self.pair_cols, self.pair_sums,
                                 self.pair_sum_head, self.sum_head_words, self.proof_sum),
                  why={"empty": "the place under the first verdict is the second's (its words wait there, dimmed), "
                                "which the next beat brings"})
        self.leak_frames = self.leak_outlines(self.A_small, stroke_width=3.5)
        self.beat(fail_key("proof_zero", bool(d.leaked)), undim(self.zero_head_words), FadeIn(self.proof_zero, shift=GAP.small * LEFT),
                  Create(self.zero_outline), *([Create(self.leak_frames)] if d.leaked else []), run_time=1.0,
                  subject=VGroup(self.A_small, self.causal_title, self.pair_rows, self.pair_cols, self.pair_sums,
                                 self.pair_sum_head, self.zero_outline,
                                 self.zero_head_words, self.proof_zero))

    # ------------------------------------------------------------------ the takeaway
    def closing_key(self) -> str:
        return fail_key("close", bool(self.data.leaked or self.data.bad_sums))

    def closing_parts(self) -> list:
        if not hasattr(self, "takeaway_line"):  # the close's written takeaway, over the two verdicts that prove it
            self.takeaway_line = column(worded_line(f"row ${M}$ weighs only", size=HEADING + 4, weight="BOLD"),
                                        worded_line(f"tokens $0, dots.h, {M}$", size=HEADING + 4, weight="BOLD"),
                                        gap="tight", align=LEFT)  # two lines: no wider than the proofs under it
        return [VGroup(self.A_small, self.zero_outline, self.causal_title, self.pair_sums, self.pair_sum_head,
                       self.pair_rows, self.pair_cols, *([self.leak_frames] if self.data.leaked else [])),
                self.sum_head_words, self.proof_sum, self.zero_head_words, self.proof_zero,
                # a failing student's attention is not causal: no takeaway claims it over the red marks
                *([] if self.data.leaked or self.data.bad_sums else [self.takeaway_line])]

    def closing(self) -> None:
        """The takeaway brought forward under the last caption (the base's closing; with few tokens the map
        is few cells a side, which the verdicts beside it leave small: excused, by that reason)."""
        take = self.takeaway()
        T = self.data.scaled.shape[0]
        why = None if T > 4 else {"empty": f"with {T} tokens the causal map is {T} cells a side: the two verdicts "
                                           "beside it, at their legible size, set how large it can grow"}
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD, subject=take,
                  why=why)

    def takeaway(self):
        """The causal map with its future's zeros outlined and its rows' sums, and the two verdicts, each
        under the words it proves."""
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        C = self.layout.content

        def picture(p):  # the map large on the left with its sums, the verdicts stacked on its right
            for v in (p[2], p[4]):  # the formulas as narrow as legible allows: the map gets the rest
                v.scale(legible_scale(v) * 1.01)
            proofs = column(column(p[1], p[2], gap="small"), column(p[3], p[4], gap="small"), gap="section")
            # the written takeaway, if any, heads the proofs' column: the map keeps the frame's height
            verdicts = column(p[5], proofs, gap="section") if len(p) > 5 else proofs
            causal = p[0]
            hm, title, head, cols = causal[0], causal[2], causal[4], causal[6]
            head.set_y(cols.get_y())  # the sums' head in the line of the column indices, the title over both
            title.next_to(VGroup(cols, head), UP, buff=GAP.small).set_x(hm.get_x())
            room = C.width - verdicts.width - GAP.wide
            causal.scale(min(C.height * self.MAP_SHARE / causal.height, room / causal.width))
            return row(causal, verdicts, gap="wide")

        return restage(self, self.closing_parts(), picture, C, fill=1.0, most=1.0)


def grow(region: Region, mob, most: float = 1.5):
    """Place ``mob`` at the top of ``region`` as large as fits (at most ``most`` times its size); shrink it
    only down to the legible floor when it does not fit."""
    try:
        return region.fit(mob, UP, max_scale=most)
    except LayoutError:
        return settle(region, mob, UP)


class MaskGrid(VGroup):
    """The boolean mask as printed 1s and 0s in neutral greys (light: may attend, dark: may not), never in the
    weights' colours, which mean weight 1 and weight 0.  Laid out as a fitted heatmap would be; ``.values``,
    ``.cells`` (row-major), ``.labels`` and ``.cell(i, j)`` as a heatmap's."""

    ON, OFF = ManimColor("#C9CDD2"), ManimColor("#484D55")  # OFF: no background colour (the grid holds together)

    def __init__(self, mask, region):
        from scenes.kit.widgets import Heatmap

        v = np.asarray(mask, dtype=float)
        probe = Heatmap.fitted(v, MASK_PROBE, region, show_values=True, decimals=0)
        super().__init__()
        self.values = v
        flat = [c for row in probe.cells for c in row]
        self.cells = VGroup(*[c.copy().set_fill(self.ON if x else self.OFF, opacity=1).set_stroke(BG, width=1.5)
                              for c, x in zip(flat, v.ravel())])
        self.labels = VGroup()
        for c, t, x in zip(self.cells, probe.labels, v.ravel()):
            t = t.copy().set_color(BG if x else FG)
            overlay(c, t)  # a value sits on its own cell
            self.labels.add(t)
        self.add(self.cells, self.labels)

    def cell(self, i: int, j: int):
        return self.cells[i * self.values.shape[1] + j]


def mask_map(mask, scale, region):
    """The mask as 0s and 1s, as large as fits ``region``, in neutral greys (``MaskGrid``)."""
    return MaskGrid(mask, region)
