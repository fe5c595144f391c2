"""Widgets that show a measured proof: exact maps, proof lines, bits, defects and caches (first used by 03 to 05).

* :class:`CodePanel`: a listing that can point at a line;
* :class:`ExactHeatmap`: a heatmap whose exact zeros print ``0`` (a masked weight), which can
  change what it shows cell by cell (:func:`morph_cells`), scores turning into weights;
* :func:`staircase_outline`: the outline of a square map's lower (or strictly upper) triangle;
* :func:`proof_line`: a measured proof as ONE typeset line (``formula = figure``, an exact zero
  with its "exact" mark, rounding noise as ``≈ 2.2 × 10⁻¹⁶``), with a check mark when it passed;
* :class:`BitStrip` / :class:`BitPair`: the 64 bits of a float64, two of them compared bit for bit;
* :class:`DefectPlot`: a defect per prefix length on a log axis, exact zeros on the floor, each
  series labelled on the data;
* :class:`DecodeBoard`: token-by-token decoding, the K and V caches growing one row a step;
* :class:`StaleChart`: how far every past output moves when a token is appended;
* :func:`restage`: a clip's closing picture composed from what is on screen.

Like the rest of the kit they are typed over real arrays and keep what they draw (``values``,
``bits``, ``source``) so tests can read it back.  Every gap is a named house gap (``GAP``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Brace,
    Code,
    FadeIn,
    FadeOut,
    Group,
    ManimColor,
    Mobject,
    Polygon,
    Rectangle,
    RoundedRectangle,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from . import numbers
from .compose import GAP
from .layout import (FIT_XHEIGHT_PX, LayoutError, Region, _pango_xh_per_size, baseline_y, fit_label, legible_scale,
                     mark_text, min_xheight_px, overlay, spread_1d)
from .theme import (
    BG,
    DIM,
    FAINT,
    FG,
    HIGHLIGHT,
    KEY,
    LABEL,
    MONO,
    QUERY,
    SMALL,
    VALUE,
    FAILED,
    VERIFIED,
    ColorScale,
    figure,
    fmt_value,
    label,
    math,
    register_fonts,
    token_color,
)
from .plots import Plot
from .widgets import ColorBar, Heatmap

PANEL = ManimColor("#161B22")  # code panel background, one step above BG
CODE_SIZE = 24  # a listing's font size: its x-height is about 11 px at 854×480
SLICE = 'class("normal", :)'  # Typst math: the colon of a slice [:t], set without relation spacing


def upto(name: str, t: str = "t") -> str:
    """Typst math for the first ``t`` rows of ``name``: ``upto("X")`` -> ``X[:t]`` (no stray spaces)."""
    return f"{name} [{SLICE} {t}]"


def tint(expr: str, color) -> str:
    """Typst math ``expr`` set in ``color`` inside a larger formula (a query's ``q_m`` in QUERY)."""
    return f'#text(fill: rgb("{ManimColor(color).to_hex()}"), ${expr}$)'


def settle(region: Region, mob: Mobject, align=None) -> Mobject:
    """Place ``mob`` in ``region`` as it is when it fits, else fit it: smaller, never under the house's
    legible floor (``MIN_XHEIGHT_PX``; a formula whose scripts sit just above it may shrink a little)."""
    from manim import ORIGIN

    from .layout import MIN_XHEIGHT_PX

    align = ORIGIN if align is None else align
    if mob.width <= region.width + 1e-6 and mob.height <= region.height + 1e-6:
        return region.place(mob, align)
    return region.fit(mob, align, floor_px=MIN_XHEIGHT_PX)


# ====================================================================== revealing parts
def hide(*mobs: Mobject) -> None:
    """Make ``mobs`` transparent, remembering each part's opacities for :class:`Reveal`."""
    for m in mobs:
        for f in m.family_members_with_points():
            f._shown = (f.get_fill_opacities().copy(), f.get_stroke_opacities().copy())
            f.set_fill(opacity=0, family=False)
            f.set_stroke(opacity=0, family=False)


class Reveal(Animation):
    """Bring parts made transparent by :func:`hide` back, group after group (rows of a map with their
    names): group ``k`` starts a ``lag`` share of its own time after group ``k − 1`` and slides in by
    ``shift``.  The animation runs on ``holder`` (a mobject on screen that holds every part), so the
    scene never gains a container of loose parts; at the end every part is as it was."""

    def __init__(self, holder: Mobject, groups: Sequence[Sequence[Mobject]], lag: float = 0.15, shift=None, **kw):
        self.groups = [[f for m in g for f in m.family_members_with_points()] for g in groups]
        self.lag = lag
        self.offset = np.zeros(3) if shift is None else np.asarray(shift, dtype=float)
        super().__init__(holder, **kw)

    def begin(self) -> None:
        self.base = {id(f): f.points.copy() for g in self.groups for f in g}
        self.full = {id(f): getattr(f, "_shown", (f.get_fill_opacities().copy(), f.get_stroke_opacities().copy()))
                     for g in self.groups for f in g}
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        n = len(self.groups)
        span = 1.0 / (1.0 + self.lag * (n - 1)) if n else 1.0
        for k, g in enumerate(self.groups):
            a = float(np.clip((alpha - k * self.lag * span) / span, 0.0, 1.0))
            a = self.rate_func(a)
            for f in g:
                fill, stroke = self.full[id(f)]
                f.set_fill(opacity=fill * a, family=False)
                f.set_stroke(opacity=stroke * a, family=False)
                f.points = self.base[id(f)] - (1.0 - a) * self.offset

    def interpolate_submobject(self, *args, **kw) -> None:  # the whole work is done above
        return None


class Dim(Animation):
    """Focus by dimming without side effects: every part of ``mobs`` goes to ``level`` times the
    opacity it is shown at (fill and stroke each), from the level it has now; ``Dim(mobs, 1)``
    brings them back.  (``set_opacity`` would fill an outline or a hollow mark on the way back.)"""

    def __init__(self, mobs: Sequence[Mobject], level: float, **kw):
        self.parts = [f for m in mobs for f in m.family_members_with_points()]
        for f in self.parts:
            if not hasattr(f, "_full"):
                f._full = (f.get_fill_opacities().copy(), f.get_stroke_opacities().copy())
                f._level = 1.0
        self.level = float(level)
        super().__init__(Group(*mobs), **kw)

    def begin(self) -> None:
        self.start = {id(f): f._level for f in self.parts}
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        for f in self.parts:
            lv = self.start[id(f)] + (self.level - self.start[id(f)]) * a
            f._level = lv
            fill, stroke = f._full
            f.set_fill(opacity=fill * lv, family=False)
            f.set_stroke(opacity=stroke * lv, family=False)

    def interpolate_submobject(self, *args, **kw) -> None:
        return None


def row_parts(hm: Heatmap, i: int) -> list[Mobject]:
    """Row ``i`` of ``hm``: its cells and, when numbers are printed, its numbers."""
    cols = hm.values.shape[1]
    return [*hm.cells[i], *(hm.labels[i * cols:(i + 1) * cols] if hm.show_values else [])]


def value_map(values, scale: ColorScale, cell_w: float, cell_h: float, decimals: int = 2, size: float = LABEL,
              cls=Heatmap) -> Heatmap:
    """A heatmap of rectangular cells printing its values at one size (the largest that fits the widest),
    or colour alone when the numbers would fall under the legible floor."""
    hm = cls(values, scale, (cell_w, cell_h), show_values=True, decimals=decimals, value_size=size,
             uniform_values=True)
    if min_xheight_px(hm.labels) < FIT_XHEIGHT_PX:
        hm = cls(values, scale, (cell_w, cell_h))
    return hm


# ====================================================================== code
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


# ====================================================================== maps
class ExactHeatmap(Heatmap):
    """A :class:`Heatmap` whose entries that are *exactly* ``0.0`` or ``1.0`` print as ``0`` / ``1``.

    Everything else prints with ``decimals`` as usual, so an exact zero (a masked weight)
    reads differently from a small weight that rounds to ``0.00``.  :meth:`repaint_with` changes
    the scale and precision that later :func:`morph_cells` calls paint with (scores becoming
    weights in the same cells)."""

    def _label_for(self, v: float, i: int, j: int):
        if np.isfinite(v) and v in (0.0, 1.0):
            t = label("0" if v == 0.0 else "1", size=self.value_size, color=self.color_scale.text_color(v))
            overlay(self.cell(i, j), t)
            return t.move_to(self.cell(i, j))
        return super()._label_for(v, i, j)

    def repaint_with(self, scale: ColorScale, decimals: int) -> ExactHeatmap:
        self.color_scale, self.decimals = scale, decimals
        return self


def staircase_outline(hm: Heatmap, color=VERIFIED, stroke_width: float = 4, upper: bool = False) -> Polygon:
    """The outline of ``hm``'s lower triangle with its diagonal (cells ``n <= m``), as a staircase.

    With ``upper=True`` it outlines the strictly upper triangle (``n > m``) instead.
    """
    rows, cols = hm.values.shape
    if rows != cols:
        raise ValueError(f"staircase_outline needs a square heatmap, got shape {hm.values.shape}")
    n = rows
    w, h = hm.cell_w, hm.cell_h

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


def row_names(hm: Heatmap, name: str, n: int | None = None, colors: Callable | None = None, size: float = LABEL,
              gap: str = "small") -> VGroup:
    """``name_0 … name_(n-1)`` (Typst math) left of ``hm``'s rows, coloured ``colors(i)`` (default: the token's)."""
    rows = hm.values.shape[0] if n is None else n
    col = colors or token_color
    return VGroup(*[math(f"{name}_{i}", size=size, color=col(i)).next_to(hm.cell(i, 0), LEFT, buff=getattr(GAP, gap))
                    for i in range(rows)])


def row_slots(hm: Heatmap, rows: Sequence[int] | None = None) -> VGroup:
    """An empty outline over each of ``hm``'s rows (a cache slot waiting for its row)."""
    rows = range(hm.values.shape[0]) if rows is None else rows
    out = VGroup()
    for i in rows:
        r = Rectangle(width=hm.values.shape[1] * hm.cell_w, height=hm.cell_h, stroke_color=DIM, stroke_width=1.5,
                      stroke_opacity=0.6)
        out.add(r.move_to(VGroup(*hm.cells[i])))
    return out


def frame_row(hm: Heatmap, i: int, color=HIGHLIGHT) -> SurroundingRectangle:
    """An outline around row ``i`` of ``hm`` (the row the narration is on)."""
    return SurroundingRectangle(VGroup(*hm.cells[i]), color=color, buff=GAP.hair / 2, stroke_width=3)


# ====================================================================== marks and proofs
def check_mark(size: float = 0.3, color=VERIFIED, stroke_width: float = 5) -> VMobject:
    """A drawn check mark (a graphic, so no font needs the glyph), ``size`` units wide."""
    m = VMobject(stroke_color=color, stroke_width=stroke_width)
    m.set_points_as_corners([[-0.5, 0.0, 0], [-0.15, -0.35, 0], [0.5, 0.4, 0]])
    m.set_fill(opacity=0)
    return m.scale(size)


def proof_line(formula: str, value, size: float = LABEL, passed: bool | None = None, color=FG) -> VGroup:
    """A measured proof as one typeset line: ``formula = figure`` (``formula ≈ 2.2 × 10⁻¹⁶`` for
    rounding noise, ``formula = 0`` with the "exact" mark for an exact zero).  With ``passed`` a
    check mark in VERIFIED stands before it (``True``) or nothing (``False``).

    ``.value`` is the typeset line (its ``.figure`` is the ``numbers.Figure`` printed), ``.check``
    the mark (or an empty group), ``.formula`` the Typst source of the formula."""
    f = value if isinstance(value, numbers.Figure) else numbers.measure(value)
    line = figure(f, size=size, color=color, prefix=formula + " =")  # the kit sets "≈" alone for noise
    mark = check_mark(size / LABEL * 0.32) if passed else VGroup()
    g = VGroup(mark, line) if passed else VGroup(line)
    if passed:
        g.arrange(RIGHT, buff=GAP.small)
        mark.set_y(line[0].get_center()[1] if f.exact else line.get_center()[1])
    g.value, g.check, g.formula, g.figure = line, mark, formula, f
    return g


# ====================================================================== bits
class BitStrip(VGroup):
    """The 64 bits of a float64 as a strip of cells (most significant first): a set bit filled in
    ``FG``, a clear bit in ``FAINT``, a small gap between the sign, the exponent and the fraction.
    ``bits`` is the ``(64,)`` array drawn; ``cells[k]`` is bit ``k``'s cell."""

    def __init__(self, bits, cell: float = 0.16, height: float = 0.3, fields=((1, "sign"), (11, "exponent"),
                                                                              (52, "fraction")), **kw):
        super().__init__(**kw)
        b = np.asarray(bits, dtype=np.uint8)
        if b.shape != (64,):
            raise ValueError(f"a float64 has 64 bits, got shape {b.shape}")
        self.bits = b
        self.cell_w = cell
        self.cells = VGroup()
        x, k = 0.0, 0
        self.fields = {}  # field name -> (first bit, one past the last)
        for n, name in fields:
            self.fields[name] = (k, k + n)
            for _ in range(n):
                r = Rectangle(width=cell * 0.82, height=height, stroke_width=0,
                              fill_color=FG if b[k] else FAINT, fill_opacity=0.95 if b[k] else 1.0)
                self.cells.add(r.move_to([x + cell / 2, 0, 0]))
                x += cell
                k += 1
            x += cell * 0.6  # a field gap
        self.add(self.cells)

    def field_labels(self, size: float = SMALL, names: Sequence[str] = ("exponent", "fraction")) -> VGroup:
        """The field names under the strip (the sign field is one cell: too narrow to name)."""
        out = VGroup()
        for name in names:
            a, b = self.fields[name]
            out.add(label(name, size=size, color=DIM).next_to(VGroup(*self.cells[a:b]), DOWN, buff=GAP.tight))
        return out


class BitPair(VGroup):
    """Two float64 values bit for bit: each a :class:`BitStrip` (sign, exponent and fraction set
    apart by small gaps) with its name (Typst math) on the left; the bits that differ are outlined in ``HIGHLIGHT`` on both strips; over the strips, the
    ``title`` on the left and, on the right, how many of the 64 agree (``"64 of 64 bits equal"``,
    with a check when all do).

    ``strips`` are the two strips, ``differ`` the ``(64,)`` bool array, ``marks`` the outlines
    of the differing bits, ``readout`` the words."""

    def __init__(self, names: Sequence[str], bits: Sequence, width: float, size: float = LABEL, title: str = "",
                 title_color=FG, **kw):
        super().__init__(**kw)
        a, b = (np.asarray(x, dtype=np.uint8) for x in bits)
        self.differ = a != b
        heads = [math(n, size=size) for n in names]
        head_w = max(h.width for h in heads) + GAP.normal
        same = int((~self.differ).sum())
        words = f"{same} of 64 bits equal"
        self.readout = VGroup(check_mark(0.3), label(words, size=SMALL, color=VERIFIED)) if same == 64 else \
            VGroup(label(words, size=SMALL, color=HIGHLIGHT))
        self.readout.arrange(RIGHT, buff=GAP.small)
        probe = BitStrip(a)
        cell = probe.cell_w * (width - head_w) / probe.width
        if cell < GAP.hair * 1.5:
            raise LayoutError(f"64 bits do not fit {width:.2f} units beside their names")
        self.strips = VGroup(BitStrip(a, cell=cell), BitStrip(b, cell=cell)).arrange(DOWN, buff=GAP.small)
        self.heads = VGroup()
        for h, s in zip(heads, self.strips):
            h.next_to(s, LEFT, buff=GAP.normal)
            self.heads.add(h)
        left = min(h.get_left()[0] for h in self.heads)
        for h in self.heads:  # the names left-aligned
            h.shift((left - h.get_left()[0]) * RIGHT)
        self.marks = VGroup()
        for s in self.strips:
            for k in np.flatnonzero(self.differ):
                self.marks.add(SurroundingRectangle(s.cells[int(k)], color=HIGHLIGHT, buff=GAP.hair / 2,
                                                    stroke_width=3))
        body = VGroup(self.heads, self.strips)
        self.title = label(title, size=LABEL, color=title_color) if title else VGroup()
        top = VGroup(self.title, self.readout) if title else VGroup(self.readout)
        for m in top:
            m.next_to(body, UP, buff=GAP.small)
        if title:
            self.title.align_to(body, LEFT)
        self.readout.align_to(body, RIGHT)
        self.add(self.title, self.readout, self.heads, self.strips, self.marks)


# ====================================================================== plots
class DefectPlot(VGroup):
    """A measured defect per prefix length ``t = 1 … T`` on a log axis, for one or more kernels.

    ``series`` is ``[(name, values, colour)]``.  A positive value is a bar up to it; an exact zero,
    which a log axis has no place for, is a hollow diamond on the floor.  Each series is labelled
    on the data, right of the plot at the height of its largest value: its name over its maximum
    as the lecture prints it (``0`` exact, ``≈ 2.2 × 10⁻¹⁶``).  ``marks[name]`` are the marks (each
    with ``.value`` and ``.exact``; ``marks[name].xs`` their x), ``tags[name]`` the labels."""

    def __init__(self, series: Sequence[tuple[str, np.ndarray, object]], region: Region, title: Mobject,
                 x_title: Mobject, **kw):
        super().__init__(**kw)
        values = np.concatenate([np.asarray(v, float) for _, v, _ in series])
        T = len(series[0][1])
        pos = values[values > 0]
        lo = min(-17, int(np.floor(np.log10(pos.min())))) if pos.size else -17
        hi = max(lo + 2, int(np.ceil(np.log10(pos.max()) + 1e-9))) if pos.size else lo + 2
        ticks = [10.0 ** k for k in numbers.log_ticks(lo, hi, most=4)]
        self.title = title
        self.tags = {}
        tag_mobs = []
        for name, v, color in series:
            top = float(np.max(v))
            tag = VGroup(label(name, size=SMALL, color=color), figure(top, size=SMALL, color=color))
            tag.arrange(DOWN, buff=GAP.tight, aligned_edge=LEFT)  # the name over its figure: a narrow column
            self.tags[name] = tag
            tag_mobs.append(tag)
        tag_w = max(t.width for t in tag_mobs) + GAP.normal
        title_strip, rest = region.take_top(title.height, gap=GAP.normal)
        title_strip.place(title)
        probe = Plot((0.5, T + 0.5), (10.0 ** lo, 10.0 ** hi), width=2, height=2, y_log=True, x_ticks=[1],
                     y_ticks=ticks)
        tick_w = max(t.width for t in probe.y_tick_labels) + GAP.normal
        below = probe.axes.get_bottom()[1] - probe.get_bottom()[1] + GAP.tight + x_title.height
        width = rest.width - tick_w - tag_w
        height = rest.height - below
        self.plot = Plot((0.5, T + 0.5), (10.0 ** lo, 10.0 ** hi), width=width, height=height, y_log=True,
                         x_ticks=list(range(1, T + 1)), y_ticks=ticks)
        self.plot.shift([rest.left + tick_w - self.plot.axes.get_left()[0], rest.top - self.plot.axes.get_top()[1], 0])
        self.x_title = x_title.next_to(self.plot.x_tick_labels, DOWN, buff=GAP.tight)
        n = len(series)
        spread = 0.4  # data units: the kernels' marks either side of each t
        offs = [0.0] if n == 1 else list(np.linspace(-spread / 2, spread / 2, n))
        bar_w = spread / max(n, 1) * 0.8 * self.plot.width_units / (T + 1)
        self.marks = {}
        for (name, v, color), dx in zip(series, offs):
            marks = VGroup()
            xs = np.arange(1, T + 1) + dx
            for x, val in zip(xs, v):
                if val == 0.0:
                    mk = self.plot.exact_zero(x, color=color, text=None)
                    mk.exact = True
                else:
                    mk = self.plot.bars([x], [val], bar_width=bar_w, colors=color)
                    mk.value, mk.exact = float(val), False
                marks.add(mk)
            marks.xs = xs
            self.marks[name] = marks
        # the labels right of the plot at the height of their series' largest value, spread apart
        right = self.plot.axes.get_right()[0] + GAP.normal
        anchors = []
        for (name, v, _), tag in zip(series, tag_mobs):
            top = float(np.max(v))
            y = self.plot.to_point(T, top)[1] if top > 0 else self.plot.axes.get_bottom()[1] + tag.height / 2
            anchors.append(y)
        ys = spread_1d(anchors, [t.height for t in tag_mobs], self.plot.axes.get_bottom()[1],
                       self.plot.axes.get_top()[1], GAP.small)
        for tag, y in zip(tag_mobs, ys):
            tag.move_to([right + tag.width / 2, y, 0])
        self.add(title, self.plot, self.x_title)


class StaleChart(VGroup):
    """How far each past output moves when token ``m`` is appended (``staleness[m-1]: (m,)``), as
    groups of bars on a log axis, bar ``n`` of a group in token ``n``'s colour.  ``bar_groups[m-1]``
    are the bars of token ``m``, ``bar_x[m-1]`` their x."""

    def __init__(self, staleness: Sequence[np.ndarray], region: Region, y_title: Mobject,
                 x_label: str = "token appended", **kw):
        super().__init__(**kw)
        T = len(staleness) + 1
        hi = max(float(s.max()) for s in staleness)
        lo = min(float(s.min()) for s in staleness)
        if not lo > 0:
            raise LayoutError("a log axis of changes needs every change positive")
        lo_e, hi_e = int(np.floor(np.log10(lo) - 0.5)), int(np.ceil(np.log10(hi) + 0.01))
        ticks = [10.0 ** k for k in numbers.log_ticks(lo_e, hi_e, most=5)]
        title_strip, rest = region.take_top(y_title.height, gap=GAP.small)
        probe = Plot((0.4, T - 0.4), (10.0 ** lo_e, 10.0 ** hi_e), width=2, height=2, y_log=True, x_ticks=[1],
                     y_ticks=ticks, x_label=x_label)
        tick_w = max(t.width for t in probe.y_tick_labels) + GAP.normal
        below = probe.axes.get_bottom()[1] - probe.get_bottom()[1]
        self.plot = Plot((0.4, T - 0.4), (10.0 ** lo_e, 10.0 ** hi_e), width=rest.width - tick_w,
                         height=rest.height - below, y_log=True, x_ticks=list(range(1, T)), y_ticks=ticks,
                         x_label=x_label)
        self.plot.shift([rest.right - self.plot.axes.get_right()[0], rest.top - self.plot.axes.get_top()[1], 0])
        y_title.next_to(self.plot.axes[1].get_top(), UP, buff=GAP.small).align_to(self.plot.axes[1], LEFT)
        self.y_title = y_title
        gap = min(0.15, 0.8 / max(T - 1, 1))  # data units between a group's bars
        unit = self.plot.width_units / (self.plot.x_range[1] - self.plot.x_range[0])
        self.bar_x = [[m + (n - (m - 1) / 2) * gap for n in range(m)] for m in range(1, T)]
        self.bar_groups = [self.plot.bars(xs, s, bar_width=gap * unit * 0.75, colors=[token_color(n) for n in range(m)])
                           for m, (xs, s) in enumerate(zip(self.bar_x, staleness), start=1)]
        self.add(self.plot, y_title)


# ====================================================================== decoding
class DecodeBoard(VGroup):
    """Token-by-token decoding in ``region``: columns ``K cache | weights | V cache | outputs | check``,
    one row per token, the new query's row above the K cache, the tokens in a row underneath.

    Concept colours: the K cache and its rows ``k_n`` in ``KEY``, the V cache and ``v_n`` in
    ``VALUE``, the query ``q_m`` in ``QUERY``; every cell by the one ``scale`` of the clip.
    ``K_map``, ``V_map``, ``Y_map`` show the last step's caches and every output; ``weights[m]``
    are step ``m``'s numbers and bars; ``checks[m]`` the mark of step ``m`` (a check for an exact
    recompute, else its measured figure); ``tags`` the words on the data for the cached rows and
    the new one; ``bottom`` the strip under the rows (the tokens, later the proof)."""

    MAX_CELL_W, MAX_CELL_H = 1.25, 0.9  # cache and output cells, at most
    BAR_LEN = 1.2  # a weight of 1 as a bar, where the cells have room
    MIN_BAR_LEN = 0.8  # ... shortened down to this to keep the cells at least COMFORT_CELL_W wide
    COMFORT_CELL_W = 0.36

    def __init__(self, steps, Y, scale: ColorScale, region: Region, bottom_h: float, aside_w: float, **kw):
        super().__init__(**kw)
        T = len(steps)
        K, V = steps[-1].K_cache, steps[-1].V_cache
        dm = K.shape[1]
        self.scale = scale
        bottom, rest = region.take_bottom(bottom_h, gap=GAP.normal)
        self.aside, self.bottom = bottom.take_right(aside_w, gap=GAP.wide)
        head_h = label("K cache", size=SMALL).height
        heads_strip, rest = rest.take_top(head_h, gap=GAP.small)
        lab_w = math(f"k_{T - 1}", size=LABEL).width + GAP.small + GAP.hair
        num_w = label("0.00", size=SMALL).width
        chk_w = max([check_mark(0.3).width, *(figure(s.recompute_defect, size=SMALL).width
                                              for s in steps if s.recompute_defect != 0.0)]) + GAP.tight
        self.tag_words = (label("cached", size=SMALL, color=DIM), label("new", size=SMALL, color=HIGHLIGHT))
        brace_w = GAP.normal
        tag_w = brace_w + GAP.tight + max(t.width for t in self.tag_words)
        gap = GAP.normal
        fixed = 3 * lab_w + num_w + GAP.tight + chk_w + tag_w + 5 * gap  # all but the bars and the cells
        # the bars give up to BAR_LEN - MIN_BAR_LEN before the cells go under their comfortable width
        short = 3 * dm * self.COMFORT_CELL_W - (rest.width - fixed - self.BAR_LEN)
        self.bar_len = float(np.clip(self.BAR_LEN - short, self.MIN_BAR_LEN, self.BAR_LEN))
        w_col = num_w + GAP.tight + self.bar_len
        fixed += self.bar_len
        cw = min(self.MAX_CELL_W, (rest.width - fixed) / (3 * dm))
        q_gap = GAP.normal
        q_min = 2 * label("x", size=SMALL).height + GAP.normal  # the query's note holds two lines
        ch = min(self.MAX_CELL_H, (rest.height - q_gap) / (T + 1.3), (rest.height - q_gap - q_min) / T)
        if cw < GAP.normal or ch < GAP.normal:
            raise LayoutError(f"the decoding board of {T} tokens × {dm} features does not fit {region.name!r}")
        self.cell_w, self.cell_h = cw, ch
        q_row_h = max(1.3 * ch, q_min)
        drop = max(0.0, rest.height - q_row_h - q_gap - T * ch) / 2  # few tokens: the picture sits mid-height
        rows_top = rest.top - drop - q_row_h - q_gap
        total = fixed + 3 * dm * cw
        x = region.center[0] - total / 2
        xs = {}
        for name, w in (("K", lab_w + dm * cw), ("W", w_col), ("V", lab_w + dm * cw), ("Y", lab_w + dm * cw),
                        ("C", chk_w), ("T", tag_w)):
            xs[name] = x
            x += w + gap
        self.row_y = lambda i: rows_top - (i + 0.5) * ch

        def block(values, key):
            hm = Heatmap(values, scale, (cw, ch))
            return hm.move_to([xs[key] + lab_w + dm * cw / 2, rows_top - T * ch / 2, 0])

        self.K_map, self.V_map, self.Y_map = block(K, "K"), block(V, "V"), block(Y, "Y")
        self.slots = VGroup(*[row_slots(hm) for hm in (self.K_map, self.V_map, self.Y_map)])
        self.k_labels = row_names(self.K_map, "k", colors=lambda i: KEY)
        self.v_labels = row_names(self.V_map, "v", colors=lambda i: VALUE)
        self.y_labels = row_names(self.Y_map, "y")
        hy = heads_strip.center[1] - drop
        self.heads = VGroup(
            label("K cache", size=SMALL, color=KEY).move_to([self.K_map.get_center()[0], hy, 0]),
            label("weights", size=SMALL).move_to([xs["W"] + w_col / 2, hy, 0]),
            label("V cache", size=SMALL, color=VALUE).move_to([self.V_map.get_center()[0], hy, 0]),
            label("outputs", size=SMALL).move_to([self.Y_map.get_center()[0], hy, 0]),
        )
        base = baseline_y(self.heads[0])
        for h in self.heads[1:]:  # one baseline for all four, whatever their descenders
            h.shift((base - baseline_y(h)) * UP)

        # the query row above the K cache, its note above the weights
        q_y = rest.top - drop - q_row_h / 2
        self.q_map = Heatmap(steps[0].q[None, :], scale, (cw, ch * 1.3)).move_to([self.K_map.get_center()[0], q_y, 0])
        self.q_slot = Rectangle(width=dm * cw, height=ch * 1.3, stroke_color=DIM, stroke_width=1.5,
                                stroke_opacity=0.6).move_to(self.q_map)
        self.q_note = fit_label("only the new query", w_col + GAP.small, size=SMALL, color=DIM, max_lines=2)
        self.q_note.move_to([xs["W"] + w_col / 2, q_y, 0])
        self.q_labels = [math(f"q_{s.t}", size=LABEL, color=QUERY).next_to(self.q_map, LEFT, buff=GAP.small)
                         for s in steps]

        # per step: the weights (numbers and bars) and the row's mark
        self.weights = []
        for s in steps:
            nums = VGroup(*[label(fmt_value(w, 2), size=SMALL).move_to([xs["W"] + num_w / 2, self.row_y(i), 0])
                            for i, w in enumerate(s.weights)])
            bars = RowBars(s.weights, vmax=1.0, length=self.bar_len, row_height=ch, thickness=min(0.28, ch * 0.55))
            bars.shift(np.array([xs["W"] + num_w + GAP.tight - bars.bars[0].get_left()[0],
                                 self.row_y(0) - bars.bars[0].get_center()[1], 0]))
            self.weights.append(VGroup(nums, bars))
        self.checks = VGroup()
        for s in steps:
            where = [xs["C"] + chk_w / 2, self.row_y(s.t), 0]
            if s.recompute_defect == 0.0:
                mk = check_mark(0.3).move_to(where)
            else:
                mk = figure(s.recompute_defect, size=SMALL, color=HIGHLIGHT).move_to(where)
            mk.defect = s.recompute_defect
            self.checks.add(mk)
        self.status = [numbers.measure(s.recompute_defect).text for s in steps]

        # the words on the data: a brace over the cached rows, "new" beside the last one
        tx = xs["T"]
        self.tags = VGroup()
        if T > 1:
            span = Rectangle(width=GAP.tight, height=(T - 1) * ch).move_to([tx, rows_top - (T - 1) * ch / 2, 0])
            brace = Brace(span, RIGHT, buff=0, color=DIM).move_to([tx + brace_w / 2, span.get_center()[1], 0])
            cached = self.tag_words[0].next_to(brace, RIGHT, buff=GAP.tight)
            self.tags.add(VGroup(brace, cached))
        new = self.tag_words[1].move_to([tx + brace_w + GAP.tight + self.tag_words[1].width / 2, self.row_y(T - 1), 0])
        self.tags.add(new)

        # the tokens, in the order decoding reads them
        chips = VGroup()
        for i in range(T):
            name = math(f"x_{i}", size=LABEL)
            box = RoundedRectangle(corner_radius=0.1, width=name.width + 2 * GAP.small, height=self.bottom.height * 0.9,
                                   stroke_color=token_color(i), stroke_width=3, fill_color=token_color(i),
                                   fill_opacity=0.12)
            name.move_to(box)
            overlay(box, name)
            chips.add(VGroup(box, name))
        chips.arrange(RIGHT, buff=GAP.small)
        self.chips = chips
        self.tokens = VGroup(label("tokens", size=SMALL, color=DIM), chips).arrange(RIGHT, buff=GAP.normal)
        settle(self.bottom, self.tokens)

    def markers_for(self, m: int) -> list:
        return [frame_row(hm, m) for hm in (self.K_map, self.V_map, self.Y_map)]


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


# ====================================================================== closing pictures
def restage(scene, parts: Sequence[Mobject], compose: Callable[[list[Mobject]], Mobject], region: Region,
            fill: float = 0.86, most: float = 2.2) -> list:
    """The closing picture: ``compose`` arranges copies of ``parts`` (in order) into one group, which
    is fitted to ``region`` (``fill`` of it, growing at most ``most`` times); every part on screen
    moves and grows into its place, a part not on screen fades in there, and everything else but
    the header fades out.  Returns the animations; ``scene.closing_picture`` holds the final mobjects."""
    targets = [p.copy() for p in parts]
    group = compose(targets)
    s = min(region.fit_scale(group, np.inf) * fill, most)
    if s < legible_scale(group):  # rather fill more of the region than shrink the text under the floor
        s = min(legible_scale(group), region.fit_scale(group, np.inf))
    group.scale(s).move_to(region.center)
    on_screen = {id(f) for m in scene.mobjects for f in m.get_family()}
    keep = {id(f) for p in parts for f in p.get_family()} | {id(f) for f in scene.header.get_family()}
    leaves = [f for m in scene.mobjects for f in m.get_family()
              if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
    moves, arrivals, finals = [], [], []
    for p, t in zip(parts, targets):
        if any(id(f) in on_screen for f in p.family_members_with_points()):
            moves.append(Transform(p, t))
        else:  # not on screen: it appears in its place (the part itself, so it keeps its names)
            p.become(t)
            arrivals.append(FadeIn(p))
        finals.append(p)
    scene.closing_picture = finals
    # the rest fades first, then the parts move into place and the new ones arrive: never two pictures
    # on top of each other
    if not leaves:
        return [*moves, *arrivals]
    return [Succession(FadeOut(Group(*leaves)), AnimationGroup(*moves, *arrivals))]


__all__ = ["BitPair", "BitStrip", "CODE_SIZE", "CodePanel", "DecodeBoard", "DefectPlot", "Dim", "ExactHeatmap", "PANEL",
           "Reveal", "RowBars", "SLICE", "StaleChart", "check_mark", "frame_row", "hide", "morph_cells", "proof_line",
           "restage", "row_names", "row_parts", "row_slots", "settle", "staircase_outline", "tint", "upto", "value_map"]


def readout(prefix: str, x, size: float = LABEL, color=FG):
    """``prefix = 0.83`` / ``prefix ≈ 2.2 × 10⁻¹⁶`` / ``prefix = 0 exact``, typeset on one math line."""
    return figure(x, size=size, color=color, prefix=f"{prefix} =")


def measured_line(lhs: str, x: float, size: float = LABEL, digits: int = 2):
    """A measured figure typeset with the statement it measures, on one math line (``lhs ≈ 2.2 ×
    10⁻¹⁶``, ``lhs = 0`` with its exact mark), in the colour of the check's verdict against the
    deck's pass line (``mathcore.equivariance.THRESHOLD``)."""
    from mathcore.equivariance import THRESHOLD

    fig = numbers.measure(x, digits)
    color = VERIFIED if abs(x) < THRESHOLD else FAILED
    return figure(fig, size=size, color=color, prefix=f"{lhs} =")  # the kit writes "≈" alone for an approximate one
