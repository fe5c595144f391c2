"""Errors raised at mathcore's public boundary, and the small checks that raise them.

Every check names the bad value and the rule it broke, in one line:
``d must be even for RoPE, got d=7``.
"""

from __future__ import annotations

import numpy as np


class MathcoreError(ValueError):
    """Base class: a value given to mathcore breaks a documented rule."""


class ShapeError(MathcoreError):
    """An array has the wrong number of dimensions or mismatched sizes."""


class NonFiniteError(MathcoreError):
    """An array holds NaN or infinity where finite numbers are required."""


class OddDimensionError(MathcoreError):
    """A width that must be even (RoPE pairs) is odd."""


class NotAPermutationError(MathcoreError):
    """A list of indices is not a permutation of 0..T-1."""


class PositionError(MathcoreError):
    """A position is negative, non-integral or otherwise unusable."""


class PositionOutOfRangeError(IndexError, MathcoreError):
    """A learned-absolute lookup asked for a row past the table's n_max rows.

    It is both an :class:`IndexError` (the table has no such row) and a
    :class:`ValueError` (the request breaks a rule), so either ``except`` catches it.
    """


def as_matrix(name: str, x, *, cols: int | None = None) -> np.ndarray:
    """Return ``x`` as a finite float64 ``(rows, cols)`` array or raise naming ``name``."""
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 2:
        raise ShapeError(f"{name} must be a 2-D array (rows, features), got shape {a.shape}")
    if a.shape[0] == 0 or a.shape[1] == 0:
        raise ShapeError(f"{name} must be non-empty, got shape {a.shape}")
    if cols is not None and a.shape[1] != cols:
        raise ShapeError(f"{name} must have {cols} columns, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(a))[0])
        raise NonFiniteError(f"{name} must hold finite numbers, got {a[bad]} at index {bad}")
    return a


def positive_int(name: str, value, *, minimum: int = 1) -> int:
    """Return ``value`` as an int >= ``minimum`` or raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise MathcoreError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise MathcoreError(f"{name} must be an integer >= {minimum}, got {name}={value}")
    return int(value)


def even_width(name: str, d, *, why: str) -> int:
    """Return ``d`` as a positive even int or raise :class:`OddDimensionError`."""
    d = positive_int(name, d, minimum=2)
    if d % 2:
        raise OddDimensionError(f"{name} must be even {why}, got {name}={d}")
    return d


def positive_base(base) -> float:
    """Return the frequency base as a float > 1 or raise."""
    try:
        b = float(base)
    except (TypeError, ValueError):
        raise MathcoreError(f"base must be a number > 1, got {base!r}") from None
    if not np.isfinite(b) or b <= 1.0:
        raise MathcoreError(f"base must be a finite number > 1, got base={base!r}")
    return b
