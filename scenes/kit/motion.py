"""Motion the clips share: focus by dimming, and changing a printed figure without garbling it.

:func:`dim` fades what is not the subject to the background level and :func:`undim` brings it back
(:class:`Dim`, the deck's one dimming: fill and stroke each to a share of the opacity the part is drawn
at, nothing copied); :func:`set_level` does it at once.

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


def _parts(mobs) -> list[VMobject]:
    return [f for m in mobs for f in m.get_family() if isinstance(f, VMobject)]


def _full(f: VMobject) -> tuple[float, float]:
    """The opacity ``f`` is drawn at when it is the subject: remembered the first time focus touches it."""
    if not hasattr(f, "_full_opacity"):
        f._full_opacity = (float(np.max(f.get_fill_opacities(), initial=0.0)),
                           float(np.max(f.get_stroke_opacities(), initial=0.0)))
    return f._full_opacity


def set_level(*mobs: Mobject, level: float) -> None:
    """Set every part of ``mobs`` at once to ``level`` times its full opacity (fill and stroke apart, so
    an outline stays unfilled; 0 hides it, keeping its full opacity for :func:`dim` to bring back)."""
    for f in _parts(mobs):
        fo, so = _full(f)
        f.set_fill(opacity=fo * level, family=False)
        f.set_stroke(opacity=so * level, family=False)


class Dim(Animation):
    """Focus by dimming, the deck's one way: every part of ``mobs`` goes from the opacity it has now to
    ``level`` times its full opacity (fill and stroke apart).  Nothing is copied: dimming a 256-cell
    heatmap costs what repainting it does, and parts grouped differently later dim alike."""

    def __init__(self, mobs, level: float, **kw):
        from manim import Group

        self.parts = _parts(mobs)
        for f in self.parts:
            _full(f)
        self.level = float(level)
        super().__init__(Group(*mobs), **kw)

    def create_starting_mobject(self) -> Mobject:
        return self.mobject  # interpolate_mobject reads the recorded start values, not a copy

    def begin(self) -> None:
        self.starts = [(float(np.max(f.get_fill_opacities(), initial=0.0)),
                        float(np.max(f.get_stroke_opacities(), initial=0.0))) for f in self.parts]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        for f, (f0, s0) in zip(self.parts, self.starts):
            fo, so = f._full_opacity
            f.set_fill(opacity=f0 + (fo * self.level - f0) * a, family=False)
            f.set_stroke(opacity=s0 + (so * self.level - s0) * a, family=False)

    def interpolate_submobject(self, *args, **kw) -> None:
        return None


def dim(*mobs: Mobject, level: float | None = None, **kw) -> Animation:
    """Fade ``mobs`` to ``level`` of their full opacity (``compose.DIMMED`` by default: below the audit's
    0.3, so dimmed things are background); :func:`undim` brings them back to full."""
    from .compose import DIMMED

    return Dim(mobs, DIMMED if level is None else level, **kw)


def undim(*mobs: Mobject, **kw) -> Animation:
    """Back to full opacity (after :func:`dim` or :func:`set_level`)."""
    return Dim(mobs, 1.0, **kw)
