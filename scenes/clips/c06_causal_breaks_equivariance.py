"""06 ``CausalBreaksEquivariance`` (§5): the same test with causal attention and a swap that moves a
future token into the past.

* ``tokens``, ``swap``: which slots each output row m sees (the mask, cells in the colour of the
  token in the slot); the swap recolours it.
* ``self``, ``causal``: the tokens become the rows' names; every row's defect as a bar on a log
  axis, self-attention hollow over causal filled, each bar in the colour of its verdict.
* ``before``, ``between``, ``after``: the rows with the same past, a different past, every token.
* ``totals``, ``close``: both totals; the chart widens to the frame with them.

Every colour scale, log axis and proof line comes from ``scenes.figures.equivariance`` (the one
description the clip and its still draw from); every widget is placed in a region of
``self.layout``, sized from the config's ``T``, ``d`` and words.

Render directly with ``manim -ql scenes/clips/c06_causal_breaks_equivariance.py CausalBreaksEquivariance``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Transform,
    VGroup,
)

from mathcore import (
    causal_mask,
    lecture_inputs,
)
from mathcore.config import LectureConfig
from mathcore.equivariance import (
    THRESHOLD,
    SwapReport,
    default_swap,
    swap_report,
)
from mathcore.permutation import permutation_matrix
from scenes.clips.c06_widgets import CausalMaskGrid, RowDefects
from scenes.figures.equivariance import (
    Picture06,
    picture06,
)
from scenes.kit import (
    DIM,
    FAILED,
    HEADING,
    HIGHLIGHT,
    SMALL,
    VERIFIED,
    ClipScene,
    Region,
    fmt_measure,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, reveal, row
from scenes.kit.layout import background
from scenes.kit.notation import N, token_names, token_text
from scenes.kit.numbers import measure
from scenes.kit.permuting import Handover, TokenColumn
from scenes.kit.proofs import readout
from scenes.kit.theme import figure


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

