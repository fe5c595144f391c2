"""Clip 10 RoPEAngleGrid: data binding; the table's pixels at the beats that show it (every angle mod 2π
on one cyclic scale; the slow pairs on their own log scale in their own beat); colour bars; hands driven
by the grid, one over each column; clean readout steps; the lecture language (no notebook output, labels
bound to the data they name, no dead beat); the close (the proof, large, over a fast and a slow hand);
the still drawing the same scales; captions true under every corner config; the layout audit over the
config matrix."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frames import (
    pixel,
    rgb255,
)
from mathcore import load_config, rope_angle_grid, rope_frequencies
from mathcore.config import MAX_BASE, MIN_BASE
from mathcore.rope_measures import angle_grid_defect
from scenes.figures.rope import (
    ANGLE_TICKS,
    SLOW_DECADES,
    angle_scale,
    base_figure,
    slow_decades,
    slow_scale,
    theta_figure,
)
from scenes.kit import BG, FG, fmt_measure, numbers, swap
from scenes.kit.scales import signature
from scenes.kit.numbers import notebook_output
from scenes.clips.c10_rope_angle_grid import QUARTER_TURN, RoPEAngleGrid, shown_value

W, H = 427, 240


SCENE = RoPEAngleGrid


def _data(tmp_path, T: int, base: float):
    src = load_config().path.read_text()
    p = tmp_path / "lecture.toml"
    p.write_text(src.replace("rope_base = 10000.0", f"rope_base = {base!r}").replace("T_heatmap = 12", f"T_heatmap = {T}"))
    return RoPEAngleGrid.build_data(load_config(p))


def _record(scene, key):
    return next(r for r in scene.audit.records if r.key == key)


def _every_config(final, corners):
    """``(name, scene, records)``: the shipped config and every corner of the config matrix."""
    yield "shipped", final[0], final[0].audit.records
    for name, res in corners.items():
        yield name, res.scene, res.records


def _in(records, key):
    return next(r for r in records if r.key == key)


def _texts(rec):
    return [it.text for it in rec.items if it.kind == "text" and not it.header and it.opacity >= 0.3]


def test_data_is_what_mathcore_computes_from_the_config():
    cfg = load_config()
    d = RoPEAngleGrid.build_data(cfg)
    np.testing.assert_array_equal(d.grid, rope_angle_grid(cfg.T_heatmap, 16, cfg.rope_base))
    np.testing.assert_array_equal(d.wrapped, np.mod(d.grid, 2 * np.pi))
    np.testing.assert_array_equal(d.theta, rope_frequencies(16, cfg.rope_base))
    assert d.defect == angle_grid_defect(cfg.T_heatmap, 16, cfg.rope_base)
    # the storyboard's claim: the grid equals m · base^(−2i/d)
    m, i = np.meshgrid(np.arange(d.T), np.arange(8), indexing="ij")
    np.testing.assert_allclose(d.grid, m * cfg.rope_base ** (-2 * i / 16), rtol=1e-15, atol=0)
    assert d.cmap == cfg.cmap_angles


@pytest.mark.parametrize("T, base", [(8, 100.0), (12, 10000.0), (16, 500000.0), (16, 1e9), (8, 1e9)])
def test_fast_and_slow_pairs_are_split_by_the_measured_angles(tmp_path, T, base):
    d = _data(tmp_path, T, base)
    nf = d.n_fast
    # fast pairs reach a quarter turn in the table, slow pairs never do; both kinds are there
    assert 1 <= nf < d.d // 2
    assert np.all(d.grid[-1, :nf] >= QUARTER_TURN) and np.all(d.grid[:, nf:] < QUARTER_TURN)
    # the slow pairs' colours in their own beat are their log angles, -inf (the masked colour, the "0 exact"
    # key) only where the angle is exactly 0
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(d.log_slow, np.log10(d.grid[:, nf:]))
    assert np.all(np.isneginf(d.log_slow[0])) and np.all(np.isfinite(d.log_slow[1:]))
    sc = slow_scale(d, load_config())
    assert sc.vmin <= d.log_slow[1:].min() and d.log_slow.max() <= sc.vmax and sc.vmax - sc.vmin >= 1


@settings(max_examples=25, deadline=None)
@given(T=st.integers(8, 16), base=st.floats(MIN_BASE, MAX_BASE))
def test_the_slow_scale_ends_at_labelled_decades_in_round_steps(T, base):
    from types import SimpleNamespace

    grid = rope_angle_grid(T, 16, base)
    nf = int(np.count_nonzero(grid[-1] >= QUARTER_TURN))
    with np.errstate(divide="ignore"):
        d = SimpleNamespace(log_slow=np.log10(grid[:, nf:]))
    cfg = load_config()
    t = slow_decades(d, cfg)
    steps = np.diff(t)
    assert len(t) >= 2 and np.all(steps == steps[0]) and len(t) <= SLOW_DECADES + 2  # even steps, a few labels
    finite = d.log_slow[np.isfinite(d.log_slow)]
    assert t[0] <= finite.min() and finite.max() <= t[-1]  # every slow angle inside the scale
    assert t[0] > finite.min() - 1 and t[-1] < finite.max() + 1  # and no decade more than needed at either end
    assert (slow_scale(d, cfg).vmin, slow_scale(d, cfg).vmax) == (t[0], t[-1])  # the bar's ends are labelled ticks


def test_one_colour_scale_for_the_angle_across_the_clip(final, corners):
    """Issue 33 / review RB: clip 10 painted one angle on three scales (twilight mod 2π, cividis on log angles in
    its slow beat, a grey wash), and once viridis, the weights' colour.  Now every coloured widget of every beat,
    in the shipped config and every corner, is painted by the deck's one scale for angles (cyclic, mod 2π): the
    table, the rings on the dials, the swept dots, the lifted columns.  On the old main the slow beat recorded a
    "slow angles" scale beside the "angles" one."""
    for name, scene, records in _every_config(final, corners):
        cyc = angle_scale(scene.cfg)
        assert cyc.quantity == "angles" and cyc.name == scene.cfg.cmap_angles
        quantities = {s.quantity for rec in records for s in rec.scales}
        assert quantities == {"angles"}, (name, quantities)
        for rec in records:
            for sc in rec.scales:
                assert sc.signature == signature(cyc), (name, rec.key, sc.what, sc.signature)
        assert (cyc.vmin, cyc.vmax) == (0.0, 2 * np.pi)
    scene = final[0]
    assert not hasattr(scene.table, "log_scale") and not hasattr(scene.table, "slow")


def test_the_table_is_one_matrix_on_one_cyclic_scale(final):
    """Every entry, fast pair or slow, coloured by its angle mod 2π on the one cyclic scale (the picture at
    the end of the walk and at the proof); the slow columns are then one colour (the point of the slow beat)."""
    scene, _ = final
    d = scene.data
    tb = scene.table
    cyc = angle_scale(scene.cfg)
    assert tb.scale.same_as(cyc) and (cyc.vmin, cyc.vmax) == (0.0, 2 * np.pi) and cyc.name == d.cmap
    np.testing.assert_array_equal(tb.grid.values, d.wrapped)
    for key in ("walk", "check"):
        frame = scene.beat_frames[key]
        for m in range(d.T):
            for i in range(d.d // 2):
                got = pixel(scene, frame, tb.grid.cell(m, i).get_center())
                assert np.abs(got - rgb255(cyc.rgb(d.wrapped[m, i]))).max() <= 4, (key, m, i, got)
    # the fast pair's column goes round the colour wheel; the slowest pair's column is one colour
    frame = scene.beat_frames["check"]
    col = lambda i: np.array([pixel(scene, frame, tb.grid.cell(m, i).get_center()) for m in range(d.T)])  # noqa: E731
    assert np.ptp(col(d.fast), axis=0).max() > 60
    assert np.ptp(col(d.slow), axis=0).max() < np.ptp(col(d.fast), axis=0).max() / 3


def test_the_slow_pairs_beat_shows_what_it_says(final, corners):
    """Review RB: "pairs 2 to 7 never reach a quarter turn" held only up to the table's last row, and "each is 3.2
    times slower" was shown on a log scale of its own.  Now the caption says "in this table", and the beat draws
    it on the one cyclic scale: on each slow dial a wedge from 0 to the angle its hand reached at the last row,
    every one inside the dial's first quarter; each wedge ``b^(2/d)`` times narrower than the one before; the
    ratio printed top right, with "≈" (it is rounded)."""
    for name, scene, _ in _every_config(final, corners):
        d, tb = scene.data, scene.table
        nf, P, m = d.n_fast, d.d // 2, d.T - 1
        assert [w.pair for w in tb.wedges] == list(range(nf, P)), name
        for w in tb.wedges:
            i = w.pair
            assert w.angle_shown == d.grid[m, i] < QUARTER_TURN, (name, i)
            # the wedge drawn: its apex on hand i's hub (over column i, level with the row of hands: the close has
            # since moved hand i away), from angle 0 to the hand's angle at the last row
            hub = np.array([tb.grid.cell(0, i).get_x(), tb.dials.dials[1].center[1]])
            v = w.points[:, :2] - hub
            r = np.hypot(v[:, 0], v[:, 1])
            a = np.arctan2(v[r > 1e-6, 1], v[r > 1e-6, 0])
            assert r.min() < 1e-6 and abs(a.min()) < 1e-6 and abs(a.max() - d.grid[m, i]) < 1e-6, (name, i)
        # each pair is b^(2/d) times slower than the one before: one ratio, the one printed and said
        ratio = d.theta[:-1] / d.theta[1:]
        assert np.allclose(ratio, d.base ** (2 / d.d), rtol=1e-12), name
        shown = numbers.plain(ratio[0])
        code = scene.ratio_line.typst_code
        assert "approx" in code and code.rstrip("$ ").endswith(shown), (name, code)
        cap = scene.caption("slow_pairs")
        assert f"pairs {nf} to {P - 1} stay under a quarter turn, each {shown} times slower" in cap, (name, cap)
        assert "never" not in cap and cap.startswith("In this table"), (name, cap)
        # and the first slow pair does pass a quarter turn further on: why "in this table" is needed
        assert (np.pi / 2) / d.theta[nf] > m, name
    scene = final[0]
    rec = _record(scene, "slow_pairs")
    # the wedges are on screen (pair 2's, 63° at the shipped config, is a visible pale wedge on its dial)
    frame = scene.beat_frames["slow_pairs"]
    w = scene.table.wedges[0]
    c = np.array([scene.table.grid.cell(0, w.pair).get_x(), scene.table.dials.dials[1].center[1], 0.0])
    r = scene.table.radius * scene.table.WEDGE_AT
    inside = c + 0.6 * r * np.array([np.cos(w.angle_shown / 2), np.sin(w.angle_shown / 2), 0])
    assert np.abs(pixel(scene, frame, inside).astype(int) - rgb255(BG)).max() > 40
    assert id(w) in {it.mid for it in rec.items}


def test_the_dials_carry_the_colour_wheel(final):
    """The table's colour key is on the data: each dial's rim carries the cyclic scale (each piece of the ring in
    the colour of the angle it stands at), so the colour a hand points into is the colour its cell takes.  (The
    colour bar beside the table is gone: it cost the columns the width their rates needed on one row.)"""
    scene, _ = final
    tb = scene.table
    cyc = angle_scale(scene.cfg)
    for dial in [*tb.dials.dials, *scene.closing_picture.dials]:
        ring = dial.ring
        assert ring.color_scale.same_as(cyc)
        assert np.allclose(np.diff(ring.values), 2 * np.pi / len(ring)) and 0 < ring.values[0] < ring.values[-1] < 2 * np.pi
        for piece, v in zip(ring, ring.values):
            assert np.abs(rgb255(piece.get_fill_color()) - rgb255(cyc.rgb(v))).max() <= 1
            mid = piece.start_angle + piece.angle / 2  # (the dials are moved and scaled, never turned)
            assert abs(np.angle(np.exp(1j * (mid - v)))) < 1e-9
    # where the walk ends, each hand points into the ring at the colour of its cell in the last row
    d = scene.data
    for i, dial in enumerate(tb.dials.dials):
        k = int(np.mod(d.grid[d.m_pick, i], 2 * np.pi) // (2 * np.pi / len(dial.ring)))
        got, want = rgb255(dial.ring[k].get_fill_color()), rgb255(cyc.rgb(d.wrapped[d.m_pick, i]))
        assert np.abs(got.astype(int) - want.astype(int)).max() <= 40, (i, got, want)


def test_the_hands_show_the_picked_row_of_the_grid_each_over_its_column(final):
    scene, _ = final
    d = scene.data
    tb = scene.table
    np.testing.assert_allclose(tb.dials.angles, d.grid[d.m_pick], atol=1e-12)
    # the hands on screen point where the grid says (mod 2π)
    for dial, tip, a in zip(tb.dials.dials, tb.dials.tips(), d.grid[d.m_pick]):
        v = tip - dial.center
        assert abs(np.angle(np.exp(1j * (np.arctan2(v[1], v[0]) - a)))) < 1e-6
    # until the close, hand i stands over column i of the table
    for i in range(1, d.d // 2 - 1):
        assert abs(tb.dials.dials[i].center[0] - tb.grid.cell(0, i).get_center()[0]) < 1e-6
    # the walk ends with the row box on the picked row, and only that position printed
    assert abs(scene.row_box.get_center()[1] - tb.grid.cell(d.m_pick, 0).get_center()[1]) < 1e-6
    texts = _texts(_record(scene, "walk"))
    shown = [t for t in texts if t.startswith("m = ")]
    assert shown == [f"m = {d.m_pick}"], shown


def test_rows_labelled_from_0_in_even_steps_with_the_axis_name_beside_them(final, corners):
    """Review RB: only odd rows were numbered (row 0 had none), and the axis name m floated by the pair names,
    far above the table.  Now row 0 and every k-th row after it are labelled (k = 1, 2, 5, ...: every row when
    the labels fit), each level with its row, and m stands left of the labels, level with the table's middle."""
    for name, scene, _ in _every_config(final, corners):
        tb, T = scene.table, scene.data.T
        nums = [int(t.text) for t in tb.rows]
        k = nums[1] - nums[0] if len(nums) > 1 else T
        assert nums == list(range(0, T, k)) and k in (1, 2, 5, 10, 20), (name, nums)
        for t in tb.rows:
            assert abs(t.get_y() - tb.grid.cell(int(t.text), 0).get_y()) < 1e-6, (name, t.text)
        if k > 1:  # labels every row only where they fit: a step no longer than needed
            smaller = max(x for x in (1, 2, 5, 10, 20) if x < k)
            assert smaller * tb.cell_h < max(t.height for t in tb.rows) + 0.05, (name, k)
        assert tb.m_name.get_right()[0] < tb.rows.get_left()[0] and abs(tb.m_name.get_y() - tb.grid.get_y()) < 1e-6


def test_the_walks_chain_of_position_swaps_never_shows_two_figures_at_once():
    """The walk steps the position readout with one swap per step inside a Succession (the kit's
    chained-swap test runs a Scene; this samples the clip's own chain of math readouts)."""
    from manim import Succession

    from scenes.kit import math

    labels = [math(f"m = {m}") for m in range(6)]
    anim = Succession(*[swap(a, b) for a, b in zip(labels, labels[1:])], run_time=5)
    anim.scene = None  # sampled outside a scene
    anim.begin()
    for a in np.linspace(0, 1, 241):
        anim.interpolate(a)
        shown = [k for k, lab in enumerate(labels)
                 if max(np.max(sm.get_fill_opacities()) for sm in lab.family_members_with_points()) > 1e-6]
        assert len(shown) <= 1, (a, shown)
    anim.interpolate(1.0)
    assert shown == [len(labels) - 1]


def test_the_figures_on_screen_are_the_measured_ones(final):
    scene, frame = final
    d = scene.data
    assert scene.proof.figure == numbers.measure(d.defect) and scene.proof.passed and scene.proof._verdict
    # the row of rates, under θᵢ ≈, one over each column: the measured rate to 2 significant digits, as plain
    # digits on ONE row (review RB: they zig-zagged over two rows, decimals mixed with 3.2 × 10⁻⁴); its ≈
    # carried by the row's name
    tb = scene.table
    assert not tb.staggered
    for i, t in enumerate(tb.thetas):
        shown = t.typst_code.strip("$ ")
        assert shown == tb.rate_texts[i] and "times" not in shown
        assert float(shown) == float(f"{d.theta[i]:.2g}") and len(shown.replace(".", "").lstrip("0")) == 2
        assert abs(t.get_x() - tb.grid.cell(0, i).get_x()) < 1e-6
        assert abs(t.get_y() - tb.thetas[0].get_y()) < 0.05  # one row
    assert "approx" in tb.theta_name.typst_code
    # the rounded readings top right say "≈" (review RB: "11θ₇ = 0.0035" was a rounded 0.00348)
    for line, x in ((scene.wrap_line, 2 * np.pi / d.theta[d.fast]), (scene.slow_line, d.grid[d.m_pick, d.slow])):
        code = line.typst_code
        assert "approx" in code and "=" not in code and numbers.measure(x).math in code, code
        assert float(numbers.measure(x).text) != x
    assert scene.proof.check._role == "verified"


def test_the_base_is_printed_as_given_or_marked_approximate():
    th = "\u2009"
    assert [base_figure(b).text for b in (100.0, 10000.0, 500000.0, 123456.5, 1e7, 1e9, 4.005e8)] == [
        "100", f"10{th}000", f"500{th}000", f"123{th}456.5", "10⁷", "10⁹", "4.005 · 10⁸"]
    assert [base_figure(b).text for b in (12345.678901, 563268461.7364, 99999999.0)] == [
        f"≈ 12{th}350", "≈ 5.633 · 10⁸", "≈ 10⁸"]
    assert base_figure(10000.0).math == "10 thin 000" and base_figure(1e9).math == "10^9"
    assert all(not base_figure(b).approx for b in (100.0, 1e9)) and base_figure(99999999.0).approx


def test_rates_in_the_lecture_number_style():
    assert [theta_figure(x).text for x in (1.0, 0.316227, 0.1, 0.000316227, 1.33e-8)] == [
        "1.0", "0.32", "0.10", "≈ 3.2 × 10⁻⁴", "≈ 1.3 × 10⁻⁸"]


def test_lecture_language_no_notebook_output_labels_bound_no_dead_beat(final):
    scene, _ = final
    res = scene.audit
    assert not res.lecture, res.lecture  # static beats, notebook notation and unbound labels: none
    for rec in res.records:
        for t in _texts(rec):
            assert notebook_output(t) is None or "_" in t, (rec.key, t)  # Typst writes subscripts with "_"
    # the table bound to the angles mod 2π it shows, from the walk on
    for key in ("walk", "fast", "slow", "slow_pairs", "check"):
        assert "wrapped" in {q for q, _ in _record(scene, key).shown}, key


def _ink(frame) -> float:
    """The share of a frame's content area (below the header, above the subtitle band) drawn in anything but
    the background."""
    h = frame.shape[0]
    body = frame[int(0.14 * h): int(0.88 * h)].astype(int)
    return float(np.mean(np.abs(body - rgb255(BG)).max(axis=2) > 24))


def test_the_formula_beat_shows_what_the_formula_describes(final):
    """Issue 33: clip 10's `formula` beat was one line of formula for 9 s (under 1.5 % ink at 480p).  Now the
    formula is drawn over what it describes: a hand per pair with its rate θᵢ, over the empty table whose
    row m will hold m θᵢ; the frame carries several times the old ink."""
    scene, _ = final
    rec = _record(scene, "formula")
    texts = _texts(rec)
    d = scene.data
    # the words in the sans, never inside the math (no quoted Typst words such as "angle" or "mod")
    assert not any('"' in t for t in texts), [t for t in texts if '"' in t]
    assert "pair" in texts and "m theta_i" in texts
    for i in range(d.d // 2):  # every pair's number and rate under its hand
        assert f"{'i'} = {i}" in texts
        assert scene.table.rate_texts[i] in texts
    # review RB: "m θᵢ," set its comma at the subscript's height, reading "m θ_i′": no comma follows m θᵢ now
    rule = scene.rule_parts[0]
    k = next(n for n, p in enumerate(rule.pieces) if getattr(p, "typst_code", "").strip("$ ") == "m theta_i")
    assert rule.pieces[k + 1].text == "with", [getattr(p, "text", None) for p in rule.pieces]
    assert not any(t.startswith(",") for t in texts)
    assert _ink(scene.beat_frames["formula"]) > 0.06, _ink(scene.beat_frames["formula"])
    ids = {it.mid for it in rec.items}
    assert id(scene.table.dials.dials[0].face) in ids and id(scene.table.slots[0]) in ids


def test_the_close_is_the_verdict_over_the_two_hands_with_their_rates(final):
    """Issue 33: clip 10 closed on two small dials and two words (2.6 % ink), without their θᵢ.  Now the close
    is the verdict (✓ and the measured gap) over the fast and the slow hand, large, each with its rate θᵢ, the
    path it swept (a dot per position, in its cell's colour) and its column of the table beside it."""
    scene, frame = final
    d = scene.data
    close = scene.audit.records[-1]
    assert close.key == "close"
    texts = [it.text for it in close.items if it.kind == "text" and not it.header and it.opacity > 0.9]
    end = scene.closing_picture
    assert end.proof is scene.proof and scene.proof._verdict and scene.proof.passed
    for th, i in zip(end.thetas, (d.fast, d.slow)):  # each hand's rate, as the formula names it
        assert th.typst_code.strip("$ ") in texts
        shown = scene.table.rate_texts[i]  # the rate as the table's row printed it, "≈" when it is rounded
        rel = "=" if float(shown) == d.theta[i] else "approx"
        assert th.typst_code.strip("$ ") == f"theta_{i} {rel} {shown}", th.typst_code
    assert {"fast:", "slow:"} <= set(texts)
    content = scene.layout.content
    fast, slow = scene.table.dials.dials[d.fast], scene.table.dials.dials[d.slow]
    assert fast.center[1] < scene.proof.get_bottom()[1] and slow.center[1] < scene.proof.get_bottom()[1]
    assert fast.center[0] < slow.center[0] and abs(fast.center[1] - slow.center[1]) < 1e-6
    assert fast.face.height >= 0.4 * content.height  # large
    # the swept paths: a dot at every angle m θᵢ up to the last position, coloured as its cell
    for path, i, dial in zip(end.paths, (d.fast, d.slow), (fast, slow)):
        assert len(path) == d.m_pick + 1
        for m, dot in enumerate(path):
            v = dot.get_center() - dial.center
            assert abs(np.angle(np.exp(1j * (np.arctan2(v[1], v[0]) - d.grid[m, i])))) < 1e-6
            assert rgb255(dot.get_fill_color()).tolist() == rgb255(scene.table.scale.rgb(d.wrapped[m, i])).tolist()
    assert _ink(frame) > 0.12, _ink(frame)


def test_the_still_draws_with_the_clips_scales(final):
    from scenes.figures import designed_stills

    scene, _ = final
    d = scene.data
    s = designed_stills("RoPEAngleGrid", d, scene.cfg)[0]
    A, B = s.panels["A"], s.panels["B"]
    np.testing.assert_array_equal(A.values, scene.table.grid.values)
    # the still keeps a log panel of the slow pairs (scenes/figures/rope.py, shared with the handout); the clip
    # itself paints every angle on the one cyclic scale
    np.testing.assert_array_equal(B.values, d.log_slow)
    for p, clip_scale in ((A, scene.table.scale), (B, slow_scale(d, scene.cfg))):
        assert p.scale.same_as(clip_scale) and p.scale.cmap.name == clip_scale.cmap.name
    assert tuple(A.cbar_ticks) == ANGLE_TICKS and tuple(B.cbar_ticks) == tuple(float(t) for t in slow_decades(d, scene.cfg))
    assert fmt_measure(d.defect).replace("exactly 0", "0 (exact)") in s.proof[0]


def test_captions_carry_the_clips_figures(final):
    scene, _ = final
    caps = scene.captions
    assert len(caps) >= 8
    assert all(notebook_output(c.text) is None for c in caps), [c.text for c in caps]


def test_narration_is_true_and_the_clip_paced_under_every_corner(corners):
    for name, res in corners.items():
        scene = res.scene
        d = scene.data
        texts = [c.text for c in scene.captions]
        # "exactly" only when the measured gap is exactly zero; the gap printed is the measured one
        check = next(t for t in texts if "−2i/d" in t and "gap" in t)
        assert ("exactly" in check) == (d.defect == 0.0), (name, check)
        assert fmt_measure(d.defect) in check
        # the slow pairs named are the ones under a quarter turn
        slow = next(t for t in texts if "quarter turn" in t)
        assert f"In this table, pairs {d.n_fast} to {d.d // 2 - 1} stay under a quarter turn" in slow, (name, slow)
        assert "never" not in slow  # review RB: "never reach a quarter turn" held only up to the table's last row
        assert d.grid[-1, d.n_fast] < QUARTER_TURN <= d.grid[-1, d.n_fast - 1]
        # pair 0 turns one radian a step in every config (θ₀ = b⁰ = 1)
        assert d.theta[d.fast] == 1.0 and any("a full radian" in t for t in texts)
        # the slow pair's column is one colour on the cycle: it never turns a quarter
        assert d.grid[-1, d.slow] < QUARTER_TURN


def test_words_are_set_in_the_sans_never_inside_the_math(final, corners):
    """Issue 33: clip 10 set words inside Typst math (``"angle"_(m,i)``, ``"mod" 2π``).  Now no beat, in the
    shipped config or any corner, draws a formula with a quoted word: the words are sans pieces of a worded line
    (the formula line, the verdict)."""
    for name, records in [("shipped", final[0].audit.records), *[(k, r.records) for k, r in corners.items()]]:
        for rec in records:
            quoted = [it.text for it in rec.items if it.kind == "text" and '"' in (it.text or "")]
            assert not quoted, (name, rec.key, quoted)
    scene = final[0]
    assert scene.proof.formula.startswith("every entry is") and "m theta_i" in scene.proof.formula


def test_the_closes_rates_and_the_verdicts_formula_sit_on_their_words_baseline(final):
    """The close's "fast:"/"slow:" and their θᵢ share one baseline (they were set by the formula's subscript and
    stood half a line apart); so do the verdict's words and its formulas."""
    from scenes.kit.proofs import line_baseline

    scene, _ = final
    assert [c.words[0].text for c in scene.close_captions] == ["fast:", "slow:"]
    for cap, th in zip(scene.close_captions, scene.closing_picture.thetas):
        words = cap.words[0]
        theta_glyph = th.submobjects[0]  # θ sits on the line (its subscript below it)
        assert abs(theta_glyph.get_bottom()[1] - line_baseline(words)) < 0.03, cap.source
    # the verdict's formula θᵢ = b^(−2i/d) (mostly superscript) sits on the words' baseline by its first glyph
    line = scene.proof.line
    for piece in line.maths:
        first = [g for g in piece.submobjects if g.has_points() or g.submobjects][0]
        assert abs(first.get_bottom()[1] - line_baseline(line.words[0])) < 0.03, piece.typst_code


def test_the_check_shows_the_definition_its_sentence_reads(final, corners):
    """Review RB: the check's sentence reads "with θᵢ = b to the −2i/d" just as the formula line that held it gave
    way to the verdict.  Now the verdict itself says it: "every entry is m θᵢ with θᵢ = b^(−2i/d), largest gap:
    0 exact", at full strength at the end of the check and in the close."""
    for name, scene, records in _every_config(final, corners):
        assert "θᵢ = b to the −2i/d" in scene.caption("check"), name
        for key in ("check", "close"):
            texts = [it.text for it in _in(records, key).items if it.kind == "text" and it.opacity > 0.9]
            assert "m theta_i" in texts and "theta_i = b^(-2i \\/ d)" in texts, (name, key, texts)
        assert scene.proof.passed == (scene.data.defect < 1e-10) and scene.proof._verdict


def test_the_slow_column_stands_out_from_the_rest(final):
    """Review RB: at the slow beat the lit column 7 (twilight near 0, pale) was hardly different from the columns
    under a grey wash.  Now every other column drops to the deck's background opacity: each dimmed cell is far
    darker than the lit column beside it."""
    scene, _ = final
    d, tb = scene.data, scene.table
    frame = scene.beat_frames["slow"]
    lum = lambda rgb: float(np.asarray(rgb, dtype=float) @ [0.2126, 0.7152, 0.0722])  # noqa: E731
    lit = [lum(pixel(scene, frame, tb.grid.cell(m, d.slow).get_center())) for m in range(d.T)]
    for i in range(d.d // 2):
        if i == d.slow:
            continue
        for m in range(d.T):
            got = lum(pixel(scene, frame, tb.grid.cell(m, i).get_center()))
            assert got < min(lit) - 80, (i, m, got, min(lit))


def test_the_close_dots_and_columns_read_on_the_dark_page(final):
    """Review RB: twilight's middle (an angle near π) is nearly the page's colour, so the close's dots for m = 3
    and 9 almost vanished (about 1.3:1).  Now each dot has a light outline, each lifted column a frame, and the
    dial's rim carries the colour wheel the dots are painted from."""
    scene, frame = final
    d = scene.data
    end = scene.closing_picture
    for path in end.paths:
        for dot in path:
            assert rgb255(dot.get_stroke_color()).tolist() == rgb255(FG).tolist() and dot.get_stroke_width() >= 1
    # at the dot nearest π on the fast dial, its outline is drawn light on the dark page
    m = int(np.argmin(np.abs(d.wrapped[:, d.fast] - np.pi)))
    dot = end.paths[0][m]
    edge = dot.get_center() + np.array([dot.width / 2, 0, 0])
    ring = [pixel(scene, frame, edge + np.array([dx, 0, 0])) for dx in (-0.02, -0.01, 0.0)]
    assert max(np.abs(p.astype(int) - rgb255(BG)).max() for p in ring) > 60
    for f, col in zip(end.frames, scene.lifted):
        assert abs(f.width - col.width) < 0.05 and abs(f.height - col.height) < 0.05
    assert all(len(dial.ring) for dial in end.dials)


def _value_of(shown: str) -> float:
    """A printed rate or angle back as a number: plain digits, 10^e, or the deck's ``a times 10^(e)``."""
    if " times " in shown:
        a, e = shown.split(" times ")
        return float(a) * 10.0 ** float(e[3:].strip("()").replace("−", "-"))
    return shown_value(shown.replace("−", "-"))


def test_each_wedge_angle_is_printed_where_the_wedge_is_too_thin_to_see(final, corners):
    """Review RE (round 3): "a pale wedge on each dial" was said of pairs 4 to 7, whose wedges (6°, 2°, 0.6°,
    0.2°) are under a pixel.  The slow pairs' beat now prints each slow pair's angle at the last row, in radians,
    in its rate's place under its hand (the row renamed (T − 1) θᵢ), and only there: the rates and their name
    are hidden while it shows, and come back with the verdict."""
    for name, scene, records in _every_config(final, corners):
        d, tb = scene.data, scene.table
        nf, P, m = d.n_fast, d.d // 2, d.T - 1
        assert [t.pair for t in tb.turned] == list(range(nf, P)), name
        for t in tb.turned:  # in radians, as beat 04 reads the slowest pair's angle: one unit for the clip
            assert t.radians == float(d.grid[m, t.pair]) == m * d.theta[t.pair], (name, t.pair)
            assert t.typst_code.strip("$ ") == t.shown, (name, t.typst_code)  # the rates' own form: digits or 10^e
            assert abs(_value_of(t.shown) - t.radians) <= 0.13 * t.radians, (name, t.shown, t.radians)
            assert abs(t.get_x() - tb.grid.cell(0, t.pair).get_x()) < 1e-6, (name, t.pair)  # over its own column
            assert t.width <= tb.cell_w, (name, t.pair)
        assert tb.turned_name.typst_code.strip("$ ").startswith(f"{m} "), name
        shown = {it.mid for it in _in(records, "slow_pairs").items if it.opacity >= 0.3}
        assert all(id(t) in shown for t in tb.turned) and id(tb.turned_name) in shown, name
        assert not any(id(t) in shown for t in tb.thetas) and id(tb.theta_name) not in shown, name
        check = next(r for r in records if r.key.startswith("check"))
        back = {it.mid for it in check.items if it.opacity >= 0.3}
        assert not any(id(t) in back for t in tb.turned) and all(id(t) in back for t in tb.thetas), name


def test_a_dimmed_column_recedes_into_the_background(final):
    """Review RE (round 3): the dimmed table read as a light grey veil (≈ #888 in one beat, ≈ #5c5c64 in the
    next): its near-white cells (the cyclic scale's zero) at the deck's dimming stayed bright.  In the fast and the
    slow beats alike, a dimmed cell of the table is now at most a quarter of the way from the page to its colour."""
    scene = final[0]
    d, tb = scene.data, scene.table
    for key, i in (("fast", d.fast), ("slow", d.slow)):
        frame = scene.beat_frames[key]
        j = next(j for j in range(d.d // 2) if j not in (d.fast, d.slow) and j != i)
        cell = tb.grid.cell(d.T - 1, j)
        got = pixel(scene, frame, cell.get_center()).astype(float)
        full = np.array(rgb255(cell.get_fill_color()), dtype=float)
        page = np.array(rgb255(BG), dtype=float)
        share = np.abs(got - page).max() / max(np.abs(full - page).max(), 1.0)
        assert share <= 0.25, (key, j, got, full, share)
