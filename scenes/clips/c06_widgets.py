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
    VMobject,
)

from scenes.kit.compose import DIMMED
from scenes.kit.theme import DIM, FAILED, FAINT, FG, VERIFIED


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
                    r.set_fill(FAINT, opacity=0.0).set_stroke(FAINT, width=1.5, opacity=1.0)
                row.add(r)
            self.cells.add(row)
        self.add(self.cells)

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


# ------------------------------------------------------------------ per-row defects, two series
class RowDefects(VGroup):
    """The defect of every output row ``m`` for two series (``series[0]`` hollow, ``series[1]``
    filled) as horizontal bars on a log axis ``10^lo … 10^hi``: row ``m`` at the ``m``-th slot from
    the top, the two bars of a row one above the other.  A bar's colour is its verdict:
    ``VERIFIED`` under ``threshold`` (the dashed pass line), ``FAILED`` above it.  An exact zero has
    no place on a log axis: a hollow diamond on the floor (``zeros[s][m]``).

    ``plot`` is the :class:`~scenes.kit.plots.Plot` (x: the defect, y: the rows), ``bars[s][m]`` a
    bar, ``line`` the pass line, :meth:`row_y` the centre of row ``m``'s slot."""

    SHARE = 0.36  # a bar's thickness as a share of a slot; the two bars of a slot fill 3/4 of it

    def __init__(self, series: Sequence, threshold: float, exponents: tuple[int, int], ticks: Sequence[int],
                 width: float, height: float, **kw):
        from manim import Rectangle, Square

        from scenes.kit.plots import Plot

        super().__init__(**kw)
        self.series = [np.asarray(v, dtype=float) for v in series]
        T = len(self.series[0])
        lo, hi = exponents
        self.threshold = float(threshold)
        self.plot = Plot((10.0 ** lo, 10.0 ** hi), (-0.5, T - 0.5), width=width, height=height, x_log=True,
                         x_ticks=[10.0 ** e for e in ticks], grid=False)
        self.pitch = height / T
        thick = self.pitch * self.SHARE
        floor = self.plot.x_range[0]
        self.line = self.plot.vline(self.threshold, color=DIM, dashed=True)
        self.bars = VGroup()
        self.zeros: list[dict[int, VGroup]] = []
        marks = VGroup()
        for s, v in enumerate(self.series):
            row = VGroup()
            zeros = {}
            for m, x in enumerate(v):
                c = VERIFIED if x < self.threshold else FAILED
                y = self.row_y(m) + (thick / 2 if s == 0 else -thick / 2)
                x0 = self.plot.to_point(floor, 0.0)[0]
                x1 = self.plot.to_point(self.plot.x_range[0] if x <= 0 else min(x, self.plot.x_range[1]), 0.0)[0]
                bar = Rectangle(width=max(x1 - x0, 1e-3), height=thick * 0.9, stroke_color=c,
                                stroke_width=2.5 if s == 0 else 0, fill_color=c, fill_opacity=0.0 if s == 0 else 0.9)
                bar.move_to(np.array([x0, y, 0.0]), aligned_edge=LEFT_)
                bar.value = float(x)
                row.add(bar)
                if x == 0.0:
                    d = Square(side_length=thick * 0.7, stroke_color=c, stroke_width=3, fill_opacity=0.0).rotate(np.pi / 4)
                    d.move_to(np.array([x0 + d.width / 2, y, 0.0]))
                    zeros[m] = VGroup(d)
                    zeros[m].value = 0.0
                    marks.add(zeros[m])
            self.bars.add(row)
            self.zeros.append(zeros)
        self.marks = marks
        self.add(self.plot, self.line, self.bars, self.marks)

    @classmethod
    def fitted(cls, region, series, threshold: float, exponents, ticks) -> RowDefects:
        """The chart with its axes and tick labels filling ``region`` (the tick labels hang below the
        axis and past its ends: a probe measures how far)."""
        probe = cls(series, threshold, exponents, ticks, width=region.width, height=region.height)
        axes = probe.plot.axes[0]
        left = axes.get_start()[0] - probe.get_left()[0]
        right = max(0.0, probe.get_right()[0] - axes.get_end()[0])
        below = axes.get_start()[1] - probe.get_bottom()[1]
        chart = cls(series, threshold, exponents, ticks, width=region.width - left - right, height=region.height - below)
        chart.shift(np.array([region.left + left, region.bottom + below, 0.0]) - chart.plot.axes[0].get_start())
        return chart

    @classmethod
    def swatch(cls, series: int, color=FG, size: float = 0.5) -> VMobject:
        """A legend swatch drawn like series ``series``' bars (hollow for 0, filled for 1), ``size`` long."""
        from manim import Rectangle

        r = Rectangle(width=size, height=size * cls.SHARE, stroke_color=color, stroke_width=2.5 if series == 0 else 0,
                      fill_color=color, fill_opacity=0.0 if series == 0 else 0.9)
        return r

    def row_y(self, m: int) -> float:
        """The centre of row ``m``'s slot (row 0 at the top)."""
        return float(self.plot.to_point(self.plot.x_range[0], len(self.series[0]) - 1 - m)[1])

    def series_parts(self, s: int) -> VGroup:
        """The bars and exact-zero marks of series ``s``."""
        return VGroup(*self.bars[s], *self.zeros[s].values())

    def focus_rows(self, keep) -> list:
        """Animations that bring the rows in ``keep`` to full strength and dim the others."""
        anims = []
        for s in range(len(self.series)):
            for m, bar in enumerate(self.bars[s]):
                a = 1.0 if m in keep else DIMMED
                anims.append(bar.animate.set_stroke(opacity=a) if s == 0 else bar.animate.set_fill(opacity=0.9 * a))
                if m in self.zeros[s]:
                    anims.append(self.zeros[s][m][0].animate.set_stroke(opacity=a))
        return anims
