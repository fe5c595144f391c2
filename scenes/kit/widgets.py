"""Widgets: typed Mobjects over real arrays.

Each widget keeps the array it draws (``values``) and exposes its parts by index,
so a test can check that cell ``(i, j)`` is painted with the colour of
``values[i, j]`` or that slot ``i`` holds row ``perm[i]``.  Drawing code only maps
data to pixels; it never computes the data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Arrow,
    Circle,
    Dot,
    Line,
    Rectangle,
    Rotate,
    RoundedRectangle,
    Square,
    Transform,
    VGroup,
    VMobject,
)

from . import numbers
from .layout import baseline_y, overlay
from .theme import (
    BG,
    DIM,
    FAINT,
    FG,
    LABEL,
    SMALL,
    ColorScale,
    fmt_value,
    label,
    math,
    token_color,
)

# a printed matrix's widest value takes at most this share of its cell's width, so every number keeps a clear
# margin of its cell's own colour between it and the borders (at 0.88 a "−0.29" in a row of them read as one
# string running across the borders: review round 9, clip 04)
VALUE_FILL = 0.78


def _as_array(values, ndim: int, name: str) -> np.ndarray:
    a = np.array(values, dtype=float, copy=True)
    if a.ndim != ndim:
        raise ValueError(f"{name} needs a {ndim}-D array, got shape {a.shape}")
    a.flags.writeable = False
    return a


class Bracket(VMobject):
    """A square matrix bracket of the given height; ``side`` is LEFT or RIGHT."""

    def __init__(self, height: float, side=LEFT, arm: float = 0.12, color=FG, stroke_width: float = 3, **kw):
        super().__init__(color=color, stroke_width=stroke_width, **kw)
        s = -1 if np.allclose(side, LEFT) else 1
        h = height / 2
        self.set_points_as_corners([[-s * arm, h, 0], [0, h, 0], [0, -h, 0], [-s * arm, -h, 0]])
        self.set_fill(opacity=0)


class Heatmap(VGroup):
    """A grid of square cells coloured by ``scale`` from ``values: (rows, cols)``.

    ``cells[i][j]`` is the square for ``values[i, j]``.  Non-finite entries
    (``-inf`` = masked) are drawn as dark cells marked ``−∞`` when numbers are shown.
    With ``show_values`` each cell carries its number (use only when T <= 6).
    :meth:`fitted` picks the cell size for a region and keeps the numbers only while
    they stay legible.
    """

    @classmethod
    def fitted(cls, values, scale: ColorScale, region, show_values: bool = False, max_cell: float = 0.9,
               decimals: int = 2, value_size: float = SMALL, align=ORIGIN, **kw) -> Heatmap:
        """A heatmap as large as fits ``region`` (cells at most ``max_cell``), placed in it.

        Numbers are shown only if ``show_values`` and they keep an x-height of at least
        ``FIT_XHEIGHT_PX`` in their cells; otherwise the cells carry colour alone
        (``numbers_dropped`` says so)."""
        from .layout import FIT_XHEIGHT_PX, xheight_px

        v = np.asarray(values, dtype=float)
        rows, cols = v.shape
        cell = min(region.width / cols, region.height / rows, max_cell)
        numbers = False
        if show_values:
            probe = [fmt_value(x, decimals) if np.isfinite(x) else "\u2212\u221e" for x in v.ravel()]
            widest = max(probe, key=len)
            t = label(widest, size=value_size)
            shrink = min(1.0, cell * 0.92 / t.width)
            numbers = xheight_px(t) * shrink >= FIT_XHEIGHT_PX
        hm = cls(v, scale, cell_size=cell, show_values=numbers, decimals=decimals, value_size=value_size, **kw)
        hm.numbers_dropped = show_values and not numbers
        region.place(hm, align)
        return hm

    def __init__(
        self,
        values,
        scale: ColorScale,
        cell_size: float | tuple[float, float] = 0.5,
        show_values: bool = False,
        decimals: int = 2,
        value_size: float = SMALL,
        masked_color=FAINT,
        uniform_values: bool = False,
        **kw,
    ):
        """``cell_size`` is a square cell's side, or ``(width, height)`` for rectangular cells (a
        matrix of printed values wants wide cells, a stack of rows short ones).  With
        ``uniform_values`` every printed value takes one size, the largest at which the widest
        of them fits its cell, instead of each shrinking on its own."""
        super().__init__(**kw)
        self.values = _as_array(values, 2, "Heatmap")
        self.color_scale = scale
        w, h = (float(cell_size[0]), float(cell_size[1])) if isinstance(cell_size, tuple) else (cell_size, cell_size)
        self.cell_w, self.cell_h = w, h
        self.cell_size = min(w, h)
        self.show_values = show_values
        self.decimals = decimals
        if show_values and uniform_values:
            texts = [fmt_value(v, decimals) if np.isfinite(v) else "\u2212\u221e" for v in self.values.ravel()]
            widest = max(label(t, size=value_size).width for t in set(texts))  # drawn widths: "−1.49" > "−0.35"
            value_size = value_size * min(1.0, w * VALUE_FILL / widest)
        self.value_size = value_size
        self.masked_color = masked_color
        rows, cols = self.values.shape
        self.cells = VGroup()
        self.labels = VGroup()
        for i in range(rows):
            row = VGroup()
            for j in range(cols):
                sq = (Square(side_length=w) if w == h else Rectangle(width=w, height=h)).set_stroke(BG, 1.5)
                sq.move_to(np.array([(j - (cols - 1) / 2) * w, ((rows - 1) / 2 - i) * h, 0]))
                row.add(sq)
            self.cells.add(row)
        self.add(self.cells)
        if show_values:
            self.add(self.labels)
        self._paint(self.values)

    # -- data -> pixels ---------------------------------------------------------------
    def cell(self, i: int, j: int) -> Square:
        return self.cells[i][j]

    def color_of(self, v: float):
        return self.color_scale.color(v) if np.isfinite(v) else self.masked_color

    def _label_for(self, v: float, i: int, j: int):
        text = fmt_value(v, self.decimals) if np.isfinite(v) else "\u2212\u221e"
        col = self.color_scale.text_color(v) if np.isfinite(v) else FG
        t = label(text, size=self.value_size, color=col)
        t._matrix_entry = True  # an entry at its quantity's one precision ("0.0" is a rounded entry here)
        if t.width > self.cell_w * 0.92:
            t.scale_to_fit_width(self.cell_w * 0.92)
        overlay(self.cell(i, j), t)  # a value sits on its own cell
        return t.move_to(self.cell(i, j))

    def _paint(self, values: np.ndarray) -> None:
        rows, cols = values.shape
        self.labels.submobjects = []
        for i in range(rows):
            for j in range(cols):
                self.cell(i, j).set_fill(self.color_of(values[i, j]), opacity=1.0)
                if self.show_values:
                    self.labels.add(self._label_for(values[i, j], i, j))

    def recolored(self, new_values, scale: ColorScale | None = None) -> Heatmap:
        """A copy of this heatmap, in place, showing ``new_values`` (for ``Transform``)."""
        new = self.copy()
        if scale is not None:
            new.color_scale = scale
        new.values = _as_array(new_values, 2, "Heatmap")
        new._paint(new.values)
        return new

    def animate_values(self, new_values, shows: str | None = None, scale: ColorScale | None = None, **kw) -> Animation:
        """Animate to ``new_values`` (painted by ``scale`` if given); afterwards ``self.values`` is
        ``new_values`` and, with ``shows``, the heatmap is bound to that quantity."""
        target = self.recolored(new_values, scale)
        self.values = target.values
        if scale is not None:
            self.color_scale = scale
        if shows is not None:
            self._shows = shows
        return Transform(self, target, **kw)

    def cell_center(self, i: int, j: int) -> np.ndarray:
        return self.cell(i, j).get_center()

    def index_labels(self, along: str, buff: float | None = None, size: float = SMALL, color=DIM) -> VGroup:
        """Dim index labels ``0..n-1``: above each column (``along="cols"``) or left of each row (``"rows"``)."""
        rows, cols = self.values.shape
        if along == "cols":
            return VGroup(*[label(str(j), size=size, color=color).next_to(self.cell(0, j), UP, buff=0.1 if buff is None else buff)
                            for j in range(cols)])
        if along == "rows":
            return VGroup(*[label(str(i), size=size, color=color).next_to(self.cell(i, 0), LEFT, buff=0.12 if buff is None else buff)
                            for i in range(rows)])
        raise ValueError(f"along must be 'rows' or 'cols', got {along!r}")



def _thin_ticks(placed: list, horizontal: bool, gap: float = 0.1) -> list:
    """Drop tick labels that would touch a neighbour along a short bar: the inner round values
    go first, then 0; the two ends always stay (they say what the bar spans)."""
    def clash(items):
        spans = sorted((t.get_left()[0], t.get_right()[0]) if horizontal else (t.get_bottom()[1], t.get_top()[1])
                       for _, t in items)
        return any(b[0] - a[1] < gap for a, b in zip(spans, spans[1:]))

    if not clash(placed) or len(placed) <= 2:
        return placed
    ends = {0, len(placed) - 1}
    inner = [k for k in range(len(placed)) if k not in ends]
    zero = [k for k in inner if placed[k][0] == 0.0]
    for keep in (set(zero), set()):  # ends and 0; then the ends alone
        kept = [p for k, p in enumerate(placed) if k in ends or k in keep]
        if not clash(kept):
            return kept
    return [placed[0], placed[-1]]


class ColorBar(VGroup):
    """A bar of ``steps`` stripes painted by ``scale`` from ``vmin`` to ``vmax``: vertical
    (bottom to top, ticks on the right) or, with ``horizontal=True``, left to right with the
    ticks underneath.  Wherever colour encodes a value, a clip shows one of these.

    ``values[k]`` is the value stripe ``k`` (from the low end) shows; ``ticks`` (by default the
    scale's own round ticks, ``ColorScale.ticks``) are labelled with ``tick_format`` (or with
    Typst math strings from ``tick_math``); ``title`` (a label or Typst math mobject) sits above
    the bar.
    """

    def __init__(
        self,
        scale: ColorScale,
        height: float = 2.0,
        width: float = 0.22,
        steps: int = 48,
        ticks: Sequence[float] | None = None,
        tick_format: Callable[[float], str] = numbers.tick,
        tick_math: Sequence[str] | None = None,
        horizontal: bool = False,
        title: VMobject | None = None,
        **kw,
    ):
        super().__init__(**kw)
        if steps < 2:
            raise ValueError(f"a colour bar needs steps >= 2, got {steps}")
        vmin, vmax = scale.norm.vmin, scale.norm.vmax
        self.color_scale = scale
        if ticks is None:  # the scale's own round ticks
            ticks = scale.ticks(2)
        self.values = (vmin + (np.arange(steps) + 0.5) / steps * (vmax - vmin))
        stretched = getattr(scale, "gamma", None) is not None or getattr(scale, "log", False)
        if stretched:  # a stretched scale: stripes even along the stretch, so the ticks show it
            self.values = np.asarray(scale.norm.inverse((np.arange(steps) + 0.5) / steps), dtype=float)
        self.values.flags.writeable = False
        self.horizontal = horizontal
        length, thick = height, width  # along the scale, across it
        h = length / steps
        self.stripes = VGroup()
        for k, v in enumerate(self.values):
            along = -length / 2 + (k + 0.5) * h
            if horizontal:
                r = Rectangle(width=h * 1.02, height=thick, stroke_width=0, fill_color=scale.color(v), fill_opacity=1)
                r.move_to([along, 0, 0])
            else:
                r = Rectangle(width=thick, height=h * 1.02, stroke_width=0, fill_color=scale.color(v), fill_opacity=1)
                r.move_to([0, along, 0])
            self.stripes.add(r)
        self.frame = (Rectangle(width=length, height=thick, stroke_color=DIM, stroke_width=1.5) if horizontal
                      else Rectangle(width=thick, height=length, stroke_color=DIM, stroke_width=1.5))
        placed = []  # (tick, its label), placed along the bar
        for n, v in enumerate(ticks):
            pos = -length / 2 + (float(scale.position(v)) if stretched else (v - vmin) / (vmax - vmin)) * length
            t = math(tick_math[n], size=SMALL, color=DIM) if tick_math else label(tick_format(v), size=SMALL, color=DIM)
            if horizontal:
                t.move_to([pos, -thick / 2 - 0.12 - t.height / 2, 0])
            else:
                t.move_to([thick / 2 + 0.12 + t.width / 2, pos, 0])
            placed.append((float(v), t))
        placed = _thin_ticks(placed, horizontal)
        self.ticks = tuple(v for v, _ in placed)
        self.tick_labels = VGroup(*[t for _, t in placed])
        self.add(self.stripes, self.frame, self.tick_labels)
        self.title = title if title is not None else VGroup()
        if title is not None:
            title.next_to(self.frame, UP, buff=0.15)
            self.add(title)

    def point_of(self, value: float) -> np.ndarray:
        """The screen point on the bar's axis where ``value`` sits."""
        vmin, vmax = self.color_scale.norm.vmin, self.color_scale.norm.vmax
        b, t = (self.frame.get_left(), self.frame.get_right()) if self.horizontal else (self.frame.get_bottom(), self.frame.get_top())
        if getattr(self.color_scale, "gamma", None) is not None or getattr(self.color_scale, "log", False):
            return b + float(self.color_scale.position(value)) * (t - b)
        return b + (float(value) - vmin) / (vmax - vmin) * (t - b)


class LabelledMatrix(VGroup):
    """A matrix of numbers with a label per row, between square brackets.

    ``values: (rows, cols)``; ``row_labels`` are Typst math strings (``"x_0"``) coloured
    by ``row_colors`` (default: ``token_color(i)`` for row ``i``; pass the permuted
    colours when the rows are a permutation, so a token keeps its colour).
    ``rows[i]`` is a group of row ``i``'s label and entries; ``slots[i]`` is the
    fixed centre of slot ``i``.  ``row_order[i]`` tells which original row now sits
    in slot ``i`` (the identity until :meth:`permute_rows`).
    """

    def __init__(
        self,
        values,
        row_labels: Sequence[str] | None = None,
        decimals: int = 1,
        col_width: float = 1.0,
        row_height: float = 0.62,
        value_size: float = LABEL,
        label_size: float = LABEL + 4,
        row_colors: Sequence | None = None,
        **kw,
    ):
        super().__init__(**kw)
        self.values = _as_array(values, 2, "LabelledMatrix")
        rows, cols = self.values.shape
        self.decimals = decimals
        self.col_width = col_width
        self.row_height = row_height
        self.row_order = np.arange(rows)
        self.entries = VGroup()
        self.row_labels = VGroup()
        self.rows = VGroup()
        width = cols * col_width
        self.slots = [np.array([0.0, ((rows - 1) / 2 - i) * row_height, 0.0]) for i in range(rows)]
        for i in range(rows):
            ent = VGroup()
            for j in range(cols):
                t = label(fmt_value(self.values[i, j], decimals), size=value_size, color=FG)
                t._matrix_entry = True
                # right-align numbers in their column so decimal points line up
                right = -width / 2 + (j + 1) * col_width - 0.12
                t.move_to(np.array([right - t.width / 2, self.slots[i][1], 0]))
                ent.add(t)
            self.entries.add(ent)
            row = VGroup(ent)
            if row_labels is not None:
                col = row_colors[i] if row_colors is not None else token_color(i)
                lab = math(row_labels[i], size=label_size, color=col)
                lab.move_to(np.array([-width / 2 - 0.5, self.slots[i][1], 0]))
                self.row_labels.add(lab)
                row.add(lab)
            self.rows.add(row)
        h = rows * row_height + 0.1
        self.left_bracket = Bracket(h, LEFT).move_to(np.array([-width / 2 - 0.06, 0, 0]), aligned_edge=RIGHT)
        self.right_bracket = Bracket(h, RIGHT).move_to(np.array([width / 2 + 0.06, 0, 0]), aligned_edge=LEFT)
        self.brackets = VGroup(self.left_bracket, self.right_bracket)
        self._bracket_h = self.left_bracket.height  # slots follow the matrix when it is scaled
        self.add(self.brackets, self.rows)

    def place(self, x: float, y: float) -> LabelledMatrix:
        """Move so the bracketed block (not the labels) is centred at ``(x, y)``."""
        self.shift(np.array([x, y, 0.0]) - self.brackets.get_center())
        return self

    def slot_center(self, i: int) -> np.ndarray:
        """Where slot ``i``'s row centre is now (follows the matrix when it moves or is scaled)."""
        return self.brackets.get_center() + self.slots[i] * (self.left_bracket.height / self._bracket_h)

    def row(self, slot: int) -> VGroup:
        """The row group currently in ``slot``."""
        return self.rows[int(self.row_order[slot])]

    def permute_rows(self, perm, **kw) -> AnimationGroup:
        """Animate rows so slot ``i`` receives the row now in slot ``perm[i]`` (``P @ X``)."""
        perm = np.asarray(perm)
        new_order = self.row_order[perm]
        anims = []
        for i, src in enumerate(new_order):
            row = self.rows[int(src)]
            anims.append(row.animate(path_arc=0.6).shift(self._row_y_shift(row, i)))
        self.row_order = new_order
        return AnimationGroup(*anims, **kw)

    def _row_y_shift(self, row: VGroup, slot: int) -> np.ndarray:
        y_now = row[0].get_center()[1]
        return np.array([0.0, self.slot_center(slot)[1] - y_now, 0.0])


class TokenRow(VGroup):
    """Tokens as rounded boxes in a row, each with its index underneath.

    ``boxes[i]`` frames ``tokens[i]``; colours follow ``token_color`` unless ``colors`` is given.
    With ``max_width`` the chips wrap onto further lines (in reading order) rather than run
    past it; ``lines`` says how many lines they took.
    """

    def __init__(self, tokens: Sequence[str], size: float = LABEL, gap: float = 0.18, colors=None, show_index: bool = True,
                 max_width: float | None = None, line_gap: float = 0.22, **kw):
        super().__init__(**kw)
        self.tokens = tuple(tokens)
        self.boxes = VGroup()
        self.texts = VGroup()
        self.indices = VGroup()
        probe = label("Xg", size=size)  # one chip height for every word, so the words share a baseline
        for i, tok in enumerate(self.tokens):
            c = colors[i] if colors is not None else token_color(i)
            t = label(tok, size=size)
            box = RoundedRectangle(
                corner_radius=0.1, width=max(t.width + 0.35, 0.8), height=probe.height + 0.35,
                stroke_color=c, stroke_width=3, fill_color=c, fill_opacity=0.15,
            )
            overlay(box, t)
            self.boxes.add(box)
            self.texts.add(t)
        self._show_index = show_index
        self._flow(gap, max_width, line_gap, probe)
        self.add(self.boxes, self.texts)
        if show_index:
            for i, box in enumerate(self.boxes):
                self.indices.add(label(str(i), size=SMALL, color=DIM).next_to(box, DOWN, buff=0.1))
            self.add(self.indices)

    def _flow(self, gap: float, max_width: float | None, line_gap: float, probe) -> None:
        lines: list[list[int]] = [[]]
        width = 0.0
        for i, box in enumerate(self.boxes):
            w = box.width + (gap if lines[-1] else 0.0)
            if max_width is not None and lines[-1] and width + w > max_width:
                lines.append([])
                width, w = 0.0, box.width
            lines[-1].append(i)
            width += w
        self.lines = len(lines)
        pitch = self.boxes[0].height + line_gap + (0.35 if self._show_index else 0.0)
        for k, idx in enumerate(lines):
            row = VGroup(*[self.boxes[i] for i in idx]).arrange(RIGHT, buff=gap)
            row.move_to(np.array([0.0, -k * pitch, 0.0]))
        depth = baseline_y(probe) - probe.get_bottom()[1]  # how far "g" hangs below the baseline
        for box, t in zip(self.boxes, self.texts):
            # every word on one baseline inside its chip, whatever its ascenders and descenders
            t.set_x(box.get_x())
            t.shift((box.get_bottom()[1] + (box.height - probe.height) / 2 + depth - baseline_y(t)) * UP)

    def token(self, i: int) -> VGroup:
        return VGroup(self.boxes[i], self.texts[i])


class VectorDial(VGroup):
    """A 2-D vector on a unit dial, pointing at ``angle`` radians (0 = right, counter-clockwise).

    ``set_angle`` moves the hand; ``angle`` is the value drawn.  The hand's tip is at
    ``center + radius·(cos angle, sin angle)``.
    """

    def __init__(self, angle: float = 0.0, radius: float = 1.0, color=None, show_ticks: bool = True, **kw):
        super().__init__(**kw)
        self.radius = radius
        self.hand_color = color if color is not None else FG
        self.face = Circle(radius=radius, stroke_color=DIM, stroke_width=2)
        self.add(self.face)
        if show_ticks:
            ticks = VGroup(*[
                Line(radius * 0.9 * np.array([np.cos(a), np.sin(a), 0]), radius * np.array([np.cos(a), np.sin(a), 0]),
                     stroke_color=DIM, stroke_width=2)
                for a in np.arange(4) * np.pi / 2
            ])
            self.add(ticks)
        self.hub = Dot(ORIGIN, radius=0.05, color=self.hand_color)
        self.angle = float(angle)
        self.hand = self._make_hand(self.angle)
        self.add(self.hand, self.hub)

    def _make_hand(self, angle: float) -> Arrow:
        c = self.face.get_center()
        tip = c + self.radius * np.array([np.cos(angle), np.sin(angle), 0.0])
        return Arrow(c, tip, buff=0, color=self.hand_color, stroke_width=5,
                     max_tip_length_to_length_ratio=0.18, max_stroke_width_to_length_ratio=12)

    @property
    def center(self) -> np.ndarray:
        return self.face.get_center()

    def tip(self) -> np.ndarray:
        return self.hand.get_end()

    def set_angle(self, angle: float) -> VectorDial:
        self.angle = float(angle)
        self.hand.become(self._make_hand(self.angle))
        return self

    def rotate_to(self, angle: float, **kw) -> Animation:
        """Turn the hand to ``angle`` about the dial's centre (counter-clockwise by the difference)."""
        delta = float(angle) - self.angle
        self.angle = float(angle)
        return Rotate(self.hand, angle=delta, about_point=self.center, **kw)
