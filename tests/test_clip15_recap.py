"""Clip 15 Recap: the four diary questions, one a beat: the question, the icon of its answer (the same
icons as 00's map), the answer, and the answer's measured proofs (verdict, figure and the clip that
measured it) on a panel in the answer's family colour; the close keeps one verdict an answer and points
to the next lecture.  Each claim issue 33 listed for this clip has a test below that computes what the
sentence or the frame claims and would have failed on the old main."""

from __future__ import annotations

import numpy as np
import pytest

from frames import assert_captions_readable, render_final_frame
from mathcore import load_config
from mathcore.extrapolation import GPT2, LLAMA2
from mathcore.lecture import lecture_inputs
from scenes.audit.beats import DIMMED, coverage, signature
from scenes.audit.truth import HALF_EMPTY, claim_problems, colour_problems, staging_problems
from scenes.catalog import LECTURE
from scenes.clips.c15_recap import Recap
from scenes.kit.base import narration
from scenes.figures import designed_stills
from scenes.figures.framing import RECAP_ICONS
from scenes.kit import BAD, family_color
from scenes.kit.cards import clip_number
from scenes.kit.layout import SAFE
from scenes.kit.notation import N


@pytest.fixture(scope="module")
def final():
    return render_final_frame(Recap, 854, 480)


def records(scene) -> dict:
    return {r.key: r for r in scene.audit.records}


def full_texts(rec) -> list[str]:
    return [i.text for i in rec.items if i.kind == "text" and not i.header and i.opacity > 0.99]


def test_data_names_real_clips_and_the_facts():
    d = Recap.build_data(load_config())
    assert len(d.answers) == 4
    by_number = {c.number: c for c in LECTURE}
    assert [tuple(c.number for c in a.home) for a in d.answers] == [(2,), (4, 5), (11,), (13, 14)]
    assert [tuple(c.number for c in a.clips) for a in d.answers] == [(2,), (3, 4, 5), (11,), (14, 13)]
    assert all(c is by_number[c.number] for a in d.answers for c in (*a.home, *a.clips))
    assert f"{N.table_rows.text} = {GPT2.n_max}" in d.answers[3].question  # the notation's nₘₐₓ, not n_max
    assert N.offset.text in d.answers[2].answer and "n_max" not in d.answers[3].question
    assert by_number[2].slug == "permutation_equivariance"
    assert {by_number[4].slug, by_number[5].slug} == {"prefix_invariance", "kv_cache"}
    assert by_number[11].slug == "rope_rotates_qk"
    assert {by_number[13].slug, by_number[14].slug} == {"extrapolation_cliff", "gpt2_to_llama"}
    assert d.next_lecture == load_config().number + 1


def test_every_question_is_one_large_subject_that_fills_the_frame(final):
    """Issue 33: on the old main ``q1`` was one small card (its content area 86 % empty), q1…q4 and the
    close named no subject, and the close was a dashboard of four cards.  Now every beat names its
    subject, the subject is the largest thing on screen, the content area is at least half covered and
    there are at most three groups at full strength (the truth checks' staging rules, run here)."""
    scene, _ = final
    recs = records(scene)
    for key in (*scene.KEYS, "close"):
        rec = recs[key]
        assert rec.subject, key
        top = rec.header_bottom - 0.15
        assert coverage(rec, top) >= HALF_EMPTY, (key, coverage(rec, top))
    assert staging_problems(list(recs.values())) == []


def test_the_close_shows_the_next_lecture_it_names(final):
    """Issue 33: the close's sentence named lecture 6, which was nowhere on screen.  The sentence fills in
    the lecture's number from the config, and the close draws "lecture N" at full strength."""
    scene, _ = final
    cfg = load_config()
    close = records(scene)["close"]
    want = f"lecture {cfg.number + 1}"
    assert want in full_texts(close)
    said = {c.name: c for c in close.claims}
    assert said["close_lecture"].text == str(cfg.number + 1) and said["close_lecture"].visible
    assert "lecture {close_lecture}" in narration(scene.clip())["close"]


def test_the_close_keeps_one_verdict_per_answer_with_its_number(final):
    """Issue 33: the close showed four cards of words, no verdict and no number.  Now each answer stays
    with the verdict of its kept proof (✓ or ✗ and the measured figure), everything else of the questions
    gone; the verdicts agree with the measurements recomputed here from the lecture's inputs."""
    scene, _ = final
    cfg = load_config()
    close = records(scene)["close"]
    shown = full_texts(close)
    rows = scene.close_rows.rows
    assert len(rows) == 4
    for r, a in zip(rows, scene.data.answers):
        p = a.proofs[a.key]
        assert r.verdict.passed == p.passed and r.verdict.figure.text == p.figure.text
        assert a.answer in shown
        assert clip_number(p.clip) in shown
    for q in (c.q.text for c in scene.cards):  # the questions left
        assert q not in shown
    # recomputed: the causal weights on later tokens are exactly 0, so 05's cached outputs are exact
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    Q, K = li.X @ li.Wq, li.X @ li.Wk
    S = Q @ K.T / np.sqrt(K.shape[1])
    S[np.triu_indices(cfg.T, 1)] = -np.inf
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    assert A[np.triu_indices(cfg.T, 1)].max() == 0.0
    assert rows[1].verdict.passed and rows[1].verdict.figure.value == 0.0
    # 02's defect is rounding noise (✓), 11's rotated V moves the outputs (✗)
    assert rows[0].verdict.passed and rows[0].verdict.figure.value < 1e-12
    assert not rows[2].verdict.passed and rows[2].verdict.figure.value > 1e-3


def test_the_unseen_pairs_are_counted_from_the_frequencies(final):
    """The q4 sentence: "{q4_unseen} of {pairs} pairs sit at angles never seen" one step past training.
    Recomputed from RoPE's frequencies: pair i has gone once round the circle in training only if
    L·θᵢ ≥ 2π; the others meet, at position L, an angle larger than any they saw."""
    scene, _ = final
    cfg = load_config()
    d = LLAMA2.head_dim
    theta = cfg.rope_base ** (-2.0 * np.arange(d // 2) / d)
    unseen = int((cfg.train_length * theta < 2 * np.pi).sum())
    values = scene.caption_values()
    assert str(values["q4_unseen"]) == str(unseen) and values["pairs"] == d // 2
    assert f"{unseen} of {d // 2}" in records(scene)["q4"].claims[1].text or \
        any(f"{unseen} \"of\" {d // 2}" in t for t in full_texts(records(scene)["q4"]))
    assert str(values["q4_n_max"]) == f"{GPT2.n_max:,}".replace(",", " ") or str(values["q4_n_max"]) == str(GPT2.n_max)


def test_descriptions_name_what_is_on_screen(final):
    """Issue 33: descriptions filled in "clips 04 and 05", "clips 13 and 14", values nowhere on screen.
    Now every value a caption or description fills in is on screen, each description names its elements
    through claims bound to them, and those are visible at the end of the beat."""
    scene, _ = final
    recs = list(scene.audit.records)
    assert claim_problems(recs) == []
    for rec in recs[1:]:
        described = [c for c in rec.claims if c.where == "describe"]
        assert described and all(c.bound and c.visible for c in described), rec.key
    q = records(scene)["q1"]
    assert {c.name for c in q.claims} >= {"q1_icon", "q1_proofs", "q1_figure"}


def test_the_failed_colour_is_drawn_only_with_its_role(final):
    """Issue 33: q4 drew its table's wall in the failed colour without that role.  Every stroke of the
    wall icon in the failed colour declares it, and the truth checks' colour rule holds for every beat."""
    scene, _ = final
    wall = scene.cards[3].drawing
    red = [m for m in wall.get_family() if len(m.points) and m.get_stroke_opacity() > 0
           and m.get_stroke_color().to_hex().lower() == BAD.to_hex().lower()]
    assert red and all(getattr(m, "_role", None) == "failed" for m in red)
    assert colour_problems(list(scene.audit.records)) == []


def test_each_panel_in_its_answers_colour_and_chips_in_their_clips(final):
    scene, _ = final
    for card, a in zip(scene.cards, scene.data.answers):
        want = family_color(a.home[0].number)
        assert all(family_color(c.number) == want for c in a.home)
        assert card.frame.get_stroke_color().to_hex() == want.to_hex()
        for num, p in zip(card.nums, a.proofs):
            assert num.text == clip_number(p.clip)
            assert num.get_fill_color().to_hex() == family_color(p.clip).to_hex()
        for part in (card.q, card.ans, card.drawing, card.frame):
            assert SAFE.contains(part)
        for p in card.proofs:  # the proofs lie inside their panel
            assert card.frame.get_left()[0] < p.get_left()[0] and p.get_right()[0] < card.frame.get_right()[0]
            assert card.frame.get_bottom()[1] < p.get_bottom()[1] and p.get_top()[1] < card.frame.get_top()[1]


def test_every_beat_shows_its_own_question(final):
    scene, _ = final
    recs = records(scene)
    for k, card in enumerate(scene.cards):
        key = scene.q4_key() if k == 3 else scene.KEYS[k]
        rec = recs[key]
        assert rec.start != signature(rec), key
        lit = [i.text for i in rec.items if i.kind == "text" and i.opacity > DIMMED]
        bare = {t.replace(" ", "") for t in lit}
        assert card.q.text in lit and all(line.text in bare for line in card.ans), key
        for other in scene.cards[:k] + scene.cards[k + 1:]:  # one question a frame
            assert other.q.text not in lit, key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_the_clip_and_its_still_draw_one_icon_per_answer(final):
    """Issue 20: each answer's icon is the one shape description its still draws too."""
    scene, _ = final
    still = designed_stills("Recap", scene.data, scene.cfg)[0]
    for k, (card, panel) in enumerate(zip(scene.cards, still.panels.values())):
        assert card.drawing.icon is RECAP_ICONS[k] is panel.picture.icon


def test_captions_one_per_beat_and_long_enough_to_read(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) == 6
    assert_captions_readable(caps)
