"""The causal clips' picture description, and their designed stills: 03 the causal mask, 04 prefix
invariance, 05 the KV cache.

What a clip and its still both show is described here once, and both draw from it (the clips in
``scenes/causal.py`` import this module; a figure module never imports a clip):

* the colour scale of every quantity (``mask_scales``, ``prefix_scales``, ``kv_scales``: one
  scale per quantity for the whole clip, keyed by the quantity's path in the clip's data);
* the three lines of code that make attention causal (``CAUSAL_CODE``);
* the measured proofs (``mask_proofs``, ``prefix_proofs``, ``kv_proofs``): each formula in Typst
  (the clip) and in mathtext (the still) side by side, with the value it is measured at;
* the names of the outputs (``Y_"full"``, ``Y_"prefix"``, ``Y_"cached"``, …).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scenes.kit import numbers, scales
from scenes.kit.notation import N
from scenes.stills.spec import BarGroup, BarsPanel, CellBox, FigureStill, HeatmapPanel, TextLine, TextPanel
from scenes.stills.text import sci
from scenes.kit.theme import ColorScale

from . import still


def tokens(idx, name: str = "x") -> tuple[str, ...]:
    """Tick labels ``$x_0$``, ``$x_1$``, … (mathtext)."""
    return tuple(f"${name}_{{{int(k)}}}$" for k in idx)


def token_roles(idx) -> tuple[str, ...]:
    return tuple(f"token:{int(k)}" for k in idx)


def log_floor(values, lowest: int = -17) -> int:
    """The floor exponent of a log axis of tiny defects: a decade under the smallest positive value,
    at most ``lowest``, made even."""
    v = np.asarray(values, float)
    pos = v[v > 0]
    lo = min(int(np.floor(np.log10(float(pos.min())))) - 1 if pos.size else lowest - 1, lowest)
    return lo - lo % 2

# The three lines that turn self-attention into causal attention (what mathcore.attention does);
# clip 03 shows them and its test executes them.
CAUSAL_CODE = "mask = np.tri(T, dtype=bool)\nS[~mask] = -np.inf\nA = softmax(S, axis=-1)"

M, NN = N.position.math, N.other_position.math  # a query's position m, a key's position n
MN = f"{M} {NN}"  # the subscript of an entry: row m, column n
T_ = N.prefix_length.math  # a prefix length t


def bar_ticks(scale: ColorScale) -> dict:
    """The colour bar's ticks as the clip draws them: the scale's round ticks, printed in the one
    number style (``−2``, ``0``, ``2``; never ``0.0``)."""
    t = tuple(scale.ticks(2))
    return {"cbar_ticks": t, "cbar_ticklabels": tuple(numbers.tick(v) for v in t)}


def passes_tex(t: int) -> str:
    r""":func:`passes` in mathtext (the stills): ``\mathrm{Attn}(x_0, \ldots, x_{t-1})``."""
    if t <= 3:
        return r"\mathrm{Attn}(" + ", ".join(f"x_{{{k}}}" for k in range(t)) + ")"
    return rf"\mathrm{{Attn}}(x_0, \ldots, x_{{{t - 1}}})"


def passes(t: int) -> str:
    """Typst for the causal pass over the first ``t`` tokens: ``Attn_causal(x_0, …, x_(t−1))``
    (``Attn_causal(x_0)`` for one token, ``Attn_causal(x_0, x_1)`` for two): lecture notation, never a slice;
    causal named on the symbol, as clip 00 writes it (clip 02's plain Attn is the unmasked map)."""
    name = '"Attn"_"causal" '  # the space: the parenthesis is the argument, not the subscript's
    if t <= 1:
        return f"{name}(x_0)"
    if t <= 3:
        return f"{name}(" + ", ".join(f"x_{k}" for k in range(t)) + ")"
    return f"{name}(x_0, dots, x_{t - 1})"


def prefix_length(t: int) -> str:
    """Typst naming a prefix's length beside its pass: ``t = 5`` (the superscript of its rows is the letter)."""
    return f"{T_} = {t}"


def prefix_row(n: str) -> str:
    """Typst for row ``n`` of the pass over the first ``t`` tokens: ``y_n^((t))``, the superscript always the
    letter t (its value is said beside the pass: a digit there read as a row index, review round 3); the full
    pass's rows are plain ``y_n``.  An entry: ``n`` is ``"i, j"`` (``y_(0, 1)^((t))``)."""
    return f"{n_sub('y', n)}^(({T_}))"


def n_sub(name: str, n: str) -> str:
    return f"{name}_{n}" if len(str(n)) == 1 else f"{name}_({n})"


# the outputs the KV cache compares (Typst, mathtext)
Y_CACHED = ('Y_"cached"', r"Y_{\mathrm{cached}}")
Y_RECOMPUTE = ('Y_"full"', r"Y_{\mathrm{full}}")  # a full recompute, at every step, of the tokens so far


@dataclass(frozen=True)
class Proof:
    """A measured proof: ``formula`` (Typst, for the clip), ``tex`` (the same in mathtext, for the
    still) and the ``value`` it is measured at; ``exact_claim`` says the claim is an exact zero
    (it passes only when it is one; any other passes under the deck's pass line, rounding noise)."""

    formula: str
    tex: str
    value: float
    exact_claim: bool = False

    @property
    def passed(self) -> bool:
        from mathcore.equivariance import THRESHOLD

        return self.value == 0.0 if self.exact_claim else abs(self.value) < THRESHOLD

    def still_text(self, words: str = "") -> str:
        """The proof as the still prints it: ``words: $formula$ = 0 (exact)`` / ``≈ 2.2×10⁻¹⁶``."""
        f = numbers.measure(self.value)
        head = f"{words}: " if words else ""
        return f"{head}${self.tex}$ {'' if f.approx else '= '}{sci(self.value)}"


# ====================================================================== 03
def mask_scales(data, cfg) -> dict[str, ColorScale]:
    """Clip 03's scales, the deck's (``kit.scales``): the scores (before and after masking) on the deck's
    "scores" scale; every weight (causal and self-attention, and the mask's 0s and 1s) on the deck's
    linear "weights" scale from 0 to 1, as every clip paints A."""
    score, weight = scales.scale("scores", cfg), scales.scale("weights", cfg)
    return {"scaled": score, "masked": score, "weights": weight, "weights_self": weight, "mask": weight}


def mask_proofs(data) -> tuple[Proof, Proof]:
    """Every causal row sums to 1 (to rounding); every weight above the diagonal is exactly 0."""
    return (Proof(f"max_{M} lr(|scripts(sum)_{NN} A_({MN}) - 1|)", r"\max_m\,|\Sigma_n A_{mn} - 1|", data.row_sum_defect),
            Proof(f"max_({NN} > {M}) A_({MN})", r"\max_{n>m}\,A_{mn}", data.upper_max, exact_claim=True))


@still("CausalMask")
def masked_softmax(data, cfg) -> FigureStill:
    """03 · Scores with the future at −∞; softmax turns every −∞ into an exact 0; causal beside self."""
    T = data.scaled.shape[0]
    sc = mask_scales(data, cfg)
    few = T <= 6
    ticks = dict(xticks=tokens(range(T), "k"), yticks=tokens(range(T), "q"))
    S = HeatmapPanel(data.masked, sc["masked"], title=r"$S$ masked: future $\to\,{-\infty}$", annotate=few, decimals=1,
                colorbar="score", **ticks, **bar_ticks(sc["masked"]))
    A_self = HeatmapPanel(data.weights_self, sc["weights_self"], title="self-attention $A$", annotate=few, colorbar=None,
                     exact=True, **ticks)
    A = HeatmapPanel(data.weights, sc["weights"], title="causal $A$", annotate=few, colorbar="weight", exact=True, **ticks,
                **bar_ticks(sc["weights"]),
                boxes=tuple(CellBox((i, i), (i + 1, T - 1), "accent", width=1.8) for i in range(T - 1)))
    code = TextPanel((
        TextLine("three lines turn self-attention causal", size=10.5, weight="bold"),
        *(TextLine(c, size=10, mono=True, space_before=4 if k == 0 else 1) for k, c in enumerate(CAUSAL_CODE.splitlines())),
        TextLine("the mask keeps $n \\leq m$: a query sees itself and the past", size=9.5, color="dim", space_before=8),
        TextLine("$-\\infty$ above the diagonal; softmax sends $e^{-\\infty}$ to exactly 0", size=9.5, color="dim",
             space_before=2),
    ), valign="center")
    rows, zero = mask_proofs(data)
    return FigureStill(
        "masked_softmax", "The causal mask: the future gets weight exactly 0",
        {"S": S, "B": A_self, "A": A, "C": code}, mosaic="CS;BA", size=(7.0, 6.6), hspace=0.08,
        subtitle="scores above the diagonal set to $-\\infty$, then softmax row by row; self-attention beside it",
        proof=(rows.still_text("every causal row sums to 1"), zero.still_text("every weight above the diagonal")),
        proof_color="good" if zero.passed else "bad",
    )


# ====================================================================== 04
def prefix_scales(data, cfg) -> dict[str, ColorScale]:
    """Clip 04's scales, the deck's (``kit.scales``): the full and the prefix outputs on the "outputs" scale;
    the inference picture's weights on the "weights" scale and its values V on the "outputs" scale (which holds
    V: causally y₀ = v₀, one row in one colour either side of A · V = Y)."""
    outs = scales.scale("outputs", cfg)
    return {"Y_full": outs, "Y_prefix": outs, "A": scales.scale("weights", cfg), "V": outs}


def prefix_proofs(data) -> tuple[Proof, Proof]:
    """The fixed-order kernel: every prefix's outputs are the full outputs' first rows, exactly; the
    same check with a BLAS matmul kernel, honestly measured.  Lecture notation: ``y_m^((t))`` is row ``m``
    of the pass over the first ``t`` tokens, ``y_m`` the full pass's."""
    f = f"max_({T_}, thin m < {T_}) lr(|{prefix_row('m')} - y_m|)"
    tex = r"\max_{t,\,m<t}\,|y_m^{(t)} - y_m|"
    return Proof(f, tex, data.max_fixed, exact_claim=True), Proof(f, tex, data.max_blas)


@still("PrefixInvariance")
def prefix_rows(data, cfg) -> FigureStill:
    """04 · The prefix's outputs are the full outputs' first rows: 0 (exact) for every t (and BLAS's ~10⁻¹⁶)."""
    T, d = data.Y_full.shape
    sc = prefix_scales(data, cfg)
    few = T <= 6
    feats = tuple(str(j) for j in range(d))
    full = HeatmapPanel(data.Y_full, sc["Y_full"], title=f"${passes_tex(T)}$: all {T} tokens", annotate=few,
                   decimals=2, colorbar=None, yticks=tokens(range(T), "y"), ytick_colors=token_roles(range(T)),
                   xticks=feats, boxes=(CellBox((0, T - 2), (0, d - 1), "dim", width=2.0),
                                        CellBox((T - 1, T - 1), (0, d - 1), "accent")))
    pre = HeatmapPanel(data.Y_prefix, sc["Y_prefix"], title=f"${passes_tex(T - 1)}$: the first {T - 1}", annotate=few,
                  decimals=2, colorbar="output", **bar_ticks(sc["Y_prefix"]),
                  yticks=tuple(f"$y_{{{n}}}^{{({T - 1})}}$" for n in range(T - 1)),
                  ytick_colors=token_roles(range(T - 1)),
                  xticks=feats, boxes=(CellBox((0, T - 2), (0, d - 1), "dim", width=2.0),))
    values = np.concatenate([data.defects_fixed, data.defects_blas])
    lo = log_floor(values, lowest=-17)
    pos = values[values > 0]
    hi = max(-14, int(np.ceil(np.log10(pos.max()) + 1e-9))) if pos.size else -14
    chart = BarsPanel(tuple(str(t) for t in range(1, T + 1)), (
        BarGroup("fixed order", data.defects_fixed, "fg"),
        BarGroup("BLAS matmul", data.defects_blas, "accent"),
    ), xlabel="prefix length $t$", ylabel=r"$\max_{m<t}\,|y_m^{(t)} - y_m|$", y_log=True,
        ylim=(10.0 ** lo, 10.0 ** hi), legend="upper right", title="every prefix, both kernels")
    a, b, c = data.sum_terms
    left, right = data.sum_orders
    why = TextPanel((
        TextLine("why BLAS differs: float sums depend on their order", size=10.5, weight="bold"),
        TextLine(f"$({a!r} + {b!r}) + {c!r} = {left!r}$", size=9.5, space_before=3),
        TextLine(f"${a!r} + ({b!r} + {c!r}) = {right!r}$", size=9.5, space_before=1),
    ), valign="center")
    fixed, blas = prefix_proofs(data)
    return FigureStill(
        "prefix_rows", "Prefix invariance: appending a token never changes the past",
        {"F": full, "P": pre, "B": chart, "W": why}, mosaic="FP;BW", size=(7.0, 6.8),
        height_ratios=(1.5, 1.0), width_ratios=(1.0, 1.2),
        subtitle=f"the first {T - 1} rows of the full pass are the prefix's own outputs; only row {T - 1} is new",
        proof=(fixed.still_text("every $t$, one fixed summation order, bit for bit"),
               blas.still_text("the same check with a BLAS matmul kernel")),
        proof_color="good" if fixed.passed else "bad",
    )


# ====================================================================== 05
def kv_scales(data, cfg) -> dict[str, ColorScale]:
    """Clip 05's scales, the deck's (``kit.scales``): the K cache and every query on the "inputs" scale (X and
    its projections); the V cache, the cached outputs and every bidirectional output on the "outputs" scale
    (which holds V: causally y₀ = v₀, one row in one colour either side), as every clip paints them."""
    ins, outs = scales.scale("inputs", cfg), scales.scale("outputs", cfg)
    return {"K": ins, "V": outs, "Q": ins, "trace.Y_cached": outs, "Y_bidir_full": outs}


def kv_proofs(data) -> tuple[Proof, Proof, Proof]:
    """Cached decoding equals a full recompute at every step; bidirectionally every past output
    moves (its smallest change); causally none does."""
    change = f"norm(Delta y_{NN})"
    over = f"{M}, thin {NN} < {M}"
    return (Proof(f"max_{M} lr(|{Y_CACHED[0]} - {Y_RECOMPUTE[0]}|)",
                  r"\max_m\,|Y_{\mathrm{cached}} - Y_{\mathrm{full}}|", data.max_defect, exact_claim=True),
            Proof(f"min_({over}) {change}", r"\min_{m,\,n<m}\,\|\Delta y_n\|", data.min_stale),
            Proof(f"max_({over}) {change}", r"\max_{m,\,n<m}\,\|\Delta y_n\|", data.causal_change_max,
                  exact_claim=True))


@still("KVCache")
def cache(data, cfg) -> FigureStill:
    """05 · Token-by-token decoding with a K/V cache equals a full recompute at every step; without
    the mask every past output moves when a token arrives, so a cache would be stale."""
    steps = data.trace.steps
    T = len(steps)
    sc = kv_scales(data, cfg)
    d = data.K.shape[1]
    feats = tuple(str(j) for j in range(d))
    new = (CellBox((T - 1, T - 1), (0, d - 1), "accent", width=2.0),)

    def rows(M_, key, name, title, role, bar=None):
        return HeatmapPanel(M_, sc[key], title=title, colorbar=bar, **(bar_ticks(sc[key]) if bar else {}),
                       yticks=tokens(range(T), name),
                       ytick_colors=(role,) * T if role else token_roles(range(T)), xticks=feats, boxes=new,
                       title_color=role or "fg")

    status = TextPanel(tuple(
        [TextLine("vs recompute", size=10, color="dim")]
        + [TextLine(f"step {s.t}: {sci(s.recompute_defect)}", size=9.5, space_before=1,
                color="good" if s.recompute_defect == 0 else "accent") for s in steps]), valign="center")
    stale = data.staleness  # entry m-1: the change of each past row when token m arrives
    cats = tuple(f"+$x_{{{m}}}$" for m in range(1, T))
    groups = tuple(BarGroup(f"$y_{{{n}}}$", np.array([stale[m - 1][n] if n < m else np.nan for m in range(1, T)]),
                            f"token:{n}", zero_marks=False) for n in range(T - 1))
    hi = max(float(np.max(s)) for s in stale)
    chart = BarsPanel(cats, groups, xlabel="token appended", ylabel=r"$\|\Delta y_n\|$", y_log=True,
                 ylim=(10.0 ** np.floor(np.log10(data.min_stale) - 0.5), 10.0 ** np.ceil(np.log10(hi) + 0.01)),
                 title="bidirectional: every past output moves", legend="above")
    cached, bidir, causal = kv_proofs(data)
    return FigureStill(
        "cache", "The KV cache: keep past K and V, compute the new token's q, k and v",
        {"K": rows(data.K, "K", "k", "K cache", "key", bar="input"), "V": rows(data.V, "V", "v", "V cache", "value"),
         "Y": rows(data.trace.Y_cached, "trace.Y_cached", "y", "outputs", None, bar="output"), "S": status,
         "B": chart},
        mosaic="KVYS;BBBB", size=(7.0, 6.4), width_ratios=(1.0, 1.0, 1.25, 1.1), height_ratios=(1.0, 1.0),
        subtitle="step $m$ appends $k_m$, $v_m$ (outlined: the last step) and attends $q_m$ over the cache; "
                 "nothing else is recomputed",
        proof=(cached.still_text("cached = full recompute at every step"),
               f"{bidir.still_text('bidirectional: every past row moves')}; {causal.still_text('causal')}"),
        proof_color="good" if cached.passed else "bad",
    )
