"""Widgets that permute: token columns and maps that travel, the defects of permutations (first used by 02, 06, 07).

* :class:`TokenColumn`: token chips in a column (or a row) that can be permuted; like
  ``LabelledMatrix`` it keeps ``row_order`` (which original token sits in slot ``i``) so a
  test can check that slot ``i`` holds token ``perm[i]``.
* :class:`WordColumn`: words in chips stacked one per heatmap row, every word on one baseline.
* :class:`TrialMarks`: the defects of many random permutations on a log plot, drawn as what
  the pixels can show: one dot per trial while there are fewer trials than pixel columns,
  otherwise one min–max bar per pixel column (never thousands of mobjects); exact zeros,
  which a log axis has no place for, as hollow diamonds on the floor.
* :func:`staircase`: a running maximum as a staircase through the points where it changes.
* :class:`CausalMaskGrid`: which slots each causal row sees, cells coloured by the token in
  the slot.
* :class:`TravelMap`: a weights heatmap whose rows, then columns (with their key names), travel:
  ``P A``, then ``P A Pᵀ``; :meth:`TravelMap.settled` hands the travelled cells over to a fresh map.
* :class:`RowDefects`: per-row defects of two series as horizontal bars on a log axis, each bar in
  the colour of its verdict against a pass line; exact zeros as hollow diamonds on the floor.
* :func:`retire`: take a widget off the scene wherever its parts now sit.
* :func:`nice_count_ticks`: a few round tick values for a count axis ``1 … n``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT as LEFT_,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Dot,
    Rectangle,
    RoundedRectangle,
    VGroup,
    VMobject,
)

from .compose import DIMMED, GAP
from .layout import PX_PER_UNIT, LayoutError, baseline_y, overlay
from .theme import BLUE, DIM, FAILED, FAINT, FG, LABEL, SMALL, VERIFIED, label, math, token_color


# ------------------------------------------------------------------ token chips
class TokenColumn(VGroup):
    """Token chips stacked top to bottom, one per row, ``row_height`` apart
    (or left to right, ``row_height`` apart, with ``horizontal=True``).

    ``names`` are Typst math strings (``"x_0"``); ``colors[i]`` defaults to
    ``token_color(i)``.  ``chips[k]`` is original token ``k`` (box and name);
    ``row_order[i]`` is the token now in slot ``i``.  ``values`` (optional) are the rows the
    chips stand for (``X``); they are permuted with the chips, so a binding
    (``scenes.kit.binding.shows``) always names what the column shows.
    """

    MAX_ROW = 1.1  # rows taller than this would make the chips towers, not chips

    def __init__(self, names: Sequence[str], row_height: float = 0.55, width: float = 0.9,
                 colors: Sequence | None = None, size: float = LABEL, horizontal: bool = False,
                 chip_height: float | None = None, values=None, **kw):
        super().__init__(**kw)
        n = len(names)
        if n == 0:
            raise ValueError("TokenColumn needs at least one token")
        self.row_height = row_height
        self.row_order = np.arange(n)
        self.values = None if values is None else np.asarray(values, dtype=float)
        if horizontal:
            self.slots = [np.array([(i - (n - 1) / 2) * row_height, 0.0, 0.0]) for i in range(n)]
        else:
            self.slots = [np.array([0.0, ((n - 1) / 2 - i) * row_height, 0.0]) for i in range(n)]
        h = chip_height if chip_height is not None else (0.56 if horizontal else row_height * 0.84)
        self.chips = VGroup()
        for i, name in enumerate(names):
            c = colors[i] if colors is not None else token_color(i)
            box = RoundedRectangle(corner_radius=0.08, width=width, height=h,
                                   stroke_color=c, stroke_width=2.5, fill_color=c, fill_opacity=0.15)
            box.move_to(self.slots[i])
            t = math(name, size=size, color=c).move_to(box)
            if t.height > h or t.width > width:
                raise LayoutError(f"a token chip of {width:.2f}×{h:.2f} units cannot hold {name!r} at a legible size")
            self.chips.add(overlay(VGroup(box, t)))
        self.add(self.chips)

    def slot_center(self, i: int) -> np.ndarray:
        """Where slot ``i``'s centre is now (follows the column when it moves)."""
        first = self.chips[int(self.row_order[0])].get_center()
        return first + (self.slots[i] - self.slots[0])

    def chip(self, slot: int) -> VGroup:
        """The chip currently in ``slot``."""
        return self.chips[int(self.row_order[slot])]

    def permute_rows(self, perm, path_arc: float = 0.6, **kw) -> AnimationGroup:
        """Animate so slot ``i`` receives the chip now in slot ``perm[i]`` (``P @ X``)."""
        perm = np.asarray(perm)
        targets = [self.slot_center(i) for i in range(len(perm))]
        new_order = self.row_order[perm]
        anims = [self.chips[int(src)].animate(path_arc=path_arc).move_to(targets[i])
                 for i, src in enumerate(new_order) if not np.allclose(self.chips[int(src)].get_center(), targets[i])]
        self.row_order = new_order
        if self.values is not None:
            self.values = self.values[perm]
        return AnimationGroup(*anims, **kw)


def chip_text_size(chip_height: float, size: float = SMALL) -> float:
    """The largest text size (at most ``size``) whose ``"Xg"`` leaves 0.06 units of air in a chip."""
    probe = label("Xg", size=size)
    return float(min(size, size * (chip_height - 0.12) / probe.height))


class WordColumn(VGroup):
    """Words in chips, one per row ``row_height`` apart (top to bottom), all of one width.

    Every word sits on one baseline inside its chip, whatever its ascenders and descenders
    ("the" and "mouse" line up).  ``chips[i]`` is ``VGroup(box, text)`` of ``words[i]``;
    ``texts[i]`` its text.  Chips are at most ``MAX_CHIP`` tall, however tall the rows."""

    MAX_CHIP = 0.72
    FILL = 0.9  # a chip's height as a share of its row
    PAD = 0.06  # air above and below a chip's text, together

    @classmethod
    def min_row(cls, size: float = SMALL) -> float:
        """The shortest row whose chip holds text of ``size``."""
        return (label("Xg", size=size).height + cls.PAD) / cls.FILL

    @classmethod
    def chip_width(cls, words: Sequence[str], size: float = SMALL) -> float:
        """The width of a column of chips that holds every word of ``words`` at ``size``."""
        return max(label(w, size=size).width for w in words) + 0.3

    def __init__(self, words: Sequence[str], colors: Sequence, row_height: float, width: float | None = None,
                 size: float | None = None, **kw):
        super().__init__(**kw)
        self.words = tuple(words)
        h = min(row_height * self.FILL, self.MAX_CHIP)
        self.text_size = size if size is not None else chip_text_size(h)
        texts = [label(w, size=self.text_size, color=c) for w, c in zip(self.words, colors)]
        probe = label("Xg", size=self.text_size)
        w = width if width is not None else self.chip_width(self.words, self.text_size)
        depth = baseline_y(probe) - probe.get_bottom()[1]
        self.chips = VGroup()
        self.texts = VGroup()
        n = len(self.words)
        for i, (t, c) in enumerate(zip(texts, colors)):
            box = RoundedRectangle(corner_radius=0.08, width=w, height=h, stroke_color=c, stroke_width=2,
                                   fill_color=c, fill_opacity=0.15)
            box.move_to(np.array([0.0, ((n - 1) / 2 - i) * row_height, 0.0]))
            t.set_x(box.get_x())
            t.shift((box.get_bottom()[1] + (h - probe.height) / 2 + depth - baseline_y(t)) * UP)
            self.chips.add(overlay(VGroup(box, t)))
            self.texts.add(t)
        self.add(self.chips)


# ------------------------------------------------------------------ many trials on a log plot
def nice_count_ticks(n: int, max_ticks: int = 4) -> list[int]:
    """``1`` and round multiples of a step (1, 2, 2.5 or 5 × 10^k) up to ``n``: at most
    ``max_ticks`` ticks after the ``1``."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    for k in range(0, 12):
        for m in (1, 2, 2.5, 5):
            step = m * 10 ** k
            if step != int(step):
                continue
            step = int(step)
            if n // step <= max_ticks:
                ticks = [v for v in range(step, n + 1, step)]
                return [1] + [v for v in ticks if v != 1]
    return [1, n]


class TrialMarks(VGroup):
    """The defect of each of ``n`` trials at ``x = 1 … n`` on ``plot`` (log y axis).

    While ``n`` is at most ``columns`` (about the plot's width in pixels at 854×480, halved),
    one dot per positive trial (``mode == "dots"``; ``dots[k]`` is trial ``k`` unless it
    is zero).  Beyond that, trials are bucketed by screen column and each column that holds
    positive trials gets one bar from their minimum to their maximum, all in one ``VMobject``
    (``mode == "band"``; ``columns`` lists ``(first, last, lo, hi)`` per bar, trial indices
    0-based).  Exact zeros get hollow diamonds on the floor (``zeros``; one per zero trial,
    or one per column holding zeros); ``zero_count`` counts them."""

    def __init__(self, plot, defects, columns: int | None = None, color=BLUE, zero_color=FG, radius: float = 0.04):
        super().__init__()
        v = np.asarray(defects, dtype=float)
        n = len(v)
        self.values = v
        self.zero_count = int(np.sum(v == 0.0))
        if columns is None:
            columns = max(20, int(plot.width_units * PX_PER_UNIT / 2))
        self.mode = "dots" if n <= columns else "band"
        self.dots = VGroup()
        self.band = VMobject()
        self.columns: list[tuple[int, int, float, float]] = []
        self.zeros = VGroup()
        zero_x: list[float] = []
        if self.mode == "dots":
            for k, y in enumerate(v):
                if y > 0:
                    self.dots.add(Dot(plot.to_point(k + 1, plot.y_clip(y)), radius=radius, color=color))
                else:
                    zero_x.append(k + 1)
            self.add(self.dots)
        else:
            edges = np.linspace(0.5, n + 0.5, columns + 1)
            xs = np.arange(1, n + 1)
            col = np.minimum(np.searchsorted(edges, xs, side="right") - 1, columns - 1)
            half = (plot.width_units / columns) * 0.5
            band = VMobject(fill_color=color, fill_opacity=0.85, stroke_color=color, stroke_width=1.0)
            for c in range(columns):
                idx = np.flatnonzero(col == c)
                if not len(idx):
                    continue
                seg = v[idx]
                if np.any(seg == 0.0):
                    zero_x.append(float(np.mean(xs[idx])))
                pos = seg[seg > 0]
                if not len(pos):
                    continue
                lo, hi = float(pos.min()), float(pos.max())
                self.columns.append((int(idx[0]), int(idx[-1]), lo, hi))
                xc = plot.to_point(float(np.mean(xs[idx])), plot.y_range[0])[0]
                y0 = plot.to_point(1, plot.y_clip(lo))[1]
                y1 = plot.to_point(1, plot.y_clip(hi))[1]
                y1 = max(y1, y0 + 0.03)  # a column whose trials agree is still a visible tick
                band.start_new_path(np.array([xc - half, y0, 0.0]))
                band.add_points_as_corners([np.array([xc + half, y0, 0.0]), np.array([xc + half, y1, 0.0]),
                                            np.array([xc - half, y1, 0.0]), np.array([xc - half, y0, 0.0])])
            self.band = band
            self.add(self.band)
        for x in zero_x:
            z = plot.exact_zero(x, color=zero_color, text=None)
            z.scale(0.6, about_point=plot.to_point(x, plot.y_range[0]))
            self.zeros.add(z)
        self.add(self.zeros)


def staircase(plot, values, color, stroke_width: float = 4) -> VMobject:
    """``values[k]`` (a running maximum, trial ``k + 1``) as a staircase with corners only where
    it changes: horizontal runs at each value, a riser at each trial that raised it.
    ``steps`` lists ``(trial, value)`` of every corner's upper point."""
    v = np.asarray(values, dtype=float)
    n = len(v)
    change = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])
    y = plot.y_clip(v)
    pts = [plot.to_point(1, y[0])]
    steps = [(1, float(v[0]))]
    for k in change[1:]:
        pts.append(plot.to_point(k + 1, y[k - 1]))
        pts.append(plot.to_point(k + 1, y[k]))
        steps.append((int(k + 1), float(v[k])))
    pts.append(plot.to_point(n, y[-1]))
    m = VMobject(stroke_color=color, stroke_width=stroke_width).set_points_as_corners(np.array(pts))
    m.steps = steps
    return m


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


def legend_row(swatch: VMobject, text: str, size: float = SMALL, color=FG) -> VGroup:
    """A legend entry: ``swatch`` then ``text`` on one line."""
    return VGroup(swatch, label(text, size=size, color=color)).arrange(RIGHT, buff=0.18)


# ------------------------------------------------------------------ weights that travel
class TravelMap(VGroup):
    """Weights ``values: (T, T)`` as a :class:`~scenes.kit.widgets.Heatmap` with the key of every
    column named above it (``keys[j]`` names the key in column ``j``, ``x_k`` in token ``k``'s
    colour).  :meth:`travel_rows` moves the rows (``P A``: row ``perm[i]`` goes to slot ``i``),
    :meth:`travel_cols` the columns with their names (``A Pᵀ``).  The cells keep their identity
    (``heat.cells[r][c]`` is the cell that held ``values[r, c]``) so a test can follow them;
    :meth:`settled` then hands them over to a fresh map of the values they now show."""

    ARC = 0.4  # how far a travelling row or column swings out of line

    def __init__(self, values, scale, cell: float, keys: Sequence[int], **kw):
        from manim import VectorizedPoint

        from .widgets import Heatmap

        super().__init__(**kw)
        self.color_scale = scale
        self.heat = Heatmap(values, scale, cell_size=cell)
        self.order = [int(k) for k in keys]
        self.keys = VGroup(*[math(f"x_{k}", size=LABEL, color=token_color(k)).next_to(self.heat.cell(0, j), UP,
                                                                                   buff=GAP.tight)
                             for j, k in enumerate(self.order)])
        self.keys.align_to(self.keys[0], DOWN)
        self.anchor = VectorizedPoint(self.heat.get_corner(UP + LEFT_))  # the grid's corner, moves with the map
        self.add(self.heat, self.keys, self.anchor)

    @property
    def cell(self) -> float:
        """The side of a cell as drawn now."""
        return float(self.heat.cells[0][0].width)

    def slot(self, i: int, j: int) -> np.ndarray:
        """The centre of grid slot ``(i, j)`` (wherever the cells now are)."""
        return self.anchor.get_center() + np.array([(j + 0.5) * self.cell, -(i + 0.5) * self.cell, 0.0])

    def travel_rows(self, perm) -> AnimationGroup:
        """Row ``perm[i]`` travels to slot ``i`` (``P A``); rows that stay do not move."""
        q = np.argsort(perm)
        return AnimationGroup(*[VGroup(*self.heat.cells[r]).animate(path_arc=self.ARC).shift((r - q[r]) * self.cell * UP)
                                for r in range(len(q)) if q[r] != r])

    def travel_cols(self, perm) -> AnimationGroup:
        """Column ``perm[j]`` travels to slot ``j`` with its key's name (``A Pᵀ``)."""
        q = np.argsort(perm)
        n = len(q)
        return AnimationGroup(*[
            VGroup(*[self.heat.cells[r][c] for r in range(n)], self.keys[c]).animate(path_arc=-self.ARC)
            .shift((q[c] - c) * self.cell * RIGHT)
            for c in range(n) if q[c] != c])

    def settled(self, values, keys: Sequence[int]) -> TravelMap:
        """A fresh map of ``values`` with ``keys`` over its columns, exactly where this one's grid is."""
        new = TravelMap(values, self.color_scale, self.cell, keys)
        new.shift(self.anchor.get_center() - new.anchor.get_center())
        return new


class Handover(Animation):
    """At the end of the play it is part of, ``old`` leaves the scene wherever its parts are
    (:func:`retire`) and ``new`` takes its place: travelled cells handed over to a fresh widget of
    the values they now show, in the same beat (so a binding never lags the picture)."""

    def __init__(self, old, new, **kw):
        from manim import Mobject

        self.old, self.new = old, new
        super().__init__(Mobject(), **kw)

    def interpolate_mobject(self, alpha: float) -> None:
        pass

    def clean_up_from_scene(self, scene) -> None:
        super().clean_up_from_scene(scene)
        scene.remove(self.mobject)
        retire(scene, self.old)
        scene.add(self.new)


def dim(mob, factor: float = DIMMED) -> Animation:
    """``mob`` fades to ``factor`` of its own opacities (a colour bar's outline stays an outline, a
    chip's wash a wash); :func:`undim` brings it back as it was."""
    from manim import Transform

    mob.save_state()
    target = mob.copy()
    for sm in target.family_members_with_points():
        sm.set_fill(opacity=sm.get_fill_opacity() * factor, family=False)
        sm.set_stroke(opacity=sm.get_stroke_opacity() * factor, family=False)
    return Transform(mob, target)


def undim(mob) -> Animation:
    """Back to the opacities :func:`dim` saved."""
    from manim import Restore

    return Restore(mob)


def retire(scene, *mobs) -> None:
    """Take ``mobs`` off ``scene`` wherever their parts sit now: a part an animation lifted out of
    its widget (a travelling row) is a top-level mobject of the scene, and removing the widget
    alone would leave it standing."""
    scene.remove(*[f for m in mobs for f in m.get_family()])


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

        from .plots import Plot

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


__all__ = [
    "CausalMaskGrid", "RowDefects", "RowHeatmap", "TokenColumn", "TravelMap", "TrialMarks", "WordColumn",
    "Handover", "chip_text_size", "dim", "undim", "legend_row", "nice_count_ticks", "retire", "staircase",
]


class RowHeatmap(VGroup):
    """A heatmap of ``values: (rows, cols)`` whose rows carry Typst labels on the left and can be
    permuted like ``LabelledMatrix`` (the coloured-cells form of a matrix too wide for numbers).

    ``heat`` is the :class:`Heatmap`; ``rows[i]`` groups row ``i``'s cells and label;
    ``row_order[i]`` is the original row now in slot ``i``."""

    def __init__(self, values, scale, cell_size: float, row_labels: Sequence[str], label_size: float = LABEL,
                 row_colors: Sequence | None = None, **kw):
        from .widgets import Heatmap

        super().__init__(**kw)
        self.heat = Heatmap(values, scale, cell_size=cell_size)
        self.values = self.heat.values
        n = self.values.shape[0]
        self.row_order = np.arange(n)
        self.row_labels = VGroup()
        self.rows = VGroup()
        for i in range(n):
            c = row_colors[i] if row_colors is not None else token_color(i)
            lab = math(row_labels[i], size=label_size, color=c)
            lab.next_to(self.heat.cell(i, 0), LEFT_, buff=0.15)
            self.row_labels.add(lab)
            self.rows.add(VGroup(*self.heat.cells[i], lab))
        self.slots = [self.heat.cell_center(i, 0)[1] for i in range(n)]
        self._y0 = self.heat.get_center()[1]
        self.add(self.heat, self.row_labels)

    def slot_y(self, i: int) -> float:
        return self.heat.get_center()[1] - self._y0 + self.slots[i]

    def permute_rows(self, perm, path_arc: float = 0.6, **kw) -> AnimationGroup:
        """Animate rows so slot ``i`` receives the row now in slot ``perm[i]`` (``P @ Y``)."""
        perm = np.asarray(perm)
        new_order = self.row_order[perm]
        anims = []
        for i, src in enumerate(new_order):
            row = self.rows[int(src)]
            dy = self.slot_y(i) - row[0].get_center()[1]
            anims.append(row.animate(path_arc=path_arc).shift(dy * UP))
        self.row_order = new_order
        return AnimationGroup(*anims, **kw)
