"""Widgets for the extrapolation clips (12 to 14): stacked small-multiple plots sharing one
x axis, and a helper that puts a label at the first candidate spot where it touches nothing.

``PanelStack`` draws one :class:`~scenes.kit.plots.Plot` per series, one above the other,
all over the same x range, so series whose values overlap are never hidden under each
other (clip 12's cosine curves at several widths).  Only the bottom panel carries the x
tick labels and the axis label.  ``panels[k].to_point`` maps data to the screen as usual.

:func:`first_clear_spot` tries candidate placements for a label in order and keeps the
first one whose box stays clear of every obstacle (boxes of texts and filled shapes,
sample points of strokes) and inside the given bounds: a curve's label goes where the
curve is not, for any data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import Mobject, VGroup, VMobject

from .layout import LayoutError, Region
from .plots import Plot
from .theme import DIM, SMALL, label


class PanelStack(VGroup):
    """``n`` plots stacked top to bottom in ``region`` (x range shared, log or linear).

    ``panels[k]`` is series ``k``'s plot.  Every panel has y ticks at ``y_ticks`` (the
    middle ones dropped when the panel is too short to print them apart); the bottom
    panel alone has x tick labels and ``x_label``.  ``gap`` separates panels; the left
    ``tick_room`` of the region is kept for y tick labels.  The labels of the lowest and
    highest y ticks are tucked inside their panel's height (top label's top on the top
    line, bottom label's bottom on the bottom line), so stacked panels never mix them.
    """

    def __init__(self, n: int, region: Region, x_range, y_range, x_log: bool = True, x_ticks: Sequence[float] = (),
                 y_ticks: Sequence[float] = (), x_label: str = "", gap: float = 0.16, tick_room: float = 0.6,
                 tick_format: Callable[[float], str] | None = None, min_height: float = 0.62, **kw):
        super().__init__(**kw)
        if n < 1:
            raise ValueError(f"a panel stack needs at least one panel, got n={n}")
        probe = Plot(x_range, y_range, width=region.width, height=1.0, x_log=x_log, x_ticks=x_ticks, x_label=x_label,
                     **({"tick_format": tick_format} if tick_format else {}))
        bottom_room = (probe.axes[0].get_bottom()[1] - probe.get_bottom()[1] + 0.02) if (x_ticks or x_label) else 0.0
        usable = region.height - bottom_room - gap * (n - 1)
        h = usable / n
        if h < min_height:
            raise LayoutError(f"{n} panels need {min_height * n + gap * (n - 1) + bottom_room:.2f} units of height, "
                              f"region {region.name!r} has {region.height:.2f}")
        w = region.width - tick_room
        row_h = label("1", size=SMALL).height
        ticks = list(y_ticks)
        if len(ticks) > 2 and h < len(ticks) * row_h + (len(ticks) - 1) * 0.1:
            ticks = [ticks[0], ticks[-1]]  # a short panel prints its ends only
        self.panel_height, self.panel_width = h, w
        self.panels = VGroup()
        kw_fmt = {"tick_format": tick_format} if tick_format else {}
        for k in range(n):
            last = k == n - 1
            p = Plot(x_range, y_range, width=w, height=h, x_log=x_log, x_ticks=x_ticks, y_ticks=ticks,
                     x_label=x_label if last else "", **kw_fmt)
            if not last:  # only the bottom panel prints the shared x axis
                p.remove(p.x_tick_labels)
                p.x_tick_labels = VGroup()
            top = region.top - k * (h + gap)
            p.shift(np.array([region.left + tick_room, top - h, 0.0]) - p.axes[0].get_start())
            labs = p.y_tick_labels
            if len(labs) >= 2:
                lo_i, hi_i = int(np.argmin(ticks)), int(np.argmax(ticks))
                labs[hi_i].align_to(p.axes[1], np.array([0.0, 1.0, 0.0]))
                labs[lo_i].align_to(p.axes[1], np.array([0.0, -1.0, 0.0]))
            self.panels.add(p)
        self.add(self.panels)

    @property
    def x_tick_labels(self) -> VGroup:
        return self.panels[-1].x_tick_labels

    @property
    def x_axis_label(self):
        return self.panels[-1].x_axis_label


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
        # straight spans between far-apart vertices: sample them too
        a, e = p[0:-1:4, :2], p[3::4, :2]
        for s in np.linspace(0.0, 1.0, 9):
            q = a + s * (e - a)
            if np.any((q[:, 0] > l) & (q[:, 0] < r) & (q[:, 1] > b) & (q[:, 1] < t)):
                return True
    return False


def first_clear_spot(mob: Mobject, placements: Sequence[Callable[[Mobject], Mobject]], obstacles: Sequence[Mobject],
                     bounds: Region | None = None, pad: float = 0.05) -> int:
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


def swatch_label(text: str, color, size: float = SMALL) -> VGroup:
    """A short coloured line and a label: a legend entry."""
    from manim import Line, RIGHT

    sw = Line(np.zeros(3), 0.4 * RIGHT, stroke_color=color, stroke_width=6)
    t = label(text, size=size, color=DIM)
    return VGroup(sw, t).arrange(RIGHT, buff=0.15)


__all__ = ["PanelStack", "first_clear_spot", "swatch_label"]
