"""Clip 15 Recap: the four diary questions, one a beat: the question, the icon of its answer (the same
icons as 00's map), the answer, and the answer's measured proofs (verdict, figure and the clip that
measured it) on a panel in the answer's family colour; the close keeps one verdict an answer and points
to the next lecture.  Each claim issue 33 listed for this clip has a test below that computes what the
sentence or the frame claims and would have failed on the old main."""

from __future__ import annotations

import numpy as np
import pytest
from manim import VGroup

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
from scenes.kit import BAD, DIM, FG, HEADING, LABEL, SMALL, family_color
from scenes.kit.theme import PROPERTY_COLORS
from scenes.kit.numbers import count, rounded
from scenes.kit.proofs import verdict
from scenes.kit.cards import clip_number
from scenes.kit.layout import SAFE
from scenes.kit.notation import N


SCENE = Recap
FINAL_SIZE = (854, 480)


def records(scene) -> dict:
    return {r.key: r for r in scene.audit.records}


def full_texts(rec) -> list[str]:
    return [i.text for i in rec.items if i.kind == "text" and not i.header and i.opacity > 0.99]


def label_x(v) -> float:
    """The size a measured line's words are set at: the height of its first sans word's "x"-free glyphs, read as
    the words' font scale (their height over a fresh label's of the same text at the heading size)."""
    from scenes.kit import label

    w = (v.line if hasattr(v, "line") else v).words[0]
    return w.height / label(w.text, size=HEADING).height


def test_data_names_real_clips_and_the_facts():
    d = Recap.build_data(load_config())
    assert len(d.answers) == 4
    by_number = {c.number: c for c in LECTURE}
    assert [tuple(c.number for c in a.home) for a in d.answers] == [(2,), (4, 5), (11,), (13, 14)]
    assert [tuple(c.number for c in a.clips) for a in d.answers] == [(2,), (3, 4, 5), (11,), (14, 13)]
    assert all(c is by_number[c.number] for a in d.answers for c in (*a.home, *a.clips))
    # one symbol for a position (review round 5: the question wrote nₘₐₓ = 1024, the verdict m ≥ 1024): m, in the verdict
    assert N.table_rows.text not in d.answers[3].question and "n_max" not in d.answers[3].question
    assert f"m ≥ {count(GPT2.n_max).text}" in d.answers[3].proofs[0].figure.text
    assert N.offset.text in d.answers[2].answer
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
    """Issue 33: the close showed four cards of words, no verdict and no number; then a table of the
    answers' sentences with a verdict under each (graded "a text table").  Now the close is a picture:
    each answer stays as its icon and the verdict of its kept proof (✓ or ✗ and the measured figure),
    large, every sentence gone (the old close printed the four answers: this fails on it); the verdicts
    agree with the measurements recomputed here from the lecture's inputs."""
    scene, _ = final
    cfg = load_config()
    close = records(scene)["close"]
    shown = full_texts(close)
    lit = " ".join(shown)
    rows = scene.close_rows.rows
    assert len(rows) == 4
    for r, a in zip(rows, scene.data.answers):
        p = a.proofs[a.key]
        assert r.verdict.passed == p.passed and r.verdict.figure.text == p.figure.text
        assert clip_number(p.clip) in shown
        for line in a.answer.split(";")[0].split(":")[:1]:  # no answer's words on screen
            assert line not in lit, line
    for q in (c.q.text for c in scene.cards):  # the questions left
        assert q not in shown
    # the verdicts are the large thing: one size, no smaller than the questions' proofs were drawn
    def size(v):  # the size a verdict is drawn at: its mark's width (a ✓ is 1, a ✗ 0.8 of its size)
        return v.check.width / (1.0 if v.passed else 0.8)

    sizes = [size(v) for v in scene.close_rows.verdicts if v.passed is not None]
    assert max(sizes) - min(sizes) < 1e-6, sizes  # one verdict size
    # round 10: every word on the close at one size, the labels' or a little under (never under SMALL)
    natural = size(verdict("x", 0.0, True, size=LABEL))
    assert abs(min(sizes) - natural * scene.close_rows.size / LABEL) < 1e-6 and scene.close_rows.size >= SMALL - 1e-6
    # recomputed: the causal weights on later tokens are exactly 0, so 05's cached outputs are exact
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    Q, K = li.X @ li.Wq, li.X @ li.Wk
    S = Q @ K.T / np.sqrt(K.shape[1])
    S[np.triu_indices(cfg.T, 1)] = -np.inf
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    assert A[np.triu_indices(cfg.T, 1)].max() == 0.0
    assert rows[1].verdict.passed and rows[1].verdict.figure.value == 0.0
    # 02's defect is rounding noise (✓); 11 keeps the answer itself, V left alone: the outputs do not move (✓;
    # review R2: the close kept the ✗ of the rotated V, the counterfactual, and dropped the answer)
    assert rows[0].verdict.passed and rows[0].verdict.figure.value < 1e-12
    assert rows[2].verdict.passed and rows[2].verdict.figure.value < 1e-12
    assert rows[2].verdict.proof is scene.data.answers[2].proofs[0]  # V left alone, the answer's own proof
    # the description says what the verdict lines say, not the notes the close left behind (review R2)
    said = str(scene.caption_values()["close_verdicts"])
    assert "random permutations" not in said and "shifts by" not in said and "head dim" not in said
    assert "V left alone" in said and "47 of 64" in said


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
        any(f"{unseen} \"of\" {d // 2}" in t for t in full_texts(records(scene)["q4"])) or \
        f"${unseen}$ of ${d // 2}$" in scene.cards[3].verdicts[2].line.source  # the worded verdict's line
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


def test_panels_and_chips_are_neutral_and_icons_carry_only_concept_and_token_colours(final):
    """Review R2 (15): the panels took the answer's family colour and the chips their clip's ("03" pink inside a
    green panel), two colour schemes with no stated meaning.  Panels, close cards and chips are now one neutral
    grey with the number in the foreground colour; the only hues left are meanings: ✓/✗, the wall's red, the
    query/key/value colours, and the first answer's tokens in the deck's token colours."""
    from scenes.clips.c15_recap import NEUTRAL

    scene, _ = final
    grey = NEUTRAL.to_hex().lower()
    assert grey == DIM.to_hex().lower()
    frames = [c.frame for c in scene.cards] + [r.card for r in scene.close_rows.rows]
    chips = [p.chip for c in scene.cards for p in c.proofs] + [r.chip for r in scene.close_rows.rows]
    for f in frames:
        assert f.get_stroke_color().to_hex().lower() == grey and f.get_fill_color().to_hex().lower() == grey
    for chip in chips:
        assert chip.box.get_stroke_color().to_hex().lower() == grey
        assert chip.num.get_fill_color().to_hex().lower() == FG.to_hex().lower()
    for card, a in zip(scene.cards, scene.data.answers):
        for num, p in zip(card.nums, a.proofs):
            assert num.text == clip_number(p.clip)
        for part in (card.q, card.ans, card.drawing, card.frame):
            assert SAFE.contains(part)
        if card is scene.cards[-1]:  # its icon and kept verdict moved into the close (rendered to the end)
            continue
        for p in card.proofs:  # the proofs lie inside their panel
            assert card.frame.get_left()[0] < p.get_left()[0] and p.get_right()[0] < card.frame.get_right()[0]
            assert card.frame.get_bottom()[1] < p.get_bottom()[1] and p.get_top()[1] < card.frame.get_top()[1]
    # no family colour is left anywhere in the recap's cards
    families = {c.to_hex().lower() for c in PROPERTY_COLORS}
    for m in (*scene.cards, scene.close_rows):
        for f in m.get_family():
            if len(f.points):
                assert f.get_stroke_color().to_hex().lower() not in families or f.get_stroke_opacity() == 0
                assert f.get_fill_color().to_hex().lower() not in families or f.get_fill_opacity() == 0


def test_the_permutation_icon_gives_each_token_its_own_colour(final):
    """Review round 4b (15 `q1`): the tokens were grey chips of arbitrary shades.  Each chip now has its token's colour
    (the frame in it, a faint wash of it, the name x_t in it) on both rows, each link in the colour of the token it
    carries, from that token's chip on the top row to its new place; the rows are named X and P X as in 02.
    Review round 7 (RT): 02's token colours put x₀ in the key's blue and x₃ near the value's magenta, the colours the
    next beats give K and V; the recap's own four stay apart from Q, K and V and from each other for every viewer."""
    from scenes.clips.c15_recap import RECAP_TOKENS, token_order
    from scenes.kit.theme import KEY, QUERY, VALUE
    from tests.test_lecture_language import _contrast, min_distance

    token_color = lambda t: RECAP_TOKENS[t]  # noqa: E731
    tok = [c.to_hex().upper() for c in RECAP_TOKENS]
    assert min_distance(tok)[0] >= 15.0
    for c in (QUERY, KEY, VALUE):
        assert min(min_distance([t, c.to_hex().upper()])[0] for t in tok) >= 15.0, c
    assert all(_contrast(t, "#0E1117") >= 4.5 for t in tok)

    scene, _ = final
    pic = scene.cards[0].drawing
    icon = RECAP_ICONS[0]
    top, below = token_order(icon)
    assert sorted(below) == top == [0, 1, 2, 3] and below != top  # a real permutation
    n = len(top)
    links, boxes = pic[:n], pic[n:3 * n]
    assert [m.typst_code.strip("$ ") for m in pic.letters] == [f"x_{t}" for t in top + below]
    hexes = lambda c: c.to_hex().lower()  # noqa: E731
    for name, box, t in zip(pic.letters, boxes, top + below, strict=True):
        assert np.allclose(name.get_center(), box.get_center(), atol=1e-6) and name.width < box.width
        assert hexes(box.get_stroke_color()) == hexes(name.get_fill_color()) == hexes(token_color(t))
    for j, link in enumerate(links):  # link j runs from its token's top box to bottom box j, in its colour
        start, end = link.points[0], link.points[-1]
        assert abs(start[0] - boxes[below[j]].get_x()) < 1e-6 and abs(end[0] - boxes[n + j].get_x()) < 1e-6
        assert abs(start[1] - boxes[below[j]].get_bottom()[1]) < 1e-6 and abs(end[1] - boxes[n + j].get_top()[1]) < 1e-6
        assert hexes(link.get_stroke_color()) == hexes(token_color(below[j]))
    assert [m.typst_code.strip("$ ") for m in pic.rows_named] == ["X", "P X"]
    assert pic.rows_named[0].get_y() > pic.rows_named[1].get_y()
    said = str(scene.caption_values()["q1_icon"])
    assert "shade" not in said and "x 0 to x 3" in said and "each in its own colour" in said and "P X" in said


def test_every_beat_shows_its_own_question(final):
    scene, _ = final
    recs = records(scene)
    for k, card in enumerate(scene.cards):
        key = scene.q4_key() if k == 3 else scene.KEYS[k]
        rec = recs[key]
        assert rec.start != signature(rec), key
        lit = {i.mid for i in rec.items if i.opacity > DIMMED}
        pieces = lambda g: [p for line in g for p in line.pieces]  # noqa: E731  (words and maths of its lines)
        assert all(id(p) in lit for p in pieces(card.q)) and all(id(p) in lit for p in pieces(card.ans)), key
        for other in scene.cards[:k] + scene.cards[k + 1:]:  # one question a frame
            assert not any(id(p) in lit for p in pieces(other.q)), key
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_the_clip_and_its_still_draw_one_icon_per_answer(final):
    """Issue 20: each answer's icon is the one shape description its still draws too."""
    scene, _ = final
    still = designed_stills("Recap", scene.data, scene.cfg)[0]
    for k, (card, panel) in enumerate(zip(scene.cards, still.panels.values())):
        assert card.drawing.icon is RECAP_ICONS[k] is panel.picture.icon


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) == 6


def test_the_q4_verdict_says_what_was_measured():
    """Reviewer (issue 33, clip 15 at B+): q4's verdict read "GPT-2 rows for m ≥ 1024 = 0" with a red
    cross, which a student reads as a failed proof.  It now names what was counted, the rows past GPT-2's
    1024, and says what the cross means (the table does not extrapolate), alike in the clip's formula, its
    note, the audio description and the still.  The count itself is recomputed: the learned table defines
    positions 0 to n_max − 1 and none from n_max on."""
    from mathcore.measure import extrapolation_report
    from scenes.figures.framing import diary_proofs

    cfg = load_config()
    rows_past = diary_proofs(cfg)[3][0]
    ms = [GPT2.n_max - 1, GPT2.n_max, GPT2.n_max + 1, 2 * GPT2.n_max]
    defined = extrapolation_report(ms, GPT2.d_model, GPT2.n_max, cfg.seed).learned_defined
    assert list(defined) == [True, False, False, False]
    assert rows_past.figure.value == int(defined[1:].sum()) == 0 and not rows_past.passed
    # review R2: "rows past GPT-2's 1024 = 0" read as "1024 = 0".  The verdict names the model, then what was
    # measured in words after a colon, no "=" next to 1024: "✗ GPT-2: no row for m ≥ 1024"
    assert rows_past.formula == '"GPT-2"' and rows_past.figure.text == f"no row for m ≥ {GPT2.n_max}"
    assert rows_past.figure.math == f'"no row for" m >= {GPT2.n_max}'
    assert "= 0" not in rows_past.still_text() and f"{GPT2.n_max} =" not in rows_past.still_text()
    # what the cross means is said (the description), the note under it says where the table ends (review round 3:
    # the note was the smallest text in the clip; it is short now, at the labels' size)
    assert "does not extrapolate" in rows_past.meaning and "does not extrapolate" in rows_past.described()
    assert f"ends at row {count(GPT2.n_max - 1).text}" in rows_past.note
    assert f"row {GPT2.n_max - 1}" in rows_past.note  # the table's last row, as drawn in clip 14
    assert rows_past.still_text() == f"✗ GPT-2: no row for m ≥ {GPT2.n_max}"
    # on screen: ✗, the model's name in words, then "no row for" and m ≥ 1024 typeset
    from scenes.clips.c15_recap import proof_verdict

    v = proof_verdict(rows_past, HEADING)
    assert v.passed is False and "".join(w.text for w in v.line.words) == "GPT-2:norowfor"
    assert [m.typst_code.strip("$ ") for m in v.line.maths] == [f"m >= {GPT2.n_max}"]
    # the still prints the same verdict line after clip 14's chip
    d = Recap.build_data(cfg)
    card = list(designed_stills("Recap", d, cfg)[0].panels.values())[3]
    assert [ln.text for ln in card.lines[2:]][0] == rows_past.still_text() and card.lines[2].chips == (14,)


def test_icons_are_large_and_in_their_concepts_colours(final):
    """Reviewer (issue 33, clip 15 at B+): the icons were small (q3's about 1.3 units, a tenth of the
    frame) and q3's q and k were drawn in the positional family's purple, another idea's colour.  Now every
    question's icon is one size, at least a fifth of the frame's width, in one place; the cache's K and V
    rows, the dial's q and k and the upright v are drawn in the query, key and value colours, each
    declaring its role, and nothing else in the icons uses those colours."""
    from scenes.kit.theme import CONCEPT_COLORS

    scene, _ = final
    want = {CONCEPT_COLORS[r].to_hex().lower(): r for r in ("query", "key", "value")}

    def painted(mob):
        out = {}
        for m in mob.get_family():
            if not len(m.points):
                continue
            for c, o in ((m.get_stroke_color(), m.get_stroke_opacity()), (m.get_fill_color(), m.get_fill_opacity())):
                if o > 0 and c.to_hex().lower() in want:
                    out.setdefault(want[c.to_hex().lower()], []).append(m)
        return out

    def declared(m, owner):
        chain = [f for f in owner.get_family() if m in f.get_family()]
        return {getattr(f, "_role", None) for f in chain} - {None}

    for k, roles in ((1, {"key", "value"}), (2, {"query", "key", "value"})):
        pic = scene.cards[k].drawing
        got = painted(pic)
        assert set(got) == roles, (k, set(got))
        for r, mobs in got.items():
            assert all(r in declared(m, pic) for m in mobs), (k, r)
    assert not painted(scene.cards[0].drawing) and not painted(scene.cards[3].drawing)
    assert colour_problems(list(scene.audit.records)) == []
    # large: one size, in one place, for every question's icon
    drawn = [max(c.drawing.width, c.drawing.height) for c in scene.cards[:-1]]  # the last moved into the close
    sides = [getattr(c, "side", max(c.drawing.width, c.drawing.height)) for c in scene.cards]
    # one size for q1–q3; q4's picture larger still, its dial the subject (review round 5)
    assert min(sides) >= 0.2 * 14.2 and max(sides[:-1]) - min(sides[:-1]) < 1e-6 and sides[-1] >= sides[0] - 1e-6, sides
    assert all(w >= sides[0] - 1e-6 for w in drawn), drawn  # each fills its column's width or its square
    assert all(c.drawing.width <= sides[0] + 1e-6 for c in scene.cards[:-1])
    assert len({round(c.drawing.get_center()[0], 6) for c in scene.cards[:-1]}) == 1  # one place


def test_icon_paint_is_one_description_in_both_back_ends():
    """The kit's ``paint=`` (added for this clip): the shapes it names are drawn in the concept colours, in
    Manim and in matplotlib alike (so the still's dial shows q orange, k blue, v yellow as the clip does),
    and a paint naming no shape or no concept role is refused with what would be right."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from scenes.figures.framing import RECAP_PAINT
    from scenes.kit.icons import to_manim, to_matplotlib
    from scenes.kit.theme import CONCEPT_COLORS
    from scenes.stills.draw import DARK

    icon, paint = RECAP_ICONS[2], RECAP_PAINT[2]
    fig, ax = plt.subplots()
    to_matplotlib(icon, ax, DARK, "#D2A8FF", paint)
    arrows = [p for p in ax.patches if type(p).__name__ == "FancyArrowPatch"]
    got = [matplotlib.colors.to_hex(p.get_facecolor()).upper() for p in arrows]
    assert got == [DARK.color(paint[i]).upper() for i in (2, 3, 4)]  # q, k, v pointers in shape order
    assert [t.get_color().upper() for t in ax.texts] == [DARK.color(paint[i]).upper() for i in (5, 6, 7)]
    plt.close(fig)
    g = to_manim(icon, family_color(11), 1.0, paint)
    assert g[2].get_color().to_hex().lower() == CONCEPT_COLORS["query"].to_hex().lower() and g[2]._role == "query"
    assert g.letters[1]._role == "key"
    for bad in ({99: "query"}, {2: "purple"}):
        with pytest.raises(ValueError, match="paint"):
            to_manim(icon, family_color(11), 1.0, bad)


def test_the_kv_cache_marks_its_new_row_as_clip_05_does(final):
    """Review round 4b (15 `q2`): "new" was only a brighter bottom row and an unlabelled arrow between the columns,
    and the answer said "add one query a step" (a query is never cached: each step appends one key row and one
    value row).  Now the columns are named as 05 names them ("K cache", "V cache", in the key's and the value's
    colour), the rows kept from earlier steps are framed and named "cached", and the row each column appended this
    step is outlined in the highlight's yellow, named k_m and v_m on it, with "new" beside it, as clip 05 marks
    it; the arrow is gone.  The answer says one row is appended to each, and the sentence a key and a value row."""
    from scenes.kit import HIGHLIGHT, KEY, VALUE

    scene, _ = final
    pic = scene.cards[1].drawing
    bars = list(pic.submobjects[:8])
    assert not any(type(m).__name__ == "Arrow" for m in pic.get_family())  # the unlabelled arrow is gone
    heads = [h.text if hasattr(h, "text") and not hasattr(h, "typst_code") else h.typst_code.strip("$ ")
             for h in pic.heads]
    assert heads in (["Kcache", "Vcache"], ["K", "V"]) and [h._role for h in pic.heads] == ["key", "value"]
    hexes = lambda c: c.to_hex().lower()  # noqa: E731
    assert [hexes(h.get_color()) for h in pic.heads] == [hexes(KEY), hexes(VALUE)]
    for head, col in zip(pic.heads, (bars[:4], bars[4:])):
        assert abs(head.get_x() - VGroup(*col).get_x()) < 0.05 and head.get_bottom()[1] > VGroup(*col).get_top()[1]
    new_bars = (bars[3], bars[7])  # the bottom row of each column: appended this step
    for ring, bar in zip(pic.new_rows, new_bars, strict=True):
        assert ring._role == "highlight" and hexes(ring.get_stroke_color()) == hexes(HIGHLIGHT)
        assert np.allclose(ring.get_center(), bar.get_center(), atol=1e-6) and ring.width > bar.width
    assert [m.typst_code.strip("$ ") for m in pic.row_names] in (["k_m", "v_m"], [])  # named where the name reads
    from scenes.kit.layout import MIN_XHEIGHT_PX, legible_scale

    assert all(legible_scale(t, MIN_XHEIGHT_PX) <= 1.0 for t in pic.row_names)  # (the max corner: too small, so none)
    cached, new = pic.tags
    assert cached.text == "cached" and new.text == "new" and new._role == "highlight"
    kept = VGroup(*bars[:3], *bars[4:7])
    assert pic.frame.get_top()[1] > kept.get_top()[1] and pic.frame.get_bottom()[1] < kept.get_bottom()[1]
    assert pic.frame.get_bottom()[1] > max(b.get_top()[1] for b in new_bars)  # the new row is outside the frame
    assert abs(new.get_y() - bars[3].get_y()) < 1e-6 and new.get_right()[0] < bars[3].get_left()[0]
    assert abs(cached.get_y() - pic.frame.get_y()) < 1e-6
    answer = scene.data.answers[1].answer
    assert "query" not in answer and "each step appends one row to each" in answer
    says = {c.key: c.text for c in scene.captions}["q2"]
    assert "appends one key row and one value row" in says and "query" not in says
    # review round 4b, change 1: the drawing is the subject; its rows are drawn taller, so the cache fills its square
    # (CACHE_TALL of its width) as the tokens fill theirs, not a strip half as tall as it is wide
    from scenes.clips.c15_recap import CACHE_STRETCH, CACHE_TALL

    tall = pic.height / pic.width
    row = bars[0].height / bars[0].width
    assert tall >= CACHE_TALL - 0.05 or row >= CACHE_STRETCH * 0.12 / 0.4 - 1e-6, (tall, row)
    said = str(scene.caption_values()["q2_icon"])
    assert "named cached" in said and "named new" in said and ("k m and v m" in said) == bool(len(pic.row_names))


def test_the_drawing_is_as_large_as_leaves_the_proofs_legible_and_answers_break_well(final):
    """Review round 4b (15): the frames were text-led, the answer a large bold sentence beside small drawings.  The
    answer is now set no larger than the headings (it supports the drawing), and the drawing's share of the width
    is the largest of ``ICON_SHARES`` that keeps every question's proofs legible (or as large as the smallest
    drawing leaves them): one share larger would shrink some proof below that.  q3's answer must never break inside
    "m − n", and q1's must not leave one word ("terms.") alone on its last line."""
    from scenes.clips.c15_recap import ANSWER_SIZES, ICON_SHARES, well_broken

    scene, _ = final
    assert max(ANSWER_SIZES) <= 1.1
    for c in scene.cards:
        assert max(ln.height for ln in c.ans) <= 1.05 * max(ln.height for ln in scene.make_cards(scene.icon_share)[0].ans)
    share = scene.icon_share
    best = [c.proofs.fit for c in scene.make_cards(ICON_SHARES[-1])]
    assert all(c.proofs.fit >= min(f, c.proofs.least) - 1e-3 for c, f in zip(scene.cards, best))
    k = ICON_SHARES.index(share)
    if k > 0:  # the next larger drawing would have cost some proof its legibility
        bigger = scene.make_cards(ICON_SHARES[k - 1])
        assert any(c.proofs.fit < min(f, c.proofs.least) - 1e-3 for c, f in zip(bigger, best))
    for a, c in zip(scene.data.answers, scene.cards):
        lines = [ln.text for ln in c.ans]
        assert well_broken(a.answer, lines), lines
    q1, q3 = scene.data.answers[0].answer, scene.data.answers[2].answer
    assert not well_broken(q1, ["P only reorders the tokens: each sum adds the same terms in another", "order."])
    # review R2: a symbol never ends a line away from the words it starts ("…; V" / "is content")
    assert not well_broken(q3, ["Scores depend only on m − n; V", "is content, not position."])
    assert not well_broken(q3, ["Scores depend only on m", "− n; V is content, not position."])
    assert not well_broken(q3, ["Scores depend only on m −", "n; V is content, not position."])
    assert well_broken(q3, ["Scores depend only on m − n;", "V is content, not position."])


def word_size(x) -> float:
    """The size a close's line is set at: a worded line's from its first word (``label_x``), a verdict's from its
    mark (a ✓ is ``0.32 × size / LABEL`` wide at ``check_mark``'s scale, a ✗ 0.8 of that)."""
    from scenes.kit.proofs import check_mark

    if hasattr(x, "words") or hasattr(x, "line"):
        return label_x(x) * HEADING
    return x.check.width / (1.0 if x.passed else 0.8) / check_mark(0.32).width * LABEL


def close_problems(close, frame_h: float) -> list[str]:
    """What keeps a close from reading in 3 seconds (review round 10, 15 `close`: four cards of ~60 words, icons
    ~70 px, ✓/✗ lines, a pale-blue line and bold takeaways mixed, a line under them): a card with more than one
    measured line, a meaning longer than five words or two lines, a picture that is not the largest thing on its
    card (by the area of its box) or is under a fifth of the frame's height, the words at more than one size, more than one line under the
    cards."""
    out = []
    sizes = []
    for k, r in enumerate(close.rows):
        if len(r.lines):
            out.append(f"card {k + 1}: {1 + len(r.lines)} measured lines")
        words = r.take.text.replace(N.offset.text, "x").split()
        if len(words) > 5 or len(r.take) > 2:
            out.append(f"card {k + 1}: a meaning of {len(words)} words on {len(r.take)} lines")
        side = max(r.drawing.width, r.drawing.height)
        if side < frame_h / 5:
            out.append(f"card {k + 1}: its picture {side:.2f} units, under a fifth of the frame's height")
        if any(x.width * x.height >= r.drawing.width * r.drawing.height for x in (r.verdict, r.take, r.chip)):
            out.append(f"card {k + 1}: its picture is not the largest thing on it")
        sizes += [word_size(r.verdict), *[word_size(ln) for ln in r.take if len(ln.words)]]  # ("m − n": math)
    if max(sizes) - min(sizes) > 0.05 * max(sizes):
        out.append(f"the words at sizes from {min(sizes):.1f} to {max(sizes):.1f}")
    nxt = close.next
    if nxt.get_top()[1] > min(r.card.get_bottom()[1] for r in close.rows) or \
            nxt.height > 1.5 * max(nxt.lecture.height, nxt.where.height):
        out.append("not one line under the cards")
    return out


def test_the_close_is_four_large_pictures_each_with_one_figure_and_its_meaning(final):
    """Review round 10 (15 `close`, B+): the close was four text cards of ~60 words with icons ~70 px and ✓/✗ lines,
    a pale-blue line and bold takeaways mixed, plus a line under them: a wall of text.  Now it is a row of four
    cards, each its clip's own picture, the largest thing on it and at least a fifth of the frame high, one measured
    figure (mathcore's, as the question's panel printed it) and a meaning of at most five words, every word at one
    size, and one line under them.  ``close_problems`` finds six problems on the round-9 close (its cards kept three
    measured lines, icons 0.8 units) and none here; ``test_close_problems_catches_a_wall_of_text`` shows it failing."""
    scene, _ = final
    close = scene.close_rows
    assert close_problems(close, scene.camera.frame_height) == []
    rows = close.rows
    # one row: the cards side by side, one height, the pictures on one line, the figures on one baseline
    assert all(a.card.get_right()[0] < b.card.get_left()[0] for a, b in zip(rows, rows[1:]))
    assert len({round(r.card.height, 6) for r in rows}) == 1
    assert max(max(r.drawing.width, r.drawing.height) for r in rows) - \
        min(max(r.drawing.width, r.drawing.height) for r in rows) < 1e-3
    from scenes.kit.proofs import line_baseline
    assert np.ptp([line_baseline(r.verdict.value) for r in rows]) < 1e-3
    # each figure is the kept proof's, as its question's panel showed it
    for r, a, c in zip(rows, scene.data.answers, scene.cards):
        p = a.proofs[a.key]
        assert r.verdict.figure is p.figure and r.verdict.passed == c.verdicts[a.key].passed
        assert r.chip.num.text == clip_number(p.clip)


def test_close_problems_catches_a_wall_of_text(final):
    """The check above fails on a close made for it: a card given a second measured line, a six-word meaning, a
    thumbnail shrunk to 70 px of 720 and a meaning set larger than the figures."""
    from scenes.clips.c15_recap import fit_worded

    scene, _ = final
    close = scene.close_rows
    h = scene.camera.frame_height
    wall = close.copy()  # a deep copy: its rows, lines and words are the copy's own
    assert close_problems(wall, h) == []  # the copy reads as the close does
    wall.rows[0].lines = VGroup(wall.rows[0].verdict.copy())
    wall.rows[1].take = fit_worded("the past never changes at all, ever", 6.0, LABEL, weight="BOLD", max_lines=1)
    wall.rows[2].drawing.scale(70 / 720 * h / max(wall.rows[2].drawing.width, wall.rows[2].drawing.height))
    wall.rows[3].take = fit_worded("no wall", 6.0, 1.3 * LABEL, weight="BOLD", max_lines=1)
    found = close_problems(wall, h)
    assert any("card 1: 2 measured lines" in f for f in found), found
    assert any("card 2: a meaning of 7 words" in f for f in found), found
    assert any("card 3: its picture" in f and "fifth" in f for f in found), found
    assert any("the words at sizes" in f for f in found), found


def test_verdict_words_are_set_in_the_sans_and_their_math_typeset(final):
    """Issue 33 (one verdict style): "V rotated:", "rows past GPT-2's" and "RoPE pairs at unseen angles" were set
    as quoted words inside Typst math, in the serif of the formulas.  Now a verdict with words is a worded verdict:
    its words are the sans ``Text`` pieces, its math (and its figure) typeset; an all-math verdict stays one
    formula.  On the old code the verdicts had no ``.line``, so this fails there."""
    scene, _ = final
    q3, q4 = scene.cards[2].verdicts, scene.cards[3].verdicts
    words = lambda v: " ".join(w.text for w in v.line.words)  # noqa: E731  (Text drops spaces)
    assert "rotated:" in words(q3[1]) and "leftalone:" in words(q3[0])
    assert all(v.line.maths[0].typst_code.strip("$ ") == "V" for v in q3)  # V is math, as everywhere (review R2)
    assert "GPT-2:" in words(q4[0]) and "RoPE:" in words(q4[1]) and words(q4[2]).startswith("at")  # its condition L on its own line
    assert all(len(v.line.maths) >= 1 for v in (*q3, *q4))  # max |ΔY|, 1024, 47 and 64 stay math
    assert not hasattr(scene.cards[0].verdicts[0], "line")  # ‖Attn(PX) − P·Attn(X)‖ ≈ …: one formula


def test_symbols_are_math_in_every_sentence_on_screen(final):
    """Review R2 (15): "P" in q1's answer and note, "m – n" in q3's answer, "nₘₐₓ" in q4's question and "L = 64"
    in its note were set in the sans, while the same symbols are italic math in every formula.  Every symbol
    in the questions, answers, notes and verdict words is now a math piece: no sans word is one of them."""
    import re

    scene, _ = final
    symbol = re.compile(r"(?<![\w'’-])([PQKVLmndtb]|nₘₐₓ)(?![\w'’-])")
    lines = []
    for c in scene.cards:
        lines += [*c.q, *c.ans, *[p.note for p in c.proofs if len(p.note)],
                  *[v.line for v in c.verdicts if hasattr(v, "line")]]
    for line in lines:  # the words of each line as written (Text.text drops spaces), its $math$ taken out
        words = re.sub(r"\$[^$]*\$", " ", line.source)
        assert not symbol.search(words), line.source
    maths = {m.typst_code.strip("$ ") for line in lines for m in line.maths}
    assert {"P", "V", "K", "Q", N.offset.math, "L = 64", "m = 12 thin 288 = 3 times 4096"} <= maths, maths
    assert not any(N.table_rows.math in m for m in maths)  # one symbol for a position, m (review round 5)


# ------------------------------------------------------------------ review round 3
def test_q4_answers_why_with_ropes_check(final):
    """Review round 3 (15 `q4`): "why did GPT-2's table give way to RoPE?" was answered by two ✗.  RoPE's reason
    has its ✓, clip 14's own check (review round 5: it quoted "0 position parameters", which clip 14 no longer
    shows): LLaMA-2's slowest pair at three times its training length, far past GPT-2's last row, still has an
    angle, mathcore's m·θᵢ; the recap's verdict is the very check clip 14 builds its close from.  The 47 of 64 ✗
    stays, the close's hook, said with its training length (one step past L = 64, not LLaMA-2's 4096)."""
    from mathcore.extrapolation import LLAMA2, pair_angles
    from mathcore.measure import extrapolation_report
    from scenes.clips.c14_gpt2_to_llama import GPT2ToLLaMA

    scene, _ = final
    a = scene.data.answers[3]
    g = GPT2
    rep = extrapolation_report([g.n_max], LLAMA2.head_dim, g.n_max, scene.cfg.seed, scene.cfg.rope_base)
    assert not rep.learned_defined[0]
    gpt, rope, unseen = a.proofs
    # the deck's convention (round 7): ✗ on the table's last row, ✓ on RoPE's angle at every m, and the unseen angles a
    # measurement, no mark; the close keeps the count, the figure its dial draws (round 10: one figure a card)
    assert gpt.passed is False and rope.passed is True and unseen.passed is None
    assert a.key == 2 and a.also == () and a.proofs[a.key] is unseen
    # the same position, pair and angle as clip 14's close, measured again here
    d14 = GPT2ToLLaMA.build_data(scene.cfg)
    m, i = d14.slow_position, d14.slow_index
    assert m > g.n_max and m == 3 * LLAMA2.train_length and i == LLAMA2.head_dim // 2 - 1
    deg = int(round(float(np.degrees(pair_angles(m, LLAMA2.head_dim, LLAMA2.rope_base)[i]))))
    assert np.isfinite(pair_angles(m, LLAMA2.head_dim, LLAMA2.rope_base)[i])
    assert rope.figure.text == "an angle at every m, no last row" and rope.clip == 14 and rope.formula == '"RoPE"'
    v = scene.cards[3].verdicts
    assert [x.passed for x in v] == [False, True, None]
    assert len(v[2].check) == 0 and not hasattr(v[2], "_verdict")  # no ✓ and no ✗ on the unseen angles
    words = "".join(w.text for w in v[1].line.words).replace(" ", "")
    assert words.startswith("RoPE:anangleatevery") and "nolastrow" in words, words  # m is set as math
    # the 81° is a measurement on the dial, in the unseen colour, the deck's one term (round 8): an unseen angle
    hw = scene.cards[3].drawing.hand_words
    assert f"{deg}°" in hw.maths[0].typst_code and "".join(w.text for w in hw.words) == ",anunseenangle"
    says = {c.key: c.text for c in scene.captions}
    L = scene.cfg.train_length
    assert f"one step past a training length of {L}," in says[scene.q4_key()] or \
        f"one step past a training length of {L} " in says[scene.q4_key()]
    assert "64 of 64" not in says[scene.q4_key()] and "have an angle there" not in says[scene.q4_key()]
    assert f"At m = {count(m).text}, three times LLaMA-2's training length, its slowest pair turns to about {deg} " \
        "degrees, an unseen angle." in says[scene.q4_key()]
    # the KV verdicts keep their condition: exact in a fixed summation order (clip 04 shows BLAS is not)
    notes = [p.note for p in scene.data.answers[1].proofs]
    assert notes == ["", "", ""], notes  # 03, 04 one-liners (round 6), and 05 too (round 7), the condition under them
    assert scene.data.answers[1].shared == "outputs summed in a fixed order"
    assert scene.cards[1].proofs.shared.text == scene.data.answers[1].shared
    assert "fixed order" in says["q2"]
    assert "two verdicts and under them, in pale blue with no mark, a measurement" in \
        {c.key: c.describe for c in scene.captions}[scene.q4_key()]


def test_a_rounded_figure_is_related_by_approx(final):
    """Review round 3 (15 `q3`): "V rotated: max |ΔY| = 1.6" printed a rounded figure with "=".  A figure whose
    digits round its value is related by ≈ (``numbers.rounded``); exact ones keep "="."""
    scene, _ = final
    for card, a in zip(scene.cards, scene.data.answers, strict=True):
        for v, p in zip(card.verdicts, a.proofs, strict=True):
            code = " ".join(m.typst_code for m in v.get_family() if hasattr(m, "typst_code"))
            if rounded(p.figure):
                assert "approx" in code and " = " not in code.replace("n_\"max\" = ", ""), (p.formula, code)
    rot = scene.data.answers[2].proofs[1]
    assert rounded(rot.figure) and rot.figure.value != float(rot.figure.text)


def test_q2_writes_each_proof_as_its_clip_does(final):
    """Review round 4b (15 `q2`): the recap wrote max_t |Y_prefix − Y_full| and max_m |Y_cached − Y_full|, the limits
    as subscripts, where clip 04 writes max over t, n < t of |y_n^(t) − y_n| (t its prefix length) and clip 05
    max over m of ‖y_m^cached − y_m^full‖, the limits under max.  Each formula is now its clip's own Typst: 03's from
    ``figures.causal`` (its proof), 04's from the prefix rows 04 draws, 05's the relation 05's verdict prints
    (read from its source); no subscripted max and no capital Y is left."""
    from scenes.figures.causal import MN, M, NN, T_, prefix_row

    scene, _ = final
    f03, f04, f05 = (p.formula for p in scene.data.answers[1].proofs)
    # review round 6: three formulas with scripts stacked made q2 the clip's notebook page.  03's and 04's are
    # one-liners in words, each an exact 0 with its chip beside it and no note; review round 7: 05's stayed a formula,
    # its chip under it (two registers, two chip places): all three are one-liners in words now, chips at their ends
    assert (f03, f04, f05) == ('"weight on the future"', '"change in past outputs"', '"change from caching"')
    assert M == "m" and MN == f"{M} {NN}" and T_ == "t" and prefix_row(M) == f"y_{M}^(({T_}))"
    card = scene.cards[1]
    for p, one in zip(scene.data.answers[1].proofs, card.proofs, strict=True):
        assert p.note == "" and p.figure.value == 0.0 and p.passed and len(one.note) == 0
        assert abs(one.chip.get_y() - one.verdict.value.get_y()) < 0.05  # beside its line
        assert one.chip.get_left()[0] > one.verdict.get_right()[0]
    xs = [one.chip.get_left()[0] for one in card.proofs]
    assert max(xs) - min(xs) < 1e-6  # the chips in one column
    # 05's figure is its cached-against-recomputed gap, measured again here
    from mathcore.measure import kv_cache_decode

    li = lecture_inputs(scene.cfg.T, scene.cfg.d, scene.cfg.seed)
    assert scene.data.answers[1].proofs[2].figure.value == kv_cache_decode(li.X, li.Wq, li.Wk, li.Wv).max_defect == 0.0
    for p in scene.data.answers[1].proofs:
        assert "scripts(max)" not in p.formula and "Y_" not in p.formula
    # the close keeps 05's figure alone, "✓ 0 exact" (round 10: its name was given in full on q2's panel)
    kept = scene.close_rows.verdicts[1]
    assert kept.proof is scene.data.answers[1].proofs[2] and kept.passed and kept.figure.value == 0.0


def test_Q_sits_on_the_baseline_of_its_words(final):
    """Review round 4b (15 `q3`): the italic Q stood raised above the words in "rotate Q and K" and "rotated like Q
    and K" (checked in crops): the worded line seats a formula by its lowest glyph, Q's tail.  Now Q's tail reaches
    under the baseline by its measured depth while K and V sit on it, in the question and in the note."""
    from scenes.clips.c15_recap import tail_depth
    from scenes.kit.layout import baseline_y

    scene, _ = final
    lines = [ln for ln in scene.cards[2].q] + [scene.cards[2].proofs[1].note]
    seen = 0
    for line in lines:
        base = np.median([baseline_y(w) for w in line.words])
        for m in line.maths:
            code = m.typst_code.strip("$ ")
            if code == "Q":
                depth = tail_depth("Q", m.height)
                assert depth > 0.02 and abs(m.get_bottom()[1] - (base - depth)) < 0.25 * depth, (m.get_bottom()[1], base, depth)
                seen += 1
            elif code in ("K", "V"):
                assert abs(m.get_bottom()[1] - base) < 0.02, code
    assert seen == 2


def test_q4_says_one_step_past_L_and_names_the_head(final):
    """Review round 4b (15 `q4`): "RoPE pairs unseen at m = 64: 47 of 64" used 64 twice, a position and a pair count,
    and "the same head" named a head never shown.  The verdict now reads "one step past L = 64: 47 of 64 pairs
    unseen" (recomputed here from the frequencies at position L), its note names the head, 128 wide (LLaMA-2's
    head, the one clip 13 counts), the sentence says the head's width, and the close shows the dial alone beside
    this RoPE-only verdict (its table had no verdict there): no table row and no red wall on the last card."""
    from scenes.kit.theme import FAILED

    scene, _ = final
    cfg = scene.cfg
    d = LLAMA2.head_dim
    theta = cfg.rope_base ** (-2.0 * np.arange(d // 2) / d)
    unseen = int((cfg.train_length * theta < 2 * np.pi).sum())
    p = scene.data.answers[3].proofs[2]
    L = count(cfg.train_length).text
    assert p.still_text() == f"at $m = L$: {unseen} of {d // 2} pairs at unseen angles"  # no mark
    v = scene.cards[3].verdicts[2]
    words = "".join(w.text for w in v.line.words)
    assert words.startswith("at") and words.endswith("pairsatunseenangles"), words
    assert v.line.maths[0].typst_code.strip("$ ") == "m = L"  # one step past positions 0 to L − 1
    assert p.note == f"toy head, {d} wide, b = {count(int(cfg.rope_base)).text}, L = {L}"
    says = {c.key: c.text for c in scene.captions}[scene.q4_key()]
    assert f"In a toy head {d} wide, base {count(int(cfg.rope_base)).text}, one step past a training length of {L}" in says
    assert f"{unseen} of {d // 2} pairs" in says
    # review round 6: the last card keeps GPT-2's wall and its ✗ beside clip 13's count, both moved there
    last = scene.close_rows.rows[-1]
    assert any(m.get_stroke_color().to_hex().lower() == FAILED.to_hex().lower() and m.get_stroke_opacity() > 0
               for m in last.drawing.table.get_family() if len(m.points))  # the red wall
    assert sum(type(m).__name__ == "RoundedRectangle" for m in last.drawing.table.get_family()) == 5  # its rows
    # round 10: one measured figure a card; the fourth keeps clip 13's count, the one its dial draws (the question's
    # panel gave GPT-2's ✗ and RoPE's ✓ in full), its chip 13
    assert last.verdict.passed is None and len(last.lines) == 0 and last.chip.num.text == clip_number(13)
    assert "GPT-2's table with its red wall beside a dial whose hand stands one step past its training arc" in \
        str(scene.caption_values()["close_verdicts"])


def test_the_last_card_keeps_the_count_and_its_meaning(final):
    """Review round 7 (RT, 15 `close`): the count stood smaller than the verdicts and "at m = L" left L undefined on
    the card; round 10: four measured lines on the card were a wall of text.  The last card keeps the count alone, no
    mark, in pale blue ("47 of 64 pairs", recomputed here), at the one size of the close, no L, then what it means;
    the description says where it was measured (one step past training, the dial's hand just past its arc)."""
    from scenes.kit.theme import UNSEEN

    scene, _ = final
    cfg = scene.cfg
    last = scene.close_rows.rows[-1]
    count_ = last.verdict
    assert count_.passed is None and len(count_.check) == 0
    d = LLAMA2.head_dim
    theta = cfg.rope_base ** (-2.0 * np.arange(d // 2) / d)
    n = int((cfg.train_length * theta < 2 * np.pi).sum())
    assert "".join(w.text for w in count_.line.words) == "ofpairs"
    assert [m.typst_code.strip("$ ") for m in count_.line.maths] == [str(n), str(d // 2)]
    assert all(w.get_color().to_hex().lower() == UNSEEN.to_hex().lower() for w in count_.line.words)
    assert not any("L" in m.typst_code for m in count_.line.maths)
    assert abs(word_size(count_) - word_size(scene.close_rows.rows[0].verdict)) < 0.05 * LABEL
    assert last.take.text == ("no wall, but unseen angles" if n else "no wall, no unseen angle")
    assert last.take.get_top()[1] < count_.get_bottom()[1] and last.card.get_bottom()[1] < last.take.get_bottom()[1]
    said = str(scene.caption_values()["close_verdicts"])
    assert f"in pale blue, no mark, a measurement: {n} of {d // 2} pairs (clip 13)" in said
    assert "one step past training" in said and f"under it \u201c{last.take.text}\u201d" in said


def test_the_dial_names_the_angle_the_score_sees(final):
    """Review round 4b (15 `q3`): the arc outside the dial was unlabelled.  q and k are named with their positions
    (q_m, k_n) and the arc between them (from k's angle to q's) is named (m − n)θ, the angle the answer's "m − n"
    turns."""
    scene, _ = final
    pic = scene.cards[2].drawing
    assert [m.typst_code.strip("$ ") for m in pic.letters[:2]] == ["q_m", "k_n"]
    # review round 6: the angle between q_m and k_n is (m − n)θ only for q and k aligned before rotation: the arc
    # names what rotation changes, "changes by (m − n)θ"
    assert pic.arc_name.maths[0].typst_code.strip("$ ") == f"({N.offset.math}) theta"
    assert "".join(w.text for w in pic.arc_name.words) == "changesby"
    ring, arc, q, k = pic.submobjects[:4]
    c = ring.get_center()
    ang = lambda pt: np.degrees(np.arctan2(pt[1] - c[1], pt[0] - c[0]))  # noqa: E731
    a0, a1 = ang(arc.points[0]), ang(arc.points[-1])
    assert abs(a0 - ang(k.get_end())) < 1.0 and abs(a1 - ang(q.get_end())) < 1.0 + 15.0  # k's angle to past q's
    said = str(scene.caption_values()["q3_icon"])
    assert "changes by (m − n) θ" in said and "q m" in said and "k n" in said


def test_the_proofs_notes_are_set_at_the_labels_size_in_a_clearer_grey(final):
    """Review round 3 (15): the notes under the verdicts were the smallest, lowest-contrast text in the clip.  They
    are now set at the labels' size (as large as their verdicts' scale leaves them) in a grey lighter than DIM."""
    from scenes.clips.c15_recap import NOTE, glued, worded_text
    from scenes.kit import LABEL
    from scenes.kit.layout import min_xheight_px

    scene, _ = final
    assert NOTE.to_hex().lower() != DIM.to_hex().lower()
    assert sum(NOTE.to_rgb()) > sum(DIM.to_rgb())
    for card in scene.cards:
        for p in card.proofs:
            assert all(w.get_color().to_hex().lower() == NOTE.to_hex().lower() for w in p.note.words)
        for p, a in zip(card.proofs, scene.data.answers[scene.cards.index(card)].proofs, strict=True):
            if not a.note:  # a one-liner (q2's 03 and 04): its chip alone
                continue
            probe = worded_text(glued(a.note), LABEL, color=NOTE).scale(card.proofs.fit)  # at the labels' size
            assert min_xheight_px(VGroup(*p.note.words)) >= 0.99 * min_xheight_px(VGroup(*probe.words))


def test_q4_dial_points_where_its_check_says(final):
    """Review round 5 (15 `q4`): the dial beside "RoPE at m = 12 288: pair 63 at ≈ 81°" pointed at 57°, a generic
    icon's angle.  Its hand now stands where clip 14's close puts it, LLaMA-2's slowest pair at three times its
    training length (mathcore's m·θᵢ, to the degree the verdict prints), in the icon and on screen."""
    from mathcore.extrapolation import LLAMA2, pair_angles
    from scenes.figures.framing import RECAP_ICONS

    i, m = LLAMA2.head_dim // 2 - 1, 3 * LLAMA2.train_length
    want = float(pair_angles(m, LLAMA2.head_dim, LLAMA2.rope_base)[i]) % (2 * np.pi)
    hand = [s for s in RECAP_ICONS[3].shapes if type(s).__name__ == "Pointer"][-1]
    assert abs(np.arctan2(hand.y1 - hand.y0, hand.x1 - hand.x0) % (2 * np.pi) - want) < 1e-9
    scene, _ = final
    from scenes.clips.c15_recap import recap_drawing

    drawn = recap_drawing(3, scene.cards[3].side).hand  # as drawn on the card (the card's own moved into the close)
    start, end = drawn.get_start(), drawn.get_end()
    got = np.arctan2(end[1] - start[1], end[0] - start[0]) % (2 * np.pi)
    assert abs(got - want) < np.radians(1), (np.degrees(got), np.degrees(want))
    assert f"{int(round(np.degrees(want)))}°" in scene.cards[3].drawing.hand_words.maths[0].typst_code


# ------------------------------------------------------------------ review round 5 (RO)
def test_q4_names_the_model_and_context_of_each_figure(final):
    """Review round 5 (15 `q4`): "three times LLaMA-2's training length" was said but not shown, and L meant 64 on
    one line and 4096 in clip 14.  The ✓'s note names LLaMA-2 and its L (12 288 = 3 × 4096, recomputed), the ✗'s
    the toy head, its width and base b; the narration says which base, and the question no longer writes nₘₐₓ
    (one symbol, m, for a position)."""
    scene, _ = final
    cfg = scene.cfg
    _, rope, unseen = scene.data.answers[3].proofs
    m = 3 * LLAMA2.train_length
    assert rope.formula == '"RoPE"' and m == 12288 == 3 * LLAMA2.train_length
    # round 7 (RT): beside the toy's "L = 64", "three times L" read as 3 × 64; LLaMA-2's L is written out
    # round 8: and "its L = 4096" beside "L = 64" still gave one letter two values: LLaMA-2's length is a number
    assert rope.note == f"LLaMA-2 at $m = {count(m).math} = 3 times {count(LLAMA2.train_length).math}$"
    base = count(int(cfg.rope_base)).text
    assert unseen.note == f"toy head, {LLAMA2.head_dim} wide, b = {base}, L = {count(cfg.train_length).text}"
    notes = scene.cards[3].proofs
    shown = [{mm.typst_code.strip("$ ") for mm in p.note.maths} for p in notes]
    assert shown[1] == {f"m = {count(m).math} = 3 times {count(LLAMA2.train_length).math}"}, shown
    assert not any("L" in x for x in shown[1])  # one L on the panel, the toy's
    assert any(s.startswith("b = 10") for s in shown[2]), shown
    says = {c.key: c.text for c in scene.captions}[scene.q4_key()]
    assert f"base {base}" in says and "three times LLaMA-2's training length" in says
    assert "ₘₐₓ" not in scene.cards[3].q.text


def test_q4_picture_is_the_dial_at_the_true_angle_with_its_training_arc(final):
    """Review round 5 (15 `q4`): the left half was two small icons, the subject not the largest thing.  The dial is
    now larger than every other icon was drawn (its diameter over a third of the frame's height), its hand at clip
    14's angle and, beside it in the seen colour and named "training", the arc LLaMA-2's slowest pair swept in
    training, 0 to (L − 1)·θᵢ, recomputed here from the frequencies."""
    from scenes.kit.theme import SEEN

    from scenes.clips.c15_recap import recap_drawing

    scene, _ = final
    side = scene.cards[3].side
    pic = recap_drawing(3, side)  # as drawn on the card (the card's own dial moved into the close)
    ring, arc, hand = pic.ring, pic.arc, pic.hand
    # (round 7: its angle, "never seen", over it and "training" beside its arc take some of its room; still the
    # largest drawing of the clip, its ring over a quarter of the frame's height)
    assert side > scene.cards[0].side and ring.width >= 0.26 * 8.0 and ring.width >= 0.4 * side, (ring.width, side)
    i, L, b, d = LLAMA2.head_dim // 2 - 1, LLAMA2.train_length, LLAMA2.rope_base, LLAMA2.head_dim
    want = (L - 1) * b ** (-2.0 * i / d)
    c = ring.get_center()
    ang = lambda pt: np.arctan2(pt[1] - c[1], pt[0] - c[0])  # noqa: E731
    assert abs(ang(arc.points[0])) < 1e-3 and abs(ang(arc.points[-1]) - want) < 1e-3
    assert arc.get_stroke_color().to_hex().lower() == SEEN.to_hex().lower()
    assert pic.arc_words.text == "training"
    tip = hand.get_end()
    assert ang(tip) > ang(arc.points[-1]) + np.radians(30)  # the hand far past the arc
    # review round 6: "training" beside its arc (it sat under the pivot), and the pale-blue stretch from the arc's end
    # to the hand, as clip 14's close draws it
    from scenes.kit.theme import UNSEEN

    words = pic.arc_words
    assert ang(words.get_right()) < ang(arc.points[-1]) and words.get_right()[0] > c[0] + 0.8 * ring.width / 2
    assert words.get_bottom()[1] < arc.points[-1][1] and words.get_top()[1] > arc.points[0][1]
    w = pic.wedge
    assert w.get_stroke_color().to_hex().lower() == UNSEEN.to_hex().lower()
    assert abs(ang(w.points[0]) - ang(arc.points[-1])) < 1e-3 and abs(ang(w.points[-1]) - ang(tip)) < 1e-3
    said = str(scene.caption_values()["q4_icon"])
    assert "violet arc named training" in said and "≈ 81°" in said and "pale-blue stretch" in said


def test_every_defect_is_one_norm_and_n_means_a_key(final):
    """Review round 5 (15 `q2`, `q1`, `q3`): |·| on a vector output beside ‖·‖, ‖·‖_F unnamed, and n a key in one
    line and an output in the next.  Vector defects are ‖·‖, q1's matrix norm is named Frobenius under it, q3's
    figure is an entry's absolute value (written on an entry, ΔY_mj), n stands only for a key, m for an output."""
    scene, _ = final
    q1, q2, q3 = (scene.data.answers[k].proofs for k in range(3))
    assert "_F" in q1[0].formula and q1[0].note.startswith("Frobenius norm")
    assert all("abs(" not in p.formula and "lr(|" not in p.formula for p in q2[1:])
    assert q2[2].formula == '"change from caching"'  # in words, as 03's and 04's (review round 7)
    assert q2[1].formula == '"change in past outputs"'  # a one-liner in words (review round 6)
    assert all("Delta Y_(m j)" in p.formula for p in q3)


def test_q3_cross_is_the_rejected_alternative(final):
    """Review round 5 (15 `q3`): the ✗ meant "a rejected alternative" while elsewhere it meant a limitation.  Its line
    now says so: "if V were rotated: … ≈ 1.6", its note "the rejected choice"."""
    scene, _ = final
    p = scene.data.answers[2].proofs[1]
    assert not p.passed and p.formula.startswith('"if V were rotated:"') and p.note.startswith("the rejected choice")
    words = "".join(w.text for w in scene.cards[2].verdicts[1].line.words)
    assert words.startswith("if") and "wererotated" in words


def test_the_close_keeps_a_takeaway_beside_each_figure_and_equal_thumbnails(final):
    """Review round 5 (15 `close`): the sentences left and four bare formulas stayed, the thumbnails of unequal size.
    Each card now keeps its verdict's meaning in a few words under it (worded by the verdict: "rounding noise" only
    where the defect is under the noise threshold, recomputed), and every thumbnail is one size."""
    scene, _ = final
    rows = scene.close_rows.rows
    takes = [r.take.text for r in rows]
    a = scene.data.answers
    assert takes == [x.takeaway for x in a]  # the fourth card too (review round 7: it had no meaning line)
    assert all(2 <= len(t.replace(N.offset.text, "x").split()) <= 5 for t in takes), takes  # "m − n" one term
    assert takes[0] == ("rounding noise" if a[0].proofs[0].figure.value < 1e-12 else "more than rounding noise")
    cfg = scene.cfg
    theta = cfg.rope_base ** (-2.0 * np.arange(LLAMA2.head_dim // 2) / LLAMA2.head_dim)
    # the fourth card keeps clip 13's count under GPT-2's ✗ and RoPE's ✓, in pale blue with no mark (review round 6)
    unseen = int((cfg.train_length * theta < 2 * np.pi).sum())
    count_ = rows[3].verdict
    assert count_.passed is None and count_.figure.text.startswith(f"{unseen} of ")
    for r in rows:  # under its verdict, inside its card
        assert r.take.get_top()[1] <= r.verdict.get_bottom()[1] + 1e-6
        assert r.card.get_bottom()[1] < r.take.get_bottom()[1] and r.take.get_right()[0] < r.card.get_right()[0]
    big = [max(r.drawing.width, r.drawing.height) for r in rows]
    assert max(big) - min(big) < 1e-3, big
    said = str(scene.caption_values()["close_verdicts"])
    assert all(f"\u201c{t}\u201d" in said for t in takes) and f"{unseen} of {LLAMA2.head_dim // 2}" in said


def test_q3_quotes_clip_11s_own_shift_and_figure(final):
    """Round 6: clip 11 now slides every position by the smallest s whose first-pair turn reads as a turn (s = 2,
    ≈ 115°; s = 3 turned it ≈ 172°, a flip), while the recap still measured s = 3 (≈ 1.6 against clip 11's ≈ 1.4).
    The recap's q3 figures are clip 11's, measured at clip 11's own shift, from its own data."""
    from scenes.clips.c11_rope_rotates_qk import RoPERotatesQK
    from scenes.kit import numbers

    scene, _ = final
    d11 = RoPERotatesQK.build_data(scene.cfg)
    plain, rotated = scene.data.answers[2].proofs
    assert np.isclose(rotated.figure.value, float(np.max(np.abs(d11.Y_rot_shifted - d11.Y_rot))))
    assert np.isclose(plain.figure.value, float(np.max(np.abs(d11.Y_plain_shifted - d11.Y_plain))), atol=1e-15)
    assert rotated.figure.text == numbers.measure(float(np.max(np.abs(d11.Y_rot_shifted - d11.Y_rot)))).text


# ------------------------------------------------------------------ review round 6 (RR)
def test_q4_follows_the_decks_convention_for_unseen_angles(final):
    """Review round 6 (15 `q4`): a green ✓ on LLaMA-2's pair 63 at ≈ 81° and a red ✗ on the toy's 47 of 64 unseen pairs
    said opposite things about one fact.  The deck's convention (clips 13, 14, 15): ✓ only on "an angle at every m: no
    last row", ✗ only on the table's last row, and an angle past training's arc a measurement in the unseen pale blue,
    no mark, with "unseen angles" / "never seen" and its figure (47 of 64 recomputed here; ≈ 81° from m·θᵢ)."""
    from scenes.kit.theme import UNSEEN

    scene, _ = final
    cfg = scene.cfg
    gpt, rope, unseen = scene.data.answers[3].proofs
    v = scene.cards[3].verdicts
    assert (gpt.passed, rope.passed, unseen.passed) == (False, True, None)
    for p, shown in zip((gpt, rope, unseen), v):
        assert ("unseen" in p.figure.text or "never" in p.figure.text) == (p.passed is None)
    assert not hasattr(v[2], "_verdict") and len(v[2].check) == 0
    assert all(w.get_color().to_hex().lower() == UNSEEN.to_hex().lower() for w in v[2].line.words)
    d = LLAMA2.head_dim
    theta = cfg.rope_base ** (-2.0 * np.arange(d // 2) / d)
    n = int((cfg.train_length * theta < 2 * np.pi).sum())
    assert unseen.figure.text == f"{n} of {d // 2} pairs at unseen angles"
    hw = scene.cards[3].drawing.hand_words
    assert all(w.get_color().to_hex().lower() == UNSEEN.to_hex().lower() for w in hw.words)
    assert "".join(w.text for w in hw.words) == ",anunseenangle"
    # round 8: one term for it, on screen and said: no "new angle", no "never seen" for a pair's angle
    said = " ".join(f"{c.text} {c.describe}" for c in scene.captions)
    shown = " ".join([*[c.ans.text for c in scene.cards], scene.cards[3].drawing.hand_words.source])
    for bad in ("new angle", "never seen", "never reached"):
        assert bad not in said and bad not in shown, bad
    # the close keeps the count alone, no mark (round 10: one figure a card; nothing there is a ✓ on "unseen")
    row = scene.close_rows.rows[-1]
    assert row.verdict.passed is None and len(row.lines) == 0


def test_the_close_draws_the_toy_pair_it_counts(final):
    """Review round 6 (15 `close`): card 4's dial showed a hand ≈ 54° past its arc (LLaMA-2 at m = 12 288) beside a
    count clip 13 measured at 0.007° to 5° past.  Its dial is now the toy head's pair furthest past its arc one step
    past L (the unseen pair with the largest step θᵢ), its arc (L − 1)·θᵢ and its hand at L·θᵢ, recomputed here: at
    most ≈ 5° past the arc on the shipped config, so the hand stands just past it."""
    from scenes.clips.c15_recap import recap_drawing, toy_wall_icon

    scene, _ = final
    cfg = scene.cfg
    d, L = LLAMA2.head_dim, cfg.train_length
    theta = cfg.rope_base ** (-2.0 * np.arange(d // 2) / d)
    unseen = np.flatnonzero(L * theta < 2 * np.pi)
    assert len(unseen) and np.degrees(theta[unseen].max()) < 5.0  # clip 13's "≈ 0.007° to 5.0° past"
    i = int(unseen[0])
    pic = recap_drawing(3, 2.0, labelled=False, icon=toy_wall_icon(cfg))
    c = pic.ring.get_center()
    ang = lambda pt: np.arctan2(pt[1] - c[1], pt[0] - c[0]) % (2 * np.pi)  # noqa: E731
    assert abs(ang(pic.arc.points[-1]) - ((L - 1) * theta[i]) % (2 * np.pi)) < 1e-3
    assert abs(ang(pic.hand.get_end()) - (L * theta[i]) % (2 * np.pi)) < 1e-3
    # the drawing on the close is that one (the card's own drawing moved onto it), with the table and its red wall
    shown = scene.close_rows.rows[-1].drawing
    c2 = shown.ring.get_center()
    tip = shown.hand.get_end()
    assert abs(np.arctan2(tip[1] - c2[1], tip[0] - c2[0]) % (2 * np.pi) - (L * theta[i]) % (2 * np.pi)) < 1e-3
    assert len(shown.table) == 6
