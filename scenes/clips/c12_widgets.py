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
    ManimColor,
    Mobject,
    Rectangle,
    VGroup,
)

from scenes.figures.extrapolation import share_percent as share_text
from scenes.kit import numbers
from scenes.kit.compose import GAP
from scenes.kit.layout import SAFE, LayoutError, Region, overlay
from scenes.kit.plots import MARK, STROKE, Plot, _decades, bar, vertical
from scenes.kit.binding import role
from scenes.kit.proofs import line_baseline, worded_line
from scenes.kit.theme import BG, DIM, FG, HIGHLIGHT, LABEL, SMALL, label, math

def share_label(share: float) -> str:
    """A share as the screen prints it: ``≈ 66 %`` when the percentage is rounded (review round 4: the deck's
    rule, rounded figures carry "≈"), a bare ``100 %`` / ``0 %`` / ``50 %`` when exact."""
    pct = share_text(share)
    return pct if abs(100 * share - round(100 * share)) < 1e-9 else f"≈ {pct}"


MIN_PANEL = 0.62  # the shortest stacked panel that still prints its y ticks apart


LANE = 0.85  # the share of its panel's height a lane of clip 12's close takes
# review RC: grey means "dimmed" everywhere else in the deck, so "has a twin" (what the percentages on the right
# count, printed in the width's colour) is now drawn in the width's colour too, and "no twin" in one dark grey
NO_TWIN = ManimColor("#3A414C")


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
    onset).  ``left_room`` and ``right_room`` are the label columns' widths (``right_room`` at least
    ``right_width``, for what the close prints there: pass the widest ``m*`` line with its share after it,
    and the panels make room for whichever way the close sets them, see :func:`right_column`).

    With more than one width, the first (``order[0]``) is drawn alone first, filling the whole region:
    ``solo`` (its plot, with the shared x axis), ``solo_curve``, ``solo_zero``, ``solo_label``; ``swing``
    outlines the range of that curve's last half (where it swings) on the solo plot, which fills
    ``solo_region`` (default: ``region``) but for the left label column.  With one width,
    ``solo`` is empty and ``swing`` sits on its panel."""

    def __init__(self, region: Region, t: np.ndarray, cos: np.ndarray, widths: Sequence[int], onsets, colors,
                 order: Sequence[int], x_label: Mobject, right_width: float = 0.0, solo_region: Region | None = None):
        super().__init__()
        n = len(widths)
        t_max = float(t[-1])
        self.width_labels = VGroup(*[math(f"d = {w}", size=LABEL, color=colors[k]) for k, w in enumerate(widths)])
        self.onset_labels = VGroup(*[
            math(f"m^* = {numbers.count(o.t).math}", size=LABEL, color=colors[k]) if o.t is not None
            else label("none found", size=SMALL, color=DIM) for k, o in enumerate(onsets)])
        self.left_room = max(m.width for m in self.width_labels) + GAP.normal
        self.right_room = max(max(m.width for m in self.onset_labels), right_width) + GAP.wide
        mid = Region(region.left + self.left_room, region.right - self.right_room, region.bottom, region.top, "panels")
        rank = {k: r for r, k in enumerate(order)}
        kw = dict(x_log=True, x_ticks=_decades(t_max), y_ticks=[-1, 0, 1], x_label=x_label,
                  rows=[rank[k] for k in range(n)])
        try:
            self.stack = PanelStack(n, mid, (1, t_max), (-1, 1), **kw)
        except LayoutError:  # many widths: panels closer together
            self.stack = PanelStack(n, mid, (1, t_max), (-1, 1), gap=GAP.tight, **kw)
        self.panels = self.stack.panels
        # stacked, a panel prints only "1" and "0": the "−1" at its foot sat a hair over the next panel's "1"
        # (every curve starts at 1 and falls towards 0, so the two read the scale); the "0" on its zero line
        if n > 1:
            for p in self.panels:
                labs = p.y_tick_labels
                if len(labs) >= 2:  # the lowest label (-1) would stand level with the next panel's top ("1")
                    p.y_tick_labels.remove(labs[0])
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
            ol.move_to([x_right + GAP.normal, self.centres[k], 0], aligned_edge=LEFT)
        # the first width alone, filling the region, before the others join it
        k0 = order[0]
        self.solo, self.solo_curve, self.solo_zero, self.solo_label = VGroup(), VGroup(), VGroup(), VGroup()
        p0 = self.panels[k0]
        if n > 1:
            room = solo_region or region
            solo_mid = Region(room.left + self.left_room, room.right - GAP.wide, room.bottom, room.top, "solo")
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
        half = cos[k0][len(t) // 2:]
        a, b = p0.to_point(t[len(t) // 2], half.min()), p0.to_point(t_max, half.max())
        self.swing = role(Rectangle(width=b[0] - a[0] + MARK, height=max(b[1] - a[1], MARK / 2) + MARK,
                                    stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to((a + b) / 2), "highlight")
        # onsets: a drop to the axis, a link to the witness, the dot, and a ring at each end
        self.markers = VGroup()
        for k, (p, o) in enumerate(zip(self.panels, onsets)):
            if o.t is None:
                self.markers.add(VGroup())
                continue
            p_t, p_s = p.to_point(o.t, o.cos_t), p.to_point(o.witness, o.cos_witness)
            self.markers.add(VGroup(
                role(DashedLine(p.to_point(o.t, -1), p_t, stroke_color=HIGHLIGHT, stroke_width=STROKE * 2 / 3,
                                dash_length=GAP.hair), "highlight"),
                role(DashedLine(p_t, p_s, stroke_color=HIGHLIGHT, stroke_width=STROKE * 2 / 3, dash_length=GAP.hair),
                     "highlight"),
                p.dot(o.t, o.cos_t, color=colors[k], radius=MARK / 2),
                role(Circle(radius=MARK, stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to(p_t), "highlight"),
                role(Circle(radius=MARK, stroke_color=HIGHLIGHT, stroke_width=STROKE).move_to(p_s), "highlight")))
        self.add(self.stack, self.zeros, self.curves)


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
    """Clip 12's honest close: one lane per width over the position axis of ``panels`` (a
    :class:`DilutionPanels`), in the same rows.  A lane is coloured from 1 to ``m*`` (no position there
    has a twin: told apart); past ``m*``, each stretch of positions (``bins[k]``: ``lo, hi, share`` from
    :func:`twin_bins`) is a grey column as tall as the share of its positions that have a twin, inside
    a frame as tall as all of them; the lane stops at ``horizon`` (the last position whose twins lie in
    the data).  ``shares[k]`` (an ``AmbiguityShare``) is printed beside ``m*`` on the right.

    Parts by data index ``k``: ``lanes[k]`` with ``.clear``, ``.columns`` (``.values``: the shares
    drawn), ``.frame``, ``.edge``, ``.tag``; ``share_labels[k]``; and ``key`` (what colour and grey mean),
    ``horizon_mark`` (an empty box closing each lane past the last judged position, and the
    words naming it)."""

    FULL = 0.95  # a column this tall reads as "has a twin": the word goes over a run of them
    REST_OPACITY = 1.0  # a lane past m*: its colour, as before m*, behind the grey columns (one way to draw "no twin")

    def __init__(self, panels: DilutionPanels, widths: Sequence[int], shares, bins, colors, t_max: float):
        super().__init__()
        P = panels
        h = P.stack.panel_height
        lane_h = h * LANE
        self.lane_height = lane_h
        p0 = P.panels[0]
        x0, x_right = p0.axes[0].get_left()[0], p0.axes[0].get_right()[0]
        self.lanes, self.share_labels = VGroup(), VGroup()
        for k, a in enumerate(shares):
            p, y = P.panels[k], P.centres[k]
            M = a.horizon
            xm = p.to_point(max(M, 1), 0)[0]
            o = a.onset
            x_edge = p.to_point(o.t, 0)[0] if o.t is not None else xm
            clear = bar(x0, x_edge, y, lane_h, NO_TWIN, 1.0)
            # past m*, the lane stays dark grey where a position has no twin: one way to draw "no twin"
            rest = bar(x_edge, max(xm, x_edge + 1e-3), y, lane_h, NO_TWIN, self.REST_OPACITY) if o.t is not None \
                else VGroup()
            columns = VGroup()
            lo, hi, share = bins[k]
            for a_, b_, s_ in zip(lo, hi, share):
                xa, xb = p.to_point(a_, 0)[0], p.to_point(min(b_, M), 0)[0] if b_ <= M else xm
                if s_ > 0:
                    columns.add(bar(xa, max(xb, xa + 1e-3), y - lane_h / 2 + lane_h * s_ / 2, lane_h * s_, colors[k],
                                    1.0))
            columns.values = np.asarray(share, dtype=float)
            frame = Rectangle(width=max(xm - x_edge, 1e-3), height=lane_h, stroke_color=DIM,
                              stroke_width=STROKE / 2).move_to([(x_edge + xm) / 2, y, 0]) if o.t is not None \
                else VGroup()
            edge = role(vertical(x_edge, y - lane_h / 2 - GAP.hair, y + lane_h / 2 + GAP.hair, HIGHLIGHT), "highlight") \
                if o.t is not None else VGroup()
            edge.values = np.array([np.nan if o.t is None else o.t], dtype=float)
            tag = P.width_labels[k].copy().move_to([x0 - GAP.small, y, 0], aligned_edge=RIGHT)  # beside its lane
            lane = VGroup(clear, rest, frame, columns, edge, tag)
            lane.clear, lane.columns, lane.frame, lane.edge, lane.tag = clear, columns, frame, edge, tag
            lane.rest = rest
            self.lanes.add(lane)
            if o.t is not None and a.checked:
                pct = share_label(a.share)
                lab = math(pct, size=LABEL, color=colors[k])
                if P.onset_labels[k].height + lab.height + GAP.tight > lane_h:  # one line: set apart by a dot
                    lab = math(f"dot.c med {pct}", size=LABEL, color=colors[k])
            else:
                lab = VGroup()
            self.share_labels.add(lab)
        # review round 3: the share is said on the data, inside the one block that draws it ("66 % with a twin", in
        # the background's colour, as "has a twin" was); a block too small for the words keeps its share on the
        # right, beside its m* (``on_blocks``: the widths whose share is on their block)
        self.on_blocks = set()
        for k, a in enumerate(shares):
            cols = self.lanes[k].columns
            if not self.share_labels[k].family_members_with_points() or len(cols) != 1:
                continue
            block = cols[0]
            # review round 4: "66% with a twin" filled its block edge to edge: the words keep GAP.small either side,
            # and a block too narrow for them carries its share alone ("≈ 66 %"), as its neighbours' words read
            for text in (f"${share_label(a.share)}$ with a twin", f"${share_label(a.share)}$"):
                words = worded_line(text, size=SMALL, color=BG)
                if words.width + 2 * GAP.small <= block.width:
                    break
            if words.width + 2 * GAP.small <= block.width and words.height + GAP.tight <= block.height:
                words.move_to(block)
                overlay(words, block, self.lanes[k].rest, self.lanes[k].frame)
                self.share_labels.submobjects[k] = words
                self.on_blocks.add(k)
        # each share beside its m*, on the right: under it when the lane is tall enough for two lines, else
        # after it on the same line (``onset_spots[k]``: where m* moves to make room)
        self.onset_spots = {}
        cs = sorted(P.centres[k] for k in range(len(shares)))
        pitch = min((b - a for a, b in zip(cs, cs[1:])), default=np.inf)
        for k, lab in enumerate(self.share_labels):
            if not lab.family_members_with_points() or k in self.on_blocks:
                continue
            ol = P.onset_labels[k]
            stacked = ol.height + lab.height + GAP.tight <= lane_h  # else the label starts with its dot
            if not stacked:  # one line, unless it would run past the frame and two fit between the lanes
                wide = ol.width + GAP.small + lab.width
                plain = math(share_label(shares[k].share), size=LABEL, color=colors[k])
                if ol.get_left()[0] + wide > SAFE.right and ol.height + plain.height + GAP.tight <= pitch - GAP.tight:
                    lab, stacked = plain, True
                    self.share_labels.submobjects[k] = lab
            pair = VGroup(ol.copy(), lab.copy())
            if stacked:
                pair.arrange(DOWN, aligned_edge=LEFT, buff=GAP.tight)  # review round 3: proper leading
            else:
                pair.arrange(RIGHT, buff=GAP.small)
                pair[1].align_to(pair[0], DOWN)
            pair.move_to(ol, aligned_edge=LEFT).set_y(P.centres[k])
            over = pair.get_right()[0] - SAFE.right
            if over > 0:  # a long m* and its share on one line: both kept inside the frame
                pair.shift(over * LEFT)
            lab.move_to(pair[1])
            self.onset_spots[k] = pair[0].get_center()
        # past the last judged position its twins would lie beyond the data: each lane ends in an empty box there
        M = shares[0].horizon
        xm = P.panels[0].to_point(max(M, 1), 0)[0]
        boxes = VGroup()
        if x_right - xm > GAP.hair:
            for k in range(len(shares)):
                boxes.add(Rectangle(width=x_right - xm, height=lane_h, stroke_color=DIM, stroke_width=STROKE / 2)
                          .move_to([(xm + x_right) / 2, P.centres[k], 0]))
        self.unjudged = boxes
        # the words on the lanes themselves: "no twin" inside the widest coloured stretch, "has a twin" over the
        # widest run of (nearly) full grey columns, in the background's colour; a word that finds no room there
        # stays in the key line over the top lane, with the words naming the empty boxes
        n = len(shares)
        self.no_twin = label("no twin", size=SMALL, color=FG)
        self.has_twin = label("has a twin", size=SMALL, color=BG)
        self.on_lanes = VGroup()
        self.key = VGroup()
        room = lambda w, word: word.width + 2 * GAP.small <= w and word.height + GAP.tight <= lane_h
        k = max(range(n), key=lambda j: self.lanes[j].clear.width)
        if room(self.lanes[k].clear.width, self.no_twin):
            self.no_twin.move_to(self.lanes[k].clear)
            self.on_lanes.add(self.no_twin)
            overlay(self.no_twin, self.lanes[k].clear)  # a word on its stretch of the lane
        else:
            self.key.add(label("dark grey: no twin", size=SMALL, color=FG))
        best = None  # (width, x_left, x_right, k): the widest run of columns at least FULL tall
        for j, a in enumerate(shares):
            if a.onset.t is None:
                continue
            p, M = P.panels[j], a.horizon
            lo, hi, share = bins[j]
            start = None
            for i in range(len(share) + 1):
                full = i < len(share) and share[i] >= self.FULL
                if full and start is None:
                    start = i
                elif not full and start is not None:
                    xa = p.to_point(lo[start], 0)[0]
                    xb = p.to_point(min(hi[i - 1], M), 0)[0] if hi[i - 1] <= M else p.to_point(max(M, 1), 0)[0]
                    if best is None or xb - xa > best[0]:
                        best = (xb - xa, xa, xb, j)
                    start = None
        if self.on_blocks:  # the blocks say "… with a twin" themselves
            pass
        elif best is not None and room(best[0], self.has_twin):
            self.has_twin.move_to([(best[1] + best[2]) / 2, P.centres[best[3]], 0])
            self.on_lanes.add(self.has_twin)
            overlay(self.has_twin, self.lanes[best[3]].columns, self.lanes[best[3]].rest, self.lanes[best[3]].frame)
        elif any(a.onset.t is not None for a in shares):
            self.key.add(label("colour: has a twin", size=SMALL, color=FG))
        m_text = f"$m = {numbers.count(M).math}$"
        words = worded_line(f"empty: not judged past {m_text}" if len(boxes) else f"judged to {m_text}",
                            size=SMALL, color=DIM)
        self.horizon_mark = VGroup(boxes, words)
        top = min(range(len(shares)), key=lambda k: -P.centres[k])
        # what the right column's percentages are: a heading over it, on the key's line
        self.share_head = VGroup()
        labelled = [j for j, lab in enumerate(self.share_labels) if lab.family_members_with_points()
                    and j not in self.on_blocks]
        right = SAFE.right
        if labelled:
            self.share_head = label("% with a twin", size=SMALL, color=DIM)
            col_left = min(self.share_labels[j].get_left()[0] for j in labelled)
            col_left = min([col_left, *[P.onset_labels[j].get_left()[0] for j in labelled]])
            self.share_head.move_to([0, 0, 0], aligned_edge=LEFT + DOWN)
            self.share_head.shift([min(col_left, SAFE.right - self.share_head.width),
                                   P.centres[top] + lane_h / 2 + GAP.tight, 0])
            right = self.share_head.get_left()[0] - GAP.normal
        bottom = P.centres[top] + lane_h / 2 + GAP.tight
        # review round 3: the empty boxes' words stood at the far left, away from the boxes: now they end where the
        # boxes end, over them, when the rest of the key fits to their left; else the key is one line as before
        near = len(boxes) and right >= x_right
        if near:
            words.shift((bottom - words.get_bottom()[1]) * UP + (x_right - words.get_right()[0]) * RIGHT)
            if len(self.key):  # the key's words to their left, at full size, or all on one line as before
                need = sum(p.width for p in self.key) + GAP.normal * (len(self.key) - 1)
                near = SAFE.left + need <= words.get_left()[0] - GAP.wide
                if near:
                    key_line(list(self.key), x0, SAFE.left, words.get_left()[0] - GAP.wide, bottom)
                    for p in self.key:
                        p.shift((line_baseline(words) - line_baseline(p)) * UP)
            near = near and words.get_left()[0] >= SAFE.left
        self.near = bool(near)  # the empty boxes' words over the boxes themselves
        self.key_line = VGroup(*self.key, words) if near else key_line([*self.key, words], x0, SAFE.left, right, bottom)
        if len(self.share_head):
            self.share_head.shift((line_baseline(words) - line_baseline(self.share_head)) * UP)
        self.add(self.lanes, self.share_labels, self.key, self.horizon_mark, self.on_lanes, self.share_head)


def key_line(pieces: Sequence[Mobject], x0: float, left: float, right: float, bottom: float) -> VGroup:
    """``pieces`` (words, each a :func:`label` or :func:`worded_line`) set on one baseline, a wide gap apart,
    their lowest point at ``bottom``: from ``x0`` (the lanes' left edge) when they fit before ``right``, else
    from ``left``; the gaps close up, then the line shrinks, before it would leave ``left … right``.
    Returns the pieces as one group (they are moved, not copied)."""
    g = VGroup(*pieces)
    for gap in (GAP.section, GAP.wide, GAP.normal):
        g.arrange(RIGHT, buff=gap)
        if g.width <= right - left:
            break
    if g.width > right - left:
        g.scale((right - left) / g.width)
    base = line_baseline(pieces[0])
    for p in pieces[1:]:
        p.shift((base - line_baseline(p)) * UP)
    g.shift((bottom - g.get_bottom()[1]) * UP)
    g.shift(((x0 if x0 + g.width <= right else left) - g.get_left()[0]) * RIGHT)
    return g


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
