"""Positional schemes compared like with like: the attention score of one token, as the query at
position ``m`` and as the key at position ``n``, under each scheme (clip 09).

* sinusoidal (added): ``score[m, n] = ((x + PE_m) Wq) · ((x + PE_n) Wk)``;
* learned absolute (added): the same with ``E_m``, row ``m`` of the learned table;
* RoPE (rotates q and k): ``score[m, n] = RoPE(x Wq, m) · RoPE(x Wk, n)``.

Only a score that is a function of ``m − n`` alone has constant diagonals (a Toeplitz matrix);
:func:`~mathcore.measure.toeplitz_defect` measures how far each grid is from that.  The
encodings themselves can be relative while the score is not: ``PE_m · PE_n = Σ_i cos((m − n) θ_i)``
depends on ``m − n`` only, but once ``x`` is added and ``Wq``, ``Wk`` mix the coordinates, the
score holds absolute terms (``encoding_gram`` keeps that half of the story).

Pure NumPy; arguments are validated at the boundary (a :class:`~mathcore.errors.MathcoreError`
names the bad value).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import MathcoreError, ShapeError, as_matrix, positive_int
from .measure import relative_score_grid, toeplitz_defect
from .positions import learned_absolute_position, my_sinusoidal_position

OFFSET_TOL = 1e-10  # the lecture's pass line: a diagonal spread below it is rounding, not position


def _as_token(x, d: int | None = None) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1 or a.size == 0:
        raise ShapeError(f"x must be one token, a non-empty 1-D vector, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise MathcoreError(f"x must hold finite numbers, got {a}")
    if d is not None and a.size != d:
        raise ShapeError(f"x must have {d} features to match the weights, got {a.size}")
    return a


def _weights(x: np.ndarray, Wq, Wk) -> tuple[np.ndarray, np.ndarray]:
    Wq = as_matrix("Wq", Wq)
    Wk = as_matrix("Wk", Wk)
    d = x.size
    for name, W in (("Wq", Wq), ("Wk", Wk)):
        if W.shape[0] != d:
            raise ShapeError(f"{name} must have {d} rows to match x of {d} features, got shape {W.shape}")
    if Wq.shape[1] != Wk.shape[1]:
        raise ShapeError(f"Wq and Wk must map to the same width, got {Wq.shape} and {Wk.shape}")
    return Wq, Wk


def additive_score_grid(x, Wq, Wk, encodings) -> np.ndarray:
    """``(T, T)``: ``score[m, n] = ((x + enc_m) Wq) · ((x + enc_n) Wk)`` for ``x: (d,)``,
    ``Wq, Wk: (d, d_k)`` and ``encodings: (T, d)`` (one row per position, added to the token)."""
    x = _as_token(x)
    Wq, Wk = _weights(x, Wq, Wk)
    enc = as_matrix("encodings", encodings, cols=x.size)
    rows = x[None, :] + enc
    return (rows @ Wq) @ (rows @ Wk).T


def rope_token_score_grid(x, Wq, Wk, T: int, base: float = 10000.0) -> np.ndarray:
    """``(T, T)``: ``score[m, n] = RoPE(x Wq, m) · RoPE(x Wk, n)`` (the query and key widths must be even)."""
    x = _as_token(x)
    Wq, Wk = _weights(x, Wq, Wk)
    return relative_score_grid(x @ Wq, x @ Wk, positive_int("T", T), base)


def offset_only(defect: float, tol: float = OFFSET_TOL) -> bool:
    """Whether a grid whose diagonals spread by ``defect`` depends on ``m − n`` only (below the pass line)."""
    return bool(float(defect) < tol)


@dataclass(frozen=True)
class SchemeScores:
    """One token's score at every ``(m, n)`` under each scheme, and how relative each is.

    ``defects[k]`` is the Toeplitz defect of scheme ``k``'s grid (sinusoidal, learned, RoPE):
    the largest spread of the score along one diagonal ``m − n = const``.  ``encoding_gram``
    is ``PE_m · PE_n`` (the sinusoidal encodings alone) and ``gram_defect`` its defect."""

    sinusoidal: np.ndarray  # (T, T)
    learned: np.ndarray  # (T, T)
    rope: np.ndarray  # (T, T)
    encoding_gram: np.ndarray  # (T, T)
    defects: tuple[float, float, float]
    gram_defect: float

    @property
    def grids(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.sinusoidal, self.learned, self.rope

    def relative(self, tol: float = OFFSET_TOL) -> tuple[bool, bool, bool]:
        """Per scheme: does its score depend on ``m − n`` only?"""
        return tuple(offset_only(v, tol) for v in self.defects)


def scheme_scores(x, Wq, Wk, T: int, base: float = 10000.0, n_max: int = 1024, seed: int = 0) -> SchemeScores:
    """The score of token ``x: (d,)`` as the query at ``m`` and the key at ``n``, for ``m, n < T``,
    under the sinusoidal, learned-absolute (the first ``T`` rows of the table drawn from ``seed``)
    and RoPE schemes.  ``T > n_max`` raises :class:`~mathcore.errors.PositionOutOfRangeError`."""
    x = _as_token(x)
    T = positive_int("T", T)
    PE = my_sinusoidal_position(T, x.size, base)
    E = learned_absolute_position(T, x.size, n_max, seed)
    grids = (additive_score_grid(x, Wq, Wk, PE), additive_score_grid(x, Wq, Wk, E),
             rope_token_score_grid(x, Wq, Wk, T, base))
    gram = PE @ PE.T
    return SchemeScores(*grids, encoding_gram=gram, defects=tuple(toeplitz_defect(S) for S in grids),
                        gram_defect=toeplitz_defect(gram))


__all__ = ["OFFSET_TOL", "SchemeScores", "additive_score_grid", "offset_only", "rope_token_score_grid",
           "scheme_scores"]
