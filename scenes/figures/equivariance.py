"""Designed stills of the equivariance clips: 02 permutation equivariance, 06 causality breaks it,
07 same words, same outputs.  Each reads the clip's ``build_data`` and colours with the clip's rules."""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import (
    BarGroup,
    Bars,
    FigureStill,
    Heatmap,
    Line,
    Plot,
    Rule,
    Series,
    Custom,
    Span,
    Text,
    count,
    sci,
)
from scenes.kit.theme import ColorScale

from . import still


def tokens(idx, name: str = "x") -> tuple[str, ...]:
    return tuple(f"${name}_{{{int(k)}}}$" for k in idx)


def token_roles(idx) -> tuple[str, ...]:
    return tuple(f"token:{int(k)}" for k in idx)


def log_floor(values, lowest: int = -17) -> int:
    """The clips' floor exponent for a log axis of tiny defects: a decade under the smallest
    positive value, at most ``lowest``, made even (so ``1e-10`` gets a tick)."""
    v = np.asarray(values, float)
    pos = v[v > 0]
    lo = int(np.floor(np.log10(float(pos.min())))) - 1 if pos.size else lowest - 1
    lo = min(lo, lowest)
    return lo - lo % 2


def pow10(e: int) -> str:
    return f"$10^{{{e}}}$"


# ====================================================================== 02
def weight_scale(data) -> ColorScale:
    """Clip 02's weights scale: [0, the largest weight] (``ColorScale.for_weights``)."""
    return ColorScale.for_weights(data.cmap, data.A)


@still("PermutationEquivariance")
def shuffled(data, cfg) -> FigureStill:
    """02 · A's rows and columns travel to P A Pᵀ; over many random P the defect stays at rounding."""
    T = data.X.shape[0]
    perm = [int(k) for k in data.perm]
    w = weight_scale(data)
    top = w.norm.vmax
    ticks = (0.0, top / 2, top)
    A = Heatmap(data.A, w, title=r"$A$: weights of $\mathrm{Attn}(X)$", annotate=T <= 6, colorbar=None,
                xticks=tokens(range(T)), xtick_colors=token_roles(range(T)),
                yticks=tokens(range(T)), ytick_colors=token_roles(range(T)))
    B = Heatmap(data.A_PX, w, title=r"weights of $\mathrm{Attn}(PX) = P A P^{\top}$", annotate=T <= 6,
                colorbar="weight", cbar_ticks=ticks, cbar_ticklabels=tuple(f"{v:.2g}" for v in ticks),
                xticks=tokens(perm), xtick_colors=token_roles(perm), yticks=tokens(perm), ytick_colors=token_roles(perm))
    run = data.run
    n = len(run.defects)
    trials = np.arange(1, n + 1)
    lo = log_floor(run.defects)
    floor = 10.0 ** lo
    zeros = run.defects == 0.0
    series = [Series(np.where(zeros, np.nan, run.defects), trials, "defect of each $P$", "blue", "dots", width=1.6),
              Series(run.running_max, trials, "running maximum", "accent", "step", width=2.0)]
    if zeros.any():
        series.append(Series(np.full(zeros.sum(), floor * 3), trials[zeros], "exactly 0.0", "fg", "dots", width=2.0,
                             marker="D", hollow=True))
    C = Plot(tuple(series), xlabel="random permutation", ylabel=r"$\|\mathrm{Attn}(PX) - P\,\mathrm{Attn}(X)\|_F$",
             y_log=True, ylim=(floor, 1e-8), yticks=tuple(10.0 ** e for e in range(lo, -7, 2)),
             yticklabels=tuple(pow10(e) for e in range(lo, -7, 2)), xlim=(0, n + 1),
             hlines=(Rule(run.threshold, f"pass line {pow10(int(round(np.log10(run.threshold))))}", "bad"),),
             legend="center right")
    verdict = "far below" if run.passed else "ABOVE"
    proof = [rf"$\max\ \|\mathrm{{Attn}}(PX) - P\,\mathrm{{Attn}}(X)\|_F$ over {count(n)} random $P$ = "
             f"{sci(run.max_defect)}, {verdict} {pow10(int(round(np.log10(run.threshold))))}"]
    if data.zero_trials:
        proof.append(f"exactly 0.0 for {count(data.zero_trials)} of {count(n)} $P$: "
                     "row-wise steps and sums in a new order leave only rounding")
    return FigureStill(
        "shuffled", "Permute the input, and self-attention permutes its output",
        {"A": A, "B": B, "C": C}, mosaic="AB;CC", size=(7.0, 6.2), height_ratios=(1.25, 1.0),
        subtitle=f"perm = {perm}: the rows and the columns of $A$ travel together; $Y$'s rows move the same way",
        proof=tuple(proof), proof_color="good" if run.passed else "bad",
    )


# ====================================================================== 06
@still("CausalBreaksEquivariance")
def swap_defects(data, cfg) -> FigureStill:
    """06 · Swap a future token into the past: causal rows i..j change, self-attention only rounds."""
    r = data.report
    T = len(r.perm)
    rows = tuple(f"row {t}" for t in range(T))
    values = np.concatenate([r.causal_rows, r.self_rows])
    lo = log_floor(values, lowest=-18)
    spans = []
    if r.i > 0:
        spans.append(Span(-0.5, r.i - 0.5, "same past", "good", 0.07))
    spans.append(Span(r.i - 0.5, r.j + 0.5, "a different past", "bad", 0.08))
    if r.j + 1 < T:
        spans.append(Span(r.j + 0.5, T - 0.5, "all tokens", "good", 0.07))
    chart = Bars(rows, (
        BarGroup("self-attention", r.self_rows, "blue"),
        BarGroup("causal", r.causal_rows, "bad", value_labels=True),
    ), ylabel=r"$\|\mathrm{Attn}(PX)_t - (P\,\mathrm{Attn}(X))_t\|$", y_log=True, ylim=(10.0 ** lo, 30.0),
        hlines=(Rule(data.threshold, f"pass line {pow10(int(round(np.log10(data.threshold))))}", "dim",
                     label_at="left"),),
        spans=tuple(spans), legend="above")
    mask = Custom(lambda ax, th: draw_mask(ax, th, data.mask, r.perm), title="causal row $t$ sees slots $0 \\ldots t$",
                  data=(data.mask, r.perm))
    causal_ok = r.causal_total < data.threshold
    return FigureStill(
        "swap_defects", "Causality breaks permutation equivariance",
        {"M": mask, "B": chart}, mosaic="MB", size=(7.0, 4.3), width_ratios=(1.0, 2.3),
        subtitle=(f"swap $x_{{{r.i}}} \\leftrightarrow x_{{{r.j}}}$: a future token moves into the past; "
                  "the defect of every output row"),
        proof=(f"total $\\|\\cdot\\|_F$: causal {sci(r.causal_total)}, self-attention {sci(r.self_total)} "
               "on the same $P$",),
        proof_color="bad" if not causal_ok else "good",
    )


def draw_mask(ax, th, mask, perm) -> None:
    """Which slots each causal row sees after the swap: seen cells in the colour of the token now in
    that slot (the clip's mask grid), unseen ones blank."""
    from matplotlib.patches import Rectangle

    T = mask.shape[0]
    ax.set_axis_on()
    for s in ax.spines.values():
        s.set_visible(False)
    for i in range(T):
        for j in range(T):
            seen = bool(mask[i, j])
            ax.add_patch(Rectangle((j - 0.44, i - 0.44), 0.88, 0.88, linewidth=0,
                                   facecolor=th.color(f"token:{int(perm[j])}") if seen else th.masked,
                                   alpha=0.85 if seen else 1.0))
    ax.set_xlim(-0.5, T - 0.5)
    ax.set_ylim(T - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(T), tokens(perm))
    for t, k in zip(ax.get_xticklabels(), perm):
        t.set_color(th.color(f"token:{int(k)}"))
    ax.xaxis.set_ticks_position("top")
    ax.set_yticks(range(T), [f"row {t}" for t in range(T)])
    ax.tick_params(length=0)


# ====================================================================== 07
def word_roles(data, words) -> tuple[str, ...]:
    return tuple(f"token:{data.vocab.index(w)}" for w in words)


@still("SameMultiset")
def same_words(data, cfg) -> FigureStill:
    """07 · The same words in another order: matched outputs and pooled vectors coincide; with
    sinusoidal positions they separate by a measured gap."""
    scale_y = ColorScale(data.cmap, -data.vmax_y, data.vmax_y)
    scale_pos = ColorScale(data.cmap, -data.vmax_pos, data.vmax_pos)
    a, b = data.tokens_a, data.tokens_b
    d = data.table.shape[1]
    feats = tuple(str(j) for j in range(d))

    def outputs(cmp, Y, pooled, words, scale, title, bar):
        return Heatmap(np.vstack([Y, pooled]), scale, title=title, annotate=False, colorbar="output" if bar else None,
                       yticks=(*words, "mean"), ytick_colors=(*word_roles(data, words), "dim"), xticks=feats,
                       boxes=(Box_mean(len(words), d),))

    p, q = data.plain, data.positioned
    panels = {
        "A": outputs(p, p.Y_a, p.pooled_a, a, scale_y, f"“{' '.join(a)}”", False),
        "B": outputs(p, p.Y_b, p.pooled_b, b, scale_y, f"“{' '.join(b)}”", True),
        "C": outputs(q, q.Y_a, q.pooled_a, a, scale_pos, "+ positions", False),
        "D": outputs(q, q.Y_b, q.pooled_b, b, scale_pos, "+ positions", True),
        "N": Text((
            Line("without positions", size=11, weight="bold"),
            Line(f"matched tokens differ by at most {sci(p.max_diff)}", size=10, space_before=3),
            Line(f"sentence means differ by {sci(p.pooled_gap)}", size=10, space_before=2),
            Line("the same outputs, in another order", size=10, color="good", space_before=4),
        ), valign="center"),
        "M": Text((
            Line("with sinusoidal positions", size=11, weight="bold"),
            Line(f"matched tokens differ by up to {sci(q.max_diff)}", size=10, space_before=3),
            Line(f"sentence means differ by {sci(q.pooled_gap)}", size=10, space_before=2),
            Line("word order becomes visible", size=10, color="accent", space_before=4),
        ), valign="center"),
    }
    return FigureStill(
        "same_words", "Same words, same outputs: attention alone cannot see word order", panels,
        mosaic="ABN;CDM", size=(7.0, 5.6), width_ratios=(1.0, 1.0, 1.25),
        subtitle="self-attention outputs of both sentences (rows: tokens, then their mean), one embedding table",
        proof=(f"matched outputs: max $|\\Delta|$ = {sci(p.max_diff)} without positions, "
               f"{sci(q.max_diff)} with them",),
        proof_color="good",
    )


def Box_mean(T: int, d: int):
    from scenes.kit.stills import Box

    return Box((T, T), (0, d - 1), color="dim", width=1.6)
