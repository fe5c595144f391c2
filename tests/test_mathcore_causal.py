"""mathcore.causal: mask sweep, row-sum and above-diagonal measures, append change."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathcore import bidirectional_staleness, causal_mask, lecture_inputs, self_attention, self_attention_trace
from mathcore.causal import (
    above_diagonal_max,
    append_change,
    float_sum_orders,
    float_sum_partials,
    mask_sweep,
    prefix_outputs,
    row_sum_defect,
)
from mathcore.errors import MathcoreError, ShapeError

finite = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@st.composite
def square(draw, lo=1, hi=7):
    T = draw(st.integers(lo, hi))
    return draw(arrays(np.float64, (T, T), elements=finite))


@given(square())
def test_mask_sweep_masks_one_more_diagonal_per_stage(S):
    T = S.shape[0]
    mask = causal_mask(T)
    stages = mask_sweep(S, mask)
    assert len(stages) == T
    np.testing.assert_array_equal(stages[0], S)
    np.testing.assert_array_equal(stages[-1], np.where(mask, S, -np.inf))
    for k in range(1, T):
        newly = np.isneginf(stages[k]) & ~np.isneginf(stages[k - 1])
        i, j = np.nonzero(newly)
        assert np.all(j - i == k) and len(i) == T - k  # exactly diagonal k
        keep = ~np.isneginf(stages[k])
        np.testing.assert_array_equal(stages[k][keep], S[keep])  # nothing else touched


def test_mask_sweep_rejects_bad_inputs():
    with pytest.raises(ShapeError, match="square"):
        mask_sweep(np.zeros((2, 3)), np.ones((2, 3), bool))
    with pytest.raises(ShapeError, match="bool"):
        mask_sweep(np.zeros((3, 3)), np.ones((3, 3)))
    with pytest.raises(MathcoreError, match="finite"):
        mask_sweep(np.full((2, 2), -np.inf), causal_mask(2))


@given(square(lo=2))
def test_causal_softmax_rows_sum_to_one_and_upper_is_exactly_zero(S):
    T = S.shape[0]
    tr = self_attention_trace(S, np.eye(T), np.eye(T), np.eye(T), causal=True)
    assert above_diagonal_max(tr.weights) == 0.0
    assert row_sum_defect(tr.weights) < 1e-15


def test_measures_detect_what_they_claim():
    A = np.array([[1.0, 0.0], [0.25, 0.75]])
    assert row_sum_defect(A) == 0.0 and above_diagonal_max(A) == 0.0
    assert row_sum_defect(A + [[0, 0], [0.5, 0]]) == 0.5
    assert above_diagonal_max(np.array([[0.9, 1e-300], [0.5, 0.5]])) == 1e-300
    assert above_diagonal_max(np.ones((1, 1))) == 0.0


def test_prefix_outputs_and_append_change_on_the_lecture_inputs():
    li = lecture_inputs(6, 4, 7)
    Ys = prefix_outputs(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    assert [Y.shape for Y in Ys] == [(t + 1, 4) for t in range(6)]
    np.testing.assert_array_equal(Ys[-1], self_attention(li.X, li.Wq, li.Wk, li.Wv, causal=True)[0])
    causal = append_change(li.X, li.Wq, li.Wk, li.Wv, causal=True)
    assert [c.shape for c in causal] == [(t,) for t in range(1, 6)]
    assert all(np.all(c == 0.0) for c in causal)  # bitwise prefix invariance
    bidir = append_change(li.X, li.Wq, li.Wk, li.Wv, causal=False)
    for a, b in zip(bidir, bidirectional_staleness(li.X, li.Wq, li.Wk, li.Wv)):
        np.testing.assert_array_equal(a, b)
    assert min(float(c.min()) for c in bidir) > 0  # every past row moves


@given(arrays(np.float64, (5, 3), elements=finite))
def test_append_change_is_zero_for_causal_and_matches_staleness_otherwise(X):
    W = np.eye(3)
    assert all(np.all(c == 0.0) for c in append_change(X, W, W, W, causal=True))
    for a, b in zip(append_change(X, W, W, W, causal=False), bidirectional_staleness(X, W, W, W)):
        np.testing.assert_array_equal(a, b)


def test_append_change_needs_two_tokens():
    with pytest.raises(ShapeError, match="at least 2 tokens"):
        append_change(np.ones((1, 2)), np.eye(2), np.eye(2), np.eye(2), causal=True)


def test_float_sum_orders_shows_non_associativity():
    left, right = float_sum_orders(0.1, 0.2, 0.3)
    assert left != right and abs(left - right) < 1e-15
    assert float_sum_orders(1.0, 2.0, 3.0) == (6.0, 6.0)


def test_float_sum_partials_are_the_first_sums_of_each_order():
    ab, bc = float_sum_partials()  # the defaults: clip 04's aside
    assert (ab, bc) == (0.30000000000000004, 0.5)
    assert float_sum_orders() == (ab + 0.3, 0.1 + bc)  # each order finishes from its own first sum
    # a case made for it: the pairs differ (a + b, not a + c; b + c, not a + b)
    assert float_sum_partials(1.0, 10.0, 100.0) == (11.0, 110.0)


@given(finite, finite, finite)
def test_float_sum_partials_finish_into_float_sum_orders(a, b, c):
    ab, bc = float_sum_partials(a, b, c)
    assert float_sum_orders(a, b, c) == (ab + c, a + bc)
    assert (ab, bc) == (a + b, b + c)
