"""Designed stills of the positions clips: 08 sinusoidal positions, 09 three positional schemes."""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import FigureStill, Heatmap, Line, Plot, Series, Text, sci
from scenes.kit.theme import ColorScale

from . import still

SIN, COS = "accent", "purple"  # clip 08's colours for the sine and the cosine of a pair
SCHEME_COLORS = ("accent", "blue", "purple")  # clip 09: sinusoidal, learned absolute, RoPE
SCHEME_NAMES = ("Sinusoidal", "Learned absolute", "RoPE")
TOEPLITZ_TOL = 1e-9  # clip 09: a diagonal spread below this (relative to the values) is rounding


def base_tex(base: float) -> str:
    """``10000``, ``5\\times10^{5}``: a base as mathtext."""
    if float(base).is_integer() and base < 1e5:
        return f"{int(base)}"
    e = int(np.floor(np.log10(base)))
    m = base / 10 ** e
    return f"10^{{{e}}}" if np.isclose(m, 1) else f"{m:g}\\times10^{{{e}}}"


def fmt_length(x: float) -> str:
    return f"{x:,.0f}".replace(",", "\u2009") if x >= 100 else f"{x:.1f}"


# ====================================================================== 08
@still("SinusoidalPosition")
def waves_to_matrix(data, cfg) -> FigureStill:
    """08 · The Vaswani formula; each column pair's sine and cosine sampled at every position fills
    the PE matrix, pair by pair, wavelengths growing geometrically."""
    T, d = data.PE.shape
    pairs = d // 2
    scale = ColorScale(data.cmap, -1.0, 1.0)  # the clip's scale
    gap = 2.6
    series = []
    for i in range(pairs):
        off = (pairs - 1 - i) * gap
        series += [
            Series(data.waves[:, 2 * i] + off, data.wave_x, "sine $2i$" if i == 0 else "", SIN, width=1.4),
            Series(data.waves[:, 2 * i + 1] + off, data.wave_x, "cosine $2i{+}1$" if i == 0 else "", COS, width=1.4),
            Series(data.samples[:, 2 * i] + off, np.arange(T), "", SIN, "dots", width=1.5),
            Series(data.samples[:, 2 * i + 1] + off, np.arange(T), "", COS, "dots", width=1.5),
        ]
    offs = [(pairs - 1 - i) * gap for i in range(pairs)]
    waves = Plot(tuple(series), xlabel="position $p$", yticks=tuple(offs),
                 yticklabels=tuple(f"pair {i}" for i in range(pairs)), ylim=(-1.4, offs[0] + 1.6),
                 xlim=(-0.3, T - 0.7), legend="above", grid=False)
    cols = tuple(f"{j}" for j in range(d))
    M = Heatmap(data.PE, scale, title=r"$\mathrm{PE}$", colorbar="value", yticks=tuple(str(p) for p in range(T)),
                xticks=cols, xtick_colors=tuple(SIN if j % 2 == 0 else COS for j in range(d)), ylabel="position $p$",
                xlabel="column")
    lam = "; ".join(f"$\\lambda_{{{i}}}$ = {fmt_length(v)}" for i, v in enumerate(data.wavelengths))
    b = base_tex(data.base)
    formula = Text((
        Line(r"$\mathrm{PE}[p,\,2i] = \sin(\omega_i\,p),\quad \mathrm{PE}[p,\,2i{+}1] = \cos(\omega_i\,p),\quad "
             rf"\omega_i = 1\,/\,{b}^{{2i/d}}$", size=11.5, space_before=0),
        Line(f"wavelengths $\\lambda_i = 2\\pi/\\omega_i$, in positions ($d$ = {d}):   {lam}", size=9.5, color="dim",
             space_before=5),
    ), valign="center")
    ok = data.sample_defect < 1e-12
    return FigureStill(
        "waves_to_matrix", "Sinusoidal positions: one row of waves per position",
        {"F": formula, "W": waves, "M": M}, mosaic="FF;WM", size=(7.0, 5.2), height_ratios=(0.15, 1.0),
        width_ratios=(1.6, 1.0),
        subtitle=f"{T} positions × {d} columns: pair $i$ samples a sine and a cosine, each pair slower than the last",
        proof=(f"the sampled waves are my_sinusoidal_position: max |wave − PE| = {sci(data.sample_defect)}",),
        proof_color="good" if ok else "bad",
    )


# ====================================================================== 09
def relative_only(data) -> tuple[bool, bool, bool]:
    """Per scheme: does its similarity matrix depend on ``m − n`` only (clip 09's test)?"""
    sims = (data.sim_sin, data.sim_learned, data.sim_rope)
    return tuple(bool(v <= TOEPLITZ_TOL * max(1.0, float(np.max(np.abs(S))))) for v, S in zip(data.defects, sims))


def similarity_scales(data) -> tuple[ColorScale, ColorScale, ColorScale]:
    """Clip 09's scales: cosines on [−1, 1], RoPE's scores symmetric over their range."""
    cos = ColorScale(data.cmap, -1.0, 1.0)
    return cos, cos, ColorScale.symmetric(data.cmap, data.sim_rope)


@still("ThreePositionalSchemes")
def similarities(data, cfg) -> FigureStill:
    """09 · The same input, three schemes; their position-similarity matrices, and which of them
    depend on m − n only (Toeplitz, measured)."""
    sims = (data.sim_sin, data.sim_learned, data.sim_rope)
    scales = similarity_scales(data)
    rel = relative_only(data)
    how = ("add $p_m$ to row $m$", f"add row $m$ of a table ({data.n_max} rows)", "rotate $q$ and $k$ by position")
    what = (r"$\cos(P[m], P[n])$", r"$\cos(E[m], E[n])$", r"$\mathrm{RoPE}(q, m)\cdot\mathrm{RoPE}(k, n)$")
    Ts = data.T_sim
    step = 3 if Ts > 8 else 1
    ticks = tuple(str(m) for m in range(Ts))
    panels = {}
    for k, key in enumerate("ABC"):
        panels[key] = Heatmap(
            sims[k], scales[k], title=SCHEME_NAMES[k], title_color=SCHEME_COLORS[k],
            colorbar="cosine" if k < 2 else "score", xticks=ticks, yticks=ticks, tick_step=step,
            ylabel="position $m$" if k == 0 else "", xlabel="position $n$")
        panels["DEF"[k]] = Text((
            Line(how[k], size=9.5),
            Line(what[k], size=9.5, color="dim", space_before=2),
            Line(f"diagonal spread {sci(data.defects[k])}", size=9.5, space_before=4,
                 color="good" if rel[k] else "dim"),
            Line("only $m - n$ matters" if rel[k] else "not a function of $m - n$", size=9.5,
                 color="good" if rel[k] else "dim", space_before=1),
        ))
    return FigureStill(
        "similarities", "Three positional schemes, and how alike they make two positions",
        panels, mosaic="ABC;DEF", size=(7.0, 4.4), height_ratios=(1.0, 0.36),
        subtitle=f"similarity of positions $m$ and $n$ over {Ts} positions; constant diagonals mean it depends "
                 "on $m - n$ only",
        proof=(f"RoPE: $q_m\\cdot k_n$ depends only on $m - n$: diagonal spread {sci(data.defects[2])} "
               "(Toeplitz, checked)",),
        proof_color="good" if rel[2] else "bad",
    )
