"""The lecture map's cards and chips, shared by the title clip (00) and the recap (15).

A clip's number on a tag in its family's colour (:func:`clip_chip`), an idea's icon drawn to fit
a square (:func:`drawing`), and a card filling a region (:func:`panel`): the same chips, icons and
cards link the map in 00, every clip's header and the recap in 15.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, UP, RoundedRectangle, VGroup

from ..catalog import LECTURE, Clip
from .compose import GAP
from .icons import Icon, to_manim
from .layout import LayoutError, Region, background, baseline_y, legible_scale, overlay, wrap_words
from .theme import SMALL, family_color, label

GROW = 1.3  # how far the closing beat lets the cards' text grow past its natural size
SHRINK = 0.96  # the step by which texts that must share one size shrink until all fit


def clip_number(n: int) -> str:
    return f"{n:02d}"


def clip_of(n: int) -> Clip:
    for c in LECTURE:
        if c.number == n:
            return c
    raise LookupError(f"no clip number {n} in the catalog")


def drawing(icon: Icon, color, box: float, paint: dict[int, str] | None = None) -> VGroup:
    """``icon``'s picture as large as fits a ``box`` × ``box`` square (drawn at that size, so its
    letters keep their size unless the picture must shrink to fit); ``paint``: see ``icons.to_manim``."""
    g = to_manim(icon, color, box, paint)
    g.scale(box / max(g.width, g.height))
    g.icon = icon
    return g


def clip_chip(n: int, size: float = SMALL) -> VGroup:
    """Clip ``n``'s number on a small tag in its family's colour: the link between the map
    in 00, every clip's header and the recap in 15."""
    color = family_color(n)
    num = label(clip_number(n), size=size, color=color, weight="BOLD")
    box = RoundedRectangle(corner_radius=GAP.hair, width=num.width + 2 * GAP.tight, height=num.height + GAP.tight,
                           stroke_color=color, stroke_width=2, fill_color=color, fill_opacity=0.16)
    num.move_to(box)
    overlay(box, num)  # the number sits on its own tag
    g = VGroup(box, num)
    g.box, g.num = box, num
    return g


def panel(region: Region, color) -> RoundedRectangle:
    """A card filling ``region``: the family colour's outline over a faint wash of it."""
    box = RoundedRectangle(corner_radius=GAP.tight, width=region.width, height=region.height, stroke_color=color,
                           stroke_width=3, fill_color=color, fill_opacity=0.07)
    box.move_to(region.center)
    return background(box)  # text lies on the card by design


def fit_common(texts, width: float, size: float, color, max_lines: int = 3, weight: str = "NORMAL",
               align=LEFT) -> list[VGroup]:
    """Each of ``texts`` wrapped onto at most ``max_lines`` lines no wider than ``width``, all at one
    size: the largest up to ``size`` at which every one fits (never under the legibility floor:
    ``LayoutError``); lines aligned on ``align`` (``LEFT``, or ``ORIGIN``: centred).  Words are measured once and lines priced by their words, so this costs one
    Pango layout per word, not one per candidate line and size."""
    words = {w for t in texts for w in t.split()}
    ww = {w: label(w, size=size, weight=weight).width for w in words}
    space = label("n n", size=size, weight=weight).width - label("nn", size=size, weight=weight).width

    def measure_at(s):
        return lambda line: (sum(ww[w] for w in line.split()) + space * (len(line.split()) - 1)) * s / size

    floor = size * legible_scale(label("x", size=size))
    s = size
    while not all(wrap_words(t, width, measure_at(s), max_lines) for t in texts):
        if s <= floor:
            raise LayoutError(f"{len(texts)} texts do not fit {width:.2f} units in {max_lines} lines at a legible size")
        s = max(floor, s * SHRINK)
    out = []
    pitch = label("Hy", size=s, weight=weight).height + GAP.hair  # one baseline pitch, whatever letters a line holds
    for t in texts:
        g = VGroup(*[label(ln, size=s, color=color, weight=weight)
                     for ln in wrap_words(t, width, measure_at(s), max_lines)])
        if np.allclose(align, ORIGIN):
            g.arrange(DOWN)
        else:
            g.arrange(DOWN, aligned_edge=align)
        for k, ln in enumerate(g):
            ln.shift((baseline_y(g[0]) - k * pitch - baseline_y(ln)) * UP)
        g.text = t
        out.append(g)
    over = max(g.width for g in out) / width  # what kerning added to the priced words: all a little smaller
    return [g.scale(1 / over) if over > 1 else g for g in out]
