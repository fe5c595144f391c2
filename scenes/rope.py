"""RoPE clips.

10 ``RoPEAngleGrid`` (§9): one hand per pair, each over its column of the ``(T, d/2)`` angle
table; walking the positions turns the hands and writes the table row by row, every angle mod 2π
on one cyclic scale.  A fast hand wraps, a slow hand barely moves; the slow pairs get a beat of
their own on a log scale; the table equals ``m·b^(−2i/d)`` (measured), and the clip ends on that
proof over a fast and a slow hand.

11 ``RoPERotatesQK`` (Q3): rotate q by position m and k by n; shift both by the same s and the
score is unchanged (measured over every shift up to ``s_max``); V is not rotated because it
carries content, not position (why, in two lines); a rotated V makes the outputs of a shifted
sequence change (measured).  The clip ends on the three measured lines.

The scales, titles and proof figures both clips draw are described in ``scenes/figures/rope.py``,
which their stills share.  Render directly with ``manim -ql scenes/rope.py RoPEAngleGrid``.
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
    ApplyFunction,
    Create,
    FadeIn,
    FadeOut,
    Group,
    Indicate,
    ReplacementTransform,
    Rotate,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    Write,
)

from mathcore import lecture_inputs, rope_angle_grid, rope_frequencies
from mathcore.attention import matmul
from mathcore.config import LectureConfig
from mathcore.rope_measures import (
    angle_grid_defect,
    rope_pairs,
    rope_score,
    rope_self_attention_trace,
    shift_output_defect,
    shift_score_defects,
)
from scenes.figures.rope import (
    ANGLE_TICK_MATH,
    ANGLE_TICKS,
    SCORE_DIGITS,
    TWO_PI,
    V_PLAIN_MATH,
    V_ROT_MATH,
    angle_scale,
    base_figure,
    grid_proof,
    output_gap_lhs,
    output_scale,
    passed,
    positions_text,
    relation,
    relation_text,
    score_gap_lhs,
    slow_decades,
    slow_scale,
    theta_figure,
)
from scenes.kit import (
    DIM,
    FAILED,
    FAINT,
    FG,
    HEADING,
    HIGHLIGHT,
    KEY,
    LABEL,
    QUERY,
    SMALL,
    TITLE,
    VALUE,
    VERIFIED,
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
from scenes.kit.compose import DIMMED, GAP, column, row, titled
from scenes.kit.notation import N
from scenes.kit.dials import DialRow, PairDial

QUARTER_TURN = np.pi / 2  # a pair whose angles stay under this in the table is a slow pair
FIT_PASSES = 3  # sizing a widget whose labels set a floor on its cells: measure, resize, measure again
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")  # θ₇ in a caption


# =====================================================================================
# shared motion: focus by dimming, and the closing picture
# =====================================================================================
def _remember_opacity(mob) -> None:
    """Note, once, the opacity each part of ``mob`` was built with (its "full" level)."""
    for f in mob.get_family():
        if not hasattr(f, "_full_opacity"):
            f._full_opacity = (float(np.max(f.get_fill_opacities(), initial=0.0)),
                               float(np.max(f.get_stroke_opacities(), initial=0.0)))


def set_level(mob, level: float):
    """Set every part of ``mob`` to ``level`` times the opacity it was built with (1 restores).

    Scales fill and stroke separately, so an outline stays unfilled (``set_opacity`` would
    fill a dial's face)."""
    _remember_opacity(mob)
    for f in mob.get_family():
        fo, so = f._full_opacity
        f.set_fill(opacity=fo * level, family=False)
        f.set_stroke(opacity=so * level, family=False)
    return mob


def dim_to(mob, level: float, **kw) -> ApplyFunction:
    """Animate ``mob`` to ``level`` of its full opacity (``DIMMED`` dims it, 1 restores)."""
    _remember_opacity(mob)  # before any change: what it is now is its full level
    return ApplyFunction(lambda m: set_level(m, level), mob, **kw)


def proof_line(lhs: str, x: float, size: float = LABEL, digits: int = 2):
    """A measured figure typeset with the statement it measures, on one math line (``lhs ≈ 2.2 ×
    10⁻¹⁶``, ``lhs = 0`` with its exact mark), in the colour of the check's verdict."""
    fig = numbers.measure(x, digits)
    color = VERIFIED if passed(x) else FAILED
    return figure(fig, size=size, color=color, prefix=f"{lhs} =")  # the kit writes "≈" alone for an approximate one


def end_on(scene: ClipScene, parts, picture, new=()) -> list:
    """The closing beat's animations: ``parts`` (on screen) move into ``picture`` (copies of them,
    composed), which is fitted to the content area at up to ``TAKEAWAY_SCALE``; everything else
    on screen but the header fades out first; then ``new`` (mobjects of ``picture`` that are not
    copies of a part: words added for the end) fade in as the parts move."""
    region = scene.layout.content
    s = min(region.width * scene.TAKEAWAY_FILL / picture.width, region.height * scene.TAKEAWAY_FILL / picture.height,
            scene.TAKEAWAY_SCALE)
    picture.scale(s).move_to(region.center)
    targets = {id(p): t for p, t in parts}
    keep = {id(f) for p, _ in parts for f in p.get_family()} | {id(f) for f in scene.header.get_family()}
    leaves = [f for m in scene.mobjects for f in m.get_family()
              if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
    come = AnimationGroup(*[Transform(p, targets[id(p)]) for p, _ in parts], *[FadeIn(m) for m in new])
    return [Succession(FadeOut(Group(*leaves)), come) if leaves else come]  # the rest leaves first


# =====================================================================================
# 10 RoPEAngleGrid
# =====================================================================================
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
        self.proof = proof_line(grid_proof(d)[0], d.defect)
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
        _remember_opacity(tb.grid)
        set_level(tb.grid, 0.0)

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
        steps = [AnimationGroup(dim_to(VGroup(*tb.grid.cells[0]), 1.0), Create(self.row_box), FadeIn(tb.bar))]
        for m in range(1, T):
            steps.append(AnimationGroup(
                tb.dials.turn_to(d.grid[m]), self.row_box.animate.move_to(tb.row_box(m)),
                dim_to(VGroup(*tb.grid.cells[m]), 1.0), swap(self.m_labels[m - 1], self.m_labels[m])))
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
                  dim_to(fast_part, DIMMED), *[dim_to(h, 1.0) for h in slow_hands],
                  FadeIn(tb.slow), swap(tb.bar, tb.log_bar), FadeIn(tb.zero_key), run_time=1.6)
        self.remove(tb.bar)  # swapped out (the tidy play would keep it, as a part of the table)
        # 7. the proof: every entry is m·b^(−2i/d); the whole table back on its one scale
        self.beat("check", FadeOut(tb.slow), FadeOut(tb.zero_key), swap(tb.log_bar, tb.bar), dim_to(fast_part, 1.0),
                  swap(self.formula, self.proof), run_time=1.2)
        self.remove(tb.log_bar, self.formula)

    def focus_on(self, i: int, previous: int | None = None) -> list:
        """Dim every hand and head but pair ``i``'s (only the ``previous`` focus, if there was one),
        then flash it: brought back first, so the flash starts from full opacity and ends there."""
        P = self.data.d // 2
        tb = self.table
        others = [previous] if previous is not None else [j for j in range(P) if j != i]
        return [*[dim_to(tb.pair(j), DIMMED) for j in others],
                Succession(dim_to(tb.pair(i), 1.0), Indicate(tb.dials.dials[i], color=HIGHLIGHT))]

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



# =====================================================================================
# 11 RoPERotatesQK
# =====================================================================================
def pick_query_key(Q: np.ndarray, K: np.ndarray) -> tuple[int, int]:
    """``(a, b)`` with ``T > a > b >= 1``: the query row ``a`` and the key row ``b`` whose hands are
    easiest to see on every dial.  Each dial is scaled to its longer hand, so the shorter hand's
    share ``min(|q_a,i|, |k_b,i|) / max(...)`` is what can vanish; maximise its worst pair.
    ``b >= 1`` so both tokens sit past position 0 and both hands turn; ties go to the first."""
    T = Q.shape[0]
    if T < 3:
        raise ValueError(f"pick_query_key needs at least 3 rows, got {T}")
    qn = np.linalg.norm(Q.reshape(T, -1, 2), axis=2)
    kn = np.linalg.norm(K.reshape(T, -1, 2), axis=2)
    best, pick = -1.0, (2, 1)
    for a in range(2, T):
        for b in range(1, a):
            hi = np.maximum(qn[a], kn[b])
            share = float(np.min(np.minimum(qn[a], kn[b]) / np.where(hi > 0, hi, 1.0)))
            if share > best + 1e-12:
                best, pick = share, (a, b)
    return pick


@dataclass(frozen=True)
class RotatesQKData:
    """What clip 11 draws.

    ``q``, ``k``: the query row ``q_token`` and key row ``k_token`` of the lecture input
    (``X Wq``, ``X Wk``; chosen by :func:`pick_query_key`); each token sits at its own
    position, ``m = q_token`` and ``n = k_token``, then the whole sequence slides by ``s``.
    ``q_pairs``/``k_pairs``: their pairs unrotated, at ``(m, n)`` and at ``(m+s, n+s)``
    (``rope_pairs``); the two scores, their measured gap and the largest gap over every shift
    from 1 to ``s_max``.  ``Y*``: RoPE self-attention outputs of the whole input at positions
    0 to T−1 and s to s+T−1, with ``V`` left alone and with ``V`` rotated, and the measured
    ``max |ΔY|`` of each.
    """

    q: np.ndarray  # (d,)
    k: np.ndarray  # (d,)
    m: int
    n: int
    s: int
    s_max: int
    theta: np.ndarray  # (d/2,)
    angles: np.ndarray  # (3, 2, d/2): [stage, q/k, pair] rotation angle applied
    q_pairs: np.ndarray  # (3, d/2, 2) stage 0: unrotated (position 0), 1: m, 2: m+s
    k_pairs: np.ndarray  # (3, d/2, 2)
    score: float
    score_shifted: float
    score_gap: float
    score_gap_max: float
    Y_plain: np.ndarray  # (T, d)
    Y_plain_shifted: np.ndarray
    Y_rot: np.ndarray
    Y_rot_shifted: np.ndarray
    defect_plain: float
    defect_rot: float
    cmap: str
    q_token: int
    k_token: int
    worst_rot: tuple[int, int]  # (token, feature) of the output a rotated V moves most: |ΔY| there is defect_rot


class OutputPair(VGroup):
    """One value's outputs, before and after the shift: ``head`` (how V is made), the two maps
    (``maps[0]`` at positions 0 to T−1, ``maps[1]`` at s to s+T−1, each titled with its positions
    and bound to its quantity), the colour ``bar`` and ``measure`` (the measured ``max |ΔY|``)."""

    def __init__(self, Ya, Yb, quantities: tuple[str, str], head: str, defect: float, s: int, scale, cell: float):
        super().__init__()
        T = Ya.shape[0]
        self.head = math(head, size=LABEL, color=FG)
        self.maps, titled_maps = [], []
        for Y, q, first in zip((Ya, Yb), quantities, (0, s)):
            hm = shows(Heatmap(Y, scale, cell_size=cell), q)
            self.maps.append(hm)
            titled_maps.append(titled(hm, names(label(positions_text(first, T), size=SMALL, color=DIM), q)))
        self.pair = row(*titled_maps, gap="normal", align="bottom")
        self.bar = ColorBar(scale, height=T * cell)
        self.measure = proof_line(output_gap_lhs(), defect)
        self.body = row(self.pair, self.bar, gap="normal", align="bottom")
        self.add(row(self.head, column(self.body, self.measure, gap="small", align=np.zeros(3)), gap="wide"))
        self.cell_size = cell

    @classmethod
    def fitted(cls, region, *args) -> OutputPair:
        """The pair with the largest cells that fit ``region``, centred in it."""
        g = cls(*args, 1.0)
        for _ in range(FIT_PASSES):
            T, d = g.maps[0].values.shape
            ow, oh = g.width - 2 * d * g.cell_size, g.height - T * g.cell_size
            g = cls(*args, min((region.width - ow) / (2 * d), (region.height - oh) / T, 1.0))
        if g.width > region.width + 1e-6 or g.height > region.height + 1e-6:
            raise LayoutError(f"the outputs do not fit region {region.name!r}")
        return region.place(g)


class RoPERotatesQK(ClipScene):
    """11 · RoPE rotates q and k, and leaves V alone."""

    S = 3  # the shift
    S_MAX = 1000  # shifts measured: every s from 1 to S_MAX

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> RotatesQKData:
        inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        base = cfg.rope_base
        Q, K = matmul(inp.X, inp.Wq), matmul(inp.X, inp.Wk)
        a, b = pick_query_key(Q, K)
        q, k = Q[a], K[b]
        m, n, s = a, b, cls.S  # each token at its own position, then the sequence slides by s
        stages = ((0, 0), (m, n), (m + s, n + s))
        grid = rope_angle_grid(m + s + 1, cfg.d, base)
        angles = np.array([[grid[x], grid[y]] for x, y in stages])
        T = cfg.T
        pos = np.arange(T, dtype=float)
        outs = {
            (rv, sh): rope_self_attention_trace(inp.X, inp.Wq, inp.Wk, inp.Wv, pos + sh, base, rotate_v=rv).output
            for rv in (False, True) for sh in (0, s)
        }
        score, score_shifted = rope_score(q, k, m, n, base), rope_score(q, k, m + s, n + s, base)
        return RotatesQKData(
            q=q, k=k, m=m, n=n, s=s, s_max=cls.S_MAX, theta=rope_frequencies(cfg.d, base), angles=angles,
            q_pairs=np.array([rope_pairs(q, x, base) for x, _ in stages]),
            k_pairs=np.array([rope_pairs(k, y, base) for _, y in stages]),
            score=score, score_shifted=score_shifted, score_gap=abs(score_shifted - score),
            score_gap_max=float(np.max(shift_score_defects(q, k, m, n, np.arange(1, cls.S_MAX + 1), base))),
            Y_plain=outs[False, 0], Y_plain_shifted=outs[False, s], Y_rot=outs[True, 0], Y_rot_shifted=outs[True, s],
            defect_plain=shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, s, base, rotate_v=False),
            defect_rot=shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, s, base, rotate_v=True),
            cmap=cfg.cmap_signed, q_token=a, k_token=b,
            worst_rot=tuple(int(x) for x in np.unravel_index(np.argmax(np.abs(outs[True, s] - outs[True, 0])),
                                                             outs[True, 0].shape)),
        )

    def caption_values(self) -> dict:
        d = self.data
        T = d.Y_plain.shape[0]
        return {
            "m": d.m, "n": d.n, "s": d.s, "ms": d.m + d.s, "ns": d.n + d.s, "diff": d.m - d.n,
            "s_max": numbers.count(d.s_max).text, "d": d.q.size, "pairs": d.q.size // 2, "T": T, "T1": T - 1,
            "sT": d.s + T - 1, "qa": d.q_token, "kb": d.k_token,
            "score": numbers.measure(d.score, SCORE_DIGITS).text,
            "score_shifted": numbers.measure(d.score_shifted, SCORE_DIGITS).text,
            "gap": numbers.measure(d.score_gap).text, "gap_max": numbers.measure(d.score_gap_max).text,
            "defect_plain": numbers.measure(d.defect_plain).text, "defect_rot": numbers.measure(d.defect_rot).text,
            "worst_token": d.worst_rot[0], "worst_feature": d.worst_rot[1],
        }

    def caption(self, key: str) -> str:
        """Worded variants chosen by measured values (the narration must hold for every config)."""
        if key == "qk" and self.data.q.size == 2:
            key = "qk_one"
        return super().caption(key)

    # ------------------------------------------------------------------ the storyboard's pieces
    def make_mobjects(self) -> None:
        d = self.data
        P = d.q.size // 2
        content = self.layout.content
        # ---- the notes under the dials: who is who and where they sit (left), the scores (right)
        self.who, self.at_words, self.where, self.moved = VGroup(), VGroup(), VGroup(), VGroup()
        rows = []
        for sym, col, what, tok, pos, pos_now in (
                (N.queries.math.lower(), QUERY, "query of token", d.q_token, N.position.math, (d.m, d.m + d.s)),
                (N.keys.math.lower(), KEY, "key of token", d.k_token, N.other_position.math, (d.n, d.n + d.s))):
            # laid out with where the token is after the shift (the wider figure); before it, the same place
            words = row(label(f"{what} {tok},", size=LABEL), label("at", size=SMALL, color=DIM),
                        math(f"{pos} + {N.shift.math} = {pos_now[1]}", size=LABEL, color=col), gap="small",
                        align="baseline")
            rows.append(row(math(sym, size=LABEL, color=col), words, gap="small"))
            self.who.add(VGroup(rows[-1][0], words[0]))
            self.at_words.add(words[1])
            self.moved.add(words[2])
            self.where.add(math(f"{pos} = {pos_now[0]}", size=LABEL, color=col))
        self.shift_line = math(f"{N.shift.math} = {d.s}", size=LABEL)
        self.diff_line = math(f"{N.offset.math} = {d.m - d.n}", size=LABEL)
        lines = column(*rows, row(self.shift_line, self.diff_line, gap="wide", align="baseline"), gap="small")
        x_at = max(w.get_left()[0] for w in self.at_words)  # "at" in one column
        for w, moved in zip(self.at_words, self.moved):
            VGroup(w, moved).shift((x_at - w.get_left()[0]) * RIGHT)
        self.score_row = figure(numbers.measure(d.score, SCORE_DIGITS), prefix=f'"score"({d.m}, {d.n}) =')
        self.score_shift_row = figure(numbers.measure(d.score_shifted, SCORE_DIGITS),
                                      prefix=f'"score"({d.m + d.s}, {d.n + d.s}) =')
        self.gap_row = proof_line('Delta "score"', d.score_gap)
        self.gap_max_row = proof_line(score_gap_lhs(d.s_max), d.score_gap_max)
        scores = column(self.score_row, self.score_shift_row, self.gap_row, self.gap_max_row, gap="small")
        notes, dial_region = content.take_bottom(max(lines.height, scores.height), gap=GAP.normal)
        left, right = notes.columns(lines.width, scores.width, gap=GAP.wide)
        left.fit(lines, align=LEFT + UP)
        right.fit(scores, align=LEFT + UP)
        for at, moved in zip(self.where, self.moved):  # where each token is before the shift, in the same place
            at.scale(moved.height / math(moved.typst_code.strip("$ "), size=LABEL).height)
            at.move_to(moved, aligned_edge=LEFT + DOWN)
        self.unrotated = label("not rotated yet", size=SMALL, color=DIM)
        self.unrotated.move_to(VGroup(self.at_words, self.where), aligned_edge=LEFT)

        # ---- the dials: one per pair, as large as the region allows, q and k in their colours
        caps = [math(relation(f"theta_{i}", theta_figure(d.theta[i])), size=SMALL, color=DIM) for i in range(P)]
        cap_h = max(c.height for c in caps) + GAP.tight
        r = min((dial_region.width - (P - 1) * GAP.wide) / P, dial_region.height - cap_h) / 2
        self.dials = VGroup(*[PairDial(np.array([d.q_pairs[0, i], d.k_pairs[0, i]]), colors=[QUERY, KEY], radius=r)
                              for i in range(P)])
        self.dial_caps = VGroup()
        for dial, cap in zip(self.dials, caps):
            self.dial_caps.add(cap.next_to(dial.face, DOWN, buff=GAP.tight))
        cells = VGroup(*[VGroup(dl, cp) for dl, cp in zip(self.dials, self.dial_caps)]).arrange(RIGHT, buff=GAP.wide)
        dial_region.place(cells)
        self.arcs = VGroup()

        # ---- part two: the measured lines gather at the top (a ledger); one value's outputs at a time below
        self.line_h = max(self.gap_max_row.height, row(math(V_ROT_MATH), proof_line(output_gap_lhs(), d.defect_rot)).height)
        one, plain_region = content.take_top(self.line_h, gap=GAP.normal)
        self.ledger, rot_region = content.take_top(2 * self.line_h + GAP.tight, gap=GAP.normal)
        scale = self.y_scale = output_scale(d)
        self.plain = OutputPair.fitted(plain_region, d.Y_plain, d.Y_plain_shifted, ("Y_plain", "Y_plain_shifted"),
                                       V_PLAIN_MATH, d.defect_plain, d.s, scale)
        self.rot = OutputPair.fitted(rot_region, d.Y_rot, d.Y_rot_shifted, ("Y_rot", "Y_rot_shifted"),
                                     V_ROT_MATH, d.defect_rot, d.s, scale)
        self.y_maps = [self.plain.maps, self.rot.maps]
        # why V is left alone: the rotated query and key meet as m − n; the values are mixed as they are
        q, k, v = N.query.math, N.key.math, N.value.math
        self.why = column(
            math(f"(R_m {{{{ {q} : q1 }}}})^T (R_n {{{{ {k} : k1 }}}}) = {{{{ {q}^T : q2 }}}} R_(n - m) {{{{ {k} : k2 }}}}",
                 size=HEADING),
            math(f"y_m = sum_n a_(m n) {{{{ {v} : v }}}}", size=HEADING), gap="wide", align=np.zeros(3))
        for line, groups in zip(self.why, (("q1", "k1", "q2", "k2"), ("v",))):
            for g in groups:
                line.select(g).set_color({"q": QUERY, "k": KEY, "v": VALUE}[g[0]])
        rot_region.fit(self.why)

    def turn_all(self, stage_from: int, stage_to: int) -> list:
        d = self.data
        return [dial.turn(d.angles[stage_to, :, i] - d.angles[stage_from, :, i]) for i, dial in enumerate(self.dials)]

    def to_ledger(self, mobs, slot: int) -> list:
        """``mobs`` (on screen) moved side by side into ledger line ``slot`` (scaled down to the line's
        height if taller): the measured lines gather at the top of part two."""
        line = row(*[m.copy() for m in mobs], gap="wide", align="baseline")
        if line.height > self.line_h:
            line.scale(self.line_h / line.height)
        line.move_to(self.ledger.point(LEFT + UP), aligned_edge=LEFT + UP).shift(slot * (self.line_h + GAP.tight) * DOWN)
        return [Transform(m, t) for m, t in zip(mobs, line)]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        # q and k as they come out of X W: one dial per pair
        self.beat("qk", FadeIn(self.dials, lag_ratio=0.1), FadeIn(self.dial_caps), FadeIn(self.who),
                  FadeIn(self.unrotated), run_time=1.2)
        # each turned by its own position
        self.beat("rotate", *self.turn_all(0, 1), swap(self.unrotated, VGroup(self.at_words, self.where)), run_time=1.8)
        # the angle between each q and k is what the score sees
        self.arcs = VGroup(*[dial.angle_arc(0, 1, color=FG) for dial in self.dials])
        self.beat("score", Create(self.arcs), FadeIn(self.score_row), run_time=1.0)
        # slide both tokens by s: both hands of a pair turn alike, and so does the arc between them
        arc_turns = [Rotate(arc, angle=float(d.angles[2, 0, i] - d.angles[1, 0, i]), about_point=dial.center)
                     for i, (arc, dial) in enumerate(zip(self.arcs, self.dials))]
        self.beat("shift", *self.turn_all(1, 2), *arc_turns,
                  *[swap(a, b) for a, b in zip(self.where, self.moved)], FadeIn(self.shift_line), run_time=1.8)
        self.beat("same", FadeIn(self.score_shift_row), FadeIn(self.diff_line), Indicate(self.arcs, color=HIGHLIGHT),
                  run_time=1.0)
        self.beat("gap", FadeIn(self.gap_row), FadeIn(self.gap_max_row), run_time=0.8)
        # ---- V: the whole sequence, at positions 0 to T−1 and s to s+T−1; part one leaves, its result stays
        part_one = VGroup(self.dials, self.dial_caps, self.arcs, self.who, self.at_words, self.moved, self.shift_line,
                          self.diff_line, self.score_row, self.score_shift_row, self.gap_row)
        p, r = self.plain, self.rot
        self.beat("v_plain", Succession(FadeOut(part_one), AnimationGroup(*self.to_ledger([self.gap_max_row], 0)),
                                        AnimationGroup(FadeIn(p.head), FadeIn(p.body))), run_time=1.8)
        self.beat("v_plain_measure", FadeIn(p.measure), run_time=0.8)
        # why: the maps give way to the two lines that say it; V alone and its measure join the ledger
        self.beat("v_why", Succession(FadeOut(p.body), AnimationGroup(*self.to_ledger([p.head, p.measure], 1)),
                                      FadeIn(self.why)), run_time=1.8)
        self.beat("v_rot", Succession(FadeOut(self.why), AnimationGroup(FadeIn(r.head), FadeIn(r.body))), run_time=1.6)
        worst = [SurroundingRectangle(hm.cell(*d.worst_rot), color=HIGHLIGHT, buff=0) for hm in r.maps]
        self.beat("v_rot_measure", FadeIn(r.measure), *[Create(b) for b in worst], run_time=0.8)

    # ------------------------------------------------------------------ the close
    def takeaway(self):
        return VGroup(self.gap_max_row, self.plain.head, self.plain.measure, self.rot.head, self.rot.measure)

    def bring_forward(self, take, region=None) -> list:
        """The three measured lines, large: the scores agree over every shift, V alone keeps the
        outputs, a rotated V moves them."""
        gap, ph, pm, rh, rm = take
        lines = [gap.copy(), row(ph.copy(), pm.copy(), gap="wide", align="baseline"),
                 row(rh.copy(), rm.copy(), gap="wide", align="baseline")]
        picture = column(*lines, gap="normal")
        for line in lines[1:]:  # the measures in one column
            line[1].align_to(lines[2][1], LEFT)
        pairs = [(gap, lines[0]), (ph, lines[1][0]), (pm, lines[1][1]), (rh, lines[2][0]), (rm, lines[2][1])]
        return end_on(self, pairs, picture)

