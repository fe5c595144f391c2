"""The widgets only clip 05 draws (``scenes/clips/c05_kv_cache.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    Brace,
    Mobject,
    Rectangle,
    RoundedRectangle,
    VGroup,
)

from scenes.kit import numbers
from scenes.kit.compose import GAP
from scenes.kit.layout import (
    LayoutError,
    Region,
    baseline_y,
    fit_label,
    overlay,
)
from scenes.kit.plots import Plot
from scenes.kit.proofs import check_mark, frame_row, row_names, settle
from scenes.kit.theme import (
    DIM,
    FG,
    HIGHLIGHT,
    KEY,
    LABEL,
    QUERY,
    SMALL,
    VALUE,
    ColorScale,
    figure,
    fmt_value,
    label,
    math,
    token_color,
)
from scenes.kit.widgets import Heatmap


def row_slots(hm: Heatmap, rows: Sequence[int] | None = None) -> VGroup:
    """An empty outline over each of ``hm``'s rows (a cache slot waiting for its row)."""
    rows = range(hm.values.shape[0]) if rows is None else rows
    out = VGroup()
    for i in rows:
        r = Rectangle(width=hm.values.shape[1] * hm.cell_w, height=hm.cell_h, stroke_color=DIM, stroke_width=1.5,
                      stroke_opacity=0.6)
        out.add(r.move_to(VGroup(*hm.cells[i])))
    return out


class StaleChart(VGroup):
    """How far each past output moves when token ``m`` is appended (``staleness[m-1]: (m,)``), as
    groups of bars on a log axis, bar ``n`` of a group in token ``n``'s colour.  ``bar_groups[m-1]``
    are the bars of token ``m``, ``bar_x[m-1]`` their x."""

    def __init__(self, staleness: Sequence[np.ndarray], region: Region, y_title: Mobject,
                 x_label: str = "token appended", **kw):
        super().__init__(**kw)
        T = len(staleness) + 1
        hi = max(float(s.max()) for s in staleness)
        lo = min(float(s.min()) for s in staleness)
        if not lo > 0:
            raise LayoutError("a log axis of changes needs every change positive")
        lo_e, hi_e = int(np.floor(np.log10(lo) - 0.5)), int(np.ceil(np.log10(hi) + 0.01))
        ticks = [10.0 ** k for k in numbers.log_ticks(lo_e, hi_e, most=5)]
        title_strip, rest = region.take_top(y_title.height, gap=GAP.small)
        probe = Plot((0.4, T - 0.4), (10.0 ** lo_e, 10.0 ** hi_e), width=2, height=2, y_log=True, x_ticks=[1],
                     y_ticks=ticks, x_label=x_label)
        tick_w = max(t.width for t in probe.y_tick_labels) + GAP.normal
        below = probe.axes.get_bottom()[1] - probe.get_bottom()[1]
        self.plot = Plot((0.4, T - 0.4), (10.0 ** lo_e, 10.0 ** hi_e), width=rest.width - tick_w,
                         height=rest.height - below, y_log=True, x_ticks=list(range(1, T)), y_ticks=ticks,
                         x_label=x_label)
        self.plot.shift([rest.right - self.plot.axes.get_right()[0], rest.top - self.plot.axes.get_top()[1], 0])
        y_title.next_to(self.plot.axes[1].get_top(), UP, buff=GAP.small).align_to(self.plot.axes[1], LEFT)
        self.y_title = y_title
        gap = min(0.15, 0.8 / max(T - 1, 1))  # data units between a group's bars
        unit = self.plot.width_units / (self.plot.x_range[1] - self.plot.x_range[0])
        self.bar_x = [[m + (n - (m - 1) / 2) * gap for n in range(m)] for m in range(1, T)]
        self.bar_groups = [self.plot.bars(xs, s, bar_width=gap * unit * 0.75, colors=[token_color(n) for n in range(m)])
                           for m, (xs, s) in enumerate(zip(self.bar_x, staleness), start=1)]
        self.add(self.plot, y_title)


class DecodeBoard(VGroup):
    """Token-by-token decoding in ``region``: columns ``K cache | weights | V cache | outputs | check``,
    one row per token, the new query's row above the K cache, the tokens in a row underneath.

    Concept colours: the K cache and its rows ``k_n`` in ``KEY``, the V cache and ``v_n`` in
    ``VALUE``, the query ``q_m`` in ``QUERY``; every cell by the one ``scale`` of the clip.
    ``K_map``, ``V_map``, ``Y_map`` show the last step's caches and every output; ``weights[m]``
    are step ``m``'s numbers and bars; ``checks[m]`` the mark of step ``m`` (a check for an exact
    recompute, else its measured figure); ``tags`` the words on the data for the cached rows and
    the new one; ``bottom`` the strip under the rows (the tokens, later the proof)."""

    MAX_CELL_W, MAX_CELL_H = 1.25, 0.9  # cache and output cells, at most
    BAR_LEN = 1.2  # a weight of 1 as a bar, where the cells have room
    MIN_BAR_LEN = 0.8  # ... shortened down to this to keep the cells at least COMFORT_CELL_W wide
    COMFORT_CELL_W = 0.36

    def __init__(self, steps, Y, scale: ColorScale, region: Region, bottom_h: float, aside_w: float, **kw):
        super().__init__(**kw)
        T = len(steps)
        K, V = steps[-1].K_cache, steps[-1].V_cache
        dm = K.shape[1]
        self.scale = scale
        bottom, rest = region.take_bottom(bottom_h, gap=GAP.normal)
        self.aside, self.bottom = bottom.take_right(aside_w, gap=GAP.wide)
        head_h = label("K cache", size=SMALL).height
        heads_strip, rest = rest.take_top(head_h, gap=GAP.small)
        lab_w = math(f"k_{T - 1}", size=LABEL).width + GAP.small + GAP.hair
        num_w = label("0.00", size=SMALL).width
        chk_w = max([check_mark(0.3).width, *(figure(s.recompute_defect, size=SMALL).width
                                              for s in steps if s.recompute_defect != 0.0)]) + GAP.tight
        self.tag_words = (label("cached", size=SMALL, color=DIM), label("new", size=SMALL, color=HIGHLIGHT))
        brace_w = GAP.normal
        tag_w = brace_w + GAP.tight + max(t.width for t in self.tag_words)
        gap = GAP.normal
        fixed = 3 * lab_w + num_w + GAP.tight + chk_w + tag_w + 5 * gap  # all but the bars and the cells
        # the bars give up to BAR_LEN - MIN_BAR_LEN before the cells go under their comfortable width
        short = 3 * dm * self.COMFORT_CELL_W - (rest.width - fixed - self.BAR_LEN)
        self.bar_len = float(np.clip(self.BAR_LEN - short, self.MIN_BAR_LEN, self.BAR_LEN))
        w_col = num_w + GAP.tight + self.bar_len
        fixed += self.bar_len
        cw = min(self.MAX_CELL_W, (rest.width - fixed) / (3 * dm))
        q_gap = GAP.normal
        q_min = 2 * label("x", size=SMALL).height + GAP.normal  # the query's note holds two lines
        ch = min(self.MAX_CELL_H, (rest.height - q_gap) / (T + 1.3), (rest.height - q_gap - q_min) / T)
        if cw < GAP.normal or ch < GAP.normal:
            raise LayoutError(f"the decoding board of {T} tokens × {dm} features does not fit {region.name!r}")
        self.cell_w, self.cell_h = cw, ch
        q_row_h = max(1.3 * ch, q_min)
        drop = max(0.0, rest.height - q_row_h - q_gap - T * ch) / 2  # few tokens: the picture sits mid-height
        rows_top = rest.top - drop - q_row_h - q_gap
        total = fixed + 3 * dm * cw
        x = region.center[0] - total / 2
        xs = {}
        for name, w in (("K", lab_w + dm * cw), ("W", w_col), ("V", lab_w + dm * cw), ("Y", lab_w + dm * cw),
                        ("C", chk_w), ("T", tag_w)):
            xs[name] = x
            x += w + gap
        self.row_y = lambda i: rows_top - (i + 0.5) * ch

        def block(values, key):
            hm = Heatmap(values, scale, (cw, ch))
            return hm.move_to([xs[key] + lab_w + dm * cw / 2, rows_top - T * ch / 2, 0])

        self.K_map, self.V_map, self.Y_map = block(K, "K"), block(V, "V"), block(Y, "Y")
        self.slots = VGroup(*[row_slots(hm) for hm in (self.K_map, self.V_map, self.Y_map)])
        self.k_labels = row_names(self.K_map, "k", colors=lambda i: KEY)
        self.v_labels = row_names(self.V_map, "v", colors=lambda i: VALUE)
        self.y_labels = row_names(self.Y_map, "y")
        hy = heads_strip.center[1] - drop
        self.heads = VGroup(
            label("K cache", size=SMALL, color=KEY).move_to([self.K_map.get_center()[0], hy, 0]),
            label("weights", size=SMALL).move_to([xs["W"] + w_col / 2, hy, 0]),
            label("V cache", size=SMALL, color=VALUE).move_to([self.V_map.get_center()[0], hy, 0]),
            label("outputs", size=SMALL).move_to([self.Y_map.get_center()[0], hy, 0]),
        )
        base = baseline_y(self.heads[0])
        for h in self.heads[1:]:  # one baseline for all four, whatever their descenders
            h.shift((base - baseline_y(h)) * UP)

        # the query row above the K cache, its note above the weights
        q_y = rest.top - drop - q_row_h / 2
        self.q_map = Heatmap(steps[0].q[None, :], scale, (cw, ch * 1.3)).move_to([self.K_map.get_center()[0], q_y, 0])
        self.q_slot = Rectangle(width=dm * cw, height=ch * 1.3, stroke_color=DIM, stroke_width=1.5,
                                stroke_opacity=0.6).move_to(self.q_map)
        self.q_note = fit_label("only the new query", w_col + GAP.small, size=SMALL, color=DIM, max_lines=2)
        self.q_note.move_to([xs["W"] + w_col / 2, q_y, 0])
        self.q_labels = [math(f"q_{s.t}", size=LABEL, color=QUERY).next_to(self.q_map, LEFT, buff=GAP.small)
                         for s in steps]

        # per step: the weights (numbers and bars) and the row's mark
        self.weights = []
        for s in steps:
            nums = VGroup(*[label(fmt_value(w, 2), size=SMALL).move_to([xs["W"] + num_w / 2, self.row_y(i), 0])
                            for i, w in enumerate(s.weights)])
            bars = RowBars(s.weights, vmax=1.0, length=self.bar_len, row_height=ch, thickness=min(0.28, ch * 0.55))
            bars.shift(np.array([xs["W"] + num_w + GAP.tight - bars.bars[0].get_left()[0],
                                 self.row_y(0) - bars.bars[0].get_center()[1], 0]))
            self.weights.append(VGroup(nums, bars))
        self.checks = VGroup()
        for s in steps:
            where = [xs["C"] + chk_w / 2, self.row_y(s.t), 0]
            if s.recompute_defect == 0.0:
                mk = check_mark(0.3).move_to(where)
            else:
                mk = figure(s.recompute_defect, size=SMALL, color=HIGHLIGHT).move_to(where)
            mk.defect = s.recompute_defect
            self.checks.add(mk)
        self.status = [numbers.measure(s.recompute_defect).text for s in steps]

        # the words on the data: a brace over the cached rows, "new" beside the last one
        tx = xs["T"]
        self.tags = VGroup()
        if T > 1:
            span = Rectangle(width=GAP.tight, height=(T - 1) * ch).move_to([tx, rows_top - (T - 1) * ch / 2, 0])
            brace = Brace(span, RIGHT, buff=0, color=DIM).move_to([tx + brace_w / 2, span.get_center()[1], 0])
            cached = self.tag_words[0].next_to(brace, RIGHT, buff=GAP.tight)
            self.tags.add(VGroup(brace, cached))
        new = self.tag_words[1].move_to([tx + brace_w + GAP.tight + self.tag_words[1].width / 2, self.row_y(T - 1), 0])
        self.tags.add(new)

        # the tokens, in the order decoding reads them
        chips = VGroup()
        for i in range(T):
            name = math(f"x_{i}", size=LABEL)
            box = RoundedRectangle(corner_radius=0.1, width=name.width + 2 * GAP.small, height=self.bottom.height * 0.9,
                                   stroke_color=token_color(i), stroke_width=3, fill_color=token_color(i),
                                   fill_opacity=0.12)
            name.move_to(box)
            overlay(box, name)
            chips.add(VGroup(box, name))
        chips.arrange(RIGHT, buff=GAP.small)
        self.chips = chips
        self.tokens = VGroup(label("tokens", size=SMALL, color=DIM), chips).arrange(RIGHT, buff=GAP.normal)
        settle(self.bottom, self.tokens)

    def markers_for(self, m: int) -> list:
        return [frame_row(hm, m) for hm in (self.K_map, self.V_map, self.Y_map)]


class RowBars(VGroup):
    """Horizontal bars, one per value, left-aligned at ``x = 0``, ``row_height`` apart, top row first.

    Bar ``i`` has length ``values[i] / vmax * length`` (values must be in ``[0, vmax]``),
    so a test can read a value back from ``bars[i].width``.
    """

    def __init__(self, values, vmax: float, length: float = 1.5, row_height: float = 0.5, thickness: float = 0.3,
                 colors: Sequence | None = None, **kw):
        super().__init__(**kw)
        v = np.array(values, dtype=float, copy=True)
        if v.ndim != 1 or np.any(v < 0) or np.any(v > vmax) or not vmax > 0:
            raise ValueError(f"RowBars needs 1-D values in [0, vmax={vmax}], got {v}")
        v.flags.writeable = False
        self.values, self.vmax, self.length, self.row_height = v, float(vmax), length, row_height
        self.bars = VGroup()
        for i, x in enumerate(v):
            w = max(float(x) / self.vmax * length, 1e-3)
            c = colors[i] if colors is not None else FG
            r = Rectangle(width=w, height=thickness, stroke_width=0, fill_color=c, fill_opacity=0.95)
            r.move_to(np.array([w / 2, -i * row_height, 0.0]))
            self.bars.add(r)
        self.add(self.bars)

    def length_of(self, i: int) -> float:
        return float(self.bars[i].width)
