"""mathcore.scheme_compare: the score of one token at positions (m, n) under each positional scheme.

Property tests (hypothesis): the grids are the scores computed position by position; RoPE's grid
depends on m − n only (every shift of both positions leaves it unchanged); the sinusoidal
encodings' dot products do too, while the added schemes' scores in general do not; bad input is
refused naming the value."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathcore import MathcoreError, apply_rope, learned_absolute_position, my_sinusoidal_position, toeplitz_defect
from mathcore.errors import PositionOutOfRangeError
from mathcore.scheme_compare import (
    OFFSET_TOL,
    additive_score_grid,
    offset_only,
    rope_token_score_grid,
    scheme_scores,
)

finite = st.floats(-2, 2, allow_nan=False, allow_infinity=False)
bases = st.sampled_from([100.0, 10000.0, 500000.0, 1e9])


@st.composite
def token_and_weights(draw, even=True):
    h = draw(st.integers(1, 3))
    d = 2 * h if even else draw(st.integers(1, 6))
    x = draw(arrays(np.float64, (d,), elements=finite))
    Wq = draw(arrays(np.float64, (d, d), elements=finite))
    Wk = draw(arrays(np.float64, (d, d), elements=finite))
    return x, Wq, Wk


@given(tw=token_and_weights(even=False), T=st.integers(1, 10), data=st.data())
def test_the_added_score_is_the_dot_product_position_by_position(tw, T, data):
    x, Wq, Wk = tw
    enc = data.draw(arrays(np.float64, (T, x.size), elements=finite))
    S = additive_score_grid(x, Wq, Wk, enc)
    assert S.shape == (T, T)
    for m in range(T):
        for n in range(T):
            q = (x + enc[m]) @ Wq
            k = (x + enc[n]) @ Wk
            assert abs(S[m, n] - float(q @ k)) <= 1e-9 * (1 + abs(float(q @ k)))


@given(tw=token_and_weights(), T=st.integers(2, 16), base=bases)
def test_ropes_score_depends_on_the_offset_only(tw, T, base):
    x, Wq, Wk = tw
    S = rope_token_score_grid(x, Wq, Wk, T, base)
    q = apply_rope(np.repeat((x @ Wq)[None, :], T, axis=0), base=base)
    k = apply_rope(np.repeat((x @ Wk)[None, :], T, axis=0), base=base)
    np.testing.assert_allclose(S, q @ k.T, rtol=0, atol=1e-12 * (1 + np.abs(q @ k.T).max()))
    scale = 1 + float(np.abs(x @ Wq).sum() * np.abs(x @ Wk).sum())
    assert toeplitz_defect(S) <= 1e-13 * scale  # constant diagonals, to rounding
    for s in range(1, T):  # shifting both positions by s changes nothing
        np.testing.assert_allclose(S[s:, s:], S[:-s, :-s], rtol=0, atol=1e-13 * scale)


@given(tw=token_and_weights(), T=st.integers(2, 16), base=bases, n_max=st.integers(16, 64), seed=st.integers(0, 99))
def test_scheme_scores_are_the_three_grids_and_their_measured_defects(tw, T, base, n_max, seed):
    x, Wq, Wk = tw
    sc = scheme_scores(x, Wq, Wk, T, base, n_max, seed)
    PE = my_sinusoidal_position(T, x.size, base)
    E = learned_absolute_position(T, x.size, n_max, seed)
    np.testing.assert_array_equal(sc.sinusoidal, additive_score_grid(x, Wq, Wk, PE))
    np.testing.assert_array_equal(sc.learned, additive_score_grid(x, Wq, Wk, E))
    np.testing.assert_array_equal(sc.rope, rope_token_score_grid(x, Wq, Wk, T, base))
    assert sc.defects == tuple(toeplitz_defect(S) for S in sc.grids)
    # the encodings alone are relative: PE_m · PE_n = Σ cos((m − n) θ_i)
    np.testing.assert_array_equal(sc.encoding_gram, PE @ PE.T)
    assert sc.gram_defect == toeplitz_defect(PE @ PE.T) and sc.gram_defect <= 1e-13 * x.size
    assert sc.relative()[2] == offset_only(sc.defects[2])


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), h=st.integers(1, 3), T=st.integers(4, 16), base=bases)
def test_added_schemes_are_not_relative_for_random_weights(seed, h, T, base):
    """Random weights mix the token and the absolute position: the added schemes' scores vary along
    a diagonal far above rounding, RoPE's never."""
    rng = np.random.default_rng(seed)
    d = 2 * h
    x, Wq, Wk = rng.normal(size=d), rng.normal(size=(d, d)), rng.normal(size=(d, d))
    sc = scheme_scores(x, Wq, Wk, T, base, n_max=T, seed=seed)
    assert sc.defects[0] > 1e-6  # sinusoidal: the cross terms x·W·PE_n are absolute
    assert sc.defects[1] > 1e-6  # learned: a row per position, nothing ties m to m + 1
    assert sc.relative() == (False, False, True)


def test_a_sinusoidal_score_without_content_or_mixing_is_the_encodings_gram():
    T, d = 9, 6
    PE = my_sinusoidal_position(T, d, 10000.0)
    S = additive_score_grid(np.zeros(d), np.eye(d), np.eye(d), PE)
    np.testing.assert_allclose(S, PE @ PE.T, atol=1e-15)
    assert offset_only(toeplitz_defect(S))


def test_the_pass_line_is_the_lectures():
    assert OFFSET_TOL == 1e-10
    assert offset_only(2e-15) and not offset_only(1e-10) and not offset_only(0.3)


def test_bad_input_is_refused_naming_the_value():
    x, W = np.ones(4), np.eye(4)
    with pytest.raises(MathcoreError, match="x must be one token"):
        additive_score_grid(np.ones((2, 4)), W, W, np.zeros((3, 4)))
    with pytest.raises(MathcoreError, match="encodings must have 4 columns"):
        additive_score_grid(x, W, W, np.zeros((3, 5)))
    with pytest.raises(MathcoreError, match="Wq must have 4 rows"):
        additive_score_grid(x, np.eye(3), W, np.zeros((3, 4)))
    with pytest.raises(MathcoreError, match="same width"):
        additive_score_grid(x, W, np.ones((4, 2)), np.zeros((3, 4)))
    with pytest.raises(MathcoreError, match="finite"):
        scheme_scores(np.array([1.0, np.nan]), np.eye(2), np.eye(2), 4)
    with pytest.raises(PositionOutOfRangeError, match="n_max=4"):
        scheme_scores(x, W, W, 5, n_max=4)
    with pytest.raises(MathcoreError, match="even"):
        rope_token_score_grid(np.ones(3), np.eye(3), np.eye(3), 4)
