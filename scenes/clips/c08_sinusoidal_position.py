"""08 ``SinusoidalPosition`` (§7): the Vaswani formula in one line over the empty ``(T × d)`` matrix ``PE``
it defines; the matrix filling column pair by column pair, each pair sampled from its sine and cosine wave
of falling frequency, its wavelength ``λᵢ = 2π / θᵢ`` written under it as it fills; the proof is the
measured gap between the waves' samples and the matrix (a verdict), and the clip ends on the matrix with
each pair's wavelength under it, the formula over it and the verdict.

What the picture shows (scales, figures, verdicts) is described once in
``scenes/figures/positions.py`` and shared with the still.

Render directly with ``manim -ql scenes/clips/c08_sinusoidal_position.py SinusoidalPosition``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Group,
    LaggedStart,
    ReplacementTransform,
    VGroup,
    Write,
)

from mathcore import my_sinusoidal_position, sinusoidal_wavelengths
from mathcore.config import LectureConfig
from mathcore.rope_measures import sinusoidal_at
from scenes.clips.c08_widgets import PairMatrix, WaveMatrix
from scenes.figures.positions import (
    base_figure,
    pe_scale,
    sample_check,
    wavelength_figures,
)
from scenes.kit import (
    COS,
    ColorBar,
    DIM,
    FG,
    GAP,
    HIGHLIGHT,
    LABEL,
    SIN,
    SMALL,
    ClipScene,
    N,
    math,
    column,
    numbers,
    row,
    shows,
)
from scenes.kit.binding import claim, role
from scenes.kit.layout import Region
from scenes.kit.proofs import worded_verdict
from scenes.kit.student import fail_key
from scenes.kit.theme import FAILED


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
    # a student's table (``clips render --student``): the cells that differ from the waves' samples (the
    # reference) by the checks' tolerance or more, row-major, the largest first; empty for the lecture
    bad_cells: tuple = ()


def cycle_share(T: int, wavelength: float) -> str:
    """How much of one cycle of a wave of ``wavelength`` positions the ``T`` rows span (``(T − 1) / λ``),
    as the caption says it: "under 1/k" with ``k`` rounded down to one significant digit (the true share
    is below it), or the share itself to two figures when it is a tenth or more."""
    f = (T - 1) / float(wavelength)
    if f >= 0.1:
        return f"{f:.2g}"
    k = 1.0 / f
    e = 10 ** int(np.floor(np.log10(k)))
    return f"under 1/{int(k // e) * e}"


def last_waves_shape(samples_last: np.ndarray) -> str:
    """What the last pair's two waves look like down the panel: straight when the sine (and so the cosine)
    moves less than a fortieth of the bar's −1 to 1 span over all rows, else how far the sine swings."""
    swing = float(np.ptp(samples_last[:, 0]))
    if swing < 0.05:
        return "run straight down the panel, the sine at 0 and the cosine at 1"
    return f"bend: the sine moves {swing:.2f} over all rows"


class SinusoidalPosition(ClipScene):
    """08 · The sinusoidal position matrix, built pair by pair from waves.

    One line of formula over everything; under it the waves run *down* a panel beside the matrix,
    position ``m`` at the height of matrix row ``m``: each sample flies straight across into its own
    cell, and each pair's wavelength is written under its two columns as they fill."""

    STAGED = True
    STUDENT = "my_sinusoidal_position"  # `clips render --student`: the student's table is the matrix drawn
    TOL = 1e-9  # a student's cell differs from the formula's at this gap or more (the checks' TABLE_TOL)
    D = 8  # width: four sine/cosine pairs
    FINE = 40  # wave samples per position, for the curves
    WAVES = ((SIN, "sin"), (COS, "cos"))  # a pair's sine column, then its cosine column: colour and role
    GRID_MAX = 1.6  # the empty matrix, alone under the formula, may grow this much
    FORMULA_MAX = 1.25  # the formula line may grow this much over the label size when the frame is wide enough

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

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> SinusoidalData:
        """The student's ``my_sinusoidal_position(T, d, base)`` as the matrix, the formula's waves as they are:
        the check measures the student's table against the waves' samples, and names the cells that differ."""
        lecture = cls.build_data(cfg)
        PE = np.asarray(student.array(cls.STUDENT, "student"), dtype=float)
        if PE.shape != lecture.PE.shape:
            raise ValueError(f"the student's table is {PE.shape}, clip 08 draws {lecture.PE.shape}")
        gap = np.abs(lecture.samples - PE)
        bad = [(int(i), int(j)) for i, j in zip(*np.nonzero(gap >= cls.TOL))]
        bad.sort(key=lambda c: -gap[c])  # the largest difference first (ties: row-major)
        from dataclasses import replace

        return replace(lecture, PE=PE, sample_defect=float(np.max(gap)), bad_cells=tuple(bad))

    def caption_values(self) -> dict:
        d = self.data
        lam = wavelength_figures(d.wavelengths)
        values = {
            "T": d.T, "d": d.d, "pairs": d.d // 2, "base": base_figure(d.base).text, "last": d.d // 2 - 1,
            "lam0": lam[0].text, "lam1": lam[1].text, "lam_mid": lam[2].text, "lam_last": lam[-1].text,
            "ratio": numbers.measure(d.wavelengths[1] / d.wavelengths[0]).text, "defect": sample_check(d)[0].text,
            "share": cycle_share(d.T, d.wavelengths[-1]),
        }
        if not hasattr(self, "wm"):  # the title card: nothing drawn yet
            return values
        pm = getattr(self, "pm", None)
        lams = pm.lams if pm is not None else self.wm.lams
        heat = pm.heat if pm is not None else self.wm.heat
        cells = [c for r in self.wm.heat.cells for c in r]
        values.update({
            "size": claim(f"{d.T} by {d.d}", *(self.big[0] if self.shown(self.big[0]) else self.outline)),
            "lam0": claim(lam[0].text, lams[0]), "lam1": claim(lam[1].text, lams[1]),
            "lam_mid": claim(lam[2].text, lams[2]), "lam_last": claim(lam[-1].text, lams[-1]),
            "ratio": claim(numbers.measure(d.wavelengths[1] / d.wavelengths[0]).text, lams[0], lams[1]),
            "T": claim(d.T, heat if pm is not None else cells[0]),
            "defect": claim(sample_check(d)[0].text, self.proof),
            "pair0_cols": claim("the first two columns", *[self.wm.heat.cell(m, j) for m in range(d.T) for j in (0, 1)]),
            "curves0": claim("two waves", *self.curves[0]),
            "last_cols": claim(f"columns {d.d - 2} and {d.d - 1}",
                               *[self.wm.heat.cell(m, j) for m in range(d.T) for j in (d.d - 2, d.d - 1)]),
            "dots": claim("dots", self.final_dots),
            "share": claim(cycle_share(d.T, d.wavelengths[-1]), lams[-1], heat if pm is not None else cells[0]),
            "last_waves": claim(last_waves_shape(d.samples[:, -2:]), *self.curves[-1]),
            "rules": claim("a rule over each pair of columns", *(self.big[1] if self.shown(self.big[1]) else self.wm.rules)),
        })
        return values

    def student_values(self) -> dict:
        """The failing variants' values, bound to the red outlines and the verdict that show them."""
        out = super().student_values()
        d = self.data
        frames = getattr(self, "bad_frames", None)
        if frames is not None and d.bad_cells:
            i, j = d.bad_cells[0]
            out.update(ncells=claim(len(d.bad_cells), *frames), pos_i=claim(i, frames[0]), pos_j=claim(j, frames[0]),
                       got=claim(numbers.measure(float(d.PE[i, j])).text, frames[0]),
                       want=claim(numbers.measure(float(d.samples[i, j])).text, frames[0]))
        return out

    def bad_outlines(self, heat) -> VGroup:
        """Red outlines on the cells of ``heat`` where a student's table differs from the formula's samples."""
        from manim import SurroundingRectangle

        return VGroup(*[role(SurroundingRectangle(heat.cell(i, j), color=FAILED, buff=-0.025,
                                                  stroke_width=5 if k == 0 else 3), "failed")
                        for k, (i, j) in enumerate(self.data.bad_cells)])

    def shown(self, mob) -> bool:
        """``mob`` is in the scene, itself or inside something added."""
        return any(mob is f for m in self.mobjects for f in m.get_family())

    # ------------------------------------------------------------------ pieces
    @staticmethod
    def formula_rows() -> tuple[str, str]:
        """The Vaswani formula in the lecture's notation: the sine columns, then the cosine columns."""
        pe = N.encoding_matrix.math
        return f"{pe}_(m, 2i) = sin(m theta_i)", f"{pe}_(m, 2i+1) = cos(m theta_i)"

    def formula(self, size: float = LABEL) -> VGroup:
        """The formula as one line: the sine columns in the sine's colour, the cosine columns in the
        cosine's, then the rate with its base."""
        b = base_figure(self.data.base)
        parts = [role(math(f + ",", size=size, color=c), r) for f, (c, r) in zip(self.formula_rows(), self.WAVES)]
        rate = math(f"{N.rate.math} = {N.base.math}^(-2i \\/ d), space {N.base.math} {'' if b.approx else '='} {b.math}",
                    size=size)
        line = row(*parts, rate, gap="normal", align="baseline")
        self.two_lines = {}
        if line.width > self.layout.content.width:  # a long base: the rate on a line of its own, under the waves
            line = column(row(*parts, gap="normal", align="baseline"), rate, gap="tight")
            self.two_lines = {"empty": "a long base puts the formula on two lines: the matrix and its waves under it "
                                       "keep the frame's width in fewer rows of pixels, and the strip beside the "
                                       "rate's line is the empty part"}
        return line

    def lam_labels(self, size: float = LABEL) -> list:
        """Each pair's wavelength, as the number under its columns (the row is named ``λᵢ = 2π/θᵢ``)."""
        return [math(f.math, size=size, color=FG) for f in wavelength_figures(self.data.wavelengths)]

    def lam_name(self, size: float = LABEL):
        """The wavelengths' row name, its definition; "≈" after it where the numbers under the columns are rounded
        (review round 9: "6.3" stood for 2π under "λᵢ = 2π/θᵢ", as if exact)."""
        approx = any(numbers.rounded(f) for f in wavelength_figures(self.data.wavelengths))
        return math("lambda_i = 2 pi \\/ theta_i" + (" approx" if approx else ""), size=size, color=FG)

    def check(self) -> VGroup:
        fig, ok = sample_check(self.data)
        return worded_verdict('$"PE"$ against its waves, largest gap', fig, ok)  # the words in the sans, PE the formula's

    # ------------------------------------------------------------------ beats
    def differs(self, i: int) -> bool:
        """A student's table differs from the samples somewhere in pair ``i``'s two columns."""
        return any(j // 2 == i for _, j in self.data.bad_cells)

    def light(self, i: int) -> list:
        """Pair ``i`` in focus: its waves drawn, its columns boxed, its number and wavelength lit; the
        previous pair's waves and box go, its number and wavelength stay, in plain ink."""
        wm = self.wm
        box = wm.pair_box(i)
        anims = [Create(self.curves[i]), FadeIn(box), wm.pair_marks[i][1].animate.set_color(HIGHLIGHT),
                 FadeIn(wm.lams[i])]
        role(wm.pair_marks[i][1], "highlight")
        role(wm.lams[i].set_color(HIGHLIGHT), "highlight")
        if i:
            anims += [FadeOut(self.curves[i - 1]), FadeOut(self.box), wm.pair_marks[i - 1][1].animate.set_color(FG),
                      wm.lams[i - 1].animate.set_color(FG)]
        self.box = box
        return anims

    def fill_pair(self, i: int, key: str, first: bool) -> None:
        """Pair ``i``'s waves drawn down the panel, its samples set on them, then flown into its columns."""
        d, wm = self.data, self.wm
        light = self.light(i)
        dots = wm.samples(d.samples[:, 2 * i: 2 * i + 2], self.WAVES)
        flights = [ReplacementTransform(dot, wm.heat.cell(k % d.T, 2 * i + k // d.T)) for k, dot in enumerate(dots)]
        sample = LaggedStart(*[FadeIn(dot) for dot in dots])
        focus = VGroup(self.curves[i], self.box, wm.lams[i], *[wm.heat.cell(m, j) for m in range(d.T)
                                                                for j in (2 * i, 2 * i + 1)])
        if first:  # the first pair takes two beats: the waves, then how their samples fill the columns
            self.beat_plays(key, [[AnimationGroup(ReplacementTransform(self.big, self.grid), FadeOut(self.m_down),
                                                  FadeIn(wm.panel),
                                                  FadeIn(wm.bar), FadeIn(wm.bar_name), FadeIn(wm.row_idx), FadeIn(wm.m_name),
                                                  FadeIn(wm.lam_name))],
                                  [AnimationGroup(*light)]], run_time=1.2, subject=focus, why=self.two_lines)
            self.beat_plays(fail_key("fill0", self.differs(0)), [[sample], [LaggedStart(*flights)]], run_time=1.2,
                            subject=focus, why=self.two_lines)
        else:
            self.beat_plays(key, [[AnimationGroup(*light)], [sample], [LaggedStart(*flights)]], run_time=1.2,
                            subject=focus, why=self.two_lines)

    def body(self) -> None:
        d = self.data
        content = self.layout.content
        self.scale_ = pe_scale(self.cfg)
        line = self.formula()
        line.scale(Region(content.left, content.right, 0, line.height * self.FORMULA_MAX).fit_scale(line, self.FORMULA_MAX))
        top, rest = content.take_top(line.height, gap=GAP.normal)
        top.fit(line)
        self.line = line
        self.proof = self.check()
        top.fit(self.proof, max_scale=self.FORMULA_MAX)
        self.wm = wm = WaveMatrix(d.PE, self.scale_, rest.inset(GAP.tight, 0), self.lam_labels(), self.lam_name(),
                                  col_colors=self.WAVES, lam_small=self.lam_labels(SMALL))
        shows(wm.heat, "PE")
        self.curves = [wm.curves(d.wave_x, d.waves[:, 2 * i: 2 * i + 2], self.WAVES) for i in range(d.d // 2)]
        self.final_dots = wm.samples(d.samples[:, :2], self.WAVES)
        self.grid = grid = wm.grid()
        self.outline = grid[0]
        self.big = big = grid.copy()  # the empty matrix first takes the frame alone, then makes room for the waves
        self.m_down = math(f"{N.position.math} arrow.b", size=LABEL, color=DIM)
        rest.inset(self.m_down.width + GAP.small, 0).fit(big, max_scale=self.GRID_MAX)
        self.m_down.next_to(big[0], LEFT, buff=GAP.small).align_to(big[0], UP)

        # the formula, one line, over the empty matrix it fills: rows are positions, column pairs are waves
        self.beat("formula", Write(line), Create(big[0]), FadeIn(VGroup(*big[1:], self.m_down)), run_time=1.6,
                  subject=VGroup(line, big, self.m_down))
        n_pairs = d.d // 2
        keys = ["pair0", "pair1"] + ["pair_mid"] * (n_pairs - 3) + ["pair_last"]
        for i, key in enumerate(keys):
            self.fill_pair(i, key, first=i == 0)
        self.remove(self.outline, *[c for r in wm.heat.cells for c in r])
        self.add(wm.heat)

        # the proof: every pair's samples back on their waves, slowest to fastest (the verdict measures the whole
        # matrix, so every pair is shown against it; review round 8: only pair 0 came back), ending on the fastest,
        # and the measured gap where the formula was
        last = n_pairs - 1
        self.bad_frames = self.bad_outlines(wm.heat)  # a student's cells that are not the samples: outlined in red
        extra = [Create(self.bad_frames)] if d.bad_cells else []
        self.check_dots = [wm.samples(d.samples[:, 2 * i: 2 * i + 2], self.WAVES) for i in range(last)] + [None]
        self.check_dots[0] = self.final_dots
        if last:
            self.check_dots[last] = wm.samples(d.samples[:, 2 * last: 2 * last + 2], self.WAVES)
        boxes = [wm.pair_box(i) for i in range(n_pairs)]
        boxes[last] = self.box  # the last pair's box is on screen already
        plays = [[AnimationGroup(*extra, FadeOut(line), FadeIn(self.proof), FadeIn(self.check_dots[last]))]]
        for i in range(last - 1, -1, -1):
            role(wm.pair_marks[i][1], "highlight")
            role(wm.lams[i], "highlight")
            plays.append([AnimationGroup(
                FadeOut(self.curves[i + 1]), FadeOut(self.check_dots[i + 1]), FadeOut(boxes[i + 1]),
                wm.pair_marks[i + 1][1].animate.set_color(FG), wm.lams[i + 1].animate.set_color(FG),
                FadeIn(self.curves[i]), FadeIn(self.check_dots[i]), FadeIn(boxes[i]),
                wm.pair_marks[i][1].animate.set_color(HIGHLIGHT), wm.lams[i].animate.set_color(HIGHLIGHT))])
        self.beat_plays(fail_key("check", bool(d.bad_cells)), plays, run_time=0.9,
                        subject=VGroup(self.proof, self.curves[0], self.final_dots, boxes[0]), why=self.two_lines)
        self.box = boxes[0]

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return self.final

    def closing(self) -> None:
        """The matrix alone, large, each column pair's wavelength under it, the formula over it and the
        verdict under it: the matrix is the formula, and its pairs run from fast to slow."""
        d = self.data
        region = self.layout.content
        line = self.formula()
        proof = self.check()
        top, rest = region.take_top(line.height, gap=GAP.normal)
        top.fit(line)
        bottom, middle = rest.take_bottom(proof.height, gap=GAP.normal)
        bottom.place(proof)
        # the matrix keeps its colour bar (review RB: a value-coloured matrix left without its scale), on its right
        bar_w = ColorBar(self.scale_, height=1.0).width + GAP.normal
        room = Region(middle.left, middle.right - bar_w, middle.bottom, middle.top, "matrix")
        self.pm = pm = PairMatrix(d.PE, self.scale_, room, self.lam_labels(), self.lam_name(),
                                        lam_small=self.lam_labels(SMALL), col_colors=self.WAVES)
        shows(pm.heat, "PE")
        self.close_bar = ColorBar(self.scale_, height=pm.heat.height)
        self.close_bar.next_to(pm.heat, RIGHT, buff=GAP.normal).set_y(pm.heat.get_y())
        dx = middle.center[0] - VGroup(pm.heat, pm.labels, self.close_bar).get_center()[0]
        for m in (pm.heat, pm.labels, self.close_bar):
            m.shift(dx * RIGHT)
        moving = self.wm.heat.copy()  # the working matrix keeps its place (and its geometry) off screen
        self.remove(self.wm.heat)
        self.add(moving)
        keep = {id(f) for f in (*moving.get_family(), *self.proof.get_family())} | {id(f) for f in self.header.get_family()}
        leaves = [f for m in self.mobjects for f in m.get_family()
                  if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
        self.final = VGroup(pm.heat, pm.labels, self.close_bar)
        old, self.proof = self.proof, proof  # the claims of the closing caption name the verdict on screen at its end
        marks = []
        if d.bad_cells:  # a student's wrong cells, outlined on the matrix as it lands
            frames = self.bad_outlines(pm.heat)
            leaves = [f for f in leaves if f not in set(self.bad_frames.get_family())]
            marks = [ReplacementTransform(self.bad_frames, frames)]
            self.bad_frames = frames
            self.final.add(frames)
        self.beat_plays(self.closing_key(), [
            [AnimationGroup(FadeOut(Group(*leaves)), ReplacementTransform(moving, pm.heat),
                            ReplacementTransform(old, proof), *marks)],
            [AnimationGroup(FadeIn(pm.labels), FadeIn(line), FadeIn(self.close_bar))]], run_time=1.2,
            hold=self.CLOSING_HOLD,
            subject=VGroup(pm.heat, pm.labels))

    def closing_key(self) -> str:
        return fail_key("close", bool(self.data.bad_cells))
