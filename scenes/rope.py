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
    Rotate,
    Square,
    Succession,
    SurroundingRectangle,
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
    swap,
    fit_label,
    fmt_value,
    label,
    math,
)
from scenes.kit.layout import baseline_y
from scenes.kit.position_widgets import ColorBar, DialRow
from scenes.kit.theme import PURPLE

TWO_PI = 2 * np.pi


def fmt_base(base: float) -> str:
    """The frequency base as typed in the config: ``10000`` rather than ``10000.0``."""
    return f"{int(base)}" if float(base).is_integer() else f"{base:g}"


def base_math(base: float) -> str:
    """``b = …`` as Typst math: the base as given when it has at most 7 significant digits (digits
    below ten million, ``10000``, ``12345.5``; then a power of ten, ``10^9``, ``5.633 dot 10^8``),
    else ``b approx …`` to 4 significant digits; never a float's ``e+08``."""
    exact = float(f"{base:.7g}") == base
    rel = "=" if exact else "approx"
    mant, exp = f"{base:.{6 if exact else 3}e}".split("e")
    mant, exp = mant.rstrip("0").rstrip("."), int(exp)
    if exp < 7:  # plain digits
        v = float(mant) * 10 ** exp
        text = f"{v:.{max(0, len(mant.replace('.', '')) - 1 - exp)}f}"
        return f"b {rel} {text}"
    return f"b {rel} " + (f"10^{exp}" if mant == "1" else f"{mant} dot 10^{exp}")


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
    """Animate ``mob`` to ``level`` of its full opacity (``DIM_LEVEL`` dims it, 1 restores)."""
    _remember_opacity(mob)  # before any change: what it is now is its full level
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
        if cell < max(t.height for t in self.row_idx) + 0.04:  # too tight for every row: every other one,
            self.row_idx = VGroup(*[t for m, t in enumerate(self.row_idx) if (T - 1 - m) % 2 == 0])  # the last included
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
        cell, t = 0.4, None
        for _ in range(4):  # the titles wrap by width and row labels thin out: measure again at the new size
            t = t if t is not None and t.cell_size == cell else cls(data, cell)
            if t.width <= region.width + 1e-6 and t.height <= region.height + 1e-6 and \
                    (cell == max_cell or min(region.width - t.width, region.height - t.height) < 0.02):
                return region.place(t, LEFT)
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
        right = Region(self.table.get_right()[0] + 0.45, content.right, content.bottom, content.top, "dials")
        if not self.check_under_table:
            check_strip, right = right.take_bottom(0.55, gap=0.3)
        check_strip.fit(self.check, align=LEFT)
        formula_strip, rest = right.take_top(0.55, gap=0.15)
        self.formula = VGroup(
            math('"angle"[m, i] = m dot theta_i', size=LABEL),
            math("theta_i = b^(-2i \\/ d)", size=LABEL),
        ).arrange(RIGHT, buff=0.5)
        formula_strip.fit(self.formula, align=LEFT)
        self.given = math(f"{base_math(d.base)},  d = {d.d}", size=LABEL, color=DIM)
        self.m_static = VGroup(label("position", size=LABEL, color=DIM), math("m =", size=LABEL + 6)).arrange(RIGHT, buff=0.2)
        probe = max((label(str(m), size=LABEL + 6, color=ACCENT) for m in range(T)), key=lambda t: t.width)  # the widest
        h0 = probe.height
        readout = VGroup(self.m_static, probe).arrange(RIGHT, buff=0.2)
        line = VGroup(self.given, readout).arrange(RIGHT, buff=0.4)
        given_strip, rest = rest.take_top(0.5, gap=0.2)
        if given_strip.fits(line):  # b and d, then the position, on one line
            given_strip.fit(line, align=LEFT)
            readout.align_to(given_strip.point(RIGHT), RIGHT)
        else:  # a long base: the position gets a line of its own
            given_strip.fit(self.given, align=LEFT)
            read_strip, rest = rest.take_top(0.45, gap=0.2)
            read_strip.fit(readout, align=RIGHT)
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
        T = d.T
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
        fast_box = tb.column_box(d.fast, BLUE)
        self.beat("fast", Create(fast_box), *self.focus_on(d.fast, BLUE), run_time=1.2)
        slow_box = tb.column_box(d.slow, PURPLE)
        self.beat("slow", Create(slow_box), *self.focus_on(d.slow, PURPLE, previous=d.fast), run_time=1.2)
        # 7. the proof, with every hand back
        self.beat("check", dim_to(self.dial_block, 1.0), FadeIn(self.check, shift=0.15 * UP), run_time=1.0)

    def focus_on(self, i: int, color, previous: int | None = None) -> list:
        """Dim every hand and caption but pair ``i``'s (the ``previous`` focus among them), then flash it:
        brought back first, so the flash starts from full opacity and ends there."""
        P = self.data.d // 2
        dim = [dim_to(VGroup(self.dials.dials[j], self.dials.captions[j]), DIM_LEVEL)
               for j in ([previous] if previous is not None else [j for j in range(P) if j != i])]
        if previous is None:
            dim.append(dim_to(self.theta_heads, DIM_LEVEL))
        subject = VGroup(self.dials.dials[i], self.dials.captions[i])
        return [*dim, Succession(dim_to(subject, 1.0, run_time=0.4),
                                 Indicate(self.dials.dials[i], color=color, scale_factor=1.12, run_time=0.8))]

    def caption(self, key: str) -> str:
        """Worded variants chosen by measured values (the narration must hold for every config)."""
        d = self.data
        if key == "check" and d.defect != 0.0:
            key = "check_rounding"
        return super().caption(key)


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
    (``rope_pairs``); the two scores, their measured gap and the largest gap over
    ``s = 1..s_max``.  ``Y*``: RoPE self-attention outputs of the whole input at positions
    ``0..T-1`` and ``s..s+T-1``, with ``V`` left alone and with ``V`` rotated, and the
    measured ``max |ΔY|`` of each.
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


class OutputsGrid(VGroup):
    """The outputs of the whole sequence with ``V`` left alone and with ``V`` rotated (two groups,
    left and right), each at positions ``0..T-1`` and ``s..s+T-1`` (two heatmaps side by side) over
    its measured ``max |ΔY|``; one colour bar for all four heatmaps.

    ``maps[r] = (at 0.., at s..)`` are :class:`Heatmap` objects; ``heads[r]``, ``measures[r]``,
    ``values[r]`` the group's head, its measure and the printed figure; ``groups[r]`` all of group ``r``."""

    INNER = 0.3  # between the two heatmaps of a group
    OUTER = 0.8  # between the groups

    def __init__(self, data: RotatesQKData, scale: ColorScale, cell: float):
        super().__init__()
        d = data
        T = d.Y_plain.shape[0]
        self.cell_size = cell
        self.heads = VGroup(
            VGroup(math("V = X W_v", size=LABEL), label("left alone", size=SMALL, color=DIM)),
            VGroup(math('V = "RoPE"(X W_v)', size=LABEL, color=PURPLE), label("rotated", size=SMALL, color=DIM)),
        )
        for h in self.heads:
            h.arrange(RIGHT, buff=0.25)
        self.maps, self.cols, self.groups = [], VGroup(), []
        self.values, self.measures = VGroup(), VGroup()
        x = 0.0
        for r, (Ya, Yb, v) in enumerate(((d.Y_plain, d.Y_plain_shifted, d.defect_plain),
                                         (d.Y_rot, d.Y_rot_shifted, d.defect_rot))):
            pair = (Heatmap(Ya, scale, cell_size=cell), Heatmap(Yb, scale, cell_size=cell))
            cols = VGroup(*[VGroup(label("positions", size=SMALL, color=DIM), label(f"{lo}..{lo + T - 1}", size=SMALL, color=FG))
                            .arrange(DOWN, buff=0.06) for lo in (0, d.s)])
            pitch = max(pair[0].width, *[c.width for c in cols])
            val = label(fmt_measure(v), size=LABEL, color=GOOD if v < 1e-12 else BAD)
            meas = VGroup(math("max |Delta Y| =", size=SMALL, color=DIM), val).arrange(RIGHT, buff=0.15)
            meas[1].align_to(meas[0], DOWN)
            span = max(2 * pitch + self.INNER, self.heads[r].width, meas.width)  # the group's width
            centre = x + span / 2
            for j, (hm, c) in enumerate(zip(pair, cols)):
                cx = centre + (j - 0.5) * (pitch + self.INNER)
                hm.move_to([cx, 0, 0])
                c.move_to([cx, hm.get_top()[1] + 0.1 + c.height / 2, 0])
            meas.move_to([centre, pair[0].get_bottom()[1] - 0.2 - meas.height / 2, 0])
            self.heads[r].move_to([centre, cols.get_top()[1] + 0.15 + self.heads[r].height / 2, 0])
            self.maps.append(pair)
            self.cols.add(cols)
            self.values.add(val)
            self.measures.add(meas)
            group = VGroup(self.heads[r], cols, *pair, meas)
            self.groups.append(group)
            x += span + self.OUTER
        M = scale.norm.vmax
        self.bar = ColorBar(scale, height=T * cell, ticks=(-M, 0.0, M), tick_format=lambda v: fmt_value(v, 1))
        self.bar.next_to(self.maps[1][1], RIGHT, buff=0.45)
        self.bar.set_x(max(g.get_right()[0] for g in self.groups) + 0.35 + self.bar.width / 2)
        self.add(*self.groups, self.bar)

    @classmethod
    def fitted(cls, data: RotatesQKData, scale: ColorScale, region, max_cell: float = 1.0) -> OutputsGrid:
        """The grid with the largest cells (at most ``max_cell``) that fit ``region``, centred in it."""
        T, d = data.Y_plain.shape
        cell = 0.4
        for _ in range(4):  # label widths set a floor on the columns: measure again at the new size
            g = cls(data, scale, cell)
            ow, oh = g.width - 4 * d * cell, g.height - T * cell
            cell = min((region.width - ow) / (4 * d), (region.height - oh) / T, max_cell)
        g = cls(data, scale, cell)
        while g.width > region.width + 1e-6 and cell > 0.15:  # label-bound columns: shrink the cells until it fits
            cell *= 0.95
            g = cls(data, scale, cell)
        if g.width > region.width + 1e-6 or g.height > region.height + 1e-6:
            raise LayoutError(f"the outputs grid does not fit region {region.name!r}")
        return region.place(g, ORIGIN)


class RoPERotatesQK(ClipScene):
    """11 · RoPE rotates q and k, and leaves V alone."""

    S = 3  # the shift
    S_MAX = 1000  # shifts measured: 1..S_MAX
    Q_COLOR = ACCENT
    K_COLOR = BLUE
    NOTES_H = 2.05  # the strip under the dials: who is who, the scores

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
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "m": d.m, "n": d.n, "s": d.s, "ms": d.m + d.s, "ns": d.n + d.s, "diff": d.m - d.n, "s_max": d.s_max,
            "d": d.q.size, "pairs": d.q.size // 2, "T": d.Y_plain.shape[0], "T1": d.Y_plain.shape[0] - 1,
            "qa": d.q_token, "kb": d.k_token,
            "gap": fmt_measure(d.score_gap), "gap_max": fmt_measure(d.score_gap_max),
            "defect_plain": fmt_measure(d.defect_plain), "defect_rot": fmt_measure(d.defect_rot),
        }

    def caption(self, key: str) -> str:
        """Worded variants chosen by measured values (the narration must hold for every config)."""
        if key == "qk" and self.data.q.size == 2:
            key = "qk_one"
        return super().caption(key)

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        from scenes.kit.position_widgets import PairDial

        d = self.data
        P = d.q.size // 2
        content = self.layout.content
        notes, dial_region = content.take_bottom(self.NOTES_H, gap=0.3)

        # ---- the dials: one per pair, as large as the region allows
        caps = [VGroup(label(f"pair {i}", size=SMALL, color=FG), label(f"θ = {fmt_small(d.theta[i])}", size=SMALL, color=DIM))
                .arrange(DOWN, buff=0.06) for i in range(P)]
        cap_h = max(c.height for c in caps) + 0.12
        gap = 0.6
        r = min(1.7, (dial_region.width - (P - 1) * gap) / (2 * P), (dial_region.height - cap_h) / 2)
        self.dials = VGroup(*[PairDial(np.array([d.q_pairs[0, i], d.k_pairs[0, i]]), colors=[self.Q_COLOR, self.K_COLOR],
                                       radius=r) for i in range(P)]).arrange(RIGHT, buff=gap)
        self.dial_caps = VGroup()
        for dial, cap in zip(self.dials, caps):
            self.dial_caps.add(cap.next_to(dial.face, DOWN, buff=0.12))
        dial_region.place(VGroup(self.dials, self.dial_caps))
        self.arcs = VGroup()

        # ---- notes, left: who is who, and where they sit
        left, right = notes.columns(1, 1, gap=0.6)
        self.pos_read = []
        rows = []
        for sym, col, what, tok, pos_name, pos_now in (("q", self.Q_COLOR, "query of token", d.q_token, "m", (d.m, d.m + d.s)),
                                                       ("k", self.K_COLOR, "key of token", d.k_token, "n", (d.n, d.n + d.s))):
            probe = max((label(str(v), size=LABEL, color=col) for v in pos_now), key=lambda t: t.width)
            row = VGroup(math(sym, size=LABEL + 4, color=col), label(f"{what} {tok}", size=LABEL),
                         label("at position", size=SMALL, color=DIM), math(f"{pos_name} =", size=LABEL, color=col), probe)
            row.arrange(RIGHT, buff=0.18)
            rows.append(row)
        self.diff_row = math(f"m - n = {d.m - d.n}", size=LABEL, color=FG)
        block = VGroup(*rows, self.diff_row).arrange(DOWN, buff=0.16, aligned_edge=LEFT)
        x_where = max(row[1].get_right()[0] for row in rows) + 0.3  # "at position" in one column
        for row in rows:  # the symbol, words and figure on one line
            for part in row[1:]:
                part.set_y(row[0].get_y())
            VGroup(*row[2:]).shift((x_where - row[2].get_left()[0]) * RIGHT)
        left.fit(block, align=LEFT)
        self.who = VGroup(*[VGroup(row[0], row[1]) for row in rows])
        self.where = VGroup(*[VGroup(row[2], row[3]) for row in rows])
        for row, v in zip(rows, (d.m, d.n)):
            probe = row[4]
            k = probe.height / label(probe.text, size=LABEL).height  # what fitting did to the text
            self.pos_read.append(Readout(str(v), probe.get_left(), size=LABEL * k, color=probe.get_color()))
        self.unrotated = label("not rotated yet", size=SMALL, color=DIM)
        self.unrotated.move_to([self.where.get_left()[0], VGroup(*rows[:2]).get_y(), 0], aligned_edge=LEFT)

        # ---- notes, right: the scores and their gap
        self.score_val = label(fmt_value(d.score, 4), size=LABEL, color=FG)
        self.score_row = VGroup(math(f'"score"({d.m}, {d.n}) =', size=LABEL), self.score_val).arrange(RIGHT, buff=0.2)
        self.score_shift_val = label(fmt_value(d.score_shifted, 4), size=LABEL, color=FG)
        self.score_shift_row = VGroup(math(f'"score"({d.m + d.s}, {d.n + d.s}) =', size=LABEL),
                                      self.score_shift_val).arrange(RIGHT, buff=0.2)
        self.gap_val = label(fmt_measure(d.score_gap), size=LABEL, color=GOOD if d.score_gap < 1e-12 else BAD)
        self.gap_max_val = label(fmt_measure(d.score_gap_max), size=LABEL, color=GOOD if d.score_gap_max < 1e-12 else BAD)
        self.gap_row = VGroup(
            VGroup(label("gap", size=SMALL, color=DIM), self.gap_val).arrange(RIGHT, buff=0.15),
            VGroup(label(f"largest for s = 1..{d.s_max}:", size=SMALL, color=DIM), self.gap_max_val).arrange(RIGHT, buff=0.15),
        ).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        for line in self.gap_row:  # words and figure on one baseline
            line[0].shift((baseline_y(line[1]) - baseline_y(line[0])) * UP)
        scores = VGroup(self.score_row, self.score_shift_row, self.gap_row).arrange(DOWN, buff=0.16, aligned_edge=LEFT)
        right.fit(scores, align=LEFT)

        # ---- part two: the whole sequence's outputs, across the content
        summary_strip, out_region = content.take_top(0.5, gap=0.3)
        self.summary = VGroup(label("scores:", size=SMALL, color=DIM),
                              math(f'"score"({d.m}, {d.n}) = "score"({d.m + d.s}, {d.n + d.s})', size=LABEL),
                              label(f"largest gap for s = 1..{d.s_max}:", size=SMALL, color=DIM),
                              label(fmt_measure(d.score_gap_max), size=LABEL,
                                    color=GOOD if d.score_gap_max < 1e-12 else BAD)).arrange(RIGHT, buff=0.2)
        summary_strip.fit(self.summary, align=LEFT)
        allY = np.concatenate([d.Y_plain, d.Y_plain_shifted, d.Y_rot, d.Y_rot_shifted])
        self.y_scale = ColorScale.symmetric(d.cmap, allY)
        self.outputs = OutputsGrid.fitted(d, self.y_scale, out_region)
        self.y_maps = self.outputs.maps
        self.defect_vals = self.outputs.values

    def turn_all(self, stage_from: int, stage_to: int) -> list:
        d = self.data
        return [dial.turn(d.angles[stage_to, :, i] - d.angles[stage_from, :, i]) for i, dial in enumerate(self.dials)]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        g = self.outputs
        # q and k as they come out of X W: one dial per pair
        self.beat("qk", FadeIn(self.dials, lag_ratio=0.1), FadeIn(self.dial_caps), FadeIn(self.who),
                  FadeIn(self.unrotated), run_time=1.2)
        # each turned by its own position
        self.beat("rotate", *self.turn_all(0, 1), swap(self.unrotated, VGroup(self.where, *[r.current for r in self.pos_read])),
                  run_time=1.8)
        # the angle between each q and k is what the score sees
        self.arcs = VGroup(*[dial.angle_arc(0, 1, radius=0.35, color=FG) for dial in self.dials])
        self.beat("score", Create(self.arcs), FadeIn(self.score_row, shift=0.1 * UP), run_time=1.0)
        # slide both tokens: both hands of a pair turn alike, and so does the arc between them
        turn = self.turn_all(1, 2)
        arc_turns = [Rotate(arc, angle=float(d.angles[2, 0, i] - d.angles[1, 0, i]), about_point=dial.center)
                     for i, (arc, dial) in enumerate(zip(self.arcs, self.dials))]
        self.beat("shift", *turn, *arc_turns, *[r.to(str(v)) for r, v in zip(self.pos_read, (d.m + d.s, d.n + d.s))],
                  run_time=1.8)
        self.beat("same", FadeIn(self.score_shift_row, shift=0.1 * UP), FadeIn(self.diff_row),
                  Indicate(self.arcs, color=ACCENT), run_time=1.0)
        self.beat("gap", FadeIn(self.gap_row, shift=0.1 * UP), run_time=0.8)
        # ---- V: the whole sequence, at positions 0.. and s..
        part_one = VGroup(self.dials, self.dial_caps, self.arcs, self.who, self.where, self.diff_row,
                          *[r.current for r in self.pos_read], self.score_row, self.score_shift_row, self.gap_row)
        ha, hb = self.y_maps[0]
        # part one leaves before part two comes: no text fades in over another fading out
        self.beat("v_plain", Succession(FadeOut(part_one, run_time=0.6),
                                        AnimationGroup(FadeIn(self.summary), FadeIn(g.cols[0]), FadeIn(g.heads[0]),
                                                       FadeIn(ha), FadeIn(hb), FadeIn(g.bar), run_time=0.9)),
                  run_time=1.5)
        self.beat("v_plain_measure", FadeIn(g.measures[0], shift=0.1 * UP), run_time=0.8)
        self.beat("v_why", Indicate(g.heads[0], color=ACCENT), run_time=1.0)
        ha, hb = self.y_maps[1]
        self.beat("v_rot", FadeIn(g.heads[1]), FadeIn(g.cols[1]), FadeIn(ha), FadeIn(hb), run_time=1.2)
        self.beat("v_rot_measure", FadeIn(g.measures[1], shift=0.1 * UP), run_time=0.8)
