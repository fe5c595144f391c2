"""Properties of mathcore.attention: softmax, causal_mask, the attention trace, both kernels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mathcore import (
    KERNELS,
    AttentionTrace,
    MathcoreError,
    NonFiniteError,
    ShapeError,
    attention,
    attention_fn,
    causal_mask,
    matmul,
    self_attention,
    self_attention_trace,
    softmax,
)

finite = st.floats(-30.0, 30.0, allow_nan=False, allow_infinity=False)
seeds = st.integers(0, 2**32 - 1)
small_T = st.integers(1, 10)
small_d = st.integers(1, 6)


def rand(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape)


def qkv(seed: int, T_q: int, T_k: int, d_k: int, d_v: int):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(T_q, d_k)), rng.normal(size=(T_k, d_k)), rng.normal(size=(T_k, d_v))


def weights(seed: int, d: int, d_k: int | None = None, d_v: int | None = None):
    rng = np.random.default_rng([seed, 99])
    d_k = d if d_k is None else d_k
    d_v = d if d_v is None else d_v
    s = 1 / np.sqrt(d)
    return rng.normal(0, s, (d, d_k)), rng.normal(0, s, (d, d_k)), rng.normal(0, s, (d, d_v))


# ---------------------------------------------------------------- softmax
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6), elements=finite))
def test_softmax_slices_sum_to_one_and_lie_in_unit_interval(x):
    for axis in range(x.ndim):
        s = softmax(x, axis=axis)
        assert s.shape == x.shape
        assert np.all(s >= 0) and np.all(s <= 1)
        np.testing.assert_allclose(s.sum(axis=axis), 1.0, rtol=0, atol=1e-12)


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=6), elements=finite),
       st.floats(-1e3, 1e3, allow_nan=False))
def test_softmax_is_shift_invariant(x, c):
    np.testing.assert_allclose(softmax(x + c), softmax(x), rtol=0, atol=1e-12)


@given(hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(-1.0, 1.0)),
       st.sampled_from([1e3, 7e5, -7e5, 1e6]))
def test_softmax_stays_finite_for_huge_inputs(x, big):
    # exp(1e3) alone overflows; the shifted softmax does not, and matches the unshifted one
    # up to the rounding of x + big (about 1e-10 at 1e6).
    s = softmax(x + big)
    assert np.all(np.isfinite(s))
    np.testing.assert_allclose(s, softmax(x), rtol=0, atol=1e-9)
    np.testing.assert_allclose(s.sum(), 1.0, atol=1e-12)


@given(hnp.arrays(np.float64, st.integers(1, 8), elements=st.floats(-1.0, 1.0)), st.sampled_from([1e300, -1e300, 1e308]))
def test_softmax_of_scaled_huge_inputs_is_finite_and_normalised(x, scale):
    s = softmax(x * scale)
    assert np.all(np.isfinite(s)) and np.all(s >= 0)
    np.testing.assert_allclose(s.sum(), 1.0, atol=1e-12)
    assert s[np.argmax(x * scale)] >= 1.0 / x.size


def test_softmax_huge_gap_is_one_hot():
    assert softmax(np.array([1e308, 0.0, -1e308])).tolist() == [1.0, 0.0, 0.0]


@given(hnp.arrays(np.float64, st.integers(2, 8), elements=finite), st.data())
def test_softmax_minus_inf_gives_exact_zero(x, data):
    k = data.draw(st.integers(0, x.size - 1))
    keep = data.draw(st.integers(0, x.size - 1).filter(lambda j: j != k))
    x = x.copy()
    x[k] = -np.inf
    s = softmax(x)
    assert s[k] == 0.0
    assert s[keep] > 0.0
    rest = np.delete(np.arange(x.size), k)
    np.testing.assert_allclose(s[rest], softmax(x[rest]), rtol=0, atol=1e-15)


def test_softmax_rejects_nan_naming_value_and_index():
    with pytest.raises(NonFiniteError, match=r"nan at index \(1, 0\)"):
        softmax(np.array([[0.0, 1.0], [np.nan, 2.0]]))


def test_softmax_rejects_plus_inf_naming_value():
    with pytest.raises(NonFiniteError, match=r"inf at index \(2,\)"):
        softmax([0.0, 1.0, np.inf])


def test_softmax_rejects_all_minus_inf_slice():
    with pytest.raises(MathcoreError, match="all -inf"):
        softmax(np.array([[0.0, 1.0], [-np.inf, -np.inf]]))


@pytest.mark.parametrize("bad, shape", [(3.0, r"\(\)"), ([], r"\(0,\)")])
def test_softmax_rejects_scalar_and_empty_naming_shape(bad, shape):
    with pytest.raises(ShapeError, match=f"shape {shape}"):
        softmax(bad)


# ---------------------------------------------------------------- causal_mask
@given(st.integers(1, 40))
def test_causal_mask_is_lower_triangle_including_diagonal(T):
    m = causal_mask(T)
    assert m.dtype == np.bool_ and m.shape == (T, T)
    i, j = np.indices((T, T))
    assert np.array_equal(m, j <= i)
    assert m.sum() == T * (T + 1) // 2


@pytest.mark.parametrize("bad", [0, -3, 2.0, True, "4", None])
def test_causal_mask_rejects_bad_T_naming_it(bad):
    with pytest.raises(MathcoreError, match=f"T={bad!r}".replace("(", r"\(").replace(".", r"\.")):
        causal_mask(bad)


# ---------------------------------------------------------------- attention trace
@settings(max_examples=40)
@given(seeds, small_T, small_T, small_d, small_d, st.booleans())
def test_attention_trace_stages(seed, T_q, T_k, d_k, d_v, use_mask):
    Q, K, V = qkv(seed, T_q, T_k, d_k, d_v)
    mask = None
    if use_mask:
        mask = np.random.default_rng(seed + 1).random((T_q, T_k)) < 0.5
        mask[np.arange(T_q), np.random.default_rng(seed + 2).integers(0, T_k, T_q)] = True
    tr = attention(Q, K, V, mask=mask)
    assert isinstance(tr, AttentionTrace)
    assert tr.scores.shape == tr.weights.shape == (T_q, T_k)
    assert tr.output.shape == (T_q, d_v)
    np.testing.assert_allclose(tr.scores, Q @ K.T, rtol=0, atol=1e-12)
    assert np.array_equal(tr.scaled, tr.scores / np.sqrt(d_k))
    if mask is None:
        assert np.array_equal(tr.masked, tr.scaled)
        assert np.all(tr.weights > 0)
    else:
        assert np.all(np.isneginf(tr.masked[~mask]))
        assert np.array_equal(tr.masked[mask], tr.scaled[mask])
        assert np.all(tr.weights[~mask] == 0.0)
        assert np.all(tr.weights[mask] > 0.0)
    np.testing.assert_allclose(tr.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(tr.output, tr.weights @ V, rtol=0, atol=1e-12)


def test_attention_trace_arrays_are_read_only():
    tr = attention(*qkv(0, 3, 4, 2, 5), mask=np.ones((3, 4), bool))
    for name in ("Q", "K", "V", "scores", "scaled", "masked", "weights", "output", "mask"):
        arr = getattr(tr, name)
        assert not arr.flags.writeable, name
        with pytest.raises(ValueError):
            arr[0, 0] = 1.0
    with pytest.raises(AttributeError):
        tr.output = np.zeros((3, 5))


def test_attention_trace_does_not_alias_inputs():
    Q, K, V = qkv(1, 3, 3, 2, 2)
    tr = attention(Q, K, V)
    Q[0, 0] = 99.0
    assert tr.Q[0, 0] != 99.0


@settings(max_examples=40)
@given(seeds, small_T, small_T, small_d, small_d, st.booleans())
def test_fixed_and_blas_kernels_agree(seed, T_q, T_k, d_k, d_v, causal_like):
    Q, K, V = qkv(seed, T_q, T_k, d_k, d_v)
    mask = None
    if causal_like:
        mask = np.tril(np.ones((T_q, T_k), bool))
        mask[:, 0] = True
    a = attention(Q, K, V, mask=mask, kernel="fixed")
    b = attention(Q, K, V, mask=mask, kernel="blas")
    assert a.kernel == "fixed" and b.kernel == "blas"
    for name in ("scores", "scaled", "weights", "output"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=0, atol=1e-12, err_msg=name)


@given(seeds, st.integers(1, 7), st.integers(1, 7), st.integers(1, 7), st.sampled_from(KERNELS))
def test_matmul_matches_numpy(seed, m, k, n, kernel):
    A, B = rand(seed, m, k), rand(seed + 1, k, n)
    np.testing.assert_allclose(matmul(A, B, kernel), A @ B, rtol=0, atol=1e-12)


def test_fixed_matmul_sums_left_to_right():
    # 1e16 + 1 - 1e16: left to right gives (1e16 + 1) - 1e16 = 0 (1 is lost), any other order may keep it.
    A = np.array([[1e16, 1.0, -1e16]])
    B = np.ones((3, 1))
    assert matmul(A, B, "fixed")[0, 0] == (1e16 + 1.0) - 1e16


@pytest.mark.parametrize("A, B", [
    (np.ones((2, 2)), np.ones((3, 2))),
    (np.ones((2, 3)), np.ones((2, 2))),
    (np.ones(3), np.ones((3, 2))),
])
@pytest.mark.parametrize("kernel", KERNELS)
def test_matmul_rejects_mismatched_shapes_naming_them(A, B, kernel):
    with pytest.raises(ShapeError, match=re_shape(A.shape) + " and " + re_shape(B.shape)):
        matmul(A, B, kernel)


def re_shape(shape) -> str:
    return str(tuple(shape)).replace("(", r"\(").replace(")", r"\)")


# ---------------------------------------------------------------- self_attention
@settings(max_examples=40)
@given(seeds, st.integers(1, 10), st.integers(1, 6), st.integers(1, 5), st.integers(1, 5), st.booleans(),
       st.sampled_from(KERNELS))
def test_self_attention_equals_attention_of_projections(seed, T, d, d_k, d_v, causal, kernel):
    X = rand(seed, T, d)
    Wq, Wk, Wv = weights(seed, d, d_k, d_v)
    Y, A = self_attention(X, Wq, Wk, Wv, causal=causal, kernel=kernel)
    ref = attention(X @ Wq, X @ Wk, X @ Wv, mask=causal_mask(T) if causal else None, kernel="blas")
    assert Y.shape == (T, d_v) and A.shape == (T, T)
    np.testing.assert_allclose(A, ref.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(Y, ref.output, rtol=0, atol=1e-12)
    if causal:
        assert np.all(A[~causal_mask(T)] == 0.0)
    tr = self_attention_trace(X, Wq, Wk, Wv, causal=causal, kernel=kernel)
    assert np.array_equal(tr.output, Y) and np.array_equal(tr.weights, A)
    f = attention_fn(Wq, Wk, Wv, causal=causal, kernel=kernel)
    assert np.array_equal(f(X), Y)
    assert kernel in f.__name__


def test_self_attention_first_causal_row_copies_its_value():
    X = rand(3, 5, 4)
    Wq, Wk, Wv = weights(3, 4)
    Y, A = self_attention(X, Wq, Wk, Wv, causal=True)
    assert A[0].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    np.testing.assert_allclose(Y[0], X[0] @ Wv, rtol=0, atol=1e-15)


# ---------------------------------------------------------------- validation errors
def test_attention_rejects_non_2d_Q():
    with pytest.raises(ShapeError, match=r"Q must be a 2-D .* got shape \(3,\)"):
        attention(np.ones(3), np.ones((3, 3)), np.ones((3, 3)))


def test_attention_rejects_empty_K():
    with pytest.raises(ShapeError, match=r"K must be non-empty, got shape \(0, 2\)"):
        attention(np.ones((2, 2)), np.ones((0, 2)), np.ones((0, 2)))


def test_attention_rejects_K_with_other_d_k():
    with pytest.raises(ShapeError, match=r"K must have 3 columns, got shape \(4, 2\)"):
        attention(np.ones((2, 3)), np.ones((4, 2)), np.ones((4, 2)))


def test_attention_rejects_V_row_count():
    with pytest.raises(ShapeError, match=r"K has 4 rows, V has shape \(3, 2\)"):
        attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((3, 2)))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_attention_rejects_non_finite_V_naming_value_and_index(bad):
    V = np.ones((3, 2))
    V[2, 1] = bad
    with pytest.raises(NonFiniteError, match=rf"V must hold finite numbers, got -?{bad!s} at index \(2, 1\)"):
        attention(np.ones((2, 2)), np.ones((3, 2)), V)


def test_attention_rejects_non_bool_mask_naming_dtype():
    with pytest.raises(ShapeError, match="got dtype int64"):
        attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), mask=np.ones((2, 2), dtype=np.int64))


def test_attention_rejects_mask_shape_naming_it():
    with pytest.raises(ShapeError, match=r"mask must have shape \(2, 3\) .* got \(3, 2\)"):
        attention(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 2)), mask=np.ones((3, 2), bool))


def test_attention_rejects_empty_mask_row_naming_it():
    mask = np.array([[True, False], [False, False], [True, True]])
    with pytest.raises(MathcoreError, match="mask row 1 allows no key"):
        attention(np.ones((3, 2)), np.ones((2, 2)), np.ones((2, 2)), mask=mask)


@pytest.mark.parametrize("call", [
    lambda k: attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), kernel=k),
    lambda k: self_attention(np.ones((2, 2)), np.eye(2), np.eye(2), np.eye(2), kernel=k),
    lambda k: attention_fn(np.eye(2), np.eye(2), np.eye(2), kernel=k),
    lambda k: matmul(np.eye(2), np.eye(2), kernel=k),
])
def test_bad_kernel_name_is_rejected_naming_it(call):
    with pytest.raises(MathcoreError, match=r"kernel must be one of fixed, blas, got kernel='fast'"):
        call("fast")


@pytest.mark.parametrize("name, shapes, pattern", [
    ("Wq", ((3, 2), (4, 4), (4, 4)), r"Wq must have 4 rows to match X of shape \(5, 4\), got shape \(3, 2\)"),
    ("Wk", ((4, 4), (2, 4), (4, 4)), r"Wk must have 4 rows .* got shape \(2, 4\)"),
    ("Wv", ((4, 4), (4, 4), (5, 4)), r"Wv must have 4 rows .* got shape \(5, 4\)"),
    ("d_k", ((4, 3), (4, 2), (4, 4)), r"Wq and Wk must share d_k, got shapes \(4, 3\) and \(4, 2\)"),
])
def test_self_attention_rejects_weight_shapes_naming_them(name, shapes, pattern):
    Ws = [np.ones(s) for s in shapes]
    with pytest.raises(ShapeError, match=pattern):
        self_attention(np.ones((5, 4)), *Ws)


def test_self_attention_rejects_non_finite_X():
    X = np.ones((3, 2))
    X[1, 0] = np.nan
    with pytest.raises(NonFiniteError, match=r"X must hold finite numbers, got nan at index \(1, 0\)"):
        self_attention(X, np.eye(2), np.eye(2), np.eye(2))


def test_error_messages_are_one_line():
    for call in (
        lambda: softmax([np.nan]),
        lambda: attention(np.ones((2, 3)), np.ones((4, 2)), np.ones((4, 2))),
        lambda: self_attention(np.ones((5, 4)), np.ones((3, 2)), np.ones((4, 4)), np.ones((4, 4))),
        lambda: matmul(np.ones((2, 2)), np.ones((3, 2))),
    ):
        with pytest.raises(ValueError) as ei:
            call()
        assert "\n" not in str(ei.value) and str(ei.value)
