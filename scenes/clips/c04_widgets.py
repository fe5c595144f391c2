"""The widgets only clip 04 draws (``scenes/clips/c04_prefix_invariance.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Brace,
    Line,
    Mobject,
    Rectangle,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
)

from scenes.kit import numbers
from scenes.kit.binding import role
from scenes.kit.compose import GAP
from scenes.kit.layout import (
    LayoutError,
    Region,
    overlay,
    spread_1d,
)
from scenes.kit.plots import Plot
from scenes.kit.theme import (
    BG,
    DIM,
    FAINT,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    label,
    math,
)

FIELDS = ((1, "sign"), (11, "exponent"), (52, "fraction"))  # IEEE 754 binary64, most significant first


class BitStrip(VGroup):
    """The 64 bits of a float64 as a strip of cells (most significant first): a set bit filled in
    ``FG``, a clear bit in ``FAINT``, a small gap between the sign, the exponent and the fraction.
    ``bits`` is the ``(64,)`` array drawn; ``cells[k]`` is bit ``k``'s cell; ``fields[name]`` the
    ``(first, one past the last)`` bit of each field."""

    def __init__(self, bits, cell: float = 0.16, height: float = 0.3, fields=FIELDS, **kw):
        super().__init__(**kw)
        b = np.asarray(bits, dtype=np.uint8)
        if b.shape != (64,):
            raise ValueError(f"a float64 has 64 bits, got shape {b.shape}")
        self.bits = b
        self._data_cells = True  # the audit: a clear bit's faint cell is content, and holds the strip together
        self.cell_w = cell
        self.cells = VGroup()
        x, k = 0.0, 0
        self.fields = {}
        for n, name in fields:
            self.fields[name] = (k, k + n)
            for _ in range(n):
                r = Rectangle(width=cell * 0.82, height=height, stroke_width=0,
                              fill_color=FG if b[k] else FAINT, fill_opacity=1.0)
                self.cells.add(r.move_to([x + cell / 2, 0, 0]))
                x += cell
                k += 1
            x += cell * 0.6  # a field gap
        self.add(self.cells)


def strip_width(cell: float) -> float:
    """How wide a :class:`BitStrip` of cells ``cell`` wide is: 64 cells and two field gaps."""
    return cell * (64 + 0.6 * (len(FIELDS) - 1)) - cell * 0.18


class BitBoard(VGroup):
    """One output entry from two passes, bit for bit, as the subject of a frame: each value's 64 bits as a
    strip across the content's width, its name and its value printed in full above it (the shortest
    decimal that is that float64); the fields named under the strips with braces (sign, the 11 bits
    of the exponent, the 52 of the fraction); and the last ``zoom`` fraction bits of both values
    magnified, 0s and 1s printed, beside the verdict.  Bits that differ are outlined in ``HIGHLIGHT``
    on the strips and in the zoom, and a tag beside the zoom names the difference in units in the
    last place (``1 ulp``) when there is one.

    ``strips``, ``heads``, ``braces``, ``zoom_rows`` (each the cells and digits of one value), ``marks``
    (the outlines of differing bits), ``differ`` (the ``(64,)`` bool array), ``tag`` (the ulp tag or an
    empty group) and ``verdict_slot`` (the region the verdict takes) name the parts."""

    @classmethod
    def fitted(cls, heads: Sequence[Mobject], bits, region: Region, ulps: int = 0) -> BitBoard:
        """The board with strips as tall as ``region`` allows, everything inside it."""
        strip_h = 0.9
        for _ in range(6):
            board = cls([h.copy() for h in heads], bits, region, ulps=ulps, strip_h=strip_h)
            over = region.bottom - board.get_bottom()[1]
            if over <= 1e-6:  # it fits: the room it leaves split above and below (short heads leave a band)
                slack = -over / 2
                board.shift(slack * DOWN)
                vs = board.verdict_slot  # level with the zoom it stands beside
                zc = board.zoom_rows.get_y()
                half = min(zc - region.bottom, vs.top - slack - zc)
                board.verdict_room = Region(vs.left, vs.right, vs.bottom - slack, vs.top - slack, vs.name)
                board.verdict_slot = Region(vs.left, vs.right, zc - half, zc + half, vs.name)
                return board
            strip_h -= over / 2 + 0.01
            if strip_h < 0.25:
                break
        raise LayoutError(f"the bits of two float64 values do not fit region {region.name!r}")

    def __init__(self, heads: Sequence[Mobject], bits, region: Region, ulps: int = 0, zoom: int = 8,
                 strip_h: float = 0.9, **kw):
        super().__init__(**kw)
        a, b = (np.asarray(x, dtype=np.uint8) for x in bits)
        self.differ = a != b
        last = int(np.flatnonzero(self.differ)[0]) if self.differ.any() else 64
        zoom = max(zoom, min(64 - last, 16))  # every differing bit in the zoom (at most the last 16)
        self.zoom = zoom
        cell = (region.width - GAP.tight * 2) / (64 + 1.2 - 0.18)
        if cell < GAP.hair * 1.5:
            raise LayoutError(f"64 bits do not fit {region.width:.2f} units")
        self.heads = VGroup(*heads)
        field_names = VGroup(*[label(name, size=SMALL, color=DIM) for _, name in FIELDS])
        zoom_cell = min(0.62, (region.width * 0.5) / zoom)
        self.strips = VGroup(BitStrip(a, cell=cell, height=strip_h), BitStrip(b, cell=cell, height=strip_h))
        y = region.top
        for h, s in zip(self.heads, self.strips):
            h.move_to([region.left + GAP.tight + h.width / 2, y - h.height / 2, 0])
            y -= h.height + GAP.small
            s.move_to([region.center[0], y - strip_h / 2, 0])
            y -= strip_h + GAP.small
        # the fields under the lower strip
        self.braces = VGroup()
        low = self.strips[1]
        for (n, name), word in zip(FIELDS, field_names):
            i0, i1 = low.fields[name]
            cells = VGroup(*low.cells[i0:i1])
            if n > 1:
                br = Brace(cells, DOWN, buff=GAP.hair, color=DIM)
                word.next_to(br, DOWN, buff=GAP.hair)
                self.braces.add(VGroup(br, word))
            else:  # one cell: a tick down to a line of its own, under the others' names
                drop = 0.3 + field_names.height + GAP.tight
                tick = Line(cells.get_bottom() + DOWN * GAP.hair, cells.get_bottom() + DOWN * drop, color=DIM,
                            stroke_width=2)
                word.next_to(tick, DOWN, buff=GAP.hair).align_to(cells, LEFT)
                self.braces.add(VGroup(tick, word))
        # the outlines of the differing bits, on both strips
        self.marks = VGroup()
        for s in self.strips:
            for k in np.flatnonzero(self.differ):
                self.marks.add(SurroundingRectangle(s.cells[int(k)], color=HIGHLIGHT, buff=GAP.hair / 2,
                                                    stroke_width=3))
        role(self.marks, "highlight")
        # the zoom: the last bits of both values, large, their 0s and 1s printed, named above
        self.zoom_title = label(f"the last {zoom} bits", size=SMALL, color=DIM)
        top = self.braces.get_bottom()[1] - GAP.small - self.zoom_title.height - GAP.tight
        self.zoom_rows = VGroup()
        x_right = region.right - GAP.tight
        for r, bits_ in enumerate((a, b)):
            cells, digits = VGroup(), VGroup()
            for i, k in enumerate(range(64 - zoom, 64)):
                on = bool(bits_[k])
                c = Rectangle(width=zoom_cell * 0.9, height=zoom_cell * 0.9, stroke_width=0,
                              fill_color=FG if on else FAINT, fill_opacity=1.0)
                c.move_to([x_right - (zoom - i - 0.5) * zoom_cell, top - (r + 0.5) * zoom_cell - r * GAP.tight, 0])
                t = label("1", size=LABEL, color=BG) if on else label("0", size=LABEL, color=FG)
                t.scale_to_fit_height(min(t.height, zoom_cell * 0.55)).move_to(c)
                overlay(c, t)
                cells.add(c)
                digits.add(t)
            self.zoom_rows.add(VGroup(cells, digits))
        self.zoom_title.next_to(self.zoom_rows, UP, buff=GAP.tight)  # centred: inside the leaders' fan
        self.zoom_marks = VGroup()
        for row_ in self.zoom_rows:
            for i, k in enumerate(range(64 - zoom, 64)):
                if self.differ[k]:
                    self.zoom_marks.add(SurroundingRectangle(row_[0][i], color=HIGHLIGHT, buff=GAP.hair / 2,
                                                             stroke_width=4))
        role(self.zoom_marks, "highlight")
        # leader lines from the strips' last bits to the zoom
        src = VGroup(*self.strips[1].cells[64 - zoom:])
        dst = VGroup(self.zoom_rows, self.zoom_title)  # to the zoom's top corners, over its title: no line crosses it
        self.leaders = VGroup(
            Line(src.get_corner(DOWN + LEFT) + DOWN * 0.05, dst.get_corner(UP + LEFT) + UP * 0.05,
                 color=DIM, stroke_width=1.5),
            Line(src.get_corner(DOWN + RIGHT) + DOWN * 0.05, dst.get_corner(UP + RIGHT) + UP * 0.05,
                 color=DIM, stroke_width=1.5),
        )
        # the fraction's name clear of the left leader: where the leader runs through it (a wide zoom reaches
        # far left), the name moves left under its brace, to the leader's x at the name's foot
        word = self.braces[-1][1]
        a, b = self.leaders[0].get_start(), self.leaders[0].get_end()
        y = word.get_bottom()[1]
        if min(a[1], b[1]) < y < max(a[1], b[1]):
            x_at = a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1])
            over = word.get_right()[0] - (min(x_at, a[0]) - GAP.small)
            if over > 0 and word.get_left()[0] < x_at:
                word.shift(min(over, word.get_left()[0] - self.braces[-1][0].get_left()[0]) * LEFT)
        self.tag = VGroup()
        if ulps:
            self.tag = role(label(f"{ulps} ulp" if ulps == 1 else f"{ulps} ulps", size=HEADING, color=HIGHLIGHT),
                            "highlight")
            self.tag.next_to(self.zoom_rows, LEFT, buff=GAP.normal)
        left_of = (self.tag if ulps else self.zoom_rows).get_left()[0] - GAP.normal
        self.verdict_slot = Region(region.left, left_of, region.bottom, self.braces.get_bottom()[1] - GAP.small,
                                   "verdict")
        self.add(self.heads, self.strips, self.braces, self.marks, self.leaders, self.zoom_rows, self.zoom_marks,
                 self.zoom_title, self.tag)


class DefectPlot(VGroup):
    """A measured defect per prefix length ``t = 1 … T`` on a log axis, for one or more kernels.

    ``series`` is ``[(name, values, colour, verdict)]``.  A positive value is a bar up to it; an exact
    zero, which a log axis has no place for, is a hollow diamond on the floor.  Each series is labelled on
    the data, right of the plot at the height of its largest value: its name over its verdict (the deck's
    ``proofs.verdict``, its measured maximum).  ``marks[name]`` are the marks (each with ``.value`` and
    ``.exact``; ``marks[name].xs`` their x), ``tags[name]`` the labels (name and verdict); ``key`` says on
    the plot what a diamond on the floor means (a difference of 0), just under the lowest label (the zeros' series)."""

    def __init__(self, series: Sequence[tuple], region: Region, title: Mobject, x_title: Mobject, **kw):
        super().__init__(**kw)
        values = np.concatenate([np.asarray(v, float) for _, v, _, _ in series])
        T = len(series[0][1])
        pos = values[values > 0]
        lo = min(-17, int(np.floor(np.log10(pos.min())))) if pos.size else -17
        hi = max(lo + 2, int(np.ceil(np.log10(pos.max()) + 1e-9))) if pos.size else lo + 2
        ticks = [10.0 ** k for k in numbers.log_ticks(lo, hi, most=4)]
        self.title = title
        self.tags = {}
        tag_mobs = []
        for name, _, color, verdict in series:
            word = label(name, size=LABEL, color=color)
            if color == HIGHLIGHT:
                role(word, "highlight")
            tag = VGroup(word, verdict).arrange(DOWN, buff=GAP.tight, aligned_edge=LEFT)
            self.tags[name] = tag
            tag_mobs.append(tag)
        # the key to the diamonds, under the lowest label: what a mark on the floor means
        from manim import Square

        diamond = Square(side_length=0.16, stroke_color=FG, stroke_width=3, fill_opacity=0.0).rotate(np.pi / 4)
        self.key = VGroup(diamond, label("= a difference of 0", size=SMALL, color=DIM))
        self.key[1].next_to(diamond, RIGHT, buff=GAP.small)
        tag_w = max(*(t.width for t in tag_mobs), self.key.width) + GAP.normal
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
        title.set_x(self.plot.axes.get_x())
        self.x_title = x_title.next_to(self.plot.x_tick_labels, DOWN, buff=GAP.tight)
        n = len(series)
        spread = 0.4  # data units: the kernels' marks either side of each t
        offs = [0.0] if n == 1 else list(np.linspace(-spread / 2, spread / 2, n))
        bar_w = spread / max(n, 1) * 0.8 * self.plot.width_units / (T + 1)
        self.marks = {}
        for (name, v, color, _), dx in zip(series, offs):
            marks = VGroup()
            xs = np.arange(1, T + 1) + dx
            for x, val in zip(xs, v):
                if val == 0.0:
                    mk = self.plot.exact_zero(x, color=color, text=None)
                    mk.exact = True
                    mk.value = 0.0
                else:
                    mk = self.plot.bars([x], [val], bar_width=bar_w, colors=color)
                    mk.value, mk.exact = float(val), False
                if color == HIGHLIGHT:
                    role(mk, "highlight")
                marks.add(mk)
            marks.xs = xs
            self.marks[name] = marks
        # the labels right of the plot at the height of their series' largest value, spread apart
        right = self.plot.axes.get_right()[0] + GAP.normal
        anchors = []
        for (name, v, _, _), tag in zip(series, tag_mobs):
            top = float(np.max(v))
            y = self.plot.to_point(T, top)[1] if top > 0 else self.plot.axes.get_bottom()[1] + tag.height / 2
            anchors.append(y)
        ys = spread_1d(anchors, [t.height for t in tag_mobs], self.plot.axes.get_bottom()[1],
                       self.plot.axes.get_top()[1], GAP.normal)
        for tag, y in zip(tag_mobs, ys):
            tag.move_to([right + tag.width / 2, y, 0])
        low = min(t.get_bottom()[1] for t in tag_mobs)  # the key under the lowest label (the zeros' series)
        self.key.move_to([right + self.key.width / 2, low - GAP.tight - self.key.height / 2, 0])
        self.add(title, self.plot, self.x_title, self.key)


class SumTrees(VGroup):
    """The same three floats summed in two orders, as two trees side by side: the leaves ``a, b, c`` in
    boxes at the bottom, the first sum of each order over its pair, the whole sum at the top; ``≠``
    between the two wholes when they differ.  Every number is printed as the shortest decimal that is
    that float64 (``repr``).

    ``roots`` are the two wholes, ``partials`` the two first sums, ``leaves`` the two rows of leaves,
    ``lines`` the edges, ``neq`` the sign between the roots, ``orders`` the two orders written out under
    their trees."""

    def __init__(self, terms: Sequence[float], partials: Sequence[float], totals: Sequence[float], region: Region,
                 **kw):
        super().__init__(**kw)
        texts = [repr(float(x)) for x in terms]
        size_root, size = HEADING + 10, HEADING
        self.leaves, self.partials, self.roots, self.lines = VGroup(), VGroup(), VGroup(), VGroup()
        a, b, c = texts
        self.orders = VGroup(math(f"({a} + {b}) + {c}", size=HEADING, color=DIM),
                             math(f"{a} + ({b} + {c})", size=HEADING, color=DIM))
        strip, region = region.take_bottom(self.orders[0].height, gap=GAP.normal)
        level = region.height / 3
        y_leaf, y_mid, y_root = (region.bottom + level * (k + 0.5) for k in range(3))
        trees = []
        for k in range(2):  # k = 0: (a + b) + c;  k = 1: a + (b + c)
            leaves = VGroup()
            for t in texts:
                txt = math(t, size=size)
                box = RoundedRectangle(corner_radius=0.1, width=txt.width + 2 * GAP.small,
                                       height=txt.height + 2 * GAP.small, stroke_color=DIM, stroke_width=2)
                txt.move_to(box)
                overlay(box, txt)
                leaves.add(VGroup(box, txt))
            part = math(repr(float(partials[k])), size=size)
            # leaf spacing: the edge from the lone leaf to the root passes clear of the first sum's digits
            s_ = max(leaves[0].width + 1.0, (part.width / 2 + 0.2) / 0.9)
            xs = [-s_, 0.0, s_]
            for x, lf in zip(xs, leaves):
                lf.move_to([x, y_leaf, 0])
            i, j, lone = (0, 1, 2) if k == 0 else (1, 2, 0)
            xp = (xs[i] + xs[j]) / 2
            part.move_to([xp, y_mid, 0])
            xr = (xp + xs[lone]) / 2
            root = math(repr(float(totals[k])), size=size_root).move_to([xr, y_root, 0])
            edges = VGroup()
            for child, parent in ((leaves[i], part), (leaves[j], part), (part, root), (leaves[lone], root)):
                p0 = child.get_top() + UP * 0.08
                p1 = parent.get_bottom() + DOWN * 0.08
                edges.add(Line(p0, p1, color=DIM, stroke_width=2.5))
            tree = VGroup(edges, leaves, part, root)
            trees.append(tree)
            self.leaves.add(leaves)
            self.partials.add(part)
            self.roots.add(root)
            self.lines.add(*edges)
        # the left tree against the region's left edge, the right one against its right edge
        trees[0].shift((region.left + GAP.small - trees[0].get_left()[0]) * RIGHT)
        trees[1].shift((region.right - GAP.small - trees[1].get_right()[0]) * RIGHT)
        for order, tree in zip(self.orders, trees):  # each order written under its tree
            order.move_to([tree[1].get_x(), strip.center[1], 0])
        diff = float(totals[0]) != float(totals[1])
        self.neq = role(math("!=" if diff else "=", size=size_root, color=HIGHLIGHT), "highlight")
        self.neq.move_to([(self.roots[0].get_right()[0] + self.roots[1].get_left()[0]) / 2, y_root, 0])
        self.add(self.lines, self.leaves, self.partials, self.roots, self.neq, self.orders)


class DefectTable(VGroup):
    """The measured difference for every prefix length ``t = 1 … T``, per kernel, as a table of figures (an
    exact zero has no place on a log axis: here it is written, ``0``): a column of ``t`` on the left, one column
    per kernel named at its head, each cell the figure that kernel measured at that ``t``, the kernel's verdict
    (with its bar: bit for bit, and its name) right of the table, one under the other.

    ``series`` is ``[(name, values, verdict)]``; ``marks[name]`` the cells (each with ``.value`` and ``.exact``),
    ``names[name]`` the column's head, ``tags[name]`` the head and the verdict, ``columns[name]`` the head, the
    cells and the verdict; ``ts`` the ``t`` column (its head first); ``rules`` the lines under the heads.  A
    positive figure is drawn in ``HIGHLIGHT`` (where to look), an exact zero in ``FG``."""

    SIZES = (46, 42, 38, HEADING)  # the figures as large as the region allows: the table is its beats' subject
    MAX_STEP = 1.15  # the rows' pitch, at most

    def __init__(self, series: Sequence[tuple], region: Region, title: Mobject, **kw):
        super().__init__(**kw)
        T = len(series[0][1])
        self.title = title
        title_strip, rest = region.take_top(title.height, gap=GAP.wide)
        title_strip.place(title)
        for size in self.SIZES:  # the largest type whose table fits the region (the verdicts keep theirs)
            fits, parts = self._measure(series, rest, size, T)
            if fits:
                break
        else:
            raise LayoutError(f"the table of differences does not fit region {region.name!r}")
        self.size = size
        self.names, self.marks, self.tags, self.columns = {}, {}, {}, {}
        cols, t_head, t_cells, heads, step, widths, t_w, gap, total, verdict_w, head_h = parts
        x = rest.center[0] - total / 2
        y_head = rest.top - head_h / 2
        y_row = [y_head - head_h / 2 - GAP.normal - step * (k + 0.5) for k in range(T)]
        t_head.move_to([x + t_w / 2, y_head, 0])
        for c, y in zip(t_cells, y_row):
            c.move_to([x + t_w / 2, y, 0])
        self.ts = VGroup(t_head, t_cells)
        x += t_w + gap
        self.rules = VGroup()
        # the verdicts right of the table, one under the other (each names its kernel), from the first row down
        y_v = y_row[0] + step / 2
        x_v = rest.center[0] + total / 2 - verdict_w
        for (name, head, cells, verdict), w in zip(cols, widths):
            cx = x + w / 2
            head.move_to([cx, y_head, 0])
            for c, y in zip(cells, y_row):
                c.move_to([cx, y, 0])
            verdict.move_to([x_v + verdict.width / 2, y_v - verdict.height / 2, 0])
            y_v -= verdict.height + GAP.section
            rule = Line([x, y_head - head_h / 2 - GAP.tight, 0], [x + w, y_head - head_h / 2 - GAP.tight, 0],
                        color=DIM, stroke_width=2)
            self.rules.add(rule)
            self.names[name] = head
            self.marks[name] = cells
            self.tags[name] = VGroup(head, verdict)
            self.columns[name] = VGroup(head, rule, cells, verdict)
            x += w + gap
        self.add(title, self.ts, *self.columns.values())

    @staticmethod
    def _measure(series, rest: Region, size: float, T: int):
        """The table's parts at type ``size`` and whether they fit ``rest`` (its width, and rows of at least 1.15
        figure heights)."""
        heads = [label(name, size=size) for name, _, _ in series]
        cols = []
        for (name, values, verdict), head in zip(series, heads):
            cells = VGroup()
            for v in values:
                v = float(v)
                if v == 0.0:
                    c = math("0", size=size)
                else:
                    c = role(numbers_figure(v, size), "highlight")
                c.value, c.exact = v, v == 0.0
                cells.add(c)
            cols.append((name, head, cells, verdict))
        t_head = math("t", size=size, color=DIM)
        t_cells = VGroup(*[math(str(t), size=size, color=DIM) for t in range(1, T + 1)])
        verdict_w = max(v.width for *_, v in cols)
        head_h = max(h.height for h in heads)
        room = rest.height - head_h - GAP.normal
        step = min(DefectTable.MAX_STEP, room / T)
        widths = [max(head.width, max(c.width for c in cells)) for _, head, cells, _ in cols]
        t_w = max(t_head.width, max(c.width for c in t_cells))
        gap = GAP.wide
        total = t_w + sum(widths) + gap * (len(cols) + 1) + verdict_w
        fits = step >= math("0", size=size).height * 1.15 and total <= rest.width
        return fits, (cols, t_head, t_cells, heads, step, widths, t_w, gap, total, verdict_w, head_h)


def numbers_figure(v: float, size: float) -> Mobject:
    """A positive measured difference as the deck prints it (``≈ 2.2 × 10⁻¹⁶``), in ``HIGHLIGHT``."""
    from scenes.kit import figure

    return figure(v, size=size, color=HIGHLIGHT)


def bar_verdict(words: str, value, passed: bool, relation: str, size: float = HEADING) -> VGroup:
    """The deck's worded verdict (``kit.proofs.worded_verdict``) on two lines: the mark and the bar in words
    (``bit for bit:``) over the measured figure (``max_t = 0 exact``), the figure under the words: a verdict as
    narrow as a column of figures."""
    from scenes.kit.proofs import worded_verdict

    g = worded_verdict(words, value, passed=passed, size=size, relation=relation)
    words_ = VGroup(*[p for p in g.line.pieces if p is not g.value])
    g.value.next_to(words_, DOWN, buff=GAP.small, aligned_edge=LEFT)
    return g
