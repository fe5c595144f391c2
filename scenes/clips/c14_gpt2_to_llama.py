"""14 ``GPT2ToLLaMA`` (Q4): GPT-2's learned table (n_max × d), then LLaMA's RoPE (no table, no
cap), tied to clip 13; ends on n_max rows against rotations defined at any m (lecture 6).

The clip reads as a storyboard: the widgets (``scenes.clips.c14_widgets``) lay
themselves out in the regions they are given; colours, scales and proof lines come from the
description the still shares (``scenes.figures.extrapolation``).

Render directly with ``manim -ql scenes/clips/c14_gpt2_to_llama.py GPT2ToLLaMA``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    ORIGIN,
    AnimationGroup,
    RIGHT,
    Arc,
    Brace,
    GrowFromCenter,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Line,
    Succession,
    VGroup,
)

from mathcore import (
    learned_absolute_table,
)
from mathcore.config import LectureConfig
from mathcore.extrapolation import (
    GPT2,
    LLAMA2,
    LLAMA3,
    ModelFacts,
    pairs_without_a_turn,
    rope_wavelengths,
    training_arcs,
)
from mathcore.measure import rope_unseen_pairs
from mathcore.positions import LEARNED_STD
from scenes.clips.c14_widgets import TableView, WavelengthChart, _crosses, capped_table, edge_rows
from scenes.figures.extrapolation import (
    PAST_TRAINING,
    base_colors,
    degrees,
    far_pair,
    ordinal,
    power_range,
    sample_rows,
    table_proof,
    table_scale,
)
from scenes.kit import (
    DIM,
    FAILED,
    FG,
    GAP,
    LABEL,
    SMALL,
    ClipScene,
    N,
    VectorDial,
    column,
    fmt_measure,
    label,
    math,
    names,
    row,
    shows,
    stage,
)
from scenes.kit.binding import claim, role
from scenes.kit.proofs import worded_line, worded_verdict
from scenes.kit.compose import others
from scenes.kit.motion import swap
from scenes.kit.layout import Region
from scenes.kit.theme import SEEN, UNSEEN
from scenes.kit.notation import SUBSCRIPT
from scenes.kit.numbers import count
from scenes.kit.plots import STROKE


@dataclass(frozen=True)
class GPT2ToLLaMAData:
    """GPT-2's learned table (``learned_absolute_table(d_model, n_max)``, seeded by the config) and the
    rows and features drawn of it (``sample``, ``corner``: real entries) beside LLaMA's RoPE at head
    dim 128 for both bases: per-pair wavelengths and how many pairs never complete a turn within
    LLaMA-2's training length."""

    gpt2: ModelFacts
    llama2: ModelFacts
    llama3: ModelFacts
    table: np.ndarray  # (n_max, d_model)
    zoom: tuple[int, int]  # rows, cols of the table's corner shown large
    sample_rows: np.ndarray  # the rows drawn for the whole table (every k-th)
    sample_cols: np.ndarray  # the features drawn for the whole table
    sample: np.ndarray  # table[sample_rows][:, sample_cols]
    corner: np.ndarray  # table[:zoom[0], :zoom[1]]
    cmap: str
    wl_llama2: np.ndarray  # (head_dim/2,) positions per full turn of each pair, base LLaMA-2
    wl_llama3: np.ndarray  # the same at LLaMA-3's base
    wl_range: tuple[float, float]  # the powers of ten around both
    slow_pairs: int  # LLaMA-2 pairs without a full turn in its own train_length, at its own base
    n_pairs: int
    slow_pairs3: int = 0  # LLaMA-3's, from its own base and train length
    slow_index: int = 0  # the close's slow pair: LLaMA-2's slowest
    slow_position: int = 0  # where the close shows it: PAST_TRAINING times LLaMA-2's train length
    slow_angle: float = 0.0  # its angle there (mod 2π)
    slow_arc: float = 0.0  # the arc of angles it swept in training
    slow_unseen: bool = False  # that angle is one training never reached (mathcore.rope_unseen_pairs)
    slow_pairs3_at2: int = 0  # LLaMA-2's base over LLaMA-3's train length: the pairs it would leave without a turn
    cross2: float = 0.0  # where LLaMA-2's line crosses LLaMA-3's L (pair i, between whole pairs: λᵢ = L)

    def slow_of(self, k: int) -> int:
        """The pairs that never complete a turn in training, per model (0: LLaMA-2, 1: LLaMA-3)."""
        return (self.slow_pairs, self.slow_pairs3)[k]

    @property
    def wavelengths(self) -> np.ndarray:
        return np.stack([self.wl_llama2, self.wl_llama3])

    @property
    def n_params(self) -> int:
        return int(self.table.size)


def period_text(wl: float) -> str:
    """Positions per full turn as said and printed: ``≈ 6`` for 2π, ``≈ 54 410`` for 54 410.2, ``≈ 2.6 million``:
    a period is never a whole number of positions here, so it is written with "≈" (exact only when it is one)."""
    if np.isclose(wl, 2 * np.pi):  # pair 0 turns once every 2π positions (θ₀ = 1): named, then rounded
        return "2π ≈ 6.3"
    n = round(float(wl))
    if n >= 10_000:  # as printed at the line's end: one format for every long period (review round 3)
        e = int(np.floor(np.log10(wl)))
        return f"≈ {wl / 10 ** e:.1f} × 10{str(e).translate(SUPERSCRIPT)}"
    f = count(n)
    return f.text if (f.text.startswith("≈") or np.isclose(wl, n, rtol=0, atol=1e-9)) else f"≈ {f.text}"


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def period_math(wl: float) -> str:
    """The same in Typst math, as short as a line's end allows: ``approx 54 thin 410``, ``approx 2.6 times 10^6``
    (2.6 million, as said)."""
    if np.isclose(wl, 2 * np.pi):
        return "= 2 pi approx 6.3"
    n = round(float(wl))
    f = count(n)
    if n >= 10_000:  # every long period in one format (review round 3: 54 410 beside 2.6 × 10⁶)
        e = int(np.floor(np.log10(wl)))
        return f"approx {wl / 10 ** e:.1f} times 10^{e}"
    return f.math if (f.math.startswith("approx") or np.isclose(wl, n, rtol=0, atol=1e-9)) else f"approx {f.math}"


# Whose initialisation the drawn table follows: mathcore's σ (``LEARNED_STD`` = 0.02) is Hugging Face's
# ``initializer_range`` for GPT-2 (every embedding, wpe included); OpenAI's GPT-2 ``model.py`` draws wpe with
# σ = 0.01 (0.02 is its wte's), so the words name Hugging Face's GPT-2, never GPT-2 plainly.
INIT_SOURCE = "Hugging Face's GPT-2"
# what the table's cells are, said under it at the corner beat (its first cell stands for the block enlarged)
DRAWN_NOTE = "every {row} row, {col} feature"
# what beat 08 shows, as its heading: at one L, the larger base leaves more pairs without a full turn
TIE_HEAD = "A larger base: more pairs without a full turn"


class GPT2ToLLaMA(ClipScene):
    """14 · From GPT-2 to LLaMA: a table with a last row, and rotations with none."""

    STAGED = True
    TRUE_SHAPE = {"empty": "one table at the full height under the heading in its true shape (1024 rows by 768 "
                           "features, 4:3), its rows counted by a brace beside it: taller than wide, so its sides "
                           "stay dark; the corner enlarged fills them next"}
    FULL_PLOT = {"empty": "the log plot spans the content area; only its curves' and labels' boxes are counted, "
                          "not the axes' hairlines and grid"}
    PAIR = {"empty": "the close is the proof, two pictures as tall as the content allows, each over its verdict: "
                     "GPT-2's capped table over its ✗ and LLaMA-2's slow pair on a dial over its ✓ (an angle at "
                     "every m) and its measured, unseen angle; nothing else on purpose"}
    SAMPLE = (32, 12)  # rows, features of the whole table drawn as cells

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> GPT2ToLLaMAData:
        g, l2, l3 = GPT2, LLAMA2, LLAMA3
        table = learned_absolute_table(g.d_model, g.n_max, cfg.seed)
        rows, cols = sample_rows(g.n_max, cls.SAMPLE[0]), sample_rows(g.d_model, cls.SAMPLE[1])
        # the corner enlarged is the block the table's first drawn cell stands for (review round 10: rows 0 to 7 by
        # features 0 to 11, a speck inside that cell, did not visibly match the every-32nd-row table beside it):
        # rows 0 to 31 by features 0 to 63, every value of it; the drawn cell shows one of them, its first
        zoom = (int(rows[1] - rows[0]), int(cols[1] - cols[0]))
        wl2, wl3 = rope_wavelengths(l2.head_dim, l2.rope_base), rope_wavelengths(l3.head_dim, l3.rope_base)
        # three times LLaMA-2's L: past training by more than training's own sweep, and not 2L = 8192, which is
        # LLaMA-3's L one beat earlier (review round 4)
        slow_i, slow_m, slow_angle = far_pair()  # the recap quotes this very check
        return GPT2ToLLaMAData(
            gpt2=g, llama2=l2, llama3=l3, table=table, zoom=zoom, cmap=cfg.cmap_signed,
            sample_rows=rows, sample_cols=cols, sample=table[np.ix_(rows, cols)],
            corner=table[:zoom[0], :zoom[1]], wl_llama2=wl2, wl_llama3=wl3,
            wl_range=power_range(np.concatenate([wl2, wl3])),
            slow_pairs=pairs_without_a_turn(l2.head_dim, l2.train_length, l2.rope_base), n_pairs=l2.head_dim // 2,
            slow_pairs3=pairs_without_a_turn(l3.head_dim, l3.train_length, l3.rope_base),
            slow_index=slow_i, slow_position=slow_m,
            slow_angle=slow_angle,
            slow_arc=float(training_arcs(l2.head_dim, l2.train_length, l2.rope_base)[slow_i]),
            slow_unseen=bool(rope_unseen_pairs([slow_m], l2.head_dim, l2.train_length, l2.rope_base)[0, slow_i]),
            # what LLaMA-3's larger base buys at its doubled L (review round 6: "29 of 64" had no meaning): at
            # LLaMA-2's base, 8192 positions would leave fewer pairs without a full turn than 4096 did
            slow_pairs3_at2=pairs_without_a_turn(l3.head_dim, l3.train_length, l2.rope_base),
            # λᵢ grows by the same factor from pair to pair (a straight line on the log axis): the crossing read on it
            cross2=float(np.interp(np.log(l3.train_length), np.log(wl2), np.arange(len(wl2)))),
        )

    def caption_values(self) -> dict:
        d = self.data
        scale = table_scale(d)
        v = {
            "n_max": count(d.gpt2.n_max).text, "n_last": count(d.gpt2.n_max - 1).text, "d_model": d.gpt2.d_model,
            "head_dim": d.llama2.head_dim, "pairs": d.n_pairs, "slow": d.slow_pairs, "slow3": d.slow_pairs3,
            "slow3_at2": d.slow_pairs3_at2,
            "train2": count(d.llama2.train_length).text, "base2": count(d.llama2.rope_base).text,
            "train3": count(d.llama3.train_length).text, "sigma": f"{LEARNED_STD:g}", "init_source": INIT_SOURCE,
            "slow_i": d.slow_index, "slow_m": count(d.slow_position).text,
            "base3": count(d.llama3.rope_base).text, "wl_first": period_text(d.wl_llama2[0]),
            "wl2": period_text(d.wl_llama2[-1]), "wl3": period_text(d.wl_llama3[-1]),
            "params": count(d.n_params).text, "row_step": ordinal(d.sample_rows[1] - d.sample_rows[0]),
            "col_step": ordinal(d.sample_cols[1] - d.sample_cols[0]), "zoom_rows": d.zoom[0], "zoom_cols": d.zoom[1], "zoom_rows_last": d.zoom[0] - 1,
            "zoom_cols_last": d.zoom[1] - 1,
            "vmax": fmt_measure(scale.vmax), "proof": table_proof(d),
            "last_sub": str(d.n_pairs - 1).translate(SUBSCRIPT),
            "slow_deg": degrees(d.slow_angle), "times": d.slow_position // d.llama2.train_length, "zoom_x": int(round(getattr(self, "zoom_factor", 1))),
        }
        if not hasattr(self, "chart"):  # the title card: nothing drawn yet
            return v
        V, W = self.view, self.chart
        g_name = d.gpt2.name
        v.update(grid=claim("A grid of cells coloured by value", V.image),
                 rows_brace=claim(f"a brace down its right side counts its {v['n_max']} rows, one per position",
                                  self.rows_brace, self.rows_text),
                 corner_box=claim("a yellow box", V.corner), vmax=claim(self.colorbar.tick_labels[-1].text, self.colorbar), zoomed=claim(f"all {count(d.corner.size).text} values of that block", V.zoom_map),
                 bar=claim("a colour bar", self.colorbar), rule=claim("A thick red rule", V.cap_line),
                 plot=claim("A log plot", W.plot.axes), line2=claim("LLaMA-2's line", W.curves[0]),
                 line3=claim("LLaMA-3's line", W.curves[1]), start=claim("a dot on the line's start, led to its words", W.start_dot, W.start_leader, self.start_period),
                 end2=claim("its words, with no dot", self.periods[0]), end3=claim("its end", self.periods[1]),
                 L2=claim("A dashed violet line", W.train_lines[0]), band2=claim("a shaded band", W.band_labels[0]),
                 L3=claim("a dashed line", W.train_lines[1]),
                 tie_head=claim(TIE_HEAD, self.tie_head),
                 drawn_note=claim(DRAWN_NOTE.format(row=v['row_step'], col=v['col_step']),
                                  self.drawn_note),
                 head3=claim(f"the heading {g_name}'s position table, without at initialisation", self.cap_head),
                 brace3=claim(f"a brace counts its {v['n_max']} rows, m = 0 to {v['n_last']}", self.cap_brace,
                              self.cap_count),
                 wall=claim(f"red words standing on it: no row for m = {v['n_max']}, under the wall of clip 13",
                            self.cap_words),
                 cross2=claim(f"a dot labelled b = {v['base2']}: {d.slow_pairs3_at2} of {d.n_pairs}",
                              self.cross_dot, self.cross_text), frame3=claim("framed in yellow", W.outlines[1]),
                 table=claim("GPT-2's table", self.thumb), dial=claim("LLaMA-2's pair", self.closing_dial),
                 dial_tag=claim(f"named inside it under the hub, pair {d.slow_index}, m = {count(d.slow_position).text}",
                                self.dial_tag),
                 table_cross=claim(f"a red cross: no row past {v['n_last']}", self.table_verdict),
                 rope_check=claim("a tick: an angle at every m: no last row", self.rope_verdict),
                 seen_arc=claim("the violet arc marked training", self.slow_arc, self.arc_words),
                 unseen_arc=claim("a pale-blue arc runs on from its end to the hand", self.unseen_arc),
                 beyond=claim(f"m = {v['slow_m']} = {v['times']} L: pair {d.slow_index} at ≈ {v['slow_deg']}°, "
                              f"past training's ≈ {degrees(d.slow_arc)}°: an unseen angle", self.beyond),
                 L2_close=claim(f"L = {v['train2']}", self.close_head))
        return v

    def make_mobjects(self) -> None:
        d = self.data
        g, l2, l3 = d.gpt2, d.llama2, d.llama3
        region = self.layout.content
        self.scale = table_scale(d)
        r, c = d.zoom
        # ================= GPT-2: the table =================
        # the values drawn are an initialisation, not the trained table: the heading says so from the first beat
        self.gpt_head = label(f"{g.name}'s position table, at initialisation", size=LABEL, weight="BOLD")
        # the model width is d_model here; d alone is the head dimension of LLaMA's beats (one symbol per concept)
        # the heading alone (review round 4b: "n_max = 1024, d_model = 768" beside it made the line dense, and n_max a
        # second symbol for a context length beside LLaMA's L): the sizes are on the table, its brace says
        # "1024 rows" and "768 features across", its edges "row 0" and "row 1023"
        head = VGroup(self.gpt_head)
        strip, rest = region.take_top(head.height, gap=GAP.normal)
        strip.place(head, LEFT)
        # (the table's first layout keeps a line's room under it, as it did for the cap's words: the corner's notes
        # stay inside the frame)
        # (one line of words under the table, with a descender: what its cells are, at the corner beat)
        _, rest = rest.take_bottom(label("every row", size=SMALL).height, gap=GAP.small)
        self.params_value = label(count(d.n_params).text, size=LABEL, color=FG, weight="BOLD")
        self.params_text = row(self.params_value, label("position parameters", size=SMALL, color=DIM), gap="small",
                               align="baseline")
        row_step, col_step = int(d.sample_rows[1] - d.sample_rows[0]), int(d.sample_cols[1] - d.sample_cols[0])
        # what the values are: an initialisation (mathcore draws N(0, 0.02²)), not the trained table.  σ = 0.02 is
        # Hugging Face's (and nanoGPT's) init for GPT-2's embeddings; OpenAI's own model.py draws wpe with σ = 0.01
        self.init_text = worded_line(f"{INIT_SOURCE} init: $N(0, {LEARNED_STD:g}^2)$", size=SMALL,
                                     color=DIM)
        self.table_aspect = col_step / row_step  # so 1024 rows by 768 features keep their shape
        def view(zoom_words) -> TableView:
            # the parameter count is said with the table's shape at the first beat (review round 5: the corner's
            # column of an inset, a bar and four lines read as a dashboard)
            return TableView(rest, d.sample, d.corner, self.scale, [zoom_words, self.init_text],
                             aspect=self.table_aspect, n_rows=g.n_max, n_cols=g.d_model)

        # the enlarged corner's scale said under it (review round 4b): measured on a first layout, whose notes are
        # as tall as the final ones (the same lines), so the scale is the one drawn
        self.zoom_factor = view(self.zoom_words(r, c, 10)).zoom_factor
        self.zoom_text = self.zoom_words(r, c, self.zoom_factor)
        self.view = V = view(self.zoom_text)
        assert np.isclose(V.zoom_factor, self.zoom_factor)
        self.image, self.zoom_map, self.colorbar = V.image, V.zoom_map, V.colorbar
        shows(V.image, "sample")
        shows(V.zoom_map, "corner")
        names(self.zoom_text, "corner")
        # under the table beside its corner, what its cells are (review round 10): every 32nd row and 64th feature,
        # so its first cell stands for the rows and features the enlargement shows in full
        self.drawn_note = label(DRAWN_NOTE.format(row=ordinal(row_step), col=ordinal(col_step)), size=SMALL,
                                color=DIM)
        # (right-aligned with the table, so it runs under "row 1023", never on under the enlargement's words)
        self.drawn_note.next_to(V.frame, DOWN, buff=GAP.small).align_to(V.frame, RIGHT)
        self.drawn_note.shift(max(0.0, region.left - self.drawn_note.get_left()[0]) * RIGHT)
        self.gpt = VGroup(head, V, V.zoom_map, V.colorbar, V.notes, V.corner, V.zoom_lines, self.drawn_note)
        self.enlargement = VGroup(V.zoom_map, V.colorbar, V.notes, V.corner, V.zoom_lines, self.drawn_note)
        # the table alone first, large: grown to the full height under the heading, in its true shape (its cells
        # as wide for their height as every 64th feature over every 32nd row), its rows counted by a brace on
        # its right; it shrinks back to its place beside its corner at the next beat
        self.table_core = VGroup(V.image, V.frame, V.row_labels)
        core = VGroup(V.image, V.frame)
        self.table_home = core.get_center().copy()
        self.rows_home = [m.get_center().copy() for m in V.row_labels]
        below_head = Region(region.left, region.right, region.bottom, head.get_bottom()[1] - GAP.normal, "big table")
        self.table_scale = (below_head.height - GAP.tight) / V.image.height
        core.scale(self.table_scale)
        self.rows_brace = Brace(V.frame, RIGHT, buff=GAP.small, color=DIM)
        self.rows_text = label(f"{count(g.n_max).text} rows", size=LABEL, color=FG)
        self.shape_text = column(
            column(self.rows_text, label("one per position", size=SMALL, color=DIM), gap="hair"),
            column(label(f"{g.d_model} features across", size=SMALL, color=DIM), self.params_text, gap="small"),
            column(label(f"drawn: every {ordinal(row_step)} row", size=SMALL, color=DIM),
                   label(f"and every {ordinal(col_step)} feature", size=SMALL, color=DIM), gap="hair"), gap="normal")
        self.shape_text.next_to(self.rows_brace, RIGHT, buff=GAP.small)
        big_rows = edge_rows(V.image, g.n_max)
        for m, spot in zip(V.row_labels, big_rows):
            m.move_to(spot)
        big = VGroup(V.row_labels, core, self.rows_brace, self.shape_text)
        big.move_to([region.center[0], below_head.center[1], 0])
        self.rows_big = [m.get_center().copy() for m in V.row_labels]
        # beat 03 (review round 7: a ~300 px table in a 60 % empty frame): the table back at its full height in its
        # true shape, its rows counted again by a brace, and the red rule under its last row running on past the
        # brace to the words clip 13 wrote at its wall ("no row for m = 1024"); the heading drops "at
        # initialisation", which no longer matters here
        img = V.image
        yb = img.get_bottom()[1]
        self.cap_head = label(f"{g.name}'s position table", size=LABEL, weight="BOLD")
        self.cap_head.move_to(self.gpt_head, aligned_edge=LEFT)
        self.cap_brace = Brace(V.frame, RIGHT, buff=GAP.small, color=DIM)
        self.cap_count = column(label(f"{count(g.n_max).text} rows", size=LABEL, color=FG),
                                worded_line(f"$m = 0$ to ${count(g.n_max - 1).math}$", size=SMALL, color=DIM),
                                gap="hair", align=LEFT)
        self.cap_count.next_to(self.cap_brace, RIGHT, buff=GAP.small)
        self.cap_text = role(worded_line(f"no row for $m = {count(g.n_max).math}$", size=LABEL, color=FAILED),
                             "failed")
        self.wall_note = label("the wall of clip 13", size=SMALL, color=DIM)
        self.cap_words = column(self.wall_note, self.cap_text, gap="hair", align=LEFT)
        self.cap_words.next_to(self.cap_brace, RIGHT, buff=GAP.normal)
        self.cap_words.align_to(np.array([0, yb + GAP.small, 0]), DOWN)
        rule_end = max(self.cap_words.get_right()[0], self.cap_count.get_right()[0])
        self.cap_rule = role(Line([img.get_left()[0] - GAP.hair, yb, 0], [rule_end, yb, 0], stroke_color=FAILED,
                                  stroke_width=STROKE * 3), "failed")
        cap_group = VGroup(V.row_labels, core, self.cap_brace, self.cap_count, self.cap_words, self.cap_rule)
        dx = (region.center[0] - cap_group.get_center()[0]) * RIGHT  # the whole picture in the middle
        VGroup(self.cap_brace, self.cap_count, self.cap_words, self.cap_rule).shift(dx)
        self.core_cap = core.get_center() + dx
        self.rows_cap = [m.get_center() + dx for m in V.row_labels]
        self.cap_line = V.cap_line = self.cap_rule

        # ================= LLaMA: no table, a rotation per pair =================
        self.llama_head = label("LLaMA: RoPE, no table", size=LABEL, weight="BOLD")
        # d is the head dimension from here on (GPT-2's width was d_model): named in words beside it
        self.formula = worded_line(f"${N.rate.math} = {N.base.math}^(-2i slash d)$,  head dimension $d = {l2.head_dim}$",
                                   color=FG)  # the rule every curve below follows: full strength (review round 5)
        head = row(self.llama_head, self.formula, gap="section")
        strip, rest = region.take_top(head.height, gap=GAP.normal)
        strip.place(head, LEFT)
        self.llama_heads = head
        self.base_colors = base_colors()
        models = (l2, l3)
        wls = (d.wl_llama2, d.wl_llama3)
        # each line's period printed at its end: the slowest pair's positions per full turn, read on the y axis
        # (its title says "positions per full turn"), so the number alone: the names' column stays narrow and
        # the plot wide
        last = d.n_pairs - 1
        self.periods = [math(f"{N.wavelength.math.replace('_i', f'_({last})')} "
                             f"{'' if period_math(wls[k][-1]).startswith('approx') else '= '}{period_math(wls[k][-1])}",
                             size=SMALL, color=self.base_colors[k]) for k in range(2)]
        tags = [column(label(m.name, size=SMALL, color=self.base_colors[k], weight="BOLD"),
                       math(f"{N.base.math} = {count(m.rope_base).math}", size=SMALL, color=self.base_colors[k]),
                       self.periods[k], gap="hair") for k, m in enumerate(models)]
        self.start_period = worded_line(f"pair 0: ${N.wavelength.math.replace('_i', '_0')} {period_math(wls[0][0])}$",
                                        size=SMALL, color=FG)
        # what the count means, on the band it counts: pairs whose period is longer than the model's train length,
        # so none of them completes one turn within training (review round 3: "18 / 29" without a meaning)
        # (a line's parts, "|", joined as far as the band's width allows)
        # (λᵢ > L is what the band's edges show: its floor is the L line; the words say what it means)
        self.band_texts = [f"{d.slow_of(k)} of {d.n_pairs}:|no full turn|in training" for k, m in enumerate(models)]
        self.chart = W = WavelengthChart(rest, list(wls), d.wl_range, self.base_colors, tags,
                                         [m.train_length for m in models], [d.slow_of(k) for k in range(2)],
                                         self.band_texts,
                                         worded_line(f"positions per full turn, ${N.wavelength.math} = 2 pi slash "
                                                     f"{N.rate.math}$", size=SMALL),
                                         worded_line(f"pair ${N.pair.math}$", size=SMALL), self.start_period)
        self.plot, self.wl_curves, self.train_line, self.slow_band = W.plot, W.curves, W.train_line, W.band
        self.wl_tags, self.L_label, self.band_label = tags, W.L_label, W.band_label
        # beat 08's point (review round 6): at LLaMA-3's L, LLaMA-2's base would leave fewer pairs without a turn
        # (14) than LLaMA-3's (29): a dot where LLaMA-2's line crosses LLaMA-3's L, its count under the L line
        # right of the dot, where neither line runs (both are over the L line there), in LLaMA-2's colour
        p = W.plot
        self.cross_dot = Dot(p.to_point(d.cross2, l3.train_length), radius=0.07, color=self.base_colors[0])
        x_end = p.axes[0].get_right()[0]
        room = x_end - self.cross_dot.get_right()[0] - GAP.small
        words = f"$b = {count(l2.rope_base).math}$: {d.slow_pairs3_at2} of {d.n_pairs}"
        self.cross_text = worded_line(words, size=SMALL, color=self.base_colors[0])
        if self.cross_text.width > room:  # two lines where one does not fit between the dot and the axis's end
            self.cross_text = column(worded_line(f"$b = {count(l2.rope_base).math}$:", size=SMALL,
                                                 color=self.base_colors[0]),
                                     label(f"{d.slow_pairs3_at2} of {d.n_pairs}", size=SMALL,
                                           color=self.base_colors[0]), gap="hair", align=LEFT)
        # under the dot, as far right as the axis allows (the line runs down to the left of the dot)
        self.cross_text.next_to(self.cross_dot, DOWN, buff=GAP.small).align_to(
            np.array([x_end - GAP.small, 0, 0]), RIGHT)
        for _ in range(20):  # lowered where LLaMA-2's line, running down to the left of the dot, would cross it
            if not any(_crosses(line, W.curves[0]) for line in self.cross_text.submobjects):
                break
            self.cross_text.shift(GAP.tight * DOWN)
        self.cross_mark = VGroup(self.cross_dot, self.cross_text)
        # beat 08's heading: the one idea its picture measures (review round 10: the reason, "a pair under one turn
        # never wraps", written over the plot's top left made a seventh annotation; it is said, not written)
        self.tie_head = label(TIE_HEAD, size=LABEL, weight="BOLD")
        self.tie_head.move_to(self.llama_head, aligned_edge=LEFT)
        shows(W.curves[0], "wl_llama2")
        shows(W.curves[1], "wl_llama3")
        names(tags[0], "wl_llama2")
        names(tags[1], "wl_llama3")

        # ================= the takeaway: a last row, against an angle at every m =================
        # one subject, the proof (review round 4b): GPT-2's table closed by its red rule over its ✗ (no row past
        # n_max − 1) beside LLaMA-2's slow pair on a dial as large as the table over its ✓ (an angle at m = 3L,
        # far past every row); each verdict under its picture, level; nothing else
        content = self.layout.content
        # the two headings at the label size (review round 5: at the heading size they ran together as one line)
        self.close_name = name = label(f"{g.name}: a position table", size=LABEL, weight="BOLD")
        # the model named with its own train length: the close's m = 3L is LLaMA-2's (LLaMA-3's L is 8192)
        self.close_head = worded_line(f"{l2.name}: RoPE, $L = {count(l2.train_length).math}$", size=LABEL,
                                      weight="BOLD")
        # GPT-2's verdict, measured on the table drawn: its rows end at n_max − 1, so no position past it has
        # an encoding (✗); the number in the sentence's sans, as its row label "row 1023" (review round 6)
        self.table_verdict = worded_verdict(f"no row past {count(g.n_max - 1).text}", passed=False, size=LABEL)
        i, m_far = d.slow_index, d.slow_position
        times = m_far // l2.train_length
        assert times * l2.train_length == m_far and times == PAST_TRAINING  # the recap says "three times L"
        # RoPE's verdict, the deck's convention (round 7): the ✓ goes only on what is defined everywhere, an angle
        # at every m, no last row; the far pair's angle is a measurement, not a verdict: under it, in the unseen
        # colour with no mark, m = 3L (as the recap says it), the angle there and how far training's sweep reached
        self.rope_verdict = worded_verdict("an angle at every $m$: no last row", passed=True, size=LABEL)
        assert d.slow_unseen and d.slow_angle > d.slow_arc
        self.far_line = worded_line(f"$m = {count(m_far).math} = {times} L$: pair {i} at "
                                    f"$approx {degrees(d.slow_angle)}°$,", size=SMALL, color=UNSEEN)
        self.seen_line = worded_line(f"past training's $approx {degrees(d.slow_arc)}°$: an unseen angle",
                                     size=SMALL, color=UNSEEN)
        self.beyond = role(column(self.far_line, self.seen_line, gap="hair", align=LEFT), "unseen")
        pic_h = (content.height - name.height - self.table_verdict.height - self.beyond.height - 2 * GAP.normal
                 - 2 * GAP.small)
        self.thumb = thumb = capped_table(d.sample, self.scale, pic_h, aspect=self.table_aspect)
        self.thumb_rows = edge_rows(thumb.image, g.n_max)  # the table's edges named, beside it
        shows(thumb.image, "sample")
        # RoPE past training: LLaMA-2's slowest pair at three times its train length, the arc training swept in
        # the seen colour, named on the data, its hand beyond it
        self.closing_dial = dial = VectorDial(d.slow_angle, radius=pic_h / 2 - GAP.small, color=FG)
        self.slow_arc = role(Arc(radius=dial.radius * 1.06, start_angle=0, angle=d.slow_arc,
                                 arc_center=dial.center, stroke_color=SEEN, stroke_width=8), "seen")
        # the angles past training's arc up to the hand: the stretch the pair never swept in training
        self.unseen_arc = role(Arc(radius=dial.radius * 1.06, start_angle=d.slow_arc, angle=d.slow_angle - d.slow_arc,
                                   arc_center=dial.center, stroke_color=UNSEEN, stroke_width=8), "unseen")
        mid = d.slow_arc / 2
        self.arc_words = role(label("training", size=SMALL, color=SEEN), "seen")
        self.arc_words.next_to(dial.center + 1.12 * dial.radius * np.array([np.cos(mid), np.sin(mid), 0]), RIGHT,
                               buff=GAP.tight)
        # the dial named on itself (review round 7: "pair 63" and "m = 12 288" were only in the words under it): in
        # its empty lower half, under the hub, the pair and the position the hand stands for
        self.dial_tag = column(label(f"pair {i}", size=SMALL, color=FG),
                               worded_line(f"$m = {count(m_far).math}$", size=SMALL, color=FG), gap="hair")
        self.dial_tag.move_to(dial.center + 0.45 * dial.radius * DOWN)
        self.dial_group = VGroup(dial, self.slow_arc, self.unseen_arc, self.arc_words, self.dial_tag)
        left = column(name, VGroup(self.thumb_rows, thumb), gap="normal", align=ORIGIN)
        name.set_x(thumb.image.get_x())  # the name over the table itself
        right = column(self.close_head, self.dial_group, gap="normal", align=ORIGIN)
        for col in (left, right):
            col.align_to(np.array([0, content.top, 0]), UP)
        left.set_x(content.center[0] - content.width / 4)
        right.set_x(content.center[0] + content.width / 4)
        # the dial's face centred under its heading (the arc's word hangs to its right)
        dial_x = self.close_head.get_x()
        self.dial_group.shift((dial_x - dial.center[0]) * RIGHT)
        # ... as far left as the arc's word needs to stay inside the frame
        self.dial_group.shift(min(0.0, content.right - self.dial_group.get_right()[0]) * RIGHT)
        # the heading centred over its dial where it stays inside the frame
        self.close_head.set_x(dial.center[0])
        self.close_head.shift(min(0.0, content.right - self.close_head.get_right()[0]) * RIGHT)
        # each verdict under its picture, both on one level (review round 4: ✗ at the bottom, ✓ at the top)
        y = min(thumb.get_bottom()[1], dial.center[1] - dial.radius) - GAP.normal
        self.table_verdict.next_to(np.array([thumb.image.get_x(), y, 0]), DOWN, buff=0)
        self.rope_verdict.next_to(np.array([dial.center[0], y, 0]), DOWN, buff=0)
        self.rope_verdict.align_to(self.table_verdict, DOWN)
        self.beyond.next_to(self.rope_verdict, DOWN, buff=GAP.small).align_to(self.rope_verdict.line, LEFT)
        for part in (self.table_verdict, self.rope_verdict):
            if part.get_left()[0] < content.left:
                part.shift((content.left - part.get_left()[0]) * RIGHT)
            if part.get_right()[0] > content.right:
                part.shift((content.right - part.get_right()[0]) * RIGHT)
        self.beyond.align_to(self.rope_verdict.line, LEFT)
        self.beyond.shift(min(0.0, content.right - self.beyond.get_right()[0]) * RIGHT)
        self.summary = VGroup(left, self.table_verdict, right, self.rope_verdict, self.beyond)
        # (kept for the tests that read them: where the slow pair stands)
        self.slow_where = self.far_line

    @staticmethod
    def zoom_words(rows: int, cols: int, factor: float) -> VGroup:
        """What the enlarged corner is and how much larger it is drawn than on the table (rounded: "≈")."""
        g = column(label(f"rows 0 to {rows - 1}, features 0 to {cols - 1}", size=SMALL, color=DIM),
                   label(f"every value, enlarged ≈ {int(round(factor))} times", size=SMALL, color=DIM),
                   gap="hair", align=LEFT)
        g.factor = int(round(factor))
        return g

    def body(self) -> None:
        self.make_mobjects()
        V, W = self.view, self.chart
        self.beat("table", FadeIn(self.gpt_head), FadeIn(V.image), Create(V.frame),
                  FadeIn(V.row_labels), GrowFromCenter(self.rows_brace),
                  FadeIn(self.shape_text), run_time=1.4,
                  subject=VGroup(V.image, V.frame, V.row_labels, self.rows_brace, self.shape_text),
                  why=self.TRUE_SHAPE)
        top, bottom = V.row_labels
        self.beat("corner", Succession(AnimationGroup(VGroup(V.image, V.frame).animate.scale(1 / self.table_scale)
                                                      .move_to(self.table_home),
                                                      top.animate.move_to(self.rows_home[0]),
                                                      bottom.animate.move_to(self.rows_home[1]),
                                                      FadeOut(self.rows_brace), FadeOut(self.shape_text)),
                                       AnimationGroup(Create(V.corner), Create(V.zoom_lines), FadeIn(V.zoom_map),
                                                      FadeIn(self.zoom_text), FadeIn(self.init_text),
                                                      FadeIn(V.colorbar), FadeIn(self.drawn_note))),
                  run_time=2.0, subject=VGroup(V.image, V.frame, V.corner, V.zoom_map),
                  why={"empty": "the table in its true shape at the full height, its corner enlarged beside it; the "
                                "words under the corner leave the bottom right"})
        # the rule is the subject (review round 7: the table, alone and small, left 60 % of the frame empty): the
        # corner's enlargement, its bar and words go, the table grows back to its full height in the middle, its
        # rows counted by the brace, and the red rule closes it and runs on to clip 13's words for the wall
        self.beat("cap", Succession(AnimationGroup(FadeOut(self.enlargement), FadeOut(self.gpt_head),
                                                   FadeIn(self.cap_head),
                                                   VGroup(V.image, V.frame).animate.scale(self.table_scale)
                                                   .move_to(self.core_cap),
                                                   top.animate.move_to(self.rows_cap[0]),
                                                   bottom.animate.move_to(self.rows_cap[1])),
                                    AnimationGroup(GrowFromCenter(self.cap_brace), FadeIn(self.cap_count),
                                                   Create(self.cap_rule), FadeIn(self.cap_words,
                                                                                 shift=GAP.tight * LEFT))),
                  run_time=1.6,
                  why={"empty": "GPT-2's table at the full height in its true shape (taller than wide), its rows "
                                "counted by the brace and its red rule run out to the wall's words: its sides stay "
                                "dark; the next beat clears the table away"},
                  subject=VGroup(V.image, V.frame, self.cap_brace, self.cap_count, self.cap_rule, self.cap_words))
        tag0, tag1 = self.wl_tags
        plot = VGroup(W.axes_group, W.curves)
        # (what is left of GPT-2's picture leaves: the enlargement went at the cap, and stays gone)
        left = VGroup(self.cap_head, V.image, V.frame, V.row_labels, self.cap_brace, self.cap_count, self.cap_rule,
                      self.cap_words)
        self.beat("rope", stage([left], [self.llama_heads, W.axes_group], lag=1), Create(W.curves[0]),
                  FadeIn(tag0[0]), FadeIn(tag0[1]), run_time=2.0, subject=plot, why=self.FULL_PLOT)
        self.beat("speeds", FadeIn(self.start_period), FadeIn(W.start_mark), FadeIn(self.periods[0]), run_time=1.2, subject=plot, why=self.FULL_PLOT)
        self.add(W.bands[0])
        self.bring_to_back(W.bands[0])
        self.beat("slow", Create(W.train_lines[0]), FadeIn(W.L_labels[0]), FadeIn(W.band_labels[0]),
                  FadeIn(W.end_labels.leaders), W.bands[0].animate.set_fill(opacity=0.15), run_time=1.2,
                  subject=plot, why=self.FULL_PLOT)
        # the two bases compared (review round 10: one idea a beat): LLaMA-2's band, its words, its L line and pair
        # 0's words (said at `speeds`) leave as LLaMA-3's line comes
        self.beat("base", Create(W.curves[1]), FadeIn(tag1[0]), FadeIn(tag1[1]), FadeIn(self.periods[1]),
                  W.bands[0].animate.set_fill(opacity=0.0), FadeOut(W.band_labels[0]), FadeOut(W.train_lines[0]),
                  FadeOut(W.L_labels[0]), FadeOut(self.start_period), FadeOut(W.start_mark),
                  run_time=1.4, subject=plot)
        self.add(W.bands[1])
        self.bring_to_back(W.bands[1])
        # one idea (review round 10): at LLaMA-3's L, its larger base leaves more pairs without a full turn; on the
        # plot only the two lines named by their bases, the L line and the two counts where they are measured; the
        # periods at the lines' ends (said at `speeds` and `base`) leave, the heading says the point
        self.beat("tie", FadeOut(self.periods[0]), FadeOut(self.periods[1]), swap(self.llama_heads, self.tie_head),
                  Create(W.train_lines[1]), FadeIn(W.L_labels[1]),
                  FadeIn(W.band_labels[1]), W.bands[1].animate.set_fill(opacity=0.15), Create(W.outlines[1]),
                  FadeIn(self.cross_mark), run_time=1.6, subject=plot)

    def closing(self) -> None:
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD, subject=take,
                  why=self.PAIR)

    def takeaway(self):
        return self.summary

    def bring_forward(self, take, region=None) -> list:
        return [stage([others(self, [])], [self.summary], lag=1)]

