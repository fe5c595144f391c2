"""Figures as a lecture writes them (``≈ 2.2 × 10⁻¹⁶``, ``0 (exact)``, ``10⁻¹⁰``), for the reports.

The clips' number style lives in ``scenes/kit/numbers.py``; this package sits below the scenes (it may
import mathcore only), so the few rules a report needs are here, written the same way.
"""

from __future__ import annotations

import math

_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power(e: int) -> str:
    """``10⁻¹⁰`` for ``e = -10``."""
    return "10" + str(e).translate(_SUP)


def fmt(x) -> str:
    """A measured figure: ``0 (exact)``, ``≈ 2.2 × 10⁻¹⁶`` for rounding noise and very large values,
    else four significant digits (``0.4123``, ``1.5``); NaN and infinities by name."""
    if x is None:
        return "—"
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0 (exact)"
    sign = "−" if x < 0 else ""
    a = abs(x)
    if a < 1e-3 or a >= 1e5:
        e = math.floor(math.log10(a))
        m = a / 10 ** e
        if round(m, 1) >= 10:
            m, e = m / 10, e + 1
        return f"{sign}≈ {m:.1f} × {power(e)}"
    return sign + f"{a:.4g}"


def eq(x) -> str:
    """The figure after its quantity: ``= 0.41``, ``= 0 (exact)``, ``≈ 2.2 × 10⁻¹⁶`` (no ``= ≈``)."""
    text = fmt(x)
    return text if text.startswith(("≈", "−≈")) else f"= {text}"


def count(n: int) -> str:
    return f"{n:,}".replace(",", " ") if n >= 10000 else str(n)
