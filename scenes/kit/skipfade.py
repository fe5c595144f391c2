"""Fades played with nothing drawn, without the copies that only a drawn fade needs.

An audit that wants no picture runs every animation skipped: Manim still begins each one, and a
fade's ``begin`` makes two or three full copies of what it fades (the faded start, the target and
its copy; 34 % of the 16 audits' time).  Yet a skipped fade leaves its mobject's data exactly as it
found it:

* ``FadeIn(m)`` ends at ``interpolate(1)``, which sets ``m`` to the copy of ``m`` taken at
  ``begin`` (``0·start + 1·end``, the end exactly: ``rate_func(1) == 1``), and adds ``m`` to the scene;
* ``FadeOut(m)`` removes ``m`` from the scene and, cleaning up, sets it back with ``interpolate(0)``
  to the copy of ``m`` taken at ``begin``.

So, while :func:`skipped_fades` is active, a plain ``FadeIn``/``FadeOut`` (no arc, a rate function
with ``rate_func(0) == 0`` and ``rate_func(1) == 1``, no updaters in the family: an updater of a
copy could move something else) does only what is visible: it suspends and resumes its mobject's
updaters as before, is added or removed as before, and copies nothing.  Any other fade takes
Manim's own path.  The audit's records are the same (tests/test_clips.py compares every beat of every
clip both ways); renders, and audits that draw, never use it.
"""

from __future__ import annotations

from contextlib import contextmanager

from manim import FadeIn, FadeOut
from manim.animation.animation import Animation
from manim.animation.transform import Transform

_ORIGINAL = {cls: {n: vars(cls).get(n) for n in ("begin", "interpolate", "finish", "clean_up_from_scene")}
             for cls in (FadeIn, FadeOut)}


def _plain(anim) -> bool:
    if type(anim) not in (FadeIn, FadeOut) or getattr(anim, "path_arc", 0) != 0:
        return False
    try:
        if anim.rate_func(0.0) != 0 or anim.rate_func(1.0) != 1:
            return False
    except Exception:
        return False
    return not any(m.updaters for m in anim.mobject.get_family())


def _begin(self) -> None:
    self._skipped_fade = _plain(self)
    if not self._skipped_fade:
        return Transform.begin(self)
    self.target_mobject = self.target_copy = self.starting_mobject = self.mobject
    if self.suspend_mobject_updating:
        self.mobject.suspend_updating()


def _interpolate(self, alpha: float) -> None:
    if not getattr(self, "_skipped_fade", False):
        Animation.interpolate(self, alpha)


def _finish(self) -> None:
    if not getattr(self, "_skipped_fade", False):
        return Animation.finish(self)
    if self.suspend_mobject_updating and self.mobject is not None:
        self.mobject.resume_updating()


def _fade_out_clean_up(self, scene) -> None:
    if not getattr(self, "_skipped_fade", False):
        return _ORIGINAL[FadeOut]["clean_up_from_scene"](self, scene)
    Transform.clean_up_from_scene(self, scene)  # removed from the scene; its data never changed


@contextmanager
def skipped_fades():
    """Within: plain fades copy nothing (see the module); restored on the way out."""
    for cls in (FadeIn, FadeOut):
        cls.begin, cls.interpolate, cls.finish = _begin, _interpolate, _finish
    FadeOut.clean_up_from_scene = _fade_out_clean_up
    try:
        yield
    finally:
        for cls, methods in _ORIGINAL.items():
            for name, fn in methods.items():
                if fn is None:
                    if name in vars(cls):
                        delattr(cls, name)
                else:
                    setattr(cls, name, fn)
