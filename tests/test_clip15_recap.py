"""Clip 15 Recap: the four diary questions as four cards, each with a drawing of its answer, the answer,
and chips naming the clips that show it, in the colour of their family (the same colours and icons as
00); the close brings the four answers forward, large."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    assert_captions_readable,
    dominant_ink,
    render_final_frame,
    rgb255,
)
from mathcore import load_config
from mathcore.extrapolation import GPT2
from scenes.catalog import LECTURE, property_of
from scenes.clips.c15_recap import Recap
from scenes.kit.cards import clip_number
from scenes.kit import BAD, BG, DIM, FG, PROPERTY_COLORS, family_color
from scenes.figures import designed_stills
from scenes.figures.framing import RECAP_ICONS
from scenes.audit.beats import DIMMED, signature
from scenes.kit.layout import SAFE, min_xheight_px
from scenes.kit.notation import N


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
    assert f"{N.table_rows.text} = {GPT2.n_max}" in d.answers[3].question  # the notation's nₘₐₓ, not n_max
    assert f"({N.offset.text})" in d.answers[2].answer and "n_max" not in d.answers[3].question
    # the clips named are the ones about the question's subject
    assert by_number[2].slug == "permutation_equivariance"
    assert {by_number[4].slug, by_number[5].slug} == {"prefix_invariance", "kv_cache"}
    assert by_number[11].slug == "rope_rotates_qk"
    assert {by_number[13].slug, by_number[14].slug} == {"extrapolation_cliff", "gpt2_to_llama"}


def test_each_card_prints_its_question_answer_and_clips(final):
    scene, _ = final
    laid = scene.make_cards(scene.card_areas)  # the cards as the beats showed them
    for card, shown_card, a in zip(laid, scene.rows, scene.data.answers):
        assert shown_card.q.text == a.question and shown_card.ans.text == a.answer
        assert card.q.text == a.question and card.ans.text == a.answer
        assert "".join(t.text for t in card.q) == shown(a.question)
        assert "".join(t.text for t in card.ans) == shown(a.answer)
        assert len(card.ans) <= 3
        assert [n.text for n in card.nums] == [clip_number(c.number) for c in a.clips]
        for part in (card.drawing, card.link, *card.q, *card.ans):  # everything inside its card
            assert card.box.get_left()[0] < part.get_left()[0] and part.get_right()[0] < card.box.get_right()[0]
            assert card.box.get_bottom()[1] < part.get_bottom()[1] and part.get_top()[1] < card.box.get_top()[1]
        assert card.q.get_bottom()[1] > card.ans.get_top()[1]  # the question above its answer
    # four cards in diary order: reading order, two by two
    c = [r.box.get_center() for r in laid]
    assert c[0][1] == pytest.approx(c[1][1]) and c[2][1] == pytest.approx(c[3][1]) and c[0][1] > c[2][1]
    assert c[0][0] < c[1][0] and c[2][0] < c[3][0]
    # one size of type for every card
    assert len({round(min_xheight_px(r.ans), 3) for r in laid}) == 1
    assert len({round(min_xheight_px(r.ans), 3) for r in scene.rows}) == 1  # and in the close


def test_one_colour_per_family_as_in_the_title_map(final):
    scene, _ = final
    for card, a in zip(scene.rows, scene.data.answers):
        want = family_color(a.clips[0].number)
        assert all(family_color(c.number) == want for c in a.clips)  # each answer's clips share a family
        assert want == PROPERTY_COLORS[property_of(a.clips[0].number)]
        assert card.box.get_stroke_color().to_hex() == want.to_hex()
        assert all(n.get_fill_color().to_hex() == want.to_hex() for n in card.nums)
        used = set()
        for m in card.drawing.get_family():
            if len(m.points) and m.get_fill_opacity() > 0:
                used.add(m.get_fill_color().to_hex())
            if len(m.points) and m.get_stroke_opacity() > 0 and m.get_stroke_width() > 0:
                used.add(m.get_stroke_color().to_hex())
        assert want.to_hex() in used
        assert used <= {want.to_hex(), FG.to_hex(), DIM.to_hex(), BG.to_hex(), BAD.to_hex()}, used
    # 04/05 in the prefix family's colour, 11 and 13/14 in the positional family's
    assert family_color(4) == PROPERTY_COLORS[2] and family_color(11) == family_color(13) == PROPERTY_COLORS[3]


def test_final_frame_chips_in_their_colours(final):
    scene, frame = final
    for card, a in zip(scene.rows, scene.data.answers):
        for n, c in zip(card.nums, a.clips):
            ink = dominant_ink(scene, frame, n, BG)
            assert np.abs(ink - rgb255(family_color(c.number))).max() <= 45, (c.number, ink)
        for line in card.ans:
            assert dominant_ink(scene, frame, line, BG).min() > 180  # answers in the light foreground colour


def test_text_keeps_off_the_frame_edge(final):
    scene, _ = final
    for card in scene.rows:
        assert SAFE.contains(card.box)
        assert card.box.get_left()[0] >= -scene.frame_size[0] / 2 + 0.3  # ≥ 18 px from the edge at 854×480


def test_the_last_frame_shows_all_four_answers_at_full_strength(final):
    """The takeaway: questions, drawings and the words "clip(s)" leave; the four answers and their
    chips grow inside their cards."""
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    close, before = scene.audit.records[-1], recs["q4"]
    assert close.key == "close" and close.start != signature(close)
    texts = [i for i in close.items if i.kind == "text" and not i.header and i.opacity > DIMMED]
    assert min(i.opacity for i in texts) > 0.99
    names = {i.name.strip("'") for i in texts}
    want = {t.text for card in scene.rows for t in card.ans} | {n.text for card in scene.rows for n in card.nums}
    assert names == want  # the answers and their clip numbers, nothing else
    for card in scene.rows:
        h0 = min(i.xheight_px for i in before.items if i.kind == "text" and i.name.strip("'") == card.ans[0].text)
        assert min_xheight_px(card.ans) >= 1.2 * h0  # brought forward, large
        for part in (*card.ans, *card.chips):
            assert card.box.get_left()[0] < part.get_left()[0] and part.get_right()[0] < card.box.get_right()[0]
            assert card.box.get_bottom()[1] < part.get_bottom()[1] and part.get_top()[1] < card.box.get_top()[1]
        assert card.chips.get_bottom()[1] > card.ans.get_top()[1]  # the clips above their answer


def test_every_beat_adds_its_card(final):
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    for k, key in enumerate(scene.KEYS):
        rec = recs[key]
        assert rec.start != signature(rec), key
        lit = {i.name.strip("'") for i in rec.items if i.kind == "text" and i.opacity > 0.99}
        for card in scene.rows[:k + 1]:  # the answers so far stay readable: a recap is read as a whole
            assert {t.text for t in card.ans} <= lit, key
        for card in scene.rows[k + 1:]:
            assert not {t.text for t in card.ans} & lit, key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_the_clip_and_its_still_draw_one_icon_per_answer(final):
    """Issue 20: each card's icon is the one shape description its still draws too."""
    scene, _ = final
    still = designed_stills("Recap", scene.data, scene.cfg)[0]
    for k, (card, panel) in enumerate(zip(scene.rows, still.panels.values())):
        assert card.drawing.icon is RECAP_ICONS[k] is panel.picture.icon


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) == 6
    assert_captions_readable(caps)
