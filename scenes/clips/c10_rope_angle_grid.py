"""10 ``RoPEAngleGrid`` (§9): one hand per pair, each over its column of the ``(T, d/2)`` angle
table; walking the positions turns the hands and writes the table row by row, every angle mod 2π
on one cyclic scale.  A fast hand wraps, a slow hand barely moves; the slow pairs get a beat of
their own on a log scale; the table equals ``m·b^(−2i/d)`` (measured), and the clip ends on that
proof over a fast and a slow hand.

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
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
    Square,
    Succession,
    SurroundingRectangle,
    VGroup,
    Write,
)

from mathcore import rope_angle_grid, rope_frequencies
from mathcore.config import LectureConfig
from mathcore.rope_measures import (
    angle_grid_defect,
)
from scenes.clips.c10_widgets import DialRow
from scenes.figures.rope import (
    ANGLE_TICK_MATH,
    ANGLE_TICKS,
    TWO_PI,
    angle_scale,
    base_figure,
    grid_proof,
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
    TITLE,
    ClipScene,
    ColorBar,
    Heatmap,
    LayoutError,
    figure,
    label,
    math,
    numbers,
    swap,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, column, end_on, row, titled
from scenes.kit.layout import FIT_PASSES
from scenes.kit.motion import Dim, set_level
from scenes.kit.notation import SUBSCRIPT, N
from scenes.kit.proofs import measured_line

QUARTER_TURN = np.pi / 2  # a pair whose angles stay under this in the table is a slow pair








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
    cmap_log: str


class AngleTable(VGroup):
    """Clip 10's picture: a hand per pair over its column of the angle table.

    ``dials`` (a :class:`DialRow`, hand ``i`` over column ``i``), ``heads`` (``i = k`` over each
    column), ``grid`` (the table mod 2π on the cyclic scale), ``rows`` (the position of each row;
    every other one when rows are tight) under ``m_name``, ``bar`` (the cyclic colour bar and its
    title); for the slow pairs' own beat ``slow`` (their log angles, laid over their columns),
    ``log_bar`` and ``zero_key`` (the masked colour: an angle of exactly 0)."""

    def __init__(self, data: AngleGridData, cell_w: float, cell_h: float, radius: float):
        super().__init__()
        d = data
        P, T, nf = d.d // 2, d.T, d.n_fast
        self.cell_w, self.cell_h, self.radius = cell_w, cell_h, radius
        self.scale, self.log_scale = angle_scale(d), slow_scale(d)
        self.grid = shows(Heatmap(d.wrapped, self.scale, cell_size=(cell_w, cell_h)), "wrapped")
        # the empty table, before the walk writes it: its cells' outlines
        self.slots = VGroup(*[c.copy() for r in self.grid.cells for c in r]).set_fill(opacity=0).set_stroke(DIM, opacity=0.3)
        self.heads = VGroup(*[math(f"{N.pair.math} = {i}", size=SMALL, color=DIM)
                              .next_to(self.grid.cell(0, i), UP, buff=GAP.tight) for i in range(P)])
        self.heads.align_to(self.heads[0], DOWN)
        self.dials = DialRow(np.zeros(P), radius=radius, h_buff=cell_w - 2 * radius, colors=[FG] * P)
        self.dials.next_to(self.heads, UP, buff=GAP.small).set_x(self.grid.get_x())
        rows = self.grid.index_labels("rows")
        every = int(np.ceil((rows[0].height + GAP.hair) / cell_h))  # the last row (the walk's end) always labelled
        self.rows = VGroup(*[t for m, t in enumerate(rows) if (T - 1 - m) % every == 0])
        self.m_name = math(N.position.math, size=SMALL, color=DIM).move_to([rows.get_x(), self.heads.get_y(), 0])
        self.bar = ColorBar(self.scale, height=T * cell_h, ticks=ANGLE_TICKS, tick_math=ANGLE_TICK_MATH)
        self.bar.next_to(self.grid, RIGHT, buff=GAP.normal).align_to(self.grid, DOWN)
        self.bar.add(self._title(names(math('"mod" 2 pi', size=SMALL, color=FG), "wrapped"), self.bar))
        # the slow pairs on their own scale, over their own columns
        self.slow = shows(Heatmap(d.log_slow, self.log_scale, cell_size=(cell_w, cell_h)), "log_slow")
        self.slow.move_to(VGroup(self.grid.cell(0, nf), self.grid.cell(T - 1, P - 1)))
        swatch = Square(side_length=min(cell_h, self.heads.height), stroke_color=DIM, stroke_width=self.bar.frame.stroke_width,
                        fill_color=FAINT, fill_opacity=1)
        self.zero_key = row(swatch, figure(0.0, size=SMALL, color=DIM), gap="small")
        decades = slow_decades(d)
        self.log_bar = ColorBar(self.log_scale, height=T * cell_h - self.zero_key.height - GAP.normal,
                                ticks=decades, tick_math=[numbers.power(k).math for k in decades])
        self.log_bar.shift(self.bar.frame.get_corner(UP + LEFT) - self.log_bar.frame.get_corner(UP + LEFT))
        self.log_bar.add(self._title(names(label("log scale", size=SMALL, color=FG), "log_slow"), self.log_bar))
        self.zero_key.align_to(self.log_bar.frame, LEFT).align_to(self.grid, DOWN)
        self.add(self.dials, self.heads, self.slots, self.grid, self.rows, self.m_name, self.bar)
        self.extras = VGroup(self.slow, self.log_bar, self.zero_key)  # not on screen at first: placed with the table

    @staticmethod
    def _title(title, bar):
        """A colour bar's title: over its top tick, starting where the bar does."""
        return title.next_to(bar, UP, buff=GAP.tight).align_to(bar.frame, LEFT)

    @classmethod
    def fitted(cls, data: AngleGridData, region, dial_share: float) -> AngleTable:
        """The largest table whose dials take at most ``dial_share`` of ``region``'s height, centred in it."""
        P, T = data.d // 2, data.T
        W, H = region.width - GAP.hair, region.height - GAP.hair  # a hair inside: rounding never crosses the edge
        probe = cls(data, 1.0, 1.0, 0.5)
        for _ in range(FIT_PASSES):  # row labels thin out and bars shrink with the cells: measure again
            side_w = probe.whole.width - P * probe.cell_w  # row labels and colour bars
            cell_w = (W - side_w) / P
            radius = min(cell_w - GAP.normal, dial_share * H) / 2
            rest_h = probe.height - T * probe.cell_h - 2 * probe.radius  # heads, titles and gaps
            cell_h = min((H - rest_h - 2 * radius) / T, cell_w)
            probe = cls(data, cell_w, cell_h, radius)
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
        return SurroundingRectangle(VGroup(self.grid.cell(m, 0), self.grid.cell(m, P - 1)), color=HIGHLIGHT,
                                    buff=GAP.hair / 2).set_z_index(1)

    def column_box(self, i: int) -> SurroundingRectangle:
        T = self.grid.values.shape[0]
        return SurroundingRectangle(VGroup(self.grid.cell(0, i), self.grid.cell(T - 1, i)), color=HIGHLIGHT,
                                    buff=GAP.hair / 2).set_z_index(1)

    def column_of(self, i: int) -> VGroup:
        return VGroup(*[r[i] for r in self.grid.cells])

    def pair(self, i: int) -> VGroup:
        """Hand ``i`` and its head."""
        return VGroup(self.dials.dials[i], self.heads[i])


class RoPEAngleGrid(ClipScene):
    """10 · The RoPE angle table: fast hands and slow hands."""

    TIDY_PLAYS = True  # the table's cells and the hands are animated one by one
    D = 16  # eight pairs
    DIAL_SHARE = 0.3  # of the table's region, the most the row of hands may take

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
            n_fast=n_fast, log_slow=log_slow, cmap_log=cfg.cmap_weights,
        )

    def caption_values(self) -> dict:
        d = self.data
        m = d.m_pick
        plain = numbers.plain
        return {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "m": m, "fast": d.fast, "slow": d.slow,
            "slow_first": d.n_fast,
            "wrap": plain(TWO_PI / d.theta[d.fast]), "fast_angle": plain(d.grid[m, d.fast]),
            "slow_angle": numbers.measure(d.grid[m, d.slow]).text,
            "ratio": plain(d.theta[0] / d.theta[1]),
            "theta_fast": relation_text("θ" + str(d.fast).translate(SUBSCRIPT), theta_figure(d.theta[d.fast])),
            "theta_slow": relation_text("θ" + str(d.slow).translate(SUBSCRIPT), theta_figure(d.theta[d.slow])),
            "decade_lo": numbers.power(slow_decades(d)[0]).text, "decade_hi": numbers.power(slow_decades(d)[-1]).text,
            "defect": numbers.measure(d.defect).text,
        }

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
        # the top lines: what the table holds (later its proof) and a slot for the position, then a pair's
        # rate; under them the base and the width
        m_, i_, b_, d_ = N.position.math, N.pair.math, N.base.math, N.width.math
        formula = f'"angle"_({m_}, {i_}) = {N.angle.math}, quad {N.rate.math} = {b_}^(-2{i_} \\/ {d_})'
        given = f"{relation(b_, base_figure(d.base))}, quad {d_} = {d.d}"
        self.formula = math(formula, size=LABEL)
        self.given = math(given, size=LABEL, color=DIM)
        self.proof = measured_line(grid_proof(d)[0], d.defect)
        self.m_labels = [math(f"{N.position.math} = {m}", size=LABEL, color=FG) for m in range(T)]
        self.theta = {i: math(relation(f"theta_{i}", theta_figure(d.theta[i])), size=LABEL, color=FG)
                      for i in (d.fast, d.slow)}
        slot = [*self.m_labels, *self.theta.values()]
        first, rest = content.take_top(max(m.height for m in (self.formula, self.proof, *slot)), gap=GAP.tight)
        second, rest = rest.take_top(self.given.height, gap=GAP.normal)
        slot_region, line = first.take_right(max(m.width for m in slot), gap=GAP.wide)
        line.fit(self.formula, align=LEFT)
        line.fit(self.proof, align=LEFT)
        second.fit(self.given, align=LEFT)
        for m in slot:
            slot_region.place(m, RIGHT)
        self.m_now = self.m_labels[0]
        self.formula_big = content.fit(column(math(formula, size=TITLE), math(given, size=TITLE, color=DIM), gap="wide",
                                              align=np.zeros(3)))
        self.table = tb = AngleTable.fitted(d, rest, self.DIAL_SHARE)
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
        # 1. the formula, large: what every cell of the table will hold
        self.beat("formula", Write(self.formula_big), run_time=1.6)
        self.remove(self.formula_big)
        self.add(*self.formula_big)  # each line on its own: it becomes its line of the strip
        # 2. a hand per pair, all at position 0, each over the column it will fill
        self.beat("hands", Succession(
            AnimationGroup(*[ReplacementTransform(a, b) for a, b in zip(self.formula_big, (self.formula, self.given))]),
            AnimationGroup(FadeIn(tb.dials, lag_ratio=0.05), FadeIn(tb.heads), FadeIn(tb.slots), FadeIn(tb.rows),
                           FadeIn(tb.m_name), FadeIn(self.m_now))), run_time=1.8)
        # 3. walk the positions: the hands turn by θ_i a step, and row m of the table records where they point
        self.add(tb.grid)
        steps = [AnimationGroup(Dim([VGroup(*tb.grid.cells[0])], 1.0), Create(self.row_box), FadeIn(tb.bar))]
        for m in range(1, T):
            steps.append(AnimationGroup(
                tb.dials.turn_to(d.grid[m]), self.row_box.animate.move_to(tb.row_box(m)),
                Dim([VGroup(*tb.grid.cells[m])], 1.0), swap(self.m_labels[m - 1], self.m_labels[m])))
        self.beat("walk", Succession(*steps), run_time=0.7 * T)
        self.m_now = self.m_labels[-1]
        # 4. a fast hand: its column's colours go round the cycle
        self.beat("fast", Create(self.boxes[d.fast]), *self.focus_on(d.fast), swap(self.m_now, self.theta[d.fast]),
                  run_time=1.2)
        # 5. a slow hand: its column is one colour
        self.beat("slow", ReplacementTransform(self.boxes[d.fast], self.boxes[d.slow]),
                  *self.focus_on(d.slow, previous=d.fast), swap(self.theta[d.fast], self.theta[d.slow]), run_time=1.2)
        # 6. the slow pairs, on a log scale of their own: the change of scale is this beat's point
        fast_part = VGroup(*[tb.pair(i) for i in range(d.n_fast)], *[tb.column_of(i) for i in range(d.n_fast)])
        slow_hands = [tb.pair(i) for i in range(d.n_fast, P) if i != d.slow]
        self.beat("slow_scale", FadeOut(self.boxes[d.slow]), FadeOut(self.row_box), FadeOut(self.theta[d.slow]),
                  Dim([fast_part], DIMMED), *[Dim([h], 1.0) for h in slow_hands],
                  FadeIn(tb.slow), swap(tb.bar, tb.log_bar), FadeIn(tb.zero_key), run_time=1.6)
        self.remove(tb.bar)  # swapped out (the tidy play would keep it, as a part of the table)
        # 7. the proof: every entry is m·b^(−2i/d); the whole table back on its one scale
        self.beat("check", FadeOut(tb.slow), FadeOut(tb.zero_key), swap(tb.log_bar, tb.bar), Dim([fast_part], 1.0),
                  swap(self.formula, self.proof), run_time=1.2)
        self.remove(tb.log_bar, self.formula)

    def focus_on(self, i: int, previous: int | None = None) -> list:
        """Dim every hand and head but pair ``i``'s (only the ``previous`` focus, if there was one),
        then flash it: brought back first, so the flash starts from full opacity and ends there."""
        P = self.data.d // 2
        tb = self.table
        others = [previous] if previous is not None else [j for j in range(P) if j != i]
        return [*[Dim([tb.pair(j)], DIMMED) for j in others],
                Succession(Dim([tb.pair(i)], 1.0), Indicate(tb.dials.dials[i], color=HIGHLIGHT))]

    # ------------------------------------------------------------------ the close
    def takeaway(self):
        d = self.data
        return VGroup(self.proof, self.table.dials.dials[d.fast], self.table.dials.dials[d.slow])

    def bring_forward(self, take, region=None) -> list:
        """The proof, large, over the two hands it is about, each named in a word."""
        proof, fast, slow = take
        hands = [titled(h.copy(), label(word, size=SMALL, color=FG), side=DOWN) for h, word in ((fast, "fast"), (slow, "slow"))]
        picture = column(proof.copy(), row(*hands, gap="section", align="top"), gap="wide", align=np.zeros(3))
        return end_on(self, [(proof, picture[0]), (fast, hands[0].widget), (slow, hands[1].widget)], picture,
                      new=[h.title for h in hands])

