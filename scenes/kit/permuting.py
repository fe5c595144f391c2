"""Widgets that permute: token columns and maps that travel, the defects of permutations (first used by 02, 06, 07).

* :class:`TokenColumn`: token chips in a column (or a row) that can be permuted; like
  ``LabelledMatrix`` it keeps ``row_order`` (which original token sits in slot ``i``) so a
  test can check that slot ``i`` holds token ``perm[i]``.
* :class:`WordColumn`: words in chips stacked one per heatmap row, every word on one baseline.
* :class:`TrialMarks`: the defects of many random permutations on a log plot, drawn as what
  the pixels can show: one dot per trial while there are fewer trials than pixel columns,
  otherwise one min–max bar per pixel column (never thousands of mobjects); exact zeros,
  which a log axis has no place for, as hollow diamonds on the floor.
* :func:`staircase`: a running maximum as a staircase through the points where it changes.
* :class:`CausalMaskGrid`: which slots each causal row sees, cells coloured by the token in
  the slot.
* :class:`TravelMap`: a weights heatmap whose rows, then columns (with their key names), travel:
  ``P A``, then ``P A Pᵀ``; :meth:`TravelMap.settled` hands the travelled cells over to a fresh map.
* :class:`RowDefects`: per-row defects of two series as horizontal bars on a log axis, each bar in
  the colour of its verdict against a pass line; exact zeros as hollow diamonds on the floor.
* :func:`retire`: take a widget off the scene wherever its parts now sit.
* :func:`nice_count_ticks`: a few round tick values for a count axis ``1 … n``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    RoundedRectangle,
    VGroup,
)

from .layout import LayoutError, overlay
from .theme import LABEL, math, token_color


# ------------------------------------------------------------------ token chips
class TokenColumn(VGroup):
    """Token chips stacked top to bottom, one per row, ``row_height`` apart
    (or left to right, ``row_height`` apart, with ``horizontal=True``).

    ``names`` are Typst math strings (``"x_0"``); ``colors[i]`` defaults to
    ``token_color(i)``.  ``chips[k]`` is original token ``k`` (box and name);
    ``row_order[i]`` is the token now in slot ``i``.  ``values`` (optional) are the rows the
    chips stand for (``X``); they are permuted with the chips, so a binding
    (``scenes.kit.binding.shows``) always names what the column shows.
    """

    MAX_ROW = 1.1  # rows taller than this would make the chips towers, not chips

    def __init__(self, names: Sequence[str], row_height: float = 0.55, width: float = 0.9,
                 colors: Sequence | None = None, size: float = LABEL, horizontal: bool = False,
                 chip_height: float | None = None, values=None, **kw):
        super().__init__(**kw)
        n = len(names)
        if n == 0:
            raise ValueError("TokenColumn needs at least one token")
        self.row_height = row_height
        self.row_order = np.arange(n)
        self.values = None if values is None else np.asarray(values, dtype=float)
        if horizontal:
            self.slots = [np.array([(i - (n - 1) / 2) * row_height, 0.0, 0.0]) for i in range(n)]
        else:
            self.slots = [np.array([0.0, ((n - 1) / 2 - i) * row_height, 0.0]) for i in range(n)]
        h = chip_height if chip_height is not None else (0.56 if horizontal else row_height * 0.84)
        self.chips = VGroup()
        for i, name in enumerate(names):
            c = colors[i] if colors is not None else token_color(i)
            box = RoundedRectangle(corner_radius=0.08, width=width, height=h,
                                   stroke_color=c, stroke_width=2.5, fill_color=c, fill_opacity=0.15)
            box.move_to(self.slots[i])
            t = math(name, size=size, color=c).move_to(box)
            if t.height > h or t.width > width:
                raise LayoutError(f"a token chip of {width:.2f}×{h:.2f} units cannot hold {name!r} at a legible size")
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
                 for i, src in enumerate(new_order) if not np.allclose(self.chips[int(src)].get_center(), targets[i])]
        self.row_order = new_order
        if self.values is not None:
            self.values = self.values[perm]
        return AnimationGroup(*anims, **kw)


# ------------------------------------------------------------------ many trials on a log plot


class Handover(Animation):
    """At the end of the play it is part of, ``old`` leaves the scene wherever its parts are
    (:func:`retire`) and ``new`` takes its place: travelled cells handed over to a fresh widget of
    the values they now show, in the same beat (so a binding never lags the picture)."""

    def __init__(self, old, new, **kw):
        from manim import Mobject

        self.old, self.new = old, new
        super().__init__(Mobject(), **kw)

    def interpolate_mobject(self, alpha: float) -> None:
        pass

    def clean_up_from_scene(self, scene) -> None:
        super().clean_up_from_scene(scene)
        scene.remove(self.mobject)
        retire(scene, self.old)
        scene.add(self.new)






def retire(scene, *mobs) -> None:
    """Take ``mobs`` off ``scene`` wherever their parts sit now: a part an animation lifted out of
    its widget (a travelling row) is a top-level mobject of the scene, and removing the widget
    alone would leave it standing."""
    scene.remove(*[f for m in mobs for f in m.get_family()])
