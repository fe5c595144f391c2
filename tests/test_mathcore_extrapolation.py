"""mathcore.extrapolation: the distance-ambiguity onset and RoPE past the training length."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mathcore import MathcoreError, rope_frequencies, rope_unseen_pairs, sinusoidal_dilution
from mathcore.extrapolation import (
    GPT2,
    LLAMA2,
    LLAMA3,
    ambiguity_onset,
    pair_angles,
    pair_turns,
    ranks_distance,
    training_arcs,
    unseen_pair_counts,
    wrapped_in_training,
)

curves = arrays(np.float64, st.integers(2, 60), elements=st.floats(-1, 1, allow_nan=False))
factors = st.floats(1.0, 5.0)


def brute_onset(c, f):
    n = len(c)
    for t in range(1, n + 1):
        for s in range(max(t + 1, math.ceil(f * t)), n + 1):
            if c[s - 1] >= c[t - 1]:
                return t, s
    return None, None


@given(curves, factors)
def test_onset_matches_the_definition_by_brute_force(c, f):
    o = ambiguity_onset(c, f)
    assert (o.t, o.witness) == brute_onset(c, f)
    if o.t is not None:
        assert o.cos_witness >= o.cos_t
        assert o.witness >= f * o.t


@given(curves, factors, factors)
def test_a_larger_factor_never_makes_the_onset_earlier(c, f1, f2):
    lo, hi = sorted((f1, f2))
    a, b = ambiguity_onset(c, lo).t, ambiguity_onset(c, hi).t
    inf = len(c) + 1
    assert (a if a is not None else inf) <= (b if b is not None else inf)


@given(curves, factors)
def test_ranks_distance_turns_false_first_at_the_onset(c, f):
    r = ranks_distance(c, f)
    o = ambiguity_onset(c, f)
    first_false = int(np.flatnonzero(~r)[0]) + 1 if (~r).any() else None
    assert first_false == o.t


@given(st.integers(2, 200))
def test_a_strictly_falling_curve_ranks_distance_everywhere(n):
    c = np.linspace(1.0, -1.0, n)
    assert ambiguity_onset(c, 1.0).t is None
    assert ranks_distance(c, 1.0).all()


def test_onset_on_the_lecture_dilution_curves_is_real():
    t, cos = sinusoidal_dilution(2000, (16, 64))
    for row in cos:
        o = ambiguity_onset(row, 2.0)
        assert o.t is not None and row[o.witness - 1] >= row[o.t - 1]
        assert np.all(ranks_distance(row, 2.0)[: o.t - 1])


@pytest.mark.parametrize("bad", [0.5, float("nan"), "x", -1])
def test_bad_factor_is_named(bad):
    with pytest.raises(MathcoreError, match="factor"):
        ambiguity_onset([1.0, 0.5, 0.2], bad)


def test_bad_cos_is_named():
    with pytest.raises(MathcoreError, match="cos"):
        ambiguity_onset([1.0], 2)
    with pytest.raises(MathcoreError, match="cos"):
        ambiguity_onset([[1.0, 2.0]], 2)


@given(st.integers(1, 40), st.integers(2, 300), st.floats(100, 1e6))
def test_unseen_counts_are_row_sums_and_zero_inside_training(half_d, L, base):
    d = 2 * half_d
    pos = np.arange(0, 3 * L)
    counts = unseen_pair_counts(pos, d, L, base)
    np.testing.assert_array_equal(counts, rope_unseen_pairs(pos, d, L, base).sum(axis=1))
    assert np.all(counts[:L] == 0)
    assert np.all(counts <= (~wrapped_in_training(d, L, base)).sum())


@given(st.integers(1, 40), st.floats(0, 1e5), st.floats(100, 1e6))
def test_turns_and_angles_recompose_the_total_angle(half_d, m, base):
    d = 2 * half_d
    total = m * rope_frequencies(d, base)
    angles = pair_angles(m, d, base)
    assert np.all((angles >= 0) & (angles < 2 * np.pi))
    np.testing.assert_allclose(pair_turns(m, d, base) * 2 * np.pi + angles, total, rtol=1e-12, atol=1e-9)


@given(st.integers(1, 40), st.integers(2, 300), st.floats(100, 1e6))
def test_training_arcs_cover_every_seen_angle(half_d, L, base):
    d = 2 * half_d
    arcs = training_arcs(d, L, base)
    seen = np.mod(np.arange(L)[:, None] * rope_frequencies(d, base)[None, :], 2 * np.pi)
    assert np.all(seen <= arcs[None, :] + 1e-9)
    np.testing.assert_array_equal(arcs == 2 * np.pi, wrapped_in_training(d, L, base))


def test_position_must_be_non_negative():
    with pytest.raises(MathcoreError, match="position"):
        pair_turns(-1, 8)
    with pytest.raises(MathcoreError, match="position"):
        pair_angles(float("inf"), 8)


def test_the_labelled_facts():
    assert (GPT2.n_max, GPT2.d_model, GPT2.scheme) == (1024, 768, "learned-absolute")
    assert (LLAMA2.head_dim, LLAMA2.rope_base, LLAMA2.n_max, LLAMA2.train_length) == (128, 10000.0, None, 4096)
    assert (LLAMA3.head_dim, LLAMA3.rope_base, LLAMA3.n_max) == (128, 500000.0, None)


@given(st.integers(1, 64), st.integers(2, 10000), st.floats(100, 1e6))
def test_wavelengths_and_pairs_without_a_turn(half_d, L, base):
    from mathcore import sinusoidal_wavelengths
    from mathcore.extrapolation import pairs_without_a_turn, rope_wavelengths

    d = 2 * half_d
    wl = rope_wavelengths(d, base)
    np.testing.assert_allclose(wl, sinusoidal_wavelengths(d, base), rtol=1e-12)
    assert np.all(np.diff(wl) > 0)
    # a pair without a full turn in L positions has a wavelength longer than L (up to rounding at the edge)
    n = pairs_without_a_turn(d, L, base)
    assert n == int(np.sum(L * rope_frequencies(d, base) < 2 * np.pi))
    assert n == int(np.sum(wl > L)) or np.any(np.isclose(wl, L))


# ---------------------------------------------------------------- how far the blur goes (clip 12)
def brute_twins(c, f):
    n = len(c)
    out = []
    for m in range(1, n + 1):
        lo = max(m + 1, math.ceil(f * m))
        if lo > n:
            break
        out.append(any(c[s - 1] >= c[m - 1] for s in range(lo, n + 1)))
    return np.array(out, dtype=bool)


@given(curves, factors)
def test_twins_match_the_definition_by_brute_force(c, f):
    from mathcore.extrapolation import ambiguity_share

    a = ambiguity_share(c, f)
    np.testing.assert_array_equal(a.twins, brute_twins(c, f))
    assert a.horizon == len(a.twins)
    o = ambiguity_onset(c, f)
    assert a.onset == o
    first = int(np.flatnonzero(a.twins)[0]) + 1 if a.twins.any() else None
    assert first == o.t  # the onset is the first position with a twin
    if o.t is None:
        assert a.after == a.checked == 0 and math.isnan(a.share)
    else:
        assert a.checked == a.horizon - o.t and a.after == int(a.twins[o.t:].sum())


def test_past_the_onset_not_every_position_blurs():
    """The lecture's widest width: m* = 172, yet only two in three of the positions 173 to 5 000 have a
    farther twin (what clip 12 once shaded as all blurred)."""
    from mathcore.extrapolation import ambiguity_share

    _, cos = sinusoidal_dilution(10000, (16, 64, 256))
    shares = [ambiguity_share(row, 2.0) for row in cos]
    assert [a.onset.t for a in shares] == [2, 15, 172]
    assert all(a.horizon == 5000 for a in shares)
    wide = shares[2]
    assert wide.checked == 5000 - 172 and 0.66 < wide.share < 0.67
    assert not wide.twins[172:].all()  # some positions past m* still rank distance
    assert shares[0].share > 0.99 and 0.97 < shares[1].share < 0.98


def test_llama3_pairs_without_a_turn_follow_its_own_base_and_train_length():
    from mathcore.extrapolation import pairs_without_a_turn

    assert LLAMA3.train_length == 8192
    assert pairs_without_a_turn(LLAMA2.head_dim, LLAMA2.train_length, LLAMA2.rope_base) == 18
    assert pairs_without_a_turn(LLAMA3.head_dim, LLAMA3.train_length, LLAMA3.rope_base) == 29
