"""Plots without LaTeX: axes with Pango tick labels, linear or log scales, honest curves.

``Plot`` owns the mapping from data to the screen (``to_point``), so a test can check
that a drawn point sits where its value says.  Curves are drawn from the computed
arrays, downsampled only by :func:`downsample_minmax`, which keeps original points
(the first, the last, and each bucket's minimum and maximum), never invents any.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import DOWN, LEFT, UP, DashedLine, Dot, Line, Mobject, Rectangle, VGroup, VMobject

from . import numbers
from .compose import GAP
from .theme import DIM, FAINT, FG, SMALL, figure, label, math


def downsample_minmax(pos, y, buckets: int) -> np.ndarray:
    """Indices of the points to draw, for samples at increasing screen positions ``pos``.

    ``pos`` is split into ``buckets`` equal-width slices (equal pixels, so a log axis is
    bucketed by its screen position, not by index); each slice keeps its first, last,
    minimum and maximum sample.  Every returned index is a real sample; every extreme
    at bucket scale survives; nothing is interpolated."""
    pos = np.asarray(pos, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(y)
    if n != len(pos):
        raise ValueError(f"pos and y must have the same length, got {len(pos)} and {n}")
    if buckets < 1:
        raise ValueError(f"buckets must be >= 1, got {buckets}")
    if n <= 4 * buckets:
        return np.arange(n)
    lo, hi = pos[0], pos[-1]
    b = np.minimum(((pos - lo) / (hi - lo if hi > lo else 1.0) * buckets).astype(int), buckets - 1)
    starts = np.flatnonzero(np.r_[True, b[1:] != b[:-1]])
    ends = np.r_[starts[1:], n]
    keep = set()
    for s0, e0 in zip(starts, ends):
        seg = y[s0:e0]
        keep.update((int(s0), int(e0 - 1), int(s0 + np.argmin(seg)), int(s0 + np.argmax(seg))))
    return np.array(sorted(keep))


def _fmt_tick(v: float) -> str:
    """A linear axis tick: round values as few digits as they need (``numbers.tick``)."""
    return numbers.tick(v)


def _power_tick(v: float):
    """A log axis tick: ``10ᵏ`` typeset (a non-power of ten keeps its digits)."""
    k = np.log10(v)
    if abs(k - round(k)) < 1e-9:
        return math(numbers.power(int(round(k))).math, size=SMALL, color=DIM)
    return label(numbers.tick(v), size=SMALL, color=DIM)


class Plot(VGroup):
    """Axes of ``width × height`` Manim units over ``x_range × y_range``.

    ``x_log`` / ``y_log`` use log10 scales (ranges must be positive).  Ticks are given
    as data values; a log axis labels them ``10ᵏ`` (typeset), a linear one with Pango text
    formatted by ``tick_format`` (round values, ``numbers.tick``).
    """

    def __init__(
        self,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        width: float = 6.0,
        height: float = 3.5,
        x_log: bool = False,
        y_log: bool = False,
        x_ticks: Sequence[float] = (),
        y_ticks: Sequence[float] = (),
        x_label: str = "",
        y_label: str = "",
        tick_format: Callable[[float], str] = _fmt_tick,
        grid: bool = True,
        **kw,
    ):
        super().__init__(**kw)
        for name, (lo, hi), log in (("x_range", x_range, x_log), ("y_range", y_range, y_log)):
            if not hi > lo or (log and lo <= 0):
                raise ValueError(f"{name} must be increasing{' and positive for a log scale' if log else ''}, got {(lo, hi)}")
        self.x_range, self.y_range = tuple(map(float, x_range)), tuple(map(float, y_range))
        self.x_log, self.y_log = x_log, y_log
        self.width_units, self.height_units = width, height
        self.origin = np.array([-width / 2, -height / 2, 0.0])

        self.axes = VGroup(
            Line(self.origin, self.origin + [width, 0, 0], stroke_color=DIM, stroke_width=2),
            Line(self.origin, self.origin + [0, height, 0], stroke_color=DIM, stroke_width=2),
        )
        self.grid = VGroup()
        self.x_tick_labels = VGroup()
        self.y_tick_labels = VGroup()
        for v in x_ticks:
            p = self.to_point(v, self.y_range[0])
            if grid:
                self.grid.add(Line(p, p + [0, height, 0], stroke_color=FAINT, stroke_width=1))
            t = _power_tick(v) if x_log and tick_format is _fmt_tick else label(tick_format(v), size=SMALL, color=DIM)
            self.x_tick_labels.add(t.next_to(p, DOWN, buff=0.12))
        for v in y_ticks:
            p = self.to_point(self.x_range[0], v)
            if grid:
                self.grid.add(Line(p, p + [width, 0, 0], stroke_color=FAINT, stroke_width=1))
            t = _power_tick(v) if y_log and tick_format is _fmt_tick else label(tick_format(v), size=SMALL, color=DIM)
            self.y_tick_labels.add(t.next_to(p, LEFT, buff=0.12))
        self.x_axis_label = label(x_label, size=SMALL, color=FG) if x_label else VGroup()
        self.y_axis_label = label(y_label, size=SMALL, color=FG) if y_label else VGroup()
        if x_label:
            self.x_axis_label.next_to(self.x_tick_labels if len(self.x_tick_labels) else self.axes[0], DOWN, buff=0.12)
        if y_label:
            self.y_axis_label.next_to(self.axes[1].get_top(), UP, buff=0.15).align_to(self.axes[1], LEFT)
        self.add(self.grid, self.axes, self.x_tick_labels, self.y_tick_labels, self.x_axis_label, self.y_axis_label)

    @classmethod
    def fitted(cls, region, x_range, y_range, **kw) -> Plot:
        """A plot whose axes, tick labels and axis labels together fill ``region`` (a probe measures
        how far the labels reach beyond the axes), placed in it."""
        probe = cls(x_range, y_range, width=region.width, height=region.height, **kw)
        origin = probe.axes[0].get_start()
        left = origin[0] - probe.get_left()[0]
        bottom = origin[1] - probe.get_bottom()[1]
        right = max(0.0, probe.get_right()[0] - probe.axes[0].get_end()[0])
        top = max(0.0, probe.get_top()[1] - probe.axes[1].get_end()[1])
        plot = cls(x_range, y_range, width=region.width - left - right, height=region.height - bottom - top, **kw)
        # the labels' reach changes a little with the size (a tick label sits at a share of the axis): once more
        over = max(0.0, plot.width - region.width), max(0.0, plot.height - region.height)
        if over[0] > 0 or over[1] > 0:
            plot = cls(x_range, y_range, width=region.width - left - right - over[0],
                       height=region.height - bottom - top - over[1], **kw)
        origin = plot.axes[0].get_start()
        left = origin[0] - plot.get_left()[0]
        bottom = origin[1] - plot.get_bottom()[1]
        plot.shift(np.array([region.left + left, region.bottom + bottom, 0.0]) - origin)
        return plot

    # -- data -> screen ------------------------------------------------------------------
    def _frac(self, v, rng, log):
        v = np.asarray(v, dtype=float)
        lo, hi = rng
        if log:
            with np.errstate(divide="ignore"):
                return (np.log10(v) - np.log10(lo)) / (np.log10(hi) - np.log10(lo))
        return (v - lo) / (hi - lo)

    def to_point(self, x, y) -> np.ndarray:
        """Screen point of data ``(x, y)`` (arrays broadcast to ``(n, 3)``)."""
        fx = self._frac(x, self.x_range, self.x_log)
        fy = self._frac(y, self.y_range, self.y_log)
        fx, fy = np.broadcast_arrays(fx, fy)
        pts = np.stack([fx * self.width_units, fy * self.height_units, np.zeros_like(fx)], axis=-1)
        return pts + self.axes[0].get_start()  # follows the plot when it moves

    def y_clip(self, y):
        """``y`` clipped into the visible range (for values like an exact 0 on a log axis)."""
        return np.clip(np.asarray(y, dtype=float), self.y_range[0], self.y_range[1])

    # -- marks ---------------------------------------------------------------------------------
    def curve(self, x, y, color=FG, stroke_width: float = 3, buckets: int = 400) -> VMobject:
        """A polyline through the computed ``(x, y)``, downsampled by :func:`downsample_minmax`."""
        idx = downsample_minmax(self._frac(x, self.x_range, self.x_log), y, buckets)
        pts = self.to_point(np.asarray(x)[idx], np.asarray(y)[idx])
        m = VMobject(stroke_color=color, stroke_width=stroke_width).set_points_as_corners(pts)
        m.data_index = idx
        return m

    def hline(self, y: float, color=FG, dashed: bool = True, stroke_width: float = 2) -> Line:
        a, b = self.to_point(self.x_range[0], y), self.to_point(self.x_range[1], y)
        return (DashedLine if dashed else Line)(a, b, stroke_color=color, stroke_width=stroke_width)

    def vline(self, x: float, color=FG, dashed: bool = True, stroke_width: float = 2) -> Line:
        a, b = self.to_point(x, self.y_range[0]), self.to_point(x, self.y_range[1])
        return (DashedLine if dashed else Line)(a, b, stroke_color=color, stroke_width=stroke_width)

    def dot(self, x: float, y: float, color=FG, radius: float = 0.06) -> Dot:
        return Dot(self.to_point(x, y), radius=radius, color=color)

    def exact_zero(self, x: float, color=FG, text: str | None = "", size: float = SMALL) -> VGroup:
        """An exact zero on a log y axis, which has no place for it: a hollow diamond sitting on
        the axis floor at ``x`` and (unless ``text`` is None) a label just above it: by default
        the lecture's exact zero (``0`` typeset with its "exact" mark), else ``text``.
        ``[0]`` is the marker, ``[1]`` the label; ``.value`` is 0.0."""
        from manim import BLACK, Square

        if not self.y_log:
            raise ValueError("exact_zero marks zeros on a log axis; a linear axis draws 0 itself")
        base = self.to_point(x, self.y_range[0])
        mark = Square(side_length=0.16, stroke_color=color, stroke_width=3, fill_color=BLACK, fill_opacity=0.0)
        mark.rotate(np.pi / 4).move_to(base + np.array([0.0, 0.115, 0.0]))
        g = VGroup(mark)
        if text is not None:
            t = figure(0.0, size=size, color=color) if text == "" else label(text, size=size, color=color)
            g.add(t.next_to(mark, UP, buff=0.08))
        g.value = 0.0
        return g

    def bars(self, x, heights, bar_width: float, colors=FG, opacity: float = 0.9) -> VGroup:
        """One bar per ``(x, height)``, from the bottom of the plot up to ``height`` (clipped to the range).
        ``bar_width`` is in Manim units."""
        x = np.asarray(x, dtype=float)
        h = self.y_clip(heights)
        g = VGroup()
        for k, (xi, hi) in enumerate(zip(x, h)):
            base = self.to_point(xi, self.y_range[0])
            top = self.to_point(xi, hi)
            c = colors[k] if isinstance(colors, (list, tuple)) else colors
            height = max(float(top[1] - base[1]), 1e-3)
            r = Rectangle(width=bar_width, height=height, stroke_width=0, fill_color=c, fill_opacity=opacity)
            r.move_to(base, aligned_edge=DOWN)
            g.add(r)
        return g


MARK = GAP.tight  # the radius of an onset ring, the arm of a bracket


STROKE = 3.0  # the house stroke of a mark


MAX_CELL = 0.42  # the largest cell of a strip or a zoomed corner


def _box(m: Mobject):
    return (m.get_left()[0], m.get_bottom()[1], m.get_right()[0], m.get_top()[1])


def bar(x0: float, x1: float, y: float, height: float, color, opacity: float) -> Rectangle:
    """A filled bar from screen x ``x0`` to ``x1`` centred at ``y``."""
    return Rectangle(width=max(x1 - x0, 1e-3), height=height, stroke_width=0, fill_color=color,
                     fill_opacity=opacity).move_to([(x0 + x1) / 2, y, 0])


def vertical(x: float, y0: float, y1: float, color, width: float = STROKE, dashed: bool = False) -> Line:
    a, b = np.array([x, y0, 0.0]), np.array([x, y1, 0.0])
    return DashedLine(a, b, stroke_color=color, stroke_width=width, dash_length=GAP.tight) if dashed else \
        Line(a, b, stroke_color=color, stroke_width=width)


def _decades(hi: float) -> list[float]:
    return [numbers.power(k).value for k in range(0, int(np.floor(np.log10(hi) + 1e-9)) + 1)]
