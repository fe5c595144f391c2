"""Clip 07 SameMultiset: data binding, matched lines, final-frame pixels, printed figures, captions."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, pixel, render_final_frame, rgb255
from mathcore import lecture_inputs, load_config, my_sinusoidal_position, self_attention, sentence_pair
from mathcore.equivariance import compare_multiset
from scenes.equivariance import SameMultiset
from scenes.kit import BAD, BG, ColorScale, fmt_measure


@pytest.fixture(scope="module")
def final():
    return render_final_frame(SameMultiset)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = SameMultiset.build_data(cfg)
    sp = sentence_pair(cfg.sentence_a, cfg.sentence_b, cfg.d, cfg.seed)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    assert d.tokens_a == tuple(cfg.sentence_a.split()) and d.tokens_b == tuple(cfg.sentence_b.split())
    np.testing.assert_array_equal(d.table, sp.table)
    np.testing.assert_array_equal(d.matching, sp.matching())
    assert [d.tokens_a[k] for k in d.matching] == list(d.tokens_b)
    T = len(d.tokens_a)
    np.testing.assert_array_equal(d.PE, my_sinusoidal_position(T, cfg.d, cfg.rope_base))
    # without positions: the outputs are the same rows, matched token for token
    Y_a = self_attention(sp.X_a, li.Wq, li.Wk, li.Wv)[0]
    Y_b = self_attention(sp.X_b, li.Wq, li.Wk, li.Wv)[0]
    np.testing.assert_array_equal(d.plain.Y_a, Y_a)
    np.testing.assert_array_equal(d.plain.Y_b, Y_b)
    np.testing.assert_array_equal(d.plain.diffs, np.max(np.abs(Y_b - Y_a[sp.matching()]), axis=1))
    assert d.plain.max_diff < 1e-14
    assert d.plain.pooled_gap == np.max(np.abs(Y_a.mean(0) - Y_b.mean(0))) < 1e-14
    # with positions: measured gaps
    pos = compare_multiset(sp.X_a, sp.X_b, sp.matching(), li.Wq, li.Wk, li.Wv, positions=d.PE)
    np.testing.assert_array_equal(d.positioned.Y_a, self_attention(sp.X_a + d.PE, li.Wq, li.Wk, li.Wv)[0])
    np.testing.assert_array_equal(d.positioned.diffs, pos.diffs)
    assert d.positioned.max_diff > 0.1 and d.positioned.pooled_gap > 0.1
    assert d.cmap == cfg.cmap_signed
    assert d.vmax >= max(np.abs(a).max() for a in (d.table, d.plain.Y_a, d.positioned.Y_a, d.positioned.Y_b))


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace('a = "the cat ate the mouse"', 'a = "the dog bit the man"').replace(
        'b = "the mouse ate the cat"', 'b = "the man bit the dog"')
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = SameMultiset.build_data(load_config(p))
    assert d.tokens_b == ("the", "man", "bit", "the", "dog")
    assert d.plain.max_diff < 1e-14 < d.positioned.max_diff


def test_final_frame_colours_the_outputs_by_their_values(final):
    scene, frame = final
    d = scene.data
    scale = ColorScale(d.cmap, -d.vmax, d.vmax)
    pos = d.positioned
    checks = ((scene.Y_a, pos.Y_a), (scene.Y_b, pos.Y_b),
              (scene.pool_a, pos.pooled_a[None, :]), (scene.pool_b, pos.pooled_b[None, :]))
    for heat, values in checks:
        np.testing.assert_array_equal(heat.values, values)
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                got = pixel(scene, frame, heat.cell_center(i, j))
                want = rgb255(scale.rgb(values[i, j]))
                assert np.abs(got - want).max() <= 4, (i, j, got, want)


def test_lines_join_each_token_to_its_match(final):
    scene, _ = final
    d = scene.data
    for i, (ln, src) in enumerate(zip(scene.links, d.matching)):
        assert abs(ln.get_start()[1] - scene.Y_a.cell_center(int(src), 0)[1]) < 1e-6
        assert abs(ln.get_end()[1] - scene.Y_b.cell_center(i, 0)[1]) < 1e-6
        assert d.tokens_a[int(src)] == d.tokens_b[i]
    assert [t.text for t in scene.words_a] == list(d.tokens_a)
    assert [t.text for t in scene.words_b] == list(d.tokens_b)


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert [t.text for t in scene.diffs_shown] == [fmt_measure(v) for v in d.positioned.diffs]
    assert all(id(t) in on_screen for t in scene.diffs_shown)
    assert scene.pool_shown.text == fmt_measure(d.positioned.pooled_gap) and id(scene.pool_shown) in on_screen
    for t in scene.diffs_shown:
        assert abs(t.get_center()[1] - scene.Y_b.cell_center(list(scene.diffs_shown).index(t), 0)[1]) < 1e-6
    assert np.abs(dominant_ink(scene, frame, scene.pool_shown, BG) - rgb255(BAD)).max() <= 40
    # the no-position figures were shown earlier, in their beats (those labels still hold their text)
    assert [t.text for t in scene.diffs] == [fmt_measure(v) for v in d.plain.diffs]
    texts = " ".join(c.text for c in scene.captions)
    for v in (d.plain.max_diff, d.plain.pooled_gap, d.positioned.max_diff):
        assert fmt_measure(v) in texts


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 10
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)
