"""Properties of mathcore.permutation: P @ X == X[perm], P Pᵀ = I, and the equivariance measurements."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcore import (
    KERNELS,
    NotAPermutationError,
    ShapeError,
    as_permutation,
    attention_fn,
    check_equivariance_max_defect,
    check_permutation,
    equivariance_defects,
    inverse_permutation,
    lecture_inputs,
    permutation_matrix,
    permutation_row_defects,
    random_permutations,
    swap_permutation,
)

seeds = st.integers(0, 2**32 - 1)


@st.composite
def perms(draw, min_size=1, max_size=12):
    n = draw(st.integers(min_size, max_size))
    return np.array(draw(st.permutations(list(range(n)))))


def inputs(seed: int, T: int, d: int):
    li = lecture_inputs(T, d, seed)
    return li.X, li.Wq, li.Wk, li.Wv


# ---------------------------------------------------------------- permutation_matrix
@given(perms(), st.integers(1, 5), seeds)
def test_P_times_X_is_exactly_the_gather(perm, d, seed):
    X = np.random.default_rng(seed).normal(size=(perm.size, d)) * 10.0 ** np.random.default_rng(seed).integers(-300, 300)
    P = permutation_matrix(perm)
    assert P.shape == (perm.size, perm.size)
    assert np.array_equal(P @ X, X[perm])


@given(perms())
def test_P_is_orthogonal_one_hot(perm):
    P = permutation_matrix(perm)
    T = perm.size
    assert np.array_equal(P @ P.T, np.eye(T))
    assert np.array_equal(P.T @ P, np.eye(T))
    assert set(np.unique(P).tolist()) <= {0.0, 1.0}
    assert np.array_equal(P.sum(axis=0), np.ones(T)) and np.array_equal(P.sum(axis=1), np.ones(T))
    assert np.array_equal(np.flatnonzero(P.ravel()) % T, perm)  # P[i, perm[i]] = 1


@given(perms())
def test_inverse_permutation_undoes_perm(perm):
    q = inverse_permutation(perm)
    X = np.arange(perm.size * 2, dtype=float).reshape(perm.size, 2)
    assert np.array_equal(X[perm][q], X)
    assert np.array_equal(permutation_matrix(q), permutation_matrix(perm).T)


@given(perms(), seeds)
def test_check_permutation_reports_both_identities(perm, seed):
    X = np.random.default_rng(seed).normal(size=(perm.size, 3))
    c = check_permutation(X, perm)
    assert c.matmul_equals_gather is True
    assert c.orthogonality_defect == 0.0
    assert np.array_equal(c.PX, X[perm]) and np.array_equal(c.gathered, X[perm])
    # Pᵀ undoes P, bit for bit: Pᵀ (P X) is X, and Pᵀ P is I
    assert c.gather_defect == 0.0 and c.transpose_defect == 0.0
    assert np.array_equal(c.undone, X)


def test_the_defects_of_check_permutation_measure_what_they_name():
    """Made to fail: a matrix that is not P's transpose leaves a defect (the measures are not constant zeros)."""
    X = np.arange(12.0).reshape(4, 3)
    c = check_permutation(X, [1, 2, 3, 0])
    assert c.transpose_defect == float(np.max(np.abs(c.P.T @ c.P - np.eye(4)))) == 0.0
    assert float(np.max(np.abs(c.P @ c.P @ c.PX - X))) > 0  # P applied again does not undo P (a 4-cycle)
    assert c.gather_defect == float(np.max(np.abs(c.PX - X[[1, 2, 3, 0]]))) == 0.0
    assert float(np.max(np.abs(c.PX - X))) > 0


@given(st.integers(1, 20), st.integers(1, 30), seeds)
def test_random_permutations_are_permutations_and_seeded(T, n, seed):
    a = random_permutations(T, n, seed)
    assert a.shape == (n, T)
    assert all(np.array_equal(np.sort(row), np.arange(T)) for row in a)
    assert np.array_equal(a, random_permutations(T, n, seed))


@given(st.integers(2, 20), st.data())
def test_swap_permutation_swaps_exactly_two(T, data):
    i = data.draw(st.integers(0, T - 1))
    j = data.draw(st.integers(0, T - 1))
    p = swap_permutation(T, i, j)
    expect = np.arange(T)
    expect[i], expect[j] = j, i
    assert np.array_equal(p, expect)


@pytest.mark.parametrize("perm, err", [
    ([0, 0, 2], r"got \[0, 0, 2\] \(wrong or missing: \[1\]\)"),          # duplicate
    ([0, 1, 3], r"got \[0, 1, 3\] \(wrong or missing: \[2, 3\]\)"),       # out of range
    ([-1, 0, 1], r"got \[-1, 0, 1\] \(wrong or missing: \[-1, 2\]\)"),    # negative
    ([1, 2, 3], r"got \[1, 2, 3\]"),                                      # 1-based
])
def test_rejects_lists_that_are_not_permutations(perm, err):
    with pytest.raises(NotAPermutationError, match=r"each of 0\.\.2 exactly once, " + err):
        permutation_matrix(perm)


@pytest.mark.parametrize("perm, dtype", [
    ([0.0, 1.0, 2.0], "float64"),
    ([True, False], "bool"),
    (["0", "1"], "<U1"),
])
def test_rejects_wrong_dtype_naming_it(perm, dtype):
    with pytest.raises(NotAPermutationError, match=f"must hold integers, got dtype {dtype}"):
        permutation_matrix(perm)


@pytest.mark.parametrize("perm, shape", [([[0, 1], [1, 0]], r"\(2, 2\)"), ([], r"\(0,\)"), (3, r"\(\)")])
def test_rejects_non_1d_or_empty_naming_shape(perm, shape):
    with pytest.raises(NotAPermutationError, match=f"got shape {shape}"):
        permutation_matrix(perm)


def test_rejects_perm_of_wrong_length_for_X():
    with pytest.raises(NotAPermutationError, match=r"length T=4, got length 3: \[2, 0, 1\]"):
        check_permutation(np.ones((4, 2)), [2, 0, 1])
    with pytest.raises(NotAPermutationError, match="length T=3"):
        as_permutation([1, 0], T=3)


@pytest.mark.parametrize("i, j, bad", [(5, 0, "i=5"), (0, -1, "j=-1"), (1.0, 0, "i=1.0")])
def test_swap_permutation_rejects_bad_positions(i, j, bad):
    with pytest.raises(NotAPermutationError, match=f"in 0\\.\\.4, got {bad}"):
        swap_permutation(5, i, j)


def test_is_a_value_error():
    with pytest.raises(ValueError):
        permutation_matrix([0, 0])


# ---------------------------------------------------------------- equivariance
@settings(max_examples=15)
@given(seeds, st.integers(2, 10), st.sampled_from([2, 4, 6]), st.sampled_from(KERNELS))
def test_self_attention_is_permutation_equivariant(seed, T, d, kernel):
    X, Wq, Wk, Wv = inputs(seed, T, d)
    defect = check_equivariance_max_defect(attention_fn(Wq, Wk, Wv, kernel=kernel), X, n_trials=20, seed=seed)
    assert 0.0 <= defect < 1e-10


@settings(max_examples=15)
@given(seeds, st.integers(3, 10), st.sampled_from([2, 4, 6]))
def test_causal_attention_is_not_equivariant(seed, T, d):
    X, Wq, Wk, Wv = inputs(seed, T, d)
    X = X + np.arange(T)[:, None] * 0.37  # distinct rows, so a moved row means a changed prefix
    defect = check_equivariance_max_defect(attention_fn(Wq, Wk, Wv, causal=True), X, n_trials=20, seed=seed)
    assert defect > 1e-3


def test_lecture_equivariance_defects_with_the_config_values():
    X, Wq, Wk, Wv = inputs(7, 6, 4)
    self_d = check_equivariance_max_defect(attention_fn(Wq, Wk, Wv), X, n_trials=100, seed=7)
    causal_d = check_equivariance_max_defect(attention_fn(Wq, Wk, Wv, causal=True), X, n_trials=100, seed=7)
    assert self_d < 1e-10
    assert causal_d > 1e-2


@given(seeds, st.integers(2, 8))
def test_equivariance_defects_are_deterministic_for_a_seed(seed, T):
    X, Wq, Wk, Wv = inputs(seed, T, 4)
    f = attention_fn(Wq, Wk, Wv, causal=True)
    p1, d1 = equivariance_defects(f, X, n_trials=10, seed=seed)
    p2, d2 = equivariance_defects(f, X, n_trials=10, seed=seed)
    assert np.array_equal(p1, p2) and np.array_equal(d1, d2)
    assert np.array_equal(p1, random_permutations(T, 10, seed))
    assert check_equivariance_max_defect(f, X, n_trials=10, seed=seed) == float(d1.max())
    for p, dk in zip(p1, d1):
        assert dk == np.linalg.norm(f(X[p]) - f(X)[p])


def test_equivariance_defect_of_identity_map_is_exactly_zero():
    X = np.random.default_rng(0).normal(size=(7, 3))
    assert check_equivariance_max_defect(lambda Z: Z * 2.0, X, n_trials=30) == 0.0


def test_equivariance_defect_of_a_position_dependent_map_is_large():
    X = np.random.default_rng(0).normal(size=(7, 3))
    assert check_equivariance_max_defect(lambda Z: np.cumsum(Z, axis=0), X, n_trials=30) > 0.1


@settings(max_examples=20)
@given(seeds, st.integers(3, 9), st.data())
def test_causal_row_defects_vanish_before_the_first_moved_row(seed, T, data):
    X, Wq, Wk, Wv = inputs(seed, T, 4)
    X = X + np.arange(T)[:, None] * 0.37
    i = data.draw(st.integers(0, T - 2))
    j = data.draw(st.integers(i + 1, T - 1))
    perm = swap_permutation(T, i, j)
    rows = permutation_row_defects(attention_fn(Wq, Wk, Wv, causal=True), X, perm)
    assert rows.shape == (T,)
    assert np.all(rows[:i] == 0.0)  # prefixes untouched: bitwise equal with the fixed kernel
    assert np.any(rows[i:] > 1e-6)
    full = np.linalg.norm(attention_fn(Wq, Wk, Wv, causal=True)(X[perm]) - attention_fn(Wq, Wk, Wv, causal=True)(X)[perm])
    np.testing.assert_allclose(np.sqrt(np.sum(rows**2)), full, rtol=1e-12)


def test_self_attention_row_defects_are_rounding_noise():
    X, Wq, Wk, Wv = inputs(1, 6, 4)
    rows = permutation_row_defects(attention_fn(Wq, Wk, Wv), X, [2, 0, 4, 1, 5, 3])
    assert np.all(rows < 1e-12)


def test_equivariance_rejects_attn_with_wrong_output_shape():
    with pytest.raises(ShapeError, match=r"got output shape \(\) for X \(3, 2\)"):
        check_equivariance_max_defect(lambda Z: Z.sum(), np.ones((3, 2)))


@pytest.mark.parametrize("n", [0, -1, 2.5])
def test_equivariance_rejects_bad_n_trials_naming_it(n):
    with pytest.raises(ValueError, match=f"n_trials.*{n}"):
        check_equivariance_max_defect(lambda Z: Z, np.ones((3, 2)), n_trials=n)
