"""The lecture map's cards and chips, shared by the title clip (00) and the recap (15).

A clip's number on a tag in its family's colour (:func:`clip_chip`), an idea's icon drawn to fit
a square (:func:`drawing`), and a card filling a region (:func:`panel`): the same chips, icons and
cards link the map in 00, every clip's header and the recap in 15.
"""

from __future__ import annotations

from manim import RoundedRectangle, VGroup

from ..catalog import LECTURE, Clip
from .compose import GAP
from .icons import Icon, to_manim
from .layout import Region, background, overlay
from .theme import SMALL, family_color, label

GROW = 1.3  # how far the closing beat lets the cards' text grow past its natural size


def clip_number(n: int) -> str:
    return f"{n:02d}"


def clip_of(n: int) -> Clip:
    for c in LECTURE:
        if c.number == n:
            return c
    raise LookupError(f"no clip number {n} in the catalog")


def drawing(icon: Icon, color, box: float) -> VGroup:
    """``icon``'s picture as large as fits a ``box`` × ``box`` square (drawn at that size, so its
    letters keep their size unless the picture must shrink to fit)."""
    g = to_manim(icon, color, box)
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
