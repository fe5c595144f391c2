"""What clips 02, 06 and 07 measure: equivariance runs, the causal swap, the same-multiset pair.

Small pure functions over the measurements in :mod:`mathcore.permutation`; every figure a
scene prints about equivariance comes from here.

Convention (the notebook's): ``P = permutation_matrix(perm)``, ``P @ X == X[perm]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .attention import attention_fn, self_attention
from .errors import MathcoreError, ShapeError, as_matrix
from .permutation import (
    as_permutation,
    equivariance_defects,
    permutation_matrix,
    permutation_row_defects,
    swap_permutation,
)

AttnFn = Callable[[np.ndarray], np.ndarray]
THRESHOLD = 1e-10  # the notebook's pass line: ‖Attn(PX) − P·Attn(X)‖_F < 1e-10


def _frozen(a) -> np.ndarray:
    a = np.array(a, copy=True)
    a.flags.writeable = False
    return a


# ---------------------------------------------------------------------------- clip 02
def permuted_weights(A, perm) -> np.ndarray:
    """``A: (T, T)`` -> ``P A Pᵀ: (T, T)``, i.e. ``A[perm][:, perm]``.

    Entry ``(i, j)`` of the result is ``A[perm[i], perm[j]]``: the rows *and* the
    columns of ``A`` move.  Computed with the one-hot ``P`` (each entry is one
    product by 1 plus zeros, so it is exact).
    """
    A = as_matrix("A", A)
    if A.shape[0] != A.shape[1]:
        raise ShapeError(f"A must be square (T, T), got shape {A.shape}")
    P = permutation_matrix(as_permutation(perm, A.shape[0]))
    return P @ A @ P.T


def running_max(values) -> np.ndarray:
    """``(n,)`` -> ``(n,)``: ``out[k] = max(values[:k + 1])``."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ShapeError(f"values must be a non-empty 1-D array, got shape {v.shape}")
    if np.isnan(v).any():
        raise MathcoreError("values must not hold NaN")
    return np.maximum.accumulate(v)


def equivariance_defect(attn: AttnFn, X, perm) -> float:
    """``‖attn(P X) − P attn(X)‖_F`` for one permutation (``X: (T, d)``, ``perm: (T,)``)."""
    X = as_matrix("X", X)
    p = as_permutation(perm, X.shape[0])
    return float(np.linalg.norm(np.asarray(attn(X[p])) - np.asarray(attn(X))[p]))


@dataclass(frozen=True)
class EquivarianceRun:
    """``n`` random permutations: ``perms: (n, T)``, ``defects: (n,)``, ``running_max: (n,)``."""

    perms: np.ndarray
    defects: np.ndarray
    running_max: np.ndarray
    max_defect: float
    threshold: float
    passed: bool  # max_defect < threshold


def equivariance_run(attn: AttnFn, X, n_trials: int = 100, seed: int = 0, threshold: float = THRESHOLD) -> EquivarianceRun:
    """:func:`mathcore.equivariance_defects` plus the running maximum and the verdict."""
    if not threshold > 0:
        raise MathcoreError(f"threshold must be > 0, got threshold={threshold!r}")
    perms, defects = equivariance_defects(attn, X, n_trials, seed)
    rm = running_max(defects)
    m = float(rm[-1])
    return EquivarianceRun(_frozen(perms), _frozen(defects), _frozen(rm), m, float(threshold), m < threshold)


# ---------------------------------------------------------------------------- clip 06
def default_swap(T: int) -> tuple[int, int]:
    """The swap clip 06 shows: positions ``(1, T − 2)`` for ``T >= 4`` (a future token
    moved into the past with one untouched row before it and one after), else ``(0, 1)``."""
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 2:
        raise MathcoreError(f"T must be an integer >= 2 to swap two tokens, got T={T!r}")
    return (1, int(T) - 2) if T >= 4 else (0, 1)


@dataclass(frozen=True)
class SwapReport:
    """Causal vs self-attention on one swap permutation.

    ``causal_rows, self_rows: (T,)`` are ``‖attn(PX)[t] − (P attn(X))[t]‖₂``;
    the totals are their Frobenius norms, ``‖attn(PX) − P attn(X)‖_F``.
    """

    i: int
    j: int
    perm: np.ndarray
    causal_rows: np.ndarray
    self_rows: np.ndarray
    causal_total: float
    self_total: float


def swap_report(X, Wq, Wk, Wv, i: int, j: int, kernel: str = "fixed") -> SwapReport:
    """Swap tokens ``i < j`` (token ``j`` moves into the past) and measure both attentions, row by row."""
    X = as_matrix("X", X)
    p = swap_permutation(X.shape[0], i, j)
    if not i < j:
        raise MathcoreError(f"the swap must move a future token into the past: need i < j, got i={i}, j={j}")
    causal = attention_fn(Wq, Wk, Wv, causal=True, kernel=kernel)
    full = attention_fn(Wq, Wk, Wv, causal=False, kernel=kernel)
    cr = permutation_row_defects(causal, X, p)
    sr = permutation_row_defects(full, X, p)
    return SwapReport(
        i=int(i), j=int(j), perm=_frozen(p), causal_rows=_frozen(cr), self_rows=_frozen(sr),
        causal_total=equivariance_defect(causal, X, p), self_total=equivariance_defect(full, X, p),
    )


# ---------------------------------------------------------------------------- clip 07
def matched_differences(Y_a, Y_b, matching) -> np.ndarray:
    """``(T,)``: ``max_k |Y_b[i, k] − Y_a[matching[i], k]|``, token ``i`` of b against its match in a."""
    Y_a = as_matrix("Y_a", Y_a)
    Y_b = as_matrix("Y_b", Y_b, cols=Y_a.shape[1])
    if Y_b.shape[0] != Y_a.shape[0]:
        raise ShapeError(f"Y_a and Y_b must have the same shape, got {Y_a.shape} and {Y_b.shape}")
    m = as_permutation(matching, Y_a.shape[0])
    return np.max(np.abs(Y_b - Y_a[m]), axis=1)


def mean_pool(Y) -> np.ndarray:
    """``Y: (T, d)`` -> ``(d,)``: the sentence vector, the mean over tokens."""
    return as_matrix("Y", Y).mean(axis=0)


@dataclass(frozen=True)
class MultisetComparison:
    """Self-attention on two sentences with the same words.

    ``X_a, X_b: (T, d)`` inputs (with positions added if any), ``Y_a, Y_b`` outputs,
    ``matching`` with ``tokens_b[i] == tokens_a[matching[i]]``, ``diffs: (T,)`` the
    matched max-abs differences, ``max_diff`` their maximum, ``pooled_a, pooled_b: (d,)``
    mean-pooled outputs and ``pooled_gap = max |pooled_a − pooled_b|``.
    """

    X_a: np.ndarray
    X_b: np.ndarray
    Y_a: np.ndarray
    Y_b: np.ndarray
    matching: np.ndarray
    diffs: np.ndarray
    max_diff: float
    pooled_a: np.ndarray
    pooled_b: np.ndarray
    pooled_gap: float


def compare_multiset(X_a, X_b, matching, Wq, Wk, Wv, positions=None, kernel: str = "fixed") -> MultisetComparison:
    """Attend over both sentences (``positions: (T, d)`` added to both first, if given) and compare."""
    X_a = as_matrix("X_a", X_a)
    X_b = as_matrix("X_b", X_b, cols=X_a.shape[1])
    if positions is not None:
        pe = as_matrix("positions", positions, cols=X_a.shape[1])
        if pe.shape[0] != X_a.shape[0]:
            raise ShapeError(f"positions must have one row per token ({X_a.shape[0]}), got shape {pe.shape}")
        X_a, X_b = X_a + pe, X_b + pe
    Y_a = self_attention(X_a, Wq, Wk, Wv, kernel=kernel)[0]
    Y_b = self_attention(X_b, Wq, Wk, Wv, kernel=kernel)[0]
    diffs = matched_differences(Y_a, Y_b, matching)
    pa, pb = mean_pool(Y_a), mean_pool(Y_b)
    return MultisetComparison(
        X_a=_frozen(X_a), X_b=_frozen(X_b), Y_a=_frozen(Y_a), Y_b=_frozen(Y_b),
        matching=_frozen(as_permutation(matching, X_a.shape[0])), diffs=_frozen(diffs),
        max_diff=float(np.max(diffs)), pooled_a=_frozen(pa), pooled_b=_frozen(pb),
        pooled_gap=float(np.max(np.abs(pa - pb))),
    )
