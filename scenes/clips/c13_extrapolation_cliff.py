"""13 ``ExtrapolationCliff`` (§11): train length L; walking a position past it, the learned
table ends at ``n_max`` (no row for the position), sinusoidal stays defined but unseen, RoPE's
slow pairs turn to angles never seen in training while fast pairs have wrapped many times.

Staged in three pictures, one at a time: the schemes' lanes over the position axis (the table's
wall); then RoPE's pairs at one position, a strip over a pair axis of its own with two dials under
their bars; then the chart of unseen pairs at every position.  Ends on one picture answering for each scheme
(review round 10): three lanes over the lanes' axis, the learned table's untrained rows to its wall and "✗ no
row" past it, sinusoidal's pale blue on to the axis' end, and RoPE's lane on to the end too, pale blue as deep
as its count of pairs at unseen angles (the chart folded into it), labelled with that count at m = L.

The clip reads as a storyboard: the widgets (``scenes.clips.c13_widgets``) lay
themselves out in the regions they are given; colours, scales and proof lines come from the
description the still shares (``scenes.figures.extrapolation``).

Render directly with ``manim -ql scenes/clips/c13_extrapolation_cliff.py ExtrapolationCliff``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    AnimationGroup,
    LaggedStart,
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Flash,
    PI,
    ReplacementTransform,
    Triangle,
    Succession,
    SurroundingRectangle,
    VGroup,
)

from mathcore import (
    ExtrapolationReport,
    extrapolation_report,
    rope_unseen_pairs,
)
from mathcore.config import LectureConfig
from mathcore.extrapolation import (
    LLAMA2,
    pair_angles,
    pair_turns,
    training_arcs,
    unseen_pair_counts,
    wrapped_in_training,
)
from scenes.clips.c13_widgets import (
    CliffChart,
    CloseLanes,
    PairsAtPosition,
    SchemeLanes,
    degree_text,
    first_clear_spot,
)
from scenes.figures.extrapolation import (
    first_missing,
)
from scenes.kit import (
    FAILED,
    GAP,
    HIGHLIGHT,
    LABEL,
    BG,
    SMALL,
    ClipScene,
    Region,
    label,
    math,
    names,
    shows,
    stage,
)
from scenes.kit.binding import claim, role
from scenes.kit.numbers import count
from scenes.kit.plots import STROKE, vertical
from scenes.kit.proofs import worded_line


@dataclass(frozen=True)
class ExtrapolationCliffData:
    """What clip 13 draws, all from mathcore and the config.

    ``positions: (n,)`` are ``1..x_max`` (``x_max = FAR·n_max``); ``unseen[k]`` is the number of
    RoPE pairs (head dim ``head_dim``) at angles never seen in training at ``positions[k]``.
    ``stops`` are the walker's keyframes; ``report`` asks every scheme for them
    (``extrapolation_report``); ``stop_masks[s, i]``: pair ``i`` is at an unseen angle at stop
    ``s``; ``wrapped[i]``: pair ``i`` went all the way round in training; ``stop_*`` give the two
    dials' pairs at each stop.  The slow pair is chosen by measurement (:func:`slow_pair`)."""

    train_length: int
    n_max: int
    x_max: int
    head_dim: int
    base: float
    positions: np.ndarray
    unseen: np.ndarray
    n_wrapped: int  # pairs that went all the way round in training
    stops: tuple[int, ...]
    report: ExtrapolationReport
    pairs: tuple[int, int]  # (fast, slow) pair indices shown on dials
    arcs: np.ndarray  # (2,) the training arc of each shown pair
    stop_angles: np.ndarray  # (len(stops), 2) angle mod 2π of each shown pair at each stop
    stop_turns: np.ndarray  # (len(stops), 2) full turns made by each stop
    stop_unseen: np.ndarray  # (len(stops), 2) bool: the shown pair is at an unseen angle
    stop_counts: np.ndarray  # (len(stops),) unseen pairs (of head_dim/2) at each stop
    train_turns: int = 0  # full turns the fast pair made within training (positions 0..L-1)
    stop_masks: np.ndarray | None = None  # (len(stops), head_dim/2) bool: every pair, unseen at each stop
    wrapped: np.ndarray | None = None  # (head_dim/2,) bool

    @property
    def n_pairs(self) -> int:
        return self.head_dim // 2


def step_pair(unseen_at_stops: np.ndarray, wrapped: np.ndarray) -> int:
    """The pair the second dial shows: the one whose single step past training is largest, so the dial can show it
    (review round 4: pair 31's 0.66° could not be seen).  Pairs turn slower with ``i``, so it is the first pair that
    did not wrap in training yet sits at an unseen angle one step past it (row 1 of ``unseen_at_stops: (stops,
    d/2)``); never pair 0, the first dial's.  With no such pair (training wrapped them all), the slowest pair."""
    step = np.flatnonzero(~wrapped & unseen_at_stops[1])
    step = step[step > 0]
    return int(step[0]) if step.size else int(len(wrapped) - 1)


def past_arc_range(data) -> tuple[float, float]:
    """How far past the end of its training arc each pair that is unseen one step past training sits there, in
    degrees (``(L·θᵢ − (L − 1)·θᵢ)`` for a pair that did not wrap: its one step θᵢ): the smallest and the largest.
    ``(0, 0)`` when no pair is unseen at ``m = L``."""
    from mathcore.extrapolation import pair_angles as angles, training_arcs as arcs

    d, L = data.head_dim, data.train_length
    mask = data.stop_masks[1]
    if not mask.any():
        return 0.0, 0.0
    over = np.degrees(angles(L, d, data.base) - arcs(d, L, data.base))[mask]
    return float(over.min()), float(over.max())


class ExtrapolationCliff(ClipScene):
    """13 · The extrapolation cliff: walking a position past the training length."""

    FAR = 4  # the walk ends at FAR · n_max

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> ExtrapolationCliffData:
        L, n_max, base = cfg.train_length, cfg.n_max, cfg.rope_base
        d = LLAMA2.head_dim
        x_max = cls.FAR * n_max
        positions = np.arange(1, x_max + 1)
        stops = (L - 1, L, n_max, x_max)
        unseen_at = rope_unseen_pairs(list(stops), d, L, base)
        wrapped = wrapped_in_training(d, L, base)
        all_turns = np.array([pair_turns(m, d, base) for m in stops])
        pairs = (0, step_pair(unseen_at, wrapped))
        return ExtrapolationCliffData(
            train_length=L, n_max=n_max, x_max=x_max, head_dim=d, base=base,
            positions=positions, unseen=unseen_pair_counts(positions, d, L, base),
            n_wrapped=int(wrapped.sum()), stops=stops,
            report=extrapolation_report(list(stops), d, n_max, cfg.seed, base),
            pairs=pairs, arcs=training_arcs(d, L, base)[list(pairs)],
            stop_angles=np.array([pair_angles(m, d, base)[list(pairs)] for m in stops]),
            stop_turns=all_turns[:, list(pairs)], stop_unseen=unseen_at[:, list(pairs)],
            stop_counts=unseen_at.sum(axis=1), train_turns=int(pair_turns(L - 1, d, base)[0]),
            stop_masks=unseen_at, wrapped=wrapped,
        )

    STAGED = True
    UNTRAINED_BLANK = {"empty": "the lanes stop at L on purpose: the positions past training are still blank on the "
                                "axis, and the next beat colours them"}
    UNTRAINED_BLANK["sparse"] = UNTRAINED_BLANK["empty"] + " (a short training length: a sliver of the axis)"
    WALL_ENDS = {"empty": "the learned lane ends at its wall: the blank after it is the table's missing rows, the "
                          "point of these beats"}
    FULL_CHART = {"empty": "the chart spans the content area; only its curve's and area's boxes are counted, not the "
                           "axes' hairlines and grid, and the count is zero (a line on the axis) up to L"}

    def caption_values(self) -> dict:
        d = self.data
        fast = int(d.stop_turns[3, 0])
        missing = first_missing(d)
        v = {
            "L": count(d.train_length).text, "L_last": count(d.train_length - 1).text, "n_max": count(d.n_max).text,
            "n_last": count(d.n_max - 1).text, "x_max": count(d.x_max).text, "pairs": d.n_pairs,
            "head_dim": d.head_dim, "jump": int(d.stop_counts[1]), "wrapped": d.n_wrapped,
            "fast_turns": f"{count(fast).text} turn{'' if fast == 1 else 's'}",
            "far_count": int(d.stop_counts[3]), "slow": d.pairs[1], "back": self.came_back(),
            "no_row": f"no row for m = {count(missing).text}" if missing is not None else "every position has a row",
            "past_lo": degree_text(past_arc_range(d)[0]), "past_hi": degree_text(past_arc_range(d)[1]),
            "wedge": "", "past_where": "over the chart a line", "red": "a red tint", "marks5": "framed in yellow",
            "lane": "The learned table's lane", "lane_red": ", then its untrained rows in red to", "wall": "a red wall",
            "table_says": self.table_says(), "cross": "a red cross", "trio": "three lanes", "sin": "pale blue",
            "stack": "pale blue", "mark": "a yellow dot",
            "band_lo": int(d.unseen[d.train_length - 1:].min()), "band_hi": int(d.unseen[d.train_length - 1:].max()),
        }
        if not hasattr(self, "trio"):  # the title card: nothing drawn yet
            return v
        B, P, R = self.big, self.pairs, self.ruler
        axis = (R.plot.axes[0], R.plot.x_tick_labels)
        phase = getattr(self, "phase", "lanes")
        if phase == "lanes":
            v.update(L=claim(v["L"], R.L_tick), L_last=claim(v["L_last"], R.L_tick), n_max=claim(v["n_max"], R.n_tick),
                     n_last=claim(v["n_last"], R.n_tick), x_max=claim(v["x_max"], *axis),
                     no_row=claim(v["no_row"], B.no_row), lanes=claim("two lanes", B.trained),
                     pale=claim("pale blue", *[m for m in (B.unseen,) if len(m.points)]),
                     red=claim("a red tint", B.untrained) if len(B.untrained.points) else "a red tint",
                     wall=claim("a red wall", B.wall), walker=claim("a yellow marker", self.walker),
                     walker_at=claim(f"m = {v['n_max']}", self.walker_label),
                     wall_box=claim("framed in yellow", self.wall_box))
        elif phase == "pairs":
            v.update(m_now=claim(f"m = {count(d.stops[P.stop]).text}", P.m.current),
                     L_last=claim(v["L_last"], P.m.current), L=claim(v["L"], P.m.current),
                     x_max=claim(v["x_max"], P.m.current), pairs=claim(str(d.n_pairs), P.count),
                     jump=claim(str(v["jump"]), P.count), far_count=claim(str(v["far_count"]), P.count),
                     strip=claim(f"a strip of all {d.n_pairs} pairs", P.strip, P.pair_axis),
                     dials=claim("two dials", *P.dials), marks5=claim("framed in yellow", P.marks), arcs=claim("the arc training covered", P.arcs),
                     slow=claim(str(d.pairs[1]), P.words[1]), wrapped=claim(str(d.n_wrapped), self.bracket.tag)
                     if len(self.bracket) else v["wrapped"], bracket=claim("A yellow frame", self.bracket)
                     if len(self.bracket) else claim("The fast pair's dial", P.dials[0]),
                     fast_box=claim("the fast pair's dial", self.fast_box),
                     slow_hand=claim(self.slow_hand_text(), *P.words[1].where),
                     wedge=self.wedge_text(),
                     head_dim=claim(str(d.head_dim), P.pair_axis),
                     back=claim(str(self.came_back()), self.back_marks) if P.stop == 3 and self.came_back()
                     else str(self.came_back()))
        elif phase == "chart":  # the count at every position, large
            G = self.chart_big
            dot, word = self.proof_big.dots[0], self.proof_big.words[0]
            v.update(L=claim(v["L"], G.L_tick), L_last=claim(v["L_last"], G.L_tick),
                     x_max=claim(v["x_max"], G.plot.x_tick_labels),
                     chart=claim("a chart of unseen pairs per position", G.curve, G.title),
                     jump=claim(str(v["jump"]), G.curve, word),
                     pairs=claim(str(d.n_pairs), G.plot.y_tick_labels, word),
                     band_lo=claim(str(v["band_lo"]), G.curve), band_hi=claim(str(v["band_hi"]), G.curve),
                     past_lo=claim(self.past_lo, self.past_big), past_hi=claim(self.past_hi, self.past_big),
                     past_where=claim("over the chart a line", self.past_big),
                     area=claim("slate grey", G.area), mark=claim("a yellow dot", dot))
        else:  # the close: the three lanes over the lanes' axis
            T = self.trio
            n_by = T.n_tick if len(T.n_tick) or len(T.n_tick.points) else R.n_tick
            v.update(L=claim(v["L"], R.L_tick), n_max=claim(v["n_max"], n_by), x_max=claim(v["x_max"], *axis),
                     trio=claim("three lanes", T.titles, T.trained, T.unseen, T.rope),
                     table_says=claim(v["table_says"], T.trained[0], T.wall, *([T.untrained] if len(T.untrained.points)
                                                                              else [])),
                     lane=claim("The learned table's lane", T.titles[0], T.trained[0]),
                     lane_red=claim(": past L, its untrained row" + ("" if d.n_max - d.train_length == 1 else "s")
                                    + " in red to", T.untrained) if len(T.untrained.points)
                     else claim(", ending at", T.wall),
                     wall=claim("a red wall", T.wall), cross=claim("a red cross", T.no_row.check),
                     sin=claim("pale blue", T.unseen),
                     stack=claim("pale blue", T.stack) if len(T.stack.points) else "no pale blue",
                     mark=claim("a yellow dot", T.dot),
                     jump=claim(str(v["jump"]), T.count, T.dot), pairs=claim(str(d.n_pairs), T.count))
        return v

    def wedge_text(self):
        """The second dial's rim past its arc (review round 7: no zoom, the figure printed once, in its words)."""
        P = self.pairs
        if not len(P.overs[1]):
            return ""
        return claim(", the rim running on in pale blue from the arc's end to the hand", P.overs[1])

    def table_says(self) -> str:
        """The close's words on the learned table, as its verdict prints it: untrained rows from L (when the table
        has rows past training), and none from nₘₐₓ."""
        d = self.data
        end = first_missing(d)
        end = d.n_max if end is None else end
        if d.report.learned_defined[1] and d.stops[1] >= d.train_length:
            if end - d.train_length == 1:
                return f"The table's row {count(d.train_length).text} is untrained, and it has none from {count(end).text}"
            return f"The table's rows go untrained at {count(d.train_length).text} and run out at {count(end).text}"
        return f"The table runs out of rows at {count(end).text}"

    def slow_hand_text(self) -> str:
        """Where the second dial's hand sits against its training arc, as its words print it now."""
        P = self.pairs
        hand, arc = P.degrees(1, P.stop)
        i = P.pairs[1]
        if arc is None:
            return f"pair {i}'s hand, at ≈ {hand}°, sits on its full violet circle"
        past = P.past_arc(1, P.stop)
        if past is not None:
            return f"pair {i}'s hand, at ≈ {hand}°, has gone ≈ {past}° past the end of its arc"
        return f"pair {i}'s hand, at ≈ {hand}°, is still on its violet arc"

    def variant(self, key: str) -> str:
        """The worded variant of ``key`` that the measured values make true."""
        d = self.data
        if key == "schemes":
            rows = d.n_max - d.train_length
            return "schemes" if rows > 1 else ("schemes_one" if rows == 1 else "schemes_none")
        if key == "step":
            return ("step" if self.just_past() else "step_wide") if d.stop_counts[1] > 0 else "step_none"
        if key == "wall":
            return "wall" if d.n_max > d.train_length else "wall_same"
        if key == "wrapped":
            return "wrapped" if d.n_wrapped > 0 else "wrapped_none"
        if key == "far":
            return ("far" if self.came_back() else "far_plain") if d.stop_counts[3] > 0 else "far_none"
        if key == "chart" and d.stop_counts[1:].any() and d.stop_counts[1] > 0 and not self.just_past():
            return "chart_wide"
        if key in ("chart", "close"):
            return key if d.stop_counts[1:].any() else f"{key}_none"
        return key

    JUST = 10.0  # degrees: a pair at most this far past its arc one step on is "just past" it

    def just_past(self) -> bool:
        """Every pair unseen one step past training is at most :attr:`JUST` degrees past its arc's end (the shipped
        config: 0.007° to 5.0°); a short training length (L = 2: up to 57°) is not "just past"."""
        return past_arc_range(self.data)[1] <= self.JUST

    def came_back(self) -> int:
        """Pairs that had not wrapped in training yet sit at a seen angle at the walk's end: their angle m·θᵢ has
        gone past 2π since, back onto the arc training swept (mθᵢ mod 2π ≤ (L − 1)θᵢ needs mθᵢ ≥ 2π)."""
        return int(self.back_pairs().size)

    def back_pairs(self) -> np.ndarray:
        """The pairs :meth:`came_back` counts, by index."""
        d = self.data
        return np.flatnonzero(~d.wrapped & ~d.stop_masks[3])

    def x_of(self, m: float) -> float:
        return self.ruler.x_of(m)

    def make_mobjects(self) -> None:
        d = self.data
        L, n_max, x_max = d.train_length, d.n_max, d.x_max
        region = self.layout.content
        titles = ("learned table", "sinusoidal")
        jump = int(d.stop_counts[1])
        # the lanes' ruler: the position axis with L and nₘₐₓ under it (the chart's axis maps positions alike)
        # (nₘₐₓ by the wall in the lanes, where it fits: see below)
        self.ruler = R = CliffChart(region, d.positions, d.unseen, d.n_pairs, L, n_max, top_room=0.0, title="",
                                    n_label=False)
        # how far past its arc each pair is one step on (review round 4: "a cliff" read as "far off"), over the
        # chart beat's chart (review round 6: beside L's line it read as the positions before L); rounded: "≈"
        lo, hi = past_arc_range(d)
        self.past_lo, self.past_hi = degree_text(lo), degree_text(hi)
        # (review round 9: over a chart out to 4096 the line read as true at every m; it is measured at m = L)
        at_L = f"at m = {count(L).text},"
        lead = f"{at_L} each only just past its arc:" if self.just_past() else f"{at_L} each past its arc by"
        self.past_big = VGroup(worded_line(f"{lead} ≈ {self.past_lo}° to {self.past_hi}°", size=SMALL)) if jump \
            else VGroup()
        title = "pairs at unseen angles, per position"
        self.chart_big, self.proof_big = self._chart(region, self.past_big.height + GAP.normal if jump else 0.0, title)
        if jump:
            self.past_big.move_to([self.chart_big.title.get_left()[0], region.top, 0], aligned_edge=UP + LEFT)
        # the tests' names for the chart (the close folds its area into RoPE's lane)
        self.chart, self.plot, self.guides = self.chart_big, self.chart_big.plot, self.chart_big.guides
        missing = first_missing(d)
        at = missing if missing is not None else n_max
        # ---- the lanes, large over the axis
        thin = label(titles[0], size=SMALL).height
        ax_y = R.plot.axes[0].get_y()
        big_band = Region(region.left, region.right, ax_y + GAP.normal, region.top, "lanes")
        big_bar = min(big_band.height / len(titles) - thin - 2 * GAP.small, 1.6)
        self.big = B = SchemeLanes(big_band, self.x_of, L, n_max, x_max, titles, big_bar, "no row for",
                                   f"m = {count(at).math}")
        self.lanes = B
        self.wall = B.wall
        self.LANE_A, self.LANE_B = B.lane_y  # tests read these
        # nₘₐₓ written by its wall, between the lanes, left of the frame the wall gets (review round 6: under the
        # axis it pushed out the decade 1000 the chart's axis keeps); where it does not fit there, under the axis
        xn = self.x_of(n_max)
        self.n_in_lanes = False
        if len(B.untrained.points) and len(B.unseen.points):
            n_tick = R.n_tick
            lo, hi = B.unseen.get_top()[1] + GAP.hair, B.untrained.get_bottom()[1] - GAP.hair
            # clear of the yellow frame the wall gets next beat by a full gap (review round 7: it nearly touched)
            right = xn - B.wall.get_stroke_width() / 200 - GAP.tight - GAP.normal
            spot = first_clear_spot(n_tick, [lambda m: m.move_to([right, (lo + hi) / 2, 0], aligned_edge=RIGHT)],
                                    [B.titles, B.trained, B.untrained, B.unseen, B.words],
                                    bounds=Region(region.left, xn, lo, hi, "between lanes"))
            self.n_in_lanes = spot >= 0
        if not self.n_in_lanes:  # the ruler again, nₘₐₓ under its axis (its positions map alike)
            self.ruler = R = CliffChart(region, d.positions, d.unseen, d.n_pairs, L, n_max, top_room=0.0, title="")
        self.L_tick, self.n_tick, self.annotations = R.L_tick, R.n_tick, R.annotations
        # ---- the walker: a marker through the lanes and on the axis, at the table's last row
        xw = self.x_of(n_max)
        half = big_bar / 2 + GAP.tight  # clear of the lane titles over the bars
        # over the learned lane a pointer above the wall, not a line down it (review round 4: buried in the red);
        # through the sinusoidal lane, which goes on past it, a line
        tip = B.wall.get_top()[1] + GAP.tight + GAP.hair  # clear of the frame the wall gets
        pointer = Triangle(fill_color=HIGHLIGHT, fill_opacity=1.0, stroke_width=0).rotate(PI)
        pointer.scale_to_fit_height(thin * 0.7).move_to([xw, tip, 0], aligned_edge=DOWN)
        # through the pale sinusoidal lane the yellow line runs in a dark casing (review round 6: ~1.3:1 on pale blue)
        cased = [VGroup(vertical(xw, y - half, y + half, BG, 4 * STROKE), vertical(xw, y - half, y + half, HIGHLIGHT,
                                                                                  2 * STROKE))
                 for y in B.lane_y[1:]]
        self.walker = role(VGroup(pointer, *cased,
                                  vertical(xw, ax_y, ax_y + GAP.normal, HIGHLIGHT)), "highlight")
        self.wall_box = role(SurroundingRectangle(self.wall, color=HIGHLIGHT, buff=GAP.tight), "highlight")
        # the marker says where it stands (review round 3: a bare dashed line left m to be inferred): beside the
        # framed wall, past it on the learned lane, else over it on the title's row
        self.walker_label = role(math(f"m = {count(n_max).math}", size=LABEL, color=HIGHLIGHT), "highlight")
        first_clear_spot(self.walker_label, [
            lambda m: m.next_to(self.wall_box, RIGHT, buff=GAP.small).set_y(B.lane_y[0]),
            lambda m: m.next_to(self.wall_box, UP, buff=GAP.tight),
            lambda m: m.next_to(self.wall_box, LEFT, buff=GAP.small).align_to(B.titles[0], UP),
        ], [B.titles, B.trained, B.untrained, B.unseen, B.words, self.walker,
            *([self.n_tick] if self.n_in_lanes else [])], bounds=region)
        # ---- the pairs at one position, on axes of their own, filling the content area
        self.pairs = PairsAtPosition(region, d.stops, d.stop_masks, d.pairs, d.stop_angles, d.stop_turns, d.arcs)
        self.dials = self.pairs.dials
        self.bracket = self.pairs.wrapped_outline(d.wrapped)
        # the far stop: each pair come round onto its arc again framed on its own, so the count can be read off
        self.back_marks = self.pairs.outlines(self.back_pairs())
        self.fast_box = role(SurroundingRectangle(VGroup(self.dials[0], self.pairs.words[0]), color=HIGHLIGHT,
                                                  buff=GAP.small), "highlight")
        # ---- the close: the three schemes past training, three lanes over the lanes' axis (review round 10: the
        # close was a dashboard of six parts, sinusoidal missing from it); taller than the two lanes were, the band
        # split in three
        bar3 = min(big_band.height / len(CloseLanes.TITLES) - thin - 2 * GAP.small, 1.2)
        self.trio = CloseLanes(big_band, R.plot, d.positions, d.unseen, d.n_pairs, L, n_max, x_max, jump, bar3,
                               n_label=self.n_in_lanes)

    def _chart(self, region: Region, top_room: float, title: str):
        """The chart beat's chart, ``top_room`` under the region's top, and its count one step past training."""
        d = self.data
        C = CliffChart(region, d.positions, d.unseen, d.n_pairs, d.train_length, d.n_max, top_room=top_room,
                       title=title, lanes=False)
        shows(C.curve, "unseen")
        names(C.title, "unseen")
        mark = C.proof_marks([d.stops[1]], [int(d.stop_counts[1])], d.n_pairs)
        for m in (*mark.dots, *mark.leaders):
            role(m, "highlight")
        C.settle_L([mark])
        return C, mark

    # readouts the tests read
    @property
    def m_value(self):
        return self.pairs.m.current

    @property
    def count_text(self):
        return self.pairs.count

    def pairs_now(self) -> VGroup:
        """The pairs' picture as it stands after the far stop (its markers gone, the come-back frames up)."""
        P = self.pairs
        return VGroup(P.strip, P.pair_axis, P.count, P.m.current, *P.dials, P.arcs, *P.overs, *P.words,
                      self.back_marks)

    def walk(self, stop: int) -> list:
        return self.pairs.to_stop(stop)

    def body(self) -> None:
        self.make_mobjects()
        B, P, R = self.big, self.pairs, self.ruler
        axis = R.axis
        lanes = VGroup(B, axis, *([self.n_tick] if self.n_in_lanes else []))
        # ---- 1. the lanes over the position axis
        self.phase = "lanes"
        self.beat("train", FadeIn(B.titles), FadeIn(B.trained), FadeIn(B.seen_words), Create(R.plot.axes[0]), FadeIn(R.plot.x_tick_labels),
                  FadeIn(self.L_tick), FadeIn(R.axis_label), run_time=1.4, subject=lanes, why=self.UNTRAINED_BLANK)
        self.beat(self.variant("schemes"), FadeIn(B.untrained), FadeIn(B.unseen), FadeIn(B.unseen_words), Create(B.wall), FadeIn(self.n_tick),
                  FadeIn(self.annotations.leaders), run_time=1.4, subject=lanes, why=self.WALL_ENDS)
        self.beat(self.variant("wall"), FadeIn(self.walker), Create(self.wall_box), FadeIn(self.walker_label),
                  run_time=1.4, subject=VGroup(lanes, self.walker, self.wall_box, self.walker_label),
                  why=self.WALL_ENDS)
        self.beat("error", Flash(self.wall.get_center(), color=FAILED, line_length=GAP.normal, flash_radius=GAP.wide),
                  FadeOut(self.wall_box), FadeOut(self.walker_label), FadeIn(B.no_row, shift=GAP.tight * UP), run_time=1.0,
                  subject=VGroup(lanes, self.walker, B.no_row), why=self.WALL_ENDS)
        # ---- 2. RoPE's pairs at one position, on axes of their own
        self.phase = "pairs"
        # the strip first, then the two dials under their bars (review round 3: both at once read as a dashboard)
        strip = VGroup(P.strip, P.pair_axis, P.count, P.m.current, P.marks)
        self.beat("rope", Succession(stage([lanes, self.walker, B.no_row], [strip], lag=1), FadeIn(P.dial_group)),
                  run_time=2.4, subject=P)
        self.beat(self.variant("step"), *self.walk(1), run_time=1.2, subject=P)
        # framed as it reads now (its words changed width at the step)
        self.fast_box = role(SurroundingRectangle(VGroup(self.dials[0], P.words[0]), color=HIGHLIGHT, buff=GAP.small),
                             "highlight")
        # the shown pairs' own markers give way while the bracket (which holds bar 0) is up: one yellow frame, not two
        # nested at bar 0, nor two abutting at the bracket's end (review round 6: bar 17's)
        nested = list(P.marks) if len(self.bracket) else []
        self.beat(self.variant("wrapped"), Create(self.fast_box), FadeIn(self.bracket), *map(FadeOut, nested),
                  run_time=1.2, subject=VGroup(P, self.fast_box, self.bracket))
        # the shown pairs' markers give way to one frame per pair come back: the yellow frames are the ones counted
        shown = [m for m in P.marks if m not in nested]
        self.beat(self.variant("far"), FadeOut(self.fast_box), FadeOut(self.bracket), *map(FadeOut, shown),
                  *self.walk(3), *([FadeIn(self.back_marks)] if len(self.back_marks) else []), run_time=1.6,
                  subject=VGroup(P, self.back_marks))
        # ---- 3. the count at every position
        self.phase = "chart"
        # the count one step past training, written where the curve jumps (the close adds the far end's)
        # with RoPE's measured line over it and how far past their arcs the pairs are (review round 6: the top third
        # stood empty, and the figures beside L's line read as the positions before L)
        G = self.chart_big
        self.beat(self.variant("chart"), stage([self.pairs_now()], [G.axis, G.body, G.title, G.area, G.curve, G.guides,
                                                                 self.proof_big, self.past_big], lag=1),
                  run_time=1.8, subject=VGroup(G, self.proof_big, self.past_big), why=self.FULL_CHART)
        self.phase = "close"

    # -- the close: the three schemes past training, three lanes over one position axis (review round 10)
    def takeaway(self):
        return VGroup(self.trio, self.ruler.axis)

    def closing_key(self) -> str:
        return self.variant("close")

    def closing(self) -> None:
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=2.2, hold=self.CLOSING_HOLD, subject=take,
                  why=self.WALL_ENDS)

    def bring_forward(self, take, region=None) -> list:
        # the chart's count folds into RoPE's lane (the same counts, as the depth of its pale blue) as the chart's
        # furniture leaves; then the lanes' axis and the three lanes come in round it (one picture after the other,
        # not two cross-faded)
        G, T = self.chart_big, self.trio
        rest = [m for m in T.submobjects if m is not T.stack]
        G.area.set_z_index(T.stack.z_index)  # over RoPE's violet as it comes in
        fold = [ReplacementTransform(G.area, T.stack)] if len(T.stack.points) else [FadeOut(G.area)]
        outs = AnimationGroup(FadeOut(G.axis), FadeOut(G.body), FadeOut(G.title), FadeOut(G.curve), FadeOut(G.guides),
                              FadeOut(self.proof_big), *([FadeOut(self.past_big)] if len(self.past_big) else []),
                              *fold)
        ins = AnimationGroup(FadeIn(self.ruler.axis), *[FadeIn(m) for m in rest])
        return [LaggedStart(outs, ins, lag_ratio=0.6)]
