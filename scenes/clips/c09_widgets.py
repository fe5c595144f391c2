"""The widgets only clip 09 draws (``scenes/clips/c09_three_positional_schemes.py``): kept beside it, out of the kit."""

from __future__ import annotations

import numpy as np
from manim import RIGHT as RIGHT_
from manim import Mobject, VGroup

from scenes.kit.compose import GAP
from scenes.kit.theme import DIM, FG


class ScoreMap(VGroup):
    """A square ``(T, T)`` map of something of two positions (row ``m``, column ``n``) fitted to ``region``:
    ``title`` over it, ``m ↓`` down its left side from the top, ``n →`` under it from the left (leaving the
    rest of the line under it, ``foot`` tall, for a label on the data), its colour bar at its right; the
    map is as large as the region's height (or width) allows.
    :meth:`diagonal` outlines the cells ``m − n = k``."""

    def __init__(self, values, scale, region, title: Mobject, foot: float = 0.0, **kw):
        from manim import DOWN, LEFT, UP

        from scenes.kit.notation import N
        from scenes.kit.theme import LABEL, math
        from scenes.kit.widgets import ColorBar, Heatmap

        super().__init__(**kw)
        v = np.asarray(values, dtype=float)
        T = v.shape[0]
        self.m_name = math(f"{N.position.math} arrow.b", size=LABEL, color=DIM)
        self.n_name = math(f"{N.other_position.math} arrow.r", size=LABEL, color=DIM)
        bar_w = ColorBar(scale, height=1.0).width
        side = min(region.height - title.height - max(self.n_name.height, foot) - 2 * GAP.tight,
                   region.width - self.m_name.width - GAP.tight - GAP.normal - bar_w)
        self.heat = Heatmap(v, scale, cell_size=side / T)
        self.heat.move_to([region.left + self.m_name.width + GAP.tight + side / 2,
                           region.top - title.height - GAP.tight - side / 2, 0])
        self.m_name.next_to(self.heat, LEFT, buff=GAP.tight).align_to(self.heat, UP)
        self.n_name.next_to(self.heat, DOWN, buff=GAP.tight).align_to(self.heat, LEFT)
        self.bar = ColorBar(scale, height=side)
        self.bar.shift((self.heat.get_right()[0] + GAP.normal - self.bar.frame.get_left()[0]) * RIGHT_
                       + (self.heat.get_y() - self.bar.frame.get_y()) * UP)
        self.title = title.next_to(self.heat, UP, buff=GAP.tight)
        self.add(self.heat, self.title, self.m_name, self.n_name, self.bar)

    def diagonal(self, k: int, color=None) -> VGroup:
        """Outlines of the cells ``(m, m − k)`` (``k`` of either sign): one diagonal, where a relative score is
        constant."""
        from scenes.kit.theme import BG, HIGHLIGHT

        T = self.heat.values.shape[0]
        out = VGroup()
        for m in diagonal_rows(T, k):  # a dark halo under the highlight: it reads on every colour of every colormap
            c = self.heat.cell(m, m - k)
            out.add(VGroup(c.copy().set_fill(opacity=0).set_stroke(BG, 7),
                           c.copy().set_fill(opacity=0).set_stroke(color or HIGHLIGHT, 3.5)))
        return out


def diagonal_rows(T: int, k: int) -> range:
    """The rows ``m`` of a ``(T, T)`` grid's cells ``(m, m − k)``, top to bottom."""
    return range(max(0, k), min(T, T + k))


class MatrixEquation:
    """Where the matrices of an equation of ``n`` same-shape matrices sit in ``region``: the cell size
    (as large as fits, at most ``max_cell``), each matrix's centre and each operator's centre, with
    ``op_width`` between two matrices and ``lead`` kept free on the left (the row indices)."""

    def __init__(self, shape: tuple[int, int], region, n: int = 3, op_width: float = 1.5, lead: float = 0.0,
                 max_cell: float = 1.0):
        rows, cols = shape
        self.cell = min(region.height / rows, (region.width - lead - (n - 1) * op_width) / (n * cols), max_cell)
        w = cols * self.cell
        span = lead + n * w + (n - 1) * op_width
        x0 = region.center[0] - span / 2 + lead
        y = region.center[1]
        self.centers = [np.array([x0 + w / 2 + k * (w + op_width), y, 0.0]) for k in range(n)]
        self.op_centers = [np.array([x0 + w + op_width / 2 + k * (w + op_width), y, 0.0]) for k in range(n - 1)]
        self.op_width = op_width


def inline(*parts: str, size=None, color=FG) -> VGroup:
    """A line of prose with math in it: ``inline("depends on", "$m - n$", "only")`` sets the words in the
    sans font and each ``$...$`` part in Typst math, on one baseline, a word space apart."""
    from scenes.kit.compose import row
    from scenes.kit.theme import SMALL, label, math

    mobs = [math(p[1:-1], size=size or SMALL, color=color) if p.startswith("$") and p.endswith("$")
            else label(p, size=size or SMALL, color=color) for p in parts]
    g = row(*mobs, gap="small", align="baseline")
    g.text = " ".join(parts)
    return g
