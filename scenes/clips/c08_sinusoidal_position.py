"""08 ``SinusoidalPosition`` (§7): the Vaswani formula; the ``(T × d)`` matrix ``PE`` filling column
pair by column pair, each pair sampled from its sine and cosine wave of falling frequency; the
wavelengths ``λᵢ = 2π / θᵢ``; the proof is the measured gap between the waves' samples and the
matrix, and the clip ends on the matrix with each pair's wavelength on it.

What the picture shows (scales, figures, verdicts) is described once in
``scenes/figures/positions.py`` and shared with the still.

Render directly with ``manim -ql scenes/clips/c08_sinusoidal_position.py SinusoidalPosition``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Group,
    LaggedStart,
    ReplacementTransform,
    Transform,
    VGroup,
    Write,
)

from mathcore import my_sinusoidal_position, sinusoidal_wavelengths
from mathcore.config import LectureConfig
from mathcore.rope_measures import sinusoidal_at
from scenes.clips.c08_widgets import PairMatrix, WaveMatrix, readout
from scenes.figures.positions import (
    base_figure,
    pe_scale,
    sample_check,
    wavelength_figures,
)
from scenes.kit import (
    COS,
    DIM,
    FAILED,
    FG,
    GAP,
    HIGHLIGHT,
    LABEL,
    SIN,
    SMALL,
    VERIFIED,
    ClipScene,
    N,
    column,
    label,
    math,
    names,
    numbers,
    row,
    shows,
)


@dataclass(frozen=True)
class SinusoidalData:
    """What clip 08 draws.

    ``PE = my_sinusoidal_position(T, d, base)``; ``wave_x``/``waves`` sample the same formula
    finely between positions (``sinusoidal_at``) for the curves; ``samples`` are the waves at the
    integer positions and ``sample_defect = max |samples − PE|``.
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

    The waves run *down* a panel beside the matrix, position ``m`` at the height of matrix row
    ``m``: each sample flies straight across into its own cell."""

    D = 8  # width: four sine/cosine pairs
    FINE = 40  # wave samples per position, for the curves
    WAVES = (SIN, COS)  # a pair's sine column, then its cosine column
    FORMULA_SCALE = 1.45  # the formula's own beat: this much larger than in the notes

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SinusoidalData:
        T, d, base = cfg.T_heatmap, cls.D, cfg.rope_base
        PE = my_sinusoidal_position(T, d, base)
        wave_x = np.linspace(0.0, T - 1, cls.FINE * (T - 1) + 1)
        samples = sinusoidal_at(np.arange(T), d, base)
        return SinusoidalData(
            T=T, d=d, base=base, PE=PE, wavelengths=sinusoidal_wavelengths(d, base),
            wave_x=wave_x, waves=sinusoidal_at(wave_x, d, base), samples=samples,
            sample_defect=float(np.max(np.abs(samples - PE))), cmap=cfg.cmap_signed,
        )

    def caption_values(self) -> dict:
        d = self.data
        lam = wavelength_figures(d.wavelengths)
        return {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "base": base_figure(d.base).text,
            "lam0": lam[0].text, "lam1": lam[1].text, "lam_last": lam[-1].text,
            "ratio": numbers.measure(d.wavelengths[1] / d.wavelengths[0]).text, "last": d.d // 2 - 1,
            "m_last": d.T - 1, "share_last": numbers.measure(100.0 * (d.T - 1) / d.wavelengths[-1]).text + "\u2009%",
            "defect": sample_check(d)[0].text,
        }

    # ------------------------------------------------------------------ pieces
    @staticmethod
    def formula_rows() -> tuple[str, str]:
        """The Vaswani formula in the lecture's notation: the sine columns, then the cosine columns."""
        pe = N.encoding_matrix.math
        return f"{pe}_(m, 2i) = sin(m theta_i)", f"{pe}_(m, 2i+1) = cos(m theta_i)"

    def formula(self) -> VGroup:
        """The formula, sine rows in the sine colour and cosine rows in the cosine's, with its rate and base."""
        d, b = self.data, base_figure(self.data.base)
        return column(
            *[math(f, color=c) for f, c in zip(self.formula_rows(), self.WAVES)],
            math("theta_i = b^(-2i \\/ d)"), math(f"b {'' if b.approx else '='} {b.math}, space d = {d.d}", color=DIM),
            gap="small")

    def symbols(self) -> VGroup:
        """What the formula's symbols mean, for its own beat: symbols in one column, words in the next."""
        rows = [(N.position.math, "the position: a row of the matrix"),
                (N.pair.math, "the pair: a sine and a cosine column"),
                (N.rate.math, "its rate: slower for every pair"),
                (N.base.math, "the base"), ("d", "the width, in columns")]
        cells = [m for sym, text in rows for m in (math(sym, color=FG), label(text, size=SMALL, color=DIM))]
        return VGroup(*cells).arrange_in_grid(cols=2, col_alignments="ll", buff=(GAP.normal, GAP.small))

    def wavelengths(self, width: float) -> tuple[VGroup, VGroup]:
        """The wavelength block of the notes (its head and formula) and one line per pair, in two
        columns when they fit ``width`` (short wavelengths), else in one."""
        lines = VGroup(*[readout(f"lambda_{i}", f, size=LABEL, color=FG)
                         for i, f in enumerate(wavelength_figures(self.data.wavelengths))])
        lines.arrange_in_grid(cols=2, col_alignments="ll", buff=(GAP.wide, GAP.tight))
        if lines.width > width:
            lines.arrange(DOWN, buff=GAP.tight, aligned_edge=LEFT)
        head = column(label("wavelengths, in positions", size=SMALL, color=DIM),
                      math("lambda_i = 2 pi \\/ theta_i", size=LABEL), gap="tight")
        return head, lines

    def check(self) -> VGroup:
        fig, ok = sample_check(self.data)
        return readout('max thin lr(|"wave" - "PE"|)', fig, color=VERIFIED if ok else FAILED)

    # ------------------------------------------------------------------ beats
    def fill_pair(self, i: int, key: str, first: bool) -> None:
        """Pair ``i``'s waves drawn down the panel, its samples set on them, then flown into its columns."""
        d, wm = self.data, self.wm
        box = wm.pair_box(i)
        light = [Create(self.curves[i]), FadeIn(box), wm.pair_marks[i][1].animate.set_color(HIGHLIGHT),
                 self.lam_lines[i].animate.set_opacity(1).set_color(HIGHLIGHT)]
        if i:
            light += [FadeOut(self.curves[i - 1]), FadeOut(self.box), wm.pair_marks[i - 1][1].animate.set_color(FG),
                      self.lam_lines[i - 1].animate.set_color(FG)]
        self.box = box
        dots = wm.samples(d.samples[:, 2 * i: 2 * i + 2], self.WAVES)
        flights = [ReplacementTransform(dot, wm.heat.cell(k % d.T, 2 * i + k // d.T)) for k, dot in enumerate(dots)]
        sample = LaggedStart(*[FadeIn(dot) for dot in dots])
        if first:  # the first pair takes two beats: the waves, then how their samples fill the columns
            self.beat(key, *light)
            self.beat_plays("fill0", [[sample], [LaggedStart(*flights)]], run_time=1.2)
        else:
            self.beat_plays(key, [[AnimationGroup(*light)], [sample], [LaggedStart(*flights)]], run_time=1.2)

    def body(self) -> None:
        d = self.data
        content = self.layout.content
        self.scale_ = pe_scale(d.cmap)
        formula = self.formula()
        lam_head, self.lam_lines = self.wavelengths(formula.width)
        self.check_line = self.check()
        for gap in ("wide", "normal", "small"):  # long wavelengths, one a line: the notes close up to fit
            notes_stack = column(formula, lam_head, self.lam_lines, gap=gap)
            if notes_stack.height <= content.height:
                break
        else:
            lam_head.remove(lam_head[0])  # the words "wavelengths, in positions" go; the narration says it
            notes_stack = column(formula, lam_head, self.lam_lines, gap="small")
        notes, left = content.take_right(notes_stack.width, gap=GAP.wide)
        notes.place(notes_stack, UP + LEFT)
        proof, left = left.take_bottom(self.check_line.height, gap=GAP.normal)
        proof.place(self.check_line)
        self.wm = wm = WaveMatrix(d.PE, self.scale_, left)
        shows(wm.heat, "PE")
        self.curves = [wm.curves(d.wave_x, d.waves[:, 2 * i: 2 * i + 2], self.WAVES) for i in range(d.d // 2)]
        home = formula.copy()
        for line in self.lam_lines:  # each appears as its pair is drawn
            line.set_opacity(0)

        # the formula large, with what its symbols mean
        intro = self.symbols()
        room = content.take_right(intro.width, gap=GAP.section)[1]
        formula.scale(room.fit_scale(formula, max_scale=self.FORMULA_SCALE))
        content.place(row(formula, intro, gap="section"))
        self.beat("formula", Write(formula), FadeIn(intro))

        # it moves to the notes; the empty matrix and the panel take the screen
        outline = wm.outline()
        self.beat_plays("grid", [[FadeOut(intro), Transform(formula, home)],  # nothing moves across anything drawn
                                 [AnimationGroup(Create(outline), FadeIn(wm.labels()), FadeIn(wm.bar),
                                                 Create(wm.panel), FadeIn(lam_head))]], run_time=1.2)
        n_pairs = d.d // 2
        keys = ["pair0", "pair1"] + ["pair_mid"] * (n_pairs - 3) + ["pair_last"]
        for i, key in enumerate(keys):
            self.fill_pair(i, key, first=i == 0)
        self.remove(outline, *[c for r in wm.heat.cells for c in r])
        self.add(wm.heat)

        # the proof: the fastest pair's samples back on their waves, and the measured gap
        last = n_pairs - 1
        self.final_dots = wm.samples(d.samples[:, :2], self.WAVES)
        box = wm.pair_box(0)
        self.beat("check", FadeOut(self.curves[last]), FadeOut(self.box), FadeIn(self.curves[0]), FadeIn(box),
                  FadeIn(self.final_dots), wm.pair_marks[last][1].animate.set_color(FG),
                  wm.pair_marks[0][1].animate.set_color(HIGHLIGHT), self.lam_lines[last].animate.set_color(FG),
                  self.lam_lines[0].animate.set_color(HIGHLIGHT), FadeIn(self.check_line))
        self.box = box

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return self.final

    def closing(self) -> None:
        """The matrix alone, large, each column pair labelled with its wavelength, the formula and the
        measured gap under it: the matrix is the formula, and its pairs run from fast to slow."""
        d = self.data
        region = self.layout.content
        eq = names(row(*[math(f, color=c) for f, c in zip(self.formula_rows(), self.WAVES)], gap="section"), "PE")
        lines = column(eq, self.check(), gap="normal", align=ORIGIN)
        bottom, top = region.take_bottom(lines.height, gap=GAP.wide)
        bottom.place(lines)
        labels = [readout(f"lambda_{i}", f, size=SMALL, color=FG)
                  for i, f in enumerate(wavelength_figures(d.wavelengths))]
        self.pm = pm = PairMatrix(d.PE, self.scale_, top, labels)
        shows(pm.heat, "PE")
        moving = self.wm.heat.copy()  # the working matrix keeps its place (and its geometry) off screen
        self.remove(self.wm.heat)
        self.add(moving)
        keep = {id(f) for f in moving.get_family()} | {id(f) for f in self.header.get_family()}
        leaves = [f for m in self.mobjects for f in m.get_family()
                  if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
        self.final = VGroup(pm.heat, pm.labels, lines)
        self.beat_plays(self.closing_key(), [
            [AnimationGroup(FadeOut(Group(*leaves)), ReplacementTransform(moving, pm.heat))],
            [AnimationGroup(FadeIn(pm.labels), FadeIn(lines))]], run_time=1.2, hold=self.CLOSING_HOLD)

