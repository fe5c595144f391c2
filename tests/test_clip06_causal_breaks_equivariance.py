"""Clip 06 CausalBreaksEquivariance: data binding, the causal mask coloured by the tokens in its slots,
bars that match the defects, exact zeros marked on the log axis, printed figures, captions, and the
layout audit over the config matrix."""

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
from mathcore import attention_fn, causal_mask, lecture_inputs, load_config, permutation_row_defects, swap_permutation
from mathcore.equivariance import THRESHOLD, equivariance_defect
from scenes.equivariance import CausalBreaksEquivariance
from scenes.kit import BAD, BG, BLUE, GOOD, fmt_measure, token_color


@pytest.fixture(scope="module")
def final():
    return render_final_frame(CausalBreaksEquivariance)


@pytest.fixture(scope="module")
def corners(tmp_path_factory):
    return corner_results(CausalBreaksEquivariance, tmp_path_factory)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = CausalBreaksEquivariance.build_data(cfg)
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    r = d.report
    assert (r.i, r.j) == (1, cfg.T - 2)  # a future token moved into the past
    p = swap_permutation(cfg.T, r.i, r.j)
    np.testing.assert_array_equal(r.perm, p)
    causal = attention_fn(li.Wq, li.Wk, li.Wv, causal=True)
    full = attention_fn(li.Wq, li.Wk, li.Wv)
    np.testing.assert_array_equal(r.causal_rows, permutation_row_defects(causal, li.X, p))
    np.testing.assert_array_equal(r.self_rows, permutation_row_defects(full, li.X, p))
    assert r.causal_total == equivariance_defect(causal, li.X, p)
    assert r.self_total == equivariance_defect(full, li.X, p)
    # what the clip claims about the rows
    assert np.all(r.causal_rows[: r.i] == 0.0)
    assert np.all(r.causal_rows[r.i : r.j + 1] > 1e-3)
    assert np.all(r.causal_rows[r.j + 1 :] < THRESHOLD)
    assert np.all(r.self_rows < THRESHOLD)
    assert r.self_total < THRESHOLD < r.causal_total
    np.testing.assert_array_equal(d.mask, causal_mask(cfg.T))


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("seed = 7", "seed = 12")
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = CausalBreaksEquivariance.build_data(load_config(p))
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 12).X)
    assert d.report.causal_total != CausalBreaksEquivariance.build_data(load_config()).report.causal_total


def test_bars_have_the_heights_of_the_defects(final):
    scene, frame = final
    r = scene.data.report
    plot = scene.plot
    for bars, rows, color, dx in ((scene.causal_bars, r.causal_rows, BAD, 0.22),
                                  (scene.self_bars, r.self_rows, BLUE, -0.22)):
        for t, (bar, v) in enumerate(zip(bars, rows)):
            base = plot.to_point(t, plot.y_range[0])
            top = plot.to_point(t, plot.y_clip(v))
            assert abs(bar.get_bottom()[1] - base[1]) < 1e-6
            if v > plot.y_range[0]:
                assert abs(bar.get_top()[1] - top[1]) < 1e-6, (t, v)
                assert abs(bar.get_center()[0] - plot.to_point(t + dx, 1.0)[0]) < 1e-6  # in row t's slot
            if bar.height > 0.15:  # tall enough to sample its middle at 427x240
                got = pixel(scene, frame, bar.get_center())
                a = bar.get_fill_opacity()  # the bar's colour over the background
                want = np.round(a * rgb255(color) + (1 - a) * rgb255(BG))
                assert np.abs(got - want).max() <= 4, (t, got, want)
    # a row whose defect is exactly 0.0 has no bar (a log axis has no place for 0) but a hollow
    # diamond on the floor in its slot, in its series' colour
    zero_rows = np.flatnonzero(r.causal_rows == 0.0)
    assert len(zero_rows)  # row 0 sees the same tokens before and after the swap
    assert set(scene.causal_zeros) == set(zero_rows.tolist())
    assert set(scene.self_zeros) == set(np.flatnonzero(r.self_rows == 0.0).tolist())
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    for t in zero_rows:
        assert scene.causal_bars[t].height < 0.01
        got = pixel(scene, frame, scene.causal_bars[t].get_center() + np.array([0, 0.35, 0]))
        assert np.abs(got - rgb255(BG)).max() <= 6
        z = scene.causal_zeros[int(t)]
        assert z.value == 0.0 and id(z[0]) in on_screen
        assert abs(z[0].get_x() - plot.to_point(t + 0.22, 1.0)[0]) < 1e-6
        assert abs(z[0].get_bottom()[1] - plot.to_point(t, plot.y_range[0])[1]) < 0.05
        assert np.allclose(z[0].get_stroke_color().to_rgb(), BAD.to_rgb()) and z[0].get_stroke_opacity() == 1.0
        ink = dominant_ink(scene, frame, z[0], BG)
        assert np.abs(ink - rgb255(BAD)).max() <= 90
    # the legend says what the diamond means
    assert scene.leg_zero[1].text == "exactly0.0"
    # after the focus beats every row is shown again at full strength
    for t in range(len(r.perm)):
        assert scene.causal_values[t].get_fill_opacity() == 1.0
        assert scene.causal_bars[t].get_fill_opacity() == pytest.approx(0.9)


def test_the_tokens_sit_where_the_swap_puts_them(final):
    scene, _ = final
    r = scene.data.report
    np.testing.assert_array_equal(scene.tokens.row_order, r.perm)
    for slot in range(len(r.perm)):
        chip_x = scene.tokens.chip(slot).get_center()[0]
        assert abs(chip_x - scene.plot.to_point(slot, 1.0)[0]) < 1e-6


def test_the_mask_shows_which_slots_each_row_sees_in_the_colour_of_their_token(final):
    scene, _ = final
    r = scene.data.report
    mask = scene.mask
    T = len(r.perm)
    np.testing.assert_array_equal(mask.mask, causal_mask(T))
    for t in range(T):
        for s in range(T):
            cell = mask.cells[t][s]
            if s <= t:  # seen: filled with the colour of the token now in slot s (after the swap)
                np.testing.assert_allclose(cell.get_fill_color().to_rgb(), token_color(int(r.perm[s])).to_rgb(), atol=1e-6)
                assert cell.get_fill_opacity() > 0.3
            else:  # hidden: an outline only
                assert cell.get_fill_opacity() == 0.0
        # the mask's columns are the chart's slots
        assert abs(mask.cells[t][t].get_x() - scene.plot.to_point(t, 1.0)[0]) < 1e-6


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    r = scene.data.report
    assert [t.text for t in scene.causal_values] == [fmt_measure(v) for v in r.causal_rows]
    assert scene.causal_values[0].text == "0.0"  # exactly zero, printed as exactly zero
    assert scene.causal_total.text == fmt_measure(r.causal_total)
    assert scene.self_total.text == fmt_measure(r.self_total)
    for mob, color in ((scene.causal_total, BAD), (scene.self_total, GOOD)):
        assert np.abs(dominant_ink(scene, frame, mob, BG) - rgb255(color)).max() <= 40
    texts = " ".join(c.text for c in scene.captions)
    assert fmt_measure(r.causal_total) in texts and fmt_measure(r.self_total) in texts


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.1)


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(corners):
    assert_layout_holds(corners)
    for name, res in corners.items():
        assert 20 <= res.scene.time <= 75, (name, res.scene.time)
        r = res.scene.data.report
        # every exact zero of either series is marked on the floor, under every config
        assert set(res.scene.causal_zeros) == set(np.flatnonzero(r.causal_rows == 0.0).tolist()), name
        assert set(res.scene.self_zeros) == set(np.flatnonzero(r.self_rows == 0.0).tolist()), name
        after = list(range(r.j + 1, len(r.perm)))
        if after and np.all(r.causal_rows[after] == 0.0):
            assert any("exactly 0.0" in c.text for c in res.scene.captions), name
