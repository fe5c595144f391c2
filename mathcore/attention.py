"""Scaled dot-product attention, exposing every intermediate a scene may draw.

Two kernels compute the same mathematics:

``kernel="fixed"`` (the default)
    Every reduction runs in one fixed, sequential order that does not depend on
    how many rows or columns the arrays have: a dot product adds its terms
    ``k = 0, 1, ..., d-1`` left to right, a softmax denominator adds
    ``j = 0, 1, ..., T-1`` left to right, and the output ``weights @ V`` adds
    the value rows in that same order.  Masked weights are *exactly* ``0.0``
    and adding ``0.0`` changes no float, so row ``t`` of causal attention on
    ``T`` tokens performs bit-for-bit the same operations as row ``t`` on the
    first ``t + 1`` tokens: causal attention is prefix-invariant **bitwise**
    (``prefix_invariance_max_defect`` returns exactly ``0.0``).  This is the
    property a KV cache relies on.

``kernel="blas"``
    Plain ``@`` (NumPy's matmul, i.e. BLAS) and ``np.sum``.  BLAS picks blocking,
    vector widths and summation trees from the matrix *shape*, so the same row
    computed inside a ``(T, T)`` product and inside a ``(T-1, T-1)`` product may
    be summed in a different order.  Floating-point addition is not
    associative, so the two can differ in the last bits (about ``1e-16``).
    Nothing is wrong with the mathematics; real inference engines see exactly
    this when a cached decoding step is compared with a full recompute, unless
    they fix the reduction order as the default kernel does.

Shapes: ``Q: (T_q, d_k)``, ``K: (T_k, d_k)``, ``V: (T_k, d_v)``,
``mask: (T_q, T_k)`` bool with ``True`` = may attend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .errors import MathcoreError, NonFiniteError, ShapeError, as_matrix

KERNELS = ("fixed", "blas")


def _check_kernel(kernel: str) -> str:
    if kernel not in KERNELS:
        raise MathcoreError(f"kernel must be one of {', '.join(KERNELS)}, got kernel={kernel!r}")
    return kernel


def softmax(x, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis``.

    Subtracts the slice maximum before ``exp`` so large scores cannot overflow.
    Entries equal to ``-inf`` (masked) become exactly ``0.0``.  Every slice needs
    at least one finite entry; NaN and ``+inf`` are rejected.
    """
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 0:
        raise ShapeError(f"softmax needs at least a 1-D array, got shape {a.shape}")
    if a.size == 0:
        raise ShapeError(f"softmax needs a non-empty array, got shape {a.shape}")
    if np.isnan(a).any() or np.isposinf(a).any():
        bad = tuple(int(i) for i in np.argwhere(np.isnan(a) | np.isposinf(a))[0])
        raise NonFiniteError(f"softmax input must not hold NaN or +inf, got {a[bad]} at index {bad}")
    m = np.max(a, axis=axis, keepdims=True)
    if np.isneginf(m).any():
        raise MathcoreError("softmax needs at least one finite entry per slice, got a slice that is all -inf")
    with np.errstate(over="ignore"):  # a - m may overflow to -inf (gaps > 1.8e308): exp gives the exact 0
        e = np.exp(a - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def causal_mask(T: int) -> np.ndarray:
    """``(T, T)`` bool: ``True`` on and below the diagonal (token i may attend to j <= i)."""
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 1:
        raise MathcoreError(f"T must be an integer >= 1, got T={T!r}")
    return np.tril(np.ones((int(T), int(T)), dtype=bool))


def matmul(A: np.ndarray, B: np.ndarray, kernel: str = "fixed") -> np.ndarray:
    """``A @ B`` for ``A: (m, k)``, ``B: (k, n)``.

    With ``kernel="fixed"`` entry ``(i, j)`` is ``((A[i,0] B[0,j] + A[i,1] B[1,j]) + ...)``,
    summed left to right, and row ``i`` depends on row ``i`` of ``A`` alone.
    """
    _check_kernel(kernel)
    A, B = np.asarray(A), np.asarray(B)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0] or A.shape[1] == 0:
        raise ShapeError(f"matmul needs A: (m, k) and B: (k, n) with k >= 1, got shapes {A.shape} and {B.shape}")
    if kernel == "blas":
        return A @ B
    out = A[:, 0, None] * B[None, 0, :]
    for k in range(1, A.shape[1]):
        out = out + A[:, k, None] * B[None, k, :]
    return out


def _softmax_rows(masked: np.ndarray, kernel: str) -> np.ndarray:
    m = np.max(masked, axis=1, keepdims=True)
    e = np.exp(masked - m)
    if kernel == "blas":
        return e / np.sum(e, axis=1, keepdims=True)
    total = e[:, 0].copy()
    for j in range(1, e.shape[1]):
        total = total + e[:, j]
    return e / total[:, None]


def _freeze(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=np.float64, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class AttentionTrace:
    """Every stage of one attention call, as read-only arrays.

    ``scores = Q Kᵀ``; ``scaled = scores / √d_k``; ``masked`` is ``scaled`` with
    disallowed entries set to ``-inf``; ``weights = softmax(masked)`` row by row
    (masked entries exactly ``0.0``); ``output = weights V``.
    """

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    masked: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    mask: np.ndarray | None
    kernel: str


def attention(Q, K, V, mask=None, kernel: str = "fixed") -> AttentionTrace:
    """Scaled dot-product attention ``softmax(Q Kᵀ / √d_k + mask) V`` with its trace.

    ``Q: (T_q, d_k)``, ``K: (T_k, d_k)``, ``V: (T_k, d_v)`` -> trace with
    ``output: (T_q, d_v)`` and ``weights: (T_q, T_k)``.  ``mask`` is bool
    ``(T_q, T_k)``, ``True`` where attending is allowed; every query row must be
    allowed at least one key.
    """
    _check_kernel(kernel)
    Q = as_matrix("Q", Q)
    K = as_matrix("K", K, cols=Q.shape[1])
    V = as_matrix("V", V)
    if V.shape[0] != K.shape[0]:
        raise ShapeError(f"V must have one row per key: K has {K.shape[0]} rows, V has shape {V.shape}")
    d_k = Q.shape[1]
    scores = matmul(Q, K.T, kernel)
    scaled = scores / np.sqrt(d_k)
    if mask is None:
        masked = scaled.copy()
        mask_arr = None
    else:
        mask_arr = np.asarray(mask)
        if mask_arr.dtype != np.bool_:
            raise ShapeError(f"mask must be a bool array (True = may attend), got dtype {mask_arr.dtype}")
        if mask_arr.shape != scaled.shape:
            raise ShapeError(f"mask must have shape {scaled.shape} (T_q, T_k), got {mask_arr.shape}")
        empty = np.flatnonzero(~mask_arr.any(axis=1))
        if empty.size:
            raise MathcoreError(f"mask row {int(empty[0])} allows no key; every query must attend to at least one")
        masked = np.where(mask_arr, scaled, -np.inf)
    weights = _softmax_rows(masked, kernel)
    output = matmul(weights, V, kernel)
    return AttentionTrace(
        Q=_freeze(Q), K=_freeze(K), V=_freeze(V),
        scores=_freeze(scores), scaled=_freeze(scaled), masked=_freeze(masked),
        weights=_freeze(weights), output=_freeze(output),
        mask=None if mask_arr is None else _freeze_bool(mask_arr), kernel=kernel,
    )


def _freeze_bool(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=bool, copy=True)
    a.flags.writeable = False
    return a


def self_attention_trace(X, Wq, Wk, Wv, causal: bool = False, kernel: str = "fixed") -> AttentionTrace:
    """Project ``X: (T, d)`` with ``Wq, Wk: (d, d_k)``, ``Wv: (d, d_v)`` and attend; full trace."""
    _check_kernel(kernel)
    X = as_matrix("X", X)
    d = X.shape[1]
    Wq = as_matrix("Wq", Wq)
    Wk = as_matrix("Wk", Wk)
    Wv = as_matrix("Wv", Wv)
    for name, W in (("Wq", Wq), ("Wk", Wk), ("Wv", Wv)):
        if W.shape[0] != d:
            raise ShapeError(f"{name} must have {d} rows to match X of shape {X.shape}, got shape {W.shape}")
    if Wq.shape[1] != Wk.shape[1]:
        raise ShapeError(f"Wq and Wk must share d_k, got shapes {Wq.shape} and {Wk.shape}")
    Q = matmul(X, Wq, kernel)
    K = matmul(X, Wk, kernel)
    V = matmul(X, Wv, kernel)
    mask = causal_mask(X.shape[0]) if causal else None
    return attention(Q, K, V, mask=mask, kernel=kernel)


def self_attention(X, Wq, Wk, Wv, causal: bool = False, kernel: str = "fixed") -> tuple[np.ndarray, np.ndarray]:
    """``X: (T, d)`` -> ``(Y: (T, d_v), A: (T, T))``: self-attention, optionally causal."""
    tr = self_attention_trace(X, Wq, Wk, Wv, causal=causal, kernel=kernel)
    return tr.output, tr.weights


def attention_fn(Wq, Wk, Wv, causal: bool = False, kernel: str = "fixed") -> Callable[[np.ndarray], np.ndarray]:
    """A function ``X: (T, d) -> Y: (T, d_v)`` with the weights fixed, for the measurements."""
    _check_kernel(kernel)

    def attn(X: np.ndarray) -> np.ndarray:
        return self_attention(X, Wq, Wk, Wv, causal=causal, kernel=kernel)[0]

    attn.__name__ = f"{'causal' if causal else 'self'}_attention[{kernel}]"
    return attn
