"""Positional-encoding clips.

08 ``SinusoidalPosition`` (§7): the Vaswani formula; the ``(T × d)`` matrix filling
column pair by column pair, each pair sampled from its sine and cosine wave of
falling frequency; the wavelengths ``2π·base^(2i/d)``; the proof on screen is the
measured gap between the waves' samples and ``my_sinusoidal_position``.

09 ``ThreePositionalSchemes`` (§8): sinusoidal (added), learned-absolute (looked up
from a table of ``n_max`` rows) and RoPE (rotates q and k) on the same input, side
by side, with each scheme's position-similarity matrix; for RoPE the ``q_m·k_n``
grid depends only on ``m − n`` (its Toeplitz defect, measured).

Render directly with ``manim -ql scenes/positions.py SinusoidalPosition``.
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
    AnimationGroup,
    Arrow,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
    Write,
)

from mathcore import (
    learned_absolute_position,
    learned_absolute_table,
    lecture_inputs,
    my_sinusoidal_position,
    relative_score_grid,
    sinusoidal_wavelengths,
    toeplitz_defect,
)
from mathcore.attention import matmul
from mathcore.config import LectureConfig
from mathcore.positions import apply_rope
from mathcore.rope_measures import cosine_similarity_matrix, sinusoidal_at
from scenes.kit.position_widgets import ColorBar
from scenes.kit.theme import PURPLE
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
    Plot,
    fmt_measure,
    label,
    math,
)


def fmt_length(x: float) -> str:
    """A wavelength in positions for a label: ``6.3``, ``62.8``, ``628``, ``6 283``."""
    if x < 100:
        return f"{x:.1f}"
    return f"{x:,.0f}".replace(",", "\u2009")


def fmt_base(base: float) -> str:
    """The frequency base as typed in the config: ``10000`` rather than ``10000.0``."""
    return f"{int(base)}" if float(base).is_integer() else f"{base:g}"


# =====================================================================================
# 08 SinusoidalPosition
# =====================================================================================
@dataclass(frozen=True)
class SinusoidalData:
    """What clip 08 draws.

    ``PE = my_sinusoidal_position(T, d, base)``; ``wave_x``/``waves`` sample the same
    formula finely between positions (``sinusoidal_at``) for the curves; ``samples``
    are the waves at the integer positions and ``sample_defect = max |samples − PE|``.
    """

    T: int
    d: int
    base: float
    PE: np.ndarray  # (T, d)
    wavelengths: np.ndarray  # (d/2,)
    wave_x: np.ndarray  # (n,)
    waves: np.ndarray  # (n, d)
    samples: np.ndarray  # (T, d)
    sample_defect: float
    cmap: str


class SinusoidalPosition(ClipScene):
    """08 · The sinusoidal position matrix, built pair by pair from waves."""

    D = 8  # width: four sine/cosine pairs
    CELL = 0.4
    HEAT_X = -4.15
    HEAT_Y = -0.62
    PLOT_X = 2.75
    PLOT_Y = 0.0
    SIN_COLOR = ACCENT
    COS_COLOR = PURPLE

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SinusoidalData:
        T, d, base = cfg.T_heatmap, cls.D, cfg.rope_base
        PE = my_sinusoidal_position(T, d, base)
        wave_x = np.linspace(0.0, T - 1, 40 * (T - 1) + 1)
        samples = sinusoidal_at(np.arange(T), d, base)
        return SinusoidalData(
            T=T, d=d, base=base, PE=PE, wavelengths=sinusoidal_wavelengths(d, base),
            wave_x=wave_x, waves=sinusoidal_at(wave_x, d, base), samples=samples,
            sample_defect=float(np.max(np.abs(samples - PE))), cmap=cfg.cmap_signed,
        )

    def caption_values(self) -> dict:
        d = self.data
        lam = d.wavelengths
        return {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "base": fmt_base(d.base),
            "lam0": fmt_length(lam[0]), "lam1": fmt_length(lam[1]), "lam_last": fmt_length(lam[-1]),
            "ratio": fmt_length(lam[1] / lam[0]), "last": d.d // 2 - 1,
            "defect": fmt_measure(d.sample_defect),
        }

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T, D = d.T, d.d
        top = self.content_top
        self.scale_ = ColorScale(d.cmap, -1.0, 1.0)
        self.heat = Heatmap(d.PE, self.scale_, cell_size=self.CELL).move_to([self.HEAT_X, self.HEAT_Y, 0])
        self.outline = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(FAINT, 1.5) for row in self.heat.cells for c in row])
        self.col_idx = VGroup(*[
            label(str(j), size=SMALL, color=DIM).next_to(self.heat.cell(0, j), UP, buff=0.1) for j in range(D)
        ])
        self.row_idx = VGroup(*[
            label(str(p), size=SMALL, color=DIM).next_to(self.heat.cell(p, 0), LEFT, buff=0.12) for p in range(T)
        ])
        self.pair_marks = VGroup()
        y = self.col_idx.get_top()[1] + 0.1
        for i in range(D // 2):
            a, b = self.heat.cell(0, 2 * i), self.heat.cell(0, 2 * i + 1)
            line = Line([a.get_left()[0] + 0.05, y, 0], [b.get_right()[0] - 0.05, y, 0], stroke_color=DIM, stroke_width=2)
            name = label(str(i), size=SMALL, color=FG).next_to(line, UP, buff=0.08)
            self.pair_marks.add(VGroup(line, name))
        self.pos_name = label("col", size=SMALL, color=DIM).next_to(self.col_idx, LEFT, buff=0.2)
        self.pair_name = label("pair", size=SMALL, color=DIM).next_to(self.pair_marks, LEFT, buff=0.2)
        self.pair_name.align_to(self.pair_marks[0][1], DOWN)
        self.bar = ColorBar(self.scale_, height=self.CELL * T * 0.6, ticks=(-1, 0, 1))
        self.bar.next_to(self.heat, RIGHT, buff=0.3).align_to(self.heat, DOWN)
        self.heat_labels = VGroup(self.col_idx, self.row_idx, self.pos_name, self.pair_marks, self.pair_name)

        b = fmt_base(d.base)
        self.formula = VGroup(
            math(f'"PE"[p, 2i] = sin(p \\/ {b}^(2i \\/ d))', size=LABEL),
            math(f'"PE"[p, 2i+1] = cos(p \\/ {b}^(2i \\/ d))', size=LABEL),
        ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        self.dims = math(f"d = {D}", size=LABEL, color=DIM)
        VGroup(self.formula, self.dims).arrange(RIGHT, buff=0.6).move_to([self.PLOT_X, top - 0.62, 0])

        self.plot = Plot((0, T - 1), (-1.15, 1.15), width=6.6, height=2.0,
                         x_ticks=list(range(0, T, 2)), y_ticks=(-1, 0, 1), grid=True)
        self.plot.move_to([self.PLOT_X - 0.35, self.PLOT_Y - 0.4, 0])
        self.x_name = math("p", size=SMALL, color=DIM).next_to(self.plot.x_tick_labels[-1], RIGHT, buff=0.45)

        # per pair: its two curves (named at their right ends), the samples as dots, a wavelength label
        self.curves, self.dots, self.lambdas = [], [], VGroup()
        for i in range(D // 2):
            cs = self.plot.curve(d.wave_x, d.waves[:, 2 * i], color=self.SIN_COLOR, stroke_width=4)
            cc = self.plot.curve(d.wave_x, d.waves[:, 2 * i + 1], color=self.COS_COLOR, stroke_width=4)
            ns = math("sin", size=SMALL, color=self.SIN_COLOR).next_to(cs.get_end(), RIGHT, buff=0.15)
            nc = math("cos", size=SMALL, color=self.COS_COLOR).next_to(cc.get_end(), RIGHT, buff=0.15)
            if abs(ns.get_y() - nc.get_y()) < 0.32:  # keep the names apart when the curves end close
                mid = (ns.get_y() + nc.get_y()) / 2
                up, dn = (ns, nc) if ns.get_y() >= nc.get_y() else (nc, ns)
                up.set_y(mid + 0.16)
                dn.set_y(mid - 0.16)
            self.curves.append(VGroup(cs, cc, ns, nc))
            dots = VGroup()
            for j in (2 * i, 2 * i + 1):
                for p in range(T):
                    v = d.samples[p, j]
                    dots.add(Dot(self.plot.to_point(p, v), radius=0.075, fill_color=self.scale_.color(v),
                                 fill_opacity=1, stroke_color=FG, stroke_width=1.5))
            self.dots.append(dots)
            self.lambdas.add(VGroup(
                math(f"lambda_{i} =", size=SMALL, color=DIM), label(fmt_length(d.wavelengths[i]), size=SMALL, color=FG),
            ).arrange(RIGHT, buff=0.12))
        self.lambdas.arrange(RIGHT, buff=0.45).move_to([self.PLOT_X, self.plot.x_tick_labels.get_bottom()[1] - 0.35, 0])
        self.pair_title = VGroup()  # set per pair

        self.defect_value = label(fmt_measure(d.sample_defect), size=LABEL,
                                  color=GOOD if d.sample_defect < 1e-12 else BAD)
        self.check = VGroup(math('max |"wave"(p) - "PE"[p]| =', size=LABEL), self.defect_value)
        self.check.arrange(RIGHT, buff=0.2).move_to([self.PLOT_X, self.lambdas.get_bottom()[1] - 0.42, 0])

    def pair_heading(self, i: int) -> VGroup:
        lam = self.data.wavelengths[i]
        b = fmt_base(self.data.base)
        t = VGroup(
            label(f"pair {i}:", size=SMALL, color=ACCENT),
            math(f"lambda_{i} = 2 pi dot {b}^({2 * i} \\/ {self.data.d}) =", size=SMALL, color=FG),
            label(f"{fmt_length(lam)} positions", size=SMALL, color=FG),
        ).arrange(RIGHT, buff=0.2)
        return t.move_to([self.PLOT_X, self.plot.axes[1].get_top()[1] + 0.38, 0])

    # ------------------------------------------------------------------ beats
    def show_pair(self, i: int, key_waves: str, key_fill: str | None) -> None:
        d = self.data
        T = d.T
        heading = self.pair_heading(i)
        old = [FadeOut(self.pair_title)] if len(self.pair_title) else []
        if i > 0:
            old.append(FadeOut(self.curves[i - 1]))
        self.pair_title = heading
        focus = SurroundingRectangle(VGroup(self.heat.cell(0, 2 * i), self.heat.cell(T - 1, 2 * i + 1)),
                                     color=ACCENT, buff=0.03, stroke_width=3)
        self.beat(key_waves, *old, FadeIn(heading), Create(self.curves[i], run_time=1.4),
                  FadeIn(focus), self.pair_marks[i][1].animate.set_color(ACCENT), run_time=1.4)
        self.play(LaggedStart(*[FadeIn(dot, scale=0.5) for dot in self.dots[i]], lag_ratio=0.03), run_time=0.8)
        flights = []
        for k, dot in enumerate(self.dots[i]):
            j, p = 2 * i + k // T, k % T
            flights.append(ReplacementTransform(dot, self.heat.cell(p, j)))
        fill = [LaggedStart(*flights, lag_ratio=0.02), FadeIn(self.lambdas[i], shift=0.1 * UP)]
        if key_fill:
            self.beat(key_fill, *fill, run_time=1.4)
        else:
            self.play(*fill, run_time=1.2)
        self.play(FadeOut(focus), self.pair_marks[i][1].animate.set_color(FG), run_time=0.4)

    def body(self) -> None:
        self.make_mobjects()
        n_pairs = self.data.d // 2
        self.beat("formula", Write(self.formula), FadeIn(self.dims), run_time=1.6)
        self.beat("grid", Create(self.outline), FadeIn(self.col_idx), FadeIn(self.row_idx), FadeIn(self.pos_name),
                  FadeIn(self.pair_marks), FadeIn(self.pair_name), FadeIn(self.bar), Create(self.plot), FadeIn(self.x_name),
                  run_time=1.4)
        self.show_pair(0, "pair0", "fill0")
        self.show_pair(1, "pair1", None)
        for i in range(2, n_pairs - 1):
            self.show_pair(i, "pair_mid", None)
        self.show_pair(n_pairs - 1, "pair_last", None)
        self.remove(self.outline, *[c for row in self.heat.cells for c in row])
        self.add(self.heat)
        self.beat("check", FadeIn(self.check, shift=0.15 * UP), run_time=1.0)

