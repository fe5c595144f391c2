"""07 ``SameMultiset`` (§6): "the cat ate the mouse" and "the mouse ate the cat" from one embedding
table give the same outputs token for token and the same pooled vector; sinusoidal positions
separate them.  One colour scale for the inputs and one for the outputs, with and without
positions; the close sets the matched outputs side by side, equal without positions and apart
with them.

Every colour scale, log axis and proof line comes from ``scenes.figures.equivariance`` (the one
description the clip and its still draw from); every widget is placed in a region of
``self.layout``, sized from the config's ``T``, ``d`` and words.

Render directly with ``manim -ql scenes/clips/c07_same_multiset.py SameMultiset``.
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
    LaggedStart,
    Line,
    ReplacementTransform,
    Transform,
    VGroup,
)

from mathcore import (
    lecture_inputs,
    my_sinusoidal_position,
    sentence_pair,
)
from mathcore.config import LectureConfig
from mathcore.equivariance import (
    MultisetComparison,
    compare_multiset,
)
from mathcore.permutation import permutation_matrix
from scenes.clips.c07_widgets import WordColumn
from scenes.figures.equivariance import (
    Picture07,
    picture07,
)
from scenes.kit import (
    DIM,
    FAILED,
    HEADING,
    LABEL,
    SMALL,
    VERIFIED,
    ClipScene,
    ColorBar,
    Heatmap,
    TokenRow,
    fmt_measure,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import GAP, column, reveal, row, stage
from scenes.kit.layout import LayoutError, fit_cells, spread_1d
from scenes.kit.notation import N
from scenes.kit.permuting import Handover
from scenes.kit.proofs import readout
from scenes.kit.theme import figure


@dataclass(frozen=True)
class SameMultisetData:
    """What clip 07 draws.

    ``vocab``, ``table: (V, d)`` the shared embedding table; ``tokens_a/b`` and ``ids_a/b``;
    ``matching`` with ``tokens_b[i] == tokens_a[matching[i]]``; ``PE: (T, d)`` sinusoidal
    positions; ``plain`` / ``positioned``: self-attention on both sentences without and with
    PE added, compared token for token and mean-pooled; ``matched_plain`` / ``matched_pos``:
    a's outputs in b's word order (``P Attn(X_a)``, P the matching), set beside b's at the close;
    ``picture``: the input and output scales and the proof lines.
    """

    vocab: tuple[str, ...]
    table: np.ndarray
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    ids_a: np.ndarray
    ids_b: np.ndarray
    matching: np.ndarray
    PE: np.ndarray
    plain: MultisetComparison
    positioned: MultisetComparison
    matched_plain: np.ndarray
    matched_pos: np.ndarray
    cmap: str
    picture: Picture07


def abbreviations(words, n_chars: int | None) -> dict[str, str]:
    """``{word: what a chip prints}``: words longer than ``n_chars`` cut to ``n_chars − 1`` letters
    and "…"; a cut shared by two words grows until each is unique.  ``None`` keeps every word."""
    if n_chars is None:
        return {w: w for w in words}
    out = {}
    for w in words:
        k = n_chars - 1
        cut = w if len(w) <= n_chars else w[:k] + "\u2026"
        while len(w) > n_chars and any(o != w and o[:k] == w[:k] for o in words):
            k += 1
            cut = w[:k] + "\u2026" if k < len(w) - 1 else w
            if cut == w:
                break
        out[w] = cut
    return out


class SameMultiset(ClipScene):
    """07 · "the cat ate the mouse" and "the mouse ate the cat": identical outputs without positions."""

    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    MAX_CELL = 1.3

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> SameMultisetData:
        sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        m = sp.matching()
        PE = my_sinusoidal_position(len(sp.tokens_a), cfg.d, cfg.rope_base)
        plain = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv)
        pos = compare_multiset(sp.X_a, sp.X_b, m, li.Wq, li.Wk, li.Wv, positions=PE)
        P = permutation_matrix(m)
        return SameMultisetData(
            vocab=sp.vocab, table=sp.table, tokens_a=sp.tokens_a, tokens_b=sp.tokens_b,
            ids_a=sp.ids_a, ids_b=sp.ids_b, matching=m, PE=PE, plain=plain, positioned=pos,
            matched_plain=P @ plain.Y_a, matched_pos=P @ pos.Y_a, cmap=cfg.cmap_signed,
            picture=picture07(sp.table, plain, pos, cfg.cmap_signed),
        )

    def caption_values(self) -> dict:
        d = self.data
        worst = int(np.argmax(d.positioned.diffs))
        return {
            "a": " ".join(d.tokens_a), "b": " ".join(d.tokens_b), "T": len(d.tokens_a), "V": len(d.vocab),
            "max": fmt_measure(d.plain.max_diff), "pooled": fmt_measure(d.plain.pooled_gap),
            "max_pos": fmt_measure(d.positioned.max_diff), "pooled_pos": fmt_measure(d.positioned.pooled_gap),
            "worst_word": d.tokens_b[worst], "first_b": d.tokens_b[0], "d": d.table.shape[1],
        }

    def word_color(self, w: str):
        return token_color(self.data.vocab.index(w))

    # ------------------------------------------------------------------ layout
    def plan(self) -> None:
        """Cell size and columns: [words a][X_a] [middle] [X_b][words b], as large as fits.

        The cells shrink until everything fits; when the words beside the rows would need rows
        too short for legible chips, the words there are abbreviated (``short``; the sentences
        beat shows them whole) instead of shrinking further."""
        d = self.data
        pic = d.picture
        T, dm = len(d.tokens_a), d.table.shape[1]
        content = self.layout.content
        names, rest = content.take_top(math("X_a", size=LABEL).height, gap=GAP.small)
        self.bar_strip, rest = rest.take_bottom(ColorBar(pic.inputs, height=1.0, horizontal=True).height,
                                                gap=GAP.small)
        self.names_y = names.center[1]
        diff_w = max(figure(v, size=SMALL).width for v in np.concatenate([d.plain.diffs, d.positioned.diffs]))
        mean_w = label("mean", size=SMALL).width
        diff_h = max(figure(v, size=SMALL).height for v in np.concatenate([d.plain.diffs, d.positioned.diffs]))
        floor = max(WordColumn.min_row(SMALL), diff_h + GAP.hair)
        longest = max(len(w) for w in d.vocab)
        W = content.width
        for n_chars in [None] + list(range(longest - 1, 3, -1)):
            short = abbreviations(d.vocab, n_chars)
            vocab_w = WordColumn.chip_width(list(short.values()), SMALL)
            wa = max(vocab_w, mean_w)
            fixed = 2 * (wa + GAP.small + GAP.normal)
            # the middle column holds the differences, the pooled gap under them, and the table (whose
            # cells may be narrower than the sentences')
            cell = min(self.MAX_CELL, (W - fixed - diff_w - GAP.wide) / (2 * dm),
                       (W - fixed - vocab_w - GAP.small) / (2 * dm + dm / 2),  # table cells at least half as wide
                       (rest.height - GAP.small) / (T + 1))
            if cell >= floor:
                # the middle takes the width the cells leave: the links between the sentences get room
                mid = max(diff_w + GAP.wide, vocab_w + GAP.small + dm * cell / 2, W - fixed - 2 * dm * cell)
                break
        else:
            raise LayoutError(f"clip 07 cannot fit {T} words of up to {longest} letters at d={dm} "
                              f"in {content.width:.2f}×{content.height:.2f} units")
        self.short, self.cell, self.vocab_w, self.diff_w = short, cell, vocab_w, diff_w
        self.table_cell = (min(cell, (mid - vocab_w - GAP.small) / dm), cell)
        total = fixed + 2 * dm * cell + mid
        x = content.left + (W - total) / 2
        self.col_a = (x, x + wa)
        x += wa + GAP.small
        self.heat_a_x = x + dm * cell / 2
        x += dm * cell + GAP.normal
        self.mid = (x, x + mid)
        x += mid + GAP.normal
        self.heat_b_x = x + dm * cell / 2
        x += dm * cell + GAP.small
        self.col_b = (x, x + wa)
        block = (T + 1) * cell + GAP.small
        self.rows_top = rest.top - (rest.height - block) / 2
        self.heat_y = self.rows_top - T * cell / 2
        self.pool_y = self.rows_top - T * cell - GAP.small - cell / 2
        self.words_w = wa
        # the names over the two sides and the differences' head, spread so none touches another
        self.diff_head = math(d.picture.delta, size=SMALL, color=DIM)
        widths = [max(self.name(side, k, place=False).width for k in range(4)) for side in "ab"]
        diff_right = self.heat_b_x - dm * cell / 2 - GAP.small
        self.name_x = spread_1d([self.heat_a_x, diff_right - self.diff_head.width / 2, self.heat_b_x],
                                [widths[0], self.diff_head.width, widths[1]], content.left, content.right,
                                gap=GAP.normal)
        self.diff_head.move_to([self.name_x[1], self.names_y, 0])

    def name(self, side: str, stage_: int, place: bool = True):
        """The name of side ``a``/``b`` at stage 0 (inputs), 1 (outputs), 2 (inputs + PE), 3 (outputs of those)."""
        pe = N.encoding_matrix.math
        expr = [f"X_{side}", f"\"Attn\"(X_{side})", f"X_{side} + {pe}", f"\"Attn\"(X_{side} + {pe})"][stage_]
        q = ["plain.X_", "plain.Y_", "positioned.X_", "positioned.Y_"][stage_] + side
        m = names(math(expr, size=LABEL), q)
        return m.move_to([self.name_x[0 if side == "a" else 2], self.names_y, 0]) if place else m

    def color_bar(self, scale, title: str) -> VGroup:
        """A horizontal colour bar for ``scale`` under the middle column, its word on its left."""
        bar = ColorBar(scale, height=self.mid[1] - self.mid[0], horizontal=True)
        bar.shift(np.array([sum(self.mid) / 2, self.bar_strip.top, 0]) - [bar.frame.get_x(), bar.get_top()[1], 0])
        t = label(title, size=SMALL, color=DIM).next_to(bar.frame, LEFT, buff=GAP.normal)
        g = VGroup(t, bar)
        g.bar = bar
        return g

    def diff_labels(self, diffs, color) -> VGroup:
        """One measured difference per row of b, right-aligned just left of X_b."""
        g = VGroup()
        right = self.Y_b.get_left()[0] - GAP.small
        for i, v in enumerate(diffs):
            t = figure(v, size=SMALL, color=color)
            t.move_to([right - t.width / 2, self.Y_b.cell_center(i, 0)[1], 0])
            g.add(t)
        return g

    def pool_figure(self, gap: float, color):
        """The largest difference of the two pooled vectors, in the differences' column (under their head)."""
        t = figure(gap, size=SMALL, color=color)
        return t.move_to([self.Y_b.get_left()[0] - GAP.small - t.width / 2, self.pool_y, 0])

    def match_lines(self) -> VGroup:
        """Token ``i`` of b joined to its match in a, ending before the widest difference it may print."""
        d = self.data
        g = VGroup()
        x_end = self.Y_b.get_left()[0] - GAP.small - self.diff_w - GAP.normal
        for i, src in enumerate(d.matching):
            a = self.Y_a.cell(int(src), self.Y_a.values.shape[1] - 1).get_right() + GAP.tight * RIGHT
            b = np.array([x_end, self.Y_b.cell(i, 0).get_center()[1], 0])
            g.add(Line(a, b, stroke_color=self.word_color(d.tokens_b[i]), stroke_width=3))
        return g

    def words_to_rows(self, row_: TokenRow, col: WordColumn) -> list:
        """Each chip of a sentence travels to its row beside the heatmap; a word printed whole
        goes with it, an abbreviated one is swapped (never one string morphed into another)."""
        anims = []
        for i in range(len(row_.tokens)):
            box, text = col.chips[i]
            if row_.texts[i].text == text.text:
                anims.append(ReplacementTransform(row_.token(i), col.chips[i]))
            else:
                anims += [ReplacementTransform(row_.boxes[i], box), swap(row_.texts[i], text)]
        return anims

    def pool_rows(self, comparison: MultisetComparison) -> VGroup:
        """The two mean-pooled sentence vectors, under their sentences' rows."""
        pic = self.data.picture
        return VGroup(Heatmap(comparison.pooled_a[None, :], pic.outputs, cell_size=self.cell).move_to([self.heat_a_x, self.pool_y, 0]),
                      Heatmap(comparison.pooled_b[None, :], pic.outputs, cell_size=self.cell).move_to([self.heat_b_x, self.pool_y, 0]))

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        pic = d.picture
        plain, pos = d.plain, d.positioned
        self.plan()
        cell = self.cell
        content = self.layout.content

        # the sentences, large, one above the other
        colors_a = [self.word_color(w) for w in d.tokens_a]
        colors_b = [self.word_color(w) for w in d.tokens_b]
        self.row_a = TokenRow(d.tokens_a, colors=colors_a, show_index=False, max_width=content.width)
        self.row_b = TokenRow(d.tokens_b, colors=colors_b, show_index=False, max_width=content.width)
        rows = column(self.row_a, self.row_b, gap="section", align=ORIGIN)
        content.fit(rows, max_scale=2.0)
        self.beat("sentences", reveal(self.row_a), reveal(self.row_b), run_time=1.4)

        # the words become the rows of each sentence; one embedding table in the middle
        self.words_a = WordColumn([self.short[w] for w in d.tokens_a], colors_a, row_height=cell, width=self.words_w, size=SMALL)
        self.words_b = WordColumn([self.short[w] for w in d.tokens_b], colors_b, row_height=cell, width=self.words_w, size=SMALL)
        self.words_a.move_to([sum(self.col_a) / 2, self.heat_y, 0])
        self.words_b.move_to([sum(self.col_b) / 2, self.heat_y, 0])
        self.table = shows(Heatmap(d.table, pic.inputs, cell_size=self.table_cell), "table")
        self.table_words = WordColumn([self.short[w] for w in d.vocab], [token_color(k) for k in range(len(d.vocab))],
                                      row_height=cell, width=self.vocab_w, size=SMALL)
        tbl = row(self.table_words, self.table, gap="small").move_to([sum(self.mid) / 2, self.heat_y, 0])
        self.table_name = names(label("embedding table", size=SMALL, color=DIM), "table")
        self.table_name.next_to(tbl, DOWN, buff=GAP.small)
        self.bar_in = self.color_bar(pic.inputs, "input")
        self.beat("table",
                  LaggedStart(AnimationGroup(*self.words_to_rows(self.row_a, self.words_a),
                                             *self.words_to_rows(self.row_b, self.words_b)),
                              AnimationGroup(FadeIn(self.table), FadeIn(self.table_words), FadeIn(self.table_name),
                                             FadeIn(self.bar_in)),
                              lag_ratio=0.6),
                  run_time=2.0)

        # rows fly from the table into each sentence's X
        self.Y_a = shows(Heatmap(plain.X_a, pic.inputs, cell_size=cell).move_to([self.heat_a_x, self.heat_y, 0]), "plain.X_a")
        self.Y_b = shows(Heatmap(plain.X_b, pic.inputs, cell_size=cell).move_to([self.heat_b_x, self.heat_y, 0]), "plain.X_b")
        self.name_a, self.name_b = self.name("a", 0), self.name("b", 0)
        flights = []
        for heat, ids in ((self.Y_a, d.ids_a), (self.Y_b, d.ids_b)):
            for i, k in enumerate(ids):
                src = VGroup(*[c.copy() for c in self.table.cells[int(k)]])
                flights.append((src, VGroup(*heat.cells[i])))
        self.beat("shuffled", LaggedStart(*[Transform(s, t) for s, t in flights]), FadeIn(self.name_a), FadeIn(self.name_b),
                  Handover(VGroup(*[s for s, _ in flights]), VGroup(self.Y_a, self.Y_b)), run_time=2.0)
        self.play(FadeOut(self.table), FadeOut(self.table_words), FadeOut(self.table_name), run_time=0.6)

        # attend: X -> Y, on the outputs' scale
        self.bar_out = self.color_bar(pic.outputs, "output")
        na, nb = self.name("a", 1), self.name("b", 1)
        self.beat("attend", self.Y_a.animate_values(plain.Y_a, shows="plain.Y_a", scale=pic.outputs),
                  self.Y_b.animate_values(plain.Y_b, shows="plain.Y_b", scale=pic.outputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_in, self.bar_out), run_time=1.5)
        self.name_a, self.name_b = na, nb

        # matched token for token
        self.diffs = self.diff_labels(plain.diffs, VERIFIED)
        self.links = self.match_lines()
        self.beat("match", LaggedStart(*[Create(ln) for ln in self.links], lag_ratio=0.2), run_time=1.6)
        self.beat("diffs_zero" if plain.max_diff == 0.0 else "diffs",
                  reveal(self.diffs), FadeIn(self.diff_head), run_time=1.2)

        # mean-pooled sentence vectors
        self.pools = self.pool_rows(plain)
        self.pool_words = VGroup(
            label("mean", size=SMALL, color=DIM).next_to(self.pools[0], LEFT, buff=GAP.small),
            label("mean", size=SMALL, color=DIM).next_to(self.pools[1], RIGHT, buff=GAP.small))
        self.pool_text = self.pool_figure(plain.pooled_gap, VERIFIED)
        self.beat("pooled_zero" if plain.pooled_gap == 0.0 else "pooled",
                  FadeIn(self.pools), FadeIn(self.pool_words), FadeIn(self.pool_text), run_time=1.2)

        # add positions: the inputs again, each row plus its position's encoding
        na, nb = self.name("a", 2), self.name("b", 2)
        self.bar_in2 = self.color_bar(pic.inputs, "input")
        self.beat("positions", self.Y_a.animate_values(pos.X_a, shows="positioned.X_a", scale=pic.inputs),
                  self.Y_b.animate_values(pos.X_b, shows="positioned.X_b", scale=pic.inputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_out, self.bar_in2),
                  FadeOut(self.diffs), FadeOut(self.diff_head), FadeOut(self.pools), FadeOut(self.pool_text),
                  FadeOut(self.pool_words), run_time=1.2)
        self.name_a, self.name_b = na, nb

        # attend again: the same words now give different outputs
        na, nb = self.name("a", 3), self.name("b", 3)
        self.bar_pos = self.color_bar(pic.outputs, "output")
        self.diffs_shown = self.diff_labels(pos.diffs, FAILED)
        self.pools_shown = self.pool_rows(pos)
        self.pool_shown = self.pool_figure(pos.pooled_gap, FAILED)
        self.beat("separate", self.Y_a.animate_values(pos.Y_a, shows="positioned.Y_a", scale=pic.outputs),
                  self.Y_b.animate_values(pos.Y_b, shows="positioned.Y_b", scale=pic.outputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_in2, self.bar_pos),
                  reveal(self.diffs_shown), FadeIn(self.diff_head), FadeIn(self.pools_shown), FadeIn(self.pool_words),
                  FadeIn(self.pool_shown), run_time=1.6)
        self.name_a, self.name_b = na, nb

    # ------------------------------------------------------------------ the takeaway
    def final_panels(self) -> VGroup:
        """Matched outputs side by side: b's, and a's in b's word order, without positions (equal)
        and with them (apart), each pair with its measured difference, as large as fits."""
        d = self.data
        pic = d.picture
        T, dm = d.plain.Y_b.shape
        pe = N.encoding_matrix.math
        cases = (("without positions", d.plain.Y_b, d.matched_plain, "plain.Y_b", "matched_plain", "X_b", "X_a",
                  d.plain.max_diff, VERIFIED, "="),
                 ("with positions", d.positioned.Y_b, d.matched_pos, "positioned.Y_b", "matched_pos", f"X_b + {pe}",
                  f"X_a + {pe}", d.positioned.max_diff, FAILED, "!="))

        def build(cell):
            panels = VGroup()
            for head, Yb, Ym, qb, qm, xb, xa, gap, color, sign in cases:
                hb = shows(Heatmap(Yb, pic.outputs, cell_size=cell), qb)
                hm = shows(Heatmap(Ym, pic.outputs, cell_size=cell), qm)
                nb = names(math(f"\"Attn\"({xb})", size=SMALL), qb).next_to(hb, UP, buff=GAP.small)
                nm = names(math(f"P \"Attn\"({xa})", size=SMALL), qm).next_to(hm, UP, buff=GAP.small)
                pair = row(VGroup(hb, nb), math(sign, size=HEADING), VGroup(hm, nm), gap="normal")
                panels.add(column(label(head, size=LABEL), pair, readout(pic.delta, gap, color=color),
                                  gap="normal", align=ORIGIN))
            return row(*panels, gap="section", align="top")

        region = self.layout.content
        g, _ = fit_cells(build, region, self.MAX_CELL, 4 * dm, T)
        region.place(g)
        return g

    def takeaway(self) -> VGroup:
        return self.final

    def closing(self) -> None:
        """Everything steps aside for the two comparisons, side by side and large."""
        self.final = self.final_panels()
        leaving = [m for m in self.mobjects if m is not self.header]
        self.beat(self.closing_key(), stage(leaving, [self.final], lag=1.0), run_time=1.4, hold=self.CLOSING_HOLD)

