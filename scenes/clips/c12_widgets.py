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
    Line,
    ManimColor,
    Mobject,
    Rectangle,
    VGroup,
    color_to_rgb,
)

from scenes.audit import contrast
from scenes.figures.extrapolation import share_percent as share_text
from scenes.kit import N, numbers
from scenes.kit.compose import GAP
from scenes.kit.layout import SAFE, LayoutError, Region, overlay
from scenes.kit.plots import MARK, STROKE, Plot, _decades, bar, vertical
from scenes.kit.binding import role
from scenes.kit.proofs import line_baseline, worded_line
from scenes.kit.theme import BG, DIM, FG, HIGHLIGHT, LABEL, SMALL, figure, label, math

def share_label(share: float) -> str:
    """A share as the screen prints it: ``≈ 66 %`` when the percentage is rounded (review round 4: the deck's
    rule, rounded figures carry "≈"), a bare ``100 %`` / ``0 %`` / ``50 %`` when exact."""
    pct = share_text(share)
    return pct if abs(100 * share - round(100 * share)) < 1e-9 else f"≈ {pct}"


RING = MARK * 1.4  # review round 4b: the rings at m* and its twin read small (about 20 px)
TWIN_NEAR = 3 * RING  # the farthest a twin's "n = …" stands from its ring's centre and still reads as its label
MIN_PANEL = 0.62  # the shortest stacked panel that still prints its y ticks apart


LANE = 0.85  # the share of its panel's height a lane of clip 12's close takes
# review RC: grey means "dimmed" everywhere else in the deck, so "has a twin" (what the percentages on the right
# count, printed in the width's colour) is now drawn in the width's colour too, and "no twin" in one dark grey
NO_TWIN = ManimColor("#3A414C")


def seated(line: VGroup) -> VGroup:
    """``line`` (a :func:`worded_line`) with each lone symbol-with-script (``m^*``) standing on the words' baseline:
    the kit seats a formula by the median bottom of its glyphs, which for ``m^*`` is half way up the star, so the
    ``m`` hung below the line (review round 4b: 6 px under "Past")."""
    words = [p for p in line.pieces if any(p is w for w in line.words)]
    if not words:
        return line
    base = line_baseline(words[0])
    for p in line.maths:
        glyphs = [g for g in p.submobjects if g.has_points() or g.submobjects]
        if p.typst_code.strip("$ ") == "m^*" and glyphs:
            p.shift((base - glyphs[0].get_bottom()[1]) * UP)
    return line


def panel_floor(row_: np.ndarray) -> float:
    """The foot of a stacked panel's own scale: its curve's least value rounded down to a tenth, never under −1,
    never over 0 (the zero line stays in every panel)."""
    lo = np.floor(float(np.min(row_)) * 10 + 1e-9) / 10
    return float(min(0.0, max(-1.0, lo)))


class PanelStack(VGroup):
    """``n`` plots stacked top to bottom in ``region`` (x range shared, log or linear).

    ``panels[k]`` is series ``k``'s plot, drawn in row ``rows[k]`` (default: row ``k``).  Every
    panel has y ticks at ``y_ticks`` (the middle ones dropped when the panel is too short to print
    them apart); the bottom row alone has x tick labels and ``x_label`` (a mobject, e.g. Typst
    math, or a string).  ``gap`` separates panels; the left ``tick_room`` of the region is kept for
    y tick labels, each level with its tick (a stack of several drops its lowest, see :class:`DilutionPanels`).
    """

    def __init__(self, n: int, region: Region, x_range, y_range, x_log: bool = True, x_ticks: Sequence[float] = (),
                 y_ticks: Sequence[float] = (), x_label="", gap: float = GAP.small, tick_room: float | None = None,
                 tick_format: Callable[[float], str] | None = None, min_height: float = MIN_PANEL,
                 rows: Sequence[int] | None = None, label_left: bool = False,
                 y_ranges: Sequence[tuple[float, float]] | None = None,
                 y_tick_sets: Sequence[Sequence[float]] | None = None, **kw):
        super().__init__(**kw)
        if n < 1:
            raise ValueError(f"a panel stack needs at least one panel, got n={n}")
        rows = list(range(n)) if rows is None else list(rows)
        kw_fmt = {"tick_format": tick_format} if tick_format else {}
        probe = Plot(x_range, y_range, width=region.width, height=1.0, x_log=x_log, x_ticks=x_ticks, **kw_fmt)
        axis_label = label(x_label, size=SMALL) if isinstance(x_label, str) and x_label else x_label
        bottom_room = probe.axes[0].get_bottom()[1] - probe.x_tick_labels.get_bottom()[1] if len(x_ticks) else 0.0
        # ``label_left``: the axis label on the tick labels' line, left of the first, when the room left of the region
        # holds it (review round 4b: a line of its own took height the stacked panels needed)
        first_tick = probe.x_tick_labels[0].width / 2 if len(x_ticks) else 0.0
        room0 = tick_room if tick_room is not None else max(
            (label(numbers.tick(v), size=SMALL).width for ts in (y_tick_sets or [y_ticks]) for v in ts),
            default=0.0) + GAP.normal
        beside = bool(label_left and axis_label and len(x_ticks)
                      and region.left + room0 - first_tick - GAP.normal - axis_label.width >= SAFE.left)
        if axis_label and not beside:
            bottom_room += axis_label.height + GAP.tight
        elif beside:  # its descenders ("p") reach under the tick labels' foot
            t0 = probe.x_tick_labels[0]
            bottom_room += max(0.0, (line_baseline(axis_label) - axis_label.get_bottom()[1])
                               - (line_baseline(t0) - t0.get_bottom()[1]))
        usable = region.height - bottom_room - gap * (n - 1)
        h = usable / n
        if h < min_height:
            raise LayoutError(f"{n} panels need {min_height * n + gap * (n - 1) + bottom_room:.2f} units of height, "
                              f"region {region.name!r} has {region.height:.2f}")
        row_h = label("1", size=SMALL).height
        # ``y_ranges`` / ``y_tick_sets``: each panel on its own scale (review round 6: d = 256's wobble, ~0.1 of c,
        # was 4 px on a shared −1 … 1); without them every panel shares ``y_range`` and ``y_ticks``
        ranges = [tuple(y_ranges[k]) if y_ranges else tuple(y_range) for k in range(n)]
        tick_sets = []
        for k in range(n):
            ticks = list(y_tick_sets[k] if y_tick_sets else y_ticks)
            # a short panel prints its ends only, when neighbouring labels would touch (review round 4b: the test
            # counted every label's height against the whole panel, so a 1-unit panel lost its "0" though "1" and
            # "0" stood apart)
            if len(ticks) > 2 and h / (len(ticks) - 1) < row_h + GAP.tight:
                ticks = [ticks[0], ticks[-1]]  # a short panel prints its ends only
            tick_sets.append(ticks)
        room = tick_room if tick_room is not None else max(
            (label(numbers.tick(v), size=SMALL).width for ts in tick_sets for v in ts), default=0.0) + GAP.normal
        w = region.width - room
        self.panel_height, self.panel_width = h, w
        self.panels = VGroup()
        last_row = max(rows)
        for k in range(n):
            ticks = tick_sets[k]
            p = Plot(x_range, ranges[k], width=w, height=h, x_log=x_log, x_ticks=x_ticks, y_ticks=ticks, **kw_fmt)
            # review round 5: the y ticks were sans beside the x axis's typeset 10ᵏ; one tick face, the math one
            typeset = []
            for lab, v in zip(list(p.y_tick_labels), ticks):
                m = math(numbers.tick(v).replace("\u2212", "-"), size=SMALL, color=DIM).move_to(lab.get_right(), aligned_edge=RIGHT)
                m.tick_value = float(v)
                typeset.append(m)
            p.y_tick_labels.submobjects = typeset
            if rows[k] != last_row:  # only the bottom panel prints the shared x axis
                p.remove(p.x_tick_labels)
                p.x_tick_labels = VGroup()
            top = region.top - rows[k] * (h + gap)
            p.shift(np.array([region.left + room, top - h, 0.0]) - p.axes[0].get_start())
            # every y tick label level with its tick (review round 3: "1" tucked inside the panel sat 11 px under
            # the curve's true 1); stacked, the panels drop their lowest label (DilutionPanels) so none mix; a
            # label level with the x axis steps left of the x tick labels it would touch
            for lab in p.y_tick_labels:
                for xl in p.x_tick_labels:
                    if (lab.get_bottom()[1] < xl.get_top()[1] and lab.get_right()[0] > xl.get_left()[0] - GAP.tight
                            and lab.get_left()[0] < xl.get_right()[0]):
                        lab.shift((xl.get_left()[0] - GAP.tight - lab.get_right()[0]) * RIGHT)
            self.panels.add(p)
        self.add(self.panels)
        self.bottom = self.panels[rows.index(last_row)]
        self.x_axis_label = axis_label if axis_label else VGroup()
        self.label_beside = beside
        if beside:
            first = self.bottom.x_tick_labels[0]
            axis_label.move_to([first.get_left()[0] - GAP.normal, 0, 0], aligned_edge=RIGHT)
            axis_label.shift((line_baseline(first) - line_baseline(axis_label)) * UP)
            self.add(axis_label)
        elif axis_label:
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
    onset).  ``left_room`` and ``right_room`` are the label columns' widths (``right_room`` at least
    ``right_width``, for what the close prints there: pass the widest ``m*`` line with its share after it,
    and the panels make room for whichever way the close sets them, see :func:`right_column`).

    With more than one width, the first (``order[0]``) is drawn alone first, filling the whole region:
    ``solo`` (its plot, with the shared x axis), ``solo_curve``, ``solo_zero``, ``solo_label``; ``swing``
    outlines the range of that curve's last half (where it swings) on the solo plot, which fills
    ``solo_region`` (default: ``region``) but for the left label column.  With one width,
    ``solo`` is empty and ``swing`` sits on its panel."""

    def __init__(self, region: Region, t: np.ndarray, cos: np.ndarray, widths: Sequence[int], onsets, colors,
                 order: Sequence[int], x_label: Mobject, right_width: float = 0.0, solo_region: Region | None = None,
                 column: bool | None = None, headroom: float = 0.0, reserve: float = 0.0):
        super().__init__()
        if column is None and len(widths) > 1:  # review round 6: stacked on their own scales, the curves fill the
            # panels, so each m* stands in a right column beside its panel, the panels hold the rings and twins alone
            column = True
        if column is None:  # each m* on its panel where every one finds a clear spot there, else all in a right column
            args = (region, t, cos, widths, onsets, colors, order, x_label, right_width, solo_region)
            self.__init__(*args, column=False, headroom=headroom)
            # the top panel's twin label finds no spot by its ring (a ring near the panel's top, the formula over it):
            # the panels give up the room over the top panel it needs there
            top = order[0]
            if onsets[top].t is not None and self.twin_gap.get(top, 0.0) > TWIN_NEAR and not reserve:
                ring_top = self.panels[top].to_point(onsets[top].witness, onsets[top].cos_witness)[1] + RING
                tall = math(f"n = {numbers.count(onsets[top].witness).math}", size=SMALL).height
                need = ring_top + GAP.hair + tall - (region.top + headroom)
                if 0 < need < region.height / 4:
                    self.submobjects = []
                    try:
                        self.__init__(*args, column=False, headroom=headroom, reserve=need + GAP.hair)
                        if "corner" in self.label_spot.values():  # the shorter panels lost an m*'s spot: not worth it
                            raise LayoutError("an m* found no spot on the shorter panels")
                    except LayoutError:  # too many widths to spare the room: the label where it fits
                        self.submobjects = []
                        self.__init__(*args, column=False, headroom=headroom)
            if "corner" not in self.label_spot.values():
                return
            self.submobjects = []
            self.__init__(*args, column=True, headroom=headroom)
            return
        self.reserve = reserve
        if reserve:  # room kept over the top panel (for its twin's n), the panels under it
            region = Region(region.left, region.right, region.bottom, region.top - reserve, region.name)
        self.column = column
        n = len(widths)
        t_max = float(t[-1])
        self.width_labels = VGroup(*[math(f"d = {w}", size=LABEL, color=colors[k]) for k, w in enumerate(widths)])
        self.onset_labels = VGroup(*[
            math(f"m^* = {numbers.count(o.t).math}", size=LABEL, color=colors[k]) if o.t is not None
            else label("none found", size=SMALL, color=DIM) for k, o in enumerate(onsets)])
        self.left_room = max(m.width for m in self.width_labels) + GAP.normal
        # review round 4b: the right column stood empty through three beats; each m* is now written on its panel,
        # beside its ring, so the panels run to the frame's edge (``right_width`` kept for callers, unused)
        self.right_room = GAP.wide  # half the last x tick label ("10⁴") hangs past the panels
        if column:  # the m* labels beside their panels, on the right (the curves fill the panels)
            twin_w = max((worded_line(f"twin $n = {numbers.count(o.witness).math}$", size=SMALL).width
                          for o in onsets if o.t is not None), default=0.0)
            self.right_room = max(max(m.width for m in self.onset_labels), right_width, twin_w) + GAP.wide
        mid = Region(region.left + self.left_room, region.right - self.right_room, region.bottom, region.top, "panels")
        rank = {k: r for r, k in enumerate(order)}
        # review round 7: stacked, every panel on ONE scale, from 1 down to the least value of any curve (rounded down
        # to a tenth), so "wider is smoother" compares like with like (round 6 had each panel on its own scale)
        self.y_lows = [min(panel_floor(row_) for row_ in cos)] * n if n > 1 else [-1.0] * n
        kw = dict(x_log=True, x_ticks=_decades(t_max), y_ticks=[-1, 0, 1], x_label=x_label,
                  rows=[rank[k] for k in range(n)], label_left=n > 1,
                  y_ranges=[(lo, 1.0) for lo in self.y_lows],
                  y_tick_sets=[[0.0, 1.0]] * n if n > 1 else None,
                  # the tick column as wide as a "−1" would need: "position m" keeps its place on the tick row
                  tick_room=max(label(numbers.tick(v), size=SMALL).width for v in (-1, 0, 1)) + GAP.normal)
        # review round 4b: a lower panel's "1" butted the panel over it: the panels stand half a label's height
        # plus a gap apart, closer only when many widths need the room; review round 5: a label's height plus a gap
        # apart where the room allows, so each panel prints its "−1" too (the d = 16 curve reaches −0.86)
        row_h = label("1", size=SMALL).height
        self.stack = None
        for gap in (row_h + GAP.small, row_h / 2 + GAP.small, None, GAP.tight):  # None: PanelStack's own gap
            try:
                self.stack = PanelStack(n, mid, (1, t_max), (-1, 1), **({} if gap is None else {"gap": gap}), **kw)
                break
            except LayoutError:
                if gap == GAP.tight:
                    raise
        self.panels = self.stack.panels
        # stacked, each panel on its own scale prints "1" and "0" (its foot is its curve's least value rounded down, not
        # a round tick): the same two labels on every panel (review round 6: "1 / 0 / −1" on two panels, "1 / 0" on the
        # third), and a lone panel "1", "0" and "−1"
        self.low_ticks = n == 1
        by_row = sorted(self.panels, key=lambda p: -p.axes[0].get_y())
        # a panel whose curve stays near or over 0 has its "0" near its foot, by the "1" of the panel under it (or, in a
        # short panel, by its own "1"): then no panel prints "0", the dashed line marks it (the words over them say so)
        labs = [(min(p.y_tick_labels, key=lambda m: m.get_y()), max(p.y_tick_labels, key=lambda m: m.get_y()))
                for p in by_row if len(p.y_tick_labels) >= 2]
        near = any(hi.get_bottom()[1] - lo.get_top()[1] < GAP.hair for lo, hi in labs) or any(
            a[0].get_bottom()[1] - b[1].get_top()[1] < GAP.tight for a, b in zip(labs, labs[1:]))
        self.zero_labels = n == 1 or not near
        if not self.zero_labels:
            for p in self.panels:
                for m in [m for m in p.y_tick_labels if abs(getattr(m, "tick_value", 1.0)) < 1e-12]:
                    p.y_tick_labels.remove(m)
        h = self.stack.panel_height
        self.zeros = VGroup(*[p.hline(0.0, color=DIM, dashed=True, stroke_width=STROKE / 2) for p in self.panels])
        self.curves = VGroup(*[p.curve(t, row_, color=colors[k], stroke_width=STROKE * 3 / 4)
                               for k, (p, row_) in enumerate(zip(self.panels, cos))])
        self.centres = [p.axes[0].get_y() + h / 2 for p in self.panels]
        x_right = self.panels[0].axes[0].get_right()[0]
        tick_left = min(p.y_tick_labels.get_left()[0] for p in self.panels)
        for k, (wl, ol) in enumerate(zip(self.width_labels, self.onset_labels)):
            # beside its panel, a full GAP.normal left of its tick labels (review round 4: "d = 16" ran into the "0"
            # tick); left_room keeps that much beside the widest label, and a label never leaves the region (where the
            # tick labels stand out left of the panels, the gap gives way first, never the frame)
            wl.move_to([max(tick_left - GAP.normal, region.left + wl.width), self.centres[k], 0], aligned_edge=RIGHT)
        # the first width alone, filling the region, before the others join it
        k0 = order[0]
        self.solo, self.solo_curve, self.solo_zero, self.solo_label = VGroup(), VGroup(), VGroup(), VGroup()
        self.y_label, self.span = VGroup(), VGroup()
        half = cos[k0][len(t) // 2:]
        # review round 6: the span the narration names ("spans about 1.6"), drawn as a bracket beside the box
        self.span_label = figure(numbers.measure(float(np.ptp(half))), size=SMALL, color=HIGHLIGHT, prefix="=")
        for f in self.span_label.get_family():
            role(f, "highlight")
        p0 = self.panels[k0]
        if n > 1:
            room = solo_region or region
            span_room = MARK / 2 + GAP.tight + GAP.hair + self.span_label.width + GAP.small
            solo_mid = Region(room.left + self.left_room, room.right - max(GAP.wide, span_room), room.bottom, room.top,
                              "solo")
            solo = PanelStack(1, solo_mid, (1, t_max), (-1, 1), x_log=True, x_ticks=_decades(t_max), y_ticks=[-1, 0, 1],
                              x_label=x_label.copy())
            p0 = solo.panels[0]
            self.solo = solo
            self.solo_curve = p0.curve(t, cos[k0], color=colors[k0], stroke_width=STROKE * 3 / 4)
            self.solo_zero = p0.hline(0.0, color=DIM, dashed=True, stroke_width=STROKE / 2)
            self.solo_label = self.width_labels[k0].copy().move_to(
                [max(p0.y_tick_labels.get_left()[0] - GAP.normal, room.left + self.width_labels[k0].width),
                 p0.axes[0].get_y() + solo.panel_height / 2, 0],
                aligned_edge=RIGHT)
        # the first curve's last half: the range it swings over
        a, b = p0.to_point(t[len(t) // 2], half.min()), p0.to_point(t_max, half.max())
        self.swing = role(Rectangle(width=b[0] - a[0] + MARK, height=max(b[1] - a[1], MARK / 2) + MARK,
                                    stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to((a + b) / 2), "highlight")
        # the y axis named (review round 6: c was defined only in the formula line): c(m) level with the "1" tick
        top = max(p0.y_tick_labels, key=lambda m: m.get_y())
        self.y_label = math(f"c({N.position.math})", size=LABEL, color=FG)
        self.y_label.move_to([top.get_left()[0] - GAP.normal, top.get_y(), 0], aligned_edge=RIGHT)
        if n > 1:  # the span of the box's curve: a bracket from its least to its greatest value, the figure beside it
            x = self.swing.get_right()[0] + GAP.tight
            tick = MARK / 2
            bracket = VGroup(*[role(Line([x, y0, 0], [x, y1, 0], stroke_color=HIGHLIGHT, stroke_width=STROKE), "highlight")
                               for y0, y1 in ((a[1], b[1]),)],
                             *[role(Line([x - tick, y, 0], [x, y, 0], stroke_color=HIGHLIGHT, stroke_width=STROKE),
                                    "highlight") for y in (a[1], b[1])])
            self.span_label.next_to(bracket, RIGHT, buff=GAP.hair)
            self.span = VGroup(bracket, self.span_label)
        # onsets: a drop to the axis, a link to the witness, the dot, and a ring at each end
        self.markers = VGroup()
        for k, (p, o) in enumerate(zip(self.panels, onsets)):
            if o.t is None:
                self.markers.add(VGroup())
                continue
            p_t, p_s = p.to_point(o.t, o.cos_t), p.to_point(o.witness, o.cos_witness)
            # the larger ring, unless it would run into a y tick label (m* = 1 sits on the panel's left edge)
            ticks_right = max((lab.get_right()[0] for lab in p.y_tick_labels), default=-np.inf)
            r_ring = RING if min(p_t[0], p_s[0]) - RING - STROKE / 100 > ticks_right + GAP.hair else MARK * 0.8
            self.markers.add(VGroup(
                role(DashedLine(p.to_point(o.t, p.y_range[0]), p_t, stroke_color=HIGHLIGHT, stroke_width=STROKE * 2 / 3,
                                dash_length=GAP.hair), "highlight"),
                role(DashedLine(p_t, p_s, stroke_color=HIGHLIGHT, stroke_width=STROKE, dash_length=GAP.hair),
                     "highlight"),
                p.dot(o.t, o.cos_t, color=colors[k], radius=r_ring * 0.6),
                role(Circle(radius=r_ring, stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to(p_t), "highlight"),
                role(Circle(radius=r_ring, stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to(p_s), "highlight")))
        # each m* on its panel, near its ring: along the panel's foot (or, failing that, its top), the nearest spot
        # to the drop line clear of the curve, the rings, the dashed lines and the zero line (``label_spot[k]``: which
        # row, "corner" when no spot is clear); review round 4b: a right column stood empty through three beats;
        # review round 5: every m* on the same side of its drop line (right where all fit there, else left, else
        # each where it fits: ``label_side``)
        self.label_spot = {}
        obstacles = {}
        for k, p in enumerate(self.panels):
            pts = [dense(self.curves[k].points), ink(p.hline(0.0))]
            pts += [dense(f.points) for f in self.markers[k].family_members_with_points()]
            obstacles[k] = np.vstack(pts)
        for side in ("right", "left", "either"):
            spots = {k: self._place_onset(k, p, o, ol, obstacles[k], side, column, x_right)
                     for k, (p, o, ol) in enumerate(zip(self.panels, onsets, self.onset_labels))}
            self.label_spot, self.label_side = spots, side
            if column or "corner" not in spots.values():
                break
        # review round 5: each twin's n beside its hollow ring, so n >= 2 m* reads off the panel: the nearest spot to
        # the ring clear of the curve, the marks, the zero line and the m* label (``twin_gap[k]``: how far from it)
        self.twin_labels = VGroup()
        self.twin_gap = {}
        for k, (p, o) in enumerate(zip(self.panels, onsets)):
            if o.t is None:
                self.twin_labels.add(VGroup())
                continue
            # review round 6: the narration calls it a twin; the word stands by its ring
            tl = worded_line(f"twin $n = {numbers.count(o.witness).math}$", size=SMALL, color=colors[k])
            # it may rise over its panel's top into the gap under the panel above (never past the region's top)
            above = [q.axes[0].get_y() for q in self.panels if q.axes[0].get_y() > p.axes[0].get_y() + 1e-6]
            ceiling = min(above) - GAP.tight if above else region.top + self.reserve + headroom
            if column:  # review round 6: inside its own panel, clear of its top border
                ceiling = p.axes[0].get_y() + self.stack.panel_height - GAP.hair
            self.twin_gap[k] = self._place_twin(p, tl, p.to_point(o.witness, o.cos_witness), obstacles[k],
                                                self.onset_labels[k], ceiling, p.to_point(o.t, o.cos_t)[0])
            self.twin_labels.add(tl)
        # every n by its ring, or none: a label pushed far from its ring (many short panels) would name the wrong mark
        self.twins_shown = all(g <= TWIN_NEAR for g in self.twin_gap.values())
        # in a right column, each "twin n = …" under its m* where both fit in the panel's height (review round 6: a
        # twin's label over its ring crossed the panel's top border; the panels on their own scales have no room)
        self.twins_under = False
        if column and not self.twins_shown:
            fit = all(ol.height + tl.height + GAP.tight <= self.stack.panel_height
                      for ol, tl in zip(self.onset_labels, self.twin_labels) if len(tl))
            if fit:
                for k, (ol, tl) in enumerate(zip(self.onset_labels, self.twin_labels)):
                    if not len(tl):
                        continue
                    pair = ol.height + GAP.tight + tl.height
                    ol.move_to([x_right + GAP.normal, self.centres[k] + (pair - ol.height) / 2, 0], aligned_edge=LEFT)
                    tl.move_to([x_right + GAP.normal, self.centres[k] - (pair - tl.height) / 2, 0], aligned_edge=LEFT)
                self.twins_shown = self.twins_under = True
        if not self.twins_shown:
            self.twin_labels = VGroup(*[VGroup() for _ in onsets])
        self.label_at = {k: ol.get_center().copy() for k, ol in enumerate(self.onset_labels)}  # before any move
        self.add(self.stack, self.zeros, self.curves)


    def _place_onset(self, k, p, o, ol, pts, side, column, x_right) -> str:
        """Sets ``ol`` (panel ``k``'s m* label) on ``side`` of its drop line ("right", "left", "either"), along the
        panel's foot, else its top, clear of ``pts``; returns the row ("foot", "top", "right" in a column, "corner"
        when nothing on that side is clear)."""
        if column:
            ol.move_to([x_right + GAP.normal, self.centres[k], 0], aligned_edge=LEFT)
            return "right"
        h = self.stack.panel_height
        lo, hi = p.axes[0].get_left()[0], p.axes[0].get_right()[0]
        bottom, top = p.axes[0].get_y() + GAP.tight, p.axes[0].get_y() + h - GAP.tight
        x = p.to_point(o.t, o.cos_t)[0] if o.t is not None else hi  # "none found": as far right as it is clear
        side = side if o.t is not None else "either"
        clear = lambda: not np.any((pts[:, 0] > ol.get_left()[0] - GAP.tight) & (pts[:, 0] < ol.get_right()[0] + GAP.tight)
                                   & (pts[:, 1] > ol.get_bottom()[1] - GAP.hair) & (pts[:, 1] < ol.get_top()[1] + GAP.hair))
        xs = np.arange(lo + GAP.hair, hi - GAP.hair - ol.width + 1e-9, GAP.hair / 2)
        if side == "right":
            xs = xs[xs >= x]
        elif side == "left":
            xs = xs[xs + ol.width <= x]
        # a short panel: a hair off its foot (or top) rather than a gap
        rows = (("foot", bottom, DOWN), ("foot", bottom - GAP.tight + GAP.hair, DOWN), ("top", top, UP),
                ("top", top + GAP.tight - GAP.hair, UP))
        for name, y, edge in rows:
            for left in sorted(xs, key=lambda v: min(abs(v - x), abs(v + ol.width - x))):
                ol.move_to([left, y, 0], aligned_edge=LEFT + edge)
                if clear():
                    return name
        ol.move_to([hi - GAP.small, bottom, 0], aligned_edge=RIGHT + DOWN)
        return "corner"

    def _place_twin(self, p, tl, ring, pts, onset_label, ceiling, x_onset) -> float:
        """Sets ``tl`` (a twin's "n = …") over panel ``p`` (up to ``ceiling``), right of its m* (``x_onset``: the twin
        lies farther out), at the spot nearest ``ring`` (its ring's centre) clear of ``pts`` and of ``onset_label``;
        returns the gap between the label's box and the ring's centre."""
        lo, hi = p.axes[0].get_left()[0], p.axes[0].get_right()[0]
        y0, y1 = p.axes[0].get_y(), ceiling
        w, hh = tl.width, tl.height
        lo = max(lo, x_onset + GAP.tight)
        cx = np.arange(lo + w / 2 + GAP.hair, hi - w / 2 - GAP.hair + 1e-9, GAP.hair / 2)
        cy = np.arange(y0 + hh / 2 + GAP.hair, y1 - hh / 2 - GAP.hair + 1e-9, GAP.hair / 2)
        if not len(cx) or not len(cy):
            tl.move_to(ring)
            return float("inf")
        X, Y = np.meshgrid(cx, cy)
        X, Y = X.ravel(), Y.ravel()
        gap = np.hypot(np.maximum(0, np.abs(X - ring[0]) - w / 2), np.maximum(0, np.abs(Y - ring[1]) - hh / 2))
        order = np.lexsort((-(X - ring[0]), gap))  # nearest first; of equals, the one further right
        ol = onset_label
        (ol_l, ol_b, _), (ol_r, ol_t, _) = ol.get_corner(DOWN + LEFT), ol.get_corner(UP + RIGHT)
        near = pts[np.abs(pts[:, 0] - ring[0]) < 4.0 + w] if len(pts) else pts
        for i in order:
            x, y = X[i], Y[i]
            l, r, b, t = x - w / 2, x + w / 2, y - hh / 2, y + hh / 2
            if l < ol_r + GAP.small and r > ol_l - GAP.small and b < ol_t + GAP.hair and t > ol_b - GAP.hair:
                continue
            sel = near
            if len(pts) and abs(x - ring[0]) > 4.0:
                sel = pts
            if len(sel) and np.any((sel[:, 0] > l - GAP.tight) & (sel[:, 0] < r + GAP.tight)
                                   & (sel[:, 1] > b - GAP.hair) & (sel[:, 1] < t + GAP.hair)):
                continue
            tl.move_to([x, y, 0])
            return float(gap[i])
        tl.move_to(ring)
        return float("inf")

def dense(points: np.ndarray, per: int = 8) -> np.ndarray:
    """The polyline through a VMobject's anchors, sampled ``per`` times a segment (its corners and what lies
    between them: a long straight stretch of a sparse curve crosses a label no anchor lies in)."""
    if len(points) < 4:
        return points.reshape(-1, 3)
    a, b = points[0::4], points[3::4]
    f = np.linspace(0.0, 1.0, per + 1)[:, None, None]
    return (a[None] * (1 - f) + b[None] * f).reshape(-1, 3)


def ink(m: Mobject) -> np.ndarray:
    """Every drawn point of ``m`` and its family (a dashed line's dashes), densified (:func:`dense`)."""
    parts = [dense(f.points) for f in m.family_members_with_points()]
    return np.vstack(parts) if parts else np.zeros((0, 3))


def twin_bins(twins: np.ndarray, start: int, per_decade: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions ``start … M`` (``twins: (M,)``, ``twins[m-1]``: position ``m`` has a twin) cut into
    stretches about ``1/per_decade`` of a decade long on a log axis (``per_decade <= 0``, the lanes' default:
    one stretch, ``start … M`` whole): ``(lo, hi, share)``, stretch ``j`` holding the positions
    ``lo[j] … hi[j] − 1`` of which ``share[j]`` have a twin.  Every position in ``start … M`` is in exactly
    one stretch (the aggregation the lanes draw; nothing re-invented)."""
    M = len(twins)
    if start > M:
        return np.zeros(0, int), np.zeros(0, int), np.zeros(0)
    if per_decade <= 0:  # review round 3: forty columns a lane read as noise; one block says the share
        return np.array([start]), np.array([M + 1]), np.array([twins[start - 1:M].mean()])
    n = max(1, int(np.ceil(np.log10((M + 1) / start) * per_decade)))
    edges = np.unique(np.round(np.geomspace(start, M + 1, n + 1)).astype(int))
    edges[0], edges[-1] = start, M + 1
    lo, hi = edges[:-1], edges[1:]
    share = np.array([twins[a - 1:b - 1].mean() for a, b in zip(lo, hi)])
    return lo, hi, share


class TwinLanes(VGroup):
    """Clip 12's close: one 100 % bar per width, in the rows of ``panels`` (a :class:`DilutionPanels`), so that
    length is share (review round 4b: lanes on the log position axis let d = 256's 3 % of positions before m*
    take half its lane).  A width's bar is every position past its ``m*`` up to the last judged one (``horizon``,
    the last position whose twins lie in the data): a block in the width's colour as long as the share of them
    with a twin (``bins[k]``, one stretch from :func:`twin_bins`), then dark grey for the rest, each block with
    its share written on it where the words fit ("≈ 66 % with a twin", "≈ 34 % no twin").  A width without an
    ``m*`` is dark grey all the way: none of its positions up to the horizon has a twin.  Under the bottom bar,
    ``axis``: 0 % … 100 % and what the whole bar is.

    Parts by data index ``k``: ``lanes[k]`` with ``.columns`` (the coloured block; ``.values``: the shares it
    draws), ``.rest`` (the dark grey), ``.frame``, ``.tag``; ``share_labels[k]`` (the share with a twin, as
    written); ``on_blocks`` (the widths whose share is written on their coloured block); ``on_lanes`` (the
    "no twin" words on the dark grey); ``axis``."""

    def __init__(self, panels: DilutionPanels, widths: Sequence[int], shares, bins, colors, t_max: float,
                 region: Region | None = None, factor: float = 2.0):
        super().__init__()
        P = panels
        n = len(shares)
        # review round 5: the twin rule stays on screen under the bars (the m* formula has gone by then, yet "with a
        # twin" and "past m*" lean on it), and its bound n <= t_max says why the bars stop at the horizon (2m <= t_max)
        self.reminder = worded_line("a twin of $m$: "
                                    f"an $n$ with ${factor:g} m <= n <= {numbers.count(t_max).math}$ and $c(n) >= c(m)$",
                                    size=SMALL, color=DIM)
        # the bars have no log axis to share: they fill ``region`` (default: the panels' rows) in the panels' order,
        # the width tags on the left, each m* on the right (``onset_spots[k]``: where its label moves to)
        probe = worded_line("positions past $m^*$, up to $m = 5000$, so that $2 m <= 10 000$", size=SMALL)
        tick_h = math("100 %", size=SMALL).height
        axis_room = GAP.tight + GAP.hair + tick_h + GAP.tight + probe.height + GAP.small + self.reminder.height
        if region is None:
            h = P.stack.panel_height
            centres = list(P.centres)
            lane_h = h * LANE
            x0, x1 = P.panels[0].axes[0].get_left()[0], P.panels[0].axes[0].get_right()[0]
        else:
            pitch = (region.height - axis_room) / n
            lane_h = min(pitch * 0.8, 1.2)  # review round 5: the twin rule under them took some of the room
            rank = sorted(range(n), key=lambda j: -P.centres[j])
            centres = [0.0] * n
            for r, j in enumerate(rank):
                centres[j] = region.top - pitch * (r + 0.5)
            x0 = region.left + max(m.width for m in P.width_labels) + GAP.normal
            x1 = region.right - max(m.width for m in P.onset_labels) - GAP.normal
        self.centres = centres
        self.onset_spots = {k: np.array([x1 + GAP.normal + P.onset_labels[k].width / 2, centres[k], 0.0])
                            for k in range(n)}
        self.lane_height = lane_h
        self.x0, self.x1 = x0, x1
        W = x1 - x0
        fits = lambda m, block: m.width + 2 * GAP.small <= block.width and m.height + GAP.tight <= block.height
        self.lanes, self.share_labels, self.on_lanes = VGroup(), VGroup(), VGroup()
        self.on_blocks = set()
        for k, a in enumerate(shares):
            y = centres[k]
            lo, hi, share = bins[k]
            judged = a.onset.t is not None and a.checked > 0
            s = float(a.share) if judged else 0.0
            xs = x0 + s * W
            columns = VGroup(bar(x0, xs, y, lane_h, colors[k], 1.0)) if s > 0 else VGroup()
            columns.values = np.asarray(share, dtype=float)
            rest = bar(xs, x1, y, lane_h, NO_TWIN, 1.0) if s < 1 else VGroup()
            frame = Rectangle(width=W, height=lane_h, stroke_color=DIM, stroke_width=STROKE / 2).move_to(
                [(x0 + x1) / 2, y, 0])
            tag = P.width_labels[k].copy().move_to([x0 - GAP.small, y, 0], aligned_edge=RIGHT)  # beside its bar
            lane = VGroup(rest, columns, frame, tag)
            lane.columns, lane.rest, lane.frame, lane.tag = columns, rest, frame, tag
            self.lanes.add(lane)
            lab = VGroup()
            if judged:
                pct = share_label(s)
                lab = worded_line(f"${pct}$ with a twin", size=SMALL, color=BG)
                if len(columns) and fits(lab, columns[0]):  # on its coloured block, in the background's colour
                    lab.move_to(columns[0])
                    overlay(lab, columns[0], frame)
                    self.on_blocks.add(k)
                else:  # a block too short for its words: the same words on the dark grey, just past it, in its
                    # colour where that colour reads on the grey (WCAG AA, 4.5:1), else in the foreground's
                    ink = colors[k] if contrast.ratio(color_to_rgb(colors[k]), color_to_rgb(NO_TWIN)) >= contrast.NORMAL_MIN \
                        else FG
                    lab = worded_line(f"${pct}$ with a twin", size=SMALL, color=ink)
                    lab.move_to([xs + GAP.small, y, 0], aligned_edge=LEFT)
                    if len(rest):
                        overlay(lab, rest, frame)
            self.share_labels.add(lab)
            # the rest of the bar, dark grey: its share without a twin, when the words fit on it and are not there
            if len(rest) and k in self.on_blocks:
                none = worded_line(f"${share_label(1 - s)}$ no twin", size=SMALL, color=FG)
                if not fits(none, rest):
                    none = worded_line(f"${share_label(1 - s)}$", size=SMALL, color=FG)
                if fits(none, rest):
                    none.move_to(rest)
                    overlay(none, rest, frame)
                    self.on_lanes.add(none)
            elif not judged:
                none = label("no twin", size=SMALL, color=FG)
                if fits(none, rest):
                    none.move_to(rest)
                    overlay(none, rest, frame)
                    self.on_lanes.add(none)
        # under the bottom bar: 0 % to 100 % of what a bar holds, the positions past m* up to the horizon
        M = shares[0].horizon
        bottom = min(centres) - lane_h / 2
        ticks = VGroup()
        marks = VGroup()
        for f in (0.0, 0.5, 1.0):
            x = x0 + f * W
            marks.add(vertical(x, bottom - GAP.tight, bottom, DIM, width=STROKE / 2))
            ticks.add(math(share_text(f), size=SMALL, color=DIM).next_to([x, bottom - GAP.tight, 0], DOWN,
                                                                         buff=GAP.hair))
        past = any(a.onset.t is not None for a in shares)
        # review round 7: why the bars stop there, on screen: a twin n >= 2m must lie in the data (2m <= t_max)
        why = f", so that ${factor:g} m <= {numbers.count(t_max).math}$" if factor * M <= t_max < factor * (M + 1) else ""
        self.why_shown = bool(why)
        what = seated(worded_line(("positions past $m^*$, " if past else "positions ")
                                  + f"up to $m = {numbers.count(M).math}$" + why, size=SMALL, color=FG))
        what.next_to(ticks, DOWN, buff=GAP.tight).set_x((x0 + x1) / 2)
        self.axis = VGroup(marks, ticks, what)
        self.axis_words = what
        self.reminder.next_to(what, DOWN, buff=GAP.small).set_x((x0 + x1) / 2)
        self.add(self.lanes, self.share_labels, self.on_lanes, self.axis, self.reminder)


def right_column(onset_labels: Sequence[Mobject], share_labels: Sequence[Mobject], lane_h: float) -> float:
    """The width the close's right column needs: each ``m*`` with its share under it when both fit in a
    lane ``lane_h`` tall, else after it on one line (as :class:`TwinLanes` sets them)."""
    w = 0.0
    for ol, lab in zip(onset_labels, share_labels):
        if lab is None:
            w = max(w, ol.width)
        elif ol.height + lab.height + GAP.tight <= lane_h:
            w = max(w, ol.width, lab.width)
        else:
            w = max(w, ol.width + GAP.small + lab.width + math("dot.c med", size=LABEL).width)
    return w
