"""Causal clips.

03 ``CausalMask`` (§3): the score heatmap; the future is masked one diagonal at a time to
−∞; softmax row by row turns every −∞ into an exact 0; self-attention and causal
attention side by side; the three lines of code beside the picture.  Proof on screen:
every causal row sums to 1 (measured) and every weight above the diagonal is exactly 0.

04 ``PrefixInvariance`` (§4): the causal pass on all T tokens and on the first T−1, as
coloured maps of their numbers; the prefix rows slide onto the full rows, land on the same
colours and numbers and hand over (a check beside each); the defect of every prefix drawn on
a log axis for both kernels (exact zeros as marks on the floor) with the measured maxima
(``0.0`` bitwise for the fixed order, BLAS honestly measured); why the order matters.

05 ``KVCache`` (§4, Q2): decoding token by token into empty cache slots (one new K and V row
each step, only the new query computed), each output row checked against a full recompute;
then bidirectional attention on its own colour scale, where appending a token moves every
past output (measured per row on a log axis).

Render directly with ``manim -ql scenes/causal.py CausalMask`` (or PrefixInvariance, KVCache).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    Animation,
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
    GrowFromEdge,
    Group,
    Indicate,
    LaggedStart,
    Mobject,
    Rectangle,
    ReplacementTransform,
    RoundedRectangle,
    Square,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from mathcore import (
    KVCacheTrace,
    attention_fn,
    bidirectional_staleness,
    kv_cache_decode,
    lecture_inputs,
    prefix_defects,
    prefix_invariance_max_defect,
    self_attention_trace,
)
from mathcore.causal import (
    SUM_ORDER_EXAMPLE,
    above_diagonal_max,
    append_change,
    float_sum_orders,
    mask_sweep,
    prefix_outputs,
    row_sum_defect,
    row_sums,
)
from mathcore.config import LectureConfig
from scenes.kit import (
    ACCENT,
    BAD,
    DIM,
    FG,
    GOOD,
    LABEL,
    SMALL,
    ClipScene,
    ColorBar,
    ColorScale,
    Heatmap,
    Plot,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    swap,
    token_color,
)
from scenes.kit.causal_widgets import (
    CodePanel,
    ExactHeatmap,
    RowBars,
    SeriesKey,
    check_mark,
    measure_line,
    morph_cells,
    staircase_outline,
)
from scenes.kit.layout import FIT_XHEIGHT_PX, baseline_y, LayoutError, Region, fit_label, overlay, xheight_px

# The three lines that turn self-attention into causal attention (what mathcore.attention does).
CAUSAL_CODE = "mask = np.tri(T, dtype=bool)\nS[~mask] = -np.inf\nA = softmax(S, axis=-1)"


# ====================================================================== 03 CausalMask
@dataclass(frozen=True)
class CausalMaskData:
    """What clip 03 draws, all from ``self_attention_trace`` on the lecture inputs."""

    scaled: np.ndarray  # (T, T) S = Q Kᵀ / √d
    mask: np.ndarray  # (T, T) bool, causal_mask(T)
    sweep: tuple[np.ndarray, ...]  # mask_sweep stages: diagonal k masked in stage k
    masked: np.ndarray  # (T, T) S with the future at -inf
    weights: np.ndarray  # (T, T) causal A
    weights_self: np.ndarray  # (T, T) self-attention A (no mask)
    row_sums: np.ndarray  # (T,) Σ_j A_ij of the causal A
    row_sum_defect: float  # max_i |Σ_j A_ij − 1|
    upper_max: float  # max A_ij over j > i (exactly 0.0)
    cmap_weights: str
    cmap_signed: str


class CausalMask(ClipScene):
    """03 · The causal mask: −∞ above the diagonal, exact zeros after softmax."""

    TIDY_PLAYS = True

    CODE_SIZE = 24  # the listing's font size (x-height about 11 px at 854×480)
    MAX_CELL = 1.8  # the big score / weight map's cells, at most (few tokens: larger cells)
    PAIR_MAX_CELL = 1.4  # the side-by-side maps' cells, at most
    PROOF_SIZE = LABEL + 8  # the measured proofs (their scripts, like j > i under max, near 11 px)

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

    def caption_values(self) -> dict:
        d = self.data
        return {"T": d.scaled.shape[0], "row_sum_defect": fmt_measure(d.row_sum_defect),
                "upper_max": fmt_measure(d.upper_max)}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        """The first picture: the code top left, notes under it, the big map on the right."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        self.score_scale = ColorScale.symmetric(d.cmap_signed, d.scaled)
        self.weight_scale = ColorScale(d.cmap_weights, 0.0, 1.0)

        self.code = CodePanel(CAUSAL_CODE, size=self.CODE_SIZE)
        left, right = C.take_left(self.code.width, gap=0.5)
        left.place(self.code, UP)
        notes = left.below(self.code, gap=0.4)
        bar_strip, notes = notes.take_bottom(0.7, gap=0.3)
        self.notes_region = notes

        # the big map: scores, then weights in the same cells; row indices left, column
        # indices above, the causal rows' sums right of it
        idx_w, idx_h = 0.5, 0.5
        sum_w = label("1.00", size=SMALL).width + 0.3
        cell = min((right.width - idx_w - sum_w) / T, (right.height - idx_h) / T, self.MAX_CELL)
        vsize = SMALL if cell < 1.05 else (LABEL + 4 if cell < 1.45 else LABEL + 10)
        block = Region(right.left + idx_w, right.right - sum_w, right.bottom, right.top - idx_h, "map")
        self.S_map = Heatmap(d.scaled, self.score_scale, cell_size=cell, show_values=True, decimals=1, value_size=vsize)
        block.place(self.S_map, UP)
        self.A_map = ExactHeatmap(d.weights, self.weight_scale, cell_size=cell, show_values=True, decimals=2,
                                  value_size=vsize)
        self.A_map.move_to(self.S_map)
        self.A_map_printed = list(self.A_map.labels)  # the weight labels as printed (row-major)
        self.row_idx = self.S_map.index_labels("rows", buff=0.15)
        self.col_idx = self.S_map.index_labels("cols")
        self.sum_labels = VGroup(*[
            label(fmt_value(s, 2), size=SMALL, color=GOOD).next_to(self.A_map.cell(i, T - 1), RIGHT, buff=0.2)
            for i, s in enumerate(d.row_sums)
        ])
        self.sum_head = label("\u03a3", size=LABEL, color=GOOD).move_to(
            [self.sum_labels.get_center()[0], self.col_idx.get_center()[1], 0])

        # the colour bar under the notes, its name on its left: the scores' scale, later the weights'
        m = self.score_scale.norm.vmax
        tick = float(np.floor(m * 10) / 10) or m
        length = min(bar_strip.width - 1.4, 4.0)
        self.S_bar = VGroup(math("S_(i j)", size=LABEL),
                            ColorBar(self.score_scale, height=length, horizontal=True, ticks=[-tick, 0.0, tick],
                                     tick_format=lambda v: fmt_value(v, 1)))
        self.A_bar = VGroup(math("A_(i j)", size=LABEL),
                            ColorBar(self.weight_scale, height=length, horizontal=True, ticks=[0.0, 0.5, 1.0],
                                     tick_format=lambda v: f"{v:g}"))
        for name, bar in (self.S_bar, self.A_bar):
            name.next_to(bar.frame, LEFT, buff=0.3)
            bar_strip.place(VGroup(name, bar), DOWN)

        # notes, each as large as the notes region allows
        self.S_note = VGroup(
            math(r"S_(i j) = (q_i dot k_j) / sqrt(d)", size=LABEL + 10),
            label("row i: query i", size=LABEL, color=DIM),
            label("column j: key j", size=LABEL, color=DIM),
        ).arrange(DOWN, buff=0.3)
        notes.fit(self.S_note, max_scale=1.0)

        note_h = label("1 = may attend", size=SMALL).height + 0.2 + 0.05
        name_w = mono("mask", size=LABEL).width + 0.3 + 0.05
        mask_cell = min((notes.height - note_h) / T, (notes.width - 2 * name_w) / T, 0.8)
        self.mask_map = Heatmap(d.mask.astype(float), self.weight_scale, cell_size=mask_cell, show_values=True,
                                decimals=0)
        self.mask_name = mono("mask", size=LABEL).next_to(self.mask_map, LEFT, buff=0.3)
        self.mask_note = label("1 = may attend", size=SMALL, color=DIM).next_to(self.mask_map, DOWN, buff=0.2)
        self.mask_group = VGroup(self.mask_name, self.mask_map, self.mask_note)
        notes.place(self.mask_group)

        self.exp_note = VGroup(
            math("A_(i j) = exp(S_(i j)) / (sum_(k <= i) exp(S_(i k)))", size=LABEL + 6),
            math("e^(-infinity) = 0", size=LABEL + 6),
        ).arrange(DOWN, buff=0.5)
        notes.fit(self.exp_note, max_scale=1.0)

    def side_by_side_layout(self) -> None:
        """The last picture: self-attention and causal attention side by side, a colour bar,
        the two measured proofs underneath."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        self.proof_sum = measure_line("max_i |sum_j A_(i j) - 1|", d.row_sum_defect, size=self.PROOF_SIZE)
        self.proof_zero = measure_line("max_(j > i) A_(i j)", d.upper_max, note="exactly", size=self.PROOF_SIZE,
                                       good=d.upper_max == 0.0)
        proofs = VGroup(self.proof_sum, self.proof_zero).arrange(RIGHT, buff=1.0)
        proof_strip, top = C.take_bottom(proofs.height, gap=0.4)
        proof_strip.fit(proofs)
        self.sum_value, self.zero_value = self.proof_sum[2], self.proof_zero[2]

        title_h, arrow_w, bar_w = 0.55, 1.7, 1.35
        cell = min((top.height - title_h) / T, (top.width - arrow_w - bar_w) / (2 * T), self.PAIR_MAX_CELL)
        self.self_map = Heatmap(d.weights_self, self.weight_scale, cell_size=cell)
        self.A_small = Heatmap(d.weights, self.weight_scale, cell_size=cell)
        self.mask_arrow = Arrow(ORIGIN, arrow_w * 0.8 * RIGHT, buff=0, color=DIM, stroke_width=4)
        self.pair_bar = ColorBar(self.weight_scale, height=T * cell * 0.9, ticks=[0.0, 0.5, 1.0],
                                 tick_format=lambda v: f"{v:g}")
        row = VGroup(self.self_map, self.mask_arrow, self.A_small, self.pair_bar).arrange(RIGHT, buff=0.3)
        self.pair_bar.shift(0.2 * RIGHT)
        Region(top.left, top.right, top.bottom, top.top - title_h).place(row, DOWN)
        self.self_title = label("self-attention", size=LABEL, color=FG).next_to(self.self_map, UP, buff=0.18)
        self.causal_title = label("causal attention", size=LABEL, color=FG).next_to(self.A_small, UP, buff=0.18)
        self.pair_bar_title = math("A_(i j)", size=LABEL).next_to(self.pair_bar.frame, UP, buff=0.18)
        self.arrow_note = label("mask", size=SMALL, color=DIM).next_to(self.mask_arrow, UP, buff=0.15)
        self.zero_outline = staircase_outline(self.A_small, color=GOOD, stroke_width=4, upper=True)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.scaled.shape[0]
        S = self.S_map

        row_groups = [VGroup(*S.cells[i], *S.labels[i * T:(i + 1) * T]) for i in range(T)]
        self.beat("scores", FadeIn(self.S_note), FadeIn(self.col_idx), FadeIn(self.row_idx), FadeIn(self.S_bar),
                  LaggedStart(*[FadeIn(g) for g in row_groups], lag_ratio=0.2), run_time=1.6)
        self.remove(*row_groups)  # the rows arrived one by one; from now on the map is one mobject
        self.add(S)
        # the code is the subject: the map steps back while it arrives
        self.beat("code", FadeIn(self.code, shift=0.2 * RIGHT), S.animate.set_opacity(0.25),
                  self.row_idx.animate.set_opacity(0.25), self.col_idx.animate.set_opacity(0.25), run_time=1.0)

        # line 1: the mask, drawn beside the code and outlined on the map
        allowed = staircase_outline(S, color=GOOD, stroke_width=5)
        self.beat("mask", self.code.focus(0), FadeOut(self.S_note), FadeIn(self.mask_group),
                  S.animate.set_opacity(1.0), self.row_idx.animate.set_opacity(1.0),
                  self.col_idx.animate.set_opacity(1.0), Create(allowed), run_time=1.4)

        # line 2: the future, one diagonal at a time, to -inf (the printed values are swapped, never morphed)
        steps = []
        self.sweep_shown = []  # the arrays the heatmap was animated through, in order
        for k in range(1, T):
            self.sweep_shown.append(d.sweep[k])
            cells = [(i, i + k) for i in range(T - k)]
            flash = VGroup(*[SurroundingRectangle(S.cell(i, j), color=BAD, buff=0, stroke_width=4) for i, j in cells])
            steps.append(Succession(
                FadeIn(flash, run_time=0.15),
                morph_cells(S, d.sweep[k], cells, run_time=0.45),
                FadeOut(flash, run_time=0.15),
            ))
        self.play(self.code.focus(1), run_time=0.5)
        self.beat("sweep", Succession(*steps), run_time=0.75 * (T - 1), hold=0.5)

        # line 3: softmax, row by row: S's row i is recoloured and relabelled as A's row i
        self.play(self.code.focus(2), FadeOut(self.mask_group), FadeOut(allowed), FadeIn(self.exp_note),
                  FadeOut(self.S_bar), FadeIn(self.A_bar), run_time=0.8)
        A = self.A_map
        rows = []
        for i in range(T):
            for j in range(T):  # A's value lands on S's cell, which becomes A's cell
                overlay(S.cell(i, j), A.labels[i * T + j])
            recolour = [S.cell(i, j).animate.set_fill(A.color_of(d.weights[i, j]), opacity=1.0) for j in range(T)]
            relabel = Succession(AnimationGroup(*[S.labels[i * T + j].animate.set_fill(opacity=0) for j in range(T)]),
                                 AnimationGroup(*[FadeIn(A.labels[i * T + j]) for j in range(T)],
                                                FadeIn(self.sum_labels[i], shift=0.1 * LEFT)))
            rows.append(AnimationGroup(*recolour, relabel))
        self.beat("softmax", FadeIn(self.sum_head), LaggedStart(*rows, lag_ratio=0.6), run_time=0.6 * T + 0.6,
                  hold=0.4)
        self.remove(S, *A.labels)
        self.add(A)
        zeros = staircase_outline(A, color=GOOD, stroke_width=5, upper=True)
        self.beat("zeros", Create(zeros), Indicate(self.exp_note[1], color=GOOD, scale_factor=1.15), run_time=1.0)

        # side by side, with the proofs
        self.side_by_side_layout()
        self.play(FadeOut(zeros), FadeOut(self.exp_note), FadeOut(self.sum_labels), FadeOut(self.sum_head),
                  FadeOut(self.row_idx), FadeOut(self.col_idx), FadeOut(A.labels), FadeOut(self.code),
                  FadeOut(self.A_bar), run_time=0.6)
        A.remove(A.labels)
        target = self.A_small.copy()
        self.beat("side_by_side",
                  AnimationGroup(ReplacementTransform(A, target), FadeIn(self.causal_title)),
                  LaggedStart(FadeIn(self.self_title), FadeIn(self.self_map), GrowArrow(self.mask_arrow),
                              FadeIn(self.arrow_note), FadeIn(self.pair_bar), FadeIn(self.pair_bar_title),
                              lag_ratio=0.2),
                  run_time=1.6)
        self.remove(target)
        self.add(self.A_small)
        self.beat("proof_sum" if d.row_sum_defect != 0.0 else "proof_sum_exact", FadeIn(self.proof_sum, shift=0.15 * UP),
                  run_time=0.8)
        self.beat("proof_zero", FadeIn(self.proof_zero, shift=0.15 * UP), Create(self.zero_outline), run_time=1.0)


# ====================================================================== 04 PrefixInvariance
@dataclass(frozen=True)
class PrefixInvarianceData:
    """What clip 04 draws: causal outputs on all T tokens and on the first T−1, and the
    prefix defects for both kernels (``prefix_defects``), measured on the same ``X``."""

    X: np.ndarray  # (T, d)
    Y_full: np.ndarray  # (T, d) causal attention on X
    Y_prefix: np.ndarray  # (T-1, d) causal attention on X[:T-1]
    defects_fixed: np.ndarray  # (T,) entry t-1: max |Y_full[:t] − Attn(X[:t])|, fixed-order kernel
    max_fixed: float
    defects_blas: np.ndarray  # (T,) the same with kernel="blas" (plain matmul)
    max_blas: float
    sum_terms: tuple[float, float, float]
    sum_orders: tuple[float, float]  # ((a+b)+c, a+(b+c))
    cmap_signed: str


class PrefixInvariance(ClipScene):
    """04 · Prefix invariance: the prefix's outputs are the full outputs' first rows, bitwise."""

    TIDY_PLAYS = True

    MAX_CELL_W, MAX_CELL_H = 1.6, 1.25  # output maps' cells, at most (wide: they print two decimals)
    HEAD_SIZE = LABEL + 2
    LEFT_SHARE = 0.44  # from the measuring beat on: the full map's column, as a share of the content width

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PrefixInvarianceData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
        blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
        df, db = prefix_defects(fixed, li.X), prefix_defects(blas, li.X)
        return PrefixInvarianceData(
            X=li.X, Y_full=fixed(li.X), Y_prefix=fixed(li.X[: cfg.T - 1]),
            defects_fixed=df, max_fixed=prefix_invariance_max_defect(fixed, li.X),
            defects_blas=db, max_blas=prefix_invariance_max_defect(blas, li.X),
            sum_terms=SUM_ORDER_EXAMPLE, sum_orders=float_sum_orders(*SUM_ORDER_EXAMPLE),
            cmap_signed=cfg.cmap_signed,
        )

    def caption_values(self) -> dict:
        d = self.data
        T = d.X.shape[0]
        return {"T": T, "T1": T - 1, "last": T - 1, "last_prev": T - 2,
                "max_fixed": fmt_measure(d.max_fixed), "max_blas": fmt_measure(d.max_blas)}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T, dm = d.Y_full.shape
        C = self.layout.content
        self.scale = ColorScale.symmetric(d.cmap_signed, np.concatenate([d.Y_full.ravel(), d.Y_prefix.ravel()]))

        # heads: the call and how many tokens it sees
        self.full_head = VGroup(math(f'Y = "Attn"(x_0, dots, x_{T - 1})', size=self.HEAD_SIZE),
                                label(f"all {T} tokens", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.3)
        self.prefix_head = VGroup(math(f'"Attn"(x_0, dots, x_{T - 2})', size=self.HEAD_SIZE),
                                  label(f"first {T - 1} tokens", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.3)
        for h in (self.full_head, self.prefix_head):
            h.arrange(DOWN, buff=0.12)
        self.full_note, self.prefix_note = self.full_head[1], self.prefix_head[1]
        head_h = max(self.full_head.height, self.prefix_head.height) + 0.3

        # the colour bar on the far left; the full map, a gap for the row marks, the prefix map
        m = self.scale.norm.vmax
        tick = float(np.floor(m * 10) / 10) or m
        probe = ColorBar(self.scale, height=2.0, ticks=[-tick, tick], tick_format=lambda v: fmt_value(v, 1))
        bar_w = probe.width + 0.35
        lab_w = math(f"y_{T - 1}", size=LABEL).width + 0.2
        mark_gap = label("new", size=SMALL).width + 0.55
        fixed_w = bar_w + 2 * lab_w + mark_gap + 0.3
        cell_h = min(self.MAX_CELL_H, (C.height - head_h - 0.1) / T)
        cell_w = min(self.MAX_CELL_W, (C.width - fixed_w) / (2 * dm))
        while True:  # the heads may be wider than their maps (few columns)
            col_full = max(lab_w + dm * cell_w, self.full_head.width)
            col_prefix = max(lab_w + dm * cell_w, self.prefix_head.width)
            if bar_w + col_full + mark_gap + col_prefix + 0.3 <= C.width + 1e-9:
                break
            cell_w -= 0.02
            if cell_w < 0.3:
                raise LayoutError(f"clip 04: two {T}×{dm} output maps do not fit the content width")
        widest = max((fmt_value(v, 2) for v in d.Y_full.ravel()), key=len)
        vsize = LABEL + 4 if cell_h >= 1.0 and label(widest, size=LABEL + 4).width <= cell_w * 0.85 else SMALL
        value_px = xheight_px(label("0", size=vsize)) * min(1.0, cell_w * 0.9 / label(widest, size=vsize).width)
        numbers = value_px >= FIT_XHEIGHT_PX
        self.cell_w, self.cell_h = cell_w, cell_h

        def out_map(values):
            return Heatmap(values, self.scale, (cell_w, cell_h), show_values=numbers, decimals=2, value_size=vsize,
                           uniform_values=True)

        self.full = out_map(d.Y_full)
        self.prefix = out_map(d.Y_prefix)
        maps_top = C.top - head_h
        x0 = C.left + bar_w
        self.full.move_to([x0 + (col_full + lab_w - dm * cell_w) / 2 + dm * cell_w / 2, 0, 0])
        self.full.shift((maps_top - self.full.get_top()[1]) * UP)
        x1 = x0 + col_full + mark_gap
        self.prefix.move_to([x1 + (col_prefix + lab_w - dm * cell_w) / 2 + dm * cell_w / 2, 0, 0])
        self.prefix.shift((maps_top - self.prefix.get_top()[1]) * UP)  # slot i level with slot i
        self.full_labels = self._row_labels(self.full, T)
        self.prefix_labels = self._row_labels(self.prefix, T - 1)
        self.full_head.move_to([self.full.get_center()[0], maps_top + head_h / 2 - 0.05, 0])
        self.prefix_head.move_to([self.prefix.get_center()[0], maps_top + head_h / 2 - 0.05, 0])
        if self.full_head.get_left()[0] < C.left:  # a head wider than its map stays inside the content
            self.full_head.shift((C.left - self.full_head.get_left()[0]) * RIGHT)
        if self.prefix_head.get_right()[0] > C.right:
            self.prefix_head.shift((C.right - self.prefix_head.get_right()[0]) * RIGHT)
        self.bar = ColorBar(self.scale, height=T * cell_h * 0.8, ticks=[-tick, 0.0, tick],
                            tick_format=lambda v: fmt_value(v, 1))
        self.bar.move_to([C.left + self.bar.width / 2, self.full.get_center()[1], 0])

        # the rows that landed: a mark in the gap right of each; the new row's tag
        self.checks = VGroup(*[check_mark(0.3).next_to(self.full.cell(i, dm - 1), RIGHT, buff=0.25)
                               for i in range(T - 1)])
        self.landed_outline = Rectangle(width=dm * cell_w + 0.08, height=(T - 1) * cell_h + 0.08, stroke_color=GOOD,
                                        stroke_width=4, fill_opacity=0)
        self.landed_outline.move_to(VGroup(*[self.full.cell(i, j) for i in range(T - 1) for j in range(dm)]))
        self.new_row = SurroundingRectangle(VGroup(*self.full.cells[T - 1]), color=ACCENT, buff=0.04, stroke_width=4)
        self.new_tag = label("new", size=SMALL, color=ACCENT).next_to(self.new_row, RIGHT, buff=0.18)

        # from the measuring beat on: the full map keeps its column, the plot takes the rest
        left_w = max(self.new_tag.get_right()[0] - C.left, C.width * self.LEFT_SHARE)
        self.left_region, right = C.take_left(left_w, gap=0.55)
        self.make_plot(right)

        # what the landing showed, said once in the space the prefix map left
        self.same = VGroup(math(f'Y "[:{T - 1}]" = "Attn"(x_0, dots, x_{T - 2})', size=LABEL + 6),
                           label("the same numbers, bit for bit", size=LABEL, color=GOOD)).arrange(DOWN, buff=0.3)
        Region(right.left, right.right, self.full.get_bottom()[1], self.full.get_top()[1]).fit(self.same)
        self.make_why(self.left_region)

    def _row_labels(self, hm: Heatmap, n: int) -> VGroup:
        return VGroup(*[math(f"y_{i}", size=LABEL, color=token_color(i)).next_to(hm.cell(i, 0), LEFT, buff=0.18)
                        for i in range(n)])

    def make_plot(self, region: Region) -> None:
        """Per prefix length t, both kernels' defect on a log axis; exact zeros as marks on the floor."""
        d = self.data
        T = d.X.shape[0]
        self.plot_title = math('max |Y "[:t]" - "Attn"(X "[:t]")|', size=LABEL + 2)
        self.key_fixed = SeriesKey("fixed order", GOOD, d.max_fixed, size=SMALL)
        self.key_blas = SeriesKey("BLAS matmul", ACCENT, d.max_blas, size=SMALL)
        zero_mark = Square(side_length=0.16, stroke_color=FG, stroke_width=3, fill_opacity=0).rotate(np.pi / 4)
        self.key_zero = VGroup(zero_mark, label("exactly 0.0", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.2)
        keys = VGroup(self.key_fixed, self.key_blas).arrange(DOWN, buff=0.22, aligned_edge=LEFT)
        self.key_zero.next_to(keys, DOWN, buff=0.22, aligned_edge=LEFT)
        keys.add(self.key_zero)
        key_strip, rest = region.take_bottom(keys.height, gap=0.35)
        key_strip.fit(keys, LEFT)
        title_strip, rest = rest.take_top(self.plot_title.height, gap=0.3)
        title_strip.fit(self.plot_title)

        nonzero = np.concatenate([d.defects_fixed[d.defects_fixed > 0], d.defects_blas[d.defects_blas > 0]])
        lo_exp = min(-17, int(np.floor(np.log10(nonzero.min())))) if nonzero.size else -17
        hi_exp = max(lo_exp + 2, int(np.ceil(np.log10(nonzero.max()) + 1e-9))) if nonzero.size else lo_exp + 2
        step = 1 if hi_exp - lo_exp <= 5 else 2
        ticks = [10.0 ** k for k in range(lo_exp, hi_exp + 1, step)]
        probe_tick = label("1e\u221216", size=SMALL)
        width = rest.width - probe_tick.width - 0.35
        height = rest.height - 2 * probe_tick.height - 0.45
        self.plot = Plot((0.4, T + 0.6), (10.0 ** lo_exp, 10.0 ** hi_exp), width=width, height=height, y_log=True,
                         x_ticks=list(range(1, T + 1)), y_ticks=ticks, x_label="prefix length t",
                         tick_format=lambda v: f"{v:.0f}" if v >= 1 else f"1e{int(round(np.log10(v)))}".replace("-", "\u2212"))
        self.plot.shift([rest.right - self.plot.axes.get_right()[0], rest.top - self.plot.axes.get_top()[1], 0])

        off = 0.2  # data units: the two kernels' marks either side of each t
        self.series = {}
        for name, values, color, dx in (("fixed", d.defects_fixed, GOOD, -off), ("blas", d.defects_blas, ACCENT, off)):
            marks = VGroup()
            xs = np.arange(1, T + 1) + dx
            for x, v in zip(xs, values):
                if v == 0.0:
                    mk = self.plot.exact_zero(x, color=color, text=None)
                    mk.exact = True
                else:
                    mk = self.plot.bars([x], [v], bar_width=0.22 * self.plot.width_units / (T + 0.2), colors=color)
                    mk.value, mk.exact = float(v), False
                marks.add(mk)
            marks.xs = xs
            self.series[name] = marks

    def make_why(self, region: Region) -> None:
        """Why BLAS differs: the same three floats, summed in two orders."""
        d = self.data
        a, b, c = (repr(x) for x in d.sum_terms)
        left, right = d.sum_orders
        self.why_title = label("float sums depend on their order", size=LABEL, color=FG)
        self.why_left = mono(f"({a} + {b}) + {c}\n= {left!r}", size=LABEL)
        self.why_right = mono(f"{a} + ({b} + {c})\n= {right!r}", size=LABEL)
        self.why_neq = math("!=" if left != right else "=", size=LABEL + 10, color=ACCENT)
        self.why = VGroup(self.why_title, self.why_left, self.why_neq, self.why_right).arrange(DOWN, buff=0.25)
        self.why_values = (left, right)
        self.inference = fit_label("In real inference, a cached step equals a full recompute bit for bit only if "
                                   "every sum runs in one fixed order.", region.width - 0.2, size=LABEL, color=DIM,
                                   max_lines=4, align=ORIGIN)
        VGroup(self.why, self.inference).arrange(DOWN, buff=0.5)
        region.fit(VGroup(self.why, self.inference), max_scale=1.25)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T, dm = d.Y_full.shape
        full, prefix = self.full, self.prefix

        def rows_of(hm, i):
            return VGroup(*hm.cells[i], *(hm.labels[i * dm:(i + 1) * dm] if hm.show_values else []))

        full_rows = [VGroup(rows_of(full, i), self.full_labels[i]) for i in range(T)]
        self.beat("full", FadeIn(self.full_head), FadeIn(self.bar),
                  LaggedStart(*[FadeIn(r, shift=0.15 * RIGHT) for r in full_rows], lag_ratio=0.15), run_time=1.6)
        self.remove(*full_rows)
        self.add(full, self.full_labels)
        prefix_rows = [VGroup(rows_of(prefix, i), self.prefix_labels[i]) for i in range(T - 1)]
        self.beat("prefix", FadeIn(self.prefix_head),
                  LaggedStart(*[FadeIn(r, shift=0.15 * LEFT) for r in prefix_rows], lag_ratio=0.15), run_time=1.6)

        # the prefix rows slide onto the full rows, land on the same colours and numbers, and
        # hand over: the full row stays, with a mark that it matched
        dx = full.get_center()[0] - prefix.get_center()[0]
        self.landed = []
        slides = []
        for i, r in enumerate(prefix_rows):
            self.landed.append(rows_of(prefix, i)[0].get_center() + dx * RIGHT)
            slides.append(Succession(
                r.animate(run_time=0.7).shift(dx * RIGHT),
                AnimationGroup(FadeOut(r, run_time=0.25), Create(self.checks[i], run_time=0.35)),
            ))
        self.beat("slide", FadeOut(self.prefix_head),
                  Succession(LaggedStart(*slides, lag_ratio=0.3, run_time=2.2),
                             AnimationGroup(Create(self.landed_outline), FadeIn(self.same, shift=0.1 * UP), run_time=0.6)),
                  run_time=2.8, hold=0.4)
        self.beat("last_row", Create(self.new_row), FadeIn(self.new_tag), run_time=1.0)

        # every prefix, measured
        p = self.plot
        self.play(FadeOut(self.same), run_time=0.4)
        self.beat("every_prefix", FadeIn(self.plot_title), Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels),
                  FadeIn(p.y_tick_labels), FadeIn(p.x_axis_label),
                  LaggedStart(*[FadeIn(mk) for mk in self.series["fixed"]], lag_ratio=0.15),
                  FadeIn(self.key_fixed), FadeIn(self.key_zero), run_time=1.8)
        self.fixed_max = self.key_fixed.value
        self.blas_max = self.key_blas.value
        self.beat("bitwise", Indicate(self.fixed_max, color=GOOD, scale_factor=1.4), run_time=1.0)
        self.beat("blas" if d.max_blas != 0.0 else "blas_same", LaggedStart(*[FadeIn(mk) if mk.exact else GrowFromEdge(mk, DOWN)
                                        for mk in self.series["blas"]], lag_ratio=0.15),
                  FadeIn(self.key_blas), run_time=1.6)

        # the aside: why the order matters; the map steps aside for it, and comes back at the end
        self.left_group = VGroup(self.bar, full, self.full_labels, self.full_head, self.checks, self.landed_outline,
                                 self.new_row, self.new_tag)
        self.play(FadeOut(self.left_group), run_time=0.6)
        self.beat("why", FadeIn(self.why, shift=0.15 * UP), run_time=1.2)
        self.beat("inference", FadeIn(self.inference, shift=0.15 * UP), run_time=1.0)
        self.play(FadeOut(self.why), FadeOut(self.inference), run_time=0.6)
        self.play(FadeIn(self.left_group), run_time=0.8)


# ====================================================================== 05 KVCache
@dataclass(frozen=True)
class KVCacheData:
    """What clip 05 draws: ``kv_cache_decode`` on the lecture inputs, and what bidirectional
    attention does to past outputs when a token is appended."""

    trace: KVCacheTrace  # steps: q_t, K/V caches, weights, y_t, recompute_defect
    max_defect: float  # max over steps of |cached − full recompute|
    Y_bidir: tuple[np.ndarray, ...]  # prefix_outputs(causal=False): (t+1, d) after t+1 tokens
    staleness: tuple[np.ndarray, ...]  # bidirectional_staleness: entry t-1 is (t,) change of past rows
    min_stale: float  # the smallest change of any past row, over all steps
    causal_change_max: float  # the same measure for causal attention (exactly 0.0)


class KVCache(ClipScene):
    """05 · The KV cache: append one key and value per token, compute only the new query's row."""

    TIDY_PLAYS = True

    MAX_CELL_W, MAX_CELL_H = 1.25, 0.9  # cache / output cells, at most
    BAR_LEN = 1.2  # a weight of 1 as a bar
    GAP = 0.4  # between the column blocks

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> KVCacheData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv)
        stale = bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv)
        causal = append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True)
        return KVCacheData(
            trace=tr, max_defect=tr.max_defect,
            Y_bidir=tuple(prefix_outputs(li.X, li.Wq, li.Wk, li.Wv, causal=False)),
            staleness=tuple(stale), min_stale=float(min(s.min() for s in stale)),
            causal_change_max=float(max(c.max() for c in causal)),
        )

    def caption_values(self) -> dict:
        d = self.data
        return {"T": len(d.trace.steps), "max_defect": fmt_measure(d.max_defect),
                "min_stale": fmt_measure(d.min_stale), "causal_change_max": fmt_measure(d.causal_change_max),
                "max_stale": fmt_measure(max(float(s.max()) for s in d.staleness))}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        """Columns K | weights | V | outputs | check, one row per token; the query above K;
        the legend beside the query; the proof under the rows."""
        d = self.data
        steps = d.trace.steps
        T = len(steps)
        C = self.layout.content
        K, V, Y = steps[-1].K_cache, steps[-1].V_cache, d.trace.Y_cached
        dm = K.shape[1]
        self.scale = ColorScale.symmetric(
            self.cfg.cmap_signed, np.concatenate([K.ravel(), V.ravel(), Y.ravel(), *[s.q for s in steps]]))

        self.proof = measure_line('max_t |Y_"cached" - Y_"recompute"|', d.max_defect, note="at every step",
                                  size=LABEL + 2)
        self.proof_value = self.proof[2]
        bottom, rest = C.take_bottom(self.proof.height, gap=0.35)
        # the colour bar of every cache and output cell, bottom right; the proof and the tokens beside it
        m = self.scale.norm.vmax
        tick = float(np.floor(m * 10) / 10) or m
        self.bar = ColorBar(self.scale, height=2.2, horizontal=True, ticks=[-tick, 0.0, tick],
                            tick_format=lambda v: fmt_value(v, 1))
        bar_strip, proof_strip = bottom.take_right(self.bar.width + 0.3, gap=0.4)
        bar_strip.place(self.bar, RIGHT)
        proof_strip.fit(self.proof)

        # the tokens, in the order decoding reads them (the proof takes their place at the end)
        chips = VGroup()
        for i in range(T):
            name = math(f"x_{i}", size=LABEL)
            box = RoundedRectangle(corner_radius=0.1, width=name.width + 0.4, height=proof_strip.height * 0.9,
                                   stroke_color=token_color(i), stroke_width=3, fill_color=token_color(i),
                                   fill_opacity=0.12)
            name.move_to(box)
            overlay(box, name)
            chips.add(VGroup(box, name))
        chips.arrange(RIGHT, buff=0.25)
        self.tokens = VGroup(label("tokens", size=SMALL, color=DIM), chips).arrange(RIGHT, buff=0.4)
        self.chips = chips
        proof_strip.fit(self.tokens)
        head_probe = label("K cache", size=SMALL)
        heads_strip, rest = rest.take_top(head_probe.height, gap=0.2)

        lab_w = math(f"k_{T - 1}", size=LABEL).width + 0.22
        num_w = label("0.00", size=SMALL).width
        w_col = num_w + 0.15 + self.BAR_LEN
        chk_w = 0.45
        fixed = 3 * lab_w + w_col + chk_w + 4 * self.GAP
        cw = min(self.MAX_CELL_W, (rest.width - fixed) / (3 * dm))
        q_gap = 0.35
        q_min = 2 * label("x", size=SMALL).height + 0.35  # the query row holds two lines of notes
        ch = min(self.MAX_CELL_H, (rest.height - q_gap) / (T + 1.3), (rest.height - q_gap - q_min) / T)
        self.cell_w, self.cell_h = cw, ch
        q_row_h = max(1.3 * ch, q_min)
        drop = max(0.0, rest.height - q_row_h - q_gap - T * ch) / 2  # few tokens: the picture sits mid-height
        rows_top = rest.top - drop - q_row_h - q_gap

        # x of each block's left edge, the whole row centred in the content
        total = fixed + 3 * dm * cw
        x = C.center[0] - total / 2
        xs = {}
        for name, w in (("K", lab_w + dm * cw), ("W", w_col), ("V", lab_w + dm * cw), ("Y", lab_w + dm * cw),
                        ("C", chk_w)):
            xs[name] = x
            x += w + self.GAP
        self.row_y = lambda i: rows_top - (i + 0.5) * ch

        def block(values, key):
            hm = Heatmap(values, self.scale, (cw, ch))
            hm.move_to([xs[key] + lab_w + dm * cw / 2, rows_top - T * ch / 2, 0])
            return hm

        self.K_map, self.V_map, self.Y_map = block(K, "K"), block(V, "V"), block(Y, "Y")
        self.slots = VGroup()
        for hm in (self.K_map, self.V_map, self.Y_map):
            for i in range(T):
                r = Rectangle(width=dm * cw, height=ch, stroke_color=DIM, stroke_width=1.5, stroke_opacity=0.6)
                self.slots.add(r.move_to(VGroup(*hm.cells[i])))  # an empty cache slot

        def row_labels(name, hm):
            return VGroup(*[math(f"{name}_{i}", size=LABEL, color=token_color(i)).next_to(hm.cell(i, 0), LEFT, buff=0.18)
                            for i in range(T)])

        self.k_labels = row_labels("k", self.K_map)
        self.v_labels = row_labels("v", self.V_map)
        self.y_labels = row_labels("y", self.Y_map)
        hy = heads_strip.center[1] - drop
        self.heads = VGroup(
            label("K cache", size=SMALL).move_to([self.K_map.get_center()[0], hy, 0]),
            label("weights", size=SMALL).move_to([xs["W"] + w_col / 2, hy, 0]),
            label("V cache", size=SMALL).move_to([self.V_map.get_center()[0], hy, 0]),
            label("outputs", size=SMALL).move_to([self.Y_map.get_center()[0], hy, 0]),
        )
        base = baseline_y(self.heads[0])
        for h in self.heads[1:]:  # one baseline for all four, whatever their descenders
            h.shift((base - baseline_y(h)) * UP)

        # the query row above the K cache, its note above the weights
        q_y = rest.top - drop - q_row_h / 2
        self.q_map = Heatmap(steps[0].q[None, :], self.scale, (cw, ch * 1.3)).move_to([self.K_map.get_center()[0], q_y, 0])
        self.q_label = math("q_0", size=LABEL, color=ACCENT).next_to(self.q_map, LEFT, buff=0.18)
        self.q_slot = Rectangle(width=dm * cw, height=ch * 1.3, stroke_color=DIM, stroke_width=1.5,
                                stroke_opacity=0.6).move_to(self.q_map)
        self.q_note = fit_label("only the new query", w_col + 0.2, size=SMALL, color=DIM, max_lines=2)
        self.q_note.move_to([xs["W"] + w_col / 2, q_y, 0])

        # the legend, beside the query over the V and output columns
        swatch = Square(0.3, stroke_color=ACCENT, stroke_width=3, fill_opacity=0)
        self.legend = VGroup(swatch, label("computed this step", size=SMALL)).arrange(RIGHT, buff=0.2)
        self.legend_cached = VGroup(check_mark(0.3), label("equals a full recompute", size=SMALL)).arrange(RIGHT, buff=0.2)
        legend = VGroup(self.legend, self.legend_cached).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
        Region(xs["V"], C.right, q_y - q_row_h / 2, q_y + q_row_h / 2).place(legend, LEFT)

        # per step: the weights (numbers and bars), the row's check
        self.weight_groups = []
        for s in steps:
            nums = VGroup(*[label(fmt_value(w, 2), size=SMALL).move_to([xs["W"] + num_w / 2, self.row_y(i), 0])
                            for i, w in enumerate(s.weights)])
            bars = RowBars(s.weights, vmax=1.0, length=self.BAR_LEN, row_height=ch, thickness=min(0.28, ch * 0.55),
                           colors=[token_color(i) for i in range(len(s.weights))])
            bars.shift(np.array([xs["W"] + num_w + 0.15 - bars.bars[0].get_left()[0],
                                 self.row_y(0) - bars.bars[0].get_center()[1], 0]))
            self.weight_groups.append(VGroup(nums, bars))
        self.status = []  # what each row's check stands for: the step's measured recompute defect
        self.checks = VGroup()
        for s in steps:
            where = [xs["C"] + chk_w / 2, self.row_y(s.t), 0]
            if s.recompute_defect == 0.0:
                mk = check_mark(0.3).move_to(where)
            else:
                mk = label(fmt_measure(s.recompute_defect), size=SMALL, color=ACCENT).move_to(where)
            mk.defect = s.recompute_defect
            self.status.append(fmt_measure(s.recompute_defect))
            self.checks.add(mk)

        def frame_row(hm, i, color):
            return SurroundingRectangle(VGroup(*hm.cells[i]), color=color, buff=0.04, stroke_width=3)

        self.frame_row = frame_row

    def step_anims(self, t: int, first: bool = False) -> list:
        """Token t arrives: its k, v rows join the caches, q_t attends, y_t is written."""
        d = self.data
        s = d.trace.steps[t]
        anims = []
        if not first:
            prev = self.weight_groups[t - 1]
            anims.append(FadeOut(prev, run_time=0.3))
            anims.append(morph_cells(self.q_map, s.q[None, :], [(0, j) for j in range(len(s.q))]))
            new_q = math(f"q_{t}", size=LABEL, color=ACCENT).move_to(self.q_label)
            anims.append(swap(self.q_label, new_q))
            self.q_label = new_q
        targets = [self.frame_row(hm, t, ACCENT) for hm in (self.K_map, self.V_map, self.Y_map)]
        if first:
            self.markers = VGroup(*targets).set_z_index(2)  # in front of the rows that arrive after it
            place = [Create(m) for m in self.markers[:2]]
            place_y = Create(self.markers[2])
        else:
            place = [m.animate.move_to(tg) for m, tg in zip(self.markers[:2], targets[:2])]
            place_y = self.markers[2].animate.move_to(targets[2])
        anims.append(self.chips[t][0].animate.set_fill(opacity=0.35).set_stroke(width=5))  # read
        cache_in = AnimationGroup(
            FadeIn(VGroup(*self.K_map.cells[t], self.k_labels[t]), shift=0.25 * DOWN),
            FadeIn(VGroup(*self.V_map.cells[t], self.v_labels[t]), shift=0.25 * DOWN),
            *place, *anims,
        )
        wg = self.weight_groups[t]
        attend = AnimationGroup(FadeIn(wg[0]), *[GrowFromEdge(b, LEFT) for b in wg[1].bars])
        write = AnimationGroup(
            FadeIn(VGroup(*self.Y_map.cells[t], self.y_labels[t]), shift=0.2 * LEFT),
            place_y,
            Create(self.checks[t]) if self.checks[t].defect == 0.0 else FadeIn(self.checks[t]),
        )
        return [cache_in, attend, write]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = len(d.trace.steps)

        # the empty caches: one slot per token, filled as decoding goes
        self.beat("setup", FadeIn(self.heads), FadeIn(self.tokens), FadeIn(self.bar), LaggedStart(*[Create(s) for s in self.slots], lag_ratio=0.02),
                  Create(self.q_slot), run_time=1.2)
        a = self.step_anims(0, first=True)
        self.beat("step0", Succession(AnimationGroup(a[0], FadeIn(self.q_map), FadeIn(self.q_label), FadeIn(self.q_note)),
                                      a[1], a[2]), run_time=2.6)
        a = self.step_anims(1)
        self.beat("step1", Succession(*a), run_time=2.4)
        self.beat_plays("rest", [self.step_anims(t) for t in range(2, T)], run_time=1.3)
        self.beat("legend", FadeIn(self.legend, shift=0.1 * UP), FadeIn(self.legend_cached, shift=0.1 * UP),
                  run_time=1.0)
        self.beat("equal", Succession(FadeOut(self.tokens, run_time=0.4), FadeIn(self.proof, shift=0.15 * UP)),
                  run_time=1.2)
        self.bidirectional()

    def bidirectional(self) -> None:
        """Without the mask: every past output moves when a token arrives; a cache would be stale."""
        d = self.data
        T = len(d.trace.steps)
        C = self.layout.content
        out = VGroup(self.K_map, self.V_map, self.q_map, self.q_label, self.q_note, self.k_labels, self.v_labels, self.bar,
                     self.weight_groups[-1], self.checks, self.markers, self.legend, self.legend_cached, self.proof,
                     self.heads, self.Y_map, self.y_labels, self.slots, self.q_slot)
        self.play(FadeOut(out), run_time=0.8)

        # bottom: the two measured proofs, one row each
        self.proof_bi = measure_line("scripts(min)_(t, i < t) norm(Delta y_i)", d.min_stale, size=LABEL + 2, good=False,
                                     note="every past row moved" if d.min_stale > 0.0 else "not every row moved")
        self.proof_causal = measure_line("scripts(max)_(t, i < t) norm(Delta y_i)", d.causal_change_max,
                                         note="nothing moves", size=LABEL + 2, good=d.causal_change_max == 0.0)
        heads = [label("bidirectional", size=LABEL, color=DIM), label("causal", size=LABEL, color=DIM)]
        lines = VGroup(self.proof_bi, self.proof_causal).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        rows = []
        for h, p in zip(heads, lines):  # heads right-aligned, formulas left-aligned
            h.move_to([lines.get_left()[0] - 0.35 - h.width / 2, p[1].get_center()[1], 0])
            rows.append(VGroup(h, p))
        self.proof_bi_row, self.proof_causal_row = rows
        proofs = VGroup(*rows)
        proof_strip, top = C.take_bottom(proofs.height, gap=0.35)
        proof_strip.place(proofs)
        self.stale_value, self.causal_value = self.proof_bi[2], self.proof_causal[2]

        # left: the bidirectional outputs, one row per token so far, on their own colour scale
        dm = d.Y_bidir[-1].shape[1]
        # the scale ends at the last picture's largest value (the outputs shrink towards averages as
        # tokens arrive); an earlier value beyond it takes the end colour, and the bar's end says so
        self.bi_scale = ColorScale.symmetric(self.cfg.cmap_signed, d.Y_bidir[-1])
        m = self.bi_scale.norm.vmax
        clipped = any(float(np.abs(y).max()) > m for y in d.Y_bidir)

        def bar_tick(v):
            s = fmt_value(v, 2)
            return s if not clipped or v == 0 else ("\u2265 " if v > 0 else "\u2264 ") + s

        self.bi_ticks = [-m, 0.0, m]
        self.bi_tick_text = [bar_tick(v) for v in self.bi_ticks]
        title = label("bidirectional outputs", size=LABEL)
        lab_w = math(f"y_{T - 1}", size=LABEL).width + 0.22
        probe = ColorBar(self.bi_scale, height=2.0, ticks=[-m, m], tick_format=bar_tick)
        bar_w = probe.width + 0.3
        left_w = max(C.width * 0.38, title.width)
        left, right = top.take_left(left_w, gap=0.6)
        title_strip, maps = left.take_top(title.height, gap=0.25)
        title_strip.place(title)
        cw = min(1.2, (maps.width - lab_w - bar_w) / dm)
        ch = min(0.9, maps.height / T)
        stages = []
        for t in range(T):
            st = np.array(d.Y_bidir[-1], dtype=float)
            st[: t + 1] = d.Y_bidir[t]
            stages.append(st)
        self.bi_map = Heatmap(stages[0], self.bi_scale, (cw, ch))
        for i in range(1, T):
            for cell in self.bi_map.cells[i]:
                cell.set_fill(opacity=0.0)
        maps_block = Region(maps.left + lab_w, maps.right - bar_w, maps.bottom, maps.top)
        maps_block.place(self.bi_map, UP)
        self.bi_title = title.set_x(self.bi_map.get_center()[0])
        if not left.contains(self.bi_title):  # wider than the map: centred in the column instead
            left.place(self.bi_title, UP)
        self.bi_labels = VGroup(*[math(f"y_{i}", size=LABEL, color=token_color(i))
                                  .next_to(self.bi_map.cell(i, 0), LEFT, buff=0.18) for i in range(T)])
        self.bi_bar = ColorBar(self.bi_scale, height=T * ch * 0.8, ticks=self.bi_ticks, tick_format=bar_tick)
        self.bi_bar.next_to(self.bi_map, RIGHT, buff=0.3)
        self.bi_slots = VGroup(*[
            Rectangle(width=dm * cw, height=ch, stroke_color=DIM, stroke_width=1.5, stroke_opacity=0.6)
            .move_to(VGroup(*self.bi_map.cells[i])) for i in range(T)])
        self.bi_stages = stages

        # right: how far each past row moved when token t was appended (log scale: 0.01 and 3 both visible)
        hi = max(float(s.max()) for s in d.staleness)
        lo = d.min_stale
        y_lo = 10.0 ** np.floor(np.log10(lo) - 0.5)
        y_hi = 10.0 ** np.ceil(np.log10(hi) + 0.01)
        ticks = [10.0 ** k for k in range(int(round(np.log10(y_lo))), int(round(np.log10(y_hi))) + 1)]
        fmt = lambda v: f"{v:g}" if v >= 1e-3 else fmt_measure(v)  # noqa: E731
        tick_w = max(label(fmt(v), size=SMALL).width for v in ticks) + 0.25
        th = label("x", size=SMALL).height
        width = right.width - tick_w
        height = right.height - 3 * (th + 0.2) - 0.2
        self.plot = Plot((0.4, T - 0.4), (y_lo, y_hi), width=width, height=height, y_log=True,
                         x_ticks=list(range(1, T)), y_ticks=ticks, x_label="token appended",
                         y_label="change of each past output", tick_format=fmt)
        self.plot.shift([right.right - self.plot.axes.get_right()[0],
                         right.top - (th + 0.3) - self.plot.axes.get_top()[1], 0])
        self.bar_groups = []
        gap = min(0.15, 0.8 / max(T - 1, 1))  # data units between a group's bars
        unit = self.plot.width_units / (self.plot.x_range[1] - self.plot.x_range[0])
        for t, s in enumerate(d.staleness, start=1):
            xs = [t + (i - (t - 1) / 2) * gap for i in range(t)]
            self.bar_groups.append(self.plot.bars(xs, s, bar_width=gap * unit * 0.75,
                                                  colors=[token_color(i) for i in range(t)]))
        self.bar_x = [[t + (i - (t - 1) / 2) * gap for i in range(t)] for t in range(1, T)]

        first = VGroup(*self.bi_map.cells[0])
        p = self.plot
        self.add(self.bi_map)
        self.beat("bidir", FadeIn(self.bi_title), FadeIn(self.bi_slots), FadeIn(first), FadeIn(self.bi_labels[0]),
                  FadeIn(self.bi_bar), Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels),
                  FadeIn(p.y_tick_labels), FadeIn(p.x_axis_label), FadeIn(p.y_axis_label), run_time=1.4)
        plays = []
        for t in range(1, T):
            moved = VGroup(*[self.frame_row(self.bi_map, i, ACCENT) for i in range(t)])
            plays.append([AnimationGroup(
                morph_cells(self.bi_map, stages[t], [(i, j) for i in range(t + 1) for j in range(dm)]),
                FadeIn(self.bi_labels[t]),
                Succession(FadeIn(moved, run_time=0.3), FadeOut(moved, run_time=0.4)),
                *[GrowFromEdge(b, DOWN) for b in self.bar_groups[t - 1]],
            )])
        self.beat_plays("stale", plays, run_time=1.15, hold=0.5)
        self.beat("proof_bidir" if d.min_stale > 0.0 else "proof_bidir_some", FadeIn(self.proof_bi_row, shift=0.15 * UP),
                  run_time=0.9)
        self.beat("proof_causal", FadeIn(self.proof_causal_row, shift=0.15 * UP), run_time=0.9)
