"""The lecture's frame, 00 (the property map) and 15 (the four diary answers): its icons, described
once, and its stills.

The six icons (``ICONS``) are shape descriptions (``scenes.kit.icons``): the clips draw them with
Manim (``icons.to_manim``), the stills with matplotlib (``icons.to_matplotlib``), so the title
card, the recap and their stills show one picture per idea.  ``MAP_ICONS`` follows
``scenes.catalog.PROPERTIES``; ``RECAP_ICONS`` the diary answers of ``Recap.build_data``.

Both stills read the clips' own data (``Title.build_data``: the lecture and the catalog's
properties; ``Recap.build_data``: the questions, answers and the clips that show them) and print
it as cards in the family colours, each with its icon.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathcore.extrapolation import LLAMA2, training_arcs
from scenes.kit import numbers
from scenes.kit.icons import Bend, Box, Icon, Letter, Pointer, Ring, Stroke, polyline, to_matplotlib
from scenes.stills.spec import FigureStill, TextLine, TextPanel
from scenes.stills.text import mathify

from . import still
from .extrapolation import base_figure, base_relation, far_pair


# ====================================================================== the six icons
def _permute() -> Icon:
    perm, shades = (2, 0, 3, 1), (1.0, 0.72, 0.46, 0.22)
    side, y = 0.19, 0.36
    xs = [(k - 1.5) * 0.25 for k in range(4)]
    links = tuple(Stroke(((xs[perm[k]], y - side / 2), (xs[k], -y + side / 2)), alpha=0.9) for k in range(4))
    top = tuple(Box(xs[k], y, side, side, alpha=shades[k], edge="ink", weight=2) for k in range(4))
    bottom = tuple(Box(xs[k], -y, side, side, alpha=shades[perm[k]], edge="ink", weight=2) for k in range(4))
    return Icon("permute", links + top + bottom, "Four tokens (one shade each) and the same four in another "
                                                 "order: rows only move.")


def _causal() -> Icon:
    side = 0.25
    cells = tuple(Box((j - 1.5) * side, (1.5 - i) * side, side, side,
                      fill="ink" if j <= i else None, alpha=min(1.0, 0.35 + 0.6 * (i == j) + 0.05 * j), edge="dim",
                      weight=1.2)
                  for i in range(4) for j in range(4))
    return Icon("causal", cells, "A 4×4 attention grid with its upper triangle masked off.")


def _cache() -> Icon:
    # two columns of rows, named K and V over them (a KV cache keeps the keys and the values, not outputs)
    bars = tuple(Box(x, 0.2 - 0.17 * i, 0.4, 0.12, alpha=1.0 if i == 3 else 0.38, edge="fg" if i == 3 else "ink",
                     weight=2 if i == 3 else 1.5, round=0.04)
                 for x in (-0.24, 0.24) for i in range(4))
    return Icon("cache", bars + (Pointer(0.0, -0.5, 0.0, -0.38, color="fg", weight=3),
                                 Letter("K", -0.24, 0.4), Letter("V", 0.24, 0.4)),
                "A K cache and a V cache, each named over its column: rows kept from earlier steps, and the one new "
                "row added.")


def _waves() -> Icon:
    waves = tuple(Stroke(polyline(lambda x, k=k: 0.3 - 0.3 * k + 0.11 * np.sin(2 * np.pi * (4 >> k) * x / 0.9),
                                  -0.45, 0.45, 96), weight=3, alpha=1.0 - 0.25 * k)
                  for k in range(3))
    return Icon("waves", waves, "Three sinusoids of falling frequency, the waves a position code is made of.")


def _rotate() -> Icon:
    cx, cy, r = -0.12, 0.05, 0.3

    def at(deg, rad):
        return cx + rad * np.cos(np.deg2rad(deg)), cy + rad * np.sin(np.deg2rad(deg))

    q, k = at(80, r), at(-15, r)
    return Icon("rotate", (
        Ring(cx, cy, r, color="dim"),
        Bend(cx, cy, 0.45 * r, -15, 95, alpha=0.8),  # the angle between the two hands (review round 7: it ran outside)
        Pointer(cx, cy, *q), Pointer(cx, cy, *k),
        Pointer(0.36, cy - 0.55 * r, 0.36, cy + r, color="fg"),
        Letter("q", *at(104, r + 0.08)), Letter("k", *at(-38, r + 0.08)),
        Letter("v", 0.47, cy + 0.2 * r, color="fg"),
    ), "RoPE: q and k turn on a dial by their positions; v stands apart, unturned.")


def _wall() -> Icon:
    # the table a narrow column of rows at the left, RoPE's dial the large part (review round 5: two small icons,
    # the subject not the largest thing on screen)
    h = 1 / 7.5
    rows = tuple(Box(-0.38, 0.36 - (i + 0.5) * h, 0.24, 0.78 * h, alpha=0.55 - 0.07 * i, edge="ink", weight=1.5,
                     round=0.03) for i in range(5))
    wall_y = 0.36 - 5 * h - 0.25 * h
    cx, cy, r = 0.16, 0.0, 0.3  # the dial and its training arc inside the unit square
    # the hand where clip 14's close puts it (and the recap's ✓ beside it says): LLaMA-2's slowest pair at three
    # times its training length (review round 5: a hand at 57° beside "≈ 81°"); the arc beside it is the one that
    # pair swept in training, as clip 14 draws it (from 0 to (L − 1)·θᵢ)
    i, _, a = far_pair()
    arc = float(np.degrees(training_arcs(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base)[i]))
    return Icon("wall", rows + (
        Stroke(((-0.52, wall_y), (-0.24, wall_y)), color="failed", weight=6),
        Ring(cx, cy, r, weight=2.5),
        Bend(cx, cy, 1.12 * r, 0.0, arc, weight=5),
        Pointer(cx, cy, cx + r * np.cos(a), cy + r * np.sin(a), weight=3.5),
    ), "A learned table that ends at its last row (a wall), beside a RoPE dial that never does: its hand far "
       "past the arc it swept in training.")


ICONS: dict[str, Icon] = {i.name: i for i in (_permute(), _causal(), _cache(), _waves(), _rotate(), _wall())}
MAP_ICONS = tuple(ICONS[n] for n in ("permute", "causal", "cache", "waves"))
"""One icon per property of ``scenes.catalog.PROPERTIES``, in the same order."""
RECAP_ICONS = tuple(ICONS[n] for n in ("permute", "cache", "rotate", "wall"))
"""One icon per diary answer, in the order of ``RecapData.answers``."""
RECAP_PAINT: tuple[dict[int, str], ...] = (
    {},
    {**{i: "key" for i in (0, 1, 2, 3, 9)}, **{i: "value" for i in (4, 5, 6, 7, 10)}},  # the K and V caches, named
    {2: "query", 5: "query", 3: "key", 6: "key", 4: "value", 7: "value"},  # q and k on the dial, v apart
    {7: "seen"},  # the arc RoPE's slowest pair swept in training, in the seen colour (clip 14's)
)
"""The recap draws each icon's queries, keys and values in their concept colours (shape index -> role):
the cache's two columns are K and V, the dial's pointers q and k, the upright arrow v; the wall's training arc is seen."""


def drawn(icon: Icon, paint: dict[int, str] | None = None):
    """``icon`` as a still's picture (``TextPanel.picture``: ``draw(ax, theme, color)``)."""
    def draw(ax, th, color):
        to_matplotlib(icon, ax, th, color, paint)

    draw.icon = icon
    draw.paint = paint or {}
    return draw


# ====================================================================== 00 the property map
# What each property says, as clip 00 sets it under the property's name: ("math", Typst) or ("words", text)
STATEMENTS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("math", '"Attn"(P X) = P dot "Attn"(X)'),
     ("words", "permute the tokens: the outputs permute alike")),
    (("math", 'A_(m n) = 0 quad "for" n > m'),
     ("words", "every P but the identity breaks equivariance:"),
     ("math", '"Attn"_"causal" (P X) != P dot "Attn"_"causal" (X)')),
    (("math", 'y_m " depends only on " x_0, dots.h, x_m'),
     ("words", "so earlier outputs never change: cache K and V")),
    (("words", "without them, unmasked attention is order-blind;"),
     ("words", "three schemes: sinusoidal, learned, RoPE")),
)
"""One entry per property of ``scenes.catalog.PROPERTIES``, in the same order."""

# each formula of STATEMENTS as an audio description reads it (a screen reader must never meet Typst source)
STATEMENTS_SAID: dict[str, str] = {
    '"Attn"(P X) = P dot "Attn"(X)': "Attn of P X equals P times Attn of X",
    'A_(m n) = 0 quad "for" n > m': "A m n equals 0 for n greater than m",
    '"Attn"_"causal" (P X) != P dot "Attn"_"causal" (X)': "causal Attn of P X is not P times causal Attn of X",
    'y_m " depends only on " x_0, dots.h, x_m': "y m depends only on x 0 to x m",
}


def statement_said(kind: str, text: str) -> str:
    """A line of STATEMENTS as words: a formula as it is read aloud, a sentence as it is."""
    return STATEMENTS_SAID[text] if kind == "math" else text


def property_card(k: int, name: str, clips) -> TextPanel:
    """Card ``k``: the property in its family colour, then one line per clip: its chip and title."""
    lines = [TextLine(name, size=12, color=f"family:{k}", weight="bold", space_before=0)]
    lines += [TextLine(c.title, size=10.5, chips=(c.number,), space_before=3 if j == 0 else 1) for j, c in enumerate(clips)]
    tall = len(clips) > 4  # the positional family: its drawing sits under its list
    return TextPanel(tuple(lines), frame=f"family:{k}", picture=drawn(MAP_ICONS[k]), picture_width=0.24 if tall else 0.3,
                picture_at="bottom" if tall else "left")


@still("Title")
def property_map(data, cfg) -> FigureStill:
    """00 · The lecture, and the notebook's four properties as a map of the clips that show them."""
    cards = {"ABCD"[k]: property_card(k, name, clips) for k, (name, clips) in enumerate(data.properties)}
    n = sum(len(c) for _, c in data.properties)
    return FigureStill(
        "property_map", f"Lecture {data.number} · {data.title}", cards, mosaic="AD;BD;CD", size=(7.0, 4.4),
        subtitle=f"notebook {data.notebook} · four properties, {n} clips", wspace=0.04, hspace=0.05,
    )


# ====================================================================== 15 the four diary answers
def answer_card(k: int, answer) -> TextPanel:
    """Card ``k``: the question, its answer, and every measured proof as the clip shows it (✓ or ✗, the
    formula and the figure), each after the chip of the clip that measured it."""
    lines = [TextLine(mathify(answer.question), size=10, color="dim"),
             TextLine(mathify(answer.answer), size=12, weight="semibold", space_before=4)]
    lines += [TextLine(p.still_text(), size=10, chips=(p.clip,), space_before=6 if j == 0 else 2)
              for j, p in enumerate(answer.proofs)]
    return TextPanel(tuple(lines), frame=f"clip:{answer.home[0].number}", picture=drawn(RECAP_ICONS[k], RECAP_PAINT[k]),
                     picture_width=0.22)


@still("Recap")
def diary_answers(data, cfg) -> FigureStill:
    """15 · The four diary questions, each answered in one line and proved by the clips' measurements."""
    cards = {"ABCD"[k]: answer_card(k, a) for k, a in enumerate(data.answers)}
    return FigureStill(
        "diary_answers", "Four questions for your AI diary", cards, mosaic="AB;CD", size=(7.0, 4.6),
        subtitle=f"each answered in one line and proved by what the clips measured; next: lecture {data.next_lecture}, "
                 "past the training length", wspace=0.04, hspace=0.05,
    )


# ====================================================================== 15 the measured proofs
def recap_shift(cfg) -> int:
    """Clip 11's shift s, every position slid by it: the one its dials turn by (``scales.rope_shift``, from the
    config's head width and base), so the recap quotes clip 11's own figure (a test holds them equal)."""
    from scenes.kit.scales import rope_shift

    return rope_shift(cfg.d, cfg.rope_base)


@dataclass(frozen=True)
class DiaryProof:
    """One measured proof of a diary answer, as the clip that measured it shows it: ``formula`` (Typst, the
    verdict's left side), ``tex`` (the same in mathtext, for the still), the measured ``figure``, the
    verdict, a few plain words saying what was compared (``note``), and the ``clip`` that measured it."""

    formula: str
    tex: str  # the formula for the still: words with ``$mathtext$``
    figure: numbers.Figure
    passed: bool | None  # None: a measurement, not a verdict (the deck's unseen angles: no ✓ and no ✗)
    note: str
    clip: int
    words: str = ""  # what the formula measures, as an audio description says it
    meaning: str = ""  # what the verdict means, said after the figure (``it does not extrapolate``)
    brief: str = ""  # what the verdict line alone says, for a description of the line without its note

    def described(self, short: bool = False) -> str:
        """The proof as an audio description says it: ``a green check: the equivariance defect, the largest over
        100 random permutations P, ≈ 4.7 × 10⁻¹⁶ (clip 02)``.  ``short``: what the verdict line alone shows,
        without the note beside it and the meaning (the recap's close keeps the line, not its note):
        ``a green check: the equivariance defect, ≈ 4.7 × 10⁻¹⁶ (clip 02)``."""
        mark = {True: "a green check", False: "a red cross"}.get(self.passed, "in pale blue, no mark, a measurement")
        fig = self.figure.text.replace("exactly 0", "0 exact")
        if short:
            return f"{mark}: {self.brief or self.words.split(',')[0]}, {fig} (clip {self.clip:02d})"
        means = f": {self.meaning}" if self.meaning else ""
        return f"{mark}: {self.words}, {fig}{means} (clip {self.clip:02d})"

    def still_text(self) -> str:
        """The proof as the still prints it: ``✓ $formula$ $≈ 4.7 × 10⁻¹⁶$`` (``tex`` is text with ``$math$``)."""
        f = self.figure
        if self.passed is None:  # a measurement: no mark (the still shows it as the clip does, a plain line)
            return f"{self.tex}: {f.text}"
        if not f.exact and any(ch.isalpha() for ch in f.text):  # a worded figure ("47 of 64", "no row for m ≥ 1024") follows a colon
            return f"{'✓' if self.passed else '✗'} {self.tex}: {f.text}"
        if f.approx:
            mant, exp = numbers.scientific(f.value)
            fig = rf"$\approx {mant.replace(numbers.MINUS, '-')} \times 10^{{{exp}}}$"
        else:
            fig = "= " + f.text.replace("exactly ", "") + (" (exact)" if f.exact else "")
        return f"{'✓' if self.passed else '✗'} {self.tex} {fig}"


def diary_proofs(cfg) -> tuple[tuple[DiaryProof, ...], ...]:
    """The proof of each diary answer, measured by mathcore for ``cfg`` exactly as the clips that show it
    measure it: 02's largest equivariance defect over its random permutations; 03's weights above the
    diagonal, 04's prefix defect and 05's cached-against-recomputed outputs; 11's output change when every
    position shifts, with V left alone and with V rotated; 14's rows of GPT-2's table past its last, and
    13's RoPE pairs at unseen angles one step past training."""
    from mathcore.attention import attention_fn, self_attention_trace
    from mathcore.causal import above_diagonal_max
    from mathcore.equivariance import equivariance_run
    from mathcore.extrapolation import GPT2, LLAMA2, unseen_pair_counts
    from mathcore.lecture import lecture_inputs
    from mathcore.measure import extrapolation_report, kv_cache_decode, prefix_invariance_max_defect
    from mathcore.rope_measures import shift_output_defect

    from .causal import M

    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    X, W = li.X, (li.Wq, li.Wk, li.Wv)

    def noise(formula, tex, x, note, clip, threshold, words, meaning="", brief=""):
        return DiaryProof(formula, tex, numbers.measure(x), abs(x) < threshold, note, clip, words, meaning, brief)

    def zero(formula, tex, x, note, clip, words):
        return DiaryProof(formula, tex, numbers.measure(x), x == 0.0, note, clip, words)

    run = equivariance_run(attention_fn(*W), X, cfg.n_trials, cfg.seed)
    q1 = (noise('norm("Attn"(P X) - P dot "Attn"(X))_F', r"$\|\mathrm{Attn}(PX) - P \cdot \mathrm{Attn}(X)\|_F$",
                run.max_defect, f"Frobenius norm, largest of {numbers.count(cfg.n_trials).text} random P", 2,
                run.threshold,
                f"the equivariance defect (a Frobenius norm), the largest over {numbers.count(cfg.n_trials).text} random "
                "permutations P"),)
    causal = self_attention_trace(X, *W, causal=True)
    prefix = prefix_invariance_max_defect(attention_fn(*W, causal=True, kernel="fixed"), X)
    q2 = (
        # each written as its clip writes it, the limits under max (review round 4b: "Y_cached" and "max_t" drifted)
        # 03's and 04's as one-liners in words, their chip beside them; 05's, the cache's own, in full with its
        # formula and note (review round 6: three formulas with scripts stacked were the clip's notebook page)
        zero('"weight on the future"', "weight on the future", above_diagonal_max(causal.weights), "", 3,
             "the largest weight on a later token"),
        zero('"change in past outputs"', "change in past outputs", prefix, "", 4,
             "the largest change of any prefix's outputs"),  # its fixed order stands once under the three (round 7)
        # all three one-liners in words, each with its chip at its line's end (review round 7: two in words and the
        # third a formula, its chip under it); the condition they share stands once under them (the recap's ``Answer.shared``)
        zero('"change from caching"', "change from caching", kv_cache_decode(X, *W).max_defect, "", 5,
             "the largest gap between cached and recomputed outputs, over every decoding step"),
    )
    from mathcore.equivariance import THRESHOLD

    S = recap_shift(cfg)
    shift = f"every output entry, all positions shifted by {S}"
    q3 = (
        noise('"V left alone:" max abs(Delta Y_(m j))', r"V left alone: $\max\,|\Delta Y_{mj}|$",
              shift_output_defect(X, *W, S, cfg.rope_base, rotate_v=False), shift, 11, THRESHOLD,
              f"the largest output change when every position shifts by {S}, V left alone",
              brief="the largest output change with V left alone"),
        noise('"if V were rotated:" max abs(Delta Y_(m j))', r"if V were rotated: $\max\,|\Delta Y_{mj}|$",
              shift_output_defect(X, *W, S, cfg.rope_base, rotate_v=True),
              "the rejected choice: V rotated like Q and K", 11, THRESHOLD,
              f"the largest output change when every position shifts by {S}, if V were rotated",
              "the outputs move, so RoPE leaves V alone", brief="the largest output change if V were rotated"),
    )
    g, L = GPT2, cfg.train_length
    rows = int(extrapolation_report([g.n_max], g.d_model, g.n_max, cfg.seed).learned_defined.sum())
    pairs = LLAMA2.head_dim // 2
    unseen = int(unseen_pair_counts([L], LLAMA2.head_dim, L, cfg.rope_base)[0])
    # RoPE where GPT-2's table has no row: clip 14's ✓, its slowest pair at three times LLaMA-2's training
    # length, an angle mathcore gives as m·θᵢ, where no table row exists (review round 5: the recap quoted "0
    # position parameters", which clip 14 no longer shows)
    far_i, far_m, far_angle = far_pair()
    fm = numbers.count(far_m)
    times = {2: "twice", 3: "three times", 4: "four times"}.get(far_m // LLAMA2.train_length,
                                                                 f"{far_m // LLAMA2.train_length} times")
    # the base as the lecture prints it: a whole one counted ("10 000"), any other rounded ("≈ 2.2 × 10⁸"; the sweep:
    # a 9-digit base printed as "2.17751e+08")
    base = base_figure(cfg.rope_base).text
    n = numbers.count(g.n_max)
    # GPT-2's verdict names the model, then what was measured, as words after a colon ("GPT-2: no row for
    # m ≥ 1024"): written "rows past GPT-2's 1024 = 0" it read as "1024 = 0" (review round 2)
    none = f"no row for m ≥ {n.text}" if rows == 0 else f"{numbers.count(rows).text} rows for m ≥ {n.text}"
    none_math = f'"no row for" m >= {n.math}' if rows == 0 else f'{numbers.count(rows).math} "rows for" m >= {n.math}'
    q4 = (
        DiaryProof(f'"{g.name}"', g.name, numbers.Figure(float(rows), none_math, none), rows > 0,
                   f"the table ends at row {numbers.count(g.n_max - 1).text}", 14,
                   f"{g.name}'s learned table", "it does not extrapolate"),
        # the deck's convention (clips 13, 14, 15): the ✓ goes on RoPE having an angle at every position, no last row,
        # measured where no table row exists (m = 3L, an angle mathcore gives as m·θᵢ); an angle past training's
        # arc is a measurement, never a ✓ or a ✗ (review round 6: ✓ on LLaMA-2's 81°, ✗ on the toy's 47 of 64)
        DiaryProof('"RoPE"', "RoPE",
                   numbers.Figure(1.0 if np.isfinite(far_angle) else 0.0, f'"an angle at every" {M}", no last row"',
                                  "an angle at every m, no last row"),
                   bool(np.isfinite(far_angle)),
                   # LLaMA-2's length as a number, never as L (review round 7: beside the toy's "L = 64", "three times
                   # L" read as 3 × 64, and "its L = 4096" still gave one letter two values)
                   f"{LLAMA2.name} at $m = {fm.math} = {far_m // LLAMA2.train_length} times "
                   f"{numbers.count(LLAMA2.train_length).math}$", 14,
                   # said once (review round 7: the description said "no last row" three times in one verdict)
                   "RoPE", f"still one at m = {fm.text}, {times} LLaMA-2's training length of "
                   f"{numbers.count(LLAMA2.train_length).text}", "RoPE"),
        # the count with its condition in its own line (the close keeps the line, not its note): one step past L, so
        # 64 is never both a position and a pair count (review round 4b); a measurement in the unseen colour
        # "at m = L" (one step past positions 0 to L − 1): the line short enough to leave the dial its size, L's value
        # in the note beside it (round 6: the longest line on the panel had shrunk the picture)
        DiaryProof(f'"at" {M} = L', "at $m = L$",
                   numbers.Figure(float(unseen), f'{unseen} "of" {pairs} "pairs at unseen angles"',
                                  f"{unseen} of {pairs} pairs at unseen angles"),
                   None, f"toy head, {LLAMA2.head_dim} wide, {base_relation(cfg.rope_base, math=False)}, "
                         f"L = {numbers.count(L).text}", 13,
                   # one term, "unseen angles", on screen and said (round 8: no "never seen" for a RoPE pair's angle)
                   f"a toy head {LLAMA2.head_dim} wide, base {base}, one step past its training length of "
                   f"{numbers.count(L).text}", "", "one step past training"),
    )
    return q1, q2, q3, q4
