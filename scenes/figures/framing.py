"""Designed stills of the lecture's frame: 00 the property map, 15 the four diary answers.

Both read the clips' own data (``Title.build_data``: the lecture and ``scenes.catalog.PROPERTIES``;
``Recap.build_data``: the questions, answers and the clips that show them) and print it as cards
in the family colours, each with a small schematic drawing of its idea (the same ideas the clips
draw; shapes only, no data).
"""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import FigureStill, Line, Text, mathify

from . import still


# ====================================================================== schematic drawings
# Each draws on axes spanning [-0.5, 0.5]² in one colour; ``th`` gives the paper and ink.
def _square(ax, x, y, side, color, alpha, edge=None, lw=1.2):
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x - side / 2, y - side / 2), side, side, facecolor=color, alpha=alpha, linewidth=0))
    if edge:
        ax.add_patch(Rectangle((x - side / 2, y - side / 2), side, side, facecolor="none", edgecolor=edge, linewidth=lw))


def draw_permute(ax, th, color):
    """Four tokens (one shade each) and the same four in another order: rows only move."""
    perm, shades, n = (2, 0, 3, 1), (1.0, 0.72, 0.46, 0.22), 4
    pitch, side = 0.24, 0.15
    xs = [(k - (n - 1) / 2) * pitch for k in range(n)]
    for k in range(n):
        ax.plot([xs[perm[k]], xs[k]], [0.26, -0.26], color=color, linewidth=1.6, alpha=0.75)
    for k in range(n):
        _square(ax, xs[k], 0.33, side, color, shades[k], edge=color)
        _square(ax, xs[k], -0.33, side, color, shades[perm[k]], edge=color)


def draw_causal(ax, th, color):
    """A 4×4 attention grid with its upper triangle masked off."""
    n, side = 4, 0.23
    for i in range(n):
        for j in range(n):
            x, y = (j - 1.5) * side, (1.5 - i) * side
            if j <= i:
                _square(ax, x, y, side * 0.92, color, 0.35 + 0.55 * (i == j) + 0.03 * j)
            else:
                _square(ax, x, y, side * 0.92, th.masked, 1.0)


def draw_cache(ax, th, color):
    """A K and a V cache: rows kept from earlier steps, and the one new row added."""
    from matplotlib.patches import FancyArrow, FancyBboxPatch

    for x in (-0.2, 0.2):
        for i in range(4):
            new = i == 3
            y = 0.3 - i * 0.16
            ax.add_patch(FancyBboxPatch((x - 0.16, y - 0.05), 0.32, 0.1, boxstyle="round,pad=0,rounding_size=0.02",
                                        facecolor=color, alpha=1.0 if new else 0.38, linewidth=0))
            if new:
                ax.add_patch(FancyBboxPatch((x - 0.16, y - 0.05), 0.32, 0.1, boxstyle="round,pad=0,rounding_size=0.02",
                                            facecolor="none", edgecolor=th.fg, linewidth=1.2))
    ax.add_patch(FancyArrow(0, -0.46, 0, 0.14, width=0.012, head_width=0.06, head_length=0.05, color=th.fg,
                            length_includes_head=True))


def draw_waves(ax, th, color):
    """Three sinusoids of falling frequency: one position code per pair of columns."""
    x = np.linspace(-0.45, 0.45, 120)
    for k, (freq, op) in enumerate(((4.0, 1.0), (2.0, 0.75), (1.0, 0.5))):
        ax.plot(x, 0.3 - 0.3 * k + 0.1 * np.sin(freq * np.pi * x / 0.9 * 2), color=color, linewidth=1.8, alpha=op)


def draw_rotate(ax, th, color):
    """RoPE: q and k turn on a dial by their positions; v stands apart, unturned."""
    from matplotlib.patches import Arc, Circle, FancyArrow

    c, r = (-0.1, 0.0), 0.3
    ax.add_patch(Circle(c, r, facecolor="none", edgecolor=th.dim, linewidth=1.2))
    for ang in (75, -20):
        a = np.deg2rad(ang)
        ax.add_patch(FancyArrow(c[0], c[1], r * np.cos(a), r * np.sin(a), width=0.012, head_width=0.06,
                                head_length=0.06, color=color, length_includes_head=True))
    ax.add_patch(Arc(c, 2.5 * r * 0.9, 2.5 * r * 0.9, theta1=-20, theta2=75, edgecolor=color, linewidth=1.2, alpha=0.7))
    ax.add_patch(FancyArrow(0.38, -0.3, 0, 0.6, width=0.012, head_width=0.06, head_length=0.06, color=th.fg,
                            length_includes_head=True))


def draw_wall(ax, th, color):
    """A learned table that ends at its last row (a wall), beside a RoPE dial that never does."""
    from matplotlib.patches import Arc, Circle, FancyArrow, FancyBboxPatch

    for i in range(5):
        ax.add_patch(FancyBboxPatch((-0.44, 0.34 - i * 0.12), 0.36, 0.08, boxstyle="round,pad=0,rounding_size=0.015",
                                    facecolor=color, alpha=0.6 - 0.08 * i, linewidth=0))
    ax.plot([-0.47, -0.05], [-0.3, -0.3], color=th.bad, linewidth=3.2, solid_capstyle="butt")
    c, r = (0.26, -0.02), 0.15
    ax.add_patch(Circle(c, r, facecolor="none", edgecolor=color, linewidth=1.4))
    ax.add_patch(FancyArrow(c[0], c[1], r * np.cos(1.0), r * np.sin(1.0), width=0.01, head_width=0.05,
                            head_length=0.05, color=color, length_includes_head=True))
    ax.add_patch(Arc(c, 2.7 * r, 2.7 * r, theta1=-35, theta2=205, edgecolor=color, linewidth=1.1, alpha=0.7))


FAMILY_DRAWINGS = (draw_permute, draw_causal, draw_cache, draw_waves)
"""One drawing per property of ``scenes.catalog.PROPERTIES``, in the same order."""
RECAP_DRAWINGS = (draw_permute, draw_cache, draw_rotate, draw_wall)
"""One drawing per diary answer, in the order of ``RecapData.answers``."""


# ====================================================================== 00 the property map
def property_card(k: int, name: str, clips) -> Text:
    """Card ``k``: the property in its family colour, then one line per clip: its chip and title."""
    lines = [Line(name, size=12, color=f"family:{k}", weight="bold", space_before=0)]
    lines += [Line(c.title, size=10.5, chips=(c.number,), space_before=3 if j == 0 else 1) for j, c in enumerate(clips)]
    tall = len(clips) > 4  # the positional family: its drawing sits under its list
    return Text(tuple(lines), frame=f"family:{k}", picture=FAMILY_DRAWINGS[k], picture_width=0.24 if tall else 0.3,
                picture_at="bottom" if tall else "left")


@still("Title")
def property_map(data, cfg) -> FigureStill:
    """00 · The lecture, and the notebook's four properties as a map of the clips that show them."""
    cards = {"ABCD"[k]: property_card(k, name, clips) for k, (name, clips) in enumerate(data.properties)}
    n = sum(len(c) for _, c in data.properties)
    return FigureStill(
        "property_map", f"Lecture {data.number} · {data.title}", cards, mosaic="AD;BD;CD", size=(7.0, 4.4),
        subtitle=f"notebook {data.notebook} · four properties, {n} clips", wspace=0.04, hspace=0.05,
    )


# ====================================================================== 15 the four diary answers
def answer_card(k: int, answer) -> Text:
    color = f"clip:{answer.clips[0].number}"
    tag = "clip" if len(answer.clips) == 1 else "clips"
    return Text((
        Line(mathify(answer.question), size=10, color="dim"),
        Line(mathify(answer.answer), size=12, weight="semibold", space_before=4),
        Line(tag, size=10, color="dim", chips=tuple(c.number for c in answer.clips), chips_after=True, space_before=6),
    ), frame=color, picture=RECAP_DRAWINGS[k], picture_width=0.27)


@still("Recap")
def diary_answers(data, cfg) -> FigureStill:
    """15 · The four diary questions, each answered in one line with the clips that show it."""
    cards = {"ABCD"[k]: answer_card(k, a) for k, a in enumerate(data.answers)}
    return FigureStill(
        "diary_answers", "Four questions for your AI diary", cards, mosaic="AB;CD", size=(7.0, 4.0),
        subtitle="each answered in one line, with the clips that show it", wspace=0.04, hspace=0.05,
    )
