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


def map_axes(hm, rows: bool = True, cols: bool = True, row_word: str = "token", col_word: str = "feature",
             size: float | None = None, word_size: float | None = None) -> VGroup:
    """The axes of a heatmap ``hm`` of tokens × features, labelled on the data: the row indices left of the
    rows with ``row_word`` up the side (``rows``), the column indices under the columns (``cols``), with
    ``col_word`` left of them, under the row indices, when the rows are numbered too (the map that names the axes).  ``.row_ticks``/``.col_ticks`` hold the indices, ``.row_word``/``.col_word`` the words."""
    from manim import DOWN, LEFT

    from scenes.kit.theme import SMALL, label

    size = SMALL if size is None else size
    word_size = size if word_size is None else word_size  # the axis words (not in a row's pitch: may be larger)
    n_rows, n_cols = hm.values.shape
    g = VGroup()
    g.row_ticks, g.col_ticks = VGroup(), VGroup()
    g.row_word = g.col_word = None
    pad = 0.12
    if rows:
        for i in range(n_rows):
            t = label(str(i), size=size, color=DIM)
            t.next_to(hm.cell(i, 0), LEFT, buff=pad)
            g.row_ticks.add(t)
        g.row_word = label(row_word, size=word_size, color=DIM).rotate(np.pi / 2)  # up the side, as an axis reads
        g.row_word.next_to(g.row_ticks, LEFT, buff=2 * pad).set_y(hm.cells.get_y())  # clear of the indices
        g.add(g.row_ticks, g.row_word)
    if cols:
        for j in range(n_cols):
            g.col_ticks.add(label(str(j), size=size, color=DIM).next_to(hm.cell(n_rows - 1, j), DOWN, buff=pad))
        g.add(g.col_ticks)
        if rows:  # the axes are named once, on the map that numbers the rows: "feature" left of its numbers
            g.col_word = label(col_word, size=word_size, color=DIM)
            g.col_word.next_to(g.col_ticks[0], LEFT, buff=pad).align_to(g.col_ticks[0], DOWN)
            g.col_word.shift((g.row_ticks.get_right()[0] - g.col_word.get_right()[0]) * np.array([1.0, 0, 0]))
            g.add(g.col_word)
    return g


class OutputTurn(VGroup):
    """One output pair of features (the pair ``i`` of ``y_m``) before and after every position slides by ``s``,
    as two arrows from one dial's centre: ``before`` (grey) and ``after`` (white), scaled so they reach the
    rim (a rotation keeps their common length), or on ``scale`` (the length that reaches the rim: two dials
    compared on one scale).  ``arc`` spans the signed angle from ``before`` to ``after``
    (``.between``, radians), or is empty when the two coincide; ``tags`` name the tips."""

    def __init__(self, before, after, radius: float, same_tag: str, size: float, scale: float | None = None):
        super().__init__()
        from manim import Arc, Arrow, Circle, Dot, Line

        from scenes.kit.theme import label

        b, a = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
        big = float(scale) if scale else float(max(np.linalg.norm(b), np.linalg.norm(a))) or 1.0  # the rim's length
        self.radius = radius
        self.face = Circle(radius=radius, stroke_color=DIM, stroke_width=2)
        self.axes_lines = VGroup(
            Line([-radius, 0, 0], [radius, 0, 0], stroke_color=DIM, stroke_width=1, stroke_opacity=0.5),
            Line([0, -radius, 0], [0, radius, 0], stroke_color=DIM, stroke_width=1, stroke_opacity=0.5))
        tips = [np.array([*(radius * v / big), 0.0]) for v in (b, a)]
        self.hands = VGroup(*[Arrow([0, 0, 0], tip, buff=0, color=c, stroke_width=w,
                                    max_tip_length_to_length_ratio=0.16, max_stroke_width_to_length_ratio=14)
                              for tip, c, w in zip(tips, (DIM, FG), (10, 6))])
        self.before, self.after = self.hands
        ang_b, ang_a = (float(np.arctan2(v[1], v[0])) for v in (b, a))
        self.between = float(np.angle(np.exp(1j * (ang_a - ang_b))))
        self.coincide = abs(self.between) < 1e-6
        self.angle_mid = ang_b + self.between / 2  # the direction of the arc's middle (radians)
        self.arc = VGroup() if self.coincide else Arc(radius=0.45 * radius, start_angle=ang_b, angle=self.between,
                                                       stroke_color=FG, stroke_width=4)
        self.hub = Dot([0, 0, 0], radius=0.05, color=FG)
        self.tags = VGroup()
        words = (same_tag,) if self.coincide else ("before", "after")
        for word, tip, col in zip(words, tips[::-1] if self.coincide else tips, (FG, DIM) if self.coincide else (DIM, FG)):
            t = label(word, size=size, color=col)
            u = tip[:2] / (np.linalg.norm(tip[:2]) or 1.0)
            if self.coincide:  # one tag for both: under the dial, out of the arrows' way
                u = np.array([0.0, -1.0])
            t.move_to(np.array([*(u * (radius + 0.15)), 0.0]) + np.array([u[0] * t.width / 2, u[1] * t.height / 2, 0]))
            self.tags.add(t)
        self.add(self.face, self.axes_lines, self.arc, self.hands, self.hub, self.tags)

    @property
    def center(self) -> np.ndarray:
        return self.face.get_center()

    def tip_angles(self) -> np.ndarray:
        """The angle of each arrow (before, after) as it sits on screen."""
        d = np.array([h.get_end() - self.center for h in self.hands])
        return np.arctan2(d[:, 1], d[:, 0])
