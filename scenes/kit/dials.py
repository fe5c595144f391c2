"""Dials: one rotating 2-D pair (:class:`PairDial`) and a row of them (:class:`DialRow`).

Like the rest of the kit, each widget keeps the values it draws, so a test can read
them back (``ColorBar.values``, ``DialRow.angles``, ``PairDial.vectors``).  ``fitted``
constructors size a widget to a layout region with its captions at a fixed, legible size.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, AnimationGroup, VGroup

from .theme import DIM, FG, SMALL, math
from .widgets import ColorBar, VectorDial  # noqa: F401  (ColorBar lives in widgets; re-exported)


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

        from .layout import LayoutError

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


class PairDial(VGroup):
    """Several 2-D vectors drawn as arrows from one dial's centre (e.g. a query pair and a key pair).

    ``vectors: (n, 2)`` in data units; an arrow's length is ``radius · |v| / scale``
    (``scale`` defaults to the longest vector, so the longest reaches the rim).
    ``vectors`` always holds what is drawn; :meth:`turn` rotates chosen hands.
    """

    def __init__(self, vectors, colors: Sequence, radius: float = 1.0, scale: float | None = None, **kw):
        super().__init__(**kw)
        v = np.array(vectors, dtype=float)
        if v.ndim != 2 or v.shape[1] != 2 or v.shape[0] == 0:
            raise ValueError(f"PairDial needs (n, 2) vectors, got shape {v.shape}")
        if len(colors) != v.shape[0]:
            raise ValueError(f"PairDial needs one colour per vector: {v.shape[0]} vectors, {len(colors)} colours")
        norms = np.linalg.norm(v, axis=1)
        self.scale_length = float(scale) if scale is not None else float(norms.max() or 1.0)
        self.radius = radius
        self.vectors = v
        from manim import Arrow, Circle, Dot, Line

        self.face = Circle(radius=radius, stroke_color=DIM, stroke_width=2)
        self.axes_lines = VGroup(
            Line([-radius, 0, 0], [radius, 0, 0], stroke_color=DIM, stroke_width=1, stroke_opacity=0.5),
            Line([0, -radius, 0], [0, radius, 0], stroke_color=DIM, stroke_width=1, stroke_opacity=0.5),
        )
        self.hands = VGroup()
        for vec, c in zip(v, colors):
            tip = np.array([*(radius * vec / self.scale_length), 0.0])
            self.hands.add(Arrow([0, 0, 0], tip, buff=0, color=c, stroke_width=6,
                                 max_tip_length_to_length_ratio=0.22, max_stroke_width_to_length_ratio=14))
        self.hub = Dot([0, 0, 0], radius=0.05, color=FG)
        self.add(self.face, self.axes_lines, self.hands, self.hub)

    @property
    def center(self) -> np.ndarray:
        return self.face.get_center()

    @property
    def angles(self) -> np.ndarray:
        """The angle of each drawn vector (radians, from the +x axis)."""
        return np.arctan2(self.vectors[:, 1], self.vectors[:, 0])

    def angle_arc(self, j: int, k: int, radius: float = 0.4, color=FG, stroke_width: float = 4):
        """An arc at ``radius · self.radius`` from hand ``k`` to hand ``j`` (the signed angle
        between them, the short way round): the angle a dot product of the two sees.
        It turns with the hands when both turn by the same angle (rotate it about ``center``)."""
        from manim import Arc

        a_k = float(np.arctan2(*(self.vectors[k, ::-1])))
        between = float(np.angle(np.exp(1j * (np.arctan2(*(self.vectors[j, ::-1])) - a_k))))
        arc = Arc(radius=radius * self.radius, start_angle=a_k, angle=between, arc_center=self.center,
                  stroke_color=color, stroke_width=stroke_width)
        arc.between = between
        return arc

    def tip_angles(self) -> np.ndarray:
        """The angle of each arrow as it sits on screen (read back from the mobjects)."""
        d = np.array([h.get_end() - self.center for h in self.hands])
        return np.arctan2(d[:, 1], d[:, 0])

    def turn(self, deltas, **kw) -> AnimationGroup:
        """Rotate hand ``k`` by ``deltas[k]`` radians about the centre (``vectors`` follow)."""
        from manim import Rotate

        deltas = np.asarray(deltas, dtype=float)
        if deltas.shape != (len(self.hands),):
            raise ValueError(f"turn needs {len(self.hands)} angles, got shape {deltas.shape}")
        c, s = np.cos(deltas), np.sin(deltas)
        x, y = self.vectors[:, 0].copy(), self.vectors[:, 1].copy()
        self.vectors = np.stack([x * c - y * s, x * s + y * c], axis=1)
        return AnimationGroup(*[Rotate(h, angle=float(a), about_point=self.center) for h, a in zip(self.hands, deltas)], **kw)
