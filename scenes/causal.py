"""Causal clips, as storyboards (the picture description they share with their stills is in
``scenes/figures/causal.py``: scales, code, proofs; the widgets are in ``scenes/kit/proofs.py``).

03 ``CausalMask`` (§3): the score heatmap S; the three lines of code; the mask; the future
masked one diagonal at a time to −∞; softmax row by row turns every −∞ into an exact 0 in the
same cells; self-attention and causal attention side by side.  Ends on the causal map with its
two proofs: every row sums to 1 (measured) and every weight above the diagonal is exactly 0.

04 ``PrefixInvariance`` (§4): the causal pass on all T tokens and on the first T−1; the prefix
rows slide onto the full rows and land on the same numbers.  Then, one subject a frame: the
defect of every prefix on a log axis (the fixed order's exact zeros on the floor); one output
entry's 64 bits from both passes, equal bit for bit; the BLAS matmul kernel's honest
≈ 10⁻¹⁶ and the last bits it changes; why (float sums depend on their order).  Ends on the
full outputs with ``max_t |Y_full[:t] − Attn(X[:t])| = 0``, exact.

05 ``KVCache`` (§4, Q2): decoding token by token into empty cache slots (one new key and
value a step, only the new query computed), each output row checked against a full
recompute; then bidirectional attention, where appending a token moves every past output
(measured per row on a log axis).  One colour scale for every cell of the clip.  Ends on the
two measured results: cached = recompute, exactly; bidirectional rows move by at least the
measured amount.

Render directly with ``manim -ql scenes/causal.py CausalMask`` (or PrefixInvariance, KVCache).
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
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    Indicate,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from mathcore import (
    KVCacheTrace,
    attention_fn,
    bidirectional_staleness,
    kv_cache_decode,
    lecture_inputs,
    prefix_defects,
    prefix_invariance_max_defect,
    self_attention_trace,
)
from mathcore.causal import (
    SUM_ORDER_EXAMPLE,
    above_diagonal_max,
    append_change,
    float_sum_orders,
    mask_sweep,
    prefix_outputs,
    row_sum_defect,
    row_sums,
)
from mathcore.causal_bits import float_bits, prefix_entry_pair, worst_prefix_entry
from mathcore.config import LectureConfig
from scenes.figures.causal import (
    CAUSAL_CODE,
    MN,
    NN,
    T_,
    Y_FULL,
    Y_PREFIX,
    M,
    kv_proofs,
    kv_scales,
    mask_proofs,
    mask_scales,
    prefix_proofs,
    prefix_scales,
    upto,
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
    VERIFIED,
    ClipScene,
    ColorBar,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    swap,
)
from scenes.kit.binding import names, shows
from scenes.kit.proofs import (
    BitPair,
    CodePanel,
    DecodeBoard,
    DefectPlot,
    Dim,
    ExactHeatmap,
    Reveal,
    StaleChart,
    check_mark,
    frame_row,
    hide,
    morph_cells,
    proof_line,
    restage,
    row_names,
    row_parts,
    row_slots,
    settle,
    staircase_outline,
    tint,
    value_map,
)
from scenes.kit.compose import DIMMED, GAP, column, reveal, row, titled
from scenes.kit.layout import Region, fit_label
from scenes.kit.numbers import tick
from scenes.kit.widgets import Heatmap


def _each(xs) -> str:
    """Caption text of a list of indices: ``0, 2 and 3``."""
    xs = [str(x) for x in xs]
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


# ====================================================================== 03 CausalMask
@dataclass(frozen=True)
class CausalMaskData:
    """What clip 03 draws, all from ``self_attention_trace`` on the lecture inputs."""

    scaled: np.ndarray  # (T, T) S = Q Kᵀ / √d
    mask: np.ndarray  # (T, T) bool, causal_mask(T)
    sweep: tuple[np.ndarray, ...]  # mask_sweep stages: diagonal k masked in stage k
    masked: np.ndarray  # (T, T) S with the future at -inf
    weights: np.ndarray  # (T, T) causal A
    weights_self: np.ndarray  # (T, T) self-attention A (no mask)
    row_sums: np.ndarray  # (T,) Σ_n A_mn of the causal A
    row_sum_defect: float  # max_m |Σ_n A_mn − 1|
    upper_max: float  # max A_mn over n > m (exactly 0.0)
    cmap_weights: str
    cmap_signed: str


class CausalMask(ClipScene):
    """03 · The causal mask: −∞ above the diagonal, exact zeros after softmax."""

    TIDY_PLAYS = True

    MAX_CELL = 1.8  # the big map's cells, at most (few tokens: larger cells)
    PAIR_CELL = 1.4  # the side-by-side maps' cells, at most
    MAP_SHARE = 0.95  # the closing picture fills this share of the content (the causal map its height)

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> CausalMaskData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
        tr_self = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=False)
        return CausalMaskData(
            scaled=tr.scaled, mask=tr.mask, sweep=tuple(mask_sweep(tr.scaled, tr.mask)), masked=tr.masked,
            weights=tr.weights, weights_self=tr_self.weights, row_sums=row_sums(tr.weights),
            row_sum_defect=row_sum_defect(tr.weights), upper_max=above_diagonal_max(tr.weights),
            cmap_weights=cfg.cmap_weights, cmap_signed=cfg.cmap_signed,
        )

    def scales(self) -> dict:
        return mask_scales(self.data)

    def caption_values(self) -> dict:
        d = self.data
        T = d.scaled.shape[0]
        score = self.scales()["scaled"]
        return {"T": T, "last": T - 1, "row_sum_defect": fmt_measure(d.row_sum_defect),
                "upper_max": fmt_measure(d.upper_max), "masked": T * (T - 1) // 2,
                "score_lo": tick(score.vmin), "score_hi": tick(score.vmax)}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        """The first picture: the code top left, notes under it, the big map on the right."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        sc = self.scales()
        self.score_scale, self.weight_scale = sc["scaled"], sc["weights"]

        self.code = CodePanel(CAUSAL_CODE)
        left, right = C.take_left(self.code.width, gap=GAP.wide)
        left.place(self.code, UP)
        notes = left.below(self.code, gap=GAP.wide)

        # the colour bar under the notes, named on its left: the scores' scale, later the weights'
        def bar(scale, name):
            title = math(name, size=LABEL)
            return row(title, ColorBar(scale, height=left.width - title.width - GAP.section, horizontal=True))

        self.S_bar, self.A_bar = bar(self.score_scale, f"S_({MN})"), bar(self.weight_scale, f"A_({MN})")
        bar_strip, notes = notes.take_bottom(max(self.S_bar.height, self.A_bar.height), gap=GAP.normal)
        for b in (self.S_bar, self.A_bar):
            settle(bar_strip, b, DOWN)

        # the big map: scores, then weights in the same cells; row indices left, column indices
        # above, the causal rows' sums right of it
        sum_w = label("1.00", size=SMALL).width + GAP.normal
        idx = label("0", size=SMALL)
        block = Region(right.left + idx.width + GAP.normal, right.right - sum_w, right.bottom,
                       right.top - idx.height - GAP.normal, "map")
        cell = min(block.width / T, block.height / T, self.MAX_CELL)
        self.S_map = shows(value_map(d.scaled, self.score_scale, cell, cell, decimals=1, size=HEADING,
                                     cls=ExactHeatmap), "scaled")
        block.place(self.S_map, UP)
        self.big_map_size = (self.S_map.width, self.S_map.height)  # the subject of the first beats
        self.row_idx = self.S_map.index_labels("rows")
        self.col_idx = self.S_map.index_labels("cols")
        self.sum_labels = VGroup(*[
            label(fmt_value(s, 2), size=SMALL, color=VERIFIED).next_to(self.S_map.cell(i, T - 1), RIGHT,
                                                                       buff=GAP.small)
            for i, s in enumerate(d.row_sums)])
        self.sum_head = math("Sigma", size=LABEL, color=VERIFIED).move_to(
            [self.sum_labels.get_center()[0], self.col_idx.get_center()[1], 0])

        # notes, each as large as the notes region allows
        q, k = tint(f"q_{M}", QUERY), tint(f"k_{NN}", KEY)
        self.S_note = column(math(f"S_({MN}) = ({q} dot {k}) / sqrt(d)", size=HEADING),
                             math(f'"row" {M}": query" {q}', size=LABEL, color=DIM),
                             math(f'"column" {NN}": key" {k}', size=LABEL, color=DIM), align=ORIGIN)
        settle(notes, self.S_note)
        self.mask_name = names(mono("mask", size=LABEL), "mask")
        self.mask_note = label("1 = may attend", size=SMALL, color=DIM)
        note_strip, mask_region = notes.take_bottom(self.mask_note.height, gap=GAP.small)
        _, mask_region = mask_region.take_left(self.mask_name.width, gap=GAP.normal)
        self.mask_map = shows(Heatmap.fitted(d.mask.astype(float), self.weight_scale, mask_region, show_values=True,
                                             decimals=0), "mask")
        self.mask_name.next_to(self.mask_map, LEFT, buff=GAP.normal)
        self.mask_note.next_to(self.mask_map, DOWN, buff=GAP.small)
        self.mask_group = VGroup(self.mask_name, self.mask_map, self.mask_note)
        notes.place(self.mask_group)
        self.exp_note = column(math(f"A_({MN}) = exp(S_({MN})) / (sum_({NN}' <= {M}) exp(S_({M} {NN}')))", size=LABEL),
                               math("e^(-infinity) = 0", size=LABEL), gap="wide", align=ORIGIN)
        settle(notes, self.exp_note)

    def side_by_side_layout(self) -> None:
        """The last picture: self-attention and causal attention side by side, a colour bar, the two
        measured proofs underneath."""
        d = self.data
        T = d.scaled.shape[0]
        C = self.layout.content
        p_sum, p_zero = mask_proofs(d)
        self.proof_sum = proof_line(p_sum.formula, p_sum.value, size=HEADING, passed=p_sum.passed)
        self.proof_zero = proof_line(p_zero.formula, p_zero.value, size=HEADING, passed=p_zero.passed)
        proofs = row(self.proof_sum, self.proof_zero, gap="section")
        proof_strip, top = C.take_bottom(proofs.height, gap=GAP.wide)
        settle(proof_strip, proofs)
        self.sum_value, self.zero_value = self.proof_sum.value, self.proof_zero.value

        self.self_title = names(label("self-attention", size=LABEL), "weights_self")
        self.causal_title = names(label("causal attention", size=LABEL), "weights")
        self.arrow_note = label("mask", size=SMALL, color=DIM)
        self.pair_bar_title = names(math(f"A_({MN})", size=LABEL), "weights")
        arrow_w = self.arrow_note.width + GAP.section
        bar_w = ColorBar(self.weight_scale).width + self.pair_bar_title.width
        title_h = self.self_title.height + GAP.small
        cell = min((top.height - title_h) / T, (top.width - arrow_w - bar_w - 2 * GAP.wide) / (2 * T), self.PAIR_CELL)
        self.self_map = shows(Heatmap(d.weights_self, self.weight_scale, cell_size=cell), "weights_self")
        self.A_small = shows(Heatmap(d.weights, self.weight_scale, cell_size=cell), "weights")
        maps = row(titled(self.self_map, self.self_title), titled(self.A_small, self.causal_title), gap=arrow_w,
                   align="bottom")
        self.pair_bar = ColorBar(self.weight_scale, height=T * cell - self.pair_bar_title.height - GAP.small)
        self.pair_bar.next_to(self.A_small, RIGHT, buff=GAP.normal).align_to(self.A_small, DOWN)
        self.pair_bar_title.next_to(self.pair_bar.frame, UP, buff=GAP.small)
        top.place(VGroup(maps, self.pair_bar, self.pair_bar_title), DOWN)
        self.mask_arrow = Arrow(self.self_map.get_right(), self.A_small.get_left(), buff=GAP.normal, color=DIM,
                                stroke_width=4)
        self.arrow_note.next_to(self.mask_arrow, UP, buff=GAP.tight)
        self.zero_outline = staircase_outline(self.A_small, upper=True)
        self.pair_height, self.pair_center = self.A_small.height, self.A_small.get_center().copy()

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.scaled.shape[0]
        S = self.S_map

        hide(S)
        self.add(S)
        self.beat("scores", FadeIn(self.S_note), FadeIn(self.col_idx), FadeIn(self.row_idx),
                  FadeIn(names(self.S_bar[0], "scaled")),
                  FadeIn(self.S_bar[1]), Reveal(S, [row_parts(S, i) for i in range(T)], shift=GAP.small * LEFT),
                  run_time=1.6)
        # the code is the subject: the map steps back while it arrives
        back = [S, self.row_idx, self.col_idx, self.S_bar]
        self.beat("code", FadeIn(self.code, shift=GAP.normal * RIGHT), Dim(back, DIMMED), run_time=1.0)

        # line 1: the mask, drawn beside the code and outlined on the map
        allowed = staircase_outline(S)
        self.beat("mask", self.code.focus(0), swap(self.S_note, self.mask_group), Dim(back, 1),
                  Create(allowed), run_time=1.4)

        # line 2: the future, one diagonal at a time, to -inf (the printed values are swapped, never morphed)
        steps = []
        self.sweep_shown = []  # the arrays the heatmap was animated through, in order
        for k in range(1, T):
            self.sweep_shown.append(d.sweep[k])
            cells = [(i, i + k) for i in range(T - k)]
            flash = VGroup(*[SurroundingRectangle(S.cell(i, j), color=HIGHLIGHT, buff=0, stroke_width=4)
                             for i, j in cells])
            steps.append(Succession(FadeIn(flash), morph_cells(S, d.sweep[k], cells), FadeOut(flash)))
        shows(S, "masked")
        names(self.S_bar[0], "masked")
        self.sweep_values, self.sweep_scale = S.values, S.color_scale  # what the map shows once the sweep is done
        self.sweep_texts = [t.text for t in S.labels]
        self.play(self.code.focus(1), run_time=0.5)
        self.beat("sweep", Succession(*steps), run_time=0.75 * (T - 1))

        # line 3: softmax, row by row: the same cells turn from scores into weights
        names(self.A_bar[0], "weights")
        self.play(self.code.focus(2), swap(self.mask_group, self.exp_note), FadeOut(allowed),
                  swap(self.S_bar, self.A_bar), run_time=0.8)
        S.repaint_with(self.weight_scale, decimals=2)
        rows = [AnimationGroup(morph_cells(S, d.weights, [(i, j) for j in range(T)]),
                               FadeIn(self.sum_labels[i], shift=GAP.tight * LEFT)) for i in range(T)]
        shows(S, "weights")
        self.A_map = S
        self.A_map_printed = list(S.labels)  # the weight labels as printed (row-major)
        self.beat("softmax", FadeIn(self.sum_head), LaggedStart(*rows, lag_ratio=0.6), run_time=0.6 * T + 0.6)
        zeros = staircase_outline(S, upper=True)
        self.beat("zeros", Create(zeros), Indicate(self.exp_note[1], color=VERIFIED), run_time=1.0)

        # side by side, with the proofs
        self.side_by_side_layout()
        self.play(FadeOut(zeros), FadeOut(self.exp_note), FadeOut(self.sum_labels), FadeOut(self.sum_head),
                  FadeOut(self.row_idx), FadeOut(self.col_idx), FadeOut(S.labels), FadeOut(self.code),
                  FadeOut(self.A_bar), run_time=0.6)
        S.remove(S.labels)
        target = self.A_small.copy()
        self.beat("side_by_side", AnimationGroup(ReplacementTransform(S, target), FadeIn(self.causal_title)),
                  reveal([self.self_title, self.self_map, self.arrow_note, self.pair_bar, self.pair_bar_title]),
                  GrowArrow(self.mask_arrow), run_time=1.6)
        self.remove(target)
        self.add(self.A_small)
        self.beat("proof_sum" if d.row_sum_defect != 0.0 else "proof_sum_exact", FadeIn(self.proof_sum, shift=UP * GAP.small),
                  run_time=0.8)
        self.beat("proof_zero", FadeIn(self.proof_zero, shift=UP * GAP.small), Create(self.zero_outline), run_time=1.0)

    # ------------------------------------------------------------------ the takeaway
    def closing_parts(self) -> list:
        return [VGroup(self.A_small, self.zero_outline, self.causal_title), VGroup(self.pair_bar, self.pair_bar_title),
                self.proof_sum, self.proof_zero]

    def takeaway(self):
        """The causal map with its zeros outlined, its colour bar, and the two measured proofs."""
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        C = self.layout.content

        def picture(p):  # the map large on the left, the proofs stacked on its right at label size
            causal = row(p[0], p[1]).scale_to_fit_height(C.height * self.MAP_SHARE)
            proofs = column(p[2], p[3], gap="wide").scale(LABEL / HEADING)
            return row(causal, proofs, gap="section")

        return restage(self, self.closing_parts(), picture, C, fill=self.MAP_SHARE)


# ====================================================================== 04 PrefixInvariance
@dataclass(frozen=True)
class PrefixInvarianceData:
    """What clip 04 draws: causal outputs on all T tokens and on the first T−1, the prefix defects
    for both kernels (``prefix_defects``), measured on the same ``X``, and one output entry's bits."""

    X: np.ndarray  # (T, d)
    Y_full: np.ndarray  # (T, d) causal attention on X
    Y_prefix: np.ndarray  # (T-1, d) causal attention on X[:T-1]
    defects_fixed: np.ndarray  # (T,) entry t-1: max |Y_full[:t] − Attn(X[:t])|, fixed-order kernel
    max_fixed: float
    defects_blas: np.ndarray  # (T,) the same with kernel="blas" (plain matmul)
    max_blas: float
    sum_terms: tuple[float, float, float]
    sum_orders: tuple[float, float]  # ((a+b)+c, a+(b+c))
    cmap_signed: str
    entry: tuple[int, int, int]  # (t, i, j): where the BLAS kernel's prefix defect is largest (worst_prefix_entry)
    fixed_bits: np.ndarray  # (2, 64): that entry's bits from the full pass and the prefix pass, fixed order
    blas_bits: np.ndarray  # (2, 64): the same with the BLAS kernel


class PrefixInvariance(ClipScene):
    """04 · Prefix invariance: the prefix's outputs are the full outputs' first rows, bitwise."""

    TIDY_PLAYS = True

    MAX_CELL_W, MAX_CELL_H = 1.6, 1.25  # output maps' cells, at most (wide: they print two decimals)

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PrefixInvarianceData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
        blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
        df, db = prefix_defects(fixed, li.X), prefix_defects(blas, li.X)
        entry = worst_prefix_entry(blas, li.X)
        return PrefixInvarianceData(
            X=li.X, Y_full=fixed(li.X), Y_prefix=fixed(li.X[: cfg.T - 1]),
            defects_fixed=df, max_fixed=prefix_invariance_max_defect(fixed, li.X),
            defects_blas=db, max_blas=prefix_invariance_max_defect(blas, li.X),
            sum_terms=SUM_ORDER_EXAMPLE, sum_orders=float_sum_orders(*SUM_ORDER_EXAMPLE),
            cmap_signed=cfg.cmap_signed, entry=entry,
            fixed_bits=np.array([float_bits(v) for v in prefix_entry_pair(fixed, li.X, *entry)]),
            blas_bits=np.array([float_bits(v) for v in prefix_entry_pair(blas, li.X, *entry)]),
        )

    def scales(self) -> dict:
        return prefix_scales(self.data)

    def caption_values(self) -> dict:
        d = self.data
        T = d.X.shape[0]
        t, i, j = d.entry
        differ = int((d.blas_bits[0] != d.blas_bits[1]).sum())
        return {"T": T, "T1": T - 1, "last": T - 1, "last_prev": T - 2, "t": t, "i": i, "j": j, "d": d.X.shape[1],
                "max_fixed": fmt_measure(d.max_fixed), "max_blas": fmt_measure(d.max_blas),
                "bits_differ": differ, "bits_same": 64 - differ}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T, dm = d.Y_full.shape
        C = self.layout.content
        self.scale = self.scales()["Y_full"]

        # stage 1: the colour bar on the left; the full map, a gap for the row marks, the prefix map
        bar_col, maps = C.inset(0, GAP.tight).take_left(ColorBar(self.scale).width, gap=GAP.wide)
        self.new_tag = label("new", size=SMALL, color=HIGHLIGHT)
        full_col, prefix_col = maps.columns(1, 1, gap=self.new_tag.width + 2 * GAP.wide)
        self.full_head = column(names(math(f'{Y_FULL[0]} = "Attn"(x_0, dots, x_{T - 1})', size=HEADING), "Y_full"),
                                label(f"all {T} tokens", size=SMALL, color=DIM), gap="tight", align=ORIGIN)
        self.prefix_head = column(names(math(f'{Y_PREFIX[0]} = "Attn"(x_0, dots, x_{T - 2})', size=HEADING),
                                        "Y_prefix"),
                                  label(f"first {T - 1} tokens", size=SMALL, color=DIM), gap="tight", align=ORIGIN)
        head_h = max(self.full_head.height, self.prefix_head.height)
        lab_w = math(f"y_{T - 1}", size=HEADING).width + GAP.normal
        placed = []
        for col, head in ((full_col, self.full_head), (prefix_col, self.prefix_head)):
            strip, rest = col.take_top(head_h, gap=GAP.normal)
            settle(strip, head)
            placed.append(Region(rest.left + lab_w, rest.right, rest.bottom, rest.top))
        cell_w = min(self.MAX_CELL_W, placed[0].width / dm)
        cell_h = min(self.MAX_CELL_H, placed[0].height / T)
        self.full = shows(value_map(d.Y_full, self.scale, cell_w, cell_h), "Y_full")
        self.prefix = shows(value_map(d.Y_prefix, self.scale, cell_w, cell_h), "Y_prefix")
        for region, hm, head in zip(placed, (self.full, self.prefix), (self.full_head, self.prefix_head)):
            region.place(hm, UP)  # slot i level with slot i
            head.set_x(float(np.clip(hm.get_x(), C.left + head.width / 2, C.right - head.width / 2)))
        self.full_labels = row_names(self.full, "y", size=HEADING)
        self.prefix_labels = row_names(self.prefix, "y", size=HEADING)
        self.bar = ColorBar(self.scale, height=T * cell_h * 0.8)
        self.bar.move_to([bar_col.center[0], self.full.get_center()[1], 0])

        # the rows that landed: a mark in the gap right of each; the new row's tag
        self.checks = VGroup(*[check_mark().next_to(self.full.cell(i, dm - 1), RIGHT, buff=GAP.normal)
                               for i in range(T - 1)])
        self.landed_outline = SurroundingRectangle(VGroup(*[c for i in range(T - 1) for c in self.full.cells[i]]),
                                                   color=VERIFIED, buff=GAP.hair / 2, stroke_width=4)
        self.new_row = frame_row(self.full, T - 1)
        self.new_tag.next_to(self.new_row, RIGHT, buff=GAP.small)
        self.same = column(math(f"{upto(Y_FULL[0], T - 1)} = {Y_PREFIX[0]}", size=HEADING),
                           label("the same numbers, bit for bit", size=LABEL, color=VERIFIED), align=ORIGIN)
        settle(Region(prefix_col.left, prefix_col.right, self.full.get_bottom()[1], self.full.get_top()[1]), self.same)

        # stage 2: every prefix measured (the plot) over one entry's bits
        fixed, blas = prefix_proofs(d)
        self.proof_fixed = proof_line(fixed.formula, fixed.value, size=HEADING, passed=fixed.passed)
        t, i, j = d.entry
        heads = (f"{Y_FULL[0]} [{i}, {j}]", f'"Attn"({upto("X", t)}) [{i}, {j}]')
        inner = C.width - 2 * GAP.tight  # the outlines of differing bits stand out of the strips
        self.bits_fixed = BitPair(heads, d.fixed_bits, inner, title="fixed order", title_color=VERIFIED)
        self.bits_blas = BitPair(heads, d.blas_bits, inner, title="BLAS matmul", title_color=HIGHLIGHT)
        bits_region, plot_region = C.take_bottom(max(self.bits_fixed.height, self.bits_blas.height), gap=GAP.wide)
        for b in (self.bits_fixed, self.bits_blas, self.proof_fixed):
            bits_region.place(b)  # built to the content's width
        title = math(f'max lr(|{upto(Y_FULL[0])} - "Attn"({upto("X")})|)', size=LABEL)
        self.defects = DefectPlot([("fixed order", d.defects_fixed, VERIFIED), ("BLAS matmul", d.defects_blas, HIGHLIGHT)],
                                  plot_region, title, math(f'"prefix length" {T_}', size=SMALL))
        self.plot = self.defects.plot
        self.series = {"fixed": self.defects.marks["fixed order"], "blas": self.defects.marks["BLAS matmul"]}
        self.key_fixed, self.key_blas = self.defects.tags["fixed order"], self.defects.tags["BLAS matmul"]
        self.fixed_max, self.blas_max = self.key_fixed[1], self.key_blas[1]

        # stage 3: why the order matters
        a, b, c = (repr(x) for x in d.sum_terms)
        left, right = d.sum_orders
        self.why_title = label("float sums depend on their order", size=LABEL)
        self.why_left = math(f"({a} + {b}) + {c} = {left!r}", size=HEADING)
        self.why_neq = math("!=" if left != right else "=", size=HEADING, color=HIGHLIGHT)
        self.why_right = math(f"{a} + ({b} + {c}) = {right!r}", size=HEADING)
        self.why = column(self.why_title, self.why_left, self.why_neq, self.why_right, align=ORIGIN)
        self.why_values = (left, right)
        self.inference = fit_label("In real inference, a cached step equals a full recompute bit for bit only if "
                                   "every sum runs in one fixed order.", C.width * 0.6, size=LABEL, color=DIM,
                                   max_lines=3, align=ORIGIN)
        settle(C, column(self.why, self.inference, gap="section", align=ORIGIN))

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T, dm = d.Y_full.shape
        full, prefix = self.full, self.prefix

        hide(full, self.full_labels, prefix, self.prefix_labels)
        self.add(full, self.full_labels)
        self.beat("full", FadeIn(self.full_head), FadeIn(self.bar),
                  Reveal(full, [[*row_parts(full, i), self.full_labels[i]] for i in range(T)],
                         shift=GAP.small * LEFT), run_time=1.6)
        self.add(prefix, self.prefix_labels)
        self.beat("prefix", FadeIn(self.prefix_head),
                  Reveal(prefix, [[*row_parts(prefix, i), self.prefix_labels[i]] for i in range(T - 1)],
                         shift=GAP.small * RIGHT), run_time=1.6)

        # the prefix rows slide onto the full rows, land on the same colours and numbers, and hand
        # over: the full row stays, with a mark that it matched
        dx = full.get_center()[0] - prefix.get_center()[0]
        self.landed = []
        slides = []
        self.targets = [full.cell(i, 0).get_center().copy() for i in range(T)]  # the full rows, as they stand now
        for i in range(T - 1):
            r = VGroup(*row_parts(prefix, i), self.prefix_labels[i])
            self.landed.append(prefix.cell(i, 0).get_center() + dx * RIGHT)
            slides.append(Succession(r.animate(run_time=0.7).shift(dx * RIGHT),
                                     AnimationGroup(FadeOut(r, run_time=0.25), Create(self.checks[i], run_time=0.35))))
        self.beat("slide", FadeOut(self.prefix_head),
                  Succession(LaggedStart(*slides, lag_ratio=0.3, run_time=2.2),
                             AnimationGroup(Create(self.landed_outline), FadeIn(self.same, shift=GAP.tight * UP),
                                            run_time=0.6)),
                  run_time=2.8)
        self.remove(prefix, self.prefix_labels)
        self.beat("last_row", Create(self.new_row), FadeIn(self.new_tag), run_time=1.0)

        # every prefix, measured: the maps make way for the plot
        self.stage_one = VGroup(self.bar, full, self.full_labels, self.full_head, self.checks, self.landed_outline,
                                self.new_row, self.new_tag, self.same)
        p = self.plot
        self.beat("every_prefix", Succession(  # one picture leaves before the next comes: never two at once
            FadeOut(self.stage_one, shift=GAP.normal * LEFT),
            AnimationGroup(FadeIn(self.defects.title), Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels),
                           FadeIn(p.y_tick_labels), FadeIn(self.defects.x_title), reveal(list(self.series["fixed"])),
                           FadeIn(self.key_fixed), FadeIn(self.proof_fixed, shift=GAP.small * UP))), run_time=2.0)

        # bit for bit: one entry's 64 bits from both passes, the plot stepping back
        plot_parts = [self.defects.title, p.axes, p.grid, p.x_tick_labels, p.y_tick_labels, self.defects.x_title,
                      self.series["fixed"], self.key_fixed]
        self.beat("bitwise", swap(self.proof_fixed, self.bits_fixed), Dim(plot_parts, DIMMED), run_time=1.2)
        self.beat("blas" if d.max_blas != 0.0 else "blas_same", Dim(plot_parts, 1),
                  LaggedStart(*[FadeIn(mk) if mk.exact else GrowFromEdge(mk, DOWN) for mk in self.series["blas"]],
                              lag_ratio=0.15),
                  FadeIn(self.key_blas), swap(self.bits_fixed, self.bits_blas), run_time=1.6)

        # the aside: why the order matters
        self.stage_two = VGroup(*plot_parts, self.series["blas"], self.key_blas, self.bits_blas)
        self.beat("why", Succession(FadeOut(self.stage_two, shift=GAP.normal * LEFT),
                                    FadeIn(self.why, shift=GAP.small * UP)), run_time=1.4)
        self.beat("inference", FadeIn(self.inference, shift=GAP.small * UP), run_time=1.0)

    # ------------------------------------------------------------------ the takeaway
    def closing_parts(self) -> list:
        return [VGroup(self.full, self.full_labels, self.checks, self.landed_outline), self.proof_fixed]

    def takeaway(self):
        """The full outputs, their first rows checked, and the measured exact zero."""
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        return restage(self, self.closing_parts(), lambda p: column(*p, gap="wide", align=ORIGIN), self.layout.content)


# ====================================================================== 05 KVCache
@dataclass(frozen=True)
class KVCacheData:
    """What clip 05 draws: ``kv_cache_decode`` on the lecture inputs, and what bidirectional
    attention does to past outputs when a token is appended."""

    trace: KVCacheTrace  # steps: q_m, K/V caches, weights, y_m, recompute_defect
    K: np.ndarray  # (T, d) the K cache after the last step
    V: np.ndarray  # (T, d) the V cache after the last step
    Q: np.ndarray  # (T, d) every step's query, row m computed at step m
    max_defect: float  # max over steps of |cached − full recompute|
    Y_bidir: tuple[np.ndarray, ...]  # prefix_outputs(causal=False): (m+1, d) after m+1 tokens
    Y_bidir_full: np.ndarray  # (T, d) the bidirectional outputs after every token (Y_bidir[-1])
    staleness: tuple[np.ndarray, ...]  # bidirectional_staleness: entry m-1 is (m,) change of past rows
    min_stale: float  # the smallest change of any past row, over all steps
    causal_change_max: float  # the same measure for causal attention (exactly 0.0)
    cmap_signed: str


class KVCache(ClipScene):
    """05 · The KV cache: append one key and value per token, compute only the new query's row."""

    TIDY_PLAYS = True

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> KVCacheData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv)
        stale = bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv)
        causal = append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True)
        Y_bidir = tuple(prefix_outputs(li.X, li.Wq, li.Wk, li.Wv, causal=False))
        return KVCacheData(
            trace=tr, K=tr.steps[-1].K_cache, V=tr.steps[-1].V_cache, Q=np.array([s.q for s in tr.steps]),
            max_defect=tr.max_defect, Y_bidir=Y_bidir, Y_bidir_full=Y_bidir[-1],
            staleness=tuple(stale), min_stale=float(min(s.min() for s in stale)),
            causal_change_max=float(max(c.max() for c in causal)), cmap_signed=cfg.cmap_signed,
        )

    def scales(self) -> dict:
        return kv_scales(self.data)

    def caption_values(self) -> dict:
        d = self.data
        T = len(d.trace.steps)
        scale = self.scales()["K"]
        return {"T": T, "last": T - 1, "max_defect": fmt_measure(d.max_defect),
                "lo": tick(scale.vmin), "hi": tick(scale.vmax),
                "min_stale": fmt_measure(d.min_stale), "causal_change_max": fmt_measure(d.causal_change_max),
                "max_stale": fmt_measure(max(float(s.max()) for s in d.staleness)),
                "first_weight": fmt_value(d.trace.steps[0].weights[0], 2)}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        steps = d.trace.steps
        C = self.layout.content
        self.scale = self.scales()["K"]
        cached, bidir, causal = kv_proofs(d)
        self.proof = proof_line(cached.formula, cached.value, size=LABEL, passed=cached.passed)
        self.proof_value = self.proof.value
        self.cached_head = label("cached decoding", size=LABEL, color=DIM)
        self.bar = ColorBar(self.scale, height=GAP.section * 2, horizontal=True)
        self.board = b = DecodeBoard(steps, d.trace.Y_cached, self.scale, C, self.proof.height, self.bar.width)
        b.aside.place(self.bar, RIGHT)
        settle(b.bottom, self.proof, LEFT)
        self.cached_head.next_to(self.proof, UP, buff=GAP.small, aligned_edge=LEFT)  # shown in the close only
        shows(b.K_map, "K")
        shows(b.V_map, "V")
        shows(b.Y_map, "trace.Y_cached")
        self.K_map, self.V_map, self.Y_map, self.q_map = b.K_map, b.V_map, b.Y_map, b.q_map
        self.weight_groups, self.checks, self.status, self.chips, self.tokens = (b.weights, b.checks, b.status,
                                                                               b.chips, b.tokens)
        self.q_label = b.q_labels[0]

        # the bidirectional half: its outputs on the left, how far past rows move on the right, the proofs under them
        self.proof_bi = proof_line(bidir.formula, bidir.value, size=LABEL)
        self.proof_causal = proof_line(causal.formula, causal.value, size=LABEL, passed=causal.passed)
        heads = [label("bidirectional", size=LABEL, color=DIM), label("causal", size=LABEL, color=DIM)]
        lines = column(self.proof_bi, self.proof_causal, gap="small")
        rows_ = []
        for h, p in zip(heads, lines):  # heads right-aligned, formulas left-aligned
            h.next_to(lines, LEFT, buff=GAP.normal).set_y(p.value.get_center()[1])
            rows_.append(VGroup(h, p))
        self.proof_bi_row, self.proof_causal_row = rows_
        proofs = VGroup(*rows_)
        strip, top = C.take_bottom(max(proofs.height, self.bar.height), gap=GAP.normal)
        _, proof_strip = strip.take_right(self.bar.width, gap=GAP.wide)
        settle(proof_strip, proofs, LEFT)
        self.stale_value, self.causal_value = self.proof_bi.value, self.proof_causal.value

        T = len(steps)
        dm = d.Y_bidir_full.shape[1]
        title = label("bidirectional outputs", size=LABEL)
        left, right = top.take_left(max(top.width * 0.38, title.width), gap=GAP.wide)
        title_strip, maps = left.take_top(title.height, gap=GAP.normal)
        lab_w = math(f"y_{T - 1}", size=LABEL).width + GAP.normal
        cw = min(self.board.MAX_CELL_W, (maps.width - lab_w) / dm)
        ch = min(self.board.MAX_CELL_H, maps.height / T)
        self.bi_stages = []
        for m in range(T):
            st = np.array(d.Y_bidir_full, dtype=float)
            st[: m + 1] = d.Y_bidir[m]
            self.bi_stages.append(st)
        self.bi_map = Heatmap(self.bi_stages[0], self.scale, (cw, ch))
        for i in range(1, T):
            for cell in self.bi_map.cells[i]:
                cell.set_fill(opacity=0.0)
        Region(maps.left + lab_w, maps.right, maps.bottom, maps.top).place(self.bi_map, UP)
        self.bi_title = title.next_to(self.bi_map, UP, buff=GAP.normal)
        self.bi_labels = row_names(self.bi_map, "y")
        self.bi_slots = row_slots(self.bi_map)
        self.bi_bar = self.bar
        self.chart = StaleChart(d.staleness, right, math(f"norm(Delta y_{NN})", size=LABEL))
        self.plot, self.bar_groups, self.bar_x = self.chart.plot, self.chart.bar_groups, self.chart.bar_x

    def step_anims(self, m: int, first: bool = False) -> list:
        """Token m arrives: its k, v rows join the caches, q_m attends, y_m is written."""
        b = self.board
        s = self.data.trace.steps[m]
        anims = []
        if not first:
            anims.append(FadeOut(self.weight_groups[m - 1], run_time=0.3))
            anims.append(morph_cells(self.q_map, s.q[None, :], [(0, j) for j in range(len(s.q))]))
            anims.append(swap(self.q_label, b.q_labels[m]))
            self.q_label = b.q_labels[m]
        targets = b.markers_for(m)
        if first:
            self.markers = VGroup(*targets).set_z_index(2)  # in front of the rows that arrive after it
            place = [Create(mk) for mk in self.markers[:2]]
            place_y = Create(self.markers[2])
        else:
            place = [mk.animate.move_to(tg) for mk, tg in zip(self.markers[:2], targets[:2])]
            place_y = self.markers[2].animate.move_to(targets[2])
        anims.append(self.chips[m][0].animate.set_fill(opacity=0.35).set_stroke(width=5))  # read
        cache_in = AnimationGroup(
            Reveal(self.caches, [[*row_parts(self.K_map, m), b.k_labels[m], *row_parts(self.V_map, m), b.v_labels[m]]],
                   shift=GAP.normal * DOWN),
            *place, *anims)
        wg = self.weight_groups[m]
        attend = AnimationGroup(FadeIn(wg[0]), *[GrowFromEdge(bar, LEFT) for bar in wg[1].bars])
        write = AnimationGroup(
            Reveal(self.outputs, [[*row_parts(self.Y_map, m), b.y_labels[m]]], shift=GAP.normal * LEFT), place_y,
            Create(self.checks[m]) if self.checks[m].defect == 0.0 else FadeIn(self.checks[m]))
        return [cache_in, attend, write]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        b = self.board
        T = len(self.data.trace.steps)

        # the empty caches: one slot per token, filled as decoding goes
        self.caches = VGroup(self.K_map, b.k_labels, self.V_map, b.v_labels)
        self.outputs = VGroup(self.Y_map, b.y_labels)
        hide(self.caches, self.outputs)
        self.add(self.caches, self.outputs)
        self.beat("setup", FadeIn(b.heads), FadeIn(self.tokens), FadeIn(self.bar),
                  LaggedStart(*[Create(s) for s in b.slots], lag_ratio=0.02), Create(b.q_slot), run_time=1.2)
        a = self.step_anims(0, first=True)
        self.beat("step0", Succession(AnimationGroup(a[0], FadeIn(self.q_map), FadeIn(self.q_label), FadeIn(b.q_note)),
                                      a[1], a[2]), run_time=2.6)
        a = self.step_anims(1)
        self.beat("step1", Succession(*a), run_time=2.4)
        self.beat_plays("rest", [self.step_anims(m) for m in range(2, T)], run_time=1.3)
        self.beat("legend", FadeIn(b.tags, shift=GAP.tight * LEFT), run_time=1.0)
        self.beat("equal", Succession(FadeOut(self.tokens, run_time=0.4), FadeIn(self.proof, shift=GAP.small * UP)),
                  run_time=1.2)
        self.bidirectional()

    def bidirectional(self) -> None:
        """Without the mask: every past output moves when a token arrives; a cache would be stale."""
        d = self.data
        b = self.board
        T = len(d.trace.steps)
        dm = d.Y_bidir_full.shape[1]
        out = VGroup(self.caches, self.outputs, self.q_map, self.q_label, b.q_note, self.weight_groups[-1],
                     self.checks, self.markers, b.tags, self.proof, b.heads, b.slots, b.q_slot)
        self.play(FadeOut(out), run_time=0.8)
        p = self.plot
        first = VGroup(*self.bi_map.cells[0])
        self.add(self.bi_map)
        self.beat("bidir", FadeIn(self.bi_title), FadeIn(self.bi_slots), FadeIn(first), FadeIn(self.bi_labels[0]),
                  Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels), FadeIn(p.y_tick_labels),
                  FadeIn(p.x_axis_label), FadeIn(self.chart.y_title), run_time=1.4)
        plays = []
        for m in range(1, T):
            moved = VGroup(*[frame_row(self.bi_map, n) for n in range(m)])
            plays.append([AnimationGroup(
                morph_cells(self.bi_map, self.bi_stages[m], [(i, j) for i in range(m + 1) for j in range(dm)]),
                FadeIn(self.bi_labels[m]),
                Succession(FadeIn(moved, run_time=0.3), FadeOut(moved, run_time=0.4)),
                *[GrowFromEdge(bar, DOWN) for bar in self.bar_groups[m - 1]],
            )])
        shows(self.bi_map, "Y_bidir_full")
        self.beat_plays("stale", plays, run_time=1.15)
        self.beat("proof_bidir" if d.min_stale > 0.0 else "proof_bidir_some", FadeIn(self.proof_bi_row, shift=GAP.small * UP),
                  run_time=0.9)
        self.beat("proof_causal", FadeIn(self.proof_causal_row, shift=GAP.small * UP), run_time=0.9)

    # ------------------------------------------------------------------ the takeaway
    def closing_parts(self) -> list:
        return [VGroup(self.cached_head, self.proof), self.proof_bi_row]

    def takeaway(self):
        """Cached decoding equals the full recompute (exactly); bidirectionally every past row moves."""
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        def picture(parts):  # each result under its name, the two stacked
            for head, line in parts:
                head.next_to(line, UP, buff=GAP.small, aligned_edge=LEFT)
            return column(*parts, gap="section", align=LEFT)

        return restage(self, self.closing_parts(), picture, self.layout.content)
