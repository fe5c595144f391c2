"""The lecture's frame, 00 (the property map) and 15 (the four diary answers): its icons, described
once, and its stills.

The six icons (``ICONS``) are shape descriptions (``scenes.kit.icons``): the clips draw them with
Manim (``icons.to_manim``), the stills with matplotlib (``icons.to_matplotlib``), so the title
card, the recap and their stills show one picture per idea.  ``MAP_ICONS`` follows
``scenes.catalog.PROPERTIES``; ``RECAP_ICONS`` the diary answers of ``Recap.build_data``.

Both stills read the clips' own data (``Title.build_data``: the lecture and the catalog's
properties; ``Recap.build_data``: the questions, answers and the clips that show them) and print
it as cards in the family colours, each with its icon.
"""

from __future__ import annotations

import numpy as np

from scenes.kit.icons import Bend, Box, Icon, Letter, Pointer, Ring, Stroke, polyline, to_matplotlib
from scenes.stills.spec import FigureStill, TextLine, TextPanel
from scenes.stills.text import mathify

from . import still


# ====================================================================== the six icons
def _permute() -> Icon:
    perm, shades = (2, 0, 3, 1), (1.0, 0.72, 0.46, 0.22)
    side, y = 0.19, 0.36
    xs = [(k - 1.5) * 0.25 for k in range(4)]
    links = tuple(Stroke(((xs[perm[k]], y - side / 2), (xs[k], -y + side / 2)), alpha=0.75) for k in range(4))
    top = tuple(Box(xs[k], y, side, side, alpha=shades[k], edge="ink", weight=2) for k in range(4))
    bottom = tuple(Box(xs[k], -y, side, side, alpha=shades[perm[k]], edge="ink", weight=2) for k in range(4))
    return Icon("permute", links + top + bottom, "Four tokens (one shade each) and the same four in another "
                                                 "order: rows only move.")


def _causal() -> Icon:
    side = 0.25
    cells = tuple(Box((j - 1.5) * side, (1.5 - i) * side, side, side,
                      fill="ink" if j <= i else None, alpha=min(1.0, 0.35 + 0.6 * (i == j) + 0.05 * j), edge="dim",
                      weight=1.2)
                  for i in range(4) for j in range(4))
    return Icon("causal", cells, "A 4×4 attention grid with its upper triangle masked off.")


def _cache() -> Icon:
    bars = tuple(Box(x, 0.38 - 0.2 * i, 0.4, 0.14, alpha=1.0 if i == 3 else 0.38, edge="fg" if i == 3 else "ink",
                     weight=2 if i == 3 else 1.5, round=0.04)
                 for x in (-0.24, 0.24) for i in range(4))
    return Icon("cache", bars + (Pointer(0.0, -0.5, 0.0, -0.33, color="fg", weight=3),),
                "A K and a V cache: rows kept from earlier steps, and the one new row added.")


def _waves() -> Icon:
    waves = tuple(Stroke(polyline(lambda x, k=k: 0.3 - 0.3 * k + 0.11 * np.sin(2 * np.pi * (4 >> k) * x / 0.9),
                                  -0.45, 0.45, 96), weight=3, alpha=1.0 - 0.25 * k)
                  for k in range(3))
    return Icon("waves", waves, "Three sinusoids of falling frequency: one position code per pair of columns.")


def _rotate() -> Icon:
    cx, cy, r = -0.12, 0.05, 0.3

    def at(deg, rad):
        return cx + rad * np.cos(np.deg2rad(deg)), cy + rad * np.sin(np.deg2rad(deg))

    q, k = at(80, r), at(-15, r)
    return Icon("rotate", (
        Ring(cx, cy, r, color="dim"),
        Bend(cx, cy, 1.2 * r, -15, 95, alpha=0.7),
        Pointer(cx, cy, *q), Pointer(cx, cy, *k),
        Pointer(0.36, cy - 0.55 * r, 0.36, cy + r, color="fg"),
        Letter("q", *at(110, 1.2 * r + 0.15)), Letter("k", *at(-60, 1.2 * r + 0.12)),
        Letter("v", 0.47, cy + 0.2 * r, color="fg"),
    ), "RoPE: q and k turn on a dial by their positions; v stands apart, unturned.")


def _wall() -> Icon:
    h = 1 / 7.5
    rows = tuple(Box(-0.26, 0.42 - (i + 0.5) * h, 0.42, 0.78 * h, alpha=0.55 - 0.07 * i, edge="ink", weight=1.5,
                     round=0.03) for i in range(5))
    wall_y = 0.42 - 5 * h - 0.25 * h
    cx, cy, r = 0.27, -0.05, 0.16  # the dial and its turning arc inside the unit square
    return Icon("wall", rows + (
        Stroke(((-0.5, wall_y), (-0.02, wall_y)), color="failed", weight=6),
        Ring(cx, cy, r, weight=2.5),
        Bend(cx, cy, 1.35 * r, -34, 240, alpha=0.7),
        Pointer(cx, cy, cx + r * np.cos(1.0), cy + r * np.sin(1.0), weight=3.5),
    ), "A learned table that ends at its last row (a wall), beside a RoPE dial that never does.")


ICONS: dict[str, Icon] = {i.name: i for i in (_permute(), _causal(), _cache(), _waves(), _rotate(), _wall())}
MAP_ICONS = tuple(ICONS[n] for n in ("permute", "causal", "cache", "waves"))
"""One icon per property of ``scenes.catalog.PROPERTIES``, in the same order."""
RECAP_ICONS = tuple(ICONS[n] for n in ("permute", "cache", "rotate", "wall"))
"""One icon per diary answer, in the order of ``RecapData.answers``."""


def drawn(icon: Icon):
    """``icon`` as a still's picture (``TextPanel.picture``: ``draw(ax, theme, color)``)."""
    def draw(ax, th, color):
        to_matplotlib(icon, ax, th, color)

    draw.icon = icon
    return draw


# ====================================================================== 00 the property map
def property_card(k: int, name: str, clips) -> TextPanel:
    """Card ``k``: the property in its family colour, then one line per clip: its chip and title."""
    lines = [TextLine(name, size=12, color=f"family:{k}", weight="bold", space_before=0)]
    lines += [TextLine(c.title, size=10.5, chips=(c.number,), space_before=3 if j == 0 else 1) for j, c in enumerate(clips)]
    tall = len(clips) > 4  # the positional family: its drawing sits under its list
    return TextPanel(tuple(lines), frame=f"family:{k}", picture=drawn(MAP_ICONS[k]), picture_width=0.24 if tall else 0.3,
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
def answer_card(k: int, answer) -> TextPanel:
    color = f"clip:{answer.clips[0].number}"
    tag = "clip" if len(answer.clips) == 1 else "clips"
    return TextPanel((
        TextLine(mathify(answer.question), size=10, color="dim"),
        TextLine(mathify(answer.answer), size=12, weight="semibold", space_before=4),
        TextLine(tag, size=10, color="dim", chips=tuple(c.number for c in answer.clips), chips_after=True, space_before=6),
    ), frame=color, picture=drawn(RECAP_ICONS[k]), picture_width=0.27)


@still("Recap")
def diary_answers(data, cfg) -> FigureStill:
    """15 · The four diary questions, each answered in one line with the clips that show it."""
    cards = {"ABCD"[k]: answer_card(k, a) for k, a in enumerate(data.answers)}
    return FigureStill(
        "diary_answers", "Four questions for your AI diary", cards, mosaic="AB;CD", size=(7.0, 4.0),
        subtitle="each answered in one line, with the clips that show it", wspace=0.04, hspace=0.05,
    )
