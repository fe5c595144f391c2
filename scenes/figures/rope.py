"""Designed stills of the RoPE clips: 10 the angle grid, 11 RoPE rotates Q and K, not V."""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import Box, Custom, FigureStill, Heatmap, Line, Text, sci
from scenes.kit.theme import ColorScale

from . import still
from .equivariance import token_roles, tokens
from .positions import base_tex

TWO_PI = 2 * np.pi
Q_COLOR, K_COLOR = "accent", "blue"  # clip 11's colours for the query and the key


def log_scale_bounds(log_values: np.ndarray) -> tuple[int, int]:
    """Whole decades that cover the finite ``log10`` values (clip 10's log scale for the slow pairs)."""
    f = log_values[np.isfinite(log_values)]
    lo, hi = int(np.floor(f.min())), int(np.ceil(f.max()))
    return lo, max(hi, lo + 1)


def angle_scales(data) -> tuple[ColorScale, ColorScale]:
    """Clip 10's scales: the fast pairs' angles mod 2π on the cyclic map, the slow pairs' log10 angles."""
    lo, hi = log_scale_bounds(data.log_slow)
    return ColorScale(data.cmap, 0.0, TWO_PI), ColorScale(data.cmap_log, lo, hi)


def draw_hands(ax, th, grid, pairs, m_pick, colors) -> None:
    """Each picked pair as a hand on a dial, one dial above the other: its angle m·θ_i at every
    position up to ``m_pick`` (faint dots: the path the hand swept), the hand itself at ``m_pick``."""
    from matplotlib.patches import Circle, FancyArrow

    r = 0.2
    for k, (i, col) in enumerate(zip(pairs, colors)):
        cx, cy = -0.22, 0.27 - 0.56 * k
        ax.add_patch(Circle((cx, cy), r, facecolor="none", edgecolor=th.dim, linewidth=1.0))
        a = grid[: m_pick + 1, i]
        ax.scatter(cx + r * np.cos(a), cy + r * np.sin(a), s=10, color=th.color(col), alpha=0.5, linewidths=0,
                   zorder=3)
        ang = grid[m_pick, i]
        ax.add_patch(FancyArrow(cx, cy, r * np.cos(ang), r * np.sin(ang), width=0.01, head_width=0.045,
                                head_length=0.045, color=th.color(col), length_includes_head=True, zorder=4))
        turns = ang / TWO_PI
        what = f"{turns:.2f} turns" if turns >= 0.01 else f"{ang:.3f} rad".replace("-", "\u2212")
        ax.text(cx + r + 0.06, cy + 0.05, f"pair {i}", ha="left", va="bottom", fontsize=9.5, color=th.color(col),
                weight="bold")
        ax.text(cx + r + 0.06, cy + 0.02, f"{what}\nby $m$ = {m_pick}", ha="left", va="top", fontsize=9,
                color=th.color(col))
    ax.set_xlim(-0.5, 0.5)
    ax.set_ylim(-0.58, 0.55)
    ax.set_aspect("equal")


# ====================================================================== 10
@still("RoPEAngleGrid")
def angle_grid(data, cfg) -> FigureStill:
    """10 · The (T, d/2) angle table m·θ_i: fast pairs wrap (cyclic colours), slow pairs barely turn
    (log colours); a fast hand and a slow hand at the last position."""
    T, half = data.grid.shape
    nf = data.n_fast
    cyc, logs = angle_scales(data)
    lo, hi = int(logs.norm.vmin), int(logs.norm.vmax)
    rows = tuple(str(m) for m in range(T))
    pick = (Box((data.m_pick, data.m_pick), (0, nf - 1), "fg", width=1.8),)
    fast = Heatmap(data.wrapped[:, :nf], cyc, title=f"pairs 0–{nf - 1}: angle mod $2\\pi$", yticks=rows,
                   xticks=tuple(str(i) for i in range(nf)), xlabel="pair $i$", ylabel="position $m$",
                   colorbar="radians", cbar_ticks=(0.0, np.pi, TWO_PI), cbar_ticklabels=("0", r"$\pi$", r"$2\pi$"),
                   boxes=pick)
    decades = tuple(range(lo, hi + 1, max(1, (hi - lo + 3) // 4)))
    slow = Heatmap(data.log_slow, logs, title=f"pairs {nf}–{half - 1}: $\\log_{{10}}$ angle",
                   yticks=rows, xticks=tuple(str(i) for i in range(nf, half)), xlabel="pair $i$",
                   colorbar="radians", cbar_ticks=tuple(float(e) for e in decades),
                   cbar_ticklabels=tuple(f"$10^{{{e}}}$" for e in decades),
                   boxes=(Box((data.m_pick, data.m_pick), (0, half - nf - 1), "fg", width=1.8),))
    hands = Custom(lambda ax, th: draw_hands(ax, th, data.grid, (data.fast, data.slow), data.m_pick,
                                             ("accent", "blue")),
                   title="two hands", data=(data.grid, (data.fast, data.slow), data.m_pick))
    b = base_tex(data.base)
    return FigureStill(
        "angle_grid", "The RoPE angle table: fast hands and slow hands",
        {"A": fast, "B": slow, "H": hands}, mosaic="ABH", size=(7.0, 4.6), width_ratios=(nf + 1.6, half - nf + 2.2, 3.6),
        subtitle=(f"row $m$, pair $i$ holds $m\\,\\theta_i$ with $\\theta_i = {b}^{{-2i/d}}$ ($d$ = {data.d}); "
                  f"boxed: row {data.m_pick}"),
        proof=(f"the grid equals $m\\cdot{b}^{{-2i/d}}$ entry by entry: max gap {sci(data.defect)}",),
        proof_color="good" if data.defect < 1e-12 else "bad",
    )


# ====================================================================== 11
def output_scale(data) -> ColorScale:
    """Clip 11's scale for the outputs: symmetric over all four output matrices."""
    allY = np.concatenate([data.Y_plain, data.Y_plain_shifted, data.Y_rot, data.Y_rot_shifted])
    return ColorScale.symmetric(data.cmap, allY)


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
            for vec, col in ((data.q_pairs[stage, i], Q_COLOR), (data.k_pairs[stage, i], K_COLOR)):
                v = np.asarray(vec) / big * r
                ax.add_patch(FancyArrow(cx, 0, v[0], v[1], width=0.006, head_width=0.03, head_length=0.03,
                                        color=th.color(col), alpha=alpha, length_includes_head=True,
                                        linestyle=style))
        ax.text(cx, -r - 0.04, f"pair {i}", ha="center", va="top", fontsize=9, color=th.dim)
        if i == 0:  # name the hands once, at their tips
            for vec, col, name in ((data.q_pairs[1, 0], Q_COLOR, "q"), (data.k_pairs[1, 0], K_COLOR, "k")):
                v = np.asarray(vec) / big * r
                ax.text(cx + 1.18 * v[0], 1.18 * v[1], f"${name}$", ha="center", va="center", fontsize=11,
                        color=th.color(col))
    ax.set_xlim(-0.5, 0.5)
    ax.set_ylim(-r - 0.14, r + 0.04)
    ax.set_aspect("equal")


@still("RoPERotatesQK")
def rotate_qk(data, cfg) -> FigureStill:
    """11 · Rotating q by m and k by n makes the score depend on m − n only; V is left alone, and a
    rotated V would make a shifted sentence's outputs change (measured)."""
    T, d = data.Y_plain.shape
    scale = output_scale(data)
    feats = tuple(str(j) for j in range(d))
    plain_ok, rot_bad = data.defect_plain < 1e-12, data.defect_rot >= 1e-12

    def Y(M, title, bar=False, note="", good=True):
        return Heatmap(M, scale, title=title, colorbar="output" if bar else None, xticks=feats,
                       yticks=tokens(range(T), "y"), ytick_colors=token_roles(range(T)),
                       note=note, note_color="good" if good else "bad")

    s, m, n = data.s, data.m, data.n
    pairs = Custom(lambda ax, th: draw_pairs(ax, th, data),
                   title=f"$q$ at {m}, $k$ at {n}; dashed: both +{s}",
                   data=(data.q_pairs, data.k_pairs))
    scores = Text((
        Line(f"score at ({m}, {n}):  {data.score:.6f}".replace("-", "\u2212"), size=10),
        Line(f"score at ({m + s}, {n + s}):  {data.score_shifted:.6f}".replace("-", "\u2212"), size=10, space_before=1),
        Line(f"gap {sci(data.score_gap)};  largest for $s$ = 1..{data.s_max}: {sci(data.score_gap_max)}", size=10,
             color="good" if data.score_gap_max < 1e-12 else "bad", space_before=3),
    ), valign="top")
    panels = {
        "Q": pairs, "S": scores,
        "A": Y(data.Y_plain, f"$V = XW_v$: at 0..{T - 1}"),
        "B": Y(data.Y_plain_shifted, f"at {s}..{s + T - 1}", bar=True,
               note=f"max $|\\Delta Y|$ = {sci(data.defect_plain)}", good=plain_ok),
        "C": Y(data.Y_rot, f"$V = R_m X W_v$: at 0..{T - 1}"),
        "D": Y(data.Y_rot_shifted, f"at {s}..{s + T - 1}", bar=True,
               note=f"max $|\\Delta Y|$ = {sci(data.defect_rot)}", good=not rot_bad),
    }
    return FigureStill(
        "rotate_qk", "RoPE rotates Q and K, not V",
        panels, mosaic="QQAB;SSCD", size=(7.0, 5.0), width_ratios=(1.0, 1.0, 1.0, 1.25), height_ratios=(1.0, 1.0),
        subtitle="the score sees only the angle between $q$ and $k$; $V$ carries content, so it is left alone",
        proof=(f"scores before and after shifting both positions agree to {sci(data.score_gap_max)}; "
               f"outputs: {sci(data.defect_plain)} with $V$ alone, {sci(data.defect_rot)} with $V$ rotated",),
        proof_color="good" if plain_ok and data.score_gap_max < 1e-12 else "bad",
    )
