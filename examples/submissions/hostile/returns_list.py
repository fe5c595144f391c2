"""permutation_matrix builds P as a list of lists, not a NumPy array."""
import numpy as np


def softmax(x, axis=-1):
    x = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def attention(Q, K, V, mask=None):
    """Scaled dot-product attention; mask is bool, True = may attend."""
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    A = softmax(scores, axis=-1)
    return A @ V, A


def self_attention(X, Wq, Wk, Wv, causal=False):
    T = X.shape[0]
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
    return attention(X @ Wq, X @ Wk, X @ Wv, mask)


def permutation_matrix(perm):
    T = len(perm)
    return [[1.0 if j == perm[i] else 0.0 for j in range(T)] for i in range(T)]


def check_equivariance_max_defect(attn, X, n_trials=100, seed=0):
    rng = np.random.default_rng(seed)
    Y = attn(X)
    worst = 0.0
    for _ in range(n_trials):
        P = np.array(permutation_matrix(rng.permutation(X.shape[0])))
        worst = max(worst, np.linalg.norm(attn(P @ X) - P @ Y))
    return worst


def prefix_invariance_max_defect(attn, X):
    Y_full = attn(X)
    return max(np.max(np.abs(Y_full[:t] - attn(X[:t]))) for t in range(1, X.shape[0] + 1))


def my_sinusoidal_position(T, d, base=10000.0):
    pos = np.arange(T)[:, None]
    i = np.arange(0, d, 2)[None, :]
    angle = pos / base ** (i / d)
    PE = np.zeros((T, d))
    PE[:, 0::2] = np.sin(angle)
    PE[:, 1::2] = np.cos(angle)
    return PE


def rope_angle_grid(T, d, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.arange(T)[:, None] * theta[None, :]
