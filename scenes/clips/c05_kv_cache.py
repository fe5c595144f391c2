"""05 ``KVCache`` (§4, Q2): decoding token by token into empty cache slots: each step appends one key and
one value to the K and V caches (side by side: the cache is the pair): the new token's query, key and
value are computed, the earlier keys and values read from the cache, and one new output row written; a
frame names what the cache holds, the K and V rows of the tokens before, and "new" the
row this step appended.  Then bidirectional attention, where appending a token moves every past output:
the outputs recolour row by row while a staircase table beside them fills with how far each past row
moved (labels on the data: each row y_n beside its first cell, columns the token appended, ‖Δy_n‖ at the
corner).  Ends on the two results
as verdicts: ✓ cached decoding equals a full recompute, exactly; ✗ bidirectionally the past rows move by
at least the measured amount.

The K cache and the query are painted on the deck's "inputs" scale; the V cache and the outputs on its
"outputs" scale (``kit.scales``; it holds V: causally y_0 = v_0, one row in one colour), whose colour bar
stands beside them: the same colours as every other clip showing them.

The picture description it shares with its still (scales, proofs) is in ``scenes/figures/causal.py``;
the widgets only this clip draws are in ``c05_widgets.py``.

Render directly with ``manim -ql scenes/clips/c05_kv_cache.py KVCache``.
"""

from __future__ import annotations

from dataclasses import dataclass

import math as _math

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
    Group,
    LaggedStart,
    Succession,
    SurroundingRectangle,
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
from scenes.clips.c05_widgets import (
    TOKEN_INK,
    ChangeTable,
    DecodeBoard,
    clashes_with_highlight,
    row_slots,
    weight_text,
)
from scenes.figures.causal import (
    M,
    kv_proofs,
    kv_scales,
)
from scenes.kit import (
    DIM,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    ClipScene,
    fmt_measure,
    label,
    math,
    swap,
)
from scenes.kit.binding import claim, names, role, shows
from scenes.kit.compose import GAP, column, row
from scenes.kit.layout import LayoutError, Region, legible_scale
from scenes.kit import numbers, scales as deck_scales
from scenes.kit.numbers import measure
from scenes.kit.proofs import (
    Reveal,
    frame_row,
    hide,
    morph_cells,
    proof_line,
    row_names,
    row_parts,
    settle,
    worded_line,
    worded_verdict,
)
from scenes.kit.widgets import ColorBar, Heatmap


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
    causal_changes: tuple[np.ndarray, ...]  # append_change(causal=True): entry m-1 is (m,), the causal staircase
    cmap_signed: str


def shape_why(T: int, d: int, what: str) -> dict | None:
    """The excuse from the half-empty check for a picture whose size the data's shape sets (``what``): only
    for the shapes that make it small against a 16:9 frame (few tokens or a narrow model; the lecture's own
    T = 6, d = 4 fills it); ``None`` otherwise."""
    if T > 4 and d > 2:
        return None
    return {"empty": f"{what} has {T} rows of {d} features: its cells stay at a size that reads as a grid, "
                     "which leaves part of a 16:9 frame empty"}


def filling_why(T: int, d: int) -> dict:
    """The excuse from the half-empty check while the caches fill (the first two steps): the outlined empty
    slots are the rows the next steps write, the picture of a cache still filling (and the shape's, if any)."""
    why = dict(shape_why(T, d, "the decoding board") or {})
    why["empty"] = ("the caches are still filling: their outlined empty slots are the rows the next steps write"
                    + (f"; {why['empty']}" if "empty" in why else ""))
    return why


# why the first beat is excused from the half-empty and dashboard checks
EMPTY_CACHE = {
    "empty": "the picture is the empty cache before decoding: its slots are the subject, and they fill from the "
             "next beat on",
    "dashboard": "the columns of empty slots are one board (their row names, which join them, arrive with their rows)",
}


STAIRCASE = ("a table of changes is a staircase: under its diagonal there is no past row to move, so those cells "
             "stay empty")
CAUSAL_FLIP = {"empty": "the causal table of changes prints 0 in the same cells as the bidirectional table (so the flip "
                        "reads as the same table), its lower triangle empty (no past row to move); its one verdict "
                        "stands alone under it"}


def lower_bound(x: float, digits: int = 2) -> numbers.Figure:
    """The smallest measured change as a bound its printed digits keep true: ``x`` cut down (never rounded up)
    to ``digits`` significant digits and written ``≥ 0.010`` (the exact 0.01009… is at least 0.010; a printed
    "0.010" for 0.0097 would not be).  ``value`` is the printed bound, at most ``x``."""
    x = float(x)
    if not x > 0.0:
        return measure(x, digits)
    step = 10.0 ** (_math.floor(_math.log10(x)) - digits + 1)
    b = _math.floor(x / step) * step
    f = measure(b, digits)
    while float(f.text) > x:  # a float's last bit: one step lower
        b -= step
        f = measure(b, digits)
    return numbers.Figure(float(f.text), f">= {f.math}", f"≥ {f.text}", approx=True)


class KVCache(ClipScene):
    """05 · The KV cache: each token computes its own q, k, v; the earlier k, v are read from the cache."""

    TIDY_PLAYS = True
    STAGED = True

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
            causal_changes=tuple(causal),
        )

    def scales(self) -> dict:
        d = self.data
        return {**kv_scales(d, self.cfg), "weights": deck_scales.scale("weights", self.cfg),
                "staleness": deck_scales.scale("output changes", self.cfg, values=[*d.staleness, *d.causal_changes])}

    @property
    def stale_bound(self) -> numbers.Figure:
        """The bidirectional verdict's figure: the smallest change of a past row, as a bound (``≥ 0.010``)."""
        return lower_bound(self.data.min_stale)

    def caption_values(self) -> dict:
        d = self.data
        T = len(d.trace.steps)
        out = {"T": T, "last": T - 1, "max_defect": fmt_measure(d.max_defect),
               "min_stale": self.stale_bound.text, "causal_change_max": fmt_measure(d.causal_change_max),
               "max_stale": fmt_measure(max(float(s.max()) for s in d.staleness)),
               "first_weight": weight_text(d.trace.steps[0].weights[0])}

        def bound(name, value, *attrs):  # a claim once what shows it is built (the title card has nothing yet)
            mobs = [getattr(self, a, None) for a in attrs]
            if all(m is not None for m in mobs):
                out[name] = claim(value, *mobs)

        if hasattr(self, "slots"):  # each column's slots were drawn on their own
            out["slots"] = claim(f"{T} empty slots", *self.slots)
        bound("query", "query q 0", "q_map")
        bound("first_weight", weight_text(d.trace.steps[0].weights[0]), "weight_text0")
        bound("cache_rows", f"{T} rows", "K_map", "V_map")
        bound("cached_rows", f"rows 0 to {T - 2}", "brace")
        bound("max_defect", fmt_measure(d.max_defect), "proof")
        bound("bi_map", "bidirectional outputs", "bi_map")
        bound("table", "table of changes", "table_frame")
        bound("close_tables", "two tables of changes", "table_close", "c_table_close")
        bound("close_cached", fmt_measure(d.causal_change_max), "cached_verdict")
        bound("close_stale", self.stale_bound.text, "bidir_verdict")
        if getattr(self, "recompute_close", None) is not None:
            out["close_recompute"] = claim(f", and across the bottom a green check: cached equals the full recompute, "
                                           f"the largest difference {fmt_measure(d.max_defect)}", self.recompute_close)
        else:
            out["close_recompute"] = ""
        bound("min_stale", self.stale_bound.text, "proof_bi")
        bound("read", "k 0 and v 0", "read_marks")
        bound("max_stale", fmt_measure(max(float(s.max()) for s in d.staleness)), "proof_bi")
        bound("causal_change_max", fmt_measure(d.causal_change_max), "proof_causal")
        bound("causal_table", "every cell of the table of changes reads 0", "c_table")
        bound("causal_map", "causal outputs", "c_map", "c_title")
        bound("next_layer", "the next layer computes its keys and values from these y n", "next_layer")
        return out

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        d = self.data
        steps = d.trace.steps
        C = self.layout.content
        sc = self.scales()
        self.in_scale, self.out_scale = sc["K"], sc["trace.Y_cached"]
        cached, bidir, causal = kv_proofs(d)
        # the verdict in clip 04's notation (y_m cached against y_m full) and with its bar: the decoder sums in one
        # fixed order (clip 04 showed BLAS a unit in the last place off)
        self.proof = worded_verdict("fixed order, bit for bit:", cached.value, passed=cached.passed, size=HEADING,
                                    relation=f'max_{M} lr(|y_{M}^"cached" - y_{M}^"full"|) =')
        self.proof_value = self.proof.value
        self.board = b = DecodeBoard(steps, d.trace.Y_cached, self.in_scale, self.out_scale, C.inset(GAP.tight, GAP.hair),
                                     w_scale=sc["weights"])
        settle(b.top_strip, self.proof)
        shows(b.K_map, "K")
        shows(b.V_map, "V")
        shows(b.Y_map, "trace.Y_cached")
        self.K_map, self.V_map, self.Y_map, self.q_map = b.K_map, b.V_map, b.Y_map, b.q_map
        self.slots = b.slots
        self.brace = b.brace
        self.weight_groups, self.chips, self.tokens = b.weights, b.chips, b.tokens
        self.weight_text0 = b.weights[0][0]
        self.q_label = b.q_labels[0]
        self.bidirectional_layout()

    def bidirectional_layout(self) -> None:
        """The bidirectional half: its outputs on the left, the table of how far each past row moved beside
        them (row for row), as large as the content allows; the two verdicts (each under its name) come
        under them once the picture makes room (``proof_top``: where it then stands)."""
        d = self.data
        T = len(d.trace.steps)
        C = self.layout.content
        _, bidir, causal = kv_proofs(d)
        self.proof_bi = proof_line(bidir.formula, self.stale_bound, size=HEADING, passed=False)
        self.proof_causal = proof_line(causal.formula, causal.value, size=HEADING, passed=causal.passed)
        rows_ = []
        for words, p in (("bidirectional", self.proof_bi), ("causal", self.proof_causal)):
            rows_.append(column(label(words, size=HEADING, color=DIM), p, gap="tight"))
        self.proof_bi_row, self.proof_causal_row = rows_
        proofs = row(*rows_, gap="section", align="top")
        strip, self.proof_top = C.take_bottom(proofs.height, gap=GAP.wide)
        settle(strip, proofs)
        self.stale_value, self.causal_value = self.proof_bi.value, self.proof_causal.value

        self.bi_stages = []
        for m in range(T):
            st = np.array(d.Y_bidir_full, dtype=float)
            st[: m + 1] = d.Y_bidir[m]
            self.bi_stages.append(st)
        # why stale outputs matter to a cache: the next layer reads them as its keys and values (in one layer the
        # cached k_n, v_n depend on x_n alone); in a strip under the picture while the changes fill
        self.next_layer = worded_line("the next layer computes its keys and values from these $y_n$", size=HEADING)
        settle(strip, self.next_layer)  # in the strip the verdicts take next
        # the picture keeps one place and one shape from the first token to the verdicts (review round 3: it
        # was squashed flatter when the verdicts came)
        (self.bi_map, self.bi_labels, self.bi_title, self.table, self.bi_bar) = self.bi_picture_in(self.proof_top,
                                                                                                 self.bi_stages[0])
        for i in range(1, T):
            for cell in self.bi_map.cells[i]:
                cell.set_fill(opacity=0.0)
        self.bi_slots = row_slots(self.bi_map)
        # the table's cells are painted as their figures arrive (one column per token appended)
        self.table_fills = [[c.get_fill_opacity() for c in col] for col in self.table.cells]
        for col in self.table.cells:
            for c in col:
                c.set_fill(opacity=0.0)
        # the table's empty frame: every cell's outline, shown before the numbers arrive
        self.table_frame = VGroup(*[c for col in self.table.cells for c in col])
        self.bi_picture = VGroup(self.bi_map, self.bi_labels, self.bi_slots, self.bi_title, self.table, self.bi_bar)
        # and flipped to causal attention, in the same place (the same cells): the causal outputs, the cached
        # ones, and the same table of changes, every cell 0
        (self.c_map, self.c_labels, self.c_title, self.c_table, self.c_bar) = self.bi_picture_in(
            self.proof_top, d.trace.Y_cached, changes=d.causal_changes, name="causal outputs")
        shows(self.c_map, "trace.Y_cached")
        names(self.c_title, "trace.Y_cached")
        self.c_picture = VGroup(self.c_map, self.c_labels, self.c_title, self.c_table, self.c_bar)
        self.causal_alone = self.proof_causal_row.copy().set_x(strip.center[0])  # its verdict, alone under it

    def bidir_why(self) -> dict | None:
        """The excuse from the half-empty check for the bidirectional picture: its shape's (few tokens or a
        narrow model), or, where a change prints six characters or more (0.0044), the table's: its columns
        are as wide as its widest figure, and the outputs beside it get what width is left."""
        d = self.data
        T, dm = d.Y_bidir_full.shape
        why = shape_why(T, dm, "the bidirectional picture")
        widest = max((measure(float(v)).text for s in d.staleness for v in s), key=len)
        if why is None and len(widest) >= 6:
            why = {"empty": f"the table of changes prints figures as long as {widest}: its {T - 1} columns are "
                            "as wide as that figure, and the outputs beside it keep the width that is left"}
        return why

    def bi_picture_in(self, region: Region, values, changes=None, name: str = "bidirectional outputs") -> tuple:
        """The bidirectional outputs (``values``) with their row names and title, their colour bar (the
        outputs scale, V's too), and the table of changes beside them row for row (its rows named y_n, its
        corner ‖Δy_n‖), across the whole width of ``region``, its rows as tall as it allows."""
        d = self.data
        T = len(d.trace.steps)
        dm = d.Y_bidir_full.shape[1]
        title = label(name, size=LABEL)  # names the outputs once they are all there
        # the heads' height from one name (the causal picture's rows stand where the bidirectional ones do)
        heads_h = label("bidirectional outputs", size=LABEL).height + GAP.small + math("x_1", size=LABEL).height + GAP.small
        rows_region = Region(region.left, region.right, region.bottom, region.top - heads_h)
        ch = min(DecodeBoard.MAX_CELL_H, rows_region.height / T)
        size = LABEL if ch >= 0.6 else SMALL  # the changes as large as their cells allow
        lab_w = math(f"y_{T - 1}", size=LABEL).width + GAP.normal
        widest = max(label(measure(float(v)).text, size=size).width for s in d.staleness for v in s)
        tcw = max(widest + 2 * GAP.small, ch)  # square at most: the outputs keep the width
        bar_w = ColorBar(self.out_scale, height=1.0, width=DecodeBoard.SCALE_BAR_W).width + GAP.small
        cw = min(DecodeBoard.MAX_CELL_W, (region.width - 2 * lab_w - bar_w - GAP.wide - (T - 1) * tcw) / dm)
        total = lab_w + dm * cw + bar_w + GAP.wide + lab_w + (T - 1) * tcw
        x0 = region.center[0] - total / 2
        rows_top = rows_region.top
        hm = Heatmap(values, self.out_scale, (cw, ch))
        hm.move_to([x0 + lab_w + dm * cw / 2, rows_top - T * ch / 2, 0])
        names_ = row_names(hm, "y", colors=lambda i: TOKEN_INK)
        row_y = lambda n: rows_top - (n + 0.5) * ch  # noqa: E731
        bar = ColorBar(self.out_scale, height=min(T * ch * 0.8, 3.0), width=DecodeBoard.SCALE_BAR_W)
        bar.move_to([hm.get_right()[0] + GAP.small + bar.width / 2, hm.get_y(), 0])
        table = ChangeTable(d.staleness if changes is None else changes, row_y, ch,
                            hm.get_right()[0] + bar_w + GAP.wide + lab_w, (T - 1) * tcw, size=size,
                            min_w=widest + 2 * GAP.small, scale=self.scales()["staleness"])  # the causal table in the bidirectional one's cells
        title.move_to([hm.get_x(), region.top - title.height / 2, 0])
        if title.get_left()[0] < region.left:  # wider than a narrow map and its names: it starts where they do
            title.align_to([region.left, 0, 0], LEFT)
        table.title.set_y(title.get_y())
        if title.get_right()[0] > table.title.get_left()[0] - GAP.normal:  # a narrow map: the title over its names too
            title.align_to(names_, LEFT)
        if title.get_right()[0] > table.title.get_left()[0] - GAP.normal:  # still too wide: one word a line
            first, _, rest_ = name.partition(" ")
            words = column(label(first, size=LABEL), label(rest_, size=LABEL), gap="tight", align=ORIGIN)
            words.move_to([hm.get_x(), 0, 0]).align_to(title, UP)
            title = words
        return hm, names_, title, table, bar

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
        # the new row's outline is the highlight's yellow only where no weight of this step is painted that yellow
        # (viridis paints a weight of 1 yellow: token 0's one weight); there the rows stand without it
        o = 0.0 if clashes_with_highlight(s.weights, b.w_scale) else 1.0
        self.new_outlined = getattr(self, "new_outlined", {})
        self.new_outlined[m] = bool(o)
        if first:
            self.markers = VGroup(*targets).set_z_index(2)  # in front of the rows that arrive after it
            self.markers.set_stroke(opacity=o)
            place = [Create(mk) for mk in self.markers[:2]]
            place_y = Create(self.markers[2])
        else:
            place = [mk.animate.move_to(tg).set_stroke(opacity=o) for mk, tg in zip(self.markers[:2], targets[:2])]
            place_y = self.markers[2].animate.move_to(targets[2]).set_stroke(opacity=o)
        anims.append(self.chips[m][0].animate.set_fill(opacity=0.35).set_stroke(width=5))  # read
        cache_in = AnimationGroup(
            Reveal(self.caches, [[*row_parts(self.K_map, m), b.k_labels[m], *row_parts(self.V_map, m), b.v_labels[m]]],
                   shift=GAP.normal * DOWN),
            *place, *anims)
        wg = self.weight_groups[m]
        attend = [FadeIn(wg[1]), FadeIn(wg[0])]
        if m == 1:  # the first step that reads the cache: the rows it reads, k_0 and v_0, outlined while q_1 weighs them
            self.read_marks = VGroup(*[SurroundingRectangle(VGroup(*[c for i in range(m) for c in hm.cells[i]]),
                                                            color=FG, buff=GAP.hair / 2, stroke_width=3)
                                       for hm in (self.K_map, self.V_map)]).set_z_index(2)
            attend.append(Create(self.read_marks))
        if m == 2 and hasattr(self, "read_marks"):  # the legend's frame says it for every row from here on
            attend.append(FadeOut(self.read_marks))
        attend = AnimationGroup(*attend)
        write = AnimationGroup(
            Reveal(self.outputs, [[*row_parts(self.Y_map, m), b.y_labels[m]]], shift=GAP.normal * LEFT), place_y)
        return [cache_in, attend, write]

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        b = self.board
        T = len(self.data.trace.steps)
        board = VGroup(b.heads, b.slots, b.q_slot, b.q_note, b.bar, self.tokens)

        # the empty caches: one slot per token, filled as decoding goes
        self.caches = VGroup(self.K_map, b.k_labels, self.V_map, b.v_labels)
        self.outputs = VGroup(self.Y_map, b.y_labels)
        hide(self.caches, self.outputs)
        self.add(self.caches, self.outputs)
        self.beat("setup", FadeIn(b.heads), FadeIn(self.tokens),
                  LaggedStart(*[Create(s) for s in b.slots], lag_ratio=0.02), Create(b.q_slot), FadeIn(b.q_note),
                  FadeIn(b.bar), run_time=1.2,
                  subject=board, why=EMPTY_CACHE)
        a = self.step_anims(0, first=True)
        self.beat("step0", Succession(AnimationGroup(a[0], FadeIn(self.q_map), FadeIn(self.q_label)),
                                      a[1], a[2]), run_time=2.6, subject=VGroup(board, self.caches, self.outputs),
                  why=filling_why(T, self.data.K.shape[1]))
        a = self.step_anims(1)
        self.beat("step1", Succession(*a), run_time=2.4, subject=VGroup(board, self.caches, self.outputs),
                  why=filling_why(T, self.data.K.shape[1]))
        self.beat_plays("rest", [self.step_anims(m) for m in range(2, T)], run_time=1.3,
                        subject=VGroup(board, self.caches, self.outputs), why=shape_why(T, self.data.K.shape[1], "the decoding board"))
        self.beat("legend", Succession(FadeOut(self.tokens, run_time=0.4), FadeIn(b.tags, shift=GAP.tight * RIGHT)),
                  run_time=1.0,
                  subject=VGroup(board, b.tags, self.caches, self.outputs), why=shape_why(T, self.data.K.shape[1], "the decoding board"))
        top_row = VGroup(self.q_map, self.q_label, b.q_note, b.q_slot)  # the query's strip makes way for the verdict
        self.beat("equal", Succession(FadeOut(top_row, run_time=0.4), FadeIn(self.proof, shift=GAP.small * DOWN)),
                  run_time=1.2, subject=VGroup(b.heads, b.slots, b.tags, self.outputs, self.caches, self.proof),
                  why=shape_why(T, self.data.K.shape[1], "the decoding board"))
        self.bidirectional()

    def bidirectional(self) -> None:
        """Without the mask: every past output moves when a token arrives; a cache would be stale."""
        d = self.data
        b = self.board
        T = len(d.trace.steps)
        dm = d.Y_bidir_full.shape[1]
        out = VGroup(self.caches, self.outputs, self.weight_groups[-1], self.markers, b.tags, self.proof, b.heads,
                     b.slots, b.bar)
        self.play(FadeOut(out), run_time=0.8)
        first = VGroup(*self.bi_map.cells[0])
        self.add(self.bi_map)
        picture = self.bi_picture
        self.beat("bidir", FadeIn(self.bi_title), FadeIn(self.bi_slots), FadeIn(first), FadeIn(self.bi_labels[0]),
                  FadeIn(self.table.title), FadeIn(self.table.heads), FadeIn(self.table.rows),
                  FadeIn(self.table.corner), FadeIn(self.bi_bar), Create(self.table_frame), run_time=1.4,
                  subject=picture, why=self.bidir_why() or {
                      "empty": "the table of changes is empty until tokens are appended (the next beat fills it), and "
                               "the strip under the picture is the next beat's note on the next layer"})
        plays = []
        for m in range(1, T):
            moved = VGroup(*[frame_row(self.bi_map, n) for n in range(m)])
            plays.append([AnimationGroup(
                morph_cells(self.bi_map, self.bi_stages[m], [(i, j) for i in range(m + 1) for j in range(dm)]),
                FadeIn(self.bi_labels[m]),
                Succession(FadeIn(moved, run_time=0.3), FadeOut(moved, run_time=0.4)),
                LaggedStart(*[AnimationGroup(c.animate.set_fill(opacity=o), FadeIn(t, shift=GAP.tight * DOWN))
                              for c, o, t in zip(self.table.cells[m - 1], self.table_fills[m - 1],
                                                 self.table.numbers[m - 1])], lag_ratio=0.2),
            )])
        shows(self.bi_map, "Y_bidir_full")
        names(self.bi_title, "Y_bidir_full")
        plays[-1].append(FadeIn(self.next_layer, shift=GAP.small * UP))
        self.beat_plays("stale", plays, run_time=1.15, subject=VGroup(picture, self.next_layer),
                        why=self.bidir_why() or {"empty": STAIRCASE})
        # the note makes way for the verdict, in the same strip; the picture stays where it is
        self.play(FadeOut(self.bi_slots), FadeOut(self.next_layer), run_time=0.5)
        picture = self.bi_picture = VGroup(self.bi_map, self.bi_labels, self.bi_title, self.table, self.bi_bar)
        # the verdict's figure on the data: the cell it was read from, outlined
        shown = d.min_stale if d.min_stale > 0.0 else max(float(s.max()) for s in d.staleness)
        m_, n_ = next((m, n) for m, s in enumerate(d.staleness, start=1) for n, v in enumerate(s) if float(v) == shown)
        self.min_cell = role(SurroundingRectangle(self.table.cells[m_ - 1][n_], color=HIGHLIGHT, buff=0,
                                                  stroke_width=5), "highlight")
        self.beat("proof_bidir" if d.min_stale > 0.0 else "proof_bidir_some",
                  FadeIn(self.proof_bi_row, shift=GAP.small * UP), Create(self.min_cell), run_time=0.9,
                  subject=VGroup(picture, self.proof_bi_row, self.min_cell),
                  why={"empty": "the strip under the picture holds the bidirectional verdict now and the causal one "
                                "beside it in the next beat: the half kept for it is that beat's"})
        # the picture flips to causal attention: the causal outputs, and the same table of changes, all 0
        self.proof_causal_row.set_x(self.causal_alone.get_x())  # alone under the causal picture, centred
        self.beat("proof_causal", Succession(FadeOut(VGroup(picture, self.min_cell, self.proof_bi_row)),
                                             FadeIn(self.c_picture),
                                             FadeIn(self.proof_causal_row, shift=GAP.small * UP)),
                  run_time=1.4, subject=VGroup(self.c_picture, self.proof_causal_row),
                  why=self.bidir_why() or CAUSAL_FLIP)

    # ------------------------------------------------------------------ the takeaway
    def closing_layout(self) -> None:
        """The close, built for where it stands (nothing is scaled under the legible floor): the result that
        proves the property, the two tables of changes side by side with the same heads (token appended x_m,
        past output y_n, ‖Δy_n‖), each named by its attention over it and its verdict under it: causal, every
        cell 0 (✓, the largest change exactly 0: the cache is exact); bidirectional, every cell moved (✗, the
        smallest change at least the measured bound).  Each table's outputs are its own attention's, named
        once over it (review round 3: the causal outputs beside the bidirectional table shared y_n)."""
        d = self.data
        T = len(d.trace.steps)
        C = self.layout.content
        _, bidir, causal = kv_proofs(d)
        self.c_name_close = label("causal", size=HEADING)
        self.table_close_name = label("bidirectional", size=HEADING)
        # the heads' height over the cells and the names' width left of them, from a probe table
        probe = ChangeTable(d.staleness, lambda n: -n * 1.0, 1.0, 0.0, (T - 1) * 2.0, size=SMALL)
        heads_h = probe.title.get_top()[1] - probe.cells[0][0].get_top()[1]
        side_w = max(probe.corner.width, max(r.width for r in probe.rows)) + GAP.small

        def widest(size):
            return max(label(measure(float(v)).text, size=size).width for s in d.staleness for v in s)

        # columns: the bidirectional table's cells as wide as its widest figure needs (at the labels' size when
        # there is room), the causal table's (every figure a 0) as wide as those or as the rest of the width allows
        gap = GAP.section
        size = LABEL if side_w + (T - 1) * (widest(LABEL) + 2 * GAP.small) + gap + side_w + (T - 1) * 0.5 \
            <= C.width else SMALL
        pad = GAP.small if C.width - 2 * side_w - gap - (T - 1) * (widest(size) + 2 * GAP.small) >= (T - 1) * 0.6 \
            else GAP.tight  # the figures' margin in their cells: a comfortable one where the causal table keeps room
        tcw_b = min(1.6, widest(size) + 2 * pad)
        w_b = side_w + (T - 1) * tcw_b
        head_w = max(h.width for h in probe.heads) + GAP.small  # the causal cells at least as wide as their heads
        if C.width - w_b - gap - side_w < (T - 1) * head_w:
            gap = GAP.wide
        tcw_c = min(tcw_b, (C.width - w_b - gap - side_w) / (T - 1))
        w_c = side_w + (T - 1) * tcw_c
        if tcw_c < label("0", size=size).width + 2 * GAP.tight:
            raise LayoutError(f"two tables of {T - 1} columns of changes do not fit {C.width:.2f} units")
        # the verdicts as large as their columns allow (each column as wide as the rest of the width leaves it)
        spare = C.width - w_c - gap - w_b
        col_c, col_b = w_c + spare / 2, w_b + spare / 2
        for vsize in (HEADING, LABEL):
            self.cached_verdict = proof_line(causal.formula, causal.value, size=vsize, passed=causal.passed)
            self.bidir_verdict = proof_line(bidir.formula, self.stale_bound, size=vsize, passed=False)
            if self.cached_verdict.width <= col_c and self.bidir_verdict.width <= col_b:
                break
        for v, col in ((self.cached_verdict, col_c), (self.bidir_verdict, col_b)):
            if v.width > col:
                v.scale(max(col / v.width, legible_scale(v) * 1.01))
        self.cached_block, self.bidir_block = VGroup(self.cached_verdict), VGroup(self.bidir_verdict)
        # the clip's headline under both, on one line where it fits: the cached outputs equal a full recompute
        cached_proof, _, _ = kv_proofs(d)
        self.recompute_close = worded_verdict("cached = full recompute:", cached_proof.value, passed=cached_proof.passed,
                                              size=LABEL, relation=f'max_{M} lr(|y_{M}^"cached" - y_{M}^"full"|) =')
        if self.recompute_close.width > C.width:
            self.recompute_close = None
        name_h = self.table_close_name.height + GAP.normal
        v_h = max(self.cached_verdict.height, self.bidir_verdict.height) + GAP.normal
        if self.recompute_close is not None:
            v_h += self.recompute_close.height + GAP.normal
        r = min(1.0, (C.height - name_h - heads_h - v_h) / (T - 1))
        block_h = name_h + heads_h + (T - 1) * r + v_h
        top = C.center[1] + block_h / 2
        row0 = top - name_h - heads_h  # the top of the first row of cells
        row_y = lambda n: row0 - (n + 0.5) * r  # noqa: E731
        x_c = C.left + (col_c - w_c) / 2  # each table (its names and cells) centred in its column
        x_b = C.left + col_c + gap + (col_b - w_b) / 2
        sc = self.scales()["staleness"]
        self.c_table_close = ChangeTable(d.causal_changes, row_y, r, x_c + side_w, (T - 1) * tcw_c, size=size,
                                         min_w=tcw_c, scale=sc)
        self.table_close = ChangeTable(d.staleness, row_y, r, x_b + side_w, (T - 1) * tcw_b, size=size, min_w=tcw_b,
                                       scale=sc)
        self.table_close_rows = self.table_close.rows
        cols = ((C.left, col_c), (C.left + col_c + gap, col_b))
        for (x0, col), t, name, v in zip(cols, (self.c_table_close, self.table_close),
                                         (self.c_name_close, self.table_close_name),
                                         (self.cached_block, self.bidir_block)):
            cells = VGroup(*[c for column_ in t.cells for c in column_])
            name.move_to([cells.get_x(), top - name.height / 2, 0])
            v.next_to([cells.get_x(), cells.get_bottom()[1] - GAP.normal, 0], DOWN, buff=0)  # under its table
            for m in (name, v):  # inside the content area
                if m.get_left()[0] < C.left:
                    m.shift((C.left - m.get_left()[0]) * RIGHT)
                if m.get_right()[0] > C.right:
                    m.shift((C.right - m.get_right()[0]) * RIGHT)
        # a verdict wider than its table reaches into the gap, never up to the other one
        clash = self.cached_block.get_right()[0] + GAP.normal - self.bidir_block.get_left()[0]
        if clash > 0:
            room = C.right - self.bidir_block.get_right()[0]
            self.bidir_block.shift(min(room, clash) * RIGHT)
            self.cached_block.shift(max(0.0, clash - room) * LEFT)
        if self.cached_block.get_left()[0] < C.left - 1e-6:
            raise LayoutError("the close's two verdicts do not fit side by side")
        if self.recompute_close is not None:
            low = min(self.cached_block.get_bottom()[1], self.bidir_block.get_bottom()[1])
            self.recompute_close.next_to([C.center[0], low - GAP.normal, 0], DOWN, buff=0)

    def closing_parts(self) -> list:
        parts = [VGroup(self.c_name_close, self.c_table_close), self.cached_block,
                 VGroup(self.table_close_name, self.table_close), self.bidir_block]
        return parts + ([self.recompute_close] if getattr(self, "recompute_close", None) is not None else [])

    def closing(self) -> None:
        """The takeaway brought forward under the last caption (the base's closing, with the shape's excuse)."""
        take = self.takeaway()
        T, dm = self.data.trace.Y_cached.shape
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD, subject=take,
                  why=shape_why(T, dm, "each of the two tables") or {"empty": STAIRCASE})

    def takeaway(self):
        """The result that proves the property: causally no past output moves (✓, exactly 0), so the cache is
        exact; bidirectionally every one does (✗, by at least the measured bound)."""
        self.closing_layout()
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        """Everything but the header fades; the two tables and their verdicts arrive in their places."""
        keep = {id(f) for f in self.header.get_family()}
        leaves = [f for m in self.mobjects for f in m.get_family()
                  if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
        self.closing_picture = self.closing_parts()
        return [Succession(FadeOut(Group(*leaves)), AnimationGroup(*[FadeIn(m) for m in self.closing_picture]))]
