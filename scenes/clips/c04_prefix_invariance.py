"""04 ``PrefixInvariance`` (§4): the causal pass on all T tokens and on the first T−1; the prefix
rows slide onto the full rows and land on the same numbers.  Then, one subject a frame: the
defect of every prefix on a log axis (the fixed order's exact zeros on the floor); one output
entry's 64 bits from both passes, equal bit for bit; the BLAS matmul kernel's honest
≈ 10⁻¹⁶ and the last bits it changes; why (float sums depend on their order).  Ends on the
full outputs with ``max_t |Y_full[:t] − Attn(X[:t])| = 0``, exact.

The picture description it shares with its still (scales, code, proofs) is in
``scenes/figures/causal.py``; the widgets are in ``scenes/kit/proofs.py``.

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
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from mathcore import (
    attention_fn,
    lecture_inputs,
    prefix_defects,
    prefix_invariance_max_defect,
)
from mathcore.causal import (
    SUM_ORDER_EXAMPLE,
    float_sum_orders,
)
from mathcore.causal_bits import float_bits, prefix_entry_pair, worst_prefix_entry
from mathcore.config import LectureConfig
from scenes.clips.c04_widgets import BitPair, DefectPlot
from scenes.figures.causal import (
    T_,
    Y_FULL,
    Y_PREFIX,
    prefix_proofs,
    prefix_scales,
    upto,
)
from scenes.kit import (
    DIM,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    VERIFIED,
    ClipScene,
    ColorBar,
    fmt_measure,
    label,
    math,
    swap,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, column, reveal
from scenes.kit.layout import Region, fit_label
from scenes.kit.motion import Dim
from scenes.kit.proofs import (
    Reveal,
    check_mark,
    frame_row,
    hide,
    proof_line,
    restage,
    row_names,
    row_parts,
    settle,
    value_map,
)


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

