"""The measurements the clips show as proof: defects, caches, dilution, extrapolation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .attention import attention, matmul, self_attention
from .errors import MathcoreError, PositionOutOfRangeError, ShapeError, as_matrix, even_width, positive_int
from .positions import (
    apply_rope,
    learned_absolute_table,
    my_sinusoidal_position,
    rope_angle_grid,
    rope_frequencies,
)

AttnFn = Callable[[np.ndarray], np.ndarray]
TWO_PI = 2 * np.pi


# ---------------------------------------------------------------- prefix invariance
def prefix_defects(attn: AttnFn, X) -> np.ndarray:
    """``(T,)``: entry ``t-1`` is ``max |attn(X)[:t] − attn(X[:t])|`` for ``t = 1..T``."""
    X = as_matrix("X", X)
    Y = np.asarray(attn(X))
    return np.array([np.max(np.abs(Y[:t] - np.asarray(attn(X[:t])))) for t in range(1, X.shape[0] + 1)])


def prefix_invariance_max_defect(attn: AttnFn, X) -> float:
    """Max over ``t = 1..T`` of ``max |attn(X)[:t] − attn(X[:t])|``.

    Exactly ``0.0`` for causal attention with the default fixed-order kernel.
    """
    return float(np.max(prefix_defects(attn, X)))


# ---------------------------------------------------------------- KV cache
@dataclass(frozen=True)
class KVStep:
    """Decoding step ``t``: token ``t`` arrives; its k, v rows are appended, only its query is new."""

    t: int
    q: np.ndarray  # (d_k,)  the only query computed at this step
    K_cache: np.ndarray  # (t+1, d_k) rows 0..t-1 reused, row t appended
    V_cache: np.ndarray  # (t+1, d_v)
    weights: np.ndarray  # (t+1,) the new query's attention over the cache
    y: np.ndarray  # (d_v,) the new output row
    recompute_defect: float  # max |cached outputs 0..t − causal attention on X[:t+1]|


@dataclass(frozen=True)
class KVCacheTrace:
    steps: tuple[KVStep, ...]
    Y_cached: np.ndarray  # (T, d_v) the rows produced step by step
    Y_full: np.ndarray  # (T, d_v) one causal pass over all T tokens

    @property
    def max_defect(self) -> float:
        """Max over steps of the cached-vs-recompute difference (``0.0`` = bitwise equal)."""
        return max(s.recompute_defect for s in self.steps)


def kv_cache_decode(X, Wq, Wk, Wv, kernel: str = "fixed") -> KVCacheTrace:
    """Decode ``X: (T, d)`` token by token with a K/V cache and compare with full recomputes.

    Step ``t`` computes ``q_t, k_t, v_t`` from token ``t`` alone, appends ``k_t, v_t``
    to the caches and attends ``q_t`` over the ``t+1`` cached rows: no mask is needed,
    every cached row is in the past.  Past outputs are never recomputed.  At every
    step the rows produced so far are compared with causal attention run from
    scratch on ``X[:t+1]``.
    """
    X = as_matrix("X", X)
    Y_full = self_attention(X, Wq, Wk, Wv, causal=True, kernel=kernel)[0]  # also validates W shapes and kernel
    Wq, Wk, Wv = (as_matrix(n, W) for n, W in (("Wq", Wq), ("Wk", Wk), ("Wv", Wv)))
    T = X.shape[0]
    K_rows, V_rows, Y_rows, steps = [], [], [], []
    for t in range(T):
        x = X[t : t + 1]
        q = matmul(x, Wq, kernel)
        K_rows.append(matmul(x, Wk, kernel)[0])
        V_rows.append(matmul(x, Wv, kernel)[0])
        K_cache, V_cache = np.array(K_rows), np.array(V_rows)
        tr = attention(q, K_cache, V_cache, kernel=kernel)
        Y_rows.append(tr.output[0])
        Y_rec = self_attention(X[: t + 1], Wq, Wk, Wv, causal=True, kernel=kernel)[0]
        defect = float(np.max(np.abs(np.array(Y_rows) - Y_rec)))
        steps.append(KVStep(t, q[0], K_cache, V_cache, tr.weights[0].copy(), tr.output[0].copy(), defect))
    return KVCacheTrace(tuple(steps), np.array(Y_rows), Y_full)


def bidirectional_staleness(X, Wq, Wk, Wv, kernel: str = "fixed") -> list[np.ndarray]:
    """What a cache would get wrong under *bidirectional* self-attention.

    Returns one array per step ``t = 1..T-1``: entry ``i`` (for ``i < t``) is
    ``‖Y(X[:t+1])[i] − Y(X[:t])[i]‖₂``, how far past output ``i`` moves when token
    ``t`` is appended.  A cache would keep serving the old, stale row.
    """
    X = as_matrix("X", X)
    prev = self_attention(X[:1], Wq, Wk, Wv, kernel=kernel)[0]
    out = []
    for t in range(1, X.shape[0]):
        cur = self_attention(X[: t + 1], Wq, Wk, Wv, kernel=kernel)[0]
        out.append(np.linalg.norm(cur[:t] - prev, axis=1))
        prev = cur
    return out


# ---------------------------------------------------------------- positional dilution
def cosine_to_first(P) -> np.ndarray:
    """``(T,)``: ``cos(P[0], P[t])`` for every row ``t`` of ``P: (T, d)``."""
    P = as_matrix("P", P)
    norms = np.linalg.norm(P, axis=1)
    if np.any(norms == 0):
        raise MathcoreError(f"cosine needs non-zero rows, row {int(np.flatnonzero(norms == 0)[0])} is zero")
    return (P @ P[0]) / (norms * norms[0])


def sinusoidal_dilution(t_max: int = 10000, widths=(16, 64, 256), base: float = 10000.0):
    """``(t: (t_max,), cos: (len(widths), t_max))``: ``cos(P[0], P[t])`` for ``t = 1..t_max``
    on :func:`my_sinusoidal_position` of each width ``d``.

    For even ``d`` every row has ``|P[t]|² = Σ_i (sin² + cos²) = d/2`` and
    ``P[0]·P[t] = Σ_i cos(t·θ_i)`` (``P[0]`` is ``(0, 1, 0, 1, …)``), so the cosine is the mean of
    ``cos(t·θ_i)`` over the pairs: the same quantity with a quarter of the arithmetic (equal to
    the direct cosines to ~1e-16, tested).  The positions are walked in blocks (at most ~4 M
    entries at a time), so the lecture's largest setting (100 000 positions at width 4096, a
    3.3 GB table if built whole) needs ~40 MB."""
    from .positions import positive_base, sinusoidal_rows

    t_max = positive_int("t_max", t_max)
    widths = [positive_int("d", d, minimum=2) for d in widths]
    if not widths:
        raise MathcoreError("widths must name at least one width d")
    base = positive_base(base)
    out = np.empty((len(widths), t_max))
    for k, d in enumerate(widths):
        block = max(1, (1 << 22) // d)
        if d % 2 == 0:
            div = base ** (np.arange(0, d, 2, dtype=np.float64) / d)  # 1/θ_i, as the table computes it
            for a in range(1, t_max + 1, block):
                b = min(a + block, t_max + 1)
                ang = np.arange(a, b, dtype=np.float64)[:, None] / div  # the table's own angles
                out[k, a - 1 : b - 1] = np.cos(ang).mean(axis=1)
            continue
        p0 = sinusoidal_rows(0, 1, d, base)[0]  # odd d: the last sine has no cosine, so the direct way
        n0 = np.linalg.norm(p0)
        for a in range(1, t_max + 1, block):
            b = min(a + block, t_max + 1)
            P = sinusoidal_rows(a, b, d, base)
            out[k, a - 1 : b - 1] = (P @ p0) / (np.linalg.norm(P, axis=1) * n0)
    return np.arange(1, t_max + 1), out


def neighbour_similarity(d: int, base: float = 10000.0) -> float:
    """``cos(P[t], P[t+1])`` for sinusoidal positions, the same for every ``t``.

    Needs even ``d``: with odd ``d`` the last column is a sine without its cosine, and the
    similarity then changes with ``t``.
    """
    d = even_width("d", d, why="for a neighbour similarity that is the same at every t")
    return float(cosine_to_first(my_sinusoidal_position(2, d, base))[1])


# ---------------------------------------------------------------- extrapolation
def rope_training_coverage(d: int, train_length: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)`` largest angle pair ``i`` reached in training: ``(L−1)·θ_i``.

    A pair with ``L·θ_i ≥ 2π`` went all the way round the circle in training (seen
    angles at most ``θ_i`` apart): every angle mod 2π is familiar to it.
    """
    L = positive_int("train_length", train_length)
    return (L - 1) * rope_frequencies(d, base)


def rope_unseen_pairs(positions, d: int, train_length: int, base: float = 10000.0) -> np.ndarray:
    """``(n, d/2)`` bool: pair ``i`` at position ``m`` sits at an angle never seen in training.

    Training covered positions ``0..L-1``.  A fast pair (``L·θ_i ≥ 2π``) wrapped
    round the whole circle, so no angle is new to it.  A slow pair only ever swept
    ``[0, (L−1)θ_i]``; at position ``m`` its angle ``m·θ_i mod 2π`` is unseen when it
    lies beyond that arc.
    """
    L = positive_int("train_length", train_length)
    pos = np.asarray(positions, dtype=np.float64).reshape(-1)
    if pos.size == 0 or not np.all(np.isfinite(pos)) or np.any(pos < 0):
        raise MathcoreError(f"positions must be a non-empty list of finite numbers >= 0, got {positions!r}")
    theta = rope_frequencies(d, base)
    wrapped = L * theta >= TWO_PI
    reach = (L - 1) * theta
    angle = np.mod(pos[:, None] * theta[None, :], TWO_PI)
    return (~wrapped[None, :]) & (angle > reach[None, :] + 1e-12)


@dataclass(frozen=True)
class ExtrapolationReport:
    """What each scheme returns at each requested position, with a learned table of ``n_max`` rows."""

    positions: np.ndarray  # (n,) int
    n_max: int
    learned: tuple[np.ndarray | None, ...]  # a row, or None where the table has none
    learned_error: str  # the lookup's own message for the first missing row ('' if none)
    sinusoidal: np.ndarray  # (n, d): always defined
    rope_angles: np.ndarray  # (n, d/2): always defined

    @property
    def learned_defined(self) -> np.ndarray:
        return np.array([row is not None for row in self.learned])


def extrapolation_report(positions, d: int, n_max: int = 1024, seed: int = 0, base: float = 10000.0) -> ExtrapolationReport:
    """Ask every scheme for each of ``positions`` (ints >= 0), including positions >= ``n_max``."""
    pos = np.asarray(positions)
    if pos.ndim != 1 or pos.size == 0 or not np.issubdtype(pos.dtype, np.integer) or np.any(pos < 0):
        raise MathcoreError(f"positions must be a non-empty 1-D list of integers >= 0, got {positions!r}")
    n_max = positive_int("n_max", n_max)
    table = learned_absolute_table(d, n_max, seed)
    learned, err = [], ""
    for m in pos.tolist():
        if m < n_max:
            learned.append(table[m].copy())
        else:
            learned.append(None)
            if not err:
                err = str(PositionOutOfRangeError(
                    f"learned-absolute table has n_max={n_max} rows (positions 0..{n_max - 1}); no row for position {m}"
                ))
    top = int(pos.max()) + 1
    return ExtrapolationReport(
        positions=pos.astype(np.int64), n_max=n_max, learned=tuple(learned), learned_error=err,
        sinusoidal=my_sinusoidal_position(top, d, base)[pos],
        rope_angles=rope_angle_grid(top, d, base)[pos],
    )


def relative_score_grid(q, k, T: int, base: float = 10000.0) -> np.ndarray:
    """``(T, T)``: ``score[m, n] = RoPE(q, m) · RoPE(k, n)``; depends only on ``m − n``."""
    T = positive_int("T", T)
    q = as_matrix("q", np.asarray(q, dtype=np.float64).reshape(1, -1))
    k = as_matrix("k", np.asarray(k, dtype=np.float64).reshape(1, -1), cols=q.shape[1])
    Qr = apply_rope(np.repeat(q, T, axis=0), base=base)
    Kr = apply_rope(np.repeat(k, T, axis=0), base=base)
    return Qr @ Kr.T


def toeplitz_defect(M) -> float:
    """Max deviation of ``M: (T, T)`` from constant diagonals (0 for a Toeplitz matrix)."""
    M = as_matrix("M", M)
    T = M.shape[0]
    if M.shape[1] != T:
        raise ShapeError(f"M must be square (T, T), got shape {M.shape}")
    worst = 0.0
    for off in range(-T + 1, T):
        diag = np.diagonal(M, offset=off)
        worst = max(worst, float(np.max(np.abs(diag - diag[0]))))
    return worst


__all__ = [
    "KVStep", "KVCacheTrace", "ExtrapolationReport",
    "prefix_defects", "prefix_invariance_max_defect", "kv_cache_decode", "bidirectional_staleness",
    "cosine_to_first", "sinusoidal_dilution", "neighbour_similarity",
    "rope_training_coverage", "rope_unseen_pairs", "extrapolation_report",
    "relative_score_grid", "toeplitz_defect",
]
