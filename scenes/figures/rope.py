"""The RoPE clips' picture, described once: 10 the angle grid, 11 RoPE rotates Q and K, not V.

What a clip draws and what its still prints come from here: the colour scales (one per
quantity for the whole clip), the colour-bar ticks, the titles that name the data, the
proof figures and whether each check passed.  ``scenes/rope.py`` imports these; the stills
below are their matplotlib rendering.  The proof's figures are :class:`scenes.kit.numbers.Figure`
objects: the clip typesets ``.math`` with Typst, the still prints ``.text``.
"""

from __future__ import annotations

import numpy as np

from mathcore.equivariance import THRESHOLD
from scenes.kit import numbers
from scenes.kit.notation import N
from scenes.stills.spec import CellBox, DrawnPanel, FigureStill, HeatmapPanel, TextLine, TextPanel
from scenes.stills.text import sci
from scenes.kit.theme import ColorScale

from . import still

TWO_PI = 2 * np.pi
# the angle table's colour bar: a turn, labelled at its ends and its middle
ANGLE_TICKS = (0.0, np.pi, TWO_PI)
ANGLE_TICK_MATH = ("0", "pi", "2 pi")  # Typst (the clip)
ANGLE_TICK_TEX = ("0", r"$\pi$", r"$2\pi$")  # mathtext (the still)
SLOW_DECADES = 4  # at most this many decades between labels of the slow pairs' log bar
SCORE_DIGITS = 4  # a score is printed to 4 significant digits: the two scores agree in every one
Q_ROLE, K_ROLE = "query", "key"  # the concept colours of the query and the key (theme.QUERY, KEY)


def passed(x: float) -> bool:
    """The deck's pass line (``mathcore.equivariance.THRESHOLD``, 10⁻¹⁰): a gap under it is rounding."""
    return abs(x) < THRESHOLD


def verdict(x: float) -> str:
    """The concept colour of a measured gap: ``"verified"`` under the pass line, else ``"failed"``."""
    return "verified" if passed(x) else "failed"


def relation_prefix(lhs: str, fig: numbers.Figure) -> str:
    """What goes before ``fig`` in Typst: ``lhs =``, or ``lhs`` alone when the figure carries its own ``≈``."""
    return lhs if fig.math.startswith("approx") else f"{lhs} ="


def relation(lhs: str, fig: numbers.Figure) -> str:
    """Typst ``lhs = 0.83``, or ``lhs ≈ 2.2 × 10⁻¹⁶`` when the figure is approximate (never ``= ≈``)."""
    return f"{relation_prefix(lhs, fig)} {fig.math}"


def relation_text(lhs: str, fig: numbers.Figure) -> str:
    """The caption form of :func:`relation`."""
    if fig.exact:
        return f"{lhs} = 0 (exact)"
    return f"{lhs} {fig.text}" if fig.text.startswith("≈") else f"{lhs} = {fig.text}"


def relation_tex(lhs: str, x: float) -> str:
    """The still's form of :func:`relation`: the figure as the stills print it (``stills.sci``, mathtext)."""
    f = sci(x)
    return f"{lhs} {f}" if f.startswith("$\\approx") else f"{lhs} = {f}"


# ====================================================================== 10: scales and proof
BASE_DIGITS = 7  # a base of at most this many significant digits is printed as given


def base_figure(base: float) -> numbers.Figure:
    """The frequency base ``b`` as the lecture prints it: as given when it has at most
    ``BASE_DIGITS`` significant digits (digits below ten million with thin-space thousands,
    ``10 000``, ``123 456.5``; then a power of ten, ``10⁹``, ``5.633 · 10⁸``), else ``≈`` to 4
    significant digits; never a float's ``e+08``."""
    exact = float(f"{base:.{BASE_DIGITS}g}") == base
    mant, exp = numbers.scientific(base, BASE_DIGITS if exact else 4)
    mant = mant.rstrip("0").rstrip(".")
    if exp < BASE_DIGITS:  # plain digits
        digits = numbers.group_thousands(f"{float(mant) * 10.0 ** exp:.{max(0, len(mant.replace('.', '')) - 1 - exp)}f}")
        m, t = digits.replace(numbers.THIN, " thin "), digits
    elif mant == "1":
        m, t = f"10^{exp}", f"10{numbers.superscript(exp)}"
    else:
        m, t = f"{mant} dot 10^{exp}", f"{mant} · 10{numbers.superscript(exp)}"
    if exact:
        return numbers.Figure(float(base), m, t)
    return numbers.Figure(float(base), f"approx {m}", f"≈ {t}", approx=True)


def angle_scale(cfg) -> ColorScale:
    """Clip 10's one scale for the whole table, the deck's for angles: every angle mod 2π on the cyclic map."""
    from scenes.kit.scales import scale

    return scale("angles", cfg)


def slow_scale(data, cfg) -> ColorScale:
    """The slow pairs' own scale (a beat of its own in clip 10), the deck's "slow angles": ``log10`` of their
    angles on a sequential map (cividis: not the weights' colormap), from one decade to another (``m = 0``,
    an angle of exactly 0, is the masked colour)."""
    from scenes.kit.scales import scale

    return scale("slow angles", cfg, values=data.log_slow)


def slow_decades(data, cfg) -> list[int]:
    """The decades labelled on the slow pairs' log colour bar, low end to high end: both ends of the scale
    and round steps between them that divide the span (at most ``SLOW_DECADES + 2`` labels)."""
    s = slow_scale(data, cfg)
    lo, hi = int(round(s.vmin)), int(round(s.vmax))
    span = hi - lo
    step = max(1, -(-span // (SLOW_DECADES + 1)))
    while span % step:
        step += 1
    return list(range(lo, hi + 1, step))


def theta_figure(x: float) -> numbers.Figure:
    """A rate θᵢ as the clips print it: two significant digits, ``≈ m × 10ᵏ`` when tiny."""
    return numbers.measure(x)


def grid_proof(data) -> tuple[str, numbers.Figure]:
    """Clip 10's proof: the Typst statement (before its figure) and the measured figure."""
    return f'max abs("angle"_(m, i) - m {N.base.math}^(-2i \\/ d))', numbers.measure(data.defect)


# ====================================================================== 11: scales, titles and proof
def output_scale(cfg) -> ColorScale:
    """Clip 11's scale for the outputs: the deck's for attention outputs (which holds RoPE's, V alone and V
    rotated, at both positions: ``kit.scales``)."""
    from scenes.kit.scales import scale

    return scale("outputs", cfg)


def shift_scale(data, cfg) -> ColorScale:
    """Clip 11's scale for ΔY, what sliding every position does to the outputs (V alone and V rotated): the
    deck's "output shifts", symmetric over both, round ends."""
    from scenes.kit.scales import scale

    return scale("output shifts", cfg, values=[data.dY_plain, data.dY_rot])


def positions_text(first: int, T: int) -> str:
    """``positions 0 to 5``: the positions a map's rows sit at (never ``0..5``)."""
    return f"positions {first} to {first + T - 1}"


V_PLAIN_MATH, V_ROT_MATH = "V = X W_V", 'V = "RoPE"(X W_V)'  # clip 11's two values (W_V as clip 07 writes it)
V_PLAIN_TEX, V_ROT_TEX = "$V = XW_V$", r"$V = \mathrm{RoPE}(XW_V)$"


def score_gap_lhs(s_max: int) -> str:
    """The largest score gap over every shift ``s`` from 1 to ``s_max`` (Typst)."""
    return f'scripts(max)_(s <= {numbers.count(s_max).math}) abs(Delta "score")'


def output_gap_lhs() -> str:
    return "max abs(Delta Y)"


# ====================================================================== 10
def draw_hands(ax, th, grid, theta, pairs, m_pick, words) -> None:
    """Each picked pair as a hand on a dial, side by side: its angle m·θᵢ at every position up
    to ``m_pick`` (faint dots: the path the hand swept), the hand itself at ``m_pick``."""
    from matplotlib.patches import Circle, FancyArrow

    r = 0.2
    for k, (i, word) in enumerate(zip(pairs, words)):
        cx, cy = 0.0, 0.27 - 0.56 * k
        ax.add_patch(Circle((cx, cy), r, facecolor="none", edgecolor=th.dim, linewidth=1.0))
        a = grid[: m_pick + 1, i]
        ax.scatter(cx + r * np.cos(a), cy + r * np.sin(a), s=10, color=th.fg, alpha=0.5, linewidths=0, zorder=3)
        ang = grid[m_pick, i]
        ax.add_patch(FancyArrow(cx, cy, r * np.cos(ang), r * np.sin(ang), width=0.01, head_width=0.045,
                                head_length=0.045, color=th.fg, length_includes_head=True, zorder=4))
        ax.text(cx + r + 0.05, cy + 0.05, f"{word}: pair {i}", ha="left", va="bottom", fontsize=9.5, color=th.fg,
                weight="bold")
        ax.text(cx + r + 0.05, cy + 0.02, relation_tex(f"$\\theta_{{{i}}}$", theta[i]), ha="left", va="top",
                fontsize=9, color=th.dim)
    ax.set_xlim(-0.3, 0.7)
    ax.set_ylim(-0.58, 0.55)
    ax.set_aspect("equal")


@still("RoPEAngleGrid")
def angle_grid(data, cfg) -> FigureStill:
    """10 · The (T, d/2) angle table m·θᵢ on one cyclic scale; the slow pairs, which never reach a
    quarter turn, on a log scale of their own; a fast hand and a slow hand at the last position."""
    T, half = data.grid.shape
    nf = data.n_fast
    cyc, logs = angle_scale(cfg), slow_scale(data, cfg)
    decades = slow_decades(data, cfg)
    rows = tuple(str(m) for m in range(T))
    table = HeatmapPanel(data.wrapped, cyc, title="angle mod $2\\pi$", yticks=rows, xticks=tuple(str(i) for i in range(half)),
                    xlabel="pair $i$", ylabel="position $m$", colorbar="radians", cbar_ticks=ANGLE_TICKS,
                    cbar_ticklabels=ANGLE_TICK_TEX, tick_step=1 if T <= 12 else 2,
                    boxes=(CellBox((data.m_pick, data.m_pick), (0, half - 1), "accent", width=1.8),
                           CellBox((0, T - 1), (data.fast, data.fast), "accent", width=1.2),
                           CellBox((0, T - 1), (data.slow, data.slow), "accent", width=1.2)))
    slow = HeatmapPanel(data.log_slow, logs, title=f"pairs {nf}–{half - 1}: log scale", yticks=rows,
                   xticks=tuple(str(i) for i in range(nf, half)), xlabel="pair $i$", colorbar="radians",
                   cbar_ticks=tuple(float(e) for e in decades), tick_step=1 if T <= 12 else 2,
                   cbar_ticklabels=tuple(f"$10^{{{e}}}$" for e in decades))
    hands = DrawnPanel(lambda ax, th: draw_hands(ax, th, data.grid, data.theta, (data.fast, data.slow), data.m_pick, ("fast", "slow")),
                   title="two hands", data=(data.grid, (data.fast, data.slow), data.m_pick))
    return FigureStill(
        "angle_grid", "The RoPE angle table: fast hands and slow hands",
        {"A": table, "B": slow, "H": hands}, mosaic="ABH", size=(7.0, 4.6),
        width_ratios=(half + 1.8, half - nf + 2.2, 4.2),
        subtitle=(f"row $m$, pair $i$ holds $m\\,\\theta_i$ with $\\theta_i = b^{{-2i/d}}$, "
                  f"{relation_text('$b$', base_figure(data.base))}, $d$ = {data.d}; "
                  f"boxed: row {data.m_pick}, pairs {data.fast} and {data.slow}"),
        proof=(relation_tex("the table equals $m\\,b^{-2i/d}$ entry by entry: largest gap", data.defect),),
        proof_color="good" if passed(data.defect) else "bad",
    )


# ====================================================================== 11
def draw_pairs(ax, th, data) -> None:
    """Each pair of q and k as two hands: at (m, n) solid, at (m+s, n+s) faded; the angle between
    them is the same."""
    from matplotlib.patches import Circle, FancyArrow

    half = data.q_pairs.shape[1]
    xs = np.linspace(-0.5 + 0.5 / half, 0.5 - 0.5 / half, half)
    r = min(0.2, 0.42 / half)
    big = float(max(np.abs(data.q_pairs).max(), np.abs(data.k_pairs).max())) or 1.0
    for i, cx in enumerate(xs):
        ax.add_patch(Circle((cx, 0), r, facecolor="none", edgecolor=th.dim, linewidth=1.0))
        for stage, alpha, style in ((1, 1.0, "-"), (2, 0.4, "--")):
            for vec, col in ((data.q_pairs[stage, i], Q_ROLE), (data.k_pairs[stage, i], K_ROLE)):
                v = np.asarray(vec) / big * r
                ax.add_patch(FancyArrow(cx, 0, v[0], v[1], width=0.006, head_width=0.03, head_length=0.03,
                                        color=th.color(col), alpha=alpha, length_includes_head=True,
                                        linestyle=style))
        ax.text(cx, -r - 0.09, f"pair {i}", ha="center", va="top", fontsize=9, color=th.dim)
        if i == 0:  # name the hands once, at their tips
            for vec, col, name in ((data.q_pairs[1, 0], Q_ROLE, "q"), (data.k_pairs[1, 0], K_ROLE, "k")):
                v = np.asarray(vec) / big * r
                ax.text(cx + 1.18 * v[0], 1.18 * v[1], f"${name}$", ha="center", va="center", fontsize=11,
                        color=th.color(col))
    ax.set_xlim(-0.5, 0.5)
    ax.set_ylim(-r - 0.19, r + 0.04)
    ax.set_aspect("equal")


@still("RoPERotatesQK")
def rotate_qk(data, cfg) -> FigureStill:
    """11 · Rotating q by m and k by n makes the score depend on m − n only; V is left alone, and a
    rotated V would make a shifted sentence's outputs change (measured)."""
    T, d = data.Y_plain.shape
    scale = output_scale(cfg)
    feats = tuple(str(j) for j in range(d))
    rows = tuple(str(k) for k in range(T))

    def Y(M, title, bar=False, note="", role="verified"):
        return HeatmapPanel(M, scale, title=title, colorbar="output" if bar else None, xticks=feats, yticks=rows,
                       ylabel="token", note=note, note_color="good" if role == "verified" else "bad",
                       cbar_ticks=tuple(scale.ticks()), cbar_ticklabels=tuple(numbers.tick(v) for v in scale.ticks()))

    s, m, n = data.s, data.m, data.n
    score = numbers.measure(data.score, SCORE_DIGITS)
    shifted = numbers.measure(data.score_shifted, SCORE_DIGITS)
    pairs = DrawnPanel(lambda ax, th: draw_pairs(ax, th, data),
                   title=f"$q$ at $m$ = {m}, $k$ at $n$ = {n}; dashed: both $+s$",
                   data=(data.q_pairs, data.k_pairs))
    scores = TextPanel((
        TextLine(f"score({m}, {n}) = {score.text}", size=10),
        TextLine(f"score({m + s}, {n + s}) = {shifted.text}", size=10, space_before=1),
        TextLine(relation_tex("Δ score", data.score_gap), size=10, space_before=3,
             color="good" if passed(data.score_gap) else "bad"),
        TextLine(relation_tex(f"largest over every shift $s$ up to {numbers.count(data.s_max).text}:", data.score_gap_max),
             size=10, color="good" if passed(data.score_gap_max) else "bad", space_before=1),
    ), valign="top")
    panels = {
        "Q": pairs, "S": scores,
        "A": Y(data.Y_plain, f"{V_PLAIN_TEX}: {positions_text(0, T)}"),
        "B": Y(data.Y_plain_shifted, positions_text(s, T), bar=True,
               note=relation_tex("max |ΔY|", data.defect_plain), role=verdict(data.defect_plain)),
        "C": Y(data.Y_rot, f"{V_ROT_TEX}: {positions_text(0, T)}"),
        "D": Y(data.Y_rot_shifted, positions_text(s, T), bar=True,
               note=relation_tex("max |ΔY|", data.defect_rot), role=verdict(data.defect_rot)),
    }
    return FigureStill(
        "rotate_qk", "RoPE rotates Q and K, not V",
        panels, mosaic="QQAB;SSCD", size=(7.0, 5.0), width_ratios=(1.0, 1.0, 1.0, 1.25), height_ratios=(1.0, 1.0),
        subtitle="the score sees only the angle between $q$ and $k$; $V$ carries content, so it is left alone",
        proof=(relation_tex("scores before and after shifting both positions agree: largest gap", data.score_gap_max)
               + f"; outputs moved by $s$ = {s}: {relation_tex('max |ΔY|', data.defect_plain)} with $V$ alone, "
                 f"{relation_tex('max |ΔY|', data.defect_rot)} with $V$ rotated",),
        proof_color="good" if passed(data.defect_plain) and passed(data.score_gap_max) else "bad",
    )
