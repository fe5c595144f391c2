"""The audit's truth checks (scenes/audit/truth.py), each shown to fail on a case made for it and to pass on
its mended twin: claims bound to the picture, the beat's subject, half-empty frames, dashboards, the deck's
colour scales, one meaning per colour, one verdict style, colour words true of the frame; and code indexing as
notebook notation."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from scenes.audit.beats import BeatRecord, ClaimRecord, Item, ScaleRecord, record_claims
from scenes.audit.truth import (claim_problems, colour_problems, colour_word_problems, colour_words,
                                deck_scale_problems, scale_problems, staging_problems, verdict_problems)
from scenes.kit.theme import CONCEPT_COLORS, CONTENT_BOTTOM, FG
from scenes.kit.layout import SAFE

TOP = 2.9  # a header rule's y: the content area is SAFE.left..SAFE.right × CONTENT_BOTTOM..TOP-0.15
W = SAFE.right - SAFE.left
H = TOP - 0.15 - CONTENT_BOTTOM


def item(box, kind="graphic", text="", opacity=1.0, mid=0, **kw) -> Item:
    kw.setdefault("filled", kind == "graphic")
    return Item(kind, text or kind, tuple(box), opacity, text=text, mid=mid, **kw)


def rec(items, key="beat", subject=None, why=None, claims=(), scales=(), describe="") -> BeatRecord:
    r = BeatRecord(key, 1.0, list(items), TOP, subject=subject, why=dict(why or {}), claims=list(claims),
                   scales=list(scales), describe=describe)
    return r


def big(mid=1, frac=0.8):
    """A box covering ``frac`` of the content area's width and height, centred."""
    cx, cy = (SAFE.left + SAFE.right) / 2, (CONTENT_BOTTOM + TOP - 0.15) / 2
    return item((cx - W * frac / 2, cy - H * frac / 2, cx + W * frac / 2, cy + H * frac / 2), mid=mid)


def kinds(problems) -> list[str]:
    return sorted(p.kind for p in problems)


# ------------------------------------------------------------------ claims
def test_a_bound_claim_must_be_on_screen_and_a_plain_value_must_be_written_there():
    shown = item((0, 0, 1, 1), "text", text="approx 2.6 \"million\"", mid=7)
    ok = rec([shown], claims=[ClaimRecord("wl", "caption", "≈ 2.6 million", False),
                              ClaimRecord("rows", "describe", "rows 2 and 4", True, True)], describe="rows 2 and 4 …")
    assert claim_problems([ok]) == []
    hidden = rec([shown], claims=[ClaimRecord("rows", "describe", "rows 2 and 4", True, False)], describe="…")
    unshown = rec([item((0, 0, 1, 1), "text", text="54 410")], claims=[ClaimRecord("wl", "caption", "≈ 2.6 million",
                                                                                    False)])
    assert kinds(claim_problems([hidden])) == ["claim"]
    assert "≈ 2.6 million" in str(claim_problems([unshown])[0])


def test_a_description_must_name_something_on_screen_by_its_binding():
    """06's `swap` described a hollow diamond that was not in the frame: a description that binds nothing
    cannot be checked, so it is reported."""
    plain = rec([big()], claims=[], describe="A hollow diamond marks the exact zero.")
    assert kinds(claim_problems([plain])) == ["claim"]
    bound = rec([big()], claims=[ClaimRecord("zeros", "describe", "hollow diamonds", True, True)],
                describe="The hollow diamonds mark the exact zeros.")
    assert claim_problems([bound]) == []


def test_record_claims_binds_captions_and_descriptions_to_what_the_scene_shows():
    from manim import Square

    from scenes.kit.binding import claim

    on, off = Square(), Square()
    scene = SimpleNamespace(
        mobjects=[on], _narration={"beat": "{n} rows", "describe": {"beat": "The {box} lights up."}},
        caption_values=lambda: {"n": 5, "box": claim("square", off)}, describe_default=lambda key: None)
    got = {c.name: c for c in record_claims(scene, "beat", "5 rows", "The square lights up.")}
    assert not got["n"].bound and got["n"].where == "caption"
    assert got["box"].bound and got["box"].visible is False  # bound to a square that is not on screen
    assert id(off) in got["box"].mids  # what it names, for the colour-word check
    scene.caption_values = lambda: {"n": 5, "box": claim("square", on)}
    assert {c.name: c for c in record_claims(scene, "beat", "", "")}["box"].visible is True
    on.set_opacity(0.1)  # dimmed to the background: not shown
    assert {c.name: c for c in record_claims(scene, "beat", "", "")}["box"].visible is False


def test_a_claim_formats_as_its_value():
    from scenes.kit.binding import claim

    c = claim(0.25, object())
    assert f"{c:.1%}" == "25.0%" and "{x} of it".format(x=c) == "0.25 of it" and c == 0.25
    with pytest.raises(ValueError):
        claim(1)


# ------------------------------------------------------------------ staging
def test_a_beat_names_its_subject_and_the_subject_is_on_screen_at_full_strength():
    assert kinds(staging_problems([rec([big()])])) == ["subject"]
    assert staging_problems([rec([big(mid=1)], subject=frozenset({1}))]) == []
    faded = rec([item(big().box, opacity=0.5, mid=1)], subject=frozenset({1}))
    assert "subject" in kinds(staging_problems([faded]))


def test_the_subject_is_the_largest_group():
    thumb = item((SAFE.left, CONTENT_BOTTOM, SAFE.left + 0.6, CONTENT_BOTTOM + 0.6), mid=2)  # 14's corner thumbnail
    other = big(mid=1)
    found = staging_problems([rec([other, thumb], subject=frozenset({2}))])
    assert kinds(found) == ["subject"] and "larger than the subject" in str(found[0])
    assert staging_problems([rec([other, thumb], subject=frozenset({1}))]) == []


def test_a_group_beside_the_subject_counts_the_area_it_covers_not_its_span():
    """A formula line across the top and a label under its far end cluster into one group whose box spans most
    of the frame but which covers a strip of it: a matrix larger than the strip is still the largest thing."""
    line = item((SAFE.left, TOP - 0.8, SAFE.right, TOP - 0.2), mid=2)
    tag = item((SAFE.right - 1.0, TOP - 1.2, SAFE.right, TOP - 0.8), mid=3)
    matrix = item((-2.0, CONTENT_BOTTOM + 0.2, 2.0, CONTENT_BOTTOM + 3.2), mid=1)  # 12 units², the strip ~8.5
    assert "subject" not in kinds(staging_problems([rec([line, tag, matrix], subject=frozenset({1}))]))
    block = item((SAFE.left, CONTENT_BOTTOM, SAFE.left + 4.0, TOP - 2.0), mid=4)  # a solid block apart, larger
    found = staging_problems([rec([line, tag, matrix, block], subject=frozenset({1}))])
    assert "subject" in kinds(found)


def test_a_half_empty_frame_is_reported_unless_the_beat_says_why():
    small = big(frac=0.5)  # a quarter of the area
    assert kinds(staging_problems([rec([small], subject=frozenset({1}))])) == ["empty"]
    why = rec([small], subject=frozenset({1}), why={"empty": "one formula, large, is the subject"})
    assert staging_problems([why]) == []


def test_more_than_three_groups_at_full_strength_is_a_dashboard():
    cells = [item((SAFE.left + 3.3 * k, CONTENT_BOTTOM, SAFE.left + 3.3 * k + 2.2, TOP - 0.2), mid=k + 1)
             for k in range(4)]  # 1.1 apart: four groups
    found = staging_problems([rec(cells, subject=frozenset({1}))])
    assert "dashboard" in kinds(found)
    near = [item((SAFE.left + 3.2 * k, CONTENT_BOTTOM, SAFE.left + 3.2 * k + 3.0, TOP - 0.2), mid=k + 1)
            for k in range(4)]  # 0.2 apart: one group
    assert "dashboard" not in kinds(staging_problems([rec(near, subject=frozenset({1, 2, 3, 4}))]))


# ------------------------------------------------------------------ scales
def test_every_coloured_widget_is_on_a_deck_scale_within_its_ends():
    from mathcore.config import load_config
    from scenes.kit import scales

    cfg = load_config()
    w = scales.scale("weights", cfg)
    good = ScaleRecord("weights", scales.signature(w), 0.1, 0.6, "Heatmap")
    assert scale_problems([rec([], scales=[good])], cfg) == []
    nameless = ScaleRecord(None, ("viridis", 0.0, 1.0, None), 0.1, 0.6, "Heatmap")
    beyond = ScaleRecord("weights", scales.signature(w), 0.1, 1.3, "Heatmap")
    sqrt = ScaleRecord("weights", ("viridis", 0.0, 1.0, 0.5), 0.1, 0.6, "Heatmap")  # 02's old square-root stretch
    for bad in (nameless, beyond, sqrt):
        assert kinds(scale_problems([rec([], scales=[bad])], cfg)) == ["scale"], bad
    o = scales.scale("outputs", cfg)
    two = [rec([], key="a", scales=[ScaleRecord("outputs", scales.signature(o), -1, 1, "Heatmap")]),
           rec([], key="b", scales=[ScaleRecord("outputs", ("RdBu_r", -3.0, 3.0, None), -1, 1, "Heatmap")])]
    assert any("second scale" in p.message for p in scale_problems(two))  # 04's ±2 beside 05's ±3


def test_the_deck_paints_one_quantity_on_one_scale():
    a = [rec([], scales=[ScaleRecord("outputs", ("RdBu_r", -2.0, 2.0, None), -1, 1, "Heatmap")])]
    b = [rec([], scales=[ScaleRecord("outputs", ("RdBu_r", -3.0, 3.0, None), -1, 1, "Heatmap")])]
    assert deck_scale_problems({"04": a, "05": a}) == []
    found = deck_scale_problems({"04": a, "05": b})
    assert len(found) == 1 and "04" in found[0] and "05" in found[0]


def test_the_registry_makes_each_shared_quantity_from_the_config_alone():
    from mathcore.config import load_config
    from scenes.kit import scales

    cfg = load_config()
    assert scales.scale("weights", cfg) is scales.scale("weights", cfg)
    assert scales.signature(scales.scale("weights", cfg))[1:] == (0.0, 1.0, None)
    o = scales.scale("outputs", cfg)
    assert o.quantity == "outputs" and o.vmin == -o.vmax
    with pytest.raises(scales.UnknownQuantity):
        scales.scale("weight", cfg)
    with pytest.raises(ValueError):
        scales.scale("table", cfg)
    assert scales.scale("slow angles", cfg, values=[np.array([-3.2, -0.4])]).name != cfg.cmap_weights


# ------------------------------------------------------------------ colours and verdicts
def _rgb(name):
    return tuple(float(c) for c in CONCEPT_COLORS[name].to_rgb())


def test_a_concept_colour_is_drawn_only_in_its_role():
    """03's green outline marked the allowed cells, then the forbidden zeros: the verified colour outside
    a verdict is reported, and so is any concept colour drawn without its role."""
    outline = item((0, 0, 1, 1), filled=False, stroke_rgb=_rgb("verified"))
    assert kinds(colour_problems([rec([outline])])) == ["colour"]
    outline.role = "verified"
    assert "outside a verdict" in str(colour_problems([rec([outline])])[0])
    outline.verdict = True
    assert colour_problems([rec([outline])]) == []
    box = item((0, 0, 1, 1), fill_rgb=_rgb("highlight"), role="highlight")
    assert colour_problems([rec([box])]) == []
    cells = item((0, 0, 1, 1), fill_rgb=_rgb("highlight"), data=True)  # a heatmap cell that happens to be yellow
    assert colour_problems([rec([cells])]) == []
    plain = item((0, 0, 1, 1), "text", text="A", rgb=tuple(float(c) for c in FG.to_rgb()))
    assert colour_problems([rec([plain])]) == []


def test_verdict_words_belong_in_a_verdict():
    heading = item((0, 0, 1, 1), "text", text="why exact?")  # 02's heading over ≈ 4.7 × 10⁻¹⁶
    assert kinds(verdict_problems([rec([heading])])) == ["verdict"]
    tag = item((0, 0, 1, 1), "text", text="exact", verdict=True)
    assert verdict_problems([rec([tag])]) == []
    assert kinds(verdict_problems([rec([item((0, 0, 1, 1), "text", text="✓ bit for bit")])])) == ["verdict"]


def test_the_kit_verdict_is_a_mark_then_the_measured_figure():
    from scenes.kit.proofs import verdict

    ok, bad = verdict("max |Delta|", 0.0, True), verdict("max |Delta|", 0.31, False)
    assert ok._verdict and ok.passed and not bad.passed
    assert ok.check._role == "verified" and bad.check._role == "failed"
    assert ok[0].get_right()[0] < ok[1].get_left()[0]  # the mark before the figure


# ------------------------------------------------------------------ notation
@pytest.mark.parametrize("text", ['Y_"full" [class("normal", :) 5]', "X[:t]", "Attn(X[:1])[0,1]", "A[2, 3]"])
def test_code_indexing_is_notebook_notation(text):
    from scenes.kit.numbers import CODE_INDEX, notebook_output

    assert CODE_INDEX.search(text)
    assert notebook_output(text.replace("_", " ")) is not None


@pytest.mark.parametrize("text", ["A_(m n)", "x_0, …, x_(t-1)", "weights in [0, 1]", "Attn(x_0, …, x_5)"])
def test_lecture_notation_is_not(text):
    from scenes.kit.numbers import CODE_INDEX

    assert not CODE_INDEX.search(text)


def test_a_data_grid_coloured_like_the_background_is_content_not_empty_space():
    """A permutation matrix in inferno is mostly zeros, drawn black on the dark background: the overlap checks
    rightly ignore cells that colour, but a viewer reads the grid, so the frame is not half empty (clip 01 at
    T = 5, d = 2 in inferno was reported 51 % empty with the matrix filling its half of the frame)."""
    from manim import Rectangle, Square

    from scenes.audit.beats import snapshot
    from scenes.kit.theme import ColorScale
    from scenes.kit.widgets import Heatmap

    zeros = Heatmap(np.zeros((6, 6)), ColorScale("inferno", 0.0, 1.0), cell_size=(W * 0.8 / 6, H * 0.8 / 6))
    zeros.move_to([(SAFE.left + SAFE.right) / 2, (CONTENT_BOTTOM + TOP - 0.15) / 2, 0])
    assert not any(it.filled for it in snapshot(SimpleNamespace(mobjects=[zeros], time=0.0), "b").items)

    def staged(*mobs):
        r = snapshot(SimpleNamespace(mobjects=list(mobs), time=0.0), "b")
        r.header_bottom, r.subject = TOP, frozenset({id(m) for m in mobs[0].get_family()})
        return r

    assert "empty" not in kinds(staging_problems([staged(zeros, Square(0.1))]))
    bare = Rectangle(width=zeros.width, height=zeros.height).set_stroke(width=0).set_fill("#000000", 1.0)
    bare.move_to(zeros)  # the same black area, not data: background
    assert "empty" in kinds(staging_problems([staged(bare)]))


def test_a_nearly_empty_beat_is_reported_unless_it_says_why():
    """The layout check's 'sparse' (under 10 % of the content area covered): clip 13's first beat at a training
    length of 2 is a sliver of lane over a long axis on purpose (the next beat colours the rest).  The beat says
    why, as it does for 'empty'; without a reason it is reported."""
    from scenes.audit.beats import check

    sliver = item((SAFE.left, CONTENT_BOTTOM, SAFE.left + 0.5, CONTENT_BOTTOM + 0.5), mid=1)
    first, bare = rec([big()], key="first"), rec([sliver], key="lanes")
    assert [p.kind for p in check([first, bare])] == ["sparse"]
    told = rec([sliver], key="lanes", why={"sparse": "the lanes stop at L on purpose"})
    assert check([first, told]) == []


def test_a_data_grids_background_coloured_cells_hold_its_group_together():
    """Clip 03's mask in magma: its zeros are black, so the overlap checks skip them, and its ones, its name and
    the rest of the frame counted as four groups (a dashboard) though the mask is one grid.  The cells a data
    widget paints near the background join their neighbours into one group, as they count as content."""
    parts = [item((SAFE.left + 3.3 * k, CONTENT_BOTTOM, SAFE.left + 3.3 * k + 2.2, TOP - 0.2), mid=k + 1)
             for k in range(4)]  # 1.1 apart: four groups
    alone = rec(parts, subject=frozenset({1}))
    assert "dashboard" in kinds(staging_problems([alone]))
    bridged = rec(parts, subject=frozenset({1}))
    bridged.cells = [(SAFE.left + 2.2, CONTENT_BOTTOM, SAFE.left + 3.3, TOP - 0.2)]  # the gap between 1 and 2
    assert "dashboard" not in kinds(staging_problems([bridged]))


def test_a_subject_joined_to_a_grid_by_its_dark_cells_is_one_group():
    """Clip 02 under a random config in CI: P X's chips and the arrow into A were one group and A another, because
    the cells of A next to the arrow were near black in magma (background-coloured, so left out), and the larger
    A was reported as bigger than the subject it is drawn with.  The dark cells join the grid to its arrow."""
    chips = item((SAFE.left, CONTENT_BOTTOM, SAFE.left + 1.0, TOP - 0.2), mid=1)
    grid = item((SAFE.left + 2.0, CONTENT_BOTTOM, SAFE.left + 7.0, TOP - 0.2), mid=2)  # 1.0 apart: two groups
    apart = rec([chips, grid], subject=frozenset({1}))
    assert "subject" in kinds(staging_problems([apart]))
    joined = rec([chips, grid], subject=frozenset({1}))
    joined.cells = [(SAFE.left + 1.3, CONTENT_BOTTOM, SAFE.left + 2.0, TOP - 0.2)]  # A's dark first column
    assert "subject" not in kinds(staging_problems([joined]))
    alone = rec([chips], subject=frozenset({1}))  # a grid of dark cells alone, far off, is no group beside it
    alone.cells = [(SAFE.right - 6.0, CONTENT_BOTTOM, SAFE.right, TOP - 0.2)]
    assert "subject" not in kinds(staging_problems([alone]))


# ------------------------------------------------------------------ colour words
def _hex(h):
    return tuple(int(h[i:i + 2], 16) / 255 for i in (1, 3, 5))


def worded(items, describe="", caption="", claims=(), scales=()):
    r = rec(items, describe=describe, claims=claims, scales=scales)
    r.caption = caption
    return r


def test_a_colour_the_description_names_must_be_drawn():
    """02's running maximum is "a yellow staircase": a description naming yellow with nothing yellow drawn
    fails; a yellow stroke (the staircase), a yellow text or a yellow fill passes; one below the dimmed
    opacity does not count."""
    grey_dots = item((0, 0, 1, 1), filled=False, stroke_rgb=_hex("#7D8590"), stroke_opacity=1.0)
    said = "A yellow staircase traces the largest defect so far."
    assert kinds(colour_word_problems([worded([grey_dots], said)])) == ["colour word"]
    stair = item((0, 0, 1, 1), filled=False, stroke_rgb=_rgb("highlight"), stroke_opacity=1.0)
    assert colour_word_problems([worded([grey_dots, stair], said)]) == []
    assert colour_word_problems([worded([item((0, 0, 1, 1), "text", text="max", rgb=_hex("#FFF04D"))], said)]) == []
    faded = item((0, 0, 1, 1), filled=False, stroke_rgb=_rgb("highlight"), stroke_opacity=0.2, opacity=0.2)
    assert kinds(colour_word_problems([worded([faded], said)])) == ["colour word"]
    # the caption is held to it too
    assert kinds(colour_word_problems([worded([grey_dots], caption="The yellow dot is this P.")])) == ["colour word"]


def test_pale_and_dark_are_told_apart():
    """13's unseen ice blue (#B0E0FF) is a pale blue; the key's blue (#58A6FF) is not pale; a dark blue is
    neither."""
    unseen = item((0, 0, 1, 1), fill_rgb=_rgb("unseen"), fill_opacity=1.0)
    key = item((0, 0, 1, 1), fill_rgb=_rgb("key"), fill_opacity=1.0)
    navy = item((0, 0, 1, 1), fill_rgb=_hex("#1F3A8A"), fill_opacity=1.0)
    for words in ("pale blue bars", "ice blue bars", "light blue bars"):
        assert colour_word_problems([worded([unseen], words)]) == [], words
        assert kinds(colour_word_problems([worded([key], words)])) == ["colour word"], words
    assert colour_word_problems([worded([navy], "dark blue bars")]) == []
    assert kinds(colour_word_problems([worded([unseen], "dark blue bars")])) == ["colour word"]
    assert colour_word_problems([worded([key], "blue bars")]) == [] == colour_word_problems([worded([unseen],
                                                                                                      "blue bars")])


def test_slate_grey_is_a_filled_area_as_seen_on_the_background():
    """13 said "slate grey" of bars drawn ice blue at full strength (false), and of the chart's area, drawn in
    the same ice blue at 0.4 opacity: on the dark background that area *is* a slate grey (#617A8D).  Only a
    filled area is slate grey: a stroke or a text in that colour is not."""
    bars = item((0, 0, 1, 1), fill_rgb=_rgb("unseen"), fill_opacity=1.0)
    said = "Bars of the strip are slate grey."
    assert kinds(colour_word_problems([worded([bars], said)])) == ["colour word"]
    for opacity in (0.3, 0.4, 0.5):  # 13's chart area: one layer at 0.3 as recorded, two as on screen
        area = item((0, 0, 1, 1), fill_rgb=_rgb("unseen"), fill_opacity=opacity)
        assert colour_word_problems([worded([bars, area], said)]) == [], opacity
    night = item((0, 0, 1, 1), fill_rgb=_hex("#1C252E"), fill_opacity=1.0)  # a blue-grey nearly the background
    assert kinds(colour_word_problems([worded([bars, night], said)])) == ["colour word"]
    line = item((0, 0, 1, 1), filled=False, stroke_rgb=_hex("#708090"), stroke_opacity=1.0)
    assert kinds(colour_word_problems([worded([line], said)])) == ["colour word"]
    assert colour_word_problems([worded([item((0, 0, 1, 1), fill_rgb=_hex("#708090"), fill_opacity=1.0)],
                                        said)]) == []


def test_a_colour_in_a_bound_claim_is_the_colour_of_what_it_names():
    """13's `schemes`: {pale} = claim("slate grey", the lanes past L), drawn ice blue; a slate grey area
    elsewhere in the frame does not make it true of the lanes."""
    lanes = item((0, 0, 1, 1), fill_rgb=_rgb("unseen"), fill_opacity=1.0, mid=5)
    area = item((2, 0, 3, 1), fill_rgb=_hex("#708090"), fill_opacity=1.0, mid=6)
    said = "Past L both lanes turn slate grey, never seen in training."
    slate = ClaimRecord("pale", "describe", "slate grey", True, True, frozenset({5}))
    problems = colour_word_problems([worded([lanes, area], said, claims=[slate])])
    assert kinds(problems) == ["colour word"] and "pale blue" in str(problems[0])
    pale = ClaimRecord("pale", "describe", "pale blue", True, True, frozenset({5}))
    said = "Past L both lanes turn pale blue, never seen in training."
    assert colour_word_problems([worded([lanes, area], said, claims=[pale])]) == []


def test_a_colour_bars_end_colours_count_as_drawn():
    """A colour bar running from one colour to another (09: "almost white on the bar"; 10: a log scale): its
    ends, and a diverging scale's middle, are drawn colours."""
    from scenes.kit import scales as kscales
    from scenes.kit.theme import ColorScale

    s = ColorScale("RdBu_r", -1.0, 1.0)
    bar = ScaleRecord("outputs", kscales.signature(s), -1.0, 1.0, "ColorBar")
    said = "Entries near 0 are almost white on the bar; the ends are red and blue."
    assert colour_word_problems([worded([], said, scales=[bar])]) == []
    assert kinds(colour_word_problems([worded([], said)])) == ["colour word"] * 3
    grid = ScaleRecord("outputs", kscales.signature(s), -1.0, 1.0, "Heatmap")  # a grid's cells count as cells
    assert len(colour_word_problems([worded([], said, scales=[grid])])) == 3


def test_words_that_name_no_colour_are_skipped():
    """Math, quotations, a name, a negation, idioms, and the lecturer's own words filled in (a sentence "the
    orange cat") name no colour on screen."""
    assert colour_words("the angle $theta_red$ and the word \"orange\" and “green”") == []
    assert colour_words("the Red Queen") == [] and [p for p, _ in colour_words("Red bars. Then green.")] == [
        "red", "green"]
    assert colour_words("not red; a red herring; a black box") == []
    token = ClaimRecord("worst_word", "describe", "orange", False)
    said = "the largest gap at orange, 0.5"
    assert colour_word_problems([worded([], said, claims=[token])], verbatim=("orange", "cat")) == []
    assert kinds(colour_word_problems([worded([], said, claims=[token])])) == ["colour word"]
    assert [p for p, _ in colour_words("a green check, pale blue, slate gray bars")] == [
        "green", "pale blue", "slate gray"]


def test_the_snapshot_records_what_the_colour_word_check_reads():
    """A stroke's own opacity (a filled box's outline may be fainter than its fill) and a scale's colour bar."""
    from manim import Square

    from scenes.audit.beats import snapshot

    box = Square(fill_color="#B0E0FF", fill_opacity=1.0, stroke_color="#F2C14E", stroke_opacity=0.25, stroke_width=4)
    got = snapshot(SimpleNamespace(mobjects=[box], time=0.0), "beat").items[0]
    assert got.fill_opacity == 1.0 and got.stroke_opacity == 0.25
    # the yellow outline at a quarter strength is not "a yellow outline" (below the dimmed level)
    assert kinds(colour_word_problems([worded([got], "A yellow outline around pale blue.")])) == ["colour word"]
    assert colour_word_problems([worded([got], "A pale blue box.")]) == []
