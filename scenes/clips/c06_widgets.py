"""The widgets only clip 06 draws (``scenes/clips/c06_causal_breaks_equivariance.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    LEFT as LEFT_,
)
from manim import (
    AnimationGroup,
    Rectangle,
    VGroup,
)

from scenes.kit.theme import DIM, FAILED, FAINT, FG


# ------------------------------------------------------------------ the causal mask, slot by slot
class CausalMaskGrid(VGroup):
    """``mask: (T, T)`` booleans (row ``t`` may see slot ``s``) as cells ``pitch`` wide and
    ``row_height`` tall.  A visible cell is filled with the colour of the token in its slot
    (``slot_colors``); a hidden one is a faint outline.  ``cells[t][s]`` is cell ``(t, s)``."""

    def __init__(self, mask, slot_colors: Sequence, pitch: float, row_height: float, opacity: float = 0.6, **kw):
        super().__init__(**kw)
        m = np.asarray(mask, dtype=bool)
        self.mask = m
        self.opacity = opacity
        T = m.shape[0]
        self.cells = VGroup()
        for t in range(T):
            row = VGroup()
            for s in range(T):
                r = Rectangle(width=pitch * 0.86, height=row_height * 0.8, stroke_width=2)
                r.move_to(np.array([(s - (T - 1) / 2) * pitch, ((T - 1) / 2 - t) * row_height, 0.0]))
                if m[t, s]:
                    r.set_fill(slot_colors[s], opacity=opacity).set_stroke(slot_colors[s], width=2, opacity=0.9)
                else:
                    r.set_fill(FAINT, opacity=0.0).set_stroke(DIM, width=1.5, opacity=1.0)
                row.add(r)
            self.cells.add(row)
        self.add(self.cells)

    def set_slot_colors(self, slot_colors: Sequence) -> CausalMaskGrid:
        """Paint every visible cell the colour of the token now in its slot, at once."""
        T = self.mask.shape[0]
        for t in range(T):
            for s in range(T):
                if self.mask[t, s]:
                    self.cells[t][s].set_fill(slot_colors[s], opacity=self.opacity).set_stroke(slot_colors[s])
        return self

    def open_all(self, slot_colors: Sequence) -> CausalMaskGrid:
        """Fill every hidden cell with the colour of the token in its slot, like a visible one, at once (attention
        without a mask: every row sees every slot); :meth:`close_hidden` animates the staircase back."""
        for t, row in enumerate(self.cells):
            for s, c in enumerate(row):
                if not self.mask[t, s]:
                    c.set_fill(slot_colors[s], opacity=self.opacity).set_stroke(slot_colors[s], width=2, opacity=0.9)
        return self

    def close_hidden(self) -> AnimationGroup:
        """Animate the hidden cells back to faint outlines: the mask's staircase again."""
        return AnimationGroup(*[c.animate.set_fill(FAINT, opacity=0.0).set_stroke(DIM, width=1.5, opacity=1.0)
                                for t, row in enumerate(self.cells) for s, c in enumerate(row) if not self.mask[t, s]])

    def recolor(self, slot_colors: Sequence) -> AnimationGroup:
        """Animate every visible cell to the colour of the token now in its slot."""
        anims = []
        T = self.mask.shape[0]
        for t in range(T):
            for s in range(T):
                if self.mask[t, s]:
                    c = self.cells[t][s]
                    anims.append(c.animate.set_fill(slot_colors[s], opacity=self.opacity).set_stroke(slot_colors[s]))
        return AnimationGroup(*anims)


# ------------------------------------------------------------------ per-row defects, one series a chart
class RowChart(VGroup):
    """The defect of every output row ``m`` of one attention as a horizontal bar on a log axis
    ``10^lo … 10^hi``: row ``m`` in the ``m``-th slot from the top, ``pitch`` tall.  A bar at or past
    ``threshold`` (the dashed pass line) is drawn in the failed colour (its role declared), one under it in
    the foreground colour.  An exact zero has no place on a log axis: a hollow diamond on the floor with the
    deck's verdict on it beside it, ✓ and ``0`` with its "exact" mark (``zeros[m]``, ``[1]`` the verdict).

    ``plot`` is the :class:`~scenes.kit.plots.Plot` (x: the defect, y: the rows), ``bars[m]`` a bar (its
    ``value``), ``line`` the pass line, :meth:`row_y` the centre of row ``m``'s slot."""

    SHARE = 0.56  # a bar's thickness as a share of its slot

    def __init__(self, values, threshold: float, exponents: tuple[int, int], ticks: Sequence[int], width: float,
                 height: float, name: str = "", line_verdicts: bool = False, **kw):
        """``name`` names the series under the axis (its x label).  With ``line_verdicts`` every passing row carries
        the deck's verdict just past the pass line, in one column (``passes[m]``): ✓ and its figure, ``0`` exact for
        a zero (whose diamond stays on the floor), ``≈ 6 × 10⁻¹⁷`` for rounding noise."""
        from manim import RIGHT, Square

        from scenes.kit.binding import role
        from scenes.kit.plots import Plot
        from scenes.kit.proofs import verdict
        from scenes.kit.theme import SMALL

        super().__init__(**kw)
        self.values = np.asarray(values, dtype=float)
        T = len(self.values)
        lo, hi = exponents
        self.threshold = float(threshold)
        self.plot = Plot((10.0 ** lo, 10.0 ** hi), (-0.5, T - 0.5), width=width, height=height, x_log=True,
                         x_ticks=[10.0 ** e for e in ticks], grid=False, x_label=name)
        self.pitch = height / T
        thick = self.pitch * self.SHARE
        floor = self.plot.x_range[0]
        self.line = self.plot.vline(self.threshold, color=DIM, dashed=True)
        self.bars = VGroup()
        self.zeros: dict[int, VGroup] = {}
        marks = VGroup()
        x0 = self.plot.to_point(floor, 0.0)[0]
        for m, x in enumerate(self.values):
            failed = x >= self.threshold
            c = FAILED if failed else FG
            x1 = self.plot.to_point(floor if x <= 0 else min(x, self.plot.x_range[1]), 0.0)[0]
            bar = Rectangle(width=max(x1 - x0, 1e-3), height=thick, stroke_width=0, fill_color=c,
                            fill_opacity=0.9 if failed else 0.75)
            bar.move_to(np.array([x0, self.row_y(m), 0.0]), aligned_edge=LEFT_)
            if failed:
                role(bar, "failed")
            bar.value = float(x)
            self.bars.add(bar)
            if x == 0.0:
                d = Square(side_length=thick * 0.75, stroke_color=FG, stroke_width=3, fill_opacity=0.0).rotate(np.pi / 4)
                d.move_to(np.array([x0 + d.width / 2 + 0.04, self.row_y(m), 0.0]))
                # an exact zero is the deck's verdict: ✓ and "0 exact" (the audit allows "exact" in a verdict only)
                zero = verdict("", 0.0, passed=bool(0.0 < self.threshold), size=SMALL).next_to(d, RIGHT, buff=0.1)
                self.zeros[m] = VGroup(d, zero)
                self.zeros[m].value = 0.0
                marks.add(self.zeros[m])
        self.passes: dict[int, VGroup] = {}
        if line_verdicts:  # every passing row's verdict in one column, just past the pass line
            x_line = self.line.get_x()
            for m, x in enumerate(self.values):
                if x >= self.threshold:
                    continue
                v = self.zeros[m][1] if m in self.zeros else verdict("", float(x), passed=True, size=SMALL)
                v.shift(np.array([x_line + 0.12 - v.check.get_left()[0], self.row_y(m) - v.get_center()[1], 0.0]))
                self.passes[m] = v
                if m not in self.zeros:
                    marks.add(v)
        self.marks = marks
        self.add(self.plot, self.line, self.bars, self.marks)

    @classmethod
    def fitted(cls, region, values, threshold: float, exponents, ticks, name: str = "",
               line_verdicts: bool = False) -> RowChart:
        """The chart with its axes, tick labels and name filling ``region`` (the tick labels hang below the
        axis and past its ends: a probe measures how far)."""
        probe = cls(values, threshold, exponents, ticks, width=region.width, height=region.height, name=name,
                    line_verdicts=line_verdicts)
        axes = probe.plot.axes[0]
        left = axes.get_start()[0] - probe.get_left()[0]
        right = max(0.0, probe.get_right()[0] - axes.get_end()[0])
        below = axes.get_start()[1] - probe.get_bottom()[1]
        chart = cls(values, threshold, exponents, ticks, width=region.width - left - right, height=region.height - below,
                    name=name, line_verdicts=line_verdicts)
        chart.shift(np.array([region.left + left, region.bottom + below, 0.0]) - chart.plot.axes[0].get_start())
        return chart

    def row_y(self, m: int) -> float:
        """The centre of row ``m``'s slot (row 0 at the top)."""
        return float(self.plot.to_point(self.plot.x_range[0], len(self.values) - 1 - m)[1])

    def row_parts(self, m: int) -> VGroup:
        """Row ``m``'s bar, its zero mark if it has one, and its verdict past the pass line if it has one."""
        return VGroup(self.bars[m], *([self.zeros[m]] if m in self.zeros else []),
                      *([self.passes[m]] if m in self.passes and m not in self.zeros else []))
