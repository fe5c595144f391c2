"""09 ``ThreePositionalSchemes`` (§8): sinusoidal (added), learned-absolute (row ``m`` of a table of
``nₘₐₓ`` rows, shown as initialised, N(0, 0.02²), never trained) and RoPE (turns the query and key) on
the same input, one at a time; then compared like with like: the score ``qₘ · kₙ`` of one token ``x``
as the query at position ``m`` and the key at position ``n`` (``qₘ`` is the query *at position m*, as
clip 11 writes it: for RoPE ``qₘ = Rₘ q``) under each scheme.  Each scheme's map has its widest
diagonal (where its score spreads most) outlined, and beside it a bar per outlined cell: how far its
score is from the first one's, on an axis zoomed to that scheme's own values (so the learned table's small but real spread is
visible, where on the map's shared scale it is not); then each scheme's largest spread along any
diagonal against the pass line, with its verdict; the clip ends on RoPE's score, a function of
``m − n`` alone, its identity and its verdict.

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
    Line,
    ReplacementTransform,
    VGroup,
)

from mathcore import learned_absolute_position, lecture_inputs, my_sinusoidal_position
from mathcore.attention import matmul
from mathcore.config import LectureConfig
from mathcore.positions import LEARNED_STD, apply_rope
from mathcore.scheme_compare import SchemeScores, scheme_scores
from scenes.clips.c09_widgets import MatrixEquation, ScoreMap, diagonal_rows, inline
from scenes.figures.positions import (
    PASS_LINE,
    SCHEME_NAMES,
    diagonal_distances,
    spread_axis,
    spread_ticks,
    widest_diagonal,
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
    row,
    shows,
)
from scenes.kit import figure as theme_figure
from scenes.kit.binding import claim, role
from scenes.kit.layout import Region, baseline_y
from scenes.kit.proofs import verdict as verdict_line
from scenes.kit.proofs import worded_verdict


@dataclass(frozen=True)
class SchemesData:
    """What clip 09 draws.

    Act 1: the same input ``X: (T, d)`` through each scheme: ``X + P`` (sinusoidal, ``P`` the first
    ``T`` rows of ``PE``), ``X + E`` (the first ``T`` rows of a learned table of ``n_max`` rows, as
    initialised: ``N(0, 0.02²)``), ``RoPE(X Wq)`` (the queries ``X Wq`` turned; RoPE leaves X itself
    alone).  Act 2: ``scores`` holds, for the first token ``x``, the score ``q_m · k_n`` at every
    ``(m, n)`` of ``T_sim`` positions under each scheme (``mathcore.scheme_compare``) and how far each
    grid is from depending on ``m − n``; ``distances[k]`` is, along the outlined diagonal
    ``m − n = diag``, how far each cell's score is from the first cell's under scheme ``k``.
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
    diags: tuple[int, int, int]  # per scheme, its widest diagonal m − n = diags[k] (where its spread is largest)
    distances: tuple[np.ndarray, np.ndarray, np.ndarray]  # per scheme, along that diagonal: distance from its first cell
    base: float
    cmap: str


class ThreePositionalSchemes(ClipScene):
    """09 · Sinusoidal, learned-absolute and RoPE on the same input, then compared like with like.

    Each beat names its scheme in bold.  Act 1: the input ``X``, once under each scheme's name,
    then each scheme's equation in turn.  Act 2: one score map, large, repainted scheme by scheme on
    one scale (the score of one token as the query at ``m`` and the key at ``n``), its widest diagonal
    outlined, and beside it the outlined cells' distances from the first on that scheme's own axis,
    with the scheme's verdict; then the three largest spreads on a log scale against the pass line;
    the clip ends on RoPE's score, a function of ``m − n`` alone, with its identity and verdict."""

    STAGED = True
    KEYS = ("sinusoidal", "learned", "rope")
    # why RoPE's score is relative, as clip 11 writes it (q = W_q x, k = W_k x, the token's own, unturned)
    # the second line's turn written by m − n, the offset the map's diagonal and the verdict name (R_mᵀ R_n
    # turns by n − m: R_(m − n) undone, i.e. its transpose); never n − m on screen, as in clip 11
    DERIVATION = ("q_m dot k_n = (R_m q)^top (R_n k)", "= q^top R_(m - n)^top k")  # ⊤, not an italic T
    EQ_AT = 5  # the first line's glyphs before its "=" (q, m, ·, k, n): the second line's "=" goes under it
    PATHS = ("scores.sinusoidal", "scores.learned", "scores.rope")
    KEY_FORMULA = "k_n = R_n W_k x_n"  # RoPE's key at position n: turned by n's angles, as the query by m's
    SPREAD = "$max$ spread"  # the verdicts' words: the largest spread along any diagonal (the word in the sans)
    # under a plot of one diagonal (06–08) the words say it is every diagonal's (review round 9: "max spread ≈ 1.8 ×
    # 10⁻¹⁵" read as the drawn diagonal's peak, ≈ 1.3 × 10⁻¹⁵)
    SPREAD_EVERY = "$max$ spread, all diagonals"

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SchemesData:
        T, d, base = cfg.T, cfg.d, cfg.rope_base
        inp = lecture_inputs(T, d, cfg.seed)
        X = inp.X
        P = my_sinusoidal_position(T, d, base)
        E = learned_absolute_position(T, d, cfg.n_max, cfg.seed)
        Q = matmul(X, inp.Wq)
        T_sim = min(cfg.T_heatmap, cfg.n_max)  # the learned table has no row past n_max: compare where all three exist
        scores = scheme_scores(X[0], inp.Wq, inp.Wk, T_sim, base, cfg.n_max, cfg.seed)
        diags = tuple(widest_diagonal(S) for S in scores.grids)
        return SchemesData(
            X=X, P=P, E=E, Q=Q, X_sin=X + P, X_learned=X + E, Q_rope=apply_rope(Q, base=base),
            n_max=cfg.n_max, T_sim=T_sim, scores=scores, diags=diags,
            distances=tuple(diagonal_distances(S, k) for S, k in zip(scores.grids, diags)), base=base,
            cmap=cfg.cmap_signed,
        )

    @classmethod
    def spread_verdict(cls, fig, passed: bool, size: float, every: bool = False):
        """The deck's worded verdict on one scheme's spread: ✓/✗, "max spread" (the word in the sans), then its
        figure related the deck's one way (``theme.figure``): "≈ 7.9" for a rounded figure, "≈ 1.8 × 10⁻¹⁵" for
        rounding noise, "= 0" with its exact mark (review round 3: one form for all three, never a colon)."""
        return worded_verdict(cls.SPREAD_EVERY if every else cls.SPREAD, fig, passed, size=size, relation="=")

    def relative(self) -> tuple[bool, bool, bool]:
        return self.data.scores.relative()

    # ------------------------------------------------------------------ what the words fill in
    def caption_values(self) -> dict:
        d = self.data
        spread = spread_figures(d)
        dep = [verdict(r) for r in self.relative()]
        diag = [f"m − n = {numbers.tick(k)}" for k in d.diags]
        values = {
            "T": d.X.shape[0], "d": d.X.shape[1], "n_max": numbers.count(d.n_max).text, "T_sim": d.T_sim,
            "sigma": f"{LEARNED_STD:g}", "diag_sin": diag[0], "diag_learned": diag[1], "diag_rope": diag[2],
            "key_eq": "kₙ = Rₙ W_k xₙ", "pass_note": "the line under the chart",
            "spread_sin": spread[0].text, "spread_learned": spread[1].text, "spread_rope": spread[2].text,
            "dep_sin": dep[0], "dep_learned": dep[1], "dep_rope": dep[2],
        }
        if not hasattr(self, "copies"):  # the title card: nothing drawn yet
            return values
        T, width = d.X.shape
        parts = [g[1] for g in self.schemes1]
        values.update({
            "T": claim(T, *self.copies), "d": claim(width, *self.copies),
            "copies": claim("Three copies of one grid", *self.copies),
            "sin_eq": claim("x_m plus PE_m equals their sum", *parts[0]),
            "n_max": claim(numbers.count(d.n_max).text, self.descs[1]),
            "sigma": claim(f"{LEARNED_STD:g}", self.descs[1]),
            "E_grid": claim("The middle grid", parts[1][0]),
            "E_rows": claim(T, parts[1][0]),
            "rope_eq": claim("Two arrows", *self.schemes1[2][2]),
            "grid": claim("A grid of scores", self.map.heat),
            "T_sim": claim(d.T_sim, self.map.heat),
            "key_eq": claim("kₙ = Rₙ W_k xₙ", self.key_eq),
            "overview": claim("each scheme's query at m and key at n", self.overview),
            "diag_sin": claim(diag[0], self.notes2[0].diag), "diag_learned": claim(diag[1], self.notes2[1].diag),
            "diag_rope": claim(diag[2], self.notes2[2].diag),
            "spread_sin": claim(spread[0].text, self.notes2[0].tallest, self.notes2[0].check),
            "spread_learned": claim(spread[1].text, self.notes2[1].tallest, self.notes2[1].check),
            "bars_sin": claim("yellow dots", self.notes2[0].bars),
            "bars_learned": claim("its dots", self.notes2[1].bars),
            "bars_rope": claim("the dots", self.notes2[2].bars),
            "axis_sin": claim("a log axis", self.notes2[0].plot),
            "axis_learned": claim("the same log axis", self.notes2[1].plot),
            "pass_sin": claim("the dashed pass line", self.notes2[0].line),
            "pass_means": claim("under: rounding", self.notes2[0].line_name[1]),
            "pass_learned": claim("the pass line", self.notes2[1].line),
            "pass_rope": claim("the pass line", self.notes2[2].line),
            "verdict_sin": claim("the verdict under them, with a red cross,", self.notes2[0].check),
            "verdict_learned": claim("a red cross", self.notes2[1].check),
            "verdict_rope": claim("a green tick", self.notes2[2].check),
            "dep_sin": claim(dep[0], self.notes2[0].dep), "dep_learned": claim(dep[1], self.notes2[1].dep),
            "dep_rope": claim(dep[2], self.notes2[2].dep),
        })
        if hasattr(self, "chart"):
            tops = self.chart.tops
            values.update({
                "chart": claim("Three yellow dots on a log scale", *self.chart[1]),
                "pass_note": claim("the line under the chart", self.chart.note),
                "spread_sin": claim(spread[0].text, tops[0]), "spread_learned": claim(spread[1].text, tops[1]),
                "spread_rope": claim(spread[2].text, tops[2]),
                "pass_line": claim("the dashed pass line", self.chart[3]),
            })
        else:
            values["spread_rope"] = claim(spread[2].text, self.notes2[2].check)
        if hasattr(self, "final"):
            m, diag, name, take = self.final
            values.update({
                "rope_map": claim("RoPE's grid", m.heat), "identity": claim("the identity", take[0]),
                "proof": claim(f"the verdict, {spread[2].text}", take[1]),
                "spread_rope": claim(spread[2].text, take[1]),
                "dep_rope": claim(dep[2], take[2]),
            })
        return values

    # ------------------------------------------------------------------ act 1: what each scheme does
    def input_copies(self, body) -> VGroup:
        """The input once under each scheme's name, as large as a column allows, one colour bar."""
        d = self.data
        T, width = d.X.shape
        sc = self.in_scale
        bar_w = ColorBar(sc, height=1.0).width + GAP.normal
        lead = label(str(T - 1), size=SMALL).width + GAP.normal
        name_h = math("x_m", size=LABEL).height + GAP.tight
        head_h = label(SCHEME_NAMES[0], size=LABEL, weight="BOLD").height + GAP.small
        copies = VGroup()
        cols = Region(body.left, body.right - bar_w, body.bottom, body.top).columns(1, 1, 1, gap=GAP.small)
        cell = min((body.height - name_h - head_h) / T, (cols[2].width - 2 * lead) / width, 1.2)
        for k, col in enumerate(cols):
            hm = shows(Heatmap(d.X, sc, cell_size=cell), "X")
            x = col.center[0]
            hm.move_to([x, body.center[1] + (name_h - head_h) / 2, 0.0])
            idx = hm.index_labels("rows")
            nm = names(math("x_m", size=LABEL).next_to(hm, DOWN, buff=GAP.tight), "X")
            head = label(SCHEME_NAMES[k], size=LABEL, weight="BOLD").next_to(hm, UP, buff=GAP.small)
            copies.add(VGroup(hm, nm, idx, head))  # in the order of the equation's input: heat, name, indices
        self.copies = copies
        hm = copies[2][0]
        self.bar0 = ColorBar(sc, height=hm.height)
        self.bar0.shift(np.array([hm.get_right()[0] + GAP.normal, hm.get_y(), 0.0]) - self.bar0.frame.get_left())
        return copies

    def act_one(self, body) -> None:
        """Per scheme what meets the input (middle) and what comes out (right), on the inputs' scale."""
        d = self.data
        T, width = d.X.shape
        sc = self.in_scale
        descs = (
            ("adds a fixed pattern of sines and cosines, one row per position",),
            ("adds row", "$m$", f"of a {numbers.count(d.n_max).text}-row table,",
             f"$tilde.op cal(N)(0, {LEARNED_STD:g}^2)$"),
            # each pair i by its own angle, the key as well as the query (review round 8: "by m's angle", query only)
            ("adds nothing: turns pair", "$i$", "of", "$q_m$", "by", "$m theta_i$", "and of", "$k_n$", "by",
             "$n theta_i$"),
        )
        self.descs = VGroup()
        for name, parts in zip(SCHEME_NAMES, descs):
            # m and N(0, σ²) set as math, the words in the sans (review round 2)
            line = VGroup(label(name + ":", size=LABEL, color=FG, weight="BOLD"), inline(*parts, size=LABEL, color=DIM))
            line.arrange(RIGHT, buff=GAP.small, aligned_edge=DOWN)
            line[1].align_to(line[0], DOWN)
            for piece in line[1]:  # a formula with a parenthesis sits on the words' baseline by its first "0"
                code = getattr(piece, "typst_code", "")
                at = 2 + code.count("tilde")  # the glyph of the first "0": after "N(" (and a "~")
                if "(0" in code and len(piece) > at:
                    piece.shift((line[1][0].get_bottom()[1] - piece[at].get_bottom()[1]) * UP)
                elif code and name == SCHEME_NAMES[2] and len(piece):
                    # a symbol with a subscript (qₘ, mθᵢ, kₙ) sits on the words' baseline by its first letter, not by
                    # its subscript's bottom (a "q" by its x-height top: its tail hangs under the line)
                    words = baseline_y(line[1][0])
                    xh = math("m", size=LABEL).height
                    first = code.strip("$ ")[0]
                    foot_y = piece[0].get_top()[1] - xh if first in "gpqy" else piece[0].get_bottom()[1]
                    piece.shift((words - foot_y) * UP)
            if line.width > body.width:
                line.scale_to_fit_width(body.width)
            plain = " ".join(p.strip("$") for p in parts).replace(f"tilde.op cal(N)(0, {LEARNED_STD:g}^2)",
                                                                    f"~ N(0, {LEARNED_STD:g}²)")
            line.text = f"{name}: {plain}"
            self.descs.add(body.place(line, UP + LEFT))  # every scheme's line starts at the left edge
        act = body.below(max(self.descs, key=lambda f: f.height), gap=GAP.small)
        bar_w = ColorBar(sc, height=1.0).width
        bars, pipe = act.take_right(bar_w, gap=GAP.normal)
        under = 2 * math("q_m = R_m W_q x_m", size=LABEL).height + GAP.tight + GAP.hair  # the query's and key's
        pipe = pipe.take_bottom(under, gap=0.0)[1]
        pipe = pipe.take_top(math(N.position.math, size=LABEL).height, gap=GAP.tight)[1]  # room for m over the rows
        lead = max(label(str(T - 1), size=SMALL).width, math(N.position.math, size=LABEL).width) + GAP.normal
        eq = MatrixEquation((T, width), pipe, op_width=math("R_m", size=LABEL).width + 2 * GAP.normal, lead=lead,
                            max_cell=1.2)
        cell = eq.cell

        self.x_in = shows(Heatmap(d.X, sc, cell_size=cell).move_to(eq.centers[0]), "X")
        self.x_name = names(math("x_m", size=LABEL).next_to(self.x_in, DOWN, buff=GAP.tight), "X")
        self.m_idx = self.x_in.index_labels("rows")
        self.m_name = math(N.position.math, size=LABEL, color=DIM).next_to(self.m_idx, UP, buff=GAP.tight)
        self.input1 = VGroup(self.x_in, self.x_name, self.m_idx, self.m_name)
        self.in_bar = ColorBar(sc, height=T * cell)
        self.in_bar.shift(np.array([bars.left, eq.centers[0][1], 0.0]) - self.in_bar.frame.get_left())

        pe_m, e_m = N.encoding.math, N.learned_row.math
        # the un-turned query of the token at m is W_q x_m; the query *at position m* is q_m = R_m W_q x_m (clip 11)
        middles = ((d.P, "P", pe_m), (d.E, "E", e_m), (d.Q, "Q", "W_q x_m"))
        results = ((d.X_sin, "X_sin", f"x_m + {pe_m}"), (d.X_learned, "X_learned", f"x_m + {e_m}"),
                   (d.Q_rope, "Q_rope", "q_m = R_m W_q x_m"))
        self.schemes1 = []
        for k in range(3):
            parts = VGroup()
            for (A, path, name), at in ((middles[k], eq.centers[1]), (results[k], eq.centers[2])):
                hm = shows(Heatmap(A, sc, cell_size=cell).move_to(at), path)
                parts.add(hm, names(math(name, size=LABEL).next_to(hm, DOWN, buff=GAP.tight), path))
            if k == 1:  # the table as initialised, never trained: said on the grid (review R1)
                # beside the table's name under the grid (over it, it touched the grid: review round 2); where the
                # grids are too narrow for that (the sum's name would meet it), over the grid as before
                # the name and the tag one line, centred under the grid (review round 3: the tag hung right of a
                # centred name, towards the "=" and the sum's name)
                tag = label("(untrained)", size=SMALL, color=DIM).next_to(parts[1], RIGHT, buff=GAP.small)
                tag.align_to(parts[1][0], DOWN)  # on the E's baseline, not its subscript's
                pair = VGroup(parts[1], tag)
                pair.shift((parts[0].get_x() - pair.get_x()) * RIGHT)
                sum_name = math(results[k][2], size=LABEL).next_to(eq.centers[2] + (T * cell / 2) * DOWN, DOWN,
                                                                    buff=GAP.tight)
                if tag.get_right()[0] + GAP.small > sum_name.get_left()[0]:
                    parts[1].set_x(parts[0].get_x())
                    tag.next_to(parts[0], UP, buff=GAP.small)
                self.untrained_tag = tag
                parts.add(self.untrained_tag)
            if k < 2:
                ops = VGroup(*[math(o, size=HEADING).move_to(c) for o, c in zip("+=", eq.op_centers)])
            else:
                ops = VGroup()
                for c, t in zip(eq.op_centers, ("W_q", "R_m")):
                    a = Arrow(c + (eq.op_width / 2 - GAP.tight) * LEFT, c + (eq.op_width / 2 - GAP.tight) * RIGHT,
                              buff=0, color=FG, stroke_width=4)
                    ops.add(VGroup(a, math(t, size=LABEL).next_to(a, UP, buff=GAP.tight)))
            if k == 2:  # the key at n is turned too, by its own position's angles: named under the query's formula
                key = math(self.KEY_FORMULA, size=LABEL, color=DIM).next_to(parts[3], DOWN, buff=GAP.hair)
                key.shift((parts[3][0].get_left()[0] - key[0].get_left()[0]) * RIGHT)  # under q_m, letter over letter
                self.key_eq = key
                parts.add(key)
            self.schemes1.append(VGroup(self.descs[k], parts, ops))

    # ------------------------------------------------------------------ act 2: the score, like with like
    def overview_notes(self, width: float) -> VGroup:
        """Each scheme's query at position m (its key at n is the same with n), by name, under what the map is
        (one token x at every position); the scheme the map shows now (sinusoidal) at full strength, the two
        to come dimmed: three formulas, no dashboard (issue 33)."""
        # the query at m AND the key at n of every scheme (review round 8: k_n was never defined before the close)
        rows = [column(label(n, size=LABEL, color=FG if k == 0 else DIM, weight="BOLD"),
                       math(q, size=LABEL, color=FG if k == 0 else DIM),
                       math(kn, size=LABEL, color=FG if k == 0 else DIM), gap="tight")
                for k, (n, (q, kn)) in enumerate(zip(SCHEME_NAMES, score_formulas()))]
        # the count of positions said (review round 3: act 1's T tokens became T_sim positions of one token)
        what = inline("one token", "$x$", f"at all {self.data.T_sim} positions", size=SMALL, color=DIM)
        self.overview_what = what
        self.overview_rows = rows
        g = column(what, *rows, gap="normal")
        return g.scale_to_fit_width(width) if g.width > width else g

    def notes(self, k: int, region: Region) -> VGroup:
        """Scheme ``k`` beside its map: its name (its query and key were on screen in the beat before); the
        outlined cells' distances from the first cell, one dot each, by ``m`` on the clip's one log axis, titled
        ``|score − first|`` over it; under it its verdict (the largest spread along any diagonal, against the pass
        line) and how position enters the score.  ``.chart`` is what comes first, ``.foot`` the verdict that follows it."""
        d = self.data
        rel = self.relative()[k]
        name = label(SCHEME_NAMES[k], size=HEADING, color=FG, weight="BOLD")
        if k == 1:  # the table as initialised, never trained: said on screen wherever it is shown
            tag = label("(untrained)", size=LABEL, color=DIM)
            side = VGroup(name.copy(), tag.copy()).arrange(RIGHT, buff=GAP.small, aligned_edge=DOWN)
            name = (VGroup(name, tag).arrange(RIGHT, buff=GAP.small, aligned_edge=DOWN) if side.width <= region.width
                    else column(name, tag, gap="hair"))
        head = name
        check = self.spread_verdict(spread_figures(d)[k], rel, size=LABEL, every=True)
        dep = self.depends(rel, size=LABEL)
        # the verdict and how position enters the score on one line under the plot where they fit, else stacked
        foot = row(check, dep, gap="wide", align="baseline")
        if foot.width > region.width:
            foot = column(check, dep, gap="small")
        if foot.width > region.width:
            foot.scale_to_fit_width(region.width)
        top_r, rest = region.take_top(head.height, gap=GAP.normal)
        bot_r, mid = rest.take_bottom(foot.height, gap=GAP.wide)
        top_r.place(head, LEFT)
        bot_r.place(foot, LEFT)
        # the axis's title over it (what a dot's height is) and the diagonal it is measured along, by its name
        # on the map (the map has yielded to the plot: the name carries over); the plot's m under its ticks' end
        title = math('lr(|"score" - "first"|)', size=LABEL, color=DIM)
        along = label("along", size=LABEL, color=DIM)
        diag = role(math(f"{N.offset.math} = {numbers.tick(d.diags[k])}", size=LABEL, color=HIGHLIGHT), "highlight")
        heading = row(title, along, diag, gap="small", align="baseline")
        if heading.width > region.width:
            heading.scale_to_fit_width(region.width)
        mid = mid.take_top(heading.height, gap=GAP.tight)[1]
        m_name = math(N.position.math, size=LABEL, color=DIM)
        dist = d.distances[k]
        ms = np.array(diagonal_rows(d.T_sim, d.diags[k]))
        lo, hi = spread_axis(d)  # one log axis for every scheme, and the comparison's (issue 33)
        # at the line's end, clear of every dot: its name, and under it what it means (review round 10: named but
        # never explained in beat 06); the comparison's note says it again in a sentence
        line_name = column(label("pass line", size=SMALL, color=DIM), label("under: rounding", size=SMALL, color=DIM),
                           gap="hair", align=LEFT)
        mid = mid.take_left(mid.width - max(line_name.width, m_name.width) - GAP.small, gap=GAP.small)[0]
        # one x range for the three schemes, every position 0 … T_sim − 1 (review round 3: the learned diagonal's
        # axis started at 0, the others' at 1); every k-th m labelled, k the fewest that keeps the widest label
        # clear of its neighbours
        every = np.arange(d.T_sim)
        x_range, y_range = (-0.6, d.T_sim - 0.4), (10.0 ** lo, 10.0 ** hi)
        y_ticks = [10.0 ** t for t in spread_ticks(lo, hi, most=5)]
        # a labelled tick under the pass line wherever a dot sits there (review round 3: 1.8 × 10⁻¹⁵ under an axis
        # whose lowest label was 10⁻¹⁰ could not be read from it)
        under = np.concatenate([np.asarray(v, float) for v in d.distances])
        under = under[(under > 0) & (under < PASS_LINE)]
        if len(under) and not any(t < PASS_LINE for t in y_ticks):
            y_ticks = sorted([10.0 ** int(np.floor(np.log10(under.max()))), *y_ticks])
        probe = Plot.fitted(mid, x_range, y_range, y_log=True, x_ticks=[0], y_ticks=y_ticks)  # the axis's own width
        unit = probe.width_units / (x_range[1] - x_range[0])
        wide = label(str(int(every[-1])), size=SMALL).width + GAP.normal
        step = max(1, int(np.ceil(wide / unit)))
        plot = Plot.fitted(mid, x_range, y_range, y_log=True, x_ticks=list(every[::step]), y_ticks=y_ticks)
        heading.next_to(plot.axes[1].get_top(), UP, buff=GAP.tight).align_to(plot.y_tick_labels, LEFT)
        m_name.align_to(plot.x_tick_labels, DOWN)
        m_name.set_x(max(plot.axes[0].get_end()[0], plot.x_tick_labels.get_right()[0]) + GAP.normal + m_name.width / 2)
        # each outlined cell after the first (the first is where the distances are measured from): a dot at
        # its distance, an exact zero a hollow diamond on the floor, named "0 exact" over the dots beside it
        dots = VGroup()
        zeros = VGroup()
        for m_, v in zip(ms[1:], dist[1:]):
            if v > 0:
                dot = plot.dot(m_, v, color=HIGHLIGHT, radius=self.DOT_R)
            else:
                dot = plot.exact_zero(m_, color=HIGHLIGHT, text=None)
                zeros.add(dot)
            dot.value = float(v)
            dots.add(role(dot, "highlight"))
        marks = VGroup()
        if len(zeros):  # the deck's exact zero, once, over the first diamond, clear of every dot near it
            z = zeros[0]
            tag = theme_figure(0.0, size=SMALL, color=HIGHLIGHT)
            tag._verdict = True  # the deck's exact zero, "0" and its mark: the measured figure, as a verdict prints it
            near = [dt for dt in dots if abs(dt.get_x() - z.get_x()) < tag.width / 2 + self.DOT_R + GAP.tight]
            y = max(dt.get_top()[1] for dt in near) + GAP.small + tag.height / 2
            tag.move_to([z.get_x(), y, 0])
            tag.shift(max(0.0, plot.axes[1].get_x() + GAP.tight - tag.get_left()[0]) * RIGHT)  # right of the axis
            lead = Line(z.get_top(), [z.get_x(), tag.get_bottom()[1] - 0.04, 0], color=HIGHLIGHT, stroke_width=1.5)
            marks.add(role(VGroup(tag, lead), "highlight"))
        line = plot.hline(PASS_LINE, color=DIM)
        line_name.next_to(line, RIGHT, buff=GAP.small)
        # the name over the line's height, its meaning under it
        line_name.shift((line.get_y() + GAP.tight / 2 - line_name[0].get_bottom()[1]) * UP)
        i = 1 + int(np.argmax(dist[1:]))
        tallest = theme_figure(numbers.measure(float(dist[i])), size=LABEL).next_to(dots[i - 1], UP, buff=GAP.tight)
        tallest.shift(min(0.0, region.right - tallest.get_right()[0]) * RIGHT)  # the last dot's figure stays in the frame
        tallest.shift(max(0.0, plot.axes[1].get_x() + GAP.tight - tallest.get_left()[0]) * RIGHT)  # and right of the axis
        chart = VGroup(head, plot, title, along, m_name, line, line_name, dots, marks)
        if not rel:
            chart.add(tallest)
        g = VGroup(chart, diag, foot)
        g.chart, g.foot, g.diag = chart, foot, diag
        g.head, g.plot, g.bars, g.tallest, g.check, g.dep = head, plot, dots, tallest, check, dep
        g.title, g.zero_tag, g.y_ticks = title, marks, y_ticks
        g.line, g.line_name, g.axis = line, line_name, (lo, hi)
        return g

    def identity(self) -> VGroup:
        """RoPE's score in two steps, the second line's ``=`` under the first's."""
        a, b = (math(t, size=LABEL) for t in self.DERIVATION)
        b.next_to(a, DOWN, buff=GAP.small, aligned_edge=LEFT)
        b.shift((a[self.EQ_AT].get_left()[0] - b[0].get_left()[0]) * RIGHT)
        return VGroup(a, b)

    def depends(self, rel: bool, size=LABEL, scores: bool = False):
        """How position enters a score, in words with its symbols typeset (plain ink: the verdict carries the colour);
        with ``scores`` the close's form, the deck's phrase whole on two lines."""
        # review round 10: the deck's settled phrase (clip 15), "position enters scores only as m − n": what a
        # diagonal's spread measures (every diagonal constant, or not)
        if rel:
            if scores:  # the close's: the deck's phrase whole, on two lines (one would shrink the notes under it)
                g = column(label("position enters scores", size=size, color=FG),
                           inline("only as", f"${N.offset.math}$", size=size, color=FG), gap="tight", align=LEFT)
                g.text = f"position enters scores only as ${N.offset.math}$"
                return g
            return inline("position enters only as", f"${N.offset.math}$", size=size, color=FG)
        return inline("position enters as", f"${N.position.math}$", "and", f"${N.other_position.math}$", size=size,
                      color=FG)

    def score_map(self, region, k: int) -> ScoreMap:
        """The score map of scheme ``k`` fitted to ``region``, bound to its grid (room under it for a diagonal's name)."""
        d = self.data
        foot = math(f"{N.offset.math} = -10", size=LABEL).height
        m = ScoreMap(d.scores.grids[k], self.score_scale, region, names(math("q_m dot k_n"), self.PATHS[k]), foot=foot)
        shows(m.heat, self.PATHS[k])
        return m

    def outline(self, m: ScoreMap, k: int) -> tuple[VGroup, VGroup]:
        """Scheme ``k``'s widest diagonal outlined on map ``m`` (the highlight), and its name under the map."""
        off = self.data.diags[k]
        boxes = m.diagonal(off)
        for box in boxes:
            role(box[1], "highlight")
        name = role(math(f"{N.offset.math} = {numbers.tick(off)}", size=LABEL, color=HIGHLIGHT), "highlight")
        name.next_to(m.heat, DOWN, buff=GAP.tight).align_to(m.heat, RIGHT)
        # never into the subtitle band: the foot was measured on "−10", a formula a hair shorter than some
        name.shift(max(0.0, self.layout.content.bottom - name.get_bottom()[1]) * UP)
        return boxes, name

    def act_two(self, body) -> None:
        """One subject at a time (review round 8: map and a small plot side by side read as a dashboard): each
        scheme's map, large, its widest diagonal outlined; then the map yields to that diagonal's distances on a
        plot as large as the frame (the diagonal's name carries over to the plot's title)."""
        self.score_scale = score_scale(self.data, self.cfg)
        main, notes = body.take_left(body.width - self.NOTES_W - GAP.wide, gap=GAP.wide)
        self.maps = [self.score_map(main, k) for k in range(3)]
        self.map = self.maps[0]
        notes = Region(self.map.bar.get_right()[0] + GAP.wide, body.right, body.bottom, body.top)
        self.notes2 = [self.notes(k, body) for k in range(3)]
        self.overview = self.overview_notes(notes.width)
        notes.place(self.overview, LEFT)
        self.outlines, self.diag_names = zip(*[self.outline(self.maps[k], k) for k in range(3)])

    # ------------------------------------------------------------------ the comparison and the takeaway
    def comparison(self, region) -> VGroup:
        """The three largest spreads on a log axis, each bar named under it and its verdict on top (✓ or ✗
        and the figure), the pass line across (an exact zero is marked on the floor)."""
        d = self.data
        rel = self.relative()
        spreads = np.array(d.scores.defects)
        lo, hi = spread_axis(d)  # the notes' axis: the same scale as beats 06–08
        name_h = label(SCHEME_NAMES[0], size=LABEL).height + verdict_line("", 1.0, True, size=LABEL).height
        # what the pass line is, in one line under the chart (review round 8: "why 10⁻¹⁰?")
        note = inline("a spread under the pass line", f"${numbers.power(int(round(np.log10(PASS_LINE)))).math}$",
                      "is rounding, not position", size=LABEL, color=DIM)
        if note.width > region.width:
            note.scale_to_fit_width(region.width)
        region.place(note, DOWN + LEFT)
        region = region.take_bottom(note.height, gap=GAP.normal)[1]
        axis_name = "largest spread along a diagonal"
        tick_w = math(numbers.power(lo).math, size=SMALL).width
        plot = Plot((-0.6, len(SCHEME_NAMES) - 0.4), (10.0 ** lo, 10.0 ** hi), width=region.width - tick_w - GAP.normal,
                    height=region.height - name_h - label(axis_name, size=SMALL).height - 2 * GAP.normal, y_log=True,
                    y_ticks=[10.0 ** k for k in spread_ticks(lo, hi, most=self.TICKS)], y_label=axis_name)
        region.place(plot, DOWN + RIGHT)
        plot.shift((name_h + GAP.tight) * UP)
        # one ink, the outlined cells' dots' of beats 06–08 (review round 8): the ✓ or ✗ over each carries its verdict
        inks = [HIGHLIGHT for _ in rel]
        marks = VGroup()
        for k, (v, ink) in enumerate(zip(spreads, inks)):
            # a dot at the measured value (a bar's length on a log axis would be set by the axis's floor)
            marks.add(role(plot.dot(k, v, color=ink, radius=self.DOT_R) if v > 0
                           else plot.exact_zero(k, color=ink, text=None), "highlight"))
        # each dot's verdict in the notes' one form, "max spread ≈ 7.9" (review round 3), over its dot; where three
        # such lines would run into each other, the figure alone with its relation
        tops = VGroup(*[self.spread_verdict(f, r, size=LABEL).next_to(b, UP, buff=GAP.tight)
                        for f, r, b in zip(spread_figures(d), rel, marks)])
        slot = plot.width_units / len(SCHEME_NAMES)
        if max(t.width for t in tops) > slot - GAP.normal:
            tops = VGroup(*[worded_verdict("", f, r, size=LABEL, relation="=").next_to(b, UP, buff=GAP.tight)
                            for f, r, b in zip(spread_figures(d), rel, marks)])
        under = VGroup(*[label(n, size=LABEL, color=FG).next_to(plot.to_point(k, 10.0 ** lo), DOWN, buff=GAP.tight)
                         for k, n in enumerate(SCHEME_NAMES)])
        line = plot.hline(PASS_LINE, color=FG)
        line_name = label("pass line", size=SMALL, color=FG).next_to(line, UP, buff=GAP.hair).align_to(line, RIGHT)
        g = VGroup(plot, marks, under, line, line_name, note)
        g.tops, g.note = tops, note
        return g

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        content = self.layout.content
        self.in_scale = input_scale(self.cfg)
        body = content
        self.input_copies(body)
        self.act_one(body)
        self.act_two(body)

        # act 1: the same input under each scheme's name; then each scheme in turn shows what it does to it
        self.beat("input", FadeIn(self.copies), FadeIn(self.bar0), subject=self.copies, why=self.SHAPE_WHY)
        for k, key in enumerate(self.KEYS):
            shown = self.schemes1[k]
            if k == 0:  # the first copy becomes the equation's input, the others leave (the copies keep their place)
                moving = self.copies[0][:3].copy()  # its grid, name and indices become the input's; its heading goes
                self.remove(self.copies[0])
                self.add(moving, self.copies[0][3])
                plays = [[AnimationGroup(ReplacementTransform(moving, VGroup(*self.input1[:3])), FadeIn(self.input1[3]),
                                         FadeOut(self.copies[0][3]), FadeOut(self.copies[1:]),
                                         ReplacementTransform(self.bar0, self.in_bar))], [FadeIn(shown)]]
            else:  # out, then in: never two schemes over each other
                plays = [[FadeOut(self.schemes1[k - 1])], [FadeIn(shown)]]
            self.beat_plays(key, plays, run_time=0.8, subject=VGroup(self.input1, shown[1], shown[2]),
                            why=self.SHAPE_WHY)

        # act 2: like with like: the score of one token at (m, n), each scheme's map in turn
        m = self.map
        self.beat_plays("score", [[AnimationGroup(FadeOut(self.input1), FadeOut(self.schemes1[2]),
                                                  FadeOut(self.in_bar))],
                                  [AnimationGroup(FadeIn(m), FadeIn(self.overview))]], run_time=1.2, subject=m.heat)
        # each scheme staged one subject at a time: its map with the diagonal outlined, then the map yields to that
        # diagonal's distances (its name carries over), then the verdict (review rounds 3 and 8)
        for k, key in enumerate(("sin_spread", "learned_score", "rope_score")):
            m, notes = self.maps[k], self.notes2[k]
            if k == 0:
                first = [AnimationGroup(Create(self.outlines[0]), FadeIn(self.diag_names[0]), FadeOut(self.overview))]
            else:
                first = [AnimationGroup(FadeOut(self.notes2[k - 1]), FadeIn(m), Create(self.outlines[k]),
                                        FadeIn(self.diag_names[k]))]
            self.beat_plays(key, [first,
                                  [AnimationGroup(FadeOut(VGroup(m, self.outlines[k])),
                                                  ReplacementTransform(self.diag_names[k], notes.diag),
                                                  FadeIn(notes.chart))],
                                  [FadeIn(notes.foot, shift=GAP.small * UP)]], run_time=0.9,
                            subject=VGroup(notes.plot, notes.bars), why=self.PLOT_WHY)

        # the comparison that matters: the three spreads, measured, against the pass line
        self.chart = self.comparison(content)
        key = "compare" if self.relative() == (False, False, True) else "compare_other"
        self.beat_plays(key, [[FadeOut(self.notes2[2])],
                              [AnimationGroup(FadeIn(self.chart), FadeIn(self.chart.tops))]], run_time=1.2,
                        subject=VGroup(self.chart, self.chart.tops),
                        why={"empty": "three measured spreads on one log axis: the room between and over the bars is "
                                      "the axis, 10⁻¹⁵ to 10⁰, they are read against"})

    def takeaway(self) -> VGroup:
        return self.final

    def closing_key(self) -> str:
        return "close" if self.relative()[2] else "close_other"

    def closing(self) -> None:
        """RoPE's score map back, its diagonal outlined, beside the identity that makes it relative (as clip 11
        writes it), its verdict (the chart's, brought forward) and how position enters it, in the deck's phrase."""
        d = self.data
        rel = self.relative()[2]
        content = self.layout.content
        eq = VGroup(*self.identity(), math("q = W_q x, quad k = W_k x", size=LABEL, color=DIM))
        eq[2].next_to(eq[1], DOWN, buff=GAP.normal).align_to(eq[0], LEFT)
        check = self.spread_verdict(spread_figures(d)[2], rel, size=LABEL)
        dep = self.depends(rel, size=HEADING, scores=True)
        take = column(eq, check, dep, gap="wide")
        probe = self.score_map(content, 2)  # the map as large as the height allows: the rest is the notes'
        room = content.width - (probe.bar.get_right()[0] - content.left) - GAP.wide
        take.scale(min(room / take.width, self.TAKE_MAX))
        main, notes = content.take_left(content.width - take.width - GAP.wide, gap=GAP.wide)
        m = self.score_map(main, 2)
        notes.place(take, LEFT)
        diag, diag_name = self.outline(m, 2)
        self.final = VGroup(m, diag, diag_name, take)
        self.beat_plays(self.closing_key(), [
            [AnimationGroup(FadeOut(self.chart), FadeOut(VGroup(self.chart.tops[0], self.chart.tops[1])),
                            ReplacementTransform(self.chart.tops[2], check))],
            [AnimationGroup(FadeIn(m), Create(diag), FadeIn(diag_name), FadeIn(eq), FadeIn(dep))]],
            run_time=1.2, hold=self.CLOSING_HOLD, subject=VGroup(m.heat, diag, take))

    # act 1 draws three T × d matrices in a row, each as large as the frame allows: for a short, wide input
    # (T = 3, d = 6 of the corner configs) the row of matrices is width-bound and cannot fill half the frame
    SHAPE_WHY = {"empty": "three T × d matrices side by side, each as large as the frame's width or height allows: "
                          "the input's shape, not the staging, sets how much of the frame they fill"}
    PLOT_WHY = {"empty": "one diagonal's distances, a dot per cell, on a log axis as large as the frame: the room "
                         "over and under the dots is the axis, 10⁻¹⁵ to 10⁰, they are read against",
                "dashboard": "one plot: a short diagonal's few dots stand apart on the axis they are read against, "
                             "with the plot's title over it and its verdict under it"}
    TAKE_MAX = 1.3  # the closing notes may grow this much into the room the map leaves
    NOTES_W = 5.0  # the notes beside a score map: its formulas, its bars, its verdict
    BAR_SHARE = 0.55  # a bar's share of its slot
    DOT_R = 0.14  # a measured spread's dot on the log axis
    TICKS = 6  # at most this many steps between the log axis's labels
