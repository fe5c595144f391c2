"""Clip 13 ExtrapolationCliff: unseen RoPE pairs per position, the learned table's wall, the final frame."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, pixel, render_final_frame, rgb255
from mathcore import extrapolation_report, load_config, rope_unseen_pairs
from mathcore.extrapolation import LLAMA2, pair_angles, pair_turns, unseen_pair_counts
from scenes.extrapolation import ExtrapolationCliff, fmt_count
from scenes.kit import BAD, BG, DIM


@pytest.fixture(scope="module")
def final():
    return render_final_frame(ExtrapolationCliff, 854, 480)


def blend(color, opacity):
    return np.round(opacity * rgb255(color) + (1 - opacity) * rgb255(BG)).astype(int)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = ExtrapolationCliff.build_data(cfg)
    L, n_max = cfg.train_length, cfg.n_max
    assert (d.train_length, d.n_max, d.head_dim, d.base) == (L, n_max, LLAMA2.head_dim, cfg.rope_base)
    np.testing.assert_array_equal(d.positions, np.arange(1, 4 * n_max + 1))
    np.testing.assert_array_equal(d.unseen, unseen_pair_counts(d.positions, d.head_dim, L, cfg.rope_base))
    assert d.stops == (L - 1, L, n_max, 4 * n_max)
    masks = rope_unseen_pairs(list(d.stops), d.head_dim, L, cfg.rope_base)
    np.testing.assert_array_equal(d.stop_counts, masks.sum(axis=1))
    for s, m in enumerate(d.stops):
        np.testing.assert_array_equal(d.stop_angles[s], pair_angles(m, d.head_dim, cfg.rope_base)[list(d.pairs)])
        np.testing.assert_array_equal(d.stop_turns[s], pair_turns(m, d.head_dim, cfg.rope_base)[list(d.pairs)])
    rep = extrapolation_report(list(d.stops), d.head_dim, n_max, cfg.seed, cfg.rope_base)
    assert d.report.learned_error == rep.learned_error
    np.testing.assert_array_equal(d.report.learned_defined, [True, True, False, False])
    # the cliff: nothing unseen inside training, a jump one step past it
    assert np.all(d.unseen[: L - 1] == 0) and d.unseen[L - 1] > 0  # positions[L-1] is m = L


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("train_length = 64", "train_length = 256")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = ExtrapolationCliff.build_data(load_config(p))
    assert d.stops[:2] == (255, 256)
    assert np.all(d.unseen[:255] == 0) and d.unseen[255] > 0


def test_final_frame_the_table_ends_at_n_max_and_the_formulas_go_on(final):
    scene, frame = final
    d = scene.data
    far = scene.x_of(2 * d.n_max)
    inside = scene.x_of(d.n_max / 2)
    untrained = blend(DIM, 0.45)
    # learned lane: a row exists before n_max, nothing after it
    assert np.abs(pixel(scene, frame, [inside, scene.LANE_A, 0]) - untrained).max() <= 12
    assert np.abs(pixel(scene, frame, [far, scene.LANE_A, 0]) - rgb255(BG)).max() <= 12
    # sinusoidal lane: still defined at 2·n_max
    assert np.abs(pixel(scene, frame, [far, scene.LANE_B, 0]) - untrained).max() <= 12
    # the wall stands at n_max
    assert abs(scene.wall.get_center()[0] - scene.x_of(d.n_max)) < 1e-9
    assert np.abs(pixel(scene, frame, scene.wall.get_center()) - rgb255(BAD)).max() <= 30


def test_final_frame_rope_area_follows_the_counts(final):
    scene, frame = final
    d = scene.data
    fill = blend(BAD, 0.3)
    for m in (200, 2000):
        c = d.unseen[m - 1]
        assert c > 4
        inside = pixel(scene, frame, scene.plot.to_point(m, c / 2))
        assert np.abs(inside - fill).max() <= 14, (m, inside, fill)
    # below L the count is 0: above the axis there is no fill
    empty = pixel(scene, frame, scene.plot.to_point(20, d.n_pairs / 4))
    assert np.abs(empty - rgb255(BG)).max() <= 12


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, _ = final
    d = scene.data
    last = len(d.stops) - 1
    assert scene.count_text.text == f"{d.stop_counts[last]}of{d.n_pairs}"  # Text.text drops spaces
    assert scene.m_value.text == fmt_count(d.stops[last]).replace(" ", "") == "4\u2009096"
    for k in range(2):
        n = int(d.stop_turns[last, k])
        assert scene.turn_texts[k].text.startswith(fmt_count(n))
        assert scene.status_texts[k].text == ("unseen" if d.stop_unseen[last, k] else "seen")
        assert np.isclose(scene.dials[k].angle, d.stop_angles[last, k])
    # the error box prints the lookup's own message
    assert " ".join(scene.error_lines) == d.report.learned_error
    assert "no row for position 1024" in d.report.learned_error


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert any(f"{int(scene.data.stop_counts[1])} of {scene.data.n_pairs}" in c.text for c in caps)
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.15)
