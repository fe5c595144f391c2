"""05 ``KVCache`` (§4, Q2): decoding token by token into empty cache slots (one new key and
value a step, only the new query computed), each output row checked against a full
recompute; then bidirectional attention, where appending a token moves every past output
(measured per row on a log axis).  One colour scale for every cell of the clip.  Ends on the
two measured results: cached = recompute, exactly; bidirectional rows move by at least the
measured amount.

The picture description it shares with its still (scales, code, proofs) is in
``scenes/figures/causal.py``; the widgets are in ``scenes/kit/proofs.py``.

Render directly with ``manim -ql scenes/clips/c05_kv_cache.py KVCache``.
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
    GrowFromEdge,
    LaggedStart,
    Succession,
    VGroup,
)

from mathcore import (
    KVCacheTrace,
    bidirectional_staleness,
    kv_cache_decode,
    lecture_inputs,
)
from mathcore.causal import (
    append_change,
    prefix_outputs,
)
from mathcore.config import LectureConfig
from scenes.clips.c05_widgets import DecodeBoard, StaleChart, row_slots
from scenes.figures.causal import (
    NN,
    kv_proofs,
    kv_scales,
)
from scenes.kit import (
    DIM,
    LABEL,
    ClipScene,
    ColorBar,
    fmt_measure,
    fmt_value,
    label,
    math,
    swap,
)
from scenes.kit.binding import shows
from scenes.kit.compose import GAP, column
from scenes.kit.layout import Region
from scenes.kit.numbers import tick
from scenes.kit.proofs import Reveal, frame_row, hide, morph_cells, proof_line, restage, row_names, row_parts, settle
from scenes.kit.widgets import Heatmap


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

