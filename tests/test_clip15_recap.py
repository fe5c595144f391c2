"""Clip 15 Recap: the four diary questions, one line each, each with the clips that show it."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, render_final_frame, rgb255
from mathcore import load_config
from mathcore.extrapolation import GPT2
from scenes.catalog import LECTURE
from scenes.framing import PROPERTY_COLORS, Recap, clip_number
from scenes.kit import BG


@pytest.fixture(scope="module")
def final():
    return render_final_frame(Recap, 854, 480)


def shown(s: str) -> str:
    return s.replace(" ", "")


def test_data_names_real_clips_and_the_facts():
    d = Recap.build_data(load_config())
    assert len(d.answers) == 4
    by_number = {c.number: c for c in LECTURE}
    assert [tuple(c.number for c in a.clips) for a in d.answers] == [(2,), (4, 5), (11,), (13, 14)]
    assert all(c is by_number[c.number] for a in d.answers for c in a.clips)
    assert f"n_max = {GPT2.n_max}" in d.answers[3].question
    # the clips named are the ones about the question's subject
    assert by_number[2].slug == "permutation_equivariance"
    assert {by_number[4].slug, by_number[5].slug} == {"prefix_invariance", "kv_cache"}
    assert by_number[11].slug == "rope_rotates_qk"
    assert {by_number[13].slug, by_number[14].slug} == {"extrapolation_cliff", "gpt2_to_llama"}


def test_each_answer_is_one_line_inside_the_frame(final):
    scene, _ = final
    fw, _ = scene.frame_size
    for row, a in zip(scene.rows, scene.data.answers):
        assert row.q.text == shown(a.question) and row.ans.text == shown(a.answer)
        assert row.ans.height < 0.5  # one line
        assert row.ans.get_right()[0] <= fw / 2 - 0.1
        assert [n.text for n in row.nums] == [clip_number(c.number) for c in a.clips]
    ys = [r.ans.get_y() for r in scene.rows]
    assert ys == sorted(ys, reverse=True)  # in diary order, top to bottom
    for a, b in zip(scene.rows, scene.rows[1:]):
        assert a.ans.get_bottom()[1] > b.q.get_top()[1]  # no overlap


def test_final_frame_badges_in_their_colours(final):
    scene, frame = final
    for k, row in enumerate(scene.rows):
        for n in row.nums:
            ink = dominant_ink(scene, frame, n, BG)
            assert np.abs(ink - rgb255(PROPERTY_COLORS[k])).max() <= 45, (k, ink)
        ink = dominant_ink(scene, frame, row.ans, BG)
        assert ink.min() > 180  # answers in the light foreground colour


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) == 6
    assert_captions_readable(caps)
    assert 10 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.15)
