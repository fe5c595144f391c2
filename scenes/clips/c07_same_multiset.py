"""07 ``SameMultiset`` (§6): "the cat ate the mouse" and "the mouse ate the cat" from one embedding
table give the same outputs token for token and the same pooled vector; sinusoidal positions
separate them.  One colour scale for the inputs and one for the outputs, with and without
positions; the close sets the matched outputs side by side, equal without positions and apart
with them.

Every colour scale, log axis and proof line comes from ``scenes.figures.equivariance`` (the one
description the clip and its still draw from); every widget is placed in a region of
``self.layout``, sized from the config's ``T``, ``d`` and words.

``clips render --student`` draws it from a student's attention (``STUDENT = "equivariance"``: their
``self_attention`` or ``attention``, no mask, the lecture's weights, on both sentences with and without positions,
as the checks ran it).  Where the matched outputs agree at rounding level it is the lecture's clip on their
numbers; where their attention tells the sentences apart without positions, each matched row's verdict is ✗ with
its figure and the failing variants of ``[same_multiset.student_fail]`` are said.

Render directly with ``manim -ql scenes/clips/c07_same_multiset.py SameMultiset``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    Rectangle,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Group,
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
    THRESHOLD,
    MultisetComparison,
    compare_multiset,
    matched_differences,
    mean_pool,
)
from mathcore.permutation import permutation_matrix
from scenes.clips.c07_widgets import WordColumn
from scenes.figures.equivariance import (
    Picture07,
    picture07,
)
from scenes.kit import (
    DIM,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    ClipScene,
    ColorBar,
    Region,
    Heatmap,
    TokenRow,
    fmt_measure,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import claim, names, role, shows
from scenes.kit.compose import GAP, column, reveal, row, stage
from scenes.kit.layout import LayoutError, spread_1d
from scenes.kit.motion import dim, set_level, undim
from scenes.kit.numbers import Figure, measure
from scenes.kit.notation import N
from scenes.kit.permuting import Handover
from scenes.kit.proofs import verdict
from scenes.kit.student import fail_key


def rounded(v: float) -> Figure:
    """``v`` as the lecture prints it, with "≈" where the printed digits are rounded (2.35 reads "≈ 2.4"; rounding
    noise has its own "≈"; an exact figure keeps "=")."""
    f = measure(v)
    try:
        printed = float(f.text)
    except ValueError:  # a figure in words or with a power of ten prints what it is
        return f
    if f.exact or f.approx or printed == v:
        return f
    return Figure(f.value, f"approx {f.math}", f"≈ {f.text}", approx=True)


class Slide(Animation):
    """``mobs`` shifted by ``vector`` and nothing else: only the points move, so colours and opacities other animations
    (dimming, recolouring) set in the same or earlier plays stay as they are."""

    def __init__(self, mobs, vector, **kw):
        self.vector = np.asarray(vector, dtype=float)
        seen, self.parts = set(), []  # every part with points once, however many groups on screen hold it
        for m in mobs:
            for f in m.family_members_with_points():
                if id(f) not in seen:
                    seen.add(id(f))
                    self.parts.append(f)
        super().__init__(Group(*mobs), **kw)

    def create_starting_mobject(self):
        return self.mobject

    def begin(self) -> None:
        self.starts = [f.points.copy() for f in self.parts]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        # from where each part stood when the play began (not step by step: a render, which draws every frame, ends
        # where an audit, which skips to the end, does, to the last bit)
        a = self.rate_func(alpha)
        for f, p0 in zip(self.parts, self.starts):
            f.points = p0 + a * self.vector

    def interpolate_submobject(self, *args, **kw) -> None:
        return None


def full_strength(anim):
    """``anim`` (a heatmap's ``animate_values``, made while the heatmap is dimmed) ending at full strength: its
    target's parts back at the opacity focus remembered for them."""
    for f in anim.target_mobject.get_family():
        if hasattr(f, "_full_opacity"):
            fo, so = f._full_opacity
            f.set_fill(opacity=max(fo, f.get_fill_opacity()), family=False)
            f.set_stroke(opacity=so, family=False)
    return anim


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

    STAGED = True
    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    STUDENT = "equivariance"  # `clips render --student`: the student's attention on both sentences, with and without PE
    STUDENT_RUNS = (('Y_a', 'Y_b', 'Y_a_pos', 'Y_b_pos'), "on the two sentences")
    MAX_CELL = 1.3
    MAX_WIDE = 2.2  # at most how much wider than tall a sentence's cells grow
    MAX_TALL = 1.5  # at most how much taller than wide (a long word's row keeps its height where the width is short)
    pe_why = {"empty": "the positions' encodings alone between the two dimmed sentences: one row a position, its "
                       "colours on the inputs' scale",
              "sparse": "PE alone, its rows level with the sentences' rows they will be added to (dimmed, the "
                        "background here): as tall as those rows, whatever few positions and features it has"}
    sentences_why = {"empty": "two sentences of a few words, one above the other, as large as their longest row "
                              "allows: the words are the whole picture"}

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
            picture=picture07(sp.table, plain, pos, cfg),
        )

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> SameMultisetData:
        """The student's attention (their ``self_attention`` or ``attention``, no mask, the lecture's weights) on
        both sentences, with and without positions, as the checks ran it, in place of mathcore's: compared token
        for token and mean-pooled exactly as ``compare_multiset`` compares mathcore's."""
        from dataclasses import replace

        lecture = cls.build_data(cfg)

        def compared(base: MultisetComparison, ya: str, yb: str) -> MultisetComparison:
            Y_a = np.asarray(student.array(cls.STUDENT, ya), dtype=float)
            Y_b = np.asarray(student.array(cls.STUDENT, yb), dtype=float)
            if Y_a.shape != base.Y_a.shape or Y_b.shape != base.Y_b.shape:
                raise ValueError(f"the student's outputs are {Y_a.shape} and {Y_b.shape}, clip 07 draws {base.Y_a.shape}")
            diffs = matched_differences(Y_a, Y_b, lecture.matching)
            pa, pb = mean_pool(Y_a), mean_pool(Y_b)
            return replace(base, Y_a=Y_a, Y_b=Y_b, diffs=diffs, max_diff=float(np.max(diffs)), pooled_a=pa,
                           pooled_b=pb, pooled_gap=float(np.max(np.abs(pa - pb))))

        plain = compared(lecture.plain, "Y_a", "Y_b")
        pos = compared(lecture.positioned, "Y_a_pos", "Y_b_pos")
        P = permutation_matrix(lecture.matching)
        return replace(lecture, plain=plain, positioned=pos, matched_plain=P @ plain.Y_a, matched_pos=P @ pos.Y_a,
                       picture=picture07(lecture.table, plain, pos, cfg))

    def student_sees_order(self) -> bool:
        """The student's attention tells the two sentences apart without positions (past the pass line)."""
        return self.data.plain.max_diff >= THRESHOLD

    def closing_key(self) -> str:
        return fail_key("close", self.student_sees_order())

    def caption_values(self) -> dict:
        d = self.data
        worst = int(np.argmax(d.positioned.diffs))
        out = {
            "a": " ".join(d.tokens_a), "b": " ".join(d.tokens_b), "T": len(d.tokens_a), "V": len(d.vocab),
            "max": fmt_measure(d.plain.max_diff), "pooled": fmt_measure(d.plain.pooled_gap),
            "max_pos": rounded(d.positioned.max_diff).text, "pooled_pos": rounded(d.positioned.pooled_gap).text,
            "worst_word": d.tokens_b[worst], "first_b": d.tokens_b[0], "d": d.table.shape[1],
            "grids": "two empty grids", "table_c": "the table", "sentences": "both sentences' grids",
            "links": "lines in each word's colour", "pe": "PE", "proof": "two verdicts", "last": len(d.tokens_a) - 1,
            "means": "under each sentence, its mean vector", "framed": "its row framed in both sentences", "p_def": "P, the permutation matrix that puts a's words in b's order", "pairs": "each a pair of grids",
            "mask": "without positions or a mask",
        }  # plain values until the elements that show them are built
        if hasattr(self, "row_a"):  # the elements each sentence names, once they are built
            ra, rb = list(self.row_a.submobjects), list(self.row_b.submobjects)  # the chips, as they are revealed
            out.update(a=claim(out["a"], *ra), b=claim(out["b"], *rb), T=claim(out["T"], *ra))
        if hasattr(self, "table"):
            out.update(V=claim(out["V"], self.table), d=claim(out["d"], self.table),
                       grids=claim("two empty grids", self.slots), table_c=claim("the table", self.table))
        if hasattr(self, "Y_a"):
            out.update(sentences=claim("both sentences' grids", self.Y_a, self.Y_b))
        if hasattr(self, "links"):
            out.update(links=claim("lines in each word's colour", *self.links))
        if hasattr(self, "diffs"):
            out.update(max=claim(out["max"], *self.diffs))
        if hasattr(self, "pool_text"):
            out.update(pooled=claim(out["pooled"], self.pool_text),
                       means=claim("between the sentences, their two mean vectors, large, a's above b's", *self.pools,
                                   *self.pool_names) if self.pools_big else
                       claim("under each sentence, its mean vector", *self.pools))
        if hasattr(self, "pe"):
            out.update(pe=claim("PE", self.pe), last=claim(out["last"], self.pe_pos[-1]))
        if hasattr(self, "diffs_shown"):
            out.update(max_pos=claim(out["max_pos"], self.diffs_shown[worst]), pooled_pos=claim(out["pooled_pos"], self.pool_shown),
                       worst_word=claim(d.tokens_b[worst], self.words_b.chips[worst][0]),
                       framed=claim("its row framed in both sentences", *self.worst_frames))
        if hasattr(self, "final"):
            v = self.final_verdicts
            out.update(proof=claim("two verdicts", *v), max=claim(out["max"], v[0]), max_pos=claim(out["max_pos"], v[1]),
                       p_def=claim(out["p_def"], self.p_def), mask=claim(out["mask"], self.mask))
            if all(len(w) for w in self.final_words):
                out.update(pairs=claim(out["pairs"] + " whose rows are b's words", *self.final_words))
            else:
                out.update(pairs=claim(out["pairs"], *self.final_heats))
        return out

    def same_place_all_differ(self) -> bool:
        """With positions, the word that differs most stands in the same place in both sentences, and every word that
        stands in the same place in both (matched to itself) differs too: "even the words in the same place"."""
        d = self.data
        diffs = d.positioned.diffs
        worst = int(np.argmax(diffs))
        same = [k for k in range(len(d.tokens_b)) if d.tokens_a[k] == d.tokens_b[k]]
        return (int(d.matching[worst]) == worst and all(int(d.matching[k]) == k for k in same)
                and all(diffs[k] >= THRESHOLD for k in same))

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
        # the colour bar at the foot, well clear of the means over it where the rows keep legible chips that way
        bar_h = ColorBar(pic.inputs, height=1.0, horizontal=True).height
        T_rows = len(d.tokens_a) + 1
        need = T_rows * max(WordColumn.min_row(SMALL), max(self.diff_mark(v).height for v in
                                                           np.concatenate([d.plain.diffs, d.positioned.diffs])) + GAP.hair)
        bar_gap = GAP.wide if rest.height - bar_h - GAP.wide - GAP.small >= need else GAP.small
        self.bar_strip, rest = rest.take_bottom(bar_h, gap=bar_gap)
        self.names_y = names.center[1]
        marks = [self.diff_mark(v) for v in np.concatenate([d.plain.diffs, d.positioned.diffs])]
        diff_w = max(m.width for m in marks)
        mean_w = label("mean", size=SMALL).width
        diff_h = max(m.height for m in marks)
        floor = max(WordColumn.min_row(SMALL), diff_h + GAP.hair)
        longest = max(len(w) for w in d.vocab)
        W = content.width
        for n_chars in [None] + list(range(longest - 1, 3, -1)):
            short = abbreviations(d.vocab, n_chars)
            vocab_w = WordColumn.chip_width(list(short.values()), SMALL)
            wa = max(vocab_w, mean_w)
            # the differences stand right of b's words, so the lines between the grids stay whole
            fixed = 2 * (wa + GAP.small + GAP.normal) + GAP.normal + diff_w
            # the middle column holds the lines, the weights, the means and PE: a fifth of the width (at least three
            # wide gaps); the table gets more (b's side stands out at the right while it is shown)
            wide = max((W - fixed - max(3 * GAP.wide, 0.2 * W)) / (2 * dm),
                       min((W - fixed - 3 * GAP.wide) / (2 * dm), (W - fixed - vocab_w - GAP.small) / (2 * dm + dm / 2)))
            # a row is as tall as the height allows, up to MAX_TALL times as tall as the width leaves a cell wide
            cell = min(self.MAX_CELL, (rest.height - GAP.small) / (T + 1), self.MAX_TALL * wide)
            if cell >= floor:
                break
        else:
            raise LayoutError(f"clip 07 cannot fit {T} words of up to {longest} letters at d={dm} (rows {cell:.2f} < {floor:.2f}) "
                              f"in {content.width:.2f}×{content.height:.2f} units")
        # the cells as wide as the width allows (narrow rows, small d, widen into the width the middle does not need)
        cw = min(wide, cell * self.MAX_WIDE)
        mid = W - fixed - 2 * dm * cw
        self.short, self.cell, self.cell_w, self.vocab_w, self.diff_w = short, cell, cw, vocab_w, diff_w
        self.box = (cw, cell)  # a sentence's cell: as tall as a row, as wide as the frame allows
        total = fixed + 2 * dm * cw + mid
        x = content.left + (W - total) / 2
        self.col_a = (x, x + wa)
        x += wa + GAP.small
        self.heat_a_x = x + dm * cw / 2
        x += dm * cw + GAP.normal
        self.mid = (x, x + mid)
        x += mid + GAP.normal
        self.heat_b_x = x + dm * cw / 2
        x += dm * cw + GAP.small
        self.col_b = (x, x + wa)
        x += wa + GAP.normal
        self.col_diff = (x, x + diff_w)
        self.centred_dx = float((self.col_diff[1] - self.col_b[1]) / 2)  # the two sides centred, no differences
        # the differences' column is kept from the outputs on (the picture never jumps sideways when they come); while
        # the table is shown (table, shuffled) b's side stands ``push`` further right, out to the content's right edge,
        # and the table, the beat's subject, takes the wider middle (``dx``: where the picture stands, from the columns)
        self.dx = 0.0
        self.push = float(max(0.0, content.right - (self.col_b[1] + (self.col_a[0] - content.left))))
        V = d.table.shape[0]
        t_mid = mid + self.push - 2 * GAP.normal
        t_row = min(T * cell / V, self.MAX_CELL)  # the table's rows share the sentences' height
        t_w = min(t_row * self.MAX_WIDE, max((t_mid - vocab_w - GAP.small) / dm, 0.05))
        self.table_cell = (t_w, t_row)
        self.table_row = t_row
        block = (T + 1) * cell + GAP.small
        # the colour bar tucked under the rows (and the means' row under them): names, rows and bar centred together
        drop = max(0.0, rest.height - block) / 2  # half the air left when the bar stands right under the rows
        self.rows_top = rest.top - drop
        self.row_count = T
        self.bar_strip = Region(content.left, content.right, rest.top - drop - block - bar_gap - bar_h,
                                rest.top - drop - block - bar_gap, "bar")
        # the names sit just over the grids they name (however short the grids are)
        self.names_y = min(self.names_y, self.rows_top + GAP.small + names.height / 2)
        # many numbers a row in few rows make the picture a wide strip: the frame's width bounds it
        share = 2 * T * dm * cell * cw / (content.width * content.height)
        self.strip_why = ({"empty": f"{T} words of {dm} numbers make the two grids a strip, as large as the frame's "
                                    "width or height lets them grow beside their words"}
                          if block < 0.7 * rest.height or share < 0.3 else None)
        self.heat_y = self.rows_top - T * cell / 2
        self.pool_y = self.rows_top - T * cell - GAP.small - cell / 2
        self.words_w = wa
        # the names over the two sides and the differences' head, spread so none touches another
        self.diff_head = math(d.picture.delta, size=SMALL, color=DIM)
        widths = [max(self.name(side, k, place=False).width for k in range(4)) for side in "ab"]
        self.name_x = spread_1d([self.heat_a_x, self.heat_b_x, self.col_diff[0] + self.diff_head.width / 2],
                                [widths[0], widths[1], self.diff_head.width], content.left, content.right,
                                gap=GAP.normal)
        self.diff_head.move_to([self.name_x[2], self.names_y, 0])

    def name(self, side: str, stage_: int, place: bool = True):
        """The name of side ``a``/``b`` at stage 0 (inputs), 1 (outputs), 2 (inputs + PE), 3 (outputs of those)."""
        pe = N.encoding_matrix.math
        expr = [f"X_{side}", f"\"Attn\"(X_{side})", f"X_{side} + {pe}", f"\"Attn\"(X_{side} + {pe})"][stage_]
        q = ["plain.X_", "plain.Y_", "positioned.X_", "positioned.Y_"][stage_] + side
        m = names(math(expr, size=LABEL), q)
        return m.move_to([self.name_x[0 if side == "a" else 1] + self.dx, self.names_y, 0]) if place else m

    def bar_drop(self) -> float:
        """How far the colour bar steps down from right under the rows to under the means' row (where the means show
        under the sentences)."""
        return float(self.rows_top - self.row_count * self.cell - GAP.normal - self.bar_strip.top)

    def pooled_drop(self) -> float:
        """How far the bar steps down at the means: under their row, and under their verdict wherever the means stand
        (the sweep: with three-word sentences the means stand large between the rows, their verdict under them and
        level with the bar's word)."""
        drop = self.bar_drop()
        v, bar = self.pool_text, self.bar_out
        apart = (v.get_right()[0] <= bar.get_left()[0] or v.get_left()[0] >= bar.get_right()[0]
                 or v.get_bottom()[1] >= bar.get_top()[1] - drop or v.get_top()[1] <= bar.get_bottom()[1] - drop)
        if apart:  # where the bar lands under the means' row, clear of their verdict: it steps no further
            return drop
        # under the verdict, as far as the band above the subtitles allows
        room = bar.get_bottom()[1] - drop - self.layout.content.bottom
        return drop + min(max(0.0, bar.get_top()[1] - drop - (v.get_bottom()[1] - GAP.normal)), max(0.0, room))

    def color_bar(self, scale, title: str, low: bool = False) -> VGroup:
        """A horizontal colour bar for ``scale`` under the middle column, its word on its left: tucked right under the
        rows, or (``low``) under the means' row beneath them."""
        t = label(title, size=SMALL, color=DIM)
        c0 = sum(self.mid) / 2  # (its length from the planned columns: it must fit wherever the picture slides)
        c = c0 + self.dx
        # as long as the middle, or out to the grids' centres where the word beside it leaves room (legible ticks)
        room = 2 * (c0 - self.layout.content.left - t.width - GAP.normal - 0.3)
        bar = ColorBar(scale, height=max(self.mid[1] - self.mid[0], self.diff_w + GAP.wide,
                                                 min(self.heat_b_x - self.heat_a_x, room)),
                       horizontal=True)
        top = self.bar_strip.top if low else self.bar_strip.top + self.bar_drop()
        bar.shift(np.array([c, top, 0]) - [bar.frame.get_x(), bar.get_top()[1], 0])
        t.next_to(bar.frame, LEFT, buff=GAP.normal)
        g = VGroup(t, bar)
        over = self.layout.content.left - t.get_left()[0]
        if over > 0:  # a long word: the bar steps right so the word stays in the frame
            g.shift(over * RIGHT)
        g.bar = bar
        return g

    def output_bar_word(self) -> str:
        """The outputs' bar's word.  Inputs and outputs share one scale (the deck's "sentence vectors"), so the bar
        changes only its word: its ticks (−5, −1, 0, 1, 5) show its square-root stretch."""
        return "output"

    @staticmethod
    def diff_mark(v: float):
        """One matched pair's difference as the check it is: ✓ and the figure where the pair is equal (rounding, or
        exactly 0), ✗ and the figure where it differs."""
        return verdict("", rounded(v), bool(v < THRESHOLD), size=SMALL)  # "≈ 0.87" where the digits are rounded

    def diff_labels(self, diffs) -> VGroup:
        """One measured difference per row of b, a verdict each, left-aligned right of b's words (the lines between
        the grids stay whole)."""
        g = VGroup()
        for i, v in enumerate(diffs):
            t = self.diff_mark(v)
            t.move_to([self.col_diff[0] + self.dx + t.width / 2, self.Y_b.cell_center(i, 0)[1], 0])
            g.add(t)
        return g

    def pool_figure(self, gap: float):
        """The largest difference of the two pooled vectors, a verdict, in the differences' column (under their head)."""
        t = self.diff_mark(gap)
        return t.move_to([self.col_diff[0] + self.dx + t.width / 2, self.pool_y, 0])

    def big_means(self, comparison: MultisetComparison):
        """The two mean-pooled sentence vectors as the beat's subject: between the sentences, each under its name
        ("a's mean", "b's mean"), as wide as the middle lets them, their difference's verdict under them; where the
        middle is too narrow for that, under their sentences' rows as the separate beat draws them.
        Returns ``(rows, names, verdict, big)``."""
        pic = self.data.picture
        dm = comparison.pooled_a.shape[0]
        left, right = self.mid
        width = right - left - 2 * GAP.small
        mark = self.diff_mark(comparison.pooled_gap)
        words = [label(f"{s}'s mean", size=SMALL, color=DIM) for s in "ab"]
        cw = min(width / dm, self.cell * self.MAX_WIDE * 1.5)
        # as tall as the sentences' rows leave room for (up to 1.4 rows), never shorter than a row: a sentence of
        # few words leaves less than a row, and the means then stand taller than its rows (the sweep: three words
        # put them small under the rows, 8 % of the frame drawn)
        ch = max(self.cell, min(1.4 * self.cell,
                                (self.cell * len(self.data.tokens_a) - GAP.wide) / 2 - words[0].height - GAP.tight))
        if cw * dm >= max(w.width for w in words) + GAP.small:
            rows = VGroup(*[Heatmap(v[None, :], pic.outputs, cell_size=(cw, ch))
                            for v in (comparison.pooled_a, comparison.pooled_b)])
            col = VGroup(column(words[0], rows[0], gap="tight", align=LEFT), column(words[1], rows[1], gap="tight", align=LEFT))
            col.arrange(DOWN, buff=GAP.wide).move_to([sum(self.mid) / 2 + self.dx, self.heat_y, 0])
            # their difference under them, below the sentences' rows (the whole width is free there)
            mark = verdict(self.data.picture.delta, rounded(comparison.pooled_gap), bool(comparison.pooled_gap < THRESHOLD))
            mark.move_to([sum(self.mid) / 2 + self.dx, min(self.pool_y, col.get_bottom()[1] - GAP.normal - mark.height / 2), 0])
            return rows, VGroup(*words), mark, True
        rows = self.pool_rows(comparison)
        return rows, self.pool_words.copy(), self.pool_figure(comparison.pooled_gap), False

    def slide_to(self, dx: float, keep=()):
        """The picture on screen (but the header, and ``keep``) sliding sideways to stand ``dx`` right of its planned
        columns; what is built after this call is built there."""
        skip = {id(f) for m in (self.header, *keep) for f in m.get_family()}
        mobs = [m for m in self.mobjects if not any(id(f) in skip for f in m.get_family())]
        v = (dx - self.dx) * RIGHT
        self.dx = dx
        return Slide(mobs, v)

    @staticmethod
    def recolour(heat, values, shows: str, scale, vector) -> Transform:
        """``heat`` recoloured to ``values`` (bound to ``shows``, painted by ``scale``) while it moves by ``vector``
        (a Transform owns its points, so a grid that changes colour as the picture slides moves here)."""
        target = heat.recolored(values, scale).shift(vector)
        heat.values, heat.color_scale, heat._shows = target.values, scale, shows
        return Transform(heat, target)

    def match_lines(self, full: bool = False, marks=None) -> VGroup:
        """Token ``i`` of b joined to its match in a, from grid to grid: each line reaches the row it names, in every
        beat (the differences stand right of b's words, out of the lines' way; ``full`` and ``marks`` are kept for
        callers and change nothing)."""
        d = self.data
        g = VGroup()
        x_end = self.Y_b.get_left()[0] - GAP.tight  # the differences stand right of b's words: every line is whole
        for i, src in enumerate(d.matching):
            a = self.Y_a.cell(int(src), self.Y_a.values.shape[1] - 1).get_right() + GAP.tight * RIGHT
            b = np.array([x_end, self.Y_b.cell(i, 0).get_center()[1], 0])
            g.add(Line(a, b, stroke_color=self.word_color(d.tokens_b[i]), stroke_width=3))
        return g

    def row_frame(self, parts, cell) -> Rectangle:
        """An outline around a word's chip and its row, on the row's edges (clear of the chips above and below, however
        short the rows), kept inside the content area (the chips may touch its edge)."""
        c = self.layout.content
        left = max(parts.get_left()[0] - GAP.hair, c.left)
        right = min(parts.get_right()[0] + GAP.hair, c.right)
        top, bottom = cell.get_top()[1], cell.get_bottom()[1]
        return Rectangle(width=right - left, height=top - bottom, color=HIGHLIGHT, stroke_width=4).move_to(
            [(left + right) / 2, (top + bottom) / 2, 0])

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
        return VGroup(Heatmap(comparison.pooled_a[None, :], pic.outputs, cell_size=self.box).move_to([self.heat_a_x + self.dx, self.pool_y, 0]),
                      Heatmap(comparison.pooled_b[None, :], pic.outputs, cell_size=self.box).move_to([self.heat_b_x + self.dx, self.pool_y, 0]))

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
        content.fit(rows, max_scale=3.0)
        self.sentence_labels = VGroup(*[label(t, size=LABEL, color=DIM).next_to(r, LEFT, buff=GAP.wide)
                                        for t, r in (("a", self.row_a), ("b", self.row_b))])
        if self.sentence_labels.get_left()[0] < content.left:  # no room beside the rows: they keep their size
            self.sentence_labels = VGroup()
        self.beat("sentences", reveal(self.row_a), reveal(self.row_b), FadeIn(self.sentence_labels), run_time=1.4,
                  subject=VGroup(self.row_a, self.row_b), why=self.sentences_why)

        # the words become the rows of each sentence; one embedding table in the middle
        self.words_a = WordColumn([self.short[w] for w in d.tokens_a], colors_a, row_height=cell, width=self.words_w, size=SMALL)
        self.words_b = WordColumn([self.short[w] for w in d.tokens_b], colors_b, row_height=cell, width=self.words_w, size=SMALL)
        self.words_a.move_to([sum(self.col_a) / 2 + self.dx, self.heat_y, 0])
        self.words_b.move_to([sum(self.col_b) / 2 + self.dx + self.push, self.heat_y, 0])  # out at the right for now
        self.table = shows(Heatmap(d.table, pic.inputs, cell_size=self.table_cell), "table")
        self.table_words = WordColumn([self.short[w] for w in d.vocab], [token_color(k) for k in range(len(d.vocab))],
                                      row_height=self.table_row, width=self.vocab_w, size=SMALL)
        # the table, the beat's subject, in the middle widened by b's side standing out at the right
        tbl = row(self.table_words, self.table, gap="small").move_to(
            [sum(self.mid) / 2 + self.dx + self.push / 2, self.heat_y, 0])
        self.table_name = names(label("embedding table", size=SMALL, color=DIM), "table")
        # named on the names' line, over it, clear of the grids beside it (their names come later, a column away)
        self.table_name.move_to([tbl.get_x(), self.names_y, 0])
        self.bar_in = self.color_bar(pic.inputs, "input")
        self.bar_in.shift(self.push / 2 * RIGHT)  # under the table (it returns to the middle with b's side)
        # the grids each sentence's rows will fill, still empty
        self.slots = VGroup(*[VGroup(*[Rectangle(width=self.cell_w, height=cell, stroke_color=DIM, stroke_width=2)
                                       .move_to([x + (j - (d.table.shape[1] - 1) / 2) * self.cell_w,
                                                 self.rows_top - (i + 0.5) * cell, 0])
                                       for i in range(len(d.tokens_a)) for j in range(d.table.shape[1])])
                              for x in (self.heat_a_x + self.dx, self.heat_b_x + self.dx + self.push)])
        self.beat("table",
                  LaggedStart(AnimationGroup(FadeOut(self.sentence_labels), *self.words_to_rows(self.row_a, self.words_a),
                                             *self.words_to_rows(self.row_b, self.words_b), Create(self.slots)),
                              AnimationGroup(FadeIn(self.table), FadeIn(self.table_words), FadeIn(self.table_name),
                                             FadeIn(self.bar_in)),
                              lag_ratio=0.6),
                  run_time=2.0, subject=VGroup(self.table, self.table_words), why=self.strip_why)

        # rows fly from the table into each sentence's X
        self.Y_a = shows(Heatmap(plain.X_a, pic.inputs, cell_size=self.box).move_to([self.heat_a_x + self.dx, self.heat_y, 0]), "plain.X_a")
        self.Y_b = shows(Heatmap(plain.X_b, pic.inputs, cell_size=self.box).move_to(
            [self.heat_b_x + self.dx + self.push, self.heat_y, 0]), "plain.X_b")
        self.name_a, self.name_b = self.name("a", 0), self.name("b", 0).shift(self.push * RIGHT)
        flights = []
        for heat, ids in ((self.Y_a, d.ids_a), (self.Y_b, d.ids_b)):
            for i, k in enumerate(ids):
                src = VGroup(*[c.copy() for c in self.table.cells[int(k)]])
                flights.append((src, VGroup(*heat.cells[i])))
        self.beat("shuffled", LaggedStart(*[Transform(s, t) for s, t in flights]), FadeIn(self.name_a), FadeIn(self.name_b),
                  Handover(VGroup(*[s for s, _ in flights]), VGroup(self.Y_a, self.Y_b)), Handover(self.slots, VGroup()),
                  run_time=2.0, subject=VGroup(self.Y_a, self.Y_b, self.table), why=self.strip_why)
        # the table leaves; the two sides close in, centred in the frame while no differences stand at the right
        # (review round 7: the column kept for them left the right quarter empty at attend, match and positions);
        # the picture steps left, by half that column, whenever the differences come in
        c = self.centred_dx
        self.dx = c
        self.play(FadeOut(self.table), FadeOut(self.table_words), FadeOut(self.table_name),
                  Slide([self.words_a, self.Y_a, self.name_a], c * RIGHT),
                  Slide([self.words_b, self.Y_b, self.name_b], (self.push - c) * LEFT),
                  self.bar_in.animate.shift((self.push / 2 - c) * LEFT), run_time=0.8)

        # attend: X -> Y, on the outputs' scale
        self.bar_out = self.color_bar(pic.outputs, self.output_bar_word())
        na, nb = self.name("a", 1), self.name("b", 1)
        # one attention for both: the same weights, named between the sentences
        # (clear of the outputs' bar under the grids: the sweep, T = 3 and d = 6, ran "no mask" into its ticks)
        # (and between the names, where names wider than narrow grids reach over the middle: the sweep, T = 3, d = 2)
        room = Region(max(self.mid[0] + self.dx, na.get_right()[0] + GAP.tight),
                      min(self.mid[1] + self.dx, nb.get_left()[0] - GAP.tight),
                      max(self.heat_y - 1.6, self.bar_out.get_top()[1] + GAP.small), self.heat_y + 1.6, "weights")

        # ... and no mask: every token attends to every other (the close's "without positions or a mask"); the
        # largest arrangement that fits: the names on one line or stacked, the words on two lines or three
        tries = [(HEADING + 6, LABEL, False, False), (LABEL, SMALL, False, False), (LABEL, SMALL, False, True),
                 (LABEL, SMALL, True, False), (LABEL, SMALL, True, True), (LABEL, SMALL, True, None)]
        for big, small_, stacked, narrow in tries:
            ws = [math(w, size=big) for w in ("W_Q", "W_K", "W_V")]
            what = column(*ws, gap="tight", align=ORIGIN) if stacked else math("W_Q, W_K, W_V", size=big)
            lines = {True: ("the same", "weights,", "no mask"), False: ("the same weights", "no mask"),
                     None: ("no mask",)}[narrow]  # (None: the names alone say which weights; the narration, "the same")
            words = column(*[label(w, size=small_, color=DIM) for w in lines], gap="tight", align=ORIGIN)
            self.weights = column(what, words, gap="small", align=ORIGIN)
            if room.fits(self.weights):
                break
        room.fit(self.weights, max_scale=3.0)  # centred, as wide as the middle (a narrow d leaves it wide)
        self.beat("attend", self.Y_a.animate_values(plain.Y_a, shows="plain.Y_a", scale=pic.outputs),
                  self.Y_b.animate_values(plain.Y_b, shows="plain.Y_b", scale=pic.outputs),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_in, self.bar_out), FadeIn(self.weights),
                  run_time=1.5, subject=VGroup(self.Y_a, self.Y_b, self.weights), why=self.strip_why)
        self.name_a, self.name_b = na, nb

        # matched token for token
        self.links = self.match_lines(full=True)  # grid to grid; they step back for the differences
        self.beat_plays("match", [[FadeOut(self.weights)], [LaggedStart(*[Create(ln) for ln in self.links], lag_ratio=0.2)]],
                        run_time=0.9, subject=VGroup(self.Y_a, self.Y_b, self.links),
                        why=self.strip_why or {"empty": "the lines between the two grids are the picture: each joins "
                                                        "a token to the same word in the other sentence"})
        # the differences come in at the right, in the column kept for them, as the picture steps left to make room
        slide = self.slide_to(0.0)
        self.diffs = self.diff_labels(plain.diffs)
        self.beat(fail_key("diffs", True) if self.student_sees_order() else "diffs_zero" if plain.max_diff == 0.0 else "diffs",
                  slide, reveal(self.diffs), FadeIn(self.diff_head), run_time=1.2, subject=VGroup(self.Y_a, self.Y_b, self.diffs),
                  why=self.strip_why)

        # mean-pooled sentence vectors
        self.pool_words = VGroup(
            label("mean", size=SMALL, color=DIM).next_to(self.pool_rows(plain)[0], LEFT, buff=GAP.small),
            label("mean", size=SMALL, color=DIM).next_to(self.pool_rows(plain)[1], RIGHT, buff=GAP.small))
        self.pools, self.pool_names, self.pool_text, self.pools_big = self.big_means(plain)
        self.beat(fail_key("pooled", True) if plain.pooled_gap >= THRESHOLD else
                  "pooled_zero" if plain.pooled_gap == 0.0 else "pooled",
                  FadeIn(self.pools), FadeIn(self.pool_names), FadeIn(self.pool_text),
                  Slide([self.bar_out], self.pooled_drop() * DOWN),  # the bar steps down, clear of the means' verdict
                  # the means are the subject: the lines leave (the means stand between the sentences, large, where
                  # there is room), the rows and their differences step back
                  *[FadeOut(ln) for ln in self.links],
                  dim(self.Y_a, self.Y_b, self.name_a, self.name_b, self.words_a, self.words_b, self.diffs,
                      self.diff_head),
                  run_time=1.2, subject=VGroup(self.pools, self.pool_text),
                  why={"empty": "the two means are the subject, between the dimmed sentences they summarise (the "
                                "dimmed rows are the background, not empty)"} if self.pools_big else self.strip_why)

        # positions, one subject at a time: first PE alone on the inputs' scale (the sentences dimmed), then the sum
        # the differences and means leave where they stand; the picture centred again (the grids move as they recolour)
        slide = self.slide_to(self.centred_dx, keep=(self.diffs, self.diff_head, self.pools, self.pool_text,
                                                     self.pool_names, self.Y_a, self.Y_b))
        T, dm = d.PE.shape
        self.pe_pos = VGroup(*[math(str(m), size=SMALL, color=DIM) for m in range(T)])
        pos_w = max(t.width for t in self.pe_pos) + GAP.small
        pe_w = (self.mid[1] - self.mid[0] - 2 * GAP.tight - pos_w) / dm  # the middle, edge to edge, and the positions
        # on the inputs' scale: PE is added to the inputs, so its colours are the amounts added, read on the input bar
        self.pe = shows(Heatmap(d.PE, pic.inputs, cell_size=(pe_w, self.cell)), "PE")
        self.pe.move_to([sum(self.mid) / 2 + self.dx + pos_w / 2, self.heat_y, 0])
        for m, t in enumerate(self.pe_pos):  # each row's position beside it
            t.next_to(self.pe.cell(m, 0), LEFT, buff=GAP.small)
        self.pe_name = names(math(N.encoding_matrix.math, size=LABEL), "PE").move_to([self.pe.get_x(), self.names_y, 0])
        self.pe_m = math("m", size=SMALL, color=DIM).move_to([self.pe_pos.get_x(), self.names_y, 0])
        # the input bar, the one on screen: PE and the inputs it is added to read on one scale
        self.pe_bar = self.color_bar(pic.inputs, "input")
        # the sentences go back to their inputs first (PE is added to X, not to its outputs), then step back for PE
        na, nb = self.name("a", 0), self.name("b", 0)
        set_level(na, nb, level=1.0)  # their full opacity remembered before the swap hides them (the dim after it)
        self.beat_plays("pe", [  # (the differences' head comes back at full strength when it is next shown)
            [AnimationGroup(slide, FadeOut(self.diffs), FadeOut(self.diff_head), FadeOut(self.pools),
                            FadeOut(self.pool_text), FadeOut(self.pool_names),
                            self.recolour(self.Y_a, plain.X_a, "plain.X_a", pic.inputs, slide.vector),
                            self.recolour(self.Y_b, plain.X_b, "plain.X_b", pic.inputs, slide.vector),
                            swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_out, self.pe_bar))],
            [AnimationGroup(dim(self.Y_a, self.Y_b, na, nb, self.words_a, self.words_b),
                            FadeIn(self.pe), FadeIn(self.pe_name), FadeIn(self.pe_pos), FadeIn(self.pe_m))],
        ], run_time=0.9, subject=VGroup(self.pe, self.pe_pos), why=self.pe_why)
        self.name_a, self.name_b = na, nb

        set_level(self.diff_head, level=1.0)
        # add positions: the inputs again, each row plus its position's encoding, back at full strength
        na, nb = self.name("a", 2), self.name("b", 2)
        self.bar_in2 = self.pe_bar  # the same input bar stays: PE's colours and the sums' on one scale
        self.beat("positions", FadeOut(self.pe), FadeOut(self.pe_name), FadeOut(self.pe_pos), FadeOut(self.pe_m),
                  full_strength(self.Y_a.animate_values(pos.X_a, shows="positioned.X_a", scale=pic.inputs)),
                  full_strength(self.Y_b.animate_values(pos.X_b, shows="positioned.X_b", scale=pic.inputs)),
                  undim(self.words_a, self.words_b), swap(self.name_a, na), swap(self.name_b, nb),
                  run_time=1.2, subject=VGroup(self.Y_a, self.Y_b), why=self.strip_why)
        self.name_a, self.name_b = na, nb

        # attend again: the same words now give different outputs (the picture steps left for the differences; what
        # is built from the grids where they stand now moves with them)
        slide = self.slide_to(0.0, keep=(self.Y_a, self.Y_b))
        na, nb = self.name("a", 3), self.name("b", 3)
        self.bar_pos = self.color_bar(pic.outputs, self.output_bar_word(), low=True)  # under the means' rows
        self.diffs_shown = self.diff_labels(pos.diffs)
        self.pools_shown = self.pool_rows(pos)
        self.pool_shown = self.pool_figure(pos.pooled_gap)
        self.links.become(self.match_lines(marks=self.diffs_shown)).shift(slide.vector)  # back in, grid to grid
        worst = int(np.argmax(pos.diffs))
        # the word that moves most may stand in the same place in both sentences: then the order of the others did it
        key = "separate_same_place" if self.same_place_all_differ() else "separate"
        # the word that differs most, framed in both sentences: its chip and its row
        # (framed where the row will stand once the picture has stepped left: inside the content area there)
        self.worst_frames = VGroup(*[role(self.row_frame(VGroup(col.chips[i], *heat.cells[i]).copy().shift(slide.vector),
                                                         heat.cells[i][0].copy().shift(slide.vector)), "highlight")
                                     for col, heat, i in ((self.words_a, self.Y_a, int(d.matching[worst])),
                                                          (self.words_b, self.Y_b, worst))])
        self.beat(key, slide, self.recolour(self.Y_a, pos.Y_a, "positioned.Y_a", pic.outputs, slide.vector),
                  self.recolour(self.Y_b, pos.Y_b, "positioned.Y_b", pic.outputs, slide.vector),
                  swap(self.name_a, na), swap(self.name_b, nb), swap(self.bar_in2, self.bar_pos),
                  FadeIn(self.links),
                  reveal(self.diffs_shown), FadeIn(self.diff_head), FadeIn(self.pools_shown), FadeIn(self.pool_words),
                  FadeIn(self.pool_shown), Create(self.worst_frames), run_time=1.6,
                  subject=VGroup(self.Y_a, self.Y_b, self.diffs_shown), why=self.strip_why)
        self.name_a, self.name_b = na, nb

    # ------------------------------------------------------------------ the takeaway
    def p_definition(self) -> VGroup:
        """P said where it is used, in the deck's words: the permutation matrix that puts a's words in b's order."""
        return row(math(N.permutation.math, size=SMALL),
                   label(": the permutation matrix that puts a's words in b's order", size=SMALL, color=DIM),
                   gap="hair", align="baseline")

    def final_panels(self) -> VGroup:
        """Matched outputs side by side: b's, and a's in b's word order (``P``, defined under them), without positions
        (equal) and with them (apart), each pair's rows read by b's words, with its verdict and measured figure.

        Two arrangements, as large as each fits: the comparisons stacked (each a row: its name, the words, the two
        grids, the sign, the verdict) or side by side (each a column); the one whose cells come out larger is drawn."""
        d = self.data
        pic = d.picture
        T, dm = d.plain.Y_b.shape
        pe = N.encoding_matrix.math
        # attention with no causal mask, as the close says (clip 06: a mask makes order matter)
        cases = (("without positions or a mask", d.plain.Y_b, d.matched_plain, "plain.Y_b", "matched_plain", "X_b", "X_a",
                  d.plain.max_diff, pic.plain_equal, "=" if pic.plain_equal else "!="),
                 ("with positions", d.positioned.Y_b, d.matched_pos, "positioned.Y_b", "matched_pos", f"X_b + {pe}",
                  f"X_a + {pe}", d.positioned.max_diff, pic.positioned_equal, "!="))
        colors = [self.word_color(w) for w in d.tokens_b]
        region = self.layout.content

        def words(cell):
            """b's words beside the rows (both grids' rows are b's words in b's order); none where rows are too short."""
            if cell * WordColumn.FILL < WordColumn.min_row(SMALL) * WordColumn.FILL - 1e-9:
                return None
            return WordColumn([self.short[w] for w in d.tokens_b], colors, row_height=cell, size=SMALL)

        def parts(cell, wide):
            out = []
            for head, Yb, Ym, qb, qm, xb, xa, gap, equal, sign in cases:
                box = (cell * wide, cell)
                hb = shows(Heatmap(Yb, pic.outputs, cell_size=box), qb)
                hm = shows(Heatmap(Ym, pic.outputs, cell_size=box), qm)
                nb = names(math(f"\"Attn\"({xb})", size=SMALL), qb)
                nm = names(math(f"P \"Attn\"({xa})", size=SMALL), qm)
                out.append(dict(head=head, hb=hb, hm=hm, nb=nb, nm=nm, chips=words(cell),
                                sign=math(sign, size=HEADING), verdict=verdict(pic.delta, rounded(gap), equal)))
            return out

        def side(cell, wide=1.0):
            """Each comparison a column: its name; the equation of the two grids' names, the sign between them; the
            grids level, b's words between them reading the rows of both; its verdict under them."""
            ps = parts(cell, wide)
            g = VGroup()
            for p in ps:
                chips = p["chips"] if p["chips"] is not None else VGroup()
                hb, hm, nb, nm, sign = p["hb"], p["hm"], p["nb"], p["nm"], p["sign"]
                inner = (2 * GAP.tight + chips.width) if len(chips) else GAP.wide
                # the grids' centres as far apart as the words between them, or the names' equation, need
                apart = max(hb.width / 2 + inner + hm.width / 2, nb.width / 2 + 2 * GAP.tight + sign.width + nm.width / 2)
                hb.move_to(ORIGIN)
                hm.move_to(apart * RIGHT)
                nb.next_to(hb, UP, buff=GAP.small)
                nm.next_to(hm, UP, buff=GAP.small)
                nm.align_to(nb, DOWN)
                sign.move_to([(nb.get_right()[0] + nm.get_left()[0]) / 2, nb.get_y(), 0])
                if len(chips):
                    chips.move_to([(hb.get_right()[0] + hm.get_left()[0]) / 2, hb.get_y(), 0])
                head = label(p["head"], size=LABEL)
                body = VGroup(hb, hm, nb, nm, sign, chips)
                column(head, body, p["verdict"], gap="normal", align=ORIGIN)
                g.add(VGroup(head, chips, hb, nb, sign, hm, nm, p["verdict"]))
            VGroup(*g).arrange(RIGHT, buff=GAP.wide, aligned_edge=UP)  # two comparisons, a rule between them (build)
            # the grids level across the comparisons (their names may differ in height), heads and verdicts too
            for p in g[1:]:
                p[1:7].shift((g[0][2].get_y() - p[2].get_y()) * UP)
                p[0].set_y(g[0][0].get_y())
                p[7].set_y(g[0][7].get_y())
            return g

        def with_p(arrange):
            def build(cell, wide=1.0):
                g = arrange(cell, wide)
                # a rule between the two comparisons, from their heads to their verdicts: two panels, read apart
                x = (g[0].get_right()[0] + g[1].get_left()[0]) / 2
                rule = Line([x, g.get_top()[1], 0], [x, g.get_bottom()[1], 0], stroke_color=DIM, stroke_width=1.5)
                return VGroup(g, self.p_definition().next_to(g, DOWN, buff=GAP.wide), rule)
            return build

        inner = region.width - 2 * GAP.small  # clear of the frame's margins (a formula at the edge reads cut)

        def fits(g):
            return g.width <= inner + 1e-6 and g.height <= region.height + 1e-6

        def largest(build, lo=0.05):
            """The largest cell (at most MAX_CELL) at which ``build`` fits the region (bisection: names and words do
            not shrink with the cells, so the fit is found by trying, not by a ratio)."""
            g = build(self.MAX_CELL)
            if fits(g):
                return g, self.MAX_CELL
            # down in steps to the first size that fits (the words between the grids drop out where rows are too short,
            # so a smaller cell may be wider: the fit is not monotonic), then bisected up to the next step
            hi = self.MAX_CELL
            while hi - 0.05 > lo and not fits(build(hi - 0.05)):
                hi -= 0.05
            if hi - 0.05 <= lo:
                if not fits(build(lo)):
                    return None, lo
            else:
                lo = hi - 0.05
            for _ in range(12):
                mid_ = (lo + hi) / 2
                lo, hi = (mid_, hi) if fits(build(mid_)) else (lo, mid_)
            return build(lo), lo

        best = None
        for arrange in (side,):
            build = with_p(arrange)
            g, cell = largest(build)
            if g is None:  # this arrangement cannot fit at any cell size
                continue
            if g.width < inner * 0.95:  # narrow grids (small d) widen their cells into the width left over
                grid_w = dm * cell * 4
                wide = min(self.MAX_WIDE, 1.0 + (inner * 0.95 - g.width) / grid_w)
                g = build(cell, wide)
                while g.width > inner and wide > 1.0:  # names wider than their grids: widen less
                    wide = max(1.0, wide - 0.05)
                    g = build(cell, wide)
            area = sum(p[2].width * p[2].height for p in g[0])
            if best is None or area > best[0] + 1e-9:
                best = (area, g, cell, arrange.__name__)
        area, g, cell, self.close_arrangement = best
        region.place(g)
        self.final_cases, self.p_def = g[0], g[1]
        self.mask = g[0][0][0]  # the equal comparison's head: "without positions or a mask" (clip 06 shows a mask)
        self.final_verdicts = [p[7] for p in g[0]]
        self.final_heats = [m for p in g[0] for m in (p[2], p[5])]
        self.final_words = [p[1] for p in g[0]]
        self.close_why = ({"empty": "the two comparisons, each a pair of grids under its names with its verdict: "
                                    f"grids of {T} words of {dm} numbers leave air around them",
                           "dashboard": "two comparisons read one after the other, each a pair of grids, its sign and "
                                        "its verdict"}
                          if 2 * area < 0.3 * region.width * region.height else None)
        return g

    def takeaway(self) -> VGroup:
        return self.final

    def closing(self) -> None:
        """Everything steps aside for the two comparisons, side by side and large."""
        self.final = self.final_panels()
        leaving = [m for m in self.mobjects if m is not self.header]
        self.beat(self.closing_key(), stage(leaving, [self.final], lag=1.0), run_time=1.4, hold=self.CLOSING_HOLD,
                  subject=self.final, why=self.close_why)

