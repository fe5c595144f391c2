"""The widgets only clip 11 draws (``scenes/clips/c11_rope_rotates_qk.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import AnimationGroup, VGroup

from scenes.kit.theme import DIM, FG


class PairDial(VGroup):
    """Several 2-D vectors drawn as arrows from one dial's centre (e.g. a query pair and a key pair).

    ``vectors: (n, 2)`` in data units; an arrow's length is ``radius · |v| / scale``
    (``scale`` defaults to the longest vector, so the longest reaches the rim).
    ``vectors`` always holds what is drawn; :meth:`turn` rotates chosen hands.
    """

    def __init__(self, vectors, colors: Sequence, radius: float = 1.0, scale: float | None = None,
                 roles: Sequence[str] | None = None, **kw):
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
        from scenes.kit.binding import role

        for j, (vec, c) in enumerate(zip(v, colors)):
            tip = np.array([*(radius * vec / self.scale_length), 0.0])
            hand = Arrow([0, 0, 0], tip, buff=0, color=c, stroke_width=6,
                         max_tip_length_to_length_ratio=0.22, max_stroke_width_to_length_ratio=14)
            self.hands.add(role(hand, roles[j]) if roles is not None else hand)
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
