"""The positions clips' picture, described once: 08 sinusoidal positions, 09 three positional schemes.

The functions above the stills are the one description of what both pictures show (the colour
scales, the measured figures, the verdicts and the words on the data); clip 08/09 (``scenes/
positions.py``) import them, and the designed stills below draw from them, so a still and its clip
agree scale for scale and figure for figure (``tests/test_clip08_*``, ``tests/test_clip09_*``).
"""

from __future__ import annotations

import numpy as np

from mathcore.scheme_compare import OFFSET_TOL
from scenes.kit import numbers
from scenes.kit.notation import N
from scenes.stills.spec import CellBox, FigureStill, HeatmapPanel, PlotPanel, Rule, Series, TextLine, TextPanel
from scenes.stills.text import sci
from scenes.kit.theme import ColorScale

from . import still

PASS_LINE = OFFSET_TOL  # a measured gap below it is rounding (the lecture's pass line, 10⁻¹⁰)
SCHEME_NAMES = ("Sinusoidal", "Learned absolute", "RoPE")


# ====================================================================== the description: 08
def pe_scale(cfg) -> ColorScale:
    """Clip 08's one scale, the deck's for positional encodings: sines and cosines fill [−1, 1]."""
    from scenes.kit.scales import scale

    return scale("encodings", cfg)


def base_figure(base: float) -> numbers.Figure:
    """The frequency base as the formula prints it: its digits below a million (``10 000``,
    ``500 000``), a power of ten from there when it is one (``10⁹``), else a rounded count."""
    b = float(base)
    k = int(round(np.log10(b)))
    if b >= 1e6 and b == 10.0 ** k:
        return numbers.power(k)
    f = numbers.count(int(round(b)))
    if b.is_integer() or f.approx:
        return f
    return numbers.Figure(b, f"approx {f.math}", f"≈ {f.text}", approx=True)  # a base between two integers


def wavelength_figures(wavelengths) -> tuple[numbers.Figure, ...]:
    """``λᵢ`` of every pair, in positions, in the lecture's number style (``6.3``, ``63``, ``6283``)."""
    return tuple(numbers.measure(float(v)) for v in wavelengths)


def sample_check(data) -> tuple[numbers.Figure, bool]:
    """Clip 08's proof: the largest gap between the waves' samples and the matrix, and whether it
    is below the pass line (the samples *are* the matrix, to rounding)."""
    return numbers.measure(data.sample_defect), bool(data.sample_defect < PASS_LINE)


# ====================================================================== the description: 09
def input_scale(cfg) -> ColorScale:
    """Clip 09's act 1: the deck's scale for the inputs (the input, what each scheme adds or multiplies,
    and each result: ``kit.scales`` counts the tokens with their positions and the turned queries among
    the inputs)."""
    from scenes.kit.scales import scale

    return scale("inputs", cfg)


def score_scale(data, cfg) -> ColorScale:
    """Clip 09's act 2: the three schemes' scores are one quantity, so one scale over all three (the
    deck's "scheme scores", made from the grids the clip and its still show)."""
    from scenes.kit.scales import scale

    return scale("scheme scores", cfg, values=list(data.scores.grids))


def widest_diagonal(S) -> int:
    """The offset ``k = m − n`` of the diagonal of a score grid ``S`` along which the score spreads most
    (the first such, from the bottom-left corner): where its ``toeplitz_defect`` is reached.  Rounding
    noise picks no diagonal: a grid that spreads less than the pass line everywhere (a relative score)
    gets ``m − n = 1``, the longest diagonal off the main one."""
    T = np.asarray(S).shape[0]
    spreads = [float(diagonal_distances(S, k).max()) for k in range(T - 1, -T, -1)]
    if max(spreads) < PASS_LINE:
        return 1
    return T - 1 - int(np.argmax(spreads))


def spread_axis(data) -> tuple[int, int]:
    """The one log axis, ``10^lo`` to ``10^hi``, every spread of clip 09 stands on: each scheme's outlined
    cells' distances from the first (beats 06–08, and the still's three lower panels) and the three
    largest spreads (beat 09).  One honest scale, so sinusoidal's 7.9, the learned table's 0.42 and RoPE's
    rounding are read against each other and the pass line (three axes of their own, 0–12, 0–0.6 and
    0–0.08, hid that: issue 33).  From a decade under the smallest nonzero value (and the pass line) to
    three over the largest (room for its figure over it); exact zeros sit on the floor, marked as such."""
    vals = np.concatenate([np.asarray(v, dtype=float).ravel() for v in data.distances]
                          + [np.asarray(data.scores.defects, dtype=float)])
    pos = vals[vals > 0]
    lo = int(np.floor(np.log10(min(pos.min(initial=PASS_LINE), PASS_LINE)))) - 1
    hi = int(np.ceil(np.log10(max(pos.max(initial=PASS_LINE), PASS_LINE)))) + 3
    return lo, hi


def spread_ticks(lo: int, hi: int, most: int = 6) -> list[int]:
    """The powers of ten labelled on :func:`spread_axis` (a round step, at most ``most`` steps)."""
    step = max(1, int(round(numbers.nice_step(hi - lo, most=most))))
    return [k for k in range(lo, hi + 1) if k % step == 0]


def diagonal_distances(S, k: int) -> np.ndarray:
    """Along the diagonal ``m − n = k`` of a score grid ``S``, how far each cell's score is from the first
    cell's: ``|S[m, m − k] − S[k, 0]|`` for ``m = k … T − 1`` (its largest is that diagonal's share of
    ``toeplitz_defect``)."""
    diag = np.diagonal(np.asarray(S, dtype=float), offset=-int(k))
    return np.abs(diag - diag[0])


def spread_figures(data) -> tuple[numbers.Figure, ...]:
    """Each scheme's measured diagonal spread (the Toeplitz defect of its score grid)."""
    return tuple(numbers.measure(v) for v in data.scores.defects)


def verdict(relative: bool) -> str:
    """How position enters a scheme's score, in words after "position enters" (the deck's phrase, clip 15: "position
    enters scores only as m − n"; review round 10)."""
    return f"only as {N.offset.text}" if relative else f"as {N.position.text} and {N.other_position.text}"


def verdict_tex(relative: bool) -> str:
    """:func:`verdict` with its symbols as mathtext, for the still."""
    return "only as $m - n$" if relative else "as $m$ and $n$"


def cbar(scale: ColorScale) -> dict:
    """A still's colour bar ticks: the clip's own (the scale's round ticks, printed the lecture's way)."""
    ticks = tuple(scale.ticks())
    return {"cbar_ticks": ticks, "cbar_ticklabels": tuple(numbers.tick(t) for t in ticks)}


def measured(prefix: str, x: float) -> str:
    """``prefix`` and a measured figure for a still's proof: ``= 0.42``, or ``≈ 1.1 × 10⁻¹⁶`` with no ``=``."""
    return f"{prefix} {sci(x)}" if numbers.measure(x).approx else f"{prefix} = {sci(x)}"


def score_formulas() -> tuple[tuple[str, str], ...]:
    """Per scheme, the query at position m and the key at position n (Typst), as clip 09 prints them."""
    pe_m, e_m = N.encoding.math, N.learned_row.math
    pe_n, e_n = pe_m.replace("_m", "_n"), e_m.replace("_m", "_n")
    return (
        (f"q_m = W_q (x + {pe_m})", f"k_n = W_k (x + {pe_n})"),
        (f"q_m = W_q (x + {e_m})", f"k_n = W_k (x + {e_n})"),
        ("q_m = R_m W_q x", "k_n = R_n W_k x"),
    )


SCORE_TEX = (r"$q_m = W_q(x + \mathrm{PE}_m)$", r"$q_m = W_q(x + E_m)$", r"$q_m = R_m W_q\,x$")


# ====================================================================== 08
@still("SinusoidalPosition")
def waves_to_matrix(data, cfg) -> FigureStill:
    """08 · The Vaswani formula; each column pair's sine and cosine sampled at every position fills
    the PE matrix, pair by pair, wavelengths growing geometrically."""
    T, d = data.PE.shape
    pairs = d // 2
    scale = pe_scale(cfg)
    gap = 2.6  # lanes of the wave panel, one per pair
    series = []
    for i in range(pairs):
        off = (pairs - 1 - i) * gap
        series += [
            Series(data.waves[:, 2 * i] + off, data.wave_x, "sine" if i == 0 else "", "sin", width=1.4),
            Series(data.waves[:, 2 * i + 1] + off, data.wave_x, "cosine" if i == 0 else "", "cos", width=1.4),
            Series(data.samples[:, 2 * i] + off, np.arange(T), "", "sin", "dots", width=1.5),
            Series(data.samples[:, 2 * i + 1] + off, np.arange(T), "", "cos", "dots", width=1.5),
        ]
    offs = [(pairs - 1 - i) * gap for i in range(pairs)]
    waves = PlotPanel(tuple(series), xlabel="position $m$", yticks=tuple(offs),
                 yticklabels=tuple(f"pair {i}" for i in range(pairs)), ylim=(-1.4, offs[0] + 1.6),
                 xlim=(-0.3, T - 0.7), legend="above", grid=False)
    cols = tuple(f"{j}" for j in range(d))
    M = HeatmapPanel(data.PE, scale, title=r"$\mathrm{PE}$", colorbar="value", yticks=tuple(str(m) for m in range(T)),
                xticks=cols, xtick_colors=tuple("sin" if j % 2 == 0 else "cos" for j in range(d)),
                ylabel="position $m$", xlabel="column", **cbar(scale))
    lam = "; ".join(f"$\\lambda_{{{i}}}$ = {f.text}" for i, f in enumerate(wavelength_figures(data.wavelengths)))
    bf = base_figure(data.base)
    b = bf.text if bf.approx else f"= {bf.text}"
    formula = TextPanel((
        TextLine(r"$\mathrm{PE}_{m,\,2i} = \sin(m\,\theta_i),\quad \mathrm{PE}_{m,\,2i+1} = \cos(m\,\theta_i),\quad "
             rf"\theta_i = b^{{-2i/d}}$,  $b$ {b}", size=11.5, space_before=0),
        TextLine(f"wavelengths $\\lambda_i = 2\\pi/\\theta_i$, in positions ($d$ = {d}):   {lam}", size=9.5, color="dim",
             space_before=5),
    ), valign="center")
    fig, ok = sample_check(data)
    return FigureStill(
        "waves_to_matrix", "Sinusoidal positions: one row of waves per position",
        {"F": formula, "W": waves, "M": M}, mosaic="FF;WM", size=(7.0, 5.2), height_ratios=(0.15, 1.0),
        width_ratios=(1.6, 1.0),
        subtitle=f"{T} positions × {d} columns: pair $i$ samples a sine and a cosine, each pair slower than the last",
        proof=(measured("the samples of the waves are the matrix PE: max |wave − PE|", data.sample_defect),),
        proof_color="good" if ok else "bad",
    )


# ====================================================================== 09
@still("ThreePositionalSchemes")
def scores(data, cfg) -> FigureStill:
    """09 · One token's score as the query at m and the key at n, under each scheme, on one scale;
    only RoPE's depends on m − n alone (Toeplitz, measured)."""
    sc = data.scores
    scale = score_scale(data, cfg)
    rel = sc.relative()
    Ts = data.T_sim
    step = 3 if Ts > 8 else 1
    ticks = tuple(str(m) for m in range(Ts))
    panels = {}
    for k, key in enumerate("ABC"):
        off = widest_diagonal(sc.grids[k])
        rows = [m for m in range(Ts) if 0 <= m - off < Ts]
        boxes = tuple(CellBox((m, m), (m - off, m - off), color="accent", width=1.6) for m in rows)
        panels[key] = HeatmapPanel(
            sc.grids[k], scale, title=SCHEME_NAMES[k], colorbar="score" if k == 2 else None, xticks=ticks,
            yticks=ticks, tick_step=step, ylabel="position $m$" if k == 0 else "", xlabel="position $n$",
            boxes=boxes, **(cbar(scale) if k == 2 else {}))
        dist = diagonal_distances(sc.grids[k], off)
        x = np.array(rows, dtype=float)
        lo, hi = spread_axis(data)
        floor = 10.0 ** lo
        series = [Series(np.where(dist > 0, dist, np.nan)[1:], x[1:], "", "accent", "dots", width=2.2)]
        if np.any(dist[1:] == 0):  # an exact zero has no place on a log axis: a hollow diamond on the floor
            zero = dist[1:] == 0
            series.append(Series(np.full(int(zero.sum()), floor * 1.6), x[1:][zero], "", "accent", "dots",
                                 width=2.2, marker="D", hollow=True))
        powers = spread_ticks(lo, hi, most=4)
        panels["GHI"[k]] = PlotPanel(
            tuple(series), title=f"$m - n = {off}$", xlabel="$m$", y_log=True, ylim=(floor, 10.0 ** hi),
            yticks=tuple(10.0 ** t for t in powers), yticklabels=tuple(f"$10^{{{t}}}$" for t in powers),
            xlim=(rows[0] - 0.6, rows[-1] + 0.6), hlines=(Rule(PASS_LINE, "", "dim"),), legend="", grid=False)
        panels["DEF"[k]] = TextPanel((
            TextLine(SCORE_TEX[k], size=9.5),
            TextLine(measured("spread", sc.defects[k]), size=9.5, space_before=4, color="good" if rel[k] else "fg"),
            TextLine(f"position enters {verdict_tex(rel[k])}", size=9.5, color="good" if rel[k] else "dim", space_before=1),
        ))
    return FigureStill(
        "scores", "Three positional schemes, compared on the score they give one token",
        panels, mosaic="ABC;GHI;DEF", size=(7.0, 5.6), height_ratios=(1.0, 0.42, 0.36),
        subtitle=f"$q_m\\cdot k_n$ of one token at positions $m$ and $n$ ({Ts} of each); below, the outlined "
                 "diagonal: each cell's distance from the first, on one log axis (the largest: the spread)",
        proof=(measured("RoPE: position enters $q_m\\cdot k_n$ only as $m - n$: spread", sc.defects[2])
               + ", below the $10^{-10}$ pass line" * rel[2],),
        proof_color="good" if rel[2] else "bad",
    )
