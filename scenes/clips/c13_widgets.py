"""The widgets only clip 13 draws (``scenes/clips/c13_extrapolation_cliff.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arc,
    FadeIn,
    FadeOut,
    Line,
    Mobject,
    Polygon,
    Rectangle,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from scenes.kit import numbers
from scenes.kit.binding import role
from scenes.kit.compose import GAP, column, row
from scenes.kit.layout import Region, overlay, place_annotations
from scenes.kit.motion import swap
from scenes.kit.proofs import worded_line
from scenes.kit.plots import MARK, STROKE, Plot, _box, _decades, bar, vertical
from scenes.kit.theme import BG, DIM, FAILED, FG, HEADING, HIGHLIGHT, LABEL, SEEN, SMALL, UNSEEN, label, math
from scenes.kit.widgets import VectorDial


UNTRAINED_TINT = 0.45  # the learned table's untrained rows: the failure's red at this opacity over the background


def degree_text(x: float) -> str:
    """A small angle in degrees as the clip prints it: one decimal, or as many as its first digit needs
    (4.96 → ``5.0``, 0.66 → ``0.7``, 0.0066 → ``0.007``)."""
    x = float(x)
    places = 1 if x <= 0 else max(1, -int(np.floor(np.log10(x))))
    if places > 4:  # 0.00000008 reads as a row of zeros: 8 × 10⁻⁸
        mant, exp = f"{x:.0e}".split("e")
        return f"{mant} × 10{numbers.superscript(int(exp))}"
    return f"{x:.{places}f}"


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


class CliffChart(VGroup):
    """Clip 13's chart: ``unseen`` (pairs of ``n_pairs`` at unseen angles at each of ``positions``)
    over a log position axis filling ``region`` (its lower part: ``top_room`` is left above it for
    the lanes).  The x axis is every lane's axis: :meth:`x_of` maps a position to the screen.
    ``L`` (seen colour) and ``n_max`` (the wall's colour) are labelled under the axis, spread
    apart when close, and decade labels they would touch are dropped."""

    def __init__(self, region: Region, positions: np.ndarray, unseen: np.ndarray, n_pairs: int, L: int, n_max: int,
                 top_room: float, title: str, lanes: bool = True, n_label: bool = True):
        super().__init__()
        x_max = float(positions[-1])
        self.lanes = lanes  # False: RoPE's chart alone (no nₘₐₓ: the table's limit is not RoPE's; L on its line)
        self.title = label(title, size=SMALL, color=FG) if title else VGroup()  # the lanes' ruler has none
        self.axis_label = worded_line("position $m$", size=SMALL)  # the word in the sans, m in math
        self.L_tick = role(math(f"L = {numbers.count(L).math}", size=LABEL, color=SEEN), "seen")
        self.n_tick = role(math(f'n_"max" = {numbers.count(n_max).math}', size=LABEL, color=FAILED), "failed")
        ticks = [0, n_pairs // 2, n_pairs]
        x_ticks = _decades(x_max)
        if x_ticks[-1] < x_max:  # the axis's right end labelled with its position (4096), not left between decades
            x_ticks = [*x_ticks, x_max]
        # the decades as 10ᵏ, as clips 12 and 14 write a log axis (review round 7); the end (4096) in digits
        probe = Plot((1, x_max), (0, n_pairs), width=region.width, height=1.0, x_log=True, x_ticks=x_ticks,
                     y_ticks=ticks)
        tick_h = probe.axes[0].get_y() - probe.x_tick_labels.get_bottom()[1]
        # two rows under the axis: every decade (and the end) first, then L and n_max under them (the lanes');
        # RoPE's chart alone writes L on its line, so one row
        below = (tick_h + GAP.tight + max(self.L_tick.height, self.n_tick.height) + GAP.tight
                 + self.axis_label.height) if lanes else tick_h + GAP.tight + self.axis_label.height
        room = probe.y_tick_labels.width + GAP.normal + probe.x_tick_labels[0].width / 2
        height = region.height - top_room - self.title.height - GAP.tight - below
        # headroom over n_pairs for a row of labels (the close's counts), so they never sit on the curve
        row_h = label("0 of 64", size=SMALL).height + 2 * GAP.tight
        y_top = n_pairs * height / (height - row_h)
        right = max(MARK, probe.x_tick_labels[-1].width / 2)  # the end's label stays inside
        # the axis runs a dot's width past the walk's end, so the close's dot there sits inside the plot (review
        # round 4: half of it hung off the edge)
        width = region.width - room - right
        x_hi = x_max * 10 ** (1.5 * MARK * np.log10(x_max) / max(width - 1.5 * MARK, 1e-6))
        self.plot = p = Plot((1, x_hi), (0, y_top), width=width, height=height, x_log=True,
                             x_ticks=x_ticks, y_ticks=ticks)
        p.shift(np.array([region.left + room, region.bottom + below, 0]) - p.axes[0].get_start())
        if title:
            self.title.next_to(p.axes[1], UP, buff=GAP.tight).align_to(p.axes[1], LEFT)
        # the y labels right-aligned in a column left of 10⁰, each centred on its line (0 on the axis)
        y_right = p.x_tick_labels[0].get_left()[0] - GAP.small
        for t in p.y_tick_labels:
            t.shift((y_right - t.get_right()[0]) * RIGHT)
        end = p.x_tick_labels[-1]
        self.end_tick = end
        ax_y = p.axes[0].get_y()
        if lanes:
            # nₘₐₓ under the axis too unless the lanes write it by their wall (``n_label=False``: then no decade
            # gives way to it, and the lanes' axis has the chart's ticks, review round 6)
            labs = [self.L_tick, self.n_tick] if n_label else [self.L_tick]
            self.annotations = place_annotations(
                labs, [np.array([self.x_of(L), ax_y, 0]), np.array([self.x_of(n_max), ax_y, 0])][:len(labs)],
                side=DOWN, buff=tick_h + GAP.tight, gap=GAP.normal, bounds=(region.left, region.right))
        else:
            self.annotations = VGroup(VGroup(self.L_tick), VGroup())
            self.annotations.labels, self.annotations.leaders = self.annotations[0], self.annotations[1]

        def crossed(t) -> bool:
            """A leader from the axis down to L or nₘₐₓ (pushed apart when close) runs through ``t``."""
            l, b, r, top = (t.get_left()[0] - GAP.hair, t.get_bottom()[1] - GAP.hair, t.get_right()[0] + GAP.hair,
                            t.get_top()[1] + GAP.hair)
            for ld in self.annotations.leaders:
                a, e = ld.get_start()[:2], ld.get_end()[:2]
                for u in np.linspace(0.0, 1.0, 41):
                    x, y = a + u * (e - a)
                    if l <= x <= r and b <= y <= top:
                        return True
            return False

        # a decade crowding the end's label gives way to it (the end is the walk's last stop), and one a
        # leader would run through to it (corner configs only: L and nₘₐₓ close together)
        def stacked(t) -> bool:
            """``t`` stands over L's or nₘₐₓ's label in the row under it (1000 over nₘₐₓ = 1024, review round 4):
            two numbers at one x read as one."""
            return any(abs(t.get_x() - a.get_x()) < max(a.width - t.width, 0.0) / 2 + GAP.tight
                       for a in self.annotations.labels)

        keep = VGroup(*[t for t in p.x_tick_labels if t is end or (t.get_right()[0] + GAP.small < end.get_left()[0]
                                                                  and not crossed(t) and not stacked(t))])
        p.remove(p.x_tick_labels)
        p.x_tick_labels = keep
        p.add(keep)
        self.axis_label.next_to(VGroup(keep, self.annotations), DOWN, buff=GAP.tight).set_x(p.axes[0].get_center()[0])
        self.axis = VGroup(p.axes[0], keep, self.annotations, self.axis_label)  # the ruler: stays all clip long
        self.body = VGroup(p.axes[1], p.grid, p.y_tick_labels)  # the chart's own furniture
        self.curve = role(p.curve(positions, unseen, color=UNSEEN, stroke_width=STROKE), "unseen")
        self.curve.values = unseen
        pts = self.curve.points
        corners = [p.to_point(positions[0], 0), pts[0], *pts[3::4], p.to_point(positions[-1], 0)]
        rise = np.flatnonzero(np.asarray(unseen) > 0)
        if rise.size and rise[0] > 0:  # the area starts where the count leaves zero: no box over the empty left
            x0 = p.to_point(positions[rise[0] - 1], 0)[0]
            corners = [p.to_point(positions[rise[0] - 1], 0),
                       *[q for q in (pts[0], *pts[3::4]) if q[0] >= x0 - 1e-9], p.to_point(positions[-1], 0)]
        self.area = role(Polygon(*corners, stroke_width=0, fill_color=UNSEEN, fill_opacity=0.3), "unseen")
        top = p.axes[1].get_top()[1]
        self.proof_y = top - row_h / 2  # the row of the close's measured counts
        g_top = p.to_point(1, n_pairs)[1]
        # L's line as thick as the curve, drawn over it: the curve's rise sits on it (review round 4: hidden)
        self.guides = VGroup(role(vertical(self.x_of(L), ax_y, g_top, SEEN, STROKE, dashed=True), "seen"),
                             role(vertical(self.x_of(n_max), ax_y, g_top, FAILED, STROKE * 2 / 3, dashed=True),
                                  "failed"))
        self._L, self._n_pairs = L, n_pairs
        if not lanes:  # L on the data: left of its line, where the count is still zero (see settle_L)
            self.guides.remove(self.guides[1])
            self.settle_L([])
        self.add(self.axis, self.body, self.title, self.area, self.curve, self.guides)  # L's line over the curve

    def x_of(self, m: float) -> float:
        return float(self.plot.to_point(m, 0.0)[0])

    def settle_L(self, obstacles: Sequence[Mobject]) -> int:
        """RoPE's chart alone: ``L`` beside its dashed line, left of it where the count is still zero, at the first
        height clear of ``obstacles`` (the counts' leaders, the words on the chart); right of the line, over the
        curve's headroom-free side, only when a short ``L`` leaves no room on its left."""
        p, x = self.plot, self.x_of(self._L)
        spots = [lambda m, f=f: m.next_to(np.array([x, p.to_point(1, f * self._n_pairs)[1], 0]), LEFT,
                                          buff=GAP.small) for f in (0.25, 0.75, 0.15, 0.4, 0.6, 0.08)]
        # never on a gridline (review round 4: the one at half the pairs struck through L): the grid is an obstacle
        # a short L (the curve rises from position 1): under the axis, in the ticks' row, at its position
        spots += [lambda m: m.move_to(np.array([x, p.x_tick_labels[0].get_y(), 0]))]
        bounds = Region(p.axes[0].get_left()[0] + GAP.hair, p.axes[0].get_right()[0],
                        p.x_tick_labels.get_bottom()[1] - GAP.tight, p.axes[1].get_top()[1], "chart")
        return first_clear_spot(self.L_tick, spots, [self.curve, self.area, p.x_tick_labels, p.grid, *obstacles],
                                bounds=bounds)

    def proof_marks(self, stops: Sequence[int], counts: Sequence[int], n_pairs: int) -> VGroup:
        """A dot on the curve at each of ``stops`` and, in a row under the chart's top, its count
        (``41 of 64``), spread apart with leaders down to the dots: the measured figures of the close."""
        dots = role(VGroup(*[self.plot.dot(m, c, color=HIGHLIGHT, radius=MARK / 2) for m, c in zip(stops, counts)]),
                    "highlight")
        # in the sans the verdicts and the strip's count use too (review round 4: three styles of "47 of 64")
        words = [label(f"{int(c)} of {n_pairs}", size=SMALL, color=FG) for c in counts]
        p = self.plot
        # each a little right of its dot, so its leader slants off L's dashed line rather than running down it
        spread = place_annotations(words, [np.array([d.get_x() + w.width / 2 + GAP.small, self.proof_y, 0])
                                           for d, w in zip(dots, words)], side=DOWN,
                                   gap=GAP.normal, bounds=(p.axes[0].get_left()[0], p.axes[0].get_right()[0]),
                                   leader_min=np.inf)
        for w in words:
            w.set_y(self.proof_y)

        def foot(w, d):
            """Where the leader leaves the words: their bottom, over the dot where they span it, else the near
            corner."""
            x = min(max(d.get_x(), w.get_left()[0]), w.get_right()[0])
            return np.array([x, w.get_bottom()[1] - GAP.hair, 0])

        leaders = role(VGroup(*[Line(foot(w, d), d.get_center(), stroke_color=HIGHLIGHT, stroke_width=STROKE / 2)
                                for w, d in zip(words, dots)]), "highlight")
        out = VGroup(leaders, dots, spread.labels)
        out.dots, out.words, out.leaders = dots, spread.labels, leaders
        return out


def titled_lanes(band: Region, titles: Sequence[str], bar_height: float) -> tuple[VGroup, list[float]]:
    """The lanes' titles down ``band``'s left edge, one per equal share of its height, and the y of each lane's
    bar (``bar_height`` tall) just under its title: ``(titles, ys)``."""
    out = VGroup(*[label(t, size=SMALL, color=FG) for t in titles])
    step = band.height / len(titles)
    ys = []
    for k, title in enumerate(out):
        title.move_to([band.left, band.top - k * step, 0], aligned_edge=UP + LEFT)
        ys.append(title.get_bottom()[1] - GAP.small - bar_height / 2)
    return out, ys

class SchemeLanes(VGroup):
    """Two lanes over the chart's position axis in ``band``: the learned table (seen in training to
    ``L``, never trained to ``n_max``, then a wall: no rows at all) and the sinusoidal encoding
    (seen to ``L``, then defined but never seen, to ``x_max``), each under its title."""

    def __init__(self, band: Region, x_of: Callable[[float], float], L: int, n_max: int, x_max: int,
                 titles: Sequence[str], bar_height: float, no_row: str, no_row_math: str = ""):
        super().__init__()
        self.titles, ys = titled_lanes(band, titles, bar_height)
        self.lane_y = ys
        x0, xL, xn, xe = x_of(1), x_of(L), x_of(n_max), x_of(x_max)
        self.trained = role(VGroup(*[bar(x0, xL, y, bar_height, SEEN, 1.0) for y in ys]), "seen")
        # the table's untrained rows in the failure's red family, a tint (review round 7: in the unseen pale blue they
        # read as sinusoidal's neutral "never seen"); the wall at nₘₐₓ in the full red
        self.untrained = role(bar(xL, xn, ys[0], bar_height, FAILED, UNTRAINED_TINT), "failed") if n_max > L \
            else VGroup()
        self.unseen = role(bar(xL, xe, ys[1], bar_height, UNSEEN, 1.0), "unseen") if len(ys) > 1 else VGroup()
        self.wall = role(vertical(xn, ys[0] - bar_height / 2 - GAP.small, ys[0] + bar_height / 2 + GAP.small, FAILED,
                                  STROKE * 3), "failed")
        # "no row for" in the sans, the position in the maths the walker's "m = 1024" uses (review round 4)
        self.no_row = role(worded_line(f"{no_row} ${no_row_math}$" if no_row_math else no_row, size=SMALL,
                                       color=FAILED), "failed")
        # the table's answer past its wall, on the data: in the learned lane past the wall (on two lines if
        # need be), else on the title's row beside the wall (never across it: the walker stands there)
        ty, y0 = self.titles[0].get_y(), ys[0]
        top = self.titles[0]
        if no_row_math:
            lines = (label(no_row, size=SMALL, color=FAILED), math(no_row_math, size=SMALL, color=FAILED))
        else:
            words = no_row.split(" ")
            cut = len(words) // 2 + len(words) % 2
            lines = (label(" ".join(words[:cut]), size=SMALL, color=FAILED),
                     label(" ".join(words[cut:]), size=SMALL, color=FAILED))
        two = role(VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=GAP.small), "failed")
        two.move_to([xn + GAP.normal, y0, 0], aligned_edge=LEFT)
        if band.contains(two) and two.height <= bar_height + 2 * GAP.tight:
            self.no_row = two
        else:
            first_clear_spot(self.no_row, [
                lambda m: m.move_to([xn - GAP.small, ty, 0], aligned_edge=RIGHT).align_to(top, UP),
                lambda m: m.move_to([xn + GAP.small, ty, 0], aligned_edge=LEFT).align_to(top, UP),
                lambda m: m.move_to([band.right, ty, 0], aligned_edge=RIGHT).align_to(top, UP),
            ], [top], bounds=band, pad=GAP.normal)
        # what each colour means, written on the bars themselves where the words fit (dark on the light bars)
        self.words, self.seen_words, self.unseen_words = VGroup(), VGroup(), VGroup()
        # sinusoidal's vector past L is new as a whole, though some of its pairs sit at seen angles (review round 6)
        for texts, piece, group in ((("seen in training",), self.trained[0], self.seen_words),
                                    (("never trained",), self.untrained, self.unseen_words),
                                    (("seen in training",), self.trained[-1] if len(ys) > 1 else VGroup(),
                                     self.seen_words),
                                    (("defined, vector never seen", "vector never seen"), self.unseen,
                                     self.unseen_words)):
            if not len(piece.points) or bar_height < label("x", size=SMALL).height + 2 * GAP.tight:
                continue
            lo, hi = piece.get_left()[0], piece.get_right()[0]
            if piece is self.unseen and xL < xn < xe:  # clear of the walker, which stops at the wall's position
                lo, hi = max(((xL, xn), (xn, xe)), key=lambda span: span[1] - span[0])
            for text in texts:
                ink = FG if piece is self.untrained else BG  # light words on the dark red tint
                w = label(text, size=SMALL, color=ink).move_to([(lo + hi) / 2, piece.get_y(), 0])
                if w.width + 2 * GAP.small <= hi - lo:
                    group.add(overlay(w, piece))
                    break
        self.words.add(self.seen_words, self.unseen_words)
        self.band = band
        self.add(self.titles, self.trained, self.untrained, self.unseen, self.wall, self.words)

    @staticmethod
    def height(n: int, bar_height: float) -> float:
        """The band ``n`` lanes of ``bar_height`` need (titles over their bars)."""
        return n * (label("learned", size=SMALL).height + GAP.small + bar_height + GAP.normal)


class PairsAtPosition(VGroup):
    """Every RoPE pair at one position ``m`` (clip 13), filling ``region`` on axes of its own: the position
    ``m`` and the count of pairs at unseen angles on top; a strip of ``n_pairs`` bars over a pair axis
    (``i`` from 0, the fastest, to the slowest), each bar seen in training or not (``masks[s]`` at stop
    ``s``: True = unseen); and under their bars two dials for the ``pairs`` shown (the hand at the pair's
    angle, the arc training covered in the seen colour, the full turns made, seen or unseen).
    :meth:`to_stop` animates every part to stop ``s``."""

    def __init__(self, region: Region, stops: Sequence[int], masks: np.ndarray, pairs: Sequence[int],
                 angles: np.ndarray, turns: np.ndarray, arcs: np.ndarray):
        super().__init__()
        self.stops, self.masks, self.pairs = tuple(stops), np.asarray(masks, dtype=bool), tuple(pairs)
        self.angles, self.turns, self.arc_ends = angles, turns, np.asarray(arcs, dtype=float)
        n = self.masks.shape[1]
        self.n_pairs = n
        self.stop = 0
        # ---- the top row: the position m (left) and the count (right)
        probe = max((label(self.count_text(s), size=LABEL) for s in range(len(stops))),
                    key=lambda m: m.width)
        self.m = MathReadout(f"m = {numbers.count(stops[0]).math}", np.array([region.left, 0, 0]), HEADING,
                             color=HIGHLIGHT)
        role(self.m.current, "highlight")
        top_h = max(probe.height, self.m.current.height)
        y = region.top - top_h / 2
        self.m.anchor = np.array([region.left, y, 0])
        self.m.current.move_to(self.m.anchor, aligned_edge=LEFT)
        self.count = label(self.count_text(0), size=LABEL, color=self._count_color(0))
        role(self.count, self._count_role(0))
        self.count.move_to([region.right, y, 0], aligned_edge=RIGHT)
        self.count_anchor = self.count.get_right()
        # ---- the strip: one bar per pair over its own axis
        self.axis_label = worded_line(f"pair $i$, fastest to slowest (head dim $d = {2 * n}$)", size=SMALL)
        inset = label(str(n - 1), size=SMALL).width / 2 + GAP.hair  # the end ticks stay inside the region
        side = (region.width - 2 * inset) / n
        # the dials under the strip get the room; what they cannot use (words too wide for larger dials) goes to
        # the strip (the sweep: long turn counts left half the area empty)
        k_n = len(pairs)
        text_w = max(self._words(k, s).width for k in range(k_n) for s in range(len(stops))) + GAP.small
        r_w = (region.width - 2 * GAP.small - k_n * (text_w + GAP.normal) - (k_n - 1) * GAP.section) / (2 * k_n)
        under = (top_h + GAP.normal + 2 * GAP.tight + label("0", size=SMALL).height + self.axis_label.height
                 + GAP.normal + 2 * GAP.small)
        bar_h = min(1.6, max(0.45, (region.height - top_h) * 0.22, region.height - under - 2 * r_w))
        y_bar = region.top - top_h - GAP.normal - bar_h / 2
        self.strip = VGroup(*[Rectangle(width=side, height=bar_h, stroke_color=BG, stroke_width=1)
                              for _ in range(n)]).arrange(RIGHT, buff=0)
        self.strip.move_to([region.center[0], y_bar, 0])
        self._paint(self.strip, self.masks[0])
        ticks = sorted({0, n // 4, n // 2, 3 * n // 4, n - 1}) if n >= 8 else list(range(n))
        self.ticks = VGroup(*[label(str(i), size=SMALL, color=DIM).next_to(self.strip[i], DOWN, buff=GAP.tight)
                              for i in ticks])
        self.axis_label.next_to(self.ticks, DOWN, buff=GAP.tight).set_x(self.strip.get_x())
        self.pair_axis = VGroup(self.ticks, self.axis_label)
        self.marks = role(VGroup(*[role(SurroundingRectangle(self.strip[i], color=HIGHLIGHT, buff=0,
                                                             stroke_width=STROKE), "highlight")
                                   for i in self.pairs]), "highlight")
        # ---- the two dials, each under its bar, its words beside it
        top = self.axis_label.get_bottom()[1] - GAP.normal
        words = [self._words(k, 0) for k in range(len(pairs))]
        radius = min((top - region.bottom) / 2 - GAP.small,
                     (region.width - 2 * GAP.small - k_n * (text_w + GAP.normal) - (k_n - 1) * GAP.section) / (2 * k_n))
        cy = top - radius - GAP.small
        col_w = 2 * radius + GAP.normal + text_w
        # each column as near under its pair's bar as the region and the other column allow
        xs = [float(self.strip[i].get_x()) - radius for i in pairs]
        lefts = []
        lo = region.left + GAP.small  # room for a frame round the first column
        for k, x in enumerate(xs):
            room_right = region.right - GAP.small - (k_n - k) * col_w - (k_n - k - 1) * GAP.section
            x = min(max(x, lo), room_right)
            lefts.append(x)
            lo = x + col_w + GAP.section
        self.dials, self.arcs, self.words = [], VGroup(), []
        for k, i in enumerate(pairs):
            x = lefts[k]
            dial = VectorDial(float(angles[0, k]), radius=radius, color=FG, show_ticks=True)
            dial.move_to([x + radius, cy, 0])
            arc = role(Arc(radius=radius, start_angle=0, angle=float(arcs[k]), arc_center=dial.center,
                           stroke_color=SEEN, stroke_width=STROKE * 3), "seen")
            w = words[k]
            # level with the dial's top, so the room under the words holds the zoom on the arc's end (review round 6)
            w.move_to([x + 2 * radius + GAP.normal, cy + radius, 0], aligned_edge=UP + LEFT)
            self.dials.append(dial)
            self.arcs.add(arc)
            self.words.append(w)
        self.region = region
        # past each arc's end, the stretch the hand has gone into angles training never reached
        self.overs = [self._past_mark(k, 0) for k in range(len(pairs))]
        self.dial_group = VGroup(*self.dials, self.arcs, *self.overs, *self.words)
        self.add(self.strip, self.pair_axis, self.count, self.m.current, self.marks, self.dial_group)

    def on_screen(self) -> VGroup:
        """Every part as drawn now (the figures swapped in at the last stop included)."""
        return VGroup(self.strip, self.pair_axis, self.count, self.marks, self.m.current, *self.dials,
                      self.arcs, *self.overs, *self.words)

    # -- words
    def count_text(self, s: int) -> str:
        return f"{int(self.masks[s].sum())} of {self.n_pairs} at unseen angles"

    # the count of pairs at unseen angles is in the unseen colour at every stop, zero included (review round 7: violet
    # at m = 63, pale blue after, the counter changed colour between beats)
    def _count_color(self, s: int):
        return UNSEEN

    def _count_role(self, s: int) -> str:
        return "unseen"

    def _words(self, k: int, s: int) -> VGroup:
        """Shown pair ``k``'s words at stop ``s``, three lines, every figure in the sans (review round 4): the pair and
        its full turns, the hand's angle, and whether training saw it (how far past the arc's end, when not)."""
        i = self.pairs[k]
        n = int(self.turns[s, k])
        unseen = bool(self.masks[s, i])
        hand, arc = self.degrees(k, s)
        turns = label(f"pair {i} · {numbers.count(n).text} turn{'' if n == 1 else 's'}", size=SMALL, color=FG)
        state = role(label("unseen" if unseen else "seen", size=SMALL, color=UNSEEN if unseen else SEEN,
                           weight="BOLD"), "unseen" if unseen else "seen")
        # every degree here is rounded for display: "≈" (review round 6)
        at = row(label(f"≈ {hand}°", size=SMALL, color=FG), state, gap="small", align="baseline")
        past = self.past_arc(k, s)
        end = (label("arc: full turn", size=SMALL, color=DIM) if arc is None else
               label(f"≈ {past}° past its arc", size=SMALL, color=UNSEEN) if past is not None else
               label("on its arc", size=SMALL, color=DIM))
        if past is not None:
            role(end, "unseen")
        g = column(turns, at, end, gap="hair")
        g.where = VGroup(at, end)
        return g

    def past_arc(self, k: int, s: int) -> str | None:
        """How far shown pair ``k``'s hand at stop ``s`` is past the end of its training arc, in degrees as printed
        (:func:`degree_text`); ``None`` when the hand is on the arc (or the arc is a full turn)."""
        over = self.overshoot(k, s)
        return None if over is None else degree_text(over)

    def overshoot(self, k: int, s: int) -> float | None:
        """The angle in degrees from the end of shown pair ``k``'s training arc to its hand at stop ``s``, when the
        hand is past it (the pair at an unseen angle); ``None`` otherwise."""
        if not self.masks[s, self.pairs[k]] or self.arc_ends[k] >= 2 * np.pi - 1e-9:
            return None
        return float(np.degrees(self.angles[s, k] - self.arc_ends[k]))

    def _past_mark(self, k: int, s: int) -> VGroup:
        """The stretch of the rim from the arc's end to the hand, in the unseen colour: the angles no training
        position reached, as far as the hand has gone into them."""
        over = self.overshoot(k, s)
        if over is None:
            return VGroup()
        dial = self.dials[k]
        start, sweep = float(self.arc_ends[k]), float(np.radians(over))
        # the violet arc runs on in the unseen colour from its end to the hand, drawn over the hand's head (review
        # round 7: a filled wedge along the hand read as a second hand, and the zoom on it was cryptic): a small step
        # shows as a short stretch, which is what it is
        rim = Arc(radius=dial.radius, start_angle=start, angle=sweep, arc_center=dial.center, stroke_color=UNSEEN,
                  stroke_width=STROKE * 3)
        return VGroup(role(rim, "unseen"))

    def degrees(self, k: int, s: int) -> tuple[str, str | None]:
        """The hand of shown pair ``k`` at stop ``s`` and the end of its training arc, in degrees as printed
        (one decimal, more only when the two would print alike: 42.3° past 41.7°); ``None`` for an arc that is
        a full turn (the pair wrapped in training: every angle seen)."""
        hand, arc = float(np.degrees(self.angles[s, k])), float(np.degrees(self.arc_ends[k]))
        if arc >= 360.0 - 1e-9:
            return f"{hand:.1f}", None
        for p in (1, 2, 3, 4):
            if f"{hand:.{p}f}" != f"{arc:.{p}f}" or hand == arc:
                break
        return f"{hand:.{p}f}", f"{arc:.{p}f}"

    @staticmethod
    def _paint(strip: VGroup, mask: np.ndarray) -> None:
        for sq, u in zip(strip, mask):
            sq.set_fill(UNSEEN if u else SEEN, opacity=1.0)
            sq._role = "unseen" if u else "seen"

    # -- motion
    def to_stop(self, s: int) -> list:
        """Animations to stop ``s``: the hands turn, the strip repaints, every figure swaps."""
        target = self.strip.copy()
        self._paint(target, self.masks[s])
        anims = [Transform(self.strip, target), self.m.to(f"m = {numbers.count(self.stops[s]).math}")]
        for sq, u in zip(self.strip, self.masks[s]):  # the role the bar ends in
            sq._role = "unseen" if u else "seen"
        role(self.m.current, "highlight")
        new = label(self.count_text(s), size=LABEL, color=self._count_color(s))
        role(new, self._count_role(s))
        new.move_to(self.count_anchor, aligned_edge=RIGHT)
        anims.append(swap(self.count, new))
        self.count = new
        for k, dial in enumerate(self.dials):
            anims.append(dial.rotate_to(float(self.angles[s, k])))
            w = self._words(k, s).move_to(self.words[k], aligned_edge=UP + LEFT)
            anims.append(swap(self.words[k], w))
            self.words[k] = w
            over = self._past_mark(k, s)
            if len(self.overs[k]):
                anims.append(FadeOut(self.overs[k]))
            if len(over):
                anims.append(FadeIn(over))
            self.overs[k] = over
        self.stop = s
        return anims

    def outlines(self, pairs: Sequence[int]) -> VGroup:
        """A yellow frame round each of ``pairs``' bars, one apiece, so they can be counted on the strip."""
        return role(VGroup(*[role(SurroundingRectangle(self.strip[int(i)], color=HIGHLIGHT, buff=0,
                                                       stroke_width=STROKE * 1.5), "highlight") for i in pairs]),
                    "highlight")

    def wrapped_outline(self, wrapped: np.ndarray) -> VGroup:
        """A frame round the bars of the pairs that went all the way round in training."""
        idx = np.flatnonzero(wrapped)
        if not idx.size:
            return VGroup()
        bars = self.strip[int(idx[0]):int(idx[-1]) + 1]
        frame = role(SurroundingRectangle(bars, color=HIGHLIGHT, buff=GAP.hair, stroke_width=STROKE), "highlight")
        # the words on the bars right of the first: the fast pair (i = 0, always among them) carries its own marker
        tag = self.wrapped_tag(int(idx.size), bars[1:] if len(bars) > 2 else bars)
        g = VGroup(frame, tag)
        g.frame, g.tag = frame, tag
        return g

    @staticmethod
    def wrapped_tag(n: int, bars: VGroup) -> VGroup:
        """``17 wrapped in training`` written on the framed bars (dark on the seen colour, as the lanes write
        their words): on one line if it fits their width, else on two, shrunk to the bars if need be."""
        one = label(f"{n} wrapped in training", size=SMALL, color=BG, weight="BOLD")
        two = VGroup(label(f"{n} wrapped", size=SMALL, color=BG, weight="BOLD"),
                     label("in training", size=SMALL, color=BG, weight="BOLD")).arrange(DOWN, buff=GAP.hair)
        room_w, room_h = bars.width - 2 * GAP.tight, bars.height - 2 * GAP.tight
        tag = one if one.width <= room_w else two
        if tag.width > room_w or tag.height > room_h:
            k = min(room_w / tag.width, room_h / tag.height)
            if k < 0.95:  # smaller would fall under the legible floor (the sweep: 8 pairs): the count alone
                tag = label(str(n), size=SMALL, color=BG, weight="BOLD")
                k = min(1.0, room_w / tag.width, room_h / tag.height)
            tag.scale(k)
        tag.move_to(bars.get_center())
        # a plain patch of the seen colour behind the words, so no bar's edge runs through a glyph (review round 4)
        patch = Rectangle(width=min(tag.width + 2 * GAP.tight, bars.width - 2 * GAP.hair),
                          height=min(tag.height + 2 * GAP.tight, bars.height - 2 * GAP.hair), fill_color=SEEN,
                          fill_opacity=1.0, stroke_width=0).move_to(tag)
        role(patch, "seen")
        out = VGroup(patch, tag)
        overlay(tag, patch, bars)  # the words belong on the bars they count
        out.text_part = tag
        return out


class CloseLanes(VGroup):
    """The close (review round 10: it was a dashboard of six parts, and sinusoidal was missing): what each scheme
    does past training, as three lanes over the lanes' one position axis (``plot``, whose x maps positions), each
    violet (seen in training) to ``L``, each answered on the data.

    * the learned table: its untrained rows in the failure's red tint to ``n_max``, the red wall there, and past it
      the verdict "✗ no row" (``.no_row``); ``n_max`` written by the wall where ``n_label`` asks for it;
    * sinusoidal: pale blue to ``x_max``, "vector never seen" on it: defined at every m, never seen past ``L``;
    * RoPE: to ``x_max``, no wall, violet with pale blue rising at every position as high as its count of pairs at
      unseen angles (``unseen`` of ``n_pairs``, mathcore's, at ``positions``; ``.stack``); a yellow dot where it
      rises at ``m = L``, labelled with that count, ``jump`` (``.count``).

    ``band`` holds the three titles and bars; ``bar_height`` is each bar's height."""

    TITLES = ("learned table", "sinusoidal", "RoPE")

    def __init__(self, band: Region, plot: Plot, positions: np.ndarray, unseen: np.ndarray, n_pairs: int, L: int,
                 n_max: int, x_max: int, jump: int, bar_height: float, n_label: bool = True):
        from scenes.kit.proofs import worded_verdict

        super().__init__()
        x_of = lambda m: float(plot.to_point(m, 0.0)[0])  # noqa: E731
        self.titles, ys = titled_lanes(band, self.TITLES, bar_height)
        self.lane_y = ys
        x0, xL, xn, xe = x_of(1), x_of(L), x_of(n_max), x_of(x_max)
        h = bar_height
        # ---- the learned table
        self.trained = role(VGroup(*[bar(x0, xL, y, h, SEEN, 1.0) for y in ys[:2]]), "seen")
        self.untrained = role(bar(xL, xn, ys[0], h, FAILED, UNTRAINED_TINT), "failed") if n_max > L else VGroup()
        self.wall = role(vertical(xn, ys[0] - h / 2 - GAP.small, ys[0] + h / 2 + GAP.small, FAILED, STROKE * 3),
                         "failed")
        self.no_row = worded_verdict("no row", passed=False, size=SMALL, color=FAILED)
        role(self.no_row.line, "failed")
        self.no_row.move_to([xn + GAP.normal, ys[0], 0], aligned_edge=LEFT)
        if self.no_row.get_right()[0] > band.right:  # no room past the wall: on the title's row, right of the title
            self.no_row.move_to([band.right, self.titles[0].get_y(), 0], aligned_edge=RIGHT)
        # ---- sinusoidal: defined at every m, its vectors never seen past L
        self.unseen = role(bar(xL, xe, ys[1], h, UNSEEN, 1.0), "unseen")
        # ---- RoPE: an angle at every m; pale blue as high as the count of pairs at unseen angles, violet above
        self.rope = role(bar(x0, xe, ys[2], h, SEEN, 1.0), "seen")
        bottom = ys[2] - h / 2
        lane = Plot(plot.x_range, (0, n_pairs), width=plot.width_units, height=h, x_log=True, grid=False)
        lane.shift(np.array([plot.axes[0].get_start()[0], bottom, 0]) - lane.axes[0].get_start())
        past = np.asarray(positions) >= L
        pos, cnt = np.asarray(positions)[past], np.asarray(unseen)[past]
        self.stack_values = (pos, cnt)
        if cnt.size and cnt.max() > 0:
            line = lane.curve(pos, cnt, buckets=400)
            self.stack = role(Polygon(lane.to_point(pos[0], 0), *line.points[0::4], line.points[-1],
                                      lane.to_point(pos[-1], 0), stroke_width=0, fill_color=UNSEEN, fill_opacity=1.0),
                              "unseen")
        else:
            self.stack = VGroup()
        self.lane_plot = lane
        self.dot = role(lane.dot(L, jump, color=HIGHLIGHT, radius=MARK / 2), "highlight")
        self.count = label(f"{jump} of {n_pairs} at unseen angles", size=SMALL, color=FG)
        title = self.titles[2]
        # over the dot, starting at it; where that runs off the band, ending at the band's right (a short leader)
        first_clear_spot(self.count, [
            lambda m: m.move_to([xL + GAP.small, title.get_y(), 0], aligned_edge=LEFT),
            lambda m: m.move_to([band.right, title.get_y(), 0], aligned_edge=RIGHT),
            lambda m: m.move_to([title.get_right()[0] + GAP.normal, title.get_y(), 0], aligned_edge=LEFT),
        ], [title], bounds=band, pad=GAP.small)
        foot = np.array([min(max(xL, self.count.get_left()[0]), self.count.get_right()[0]),
                         self.count.get_bottom()[1] - GAP.hair, 0])
        self.leader = role(Line(foot, self.dot.get_center(), stroke_color=HIGHLIGHT, stroke_width=STROKE / 2),
                           "highlight")
        # ---- the words on the bars, where they fit
        self.words, self.sin_words = VGroup(), VGroup()
        for texts, piece, ink, lo, hi in ((("untrained",), self.untrained, FG, xL, xn),
                                          (("defined, vector never seen", "vector never seen", "never seen"),
                                           self.unseen, BG, xL, xe)):
            if not len(piece.points) or h < label("x", size=SMALL).height + 2 * GAP.tight:
                continue
            for text in texts:
                w = label(text, size=SMALL, color=ink).move_to([(lo + hi) / 2, piece.get_y(), 0])
                if w.width + 2 * GAP.small <= hi - lo:
                    self.words.add(overlay(w, piece))
                    if piece is self.unseen:
                        self.sin_words = w
                    break
        # sinusoidal's answer: on its pale blue where the words fit, else beside its title, in the pale blue
        self.never = VGroup()
        if not len(self.sin_words):
            self.never = role(label("vector never seen", size=SMALL, color=UNSEEN), "unseen")
            self.never.move_to([self.titles[1].get_right()[0] + GAP.normal, self.titles[1].get_y(), 0],
                               aligned_edge=LEFT)
        # nₘₐₓ by its wall, on sinusoidal's title row (where the lanes wrote it), else on the table's
        self.n_tick = role(math(f'n_"max" = {numbers.count(n_max).math}', size=LABEL, color=FAILED), "failed") \
            if n_label else VGroup()
        if n_label:
            right = xn - GAP.normal
            first_clear_spot(self.n_tick, [
                lambda m: m.move_to([right, self.titles[1].get_y(), 0], aligned_edge=RIGHT),
                lambda m: m.move_to([right, self.titles[0].get_y(), 0], aligned_edge=RIGHT),
                lambda m: m.move_to([xn + GAP.normal, self.titles[1].get_y(), 0], aligned_edge=LEFT),
            ], [*self.titles, self.trained, self.untrained, self.unseen, self.rope, self.no_row, self.never],
                bounds=band)
        # over RoPE's violet whatever order the close brings them in (the chart's area folds into the stack)
        self.stack.set_z_index(1)
        self.leader.set_z_index(2)
        self.dot.set_z_index(2)
        self.add(self.titles, self.trained, self.untrained, self.unseen, self.rope, self.stack, self.wall,
                 self.words, self.never, self.no_row, self.n_tick, self.leader, self.dot, self.count)
