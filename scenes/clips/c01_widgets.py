"""The widgets only clip 01 draws (``scenes/clips/c01_permutation_matrix.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, VGroup

from scenes.kit.compose import GAP
from scenes.kit.theme import DIM, ColorScale, math, token_color
from scenes.kit.widgets import Heatmap


class RowMap(VGroup):
    """Token rows as a value-coloured grid with their numbers printed: row ``i`` shows ``values[i]`` and is
    named ``x_k`` (``k = rows[i]``) in token ``k``'s colour, left of the grid.

    ``heat`` is the :class:`~scenes.kit.widgets.Heatmap` (``cell_w × cell_h`` cells, every number at one
    size); ``names[i]`` row ``i``'s name; :meth:`body` row ``i``'s cells and numbers (what flies when a
    row moves), :meth:`outline` an empty copy of the grid (the rows a product is still waiting for)."""

    def __init__(self, values, rows: Sequence[int], scale: ColorScale, cell_w: float, cell_h: float,
                 value_size: float, name_size: float, numbers: bool = True, **kw):
        """``numbers=False`` paints the cells alone: for rows too long to print."""
        super().__init__(**kw)
        self.rows = tuple(int(k) for k in rows)
        self.heat = Heatmap(values, scale, cell_size=(cell_w, cell_h), show_values=numbers,
                            decimals=1, value_size=value_size, uniform_values=numbers)
        self.names = VGroup(*[math(f"x_{k}", size=name_size, color=token_color(k)) for k in self.rows])
        right = self.heat.get_left()[0] - GAP.small
        for i, n in enumerate(self.names):
            n.move_to(self.heat.cell_center(i, 0))
            n.shift((right - n.get_right()[0]) * RIGHT)
        self.add(self.heat, self.names)

    @property
    def cols(self) -> int:
        return self.heat.values.shape[1]

    def body(self, i: int) -> VGroup:
        """Row ``i``'s cells and printed numbers."""
        c = self.cols
        return VGroup(*self.heat.cells[i], *(self.heat.labels[i * c:(i + 1) * c] if self.heat.show_values else []))

    def outline(self, color=DIM, opacity: float = 1.0) -> VGroup:
        """The grid's cells as empty outlines, in place."""
        return VGroup(*[cell.copy().set_fill(opacity=0).set_stroke(color, width=2, opacity=opacity)
                        for r in self.heat.cells for cell in r])

    def name_edge(self) -> float:
        """The x of the names' left edge."""
        return min(n.get_left()[0] for n in self.names)


def one_hot_frame(hm: Heatmap, i: int, j: int, color, buff: float = 0.03):
    """An outline around cell ``(i, j)`` of ``hm``."""
    from manim import SurroundingRectangle

    return SurroundingRectangle(hm.cell(i, j), color=color, buff=buff, stroke_width=5)


def row_frame(widget: RowMap, i: int, color, buff: float = 0.04):
    """An outline around row ``i`` of ``widget``'s grid (its cells)."""
    from manim import SurroundingRectangle

    return SurroundingRectangle(VGroup(*widget.heat.cells[i]), color=color, buff=buff, stroke_width=5)



def row_frame_cells(hm: Heatmap, i: int, color, buff: float = 0.04):
    """An outline around row ``i`` of heatmap ``hm`` (a student's row of P that is not the one π builds)."""
    from manim import SurroundingRectangle

    return SurroundingRectangle(VGroup(*hm.cells[i]), color=color, buff=buff, stroke_width=5)
