"""13 ``ExtrapolationCliff`` (§11): train length L; walking a position past it, the learned
table ends at ``n_max`` (no row for the position), sinusoidal stays defined but unseen, RoPE's
slow pairs turn to angles never seen in training while fast pairs have wrapped many times.
Ends on the count of RoPE pairs at unseen angles per position beside the table's wall.

The clip reads as a storyboard: the widgets (``scenes.clips.c13_widgets``) lay
themselves out in the regions they are given; colours, scales and proof lines come from the
description the still shares (``scenes.figures.extrapolation``).

Render directly with ``manim -ql scenes/clips/c13_extrapolation_cliff.py ExtrapolationCliff``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Flash,
    LaggedStart,
    ReplacementTransform,
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
from scenes.clips.c13_widgets import CliffChart, PairsAtPosition, SchemeLanes
from scenes.figures.extrapolation import (
    cliff_proof,
    first_missing,
    no_row_text,
)
from scenes.kit import (
    FAILED,
    GAP,
    HIGHLIGHT,
    SMALL,
    ClipScene,
    Region,
    label,
    names,
    shows,
    stage,
)
from scenes.kit.numbers import count
from scenes.kit.plots import vertical


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


def slow_pair(unseen_at_stops: np.ndarray, wrapped: np.ndarray, turns_at_stops: np.ndarray) -> int:
    """The pair the clip shows as "slow": among pairs that did not wrap in training and sit at
    an unseen angle at every stop past training (rows ``1:`` of ``unseen_at_stops: (stops, d/2)``),
    the fastest that has made at most one full turn by the third stop (``turns_at_stops``, same
    shape), else the fastest of them; with no such pair, the slowest pair."""
    always = ~wrapped & unseen_at_stops[1:].all(axis=0)
    calm = np.flatnonzero(always & (turns_at_stops[2] <= 1))
    if calm.size:
        return int(calm[0])
    always = np.flatnonzero(always)
    return int(always[0]) if always.size else int(len(wrapped) - 1)


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
        pairs = (0, slow_pair(unseen_at, wrapped, all_turns))
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

    def caption_values(self) -> dict:
        d = self.data
        fast = int(d.stop_turns[2, 0])
        missing = first_missing(d)
        return {
            "L": count(d.train_length).text, "L_last": count(d.train_length - 1).text, "n_max": count(d.n_max).text,
            "n_last": count(d.n_max - 1).text, "x_max": count(d.x_max).text, "pairs": d.n_pairs,
            "head_dim": d.head_dim, "jump": int(d.stop_counts[1]), "wrapped": d.n_wrapped,
            "fast_turns": f"{count(fast).text} turn{'' if fast == 1 else 's'}",
            "far_count": int(d.stop_counts[3]), "slow": d.pairs[1],
            "no_row": no_row_text(missing) if missing is not None else "every position has a row",
            "proof": "; ".join(cliff_proof(d)),
        }

    def variant(self, key: str) -> str:
        """The worded variant of ``key`` that the measured values make true."""
        d = self.data
        if key == "schemes":
            rows = d.n_max - d.train_length
            return "schemes" if rows > 1 else ("schemes_one" if rows == 1 else "schemes_none")
        if key == "step":
            return "step" if d.stop_counts[1] > 0 else "step_none"
        if key == "wall":
            return "wall" if d.n_max > d.train_length else "wall_same"
        if key == "wrapped":
            return "wrapped" if d.n_wrapped > 0 else "wrapped_none"
        if key == "far":
            return "far" if d.stop_counts[3] > 0 else "far_none"
        if key == "close":
            return "close" if d.stop_counts[1:].any() else "close_none"
        return key

    def x_of(self, m: float) -> float:
        return self.chart.x_of(m)

    def make_mobjects(self) -> None:
        d = self.data
        L, n_max, x_max = d.train_length, d.n_max, d.x_max
        region = self.layout.content
        titles = ("learned table", "sinusoidal")
        thin = label(titles[0], size=SMALL).height  # a thin lane is as tall as its title
        # ---- the chart of unseen RoPE pairs: its position axis is every lane's axis
        self.chart = C = CliffChart(region, d.positions, d.unseen, d.n_pairs, L, n_max,
                                    top_room=SchemeLanes.height(len(titles), thin), title="RoPE: pairs at unseen angles")
        self.plot = C.plot
        shows(C.curve, "unseen")
        names(C.title, "unseen")
        self.L_tick, self.n_tick, self.annotations = C.L_tick, C.n_tick, C.annotations
        self.guides = C.guides
        missing = first_missing(d)
        no_row = no_row_text(missing if missing is not None else n_max)
        # ---- the lanes: large while they are the subject, then thin over the chart
        ax_y = C.plot.axes[0].get_y()
        big_band = Region(region.left, region.right, ax_y + GAP.section, region.top, "lanes")
        big_bar = min(big_band.height / len(titles) - thin - GAP.section, 1)
        self.big = SchemeLanes(big_band, self.x_of, L, n_max, x_max, titles, big_bar, no_row)
        self.lanes = SchemeLanes(C.lanes_band, self.x_of, L, n_max, x_max, titles, thin, no_row)
        self.wall = self.lanes.wall
        self.LANE_A, self.LANE_B = self.lanes.lane_y  # tests read these
        # ---- the walker: a marker through the lanes and on the axis, moved together
        x0 = self.x_of(d.stops[0])
        self.walker = VGroup(*[vertical(x0, y - thin / 2 - GAP.hair, y + thin / 2 + GAP.hair, HIGHLIGHT)
                               for y in self.lanes.lane_y], vertical(x0, ax_y, ax_y + GAP.normal, HIGHLIGHT))
        # ---- the pairs at the walker's position, where the chart was
        spot = Region(region.left, region.right, ax_y + GAP.normal, C.title.get_top()[1], "pairs")
        self.pairs = PairsAtPosition(spot, d.stops, d.stop_masks, d.pairs, d.stop_angles, d.stop_turns, d.arcs,
                                     ("fast", "slow"))
        self.dials = self.pairs.dials
        self.bracket = self.pairs.wrapped_outline(d.wrapped)
        # the close's measured figures: the count at every distinct stop past training
        past = sorted(set(d.stops[1:]))
        self.proof = C.proof_marks(past, [int(d.stop_counts[d.stops.index(m)]) for m in past], d.n_pairs)
        self.wall_box = SurroundingRectangle(self.wall, color=HIGHLIGHT, buff=GAP.tight)

    # readouts the tests read
    @property
    def m_value(self):
        return self.pairs.m.current

    @property
    def count_text(self):
        return self.pairs.count

    def walk(self, stop: int) -> list:
        return [self.walker.animate.set_x(self.x_of(self.data.stops[stop])), *self.pairs.to_stop(stop)]

    def body(self) -> None:
        self.make_mobjects()
        C, B, P = self.chart, self.big, self.pairs
        self.beat("train", FadeIn(B.titles), FadeIn(B.trained), Create(C.plot.axes[0]), FadeIn(C.plot.x_tick_labels),
                  FadeIn(self.L_tick), FadeIn(C.axis_label), run_time=1.4)
        self.beat(self.variant("schemes"), FadeIn(B.untrained), FadeIn(B.unseen), Create(B.wall), FadeIn(self.n_tick),
                  FadeIn(self.annotations.leaders), run_time=1.4)
        # the lanes shrink to the top first; then the chart comes in where they were
        self.beat("rope", LaggedStart(ReplacementTransform(B, self.lanes),
                                      AnimationGroup(FadeIn(C.body), FadeIn(C.title), Create(C.curve), FadeIn(C.area),
                                                     FadeIn(C.guides)), lag_ratio=1), run_time=2.4)
        self.beat("dials", stage([C.body, C.title, C.curve, C.area, C.guides], [P], lag=1), FadeIn(self.walker),
                  run_time=1.6)
        self.beat(self.variant("step"), *self.walk(1), run_time=1.2)
        self.beat(self.variant("wall"), *self.walk(2), Create(self.wall_box), run_time=1.6)
        self.beat("error", Flash(self.wall.get_center(), color=FAILED, line_length=GAP.normal, flash_radius=GAP.wide),
                  FadeOut(self.wall_box), FadeIn(self.lanes.no_row, shift=GAP.tight * UP), run_time=1.0)
        self.fast_box = SurroundingRectangle(VGroup(self.dials[0], self.pairs.words[0]), color=HIGHLIGHT,
                                             buff=GAP.small)
        self.beat(self.variant("wrapped"), Create(self.fast_box), FadeIn(self.bracket), run_time=1.2)
        self.beat(self.variant("far"), FadeOut(self.fast_box), FadeOut(self.bracket), *self.walk(3), run_time=1.6)

    # -- the close: the pairs give way to the chart again, beside the table's wall
    def takeaway(self):
        C = self.chart
        return VGroup(self.lanes, self.lanes.no_row, C, self.proof)

    def closing_key(self) -> str:
        return self.variant("close")

    def bring_forward(self, take, region=None) -> list:
        C = self.chart
        return [stage([self.pairs.on_screen(), self.walker], [C.body, C.title, C.area, C.curve, C.guides, self.proof],
                      lag=1)]

