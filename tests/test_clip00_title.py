"""Clip 00 Title: the lecture's title from the config, the four properties as a map of the catalog's clips."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, assert_inside_frame, dominant_ink, render_final_frame, rgb255, to_pixel
from mathcore import load_config
from scenes.catalog import LECTURE
from scenes.framing import PROPERTIES, PROPERTY_COLORS, Title, clip_number
from scenes.kit import BG


@pytest.fixture(scope="module")
def final():
    return render_final_frame(Title, 854, 480)


def shown(s: str) -> str:
    return s.replace(" ", "")


def test_data_is_the_config_and_the_catalog():
    cfg = load_config()
    d = Title.build_data(cfg)
    assert (d.number, d.title, d.notebook) == (cfg.number, cfg.title, cfg.notebook)
    by_number = {c.number: c for c in LECTURE}
    for (name, clips), (name2, nums) in zip(d.properties, PROPERTIES):
        assert name == name2 and tuple(c.number for c in clips) == nums
        assert all(c is by_number[c.number] for c in clips)
    # every clip between the title and the recap appears exactly once on the map
    mapped = sorted(c.number for _, clips in d.properties for c in clips)
    assert mapped == [c.number for c in LECTURE if 0 < c.number < 15]


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace('title = "Inside the Transformer"', 'title = "Attention, examined"')
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    assert Title.build_data(load_config(p)).title == "Attention, examined"


def test_the_map_prints_the_catalog(final):
    scene, _ = final
    d = scene.data
    assert scene.lecture_line.text == shown(f"Lecture {d.number} · {d.title}")
    assert scene.notebook_line.text == shown(f"notebook {d.notebook}")
    for box, (name, clips) in zip(scene.boxes, d.properties):
        assert box.head.text == shown(name)
        assert [r[0].text for r in box.rows] == [clip_number(c.number) for c in clips]
        assert [r[1].text for r in box.rows] == [shown(c.title) for c in clips]
        # each clip's line sits inside its property's box
        for r in box.rows:
            assert box.box.get_left()[0] < r.get_left()[0] and r.get_right()[0] < box.box.get_right()[0]
            assert box.box.get_bottom()[1] < r.get_bottom()[1] and r.get_top()[1] < box.box.get_top()[1]


def test_final_frame_colours_each_property(final):
    scene, frame = final
    for k, box in enumerate(scene.boxes):
        color = PROPERTY_COLORS[k]
        edge = box.box.get_left() + np.array([0.0, -0.3, 0.0])  # the box's left side, below its rounded corner
        r, c = to_pixel(scene, edge, frame)
        near = frame[r, c - 2 : c + 3].astype(int)  # the 2-px stroke, wherever rounding put it
        inked = near[np.argmax(np.abs(near - rgb255(BG)).sum(axis=1))]
        assert np.abs(inked - rgb255(color)).max() <= 40, (k, inked)
        ink = dominant_ink(scene, frame, box.nums[0], BG)
        assert np.abs(ink - rgb255(color)).max() <= 45, (k, ink)
    # boxes do not overlap
    rects = [(b.box.get_left()[0], b.box.get_right()[0], b.box.get_bottom()[1], b.box.get_top()[1]) for b in scene.boxes]
    for i in range(len(rects)):
        for j in range(i + 1, len(rects)):
            a, b = rects[i], rects[j]
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2], (i, j)


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 6
    assert_captions_readable(caps)
    assert 10 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.15)
