"""RoPE clips.

10 ``RoPEAngleGrid`` (§9): the ``(T, d/2)`` angle table as a heatmap of angle mod 2π
on a cyclic colormap; one row (a position) and one column (a pair) picked out; each
pair as a 2-D hand turning by ``θ_i`` per position, driven by the grid's values.

11 ``RoPERotatesQK`` (Q3): rotate q by position m and k by n; shift both by the same s
and the score is unchanged (measured); V is not rotated because it carries content,
not position; a rotated V would make the outputs of a shifted sequence change (measured).

Render directly with ``manim -ql scenes/rope.py RoPEAngleGrid``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    ApplyFunction,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Rotate,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    Write,
    linear,
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
from scenes.kit.stills import HeatmapStill
from scenes.kit import (
    ACCENT,
    BAD,
    BLUE,
    DIM,
    FAINT,
    FG,
    GOOD,
    LABEL,
    SMALL,
    ClipScene,
    ColorScale,
    Heatmap,
    fmt_measure,
    LayoutError,
    Readout,
    Region,
    fit_label,
    fmt_value,
    label,
    math,
)
from scenes.kit.position_widgets import ColorBar, DialRow
from scenes.kit.theme import PURPLE

TWO_PI = 2 * np.pi


def fmt_base(base: float) -> str:
    """The frequency base as typed in the config: ``10000`` rather than ``10000.0``."""
    return f"{int(base)}" if float(base).is_integer() else f"{base:g}"


def fmt_rate(x: float) -> str:
    """A per-position angle for a label, two significant digits: ``1.0``, ``0.32``, ``0.00032``."""
    s = f"{x:.2g}"
    if "e" in s:
        s = f"{x:.{1 - int(np.floor(np.log10(abs(x))))}f}"
    return s if "." in s else s + ".0"


def fmt_small(x: float) -> str:
    """A rate or an angle that may be tiny: ``fmt_rate`` down to 0.001, then ``3.2e−4``."""
    return fmt_rate(x) if abs(x) >= 1e-3 else fmt_measure(x)


# =====================================================================================
# shared motion: focus by dimming
# =====================================================================================
def set_level(mob, level: float):
    """Set every part of ``mob`` to ``level`` times the opacity it was built with (1 restores).

    Scales fill and stroke separately, so an outline stays unfilled (``set_opacity`` would
    fill a dial's face)."""
    for f in mob.get_family():
        if not hasattr(f, "_full_opacity"):
            f._full_opacity = (np.array(f.get_fill_opacities(), dtype=float).copy(),
                               np.array(f.get_stroke_opacities(), dtype=float).copy())
        fo, so = f._full_opacity
        if len(fo):
            f.set_fill(opacity=float(np.max(fo)) * level, family=False)
        if len(so):
            f.set_stroke(opacity=float(np.max(so)) * level, family=False)
    return mob


def dim_to(mob, level: float, **kw) -> ApplyFunction:
    """Animate ``mob`` to ``level`` of its full opacity (``DIM_LEVEL`` dims it, 1 restores)."""
    set_level(mob, 1.0) if not hasattr(mob, "_full_opacity") else None
    return ApplyFunction(lambda m: set_level(m, level), mob, **kw)


DIM_LEVEL = 0.22  # under the audit's 0.3: a dimmed thing is background


class StepLabels(Animation):
    """``labels[0]`` (on screen) becomes ``labels[1]``, then ``labels[2]``, ... in equal steps of
    one animation: in each step the figure on screen fades out over the first half and the
    next one fades in over the second, so two different strings are never drawn over each
    other.  (A ``Succession`` of swaps would put every future label on screen at once:
    ``Scene.play`` adds all of a succession's mobjects when it starts.)  Afterwards only the
    last label is visible; remove the others from the scene."""

    def __init__(self, labels, **kw):
        self.labels = list(labels)
        if len(self.labels) < 2:
            raise ValueError(f"StepLabels needs at least two labels, got {len(self.labels)}")
        kw.setdefault("rate_func", linear)
        super().__init__(VGroup(*self.labels), **kw)

    def interpolate_mobject(self, alpha: float) -> None:
        n = len(self.labels) - 1
        x = self.rate_func(alpha) * n
        k = min(int(x), n - 1)
        f = x - k
        show, level = (k, 1 - 2 * f) if f < 0.5 else (k + 1, 2 * f - 1)
        for j, lab in enumerate(self.labels):
            lab.set_opacity(level if j == show else 0.0)


# =====================================================================================
# 10 RoPEAngleGrid
# =====================================================================================
QUARTER_TURN = np.pi / 2  # a pair whose angles stay under this is one colour on a cyclic scale


@dataclass(frozen=True)
class AngleGridData:
    """What clip 10 draws: ``grid = rope_angle_grid(T, d, base)`` (radians), its values mod 2π
    for the colours, ``theta = rope_frequencies(d, base)`` and the measured
    ``max |grid − m·base^(−2i/d)|``; ``m_pick`` and the two pairs picked out.

    The fast pairs ``0..n_fast-1`` reach a quarter turn within the table and are coloured
    by angle mod 2π on the cyclic scale; the slow ones never do (mod 2π is then the
    angle itself, squeezed into one colour of the cycle), so their angles are coloured by
    ``log10`` on a sequential scale of their own (``log_slow``: ``−inf`` at ``m = 0``,
    where the angle is exactly 0)."""

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


def log_scale_bounds(log_values: np.ndarray) -> tuple[int, int]:
    """Whole decades that cover the finite ``log10`` values (at least one decade)."""
    f = log_values[np.isfinite(log_values)]
    lo, hi = int(np.floor(f.min())), int(np.ceil(f.max()))
    return lo, max(hi, lo + 1)


def decade_ticks(lo: int, hi: int, most: int = 5) -> list[int]:
    """Decades to label on a log colour bar from ``lo`` to ``hi``: both ends, evenly stepped
    from ``lo``, at most ``most`` of them."""
    step = max(1, int(np.ceil((hi - lo) / max(most - 1, 1))))
    ticks = list(range(lo, hi + 1, step))
    if ticks[-1] != hi:  # the top end labelled too, never closer to its neighbour than a step
        if len(ticks) > 1:
            ticks[-1] = hi
        else:
            ticks.append(hi)
    return ticks


class AngleTable(VGroup):
    """The angle table as two heatmaps on shared rows: the fast pairs mod 2π on the cyclic
    scale, the slow pairs on a log scale, each with its colour bar, title and pair indices.

    ``fast``/``slow`` are the :class:`Heatmap` panels (``slow.values`` are ``log10`` angles),
    ``cyc_bar``/``log_bar`` their colour bars, ``zero_key`` the swatch for an angle of exactly 0."""

    GAP = 0.4  # between the cyclic bar's ticks and the slow panel

    def __init__(self, data: AngleGridData, cell: float):
        super().__init__()
        d = data
        T, nf = d.T, d.n_fast
        self.cell_size = cell
        self.cyc_scale = ColorScale(d.cmap, 0.0, TWO_PI)
        lo, hi = log_scale_bounds(d.log_slow)
        self.log_scale = ColorScale(d.cmap_log, lo, hi)
        self.fast = Heatmap(d.wrapped[:, :nf], self.cyc_scale, cell_size=cell)
        self.slow = Heatmap(d.log_slow, self.log_scale, cell_size=cell)
        self.cyc_bar = ColorBar(self.cyc_scale, height=T * cell, ticks=(0, np.pi, TWO_PI), tick_math=("0", "pi", "2 pi"))
        self.cyc_bar.next_to(self.fast, RIGHT, buff=0.15).align_to(self.fast, UP)
        self.slow.next_to(self.cyc_bar, RIGHT, buff=self.GAP).align_to(self.fast, UP)
        # the log bar, with a swatch under it for "exactly 0" (row m = 0 of the slow panel)
        sw = min(0.3, cell)
        self.zero_swatch = Square(side_length=sw, stroke_color=DIM, stroke_width=1.5, fill_color=FAINT, fill_opacity=1)
        self.zero_text = label("0", size=SMALL, color=DIM)
        self.zero_key = VGroup(self.zero_swatch, self.zero_text)
        bar_h = T * cell - sw - 0.4  # room for the lowest tick's label above the swatch
        ticks = decade_ticks(lo, hi, most=max(2, min(6, int(bar_h / 0.6) + 1)))
        self.log_bar = ColorBar(self.log_scale, height=bar_h, ticks=ticks, tick_math=[f"10^({t})" for t in ticks])
        self.log_bar.next_to(self.slow, RIGHT, buff=0.15).align_to(self.slow, UP)
        self.zero_swatch.move_to(self.log_bar.frame).align_to(self.slow, DOWN)
        self.zero_text.next_to(self.zero_swatch, RIGHT, buff=0.12)
        self.log_ticks = ticks
        # pair indices over the columns, positions beside the rows
        self.col_idx = VGroup(*[label(str(i), size=SMALL, color=DIM).next_to(self.cell(0, i), UP, buff=0.1)
                                for i in range(d.d // 2)])
        self.row_idx = self.fast.index_labels("rows")
        if cell < max(t.height for t in self.row_idx) + 0.04:  # too tight for every row: label every other one
            self.row_idx = VGroup(*[t for m, t in enumerate(self.row_idx) if m % 2 == 0])
        self.m_name = math("m", size=SMALL, color=DIM)
        self.m_name.move_to([self.row_idx.get_center()[0], self.col_idx.get_center()[1], 0])
        self.i_name = math("i", size=SMALL, color=DIM)
        # titles, each as wide as its panel and bar
        fast_w = self.cyc_bar.get_right()[0] - self.fast.get_left()[0]
        slow_w = self.log_bar.get_right()[0] - self.slow.get_left()[0]
        self.fast_title = fit_label("mod 2π", max(fast_w, 0.8), size=SMALL, color=FG, max_lines=2)
        self.slow_title = fit_label("log scale", max(slow_w, 0.8), size=SMALL, color=FG, max_lines=2)
        for t, panel in ((self.fast_title, self.fast), (self.slow_title, self.slow)):
            t.next_to(self.col_idx, UP, buff=0.14).align_to(panel, LEFT)
        self.fast_part = VGroup(self.fast, self.cyc_bar, self.fast_title)
        self.slow_part = VGroup(self.slow, self.log_bar, self.zero_key, self.slow_title)
        self.labels = VGroup(self.col_idx, self.row_idx, self.m_name)
        self.add(self.fast_part, self.slow_part, self.labels)

    def cell(self, m: int, i: int) -> Square:
        """The cell of position ``m`` and pair ``i`` (in whichever panel holds pair ``i``)."""
        nf = self.fast.values.shape[1]
        return self.fast.cell(m, i) if i < nf else self.slow.cell(m, i - nf)

    def panel_of(self, i: int) -> Heatmap:
        return self.fast if i < self.fast.values.shape[1] else self.slow

    def row_box(self, m: int, panel: Heatmap) -> SurroundingRectangle:
        n = panel.values.shape[1]
        return SurroundingRectangle(VGroup(panel.cell(m, 0), panel.cell(m, n - 1)), color=ACCENT, buff=0.03,
                                    stroke_width=4)

    def column_box(self, i: int, color) -> SurroundingRectangle:
        T = self.fast.values.shape[0]
        return SurroundingRectangle(VGroup(self.cell(0, i), self.cell(T - 1, i)), color=color, buff=0.03,
                                    stroke_width=4)

    @classmethod
    def fitted(cls, data: AngleGridData, region, max_cell: float = 0.62) -> AngleTable:
        """The table with the largest cells (at most ``max_cell``) that fit ``region``, placed at its left."""
        cols, rows = data.d // 2, data.T
        cell = 0.4
        for _ in range(3):  # the titles wrap by width, so measure the overheads again at the new size
            t = cls(data, cell)
            ow, oh = t.width - cols * cell, t.height - rows * cell
            cell = min((region.width - ow) / cols, (region.height - oh) / rows, max_cell)
        t = cls(data, cell)
        if t.width > region.width + 1e-6 or t.height > region.height + 1e-6:
            raise LayoutError(f"the angle table does not fit region {region.name!r}")
        return region.place(t, LEFT)


class RoPEAngleGrid(ClipScene):
    """10 · The RoPE angle table: fast hands and slow hands."""

    D = 16  # eight pairs
    STEP_TIME = 0.75
    TABLE_SHARE = 0.47  # of the content width, at most
    MIN_CELL = 0.3  # table cells smaller than this: the proof moves from under the table to under the hands

    @classmethod
    def stills(cls, data, cfg) -> list:
        """The angle grid mod 2π with the cyclic colormap, and the slow pairs' log angles, as drawn."""
        lo, hi = log_scale_bounds(data.log_slow)
        return [
            HeatmapStill("angle_grid", f"RoPE angles m·θ_i mod 2π (d = {data.d}, base {data.base:g})",
                         data.wrapped, ColorScale(data.cmap, 0.0, TWO_PI), "pair i", "position m"),
            HeatmapStill("angle_grid_slow", f"slow pairs {data.n_fast}..{data.d // 2 - 1}: log10 of the angle m·θ_i",
                         data.log_slow, ColorScale(data.cmap_log, lo, hi), f"pair i − {data.n_fast}", "position m"),
        ]

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
        return {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "base": fmt_base(d.base), "m": m,
            "fast": d.fast, "slow": d.slow, "slow_first": d.n_fast, "fast_last": d.n_fast - 1,
            "wrap": f"{TWO_PI / d.theta[d.fast]:.1f}",
            "fast_angle": f"{d.grid[m, d.fast]:.1f}", "fast_turns": f"{d.grid[m, d.fast] / TWO_PI:.1f}",
            "slow_angle": fmt_small(d.grid[m, d.slow]),
            "slow_first_angle": fmt_small(d.grid[m, d.n_fast]),
            "ratio": f"{d.theta[0] / d.theta[1]:.2g}",
            "defect": fmt_measure(d.defect),
        }

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T, P = d.T, d.d // 2
        content = self.layout.content
        left = Region(content.left, content.left + content.width * self.TABLE_SHARE, content.bottom, content.top, "table")
        self.defect_value = label(fmt_measure(d.defect), size=LABEL, color=GOOD if d.defect < 1e-12 else BAD)
        self.check = VGroup(math('max |"grid" - m b^(-2i \\/ d)| =', size=LABEL), self.defect_value)
        self.check.arrange(RIGHT, buff=0.2)
        # the proof goes under the table, unless that would make the table's cells too small (many rows):
        # then under the hands
        check_strip, rest = left.take_bottom(0.55, gap=0.25)
        self.table = AngleTable.fitted(d, rest)
        self.check_under_table = self.table.cell_size >= self.MIN_CELL
        if not self.check_under_table:
            self.table = AngleTable.fitted(d, left)
        right = Region(self.table.get_right()[0] + 0.6, content.right, content.bottom, content.top, "dials")
        if not self.check_under_table:
            check_strip, right = right.take_bottom(0.55, gap=0.3)
        check_strip.fit(self.check, align=LEFT)
        formula_strip, rest = right.take_top(0.55, gap=0.15)
        self.formula = VGroup(
            math('"angle"[m, i] = m dot theta_i', size=LABEL),
            math("theta_i = b^(-2i \\/ d)", size=LABEL),
        ).arrange(RIGHT, buff=0.5)
        formula_strip.fit(self.formula, align=LEFT)
        given_strip, rest = rest.take_top(0.45, gap=0.2)
        self.given = math(f"b = {fmt_base(d.base)},  d = {d.d}", size=LABEL, color=DIM)
        self.m_static = VGroup(label("position", size=LABEL, color=DIM), math("m =", size=LABEL + 6)).arrange(RIGHT, buff=0.2)
        probe = max((label(str(m), size=LABEL + 6, color=ACCENT) for m in range(T)), key=lambda t: t.width)  # the widest
        h0 = probe.height
        line = VGroup(self.given, VGroup(self.m_static, probe).arrange(RIGHT, buff=0.2)).arrange(RIGHT, buff=0.6)
        given_strip.fit(line, align=LEFT)
        line[1].align_to(given_strip.point(RIGHT), RIGHT)
        k = probe.height / h0
        self.m_labels = [label(str(m), size=(LABEL + 6) * k, color=ACCENT).move_to(probe.get_left(), aligned_edge=LEFT)
                         for m in range(T)]
        self.m_label = self.m_labels[0]  # the position on screen now

        dial_region = rest

        head_strip, dial_region = dial_region.take_left(0.6, gap=0.1)
        caps = [VGroup(math(f"i = {i}", size=SMALL, color=FG), label(fmt_small(d.theta[i]), size=SMALL, color=DIM))
                .arrange(DOWN, buff=0.08) for i in range(P)]
        self.dials = DialRow.fitted(np.zeros(P), dial_region, cols=4, captions=caps, colors=[ACCENT] * P,
                                    max_radius=1.0, h_buff=0.3, v_buff=0.3)
        # the caption rows' header: the second line under each hand is its θ_i
        self.theta_heads = VGroup()
        for r in range(0, P, 4):
            h = math("theta_i", size=LABEL, color=DIM)
            h.next_to(self.dials.captions[r][1], LEFT, buff=0.1).set_x(head_strip.right - h.width / 2)
            h.align_to(self.dials.captions[r][1], DOWN)
            self.theta_heads.add(h)
        self.dial_block = VGroup(self.dials, self.theta_heads)

        self.row_boxes = VGroup(*[self.table.row_box(0, panel) for panel in (self.table.fast, self.table.slow)])

    def row_targets(self, m: int):
        return [VGroup(panel.cell(m, 0), panel.cell(m, panel.values.shape[1] - 1)).get_center()
                for panel in (self.table.fast, self.table.slow)]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T, P = d.T, d.d // 2
        tb = self.table
        # 1. the formula, and the hands it drives: one per pair, all at position 0
        self.beat("formula", Write(self.formula), FadeIn(self.given), FadeIn(self.dial_block, lag_ratio=0.05), run_time=1.6)
        # 2. the table, fast pairs on the cyclic scale (the hands wait, dimmed)
        rows = [VGroup(*tb.fast.cells[m]) for m in range(T)]
        self.beat("grid", dim_to(self.dial_block, DIM_LEVEL), LaggedStart(*[FadeIn(r) for r in rows], lag_ratio=0.12),
                  FadeIn(tb.labels), FadeIn(tb.cyc_bar), FadeIn(tb.fast_title), run_time=1.8)
        self.remove(*rows)
        self.add(tb.fast)
        # 3. the slow pairs: never a quarter turn, so a log scale of their own
        rows = [VGroup(*tb.slow.cells[m]) for m in range(T)]
        self.beat("slow_scale", LaggedStart(*[FadeIn(r) for r in rows], lag_ratio=0.12), FadeIn(tb.log_bar),
                  FadeIn(tb.zero_key), FadeIn(tb.slow_title), run_time=1.8)
        self.remove(*rows)
        self.add(tb.slow)
        # 4. walk the positions: row m of the table is where the hands point
        self.beat("dials", dim_to(self.dial_block, 1.0), FadeIn(self.m_static), FadeIn(self.m_label),
                  *[Create(b) for b in self.row_boxes], run_time=1.2)
        steps = []
        for m in range(1, T):
            steps.append(AnimationGroup(
                self.dials.turn_to(d.grid[m], run_time=self.STEP_TIME),
                *[box.animate(run_time=self.STEP_TIME).move_to(c) for box, c in zip(self.row_boxes, self.row_targets(m))],
                run_time=self.STEP_TIME,
            ))
        self.beat("walk", Succession(*steps), StepLabels(self.m_labels), run_time=self.STEP_TIME * (T - 1), hold=0.5)
        self.remove(*self.m_labels[:-1])
        self.m_label = self.m_labels[-1]
        # 5. a fast hand, 6. a slow hand: each with its column, the other hands dimmed
        others = [self.dials.dials[i] for i in range(P) if i != d.fast]
        fast_box = tb.column_box(d.fast, BLUE)
        self.beat("fast", Create(fast_box), *[dim_to(o, DIM_LEVEL) for o in others],
                  dim_to(self.dials.captions, DIM_LEVEL), dim_to(self.theta_heads, DIM_LEVEL),
                  Indicate(self.dials.dials[d.fast], color=BLUE, scale_factor=1.12), run_time=1.2)
        slow_box = tb.column_box(d.slow, PURPLE)
        self.beat("slow", Create(slow_box), dim_to(self.dials.dials[d.fast], DIM_LEVEL),
                  dim_to(self.dials.dials[d.slow], 1.0),
                  Indicate(self.dials.dials[d.slow], color=PURPLE, scale_factor=1.12), run_time=1.2)
        # 7. the proof, with every hand back
        self.beat("check", dim_to(self.dial_block, 1.0), FadeIn(self.check, shift=0.15 * UP), run_time=1.0)

    def caption(self, key: str) -> str:
        """Worded variants chosen by measured values (the narration must hold for every config)."""
        d = self.data
        if key == "check" and d.defect != 0.0:
            key = "check_rounding"
        return super().caption(key)


# =====================================================================================
# 11 RoPERotatesQK
# =====================================================================================
@dataclass(frozen=True)
class RotatesQKData:
    """What clip 11 draws.

    ``q``, ``k``: one query and one key row (``X Wq``, ``X Wk``) of the lecture input;
    ``q_pairs``/``k_pairs``: their pairs at positions ``(0, 0)``, ``(m, n)`` and
    ``(m+s, n+s)`` (``rope_pairs``); the two scores and their measured gap, and the
    largest gap over ``s = 1..s_max``.  ``Y*``: RoPE self-attention outputs of the
    whole input at positions ``0..T-1`` and ``s..s+T-1``, with ``V`` left alone and
    with ``V`` rotated, and the measured ``max |ΔY|`` of each.
    """

    q: np.ndarray  # (d,)
    k: np.ndarray  # (d,)
    m: int
    n: int
    s: int
    s_max: int
    theta: np.ndarray  # (d/2,)
    angles: np.ndarray  # (3, 2, d/2): [stage, q/k, pair] rotation angle applied
    q_pairs: np.ndarray  # (3, d/2, 2) stage 0: position 0, 1: m, 2: m+s
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


class RoPERotatesQK(ClipScene):
    """11 · RoPE rotates q and k, and leaves V alone."""

    M, N, S = 2, 0, 3  # the query's and key's positions, and the shift
    S_MAX = 1000  # shifts measured: 1..S_MAX
    Q_TOKEN, K_TOKEN = 1, 3  # a query and a key whose pairs are long enough to see turn
    CELL = 0.3
    Q_COLOR = ACCENT
    K_COLOR = BLUE

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> RotatesQKData:
        inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        base = cfg.rope_base
        q = matmul(inp.X, inp.Wq)[cls.Q_TOKEN]
        k = matmul(inp.X, inp.Wk)[cls.K_TOKEN]
        m, n, s = cls.M, cls.N, cls.S
        stages = ((0, 0), (m, n), (m + s, n + s))
        grid = rope_angle_grid(m + s + 1, cfg.d, base)
        angles = np.array([[grid[a], grid[b]] for a, b in stages])
        T = cfg.T
        pos = np.arange(T, dtype=float)
        outs = {
            (rv, sh): rope_self_attention_trace(inp.X, inp.Wq, inp.Wk, inp.Wv, pos + sh, base, rotate_v=rv).output
            for rv in (False, True) for sh in (0, s)
        }
        score, score_shifted = rope_score(q, k, m, n, base), rope_score(q, k, m + s, n + s, base)
        return RotatesQKData(
            q=q, k=k, m=m, n=n, s=s, s_max=cls.S_MAX, theta=rope_frequencies(cfg.d, base), angles=angles,
            q_pairs=np.array([rope_pairs(q, a, base) for a, _ in stages]),
            k_pairs=np.array([rope_pairs(k, b, base) for _, b in stages]),
            score=score, score_shifted=score_shifted, score_gap=abs(score_shifted - score),
            score_gap_max=float(np.max(shift_score_defects(q, k, m, n, np.arange(1, cls.S_MAX + 1), base))),
            Y_plain=outs[False, 0], Y_plain_shifted=outs[False, s], Y_rot=outs[True, 0], Y_rot_shifted=outs[True, s],
            defect_plain=shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, s, base, rotate_v=False),
            defect_rot=shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, s, base, rotate_v=True),
            cmap=cfg.cmap_signed,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "m": d.m, "n": d.n, "s": d.s, "ms": d.m + d.s, "ns": d.n + d.s, "diff": d.m - d.n, "s_max": d.s_max,
            "d": d.q.size, "pairs": d.q.size // 2, "T": d.Y_plain.shape[0],
            "gap": fmt_measure(d.score_gap), "gap_max": fmt_measure(d.score_gap_max),
            "defect_plain": fmt_measure(d.defect_plain), "defect_rot": fmt_measure(d.defect_rot),
        }

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        from scenes.kit.position_widgets import PairDial

        d = self.data
        top = self.content_top
        P = d.q.size // 2
        # ---- left: one query and one key, pair by pair
        self.left_head = label("Scores: rotate q and k", size=LABEL, weight="BOLD").move_to([-3.4, top - 0.25, 0])
        self.dials = VGroup()
        self.dial_caps = VGroup()
        for i in range(P):
            vecs = np.array([d.q_pairs[0, i], d.k_pairs[0, i]])
            dial = PairDial(vecs, colors=[self.Q_COLOR, self.K_COLOR], radius=0.8).move_to([-5.3 + 2.65 * i, 0.85, 0])
            self.dials.add(dial)
            cap = VGroup(label(f"pair {i}", size=SMALL, color=FG), label(f"θ = {fmt_rate(d.theta[i])}", size=SMALL, color=DIM))
            cap.arrange(DOWN, buff=0.06).next_to(dial, DOWN, buff=0.1)
            self.dial_caps.add(cap)
        self.legend = VGroup(
            VGroup(math("q", size=LABEL, color=self.Q_COLOR), label(f"token {self.Q_TOKEN}", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.1),
            VGroup(math("k", size=LABEL, color=self.K_COLOR), label(f"token {self.K_TOKEN}", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.1),
        ).arrange(DOWN, buff=0.15, aligned_edge=LEFT).move_to([-0.7, 1.2, 0])
        self.pos_labels = [
            VGroup(math(f"m = {a}", size=LABEL, color=self.Q_COLOR), math(f"n = {b}", size=LABEL, color=self.K_COLOR)).arrange(RIGHT, buff=0.5)
            for a, b in ((0, 0), (d.m, d.n), (d.m + d.s, d.n + d.s))
        ]
        for p in self.pos_labels:
            p.move_to([-3.4, top - 0.85, 0])
        self.pos_label = self.pos_labels[0].copy()

        y0 = self.dial_caps.get_bottom()[1] - 0.12
        self.score_val = label(fmt_value(d.score, 4), size=LABEL, color=FG)
        self.score_row = VGroup(math(f'"score"({d.m}, {d.n}) =', size=LABEL), self.score_val).arrange(RIGHT, buff=0.2)
        self.score_shift_val = label(fmt_value(d.score_shifted, 4), size=LABEL, color=FG)
        self.score_shift_row = VGroup(math(f'"score"({d.m + d.s}, {d.n + d.s}) =', size=LABEL),
                                      self.score_shift_val).arrange(RIGHT, buff=0.2)
        ok = d.score_gap_max < 1e-12
        self.gap_val = label(fmt_measure(d.score_gap), size=LABEL, color=GOOD if d.score_gap < 1e-12 else BAD)
        self.gap_max_val = label(fmt_measure(d.score_gap_max), size=LABEL, color=GOOD if ok else BAD)
        self.gap_row = VGroup(label("gap:", size=SMALL, color=DIM), self.gap_val).arrange(RIGHT, buff=0.15)
        self.gap_max_row = VGroup(label(f"largest gap for s = 1..{d.s_max}:", size=SMALL, color=DIM),
                                  self.gap_max_val).arrange(RIGHT, buff=0.15)
        rows = VGroup(self.score_row, self.score_shift_row).arrange(DOWN, buff=0.1, aligned_edge=RIGHT)
        gaps = VGroup(self.gap_row, self.gap_max_row).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        self.score_rows = VGroup(rows, gaps).arrange(DOWN, buff=0.16, aligned_edge=LEFT)
        self.score_rows.move_to([-3.4, y0 - self.score_rows.height / 2, 0])

        # ---- right: outputs of the whole sequence, at positions 0.. and s..
        self.divider = Line([0.45, top - 0.05, 0], [0.45, -3.0, 0], stroke_color=FAINT, stroke_width=2)
        self.right_head = label(f"Outputs, slid by s = {d.s}", size=LABEL, weight="BOLD").move_to([3.7, top - 0.25, 0])
        allY = np.concatenate([d.Y_plain, d.Y_plain_shifted, d.Y_rot, d.Y_rot_shifted])
        self.y_scale = ColorScale.symmetric(d.cmap, allY)
        T = d.Y_plain.shape[0]
        xs = (1.55, 3.15)
        ys = (0.6, -1.95)
        self.y_maps = []
        self.y_names = VGroup()
        self.row_heads = VGroup()
        self.defect_vals = VGroup()
        self.verdicts = VGroup()
        for r, (Ya, Yb, v, head) in enumerate((
            (d.Y_plain, d.Y_plain_shifted, d.defect_plain, "V = X W_v"),
            (d.Y_rot, d.Y_rot_shifted, d.defect_rot, 'V = R_m X W_v'),
        )):
            ha = Heatmap(Ya, self.y_scale, cell_size=self.CELL).move_to([xs[0], ys[r], 0])
            hb = Heatmap(Yb, self.y_scale, cell_size=self.CELL).move_to([xs[1], ys[r], 0])
            self.y_maps.append((ha, hb))
            names = VGroup(
                label(f"at 0..{T - 1}", size=SMALL, color=DIM).next_to(ha, UP, buff=0.1),
                label(f"at {d.s}..{d.s + T - 1}", size=SMALL, color=DIM).next_to(hb, UP, buff=0.1),
            )
            self.y_names.add(names)
            col = GOOD if v < 1e-12 else BAD
            val = label(fmt_measure(v), size=LABEL, color=col)
            verdict = VGroup(math("max |Delta Y| =", size=SMALL, color=DIM), val).arrange(DOWN, buff=0.12)
            verdict.move_to([5.55, ys[r] - 0.35, 0])
            self.defect_vals.add(val)
            self.verdicts.add(verdict)
            head_m = math(head, size=LABEL, color=PURPLE if r else FG)
            head_m.move_to([5.55, ys[r] + 0.6, 0])
            self.row_heads.add(head_m)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        self.beat("qk", FadeIn(self.left_head), FadeIn(self.dials), FadeIn(self.dial_caps), FadeIn(self.legend),
                  FadeIn(self.pos_label), run_time=1.2)
        turn1 = [dial.turn(d.angles[1, :, i] - d.angles[0, :, i]) for i, dial in enumerate(self.dials)]
        self.beat("rotate", *turn1, Transform(self.pos_label, self.pos_labels[1]), run_time=1.8)
        self.beat("score", FadeIn(self.score_row, shift=0.1 * UP), run_time=0.8)
        turn2 = [dial.turn(d.angles[2, :, i] - d.angles[1, :, i]) for i, dial in enumerate(self.dials)]
        self.beat("shift", *turn2, Transform(self.pos_label, self.pos_labels[2]), run_time=1.8)
        self.beat("same", FadeIn(self.score_shift_row, shift=0.1 * UP), run_time=0.8)
        self.beat("gap", FadeIn(self.gap_row, shift=0.1 * UP), FadeIn(self.gap_max_row, shift=0.1 * UP), run_time=0.8)
        # ---- V
        ha, hb = self.y_maps[0]
        self.beat("v_plain", Create(self.divider), FadeIn(self.right_head), FadeIn(self.row_heads[0]),
                  FadeIn(self.y_names[0]), FadeIn(ha), FadeIn(hb), run_time=1.2)
        self.beat("v_plain_measure", FadeIn(self.verdicts[0], shift=0.1 * UP), run_time=0.8)
        self.beat("v_why", Indicate(self.row_heads[0], color=ACCENT), run_time=1.0)
        ha, hb = self.y_maps[1]
        self.beat("v_rot", FadeIn(self.row_heads[1]), FadeIn(self.y_names[1]), FadeIn(ha), FadeIn(hb), run_time=1.2)
        self.beat("v_rot_measure", FadeIn(self.verdicts[1], shift=0.1 * UP), run_time=0.8)
