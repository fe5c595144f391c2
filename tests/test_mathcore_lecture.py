"""Properties of mathcore.lecture: the seeded inputs and the sentence pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathcore import MathcoreError, lecture_inputs, load_config, permutation_matrix, sentence_pair

seeds = st.integers(0, 2**32 - 1)


@given(st.integers(1, 16), st.integers(1, 8), seeds)
def test_lecture_inputs_shapes_rounding_and_determinism(T, d, seed):
    a = lecture_inputs(T, d, seed)
    b = lecture_inputs(T, d, seed)
    assert a.X.shape == (T, d)
    for W in (a.Wq, a.Wk, a.Wv):
        assert W.shape == (d, d)
    for name in ("X", "Wq", "Wk", "Wv"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    # the printed numbers are the numbers: X has one decimal, W two
    assert np.array_equal(a.X, np.round(a.X, 1))
    for W in (a.Wq, a.Wk, a.Wv):
        assert np.array_equal(W, np.round(W, 2))
    assert np.all(np.isfinite(a.X))


def test_lecture_inputs_other_seed_other_numbers():
    a, b = lecture_inputs(6, 4, 7), lecture_inputs(6, 4, 8)
    assert not np.array_equal(a.X, b.X)
    assert not np.array_equal(a.Wq, a.Wk)  # three independent draws


def test_lecture_inputs_distribution_is_roughly_as_documented():
    li = lecture_inputs(200, 16, 0)
    assert abs(li.X.std() - 1.0) < 0.05
    assert abs(np.concatenate([li.Wq, li.Wk, li.Wv]).std() - 0.25) < 0.03  # N(0, 1/d), d = 16


@pytest.mark.parametrize("args, pattern", [((0, 4, 1), "T must be an integer >= 1, got T=0"),
                                           ((3, 0, 1), "d must be an integer >= 1, got d=0"),
                                           ((3.0, 4, 1), r"T must be an integer >= 1, got 3\.0")])
def test_lecture_inputs_rejects_bad_sizes_naming_them(args, pattern):
    with pytest.raises(MathcoreError, match=pattern):
        lecture_inputs(*args)


@st.composite
def sentence_pairs(draw):
    pool = ["the", "cat", "ate", "mouse", "a", "dog", "saw"]
    words = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=8))
    order = draw(st.permutations(list(range(len(words)))))
    return " ".join(words), " ".join(words[i] for i in order)


@given(sentence_pairs(), st.integers(1, 6), seeds)
def test_sentence_pair_matching_is_exact(pair, d, seed):
    a, b = pair
    sp = sentence_pair(a, b, d, seed)
    perm = sp.matching()
    assert sorted(perm.tolist()) == list(range(len(sp.tokens_a)))
    assert all(sp.tokens_b[i] == sp.tokens_a[perm[i]] for i in range(len(perm)))
    assert np.array_equal(sp.X_b, sp.X_a[perm])
    assert np.array_equal(permutation_matrix(perm) @ sp.X_a, sp.X_b)
    assert sp.table.shape == (len(sp.vocab), d) and list(sp.vocab) == sorted(set(a.split()))
    assert np.array_equal(sp.X_a, sp.table[[sp.vocab.index(w) for w in sp.tokens_a]])


@given(sentence_pairs(), st.integers(1, 6), seeds)
def test_sentence_pair_is_deterministic(pair, d, seed):
    s1, s2 = sentence_pair(*pair, d, seed), sentence_pair(*pair, d, seed)
    assert np.array_equal(s1.table, s2.table)
    assert np.array_equal(s1.ids_a, s2.ids_a) and np.array_equal(s1.ids_b, s2.ids_b)
    assert np.array_equal(s1.table, np.round(s1.table, 2))


def test_sentence_pair_repeated_words_match_in_order():
    sp = sentence_pair("the cat ate the mouse", "the mouse ate the cat", 4, 7)
    assert sp.matching().tolist() == [0, 4, 2, 3, 1]


def test_sentence_pair_from_the_shipped_config():
    cfg = load_config()
    sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
    assert sp.tokens_a == cfg.tokens_a and sp.tokens_b == cfg.tokens_b
    assert np.array_equal(sp.X_b, sp.X_a[sp.matching()])
    # the two sentences mean different things but have the same bag of embeddings
    assert not np.array_equal(sp.X_a, sp.X_b)


def test_sentence_pair_rejects_different_words_naming_both():
    with pytest.raises(MathcoreError, match="same words, got 'the cat sat' and 'the dog sat'") as ei:
        sentence_pair("the cat sat", "the dog sat", 4, 0)
    assert "\n" not in str(ei.value)


def test_sentence_pair_rejects_bad_d_naming_it():
    with pytest.raises(MathcoreError, match="got d=0"):
        sentence_pair("a b", "b a", 0, 0)
