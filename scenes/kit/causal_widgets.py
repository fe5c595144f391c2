"""Widgets for the causal clips: a code listing that can point at a line, a staircase
outline over a heatmap's lower triangle, horizontal value bars, a measured-figure line.

Like the rest of the kit they are typed over real arrays and keep what they draw
(``values``, ``source``) so tests can read it back.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import LEFT, RIGHT, AnimationGroup, Code, ManimColor, Polygon, Rectangle, RoundedRectangle, VGroup

from .theme import ACCENT, DIM, FAINT, FG, GOOD, LABEL, MONO, SMALL, fmt_measure, label, math, register_fonts
from .layout import _pango_xh_per_size, mark_text, overlay
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
        self.focused: int | None = None
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
        self.focused = k
        y = self.lines[k].get_center()[1]
        anims = [self.marker.animate.set_stroke(opacity=1).set_fill(opacity=0.08).set_y(y)]
        for i, line in enumerate(self.lines):
            anims.append(line.animate.set_opacity(1.0 if i == k else dim))
        return AnimationGroup(*anims)

    def unfocus(self) -> AnimationGroup:
        self.focused = None
        return AnimationGroup(self.marker.animate.set_opacity(0), *[ln.animate.set_opacity(1.0) for ln in self.lines])


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


class MeasureTable(VGroup):
    """A grid of measured figures: ``values: (rows, cols)`` printed with ``fmt_measure``.

    ``cells[r][c]`` is the ``Text`` printing ``values[r, c]``; ``row_heads`` / ``col_heads``
    name the rows and columns.  Exact zeros print ``0.0`` in ``zero_color``, anything else
    in ``other_color``, so a nonzero figure stands out.
    """

    def __init__(self, values, row_names: Sequence[str], col_names: Sequence[str], col_pitch: float = 1.55,
                 row_pitch: float = 0.55, head_width: float = 1.4, size: float = SMALL, zero_color=GOOD,
                 other_color=ACCENT, **kw):
        super().__init__(**kw)
        v = np.array(values, dtype=float, copy=True)
        if v.shape != (len(row_names), len(col_names)):
            raise ValueError(f"MeasureTable values must have shape {(len(row_names), len(col_names))}, got {v.shape}")
        v.flags.writeable = False
        self.values = v
        self.col_pitch, self.row_pitch, self.head_width = col_pitch, row_pitch, head_width
        self.col_heads = VGroup(*[label(c, size=size, color=DIM).move_to(self.slot(-1, k))
                                  for k, c in enumerate(col_names)])
        self.row_heads = VGroup()
        self.cells = VGroup()
        self.rows = VGroup()
        for r, name in enumerate(row_names):
            head = label(name, size=size, color=FG)
            head.move_to(self.slot(r, 0) - (head_width + col_pitch / 2) * RIGHT, aligned_edge=LEFT)
            self.row_heads.add(head)
            row = VGroup(*[
                label(fmt_measure(x), size=size, color=zero_color if x == 0.0 else other_color).move_to(self.slot(r, k))
                for k, x in enumerate(v[r])
            ])
            self.cells.add(row)
            self.rows.add(VGroup(head, row))
        self.add(self.col_heads, self.rows)

    def slot(self, r: int, k: int) -> np.ndarray:
        """Centre of cell ``(r, k)`` in the table's own frame (row -1 is the header)."""
        return np.array([k * self.col_pitch, -(r + 1) * self.row_pitch, 0.0])


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


__all__ = ["CodePanel", "ExactHeatmap", "MeasureTable", "PANEL", "RowBars", "measure_line", "staircase_outline"]
