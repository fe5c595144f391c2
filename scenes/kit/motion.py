"""Motion the clips share: changing a printed figure without garbling it.

Two different strings cross-faded over each other are unreadable for the length of the
fade.  :func:`swap` fades the old one out, then the new one in (in the same place unless
the new one was placed elsewhere); :class:`Readout` keeps "the figure on screen now" for a
number that changes at keyframes (a position ``m``, a count, a turn number).
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, Animation, FadeIn, FadeOut, Mobject, Succession, Wait

from .theme import FG, label


def swap(old: Mobject, new: Mobject, run_time: float | None = None, shift=None) -> Animation:
    """Old out, then new in: never two different strings on top of each other.

    ``new`` keeps its position; place it first (``new.move_to(old)`` for the same place).
    Identical text is not swapped (``new`` still replaces ``old`` in the scene)."""
    if getattr(old, "text", None) is not None and getattr(old, "text", None) == getattr(new, "text", None) \
            and np.allclose(old.get_center(), new.get_center()):
        return Succession(FadeOut(old, run_time=1e-3), FadeIn(new, run_time=1e-3), Wait(run_time or 0.0))
    kw = {} if run_time is None else {"run_time": run_time}
    half = None if run_time is None else run_time / 2
    out_kw = {"shift": shift} if shift is not None else {}
    return Succession(FadeOut(old, run_time=half, **out_kw) if half else FadeOut(old, **out_kw),
                      FadeIn(new, run_time=half) if half else FadeIn(new), **kw)


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
