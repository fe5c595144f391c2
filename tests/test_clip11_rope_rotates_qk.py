"""Clip 11 RoPERotatesQK: data binding (tokens chosen from the data for any T), hands where RoPE
puts them, the angle arc between q and k, heatmap pixels and their colour bar at the beats that show
them, printed measures and positions (numbers typeset with their math), the lecture language (labels
bound to data, no dead beat), the close (the three measured lines, large), the still on the clip's
scale, captions true under every corner config, and the layout audit over the matrix."""

from __future__ import annotations

import numpy as np
import pytest

from frames import (
    pixel,
    rgb255,
)
from mathcore import apply_rope, lecture_inputs, load_config
from mathcore.rope_measures import rope_self_attention_trace, shift_output_defect
from scenes.figures.rope import SCORE_DIGITS
from manim import DOWN, VGroup

from scenes.kit import HIGHLIGHT, KEY, QUERY, fmt_measure, numbers
from scenes.kit.numbers import notebook_output
from scenes.clips.c11_rope_rotates_qk import RoPERotatesQK, pick_query_key, rounded

W, H = 427, 240


SCENE = RoPERotatesQK


def _record(scene, key):
    return next(r for r in scene.audit.records if r.key == key)


def _caption(scene, key) -> str:
    return next(c.text for c in scene.captions if c.key == key)


def _texts(rec):
    return [it.text for it in rec.items if it.kind == "text" and not it.header and it.opacity >= 0.3]


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = RoPERotatesQK.build_data(cfg)
    inp = lecture_inputs(cfg.T, cfg.d, cfg.seed)
    a, b = pick_query_key(inp.X @ inp.Wq, inp.X @ inp.Wk, avoid=(d.s,))
    assert (d.q_token, d.k_token) == (a, b) and (d.m, d.n) == (a, b)  # each token at its own position
    np.testing.assert_allclose(d.q, (inp.X @ inp.Wq)[a], atol=1e-12)
    np.testing.assert_allclose(d.k, (inp.X @ inp.Wk)[b], atol=1e-12)
    qm = apply_rope(d.q[None], [d.m], cfg.rope_base)[0]
    kn = apply_rope(d.k[None], [d.n], cfg.rope_base)[0]
    assert d.score == pytest.approx(qm @ kn, abs=1e-12)
    np.testing.assert_allclose(d.q_pairs[1].ravel(), qm, atol=1e-12)
    np.testing.assert_allclose(d.q_pairs[0].ravel(), d.q, atol=0)  # stage 0: not rotated
    assert d.score_gap == abs(d.score_shifted - d.score) < 1e-12
    assert 0 < d.score_gap_max < 1e-12
    pos = np.arange(cfg.T, dtype=float)
    np.testing.assert_array_equal(d.Y_rot_shifted, rope_self_attention_trace(
        inp.X, inp.Wq, inp.Wk, inp.Wv, pos + d.s, cfg.rope_base, rotate_v=True).output)
    assert d.defect_plain == shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, d.s, cfg.rope_base)
    assert d.defect_rot == shift_output_defect(inp.X, inp.Wq, inp.Wk, inp.Wv, d.s, cfg.rope_base, rotate_v=True)
    assert d.defect_plain < 1e-12 < 0.1 < d.defect_rot
    # the output boxed as the one that moved most moved by exactly the measured amount
    assert abs(d.Y_rot_shifted[d.worst_rot] - d.Y_rot[d.worst_rot]) == d.defect_rot


@pytest.mark.parametrize("T", [3, 4, 5, 6])
@pytest.mark.parametrize("d", [2, 4, 6])
def test_any_allowed_T_and_d_builds_with_tokens_from_the_data(tmp_path, T, d):
    src = load_config().path.read_text()
    p = tmp_path / "lecture.toml"
    p.write_text(src.replace("T = 6 ", f"T = {T} ").replace("d = 4 ", f"d = {d} ")
                 .replace("perm = [2, 0, 4, 1, 5, 3]", f"perm = {list(range(T))[::-1]}"))
    cfg = load_config(p)
    assert (cfg.T, cfg.d) == (T, d)
    data = RoPERotatesQK.build_data(cfg)
    assert T > data.q_token > data.k_token >= 1  # a real query row and key row, both past position 0
    inp = lecture_inputs(T, d, cfg.seed)
    np.testing.assert_allclose(data.q, (inp.X @ inp.Wq)[data.q_token], atol=1e-12)
    assert data.Y_plain.shape == (T, d)
    assert abs(data.Y_rot_shifted[data.worst_rot] - data.Y_rot[data.worst_rot]) == data.defect_rot


def test_pick_query_key_maximises_the_shortest_hands_share():
    rng = np.random.default_rng(3)
    Q, K = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    a, b = pick_query_key(Q, K)

    def share(a, b):
        qn, kn = np.linalg.norm(Q[a].reshape(-1, 2), axis=1), np.linalg.norm(K[b].reshape(-1, 2), axis=1)
        return np.min(np.minimum(qn, kn) / np.maximum(qn, kn))

    assert share(a, b) == max(share(x, y) for x in range(2, 5) for y in range(1, x))
    # an offset to avoid is skipped: the best of the rest
    a2, b2 = pick_query_key(Q, K, avoid=(a - b,))
    assert a2 - b2 != a - b
    assert share(a2, b2) == max(share(x, y) for x in range(2, 5) for y in range(1, x) if x - y != a - b)
    assert pick_query_key(Q[:3], K[:3], avoid=(1,)) == (2, 1)  # nothing else to pick: the one pair there is
    with pytest.raises(ValueError):
        pick_query_key(Q[:2], K[:2])


def test_the_offset_m_minus_n_is_never_the_shift(final, corners):
    """Review round 6 (RP, same): s = 2 and m − n = 2 had the same value, so "only m − n = 2 counts" right after
    "slide s = 2" read as the shift.  The tokens are now picked with an offset m − n other than s (the shift is
    pair 0's 60°–120° turn, ``scales.rope_shift``, unchanged: clip 15 quotes it), under the shipped config and
    every corner, and the notes print both.  On main the shipped config had m − n = s = 2."""
    from scenes.kit.scales import rope_shift

    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        d = scene.data
        assert d.s == rope_shift(d.q.size, scene.cfg.rope_base), name
        if d.Y_plain.shape[0] > 3:  # (T = 3 holds one pair of tokens past position 0: offset 1, never s = 2)
            assert d.m - d.n != d.s, (name, d.m, d.n, d.s)
        assert d.m - d.n != d.s or d.s == 1, name
        code = scene.diff_line.typst_code.strip("$ ")
        assert code.endswith(f"= {d.m - d.n}") and scene.shift_line.typst_code.strip("$ ").endswith(f"= {d.s}")


def test_the_hands_point_where_rope_puts_q_and_k_after_the_shift(final):
    scene, _ = final
    d = scene.data
    for i, dial in enumerate(scene.dials):
        want = np.arctan2([d.q_pairs[2, i, 1], d.k_pairs[2, i, 1]], [d.q_pairs[2, i, 0], d.k_pairs[2, i, 0]])
        got = dial.tip_angles()
        assert np.abs(np.angle(np.exp(1j * (got - want)))).max() < 1e-6, (i, got, want)
        # the angle between q and k is the one at (m, n): the shift did not change it
        before = np.arctan2(d.q_pairs[1, i, 1], d.q_pairs[1, i, 0]) - np.arctan2(d.k_pairs[1, i, 1], d.k_pairs[1, i, 0])
        assert abs(np.angle(np.exp(1j * (got[0] - got[1] - before)))) < 1e-6
        # and the arc drawn between them spans that angle, from k's hand to q's
        arc = scene.arcs[i]
        assert abs(np.angle(np.exp(1j * (arc.between - before)))) < 1e-9
        start = arc.get_start() - dial.center
        end = arc.get_end() - dial.center
        assert abs(np.angle(np.exp(1j * (np.arctan2(start[1], start[0]) - got[1])))) < 1e-3
        assert abs(np.angle(np.exp(1j * (np.arctan2(end[1], end[0]) - got[0])))) < 1e-3
    # q in the query's colour, k in the key's, on every dial
    for dial in scene.dials:
        assert [h.get_color().to_hex() for h in dial.hands] == [QUERY.to_hex(), KEY.to_hex()]


def test_the_outputs_are_coloured_by_their_values_at_the_beats_that_show_them(final):
    scene, _ = final
    d = scene.data
    for key, hm, dY in (("v_plain_measure", scene.plain.map, d.dY_plain),
                        ("v_rot_measure", scene.map_at_measure, d.dY_rot)):
        frame = scene.beat_frames[key]
        np.testing.assert_array_equal(hm.values, dY)
        for i in range(dY.shape[0]):
            for j in range(dY.shape[1]):
                got = pixel(scene, frame, hm.cell_center(i, j))
                assert np.abs(got - rgb255(scene.d_scale.rgb(dY[i, j]))).max() <= 4, (key, i, j)
    # ΔY is the difference of the two outputs, and its largest entry is the measured defect
    np.testing.assert_array_equal(d.dY_plain, d.Y_plain_shifted - d.Y_plain)
    np.testing.assert_array_equal(d.dY_rot, d.Y_rot_shifted - d.Y_rot)
    assert np.max(np.abs(d.dY_plain)) == d.defect_plain and np.max(np.abs(d.dY_rot)) == d.defect_rot
    assert np.unravel_index(np.argmax(np.abs(d.dY_rot)), d.dY_rot.shape) == d.worst_rot
    # the box of the last beat frames the cell that moved most
    rec = _record(scene, "v_rot_measure")
    boxes = [it for it in rec.items if it.kind == "graphic" and it.stroke_rgb is not None
             and np.allclose(it.stroke_rgb, HIGHLIGHT.to_rgb(), atol=1e-3)]
    centres = [np.array([(b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2]) for b in boxes]
    assert any(np.allclose(c, scene.map_at_measure.cell_center(*d.worst_rot)[:2], atol=1e-3) for c in centres)


def test_one_colour_scale_and_one_colour_bar_for_the_outputs_and_what_the_shift_does_to_them(final):
    """Issue 33 (review of clip 11): Y and ΔY had two scales ("outputs", "output shifts") and two colour bars side
    by side, for what reads as one quantity.  ΔY, a difference of outputs, is painted on the deck's one outputs
    scale (which holds it: ``kit.scales``) and every beat that shows ΔY has one colour bar.  On the old main this
    failed: ``d_scale.quantity`` was "output shifts" and each beat showed 2 bars."""
    from scenes.kit.scales import scale, signature

    scene, _ = final
    d = scene.data
    assert scene.y_scale.quantity == "outputs" and scene.y_scale.same_as(scale("outputs", scene.cfg))
    assert scene.d_scale is scene.y_scale
    every = np.concatenate([d.Y_plain, d.Y_plain_shifted, d.Y_rot, d.Y_rot_shifted, d.dY_plain, d.dY_rot]).ravel()
    assert scene.y_scale.vmin <= every.min() and every.max() <= scene.y_scale.vmax
    for view in (scene.plain, scene.rot):
        assert view.map.color_scale is scene.y_scale and view.bar.color_scale is scene.y_scale
        for stripe, v in zip(view.bar.stripes, view.bar.values):
            assert np.abs(rgb255(stripe.get_fill_color()) - rgb255(scene.y_scale.rgb(v))).max() <= 1
    for key in ("v_plain", "v_plain_measure", "v_rot", "v_rot_measure", "close"):
        rec = _record(scene, key)
        bars = [r for r in rec.scales if r.what == "ColorBar"]
        assert len(bars) == 1, (key, bars)
        assert len({r.signature for r in rec.scales}) == 1, key  # one scale on screen
        assert {r.quantity for r in rec.scales} == {"outputs"}, key
        assert bars[0].signature == signature(scene.y_scale)


def test_the_output_maps_are_labelled_what_they_are_and_their_axes(final):
    """Issue 33 (review of clip 11): the ΔY maps had no labels.  Every map of ΔY names what it is (ΔY, with how V
    is made as its title, after − before at which positions) and its axes: the tokens numbered down its left (0 to
    T−1, level with the rows, "token" beside them), the features under its columns ("feature" left of them); the
    close's ΔY map carries its title and axes.  On the old main the maps had no axes."""
    scene, _ = final
    d = scene.data
    T, dd = d.Y_plain.shape
    for ax, hm in ((scene.plain.axes, scene.plain.map), (scene.axes_at_measure, scene.map_at_measure)):  # (the close moved one)
        assert [t.text for t in ax.col_ticks] == [str(j) for j in range(dd)]
        for j, t in enumerate(ax.col_ticks):
            assert abs(t.get_x() - hm.cell(T - 1, j).get_x()) < 1e-6 and t.get_top()[1] < hm.get_bottom()[1]
        assert [t.text for t in ax.row_ticks] == [str(i) for i in range(T)]
        for i, t in enumerate(ax.row_ticks):
            assert abs(t.get_y() - hm.cell(i, 0).get_y()) < 1e-6 and t.get_right()[0] < hm.get_left()[0]
        assert ax.row_word.text == "token" and ax.col_word.text == "feature"
    for key, q in (("v_plain", "dY_plain"), ("v_rot", "dY_rot")):
        rec = _record(scene, key)
        texts = set(_texts(rec))
        assert {"token", "feature", f"after − before: positions 0 to {T - 1}, then {d.s} to {d.s + T - 1}"} <= texts, \
            (key, texts)
        assert q in {q for q, _ in rec.named}, key
    close = _record(scene, "close")
    words = [t for t in _texts(close)]
    assert words.count("token") == 1 and words.count("feature") == 1
    assert "dY_rot" in {q for q, _ in close.named}


def test_the_figures_on_screen_are_the_measured_ones_typeset_with_their_math(final):
    scene, frame = final
    d = scene.data
    assert scene.score_row.figure == rounded(numbers.measure(d.score, SCORE_DIGITS))
    assert scene.score_shift_row.figure.text == scene.score_row.figure.text  # the same digits
    # the word in the sans, the positions and the figure in math, on one line: ≈ for a rounded score
    assert [m.typst_code.strip("$ ") for m in scene.score_row.maths][0] == f"({d.m}, {d.n}) approx"
    assert scene.gap_max_row.figure == numbers.measure(d.score_gap_max)
    code = " ".join(m.typst_code for m in scene.gap_max_row.line.maths)
    assert str(d.s_max) in code and "(s = 1, dots.h, " in code  # s is defined: every shift from 1 to s_max
    assert [p.measure.figure for p in (scene.plain, scene.rot)] == [rounded(numbers.measure(d.defect_plain)),
                                                                    rounded(numbers.measure(d.defect_rot))]
    # every measured result is a verdict: a check mark where the check passed, a cross for the rotated V
    for v, ok in ((scene.gap_max_row, True), (scene.plain.measure, True),
                  (scene.rot.measure, False)):
        assert v._verdict and v.passed == ok and v.check._role == ("verified" if ok else "failed")
    # the readouts name the positions the hands were last turned to, by token, as math
    assert [m.typst_code.strip("$ ") for m in scene.moved] == [f"m + s = {d.m + d.s}", f"n + s = {d.n + d.s}"]
    assert [m.typst_code.strip("$ ") for m in scene.where] == [f"m = {d.m}", f"n = {d.n}"]
    assert [w.text.replace(" ", "") for w in scene.at_words] == ["atposition", "atposition"]
    assert scene.who[0][1].text.replace(" ", "") == f"oftoken{d.q_token},"  # after q, in the query's colour
    assert scene.who[1][1].text.replace(" ", "") == f"oftoken{d.k_token},"


def test_one_offset_m_minus_n_and_q_m_as_clip_09_writes_it(final):
    """Issue 33 (review of clip 11): the clip said m − n on screen and in one sentence, n − m in another (the
    why line's R₍ₙ₋ₘ₎ and "position enters only the weights, as n − m").  The lecture's convention: the score
    depends on the offset m − n between query position m and key position n; it is the only one the clip says
    or shows, on screen, in the narration and in the descriptions.  qₘ keeps clip 09's meaning (the query at
    position m: qₘ · kₙ = (Rₘ q)ᵀ(Rₙ k), q the token's own query); the clip never rotates a qₘ.  On the old main
    the v_why caption said "as n − m" and its line drew R_(n - m)."""
    from scenes.clips.c09_three_positional_schemes import ThreePositionalSchemes

    scene, _ = final
    d = scene.data
    rope_09 = ThreePositionalSchemes.DERIVATION[0]  # 09 writes the identity with q = W_q x its token's own
    assert "".join(rope_09.split()) == "q_mdotk_n=(R_mq)^top(R_nk)", rope_09  # 09 writes the transpose ⊤
    texts = [it.text for rec in scene.audit.records for it in rec.items if it.kind == "text"]
    words = texts + [c.text for c in scene.captions] + [rec.describe for rec in scene.audit.records]
    flat = ["".join(t.replace("−", "-").split()) for t in words]
    assert not [t for t in flat if "n-m" in t], [t for t in words if "n - m" in t or "n − m" in t]
    assert not [t for t in flat if "R_mq_m" in t or "(R_mq_m)" in t]
    # m − n is drawn at the beat that says it, with its value
    same = _record(scene, "same")
    assert f"m - n = {d.m - d.n}" in [t.strip("$ ") for t in _texts(same)]
    assert f"m − n = {d.m - d.n}" in _caption(scene, "same")


def test_why_v_is_left_alone_is_a_picture_of_the_output_turning(final):
    """Issue 33 (review of clip 11): the v_why beat was a text slide (two lines of mathematics).  Now it draws
    what rotating V would do: features 0 and 1 of the output at the query's position m, before the shift
    (grey) and after it (white), on two dials.  With V = X W_v the arrows coincide (the output does not move);
    with V rotated the output turns by s θ₀, the arc between the arrows marks it, and its measured value is
    printed beside the one formula, y_m → R_s y_m (true of every pair: mathcore's outputs are R_s y_m to
    rounding).  On the old main ``scene.why`` was two Typst lines and no dial."""
    from mathcore import apply_rope

    scene, _ = final
    d = scene.data
    cfg = scene.cfg
    assert np.allclose(d.turn_plain[0], d.Y_plain[d.m, :2]) and np.allclose(d.turn_plain[1], d.Y_plain_shifted[d.m, :2])
    assert np.allclose(d.turn_rot[0], d.Y_rot[d.m, :2]) and np.allclose(d.turn_rot[1], d.Y_rot_shifted[d.m, :2])
    # a rotated V turns every output by R_s, pair i by s θᵢ: y_m after the shift is R_s y_m, measured
    np.testing.assert_allclose(d.Y_rot_shifted, apply_rope(d.Y_rot, [d.s] * d.Y_rot.shape[0], cfg.rope_base),
                               atol=1e-12)
    assert abs(np.angle(np.exp(1j * (d.turn_angle - d.s * d.theta[0])))) < 1e-9
    plain, rot = (c.dial for c in scene.why.cells)
    assert plain.coincide and not len(plain.arc) and [t.text for t in plain.tags] == ["before=after"]  # (Text drops spaces)
    assert not rot.coincide and abs(rot.between - d.turn_angle) < 1e-9
    for dial, pts in ((plain, d.turn_plain), (rot, d.turn_rot)):
        want = np.arctan2(pts[:, 1], pts[:, 0])
        assert np.abs(np.angle(np.exp(1j * (dial.tip_angles() - want)))).max() < 1e-6
    rec = _record(scene, "v_why")
    ids = {it.mid for it in rec.items if it.opacity > 0.9}
    assert all(id(h) in ids for dl in (plain, rot) for h in dl.hands)  # a picture: the arrows are drawn
    assert rot.arc in scene.mobjects or any(id(f) in ids for f in rot.arc.get_family())
    texts = [t.strip("$ ") for t in _texts(rec)]
    formulas = [t for t in texts if "->" in t or "=" in t and "R_" in t]
    assert formulas == ["y'_(m + s) = R_s y_m"], texts  # at most one formula: the output at m + s after the shift
    turn = numbers.measure(abs(d.turn_angle))
    assert any(t.endswith(f'{turn.math} "rad"') and "theta_0" in t for t in texts), texts  # an angle: in rad
    caption = _caption(scene, "v_why")
    assert f"m = {d.m}" in caption and f"s θ₀ = {turn.text}" in caption
    assert f"m = {d.m}" in texts


def test_the_hands_fill_the_frame_down_to_its_lower_third(final, corners):
    """Issue 33 (review of clip 11): from ``qk`` to ``gap`` the lower third of the frame was empty (small dials
    over two lines of notes).  Now the dials are as large as the content area allows, the notes beside them
    (or under them when that leaves the dials larger), the verdicts on the scores along the bottom: at every
    beat of part one, something drawn at full strength reaches into the last fifth of the content area over
    the verdicts' strip, under the shipped config and every corner with the notes beside the dials (with
    three dials and more the notes go under them).  On the old main the qk, rotate and score
    beats failed this (the lowest ink at y = −1.71 for a threshold of −1.90 under the shipped config)."""
    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        content = scene.layout.content
        third = content.point(DOWN)[1] + content.height / 5  # (the verdicts' strip keeps the last fifth)
        P = scene.data.q.size // 2
        assert getattr(scene, "notes_under", False) == (P >= 3), name  # three dials and more fill the width: the notes go under them
        for key in ("qk", "rotate", "score", "shift", "same", "gap"):
            rec = next(r for r in res.records if r.key == key)
            low = min(it.box[1] for it in rec.items if it.opacity > 0.9 and not it.header)
            if getattr(scene, "notes_under", False):  # the notes fill the bottom of the frame as they appear: who is who first
                assert low <= scene.who.get_bottom()[1] + 1e-6, (name, key)
            else:
                assert low <= third, (name, key, low, third)
        radius = scene.dials[0].radius
        if getattr(scene, "notes_under", False):  # three dials and more: the subject fills the width
            assert scene.dials.width >= 0.5 * content.width, (name, scene.dials.width / content.width)
        else:  # two dials and fewer: the subject fills the height
            assert 2 * radius >= 0.4 * content.height, (name, radius)


def test_lecture_language_labels_bound_and_no_dead_beat(final):
    scene, _ = final
    res = scene.audit
    assert not res.lecture, res.lecture
    for key, qs in (("v_plain", {"dY_plain"}), ("v_rot", {"dY_rot"})):
        rec = _record(scene, key)
        assert qs <= {q for q, _ in rec.named} and qs <= {q for q, _ in rec.shown}, key
    for rec in res.records:  # no code ranges (0..5, 1..1000) at any beat
        assert not [t for t in _texts(rec) if ".." in t], rec.key


def test_the_close_is_one_large_map_beside_its_takeaway(final, corners):
    """Issue 33: clip 11 closed on three lines of text, then on a 120 px dial over two 125 px maps, then (review
    round 10, A−) on two small maps side by side under the words: a dashboard of small panels.  Now the close's
    picture is one subject, the largest thing on screen: ΔY with V rotated, as tall as the frame allows beside
    the written takeaway (at least 40 % of the content's height, and larger than the rest of the frame together),
    its ✗ "(s = 2)" under it, the cell that moved most boxed; the scores' ✓ under that, its mark under the ✗.
    V left alone had its own map and its verdict at v_plain_measure.  On main: two maps, each under 40 % of the
    height."""
    from manim import config

    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        d = scene.data
        close = res.records[-1]
        assert close.key == "close"
        shown = {q: v for q, v in close.shown}
        assert set(shown) == {"dY_rot"}, (name, set(shown))  # one map
        np.testing.assert_array_equal(shown["dY_rot"], d.dY_rot)
        [rot_map] = scene.close_maps
        content = scene.layout.content
        # as tall as the frame allows beside the words, or (a wide map of few rows) as wide as it allows under them
        # (with three verdicts under it since V left alone's came back, review round 10: 35 % of the height, 30 % of the width)
        assert rot_map.height >= 0.35 * content.height or rot_map.width >= 0.3 * content.width, \
            (name, rot_map.height / content.height, rot_map.width / content.width)
        # the map's group (title, cells, axes, bar) covers more than each other thing at full strength (the words,
        # each verdict), by the area its pieces cover
        view = VGroup(*[m for m in scene.rot if m is not scene.rot.measure and m is not scene.rot.sub])

        def area(mob):
            ids = {id(f) for f in mob.get_family()}
            return sum((it.box[2] - it.box[0]) * (it.box[3] - it.box[1]) for it in close.items
                       if it.opacity > 0.9 and not it.header and it.mid in ids)

        others = {"words": area(scene.close_words), "score": area(scene.close_score),
                  "verdict": area(scene.close_measures[0])}
        assert all(area(view) > a for a in others.values()), (name, area(view), others)
        verdicts = [scene.close_score, *scene.close_measures]
        assert [v.passed for v in verdicts] == [True, False], name
        # the takeaway beside the map, level with its cells (or over its title); the verdicts under the map, marks
        # in one column
        words = scene.close_words
        if scene.close_beside:
            assert words.get_left()[0] > scene.rot.bar.get_right()[0], name
            assert rot_map.get_bottom()[1] < words.get_y() < rot_map.get_top()[1], name
        else:
            assert words.get_bottom()[1] > scene.rot.title.get_top()[1], name
        rot_verdict = scene.close_measures[0]
        assert rot_verdict.get_top()[1] < rot_map.get_bottom()[1], name
        assert scene.close_score.get_top()[1] < rot_verdict.get_bottom()[1], name
        assert abs(scene.close_score.check.get_left()[0] - rot_verdict.check.get_left()[0]) < 0.05, name
        # V left alone's ✓ (the title's "not V") between the rotated V's ✗ and the scores' ✓, its mark in their column
        plain = scene.close_plain
        assert plain.passed and plain.figure.text == rounded(numbers.measure(d.defect_plain)).text, name
        assert scene.close_score.get_top()[1] < plain.get_bottom()[1] < plain.get_top()[1] < rot_verdict.get_bottom()[1]
        assert abs(plain.check.get_left()[0] - rot_verdict.check.get_left()[0]) < 0.05, name
        assert area(plain) > 0 and area(view) > area(plain), name
    scene, frame = final
    d = scene.data
    close = scene.audit.records[-1]
    texts = {it.text for it in close.items if it.kind == "text" and not it.header and it.opacity > 0.9}
    assert {v.value.typst_code.strip("$ ") for v in (scene.close_score, *scene.close_measures)} <= texts
    # the takeaway the narration says is written, beside the map
    words = scene.close_words
    assert words.source == RoPERotatesQK.TAKEAWAY_TEXT
    said = _caption(scene, "close").split(":")[0]
    assert said == "Position belongs in the angle between q and k alone"
    assert said.replace(" q ", " $q$ ").replace(" k ", " $k$ ") + "." == words.source
    assert words.words and {w.original_text for w in words.words} <= texts  # (Text.text has lost its spaces)
    assert scene.close_score.height < 1.6 * words.lines[0].height  # one line
    assert not hasattr(scene, "close_dial")
    px = 1280 / config.frame_width
    [rot_map] = scene.close_maps
    assert rot_map.height * px >= 200, rot_map.height * px  # three verdicts under it (V left alone's ✓ is back)
    # the map with V rotated is coloured where it moved most
    white = rgb255(scene.d_scale.rgb(0.0))
    worst = pixel(scene, frame, rot_map.cell_center(*d.worst_rot))
    assert np.abs(worst - white).max() > 60
    assert scene.final is scene.takeaway()


def test_every_delta_y_verdict_states_its_shift_as_the_scores_verdict_does(final, corners):
    """Review round 10 (A−): "(s = 2)" was written on the close's ✗ only, while the ✓ on ΔY with V left alone (at
    v_plain_measure) and the ✗ at v_rot_measure measured the same shift.  Now every ΔY verdict, wherever it
    stands, reads "max |ΔY| (s = 2) ≈ …" in one notation, as the scores' reads "(s = 1, …, 1000)", and so do the
    descriptions that quote them.  On main v_plain_measure and v_rot_measure wrote "max |ΔY| ≈ …" alone."""
    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        d = scene.data
        lines = {"v_plain_measure": scene.plain.measure, "v_rot_measure": scene.rot_at_measure.measure,
                 "close": scene.close_measures[0]}
        for key, line in lines.items():
            assert line.formula.endswith(f"med (s = {d.s})"), (name, key, line.formula)
        described = {x.key: x.text for x in scene.descriptions}
        for key in ("v_plain_measure", "v_rot_measure"):
            assert f"max |ΔY| (s = {d.s})" in described[key], (name, key, described[key])
        assert any("(s = 1, dots.h, " in m.typst_code for m in scene.gap_max_row.line.maths), name


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 12
    assert any(fmt_measure(scene.data.defect_rot) in c.text for c in caps)
    assert all(notebook_output(c.text) is None for c in caps), [c.text for c in caps]


def test_narration_is_true_and_the_clip_paced_under_every_corner(corners):
    for name, res in corners.items():
        scene = res.scene
        d = scene.data
        texts = [c.text for c in scene.captions]
        first = texts[1]
        assert f"token {d.q_token}" in first and f"token {d.k_token}" in first
        assert ("one two-dimensional pair" in first) == (d.q.size == 2), (name, first)
        assert any(f"positions m = {d.m}, n = {d.n}" in t for t in texts), name
        assert any(f"m − n = {d.m - d.n}" in t for t in texts), name
        assert any(fmt_measure(d.defect_plain) in t for t in texts) and d.defect_plain < 1e-12, name
        assert any(fmt_measure(d.defect_rot) in t for t in texts) and d.defect_rot > 1e-3, name


def test_the_score_lines_set_their_words_in_the_sans_and_their_maths_in_typst(final):
    """Review (issue 33): the score lines read "score"(5, 3) = …, Δ "score" and max |Δ "score"|, the word
    typeset in the serif math font.  Each is now a worded line: "score" in the house sans, the positions, Δ,
    the bars, s ≤ s_max and the figures in Typst."""
    from manim import Text

    from scenes.kit.theme import SANS

    scene, _ = final
    d = scene.data
    for line in (scene.score_row, scene.score_shift_row, scene.gap_max_row.line):
        assert line.words and line.maths
        assert all(isinstance(w, Text) and w.font == SANS for w in line.words)
        assert not any('"' in m.typst_code for m in line.maths), line.source
    assert [w.text for w in scene.score_row.words] == ["score"]
    assert [w.text for w in scene.gap_max_row.line.words] == ["score"]
    assert scene.gap_max_row.value.typst_code.strip("$ ").startswith("approx")  # the figure, measured
    assert scene.score_shift_row.value.figure == numbers.measure(d.score_shifted, SCORE_DIGITS)


def test_the_score_gap_is_one_verdict_with_bars_round_the_whole_difference(final):
    """Review R2 (07 gap): `max_{s≤1000}|Δ| score` put the bars round Δ alone, two check-marked figures competed
    (only the maximum is said), and the description placed the Δ "under the scores" where it sat under the dials.
    Now: |Δ score|, one verdict (the maximum over every shift, measured), described where it is drawn."""
    scene, _ = final
    d = scene.data
    line = scene.gap_max_row.line
    opening, closing = max(line.maths[0].submobjects, key=lambda g: g.height), line.maths[1]
    word = line.words[0]
    assert closing.typst_code.strip("$ ") == "|"
    assert opening.get_right()[0] < word.get_left()[0] < word.get_right()[0] < closing.get_left()[0]
    assert abs(closing.height - opening.height) < 1e-6 and abs(closing.get_y() - opening.get_y()) < 0.02
    assert scene.gap_max_row.figure == numbers.measure(d.score_gap_max)
    rec = _record(scene, "gap")
    texts = _texts(rec)
    assert not any("5.6" in t or t == numbers.measure(d.score_gap).text for t in texts)
    assert "along the bottom, centred" in rec.describe
    # where the description says: centred on the content, under everything else of part one
    row_ = scene.gap_max_row
    assert abs(row_.get_x() - scene.layout.content.point()[0]) < 0.05
    above = VGroup(scene.dials, scene.dial_caps, scene.who, scene.score_row, scene.score_shift_row)
    assert row_.get_top()[1] < above.get_bottom()[1]


def test_the_why_picture_is_the_one_subject_and_its_angle_has_a_unit(final):
    """Review R2 (10 v_why): two verdict lines stayed at the top, V = XW_v was written twice, and s θ₀ = 3.0 had
    no unit.  Now the ledger steps aside, each value's formula is written once, and the angle reads in rad."""
    scene, _ = final
    d = scene.data
    rec = _record(scene, "v_why")
    texts = _texts(rec)
    assert sum(t.replace(" ", "") == "V=XW_V" for t in texts) <= 1, texts
    assert not any(t.startswith("max") for t in texts), texts
    code = scene.why.angle_label.typst_code
    assert code.rstrip("$ ").endswith('"rad"')
    assert numbers.measure(abs(d.turn_angle)).text + " rad" in _caption(scene, "v_why")
    assert np.isclose(abs(d.turn_angle), d.s * d.theta[0] - 2 * np.pi * round(d.s * d.theta[0] / (2 * np.pi)),
                      atol=1e-9) or np.isclose(abs(d.turn_angle), abs(np.angle(np.exp(1j * d.s * d.theta[0]))))


def test_the_close_bar_names_only_what_it_shows(final):
    """Review R2 (13 close): the colour bar said "Y, ΔY" over maps of ΔY alone."""
    scene, _ = final
    titles = [t for t in scene.final.get_family() if getattr(t, "typst_code", "").strip("$ ") in ("Delta Y", "Y, Delta Y")]
    assert any(t.typst_code.strip("$ ") == "Delta Y" for t in titles)
    assert not any(t.typst_code.strip("$ ") == "Y, Delta Y" for t in titles)


def test_d_and_the_base_are_shown_with_the_first_dials_and_the_rates_follow_from_them(final, corners):
    """Review round 2 (clip 11 qk): the dials read θ₁ = 0.010 with no d or b on screen, just after clip 10's
    θ₁ ≈ 0.32 (d = 16): the same symbol with another value, unexplained.  Now d and b are written beside the
    first dials, from the first dial beat to the end of part one, and each dial's rate is b^(−2i/d) of exactly
    those d and b (the test parses them back).  On the old main ``scene.dims`` did not exist."""
    from scenes.figures.rope import base_figure

    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        d = scene.data
        base = scene.cfg.rope_base
        code = scene.dims.typst_code.strip("$ ")
        assert code == f"d = {d.q.size}, quad b = {base_figure(base).math}", (name, code)
        for key in ("qk", "rotate", "score", "shift", "same"):
            rec = next(r for r in res.records if r.key == key)
            assert code in [t.strip("$ ") for t in _texts(rec)], (name, key)
        dd = int(code.split(",")[0].split("=")[1])
        for i, th in enumerate(d.theta):
            assert th == pytest.approx(base ** (-2 * i / dd), rel=1e-12), (name, i)
        describe = next(r for r in res.records if r.key == "qk").describe
        plain = base_figure(base).text.replace("\u2009", " ")  # (a description spells a thin space as a space)
        assert f"d = {d.q.size}" in describe and f"b = {plain}" in describe.replace("\u2009", " "), (name, describe)


def test_a_rounded_figure_reads_approx_and_an_exact_one_equals(corners):
    """Review round 2 (clip 11): "max |ΔY| = 1.6" printed a rounded 1.59 with "=".  A figure rounded for display
    now reads "≈" (the ΔY verdicts, the scores to 4 digits, a rate such as θ₁ = 6^(−1/3)); digits that are the
    value (θ₀ = 1.0, θ₁ = 0.010 at b = 10 000, s θ₀ = 3.0) keep "=".  On the old main the verdict line read
    ``max abs(Delta Y) = 1.6``."""
    assert rounded(numbers.measure(1.59)).text == "≈ 1.6" and rounded(numbers.measure(1.59)).approx
    assert rounded(numbers.measure(1.0)).text == "1.0" and not rounded(numbers.measure(1.0)).approx
    assert rounded(numbers.measure(0.01)).text == "0.010"
    assert rounded(numbers.measure(3.0 - 4e-16)).text == "3.0"
    assert rounded(numbers.measure(2.2e-16)) == numbers.measure(2.2e-16)  # noise already reads ≈
    for name, res in corners.items():
        scene = res.scene
        d = scene.data
        rot = scene.rot.measure.value.typst_code.rsplit(")", 1)[-1]  # (after the shift measured, "(s = 2)")
        assert "approx" in rot and "=" not in rot.replace("approx", ""), (name, rot)
        for line, value in ((scene.score_row, d.score), (scene.score_shift_row, d.score_shifted)):
            shown = float(line.value.figure.text.replace("−", "-"))
            rel = line.maths[0].typst_code.strip("$ ").split()[-1]
            assert rel == ("=" if shown == value else "approx"), (name, rel, value)
        for cap, th in zip(scene.dial_caps, d.theta):
            fig = numbers.measure(th)
            exact = not fig.approx and abs(float(fig.text) - th) <= 1e-9 * max(1.0, th)
            assert ("approx" in cap.typst_code) == (not exact), (name, cap.typst_code, th)


def test_w_v_is_written_as_clip_07_writes_it(final):
    """Review round 2 (clip 11): W_v here against W_V in clip 07.  Every V formula, caption and description of
    clip 11 writes W_V; none writes W_v.  On the old main the heads read ``V = X W_v``."""
    import inspect

    from scenes.clips import c07_same_multiset

    assert '"W_V"' in inspect.getsource(c07_same_multiset)
    scene, _ = final
    texts = [it.text for rec in scene.audit.records for it in rec.items if it.kind == "text"]
    words = texts + [c.text for c in scene.captions] + [rec.describe or "" for rec in scene.audit.records]
    assert not [w for w in words if "W_v" in w.replace(" ", "")], [w for w in words if "W_v" in w]
    assert any("W_V" in t for t in _texts(_record(scene, "v_plain")))
    assert any("W_V" in t for t in _texts(_record(scene, "v_rot")))


def test_the_notes_name_the_position_not_only_the_token(final):
    """Review round 2 (clip 11 shift): "q of token 5, at m + s = 8" kept the token index while the position
    changed, easy to misread as position 5.  The notes say "at position" before m = 5 and before m + s = 8, and
    the description reads the position the same way."""
    scene, _ = final
    d = scene.data
    for key, first, second in (("rotate", f"m = {d.m}", f"n = {d.n}"),
                               ("shift", f"m + s = {d.m + d.s}", f"n + s = {d.n + d.s}")):
        rec = _record(scene, key)
        texts = [t.strip("$ ") for t in _texts(rec)]
        assert texts.count("at position") == 2 and first in texts and second in texts, (key, texts)
    for at, moved in zip(scene.at_words, scene.moved):  # "at position" right before the position, on its line
        assert at.get_right()[0] < moved.get_left()[0] and abs(at.get_bottom()[1] - moved.get_bottom()[1]) < 0.15
    assert f"at position m + s = {d.m + d.s}" in _record(scene, "shift").describe


def test_each_value_is_one_large_map_of_delta_y_with_its_title_and_its_verdict_under_it(final, corners):
    """Review round 2 (clip 11 v_plain … v_rot_measure): a dashboard of three 6 × 4 maps (the two Y maps look the
    same), a colour bar, the previous verdicts on top and "V = XW_v" floating in an empty left third.  Now each
    value is one subject: its ΔY map, large and centred, titled by how V is made, its verdict under it; no other
    map, no ledger, no text left of the map's axes but the verdict under them."""
    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        content = scene.layout.content
        rot = scene.rot_at_measure  # (where it stood at v_rot and v_rot_measure: the close moves it)
        for key, view, q in (("v_plain", scene.plain, "dY_plain"), ("v_plain_measure", scene.plain, "dY_plain"),
                             ("v_rot", rot, "dY_rot"), ("v_rot_measure", rot, "dY_rot")):
            rec = next(r for r in res.records if r.key == key)
            assert [k for k, _ in rec.shown] == [q], (name, key, rec.shown)
            assert abs(view.map.get_x() - content.center[0]) < 0.1 * content.width, (name, key)
            assert view.map.height >= 0.45 * content.height, (name, key, view.map.height / content.height)
            assert view.title.get_bottom()[1] > view.map.get_top()[1], (name, key)  # the formula is its title
            assert "V =" in " ".join(m.typst_code for m in view.title.maths)
            texts = [it for it in rec.items if it.kind == "text" and not it.header and it.opacity > 0.9]
            lonely = [it.text for it in texts if it.box[2] < view.axes.get_left()[0] - 1e-6
                      and it.box[1] > view.map.get_bottom()[1]]
            assert not lonely, (name, key, lonely)  # nothing floats beside the map
            assert not any(t.text.startswith("max") and "score" in t.text for t in texts), (name, key)  # no ledger
            if key.endswith("measure"):
                assert view.measure.get_top()[1] < view.axes.get_bottom()[1], (name, key)  # under the map


def test_a_verdict_mark_never_sits_beside_its_maps_cells(final):
    """Review round 2 (clip 11): the red ✗ sat under a dark-red ΔY cell, red meaning both a large positive ΔY and
    a failed check.  Every ✓/✗ under a ΔY map now sits left of the map's cells and under them, clear of the data's
    colours, at the measure beats and at the close."""
    scene, _ = final
    pairs = [(scene.plain.measure, scene.plain.map), (scene.close_measures[0], scene.close_maps[0])]
    for verdict_line, hm in pairs:
        mark = verdict_line.check
        assert mark.get_right()[0] < hm.get_left()[0], (mark.get_right()[0], hm.get_left()[0])
        assert mark.get_top()[1] < hm.get_bottom()[1]
    mark = scene.rot.measure.check  # (at v_rot_measure, before the close moved it: same layout, checked there)
    rec = _record(scene, "v_rot_measure")
    fails = [it for it in rec.items if it.kind != "text" and it.mid in {id(f) for f in mark.get_family()}]
    assert fails
    x_mark = max(it.box[2] for it in fails)
    assert x_mark < scene.map_at_measure.get_left()[0]


def test_each_turn_leaves_a_faint_copy_of_the_hands_where_they_were(final):
    """Review round 4 (RK, beats 02 and 04): the end frames could not show that the hands turned, nor that both
    hands of a pair turned alike: nothing marked where they had been.  Now a faint copy of every hand stays
    where it started (rotate), then where it stood before the shift, with its arc (shift, same): the arc before
    and the arc after, side by side, span the same angle.  On the old branch ``scene.ghosts`` did not exist."""
    scene, _ = final
    d = scene.data
    P = d.q.size // 2
    ghosts = scene.ghosts
    hands, arcs = ghosts[:2 * P], ghosts[2 * P:]
    assert len(hands) == 2 * P and len(arcs) == P
    for i, dial in enumerate(scene.dials):
        for j in range(2):  # q, then k: where each stood at its own position, before the shift (stage 1)
            tip = hands[2 * i + j].get_end() - dial.center
            pair = (d.q_pairs, d.k_pairs)[j][1, i]  # the pair RoPE rotated by its own position
            want = np.arctan2(pair[1], pair[0])
            assert abs(np.angle(np.exp(1j * (np.arctan2(tip[1], tip[0]) - want)))) < 1e-6, (i, j)
        def span(arc):  # the angle an arc spans, read from its drawn ends
            a, z = arc.get_start() - dial.center, arc.get_end() - dial.center
            return float(np.angle(np.exp(1j * (np.arctan2(z[1], z[0]) - np.arctan2(a[1], a[0])))))
        # the angle the score sees, before the shift and after it: the same (and the arc moved with the hands)
        assert abs(span(arcs[i]) - span(scene.arcs[i])) < 1e-6
        q1, k1 = d.q_pairs[1, i], d.k_pairs[1, i]
        assert abs(np.angle(np.exp(1j * (span(arcs[i]) - (np.arctan2(q1[1], q1[0]) - np.arctan2(k1[1], k1[0])))))) < 1e-6
        assert all(h.get_stroke_opacity() <= scene.GHOST + 1e-9 for h in hands)
    for key in ("shift", "same"):  # drawn, faint, at the end of both beats
        rec = _record(scene, key)
        ids = {it.mid: it.opacity for it in rec.items}
        seen = [ids[id(f)] for g in ghosts for f in g.get_family() if id(f) in ids]
        assert seen and max(seen) <= scene.GHOST + 1e-6, key


def test_the_shift_turns_the_first_pair_well_short_of_a_flip(final, corners):
    """Review round 5 (RN, beats 04, 05, 09): the shift s = 3 turned the first pair by 3 rad ≈ 172°, so every hand
    ended almost opposite its faint copy: "turn alike" read as a flip.  Now s is chosen from the rates, the
    smallest shift whose turn on the first pair, s θ₀ (mod 360°), lies between 60° and 120°, under every config;
    the hands on the first dial and the output's first pair (v_why) turn by that angle, well away from π.  The
    scores' verdict still measures every shift from 1 to 1000."""
    from scenes.kit.scales import rope_shift

    for name, scene in {"shipped": final[0], **{k: r.scene for k, r in corners.items()}}.items():
        d = scene.data
        turn = (d.s * d.theta[0]) % (2 * np.pi)
        assert np.pi / 3 <= turn <= 2 * np.pi / 3, (name, d.s, np.degrees(turn))
        assert all(not np.pi / 3 <= (s * d.theta[0]) % (2 * np.pi) <= 2 * np.pi / 3 for s in range(1, d.s)), name
        assert d.s == rope_shift(d.q.size, scene.cfg.rope_base) and d.s_max == 1000, name
        # the hands of the first pair turned by s θ₀ at the shift; the output's first pair by the same angle
        step = d.angles[2, :, 0] - d.angles[1, :, 0]
        np.testing.assert_allclose(step, d.s * d.theta[0])
        assert abs(d.turn_angle) <= 2 * np.pi / 3 + 1e-9 and abs(d.turn_angle) >= np.pi / 3 - 1e-9, name
        assert abs(abs(d.turn_angle) - np.pi) > np.pi / 3, name


def test_the_arc_before_the_shift_sits_nearer_the_hub(final):
    """Review round 5 (RN, beats 04, 05): the faint arc before the shift and the white arc after it shared one
    radius and closed into a ring.  Now the faint copy is drawn nearer the hub (GHOST_ARC of the arc's radius):
    two arcs of one angle, at two radii."""
    scene, _ = final
    P = scene.data.q.size // 2
    ghost_arcs = scene.ghosts[2 * P:]
    for dial, arc, ghost in zip(scene.dials, scene.arcs, ghost_arcs):
        r_arc = np.linalg.norm(arc.get_start() - dial.center)
        r_ghost = np.linalg.norm(ghost.get_start() - dial.center)
        assert r_ghost <= 0.7 * r_arc, (r_ghost, r_arc)


def test_the_dials_are_large(final):
    """Review round 5 (RN, 01–06): the dials were ≈ 260 px across with the lower right of the frame empty.  Now
    the notes stand in a narrow column (who on one line, where under it) and the dials take the rest: at least
    340 px across at 1280 × 720 under the shipped config, the notes reaching down past the dials' middle."""
    from manim import config

    scene, _ = final
    px = 1280 / config.frame_width
    assert 2 * scene.dials[0].radius * px >= 340, 2 * scene.dials[0].radius * px
    assert scene.score_shift_row.get_bottom()[1] < scene.dials[0].center[1]


def test_an_all_zero_map_is_called_all_zero_not_blank(final):
    """Review round 5 (RN, 07 and 10): the narration called the map of ΔY with V left alone "blank", but its cells
    are drawn white (zero on the diverging bar), and the deck draws an empty slot as a dark cell.  Now it is
    "all zero (white)" where the map is described, "no longer all zero" where the other map comes in; the cells
    of that map are white on screen (the close's test reads the pixels) because ΔY is zero to rounding."""
    scene, _ = final
    said = {c.key: c.text for c in scene.captions}
    described = {x.key: x.text for x in scene.descriptions}
    assert not [k for k, t in {**said, **described}.items() if "blank" in t.lower()]
    assert "all zero (white)" in described["v_plain"]
    assert "no longer all zero" in said["v_rot"] and "no longer all zero (white)" in described["v_rot"]
    np.testing.assert_allclose(scene.data.dY_plain, 0.0, atol=1e-12)


def test_the_close_colours_q_and_k_and_states_the_shift(final):
    """Review round 5 (RN, close): q and k in the takeaway lost their colours, and "moves the outputs by up to
    1.6" held for the shift s = 3 only, stated at v_rot_measure, not in the close.  Now q is orange and k blue in
    the written takeaway, a line over the maps states ΔY = after − before with every position moved by s, and
    the narration says the shift with the measured figure."""
    scene, _ = final
    d = scene.data
    q_sym, k_sym = scene.close_words.maths[:2]
    assert q_sym.get_fill_color().to_hex().lower() == QUERY.to_hex().lower()
    assert k_sym.get_fill_color().to_hex().lower() == KEY.to_hex().lower()
    close = scene.audit.records[-1]
    texts = " ".join(it.text for it in close.items if it.kind == "text" and not it.header and it.opacity > 0.3)
    assert f"s = {d.s}" in texts, texts
    # (review round 6: the grey line "ΔY = after − before, every position moved by s" crowded the stack) the shift
    # is stated on the figure that depends on it, the rotated V's verdict, as the scores' line states its shifts
    rot_verdict = scene.close_measures[-1]
    assert scene.close_moved is rot_verdict and not rot_verdict.passed
    assert f"(s = {d.s})" in rot_verdict.formula and rot_verdict.value.typst_code.strip("$ ") in texts
    assert rot_verdict.get_top()[1] < min(m.get_bottom()[1] for m in scene.close_maps)
    said = _caption(scene, "close")
    assert f"shifted by s = {d.s}" in said and f"up to {numbers.measure(d.defect_rot).text}" in said


def test_r_s_is_defined_where_it_is_written(final):
    """Review round 5 (RN, 09): "R_s" was written without saying what it is.  Now the line under the rule says it,
    R_s turns pair i by s θᵢ."""
    scene, _ = final
    rec = _record(scene, "v_why")
    texts = " ".join(_texts(rec))
    assert "turns pair" in texts and "R_s" in texts and "s theta_i" in texts, texts
    assert scene.why.define.get_top()[1] <= scene.why.rule.get_bottom()[1] + 1e-6


def test_the_close_keeps_its_maps_legible(final):
    """Review round 5 (RN, close): the maps shrank to ≈ 245 × 195 px with squashed rows, the axis words ≈ 6 px
    x-height at 854 × 480.  Now the close's cells are no larger than the body's (07–11) nor flatter than 1.9 : 1,
    and the words "token" and "feature" keep (nearly) the body's size: the audit holds them over the legible floor,
    where on the old branch they shrank with the rows."""
    scene, _ = final
    body = scene.map_at_measure
    for m in scene.close_maps:
        c = m.cell(0, 0)
        assert c.height <= body.cell(0, 0).height + 1e-6 and c.width <= 1.9 * c.height + 1e-6
        # review round 6 (RP, close): the cells went from 82 × 55 to 65 × 34 px, aspect 1.5 → 1.9; now scaled
        # uniformly, the body's shape kept
        b = body.cell(0, 0)
        assert c.width / c.height == pytest.approx(b.width / b.height, rel=1e-6)
        # the row numbers have air between them: at most 62 % of a row's pitch
    for block in scene.close_blocks:
        pitch = block.map.cell(0, 0).height
        assert len(block.axes.row_ticks) == scene.data.dY_plain.shape[0]
        for t in block.axes.row_ticks:
            assert t.height <= 0.62 * pitch + 1e-6, (t.height, pitch)
    close_axes = [b.axes for b in scene.close_blocks]
    for axes in close_axes:
        for word, body_word in ((axes.row_word, scene.axes_at_measure.row_word),
                                (axes.col_word, scene.axes_at_measure.col_word)):
            assert word.height >= 0.9 * body_word.height, (word.height, body_word.height)


def test_each_dial_is_named_by_its_pair_and_the_turn_is_written_at_rotate(final, corners):
    """Review round 6 (RP, qk–same): neither dial was labelled "pair 0" or "pair 1" (only the rate under it told
    them apart), and the narration's "turns q by m θᵢ" was never on screen.  Now each dial reads "pair i" beside
    its rate, under it, from qk to the end of part one; at rotate the line "q turns by m θᵢ and k by n θᵢ" stands
    under the dials (q and k in their colours), at shift and same "q and k both turn a further s θᵢ", giving way to
    the scores' verdict at gap."""
    for name, res in {"shipped": final[0].audit, **corners}.items():
        scene = res.scene
        P = scene.data.q.size // 2
        assert [n.text.replace(" ", "") for n in scene.pair_names] == [f"pair{i}" for i in range(P)], name
        for dial, pname, cap in zip(scene.dials, scene.pair_names, scene.dial_caps):
            assert pname.get_top()[1] < dial.face.get_bottom()[1] and cap.get_top()[1] < dial.face.get_bottom()[1]
            assert pname.get_right()[0] < cap.get_left()[0]  # "pair i", then its rate, on one line
            assert abs(VGroup(pname, cap).get_x() - dial.face.get_x()) < 1e-3, name  # centred under its dial
        for (p0, c0), (p1, c1) in zip(list(zip(scene.pair_names, scene.dial_caps))[:-1],
                                      list(zip(scene.pair_names, scene.dial_caps))[1:]):
            assert c0.get_right()[0] < p1.get_left()[0], name  # each dial's labels apart from the next one's
        for key in ("qk", "rotate", "shift", "same"):
            texts = [t.replace(" ", "") for t in _texts(next(r for r in res.records if r.key == key))]
            assert {f"pair{i}" for i in range(P)} <= set(texts), (name, key)
        rule = scene.turn_rule
        assert [m.typst_code.strip("$ ") for m in rule.maths] == ["q", "m theta_i", "k", "n theta_i"], name
        assert rule.maths[0].get_fill_color().to_hex() == QUERY.to_hex()
        assert rule.maths[2].get_fill_color().to_hex() == KEY.to_hex()
        content = scene.layout.content
        assert content.left - 1e-6 <= rule.get_left()[0] and rule.get_right()[0] <= content.right + 1e-6, name
        assert rule.get_top()[1] < min(c.get_bottom()[1] for c in scene.dial_caps), name  # under the dials' labels
        # review round 7 (RS): the rule stood through the shift, while both hands turned by s θᵢ; from shift to same
        # the line says what the shift adds
        extra = scene.shift_rule
        assert [m.typst_code.strip("$ ") for m in extra.maths] == ["q", "k", "s theta_i"], name
        assert abs(extra.get_y() - rule.get_y()) < 1e-6
        for key, says in (("qk", None), ("rotate", "m theta_i"), ("shift", "s theta_i"), ("same", "s theta_i"),
                          ("gap", None)):
            rec = next(r for r in res.records if r.key == key)
            texts = " ".join(_texts(rec))
            assert ("m theta_i" in texts) == (says == "m theta_i"), (name, key, texts)
            assert ("s theta_i" in texts) == (says == "s theta_i"), (name, key, texts)
    said = _caption(final[0], "rotate")
    assert "q by m θᵢ" in said and "k by n θᵢ" in said
