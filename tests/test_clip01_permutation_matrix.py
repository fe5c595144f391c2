"""Clip 01 PermutationMatrix: data binding, the final frame's pixels, captions, config edits."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, pixel, render_final_frame, rgb255
from mathcore import check_permutation, lecture_inputs, load_config, permutation_matrix
from scenes.kit import BG, ColorScale, fmt_measure, fmt_value, token_color
from scenes.permutation import PermutationMatrix


@pytest.fixture(scope="module")
def final():
    return render_final_frame(PermutationMatrix)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = PermutationMatrix.build_data(cfg)
    X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
    np.testing.assert_array_equal(d.X, X)
    np.testing.assert_array_equal(d.perm, cfg.perm)
    np.testing.assert_array_equal(d.P, permutation_matrix(cfg.perm))
    np.testing.assert_array_equal(d.PX, X[list(cfg.perm)])
    chk = check_permutation(X, cfg.perm)
    assert d.gather_equal is chk.matmul_equals_gather is True
    assert d.orthogonality_defect == chk.orthogonality_defect == 0.0


def test_a_config_edit_reaches_the_clip(tmp_path, monkeypatch):
    src = load_config().path.read_text()
    edited = src.replace("perm = [2, 0, 4, 1, 5, 3]", "perm = [5, 4, 3, 2, 1, 0]").replace("seed = 7", "seed = 8")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    cfg = load_config(p)
    d = PermutationMatrix.build_data(cfg)
    np.testing.assert_array_equal(d.P, np.eye(6)[::-1])
    np.testing.assert_array_equal(d.X, lecture_inputs(6, 4, 8).X)


def test_widgets_draw_the_data_and_print_it(final):
    scene, _ = final
    d = scene.data
    np.testing.assert_array_equal(scene.P_map.values, d.P)
    np.testing.assert_array_equal(scene.X_mat.values, d.X)
    np.testing.assert_array_equal(scene.PX_mat.values, d.PX)
    for mat in (scene.X_mat, scene.PX_mat):
        printed = [[t.text for t in row] for row in mat.entries]
        assert printed == [[fmt_value(v, 1) for v in row] for row in mat.values]
    # the printed value is the exact value (inputs are rounded to the printed decimals)
    np.testing.assert_array_equal(np.round(d.X, 1), d.X)


def test_final_frame_colours_P_by_its_values(final):
    scene, frame = final
    scale = ColorScale(scene.data.cmap, 0.0, 1.0)
    T = scene.data.P.shape[0]
    for i in range(T):
        for j in range(T):
            got = pixel(scene, frame, scene.P_map.cell_center(i, j))
            want = rgb255(scale.rgb(scene.data.P[i, j]))
            assert np.abs(got - want).max() <= 4, (i, j, got, want)


def test_final_frame_rows_sit_where_the_permutation_says(final):
    scene, frame = final
    perm = scene.data.perm
    for slot, src in enumerate(perm):
        row = scene.PX_mat.rows[slot]
        assert row in scene.mobjects or any(row in m.get_family() for m in scene.mobjects)
        # the label in slot i is token perm[i], drawn in that token's colour
        ink = dominant_ink(scene, frame, scene.PX_mat.row_labels[slot], BG)
        assert np.abs(ink - rgb255(token_color(int(src)))).max() <= 40, (slot, src, ink)
        # and it sits at slot i's height, level with X's row i
        assert abs(row[0].get_center()[1] - scene.PX_mat.slot_center(slot)[1]) < 1e-6
        assert abs(row[0].get_center()[1] - scene.X_mat.rows[slot][0].get_center()[1]) < 1e-6


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.orth_value.text == fmt_measure(d.orthogonality_defect) == "0.0"
    assert scene.gather_verdict.text.endswith("exactly") == d.gather_equal
    assert dominant_ink(scene, frame, scene.orth_value, BG).tolist() != rgb255(BG).tolist()


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 7
    assert_captions_readable(caps)
    assert [c.start for c in caps] == sorted(c.start for c in caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene)
