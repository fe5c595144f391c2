"""Designed stills of the extrapolation clips (12 positional dilution, 13 the extrapolation cliff,
14 from GPT-2 to LLaMA), and the description both the still and the clip draw from.

The clip module (``scenes/extrapolation.py``) imports the shared part from here: the colours of
each ordered family (widths in 12, RoPE bases in 14, a ``theme.ramp``), the concept colours of
13 (seen / unseen in training, the table's wall), the table's colour scale, the position axis,
the sampled rows of the table, and the measured proof lines.  A still and its clip therefore
use the same scale and colours by construction (tests compare them).
"""

from __future__ import annotations

import math as _m

import numpy as np

from scenes.kit import numbers
from scenes.kit.notation import N
from scenes.stills.spec import CellBox, FigureStill, HeatmapPanel, Note, PlotPanel, Rule, Series, Span
from scenes.stills.text import count
from scenes.kit.theme import FAILED, SEEN, TOKEN_COLORS, UNSEEN, ColorScale, ramp

from . import still

MODEL_CMAP = "hsv_r"  # clip 14's LLaMA-2: the blue at 0.45 on the hue circle, apart from violet
FAMILY_CMAP = "cool"  # an ordered family's colours: cyan-blue to magenta, all >= 4.5:1 on the dark background


# ====================================================================== the shared description
def hex_of(c) -> str:
    return c.to_hex().upper()[:7]


# clip 12's widths: one blue family, light cyan (narrowest) to blue (widest), evenly in OKLCH (lightness 0.86 to 0.66,
# hue 200° to 258°): ordered by lightness, so it reads without hue (colour-blind safe), and every width keeps its label
# beside its curve.  Review round 7: viridis's green d = 64 shared the close with the green ✓ (VERIFIED), and the
# yellow rings at m* sat on its lime d = 256; no width is green or yellow now (round 6: not violet, clip 13's "seen in
# training", nor pale blue, its "unseen"), and all keep >= 4.5:1 on the background.
WIDTH_OKLCH = ((0.86, 0.12, 200.0), (0.66, 0.16, 258.0))
WIDTH_WORDS = {2: "from light cyan to blue", 3: "from light cyan through sky blue to blue"}  # the ramp in words


def _oklch(L: float, C: float, h: float) -> tuple:
    """sRGB (0 … 1) of an OKLCH colour (Björn Ottosson's OKLab), clipped to the gamut."""
    a, b = C * _m.cos(_m.radians(h)), C * _m.sin(_m.radians(h))
    l_, m_, s_ = (L + 0.3963377774 * a + 0.2158037573 * b, L - 0.1055613458 * a - 0.0638541728 * b,
                  L - 0.0894841775 * a - 1.2914855480 * b)
    lms = (l_ ** 3, m_ ** 3, s_ ** 3)
    rows = ((4.0767416621, -3.3077115913, 0.2309699292), (-1.2684380046, 2.6097574011, -0.3413193965),
            (-0.0041960863, -0.7034186147, 1.7076147010))
    lin = [min(1.0, max(0.0, sum(r * v for r, v in zip(row, lms)))) for row in rows]
    return tuple(12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055 for v in lin)


def width_colors(widths) -> list:
    """Clip 12: one colour per width (config order), ranked narrowest to widest along ``WIDTH_OKLCH`` (light cyan
    to blue), apart from the seen violet and the unseen pale blue of clip 13, from the highlight's yellow (the
    rings at m*) and from the verified green (the close's ✓)."""
    from manim import ManimColor

    order = sorted(range(len(widths)), key=lambda k: (widths[k], k))
    rank = {k: r for r, k in enumerate(order)}
    n = len(widths)
    lo, hi = WIDTH_OKLCH
    f = [rank[k] / (n - 1) if n > 1 else 0.5 for k in range(n)]
    return [ManimColor.from_rgb(_oklch(*(a + (b - a) * v for a, b in zip(lo, hi)))) for v in f]


def width_ramp_words(n: int) -> str:
    """How :func:`width_colors` reads in words for ``n`` widths, narrowest first."""
    return WIDTH_WORDS.get(n, WIDTH_WORDS[3]) if n > 1 else "in one colour"


def base_colors() -> list:
    """Clip 14: LLaMA-2's base, then LLaMA-3's larger one: a blue (the ramp's) and the deck's lime (a token
    colour, ``TOKEN_COLORS[2]``), far from the training line's violet and from each other (review round 4: the
    'cool' ramp's periwinkle and magenta beside the violet L line read as three purple-blues) and off the red
    family (review round 6: the ramp's orange-red beside the wall's and the ✗'s red read as "bad")."""
    return [ramp(0, 2, MODEL_CMAP), TOKEN_COLORS[2]]


# clip 13: seen / never seen in training, and the table's wall: the clip's colour and the still's role of each
CLIFF_COLORS = {"seen": SEEN, "unseen": UNSEEN, "wall": FAILED}
CLIFF_ROLES = {"seen": "seen", "unseen": "unseen", "wall": "bad"}


def decades(hi: float, lo: float = 1.0) -> list[float]:
    """Every power of ten from ``lo`` up to ``hi``: the ticks of a log position axis."""
    a, b = int(_m.ceil(_m.log10(lo) - 1e-9)), int(_m.floor(_m.log10(hi) + 1e-9))
    return [numbers.power(k).value for k in range(a, b + 1)]


def power_range(values) -> tuple[float, float]:
    """The powers of ten just around ``values`` (> 0): a log axis's range."""
    v = np.asarray(values, dtype=float)
    return (numbers.power(int(np.floor(np.log10(v.min())))).value, numbers.power(int(np.ceil(np.log10(v.max())))).value)


def base_figure(b: float) -> numbers.Figure:
    """The frequency base as the lecture prints it: a whole base as a count (``10 000``, ``1 billion``),
    any other rounded and marked so (``≈ 12 346``)."""
    b = float(b)
    if b.is_integer():
        return numbers.count(int(b))
    f = numbers.measure(b)
    return f if f.approx else numbers.Figure(b, f"approx {f.math}", f"≈ {f.text}", approx=True)


def base_relation(b: float, math: bool = True) -> str:
    """``b = 10 000`` or ``b ≈ 12 346`` (one relation, never ``= ≈``): Typst math, or caption text."""
    f = base_figure(b)
    if math:
        return f"{N.base.math} approx {f.math.removeprefix('approx ')}" if f.approx else f"{N.base.math} = {f.math}"
    return f"{N.base.text} ≈ {f.text.removeprefix('≈ ')}" if f.approx else f"{N.base.text} = {f.text}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``32nd``, ``64th``, ``11th``."""
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def onset_text(o) -> str:
    """An onset as a caption writes it: ``m* = 172``, or ``none found``."""
    return f"m* = {count(o.t)}" if o.t is not None else "none found"


def onsets_line(data) -> str:
    """Clip 12's measured proof: every width's onset, narrowest first."""
    return "; ".join(f"d = {data.widths[k]}: {onset_text(data.onsets[k])}" for k in data.by_width())


def share_percent(share: float) -> str:
    """A share as the lecture prints it: ``66 %`` (``100 %`` only when every one, ``0 %`` only when none)."""
    pct = int(round(100 * share))
    if pct == 100 and share < 1:
        pct = 99
    if pct == 0 and share > 0:
        pct = 1
    return f"{pct} %"


def twins_line(data) -> str:
    """Clip 12's second measured line: past each m*, the share of positions (up to the last one whose twins
    lie in the data) that have a twin, narrowest width first."""
    parts = [f"d = {data.widths[k]}: {share_percent(data.shares[k].share)}" for k in data.by_width()
             if data.shares[k].checked]
    if not parts:
        return f"no position up to {count(data.horizon)} has a twin"
    return f"past m*, positions up to {count(data.horizon)} with a twin: " + "; ".join(parts)


def no_row_text(m: int) -> str:
    """The learned table's answer past its last row, in lecture language."""
    return f"no row for position {count(m)}"


PAST_TRAINING = 3  # clip 14's far position, in LLaMA-2 train lengths


def degrees(rad: float) -> int:
    """An angle as the deck's dials print it (clips 13 and 14): whole degrees."""
    return int(round(float(np.degrees(rad))))


def far_pair() -> tuple[int, int, float]:
    """Clip 14's ✓ (and the recap's): LLaMA-2's slowest pair (the head's last) at ``PAST_TRAINING`` times its
    training length, a position no row of GPT-2's table reaches: ``(pair, position, angle in radians)``, the angle
    mathcore's m·θᵢ."""
    from mathcore.extrapolation import LLAMA2, pair_angles

    i, m = LLAMA2.head_dim // 2 - 1, PAST_TRAINING * LLAMA2.train_length
    return i, m, float(pair_angles(m, LLAMA2.head_dim, LLAMA2.rope_base)[i])


def first_missing(data) -> int | None:
    """Clip 13: the first walked position the learned table has no row for (from mathcore's report)."""
    missing = [m for m, ok in zip(data.stops, data.report.learned_defined) if not ok]
    return int(missing[0]) if missing else None


def cliff_proof(data) -> tuple[str, str]:
    """Clip 13's measured proof: unseen RoPE pairs one step past training and at the far end; the wall."""
    m = first_missing(data)
    return (f"RoPE pairs at unseen angles: {int(data.stop_counts[1])} of {data.n_pairs} one step past training, "
            f"{int(data.stop_counts[-1])} at m = {count(data.x_max)}",
            f"learned table: {no_row_text(m)}" if m is not None else "learned table: every position has a row")


def table_scale(data) -> ColorScale:
    """Clip 14's scale: the deck's scale of a position table (``kit.scales``' "table"): symmetric over the
    whole GPT-2 table, in the config's signed colormap, ending at a round value."""
    from types import SimpleNamespace

    from scenes.kit import scales

    return scales.scale("table", SimpleNamespace(cmap_signed=data.cmap), values=data.table)


def sample_rows(n_max: int, rows: int) -> np.ndarray:
    """Every ``n_max // rows``-th row of the table (real rows, no averaging)."""
    return np.arange(0, n_max, max(1, n_max // rows))


def table_proof(data) -> str:
    """Clip 14's measured proof: the table's last row against RoPE's rotations."""
    g, l2, l3 = data.gpt2, data.llama2, data.llama3
    return (f"{g.name}: {count(g.n_max)} rows, positions 0 to {count(g.n_max - 1)}, {no_row_text(g.n_max)}; "
            f"RoPE: defined at any $m$, but {data.slow_pairs} of {data.n_pairs} {l2.name} pairs never complete a "
            f"turn in its {count(l2.train_length)} training positions ({l3.name}: {data.slow_pairs3} in "
            f"{count(l3.train_length)})")


# ====================================================================== 12
@still("PositionalDilution")
def dilution(data, cfg) -> FigureStill:
    """12 · cos(PE_0, PE_m) on a log m axis for each width, every computed sample; the onset m* past
    which a position twice as far is at least as similar (measured), and the share of positions past it with
    such a twin."""
    series, notes = [], []
    colors = [hex_of(c) for c in width_colors(data.widths)]
    for j, k in enumerate(data.by_width()):
        col = colors[k]
        series.append(Series(data.cos[k], data.t, f"$d$ = {data.widths[k]}", col, width=1.1))
        o = data.onsets[k]
        if o.t is not None:
            series.append(Series(np.array([o.cos_t, o.cos_witness]), np.array([o.t, o.witness]), "", col, "dots",
                                 width=2.4))
            notes.append(Note(f"$m^*$ = {count(o.t)}", (o.t, o.cos_t), (-8, -22 - 12 * j), col, arrow=True, ha="right"))
    lo, hi = data.x_range
    plot = PlotPanel(tuple(series), xlabel="position $m$", ylabel=r"$\cos(\mathrm{PE}_0,\,\mathrm{PE}_m)$", x_log=True,
                xlim=(lo, hi), xticks=tuple(decades(hi)), notes=tuple(notes), legend="lower left")
    return FigureStill(
        "dilution", "Positional dilution: far positions blur together", {"A": plot}, size=(7.0, 4.2),
        subtitle=(f"similarity of sinusoidal position $m$ to position 0, every $m$ up to {count(hi)} "
                  f"(base ${base_relation(data.base, math=False).replace('b', 'b$', 1)}); dots: $m^*$ and its twin, a position "
                  f"$n \\geq {data.factor:g}m$ at least as similar"),
        proof=(f"measured {onsets_line(data)}", twins_line(data)), proof_color="accent",
    )


# ====================================================================== 13
def _lane(title: str, L: int, x_max: int, n_max: int | None, untrained: str) -> PlotPanel:
    """One scheme's lane over the positions: seen in training, then never seen (and, for a table, a wall)."""
    seen, unseen, wall = (CLIFF_ROLES[k] for k in ("seen", "unseen", "wall"))
    spans = [Span(1, L, f"trained: 0 to {count(L - 1)}", seen, 0.3, label_y=0.5)]
    end = x_max if n_max is None else n_max
    if end > L:  # a table's untrained rows are its failure (clip 13's red tint); sinusoidal's unseen values are not
        spans.append(Span(L, end, untrained, wall if n_max is not None else unseen, 0.2, label_y=0.5))
    vlines = ()
    if n_max is not None:
        spans.append(Span(n_max, x_max, no_row_text(n_max), wall, 0.06, label_y=0.5))
        vlines = (Rule(n_max, "", wall, "-"),)
    return PlotPanel((), title=title, x_log=True, xlim=(1, x_max), ylim=(0, 1), yticks=(), spans=tuple(spans),
                vlines=vlines, legend="", grid=False, x_labels=False)


@still("ExtrapolationCliff")
def cliff(data, cfg) -> FigureStill:
    """13 · Past the train length L: the learned table hits a wall at n_max, sinusoidal values are
    defined but never seen, and RoPE's slow pairs move to angles never seen in training (counted)."""
    L, n_max, x_max = data.train_length, data.n_max, data.x_max
    seen, unseen, wall = (CLIFF_ROLES[k] for k in ("seen", "unseen", "wall"))
    lanes = {
        "A": _lane("learned table", L, x_max, n_max, "never trained"),
        "B": _lane("sinusoidal", L, x_max, None, "defined, never seen"),
    }
    stops = np.array(data.stops[1:])
    counts = np.array(data.stop_counts[1:], dtype=float)
    readout = ("unseen pairs, of " + str(data.n_pairs) + ":",
               *(f"$m$ = {count(m)}: {int(c)}" for m, c in zip(stops, counts)))
    lanes["C"] = PlotPanel(
        (Series(data.unseen, data.positions, "RoPE pairs at unseen angles", unseen, "step", width=1.6),
         Series(counts, stops, "", unseen, "dots", width=2.6)),
        title=f"RoPE (head dim {data.head_dim}): pairs at unseen angles", x_log=True,
        xlim=(1, x_max), xticks=tuple(decades(x_max)), ylim=(0, data.n_pairs), xlabel="position $m$",
        ylabel=f"pairs of {data.n_pairs}",
        vlines=(Rule(L, f"$L$ = {count(L)}", seen, ":"), Rule(n_max, f"$n_{{\\max}}$ = {count(n_max)}", wall, "-")),
        spans=(Span(L, x_max, "", unseen, 0.08),), legend="", box=readout, box_loc="upper left",
        box_color="fg")
    return FigureStill(
        "cliff", "The extrapolation cliff: a wall for the table, a quiet cliff for the formulas", lanes,
        mosaic="A;B;C", size=(7.0, 5.2), height_ratios=(0.26, 0.26, 1.5), hspace=0.1,
        subtitle=(f"trained on positions 0 to {count(L - 1)} ($L$ = {count(L)}); every scheme asked for positions "
                  f"up to {count(x_max)}"),
        proof=cliff_proof(data), proof_color="bad",
    )


# ====================================================================== 14
@still("GPT2ToLLaMA")
def table_vs_rotation(data, cfg) -> FigureStill:
    """14 · GPT-2's learned table (n_max rows: a last row) beside LLaMA's RoPE (no table, no cap):
    the wavelength of every pair at both bases, and the pairs that never turn within training."""
    g, l2, l3 = data.gpt2, data.llama2, data.llama3
    scale = table_scale(data)
    rows, cols = data.sample_rows, data.sample_cols
    step = max(1, len(rows) // 4)
    ticks = tuple(scale.ticks())
    table = HeatmapPanel(data.sample, scale, title=f"{g.name}: {count(g.n_max)} × {g.d_model} table",
                    colorbar="entry", cbar_ticks=ticks, cbar_ticklabels=tuple(numbers.tick(t) for t in ticks), yticks=tuple(str(int(r)) for r in rows), xticks=tuple(str(int(c)) for c in cols),
                    tick_step=step, ylabel="position $m$ (row)", xlabel="feature", aspect="auto", grid=False,
                    note=no_row_text(g.n_max), note_color="bad",
                    # a zero-height box: the table's end drawn as a rule under its last row (the clip's cap line)
                    boxes=(CellBox((len(rows), len(rows) - 1), (0, len(cols) - 1), "bad", width=4.0),))
    i = np.arange(data.n_pairs)
    first_slow, first_slow3 = data.n_pairs - data.slow_pairs, data.n_pairs - data.slow_pairs3
    c2, c3 = (hex_of(c) for c in base_colors())
    wl = PlotPanel((
        Series(data.wl_llama2, i, f"{l2.name}: $b$ = {count(l2.rope_base)}", c2, width=2.2),
        Series(data.wl_llama3, i, f"{l3.name}: $b$ = {count(l3.rope_base)}", c3, width=2.2),
    ), title="LLaMA: RoPE, no table, no cap", xlabel=f"pair $i$ (head dim {l2.head_dim})",
        ylabel="positions per full turn", y_log=True, xlim=(0, data.n_pairs - 1), ylim=data.wl_range,
        # the two train lengths lie a factor 2 apart: one label, over the upper line, names both
        hlines=(Rule(l2.train_length, "", "seen"),
                Rule(l3.train_length, f"$L$ = {count(l2.train_length)} ({l2.name}), {count(l3.train_length)} "
                                      f"({l3.name})", "seen", label_at="left"),),
        spans=(Span(first_slow - 0.5, data.n_pairs - 1, f"{l2.name}: {data.slow_pairs} of {data.n_pairs}\n"
                    "never complete a turn", "unseen", 0.12, label_y=0.1),
               Span(first_slow3 - 0.5, data.n_pairs - 1, f"{l3.name}: {data.slow_pairs3} of {data.n_pairs}",
                    "unseen", 0.06, label_y=0.3)),
        legend="upper left")
    return FigureStill(
        "table_vs_rotation", "From GPT-2 to LLaMA: a table with a last row, rotations with none",
        {"T": table, "W": wl}, mosaic="TW", size=(7.0, 4.3), width_ratios=(1.0, 1.25),
        subtitle=(f"left: every {ordinal(rows[1] - rows[0])} row and {ordinal(cols[1] - cols[0])} feature of "
                  f"{g.name}'s {count(data.n_params)} position parameters, as Hugging Face initialises them ($N(0, 0.02^2)$); right: $\\lambda_i = 2\\pi\\,b^{{2i/d}}$"),
        proof=(table_proof(data),), proof_color="accent",
    )


__all__ = ["CLIFF_COLORS", "CLIFF_ROLES", "FAMILY_CMAP", "base_colors", "base_figure", "base_relation", "cliff_proof", "decades", "first_missing", "hex_of",
           "no_row_text", "onset_text", "onsets_line", "ordinal", "share_percent", "twins_line", "power_range", "sample_rows", "table_proof",
           "table_scale", "width_colors", "width_ramp_words"]
