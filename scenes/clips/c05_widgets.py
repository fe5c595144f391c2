"""The widgets only clip 05 draws (``scenes/clips/c05_kv_cache.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    Rectangle,
    RoundedRectangle,
    VGroup,
)

from scenes.kit import numbers
from scenes.kit.binding import role
from scenes.kit.compose import GAP
from scenes.kit.layout import (
    LayoutError,
    Region,
    baseline_y,
    fit_label,
    overlay,
)
from scenes.kit.proofs import frame_row, row_names
from scenes.kit.theme import (
    DIM,
    FG,
    KEY,
    LABEL,
    QUERY,
    SMALL,
    VALUE,
    ColorScale,
    fmt_value,
    label,
    math,
)
from scenes.kit.widgets import ColorBar, Heatmap


def weight_text(w: float) -> str:
    """A weight as the deck prints it: an exact 1 (a first token's only weight) as ``1``, as clip 03 prints
    it; any other weight to two decimals (``0.47``)."""
    return "1" if float(w) == 1.0 else fmt_value(w, 2)


# The K and V caches wear the key's and the value's hues (blue, magenta), which the deck's token colours
# repeat (token 0 blue, token 3 magenta): here tokens and outputs are named in the neutral ink, their index
# in the subscript, so one hue on screen keeps one meaning (review round 3).
TOKEN_INK = FG
NEW_INK = FG  # the row a step appends: its outline and the word "new"
ROLE_OF = {"q": "query", "k": "key", "v": "value"}


def row_slots(hm: Heatmap, rows: Sequence[int] | None = None) -> VGroup:
    """An empty outline over each of ``hm``'s rows (a cache slot waiting for its row)."""
    rows = range(hm.values.shape[0]) if rows is None else rows
    out = VGroup()
    for i in rows:
        r = Rectangle(width=hm.values.shape[1] * hm.cell_w, height=hm.cell_h, stroke_color=DIM, stroke_width=1.5)
        out.add(r.move_to(VGroup(*hm.cells[i])))
    return out


class ChangeTable(VGroup):
    """How far each past output moves when token ``m`` is appended (``staleness[m-1]: (m,)``), as a
    staircase table: row ``n`` is output ``y_n`` (placed level with ``row_y(n)``), column ``m`` the token
    appended, each cell printing ``‖Δy_n‖`` as the lecture prints a measurement (``0.24``, ``0.010``);
    cells with ``n ≥ m`` (no past row to move) stay empty.  Labels on the data: the columns are headed
    ``x_m`` under the words "token appended", each row ``y_n`` beside its first cell (``rows``: the
    staircase's edge), and the quantity ``‖Δy_n‖`` stands at the corner, over ``y_0`` (``corner``).

    ``cells[m-1][n]`` and ``numbers[m-1][n]`` are column ``m``'s cell and figure; ``heads[m-1]`` its head;
    ``values`` the staircase as an array (``nan`` where empty).  An exact zero prints ``0`` (the verdict says
    "exact"; a cell is a measurement, not a verdict).  ``scale`` (the deck's "output changes"): each cell that
    moved painted by how far (its figure in the scale's text colour); an exact 0 is left unpainted."""

    def __init__(self, staleness: Sequence[np.ndarray], row_y, cell_h: float, left: float, width: float,
                 size: float = SMALL, min_w: float = 0.0, scale: ColorScale | None = None, figures: bool = True,
                 **kw):
        super().__init__(**kw)
        T = len(staleness) + 1
        texts = [["0" if float(v) == 0.0 else numbers.measure(float(v)).text for v in s] for s in staleness]
        # without ``figures`` the painted cells carry no text (their colour and the bar say it; a cell of 0, unpainted,
        # still reads "0")
        shown = [t for col in texts for t in col if figures or t == "0"]
        widest = max((label(t, size=size).width for t in shown), default=0.3)
        cw = min(width / max(T - 1, 1), max(widest + 2 * GAP.small, cell_h, min_w))  # min_w: another table's cells
        if cw < widest + GAP.tight:
            raise LayoutError(f"a table of {T - 1} columns of changes does not fit {width:.2f} units")
        self.cell_w, self.cell_h = cw, cell_h
        self.color_scale = scale  # (not ``scale``: that is the Mobject method FadeIn calls)
        vals = np.full((T - 1, T - 1), np.nan)
        self.cells, self.numbers, self.heads = [], [], VGroup()
        top = row_y(0) + cell_h / 2
        for m in range(1, T):
            x = left + (m - 0.5) * cw
            col_cells, col_nums = VGroup(), VGroup()
            for n in range(m):
                v = vals[n, m - 1] = float(staleness[m - 1][n])
                painted = scale is not None and v != 0.0
                fill = {"fill_color": scale.color(v), "fill_opacity": 1.0} if painted else {"fill_opacity": 0}
                r = Rectangle(width=cw, height=cell_h, stroke_color=DIM, stroke_width=1.5, **fill)
                r.move_to([x, row_y(n), 0])
                t = label(texts[m - 1][n], size=size, color=scale.text_color(v) if painted else FG)
                t.move_to(r)
                if not figures and painted:
                    t.set_opacity(0.0)  # (kept, so numbers[m][n] still names the cell's figure)
                overlay(r, t)
                col_cells.add(r)
                col_nums.add(t)
            self.cells.append(col_cells)
            self.numbers.append(col_nums)
            self.heads.add(math(f"x_{m}", size=LABEL, color=TOKEN_INK).move_to([x, top + GAP.small + 0.2, 0]))
        base = max(h.get_bottom()[1] for h in self.heads)
        for h in self.heads:  # one baseline
            h.shift((base - h.get_bottom()[1]) * UP)
        self.title = label("token appended", size=SMALL, color=DIM).next_to(self.heads, UP, buff=GAP.tight)
        if self.title.get_right()[0] > left + (T - 1) * cw:  # wider than the table (few tokens): it ends with it
            self.title.align_to([left + (T - 1) * cw, 0, 0], RIGHT)
        # labels on the data: each row named by the output it measures, y_n, left of the cells; the
        # quantity, ‖Δy_n‖, at the corner over those names, level with the heads
        self.rows = VGroup(*[math(f"y_{n}", size=LABEL, color=TOKEN_INK).next_to(
            [left + n * cw, row_y(n), 0], LEFT, buff=GAP.small) for n in range(T - 1)])  # beside its first cell
        self.corner = math("norm(Delta y_n)", size=LABEL)
        self.corner.next_to([left, 0, 0], LEFT, buff=GAP.small).set_y(self.heads[0].get_y())
        self.corner.shift((base - self.corner.get_bottom()[1]) * UP)
        # a title wider than the table (few tokens) reaches over the corner's name: it rises clear of it
        if self.title.get_left()[0] < self.corner.get_right()[0] and self.title.get_bottom()[1] < self.corner.get_top()[1] + GAP.hair:
            self.title.shift((self.corner.get_top()[1] + GAP.hair - self.title.get_bottom()[1]) * UP)
        vals.flags.writeable = False
        self.values = vals
        self.add(self.heads, self.title, self.rows, self.corner, *self.cells, *self.numbers)


class DecodeBoard(VGroup):
    """Token-by-token decoding in ``region``: columns ``tags | K cache | V cache | weights | outputs``, one
    row per token, the new query's row above the K cache, the tokens in a column on the left (token ``m``
    level with the rows it writes).

    The K and V caches stand side by side (the cache is the pair); ``tags`` say what the cache holds at
    the last step: a frame around the caches' rows ``0 … T−2`` (what the steps before wrote), K and V
    together, named "cached", and "new" beside row ``T−1`` (appended this step).  The outputs are not cached: each
    ``y_m`` is written once, at its step.

    Concept colours: the K cache and its rows ``k_n`` in ``KEY``, the V cache and ``v_n`` in ``VALUE``,
    the query ``q_m`` in ``QUERY``; cells by the deck's scales: the K cache and the query on ``in_scale``
    (the "inputs" quantity), the V cache and the outputs on ``out_scale`` (the "outputs" quantity, which
    holds V: causally ``y_0 = v_0``, the same numbers in the same colours), whose colour bar ``bar`` stands
    right of the outputs.
    ``K_map``, ``V_map``, ``Y_map`` show the last step's caches and every output; ``weights[m]`` are step
    ``m``'s numbers and bars (bar ``n`` level with cache row ``n``); ``top_strip`` the strip of the query row
    (later the verdict); ``brace`` the "cached" frame and ``cache_rows`` the rows it holds."""

    MAX_CELL_W, MAX_CELL_H = 1.5, 1.3  # cache and output cells, at most (few tokens: taller rows)
    BAR_LEN = 1.2  # a weight of 1 as a bar, where the cells have room
    MIN_BAR_LEN = 0.6  # ... shortened down to this to keep the cells at least COMFORT_CELL_W wide
    SCALE_BAR_W = 0.16  # the colour bar of V and the outputs (its ticks beside it)
    COMFORT_CELL_W = 0.36

    def __init__(self, steps, Y, in_scale: ColorScale, out_scale: ColorScale, region: Region,
                 w_scale: ColorScale | None = None, **kw):
        super().__init__(**kw)
        w_scale = w_scale or ColorScale("viridis", 0.0, 1.0)
        T = len(steps)
        K, V = steps[-1].K_cache, steps[-1].V_cache
        dm = K.shape[1]
        rest = region
        head_h = label("K cache", size=LABEL).height
        lab_w = math(f"k_{T - 1}", size=LABEL).width + GAP.small + GAP.hair
        num_w = label("0.00", size=SMALL).width
        # "new" and its row's outline in the foreground ink, bold (review round 5: the highlight's gold sat beside
        # the query's orange, two warm hues of two meanings); the rows read back are outlined in grey
        self.tag_words = (label("cached", size=LABEL, color=DIM), label("new", size=LABEL, color=NEW_INK, weight="BOLD"))
        chip_names = [math(f"x_{i}", size=LABEL) for i in range(T)]
        chip_w = max(n.width for n in chip_names) + 2 * GAP.small
        tag_w = max(*(t.width for t in self.tag_words), chip_w, label("tokens", size=LABEL).width) + GAP.small
        gap = GAP.normal
        # the two bars right of the outputs (q and k's over v and y's), as wide as the wider with its ticks (the
        # sweep: the inputs' "−2.5" is wider than the outputs' "−2", and it ran off the frame)
        bar_w = max(ColorBar(sc, height=1.0, width=self.SCALE_BAR_W).width for sc in (in_scale, out_scale))
        fixed = 3 * lab_w + num_w + GAP.tight + tag_w + 4 * gap + GAP.small + bar_w  # all but the bars and the cells
        # the weights' cells give up to BAR_LEN - MIN_BAR_LEN before the data cells go under their comfortable width
        short = 3 * dm * self.COMFORT_CELL_W - (rest.width - fixed - self.BAR_LEN)
        self.bar_len = float(np.clip(self.BAR_LEN - short, self.MIN_BAR_LEN, self.BAR_LEN))
        # the weights' column as wide as its head and a gap, so "weights" never reads on with "V cache" (review
        # round 4: 40 px between them), where the data cells keep their comfortable width
        # and a gap before it as wide again (the V cache's rows read on into the weights' otherwise)
        w_narrow = max(num_w + 2 * GAP.small, self.bar_len)
        for w_col, w_gap in ((max(w_narrow, label("weights", size=LABEL).width + GAP.normal), gap),
                             (w_narrow, 0.0)):
            cw = min(self.MAX_CELL_W, (rest.width - fixed - w_gap - (w_col - num_w - GAP.tight)) / (3 * dm))
            if cw >= self.COMFORT_CELL_W:
                break
        fixed += w_col - num_w - GAP.tight + w_gap
        q_gap = GAP.normal
        # top to bottom: the query row (1.3 rows tall; later the verdict's strip), the heads, the T rows
        ch = min(self.MAX_CELL_H, (rest.height - 2 * q_gap - head_h) / (T + 1.3))
        if cw < GAP.normal or ch < GAP.normal:
            raise LayoutError(f"the decoding board of {T} tokens × {dm} features does not fit {region.name!r}")
        self.cell_w, self.cell_h = cw, ch
        q_row_h = 1.3 * ch
        drop = max(0.0, rest.height - q_row_h - 2 * q_gap - head_h - T * ch) / 2  # few tokens: mid-height
        rows_top = rest.top - drop - q_row_h - 2 * q_gap - head_h
        total = fixed + 3 * dm * cw
        x = region.center[0] - total / 2
        xs = {}
        for name, w in (("T", tag_w), ("K", lab_w + dm * cw), ("V", lab_w + dm * cw), ("W", w_col),
                        ("Y", lab_w + dm * cw)):
            xs[name] = x
            x += w + gap + (w_gap if name == "V" else 0.0)
        self.row_y = lambda i: rows_top - (i + 0.5) * ch

        def block(values, key, scale):
            hm = Heatmap(values, scale, (cw, ch))
            return hm.move_to([xs[key] + lab_w + dm * cw / 2, rows_top - T * ch / 2, 0])

        self.K_map, self.V_map = block(K, "K", in_scale), block(V, "V", out_scale)
        self.Y_map = block(Y, "Y", out_scale)
        self.slots = VGroup(*[row_slots(hm) for hm in (self.K_map, self.V_map, self.Y_map)])
        # V and the outputs on one scale (causally y_0 is v_0: one row, one colour), its bar beside the outputs
        # two bars in one column right of the outputs, each named by what it paints (review round 5: one bar stood
        # there, unnamed, while q and k were painted on another scale): q and k on the inputs scale over v and y on
        # the outputs scale, their names in their concept colours over each
        tick_h = label("0", size=SMALL).height

        def names_of(*pairs):
            g = VGroup(*[math(n, size=SMALL, color=c) for n, c in pairs]).arrange(RIGHT, buff=GAP.tight)
            for m, (n, _) in zip(g, pairs):
                if n in ROLE_OF:
                    role(m, ROLE_OF[n])
            return g

        share_in, share = names_of(("q", QUERY), ("k", KEY)), names_of(("v", VALUE), ("y", TOKEN_INK))
        names_h = share.height + 0.15 + tick_h / 2  # a bar's names over it and its top tick's half
        bar_h = max(0.6, min(1.6, (T * ch - 2 * (names_h + tick_h / 2) - GAP.normal) / 2))
        self.in_bar = ColorBar(in_scale, width=self.SCALE_BAR_W, title=share_in, height=bar_h)
        self.bar = ColorBar(out_scale, width=self.SCALE_BAR_W, title=share, height=bar_h)
        for b_ in (self.in_bar, self.bar):
            b_.title.align_to(b_.frame, LEFT)
            b_.title.shift(tick_h / 2 * UP)  # clear of the top end's tick
        x_left = self.Y_map.get_right()[0] + GAP.small
        col_h = 2 * (names_h + bar_h + tick_h / 2) + GAP.normal
        col_top = rows_top - (T * ch - col_h) / 2
        self.in_bar.shift([x_left - self.in_bar.frame.get_left()[0], col_top - self.in_bar.get_top()[1], 0])
        self.bar.shift([x_left - self.bar.frame.get_left()[0],
                        self.in_bar.frame.get_bottom()[1] - tick_h / 2 - GAP.normal - self.bar.get_top()[1], 0])
        self.bar_names = VGroup(share_in, share)
        self.k_labels = role(row_names(self.K_map, "k", colors=lambda i: KEY), "key")
        self.v_labels = role(row_names(self.V_map, "v", colors=lambda i: VALUE), "value")
        self.y_labels = row_names(self.Y_map, "y", colors=lambda i: TOKEN_INK)
        hy = rows_top + q_gap / 2 + head_h / 2  # the heads right over their columns
        self.heads = VGroup(
            role(label("K cache", size=LABEL, color=KEY), "key").move_to([self.K_map.get_center()[0], hy, 0]),
            role(label("V cache", size=LABEL, color=VALUE), "value").move_to([self.V_map.get_center()[0], hy, 0]),
            label("weights", size=LABEL).move_to([xs["W"] + w_col / 2, hy, 0]),
            label("outputs", size=LABEL).move_to([self.Y_map.get_center()[0], hy, 0]),
        )
        base = baseline_y(self.heads[0])
        for h in self.heads[1:]:  # one baseline for all four, whatever their descenders
            h.shift((base - baseline_y(h)) * UP)

        # the query row above the K cache's head, its note beside it
        q_y = rest.top - drop - q_row_h / 2
        self.q_map = Heatmap(steps[0].q[None, :], in_scale, (cw, q_row_h)).move_to([self.K_map.get_center()[0], q_y, 0])
        self.q_slot = Rectangle(width=dm * cw, height=q_row_h, stroke_color=DIM, stroke_width=1.5).move_to(self.q_map)
        self.q_note = fit_label("the new token's query", xs["W"] + w_col - self.q_map.get_right()[0]
                                - GAP.normal, size=SMALL, color=DIM, max_lines=2)
        self.q_note.next_to(self.q_map, RIGHT, buff=GAP.normal)
        self.q_labels = [role(math(f"q_{s.t}", size=LABEL, color=QUERY), "query").next_to(self.q_map, LEFT,
                                                                                          buff=GAP.small)
                         for s in steps]

        # per step: the weights, one cell each on the deck's weights scale (the colour every clip paints
        # attention weights in), its number printed on it, each level with the cache row it weighs; an exact 1
        # prints "1" (as clip 03 prints it)
        self.w_scale = w_scale
        self.weights = []
        for s in steps:
            cells = Heatmap(np.asarray(s.weights, float)[:, None], w_scale, (w_col, ch))
            cells.move_to([xs["W"] + w_col / 2, self.row_y(0) - (len(s.weights) - 1) * ch / 2, 0])
            nums = VGroup()
            for i, w in enumerate(s.weights):
                t = label(weight_text(w), size=SMALL, color=w_scale.text_color(w)).move_to(cells.cell(i, 0))
                overlay(cells.cell(i, 0), t)
                nums.add(t)
            self.weights.append(VGroup(nums, cells))

        # the weights' empty slots, one a row, as every other column has (review round 4), and their colour bar
        # in the query's strip, right of its note: 0 to 1 on the deck's weights scale, named "weights"
        self.w_slots = VGroup(*[Rectangle(width=w_col, height=ch, stroke_color=DIM, stroke_width=1.5).move_to(
            [xs["W"] + w_col / 2, self.row_y(i), 0]) for i in range(T)])
        self.slots.add(self.w_slots)
        self.w_bar = None
        room = region.right - self.q_note.get_right()[0] - GAP.wide
        if room >= 1.6:
            title = label("weights", size=SMALL, color=DIM)
            length = min(3.0, room - title.width - GAP.small - label("1", size=SMALL).width / 2)
            if length >= 1.0:
                bar = ColorBar(w_scale, height=length, width=self.SCALE_BAR_W, horizontal=True, ticks=(0.0, 0.5, 1.0),
                               tick_format=lambda v: fmt_value(v, 1) if 0.0 < v < 1.0 else f"{v:.0f}")
                title.next_to(bar.frame, LEFT, buff=GAP.small)
                self.w_bar = VGroup(bar, title)
                self.w_bar.move_to([region.right - self.w_bar.width / 2 - label("1", size=SMALL).width / 2, q_y, 0])
                self.w_bar.color_bar = bar

        # the words on the data: one frame around the cached rows of both caches (K and V: the cache is the
        # pair), named "cached" on its left; "new" beside the row this step appended
        self.tags = VGroup()
        self.brace = None  # the frame of the cached rows
        left = self.k_labels.get_left()[0] - GAP.tight
        right = self.V_map.get_right()[0] + GAP.tight
        if T > 1:
            top_y, bot_y = rows_top + GAP.hair, rows_top - (T - 1) * ch - GAP.hair / 2
            self.brace = RoundedRectangle(corner_radius=0.08, width=right - left, height=top_y - bot_y, stroke_color=DIM,
                                          stroke_width=2.5).move_to([(left + right) / 2, (top_y + bot_y) / 2, 0])
            self.brace.set_fill(opacity=0)
            cached = self.tag_words[0].next_to(self.brace, LEFT, buff=GAP.small)
            self.tags.add(VGroup(self.brace, cached))
        new = self.tag_words[1].move_to([left - GAP.small - self.tag_words[1].width / 2, self.row_y(T - 1), 0])
        self.tags.add(new)
        self.cache_rows = range(T - 1)  # the rows the frame holds: 0 … T−2

        # the tokens, one a row (token m writes row m), in the column the tags take later
        chips = VGroup()
        for i, name in enumerate(chip_names):
            box = RoundedRectangle(corner_radius=0.1, width=chip_w, height=min(ch * 0.86, name.height + 2 * GAP.small),
                                   stroke_color=TOKEN_INK, stroke_width=2, fill_color=TOKEN_INK,
                                   fill_opacity=0.12)
            box.move_to([xs["T"] + tag_w - GAP.small - chip_w / 2, self.row_y(i), 0])
            name.move_to(box)
            overlay(box, name)
            chips.add(VGroup(box, name))
        self.chips = chips
        self.tokens_head = label("tokens", size=LABEL, color=DIM).move_to([chips.get_x(), hy, 0])
        self.tokens_head.shift((base - baseline_y(self.tokens_head)) * UP)
        self.tokens = VGroup(self.tokens_head, chips)
        # the strip the query row stands in: later the verdict's
        self.top_strip = Region(region.left, region.right, q_y - q_row_h / 2, region.top, "top")

    def markers_for(self, m: int) -> list:
        return [frame_row(hm, m, color=NEW_INK).set_stroke(width=5) for hm in (self.K_map, self.V_map, self.Y_map)]
