"""Widgets for the causal clips: a code listing that can point at a line, a heatmap with
rectangular cells, a staircase outline over a heatmap's lower triangle, horizontal value
bars, a measured-figure line, a plot series' key, a drawn check mark, and cells that change
value without their printed numbers ever overlapping (``morph_cells``).

Like the rest of the kit they are typed over real arrays and keep what they draw
(``values``, ``source``) so tests can read it back.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    RIGHT,
    UP,
    AnimationGroup,
    Code,
    FadeOut,
    ManimColor,
    Polygon,
    Rectangle,
    RoundedRectangle,
    Square,
    Succession,
    VGroup,
    VMobject,
)

from .theme import ACCENT, DIM, FAINT, FG, GOOD, LABEL, MONO, SMALL, fmt_measure, label, math, register_fonts
from .layout import _pango_xh_per_size, baseline_y, mark_text, overlay
from .widgets import Heatmap

PANEL = ManimColor("#161B22")  # code panel background, one step above BG


class CodePanel(VGroup):
    """A syntax-highlighted listing (Manim ``Code``: Pango, no LaTeX) with a line marker.

    ``source`` is the exact text shown; ``lines[k]`` is line ``k``'s glyph group;
    :meth:`focus` moves the marker to line ``k`` and dims the other lines.
    """

    def __init__(self, source: str, language: str = "python", size: float = SMALL, style: str = "github-dark", **kw):
        super().__init__(**kw)
        register_fonts()
        self.source = source
        self.listing = Code(
            code_string=source, language=language, formatter_style=style, add_line_numbers=False,
            background="rectangle",
            background_config={"fill_color": PANEL, "stroke_color": FAINT, "stroke_width": 2, "corner_radius": 0.12,
                               "buff": 0.2},
            paragraph_config={"font": MONO, "font_size": size, "line_spacing": 0.7},
        )
        self.lines = self.listing.code_lines
        self.background = self.listing.submobjects[0]
        k0 = self.lines[0]
        self.marker = RoundedRectangle(
            corner_radius=0.06, width=self.background.width - 0.12, height=k0.height + 0.16,
            stroke_color=ACCENT, stroke_width=2.5, fill_color=ACCENT, fill_opacity=0.08,
        ).move_to([self.background.get_center()[0], k0.get_center()[1], 0]).set_opacity(0)
        self.add(self.listing, self.marker)
        xh = _pango_xh_per_size(MONO) * size
        for line in self.lines:
            mark_text(line, xh)
        overlay(self)  # code sits on its own panel and marker

    @property
    def text_lines(self) -> list[str]:
        return self.source.split("\n")

    def focus(self, k: int, dim: float = 0.4) -> AnimationGroup:
        """Animate: marker onto line ``k``, line ``k`` full strength, the others at ``dim``."""
        y = self.lines[k].get_center()[1]
        anims = [self.marker.animate.set_stroke(opacity=1).set_fill(opacity=0.08).set_y(y)]
        for i, line in enumerate(self.lines):
            anims.append(line.animate.set_opacity(1.0 if i == k else dim))
        return AnimationGroup(*anims)


class ExactHeatmap(Heatmap):
    """A :class:`Heatmap` whose entries that are *exactly* ``0.0`` or ``1.0`` print as ``0`` / ``1``.

    Everything else prints with ``decimals`` as usual, so an exact zero (a masked weight)
    reads differently from a small weight that rounds to ``0.00``.
    """

    def _label_for(self, v: float, i: int, j: int):
        if np.isfinite(v) and v in (0.0, 1.0):
            t = label("0" if v == 0.0 else "1", size=self.value_size, color=self.color_scale.text_color(v))
            overlay(self.cell(i, j), t)
            return t.move_to(self.cell(i, j))
        return super()._label_for(v, i, j)


def staircase_outline(hm: Heatmap, color=GOOD, stroke_width: float = 4, upper: bool = False) -> Polygon:
    """The outline of ``hm``'s lower triangle with its diagonal (cells ``j <= i``), as a staircase.

    With ``upper=True`` it outlines the strictly upper triangle (``j > i``) instead.
    """
    rows, cols = hm.values.shape
    if rows != cols:
        raise ValueError(f"staircase_outline needs a square heatmap, got shape {hm.values.shape}")
    n = rows
    s = hm.cell_size

    def corner(i, j, dx, dy):  # corner of cell (i, j): dx, dy in {-1, 1}
        return hm.cell_center(i, j) + np.array([dx * s / 2, dy * s / 2, 0.0])

    pts = []
    if not upper:
        pts.append(corner(0, 0, -1, 1))
        for i in range(n):
            pts.append(corner(i, i, 1, 1))
            pts.append(corner(i, i, 1, -1))
        pts.append(corner(n - 1, 0, -1, -1))
    else:
        if n < 2:
            raise ValueError("a 1 x 1 heatmap has no upper triangle")
        pts.append(corner(0, 1, -1, 1))
        pts.append(corner(0, n - 1, 1, 1))
        pts.append(corner(n - 2, n - 1, 1, -1))
        for i in range(n - 2, -1, -1):
            pts.append(corner(i, i + 1, -1, -1))
            if i > 0:
                pts.append(corner(i, i + 1, -1, 1))
    return Polygon(*pts, stroke_color=color, stroke_width=stroke_width, fill_opacity=0)


class RowBars(VGroup):
    """Horizontal bars, one per value, left-aligned at ``x = 0``, ``row_height`` apart, top row first.

    Bar ``i`` has length ``values[i] / vmax * length`` (values must be in ``[0, vmax]``),
    so a test can read a value back from ``bars[i].width``.
    """

    def __init__(self, values, vmax: float, length: float = 1.5, row_height: float = 0.5, thickness: float = 0.3,
                 colors: Sequence | None = None, **kw):
        super().__init__(**kw)
        v = np.array(values, dtype=float, copy=True)
        if v.ndim != 1 or np.any(v < 0) or np.any(v > vmax) or not vmax > 0:
            raise ValueError(f"RowBars needs 1-D values in [0, vmax={vmax}], got {v}")
        v.flags.writeable = False
        self.values, self.vmax, self.length, self.row_height = v, float(vmax), length, row_height
        self.bars = VGroup()
        for i, x in enumerate(v):
            w = max(float(x) / self.vmax * length, 1e-3)
            c = colors[i] if colors is not None else FG
            r = Rectangle(width=w, height=thickness, stroke_width=0, fill_color=c, fill_opacity=0.95)
            r.move_to(np.array([w / 2, -i * row_height, 0.0]))
            self.bars.add(r)
        self.add(self.bars)

    def length_of(self, i: int) -> float:
        return float(self.bars[i].width)


def measure_line(formula: str, value: float, note: str = "", size: float = LABEL, good: bool = True) -> VGroup:
    """``formula = value note``: a Typst formula, the measured value as ``fmt_measure`` prints it.

    ``[0]`` formula, ``[1]`` "=", ``[2]`` the value (a ``Text`` whose ``.text`` is the figure), ``[3]`` note.
    """
    f = math(formula, size=size)
    eq = math("=", size=size)
    val = label(fmt_measure(value), size=size, color=GOOD if good else ACCENT, weight="BOLD")
    parts = [f, eq, val]
    if note:
        parts.append(label(note, size=SMALL, color=DIM))
    g = VGroup(*parts).arrange(RIGHT, buff=0.18)
    for p in parts[1:]:
        p.set_y(f.get_center()[1])
    return g


def morph_cells(hm: Heatmap, new_values, cells, run_time: float | None = None) -> AnimationGroup:
    """Animate ``hm``'s ``cells`` (``(i, j)`` pairs) to ``new_values[i, j]``: each cell's fill moves to
    its new colour while its printed value is swapped (old out, then new in: never two strings
    over each other).  ``hm.values`` and ``hm.labels`` hold the new values and labels at once;
    the old labels leave the scene when the animation ends."""
    new = np.array(new_values, dtype=float)
    vals = np.array(hm.values, dtype=float)
    rows, cols = vals.shape
    anims = []
    for i, j in cells:
        vals[i, j] = new[i, j]
        anims.append(hm.cell(i, j).animate.set_fill(hm.color_of(new[i, j]), opacity=1.0))
        if hm.show_values:
            k = i * cols + j
            old = hm.labels.submobjects[k]
            fresh = hm._label_for(new[i, j], i, j)
            fresh.set_fill(opacity=0)
            hm.labels.submobjects[k] = fresh
            anims.append(Succession(FadeOut(old), fresh.animate.set_fill(opacity=1.0)))
    vals.flags.writeable = False
    hm.values = vals
    kw = {} if run_time is None else {"run_time": run_time}
    return AnimationGroup(*anims, **kw)


def check_mark(size: float = 0.3, color=GOOD, stroke_width: float = 5) -> VMobject:
    """A drawn check mark (a graphic, so no font needs the glyph), ``size`` units wide."""
    m = VMobject(stroke_color=color, stroke_width=stroke_width)
    m.set_points_as_corners([[-0.5, 0.0, 0], [-0.15, -0.35, 0], [0.5, 0.4, 0]])
    m.set_fill(opacity=0)
    return m.scale(size)


class SeriesKey(VGroup):
    """``[swatch] name   max = value``: one series of a plot and its measured maximum.

    ``value`` is the ``Text`` printing ``fmt_measure(measured)`` (bold, in ``GOOD`` for an
    exact zero, else ``ACCENT``); ``swatch`` is a filled square in the series' colour."""

    def __init__(self, name: str, color, measured: float, size: float = LABEL, prefix: str = "max =", **kw):
        super().__init__(**kw)
        self.measured = float(measured)
        self.swatch = Square(side_length=0.26, stroke_width=0, fill_color=color, fill_opacity=1.0)
        self.name = label(name, size=size, color=FG)
        self.prefix = label(prefix, size=size, color=DIM)
        self.value = label(fmt_measure(measured), size=size, color=GOOD if measured == 0.0 else ACCENT, weight="BOLD")
        self.add(self.swatch, self.name, self.prefix, self.value)
        self.arrange(RIGHT, buff=0.2)
        self.prefix.shift(0.15 * RIGHT)
        self.value.shift(0.15 * RIGHT)
        for t in (self.name, self.prefix, self.value):  # every word on the swatch's bottom line
            t.shift((self.swatch.get_bottom()[1] - baseline_y(t)) * UP)


__all__ = ["CodePanel", "ExactHeatmap", "PANEL", "RowBars", "SeriesKey", "check_mark",
           "measure_line", "morph_cells", "staircase_outline"]
