"""11 ``RoPERotatesQK`` (Q3): rotate q by position m and k by n; shift both by the same s and the
score is unchanged (measured over every shift up to ``s_max``); V is not rotated because it
carries content, not position (why, in two lines); a rotated V makes the outputs of a shifted
sequence change (measured).  The clip ends on the three measured lines.

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
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    Rotate,
    Succession,
    SurroundingRectangle,
    Transform,
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
from scenes.clips.c11_widgets import PairDial
from scenes.figures.rope import (
    SCORE_DIGITS,
    V_PLAIN_MATH,
    V_ROT_MATH,
    output_gap_lhs,
    output_scale,
    positions_text,
    relation,
    score_gap_lhs,
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
    VALUE,
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
from scenes.kit.compose import GAP, column, end_on, row, titled
from scenes.kit.layout import FIT_PASSES
from scenes.kit.notation import N
from scenes.kit.proofs import measured_line


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
    defect_plain: float
    defect_rot: float
    cmap: str
    q_token: int
    k_token: int
    worst_rot: tuple[int, int]  # (token, feature) of the output a rotated V moves most: |ΔY| there is defect_rot


class OutputPair(VGroup):
    """One value's outputs, before and after the shift: ``head`` (how V is made), the two maps
    (``maps[0]`` at positions 0 to T−1, ``maps[1]`` at s to s+T−1, each titled with its positions
    and bound to its quantity), the colour ``bar`` and ``measure`` (the measured ``max |ΔY|``)."""

    def __init__(self, Ya, Yb, quantities: tuple[str, str], head: str, defect: float, s: int, scale, cell: float):
        super().__init__()
        T = Ya.shape[0]
        self.head = math(head, size=LABEL, color=FG)
        self.maps, titled_maps = [], []
        for Y, q, first in zip((Ya, Yb), quantities, (0, s)):
            hm = shows(Heatmap(Y, scale, cell_size=cell), q)
            self.maps.append(hm)
            titled_maps.append(titled(hm, names(label(positions_text(first, T), size=SMALL, color=DIM), q)))
        self.pair = row(*titled_maps, gap="normal", align="bottom")
        self.bar = ColorBar(scale, height=T * cell)
        self.measure = measured_line(output_gap_lhs(), defect)
        self.body = row(self.pair, self.bar, gap="normal", align="bottom")
        self.add(row(self.head, column(self.body, self.measure, gap="small", align=np.zeros(3)), gap="wide"))
        self.cell_size = cell

    @classmethod
    def fitted(cls, region, *args) -> OutputPair:
        """The pair with the largest cells that fit ``region``, centred in it."""
        g = cls(*args, 1.0)
        for _ in range(FIT_PASSES):
            T, d = g.maps[0].values.shape
            ow, oh = g.width - 2 * d * g.cell_size, g.height - T * g.cell_size
            g = cls(*args, min((region.width - ow) / (2 * d), (region.height - oh) / T, 1.0))
        if g.width > region.width + 1e-6 or g.height > region.height + 1e-6:
            raise LayoutError(f"the outputs do not fit region {region.name!r}")
        return region.place(g)


class RoPERotatesQK(ClipScene):
    """11 · RoPE rotates q and k, and leaves V alone."""

    S = 3  # the shift
    S_MAX = 1000  # shifts measured: every s from 1 to S_MAX

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
            worst_rot=tuple(int(x) for x in np.unravel_index(np.argmax(np.abs(outs[True, s] - outs[True, 0])),
                                                             outs[True, 0].shape)),
        )

    def caption_values(self) -> dict:
        d = self.data
        T = d.Y_plain.shape[0]
        return {
            "m": d.m, "n": d.n, "s": d.s, "ms": d.m + d.s, "ns": d.n + d.s, "diff": d.m - d.n,
            "s_max": numbers.count(d.s_max).text, "d": d.q.size, "pairs": d.q.size // 2, "T": T, "T1": T - 1,
            "sT": d.s + T - 1, "qa": d.q_token, "kb": d.k_token,
            "score": numbers.measure(d.score, SCORE_DIGITS).text,
            "score_shifted": numbers.measure(d.score_shifted, SCORE_DIGITS).text,
            "gap": numbers.measure(d.score_gap).text, "gap_max": numbers.measure(d.score_gap_max).text,
            "defect_plain": numbers.measure(d.defect_plain).text, "defect_rot": numbers.measure(d.defect_rot).text,
            "worst_token": d.worst_rot[0], "worst_feature": d.worst_rot[1],
        }

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
        for sym, col, what, tok, pos, pos_now in (
                (N.queries.math.lower(), QUERY, "query of token", d.q_token, N.position.math, (d.m, d.m + d.s)),
                (N.keys.math.lower(), KEY, "key of token", d.k_token, N.other_position.math, (d.n, d.n + d.s))):
            # laid out with where the token is after the shift (the wider figure); before it, the same place
            words = row(label(f"{what} {tok},", size=LABEL), label("at", size=SMALL, color=DIM),
                        math(f"{pos} + {N.shift.math} = {pos_now[1]}", size=LABEL, color=col), gap="small",
                        align="baseline")
            rows.append(row(math(sym, size=LABEL, color=col), words, gap="small"))
            self.who.add(VGroup(rows[-1][0], words[0]))
            self.at_words.add(words[1])
            self.moved.add(words[2])
            self.where.add(math(f"{pos} = {pos_now[0]}", size=LABEL, color=col))
        self.shift_line = math(f"{N.shift.math} = {d.s}", size=LABEL)
        self.diff_line = math(f"{N.offset.math} = {d.m - d.n}", size=LABEL)
        lines = column(*rows, row(self.shift_line, self.diff_line, gap="wide", align="baseline"), gap="small")
        x_at = max(w.get_left()[0] for w in self.at_words)  # "at" in one column
        for w, moved in zip(self.at_words, self.moved):
            VGroup(w, moved).shift((x_at - w.get_left()[0]) * RIGHT)
        self.score_row = figure(numbers.measure(d.score, SCORE_DIGITS), prefix=f'"score"({d.m}, {d.n}) =')
        self.score_shift_row = figure(numbers.measure(d.score_shifted, SCORE_DIGITS),
                                      prefix=f'"score"({d.m + d.s}, {d.n + d.s}) =')
        self.gap_row = measured_line('Delta "score"', d.score_gap)
        self.gap_max_row = measured_line(score_gap_lhs(d.s_max), d.score_gap_max)
        scores = column(self.score_row, self.score_shift_row, self.gap_row, self.gap_max_row, gap="small")
        notes, dial_region = content.take_bottom(max(lines.height, scores.height), gap=GAP.normal)
        left, right = notes.columns(lines.width, scores.width, gap=GAP.wide)
        left.fit(lines, align=LEFT + UP)
        right.fit(scores, align=LEFT + UP)
        for at, moved in zip(self.where, self.moved):  # where each token is before the shift, in the same place
            at.scale(moved.height / math(moved.typst_code.strip("$ "), size=LABEL).height)
            at.move_to(moved, aligned_edge=LEFT + DOWN)
        self.unrotated = label("not rotated yet", size=SMALL, color=DIM)
        self.unrotated.move_to(VGroup(self.at_words, self.where), aligned_edge=LEFT)

        # ---- the dials: one per pair, as large as the region allows, q and k in their colours
        caps = [math(relation(f"theta_{i}", theta_figure(d.theta[i])), size=SMALL, color=DIM) for i in range(P)]
        cap_h = max(c.height for c in caps) + GAP.tight
        r = min((dial_region.width - (P - 1) * GAP.wide) / P, dial_region.height - cap_h) / 2
        self.dials = VGroup(*[PairDial(np.array([d.q_pairs[0, i], d.k_pairs[0, i]]), colors=[QUERY, KEY], radius=r)
                              for i in range(P)])
        self.dial_caps = VGroup()
        for dial, cap in zip(self.dials, caps):
            self.dial_caps.add(cap.next_to(dial.face, DOWN, buff=GAP.tight))
        cells = VGroup(*[VGroup(dl, cp) for dl, cp in zip(self.dials, self.dial_caps)]).arrange(RIGHT, buff=GAP.wide)
        dial_region.place(cells)
        self.arcs = VGroup()

        # ---- part two: the measured lines gather at the top (a ledger); one value's outputs at a time below
        self.line_h = max(self.gap_max_row.height, row(math(V_ROT_MATH), measured_line(output_gap_lhs(), d.defect_rot)).height)
        one, plain_region = content.take_top(self.line_h, gap=GAP.normal)
        self.ledger, rot_region = content.take_top(2 * self.line_h + GAP.tight, gap=GAP.normal)
        scale = self.y_scale = output_scale(d)
        self.plain = OutputPair.fitted(plain_region, d.Y_plain, d.Y_plain_shifted, ("Y_plain", "Y_plain_shifted"),
                                       V_PLAIN_MATH, d.defect_plain, d.s, scale)
        self.rot = OutputPair.fitted(rot_region, d.Y_rot, d.Y_rot_shifted, ("Y_rot", "Y_rot_shifted"),
                                     V_ROT_MATH, d.defect_rot, d.s, scale)
        self.y_maps = [self.plain.maps, self.rot.maps]
        # why V is left alone: the rotated query and key meet as m − n; the values are mixed as they are
        q, k, v = N.query.math, N.key.math, N.value.math
        self.why = column(
            math(f"(R_m {{{{ {q} : q1 }}}})^T (R_n {{{{ {k} : k1 }}}}) = {{{{ {q}^T : q2 }}}} R_(n - m) {{{{ {k} : k2 }}}}",
                 size=HEADING),
            math(f"y_m = sum_n a_(m n) {{{{ {v} : v }}}}", size=HEADING), gap="wide", align=np.zeros(3))
        for line, groups in zip(self.why, (("q1", "k1", "q2", "k2"), ("v",))):
            for g in groups:
                line.select(g).set_color({"q": QUERY, "k": KEY, "v": VALUE}[g[0]])
        rot_region.fit(self.why)

    def turn_all(self, stage_from: int, stage_to: int) -> list:
        d = self.data
        return [dial.turn(d.angles[stage_to, :, i] - d.angles[stage_from, :, i]) for i, dial in enumerate(self.dials)]

    def to_ledger(self, mobs, slot: int) -> list:
        """``mobs`` (on screen) moved side by side into ledger line ``slot`` (scaled down to the line's
        height if taller): the measured lines gather at the top of part two."""
        line = row(*[m.copy() for m in mobs], gap="wide", align="baseline")
        if line.height > self.line_h:
            line.scale(self.line_h / line.height)
        line.move_to(self.ledger.point(LEFT + UP), aligned_edge=LEFT + UP).shift(slot * (self.line_h + GAP.tight) * DOWN)
        return [Transform(m, t) for m, t in zip(mobs, line)]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        # q and k as they come out of X W: one dial per pair
        self.beat("qk", FadeIn(self.dials, lag_ratio=0.1), FadeIn(self.dial_caps), FadeIn(self.who),
                  FadeIn(self.unrotated), run_time=1.2)
        # each turned by its own position
        self.beat("rotate", *self.turn_all(0, 1), swap(self.unrotated, VGroup(self.at_words, self.where)), run_time=1.8)
        # the angle between each q and k is what the score sees
        self.arcs = VGroup(*[dial.angle_arc(0, 1, color=FG) for dial in self.dials])
        self.beat("score", Create(self.arcs), FadeIn(self.score_row), run_time=1.0)
        # slide both tokens by s: both hands of a pair turn alike, and so does the arc between them
        arc_turns = [Rotate(arc, angle=float(d.angles[2, 0, i] - d.angles[1, 0, i]), about_point=dial.center)
                     for i, (arc, dial) in enumerate(zip(self.arcs, self.dials))]
        self.beat("shift", *self.turn_all(1, 2), *arc_turns,
                  *[swap(a, b) for a, b in zip(self.where, self.moved)], FadeIn(self.shift_line), run_time=1.8)
        self.beat("same", FadeIn(self.score_shift_row), FadeIn(self.diff_line), Indicate(self.arcs, color=HIGHLIGHT),
                  run_time=1.0)
        self.beat("gap", FadeIn(self.gap_row), FadeIn(self.gap_max_row), run_time=0.8)
        # ---- V: the whole sequence, at positions 0 to T−1 and s to s+T−1; part one leaves, its result stays
        part_one = VGroup(self.dials, self.dial_caps, self.arcs, self.who, self.at_words, self.moved, self.shift_line,
                          self.diff_line, self.score_row, self.score_shift_row, self.gap_row)
        p, r = self.plain, self.rot
        self.beat("v_plain", Succession(FadeOut(part_one), AnimationGroup(*self.to_ledger([self.gap_max_row], 0)),
                                        AnimationGroup(FadeIn(p.head), FadeIn(p.body))), run_time=1.8)
        self.beat("v_plain_measure", FadeIn(p.measure), run_time=0.8)
        # why: the maps give way to the two lines that say it; V alone and its measure join the ledger
        self.beat("v_why", Succession(FadeOut(p.body), AnimationGroup(*self.to_ledger([p.head, p.measure], 1)),
                                      FadeIn(self.why)), run_time=1.8)
        self.beat("v_rot", Succession(FadeOut(self.why), AnimationGroup(FadeIn(r.head), FadeIn(r.body))), run_time=1.6)
        worst = [SurroundingRectangle(hm.cell(*d.worst_rot), color=HIGHLIGHT, buff=0) for hm in r.maps]
        self.beat("v_rot_measure", FadeIn(r.measure), *[Create(b) for b in worst], run_time=0.8)

    # ------------------------------------------------------------------ the close
    def takeaway(self):
        return VGroup(self.gap_max_row, self.plain.head, self.plain.measure, self.rot.head, self.rot.measure)

    def bring_forward(self, take, region=None) -> list:
        """The three measured lines, large: the scores agree over every shift, V alone keeps the
        outputs, a rotated V moves them."""
        gap, ph, pm, rh, rm = take
        lines = [gap.copy(), row(ph.copy(), pm.copy(), gap="wide", align="baseline"),
                 row(rh.copy(), rm.copy(), gap="wide", align="baseline")]
        picture = column(*lines, gap="normal")
        for line in lines[1:]:  # the measures in one column
            line[1].align_to(lines[2][1], LEFT)
        pairs = [(gap, lines[0]), (ph, lines[1][0]), (pm, lines[1][1]), (rh, lines[2][0]), (rm, lines[2][1])]
        return end_on(self, pairs, picture)

