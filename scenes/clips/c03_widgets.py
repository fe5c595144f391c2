"""The widgets only clip 03 draws (``scenes/clips/c03_causal_mask.py``): kept beside it, out of the kit."""

from __future__ import annotations

import numpy as np
from manim import (
    AnimationGroup,
    Code,
    ManimColor,
    Polygon,
    Rectangle,
    RoundedRectangle,
    VGroup,
)

from scenes.kit.compose import GAP
from scenes.kit.layout import (
    _pango_xh_per_size,
    mark_text,
    overlay,
)
from scenes.kit.theme import (
    DIM,
    FAINT,
    HIGHLIGHT,
    MONO,
    ColorScale,
    label,
    register_fonts,
)
from scenes.kit.widgets import Heatmap

PANEL = ManimColor("#161B22")  # code panel background, one step above BG


CODE_SIZE = 24  # a listing's font size: its x-height is about 11 px at 854×480


def tint(expr: str, color) -> str:
    """Typst math ``expr`` set in ``color`` inside a larger formula (a query's ``q_m`` in QUERY)."""
    return f'#text(fill: rgb("{ManimColor(color).to_hex()}"), ${expr}$)'


class CodePanel(VGroup):
    """A syntax-highlighted listing (Manim ``Code``: Pango, no LaTeX) with a line marker.

    ``source`` is the exact text shown; ``lines[k]`` is line ``k``'s glyph group;
    :meth:`focus` moves the marker to line ``k`` and dims the other lines.
    """

    def __init__(self, source: str, language: str = "python", size: float = CODE_SIZE, style: str = "github-dark",
                 **kw):
        super().__init__(**kw)
        register_fonts()
        self.source = source
        self.listing = Code(
            code_string=source, language=language, formatter_style=style, add_line_numbers=False,
            background="rectangle",
            background_config={"fill_color": PANEL, "stroke_color": FAINT, "stroke_width": 2, "corner_radius": 0.12,
                               "buff": GAP.small},
            paragraph_config={"font": MONO, "font_size": size, "line_spacing": 0.7},
        )
        self.lines = self.listing.code_lines
        self.background = self.listing.submobjects[0]
        k0 = self.lines[0]
        self.marker = RoundedRectangle(
            corner_radius=GAP.hair, width=self.background.width - 2 * GAP.hair, height=k0.height + 2 * GAP.hair,
            stroke_color=HIGHLIGHT, stroke_width=2.5, fill_color=HIGHLIGHT, fill_opacity=0.08,
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
    reads differently from a small weight that rounds to ``0.00``.  :meth:`repaint_with` changes
    the scale and precision that later :func:`morph_cells` calls paint with (scores becoming
    weights in the same cells).  A thin frame (``frame``) keeps the map's extent visible whatever the
    colormap (magma and inferno paint a weight of 0 nearly the background's colour).

    Every printed value takes at most ``FILL`` of its cell's width and of its height (the numbers were
    crowding their cells at the 0.88–0.92 the base allows): with ``uniform_values`` the one size is chosen so
    the widest fits that share, and any later value (a score become a weight) is held to it too."""

    FILL = 0.72  # the most of a cell's width (and height) a printed value takes

    def __init__(self, values, scale, cell_size=0.5, show_values: bool = False, decimals: int = 2,
                 value_size: float | None = None, uniform_values: bool = False, **kw):
        from scenes.kit.theme import SMALL
        from scenes.kit.widgets import fmt_value

        value_size = SMALL if value_size is None else value_size
        w, h = (float(cell_size[0]), float(cell_size[1])) if isinstance(cell_size, tuple) else (cell_size, cell_size)
        if show_values and uniform_values:  # one size, the widest (and tallest) value inside FILL of its cell
            v = np.asarray(values, dtype=float).ravel()
            texts = ["0" if x == 0.0 else "1" if x == 1.0 else fmt_value(x, decimals) if np.isfinite(x)
                     else "\u2212\u221e" for x in v]
            probe = [label(t, size=value_size) for t in set(texts)]
            widest = max(t.width for t in probe)
            tallest = max(t.height for t in probe)
            value_size *= min(1.0, self.FILL * w / widest, self.FILL * h / tallest)
        super().__init__(values, scale, cell_size=cell_size, show_values=show_values, decimals=decimals,
                         value_size=value_size, uniform_values=uniform_values, **kw)
        self.frame = Rectangle(width=self.cells.width, height=self.cells.height, stroke_color=DIM,
                               stroke_width=1.5, fill_opacity=0).move_to(self.cells)
        self.add(self.frame)

    def _label_for(self, v: float, i: int, j: int):
        if np.isfinite(v) and v in (0.0, 1.0):
            t = label("0" if v == 0.0 else "1", size=self.value_size, color=self.color_scale.text_color(v))
            overlay(self.cell(i, j), t)
        else:
            t = super()._label_for(v, i, j)
        k = min(1.0, self.FILL * self.cell_w / t.width, self.FILL * self.cell_h / t.height)
        if k < 1.0:
            t.scale(k)
        return t.move_to(self.cell(i, j))

    def repaint_with(self, scale: ColorScale, decimals: int) -> ExactHeatmap:
        self.color_scale, self.decimals = scale, decimals
        return self


def staircase_outline(hm: Heatmap, color=HIGHLIGHT, stroke_width: float = 4, upper: bool = False) -> Polygon:
    """The outline of ``hm``'s lower triangle with its diagonal (cells ``n <= m``), as a staircase.

    With ``upper=True`` it outlines the strictly upper triangle (``n > m``) instead.
    """
    rows, cols = hm.values.shape
    if rows != cols:
        raise ValueError(f"staircase_outline needs a square heatmap, got shape {hm.values.shape}")
    n = rows
    w, h = hm.cell(0, 0).width, hm.cell(0, 0).height  # as drawn now (the map may have been scaled since)

    def corner(i, j, dx, dy):  # corner of cell (i, j): dx, dy in {-1, 1}
        return hm.cell_center(i, j) + np.array([dx * w / 2, dy * h / 2, 0.0])

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
