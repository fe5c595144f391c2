"""Measurements for the positional clips 08 to 11: waves, similarities, RoPE shifts.

Small pure functions over NumPy arrays, built on :mod:`mathcore.positions` and
:mod:`mathcore.attention`.  Every public function validates its arguments and raises
a :class:`~mathcore.errors.MathcoreError` (a ``ValueError``) naming the bad value.
"""

from __future__ import annotations

import numpy as np

from .attention import AttentionTrace, attention, causal_mask, matmul
from .errors import MathcoreError, ShapeError, as_matrix, even_width, positive_base, positive_int
from .positions import apply_rope, as_positions, rope_angle_grid


def _as_vector(name: str, x) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1 or a.size == 0:
        raise ShapeError(f"{name} must be a non-empty 1-D vector, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise MathcoreError(f"{name} must hold finite numbers, got {a}")
    return a


def _as_real_positions(name: str, positions) -> np.ndarray:
    p = np.asarray(positions, dtype=np.float64).reshape(-1)
    if p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise MathcoreError(f"{name} must be a non-empty list of finite numbers >= 0, got {positions!r}")
    return p


# ---------------------------------------------------------------- sinusoidal waves
def sinusoidal_at(positions, d: int, base: float = 10000.0) -> np.ndarray:
    """``(n, d)``: the Vaswani encoding at real ``positions`` (not only integers).

    ``out[k, 2i] = sin(p_k · base^(−2i/d))`` and ``out[k, 2i+1] = cos(p_k · base^(−2i/d))``;
    at integer positions ``0..T-1`` it is :func:`my_sinusoidal_position`.  Sampled
    finely, column ``2i`` and ``2i+1`` are the continuous sine and cosine waves whose
    integer samples fill the matrix.
    """
    p = _as_real_positions("positions", positions)
    d = positive_int("d", d)
    base = positive_base(base)
    inv = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    ang = p[:, None] * inv[None, :]
    out = np.empty((p.size, d))
    out[:, 0::2] = np.sin(ang)
    out[:, 1::2] = np.cos(ang[:, : d // 2])
    return out


def cosine_similarity_matrix(P) -> np.ndarray:
    """``(T, T)``: ``cos(P[m], P[n])`` for the rows of ``P: (T, d)`` (rows must be non-zero)."""
    P = as_matrix("P", P)
    norms = np.linalg.norm(P, axis=1)
    if np.any(norms == 0):
        raise MathcoreError(f"cosine needs non-zero rows, row {int(np.flatnonzero(norms == 0)[0])} of P is zero")
    U = P / norms[:, None]
    return np.clip(U @ U.T, -1.0, 1.0)


# ---------------------------------------------------------------- the angle grid
def angle_grid_defect(T: int, d: int, base: float = 10000.0) -> float:
    """``max |rope_angle_grid(T, d, base)[m, i] − m · base^(−2i/d)|``, the formula evaluated entry by entry.

    The right-hand side is computed one entry at a time in plain Python floats, an
    independent path to the same numbers.
    """
    T = positive_int("T", T)
    d = even_width("d", d, why="for RoPE (it rotates pairs of features)")
    base = positive_base(base)
    grid = rope_angle_grid(T, d, base)
    direct = np.array([[m * base ** (-(2 * i) / d) for i in range(d // 2)] for m in range(T)])
    return float(np.max(np.abs(grid - direct)))


def rope_pairs(x, position: float, base: float = 10000.0) -> np.ndarray:
    """``(d/2, 2)``: the pairs ``(x'[2i], x'[2i+1])`` of ``x: (d,)`` rotated to ``position``."""
    x = _as_vector("x", x)
    even_width("d", x.size, why="for RoPE (it rotates pairs of features)")
    return apply_rope(x[None, :], positions=[position], base=base)[0].reshape(-1, 2)


# ---------------------------------------------------------------- scores under a shift
def rope_score(q, k, m: float, n: float, base: float = 10000.0) -> float:
    """``RoPE(q, m) · RoPE(k, n)``: the score of a query at position ``m`` and a key at ``n``."""
    q = _as_vector("q", q)
    k = _as_vector("k", k)
    if q.size != k.size:
        raise ShapeError(f"q and k must have the same length, got {q.size} and {k.size}")
    qr = apply_rope(q[None, :], positions=[m], base=base)[0]
    kr = apply_rope(k[None, :], positions=[n], base=base)[0]
    return float(qr @ kr)


def shift_score_defects(q, k, m: float, n: float, shifts, base: float = 10000.0) -> np.ndarray:
    """``(len(shifts),)``: ``|score(m+s, n+s) − score(m, n)|`` for each shift ``s``.

    RoPE makes the score depend on ``m − n`` only, so every entry is rounding noise.
    """
    s = np.asarray(shifts, dtype=np.float64).reshape(-1)
    if s.size == 0 or not np.all(np.isfinite(s)) or np.any(np.minimum(m, n) + s < 0):
        raise MathcoreError(f"shifts must be finite and keep both positions >= 0, got {shifts!r} for m={m}, n={n}")
    ref = rope_score(q, k, m, n, base)
    return np.array([abs(rope_score(q, k, m + si, n + si, base) - ref) for si in s])


# ---------------------------------------------------------------- attention with RoPE
def rope_self_attention_trace(
    X, Wq, Wk, Wv, positions=None, base: float = 10000.0, rotate_v: bool = False, causal: bool = False,
) -> AttentionTrace:
    """Self-attention on ``X: (T, d)`` with RoPE applied to the queries and keys.

    ``Q = RoPE(X Wq)``, ``K = RoPE(X Wk)`` at ``positions`` (default ``0..T-1``);
    ``V = X Wv`` as in every real model, or ``RoPE(X Wv)`` when ``rotate_v`` (the
    counterfactual the clip measures).  Returns the trace of the attention call;
    its ``Q``, ``K``, ``V`` are the rotated ones.
    """
    X = as_matrix("X", X)
    T, d = X.shape
    Ws = {n: as_matrix(n, W) for n, W in (("Wq", Wq), ("Wk", Wk), ("Wv", Wv))}
    for name, W in Ws.items():
        if W.shape[0] != d:
            raise ShapeError(f"{name} must have {d} rows to match X of shape {X.shape}, got shape {W.shape}")
        if name != "Wv" or rotate_v:
            even_width(f"{name} columns", W.shape[1], why="for RoPE (it rotates pairs of features)")
    pos = as_positions(positions, T)
    Q = apply_rope(matmul(X, Ws["Wq"]), pos, base)
    K = apply_rope(matmul(X, Ws["Wk"]), pos, base)
    V = matmul(X, Ws["Wv"])
    if rotate_v:
        V = apply_rope(V, pos, base)
    return attention(Q, K, V, mask=causal_mask(T) if causal else None)


def shift_output_defect(
    X, Wq, Wk, Wv, shift: float, base: float = 10000.0, rotate_v: bool = False, causal: bool = False,
) -> float:
    """``max |Y(positions + shift) − Y(positions)|`` for RoPE self-attention on ``X``.

    Sliding the whole sequence along by ``shift`` keeps every ``m − n``, so with ``V``
    left alone the outputs move only by rounding noise; with ``rotate_v`` each value
    row turns by its absolute position and the outputs change.
    """
    X = as_matrix("X", X)
    T = X.shape[0]
    s = float(shift)
    if not np.isfinite(s) or s < 0:
        raise MathcoreError(f"shift must be a finite number >= 0, got shift={shift!r}")
    pos = np.arange(T, dtype=np.float64)
    Y0 = rope_self_attention_trace(X, Wq, Wk, Wv, pos, base, rotate_v, causal).output
    Y1 = rope_self_attention_trace(X, Wq, Wk, Wv, pos + s, base, rotate_v, causal).output
    return float(np.max(np.abs(Y1 - Y0)))


__all__ = [
    "sinusoidal_at", "cosine_similarity_matrix", "angle_grid_defect", "rope_pairs",
    "rope_score", "shift_score_defects", "rope_self_attention_trace", "shift_output_defect",
]
