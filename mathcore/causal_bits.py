"""Bit for bit: what "exactly equal" means for float64, for the prefix clip (04).

A float64 is 64 bits: 1 sign bit, 11 exponent bits, 52 fraction bits.  Two outputs are
equal *bitwise* when all 64 agree; BLAS's honest rounding noise (about 10⁻¹⁶ relative) is
a difference in the last few fraction bits.  These functions expose exactly that, so the
clip draws the bits of a real output entry instead of asserting them.

Pure NumPy, no drawing.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .errors import MathcoreError, ShapeError, as_matrix

FLOAT64_FIELDS = (("sign", 1), ("exponent", 11), ("fraction", 52))  # IEEE 754 binary64, most significant first


def float_bits(x: float) -> np.ndarray:
    """``(64,)`` uint8: the IEEE 754 binary64 bits of ``x``, most significant (the sign) first.

    ``float_bits(a) == float_bits(b)`` everywhere exactly when ``a`` and ``b`` are the same
    float64 (``0.0`` and ``-0.0`` differ in the sign bit; a NaN is its own payload)."""
    v = np.array([x], dtype=">f8")  # big-endian: byte 0 holds the sign and the exponent's top bits
    return np.unpackbits(v.view(np.uint8))


def bits_float(bits) -> float:
    """The float64 whose 64 bits (most significant first) are ``bits``: the inverse of :func:`float_bits`."""
    b = np.asarray(bits)
    if b.shape != (64,) or not np.all((b == 0) | (b == 1)):
        raise ShapeError(f"a float64 has 64 bits of 0 or 1, got shape {b.shape}")
    return float(np.packbits(b.astype(np.uint8)).view(">f8")[0])


def differing_bits(a: float, b: float) -> np.ndarray:
    """``(64,)`` bool: which bits of ``a`` and ``b`` differ (none for the same float64)."""
    return float_bits(a) != float_bits(b)


def ulp_distance(a: float, b: float) -> int:
    """How many float64 values apart ``a`` and ``b`` are: ``0`` for the same float64, ``1`` for
    neighbours (one unit in the last place), and so on across the whole line (``-0.0`` and ``0.0``
    are 0 apart).  NaN has no place on the line: a ``MathcoreError``."""
    a, b = float(a), float(b)
    if np.isnan(a) or np.isnan(b):
        raise MathcoreError(f"ulp_distance needs two numbers, got {a!r} and {b!r}")

    def ordinal(x: float) -> int:  # the float64's place on the line: monotone in x, -0.0 and 0.0 at 0
        i = int(np.array([x], dtype="<f8").view("<i8")[0])
        return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)

    return abs(ordinal(a) - ordinal(b))


AttnFn = Callable[[np.ndarray], np.ndarray]


def worst_prefix_entry(attn: AttnFn, X) -> tuple[int, int, int]:
    """``(t, i, j)``: the prefix length and the entry where ``|attn(X)[:t] − attn(X[:t])|`` is largest
    over ``t = 1..T`` (:func:`mathcore.measure.prefix_defects` measures that maximum per ``t``).
    The first such entry, in the order ``t``, then row, then column.  When every difference is
    zero, the last row of the longest proper prefix, ``(T − 1, T − 2, 0)`` (the row nearest the
    token the prefix never saw; ``(1, 0, 0)`` for a single token)."""
    X = as_matrix("X", X)
    T = X.shape[0]
    if T < 1:
        raise MathcoreError("worst_prefix_entry needs at least one token")
    Y = np.asarray(attn(X))
    best, where = 0.0, ((T - 1, T - 2, 0) if T >= 2 else (1, 0, 0))
    for t in range(1, T + 1):
        D = np.abs(Y[:t] - np.asarray(attn(X[:t])))
        i, j = np.unravel_index(int(np.argmax(D)), D.shape)
        if D[i, j] > best:
            best, where = float(D[i, j]), (t, int(i), int(j))
    return where


def prefix_entry_pair(attn: AttnFn, X, t: int, i: int, j: int) -> tuple[float, float]:
    """``(attn(X)[i, j], attn(X[:t])[i, j])``: one output entry from the full pass and from the
    pass over the first ``t`` tokens (``i < t``)."""
    X = as_matrix("X", X)
    if not 1 <= t <= X.shape[0] or not 0 <= i < t:
        raise ShapeError(f"entry ({i}, {j}) of a prefix of length {t} needs 1 <= t <= {X.shape[0]} and 0 <= i < t")
    return float(np.asarray(attn(X))[i, j]), float(np.asarray(attn(X[:t]))[i, j])


__all__ = ["FLOAT64_FIELDS", "float_bits", "bits_float", "differing_bits", "ulp_distance", "worst_prefix_entry",
           "prefix_entry_pair"]
