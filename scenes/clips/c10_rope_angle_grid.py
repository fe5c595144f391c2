"""10 ``RoPEAngleGrid`` (§9): the formula in one line over a hand per pair, each labelled with its rate
``θᵢ``, above its column of the empty ``(T, d/2)`` angle table; walking the positions turns the hands and
writes the table row by row, every angle mod 2π on the deck's cyclic scale.  A fast hand wraps, a slow hand
barely moves; the slow pairs get a beat of their own on the deck's log scale of slow angles; the table
equals ``m·b^(−2i/d)`` (a measured verdict), and the clip ends on that verdict over the fast and the slow
hand, large, each with its ``θᵢ`` and the path it swept, beside its column of the table.

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
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    Square,
    Succession,
    SurroundingRectangle,
    VGroup,
    Write,
)

from mathcore import rope_angle_grid, rope_frequencies
from mathcore.config import LectureConfig
from mathcore.rope_measures import angle_grid_defect
from scenes.clips.c10_widgets import DialRow
from scenes.figures.rope import (
    ANGLE_TICK_MATH,
    ANGLE_TICKS,
    TWO_PI,
    angle_scale,
    base_figure,
    passed,
    relation,
    relation_text,
    slow_decades,
    slow_scale,
    theta_figure,
)
from scenes.kit import (
    DIM,
    FAINT,
    FG,
    HIGHLIGHT,
    LABEL,
    SMALL,
    ClipScene,
    ColorBar,
    Heatmap,
    label,
    math,
    numbers,
    swap,
)
from scenes.kit.binding import claim, names, role, shows
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

    The fast pairs ``0..n_fast-1`` reach a quarter turn within the table; the slow ones never do
    (on the cyclic scale their column is one colour), so they also get a beat of their own, their
    angles coloured by ``log10`` (``log_slow``: ``−inf`` at ``m = 0``, where the angle is exactly 0)."""

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
    column), ``grid`` (the table mod 2π on the cyclic scale), ``rows`` (the position of each row;
    every other one when rows are tight) under ``m_name``, ``bar`` (the cyclic colour bar and its
    title); for the slow pairs' own beat ``slow`` (their log angles, laid over their columns),
    ``log_bar`` and ``zero_key`` (the masked colour: an angle of exactly 0)."""

    def __init__(self, data: AngleGridData, cfg, cell_w: float, cell_h: float, radius: float):
        super().__init__()
        d = data
        P, T, nf = d.d // 2, d.T, d.n_fast
        self.cell_w, self.cell_h, self.radius = cell_w, cell_h, radius
        self.scale, self.log_scale = angle_scale(cfg), slow_scale(d, cfg)
        self.grid = shows(Heatmap(d.wrapped, self.scale, cell_size=(cell_w, cell_h)), "wrapped")
        # the empty table, before the walk writes it: its cells' outlines
        self.slots = VGroup(*[c.copy() for r in self.grid.cells for c in r]).set_fill(opacity=0).set_stroke(DIM, opacity=0.45)
        # over each column its pair and, under that, its rate θᵢ (the row of rates named θᵢ at the left)
        self.thetas = VGroup(*[math(theta_cell(d.theta[i]), size=SMALL, color=FG)
                               .next_to(self.grid.cell(0, i), UP, buff=GAP.tight) for i in range(P)])
        self.thetas.align_to(self.thetas[0], DOWN)
        if max(t.width for t in self.thetas) + GAP.small > cell_w:  # too wide for one line: even pairs one line up
            up = max(t.height for t in self.thetas) + GAP.tight  # (pair 0's rate right under its name)
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
        every = int(np.ceil((rows[0].height + GAP.hair) / cell_h))  # the last row (the walk's end) always labelled
        self.rows = VGroup(*[t for m, t in enumerate(rows) if (T - 1 - m) % every == 0])
        self.m_name = math(N.position.math, size=SMALL, color=DIM).move_to([rows.get_x(), self.pairs.get_y(), 0])
        self.theta_name = math(f"{N.rate.math} approx", size=SMALL, color=FG).move_to([rows.get_x(), self.thetas[0].get_y(), 0])
        self.bar = ColorBar(self.scale, height=T * cell_h, ticks=ANGLE_TICKS, tick_math=ANGLE_TICK_MATH)
        # clear of the last rate where it overhangs the table (the bar's title stands in the rates' line)
        overhang = max(0.0, self.thetas.get_right()[0] - self.grid.get_right()[0])
        self.bar.next_to(self.grid, RIGHT, buff=GAP.normal + overhang).align_to(self.grid, DOWN)
        self.bar.add(self._title(names(worded_line("mod $2 pi$", size=SMALL, color=FG), "wrapped"), self.bar))
        # the slow pairs on their own scale, over their own columns
        self.slow = shows(Heatmap(d.log_slow, self.log_scale, cell_size=(cell_w, cell_h)), "log_slow")
        self.slow.move_to(VGroup(self.grid.cell(0, nf), self.grid.cell(T - 1, P - 1)))
        swatch = Square(side_length=min(cell_h, self.heads.height), stroke_color=DIM, stroke_width=self.bar.frame.stroke_width,
                        fill_color=FAINT, fill_opacity=1)
        self.zero_key = row(swatch, math("0", size=SMALL, color=DIM), gap="small")
        decades = list(slow_decades(d, cfg))
        for step in range(1, len(decades)):  # every decade whose label has room on the bar, both ends always
            shown = decades[::step] if (len(decades) - 1) % step == 0 else [*decades[::step][:-1], decades[-1]]
            self.log_bar = ColorBar(self.log_scale, height=T * cell_h - self.zero_key.height - GAP.normal,
                                    ticks=shown, tick_math=[numbers.power(k).math for k in shown])
            labels = self.log_bar.tick_labels
            if all(a.get_bottom()[1] >= b.get_top()[1] or b.get_bottom()[1] >= a.get_top()[1]
                   for a, b in zip(labels, labels[1:])):
                break
        self.log_bar.shift(self.bar.frame.get_corner(UP + LEFT) - self.log_bar.frame.get_corner(UP + LEFT))
        self.log_bar.add(self._title(names(label("log scale", size=SMALL, color=FG), "log_slow"), self.log_bar))
        self.zero_key.align_to(self.log_bar.frame, LEFT).align_to(self.grid, DOWN)
        self.add(self.dials, self.heads, self.slots, self.grid, self.rows, self.m_name, self.theta_name, self.bar)
        self.extras = VGroup(self.slow, self.log_bar, self.zero_key)  # not on screen at first: placed with the table

    @staticmethod
    def _title(title, bar):
        """A colour bar's title: over its top tick, starting where the bar does."""
        return title.next_to(bar, UP, buff=GAP.tight).align_to(bar.frame, LEFT)

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
        """The table with what only its slow beat shows (the log bar and its key), for sizing and placing."""
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
                            fill_color=self.scale.color(v), fill_opacity=1, stroke_color=FAINT, stroke_width=1)
                        for v in a])
        dots.color_scale, dots.values = self.scale, a
        return dots

    SWEPT_AT = 0.78  # the swept path's radius, a share of the dial's
    DOT = 0.07  # a swept dot's radius, a share of the dial's


class RoPEAngleGrid(ClipScene):
    """10 · The RoPE angle table: fast hands and slow hands."""

    STAGED = True
    TIDY_PLAYS = True  # the table's cells and the hands are animated one by one
    STUDENT = "rope_angle_grid"  # `clips render --student`: the student's table is the one the hands write
    TOL = 1e-9  # a student's cell differs from the formula's at this gap or more (the checks' TABLE_TOL)
    D = 16  # eight pairs
    DIAL_SHARE = 0.3  # of the table's region, the most the row of hands may take
    HAND_DIMMED = 0.4  # a hand out of focus stays in sight (its words go to the background)
    TABLE_DIMMED = 0.35  # the table's other columns while one column is the subject: their colours still read
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

    def caption_values(self) -> dict:
        d = self.data
        m = d.m_pick
        plain = numbers.plain
        values = {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "m": m, "fast": d.fast, "slow": d.slow,
            "slow_first": d.n_fast,
            "wrap": plain(TWO_PI / d.theta[d.fast]), "fast_angle": plain(d.grid[m, d.fast]),
            "slow_angle": numbers.measure(d.grid[m, d.slow]).text,
            "ratio": plain(d.theta[0] / d.theta[1]),
            "theta_fast": relation_text("θ" + str(d.fast).translate(SUBSCRIPT), theta_figure(d.theta[d.fast])),
            "theta_slow": relation_text("θ" + str(d.slow).translate(SUBSCRIPT), theta_figure(d.theta[d.slow])),
            "decade_lo": numbers.power(slow_decades(d, self.cfg)[0]).text,
            "decade_hi": numbers.power(slow_decades(d, self.cfg)[-1]).text,
            "defect": numbers.measure(d.defect).text,
        }
        tb = getattr(self, "table", None)
        if tb is None:  # the title card: nothing drawn yet
            return values
        end = getattr(self, "closing_picture", None)
        dials = end.dials if end is not None else tb.dials.dials
        values.update({
            "pairs": claim(d.d // 2, *tb.dials.dials),
            "theta_fast": claim(values["theta_fast"], *(end.thetas[:1] if end is not None else [tb.thetas[d.fast]])),
            "theta_slow": claim(values["theta_slow"], *(end.thetas[1:] if end is not None else [tb.thetas[d.slow]])),
            "slots": claim("the empty table", *tb.slots),
            "rows": claim("a new row of colours", *[c for r in tb.grid.cells for c in r]),
            "fast": claim(d.fast, *(dials[:1] if end is not None else [tb.pairs[d.fast]])),
            "slow": claim(d.slow, *(dials[1:] if end is not None else [tb.pairs[d.slow]])),
            "wrap": claim(plain(TWO_PI / d.theta[d.fast]), self.wrap_line),
            "slow_angle": claim(numbers.measure(d.grid[m, d.slow]).text, self.slow_line),
            "m": claim(m, self.slow_line),
            "ratio": claim(plain(d.theta[0] / d.theta[1]), *tb.thetas[max(d.n_fast, 1) - 1:][-2:]),
            "decade_lo": claim(values["decade_lo"], tb.log_bar), "decade_hi": claim(values["decade_hi"], tb.log_bar),
            "slow_cols": claim(f"pairs {d.n_fast} to {d.d // 2 - 1}", tb.slow),
            "zero": claim("row 0", tb.zero_key),
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
        rule = worded_line(f"pair ${i_}$ at ${m_}$: ${N.angle.math}$,", size=LABEL)
        rate = f"{N.rate.math} = {b_}^(-2{i_} \\/ {d_})"
        given = f"{relation(b_, base_figure(d.base))}, space {d_} = {d.d}"
        self.rule_parts = (rule, rate, given)
        self.formula = after_words(rule, math(f"{rate}, space {given}", size=LABEL))
        self.proof = worded_verdict(f"every entry is ${N.angle.math}$, largest gap:", numbers.measure(d.defect),
                                    passed(d.defect))
        self.m_labels = [math(f"{N.position.math} = {m}", size=LABEL, color=FG) for m in range(T)]
        f, s_ = d.fast, d.slow
        self.wrap_line = math(f"2 pi \\/ theta_{f} = {numbers.plain(TWO_PI / d.theta[f])}", size=LABEL, color=FG)
        self.slow_line = math(relation(f"{d.m_pick} theta_{s_}", numbers.measure(d.grid[d.m_pick, s_])), size=LABEL,
                              color=FG)
        slot = [*self.m_labels, self.wrap_line, self.slow_line]
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
        line.fit(self.proof, align=LEFT)
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
        steps = [AnimationGroup(Dim([VGroup(*tb.grid.cells[0])], 1.0), Create(self.row_box), FadeIn(tb.bar),
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
                  *self.focus_on(d.slow, previous=d.fast), Dim([tb.column_of(d.fast)], self.TABLE_DIMMED),
                  Dim([tb.column_of(d.slow)], 1.0), swap(self.wrap_line, self.slow_line),
                  run_time=1.2, why=self.slow_why,
                  subject=VGroup(self.boxes[d.slow], tb.pair(d.slow), tb.column_of(d.slow), self.slow_line))
        # 5. the slow pairs, on a log scale of their own: the change of scale is this beat's point
        fast_part = VGroup(*[tb.pair(i) for i in range(d.n_fast)], *[tb.column_of(i) for i in range(d.n_fast)])
        slow_hands = [tb.pair(i) for i in range(d.n_fast, P) if i != d.slow]
        tb.thetas[d.slow].set_color(FG)
        tb.pairs[d.slow].set_color(DIM)
        self.beat(fail_key("slow_scale", bool(d.bad_cells)), FadeOut(self.boxes[d.slow]), FadeOut(self.slow_line),
                  Dim([fast_part], DIMMED), *[Dim([h], 1.0) for h in slow_hands], Dim([self.formula], DIMMED),
                  FadeIn(tb.slow), swap(tb.bar, tb.log_bar), FadeIn(tb.zero_key), run_time=1.6, why=self.two_lines,
                  subject=VGroup(tb.slow, tb.log_bar, tb.zero_key, *[tb.pair(i) for i in range(d.n_fast, P)]))
        self.remove(tb.bar)  # swapped out (the tidy play would keep it, as a part of the table)
        # 6. the proof: every entry is m·b^(−2i/d); the whole table back on its one scale, the verdict in
        # the formula's place
        # a student's cells that are not m θᵢ: outlined in red
        self.bad_frames = VGroup(*[role(SurroundingRectangle(tb.grid.cell(i, j), color=FAILED, buff=-0.02,
                                                             stroke_width=5 if k == 0 else 3).set_z_index(2), "failed")
                                   for k, (i, j) in enumerate(d.bad_cells)])
        self.beat(fail_key("check", bool(d.bad_cells)), FadeOut(tb.slow), FadeOut(tb.zero_key), swap(tb.log_bar, tb.bar),
                  Dim([fast_part], 1.0), *[Dim([tb.column_of(j)], 1.0) for j in range(d.n_fast, P)],
                  swap(self.formula, self.proof), *([Create(self.bad_frames)] if d.bad_cells else []), run_time=1.2,
                  subject=VGroup(self.proof, tb.grid, tb.dials, tb.heads))
        self.remove(tb.log_bar, self.formula)

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
        sides, thetas, dials, paths, words = [], [], [], [], []
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
            th = math(relation(f"theta_{i}", theta_figure(d.theta[i])), size=LABEL, color=FG)
            caption = worded_line(f"{word}:", th, size=LABEL, color=FG)  # the word and its rate on one baseline
            name = caption.words[0]
            self.close_captions.append(caption)
            pic = row(strip, VGroup(dial, path), gap="normal")
            sides.append(column(pic, caption, gap="small", align=np.zeros(3)))
            thetas.append(th)
            dials.append(dial)
            paths.append(path)
            words.append(name)
        picture = column(proof.copy(), row(*sides, gap="section", align="top"), gap="normal", align=np.zeros(3))
        anims = end_on(self, [(proof, picture[0]), (fast, dials[0]), (slow, dials[1]), (fast_col, sides[0][0][0]),
                              (slow_col, sides[1][0][0])], picture, new=[*paths, *thetas, *words])
        self.closing_picture = type("Close", (), {})()
        self.closing_picture.proof, self.closing_picture.thetas = proof, thetas
        self.closing_picture.dials, self.closing_picture.paths = [fast, slow], paths
        return anims
