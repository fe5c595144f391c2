"""Layout composers: a clip reads as a storyboard, not as coordinates.

Rows and columns of widgets with *named* gaps (:data:`GAP`), a widget with its name over it
(:func:`titled`), and the motion that stages one idea per frame (:func:`stage` swaps one subject
for the next in the main region, :func:`reveal` brings parts in one by one).

Every size here is a named step of the house scale, so a clip module never types an offset.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    FadeIn,
    FadeOut,
    Group,
    LaggedStart,
    Line,
    Mobject,
    Succession,
    Transform,
    VGroup,
)

from .layout import baseline_y
from .theme import DIM

# the house gaps, in Manim units (one unit is 60 px at 854x480)
GAP = SimpleNamespace(
    hair=0.06,  # a mark and the thing it marks
    tight=0.12,  # a label and its widget, lines of one text block
    small=0.2,  # items of a list, a swatch and its word
    normal=0.32,  # widgets that belong together
    wide=0.55,  # groups that are read one after another
    section=0.9,  # parts of a frame that do not belong together
)
DIMMED = 0.22  # the opacity of what is not the subject (below the audit's 0.3: background)


def _gap(g) -> float:
    return float(getattr(GAP, g)) if isinstance(g, str) else float(g)


def row(*mobs: Mobject, gap="normal", align: str = "center") -> VGroup:
    """``mobs`` left to right, ``gap`` apart; ``align`` is ``"center"``, ``"top"``, ``"bottom"`` or
    ``"baseline"`` (labels share their baseline, as words on a line do)."""
    g = VGroup(*mobs)
    if align == "top":
        g.arrange(RIGHT, buff=_gap(gap), aligned_edge=UP)
    elif align == "bottom":
        g.arrange(RIGHT, buff=_gap(gap), aligned_edge=DOWN)
    else:
        g.arrange(RIGHT, buff=_gap(gap))
        if align == "baseline" and mobs:
            y0 = _baseline(mobs[0])
            for m in mobs[1:]:
                m.shift((y0 - _baseline(m)) * UP)
    return g


def column(*mobs: Mobject, gap="normal", align=LEFT) -> VGroup:
    """``mobs`` top to bottom, ``gap`` apart, aligned on ``align`` (``LEFT``, ``RIGHT`` or ``ORIGIN``)."""
    g = VGroup(*mobs)
    if np.allclose(align, ORIGIN):
        return g.arrange(DOWN, buff=_gap(gap))
    return g.arrange(DOWN, buff=_gap(gap), aligned_edge=align)


def _baseline(m: Mobject) -> float:
    return baseline_y(m) if hasattr(m, "text") else float(m.get_bottom()[1])


def titled(widget: Mobject, title: Mobject, gap="small", side=UP) -> VGroup:
    """``widget`` with ``title`` centred over it (or under it with ``side=DOWN``).  ``.widget`` and
    ``.title`` name the parts."""
    title.next_to(widget, side, buff=_gap(gap))
    g = VGroup(widget, title)
    g.widget, g.title = widget, title
    return g


def stage(leaving: Sequence[Mobject], coming: Sequence[Mobject], shift=0.25 * LEFT, lag: float = 0.35):
    """One subject leaves the frame and the next comes in where it was: the old out (drifting by
    ``shift``), then the new in from the other side, overlapping by ``1 - lag``."""
    outs = [FadeOut(m, shift=shift) for m in leaving]
    ins = [FadeIn(m, shift=shift) for m in coming]
    return LaggedStart(AnimationGroup(*outs), AnimationGroup(*ins), lag_ratio=lag)


def reveal(parts: Sequence[Mobject], lag: float = 0.15, shift=0.15 * UP):
    """Parts of one picture brought in one after another (rows of a matrix, entries of a list)."""
    return LaggedStart(*[FadeIn(p, shift=shift) for p in parts], lag_ratio=lag)


def rule(width: float, color=DIM, stroke_width: float = 1.5) -> Line:
    """A thin horizontal rule ``width`` long (a fraction bar for a stacked label, a separator)."""
    return Line(LEFT * width / 2, RIGHT * width / 2, stroke_color=color, stroke_width=stroke_width)


def others(scene, keep) -> Group:
    """Every drawn part on screen but the header and ``keep``: what the closing beat lets go."""
    kept = {id(f) for m in (*keep, scene.header) for f in m.get_family()}
    return Group(*[f for m in scene.mobjects for f in m.get_family()
                   if id(f) not in kept and len(getattr(f, "points", ())) and not f.submobjects])


def end_on(scene, parts, picture, new=()) -> list:
    """The closing beat's animations: ``parts`` (on screen) move into ``picture`` (copies of them,
    composed), which is fitted to the content area at up to ``TAKEAWAY_SCALE``; everything else
    on screen but the header fades out first; then ``new`` (mobjects of ``picture`` that are not
    copies of a part: words added for the end) fade in as the parts move."""
    region = scene.layout.content
    s = min(region.width * scene.TAKEAWAY_FILL / picture.width, region.height * scene.TAKEAWAY_FILL / picture.height,
            scene.TAKEAWAY_SCALE)
    picture.scale(s).move_to(region.center)
    targets = {id(p): t for p, t in parts}
    keep = {id(f) for p, _ in parts for f in p.get_family()} | {id(f) for f in scene.header.get_family()}
    leaves = [f for m in scene.mobjects for f in m.get_family()
              if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
    come = AnimationGroup(*[Transform(p, targets[id(p)]) for p, _ in parts], *[FadeIn(m) for m in new])
    return [Succession(FadeOut(Group(*leaves)), come) if leaves else come]  # the rest leaves first
