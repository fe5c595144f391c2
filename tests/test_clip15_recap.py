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
from scenes.kit import BAD, DIM, FG, HEADING, family_color
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

    sizes = [size(v) for v in scene.close_rows.verdicts]
    assert max(sizes) - min(sizes) < 1e-6, sizes  # one verdict size
    natural = size(verdict("x", 0.0, True, size=HEADING))  # a verdict at the deck's heading size
    assert min(sizes) >= natural - 1e-6 and min(sizes) >= size(scene.cards[0].verdicts[0]) - 1e-6
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
    assert rows[2].verdict.passed and rows[2].verdict.figure.value < 1e-12 and "leftalone:" in "".join(
        w.text for w in rows[2].verdict.line.words) and rows[2].verdict.line.maths[0].typst_code.strip("$ ") == "V"
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


def test_the_permutation_icon_names_its_tokens_on_neutral_chips(final):
    """Review round 3 (15 `q1`): the tokens wore the deck's token colours, token 0 the key's blue and token 3 a
    magenta beside the value's, the hues q2 and q3 give K and V.  The chips are now neutral (the icon's own shades
    of the foreground ink, one a token), each named x_t on it, the same name on both rows; the bottom row is the
    top row permuted (the icon's own permutation) and every link runs from a token's top chip to its bottom one."""
    from scenes.clips.c15_recap import token_order
    from scenes.kit import KEY, VALUE

    scene, _ = final
    pic = scene.cards[0].drawing
    icon = RECAP_ICONS[0]
    top, below = token_order(icon)
    assert sorted(below) == top == [0, 1, 2, 3] and below != top  # a real permutation
    n = len(top)
    links, boxes = pic[:n], pic[n:3 * n]
    assert [m.typst_code.strip("$ ") for m in pic.letters] == [f"x_{t}" for t in top + below]
    for name, box in zip(pic.letters, boxes, strict=True):
        assert np.allclose(name.get_center(), box.get_center(), atol=1e-6) and name.width < box.width
    shades = [round(b.get_fill_opacity(), 3) for b in boxes]
    assert shades[n:] == [shades[t] for t in below] and len(set(shades[:n])) == n  # one shade a token, kept
    concept = {KEY.to_hex().lower(), VALUE.to_hex().lower()}
    for m in pic.get_family():
        if len(m.points):
            assert m.get_fill_color().to_hex().lower() not in concept and m.get_stroke_color().to_hex().lower() not in concept
    for j, link in enumerate(links):  # link j runs from its token's top box to bottom box j
        start, end = link.points[0], link.points[-1]
        assert abs(start[0] - boxes[below[j]].get_x()) < 1e-6 and abs(end[0] - boxes[n + j].get_x()) < 1e-6
    said = str(scene.caption_values()["q1_icon"])
    assert "shade" not in said and "named x 0 to x 3" in said


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
    assert min(sides) >= 0.2 * 14.2 and max(sides) - min(sides) < 1e-6, sides
    assert all(abs(w - sides[0]) < 1e-6 for w in drawn), drawn
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


def test_the_kv_cache_icon_names_its_columns_K_and_V(final):
    """Review (A−), 15 q2: a KV cache holds K and V (not outputs), and the icon said so only by colour.  Now its
    two columns are named K and V over them, each letter in its column's colour (key blue, value yellow) and
    declaring that role, centred over its column; the still draws the same letters.  On the old code the icon
    had no letters, so this fails there."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from scenes.figures.framing import RECAP_PAINT
    from scenes.kit.icons import Letter, to_matplotlib
    from scenes.stills.draw import DARK

    scene, _ = final
    icon = RECAP_ICONS[1]
    assert [s.text for s in icon.shapes if isinstance(s, Letter)] == ["K", "V"]
    pic = scene.cards[1].drawing
    letters = pic.letters
    assert [m.typst_code.strip("$ ") for m in letters] == ["K", "V"]
    assert [m._role for m in letters] == ["key", "value"]
    bars = [m for m in pic.submobjects if m is not letters]
    for letter, column in zip(letters, (bars[0:4], bars[4:8])):
        col = VGroup(*column)
        assert abs(letter.get_x() - col.get_x()) < 0.05 * col.width and letter.get_bottom()[1] > col.get_top()[1]
    fig, ax = plt.subplots()
    to_matplotlib(icon, ax, DARK, "#56D364", RECAP_PAINT[1])
    assert [t.get_text() for t in ax.texts] == ["$K$", "$V$"]
    plt.close(fig)


def test_the_icon_takes_three_tenths_of_the_frame_and_answers_break_well(final):
    """Review (A−), 15: the icons took 0.23 of the frame's width (now 0.3, one size for every question); q3's
    answer must never break inside "m − n", and q1's must not leave one word ("terms.") alone on its last line.
    On the old code the icons were 0.23 of the content's width and ``well_broken`` did not exist."""
    from scenes.clips.c15_recap import well_broken

    scene, _ = final
    content = scene.layout.content
    for c in scene.cards:
        assert c.side >= 0.29 * content.width or c.side >= content.height - 2.0, c.side / content.width
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


def test_the_close_stands_in_three_aligned_columns(final):
    """Review (A−), 15 close: the chips stood right-aligned (a narrow "11" out of line with "02") and the icons
    left-aligned whatever their width.  Now the icons are centred on one vertical line, the chips start at one
    edge and the verdicts at another.  On the old code the chips' left edges differed, so this fails there."""
    scene, _ = final
    rows = scene.close_rows.rows
    xs = lambda f: {round(f(r), 6) for r in rows}  # noqa: E731
    assert len(xs(lambda r: r.drawing.get_x())) == 1
    assert len(xs(lambda r: r.chip.get_left()[0])) == 1
    assert len(xs(lambda r: r.verdict.get_left()[0])) == 1


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
    assert "GPT-2:" in words(q4[0]) and "RoPE:" in words(q4[1]) and "RoPEpairsunseenat" in words(q4[2])  # its position m = L on its own line (review round 4)
    assert all(len(v.line.maths) >= 1 for v in (*q3, *q4))  # max |ΔY|, 1024, 47 and 64 stay math
    assert not hasattr(scene.cards[0].verdicts[0], "line")  # ‖Attn(PX) − P·Attn(X)‖ ≈ …: one formula


def test_symbols_are_math_in_every_sentence_on_screen(final):
    """Review R2 (15): "P" in q1's answer and note, "m – n" in q3's answer, "nₘₐₓ" in q4's question and "L = 64"
    in its note were set in the sans, while the same symbols are italic math in every formula.  Every symbol
    in the questions, answers, notes and verdict words is now a math piece: no sans word is one of them."""
    import re

    scene, _ = final
    symbol = re.compile(r"(?<![\w'’-])([PQKVLmnd]|nₘₐₓ)(?![\w'’-])")
    lines = []
    for c in scene.cards:
        lines += [*c.q, *c.ans, *[p.note for p in c.proofs], *[v.line for v in c.verdicts if hasattr(v, "line")]]
    for line in lines:  # the words of each line as written (Text.text drops spaces), its $math$ taken out
        words = re.sub(r"\$[^$]*\$", " ", line.source)
        assert not symbol.search(words), line.source
    maths = {m.typst_code.strip("$ ") for line in lines for m in line.maths}
    assert {"P", "V", "K", "Q", N.offset.math, f"{N.table_rows.math} = {GPT2.n_max}", "L = 64"} <= maths, maths


# ------------------------------------------------------------------ review round 3
def scene_text_of_clip_14() -> str:
    """The words clip 14's RoPE verdict prints (its source: the recap must quote what the clip shows)."""
    from pathlib import Path

    return (Path(__file__).parent.parent / "scenes" / "clips" / "c14_gpt2_to_llama.py").read_text()


def test_q4_answers_why_with_ropes_check(final):
    """Review round 3 (15 `q4`): "why did GPT-2's table give way to RoPE?" was answered by two ✗.  RoPE's reason
    has its ✓: clip 14's own "0 position parameters, a rotation defined at every m" (review round 4: the "64 of 64
    pairs" it showed before was never shown by clip 14, and a tautology), earned where the table ends: mathcore's
    extrapolation report at m = nₘₐₓ gives GPT-2 no row and every pair of LLaMA-2's head an angle.  The 47 of 64 ✗
    stays, the close's hook, said with its training length (one step past L = 64, not LLaMA-2's 4096)."""
    from mathcore.extrapolation import LLAMA2
    from mathcore.measure import extrapolation_report

    scene, _ = final
    a = scene.data.answers[3]
    g = GPT2
    rep = extrapolation_report([g.n_max], LLAMA2.head_dim, g.n_max, scene.cfg.seed, scene.cfg.rope_base)
    angles = rep.rope_angles[0]
    assert not rep.learned_defined[0] and angles.shape == (LLAMA2.head_dim // 2,) and np.all(np.isfinite(angles))
    gpt, rope, unseen = a.proofs
    assert not gpt.passed and rope.passed and a.key == 2 and a.proofs[a.key] is unseen
    assert rope.figure.text == "0 position parameters" and rope.clip == 14
    assert "0 position parameters" in scene_text_of_clip_14()  # clip 14 shows this very figure
    v = scene.cards[3].verdicts
    assert [x.passed for x in v] == [False, True, unseen.passed]
    words = "".join(w.text for w in v[1].line.words).replace(" ", "")
    assert words.startswith("RoPE:") and "positionparameters" in words, words  # the 0 is set as math
    says = {c.key: c.text for c in scene.captions}
    L = scene.cfg.train_length
    assert f"one step past a training length of {L}," in says[scene.q4_key()] or \
        f"one step past a training length of {L} " in says[scene.q4_key()]
    assert "64 of 64" not in says[scene.q4_key()] and "have an angle there" not in says[scene.q4_key()]
    # the KV verdicts keep their condition: exact in a fixed summation order (clip 04 shows BLAS is not)
    notes = [p.note for p in scene.data.answers[1].proofs]
    assert notes[1].endswith("in a fixed order") and notes[2].endswith("in a fixed order"), notes
    assert "fixed order" in says["q2"]
    assert "three verdicts" in {c.key: c.describe for c in scene.captions}[scene.q4_key()]


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


def test_q2_writes_max_one_way(final):
    """Review round 3 (15 `q2`): its three verdicts wrote max_{n>m}, max_t and a bare max.  Each now names what it
    runs over as a subscript (the cached outputs over the steps m, as clip 05 writes it)."""
    scene, _ = final
    assert all(p.formula.startswith("scripts(max)_") for p in scene.data.answers[1].proofs)


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
            probe = worded_text(glued(a.note), LABEL, color=NOTE).scale(card.proofs.fit)  # at the labels' size
            assert min_xheight_px(VGroup(*p.note.words)) >= 0.99 * min_xheight_px(VGroup(*probe.words))
