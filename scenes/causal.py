"""Causal clips.

03 ``CausalMask`` (§3): the score heatmap; the future is masked one diagonal at a time to
−∞; softmax row by row turns every −∞ into an exact 0; self-attention and causal
attention side by side; the three lines of code beside the picture.  Proof on screen:
every causal row sums to 1 (measured) and every weight above the diagonal is exactly 0.

04 ``PrefixInvariance`` (§4): the causal pass on all T tokens and on the first T−1; the
prefix outputs slide onto the full ones; the max difference over every prefix, measured
(``0.0``, bitwise); the same check with a BLAS matmul kernel, honestly measured.

05 ``KVCache`` (§4, Q2): decoding token by token with a K/V cache (one new row each step,
only the new query computed), equal to a full recompute at every step (measured); then
bidirectional attention, where appending a token moves every past output.

Render directly with ``manim -ql scenes/causal.py CausalMask`` (or PrefixInvariance, KVCache).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    Indicate,
    LaggedStart,
    Line,
    ReplacementTransform,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
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
from scenes.kit.base import Caption, reading_time
from scenes.kit import (
    ACCENT,
    BAD,
    DIM,
    FAINT,
    FG,
    GOOD,
    LABEL,
    SMALL,
    ClipScene,
    ColorScale,
    Heatmap,
    LabelledMatrix,
    Plot,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    token_color,
)
from scenes.kit.causal_widgets import (
    CodePanel,
    ExactHeatmap,
    MeasureTable,
    RowBars,
    measure_line,
    staircase_outline,
)

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

    CELL = 0.88  # score / weight cells with numbers (T <= 6)
    SMALL_CELL = 0.56  # side-by-side heatmaps, colours only
    MAP_LEFT = 0.78  # left edge of the big heatmap
    PAIR_X = 2.75  # side by side: centres at ∓PAIR_X

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
        d = self.data
        T = d.scaled.shape[0]
        top = self.content_top
        self.score_scale = ColorScale.symmetric(d.cmap_signed, d.scaled)
        self.weight_scale = ColorScale(d.cmap_weights, 0.0, 1.0)

        self.code = CodePanel(CAUSAL_CODE)
        self.code.move_to([0, 0, 0]).to_edge(LEFT, buff=0.4).set_y(top - 0.1 - self.code.height / 2)

        # the big heatmap: scores, then weights in the same cells
        self.S_map = Heatmap(d.scaled, self.score_scale, cell_size=self.CELL, show_values=True, decimals=1)
        self.S_map.move_to([0, 0, 0]).shift(
            (self.MAP_LEFT - self.S_map.get_left()[0]) * RIGHT + (top - 0.45 - self.S_map.get_top()[1]) * UP)
        self.A_map = ExactHeatmap(d.weights, self.weight_scale, cell_size=self.CELL, show_values=True, decimals=2)
        self.A_map.move_to(self.S_map)
        self.A_map_printed = list(self.A_map.labels)  # the weight labels as printed (row-major)
        self.row_idx = self.S_map.index_labels("rows", buff=0.15)
        self.col_idx = self.S_map.index_labels("cols")
        note_x = self.code.get_center()[0]
        note_top = self.code.get_bottom()[1] - 0.55
        self.S_note = VGroup(
            math(r"S_(i j) = (q_i dot k_j) \/ sqrt(d)", size=LABEL + 4),
            label("row i: query i", size=SMALL, color=DIM),
            label("column j: key j", size=SMALL, color=DIM),
        ).arrange(DOWN, buff=0.3)
        self.S_note.move_to([note_x, note_top - self.S_note.height / 2, 0])
        # row sums of the causal A, beside each row
        self.sum_head = label("\u03a3", size=LABEL, color=GOOD).next_to(self.A_map.cell(0, T - 1), RIGHT, buff=0.15)
        self.sum_head.set_y(self.col_idx.get_center()[1])
        self.sum_labels = VGroup(*[
            label(fmt_value(s, 2), size=SMALL, color=GOOD).next_to(self.A_map.cell(i, T - 1), RIGHT, buff=0.15)
            for i, s in enumerate(d.row_sums)
        ])
        self.sum_head.set_x(self.sum_labels.get_center()[0])

        # the mask itself, 1 = may attend, under the code
        self.mask_map = Heatmap(d.mask.astype(float), self.weight_scale, cell_size=0.45, show_values=True, decimals=0)
        self.mask_map.move_to([note_x + 0.6, note_top - 0.2 - self.mask_map.height / 2, 0])
        self.mask_name = mono("mask", size=LABEL).next_to(self.mask_map, LEFT, buff=0.35)
        self.mask_note = label("1 = may attend", size=SMALL, color=DIM).next_to(self.mask_map, DOWN, buff=0.2)

        self.exp_note = VGroup(
            math("A_(i j) = e^(S_(i j)) / (sum_(k <= i) e^(S_(i k)))", size=LABEL),
            math("e^(-infinity) = 0", size=LABEL),
        ).arrange(DOWN, buff=0.45, aligned_edge=LEFT)
        self.exp_note.move_to([note_x, note_top - 0.2 - self.exp_note.height / 2, 0])

    def side_by_side_layout(self):
        """Targets for the final picture: self-attention left, causal right, proofs beside the code."""
        d = self.data
        k = self.SMALL_CELL / self.CELL
        y = self.code.get_bottom()[1] - 0.8
        self.A_small = Heatmap(d.weights, self.weight_scale, cell_size=self.SMALL_CELL)
        self.A_small.move_to([self.PAIR_X, 0, 0]).shift((y - self.A_small.get_top()[1]) * UP)
        self.self_map = Heatmap(d.weights_self, self.weight_scale, cell_size=self.SMALL_CELL)
        self.self_map.move_to([-self.PAIR_X, self.A_small.get_center()[1], 0])
        self.self_title = label("self-attention", size=LABEL, color=FG).next_to(self.self_map, UP, buff=0.18)
        self.causal_title = label("causal attention", size=LABEL, color=FG).next_to(self.A_small, UP, buff=0.18)
        self.mask_arrow = Arrow(self.self_map.get_right() + 0.15 * RIGHT, self.A_small.get_left() + 0.15 * LEFT,
                                buff=0, color=DIM, stroke_width=4)
        self.arrow_note = label("mask", size=SMALL, color=DIM).next_to(self.mask_arrow, UP, buff=0.12)
        self.zero_outline = staircase_outline(self.A_small, color=GOOD, stroke_width=3, upper=True)

        x0 = self.code.get_right()[0] + 0.5
        self.proof_sum = measure_line("max_i |sum_j A_(i j) - 1|", d.row_sum_defect, size=LABEL)
        self.proof_zero = measure_line("max_(j > i) A_(i j)", d.upper_max, note="exactly", size=LABEL,
                                       good=d.upper_max == 0.0)
        proofs = VGroup(self.proof_sum, self.proof_zero).arrange(DOWN, buff=0.35, aligned_edge=LEFT)
        proofs.move_to([x0 + proofs.width / 2, self.code.get_center()[1], 0])
        self.sum_value, self.zero_value = self.proof_sum[2], self.proof_zero[2]
        return k

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.scaled.shape[0]
        S = self.S_map

        self.beat("scores", FadeIn(self.S_note), FadeIn(self.col_idx), FadeIn(self.row_idx),
                  LaggedStart(*[FadeIn(VGroup(*S.cells[i], *S.labels[i * T:(i + 1) * T])) for i in range(T)],
                              lag_ratio=0.2),
                  run_time=1.6)
        self.beat("code", FadeIn(self.code, shift=0.2 * RIGHT), run_time=1.0)

        # line 1: the mask
        allowed = staircase_outline(S, color=GOOD, stroke_width=4)
        self.beat("mask", self.code.focus(0), FadeOut(self.S_note), FadeIn(self.mask_name), FadeIn(self.mask_map), FadeIn(self.mask_note),
                  Create(allowed), run_time=1.4)

        # line 2: the future, one diagonal at a time, to -inf
        steps = []
        self.sweep_shown = []  # the arrays the heatmap was animated through, in order
        for k in range(1, T):
            self.sweep_shown.append(d.sweep[k])
            cells = VGroup(*[S.cell(i, i + k) for i in range(T - k)])
            flash = VGroup(*[SurroundingRectangle(c, color=BAD, buff=0, stroke_width=4) for c in cells])
            steps.append(Succession(
                FadeIn(flash, run_time=0.15),
                S.animate_values(d.sweep[k], run_time=0.45),
                FadeOut(flash, run_time=0.15),
            ))
        self.play(self.code.focus(1), run_time=0.5)
        self.beat("sweep", Succession(*steps), run_time=0.75 * (T - 1), hold=0.5)

        # line 3: softmax, row by row; S's row i becomes A's row i
        self.play(self.code.focus(2), FadeOut(self.mask_map), FadeOut(self.mask_name), FadeOut(self.mask_note),
                  FadeOut(allowed), FadeIn(self.exp_note),
                  run_time=0.8)
        self.add(self.sum_head)
        rows = []
        for i in range(T):
            src = VGroup(*S.cells[i], *S.labels[i * T:(i + 1) * T])
            dst = VGroup(*self.A_map.cells[i], *self.A_map.labels[i * T:(i + 1) * T])
            rows.append(AnimationGroup(ReplacementTransform(src, dst), FadeIn(self.sum_labels[i], shift=0.1 * LEFT)))
        self.beat("softmax", LaggedStart(*rows, lag_ratio=0.6), run_time=0.6 * T + 0.6, hold=0.4)
        self.remove(*[m for i in range(T) for m in (*self.A_map.cells[i], *self.A_map.labels[i * T:(i + 1) * T])])
        self.add(self.A_map)
        zeros = staircase_outline(self.A_map, color=GOOD, stroke_width=4, upper=True)
        self.beat("zeros", Create(zeros), run_time=1.0)

        # side by side, with the proofs
        self.side_by_side_layout()
        target = self.A_small.copy()
        self.play(
            FadeOut(zeros), FadeOut(self.exp_note), FadeOut(self.sum_labels), FadeOut(self.sum_head),
            FadeOut(self.row_idx), FadeOut(self.col_idx), FadeOut(self.A_map.labels), self.code.unfocus(), run_time=0.6,
        )
        self.A_map.remove(self.A_map.labels)
        self.beat("side_by_side",
                  AnimationGroup(ReplacementTransform(self.A_map, target), FadeIn(self.causal_title)),
                  LaggedStart(FadeIn(self.self_title), FadeIn(self.self_map), GrowArrow(self.mask_arrow),
                              FadeIn(self.arrow_note), lag_ratio=0.25),
                  run_time=1.6)
        self.remove(target)
        self.add(self.A_small)
        self.beat("proof_sum", FadeIn(self.proof_sum, shift=0.15 * UP), run_time=0.8)
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


class PrefixInvariance(ClipScene):
    """04 · Prefix invariance: the prefix's outputs are the full outputs' first rows, bitwise."""

    COL = 1.25  # output matrices' column pitch
    ROW = 0.52

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
        )

    def caption_values(self) -> dict:
        d = self.data
        T = d.X.shape[0]
        return {"T": T, "T1": T - 1, "last": T - 1, "last_prev": T - 2,
                "max_fixed": fmt_measure(d.max_fixed), "max_blas": fmt_measure(d.max_blas)}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T = d.X.shape[0]
        top = self.content_top
        names = [f"y_{i}" for i in range(T)]
        self.full = LabelledMatrix(d.Y_full, row_labels=names, decimals=2, col_width=self.COL, row_height=self.ROW,
                                   value_size=SMALL, label_size=LABEL)
        self.prefix = LabelledMatrix(d.Y_prefix, row_labels=names[: T - 1], decimals=2, col_width=self.COL,
                                     row_height=self.ROW, value_size=SMALL, label_size=LABEL)
        mat_top = top - 0.75
        self.full.place(-3.45, mat_top - self.full.brackets.height / 2)
        # the prefix's slot i level with the full matrix's slot i
        self.prefix.place(3.75, 0)
        self.prefix.shift((self.full.slot_center(0)[1] - self.prefix.slot_center(0)[1]) * UP)
        self.full_head = math(f'"Attn"(x_0, dots, x_{T - 1})', size=LABEL).next_to(self.full.brackets, UP, buff=0.22)
        self.prefix_head = math(f'"Attn"(x_0, dots, x_{T - 2})', size=LABEL).next_to(self.prefix.brackets, UP, buff=0.22)
        self.prefix_head.set_y(self.full_head.get_center()[1])
        self.full_note = label(f"all {T} tokens", size=SMALL, color=DIM).next_to(self.full_head, RIGHT, buff=0.3)
        self.prefix_note = label(f"first {T - 1} tokens", size=SMALL, color=DIM).next_to(self.prefix_head, RIGHT, buff=0.3)
        for head, note, mat in ((self.full_head, self.full_note, self.full), (self.prefix_head, self.prefix_note, self.prefix)):
            VGroup(head, note).set_x(mat.brackets.get_center()[0])

        # the per-prefix table, right: rows t = 1..T and the max, columns = the two kernels
        rows = [f"t = {t}" for t in range(1, T + 1)] + ["max"]
        vals = np.column_stack([[*d.defects_fixed, d.max_fixed], [*d.defects_blas, d.max_blas]])
        self.table = MeasureTable(vals, rows, ["fixed", "BLAS"], col_pitch=1.75, row_pitch=0.45, head_width=1.05)
        self.table.shift(np.array([3.1, self.full.slot_center(0)[1] - 0.4, 0]) - self.table.cells[0][0].get_center())
        self.table.rows[T].shift(0.12 * DOWN)
        self.table_title = math('max |Y_"full""[:t]" - "Attn"(X"[:t]")|', size=LABEL)
        self.table_title.move_to([self.table.get_center()[0], self.full_head.get_center()[1], 0])
        self.table.col_heads.set_y(self.table_title.get_bottom()[1] - 0.35)
        rule_y = (self.table.rows[T - 1].get_bottom()[1] + self.table.rows[T].get_top()[1]) / 2
        self.max_rule = Line([self.table.get_left()[0], rule_y, 0], [self.table.get_right()[0], rule_y, 0],
                             stroke_color=FAINT, stroke_width=2)
        self.fixed_max = self.table.cells[T][0]
        self.blas_max = self.table.cells[T][1]

        # why BLAS differs: the same three floats, two orders
        a, b, c = (repr(x) for x in d.sum_terms)
        left, right = d.sum_orders
        self.why_left = mono(f"({a}+{b})+{c} = {left!r}", size=SMALL)
        self.why_right = mono(f"{a}+({b}+{c}) = {right!r}", size=SMALL)
        self.why_neq = math("!=" if left != right else "=", size=LABEL, color=ACCENT)
        self.why = VGroup(self.why_left, self.why_neq, self.why_right).arrange(RIGHT, buff=0.35)
        self.why.move_to([0, -1.85, 0])
        self.inference = VGroup(
            label("In real inference, a cached step equals a full recompute bit for bit", size=SMALL),
            label("only if every sum runs in one fixed order.", size=SMALL),
        ).arrange(DOWN, buff=0.12)
        self.inference.move_to([0, -2.62, 0])
        self.why_values = (left, right)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.X.shape[0]
        full, prefix = self.full, self.prefix

        self.beat("full", FadeIn(self.full_head), FadeIn(self.full_note), Create(full.brackets),
                  LaggedStart(*[FadeIn(r, shift=0.15 * RIGHT) for r in full.rows], lag_ratio=0.15), run_time=1.6)
        self.beat("prefix", FadeIn(self.prefix_head), FadeIn(self.prefix_note), Create(prefix.brackets),
                  LaggedStart(*[FadeIn(r, shift=0.15 * LEFT) for r in prefix.rows], lag_ratio=0.15), run_time=1.6)

        # the prefix rows slide onto the full rows and land on the same numbers
        shift = full.brackets.get_center() - prefix.brackets.get_center()
        shift[1] = 0.0
        slides = [r.animate(path_arc=-0.25).shift(shift).set_color(GOOD) for r in prefix.rows]
        self.beat("slide", LaggedStart(*slides, lag_ratio=0.18), FadeOut(prefix.brackets), FadeOut(self.prefix_head),
                  FadeOut(self.prefix_note), run_time=2.0, hold=0.4)
        self.landed = [r[0].get_center() for r in prefix.rows]
        new_row = SurroundingRectangle(full.rows[T - 1], color=ACCENT, buff=0.08, stroke_width=3)
        new_tag = label("new", size=SMALL, color=ACCENT).next_to(new_row, RIGHT, buff=0.25)
        self.beat("last_row", Create(new_row), FadeIn(new_tag), run_time=1.0)

        # every prefix, measured
        t = self.table
        self.beat("every_prefix", FadeOut(self.full_note), self.full_head.animate.set_x(full.brackets.get_center()[0]),
                  FadeIn(self.table_title), FadeIn(t.col_heads[0]), FadeIn(t.row_heads),
                  Create(self.max_rule),
                  LaggedStart(*[FadeIn(row[0], shift=0.1 * LEFT) for row in t.cells], lag_ratio=0.15), run_time=1.8)
        self.beat("bitwise", Indicate(self.fixed_max, color=GOOD, scale_factor=1.4), run_time=1.0)

        # the BLAS aside
        self.beat("blas", FadeIn(t.col_heads[1]),
                  LaggedStart(*[FadeIn(row[1], shift=0.1 * LEFT) for row in t.cells], lag_ratio=0.15), run_time=1.6)
        self.beat("why", FadeIn(self.why, shift=0.15 * UP), run_time=1.2)
        self.beat("inference", FadeIn(self.inference, shift=0.15 * UP), run_time=1.0)


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

    CELL = 0.5
    ROW = 0.52  # row pitch shared by K, weights, V, Y
    X_K, X_W, X_B, X_V, X_Y, X_S = -5.05, -3.35, -2.8, 0.2, 3.35, 5.55  # column centres / bar start

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
                "min_stale": fmt_measure(d.min_stale), "causal_change_max": fmt_measure(d.causal_change_max)}

    # ------------------------------------------------------------------ layout
    def row_y(self, i: int) -> float:
        return self.rows_top - i * self.ROW

    def make_mobjects(self) -> None:
        d = self.data
        steps = d.trace.steps
        T = len(steps)
        top = self.content_top
        K, V, Y = steps[-1].K_cache, steps[-1].V_cache, d.trace.Y_cached
        self.scale = ColorScale.symmetric(
            self.cfg.cmap_signed, np.concatenate([K.ravel(), V.ravel(), Y.ravel(), *[s.q for s in steps]]))
        self.heads_y = top - 0.25
        self.q_y = top - 0.8
        self.rows_top = top - 1.45

        def rows_map(values, x):
            hm = Heatmap(values, self.scale, cell_size=self.CELL)
            hm.move_to([x, self.rows_top - (values.shape[0] - 1) * self.ROW / 2, 0])
            for i in range(values.shape[0]):  # rows ROW apart (a little air between cache rows)
                VGroup(*hm.cells[i]).set_y(self.row_y(i))
            return hm

        self.K_map = rows_map(K, self.X_K)
        self.V_map = rows_map(V, self.X_V)
        self.Y_map = rows_map(Y, self.X_Y)
        self.q_map = Heatmap(steps[0].q[None, :], self.scale, cell_size=self.CELL).move_to([self.X_K, self.q_y, 0])
        self.q_label = math("q_0", size=LABEL, color=ACCENT).next_to(self.q_map, LEFT, buff=0.2)

        def row_labels(name, hm):
            return VGroup(*[math(f"{name}_{i}", size=LABEL, color=token_color(i)).next_to(hm.cell(i, 0), LEFT, buff=0.2)
                            for i in range(T)])

        self.k_labels = row_labels("k", self.K_map)
        self.v_labels = row_labels("v", self.V_map)
        self.y_labels = row_labels("y", self.Y_map)
        self.heads = VGroup(
            label("K cache", size=SMALL, color=FG).move_to([self.X_K, self.heads_y, 0]),
            label("weights", size=SMALL, color=FG).move_to([(self.X_W + self.X_B + 1.1) / 2, self.heads_y, 0]),
            label("V cache", size=SMALL, color=FG).move_to([self.X_V, self.heads_y, 0]),
            label("outputs", size=SMALL, color=FG).move_to([self.X_Y, self.heads_y, 0]),
            label("vs recompute", size=SMALL, color=DIM).move_to([self.X_S + 0.1, self.heads_y, 0]),
        )
        self.q_note = label("only the new query", size=SMALL, color=DIM).next_to(self.q_map, RIGHT, buff=0.3)

        # per step: the weights (numbers and bars), the row's recompute figure
        self.weight_groups = []
        for s in steps:
            nums = VGroup(*[label(fmt_value(w, 2), size=SMALL).move_to([self.X_W, self.row_y(i), 0])
                            for i, w in enumerate(s.weights)])
            bars = RowBars(s.weights, vmax=1.0, length=1.1, row_height=self.ROW, thickness=0.28,
                           colors=[token_color(i) for i in range(len(s.weights))])
            bars.shift(np.array([self.X_B - bars.bars[0].get_left()[0], self.row_y(0) - bars.bars[0].get_center()[1], 0]))
            self.weight_groups.append(VGroup(nums, bars))
        self.status = VGroup(*[
            label(fmt_measure(s.recompute_defect), size=SMALL, color=GOOD if s.recompute_defect == 0 else ACCENT)
            .move_to([self.X_S, self.row_y(s.t), 0]) for s in steps
        ])

        def frame_row(hm, i, color):
            return SurroundingRectangle(VGroup(*hm.cells[i]), color=color, buff=0.04, stroke_width=3)

        self.frame_row = frame_row
        self.proof = measure_line('max_t |Y_"cached" - Y_"recompute"|', d.max_defect, note="at every step", size=LABEL)
        self.proof.move_to([0, -2.7, 0])
        self.proof_value = self.proof[2]
        self.legend = VGroup(
            Square(0.32, stroke_color=ACCENT, stroke_width=3, fill_opacity=0),
            label("computed this step: one query, one key, one value, one output", size=SMALL, color=FG),
        ).arrange(RIGHT, buff=0.2)
        self.legend_cached = label("every other row is read from the cache, never recomputed", size=SMALL, color=DIM)
        VGroup(self.legend, self.legend_cached).arrange(DOWN, buff=0.12).move_to([0, -1.8, 0])

    def step_anims(self, t: int, first: bool = False) -> list:
        """Token t arrives: its k, v rows join the caches, q_t attends, y_t is written."""
        d = self.data
        s = d.trace.steps[t]
        anims = []
        if not first:
            prev = self.weight_groups[t - 1]
            anims.append(FadeOut(prev, run_time=0.3))
            anims.append(self.q_map.animate_values(s.q[None, :]))
            new_q = math(f"q_{t}", size=LABEL, color=ACCENT).move_to(self.q_label)
            anims.append(Transform(self.q_label, new_q))
        # one marker per column (K, V, Y) that moves down to the row computed this step
        targets = [self.frame_row(hm, t, ACCENT) for hm in (self.K_map, self.V_map, self.Y_map)]
        if first:
            self.markers = VGroup(*targets)
            place = [Create(m) for m in self.markers[:2]]
            place_y = Create(self.markers[2])
        else:
            place = [m.animate.move_to(tg) for m, tg in zip(self.markers[:2], targets[:2])]
            place_y = self.markers[2].animate.move_to(targets[2])
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
            FadeIn(self.status[t]),
        )
        return [cache_in, attend, write]

    # ------------------------------------------------------------------ beats
    def beat_many(self, key: str, plays: list[list], run_time: float, hold: float = 0.3) -> None:
        """Like ``beat``, but one caption over several plays (each ``run_time`` s), played one after another.

        Each play is a separate ``Scene.play``, so an animation never starts (nor shows its
        mobject) before its turn; the caption lasts the whole sequence or its reading time.
        """
        text = self.caption(key)
        total = max(len(plays) * run_time + hold, reading_time(text))
        self.add_subcaption(text, duration=total)
        self.captions.append(Caption(self.time, total, text))
        start = self.time
        for anims in plays:
            self.play(Succession(*anims), run_time=run_time)
        rest = total - (self.time - start)
        if rest > 0:
            self.wait(rest)

    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = len(d.trace.steps)

        self.beat("setup", FadeIn(self.heads), run_time=1.0)
        a = self.step_anims(0, first=True)
        self.beat("step0", Succession(AnimationGroup(a[0], FadeIn(self.q_map), FadeIn(self.q_label), FadeIn(self.q_note)),
                                      a[1], a[2]), run_time=2.6)
        a = self.step_anims(1)
        self.beat("step1", Succession(*a), run_time=2.4)
        self.beat_many("rest", [self.step_anims(t) for t in range(2, T)], run_time=1.5)
        self.beat("legend", FadeIn(self.legend, shift=0.1 * UP), FadeIn(self.legend_cached, shift=0.1 * UP),
                  run_time=1.0)
        self.beat("equal", FadeIn(self.proof, shift=0.15 * UP), run_time=1.0)
        self.bidirectional()

    def bidirectional(self) -> None:
        """Without the mask: every past output moves when a token arrives; a cache would be stale."""
        d = self.data
        T = len(d.trace.steps)
        top = self.content_top
        out = VGroup(self.K_map, self.V_map, self.q_map, self.q_label, self.q_note, self.k_labels, self.v_labels,
                     self.weight_groups[-1], self.status, self.markers, self.legend, self.legend_cached, self.proof,
                     self.heads, self.Y_map, self.y_labels)
        self.play(FadeOut(out), run_time=0.8)

        # left: the bidirectional outputs after t+1 tokens, redrawn at every step
        x_left = -4.6
        self.bi_maps = []
        for t in range(T):
            hm = Heatmap(d.Y_bidir[t], self.scale, cell_size=self.CELL)
            hm.move_to([x_left, 0, 0]).shift((top - 1.0 - hm.get_top()[1]) * UP)
            self.bi_maps.append(hm)
        self.bi_title = label("bidirectional outputs", size=SMALL).move_to([x_left, top - 0.3, 0])
        self.bi_labels = VGroup(*[math(f"y_{i}", size=LABEL, color=token_color(i))
                                  .next_to(self.bi_maps[-1].cell(i, 0), LEFT, buff=0.2) for i in range(T)])

        # right: how far each past row moved when token t was appended (log scale: 0.01 and 3 both visible)
        hi = max(float(s.max()) for s in d.staleness)
        lo = d.min_stale
        y_lo = 10.0 ** np.floor(np.log10(lo) - 0.5)
        y_hi = 10.0 ** np.ceil(np.log10(hi) + 0.01)
        ticks = [10.0 ** k for k in range(int(np.log10(y_lo)), int(np.log10(y_hi)) + 1)]
        self.plot = Plot((0.4, T - 0.4), (y_lo, y_hi), width=6.8, height=3.0, y_log=True,
                         x_ticks=list(range(1, T)), y_ticks=ticks, x_label="token appended",
                         y_label="change of each past output",
                         tick_format=lambda v: f"{v:g}" if v >= 1e-3 else fmt_measure(v))
        self.plot.move_to([2.6, 0, 0]).shift((top - 0.35 - self.plot.get_top()[1]) * UP)
        self.bar_groups = []
        gap = 0.15  # data units between a group's bars
        unit = self.plot.width_units / (self.plot.x_range[1] - self.plot.x_range[0])
        for t, s in enumerate(d.staleness, start=1):
            xs = [t + (i - (t - 1) / 2) * gap for i in range(t)]
            self.bar_groups.append(self.plot.bars(xs, s, bar_width=gap * unit * 0.75,
                                                  colors=[token_color(i) for i in range(t)]))
        self.bar_x = [[t + (i - (t - 1) / 2) * gap for i in range(t)] for t in range(1, T)]

        self.proof_bi = measure_line("scripts(min)_(t, i < t) norm(Delta y_i)", d.min_stale, note="every past row moved",
                                     size=LABEL, good=False)
        self.proof_causal = measure_line("scripts(max)_(t, i < t) norm(Delta y_i)", d.causal_change_max,
                                         note="nothing moves", size=LABEL, good=d.causal_change_max == 0.0)
        heads = [label("bidirectional", size=SMALL, color=DIM), label("causal", size=SMALL, color=DIM)]
        for h, p, y in zip(heads, (self.proof_bi, self.proof_causal), (-2.2, -2.8)):
            p.move_to([0, y, 0], aligned_edge=LEFT).set_x(-2.2 + p.width / 2)
            h.next_to(p, LEFT, buff=0.35)
        self.proof_bi_row = VGroup(heads[0], self.proof_bi)
        self.proof_causal_row = VGroup(heads[1], self.proof_causal)
        self.stale_value, self.causal_value = self.proof_bi[2], self.proof_causal[2]

        first = self.bi_maps[0]
        self.beat("bidir", FadeIn(self.bi_title), FadeIn(first), FadeIn(self.bi_labels[0]), Create(self.plot.axes),
                  FadeIn(self.plot.grid), FadeIn(self.plot.x_tick_labels), FadeIn(self.plot.y_tick_labels),
                  FadeIn(self.plot.x_axis_label), FadeIn(self.plot.y_axis_label), run_time=1.4)
        plays = []
        for t in range(1, T):
            plays.append([AnimationGroup(
                ReplacementTransform(self.bi_maps[t - 1], self.bi_maps[t]), FadeIn(self.bi_labels[t]),
                *[GrowFromEdge(b, DOWN) for b in self.bar_groups[t - 1]],
            )])
        self.beat_many("stale", plays, run_time=1.3, hold=0.5)
        self.beat("proof_bidir", FadeIn(self.proof_bi_row, shift=0.15 * UP), run_time=0.9)
        self.beat("proof_causal", FadeIn(self.proof_causal_row, shift=0.15 * UP), run_time=0.9)
