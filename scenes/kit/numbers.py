"""Lecture language for numbers: one style for every figure, on screen, in captions and in the voice.

A measured figure is a :class:`Figure`: its value, its Typst math (typeset on screen with the
formula it belongs to), and its caption text (Unicode, for subtitles and transcripts).

* An exact zero reads ``0`` with an "exact" mark (:attr:`Figure.exact`), never ``0.0``.
* Rounding noise and other tiny or huge values read ``≈ 2.2 × 10⁻¹⁶``, typeset as
  ``approx 2.2 times 10^(-16)``; never ``2.2e-16``.  A value that is exactly a power of ten
  (a threshold such as ``1e-10``) reads ``10⁻¹⁰`` with no ``≈``.
* Values of ordinary size read as plain digits to two significant digits (``0.83``, ``2.4``,
  ``12``, whole from 100, thin-space thousands from 10 000).
* Counts are rounded to what they mean: exact up to a million (``65 536``), then
  ``≈ 2.6 million``.
* Ticks sit at round values (:func:`nice_ticks`), colour scales end at round values
  (:func:`nice_ceil`), log axes are labelled ``10ᵏ`` (:func:`power`).

Nothing here imports Manim: the narration, the voice and the planner use it too.
"""

from __future__ import annotations

import math as _m
import re
from dataclasses import dataclass

MINUS = "\u2212"
THIN = "\u2009"
_SUP = str.maketrans("0123456789-+" + MINUS, "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺⁻")
_UNSUP = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789" + MINUS + "+")
EXACT_MARK = "exact"  # the word set beside an exact zero on screen


@dataclass(frozen=True)
class Figure:
    """A number as the lecture prints it.

    ``math`` is Typst math source (no ``$``); ``text`` the caption form (Unicode);
    ``exact`` marks an exact zero (drawn with its "exact" mark); ``approx`` says the
    printed digits are rounded at a scale where that matters (``≈`` is part of both forms)."""

    value: float
    math: str
    text: str
    exact: bool = False
    approx: bool = False

    def __str__(self) -> str:
        return self.text


# ------------------------------------------------------------------ pieces
def _minus(s: str) -> str:
    return s.replace("-", MINUS)


def group_thousands(digits: str) -> str:
    """``"12345"`` -> ``"12 345"`` (thin spaces) from 10 000 up; shorter numbers stay whole (``1024``)."""
    sign = digits[0] if digits[:1] in ("-", MINUS) else ""
    body = digits[len(sign):]
    whole, _, frac = body.partition(".")
    if len(whole) > 4:
        whole = f"{int(whole):,}".replace(",", THIN)
    return _minus(sign) + whole + (("." + frac) if frac else "")


def superscript(k: int | str) -> str:
    """``-16`` -> ``⁻¹⁶``."""
    return str(k).translate(_SUP)


def power(k: int) -> Figure:
    """``10ᵏ``: a log axis tick or a threshold that is exactly a power of ten."""
    k = int(k)
    return Figure(10.0 ** k, f"10^({k})".replace("-", MINUS) if k < 0 else f"10^{k}", f"10{superscript(k)}")


def _typst_number(s: str) -> str:
    """Digits for Typst math: thin-space groups kept as a thin space."""
    return s.replace(THIN, " thin ").replace(MINUS, "-").replace("-", MINUS)


def plain(x: float, digits: int = 2) -> str:
    """An ordinary-size value as digits: ``digits`` significant digits, whole from 100, thin-space
    thousands from 10 000, a typographic minus, never ``-0``."""
    x = float(x)
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits - 0.5:
        s = f"{x:.0f}"
    else:
        s = f"{x:#.{digits}g}"
        if "e" in s:  # very small ordinary values are not passed here; keep it honest anyway
            s = f"{x:.{digits}g}"
        s = s.rstrip(".")
    if float(s) == 0:
        s = s.lstrip("-")
    return group_thousands(s)


def scientific(x: float, digits: int = 2) -> tuple[str, int]:
    """``(mantissa, exponent)`` of ``x`` with ``digits`` significant digits (``"2.2", -16``)."""
    mant, exp = f"{float(x):.{digits - 1}e}".split("e")
    return _minus(mant), int(exp)


def measure(x: float, digits: int = 2) -> Figure:
    """A measured figure (a defect, a difference, a gap) in the lecture's one style."""
    x = float(x)
    if x == 0.0:
        return Figure(0.0, "0", "exactly 0", exact=True)
    if not _m.isfinite(x):
        t = "∞" if x > 0 else MINUS + "∞" if x < 0 else "not a number"
        return Figure(x, "infinity" if x > 0 else "-infinity" if x < 0 else "\"NaN\"", t)
    if 1e-3 <= abs(x) < 1e5:
        s = plain(x, digits)
        return Figure(x, _typst_number(s), s)
    k = int(_m.floor(_m.log10(abs(x))))
    if x == 10.0 ** k:  # exactly a power of ten: a threshold, not a rounded measurement
        return power(k)
    mant, exp = scientific(x, digits)
    sign = MINUS if mant.startswith(MINUS) else ""
    body = mant.lstrip(MINUS)
    e = _minus(str(exp))
    return Figure(x, f"approx {sign}{body} times 10^({e})", f"≈ {sign}{body} × 10{superscript(exp)}", approx=True)


def rounded(f: Figure) -> bool:
    """Whether ``f``'s printed digits are a rounding of its value (``1.6`` for 1.5921…), so that a formula
    relating it writes ``≈``, not ``=``; exact digits (a count, ``0.5``, ``1024``) and figures that carry
    their own ``≈`` are not."""
    if f.approx or f.exact:
        return False
    t = f.text.replace(THIN, "").replace(MINUS, "-").replace(" ", "")
    try:
        return float(t) != float(f.value)
    except ValueError:
        return False


_SCALES = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def count(n: int) -> Figure:
    """A count rounded to what it means: exact below a million (``1024``, ``65 536``), then
    ``≈ 2.6 million`` (two significant digits; ``1 million`` when that is exact)."""
    n = int(n)
    for size, word in _SCALES:
        if abs(n) >= size:
            v = n / size
            s = f"{v:.2g}" if abs(v) < 100 else f"{v:.0f}"
            exact = float(s) * size == n
            txt = f"{s} {word}"
            return Figure(float(n), ("" if exact else "approx ") + f"{s} \"{word}\"", ("" if exact else "≈ ") + txt,
                          approx=not exact)
    s = group_thousands(str(n))
    return Figure(float(n), _typst_number(s), s)


def value(x: float, decimals: int = 2) -> str:
    """A matrix entry: fixed decimals (one precision for a quantity), typographic minus, no ``−0.00``."""
    s = f"{float(x):.{decimals}f}"
    if float(s) == 0.0:
        s = s.lstrip("-")
    return _minus(s)


# ------------------------------------------------------------------ round scales and ticks
_NICE = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def nice_ceil(x: float) -> float:
    """The smallest round value (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10ᵏ) at or above ``x > 0``."""
    x = float(x)
    if not x > 0:
        raise ValueError(f"nice_ceil needs a positive value, got {x}")
    k = _m.floor(_m.log10(x))
    for f in _NICE:
        v = round(f * 10.0 ** k, 12)
        if v >= x * (1 - 1e-12):
            return v
    return round(10.0 ** (k + 1), 12)


def nice_step(span: float, most: int = 5) -> float:
    """A round step (1, 2, 2.5, 5 × 10ᵏ) giving at most ``most`` intervals over ``span``."""
    span = float(span)
    if not span > 0:
        raise ValueError(f"nice_step needs a positive span, got {span}")
    raw = span / max(1, most)
    k = _m.floor(_m.log10(raw))
    for f in (1.0, 2.0, 2.5, 5.0, 10.0):
        step = f * 10.0 ** k
        if step >= raw * (1 - 1e-12):
            return step
    return 10.0 ** (k + 1)


def nice_ticks(lo: float, hi: float, most: int = 4) -> list[float]:
    """Round tick values inside ``[lo, hi]`` (a multiple of a round step), at most ``most + 1``,
    ``0`` among them when the range spans it."""
    lo, hi = float(lo), float(hi)
    if not hi > lo:
        raise ValueError(f"nice_ticks needs lo < hi, got {lo}, {hi}")
    step = nice_step(hi - lo, most)
    first = _m.ceil(lo / step - 1e-9)
    out = []
    k = first
    while k * step <= hi + 1e-9 * step:
        out.append(round(k * step, 12) + 0.0)
        k += 1
    return out


def tick(v: float) -> str:
    """A round tick's text: as few digits as it needs, a typographic minus, thin-space thousands."""
    v = float(v)
    if v == 0:
        return "0"
    s = f"{v:.10g}"
    if "e" in s:
        mant, exp = scientific(v, 2)
        return f"{mant} × 10{superscript(exp)}"
    return group_thousands(_minus(s))


def log_ticks(lo_exp: int, hi_exp: int, most: int = 6) -> list[int]:
    """Exponents for a log axis from ``10^lo_exp`` to ``10^hi_exp``: every one, or every second,
    third … so that at most ``most + 1`` are labelled (always including ``hi_exp``)."""
    span = hi_exp - lo_exp
    step = max(1, _m.ceil(span / max(1, most)))
    return sorted({hi_exp - step * k for k in range(span // step + 1)})


# ------------------------------------------------------------------ checks the tests and the audit share
E_NOTATION = re.compile(r"\d(?:\.\d+)?[eE][+\-−]?\d")
CODE_NAME = re.compile(r"\b[A-Za-z]+_[A-Za-z0-9]+\b|\b\d+\.\.\d+\b")
# code indexing, in a label or in Typst math: a slice ``X[:t]`` (Typst writes its colon ``class("normal", :)``),
# an index ``A[0,1]`` or ``Attn(X)[0]``; lecture notation writes ``Y_(0:t)``, ``A_(0 1)``, ``x_0 … x_(t-1)``
CODE_INDEX = re.compile(r"\[\s*(?:class\(\s*\"normal\",\s*:\s*\)|:)|[\w)\]]\[\s*[−-]?\d+\s*(?:,\s*[−-]?\d+\s*)*\]")


def notebook_output(text: str) -> str | None:
    """What in ``text`` (a label or caption as written) is notebook output rather than lecture
    language: e-notation (``2.2e−16``), a code name (``n_max``, ``wpe``-style ``x_y`` words), a
    range written ``0..1023``, or a zero printed ``0.0``; ``None`` when it reads as a lecture."""
    m = E_NOTATION.search(text)
    if m:
        return f"e-notation {m.group(0)!r}"
    m = CODE_NAME.search(text)
    if m:
        return f"code name {m.group(0)!r}"
    m = CODE_INDEX.search(text)
    if m:
        return f"code indexing {m.group(0)!r}"
    m = re.search(r"(?<![\d.])[−-]?0\.0(?![\d])", text)
    if m:
        return f"zero printed as {m.group(0)!r}"
    return None


def unsuperscript(s: str) -> str:
    """``10⁻¹⁶`` -> ``10−16`` (for the voice)."""
    return s.translate(_UNSUP)


def nice_count_ticks(n: int, max_ticks: int = 4) -> list[int]:
    """``1`` and round multiples of a step (1, 2, 2.5 or 5 × 10^k) up to ``n``: at most
    ``max_ticks`` ticks after the ``1``."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    for k in range(0, 12):
        for m in (1, 2, 2.5, 5):
            step = m * 10 ** k
            if step != int(step):
                continue
            step = int(step)
            if n // step <= max_ticks:
                ticks = [v for v in range(step, n + 1, step)]
                return [1] + [v for v in ticks if v != 1]
    return [1, n]
