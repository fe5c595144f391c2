"""Equivariance clips.

02 ``PermutationEquivariance`` (§2, Q1): Attn(X) as weights A and outputs Y; permute the input
and A's rows and columns travel to P A Pᵀ while Y's rows move; then ``n_trials`` random P with a
running maximum of ‖Attn(PX) − P·Attn(X)‖_F against the 1e-10 line; why the property is exact.

06 ``CausalBreaksEquivariance`` (§5): the same test with causal attention and a swap that moves a
future token into the past; per-row defects as bars beside self-attention's, and both totals.

07 ``SameMultiset`` (§6): "the cat ate the mouse" and "the mouse ate the cat" from one embedding
table give the same outputs token for token and the same pooled vector; sinusoidal positions
separate them by a measured gap.

Render directly with ``manim -ql scenes/equivariance.py PermutationEquivariance`` (or the others).
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
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from mathcore import (
    attention_fn,
    lecture_inputs,
    my_sinusoidal_position,
    self_attention,
    sentence_pair,
)
from mathcore.config import LectureConfig
from mathcore.equivariance import (
    THRESHOLD,
    EquivarianceRun,
    MultisetComparison,
    SwapReport,
    compare_multiset,
    default_swap,
    equivariance_defect,
    equivariance_run,
    permuted_weights,
    swap_report,
)
from scenes.kit.stills import CurveStill, HeatmapStill
from scenes.kit import (
    ACCENT,
    BAD,
    BLUE,
    DIM,
    FG,
    GOOD,
    LABEL,
    SMALL,
    ClipScene,
    ColorScale,
    Heatmap,
    LabelledMatrix,
    Plot,
    TokenRow,
    fmt_measure,
    label,
    math,
    token_color,
)
from scenes.kit.equivariance_widgets import TokenColumn


def _row_or_power(v: float) -> str:
    """Tick text: small whole numbers as rows (``3``), powers of ten as ``1e−10``."""
    if float(v).is_integer() and 0 <= v < 100:
        return str(int(v))
    return f"1e{int(round(np.log10(v)))}".replace("-", "\u2212")


def _log_ticks(lo_exp: int, hi_exp: int, step: int = 2) -> list[float]:
    return [10.0 ** e for e in range(lo_exp, hi_exp + 1, step)]


# =====================================================================================
# 02 · Permutation equivariance
# =====================================================================================
@dataclass(frozen=True)
class EquivarianceData:
    """What clip 02 draws.

    ``X: (T, d)``; ``A, Y``: weights and outputs of self-attention on X; ``perm`` (the
    config's); ``A_moved = P A Pᵀ`` (A's cells moved); ``A_PX, Y_PX``: self-attention run
    on ``X[perm]``; ``defect``: ‖Attn(PX) − P·Attn(X)‖_F for ``perm``; ``run``: the
    ``n_trials`` random permutations with their defects and running maximum.
    """

    X: np.ndarray
    A: np.ndarray
    Y: np.ndarray
    perm: np.ndarray
    A_moved: np.ndarray
    A_PX: np.ndarray
    Y_PX: np.ndarray
    defect: float
    weights_defect: float  # max |A_PX − P A Pᵀ|
    run: EquivarianceRun
    cmap: str


class PermutationEquivariance(ClipScene):
    """02 · Permute the input and self-attention permutes its output: exactly, up to rounding."""

    ROW_H = 0.52  # one token row: X, A and Y share it so their rows line up
    Y0 = 0.05  # the matrices' centre line
    SMALL_CELL = 0.34  # A's cell size beside the plot

    @classmethod
    def stills(cls, data, cfg) -> list:
        """A, P·A·Pᵀ and the running maximum of the defect against the 1e-10 line."""
        w = ColorScale(data.cmap, 0.0, 1.0)
        run = data.run
        trials = np.arange(1, len(run.defects) + 1)
        return [
            HeatmapStill("A", "A = Attn weights of X", data.A, w, "key", "query", True),
            HeatmapStill("PAPt", f"P·A·Pᵀ for perm = {list(map(int, data.perm))}", data.A_moved, w, "key", "query", True),
            CurveStill("defect", f"max ‖Attn(PX) − P·Attn(X)‖_F over {len(trials)} random P: {fmt_measure(run.max_defect)}",
                       trials, (("defect of each P", run.defects), ("running maximum", run.running_max)),
                       y_log=True, xlabel="trial", ylabel="Frobenius defect",
                       hlines=((run.threshold, f"{run.threshold:g} line"),)),
        ]

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> EquivarianceData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        perm = np.array(cfg.perm)
        Y, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
        Y_PX, A_PX = self_attention(li.X[perm], li.Wq, li.Wk, li.Wv)
        attn = attention_fn(li.Wq, li.Wk, li.Wv)
        A_moved = permuted_weights(A, perm)
        return EquivarianceData(
            X=li.X, A=A, Y=Y, perm=perm, A_moved=A_moved, A_PX=A_PX, Y_PX=Y_PX,
            defect=equivariance_defect(attn, li.X, perm),
            weights_defect=float(np.max(np.abs(A_PX - A_moved))),
            run=equivariance_run(attn, li.X, cfg.n_trials, cfg.seed),
            cmap=cfg.cmap_weights,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "T": d.X.shape[0], "n": len(d.run.defects), "defect": fmt_measure(d.defect),
            "max": fmt_measure(d.run.max_defect),
        }

    # ------------------------------------------------------------------ part 1: one permutation
    def make_matrices(self) -> None:
        d = self.data
        T = d.X.shape[0]
        y = self.Y0
        self.scale = ColorScale(d.cmap, 0.0, 1.0)
        self.X_col = TokenColumn([f"x_{i}" for i in range(T)], row_height=self.ROW_H).move_to([-5.75, y, 0])
        self.A_map = Heatmap(d.A, self.scale, cell_size=self.ROW_H).move_to([-2.35, y, 0])
        self.A_grid = np.array([[self.A_map.cell_center(i, j) for j in range(T)] for i in range(T)])
        self.A_cols = VGroup(*[
            math(f"x_{j}", size=SMALL, color=token_color(j)).next_to(self.A_map.cell(0, j), UP, buff=0.1)
            for j in range(T)
        ])
        self.A_cols.align_to(self.A_cols[0], DOWN)
        self.Y_mat = LabelledMatrix(
            d.Y, row_labels=[f"y_{i}" for i in range(T)], decimals=2, col_width=1.2, row_height=self.ROW_H,
            value_size=SMALL, label_size=LABEL,
        ).place(3.85, y)
        name_y = self.A_cols.get_top()[1] + 0.38
        self.X_name = math("X", size=LABEL + 2).move_to([self.X_col.get_center()[0], name_y, 0])
        self.arrow = math("arrow.r", size=LABEL + 6, color=DIM).move_to(
            [(self.X_col.get_right()[0] + self.A_map.get_left()[0]) / 2, y, 0])
        self.arrow2 = math("arrow.r", size=LABEL + 6, color=DIM).move_to(
            [(self.A_map.get_right()[0] + self.Y_mat.row_labels.get_left()[0]) / 2, y, 0])
        self.A_name = math("A = \"softmax\"(Q K^T \\/ sqrt(d))", size=LABEL).move_to([self.A_map.get_center()[0], name_y, 0])
        self.Y_name = math("Y = A V", size=LABEL + 2).move_to([self.Y_mat.brackets.get_center()[0], name_y, 0])
        self.name_y = name_y
        self.moving: list[VGroup] = []  # groups the travel animations add to the scene

    def move_rows(self, perm) -> AnimationGroup:
        """A's rows travel: the row of query ``perm[i]`` goes to row ``i`` (P A)."""
        q = np.argsort(perm)
        anims = []
        for r in range(len(perm)):
            dy = -(q[r] - r) * self.ROW_H
            if dy:
                g = VGroup(*self.A_map.cells[r])
                self.moving.append(g)
                anims.append(g.animate(path_arc=0.5).shift(dy * UP))
        return AnimationGroup(*anims)

    def move_cols(self, perm) -> AnimationGroup:
        """A's columns travel: the column of key ``perm[j]`` goes to column ``j`` (A Pᵀ)."""
        q = np.argsort(perm)
        anims = []
        for c in range(len(perm)):
            dx = (q[c] - c) * self.ROW_H
            if dx:
                col = VGroup(*[self.A_map.cells[r][c] for r in range(len(perm))], self.A_cols[c])
                self.moving.append(col)
                anims.append(col.animate(path_arc=-0.5).shift(dx * RIGHT))
        return AnimationGroup(*anims)

    # ------------------------------------------------------------------ part 2: many permutations
    def make_plot(self) -> None:
        run = self.data.run
        n = len(run.defects)
        lo = int(np.floor(np.log10(max(float(run.defects[run.defects > 0].min()), 1e-300)))) - 1
        lo = min(lo, -17)
        lo -= lo % 2  # even exponent so the 1e-10 line gets a tick
        self.plot = Plot(
            (0, n + 1), (10.0 ** lo, 1e-8), width=6.2, height=4.0, y_log=True,
            x_ticks=[1] + list(range(25, n + 1, 25)), y_ticks=_log_ticks(lo, -10),
            x_label="random permutation", y_label="",
        )
        self.plot.shift(np.array([6.45, -2.15, 0]) - self.plot.to_point(n + 1, self.plot.y_range[0]))
        self.y_title = math("norm(\"Attn\"(P X) - P dot \"Attn\"(X))_F", size=SMALL)
        self.y_title.next_to(self.plot.axes[1].get_top(), UP, buff=0.2).align_to(self.plot.axes[1], LEFT)
        self.line = self.plot.hline(run.threshold, color=BAD, dashed=True, stroke_width=3)
        self.line_label = label(f"pass line {fmt_measure(run.threshold).replace('1.0e', '1e')}", size=SMALL, color=BAD)
        self.line_label.next_to(self.line.get_end(), UP, buff=0.1).align_to(self.line, RIGHT)
        ks = np.arange(1, n + 1)
        ys = self.plot.y_clip(run.defects)
        self.trial_dots = VGroup(*[
            self.plot.dot(k, v, color=BLUE, radius=0.045) for k, v in zip(ks, ys)
        ])
        self.max_curve = self.step_curve(ks, self.plot.y_clip(run.running_max), ACCENT)
        self.max_value = label(fmt_measure(run.max_defect), size=LABEL, color=GOOD)
        self.max_text = VGroup(label(f"max over {n} P =", size=LABEL), self.max_value).arrange(RIGHT, buff=0.15)
        top = self.plot.to_point(n + 1, 1e-8)
        self.max_text.next_to(self.line, DOWN, buff=0.25).align_to(top, RIGHT)
        self.max_text.shift(0.1 * LEFT)

    def step_curve(self, ks, rm, color) -> VMobject:
        """The running maximum as a staircase through its measured points ``(k, rm[k])``."""
        pts = [self.plot.to_point(ks[0], rm[0])]
        for k in range(1, len(ks)):
            pts.append(self.plot.to_point(ks[k], rm[k - 1]))
            pts.append(self.plot.to_point(ks[k], rm[k]))
        return VMobject(stroke_color=color, stroke_width=4).set_points_as_corners(np.array(pts))

    def make_why(self) -> VGroup:
        rows = [
            (math("Q, K, V = X W", size=SMALL), label("row by row", size=SMALL, color=DIM)),
            (math("\"softmax\"", size=SMALL), label("row by row", size=SMALL, color=DIM)),
            (math("A V", size=SMALL), label("same sums, new order", size=SMALL, color=DIM)),
        ]
        lines = VGroup(*[VGroup(a, b).arrange(RIGHT, buff=0.25) for a, b in rows])
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        verdict = label("only rounding remains", size=SMALL, color=GOOD)
        return VGroup(lines, verdict).arrange(DOWN, aligned_edge=LEFT, buff=0.3)

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        self.make_matrices()

        self.beat("setup",
                  FadeIn(self.X_name), FadeIn(self.X_col), FadeIn(self.arrow), FadeIn(self.arrow2),
                  FadeIn(self.A_name), LaggedStart(*[FadeIn(VGroup(*r)) for r in self.A_map.cells], lag_ratio=0.12),
                  FadeIn(self.A_cols),
                  FadeIn(self.Y_name), Create(self.Y_mat.brackets), FadeIn(self.Y_mat.rows),
                  run_time=1.8)

        PX_name = math("P X", size=LABEL + 2).move_to(self.X_name)
        self.beat("permute_input", self.X_col.permute_rows(d.perm), Transform(self.X_name, PX_name), run_time=1.6)

        PA_name = math("P A", size=LABEL + 2).move_to(self.A_name)
        self.beat("rows", self.move_rows(d.perm), Transform(self.A_name, PA_name), run_time=1.6)
        PAP_name = math("P A P^T", size=LABEL + 2).move_to(self.A_name)
        self.beat("cols", self.move_cols(d.perm), Transform(self.A_name, PAP_name), run_time=1.6)

        PY_name = math("P Y", size=LABEL + 2).move_to(self.Y_name)
        self.beat("outputs", self.Y_mat.permute_rows(d.perm), Transform(self.Y_name, PY_name), run_time=1.6)

        # hand the travelled cells over to a heatmap of Attn(PX)'s own weights: same colours, same places
        self.A_final = Heatmap(d.A_PX, self.scale, cell_size=self.ROW_H).move_to(self.A_map)
        self.remove(self.A_map, *self.moving)
        self.add(self.A_final)
        cols_final = VGroup(*[
            math(f"x_{int(k)}", size=SMALL, color=token_color(int(k))).move_to(
                [self.A_final.cell(0, j).get_center()[0], self.A_cols[0].get_center()[1], 0])
            for j, k in enumerate(d.perm)
        ])
        self.remove(self.A_cols)
        self.add(cols_final)

        self.defect_value = label(fmt_measure(d.defect), size=LABEL, color=GOOD)
        self.check = VGroup(
            math("norm(\"Attn\"(P X) - P dot \"Attn\"(X))_F =", size=LABEL), self.defect_value,
        ).arrange(RIGHT, buff=0.2).move_to([0, -2.55, 0])
        self.beat("check", FadeIn(self.check, shift=0.2 * UP), run_time=1.0)

        # part 2: the small heatmap to the left, the plot to the right
        self.make_plot()
        k = self.SMALL_CELL / self.ROW_H
        left_x = -5.0
        target = self.A_final.copy().scale(k).move_to([left_x, 1.05, 0])
        self.play(
            FadeOut(self.X_col), FadeOut(self.X_name), FadeOut(self.Y_mat), FadeOut(self.Y_name),
            FadeOut(self.arrow), FadeOut(self.arrow2),
            FadeOut(self.check), FadeOut(cols_final),
            Transform(self.A_final, target),
            self.A_name.animate.scale(0.9).next_to(target, UP, buff=0.22),
            run_time=1.0,
        )
        self.A_label = self.A_name
        self.beat("trials",
                  FadeIn(self.plot), FadeIn(self.y_title), Create(self.line), FadeIn(self.line_label),
                  LaggedStart(*[FadeIn(dot, scale=0.5) for dot in self.trial_dots], lag_ratio=0.03),
                  run_time=2.0)
        self.beat("running_max", Create(self.max_curve), FadeIn(self.max_text, shift=0.15 * UP), run_time=1.8)

        self.why = self.make_why()
        self.why.next_to(self.A_final, DOWN, buff=0.55).align_to(np.array([-6.75, 0, 0]), LEFT)
        self.beat("why", LaggedStart(*[FadeIn(m, shift=0.15 * RIGHT) for m in self.why[0]], lag_ratio=0.4),
                  run_time=1.8, hold=0.8)
        self.beat("rounding", FadeIn(self.why[1], shift=0.15 * UP), run_time=0.8)


# =====================================================================================
# 06 · Causality breaks equivariance
# =====================================================================================
@dataclass(frozen=True)
class CausalSwapData:
    """What clip 06 draws: ``X: (T, d)``, the swap ``(i, j)`` and its ``perm``, and the
    per-row and total defects of causal and self-attention on it (``report``)."""

    X: np.ndarray
    report: SwapReport
    threshold: float


class CausalBreaksEquivariance(ClipScene):
    """06 · A future token swapped into the past changes causal attention's outputs."""

    PITCH = 1.55  # one output row on the bar chart (and one token chip above it)

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> CausalSwapData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        i, j = default_swap(cfg.T)
        return CausalSwapData(X=li.X, report=swap_report(li.X, li.Wq, li.Wk, li.Wv, i, j), threshold=THRESHOLD)

    def caption_values(self) -> dict:
        r = self.data.report
        T = len(r.perm)
        return {
            "i": r.i, "j": r.j, "T": T, "after": r.j + 1, "last": T - 1,
            "causal": fmt_measure(r.causal_total), "self": fmt_measure(r.self_total),
        }

    def make_chart(self) -> None:
        r = self.data.report
        T = len(r.perm)
        self.plot = Plot(
            (-0.5, T - 0.5), (1e-18, 10.0), width=self.PITCH * T, height=3.35, y_log=True,
            x_ticks=list(range(T)), y_ticks=[1e-16, self.data.threshold, 1e-4, 1.0], grid=False,
            tick_format=_row_or_power,
        )
        self.plot.shift(np.array([-5.7, -2.45, 0]) - self.plot.axes[0].get_start())
        self.row_title = label("row", size=SMALL, color=DIM).next_to(self.plot.x_tick_labels[0], LEFT, buff=0.35)
        self.row_title.align_to(self.plot.y_tick_labels, RIGHT)
        self.line = self.plot.hline(self.data.threshold, color=DIM, dashed=True, stroke_width=2.5)
        rows = np.arange(T)
        w = 0.4
        self.self_bars = self.plot.bars(rows - 0.22, r.self_rows, bar_width=w, colors=BLUE)
        self.causal_bars = self.plot.bars(rows + 0.22, r.causal_rows, bar_width=w, colors=BAD)
        # causal defect of each row, printed in a row above the chart, over its bars
        top_y = self.plot.to_point(0, self.plot.y_range[1])[1] + 0.28
        self.causal_values = VGroup()
        for t in rows:
            v = float(r.causal_rows[t])
            txt = label(fmt_measure(v), size=SMALL, color=BAD if v > self.data.threshold else FG)
            self.causal_values.add(txt.move_to([self.plot.to_point(t, 1.0)[0], top_y, 0]))

    def body(self) -> None:
        r = self.data.report
        T = len(r.perm)
        self.make_chart()
        x_of = [self.plot.to_point(t, 1.0)[0] for t in range(T)]
        self.tokens = TokenColumn([f"x_{k}" for k in range(T)], row_height=self.PITCH, width=0.9, horizontal=True)
        self.tokens.move_to([(x_of[0] + x_of[-1]) / 2, self.content_top - 0.4, 0])
        self.tokens_name = math("X", size=LABEL + 2).next_to(self.tokens, LEFT, buff=0.4)
        self.mask_note = label("causal row t sees tokens 0 … t", size=SMALL, color=DIM)
        self.mask_note.next_to(self.tokens, DOWN, buff=0.16)

        self.beat("tokens", FadeIn(self.tokens_name), FadeIn(self.tokens, lag_ratio=0.1), FadeIn(self.mask_note),
                  run_time=1.2)
        PX_name = math("P X", size=LABEL + 2).move_to(self.tokens_name).align_to(self.tokens_name, RIGHT)
        self.beat("swap", self.tokens.permute_rows(r.perm, path_arc=-1.2), Transform(self.tokens_name, PX_name),
                  run_time=1.6)

        # legend and totals on the right
        sw_self = VGroup(Line(ORIGIN, ORIGIN + 0.3 * RIGHT, stroke_color=BLUE, stroke_width=14),
                         label("self-attention", size=SMALL))
        sw_self.arrange(RIGHT, buff=0.18)
        sw_causal = VGroup(Line(ORIGIN, ORIGIN + 0.3 * RIGHT, stroke_color=BAD, stroke_width=14),
                           label("causal", size=SMALL))
        sw_causal.arrange(RIGHT, buff=0.18)
        right_x = self.plot.axes[0].get_end()[0] + 0.35
        sw_self.move_to([0, 0.75, 0]).align_to(np.array([right_x, 0, 0]), LEFT)
        sw_causal.next_to(sw_self, DOWN, buff=0.25, aligned_edge=LEFT)

        self.beat("self", FadeIn(self.plot), FadeIn(self.row_title), Create(self.line),
                  FadeIn(sw_self),
                  LaggedStart(*[GrowFromEdge(b, DOWN) for b in self.self_bars], lag_ratio=0.1), run_time=1.6)
        self.beat("causal", FadeIn(sw_causal),
                  LaggedStart(*[GrowFromEdge(b, DOWN) for b in self.causal_bars], lag_ratio=0.1),
                  FadeIn(self.causal_values), run_time=1.6)

        def focus(rows):
            xs = [x_of[t] for t in rows]
            return SurroundingRectangle(
                VGroup(*[self.tokens.chip(t) for t in rows], *[self.causal_values[t] for t in rows],
                       *[self.causal_bars[t] for t in rows]),
                color=ACCENT, buff=0.1, stroke_width=3,
            ).stretch_to_fit_width(max(xs) - min(xs) + self.PITCH * 0.92).set_x((max(xs) + min(xs)) / 2)

        box = None
        if r.i > 0:
            box = focus(range(0, r.i))
            self.beat("before", Create(box), run_time=0.9)
        box2 = focus(range(r.i, r.j + 1))
        self.beat("between", ReplacementTransform(box, box2) if box is not None else Create(box2), run_time=0.9)
        after = list(range(r.j + 1, T))
        if after:
            box3 = focus(after)
            self.beat("after", ReplacementTransform(box2, box3), run_time=0.9)
            last_box = box3
        else:
            last_box = box2

        self.causal_total = label(fmt_measure(r.causal_total), size=LABEL, color=BAD)
        self.self_total = label(fmt_measure(r.self_total), size=LABEL, color=GOOD)
        t_head = VGroup(label("total", size=SMALL), math("norm(dot)_F", size=SMALL)).arrange(RIGHT, buff=0.15)
        t1 = VGroup(label("causal", size=SMALL, color=DIM), self.causal_total).arrange(RIGHT, buff=0.25)
        t2 = VGroup(label("self", size=SMALL, color=DIM), self.self_total).arrange(RIGHT, buff=0.25)
        self.totals = VGroup(t_head, t1, t2).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        self.totals.next_to(sw_causal, DOWN, buff=0.7, aligned_edge=LEFT)
        t2[1].align_to(t1[1], LEFT)
        self.beat("totals", FadeOut(last_box), FadeIn(self.totals, shift=0.2 * UP), run_time=1.0)


# =====================================================================================
# 07 · Same multiset
# =====================================================================================
@dataclass(frozen=True)
class SameMultisetData:
    """What clip 07 draws.

    ``vocab``, ``table: (V, d)`` the shared embedding table; ``tokens_a/b`` and ``ids_a/b``;
    ``matching`` with ``tokens_b[i] == tokens_a[matching[i]]``; ``PE: (T, d)`` sinusoidal
    positions; ``plain`` / ``positioned``: self-attention on both sentences without and with
    PE added, compared token for token and mean-pooled; ``vmax``: the colour range
    ``[-vmax, vmax]`` that covers every value drawn.
    """

    vocab: tuple[str, ...]
    table: np.ndarray
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    ids_a: np.ndarray
    ids_b: np.ndarray
    matching: np.ndarray
    PE: np.ndarray
    plain: MultisetComparison
    positioned: MultisetComparison
    cmap: str
    vmax: float


class SameMultiset(ClipScene):
    """07 · "the cat ate the mouse" and "the mouse ate the cat": identical outputs without positions."""

    CELL = 0.55
    Y0 = -0.1  # centre line of the output heatmaps
    XA, XB = -3.55, 3.55  # centres of the two sentences' heatmaps

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SameMultisetData:
        sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        m = sp.matching()
        PE = my_sinusoidal_position(len(sp.tokens_a), cfg.d, cfg.rope_base)
        plain = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv)
        pos = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv, positions=PE)
        drawn = [sp.table, plain.Y_a, plain.Y_b, pos.Y_a, pos.Y_b]
        vmax = float(max(np.max(np.abs(a)) for a in drawn))
        return SameMultisetData(
            vocab=sp.vocab, table=sp.table, tokens_a=sp.tokens_a, tokens_b=sp.tokens_b,
            ids_a=sp.ids_a, ids_b=sp.ids_b, matching=m, PE=PE, plain=plain, positioned=pos,
            cmap=cfg.cmap_signed, vmax=vmax,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "a": " ".join(d.tokens_a), "b": " ".join(d.tokens_b), "T": len(d.tokens_a), "V": len(d.vocab),
            "max": fmt_measure(d.plain.max_diff), "pooled": fmt_measure(d.plain.pooled_gap),
            "max_pos": fmt_measure(d.positioned.max_diff), "pooled_pos": fmt_measure(d.positioned.pooled_gap),
        }

    def word_color(self, w: str):
        return token_color(self.data.vocab.index(w))

    def row_words(self, tokens, heat: Heatmap, side) -> VGroup:
        g = VGroup()
        for i, w in enumerate(tokens):
            t = label(w, size=SMALL, color=self.word_color(w))
            t.next_to(heat.cell(i, 0 if side is LEFT else heat.values.shape[1] - 1), side, buff=0.18)
            g.add(t)
        return g

    def diff_labels(self, diffs, color) -> VGroup:
        g = VGroup()
        for i, v in enumerate(diffs):
            t = label(fmt_measure(v), size=SMALL, color=color)
            t.next_to(self.Y_b.cell(i, 0), LEFT, buff=0.2)
            g.add(t)
        return g

    def match_lines(self) -> VGroup:
        d = self.data
        g = VGroup()
        x_end = min(t.get_left()[0] for t in self.diffs) - 0.12
        for i, src in enumerate(d.matching):
            a = self.Y_a.cell(int(src), self.Y_a.values.shape[1] - 1).get_right() + 0.1 * RIGHT
            b = np.array([x_end, self.Y_b.cell(i, 0).get_center()[1], 0])
            g.add(Line(a, b, stroke_color=self.word_color(d.tokens_b[i]), stroke_width=3))
        return g

    def body(self) -> None:
        d = self.data
        plain, pos = d.plain, d.positioned
        self.scale = ColorScale(d.cmap, -d.vmax, d.vmax)
        y = self.Y0

        # the sentences
        self.row_a = TokenRow(d.tokens_a, colors=[self.word_color(w) for w in d.tokens_a], show_index=False)
        self.row_b = TokenRow(d.tokens_b, colors=[self.word_color(w) for w in d.tokens_b], show_index=False)
        self.row_a.move_to([self.XA, self.content_top - 0.35, 0])
        self.row_b.move_to([self.XB, self.content_top - 0.35, 0])
        self.beat("sentences", FadeIn(self.row_a, lag_ratio=0.1), FadeIn(self.row_b, lag_ratio=0.1), run_time=1.4)

        # one embedding table
        self.table = Heatmap(d.table, self.scale, cell_size=self.CELL).move_to([0.4, y, 0])
        self.table_words = self.row_words(d.vocab, self.table, LEFT)
        self.table_name = label("embedding table", size=SMALL, color=DIM).next_to(self.table, DOWN, buff=0.25)
        self.beat("table", FadeIn(self.table), FadeIn(self.table_words), FadeIn(self.table_name), run_time=1.2)

        # rows fly from the table into each sentence's X
        self.Y_a = Heatmap(plain.X_a, self.scale, cell_size=self.CELL).move_to([self.XA, y, 0])
        self.Y_b = Heatmap(plain.X_b, self.scale, cell_size=self.CELL).move_to([self.XB, y, 0])
        self.words_a = self.row_words(d.tokens_a, self.Y_a, LEFT)
        self.words_b = self.row_words(d.tokens_b, self.Y_b, RIGHT)
        head_y = self.Y_a.get_top()[1] + 0.32
        self.name_a = math("X_a", size=LABEL).move_to([self.XA, head_y, 0])
        self.name_b = math("X_b", size=LABEL).move_to([self.XB, head_y, 0])
        # wide names hang outwards, over the word labels, leaving the middle to the differences
        self.left_edge = self.words_a.get_left()[0]
        self.right_edge = self.words_b.get_right()[0]
        flights = []
        for heat, ids in ((self.Y_a, d.ids_a), (self.Y_b, d.ids_b)):
            for i, k in enumerate(ids):
                src = VGroup(*[c.copy() for c in self.table.cells[int(k)]])
                flights.append((src, VGroup(*heat.cells[i])))
        self.beat("shuffled",
                  LaggedStart(*[Transform(s, t) for s, t in flights], lag_ratio=0.06),
                  FadeIn(self.words_a), FadeIn(self.words_b), FadeIn(self.name_a), FadeIn(self.name_b),
                  run_time=2.0)
        for s, _ in flights:
            self.remove(s)
        self.add(self.Y_a, self.Y_b)
        self.play(FadeOut(self.table), FadeOut(self.table_words), FadeOut(self.table_name), run_time=0.6)

        # attend: X -> Y
        na = math("\"Attn\"(X_a)", size=LABEL).move_to(self.name_a).align_to([self.left_edge, 0, 0], LEFT)
        nb = math("\"Attn\"(X_b)", size=LABEL).move_to(self.name_b).align_to([self.right_edge, 0, 0], RIGHT)
        self.beat("attend", self.Y_a.animate_values(plain.Y_a), self.Y_b.animate_values(plain.Y_b),
                  Transform(self.name_a, na), Transform(self.name_b, nb), run_time=1.5)

        # matched token for token
        self.diffs = self.diff_labels(plain.diffs, GOOD)
        self.links = self.match_lines()
        self.beat("match", LaggedStart(*[Create(ln) for ln in self.links], lag_ratio=0.2), run_time=1.6)
        self.diff_head = math("max |Δ|", size=SMALL, color=DIM).set_y(head_y).align_to(self.diffs, RIGHT)
        self.beat("diffs", FadeIn(self.diffs, lag_ratio=0.15), FadeIn(self.diff_head), run_time=1.2)

        # mean-pooled sentence vectors
        pool_y = self.Y_a.get_bottom()[1] - 0.85
        self.pool_a = Heatmap(plain.pooled_a[None, :], self.scale, cell_size=self.CELL).move_to([self.XA, pool_y, 0])
        self.pool_b = Heatmap(plain.pooled_b[None, :], self.scale, cell_size=self.CELL).move_to([self.XB, pool_y, 0])
        self.pool_words = VGroup(
            label("mean", size=SMALL, color=DIM).next_to(self.pool_a, LEFT, buff=0.18),
            label("mean", size=SMALL, color=DIM).next_to(self.pool_b, RIGHT, buff=0.18),
        )
        self.pool_value = label(fmt_measure(plain.pooled_gap), size=SMALL, color=GOOD)
        self.pool_text = VGroup(math("max |Δ| =", size=SMALL), self.pool_value).arrange(RIGHT, buff=0.15)
        self.pool_text.move_to([0, pool_y, 0])
        self.beat("pooled", FadeIn(self.pool_a), FadeIn(self.pool_b), FadeIn(self.pool_words),
                  FadeIn(self.pool_text), run_time=1.2)

        # add positions
        na = math("\"Attn\"(X_a + \"PE\")", size=LABEL).move_to(self.name_a).align_to([self.left_edge, 0, 0], LEFT)
        nb = math("\"Attn\"(X_b + \"PE\")", size=LABEL).move_to(self.name_b).align_to([self.right_edge, 0, 0], RIGHT)
        self.beat("positions", Transform(self.name_a, na), Transform(self.name_b, nb), run_time=1.0)
        new_diffs = self.diff_labels(pos.diffs, BAD)
        new_pool = label(fmt_measure(pos.pooled_gap), size=SMALL, color=BAD).move_to(self.pool_value, aligned_edge=LEFT)
        self.beat("separate",
                  self.Y_a.animate_values(pos.Y_a), self.Y_b.animate_values(pos.Y_b),
                  self.pool_a.animate_values(pos.pooled_a[None, :]), self.pool_b.animate_values(pos.pooled_b[None, :]),
                  *[Transform(o, n) for o, n in zip(self.diffs, new_diffs)],
                  Transform(self.pool_value, new_pool),
                  run_time=1.6, hold=1.0)
        # hand over to the new labels (same glyphs, same places) so the frame holds their text
        self.remove(*self.diffs, self.pool_value)
        self.add(new_diffs, new_pool)
        self.diffs_shown = new_diffs
        self.pool_shown = new_pool
