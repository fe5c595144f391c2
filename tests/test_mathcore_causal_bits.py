"""mathcore.causal_bits: the 64 bits of a float64, and the prefix entry a BLAS kernel gets most wrong."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathcore import attention_fn, lecture_inputs, prefix_defects
from mathcore.causal_bits import (
    FLOAT64_FIELDS,
    bits_float,
    differing_bits,
    float_bits,
    prefix_entry_pair,
    ulp_distance,
    worst_prefix_entry,
)
from mathcore.errors import MathcoreError, ShapeError

floats = st.floats(allow_nan=False, allow_infinity=True, width=64)


@given(floats)
def test_bits_round_trip_and_fields(x):
    b = float_bits(x)
    assert b.shape == (64,) and b.dtype == np.uint8 and set(np.unique(b)) <= {0, 1}
    assert bits_float(b) == x and np.signbit(bits_float(b)) == np.signbit(x)
    assert sum(n for _, n in FLOAT64_FIELDS) == 64
    assert b[0] == (1 if np.signbit(x) else 0)  # the sign bit comes first


@given(floats, floats)
def test_bits_differ_exactly_when_the_floats_differ(a, b):
    d = differing_bits(a, b)
    same_float = np.array([a]).view(np.uint64)[0] == np.array([b]).view(np.uint64)[0]
    assert (not d.any()) == bool(same_float)


def test_the_last_bit_is_the_smallest_step():
    x = 0.6
    nxt = np.nextafter(x, 1.0)  # one unit in the last place: the low end of the fraction, with its carry
    assert bits_float(float_bits(nxt)) == nxt and np.array([nxt]).view(np.uint64) - np.array([x]).view(np.uint64) == 1
    assert differing_bits(x, nxt).nonzero()[0].min() >= 60
    assert differing_bits(0.0, -0.0).nonzero()[0].tolist() == [0]
    assert differing_bits(0.1 + 0.2 + 0.3, 0.1 + (0.2 + 0.3))[-4:].any()  # the classic sum differs in its last bits
    with pytest.raises(ShapeError):
        bits_float([0, 1])


@given(st.integers(2, 6), st.integers(1, 3), st.integers(0, 10_000))
def test_worst_entry_is_where_the_prefix_defect_is_attained(T, half_d, seed):
    li = lecture_inputs(T, 2 * half_d, seed)
    for kernel in ("fixed", "blas"):
        f = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel=kernel)
        t, i, j = worst_prefix_entry(f, li.X)
        defects = prefix_defects(f, li.X)
        full, pre = prefix_entry_pair(f, li.X, t, i, j)
        assert 1 <= t <= T and 0 <= i < t
        assert abs(full - pre) == defects.max()  # the entry shown is the measured maximum
        if defects.max() == 0.0:
            assert (t, i, j) == (T - 1, T - 2, 0) and not differing_bits(full, pre).any()
        else:
            assert t == int(np.argmax(defects)) + 1 and differing_bits(full, pre).any()


def test_pair_rejects_a_row_past_the_prefix():
    li = lecture_inputs(3, 2, 0)
    f = attention_fn(li.Wq, li.Wk, li.Wv, causal=True)
    with pytest.raises(ShapeError):
        prefix_entry_pair(f, li.X, 2, 2, 0)


# ------------------------------------------------------------------ ulp_distance
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@given(finite)
def test_ulp_distance_counts_one_step_to_each_neighbour(x):
    assert ulp_distance(x, x) == 0
    for toward in (np.inf, -np.inf):
        nxt = float(np.nextafter(x, toward))
        assert ulp_distance(x, nxt) == ulp_distance(nxt, x) == (0 if nxt == x else 1)


@given(finite, finite, finite)
def test_ulp_distance_adds_up_along_the_line(a, b, c):
    """The places of floats on the line: between a and c, b's distances to both add up to a's to c's (a
    count that treated the sign bit as a number, across zero, would not)."""
    a, b, c = sorted((a, b, c))
    assert ulp_distance(a, b) + ulp_distance(b, c) == ulp_distance(a, c)


def test_ulp_distance_cases_made_for_it():
    tiny = 5e-324  # the smallest subnormal: one step from zero
    assert ulp_distance(0.0, -0.0) == 0
    assert ulp_distance(-tiny, tiny) == 2  # across zero: -tiny, ±0, tiny
    assert ulp_distance(1.0, 2.0) == 2 ** 52  # one binade: 2^52 fractions
    assert ulp_distance(np.finfo(float).max, np.inf) == 1
    assert ulp_distance(0.1 + 0.2 + 0.3, 0.1 + (0.2 + 0.3)) == 1  # clip 04's aside: one unit in the last place

    def naive(a, b):  # the raw bit patterns subtracted: wrong wherever the sign differs
        return abs(int(np.array([a]).view(np.int64)[0]) - int(np.array([b]).view(np.int64)[0]))

    assert naive(-tiny, tiny) != 2 and naive(0.0, -0.0) != 0  # the cases above tell the naive count apart
    for bad in (np.nan, -np.nan):
        with pytest.raises(MathcoreError, match="two numbers"):
            ulp_distance(bad, 1.0)
