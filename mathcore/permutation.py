"""Permutations and the equivariance measurements.

Convention (the notebook's): ``P = permutation_matrix(perm)`` has ``P[i, perm[i]] = 1``,
so ``P @ X == X[perm]``: row ``i`` of the result is row ``perm[i]`` of ``X``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .errors import NotAPermutationError, ShapeError, as_matrix, positive_int

AttnFn = Callable[[np.ndarray], np.ndarray]


def as_permutation(perm, T: int | None = None) -> np.ndarray:
    """Return ``perm`` as an int array that is a permutation of ``0..T-1``, or raise."""
    raw = np.asarray(perm)
    if raw.ndim != 1 or raw.size == 0:
        raise NotAPermutationError(f"perm must be a non-empty 1-D list of indices, got shape {raw.shape}")
    if raw.dtype == np.bool_ or not (np.issubdtype(raw.dtype, np.integer)):
        raise NotAPermutationError(f"perm must hold integers, got dtype {raw.dtype}: {raw.tolist()}")
    p = raw.astype(np.int64)
    n = p.size
    if T is not None and n != T:
        raise NotAPermutationError(f"perm must have length T={T}, got length {n}: {p.tolist()}")
    if not np.array_equal(np.sort(p), np.arange(n)):
        bad = sorted(set(p.tolist()) ^ set(range(n)))
        raise NotAPermutationError(
            f"perm must contain each of 0..{n - 1} exactly once, got {p.tolist()} (wrong or missing: {bad})"
        )
    return p


def permutation_matrix(perm) -> np.ndarray:
    """``perm: (T,)`` -> ``P: (T, T)`` float one-hot rows with ``P @ X == X[perm]`` and ``P Pᵀ = I``."""
    p = as_permutation(perm)
    P = np.zeros((p.size, p.size))
    P[np.arange(p.size), p] = 1.0
    return P


def inverse_permutation(perm) -> np.ndarray:
    """The permutation ``q`` with ``q[perm[i]] = i`` (so ``X[perm][q] == X``)."""
    p = as_permutation(perm)
    q = np.empty_like(p)
    q[p] = np.arange(p.size)
    return q


def random_permutations(T: int, n: int, seed: int = 0) -> np.ndarray:
    """``(n, T)`` int array: ``n`` permutations of ``0..T-1`` drawn from ``default_rng(seed)``."""
    T = positive_int("T", T)
    n = positive_int("n_trials", n)
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(T) for _ in range(n)])


def swap_permutation(T: int, i: int, j: int) -> np.ndarray:
    """The permutation of ``0..T-1`` that exchanges positions ``i`` and ``j``."""
    T = positive_int("T", T)
    for name, v in (("i", i), ("j", j)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < T:
            raise NotAPermutationError(f"{name} must be a position in 0..{T - 1}, got {name}={v!r}")
    p = np.arange(T)
    p[[i, j]] = p[[j, i]]
    return p


def permutation_row_defects(attn: AttnFn, X, perm) -> np.ndarray:
    """``(T,)``: ``‖attn(P X)[i] − (P attn(X))[i]‖₂`` for each output row ``i``.

    The Frobenius defect is ``sqrt(sum(row_defects**2))``.  Zero rows are rows the
    permutation did not disturb; for causal attention the rows at and after the
    first moved position change.
    """
    X = as_matrix("X", X)
    p = as_permutation(perm, X.shape[0])
    Y = np.asarray(attn(X))
    Yp = np.asarray(attn(X[p]))
    return np.linalg.norm(Yp - Y[p], axis=1)


def equivariance_defects(attn: AttnFn, X, n_trials: int = 100, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n_trials`` random ``P`` and return ``(perms: (n, T), defects: (n,))``.

    ``defects[k] = ‖attn(P_k X) − P_k attn(X)‖_F``.  ``P X`` is formed as ``X[perm]``,
    which equals ``permutation_matrix(perm) @ X`` exactly (each entry is one product by 1).
    """
    X = as_matrix("X", X)
    perms = random_permutations(X.shape[0], n_trials, seed)
    Y = np.asarray(attn(X))
    if Y.ndim != 2 or Y.shape[0] != X.shape[0]:
        raise ShapeError(f"attn must map (T, d) to (T, d_v), got output shape {Y.shape} for X {X.shape}")
    defects = np.array([np.linalg.norm(np.asarray(attn(X[p])) - Y[p]) for p in perms])
    return perms, defects


def check_equivariance_max_defect(attn: AttnFn, X, n_trials: int = 100, seed: int = 0) -> float:
    """Max over ``n_trials`` random ``P`` of ``‖attn(P X) − P attn(X)‖_F``.

    For self-attention this is rounding noise (about 1e-16): every step either acts
    on each row separately (projections, softmax) or sums over tokens, and a
    permutation only changes the order of those sums.
    """
    return float(np.max(equivariance_defects(attn, X, n_trials, seed)[1]))


@dataclass(frozen=True)
class PermutationCheck:
    """What clip 01 proves: ``P @ X == X[perm]`` and ``P Pᵀ = I``, measured; and that ``Pᵀ`` undoes ``P``:
    ``Pᵀ (P X)`` (``undone``) is ``X`` again, ``max |Pᵀ P − I|`` its measure."""

    P: np.ndarray
    PX: np.ndarray
    gathered: np.ndarray
    matmul_equals_gather: bool
    orthogonality_defect: float
    gather_defect: float = 0.0  # max |P X − X[perm]|: the matmul against the gather, entry by entry
    undone: np.ndarray | None = None  # Pᵀ (P X)
    transpose_defect: float = 0.0  # max |Pᵀ P − I|


def check_permutation(X, perm) -> PermutationCheck:
    """Build ``P`` from ``perm`` and measure both identities on ``X: (T, d)``."""
    X = as_matrix("X", X)
    p = as_permutation(perm, X.shape[0])
    P = permutation_matrix(p)
    PX = P @ X
    gathered = X[p]
    return PermutationCheck(
        P=P, PX=PX, gathered=gathered,
        matmul_equals_gather=bool(np.array_equal(PX, gathered)),
        orthogonality_defect=float(np.max(np.abs(P @ P.T - np.eye(p.size)))),
        gather_defect=float(np.max(np.abs(PX - gathered))),
        undone=P.T @ PX,
        transpose_defect=float(np.max(np.abs(P.T @ P - np.eye(p.size)))),
    )
