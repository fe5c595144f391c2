"""Clip 00 Title: the lecture's title from the config, the four properties as a map of the catalog's
clips, one card per property in its family's colour (the catalog's properties, the theme's colours)."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    assert_captions_readable,
    assert_inside_frame,
    assert_layout_holds,
    corner_results,
    dominant_ink,
    render_final_frame,
    rgb255,
    to_pixel,
)
from mathcore import load_config
from scenes.catalog import LECTURE, PROPERTIES, property_of
from scenes.framing import Title, clip_number
from scenes.kit import BAD, BG, DIM, FG, PROPERTY_COLORS, family_color
from scenes.kit.layout import min_xheight_px
from scenes.render.matrix import LONG_TITLE


@pytest.fixture(scope="module")
def final():
    return render_final_frame(Title, 854, 480)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    return corner_results(Title, tmp_path_factory)


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


def test_the_module_keeps_no_copy_of_the_properties_or_their_colours():
    import scenes.framing as framing

    assert not hasattr(framing, "PROPERTY_COLORS")
    assert getattr(framing, "PROPERTIES", PROPERTIES) is PROPERTIES


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
    assert scene.lecture_line.text == f"Lecture {d.number} · {d.title}"
    assert "".join(t.text for t in scene.lecture_line) == shown(f"Lecture {d.number} · {d.title}")
    assert "".join(t.text for t in scene.notebook_line) == shown(f"notebook {d.notebook}")
    for box, (name, clips) in zip(scene.boxes, d.properties):
        assert box.head.text == shown(name)
        assert [n.text for n in box.nums] == [clip_number(c.number) for c in clips]
        assert [t.text for t in box.titles] == [shown(c.title) for c in clips]
        # the card holds its name, its drawing and every clip's line
        for part in (box.head, box.drawing, *box.rows):
            assert box.box.get_left()[0] < part.get_left()[0] and part.get_right()[0] < box.box.get_right()[0]
            assert box.box.get_bottom()[1] < part.get_bottom()[1] and part.get_top()[1] < box.box.get_top()[1]
        # clip titles start in one column, each on its number's baseline
        lefts = [t.get_left()[0] for t in box.titles]
        assert max(lefts) - min(lefts) < 1e-6


def test_every_card_is_in_its_familys_one_colour(final):
    scene, _ = final
    for k, box in enumerate(scene.boxes):
        want = PROPERTY_COLORS[k].to_hex()
        assert {family_color(int(n.text)).to_hex() for n in box.nums} == {want}
        assert box.box.get_stroke_color().to_hex() == want
        assert box.head.get_fill_color().to_hex() == want
        for n in box.nums:
            assert n.get_fill_color().to_hex() == want
        # the drawing: the family colour, with only neutral greys (and red for a wall) beside it
        used = set()
        for m in box.drawing.get_family():
            if len(m.points) and m.get_fill_opacity() > 0:
                used.add(m.get_fill_color().to_hex())
            if len(m.points) and m.get_stroke_opacity() > 0 and m.get_stroke_width() > 0:
                used.add(m.get_stroke_color().to_hex())
        assert want in used
        assert used <= {want, FG.to_hex(), DIM.to_hex(), BG.to_hex(), BAD.to_hex()}, used


def test_final_frame_colours_each_property(final):
    scene, frame = final
    for k, box in enumerate(scene.boxes):
        color = PROPERTY_COLORS[k]
        edge = box.box.get_left() + np.array([0.0, -0.3, 0.0])  # the card's left side, below its rounded corner
        r, c = to_pixel(scene, edge, frame)
        near = frame[r, c - 2 : c + 3].astype(int)  # the stroke, wherever rounding put it
        inked = near[np.argmax(np.abs(near - rgb255(BG)).sum(axis=1))]
        assert np.abs(inked - rgb255(color)).max() <= 40, (k, inked)
        for n in box.nums:
            ink = dominant_ink(scene, frame, n, BG)
            assert np.abs(ink - rgb255(color)).max() <= 45, (k, n.text, ink)
    # cards do not overlap
    rects = [(b.box.get_left()[0], b.box.get_right()[0], b.box.get_bottom()[1], b.box.get_top()[1]) for b in scene.boxes]
    for i in range(len(rects)):
        for j in range(i + 1, len(rects)):
            a, b = rects[i], rects[j]
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2], (i, j)


def test_the_map_is_on_screen_from_the_first_beat(final):
    """No dead time: the beat after the title card already shows every card with its name and drawing."""
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}["lecture"]
    texts = {i.name.strip("'") for i in rec.items if i.kind == "text" and i.opacity > 0.9}
    assert {shown(name) for name, _ in scene.data.properties} <= texts


def test_the_last_frame_is_the_whole_map_at_full_strength(final):
    scene, _ = final
    close = scene.audit.records[-1]
    assert close.key == "close"
    texts = [i for i in close.items if i.kind == "text"]
    assert len(texts) >= 2 + 4 + 2 * sum(len(c) for _, c in scene.data.properties)
    assert min(i.opacity for i in texts) > 0.99


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 6
    assert_captions_readable(caps)
    assert 20 <= scene.time <= 75


def test_everything_stays_inside_the_frame(final):
    scene, _ = final
    assert_inside_frame(scene, bottom=-3.15)


def test_layout_holds_at_every_beat(final):
    assert_layout_holds(final[0].audit)


def test_layout_holds_over_the_config_matrix(matrix):
    assert_layout_holds(matrix)


def test_a_long_title_is_set_on_two_lines_inside_the_frame(matrix):
    scene = matrix["max"].scene
    assert scene.data.title == LONG_TITLE
    lines = scene.lecture_line
    assert len(lines) == 2
    assert " ".join(t.text for t in lines).replace(" ", "") == shown(f"Lecture {scene.data.number} · {LONG_TITLE}")
    content = scene.layout.content
    assert all(content.left <= t.get_left()[0] and t.get_right()[0] <= content.right for t in lines)
    assert min_xheight_px(lines) >= 12  # a title, not a footnote
    # and the cards below it keep their text legible
    assert min(min_xheight_px(b) for b in scene.boxes) >= 8.5


def test_length_under_every_corner(matrix):
    for name, res in matrix.items():
        assert 20 <= res.scene.time <= 75, (name, res.scene.time)


def test_property_of_agrees_with_the_cards():
    for k, (_, nums) in enumerate(PROPERTIES):
        assert all(property_of(n) == k for n in nums)
