"""Positions pushed to their limits.

12 ``PositionalDilution`` (§10): ``cos(P[0], P[t])`` for ``t = 1 … dilution_t_max`` on a log
axis for sinusoidal positions of a few widths; each curve is the computed one (drawn
from real samples only).  The marker is measured by :func:`mathcore.extrapolation.ambiguity_onset`:
the first position ``t*`` that some position at least twice as far matches in similarity
to position 0, so similarity stops ranking distance.

13 ``ExtrapolationCliff`` (§11): train length L; walking a position past it, the learned
table ends at ``n_max`` (the lookup fails), sinusoidal stays defined but unseen, RoPE's slow
pairs turn to angles never seen in training while fast pairs have wrapped many times;
per position, the count of RoPE pairs at unseen angles.

14 ``GPT2ToLLaMA`` (Q4): GPT-2's learned table (n_max × d) beside LLaMA's RoPE (no table,
no cap), tied to clip 13 and to lecture 6.

Render directly with ``manim -ql scenes/extrapolation.py PositionalDilution``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    ManimColor,
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Circle,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    LaggedStart,
    Arc,
    SurroundingRectangle,
    Flash,
    Indicate,
    Line,
    Polygon,
    Rectangle,
    VGroup,
)

import textwrap

from mathcore import (
    ExtrapolationReport,
    extrapolation_report,
    learned_absolute_table,
    rope_unseen_pairs,
    sinusoidal_dilution,
)
from mathcore.config import LectureConfig
from mathcore.extrapolation import (
    GPT2,
    LLAMA2,
    LLAMA3,
    ModelFacts,
    pairs_without_a_turn,
    rope_wavelengths,
    AmbiguityOnset,
    ambiguity_onset,
    pair_angles,
    pair_turns,
    training_arcs,
    unseen_pair_counts,
    wrapped_in_training,
)
from scenes.kit.extrapolation_widgets import PanelStack, first_clear_spot
from scenes.kit.layout import Region
from scenes.kit import (
    ACCENT,
    BLUE,
    ColorBar,
    ColorScale,
    Heatmap,
    fmt_value,
    BAD,
    BG,
    GOOD,
    VectorDial,
    mono,
    DIM,
    FG,
    LABEL,
    SMALL,
    ClipScene,
    Plot,
    Readout,
    background,
    fit_label,
    overlay,
    place_annotations,
    label,
    math,
    token_color,
)

ORIGIN3 = np.zeros(3)
PURPLE_ = ManimColor("#C297FF")
WIDTH_COLORS = (token_color(0), token_color(1), token_color(4), token_color(2), token_color(3))


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``32nd``, ``64th``, ``11th``."""
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def fmt_count(n: int) -> str:
    """A position or count for a label: ``172``, ``10 000`` (thin-space thousands)."""
    return f"{int(n):,}".replace(",", "\u2009")


# ====================================================================== 12 PositionalDilution
@dataclass(frozen=True)
class PositionalDilutionData:
    """``t: (n,)`` positions ``1..t_max``; ``cos: (len(widths), n)`` with ``cos[k, t-1] = cos(P[0], P[t])``
    at width ``widths[k]`` (``mathcore.sinusoidal_dilution``); ``onsets[k]`` from ``ambiguity_onset``."""

    t: np.ndarray
    cos: np.ndarray
    widths: tuple[int, ...]
    base: float
    factor: float
    onsets: tuple[AmbiguityOnset, ...]

    # -- measured facts the narration chooses its words by
    def wiggle(self, k: int) -> float:
        """Mean step ``|c(t+1) − c(t)|`` of curve ``k``: how much it swings from one position to the next."""
        return float(np.mean(np.abs(np.diff(self.cos[k]))))

    def swings(self, k: int) -> bool:
        """Curve ``k`` still swings over its last half: its values there span at least 0.5."""
        row = self.cos[k]
        return float(np.ptp(row[len(row) // 2:])) >= 0.5

    def falls_steadily(self, k: int) -> bool:
        """Curve ``k`` never rises: ``c(t+1) <= c(t)`` for every ``t``."""
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
        order = self.by_width()
        big = np.inf
        t = [self.onsets[k].t if self.onsets[k].t is not None else big for k in order]
        return len(set(self.widths)) > 1 and all(b >= a for a, b in zip(t, t[1:])) and t[-1] > t[0]


class PositionalDilution(ClipScene):
    """12 · Positional dilution: far positions blur together."""

    FACTOR = 2.0  # "a position at least twice as far"

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PositionalDilutionData:
        t, cos = sinusoidal_dilution(cfg.dilution_t_max, cfg.dilution_widths, cfg.rope_base)
        return PositionalDilutionData(
            t=t, cos=cos, widths=tuple(cfg.dilution_widths), base=cfg.rope_base, factor=cls.FACTOR,
            onsets=tuple(ambiguity_onset(row, cls.FACTOR) for row in cos),
        )

    def caption_values(self) -> dict:
        d = self.data
        found = [(w, o) for w, o in zip(d.widths, d.onsets) if o.t is not None]
        clear = [w for w, o in zip(d.widths, d.onsets) if o.t is None]
        parts = [f"{fmt_count(o.t)} at d = {w}" for w, o in found]
        return {
            "t_max": fmt_count(d.t[-1]),
            "widths": and_list([str(w) for w in d.widths]),
            "first_width": d.widths[0],
            "onsets": "; ".join(parts) if parts else "nowhere",
            "blurred": and_list([str(w) for w, _ in found]),
            "clear": and_list([str(w) for w in clear]),
            "n_widths": len(d.widths),
        }

    # -- which words are true for these numbers
    def variant(self, key: str) -> str:
        d = self.data
        n = len(d.widths)
        found = sum(o.t is not None for o in d.onsets)
        if key == "first":
            if d.falls_steadily(0):
                return "first_steady"
            return "first" if d.swings(0) else "first_wobbles"
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
        t_max = int(d.t[-1])
        region = self.layout.content
        # ---- heading strip: what is plotted; under it the rule behind t* (shown at its beat)
        self.formula = math("c(t) = cos(P_0, P_t)", size=LABEL)
        self.panel_title = label(f"sinusoidal, base {fmt_count(d.base)}", size=SMALL, color=DIM)
        head = VGroup(self.formula, self.panel_title).arrange(RIGHT, buff=0.4)
        strip, rest = region.take_top(head.height, gap=0.1)
        strip.place(head, LEFT)
        self.panel_title.align_to(self.formula, DOWN).shift(0.06 * UP)
        self.rule = math(f't^* = min{{t : c(s) >= c(t) "for some" s >= {self.FACTOR:g}t}}', size=LABEL, color=ACCENT)
        rule_strip, rest = rest.take_top(self.rule.height, gap=0.2)
        rule_strip.fit(self.rule, LEFT)

        # ---- one panel per width, stacked, sharing the log t axis
        self.width_labels = VGroup(*[label(f"d = {w}", size=LABEL, color=WIDTH_COLORS[k % len(WIDTH_COLORS)])
                                     for k, w in enumerate(d.widths)])
        self.onset_values = VGroup(*[
            label(f"t* = {fmt_count(o.t)}" if o.t is not None else "no t*", size=LABEL,
                  color=ACCENT if o.t is not None else DIM)
            for o in d.onsets])
        left_w = max(m.width for m in self.width_labels) + 0.25
        right_w = max(m.width for m in self.onset_values) + 0.3
        mid = Region(rest.left + left_w, rest.right - right_w, rest.bottom, rest.top, "panels")
        x_ticks = [10.0**k for k in range(0, int(np.floor(np.log10(t_max))) + 1)]
        lo = min(-1.0, float(np.floor(d.cos.min() * 2) / 2))
        self.stack = PanelStack(len(d.widths), mid, (1, t_max), (lo, 1.0), x_log=True, x_ticks=x_ticks,
                                y_ticks=[lo, 0.0, 1.0],
                                x_label="position t (log scale)")
        self.panels = self.stack.panels
        self.plot = self.panels[0]
        p_last = self.panels[-1]
        p_last.x_axis_label.set_x(p_last.axes[0].get_center()[0])
        self.zeros = VGroup(*[p.hline(0.0, color=DIM, dashed=True, stroke_width=1.5) for p in self.panels])
        self.curves = VGroup(*[
            p.curve(d.t, row, color=WIDTH_COLORS[k % len(WIDTH_COLORS)], stroke_width=2.2, buckets=300)
            for k, (p, row) in enumerate(zip(self.panels, d.cos))
        ])
        # labels beside their panel: the width on the left, t* on the right (spread if crowded)
        ys = [np.array([0.0, p.axes[0].get_y() + self.stack.panel_height / 2, 0.0]) for p in self.panels]
        bounds = (rest.bottom, rest.top)
        self.width_tags = place_annotations(
            list(self.width_labels), [np.array([mid.left - 0.6, y[1], 0]) for y in ys], side=LEFT, buff=0.08,
            gap=0.1, bounds=bounds)
        self.onset_tags = place_annotations(
            list(self.onset_values), [np.array([mid.right + 0.12, y[1], 0]) for y in ys], side=RIGHT, buff=0.1,
            gap=0.1, bounds=bounds)
        for lab in self.width_labels:
            lab.align_to(np.array([rest.left, 0, 0]), LEFT)
        for lab in self.onset_values:
            lab.align_to(np.array([mid.right + 0.3, 0, 0]), LEFT)
        # ---- markers: a ring at (t*, c(t*)), a ring at the witness, a dashed link; a drop to the panel floor
        self.markers = VGroup()
        self.shades = VGroup()
        for k, (p, o) in enumerate(zip(self.panels, d.onsets)):
            if o.t is None:
                self.markers.add(VGroup())
                continue
            c = WIDTH_COLORS[k % len(WIDTH_COLORS)]
            p_t = p.to_point(o.t, o.cos_t)
            p_s = p.to_point(o.witness, o.cos_witness)
            ring_t = Circle(radius=0.1, stroke_color=ACCENT, stroke_width=4).move_to(p_t)
            ring_s = Circle(radius=0.1, stroke_color=ACCENT, stroke_width=3).move_to(p_s)
            dot_t = p.dot(o.t, o.cos_t, color=c, radius=0.055)
            link = DashedLine(p_t, p_s, stroke_color=ACCENT, stroke_width=2.5, dash_length=0.06)
            drop = DashedLine(p.to_point(o.t, p.y_range[0]), p_t, stroke_color=ACCENT, stroke_width=2, dash_length=0.06)
            self.markers.add(VGroup(drop, link, dot_t, ring_t, ring_s))
            x0, x1 = p.to_point(o.t, 0)[0], p.axes[0].get_right()[0]
            shade = Rectangle(width=max(x1 - x0, 1e-3), height=self.stack.panel_height, stroke_width=0,
                              fill_color=DIM, fill_opacity=0.0)
            shade.move_to([(x0 + x1) / 2, p.axes[0].get_y() + self.stack.panel_height / 2, 0])
            self.shades.add(background(shade))

    def body(self) -> None:
        self.make_mobjects()
        st = self.stack
        axes = [AnimationGroup(Create(p.axes), FadeIn(p.grid), FadeIn(p.y_tick_labels)) for p in self.panels]
        self.beat("axes", FadeIn(self.formula), FadeIn(self.panel_title), *axes, FadeIn(st.x_tick_labels),
                  FadeIn(st.x_axis_label), FadeIn(self.zeros), FadeIn(self.width_labels[0]),
                  Create(self.curves[0]), run_time=2.2)
        self.beat(self.variant("first"), Indicate(self.width_labels[0], color=ACCENT, scale_factor=1.1), run_time=1.0)
        if len(self.curves) > 1:
            self.beat(self.variant("wider"), *[Create(c) for c in self.curves[1:]],
                      *[FadeIn(w) for w in self.width_labels[1:]], FadeIn(self.width_tags.leaders), run_time=2.2)
        self.beat("rule", FadeIn(self.rule, shift=0.1 * DOWN), run_time=1.0)
        self.beat(self.variant("marks"),
                  LaggedStart(*[AnimationGroup(FadeIn(m), FadeIn(v)) for m, v in zip(self.markers, self.onset_values)],
                              lag_ratio=0.4), FadeIn(self.onset_tags.leaders), run_time=2.0)
        self.add(self.shades)
        self.bring_to_back(self.shades)
        self.beat(self.variant("meaning"), *[s.animate.set_fill(opacity=0.22) for s in self.shades], run_time=1.0)

    def closing(self) -> None:
        self.beat(self.variant("close"), hold=self.CLOSING_HOLD)


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# ====================================================================== 13 ExtrapolationCliff
@dataclass(frozen=True)
class ExtrapolationCliffData:
    """What clip 13 draws, all from mathcore and the config.

    ``positions: (n,)`` are ``1..x_max`` (``x_max = 4·n_max``); ``unseen[k]`` is the number of
    RoPE pairs (head dim ``head_dim``) at angles never seen in training at ``positions[k]``.
    ``stops`` are the walker's keyframes; ``report`` asks every scheme for them
    (``extrapolation_report``); ``stop_*`` give the two dials' pairs at each stop.  The slow
    pair is chosen by measurement (:func:`slow_pair`): one that sits at unseen angles at every
    stop past training, when there is one."""

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

    BAR_H = 0.34
    NOTES_W = 4.4  # the right column: position readout, dials, count

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> ExtrapolationCliffData:
        L, n_max, base = cfg.train_length, cfg.n_max, cfg.rope_base
        d = LLAMA2.head_dim
        x_max = 4 * n_max
        positions = np.arange(1, x_max + 1)
        stops = (L - 1, L, n_max, x_max)
        unseen_at = rope_unseen_pairs(list(stops), d, L, base)
        wrapped = wrapped_in_training(d, L, base)
        all_turns = np.array([pair_turns(m, d, base) for m in stops])
        pairs = (0, slow_pair(unseen_at, wrapped, all_turns))
        angles = np.array([pair_angles(m, d, base)[list(pairs)] for m in stops])
        turns = np.array([pair_turns(m, d, base)[list(pairs)] for m in stops])
        return ExtrapolationCliffData(
            train_length=L, n_max=n_max, x_max=x_max, head_dim=d, base=base,
            positions=positions, unseen=unseen_pair_counts(positions, d, L, base),
            n_wrapped=int(wrapped.sum()), stops=stops,
            report=extrapolation_report(list(stops), d, n_max, cfg.seed, base),
            pairs=pairs, arcs=training_arcs(d, L, base)[list(pairs)],
            stop_angles=angles, stop_turns=turns, stop_unseen=unseen_at[:, list(pairs)],
            stop_counts=unseen_at.sum(axis=1), train_turns=int(pair_turns(L - 1, d, base)[0]),
        )

    def caption_values(self) -> dict:
        d = self.data
        fast = int(d.stop_turns[2, 0])
        return {
            "L": fmt_count(d.train_length), "L_last": fmt_count(d.train_length - 1), "n_max": fmt_count(d.n_max),
            "n_last": fmt_count(d.n_max - 1), "x_max": fmt_count(d.x_max), "pairs": d.n_pairs,
            "head_dim": d.head_dim, "jump": int(d.stop_counts[1]), "wrapped": d.n_wrapped,
            "fast_turns": f"{fmt_count(fast)} turn{'' if fast == 1 else 's'}",
            "far_count": int(d.stop_counts[3]),
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

    # ------------------------------------------------------------------ layout
    def x_of(self, m: float) -> float:
        return float(self.plot.to_point(m, 0.0)[0])

    def bar(self, m0: float, m1: float, y: float, color, opacity: float) -> Rectangle:
        x0, x1 = self.x_of(m0), self.x_of(m1)
        return Rectangle(width=max(x1 - x0, 1e-3), height=self.BAR_H, stroke_width=0, fill_color=color,
                         fill_opacity=opacity).move_to([(x0 + x1) / 2, y, 0])

    def make_mobjects(self) -> None:
        d = self.data
        L, n_max, x_max = d.train_length, d.n_max, d.x_max
        notes, main = self.layout.content.take_right(self.NOTES_W, gap=0.45)
        self.main_region, self.notes_region = main, notes

        # ---- rows of the main column, top to bottom
        def title(text):
            return label(text, size=SMALL, color=FG)

        self.legend = VGroup(
            VGroup(Rectangle(width=0.4, height=0.2, stroke_width=0, fill_color=GOOD, fill_opacity=0.85),
                   label("trained", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.12),
            VGroup(Rectangle(width=0.4, height=0.2, stroke_width=0, fill_color=DIM, fill_opacity=0.45),
                   label("never trained / never seen", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.12),
        ).arrange(RIGHT, buff=0.45)
        strip, rest = main.take_top(self.legend.height, gap=0.2)
        strip.place(self.legend, LEFT)
        self.title_a = title(f"learned-absolute: {fmt_count(n_max)} rows")
        self.title_b = title("sinusoidal: a formula, for any m")
        self.title_c = title(f"RoPE, head dim {d.head_dim}: pairs at new angles")
        rows = {}
        for name, t in (("a", self.title_a), ("b", self.title_b)):
            ts, rest = rest.take_top(t.height, gap=0.14)
            ts.place(t, LEFT)
            bs, rest = rest.take_top(self.BAR_H, gap=0.22)
            rows[name] = bs
        ts, rest = rest.take_top(self.title_c.height, gap=0.15)
        ts.place(self.title_c, LEFT)
        self.lane_a, self.lane_b = rows["a"].center[1], rows["b"].center[1]
        self.LANE_A, self.LANE_B = self.lane_a, self.lane_b  # tests read these

        # ---- the RoPE chart fills what is left; its x axis is every lane's position axis
        decades = [10.0**k for k in range(0, int(np.floor(np.log10(x_max))) + 1)]
        probe = Plot((1, x_max), (0, d.n_pairs), width=main.width, height=1.0, x_log=True, x_ticks=decades[:1],
                     x_label="position m (log scale)", y_ticks=[d.n_pairs])
        below = probe.axes[0].get_bottom()[1] - probe.get_bottom()[1] + 0.05
        tick_room = probe.y_tick_labels.width + 0.2
        self.plot = Plot(
            (1, x_max), (0, d.n_pairs), width=main.width - tick_room, height=rest.height - below, x_log=True,
            x_ticks=decades, y_ticks=[0, d.n_pairs // 2, d.n_pairs], x_label="position m (log scale)",
        )
        self.plot.shift(np.array([main.left + tick_room, rest.bottom + below, 0]) - self.plot.axes[0].get_start())
        self.plot.x_axis_label.set_x(self.plot.axes[0].get_center()[0])
        self.chart_bottom = self.plot.axes[0].get_y()
        self.chart_top = self.chart_bottom + self.plot.height_units
        p = self.plot

        # L and n_max under the axis, spread with leaders when close; decade labels they would touch go
        self.L_tick = label(f"L = {fmt_count(L)}", size=SMALL, color=GOOD)
        self.n_tick = label(f"n_max = {fmt_count(n_max)}", size=SMALL, color=BAD)
        ax_y = self.chart_bottom
        self.annotations = place_annotations(
            [self.L_tick, self.n_tick], [np.array([self.x_of(L), ax_y, 0]), np.array([self.x_of(n_max), ax_y, 0])],
            side=DOWN, buff=0.12, gap=0.25, bounds=(main.left, main.right))
        keep = VGroup()
        for t in p.x_tick_labels:
            if all(t.get_right()[0] + 0.15 < a.get_left()[0] or t.get_left()[0] - 0.15 > a.get_right()[0]
                   for a in (self.L_tick, self.n_tick)):
                keep.add(t)
        p.remove(p.x_tick_labels)
        p.x_tick_labels = keep
        p.add(keep)
        self.ticks = VGroup(keep, self.annotations)

        # ---- lanes: trained, untrained, the wall
        self.trained = VGroup(self.bar(1, L, self.lane_a, GOOD, 0.85), self.bar(1, L, self.lane_b, GOOD, 0.85))
        self.untrained_a = self.bar(L, n_max, self.lane_a, DIM, 0.45) if n_max > L else VGroup()
        self.unseen_b = self.bar(L, x_max, self.lane_b, DIM, 0.45)
        xw = self.x_of(n_max)
        half = self.BAR_H / 2 + 0.04
        self.wall = Line([xw, self.lane_a - half, 0], [xw, self.lane_a + half, 0], stroke_color=BAD, stroke_width=9)
        self.no_row = label(f"no row ≥ {fmt_count(n_max)}", size=SMALL, color=BAD)
        row_y = self.title_a.get_y()
        spots = [
            lambda m: m.move_to([xw + 0.15, row_y, 0], aligned_edge=LEFT),
            lambda m: m.move_to([p.axes[0].get_right()[0], row_y, 0], aligned_edge=RIGHT),
            lambda m: m.move_to([xw - 0.15, row_y, 0], aligned_edge=RIGHT),
        ]
        first_clear_spot(self.no_row, spots, [self.title_a], bounds=main, pad=0.3)

        # guides at L and n_max through the bars and the chart only (never through a title)
        spans = [(self.lane_a - half, self.lane_a + half), (self.lane_b - half, self.lane_b + half),
                 (self.chart_bottom, self.chart_top)]

        def through(x, color, width=2.0, dashed=True):
            mk = (lambda a, b: DashedLine(a, b, stroke_color=color, stroke_width=width, dash_length=0.1)) if dashed \
                else (lambda a, b: Line(a, b, stroke_color=color, stroke_width=width))
            return VGroup(*[mk([x, y0, 0], [x, y1, 0]) for y0, y1 in spans])

        self.guides = VGroup(through(self.x_of(L), GOOD), through(xw, BAD))

        # ---- RoPE lane: the count of unseen pairs, a filled area under the computed curve
        self.curve = p.curve(d.positions, d.unseen, color=BAD, stroke_width=2.5, buckets=300)
        pts = self.curve.points
        base_l, base_r = p.to_point(d.positions[0], 0), p.to_point(d.positions[-1], 0)
        corners = [base_l] + [pts[0]] + [pts[k] for k in range(3, len(pts), 4)] + [base_r]
        self.area = Polygon(*corners, stroke_width=0, fill_color=BAD, fill_opacity=0.3)

        # ---- the walker: one segment per lane and one through the chart, moved together
        self.walker = through(self.x_of(d.stops[0]), ACCENT, width=4, dashed=False)

        # ---- notes column: m, the two dials, the count
        n_top = notes.top
        self.m_head = label("m =", size=LABEL + 4, color=ACCENT)
        self.m_head.move_to([notes.left + 0.6, n_top - self.m_head.height / 2, 0], aligned_edge=LEFT)
        self.m_readout = Readout(fmt_count(d.stops[0]), self.m_head.get_right() + 0.15 * RIGHT, LABEL + 4,
                                 color=ACCENT, weight="BOLD")
        self.m_readout.current.align_to(self.m_head, DOWN)
        self.m_readout.anchor = self.m_readout.current.get_left()
        self.m_value = self.m_readout.current

        radius = 0.56
        heads = [VGroup(label(f"{'fast' if k == 0 else 'slow'} pair", size=SMALL, color=DIM),
                        label(f"i = {i}", size=SMALL, color=DIM)).arrange(DOWN, buff=0.08)
                 for k, i in enumerate(d.pairs)]
        head_h = max(h.height for h in heads)
        head_y = self.m_head.get_bottom()[1] - 0.25 - head_h / 2
        dial_y = head_y - head_h / 2 - 0.15 - radius
        xs = (notes.left + notes.width * 0.25, notes.left + notes.width * 0.75)
        self.dials, self.arcs, self.dial_heads = [], VGroup(), VGroup()
        self.turn_readouts, self.status_readouts = [], []
        for k, x in enumerate(xs):
            dial = VectorDial(d.stop_angles[0, k], radius=radius, color=FG, show_ticks=True).move_to([x, dial_y, 0])
            arc = Arc(radius=radius, start_angle=0, angle=float(d.arcs[k]), arc_center=dial.center,
                      stroke_color=GOOD, stroke_width=9)
            heads[k].move_to([x, head_y, 0])
            self.dials.append(dial)
            self.arcs.add(arc)
            self.dial_heads.add(heads[k])
            ty = dial_y - radius - 0.12 - 0.15
            self.turn_readouts.append(Readout(self.turns_str(k, 0), np.array([x, ty, 0]), SMALL, color=FG, align=ORIGIN3))
            text, color = self.status_str(k, 0)
            self.status_readouts.append(Readout(text, np.array([x, ty - 0.34, 0]), SMALL, color=color, align=ORIGIN3))
        self.turn_texts = [r.current for r in self.turn_readouts]
        self.status_texts = [r.current for r in self.status_readouts]
        arc_note = VGroup(Arc(radius=0.2, start_angle=0.3, angle=1.6, stroke_color=GOOD, stroke_width=7),
                          label("seen in training", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.15)
        arc_note.next_to(self.status_texts[0], DOWN, buff=0.2).set_x(notes.center[0])
        self.arc_note = arc_note
        self.dial_group = VGroup(*self.dials, self.arcs, self.dial_heads, *self.turn_texts, *self.status_texts, arc_note)
        self.count_head = fit_label("RoPE pairs at unseen angles", notes.width, size=SMALL, color=DIM, max_lines=2,
                                    align=ORIGIN3)
        self.count_head.next_to(arc_note, DOWN, buff=0.25).set_x(notes.center[0])
        cy = self.count_head.get_bottom()[1] - 0.12 - 0.22
        text, color = self.count_str(0)
        self.count_readout = Readout(text, np.array([notes.center[0], cy, 0]), LABEL + 4, color=color, weight="BOLD",
                                     align=ORIGIN3)
        self.count_text = self.count_readout.current

        # ---- the lookup's own error message, in a box over the lanes it clears
        per_line = max(16, int((main.width - 0.8) / (mono("x" * 10, size=SMALL).width / 10)))
        self.error_lines = textwrap.wrap(d.report.learned_error, per_line)
        msg = VGroup(*[mono(s, size=SMALL, color=FG) for s in self.error_lines]).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        head = mono("PositionOutOfRangeError", size=SMALL, color=BAD)
        body = VGroup(head, msg).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        box = Rectangle(width=body.width + 0.5, height=body.height + 0.45, stroke_color=BAD, stroke_width=3,
                        fill_color=BG, fill_opacity=1.0)
        under = Region(main.left, main.right, self.chart_bottom, self.lane_a - half - 0.12, "under")
        self.error_box = VGroup(box, body.move_to(box))
        under.place(self.error_box)
        overlay(box, body)
        self.error_text = msg
        # what the box covers is cleared while it shows
        self.under_box = VGroup(self.title_b, self.trained[1], self.unseen_b, self.title_c, p, self.curve, self.area,
                                self.ticks, *[g[1:] for g in self.guides], self.walker[1:])

    def turns_str(self, k: int, stop: int) -> str:
        n = int(self.data.stop_turns[stop, k])
        return f"{fmt_count(n)} turn{'s' if n != 1 else ''}"

    def status_str(self, k: int, stop: int):
        bad = bool(self.data.stop_unseen[stop, k])
        return ("unseen", BAD) if bad else ("seen", GOOD)

    def count_str(self, stop: int):
        d = self.data
        c = int(d.stop_counts[stop])
        return f"{c} of {d.n_pairs}", (BAD if c else GOOD)

    def move_to_stop(self, stop: int) -> list:
        """Animations that walk to ``stops[stop]`` and update every readout there (old figure out, new in)."""
        d = self.data
        m = d.stops[stop]
        anims = [self.walker.animate.set_x(self.x_of(m))]
        anims.append(self.m_readout.to(fmt_count(m)))
        self.m_value = self.m_readout.current
        for k, dial in enumerate(self.dials):
            anims.append(dial.rotate_to(float(d.stop_angles[stop, k])))
            anims.append(self.turn_readouts[k].to(self.turns_str(k, stop)))
            text, color = self.status_str(k, stop)
            anims.append(self.status_readouts[k].to(text, color=color))
            self.turn_texts[k], self.status_texts[k] = self.turn_readouts[k].current, self.status_readouts[k].current
        text, color = self.count_str(stop)
        anims.append(self.count_readout.to(text, color=color))
        self.count_text = self.count_readout.current
        self.stop = stop
        return anims

    def body(self) -> None:
        self.make_mobjects()
        p = self.plot
        self.beat("train", FadeIn(self.legend), FadeIn(self.title_a), FadeIn(self.title_b), FadeIn(self.trained),
                  FadeIn(self.guides[0]), FadeIn(p.x_tick_labels), FadeIn(self.L_tick), FadeIn(p.x_axis_label),
                  Create(p.axes[0]), run_time=1.4)
        self.beat(self.variant("schemes"), FadeIn(self.untrained_a), FadeIn(self.unseen_b), Create(self.wall),
                  FadeIn(self.guides[1]), FadeIn(self.n_tick), FadeIn(self.annotations.leaders), run_time=1.4)
        self.beat("rope", FadeIn(self.title_c), Create(p.axes[1]), FadeIn(p.grid), FadeIn(p.y_tick_labels),
                  Create(self.curve), FadeIn(self.area),
                  run_time=2.0)
        self.beat("dials", FadeIn(self.walker), FadeIn(self.m_head), FadeIn(self.m_value),
                  FadeIn(self.dial_group), FadeIn(self.count_head), FadeIn(self.count_text), run_time=1.2)
        self.bring_to_front(self.wall)  # the wall stays red where the walker stands on it
        self.beat(self.variant("step"), *self.move_to_stop(1), run_time=1.2)
        self.beat(self.variant("wall"), *self.move_to_stop(2), run_time=1.6)
        self.beat("error", Flash(self.wall.get_center(), color=BAD, line_length=0.3, flash_radius=0.45),
                  FadeOut(self.under_box), FadeIn(self.error_box, shift=0.1 * UP), run_time=1.0, hold=1.6)
        self.play(FadeOut(self.error_box), FadeIn(self.under_box), FadeIn(self.no_row), run_time=0.8)
        self.beat(self.variant("wrapped"), Indicate_all(self.dials[0], self.turn_texts[0]), run_time=1.2)
        self.beat(self.variant("far"), *self.move_to_stop(3), run_time=1.6)

    def closing(self) -> None:
        self.beat(self.variant("close"), hold=self.CLOSING_HOLD)


def Indicate_all(*mobs):
    return AnimationGroup(*[Indicate(m, color=ACCENT, scale_factor=1.08) for m in mobs])


# ====================================================================== 14 GPT2ToLLaMA
@dataclass(frozen=True)
class GPT2ToLLaMAData:
    """GPT-2's learned table (``learned_absolute_table(d_model, n_max)``, seeded by the config) beside
    LLaMA's RoPE at head dim 128 for both bases: per-pair wavelengths and how many pairs never
    complete a turn within LLaMA-2's training length."""

    gpt2: ModelFacts
    llama2: ModelFacts
    llama3: ModelFacts
    table: np.ndarray  # (n_max, d_model)
    zoom: tuple[int, int]  # rows, cols of the table's corner shown large
    sample_rows: np.ndarray  # the rows drawn for the whole table (every k-th)
    sample_cols: np.ndarray  # the features drawn for the whole table
    cmap: str
    wavelengths: np.ndarray  # (2, head_dim/2): base llama2, base llama3
    slow_pairs: int  # LLaMA-2 pairs without a full turn in its train_length
    n_pairs: int

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
        return GPT2ToLLaMAData(
            gpt2=g, llama2=l2, llama3=l3,
            table=learned_absolute_table(g.d_model, g.n_max, cfg.seed), zoom=cls.ZOOM, cmap=cfg.cmap_signed,
            sample_rows=np.arange(0, g.n_max, g.n_max // cls.SAMPLE[0]),
            sample_cols=np.arange(0, g.d_model, g.d_model // cls.SAMPLE[1]),
            wavelengths=np.stack([rope_wavelengths(l2.head_dim, l2.rope_base), rope_wavelengths(l3.head_dim, l3.rope_base)]),
            slow_pairs=pairs_without_a_turn(l2.head_dim, l2.train_length, l2.rope_base),
            n_pairs=l2.head_dim // 2,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "n_max": fmt_count(d.gpt2.n_max), "d_model": d.gpt2.d_model, "head_dim": d.llama2.head_dim,
            "pairs": d.n_pairs, "slow": d.slow_pairs, "train2": fmt_count(d.llama2.train_length),
            "base2": fmt_count(d.llama2.rope_base), "base3": fmt_count(d.llama3.rope_base),
            "wl2": fmt_count(round(d.wavelengths[0, -1])), "wl3": fmt_count(round(d.wavelengths[1, -1])),
        }

    def make_mobjects(self) -> None:
        d = self.data
        g, l2, l3 = d.gpt2, d.llama2, d.llama3
        left, right = self.layout.content.columns(6.6, 6.4, gap=0.5)
        self.left_region = left
        scale = ColorScale.symmetric(d.cmap, d.table)
        self.scale = scale

        # ================= GPT-2: the table =================
        self.gpt_head = label(f"{g.name}: {g.scheme}", size=LABEL, weight="BOLD")
        strip, rest = left.take_top(self.gpt_head.height, gap=0.2)
        strip.place(self.gpt_head, LEFT)
        self.shape_text = label(f"wpe: ({fmt_count(d.table.shape[0])}, {d.table.shape[1]})", size=SMALL, color=FG)
        strip, rest = rest.take_top(self.shape_text.height, gap=0.12)
        strip.place(self.shape_text, LEFT)
        self.cap_text = label(f"no row {fmt_count(g.n_max)}", size=SMALL, color=BAD)
        cap_strip, rest = rest.take_bottom(self.cap_text.height, gap=0.22)
        # every k-th row and feature drawn as a cell (real entries, no averaging)
        rows, cols = d.sample_rows, d.sample_cols
        cell = rest.height / len(rows)
        self.image = Heatmap(d.table[np.ix_(rows, cols)], scale, cell_size=cell)
        rest.inset(0.08, 0).place(self.image, UP + LEFT)
        for row in self.image.cells:
            for sq in row:
                sq.set_stroke(width=0.6)
        self.frame = Rectangle(width=self.image.width, height=self.image.height, stroke_color=DIM,
                               stroke_width=2).move_to(self.image)
        self.shape_text.align_to(self.image, LEFT)
        yb = self.image.get_bottom()[1]
        self.cap_line = Line([self.image.get_left()[0] - 0.06, yb, 0], [self.image.get_right()[0] + 0.06, yb, 0],
                             stroke_color=BAD, stroke_width=8)
        cap_strip.place(self.cap_text, LEFT)

        # a corner of the table, cell by cell, beside it (tops aligned: the connectors run over cells only)
        side = Region(self.image.get_right()[0] + 0.5, left.right, rest.bottom, rest.top, "zoom")
        r, c = d.zoom
        lim = float(scale.norm.vmax)
        bar_probe = ColorBar(scale, height=1.0, width=0.2, ticks=[-lim, 0.0, lim], tick_format=lambda v: fmt_value(v, 2))
        bar_room = bar_probe.width + 0.3
        texts_h = 3 * label("Xg", size=SMALL).height + 0.12 + 0.2 + 0.2 + 0.5  # zoom text, params, sample (2 lines)
        zcell = min((side.width - bar_room) / c, (side.height - texts_h) / r, 0.42)
        self.zoom_map = Heatmap(d.table[:r, :c], scale, cell_size=zcell)
        side.place(self.zoom_map, UP + LEFT)
        # colour encodes the entries: the bar beside the zoomed cells, as tall as they are
        self.colorbar = ColorBar(scale, height=self.zoom_map.height, width=0.2, ticks=[-lim, 0.0, lim],
                                 tick_format=lambda v: fmt_value(v, 2))
        self.colorbar.next_to(self.zoom_map, RIGHT, buff=0.2).align_to(self.zoom_map, UP)
        corner = SurroundingRectangle(self.image.cell(0, 0), color=ACCENT, buff=0.02, stroke_width=3)
        self.corner = corner
        self.zoom_lines = VGroup(
            Line(corner.get_corner(UP + RIGHT), self.zoom_map.get_corner(UP + LEFT), stroke_color=ACCENT, stroke_width=1.5),
            Line(corner.get_corner(DOWN + RIGHT), self.zoom_map.get_corner(DOWN + LEFT), stroke_color=ACCENT, stroke_width=1.5),
        )
        self.zoom_text = label(f"rows 0–{r - 1}, features 0–{c - 1}", size=SMALL, color=DIM)
        self.zoom_text.next_to(VGroup(self.zoom_map, self.colorbar), DOWN, buff=0.12).align_to(self.zoom_map, LEFT)
        self.params_value = label(fmt_count(d.n_params), size=LABEL, color=FG, weight="BOLD")
        self.params_text = VGroup(self.params_value, label("parameters", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.15)
        self.params_text[1].align_to(self.params_text[0], DOWN)
        self.params_text.next_to(self.zoom_text, DOWN, buff=0.2).align_to(self.zoom_map, LEFT)
        self.sample_text = fit_label(f"left: every {ordinal(rows[1] - rows[0])} row and "
                                     f"{ordinal(cols[1] - cols[0])} feature", side.width, size=SMALL, color=DIM,
                                     max_lines=2, line_buff=0.08)
        self.sample_text.next_to(self.params_text, DOWN, buff=0.2).align_to(self.zoom_map, LEFT)

        # ================= LLaMA: no table, a formula per pair =================
        self.llama_head = label("LLaMA: RoPE", size=LABEL, weight="BOLD")
        self.facts = label("no table · no cap", size=SMALL, color=DIM)
        head = VGroup(self.llama_head, self.facts).arrange(RIGHT, buff=0.3)
        self.facts.align_to(self.llama_head, DOWN)
        strip, rest = right.take_top(head.height, gap=0.2)
        strip.place(head, LEFT)
        self.formula = math("m dot theta_i, quad theta_i = b^(-2i slash d)", size=LABEL)
        self.dim_text = label(f"d = {l2.head_dim}", size=SMALL, color=DIM)
        line = VGroup(self.formula, self.dim_text).arrange(RIGHT, buff=0.4)
        strip, rest = rest.take_top(line.height, gap=0.2)
        strip.place(line, LEFT)
        self.base_colors = (BLUE, PURPLE_)
        self.legend = VGroup(*[label(f"{m.name}: b = {fmt_count(m.rope_base)}", size=SMALL, color=self.base_colors[k])
                               for k, m in enumerate((l2, l3))]).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        strip, rest = rest.take_top(self.legend.height, gap=0.25)
        strip.place(self.legend, LEFT)
        self.plot_title = label("positions per full turn", size=SMALL, color=FG)
        strip, rest = rest.take_top(self.plot_title.height, gap=0.1)

        sup = {1: "10", 3: "10\u00b3", 5: "10\u2075", 7: "10\u2077"}
        fmt = lambda v: sup.get(int(round(np.log10(v))), f"{v:g}") if v >= 10 else f"{int(v)}"  # noqa: E731
        x_ticks = [0, d.n_pairs // 2, d.n_pairs - 1]
        probe = Plot((0, d.n_pairs - 1), (1, 1e7), width=3, height=1, y_log=True, x_ticks=x_ticks,
                     y_ticks=[10, 1e3, 1e5, 1e7], tick_format=fmt, x_label="pair i")
        below_axis = probe.axes[0].get_bottom()[1] - probe.get_bottom()[1] + 0.05
        tick_room = probe.y_tick_labels.width + 0.2
        # labels at the right end of the plot: each curve's last wavelength, the training length, the count
        self.wl_values = VGroup(*[label(fmt_count(round(d.wavelengths[k, -1])), size=SMALL,
                                        color=self.base_colors[k], weight="BOLD") for k in range(2)])
        self.train_text = label(f"trained: {fmt_count(l2.train_length)}", size=SMALL, color=GOOD)
        self.slow_value = label(f"{d.slow_pairs} of {d.n_pairs}", size=LABEL, color=BAD, weight="BOLD")
        self.slow_text = VGroup(self.slow_value, label(f"{l2.name} pairs", size=SMALL, color=BLUE),
                                label("never turn", size=SMALL, color=DIM)).arrange(DOWN, buff=0.03, aligned_edge=LEFT)
        end_room = max(m.width for m in (*self.wl_values, self.train_text, self.slow_text)) + 0.2
        self.plot = Plot((0, d.n_pairs - 1), (1, 1e7), width=rest.width - tick_room - end_room,
                         height=rest.height - below_axis, y_log=True, x_ticks=x_ticks, y_ticks=[10, 1e3, 1e5, 1e7],
                         tick_format=fmt, x_label="pair i")
        self.plot.shift(np.array([rest.left + tick_room, rest.bottom + below_axis, 0]) - self.plot.axes[0].get_start())
        p = self.plot
        self.plot_title.next_to(p.axes[1], UP, buff=0.12).align_to(p.axes[1], LEFT)
        i = np.arange(d.n_pairs)
        self.wl_curves = VGroup(*[p.curve(i, d.wavelengths[k], color=self.base_colors[k], stroke_width=4)
                                  for k in range(2)])
        self.train_line = p.hline(l2.train_length, color=GOOD, dashed=True, stroke_width=2.5)
        x1 = p.axes[0].get_right()[0]
        y_line = self.train_line.get_y()
        ends = [p.to_point(d.n_pairs - 1, d.wavelengths[k, -1]) for k in range(2)] + [np.array([x1, y_line, 0])]
        self.end_labels = place_annotations([*self.wl_values, self.train_text], ends, side=RIGHT, buff=0.12, gap=0.08,
                                            bounds=(p.axes[0].get_y(), p.axes[1].get_top()[1] + 0.3))
        # the count sits low at the right end, under the training line
        self.slow_text.next_to(np.array([x1, p.axes[0].get_y(), 0]), RIGHT, buff=0.12).align_to(
            np.array([0, p.axes[0].get_y(), 0]), DOWN)
        # which LLaMA-2 pairs never turn within training: a band over them, above the training line
        first_slow = d.n_pairs - d.slow_pairs
        xa = p.to_point(max(first_slow - 0.5, 0), 1)[0]
        self.slow_band = Rectangle(width=x1 - xa, height=p.axes[1].get_top()[1] - y_line, stroke_width=0,
                                   fill_color=BAD, fill_opacity=0.14)
        self.slow_band.move_to([(xa + x1) / 2, (y_line + p.axes[1].get_top()[1]) / 2, 0])
        background(self.slow_band)

    def body(self) -> None:
        self.make_mobjects()
        p = self.plot
        self.beat("table", FadeIn(self.gpt_head), FadeIn(self.image), Create(self.frame), FadeIn(self.shape_text),
                  FadeIn(self.sample_text), run_time=1.4)
        self.beat("corner", Create(self.corner), Create(self.zoom_lines), FadeIn(self.zoom_map), FadeIn(self.zoom_text),
                  FadeIn(self.colorbar),
                  FadeIn(self.params_text), run_time=1.4)
        self.beat("cap", Create(self.cap_line), FadeIn(self.cap_text, shift=0.1 * DOWN), run_time=1.0)
        # focus by dimming: a veil over GPT-2's half while LLaMA's is the subject, lifted for the tie
        veil = Rectangle(width=self.left_region.width + 0.3, height=self.left_region.height, stroke_width=0,
                         fill_color=BG, fill_opacity=0.0).move_to(self.left_region.center)
        self.veil = background(veil)
        self.add(veil)
        self.beat("rope", veil.animate.set_fill(opacity=0.65), FadeIn(self.llama_head), FadeIn(self.facts),
                  FadeIn(self.formula), FadeIn(self.dim_text),
                  Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels), FadeIn(p.y_tick_labels),
                  FadeIn(p.x_axis_label), FadeIn(self.plot_title), run_time=1.2)
        self.beat("speeds", FadeIn(self.legend[0]), Create(self.wl_curves[0]), FadeIn(self.wl_values[0]), run_time=1.6)
        self.add(self.slow_band)
        self.bring_to_back(self.slow_band)
        self.slow_band.set_fill(opacity=0)
        self.beat("slow", Create(self.train_line), FadeIn(self.train_text), FadeIn(self.slow_text),
                  FadeIn(self.end_labels.leaders),
                  self.slow_band.animate.set_fill(opacity=0.14), run_time=1.2)
        self.beat("base", Create(self.wl_curves[1]), FadeIn(self.legend[1]), FadeIn(self.wl_values[1]), run_time=1.4)
        self.beat("tie", self.veil.animate.set_fill(opacity=0.0), Indicate_all(self.cap_text, self.slow_value),
                  run_time=1.2)
        self.remove(self.veil)
