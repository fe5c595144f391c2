"""Designed stills of the extrapolation clips: 12 positional dilution, 13 the extrapolation cliff,
14 from GPT-2 to LLaMA."""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import Box, FigureStill, Heatmap, Note, Plot, Rule, Series, Span, count
from scenes.kit.theme import ColorScale

from . import still

CURVE_COLORS = ("blue", "accent", "purple", "good", "bad")  # one per width (clip 12)
BASE_COLORS = ("blue", "purple")  # clip 14: LLaMA-2's and LLaMA-3's bases


def ordinal(n: int) -> str:
    """``32nd``, ``64th``, ``1st``, ``11th``."""
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ====================================================================== 12
@still("PositionalDilution")
def dilution(data, cfg) -> FigureStill:
    """12 · cos(P[0], P[t]) on a log t axis for each width, every computed sample; the onset t* past
    which a position twice as far is just as similar (measured)."""
    series, notes = [], []
    order = sorted(range(len(data.widths)), key=lambda k: (data.widths[k], k))
    for j, k in enumerate(order):
        col = CURVE_COLORS[j % len(CURVE_COLORS)]
        series.append(Series(data.cos[k], data.t, f"$d$ = {data.widths[k]}", col, width=1.1))
        o = data.onsets[k]
        if o.t is not None:
            series.append(Series(np.array([o.cos_t, o.cos_witness]), np.array([o.t, o.witness]), "", col, "dots",
                                 width=2.4))
            notes.append(Note(f"$t^*$ = {count(o.t)}", (o.t, o.cos_t), (-8, -22 - 12 * j), col, arrow=True, ha="right"))
    t_max = int(data.t[-1])
    onsets = ", ".join(f"{count(o.t)} ($d$ = {w})" if o.t is not None else f"none ($d$ = {w})"
                       for w, o in ((data.widths[k], data.onsets[k]) for k in order))
    plot = Plot(tuple(series), xlabel="position $t$", ylabel=r"$\cos(P[0],\,P[t])$", x_log=True,
                xlim=(1, t_max), notes=tuple(notes), legend="lower left")
    return FigureStill(
        "dilution", "Positional dilution: far positions blur together", {"A": plot}, size=(7.0, 4.2),
        subtitle=(f"similarity of sinusoidal position $t$ to position 0, every $t$ up to {count(t_max)} "
                  f"(base {data.base:g}); dots: $t^*$ and a position ≥{data.factor:g}× as far, just as similar"),
        proof=(f"measured $t^*$: {onsets}",), proof_color="accent",
    )


# ====================================================================== 13
def _lane(title: str, L: int, x_max: int, n_max: int | None, untrained: str, color: str) -> Plot:
    """One scheme's lane over the positions: trained, then what lies past training (and a wall)."""
    spans = [Span(1, L, f"trained: 0 to {L - 1}", "good", 0.3, label_y=0.5)]
    end = x_max if n_max is None else n_max
    if end > L:
        spans.append(Span(L, end, untrained, color, 0.16, label_y=0.5))
    vlines = ()
    if n_max is not None:
        spans.append(Span(n_max, x_max, f"no row ≥ {count(n_max)}", "bad", 0.06, label_y=0.5))
        vlines = (Rule(n_max, "", "bad", "-"),)
    return Plot((), title=title, x_log=True, xlim=(1, x_max), ylim=(0, 1), yticks=(), spans=tuple(spans),
                vlines=vlines, legend="", grid=False, x_labels=False)


@still("ExtrapolationCliff")
def cliff(data, cfg) -> FigureStill:
    """13 · Past the training length L: the learned table hits a wall at n_max, sinusoidal values are
    defined but never seen, and RoPE's slow pairs move to angles never seen in training (counted)."""
    L, n_max, x_max = data.train_length, data.n_max, data.x_max
    lanes = {
        "A": _lane("learned absolute: a table of rows", L, x_max, n_max, "never trained", "dim"),
        "B": _lane("sinusoidal: a formula", L, x_max, None, "defined, never seen", "accent"),
    }
    stops = np.array(data.stops[1:])
    counts = np.array(data.stop_counts[1:], dtype=float)
    readout = ("unseen pairs, of " + str(data.n_pairs) + ":",
               *(f"$m$ = {count(m)}: {int(c)}" for m, c in zip(stops, counts)))
    lanes["C"] = Plot(
        (Series(data.unseen, data.positions, "RoPE pairs at unseen angles", "purple", "step", width=1.6),
         Series(counts, stops, "", "purple", "dots", width=2.6)),
        title=f"RoPE (head dim {data.head_dim}): pairs at angles never seen in training", x_log=True,
        xlim=(1, x_max), ylim=(0, data.n_pairs), xlabel="position $m$", ylabel=f"pairs of {data.n_pairs}",
        vlines=(Rule(L, f"$L$ = {count(L)}", "good", ":"), Rule(n_max, f"$n_{{\\max}}$ = {count(n_max)}", "bad", "-")),
        spans=(Span(L, x_max, "", "purple", 0.06),), legend="", box=readout, box_loc="upper left",
        box_color="purple")
    err = data.report.learned_error
    return FigureStill(
        "cliff", "The extrapolation cliff: a wall for the table, a quiet cliff for the formulas", lanes,
        mosaic="A;B;C", size=(7.0, 5.2), height_ratios=(0.26, 0.26, 1.5), hspace=0.1,
        subtitle=f"trained on positions 0 to {L - 1}; every scheme asked for positions up to {count(x_max)}",
        proof=(f"RoPE pairs at unseen angles: {int(data.stop_counts[1])} of {data.n_pairs} one step past training, "
               f"{int(data.stop_counts[-1])} at $m$ = {count(x_max)}",
               f"learned table: “{err}”" if err else "learned table: every position has a row"),
        proof_color="bad",
    )


# ====================================================================== 14
def table_scale(data) -> ColorScale:
    """Clip 14's scale: symmetric over the whole GPT-2 table."""
    return ColorScale.symmetric(data.cmap, data.table)


@still("GPT2ToLLaMA")
def table_vs_rotation(data, cfg) -> FigureStill:
    """14 · GPT-2's learned table (n_max rows: a last row) beside LLaMA's RoPE (no table, no cap):
    the wavelength of every pair at both bases, and the pairs that never turn within training."""
    g, l2, l3 = data.gpt2, data.llama2, data.llama3
    scale = table_scale(data)
    rows, cols = data.sample_rows, data.sample_cols
    sample = data.table[np.ix_(rows, cols)]
    step = max(1, len(rows) // 4)
    table = Heatmap(sample, scale, title=f"{g.name}: learned table ({count(g.n_max)} × {g.d_model})",
                    colorbar="entry", yticks=tuple(str(int(r)) for r in rows), xticks=tuple(str(int(c)) for c in cols),
                    tick_step=step, ylabel="position (row)", xlabel="feature", aspect="auto", grid=False,
                    note=f"no row {count(g.n_max)}: the lookup fails", note_color="bad",
                    # a zero-height box: the table's end drawn as a rule under its last row (the clip's cap line)
                    boxes=(Box((len(rows), len(rows) - 1), (0, len(cols) - 1), "bad", width=4.0),))
    i = np.arange(data.n_pairs)
    first_slow = data.n_pairs - data.slow_pairs
    wl = Plot((
        Series(data.wavelengths[0], i, f"{l2.name}: base {count(l2.rope_base)}", BASE_COLORS[0], width=2.2),
        Series(data.wavelengths[1], i, f"{l3.name}: base {count(l3.rope_base)}", BASE_COLORS[1], width=2.2),
    ), title="LLaMA: RoPE, no table, no cap", xlabel=f"pair $i$ (head dim {l2.head_dim})",
        ylabel="positions per full turn", y_log=True, xlim=(0, data.n_pairs - 1),
        hlines=(Rule(l2.train_length, f"{l2.name} trained to {count(l2.train_length)}", "good"),),
        spans=(Span(first_slow - 0.5, data.n_pairs - 1, f"{data.slow_pairs} pairs\nnever turn", "bad", 0.08,
                    label_y=0.1),),
        legend="upper left")
    return FigureStill(
        "table_vs_rotation", "From GPT-2 to LLaMA: a table with a last row, rotations with none",
        {"T": table, "W": wl}, mosaic="TW", size=(7.0, 4.3), width_ratios=(1.0, 1.25),
        subtitle=(f"left: every {ordinal(rows[1] - rows[0])} row and {ordinal(cols[1] - cols[0])} feature of "
                  f"{g.name}'s {count(data.n_params)} position parameters; right: $\\lambda_i = 2\\pi\\,b^{{2i/d}}$"),
        proof=(f"{g.name}: {count(g.n_max)} rows, row {count(g.n_max)} does not exist; RoPE: defined at any $m$ "
               f"({data.slow_pairs} of {data.n_pairs} {l2.name} pairs never turn within its training)",),
        proof_color="accent",
    )
