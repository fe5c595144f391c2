"""Clip 13 ExtrapolationCliff: unseen RoPE pairs per position, the learned table's wall, the walk past
training, the closing picture (three lanes over one position axis: the table's wall, sinusoidal never seen,
RoPE's count), the layout and lecture language over the config matrix, narration that stays true for every
config, and the still drawn in the same colours over the same positions."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from frames import (
    pixel,
    rgb255,
)
from mathcore import extrapolation_report, load_config, rope_unseen_pairs
from mathcore.extrapolation import pair_angles, pair_turns, unseen_pair_counts, wrapped_in_training
from scenes.clips.c13_extrapolation_cliff import ExtrapolationCliff, past_arc_range, step_pair
from scenes.clips.c13_widgets import degree_text
from scenes.figures import stills_for
from scenes.figures.extrapolation import CLIFF_COLORS, CLIFF_ROLES, first_missing, hex_of
from scenes.kit import BG, FAILED, HIGHLIGHT, SEEN, UNSEEN, numbers
from scenes.kit.numbers import count
from scenes.stills.draw import DARK


SCENE = ExtrapolationCliff
FINAL_SIZE = (854, 480)


def no_row_words(scene) -> str:
    """The table's answer past its wall as drawn (on one line, or two on the lane)."""
    return "".join(t.text for t in scene.lanes.no_row.get_family() if hasattr(t, "text") and t.text)


def blend(color, opacity):
    return np.round(opacity * rgb255(color) + (1 - opacity) * rgb255(BG)).astype(int)


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = ExtrapolationCliff.build_data(cfg)
    L, n_max = cfg.train_length, cfg.n_max
    assert (d.train_length, d.n_max, d.base) == (L, n_max, cfg.rope_base)
    np.testing.assert_array_equal(d.positions, np.arange(1, 4 * n_max + 1))
    np.testing.assert_array_equal(d.unseen, unseen_pair_counts(d.positions, d.head_dim, L, cfg.rope_base))
    assert d.stops == (L - 1, L, n_max, 4 * n_max)
    masks = rope_unseen_pairs(list(d.stops), d.head_dim, L, cfg.rope_base)
    np.testing.assert_array_equal(d.stop_masks, masks)
    np.testing.assert_array_equal(d.stop_counts, masks.sum(axis=1))
    np.testing.assert_array_equal(d.wrapped, wrapped_in_training(d.head_dim, L, cfg.rope_base))
    assert d.n_wrapped == d.wrapped.sum()
    for s, m in enumerate(d.stops):
        np.testing.assert_array_equal(d.stop_angles[s], pair_angles(m, d.head_dim, cfg.rope_base)[list(d.pairs)])
        np.testing.assert_array_equal(d.stop_turns[s], pair_turns(m, d.head_dim, cfg.rope_base)[list(d.pairs)])
    np.testing.assert_array_equal(d.stop_unseen, masks[:, list(d.pairs)])
    rep = extrapolation_report(list(d.stops), d.head_dim, n_max, cfg.seed, cfg.rope_base)
    assert d.report.learned_error == rep.learned_error
    np.testing.assert_array_equal(d.report.learned_defined, [True, True, False, False])
    # the cliff: nothing unseen inside training, a jump one step past it
    assert np.all(d.unseen[: L - 1] == 0) and d.unseen[L - 1] > 0  # positions[L-1] is m = L


def test_the_step_pair_is_chosen_by_measurement():
    """Review round 4 (06 step): the second dial showed pair 31, whose step past training (0.66°) no dial can show.
    It now shows the pair with the largest step among those that did not wrap in training: θᵢ falls with i, so the
    first unwrapped pair (17 in the shipped config), 4.96° past its arc's end at m = L."""
    cfg = load_config()
    d = ExtrapolationCliff.build_data(cfg)
    fast, step = d.pairs
    assert fast == 0
    wrapped = wrapped_in_training(d.head_dim, d.train_length, d.base)
    masks = rope_unseen_pairs(list(d.stops), d.head_dim, d.train_length, d.base)
    theta = d.base ** (-2 * np.arange(d.n_pairs) / d.head_dim)
    candidates = np.flatnonzero(~wrapped & masks[1])
    assert step == candidates[np.argmax(theta[candidates])] == step_pair(masks, wrapped) == 17
    over = np.degrees(d.train_length * theta[step] - (d.train_length - 1) * theta[step])
    assert 4.9 < over < 5.0  # a step a dial can show
    # with no pair unseen one step on, the slowest pair is shown
    assert step_pair(np.zeros_like(masks), wrapped) == d.n_pairs - 1


def test_a_config_edit_reaches_the_clip(tmp_path):
    src = load_config().path.read_text()
    edited = src.replace("train_length = 64", "train_length = 256")
    assert edited != src
    p = tmp_path / "lecture.toml"
    p.write_text(edited)
    d = ExtrapolationCliff.build_data(load_config(p))
    assert d.stops[:2] == (255, 256)
    assert np.all(d.unseen[:255] == 0) and d.unseen[255] > 0


def test_the_lanes_show_the_table_ending_at_n_max_and_the_formulas_going_on(final):
    """The lanes (the first picture): the learned lane seen to L, never trained to its wall at nₘₐₓ, nothing
    after it; the sinusoidal lane seen to L, then defined but never seen to the axis' end; each part says
    what it is on the bar itself when the words fit."""
    scene, _ = final
    d = scene.data
    B = scene.big
    xL, xn, xe = scene.x_of(d.train_length), scene.x_of(d.n_max), scene.x_of(d.x_max)
    for bar in B.trained:
        assert np.isclose(bar.get_left()[0], scene.x_of(1)) and np.isclose(bar.get_right()[0], xL)
        assert bar.get_fill_color().to_hex() == SEEN.to_hex() and bar.get_fill_opacity() == 1.0
    assert np.isclose(B.untrained.get_left()[0], xL) and np.isclose(B.untrained.get_right()[0], xn)
    assert np.isclose(B.unseen.get_left()[0], xL) and np.isclose(B.unseen.get_right()[0], xe)
    # review round 7: the table's untrained rows in the failure's red family (a tint), never the unseen pale blue
    # that sinusoidal's never-seen vectors (a neutral measurement) wear
    assert B.unseen.get_fill_color().to_hex() == UNSEEN.to_hex() and B.unseen.get_fill_opacity() == 1.0
    assert B.untrained.get_fill_color().to_hex() == FAILED.to_hex() and 0 < B.untrained.get_fill_opacity() < 1
    assert B.untrained._role == "failed"
    red = next(r for r in scene.audit.records if r.key.startswith("schemes"))
    assert "the table's rows turn a red tint: never trained" in red.describe
    assert "sinusoidal's vectors turn pale blue: never seen" in red.describe
    # the wall stands at n_max, in the failed colour, across the learned lane only
    assert abs(scene.wall.get_center()[0] - xn) < 1e-9
    assert scene.wall.get_stroke_color().to_hex() == FAILED.to_hex()
    assert scene.wall.get_bottom()[1] > B.unseen.get_top()[1]
    # the words on the bars, each inside its bar (clear of the walker at n_max)
    words = {w.text: w for w in B.words.get_family() if hasattr(w, "text")}
    # review round 6: the *vector* was never seen (some of its pairs sit at seen angles, beats 06 to 08)
    assert set(words) >= {"seenintraining", "nevertrained"}
    never = words.get("defined,vectorneverseen", words.get("vectorneverseen"))
    assert never is not None, set(words)
    assert not (never.get_left()[0] < xn < never.get_right()[0])
    assert B.unseen.get_left()[0] <= never.get_left()[0] and never.get_right()[0] <= B.unseen.get_right()[0]
    # the lanes are the first picture's subject, large: together they span most of the content's height
    top, bottom = B.titles[0].get_top()[1], B.trained[-1].get_bottom()[1]
    assert top - bottom >= 0.5 * scene.layout.content.height


def test_the_three_pictures_come_one_at_a_time(final):
    """Issue 33: the clip was a dashboard (lanes, strip, dials and a detached axis at once).  Now the lanes,
    then the pairs on an axis of their own, then the chart, then the close's three lanes (review round 10): no beat
    shows two of them at full strength."""
    scene, _ = final
    recs = scene.audit.records
    phase = {}
    for r in recs:
        if r.key == "title":
            continue
        ids = {it.mid for it in r.items if it.opacity >= 0.9}
        lanes = any(id(f) in ids for f in scene.big.trained.get_family())
        pairs = any(id(f) in ids for f in scene.pairs.strip.get_family())
        chart = id(scene.chart.curve) in ids or any(id(f) in ids for f in scene.chart.curve.get_family())
        close = any(id(f) in ids for f in scene.trio.rope.get_family())
        assert lanes + pairs + chart + close <= 1, r.key
        phase[r.key] = "lanes" if lanes else "pairs" if pairs else "chart" if chart else "close" if close else None
    order = [p for p in phase.values() if p]
    assert order == sorted(order, key=["lanes", "pairs", "chart", "close"].index), order
    assert set(order) == {"lanes", "pairs", "chart", "close"}
    assert phase[recs[-1].key] == "close"
    # the strip's x is the pair index on its own axis (0 at the first bar, the last pair at the last)
    P = scene.pairs
    ticks = {t.text: t for t in P.ticks}
    assert abs(ticks["0"].get_x() - P.strip[0].get_x()) < 1e-6
    assert abs(ticks[str(d_last := scene.data.n_pairs - 1)].get_x() - P.strip[d_last].get_x()) < 1e-6
    # each dial stands under its pair's bar when there is room (the fast pair's always)
    assert P.dials[0].get_left()[0] <= P.strip[scene.data.pairs[0]].get_x() <= P.dials[0].get_right()[0] + 1e-6


def test_final_frame_ropes_lane_is_pale_blue_as_deep_as_its_count(final):
    """Review round 10: the close's RoPE lane carries the chart's count: at every position past L its pale blue
    rises from the lane's bottom as high as the pairs at unseen angles (of 64), violet above; violet all through
    before L, where the count is zero.  Read off the final frame's pixels."""
    scene, frame = final
    d = scene.data
    T = scene.trio
    lane = T.lane_plot
    top = d.n_pairs
    for m in (200, 2000):
        near = d.unseen[int(0.9 * m) - 1:int(1.1 * m)]  # the drawn edge is downsampled: the count nearby
        lo, hi = int(near.min()), int(near.max())
        assert lo > 8 and top - hi > 8, (m, lo, hi)
        pale = pixel(scene, frame, lane.to_point(m, lo / 2))
        assert np.abs(pale - rgb255(UNSEEN)).max() <= 14, (m, pale)
        violet = pixel(scene, frame, lane.to_point(m, (hi + top) / 2))
        assert np.abs(violet - rgb255(SEEN)).max() <= 14, (m, violet)
    before = pixel(scene, frame, lane.to_point(d.train_length / 2, top / 2))
    assert np.abs(before - rgb255(SEEN)).max() <= 14
    # the stack is drawn from mathcore's counts at every position from L on
    pos, cnt = T.stack_values
    np.testing.assert_array_equal(pos, np.arange(d.train_length, d.x_max + 1))
    np.testing.assert_array_equal(cnt, unseen_pair_counts(pos, d.head_dim, d.train_length, d.base))


def test_L_and_n_max_are_labelled_at_their_positions(final):
    scene, _ = final
    d = scene.data
    ax = scene.ruler.plot.axes[0].get_y()  # the lanes' ruler: L and nₘₐₓ under its axis
    for lab, m in ((scene.L_tick, d.train_length), (scene.n_tick, d.n_max)):
        x = scene.x_of(m)
        # under its position, or joined to it by a leader line
        near = lab.get_left()[0] - 0.1 <= x <= lab.get_right()[0] + 0.1
        led = any(np.allclose(ld.get_start()[:2], [x, ax - 0.03], atol=1e-6) for ld in scene.annotations.leaders)
        # nₘₐₓ may stand by its wall instead, between the lanes, just left of it (review round 6)
        by_wall = (lab is scene.n_tick and scene.n_in_lanes and 0 < x - lab.get_right()[0] < 0.5
                   and scene.lanes.unseen.get_top()[1] < lab.get_bottom()[1]
                   and lab.get_top()[1] < scene.lanes.untrained.get_bottom()[1])
        assert near or led or by_wall, lab.typst_code
    a, b = scene.L_tick, scene.n_tick
    assert a.get_right()[0] < b.get_left()[0] or b.get_right()[0] < a.get_left()[0]
    # the notation: L and a subscripted n_max, typeset; never the code name
    assert scene.n_tick.typst_code.strip("$ ") == f'n_"max" = {count(d.n_max).math}'
    # guides and walker never cross a lane title: the walker is cut into one segment per lane and a tick
    titles = [*scene.lanes.titles]  # the chart's title comes after the walker has gone
    for seg in scene.walker:
        for t in titles:
            assert (seg.get_top()[1] < t.get_bottom()[1] or seg.get_bottom()[1] > t.get_top()[1]
                    or seg.get_left()[0] > t.get_right()[0] or seg.get_right()[0] < t.get_left()[0])
    # over the learned lane the walker is a pointer above the wall, not a line down it (review round 4: buried)
    pointer = scene.walker[0]
    assert pointer.get_bottom()[1] > scene.wall_box.get_top()[1] and abs(pointer.get_x() - scene.x_of(d.n_max)) < 1e-6


def test_the_walk_shows_the_measured_figures(final):
    scene, _ = final
    d = scene.data
    P = scene.pairs
    last = len(d.stops) - 1
    assert P.stop == last
    # the one term (round 8): pairs at "unseen angles"; Text.text drops spaces
    assert scene.count_text.text == f"{d.stop_counts[last]}of{d.n_pairs}atunseenangles"
    assert scene.count_text.get_fill_color().to_hex() == UNSEEN.to_hex()  # never violet (review round 7)
    assert scene.m_value.typst_code.strip("$ ") == f"m = {count(d.stops[last]).math}" == "m = 4096"
    for k in range(2):
        n = int(d.stop_turns[last, k])
        turns, status = P.words[k][0], P.words[k][1][1]  # "pair 0 · 651 turns"; "323.5°" "seen" on the next line
        assert turns.text == f"pair{d.pairs[k]}·{count(n).text.replace(' ', '')}turn{'' if n == 1 else 's'}"
        assert status.text == ("unseen" if d.stop_unseen[last, k] else "seen")
        assert status.get_fill_color().to_hex() == (UNSEEN if d.stop_unseen[last, k] else SEEN).to_hex()
        assert np.isclose(scene.dials[k].angle, d.stop_angles[last, k])
    # the strip paints every pair as the last stop finds it: seen in training, or not
    for i, sq in enumerate(P.strip):
        assert sq.get_fill_color().to_hex() == (UNSEEN if d.stop_masks[last, i] else SEEN).to_hex(), i
    # the walker stood at the wall (n_max), and the readouts were swapped, not cross-faded: each once
    assert abs(scene.walker[0].get_x() - scene.x_of(d.n_max)) < 1e-6
    far = next(r for r in scene.audit.records if r.key.startswith("far"))
    texts = [it.text for it in far.items if it.kind == "text"]
    assert texts.count(f"m = {count(d.stops[last]).math}") == 1  # one m on screen at the last stop
    assert not any(t.startswith("m = ") and t != f"m = {count(d.stops[last]).math}" for t in texts)
    assert sum(t.endswith("at unseen angles") and "of" in t for t in texts) == 1


def test_the_wall_is_said_in_lecture_language(final):
    scene, _ = final
    d = scene.data
    m = first_missing(d)
    assert m == d.n_max  # the report's first position without a row
    assert f"no row for position {d.n_max}" in d.report.learned_error  # mathcore says so too
    # in the clip's notation (review round 4: "position 1024" beside "m = 1024" and "m ≥ nₘₐₓ")
    assert no_row_words(scene) == "norowfor"
    assert [t.typst_code.strip("$ ") for t in scene.lanes.no_row.get_family() if hasattr(t, "typst_code")] == [
        f"m = {count(m).math}"]
    assert all(t.get_fill_color().to_hex() == FAILED.to_hex() for t in scene.lanes.no_row.get_family()
               if hasattr(t, "text") or hasattr(t, "typst_code"))
    # no monospace exception on screen, no code name
    texts = [getattr(f, "text", "") for mob in scene.mobjects for f in mob.get_family()]
    assert not any("Error" in t or "n_max" in t or ".." in t for t in texts)


def test_the_close_answers_for_all_three_schemes_on_one_axis(final):
    """Review round 10 (10 close): the close was a dashboard (a ✗ line, a lane, a ✓ line, a measured line, a line of
    degrees and a shrunken chart), and sinusoidal, asked about in the title, was missing from it.  It is one
    picture: three lanes over one position axis, each violet to L, each answered on the data: the learned table's
    untrained rows in the red tint to its wall at nₘₐₓ and "✗ no row" past it; sinusoidal's pale blue to the axis'
    end, "vector never seen" on it; RoPE's lane to the end with no wall, labelled at m = L with mathcore's count."""
    scene, _ = final
    d = scene.data
    L, n_max, x_max = d.train_length, d.n_max, d.x_max
    T = scene.trio
    on = {id(f) for m in scene.mobjects for f in m.get_family()}
    for part in (T.titles, T.trained, T.untrained, T.unseen, T.rope, T.stack, T.wall, T.no_row, T.count, T.dot,
                 T.leader, T.n_tick, scene.ruler.axis):
        assert all(id(f) in on for f in part.get_family()), part
    # the other pictures are gone: the chart, the strip and dials, the first lanes
    for gone in (scene.chart, scene.pairs.on_screen(), scene.big, scene.proof_big, scene.past_big):
        assert not any(id(f) in on for f in gone.get_family())
    assert [t.text for t in T.titles] == ["learnedtable", "sinusoidal", "RoPE"]
    # one axis: every lane starts at m = 1 and meets L, nₘₐₓ and the walk's end where the ruler puts them
    x1, xL, xn, xe = (scene.x_of(m) for m in (1, L, n_max, x_max))
    for b in (*T.trained, T.rope):
        assert np.isclose(b.get_left()[0], x1)
    for b in T.trained:
        assert np.isclose(b.get_right()[0], xL) and b.get_fill_color().to_hex() == SEEN.to_hex()
    assert np.isclose(T.untrained.get_left()[0], xL) and np.isclose(T.untrained.get_right()[0], xn)
    assert T.untrained.get_fill_color().to_hex() == FAILED.to_hex() and 0 < T.untrained.get_fill_opacity() < 1
    assert abs(T.wall.get_x() - xn) < 1e-9 and T.wall.get_stroke_color().to_hex() == FAILED.to_hex()
    assert np.isclose(T.unseen.get_left()[0], xL) and np.isclose(T.unseen.get_right()[0], xe)
    assert T.unseen.get_fill_color().to_hex() == UNSEEN.to_hex() and T.unseen.get_fill_opacity() == 1.0
    assert np.isclose(T.rope.get_right()[0], xe) and T.rope.get_fill_color().to_hex() == SEEN.to_hex()
    assert np.isclose(T.stack.get_left()[0], xL) and np.isclose(T.stack.get_right()[0], xe)
    assert T.stack.get_fill_color().to_hex() == UNSEEN.to_hex() and T.stack._role == "unseen"
    # each lane's answer on its own lane: the table's ✗ past its wall, sinusoidal's words on its pale blue
    assert T.no_row.passed is False and T.no_row.check._role == "failed"
    assert [w.text for w in T.no_row.line.words] == ["norow"]
    assert T.no_row.get_left()[0] > xn and abs(T.no_row.get_y() - T.lane_y[0]) < 1e-6
    words = {w.text: w for w in T.words}
    sin = words["defined,vectorneverseen"]
    assert T.unseen.get_left()[0] < sin.get_left()[0] and sin.get_right()[0] < T.unseen.get_right()[0]
    assert abs(sin.get_y() - T.lane_y[1]) < 1e-6 and not len(T.never)
    assert T.n_tick.typst_code.strip("$ ") == f'n_"max" = {count(n_max).math}' and T.n_tick.get_right()[0] < xn
    # RoPE's count at m = L, as mathcore counts it (not the clip's data): on RoPE's title row, its dot where the
    # lane's pale blue rises at L
    jump = int(rope_unseen_pairs([L], d.head_dim, L, d.base).sum())
    assert jump == 47
    assert T.count.text == f"{jump}of{d.n_pairs}atunseenangles"
    assert abs(T.count.get_y() - T.titles[2].get_y()) < 0.1 and T.count.get_left()[0] > T.titles[2].get_right()[0]
    assert np.allclose(T.dot.get_center(), T.lane_plot.to_point(L, jump))
    assert T.dot.get_fill_color().to_hex() == HIGHLIGHT.to_hex()
    close = scene.audit.records[-1]
    counts = [it.text for it in close.items if it.kind == "text" and f"of {d.n_pairs}" in it.text]
    assert counts == [f"{jump} of {d.n_pairs} at unseen angles"], counts  # the one count on screen: RoPE's
    # one subject, large: the lanes and their axis fill the content area
    take = scene.takeaway()
    content = scene.layout.content
    assert take.width >= 0.9 * content.width and take.height >= 0.75 * content.height
    for part in (T, scene.ruler.axis):
        assert content.contains(part)


def test_every_beat_changes_the_picture_and_speaks_lecture_language(final, corners):
    for name, r in {"final": final[0].audit, **corners}.items():
        kinds = {p.kind for p in r.lecture}
        assert not kinds & {"static", "notation", "binding"}, (name, [str(p) for p in r.lecture][:5])


def test_the_still_uses_the_clips_colours_over_the_same_positions(final):
    scene, _ = final
    d = scene.data
    still = stills_for(ExtrapolationCliff, scene.cfg, d)[0]
    # one colour per idea: the still's roles are the clip's concept colours
    for key, role in CLIFF_ROLES.items():
        assert DARK.color(role) == hex_of(CLIFF_COLORS[key])
    assert hex_of(scene.lanes.trained[0].get_fill_color()) == DARK.color(CLIFF_ROLES["seen"])
    assert hex_of(scene.lanes.unseen.get_fill_color()) == DARK.color(CLIFF_ROLES["unseen"])
    assert hex_of(scene.wall.get_stroke_color()) == DARK.color(CLIFF_ROLES["wall"])
    lane_a = still.panels["A"]
    # the table's untrained rows in the failure's colour, as the clip's lane paints them (round 8); sinusoidal's
    # lane keeps the unseen pale blue past L
    assert [s.color for s in lane_a.spans] == [CLIFF_ROLES[k] for k in ("seen", "wall", "wall")]
    assert hex_of(scene.lanes.untrained.get_fill_color()) == DARK.color(CLIFF_ROLES["wall"])
    assert [s.color for s in still.panels["B"].spans] == [CLIFF_ROLES[k] for k in ("seen", "unseen")]
    chart = still.panels["C"]
    curve = next(s for s in chart.series if s.kind == "step")
    assert curve.color == CLIFF_ROLES["unseen"] and hex_of(scene.chart.curve.get_stroke_color()) == DARK.color(
        curve.color)
    assert chart.xlim == lane_a.xlim == (1, d.x_max)
    lo, hi = scene.plot.x_range  # the clip's axis runs a dot's width past the walk's end
    assert lo == 1 and d.x_max < hi < 1.2 * d.x_max
    assert f"no row for position {d.n_max}" in still.proof[-1]


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 9
    assert any(f"{int(scene.data.stop_counts[1])} of {scene.data.n_pairs}" in c.text for c in caps)


# ------------------------------------------------------------------ layout and narration over the config matrix


def test_every_corner_stays_within_lecture_pacing(corners):
    for name, r in corners.items():
        assert 20 <= r.scene.time <= 75, (name, r.scene.time)


def test_narration_matches_the_measured_values_in_every_corner(corners):
    for name, r in corners.items():
        scene = r.scene
        d = scene.data
        text = " ".join(c.text for c in scene.captions)
        if d.n_max == d.train_length:
            assert "Walk on" not in text and "never trained;" not in text, name
        if d.n_max - d.train_length > 1:
            assert f"rows {count(d.train_length).text} to {count(d.n_max - 1).text}" in text, name
        if d.n_wrapped == 0:
            assert "went all the way round" not in text, name
        else:
            assert f"{d.n_wrapped} of {d.n_pairs} pairs went all the way round" in text, name
        assert f"{int(d.stop_counts[1])} of {d.n_pairs}" in text or d.stop_counts[1] == 0, name
        assert f"{int(d.stop_counts[3])} of {d.n_pairs}" in text or d.stop_counts[3] == 0, name
        # the words on the wall and the count at each stop are the measured ones
        assert no_row_words(scene) == "norowfor", name
        # "just past their arcs" only where every pair is a few degrees past its arc (L = 2: up to 57°)
        lo, hi = past_arc_range(d)
        if d.stop_counts[1] and hi > ExtrapolationCliff.JUST:
            assert "just past" not in text and "if only" not in text, name
            assert f"{degree_text(lo)}° to {degree_text(hi)}° past their arcs" in text, name
        assert any(t.typst_code.strip("$ ") == f"m = {count(first_missing(d)).math}"
                   for t in scene.lanes.no_row.get_family() if hasattr(t, "typst_code")), name


def test_the_words_follow_the_numbers():
    d = SimpleNamespace(n_max=4096, train_length=4096, stop_counts=np.array([0, 18, 18, 12]), n_wrapped=46)
    v = lambda key: ExtrapolationCliff.variant(SimpleNamespace(data=d, came_back=lambda: 3), key)  # noqa: E731
    assert (v("schemes"), v("wall"), v("wrapped"), v("far")) == ("schemes_none", "wall_same", "wrapped", "far")
    d.train_length = 4095
    assert v("schemes") == "schemes_one" and v("wall") == "wall"
    d.n_wrapped, d.stop_counts = 0, np.array([0, 0, 0, 0])
    assert (v("wrapped"), v("step"), v("far"), v("close")) == ("wrapped_none", "step_none", "far_none", "close_none")


def test_the_close_says_what_its_lanes_show(final):
    """Review round 10: the close answers the title's question for each scheme, in the caption as on the lanes:
    the table's rows untrained from L and none from nₘₐₓ; sinusoidal defined on, never seen; RoPE on too, with its
    count at m = L.  Every value the caption and description fill in is bound to a lane part on screen."""
    scene, _ = final
    d = scene.data
    jump = int(d.stop_counts[1])
    assert d.stops[1] == d.train_length and d.report.learned_defined[1] and first_missing(d) == d.n_max
    assert scene.caption("close") == (f"The table's rows go untrained at {count(d.train_length).text} and run out "
                                      f"at {count(d.n_max).text}. Sinusoidal goes on, never seen; RoPE too, {jump} of "
                                      f"{d.n_pairs} unseen at m = {count(d.train_length).text}.")
    close = scene.audit.records[-1]
    assert close.key == "close"
    assert close.claims and all(c.bound and c.visible for c in close.claims if c.bound), \
        [c.name for c in close.claims if c.bound and not c.visible]
    bound = {c.name for c in close.claims if c.bound}
    assert {"trio", "table_says", "wall", "cross", "sin", "stack", "mark", "jump", "pairs", "L", "n_max"} <= bound
    for words in ("three lanes over one axis", "a red wall stands", "a red cross past it: no row",
                  "Sinusoidal's runs on in pale blue", "defined at every m, never seen",
                  "pale blue rising as high as its count of pairs at unseen angles",
                  f"labelled {jump} of {d.n_pairs} at unseen angles"):
        assert words in close.describe, words
    import pathlib
    assert "ice blue" not in pathlib.Path("assets/narration/13_extrapolation_cliff.toml").read_text()


def test_the_chart_writes_the_jump_its_caption_says(final):
    """The chart's caption says '… then 47 of 64 at once': the count one step past training is written on the
    chart where the curve jumps, at that beat (the review found '47 of 64' said over a curve with ticks at 0, 32
    and 64 only), and the close adds the other stops' counts."""
    scene, _ = final
    d = scene.data
    jump = int(d.stop_counts[1])
    chart = next(r for r in scene.audit.records if r.key.startswith("chart"))
    texts = [it.text for it in chart.items if it.kind == "text" and it.opacity >= 0.9]
    assert f"{jump} of {d.n_pairs}" in texts, texts
    assert f"{jump} of {d.n_pairs}" in chart.claims[0].text or any(
        c.name == "jump" and c.bound and c.visible for c in chart.claims)
    assert np.allclose(scene.proof_big.dots[0].get_center(), scene.plot.to_point(d.stops[1], jump))
    close = next(r for r in scene.audit.records if r.key.startswith("close"))
    shown = [it.text for it in close.items if it.kind == "text"]
    assert f"{jump} of {d.n_pairs} at unseen angles" in shown  # on RoPE's lane (review round 10)


def test_the_step_pair_is_never_the_fast_pair():
    """At a training length of 2, pair 0 has not wrapped and is unseen at every later stop: it was chosen as the
    second dial's pair too, and both dials showed pair 0."""
    masks = np.ones((4, 64), dtype=bool)
    masks[0] = False
    wrapped = np.zeros(64, dtype=bool)
    assert step_pair(masks, wrapped) == 1
    import dataclasses

    d = ExtrapolationCliff.build_data(dataclasses.replace(load_config(), train_length=2, rope_base=100.0))
    assert d.pairs[0] == 0 and d.pairs[1] != 0


def test_every_colour_word_is_the_colour_drawn(final, corners):
    """Review (issue 33): the lanes past L and the strip's unseen bars are drawn in the unseen ice blue at full
    strength, yet the descriptions of `schemes`, `step` and `far` called them slate grey (the colour the
    chart's faint unseen area takes on the background, where "slate grey" stays true).  The audit's colour-word
    check finds none in the shipped config nor any corner; the old words fail it."""
    scene, _ = final
    for name, r in {"final": scene.audit, **corners}.items():
        assert [str(p) for p in r.truth if p.kind == "colour word"] == [], name
    words = {r.key: r.describe for r in scene.audit.records}
    assert "pale blue" in words["schemes"] and "slate grey" not in words["schemes"]
    assert "slate grey" in words["chart"]
    assert {r.key: r.caption for r in scene.audit.records}["step"] == scene.caption("step")  # what it reads


def test_the_verdicts_and_axis_names_set_their_words_in_the_sans(final):
    """Review (issue 33): the close's verdicts and the axes' names were typeset word by word in the serif math font.
    The axes' names are worded lines (the words in the house sans, only the maths in Typst); the close's ✗ and RoPE's
    count (review round 10: labels on the lanes) are in the sans, the count in the weight the strip and the chart
    write it."""
    from manim import Text

    from scenes.kit.theme import SANS

    scene, _ = final
    T = scene.trio
    lines = (T.no_row.line, scene.chart.axis_label, scene.pairs.axis_label, scene.ruler.axis_label)
    for line in lines:
        assert line.words, line
        assert all(isinstance(w, Text) and w.font == SANS for w in line.words)
        assert not any('"' in m.typst_code.replace('_"max"', "") for m in line.maths), line.source
    for mark in (T.count, *scene.proof_big.words):
        assert isinstance(mark, Text) and mark.font == SANS and mark.weight == scene.pairs.count.weight
    assert [w.text for w in scene.chart.axis_label.words] == ["position"]
    assert T.no_row.check._role == "failed"


def test_the_bracket_is_labelled_with_the_count_it_frames(final):
    """Review R2 (08 wrapped): "17 of 64" was spoken over an unlabelled bracket.  The bracket writes its count
    on the bars it frames, and the count is the pairs with L·θᵢ ≥ 2π."""
    scene, _ = final
    d = scene.data
    n = int(wrapped_in_training(d.head_dim, d.train_length, d.base).sum())
    assert n == d.n_wrapped == 17
    tag = scene.bracket.tag
    words = "".join(t.text for t in tag.get_family() if getattr(t, "text", ""))
    assert words == f"{n}wrappedintraining"
    frame = scene.bracket.frame
    assert frame.get_left()[0] < tag.get_left()[0] and tag.get_right()[0] < frame.get_right()[0]
    assert frame.get_bottom()[1] < tag.get_bottom()[1] and tag.get_top()[1] < frame.get_top()[1]


def test_the_step_past_the_arc_is_shown_on_the_dial(final):
    """Review round 4 (06 step): "new angle" rested on words alone (pair 31's hand moved 0.66°).  The second dial
    shows pair 17, whose hand one step past training is θᵢ ≈ 4.96° past its arc's end, (L − 1)·θᵢ; the stretch
    between them is drawn as a pale-blue wedge from the arc's end to the hand, and its words print how far."""
    scene, _ = final
    d = scene.data
    P = scene.pairs
    i = d.pairs[1]
    theta = d.base ** (-2 * i / d.head_dim)
    hand = np.degrees(pair_angles(d.stops[1], d.head_dim, d.base)[i])
    end = np.degrees((d.train_length - 1) * theta)
    assert np.isclose(hand - end, np.degrees(theta)) and hand > end and d.stop_unseen[1, 1]
    assert P.degrees(1, 1)[0] == f"{hand:.1f}" == "317.5"
    assert P.past_arc(1, 1) == degree_text(hand - end) == "5.0"
    step = next(r for r in scene.audit.records if r.key == "step")
    assert "pair 17's hand, at ≈ 317.5°, has gone ≈ 5.0° past the end of its arc" in step.describe
    assert "the rim running on in pale blue from the arc's end to the hand" in step.describe
    # the rim past the arc was on screen at the end of the step beat, bound to the words that name it
    assert any(c.name == "wedge" and c.bound and c.visible for c in step.claims)
    texts = [it.text for it in step.items if it.kind == "text"]
    assert "≈ 5.0° past its arc" in texts
    # at the far end pair 17 has come round onto its arc: no wedge
    assert P.past_arc(1, 3) is None and not len(P.overs[1])


def test_the_dial_words_are_three_lines_with_every_figure_in_the_sans(final):
    """Review round 4 (05 rope): five stacked lines in two greys, sans "10 full turns" beside serif "9.6°"."""
    from manim import Text

    from scenes.kit.theme import SANS

    scene, _ = final
    for w in scene.pairs.words:
        assert len(w) <= 3
        parts = [f for f in w.get_family() if hasattr(f, "text") or hasattr(f, "typst_code")]
        assert parts and all(isinstance(f, Text) and f.font == SANS for f in parts)


def test_the_cliff_is_qualified_with_how_far_past_their_arcs_the_pairs_are(final):
    """Review round 4 (09/10): "47 of 64 at once. A cliff." overstated the geometry: one step past training each
    unseen pair is past its arc's end by its one step θᵢ, from 0.007° (pair 63) to 4.96° (pair 17).  Computed here
    from the angles; the chart prints the range beside L's line and the narration says it."""
    scene, _ = final
    d = scene.data
    L = d.train_length
    theta = d.base ** (-2 * np.arange(d.n_pairs) / d.head_dim)
    arc = np.where(L * theta >= 2 * np.pi, 2 * np.pi, (L - 1) * theta)
    angle = (L * theta) % (2 * np.pi)
    unseen = angle > arc
    assert int(unseen.sum()) == int(d.stop_counts[1]) == 47
    over = np.degrees(angle - arc)[unseen]
    assert np.allclose(past_arc_range(d), (over.min(), over.max()))
    assert np.argmin(np.where(unseen, np.degrees(angle - arc), np.inf)) == d.n_pairs - 1
    lo, hi = degree_text(over.min()), degree_text(over.max())
    assert (lo, hi) == ("0.007", "5.0")
    chart = next(r for r in scene.audit.records if r.key.startswith("chart"))
    assert f"about {lo}° to {hi}° past their arcs" in chart.caption
    # the one term (round 8): "unseen", never "new angles"; the ✓ said as "no last row"
    assert "RoPE too" in scene.caption("close") and "new angle" not in scene.caption("close")
    assert not any("new angle" in r.caption for r in scene.audit.records)
    assert "A cliff." not in chart.caption
    texts = [it.text for it in chart.items if it.kind == "text" and it.opacity >= 0.9]
    assert any(f"each only just past its arc: ≈ {lo}° to {hi}°" in t for t in texts), texts
    # where it was measured, on the line (review round 9: over a chart out to 4096 it read as true at every m)
    assert any(f"at m = {L}, each only just past its arc" in t for t in texts), texts
    # over the chart's title (review round 6: beside L's line it read as the positions before L; review round 7: four
    # lines of words over the chart), aligned with it; the close's lanes leave it to the chart beat (review round 10)
    past_box = [it.box for it in chart.items if it.mid in {id(f) for f in scene.past_big.get_family()}]
    title_box = [it.box for it in chart.items if it.mid in {id(f) for f in scene.chart_big.title.get_family()}]
    assert past_box and title_box and min(b[1] for b in past_box) > max(b[3] for b in title_box)
    assert abs(scene.past_big.get_left()[0] - scene.chart_big.title.get_left()[0]) < 1e-6
    close = next(r for r in scene.audit.records if r.key.startswith("close"))
    assert not any("°" in it.text for it in close.items if it.kind == "text")


def test_the_axis_names_every_decade_and_its_end(final):
    """Review R2 (axis): 10² and 10³ were dropped for L and nₘₐₓ, the end (4096) unlabelled, the 0 tick floating
    over its line.  Every decade and the end are labelled on one row, L and nₘₐₓ under it, 0 on its line."""
    scene, _ = final
    d = scene.data
    p = scene.plot
    # the decades as 10ᵏ, as clips 12 and 14 write a log axis (review round 7), the end in digits
    def code(t):
        return t.typst_code.strip("$ ") if hasattr(t, "typst_code") else t.text

    codes = [code(t) for t in p.x_tick_labels]
    assert codes[:4] == [numbers.power(k).math for k in range(4)] and codes[-1] == "4096" == count(d.x_max).text
    for k, t in enumerate(p.x_tick_labels):
        m = d.x_max if k == 4 else 10 ** k
        assert abs(t.get_x() - scene.x_of(m)) < 0.05, k
    r = scene.ruler.plot  # the lanes' ruler: L and nₘₐₓ in a row under its decades
    row_bottom = min(t.get_bottom()[1] for t in r.x_tick_labels)
    assert scene.L_tick.get_top()[1] < row_bottom and (scene.n_in_lanes or scene.n_tick.get_top()[1] < row_bottom)
    # both log axes carry the same ticks (review round 6: the lanes' dropped 1000 for nₘₐₓ's label under it)
    assert scene.n_in_lanes and [code(t) for t in r.x_tick_labels] == codes
    # RoPE's chart: L on its line, left of it, where the count is still zero
    assert scene.chart.L_tick.get_right()[0] <= scene.x_of(d.train_length)
    for t, v in zip(p.y_tick_labels, (0, d.n_pairs // 2, d.n_pairs)):
        assert abs(t.get_y() - p.to_point(1, v)[1]) < 1e-6, v  # each tick centred on its line


def test_the_close_claims_for_rope_only_what_its_strip_showed(final):
    """Review round 6 (10 close): "sinusoidal and RoPE at m = 64: 47 of 64" claimed a sinusoidal count no picture
    showed (the strip is RoPE's, head dim d = 128).  Review round 10: sinusoidal is back in the close, with its own
    answer (its lane: defined at every m, its vector never seen past L), and the count stays RoPE's alone."""
    scene, _ = final
    T = scene.trio
    assert "Sinusoidal goes on, never seen" in scene.caption("close")
    assert f"of {scene.data.n_pairs}" not in scene.caption("close").split("RoPE")[0]
    # the count sits on RoPE's title row, nowhere near sinusoidal's lane
    assert T.count.get_bottom()[1] > T.rope.get_top()[1] and T.count.get_top()[1] < T.unseen.get_bottom()[1]


def test_sinusoidal_is_measured_to_meet_the_same_unseen_angles_as_rope(final):
    """Review RC (13 close): sinusoidal got a cross with no measurement, though with the same d and b its pair i
    at position m is (sin m θᵢ, cos m θᵢ), the very angle RoPE turns pair i by.  Read back from the encoding
    itself: a pair that never wrapped in training (its angle never fell back over positions 0 to L − 1) and
    that, at m = L, sits past the angle of position L − 1, is at an angle training never met.  The count is the
    verdict's figure, and RoPE's."""
    from mathcore.positions import my_sinusoidal_position

    scene, _ = final
    d = scene.data
    L = d.train_length
    pe = my_sinusoidal_position(L + 1, d.head_dim, d.base)
    ang = np.arctan2(pe[:, 0::2], pe[:, 1::2]) % (2 * np.pi)  # (L + 1, pairs)
    wrapped = (np.diff(ang[:L], axis=0) < 0).any(axis=0)
    unseen = int((~wrapped & (ang[L] > ang[L - 1])).sum())
    assert unseen == int(d.stop_counts[1])
    assert scene.trio.count.text.startswith(f"{unseen}of{d.n_pairs}")


def test_the_rope_chart_keeps_no_limit_line(final):
    """Review RC (13 chart): the table's red dashed nₘₐₓ line stayed on RoPE's chart, as if RoPE had a limit
    there.  The chart draws L's line alone."""
    scene, _ = final
    chart = next(r for r in scene.audit.records if r.key.startswith("chart"))
    ids = {it.mid for it in chart.items if it.opacity >= 0.5}
    assert any(id(f) in ids for f in scene.chart.guides[0].get_family())  # L: training ends there for every scheme
    assert len(scene.chart.guides) == 1  # RoPE's chart never draws nₘₐₓ (review round 3: it meant nothing there)
    assert not {id(f) for f in scene.chart.n_tick.get_family()} & ids
    assert not {id(f) for f in scene.n_tick.get_family()} & ids


def test_the_far_stop_says_why_some_slow_pairs_are_seen_again(final):
    """Review round 3 (08 far): a few pairs that never wrapped in training are violet again at m = 4096, and
    nothing said why.  Measured on the angles: a pair with (L − 1)·θᵢ < 2π whose angle at the walk's end, mod 2π,
    falls back on its training arc [0, (L − 1)·θᵢ] has turned past a full circle since.  The narration and the
    description say how many."""
    scene, _ = final
    d = scene.data
    L, m = d.train_length, d.stops[3]
    theta = d.base ** (-2 * np.arange(d.n_pairs) / d.head_dim)
    arc = (L - 1) * theta
    unwrapped = arc < 2 * np.pi
    angle = (m * theta) % (2 * np.pi)
    back = unwrapped & (angle <= arc)
    assert np.all(m * theta[back] >= 2 * np.pi)  # each went round at least once
    assert int(back.sum()) == scene.came_back() == 4
    far = next(r for r in scene.audit.records if r.key.startswith("far"))
    # not the slow ones (review round 4: pair 17 is the fastest that did not wrap): the framed ones
    assert f"the {int(back.sum())} framed have come round to seen angles" in far.caption
    assert f"{int(back.sum())} bars past the wrapped ones, each framed in yellow, are violet again" in far.describe
    # each framed on its own at the far stop, one frame a pair, and no other yellow frame on the strip then
    assert list(scene.back_pairs()) == list(np.flatnonzero(back)) == [17, 19, 29, 45]
    frames = scene.back_marks
    assert len(frames) == int(back.sum())
    for f, i in zip(frames, np.flatnonzero(back)):
        assert np.allclose(f.get_center(), scene.pairs.strip[i].get_center())
    ids = {it.mid for it in far.items if it.opacity >= 0.5}
    assert all(id(f) in ids or any(id(g) in ids for g in f.get_family()) for f in frames)
    assert not any(id(g) in ids for m in scene.pairs.marks for g in m.get_family())
    assert not any(id(g) in ids for g in scene.bracket.get_family())


def test_the_dials_name_full_turns_and_the_angle_apart(final):
    """Review round 3 (05 rope): "10 turns seen" read as "10 turns were seen".  The turns and whether the angle
    was seen are now on lines of their own: "10 full turns" at m = L − 1 for the fast pair, then "angle seen"."""
    scene, _ = final
    d = scene.data
    rope = next(r for r in scene.audit.records if r.key == "rope")
    texts = [it.text for it in rope.items if it.kind == "text"]
    n = int(pair_turns(d.train_length - 1, d.head_dim, d.base)[0])
    assert f"pair 0 · {n} turns" in texts and "≈ 9.6°" in texts and "seen" in texts


def test_the_walker_says_where_it_stands(final):
    """Review round 3 (03 wall): the yellow marker at m = 1024 was a bare dashed line.  It is labelled with the
    position it stands at, the table's first missing row (mathcore's report), beside the framed wall."""
    scene, _ = final
    d = scene.data
    assert first_missing(d) == d.n_max and scene.walker_label.typst_code.strip("$ ") == f"m = {count(d.n_max).math}"
    wall = next(r for r in scene.audit.records if r.key.startswith("wall"))
    assert any(it.mid == id(scene.walker_label) or it.text == f"m = {count(d.n_max).math}" for it in wall.items)
    assert abs(scene.walker_label.get_center()[0] - scene.x_of(d.n_max)) < 2.5


def test_the_step_past_the_arc_is_written_once_with_no_zoom(final):
    """Review round 7 (06 step): the zoom on the arc's end was cryptic (a slate parallelogram) and "≈ 5.0°" was
    printed twice.  No zoom: the rim runs on from the arc's end to the hand in pale blue, θᵢ ≈ 5.0° long (the step
    measured on the angles), and the figure is printed once, in the dial's words."""
    scene, _ = final
    d = scene.data
    P = scene.pairs
    i = d.pairs[1]
    theta = d.base ** (-2 * i / d.head_dim)
    assert not hasattr(P, "loupe")
    step = next(r for r in scene.audit.records if r.key == "step")
    texts = [it.text for it in step.items if it.kind == "text" and it.opacity >= 0.5]
    assert sum("5.0°" in t for t in texts) == 1, texts
    # the rim as drawn at the step: from the arc's end, θᵢ long, in the unseen colour
    mark = P._past_mark(1, 1)[0]
    assert mark.get_stroke_color().to_hex() == UNSEEN.to_hex()
    assert np.isclose(mark.start_angle, d.arcs[1]) and np.isclose(mark.angle, theta)
    assert "zoom" not in step.describe


def test_the_walker_shows_on_the_pale_lane_and_the_frames_never_double(final):
    """Review round 6: (03) the yellow line through the pale-blue sinusoidal lane was ~1.3:1, invisible: it runs in
    a dark casing; (07) bar 17's own frame abutted the bracket's: the shown pairs' frames give way to it."""
    scene, _ = final
    cased = scene.walker[1]
    casing, line = cased
    assert casing.get_stroke_color().to_hex() == BG.to_hex() and casing.get_stroke_width() > line.get_stroke_width()
    assert abs(line.get_x() - scene.x_of(scene.data.n_max)) < 1e-6
    wrapped = next(r for r in scene.audit.records if r.key.startswith("wrapped"))
    ids = {it.mid for it in wrapped.items if it.opacity >= 0.5}
    assert not any(id(g) in ids for m in scene.pairs.marks for g in m.get_family())
    assert any(id(g) in ids for g in scene.bracket.get_family())


def test_the_chart_beat_draws_the_chart_large(final):
    """Review round 7: four lines of words over the chart pushed it into the lower half.  From its title to its axis
    name it spans at least 70 % of the content's height, the plot itself at least 50 %; the count one step past
    training sits on the curve."""
    scene, _ = final
    d = scene.data
    content = scene.layout.content
    G = scene.chart_big
    chart = next(r for r in scene.audit.records if r.key.startswith("chart"))

    def box(m):  # where a part of the chart stood at the end of its beat (the close took it away)
        ids = {id(f) for f in m.get_family()}
        bs = [it.box for it in chart.items if it.mid in ids]
        return min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)

    assert box(G.title)[3] - box(G.axis_label)[1] >= 0.7 * content.height
    assert box(G.plot.axes[1])[3] - box(G.plot.axes[1])[1] >= 0.5 * content.height
    jump = int(d.stop_counts[1])
    dot, word = scene.proof_big.dots[0], scene.proof_big.words[0]
    assert np.allclose(dot.get_center(), G.plot.to_point(d.stops[1], jump)) and d.unseen[d.stops[1] - 1] == jump
    assert word.text == f"{jump}of{d.n_pairs}"
    assert dot.get_right()[0] <= G.plot.axes[0].get_right()[0] + 1e-6
