"""05 ``KVCache`` (§4, Q2): decoding token by token into empty cache slots: each step appends one key and
one value to the K and V caches (side by side: the cache is the pair): the new token's query, key and
value are computed, the earlier keys and values read from the cache, and one new output row written; a
frame names what the cache holds, the K and V rows of the tokens before, and "new" the
row this step appended.  Then bidirectional attention, where appending a token moves every past output:
the outputs recolour row by row while a staircase table beside them fills with how far each past row
moved (labels on the data: each row y_n beside its first cell, columns the token appended, ‖Δy_n‖ at the
corner, painted on a log grey so every cell that moved is a visible grey).  Then the table alone, large and
centred, with its verdict in one slot under it (✗ bidirectional: the smallest change, a floored bound), flipped
to causal attention in the same cells (✓ every change exactly 0).  Ends on the three results, one a line:
✓ cached = full recompute, exactly; ✓ causal, no past output moves; ✗ bidirectional, every one moves, so
the next layer's keys and values would go stale.

The K cache and the query are painted on the deck's "inputs" scale; the V cache and the outputs on its
"outputs" scale (``kit.scales``; it holds V: causally y_0 = v_0, one row in one colour), whose colour bar
stands beside them, named q, k, v, y (one diverging map and range for all four): the same colours as every
other clip showing them.

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
    ReplacementTransform,
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
    row_slots,
    weight_text,
)
from scenes.figures.causal import (
    M,
    kv_proofs,
    kv_scales,
)
from scenes.kit import (
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
from scenes.kit.compose import GAP, column
from scenes.kit.layout import Region, baseline_y
from scenes.kit import numbers, scales as deck_scales
from scenes.kit.numbers import measure
from scenes.kit.proofs import (
    Reveal,
    frame_row,
    hide,
    morph_cells,
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


def decade_text(v: float, math_: bool = False) -> str:
    """A decade as a colour bar's tick: ``0.001`` … ``1`` … ``100`` as decimals (the tables' figures' font), smaller
    or larger ones (``math_``, Typst) as powers of ten (``10^(-5)``)."""
    e = int(round(_math.log10(v)))
    if -3 <= e <= 2:
        return f"{10.0 ** e:.{max(0, -e)}f}"
    return f"10^({e})"


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
               "first_weight": weight_text(d.trace.steps[0].weights[0]),
               "change_bar": "the changes' colour bar", "bar_names": "two colour bars, q and k's over v and y's",
               "big_table": "the table of changes", "close_recompute": fmt_measure(d.max_defect),
               "close_cached": fmt_measure(d.causal_change_max), "close_table": "the causal table of changes"}

        def bound(name, value, *attrs):  # a claim once what shows it is built (the title card has nothing yet)
            mobs = [getattr(self, a, None) for a in attrs]
            if all(m is not None for m in mobs):
                out[name] = claim(value, *mobs)

        out["weights_bar"] = ""
        if getattr(getattr(self, "board", None), "w_bar", None) is not None:
            out["weights_bar"] = claim(" and the weights' colour bar, 0 to 1, right of the query's note",
                                       self.board.w_bar)
        if hasattr(self, "slots"):  # each column's slots were drawn on their own
            out["slots"] = claim(f"{T} empty slots", *self.slots)
        bound("query", "query q 0", "q_map")
        bound("first_weight", weight_text(d.trace.steps[0].weights[0]), "weight_text0")
        bound("cache_rows", f"{T} rows", "K_map", "V_map")
        bound("cached_rows", f"rows 0 to {T - 2}", "brace")
        bound("max_defect", fmt_measure(d.max_defect), "proof")
        bound("full_map", "the full recompute's outputs", "full_map", "full_head")
        bound("bi_map", "bidirectional outputs", "bi_map")
        bound("table", "table of changes", "table_frame")
        bound("big_table", "the table of changes", "table_big")
        bound("close_recompute", fmt_measure(d.max_defect), "recompute_verdict")
        bound("close_cached", fmt_measure(d.causal_change_max), "cached_verdict")
        bound("close_table", "the causal table of changes", "close_causal")
        bound("change_bar", "the changes' colour bar", "change_bar_bi")
        bound("min_stale", self.stale_bound.text, "proof_bi")
        bound("read", "k 0 and v 0", "read_marks")
        bound("max_stale", fmt_measure(max(float(s.max()) for s in d.staleness)), "proof_bi")
        bound("causal_change_max", fmt_measure(d.causal_change_max), "proof_causal")
        bound("causal_table", "every cell reads 0", "c_table")
        bound("next_layer", "the next layer computes its keys and values from these y n", "next_layer")
        bound("bar_names", "two colour bars, q and k's over v and y's", "qk_bar", "vy_bar")
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
        # a vector's difference measured by a norm (review round 4: |·| bars on a vector); the measured value, the
        # largest entry's difference, is exactly 0, so every norm of it is 0
        self.proof = worded_verdict("cached = full recompute:", cached.value, passed=cached.passed, size=HEADING,
                                    relation=f'max_{M} norm(y_{M}^"cached" - y_{M}^"full") =')
        self.proof_value = self.proof.value
        self.board = b = DecodeBoard(steps, d.trace.Y_cached, self.in_scale, self.out_scale, C.inset(GAP.tight, GAP.hair),
                                     w_scale=sc["weights"])
        settle(b.top_strip, self.proof)
        shows(b.K_map, "K")
        shows(b.V_map, "V")
        shows(b.Y_map, "trace.Y_cached")
        self.K_map, self.V_map, self.Y_map, self.q_map = b.K_map, b.V_map, b.Y_map, b.q_map
        self.slots = b.slots
        self.bar_names, self.qk_bar, self.vy_bar = b.bar_names, b.in_bar, b.bar
        self.brace = b.brace
        self.weight_groups, self.chips, self.tokens = b.weights, b.chips, b.tokens
        self.weight_text0 = b.weights[0][0]
        self.q_label = b.q_labels[0]
        self.recompute_layout()
        self.bidirectional_layout()

    def recompute_layout(self) -> None:
        """What the verdict of beat 06 compares (review round 4: the full recompute was never pictured): the caches
        make way, and the outputs of one causal pass over every token, the full recompute, stand left of the
        cached outputs, the two cell for cell one size (as wide as the width allows), the pair centred; heads
        "full recompute" and "cached"."""
        b = self.board
        d = self.data
        C = self.layout.content
        ch = b.cell_h
        dm = d.trace.Y_full.shape[1]
        lab_w = max(l.width for l in b.y_labels) + GAP.small + GAP.hair
        gap = GAP.wide
        bar_w = b.bar.get_right()[0] - self.Y_map.get_right()[0]  # the colour bar and its ticks
        cw = min(DecodeBoard.MAX_CELL_W, (C.width - 2 * lab_w - gap - bar_w) / (2 * dm))
        width = lab_w + dm * cw + gap + lab_w + dm * cw + bar_w
        left0 = C.center[0] - width / 2
        y = self.Y_map.get_y()
        self.full_map = Heatmap(d.trace.Y_full, self.out_scale, (cw, ch)).move_to([left0 + lab_w + dm * cw / 2, y, 0])
        shows(self.full_map, "trace.Y_full")
        self.full_labels = row_names(self.full_map, "y", colors=lambda i: TOKEN_INK)
        # the cached outputs widened to the same cells, in place right of the full recompute
        self.Y_wide = Heatmap(d.trace.Y_cached, self.out_scale, (cw, ch)).move_to(
            [left0 + 2 * lab_w + gap + 1.5 * dm * cw, y, 0])
        shows(self.Y_wide, "trace.Y_cached")
        # the board's outputs stay as they were drawn; these copies take their place
        self.y_labels_wide = b.y_labels.copy().shift((self.Y_wide.get_left()[0] - self.Y_map.get_left()[0]) * RIGHT)
        self.bar_wide = b.bar.copy().shift((self.Y_wide.get_right()[0] - self.Y_map.get_right()[0]) * RIGHT)
        head = b.heads[3]
        self.full_head = label("full recompute", size=LABEL).move_to([self.full_map.get_x(), head.get_y(), 0])
        self.cached_head = label("cached", size=LABEL).move_to([self.Y_wide.get_x(), head.get_y(), 0])
        for h in (self.full_head, self.cached_head):  # on the heads' baseline
            h.shift((baseline_y(head) - baseline_y(h)) * UP)
        names(self.full_head, "trace.Y_full")
        self.full_group = VGroup(self.full_map, self.full_labels, self.full_head)

    def bidirectional_layout(self) -> None:
        """The bidirectional half.  While the tokens are appended (``bidir``, ``stale``): its outputs on the left,
        the table of how far each past row moved beside them (row for row).  From ``proof_bidir`` on (review round
        5: one subject): the outputs go and the table alone stands large and centred, its colour bar beside it;
        the verdicts take one fixed slot under it, the same in ``proof_bidir`` and ``proof_causal`` (each one
        worded line: "smallest change", "largest change", no indices to read small)."""
        d = self.data
        T = len(d.trace.steps)
        C = self.layout.content
        _, bidir, causal = kv_proofs(d)
        self.proof_bi = worded_verdict("bidirectional: smallest change", self.stale_bound, passed=False,
                                       size=HEADING)
        self.proof_causal = worded_verdict("causal: largest change", causal.value, passed=causal.passed,
                                           size=HEADING, relation="=")
        self.proof_bi_row, self.proof_causal_row = self.proof_bi, self.proof_causal
        # why stale outputs matter to a cache: the next layer reads them as its keys and values (in one layer the
        # cached k_n, v_n depend on x_n alone); in the verdicts' slot while the changes fill
        self.next_layer = worded_line("the next layer computes its keys and values from these $y_n$", size=HEADING)
        slot_h = max(m.height for m in (self.proof_bi, self.proof_causal, self.next_layer))
        self.verdict_slot, self.proof_top = C.take_bottom(slot_h, gap=GAP.wide)
        for m in (self.proof_bi, self.proof_causal, self.next_layer):  # one slot, one place: centred in it
            settle(self.verdict_slot, m)
        self.stale_value, self.causal_value = self.proof_bi.value, self.proof_causal.value

        self.bi_stages = []
        for m in range(T):
            st = np.array(d.Y_bidir_full, dtype=float)
            st[: m + 1] = d.Y_bidir[m]
            self.bi_stages.append(st)
        (self.bi_map, self.bi_labels, self.bi_title, self.table, self.bi_bar,
         self.change_bar_bi) = self.bi_picture_in(self.proof_top, self.bi_stages[0])
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
        self.bi_picture = VGroup(self.bi_map, self.bi_labels, self.bi_slots, self.bi_title, self.table, self.bi_bar,
                                 self.change_bar_bi)
        # the one subject from proof_bidir on: the table alone, large and centred; flipped to causal attention in
        # the same cells (every cell 0)
        self.table_big, self.change_bar_big = self.big_table(d.staleness)
        self.c_table, _ = self.big_table(d.causal_changes, painted=False)

    def big_table(self, changes, painted: bool = True, region: Region | None = None, sizes=(HEADING, LABEL, SMALL),
                  bar_room: bool = True, figures: bool = True) -> tuple:
        """A table of ``changes`` alone, as large as ``region`` (by default ``proof_top``) allows (its figures at
        the largest of ``sizes`` the cells have room for), centred with its colour bar right of it (room kept for
        the bar with ``bar_room``, whether it is drawn or not: the bidirectional and causal tables stay alike)."""
        d = self.data
        T = len(d.trace.steps)
        n = T - 1
        R = region if region is not None else self.proof_top
        sc = self.scales()["staleness"]
        texts = ([measure(float(v)).text for s in d.staleness for v in s] if figures else []) or ["0"]
        bar_w = self.change_bar(3.0).width + GAP.normal if bar_room else 0.0
        for size in sizes:
            probe = ChangeTable(d.staleness, lambda k: -k * 1.0, 1.0, 0.0, n * 3.0, size=size)
            heads_h = probe.title.get_top()[1] - probe.cells[0][0].get_top()[1]
            side_w = max(probe.corner.width, max(r.width for r in probe.rows)) + GAP.small
            need = max(label(t, size=size).width for t in texts) + 2 * GAP.small
            r = min(1.6, (R.height - heads_h) / n)  # (few tokens: as tall as a comfortable row)
            cw = min(max(need, 1.9, 2.2 * r), (R.width - side_w - bar_w) / n)  # few tokens: wider cells
            if cw >= need and r >= label("0.0", size=size).height + 2 * GAP.tight:
                break
        total = side_w + n * cw + bar_w
        x0 = R.center[0] - total / 2 + side_w
        top = R.top - heads_h
        drop = max(0.0, (R.height - heads_h - n * r) / 2)  # few tokens: mid-height
        # the causal table: every change exactly 0, which a log scale has no colour for: unpainted, its figures say it
        table = ChangeTable(changes, lambda k: top - drop - (k + 0.5) * r, r, x0, n * cw, size=size, min_w=cw,
                            scale=sc if painted else None, figures=figures)
        cells = VGroup(*[c for col in table.cells for c in col])
        cbar = self.change_bar(self.change_bar_height(cells.height))
        self.place_change_bar(cbar, cells)
        return table, cbar

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
        # names the outputs once they are all there: one word a line, centred over the map (review round 6: one line
        # wider than the map sat on the margin, flush under the title rule)
        first, _, rest_ = name.partition(" ")
        title = column(*[label(w, size=LABEL) for w in (first, rest_) if w], gap="tight", align=ORIGIN)
        # the heads' height from the name (the causal picture's rows stand where the bidirectional ones do)
        heads_h = title.height + GAP.small + math("x_1", size=LABEL).height + GAP.small
        rows_region = Region(region.left, region.right, region.bottom, region.top - heads_h)
        ch = min(DecodeBoard.MAX_CELL_H, rows_region.height / T)
        size = LABEL if ch >= 0.6 else SMALL  # the changes as large as their cells allow
        lab_w = math(f"y_{T - 1}", size=LABEL).width + GAP.normal
        widest = max(label(measure(float(v)).text, size=size).width for s in d.staleness for v in s)
        tcw = max(widest + 2 * GAP.small, ch)  # square at most: the outputs keep the width
        bar_w = ColorBar(self.out_scale, height=1.0, width=DecodeBoard.SCALE_BAR_W).width + GAP.small
        cbar_w = self.change_bar(3.0).width + GAP.normal  # the table's own colour bar, right of it
        cw = min(DecodeBoard.MAX_CELL_W, (region.width - 2 * lab_w - bar_w - GAP.wide - (T - 1) * tcw - cbar_w) / dm)
        total = lab_w + dm * cw + bar_w + GAP.wide + lab_w + (T - 1) * tcw + cbar_w
        x0 = region.center[0] - total / 2
        rows_top = rows_region.top
        hm = Heatmap(values, self.out_scale, (cw, ch))
        hm.move_to([x0 + lab_w + dm * cw / 2, rows_top - T * ch / 2, 0])
        names_ = row_names(hm, "y", colors=lambda i: TOKEN_INK)
        row_y = lambda n: rows_top - (n + 0.5) * ch  # noqa: E731
        # named by what it paints, as on the board (review round 6: unnamed beside the table, it read as the table's)
        bar = ColorBar(self.out_scale, height=min(T * ch * 0.8, 3.0), width=DecodeBoard.SCALE_BAR_W,
                       title=math("y", size=SMALL, color=TOKEN_INK))
        bar.shift([hm.get_right()[0] + GAP.small - bar.frame.get_left()[0], hm.get_y() - bar.frame.get_y(), 0])
        table = ChangeTable(d.staleness if changes is None else changes, row_y, ch,
                            hm.get_right()[0] + bar_w + GAP.wide + lab_w, (T - 1) * tcw, size=size,
                            min_w=widest + 2 * GAP.small, scale=self.scales()["staleness"])  # the causal table in the bidirectional one's cells
        title.move_to([hm.get_x(), region.top - title.height / 2, 0])
        if title.get_left()[0] < region.left:  # wider than a narrow map and its names: it starts where they do
            title.align_to([region.left, 0, 0], LEFT)
        table.title.set_y(title[-1].get_y())  # "token appended" on the name's last line
        if title.get_right()[0] > table.title.get_left()[0] - GAP.normal:  # a narrow map: the title over its names too
            title.align_to(names_, LEFT)
        cells = VGroup(*[c for col in table.cells for c in col])
        cbar = self.change_bar(self.change_bar_height(cells.height))
        self.place_change_bar(cbar, cells)
        return hm, names_, title, table, bar, cbar

    def change_bar(self, height: float) -> ColorBar:
        """The colour bar of the tables of changes (the deck's "output changes", a log scale: whole decades, from
        below the smallest change to the largest, black to white), its ticks round decades (at most four, the
        largest kept).  Untitled (review round 10: ‖Δy_n‖ was named twice, at the table's corner and over its bar):
        the quantity is named once, at the corner of the table it stands beside."""
        sc = self.scales()["staleness"]
        ticks = sc.ticks()
        # every decade, or every other one (or fewer) where more than four, or more than the bar's length holds
        # apart by twice a tick's height, would crowd it
        room = max(2, min(4, int(height / (2.2 * label("0", size=SMALL).height)) + 1))
        step = -(-len(ticks) // room)
        ticks = ticks[::-1][::step][::-1]
        bar = ColorBar(sc, height=height, width=DecodeBoard.SCALE_BAR_W, ticks=ticks,
                       **({"tick_format": decade_text} if all(1e-3 <= t < 1e3 for t in ticks)
                          else {"tick_math": [decade_text(t, math_=True) for t in ticks]}))
        return bar

    def change_bar_height(self, rows_h: float) -> float:
        """The bar's length for a table ``rows_h`` tall: the bar and its end ticks' half heights together as tall as
        the rows."""
        tick_h = label("0", size=SMALL).height
        return max(0.5, min(3.0, rows_h - tick_h - GAP.hair))

    @staticmethod
    def place_change_bar(cbar: ColorBar, cells) -> None:
        """``cbar`` right of a table's ``cells``, its bar and end ticks together level with them."""
        tick_h = cbar.tick_labels[0].height if len(cbar.tick_labels) else 0.0
        low = cbar.frame.get_bottom()[1] - tick_h / 2
        mid = (cbar.frame.get_top()[1] + tick_h / 2 + low) / 2
        cbar.shift([cells.get_right()[0] + GAP.normal - cbar.frame.get_left()[0], cells.get_y() - mid, 0])

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
        o = 1.0  # (in the foreground ink: no weight's colour and not the query's)
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
            # in the highlight's amber (review round 6: a grey outline read as one more empty slot's border)
            self.read_marks = VGroup(*[role(SurroundingRectangle(VGroup(*[c for i in range(m) for c in hm.cells[i]]),
                                                                 color=HIGHLIGHT, buff=GAP.hair / 2, stroke_width=4),
                                            "highlight")
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
        board = VGroup(b.heads, b.slots, b.q_slot, b.q_note, b.in_bar, b.bar, self.tokens)
        w_bar = VGroup() if b.w_bar is None else b.w_bar  # the weights' colour bar, where the strip has room
        board.add(w_bar)

        # the empty caches: one slot per token, filled as decoding goes
        self.caches = VGroup(self.K_map, b.k_labels, self.V_map, b.v_labels)
        self.outputs = VGroup(self.Y_map, b.y_labels)
        hide(self.caches, self.outputs)
        self.add(self.caches, self.outputs)
        self.beat("setup", FadeIn(b.heads), FadeIn(self.tokens),
                  LaggedStart(*[Create(s) for s in b.slots], lag_ratio=0.02), Create(b.q_slot), FadeIn(b.q_note),
                  FadeIn(b.in_bar), FadeIn(b.bar), FadeIn(w_bar), run_time=1.2,
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
        # the query's strip makes way for the verdict; the caches and weights for what it compares: the full
        # recompute's outputs beside the cached ones
        top_row = VGroup(self.q_map, self.q_label, b.q_note, b.q_slot)
        gone = VGroup(top_row, w_bar, b.in_bar, self.caches, self.weight_groups[-1], self.markers, b.tags, *b.heads, b.slots)
        self.cached_outputs = VGroup(self.Y_wide, self.y_labels_wide, self.bar_wide)
        self.play(FadeOut(gone), run_time=0.5)
        # the board's outputs stay as drawn (what the tests of the board read); copies of them widen into place
        moving = [(m.copy(), w) for m, w in ((self.Y_map, self.Y_wide), (b.y_labels, self.y_labels_wide),
                                             (b.bar, self.bar_wide))]
        self.remove(self.Y_map, b.y_labels, b.bar, self.outputs)
        self.add(*[m for m, _ in moving])
        self.beat("equal", Succession(AnimationGroup(*[ReplacementTransform(m, w) for m, w in moving], run_time=0.6),
                                      AnimationGroup(FadeIn(self.full_group), FadeIn(self.cached_head),
                                                     FadeIn(self.proof, shift=GAP.small * DOWN))),
                  run_time=1.6, subject=VGroup(self.full_group, self.cached_head, self.cached_outputs, self.proof),
                  why=shape_why(T, self.data.K.shape[1], "the pair of outputs"))
        self.bidirectional()

    def bidirectional(self) -> None:
        """Without the mask: every past output moves when a token arrives; a cache would be stale."""
        d = self.data
        T = len(d.trace.steps)
        dm = d.Y_bidir_full.shape[1]
        out = VGroup(self.cached_outputs, self.full_group, self.cached_head, self.proof)
        self.play(FadeOut(out), run_time=0.5)
        first = VGroup(*self.bi_map.cells[0])
        self.add(self.bi_map)
        picture = self.bi_picture
        self.beat("bidir", FadeIn(self.bi_title), FadeIn(self.bi_slots), FadeIn(first), FadeIn(self.bi_labels[0]),
                  FadeIn(self.table.title), FadeIn(self.table.heads), FadeIn(self.table.rows),
                  FadeIn(self.table.corner), FadeIn(self.bi_bar), FadeIn(self.change_bar_bi), Create(self.table_frame),
                  run_time=1.4,
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
        # the outputs make way (review round 5: one subject): the table alone, large and centred; the note makes
        # way for the verdict, in the same slot
        self.play(FadeOut(VGroup(self.bi_map, self.bi_labels, self.bi_title, self.bi_bar, self.bi_slots,
                                 self.next_layer)),
                  ReplacementTransform(self.table, self.table_big),
                  ReplacementTransform(self.change_bar_bi, self.change_bar_big), run_time=0.7)
        picture = VGroup(self.table_big, self.change_bar_big)
        # the verdict's figure on the data: the cell it was read from, outlined
        m_, n_ = self.min_stale_cell()
        self.min_cell = role(SurroundingRectangle(self.table_big.cells[m_ - 1][n_], color=HIGHLIGHT, buff=0,
                                                  stroke_width=6), "highlight").set_z_index(2)
        self.beat("proof_bidir" if d.min_stale > 0.0 else "proof_bidir_some",
                  FadeIn(self.proof_bi, shift=GAP.small * UP), Create(self.min_cell), run_time=0.9, hold=0.8,
                  subject=VGroup(picture, self.proof_bi, self.min_cell), why=self.bidir_why() or {"empty": STAIRCASE})
        # the table flips to causal attention in the same cells, every one 0; its verdict in the same slot
        self.beat("proof_causal", Succession(FadeOut(VGroup(picture, self.min_cell, self.proof_bi)),
                                             AnimationGroup(FadeIn(self.c_table),
                                                            FadeIn(self.proof_causal, shift=GAP.small * UP))),
                  run_time=1.4, subject=VGroup(self.c_table, self.proof_causal),
                  why=self.bidir_why() or CAUSAL_FLIP)

    # ------------------------------------------------------------------ the takeaway
    def closing_layout(self) -> None:
        """The close (review round 10: two small panels side by side were a dashboard; round 6: three verdicts alone
        were text): one subject, the takeaway, large: the causal table of changes, every cell 0, as large as the
        left of the frame allows, judged under it (✓ causal, the largest change exactly 0), with the cache's
        verdict across the top (✓ cached = full recompute, exactly 0).  Right of it, small and dimmed (focus by
        dimming), what it is set against: the bidirectional table, every past output's cell a grey of the log
        scale, named over it."""
        d = self.data
        C = self.layout.content
        cached, _, causal = kv_proofs(d)
        for size in (HEADING, LABEL, SMALL):  # the cache's verdict at the heading size where the width holds it
            self.recompute_verdict = worded_verdict("cached = full recompute: largest difference", cached.value,
                                                    passed=cached.passed, size=size, relation="=")
            if self.recompute_verdict.width <= C.width:
                break
        self.cached_verdict = worded_verdict("causal: largest change", causal.value, passed=causal.passed,
                                             size=HEADING, relation="=")
        top, rest = C.take_top(self.recompute_verdict.height, gap=GAP.wide)
        self.recompute_verdict.move_to(top.center)
        slot, tables = rest.take_bottom(self.cached_verdict.height, gap=GAP.normal)
        left, right = tables.columns(0.66, 0.34, gap=GAP.wide, names=("causal", "bidirectional"))
        # the subject: the causal zeros as they print, "0", at the largest size the cells hold
        self.close_causal, _ = self.big_table(d.causal_changes, painted=False, region=left, bar_room=False)
        cells = VGroup(*[c for col in self.close_causal.cells for c in col])
        self.cached_verdict.move_to([cells.get_x(), slot.center[1], 0])
        # the context, dimmed: the bidirectional changes as the log scale's greys (their figures were read in
        # proof_bidir), named over the table, its rows level with the causal table's (its own heads dropped)
        head = label("bidirectional", size=LABEL)
        sub, _ = self.big_table(d.staleness, region=right, sizes=(SMALL,), figures=False, bar_room=False)
        self.close_bi = sub
        bi_cells = VGroup(*[c for col in sub.cells for c in col])
        sub.shift((cells.get_center()[1] - bi_cells.get_center()[1]) * UP)
        # (the quantity is named once, at the subject's corner; the columns are the subject's: the context keeps its
        # cells and row names only)
        sub.remove(sub.title, sub.corner, sub.heads)
        head.next_to(bi_cells, UP, buff=GAP.small).set_x(bi_cells.get_x())
        self.close_bi_head = head
        self.close_context = VGroup(self.close_bi_head, self.close_bi)
        # smaller than the subject: three quarters of its column's size, centred on the subject's rows
        self.close_context.scale(0.75).move_to([right.center[0], cells.get_y() + (head.height + GAP.small) * 0.75 / 2, 0])
        sub.cell_w, sub.cell_h = sub.cell_w * 0.75, sub.cell_h * 0.75
        self.close_take = VGroup(self.recompute_verdict, self.close_causal, self.cached_verdict, self.close_context)

    def min_stale_cell(self) -> tuple[int, int]:
        """``(m, n)``: the cell of the bidirectional verdict's figure (the smallest change; where some change is 0,
        the largest), the token appended and the output row."""
        d = self.data
        shown = d.min_stale if d.min_stale > 0.0 else max(float(s.max()) for s in d.staleness)
        return next((m, n) for m, s in enumerate(d.staleness, start=1) for n, v in enumerate(s) if float(v) == shown)

    def closing_parts(self) -> list:
        return [self.recompute_verdict, VGroup(self.close_causal, self.cached_verdict), self.close_context]

    def closing(self) -> None:
        """The takeaway brought forward under the last caption."""
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD,
                  subject=VGroup(self.close_causal, self.cached_verdict),
                  why=self.bidir_why() or {"empty": STAIRCASE})

    def takeaway(self):
        """The result that proves the property, large: causally no past output moves (✓, exactly 0), so the cache
        is exact, as cached = full recompute (✓, exactly 0) says across the top; the bidirectional table, every
        cell moved, beside it dimmed."""
        self.closing_layout()
        return VGroup(*self.closing_parts())

    def bring_forward(self, take, region=None):
        """Everything but the header fades; the causal table and its verdict grow into their place, the cache's
        verdict arrives over them, and the bidirectional table beside them, dimmed."""
        from scenes.kit.compose import DIMMED
        from scenes.kit.motion import set_level

        # (the causal table and its verdict stay as drawn, what the tests of beat 10 read: copies of them grow)
        moving = [(m.copy(), w) for m, w in ((self.c_table, self.close_causal), (self.proof_causal, self.cached_verdict))]
        self.remove(self.c_table, self.proof_causal)
        keep = {id(f) for f in self.header.get_family()}
        leaves = [f for m in self.mobjects for f in m.get_family()
                  if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
        self.add(*[m for m, _ in moving])
        self.closing_picture = self.closing_parts()
        set_level(self.close_context, level=DIMMED)
        grow = [ReplacementTransform(m, w) for m, w in moving]
        return [Succession(AnimationGroup(*([FadeOut(Group(*leaves))] if leaves else []), *grow),
                           LaggedStart(FadeIn(self.recompute_verdict, shift=GAP.small * DOWN),
                                       FadeIn(self.close_context), lag_ratio=0.5))]
