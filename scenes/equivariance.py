"""Equivariance clips.

02 ``PermutationEquivariance`` (§2, Q1): Attn(X) as weights A and outputs Y; permute the input
and A's rows and columns travel to P A Pᵀ while Y's rows move; then N random P with a running
maximum of ‖Attn(PX) − P·Attn(X)‖_F against the pass line; why the property is exact.

* ``setup``: X → A (square-root colour scale, declared on its bar) → Y, each named over it.
* ``permute_input``, ``rows``, ``cols``, ``outputs``: P X; A's rows (P A: Y dims, its label no
  longer describes what is drawn) then its columns (P A Pᵀ); Y's rows (P Y).  Travelled cells are
  handed over to a fresh map of the values they show, in the same beat.
* ``check``: the defect of this P, typeset with its formula.
* ``trials``, ``running_max``: the plot of every trial fills the frame; the pass line and the
  staircase carry their own labels; the figures sit in the empty band under the pass line.
* ``why``, ``rounding``: the plot steps aside for the three reasons, then the verdict.
* ``close``: the plot returns, the staircase far below the pass line, with the verdict, large.

06 ``CausalBreaksEquivariance`` (§5): the same test with causal attention and a swap that moves a
future token into the past.

* ``tokens``, ``swap``: which slots each output row m sees (the mask, cells in the colour of the
  token in the slot); the swap recolours it.
* ``self``, ``causal``: the tokens become the rows' names; every row's defect as a bar on a log
  axis, self-attention hollow over causal filled, each bar in the colour of its verdict.
* ``before``, ``between``, ``after``: the rows with the same past, a different past, every token.
* ``totals``, ``close``: both totals; the chart widens to the frame with them.

07 ``SameMultiset`` (§6): "the cat ate the mouse" and "the mouse ate the cat" from one embedding
table give the same outputs token for token and the same pooled vector; sinusoidal positions
separate them.  One colour scale for the inputs and one for the outputs, with and without
positions; the close sets the matched outputs side by side, equal without positions and apart
with them.

Every colour scale, log axis and proof line comes from ``scenes.figures.equivariance`` (the one
description each clip and its still draw from); every widget is placed in a region of
``self.layout``, sized from the config's ``T``, ``d`` and words.

Render directly with ``manim -ql scenes/equivariance.py PermutationEquivariance`` (or the others).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

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
    Rectangle,
    ReplacementTransform,
    Succession,
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
from mathcore.permutation import permutation_matrix
from scenes.figures.equivariance import (
    DEFECT,
    EQUIVARIANT,
    Picture02,
    Picture06,
    Picture07,
    picture02,
    picture06,
    picture07,
)
from scenes.kit import (
    DIM,
    FAILED,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    TITLE,
    VERIFIED,
    ClipScene,
    ColorBar,
    Heatmap,
    LabelledMatrix,
    Plot,
    Region,
    TokenRow,
    fmt_measure,
    fmt_value,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, column, reveal, row, stage
from scenes.kit.permuting import (
    CausalMaskGrid,
    Handover,
    RowDefects,
    RowHeatmap,
    TokenColumn,
    TravelMap,
    TrialMarks,
    WordColumn,
    dim,
    nice_count_ticks,
    staircase,
    undim,
)
from scenes.kit.layout import LayoutError, background, spread_1d
from scenes.kit.notation import N
from scenes.kit.numbers import count, measure
from scenes.kit.theme import figure

SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def token_names(idx, name: str = "x") -> list[str]:
    """Typst names ``x_k`` of the tokens ``idx``."""
    return [f"{name}_{int(k)}" for k in idx]


def token_text(k: int, name: str = "x") -> str:
    """A token's name in a caption: ``x₂``."""
    return f"{name}{str(int(k)).translate(SUBSCRIPT)}"


def readout(prefix: str, x, size: float = LABEL, color=FG):
    """``prefix = 0.83`` / ``prefix ≈ 2.2 × 10⁻¹⁶`` / ``prefix = 0 exact``, typeset on one math line."""
    return figure(x, size=size, color=color, prefix=f"{prefix} =")


def fit_cells(build, region: Region, start: float, per_w: float, per_h: float):
    """``build(cell)`` at the largest cell size (at most ``start``) whose result fits ``region``:
    ``per_w`` and ``per_h`` cells of that size span the result's width and height, the rest is fixed."""
    cell = start
    while True:
        g = build(cell)
        over = max((g.width - region.width) / per_w if per_w else 0.0, (g.height - region.height) / per_h)
        if over <= 1e-6:
            return g, cell
        cell -= over + 1e-6


# =====================================================================================
# 02 · Permutation equivariance
# =====================================================================================
@dataclass(frozen=True)
class EquivarianceData:
    """What clip 02 draws.

    ``X: (T, d)``; ``A, Y``: weights and outputs of self-attention on X; ``perm`` (π, the
    config's) and ``P = permutation_matrix(perm)``; ``PX = P X``, ``PA = P A`` (A's rows moved),
    ``A_moved = P A Pᵀ`` (rows and columns), ``PY = P Y``; ``A_PX, Y_PX``: self-attention run on
    ``P X``; ``defect``: ‖Attn(PX) − P·Attn(X)‖_F for ``perm``; ``run``: the ``n_trials`` random
    permutations with their defects and running maximum; ``picture``: scales, axes and formulas.
    """

    X: np.ndarray
    PX: np.ndarray
    A: np.ndarray
    PA: np.ndarray
    A_moved: np.ndarray
    A_PX: np.ndarray
    Y: np.ndarray
    PY: np.ndarray
    Y_PX: np.ndarray
    perm: np.ndarray
    defect: float
    weights_defect: float  # max |A_PX − P A Pᵀ|
    run: EquivarianceRun
    cmap: str
    cmap_signed: str
    picture: Picture02

    @property
    def zero_trials(self) -> int:
        """How many random permutations gave a defect of exactly 0."""
        return int(np.sum(self.run.defects == 0.0))


class PermutationEquivariance(ClipScene):
    """02 · Permute the input and self-attention permutes its output: exactly, up to rounding."""

    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    NUMBERS_KEEP = 0.8  # Y prints numbers while they leave A this share of the height it could have

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> EquivarianceData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        perm = np.array(cfg.perm)
        P = permutation_matrix(perm)
        Y, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
        Y_PX, A_PX = self_attention(P @ li.X, li.Wq, li.Wk, li.Wv)
        attn = attention_fn(li.Wq, li.Wk, li.Wv)
        A_moved = permuted_weights(A, perm)
        run = equivariance_run(attn, li.X, cfg.n_trials, cfg.seed)
        return EquivarianceData(
            X=li.X, PX=P @ li.X, A=A, PA=P @ A, A_moved=A_moved, A_PX=A_PX, Y=Y, PY=P @ Y, Y_PX=Y_PX, perm=perm,
            defect=equivariance_defect(attn, li.X, perm), weights_defect=float(np.max(np.abs(A_PX - A_moved))),
            run=run, cmap=cfg.cmap_weights, cmap_signed=cfg.cmap_signed,
            picture=picture02(A, A_PX, Y, Y_PX, run.defects, run.max_defect, run.threshold, cfg.cmap_weights,
                              cfg.cmap_signed),
        )

    def caption_values(self) -> dict:
        d = self.data
        q, k = np.unravel_index(int(np.argmax(d.A)), d.A.shape)
        first = int(d.perm[0])
        return {
            "T": d.X.shape[0], "n": count(len(d.run.defects)).text, "defect": fmt_measure(d.defect),
            "max": fmt_measure(d.run.max_defect), "zeros": count(d.zero_trials).text,
            "threshold": measure(d.run.threshold).text, "peak_q": token_text(q), "peak_k": token_text(k),
            "peak": fmt_measure(d.A[q, k]), "first": token_text(first), "first_y": token_text(first, "y"),
            "verdict": d.picture.verdict, "xlast": token_text(d.X.shape[0] - 1),
            "bar": ("stretched by a square root, so the small weights keep their shades" if d.picture.weights.gamma
                    else "linear from 0"),
            "y_form": "a table of numbers" if getattr(self, "y_numbers", True) else "a grid of coloured cells",
        }

    # ------------------------------------------------------------------ part 1: one permutation
    def y_widget(self, values, order, cell: float, numbers: bool):
        """Y (or P Y) as a matrix of numbers, or as cells with a colour bar when numbers do not fit;
        row names ``y_k`` in their token's colour.  Returns ``(widget, body, bar)``."""
        pic = self.data.picture
        rows = token_names(order, "y")
        colors = [token_color(int(k)) for k in order]
        if numbers:
            texts = [fmt_value(v, 2) for v in np.concatenate([self.data.Y.ravel(), self.data.Y_PX.ravel()])]
            cw = label(max(texts, key=len), size=SMALL).width + GAP.small
            m = LabelledMatrix(values, row_labels=rows, decimals=2, col_width=cw, row_height=cell, value_size=SMALL,
                               label_size=LABEL, row_colors=colors)
            return m, m.brackets, VGroup()
        m = RowHeatmap(values, pic.outputs, cell_size=cell, row_labels=rows, row_colors=colors)
        return m, m.heat, ColorBar(pic.outputs, height=m.heat.height)

    def part1(self, cell: float, numbers: bool) -> SimpleNamespace:
        """X's chips → A with its colour bar → Y at row height ``cell``, each named over it."""
        d = self.data
        T = d.X.shape[0]
        pic = d.picture
        p = SimpleNamespace(numbers=numbers)
        p.X_col = shows(TokenColumn(token_names(range(T)), row_height=cell, values=d.X), "X")
        p.A_map = TravelMap(d.A, pic.weights, cell, range(T))
        shows(p.A_map.heat, "A")
        p.bar = ColorBar(pic.weights, height=p.A_map.heat.height, ticks=pic.weight_ticks)
        p.Y_mat, p.Y_body, p.y_bar = self.y_widget(d.Y, range(T), cell, numbers)
        shows(p.Y_mat, "Y")
        p.arrow, p.arrow2 = (math("arrow.r", size=LABEL, color=DIM) for _ in range(2))
        p.A_part = row(p.A_map, p.bar, gap="small")
        p.Y_part = row(p.Y_mat, p.y_bar, gap="small")
        parts = row(p.X_col, p.arrow, p.A_part, p.arrow2, p.Y_part, gap="normal")
        for part, core in ((p.A_part, p.A_map.heat), (p.Y_part, p.Y_body)):
            part.shift((p.X_col.get_y() - core.get_y()) * UP)
        top = parts.get_top()[1] + GAP.small
        p.X_name = names(math(N.inputs.math, size=HEADING), "X")
        p.Y_name = names(math(pic.outputs_formula.typst, size=HEADING), "Y")
        p.A_name = names(math(pic.weights_formula.typst, size=HEADING), "A")
        for name, core in ((p.X_name, p.X_col), (p.A_name, p.A_map.heat), (p.Y_name, p.Y_body)):
            name.next_to([core.get_x(), top, 0], UP, buff=0)
        if (p.A_name.get_left()[0] < p.X_name.get_right()[0] + GAP.normal
                or p.A_name.get_right()[0] > p.Y_name.get_left()[0] - GAP.normal):
            p.A_name = names(math(N.weights.math, size=HEADING), "A")
            p.A_name.next_to([p.A_map.heat.get_x(), top, 0], UP, buff=0)
        p.group = VGroup(parts, p.X_name, p.A_name, p.Y_name)
        return p

    def make_part1(self) -> None:
        d = self.data
        T, dm = d.X.shape
        self.check = readout(DEFECT.typst, d.defect, color=VERIFIED if d.defect < d.run.threshold else FAILED)
        strip, above = self.layout.content.take_bottom(self.check.height, gap=GAP.wide)
        strip.place(self.check)
        start = min(TokenColumn.MAX_ROW, above.height / T)
        # Y prints its numbers while they leave A most of the height it could have; else Y is cells
        _, tall = fit_cells(lambda c: self.part1(c, True).group, Region(-np.inf, np.inf, above.bottom, above.top), start, 0, T)
        try:
            _, wide = fit_cells(lambda c: self.part1(c, True).group, above, start, T, T)
        except LayoutError:  # the numbers would leave no legible row at all
            wide = 0.0
        numbers = wide >= self.NUMBERS_KEEP * tall
        _, cell = fit_cells(lambda c: self.part1(c, numbers).group, above, start, T + (0 if numbers else dm), T)
        self.p = self.part1(cell, numbers)
        above.place(self.p.group)
        self.y_numbers = numbers

    def rename(self, attr: str, expr: str, quantity: str):
        """Swap the name in ``attr`` for ``expr`` (naming ``quantity``) in the same place."""
        old = getattr(self.p, attr)
        new = names(math(expr, size=HEADING), quantity).move_to(old)
        setattr(self.p, attr, new)
        return swap(old, new)

    def hand_over_y(self):
        """Y's travelled rows handed over to a fresh matrix of P Y, in the same place."""
        d, p = self.data, self.p
        new, body, _ = self.y_widget(d.PY, d.perm, self.cell, self.y_numbers)
        new.shift(p.Y_body.get_center() - body.get_center())
        shows(new, "PY")
        old = p.Y_mat
        p.Y_mat, p.Y_body = new, body
        return Handover(old, new)

    # ------------------------------------------------------------------ part 2: many permutations
    def plot_parts(self, region: Region, close: bool = False) -> SimpleNamespace:
        """The plot of every trial filling ``region``: the pass line and the staircase labelled on
        themselves, the figures in the empty band between them (at the ``close``, the staircase
        carries its maximum itself)."""
        d = self.data
        run, pic = d.run, d.picture
        n = len(run.defects)
        lo, hi = pic.axis
        q = SimpleNamespace()
        q.y_title = math(DEFECT.typst, size=LABEL)
        strip, body = region.take_top(q.y_title.height, gap=GAP.small)
        # room after the last trial for its dot (radius 0.04) inside the axis, however many trials
        reach = 0.05
        q.plot = Plot.fitted(body, (0, n + max(1.0, n * reach / (body.width - reach))), (10.0 ** lo, 10.0 ** hi), y_log=True, x_ticks=nice_count_ticks(n),
                             y_ticks=[10.0 ** e for e in pic.ticks], x_label="random permutation")
        strip.place(q.y_title, LEFT)
        q.y_title.align_to(q.plot.axes[1], LEFT)
        q.line = q.plot.hline(run.threshold, color=DIM)
        q.line_label = label("pass line", size=SMALL).next_to(q.line.get_end(), UP, buff=GAP.tight)
        q.line_label.align_to(q.line, RIGHT)
        q.marks = TrialMarks(q.plot, run.defects, color=DIM)
        q.curve = staircase(q.plot, run.running_max, HIGHLIGHT)
        q.curve_label = (math(pic.max_line.typst, size=LABEL, color=HIGHLIGHT) if close
                         else label("running max", size=SMALL, color=HIGHLIGHT))
        q.curve_label.next_to(q.curve.get_end(), UP, buff=GAP.tight).align_to(q.curve, RIGHT)
        axes = q.plot.axes[0]
        q.band = Region(axes.get_start()[0] + GAP.normal, axes.get_end()[0] - GAP.normal,
                        q.curve_label.get_top()[1] + GAP.normal, q.line.get_y() - GAP.normal, "band")
        q.max_text = column(math(pic.max_line.typst, size=HEADING, color=HIGHLIGHT),
                            label(pic.max_note, size=SMALL, color=DIM), gap="tight")
        q.zero_note = VGroup()
        if close:
            q.max_text = VGroup()
        elif d.zero_trials:
            q.zero_note = row(q.marks.zeros[0].copy(), label(
                f"exactly 0 in {count(d.zero_trials).text} of {count(n).text} trials", size=SMALL), gap="small")
        if not close:  # one above the other, or side by side where the band is low
            notes = [m for m in (q.zero_note, q.max_text) if len(m)]
            g = column(*notes, gap="normal")
            q.band.fit(g if q.band.fits(g) else row(*notes, gap="section", align="top"), align=UP + LEFT)
        q.group = VGroup(q.plot, q.y_title, q.line, q.line_label, q.marks, q.curve, q.curve_label, q.max_text,
                         q.zero_note)
        return q

    def make_plot(self) -> None:
        d = self.data
        pic = d.picture
        content = self.layout.content
        self.q = q = self.plot_parts(content)
        self.plot, self.line, self.line_label, self.marks, self.max_curve = q.plot, q.line, q.line_label, q.marks, q.curve
        self.trial_dots, self.max_text, self.zero_note = q.marks.dots, q.max_text, q.zero_note

        # why it is exact: each step and what it does; then the verdict
        steps = [math(f.typst, size=HEADING) for f, _ in pic.why]
        says = [label(t, size=LABEL, color=DIM) for _, t in pic.why]
        formulas = column(*steps, gap="wide")
        for s, t in zip(steps, says):
            t.next_to(s, RIGHT, buff=GAP.wide).set_x(formulas.get_right()[0] + GAP.wide + t.width / 2)
        self.why_head = label("why exact?", size=HEADING)
        self.why = VGroup(*[VGroup(s, t) for s, t in zip(steps, says)])
        self.verdict = label(f"✓ {pic.verdict}", size=HEADING, color=VERIFIED if d.run.passed else FAILED)
        content.place(column(self.why_head, self.why, self.verdict, gap="wide"))

        # the close: the equation that holds and its verdict, large, over the plot that proves it
        self.final = column(math(EQUIVARIANT.typst, size=TITLE, color=VERIFIED if d.run.passed else FAILED),
                            label(f"✓ {pic.verdict}", size=LABEL, color=VERIFIED if d.run.passed else FAILED),
                            gap="small", align=ORIGIN)
        top, rest = content.take_top(self.final.height, gap=GAP.wide)
        top.place(self.final)
        self.q_close = self.plot_parts(rest, close=True)
        self.q_close.marks.set_opacity(DIMMED)  # the staircase is the subject: the trials behind it

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        self.make_part1()
        p = self.p
        self.cell = p.A_map.cell
        T = d.X.shape[0]

        self.beat("setup",
                  FadeIn(p.X_name), reveal(p.X_col.chips), FadeIn(p.arrow), FadeIn(p.arrow2), FadeIn(p.A_name),
                  reveal([VGroup(*r) for r in p.A_map.heat.cells]), FadeIn(p.A_map.keys), FadeIn(p.bar),
                  FadeIn(p.Y_name), FadeIn(p.Y_mat), FadeIn(p.y_bar),
                  Handover(VGroup(), p.X_col), Handover(VGroup(), p.A_map),  # whole widgets, bound to their data
                  run_time=1.8)

        move = p.X_col.permute_rows(d.perm)
        shows(p.X_col, "PX")
        self.beat("permute_input", move, self.rename("X_name", f"{N.permutation.math} {N.inputs.math}", "PX"),
                  run_time=1.6)

        # A's rows, then its columns; Y steps back (its name describes the A that was)
        y_group = [p.Y_mat, p.y_bar, p.Y_name, p.arrow2]
        self.maps = [p.A_map]
        A1 = p.A_map.settled(d.PA, range(T))
        shows(A1.heat, "PA")
        self.beat("rows", p.A_map.travel_rows(d.perm), self.rename("A_name", "P A", "PA"), *[dim(m) for m in y_group],
                  Handover(p.A_map, A1), run_time=1.6)
        order = [int(k) for k in d.perm]
        A2 = A1.settled(d.A_moved, order)
        shows(A2.heat, "A_moved")
        self.beat("cols", A1.travel_cols(d.perm), self.rename("A_name", "P A P^T", "A_moved"), Handover(A1, A2),
                  run_time=1.6)
        self.maps += [A1, A2]
        p.A_map = A2
        self.A_final = A2.heat
        self.play(*[undim(m) for m in y_group], run_time=0.5)
        self.beat("outputs", p.Y_mat.permute_rows(d.perm), self.rename("Y_name", f"{N.permutation.math} Y", "PY"),
                  self.hand_over_y(), run_time=1.6)

        self.beat("check_zero" if d.defect == 0.0 else "check", FadeIn(self.check, shift=GAP.small * UP), run_time=1.0)

        # part 2: the plot of every trial fills the frame
        self.make_plot()
        part1 = [p.X_col, p.X_name, p.arrow, p.arrow2, p.A_map, p.bar, p.A_name, p.Y_mat, p.y_bar, p.Y_name, self.check]
        marks_in = reveal(self.marks.dots) if self.marks.mode == "dots" else Create(self.marks.band)
        zeros = [FadeIn(self.marks.zeros), FadeIn(self.zero_note)] if d.zero_trials else []
        self.play(*[FadeOut(m) for m in part1], run_time=0.8)
        q = self.q
        self.beat("trials_zeros" if d.zero_trials else "trials",
                  FadeIn(q.plot), FadeIn(q.y_title), Create(q.line), FadeIn(q.line_label), marks_in,
                  *zeros, run_time=2.0)
        self.beat("running_max", Create(q.curve), FadeIn(q.curve_label), FadeIn(q.max_text, shift=GAP.small * UP),
                  run_time=1.8)
        self.beat("why", Succession(FadeOut(q.group), AnimationGroup(FadeIn(self.why_head), reveal(self.why, lag=0.4))),
                  run_time=1.8)  # the plot leaves before the reasons come: never one text over another
        self.beat("rounding", FadeIn(self.verdict, shift=GAP.small * UP), run_time=0.8)

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return VGroup(self.final, self.q_close.group)

    def closing(self) -> None:
        """The reasons leave; the equation that holds comes in large, over the plot that proves it:
        the staircase far below the pass line."""
        self.beat(self.closing_key(), stage([self.why_head, self.why, self.verdict], [self.final, self.q_close.group], lag=1.0),
                  run_time=1.4, hold=self.CLOSING_HOLD)


# =====================================================================================
# 06 · Causality breaks equivariance
# =====================================================================================
@dataclass(frozen=True)
class CausalSwapData:
    """What clip 06 draws: ``X: (T, d)`` and ``PX`` after the swap ``(i, j)`` (its ``perm`` in
    ``report``), the per-row and total defects of causal and self-attention on it (``report``), the
    causal ``mask`` (row ``m`` sees slots ``0 … m``) and the picture's axis and formulas."""

    X: np.ndarray
    PX: np.ndarray
    report: SwapReport
    threshold: float
    mask: np.ndarray
    picture: Picture06


class CausalBreaksEquivariance(ClipScene):
    """06 · A future token swapped into the past changes causal attention's outputs."""

    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> CausalSwapData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        i, j = default_swap(cfg.T)
        r = swap_report(li.X, li.Wq, li.Wk, li.Wv, i, j)
        return CausalSwapData(X=li.X, PX=permutation_matrix(r.perm) @ li.X, report=r, threshold=THRESHOLD,
                              mask=causal_mask(cfg.T),
                              picture=picture06(r.causal_rows, r.self_rows, r.causal_total, r.self_total, THRESHOLD))

    def caption_values(self) -> dict:
        r = self.data.report
        T = len(r.perm)
        rows = r.causal_rows
        worst = int(np.argmax(rows))
        return {
            "i": r.i, "j": r.j, "T": T, "after": r.j + 1, "last": T - 1, "xi": token_text(r.i), "xj": token_text(r.j),
            "causal": fmt_measure(r.causal_total), "self": fmt_measure(r.self_total),
            "threshold": measure(self.data.threshold).text, "worst": worst, "worst_value": fmt_measure(rows[worst]),
            "xlast": token_text(T - 1),
        }

    # ------------------------------------------------------------------ layout
    def make_chart(self) -> None:
        d = self.data
        r, pic = d.report, d.picture
        T = len(r.perm)
        content = self.layout.content
        verdict = [VERIFIED if v < d.threshold else FAILED for v in r.causal_rows]
        self.values = VGroup(*[figure(v, size=SMALL, color=c) for v, c in zip(r.causal_rows, verdict)])
        self.totals = row(*[readout(prefix, v, color=VERIFIED if v < d.threshold else FAILED)
                            for prefix, v in ((pic.causal_prefix, r.causal_total), (pic.self_prefix, r.self_total))],
                          gap="section")
        probe = TokenColumn(["x_0"], horizontal=True)
        top, rest = content.take_top(probe.height, gap=GAP.normal)
        bottom, rest = rest.take_bottom(self.totals.height, gap=GAP.normal)
        self.row_names = VGroup(*[label(f"row {m}", size=SMALL, color=DIM) for m in range(T)])
        names_w = max(t.width for t in self.row_names)
        values_w = max(v.width for v in self.values)
        chart_region = Region(rest.left + names_w + GAP.small + probe.width + GAP.normal,
                              rest.right - values_w - GAP.normal, rest.bottom, rest.top, "chart")
        self.chart = RowDefects.fitted(chart_region, (r.self_rows, r.causal_rows), d.threshold, pic.axis, pic.ticks)
        self.chart_region, self.wide_region = chart_region, Region(rest.left + names_w + GAP.normal, rest.right,
                                                                     rest.bottom, rest.top, "chart")
        ys = [self.chart.row_y(m) for m in range(T)]
        for t, y in zip(self.row_names, ys):
            t.move_to([rest.left + t.width / 2, y, 0])
        for v, y in zip(self.values, ys):
            v.move_to([rest.right - values_w + v.width / 2, y, 0])
        bottom.place(self.totals)
        self.chip_x = rest.left + names_w + GAP.small + probe.width / 2

        # the tokens over the mask's columns; which slots each row sees, in the chart's place
        axes = self.chart.plot.axes[0]
        pitch = (axes.get_end()[0] - axes.get_start()[0]) / T
        self.tokens = shows(TokenColumn(token_names(range(T)), row_height=pitch, horizontal=True, values=d.X), "X")
        self.tokens.move_to([axes.get_center()[0], top.center[1], 0])
        self.tokens_name = names(math(N.inputs.math, size=HEADING), "X")
        self.tokens_name.move_to([rest.left + self.tokens_name.width / 2, top.center[1], 0])
        self.mask = CausalMaskGrid(d.mask, [token_color(k) for k in range(T)], pitch=pitch, row_height=self.chart.pitch)
        self.mask.move_to([axes.get_center()[0], float(np.mean(ys)), 0])
        self.masked = label("masked", size=SMALL, color=DIM).move_to(VGroup(*self.mask.cells[0][1:]))

        # the chart's furniture: the pass line named on it, the series in a legend over it
        self.line_label = label("pass line", size=SMALL, color=DIM)
        self.line_label.move_to([self.chart.line.get_x(), top.center[1], 0])
        self.legend = row(*[row(RowDefects.swatch(s), label(t, size=SMALL), gap="small")
                            for s, t in ((0, "self-attention"), (1, "causal"))], gap="wide")
        self.legend.move_to([rest.left + self.legend.width / 2, top.center[1], 0])
        if self.legend.get_right()[0] > self.line_label.get_left()[0] - GAP.normal:  # the line's name moves right
            self.line_label.next_to(self.chart.line.get_top(), RIGHT, buff=GAP.small).set_y(top.center[1])

    def band(self, rows) -> Rectangle:
        """A translucent band behind the rows ``rows``, from their names to their printed defects."""
        rows = list(rows)
        top = self.chart.row_y(rows[0]) + self.chart.pitch / 2
        bottom = self.chart.row_y(rows[-1]) - self.chart.pitch / 2
        left, right = self.layout.content.left, self.layout.content.right
        b = Rectangle(width=right - left, height=top - bottom, stroke_color=HIGHLIGHT, stroke_width=2,
                      stroke_opacity=0.8, fill_color=HIGHLIGHT, fill_opacity=0.08)
        return background(b.move_to([(left + right) / 2, (top + bottom) / 2, 0]))

    def show_rows(self, keep) -> list:
        """Focus on the rows in ``keep``: their bars, chips and printed defects at full strength."""
        T = len(self.values)
        return self.chart.focus_rows(set(keep)) + [self.values[k].animate.set_opacity(1.0 if k in keep else DIMMED)
                                                    for k in range(T)]

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        r = d.report
        T = len(r.perm)
        self.make_chart()

        self.beat("tokens", FadeIn(self.tokens_name), reveal(self.tokens.chips), reveal(self.mask.cells),
                  FadeIn(self.row_names), FadeIn(self.masked), Handover(VGroup(), self.tokens), run_time=1.4)
        px = names(math(f"{N.permutation.math} {N.inputs.math}", size=HEADING), "PX").move_to(self.tokens_name)
        px.align_to(self.tokens_name, LEFT)
        old, self.tokens_name = self.tokens_name, px
        move = self.tokens.permute_rows(r.perm)
        shows(self.tokens, "PX")
        self.beat("swap", move, swap(old, px), self.mask.recolor([token_color(int(k)) for k in r.perm]), run_time=1.6)

        # the tokens become the rows' names (the token in slot m is the one output m attends to last)
        fly = [self.tokens.chip(m).animate.move_to([self.chip_x, self.chart.row_y(m), 0]) for m in range(T)]
        self.play(FadeOut(self.mask), FadeOut(self.masked), FadeOut(self.tokens_name), *fly, run_time=0.9)
        plot = self.chart.plot
        self.beat("self", FadeIn(plot), Create(self.chart.line), FadeIn(self.line_label), FadeIn(self.legend[0]),
                  LaggedStart(*[GrowFromEdge(b, LEFT) for b in self.chart.bars[0]]),
                  *[FadeIn(z) for z in self.chart.zeros[0].values()], run_time=1.6)
        self.beat("causal", FadeIn(self.legend[1]), LaggedStart(*[GrowFromEdge(b, LEFT) for b in self.chart.bars[1]]),
                  *[FadeIn(z) for z in self.chart.zeros[1].values()], reveal(self.values), run_time=1.6)
        self.add(self.chart)

        band = None
        if r.i > 0:
            band = self.band(range(0, r.i))
            self.beat("before", FadeIn(band), *self.show_rows(range(0, r.i)), run_time=0.9)
        between = range(r.i, r.j + 1)
        band2 = self.band(between)
        self.beat("between", ReplacementTransform(band, band2) if band is not None else FadeIn(band2),
                  *self.show_rows(between), run_time=0.9)
        band = band2
        after = list(range(r.j + 1, T))
        if after:
            band3 = self.band(after)
            key = "after_zero" if np.all(r.causal_rows[after] == 0.0) else "after"
            self.beat(key, ReplacementTransform(band, band3), *self.show_rows(after), run_time=0.9)
            band = band3
        self.beat("totals", FadeOut(band), *self.show_rows(range(T)), FadeIn(self.totals, shift=GAP.small * UP),
                  run_time=1.0)

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return VGroup(self.chart, self.line_label, self.legend, self.row_names, self.totals)

    def closing(self) -> None:
        """The per-row defects of both, and their totals, across the whole frame: the chips and the
        printed figures leave, the chart widens into their room."""
        d = self.data
        r = d.report
        wide = RowDefects.fitted(self.wide_region, (r.self_rows, r.causal_rows), d.threshold, d.picture.axis,
                                 d.picture.ticks)
        self.chart_wide = wide
        to_label = self.line_label.copy().set_x(wide.line.get_x())
        self.beat(self.closing_key(), FadeOut(self.tokens), FadeOut(self.values), Transform(self.chart, wide),
                  Transform(self.line_label, to_label), run_time=1.4, hold=self.CLOSING_HOLD)


# =====================================================================================
# 07 · Same multiset
# =====================================================================================
@dataclass(frozen=True)
class SameMultisetData:
    """What clip 07 draws.

    ``vocab``, ``table: (V, d)`` the shared embedding table; ``tokens_a/b`` and ``ids_a/b``;
    ``matching`` with ``tokens_b[i] == tokens_a[matching[i]]``; ``PE: (T, d)`` sinusoidal
    positions; ``plain`` / ``positioned``: self-attention on both sentences without and with
    PE added, compared token for token and mean-pooled; ``matched_plain`` / ``matched_pos``:
    a's outputs in b's word order (``P Attn(X_a)``, P the matching), set beside b's at the close;
    ``picture``: the input and output scales and the proof lines.
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
    matched_plain: np.ndarray
    matched_pos: np.ndarray
    cmap: str
    picture: Picture07


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


class SameMultiset(ClipScene):
    """07 · "the cat ate the mouse" and "the mouse ate the cat": identical outputs without positions."""

    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    MAX_CELL = 1.3

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SameMultisetData:
        sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        m = sp.matching()
        PE = my_sinusoidal_position(len(sp.tokens_a), cfg.d, cfg.rope_base)
        plain = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv)
        pos = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv, positions=PE)
        P = permutation_matrix(m)
        return SameMultisetData(
            vocab=sp.vocab, table=sp.table, tokens_a=sp.tokens_a, tokens_b=sp.tokens_b,
            ids_a=sp.ids_a, ids_b=sp.ids_b, matching=m, PE=PE, plain=plain, positioned=pos,
            matched_plain=P @ plain.Y_a, matched_pos=P @ pos.Y_a, cmap=cfg.cmap_signed,
            picture=picture07(sp.table, plain, pos, cfg.cmap_signed),
        )

    def caption_values(self) -> dict:
        d = self.data
        worst = int(np.argmax(d.positioned.diffs))
        return {
            "a": " ".join(d.tokens_a), "b": " ".join(d.tokens_b), "T": len(d.tokens_a), "V": len(d.vocab),
            "max": fmt_measure(d.plain.max_diff), "pooled": fmt_measure(d.plain.pooled_gap),
            "max_pos": fmt_measure(d.positioned.max_diff), "pooled_pos": fmt_measure(d.positioned.pooled_gap),
            "worst_word": d.tokens_b[worst], "first_b": d.tokens_b[0], "d": d.table.shape[1],
        }

    def word_color(self, w: str):
        return token_color(self.data.vocab.index(w))

    # ------------------------------------------------------------------ layout
    def plan(self) -> None:
        """Cell size and columns: [words a][X_a] [middle] [X_b][words b], as large as fits.

        The cells shrink until everything fits; when the words beside the rows would need rows
        too short for legible chips, the words there are abbreviated (``short``; the sentences
        beat shows them whole) instead of shrinking further."""
        d = self.data
        pic = d.picture
        T, dm = len(d.tokens_a), d.table.shape[1]
        content = self.layout.content
        names, rest = content.take_top(math("X_a", size=LABEL).height, gap=GAP.small)
        self.bar_strip, rest = rest.take_bottom(ColorBar(pic.inputs, height=1.0, horizontal=True).height,
                                                gap=GAP.small)
        self.names_y = names.center[1]
        diff_w = max(figure(v, size=SMALL).width for v in np.concatenate([d.plain.diffs, d.positioned.diffs]))
        mean_w = label("mean", size=SMALL).width
        diff_h = max(figure(v, size=SMALL).height for v in np.concatenate([d.plain.diffs, d.positioned.diffs]))
        floor = max(WordColumn.min_row(SMALL), diff_h + GAP.hair)
        longest = max(len(w) for w in d.vocab)
        W = content.width
        for n_chars in [None] + list(range(longest - 1, 3, -1)):
            short = abbreviations(d.vocab, n_chars)
            vocab_w = WordColumn.chip_width(list(short.values()), SMALL)
            wa = max(vocab_w, mean_w)
            fixed = 2 * (wa + GAP.small + GAP.normal)
            # the middle column holds the differences, the pooled gap under them, and the table (whose
            # cells may be narrower than the sentences')
            cell = min(self.MAX_CELL, (W - fixed - diff_w - GAP.wide) / (2 * dm),
                       (W - fixed - vocab_w - GAP.small) / (2 * dm + dm / 2),  # table cells at least half as wide
                       (rest.height - GAP.small) / (T + 1))
            if cell >= floor:
                # the middle takes the width the cells leave: the links between the sentences get room
                mid = max(diff_w + GAP.wide, vocab_w + GAP.small + dm * cell / 2, W - fixed - 2 * dm * cell)
                break
        else:
            raise LayoutError(f"clip 07 cannot fit {T} words of up to {longest} letters at d={dm} "
                              f"in {content.width:.2f}×{content.height:.2f} units")
        self.short, self.cell, self.vocab_w, self.diff_w = short, cell, vocab_w, diff_w
        self.table_cell = (min(cell, (mid - vocab_w - GAP.small) / dm), cell)
        total = fixed + 2 * dm * cell + mid
        x = content.left + (W - total) / 2
        self.col_a = (x, x + wa)
        x += wa + GAP.small
        self.heat_a_x = x + dm * cell / 2
        x += dm * cell + GAP.normal
        self.mid = (x, x + mid)
        x += mid + GAP.normal
        self.heat_b_x = x + dm * cell / 2
        x += dm * cell + GAP.small
        self.col_b = (x, x + wa)
        block = (T + 1) * cell + GAP.small
        self.rows_top = rest.top - (rest.height - block) / 2
        self.heat_y = self.rows_top - T * cell / 2
        self.pool_y = self.rows_top - T * cell - GAP.small - cell / 2
        self.words_w = wa
        # the names over the two sides and the differences' head, spread so none touches another
        self.diff_head = math(d.picture.delta, size=SMALL, color=DIM)
        widths = [max(self.name(side, k, place=False).width for k in range(4)) for side in "ab"]
        diff_right = self.heat_b_x - dm * cell / 2 - GAP.small
        self.name_x = spread_1d([self.heat_a_x, diff_right - self.diff_head.width / 2, self.heat_b_x],
                                [widths[0], self.diff_head.width, widths[1]], content.left, content.right,
                                gap=GAP.normal)
        self.diff_head.move_to([self.name_x[1], self.names_y, 0])

    def name(self, side: str, stage_: int, place: bool = True):
        """The name of side ``a``/``b`` at stage 0 (inputs), 1 (outputs), 2 (inputs + PE), 3 (outputs of those)."""
        pe = N.encoding_matrix.math
        expr = [f"X_{side}", f"\"Attn\"(X_{side})", f"X_{side} + {pe}", f"\"Attn\"(X_{side} + {pe})"][stage_]
        q = ["plain.X_", "plain.Y_", "positioned.X_", "positioned.Y_"][stage_] + side
        m = names(math(expr, size=LABEL), q)
        return m.move_to([self.name_x[0 if side == "a" else 2], self.names_y, 0]) if place else m

    def color_bar(self, scale, title: str) -> VGroup:
        """A horizontal colour bar for ``scale`` under the middle column, its word on its left."""
        bar = ColorBar(scale, height=self.mid[1] - self.mid[0], horizontal=True)
        bar.shift(np.array([sum(self.mid) / 2, self.bar_strip.top, 0]) - [bar.frame.get_x(), bar.get_top()[1], 0])
        t = label(title, size=SMALL, color=DIM).next_to(bar.frame, LEFT, buff=GAP.normal)
        g = VGroup(t, bar)
        g.bar = bar
        return g

    def diff_labels(self, diffs, color) -> VGroup:
        """One measured difference per row of b, right-aligned just left of X_b."""
        g = VGroup()
        right = self.Y_b.get_left()[0] - GAP.small
        for i, v in enumerate(diffs):
            t = figure(v, size=SMALL, color=color)
            t.move_to([right - t.width / 2, self.Y_b.cell_center(i, 0)[1], 0])
            g.add(t)
        return g

    def pool_figure(self, gap: float, color):
        """The largest difference of the two pooled vectors, in the differences' column (under their head)."""
        t = figure(gap, size=SMALL, color=color)
        return t.move_to([self.Y_b.get_left()[0] - GAP.small - t.width / 2, self.pool_y, 0])

    def match_lines(self) -> VGroup:
        """Token ``i`` of b joined to its match in a, ending before the widest difference it may print."""
        d = self.data
        g = VGroup()
        x_end = self.Y_b.get_left()[0] - GAP.small - self.diff_w - GAP.normal
        for i, src in enumerate(d.matching):
            a = self.Y_a.cell(int(src), self.Y_a.values.shape[1] - 1).get_right() + GAP.tight * RIGHT
            b = np.array([x_end, self.Y_b.cell(i, 0).get_center()[1], 0])
            g.add(Line(a, b, stroke_color=self.word_color(d.tokens_b[i]), stroke_width=3))
        return g

    def words_to_rows(self, row_: TokenRow, col: WordColumn) -> list:
        """Each chip of a sentence travels to its row beside the heatmap; a word printed whole
        goes with it, an abbreviated one is swapped (never one string morphed into another)."""
        anims = []
        for i in range(len(row_.tokens)):
            box, text = col.chips[i]
            if row_.texts[i].text == text.text:
                anims.append(ReplacementTransform(row_.token(i), col.chips[i]))
            else:
                anims += [ReplacementTransform(row_.boxes[i], box), swap(row_.texts[i], text)]
        return anims

    def pool_rows(self, comparison: MultisetComparison) -> VGroup:
        """The two mean-pooled sentence vectors, under their sentences' rows."""
        pic = self.data.picture
        return VGroup(Heatmap(comparison.pooled_a[None, :], pic.outputs, cell_size=self.cell).move_to([self.heat_a_x, self.pool_y, 0]),
                      Heatmap(comparison.pooled_b[None, :], pic.outputs, cell_size=self.cell).move_to([self.heat_b_x, self.pool_y, 0]))

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        pic = d.picture
        plain, pos = d.plain, d.positioned
        self.plan()
        cell = self.cell
        content = self.layout.content

        # the sentences, large, one above the other
        colors_a = [self.word_color(w) for w in d.tokens_a]
        colors_b = [self.word_color(w) for w in d.tokens_b]
        self.row_a = TokenRow(d.tokens_a, colors=colors_a, show_index=False, max_width=content.width)
        self.row_b = TokenRow(d.tokens_b, colors=colors_b, show_index=False, max_width=content.width)
        rows = column(self.row_a, self.row_b, gap="section", align=ORIGIN)
        content.fit(rows, max_scale=2.0)
        self.beat("sentences", reveal(self.row_a), reveal(self.row_b), run_time=1.4)

        # the words become the rows of each sentence; one embedding table in the middle
        self.words_a = WordColumn([self.short[w] for w in d.tokens_a], colors_a, row_height=cell, width=self.words_w, size=SMALL)
        self.words_b = WordColumn([self.short[w] for w in d.tokens_b], colors_b, row_height=cell, width=self.words_w, size=SMALL)
        self.words_a.move_to([sum(self.col_a) / 2, self.heat_y, 0])
        self.words_b.move_to([sum(self.col_b) / 2, self.heat_y, 0])
        self.table = shows(Heatmap(d.table, pic.inputs, cell_size=self.table_cell), "table")
        self.table_words = WordColumn([self.short[w] for w in d.vocab], [token_color(k) for k in range(len(d.vocab))],
                                      row_height=cell, width=self.vocab_w, size=SMALL)
        tbl = row(self.table_words, self.table, gap="small").move_to([sum(self.mid) / 2, self.heat_y, 0])
        self.table_name = names(label("embedding table", size=SMALL, color=DIM), "table")
        self.table_name.next_to(tbl, DOWN, buff=GAP.small)
        self.bar_in = self.color_bar(pic.inputs, "input")
        self.beat("table",
                  LaggedStart(AnimationGroup(*self.words_to_rows(self.row_a, self.words_a),
                                             *self.words_to_rows(self.row_b, self.words_b)),
                              AnimationGroup(FadeIn(self.table), FadeIn(self.table_words), FadeIn(self.table_name),
                                             FadeIn(self.bar_in)),
                              lag_ratio=0.6),
                  run_time=2.0)

        # rows fly from the table into each sentence's X
        self.Y_a = shows(Heatmap(plain.X_a, pic.inputs, cell_size=cell).move_to([self.heat_a_x, self.heat_y, 0]), "plain.X_a")
        self.Y_b = shows(Heatmap(plain.X_b, pic.inputs, cell_size=cell).move_to([self.heat_b_x, self.heat_y, 0]), "plain.X_b")
        self.name_a, self.name_b = self.name("a", 0), self.name("b", 0)
        flights = []
        for heat, ids in ((self.Y_a, d.ids_a), (self.Y_b, d.ids_b)):
            for i, k in enumerate(ids):
                src = VGroup(*[c.copy() for c in self.table.cells[int(k)]])
                flights.append((src, VGroup(*heat.cells[i])))
        self.beat("shuffled", LaggedStart(*[Transform(s, t) for s, t in flights]), FadeIn(self.name_a), FadeIn(self.name_b),
                  Handover(VGroup(*[s for s, _ in flights]), VGroup(self.Y_a, self.Y_b)), run_time=2.0)
        self.play(FadeOut(self.table), FadeOut(self.table_words), FadeOut(self.table_name), run_time=0.6)

        # attend: X -> Y, on the outputs' scale
        self.bar_out = self.color_bar(pic.outputs, "output")
        na, nb = self.name("a", 1), self.name("b", 1)
        self.beat("attend", self.Y_a.animate_values(plain.Y_a, shows="plain.Y_a", scale=pic.outputs),
                  self.Y_b.animate_values(plain.Y_b, shows="plain.Y_b", scale=pic.outputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_in, self.bar_out), run_time=1.5)
        self.name_a, self.name_b = na, nb

        # matched token for token
        self.diffs = self.diff_labels(plain.diffs, VERIFIED)
        self.links = self.match_lines()
        self.beat("match", LaggedStart(*[Create(ln) for ln in self.links], lag_ratio=0.2), run_time=1.6)
        self.beat("diffs_zero" if plain.max_diff == 0.0 else "diffs",
                  reveal(self.diffs), FadeIn(self.diff_head), run_time=1.2)

        # mean-pooled sentence vectors
        self.pools = self.pool_rows(plain)
        self.pool_words = VGroup(
            label("mean", size=SMALL, color=DIM).next_to(self.pools[0], LEFT, buff=GAP.small),
            label("mean", size=SMALL, color=DIM).next_to(self.pools[1], RIGHT, buff=GAP.small))
        self.pool_text = self.pool_figure(plain.pooled_gap, VERIFIED)
        self.beat("pooled_zero" if plain.pooled_gap == 0.0 else "pooled",
                  FadeIn(self.pools), FadeIn(self.pool_words), FadeIn(self.pool_text), run_time=1.2)

        # add positions: the inputs again, each row plus its position's encoding
        na, nb = self.name("a", 2), self.name("b", 2)
        self.bar_in2 = self.color_bar(pic.inputs, "input")
        self.beat("positions", self.Y_a.animate_values(pos.X_a, shows="positioned.X_a", scale=pic.inputs),
                  self.Y_b.animate_values(pos.X_b, shows="positioned.X_b", scale=pic.inputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_out, self.bar_in2),
                  FadeOut(self.diffs), FadeOut(self.diff_head), FadeOut(self.pools), FadeOut(self.pool_text),
                  FadeOut(self.pool_words), run_time=1.2)
        self.name_a, self.name_b = na, nb

        # attend again: the same words now give different outputs
        na, nb = self.name("a", 3), self.name("b", 3)
        self.bar_pos = self.color_bar(pic.outputs, "output")
        self.diffs_shown = self.diff_labels(pos.diffs, FAILED)
        self.pools_shown = self.pool_rows(pos)
        self.pool_shown = self.pool_figure(pos.pooled_gap, FAILED)
        self.beat("separate", self.Y_a.animate_values(pos.Y_a, shows="positioned.Y_a", scale=pic.outputs),
                  self.Y_b.animate_values(pos.Y_b, shows="positioned.Y_b", scale=pic.outputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_in2, self.bar_pos),
                  reveal(self.diffs_shown), FadeIn(self.diff_head), FadeIn(self.pools_shown), FadeIn(self.pool_words),
                  FadeIn(self.pool_shown), run_time=1.6)
        self.name_a, self.name_b = na, nb

    # ------------------------------------------------------------------ the takeaway
    def final_panels(self) -> VGroup:
        """Matched outputs side by side: b's, and a's in b's word order, without positions (equal)
        and with them (apart), each pair with its measured difference, as large as fits."""
        d = self.data
        pic = d.picture
        T, dm = d.plain.Y_b.shape
        pe = N.encoding_matrix.math
        cases = (("without positions", d.plain.Y_b, d.matched_plain, "plain.Y_b", "matched_plain", "X_b", "X_a",
                  d.plain.max_diff, VERIFIED, "="),
                 ("with positions", d.positioned.Y_b, d.matched_pos, "positioned.Y_b", "matched_pos", f"X_b + {pe}",
                  f"X_a + {pe}", d.positioned.max_diff, FAILED, "!="))

        def build(cell):
            panels = VGroup()
            for head, Yb, Ym, qb, qm, xb, xa, gap, color, sign in cases:
                hb = shows(Heatmap(Yb, pic.outputs, cell_size=cell), qb)
                hm = shows(Heatmap(Ym, pic.outputs, cell_size=cell), qm)
                nb = names(math(f"\"Attn\"({xb})", size=SMALL), qb).next_to(hb, UP, buff=GAP.small)
                nm = names(math(f"P \"Attn\"({xa})", size=SMALL), qm).next_to(hm, UP, buff=GAP.small)
                pair = row(VGroup(hb, nb), math(sign, size=HEADING), VGroup(hm, nm), gap="normal")
                panels.add(column(label(head, size=LABEL), pair, readout(pic.delta, gap, color=color),
                                  gap="normal", align=ORIGIN))
            return row(*panels, gap="section", align="top")

        region = self.layout.content
        g, _ = fit_cells(build, region, self.MAX_CELL, 4 * dm, T)
        region.place(g)
        return g

    def takeaway(self) -> VGroup:
        return self.final

    def closing(self) -> None:
        """Everything steps aside for the two comparisons, side by side and large."""
        self.final = self.final_panels()
        leaving = [m for m in self.mobjects if m is not self.header]
        self.beat(self.closing_key(), stage(leaving, [self.final], lag=1.0), run_time=1.4, hold=self.CLOSING_HOLD)
