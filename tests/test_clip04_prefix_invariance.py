"""Clip 04 PrefixInvariance: data binding, rows landing on rows, the measured figures, captions."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, render_final_frame, rgb255
from mathcore import attention_fn, lecture_inputs, load_config, prefix_defects, prefix_invariance_max_defect
from mathcore.causal import float_sum_orders
from scenes.causal import PrefixInvariance
from scenes.kit import BG, GOOD, fmt_measure, fmt_value


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PrefixInvariance)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PrefixInvariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    fixed = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="fixed")
    blas = attention_fn(li.Wq, li.Wk, li.Wv, causal=True, kernel="blas")
    np.testing.assert_array_equal(d.X, li.X)
    np.testing.assert_array_equal(d.Y_full, fixed(li.X))
    np.testing.assert_array_equal(d.Y_prefix, fixed(li.X[: cfg.T - 1]))
    assert d.Y_prefix.shape == (cfg.T - 1, cfg.d)
    np.testing.assert_array_equal(d.defects_fixed, prefix_defects(fixed, li.X))
    np.testing.assert_array_equal(d.defects_blas, prefix_defects(blas, li.X))
    assert d.max_fixed == prefix_invariance_max_defect(fixed, li.X) == 0.0
    assert d.max_blas == prefix_invariance_max_defect(blas, li.X)
    assert d.max_blas < 1e-12  # BLAS differs at most in the last bits
    np.testing.assert_array_equal(d.Y_full[: cfg.T - 1], d.Y_prefix)  # bitwise: the clip's claim
    assert d.sum_orders == float_sum_orders(*d.sum_terms)


def test_prefix_rows_landed_exactly_on_the_full_rows(final):
    scene, frame = final
    d = scene.data
    full, prefix = scene.full, scene.prefix
    T = d.X.shape[0]
    assert len(scene.landed) == T - 1
    for i, p in enumerate(scene.landed):
        np.testing.assert_allclose(p, full.rows[i][0].get_center(), atol=1e-6)
    # what each printed row says is the value mathcore computed (and the same text in both)
    for i in range(T - 1):
        a = [t.text for t in full.entries[i]]
        b = [t.text for t in prefix.entries[i]]
        assert a == b == [fmt_value(v, 2) for v in d.Y_full[i]]
    # the landed rows are drawn in GOOD: the ink over full row 0's numbers is green
    ink = dominant_ink(scene, frame, full.entries[0], BG)
    assert np.abs(ink - rgb255(GOOD)).max() <= 40, ink


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    T = d.X.shape[0]
    table = scene.table
    printed = [[c.text for c in row] for row in table.cells]
    want = [[fmt_measure(a), fmt_measure(b)] for a, b in zip([*d.defects_fixed, d.max_fixed], [*d.defects_blas, d.max_blas])]
    assert printed == want
    assert scene.fixed_max.text == fmt_measure(d.max_fixed) == "0.0"
    assert scene.blas_max.text == fmt_measure(d.max_blas)
    # a nonzero BLAS figure is drawn in another colour than the exact zeros
    ink_fixed = dominant_ink(scene, frame, scene.fixed_max, BG)
    ink_blas = dominant_ink(scene, frame, scene.blas_max, BG)
    assert np.abs(ink_fixed - rgb255(GOOD)).max() <= 40
    assert (np.abs(ink_blas - ink_fixed).max() > 40) == (d.max_blas != 0.0)
    left, right = d.sum_orders
    assert scene.why_left.text.replace(" ", "").endswith(repr(left))
    assert scene.why_right.text.replace(" ", "").endswith(repr(right))
    assert table.values.shape == (T + 1, 2)


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert any(fmt_measure(scene.data.max_blas) in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene)
    for m in (scene.table, scene.why, scene.inference, scene.full):
        assert m.get_bottom()[1] >= -3.1 - 1e-6
