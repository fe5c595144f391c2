"""The widgets only clip 08 draws (``scenes/clips/c08_sinusoidal_position.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import RIGHT as RIGHT_
from manim import UP as UP_
from manim import Line, VGroup, VMobject

from scenes.kit.binding import role
from scenes.kit.compose import GAP
from scenes.kit.proofs import line_baseline, worded_line
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

    from scenes.kit.binding import role
    from scenes.kit.theme import HIGHLIGHT

    rows = heat.values.shape[0]
    return role(SurroundingRectangle(VGroup(heat.cell(0, 2 * i), heat.cell(rows - 1, 2 * i + 1)), color=HIGHLIGHT,
                                     buff=GAP.hair / 2, stroke_width=3), "highlight")


def pair_labels(heat, labels, gap: float) -> VGroup:
    """``labels[i]`` centred under column pair ``i`` of ``heat``, ``gap`` below it; a label wider than its
    pair alternates with its neighbours on two levels (odd pairs one line lower)."""
    from manim import DOWN

    T = heat.values.shape[0]
    pair_w = 2 * (heat.cell(0, 1).get_x() - heat.cell(0, 0).get_x())
    lab_h = max(m.height for m in labels)
    stagger = max(m.width for m in labels) + GAP.tight > pair_w
    out = VGroup()
    for i, lab in enumerate(labels):
        under = VGroup(heat.cell(T - 1, 2 * i), heat.cell(T - 1, 2 * i + 1))
        lab.next_to(under, DOWN, buff=gap + (lab_h + GAP.tight if stagger and i % 2 else 0.0))
        lab.set_x(under.get_x())
        if lab.get_right()[0] > heat.get_right()[0]:  # a label wider than its pair stays over the matrix
            lab.align_to(heat, RIGHT_)
        if lab.get_left()[0] < heat.get_left()[0]:
            lab.align_to(heat, -RIGHT_)
        out.add(lab)
    out.stagger = stagger
    return out


def lambda_strip_height(labels) -> float:
    """What the row of wavelengths under a matrix takes: one line, or two when they alternate."""
    return max(m.height for m in labels) * 2 + GAP.tight


class WaveMatrix(VGroup):
    """A ``(T, d)`` matrix filled column pair by column pair from waves drawn beside it, fitted to ``region``,
    each column pair's wavelength under it.

    Left to right: the position indices, a :class:`WavePanel` whose position ``m`` sits at the height
    of matrix row ``m`` (each sample flies straight across into its cell), the names of the matrix's
    header rows ("pair", "column") and of its foot row (``lam_name``), then the matrix.  Over the panel a
    horizontal colour bar is its value axis (a sample at height ``v`` has the colour above it); over the
    matrix, the column indices (in their wave's colour: ``col_colors``) and a mark per column pair; under
    it ``lams``, each pair's label.  The cells are as tall as the region allows (at most ``max_cell_h``)
    and as wide as the width left after ``panel_width[0]`` for the panel (at most ``max_cell_w``, never
    narrower than tall); the panel takes what is left, at most ``panel_width[1]``.

    ``heat`` is the matrix (:class:`~scenes.kit.widgets.Heatmap`, painted by ``scale``), ``panel`` the
    waves' axes, ``bar`` the value axis, :meth:`labels` its indices and marks, :meth:`outline` the empty
    matrix."""

    def __init__(self, values, scale, region, lam_labels, lam_name, col_colors, lam_small=None, max_cell_h: float = 0.6,
                 max_cell_w: float = 1.3, panel_width: tuple[float, float] = (3.3, 4.4), **kw):
        from manim import DOWN, LEFT, UP

        from scenes.kit.notation import N
        from scenes.kit.theme import LABEL, SMALL, label, math
        from scenes.kit.widgets import ColorBar, Heatmap

        super().__init__(**kw)
        v = np.asarray(values, dtype=float)
        T, D = v.shape
        idx_w = label(str(T - 1), size=SMALL).width + GAP.normal
        self.pair_name = worded_line(f"pair ${N.pair.math}$", size=LABEL, color=DIM)  # the word in the sans
        gap_w = self.pair_name.width + GAP.wide  # the wavelengths' name sits under the panel, in the foot
        digit_h = label("0", size=SMALL).height
        probe = ColorBar(scale, height=1.0, horizontal=True)
        strip = max(digit_h + GAP.hair + GAP.tight + self.RULE / 100, probe.height + GAP.small)
        lo, hi = panel_width
        tries = [(lam_labels, 1)] + ([(lam_small, 1)] if lam_small is not None else []) + [(lam_small or lam_labels, 2)]
        for labs, levels in tries:  # the wavelengths on one line if they fit under their pairs (smaller if need be)
            foot = levels * max(m.height for m in labs) + (levels - 1) * GAP.tight + GAP.small
            body_h = region.height - strip - foot
            cell_h = min(body_h / T, max_cell_h)
            cell_w = max(cell_h, min((region.width - idx_w - gap_w - lo) / D, max_cell_w))
            if max(m.width for m in labs) + GAP.tight <= 2 * cell_w:
                break
        lam_labels = labs
        panel_w = min(hi, region.width - idx_w - gap_w - D * cell_w)
        block_w = idx_w + panel_w + gap_w + D * cell_w
        x0 = region.left + (region.width - block_w) / 2
        top = region.top - strip - (body_h - T * cell_h) / 2  # the top edge of row 0

        self.cell_size, self.cell_w, self.scale = cell_h, cell_w, scale
        self.heat = Heatmap(v, scale, cell_size=(cell_w, cell_h))
        self.heat.move_to([x0 + block_w - D * cell_w / 2, top - T * cell_h / 2, 0])
        self.panel = WavePanel(T, self.heat.cell_center(0, 0)[1], cell_h, x0 + idx_w, panel_w)
        # over each column pair its number, on a rule whose halves are its sine column and its cosine column
        y = self.heat.get_top()[1] + GAP.tight
        self.pair_marks = VGroup()
        self.rules = VGroup()
        for i in range(D // 2):
            halves = VGroup()
            for j, (ink, name) in zip((2 * i, 2 * i + 1), col_colors):
                c = self.heat.cell(0, j)
                halves.add(role(Line([c.get_left()[0] + GAP.hair, y, 0], [c.get_right()[0] - GAP.hair, y, 0],
                                     stroke_color=ink, stroke_width=self.RULE), name))
            self.rules.add(halves)
            self.pair_marks.add(VGroup(halves, label(str(i), size=SMALL, color=FG).next_to(halves, UP, buff=GAP.hair)))
        names_x = self.heat.get_left()[0] - GAP.normal
        self.pair_name.shift((names_x - self.pair_name.get_right()[0]) * RIGHT_
                             + (line_baseline(self.pair_marks[0][1]) - line_baseline(self.pair_name)) * UP_)
        self.lams = pair_labels(self.heat, lam_labels, GAP.small)
        self.lam_name = lam_name
        lam_name.move_to(self.lams[0]).shift((names_x - lam_name.get_right()[0]) * RIGHT_)
        lam_name.align_to(self.lams[0], DOWN)
        step = int(np.ceil((digit_h + GAP.tight) / cell_h))  # every other index (or fewer) when rows are tight
        self.row_idx = VGroup(*[label(str(m), size=SMALL, color=DIM).move_to([x0 + idx_w / 2, self.panel.row_y(m), 0])
                                for m in range(0, T, step)])
        self.m_name = math(N.position.math, size=LABEL, color=DIM).move_to([x0 + idx_w / 2, 0, 0])
        self.m_name.set_y(self.pair_marks[0][1].get_y())
        vmin, vmax = scale.vmin, scale.vmax
        self.bar = ColorBar(scale, height=self.panel.value_x(vmax) - self.panel.value_x(vmin), horizontal=True)
        self.bar.shift((self.heat.get_top()[1] + GAP.small - self.bar.get_bottom()[1]) * UP)
        self.bar.shift((self.panel.value_x(vmin) - self.bar.point_of(vmin)[0]) * RIGHT_)
        # the positions' name under their column (the axis it names), the bar named at its left end
        self.m_name.set_y(self.lams[0].get_y())
        self.bar_name = math(N.encoding_matrix.math, size=SMALL, color=DIM)
        self.bar_name.next_to(self.bar.frame, LEFT, buff=GAP.tight)
        self.add(self.panel, self.heat, self.labels(), self.bar, self.bar_name)

    RULE = 5  # the stroke width of a pair's two-coloured rule

    def labels(self) -> VGroup:
        """The pair marks and their name, the positions and theirs (the wavelengths are apart: each comes with
        its pair)."""
        return VGroup(self.row_idx, self.pair_marks, self.pair_name, self.m_name)

    def grid(self) -> VGroup:
        """The empty matrix with what names its parts: the pair marks (their two-coloured rules) and their name."""
        return VGroup(self.outline(), self.pair_marks, self.pair_name)

    def outline(self) -> VGroup:
        """The empty matrix: every cell's outline, no fill."""
        return VGroup(*[c.copy().set_fill(opacity=0).set_stroke(DIM, 1.5) for row in self.heat.cells for c in row])

    def curves(self, x, waves, colors) -> VGroup:
        """One polyline per column of ``waves: (n, k)`` over positions ``x``, coloured ``colors[j]``
        (``(colour, role)`` pairs: each curve declares the concept its colour stands for)."""
        from scenes.kit.binding import role

        w = np.asarray(waves, dtype=float)
        return VGroup(*[role(self.panel.curve(x, w[:, j], color=colors[j][0]), colors[j][1]) for j in range(w.shape[1])])

    def samples(self, values, colors) -> VGroup:
        """Dots at every integer position for each column of ``values: (T, k)`` (column by column), filled
        with the value's colour and ringed in ``colors[j][0]`` (the wave they lie on)."""
        from manim import Dot

        v = np.asarray(values, dtype=float)
        r = min(self.DOT_MAX, self.DOT_SHARE * min(self.cell_size, self.cell_w))
        dots = VGroup()
        for j in range(v.shape[1]):
            for m in range(v.shape[0]):
                dots.add(Dot(self.panel.to_point(v[m, j], m), radius=r, fill_color=self.scale.color(v[m, j]),
                             fill_opacity=1, stroke_color=colors[j][0], stroke_width=2))
        dots.color_scale, dots.values = self.scale, v  # painted by the matrix's scale: each dot is its cell's value
        return dots

    def pair_box(self, i: int):
        """The highlight round column pair ``i``."""
        return _pair_box(self.heat, i)

    DOT_SHARE = 0.3  # a sample's radius, as a share of the cell's shorter side
    DOT_MAX = 0.085


class PairMatrix(VGroup):
    """A ``(T, d)`` matrix whose column pairs carry their own labels under them (each pair's wavelength),
    the positions down its left side, fitted to ``region`` (the labels' row named ``lam_name`` at its
    left).  The cells are as tall as the region allows (at most ``max_cell_h``) and as wide as fits
    (at most ``max_cell_w``)."""

    def __init__(self, values, scale, region, pair_labels_, lam_name, lam_small=None, max_cell_h: float = 0.75,
                 max_cell_w: float = 1.4, col_colors=None, **kw):
        from manim import LEFT, UP

        from scenes.kit.notation import N
        from scenes.kit.theme import LABEL, SMALL, label, math
        from scenes.kit.widgets import Heatmap

        super().__init__(**kw)
        v = np.asarray(values, dtype=float)
        T, D = v.shape
        idx_w = max(label(str(T - 1), size=SMALL).width + GAP.normal, lam_name.width + GAP.normal)
        labs = list(pair_labels_)
        pair_w = 2 * min((region.width - idx_w) / D, max_cell_w)
        if lam_small is not None and max(m.width for m in labs) + GAP.tight > pair_w:
            labs = list(lam_small)
        m_h = math(N.position.math, size=LABEL).height + GAP.small
        stagger = max(m.width for m in labs) + GAP.tight > pair_w
        foot = (lambda_strip_height(labs) if stagger else max(m.height for m in labs)) + GAP.small
        cell_h = min((region.height - foot - m_h) / T, max_cell_h)
        cell_w = max(cell_h, min((region.width - idx_w) / D, max_cell_w))
        self.heat = Heatmap(v, scale, cell_size=(cell_w, cell_h))
        block_h = m_h + T * cell_h + foot
        self.heat.move_to([region.center[0] + idx_w / 2, region.top - (region.height - block_h) / 2 - m_h - T * cell_h / 2, 0])
        self.lams = pair_labels(self.heat, labs, GAP.small)
        step = int(np.ceil((label("0", size=SMALL).height + GAP.tight) / cell_h))
        self.row_idx = VGroup(*[label(str(m), size=SMALL, color=DIM).next_to(self.heat.cell(m, 0), LEFT,
                                                                             buff=GAP.tight)
                                for m in range(0, T, step)])
        self.m_name = math(N.position.math, size=LABEL, color=DIM).next_to(self.row_idx, UP, buff=GAP.small)
        self.m_name.set_x(self.row_idx.get_x())
        self.lam_name = lam_name.next_to(self.heat, LEFT, buff=GAP.tight).align_to(self.lams[0], UP)
        # with ``col_colors`` (the sine's and the cosine's ink and role), over each column pair the working
        # matrix's two-coloured rule: which column is the sine, which the cosine
        self.rules = VGroup()
        if col_colors is not None:
            from manim import Line

            y = self.heat.get_top()[1] + GAP.tight
            for i in range(D // 2):
                halves = VGroup()
                for j, (ink, name) in zip((2 * i, 2 * i + 1), col_colors):
                    c = self.heat.cell(0, j)
                    halves.add(role(Line([c.get_left()[0] + GAP.hair, y, 0], [c.get_right()[0] - GAP.hair, y, 0],
                                         stroke_color=ink, stroke_width=WaveMatrix.RULE), name))
                self.rules.add(halves)
        self.labels = VGroup(self.lams, self.lam_name, self.row_idx, self.m_name, self.rules)
        self.add(self.heat, self.labels)


def readout(prefix: str, fig, size=None, color=FG):
    """A measured figure after the formula it measures, typeset as one line of math: ``max |Δ| ≈ 1.1 ×
    10⁻¹⁶`` (``=`` before a plain figure, a power of ten or an exact zero, which reads ``0`` with its
    exact mark; none before a figure that carries its own ``≈``)."""
    from scenes.kit import numbers
    from scenes.kit.theme import LABEL, figure

    f = fig if isinstance(fig, numbers.Figure) else numbers.measure(fig)
    return figure(f, size=size or LABEL, color=color, prefix=prefix if f.approx else f"{prefix} =")
