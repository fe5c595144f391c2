"""Icons: small schematic pictures described once as shapes, drawn by two small back-ends.

An :class:`Icon` is a tuple of shapes on the unit square ``[-0.5, 0.5]²`` (y up): boxes, strokes
(polylines), rings, arcs, arrows and letters.  Colours are roles: ``"ink"`` is the colour the icon
is drawn in (a card's family colour), ``"fg"``, ``"dim"`` and ``"failed"`` the house colours.
Weights are line widths in Manim's stroke units; the matplotlib back-end converts them to points.

* :func:`to_manim` builds a ``VGroup`` ``size`` units wide (the clips: title map, recap);
* :func:`to_matplotlib` draws on axes spanning the unit square (the stills).

Icons carry no data: they stand for an idea (rows that move, a masked grid, a cache), so
the title card and the recap, and their stills, draw them from one description.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MPL_POINTS = 0.55  # a Manim stroke width of 1 in matplotlib points, at the size stills draw icons
TIP = 0.11  # an arrow's tip, as a share of the icon's size
LETTER_AT = 1.5  # units: an icon drawn larger than this sets its letters larger, in proportion ...
LETTER_GROW = 1.6  # ... up to this factor


@dataclass(frozen=True)
class Box:
    """A rectangle centred at ``(x, y)``, ``w`` × ``h``, corners rounded by ``round`` (unit-square units)."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = "ink"  # colour role of the fill (None: not filled)
    alpha: float = 1.0  # the fill's opacity
    edge: str | None = None  # colour role of the outline (None: no outline)
    weight: float = 1.5
    round: float = 0.0


@dataclass(frozen=True)
class Stroke:
    """A polyline through ``points``."""

    points: tuple[tuple[float, float], ...]
    color: str = "ink"
    weight: float = 2.5
    alpha: float = 1.0


@dataclass(frozen=True)
class Ring:
    """A circle's outline."""

    x: float
    y: float
    r: float
    color: str = "ink"
    weight: float = 2.0


@dataclass(frozen=True)
class Bend:
    """An arc of the circle at ``(x, y)`` of radius ``r`` from ``start`` degrees, ``span`` degrees long."""

    x: float
    y: float
    r: float
    start: float
    span: float
    color: str = "ink"
    weight: float = 2.0
    alpha: float = 1.0


@dataclass(frozen=True)
class Pointer:
    """An arrow from ``(x0, y0)`` to ``(x1, y1)``."""

    x0: float
    y0: float
    x1: float
    y1: float
    color: str = "ink"
    weight: float = 4.0


@dataclass(frozen=True)
class Letter:
    """A one-letter formula (Typst math, e.g. ``"q"``) centred at ``(x, y)``."""

    text: str
    x: float
    y: float
    color: str = "ink"


Shape = Box | Stroke | Ring | Bend | Pointer | Letter


@dataclass(frozen=True)
class Icon:
    """A named picture: its shapes, in drawing order."""

    name: str
    shapes: tuple[Shape, ...]
    doc: str = ""

    def roles(self) -> set[str]:
        """Every colour role the icon uses."""
        out = set()
        for s in self.shapes:
            for f in ("fill", "edge", "color"):
                v = getattr(s, f, None)
                if v:
                    out.add(v)
        return out


def polyline(f, x0: float, x1: float, n: int = 64) -> tuple[tuple[float, float], ...]:
    """The points of ``y = f(x)`` from ``x0`` to ``x1`` (a curve as a polyline)."""
    return tuple((float(x), float(f(x))) for x in np.linspace(x0, x1, n))


# ====================================================================== Manim
def _manim_color(role: str, ink):
    from .theme import BG, DIM, FAILED, FG

    return {"ink": ink, "fg": FG, "dim": DIM, "failed": FAILED, "bg": BG}[role]


def to_manim(icon: Icon, ink, size: float = 1.0, paint: dict[int, str] | None = None):
    """``icon`` as a Manim ``VGroup`` drawn in ``ink``, the unit square scaled to ``size`` units (its
    letters keep their text size, so build it at the size it is shown).  ``paint`` (optional) maps a
    shape's index to a concept role (``theme.CONCEPT_COLORS``: "query", "key", "value", …): that shape is
    drawn whole in the role's colour and declares the role (``binding.role``), so an icon that shows a
    query, a key or a value says so in the deck's colours."""
    from manim import Arc, Arrow, Circle, RoundedRectangle, VGroup, VMobject

    from .binding import role
    from .layout import overlay
    from .theme import CONCEPT_COLORS, LABEL, math

    paint = paint or {}
    if bad := {i: r for i, r in paint.items() if r not in CONCEPT_COLORS or not 0 <= i < len(icon.shapes)}:
        raise ValueError(f"icon {icon.name!r}: paint {bad} names no shape or no concept role "
                         f"(shapes 0 to {len(icon.shapes) - 1}; roles {sorted(CONCEPT_COLORS)})")
    current = [None]  # the concept role of the shape being drawn, if painted

    def col(name):
        return CONCEPT_COLORS[current[0]] if current[0] else _manim_color(name, ink)

    def at(x, y):
        return np.array([x * size, y * size, 0.0])

    g, letters = VGroup(), VGroup()
    for i, s in enumerate(icon.shapes):
        current[0] = paint.get(i)
        before = len(g), len(letters)
        if isinstance(s, Box):
            m = RoundedRectangle(corner_radius=max(s.round * size, 1e-4), width=s.w * size, height=s.h * size,
                                 stroke_width=s.weight if s.edge else 0, stroke_color=col(s.edge or "ink"),
                                 fill_color=col(s.fill or "ink"), fill_opacity=s.alpha if s.fill else 0.0)
            g.add(m.move_to(at(s.x, s.y)))
        elif isinstance(s, Stroke):
            m = VMobject(stroke_color=col(s.color), stroke_width=s.weight, stroke_opacity=s.alpha)
            m.set_points_as_corners([at(*p) for p in s.points])
            if s.color == "failed":  # the house's "failed" colour means what it always means (a wall, a refusal)
                role(m, "failed")
            g.add(m)
        elif isinstance(s, Ring):
            g.add(Circle(radius=s.r * size, stroke_color=col(s.color), stroke_width=s.weight).move_to(at(s.x, s.y)))
        elif isinstance(s, Bend):
            g.add(Arc(radius=s.r * size, start_angle=np.deg2rad(s.start), angle=np.deg2rad(s.span),
                      arc_center=at(s.x, s.y), stroke_color=col(s.color), stroke_width=s.weight,
                      stroke_opacity=s.alpha))
        elif isinstance(s, Pointer):
            start, end = at(s.x0, s.y0), at(s.x1, s.y1)
            tip = min(0.5, TIP * size / max(float(np.linalg.norm(end - start)), 1e-6))  # one tip size per icon
            g.add(Arrow(start, end, buff=0, color=col(s.color), stroke_width=s.weight,
                        max_tip_length_to_length_ratio=tip))
        elif isinstance(s, Letter):
            grow = min(LETTER_GROW, max(1.0, size / LETTER_AT))  # a large drawing names its strokes larger
            letters.add(math(s.text, size=LABEL * grow, color=col(s.color)).move_to(at(s.x, s.y)))
        else:
            raise TypeError(f"icon {icon.name!r}: not a shape: {s!r}")
        if current[0]:
            for m in [*g[before[0]:], *letters[before[1]:]]:
                role(m, current[0])
    if letters:
        g.add(letters)
        overlay(*g)  # the letters name the strokes they sit by
    g.letters = letters
    return g


# ====================================================================== matplotlib
def to_matplotlib(icon: Icon, ax, th, ink: str, paint: dict[int, str] | None = None) -> None:
    """Draw ``icon`` on ``ax`` (limits ``[-0.5, 0.5]²``, equal aspect) in ``ink`` (``"#RRGGBB"``), with
    the house colours of the still's theme ``th`` (``scenes.stills.draw.Theme``); ``paint`` as in
    :func:`to_manim` (the shapes it names in the theme's concept colours)."""
    from matplotlib.patches import Arc, Circle, FancyArrowPatch, FancyBboxPatch

    paint = paint or {}
    current = [None]

    def col(role):
        if current[0]:
            return th.color(current[0])
        return {"ink": ink, "fg": th.fg, "dim": th.dim, "failed": th.bad, "bg": th.bg}[role]

    for i, s in enumerate(icon.shapes):
        current[0] = paint.get(i)
        if isinstance(s, Box):
            style = f"round,pad=0,rounding_size={s.round}" if s.round else "square,pad=0"
            xy = (s.x - s.w / 2, s.y - s.h / 2)
            if s.fill:
                ax.add_patch(FancyBboxPatch(xy, s.w, s.h, boxstyle=style, facecolor=col(s.fill), alpha=s.alpha,
                                            linewidth=0))
            if s.edge:
                ax.add_patch(FancyBboxPatch(xy, s.w, s.h, boxstyle=style, facecolor="none", edgecolor=col(s.edge),
                                            linewidth=s.weight * MPL_POINTS))
        elif isinstance(s, Stroke):
            xs, ys = zip(*s.points)
            ax.plot(xs, ys, color=col(s.color), linewidth=s.weight * MPL_POINTS, alpha=s.alpha,
                    solid_capstyle="round")
        elif isinstance(s, Ring):
            ax.add_patch(Circle((s.x, s.y), s.r, facecolor="none", edgecolor=col(s.color),
                                linewidth=s.weight * MPL_POINTS))
        elif isinstance(s, Bend):
            ax.add_patch(Arc((s.x, s.y), 2 * s.r, 2 * s.r, theta1=s.start, theta2=s.start + s.span,
                             edgecolor=col(s.color), linewidth=s.weight * MPL_POINTS, alpha=s.alpha))
        elif isinstance(s, Pointer):
            ax.add_patch(FancyArrowPatch((s.x0, s.y0), (s.x1, s.y1), arrowstyle="-|>", mutation_scale=9,
                                         color=col(s.color), linewidth=s.weight * MPL_POINTS, shrinkA=0, shrinkB=0))
        elif isinstance(s, Letter):
            ax.text(s.x, s.y, f"${s.text}$", ha="center", va="center", fontsize=10, color=col(s.color))
        else:
            raise TypeError(f"icon {icon.name!r}: not a shape: {s!r}")
