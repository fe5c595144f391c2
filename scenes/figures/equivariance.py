"""Clips 02, 06 and 07's pictures, described once for the clip and its still, and the stills.

Each clip's data carries a picture description built here (:func:`picture02`, :func:`picture06`,
:func:`picture07`): the one colour scale of every quantity it colours, the log axes of its
measured defects, and its formulas and proof lines (Typst for the clip, mathtext for the still).
The clips (``scenes/equivariance.py``) draw with these; the stills below paint the same arrays
with the same scales and print the same proofs.
"""

from __future__ import annotations

import math as _m
from dataclasses import dataclass

import numpy as np

from scenes.kit.numbers import nice_count_ticks
from scenes.kit.notation import N
from scenes.kit.numbers import tick
from scenes.kit.numbers import count, log_ticks, measure
from scenes.stills.spec import CellBox, DrawnPanel, FigureStill, HeatmapPanel, TextLine, PlotPanel, Rule, Series, TextPanel
from scenes.stills.text import sci
from scenes.kit.theme import ColorScale

from . import still


# ====================================================================== shared pieces
@dataclass(frozen=True)
class Formula:
    """One formula in the clip's Typst and the still's mathtext."""

    typst: str
    tex: str


def mathtext(x) -> str:
    """A measured figure as mathtext to set inside a formula (``stills.sci`` without its ``$``):
    ``0``, ``0.83``, ``\\approx 2.2\\times10^{-16}``, ``10^{-10}``."""
    f = x if hasattr(x, "math") else measure(x)
    if f.exact:
        return "0"
    return sci(f.value).strip("$").replace("\u2212", "-").replace("\u2009", r"\,")


def relation(prefix: str, x) -> str:
    """``prefix`` and the figure ``x`` on one Typst line: ``prefix = 0.83``, or ``prefix ≈ 2.2 × 10⁻¹⁶``
    (the ≈ takes the place of the =)."""
    f = x if hasattr(x, "math") else measure(x)
    return f"{prefix} {f.math}" if f.approx else f"{prefix} = {f.math}"


def tex_relation(prefix: str, x) -> str:
    """:func:`relation` in mathtext (without the ``$``)."""
    f = x if hasattr(x, "math") else measure(x)
    return f"{prefix} {mathtext(f)}" if f.approx else f"{prefix} = {mathtext(f)}"


def exponent(threshold: float) -> int:
    """The power of ten of a pass line (``1e-10`` -> ``-10``)."""
    return int(round(_m.log10(threshold)))


def floor_exponent(values, below: int) -> int:
    """A decade under the smallest positive value, and at most ``below``."""
    v = np.asarray(values, dtype=float)
    pos = v[v > 0]
    lo = int(np.floor(np.log10(float(pos.min())))) - 1 if pos.size else below
    return min(lo, below)


DEFECT = Formula("norm(\"Attn\"(P X) - P dot \"Attn\"(X))_F", r"\|\mathrm{Attn}(PX) - P\,\mathrm{Attn}(X)\|_F")
EQUIVARIANT = Formula("\"Attn\"(P X) = P dot \"Attn\"(X)", r"\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)")


# ====================================================================== 02
@dataclass(frozen=True)
class Picture02:
    """What clip 02 and its still show besides the arrays: the deck's weights scale (A, linear from 0 to 1,
    as in every clip that shows weights) and outputs scale (Y as coloured cells), the defect axis (exponents
    of the log axis and its ticks), the formulas, and the verdict over the trials."""

    weights: ColorScale
    weight_ticks: tuple[float, ...]  # the weights' colour bar
    outputs: ColorScale
    axis: tuple[int, int]  # 10^lo .. 10^hi
    ticks: tuple[int, ...]  # exponents labelled; the pass line's among them
    weights_formula: Formula
    outputs_formula: Formula
    row_sum: Formula  # one output row as a weighted sum over the tokens (the picture of why)
    max_line: Formula  # max over the trials, with its figure
    max_note: str  # what the maximum is taken over, in words
    verdict_formula: Formula  # the verdict's formula: max over the trials of the defect
    passed: bool


def picture02(defects, max_defect: float, threshold: float, cfg) -> Picture02:
    from scenes.kit.scales import scale

    k = exponent(threshold)
    lo = floor_exponent(defects, k - 7)
    lo -= (k - lo) % 2  # ticks every second decade down from the pass line land on the floor
    n = len(defects)
    # a student's defects past the pass line (`clips render --student`): the axis reaches a decade over the largest
    top = max(k + 1, int(np.ceil(np.log10(max_defect))) + 1) if max_defect > 0 else k + 1
    weights = scale("weights", cfg)
    m = N.position.math
    return Picture02(
        weights=weights, weight_ticks=tuple(weights.ticks(2)), outputs=scale("outputs", cfg),
        axis=(lo, top), ticks=tuple(log_ticks(lo, k) if top == k + 1 else log_ticks(lo, top - 1)),
        weights_formula=Formula("A = \"softmax\"(Q K^T \\/ sqrt(d))", r"A = \mathrm{softmax}(QK^{\top}/\sqrt{d})"),
        outputs_formula=Formula("Y = A V", "Y = AV"),
        row_sum=Formula(f"y_{m} = sum_n A_({m} n) v_n", rf"y_{m} = \sum_n A_{{{m}n}}\, v_n"),
        max_line=Formula(relation("max", max_defect), tex_relation(r"\max", max_defect)),
        max_note=f"over {count(n).text} random permutations",
        verdict_formula=Formula(f"max_P {DEFECT.typst}", rf"\max_P {DEFECT.tex}"),
        passed=bool(max_defect < threshold),
    )


def tokens(idx, name: str = "x") -> tuple[str, ...]:
    return tuple(f"${name}_{{{int(k)}}}$" for k in idx)


def token_roles(idx) -> tuple[str, ...]:
    return tuple(f"token:{int(k)}" for k in idx)


def cbar_labels(ticks) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """Colour-bar ticks as the clip prints them, as still tick labels."""
    from scenes.kit.numbers import tick

    return tuple(ticks), tuple(tick(v).replace("\u2212", "-") for v in ticks)


@still("PermutationEquivariance")
def shuffled(data, cfg) -> FigureStill:
    """02 · A's rows and columns travel to P A Pᵀ; over many random P the defect stays at rounding."""
    pic = data.picture
    T = data.X.shape[0]
    perm = [int(k) for k in data.perm]
    w = pic.weights
    ticks, labels = cbar_labels(pic.weight_ticks)
    A = HeatmapPanel(data.A, w, title="$A$", annotate=T <= 6, colorbar=None,
                xticks=tokens(range(T)), xtick_colors=token_roles(range(T)),
                yticks=tokens(range(T)), ytick_colors=token_roles(range(T)))
    B = HeatmapPanel(data.A_PX, w, title=r"weights of $\mathrm{Attn}(PX) = P A P^{\top}$", annotate=T <= 6,
                colorbar="weight", cbar_ticks=ticks, cbar_ticklabels=labels,
                xticks=tokens(perm), xtick_colors=token_roles(perm), yticks=tokens(perm), ytick_colors=token_roles(perm))
    run = data.run
    n = len(run.defects)
    trials = np.arange(1, n + 1)
    lo, hi = pic.axis
    floor = 10.0 ** lo
    zeros = run.defects == 0.0
    series = [Series(np.where(zeros, np.nan, run.defects), trials, "defect of each $P$", "dim", "dots", width=1.6),
              Series(run.running_max, trials, "running maximum", "accent", "step", width=2.0)]
    if zeros.any():
        series.append(Series(np.full(zeros.sum(), floor * 3), trials[zeros], "exactly 0", "fg", "dots", width=2.0,
                             marker="D", hollow=True))
    C = PlotPanel(tuple(series), xlabel="random permutation", ylabel=f"${DEFECT.tex}$",
             y_log=True, ylim=(floor, 10.0 ** hi), yticks=tuple(10.0 ** e for e in pic.ticks),
             yticklabels=tuple(f"$10^{{{e}}}$" for e in pic.ticks), xlim=(0, n + 1),
             xticks=tuple(float(t) for t in nice_count_ticks(n)), xticklabels=tuple(tick(t) for t in nice_count_ticks(n)),
             hlines=(Rule(run.threshold, "pass line", "dim"),), legend="center right")
    mark = "\u2713" if run.passed else "\u2717"
    proof = [f"{mark} ${tex_relation(pic.verdict_formula.tex, run.max_defect)}$ {pic.max_note}, "
             f"{'far below' if run.passed else 'above'} the pass line {sci(run.threshold)}"]
    if data.zero_trials:
        proof.append(f"exactly 0 for {count(data.zero_trials).text} of {count(n).text} random permutations")
    return FigureStill(
        "shuffled", "Permute the input, and self-attention permutes its output",
        {"A": A, "B": B, "C": C}, mosaic="AB;CC", size=(7.0, 6.2), height_ratios=(1.25, 1.0),
        subtitle=(r"$\pi$ = (" + ", ".join(map(str, perm)) + "): "
                  "the rows and the columns of $A$ travel together; $Y$'s rows move the same way"),
        proof=tuple(proof), proof_color="good" if run.passed else "bad",
    )


# ====================================================================== 06
@dataclass(frozen=True)
class Picture06:
    """What clip 06 and its still show besides the defects: the log axis of the per-row defects
    (exponents and ticks, the pass line's among them), the row defect's formula, and the totals."""

    axis: tuple[int, int]
    ticks: tuple[int, ...]
    row_formula: Formula
    causal_prefix: str  # Typst before the causal total's figure (the clip typesets the figure after it)
    self_prefix: str
    causal_total: Formula
    self_total: Formula


def picture06(causal_rows, self_rows, causal_total: float, self_total: float, threshold: float) -> Picture06:
    k = exponent(threshold)
    step = 5  # decades between ticks, from the pass line
    v = np.concatenate([causal_rows, self_rows])
    lo = floor_exponent(v, k - 2 * step)
    lo = k - step * _m.ceil((k - lo) / step)
    top = float(np.max(v)) if np.max(v) > 0 else 1.0
    hi = max(0, k + step * _m.ceil((np.log10(top) - k) / step))
    m = N.position.math
    return Picture06(
        axis=(lo, hi), ticks=tuple(range(lo, hi + 1, step)),
        row_formula=Formula(f"norm(\"Attn\"(P X)_{m} - (P dot \"Attn\"(X))_{m})",
                            rf"\|\mathrm{{Attn}}(PX)_{m} - (P\,\mathrm{{Attn}}(X))_{m}\|"),
        # each verdict names the matrix it measures (the bars it sums are gone by the close)
        causal_prefix="\"causal:\" norm(\"Attn\"_\"causal\" (P X) - P dot \"Attn\"_\"causal\" (X))_F",
        self_prefix="\"self:\" norm(\"Attn\"(P X) - P dot \"Attn\"(X))_F",
        causal_total=Formula(relation("\"causal:\" norm(dot)_F", causal_total),
                             tex_relation(r"\mathrm{causal}:\ \|\cdot\|_F", causal_total)),
        self_total=Formula(relation("\"self:\" norm(dot)_F", self_total),
                           tex_relation(r"\mathrm{self}:\ \|\cdot\|_F", self_total)),
    )


@still("CausalBreaksEquivariance")
def swap_defects(data, cfg) -> FigureStill:
    """06 · Swap a future token into the past: causal rows i..j change, self-attention only rounds."""
    r, pic = data.report, data.picture
    mask = DrawnPanel(lambda ax, th: draw_mask(ax, th, data.mask, r.perm), title="causal row $m$ sees slots $0 \\ldots m$",
                      data=(data.mask, r.perm))
    self_chart = DrawnPanel(lambda ax, th: draw_rows(ax, th, r.self_rows, data.threshold, pic, "self-attention",
                                                     names=False),
                            title="", data=r.self_rows)
    causal_chart = DrawnPanel(lambda ax, th: draw_rows(ax, th, r.causal_rows, data.threshold, pic, "causal attention",
                                                       names=False),
                              title="", data=r.causal_rows)
    lines = []
    for name, total in (("causal", r.causal_total), ("self", r.self_total)):
        mark = "\u2713" if total < data.threshold else "\u2717"
        rel = tex_relation(r"\mathrm{" + name + r"}:\ \|\cdot\|_F", total)
        lines.append(f"{mark} ${rel}$" + ("  exact" if total == 0.0 else ""))
    return FigureStill(
        "swap_defects", "Causality breaks permutation equivariance",
        {"M": mask, "S": self_chart, "C": causal_chart}, mosaic="MSC", size=(7.0, 4.3), width_ratios=(1.0, 1.1, 1.1),
        subtitle=(f"swap $x_{{{r.i}}} \\leftrightarrow x_{{{r.j}}}$: a future token moves into the past; "
                  f"${pic.row_formula.tex}$ for every output row $m$: "
                  r"$\mathrm{Attn}_{\mathrm{causal}}(PX) \neq P\,\mathrm{Attn}_{\mathrm{causal}}(X)$"),
        proof=tuple(lines), proof_color="fg",  # one verdict of each kind: the marks say which
    )


def draw_rows(ax, th, rows, threshold, pic, name: str, names: bool = True) -> None:
    """The clip's chart: row m from the top, one bar per output row on a log axis, in the failed colour
    where it reaches the dashed pass line; exact zeros as hollow diamonds on the floor, marked 0; the
    series named under its axis."""
    lo, hi = pic.axis
    T = len(rows)
    ax.set_axis_on()
    ax.set_xscale("log")
    ax.set_xlim(10.0 ** lo, 10.0 ** hi)
    ax.set_ylim(T - 0.5, -0.5)
    for m, x in enumerate(rows):
        c = th.color("bad" if x >= threshold else "fg")
        if x == 0.0:
            ax.scatter([10.0 ** lo * 3], [m], marker="D", s=30, facecolors="none", edgecolors=th.fg, clip_on=False)
            ax.annotate("0", (10.0 ** lo * 3, m), xytext=(6, 0), textcoords="offset points", va="center", color=th.fg,
                        fontsize=9)
            continue
        ax.barh(m, x - 10.0 ** lo, left=10.0 ** lo, height=0.56, color=c, linewidth=0)
    ax.axvline(threshold, color=th.dim, linestyle="--", linewidth=1.2)
    ax.annotate("pass line", (threshold, T - 1), xytext=(4, 0), textcoords="offset points", ha="left", va="center",
                color=th.dim, fontsize=9)  # beside the last row, which only rounds (it sees every token either way)
    ticks = pic.ticks if len(pic.ticks) <= 3 else pic.ticks[::2]
    ax.set_xticks([10.0 ** e for e in ticks], [f"$10^{{{e}}}$" for e in ticks])
    ax.set_xlabel(name)
    ax.set_yticks(range(T), [f"row {m}" for m in range(T)] if names else [""] * T)
    ax.tick_params(axis="y", length=0)


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
@dataclass(frozen=True)
class Picture07:
    """What clip 07 and its still show besides the arrays: the deck's one scale for the sentences' vectors (the
    table's rows, with and without positions, the positions' encodings added to them, the outputs with and without
    positions, and their means: a signed square-root stretch, so a crowd of small outputs still reads beside one
    large one, and an input and the output it becomes read on one bar), and the two comparisons the clip ends on,
    each a verdict of "the matched outputs are equal".  ``inputs`` and ``outputs`` are that one scale."""

    inputs: ColorScale
    outputs: ColorScale
    delta: str  # the measured difference's Typst (the column head, and before each figure)
    plain_line: Formula  # max |Δ| of the matched outputs without positions
    positioned_line: Formula  # and with them
    plain_equal: bool  # the matched outputs are equal (up to rounding) without positions
    positioned_equal: bool  # and with them


def picture07(table, plain, positioned, cfg, threshold: float = 1e-10) -> Picture07:
    from scenes.kit.scales import scale

    d = "max abs(Delta)"
    vectors = scale("sentence vectors", cfg, [table, plain.X_a, plain.X_b, positioned.X_a - plain.X_a, positioned.X_a,
                                              positioned.X_b, plain.Y_a, plain.Y_b, plain.pooled_a, plain.pooled_b,
                                              positioned.Y_a, positioned.Y_b, positioned.pooled_a, positioned.pooled_b])
    return Picture07(
        # one scale for everything the sentences carry: the positions' encodings too (they are added to the inputs)
        inputs=vectors, outputs=vectors,
        delta=d,
        plain_line=Formula(relation(d, plain.max_diff), tex_relation(r"\max\,|\Delta|", plain.max_diff)),
        positioned_line=Formula(relation(d, positioned.max_diff), tex_relation(r"\max\,|\Delta|", positioned.max_diff)),
        plain_equal=bool(plain.max_diff < threshold), positioned_equal=bool(positioned.max_diff < threshold),
    )


def word_roles(data, words) -> tuple[str, ...]:
    return tuple(f"token:{data.vocab.index(w)}" for w in words)


@still("SameMultiset")
def same_words(data, cfg) -> FigureStill:
    """07 · The same words in another order: matched outputs coincide; with sinusoidal positions
    they separate by a measured gap."""
    pic = data.picture
    scale = pic.outputs
    a, b = data.tokens_a, data.tokens_b
    d = data.table.shape[1]
    feats = tuple(str(j) for j in range(d))
    T = len(b)

    def outputs(Y, pooled, words, title, bar):
        ticks, labels = cbar_labels(scale.ticks())
        return HeatmapPanel(np.vstack([Y, pooled]), scale, title=title, annotate=False, colorbar="output (square-root scale)" if bar else None,
                       cbar_ticks=ticks, cbar_ticklabels=labels,
                       yticks=(*words, "mean"), ytick_colors=(*word_roles(data, words), "dim"), xticks=feats,
                       boxes=(CellBox((T, T), (0, d - 1), color="dim", width=1.6),))

    p, q = data.plain, data.positioned
    delta = r"\max\,|\Delta|"
    means_p, means_q = tex_relation(delta, p.pooled_gap), tex_relation(delta, q.pooled_gap)
    panels = {
        "A": outputs(p.Y_a, p.pooled_a, a, f"“{' '.join(a)}”", False),
        "B": outputs(p.Y_b, p.pooled_b, b, f"“{' '.join(b)}”", True),
        "C": outputs(q.Y_a, q.pooled_a, a, "+ positions", False),
        "D": outputs(q.Y_b, q.pooled_b, b, "+ positions", True),
        "N": TextPanel((
            TextLine("without positions", size=11, weight="bold"),
            TextLine(f"{_mark(pic.plain_equal)} matched tokens: ${pic.plain_line.tex}$", size=10, space_before=3),
            TextLine(f"sentence means: ${means_p}$", size=10, space_before=2),
            TextLine("the same outputs, in another order", size=10, space_before=4),
        ), valign="center"),
        "M": TextPanel((
            TextLine("with sinusoidal positions", size=11, weight="bold"),
            TextLine(f"{_mark(pic.positioned_equal)} matched tokens: ${pic.positioned_line.tex}$", size=10,
                     space_before=3),
            TextLine(f"sentence means: ${means_q}$", size=10, space_before=2),
            TextLine("word order becomes visible", size=10, space_before=4),
        ), valign="center"),
    }
    return FigureStill(
        "same_words", "Same words, same outputs: attention alone cannot see word order", panels,
        mosaic="ABN;CDM", size=(7.0, 5.6), width_ratios=(1.0, 1.0, 1.25),
        subtitle="self-attention outputs of both sentences (rows: tokens, then their mean), one embedding table",
        proof=(f"{_mark(pic.plain_equal)} matched outputs equal without positions: ${pic.plain_line.tex}$",
               f"{_mark(pic.positioned_equal)} with them: ${pic.positioned_line.tex}$"),
        proof_color="fg",  # one verdict of each kind: the marks say which
    )


def _mark(passed: bool) -> str:
    return "\u2713" if passed else "\u2717"
