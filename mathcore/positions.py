"""Positional schemes: sinusoidal (Vaswani), learned-absolute (GPT-2), rotary (RoFormer)."""

from __future__ import annotations

import numpy as np

from .errors import (
    PositionError,
    PositionOutOfRangeError,
    as_matrix,
    even_width,
    positive_base,
    positive_int,
)

LEARNED_STD = 0.02  # Hugging Face's (and nanoGPT's) GPT-2 init for its position table, N(0, 0.02²); OpenAI's model.py uses 0.01


def my_sinusoidal_position(T: int, d: int, base: float = 10000.0) -> np.ndarray:
    """``(T, d)`` Vaswani encoding: ``PE[pos, 2i] = sin(pos / base^(2i/d))``,
    ``PE[pos, 2i+1] = cos(pos / base^(2i/d))``.

    Pair ``i`` is a sine/cosine of wavelength ``2π · base^(2i/d)`` positions.
    For odd ``d`` the last column is the sine of pair ``(d-1)/2``.
    """
    T = positive_int("T", T)
    d = positive_int("d", d)
    base = positive_base(base)
    return sinusoidal_rows(0, T, d, base)


def sinusoidal_rows(start: int, stop: int, d: int, base: float) -> np.ndarray:
    """``(stop - start, d)``: rows ``start..stop-1`` of :func:`my_sinusoidal_position`, bit for bit
    (the same arithmetic), so long tables can be walked in blocks.  Arguments are trusted."""
    pos = np.arange(start, stop, dtype=np.float64)[:, None]
    i2 = np.arange(0, d, 2, dtype=np.float64)
    angle = pos / base ** (i2 / d)
    pe = np.empty((stop - start, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d // 2])
    return pe


def sinusoidal_wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    """``(ceil(d/2),)``: wavelength ``2π · base^(2i/d)`` of pair ``i``, in positions."""
    d = positive_int("d", d)
    base = positive_base(base)
    return 2 * np.pi * base ** (np.arange(0, d, 2, dtype=np.float64) / d)


def learned_absolute_table(d: int, n_max: int = 1024, seed: int = 0) -> np.ndarray:
    """``(n_max, d)`` table drawn like Hugging Face's GPT-2 ``wpe`` initialisation: ``N(0, 0.02²)``."""
    d = positive_int("d", d)
    n_max = positive_int("n_max", n_max)
    return np.random.default_rng(seed).normal(0.0, LEARNED_STD, size=(n_max, d))


def learned_absolute_position(T: int, d: int, n_max: int = 1024, seed: int = 0) -> np.ndarray:
    """The first ``T`` rows of :func:`learned_absolute_table`.

    ``T > n_max`` raises :class:`PositionOutOfRangeError` (an ``IndexError``): the
    table simply has no row for position ``n_max`` or later.
    """
    T = positive_int("T", T)
    n_max = positive_int("n_max", n_max)
    if T > n_max:
        raise PositionOutOfRangeError(
            f"learned-absolute table has n_max={n_max} rows (positions 0..{n_max - 1}); "
            f"T={T} asks for position {T - 1}"
        )
    return learned_absolute_table(d, n_max, seed)[:T]


def rope_frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)``: ``θ_i = base^(−2i/d)``, the angle pair ``i`` turns per position."""
    d = even_width("d", d, why="for RoPE (it rotates pairs of features)")
    base = positive_base(base)
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def rope_angle_grid(T: int, d: int, base: float = 10000.0) -> np.ndarray:
    """``(T, d/2)``: ``angle[m, i] = m · base^(−2i/d)`` in radians (not reduced mod 2π)."""
    T = positive_int("T", T)
    theta = rope_frequencies(d, base)
    return np.arange(T, dtype=np.float64)[:, None] * theta[None, :]


def as_positions(positions, T: int) -> np.ndarray:
    """Validate ``positions`` as ``T`` finite, non-negative numbers (integers or not)."""
    if positions is None:
        return np.arange(T, dtype=np.float64)
    p = np.asarray(positions)
    if p.dtype == np.bool_ or not np.issubdtype(p.dtype, np.number):
        raise PositionError(f"positions must be numbers, got dtype {p.dtype}")
    p = p.astype(np.float64)
    if p.ndim != 1 or p.size != T:
        raise PositionError(f"positions must be a 1-D array of length {T} (one per row), got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        bad = p[~np.isfinite(p) | (p < 0)][0]
        raise PositionError(f"positions must be finite and >= 0, got {bad}")
    return p


def apply_rope(X, positions=None, base: float = 10000.0) -> np.ndarray:
    """Rotate each row of ``X: (T, d)`` by its position's RoPE angles -> ``(T, d)``.

    RoFormer's interleaved convention: features ``(2i, 2i+1)`` form pair ``i``,
    rotated by ``m · θ_i`` for the row at position ``m``::

        x'[2i]   = x[2i] cos(mθ_i) − x[2i+1] sin(mθ_i)
        x'[2i+1] = x[2i] sin(mθ_i) + x[2i+1] cos(mθ_i)

    The half-split convention (GPT-NeoX, LLaMA's Hugging Face port) pairs feature
    ``i`` with ``i + d/2`` instead; it is the same rotation after permuting the
    features by ``[0, 2, 4, ..., 1, 3, 5, ...]``, so dot products, and therefore
    attention scores, are identical when Wq and Wk are permuted alike.
    ``positions`` defaults to ``0..T-1``.
    """
    X = as_matrix("X", X)
    T, d = X.shape
    theta = rope_frequencies(d, base)
    ang = as_positions(positions, T)[:, None] * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x0, x1 = X[:, 0::2], X[:, 1::2]
    out = np.empty_like(X)
    out[:, 0::2] = x0 * c - x1 * s
    out[:, 1::2] = x0 * s + x1 * c
    return out
