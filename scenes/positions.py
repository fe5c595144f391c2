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
    LaggedStart,
    Line,
    ReplacementTransform,
    Succession,
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
from scenes.kit import (
    ACCENT,
    BAD,
    BLUE,
    DIM,
    FAINT,
    FG,
    GOOD,
    HEADING,
    LABEL,
    PURPLE,
    SMALL,
    ClipScene,
    ColorBar,
    ColorScale,
    Heatmap,
    Region,
    fmt_measure,
    label,
    math,
    swap,
)
from scenes.kit.scheme_widgets import WavePanel, balanced_label, dim, undim


def fmt_length(x: float) -> str:
    """A wavelength in positions for a label: ``6.3``, ``62.8``, ``628``, ``6 283``."""
    if x < 100:
        return f"{x:.1f}"
    return f"{x:,.0f}".replace(",", "\u2009")


def fmt_base(base: float) -> str:
    """The frequency base as typed in the config: ``10000`` rather than ``10000.0``."""
    return f"{int(base)}" if float(base).is_integer() else f"{base:g}"


def base_math(base: float) -> str:
    """The base as Typst math, ready to be raised to a power: ``10000``, ``500000``,
    ``(10^9)``, ``(2.5 dot 10^7)``; bases from a million up are written with a power of ten
    so the formula keeps its width."""
    b = float(base)
    if b < 1e6:
        return fmt_base(b)
    exp = int(np.floor(np.log10(b)))
    mant = b / 10.0 ** exp
    if abs(mant - round(mant)) < 1e-9 and round(mant) == 1:
        return f"(10^{exp})"
    return f"({mant:.6g} dot 10^{exp})"


def nice_tick(vmax: float) -> float:
    """The largest round number (one significant digit) not above ``vmax``: 6.04 -> 6, 0.83 -> 0.8."""
    mag = 10.0 ** np.floor(np.log10(vmax))
    return float(np.floor(vmax / mag + 1e-9) * mag)


def fmt_tick(v: float) -> str:
    """A colour-bar tick: ``−6``, ``0``, ``0.8``, ``1``."""
    return f"{v:g}".replace("-", "\u2212")


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
    """08 · The sinusoidal position matrix, built pair by pair from waves.

    The waves run *down* a panel beside the matrix, position ``p`` at the height of
    matrix row ``p``: each sample flies straight across into its own cell."""

    D = 8  # width: four sine/cosine pairs
    MAX_CELL = 0.6
    STRIP = 0.95  # over the matrix: pair marks and column indices; over the panel: the colour bar
    INDEX_W = 0.55  # the row-index column, left of the panel
    GAP = 1.0  # panel to matrix: room for the words "pair" and "col" in the strip
    ROW_PITCH = 0.4
    NOTES_GAP = 0.5
    MIN_PANEL = 3.0
    MAX_PANEL = 4.2
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
            "ratio": fmt_length(lam[1] / lam[0]), "last": d.d // 2 - 1, "p_last": d.T - 1,
            "share_last": fmt_measure(100.0 * (d.T - 1) / lam[-1]) + "\u2009%",
            "defect": fmt_measure(d.sample_defect),
        }

    # ------------------------------------------------------------------ layout
    def make_notes(self) -> None:
        """The formula, the wavelength table and the check: the right-hand column."""
        d = self.data
        bm = base_math(d.base)
        self.formula = VGroup(
            math('"PE"[p, 2i] = sin(omega_i p)', size=LABEL, color=self.SIN_COLOR),
            math('"PE"[p, 2i+1] = cos(omega_i p)', size=LABEL, color=self.COS_COLOR),
            VGroup(math(f"omega_i = 1 \\/ {bm}^(2i \\/ d)", size=LABEL, color=FG),
                   math(f"d = {d.d}", size=LABEL, color=DIM)).arrange(RIGHT, buff=0.5),
        ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)

        self.lam_head = label("wavelengths, in positions", size=SMALL, color=DIM)
        self.lam_formula = math("lambda_i = 2 pi \\/ omega_i", size=LABEL, color=FG)
        self.lambdas = VGroup()
        for i, lam in enumerate(d.wavelengths):
            self.lambdas.add(VGroup(label(f"pair {i}", size=SMALL, color=DIM), label(fmt_length(lam), size=SMALL, color=FG)))
        name_w = max(g[0].width for g in self.lambdas)
        val_w = max(g[1].width for g in self.lambdas)
        for k, g in enumerate(self.lambdas):
            g[0].move_to([0, -self.ROW_PITCH * k, 0], aligned_edge=LEFT)
            g[1].move_to([name_w + 0.5 + val_w, -self.ROW_PITCH * k, 0], aligned_edge=RIGHT)
        self.lam_block = VGroup(self.lam_head, self.lam_formula, self.lambdas).arrange(DOWN, buff=0.16, aligned_edge=LEFT)

        self.defect_value = label(fmt_measure(d.sample_defect), size=LABEL,
                                  color=GOOD if d.sample_defect < 1e-12 else BAD)
        self.check_lhs = math('|"wave" - "PE"| <=', size=LABEL)
        self.check = VGroup(self.check_lhs, self.defect_value).arrange(RIGHT, buff=0.2)

    def make_mobjects(self) -> None:
        d = self.data
        T, D = d.T, d.d
        content = self.layout.content
        self.scale_ = ColorScale(d.cmap, -1.0, 1.0)
        self.make_notes()

        # the notes column is as wide as its widest line; the matrix and the panel get the rest
        notes_w = max(self.formula.width, self.lam_block.width, self.check.width) + 0.05
        notes = Region(content.right - notes_w, content.right, content.bottom, content.top, "notes")
        left = Region(content.left, notes.left - self.NOTES_GAP, content.bottom + 0.08, content.top, "waves+matrix")
        body_h = left.height - self.STRIP
        room = left.width - self.INDEX_W - self.GAP - self.MIN_PANEL
        cell = min(body_h / T, room / D, self.MAX_CELL)
        panel_w = min(self.MAX_PANEL, left.width - self.INDEX_W - self.GAP - D * cell)
        block_w = self.INDEX_W + panel_w + self.GAP + D * cell
        x0 = left.left + (left.width - block_w) / 2
        top_y = left.top - self.STRIP - (body_h - T * cell) / 2  # top edge of row 0

        # the matrix (cells revealed pair by pair), its indices and pair marks
        self.heat = Heatmap(d.PE, self.scale_, cell_size=cell)
        self.heat.move_to([x0 + block_w - D * cell / 2, top_y - T * cell / 2, 0])
        self.outline = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(FAINT, 1.5) for row in self.heat.cells for c in row])
        self.col_idx = self.heat.index_labels("cols")
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

        # the wave panel: position p at the height of matrix row p, the value across
        panel_left = x0 + self.INDEX_W
        self.panel = WavePanel(T, self.heat.cell_center(0, 0)[1], cell, panel_left, panel_w)
        step = 1 if cell >= 0.34 else 2  # every other index when rows are tight
        self.row_idx = VGroup(*[
            label(str(p), size=SMALL, color=DIM).move_to([x0 + self.INDEX_W / 2, self.panel.row_y(p), 0])
            for p in range(0, T, step)
        ])
        self.p_name = math("p", size=LABEL, color=DIM).move_to([x0 + self.INDEX_W / 2, 0, 0])
        self.p_name.set_y(self.pair_marks[0][1].get_y())
        # the colour bar is the panel's value axis: a sample at height v has the colour above it
        bar_len = self.panel.value_x(1.0) - self.panel.value_x(-1.0)
        self.bar = ColorBar(self.scale_, height=bar_len, width=0.2, ticks=(-1, 0, 1), horizontal=True)
        self.bar.align_to(self.pair_marks, UP)
        self.bar.shift((self.panel.value_x(0.0) - self.bar.frame.get_x()) * RIGHT)
        self.heat_labels = VGroup(self.col_idx, self.row_idx, self.pos_name, self.pair_marks, self.pair_name, self.p_name)

        # per pair: its two curves, its samples as dots (stroked in their wave's colour)
        radius = min(0.075, 0.22 * cell)
        self.curves, self.dots = [], []
        for i in range(D // 2):
            self.curves.append(VGroup(
                self.panel.curve(d.wave_x, d.waves[:, 2 * i], color=self.SIN_COLOR),
                self.panel.curve(d.wave_x, d.waves[:, 2 * i + 1], color=self.COS_COLOR),
            ))
            self.dots.append(self.sample_dots(i, radius))
        self.radius = radius

        # the notes: the formula's home, the wavelength table, the check
        self.lam_block.next_to(self.formula, DOWN, buff=0.4, aligned_edge=LEFT)
        self.check.next_to(self.lam_block, DOWN, buff=0.4, aligned_edge=LEFT)
        notes_stack = VGroup(self.formula, self.lam_block, self.check)
        notes.fit(notes_stack, UP + LEFT)
        self.formula_home = self.formula.get_center().copy()
        for g in self.lambdas:  # appear one by one, as their pair is drawn
            g.set_opacity(0)

    def sample_dots(self, i: int, radius: float) -> VGroup:
        """The samples of pair ``i`` at every integer position: sine first, then cosine."""
        d = self.data
        dots = VGroup()
        for j, col in ((2 * i, self.SIN_COLOR), (2 * i + 1, self.COS_COLOR)):
            for p in range(d.T):
                v = d.samples[p, j]
                dots.add(Dot(self.panel.to_point(v, p), radius=radius, fill_color=self.scale_.color(v),
                             fill_opacity=1, stroke_color=col, stroke_width=2))
        return dots

    def intro_formula(self) -> VGroup:
        """The formula large, with what its symbols mean, for its own beat."""
        d = self.data
        notes = [
            ("p", "the position: one row of the matrix"),
            ("i", "the pair: columns 2i and 2i+1"),
            ("omega_i", "its frequency: falls with i"),
            (f"d = {d.d}", f"the width: {d.d // 2} pairs of columns"),
        ]
        rows = VGroup(*[VGroup(math(sym, size=LABEL, color=FG), label(text, size=SMALL, color=DIM))
                        for sym, text in notes])
        sym_w = max(r[0].width for r in rows)
        for r in rows:  # the symbols in one column, what they mean in the next
            r[1].next_to(r[0], RIGHT, buff=0.35 + sym_w - r[0].width)
        rows.arrange(DOWN, buff=0.18, aligned_edge=LEFT)
        return rows

    # ------------------------------------------------------------------ beats
    def show_pair(self, i: int, key_waves: str, key_fill: str | None) -> None:
        d = self.data
        T = d.T
        focus = SurroundingRectangle(VGroup(self.heat.cell(0, 2 * i), self.heat.cell(T - 1, 2 * i + 1)),
                                     color=ACCENT, buff=0.03, stroke_width=3)
        anims = [Create(self.curves[i], run_time=1.4), FadeIn(focus),
                 self.pair_marks[i][1].animate.set_color(ACCENT),
                 self.lambdas[i][0].animate.set_opacity(1).set_color(ACCENT),
                 self.lambdas[i][1].animate.set_opacity(1).set_color(ACCENT)]
        if i > 0:
            anims += [FadeOut(self.curves[i - 1]), FadeOut(self.focus), self.pair_marks[i - 1][1].animate.set_color(FG),
                      self.lambdas[i - 1][0].animate.set_color(DIM), self.lambdas[i - 1][1].animate.set_color(FG)]
        self.focus = focus
        self.beat(key_waves, *anims, run_time=1.4)
        self.play(LaggedStart(*[FadeIn(dot, scale=0.5) for dot in self.dots[i]], lag_ratio=0.03), run_time=0.8)
        flights = []
        for k, dot in enumerate(self.dots[i]):
            j, p = 2 * i + k // T, k % T
            flights.append(ReplacementTransform(dot, self.heat.cell(p, j)))
        if key_fill:
            self.beat(key_fill, LaggedStart(*flights, lag_ratio=0.02), run_time=1.4)
        else:
            self.play(LaggedStart(*flights, lag_ratio=0.02), run_time=1.2)

    def body(self) -> None:
        self.make_mobjects()
        n_pairs = self.data.d // 2
        content = self.layout.content

        # the formula, large, with what its symbols mean
        intro = self.intro_formula()
        big = content.inset(0.6).fit_scale(self.formula, max_scale=1.45)
        self.formula.scale(big)
        VGroup(self.formula, intro).arrange(DOWN, buff=0.6)
        content.place(VGroup(self.formula, intro))
        self.beat("formula", Write(self.formula), FadeIn(intro, shift=0.1 * UP, lag_ratio=0.2), run_time=1.8)

        # it moves to the notes; the empty matrix and the panel take the screen
        # (first the formula goes home, then the grid comes: nothing moves across anything drawn)
        self.beat("grid", Succession(
            AnimationGroup(self.formula.animate.scale(1 / big).move_to(self.formula_home), FadeOut(intro)),
            AnimationGroup(Create(self.outline), FadeIn(self.heat_labels), FadeIn(self.bar), Create(self.panel),
                           FadeIn(self.lam_head), FadeIn(self.lam_formula))), run_time=2.4)
        self.show_pair(0, "pair0", "fill0")
        self.show_pair(1, "pair1", None)
        for i in range(2, n_pairs - 1):
            self.show_pair(i, "pair_mid", None)
        self.show_pair(n_pairs - 1, "pair_last", None)
        self.remove(self.outline, *[c for row in self.heat.cells for c in row])
        self.add(self.heat)

        # the most telling frame to end on: the full matrix beside its fastest pair of waves,
        # the samples back on the waves, every wavelength, and the measured check
        last = n_pairs - 1
        self.final_dots = self.sample_dots(0, self.radius)
        focus = SurroundingRectangle(VGroup(self.heat.cell(0, 0), self.heat.cell(self.data.T - 1, 1)),
                                     color=ACCENT, buff=0.03, stroke_width=3)
        self.beat("check", FadeOut(self.curves[last]), FadeOut(self.focus), FadeIn(self.curves[0]), FadeIn(focus),
                  FadeIn(self.final_dots), self.pair_marks[last][1].animate.set_color(FG),
                  self.pair_marks[0][1].animate.set_color(ACCENT),
                  self.lambdas[last][0].animate.set_color(DIM), self.lambdas[last][1].animate.set_color(FG),
                  self.lambdas[0][0].animate.set_color(ACCENT), self.lambdas[0][1].animate.set_color(ACCENT),
                  FadeIn(self.check, shift=0.15 * UP), run_time=1.4)
        self.focus = focus


# =====================================================================================
# 09 ThreePositionalSchemes
# =====================================================================================
@dataclass(frozen=True)
class SchemesData:
    """What clip 09 draws.

    The same input ``X: (T, d)`` goes through each scheme: ``X + P`` (sinusoidal),
    ``X + E`` (``E = E_table[:T]``, learned rows looked up from a table of ``n_max``),
    ``RoPE(X Wq)`` (the queries ``Q = X Wq`` rotated; RoPE leaves X itself alone).  The
    position-similarity matrices over ``T_sim`` positions are ``cos(P[m], P[n])``,
    ``cos(E[m], E[n])`` and ``RoPE(q, m)·RoPE(k, n)`` for the first token's ``q``, ``k``;
    ``defects`` holds each matrix's Toeplitz defect (the largest spread of values along
    one diagonal: 0 means it depends on ``m − n`` only).
    """

    X: np.ndarray  # (T, d)
    P: np.ndarray  # (T, d) my_sinusoidal_position
    E: np.ndarray  # (T, d) the learned table's first T rows
    Q: np.ndarray  # (T, d) X Wq, before RoPE
    X_sin: np.ndarray  # (T, d) X + P
    X_learned: np.ndarray  # (T, d) X + E
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
    """09 · Sinusoidal, learned-absolute and RoPE on the same input, side by side.

    Two acts under one row of scheme names.  First the input ``X`` stays put, large, while
    each scheme in turn shows what it does to it (the other names dimmed); then, in their
    place, the three position-similarity matrices side by side, each with its colour bar
    and its measured diagonal spread, labelled with what it is (cosines or scores)."""

    NAMES = ("Sinusoidal", "Learned absolute", "RoPE")
    COLORS = (ACCENT, BLUE, PURPLE)
    KINDS = ("cosines", "cosines", "scores")  # what each similarity matrix holds
    DIAG = 3  # the RoPE diagonal picked out: m − n = DIAG
    TOEPLITZ_TOL = 1e-9  # a diagonal spread below this (relative to the values) is rounding
    MAX_IN_CELL = 1.0
    OP_W = 1.5  # the slot between two matrices: "+", "=", or an arrow with its label
    DIM_LEVEL = 0.2

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
        P = my_sinusoidal_position(T, d, base)
        E = learned_absolute_position(T, d, cfg.n_max, cfg.seed)
        Q = matmul(X, inp.Wq)
        return SchemesData(
            X=X, P=P, E=E, Q=Q, X_sin=X + P, X_learned=X + E, Q_rope=apply_rope(Q, base=base),
            n_max=cfg.n_max, T_sim=Ts,
            sim_sin=sims[0], sim_learned=sims[1], sim_rope=sims[2],
            defects=tuple(toeplitz_defect(S) for S in sims),
            learned_std=float(np.std(table)), base=base, cmap=cfg.cmap_signed,
        )

    def relative_only(self) -> tuple[bool, bool, bool]:
        """Per scheme: does its similarity matrix depend on ``m − n`` only (diagonals
        constant to rounding, relative to the matrix's largest value)?"""
        d = self.data
        sims = (d.sim_sin, d.sim_learned, d.sim_rope)
        return tuple(bool(v <= self.TOEPLITZ_TOL * max(1.0, float(np.max(np.abs(S))))) for v, S in zip(d.defects, sims))

    def caption_values(self) -> dict:
        d = self.data
        return {
            "T": d.X.shape[0], "d": d.X.shape[1], "n_max": d.n_max, "T_sim": d.T_sim,
            "std": f"{d.learned_std:.2f}", "diag": self.DIAG,
            "defect_sin": fmt_measure(d.defects[0]), "defect_learned": fmt_measure(d.defects[1]),
            "defect_rope": fmt_measure(d.defects[2]),
        }

    # ------------------------------------------------------------------ layout
    def make_heads(self, content: Region) -> Region:
        heads, body = content.take_top(0.55, gap=0.2)
        self.cols = body.columns(1, 1, 1, gap=0.2)
        self.heads, self.rules = VGroup(), VGroup()
        for name, c, col in zip(self.NAMES, self.COLORS, self.cols):
            r = Region(col.left, col.right, heads.bottom, heads.top)
            t = label(name, size=LABEL, color=c, weight="BOLD")
            r.place(t, UP)
            self.heads.add(t)
            self.rules.add(Line([r.left, r.bottom, 0], [r.right, r.bottom, 0], stroke_color=c, stroke_width=2))
        self.tabs = [VGroup(h, r) for h, r in zip(self.heads, self.rules)]
        return body

    def make_act1(self, body: Region) -> None:
        """The input, large, and per scheme: what meets it (middle) and what comes out (right)."""
        d = self.data
        T, width = d.X.shape
        shown = (d.X, d.P, d.E, d.Q, d.X_sin, d.X_learned, d.Q_rope)
        self.in_scale = ColorScale.symmetric(d.cmap, np.concatenate(shown))
        m = self.in_scale.norm.vmax
        descs = (
            "adds row m of a fixed matrix of sines and cosines",
            f"adds row m of a table with {d.n_max} rows, learned in training "
            f"(fresh here: noise of spread {d.learned_std:.2f})",
            "adds nothing: it turns the query (and the key) of position m by an angle that grows with m",
        )
        self.descs = VGroup(*[balanced_label(t, body.width, size=SMALL, color=DIM) for t in descs])
        for f in self.descs:
            body.place(f, UP)
        desc_h = max(f.height for f in self.descs)
        act = Region(body.left, body.right, body.bottom, body.top - desc_h - 0.3)
        names_h = 0.7
        idx_w = 0.45
        probe = ColorBar(self.in_scale, height=1.0, width=0.2, steps=2, ticks=(-m, 0, m), tick_format=fmt_measure)
        bar_w = probe.width + 0.5
        pipe = Region(act.left, act.right - bar_w, act.bottom + names_h, act.top)
        cell = min(pipe.height / T, (pipe.width - idx_w - 2 * self.OP_W - 0.4) / (3 * width), self.MAX_IN_CELL)
        mat_w = width * cell
        span = idx_w + 3 * mat_w + 2 * self.OP_W
        x0 = pipe.center[0] - span / 2 + idx_w
        y = pipe.center[1]
        xs = [x0 + mat_w / 2 + k * (mat_w + self.OP_W) for k in range(3)]
        self.slot_x = xs
        ops_x = [x0 + mat_w + self.OP_W / 2 + k * (mat_w + self.OP_W) for k in range(2)]
        self.in_bar = ColorBar(self.in_scale, height=T * cell, width=0.2, ticks=(-m, 0, m), tick_format=fmt_measure)
        self.in_bar.shift([act.right - probe.width + 0.1 - self.in_bar.frame.get_x(), y - self.in_bar.frame.get_y(), 0])
        self.in_bar_name = label("value", size=SMALL, color=DIM).next_to(self.in_bar.frame, DOWN, buff=0.35)

        self.x_in = Heatmap(d.X, self.in_scale, cell_size=cell).move_to([xs[0], y, 0])
        self.x_name = math("x_m", size=LABEL, color=FG).next_to(self.x_in, DOWN, buff=0.15)
        self.m_idx = self.x_in.index_labels("rows")
        self.m_name = math("m", size=LABEL, color=DIM).next_to(self.m_idx, UP, buff=0.15)

        middles = (d.P, d.E, d.Q)
        results = (d.X_sin, d.X_learned, d.Q_rope)
        mid_names = ("p_m", "E[m]", "q_m = W_q x_m")
        out_names = ("x_m + p_m", "x_m + E[m]", "R_m q_m")
        self.middles, self.results, self.ops, self.mid_names, self.out_names = (VGroup() for _ in range(5))
        for k in range(3):
            hm = Heatmap(middles[k], self.in_scale, cell_size=cell).move_to([xs[1], y, 0])
            hr = Heatmap(results[k], self.in_scale, cell_size=cell).move_to([xs[2], y, 0])
            if k < 2:
                ops = VGroup(math("+", size=HEADING, color=FG).move_to([ops_x[0], y, 0]),
                             math("=", size=HEADING, color=FG).move_to([ops_x[1], y, 0]))
            else:
                ops = VGroup()
                for x, t in zip(ops_x, ("W_q", "R_m")):
                    a = Arrow([x - self.OP_W / 2 + 0.15, y, 0], [x + self.OP_W / 2 - 0.15, y, 0], buff=0,
                              color=DIM, stroke_width=3, max_tip_length_to_length_ratio=0.2)
                    ops.add(VGroup(a, math(t, size=LABEL, color=FG).next_to(a, UP, buff=0.12)))
            self.middles.add(hm)
            self.results.add(hr)
            self.ops.add(ops)
            self.mid_names.add(math(mid_names[k], size=LABEL, color=FG).next_to(hm, DOWN, buff=0.15))
            self.out_names.add(math(out_names[k], size=LABEL, color=FG).next_to(hr, DOWN, buff=0.15))
        self.schemes1 = [VGroup(self.descs[k], self.middles[k], self.results[k], self.ops[k], self.mid_names[k],
                                self.out_names[k]) for k in range(3)]
        self.input1 = VGroup(self.x_in, self.x_name, self.m_idx, self.m_name)
        self.input_home = self.input1.get_center().copy()
        self.input_alone = np.array([pipe.center[0], self.input_home[1], 0.0])  # centred, before any scheme

    def make_act2(self) -> None:
        """The position-similarity matrices, as large as the columns allow, each with its
        colour bar and (later) its measured diagonal spread."""
        d = self.data
        sims = (d.sim_sin, d.sim_learned, d.sim_rope)
        cos_scale = ColorScale(d.cmap, -1.0, 1.0)
        self.sim_scales = (cos_scale, cos_scale, ColorScale.symmetric(d.cmap, d.sim_rope))
        titles = ("cos(p_m, p_n)", "cos(E[m], E[n])", "(R_m q) dot (R_n k)")
        ok = self.relative_only()
        self.sims, self.sim_titles, self.sim_axes, self.sim_bars = VGroup(), VGroup(), VGroup(), VGroup()
        self.verdicts, self.defect_values = VGroup(), VGroup()
        for k in range(3):
            val = label(fmt_measure(d.defects[k]), size=SMALL, color=GOOD if ok[k] else BAD)
            self.verdicts.add(VGroup(
                label(f"{self.KINDS[k]} on a diagonal", size=SMALL, color=DIM),
                VGroup(label("differ by \u2264", size=SMALL, color=DIM), val).arrange(RIGHT, buff=0.15),
                label("\u2192 depend on m \u2212 n only" if ok[k] else "\u2192 depend on m and n", size=SMALL,
                      color=GOOD if ok[k] else BAD),
            ).arrange(DOWN, buff=0.1))
            self.defect_values.add(val)
        widest = max(v.width for v in self.verdicts)
        room = min(c.width for c in self.cols) - 0.2  # room for the box that picks out RoPE's
        if widest > room:
            for v in self.verdicts:
                v.scale(room / widest)
        verdict_h = max(v.height for v in self.verdicts)
        parts = []
        for k, (col, sc, t) in enumerate(zip(self.cols, self.sim_scales, titles)):
            vmax = nice_tick(sc.norm.vmax)  # a round tick inside the range, at its true place on the bar
            fmt = fmt_tick
            title = math(t, size=LABEL, color=FG)
            probe = ColorBar(sc, height=1.0, width=0.2, steps=2, ticks=(-vmax, 0, vmax), tick_format=fmt)
            m_lab, n_lab = math("m", size=LABEL, color=DIM), math("n", size=LABEL, color=DIM)
            parts.append((title, probe, m_lab, n_lab, fmt, vmax))
        # one size for all three, so they compare at a glance: what the tightest column allows
        above = max(p_[0].height for p_ in parts) + 0.12
        below = 0.08 + max(p_[3].height for p_ in parts) + 0.2 + verdict_h + 0.12  # + the box round RoPE's
        size = min(min(col.width - (m_lab.width + 0.12) - (0.2 + probe.width) for col, (_, probe, m_lab, *_r) in
                       zip(self.cols, parts)), self.cols[0].height - above - below)
        self.sim_columns = []
        for k, (col, S, sc) in enumerate(zip(self.cols, sims, self.sim_scales)):
            title, probe, m_lab, n_lab, fmt, vmax = parts[k]
            left_w, right_w = m_lab.width + 0.12, 0.2 + probe.width
            h = Heatmap(S, sc, cell_size=size / S.shape[0])
            x = col.center[0] + (left_w - right_w) / 2  # the matrix, its m and its bar centred together
            h.move_to([x, col.top - above - size / 2, 0])
            title.next_to(h, UP, buff=0.12)
            m_lab.next_to(h, LEFT, buff=0.12)
            n_lab.next_to(h, DOWN, buff=0.08)
            bar = ColorBar(sc, height=size, width=0.2, ticks=(-vmax, 0, vmax), tick_format=fmt)
            bar.shift(h.get_center() - bar.frame.get_center() + (size / 2 + 0.2 + 0.1) * RIGHT)
            self.verdicts[k].next_to(h, DOWN, buff=0.08 + n_lab.height + 0.2).set_x(col.center[0])
            self.sims.add(h)
            self.sim_titles.add(title)
            self.sim_axes.add(VGroup(m_lab, n_lab))
            self.sim_bars.add(bar)
            self.sim_columns.append(VGroup(h, title, self.sim_axes[k], bar))
        cells = [self.sims[2].cell(m_, m_ - self.DIAG) for m_ in range(self.DIAG, d.T_sim)]
        self.diag_marks = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(ACCENT, 3) for c in cells])

    def make_mobjects(self) -> None:
        body = self.make_heads(self.layout.content)
        self.make_act1(body)
        self.make_act2()

    # ------------------------------------------------------------------ beats
    def focus(self, k: int, groups) -> list:
        """Animations that bring group ``k`` forward and dim the others."""
        return [undim(g) if j == k else dim(g, self.DIM_LEVEL) for j, g in enumerate(groups)]

    def body(self) -> None:
        self.make_mobjects()
        # act 1: the same input, large; each scheme in turn shows what it does to it
        self.input1.move_to(self.input_alone)
        self.beat("input", FadeIn(self.heads), Create(self.rules), FadeIn(self.input1, shift=0.1 * UP),
                  FadeIn(self.in_bar), FadeIn(self.in_bar_name), run_time=1.4)
        for k, key in enumerate(("sinusoidal", "learned", "rope")):
            tabs = self.focus(k, self.tabs)
            shown = self.schemes1[k]
            if k == 0:  # the input steps aside first, then the scheme comes in beside it
                anims = [Succession(self.input1.animate.move_to(self.input_home), AnimationGroup(
                    FadeIn(shown[0]), FadeIn(shown[3]), FadeIn(shown[1], shift=0.2 * RIGHT), FadeIn(shown[4]),
                    LaggedStart(FadeIn(shown[2]), FadeIn(shown[5]), lag_ratio=0.5)))]
            else:
                anims = [swap(self.schemes1[k - 1], shown)]
            self.beat(key, *tabs, *anims, run_time=2.0 if k == 0 else 1.4)

        # act 2: in their place, how alike each scheme makes positions m and n
        self.beat("similarity", Succession(
            AnimationGroup(FadeOut(self.input1), FadeOut(self.schemes1[2]), FadeOut(self.in_bar),
                           FadeOut(self.in_bar_name), *[undim(t) for t in self.tabs]),
            LaggedStart(*[FadeIn(g) for g in self.sim_columns], lag_ratio=0.3)), run_time=2.4)
        self.beat("sin_band", *self.focus(0, self.sim_columns), run_time=1.0)
        self.beat("learned_noise", *self.focus(1, self.sim_columns), run_time=1.0)
        self.beat("rope_diag", *self.focus(2, self.sim_columns),
                  LaggedStart(*[Create(c) for c in self.diag_marks], lag_ratio=0.1), run_time=1.4)
        key = "toeplitz" if self.relative_only() == (True, False, True) else "toeplitz_other"
        self.beat(key, *[undim(g) for g in self.sim_columns[:2]],
                  LaggedStart(*[FadeIn(v, shift=0.1 * UP) for v in self.verdicts], lag_ratio=0.3), run_time=1.4)
        # the most telling frame to end on: all three side by side, RoPE's verdict picked out
        self.rope_box = SurroundingRectangle(self.verdicts[2], color=GOOD, buff=0.08, stroke_width=3)
        self.beat("only_rope", Create(self.rope_box), run_time=1.0)
