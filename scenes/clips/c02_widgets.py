"""The widgets only clip 02 draws (``scenes/clips/c02_permutation_equivariance.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    AnimationGroup,
    Dot,
    VGroup,
    VMobject,
)
from manim import (
    LEFT as LEFT_,
)

from scenes.kit.compose import GAP
from scenes.kit.layout import PX_PER_UNIT
from scenes.kit.theme import BLUE, FG, HEADING, LABEL, label, math, token_color


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


# ------------------------------------------------------------------ weights that travel
class TravelMap(VGroup):
    """Weights ``values: (T, T)`` as a :class:`~scenes.kit.widgets.Heatmap` with the key of every
    column named above it (``keys[j]`` names the key in column ``j``, ``x_k`` in token ``k``'s
    colour).  :meth:`travel_rows` moves the rows (``P A``: row ``perm[i]`` goes to slot ``i``),
    :meth:`travel_cols` the columns with their names (``A Pᵀ``).  The cells keep their identity
    (``heat.cells[r][c]`` is the cell that held ``values[r, c]``) so a test can follow them;
    :meth:`settled` then hands them over to a fresh map of the values they now show.

    With ``peak`` (its text, e.g. ``"0.74"``), the largest weight's number is printed on its cell
    (``peak_text``, at most ``PEAK_FILL`` of the cell's width and height; ``peak_at`` is its slot) and travels
    with its row and its column."""

    ARC = 0.4  # how far a travelling row or column swings out of line
    PEAK_FILL = 0.7  # the peak's number fills at most this much of its cell, each way

    def __init__(self, values, scale, cell: float, keys: Sequence[int], peak: str | None = None, **kw):
        from manim import VectorizedPoint

        from scenes.kit.layout import legible_scale, overlay
        from scenes.kit.widgets import Heatmap

        super().__init__(**kw)
        self.color_scale = scale
        self.heat = Heatmap(values, scale, cell_size=cell)
        self.peak = peak
        self.peak_text = VGroup()
        self.peak_at: tuple[int, int] | None = None
        if peak is not None:
            v = self.heat.values
            r, c = (int(i) for i in np.unravel_index(int(np.argmax(v)), v.shape))
            t = label(peak, size=HEADING, color=scale.text_color(float(v[r, c])))
            if t.width > self.PEAK_FILL * cell or t.height > self.PEAK_FILL * cell:  # never under the legible floor
                # (the sweep: at T = d = 6 a fill of 70 % set "0.86" at 7.9 px; the floor's few per cent more still fit)
                t.scale(max(self.PEAK_FILL * cell / max(t.width, t.height), legible_scale(t)))
            overlay(self.heat.cell(r, c), t)  # the number sits on its own cell
            self.peak_text = t.move_to(self.heat.cell(r, c))
            self.peak_at = (r, c)
        self.order = [int(k) for k in keys]
        self.keys = VGroup(*[math(f"x_{k}", size=LABEL, color=token_color(k)).next_to(self.heat.cell(0, j), UP,
                                                                                   buff=GAP.tight)
                             for j, k in enumerate(self.order)])
        self.keys.align_to(self.keys[0], DOWN)
        self.anchor = VectorizedPoint(self.heat.get_corner(UP + LEFT_))  # the grid's corner, moves with the map
        self.add(self.heat, self.keys, self.anchor, self.peak_text)

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
        return AnimationGroup(*[VGroup(*self.heat.cells[r], *self._peak_in(r, None)).animate(path_arc=self.ARC)
                                .shift((r - q[r]) * self.cell * UP)
                                for r in range(len(q)) if q[r] != r])

    def _peak_in(self, r: int | None, c: int | None) -> list:
        """The peak's number, if it sits in cell row ``r`` (or cell column ``c``): it travels with them."""
        if self.peak_at is None or (r is not None and self.peak_at[0] != r) or (c is not None and self.peak_at[1] != c):
            return []
        return [self.peak_text]

    def travel_cols(self, perm) -> AnimationGroup:
        """Column ``perm[j]`` travels to slot ``j`` with its key's name (``A Pᵀ``)."""
        q = np.argsort(perm)
        n = len(q)
        return AnimationGroup(*[
            VGroup(*[self.heat.cells[r][c] for r in range(n)], self.keys[c], *self._peak_in(None, c))
            .animate(path_arc=-self.ARC)
            .shift((q[c] - c) * self.cell * RIGHT)
            for c in range(n) if q[c] != c])

    def settled(self, values, keys: Sequence[int]) -> TravelMap:
        """A fresh map of ``values`` with ``keys`` over its columns, exactly where this one's grid is."""
        new = TravelMap(values, self.color_scale, self.cell, keys, peak=self.peak)
        new.shift(self.anchor.get_center() - new.anchor.get_center())
        return new


class RowHeatmap(VGroup):
    """A heatmap of ``values: (rows, cols)`` whose rows carry Typst labels on the left and can be
    permuted like ``LabelledMatrix`` (the coloured-cells form of a matrix too wide for numbers).

    ``heat`` is the :class:`Heatmap`; ``rows[i]`` groups row ``i``'s cells and label;
    ``row_order[i]`` is the original row now in slot ``i``."""

    def __init__(self, values, scale, cell_size: float, row_labels: Sequence[str], label_size: float = LABEL,
                 row_colors: Sequence | None = None, **kw):
        from scenes.kit.widgets import Heatmap

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


# ------------------------------------------------------------------ one output row as a weighted sum
class SumLine(VGroup):
    """One output row as the weighted sum the attention computes, drawn term by term:
    ``[result column] =  a₀ [v column] + a₁ [v column] + …``.

    ``result`` (``(d,)``, painted by ``out_scale``) stands first, named ``head`` (Typst) under it; then,
    for each key ``j`` of ``order``, its weight ``weights[j]`` as one cell of ``w_scale`` with the number
    printed on it, beside the value vector ``values[j]`` as a column of ``d`` cells of ``v_scale``, named
    ``v_j`` under it in token ``j``'s colour; ``+`` between the terms.  Cells are ``WIDE × cell`` wide and ``tall × cell``
    tall.  ``terms[k]`` is the ``k``-th term (``VGroup(weight, column, name)``), ``term_of[j]``
    the term of key ``j``; the result's column sits at ``x = 0`` so lines stacked on it line up."""

    WIDE = 1.3  # a value cell's width over its height
    WEIGHT = 1.9  # a weight cell's width over a value cell's height

    def __init__(self, head: str, result, weights, values, order, out_scale, w_scale, v_scale, cell: float,
                 size: float = LABEL, tall: float = 1.0, wide: float = 1.0, decimals: int = 2,
                 rel: str = "=", **kw):
        """``tall`` makes every cell that many times taller (a line with height to spare), ``wide`` that many
        times wider (a line with width to spare); a weight's cell is never narrower than its number, printed to
        ``decimals`` places; ``rel`` joins the result to its terms ("approx" where the printed weights, rounded,
        do not sum to 1)."""
        from scenes.kit.widgets import Heatmap

        super().__init__(**kw)
        self.order = [int(j) for j in order]
        box = (self.WIDE * wide * cell, tall * cell)
        self.decimals = decimals
        widest = max(label(f"{float(w):.{decimals}f}", size=size).width for w in weights) + 0.16
        self.result = Heatmap(np.asarray(result, dtype=float)[:, None], out_scale, cell_size=box)
        self.eq = math(rel, size=size)
        self.terms = VGroup()
        self.term_of: dict[int, VGroup] = {}
        self.pluses = VGroup()
        for j in self.order:
            col = Heatmap(np.asarray(values[j], dtype=float)[:, None], v_scale, cell_size=box)
            w = Heatmap(np.array([[float(weights[j])]]), w_scale, cell_size=(max(self.WEIGHT * wide * cell, widest), tall * cell),
                        show_values=True, decimals=decimals, value_size=size, uniform_values=True)
            w.next_to(col, LEFT_, buff=GAP.hair)
            name = math(f"v_{j}", size=size, color=token_color(j)).next_to(col, DOWN, buff=GAP.tight)
            t = VGroup(w, col, name)
            t.weight, t.column, t.name = w, col, name
            self.terms.add(t)
            self.term_of[j] = t
        parts = [self.result, self.eq]
        for k, t in enumerate(self.terms):
            if k:
                plus = math("+", size=size, color=FG)
                self.pluses.add(plus)
                parts.append(plus)
            parts.append(VGroup(t.weight, t.column))
        VGroup(*parts).arrange(RIGHT, buff=GAP.small)
        for t in self.terms:
            t.name.next_to(t.column, DOWN, buff=GAP.tight)
        self.head = math(head, size=size).next_to(self.result, DOWN, buff=GAP.tight)
        self.add(self.result, self.head, self.eq, self.pluses, self.terms)
        self.shift(-self.result.get_x() * RIGHT)
