"""Positions pushed to their limits: when distance stops being readable, and what the
schemes do past the training length (clips 12 to 14).

Pure NumPy, small functions.  The measured quantity behind clip 12's marker:

**Distance ambiguity onset.**  With ``c(t) = cos(P[0], P[t])`` for ``t = 1..n``, the onset
for a ``factor`` f >= 1 is the first position ``t`` such that some position at least
``f`` times as far, ``s >= ceil(f·t)``, looks at least as similar to position 0:
``c(s) >= c(t)``.  From the onset on, similarity to position 0 no longer ranks distance:
position ``t`` and a position (at least) twice as far are, as seen from position 0, not
told apart.  For sinusoidal encodings the same holds from any anchor position, because
``cos(P[m], P[m+t])`` does not depend on ``m``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import MathcoreError, positive_int
from .positions import rope_frequencies

TWO_PI = 2 * np.pi


# ---------------------------------------------------------------- labelled facts about real models
@dataclass(frozen=True)
class ModelFacts:
    """Published sizes of a real model's positional scheme (labelled facts, not measurements)."""

    name: str
    scheme: str  # "learned-absolute" or "RoPE"
    d_model: int | None = None
    n_max: int | None = None  # rows in a learned table; None = no table, no hard cap
    head_dim: int | None = None  # RoPE rotates pairs inside one head
    rope_base: float | None = None
    train_length: int | None = None


GPT2 = ModelFacts("GPT-2", "learned-absolute", d_model=768, n_max=1024, train_length=1024)
LLAMA2 = ModelFacts("LLaMA-2", "RoPE", head_dim=128, rope_base=10000.0, train_length=4096)
LLAMA3 = ModelFacts("LLaMA-3", "RoPE", head_dim=128, rope_base=500000.0, train_length=8192)


# ---------------------------------------------------------------- clip 12: distance ambiguity
@dataclass(frozen=True)
class AmbiguityOnset:
    """``t``: the onset position; ``witness``: the first ``s >= ceil(factor·t)`` with ``c(s) >= c(t)``.

    Both are positions (1-based: ``c[k]`` belongs to ``t = k + 1``).  ``t`` is ``None``
    when no position up to ``n`` has such a farther match (the curve ranks distance
    all the way)."""

    t: int | None
    witness: int | None
    factor: float
    cos_t: float | None  # c(t)
    cos_witness: float | None  # c(witness) >= c(t)


def ambiguity_onset(cos, factor: float = 2.0) -> AmbiguityOnset:
    """First ``t`` with ``max_{s >= ceil(factor·t)} c(s) >= c(t)``, for ``cos: (n,)`` holding
    ``c(t)`` at index ``t − 1``.  ``factor >= 1``; ``factor = 1`` asks for any ``s > t``.

    O(n): one suffix maximum.
    """
    c = np.asarray(cos, dtype=np.float64)
    if c.ndim != 1 or c.size < 2:
        raise MathcoreError(f"cos must be a 1-D array of at least 2 values, got shape {c.shape}")
    if not np.all(np.isfinite(c)):
        raise MathcoreError("cos must hold finite numbers")
    try:
        f = float(factor)
    except (TypeError, ValueError):
        raise MathcoreError(f"factor must be a number >= 1, got {factor!r}") from None
    if not np.isfinite(f) or f < 1.0:
        raise MathcoreError(f"factor must be a finite number >= 1, got factor={factor!r}")
    n = c.size
    suffix_max = np.maximum.accumulate(c[::-1])[::-1]  # suffix_max[k] = max c[k:]
    for t in range(1, n + 1):
        s0 = max(t + 1, math.ceil(f * t))
        if s0 > n:
            break
        if suffix_max[s0 - 1] >= c[t - 1]:
            s = s0 + int(np.flatnonzero(c[s0 - 1:] >= c[t - 1])[0])
            return AmbiguityOnset(t, s, f, float(c[t - 1]), float(c[s - 1]))
    return AmbiguityOnset(None, None, f, None, None)


def ranks_distance(cos, factor: float = 2.0) -> np.ndarray:
    """``(n,)`` bool: position ``t`` is still ranked, no ``s >= ceil(factor·t)`` has ``c(s) >= c(t)``.

    The onset is the first ``False`` (for ``t`` whose farther range is in the data)."""
    c = np.asarray(cos, dtype=np.float64)
    if c.ndim != 1 or c.size < 2:
        raise MathcoreError(f"cos must be a 1-D array of at least 2 values, got shape {c.shape}")
    ambiguity_onset(c, factor)  # validates factor
    f = float(factor)
    n = c.size
    suffix_max = np.r_[np.maximum.accumulate(c[::-1])[::-1], -np.inf]
    out = np.ones(n, dtype=bool)
    for t in range(1, n + 1):
        s0 = max(t + 1, math.ceil(f * t))
        if s0 <= n:
            out[t - 1] = suffix_max[s0 - 1] < c[t - 1]
    return out


@dataclass(frozen=True)
class AmbiguityShare:
    """How far the blur goes once it has begun: which positions have a *twin*, a position at least
    ``factor`` times as far that looks at least as similar to position 0.

    ``horizon``: the last position ``M`` whose twin range ``[max(m+1, ceil(factor·m)), n]`` lies in the
    data (a later position cannot be judged); ``twins: (M,)`` bool, ``twins[m-1]``: position ``m`` has a
    twin; ``onset``: the first such ``m`` (:func:`ambiguity_onset`); ``after`` and ``checked``: how many of
    the positions ``onset+1 … M`` have a twin, and how many there are; ``share = after / checked``
    (NaN when there is no onset or nothing after it)."""

    horizon: int
    twins: np.ndarray
    onset: AmbiguityOnset
    after: int
    checked: int

    @property
    def share(self) -> float:
        return self.after / self.checked if self.checked else float("nan")


def ambiguity_share(cos, factor: float = 2.0) -> AmbiguityShare:
    """Which positions of ``cos: (n,)`` (``c(m)`` at index ``m − 1``) have a twin ``s >= ceil(factor·m)``
    with ``c(s) >= c(m)``, up to the last position whose twins lie in the data; and the share of those
    past the onset that do (see :class:`AmbiguityShare`).  The onset is only the *first* such position:
    past it, some positions still rank distance."""
    c = np.asarray(cos, dtype=np.float64)
    onset = ambiguity_onset(c, factor)  # validates cos and factor
    f, n = float(factor), c.size
    horizon = 0
    for m in range(1, n + 1):
        if max(m + 1, math.ceil(f * m)) > n:
            break
        horizon = m
    twins = ~ranks_distance(c, f)[:horizon]
    if onset.t is None:
        return AmbiguityShare(horizon, twins, onset, 0, 0)
    rest = twins[onset.t:]
    return AmbiguityShare(horizon, twins, onset, int(rest.sum()), int(rest.size))


# ---------------------------------------------------------------- clip 13: RoPE past the training length
def unseen_pair_counts(positions, d: int, train_length: int, base: float = 10000.0) -> np.ndarray:
    """``(n,)`` int: how many of the ``d/2`` RoPE pairs sit at an angle never seen in training
    (positions ``0..L−1``), per position.  The row sums of :func:`mathcore.rope_unseen_pairs`."""
    from .measure import rope_unseen_pairs

    return rope_unseen_pairs(positions, d, train_length, base).sum(axis=1).astype(np.int64)


def wrapped_in_training(d: int, train_length: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)`` bool: pair ``i`` went all the way round the circle in training, ``L·θ_i >= 2π``
    (the same rule as :func:`mathcore.rope_unseen_pairs`)."""
    L = positive_int("train_length", train_length)
    return L * rope_frequencies(d, base) >= TWO_PI


def pair_turns(position: float, d: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)`` int: full turns pair ``i`` has made by ``position``, ``floor(m·θ_i / 2π)``."""
    m = float(position)
    if not np.isfinite(m) or m < 0:
        raise MathcoreError(f"position must be a finite number >= 0, got {position!r}")
    return np.floor(m * rope_frequencies(d, base) / TWO_PI).astype(np.int64)


def pair_angles(position: float, d: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)``: the angle of pair ``i`` at ``position``, ``m·θ_i mod 2π``, in ``[0, 2π)``."""
    m = float(position)
    if not np.isfinite(m) or m < 0:
        raise MathcoreError(f"position must be a finite number >= 0, got {position!r}")
    return np.mod(m * rope_frequencies(d, base), TWO_PI)


def training_arcs(d: int, train_length: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)``: the arc ``[0, a_i]`` of angles pair ``i`` swept in training, ``a_i = (L−1)·θ_i``,
    capped at ``2π`` for pairs that wrapped (every angle seen)."""
    L = positive_int("train_length", train_length)
    theta = rope_frequencies(d, base)
    return np.where(L * theta >= TWO_PI, TWO_PI, (L - 1) * theta)


def rope_wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    """``(d/2,)``: positions pair ``i`` needs for one full turn, ``2π / θ_i = 2π · base^(2i/d)``."""
    return TWO_PI / rope_frequencies(d, base)


def pairs_without_a_turn(d: int, train_length: int, base: float = 10000.0) -> int:
    """How many of the ``d/2`` pairs never go all the way round in ``train_length`` positions
    (``L·θ_i < 2π``): the pairs that meet new angles past training."""
    return int((~wrapped_in_training(d, train_length, base)).sum())


__all__ = [
    "ModelFacts", "GPT2", "LLAMA2", "LLAMA3",
    "AmbiguityOnset", "ambiguity_onset", "ranks_distance", "AmbiguityShare", "ambiguity_share",
    "unseen_pair_counts", "wrapped_in_training", "pair_turns", "pair_angles", "training_arcs",
    "rope_wavelengths", "pairs_without_a_turn",
]
