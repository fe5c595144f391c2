"""11 ``RoPERotatesQK`` (Q3): rotate q by position m and k by n; shift both by the same s and the
score is unchanged, since it depends only on the offset m − n (measured over every shift up to
``s_max``); V is not rotated because it carries content, not position: drawn as what a rotated V
would do, the first feature pair of the output at the query's position m turning by s θ₀ when the
sequence slides (``y_m → R_s y_m``, measured); over the whole sequence, what the shift does to the outputs,
ΔY, one value at a time, large and centred with its verdict under it: all zero (white) with V left alone (✓), coloured
with V rotated (✗), each verdict stating the shift it measured, "(s = 2)".  The clip ends on its takeaway, written,
over the verdict on the scores and one large map, ΔY with V rotated, its ✗ and the cell that moved most boxed.  ΔY is a difference of outputs: the deck's outputs scale, one colour bar.

The scales, titles and proof figures it draws are described in ``scenes/figures/rope.py``,
which its still shares.

Render directly with ``manim -ql scenes/clips/c11_rope_rotates_qk.py RoPERotatesQK``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    Rotate,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from mathcore import lecture_inputs, rope_angle_grid, rope_frequencies
from mathcore.attention import matmul
from mathcore.config import LectureConfig
from mathcore.rope_measures import (
    rope_pairs,
    rope_score,
    rope_self_attention_trace,
    shift_output_defect,
    shift_score_defects,
)
from scenes.clips.c11_widgets import OutputTurn, PairDial, map_axes
from scenes.figures.rope import (
    SCORE_DIGITS,
    passed,
    V_PLAIN_MATH,
    V_ROT_MATH,
    output_gap_lhs,
    output_scale,
    base_figure,
    relation,
    relation_text,
    theta_figure,
)
from scenes.kit import (
    DIM,
    FG,
    HEADING,
    HIGHLIGHT,
    KEY,
    LABEL,
    QUERY,
    SMALL,
    ClipScene,
    ColorBar,
    Heatmap,
    LayoutError,
    figure,
    label,
    math,
    numbers,
    swap,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import GAP, column, end_on, row
from scenes.kit.motion import dim
from scenes.kit.layout import MIN_XHEIGHT_PX, baseline_y
from scenes.kit.notation import N
from scenes.kit.binding import claim, role
from scenes.kit.proofs import verdict, worded_line, worded_verdict
from scenes.kit.scales import rope_shift


# the largest score gap over every shift s up to s_max: the word in the sans, max over s ≤ … and |Δ| in Typst
# (as narrow as the old all-math line: with three pairs and more the notes still fit under the dials)
SCORE_GAP_MAX = "$max |Delta$ score $|$ $(s = 1, dots.h, {s})$"  # the bars round the whole difference; the shifts
# measured written at full size beside it (a subscript s ≤ 1000 fell under the legible floor, and gave no lower end)


def shift_lhs(s: int) -> str:
    """``max |ΔY| (s = 2)``: the ΔY verdicts' left side, with the shift it measured (Typst)."""
    return f"{output_gap_lhs()} med ({N.shift.math} = {s})"


def shift_text(s: int) -> str:
    """The caption form of :func:`shift_lhs`."""
    return f"max |ΔY| (s = {s})"


def related(words: str, value) -> str:
    """``words``, then a colon before a figure that is not rounding noise (noise reads "≈ …" on its own), as
    the deck's worded verdicts write it (a lone "=" piece would sit under the words' baseline)."""
    return words if numbers.measure(value).approx else f"{words}:"


def rounded(fig: numbers.Figure) -> numbers.Figure:
    """``fig`` written with "≈" when its printed digits are not its value (a figure rounded for display, e.g.
    ``≈ 1.6`` for 1.59); digits that are the value (θ₀ = 1.0, θ₁ = 0.010 at b = 10 000) keep "="."""
    if fig.exact or fig.approx:
        return fig
    try:
        shown = float(fig.text.replace(numbers.MINUS, "-").replace(numbers.THIN, "").replace(" ", ""))
    except ValueError:
        return fig
    if abs(shown - fig.value) <= 1e-9 * max(1.0, abs(fig.value)):
        return fig
    return numbers.Figure(fig.value, f"approx {fig.math}", f"≈ {fig.text}", approx=True)


def score_line(m: int, n: int, value) -> VGroup:
    """``score(m, n) ≈ value``: the word in the sans, the positions, "≈" (or "=" when the digits are the value)
    and the figure in Typst.  ``.figure`` the ``numbers.Figure``, ``.value`` the typeset figure."""
    about = rounded(value)
    fig = figure(value)  # the digits; "≈" or "=" goes with the positions (one math piece: one baseline)
    line = worded_line(f"score$({m}, {n}) {'approx' if about.approx else '='}$", fig)
    line.figure, line.value = about, fig
    return line


def pick_query_key(Q: np.ndarray, K: np.ndarray, avoid=()) -> tuple[int, int]:
    """``(a, b)`` with ``T > a > b >= 1``: the query row ``a`` and the key row ``b`` whose hands are
    easiest to see on every dial.  Each dial is scaled to its longer hand, so the shorter hand's
    share ``min(|q_a,i|, |k_b,i|) / max(...)`` is what can vanish; maximise its worst pair.
    ``b >= 1`` so both tokens sit past position 0 and both hands turn; ties go to the first.
    Offsets ``a − b`` in ``avoid`` are skipped where another pair exists (the clip passes its shift s: an
    offset m − n equal to the shift would read as the shift, "slide s = 2 … only m − n = 2 counts")."""
    T = Q.shape[0]
    if T < 3:
        raise ValueError(f"pick_query_key needs at least 3 rows, got {T}")
    qn = np.linalg.norm(Q.reshape(T, -1, 2), axis=2)
    kn = np.linalg.norm(K.reshape(T, -1, 2), axis=2)
    pairs = [(a, b) for a in range(2, T) for b in range(1, a)]
    pairs = [(a, b) for a, b in pairs if a - b not in set(avoid)] or pairs  # (a, a − 1) always remains unless 1 is avoided
    best, pick = -1.0, pairs[0]
    for a, b in pairs:
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
    (``rope_pairs``); the two scores, their measured gap and the largest gap over every shift
    from 1 to ``s_max``.  ``Y*``: RoPE self-attention outputs of the whole input at positions
    0 to T−1 and s to s+T−1, with ``V`` left alone and with ``V`` rotated, and the measured
    ``max |ΔY|`` of each.
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
    dY_plain: np.ndarray  # (T, d) Y_plain_shifted − Y_plain: what the shift does to the outputs, V alone
    dY_rot: np.ndarray  # (T, d) Y_rot_shifted − Y_rot, V rotated
    defect_plain: float
    defect_rot: float
    cmap: str
    q_token: int
    k_token: int
    worst_rot: tuple[int, int]  # (token, feature) of the output a rotated V moves most: |ΔY| there is defect_rot
    turn_plain: np.ndarray  # (2, 2) features 0 and 1 of y_m (the output at the query's position m), before and
    turn_rot: np.ndarray  # after the shift: V alone (rows equal) and V rotated (turned by s θ₀)
    turn_angle: float  # the measured angle from turn_rot[0] to turn_rot[1] (radians, in (−π, π])


def bar_beside(hm, scale, quantity: str) -> ColorBar:
    """The outputs' colour bar right of ``hm``, named ΔY, its title level with the map's top and its stripes
    down to the map's bottom (a title over a bar as tall as the map would sit beside the map's own title)."""
    title = names(math("Delta Y", size=SMALL, color=FG), quantity)

    def titled(height):  # the title over the bar and its top tick's label (centred on the bar's end, it rises)
        bar_ = ColorBar(scale, height=height, title=title.copy())
        bar_.title.next_to(VGroup(bar_.frame, bar_.tick_labels), UP, buff=0.1)
        return bar_

    probe = titled(hm.height)
    # tall enough for its tick labels to stand apart (a map of few rows is short: the bar may rise past its top)
    apart = 1.6 * len(probe.tick_labels) * max(t.height for t in probe.tick_labels)
    bar = titled(max(hm.height - (probe.height - probe.stripes.height), 0.5 * hm.height, apart))
    bar.remove(bar.title)
    bar.title = title.move_to(bar.title)
    bar.add(title)
    bar.next_to(hm, RIGHT, buff=GAP.wide)
    bar.shift((hm.get_bottom()[1] - bar.stripes.get_bottom()[1]) * UP)
    return bar


class DeltaView(VGroup):
    """What sliding every position by ``s`` does to one value's outputs, ΔY (after − before), as one picture:
    ``title`` (ΔY with how V is made: the formula is the map's title), ``sub`` (after − before, at which
    positions; absent when ``compact``), ``map`` (ΔY, bound to its quantity), ``axes`` (tokens down the left,
    features underneath), ``bar`` (the deck's outputs colour bar, named ΔY) and
    ``measure`` (the verdict on the measured ``max |ΔY| (s = 2)``, under the map, its ✓/✗ left of the map's cells:
    a red ✗ never sits beside a red cell)."""

    def __init__(self, dY, quantity: str, head: str, defect: float, s: int, scale, cell: float,
                 compact: bool = False):
        super().__init__()
        T = dY.shape[0]
        self.map = shows(Heatmap(dY, scale, cell_size=(cell * self.ASPECT, cell)), quantity)
        # the indices no taller than 60 % of a row's pitch: at the close's smaller cells they stay apart
        # (the words "token" and "feature" keep the small size: they are not in a row's pitch)
        probe = label("0", size=SMALL)
        self.axes = map_axes(self.map, size=SMALL * min(1.0, 0.6 * cell / probe.height), word_size=SMALL)
        self.title = names(worded_line(f"$Delta Y$ with ${head}$", size=LABEL), quantity)
        near = GAP.small if compact else GAP.normal  # the close: its map as tall as the frame's height allows
        self.title.next_to(self.map, UP, buff=near).set_x(self.map.get_x())
        parts = [self.map, self.axes, self.title]
        self.sub = None
        if not compact:
            self.sub = label(f"after − before: positions 0 to {T - 1}, then {s} to {s + T - 1}", size=SMALL,
                             color=DIM)
            self.sub.next_to(self.map, UP, buff=GAP.small).set_x(self.map.get_x())
            self.title.next_to(self.sub, UP, buff=GAP.tight).set_x(self.map.get_x())
            parts.insert(2, self.sub)
        # every verdict states the shifts it measured, in one notation: the scores' "(s = 1, …, 1000)", each ΔY's
        # "(s = 2)" (review round 10: the close wrote it on the rotated V's verdict only, both measured s = 2)
        self.measure = verdict(shift_lhs(s), rounded(numbers.measure(defect)), passed(defect))
        self.measure.next_to(self.axes, DOWN, buff=near)
        # the mark left of the cells, under the token numbers: clear of the data's own reds and greens
        self.measure.shift((self.axes.get_left()[0] - self.measure.get_left()[0]) * RIGHT)
        parts.append(self.measure)
        self.bar = bar_beside(self.map, scale, quantity)
        parts.append(self.bar)
        self.add(*parts)
        self.cell_size = cell

    MAX_CELL = 1.0  # units: a few tokens of few features stay a map, not a wall
    ASPECT = 1.5  # a cell's width over its height: the height is what a few rows under a title run short of

    @classmethod
    def fitted(cls, region, *args) -> DeltaView:
        """The view with the largest cells (up to ``MAX_CELL``) that fit ``region``, centred in it."""
        lo, hi = 0.05, cls.MAX_CELL
        g = cls(*args, lo)
        if g.width > region.width or g.height > region.height:
            raise LayoutError(f"ΔY does not fit region {region.name!r}")
        for _ in range(9):
            mid = (lo + hi) / 2
            g = cls(*args, mid)
            lo, hi = (mid, hi) if g.width <= region.width and g.height <= region.height else (lo, mid)
        return region.place(cls(*args, lo))


class RoPERotatesQK(ClipScene):
    """11 · RoPE rotates q and k, and leaves V alone."""

    STAGED = True
    WHY_MAX = 1.4  # the two lines of why V is left alone may grow this much
    # the shift s: chosen from the rates, the smallest that turns the first pair by 60° to 120° (``rope_shift``:
    # at s θ₀ ≈ π a turn reads as a flip); the deck's outputs scale holds RoPE's outputs at this shift
    S_MAX = 1000  # shifts measured: every s from 1 to S_MAX

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> RotatesQKData:
        inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        base = cfg.rope_base
        Q, K = matmul(inp.X, inp.Wq), matmul(inp.X, inp.Wk)
        s = rope_shift(cfg.d, base, cls.S_MAX)  # the sequence slides by s (pair 0 turns 60° to 120°)
        a, b = pick_query_key(Q, K, avoid=(s,))  # an offset m − n other than s: the two never read as one
        q, k = Q[a], K[b]
        m, n = a, b  # each token at its own position
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
            dY_plain=outs[False, s] - outs[False, 0], dY_rot=outs[True, s] - outs[True, 0],
            defect_plain=shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, s, base, rotate_v=False),
            defect_rot=shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, s, base, rotate_v=True),
            cmap=cfg.cmap_signed, q_token=a, k_token=b,
            worst_rot=tuple(int(x) for x in np.unravel_index(np.argmax(np.abs(outs[True, s] - outs[True, 0])),
                                                             outs[True, 0].shape)),
            turn_plain=np.array([outs[False, 0][m, :2], outs[False, s][m, :2]]),
            turn_rot=np.array([outs[True, 0][m, :2], outs[True, s][m, :2]]),
            turn_angle=float(np.angle(complex(*outs[True, s][m, :2]) / complex(*outs[True, 0][m, :2]))),
        )

    def caption_values(self) -> dict:
        d = self.data
        T = d.Y_plain.shape[0]
        values = {
            "m": d.m, "n": d.n, "s": d.s, "ms": d.m + d.s, "ns": d.n + d.s, "diff": d.m - d.n, "turn": numbers.measure(abs(d.turn_angle)).text + " rad",
            "s_max": numbers.count(d.s_max).text, "d": d.q.size, "pairs": d.q.size // 2, "T": T, "T1": T - 1,
            "sT": d.s + T - 1, "qa": d.q_token, "kb": d.k_token,
            "score": numbers.measure(d.score, SCORE_DIGITS).text,
            "score_shifted": numbers.measure(d.score_shifted, SCORE_DIGITS).text,
            "score_rel": relation_text("", rounded(numbers.measure(d.score, SCORE_DIGITS))).strip(),
            "score_shifted_rel": relation_text("", rounded(numbers.measure(d.score_shifted, SCORE_DIGITS))).strip(),
            "gap": numbers.measure(d.score_gap).text, "gap_max": numbers.measure(d.score_gap_max).text,
            "defect_plain": numbers.measure(d.defect_plain).text, "defect_rot": numbers.measure(d.defect_rot).text,
            "worst_token": d.worst_rot[0], "worst_feature": d.worst_rot[1],
            "defect_plain_rel": relation_text(shift_text(d.s), rounded(numbers.measure(d.defect_plain))),
            "defect_rot_rel": relation_text(shift_text(d.s), rounded(numbers.measure(d.defect_rot))),
        }
        if not hasattr(self, "dials"):  # the title card: nothing drawn yet
            return values
        P = d.q.size // 2
        final = getattr(self, "final", None)
        values.update({
            "pairs": claim(P, *[dl.face for dl in self.dials]),
            "dials": claim(f"{P} dial{'s' if P > 1 else ''}", *[dl.face for dl in self.dials]),
            "arcs": claim("a white arc", *self.arcs) if len(self.arcs) else claim("", *self.dials),
            "plain_map": claim("a map of ΔY", self.plain.map),
            "rot_map": claim("a new map of ΔY", self.rot.map),
            "plain_check": claim("a check mark", self.plain.measure.check),
            "rot_cross": claim("a cross", self.rot.measure.check),
            "dims": claim(f"d = {d.q.size}", self.dims),
            "turn_rule": claim("the line q turns by m θᵢ and k by n θᵢ", self.turn_rule),
            "base": claim(base_figure(self.cfg.rope_base).text, self.dims),
            "turn_dials": claim("two dials", *[c.dial for c in self.why.cells]),
            "turn_arc": claim("an arc", self.why.cells[1].dial.arc),
            "turn": claim(numbers.measure(abs(d.turn_angle)).text + " rad", self.why.angle_label),
            "gap_where": claim("along the bottom, centred",
                               self.gap_max_row),
            "rule": claim("y′ at m + s = R_s y_m", self.why.rule),
            "define": claim("R_s: turns pair i by s θᵢ", self.why.define),
            "gap_verdict": claim("a check mark", self.gap_max_row.check),
            "worst": claim("a box", getattr(self, "worst", self.rot.map)),
            "worst_token": claim(d.worst_rot[0], getattr(self, "worst", self.rot.map)),
            "worst_feature": claim(d.worst_rot[1], getattr(self, "worst", self.rot.map)),
            "close_words": claim("the takeaway, written", self.close_words) if final is not None
            else claim("", self.dials[0]),
            "close_maps": claim("the map of ΔY with V rotated", *getattr(self, "close_maps", [self.rot.map])),
            "close_where": claim("beside it" if getattr(self, "close_beside", True) else "over it",
                                 getattr(self, "close_words", self.rot.map)),
            "close_moved": claim(f"s = {d.s}", getattr(self, "close_moved", self.rot.measure)),
            "close_plain": claim(f"V left alone, {values['defect_plain_rel']}",
                                 getattr(self, "close_plain", self.plain.measure)),
        })
        return values

    def caption(self, key: str) -> str:
        """Worded variants chosen by measured values (the narration must hold for every config)."""
        if key == "qk" and self.data.q.size == 2:
            key = "qk_one"
        return super().caption(key)

    # ------------------------------------------------------------------ the storyboard's pieces
    def make_mobjects(self) -> None:
        d = self.data
        P = d.q.size // 2
        content = self.layout.content
        # ---- the notes under the dials: who is who and where they sit (left), the scores (right)
        self.who, self.at_words, self.where, self.moved = VGroup(), VGroup(), VGroup(), VGroup()
        rows = []
        for sym, col, name, what, tok, pos, pos_now in (
                (N.queries.math.lower(), QUERY, "query", "of token", d.q_token, N.position.math, (d.m, d.m + d.s)),
                (N.keys.math.lower(), KEY, "key", "of token", d.k_token, N.other_position.math, (d.n, d.n + d.s))):
            # laid out with where the token is after the shift (the wider figure); before it, the same place
            who = row(role(math(sym, size=LABEL, color=col), name), label(f"{what} {tok},", size=LABEL), gap="small")
            at = row(label("at position", size=SMALL, color=DIM),
                     role(math(f"{pos} + {N.shift.math} = {pos_now[1]}", size=LABEL, color=col), name), gap="small",
                     align="baseline")
            rows.append(VGroup(who, at))
            self.who.add(who)
            self.at_words.add(at[0])
            self.moved.add(at[1])
            self.where.add(role(math(f"{pos} = {pos_now[0]}", size=LABEL, color=col), name))
        self.shift_line = math(f"{N.shift.math} = {d.s}", size=LABEL)
        self.diff_line = math(f"{N.offset.math} = {d.m - d.n}", size=LABEL)
        # the head size and the base the rates come from, before any rate is read (clip 10 used another d)
        self.dims = math(f"d = {d.q.size}, quad {N.base.math} = {base_figure(self.cfg.rope_base).math}", size=LABEL,
                         color=DIM)
        shift_row = row(self.shift_line, self.diff_line, gap="wide", align="baseline")

        def stack(one_line: bool) -> VGroup:
            """The notes: who is who and where, each token on one line (under the dials: the height is short), or
            where under who (beside the dials: a narrow column leaves them the width), "at" in one column."""
            for who, at in rows:
                if one_line:
                    at.next_to(who, RIGHT, buff=GAP.small)
                    at.shift((baseline_y(who[1]) - baseline_y(at[0])) * UP)
                else:  # under the words, the symbol leads
                    at.next_to(who, DOWN, buff=GAP.tight).align_to(who[1], LEFT)
            g = column(self.dims, *rows, shift_row, gap="small")
            x_at = max(w.get_left()[0] for w in self.at_words)
            for w, moved in zip(self.at_words, self.moved):
                VGroup(w, moved).shift((x_at - w.get_left()[0]) * RIGHT)
            return g

        wide_lines = stack(True)
        wide_w, wide_h = wide_lines.width, wide_lines.height
        lines = stack(False)
        # the words in the sans, the maths in Typst (issue 33 review: "score" was set in the serif math font)
        self.score_row = score_line(d.m, d.n, numbers.measure(d.score, SCORE_DIGITS))
        self.score_shift_row = score_line(d.m + d.s, d.n + d.s, numbers.measure(d.score_shifted, SCORE_DIGITS))
        self.gap_max_row = worded_verdict(related(SCORE_GAP_MAX.format(s=numbers.count(d.s_max).math), d.score_gap_max),
                                          d.score_gap_max,
                                          passed(d.score_gap_max))  # every shift
        gmax = self.gap_max_row.line.maths[0]  # "max |Δ": the bars' opening piece
        # the closing bar of |Δ score| as tall and as high as the opening one (the tallest glyph of the first piece)
        opening = max(gmax.submobjects, key=lambda g: g.height)
        closing = self.gap_max_row.line.maths[1]
        closing.stretch_to_fit_height(opening.height).match_y(opening)
        # close to its word, as |Δ sits; what follows the bar (the shifts measured, "≈", the figure) keeps its
        # spacing after it
        pieces = list(self.gap_max_row.line.pieces)
        delta = self.gap_max_row.line.words[0].get_right()[0] + 0.06 - closing.get_left()[0]
        VGroup(*pieces[pieces.index(closing):]).shift(delta * RIGHT)
        caps = [math(relation(f"theta_{i}", rounded(theta_figure(d.theta[i]))), size=SMALL, color=DIM)
                for i in range(P)]
        # under each dial, which pair it is, then its rate: "pair 0   θ₀ = 1.0" (review round 6: only the rate told
        # the dials apart)
        self.pair_names = VGroup(*[label(f"pair {i}", size=SMALL, color=DIM) for i in range(P)])
        cap_rows = [row(name, cap, gap="normal", align="baseline") for name, cap in zip(self.pair_names, caps)]
        cap_h = max(c.height for c in cap_rows) + GAP.tight
        apart = GAP.normal  # the dials of one vector's pairs belong together: one subject, the width to the hands

        def radius(region) -> float:
            """The dials' radius in ``region``: as large as its height and width allow (and the rates under them)."""
            r = min((region.width - (P - 1) * apart) / P, region.height - cap_h) / 2
            if r <= 0 or sum(c.width for c in cap_rows) + (P - 1) * apart > region.width:
                return 0.0  # the rates alone are wider than the region: no dial fits here (the other layout wins)
            while sum(max(2 * r, c.width) for c in cap_rows) + (P - 1) * apart > region.width:
                r *= 0.97  # a rate under its dial wider than the dial: the dials give way, the rates stay legible
            return r

        def sized(*mobs, arrange=column, **kw):
            """The size of ``mobs`` arranged (copies: the mobjects stay where they are)."""
            g = arrange(*[m.copy() for m in mobs], **kw)
            return g.width, g.height

        two = (self.score_row, self.score_shift_row)
        # the verdict on the scores (the widest line) centred along the bottom in both layouts, and over it two ways
        # to lay part one out, the one whose dials are larger wins:
        # beside: the notes in a column right of the dials (who is who and where, then the two scores; two pairs:
        #   the dials fill the height);
        # under: the notes under the dials in two columns, who is who on the left, the scores on the right (three
        #   pairs and more: the dials fill the width)
        strip, upper = content.take_bottom(self.gap_max_row.height, gap=GAP.normal)
        side_notes, side_dials = upper.take_right(max(lines.width, sized(*two, gap="small")[0]), gap=GAP.wide)
        w2, h2 = sized(*two, gap="small")
        under_notes, under_dials = upper.take_bottom(max(wide_h, h2), gap=GAP.normal)
        fits_under = wide_w + GAP.section + w2 <= content.width
        # three dials and more go across the frame, the notes under them (beside a narrow column of notes, three
        # dials read as four groups: a dashboard); fewer go under only where that makes them larger
        self.notes_under = fits_under and (P >= 3 or radius(under_dials) > 1.05 * radius(side_dials))
        strip.fit(self.gap_max_row, floor_px=MIN_XHEIGHT_PX)
        scores = column(*two, gap="small")
        if self.notes_under:
            lines = stack(True)
            notes_block = row(lines, scores, gap="section", align="top")
            notes, dial_region = under_notes, under_dials
            notes.fit(notes_block, align=UP, floor_px=MIN_XHEIGHT_PX)
        else:
            notes_block = column(lines, scores, gap="wide")
            notes, dial_region = side_notes, side_dials
            notes.fit(notes_block, align=LEFT, floor_px=MIN_XHEIGHT_PX)
        for at, moved in zip(self.where, self.moved):  # where each token is before the shift, in the same place
            at.scale(moved.height / math(moved.typst_code.strip("$ "), size=LABEL).height)
            at.move_to(moved, aligned_edge=LEFT + DOWN)
        # each token's "not rotated yet" where its position comes next: the notes one block, no empty line in them
        self.unrotated = VGroup(*[label("not rotated yet", size=SMALL, color=DIM).move_to(w, aligned_edge=LEFT)
                                  for w in self.at_words])

        # ---- the dials: one per pair, as large as the region allows, q and k in their colours
        r = radius(dial_region)
        self.dials = VGroup(*[PairDial(np.array([d.q_pairs[0, i], d.k_pairs[0, i]]), colors=[QUERY, KEY], radius=r,
                                      roles=["query", "key"])
                              for i in range(P)])
        self.dial_caps = VGroup(*caps)  # the rates; with the pairs' names, the dials' labels
        for dial, cap_row in zip(self.dials, cap_rows):
            cap_row.next_to(dial.face, DOWN, buff=GAP.tight)
        self.dial_labels = VGroup(self.pair_names, self.dial_caps)
        cells = VGroup(*[VGroup(dl, cp) for dl, cp in zip(self.dials, cap_rows)]).arrange(RIGHT, buff=apart)
        dial_region.place(cells, align=DOWN)  # down to the verdicts' strip: the frame's lower third is not left empty
        # how RoPE turns them, written under the dials while they turn (the strip the scores' verdict takes later)
        qs, ks = N.queries.math.lower(), N.keys.math.lower()
        self.turn_rule = worded_line(f"${qs}$ turns by ${N.position.math} theta_i$ and ${ks}$ by "
                                     f"${N.other_position.math} theta_i$", size=LABEL)
        for sym, col, name in zip(self.turn_rule.maths[::2], (QUERY, KEY), ("query", "key")):
            role(sym.set_color(col), name)
        self.turn_rule.move_to([cells.get_x(), self.gap_max_row.get_y(), 0])
        over = max(content.left - self.turn_rule.get_left()[0], 0.0) - max(self.turn_rule.get_right()[0] - content.right, 0.0)
        self.turn_rule.shift(over * RIGHT)  # (a narrow frame: inside the content area)
        # ... and what the shift adds (review round 7: "q turns by m θᵢ" stood while both hands turned by s θᵢ)
        self.shift_rule = worded_line(f"${qs}$ and ${ks}$ both turn a further ${N.shift.math} theta_i$", size=LABEL)
        for sym, col, name in zip(self.shift_rule.maths[:2], (QUERY, KEY), ("query", "key")):
            role(sym.set_color(col), name)
        self.shift_rule.move_to(self.turn_rule)
        over = max(content.left - self.shift_rule.get_left()[0], 0.0) - max(self.shift_rule.get_right()[0] - content.right, 0.0)
        self.shift_rule.shift(over * RIGHT)
        self.arcs = VGroup()

        # ---- part two: one value at a time, what the shift does to its outputs (ΔY) large and centred, its
        # verdict under it; the score's verdict comes back at the close
        scale = self.y_scale = self.d_scale = output_scale(self.cfg)  # ΔY: a difference of outputs, their scale
        self.plain = DeltaView.fitted(content, d.dY_plain, "dY_plain", V_PLAIN_MATH, d.defect_plain, d.s, scale)
        self.rot = DeltaView.fitted(content, d.dY_rot, "dY_rot", V_ROT_MATH, d.defect_rot, d.s, scale)
        # why V is left alone, as a picture: features 0 and 1 of the output at the query's position m, before and
        # after the shift; with V alone the arrows coincide, with V rotated the output turns by s θ₀ (measured)
        self.why = self.why_picture(content)

    def why_picture(self, region) -> VGroup:
        """Two dials side by side, headed by how V is made: the output ``y_m``'s first feature pair before the
        shift (grey) and after it (white); the rotated V's dial marks the angle between them, ``s θ₀`` and its
        measured value, and states the one formula, ``y_m → R_s y_m``.  As large as ``region`` allows."""
        d = self.data
        top = column(label("features 0 and 1", size=LABEL),
                     row(label("of the output", size=LABEL), math("y_m", size=LABEL), label("at", size=LABEL),
                         math(f"m = {d.m}", size=LABEL), gap="small", align="baseline"), gap="tight")
        turn = rounded(numbers.measure(abs(d.turn_angle)))
        rim = float(np.linalg.norm(np.concatenate([d.turn_plain, d.turn_rot]), axis=1).max()) or 1.0  # one scale

        def build(r):
            cells = []
            for k, (head, pts) in enumerate(((V_PLAIN_MATH, d.turn_plain), (V_ROT_MATH, d.turn_rot))):
                dial = OutputTurn(pts[0], pts[1], radius=r, same_tag="before = after", size=SMALL, scale=rim)
                head = math(head, size=LABEL, color=FG)
                if k:  # the dials level, centre with centre, side by side (and their heads apart)
                    prev = cells[0]
                    apart = max(prev.dial.get_right()[0] - prev.dial.center[0] + GAP.wide + dial.center[0]
                                - dial.get_left()[0], (prev[0].width + head.width) / 2 + GAP.wide)
                    dial.shift(prev.dial.center + apart * RIGHT - dial.center)
                cells.append(VGroup(head, dial))
                cells[-1].dial = dial
            heads_y = max(c.dial.get_top()[1] for c in cells) + GAP.normal  # the heads level, over the dials
            for c in cells:
                c[0].move_to([c.dial.center[0], heads_y + c[0].height / 2, 0])
            ang = math(relation(f"{N.shift.math} theta_0", turn) + ' "rad"', size=LABEL, color=FG)  # an angle: its unit
            rule_ = math(f"y'_(m + {N.shift.math}) = R_{N.shift.math} y_m", size=HEADING, color=FG)
            # R_s defined where it is written: the turn RoPE gives every pair for a shift s
            defn = worded_line(f"$R_{N.shift.math}$: turns pair $i$ by ${N.shift.math} theta_i$",
                               size=LABEL, color=DIM)
            notes = column(top, ang, column(rule_, defn, gap="small", align=LEFT), gap="wide",
                           align=LEFT)  # what the dials hold, then what they show
            dials = VGroup(*cells)
            notes.next_to(dials, RIGHT, buff=GAP.wide).set_y(cells[1].dial.center[1])
            pic = VGroup(dials, notes)
            pic.cells, pic.angle_label, pic.rule, pic.top, pic.define = cells, ang, rule_, top, defn
            return pic

        lo, hi = 0.3, 3.0
        for _ in range(10):
            mid_r = (lo + hi) / 2
            g = build(mid_r)
            lo, hi = (mid_r, hi) if g.width <= region.width and g.height <= region.height else (lo, mid_r)
        pic = build(lo)
        region.place(pic)
        return pic

    GHOST = 0.3  # a hand's faint copy where it was before a turn
    GHOST_ARC = 0.6  # an arc's faint copy drawn at this share of the arc's radius

    def ghost(self, dials, arcs=()) -> VGroup:
        """Faint copies of every hand of ``dials`` (and of ``arcs``) where they are now, drawn under them: after a
        turn, the frame shows where each hand came from."""
        # an arc's copy nearer the hub than the arc itself: the angle before and the same angle after read as
        # two arcs, not one ring, where the turn is shorter than the angle (the hands' copies mark which is which)
        g = VGroup(*[h.copy().set_opacity(self.GHOST) for dl in dials for h in dl.hands],
                   *[a.copy().set_stroke(opacity=self.GHOST).scale(self.GHOST_ARC, about_point=dl.center)
                     for a, dl in zip(arcs, dials)])
        self.add(g)
        self.bring_to_back(g)
        return g

    def turn_all(self, stage_from: int, stage_to: int) -> list:
        d = self.data
        return [dial.turn(d.angles[stage_to, :, i] - d.angles[stage_from, :, i]) for i, dial in enumerate(self.dials)]

    # ------------------------------------------------------------------ beats
    # why a beat's frame is emptier than the audit's rule (at most half empty), by part: the frame holds what
    # it must at the largest size the layout allows
    HANDS_WHY = {"empty": "the hands are as large as the width beside the notes (or the height over them) allows: a "
                          "round dial leaves its corners empty, and a pair each is as many dials as the width takes; "
                          "the notes are what the narration reads"}
    VIEW_WHY = {"empty": "one map of ΔY, the beat's one subject, as large as the frame allows: the outputs of a few "
                         "tokens are a tall, narrow map, its title, colour bar and verdict around it"}
    WHY_WHY = {"empty": "two round dials side by side, as large as the height allows: a round dial leaves its "
                        "corners empty"}
    CLOSE_WHY = {"empty": "the takeaway, the scores' verdict and one map of ΔY as tall as the frame allows under "
                          "them; a map of a few tokens is tall and narrow"}

    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        dials = VGroup(self.dials, self.dial_labels)
        # q and k as they come out of X W: one dial per pair
        self.beat("qk", FadeIn(self.dials, lag_ratio=0.1), FadeIn(self.dial_labels), FadeIn(self.dims), FadeIn(self.who),
                  FadeIn(self.unrotated), run_time=1.2, why=self.HANDS_WHY, subject=dials)
        # each turned by its own position: a faint copy of every hand stays where it started
        self.ghosts = self.ghost(self.dials)
        self.beat("rotate", *self.turn_all(0, 1), swap(self.unrotated, VGroup(self.at_words, self.where)),
                  FadeIn(self.turn_rule), run_time=1.8, why=self.HANDS_WHY, subject=VGroup(dials, self.turn_rule))
        # the angle between each q and k is what the score sees
        self.arcs = VGroup(*[dial.angle_arc(0, 1, color=FG) for dial in self.dials])
        self.beat("score", Create(self.arcs), FadeIn(self.score_row), run_time=1.0,
                  why=self.HANDS_WHY, subject=VGroup(dials, self.arcs, self.score_row))
        # slide both tokens by s: both hands of a pair turn alike, and so does the arc between them (faint copies
        # of the hands and arcs stay where they were: the angle before and after, side by side)
        self.remove(self.ghosts)
        self.ghosts = self.ghost(self.dials, self.arcs)
        arc_turns = [Rotate(arc, angle=float(d.angles[2, 0, i] - d.angles[1, 0, i]), about_point=dial.center)
                     for i, (arc, dial) in enumerate(zip(self.arcs, self.dials))]
        self.beat("shift", *self.turn_all(1, 2), *arc_turns,
                  *[swap(a, b) for a, b in zip(self.where, self.moved)], FadeIn(self.shift_line),
                  swap(self.turn_rule, self.shift_rule), run_time=1.8,
                  why=self.HANDS_WHY, subject=VGroup(dials, self.arcs, self.score_row))
        self.beat("same", FadeIn(self.score_shift_row), FadeIn(self.diff_line), Indicate(self.arcs, color=HIGHLIGHT),
                  run_time=1.0, why=self.HANDS_WHY, subject=VGroup(dials, self.arcs, self.score_row, self.score_shift_row))
        # the measured result: the dials step back, the scores and their gaps are the subject
        notes = VGroup(self.dims, self.who, self.at_words, self.moved)  # who sits where steps back; s, m − n stay
        self.beat("gap", dim(self.dials, self.dial_labels, self.arcs, notes), FadeOut(self.ghosts),
                  Succession(FadeOut(self.shift_rule), FadeIn(self.gap_max_row)),
                  run_time=0.8, why=self.HANDS_WHY, subject=VGroup(self.score_row, self.score_shift_row, self.gap_max_row))
        # ---- V: the whole sequence, at positions 0 to T−1 and s to s+T−1; what the shift does to its outputs,
        # one value at a time, large and centred, its verdict under it (the scores' verdict returns at the close)
        part_one = VGroup(self.dials, self.dial_labels, self.arcs, self.who, self.at_words, self.moved, self.shift_line,
                          self.diff_line, self.score_row, self.score_shift_row, self.gap_max_row, self.dims)
        p, r = self.plain, self.rot
        p_view, r_view = (VGroup(*[m for m in v if m is not v.measure]) for v in (p, r))
        self.beat("v_plain", Succession(FadeOut(part_one), FadeIn(p_view)), run_time=1.8, why=self.VIEW_WHY,
                  subject=p.map)
        self.beat("v_plain_measure", FadeIn(p.measure), run_time=0.8, why=self.VIEW_WHY, subject=p.map)
        # why: the map gives way to the picture of one output turning
        self.beat("v_why", Succession(FadeOut(p), FadeIn(self.why)), run_time=1.8, why=self.WHY_WHY, subject=self.why)
        self.beat("v_rot", Succession(FadeOut(self.why), FadeIn(r_view)), run_time=1.6, why=self.VIEW_WHY,
                  subject=r.map)
        self.worst = role(SurroundingRectangle(r.map.cell(*d.worst_rot), color=HIGHLIGHT, buff=0), "highlight")
        self.beat("v_rot_measure", FadeIn(r.measure), Create(self.worst), run_time=0.8, why=self.VIEW_WHY,
                  subject=r.map)
        self.rot_at_measure = r.copy()  # where it stood (the close moves it), its map and axes with it
        self.map_at_measure, self.axes_at_measure = self.rot_at_measure.map, self.rot_at_measure.axes

    # ------------------------------------------------------------------ the close
    def takeaway(self):
        return self.final

    TAKEAWAY_TEXT = "Position belongs in the angle between $q$ and $k$ alone."

    # the takeaway's lines where a phrase ends, fewest first: the widest set that fits beside the map is written
    TAKEAWAY_LINES = (("Position belongs in the angle between $q$ and $k$ alone.",),
                      ("Position belongs in the angle", "between $q$ and $k$ alone."),
                      ("Position belongs", "in the angle between", "$q$ and $k$ alone."))

    def takeaway_words(self, width: float) -> VGroup:
        """The takeaway written at the heading size in as few lines as fit ``width`` (left-aligned, broken where
        a phrase ends), q in orange and k in blue.  ``.words``, ``.maths`` and ``.source`` as one
        :func:`worded_line` gives them."""
        for lines in self.TAKEAWAY_LINES:
            made = [worded_line(ln, size=HEADING) for ln in lines]
            if max(m.width for m in made) <= width:
                break
        g = column(*made, gap="tight")
        g.lines = made
        g.words = [w for m in made for w in m.words]
        g.maths = [x for m in made for x in m.maths]
        g.source = " ".join(m.source for m in made)
        for sym, col, name in zip(g.maths, (QUERY, KEY), ("query", "key")):  # q and k in their colours
            role(sym.set_color(col), name)
        return g

    def close_picture(self, cell: float, width: float, beside: bool = True) -> VGroup:
        """The close at map cells of ``cell``, at most ``width`` wide: its picture, one subject, what the shift does
        to the outputs with V rotated, ΔY, titled by how V is made, its colour bar beside it, its verdict
        "(s = 2)" under it; the takeaway written beside it (``beside``: a map of many rows) or over it, at the heading
        size; under the map's verdict, its mark under the ✗, the verdict on the scores (review round 10: two small
        maps side by side under the words read as a dashboard; V left alone had its map and its verdict at
        v_plain_measure)."""
        d = self.data
        score = self.gap_max_row.copy()
        block = DeltaView(d.dY_rot, "dY_rot", V_ROT_MATH, d.defect_rot, d.s, self.d_scale, cell, compact=True)
        if beside:  # a map of many rows: the words beside it, level with its middle
            words = self.takeaway_words(width - block.width - GAP.section)
            top = row(block, words, gap="section", align="center")
            words.set_y(block.map.get_y())
        else:  # a wide map of few rows: the words over it, the map's cells centred under them
            words = self.takeaway_words(width)
            top = column(words, block, gap="wide", align=np.zeros(3))
            block.shift((words.get_x() - block.map.get_x()) * RIGHT)
        # the verdicts one under the other, their marks in one column: the map's (V rotated: ✗), V left alone's
        # (✓: the title's "not V", review round 10 missed it once its map had gone), then the scores'
        plain = worded_verdict(f"$V$ left alone: ${shift_lhs(d.s)}$", rounded(numbers.measure(d.defect_plain)),
                               passed(d.defect_plain), relation="")
        plain.next_to(block.measure, DOWN, buff=GAP.normal).align_to(block.measure, LEFT)
        score.next_to(plain, DOWN, buff=GAP.normal).align_to(block.measure, LEFT)
        pic = VGroup(top, plain, score)
        pic.words, pic.score, pic.block, pic.plain = words, score, block, plain
        return pic

    TAKEAWAY_FILL = 0.95  # the close's picture may fill this share of the content area

    def closing(self) -> None:
        """The takeaway, written, over its proof: the scores agree over every shift (the angle between q and k is
        all they see), and a rotated V moves the outputs (✗, the cell that moved most boxed): the rotated V's map
        and its verdict move into the picture, as large as the frame allows under the words; the rest comes in."""
        region = self.layout.content
        W, H = region.width * self.TAKEAWAY_FILL, region.height * self.TAKEAWAY_FILL
        best = None
        for beside in (True, False):  # the words beside the map or over it: the larger map wins
            lo, hi = 0.05, self.rot.cell_size  # the largest cells whose picture fits, no larger than the body's
            for _ in range(10):
                mid = (lo + hi) / 2
                pic = self.close_picture(mid, W, beside)
                lo, hi = (mid, hi) if pic.width <= W and pic.height <= H else (lo, mid)
            if best is None or lo > 1.02 * best[0]:
                best = (lo, beside)
        self.close_beside = best[1]
        pic = self.close_picture(best[0], W, best[1])
        r, b = self.rot, pic.block
        box = role(SurroundingRectangle(b.map.cell(*self.data.worst_rot), color=HIGHLIGHT, buff=0), "highlight")
        pic.add(box)
        parts = [(r.title, b.title), (r.map, b.map), (r.axes, b.axes), (self.worst, box), (r.bar, b.bar),
                 (r.measure, b.measure)]
        new = [pic.words, pic.plain, pic.score]
        anims = end_on(self, parts, pic, new=new)
        self.final = VGroup(*[p for p, _ in parts], *new)
        self.close_maps, self.close_words, self.close_score = [r.map], pic.words, pic.score
        self.close_plain = pic.plain
        self.close_moved = r.measure
        self.close_measures = [r.measure]
        self.close_blocks = [r]  # its map, axes and verdict where the close put them
        self.beat(self.closing_key(), *anims, run_time=1.4, hold=self.CLOSING_HOLD, subject=self.final,
                  why=self.CLOSE_WHY)
