"""Widgets that show a measured proof: exact maps, proof lines, bits, defects and caches (first used by 03 to 05).

* :class:`CodePanel`: a listing that can point at a line;
* :class:`ExactHeatmap`: a heatmap whose exact zeros print ``0`` (a masked weight), which can
  change what it shows cell by cell (:func:`morph_cells`), scores turning into weights;
* :func:`staircase_outline`: the outline of a square map's lower (or strictly upper) triangle;
* :func:`proof_line`: a measured proof as ONE typeset line (``formula = figure``, an exact zero
  with its "exact" mark, rounding noise as ``≈ 2.2 × 10⁻¹⁶``), with a check mark when it passed;
* :func:`worded_line` / :func:`worded_verdict`: words in the house sans and math in Typst on one
  baseline (``"pair 63 at $m = 2 L = 8192$"``), and the deck's verdict built on such a line;
* :class:`BitStrip` / :class:`BitPair`: the 64 bits of a float64, two of them compared bit for bit;
* :class:`DefectPlot`: a defect per prefix length on a log axis, exact zeros on the floor, each
  series labelled on the data;
* :class:`DecodeBoard`: token-by-token decoding, the K and V caches growing one row a step;
* :class:`StaleChart`: how far every past output moves when a token is appended;
* :func:`restage`: a clip's closing picture composed from what is on screen.

Like the rest of the kit they are typed over real arrays and keep what they draw (``values``,
``bits``, ``source``) so tests can read it back.  Every gap is a named house gap (``GAP``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    FadeIn,
    FadeOut,
    Group,
    Mobject,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from . import numbers
from .compose import GAP
from .layout import FIT_XHEIGHT_PX, Region, baseline_y, legible_scale, min_xheight_px
from .theme import (
    FAILED,
    FG,
    HIGHLIGHT,
    LABEL,
    VERIFIED,
    ColorScale,
    figure,
    label,
    math,
    token_color,
)
from .widgets import Heatmap

SLICE = 'class("normal", :)'  # Typst math: the colon of a slice [:t], set without relation spacing


def upto(name: str, t: str = "t") -> str:
    """Typst math for the first ``t`` rows of ``name``: ``upto("X")`` -> ``X[:t]`` (no stray spaces)."""
    return f"{name} [{SLICE} {t}]"


def settle(region: Region, mob: Mobject, align=None) -> Mobject:
    """Place ``mob`` in ``region`` as it is when it fits, else fit it: smaller, never under the house's
    legible floor (``MIN_XHEIGHT_PX``; a formula whose scripts sit just above it may shrink a little)."""
    from manim import ORIGIN

    from .layout import MIN_XHEIGHT_PX

    align = ORIGIN if align is None else align
    if mob.width <= region.width + 1e-6 and mob.height <= region.height + 1e-6:
        return region.place(mob, align)
    return region.fit(mob, align, floor_px=MIN_XHEIGHT_PX)


# ====================================================================== revealing parts
def hide(*mobs: Mobject) -> None:
    """Make ``mobs`` transparent, remembering each part's opacities for :class:`Reveal`."""
    for m in mobs:
        for f in m.family_members_with_points():
            f._shown = (f.get_fill_opacities().copy(), f.get_stroke_opacities().copy())
            f.set_fill(opacity=0, family=False)
            f.set_stroke(opacity=0, family=False)


class Reveal(Animation):
    """Bring parts made transparent by :func:`hide` back, group after group (rows of a map with their
    names): group ``k`` starts a ``lag`` share of its own time after group ``k − 1`` and slides in by
    ``shift``.  The animation runs on ``holder`` (a mobject on screen that holds every part), so the
    scene never gains a container of loose parts; at the end every part is as it was."""

    def __init__(self, holder: Mobject, groups: Sequence[Sequence[Mobject]], lag: float = 0.15, shift=None, **kw):
        self.groups = [[f for m in g for f in m.family_members_with_points()] for g in groups]
        self.lag = lag
        self.offset = np.zeros(3) if shift is None else np.asarray(shift, dtype=float)
        super().__init__(holder, **kw)

    def begin(self) -> None:
        self.base = {id(f): f.points.copy() for g in self.groups for f in g}
        self.full = {id(f): getattr(f, "_shown", (f.get_fill_opacities().copy(), f.get_stroke_opacities().copy()))
                     for g in self.groups for f in g}
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        n = len(self.groups)
        span = 1.0 / (1.0 + self.lag * (n - 1)) if n else 1.0
        for k, g in enumerate(self.groups):
            a = float(np.clip((alpha - k * self.lag * span) / span, 0.0, 1.0))
            a = self.rate_func(a)
            for f in g:
                fill, stroke = self.full[id(f)]
                f.set_fill(opacity=fill * a, family=False)
                f.set_stroke(opacity=stroke * a, family=False)
                f.points = self.base[id(f)] - (1.0 - a) * self.offset

    def interpolate_submobject(self, *args, **kw) -> None:  # the whole work is done above
        return None




def row_parts(hm: Heatmap, i: int) -> list[Mobject]:
    """Row ``i`` of ``hm``: its cells and, when numbers are printed, its numbers."""
    cols = hm.values.shape[1]
    return [*hm.cells[i], *(hm.labels[i * cols:(i + 1) * cols] if hm.show_values else [])]


def value_map(values, scale: ColorScale, cell_w: float, cell_h: float, decimals: int = 2, size: float = LABEL,
              cls=Heatmap) -> Heatmap:
    """A heatmap of rectangular cells printing its values at one size (the largest that fits the widest),
    or colour alone when the numbers would fall under the legible floor."""
    hm = cls(values, scale, (cell_w, cell_h), show_values=True, decimals=decimals, value_size=size,
             uniform_values=True)
    if min_xheight_px(hm.labels) < FIT_XHEIGHT_PX:
        hm = cls(values, scale, (cell_w, cell_h))
    return hm


# ====================================================================== code


# ====================================================================== maps


def morph_cells(hm: Heatmap, new_values, cells, run_time: float | None = None) -> AnimationGroup:
    """Animate ``hm``'s ``cells`` (``(i, j)`` pairs) to ``new_values[i, j]``: each cell's fill moves to
    its new colour while its printed value is swapped (old out, then new in: never two strings
    over each other).  ``hm.values`` and ``hm.labels`` hold the new values and labels at once;
    the old labels leave the scene when the animation ends."""
    new = np.array(new_values, dtype=float)
    vals = np.array(hm.values, dtype=float)
    rows, cols = vals.shape
    anims = []
    for i, j in cells:
        vals[i, j] = new[i, j]
        anims.append(hm.cell(i, j).animate.set_fill(hm.color_of(new[i, j]), opacity=1.0))
        if hm.show_values:
            k = i * cols + j
            old = hm.labels.submobjects[k]
            fresh = hm._label_for(new[i, j], i, j)
            fresh.set_fill(opacity=0)
            hm.labels.submobjects[k] = fresh
            anims.append(Succession(FadeOut(old), fresh.animate.set_fill(opacity=1.0)))
    vals.flags.writeable = False
    hm.values = vals
    kw = {} if run_time is None else {"run_time": run_time}
    return AnimationGroup(*anims, **kw)


def row_names(hm: Heatmap, name: str, n: int | None = None, colors: Callable | None = None, size: float = LABEL,
              gap: str = "small") -> VGroup:
    """``name_0 … name_(n-1)`` (Typst math) left of ``hm``'s rows, coloured ``colors(i)`` (default: the token's)."""
    rows = hm.values.shape[0] if n is None else n
    col = colors or token_color
    return VGroup(*[math(f"{name}_{i}", size=size, color=col(i)).next_to(hm.cell(i, 0), LEFT, buff=getattr(GAP, gap))
                    for i in range(rows)])


def frame_row(hm: Heatmap, i: int, color=HIGHLIGHT) -> SurroundingRectangle:
    """An outline around row ``i`` of ``hm`` (the row the narration is on)."""
    return SurroundingRectangle(VGroup(*hm.cells[i]), color=color, buff=GAP.hair / 2, stroke_width=3)


# ====================================================================== marks and proofs
def check_mark(size: float = 0.3, color=VERIFIED, stroke_width: float = 5) -> VMobject:
    """A drawn check mark (a graphic, so no font needs the glyph), ``size`` units wide."""
    m = VMobject(stroke_color=color, stroke_width=stroke_width)
    m.set_points_as_corners([[-0.5, 0.0, 0], [-0.15, -0.35, 0], [0.5, 0.4, 0]])
    m.set_fill(opacity=0)
    return m.scale(size)


def cross_mark(size: float = 0.3, color=FAILED, stroke_width: float = 5) -> VMobject:
    """A drawn cross (✗), ``size`` units wide: the mark of a check that failed."""
    m = VMobject(stroke_color=color, stroke_width=stroke_width)
    # one path, two strokes: down one diagonal, back to the centre, along the other
    m.set_points_as_corners([[-0.4, 0.4, 0], [0.4, -0.4, 0], [0.0, 0.0, 0], [0.4, 0.4, 0], [-0.4, -0.4, 0]])
    m.set_fill(opacity=0)
    return m.scale(size)


def verdict(formula: str, value, passed: bool, size: float = LABEL, color=FG) -> VGroup:
    """The deck's one verdict style: a drawn ✓ (VERIFIED) or ✗ (FAILED) before the measured proof as one
    typeset line, ``formula = figure`` (``formula ≈ 2.2 × 10⁻¹⁶`` for rounding noise, ``formula = 0``
    with the "exact" mark for an exact zero).  The audit reports verdict words (✓, ✗, "exact", "bit for
    bit") on screen anywhere but in a verdict (``audit.beats``: kind ``verdict``).

    ``.value`` is the typeset line (its ``.figure`` is the ``numbers.Figure`` printed), ``.check`` the
    mark, ``.formula`` the Typst source of the formula, ``.passed`` the verdict."""
    from .binding import role

    f = value if isinstance(value, numbers.Figure) else numbers.measure(value)
    line = figure(f, size=size, color=color, prefix=formula + " =" if formula else "")  # "≈" alone for noise
    k = size / LABEL * 0.32
    mark = role(check_mark(k), "verified") if passed else role(cross_mark(k), "failed")
    g = VGroup(mark, line).arrange(RIGHT, buff=GAP.small)
    mark.set_y(line[0].get_center()[1] if f.exact else line.get_center()[1])
    g.value, g.check, g.formula, g.figure, g.passed = line, mark, formula, f, bool(passed)
    g._verdict = True
    return g


def proof_line(formula: str, value, size: float = LABEL, passed: bool | None = None, color=FG) -> VGroup:
    """A measured proof as one typeset line: with ``passed`` (True or False) the deck's :func:`verdict`,
    ✓ or ✗ before it; without, the line alone (a measurement that is not yet a verdict).

    ``.value`` is the typeset line (its ``.figure`` is the ``numbers.Figure`` printed), ``.check``
    the mark (or an empty group), ``.formula`` the Typst source of the formula."""
    if passed is not None:
        return verdict(formula, value, passed, size=size, color=color)
    f = value if isinstance(value, numbers.Figure) else numbers.measure(value)
    line = figure(f, size=size, color=color, prefix=formula + " =")  # the kit sets "≈" alone for noise
    g = VGroup(line)
    g.value, g.check, g.formula, g.figure = line, VGroup(), formula, f
    return g


# ====================================================================== words and math on one line
_MATH_PIECE = re.compile(r"\$([^$]*)\$")
_CLINGS = tuple(",.:;)%!?")  # a word piece starting with one of these follows the piece before it, no space


@lru_cache(maxsize=None)
def _word_space(size: float) -> float:
    """The gap a word space leaves between two words' ink in the house sans at ``size`` (units)."""
    return float(label("x x", size=size).width - 2 * label("x", size=size).width)


def line_baseline(m: Mobject) -> float:
    """The y of ``m``'s baseline: a sans ``Text``'s (:func:`layout.baseline_y`), a Typst formula's (the median
    bottom of its glyphs: most sit on the line, scripts and ``=`` do not), a group's first part's."""
    if hasattr(m, "text") and not hasattr(m, "typst_code"):
        return baseline_y(m)
    if hasattr(m, "typst_code"):
        glyphs = [g for g in m.submobjects if g.has_points() or g.submobjects] or [m]
        return float(np.median([g.get_bottom()[1] for g in glyphs]))
    if m.submobjects:
        return line_baseline(m.submobjects[0])
    return float(m.get_bottom()[1])


def worded_line(*parts, size: float = LABEL, color=FG, math_color=None, weight: str = "NORMAL") -> VGroup:
    """One line of sans words and Typst math, on one baseline: ``worded_line("pair 63 at $m = 2 L = 8192$")``.

    In a string part, ``$…$`` is Typst math (:func:`theme.math`, ``math_color``, default ``color``) and the rest
    words in the house sans (:func:`theme.label`); a mobject part (a typeset figure) is placed as it is.  Pieces
    are a word space apart where the source has a space (or between parts), else they touch, and a word piece
    starting with punctuation (``,.:;)%``) follows the piece before it.

    ``.pieces`` all pieces in order, ``.words`` the sans ``Text`` pieces, ``.maths`` the math pieces, ``.source``
    the line as written."""
    pieces: list[Mobject] = []
    spaced: list[bool] = []  # a word space before each piece
    sources: list[str] = []
    for part in parts:
        pending = True  # between parts: a space
        if isinstance(part, Mobject):
            pieces.append(part)
            spaced.append(True)
            sources.append(getattr(part, "source", "") or "")
            continue
        text = str(part)
        sources.append(text)
        pos = 0
        chunks = []
        for m in _MATH_PIECE.finditer(text):
            chunks += [("words", text[pos:m.start()]), ("math", m.group(1))]
            pos = m.end()
        chunks.append(("words", text[pos:]))
        for kind, chunk in chunks:
            if kind == "math":
                if chunk.strip():
                    pieces.append(math(chunk.strip(), size=size, color=math_color or color))
                    spaced.append(pending)
                    pending = False
                continue
            words = chunk.strip()
            if not words:
                pending = pending or bool(chunk)
                continue
            pieces.append(label(words, size=size, color=color, weight=weight))
            spaced.append((pending or chunk[0].isspace()) and not words.startswith(_CLINGS))
            pending = chunk[-1].isspace()
    g = VGroup(*pieces)
    space = _word_space(float(size))
    x = 0.0
    y0 = line_baseline(pieces[0]) if pieces else 0.0
    for k, p in enumerate(pieces):
        if k:
            x += space if spaced[k] else space * 0.15
        p.shift((x - p.get_left()[0]) * RIGHT + (y0 - line_baseline(p)) * UP)
        x = p.get_right()[0]
    g.pieces = pieces
    g.words = [p for p in pieces if hasattr(p, "text") and not hasattr(p, "typst_code")]
    g.maths = [p for p in pieces if hasattr(p, "typst_code")]
    g.source = " ".join(sources)
    return g


def worded_verdict(words: str, value=None, passed: bool = True, size: float = LABEL, color=FG,
                   relation: str = "") -> VGroup:
    """The deck's verdict on a worded line: a drawn ✓ (VERIFIED) or ✗ (FAILED), then ``words`` (sans words
    with ``$…$`` math, :func:`worded_line`) and the measured figure ``value`` typeset as math
    (:func:`theme.figure`: ``≈ 2.2 × 10⁻¹⁶`` for rounding noise, ``0`` with its "exact" mark), on one
    baseline.  Without ``value`` the line itself carries the figure (give it in the words' math).  ``relation``
    (Typst, ``norm(A)_F =``) is typeset before the figure on its math line (``≈`` alone for rounding noise).

    Like :func:`verdict`: ``.check`` the mark, ``.passed``, ``.value`` the typeset figure (its
    ``.figure`` the ``numbers.Figure``; the line when there is no value), ``.figure``, ``.formula`` the
    words as written, ``.line`` the worded line."""
    from .binding import role

    parts: list = [words]
    fig = None
    if value is not None:
        f = value if isinstance(value, numbers.Figure) else numbers.measure(value)
        fig = figure(f, size=size, color=color, prefix=relation)
        parts.append(fig)
    line = worded_line(*parts, size=size, color=color)
    k = size / LABEL * 0.32
    mark = role(check_mark(k), "verified") if passed else role(cross_mark(k), "failed")
    g = VGroup(mark, line).arrange(RIGHT, buff=GAP.small)
    xh = label("x", size=size).height
    mark.set_y(line_baseline(line) + xh / 2)  # on the middle of the words' x-height
    g.value = fig if fig is not None else line
    g.figure = fig.figure if fig is not None else None
    g.check, g.line, g.passed = mark, line, bool(passed)
    g.formula = f"{words} ${relation}$" if relation else words
    g._verdict = True
    return g


# ====================================================================== bits


# ====================================================================== plots


# ====================================================================== decoding


# ====================================================================== closing pictures
def restage(scene, parts: Sequence[Mobject], compose: Callable[[list[Mobject]], Mobject], region: Region,
            fill: float = 0.86, most: float = 2.2) -> list:
    """The closing picture: ``compose`` arranges copies of ``parts`` (in order) into one group, which
    is fitted to ``region`` (``fill`` of it, growing at most ``most`` times); every part on screen
    moves and grows into its place, a part not on screen fades in there, and everything else but
    the header fades out.  Returns the animations; ``scene.closing_picture`` holds the final mobjects."""
    targets = [p.copy() for p in parts]
    group = compose(targets)
    s = min(region.fit_scale(group, np.inf) * fill, most)
    if s < legible_scale(group):  # rather fill more of the region than shrink the text under the floor
        s = min(legible_scale(group), region.fit_scale(group, np.inf))
    group.scale(s).move_to(region.center)
    on_screen = {id(f) for m in scene.mobjects for f in m.get_family()}
    keep = {id(f) for p in parts for f in p.get_family()} | {id(f) for f in scene.header.get_family()}
    leaves = [f for m in scene.mobjects for f in m.get_family()
              if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
    moves, arrivals, finals = [], [], []
    for p, t in zip(parts, targets):
        if any(id(f) in on_screen for f in p.family_members_with_points()):
            moves.append(Transform(p, t))
        else:  # not on screen: it appears in its place (the part itself, so it keeps its names)
            p.become(t)
            arrivals.append(FadeIn(p))
        finals.append(p)
    scene.closing_picture = finals
    # the rest fades first, then the parts move into place and the new ones arrive: never two pictures
    # on top of each other
    if not leaves:
        return [*moves, *arrivals]
    return [Succession(FadeOut(Group(*leaves)), AnimationGroup(*moves, *arrivals))]




def readout(prefix: str, x, size: float = LABEL, color=FG):
    """``prefix = 0.83`` / ``prefix ≈ 2.2 × 10⁻¹⁶`` / ``prefix = 0 exact``, typeset on one math line."""
    return figure(x, size=size, color=color, prefix=f"{prefix} =")


def measured_line(lhs: str, x: float, size: float = LABEL, digits: int = 2):
    """A measured figure typeset with the statement it measures, on one math line (``lhs ≈ 2.2 ×
    10⁻¹⁶``, ``lhs = 0`` with its exact mark), in the colour of the check's verdict against the
    deck's pass line (``mathcore.equivariance.THRESHOLD``)."""
    from mathcore.equivariance import THRESHOLD

    fig = numbers.measure(x, digits)
    color = VERIFIED if abs(x) < THRESHOLD else FAILED
    return figure(fig, size=size, color=color, prefix=f"{lhs} =")  # the kit writes "≈" alone for an approximate one
