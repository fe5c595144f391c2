"""The widgets only clip 10 draws (``scenes/clips/c10_rope_angle_grid.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, AnimationGroup, VGroup

from scenes.kit.theme import DIM, FG, SMALL, math
from scenes.kit.widgets import VectorDial


class DialRow(VGroup):
    """One :class:`VectorDial` per angle, in a grid of ``cols`` columns, each with a caption below.

    ``angles[i]`` is the angle dial ``i`` shows (radians, not reduced); ``turn_to``
    animates every hand to new angles, turning each by its own difference, so a hand
    that must go round several times visibly does.
    """

    def __init__(
        self,
        angles,
        radius: float = 0.5,
        cols: int | None = None,
        captions: Sequence | None = None,  # Typst math strings, or ready Mobjects
        colors: Sequence | None = None,
        h_buff: float = 0.45,
        v_buff: float = 0.35,
        **kw,
    ):
        super().__init__(**kw)
        a = np.array(angles, dtype=float)
        if a.ndim != 1 or a.size == 0:
            raise ValueError(f"DialRow needs a non-empty 1-D array of angles, got shape {a.shape}")
        self.dials = VGroup(*[
            VectorDial(float(v), radius=radius, color=colors[i] if colors is not None else FG) for i, v in enumerate(a)
        ])
        self.captions = VGroup()
        cells = VGroup()
        for i, dial in enumerate(self.dials):
            cell = VGroup(dial)
            if captions is not None:
                c = captions[i]
                cap = (math(c, size=SMALL, color=DIM) if isinstance(c, str) else c).next_to(dial.face, DOWN, buff=0.12)
                self.captions.add(cap)
                cell.add(cap)
            cells.add(cell)
        cols = cols or len(a)
        cells.arrange_in_grid(cols=cols, buff=(h_buff, v_buff))
        self.add(cells)

    @classmethod
    def fitted(cls, angles, region, cols: int | None = None, captions: Sequence | None = None,
               max_radius: float = 1.2, min_radius: float = 0.25, align=None, h_buff: float = 0.45,
               v_buff: float = 0.35, **kw) -> DialRow:
        """The largest row (radius at most ``max_radius``) whose dials and captions fit ``region``,
        placed in it.  Captions keep their size; only the dials grow or shrink.  Raises
        :class:`~scenes.kit.layout.LayoutError` if even ``min_radius`` does not fit."""
        from manim import ORIGIN

        from scenes.kit.layout import LayoutError

        n = len(np.atleast_1d(angles))
        cols = cols or n
        rows = -(-n // cols)
        caps = [c if not isinstance(c, str) else math(c, size=SMALL, color=DIM) for c in captions] if captions else []
        cap_w = [max([caps[k].width for k in range(j, n, cols)] or [0.0]) for j in range(cols)]
        cap_h = [max([caps[k].height + 0.12 for k in range(i * cols, min(n, (i + 1) * cols))] or [0.0]) for i in range(rows)]

        def size(r: float) -> tuple[float, float]:  # arrange_in_grid: each column as wide as its widest cell
            return (sum(max(2 * r, w) for w in cap_w) + (cols - 1) * h_buff,
                    sum(2 * r + h for h in cap_h) + (rows - 1) * v_buff)

        W, H = region.width - 0.01, region.height - 0.01  # a hair inside, so rounding never crosses the edge
        lo, hi = 0.0, max_radius
        if all(a <= b for a, b in zip(size(hi), (W, H))):
            lo = hi
        else:
            for _ in range(40):  # the largest radius whose grid fits (size grows with r)
                mid = (lo + hi) / 2
                w, h = size(mid)
                lo, hi = (mid, hi) if w <= W and h <= H else (lo, mid)
        r = lo
        while True:
            row = cls(angles, radius=r, cols=cols, captions=[c.copy() for c in caps] if captions else None,
                      h_buff=h_buff, v_buff=v_buff, **kw)
            if row.width <= region.width + 1e-6 and row.height <= region.height + 1e-6 and r >= min_radius:
                return region.place(row, ORIGIN if align is None else align)
            if r <= min_radius:
                raise LayoutError(f"{n} dials do not fit region {region.name!r} "
                                  f"({region.width:.2f}×{region.height:.2f}) even at radius {min_radius}")
            r = max(min_radius, r * 0.97)

    @property
    def angles(self) -> np.ndarray:
        return np.array([d.angle for d in self.dials])

    def turn_to(self, angles, **kw) -> AnimationGroup:
        a = np.asarray(angles, dtype=float)
        if a.shape != (len(self.dials),):
            raise ValueError(f"turn_to needs {len(self.dials)} angles, got shape {a.shape}")
        return AnimationGroup(*[d.rotate_to(float(v)) for d, v in zip(self.dials, a)], **kw)

    def tips(self) -> np.ndarray:
        """``(n, 3)``: where each hand ends now."""
        return np.array([d.tip() for d in self.dials])
