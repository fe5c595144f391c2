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
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    Indicate,
    LaggedStart,
    Line,
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


# =====================================================================================
# 10 RoPEAngleGrid
# =====================================================================================
@dataclass(frozen=True)
class AngleGridData:
    """What clip 10 draws: ``grid = rope_angle_grid(T, d, base)`` (radians), its values mod 2π
    for the colours, ``theta = rope_frequencies(d, base)`` and the measured
    ``max |grid − m·base^(−2i/d)|``; ``m_pick`` and the two pairs picked out."""

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


class RoPEAngleGrid(ClipScene):
    """10 · The RoPE angle table: fast hands and slow hands."""

    D = 16  # eight pairs
    CELL = 0.4
    HEAT_X = -4.45
    HEAT_Y = -0.62
    RIGHT_X = 2.9
    STEP_TIME = 0.75

    @classmethod
    def stills(cls, data, cfg) -> list:
        """The angle grid mod 2π with the cyclic colormap, as drawn."""
        return [HeatmapStill("angle_grid", f"RoPE angles m·θ_i mod 2π (d = {data.d}, base {data.base:g})",
                             np.mod(data.grid, 2 * np.pi), ColorScale(data.cmap, 0.0, 2 * np.pi), "pair i", "position m")]

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> AngleGridData:
        T, d, base = cfg.T_heatmap, cls.D, cfg.rope_base
        grid = rope_angle_grid(T, d, base)
        return AngleGridData(
            T=T, d=d, base=base, grid=grid, wrapped=np.mod(grid, TWO_PI), theta=rope_frequencies(d, base),
            defect=angle_grid_defect(T, d, base), m_pick=T - 1, fast=0, slow=d // 2 - 1, cmap=cfg.cmap_angles,
        )

    def caption_values(self) -> dict:
        d = self.data
        m = d.m_pick
        return {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "base": fmt_base(d.base), "m": m,
            "fast": d.fast, "slow": d.slow,
            "wrap": f"{TWO_PI / d.theta[d.fast]:.1f}",
            "fast_angle": f"{d.grid[m, d.fast]:.1f}", "fast_turns": f"{d.grid[m, d.fast] / TWO_PI:.1f}",
            "slow_angle": fmt_rate(d.grid[m, d.slow]),
            "defect": fmt_measure(d.defect),
        }

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T, P = d.T, d.d // 2
        top = self.content_top
        self.angle_scale = ColorScale(d.cmap, 0.0, TWO_PI)
        self.heat = Heatmap(d.wrapped, self.angle_scale, cell_size=self.CELL).move_to([self.HEAT_X, self.HEAT_Y, 0])
        self.col_idx = self.heat.index_labels("cols")
        self.row_idx = self.heat.index_labels("rows")
        self.i_name = math("i", size=SMALL, color=DIM).next_to(self.col_idx, LEFT, buff=0.25)
        self.i_name.align_to(self.col_idx, DOWN)
        self.m_name = math("m", size=SMALL, color=DIM).next_to(self.row_idx, LEFT, buff=0.2)
        self.heat_title = label(f"angle mod 2π,  d = {d.d}", size=SMALL, color=FG).next_to(self.col_idx, UP, buff=0.12)
        self.bar = ColorBar(self.angle_scale, height=self.CELL * T * 0.75, ticks=(0, np.pi, TWO_PI),
                            tick_math=("0", "pi", "2 pi"))
        self.bar.next_to(self.heat, RIGHT, buff=0.3).align_to(self.heat, DOWN)
        self.heat_labels = VGroup(self.col_idx, self.row_idx, self.i_name, self.m_name, self.heat_title)

        b = fmt_base(d.base)
        self.formula = VGroup(
            math('"angle"[m, i] = m dot theta_i', size=LABEL),
            math(f"theta_i = {b}^(-2i \\/ d)", size=LABEL, color=DIM),
        ).arrange(RIGHT, buff=0.6).move_to([self.RIGHT_X, top - 0.3, 0])

        caps = []
        for i in range(P):
            caps.append(VGroup(math(f"i = {i}", size=SMALL, color=FG),
                               label(f"θ = {fmt_rate(d.theta[i])}", size=SMALL, color=DIM)).arrange(DOWN, buff=0.06))
        self.dials = DialRow(np.zeros(P), radius=0.5, cols=4, captions=caps, colors=[ACCENT] * P,
                             h_buff=0.3, v_buff=0.25)
        self.dials.move_to([self.RIGHT_X, -0.4, 0])
        self.m_labels = [
            VGroup(math("m =", size=LABEL + 6), label(str(m), size=LABEL + 6, color=ACCENT)).arrange(RIGHT, buff=0.18)
            for m in range(T)
        ]
        for lab in self.m_labels:
            lab.move_to([self.RIGHT_X, self.dials.get_top()[1] + 0.36, 0])
        self.m_label = self.m_labels[0].copy()  # the one on screen; it becomes each m in turn
        self.row_box = SurroundingRectangle(VGroup(self.heat.cell(0, 0), self.heat.cell(0, P - 1)),
                                            color=ACCENT, buff=0.03, stroke_width=4)

        self.defect_value = label(fmt_measure(d.defect), size=LABEL, color=GOOD if d.defect < 1e-12 else BAD)
        self.check = VGroup(math('max |"grid"[m, i] - m dot ' + b + '^(-2i \\/ d)| =', size=LABEL), self.defect_value)
        self.check.arrange(RIGHT, buff=0.2).move_to([self.RIGHT_X, -2.75, 0])

    def column_box(self, i: int, color) -> SurroundingRectangle:
        T = self.data.T
        return SurroundingRectangle(VGroup(self.heat.cell(0, i), self.heat.cell(T - 1, i)), color=color, buff=0.03,
                                    stroke_width=4)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.T
        self.beat("formula", Write(self.formula), run_time=1.4)
        rows = [VGroup(*self.heat.cells[m]) for m in range(T)]
        self.beat("grid", LaggedStart(*[FadeIn(r) for r in rows], lag_ratio=0.12), FadeIn(self.heat_labels),
                  FadeIn(self.bar), run_time=1.8)
        self.remove(*rows)
        self.add(self.heat)
        self.beat("dials", FadeIn(self.dials), FadeIn(self.m_label), Create(self.row_box),
                  run_time=1.2)
        steps = []
        for m in range(1, T):
            steps.append(AnimationGroup(
                self.dials.turn_to(d.grid[m]),
                self.row_box.animate.move_to(VGroup(self.heat.cell(m, 0), self.heat.cell(m, d.d // 2 - 1))),
                Transform(self.m_label, self.m_labels[m]),
                run_time=self.STEP_TIME,
            ))
        self.beat("walk", Succession(*steps), run_time=self.STEP_TIME * (T - 1), hold=0.5)
        self.remove(self.m_label)  # hand over to the label that reads the last position
        self.m_label = self.m_labels[T - 1]
        self.add(self.m_label)
        fast_box = self.column_box(d.fast, BLUE)
        self.beat("fast", Create(fast_box), Indicate(self.dials.dials[d.fast], color=BLUE, scale_factor=1.15),
                  run_time=1.2)
        slow_box = self.column_box(d.slow, PURPLE)
        self.beat("slow", Create(slow_box), Indicate(self.dials.dials[d.slow], color=PURPLE, scale_factor=1.15),
                  run_time=1.2)
        self.beat("check", FadeIn(self.check, shift=0.15 * UP), run_time=1.0)


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
