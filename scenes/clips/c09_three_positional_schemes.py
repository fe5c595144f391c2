"""09 ``ThreePositionalSchemes`` (§8): sinusoidal (added), learned-absolute (looked up from a table
of ``nₘₐₓ`` rows) and RoPE (rotates q and k) on the same input, one at a time; then compared like
with like: the score ``qₘ · kₙ`` of one token at positions ``m`` and ``n`` under each scheme, with
each grid's spread along its diagonals measured; only RoPE's depends on ``m − n`` alone.

What the picture shows (scales, figures, verdicts) is described once in
``scenes/figures/positions.py`` and shared with the still.

Render directly with ``manim -ql scenes/clips/c09_three_positional_schemes.py ThreePositionalSchemes``.
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
    FadeIn,
    FadeOut,
    ReplacementTransform,
    Succession,
    VGroup,
)

from mathcore import learned_absolute_position, lecture_inputs, my_sinusoidal_position
from mathcore.attention import matmul
from mathcore.config import LectureConfig
from mathcore.positions import apply_rope
from mathcore.scheme_compare import SchemeScores, scheme_scores
from scenes.clips.c09_widgets import MatrixEquation, ScoreMap, Tabs, balanced_label, inline
from scenes.figures.positions import (
    PASS_LINE,
    SCHEME_NAMES,
    input_scale,
    score_formulas,
    score_scale,
    spread_figures,
    verdict,
)
from scenes.kit import (
    DIM,
    FG,
    GAP,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    VERIFIED,
    ClipScene,
    ColorBar,
    Heatmap,
    N,
    Plot,
    column,
    label,
    math,
    names,
    numbers,
    shows,
    swap,
)
from scenes.kit import figure as theme_figure


@dataclass(frozen=True)
class SchemesData:
    """What clip 09 draws.

    Act 1: the same input ``X: (T, d)`` through each scheme: ``X + P`` (sinusoidal, ``P`` the first
    ``T`` rows of ``PE``), ``X + E`` (learned rows looked up from a table of ``n_max``), ``RoPE(X Wq)``
    (the queries ``Q = X Wq`` rotated; RoPE leaves X itself alone).  Act 2: ``scores`` holds, for the
    first token ``x = X[0]``, the score ``q_m · k_n`` at every ``(m, n)`` of ``T_sim`` positions under
    each scheme (``mathcore.scheme_compare``) and how far each grid is from depending on ``m − n``.
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
    scores: SchemeScores
    learned_std: float  # the table's measured standard deviation
    base: float
    cmap: str


class ThreePositionalSchemes(ClipScene):
    """09 · Sinusoidal, learned-absolute and RoPE on the same input, then compared like with like.

    A row of tabs names the scheme on screen.  Act 1: the input ``X`` stays put while each scheme
    shows what it does to it.  Act 2: one score map, large, repainted scheme by scheme on one scale
    (the score of one token as the query at ``m`` and the key at ``n``), each with its measured spread
    along the diagonals; then the three spreads side by side on a log scale against the pass line;
    the clip ends on RoPE's score, a function of ``m − n`` alone."""

    DIAG = 3  # the diagonal picked out: m − n = DIAG
    KEYS = ("sinusoidal", "learned", "rope")
    # why RoPE's score is relative: the two rotations meet as one, R_m^T R_n = R_(n - m)
    DERIVATION = ("q_m dot k_n = (R_m W_q x)^T R_n W_k x", "= (W_q x)^T R_(n - m) W_k x")
    EQ_AT = 5  # the first line's glyphs before its "=" (q, m, ·, k, n): the second line's "=" goes under it
    PATHS = ("scores.sinusoidal", "scores.learned", "scores.rope")

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SchemesData:
        from mathcore import learned_absolute_table

        T, d, base = cfg.T, cfg.d, cfg.rope_base
        inp = lecture_inputs(T, d, cfg.seed)
        X = inp.X
        P = my_sinusoidal_position(T, d, base)
        E = learned_absolute_position(T, d, cfg.n_max, cfg.seed)
        Q = matmul(X, inp.Wq)
        T_sim = min(cfg.T_heatmap, cfg.n_max)  # the learned table has no row past n_max: compare where all three exist
        return SchemesData(
            X=X, P=P, E=E, Q=Q, X_sin=X + P, X_learned=X + E, Q_rope=apply_rope(Q, base=base),
            n_max=cfg.n_max, T_sim=T_sim,
            scores=scheme_scores(X[0], inp.Wq, inp.Wk, T_sim, base, cfg.n_max, cfg.seed),
            learned_std=float(np.std(learned_absolute_table(d, cfg.n_max, cfg.seed))), base=base, cmap=cfg.cmap_signed,
        )

    def relative(self) -> tuple[bool, bool, bool]:
        return self.data.scores.relative()

    def caption_values(self) -> dict:
        d = self.data
        spread = spread_figures(d)
        dep = [verdict(r) for r in self.relative()]
        return {
            "T": d.X.shape[0], "d": d.X.shape[1], "n_max": numbers.count(d.n_max).text, "T_sim": d.T_sim,
            "std": numbers.measure(d.learned_std).text, "diag": self.DIAG,
            "spread_sin": spread[0].text, "spread_learned": spread[1].text, "spread_rope": spread[2].text,
            "dep_sin": dep[0], "dep_learned": dep[1], "dep_rope": dep[2],
            "gram": numbers.measure(d.scores.gram_defect).text,
        }

    # ------------------------------------------------------------------ act 1: what each scheme does
    def act_one(self, body) -> None:
        """The input, and per scheme what meets it (middle) and what comes out (right), on one scale."""
        d = self.data
        T, width = d.X.shape
        sc = self.in_scale = input_scale(d)
        descs = (
            "adds a fixed pattern of sines and cosines, one row per position",
            f"adds a learned row per position, from a table of {numbers.count(d.n_max).text} rows",
            "adds nothing: it rotates each query and key by its position's angle",
        )
        self.descs = VGroup(*[balanced_label(t, body.width, size=SMALL, color=DIM) for t in descs])
        for f in self.descs:
            body.place(f, UP)
        act = body.below(max(self.descs, key=lambda f: f.height), gap=GAP.wide)
        bar_w = ColorBar(sc, height=1.0).width
        bars, pipe = act.take_right(bar_w, gap=GAP.wide)
        under = math("x_m + E_m", size=LABEL).height + GAP.normal
        pipe = pipe.take_bottom(under, gap=0.0)[1]
        lead = max(label(str(T - 1), size=SMALL).width, math(N.position.math, size=LABEL).width) + GAP.normal
        eq = MatrixEquation((T, width), pipe, op_width=math("R_m", size=LABEL).width + 2 * GAP.wide, lead=lead)
        cell = eq.cell

        self.x_in = shows(Heatmap(d.X, sc, cell_size=cell).move_to(eq.centers[0]), "X")
        self.x_name = names(math("x_m", size=LABEL).next_to(self.x_in, DOWN, buff=GAP.tight), "X")
        self.m_idx = self.x_in.index_labels("rows")
        self.m_name = math(N.position.math, size=LABEL, color=DIM).next_to(self.m_idx, UP, buff=GAP.tight)
        self.input1 = VGroup(self.x_in, self.x_name, self.m_idx, self.m_name)
        self.input_home = self.input1.get_center().copy()
        self.input_alone = np.array([pipe.center[0], self.input_home[1], 0.0])  # centred, before any scheme
        self.in_bar = ColorBar(sc, height=T * cell)
        self.in_bar.shift(np.array([bars.left, eq.centers[0][1], 0.0]) - self.in_bar.frame.get_left())

        pe_m, e_m = N.encoding.math, N.learned_row.math
        middles = ((d.P, "P", pe_m), (d.E, "E", e_m), (d.Q, "Q", "q_m = W_q x_m"))
        results = ((d.X_sin, "X_sin", f"x_m + {pe_m}"), (d.X_learned, "X_learned", f"x_m + {e_m}"),
                   (d.Q_rope, "Q_rope", "R_m q_m"))
        self.schemes1 = []
        for k in range(3):
            parts = VGroup()
            for (A, path, name), at in ((middles[k], eq.centers[1]), (results[k], eq.centers[2])):
                hm = shows(Heatmap(A, sc, cell_size=cell).move_to(at), path)
                parts.add(hm, names(math(name, size=LABEL).next_to(hm, DOWN, buff=GAP.tight), path))
            if k < 2:
                ops = VGroup(*[math(o, size=HEADING).move_to(c) for o, c in zip("+=", eq.op_centers)])
            else:
                ops = VGroup()
                for c, t in zip(eq.op_centers, ("W_q", "R_m")):
                    a = Arrow(c + (eq.op_width / 2 - GAP.small) * LEFT, c + (eq.op_width / 2 - GAP.small) * RIGHT,
                              buff=0, color=DIM, stroke_width=3)
                    ops.add(VGroup(a, math(t, size=LABEL).next_to(a, UP, buff=GAP.tight)))
            self.schemes1.append(VGroup(self.descs[k], parts, ops))

    # ------------------------------------------------------------------ act 2: the score, like with like
    def notes(self, k: int) -> VGroup:
        """Scheme ``k``'s query and key, its measured spread and what its score depends on, and one
        line on why (the encodings alone, the fresh table, RoPE's identity)."""
        d = self.data
        rel = self.relative()[k]
        ink = VERIFIED if rel else FG
        q, kk = score_formulas()[k]
        pe_m, pe_n = N.encoding.math, N.encoding.math.replace("_m", "_n")
        why = (
            column(inline(f"${pe_m} dot {pe_n}$", "alone spreads by", color=VERIFIED),
                   theme_figure(d.scores.gram_defect, size=SMALL, color=VERIFIED), gap="tight"),
            inline("a fresh table: noise,", f"$sigma = {numbers.measure(d.learned_std).math}$", color=DIM),
            self.identity(),
        )[k]
        return column(
            column(math(q, size=LABEL), math(kk, size=LABEL), gap="small"),
            column(label("largest spread along a diagonal", size=SMALL, color=DIM),
                   theme_figure(spread_figures(d)[k], size=HEADING, color=ink), self.depends(rel), gap="tight"),
            why, gap="normal")

    def identity(self) -> VGroup:
        """RoPE's score in two steps, the second line's ``=`` under the first's."""
        a, b = (math(t, size=LABEL) for t in self.DERIVATION)
        b.next_to(a, DOWN, buff=GAP.small, aligned_edge=LEFT)
        b.shift((a[self.EQ_AT].get_left()[0] - b[0].get_left()[0]) * RIGHT)
        return VGroup(a, b)

    def depends(self, rel: bool):
        """What a score depends on, in words with its symbols typeset."""
        ink = VERIFIED if rel else FG
        if rel:
            return inline("depends on", f"${N.offset.math}$", "only", size=LABEL, color=ink)
        return inline("depends on", f"${N.position.math}$", "and", f"${N.other_position.math}$", size=LABEL, color=ink)

    def score_map(self, region, k: int) -> ScoreMap:
        """The score map of scheme ``k`` fitted to ``region``, bound to its grid, the diagonal's name under it."""
        d = self.data
        diag = math(f"{N.offset.math} = {self.DIAG}", size=SMALL, color=HIGHLIGHT)
        m = ScoreMap(d.scores.grids[k], self.score_scale, region, names(math("q_m dot k_n"), self.PATHS[k]),
                     foot=diag.height)
        shows(m.heat, self.PATHS[k])
        m.diag_name = diag.next_to(m.heat, DOWN, buff=GAP.tight).align_to(m.heat, RIGHT)
        return m

    def act_two(self, body) -> None:
        self.score_scale = score_scale(self.data)
        self.notes2 = [self.notes(k) for k in range(3)]
        notes, main = body.take_right(max(n.width for n in self.notes2), gap=GAP.section)
        for n in self.notes2:
            notes.place(n, LEFT)
        self.map = self.score_map(main, 0)
        self.diag = self.map.diagonal(self.DIAG)
        self.diag_name = self.map.diag_name
        self.defs0 = self.notes2[0][0]

    # ------------------------------------------------------------------ the comparison and the takeaway
    def comparison(self, region) -> VGroup:
        """The three spreads on a log axis, each bar named under it and its figure on top, the pass line
        across (an exact zero, which a log axis has no place for, is marked on the floor)."""
        d = self.data
        rel = self.relative()
        spreads = np.array(d.scores.defects)
        shown = spreads[spreads > 0]
        lo = int(np.floor(np.log10(min(shown.min(initial=PASS_LINE), PASS_LINE)))) - 1
        hi = int(np.ceil(np.log10(max(shown.max(initial=PASS_LINE), PASS_LINE)))) + 2  # room for the figures
        step = max(1, int(round(numbers.nice_step(hi - lo, most=self.TICKS))))  # a round step: 10⁻¹⁰ is a tick
        name_h = label(SCHEME_NAMES[0], size=SMALL).height
        axis_name = "largest spread along a diagonal"
        tick_w = math(numbers.power(lo).math, size=SMALL).width
        plot = Plot((-1, len(SCHEME_NAMES)), (10.0 ** lo, 10.0 ** hi), width=region.width - tick_w - GAP.normal,
                    height=region.height - name_h - label(axis_name, size=SMALL).height - 2 * GAP.normal, y_log=True,
                    y_ticks=[10.0 ** k for k in range(lo, hi + 1) if k % step == 0], y_label=axis_name)
        region.place(plot, DOWN + RIGHT)
        plot.shift((name_h + GAP.tight) * UP)
        inks = [VERIFIED if r else DIM for r in rel]
        marks = VGroup()
        for k, (v, ink) in enumerate(zip(spreads, inks)):
            marks.add(plot.bars([k], [v], bar_width=plot.width_units / self.BAR_SHARE, colors=ink)[0] if v > 0
                      else plot.exact_zero(k, color=ink, text=None))
        tops = VGroup(*[theme_figure(f, size=SMALL, color=VERIFIED if r else FG).next_to(b, UP, buff=GAP.tight)
                        for f, r, b in zip(spread_figures(d), rel, marks)])
        under = VGroup(*[label(n, size=SMALL, color=FG).next_to(plot.to_point(k, 10.0 ** lo), DOWN, buff=GAP.tight)
                         for k, n in enumerate(SCHEME_NAMES)])
        line = plot.hline(PASS_LINE, color=FG)
        line_name = label("pass line", size=SMALL, color=FG).next_to(line, UP, buff=GAP.hair).align_to(line, RIGHT)
        g = VGroup(plot, marks, under, line, line_name)
        g.tops = tops
        return g

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        d = self.data
        content = self.layout.content
        self.tabs = Tabs(SCHEME_NAMES, content)
        body = content.below(self.tabs, gap=GAP.normal)
        self.act_one(body)
        self.act_two(body)

        # act 1: the same input, large; each scheme in turn shows what it does to it
        self.input1.move_to(self.input_alone)
        self.beat("input", FadeIn(self.tabs), FadeIn(self.input1), FadeIn(self.in_bar))
        for k, key in enumerate(self.KEYS):
            shown = self.schemes1[k]
            if k == 0:  # the input steps aside first, then the scheme comes in beside it
                anims = [Succession(self.input1.animate.move_to(self.input_home), FadeIn(shown))]
            else:
                anims = [swap(self.schemes1[k - 1], shown)]  # out, then in: never two schemes over each other
            self.beat(key, *self.tabs.focus(k), *anims)

        # act 2: like with like: the score of one token at (m, n), the same map repainted per scheme
        m = self.map
        self.beat_plays("score", [[AnimationGroup(FadeOut(self.input1), FadeOut(self.schemes1[2]),
                                                  FadeOut(self.in_bar),
                                                  *self.tabs.focus(0))],
                                  [AnimationGroup(FadeIn(m), FadeIn(self.defs0))]], run_time=1.2)
        rest0 = VGroup(*self.notes2[0][1:])
        self.beat("sin_spread", Create(self.diag), FadeIn(self.diag_name), FadeIn(rest0))
        for k in (1, 2):
            names(m.title, self.PATHS[k])
            self.beat(f"{self.KEYS[k]}_score", *self.tabs.focus(k),
                      m.heat.animate_values(d.scores.grids[k], shows=self.PATHS[k]),
                      swap(self.notes2[k - 1] if k > 1 else VGroup(self.defs0, rest0), self.notes2[k]))

        # the comparison that matters: the three spreads, measured, against the pass line
        self.chart = self.comparison(content)  # the tabs leave with the last map: the chart takes the frame
        key = "compare" if self.relative() == (False, False, True) else "compare_other"
        self.beat_plays(key, [[AnimationGroup(FadeOut(m), FadeOut(self.diag), FadeOut(self.diag_name),
                                              FadeOut(self.notes2[2]), FadeOut(self.tabs))],
                              [AnimationGroup(FadeIn(self.chart), FadeIn(self.chart.tops))]], run_time=1.2)

    def takeaway(self) -> VGroup:
        return self.final

    def closing_key(self) -> str:
        return "close" if self.relative()[2] else "close_other"

    def closing(self) -> None:
        """RoPE's score map back, larger now the tabs are gone, its diagonal outlined, beside the identity
        that makes it relative and its measured spread (the bar's figure, brought forward)."""
        d = self.data
        rel = self.relative()[2]
        content = self.layout.content
        eq = self.identity()
        head = label("largest spread along a diagonal", size=SMALL, color=DIM)
        fig = theme_figure(spread_figures(d)[2], size=HEADING, color=VERIFIED if rel else FG)
        dep = self.depends(rel)
        take = column(eq, column(head, fig, gap="tight"), dep, gap="wide")
        notes, main = content.take_right(take.width, gap=GAP.section)
        notes.place(take, LEFT)
        m = self.score_map(main, 2)
        diag = m.diagonal(self.DIAG)
        self.final = VGroup(m, diag, m.diag_name, take)
        self.beat_plays(self.closing_key(), [
            [AnimationGroup(FadeOut(self.chart), FadeOut(VGroup(self.chart.tops[0], self.chart.tops[1])),
                            ReplacementTransform(self.chart.tops[2], fig))],
            [AnimationGroup(FadeIn(m), Create(diag), FadeIn(m.diag_name), FadeIn(eq), FadeIn(head), FadeIn(dep))]],
            run_time=1.2, hold=self.CLOSING_HOLD)

    BAR_SHARE = 6  # a bar is this many times narrower than the plot
    TICKS = 6  # at most this many steps between the log axis's labels

