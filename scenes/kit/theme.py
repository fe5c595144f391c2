"""The house look: palette, fonts, text sizes, colour scales shared with matplotlib, Typst math.

Nothing here draws with LaTeX: labels are Pango ``Text`` in the shipped Inter font,
formulas are ``MathTypst`` (New Computer Modern, bundled with the ``typst`` package).
Sizes are chosen for 854×480: at that size one Manim unit is 60 px and ``LABEL``
text has digits about 18 px high.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from manim import MathTypst, ManimColor, Text

from mathcore.config import ASSETS_DIR

from . import numbers

FONTS_DIR: Path = ASSETS_DIR / "fonts"
SANS = "Inter"
MONO = "DejaVu Sans Mono"

# ------------------------------------------------------------------ palette
BG = ManimColor("#0E1117")
FG = ManimColor("#E8E6E3")
DIM = ManimColor("#7D8590")
FAINT = ManimColor("#30363D")

# One colour per idea, across the whole deck: a colour below never stands for anything else,
# and the ideas that share a screen stay apart under deuteranopia, protanopia and tritanopia
# (tests/test_lecture_language.py measures every pair in CAM02-UCS after simulating each).
HIGHLIGHT = ManimColor("#F2C14E")  # "look here": the cell, row or term the narration is on
VERIFIED = ManimColor("#7BD389")  # a check that passed (always with ✓ or a word, never colour alone)
FAILED = ManimColor("#F25F5C")  # a check that failed; what is refused (the learned table's wall)
QUERY = ManimColor("#FF9340")  # a query (q, Q, the query row)
KEY = ManimColor("#58A6FF")  # a key (k, K, the key cache)
VALUE = ManimColor("#E052C9")  # a value (v, V, the value cache): magenta, never the highlight's yellow
SIN = ManimColor("#3DD6D0")  # the sine coordinates of a sinusoidal encoding
COS = ManimColor("#FF6AA6")  # the cosine coordinates
# seen / never seen in training: a deep violet against a pale ice blue, apart in hue *and* lightness so that
# every viewer tells them apart at a glance (>= 35 CAM02-UCS units under each simulated deficiency; the
# lilacs they replace, #A47BFF and #C6B6F7, fell to 16.5 under tritanomaly)
SEEN = ManimColor("#A060FF")  # seen in training (positions below the train length, angles met)
UNSEEN = ManimColor("#B0E0FF")  # never seen in training
CONCEPT_COLORS = {
    "highlight": HIGHLIGHT, "verified": VERIFIED, "failed": FAILED, "query": QUERY, "key": KEY, "value": VALUE,
    "sin": SIN, "cos": COS, "seen": SEEN, "unseen": UNSEEN,
}
# the ideas that appear together on one screen somewhere in the deck: each group's colours must
# stay apart for every viewer (the others only have to differ in ordinary vision)
CO_OCCURRING = (("query", "key", "value"), ("sin", "cos"), ("seen", "unseen", "failed", "highlight"),
                ("verified", "failed", "highlight"), ("value", "highlight", "verified"))

# the older names, kept for what they mean
ACCENT = HIGHLIGHT
GOOD = VERIFIED
BAD = FAILED
BLUE = KEY
PURPLE = ManimColor("#C297FF")

# One colour per token, for every viewer: the first six (T <= 6) stay at least 15 CAM02-UCS
# units apart from each other under normal vision and simulated deuteranopia, protanopia and
# tritanopia (Okabe-Ito's first six fall to 11: orange/pink under tritanopia); the seventh
# and eighth (a sentence of up to 8 different words) keep 10.  All have >= 4.5:1 on BG.
TOKEN_COLORS = tuple(
    ManimColor(c) for c in ("#3A86FF", "#FF9DA7", "#BEF264", "#E7298A", "#22D3EE", "#AAAA00", "#FFFFB3", "#B07AA1")
)
SQRT_STRETCH = 0.5  # ColorScale(gamma=...): a square-root stretch, for weights with one peak and a crowd near 1/T
# ------------------------------------------------------------------ sizes (font_size units)
TITLE = 40
HEADING = 34
LABEL = 30
SMALL = 28  # the smallest text allowed on screen

# ------------------------------------------------------------------ layout (Manim units; frame 14.22 × 8)
FRAME_W, FRAME_H = 8.0 * 16 / 9, 8.0
MARGIN = 0.35
HEADER_Y = 3.55  # header baseline row
CONTENT_TOP = 3.0  # content stays below this
CONTENT_BOTTOM = -3.1  # and above this: the bottom band is left to players' subtitles


def token_color(i: int) -> ManimColor:
    return TOKEN_COLORS[i % len(TOKEN_COLORS)]


# one colour per property of the notebook (scenes.catalog.PROPERTIES): the title map and the
# recap use these (the only screens where a family is the idea); clip headers stay neutral, so
# no clip shows a family colour beside a concept colour it could be mistaken for
PROPERTY_COLORS = tuple(ManimColor(c) for c in ("#79B8FF", "#FFA3C4", "#63D6B0", "#D2A8FF"))


RAMP_APART = 0.04  # RGB distance a family colour (``ramp``) keeps from every concept colour


def ramp(k: int, n: int, cmap: str = "plasma") -> ManimColor:
    """Colour ``k`` of ``n`` for an ordered family of curves (widths, frequencies): a sequential
    colormap's light end, so the order reads from the colours and every curve stays bright."""
    import matplotlib

    f0 = 0.45 + 0.5 * (k / (n - 1) if n > 1 else 1.0)
    cm = matplotlib.colormaps[cmap]
    concepts = [np.asarray(c.to_rgb()) for c in CONCEPT_COLORS.values()]
    # a family colour never passes for a concept colour (the 'cool' ramp's third of four widths was the
    # seen violet): the nearest position along the ramp that stays RAMP_APART from every concept colour
    for step in range(0, 21):
        for f in ((f0,) if step == 0 else (f0 + 0.005 * step, f0 - 0.005 * step)):
            rgb = np.asarray(cm(min(max(f, 0.0), 1.0))[:3])
            if all(float(np.max(np.abs(rgb - c))) >= RAMP_APART for c in concepts):
                return ManimColor.from_rgb(tuple(rgb))
    return ManimColor.from_rgb(tuple(np.asarray(cm(f0)[:3])))


def family_color(clip_number: int) -> ManimColor:
    """The colour of the property clip ``clip_number`` belongs to (``FG`` for 00 and 15)."""
    from ..catalog import property_of

    k = property_of(clip_number)
    return FG if k is None else PROPERTY_COLORS[k]


@lru_cache(maxsize=1)
def register_fonts() -> tuple[str, ...]:
    """Register every font in ``assets/fonts`` with Pango (once per process)."""
    import manimpango

    done = []
    for f in sorted(FONTS_DIR.glob("*.[ot]tf")):
        if not manimpango.register_font(str(f)):
            raise RuntimeError(f"could not register font {f}")
        done.append(f.name)
    return tuple(done)


_BUILT: dict = {}  # (kind, args) -> a built mobject; callers get copies (an SVG parse costs 10x a copy)
# Built text and math are also kept in the cache (kind "mobjects"), so a new process (a render worker, a CLI
# audit) reads a label back (~10 ms) instead of laying it out and parsing its SVG again (~50-150 ms; a clip
# draws ~100 of them).  The key holds everything the built points depend on (see _built_identity); an entry
# that does not unpickle to a mobject is dropped and built again (one that is damaged never gets that far:
# the cache checks every entry it serves).


@lru_cache(maxsize=1)
def _built_identity() -> str:
    """What a built label or formula depends on besides its arguments: the libraries that lay out,
    typeset and parse it, and the font files."""
    import hashlib
    import sys
    from importlib import metadata

    import manimpango

    h = hashlib.sha256()
    parts = [sys.version, manimpango.pango_version(), "format 2"]  # 2: labels checked against Inter
    for dist in ("manim", "manimpango", "svgelements", "typst", "numpy"):
        try:
            parts.append(f"{dist}={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist}=absent")
    for f in sorted(FONTS_DIR.iterdir()):
        parts.append(f"{f.name}:{hashlib.sha256(f.read_bytes()).hexdigest()}")
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _disk_cached(key, make):
    import hashlib
    import pickle

    from manim import Mobject, config

    from clipcache import store

    # Pango's canvas is the frame in pixels; Typst's strokes are scaled by pixels per unit
    canvas = (config.pixel_width, config.pixel_height, config.frame_width, config.frame_height, str(config.renderer))
    name = hashlib.sha256(repr((_built_identity(), canvas, key)).encode()).hexdigest()[:40]
    kept = store().get("mobjects", name)
    if kept is not None:
        try:
            m = pickle.loads(kept)
            if isinstance(m, Mobject):
                return m
        except Exception:  # another version's pickle: built again, and kept anew
            pass
        store().drop("mobjects", name)
    m = make()
    if getattr(m, "not_for_disk", False):  # drawn in a font it was not meant to be (``_drawn_label``)
        return m
    try:
        data = pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # not picklable: the process keeps its own copy only
        return m
    store().put("mobjects", name, data)
    return m


def _built(key, make):
    m = _BUILT.get(key)
    if m is None:
        if len(_BUILT) > 4000:
            _BUILT.clear()
        m = _BUILT[key] = _disk_cached(key, make)
    return m.copy()


# Pango lays a label out on a canvas as wide as the frame in pixels, and wraps what is wider: at the
# test quality's 256 px every label longer than about 11 units came out on two lines.  Every label is
# laid out on the audit's canvas instead, whatever the quality: 854 px holds any label the frame can
# (the outlines are the same bits on every canvas that does not wrap them: 854 px to 4K, tested), so a
# render at any quality draws the layout the audit checked.
TEXT_CANVAS = (854, 480)


def _inter_width(text: str, size: float, weight: str) -> float | None:
    """What ``text`` measures drawn in Inter, from the font file (``mathcore.typeset``), or None where that
    measure does not apply (another font or weight, several lines, a glyph Inter lacks)."""
    from mathcore import typeset

    if weight not in typeset.WEIGHTS or "\n" in text or not text.strip() or typeset.missing_glyphs(text, (weight,)):
        return None
    return typeset.ink_width(text, size, weight)


def _drawn_label(text: str, size: float, color, weight: str, font: str) -> Text:
    """``Text`` as Pango draws it, checked against Inter's own measure before it may be kept on disk.  A process
    whose Pango lost the registered fonts draws a fallback font (8 to 15 % wider): the label is laid out again after
    registering the fonts anew, and one still off is kept in this process only (``_disk_cached``), so no
    other process is ever served a label in the wrong font from the cache."""
    t = Text(text, font=font, font_size=size, color=color, weight=weight)
    want = _inter_width(text, size, weight) if font == SANS else None
    if want is None or abs(t.width - want) <= 0.03 * want + 0.02:
        return t
    # Manim reads a Text's SVG back from its text folder by a hash of the text and the font's *name*: an SVG
    # Pango drew in a fallback font (in this process or in a worker whose folder was kept) is served again
    # under Inter's name, so it is dropped before the label is laid out again, and dropped if still off
    _drop_svg(t)
    register_fonts.cache_clear()
    register_fonts()
    _fresh_fontmap()
    t = Text(text, font=font, font_size=size, color=color, weight=weight)
    if abs(t.width - want) > 0.03 * want + 0.02:
        _drop_svg(t)
        t.not_for_disk = True
    return t


def _fresh_fontmap() -> None:
    """A new Pango font map for this thread: one that looked Inter up while it was missing keeps the fallback it
    found for that family, whatever is registered later."""
    import ctypes
    import ctypes.util

    try:
        lib = ctypes.CDLL(ctypes.util.find_library("pangocairo-1.0") or "libpangocairo-1.0.so.0")
        lib.pango_cairo_font_map_set_default(None)
    except (OSError, AttributeError):  # no such library here (Pango linked another way): the fonts only
        pass


def _drop_svg(t: Text) -> None:
    """The label's SVG file, and in a render worker the cache's copy it was written from (``svg_entry``, set by
    ``scenes/render/patches.py``), which would otherwise be written back under the same name."""
    name = getattr(t, "file_name", None)
    if name:
        Path(name).unlink(missing_ok=True)
    entry = getattr(t, "svg_entry", None)
    if entry:
        from clipcache import store

        store().drop(*entry)


def label(text: str, size: float = LABEL, color=FG, weight: str = "NORMAL", font: str = SANS) -> Text:
    """A Pango text label in the house sans font, laid out on ``TEXT_CANVAS``."""
    register_fonts()
    from manim import config

    saved = config.pixel_width, config.pixel_height
    config.pixel_width, config.pixel_height = TEXT_CANVAS
    try:
        return _built(("label", text, float(size), ManimColor(color).to_hex(), weight, font),
                      lambda: _drawn_label(text, size, color, weight, font))
    finally:
        config.pixel_width, config.pixel_height = saved


def mono(text: str, size: float = SMALL, color=FG) -> Text:
    """Monospaced text (code, arrays)."""
    return label(text, size=size, color=color, font=MONO)


TYPST_SCALE = 1.45  # Typst's font_size draws smaller than Pango's; this matches their x-heights


def math(expr: str, size: float = LABEL, color=FG) -> MathTypst:
    """A formula typeset by Typst (math mode, no ``$``), sized like ``label`` text of ``size``."""
    return _built(("math", expr, float(size), ManimColor(color).to_hex()),
                  lambda: MathTypst(expr, font_size=size * TYPST_SCALE, color=color))


# ------------------------------------------------------------------ numbers, in the lecture's one style
MINUS = "\u2212"


def fmt_value(x: float, decimals: int = 2) -> str:
    """A matrix entry: fixed decimals, typographic minus, no ``-0.00`` (``numbers.value``)."""
    return numbers.value(x, decimals)


def fmt_measure(x: float) -> str:
    """A measured figure as a caption says it (``numbers.measure``): ``exactly 0``,
    ``≈ 2.2 × 10⁻¹⁶``, ``0.83``.  On screen, draw it with :func:`figure` (typeset)."""
    return numbers.measure(x).text


def figure(x, size: float = LABEL, color=FG, prefix: str = "", exact_color=None):
    """A measured figure typeset as math, with ``prefix`` (Typst, e.g. ``"max |Δ| ="``) before it
    on the same line so a number never sits in sans beside a formula.  An exact zero reads ``0``
    followed by the word "exact" (the exact mark).  ``x`` is a value or a ``numbers.Figure``;
    the result has ``.figure``."""
    from manim import RIGHT, UP, VGroup

    f = x if isinstance(x, numbers.Figure) else numbers.measure(x)
    if prefix and f.approx and prefix.rstrip().endswith("="):  # "max |Δ| =" + "≈ 2.2 × 10⁻¹⁶": one relation, ≈
        prefix = prefix.rstrip()[:-1].rstrip()
    elif prefix and numbers.rounded(f) and prefix.rstrip().endswith("="):  # "max |ΔY| ≈ 1.6": rounded, not equal
        prefix = prefix.rstrip()[:-1].rstrip() + " approx"
    body = f"{prefix} {f.math}" if prefix else f.math
    m = math(body, size=size, color=color)
    if not f.exact:
        m.figure = f
        return m
    tag = label(numbers.EXACT_MARK, size=max(SMALL, size * 0.8), color=exact_color or color)
    g = VGroup(m, tag).arrange(RIGHT, buff=0.18)
    # "0" sits on the baseline, and so does "exact" (no descenders): the word shares the line (the
    # zero is the formula's last glyph; the formula's own bottom may be a bar or a subscript)
    zero = m.submobjects[-1] if m.submobjects else m
    tag.shift((zero.get_bottom()[1] - tag.get_bottom()[1]) * UP)
    g.figure = f
    return g


# ------------------------------------------------------------------ colour scales (shared with matplotlib)
def _signed_power(v, g: float):
    """``sign(v) |v|^g``, elementwise (a signed stretch; its inverse is the same with ``1 / g``)."""
    v = np.asarray(v, dtype=float)
    return np.sign(v) * np.abs(v) ** g


class ColorScale:
    """One matplotlib ``Normalize`` and colormap, mapping values to colours.

    The same object feeds Manim (``color(v)`` -> ``ManimColor``) and matplotlib
    (``cmap``, ``norm``), so a still and a clip agree colour for colour.
    """

    def __init__(self, cmap: str, vmin: float, vmax: float, gamma: float | None = None, log: bool = False):
        """``gamma`` (optional) stretches the scale as a power law (matplotlib's ``PowerNorm``;
        ``SQRT_STRETCH`` spreads small weights): a colour bar then places its stripes and ticks
        by the stretch, so the stretch is declared where the colours are read.  On a diverging
        scale (``vmin == -vmax``) the stretch is signed, the same on both sides of 0 (``sign(v) |v|^gamma``):
        one large value no longer washes out the crowd near 0.  ``log`` (``0 < vmin``, no ``gamma``): a logarithmic
        scale (matplotlib's ``LogNorm``), one decade one length of the bar, for values over several decades."""
        import matplotlib
        from matplotlib.colors import FuncNorm, LogNorm, Normalize, PowerNorm

        if not vmax > vmin:
            raise ValueError(f"a colour scale needs vmax > vmin, got vmin={vmin}, vmax={vmax}")
        if gamma is not None and not gamma > 0:
            raise ValueError(f"a stretched colour scale needs gamma > 0, got gamma={gamma}")
        self.name = cmap
        self.cmap = matplotlib.colormaps[cmap]
        self.gamma = None if gamma is None else float(gamma)
        self.log = bool(log)
        if log:
            if gamma is not None or not vmin > 0:
                raise ValueError(f"a log colour scale needs 0 < vmin and no gamma, got vmin={vmin}, gamma={gamma}")
            self.norm = LogNorm(vmin=float(vmin), vmax=float(vmax), clip=True)
        elif gamma is None:
            self.norm = Normalize(vmin=float(vmin), vmax=float(vmax), clip=True)
        elif vmin < 0 < vmax and vmin == -vmax:  # diverging: the stretch signed, symmetric about 0
            from functools import partial

            g = float(gamma)
            self.norm = FuncNorm((partial(_signed_power, g=g), partial(_signed_power, g=1.0 / g)), vmin=float(vmin),
                                 vmax=float(vmax), clip=True)
        else:
            self.norm = PowerNorm(float(gamma), vmin=float(vmin), vmax=float(vmax), clip=True)

    @staticmethod
    def _extent(values) -> float:
        parts = values if isinstance(values, (list, tuple)) else [values]
        a = np.concatenate([np.asarray(v, dtype=float).ravel() for v in parts]) if parts else np.zeros(0)
        a = a[np.isfinite(a)]
        return float(np.max(np.abs(a))) if a.size else 0.0

    @classmethod
    def symmetric(cls, cmap: str, values) -> ColorScale:
        """A diverging scale centred on 0 that covers ``values`` (an array, or a list of every
        array the scale must serve: one scale for a quantity through its whole clip), ending at
        a round value (``numbers.nice_ceil``: 2.6 -> 3, 1.11 -> 1.2)."""
        m = cls._extent(values)
        m = numbers.nice_ceil(m) if m > 0 else 1.0
        return cls(cmap, -m, m)

    @classmethod
    def for_weights(cls, cmap: str, values, gamma: float | None = None) -> ColorScale:
        """Weights in [0, 1] normalised for their purpose: 0 stays the darkest colour and the
        scale ends at the largest weight shown rounded up to a round value (0.38 -> 0.4), so six
        weights near 1/6 do not all look the same.  ``values`` may be a list of arrays (every
        weight the clip shows); ``gamma`` stretches it (``SQRT_STRETCH``: one peak weight no longer
        darkens all the others).  Show a colour bar with it."""
        m = cls._extent(values)
        if not m > 0:
            m = 1.0
        top = numbers.nice_ceil(m)
        return cls(cmap, 0.0, min(top, 1.0) if m <= 1.0 else top, gamma=gamma)

    @property
    def vmin(self) -> float:
        return float(self.norm.vmin)

    @property
    def vmax(self) -> float:
        return float(self.norm.vmax)

    @property
    def symmetric_about_zero(self) -> bool:
        return self.vmin == -self.vmax

    def ticks(self, most: int = 4) -> list[float]:
        """Round tick values for this scale's colour bar: both ends and 0 for a diverging scale
        (its ends are round), else round steps from ``vmin`` to ``vmax`` (on a log scale: its decades)."""
        if self.log:
            import math as _m

            lo, hi = _m.ceil(_m.log10(self.vmin) - 1e-9), _m.floor(_m.log10(self.vmax) + 1e-9)
            return [10.0 ** e for e in range(lo, hi + 1)]
        if self.symmetric_about_zero and self.gamma is not None:  # the stretch shown: a round value on each side
            import math as _m

            top = _m.floor(_m.log10(self.vmax))
            cands = [f * 10.0 ** e for e in range(top - 2, top + 1) for f in (1, 2, 5) if f * 10.0 ** e < self.vmax]
            t = min(cands, key=lambda c: abs(float(self.norm(c)) - 0.75)) if cands else None
            return [self.vmin, -t, 0.0, t, self.vmax] if t else [self.vmin, 0.0, self.vmax]
        if self.symmetric_about_zero:
            return [self.vmin, 0.0, self.vmax]
        if self.gamma is not None:  # round values (1, 2, 5 × 10ᵏ) spread evenly along the stretch
            import math as _m

            top = _m.floor(_m.log10(self.vmax))
            cands = sorted({round(f * 10.0 ** e, 12) for e in range(top - 3, top + 1) for f in (1, 2, 5)
                            if self.vmin < f * 10.0 ** e < self.vmax}, reverse=True)
            out, room = [self.vmax], 0.8 / most  # neighbours at least this far apart along the bar
            for c in cands:
                if self.norm(out[-1]) - self.norm(c) >= room and self.norm(c) - self.norm(self.vmin) >= room:
                    out.append(c)
            return sorted([self.vmin, *out])
        t = numbers.nice_ticks(self.vmin, self.vmax, most)
        return t

    def position(self, value) -> np.ndarray:
        """Where ``value`` sits along a colour bar of this scale, 0 (``vmin``) to 1 (``vmax``): linear,
        or by the stretch."""
        return np.asarray(self.norm(np.asarray(value, dtype=float)), dtype=float)

    def same_as(self, other: ColorScale) -> bool:
        """Same colormap and the same bounds: the same value is the same colour in both."""
        return (self.name == other.name and self.vmin == other.vmin and self.vmax == other.vmax
                and getattr(self, "gamma", None) == getattr(other, "gamma", None)
                and getattr(self, "log", False) == getattr(other, "log", False))

    def rgb(self, values) -> np.ndarray:
        """``(..., 3)`` RGB in [0, 1] for finite ``values``."""
        return np.asarray(self.cmap(self.norm(np.asarray(values, dtype=float))))[..., :3]

    def color(self, value: float) -> ManimColor:
        return ManimColor.from_rgb(tuple(float(c) for c in self.rgb(value)))

    def text_color(self, value: float) -> ManimColor:
        """Black or white, whichever reads better on ``color(value)``."""
        r, g, b = self.rgb(value)
        return ManimColor("#111111") if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else ManimColor("#FFFFFF")
