"""03 ``CausalMask`` (§3): the score heatmap S; the three lines of code; the mask; the future
masked one diagonal at a time to −∞; softmax row by row turns every −∞ into an exact 0 in the
same cells; self-attention and causal attention side by side.  Ends on the causal map with its
two proofs: every row sums to 1 (measured) and every weight above the diagonal is exactly 0.

The picture description it shares with its still (scales, code, proofs) is in
``scenes/figures/causal.py``; the widgets are in ``scenes/kit/proofs.py``.

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
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
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
    DIM,
    HEADING,
    HIGHLIGHT,
    KEY,
    LABEL,
    QUERY,
    SMALL,
    VERIFIED,
    ClipScene,
    ColorBar,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    swap,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, column, reveal, row, titled
from scenes.kit.layout import Region
from scenes.kit.motion import Dim
from scenes.kit.numbers import tick
from scenes.kit.proofs import Reveal, hide, morph_cells, proof_line, restage, row_parts, settle, value_map
from scenes.kit.widgets import Heatmap


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


class CausalMask(ClipScene):
    """03 · The causal mask: −∞ above the diagonal, exact zeros after softmax."""

    TIDY_PLAYS = True

    MAX_CELL = 1.8  # the big map's cells, at most (few tokens: larger cells)
    PAIR_CELL = 1.4  # the side-by-side maps' cells, at most
    MAP_SHARE = 0.95  # the closing picture fills this share of the content (the causal map its height)

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

    def scales(self) -> dict:
        return mask_scales(self.data)

    def caption_values(self) -> dict:
        d = self.data
        T = d.scaled.shape[0]
        score = self.scales()["scaled"]
        return {"T": T, "last": T - 1, "row_sum_defect": fmt_measure(d.row_sum_defect),
                "upper_max": fmt_measure(d.upper_max), "masked": T * (T - 1) // 2,
                "score_lo": tick(score.vmin), "score_hi": tick(score.vmax)}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        """The first picture: the code top left, notes under it, the big map on the right."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        sc = self.scales()
        self.score_scale, self.weight_scale = sc["scaled"], sc["weights"]

        self.code = CodePanel(CAUSAL_CODE)
        left, right = C.take_left(self.code.width, gap=GAP.wide)
        left.place(self.code, UP)
        notes = left.below(self.code, gap=GAP.wide)

        # the colour bar under the notes, named on its left: the scores' scale, later the weights'
        def bar(scale, name):
            title = math(name, size=LABEL)
            return row(title, ColorBar(scale, height=left.width - title.width - GAP.section, horizontal=True))

        self.S_bar, self.A_bar = bar(self.score_scale, f"S_({MN})"), bar(self.weight_scale, f"A_({MN})")
        bar_strip, notes = notes.take_bottom(max(self.S_bar.height, self.A_bar.height), gap=GAP.normal)
        for b in (self.S_bar, self.A_bar):
            settle(bar_strip, b, DOWN)

        # the big map: scores, then weights in the same cells; row indices left, column indices
        # above, the causal rows' sums right of it
        sum_w = label("1.00", size=SMALL).width + GAP.normal
        idx = label("0", size=SMALL)
        block = Region(right.left + idx.width + GAP.normal, right.right - sum_w, right.bottom,
                       right.top - idx.height - GAP.normal, "map")
        cell = min(block.width / T, block.height / T, self.MAX_CELL)
        self.S_map = shows(value_map(d.scaled, self.score_scale, cell, cell, decimals=1, size=HEADING,
                                     cls=ExactHeatmap), "scaled")
        block.place(self.S_map, UP)
        self.big_map_size = (self.S_map.width, self.S_map.height)  # the subject of the first beats
        self.row_idx = self.S_map.index_labels("rows")
        self.col_idx = self.S_map.index_labels("cols")
        self.sum_labels = VGroup(*[
            label(fmt_value(s, 2), size=SMALL, color=VERIFIED).next_to(self.S_map.cell(i, T - 1), RIGHT,
                                                                       buff=GAP.small)
            for i, s in enumerate(d.row_sums)])
        self.sum_head = math("Sigma", size=LABEL, color=VERIFIED).move_to(
            [self.sum_labels.get_center()[0], self.col_idx.get_center()[1], 0])

        # notes, each as large as the notes region allows
        q, k = tint(f"q_{M}", QUERY), tint(f"k_{NN}", KEY)
        self.S_note = column(math(f"S_({MN}) = ({q} dot {k}) / sqrt(d)", size=HEADING),
                             math(f'"row" {M}": query" {q}', size=LABEL, color=DIM),
                             math(f'"column" {NN}": key" {k}', size=LABEL, color=DIM), align=ORIGIN)
        settle(notes, self.S_note)
        self.mask_name = names(mono("mask", size=LABEL), "mask")
        self.mask_note = label("1 = may attend", size=SMALL, color=DIM)
        note_strip, mask_region = notes.take_bottom(self.mask_note.height, gap=GAP.small)
        _, mask_region = mask_region.take_left(self.mask_name.width, gap=GAP.normal)
        self.mask_map = shows(Heatmap.fitted(d.mask.astype(float), self.weight_scale, mask_region, show_values=True,
                                             decimals=0), "mask")
        self.mask_name.next_to(self.mask_map, LEFT, buff=GAP.normal)
        self.mask_note.next_to(self.mask_map, DOWN, buff=GAP.small)
        self.mask_group = VGroup(self.mask_name, self.mask_map, self.mask_note)
        notes.place(self.mask_group)
        self.exp_note = column(math(f"A_({MN}) = exp(S_({MN})) / (sum_({NN}' <= {M}) exp(S_({M} {NN}')))", size=LABEL),
                               math("e^(-infinity) = 0", size=LABEL), gap="wide", align=ORIGIN)
        settle(notes, self.exp_note)

    def side_by_side_layout(self) -> None:
        """The last picture: self-attention and causal attention side by side, a colour bar, the two
        measured proofs underneath."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        p_sum, p_zero = mask_proofs(d)
        self.proof_sum = proof_line(p_sum.formula, p_sum.value, size=HEADING, passed=p_sum.passed)
        self.proof_zero = proof_line(p_zero.formula, p_zero.value, size=HEADING, passed=p_zero.passed)
        proofs = row(self.proof_sum, self.proof_zero, gap="section")
        proof_strip, top = C.take_bottom(proofs.height, gap=GAP.wide)
        settle(proof_strip, proofs)
        self.sum_value, self.zero_value = self.proof_sum.value, self.proof_zero.value

        self.self_title = names(label("self-attention", size=LABEL), "weights_self")
        self.causal_title = names(label("causal attention", size=LABEL), "weights")
        self.arrow_note = label("mask", size=SMALL, color=DIM)
        self.pair_bar_title = names(math(f"A_({MN})", size=LABEL), "weights")
        arrow_w = self.arrow_note.width + GAP.section
        bar_w = ColorBar(self.weight_scale).width + self.pair_bar_title.width
        title_h = self.self_title.height + GAP.small
        cell = min((top.height - title_h) / T, (top.width - arrow_w - bar_w - 2 * GAP.wide) / (2 * T), self.PAIR_CELL)
        self.self_map = shows(Heatmap(d.weights_self, self.weight_scale, cell_size=cell), "weights_self")
        self.A_small = shows(Heatmap(d.weights, self.weight_scale, cell_size=cell), "weights")
        maps = row(titled(self.self_map, self.self_title), titled(self.A_small, self.causal_title), gap=arrow_w,
                   align="bottom")
        self.pair_bar = ColorBar(self.weight_scale, height=T * cell - self.pair_bar_title.height - GAP.small)
        self.pair_bar.next_to(self.A_small, RIGHT, buff=GAP.normal).align_to(self.A_small, DOWN)
        self.pair_bar_title.next_to(self.pair_bar.frame, UP, buff=GAP.small)
        top.place(VGroup(maps, self.pair_bar, self.pair_bar_title), DOWN)
        self.mask_arrow = Arrow(self.self_map.get_right(), self.A_small.get_left(), buff=GAP.normal, color=DIM,
                                stroke_width=4)
        self.arrow_note.next_to(self.mask_arrow, UP, buff=GAP.tight)
        self.zero_outline = staircase_outline(self.A_small, upper=True)
        self.pair_height, self.pair_center = self.A_small.height, self.A_small.get_center().copy()

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.scaled.shape[0]
        S = self.S_map

        hide(S)
        self.add(S)
        self.beat("scores", FadeIn(self.S_note), FadeIn(self.col_idx), FadeIn(self.row_idx),
                  FadeIn(names(self.S_bar[0], "scaled")),
                  FadeIn(self.S_bar[1]), Reveal(S, [row_parts(S, i) for i in range(T)], shift=GAP.small * LEFT),
                  run_time=1.6)
        # the code is the subject: the map steps back while it arrives
        back = [S, self.row_idx, self.col_idx, self.S_bar]
        self.beat("code", FadeIn(self.code, shift=GAP.normal * RIGHT), Dim(back, DIMMED), run_time=1.0)

        # line 1: the mask, drawn beside the code and outlined on the map
        allowed = staircase_outline(S)
        self.beat("mask", self.code.focus(0), swap(self.S_note, self.mask_group), Dim(back, 1),
                  Create(allowed), run_time=1.4)

        # line 2: the future, one diagonal at a time, to -inf (the printed values are swapped, never morphed)
        steps = []
        self.sweep_shown = []  # the arrays the heatmap was animated through, in order
        for k in range(1, T):
            self.sweep_shown.append(d.sweep[k])
            cells = [(i, i + k) for i in range(T - k)]
            flash = VGroup(*[SurroundingRectangle(S.cell(i, j), color=HIGHLIGHT, buff=0, stroke_width=4)
                             for i, j in cells])
            steps.append(Succession(FadeIn(flash), morph_cells(S, d.sweep[k], cells), FadeOut(flash)))
        shows(S, "masked")
        names(self.S_bar[0], "masked")
        self.sweep_values, self.sweep_scale = S.values, S.color_scale  # what the map shows once the sweep is done
        self.sweep_texts = [t.text for t in S.labels]
        self.play(self.code.focus(1), run_time=0.5)
        self.beat("sweep", Succession(*steps), run_time=0.75 * (T - 1))

        # line 3: softmax, row by row: the same cells turn from scores into weights
        names(self.A_bar[0], "weights")
        self.play(self.code.focus(2), swap(self.mask_group, self.exp_note), FadeOut(allowed),
                  swap(self.S_bar, self.A_bar), run_time=0.8)
        S.repaint_with(self.weight_scale, decimals=2)
        rows = [AnimationGroup(morph_cells(S, d.weights, [(i, j) for j in range(T)]),
                               FadeIn(self.sum_labels[i], shift=GAP.tight * LEFT)) for i in range(T)]
        shows(S, "weights")
        self.A_map = S
        self.A_map_printed = list(S.labels)  # the weight labels as printed (row-major)
        self.beat("softmax", FadeIn(self.sum_head), LaggedStart(*rows, lag_ratio=0.6), run_time=0.6 * T + 0.6)
        zeros = staircase_outline(S, upper=True)
        self.beat("zeros", Create(zeros), Indicate(self.exp_note[1], color=VERIFIED), run_time=1.0)

        # side by side, with the proofs
        self.side_by_side_layout()
        self.play(FadeOut(zeros), FadeOut(self.exp_note), FadeOut(self.sum_labels), FadeOut(self.sum_head),
                  FadeOut(self.row_idx), FadeOut(self.col_idx), FadeOut(S.labels), FadeOut(self.code),
                  FadeOut(self.A_bar), run_time=0.6)
        S.remove(S.labels)
        target = self.A_small.copy()
        self.beat("side_by_side", AnimationGroup(ReplacementTransform(S, target), FadeIn(self.causal_title)),
                  reveal([self.self_title, self.self_map, self.arrow_note, self.pair_bar, self.pair_bar_title]),
                  GrowArrow(self.mask_arrow), run_time=1.6)
        self.remove(target)
        self.add(self.A_small)
        self.beat("proof_sum" if d.row_sum_defect != 0.0 else "proof_sum_exact", FadeIn(self.proof_sum, shift=UP * GAP.small),
                  run_time=0.8)
        self.beat("proof_zero", FadeIn(self.proof_zero, shift=UP * GAP.small), Create(self.zero_outline), run_time=1.0)

    # ------------------------------------------------------------------ the takeaway
    def closing_parts(self) -> list:
        return [VGroup(self.A_small, self.zero_outline, self.causal_title), VGroup(self.pair_bar, self.pair_bar_title),
                self.proof_sum, self.proof_zero]

    def takeaway(self):
        """The causal map with its zeros outlined, its colour bar, and the two measured proofs."""
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        C = self.layout.content

        def picture(p):  # the map large on the left, the proofs stacked on its right at label size
            causal = row(p[0], p[1]).scale_to_fit_height(C.height * self.MAP_SHARE)
            proofs = column(p[2], p[3], gap="wide").scale(LABEL / HEADING)
            return row(causal, proofs, gap="section")

        return restage(self, self.closing_parts(), picture, C, fill=self.MAP_SHARE)

