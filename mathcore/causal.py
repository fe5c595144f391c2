"""Small measurements for the causal clips (03 mask, 04 prefix invariance, 05 KV cache).

Pure NumPy; every function takes the arrays mathcore already computed (an
:class:`~mathcore.attention.AttentionTrace`'s ``scaled``/``weights``, the lecture's
``X`` and weights) and returns what a clip shows, so no scene does arithmetic.
"""

from __future__ import annotations

import numpy as np

from .attention import self_attention
from .errors import MathcoreError, ShapeError, as_matrix


def _square(name: str, M) -> np.ndarray:
    a = np.asarray(M, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] == 0:
        raise ShapeError(f"{name} must be a non-empty square (T, T) array, got shape {a.shape}")
    return a


def mask_sweep(scaled, mask) -> list[np.ndarray]:
    """The causal mask applied one diagonal at a time.

    ``scaled: (T, T)`` finite scores, ``mask: (T, T)`` bool (``True`` = may attend).
    Returns ``T`` arrays: stage ``k`` (``k = 0..T-1``) is ``scaled`` with every
    disallowed entry on diagonals ``1..k`` above the main one (``j - i <= k``) set to
    ``-inf``.  Stage 0 is ``scaled`` untouched (for the causal mask) and stage
    ``T-1`` equals ``np.where(mask, scaled, -inf)``.
    """
    S = _square("scaled", scaled)
    if not np.all(np.isfinite(S)):
        raise MathcoreError("scaled must hold finite scores before masking")
    m = np.asarray(mask)
    if m.dtype != np.bool_ or m.shape != S.shape:
        raise ShapeError(f"mask must be a bool array of shape {S.shape}, got dtype {m.dtype} and shape {m.shape}")
    T = S.shape[0]
    offset = np.arange(T)[None, :] - np.arange(T)[:, None]  # j - i
    return [np.where(~m & (offset <= k), -np.inf, S) for k in range(T)]


def row_sums(A) -> np.ndarray:
    """``(T_q,)``: ``sum_j A[i, j]`` added left to right over ``j`` (a fixed order)."""
    W = as_matrix("A", A)
    total = W[:, 0].copy()
    for j in range(1, W.shape[1]):
        total = total + W[:, j]
    return total


def row_sum_defect(A) -> float:
    """``max_i |sum_j A[i, j] - 1|`` for attention weights ``A: (T_q, T_k)``.

    The sum runs left to right over ``j`` (a fixed order), so the value is the
    rounding left in the softmax's normalisation, not noise from the measurement.
    """
    return float(np.max(np.abs(row_sums(A) - 1.0)))


def above_diagonal_max(A) -> float:
    """``max |A[i, j]|`` over ``j > i`` for ``A: (T, T)``; ``0.0`` when ``T = 1``.

    For causal weights this is exactly ``0.0``: ``exp(-inf)`` is ``0.0``, not small.
    """
    W = _square("A", A)
    upper = np.triu(np.ones(W.shape, dtype=bool), k=1)
    return float(np.max(np.abs(W[upper]))) if upper.any() else 0.0


def prefix_outputs(X, Wq, Wk, Wv, causal: bool, kernel: str = "fixed") -> list[np.ndarray]:
    """``T`` arrays: entry ``t`` is self-attention's output ``(t+1, d_v)`` on ``X[:t+1]``.

    What a decoder would hold after reading ``t + 1`` tokens if it recomputed everything.
    """
    X = as_matrix("X", X)
    return [self_attention(X[: t + 1], Wq, Wk, Wv, causal=causal, kernel=kernel)[0] for t in range(X.shape[0])]


def append_change(X, Wq, Wk, Wv, causal: bool, kernel: str = "fixed") -> list[np.ndarray]:
    """How far past outputs move when one more token is appended.

    Returns ``T - 1`` arrays; entry ``t - 1`` (for ``t = 1..T-1``) has shape ``(t,)``:
    ``||Y(X[:t+1])[i] - Y(X[:t])[i]||_2`` for each past row ``i < t``.  Exactly ``0.0``
    everywhere for causal attention with the fixed kernel; with ``causal=False`` it is
    :func:`mathcore.measure.bidirectional_staleness`.
    """
    X = as_matrix("X", X)
    if X.shape[0] < 2:
        raise ShapeError(f"append_change needs at least 2 tokens, got X of shape {X.shape}")
    Ys = prefix_outputs(X, Wq, Wk, Wv, causal=causal, kernel=kernel)
    return [np.linalg.norm(Ys[t][:t] - Ys[t - 1], axis=1) for t in range(1, len(Ys))]


SUM_ORDER_EXAMPLE = (0.1, 0.2, 0.3)  # the classic three floats whose sum depends on the order


def float_sum_orders(a: float = 0.1, b: float = 0.2, c: float = 0.3) -> tuple[float, float]:
    """``((a + b) + c, a + (b + c))`` in float64: the same three numbers, two orders.

    With the defaults (:data:`SUM_ORDER_EXAMPLE`) the two differ in the last bit:
    ``0.6000000000000001`` and ``0.6``.
    """
    a, b, c = (float(v) for v in (a, b, c))
    return (a + b) + c, a + (b + c)


def float_sum_partials(a: float = 0.1, b: float = 0.2, c: float = 0.3) -> tuple[float, float]:
    """``(a + b, b + c)`` in float64: the first sum of each order of :func:`float_sum_orders`
    (``0.30000000000000004`` and ``0.5`` with the defaults), the step where the two orders part."""
    a, b, c = (float(v) for v in (a, b, c))
    return a + b, b + c


__all__ = [
    "float_sum_partials",
    "mask_sweep", "row_sums", "row_sum_defect", "above_diagonal_max",
    "prefix_outputs", "append_change", "float_sum_orders", "SUM_ORDER_EXAMPLE",
]
