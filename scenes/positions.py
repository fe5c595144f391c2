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
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    LaggedStart,
    Line,
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
        self.col_idx = self.heat.index_labels("cols")
        self.row_idx = self.heat.index_labels("rows")
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



# =====================================================================================
# 09 ThreePositionalSchemes
# =====================================================================================
@dataclass(frozen=True)
class SchemesData:
    """What clip 09 draws.

    The same input ``X: (T, d)`` goes through each scheme: ``X + P`` (sinusoidal),
    ``X + E[:T]`` (learned rows looked up from a table of ``n_max``), ``RoPE(X Wq)``
    (queries rotated; RoPE leaves X itself alone).  The position-similarity
    matrices over ``T_sim`` positions are ``cos(P[m], P[n])``, ``cos(E[m], E[n])``
    and ``RoPE(q, m)·RoPE(k, n)`` for the first token's ``q``, ``k``; ``defects``
    holds each matrix's Toeplitz defect (0 means it depends on ``m − n`` only).
    """

    X: np.ndarray  # (T, d)
    X_sin: np.ndarray  # (T, d) X + P
    X_learned: np.ndarray  # (T, d) X + E[:T]
    Q_rope: np.ndarray  # (T, d) RoPE(X Wq)
    n_max: int
    T_sim: int
    sim_sin: np.ndarray  # (T_sim, T_sim)
    sim_learned: np.ndarray  # (T_sim, T_sim)
    sim_rope: np.ndarray  # (T_sim, T_sim)
    defects: tuple[float, float, float]
    learned_std: float  # the table's measured standard deviation
    base: float
    cmap: str


class ThreePositionalSchemes(ClipScene):
    """09 · Sinusoidal, learned-absolute and RoPE on the same input, side by side."""

    COLS = (-4.8, -0.15, 4.5)
    NAMES = ("Sinusoidal", "Learned absolute", "RoPE")
    IN_CELL = 0.24
    SIM_CELL = 0.17
    DIAG = 3  # the RoPE diagonal picked out: m − n = DIAG

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SchemesData:
        T, d, base = cfg.T, cfg.d, cfg.rope_base
        inp = lecture_inputs(T, d, cfg.seed)
        X = inp.X
        Ts = cfg.T_heatmap
        P_sim = my_sinusoidal_position(Ts, d, base)
        E_sim = learned_absolute_position(Ts, d, cfg.n_max, cfg.seed)
        q, k = matmul(X, inp.Wq)[0], matmul(X, inp.Wk)[0]
        sims = (cosine_similarity_matrix(P_sim), cosine_similarity_matrix(E_sim), relative_score_grid(q, k, Ts, base))
        table = learned_absolute_table(d, cfg.n_max, cfg.seed)
        return SchemesData(
            X=X,
            X_sin=X + my_sinusoidal_position(T, d, base),
            X_learned=X + learned_absolute_position(T, d, cfg.n_max, cfg.seed),
            Q_rope=apply_rope(matmul(X, inp.Wq), base=base),
            n_max=cfg.n_max, T_sim=Ts,
            sim_sin=sims[0], sim_learned=sims[1], sim_rope=sims[2],
            defects=tuple(toeplitz_defect(S) for S in sims),
            learned_std=float(np.std(table)), base=base, cmap=cfg.cmap_signed,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "T": d.X.shape[0], "d": d.X.shape[1], "n_max": d.n_max, "T_sim": d.T_sim,
            "std": f"{d.learned_std:.2f}", "diag": self.DIAG,
            "defect_sin": fmt_measure(d.defects[0]), "defect_learned": fmt_measure(d.defects[1]),
            "defect_rope": fmt_measure(d.defects[2]),
        }

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        top = self.content_top
        colors = (ACCENT, BLUE, PURPLE)
        in_vals = np.concatenate([d.X, d.X_sin, d.X_learned, d.Q_rope])
        self.in_scale = ColorScale.symmetric(d.cmap, in_vals)
        self.heads = VGroup(*[
            label(n, size=LABEL, color=c, weight="BOLD").move_to([x, top - 0.25, 0])
            for n, c, x in zip(self.NAMES, colors, self.COLS)
        ])
        self.rules = VGroup(*[
            Line([x - 2.1, top - 0.55, 0], [x + 2.1, top - 0.55, 0], stroke_color=c, stroke_width=2)
            for c, x in zip(colors, self.COLS)
        ])
        self.formulas = VGroup(   # what each scheme adds, and what it costs
            label("a fixed formula", size=SMALL, color=DIM),
            label(f"a table of {d.n_max} rows", size=SMALL, color=DIM),
            label("rotates q and k, not V", size=SMALL, color=DIM),
        )
        for f, x in zip(self.formulas, self.COLS):
            f.move_to([x, top - 0.85, 0])

        y_in = top - 1.8
        self.inputs, self.arrows, self.results, self.ops, self.in_names, self.out_names = (VGroup() for _ in range(6))
        results = (d.X_sin, d.X_learned, d.Q_rope)
        ops = ("+ p_m", "+ E[m]", "R_m W_q")
        ins = ("x_m", "x_m", "x_m")
        outs = ("x_m + p_m", "x_m + E[m]", "q_m")
        for x, res, op, inn, out in zip(self.COLS, results, ops, ins, outs):
            hx = Heatmap(d.X, self.in_scale, cell_size=self.IN_CELL).move_to([x - 1.3, y_in, 0])
            hr = Heatmap(res, self.in_scale, cell_size=self.IN_CELL).move_to([x + 1.3, y_in, 0])
            arrow = Arrow([x - 0.65, y_in - 0.1, 0], [x + 0.65, y_in - 0.1, 0], buff=0, color=DIM, stroke_width=3,
                          max_tip_length_to_length_ratio=0.2)
            opm = math(op, size=SMALL, color=FG).next_to(arrow, UP, buff=0.08)
            self.inputs.add(hx)
            self.results.add(hr)
            self.arrows.add(arrow)
            self.ops.add(opm)
            self.in_names.add(math(inn, size=SMALL, color=DIM).next_to(hx, DOWN, buff=0.08))
            self.out_names.add(math(out, size=SMALL, color=DIM).next_to(hr, DOWN, buff=0.08))

        # the position-similarity matrices
        y_sim = -2.0
        sims = (d.sim_sin, d.sim_learned, d.sim_rope)
        scales = (ColorScale(d.cmap, -1.0, 1.0), ColorScale(d.cmap, -1.0, 1.0), ColorScale.symmetric(d.cmap, d.sim_rope))
        titles = ("cos(p_m, p_n)", "cos(E[m], E[n])", "(R_m q) dot (R_n k)")
        self.sims, self.sim_titles, self.sim_axes = VGroup(), VGroup(), VGroup()
        self.sim_scales = scales
        for x, S, sc, t in zip(self.COLS, sims, scales, titles):
            h = Heatmap(S, sc, cell_size=self.SIM_CELL).move_to([x - 0.5, y_sim, 0])
            self.sims.add(h)
            self.sim_titles.add(math(t, size=SMALL, color=FG).next_to(h, UP, buff=0.12))
            m_lab = math("m", size=SMALL, color=DIM).next_to(h, LEFT, buff=0.12)
            self.sim_axes.add(VGroup(m_lab))

        self.verdicts, self.defect_values = VGroup(), VGroup()
        for k, h in enumerate(self.sims):
            v = d.defects[k]
            ok = v < 1e-9
            val = label(fmt_measure(v), size=SMALL, color=GOOD if ok else BAD)
            row = VGroup(
                label("diagonals", size=SMALL, color=DIM), label("vary by", size=SMALL, color=DIM),
                VGroup(val, label("\u2713" if ok else "\u2717", size=SMALL, color=GOOD if ok else BAD)).arrange(RIGHT, buff=0.1),
            ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
            row.next_to(h, RIGHT, buff=0.25)
            self.defect_values.add(val)
            self.verdicts.add(row)
        T = d.T_sim
        cells = [self.sims[2].cell(m, m - self.DIAG) for m in range(self.DIAG, T)]
        self.diag_marks = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(ACCENT, 3) for c in cells])

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        self.beat("input", FadeIn(self.heads), Create(self.rules),
                  LaggedStart(*[FadeIn(VGroup(h, n)) for h, n in zip(self.inputs, self.in_names)], lag_ratio=0.2),
                  run_time=1.4)
        for k, key in enumerate(("sinusoidal", "learned", "rope")):
            self.beat(key, FadeIn(self.formulas[k]), GrowArrow(self.arrows[k]), FadeIn(self.ops[k]),
                      FadeIn(self.results[k], shift=0.2 * RIGHT), FadeIn(self.out_names[k]), run_time=1.3)
        self.beat("similarity", LaggedStart(*[
            AnimationGroup(FadeIn(h), FadeIn(t), FadeIn(a)) for h, t, a in zip(self.sims, self.sim_titles, self.sim_axes)
        ], lag_ratio=0.3), run_time=1.8)
        self.beat("sin_band", Indicate(self.sims[0], color=None, scale_factor=1.06), run_time=1.0)
        self.beat("learned_noise", Indicate(self.sims[1], color=None, scale_factor=1.06), run_time=1.0)
        self.beat("rope_diag", LaggedStart(*[Create(c) for c in self.diag_marks], lag_ratio=0.1), run_time=1.4)
        self.beat("toeplitz", LaggedStart(*[FadeIn(v, shift=0.1 * UP) for v in self.verdicts], lag_ratio=0.3),
                  run_time=1.4)
        self.beat("only_rope", Indicate(self.verdicts[2], color=GOOD, scale_factor=1.1), run_time=1.0)
