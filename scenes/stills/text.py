"""Stills' text: the glyphs the shipped fonts have, Unicode math turned into mathtext, counts and
powers of ten as print writes them, and text measured and wrapped with the shipped fonts' own metrics
(what the figures, the handout and the transcript lay out)."""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from scenes.kit.theme import (
    FONTS_DIR,
)

MINUS = "\u2212"  # the minus sign print uses


@lru_cache(maxsize=8)
def _charmap(path: str) -> frozenset[int]:
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(path).get_charmap())


def _plain_parts(s: str) -> str:
    """The parts of ``s`` outside ``$...$`` math (what the label font itself must draw)."""
    parts = re.split(r"(?<!\\)\$", s)
    if len(parts) % 2 == 0:  # an odd number of $: matplotlib draws the string as plain text
        return s
    return "".join(parts[0::2]).replace("\\$", "$")


def missing_glyphs(s: str) -> set[str]:
    """Characters of ``s`` outside math that the label font (Inter) cannot draw."""
    cmap = _charmap(str(FONTS_DIR / "Inter-Regular.otf"))
    return {c for c in _plain_parts(s) if not c.isspace() and ord(c) not in cmap}


_SUPER_T = re.compile(r"([A-Za-z\u0391-\u03c9])\u1d40")  # Pᵀ


_SUB_I = re.compile(r"([A-Za-z\u0391-\u03c9])([\u1d62\u2c7c\u2096\u2098\u2099])")  # θᵢ, k_j, …


_SUBS = {"\u1d62": "i", "\u2c7c": "j", "\u2096": "k", "\u2098": "m", "\u2099": "n"}


def mathify(s: str) -> str:
    """Prose or a label as matplotlib draws it: a literal ``$`` escaped, and the Unicode math the
    font lacks (``Pᵀ``, ``θᵢ``) as mathtext (``$P^{\\top}$``, ``$\\theta_i$``)."""
    s = s.replace("$", "\\$")
    s = s.replace("nₘₐₓ", "$n_{\\max}$")  # the notation's caption form of the table's rows (before θᵢ-style subscripts)
    greek = {"θ": "\\theta", "π": "\\pi"}
    s = _SUPER_T.sub(lambda m: (f"${greek[m[1]]}^{{\\top}}$" if m[1] in greek else f"{m[1]}$^{{\\top}}$"), s)
    s = _SUB_I.sub(lambda m: f"${greek.get(m[1], m[1])}_{_SUBS[m[2]]}$", s)
    s = re.sub(r"\bn_max\b", r"$n_{\\max}$", s)
    return s


def count(n: int) -> str:
    """A count as the lecture prints it (``numbers.count``: ``65 536``, ``≈ 2.6 million``)."""
    from scenes.kit import numbers

    return numbers.count(n).text


def sci(x: float) -> str:
    """A measured figure as mathtext, in the lecture's one style (``numbers.measure``): ``0 (exact)``
    for an exact zero, ``$\\approx 2.2\\times10^{-16}$`` for noise, plain digits otherwise."""
    from scenes.kit import numbers

    f = numbers.measure(x)
    if f.exact:
        return "0 (exact)"
    if f.math.startswith("10^") or "times 10^" in f.math:
        k = int(np.floor(np.log10(abs(f.value))))
        if f.value == 10.0 ** k:
            return f"$10^{{{k}}}$"
        mant, exp = numbers.scientific(f.value, 2)
        return f"$\\approx {mant.replace(MINUS, '-')}\\times10^{{{exp}}}$"
    return f.text


def _register_fonts() -> None:
    from matplotlib import font_manager

    known = {f.fname for f in font_manager.fontManager.ttflist}
    for f in sorted(FONTS_DIR.glob("*.[ot]tf")):
        if str(f) not in known:
            font_manager.fontManager.addfont(str(f))


_OPERATORS = {MINUS, "-", "+", "=", "\u00b7", "\u2248", "\u2264", "\u2265", "\u00d7", "\u2192"}


_WORD = re.compile(r"(?:(?<!\\)\$[^$]*(?<!\\)\$|\\\$|[^\s$])+")


MONO_FAMILY = "DejaVu Sans Mono"


def text_width(s: str, size: float, weight: str = "normal", family: str | None = None) -> float:
    """Width of ``s`` in points at ``size`` (mathtext included), as matplotlib draws it.

    Measured once per string, size, weight and font settings (the rc context's font and mathtext
    keys): wrapping measures every line it tries, and the light and dark handouts and the HTML
    figures wrap the same text (a mathtext parse is ~5 ms; matplotlib keeps only its last 50)."""
    import matplotlib as mpl
    from matplotlib import font_manager

    # the fonts known (ours are added on first use) and the rc context's font settings
    rc = (len(font_manager.fontManager.ttflist),) + tuple(str(mpl.rcParams[k]) for k in _FONT_RC)
    return _measure(s, float(size), weight, family, rc)


_FONT_RC = ("font.family", "font.sans-serif", "font.serif", "font.monospace", "font.weight", "font.stretch",
            "font.style", "font.variant", "mathtext.fontset", "mathtext.rm", "mathtext.it", "mathtext.bf",
            "mathtext.sf", "mathtext.tt", "mathtext.cal", "mathtext.default", "mathtext.fallback", "text.hinting",
            "text.hinting_factor", "text.kerning_factor")


@lru_cache(maxsize=20000)
def _measure(s: str, size: float, weight: str, family: str | None, rc: tuple) -> float:
    from matplotlib.font_manager import FontProperties

    ismath = bool(re.search(r"(?<!\\)\$.*(?<!\\)\$", s))
    prop = FontProperties(size=size, weight=weight, family=family)
    w, _, _ = _text_to_path().get_text_width_height_descent(s, prop, ismath=ismath)
    return w


@lru_cache(maxsize=1)
def _text_to_path():
    from matplotlib.textpath import TextToPath

    return TextToPath()


def wrap(s: str, width_pt: float, size: float, weight: str = "normal", first_indent: float = 0.0) -> list[str]:
    """``s`` broken into lines no wider than ``width_pt`` points (never inside ``$...$``)."""
    words: list[str] = []
    glue = False
    for w in _WORD.findall(s):  # never end or start a line with a lone operator: keep "m − n" together
        if words and (glue or w in _OPERATORS):
            words[-1] += " " + w
        else:
            words.append(w)
        glue = w in _OPERATORS
    lines: list[str] = []
    cur = ""
    avail = width_pt - first_indent
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if cur and text_width(trial, size, weight) > avail:
            lines.append(cur)
            cur, avail = w, width_pt
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines or [""]

