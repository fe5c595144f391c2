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
    Arrow,
    Brace,
    GrowFromCenter,
    Create,
    FadeIn,
    FadeOut,
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
    pair_angles,
    pairs_without_a_turn,
    rope_wavelengths,
    training_arcs,
)
from mathcore.measure import rope_unseen_pairs
from mathcore.positions import LEARNED_STD
from scenes.clips.c14_widgets import TableView, WavelengthChart, capped_table, edge_rows
from scenes.figures.extrapolation import (
    base_colors,
    no_row_text,
    ordinal,
    power_range,
    sample_rows,
    table_proof,
    table_scale,
)
from scenes.kit import (
    DIM,
    DIMMED,
    FAILED,
    FG,
    GAP,
    HEADING,
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
from scenes.kit.motion import Dim
from scenes.kit.layout import Region
from scenes.kit.theme import SEEN, UNSEEN
from scenes.kit.notation import SUBSCRIPT
from scenes.kit.numbers import count


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
    next_lecture: int = 6  # the lecture that takes up positions past training: the config's number + 1

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
PAST_TRAINING = 3  # the close's position, in LLaMA-2 train lengths
TIMES = {2: "twice", 3: "three times", 4: "four times"}


def degrees(rad: float) -> int:
    """An angle as the deck's dials print it (clip 13): whole degrees."""
    return int(round(float(np.degrees(rad))))


class GPT2ToLLaMA(ClipScene):
    """14 · From GPT-2 to LLaMA: a table with a last row, and rotations with none."""

    STAGED = True
    TRUE_SHAPE = {"empty": "one table at the full height under the heading in its true shape (1024 rows by 768 "
                           "features, 4:3), its rows counted by a brace beside it: taller than wide, so its sides "
                           "stay dark; the corner enlarged fills them next"}
    FULL_PLOT = {"empty": "the log plot spans the content area; only its curves' and labels' boxes are counted, "
                          "not the axes' hairlines and grid"}
    PAIR = {"empty": "the close is the pair it compares, each large with its words: GPT-2's capped table and "
                     "LLaMA-2's slow pair past training under its verdict; nothing else on purpose"}
    ZOOM = (8, 12)
    SAMPLE = (32, 12)  # rows, features of the whole table drawn as cells

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> GPT2ToLLaMAData:
        g, l2, l3 = GPT2, LLAMA2, LLAMA3
        table = learned_absolute_table(g.d_model, g.n_max, cfg.seed)
        rows, cols = sample_rows(g.n_max, cls.SAMPLE[0]), sample_rows(g.d_model, cls.SAMPLE[1])
        wl2, wl3 = rope_wavelengths(l2.head_dim, l2.rope_base), rope_wavelengths(l3.head_dim, l3.rope_base)
        # three times LLaMA-2's L: past training by more than training's own sweep, and not 2L = 8192, which is
        # LLaMA-3's L one beat earlier (review round 4)
        slow_i, slow_m = l2.head_dim // 2 - 1, PAST_TRAINING * l2.train_length
        return GPT2ToLLaMAData(
            gpt2=g, llama2=l2, llama3=l3, table=table, zoom=cls.ZOOM, cmap=cfg.cmap_signed,
            sample_rows=rows, sample_cols=cols, sample=table[np.ix_(rows, cols)],
            corner=table[:cls.ZOOM[0], :cls.ZOOM[1]], wl_llama2=wl2, wl_llama3=wl3,
            wl_range=power_range(np.concatenate([wl2, wl3])),
            slow_pairs=pairs_without_a_turn(l2.head_dim, l2.train_length, l2.rope_base), n_pairs=l2.head_dim // 2,
            slow_pairs3=pairs_without_a_turn(l3.head_dim, l3.train_length, l3.rope_base),
            slow_index=slow_i, slow_position=slow_m,
            slow_angle=float(pair_angles(slow_m, l2.head_dim, l2.rope_base)[slow_i]),
            slow_arc=float(training_arcs(l2.head_dim, l2.train_length, l2.rope_base)[slow_i]),
            slow_unseen=bool(rope_unseen_pairs([slow_m], l2.head_dim, l2.train_length, l2.rope_base)[0, slow_i]),
            next_lecture=cfg.number + 1,
        )

    def caption_values(self) -> dict:
        d = self.data
        scale = table_scale(d)
        v = {
            "n_max": count(d.gpt2.n_max).text, "n_last": count(d.gpt2.n_max - 1).text, "d_model": d.gpt2.d_model,
            "head_dim": d.llama2.head_dim, "pairs": d.n_pairs, "slow": d.slow_pairs, "slow3": d.slow_pairs3,
            "train2": count(d.llama2.train_length).text, "base2": count(d.llama2.rope_base).text,
            "train3": count(d.llama3.train_length).text, "sigma": f"{LEARNED_STD:g}", "init_source": INIT_SOURCE,
            "slow_i": d.slow_index, "slow_m": count(d.slow_position).text,
            "base3": count(d.llama3.rope_base).text, "wl_first": period_text(d.wl_llama2[0]),
            "wl2": period_text(d.wl_llama2[-1]), "wl3": period_text(d.wl_llama3[-1]),
            "params": count(d.n_params).text, "row_step": ordinal(d.sample_rows[1] - d.sample_rows[0]),
            "col_step": ordinal(d.sample_cols[1] - d.sample_cols[0]), "zoom_rows": d.zoom[0], "zoom_cols": d.zoom[1],
            "vmax": fmt_measure(scale.vmax), "proof": table_proof(d),
            "last_sub": str(d.n_pairs - 1).translate(SUBSCRIPT), "next_lecture": d.next_lecture,
            "times": TIMES.get(d.slow_position // d.llama2.train_length, f"{d.slow_position // d.llama2.train_length} times"),
        }
        if not hasattr(self, "chart"):  # the title card: nothing drawn yet
            return v
        V, W = self.view, self.chart
        v.update(grid=claim("A grid of cells coloured by value", V.image),
                 rows_brace=claim(f"a brace down its right side counts its {v['n_max']} rows, one per position",
                                  self.rows_brace, self.rows_text),
                 corner_box=claim("a yellow square", V.corner), vmax=claim(self.colorbar.tick_labels[-1].text, self.colorbar), zoomed=claim("that corner enlarged", V.zoom_map),
                 bar=claim("a colour bar", self.colorbar), rule=claim("A thick red rule", V.cap_line),
                 plot=claim("A log plot", W.plot.axes), line2=claim("LLaMA-2's line", W.curves[0]),
                 line3=claim("LLaMA-3's line", W.curves[1]), start=claim("the line's start", self.start_period),
                 end2=claim("its end", self.periods[0]), end3=claim("its end", self.periods[1]),
                 L2=claim("A dashed violet line", W.train_lines[0]), band2=claim("a shaded band", W.band_labels[0]),
                 L3=claim("a dashed line", W.train_lines[1]), frame3=claim("framed in yellow", W.outlines[1]),
                 table=claim("GPT-2's table", self.thumb), dial=claim("LLaMA-2's pair", self.closing_dial),
                 lecture6=claim(f"lecture {d.next_lecture}", self.lecture6),
                 times=claim(v["times"], self.slow_where),
                 table_cross=claim(f"a red cross: no row for m ≥ {v['n_max']}", self.table_verdict),
                 params_close=claim(v["params"], self.table_params),
                 rope_check=claim("a tick: 0 position parameters, a rotation defined at every m", self.rope_verdict),
                 unseen_arc=claim("a pale blue arc marked never seen", self.unseen_arc, self.unseen_words))
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
        self.gpt_facts = worded_line(f'${N.table_rows.math} = {count(g.n_max).math}$, $d_"model" = {g.d_model}$', color=DIM)
        head = row(self.gpt_head, self.gpt_facts, gap="wide")
        strip, rest = region.take_top(head.height, gap=GAP.normal)
        strip.place(head, LEFT)
        self.cap_text = role(label(no_row_text(g.n_max), size=SMALL, color=FAILED), "failed")
        cap_strip, rest = rest.take_bottom(self.cap_text.height, gap=GAP.small)
        self.zoom_text = label(f"rows 0 to {r - 1}, features 0 to {c - 1}", size=SMALL, color=DIM)
        self.params_value = label(count(d.n_params).text, size=LABEL, color=FG, weight="BOLD")
        self.params_text = row(self.params_value, label("position parameters", size=SMALL, color=DIM), gap="small",
                               align="baseline")
        row_step, col_step = int(d.sample_rows[1] - d.sample_rows[0]), int(d.sample_cols[1] - d.sample_cols[0])
        # what the values are: an initialisation (mathcore draws N(0, 0.02²)), not the trained table.  σ = 0.02 is
        # Hugging Face's (and nanoGPT's) init for GPT-2's embeddings; OpenAI's own model.py draws wpe with σ = 0.01
        self.init_text = worded_line(f"{INIT_SOURCE} init: $N(0, {LEARNED_STD:g}^2)$", size=SMALL,
                                     color=DIM)
        self.table_aspect = col_step / row_step  # so 1024 rows by 768 features keep their shape
        self.view = V = TableView(rest, d.sample, d.corner, self.scale, [self.zoom_text, self.init_text,
                                                                           self.params_text],
                                  aspect=self.table_aspect, n_rows=g.n_max)
        self.image, self.zoom_map, self.colorbar, self.cap_line = V.image, V.zoom_map, V.colorbar, V.cap_line
        cap_strip.place(self.cap_text, LEFT)
        self.cap_text.align_to(self.image, LEFT)
        shows(V.image, "sample")
        shows(V.zoom_map, "corner")
        names(self.zoom_text, "corner")
        self.gpt = VGroup(head, V, V.zoom_map, V.colorbar, V.notes, V.corner, V.zoom_lines, V.cap_line, self.cap_text)
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
            label(f"{g.d_model} features across", size=SMALL, color=DIM),
            column(label(f"drawn: every {ordinal(row_step)} row", size=SMALL, color=DIM),
                   label(f"and every {ordinal(col_step)} feature", size=SMALL, color=DIM), gap="hair"), gap="normal")
        self.shape_text.next_to(self.rows_brace, RIGHT, buff=GAP.small)
        big_rows = edge_rows(V.image, g.n_max)
        for m, spot in zip(V.row_labels, big_rows):
            m.move_to(spot)
        big = VGroup(V.row_labels, core, self.rows_brace, self.shape_text)
        big.move_to([region.center[0], below_head.center[1], 0])
        self.rows_big = [m.get_center().copy() for m in V.row_labels]

        # ================= LLaMA: no table, a rotation per pair =================
        self.llama_head = label("LLaMA: RoPE, no table", size=LABEL, weight="BOLD")
        # d is the head dimension from here on (GPT-2's width was d_model): named in words beside it
        self.formula = worded_line(f"${N.rate.math} = {N.base.math}^(-2i slash d)$,  head dimension $d = {l2.head_dim}$",
                                   color=DIM)
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
        shows(W.curves[0], "wl_llama2")
        shows(W.curves[1], "wl_llama3")
        names(tags[0], "wl_llama2")
        names(tags[1], "wl_llama3")

        # ================= the takeaway: a last row, and a slow pair past training =================
        self.thumb = thumb = capped_table(d.sample, self.scale, region.height / 2, aspect=self.table_aspect)
        self.thumb_rows = edge_rows(thumb.image, g.n_max)  # the table's edges named, beside it
        name = label(g.name, size=HEADING, weight="BOLD")
        # GPT-2's verdict, measured on the table drawn: its rows end at n_max − 1, so no position from n_max on
        # has an encoding (✗), the half of the answer "why the table went away" the table itself shows
        self.table_verdict = worded_verdict(f"no row for $m >= {count(g.n_max).math}$", passed=False, size=LABEL)
        # what the table costs: every entry a learned position parameter (n_max × d_model, counted on the table)
        self.table_params = label(f"{count(d.n_params).text} position parameters", size=LABEL)
        # each column's verdict right under its name, at the same height (review round 4)
        left = column(name, self.table_verdict, VGroup(self.thumb_rows, thumb),
                      label(f"{count(g.n_max).text} rows, one per position", size=LABEL),
                      self.table_params, gap="small", align=ORIGIN)
        name.set_x(thumb.image.get_x())  # the name over the table itself
        shows(thumb.image, "sample")
        # RoPE past training: LLaMA-2's slowest pair at twice its train length, the arc training swept in the
        # seen colour, its hand beyond it (mathcore: an angle never seen)
        # where: twice LLaMA-2's train length, named as such (``build_data``: slow_position = 2 L)
        times = d.slow_position // l2.train_length
        self.slow_where = worded_line(f"pair {d.slow_index} at $m = {times} L = {count(d.slow_position).math}$",
                                      size=LABEL)
        self.closing_dial = dial = VectorDial(d.slow_angle, radius=thumb.image.height / 2.4, color=FG)
        self.slow_arc = role(Arc(radius=dial.radius, start_angle=0, angle=d.slow_arc, arc_center=dial.center,
                                 stroke_color=SEEN, stroke_width=6), "seen")
        # the verdict, worded as what was measured: the hand's angle there against the arc training swept
        # (✗: past it, an angle never seen)
        i = d.slow_index
        # the hand-off to the next lecture, not RoPE's verdict: a plain line (rounded figures with ≈, and their unit)
        reached = "reached only" if d.slow_unseen else "reached"
        self.slow_words = column(worded_line(f"$m theta_({i}) approx {degrees(d.slow_angle)}°$;", size=LABEL),
                                 worded_line(f"training {reached} $approx {degrees(d.slow_arc)}°$", size=LABEL),
                                 gap="hair", align=ORIGIN)
        # RoPE's answer to why the table went away: no position parameters at all, the angle m θᵢ computed for
        # any m (mathcore's pair_angles takes any m; the test asks it for m far past every table)
        self.rope_verdict = column(worded_verdict("0 position parameters", passed=True, size=LABEL),
                                   worded_line("a rotation defined at every $m$", size=LABEL), gap="hair",
                                   align=ORIGIN)
        self.rope_verdict.passed = True
        # the arc named on the data: the angles training reached, in the seen colour
        mid = d.slow_arc / 2
        self.arc_words = role(label("training", size=SMALL, color=SEEN), "seen")
        self.arc_words.next_to(dial.center + 1.08 * dial.radius * np.array([np.cos(mid), np.sin(mid), 0]), RIGHT,
                               buff=GAP.tight)
        # the angles past training, on the dial: from the end of the arc training swept to the hand, in the
        # unseen colour, named on the data; the pointer to lecture 6 leaves from them
        self.unseen_arc = role(Arc(radius=dial.radius * 1.12, start_angle=d.slow_arc, angle=d.slow_angle - d.slow_arc,
                                   arc_center=dial.center, stroke_color=UNSEEN, stroke_width=6), "unseen")
        mid_u = (d.slow_arc + d.slow_angle) / 2
        self.unseen_words = role(label("never seen", size=SMALL, color=UNSEEN), "unseen")
        self.unseen_words.next_to(dial.center + 1.16 * dial.radius * np.array([np.cos(mid_u), np.sin(mid_u), 0]),
                                  RIGHT, buff=GAP.tight)
        arrow = Arrow(ORIGIN, RIGHT * 0.9, buff=0, color=FG, stroke_width=4, max_tip_length_to_length_ratio=0.3)
        self.lecture_words = label(f"lecture {d.next_lecture}", size=LABEL, weight="BOLD")
        self.lecture6 = column(row(arrow, self.lecture_words, gap="small",
                                   align="center"),
                               worded_line("goes past $L$", size=SMALL, color=DIM), gap="hair", align=RIGHT)
        self.lecture6.arrow = arrow
        # the model named with its own train length: the close's m = 2L is LLaMA-2's, not LLaMA-3's L = 8192
        self.close_head = worded_line(f"{l2.name}: RoPE, $L = {count(l2.train_length).math}$", size=HEADING,
                                      weight="BOLD")
        self.dial_group = VGroup(dial, self.slow_arc, self.arc_words, self.unseen_arc, self.unseen_words)
        right = column(self.close_head, self.rope_verdict, self.dial_group, self.slow_where, self.slow_words,
                       gap="small", align=ORIGIN)
        self.summary = row(left, right, gap="wide", align="top")
        self.layout.content.place(self.summary)
        half = (max(left.width, right.width) + GAP.section) / 2  # two equal columns about the middle, where they fit
        if 2 * half + max(left.width, right.width) <= self.layout.content.width:
            left.set_x(self.layout.content.center[0] - half)
            right.set_x(self.layout.content.center[0] + half)
        # beside the dial's lower right, the angles past training pointing on to the next lecture; under the
        # column where a wide config leaves no room there
        # (the dial moved to the column's left, if that frees the room)
        free = right.get_right()[0] - (right.get_left()[0] + 2 * dial.radius)  # under the arcs' words
        if free < self.lecture6.width + GAP.normal:  # a long lecture number: the arrow over its words
            words = self.lecture6[0][1]
            self.lecture6 = column(arrow, words, self.lecture6[1], gap="hair", align=RIGHT)
            self.lecture6.arrow = arrow
        if free >= self.lecture6.width + GAP.normal:
            self.dial_group.shift((right.get_left()[0] - self.dial_group.get_left()[0]) * RIGHT)
            self.lecture6.next_to(dial, RIGHT, buff=GAP.normal).align_to(dial, DOWN)
            self.lecture6.shift(min(0.0, right.get_right()[0] - self.lecture6.get_right()[0]) * RIGHT)
        else:
            self.lecture6.next_to(right, DOWN, buff=GAP.normal)
        # the arrow leaves from the dial's rim, toward the words (review round 4: it started at nothing)
        w = self.lecture_words
        tip = (w.get_left() + GAP.tight * LEFT if w.get_left()[0] > dial.center[0] + dial.radius
               else w.get_top() + GAP.tight * UP)
        u = (tip - dial.center) / np.linalg.norm(tip - dial.center)
        arrow.become(Arrow(dial.center + dial.radius * u + GAP.hair * u, tip, buff=0, color=FG, stroke_width=4,
                           max_tip_length_to_length_ratio=0.3))
        self.summary.add(self.lecture6)

    def body(self) -> None:
        self.make_mobjects()
        V, W = self.view, self.chart
        self.beat("table", FadeIn(self.gpt_head), FadeIn(self.gpt_facts), FadeIn(V.image), Create(V.frame),
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
                                                      FadeIn(V.colorbar), FadeIn(self.params_text))),
                  run_time=2.0, subject=VGroup(V.image, V.frame, V.corner, V.zoom_map),
                  why={"empty": "the table in its true shape at the full height, its corner enlarged beside it; the "
                                "words under the corner leave the bottom right"})
        # the rule is the subject: the corner's enlargement, its bar and words step back (review round 4)
        self.beat("cap", Create(V.cap_line), FadeIn(self.cap_text, shift=GAP.tight * DOWN),
                  Dim([V.zoom_map, V.colorbar, V.notes, V.corner, V.zoom_lines], DIMMED), run_time=1.0,
                  why={"empty": "the table and its red rule are the subject, at the table's place beside its corner "
                                "(dimmed, not gone: the next beat clears the whole table away)"},
                  subject=VGroup(V.image, V.frame, V.cap_line, self.cap_text))
        tag0, tag1 = self.wl_tags
        plot = VGroup(W.axes_group, W.curves)
        self.beat("rope", stage([self.gpt], [self.llama_heads, W.axes_group], lag=1), Create(W.curves[0]),
                  FadeIn(tag0[0]), FadeIn(tag0[1]), run_time=2.0, subject=plot, why=self.FULL_PLOT)
        self.beat("speeds", FadeIn(self.start_period), FadeIn(self.periods[0]), run_time=1.2, subject=plot, why=self.FULL_PLOT)
        self.add(W.bands[0])
        self.bring_to_back(W.bands[0])
        self.beat("slow", Create(W.train_lines[0]), FadeIn(W.L_labels[0]), FadeIn(W.band_labels[0]),
                  FadeIn(W.end_labels.leaders), W.bands[0].animate.set_fill(opacity=0.15), run_time=1.2,
                  subject=plot, why=self.FULL_PLOT)
        self.beat("base", Create(W.curves[1]), FadeIn(tag1[0]), FadeIn(tag1[1]), FadeIn(self.periods[1]),
                  W.bands[0].animate.set_fill(opacity=0.0), FadeOut(W.band_labels[0]),
                  run_time=1.4, subject=plot)
        self.add(W.bands[1])
        self.bring_to_back(W.bands[1])
        # LLaMA-2's L line leaves with its band and label: one dashed L at a time (review round 3)
        self.beat("tie", FadeOut(W.L_labels[0]), FadeOut(W.train_lines[0]), W.bands[0].animate.set_fill(opacity=0.0),
                  Dim([W.curves[0], tag0, self.periods[0]], DIMMED), Create(W.train_lines[1]), FadeIn(W.L_labels[1]),
                  FadeIn(W.band_labels[1]), W.bands[1].animate.set_fill(opacity=0.15), Create(W.outlines[1]),
                  run_time=1.6, subject=plot)

    def closing(self) -> None:
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD, subject=take,
                  why=self.PAIR)

    def takeaway(self):
        return self.summary

    def bring_forward(self, take, region=None) -> list:
        return [stage([others(self, [])], [self.summary], lag=1)]

