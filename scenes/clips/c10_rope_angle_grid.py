"""10 ``RoPEAngleGrid`` (§9): the formula in one line over a hand per pair, each labelled with its rate
``θᵢ`` (one row of plain decimals), above its column of the empty ``(T, d/2)`` angle table; walking the
positions turns the hands and writes the table row by row, every angle mod 2π on the deck's one cyclic scale
for angles, which each dial's rim carries as its colour key.  A fast hand wraps, a slow hand barely moves; the
slow pairs get a beat of their own (a wedge on each dial: the angle turned by the last row, all inside a
quarter turn, each ``b^(2/d)`` times narrower); the table equals ``m·b^(−2i/d)`` (a measured verdict), and the
clip ends on that verdict over the fast and the slow hand, large, each with its ``θᵢ`` and the path it swept,
beside its column of the table.  One colour scale for the angle throughout: no log scale, no second map.

The scales, titles and proof figures it draws are described in ``scenes/figures/rope.py``,
which its still shares.

Render directly with ``manim -ql scenes/clips/c10_rope_angle_grid.py RoPEAngleGrid``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    AnnularSector,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    Sector,
    Succession,
    SurroundingRectangle,
    VGroup,
    Wait,
    Write,
)

from mathcore import rope_angle_grid, rope_frequencies
from mathcore.config import LectureConfig
from mathcore.rope_measures import angle_grid_defect
from scenes.clips.c10_widgets import DialRow
from scenes.figures.rope import (
    TWO_PI,
    angle_scale,
    base_figure,
    passed,
    relation,
    theta_figure,
)
from scenes.kit import (
    DIM,
    FG,
    HIGHLIGHT,
    LABEL,
    SMALL,
    ClipScene,
    Heatmap,
    label,
    math,
    numbers,
    swap,
)
from scenes.kit.binding import claim, role, shows
from scenes.kit.compose import DIMMED, GAP, column, end_on, row
from scenes.kit.layout import FIT_PASSES, LayoutError
from scenes.kit.motion import Dim, set_level
from scenes.kit.notation import SUBSCRIPT, N
from scenes.kit.proofs import line_baseline, worded_line, worded_verdict
from scenes.kit.student import fail_key
from scenes.kit.theme import FAILED

QUARTER_TURN = np.pi / 2  # a pair whose angles stay under this in the table is a slow pair


def after_words(words, formula) -> VGroup:
    """``formula`` a word space right of the worded line ``words``, its first glyph on the words' baseline."""
    space = label("x x", size=LABEL).width - 2 * label("x", size=LABEL).width
    formula.next_to(words, RIGHT, buff=space)
    glyphs = [g for g in formula.submobjects if g.has_points() or g.submobjects] or [formula]
    formula.shift((line_baseline(words) - glyphs[0].get_bottom()[1]) * UP)
    return VGroup(words, formula)


def on_baseline(line) -> VGroup:
    """Each math piece of the worded ``line`` with its first glyph on the words' baseline (the kit's median of
    glyph bottoms would sit ``θᵢ = b^(−2i/d)``, mostly superscript, on its superscripts)."""
    y = line_baseline(line.words[0]) if line.words else line_baseline(line)
    for piece in line.maths:
        glyphs = [g for g in piece.submobjects if g.has_points() or g.submobjects] or [piece]
        piece.shift((y - glyphs[0].get_bottom()[1]) * UP)
    return line


def rate_decimal(x: float) -> str:
    """A rate as plain digits, two significant (``1.0``, ``0.32``, ``0.00032``): the table's row of rates where
    every one fits its column; the row's name ``θᵢ ≈`` carries the ``≈``."""
    return np.format_float_positional(float(x), precision=2, unique=False, fractional=False, trim="k")


def rate_power(x: float) -> str:
    """A rate as a power of ten, its exponent to one decimal (``10^0``, ``10^(-1.1)``, ``10^(-7.9)``): the row of
    rates when plain digits are too wide for the columns (a large base), still one row and one style."""
    e = round(float(np.log10(x)), 1)
    return "10^0" if e == 0 else f"10^({e:.1f})"


def shown_value(shown: str) -> float:
    """The value a rate's printed form stands for: plain digits, or a power of ten (:func:`rate_power`)."""
    if shown.startswith("10^"):
        return 10.0 ** float(shown[3:].strip("()"))
    return float(shown)


def rate_relation(lhs: str, shown: str, x: float) -> str:
    """Typst ``lhs = 1.0`` when ``shown`` (a rate as the table prints it) is ``x`` exactly, else ``lhs ≈ shown``."""
    try:
        exact = shown_value(shown) == float(x)
    except ValueError:  # a figure × 10ᵏ: rounded
        exact = False
    return f"{lhs} {'=' if exact else 'approx'} {shown}"


def approx_relation(lhs: str, x: float) -> str:
    """Typst ``lhs ≈ 0.0035`` for a value rounded for display (``lhs = 0.5`` only when the figure is exact)."""
    fig = numbers.measure(x)
    if fig.math.startswith("approx") or fig.exact:
        return relation(lhs, fig)
    try:
        exact = float(fig.text) == float(x)
    except ValueError:
        exact = False
    return f"{lhs} {'=' if exact else 'approx'} {fig.math}"


def theta_cell(x: float) -> str:
    """A rate as the table's row of rates prints it under ``θᵢ ≈`` (the row's name carries the ``≈``: every
    rate but θ₀ is rounded): the figure's Typst math without its own ``≈``."""
    m = theta_figure(x).math
    return m[len("approx "):] if m.startswith("approx ") else m


@dataclass(frozen=True)
class AngleGridData:
    """What clip 10 draws: ``grid = rope_angle_grid(T, d, base)`` (radians), its values mod 2π
    (``wrapped``, the colours of the table, one cyclic scale), ``theta = rope_frequencies(d, base)``
    and the measured ``max |grid − m·base^(−2i/d)|``; ``m_pick`` (the row the walk ends on) and the
    fast and the slow pair picked out.

    The fast pairs ``0..n_fast-1`` reach a quarter turn within the table; the slow ones do not within it
    (on the cyclic scale their column is one colour), so they also get a beat of their own.  ``log_slow``
    (``log10`` of their angles, ``−inf`` at ``m = 0``) is for the still's log panel (``scenes/figures/rope.py``);
    the clip paints every angle on the one cyclic scale."""

    T: int
    d: int
    base: float
    grid: np.ndarray  # (T, d/2) radians, not reduced
    wrapped: np.ndarray  # (T, d/2) grid mod 2π
    theta: np.ndarray  # (d/2,)
    defect: float
    m_pick: int
    fast: int
    slow: int
    cmap: str
    n_fast: int
    log_slow: np.ndarray  # (T, d/2 - n_fast) log10 of the slow pairs' angles
    # a student's table (``clips render --student``): the cells that differ from ``m·base^(−2i/d)`` by the checks'
    # tolerance or more, the largest first; empty for the lecture
    bad_cells: tuple = ()


class AngleTable(VGroup):
    """Clip 10's picture: a hand per pair over its column of the angle table.

    ``dials`` (a :class:`DialRow`, hand ``i`` over column ``i``), ``heads`` (``i = k`` over each
    column, and under it its rate θᵢ: one row of plain decimals where they fit, named ``θᵢ ≈``), ``grid``
    (the table mod 2π on the deck's one cyclic scale for angles), ``rows`` (the position of each row; row 0,
    the last row and evenly between when rows are tight) beside the axis name ``m_name``; on each dial's rim
    ``dial.ring``, the cyclic scale as a ring (the table's colour key); ``wedges``, for the slow pairs' beat: on each slow dial the angle its hand has
    turned by the last row."""

    def __init__(self, data: AngleGridData, cfg, cell_w: float, cell_h: float, radius: float):
        super().__init__()
        d = data
        P, T, nf = d.d // 2, d.T, d.n_fast
        self.cell_w, self.cell_h, self.radius = cell_w, cell_h, radius
        self.scale = angle_scale(cfg)
        self.grid = shows(Heatmap(d.wrapped, self.scale, cell_size=(cell_w, cell_h)), "wrapped")
        # the empty table, before the walk writes it: its cells' outlines
        self.slots = VGroup(*[c.copy() for r in self.grid.cells for c in r]).set_fill(opacity=0).set_stroke(DIM, opacity=0.45)
        # over each column its pair and, under that, its rate θᵢ (the row of rates named θᵢ at the left): plain
        # decimals on one row where they fit, else powers of ten, one row (else the deck's figures, staggered)
        for form in (rate_decimal, rate_power, theta_cell):
            self.rate_texts = [form(t) for t in d.theta]
            self.thetas = VGroup(*[math(s, size=SMALL, color=FG).next_to(self.grid.cell(0, i), UP, buff=GAP.tight)
                                   for i, s in enumerate(self.rate_texts)])
            self.thetas.align_to(self.thetas[0], DOWN)
            self.staggered = max(t.width for t in self.thetas) + GAP.tight > cell_w
            if not self.staggered:
                break
        if self.staggered:  # too wide for one line: even pairs one line up (pair 0's rate right under its name)
            up = max(t.height for t in self.thetas) + GAP.tight
            for t in self.thetas[0::2]:
                t.shift(up * UP)
        self.pairs = VGroup(*[math(f"{N.pair.math} = {i}", size=SMALL, color=DIM)
                              .next_to(self.thetas, UP, buff=GAP.tight).set_x(self.grid.cell(0, i).get_x())
                              for i in range(P)])
        self.pairs.align_to(self.pairs[0], DOWN)
        self.heads = VGroup(*[VGroup(p, t) for p, t in zip(self.pairs, self.thetas)])
        self.dials = DialRow(np.zeros(P), radius=radius, h_buff=cell_w - 2 * radius, colors=[FG] * P)
        self.dials.next_to(self.heads, UP, buff=GAP.small).set_x(self.grid.get_x())
        rows = self.grid.index_labels("rows")
        need = (max(r.height for r in rows) + GAP.hair) / cell_h  # rows a label needs
        every = next(k for k in (1, 2, 5, 10, 20) if k >= need)  # row 0 and every k-th row after it: even steps
        keep = range(0, T, every)
        self.rows = VGroup(*[rows[m] for m in keep])
        self.m_name = math(N.position.math, size=SMALL, color=DIM).next_to(self.rows, LEFT, buff=GAP.small)
        self.m_name.set_y(self.grid.get_y())
        self.theta_name = math(f"{N.rate.math} approx", size=SMALL, color=FG)
        self.theta_name.next_to(self.thetas[0], LEFT, buff=GAP.small).align_to(self.rows, RIGHT)
        self.theta_name.set_y(self.thetas[0].get_y())
        # the colour key on the data: each hand's rim carries the cyclic scale (a colour bar wrapped round the
        # dial), so the colour the hand points into is the colour its cell takes
        for dial in self.dials.dials:
            dial.ring = self.colour_ring(dial)
            dial.submobjects.insert(1, dial.ring)  # over the face, under the ticks and the hand
        # the slow pairs' beat: on each slow dial, the angle its hand has turned by the last row (a neutral wedge)
        self.wedges = VGroup(*[
            Sector(radius=radius * self.WEDGE_AT, angle=float(d.grid[T - 1, i]), start_angle=0.0,
                   arc_center=self.dials.dials[i].center, fill_color=FG, fill_opacity=self.WEDGE_FILL, stroke_width=0)
            for i in range(nf, P)])
        for w, i in zip(self.wedges, range(nf, P)):
            w.angle_shown, w.pair = float(d.grid[T - 1, i]), i
        # with the wedges, each slow pair's angle at the last row in radians (the clip's one unit: beat 04 reads
        # the slowest's in radians), in its rate's place (a wedge of a degree is under a pixel: the figure says
        # what the wedge cannot), the row named (T − 1) θᵢ: the very product each figure is
        # (in the rates' own form, the one that fits their row: plain digits, else powers of ten; the row's
        # name carries the ≈, and a staggered row of rates staggers these too, each in its rate's place)
        self.turned = VGroup(*[math(form(float(d.grid[T - 1, i])), size=SMALL,
                                    color=FG).move_to(self.thetas[i]) for i in range(nf, P)])
        for t, i in zip(self.turned, range(nf, P)):
            t.pair, t.radians, t.shown = i, float(d.grid[T - 1, i]), form(float(d.grid[T - 1, i]))
            if t.width > cell_w - GAP.hair:  # never wider than its column
                t.scale((cell_w - GAP.hair) / t.width)
        self.turned_name = math(f"{T - 1} {N.rate.math} approx", size=SMALL, color=FG)
        self.turned_name.move_to(self.theta_name).align_to(self.theta_name, RIGHT)
        self.add(self.dials, self.heads, self.slots, self.grid, self.rows, self.m_name, self.theta_name)
        self.extras = VGroup(self.wedges, self.turned, self.turned_name)  # not on screen at first: placed with the table

    WEDGE_AT = 0.9  # a slow dial's wedge: this share of its radius
    WEDGE_FILL = 0.4

    @classmethod
    def fitted(cls, data: AngleGridData, cfg, region, dial_share: float) -> AngleTable:
        """The largest table whose dials take at most ``dial_share`` of ``region``'s height, centred in it."""
        P, T = data.d // 2, data.T
        W, H = region.width - GAP.hair, region.height - GAP.hair  # a hair inside: rounding never crosses the edge
        probe = cls(data, cfg, 1.0, 1.0, 0.5)
        for _ in range(FIT_PASSES):  # row labels thin out and bars shrink with the cells: measure again
            side_w = probe.whole.width - P * probe.cell_w  # row labels and colour bars
            cell_w = (W - side_w) / P
            radius = min(cell_w - GAP.normal, dial_share * H) / 2
            rest_h = probe.height - T * probe.cell_h - 2 * probe.radius  # heads, titles and gaps
            cell_h = min((H - rest_h - 2 * radius) / T, cell_w)
            probe = cls(data, cfg, cell_w, cell_h, radius)
        if probe.whole.width > region.width + 1e-6 or probe.whole.height > region.height + 1e-6:
            raise LayoutError(f"the angle table does not fit region {region.name!r}")
        region.place(probe.whole)
        return probe

    @property
    def whole(self) -> VGroup:
        """The table with what only its slow pairs' beat shows (the wedges), for sizing and placing."""
        return VGroup(self, self.extras)

    def row_box(self, m: int) -> SurroundingRectangle:
        P = self.grid.values.shape[1]
        return role(SurroundingRectangle(VGroup(self.grid.cell(m, 0), self.grid.cell(m, P - 1)), color=HIGHLIGHT,
                                         buff=GAP.hair / 2).set_z_index(1), "highlight")

    def column_box(self, i: int) -> SurroundingRectangle:
        T = self.grid.values.shape[0]
        return role(SurroundingRectangle(VGroup(self.grid.cell(0, i), self.grid.cell(T - 1, i)), color=HIGHLIGHT,
                                         buff=GAP.hair / 2).set_z_index(1), "highlight")

    def column_of(self, i: int) -> VGroup:
        return VGroup(*[r[i] for r in self.grid.cells])

    def pair(self, i: int) -> VGroup:
        """Hand ``i`` and its head (its number and its rate)."""
        return VGroup(self.dials.dials[i], self.heads[i])

    def swept(self, i: int, dial, upto: int) -> VGroup:
        """The path hand ``i`` swept from position 0 to ``upto``: a dot on ``dial``'s rim at every angle
        ``m θᵢ``, painted by the table's cyclic scale (each dot is its cell of column ``i``)."""
        r = dial.radius * self.SWEPT_AT
        a = np.asarray(self.grid.values[: upto + 1, i], dtype=float)
        dots = VGroup(*[Dot(dial.center + r * np.array([np.cos(v), np.sin(v), 0.0]), radius=self.DOT * dial.radius,
                            fill_color=self.scale.color(v), fill_opacity=1, stroke_color=FG, stroke_width=self.OUTLINE)
                        for v in a])  # a light outline: twilight's dark middle (an angle near π) on the dark page
        dots.color_scale, dots.values = self.scale, a
        return dots

    def colour_ring(self, dial) -> VGroup:
        """The cyclic scale wrapped round ``dial``'s rim (its colour bar as a ring: each angle on the rim in its
        colour), so a dot's colour and its place on the circle read as one."""
        k = self.RING_STEPS
        mids = (np.arange(k) + 0.5) * TWO_PI / k
        ring = VGroup(*[AnnularSector(inner_radius=dial.radius * self.RING_IN, outer_radius=dial.radius,
                                      angle=TWO_PI / k, start_angle=float(a - np.pi / k), arc_center=dial.center,
                                      fill_color=self.scale.color(a), fill_opacity=1, stroke_width=0)
                        for a in mids])
        ring.color_scale, ring.values = self.scale, mids
        return ring

    RING_STEPS = 72  # the ring's pieces (5° each)
    RING_IN = 0.86  # its inner edge, a share of the dial's radius
    OUTLINE = 1.5  # px: the light outline of a swept dot

    SWEPT_AT = 0.78  # the swept path's radius, a share of the dial's
    DOT = 0.07  # a swept dot's radius, a share of the dial's


class RoPEAngleGrid(ClipScene):
    """10 · The RoPE angle table: fast hands and slow hands."""

    STAGED = True
    TIDY_PLAYS = True  # the table's cells and the hands are animated one by one
    STUDENT = "rope_angle_grid"  # `clips render --student`: the student's table is the one the hands write
    TOL = 1e-9  # a student's cell differs from the formula's at this gap or more (the checks' TABLE_TOL)
    D = 16  # eight pairs
    DIAL_SHARE = 0.24  # of the table's region, the most the row of hands may take: the table keeps its height
    HAND_DIMMED = 0.4  # a hand out of focus stays in sight (its words go to the background)
    # the table's other columns while one column is the subject, in every beat: dark enough that its pale cells
    # (the cyclic scale's near-white zero) recede into the background rather than read as a grey veil
    TABLE_DIMMED = 0.12
    CLOSE_STRIP = 0.6  # and its column as wide as this share of the hand's dial
    TAKEAWAY_FILL = 0.95  # the close: the verdict over the two hands, as large as the frame allows
    CLOSE_DIAL = 3.0  # units: a hand's dial in the close
    HUB = 0.14  # units: the hub of a hand in the close
    CLOSE_TALLER = 1.15  # in the close a hand is this many times as tall as its column of the table

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> AngleGridData:
        T, d, base = cfg.T_heatmap, cls.D, cfg.rope_base
        grid = rope_angle_grid(T, d, base)
        n_fast = int(np.count_nonzero(grid[-1] >= QUARTER_TURN))  # θ_i falls with i: the fast pairs come first
        with np.errstate(divide="ignore"):
            log_slow = np.log10(grid[:, n_fast:])
        return AngleGridData(
            T=T, d=d, base=base, grid=grid, wrapped=np.mod(grid, TWO_PI), theta=rope_frequencies(d, base),
            defect=angle_grid_defect(T, d, base), m_pick=T - 1, fast=0, slow=d // 2 - 1, cmap=cfg.cmap_angles,
            n_fast=n_fast, log_slow=log_slow,
        )

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> AngleGridData:
        """The student's ``rope_angle_grid(T, d, base)`` as the table the hands write (the rates printed under
        the hands stay the formula's, ``b^(−2i/d)``): the check measures it against ``m·b^(−2i/d)`` and names
        the cells that differ."""
        from dataclasses import replace

        lecture = cls.build_data(cfg)
        grid = np.asarray(student.array(cls.STUDENT, "student"), dtype=float)
        if grid.shape != lecture.grid.shape:
            raise ValueError(f"the student's table is {grid.shape}, clip 10 draws {lecture.grid.shape}")
        gap = np.abs(grid - lecture.grid)
        bad = [(int(i), int(j)) for i, j in zip(*np.nonzero(gap >= cls.TOL))]
        bad.sort(key=lambda c: -gap[c])
        n_fast = int(np.count_nonzero(grid[-1] >= QUARTER_TURN))
        if n_fast >= grid.shape[1] or not np.all(np.isfinite(grid)) or np.any(grid[1:, n_fast:] <= 0):
            n_fast = lecture.n_fast  # no slow pair of its own to put on the log scale: the formula's split
        with np.errstate(divide="ignore", invalid="ignore"):
            log_slow = np.log10(np.where(grid[:, n_fast:] > 0, grid[:, n_fast:], 0.0))
        return replace(lecture, grid=grid, wrapped=np.mod(grid, TWO_PI), defect=float(np.max(gap)), n_fast=n_fast,
                       log_slow=log_slow, bad_cells=tuple(bad))

    def student_values(self) -> dict:
        """The failing variants' values, bound to the red outlines and the verdict that show them."""
        out = super().student_values()
        d = self.data
        frames = getattr(self, "bad_frames", None)
        if frames is not None and d.bad_cells:
            i, j = d.bad_cells[0]
            out.update(ncells=claim(len(d.bad_cells), *frames), pos_i=claim(i, frames[0]), pos_j=claim(j, frames[0]),
                       got=claim(numbers.measure(float(d.grid[i, j])).text, frames[0]),
                       want=claim(numbers.measure(float(i * d.theta[j])).text, frames[0]))
        return out

    def differs(self, i: int) -> bool:
        """A student's table differs from ``m θᵢ`` somewhere in column ``i``."""
        return any(j == i for _, j in self.data.bad_cells)

    def rate_text(self, i: int) -> str:
        """Pair ``i``'s rate as the table's row prints it (plain digits, or the deck's figure × 10ᵏ), in text."""
        tb = getattr(self, "table", None)
        shown = tb.rate_texts[i] if tb is not None else rate_decimal(self.data.theta[i])
        if shown.startswith("10^"):  # 10^(-1.1) in words: 10 to the −1.1
            e = shown[3:].strip("()")
            return "1" if e == "0" else f"10 to the {e.replace('-', '−')}"
        try:
            float(shown)
            return shown
        except ValueError:
            return theta_figure(self.data.theta[i]).text.removeprefix("≈ ")

    def rate_caption(self, i: int) -> str:
        """``θ₀ = 1.0``, ``θ₇ ≈ 0.00032``: the rate as the close prints it, in text."""
        shown, x = self.rate_text(i), self.data.theta[i]
        tb = getattr(self, "table", None)
        try:
            exact = shown_value(tb.rate_texts[i] if tb is not None else shown) == float(x)
        except ValueError:
            exact = False
        return f"θ{str(i).translate(SUBSCRIPT)} {'=' if exact else '≈'} {shown}"

    def caption_values(self) -> dict:
        d = self.data
        m = d.m_pick
        plain = numbers.plain
        nf, P = d.n_fast, d.d // 2
        values = {
            "T": d.T, "d": d.d, "pairs": P, "m": m, "fast": d.fast, "slow": d.slow,
            "slow_first": nf,
            "wrap": plain(TWO_PI / d.theta[d.fast]), "fast_angle": plain(d.grid[m, d.fast]),
            "slow_angle": numbers.measure(d.grid[m, d.slow]).text,
            "ratio": plain(d.theta[0] / d.theta[1]),
            "rate_fast": self.rate_text(d.fast), "rate_slow": self.rate_text(d.slow),
            "theta_fast": self.rate_caption(d.fast), "theta_slow": self.rate_caption(d.slow),
            "last": m,
            "defect": numbers.measure(d.defect).text,
        }
        tb = getattr(self, "table", None)
        if tb is None:  # the title card: nothing drawn yet
            return values
        end = getattr(self, "closing_picture", None)
        dials = end.dials if end is not None else tb.dials.dials
        values.update({
            "pairs": claim(P, *tb.dials.dials),
            "rate_fast": claim(values["rate_fast"], tb.thetas[d.fast]),
            "rate_slow": claim(values["rate_slow"], tb.thetas[d.slow]),
            "theta_fast": claim(values["theta_fast"], *(end.thetas[:1] if end is not None else [tb.thetas[d.fast]])),
            "theta_slow": claim(values["theta_slow"], *(end.thetas[1:] if end is not None else [tb.thetas[d.slow]])),
            "slots": claim("the empty table", *tb.slots),
            "rows": claim("a new row of colours", *[c for r in tb.grid.cells for c in r]),
            "fast": claim(d.fast, *(dials[:1] if end is not None else [tb.pairs[d.fast]])),
            "slow": claim(d.slow, *(dials[1:] if end is not None else [tb.pairs[d.slow]])),
            "slow_first": claim(nf, tb.pairs[nf]),
            "wrap": claim(plain(TWO_PI / d.theta[d.fast]), self.wrap_line),
            "slow_angle": claim(numbers.measure(d.grid[m, d.slow]).text, self.slow_line),
            "m": claim(m, self.slow_line),
            "ratio": claim(plain(d.theta[0] / d.theta[1]), self.ratio_line),
            "slow_cols": claim(f"pairs {nf} to {P - 1}", *tb.wedges),
            "last": claim(m, *tb.wedges),
            "turned": claim(", ".join(numbers.measure(t.radians).text for t in tb.turned), *tb.turned),
            "turned_name": claim(f"{d.T - 1} θᵢ", tb.turned_name),
            "defect": claim(values["defect"], end.proof if end is not None else self.proof),
            "T": claim(d.T, *(end.paths if end is not None else [tb.grid])),
        })
        return values

    def closing_key(self) -> str:
        return fail_key("close", bool(self.data.bad_cells))

    def caption(self, key: str) -> str:
        """Worded variants chosen by measured values (the narration must hold for every config)."""
        if key == "check" and self.data.defect != 0.0:
            key = "check_rounding"
        return super().caption(key)

    # ------------------------------------------------------------------ the storyboard's pieces
    def make_mobjects(self) -> None:
        d = self.data
        T = d.T
        content = self.layout.content
        # the top line: what the table holds, the rate, the base and the width (later the verdict in its
        # place); at its right a slot for the position and for what a beat reads off a hand
        m_, i_, b_, d_ = N.position.math, N.pair.math, N.base.math, N.width.math
        # the words in the sans, the symbols in Typst math (a formula with superscripts set on the words' baseline
        # by its first glyph: the kit's median of glyph bottoms would sit it on its superscripts)
        # (no comma after the subscript of m θᵢ: set there, it reads as a prime, θ_i′)
        rule = worded_line(f"pair ${i_}$ at ${m_}$: ${N.angle.math}$ with", size=LABEL)
        rate = f"{N.rate.math} = {b_}^(-2{i_} \\/ {d_})"
        given = f"{relation(b_, base_figure(d.base))}, space {d_} = {d.d}"
        self.rule_parts = (rule, rate, given)
        self.formula = after_words(rule, math(f"{rate}, space {given}", size=LABEL))
        # the verdict states the whole claim: the table against m·b^(−2i/d) (the caption reads θᵢ's definition)
        self.proof = worded_verdict(f"every entry is ${N.angle.math}$ with ${rate}$, largest gap:",
                                    numbers.measure(d.defect), passed(d.defect))
        on_baseline(self.proof.line)
        self.m_labels = [math(f"{N.position.math} = {m}", size=LABEL, color=FG) for m in range(T)]
        f, s_ = d.fast, d.slow
        self.wrap_line = math(approx_relation(f"2 pi \\/ theta_{f}", TWO_PI / d.theta[f]), size=LABEL, color=FG)
        self.slow_line = math(approx_relation(f"{d.m_pick} theta_{s_}", d.grid[d.m_pick, s_]), size=LABEL, color=FG)
        self.ratio_line = math(approx_relation(f"{N.rate.math} \\/ theta_({i_} + 1)", d.theta[0] / d.theta[1]),
                               size=LABEL, color=FG)
        slot = [*self.m_labels, self.wrap_line, self.slow_line, self.ratio_line]
        first, rest = content.take_top(max(m.height for m in (self.formula, self.proof, *slot)), gap=GAP.normal)
        slot_region, line = first.take_right(max(m.width for m in slot), gap=GAP.wide)
        two_lines = False
        try:
            line.fit(self.formula, align=LEFT)
        except LayoutError:  # a long base beside a long reading: the rule and the rate, the givens on the next line
            self.formula = column(after_words(rule.copy(), math(f"{rate},", size=LABEL)), math(given, size=LABEL),
                                  gap="tight")
            two_lines = True
        if two_lines:
            first, rest = content.take_top(max(m.height for m in (self.formula, self.proof, *slot)), gap=GAP.normal)
            slot_region, line = first.take_right(max(m.width for m in slot), gap=GAP.wide)
            line.fit(self.formula, align=LEFT)
        first.fit(self.proof, align=LEFT)  # the verdict comes when the readings are gone: the whole line
        # a formula on two lines leaves the strip beside its first line empty, and the table fewer rows of pixels
        self.two_lines = {"empty": "a long base puts the formula on two lines: the strip beside them is the only "
                                   "empty part; the table below still spans the content area"} if two_lines else {}
        # the slow beat, under a two-line formula: the reading sits beside it, apart from the hands and their table
        # (the sweep: b ≈ 3.9 × 10⁸ with few rows: four groups), all of it one picture of one column
        self.slow_why = dict(self.two_lines, dashboard="the slow pair's reading, its hand and its column: one picture "
                                                      "of one column, the reading beside the two-line formula") \
            if two_lines else None
        for m in slot:  # beside a two-line formula, on its second line: by the hands the readings are about
            slot_region.place(m, RIGHT + DOWN if two_lines else RIGHT)
        self.m_now = self.m_labels[0]
        self.table = tb = AngleTable.fitted(d, self.cfg, rest, self.DIAL_SHARE)
        self.row_box = tb.row_box(0)
        self.boxes = {i: tb.column_box(i) for i in (d.fast, d.slow)}
        # the table is written row by row as the hands walk: its cells start invisible
        set_level(tb.grid, level=0.0)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T, P = d.T, d.d // 2
        tb = self.table
        # 1. the formula over what it describes: a hand per pair, its rate under it, over the column it will fill
        setup = VGroup(tb.dials, tb.heads, tb.slots, tb.rows, tb.m_name, tb.theta_name)
        self.beat("formula", Write(self.formula), FadeIn(tb.dials, lag_ratio=0.05), FadeIn(tb.heads), FadeIn(tb.slots),
                  FadeIn(tb.rows), FadeIn(tb.m_name), FadeIn(tb.theta_name), run_time=1.8,
                  subject=VGroup(self.formula, setup))
        # 2. walk the positions: the hands turn by θ_i a step, and row m of the table records where they point
        self.add(tb.grid)
        steps = [AnimationGroup(Dim([VGroup(*tb.grid.cells[0])], 1.0), Create(self.row_box),
                                FadeIn(self.m_now))]
        for m in range(1, T):
            steps.append(AnimationGroup(
                tb.dials.turn_to(d.grid[m]), self.row_box.animate.move_to(tb.row_box(m)),
                Dim([VGroup(*tb.grid.cells[m])], 1.0), swap(self.m_labels[m - 1], self.m_labels[m])))
        self.beat(fail_key("walk", bool(d.bad_cells)), Succession(*steps), run_time=0.7 * T, subject=VGroup(tb.grid, tb.dials, self.row_box))
        self.m_now = self.m_labels[-1]
        # 3. a fast hand: its column's colours go round the cycle (the rest of the table recedes)
        others = lambda keep: [tb.column_of(j) for j in range(P) if j != keep]  # noqa: E731
        role(tb.thetas[d.fast], "highlight").set_color(HIGHLIGHT)
        tb.pairs[d.fast].set_color(FG)  # the pair in focus: its name as bright as its hand
        self.beat(fail_key("fast", self.differs(d.fast)), FadeOut(self.row_box), Create(self.boxes[d.fast]), *self.focus_on(d.fast),
                  Dim(others(d.fast), self.TABLE_DIMMED), Dim([self.formula], self.HAND_DIMMED),
                  swap(self.m_now, self.wrap_line),
                  run_time=1.2, why=self.two_lines,
                  subject=VGroup(self.boxes[d.fast], tb.pair(d.fast), tb.column_of(d.fast), self.wrap_line))
        # 4. a slow hand: its column is one colour
        role(tb.thetas[d.slow], "highlight").set_color(HIGHLIGHT)
        tb.thetas[d.fast].set_color(FG)
        tb.pairs[d.fast].set_color(DIM)
        tb.pairs[d.slow].set_color(FG)
        self.beat(fail_key("slow", self.differs(d.slow)), FadeOut(self.boxes[d.fast]), Create(self.boxes[d.slow]),
                  *self.focus_on(d.slow, previous=d.fast), Dim(others(d.slow), self.TABLE_DIMMED),
                  Dim([tb.column_of(d.slow)], 1.0), swap(self.wrap_line, self.slow_line),
                  run_time=1.2, why=self.slow_why,
                  subject=VGroup(self.boxes[d.slow], tb.pair(d.slow), tb.column_of(d.slow), self.slow_line))
        # 5. the slow pairs: in this table none reaches a quarter turn; each turns 3.2 times slower than the one
        # before (a wedge on each slow dial: the angle its hand has turned by the last row), on the one cyclic scale
        fast_part = VGroup(*[tb.pair(i) for i in range(d.n_fast)], *[tb.column_of(i) for i in range(d.n_fast)])
        slow_hands = [tb.pair(i) for i in range(d.n_fast, P) if i != d.slow]
        tb.thetas[d.slow].set_color(FG)
        tb.pairs[d.slow].set_color(DIM)
        self.beat(fail_key("slow_pairs", bool(d.bad_cells)), FadeOut(self.boxes[d.slow]), swap(self.slow_line, self.ratio_line),
                  Dim([fast_part], self.TABLE_DIMMED), *[Dim([h], 1.0) for h in slow_hands], Dim([self.formula], DIMMED),
                  *[Dim([tb.column_of(j)], 1.0) for j in range(d.n_fast, P) if j != d.slow],
                  FadeIn(tb.wedges), Dim([tb.theta_name, *tb.thetas], 0.0), Succession(Wait(0.6), FadeIn(tb.turned),
                                                                                      FadeIn(tb.turned_name)),
                  run_time=1.6, why=self.two_lines,
                  subject=VGroup(tb.wedges, tb.turned, self.ratio_line, *[tb.pair(i) for i in range(d.n_fast, P)],
                                 *[tb.column_of(i) for i in range(d.n_fast, P)]))
        # 6. the proof: every entry is m·b^(−2i/d); the whole table back, the verdict in the formula's place
        # a student's cells that are not m θᵢ: outlined in red
        self.bad_frames = VGroup(*[role(SurroundingRectangle(tb.grid.cell(i, j), color=FAILED, buff=-0.02,
                                                             stroke_width=5 if k == 0 else 3).set_z_index(2), "failed")
                                   for k, (i, j) in enumerate(d.bad_cells)])
        self.beat(fail_key("check", bool(d.bad_cells)), FadeOut(tb.wedges), FadeOut(self.ratio_line),
                  Succession(AnimationGroup(FadeOut(tb.turned), FadeOut(tb.turned_name)),
                             Dim([tb.theta_name, *tb.thetas], 1.0)),
                  Dim([fast_part], 1.0), swap(self.formula, self.proof),
                  *([Create(self.bad_frames)] if d.bad_cells else []), run_time=1.2,
                  subject=VGroup(self.proof, tb.grid, tb.dials, tb.heads))
        self.remove(self.formula, tb.wedges, tb.turned, tb.turned_name, self.ratio_line)

    def focus_on(self, i: int, previous: int | None = None) -> list:
        """Dim every hand and head but pair ``i``'s (only the ``previous`` focus, if there was one),
        then flash it: brought back first, so the flash starts from full opacity and ends there."""
        P = self.data.d // 2
        tb = self.table
        others = [previous] if previous is not None else [j for j in range(P) if j != i]
        return [*[Dim([tb.dials.dials[j]], self.HAND_DIMMED) for j in others], *[Dim([tb.heads[j]], DIMMED) for j in others],
                Succession(Dim([tb.pair(i)], 1.0), Indicate(tb.dials.dials[i], color=HIGHLIGHT))]

    # ------------------------------------------------------------------ the close
    def takeaway(self):
        d = self.data
        tb = self.table
        if not hasattr(self, "lifted"):  # the two columns leave the table as copies: the table stays as it was
            self.lifted = [tb.column_of(i).copy() for i in (d.fast, d.slow)]
            for col, i in zip(self.lifted, (d.fast, d.slow)):
                col.color_scale, col.values = tb.scale, d.wrapped[:, i]  # painted by the table's scale
            self.add(*self.lifted)
        return VGroup(self.proof, tb.dials.dials[d.fast], tb.dials.dials[d.slow], *self.lifted)

    def bring_forward(self, take, region=None) -> list:
        """The verdict over the two hands it is about, large: each hand with the path it swept over the
        table's positions (a dot per position, in its cell's colour), its column of the table beside it,
        its rate under it, and the word for it."""
        d = self.data
        tb = self.table
        proof, fast, slow, fast_col, slow_col = take
        sides, thetas, dials, paths, words, rings, frames = [], [], [], [], [], [], []
        self.close_captions = []
        for hand, col, i, word in ((fast, fast_col, d.fast, "fast"), (slow, slow_col, d.slow, "slow")):
            dial = hand.copy()
            strip = col.copy()
            dial.scale(self.CLOSE_DIAL / dial.face.height)
            dial.radius = dial.face.width / 2
            dial.hub.scale(self.HUB / dial.hub.width)
            strip.stretch_to_fit_height(dial.face.height / self.CLOSE_TALLER)
            strip.stretch_to_fit_width(self.CLOSE_STRIP * dial.face.width)
            path = tb.swept(i, dial, d.m_pick)
            th = math(rate_relation(f"theta_{i}", tb.rate_texts[i], d.theta[i]), size=LABEL, color=FG)
            ring = dial.ring
            caption = worded_line(f"{word}:", th, size=LABEL, color=FG)  # the word and its rate on one baseline
            name = caption.words[0]
            self.close_captions.append(caption)
            frame = SurroundingRectangle(strip, buff=0, color=DIM, stroke_width=2)
            pic = row(VGroup(strip, frame), VGroup(dial, path), gap="normal")
            sides.append(column(pic, caption, gap="small", align=np.zeros(3)))
            thetas.append(th)
            dials.append(dial)
            paths.append(path)
            words.append(name)
            rings.append(ring)
            frames.append(frame)
        picture = column(proof.copy(), row(*sides, gap="section", align="top"), gap="normal", align=np.zeros(3))
        anims = end_on(self, [(proof, picture[0]), (fast, dials[0]), (slow, dials[1]), (fast_col, sides[0][0][0][0]),
                              (slow_col, sides[1][0][0][0])], picture,
                       new=[*paths, *frames, *thetas, *words])
        self.closing_picture = type("Close", (), {})()
        self.closing_picture.proof, self.closing_picture.thetas = proof, thetas
        self.closing_picture.dials, self.closing_picture.paths = [fast, slow], paths
        self.closing_picture.rings, self.closing_picture.frames = rings, frames
        return anims
