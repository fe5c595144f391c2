"""Motion the clips share: changing a printed figure without garbling it.

Two different strings cross-faded over each other are unreadable for the length of the
fade.  :func:`swap` fades the old one out, then the new one in (in the same place unless
the new one was placed elsewhere); :class:`Readout` keeps "the figure on screen now" for a
number that changes at keyframes (a position ``m``, a count, a turn number).
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, Animation, Mobject, VMobject

from .theme import FG, label


class Swap(Animation):
    """Fade ``old`` out over the first half, then ``new`` in over the second: one animation, so
    it composes safely.  ``new`` is made invisible the moment the swap is made (Manim adds every
    mobject of a ``Succession`` to the scene when the play starts, so a chain of swaps would
    otherwise show every future label at once); at the end ``old`` leaves the scene."""

    def __init__(self, old: Mobject, new: Mobject, **kw):
        from manim import Group

        self.old, self.new = old, new
        self._old_ops = _opacities(old)
        self._new_ops = _opacities(new)
        _scale_opacities(new, self._new_ops, 0.0)
        super().__init__(Group(old, new), **kw)

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        _scale_opacities(self.old, self._old_ops, max(0.0, 1.0 - 2.0 * a))
        _scale_opacities(self.new, self._new_ops, max(0.0, 2.0 * a - 1.0))

    def clean_up_from_scene(self, scene) -> None:
        super().clean_up_from_scene(scene)
        _scale_opacities(self.old, self._old_ops, 1.0)  # the old label is as it was, off the scene
        scene.remove(self.old)


def _opacities(m: Mobject) -> list:
    return [(sm, sm.get_fill_opacities().copy(), sm.get_stroke_opacities().copy())
            for sm in m.family_members_with_points()]


def _scale_opacities(m: Mobject, saved: list, f: float) -> None:
    for sm, fill, stroke in saved:
        sm.set_fill(opacity=fill * f, family=False)
        sm.set_stroke(opacity=stroke * f, family=False)


def swap(old: Mobject, new: Mobject, run_time: float | None = None) -> Animation:
    """Old out, then new in: never two different strings on top of each other (see :class:`Swap`).

    ``new`` keeps its position; place it first (``new.move_to(old)`` for the same place)."""
    return Swap(old, new, **({} if run_time is None else {"run_time": run_time}))


class Readout:
    """A figure that changes at keyframes, drawn as one ``label`` at a fixed anchor.

    ``current`` is the mobject on screen; :meth:`to` returns the animation to a new value
    and makes the new label current (``text`` is what is printed now).  ``align`` is the
    edge that stays put (``LEFT`` keeps the left edge, so a growing number grows rightwards).
    """

    def __init__(self, text: str, anchor: np.ndarray, size: float, color=FG, weight: str = "NORMAL", align=LEFT):
        self.size, self.color, self.weight, self.align = size, color, weight, np.asarray(align, dtype=float)
        self.anchor = np.asarray(anchor, dtype=float)
        self.current = self._make(text, color)

    def _make(self, text: str, color) -> Mobject:
        t = label(text, size=self.size, color=color, weight=self.weight)
        t.move_to(self.anchor, aligned_edge=self.align)
        return t

    @property
    def text(self) -> str:
        return self.current.text

    def to(self, text: str, color=None, run_time: float | None = None) -> Animation:
        old, new = self.current, self._make(text, self.color if color is None else color)
        self.current = new
        return swap(old, new, run_time=run_time)


def _vfamily(mob: Mobject) -> list[VMobject]:
    return [f for f in mob.get_family() if isinstance(f, VMobject)]


class OpacityTo(Animation):
    """Move every fill and stroke opacity in ``mob``'s family to ``targets`` (one
    ``(fill, stroke)`` pair per VMobject of the family, in family order).  Nothing is
    copied: dimming a 256-cell heatmap costs what repainting it does."""

    def __init__(self, mob: Mobject, targets: list[tuple[float, float]], **kw):
        super().__init__(mob, **kw)
        self.targets = targets

    def create_starting_mobject(self) -> Mobject:
        return self.mobject  # interpolate_mobject reads the recorded start values, not a copy

    def begin(self) -> None:
        self.family = _vfamily(self.mobject)
        self.starts = [(float(f.get_fill_opacity()), float(f.get_stroke_opacity())) for f in self.family]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        for f, (f0, s0), (f1, s1) in zip(self.family, self.starts, self.targets):
            f.set_fill(opacity=f0 + (f1 - f0) * a, family=False)
            f.set_stroke(opacity=s0 + (s1 - s0) * a, family=False)


def dim(mob: Mobject, level: float = 0.2, **kw) -> Animation:
    """Fade ``mob`` to ``level`` times its opacities (fills and strokes alike); :func:`undim`
    gives back exactly what it had.  Dimmed below 0.3, the layout audit treats it as background."""
    saved = getattr(mob, "_undimmed", None)
    if saved is None:
        saved = [(float(f.get_fill_opacity()), float(f.get_stroke_opacity())) for f in _vfamily(mob)]
        mob._undimmed = saved
    return OpacityTo(mob, [(fo * level, so * level) for fo, so in saved], **kw)


def undim(mob: Mobject, **kw) -> Animation:
    """Back to the opacities ``mob`` had before :func:`dim` (no change if it was never dimmed)."""
    saved = getattr(mob, "_undimmed", None)
    if saved is None:
        saved = [(float(f.get_fill_opacity()), float(f.get_stroke_opacity())) for f in _vfamily(mob)]
    else:
        del mob._undimmed
    return OpacityTo(mob, saved, **kw)
