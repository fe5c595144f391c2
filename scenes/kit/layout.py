"""Layout from regions, not coordinates: named regions of the frame, widgets that fit a
region down to a legibility floor, text that wraps, and annotations that never collide.

A clip asks the base scene for its regions (``self.layout``: the content area under the
header, split into columns and rows as the clip needs) and places every widget in one,
so the same code holds for every ``T``, ``d``, sentence and title a lecturer may choose.

Legibility is measured, not guessed: :func:`xheight_px` is the height of a lowercase
``x`` of a text mobject as drawn at 854×480, Typst sub- and superscripts included
(:func:`typst_script_scale` reads the formula's script depth).  Nothing may fall under
:data:`MIN_XHEIGHT_PX`; fitting stops at :data:`FIT_XHEIGHT_PX` and changes the
representation (wraps, drops the numbers, ...) instead of shrinking further.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from manim import DOWN, LEFT, ORIGIN, Line, Mobject, VGroup

from .theme import CONTENT_BOTTOM, DIM, FRAME_H, FRAME_W, MARGIN, SANS, SMALL, label

# ------------------------------------------------------------------ legibility
REFERENCE_PIXEL_WIDTH = 854  # legibility is judged at 854×480, the smallest quality
PX_PER_UNIT = REFERENCE_PIXEL_WIDTH / FRAME_W
MIN_XHEIGHT_PX = 8.0  # the floor: the x-height of every text on screen, at 854×480
FIT_XHEIGHT_PX = 8.5  # where fitting stops shrinking and changes representation instead

# Typst math scripts: NCM's MATH table scales scripts to 70 % and second-level scripts to 50 %
# (measured on the glyphs: x 0.472, x_x 0.329, x_(x_x) 0.236 units at font size 100).
SCRIPT_SCALE = {0: 1.0, 1: 0.7, 2: 0.5}
TYPST_TEXT_FACTOR = 0.95  # upright "text" in math: its x-height over the italic x's


class LayoutError(ValueError):
    """A widget cannot be drawn legibly in its region at any size."""


@lru_cache(maxsize=8)
def _pango_xh_per_size(font: str) -> float:
    """Manim units of x-height per point of ``Text.font_size`` for ``font``."""
    return label("x", size=100, font=font).height / 100.0


@lru_cache(maxsize=1)
def _typst_xh_per_size() -> float:
    from manim import MathTypst

    return MathTypst("x", font_size=100).height / 100.0


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\\.|[A-Za-z][A-Za-z0-9.]*|[0-9]+(?:\.[0-9]+)?|\s+|.', re.S)
_OPEN, _CLOSE = "([{", ")]}"


def typst_script_scale(expr: str) -> float:
    """The size of the smallest glyph of Typst math ``expr`` relative to its base size.

    Follows TeX/Typst math styles: a sub- or superscript is set one style smaller
    (display/text -> script 70 % -> script-script 50 %); a fraction's parts one style
    smaller than the fraction, except at display level.  Upright strings (``"full"``)
    count with their slightly smaller x-height.
    """
    raw = _TOKEN.findall(expr)
    toks = [t for t in raw if not t.isspace()]
    spaced = []  # whether a space comes before each token: ``f(x)`` is a call, ``W_q (x)`` is not
    for k, t in enumerate(raw):
        if not t.isspace():
            spaced.append(k > 0 and raw[k - 1].isspace())
    pos = 0

    # AST: ("tok", text) | ("seq", [nodes]) | ("att", base, [scripts]) | ("frac", num, den) | ("call", name, [args], is_frac)
    def parse_seq(until: str) -> tuple:
        nonlocal pos
        items: list = []
        while pos < len(toks) and toks[pos] not in until:
            t = toks[pos]
            if t == "/" and items:
                pos += 1
                den = parse_atom()
                items[-1] = ("frac", items[-1], den)
                continue
            if t in (",", ";"):
                pos += 1
                continue
            items.append(parse_atom())
        return ("seq", items)

    def parse_primary() -> tuple:
        nonlocal pos
        if pos >= len(toks):
            return ("seq", [])
        t = toks[pos]
        pos += 1
        if t in _OPEN:
            inner = parse_seq(_CLOSE)
            if pos < len(toks) and toks[pos] in _CLOSE:
                pos += 1
            return inner
        if re.match(r"[A-Za-z]", t) and pos < len(toks) and toks[pos] == "(" and not spaced[pos]:
            pos += 1
            args = parse_seq(")")
            if pos < len(toks) and toks[pos] == ")":
                pos += 1
            return ("call", t, args, t == "frac")
        return ("tok", t)

    def parse_atom() -> tuple:
        nonlocal pos
        base = parse_primary()
        scripts = []
        while pos < len(toks) and toks[pos] in ("_", "^"):
            pos += 1
            scripts.append(parse_primary())
        return ("att", base, scripts) if scripts else base

    def size(style: int) -> float:  # style 0 display, 1 text, 2 script, 3 script-script
        return SCRIPT_SCALE[min(max(style - 1, 0), 2)]

    def smallest(node, style: int) -> float:
        kind = node[0]
        if kind == "tok":
            return size(style) * (TYPST_TEXT_FACTOR if node[1].startswith('"') else 1.0)
        if kind == "seq":
            return min((smallest(n, style) for n in node[1]), default=1.0)
        if kind == "att":
            sub = max(style, 1) + 1 if style < 3 else 3
            return min([smallest(node[1], style)] + [smallest(n, sub) for n in node[2]])
        frac_style = min(style + 1, 3)
        if kind == "frac":
            return min(smallest(node[1], frac_style), smallest(node[2], frac_style))
        _, name, args, is_frac = node  # a call: its name is drawn (unless frac), its arguments too
        inner = smallest(args, frac_style if is_frac else style)
        return inner if is_frac or name in _LAYOUT_CALLS else min(inner, size(style))

    return float(smallest(parse_seq(""), 0))


# calls that draw only their arguments (and perhaps delimiters), not their name
_LAYOUT_CALLS = {"scripts", "limits", "sqrt", "norm", "abs", "lr", "vec", "mat", "cases", "floor", "ceil",
                 "round", "bold", "italic", "upright", "cancel", "overline", "underline", "hat", "tilde", "bar",
                 "dot", "arrow", "op", "display", "inline", "sans", "serif", "mono", "cal", "frak", "bb"}


def _text_xheight_units(mob: Mobject) -> float | None:
    """x-height (Manim units) of the smallest glyph of a text mobject, or None if not text."""
    from manim import MarkupText, Text
    from manim.mobject.text.typst_mobject import Typst

    ref = getattr(mob, "_audit_xh", None)
    if ref is not None:  # (x-height, height) when marked; scales with the mobject
        xh0, h0 = ref
        return xh0 * (mob.height / h0 if h0 > 0 else 1.0)
    if isinstance(mob, (Text, MarkupText)):
        return _pango_xh_per_size(getattr(mob, "font", "") or SANS) * mob.font_size
    if isinstance(mob, Typst):
        code = mob.typst_code.strip()
        if code.startswith("$") and code.endswith("$"):
            code = code[1:-1]
        return _typst_xh_per_size() * mob.font_size * typst_script_scale(code)
    return None


def is_text(mob: Mobject) -> bool:
    return _text_xheight_units(mob) is not None if _looks_like_text(mob) else False


def _looks_like_text(mob: Mobject) -> bool:
    from manim import MarkupText, Text
    from manim.mobject.text.typst_mobject import Typst

    return isinstance(mob, (Text, MarkupText, Typst)) or hasattr(mob, "_audit_xh")


def xheight_px(mob: Mobject) -> float:
    """The x-height of ``mob``'s smallest glyph in pixels at 854×480."""
    xh = _text_xheight_units(mob)
    if xh is None:
        raise TypeError(f"{mob!r} is not a text mobject")
    return xh * PX_PER_UNIT


def min_xheight_px(mob: Mobject) -> float:
    """The smallest x-height of any text inside ``mob`` (``inf`` if it holds none)."""
    best = np.inf
    for m in _texts_in(mob):
        best = min(best, xheight_px(m))
    return best


def _texts_in(mob: Mobject):
    if _looks_like_text(mob):
        yield mob
        return
    for sm in mob.submobjects:
        yield from _texts_in(sm)


_DESCENDERS = set("gjpqyQ,;()[]{}|_/\\@$")


def baseline_y(text: Mobject) -> float:
    """The y of a Pango ``Text``'s baseline: the median bottom of its glyphs that sit on it
    (letters without descenders, digits); the box's bottom if it has none."""
    chars = [ch for ch in getattr(text, "text", "") if not ch.isspace()]
    glyphs = list(text.submobjects)
    if len(chars) == len(glyphs):
        bottoms = [g.get_bottom()[1] for ch, g in zip(chars, glyphs) if ch not in _DESCENDERS and ch.isalnum()]
        if bottoms:
            return float(np.median(bottoms))
    return float(text.get_bottom()[1])


def mark_text(mob: Mobject, xheight_units: float) -> Mobject:
    """Declare ``mob`` (e.g. a code line) a text whose x-height is ``xheight_units`` now."""
    mob._audit_xh = (float(xheight_units), float(mob.height))
    return mob


def legible_scale(mob: Mobject, floor_px: float = FIT_XHEIGHT_PX) -> float:
    """The smallest factor ``mob`` may be scaled by before a text in it drops below ``floor_px``."""
    xh = min_xheight_px(mob)
    return 0.0 if not np.isfinite(xh) else floor_px / xh


# ------------------------------------------------------------------ overlays (intentional overlaps)
_unit_ids = itertools.count(1)


def overlay(*mobs: Mobject) -> Mobject:
    """Declare ``mobs`` one unit: a text among them (or inside them) may sit on a graphic
    among them (a value on its cell, a word in its chip, code on its panel).  A mobject
    may belong to several units.  Returns the first."""
    uid = next(_unit_ids)
    for m in mobs:  # marked on every member: Manim may regroup a scene's mobjects when parts leave
        for f in m.get_family():
            f._overlay_ids = getattr(f, "_overlay_ids", frozenset()) | {uid}
    return mobs[0] if mobs else None


def background(*mobs: Mobject) -> Mobject:
    """Declare ``mobs`` background (a panel, a band, a guide): texts may lie on them."""
    for m in mobs:
        for f in m.get_family():
            f._audit_background = True
    return mobs[0] if mobs else None


# ------------------------------------------------------------------ regions
@dataclass(frozen=True)
class Region:
    """An axis-aligned box of the frame in Manim units (``left < right``, ``bottom < top``)."""

    left: float
    right: float
    bottom: float
    top: float
    name: str = ""

    def __post_init__(self):
        if not (self.right > self.left and self.top > self.bottom):
            raise LayoutError(f"region {self.name or ''} is empty: {self}")

    # -- geometry
    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def center(self) -> np.ndarray:
        return np.array([(self.left + self.right) / 2, (self.bottom + self.top) / 2, 0.0])

    def point(self, direction=ORIGIN) -> np.ndarray:
        """The region's point in ``direction`` (``UP + LEFT`` is the top-left corner)."""
        d = np.asarray(direction, dtype=float)
        return self.center + np.array([d[0] * self.width / 2, d[1] * self.height / 2, 0.0])

    def contains(self, mob: Mobject, tol: float = 1e-6) -> bool:
        return (mob.get_left()[0] >= self.left - tol and mob.get_right()[0] <= self.right + tol
                and mob.get_bottom()[1] >= self.bottom - tol and mob.get_top()[1] <= self.top + tol)

    # -- splitting
    def inset(self, dx: float, dy: float | None = None) -> Region:
        dy = dx if dy is None else dy
        return Region(self.left + dx, self.right - dx, self.bottom + dy, self.top - dy, self.name)

    def columns(self, *weights: float, gap: float = 0.4, names: Sequence[str] = ()) -> list[Region]:
        """Split left to right in proportion to ``weights`` (default: two equal columns)."""
        w = np.asarray(weights or (1, 1), dtype=float)
        usable = self.width - gap * (len(w) - 1)
        x, out = self.left, []
        for k, wk in enumerate(w):
            span = usable * wk / w.sum()
            out.append(Region(x, x + span, self.bottom, self.top, names[k] if k < len(names) else f"{self.name}.c{k}"))
            x += span + gap
        return out

    def rows(self, *weights: float, gap: float = 0.3, names: Sequence[str] = ()) -> list[Region]:
        """Split top to bottom in proportion to ``weights``."""
        w = np.asarray(weights or (1, 1), dtype=float)
        usable = self.height - gap * (len(w) - 1)
        y, out = self.top, []
        for k, wk in enumerate(w):
            span = usable * wk / w.sum()
            out.append(Region(self.left, self.right, y - span, y, names[k] if k < len(names) else f"{self.name}.r{k}"))
            y -= span + gap
        return out

    def take_top(self, h: float, gap: float = 0.2) -> tuple[Region, Region]:
        """``(strip, rest)``: a strip ``h`` tall at the top, and what remains below it."""
        return (Region(self.left, self.right, self.top - h, self.top, f"{self.name}.top"),
                Region(self.left, self.right, self.bottom, self.top - h - gap, self.name))

    def take_bottom(self, h: float, gap: float = 0.2) -> tuple[Region, Region]:
        return (Region(self.left, self.right, self.bottom, self.bottom + h, f"{self.name}.bottom"),
                Region(self.left, self.right, self.bottom + h + gap, self.top, self.name))

    def take_left(self, w: float, gap: float = 0.3) -> tuple[Region, Region]:
        return (Region(self.left, self.left + w, self.bottom, self.top, f"{self.name}.left"),
                Region(self.left + w + gap, self.right, self.bottom, self.top, self.name))

    def take_right(self, w: float, gap: float = 0.3) -> tuple[Region, Region]:
        return (Region(self.right - w, self.right, self.bottom, self.top, f"{self.name}.right"),
                Region(self.left, self.right - w - gap, self.bottom, self.top, self.name))

    def below(self, mob: Mobject, gap: float = 0.25) -> Region:
        """The part of this region under ``mob``."""
        return Region(self.left, self.right, self.bottom, min(self.top, mob.get_bottom()[1] - gap), self.name)

    def above(self, mob: Mobject, gap: float = 0.25) -> Region:
        return Region(self.left, self.right, max(self.bottom, mob.get_top()[1] + gap), self.top, self.name)

    # -- placing
    def place(self, mob: Mobject, align=ORIGIN) -> Mobject:
        """Move ``mob`` so its ``align`` edge/corner sits on the region's (centre by default)."""
        a = np.asarray(align, dtype=float)
        target = self.point(a)
        mob.shift(target - mob.get_critical_point(a))
        return mob

    def fit_scale(self, mob: Mobject, max_scale: float = 1.0) -> float:
        """The scale that makes ``mob`` fit inside the region (never above ``max_scale``)."""
        sx = self.width / mob.width if mob.width > 1e-9 else np.inf
        sy = self.height / mob.height if mob.height > 1e-9 else np.inf
        return float(min(sx, sy, max_scale))

    def fit(self, mob: Mobject, align=ORIGIN, max_scale: float = 1.0, floor_px: float = FIT_XHEIGHT_PX) -> Mobject:
        """Scale ``mob`` down (or up to ``max_scale``) to fit, and place it.

        Raises :class:`LayoutError` if fitting would take any text in ``mob`` below
        ``floor_px`` of x-height: the caller then changes representation."""
        s = self.fit_scale(mob, max_scale)
        if s < legible_scale(mob, floor_px) - 1e-9:
            raise LayoutError(f"{type(mob).__name__} needs {mob.width * s:.2f}×{mob.height * s:.2f} units "
                              f"to fit region {self.name!r} ({self.width:.2f}×{self.height:.2f}), and its text "
                              f"would be {min_xheight_px(mob) * s:.1f} px tall (floor {floor_px:g} px)")
        mob.scale(s)
        return self.place(mob, align)

    def fits(self, mob: Mobject, floor_px: float = FIT_XHEIGHT_PX) -> bool:
        """Whether ``mob`` can be fitted into the region without its text going under the floor."""
        return self.fit_scale(mob, np.inf) >= legible_scale(mob, floor_px) - 1e-9


# the frame and its standing regions
FRAME = Region(-FRAME_W / 2, FRAME_W / 2, -FRAME_H / 2, FRAME_H / 2, "frame")
SAFE = Region(-FRAME_W / 2 + MARGIN, FRAME_W / 2 - MARGIN, CONTENT_BOTTOM, FRAME_H / 2 - MARGIN, "safe")
SUBTITLE_BAND = Region(-FRAME_W / 2, FRAME_W / 2, -FRAME_H / 2, CONTENT_BOTTOM, "subtitles")


@dataclass(frozen=True)
class Layout:
    """The standing regions of a clip's frame once its header is drawn.

    ``content`` is everything between the header rule and the subtitle band, inside the
    margins; ``main`` and ``notes`` split it into a wide column and a notes column."""

    header: Region
    content: Region
    main: Region
    notes: Region
    band: Region = SUBTITLE_BAND

    @classmethod
    def below(cls, content_top: float, notes_width: float = 3.9, gap: float = 0.45) -> Layout:
        content = Region(SAFE.left, SAFE.right, SAFE.bottom, content_top, "content")
        notes, main = content.take_right(notes_width, gap)
        return cls(
            header=Region(SAFE.left, SAFE.right, content_top, SAFE.top, "header"),
            content=content,
            main=Region(main.left, main.right, main.bottom, main.top, "main"),
            notes=Region(notes.left, notes.right, notes.bottom, notes.top, "notes"),
        )


# ------------------------------------------------------------------ text that fits
def _split_word(word: str, max_width: float, measure: Callable[[str], float]) -> list[str]:
    """A word wider than a line, cut into pieces that fit (each but the last ending in a hyphen)."""
    pieces, cur = [], ""
    for ch in word:
        if cur and measure(cur + ch + "-") > max_width:
            pieces.append(cur + "-")
            cur = ch
        else:
            cur += ch
    return pieces + [cur]


def wrap_words(text: str, max_width: float, measure: Callable[[str], float], max_lines: int | None = None,
               break_words: bool = False) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``max_width`` (as ``measure`` says).

    A single word wider than the line is kept whole on its own line (the caller then
    shrinks or rejects it), or with ``break_words`` cut with hyphens.  With ``max_lines``,
    returns ``[]`` when more lines would be needed."""
    words = text.split()
    if break_words:
        words = [p for w in words for p in (_split_word(w, max_width, measure) if measure(w) > max_width else [w])]
    lines: list[str] = []
    for w in words:
        if lines and measure(lines[-1] + " " + w) <= max_width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    if max_lines is not None and len(lines) > max_lines:
        return []
    return lines


def fit_label(text: str, max_width: float, size: float = SMALL, color=None, weight: str = "NORMAL",
              max_lines: int = 2, align=LEFT, line_buff: float = 0.1, floor_px: float = FIT_XHEIGHT_PX,
              font: str = SANS, break_words: bool = False) -> VGroup:
    """``text`` as one or more ``label`` lines no wider than ``max_width``.

    Tries ``size`` on one line, then wraps onto up to ``max_lines`` lines, then shrinks
    (never below ``floor_px`` of x-height); with ``break_words``, a word too long for any
    line is then cut with hyphens.  Raises :class:`LayoutError` if it cannot fit.
    The result is a ``VGroup`` of line ``Text`` mobjects; ``.text`` is the whole string."""
    kw = {"weight": weight, "font": font}
    if color is not None:
        kw["color"] = color
    floor_size = size * floor_px / (_pango_xh_per_size(font) * size * PX_PER_UNIT)
    s = size
    while True:
        def measure(t, s=s):
            return label(t, size=s, **kw).width

        for n in range(1, max_lines + 1):
            lines = wrap_words(text, max_width, measure, max_lines=n)
            if lines and all(measure(ln) <= max_width + 1e-6 for ln in lines):
                g = VGroup(*[label(ln, size=s, **kw) for ln in lines]).arrange(DOWN, buff=line_buff, aligned_edge=align)
                g.text = text
                return g
        if s <= floor_size + 1e-9:
            if break_words:
                for n in range(1, max_lines + 1):
                    lines = wrap_words(text, max_width, measure, max_lines=n, break_words=True)
                    if lines and all(measure(ln) <= max_width + 1e-6 for ln in lines):
                        g = VGroup(*[label(ln, size=s, **kw) for ln in lines]).arrange(DOWN, buff=line_buff,
                                                                                      aligned_edge=align)
                        g.text = text
                        return g
            raise LayoutError(f"text {text!r} does not fit {max_width:.2f} units in {max_lines} line(s) "
                              f"at a legible size")
        s = max(floor_size, s * 0.92)


# ------------------------------------------------------------------ annotations without collisions
def spread_1d(targets: Sequence[float], sizes: Sequence[float], lo: float = -np.inf, hi: float = np.inf,
              gap: float = 0.12) -> np.ndarray:
    """Centres for intervals of ``sizes`` wanted at ``targets`` on a line, in the same order,
    no two closer than ``gap``, all within ``[lo, hi]``, each as near its target as possible.

    The classic cluster merge: overlapping neighbours join a cluster centred on their targets'
    mean, repeated until nothing overlaps; then the whole run is clamped into the bounds."""
    t = np.asarray(targets, dtype=float)
    s = np.asarray(sizes, dtype=float)
    order = np.argsort(t, kind="stable")
    t, s = t[order], s[order]
    n = len(t)
    if n == 0:
        return np.array([])
    if s.sum() + gap * (n - 1) > hi - lo + 1e-9:
        raise LayoutError(f"{n} labels need {s.sum() + gap * (n - 1):.2f} units, the space is {hi - lo:.2f}")
    # clusters: (first index, last index); a cluster's layout is fixed relative offsets
    clusters = [[k, k] for k in range(n)]

    def layout(c):
        a, b = c
        widths = s[a:b + 1]
        offs = np.concatenate([[0.0], np.cumsum(widths[:-1] / 2 + widths[1:] / 2 + gap)])
        # centre the run on the mean target (least squares)
        start = np.mean(t[a:b + 1] - offs)
        pos = start + offs
        lo_edge, hi_edge = pos[0] - widths[0] / 2, pos[-1] + widths[-1] / 2
        if lo_edge < lo:
            pos += lo - lo_edge
        elif hi_edge > hi:
            pos -= hi_edge - hi
        return pos

    changed = True
    while changed:
        changed = False
        centres = [layout(c) for c in clusters]
        for k in range(len(clusters) - 1):
            a_end = centres[k][-1] + s[clusters[k][1]] / 2
            b_start = centres[k + 1][0] - s[clusters[k + 1][0]] / 2
            if b_start - a_end < gap - 1e-9:
                clusters[k] = [clusters[k][0], clusters[k + 1][1]]
                del clusters[k + 1]
                changed = True
                break
    out = np.concatenate([layout(c) for c in clusters])
    result = np.empty(n)
    result[order] = out
    return result


def place_annotations(labels: Sequence[Mobject], anchors: Sequence[np.ndarray], side=DOWN, buff: float = 0.12,
                      gap: float = 0.15, bounds: tuple[float, float] | None = None, leader_color=DIM,
                      leader_min: float = 0.08) -> VGroup:
    """Put each label beside its anchor point on ``side`` (``UP``/``DOWN`` lay them along x,
    ``LEFT``/``RIGHT`` along y), spread so no two touch; a label pushed away from its anchor
    gets a thin leader line back to it.

    Returns ``VGroup(labels, leaders)``; ``.labels`` and ``.leaders`` name the parts."""
    side = np.asarray(side, dtype=float)
    along = 0 if abs(side[1]) > 0.5 else 1  # the axis the labels are spread along
    anchors = [np.asarray(a, dtype=float) for a in anchors]
    sizes = [lab.width if along == 0 else lab.height for lab in labels]
    targets = [a[along] for a in anchors]
    lo, hi = bounds if bounds is not None else (-np.inf, np.inf)
    centres = spread_1d(targets, sizes, lo, hi, gap)
    leaders = VGroup()
    for lab, a, c in zip(labels, anchors, centres):
        lab.next_to(a, side, buff=buff)
        if along == 0:
            lab.set_x(c)
        else:
            lab.set_y(c)
        if abs(c - a[along]) > leader_min + (lab.width if along == 0 else lab.height) / 2:
            end = lab.get_critical_point(-side)
            leaders.add(Line(a + side * 0.03, end - side * 0.03, stroke_color=leader_color, stroke_width=1.5))
    g = VGroup(VGroup(*labels), leaders)
    g.labels, g.leaders = g[0], leaders
    return g


__all__ = [
    "FIT_XHEIGHT_PX", "FRAME", "Layout", "LayoutError", "MIN_XHEIGHT_PX", "PX_PER_UNIT", "Region", "SAFE",
    "SUBTITLE_BAND", "background", "fit_label", "is_text", "legible_scale", "mark_text", "min_xheight_px",
    "overlay", "place_annotations", "spread_1d", "typst_script_scale", "wrap_words", "xheight_px",
]


FIT_PASSES = 3  # sizing a widget whose labels set a floor on its cells: measure, resize, measure again


def fit_cells(build, region: Region, start: float, per_w: float, per_h: float):
    """``build(cell)`` at the largest cell size (at most ``start``) whose result fits ``region``:
    ``per_w`` and ``per_h`` cells of that size span the result's width and height, the rest is fixed."""
    cell = start
    while True:
        g = build(cell)
        over = max((g.width - region.width) / per_w if per_w else 0.0, (g.height - region.height) / per_h)
        if over <= 1e-6:
            return g, cell
        cell -= over + 1e-6
