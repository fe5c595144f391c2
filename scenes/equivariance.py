"""Equivariance clips.

02 ``PermutationEquivariance`` (§2, Q1): Attn(X) as weights A and outputs Y; permute the input
and A's rows and columns travel to P A Pᵀ while Y's rows move; then ``n_trials`` random P with a
running maximum of ‖Attn(PX) − P·Attn(X)‖_F against the 1e-10 line; why the property is exact.

06 ``CausalBreaksEquivariance`` (§5): the same test with causal attention and a swap that moves a
future token into the past; which slots each causal row sees; per-row defects as bars beside
self-attention's (exact zeros marked on the log axis), and both totals.

07 ``SameMultiset`` (§6): "the cat ate the mouse" and "the mouse ate the cat" from one embedding
table give the same outputs token for token and the same pooled vector; sinusoidal positions
separate them by a measured gap.

Every widget is placed in a region of ``self.layout`` and sized from the config's ``T``, ``d``
and words, so the same code holds for every lecture config.

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
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    ReplacementTransform,
    Square,
    Transform,
    VGroup,
)

from mathcore import (
    attention_fn,
    causal_mask,
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
from scenes.kit import (
    ACCENT,
    BAD,
    BLUE,
    DIM,
    FAINT,
    FG,
    GOOD,
    LABEL,
    SMALL,
    ClipScene,
    ColorBar,
    ColorScale,
    Heatmap,
    LabelledMatrix,
    Plot,
    TokenRow,
    fmt_measure,
    fmt_value,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.equivariance_widgets import (
    CausalMaskGrid,
    RowHeatmap,
    TokenColumn,
    TrialMarks,
    WordColumn,
    legend_row,
    nice_count_ticks,
    staircase,
)
from scenes.kit.layout import FIT_XHEIGHT_PX, LayoutError, Region, background, fit_label, spread_1d, xheight_px

MINUS = "\u2212"


def _row_or_power(v: float) -> str:
    """Tick text: small whole numbers as rows (``3``), powers of ten as ``1e−10``."""
    if float(v).is_integer() and 0 <= v < 100:
        return str(int(v))
    return f"1e{int(round(np.log10(v)))}".replace("-", MINUS)


def _log_ticks(lo_exp: int, hi_exp: int, step: int = 2) -> list[float]:
    return [10.0 ** e for e in range(lo_exp, hi_exp + 1, step)]


def _count(n: int) -> str:
    """A count as printed: thin-space thousands (``10 000``)."""
    return f"{int(n):,}".replace(",", "\u2009")


def _tick2(v: float) -> str:
    """A colour-bar tick: two significant digits, a typographic minus, never ``−0``."""
    if v == 0:
        return "0"
    return f"{v:.2g}".replace("-", MINUS)


def _diamond(color, side: float = 0.14) -> Square:
    """The exact-zero mark of ``Plot.exact_zero``, for legends."""
    return Square(side_length=side, stroke_color=color, stroke_width=3, fill_opacity=0.0).rotate(np.pi / 4)


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
    cmap_signed: str  # Y's colours when it is drawn as cells (d too wide for numbers)

    @property
    def zero_trials(self) -> int:
        """How many random permutations gave a defect of exactly 0.0."""
        return int(np.sum(self.run.defects == 0.0))


class PermutationEquivariance(ClipScene):
    """02 · Permute the input and self-attention permutes its output: exactly, up to rounding."""

    NAMES_H = 0.6  # the strip of matrix names at the top of part 1
    CHECK_H = 0.6  # the strip of the measured defect at the bottom of part 1
    COL_LABELS_H = 0.45  # A's column labels above its cells
    MAX_ROW = 1.1  # the tallest a token row gets
    NOTES_W = 4.6  # part 2: the notes column beside the plot

    @staticmethod
    def weight_scale(cmap: str, A) -> ColorScale:
        """A's colours: weights normalised to [0, their max] (A and P A Pᵀ hold the same values)."""
        return ColorScale.for_weights(cmap, A)

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
            cmap=cfg.cmap_weights, cmap_signed=cfg.cmap_signed,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "T": d.X.shape[0], "n": _count(len(d.run.defects)), "defect": fmt_measure(d.defect),
            "max": fmt_measure(d.run.max_defect), "zeros": _count(d.zero_trials),
        }

    # ------------------------------------------------------------------ part 1: one permutation
    def make_matrices(self) -> None:
        """X's chips, A's heatmap with its colour bar, and Y's numbers on one row of token rows,
        as large as the content region allows for this ``T`` and ``d``."""
        d = self.data
        T, dm = d.X.shape
        content = self.layout.content
        names, rest = content.take_top(self.NAMES_H, gap=0.1)
        check, mid = rest.take_bottom(self.CHECK_H, gap=0.3)
        rows = Region(mid.left, mid.right, mid.bottom, mid.top - self.COL_LABELS_H, "rows")
        self.scale = self.weight_scale(d.cmap, d.A)
        top = self.scale.norm.vmax
        self.bar_ticks = [0.0, top / 2, top]

        chip_w, arrow_w, gap = 0.9, 0.45, 0.28
        bar_probe = ColorBar(self.scale, height=2.0, ticks=self.bar_ticks, tick_format=_tick2)
        r_h = min(rows.height / T, self.MAX_ROW)
        texts = [fmt_value(v, 2) for v in np.concatenate([d.Y.ravel(), d.Y_PX.ravel()])]
        widest_text = max(texts, key=len)
        base = chip_w + 2 * arrow_w + bar_probe.width + 0.15 + 5 * gap
        # Y as numbers while they leave A rows of at least 80 % of the height's; else as coloured cells
        self.y_numbers = False
        for vs in (SMALL, 26, 24, 22):
            cw = label(widest_text, size=vs).width + 0.3
            r = min(r_h, (rows.width - base - dm * cw - 1.0) / T)
            if r >= 0.8 * r_h:
                self.y_numbers = True
                break
        if not self.y_numbers:
            self.y_scale = ColorScale.symmetric(d.cmap_signed, np.concatenate([d.Y.ravel(), d.Y_PX.ravel()]))
            vy = self.y_scale.norm.vmax
            self.y_bar_ticks = [-vy, 0.0, vy]
            ybar_w = ColorBar(self.y_scale, height=2.0, ticks=self.y_bar_ticks, tick_format=_tick2).width
            r = min(r_h, (rows.width - base - 0.75 - ybar_w - 0.15) / (T + dm))
        if r < 0.42:
            raise LayoutError(f"clip 02 cannot fit T={T}, d={dm} legibly: token rows {r:.2f} units")
        self.row_h = r
        y = rows.center[1]

        x = 0.0
        self.X_col = TokenColumn([f"x_{i}" for i in range(T)], row_height=r, width=chip_w)
        self.X_col.move_to([x + chip_w / 2, y, 0])
        x += chip_w + gap
        self.arrow = math("arrow.r", size=LABEL + 6, color=DIM).move_to([x + arrow_w / 2, y, 0])
        x += arrow_w + gap
        self.A_map = Heatmap(d.A, self.scale, cell_size=r)
        self.A_map.move_to([x + T * r / 2, y, 0])
        x += T * r + 0.15
        self.bar = ColorBar(self.scale, height=T * r, ticks=self.bar_ticks, tick_format=_tick2)
        self.bar.move_to([x, y, 0], aligned_edge=LEFT)
        self.bar.shift((y - self.bar.frame.get_center()[1]) * UP)
        x += self.bar.width + gap
        self.arrow2 = math("arrow.r", size=LABEL + 6, color=DIM).move_to([x + arrow_w / 2, y, 0])
        x += arrow_w + gap
        if self.y_numbers:
            self.Y_mat = LabelledMatrix(
                d.Y, row_labels=[f"y_{i}" for i in range(T)], decimals=2, col_width=cw, row_height=r,
                value_size=vs, label_size=LABEL,
            )
            self.Y_mat.place(0, y)
            self.Y_body = self.Y_mat.brackets
            self.y_bar = VGroup()
        else:
            self.Y_mat = RowHeatmap(d.Y, self.y_scale, cell_size=r, row_labels=[f"y_{i}" for i in range(T)])
            self.Y_mat.move_to([0, y, 0])
            self.Y_mat.shift((y - self.Y_mat.heat.get_center()[1]) * UP)
            self.Y_body = self.Y_mat.heat
        self.Y_mat.shift((x - self.Y_mat.get_left()[0]) * RIGHT)
        x = self.Y_mat.get_right()[0]
        if not self.y_numbers:
            self.y_bar = ColorBar(self.y_scale, height=T * r, ticks=self.y_bar_ticks, tick_format=_tick2)
            self.y_bar.move_to([x + 0.15, y, 0], aligned_edge=LEFT)
            self.y_bar.shift((y - self.y_bar.frame.get_center()[1]) * UP)
            x = self.y_bar.get_right()[0]
        self.A_cols = VGroup(*[
            math(f"x_{j}", size=LABEL, color=token_color(j)).next_to(self.A_map.cell(0, j), UP, buff=0.1)
            for j in range(T)
        ])
        self.A_cols.align_to(self.A_cols[0], DOWN)
        part1 = VGroup(self.X_col, self.arrow, self.A_map, self.bar, self.arrow2, self.Y_mat, self.y_bar, self.A_cols)
        part1.shift((rows.center[0] - x / 2) * RIGHT)
        self.A_grid = np.array([[self.A_map.cell_center(i, j) for j in range(T)] for i in range(T)])

        ny = names.center[1]
        self.X_name = math("X", size=LABEL + 2).move_to([self.X_col.get_center()[0], ny, 0])
        self.Y_name = math("Y = A V", size=LABEL + 2).move_to([self.Y_body.get_center()[0], ny, 0])
        # A's full formula while it fits between the names beside it, else just "A"
        a_full = math("A = \"softmax\"(Q K^T \\/ sqrt(d))", size=LABEL)
        ax = self.A_map.get_center()[0]
        half_room = min(ax - (self.X_col.get_center()[0] + 0.6), self.Y_name.get_left()[0] - 0.3 - ax)
        self.A_name = (a_full if a_full.width / 2 <= half_room else math("A", size=LABEL + 2)).move_to([ax, ny, 0])
        self.check_y = check.center[1]
        self.moving: list[VGroup] = []  # groups the travel animations add to the scene

    def y_intro(self) -> list:
        """Y appears: brackets drawn and numbers faded in, or its cells and colour bar."""
        if self.y_numbers:
            return [Create(self.Y_mat.brackets), FadeIn(self.Y_mat.rows)]
        return [FadeIn(self.Y_mat), FadeIn(self.y_bar)]

    def rename(self, attr: str, expr: str):
        """Swap the name in ``attr`` for ``expr`` in the same place (fade out, then in)."""
        old = getattr(self, attr)
        new = math(expr, size=LABEL + 2).move_to(old)
        setattr(self, attr, new)
        return swap(old, new)

    def move_rows(self, perm) -> AnimationGroup:
        """A's rows travel: the row of query ``perm[i]`` goes to row ``i`` (P A)."""
        q = np.argsort(perm)
        anims = []
        for r in range(len(perm)):
            dy = -(q[r] - r) * self.row_h
            if dy:
                g = VGroup(*self.A_map.cells[r])
                self.moving.append(g)
                anims.append(g.animate(path_arc=0.4).shift(dy * UP))
        return AnimationGroup(*anims)

    def move_cols(self, perm) -> AnimationGroup:
        """A's columns travel: the column of key ``perm[j]`` goes to column ``j`` (A Pᵀ)."""
        q = np.argsort(perm)
        anims = []
        for c in range(len(perm)):
            dx = (q[c] - c) * self.row_h
            if dx:
                col = VGroup(*[self.A_map.cells[r][c] for r in range(len(perm))], self.A_cols[c])
                self.moving.append(col)
                anims.append(col.animate(path_arc=-0.4).shift(dx * RIGHT))
        return AnimationGroup(*anims)

    # ------------------------------------------------------------------ part 2: many permutations
    def make_plot(self) -> None:
        """The plot of every trial's defect in the main region, the notes column beside it."""
        run = self.data.run
        n = len(run.defects)
        notes, main = self.layout.content.take_right(self.NOTES_W, gap=0.45)
        positive = run.defects[run.defects > 0]
        lo = int(np.floor(np.log10(float(positive.min())))) - 1 if len(positive) else -18
        lo = min(lo, -17)
        lo -= lo % 2  # even exponent so the 1e-10 line gets a tick
        self.y_title = math("norm(\"Attn\"(P X) - P dot \"Attn\"(X))_F", size=LABEL)

        def build(w, h):
            return Plot((0, n + 1), (10.0 ** lo, 1e-9), width=w, height=h, y_log=True,
                        x_ticks=nice_count_ticks(n), y_ticks=_log_ticks(lo, -10),
                        x_label="random permutation", y_label="")

        top_room = self.y_title.height + 0.25
        probe = build(6.0, 4.0)
        ext_l = probe.axes.get_left()[0] - probe.get_left()[0]
        ext_r = max(0.0, probe.get_right()[0] - probe.axes.get_right()[0]) + 0.15
        ext_b = probe.axes.get_bottom()[1] - probe.get_bottom()[1]
        self.plot = build(main.width - ext_l - ext_r, main.height - ext_b - top_room)
        self.plot.shift(np.array([main.left + ext_l, main.bottom + ext_b, 0]) - self.plot.axes[0].get_start())
        self.y_title.next_to(self.plot.axes[1].get_top(), UP, buff=0.2).align_to(self.plot.axes[1], LEFT)
        self.line = self.plot.hline(run.threshold, color=BAD, dashed=True, stroke_width=3)
        self.line_label = label(f"pass line {_row_or_power(run.threshold)}", size=SMALL, color=BAD)
        self.line_label.next_to(self.line.get_end(), UP, buff=0.1).align_to(self.line, RIGHT)
        self.marks = TrialMarks(self.plot, run.defects)
        self.trial_dots = self.marks.dots
        self.max_curve = staircase(self.plot, run.running_max, ACCENT)
        # the legend, inside the plot's empty upper left, under the pass line
        each = "each random P" if self.marks.mode == "dots" else "random P: range per pixel column"
        swatch = (Dot(radius=0.06, color=BLUE) if self.marks.mode == "dots"
                  else Rectangle(width=0.12, height=0.3, stroke_width=0, fill_color=BLUE, fill_opacity=0.85))
        self.leg_each = VGroup(swatch, fit_label(each, self.plot.width_units * 0.6, size=SMALL, max_lines=2))
        self.leg_max = VGroup(Line(ORIGIN, 0.35 * RIGHT, stroke_color=ACCENT, stroke_width=4),
                              label("running maximum", size=SMALL))
        for row in (self.leg_each, self.leg_max):  # swatches centred in one 0.35-wide column, texts after it
            row[0].move_to(ORIGIN)
            row[1].next_to(ORIGIN, RIGHT, buff=0.175 + 0.18)
        self.leg_max.next_to(self.leg_each, DOWN, buff=0.18)
        self.leg_max.shift((self.leg_each[0].get_x() - self.leg_max[0].get_x()) * RIGHT)
        legend = VGroup(self.leg_each, self.leg_max)
        legend.next_to(self.line, DOWN, buff=0.3).align_to(self.plot.axes[1], LEFT).shift(0.3 * RIGHT)

        # the notes: the verdict, the exact zeros, why it is exact
        w = notes.width
        self.max_value = label(fmt_measure(run.max_defect), size=LABEL + 10, color=GOOD)
        self.max_text = VGroup(label(f"max over {_count(n)} P", size=SMALL, color=FG), self.max_value)
        self.max_text.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        parts = [self.max_text]
        self.zero_note = VGroup()
        if self.data.zero_trials:
            txt = fit_label(f"exactly 0.0 for {_count(self.data.zero_trials)} of {_count(n)} P", w - 0.45,
                            size=SMALL, color=FG, max_lines=2)
            self.zero_note = VGroup(_diamond(FG), txt).arrange(RIGHT, buff=0.22)
            parts.append(self.zero_note)
        rows = [("Q, K, V = X W", "row by row"), ("\"softmax\"", "row by row"), ("A V", "same sums, new order")]
        maths = [math(m, size=LABEL) for m, _ in rows]
        mw = max(m.width for m in maths)
        lines = VGroup()
        beside = all(label(text, size=SMALL).width <= w - mw - 0.3 for _, text in rows)
        for m, (_, text) in zip(maths, rows):
            if beside:  # a two-column table: formula, what it does
                desc = label(text, size=SMALL, color=DIM).next_to(m, RIGHT, buff=0.3)
                desc.set_x(m.get_left()[0] + mw + 0.3 + desc.width / 2)
            else:  # what it does, under the formula
                desc = fit_label(text, w - 0.3, size=SMALL, color=DIM, max_lines=2)
                desc.next_to(m, DOWN, buff=0.1, aligned_edge=LEFT).shift(0.3 * RIGHT)
            lines.add(VGroup(m, desc))
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        self.why_head = label("why exact?", size=SMALL, color=FG)
        self.verdict = fit_label("only rounding remains", w, size=SMALL, color=GOOD)
        self.why = VGroup(lines, self.verdict)
        parts += [self.why_head, lines, self.verdict]
        self.side = VGroup(*parts).arrange(DOWN, aligned_edge=LEFT, buff=0.32)
        notes.fit(self.side, align=UP + LEFT)

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        self.make_matrices()

        self.beat("setup",
                  FadeIn(self.X_name), FadeIn(self.X_col), FadeIn(self.arrow), FadeIn(self.arrow2),
                  FadeIn(self.A_name), LaggedStart(*[FadeIn(VGroup(*r)) for r in self.A_map.cells], lag_ratio=0.12),
                  FadeIn(self.A_cols), FadeIn(self.bar),
                  FadeIn(self.Y_name), *self.y_intro(), run_time=1.8)

        self.beat("permute_input", self.X_col.permute_rows(d.perm), self.rename("X_name", "P X"), run_time=1.6)
        self.beat("rows", self.move_rows(d.perm), self.rename("A_name", "P A"), run_time=1.6)
        self.beat("cols", self.move_cols(d.perm), self.rename("A_name", "P A P^T"), run_time=1.6)
        self.beat("outputs", self.Y_mat.permute_rows(d.perm), self.rename("Y_name", "P Y"), run_time=1.6)

        # hand the travelled cells over to a heatmap of Attn(PX)'s own weights: same colours, same places
        self.A_final = Heatmap(d.A_PX, self.scale, cell_size=self.row_h).move_to(self.A_map)
        self.remove(self.A_map, *self.moving)
        self.add(self.A_final)
        self.cols_final = VGroup(*[
            math(f"x_{int(k)}", size=LABEL, color=token_color(int(k))).move_to(
                [self.A_final.cell(0, j).get_center()[0], self.A_cols[0].get_center()[1], 0])
            for j, k in enumerate(d.perm)
        ])
        self.remove(self.A_cols)
        self.add(self.cols_final)

        self.defect_value = label(fmt_measure(d.defect), size=LABEL, color=GOOD)
        self.check = VGroup(
            math("norm(\"Attn\"(P X) - P dot \"Attn\"(X))_F =", size=LABEL), self.defect_value,
        ).arrange(RIGHT, buff=0.2).move_to([self.layout.content.center[0], self.check_y, 0])
        self.beat("check_zero" if d.defect == 0.0 else "check", FadeIn(self.check, shift=0.2 * UP), run_time=1.0)

        # part 2: the plot of every trial fills the main region, the notes column beside it
        self.make_plot()
        part1 = [self.X_col, self.X_name, self.arrow, self.arrow2, self.A_final, self.cols_final, self.bar,
                 self.A_name, self.Y_mat, self.y_bar, self.Y_name, self.check]
        self.play(*[FadeOut(m) for m in part1], run_time=0.8)
        marks_in = (LaggedStart(*[FadeIn(dot, scale=0.5) for dot in self.marks.dots], lag_ratio=0.03)
                    if self.marks.mode == "dots" else Create(self.marks.band))
        extra = [FadeIn(self.marks.zeros), FadeIn(self.zero_note)] if self.data.zero_trials else []
        self.beat("trials_zeros" if self.data.zero_trials else "trials",
                  FadeIn(self.plot), FadeIn(self.y_title), Create(self.line), FadeIn(self.line_label),
                  marks_in, FadeIn(self.leg_each), *extra, run_time=2.0)
        self.beat("running_max", Create(self.max_curve), FadeIn(self.leg_max), FadeIn(self.max_text, shift=0.15 * UP),
                  run_time=1.8)
        self.beat("why", FadeIn(self.why_head),
                  LaggedStart(*[FadeIn(m, shift=0.15 * RIGHT) for m in self.why[0]], lag_ratio=0.4),
                  run_time=1.8, hold=0.8)
        self.beat("rounding", FadeIn(self.verdict, shift=0.15 * UP), run_time=0.8)


# =====================================================================================
# 06 · Causality breaks equivariance
# =====================================================================================
@dataclass(frozen=True)
class CausalSwapData:
    """What clip 06 draws: ``X: (T, d)``, the swap ``(i, j)`` and its ``perm``, the per-row and
    total defects of causal and self-attention on it (``report``), and the causal ``mask``
    (row ``t`` sees slots ``0 … t``)."""

    X: np.ndarray
    report: SwapReport
    threshold: float
    mask: np.ndarray


class CausalBreaksEquivariance(ClipScene):
    """06 · A future token swapped into the past changes causal attention's outputs."""

    NOTES_W = 3.7  # legend and totals beside the chart
    CHIPS_H = 0.75  # the strip of token chips above the chart (chips sit at its bottom)
    VALUES_H = 0.42  # the row of printed causal defects between the chips and the chart
    BAR_W = 0.30  # a bar's width as a share of a slot

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> CausalSwapData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        i, j = default_swap(cfg.T)
        return CausalSwapData(X=li.X, report=swap_report(li.X, li.Wq, li.Wk, li.Wv, i, j), threshold=THRESHOLD,
                              mask=causal_mask(cfg.T))

    def caption_values(self) -> dict:
        r = self.data.report
        T = len(r.perm)
        return {
            "i": r.i, "j": r.j, "T": T, "after": r.j + 1, "last": T - 1,
            "causal": fmt_measure(r.causal_total), "self": fmt_measure(r.self_total),
        }

    # ------------------------------------------------------------------ layout
    def make_chart(self) -> None:
        r = self.data.report
        T = len(r.perm)
        notes, main = self.layout.content.take_right(self.NOTES_W, gap=0.45)
        self.notes_region = notes
        values = np.concatenate([r.causal_rows, r.self_rows])
        positive = values[values > 0]
        lo = min(-18, int(np.floor(np.log10(positive.min()))) - 1) if len(positive) else -18
        y_ticks = [1e-16, self.data.threshold, 1e-4, 1.0]
        tick_w = max(label(_row_or_power(v), size=SMALL).width for v in y_ticks)
        y_lab_w = max(tick_w, label("row 0", size=SMALL).width) + 0.2
        left = main.left + y_lab_w
        width = main.right - left
        self.pitch = width / T
        top = main.top - self.CHIPS_H - 0.12 - self.VALUES_H - 0.1
        bottom = main.bottom + 0.5
        self.plot = Plot(
            (-0.5, T - 0.5), (10.0 ** lo, 10.0), width=width, height=top - bottom, y_log=True,
            x_ticks=list(range(T)), y_ticks=y_ticks, grid=False, tick_format=_row_or_power,
        )
        self.plot.shift(np.array([left, bottom, 0]) - self.plot.axes[0].get_start())
        self.x_of = [float(self.plot.to_point(t, 1.0)[0]) for t in range(T)]
        self.row_title = label("row", size=SMALL, color=DIM)
        self.row_title.move_to([0, self.plot.x_tick_labels[0].get_center()[1], 0])
        self.row_title.align_to(self.plot.y_tick_labels, RIGHT)
        self.line = self.plot.hline(self.data.threshold, color=DIM, dashed=True, stroke_width=2.5)
        rows = np.arange(T)
        off = 0.22  # a bar's offset from its slot's centre, in slots
        bw = self.pitch * self.BAR_W
        self.self_bars = self.plot.bars(rows - off, r.self_rows, bar_width=bw, colors=BLUE)
        self.causal_bars = self.plot.bars(rows + off, r.causal_rows, bar_width=bw, colors=BAD)
        # exact zeros have no place on a log axis: a hollow diamond on the floor
        self.self_zeros = {int(t): self.plot.exact_zero(t - off, color=BLUE, text=None)
                           for t in np.flatnonzero(r.self_rows == 0.0)}
        self.causal_zeros = {int(t): self.plot.exact_zero(t + off, color=BAD, text=None)
                             for t in np.flatnonzero(r.causal_rows == 0.0)}
        # causal defect of each row, printed above the chart over its bars
        texts = [fmt_measure(float(v)) for v in r.causal_rows]
        widest = max(label(t, size=SMALL).width for t in texts)
        size = min(SMALL, SMALL * self.pitch * 0.9 / widest)
        vy = main.top - self.CHIPS_H - 0.12 - self.VALUES_H / 2
        self.causal_values = VGroup(*[
            label(t, size=size, color=BAD if v > self.data.threshold else FG).move_to([self.x_of[k], vy, 0])
            for k, (t, v) in enumerate(zip(texts, r.causal_rows))
        ])

        # the tokens, one chip per slot, above the chart's columns
        chip_h = 0.56
        cy = main.top - self.CHIPS_H + chip_h / 2  # room above the chips for the swap's arcs
        self.tokens = TokenColumn([f"x_{k}" for k in range(T)], row_height=self.pitch,
                                  width=min(1.0, self.pitch * 0.8), horizontal=True, chip_height=chip_h)
        self.tokens.move_to([(self.x_of[0] + self.x_of[-1]) / 2, cy, 0])
        self.tokens_name = math("X", size=LABEL + 2).move_to([0, cy, 0])
        self.tokens_name.align_to(self.plot.y_tick_labels, RIGHT)

        # which slots each causal row sees, in the chart's place, cells in the colour of their token
        rh = min(0.7, (top - bottom) / T)
        self.mask = CausalMaskGrid(self.data.mask, [token_color(k) for k in range(T)], pitch=self.pitch, row_height=rh)
        self.mask.move_to([(self.x_of[0] + self.x_of[-1]) / 2, (top + bottom) / 2, 0])
        self.mask_rows = VGroup(*[
            label(f"row {t}", size=SMALL, color=DIM).move_to([0, self.mask.cells[t][0].get_center()[1], 0])
            for t in range(T)
        ])
        self.mask_rows.align_to(self.plot.y_tick_labels, RIGHT)
        note = fit_label("causal attention: row t sees only slots 0 … t", notes.width, size=SMALL, color=FG,
                         max_lines=3)
        seen = Rectangle(width=0.4, height=0.26, stroke_width=0, fill_color=token_color(0), fill_opacity=0.6)
        hidden = Rectangle(width=0.4, height=0.26, stroke_color=FAINT, stroke_width=1.5, fill_opacity=0.0)
        key = VGroup(*[VGroup(sw, fit_label(t, notes.width - 0.6, size=SMALL, color=DIM, max_lines=2)).arrange(RIGHT, buff=0.2)
                       for sw, t in ((seen, "seen: the token in its slot"), (hidden, "masked: the future"))])
        key.arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        self.mask_note = VGroup(note, key).arrange(DOWN, aligned_edge=LEFT, buff=0.35)
        notes.fit(self.mask_note, align=UP + LEFT)

        # legend and totals in the notes column
        sw = lambda c: Rectangle(width=0.32, height=0.22, stroke_width=0, fill_color=c, fill_opacity=0.9)  # noqa: E731
        self.leg_self = legend_row(sw(BLUE), "self-attention")
        self.leg_causal = legend_row(sw(BAD), "causal")
        self.leg_line = legend_row(DashedLine(ORIGIN, 0.32 * RIGHT, stroke_color=DIM, stroke_width=2.5,
                                              dash_length=0.06), f"pass line {_row_or_power(self.data.threshold)}")
        entries = [self.leg_self, self.leg_causal, self.leg_line]
        self.leg_zero = VGroup()
        if self.self_zeros or self.causal_zeros:
            self.leg_zero = legend_row(_diamond(FG), "exactly 0.0")
            entries.append(self.leg_zero)
        self.legend = VGroup(*entries).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        for e in entries:  # swatches share one column
            e[1].align_to(self.leg_self[1], LEFT)
        self.causal_total = label(fmt_measure(r.causal_total), size=LABEL + 4, color=BAD)
        self.self_total = label(fmt_measure(r.self_total), size=LABEL + 4, color=GOOD)
        t_head = VGroup(label("total", size=SMALL), math("norm(dot)_F", size=LABEL)).arrange(RIGHT, buff=0.15)
        t1 = VGroup(label("causal", size=SMALL, color=DIM), self.causal_total).arrange(RIGHT, buff=0.25)
        t2 = VGroup(label("self", size=SMALL, color=DIM), self.self_total).arrange(RIGHT, buff=0.25)
        self.totals = VGroup(t_head, t1, t2).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        t2[1].align_to(t1[1], LEFT)
        side = VGroup(self.legend, self.totals).arrange(DOWN, aligned_edge=LEFT, buff=0.6)
        notes.fit(side, align=UP + LEFT)

    def dim_slots(self, keep, opacity: float = 0.22) -> list:
        """Animations that dim every row of the chart outside ``keep`` and show the rows in it."""
        anims = []
        for t in range(len(self.x_of)):
            a = 1.0 if t in keep else opacity
            anims += [self.self_bars[t].animate.set_fill(opacity=0.9 * a),
                      self.causal_bars[t].animate.set_fill(opacity=0.9 * a),
                      self.causal_values[t].animate.set_opacity(a)]
            anims += [z[0].animate.set_stroke(opacity=a)
                      for z in (self.self_zeros.get(t), self.causal_zeros.get(t)) if z is not None]
        return anims

    def band(self, rows) -> Rectangle:
        """A translucent column behind the slots of ``rows``, from the row numbers up to the chips."""
        x0 = min(self.x_of[t] for t in rows) - self.pitch / 2 + 0.04
        x1 = max(self.x_of[t] for t in rows) + self.pitch / 2 - 0.04
        y0 = self.plot.x_tick_labels.get_bottom()[1] - 0.08
        y1 = min(self.tokens.get_top()[1] + 0.08, self.layout.content.top)
        b = Rectangle(width=x1 - x0, height=y1 - y0, stroke_color=ACCENT, stroke_width=2, stroke_opacity=0.8,
                      fill_color=ACCENT, fill_opacity=0.1).move_to([(x0 + x1) / 2, (y0 + y1) / 2, 0])
        return background(b)

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        r = self.data.report
        T = len(r.perm)
        self.make_chart()

        self.beat("tokens", FadeIn(self.tokens_name), FadeIn(self.tokens, lag_ratio=0.1), FadeIn(self.mask_note),
                  LaggedStart(*[FadeIn(row) for row in self.mask.cells], lag_ratio=0.15), FadeIn(self.mask_rows),
                  run_time=1.4)
        px = math("P X", size=LABEL + 2).move_to(self.tokens_name).align_to(self.tokens_name, RIGHT)
        old_name, self.tokens_name = self.tokens_name, px
        self.beat("swap", self.tokens.permute_rows(r.perm, path_arc=-0.5), swap(old_name, px),
                  self.mask.recolor([token_color(int(k)) for k in r.perm]), run_time=1.6)

        zeros_self = VGroup(*self.self_zeros.values())
        zeros_causal = VGroup(*self.causal_zeros.values())
        self.play(FadeOut(self.mask), FadeOut(self.mask_rows), FadeOut(self.mask_note), run_time=0.6)
        self.beat("self", FadeIn(self.plot), FadeIn(self.row_title), Create(self.line),
                  FadeIn(self.leg_self), FadeIn(self.leg_line), FadeIn(self.leg_zero), FadeIn(zeros_self),
                  LaggedStart(*[GrowFromEdge(b, DOWN) for b in self.self_bars], lag_ratio=0.1), run_time=1.6)
        self.beat("causal", FadeIn(self.leg_causal), FadeIn(zeros_causal),
                  LaggedStart(*[GrowFromEdge(b, DOWN) for b in self.causal_bars], lag_ratio=0.1),
                  FadeIn(self.causal_values), run_time=1.6)

        band = None
        if r.i > 0:
            before = range(0, r.i)
            band = self.band(before)
            self.beat("before", FadeIn(band), *self.dim_slots(set(before)), run_time=0.9)
        between = range(r.i, r.j + 1)
        band2 = self.band(between)
        self.beat("between", ReplacementTransform(band, band2) if band is not None else FadeIn(band2),
                  *self.dim_slots(set(between)), run_time=0.9)
        band = band2
        after = list(range(r.j + 1, T))
        if after:
            band3 = self.band(after)
            key = "after_zero" if np.all(r.causal_rows[after] == 0.0) else "after"
            self.beat(key, ReplacementTransform(band, band3), *self.dim_slots(set(after)), run_time=0.9)
            band = band3
        self.beat("totals", FadeOut(band), *self.dim_slots(set(range(T))), FadeIn(self.totals, shift=0.2 * UP),
                  run_time=1.0)


# =====================================================================================
# 07 · Same multiset
# =====================================================================================
@dataclass(frozen=True)
class SameMultisetData:
    """What clip 07 draws.

    ``vocab``, ``table: (V, d)`` the shared embedding table; ``tokens_a/b`` and ``ids_a/b``;
    ``matching`` with ``tokens_b[i] == tokens_a[matching[i]]``; ``PE: (T, d)`` sinusoidal
    positions; ``plain`` / ``positioned``: self-attention on both sentences without and with
    PE added, compared token for token and mean-pooled.  Colour ranges, one per purpose
    (each scale is ``[-vmax, vmax]``): ``vmax_x`` the inputs (the table's rows), ``vmax_y``
    the outputs without positions and their means, ``vmax_pos`` those with positions.
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
    vmax_x: float
    vmax_y: float
    vmax_pos: float


def abbreviations(words, n_chars: int | None) -> dict[str, str]:
    """``{word: what a chip prints}``: words longer than ``n_chars`` cut to ``n_chars − 1`` letters
    and "…"; a cut shared by two words grows until each is unique.  ``None`` keeps every word."""
    if n_chars is None:
        return {w: w for w in words}
    out = {}
    for w in words:
        k = n_chars - 1
        cut = w if len(w) <= n_chars else w[:k] + "\u2026"
        while len(w) > n_chars and any(o != w and o[:k] == w[:k] for o in words):
            k += 1
            cut = w[:k] + "\u2026" if k < len(w) - 1 else w
            if cut == w:
                break
        out[w] = cut
    return out


def _vmax(*arrays) -> float:
    m = float(max(np.max(np.abs(a)) for a in arrays))
    return m if m > 0 else 1.0


class SameMultiset(ClipScene):
    """07 · "the cat ate the mouse" and "the mouse ate the cat": identical outputs without positions."""

    NAMES_H = 0.55  # the strip of names at the top
    BAR_H = 0.62  # the colour bar's strip at the bottom
    POOL_GAP = 0.36  # between the token rows and the pooled row
    MAX_CELL = 1.3
    MIN_CELL = 0.34
    CHIP_GAP, MID_GAP = 0.18, 0.35  # chips to heatmap, heatmap to the middle column

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SameMultisetData:
        sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        m = sp.matching()
        PE = my_sinusoidal_position(len(sp.tokens_a), cfg.d, cfg.rope_base)
        plain = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv)
        pos = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv, positions=PE)
        return SameMultisetData(
            vocab=sp.vocab, table=sp.table, tokens_a=sp.tokens_a, tokens_b=sp.tokens_b,
            ids_a=sp.ids_a, ids_b=sp.ids_b, matching=m, PE=PE, plain=plain, positioned=pos,
            cmap=cfg.cmap_signed,
            vmax_x=_vmax(sp.table),
            vmax_y=_vmax(plain.Y_a, plain.Y_b, plain.pooled_a, plain.pooled_b),
            vmax_pos=_vmax(pos.Y_a, pos.Y_b, pos.pooled_a, pos.pooled_b),
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

    def scales(self) -> None:
        d = self.data
        self.scale_x = ColorScale(d.cmap, -d.vmax_x, d.vmax_x)
        self.scale_y = ColorScale(d.cmap, -d.vmax_y, d.vmax_y)
        self.scale_pos = ColorScale(d.cmap, -d.vmax_pos, d.vmax_pos)

    # ------------------------------------------------------------------ layout
    def plan(self) -> None:
        """Cell size and columns: [words a][X_a] [middle] [X_b][words b], as large as fits.

        The cells shrink until everything fits; when the words beside the rows would need text
        under the legibility floor, the words there are abbreviated (``short``; the sentences
        beat shows them whole) instead of shrinking further."""
        d = self.data
        T, dm = len(d.tokens_a), d.table.shape[1]
        content = self.layout.content
        names, rest = content.take_top(self.NAMES_H, gap=0.15)
        self.bar_strip, rest = rest.take_bottom(self.BAR_H, gap=0.2)
        self.names_y = names.center[1]
        # widths measured once at SMALL; text widths scale with the text size
        probe = label("Xg", size=SMALL)
        floor_size = SMALL * FIT_XHEIGHT_PX / xheight_px(label("x", size=SMALL))
        min_cell = (probe.height * floor_size / SMALL + 0.12) / 0.84  # the smallest row whose chip text is legible
        diff_texts = [fmt_measure(v) for v in np.concatenate([d.plain.diffs, d.positioned.diffs])]
        diff_w = max(label(t, size=SMALL).width for t in diff_texts)
        digit_h = label("0.123456789e−", size=SMALL).height
        pool_w = math("max |Δ| =", size=SMALL).width + 0.15 + max(
            label(fmt_measure(v), size=SMALL).width for v in (d.plain.pooled_gap, d.positioned.pooled_gap))
        mean_w = label("mean", size=SMALL).width
        longest = max(len(w) for w in d.vocab)
        fitted = None
        for n_chars in [None] + list(range(longest - 1, 3, -1)):
            short = abbreviations(d.vocab, n_chars)
            word_w = max(label(short[w], size=SMALL).width for w in d.vocab)
            cell = min(self.MAX_CELL, (rest.height - self.POOL_GAP) / (T + 1))
            while cell >= min_cell - 1e-9:
                chip_size = min(SMALL, SMALL * (min(cell * 0.84, WordColumn.MAX_CHIP) - 0.12) / probe.height)
                vocab_w = word_w * chip_size / SMALL + 0.3
                wa = max(vocab_w, mean_w)
                diff_size = min(SMALL, SMALL * 0.8 * cell / digit_h)
                dw = diff_w * diff_size / SMALL
                table_w = vocab_w + self.CHIP_GAP + dm * cell
                mid = max(table_w, dw + 1.3, pool_w + 0.3)
                total = 2 * (wa + self.CHIP_GAP + dm * cell + self.MID_GAP) + mid
                if total <= content.width:
                    fitted = (short, cell, chip_size, vocab_w, wa, diff_size, dw, mid, total)
                    break
                cell -= 0.01
            if fitted:
                break
        if fitted is None:
            raise LayoutError(f"clip 07 cannot fit {T} words of up to {longest} letters at d={dm} "
                              f"in {content.width:.2f}×{content.height:.2f} units")
        self.short, cell, chip_size, self.vocab_w, wa, self.diff_size, dw, mid, total = fitted
        self.cell, self.chip_size, self.diff_w = cell, chip_size, dw
        x = content.left + (content.width - total) / 2
        self.col_a = (x, x + wa)
        x += wa + self.CHIP_GAP
        self.heat_a_x = x + dm * cell / 2
        x += dm * cell + self.MID_GAP
        self.mid = (x, x + mid)
        x += mid + self.MID_GAP
        self.heat_b_x = x + dm * cell / 2
        x += dm * cell + self.CHIP_GAP
        self.col_b = (x, x + wa)
        block = (T + 1) * cell + self.POOL_GAP
        self.rows_top = rest.top - (rest.height - block) / 2
        self.heat_y = self.rows_top - T * cell / 2
        self.pool_y = self.rows_top - T * cell - self.POOL_GAP - cell / 2
        self.words_w = wa

    def make_names(self) -> None:
        """Every name the two sides take, placed once so that none ever touches another."""
        sides = {
            "a": ["X_a", "\"Attn\"(X_a)", "\"Attn\"(X_a + \"PE\")"],
            "b": ["X_b", "\"Attn\"(X_b)", "\"Attn\"(X_b + \"PE\")"],
        }
        self.names = {k: [math(e, size=LABEL) for e in v] for k, v in sides.items()}
        self.diff_head = math("max |Δ|", size=SMALL, color=DIM)
        diff_right = self.heat_b_x - self.data.table.shape[1] * self.cell / 2 - 0.2
        targets = [(self.col_a[0] + self.heat_a_x + self.data.table.shape[1] * self.cell / 2) / 2,
                   diff_right - self.diff_head.width / 2,
                   (self.col_b[1] + self.heat_b_x - self.data.table.shape[1] * self.cell / 2) / 2]
        sizes = [max(m.width for m in self.names["a"]), self.diff_head.width, max(m.width for m in self.names["b"])]
        c = self.layout.content
        xa, xh, xb = spread_1d(targets, sizes, c.left, c.right, gap=0.35)
        for m in self.names["a"]:
            m.move_to([xa, self.names_y, 0])
        for m in self.names["b"]:
            m.move_to([xb, self.names_y, 0])
        self.diff_head.move_to([xh, self.names_y, 0])

    def color_bar(self, scale: ColorScale, title: str) -> VGroup:
        """A horizontal colour bar for ``scale`` with its title on the left, in the bottom strip."""
        v = scale.norm.vmax
        length = min(3.4, self.mid[1] - self.mid[0])
        bar = ColorBar(scale, height=length, width=0.2, horizontal=True, ticks=[-v, 0.0, v], tick_format=_tick2)
        t = math(title, size=SMALL, color=DIM)
        g = VGroup(t, bar).arrange(RIGHT, buff=0.3)
        t.align_to(bar.frame, UP).shift((bar.frame.get_center()[1] - t.get_center()[1]) * UP)
        g.move_to([(self.mid[0] + self.mid[1]) / 2, 0, 0])
        g.shift((self.bar_strip.top - bar.frame.get_top()[1]) * UP)
        g.bar = bar
        return g

    def diff_labels(self, diffs, color) -> VGroup:
        """One measured difference per row of b, right-aligned just left of X_b."""
        g = VGroup()
        right = self.Y_b.get_left()[0] - 0.2
        for i, v in enumerate(diffs):
            t = label(fmt_measure(v), size=self.diff_size, color=color)
            t.move_to([right - t.width / 2, self.Y_b.cell_center(i, 0)[1], 0])
            g.add(t)
        return g

    def match_lines(self) -> VGroup:
        """Token ``i`` of b joined to its match in a, ending before the widest difference it may print."""
        d = self.data
        g = VGroup()
        x_end = self.Y_b.get_left()[0] - 0.2 - self.diff_w - 0.15
        for i, src in enumerate(d.matching):
            a = self.Y_a.cell(int(src), self.Y_a.values.shape[1] - 1).get_right() + 0.1 * RIGHT
            b = np.array([x_end, self.Y_b.cell(i, 0).get_center()[1], 0])
            g.add(Line(a, b, stroke_color=self.word_color(d.tokens_b[i]), stroke_width=3))
        return g

    def words_to_rows(self, row: TokenRow, col: WordColumn) -> list:
        """Each chip of a sentence travels to its row beside the heatmap; a word printed whole
        goes with it, an abbreviated one is swapped (never one string morphed into another)."""
        anims = []
        for i in range(len(row.tokens)):
            box, text = col.chips[i]
            if row.texts[i].text == text.text:
                anims.append(ReplacementTransform(row.token(i), col.chips[i]))
            else:
                anims += [ReplacementTransform(row.boxes[i], box), swap(row.texts[i], text)]
        return anims

    def recolor(self, heat: Heatmap, values, scale: ColorScale):
        """Animate ``heat`` to ``values`` painted by ``scale``."""
        heat.color_scale = scale
        return heat.animate_values(values)

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        plain, pos = d.plain, d.positioned
        self.scales()
        self.plan()
        self.make_names()
        cell = self.cell
        content = self.layout.content

        # the sentences, large, one above the other
        colors_a = [self.word_color(w) for w in d.tokens_a]
        colors_b = [self.word_color(w) for w in d.tokens_b]
        self.row_a = TokenRow(d.tokens_a, colors=colors_a, show_index=False, max_width=content.width - 0.6)
        self.row_b = TokenRow(d.tokens_b, colors=colors_b, show_index=False, max_width=content.width - 0.6)
        rows = VGroup(self.row_a, self.row_b).arrange(DOWN, buff=0.7)
        grow = min(2.0, content.width * 0.8 / rows.width, content.height * 0.6 / rows.height)
        if grow > 1:  # the sentences are this beat's subject: large
            rows.scale(grow)
        content.fit(rows)
        self.beat("sentences", FadeIn(self.row_a, lag_ratio=0.1), FadeIn(self.row_b, lag_ratio=0.1), run_time=1.4)

        # the words become the rows of each sentence; one embedding table in the middle
        self.words_a = WordColumn([self.short[w] for w in d.tokens_a], colors_a, row_height=cell, width=self.words_w, size=self.chip_size)
        self.words_b = WordColumn([self.short[w] for w in d.tokens_b], colors_b, row_height=cell, width=self.words_w, size=self.chip_size)
        self.words_a.move_to([(self.col_a[0] + self.col_a[1]) / 2, self.heat_y, 0])
        self.words_b.move_to([(self.col_b[0] + self.col_b[1]) / 2, self.heat_y, 0])
        self.table = Heatmap(d.table, self.scale_x, cell_size=cell)
        self.table_words = WordColumn([self.short[w] for w in d.vocab], [token_color(k) for k in range(len(d.vocab))], row_height=cell,
                                      width=self.vocab_w, size=self.chip_size)
        tbl = VGroup(self.table_words, self.table)
        self.table_words.next_to(self.table, LEFT, buff=self.CHIP_GAP)
        tbl.move_to([(self.mid[0] + self.mid[1]) / 2, self.heat_y, 0])
        self.table_name = label("embedding table", size=SMALL, color=DIM).next_to(self.table, DOWN, buff=0.2)
        self.table_name.set_x(tbl.get_center()[0])
        self.bar_x = self.color_bar(self.scale_x, "X")
        self.beat("table",
                  LaggedStart(AnimationGroup(*self.words_to_rows(self.row_a, self.words_a),
                                             *self.words_to_rows(self.row_b, self.words_b)),
                              AnimationGroup(FadeIn(self.table), FadeIn(self.table_words), FadeIn(self.table_name),
                                             FadeIn(self.bar_x)),
                              lag_ratio=0.6),
                  run_time=2.0)

        # rows fly from the table into each sentence's X
        self.Y_a = Heatmap(plain.X_a, self.scale_x, cell_size=cell).move_to([self.heat_a_x, self.heat_y, 0])
        self.Y_b = Heatmap(plain.X_b, self.scale_x, cell_size=cell).move_to([self.heat_b_x, self.heat_y, 0])
        self.name_a, self.name_b = self.names["a"][0], self.names["b"][0]
        flights = []
        for heat, ids in ((self.Y_a, d.ids_a), (self.Y_b, d.ids_b)):
            for i, k in enumerate(ids):
                src = VGroup(*[c.copy() for c in self.table.cells[int(k)]])
                flights.append((src, VGroup(*heat.cells[i])))
        self.beat("shuffled",
                  LaggedStart(*[Transform(s, t) for s, t in flights], lag_ratio=0.06),
                  FadeIn(self.name_a), FadeIn(self.name_b), run_time=2.0)
        for s, _ in flights:
            self.remove(s)
        self.add(self.Y_a, self.Y_b)
        self.play(FadeOut(self.table), FadeOut(self.table_words), FadeOut(self.table_name), run_time=0.6)

        # attend: X -> Y, on the outputs' own colour range
        self.bar_y = self.color_bar(self.scale_y, "\"Attn\"(X)")
        na, nb = self.names["a"][1], self.names["b"][1]
        self.beat("attend", self.recolor(self.Y_a, plain.Y_a, self.scale_y), self.recolor(self.Y_b, plain.Y_b, self.scale_y),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_x, self.bar_y), run_time=1.5)
        self.name_a, self.name_b = na, nb

        # matched token for token
        self.diffs = self.diff_labels(plain.diffs, GOOD)
        self.links = self.match_lines()
        self.beat("match", LaggedStart(*[Create(ln) for ln in self.links], lag_ratio=0.2), run_time=1.6)
        self.beat("diffs_zero" if plain.max_diff == 0.0 else "diffs",
                  FadeIn(self.diffs, lag_ratio=0.15), FadeIn(self.diff_head), run_time=1.2)

        # mean-pooled sentence vectors
        self.pool_a = Heatmap(plain.pooled_a[None, :], self.scale_y, cell_size=cell).move_to([self.heat_a_x, self.pool_y, 0])
        self.pool_b = Heatmap(plain.pooled_b[None, :], self.scale_y, cell_size=cell).move_to([self.heat_b_x, self.pool_y, 0])
        self.pool_words = VGroup(
            label("mean", size=SMALL, color=DIM).next_to(self.pool_a, LEFT, buff=self.CHIP_GAP),
            label("mean", size=SMALL, color=DIM).next_to(self.pool_b, RIGHT, buff=self.CHIP_GAP),
        )
        self.pool_value = label(fmt_measure(plain.pooled_gap), size=SMALL, color=GOOD)
        self.pool_text = VGroup(math("max |Δ| =", size=SMALL), self.pool_value).arrange(RIGHT, buff=0.15)
        self.pool_text.move_to([(self.mid[0] + self.mid[1]) / 2, self.pool_y, 0])
        self.beat("pooled_zero" if plain.pooled_gap == 0.0 else "pooled",
                  FadeIn(self.pool_a), FadeIn(self.pool_b), FadeIn(self.pool_words),
                  FadeIn(self.pool_text), run_time=1.2)

        # add positions
        na, nb = self.names["a"][2], self.names["b"][2]
        self.beat("positions", swap(self.name_a, na), swap(self.name_b, nb), run_time=1.0)
        self.name_a, self.name_b = na, nb
        new_diffs = self.diff_labels(pos.diffs, BAD)
        new_pool = label(fmt_measure(pos.pooled_gap), size=SMALL, color=BAD)
        new_pool.move_to(self.pool_value, aligned_edge=LEFT)
        self.bar_pos = self.color_bar(self.scale_pos, "\"Attn\"(X + \"PE\")")
        self.beat("separate",
                  self.recolor(self.Y_a, pos.Y_a, self.scale_pos), self.recolor(self.Y_b, pos.Y_b, self.scale_pos),
                  self.recolor(self.pool_a, pos.pooled_a[None, :], self.scale_pos),
                  self.recolor(self.pool_b, pos.pooled_b[None, :], self.scale_pos),
                  *[swap(o, n) for o, n in zip(self.diffs, new_diffs)],
                  swap(self.pool_value, new_pool), swap(self.bar_y, self.bar_pos),
                  run_time=1.6, hold=1.0)
        self.diffs_shown = new_diffs
        self.pool_shown = new_pool
