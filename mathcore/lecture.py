"""The lecture's seeded inputs: token rows X, projection weights, the sentences' embedding table.

Everything is drawn from ``np.random.default_rng`` seeded by the config, so the same
config gives the same bits on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import MathcoreError, positive_int


@dataclass(frozen=True)
class LectureInputs:
    """``X: (T, d)`` token rows and ``Wq, Wk, Wv: (d, d)`` projections."""

    X: np.ndarray
    Wq: np.ndarray
    Wk: np.ndarray
    Wv: np.ndarray


def lecture_inputs(T: int, d: int, seed: int) -> LectureInputs:
    """Seeded token rows ``X ~ N(0, 1)`` (1 decimal) and weights ``W ~ N(0, 1/d)`` (2 decimals).

    Rounding makes the numbers on screen *the* numbers: a printed ``0.53`` is the
    exact value the math used, not a display approximation of a longer float.
    """
    T = positive_int("T", T)
    d = positive_int("d", d)
    rng = np.random.default_rng([seed, T, d])
    X = np.round(rng.normal(0.0, 1.0, size=(T, d)), 1)
    Ws = [np.round(rng.normal(0.0, 1.0 / np.sqrt(d), size=(d, d)), 2) for _ in range(3)]
    return LectureInputs(X, *Ws)


@dataclass(frozen=True)
class SentencePair:
    """Two sentences over one vocabulary, embedded with one table."""

    vocab: tuple[str, ...]  # sorted unique words
    table: np.ndarray  # (len(vocab), d)
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    ids_a: np.ndarray
    ids_b: np.ndarray

    @property
    def X_a(self) -> np.ndarray:
        return self.table[self.ids_a]

    @property
    def X_b(self) -> np.ndarray:
        return self.table[self.ids_b]

    def matching(self) -> np.ndarray:
        """``perm`` with ``tokens_b[i] == tokens_a[perm[i]]``, repeated words matched in order."""
        used: dict[str, list[int]] = {}
        for j, w in enumerate(self.tokens_a):
            used.setdefault(w, []).append(j)
        return np.array([used[w].pop(0) for w in self.tokens_b])


def sentence_pair(sentence_a: str, sentence_b: str, d: int, seed: int) -> SentencePair:
    """Embed both sentences with one seeded ``N(0, 1)`` table over their shared words."""
    ta, tb = tuple(sentence_a.split()), tuple(sentence_b.split())
    if sorted(ta) != sorted(tb):
        raise MathcoreError(f"the sentences must use the same words, got {sentence_a!r} and {sentence_b!r}")
    vocab = tuple(sorted(set(ta)))
    rng = np.random.default_rng([seed, 1, positive_int("d", d)])
    table = np.round(rng.normal(0.0, 1.0, size=(len(vocab), d)), 2)
    index = {w: i for i, w in enumerate(vocab)}
    return SentencePair(vocab, table, ta, tb, np.array([index[w] for w in ta]), np.array([index[w] for w in tb]))
