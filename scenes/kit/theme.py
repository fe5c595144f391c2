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

def _share_immutable_on_copy() -> None:
    """Copies share data nothing mutates after construction.

    ``Mobject.copy`` deep-copies everything, including each glyph's parsed SVG path
    (svgelements ``Path``/``Matrix``/``Color``, used only to build the glyph's points) and
    every ``ManimColor`` (immutable: colour changes make new ones).  Sharing them instead
    halves the cost of a copy, and Manim copies mobjects for every animation it plays
    (measured: clip 03's audit 11 s -> 6 s); frames are bit-identical (tested)."""
    import svgelements as se

    def share(self, memo):
        return self

    for cls in (ManimColor, se.Path, se.Matrix, se.Color, se.Shape):
        cls.__deepcopy__ = share


_share_immutable_on_copy()

FONTS_DIR: Path = ASSETS_DIR / "fonts"
SANS = "Inter"
MONO = "DejaVu Sans Mono"

# ------------------------------------------------------------------ palette
BG = ManimColor("#0E1117")
FG = ManimColor("#E8E6E3")
DIM = ManimColor("#7D8590")
FAINT = ManimColor("#30363D")
ACCENT = ManimColor("#F2C14E")  # "look here"
GOOD = ManimColor("#7BD389")  # a check that passed
BAD = ManimColor("#F25F5C")  # a check that failed, a masked cell
BLUE = ManimColor("#58A6FF")
PURPLE = ManimColor("#C297FF")
# one colour per token row, colorblind-safe (Okabe–Ito), cycled
TOKEN_COLORS = tuple(
    ManimColor(c) for c in ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#0072B2", "#D55E00", "#999999")
)

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


# one colour per property of the notebook (scenes.catalog.PROPERTIES): the title map, the
# recap and every clip's header use these, so a family keeps its colour through the lecture
PROPERTY_COLORS = (BLUE, ACCENT, GOOD, PURPLE)


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


def _built(key, make):
    m = _BUILT.get(key)
    if m is None:
        if len(_BUILT) > 4000:
            _BUILT.clear()
        m = _BUILT[key] = make()
    return m.copy()


def label(text: str, size: float = LABEL, color=FG, weight: str = "NORMAL", font: str = SANS) -> Text:
    """A Pango text label in the house sans font."""
    register_fonts()
    from manim import config  # Pango lays text out on a canvas as wide as the frame in pixels

    return _built(("label", text, float(size), ManimColor(color).to_hex(), weight, font, config.pixel_width),
                  lambda: Text(text, font=font, font_size=size, color=color, weight=weight))


def mono(text: str, size: float = SMALL, color=FG) -> Text:
    """Monospaced text (code, arrays)."""
    return label(text, size=size, color=color, font=MONO)


TYPST_SCALE = 1.45  # Typst's font_size draws smaller than Pango's; this matches their x-heights


def math(expr: str, size: float = LABEL, color=FG) -> MathTypst:
    """A formula typeset by Typst (math mode, no ``$``), sized like ``label`` text of ``size``."""
    return _built(("math", expr, float(size), ManimColor(color).to_hex()),
                  lambda: MathTypst(expr, font_size=size * TYPST_SCALE, color=color))


# ------------------------------------------------------------------ numbers, formatted honestly
MINUS = "\u2212"


def fmt_value(x: float, decimals: int = 2) -> str:
    """A matrix entry: fixed decimals, typographic minus, no ``-0.00``."""
    s = f"{x:.{decimals}f}"
    if float(s) == 0.0:
        s = s.lstrip("-")
    return s.replace("-", MINUS)


def fmt_measure(x: float) -> str:
    """A measured figure, honestly: ``0.0`` only when exactly zero; tiny or huge values in
    scientific notation to 2 significant digits (``2.2e−16``); values of ordinary size as
    plain digits to 2 significant digits (``0.83``, ``2.4``, ``1.0``, ``12``), whole from 100."""
    x = float(x)
    if x == 0.0:
        return "0.0"
    if not np.isfinite(x):
        return str(x)
    if 99.5 <= abs(x) < 1e5:
        s = f"{x:.0f}"
    elif 1e-3 <= abs(x) < 99.5:
        s = f"{x:#.2g}".rstrip(".")
    else:
        mant, exp = f"{x:.1e}".split("e")
        s = f"{mant}e{int(exp)}"
    return s.replace("-", MINUS)


# ------------------------------------------------------------------ colour scales (shared with matplotlib)
class ColorScale:
    """One matplotlib ``Normalize`` and colormap, mapping values to colours.

    The same object feeds Manim (``color(v)`` -> ``ManimColor``) and matplotlib
    (``cmap``, ``norm``), so a still and a clip agree colour for colour.
    """

    def __init__(self, cmap: str, vmin: float, vmax: float):
        import matplotlib
        from matplotlib.colors import Normalize

        if not vmax > vmin:
            raise ValueError(f"a colour scale needs vmax > vmin, got vmin={vmin}, vmax={vmax}")
        self.name = cmap
        self.cmap = matplotlib.colormaps[cmap]
        self.norm = Normalize(vmin=float(vmin), vmax=float(vmax), clip=True)

    @classmethod
    def symmetric(cls, cmap: str, values) -> ColorScale:
        """A diverging scale centred on 0 that covers ``values``."""
        m = float(np.max(np.abs(values))) or 1.0
        return cls(cmap, -m, m)

    @classmethod
    def for_weights(cls, cmap: str, values) -> ColorScale:
        """Weights in [0, 1] normalised for their purpose: 0 stays the darkest colour and the
        scale ends at the largest weight shown (rounded up to two significant digits), so six
        weights near 1/6 do not all look the same.  Show a colour bar with it."""
        m = float(np.max(values)) if np.size(values) else 1.0
        if not m > 0:
            m = 1.0
        top = float(f"{m:.2g}")
        if top < m:
            top = float(f"{m + 10 ** (np.floor(np.log10(m)) - 1):.2g}")
        return cls(cmap, 0.0, min(top, 1.0) if m <= 1.0 else top)

    def rgb(self, values) -> np.ndarray:
        """``(..., 3)`` RGB in [0, 1] for finite ``values``."""
        return np.asarray(self.cmap(self.norm(np.asarray(values, dtype=float))))[..., :3]

    def color(self, value: float) -> ManimColor:
        return ManimColor.from_rgb(tuple(float(c) for c in self.rgb(value)))

    def text_color(self, value: float) -> ManimColor:
        """Black or white, whichever reads better on ``color(value)``."""
        r, g, b = self.rgb(value)
        return ManimColor("#111111") if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else ManimColor("#FFFFFF")
