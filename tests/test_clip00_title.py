"""Clip 00 Title: the lecture's title from the config, the four properties as a map (the catalog's
properties, the theme's colours, one card each in its family's colour, arrows in lecture order); one
property a beat, filling the frame under the map shrunk to a strip (its icon, what it says, its clips);
and the close: the map grown into the lecture's plan (icons, names, clip numbers)."""

from __future__ import annotations

import numpy as np

from frames import (
    dominant_ink,
    rgb255,
    to_pixel,
)
from mathcore import load_config
from scenes.catalog import LECTURE, PROPERTIES, property_of
from scenes.clips.c00_title import CLIP_ROWS, Title, notebook_shown
from scenes.kit.cards import clip_number
from scenes.kit import BAD, BG, DIM, FG, PROPERTY_COLORS, family_color
from scenes.figures import designed_stills
from scenes.figures.framing import MAP_ICONS
from scenes.audit.beats import DIMMED, coverage, signature
from scenes.audit.truth import HALF_EMPTY, claim_problems, colour_problems, staging_problems
from scenes.kit.layout import min_xheight_px
from scenes.stills.draw import DARK
from scenes.render.matrix import LONG_TITLE


SCENE = Title
FINAL_SIZE = (854, 480)


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
    import scenes.clips.c00_title as framing

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
    # the notebook's name without the part the header already says (review round 9: three titles stacked)
    assert d.notebook == "05 · Self-Attention Properties" and scene.clip().title == "Self-attention properties"
    assert "".join(t.text for t in scene.notebook_line) == shown("notebook 05")
    assert notebook_shown("05 · Self-Attention Properties", "Self-attention properties") == "05"
    assert notebook_shown("05 · Attention, examined", "Self-attention properties") == "05 · Attention, examined"
    assert notebook_shown("Notebook five", "Self-attention properties") == "Notebook five"
    for tile, plan, focus, (name, clips) in zip(scene.tiles, scene.plan, scene.focus, d.properties):
        assert "".join(t.text for t in plan.head) == shown(name)
        assert focus.head.text == shown(name)
        assert [c.num.text for c in plan.chips] == [clip_number(c.number) for c in clips]
        assert [r.chip.num.text for r in focus.rows] == [clip_number(c.number) for c in clips]
        if len(clips) > CLIP_ROWS:  # a long list shows its numbers alone, on one line (review round 8)
            assert all(r.title is None for r in focus.rows)
            assert len({round(r.get_y(), 6) for r in focus.rows}) == 1
        else:
            assert [r.title.text for r in focus.rows] == [shown(c.title) for c in clips]
        # the property's card holds its name, its drawing, what it says and every clip's line
        for part in (focus.head, focus.drawing, *focus.says, *focus.rows):
            assert focus.box.get_left()[0] < part.get_left()[0] and part.get_right()[0] < focus.box.get_right()[0]
            assert focus.box.get_bottom()[1] < part.get_bottom()[1] and part.get_top()[1] < focus.box.get_top()[1]
        # clip titles start in one column, each on its number's baseline
        lefts = sorted({round(r.title.get_left()[0], 6) for r in focus.rows if r.title is not None})
        assert len(lefts) == (0 if len(clips) > CLIP_ROWS else 1), lefts
    # review round 8: the four property beats set their text at one size (the long list no longer shrank it)
    heads = [f.head.height for f in scene.focus]
    assert max(heads) / min(heads) < 1.05, heads


def test_what_each_property_says_is_true_of_the_lectures_attention():
    """Each beat sets a property's statement under its name (``framing.STATEMENTS``); each is measured here
    on the lecture's inputs: Attn(PX) = P·Attn(X) to rounding; the causal weights on later tokens exactly 0;
    causal attention no longer equivariant; y_t unchanged by later tokens (the cache's premise)."""
    from mathcore.attention import attention_fn, self_attention_trace
    from mathcore.equivariance import equivariance_run
    from mathcore.lecture import lecture_inputs
    from mathcore.measure import prefix_invariance_max_defect
    from scenes.figures.framing import STATEMENTS

    cfg = load_config()
    li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    W = (li.Wq, li.Wk, li.Wv)
    said = [" ".join(t for _, t in st) for st in STATEMENTS]
    assert len(STATEMENTS) == len(PROPERTIES)
    assert '"Attn"(P X) = P dot "Attn"(X)' in said[0]
    assert equivariance_run(attention_fn(*W), li.X, cfg.n_trials, cfg.seed).passed
    assert "A_(m n) = 0" in said[1] and "n > m" in said[1] and "!=" in said[1]
    A = self_attention_trace(li.X, *W, causal=True).weights
    assert (A[np.triu_indices(cfg.T, 1)] == 0.0).all()
    causal = attention_fn(*W, causal=True)
    P = np.eye(cfg.T)[::-1]  # reverse the tokens
    assert np.abs(causal(P @ li.X) - P @ causal(li.X)).max() > 1e-3
    # "every P but the identity breaks equivariance" (review round 4 found '≠' said as if for every P, and the fix,
    # "most permutations", understated it; round 8): over all T! permutations of the lecture's tokens, the identity
    # alone keeps the symmetry (equality would need π to keep every prefix {0..i}, which only the identity does)
    import itertools

    perms = [np.eye(cfg.T)[list(p)] for p in itertools.permutations(range(cfg.T))]
    broken = [np.abs(causal(Q @ li.X) - Q @ causal(li.X)).max() > 1e-9 for Q in perms]
    assert "every P but the identity breaks equivariance" in said[1] and not broken[0]  # the identity comes first
    assert all(broken[1:]), [k for k, b in enumerate(broken) if not b]
    assert "depends only on" in said[2] and "cache K and V" in said[2]
    assert prefix_invariance_max_defect(attention_fn(*W, causal=True, kernel="fixed"), li.X) == 0.0
    assert "sinusoidal, learned, RoPE" in said[3]


def test_every_card_is_in_its_familys_one_colour(final):
    scene, _ = final
    for k, (plan, focus, strip) in enumerate(zip(scene.plan, scene.focus, scene.strip)):
        want = PROPERTY_COLORS[k].to_hex()
        for box in (plan.box, focus.box, strip.box):
            assert box.get_stroke_color().to_hex() == want
        assert {family_color(int(c.num.text)).to_hex() for c in plan.chips} == {want}
        for c in plan.chips:
            assert c.num.get_fill_color().to_hex() == want
        for head in (plan.head, focus.head, strip.head):
            assert head.get_fill_color().to_hex() == want
        # the drawing: the family colour, with only neutral greys (and red for a wall) beside it
        used = set()
        for m in focus.drawing.get_family():
            if len(m.points) and m.get_fill_opacity() > 0:
                used.add(m.get_fill_color().to_hex())
            if len(m.points) and m.get_stroke_opacity() > 0 and m.get_stroke_width() > 0:
                used.add(m.get_stroke_color().to_hex())
        assert want in used
        assert used <= {want, FG.to_hex(), DIM.to_hex(), BG.to_hex(), BAD.to_hex()}, used


def test_final_frame_colours_each_property(final):
    scene, frame = final
    boxes = [v.box for v in scene.strip_view]  # the map's cards, grown into the plan
    for k, (box, plan) in enumerate(zip(boxes, scene.plan)):
        assert np.allclose(box.get_center(), plan.box.get_center(), atol=1e-6)
        color = PROPERTY_COLORS[k]
        edge = box.get_left() + np.array([0.0, -0.3, 0.0])  # the card's left side, below its rounded corner
        r, c = to_pixel(scene, edge, frame)
        near = frame[r, c - 2 : c + 3].astype(int)  # the stroke, wherever rounding put it
        inked = near[np.argmax(np.abs(near - rgb255(BG)).sum(axis=1))]
        assert np.abs(inked - rgb255(color)).max() <= 40, (k, inked)
        for n in plan.chips:
            ink = dominant_ink(scene, frame, n.num, BG)
            assert np.abs(ink - rgb255(color)).max() <= 45, (k, n.num.text, ink)
    rects = [(b.get_left()[0], b.get_right()[0], b.get_bottom()[1], b.get_top()[1]) for b in boxes]
    for i in range(len(rects)):
        for j in range(i + 1, len(rects)):
            a, b = rects[i], rects[j]
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2], (i, j)


def test_the_map_is_on_screen_from_the_first_beat(final):
    """No dead time: the beat after the title card already shows every card with its name and drawing."""
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}["lecture"]
    texts = " ".join(i.name.strip("'") for i in rec.items if i.kind == "text" and i.opacity > 0.9)
    for name, _ in scene.data.properties:
        assert all(w in texts for w in name.split()), name


def test_the_last_frame_is_the_whole_map_at_full_strength(final):
    """The takeaway: the property leaves and the strip grows back into the map, now the lecture's plan:
    every card at full strength with its icon, its name and its clips' numbers, filling the frame."""
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    close, before = scene.audit.records[-1], recs["positions"]
    assert close.key == "close" and close.start != signature(close)
    texts = [i for i in close.items if i.kind == "text" and not i.header and i.opacity > DIMMED]
    d = scene.data
    heads = [t.text for p in scene.plan for t in p.head]
    nums = [clip_number(c.number) for _, clips in d.properties for c in clips]
    assert sorted(i.text.replace(" ", "") for i in texts) == sorted(heads + nums)  # no title, no clip titles
    assert min(i.opacity for i in texts) > 0.99
    # the names larger than in the strip they grew from, and as large as on the map of the first beat
    first = recs["lecture"]
    for p in scene.plan:
        line = p.head[0].text

        def height(rec, of=line):
            return max(i.xheight_px for i in rec.items if i.kind == "text" and i.text.replace(" ", "") == of)

        h1 = max(i.xheight_px for i in texts if i.text.replace(" ", "") == line)
        assert h1 > height(before) and h1 >= height(first) - 1e-6, (line, height(before), height(first), h1)
    # the four cards fill the content area
    content = scene.layout.content
    boxes = VGroup_of([v.box for v in scene.strip_view])
    assert boxes.width >= 0.95 * content.width and boxes.height >= 0.9 * content.height


def VGroup_of(mobs):
    from manim import VGroup

    return VGroup(*mobs)


def test_one_property_a_beat_the_rest_in_the_background(final):
    """Each property's beat: the property fills the frame (its name, what it says, its clips), its card in
    the strip lit, the other three dimmed, no other property's text at full strength."""
    scene, _ = final
    recs = {r.key: r for r in scene.audit.records}
    for k, key in enumerate(scene.KEYS):
        rec = recs[key]
        assert rec.start != signature(rec), key
        lit = {i.text.replace(" ", "") for i in rec.items if i.kind == "text" and i.opacity > 0.99 and not i.header}
        focus = scene.focus[k]
        assert {r.title.text for r in focus.rows if r.title is not None} <= lit, key
        assert {t.text for t in scene.strip[k].head} <= lit, key
        for j, other in enumerate(scene.strip):
            if j != k:
                faint = [i for i in rec.items if i.kind == "text" and i.text.replace(" ", "") in
                         {t.text for t in other.head}]
                assert faint and max(i.opacity for i in faint) < DIMMED, (key, j)
                assert not {r.title.text for r in scene.focus[j].rows if r.title is not None} & lit, (key, j)
    assert not [p for p in scene.audit.lecture if p.kind == "static"]


def test_every_beat_is_one_subject_and_says_what_it_shows(final):
    """Issue 33's truth checks, held here: every beat names its subject, the largest thing on screen; no
    frame is more than half empty or a dashboard; every value a caption or description fills in is on
    screen (the descriptions name the icons, statements and clips through claims bound to them), and the
    concept colours keep their meanings."""
    scene, _ = final
    recs = list(scene.audit.records)
    for rec in recs[1:]:
        assert rec.subject, rec.key
        assert coverage(rec, rec.header_bottom - 0.15) >= HALF_EMPTY, rec.key
        described = [c for c in rec.claims if c.where == "describe"]
        assert described and all(c.bound and c.visible for c in described), rec.key
    assert staging_problems(recs) == [] and claim_problems(recs) == [] and colour_problems(recs) == []


def test_the_clip_and_its_still_draw_one_icon_per_idea(final):
    """Issue 20: each card's icon is the one shape description the still draws too, in the same
    family colour."""
    scene, _ = final
    still = designed_stills("Title", scene.data, scene.cfg)[0]
    for k, (card, panel) in enumerate(zip(scene.plan, still.panels.values())):
        assert card.drawing.icon is MAP_ICONS[k] is panel.picture.icon
        assert scene.focus[k].drawing.icon is MAP_ICONS[k]
        assert DARK.color(panel.frame) == PROPERTY_COLORS[k].to_hex().upper()[:7]


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 6


def test_a_long_title_is_set_on_two_lines_inside_the_frame(corners):
    scene = corners["max"].scene
    assert scene.data.title == LONG_TITLE
    lines = scene.lecture_line
    assert len(lines) == 2
    assert " ".join(t.text for t in lines).replace(" ", "") == shown(f"Lecture {scene.data.number} · {LONG_TITLE}")
    content = scene.layout.content
    assert all(content.left <= t.get_left()[0] and t.get_right()[0] <= content.right for t in lines)
    assert min_xheight_px(lines) >= 12  # a title, not a footnote
    # and the cards below it keep their text legible
    assert min(min_xheight_px(t.text) for t in scene.tiles) >= 8.5


def test_property_of_agrees_with_the_cards():
    for k, (_, nums) in enumerate(PROPERTIES):
        assert all(property_of(n) == k for n in nums)


def test_icons_are_one_description_drawn_by_two_back_ends():
    """Issue 20: the six icons of the title and the recap are shape descriptions; the Manim and the
    matplotlib back-ends each draw every shape of them, in the roles' colours."""
    from matplotlib.colors import to_hex
    from matplotlib.figure import Figure

    from scenes.figures.framing import ICONS, RECAP_ICONS
    from scenes.kit.icons import Box, Letter, to_manim, to_matplotlib

    assert set(MAP_ICONS) | set(RECAP_ICONS) == set(ICONS.values()) and len(ICONS) == 6
    ink = PROPERTY_COLORS[3]
    for icon in ICONS.values():
        assert icon.roles() <= {"ink", "fg", "dim", "failed"}, icon.name
        letters = [s for s in icon.shapes if isinstance(s, Letter)]
        g = to_manim(icon, ink, 1.0)
        assert len(g) == len(icon.shapes) - len(letters) + (1 if letters else 0), icon.name
        assert [m.typst_code.strip("$ ") for m in g.letters] == [s.text for s in letters], icon.name
        used = set()
        for m in g.get_family():
            if len(m.points) and m.get_fill_opacity() > 0:
                used.add(m.get_fill_color().to_hex())
            if len(m.points) and m.get_stroke_opacity() > 0 and m.get_stroke_width() > 0:
                used.add(m.get_stroke_color().to_hex())
        assert ink.to_hex() in used and used <= {ink.to_hex(), FG.to_hex(), DIM.to_hex(), BAD.to_hex()}, icon.name
        ax = Figure().add_subplot()
        to_matplotlib(icon, ax, DARK, ink.to_hex())
        both = sum(isinstance(s, Box) and bool(s.fill) and bool(s.edge) for s in icon.shapes)
        assert len(ax.patches) + len(ax.lines) + len(ax.texts) == len(icon.shapes) + both, icon.name
        inks = {to_hex(p.get_edgecolor()) for p in ax.patches if p.get_edgecolor()[3] > 0} | \
            {to_hex(p.get_facecolor()) for p in ax.patches if p.get_facecolor()[3] > 0} | \
            {to_hex(ln.get_color()) for ln in ax.lines}
        assert ink.to_hex().lower() in {c.lower() for c in inks}, icon.name


def test_the_kv_card_names_what_is_cached_and_sentences_keep_one_line(final):
    """Review (A−), clip 00: the KV card's icon said what the cache keeps only by its shape (a KV cache holds K
    and V, not outputs), and two cards broke a sentence over two lines though it fitted on one.  Now the cache
    icon names its columns K and V (on the map and on its card, full strength at those beats; the strip's small
    icon drops them), the card says "cache K and V" and that each step computes one q, k, v, and every sentence
    of every card stands on one line.  On the old code the icon had no letters and the first two cards wrapped."""
    scene, _ = final
    rec = {r.key: r for r in scene.audit.records}
    for key in ("lecture", "prefix"):
        letters = {i.text.strip("$ ") for i in rec[key].items if i.kind == "text" and i.opacity > 0.9}
        assert {"K", "V"} <= letters, key
    kv = scene.focus[2]
    words = [m for m in kv.says if not hasattr(m, "typst_code")]
    assert any("cache K and V" in m.text.replace("\u00a0", " ") or "cacheKandV" in m.text for m in words)
    assert not [i for i in rec["prefix"].items if i.kind == "text" and i.text.strip("$ ") in ("K", "V")
                and i.xheight_px < 8]  # no letter shrunk into the strip
    for k, card in enumerate(scene.focus):
        for m in card.says:
            if not hasattr(m, "typst_code"):
                assert len(m) == 1, (k, [ln.text for ln in m])


def test_the_closing_maps_chips_sit_on_one_line(final, corners):
    """Review R1 (00 close): the chips of the first three cards sat at three heights, under names of one or two
    lines.  Now every card's chips start on one line, under the lowest name, at the shipped config and every
    corner (a long or short name moves no chip).  On the old code the tops differed by a line, so this fails."""
    for scene in (final[0], *[r.scene for r in corners.values() if getattr(r, "scene", None) is not None]):
        tops = [t.chips.get_top()[1] for t in scene.plan_map[0]]
        assert max(tops) - min(tops) < 1e-6, tops
        assert all(t.chips.get_top()[1] < t.head.get_bottom()[1] for t in scene.plan_map[0])


def test_the_descriptions_read_formulas_as_words_never_typst_source(final):
    """Review RD (00): the descriptions filled in each property's formulas as Typst source ('"Attn"(P X) = P dot
    "Attn"(X)'), which a screen reader reads out quote by quote.  Every formula is said in words."""
    import re

    scene, _ = final
    for rec in scene.audit.records:
        said = rec.describe
        assert not re.search(r'"[A-Za-z]+"|\bdot\b|\bquad\b|dots\.h|_\(|!=', said), (rec.key, said)
    says = [r.describe for r in scene.audit.records if r.key == "equivariance"][0]
    assert "Attn of P X equals P times Attn of X" in says
