"""Properties of mathcore.measure: prefix invariance, KV cache, staleness, dilution, extrapolation, RoPE grids."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathcore import (
    MathcoreError,
    OddDimensionError,
    PositionOutOfRangeError,
    ShapeError,
    apply_rope,
    attention_fn,
    bidirectional_staleness,
    cosine_to_first,
    extrapolation_report,
    kv_cache_decode,
    learned_absolute_position,
    learned_absolute_table,
    lecture_inputs,
    my_sinusoidal_position,
    neighbour_similarity,
    prefix_defects,
    prefix_invariance_max_defect,
    relative_score_grid,
    rope_angle_grid,
    rope_frequencies,
    rope_training_coverage,
    rope_unseen_pairs,
    self_attention,
    sinusoidal_dilution,
    toeplitz_defect,
)

seeds = st.integers(0, 2**32 - 1)
TWO_PI = 2 * np.pi


def gaussian_inputs(seed: int, T: int, d: int, d_k: int | None = None, d_v: int | None = None):
    """Unrounded inputs, so no accidental exactness from 1-decimal values."""
    rng = np.random.default_rng(seed)
    d_k = d if d_k is None else d_k
    d_v = d if d_v is None else d_v
    s = 1 / np.sqrt(d)
    return rng.normal(size=(T, d)), rng.normal(0, s, (d, d_k)), rng.normal(0, s, (d, d_k)), rng.normal(0, s, (d, d_v))


# ---------------------------------------------------------------- prefix invariance
def test_fixed_kernel_is_bitwise_prefix_invariant_at_T_256():
    X, Wq, Wk, Wv = gaussian_inputs(2024, 256, 8)
    defects = prefix_defects(attention_fn(Wq, Wk, Wv, causal=True), X)
    assert defects.shape == (256,)
    assert prefix_invariance_max_defect(attention_fn(Wq, Wk, Wv, causal=True), X) == 0.0
    assert np.all(defects == 0.0)


@settings(max_examples=25)
@given(seeds, st.integers(1, 40), st.integers(1, 8), st.integers(1, 6), st.integers(1, 6))
def test_fixed_kernel_prefix_invariance_is_exactly_zero(seed, T, d, d_k, d_v):
    X, Wq, Wk, Wv = gaussian_inputs(seed, T, d, d_k, d_v)
    X = X * 10.0 ** np.random.default_rng(seed).integers(-3, 4)  # also large and small scores
    assert prefix_invariance_max_defect(attention_fn(Wq, Wk, Wv, causal=True), X) == 0.0


@settings(max_examples=20)
@given(seeds, st.integers(1, 40), st.sampled_from([2, 4, 8]))
def test_blas_kernel_prefix_defect_is_rounding_noise(seed, T, d):
    X, Wq, Wk, Wv = gaussian_inputs(seed, T, d)
    assert 0.0 <= prefix_invariance_max_defect(attention_fn(Wq, Wk, Wv, causal=True, kernel="blas"), X) < 1e-12


def test_blas_kernel_prefix_defect_can_be_non_zero():
    """Documents why the fixed kernel exists: plain matmul + np.sum (pairwise, blocked by shape) sums a
    row of the (T, T) problem in another order than the same row of the (t, t) problem, so the cached
    prefix differs in the last bits (about 1e-16) for some inputs.  The fixed kernel never does."""
    found = []
    for seed in range(8):
        li = lecture_inputs(24, 4, seed)
        blas = prefix_invariance_max_defect(attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas"), li.X)
        fixed = prefix_invariance_max_defect(attention_fn(li.Wq, li.Wk, li.Wv, causal=True), li.X)
        assert fixed == 0.0 and blas < 1e-12
        found.append(blas)
    assert max(found) > 0.0, found


def test_bidirectional_attention_is_not_prefix_invariant():
    X, Wq, Wk, Wv = gaussian_inputs(5, 8, 4)
    d = prefix_defects(attention_fn(Wq, Wk, Wv, causal=False), X)
    assert d[-1] == 0.0  # t = T compares attn(X) with itself
    assert d[0] > 1e-3


def test_prefix_defects_entry_t_minus_1_is_max_over_first_t_rows():
    X = np.arange(12.0).reshape(4, 3)

    def f(Z):  # row i depends on the number of rows: not prefix-invariant
        return Z + Z.shape[0]

    d = prefix_defects(f, X)
    assert d.tolist() == [3.0, 2.0, 1.0, 0.0]
    assert prefix_invariance_max_defect(f, X) == 3.0


# ---------------------------------------------------------------- KV cache
@settings(max_examples=20)
@given(seeds, st.integers(1, 16), st.integers(1, 6), st.integers(1, 5), st.integers(1, 5))
def test_kv_cache_matches_recompute_bitwise(seed, T, d, d_k, d_v):
    X, Wq, Wk, Wv = gaussian_inputs(seed, T, d, d_k, d_v)
    tr = kv_cache_decode(X, Wq, Wk, Wv)
    assert tr.max_defect == 0.0
    assert len(tr.steps) == T
    assert np.array_equal(tr.Y_cached, tr.Y_full)
    assert np.array_equal(tr.Y_full, self_attention(X, Wq, Wk, Wv, causal=True)[0])
    prev = None
    for t, s in enumerate(tr.steps):
        assert s.t == t and s.recompute_defect == 0.0
        assert s.q.shape == (d_k,) and s.K_cache.shape == (t + 1, d_k) and s.V_cache.shape == (t + 1, d_v)
        assert s.weights.shape == (t + 1,) and s.y.shape == (d_v,)
        np.testing.assert_allclose(s.weights.sum(), 1.0, atol=1e-12)
        np.testing.assert_allclose(s.q, X[t] @ Wq, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s.K_cache[t], X[t] @ Wk, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s.V_cache[t], X[t] @ Wv, rtol=0, atol=1e-12)
        assert np.array_equal(s.y, tr.Y_cached[t])
        if prev is not None:  # only one new row per step: the cache's past rows are reused untouched
            assert np.array_equal(s.K_cache[:t], prev.K_cache)
            assert np.array_equal(s.V_cache[:t], prev.V_cache)
        prev = s


def test_kv_cache_on_64_lecture_tokens_is_exact():
    li = lecture_inputs(64, 4, 7)
    assert kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv).max_defect == 0.0


@settings(max_examples=10)
@given(seeds, st.integers(1, 24))
def test_kv_cache_blas_kernel_is_close(seed, T):
    X, Wq, Wk, Wv = gaussian_inputs(seed, T, 4)
    tr = kv_cache_decode(X, Wq, Wk, Wv, kernel="blas")
    assert 0.0 <= tr.max_defect < 1e-12
    np.testing.assert_allclose(tr.Y_cached, tr.Y_full, rtol=0, atol=1e-12)


@pytest.mark.parametrize("shapes, pattern", [
    (((3, 4), (4, 4), (4, 4)), r"Wq must have 4 rows to match X of shape \(3, 4\), got shape \(3, 4\)"),
    (((4, 4), (4, 4), (5, 4)), r"Wv must have 4 rows .* got shape \(5, 4\)"),
    (((4, 2), (4, 3), (4, 4)), r"share d_k, got shapes \(4, 2\) and \(4, 3\)"),
])
def test_kv_cache_rejects_weight_shapes_naming_them(shapes, pattern):
    with pytest.raises(ShapeError, match=pattern):
        kv_cache_decode(np.ones((3, 4)), *[np.ones(s) for s in shapes])


def test_kv_cache_rejects_bad_kernel_naming_it():
    with pytest.raises(MathcoreError, match="got kernel='exact'"):
        kv_cache_decode(np.ones((3, 2)), np.eye(2), np.eye(2), np.eye(2), kernel="exact")


# ---------------------------------------------------------------- bidirectional staleness
@settings(max_examples=20)
@given(seeds, st.integers(2, 10), st.sampled_from([2, 4]))
def test_bidirectional_staleness_measures_moved_past_rows(seed, T, d):
    X, Wq, Wk, Wv = gaussian_inputs(seed, T, d)
    st_ = bidirectional_staleness(X, Wq, Wk, Wv)
    assert len(st_) == T - 1
    for t, row in enumerate(st_, start=1):
        assert row.shape == (t,)
        cur = self_attention(X[: t + 1], Wq, Wk, Wv)[0][:t]
        old = self_attention(X[:t], Wq, Wk, Wv)[0]
        np.testing.assert_allclose(row, np.linalg.norm(cur - old, axis=1), rtol=1e-12, atol=1e-15)
        assert np.all(row > 0.0)  # appending a distinct token moves every past output


def test_bidirectional_staleness_is_zero_when_the_new_token_repeats_all_previous():
    # all tokens equal: every output is v regardless of T, so nothing goes stale
    X = np.tile([[0.3, -1.2]], (5, 1))
    st_ = bidirectional_staleness(X, np.eye(2), np.eye(2), np.eye(2))
    assert all(np.all(r == 0.0) for r in st_)


# ---------------------------------------------------------------- sinusoidal dilution
@given(st.integers(1, 300), st.lists(st.integers(2, 40), min_size=1, max_size=3), st.sampled_from([10000.0, 100.0]))
def test_sinusoidal_dilution_equals_direct_cosines(t_max, widths, base):
    t, cos = sinusoidal_dilution(t_max, widths, base)
    assert t.shape == (t_max,) and cos.shape == (len(widths), t_max)
    assert t[0] == 1 and t[-1] == t_max
    for row, d in zip(cos, widths):
        P = my_sinusoidal_position(t_max + 1, d, base)
        direct = np.array([P[0] @ P[k] / (np.linalg.norm(P[0]) * np.linalg.norm(P[k])) for k in t])
        np.testing.assert_allclose(row, direct, rtol=0, atol=1e-12)
        assert np.all(np.abs(row) <= 1 + 1e-12)
        # t = 0 is left out: it would be exactly cos(P[0], P[0]) = 1
        assert abs(cosine_to_first(P)[0] - 1.0) < 1e-15


def test_sinusoidal_dilution_lecture_range():
    t, cos = sinusoidal_dilution(10000, (16, 64, 256))
    assert cos.shape == (3, 10000)
    assert np.all(cos < 1.0)
    assert np.all(cos[:, 0] > 0.5)  # the neighbour of position 0 still looks alike


@given(st.integers(1, 32).map(lambda h: 2 * h), st.integers(0, 500))
def test_neighbour_similarity_is_the_same_for_every_t(d, t):
    P = my_sinusoidal_position(t + 2, d)
    direct = P[t] @ P[t + 1] / (np.linalg.norm(P[t]) * np.linalg.norm(P[t + 1]))
    assert abs(neighbour_similarity(d) - direct) < 1e-12


def test_neighbour_similarity_rejects_odd_d_naming_it():
    # with odd d the lone last sine makes cos(P[t], P[t+1]) depend on t, so no single value exists
    P = my_sinusoidal_position(3, 3)
    cos = [P[t] @ P[t + 1] / (np.linalg.norm(P[t]) * np.linalg.norm(P[t + 1])) for t in (0, 1)]
    assert abs(cos[0] - cos[1]) > 1e-7
    with pytest.raises(OddDimensionError, match="got d=3"):
        neighbour_similarity(3)


def test_sinusoidal_dilution_errors():
    with pytest.raises(MathcoreError, match="at least one width"):
        sinusoidal_dilution(10, [])
    with pytest.raises(MathcoreError, match="got d=1"):
        sinusoidal_dilution(10, [16, 1])
    with pytest.raises(MathcoreError, match="t_max=0"):
        sinusoidal_dilution(0)


def test_cosine_to_first_rejects_a_zero_row_naming_it():
    P = np.ones((4, 2))
    P[2] = 0.0
    with pytest.raises(MathcoreError, match="row 2 is zero"):
        cosine_to_first(P)


# ---------------------------------------------------------------- RoPE unseen pairs
rope_cfg = st.tuples(st.integers(1, 16).map(lambda h: 2 * h), st.integers(2, 256),
                     st.sampled_from([10000.0, 500000.0, 100.0]))


@given(rope_cfg)
def test_no_unseen_pairs_inside_training(cfg):
    d, L, base = cfg
    assert not rope_unseen_pairs(np.arange(L), d, L, base).any()


@given(rope_cfg, st.lists(st.integers(0, 10**7), min_size=1, max_size=20))
def test_fast_pairs_are_never_unseen(cfg, positions):
    d, L, base = cfg
    u = rope_unseen_pairs(positions, d, L, base)
    assert u.shape == (len(positions), d // 2)
    fast = L * rope_frequencies(d, base) >= TWO_PI
    assert not u[:, fast].any()


@given(rope_cfg, st.integers(0, 10**6))
def test_unseen_before_first_wrap_and_slower_pairs_follow(cfg, extra):
    """A slow pair i at position m >= L with m·θ_i < 2π has an angle past its training arc; every
    slower pair j > i (smaller θ_j) is then in the same situation, so unseen pairs form a suffix."""
    d, L, base = cfg
    m = L + extra
    theta = rope_frequencies(d, base)
    u = rope_unseen_pairs([m], d, L, base)[0]
    slow = L * theta < TWO_PI
    before_wrap = m * theta < TWO_PI
    assert np.all(u[slow & before_wrap])
    idx = np.flatnonzero(slow & before_wrap)
    if idx.size:
        assert np.all(u[idx[0]:])


@given(rope_cfg, st.integers(0, 10**6))
def test_unseen_means_angle_beyond_training_reach(cfg, m):
    d, L, base = cfg
    theta = rope_frequencies(d, base)
    u = rope_unseen_pairs([m], d, L, base)[0]
    angle = np.mod(m * theta, TWO_PI)
    reach = rope_training_coverage(d, L, base)
    np.testing.assert_allclose(reach, (L - 1) * theta, rtol=1e-15)
    assert np.all(angle[u] > reach[u])
    assert np.all((angle[~u] <= reach[~u] + 1e-12) | (L * theta[~u] >= TWO_PI))


def test_lecture_rope_unseen_pairs_exist_past_train_length():
    u = rope_unseen_pairs([64, 1000, 4096], 64, 64)
    assert u[:, -1].all()  # the slowest pair never wrapped: every new position is new to it
    assert not u[:, 0].any()  # pair 0 turns 1 rad per position: it wrapped in training


@pytest.mark.parametrize("positions", [[-1], [], [np.nan], [[1, -2]]])
def test_rope_unseen_pairs_rejects_bad_positions_naming_them(positions):
    with pytest.raises(MathcoreError, match="positions must be .* got"):
        rope_unseen_pairs(positions, 4, 8)


def test_rope_unseen_pairs_rejects_odd_d():
    with pytest.raises(OddDimensionError, match="got d=5"):
        rope_unseen_pairs([1], 5, 8)


# ---------------------------------------------------------------- extrapolation report
@given(st.lists(st.integers(0, 3000), min_size=1, max_size=8), st.sampled_from([8, 64, 1024]),
       st.integers(1, 6).map(lambda h: 2 * h), seeds)
def test_extrapolation_report(positions, n_max, d, seed):
    r = extrapolation_report(positions, d, n_max=n_max, seed=seed)
    table = learned_absolute_table(d, n_max, seed)
    assert r.n_max == n_max and r.positions.tolist() == positions
    assert r.learned_defined.tolist() == [m < n_max for m in positions]
    for m, row in zip(positions, r.learned):
        if m < n_max:
            assert np.array_equal(row, table[m])
        else:
            assert row is None
    if any(m >= n_max for m in positions):
        assert f"n_max={n_max}" in r.learned_error
        first = next(m for m in positions if m >= n_max)
        assert f"position {first}" in r.learned_error
        with pytest.raises(PositionOutOfRangeError, match=f"n_max={n_max}"):
            learned_absolute_position(max(positions) + 1, d, n_max=n_max, seed=seed)
    else:
        assert r.learned_error == ""
    assert r.sinusoidal.shape == (len(positions), d) and np.all(np.isfinite(r.sinusoidal))
    assert r.rope_angles.shape == (len(positions), d // 2) and np.all(np.isfinite(r.rope_angles))
    top = max(positions) + 1
    assert np.array_equal(r.sinusoidal, my_sinusoidal_position(top, d)[positions])
    assert np.array_equal(r.rope_angles, rope_angle_grid(top, d)[positions])


@pytest.mark.parametrize("positions", [[1.5], [-1], [], [[1, 2]], [True]])
def test_extrapolation_report_rejects_bad_positions_naming_them(positions):
    with pytest.raises(MathcoreError, match=r"positions must be .* got " + repr(positions).replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        extrapolation_report(positions, 4)


# ---------------------------------------------------------------- relative scores
@settings(max_examples=25)
@given(seeds, st.integers(1, 8).map(lambda h: 2 * h), st.integers(1, 40), st.sampled_from([10000.0, 100.0, 2.0]))
def test_rope_score_grid_is_toeplitz(seed, d, T, base):
    q, k = np.random.default_rng(seed).normal(size=(2, d))
    G = relative_score_grid(q, k, T, base)
    assert G.shape == (T, T)
    assert toeplitz_defect(G) < 1e-12 * max(1.0, np.abs(G).max())
    Qr = apply_rope(np.tile(q, (T, 1)), base=base)
    Kr = apply_rope(np.tile(k, (T, 1)), base=base)
    np.testing.assert_allclose(G, Qr @ Kr.T, rtol=0, atol=1e-12)


@given(seeds, st.integers(2, 12))
def test_toeplitz_defect_of_exact_toeplitz_is_zero_and_of_random_is_large(seed, T):
    c = np.random.default_rng(seed).normal(size=2 * T - 1)
    i, j = np.indices((T, T))
    M = c[i - j + T - 1]
    assert toeplitz_defect(M) == 0.0
    R = np.random.default_rng(seed + 1).normal(size=(T, T))
    assert toeplitz_defect(R) > 0.01
    bumped = M.copy()
    bumped[T - 1, T - 1] += 0.5  # one entry off its main diagonal's value
    assert abs(toeplitz_defect(bumped) - 0.5) < 1e-12


def test_absolute_position_scores_are_not_toeplitz():
    q, k = np.random.default_rng(3).normal(size=(2, 8))
    P = my_sinusoidal_position(12, 8)
    G = (q + P) @ (k + P).T
    assert toeplitz_defect(G) > 0.05


def test_relative_score_grid_rejects_mismatched_q_k_naming_shapes():
    with pytest.raises(ShapeError, match=r"k must have 4 columns, got shape \(1, 6\)"):
        relative_score_grid(np.ones(4), np.ones(6), 5)


def test_relative_score_grid_rejects_non_finite_q():
    with pytest.raises(ValueError, match=r"q must hold finite numbers, got nan"):
        relative_score_grid([1.0, np.nan], [1.0, 0.0], 3)


def test_relative_score_grid_rejects_odd_d():
    with pytest.raises(OddDimensionError, match="got d=3"):
        relative_score_grid(np.ones(3), np.ones(3), 4)


def test_toeplitz_defect_rejects_non_square_naming_shape():
    with pytest.raises(ShapeError, match=r"square \(T, T\), got shape \(2, 5\)"):
        toeplitz_defect(np.ones((2, 5)))
