"""The widgets only clip 04 draws (``scenes/clips/c04_prefix_invariance.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Mobject,
    Rectangle,
    SurroundingRectangle,
    VGroup,
)

from scenes.kit import numbers
from scenes.kit.compose import GAP
from scenes.kit.layout import (
    LayoutError,
    Region,
    spread_1d,
)
from scenes.kit.plots import Plot
from scenes.kit.proofs import check_mark
from scenes.kit.theme import (
    DIM,
    FAINT,
    FG,
    HIGHLIGHT,
    LABEL,
    SMALL,
    VERIFIED,
    figure,
    label,
    math,
)


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
