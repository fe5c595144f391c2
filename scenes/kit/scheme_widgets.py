"""Widgets for the positional-scheme clips (08, 09): a wave panel standing beside a matrix,
and focus by dimming that gives back exactly what it took.

Like the rest of the kit, each widget keeps what it draws: ``WavePanel.to_point`` is the
one map from ``(value, position)`` to the screen, so a test can check that a drawn curve or
sample sits where its value says.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import ORIGIN as ORIGIN_
from manim import Animation, Line, Mobject, VGroup, VMobject

from .theme import DIM, FAINT, FG


class WavePanel(VGroup):
    """Waves drawn *down* the screen: position ``p`` runs from top to bottom (row ``p`` of a
    matrix drawn beside it sits at the same height), the value runs left to right over
    ``value_range``.

    ``row_y(p)`` is the screen height of position ``p`` (linear: ``top_y - p * pitch``);
    ``to_point(value, p)`` the screen point of a value at a (real) position.  The panel
    draws faint guides at ``value_ticks`` (the one at 0 a little brighter) and at every
    integer position, so each sample lines up with its matrix row.
    """

    def __init__(self, n_positions: int, top_y: float, pitch: float, left_x: float, width: float,
                 value_range: tuple[float, float] = (-1.15, 1.15), value_ticks: Sequence[float] = (-1.0, 0.0, 1.0),
                 **kw):
        super().__init__(**kw)
        if n_positions < 1 or pitch <= 0 or width <= 0:
            raise ValueError(f"WavePanel needs n_positions >= 1, pitch > 0, width > 0; got {n_positions}, {pitch}, {width}")
        lo, hi = map(float, value_range)
        if not hi > lo:
            raise ValueError(f"value_range must be increasing, got {value_range}")
        self.n_positions, self.top_y, self.pitch = int(n_positions), float(top_y), float(pitch)
        self.left_x, self.width_units, self.value_range = float(left_x), float(width), (lo, hi)
        y0, y1 = self.row_y(-0.5), self.row_y(n_positions - 0.5)
        self.value_guides = VGroup(*[
            Line([self.value_x(v), y0, 0], [self.value_x(v), y1, 0],
                 stroke_color=DIM if v == 0 else FAINT, stroke_width=2 if v == 0 else 1.5)
            for v in value_ticks
        ])
        self.row_guides = VGroup(*[
            Line([self.value_x(lo), self.row_y(p), 0], [self.value_x(hi), self.row_y(p), 0],
                 stroke_color=FAINT, stroke_width=1)
            for p in range(n_positions)
        ])
        self.add(self.row_guides, self.value_guides)

    # -- data -> screen
    def row_y(self, p) -> np.ndarray | float:
        return self.top_y - np.asarray(p, dtype=float) * self.pitch

    def value_x(self, v) -> np.ndarray | float:
        lo, hi = self.value_range
        return self.left_x + (np.asarray(v, dtype=float) - lo) / (hi - lo) * self.width_units

    def to_point(self, value, p) -> np.ndarray:
        """Screen point(s) of ``value`` at position ``p`` (arrays broadcast to ``(n, 3)``)."""
        x, y = np.broadcast_arrays(self.value_x(value), self.row_y(p))
        return np.stack([x, y, np.zeros_like(x)], axis=-1)

    def curve(self, positions, values, color=FG, stroke_width: float = 4) -> VMobject:
        """A polyline through every computed ``(values[k], positions[k])`` (nothing resampled)."""
        pts = self.to_point(values, positions)
        m = VMobject(stroke_color=color, stroke_width=stroke_width).set_points_as_corners(pts)
        m.data_points = pts
        return m


# ------------------------------------------------------------------ focus by dimming
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


def balanced_label(text: str, max_width: float, size: float, color=FG, gap: float = 0.1) -> VGroup:
    """``text`` on one line if it fits ``max_width``, else on two lines split at the word
    boundary that balances them (a few measurements, where greedy wrapping measures every
    prefix).  Falls back to :func:`scenes.kit.layout.fit_label` if two lines still overflow."""
    from manim import DOWN

    from .layout import fit_label
    from .theme import label

    one = label(text, size=size, color=color)
    if one.width <= max_width:
        g = VGroup(one)
    else:
        words = text.split()
        cuts = sorted(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
        g = None
        for k in cuts[:3]:
            lines = [label(" ".join(words[:k]), size=size, color=color), label(" ".join(words[k:]), size=size, color=color)]
            if max(ln.width for ln in lines) <= max_width:
                g = VGroup(*lines).arrange(DOWN, buff=gap)
                break
        if g is None:
            return fit_label(text, max_width, size=size, color=color, max_lines=2, align=ORIGIN_)
    g.text = text
    return g


__all__ = ["OpacityTo", "WavePanel", "balanced_label", "dim", "undim"]
