"""Properties of mathcore.positions: sinusoidal, learned-absolute and rotary positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcore import (
    MathcoreError,
    OddDimensionError,
    PositionError,
    PositionOutOfRangeError,
    apply_rope,
    learned_absolute_position,
    learned_absolute_table,
    my_sinusoidal_position,
    rope_angle_grid,
    rope_frequencies,
    sinusoidal_wavelengths,
)

seeds = st.integers(0, 2**32 - 1)
bases = st.sampled_from([10000.0, 500000.0, 100.0, 1.5])
even_d = st.integers(1, 8).map(lambda h: 2 * h)


# ---------------------------------------------------------------- sinusoidal
@given(st.integers(1, 60), st.integers(1, 17), bases)
def test_sinusoidal_layout_even_sin_odd_cos(T, d, base):
    pe = my_sinusoidal_position(T, d, base)
    assert pe.shape == (T, d)
    for pos in (0, T // 2, T - 1):
        for col in range(d):
            i = col // 2
            angle = pos / base ** (2 * i / d)
            expect = np.sin(angle) if col % 2 == 0 else np.cos(angle)
            assert abs(pe[pos, col] - expect) <= 1e-12, (pos, col)
    assert np.all(np.abs(pe) <= 1.0)


@given(st.integers(1, 17))
def test_sinusoidal_position_zero_is_sin0_cos0(d):
    row = my_sinusoidal_position(1, d)[0]
    assert np.array_equal(row, np.array([0.0 if c % 2 == 0 else 1.0 for c in range(d)]))


@given(st.integers(1, 9).map(lambda h: 2 * h + 1), st.integers(1, 30))
def test_sinusoidal_odd_d_ends_with_a_sine(d, T):
    pe = my_sinusoidal_position(T, d)
    angle = np.arange(T) / 10000.0 ** ((d - 1) / d)
    np.testing.assert_allclose(pe[:, -1], np.sin(angle), rtol=0, atol=1e-12)
    # an even-width table has one cosine more per pair: each (sin, cos) pair has unit norm
    np.testing.assert_allclose(pe[:, 0] ** 2 + pe[:, 1] ** 2, 1.0, atol=1e-12)


@given(st.integers(2, 40), st.integers(1, 12))
def test_sinusoidal_prefix_rows_do_not_depend_on_T(T, d):
    assert np.array_equal(my_sinusoidal_position(T, d)[: T - 1], my_sinusoidal_position(T - 1, d))


@given(st.integers(1, 16), bases)
def test_sinusoidal_wavelengths(d, base):
    w = sinusoidal_wavelengths(d, base)
    assert w.shape == ((d + 1) // 2,)
    np.testing.assert_allclose(w, 2 * np.pi * base ** (np.arange(0, d, 2) / d), rtol=1e-15)
    assert np.all(np.diff(w) > 0)


# ---------------------------------------------------------------- learned absolute
@given(st.integers(1, 64), st.integers(1, 8), st.integers(64, 200), seeds)
def test_learned_position_is_prefix_of_seeded_table(T, d, n_max, seed):
    rows = learned_absolute_position(T, d, n_max=n_max, seed=seed)
    table = learned_absolute_table(d, n_max=n_max, seed=seed)
    assert rows.shape == (T, d) and table.shape == (n_max, d)
    assert np.array_equal(rows, table[:T])
    assert np.array_equal(table, learned_absolute_table(d, n_max=n_max, seed=seed))


def test_learned_table_other_seed_other_table():
    assert not np.array_equal(learned_absolute_table(8, 64, seed=0), learned_absolute_table(8, 64, seed=1))


@pytest.mark.parametrize("seed", [0, 7])
def test_learned_table_is_gpt2_init_std_002(seed):
    table = learned_absolute_table(64, n_max=1024, seed=seed)
    assert abs(table.std() - 0.02) < 0.0005
    assert abs(table.mean()) < 0.0005


@pytest.mark.parametrize("T, n_max", [(1025, 1024), (9, 8), (2, 1)])
def test_learned_past_n_max_raises_index_and_value_error_naming_n_max(T, n_max):
    with pytest.raises(PositionOutOfRangeError) as ei:
        learned_absolute_position(T, 4, n_max=n_max)
    err = ei.value
    assert isinstance(err, IndexError) and isinstance(err, ValueError)
    assert f"n_max={n_max}" in str(err) and f"T={T}" in str(err)
    assert "\n" not in str(err)
    for exc in (IndexError, ValueError):
        with pytest.raises(exc):
            learned_absolute_position(T, 4, n_max=n_max)


def test_learned_at_exactly_n_max_is_the_whole_table():
    assert np.array_equal(learned_absolute_position(16, 4, n_max=16, seed=3), learned_absolute_table(4, 16, seed=3))


# ---------------------------------------------------------------- RoPE angles
@given(st.integers(1, 50), even_d, bases)
def test_rope_angle_grid_formula(T, d, base):
    g = rope_angle_grid(T, d, base)
    assert g.shape == (T, d // 2)
    m = np.arange(T)[:, None]
    i = np.arange(d // 2)[None, :]
    np.testing.assert_allclose(g, m * base ** (-2.0 * i / d), rtol=1e-14, atol=0)
    assert np.all(g[0] == 0.0)
    np.testing.assert_allclose(g[:, 0], np.arange(T), rtol=0, atol=0)  # pair 0 turns 1 rad per position
    assert np.array_equal(rope_frequencies(d, base), base ** (-np.arange(0, d, 2, dtype=float) / d))


@pytest.mark.parametrize("d", [3, 7, 65])
def test_rope_angle_grid_odd_d_names_d(d):
    with pytest.raises(OddDimensionError, match=f"d must be even .* got d={d}") as ei:
        rope_angle_grid(4, d)
    assert isinstance(ei.value, ValueError)


def test_rope_angle_grid_d1_is_rejected_naming_d():
    with pytest.raises(MathcoreError, match="got d=1"):
        rope_angle_grid(4, 1)


# ---------------------------------------------------------------- apply_rope
def rope_inputs(seed: int, T: int, d: int):
    return np.random.default_rng(seed).normal(size=(T, d))


@given(seeds, st.integers(1, 12), even_d, bases)
def test_apply_rope_preserves_each_pair_norm(seed, T, d, base):
    X = rope_inputs(seed, T, d)
    R = apply_rope(X, base=base)
    assert R.shape == X.shape
    np.testing.assert_allclose(np.hypot(R[:, 0::2], R[:, 1::2]), np.hypot(X[:, 0::2], X[:, 1::2]), rtol=1e-13, atol=1e-15)


@given(seeds, st.integers(1, 12), even_d)
def test_apply_rope_position_zero_is_identity(seed, T, d):
    X = rope_inputs(seed, T, d)
    assert np.array_equal(apply_rope(X, positions=np.zeros(T)), X)
    assert np.array_equal(apply_rope(X[:1])[0], X[0])  # default positions start at 0


@given(seeds, st.integers(1, 12), even_d, bases)
def test_apply_rope_default_positions_are_arange(seed, T, d, base):
    X = rope_inputs(seed, T, d)
    assert np.array_equal(apply_rope(X, base=base), apply_rope(X, positions=np.arange(T), base=base))


@given(seeds, even_d, bases)
def test_apply_rope_rotates_pair_i_by_m_theta_i(seed, d, base):
    x = rope_inputs(seed, 1, d)
    m = 5.0
    R = apply_rope(x, positions=[m], base=base)[0]
    for i, th in enumerate(rope_frequencies(d, base)):
        c, s = np.cos(m * th), np.sin(m * th)
        a, b = x[0, 2 * i], x[0, 2 * i + 1]
        np.testing.assert_allclose(R[2 * i : 2 * i + 2], [a * c - b * s, a * s + b * c], rtol=0, atol=1e-14)


@settings(max_examples=40)
@given(seeds, even_d, bases, st.integers(0, 500), st.integers(0, 500), st.integers(-200, 200))
def test_rope_scores_depend_only_on_offset(seed, d, base, m, n, shift):
    q, k = rope_inputs(seed, 2, d)
    s = max(-min(m, n), shift)  # keep positions >= 0
    a = apply_rope(q[None], [m], base)[0] @ apply_rope(k[None], [n], base)[0]
    b = apply_rope(q[None], [m + s], base)[0] @ apply_rope(k[None], [n + s], base)[0]
    assert abs(a - b) < 1e-12 * max(1.0, np.linalg.norm(q) * np.linalg.norm(k))


def half_split_rope(X, positions, base):
    """Reference half-split (GPT-NeoX / HF LLaMA) RoPE: feature i pairs with i + d/2."""
    d = X.shape[1]
    h = d // 2
    theta = base ** (-np.arange(0, d, 2, dtype=float) / d)
    ang = np.asarray(positions, float)[:, None] * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = X[:, :h], X[:, h:]
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=1)


@given(seeds, st.integers(1, 10), even_d, bases)
def test_interleaved_maps_to_half_split_by_permuting_features(seed, T, d, base):
    X = rope_inputs(seed, T, d)
    perm = np.r_[np.arange(0, d, 2), np.arange(1, d, 2)]  # [0, 2, 4, ..., 1, 3, 5, ...] as the docstring says
    pos = np.arange(T) * 3.0
    interleaved = apply_rope(X, pos, base)
    np.testing.assert_allclose(half_split_rope(X[:, perm], pos, base), interleaved[:, perm], rtol=0, atol=1e-13)
    # so scores agree when q and k are permuted alike
    Y = rope_inputs(seed + 1, T, d)
    np.testing.assert_allclose(
        half_split_rope(X[:, perm], pos, base) @ half_split_rope(Y[:, perm], pos, base).T,
        interleaved @ apply_rope(Y, pos, base).T, rtol=0, atol=1e-12,
    )


def test_apply_rope_is_not_half_split_without_the_permutation():
    X = rope_inputs(0, 4, 6)
    assert not np.allclose(half_split_rope(X, np.arange(4), 10000.0), apply_rope(X))


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("positions, pattern, exc", [
    ([0, 1], r"length 3 \(one per row\), got shape \(2,\)", PositionError),
    ([[0, 1, 2]], r"got shape \(1, 3\)", PositionError),
    ([0, -1, 2], r"finite and >= 0, got -1\.0", PositionError),
    ([0, np.nan, 2], r"finite and >= 0, got nan", PositionError),
    ([0, np.inf, 2], r"finite and >= 0, got inf", PositionError),
    (["a", "b", "c"], r"must be numbers, got dtype <U1", PositionError),
    ([True, False, True], r"must be numbers, got dtype bool", PositionError),
])
def test_apply_rope_rejects_bad_positions(positions, pattern, exc):
    with pytest.raises(exc, match=pattern):
        apply_rope(np.ones((3, 4)), positions=positions)


def test_apply_rope_rejects_odd_d_naming_it():
    with pytest.raises(OddDimensionError, match="got d=5"):
        apply_rope(np.ones((3, 5)))


def test_apply_rope_rejects_non_finite_X():
    X = np.ones((2, 4))
    X[0, 3] = np.inf
    with pytest.raises(ValueError, match=r"got inf at index \(0, 3\)"):
        apply_rope(X)


@pytest.mark.parametrize("base", [1.0, 0.5, -10.0, np.inf, np.nan, "ten"])
@pytest.mark.parametrize("fn", [
    lambda b: my_sinusoidal_position(4, 4, b),
    lambda b: rope_angle_grid(4, 4, b),
    lambda b: apply_rope(np.ones((2, 4)), base=b),
    lambda b: sinusoidal_wavelengths(4, b),
])
def test_base_must_exceed_one_naming_it(fn, base):
    with pytest.raises(MathcoreError, match=f"base must be a .*number > 1, got (base=)?{base!r}"):
        fn(base)


@pytest.mark.parametrize("fn, name, bad", [
    (lambda v: my_sinusoidal_position(v, 4), "T", 0),
    (lambda v: my_sinusoidal_position(4, v), "d", 0),
    (lambda v: my_sinusoidal_position(v, 4), "T", 2.0),
    (lambda v: rope_angle_grid(v, 4), "T", -1),
    (lambda v: learned_absolute_position(v, 4), "T", 0),
    (lambda v: learned_absolute_position(4, 4, n_max=v), "n_max", 0),
    (lambda v: learned_absolute_table(v), "d", True),
])
def test_sizes_must_be_positive_integers_naming_them(fn, name, bad):
    with pytest.raises(MathcoreError, match=f"{name} must be an integer >= ") as ei:
        fn(bad)
    assert repr(bad) in str(ei.value) or f"{name}={bad}" in str(ei.value)
