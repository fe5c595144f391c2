"""Designed stills of the causal clips: 03 the causal mask, 04 prefix invariance, 05 the KV cache.
Each reads the clip's ``build_data`` and colours with the clip's own scales."""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import BarGroup, Bars, Box, FigureStill, Heatmap, Line, Text, sci
from scenes.kit.theme import ColorScale

from . import still
from .equivariance import log_floor, token_roles, tokens

# The three lines that turn self-attention into causal attention (clip 03's listing; mathcore.attention).
CAUSAL_CODE = ("mask = np.tri(T, dtype=bool)", "S[~mask] = -np.inf", "A = softmax(S, axis=-1)")


# ====================================================================== 03
@still("CausalMask")
def masked_softmax(data, cfg) -> FigureStill:
    """03 · Scores with the future at −∞; softmax turns every −∞ into an exact 0; causal beside self."""
    T = data.scaled.shape[0]
    score = ColorScale.symmetric(data.cmap_signed, data.scaled)  # the clip's scales
    weight = ColorScale(data.cmap_weights, 0.0, 1.0)
    few = T <= 6
    ticks = dict(xticks=tokens(range(T), "k"), yticks=tokens(range(T), "q"))
    S = Heatmap(data.masked, score, title=r"$S$ masked: future $\to\,{-\infty}$", annotate=few, decimals=1,
                colorbar="score", **ticks)
    A_self = Heatmap(data.weights_self, weight, title="self-attention $A$", annotate=few, colorbar=None, exact=True,
                     **ticks)
    A = Heatmap(data.weights, weight, title="causal $A$", annotate=few, colorbar="weight", exact=True, **ticks,
                boxes=tuple(Box((i, i), (i + 1, T - 1), "good", width=1.8) for i in range(T - 1)))
    code = Text((
        Line("three lines turn self-attention causal", size=10.5, weight="bold"),
        *(Line(c, size=10, mono=True, space_before=4 if k == 0 else 1) for k, c in enumerate(CAUSAL_CODE)),
        Line("the mask keeps $j \\leq i$: a query sees itself and the past", size=9.5, color="dim", space_before=8),
        Line("$-\\infty$ above the diagonal; softmax sends $e^{-\\infty}$ to exactly 0", size=9.5, color="dim",
             space_before=2),
    ), valign="center")
    return FigureStill(
        "masked_softmax", "The causal mask: the future gets weight exactly 0",
        {"S": S, "B": A_self, "A": A, "C": code}, mosaic="CS;BA", size=(7.0, 6.6), hspace=0.08,
        subtitle="scores above the diagonal set to $-\\infty$, then softmax row by row; self-attention beside it",
        proof=(f"every causal row sums to 1: $\\mathrm{{max}}_i\\,|\\Sigma_j A_{{ij}} - 1|$ = {sci(data.row_sum_defect)}",
               f"every weight above the diagonal: $\\mathrm{{max}}_{{j>i}}\\,A_{{ij}}$ = {sci(data.upper_max)}"),
        proof_color="good" if data.upper_max == 0.0 else "bad",
    )


# ====================================================================== 04
@still("PrefixInvariance")
def prefix_rows(data, cfg) -> FigureStill:
    """04 · The prefix's outputs are the full outputs' first rows: 0.0 for every t (and BLAS's ~1e-16)."""
    T, d = data.Y_full.shape
    scale = ColorScale.symmetric(data.cmap_signed, np.concatenate([data.Y_full.ravel(), data.Y_prefix.ravel()]))
    few = T <= 6
    feats = tuple(str(j) for j in range(d))
    full = Heatmap(data.Y_full, scale, title=f"$Y_{{\\mathrm{{full}}}}$: all {T} tokens", annotate=few, decimals=2, colorbar=None,
                   yticks=tokens(range(T), "y"), ytick_colors=token_roles(range(T)), xticks=feats,
                   boxes=(Box((0, T - 2), (0, d - 1), "good", width=2.0), Box((T - 1, T - 1), (0, d - 1), "accent")))
    pre = Heatmap(data.Y_prefix, scale, title=f"$Y_{{\\mathrm{{prefix}}}}$: the first {T - 1}", annotate=few, decimals=2,
                  colorbar="output",
                  yticks=tokens(range(T - 1), "y"), ytick_colors=token_roles(range(T - 1)), xticks=feats,
                  boxes=(Box((0, T - 2), (0, d - 1), "good", width=2.0),))
    values = np.concatenate([data.defects_fixed, data.defects_blas])
    lo = log_floor(values, lowest=-17)
    pos = values[values > 0]
    hi = max(-14, int(np.ceil(np.log10(pos.max()) + 1e-9))) if pos.size else -14
    chart = Bars(tuple(str(t) for t in range(1, T + 1)), (
        BarGroup("fixed order", data.defects_fixed, "good"),
        BarGroup("BLAS matmul", data.defects_blas, "accent"),
    ), xlabel="prefix length $t$", ylabel=r"$\mathrm{max}\,|Y[:t] - \mathrm{Attn}(X[:t])|$", y_log=True,
        ylim=(10.0 ** lo, 10.0 ** hi), legend="upper right", title="every prefix, both kernels")
    a, b, c = data.sum_terms
    left, right = data.sum_orders
    why = Text((
        Line("why BLAS differs: float sums depend on their order", size=10.5, weight="bold"),
        Line(f"({a!r} + {b!r}) + {c!r} = {left!r}", size=9, mono=True, space_before=3),
        Line(f"{a!r} + ({b!r} + {c!r}) = {right!r}", size=9, mono=True, space_before=1),
    ), valign="center")
    return FigureStill(
        "prefix_rows", "Prefix invariance: appending a token never changes the past",
        {"F": full, "P": pre, "B": chart, "W": why}, mosaic="FP;BW", size=(7.0, 6.8),
        height_ratios=(1.5, 1.0), width_ratios=(1.0, 1.2),
        subtitle=f"the first {T - 1} rows of the full pass are the prefix's own outputs; only row {T - 1} is new",
        proof=(f"$\\mathrm{{max}}_t\\,|Y_{{\\mathrm{{full}}}}[:t] - Y_{{\\mathrm{{prefix}}}}|$ = {sci(data.max_fixed)} (bitwise), "
               "every $t$, with one fixed summation order",
               f"the same check with a BLAS matmul kernel: {sci(data.max_blas)}"),
        proof_color="good" if data.max_fixed == 0.0 else "bad",
    )


# ====================================================================== 05
def kv_scale(data, cfg) -> ColorScale:
    """Clip 05's scale: symmetric over the caches, the outputs and every step's query."""
    steps = data.trace.steps
    K, V, Y = steps[-1].K_cache, steps[-1].V_cache, data.trace.Y_cached
    return ColorScale.symmetric(cfg.cmap_signed, np.concatenate([K.ravel(), V.ravel(), Y.ravel(), *[s.q for s in steps]]))


@still("KVCache")
def cache(data, cfg) -> FigureStill:
    """05 · Token-by-token decoding with a K/V cache equals a full recompute at every step; without
    the mask every past output moves when a token arrives, so a cache would be stale."""
    steps = data.trace.steps
    T = len(steps)
    K, V, Y = steps[-1].K_cache, steps[-1].V_cache, data.trace.Y_cached
    scale = kv_scale(data, cfg)
    d = K.shape[1]
    feats = tuple(str(j) for j in range(d))
    new = (Box((T - 1, T - 1), (0, d - 1), "accent", width=2.0),)

    def rows(M, name, title, bar=False):
        return Heatmap(M, scale, title=title, colorbar="value" if bar else None, yticks=tokens(range(T), name),
                       ytick_colors=token_roles(range(T)), xticks=feats, boxes=new)

    status = Text(tuple(
        [Line("vs recompute", size=10, color="dim")]
        + [Line(f"step {s.t}: {sci(s.recompute_defect)}", size=9.5, space_before=1,
                color="good" if s.recompute_defect == 0 else "accent") for s in steps]), valign="center")
    stale = data.staleness  # entry t-1: the change of each past row when token t arrives
    cats = tuple(f"+$x_{{{t}}}$" for t in range(1, T))
    groups = tuple(BarGroup(f"$y_{{{i}}}$", np.array([stale[t - 1][i] if i < t else np.nan for t in range(1, T)]),
                            f"token:{i}", zero_marks=False) for i in range(T - 1))
    hi = max(float(np.max(s)) for s in stale)
    chart = Bars(cats, groups, xlabel="token appended", ylabel="change of each past output", y_log=True,
                 ylim=(10.0 ** np.floor(np.log10(data.min_stale) - 0.5), 10.0 ** np.ceil(np.log10(hi) + 0.01)),
                 title="bidirectional: every past output moves", legend="above")
    return FigureStill(
        "cache", "The KV cache: keep K and V, compute one new query",
        {"K": rows(K, "k", "K cache"), "V": rows(V, "v", "V cache"), "Y": rows(Y, "y", "outputs", bar=True),
         "S": status, "B": chart},
        mosaic="KVYS;BBBB", size=(7.0, 6.4), width_ratios=(1.0, 1.0, 1.25, 1.1), height_ratios=(1.0, 1.0),
        subtitle="step $t$ appends $k_t$, $v_t$ (outlined: the last step) and attends $q_t$ over the cache; "
                 "nothing else is recomputed",
        proof=(f"cached = full recompute at every step: $\\mathrm{{max}}_t\\,|Y_{{\\mathrm{{cached}}}} - Y_{{\\mathrm{{recompute}}}}|$ = "
               f"{sci(data.max_defect)}",
               f"bidirectional: every past row moves (smallest change {sci(data.min_stale)}); "
               f"causal: {sci(data.causal_change_max)}"),
        proof_color="good" if data.max_defect == 0.0 else "bad",
    )
