"""The widgets only clip 08 draws (``scenes/clips/c08_sinusoidal_position.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import RIGHT as RIGHT_
from manim import Line, VGroup, VMobject

from scenes.kit.compose import GAP
from scenes.kit.theme import DIM, FAINT, FG


class WavePanel(VGroup):
    """Waves drawn *down* the screen: position ``p`` runs from top to bottom (row ``p`` of a
    matrix drawn beside it sits at the same height), the value runs left to right over
    ``value_range``.

    ``row_y(p)`` is the screen height of position ``p`` (linear: ``top_y - p * pitch``);
    ``to_point(value, p)`` the screen point of a value at a (real) position.  The panel
    draws faint guides at ``value_ticks`` (the one at 0 a little brighter) and at every
    integer position, so each sample lines up with its matrix row.
    """

    def __init__(self, n_positions: int, top_y: float, pitch: float, left_x: float, width: float,
                 value_range: tuple[float, float] = (-1.15, 1.15), value_ticks: Sequence[float] = (-1.0, 0.0, 1.0),
                 **kw):
        super().__init__(**kw)
        if n_positions < 1 or pitch <= 0 or width <= 0:
            raise ValueError(f"WavePanel needs n_positions >= 1, pitch > 0, width > 0; got {n_positions}, {pitch}, {width}")
        lo, hi = map(float, value_range)
        if not hi > lo:
            raise ValueError(f"value_range must be increasing, got {value_range}")
        self.n_positions, self.top_y, self.pitch = int(n_positions), float(top_y), float(pitch)
        self.left_x, self.width_units, self.value_range = float(left_x), float(width), (lo, hi)
        y0, y1 = self.row_y(-0.5), self.row_y(n_positions - 0.5)
        self.value_guides = VGroup(*[
            Line([self.value_x(v), y0, 0], [self.value_x(v), y1, 0],
                 stroke_color=DIM if v == 0 else FAINT, stroke_width=2 if v == 0 else 1.5)
            for v in value_ticks
        ])
        self.row_guides = VGroup(*[
            Line([self.value_x(lo), self.row_y(p), 0], [self.value_x(hi), self.row_y(p), 0],
                 stroke_color=FAINT, stroke_width=1)
            for p in range(n_positions)
        ])
        self.add(self.row_guides, self.value_guides)

    # -- data -> screen
    def row_y(self, p) -> np.ndarray | float:
        return self.top_y - np.asarray(p, dtype=float) * self.pitch

    def value_x(self, v) -> np.ndarray | float:
        lo, hi = self.value_range
        return self.left_x + (np.asarray(v, dtype=float) - lo) / (hi - lo) * self.width_units

    def to_point(self, value, p) -> np.ndarray:
        """Screen point(s) of ``value`` at position ``p`` (arrays broadcast to ``(n, 3)``)."""
        x, y = np.broadcast_arrays(self.value_x(value), self.row_y(p))
        return np.stack([x, y, np.zeros_like(x)], axis=-1)

    def curve(self, positions, values, color=FG, stroke_width: float = 4) -> VMobject:
        """A polyline through every computed ``(values[k], positions[k])`` (nothing resampled)."""
        pts = self.to_point(values, positions)
        m = VMobject(stroke_color=color, stroke_width=stroke_width).set_points_as_corners(pts)
        m.data_points = pts
        return m


# ------------------------------------------------------------------ composed pictures
def _pair_box(heat, i: int):
    from manim import SurroundingRectangle

    from scenes.kit.theme import HIGHLIGHT

    rows = heat.values.shape[0]
    return SurroundingRectangle(VGroup(heat.cell(0, 2 * i), heat.cell(rows - 1, 2 * i + 1)), color=HIGHLIGHT,
                                buff=GAP.hair / 2, stroke_width=3)


class WaveMatrix(VGroup):
    """A ``(T, d)`` matrix filled column pair by column pair from waves drawn beside it, fitted to ``region``.

    Left to right: the position indices, a :class:`WavePanel` whose position ``m`` sits at the height
    of matrix row ``m`` (each sample flies straight across into its cell), then the matrix.  Over the
    panel a horizontal colour bar is its value axis (a sample at height ``v`` has the colour above
    it); over the matrix, the column indices and a mark per column pair.  The cells are as large as
    the region allows (at most ``max_cell``) with at least ``panel_width[0]`` left for the panel,
    which takes at most ``panel_width[1]``.

    ``heat`` is the matrix (:class:`~scenes.kit.widgets.Heatmap`, painted by ``scale``), ``panel`` the
    waves' axes, ``bar`` the value axis, :meth:`labels` its indices and marks."""

    def __init__(self, values, scale, region, max_cell: float = 0.6, panel_width: tuple[float, float] = (3.0, 4.2),
                 **kw):
        from manim import DOWN, LEFT, UP, Line

        from scenes.kit.notation import N
        from scenes.kit.theme import LABEL, SMALL, label, math
        from scenes.kit.widgets import ColorBar, Heatmap

        super().__init__(**kw)
        v = np.asarray(values, dtype=float)
        T, D = v.shape
        idx_w = label(str(T - 1), size=SMALL).width + GAP.normal
        words = (label("pair", size=SMALL, color=DIM), label("column", size=SMALL, color=DIM))
        gap_w = max(w.width for w in words) + GAP.normal
        digit_h = label("0", size=SMALL).height
        probe = ColorBar(scale, height=1.0, horizontal=True)
        strip = max(2 * digit_h + 2 * GAP.tight + GAP.hair, probe.height) + GAP.small
        body_h = region.height - strip
        lo, hi = panel_width
        cell = min(body_h / T, (region.width - idx_w - gap_w - lo) / D, max_cell)
        panel_w = min(hi, region.width - idx_w - gap_w - D * cell)
        block_w = idx_w + panel_w + gap_w + D * cell
        x0 = region.left + (region.width - block_w) / 2
        top = region.top - strip - (body_h - T * cell) / 2  # the top edge of row 0

        self.cell_size, self.scale = cell, scale
        self.heat = Heatmap(v, scale, cell_size=cell)
        self.heat.move_to([x0 + block_w - D * cell / 2, top - T * cell / 2, 0])
        self.panel = WavePanel(T, self.heat.cell_center(0, 0)[1], cell, x0 + idx_w, panel_w)
        cols = self.heat.index_labels("cols", buff=GAP.hair)
        every = int(np.ceil((max(c.width for c in cols) + GAP.hair) / cell))  # indices that would touch: thinned
        self.col_idx = VGroup(*[c for j, c in enumerate(cols) if j % every == 0])
        y = self.col_idx.get_top()[1] + GAP.tight
        self.pair_marks = VGroup()
        for i in range(D // 2):
            a, b = self.heat.cell(0, 2 * i), self.heat.cell(0, 2 * i + 1)
            line = Line([a.get_left()[0] + GAP.hair, y, 0], [b.get_right()[0] - GAP.hair, y, 0], stroke_color=DIM,
                        stroke_width=2)
            self.pair_marks.add(VGroup(line, label(str(i), size=SMALL, color=FG).next_to(line, UP, buff=GAP.hair)))
        self.pair_name = words[0].next_to(self.pair_marks, LEFT, buff=GAP.small).align_to(self.pair_marks[0][1], DOWN)
        self.col_name = words[1].next_to(self.col_idx, LEFT, buff=GAP.small)
        step = int(np.ceil((digit_h + GAP.tight) / cell))  # every other index (or fewer) when rows are tight
        self.row_idx = VGroup(*[label(str(m), size=SMALL, color=DIM).move_to([x0 + idx_w / 2, self.panel.row_y(m), 0])
                                for m in range(0, T, step)])
        self.m_name = math(N.position.math, size=LABEL, color=DIM).move_to([x0 + idx_w / 2, 0, 0])
        self.m_name.set_y(self.pair_marks[0][1].get_y())
        vmin, vmax = scale.vmin, scale.vmax
        self.bar = ColorBar(scale, height=self.panel.value_x(vmax) - self.panel.value_x(vmin), horizontal=True)
        self.bar.align_to(self.pair_marks, UP)
        self.bar.shift((self.panel.value_x(vmin) - self.bar.point_of(vmin)[0]) * RIGHT_)
        self.add(self.panel, self.heat, self.labels(), self.bar)

    def labels(self) -> VGroup:
        """The indices, the pair marks and their names."""
        return VGroup(self.col_idx, self.row_idx, self.col_name, self.pair_marks, self.pair_name, self.m_name)

    def outline(self) -> VGroup:
        """The empty matrix: every cell's outline, no fill."""
        return VGroup(*[c.copy().set_fill(opacity=0).set_stroke(FAINT, 1.5) for row in self.heat.cells for c in row])

    def curves(self, x, waves, colors) -> VGroup:
        """One polyline per column of ``waves: (n, k)`` over positions ``x``, coloured ``colors[j]``."""
        w = np.asarray(waves, dtype=float)
        return VGroup(*[self.panel.curve(x, w[:, j], color=colors[j]) for j in range(w.shape[1])])

    def samples(self, values, colors) -> VGroup:
        """Dots at every integer position for each column of ``values: (T, k)`` (column by column), filled
        with the value's colour and ringed in ``colors[j]`` (the wave they lie on)."""
        from manim import Dot

        v = np.asarray(values, dtype=float)
        r = min(self.DOT_MAX, self.DOT_SHARE * self.cell_size)
        dots = VGroup()
        for j in range(v.shape[1]):
            for m in range(v.shape[0]):
                dots.add(Dot(self.panel.to_point(v[m, j], m), radius=r, fill_color=self.scale.color(v[m, j]),
                             fill_opacity=1, stroke_color=colors[j], stroke_width=2))
        return dots

    def pair_box(self, i: int):
        """The highlight round column pair ``i``."""
        return _pair_box(self.heat, i)

    DOT_SHARE = 0.22  # a sample's radius, as a share of the cell
    DOT_MAX = 0.075


class PairMatrix(VGroup):
    """A ``(T, d)`` matrix whose column pairs carry their own labels above them (each pair's wavelength),
    the positions down its left side, fitted to ``region``.

    The cells are as tall as the region allows and as wide as the widest label needs (half of it a
    column), but never narrower than tall nor wider than the region; a label wider than its pair even
    so alternates with its neighbours on two levels."""

    def __init__(self, values, scale, region, pair_labels, **kw):
        from manim import LEFT, UP, Line

        from scenes.kit.notation import N
        from scenes.kit.theme import LABEL, SMALL, label, math
        from scenes.kit.widgets import Heatmap

        super().__init__(**kw)
        v = np.asarray(values, dtype=float)
        T, D = v.shape
        labs = list(pair_labels)
        lab_w = max(m.width for m in labs)
        lab_h = max(m.height for m in labs)
        idx_w = label(str(T - 1), size=SMALL).width + GAP.normal
        room_w = (region.width - idx_w) / D
        need_w = (lab_w + GAP.small) / 2  # a column: half of what its pair's label needs
        levels = 1 if need_w <= room_w else 2
        strip = levels * (lab_h + GAP.small) + GAP.tight
        cell_h = (region.height - strip) / T
        cell_w = min(room_w, max(cell_h, need_w))
        stagger = levels == 2
        self.heat = Heatmap(v, scale, cell_size=(cell_w, cell_h))
        block_w = idx_w + D * cell_w
        self.heat.move_to([region.left + (region.width - block_w) / 2 + idx_w + D * cell_w / 2,
                           region.bottom + T * cell_h / 2, 0])
        self.marks = VGroup()
        y = self.heat.get_top()[1] + GAP.tight
        for i, lab in enumerate(labs):
            a, b = self.heat.cell(0, 2 * i), self.heat.cell(0, 2 * i + 1)
            line = Line([a.get_left()[0] + GAP.hair, y, 0], [b.get_right()[0] - GAP.hair, y, 0], stroke_color=DIM,
                        stroke_width=2)
            lab.next_to(line, UP, buff=GAP.hair + (lab_h + GAP.small if stagger and i % 2 else 0.0))
            self.marks.add(VGroup(line, lab))
        step = int(np.ceil((label("0", size=SMALL).height + GAP.tight) / cell_h))
        self.row_idx = VGroup(*[label(str(m), size=SMALL, color=DIM).next_to(self.heat.cell(m, 0), LEFT,
                                                                             buff=GAP.tight)
                                for m in range(0, T, step)])
        self.m_name = math(N.position.math, size=LABEL, color=DIM).next_to(self.row_idx, UP, buff=GAP.small)
        self.m_name.set_x(self.row_idx.get_x())
        self.labels = VGroup(self.marks, self.row_idx, self.m_name)
        self.add(self.heat, self.labels)


def readout(prefix: str, fig, size=None, color=FG):
    """A measured figure after the formula it measures, typeset as one line of math: ``max |Δ| ≈ 1.1 ×
    10⁻¹⁶`` (``=`` before a plain figure, a power of ten or an exact zero, which reads ``0`` with its
    exact mark; none before a figure that carries its own ``≈``)."""
    from scenes.kit import numbers
    from scenes.kit.theme import LABEL, figure

    f = fig if isinstance(fig, numbers.Figure) else numbers.measure(fig)
    return figure(f, size=size or LABEL, color=color, prefix=prefix if f.approx else f"{prefix} =")
