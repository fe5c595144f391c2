"""mathcore.equivariance: properties of the measurements clips 02, 06 and 07 show."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathcore import (
    attention_fn,
    equivariance_defects,
    lecture_inputs,
    load_config,
    my_sinusoidal_position,
    permutation_matrix,
    permutation_row_defects,
    self_attention,
    sentence_pair,
)
from mathcore.equivariance import (
    THRESHOLD,
    compare_multiset,
    default_swap,
    equivariance_defect,
    equivariance_run,
    matched_differences,
    mean_pool,
    permuted_weights,
    running_max,
    swap_report,
)
from mathcore.errors import MathcoreError, NotAPermutationError, ShapeError

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def square_and_perm(draw):
    T = draw(st.integers(1, 9))
    A = draw(arrays(np.float64, (T, T), elements=finite))
    perm = np.array(draw(st.permutations(range(T))))
    return A, perm


@given(square_and_perm())
def test_permuted_weights_moves_rows_and_columns(ap):
    A, perm = ap
    B = permuted_weights(A, perm)
    P = permutation_matrix(perm)
    np.testing.assert_array_equal(B, A[perm][:, perm])
    np.testing.assert_array_equal(B, P @ A @ P.T)
    # moving back with the inverse gives A again, bit for bit
    q = np.argsort(perm)
    np.testing.assert_array_equal(permuted_weights(B, q), A)


@given(arrays(np.float64, st.integers(1, 50), elements=finite))
def test_running_max_is_monotone_and_bounds_every_value(v):
    r = running_max(v)
    assert np.all(np.diff(r) >= 0)
    assert np.all(r >= v)
    assert r[-1] == v.max()
    assert np.all(np.isin(r, v))  # every entry is a real sample, never invented


def test_running_max_rejects_bad_input():
    with pytest.raises(ShapeError, match="non-empty 1-D"):
        running_max([])
    with pytest.raises(MathcoreError, match="NaN"):
        running_max([1.0, np.nan])


@st.composite
def attention_case(draw):
    T = draw(st.integers(2, 7))
    d = draw(st.sampled_from([2, 4]))
    seed = draw(st.integers(0, 10_000))
    perm = np.array(draw(st.permutations(range(T))))
    return lecture_inputs(T, d, seed), perm


@given(attention_case())
def test_self_attention_defect_is_rounding_and_causal_is_not_in_general(case):
    li, perm = case
    f = attention_fn(li.Wq, li.Wk, li.Wv)
    d = equivariance_defect(f, li.X, perm)
    assert 0.0 <= d < THRESHOLD
    assert d == pytest.approx(np.linalg.norm(permutation_row_defects(f, li.X, perm)), abs=1e-300, rel=1e-12)


def test_weights_of_PX_are_P_A_Pt():
    cfg = load_config()
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    _, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
    _, A_p = self_attention(li.X[list(cfg.perm)], li.Wq, li.Wk, li.Wv)
    assert np.max(np.abs(A_p - permuted_weights(A, cfg.perm))) < 1e-15


def test_equivariance_run_matches_the_notebook_measurement():
    cfg = load_config()
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    f = attention_fn(li.Wq, li.Wk, li.Wv)
    run = equivariance_run(f, li.X, cfg.n_trials, cfg.seed)
    perms, defects = equivariance_defects(f, li.X, cfg.n_trials, cfg.seed)
    np.testing.assert_array_equal(run.perms, perms)
    np.testing.assert_array_equal(run.defects, defects)
    assert run.max_defect == defects.max() and run.passed
    assert run.max_defect > 0  # rounding is there, it is just tiny
    # a non-equivariant map fails the same run
    fc = attention_fn(li.Wq, li.Wk, li.Wv, causal=True)
    assert not equivariance_run(fc, li.X, cfg.n_trials, cfg.seed).passed
    with pytest.raises(MathcoreError, match="threshold"):
        equivariance_run(f, li.X, 3, 0, threshold=0.0)


@given(st.integers(2, 40))
def test_default_swap_moves_a_future_token_into_the_past(T):
    i, j = default_swap(T)
    assert 0 <= i < j < T
    if T >= 4:
        assert i >= 1 and j <= T - 2  # one untouched row before, one after


@given(attention_case(), st.data())
def test_swap_report_rows_follow_the_causal_prefixes(case, data):
    li, _ = case
    T = li.X.shape[0]
    i = data.draw(st.integers(0, T - 2))
    j = data.draw(st.integers(i + 1, T - 1))
    r = swap_report(li.X, li.Wq, li.Wk, li.Wv, i, j)
    # rows before the swap see exactly the same tokens, computed the same way: bitwise equal
    assert np.all(r.causal_rows[:i] == 0.0)
    # rows after j see the same set of tokens, summed in another order: rounding only
    assert np.all(r.causal_rows[j + 1:] < THRESHOLD)
    assert np.all(r.self_rows < THRESHOLD) and r.self_total < THRESHOLD
    assert r.causal_total == pytest.approx(np.linalg.norm(r.causal_rows), rel=1e-12, abs=1e-300)
    assert r.perm[i] == j and r.perm[j] == i


def test_swap_report_changes_the_rows_between_for_the_lecture():
    cfg = load_config()
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    i, j = default_swap(cfg.T)
    r = swap_report(li.X, li.Wq, li.Wk, li.Wv, i, j)
    assert np.all(r.causal_rows[i:j + 1] > 1e-3)
    assert r.causal_total > 1e6 * r.self_total
    with pytest.raises(MathcoreError, match="i < j"):
        swap_report(li.X, li.Wq, li.Wk, li.Wv, 3, 1)
    with pytest.raises(NotAPermutationError, match="j must be a position"):
        swap_report(li.X, li.Wq, li.Wk, li.Wv, 0, cfg.T)


@given(attention_case())
def test_matched_differences_of_a_permuted_copy_are_zero(case):
    li, perm = case
    Y = li.X
    assert np.all(matched_differences(Y, Y[perm], perm) == 0.0)
    Z = Y[perm].copy()
    Z[0, 0] += 1.0
    assert matched_differences(Y, Z, perm)[0] >= 1.0 - 1e-12


def test_matched_differences_validates():
    with pytest.raises(ShapeError, match="same shape"):
        matched_differences(np.zeros((3, 2)), np.zeros((4, 2)), [0, 1, 2])
    with pytest.raises(NotAPermutationError):
        matched_differences(np.zeros((3, 2)), np.zeros((3, 2)), [0, 0, 1])


@given(arrays(np.float64, (5, 3), elements=finite), st.permutations(range(5)))
def test_mean_pool_ignores_order_up_to_rounding(Y, perm):
    a, b = mean_pool(Y), mean_pool(Y[list(perm)])
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_same_multiset_without_positions_and_with():
    cfg = load_config()
    sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    plain = compare_multiset(sp.X_a, sp.X_b, sp.matching(), li.Wq, li.Wk, li.Wv)
    assert plain.max_diff < 1e-14 and plain.pooled_gap < 1e-14
    T = len(sp.tokens_a)
    pe = my_sinusoidal_position(T, cfg.d, cfg.rope_base)
    pos = compare_multiset(sp.X_a, sp.X_b, sp.matching(), li.Wq, li.Wk, li.Wv, positions=pe)
    np.testing.assert_array_equal(pos.X_a, sp.X_a + pe)
    assert pos.max_diff > 0.1 and pos.pooled_gap > 0.1
    with pytest.raises(ShapeError, match="one row per token"):
        compare_multiset(sp.X_a, sp.X_b, sp.matching(), li.Wq, li.Wk, li.Wv, positions=pe[:3])
