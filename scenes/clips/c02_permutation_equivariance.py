"""02 ``PermutationEquivariance`` (§2, Q1): Attn(X) as weights A and outputs Y; permute the input
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

Every colour scale, log axis and proof line comes from ``scenes.figures.equivariance`` (the one
description the clip and its still draw from); every widget is placed in a region of
``self.layout``, sized from the config's ``T``, ``d`` and words.

Render directly with ``manim -ql scenes/clips/c02_permutation_equivariance.py PermutationEquivariance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from manim import (
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Succession,
    VGroup,
)

from mathcore import (
    attention_fn,
    lecture_inputs,
    self_attention,
)
from mathcore.config import LectureConfig
from mathcore.equivariance import (
    EquivarianceRun,
    equivariance_defect,
    equivariance_run,
    permuted_weights,
)
from mathcore.permutation import permutation_matrix
from scenes.clips.c02_widgets import RowHeatmap, TravelMap, TrialMarks, staircase
from scenes.figures.equivariance import (
    DEFECT,
    EQUIVARIANT,
    Picture02,
    picture02,
)
from scenes.kit import (
    DIM,
    FAILED,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    TITLE,
    VERIFIED,
    ClipScene,
    ColorBar,
    LabelledMatrix,
    Plot,
    Region,
    fmt_measure,
    fmt_value,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, column, reveal, row, stage
from scenes.kit.layout import LayoutError, fit_cells
from scenes.kit.motion import dim, undim
from scenes.kit.notation import N, token_names, token_text
from scenes.kit.numbers import count, measure, nice_count_ticks
from scenes.kit.permuting import Handover, TokenColumn
from scenes.kit.proofs import readout


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

