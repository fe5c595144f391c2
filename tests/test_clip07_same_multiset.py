"""Clip 07 SameMultiset: data binding, one colour range per purpose with its colour bar, words on one
baseline (abbreviated only when they cannot fit), matched lines, final-frame pixels, printed figures,
captions, and the layout audit over the config matrix."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    assert_captions_readable,
    assert_inside_frame,
    assert_layout_holds,
    corner_results,
    dominant_ink,
    pixel,
    render_final_frame,
    rgb255,
)
from mathcore import lecture_inputs, load_config, my_sinusoidal_position, self_attention, sentence_pair
from mathcore.equivariance import compare_multiset
from scenes.equivariance import SameMultiset, _tick2, abbreviations
from scenes.kit import BAD, BG, ColorScale, fmt_measure
from scenes.kit.layout import baseline_y


@pytest.fixture(scope="module")
def final():
    return render_final_frame(SameMultiset)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(SameMultiset, tmp_path_factory)


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
    # one colour range per purpose: the inputs, the outputs, the outputs with positions
    assert d.vmax_x == np.abs(d.table).max()
    assert d.vmax_y == max(np.abs(a).max() for a in (d.plain.Y_a, d.plain.Y_b, d.plain.pooled_a, d.plain.pooled_b))
    assert d.vmax_pos == max(np.abs(a).max() for a in (d.positioned.Y_a, d.positioned.Y_b,
                                                         d.positioned.pooled_a, d.positioned.pooled_b))


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
    scale = ColorScale(d.cmap, -d.vmax_pos, d.vmax_pos)
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
    assert scene.short == {w: w for w in d.vocab}  # the shipped words fit whole
    assert [t.text for t in scene.words_a.texts] == list(d.tokens_a)
    assert [t.text for t in scene.words_b.texts] == list(d.tokens_b)
    # each word chip sits on its heatmap row, every word on one baseline in its chip
    for col, heat in ((scene.words_a, scene.Y_a), (scene.words_b, scene.Y_b)):
        depths = []
        for i, (box, text) in enumerate(col.chips):
            assert abs(box.get_y() - heat.cell_center(i, 0)[1]) < 1e-6
            depths.append(baseline_y(text) - box.get_bottom()[1])
        assert max(depths) - min(depths) < 1e-3, depths  # "mouse" no higher than "the"
    # a colour bar for what is drawn now: the outputs with positions, on their own range
    bar = scene.bar_pos.bar
    assert (bar.color_scale.norm.vmin, bar.color_scale.norm.vmax) == (-d.vmax_pos, d.vmax_pos)
    assert [t.text for t in bar.tick_labels] == [_tick2(v) for v in (-d.vmax_pos, 0.0, d.vmax_pos)]
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    assert id(bar) in on_screen and id(scene.bar_y.bar) not in on_screen and id(scene.bar_x.bar) not in on_screen
    # and the earlier bars covered their own ranges
    assert scene.bar_x.bar.color_scale.norm.vmax == d.vmax_x and scene.bar_y.bar.color_scale.norm.vmax == d.vmax_y


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


def test_abbreviations_cut_long_words_only_and_keep_them_apart():
    words = ("attentive", "transformers", "remember", "positional", "a")
    assert abbreviations(words, None) == {w: w for w in words}
    cut = abbreviations(words, 6)
    assert cut["a"] == "a" and cut["attentive"] == "atten\u2026"
    assert len(set(cut.values())) == len(words)
    pair = abbreviations(("position", "positional"), 5)
    assert pair["position"] != pair["positional"]


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)
    for name, res in corners.items():
        assert 20 <= res.scene.time <= 75, (name, res.scene.time)
    # eight long words: the sentences beat shows them whole; beside the rows they are abbreviated
    scene = corners["max"].scene
    assert any(v != w for w, v in scene.short.items())
    assert [t.text for t in scene.words_a.texts] == [scene.short[w] for w in scene.data.tokens_a]
    assert [t.text for t in scene.row_a.texts] == list(scene.data.tokens_a)
    assert scene.row_a.lines >= 2  # the chips wrapped instead of running off the frame
