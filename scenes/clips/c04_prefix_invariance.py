"""04 ``PrefixInvariance`` (§4): causal attention over all T tokens, ``Attn(x_0, …, x_(T−1))`` with output
rows ``y_m``, then over the first T−1, rows ``y_m^((T−1))`` (the superscript: how many tokens the pass
read); the prefix rows slide onto the full rows and land on the same numbers.  Then, one subject a frame:
the difference for every prefix length t on a log axis (the fixed order's exact zeros on the floor); one
output entry's 64 bits from both passes, large, the fields named, the last bits magnified; the BLAS matmul
kernel's honest ≈ 10⁻¹⁶ on the plot and in the bits (one unit in the last place); why (float sums depend on
their order: two summation trees); what it means for inference (a cached decoding step is one row of the
recompute: the same bits only in one fixed order).  Ends on the full outputs with the verdict
``max_(t, m<t) |y_m^((t)) − y_m| = 0``, exact.

One notation through the clip (lecture notation, never code indexing): a pass ``Attn(x_0, …, x_(t−1))``,
its rows ``y_m^((t))``, the full pass's rows ``y_m``, an entry ``(y_m)_j``.  The outputs are painted on the
deck's "outputs" scale (``kit.scales``).

``clips render --student`` draws it from a student's causal attention (``STUDENT = "prefix"``: every pass the
checks ran, ``Y(X[:t])`` for t = 1 … T).  Exact, it is the lecture's clip on their numbers.  Not bit for bit,
the failing variants of ``[prefix_invariance.student_fail]`` are said: the slide outlines the rows the prefix's
pass does not reproduce, each with its measured difference (red past the pass line, yellow for rounding), the
plot shows their prefix lengths against the pass line, the bits are their worst entry's, and the clip closes on
the rows some prefix changed and the ✗ with the figure (the aside on the lecture's two kernels is skipped: it is
not about their code).

The picture description it shares with its still (scales, proofs) is in ``scenes/figures/causal.py``;
the widgets only this clip draws are in ``c04_widgets.py``.

Render directly with ``manim -ql scenes/clips/c04_prefix_invariance.py PrefixInvariance``.
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
    Brace,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    Succession,
    VGroup,
)

from mathcore import (
    attention_fn,
    kv_cache_decode,
    lecture_inputs,
    prefix_defects,
    prefix_invariance_max_defect,
    self_attention,
    self_attention_trace,
)
from mathcore.causal import (
    SUM_ORDER_EXAMPLE,
    float_sum_orders,
    float_sum_partials,
)
from mathcore.causal_bits import float_bits, prefix_entry_pair, ulp_distance, worst_prefix_entry
from mathcore.config import LectureConfig
from scenes.clips.c04_widgets import BitBoard, DefectPlot, DefectTable, SumTrees, bar_verdict
from scenes.figures.causal import (
    T_,
    n_sub,
    passes,
    prefix_length,
    prefix_proofs,
    prefix_row,
    prefix_scales,
)
from scenes.kit import (
    DIM,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    ClipScene,
    ColorBar,
    fmt_measure,
    label,
    math,
)
from scenes.kit import figure as figure_of
from scenes.kit.binding import claim, claim_built, names, role, shows
from scenes.kit.compose import GAP, column, row
from scenes.kit.layout import Region
from scenes.kit.motion import Dim
from scenes.kit.student import fail_key
from scenes.kit.theme import FAILED
from scenes.kit.proofs import (
    Reveal,
    frame_row,
    hide,
    proof_line,
    restage,
    row_names,
    row_parts,
    settle,
    value_map,
    worded_verdict,
)
from scenes.kit.widgets import Heatmap


# why some beats are excused from the half-empty check (a reviewer reads these instead)
LANDED = {"empty": "the prefix pass has just slid onto the full one and handed over: the frame holds the one grid "
                   "that is left, its brace and its verdict"}
TREES = {"empty": "two summation trees: the picture is their numbers and the thin edges between them, spread apart "
                  "so no edge crosses a digit",
         "dashboard": "one picture, the two orders side by side: each tree stands over its order written out, the "
                      "title over both"}
TABLE = {"empty": "a table of figures, one column per kernel: its columns stand apart so each head and verdict reads "
                  "on its own",
         "dashboard": "one table: the prefix lengths, a column per kernel, each verdict under its column"}
INFERENCE = {"empty": "two grids side by side, the cached step and the recompute, their last rows level: the row the "
                      "step computes stands alone under its name, and the space around a single row counts as empty"}
PLOT = {"empty": "a plot: its marks are read against the empty area of their log axis, which the check counts as "
                 "empty"}


def shape_why(T: int, d: int, what: str, reason: str | None = None) -> dict | None:
    """The excuse from the half-empty check for a picture whose size the data's shape sets (``what``): only
    for the shapes that make it small against a 16:9 frame (few tokens, or a narrow or a wide model: the
    lecture's own T = 6, d = 4 fills it); ``None`` otherwise."""
    if T > 4 and 3 <= d <= 5:
        return None
    if reason is not None:
        return {"empty": reason}
    return {"empty": f"{what} is {T} rows of {d} features (or {T} by {T} weights): its cells stay at the size "
                     "that keeps every label legible, which leaves part of a 16:9 frame empty"}


@dataclass(frozen=True)
class PrefixInvarianceData:
    """What clip 04 draws: causal outputs on all T tokens and on the first T−1, the prefix defects
    for both kernels (``prefix_defects``), measured on the same ``X``, one output entry's bits, the
    float sums of the aside and a decoding run per kernel (a cached step against the recompute)."""

    X: np.ndarray  # (T, d)
    Y_full: np.ndarray  # (T, d) causal attention on X
    Y_prefix: np.ndarray  # (T-1, d) causal attention on the first T-1 tokens
    # mathcore's figures for t = 1 … T; the clip shows and counts the proper prefixes only, t = 1 … T−1
    # (``proper_prefixes``): t = T compares the full pass with itself, always 0, no evidence
    defects_fixed: np.ndarray  # (T,) entry t-1: max over m < t of |y_m^(t) − y_m|, fixed-order kernel
    max_fixed: float  # the largest (the same over t < T: the entry at t = T is 0 by construction)
    defects_blas: np.ndarray  # (T,) the same with kernel="blas" (plain matmul)
    max_blas: float
    sum_terms: tuple[float, float, float]
    sum_orders: tuple[float, float]  # ((a+b)+c, a+(b+c))
    sum_partials: tuple[float, float]  # (a+b, b+c)
    cmap_signed: str
    entry: tuple[int, int, int]  # (t, i, j): where the BLAS kernel's prefix defect is largest (worst_prefix_entry)
    fixed_values: tuple[float, float]  # that entry from the full pass and the prefix pass, fixed order
    blas_values: tuple[float, float]  # the same with the BLAS kernel
    fixed_bits: np.ndarray  # (2, 64): their bits
    blas_bits: np.ndarray  # (2, 64)
    blas_ulps: int  # how many float64 steps apart the BLAS pair is
    A: np.ndarray  # (T, T) the causal weights of the full pass
    V: np.ndarray  # (T, d) its values
    cache_fixed: float  # the cached step's row T−1: max over its features of |cached − full recompute|, fixed order
    cache_blas: float  # the same with the BLAS kernel (the figure belongs to the outlined row, not to row 0)
    y_cached: np.ndarray  # (1, d) the last decoding step's row with the cache, fixed order (kv_cache_decode)
    a_step: np.ndarray  # (T, 1) that step's weights over the cached rows: the causal weights' last row, as a column
    # a student's causal attention (``clips render --student``) whose prefixes' outputs are not bit for bit its full
    # outputs' first rows: ``differs``; per row m < T − 1 of the slide, max_j |y_m^(T−1) − y_m| (``row_gaps``), the
    # rows where it is not 0 (``slide_rows``, the outlines) and the rows of the full outputs some prefix changes
    # (``close_rows``); ``tol``: the pass line (a difference under it is rounding, over it a failure).  Empty for
    # the lecture and for a student who is exact
    differs: bool = False
    row_gaps: tuple = ()
    slide_rows: tuple = ()
    close_rows: tuple = ()
    close_gaps: tuple = ()
    tol: float = 1e-10


class PrefixInvariance(ClipScene):
    """04 · Prefix invariance: the prefix's outputs are the full outputs' first rows, bitwise."""

    TIDY_PLAYS = True
    STAGED = True
    STUDENT = "prefix"  # `clips render --student`: the student's causal attention's passes are the outputs drawn

    MAX_CELL_W, MAX_CELL_H = 1.9, 1.5  # output maps' cells, at most (wide: they print two decimals)
    FIXED_DIMMED = 0.45  # the fixed order's figures while the BLAS kernel's are the subject (3:1, still read)
    FIXED_WORDS = 0.45  # and its words and verdict: receded, still readable (3:1 against the background)
    CONTEXT_DIMMED = 0.4  # the inference beat's weights, V and earlier rows once the two last rows are the subject
    FIGURES_RECEDED = 0.25  # and the weights' figures printed on their dimmed cells: background

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PrefixInvarianceData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
        blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
        df, db = prefix_defects(fixed, li.X), prefix_defects(blas, li.X)
        entry = worst_prefix_entry(blas, li.X)
        fv, bv = prefix_entry_pair(fixed, li.X, *entry), prefix_entry_pair(blas, li.X, *entry)
        tr = self_attention_trace(li.X, li.Wq, li.Wk, li.Wv, causal=True)
        return PrefixInvarianceData(
            X=li.X, Y_full=fixed(li.X), Y_prefix=fixed(li.X[: cfg.T - 1]),
            defects_fixed=df, max_fixed=prefix_invariance_max_defect(fixed, li.X),
            defects_blas=db, max_blas=prefix_invariance_max_defect(blas, li.X),
            sum_terms=SUM_ORDER_EXAMPLE, sum_orders=float_sum_orders(*SUM_ORDER_EXAMPLE),
            sum_partials=float_sum_partials(*SUM_ORDER_EXAMPLE),
            cmap_signed=cfg.cmap_signed, entry=entry, fixed_values=fv, blas_values=bv,
            fixed_bits=np.array([float_bits(v) for v in fv]), blas_bits=np.array([float_bits(v) for v in bv]),
            blas_ulps=ulp_distance(*bv), A=tr.weights, V=tr.V,
            cache_fixed=last_step_defect(li, "fixed"), cache_blas=last_step_defect(li, "blas"),
            y_cached=kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv, kernel="fixed").Y_cached[-1:],
            a_step=tr.weights[-1][:, None],
        )

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> PrefixInvarianceData:
        """The student's causal attention on the lecture's X and on each of its prefixes (every pass the checks
        ran, ``passes[t − 1, :t]``) in place of mathcore's fixed-order kernel: the full and the prefix outputs, the
        difference for every prefix length t, and one entry's bits.  A student who is exact keeps the lecture's
        entry (the one the BLAS kernel's aside is about); one who is not shows their own largest difference and
        the clip skips the aside on the lecture's two kernels (``differs``)."""
        from dataclasses import replace

        lecture = cls.build_data(cfg)
        T, dm = lecture.Y_full.shape
        P = np.asarray(student.array(cls.STUDENT, "passes"), dtype=float)
        if P.shape != (T, T, dm):
            raise ValueError(f"the student's passes are {P.shape}, clip 04 draws {(T, T, dm)}")

        def yours(Z):  # the student's output on X's first t rows, as the checks recorded it
            t = np.asarray(Z).shape[0]
            return P[t - 1, :t]

        X = lecture.X
        Y_full, defects = yours(X), prefix_defects(yours, X)
        m = prefix_invariance_max_defect(yours, X)
        gaps = np.zeros((T, T))  # gaps[t − 1, m]: max_j |y_m^(t) − y_m|, m < t
        for t in range(1, T + 1):
            gaps[t - 1, :t] = np.max(np.abs(P[t - 1, :t] - Y_full[:t]), axis=1)
        row_gaps = gaps[T - 2, : T - 1]
        close_gaps = gaps.max(axis=0)
        d = replace(lecture, Y_full=Y_full, Y_prefix=yours(X[: T - 1]), defects_fixed=defects, max_fixed=m,
                    differs=m != 0.0, row_gaps=tuple(float(g) for g in row_gaps),
                    slide_rows=tuple(int(n) for n in np.flatnonzero(row_gaps != 0.0)),
                    close_rows=tuple(int(n) for n in np.flatnonzero(close_gaps != 0.0)),
                    close_gaps=tuple(float(g) for g in close_gaps))
        entry = worst_prefix_entry(yours, X) if d.differs else lecture.entry
        fv = prefix_entry_pair(yours, X, *entry)
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        bv = prefix_entry_pair(attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas"), X, *entry)
        return replace(d, entry=entry, fixed_values=fv, fixed_bits=np.array([float_bits(v) for v in fv]),
                       blas_values=bv, blas_bits=np.array([float_bits(v) for v in bv]), blas_ulps=ulp_distance(*bv))

    def student_values(self) -> dict:
        """The failing variants' values, bound to the outlines, the differences and the verdicts that show them."""
        out = super().student_values()
        d = self.data
        if not d.differs:
            return out
        if hasattr(self, "slide_frames"):
            out["slide_rows"] = claim(rows_text(d.slide_rows), *self.slide_frames)
            out["slide_max"] = claim(fmt_measure(max(d.row_gaps)), *self.gap_labels)
            out["why_rows"] = claim(reason(max(d.row_gaps), d.tol), *self.slide_frames)
        if hasattr(self, "proof_fixed"):
            out["your_max"] = claim(fmt_measure(d.max_fixed), self.proof_fixed)
        if hasattr(self, "bits_verdict_fixed"):
            out["entry_gap"] = claim(fmt_measure(abs(d.fixed_values[0] - d.fixed_values[1])), self.bits_verdict_fixed)
        if hasattr(self, "close_frames"):
            why = reason(d.max_fixed, d.tol)
            out["changed"] = claim(rows_text(d.close_rows), *self.close_frames)
            out["close_why"] = claim(why if d.max_fixed >= d.tol else f"{why}, under the pass line of {fmt_measure(d.tol)}",
                                     self.proof_close)
        return out

    def scales(self) -> dict:
        sc = prefix_scales(self.data, self.cfg)
        return {**sc, "a_step": sc["A"], "y_cached": sc["Y_full"]}  # the cached step: A's last row, Y's last row

    def caption_values(self) -> dict:
        d = self.data
        T = d.X.shape[0]
        t, i, j = d.entry
        differ = int((d.blas_bits[0] != d.blas_bits[1]).sum())
        out = {"T": T, "T1": T - 1, "t_last": T - 1, "last": T - 1, "last_prev": T - 2, "t": t, "i": i, "j": j, "d": d.X.shape[1],
               "max_fixed": fmt_measure(d.max_fixed), "max_blas": fmt_measure(d.max_blas),
               "bits_differ": differ, "bits_same": 64 - differ, "ulps": d.blas_ulps,
               "cache_fixed": fmt_measure(d.cache_fixed), "cache_blas": fmt_measure(d.cache_blas)}

        def bound(name, value, *attrs):  # a claim once what shows it is built (the title card has nothing yet)
            claim_built(out, self, name, value, *attrs)

        bound("n_tokens", T, "full")
        bound("T1", T - 1, "prefix_head")
        bound("full_grid", f"{T} rows", "full")
        bound("d", d.X.shape[1], "full")
        bound("prefix_grid", f"{T - 1} rows", "prefix")
        bound("landed", f"rows 0 to {T - 2}", "landed_brace")
        bound("last_row", f"y {T - 1}", "new_row")
        out["shortest"] = "the shortest prefix" if t == 1 else f"a prefix of {t} tokens"
        if hasattr(self, "board_fixed"):  # its pass and its length, t = 1, head the second strip
            out["shortest"] = claim(out["shortest"], self.board_fixed.heads[1])
        bound("max_fixed", fmt_measure(d.max_fixed), "proof_fixed")
        if hasattr(self, "fixed_marks"):  # each mark was faded in on its own
            out["every_t"] = claim("every prefix length", *self.fixed_marks)
            out["blas_bars"] = claim(blas_marks_text(proper_prefixes(d.defects_blas)), *self.blas_marks)
        bound("bits", "64 bits", "board_fixed")
        if hasattr(self, "board_fixed"):  # the header that names the prefix pass
            out["prefix_pass"] = claim("the pass over x 0 alone" if t == 1 else f"the pass over the first {t} tokens",
                                       self.board_fixed.heads[1])
        bound("max_blas", fmt_measure(d.max_blas), "proof_blas")
        bound("bits_blas", "64 bits", "board_blas")
        bound("ulps", d.blas_ulps, "board_blas")
        bound("bits_same", 64 - differ, "board_blas")
        bound("bits_differ", differ, "board_blas")  # the outlined bits (the sweep: '3' was checked as text)
        if hasattr(self, "trees"):  # its parts arrive one after another
            out["trees"] = claim("two sums", self.trees.roots, self.trees.leaves)
        bound("step", "last row", "cached_rows")
        bound("cache_fixed", fmt_measure(d.cache_fixed), "inf_fixed")
        bound("cache_blas", fmt_measure(d.cache_blas), "inf_blas")
        bound("close_fixed", fmt_measure(d.max_fixed), "proof_close")
        bound("brackets", f"{T - 1} brackets", "prefix_brackets")
        return out

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        T, dm = d.Y_full.shape
        C = self.layout.content
        self.scale = self.scales()["Y_full"]

        # stage 1: the full pass alone, large in the middle; then both passes side by side
        self.full_head = names(math(passes(T), size=HEADING), "Y_full")
        self.prefix_head = names(math(passes(T - 1), size=HEADING), "Y_prefix")
        # the prefix's length said under its grid, where the row it lacks would be (its rows' superscript is the
        # letter t: a digit there read as a row index, review round 3)
        self.prefix_len = math(prefix_length(T - 1), size=HEADING, color=DIM)
        bar_probe = ColorBar(self.scale)
        lab_w = math(prefix_row("m"), size=HEADING).width + GAP.normal
        brace_w = 0.6  # the brace (and its gaps) between the full map and its verdict once the prefix has landed
        head_h = self.full_head.height + GAP.normal
        # both maps side by side (with their names) and the colour bar must fit the width
        room = C.width - bar_probe.width - GAP.wide - 2 * lab_w - GAP.section
        cell_w = min(self.MAX_CELL_W, room / (2 * dm))
        # the verdict of the landed rows stands right of their brace, or under the map when that row is too wide
        probe = proof_line(prefix_proof_formula(T - 1), 0.0, size=HEADING, passed=True)
        side = bar_probe.width + GAP.wide + lab_w + dm * cell_w + brace_w + probe.width <= C.width
        below = 0.0 if side else probe.height + GAP.wide
        self.verdict_below = below > 0
        cell_h = min(self.MAX_CELL_H, (C.height - head_h - GAP.tight - below) / T)  # room for the new row's outline
        self.full = shows(value_map(d.Y_full, self.scale, cell_w, cell_h, size=HEADING), "Y_full")
        self.prefix = shows(value_map(d.Y_prefix, self.scale, cell_w, cell_h, size=HEADING), "Y_prefix")
        self.full_labels = row_names(self.full, "y", size=HEADING)
        # the labels y_m^((T-1)) at the largest size whose height (superscript and all) fits the rows' pitch (the
        # sweep: at HEADING they ran into each other on rows squeezed by the verdict's room under the map)
        lab_size = next((z for z in (HEADING, LABEL) if math(prefix_row("0"), size=z).height <= cell_h - 0.02),
                        SMALL)
        self.prefix_labels = VGroup(*[math(prefix_row(str(n)), size=lab_size, color=self.full_labels[n].get_color())
                                      .next_to(self.prefix.cell(n, 0), LEFT, buff=GAP.small) for n in range(T - 1)])
        self.bar = ColorBar(self.scale, height=T * cell_h * 0.8)
        names(self.bar, "Y_full")
        top = C.top - head_h
        # the alone layout: bar | full map, centred; the pair layout: bar | full | prefix
        pair_w = self.bar.width + GAP.wide + 2 * (lab_w + dm * cell_w) + GAP.section
        x0 = C.center[0] - pair_w / 2
        self.bar.move_to([x0 + self.bar.width / 2, top - T * cell_h / 2, 0])
        self.full.move_to([x0 + self.bar.width + GAP.wide + lab_w + dm * cell_w / 2, top - T * cell_h / 2, 0])
        self.prefix.move_to([self.full.get_right()[0] + GAP.section + lab_w + dm * cell_w / 2,
                             top - (T - 1) * cell_h / 2, 0])
        self.full_labels = row_names(self.full, "y", size=HEADING)
        self.bar.next_to(self.full_labels, LEFT, buff=GAP.wide)  # beside the labels it colours, not the widest ones
        for n, lab in enumerate(self.prefix_labels):
            lab.next_to(self.prefix.cell(n, 0), LEFT, buff=GAP.small)
        self.full_head.move_to([self.full.get_x(), C.top - self.full_head.height / 2, 0])
        self.prefix_head.move_to([self.prefix.get_x(), C.top - self.prefix_head.height / 2, 0])
        self.prefix_len.move_to([self.prefix.get_x(), self.prefix.get_bottom()[1] - cell_h / 2, 0])
        self.pair_picture = VGroup(self.bar, self.full, self.full_labels, self.full_head)
        # alone, the full pass sits in the middle of the frame: this shift takes it to its place in the pair
        self.alone_shift = (C.center[0] - VGroup(self.bar, self.full, self.full_labels).get_x()) * RIGHT

        # the rows that landed: a brace right of them and the verdict beside it
        fixed, blas = prefix_proofs(d)
        self.slide_proof = proof_line(prefix_proof_formula(T - 1), d.defects_fixed[T - 2], size=HEADING,
                                      passed=d.defects_fixed[T - 2] == 0.0)
        landed = VGroup(*[c for i in range(T - 1) for c in self.full.cells[i]])
        self.landed_brace = Brace(landed, RIGHT, buff=GAP.small, color=DIM)
        self.slide_proof.next_to(self.landed_brace, RIGHT, buff=GAP.small)
        # once the prefix has landed, the full pass, its brace and its verdict stand centred (the verdict under
        # the brace when the row is too wide for it)
        landed_group = VGroup(self.bar, self.full, self.full_labels, self.landed_brace, self.slide_proof)
        if not side:
            self.slide_proof.next_to(VGroup(self.full, self.landed_brace), DOWN, buff=GAP.wide)
            self.slide_proof.align_to(self.landed_brace, RIGHT)
        # a student's rows the prefix pass changed: each outlined (red past the pass line, yellow for rounding) with
        # its measured difference beside it, where the brace of equal rows and its verdict would stand (the rows'
        # own figures are the measurement: the verdict over every prefix comes with the plot)
        self.slide_frames, self.gap_labels = VGroup(), VGroup()
        if d.differs:
            for n in d.slide_rows:
                bad = d.row_gaps[n] >= d.tol
                colour, what = (FAILED, "failed") if bad else (HIGHLIGHT, "highlight")
                self.slide_frames.add(role(frame_row(self.full, n, color=colour), what))
                self.gap_labels.add(role(figure_of(d.row_gaps[n], size=LABEL, color=colour), what)
                                    .next_to(self.full.cell(n, dm - 1), RIGHT, buff=GAP.normal))
            # what the figures are, over their column: each row's largest difference between the two passes
            self.gap_head = math(f"max_j lr(|{prefix_row('m')} - y_m|)", size=LABEL, color=DIM)
            self.gap_head.next_to(self.full, RIGHT, buff=GAP.normal).align_to(self.full, UP)
            self.gap_head.set_y(self.full_head.get_y())  # in the line of the pass's name
            self.gap_labels.add(self.gap_head)
            landed_group = VGroup(self.bar, self.full, self.full_labels, self.gap_labels)
        self.centre_shift = (C.center[0] - landed_group.get_x()) * RIGHT
        VGroup(self.landed_brace, self.slide_proof, self.slide_frames, self.gap_labels).shift(self.centre_shift)
        self.new_row = role(frame_row(self.full, T - 1), "highlight").shift(self.centre_shift)
        words, xm = label("new: it reads", size=LABEL, color=HIGHLIGHT), math(f"x_{T - 1}", size=LABEL, color=HIGHLIGHT)
        xm.next_to(words, RIGHT, buff=GAP.small)
        # the x on the words' baseline (their bottom: no descenders), its subscript below it
        xm.shift((words.get_bottom()[1] - (xm.get_top()[1] - math("x", size=LABEL).height)) * UP)
        self.new_tag = role(VGroup(words, xm), "highlight")
        self.new_tag.next_to(self.new_row, RIGHT, buff=GAP.small)

        # stage 2: every prefix measured (the plot), each kernel's verdict on the data beside its marks
        self.proof_fixed = proof_line(f"max_{T_}", fixed.value, size=HEADING, passed=fixed.passed)
        self.proof_blas = proof_line(f"max_{T_}", blas.value, size=HEADING, passed=blas.value == 0.0)
        title = math(f"max_(m < {T_}) lr(|{prefix_row('m')} - y_m|)", size=HEADING)
        mine = "your attention" if d.differs else "fixed order"  # a student's kernel is theirs, not the fixed order
        # (a student's plot keeps t = T, over which the pass line's label stands; the lecture's table drops it)
        self.defects = DefectPlot([(mine, d.defects_fixed, FG, self.proof_fixed),
                                   ("BLAS matmul", d.defects_blas, HIGHLIGHT, self.proof_blas)],
                                  Region(C.left, C.right, C.bottom + GAP.tight, C.top), title,
                                  row(label("prefix length", size=LABEL), math(T_, size=LABEL), gap="small"))  # words sans
        self.plot = self.defects.plot
        self.fixed_marks, self.blas_marks = self.defects.marks[mine], self.defects.marks["BLAS matmul"]
        self.key_fixed, self.key_blas = self.defects.tags[mine], self.defects.tags["BLAS matmul"]
        if d.differs:
            for mk in self.fixed_marks:  # a student's prefix lengths past the pass line: their bars in red
                if mk.value >= d.tol:
                    role(mk.set_color(FAILED), "failed")
            # the key under the one label shown (the BLAS kernel's, which it would stand under, never comes)
            self.defects.key.next_to(self.key_fixed, DOWN, buff=GAP.normal, aligned_edge=LEFT)
        # the lecture's two kernels: every prefix's figure written in a table (a log axis has no place for the
        # fixed order's exact zeros), each kernel's verdict with its bar (bit for bit) under its column
        if not d.differs:
            passed_b = d.max_blas == 0.0
            self.proof_fixed = bar_verdict("fixed order, bit for bit:", fixed.value, passed=fixed.passed, relation=f"max_{T_} =")
            self.proof_blas = bar_verdict("BLAS, " + ("bit for bit:" if passed_b else "not bit for bit:"), blas.value,
                                          passed=passed_b, relation=f"max_{T_} =")
            self.table = DefectTable([("fixed order", proper_prefixes(d.defects_fixed), self.proof_fixed),
                                      ("BLAS matmul", proper_prefixes(d.defects_blas), self.proof_blas)], C,
                                     math(f"max_(m < {T_}) lr(|{prefix_row('m')} - y_m|)", size=HEADING))
            self.fixed_marks, self.blas_marks = self.table.marks["fixed order"], self.table.marks["BLAS matmul"]
            self.key_fixed, self.key_blas = self.table.tags["fixed order"], self.table.tags["BLAS matmul"]
        # the pass line of the notebook's check, where the axis reaches it: a student's red bars rise past it (its
        # label over the last length, t = T, whose difference is always 0: the full pass against itself)
        self.pass_line = VGroup()
        lo, hi = self.plot.y_range
        if d.differs and lo < d.tol < hi:
            line = self.plot.hline(d.tol, color=DIM)
            words = label("pass line", size=SMALL, color=DIM)
            words.next_to(line, UP, buff=GAP.tight).align_to(line, RIGHT)
            self.pass_line = VGroup(line, words)

        # stage 3: one entry, bit for bit (the board fills the content), for each kernel
        t, i, j = d.entry
        own_ulps = ulp_distance(*d.fixed_values)  # 0 for the lecture; a student's rounding is counted in ulps
        self.board_fixed = self.bit_board(d.fixed_values, d.fixed_bits, own_ulps if own_ulps <= 1024 else 0, C)
        self.board_blas = self.bit_board(d.blas_values, d.blas_bits, d.blas_ulps, C)
        # which kernel computed the strips: named over them, right of the first header it clears
        # (at the heading size, else the label size; where no header leaves room, beside the verdict: the sweep,
        # long headers that name the prefix's length ran into it)
        # both kernels' names in one place, over both strips beside the first header, at one size, wherever the
        # two boards' first headers leave room (review round 10: BLAS's name sat level with the second strip only)
        options = ((HEADING, GAP.section), (LABEL, GAP.section), (HEADING, GAP.normal), (LABEL, GAP.normal))
        boards = ((self.board_fixed, mine), (self.board_blas, "BLAS matmul"))

        def clears_first(b, name, size, gap):
            tag = label(name, size=size)
            return C.right - GAP.tight - tag.width > b.heads[0].get_right()[0] + gap

        common = next(((size, gap) for size, gap in options if all(clears_first(b, n, size, gap) for b, n in boards)),
                      None)
        for b, name in boards:
            if common is not None:
                tag = label(name, size=common[0])
                tag.move_to([C.right - GAP.tight - tag.width / 2, b.heads[0].get_y(), 0])
                tag.placed = True
                b.kernel_tag = tag
                b.add(tag)
                continue
            placed = False
            for size, gap in options:
                tag = label(name, size=size)
                for h in b.heads:
                    tag.move_to([C.right - GAP.tight - tag.width / 2, h.get_y(), 0])
                    if tag.get_left()[0] > h.get_right()[0] + gap:
                        placed = True
                        break
                if placed:
                    break
            tag.placed = placed
            b.kernel_tag = tag
            b.add(tag)
        self.bits_verdict_fixed = proof_line(entry_formula(i, j, t), abs(d.fixed_values[0] - d.fixed_values[1]),
                                             size=HEADING, passed=d.fixed_values[0] == d.fixed_values[1])
        self.bits_verdict_blas = proof_line(entry_formula(i, j, t), abs(d.blas_values[0] - d.blas_values[1]),
                                            size=HEADING, passed=d.blas_values[0] == d.blas_values[1])
        for v, b in ((self.bits_verdict_fixed, self.board_fixed), (self.bits_verdict_blas, self.board_blas)):
            # level with the zoom where it fits there; a taller verdict (a student's, its ulps) takes the whole room
            fits = v.height <= b.verdict_slot.height + 1e-6 or not hasattr(b, "verdict_room")
            settle(b.verdict_slot if fits else b.verdict_room, v, LEFT)
            if not b.kernel_tag.placed:  # beside the verdict, in its line, clear of the zoom on the right
                b.kernel_tag.next_to(v, RIGHT, buff=GAP.section).set_y(v.get_y())

        # stage 4: why the order matters (two summation trees)
        self.why_title = column(label("float sums depend on their order", size=HEADING),
                                label("and BLAS picks the order from the matrix shape", size=LABEL, color=DIM),
                                gap="tight", align=ORIGIN)
        title_strip, trees_region = C.take_top(self.why_title.height, gap=GAP.wide)
        title_strip.place(self.why_title)
        self.trees = SumTrees(d.sum_terms, d.sum_partials, d.sum_orders, trees_region)
        self.why = VGroup(self.why_title, self.trees)
        self.why_values = d.sum_orders

        # stage 5: inference: a cached step is one row of the recompute
        self.inference_layout()

    def bit_board(self, values, bits, ulps, C) -> BitBoard:
        d = self.data
        t, i, j = d.entry
        T = d.X.shape[0]
        # one entry, row i and column j, as y_(i, j) (never (y_i)_j nested): the prefix's length said by its pass
        heads = [math(f'{passes(T)}: {n_sub("y", f"{i}, {j}")} = {float_text(values[0])}', size=LABEL),
                 math(f'{passes(t)}, {prefix_length(t)}: {prefix_row(f"{i}, {j}")} = {float_text(values[1])}',
                      size=LABEL)]
        return BitBoard.fitted(heads, bits, C, ulps=ulps)

    def inference_layout(self) -> None:
        """A cached decoding step beside the full recompute: on the left the newest query's weights over the
        cached rows of V, summed into one row ``y_(T−1)^cached``; on the right the full recompute's outputs Y,
        its last row ``y_(T−1)^full`` level with the cached row, both outlined; under them each kernel's verdict
        on that row, with its bar (bit for bit)."""
        d = self.data
        T, dm = d.Y_full.shape
        C = self.layout.content
        sc = self.scales()
        last = T - 1
        rel = f"{cache_formula(last)} ="
        self.inf_fixed = bar_verdict("fixed order, bit for bit:", d.cache_fixed, passed=d.cache_fixed == 0.0,
                                     relation=rel, size=LABEL)
        blas_ok = d.cache_blas == 0.0
        self.inf_blas = bar_verdict("BLAS, " + ("bit for bit:" if blas_ok else "not bit for bit:"),
                                    d.cache_blas, passed=blas_ok, relation=rel, size=LABEL)
        lines = row(self.inf_fixed, self.inf_blas, gap="wide", align="top")
        if lines.width > C.width:
            lines = column(self.inf_fixed, self.inf_blas, gap="normal")
        self.inf_lines = lines
        strip, top = C.take_bottom(lines.height, gap=GAP.wide)
        settle(strip, lines)
        self.cached_tag = label("cached step", size=HEADING)
        self.recompute_tag = label("full recompute", size=HEADING)
        heads_h = self.cached_tag.height + GAP.normal
        names_h = math('y_5^"cached"', size=HEADING).height + GAP.small  # the row names large: their words read
        w_w = max(0.95, math("0.00", size=LABEL).width * 1.35)  # the weights column prints two decimals
        sym_w = math("=", size=HEADING).width + 2 * GAP.small
        full_w = math(f'y_{last}^"full"', size=HEADING).width + GAP.small
        bar_w = ColorBar(sc["Y_full"]).width + GAP.normal
        fixed_w = w_w + GAP.small + sym_w + GAP.section + full_w + bar_w + GAP.normal
        c = min((top.height - heads_h - names_h) / T, (top.width - fixed_w) / (3 * dm), 0.85)
        self.inf_A = shows(value_map(d.a_step, sc["A"], w_w, c, size=LABEL), "a_step")
        # the weights as printed figures in outlined cells, no colour (review round 10: a third colour map, the
        # weights', with no bar beside the outputs' diverging one): the one colour map here is the outputs'
        for n in range(T):
            self.inf_A.cell(n, 0).set_fill(opacity=0.0).set_stroke(DIM, width=2, opacity=1.0)
        self.inf_A.labels.set_color(FG)
        self.inf_V = shows(Heatmap(d.V, sc["V"], c), "V")
        self.inf_y = shows(Heatmap(d.y_cached, sc["Y_full"], c), "y_cached")
        self.inf_Y = shows(Heatmap(d.Y_full, sc["Y_full"], c), "Y_full")
        eq = math("=", size=HEADING)
        self.inf_ops = VGroup(eq)
        # left: the weights beside the rows they weigh, V, then "=" and the one row they sum to, level with the
        # last row; right: the recompute's Y, its last row level with the cached one
        self.inf_A.next_to(self.inf_V, LEFT, buff=GAP.small)
        y_last = self.inf_V.cell(last, 0).get_y()
        eq.next_to(self.inf_V, RIGHT, buff=GAP.small).set_y(y_last)
        self.inf_y.next_to(eq, RIGHT, buff=GAP.small).set_y(y_last)
        self.inf_Y.next_to(self.inf_y, RIGHT, buff=GAP.section).align_to(self.inf_V, UP)
        full_name = math(f'y_{last}^"full"', size=HEADING).next_to(self.inf_Y.cell(last, dm - 1), RIGHT,
                                                                    buff=GAP.small)
        self.inf_bar = ColorBar(sc["Y_full"], height=T * c * 0.8)
        self.inf_bar.next_to(full_name, RIGHT, buff=GAP.normal).set_y(self.inf_Y.get_y())
        body = VGroup(self.inf_A, self.inf_V, eq, self.inf_y, self.inf_Y, full_name, self.inf_bar)
        body.move_to([top.center[0], top.bottom + (top.height - heads_h - names_h) / 2, 0])
        # names on the data: the weights, the cached values, the one row summed; Y
        self.inf_names = VGroup(
            math(f"a_({last} n)", size=LABEL).next_to(self.inf_A, UP, buff=GAP.small),
            math("V", size=LABEL).next_to(self.inf_V, UP, buff=GAP.small),
            math(f'y_{last}^"cached"', size=HEADING).next_to(self.inf_y, UP, buff=GAP.small),
            math("Y", size=LABEL).next_to(self.inf_Y, UP, buff=GAP.small),
            full_name)
        self.inf_names[1].align_to(self.inf_names[0], DOWN)
        self.inf_names[3].align_to(self.inf_names[0], DOWN)
        left = VGroup(self.inf_A, self.inf_V, eq, self.inf_y)
        self.cached_tag.move_to([left.get_x(), self.inf_names.get_top()[1] + GAP.normal + self.cached_tag.height / 2, 0])
        self.recompute_tag.move_to([self.inf_Y.get_x(), self.cached_tag.get_y(), 0])
        # the picture (names and heads included) in the middle of the room over the verdicts
        pic = VGroup(self.cached_tag, self.recompute_tag, self.inf_names, body)
        pic.shift((top.center[1] - pic.get_y()) * UP)
        self.inf_frame = VGroup()
        self.cached_rows = role(VGroup(frame_row(self.inf_y, 0), frame_row(self.inf_Y, last)), "highlight")
        self.inference = VGroup(self.cached_tag, self.recompute_tag, self.inf_names, body, self.cached_rows, lines)
        # once the two rows are outlined, what made them recedes: the weights, V, the "=", the recompute's earlier
        # rows and the names of what is dimmed (review round 3: two full panels and two verdicts read as a dashboard)
        # (the weights' printed figures recede further, to the background: on a dimmed cell, dimmed ink would read
        # at under 3:1)
        self.inf_context = VGroup(*[c for c in self.inf_A.submobjects if c is not self.inf_A.labels], self.inf_V, eq, *[self.inf_Y.cell(n, k) for n in range(last)
                                                               for k in range(dm)],
                                  self.inf_names[0], self.inf_names[1], self.inf_names[3], self.cached_tag,
                                  self.recompute_tag)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T, dm = d.Y_full.shape
        full, prefix = self.full, self.prefix
        alone = VGroup(self.bar, full, self.full_labels, self.full_head)

        # the full pass, alone in the middle
        alone.shift(self.alone_shift)
        hide(full, self.full_labels, prefix, self.prefix_labels)
        self.add(full, self.full_labels)
        self.beat("full", FadeIn(self.full_head), FadeIn(self.bar),
                  Reveal(full, [[*row_parts(full, i), self.full_labels[i]] for i in range(T)],
                         shift=GAP.small * LEFT), run_time=1.6, subject=alone,
                  why={"empty": "one pass's outputs, alone: the second pass arrives beside them in the next beat"})
        # it steps aside for the prefix pass
        self.play(alone.animate.shift(-self.alone_shift), run_time=0.7)
        self.add(prefix, self.prefix_labels)
        self.beat("prefix", FadeIn(self.prefix_head), FadeIn(self.prefix_len),
                  Reveal(prefix, [[*row_parts(prefix, i), self.prefix_labels[i]] for i in range(T - 1)],
                         shift=GAP.small * RIGHT), run_time=1.6,
                  subject=VGroup(alone, prefix, self.prefix_labels, self.prefix_head, self.prefix_len),
                  why={**(shape_why(T, dm, "each pass's output grid") or {}),
                       **({"empty": "the band under the maps is kept for the verdict the slide brings (too wide beside "
                                    "them)"} if self.verdict_below else {})})

        # the prefix rows slide onto the full rows and land on the same numbers; the brace and the verdict
        dx = full.get_center()[0] - prefix.get_center()[0]
        self.landed = []
        slides = []
        self.targets = [full.cell(i, 0).get_center().copy() for i in range(T)]  # the full rows, as they stand now
        for i in range(T - 1):
            r = VGroup(*row_parts(prefix, i), self.prefix_labels[i])
            self.landed.append(prefix.cell(i, 0).get_center() + dx * RIGHT)
            slides.append(Succession(r.animate(run_time=0.7).shift(dx * RIGHT), FadeOut(r, run_time=0.25)))
        # a student's rows that changed: outlined, their differences where the brace of equal rows would stand
        if d.differs:
            marks = VGroup(self.slide_frames, self.gap_labels)
            landed = [Create(self.slide_frames), FadeIn(self.gap_labels)]
        else:
            # the prefix's length stays said under its verdict (its grid and "t = 5" under it have gone)
            self.slide_len = math(prefix_length(T - 1), size=LABEL, color=DIM)
            self.slide_len.next_to(self.slide_proof, DOWN, buff=GAP.small).align_to(self.slide_proof.value, LEFT)
            content = self.layout.content
            if self.slide_len.get_bottom()[1] < content.bottom:  # no room under the verdict (the sweep: T = 6,
                # d = 4): beside it, on its line, or above it where the line is full
                self.slide_len.next_to(self.slide_proof, RIGHT, buff=GAP.normal)
                if self.slide_len.get_right()[0] > content.right:
                    self.slide_len.next_to(self.slide_proof, UP, buff=GAP.small).align_to(self.slide_proof.value, LEFT)
            marks = VGroup(self.landed_brace, self.slide_proof, self.slide_len)
            landed = [Create(self.landed_brace), FadeIn(VGroup(self.slide_proof, self.slide_len), shift=GAP.tight * UP)]
        self.beat(fail_key("slide", d.differs), FadeOut(self.prefix_head), FadeOut(self.prefix_len),
                  Succession(LaggedStart(*slides, lag_ratio=0.3, run_time=2.2),
                             alone.animate(run_time=0.5).shift(self.centre_shift),
                             AnimationGroup(*landed, run_time=0.6)),
                  run_time=3.3, subject=VGroup(alone, marks), why=LANDED)
        self.remove(prefix, self.prefix_labels)
        self.beat(fail_key("last_row", d.differs), Create(self.new_row), FadeIn(self.new_tag), run_time=1.0,
                  subject=VGroup(alone, marks, self.new_row, self.new_tag), why=LANDED)

        # every prefix, measured: the maps make way for the plot
        self.stage_one = VGroup(self.bar, full, self.full_labels, self.full_head, marks, self.new_row, self.new_tag)
        p = self.plot
        # the key to the diamonds only where a diamond is drawn (a student may have no difference of 0)
        key = [self.defects.key] if any(mk.exact for mk in self.fixed_marks) else []
        self.plot_parts = VGroup(self.defects.title, p.axes, p.grid, p.x_tick_labels, p.y_tick_labels,
                                 self.defects.x_title, *key, self.pass_line, self.fixed_marks, self.key_fixed)
        if not d.differs:  # the lecture: the table of figures, the fixed order's column first
            tb = self.table
            fixed_col = tb.columns["fixed order"]
            self.plot_parts = VGroup(tb.title, tb.ts, fixed_col)
            # alone, the fixed order's column and its verdict stand centred, the verdict beside the column (the
            # BLAS kernel's column takes that place in its beat)
            blas_col = tb.columns["BLAS matmul"]
            self.table_step = VGroup(blas_col[0], blas_col[2]).width + GAP.wide
            VGroup(tb.ts, *fixed_col[:3]).shift(self.table_step / 2 * RIGHT)
            self.proof_fixed.shift(self.table_step / 2 * LEFT)
            self.beat("every_prefix", Succession(
                FadeOut(self.stage_one, shift=GAP.normal * LEFT),
                AnimationGroup(FadeIn(tb.title), FadeIn(tb.ts), FadeIn(fixed_col[0]), Create(fixed_col[1])),
                LaggedStart(*[FadeIn(mk) for mk in self.fixed_marks], lag_ratio=0.15),
                FadeIn(self.proof_fixed, shift=GAP.small * UP)), run_time=2.0, subject=self.plot_parts,
                why=TABLE)
        else:
            self.beat(fail_key("every_prefix", d.differs), Succession(  # one picture leaves before the next comes
                FadeOut(self.stage_one, shift=GAP.normal * LEFT),
                AnimationGroup(FadeIn(self.defects.title), Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels),
                               FadeIn(p.y_tick_labels), FadeIn(self.defects.x_title), *[FadeIn(k) for k in key],
                               *([FadeIn(self.pass_line)] if len(self.pass_line) else []),
                               LaggedStart(*[FadeIn(mk) for mk in self.fixed_marks], lag_ratio=0.15)),
                FadeIn(self.key_fixed, shift=GAP.small * LEFT)), run_time=2.0, subject=self.plot_parts, why=PLOT)

        # bit for bit: one entry's 64 bits from both passes, the subject of the frame
        self.beat(fail_key("bitwise", d.differs), Succession(FadeOut(self.plot_parts),
                                        AnimationGroup(FadeIn(self.board_fixed), FadeIn(self.bits_verdict_fixed))),
                  run_time=1.6, subject=VGroup(self.board_fixed, self.bits_verdict_fixed),
                  why=shape_why(T, dm, "", "the two strips of 64 bits span the width whatever the shape; with few "
                                           "tokens the headers that name the two passes are short"))
        if d.differs:  # a student's attention that is not exact: the aside on the lecture's two kernels is not theirs
            return

        # the BLAS kernel: back to the plot, its bars and its verdict
        blas_col = self.table.columns["BLAS matmul"]
        self.beat("blas" if d.max_blas != 0.0 else "blas_same",
                  Succession(FadeOut(VGroup(self.board_fixed, self.bits_verdict_fixed)), FadeIn(self.plot_parts),
                             AnimationGroup(VGroup(self.table.ts, *fixed_col[:3]).animate.shift(
                                 self.table_step / 2 * LEFT), self.proof_fixed.animate.shift(
                                 self.table_step / 2 * RIGHT), run_time=0.5),
                             AnimationGroup(Dim([self.fixed_marks], self.FIXED_DIMMED),
                                            Dim([self.key_fixed], self.FIXED_WORDS),
                                            FadeIn(blas_col[0]), Create(blas_col[1])),
                             LaggedStart(*[FadeIn(mk) for mk in self.blas_marks], lag_ratio=0.15),
                             FadeIn(self.proof_blas, shift=GAP.small * UP)),
                  run_time=2.4, subject=VGroup(self.plot_parts, blas_col), why=TABLE)
        # and the same entry's bits under BLAS
        self.beat("blas_bits" if d.blas_ulps else "blas_bits_same",
                  Succession(FadeOut(VGroup(self.plot_parts, blas_col)),
                             AnimationGroup(FadeIn(self.board_blas), FadeIn(self.bits_verdict_blas))),
                  run_time=1.6, subject=VGroup(self.board_blas, self.bits_verdict_blas))

        # the aside: why the order matters
        self.beat("why", Succession(FadeOut(VGroup(self.board_blas, self.bits_verdict_blas)),
                                    FadeIn(self.why_title),
                                    LaggedStart(FadeIn(self.trees.leaves), Create(self.trees.lines),
                                                FadeIn(self.trees.partials), FadeIn(self.trees.roots),
                                                FadeIn(self.trees.neq), lag_ratio=0.5), FadeIn(self.trees.orders)),
                  run_time=2.4, subject=self.why, why=TREES)
        # what it means for inference: a cached step is one row of the recompute
        self.beat("inference" if d.cache_blas != 0.0 else "inference_same",
                  Succession(FadeOut(self.why),
                             FadeIn(VGroup(self.cached_tag, self.inf_names[:3], self.inf_A, self.inf_V,
                                           self.inf_ops, self.inf_y)),
                             FadeIn(VGroup(self.recompute_tag, self.inf_names[3:], self.inf_Y, self.inf_bar)),
                             Create(self.cached_rows),
                             AnimationGroup(Dim([self.inf_context], self.CONTEXT_DIMMED),
                                            Dim([self.inf_A.labels], self.FIGURES_RECEDED)),
                             FadeIn(self.inf_lines, shift=GAP.small * UP)),
                  run_time=2.4, subject=VGroup(self.inf_y, self.cached_rows, self.inf_names[2], self.inf_names[4],
                                               self.inf_lines), why=INFERENCE)

    # ------------------------------------------------------------------ the takeaway
    def closing_parts(self) -> list:
        d = self.data
        fixed, _ = prefix_proofs(d)
        if not hasattr(self, "proof_close"):
            self.close_layout()
        return [VGroup(self.close_bar, self.close_map, self.close_labels, self.prefix_brackets, self.close_frames),
                self.proof_close]

    def closing_key(self) -> str:
        return fail_key("close", self.data.differs)

    def close_layout(self) -> None:
        """The close: the full outputs as large as the content allows above the verdict, every prefix
        bracketed beside them, the colour bar on the left."""
        d = self.data
        T, dm = d.Y_full.shape
        C = self.layout.content
        fixed, _ = prefix_proofs(d)
        self.proof_close = proof_line(fixed.formula, fixed.value, size=HEADING, passed=fixed.passed)
        if not d.differs:  # the lecture's kernel and its bar: BLAS was shown a unit in the last place off
            self.proof_close = worded_verdict("fixed order, bit for bit:", fixed.value, passed=fixed.passed,
                                              size=HEADING, relation=f"{fixed.formula} =")
        num_h = math("6", size=SMALL).height + GAP.tight
        ch = min(self.MAX_CELL_H, (C.height - self.proof_close.height - GAP.wide - num_h) / T)
        lab_w = math(f"y_{T - 1}", size=HEADING).width + GAP.small
        bar_w = ColorBar(self.scale).width + GAP.wide
        brackets_w = (T - 1) * 0.42 + GAP.normal
        cw = min(self.MAX_CELL_W, (C.width * 0.9 - lab_w - bar_w - brackets_w) / dm)
        self.close_map = shows(value_map(d.Y_full, self.scale, cw, ch, size=HEADING), "Y_full")
        self.close_labels = row_names(self.close_map, "y", size=HEADING)
        self.close_bar = ColorBar(self.scale, height=T * ch * 0.8)
        self.close_bar.next_to(self.close_labels, LEFT, buff=GAP.wide)
        self.prefix_brackets = prefix_brackets(self.close_map)
        # a student's rows that some prefix's pass changed: outlined (red past the pass line, yellow for rounding)
        self.close_frames = VGroup(*[role(frame_row(self.close_map, n, color=FAILED), "failed")
                                     if d.close_gaps[n] >= d.tol else
                                     role(frame_row(self.close_map, n), "highlight") for n in d.close_rows])

    def closing(self) -> None:
        """The takeaway brought forward under the last caption (the base's closing, with the shape's excuse)."""
        take = self.takeaway()
        T, dm = self.data.Y_full.shape
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD, subject=take,
                  why=shape_why(T, dm, "the output grid"))

    def takeaway(self):
        """The full outputs with every proper prefix bracketed (t = 1 … T−1: the rows each prefix's pass gives), and the
        measured exact zero over every prefix."""
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        C = self.layout.content

        def picture(p):
            return column(*p, gap="wide", align=ORIGIN)

        # a gap under the header rule: the brackets' t labels stood against it (review round 3)
        room = C.take_top(GAP.small, gap=0.0)[1]
        return restage(self, self.closing_parts(), picture, room, fill=1.0, most=1.0)


def proper_prefixes(defects) -> np.ndarray:
    """``prefix_defects``' figures for the proper prefixes only, t = 1 … T−1: its last entry, t = T, compares the
    full pass with itself (always 0, no evidence), so the clip neither shows nor counts it."""
    return np.asarray(defects, float)[:-1]


def reason(gap: float, tol: float) -> str:
    """Why a student's rows changed, as the failing sentences say it: past the pass line a later token reached
    back into them; under it, rounding (the sums in another order, as BLAS does)."""
    return "a later token reaches back into them" if gap >= tol else "by rounding, not bit for bit"


def rows_text(rows) -> str:
    """Rows in words: ``row 2``, ``rows 0 and 3``, ``rows 0, 1 and 4``."""
    rows = [str(r) for r in rows]
    if len(rows) == 1:
        return f"row {rows[0]}"
    return "rows " + ", ".join(rows[:-1]) + " and " + rows[-1]


def prefix_brackets(hm: Heatmap) -> VGroup:
    """Right of ``hm``, one bracket per proper prefix length ``t = 1 … T−1``, each from the top of the first row
    down to the bottom of row ``t − 1`` (the rows the pass over the first ``t`` tokens gives), its ``t`` over its
    head and ``t =`` before them: every prefix, on the data (t = T would be the full pass itself)."""
    from manim import Line

    T = hm.values.shape[0]
    x0 = hm.get_right()[0] + GAP.normal
    step = max(math("6", size=SMALL).width + GAP.tight, 0.42)
    top = hm.cell(0, 0).get_top()[1] - 0.05
    out = VGroup()
    for t in range(1, T):
        x = x0 + (t - 1) * step
        bottom = hm.cell(t - 1, 0).get_bottom()[1] + 0.05
        # bold, in the highlight: the brackets are the close's point, every prefix a run of the full rows (review
        # round 3: thin grey lines were the least salient thing on screen)
        br = VGroup(Line([x - 0.1, top, 0], [x, top, 0], color=HIGHLIGHT, stroke_width=5),
                    Line([x, top, 0], [x, bottom, 0], color=HIGHLIGHT, stroke_width=5),
                    Line([x - 0.1, bottom, 0], [x, bottom, 0], color=HIGHLIGHT, stroke_width=5))
        role(br, "highlight")
        num = role(math(str(t), size=SMALL, color=HIGHLIGHT), "highlight").next_to([x, top, 0], UP, buff=GAP.tight)
        out.add(VGroup(br, num))
    nums = VGroup(*[g[1] for g in out])
    base = min(n.get_bottom()[1] for n in nums)
    for n in nums:  # one baseline
        n.shift((base - n.get_bottom()[1]) * UP)
    head = role(math(f"{T_} =", size=SMALL, color=HIGHLIGHT), "highlight").next_to(nums, LEFT, buff=GAP.small)
    head.align_to(nums, DOWN)
    out.add(head)
    return out


def blas_marks_text(defects) -> str:
    """What the BLAS kernel's column of the table reads, in words: each positive figure at its prefix length
    ``t`` (``≈ 2.2 × 10⁻¹⁶ at t = 1``), then 0 at the others (``0 at every t`` when there is none)."""
    v = np.asarray(defects, float)
    up = [f"{fmt_measure(x)} at t = {t}" for t, x in enumerate(v, 1) if x > 0]
    if not up:
        return "0 at every t"
    said = up[0] if len(up) == 1 else ", ".join(up[:-1]) + " and " + up[-1]
    return said if len(up) == len(v) else said + ", 0 at the other lengths"


def float_text(x: float) -> str:
    """A float64 printed in full: the shortest decimal that is exactly this float (Python's ``repr``
    digits), as Typst math (a minus sign, never e-notation)."""
    s = np.format_float_positional(float(x), unique=True, trim="-")
    return s.replace("-", "−")


def prefix_proof_formula(t: int) -> str:
    """``max_(m < t) |y_m^((t)) − y_m|`` for one prefix length (the letter t on screen, its value said beside the
    prefix's pass: a digit bound beside the letter superscript would mix the two)."""
    return f"max_(m < {T_}) lr(|{prefix_row('m')} - y_m|)"


def entry_formula(i: int, j: int, t: int) -> str:
    """``|y_(i, j)^((t)) − y_(i, j)|``: one entry of the two passes (row i, column j; never nested indices)."""
    return f"lr(|{prefix_row(f'{i}, {j}')} - {n_sub('y', f'{i}, {j}')}|)"


def cache_formula(last: int) -> str:
    """The cached step's own difference: row ``last`` decoded with the cache against the same row of a full
    recompute, its largest entry (the figure of the outlined row, not of the whole product)."""
    return f'max lr(|y_{last}^"cached" - y_{last}^"full"|)'


def last_step_defect(li, kernel: str) -> float:
    """The last decoding step's row (``kv_cache_decode``, kernel ``kernel``) against the same row of causal
    attention recomputed over every token with that kernel: the largest absolute difference of its entries."""
    tr = kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv, kernel=kernel)
    full = self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True, kernel=kernel)[0]
    return float(np.max(np.abs(tr.Y_cached[-1] - full[-1])))
