"""The widgets only clip 12 draws (``scenes/clips/c12_positional_dilution.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circle,
    DashedLine,
    Mobject,
    Rectangle,
    VGroup,
)

from scenes.kit import numbers
from scenes.kit.compose import GAP
from scenes.kit.layout import LayoutError, Region, background
from scenes.kit.plots import MARK, STROKE, Plot, _decades, bar, vertical
from scenes.kit.theme import DIM, FG, HIGHLIGHT, LABEL, SMALL, label, math

MIN_PANEL = 0.62  # the shortest stacked panel that still prints its y ticks apart


LANE = 0.6  # the tallest lane of clip 12's close


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
