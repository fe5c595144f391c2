"""Charts over positions (panel stacks, the cliff, lanes, pairs at a position, tables, wavelengths):
each takes the real arrays and lays itself out in the region it is given, so the clip module reads as a storyboard.

* :class:`PanelStack`: one :class:`~scenes.kit.plots.Plot` per series, stacked, sharing one x axis.
* :class:`DilutionPanels` (12): a panel per width with its curve, a direct label on each side
  (the width, the measured onset ``m*``), the onset's markers, the blurred zone past it, and the
  lanes the panels collapse into at the close (where positions are still told apart, per width).
* :class:`CliffChart` (13): unseen RoPE pairs per position over a log position axis that every
  lane shares, with ``L`` and ``n_max`` marked under it.
* :class:`SchemeLanes` (13): the learned table's lane (seen, never trained, a wall at ``n_max``)
  and the sinusoidal lane (seen, then never seen), laid out in any band over the chart's axis.
* :class:`PairsAtPosition` (13): the RoPE pairs at one position ``m``: a strip of every pair, seen
  or unseen, the count, and two dials (a fast and a slow pair) with the arc training covered.
* :class:`TableView` and :class:`WavelengthChart` (14): GPT-2's learned table with a corner shown
  cell by cell, and LLaMA's positions per full turn of every pair at two bases.

:func:`first_clear_spot` tries candidate placements for a label in order and keeps the first one
whose box touches nothing.  Every size is a house gap (``compose.GAP``) or text size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arc, Circle, DashedLine, Line, Mobject, Polygon, Rectangle,
                   SurroundingRectangle, Transform, VGroup, VMobject)

from .compose import GAP, column, row
from .layout import LayoutError, Region, background, place_annotations
from .motion import swap
from .plots import Plot
from .theme import BG, DIM, FAILED, FG, HEADING, HIGHLIGHT, LABEL, SEEN, SMALL, UNSEEN, label, math
from .widgets import ColorBar, Heatmap, VectorDial
from . import numbers

MARK = GAP.tight  # the radius of an onset ring, the arm of a bracket
STROKE = 3.0  # the house stroke of a mark
MIN_PANEL = 0.62  # the shortest stacked panel that still prints its y ticks apart
MAX_CELL = 0.42  # the largest cell of a strip or a zoomed corner
LANE = 0.6  # the tallest lane of clip 12's close


# ====================================================================== shared
class PanelStack(VGroup):
    """``n`` plots stacked top to bottom in ``region`` (x range shared, log or linear).

    ``panels[k]`` is series ``k``'s plot, drawn in row ``rows[k]`` (default: row ``k``).  Every
    panel has y ticks at ``y_ticks`` (the middle ones dropped when the panel is too short to print
    them apart); the bottom row alone has x tick labels and ``x_label`` (a mobject, e.g. Typst
    math, or a string).  ``gap`` separates panels; the left ``tick_room`` of the region is kept for
    y tick labels.  The labels of the lowest and highest y ticks are tucked inside their panel's
    height, so stacked panels never mix them.
    """

    def __init__(self, n: int, region: Region, x_range, y_range, x_log: bool = True, x_ticks: Sequence[float] = (),
                 y_ticks: Sequence[float] = (), x_label="", gap: float = GAP.small, tick_room: float | None = None,
                 tick_format: Callable[[float], str] | None = None, min_height: float = MIN_PANEL,
                 rows: Sequence[int] | None = None, **kw):
        super().__init__(**kw)
        if n < 1:
            raise ValueError(f"a panel stack needs at least one panel, got n={n}")
        rows = list(range(n)) if rows is None else list(rows)
        kw_fmt = {"tick_format": tick_format} if tick_format else {}
        probe = Plot(x_range, y_range, width=region.width, height=1.0, x_log=x_log, x_ticks=x_ticks, **kw_fmt)
        axis_label = label(x_label, size=SMALL) if isinstance(x_label, str) and x_label else x_label
        bottom_room = probe.axes[0].get_bottom()[1] - probe.x_tick_labels.get_bottom()[1] if len(x_ticks) else 0.0
        if axis_label:
            bottom_room += axis_label.height + GAP.tight
        usable = region.height - bottom_room - gap * (n - 1)
        h = usable / n
        if h < min_height:
            raise LayoutError(f"{n} panels need {min_height * n + gap * (n - 1) + bottom_room:.2f} units of height, "
                              f"region {region.name!r} has {region.height:.2f}")
        row_h = label("1", size=SMALL).height
        ticks = list(y_ticks)
        if len(ticks) > 2 and h < len(ticks) * row_h + (len(ticks) - 1) * GAP.tight:
            ticks = [ticks[0], ticks[-1]]  # a short panel prints its ends only
        room = tick_room if tick_room is not None else max(
            (label(numbers.tick(v), size=SMALL).width for v in ticks), default=0.0) + GAP.normal
        w = region.width - room
        self.panel_height, self.panel_width = h, w
        self.panels = VGroup()
        last_row = max(rows)
        for k in range(n):
            p = Plot(x_range, y_range, width=w, height=h, x_log=x_log, x_ticks=x_ticks, y_ticks=ticks, **kw_fmt)
            if rows[k] != last_row:  # only the bottom panel prints the shared x axis
                p.remove(p.x_tick_labels)
                p.x_tick_labels = VGroup()
            top = region.top - rows[k] * (h + gap)
            p.shift(np.array([region.left + room, top - h, 0.0]) - p.axes[0].get_start())
            labs = p.y_tick_labels
            if len(labs) >= 2:
                lo_i, hi_i = int(np.argmin(ticks)), int(np.argmax(ticks))
                labs[hi_i].align_to(p.axes[1], UP)
                labs[lo_i].align_to(p.axes[1], DOWN)
            self.panels.add(p)
        self.add(self.panels)
        self.bottom = self.panels[rows.index(last_row)]
        self.x_axis_label = axis_label if axis_label else VGroup()
        if axis_label:
            axis_label.next_to(self.bottom.x_tick_labels if len(self.bottom.x_tick_labels) else self.bottom.axes[0],
                               DOWN, buff=GAP.tight).set_x(self.bottom.axes[0].get_center()[0])
            self.add(axis_label)

    @property
    def x_tick_labels(self) -> VGroup:
        return self.bottom.x_tick_labels


def _box(m: Mobject):
    return (m.get_left()[0], m.get_bottom()[1], m.get_right()[0], m.get_top()[1])


def _hits(box, obstacle: Mobject, pad: float) -> bool:
    l, b, r, t = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    for f in obstacle.get_family():
        if not isinstance(f, VMobject) or len(f.points) == 0:
            continue
        fl, fb, fr, ft = _box(f)
        if fr < l or fl > r or ft < b or fb > t:
            continue
        stroked_only = (f.get_fill_opacity() or 0) < 0.02
        if not stroked_only or len(f.points) <= 8:
            return True  # a text glyph, a filled shape or a short straight line: its box counts
        p = f.points
        if np.any((p[:, 0] > l) & (p[:, 0] < r) & (p[:, 1] > b) & (p[:, 1] < t)):
            return True
        a, e = p[0:-1:4, :2], p[3::4, :2]  # straight spans between far-apart vertices: sample them too
        for s in np.linspace(0.0, 1.0, 9):
            q = a + s * (e - a)
            if np.any((q[:, 0] > l) & (q[:, 0] < r) & (q[:, 1] > b) & (q[:, 1] < t)):
                return True
    return False


def first_clear_spot(mob: Mobject, placements: Sequence[Callable[[Mobject], Mobject]], obstacles: Sequence[Mobject],
                     bounds: Region | None = None, pad: float = GAP.hair) -> int:
    """Apply each of ``placements`` to ``mob`` in turn; keep the first whose box is inside
    ``bounds`` and clear of every obstacle.  Returns its index; if none is clear, the
    placement touching the fewest obstacles is kept and ``-1`` returned."""
    best, best_hits = 0, None
    for k, place in enumerate(placements):
        place(mob)
        if bounds is not None and not bounds.contains(mob):
            continue
        hits = sum(_hits(_box(mob), o, pad) for o in obstacles)
        if hits == 0:
            return k
        if best_hits is None or hits < best_hits:
            best, best_hits = k, hits
    placements[best](mob)
    return -1


def bar(x0: float, x1: float, y: float, height: float, color, opacity: float) -> Rectangle:
    """A filled bar from screen x ``x0`` to ``x1`` centred at ``y``."""
    return Rectangle(width=max(x1 - x0, 1e-3), height=height, stroke_width=0, fill_color=color,
                     fill_opacity=opacity).move_to([(x0 + x1) / 2, y, 0])


def vertical(x: float, y0: float, y1: float, color, width: float = STROKE, dashed: bool = False) -> Line:
    a, b = np.array([x, y0, 0.0]), np.array([x, y1, 0.0])
    return DashedLine(a, b, stroke_color=color, stroke_width=width, dash_length=GAP.tight) if dashed else \
        Line(a, b, stroke_color=color, stroke_width=width)


class MathReadout:
    """A figure in Typst math that changes at keyframes (``m = 1024``): ``current`` is on screen,
    :meth:`to` swaps it for the next (old out, then new in; never two strings cross-faded)."""

    def __init__(self, expr: str, anchor: np.ndarray, size: float, color=FG, align=LEFT):
        self.size, self.color, self.align = size, color, np.asarray(align, dtype=float)
        self.anchor = np.asarray(anchor, dtype=float)
        self.current = self._make(expr)

    def _make(self, expr: str) -> Mobject:
        m = math(expr, size=self.size, color=self.color)
        m.move_to(self.anchor, aligned_edge=self.align)
        return m

    def to(self, expr: str):
        old, new = self.current, self._make(expr)
        self.current = new
        return swap(old, new)


# ====================================================================== 12
class DilutionPanels(VGroup):
    """Clip 12's picture: ``cos[k]`` (one row per width, ``c(m)`` at index ``m − 1``) over ``t``
    on a log axis, one panel per width ranked narrowest on top (``order``: data indices by rank).

    Parts, indexed by data index ``k``: ``panels[k]``, ``curves[k]``, ``width_labels[k]``
    (``d = w``, left, in the curve's colour), ``onset_labels[k]`` (``m* = …``, right),
    ``markers[k]`` (drop, link, dot, ring at ``m*``, ring at its witness; empty without an
    onset), ``shades[k]`` (the blurred zone past ``m*``) and ``zones[k]`` (before it, where positions are
    told apart; both invisible until shown), and the close's
    ``lanes[k]`` (``clear``: ``1 … m*`` in the width's colour; ``blurred``: past ``m*``; ``edge``).
    ``swing`` outlines the range of the first curve's last half (where it swings)."""

    def __init__(self, region: Region, t: np.ndarray, cos: np.ndarray, widths: Sequence[int], onsets, colors,
                 order: Sequence[int], x_label: Mobject):
        super().__init__()
        n = len(widths)
        t_max = float(t[-1])
        self.width_labels = VGroup(*[math(f"d = {w}", size=LABEL, color=colors[k]) for k, w in enumerate(widths)])
        self.onset_labels = VGroup(*[
            math(f"m^* = {numbers.count(o.t).math}", size=LABEL, color=colors[k]) if o.t is not None
            else label("none found", size=SMALL, color=DIM) for k, o in enumerate(onsets)])
        left_w = max(m.width for m in self.width_labels) + GAP.normal
        right_w = max(m.width for m in self.onset_labels) + GAP.wide
        mid = Region(region.left + left_w, region.right - right_w, region.bottom, region.top, "panels")
        rank = {k: r for r, k in enumerate(order)}
        kw = dict(x_log=True, x_ticks=_decades(t_max), y_ticks=[-1, 0, 1], x_label=x_label,
                  rows=[rank[k] for k in range(n)])
        try:
            self.stack = PanelStack(n, mid, (1, t_max), (-1, 1), **kw)
        except LayoutError:  # many widths: panels closer together
            self.stack = PanelStack(n, mid, (1, t_max), (-1, 1), gap=GAP.tight, **kw)
        self.panels = self.stack.panels
        h = self.stack.panel_height
        self.zeros = VGroup(*[p.hline(0.0, color=DIM, dashed=True, stroke_width=STROKE / 2) for p in self.panels])
        self.curves = VGroup(*[p.curve(t, row_, color=colors[k], stroke_width=STROKE * 3 / 4)
                               for k, (p, row_) in enumerate(zip(self.panels, cos))])
        self.centres = [p.axes[0].get_y() + h / 2 for p in self.panels]
        x_right = self.panels[0].axes[0].get_right()[0]
        for k, (wl, ol) in enumerate(zip(self.width_labels, self.onset_labels)):
            wl.move_to([region.left, self.centres[k], 0], aligned_edge=LEFT)
            ol.move_to([x_right + GAP.normal, self.centres[k], 0], aligned_edge=LEFT)
        # the first curve's last half: the range it swings over
        k0 = order[0]
        half = cos[k0][len(t) // 2:]
        p0 = self.panels[k0]
        a, b = p0.to_point(t[len(t) // 2], half.min()), p0.to_point(t_max, half.max())
        self.swing = Rectangle(width=b[0] - a[0] + MARK, height=max(b[1] - a[1], MARK / 2) + MARK,
                               stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to((a + b) / 2)
        # onsets: markers, the blurred zone, the close's lanes
        self.markers, self.shades, self.zones, self.lanes = VGroup(), VGroup(), VGroup(), VGroup()
        lane_h = min(h / 2, LANE)
        for k, (p, o) in enumerate(zip(self.panels, onsets)):
            y = self.centres[k]
            if o.t is None:
                self.markers.add(VGroup())
                x_edge = x_right
            else:
                p_t, p_s = p.to_point(o.t, o.cos_t), p.to_point(o.witness, o.cos_witness)
                self.markers.add(VGroup(
                    DashedLine(p.to_point(o.t, -1), p_t, stroke_color=HIGHLIGHT, stroke_width=STROKE * 2 / 3,
                               dash_length=GAP.hair),
                    DashedLine(p_t, p_s, stroke_color=HIGHLIGHT, stroke_width=STROKE * 2 / 3, dash_length=GAP.hair),
                    p.dot(o.t, o.cos_t, color=colors[k], radius=MARK / 2),
                    Circle(radius=MARK, stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to(p_t),
                    Circle(radius=MARK, stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to(p_s)))
                x_edge = p_t[0]
            shade = bar(x_edge, x_right, y, h, DIM, 0.0) if o.t is not None else VGroup()
            self.shades.add(background(shade) if o.t is not None else shade)
            self.zones.add(background(bar(p.axes[0].get_left()[0], x_edge, y, h, colors[k], 0.0)))
            x0 = p.axes[0].get_left()[0]
            clear = bar(x0, x_edge, y, lane_h, colors[k], 0.85)
            blurred = bar(x_edge, x_right, y, lane_h, DIM, 0.35) if o.t is not None else VGroup()
            edge = vertical(x_edge, y - lane_h / 2 - GAP.hair, y + lane_h / 2 + GAP.hair, HIGHLIGHT) if o.t is not None \
                else VGroup()
            tag = self.width_labels[k].copy()
            lane = VGroup(clear, blurred, edge, tag)
            lane.clear, lane.blurred, lane.edge, lane.tag = clear, blurred, edge, tag
            edge.values = np.array([np.nan if o.t is None else o.t], dtype=float)
            self.lanes.add(lane)
        # the lanes' key, over the top lane: what the colour and the grey mean
        top = order[0]
        y = self.centres[top] + lane_h / 2 + GAP.tight
        self.key = VGroup(label("told apart", size=SMALL, color=FG))
        self.key[0].move_to([self.panels[top].axes[0].get_left()[0], y, 0], aligned_edge=DOWN + LEFT)
        if any(o.t is not None for o in onsets):  # something blurred: its word at the other end
            self.key.add(label("blurred", size=SMALL, color=DIM).move_to([x_right, y, 0], aligned_edge=DOWN + RIGHT))
        self.add(self.stack, self.zeros, self.curves)


def _decades(hi: float) -> list[float]:
    return [numbers.power(k).value for k in range(0, int(np.floor(np.log10(hi) + 1e-9)) + 1)]


# ====================================================================== 13
class CliffChart(VGroup):
    """Clip 13's chart: ``unseen`` (pairs of ``n_pairs`` at unseen angles at each of ``positions``)
    over a log position axis filling ``region`` (its lower part: ``top_room`` is left above it for
    the lanes).  The x axis is every lane's axis: :meth:`x_of` maps a position to the screen.
    ``L`` (seen colour) and ``n_max`` (the wall's colour) are labelled under the axis, spread
    apart when close, and decade labels they would touch are dropped."""

    def __init__(self, region: Region, positions: np.ndarray, unseen: np.ndarray, n_pairs: int, L: int, n_max: int,
                 top_room: float, title: str):
        super().__init__()
        x_max = float(positions[-1])
        self.title = label(title, size=SMALL, color=FG)
        self.axis_label = math('"position" m', size=SMALL)
        self.L_tick = math(f"L = {numbers.count(L).math}", size=LABEL, color=SEEN)
        self.n_tick = math(f'n_"max" = {numbers.count(n_max).math}', size=LABEL, color=FAILED)
        ticks = [0, n_pairs // 2, n_pairs]
        probe = Plot((1, x_max), (0, n_pairs), width=region.width, height=1.0, x_log=True, x_ticks=_decades(x_max),
                     y_ticks=ticks)
        below = (probe.axes[0].get_y() - probe.x_tick_labels.get_bottom()[1] + GAP.tight + self.L_tick.height
                 + GAP.tight + self.axis_label.height)
        room = probe.y_tick_labels.width + GAP.normal
        height = region.height - top_room - self.title.height - GAP.tight - below
        # headroom over n_pairs for a row of labels (the close's counts), so they never sit on the curve
        row_h = self.title.height + 2 * GAP.tight
        y_top = n_pairs * height / (height - row_h)
        right = max(MARK, probe.x_tick_labels[-1].width / 2)  # a decade at the very end keeps its label inside
        self.plot = p = Plot((1, x_max), (0, y_top), width=region.width - room - right, height=height, x_log=True,
                             x_ticks=_decades(x_max), y_ticks=ticks)
        p.shift(np.array([region.left + room, region.bottom + below, 0]) - p.axes[0].get_start())
        self.title.next_to(p.axes[1], UP, buff=GAP.tight).align_to(p.axes[1], LEFT)
        p.y_tick_labels[0].align_to(p.axes[0], DOWN).shift(GAP.hair * UP)  # 0 sits above the axis, clear of 10⁰
        ax_y = p.axes[0].get_y()
        self.annotations = place_annotations(
            [self.L_tick, self.n_tick], [np.array([self.x_of(L), ax_y, 0]), np.array([self.x_of(n_max), ax_y, 0])],
            side=DOWN, buff=GAP.tight, gap=GAP.normal, bounds=(region.left, region.right))
        keep = VGroup(*[t for t in p.x_tick_labels if all(
            t.get_right()[0] + GAP.tight < a.get_left()[0] or t.get_left()[0] - GAP.tight > a.get_right()[0]
            for a in (self.L_tick, self.n_tick))])
        p.remove(p.x_tick_labels)
        p.x_tick_labels = keep
        p.add(keep)
        self.axis_label.next_to(VGroup(keep, self.annotations), DOWN, buff=GAP.tight).set_x(p.axes[0].get_center()[0])
        self.axis = VGroup(p.axes[0], keep, self.annotations, self.axis_label)  # the ruler: stays all clip long
        self.body = VGroup(p.axes[1], p.grid, p.y_tick_labels)  # the chart's own furniture
        self.curve = p.curve(positions, unseen, color=UNSEEN, stroke_width=STROKE * 3 / 4)
        self.curve.values = unseen
        pts = self.curve.points
        corners = [p.to_point(positions[0], 0), pts[0], *pts[3::4], p.to_point(positions[-1], 0)]
        self.area = Polygon(*corners, stroke_width=0, fill_color=UNSEEN, fill_opacity=0.3)
        top = p.axes[1].get_top()[1]
        self.proof_y = top - row_h / 2  # the row of the close's measured counts
        g_top = p.to_point(1, n_pairs)[1]
        self.guides = VGroup(vertical(self.x_of(L), ax_y, g_top, SEEN, STROKE * 2 / 3, dashed=True),
                             vertical(self.x_of(n_max), ax_y, g_top, FAILED, STROKE * 2 / 3, dashed=True))
        self.lanes_band = Region(region.left, region.right, top + self.title.height + GAP.normal, region.top, "lanes")
        self.add(self.axis, self.body, self.title, self.area, self.curve, self.guides)

    def x_of(self, m: float) -> float:
        return float(self.plot.to_point(m, 0.0)[0])

    def proof_marks(self, stops: Sequence[int], counts: Sequence[int], n_pairs: int) -> VGroup:
        """A dot on the curve at each of ``stops`` and, in a row under the chart's top, its count
        (``41 of 64``), spread apart with leaders down to the dots: the measured figures of the close."""
        dots = VGroup(*[self.plot.dot(m, c, color=HIGHLIGHT, radius=MARK / 2) for m, c in zip(stops, counts)])
        words = [label(f"{int(c)} of {n_pairs}", size=SMALL, color=UNSEEN, weight="BOLD") for c in counts]
        p = self.plot
        spread = place_annotations(words, [np.array([d.get_x(), self.proof_y, 0]) for d in dots], side=DOWN,
                                   gap=GAP.normal, bounds=(p.axes[0].get_left()[0], p.axes[0].get_right()[0]),
                                   leader_min=np.inf)
        for w in words:
            w.set_y(self.proof_y)
        leaders = VGroup(*[Line(w.get_bottom() + GAP.hair * DOWN, d.get_center(), stroke_color=HIGHLIGHT,
                                stroke_width=STROKE / 2) for w, d in zip(words, dots)])
        out = VGroup(leaders, dots, spread.labels)
        out.dots, out.words, out.leaders = dots, spread.labels, leaders
        return out


class SchemeLanes(VGroup):
    """Two lanes over the chart's position axis in ``band``: the learned table (seen in training to
    ``L``, never trained to ``n_max``, then a wall: no rows at all) and the sinusoidal encoding
    (seen to ``L``, then defined but never seen, to ``x_max``), each under its title."""

    def __init__(self, band: Region, x_of: Callable[[float], float], L: int, n_max: int, x_max: int,
                 titles: Sequence[str], bar_height: float, no_row: str):
        super().__init__()
        self.titles = VGroup(*[label(t, size=SMALL, color=FG) for t in titles])
        step = band.height / len(titles)
        ys = []
        for k, title in enumerate(self.titles):
            title.move_to([band.left, band.top - k * step, 0], aligned_edge=UP + LEFT)
            ys.append(title.get_bottom()[1] - GAP.small - bar_height / 2)
        self.lane_y = ys
        x0, xL, xn, xe = x_of(1), x_of(L), x_of(n_max), x_of(x_max)
        self.trained = VGroup(*[bar(x0, xL, y, bar_height, SEEN, 0.85) for y in ys])
        self.untrained = bar(xL, xn, ys[0], bar_height, UNSEEN, 0.45) if n_max > L else VGroup()
        self.unseen = bar(xL, xe, ys[1], bar_height, UNSEEN, 0.45)
        self.wall = vertical(xn, ys[0] - bar_height / 2 - GAP.hair, ys[0] + bar_height / 2 + GAP.hair, FAILED,
                             STROKE * 3)
        self.no_row = label(no_row, size=SMALL, color=FAILED)
        ty = self.titles[0].get_y()
        top = self.titles[0]
        first_clear_spot(self.no_row, [
            lambda m: m.move_to([xn + GAP.small, ty, 0], aligned_edge=LEFT).align_to(top, UP),
            lambda m: m.move_to([band.right, ty, 0], aligned_edge=RIGHT).align_to(top, UP),
            lambda m: m.move_to([xn - GAP.small, ty, 0], aligned_edge=RIGHT).align_to(top, UP),
        ], [top], bounds=band, pad=GAP.normal)
        self.band = band
        self.add(self.titles, self.trained, self.untrained, self.unseen, self.wall)

    @staticmethod
    def height(n: int, bar_height: float) -> float:
        """The band ``n`` lanes of ``bar_height`` need (titles over their bars)."""
        return n * (label("learned", size=SMALL).height + GAP.small + bar_height + GAP.normal)


class PairsAtPosition(VGroup):
    """Every RoPE pair at one position ``m`` (clip 13): a strip of ``n_pairs`` squares, seen in
    training or not (``masks[s]`` at stop ``s``: True = unseen), the count, and two dials for the
    ``pairs`` shown (their hand at the pair's angle, the arc training covered in the seen colour,
    the full turns made, seen or unseen).  :meth:`to_stop` animates every part to stop ``s``."""

    def __init__(self, region: Region, stops: Sequence[int], masks: np.ndarray, pairs: Sequence[int],
                 angles: np.ndarray, turns: np.ndarray, arcs: np.ndarray, names: Sequence[str]):
        super().__init__()
        self.stops, self.masks, self.pairs = tuple(stops), np.asarray(masks, dtype=bool), tuple(pairs)
        self.angles, self.turns = angles, turns
        n = self.masks.shape[1]
        self.n_pairs = n
        self.stop = 0
        self.names = tuple(names)
        # ---- one row: the position m, one square per pair (seen or unseen there), the count
        m_w = max(math(f"m = {numbers.count(m).math}", size=HEADING).width for m in stops)
        probe = max((label(self.count_text(s), size=LABEL, weight="BOLD") for s in range(len(stops))),
                    key=lambda m: m.width)
        side = min((region.width - m_w - GAP.normal - probe.width - GAP.wide) / n, MAX_CELL)
        self.strip = VGroup(*[Rectangle(width=side, height=side, stroke_color=BG, stroke_width=1)
                              for _ in range(n)]).arrange(RIGHT, buff=0)
        self.m = MathReadout(f"m = {numbers.count(stops[0]).math}", np.array([region.left, 0, 0]), HEADING,
                             color=HIGHLIGHT)
        y = region.top - max(probe.height, self.m.current.height) / 2
        self.m.anchor = np.array([region.left, y, 0])
        self.m.current.move_to(self.m.anchor, aligned_edge=LEFT)
        self.strip.move_to([region.left + m_w + GAP.normal, y, 0], aligned_edge=LEFT)
        self._paint(self.strip, self.masks[0])
        self.count = label(self.count_text(0), size=LABEL, weight="BOLD", color=self._count_color(0))
        self.count.next_to(self.strip, RIGHT, buff=GAP.wide)
        self.count_anchor = self.count.get_left()
        self.marks = VGroup(*[SurroundingRectangle(self.strip[i], color=HIGHLIGHT, buff=0, stroke_width=STROKE)
                              for i in self.pairs])
        # ---- the two dials, each with its words beside it
        top = y - max(probe.height, self.m.current.height) / 2 - GAP.normal
        words = [self._words(k, 0) for k in range(len(pairs))]
        text_w = max(self._words(k, s).width for k in range(len(pairs)) for s in range(len(stops))) + GAP.small
        k_n = len(pairs)
        radius = min((top - region.bottom) / 2 - GAP.small,
                     (region.width - k_n * (text_w + GAP.normal) - (k_n - 1) * GAP.section) / (2 * k_n))
        cy = top - radius - GAP.small
        col_w = 2 * radius + GAP.normal + text_w
        x = region.center[0] - (k_n * col_w + (k_n - 1) * GAP.section) / 2
        self.dials, self.arcs, self.words = [], VGroup(), []
        for k, i in enumerate(pairs):
            dial = VectorDial(float(angles[0, k]), radius=radius, color=FG, show_ticks=True)
            dial.move_to([x + radius, cy, 0])
            arc = Arc(radius=radius, start_angle=0, angle=float(arcs[k]), arc_center=dial.center,
                      stroke_color=SEEN, stroke_width=STROKE * 3)
            w = words[k]
            w.move_to([x + 2 * radius + GAP.normal, cy, 0], aligned_edge=LEFT)
            self.dials.append(dial)
            self.arcs.add(arc)
            self.words.append(w)
            x += col_w + GAP.section
        self.dial_group = VGroup(*self.dials, self.arcs, *self.words)
        self.add(self.strip, self.count, self.marks, self.m.current, self.dial_group)

    def on_screen(self) -> VGroup:
        """Every part as drawn now (the figures swapped in at the last stop included)."""
        return VGroup(self.strip, self.count, self.marks, self.m.current, *self.dials, self.arcs, *self.words)

    # -- words
    def count_text(self, s: int) -> str:
        return f"{int(self.masks[s].sum())} of {self.n_pairs} unseen"

    def _count_color(self, s: int):
        return UNSEEN if self.masks[s].any() else SEEN

    def _words(self, k: int, s: int) -> VGroup:
        i = self.pairs[k]
        n = int(self.turns[s, k])
        unseen = bool(self.masks[s, i])
        return column(label(f"{self.names[k]} pair", size=SMALL, color=DIM), math(f"i = {i}", size=SMALL, color=DIM),
                      row(label(f"{numbers.count(n).text} turn{'' if n == 1 else 's'}", size=SMALL, color=FG),
                          label("unseen" if unseen else "seen", size=SMALL, color=UNSEEN if unseen else SEEN,
                                weight="BOLD"), gap="small", align="baseline"), gap="hair")

    @staticmethod
    def _paint(strip: VGroup, mask: np.ndarray) -> None:
        for sq, u in zip(strip, mask):
            sq.set_fill(UNSEEN if u else SEEN, opacity=1.0 if u else 0.85)

    # -- motion
    def to_stop(self, s: int) -> list:
        """Animations to stop ``s``: the hands turn, the strip repaints, every figure swaps."""
        target = self.strip.copy()
        self._paint(target, self.masks[s])
        anims = [Transform(self.strip, target), self.m.to(f"m = {numbers.count(self.stops[s]).math}")]
        new = label(self.count_text(s), size=LABEL, weight="BOLD", color=self._count_color(s))
        new.move_to(self.count_anchor, aligned_edge=LEFT)
        anims.append(swap(self.count, new))
        self.count = new
        for k, dial in enumerate(self.dials):
            anims.append(dial.rotate_to(float(self.angles[s, k])))
            w = self._words(k, s).move_to(self.words[k], aligned_edge=LEFT)
            anims.append(swap(self.words[k], w))
            self.words[k] = w
        self.stop = s
        return anims

    def wrapped_outline(self, wrapped: np.ndarray) -> VGroup:
        """A frame round the squares of the pairs that went all the way round in training."""
        idx = np.flatnonzero(wrapped)
        if not idx.size:
            return VGroup()
        return SurroundingRectangle(self.strip[int(idx[0]):int(idx[-1]) + 1], color=HIGHLIGHT, buff=GAP.hair,
                                    stroke_width=STROKE)


# ====================================================================== 14
class TableView(VGroup):
    """GPT-2's learned table in ``region`` (clip 14): every sampled row and feature as a cell
    (``sample``, real entries), its last row capped by a rule in the wall's colour, and a corner
    (``corner``) shown large beside it with the colour bar of ``scale``; under the corner, the
    words in ``notes`` (one a line)."""

    def __init__(self, region: Region, sample: np.ndarray, corner: np.ndarray, scale, notes: Sequence[Mobject]):
        super().__init__()
        rows, cols = sample.shape
        region = region.inset(GAP.tight)  # the corner's frame and the cap line stay inside
        cell = region.height / rows
        self.image = Heatmap(sample, scale, cell_size=cell)
        region.place(self.image, UP + LEFT)
        for r in self.image.cells:
            for sq in r:
                sq.set_stroke(width=STROKE / 4)
        self.frame = Rectangle(width=self.image.width, height=self.image.height, stroke_color=DIM,
                               stroke_width=STROKE * 2 / 3).move_to(self.image)
        yb = self.image.get_bottom()[1]
        self.cap_line = Line([self.image.get_left()[0] - GAP.hair, yb, 0], [self.image.get_right()[0] + GAP.hair, yb, 0],
                             stroke_color=FAILED, stroke_width=STROKE * 3)
        side = Region(self.image.get_right()[0] + GAP.section, region.right, region.bottom, region.top, "zoom")
        zr, zc = corner.shape
        bar_probe = ColorBar(scale, height=1.0)
        self.notes = column(*notes, gap="small")
        tick_h = bar_probe.tick_labels[0].height  # the bar's end labels reach half a label past its ends
        zcell = min((side.width - bar_probe.width - GAP.normal) / zc,
                    (side.height - self.notes.height - GAP.normal - tick_h) / zr, MAX_CELL)
        self.zoom_map = Heatmap(corner, scale, cell_size=zcell)
        side.place(self.zoom_map, UP + LEFT)
        self.zoom_map.shift(tick_h / 2 * DOWN)
        self.colorbar = ColorBar(scale, height=self.zoom_map.height)
        self.colorbar.next_to(self.zoom_map, RIGHT, buff=GAP.small).align_to(self.zoom_map, UP)
        self.notes.next_to(VGroup(self.zoom_map, self.colorbar), DOWN, buff=GAP.normal).align_to(self.zoom_map, LEFT)
        self.corner = SurroundingRectangle(self.image.cell(0, 0), color=HIGHLIGHT, buff=GAP.hair / 3,
                                           stroke_width=STROKE)
        self.zoom_lines = VGroup(
            Line(self.corner.get_corner(UP + RIGHT), self.zoom_map.get_corner(UP + LEFT), stroke_color=HIGHLIGHT,
                 stroke_width=STROKE / 2),
            Line(self.corner.get_corner(DOWN + RIGHT), self.zoom_map.get_corner(DOWN + LEFT), stroke_color=HIGHLIGHT,
                 stroke_width=STROKE / 2))
        self.add(self.image, self.frame)


def capped_table(sample: np.ndarray, scale, height: float) -> VGroup:
    """The sampled table ``height`` tall, its last row capped by a rule in the wall's colour:
    ``[0]`` the heatmap (``.image``), ``[1]`` the rule (``.cap_line``)."""
    image = Heatmap(sample, scale, cell_size=height / sample.shape[0])
    for r in image.cells:
        for sq in r:
            sq.set_stroke(width=STROKE / 4)
    yb = image.get_bottom()[1]
    cap = Line([image.get_left()[0] - GAP.hair, yb, 0], [image.get_right()[0] + GAP.hair, yb, 0],
               stroke_color=FAILED, stroke_width=STROKE * 3)
    g = VGroup(image, cap)
    g.image, g.cap_line = image, cap
    return g


class WavelengthChart(VGroup):
    """LLaMA's RoPE (clip 14): ``wavelengths[k]`` (positions per full turn of every pair ``i``) on a
    log axis for each base, a curve labelled at its end (``names``), the train length ``L`` as a
    dashed line in the seen colour, and a band over the pairs that never turn within it."""

    def __init__(self, region: Region, wavelengths: Sequence[np.ndarray], y_range, colors, names: Sequence[Mobject],
                 L: int, slow_pairs: int, band_text: str, title: str, x_label: Mobject):
        super().__init__()
        n_pairs = len(wavelengths[0])
        self.title = label(title, size=SMALL, color=FG)
        self.band_label = label(band_text, size=SMALL, color=UNSEEN)
        self.L_label = math(f"L = {numbers.count(L).math}", size=SMALL, color=SEEN)
        lo, hi = (int(round(np.log10(v))) for v in y_range)
        y_ticks = [numbers.power(k).value for k in numbers.log_ticks(lo, hi, most=4)]
        x_ticks = [0, n_pairs // 2, n_pairs - 1]
        probe = Plot((0, n_pairs - 1), y_range, width=region.width, height=1.0, y_log=True, x_ticks=x_ticks,
                     y_ticks=y_ticks)
        below = probe.axes[0].get_y() - probe.x_tick_labels.get_bottom()[1] + GAP.tight + x_label.height
        room = probe.y_tick_labels.width + GAP.normal
        end_room = max(m.width for m in names) + GAP.normal
        above = self.title.height + GAP.small
        self.plot = p = Plot((0, n_pairs - 1), y_range, width=region.width - room - end_room,
                             height=region.height - below - above, y_log=True, x_ticks=x_ticks, y_ticks=y_ticks)
        p.shift(np.array([region.left + room, region.bottom + below, 0]) - p.axes[0].get_start())
        self.x_label = x_label.next_to(p.x_tick_labels, DOWN, buff=GAP.tight).set_x(p.axes[0].get_center()[0])
        self.title.next_to(p.axes[1], UP, buff=GAP.small).align_to(p.axes[1], LEFT)
        i = np.arange(n_pairs)
        self.curves = VGroup()
        for k, wl in enumerate(wavelengths):
            c = p.curve(i, wl, color=colors[k], stroke_width=STROKE * 4 / 3)
            c.values = wl
            self.curves.add(c)
        self.train_line = p.hline(L, color=SEEN, dashed=True, stroke_width=STROKE * 5 / 6)
        x1 = p.axes[0].get_right()[0]
        ends = [p.to_point(n_pairs - 1, wl[-1]) for wl in wavelengths]
        self.end_labels = place_annotations(list(names), ends, side=RIGHT, buff=GAP.tight, gap=GAP.small,
                                            bounds=(p.axes[0].get_y(), region.top))
        # L on its line, at the left end, where the curves are still far below it
        self.L_label.next_to(p.to_point(0, L), UP, buff=GAP.tight).align_to(p.axes[1], LEFT).shift(GAP.small * RIGHT)
        self.names = VGroup(*names)
        first_slow = n_pairs - slow_pairs
        xa = p.to_point(max(first_slow - 0.5, 0), 1)[0]
        top = p.axes[1].get_top()[1]
        self.band = background(bar(xa, x1, (self.train_line.get_y() + top) / 2, top - self.train_line.get_y(),
                                   UNSEEN, 0.0))
        self.band_label.next_to(np.array([(xa + x1) / 2, top, 0]), UP, buff=GAP.small)
        if self.band_label.get_right()[0] > x1:
            self.band_label.align_to(np.array([x1, 0, 0]), RIGHT)
        self.outline = Rectangle(width=x1 - xa, height=top - self.train_line.get_y(), stroke_color=HIGHLIGHT,
                                 stroke_width=STROKE).move_to(self.band)
        self.axes_group = VGroup(p.axes, p.grid, p.x_tick_labels, p.y_tick_labels, self.x_label, self.title)
        self.add(self.axes_group)
