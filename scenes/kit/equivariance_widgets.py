"""Widgets for the equivariance clips: a column of token chips that can be permuted.

Like ``LabelledMatrix`` it keeps ``row_order`` (which original token sits in slot ``i``)
so a test can check that slot ``i`` holds token ``perm[i]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import AnimationGroup, RoundedRectangle, VGroup

from .layout import overlay
from .theme import LABEL, math, token_color


class TokenColumn(VGroup):
    """Token chips stacked top to bottom, one per row, ``row_height`` apart
    (or left to right, ``row_height`` apart, with ``horizontal=True``).

    ``names`` are Typst math strings (``"x_0"``); ``colors[i]`` defaults to
    ``token_color(i)``.  ``chips[k]`` is original token ``k`` (box and name);
    ``row_order[i]`` is the token now in slot ``i``.
    """

    def __init__(self, names: Sequence[str], row_height: float = 0.55, width: float = 0.9,
                 colors: Sequence | None = None, size: float = LABEL, horizontal: bool = False, **kw):
        super().__init__(**kw)
        n = len(names)
        if n == 0:
            raise ValueError("TokenColumn needs at least one token")
        self.row_height = row_height
        self.row_order = np.arange(n)
        if horizontal:
            self.slots = [np.array([(i - (n - 1) / 2) * row_height, 0.0, 0.0]) for i in range(n)]
        else:
            self.slots = [np.array([0.0, ((n - 1) / 2 - i) * row_height, 0.0]) for i in range(n)]
        self.chips = VGroup()
        for i, name in enumerate(names):
            c = colors[i] if colors is not None else token_color(i)
            box = RoundedRectangle(corner_radius=0.08, width=width,
                                   height=0.56 if horizontal else row_height * 0.84,
                                   stroke_color=c, stroke_width=2.5, fill_color=c, fill_opacity=0.15)
            box.move_to(self.slots[i])
            t = math(name, size=size, color=c).move_to(box)
            self.chips.add(overlay(VGroup(box, t)))
        self.add(self.chips)

    def slot_center(self, i: int) -> np.ndarray:
        """Where slot ``i``'s centre is now (follows the column when it moves)."""
        first = self.chips[int(self.row_order[0])].get_center()
        return first + (self.slots[i] - self.slots[0])

    def chip(self, slot: int) -> VGroup:
        """The chip currently in ``slot``."""
        return self.chips[int(self.row_order[slot])]

    def permute_rows(self, perm, path_arc: float = 0.6, **kw) -> AnimationGroup:
        """Animate so slot ``i`` receives the chip now in slot ``perm[i]`` (``P @ X``)."""
        perm = np.asarray(perm)
        targets = [self.slot_center(i) for i in range(len(perm))]
        new_order = self.row_order[perm]
        anims = [self.chips[int(src)].animate(path_arc=path_arc).move_to(targets[i])
                 for i, src in enumerate(new_order)]
        self.row_order = new_order
        return AnimationGroup(*anims, **kw)
