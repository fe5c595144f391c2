"""mathcore.rope_measures: property tests (hypothesis) and boundary checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathcore import MathcoreError, apply_rope, my_sinusoidal_position, rope_angle_grid, toeplitz_defect
from mathcore.attention import self_attention
from mathcore.rope_measures import (
    angle_grid_defect,
    cosine_similarity_matrix,
    rope_pairs,
    rope_score,
    rope_self_attention_trace,
    shift_output_defect,
    shift_score_defects,
    sinusoidal_at,
)

finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)
bases = st.sampled_from([100.0, 10000.0, 500000.0])
half = st.integers(1, 4)


@given(T=st.integers(1, 20), d=st.integers(1, 12), base=bases)
def test_sinusoidal_at_integer_positions_is_the_matrix(T, d, base):
    got = sinusoidal_at(np.arange(T), d, base)
    assert got.shape == (T, d)
    np.testing.assert_allclose(got, my_sinusoidal_position(T, d, base), atol=1e-12, rtol=0)


@given(p=st.floats(0, 1e4), d=st.integers(1, 4).map(lambda h: 2 * h), base=bases)
def test_sinusoidal_pairs_lie_on_the_unit_circle(p, d, base):
    row = sinusoidal_at([p], d, base)[0]
    np.testing.assert_allclose(row[0::2] ** 2 + row[1::2] ** 2, 1.0, atol=1e-12)


@given(P=arrays(np.float64, st.tuples(st.integers(1, 8), st.integers(1, 6)), elements=finite))
def test_cosine_matrix_is_symmetric_with_unit_diagonal(P):
    P = np.hstack([P, np.ones((P.shape[0], 1))])  # no zero rows
    C = cosine_similarity_matrix(P)
    np.testing.assert_allclose(C, C.T, atol=1e-12)
    np.testing.assert_allclose(np.diag(C), 1.0, atol=1e-12)
    assert np.all(np.abs(C) <= 1.0)


def test_cosine_matrix_rejects_zero_rows():
    with pytest.raises(MathcoreError, match="row 1 of P is zero"):
        cosine_similarity_matrix([[1.0, 0.0], [0.0, 0.0]])


@given(T=st.integers(1, 30), h=half, base=bases)
def test_angle_grid_matches_its_formula(T, h, base):
    assert angle_grid_defect(T, 2 * h, base) <= 1e-12 * max(T, 1)


def test_angle_grid_defect_rejects_odd_width():
    with pytest.raises(MathcoreError, match="d=5"):
        angle_grid_defect(4, 5)


@given(h=half, m=st.integers(0, 200), base=bases, data=st.data())
def test_rope_pairs_turn_by_the_grid_angles(h, m, base, data):
    x = data.draw(arrays(np.float64, 2 * h, elements=finite))
    pairs = rope_pairs(x, m, base)
    x_pairs = x.reshape(-1, 2)
    np.testing.assert_allclose(np.linalg.norm(pairs, axis=1), np.linalg.norm(x_pairs, axis=1), atol=1e-9)
    ang = rope_angle_grid(m + 1, 2 * h, base)[m]
    c, s = np.cos(ang), np.sin(ang)
    want = np.stack([x_pairs[:, 0] * c - x_pairs[:, 1] * s, x_pairs[:, 0] * s + x_pairs[:, 1] * c], axis=1)
    np.testing.assert_allclose(pairs, want, atol=1e-9)


@given(h=half, m=st.integers(0, 50), n=st.integers(0, 50), s=st.integers(0, 5000), base=bases, data=st.data())
def test_score_depends_only_on_the_offset(h, m, n, s, base, data):
    q = data.draw(arrays(np.float64, 2 * h, elements=finite))
    k = data.draw(arrays(np.float64, 2 * h, elements=finite))
    a, b = rope_score(q, k, m, n, base), rope_score(q, k, m + s, n + s, base)
    assert abs(a - b) <= 1e-9
    assert shift_score_defects(q, k, m, n, [s], base)[0] == abs(b - a)


def test_score_at_equal_positions_is_the_plain_dot_product():
    q, k = np.array([1.0, 2.0, -1.0, 0.5]), np.array([0.3, -0.2, 0.7, 1.1])
    assert rope_score(q, k, 9, 9) == pytest.approx(q @ k, abs=1e-12)
    assert rope_score(q, k, 3, 0) != pytest.approx(q @ k, abs=1e-3)


def test_shift_defects_reject_negative_positions():
    with pytest.raises(MathcoreError, match="shifts"):
        shift_score_defects([1.0, 0.0], [1.0, 0.0], 1, 2, [-3])


def _weights(d, seed):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(3)]


@given(T=st.integers(2, 6), h=st.integers(1, 3), seed=st.integers(0, 1000), s=st.integers(1, 500))
def test_shifting_the_sequence_keeps_the_outputs_when_v_is_left_alone(T, h, seed, s):
    d = 2 * h
    X = np.random.default_rng(seed + 1).normal(size=(T, d))
    Wq, Wk, Wv = _weights(d, seed)
    assert shift_output_defect(X, Wq, Wk, Wv, s) <= 1e-9


def test_a_rotated_v_makes_the_outputs_depend_on_absolute_position():
    X = np.random.default_rng(0).normal(size=(5, 4))
    Wq, Wk, Wv = _weights(4, 1)
    assert shift_output_defect(X, Wq, Wk, Wv, 3, rotate_v=True) > 0.1
    assert shift_output_defect(X, Wq, Wk, Wv, 0, rotate_v=True) == 0.0


def test_rope_attention_at_position_zero_only_is_plain_attention():
    X = np.random.default_rng(2).normal(size=(1, 4))
    Wq, Wk, Wv = _weights(4, 3)
    tr = rope_self_attention_trace(X, Wq, Wk, Wv)
    np.testing.assert_allclose(tr.output, self_attention(X, Wq, Wk, Wv)[0], atol=1e-12)
    np.testing.assert_allclose(tr.Q, apply_rope(X @ Wq), atol=1e-12)


@given(T=st.integers(2, 12), h=half, seed=st.integers(0, 100))
def test_relative_grid_is_toeplitz_for_any_content(T, h, seed):
    from mathcore import relative_score_grid

    rng = np.random.default_rng(seed)
    G = relative_score_grid(rng.normal(size=2 * h), rng.normal(size=2 * h), T)
    assert toeplitz_defect(G) <= 1e-9


def test_rope_attention_rejects_mismatched_weights():
    with pytest.raises(MathcoreError, match="Wk must have 4 rows"):
        rope_self_attention_trace(np.ones((3, 4)), np.eye(4), np.eye(3), np.eye(4))
    with pytest.raises(MathcoreError, match="shift"):
        shift_output_defect(np.ones((3, 4)), np.eye(4), np.eye(4), np.eye(4), -1)
