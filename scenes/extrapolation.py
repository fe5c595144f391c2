"""Positions pushed to their limits.

12 ``PositionalDilution`` (§10): ``c(m) = cos(PE_0, PE_m)`` for ``m = 1 … dilution_t_max`` on a
log axis, for sinusoidal positions of a few widths; each curve is the computed one (drawn from
real samples only).  The marker is measured by :func:`mathcore.extrapolation.ambiguity_onset`:
the first position ``m*`` that some position ``n`` at least twice as far matches in similarity
to position 0, so similarity stops ranking distance.  Ends on where positions blur, per width.

13 ``ExtrapolationCliff`` (§11): train length L; walking a position past it, the learned
table ends at ``n_max`` (no row for the position), sinusoidal stays defined but unseen, RoPE's
slow pairs turn to angles never seen in training while fast pairs have wrapped many times.
Ends on the count of RoPE pairs at unseen angles per position beside the table's wall.

14 ``GPT2ToLLaMA`` (Q4): GPT-2's learned table (n_max × d), then LLaMA's RoPE (no table, no
cap), tied to clip 13; ends on n_max rows against rotations defined at any m (lecture 6).

Each clip reads as a storyboard: the widgets (``scenes.kit.position_charts``) lay
themselves out in the regions they are given; colours, scales and proof lines come from the
description the stills share (``scenes.figures.extrapolation``).

Render directly with ``manim -ql scenes/extrapolation.py PositionalDilution``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, AnimationGroup, Create, FadeIn, FadeOut, Flash, LaggedStart, \
    Group, ReplacementTransform, SurroundingRectangle, VGroup

from mathcore import ExtrapolationReport, extrapolation_report, learned_absolute_table, rope_unseen_pairs, \
    sinusoidal_dilution
from mathcore.config import LectureConfig
from mathcore.extrapolation import (GPT2, LLAMA2, LLAMA3, AmbiguityOnset, ModelFacts, ambiguity_onset, pair_angles,
                                    pair_turns, pairs_without_a_turn, rope_wavelengths, training_arcs,
                                    unseen_pair_counts, wrapped_in_training)
from scenes.figures.extrapolation import (base_colors, base_relation, cliff_proof, first_missing, no_row_text,
                                          onsets_line, ordinal, power_range, sample_rows, table_proof, table_scale,
                                          width_colors)
from scenes.kit import (DIM, FAILED, FG, GAP, HEADING, HIGHLIGHT, LABEL, SMALL, ClipScene, N, Region, VectorDial,
                        column, fmt_measure, label, math, names, row, shows, stage)
from scenes.kit.position_charts import (CliffChart, DilutionPanels, PairsAtPosition, SchemeLanes, TableView,
                                              WavelengthChart, capped_table, vertical)
from scenes.kit.numbers import count


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def others(scene, keep) -> Group:
    """Every drawn part on screen but the header and ``keep``: what the closing beat lets go."""
    kept = {id(f) for m in (*keep, scene.header) for f in m.get_family()}
    return Group(*[f for m in scene.mobjects for f in m.get_family()
                   if id(f) not in kept and len(getattr(f, "points", ())) and not f.submobjects])


# ====================================================================== 12 PositionalDilution
@dataclass(frozen=True)
class PositionalDilutionData:
    """``t: (n,)`` positions ``1..t_max``; ``cos: (len(widths), n)`` with ``cos[k, m-1] = cos(PE_0, PE_m)``
    at width ``widths[k]`` (``mathcore.sinusoidal_dilution``); ``onsets[k]`` from ``ambiguity_onset``;
    ``onset_m[k]`` the onset ``m*`` (NaN where none comes up to ``t_max``)."""

    t: np.ndarray
    cos: np.ndarray
    widths: tuple[int, ...]
    base: float
    factor: float
    onsets: tuple[AmbiguityOnset, ...]
    onset_m: np.ndarray = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "onset_m", np.array([np.nan if o.t is None else o.t for o in self.onsets], float))

    @property
    def x_range(self) -> tuple[int, int]:
        return 1, int(self.t[-1])

    # -- measured facts the narration chooses its words by
    def wiggle(self, k: int) -> float:
        """Mean step ``|c(m+1) − c(m)|`` of curve ``k``: how much it swings from one position to the next."""
        return float(np.mean(np.abs(np.diff(self.cos[k]))))

    def swing(self, k: int) -> float:
        """The span of curve ``k`` over its last half (``max − min``)."""
        row_ = self.cos[k]
        return float(np.ptp(row_[len(row_) // 2:]))

    def swings(self, k: int) -> bool:
        """Curve ``k`` still swings over its last half: its values there span at least half the way to 0 from 1."""
        return self.swing(k) >= 1 / 2

    def falls_steadily(self, k: int) -> bool:
        """Curve ``k`` never rises: ``c(m+1) <= c(m)`` for every ``m``."""
        return bool(np.all(np.diff(self.cos[k]) <= 0))

    def by_width(self) -> list[int]:
        """Curve indices ordered by width (the config may list widths in any order)."""
        return sorted(range(len(self.widths)), key=lambda k: (self.widths[k], k))

    def wider_is_smoother(self) -> bool:
        """Every larger width wiggles strictly less (widths all different)."""
        order = self.by_width()
        if len(set(self.widths)) != len(self.widths) or len(order) < 2:
            return False
        w = [self.wiggle(k) for k in order]
        return all(b < a for a, b in zip(w, w[1:]))

    def wider_waits_longer(self) -> bool:
        """Onsets never come earlier at a larger width (no onset counts as later than any), and the
        widest comes later than the narrowest."""
        t = [self.onsets[k].t if self.onsets[k].t is not None else np.inf for k in self.by_width()]
        return len(set(self.widths)) > 1 and all(b >= a for a, b in zip(t, t[1:])) and t[-1] > t[0]


class PositionalDilution(ClipScene):
    """12 · Positional dilution: far positions blur together."""

    FACTOR = 2.0  # "a position at least twice as far"

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PositionalDilutionData:
        t, cos = sinusoidal_dilution(cfg.dilution_t_max, cfg.dilution_widths, cfg.rope_base)
        return PositionalDilutionData(
            t=t, cos=cos, widths=tuple(cfg.dilution_widths), base=cfg.rope_base, factor=cls.FACTOR,
            onsets=tuple(ambiguity_onset(row_, cls.FACTOR) for row_ in cos),
        )

    def caption_values(self) -> dict:
        d = self.data
        order = d.by_width()
        found = [(d.widths[k], d.onsets[k]) for k in order if d.onsets[k].t is not None]
        clear = [str(d.widths[k]) for k in order if d.onsets[k].t is None]
        parts = [f"{count(o.t)} at d = {w}" for w, o in found]
        return {
            "t_max": count(d.t[-1]).text,
            "widths": and_list([str(d.widths[k]) for k in order]),
            "first_width": d.widths[order[0]],
            "swing": fmt_measure(d.swing(order[0])),
            "onsets": "; ".join(parts) if parts else "nowhere",
            "onsets_line": onsets_line(d),
            "blurred": and_list([str(w) for w, _ in found]),
            "clear": and_list(clear),
            "n_widths": len(d.widths),
        }

    # -- which words are true for these numbers
    def variant(self, key: str) -> str:
        d = self.data
        n = len(d.widths)
        found = sum(o.t is not None for o in d.onsets)
        first = d.by_width()[0]
        if key == "first":
            if d.falls_steadily(first):
                return "first_steady"
            return "first" if d.swings(first) else "first_wobbles"
        if key == "wider":
            smooth = d.wider_is_smoother()
            all_wiggle = not any(d.falls_steadily(k) for k in range(n))
            if smooth and all_wiggle:
                return "wider"
            return "wider_smoother" if smooth else "wider_differ"
        if key in ("marks", "meaning"):
            return key if found == n else (f"{key}_some" if found else f"{key}_none")
        if key == "close":
            if found == n:
                if n == 1:
                    return "close_one"
                return "close" if d.wider_waits_longer() else "close_all"
            return "close_some" if found else "close_none"
        return key

    def make_mobjects(self) -> None:
        d = self.data
        order = d.by_width()
        self.colors = width_colors(d.widths)
        # ---- what is plotted, then the rule behind m* (shown at its beat), each on one math line
        self.formula = math(f"c({N.position.math}) = cos({N.encoding_matrix.math}_0, {N.encoding.math}), "
                            f"quad {base_relation(d.base)}")
        self.kind = label("sinusoidal encodings", size=SMALL, color=DIM)
        self.rule = math(f"m^* = min{{m : c(n) >= c(m) \"for some\" n >= {d.factor:g} m}}")
        strip, rest = self.layout.content.take_top(self.formula.height, gap=GAP.small)
        strip.place(self.formula, LEFT)
        strip.place(self.kind, RIGHT)
        strip, rest = rest.take_top(self.rule.height, gap=GAP.normal)
        strip.place(self.rule, LEFT)
        # ---- one panel per width on one log position axis, narrowest on top
        self.figure = P = DilutionPanels(rest, d.t, d.cos, d.widths, d.onsets, self.colors, order,
                                         x_label=math(f'"position" {N.position.math}', size=SMALL))
        self.panels, self.curves, self.stack = P.panels, P.curves, P.stack
        self.width_labels, self.onset_values, self.markers, self.shades = (P.width_labels, P.onset_labels, P.markers,
                                                                           P.shades)
        # each curve shows its row of cos and its width label names it; each onset's marks show m*, its label names it
        for k, o in enumerate(d.onsets):
            P.curves[k].values = d.cos[k]
            shows(P.curves[k], f"cos[{k}]")
            names(P.width_labels[k], f"cos[{k}]")
            if o.t is not None:
                P.markers[k].values = P.lanes[k].edge.values
                shows(P.markers[k], f"onset_m[{k}]")
                shows(P.lanes[k].edge, f"onset_m[{k}]")
                names(P.onset_labels[k], f"onset_m[{k}]")

    def quantities(self) -> dict:
        """The data's arrays, and each width's curve and onset by itself (``cos[k]``, ``onset_m[k]``)."""
        q = super().quantities()
        d = self.data
        for k in range(len(d.widths)):
            q[f"cos[{k}]"] = d.cos[k]
            q[f"onset_m[{k}]"] = d.onset_m[k:k + 1]
        return q

    def body(self) -> None:
        self.make_mobjects()
        P, d = self.figure, self.data
        first, rest = d.by_width()[0], d.by_width()[1:]
        axes = [AnimationGroup(Create(p.axes), FadeIn(p.grid), FadeIn(p.y_tick_labels)) for p in self.panels]
        self.beat("axes", FadeIn(self.formula), FadeIn(self.kind), *axes, FadeIn(self.stack.x_tick_labels),
                  FadeIn(self.stack.x_axis_label), FadeIn(P.zeros), Create(self.curves[first]), run_time=2.2)
        self.beat(self.variant("first"), FadeIn(self.width_labels[first]), Create(P.swing), run_time=1.0)
        if rest:
            self.beat(self.variant("wider"), FadeOut(P.swing), *[Create(self.curves[k]) for k in rest],
                      *[FadeIn(self.width_labels[k]) for k in rest], run_time=2.2)
            self.beat("rule", FadeIn(self.rule, shift=GAP.small * DOWN), run_time=1.0)
        else:
            self.beat("rule", FadeOut(P.swing), FadeIn(self.rule, shift=GAP.small * DOWN), run_time=1.0)
        self.beat(self.variant("marks"),
                  LaggedStart(*[AnimationGroup(FadeIn(self.markers[k]), FadeIn(self.onset_values[k])) for k in
                                d.by_width()], lag_ratio=0.4), run_time=2.0)
        self.add(P.zones, self.shades)
        self.bring_to_back(P.zones, self.shades)
        self.beat(self.variant("meaning"), *[s.animate.set_fill(opacity=0.3) for s in self.shades if len(s.points)],
                  *[z.animate.set_fill(opacity=0.15) for z in P.zones], run_time=1.0)

    # -- the close: the panels collapse into one lane per width, coloured while positions are told apart
    def takeaway(self):
        P = self.figure
        return VGroup(P.lanes, P.key, P.onset_labels, self.rule, P.stack.bottom.axes[0], self.stack.x_tick_labels,
                      self.stack.x_axis_label)

    def closing_key(self) -> str:
        return self.variant("close")

    def bring_forward(self, take, region=None) -> list:
        P = self.figure
        grow = [ReplacementTransform(s, lane.blurred) for s, lane in zip(self.shades, P.lanes) if len(s.points)]
        grow += [ReplacementTransform(z, lane.clear) for z, lane in zip(P.zones, P.lanes)]
        grow += [ReplacementTransform(w, lane.tag) for w, lane in zip(P.width_labels, P.lanes)]
        new = [lane.edge for lane in P.lanes] + [P.key]
        keep = [*P.lanes, P.key, P.width_labels, P.onset_labels, self.rule, P.stack.bottom.axes[0],
                self.stack.x_tick_labels, self.stack.x_axis_label, *self.shades, *P.zones]
        return [FadeOut(others(self, keep)), *grow, *[FadeIn(m) for m in new]]


# ====================================================================== 13 ExtrapolationCliff
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


# ====================================================================== 14 GPT2ToLLaMA
@dataclass(frozen=True)
class GPT2ToLLaMAData:
    """GPT-2's learned table (``learned_absolute_table(d_model, n_max)``, seeded by the config) and the
    rows and features drawn of it (``sample``, ``corner``: real entries) beside LLaMA's RoPE at head
    dim 128 for both bases: per-pair wavelengths and how many pairs never complete a turn within
    LLaMA-2's training length."""

    gpt2: ModelFacts
    llama2: ModelFacts
    llama3: ModelFacts
    table: np.ndarray  # (n_max, d_model)
    zoom: tuple[int, int]  # rows, cols of the table's corner shown large
    sample_rows: np.ndarray  # the rows drawn for the whole table (every k-th)
    sample_cols: np.ndarray  # the features drawn for the whole table
    sample: np.ndarray  # table[sample_rows][:, sample_cols]
    corner: np.ndarray  # table[:zoom[0], :zoom[1]]
    cmap: str
    wl_llama2: np.ndarray  # (head_dim/2,) positions per full turn of each pair, base LLaMA-2
    wl_llama3: np.ndarray  # the same at LLaMA-3's base
    wl_range: tuple[float, float]  # the powers of ten around both
    slow_pairs: int  # LLaMA-2 pairs without a full turn in its train_length
    n_pairs: int
    beyond_angle: float = 0.0  # LLaMA-2's pair 0 angle (mod 2π) at position n_max, where GPT-2 has no row

    @property
    def wavelengths(self) -> np.ndarray:
        return np.stack([self.wl_llama2, self.wl_llama3])

    @property
    def n_params(self) -> int:
        return int(self.table.size)


class GPT2ToLLaMA(ClipScene):
    """14 · From GPT-2 to LLaMA: a table with a last row, and rotations with none."""

    ZOOM = (8, 12)
    SAMPLE = (32, 12)  # rows, features of the whole table drawn as cells

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> GPT2ToLLaMAData:
        g, l2, l3 = GPT2, LLAMA2, LLAMA3
        table = learned_absolute_table(g.d_model, g.n_max, cfg.seed)
        rows, cols = sample_rows(g.n_max, cls.SAMPLE[0]), sample_rows(g.d_model, cls.SAMPLE[1])
        wl2, wl3 = rope_wavelengths(l2.head_dim, l2.rope_base), rope_wavelengths(l3.head_dim, l3.rope_base)
        return GPT2ToLLaMAData(
            gpt2=g, llama2=l2, llama3=l3, table=table, zoom=cls.ZOOM, cmap=cfg.cmap_signed,
            sample_rows=rows, sample_cols=cols, sample=table[np.ix_(rows, cols)],
            corner=table[:cls.ZOOM[0], :cls.ZOOM[1]], wl_llama2=wl2, wl_llama3=wl3,
            wl_range=power_range(np.concatenate([wl2, wl3])),
            slow_pairs=pairs_without_a_turn(l2.head_dim, l2.train_length, l2.rope_base), n_pairs=l2.head_dim // 2,
            beyond_angle=float(pair_angles(g.n_max, l2.head_dim, l2.rope_base)[0]),
        )

    def caption_values(self) -> dict:
        d = self.data
        scale = table_scale(d)
        return {
            "n_max": count(d.gpt2.n_max).text, "n_last": count(d.gpt2.n_max - 1).text, "d_model": d.gpt2.d_model,
            "head_dim": d.llama2.head_dim, "pairs": d.n_pairs, "slow": d.slow_pairs,
            "train2": count(d.llama2.train_length).text, "base2": count(d.llama2.rope_base).text,
            "base3": count(d.llama3.rope_base).text, "wl_first": count(round(d.wl_llama2[0])).text,
            "wl2": count(round(d.wl_llama2[-1])).text, "wl3": count(round(d.wl_llama3[-1])).text,
            "params": count(d.n_params).text, "row_step": ordinal(d.sample_rows[1] - d.sample_rows[0]),
            "col_step": ordinal(d.sample_cols[1] - d.sample_cols[0]), "zoom_rows": d.zoom[0], "zoom_cols": d.zoom[1],
            "vmax": fmt_measure(scale.vmax), "proof": table_proof(d),
        }

    def make_mobjects(self) -> None:
        d = self.data
        g, l2, l3 = d.gpt2, d.llama2, d.llama3
        region = self.layout.content
        self.scale = table_scale(d)
        r, c = d.zoom
        # ================= GPT-2: the table =================
        self.gpt_head = label(f"{g.name}: a learned table", size=LABEL, weight="BOLD")
        self.gpt_facts = math(f'{N.table_rows.math} = {count(g.n_max).math}, quad d = {g.d_model}', color=DIM)
        head = row(self.gpt_head, self.gpt_facts, gap="section")
        strip, rest = region.take_top(head.height, gap=GAP.normal)
        strip.place(head, LEFT)
        self.cap_text = label(no_row_text(g.n_max), size=SMALL, color=FAILED)
        cap_strip, rest = rest.take_bottom(self.cap_text.height, gap=GAP.small)
        self.zoom_text = label(f"rows 0 to {r - 1}, features 0 to {c - 1}", size=SMALL, color=DIM)
        self.params_value = label(count(d.n_params).text, size=LABEL, color=FG, weight="BOLD")
        self.params_text = row(self.params_value, label("position parameters", size=SMALL, color=DIM), gap="small",
                               align="baseline")
        self.sample_text = label(f"left: every {ordinal(d.sample_rows[1] - d.sample_rows[0])} row and "
                                 f"{ordinal(d.sample_cols[1] - d.sample_cols[0])} feature", size=SMALL, color=DIM)
        self.view = V = TableView(rest, d.sample, d.corner, self.scale, [self.zoom_text, self.params_text,
                                                                           self.sample_text])
        self.image, self.zoom_map, self.colorbar, self.cap_line = V.image, V.zoom_map, V.colorbar, V.cap_line
        cap_strip.place(self.cap_text, LEFT)
        self.cap_text.align_to(self.image, LEFT)
        shows(V.image, "sample")
        shows(V.zoom_map, "corner")
        names(self.zoom_text, "corner")
        self.gpt = VGroup(head, V, V.zoom_map, V.colorbar, V.notes, V.corner, V.zoom_lines, V.cap_line, self.cap_text)

        # ================= LLaMA: no table, a rotation per pair =================
        self.llama_head = label("LLaMA: RoPE, no table", size=LABEL, weight="BOLD")
        self.formula = math(f"{N.rate.math} = {N.base.math}^(-2i slash d), quad d = {l2.head_dim}", color=DIM)
        head = row(self.llama_head, self.formula, gap="section")
        strip, rest = region.take_top(head.height, gap=GAP.normal)
        strip.place(head, LEFT)
        self.llama_heads = head
        self.base_colors = base_colors()
        tags = [column(label(m.name, size=SMALL, color=self.base_colors[k], weight="BOLD"),
                       math(f"{N.base.math} = {count(m.rope_base).math}", size=SMALL, color=self.base_colors[k]),
                       gap="hair") for k, m in enumerate((l2, l3))]
        self.chart = W = WavelengthChart(rest, [d.wl_llama2, d.wl_llama3], d.wl_range, self.base_colors, tags,
                                         l2.train_length, d.slow_pairs, f"{d.slow_pairs} of {d.n_pairs} never turn",
                                         "positions per full turn", math(f'"pair" {N.pair.math}', size=SMALL))
        self.plot, self.wl_curves, self.train_line, self.slow_band = W.plot, W.curves, W.train_line, W.band
        self.wl_tags, self.L_label, self.band_label = tags, W.L_label, W.band_label
        shows(W.curves[0], "wl_llama2")
        shows(W.curves[1], "wl_llama3")
        names(tags[0], "wl_llama2")
        names(tags[1], "wl_llama3")

        # ================= the takeaway: a last row against any position =================
        self.thumb = thumb = capped_table(d.sample, self.scale, region.height / 2)
        left = column(label(g.name, size=HEADING, weight="BOLD"), thumb,
                      label(f"{count(g.n_max).text} rows: positions 0 to {count(g.n_max - 1).text}", size=LABEL),
                      label(no_row_text(g.n_max), size=LABEL, color=FAILED), gap="normal", align=ORIGIN)
        shows(thumb.image, "sample")
        # RoPE at the position GPT-2 has no row for: pair 0's hand at its angle there (mathcore)
        self.closing_dial = dial = VectorDial(d.beyond_angle, radius=thumb.image.height / 3, color=FG)
        right = column(label("LLaMA", size=HEADING, weight="BOLD"), dial,
                       label(f"pair 0 at position {count(g.n_max).text}", size=LABEL),
                       math(f'{N.angle.math} "for every" {N.position.math}', size=HEADING), gap="normal", align=ORIGIN)
        self.summary = row(left, right, gap="section", align="top")
        self.layout.content.place(self.summary)
        half = (max(left.width, right.width) + GAP.section) / 2  # two equal columns about the middle
        left.set_x(self.layout.content.center[0] - half)
        right.set_x(self.layout.content.center[0] + half)

    def body(self) -> None:
        self.make_mobjects()
        V, W = self.view, self.chart
        self.beat("table", FadeIn(self.gpt_head), FadeIn(self.gpt_facts), FadeIn(V.image), Create(V.frame),
                  FadeIn(self.sample_text), run_time=1.4)
        self.beat("corner", Create(V.corner), Create(V.zoom_lines), FadeIn(V.zoom_map), FadeIn(self.zoom_text),
                  FadeIn(V.colorbar), FadeIn(self.params_text), run_time=1.4)
        self.beat("cap", Create(V.cap_line), FadeIn(self.cap_text, shift=GAP.tight * DOWN), run_time=1.0)
        self.beat("rope", stage([self.gpt], [self.llama_heads, W.axes_group], lag=1), run_time=1.6)
        self.beat("speeds", Create(W.curves[0]), FadeIn(self.wl_tags[0]), run_time=1.6)
        self.add(W.band)
        self.bring_to_back(W.band)
        self.beat("slow", Create(self.train_line), FadeIn(self.L_label), FadeIn(self.band_label),
                  FadeIn(W.end_labels.leaders), W.band.animate.set_fill(opacity=0.15), run_time=1.2)
        self.beat("base", Create(W.curves[1]), FadeIn(self.wl_tags[1]), run_time=1.4)
        self.beat("tie", Create(W.outline), run_time=1.2)

    def takeaway(self):
        return self.summary

    def bring_forward(self, take, region=None) -> list:
        return [stage([others(self, [])], [self.summary], lag=1)]
