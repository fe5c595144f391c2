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
    Line,
    Polygon,
    Rectangle,
    ReplacementTransform,
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
from scenes.kit.stills import CurveStill
from scenes.kit import (
    ACCENT,
    BLUE,
    ColorScale,
    Heatmap,
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


class PositionalDilution(ClipScene):
    """12 · Positional dilution: far positions blur together."""

    FACTOR = 2.0  # "a position at least twice as far"
    PLOT_W, PLOT_H = 7.6, 4.3

    @classmethod
    def stills(cls, data, cfg) -> list:
        """cos(P[0], P[t]) on a log t axis for each width, every computed sample."""
        return [CurveStill("dilution", "cos(P[0], P[t]), sinusoidal positions", data.t,
                           tuple((f"d = {w}", c) for w, c in zip(data.widths, data.cos)),
                           x_log=True, xlabel="position t", ylabel="cosine similarity")]

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PositionalDilutionData:
        t, cos = sinusoidal_dilution(cfg.dilution_t_max, cfg.dilution_widths, cfg.rope_base)
        return PositionalDilutionData(
            t=t, cos=cos, widths=tuple(cfg.dilution_widths), base=cfg.rope_base, factor=cls.FACTOR,
            onsets=tuple(ambiguity_onset(row, cls.FACTOR) for row in cos),
        )

    def caption_values(self) -> dict:
        d = self.data
        parts = [f"{fmt_count(o.t)} at d = {w}" for w, o in zip(d.widths, d.onsets) if o.t is not None]
        return {
            "t_max": fmt_count(d.t[-1]),
            "widths": ", ".join(str(w) for w in d.widths),
            "first_width": d.widths[0],
            "onsets": ", ".join(parts) if parts else "nowhere",
        }

    def make_mobjects(self) -> None:
        d = self.data
        t_max = int(d.t[-1])
        x_ticks = [10.0**k for k in range(0, int(np.floor(np.log10(t_max))) + 1)]
        lo = min(-1.0, float(np.floor(d.cos.min() * 2) / 2))
        self.plot = Plot(
            (1, t_max), (lo, 1.0), width=self.PLOT_W, height=self.PLOT_H, x_log=True,
            x_ticks=x_ticks, y_ticks=[lo, lo / 2, 0.0, 0.5, 1.0], x_label="position t (log scale)",
        )
        self.plot.move_to([-2.45, -0.4, 0])
        self.formula = math("cos(P_0, P_t)", size=LABEL).next_to(self.plot.axes[1].get_top(), UP, buff=0.2)
        self.formula.align_to(self.plot.axes[1], LEFT).shift(0.1 * RIGHT)
        self.zero = self.plot.hline(0.0, color=DIM, dashed=True, stroke_width=1.5)

        self.curves = VGroup(*[
            self.plot.curve(d.t, row, color=WIDTH_COLORS[k % len(WIDTH_COLORS)], stroke_width=2.2, buckets=300)
            for k, row in enumerate(d.cos)
        ])

        # legend / readout panel on the right
        x0 = self.plot.axes[0].get_right()[0] + 0.55
        self.panel_title = label("sinusoidal, base " + fmt_count(d.base), size=SMALL, color=DIM)
        rows = []
        self.width_labels = VGroup()
        self.onset_values = VGroup()
        for k, (w, o) in enumerate(zip(d.widths, d.onsets)):
            c = WIDTH_COLORS[k % len(WIDTH_COLORS)]
            swatch = Line(ORIGIN3, 0.45 * RIGHT, stroke_color=c, stroke_width=6)
            wl = label(f"d = {w}", size=LABEL, color=c)
            val = label(fmt_count(o.t) if o.t is not None else "none", size=LABEL, color=FG)
            self.width_labels.add(wl)
            self.onset_values.add(val)
            rows.append(VGroup(swatch, wl, val))
        self.legend_rows = VGroup(*rows)
        col_t = x0 + 3.3
        top = self.plot.axes[1].get_top()[1] - 0.1
        self.legend_head = label("t*", size=LABEL, color=ACCENT).move_to([col_t, top, 0])
        for k, (swatch, wl, val) in enumerate(rows):
            y = top - 0.62 * (k + 1)
            swatch.move_to([x0 + 0.22, y, 0])
            wl.next_to(swatch, RIGHT, buff=0.2).set_y(y)
            val.move_to([col_t, y, 0])
        self.panel_title.next_to(self.legend_rows, UP, buff=0.2).align_to(swatch, LEFT)
        self.panel_title.set_y(self.formula.get_y())

        rule_lines = [
            "t*: the first position",
            "that some position at",
            f"least {self.FACTOR:g}× as far matches",
            "in similarity to P₀",
        ]
        self.rule = VGroup(*[label(s, size=SMALL, color=DIM) for s in rule_lines]).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        self.rule.next_to(self.legend_rows, DOWN, buff=0.45).align_to(self.legend_rows, LEFT)

        # markers: a ring at (t*, c(t*)), a ring at the witness, a dashed link between
        self.markers = VGroup()
        for k, o in enumerate(d.onsets):
            if o.t is None:
                self.markers.add(VGroup())
                continue
            c = WIDTH_COLORS[k % len(WIDTH_COLORS)]
            p_t = self.plot.to_point(o.t, o.cos_t)
            p_s = self.plot.to_point(o.witness, o.cos_witness)
            ring_t = Circle(radius=0.11, stroke_color=ACCENT, stroke_width=4).move_to(p_t)
            ring_s = Circle(radius=0.11, stroke_color=ACCENT, stroke_width=3).move_to(p_s)
            dot_t = self.plot.dot(o.t, o.cos_t, color=c, radius=0.06)
            link = DashedLine(p_t, p_s, stroke_color=ACCENT, stroke_width=2.5, dash_length=0.08)
            drop = DashedLine(p_t, self.plot.to_point(o.t, self.plot.y_range[0]), stroke_color=c, stroke_width=2,
                              dash_length=0.08)
            self.markers.add(VGroup(drop, link, dot_t, ring_t, ring_s))

    def body(self) -> None:
        self.make_mobjects()
        p = self.plot
        self.beat("axes", Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels), FadeIn(p.y_tick_labels),
                  FadeIn(p.x_axis_label), FadeIn(self.formula), FadeIn(self.zero), run_time=1.4)
        self.beat("first", FadeIn(self.panel_title), FadeIn(self.legend_rows[0][:2]),
                  Create(self.curves[0]), run_time=2.0)
        if len(self.curves) > 1:
            self.beat("wider", *[Create(c) for c in self.curves[1:]],
                      *[FadeIn(r[:2]) for r in self.legend_rows[1:]], run_time=2.0)
        self.beat("rule", FadeIn(self.legend_head), FadeIn(self.rule, shift=0.1 * UP), run_time=1.0)
        self.beat("marks", LaggedStart(*[AnimationGroup(FadeIn(m), FadeIn(v))
                                         for m, v in zip(self.markers, self.onset_values)], lag_ratio=0.5),
                  run_time=2.0)
        self.beat("meaning", *[c.animate.set_stroke(opacity=0.55) for c in self.curves[:-1]], run_time=1.0)



# ====================================================================== 13 ExtrapolationCliff
@dataclass(frozen=True)
class ExtrapolationCliffData:
    """What clip 13 draws, all from mathcore and the config.

    ``positions: (n,)`` are ``1..x_max`` (``x_max = 4·n_max``); ``unseen[k]`` is the number of
    RoPE pairs (head dim ``head_dim``) at angles never seen in training at ``positions[k]``.
    ``stops`` are the walker's keyframes; ``report`` asks every scheme for them
    (``extrapolation_report``); ``stop_*`` give the two dials' pairs at each stop."""

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

    @property
    def n_pairs(self) -> int:
        return self.head_dim // 2


class ExtrapolationCliff(ClipScene):
    """13 · The extrapolation cliff: walking a position past the training length."""

    LEFT_X, RIGHT_X = -6.2, 1.35  # the lanes' position axis
    LANE_A, LANE_B = 2.1, 0.95  # bar centres
    BAR_H = 0.34
    PLOT_BOTTOM, PLOT_H = -2.2, 1.8

    @classmethod
    def stills(cls, data, cfg) -> list:
        """The cliff: RoPE pairs at angles never seen in training, per position."""
        return [CurveStill("unseen_pairs",
                           f"RoPE pairs at unseen angles (head dim {data.head_dim}, trained to L = {data.train_length})",
                           data.positions, (("pairs at unseen angles", data.unseen),), x_log=True,
                           xlabel="position m", ylabel=f"pairs of {data.head_dim // 2}",
                           vlines=((data.train_length, f"L = {data.train_length}"),
                                   (data.n_max, f"n_max = {data.n_max}: learned table ends")))]

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> ExtrapolationCliffData:
        L, n_max, base = cfg.train_length, cfg.n_max, cfg.rope_base
        d = LLAMA2.head_dim
        x_max = 4 * n_max
        positions = np.arange(1, x_max + 1)
        stops = (L - 1, L, n_max, x_max)
        pairs = (0, d // 4)
        angles = np.array([pair_angles(m, d, base)[list(pairs)] for m in stops])
        turns = np.array([pair_turns(m, d, base)[list(pairs)] for m in stops])
        unseen_at = rope_unseen_pairs(list(stops), d, L, base)
        return ExtrapolationCliffData(
            train_length=L, n_max=n_max, x_max=x_max, head_dim=d, base=base,
            positions=positions, unseen=unseen_pair_counts(positions, d, L, base),
            n_wrapped=int(wrapped_in_training(d, L, base).sum()), stops=stops,
            report=extrapolation_report(list(stops), d, n_max, cfg.seed, base),
            pairs=pairs, arcs=training_arcs(d, L, base)[list(pairs)],
            stop_angles=angles, stop_turns=turns, stop_unseen=unseen_at[:, list(pairs)],
            stop_counts=unseen_at.sum(axis=1),
        )

    def caption_values(self) -> dict:
        d = self.data
        return {
            "L": d.train_length, "L_last": d.train_length - 1, "n_max": fmt_count(d.n_max),
            "x_max": fmt_count(d.x_max), "pairs": d.n_pairs, "head_dim": d.head_dim,
            "jump": int(d.stop_counts[1]), "wrapped": d.n_wrapped,
            "fast_turns": fmt_count(d.stop_turns[2, 0]),
        }

    # ------------------------------------------------------------------ layout
    def x_of(self, m: float) -> float:
        return float(self.plot.to_point(m, 0.0)[0])

    def bar(self, m0: float, m1: float, y: float, color, opacity: float) -> Rectangle:
        x0, x1 = self.x_of(m0), self.x_of(m1)
        return Rectangle(width=x1 - x0, height=self.BAR_H, stroke_width=0, fill_color=color,
                         fill_opacity=opacity).move_to([(x0 + x1) / 2, y, 0])

    def make_mobjects(self) -> None:
        d = self.data
        L, n_max, x_max = d.train_length, d.n_max, d.x_max
        self.plot = Plot(
            (1, x_max), (0, d.n_pairs), width=self.RIGHT_X - self.LEFT_X, height=self.PLOT_H, x_log=True,
            x_ticks=[1, 10], y_ticks=[0, d.n_pairs // 2, d.n_pairs], x_label="position m (log scale)",
        )
        self.plot.shift(np.array([self.LEFT_X, self.PLOT_BOTTOM, 0]) - self.plot.axes[0].get_start())
        ref = self.plot.x_tick_labels[0]
        self.L_tick = label(f"L = {L}", size=SMALL, color=GOOD).move_to([self.x_of(L), ref.get_y(), 0])
        self.n_tick = label(f"n_max = {fmt_count(n_max)}", size=SMALL, color=BAD).move_to([self.x_of(n_max), ref.get_y(), 0])
        self.ticks = VGroup(self.plot.x_tick_labels, self.L_tick, self.n_tick)
        self.plot.x_axis_label.set_x(self.plot.axes[0].get_center()[0])

        def title(text, y):
            return label(text, size=SMALL, color=FG).move_to([0, y, 0]).align_to([self.LEFT_X, 0, 0], LEFT)

        gap = self.BAR_H / 2 + 0.3
        self.title_a = title(f"learned-absolute: a table of {fmt_count(n_max)} rows", self.LANE_A + gap)
        self.title_b = title("sinusoidal: a formula, for any m", self.LANE_B + gap)
        self.title_c = title(f"RoPE, head dim {d.head_dim}: pairs at new angles",
                             self.PLOT_BOTTOM + self.PLOT_H + 0.3)
        self.trained = VGroup(self.bar(1, L, self.LANE_A, GOOD, 0.85), self.bar(1, L, self.LANE_B, GOOD, 0.85))
        self.untrained_a = self.bar(L, n_max, self.LANE_A, DIM, 0.45)
        self.unseen_b = self.bar(L, x_max, self.LANE_B, DIM, 0.45)
        xw = self.x_of(n_max)
        self.wall = Line([xw, self.LANE_A - 0.38, 0], [xw, self.LANE_A + 0.38, 0], stroke_color=BAD, stroke_width=9)
        self.no_row = label("no row", size=SMALL, color=BAD).next_to(self.wall, RIGHT, buff=0.12).set_y(self.LANE_A - 0.45)
        self.trained_tag = label("trained", size=SMALL, color=BG, weight="BOLD").move_to(self.trained[0])

        top, bottom = self.LANE_A + 0.45, self.PLOT_BOTTOM
        # dashed guides at L and n_max through each lane, leaving the lane titles clear
        spans = [(self.LANE_A - 0.3, self.LANE_A + 0.3), (self.LANE_B - 0.3, self.LANE_B + 0.3),
                 (bottom, bottom + self.PLOT_H)]
        self.guides = VGroup(*[
            VGroup(*[DashedLine([x, y0, 0], [x, y1, 0], stroke_color=c, stroke_width=2, dash_length=0.1)
                     for y0, y1 in spans])
            for x, c in ((self.x_of(L), GOOD), (xw, BAD))
        ])

        # RoPE lane: the count of unseen pairs, a filled area under the computed curve
        self.curve = self.plot.curve(d.positions, d.unseen, color=BAD, stroke_width=2.5, buckets=300)
        pts = self.curve.points
        base_l, base_r = self.plot.to_point(d.positions[0], 0), self.plot.to_point(d.positions[-1], 0)
        corners = [base_l] + [pts[0]] + [pts[k] for k in range(3, len(pts), 4)] + [base_r]
        self.area = Polygon(*corners, stroke_width=0, fill_color=BAD, fill_opacity=0.3)

        # walker
        self.walker = Line([0, bottom, 0], [0, top, 0], stroke_color=ACCENT, stroke_width=4).set_x(self.x_of(d.stops[0]))
        self.m_value = label(fmt_count(d.stops[0]), size=LABEL + 4, color=ACCENT, weight="BOLD")
        self.m_head = label("m =", size=LABEL + 4, color=ACCENT)
        VGroup(self.m_head, self.m_value).arrange(RIGHT, buff=0.15).move_to([4.45, 2.55, 0])
        self.m_value.align_to(self.m_head, DOWN)

        # dials for the fast and the slow pair, with the arc each swept in training
        self.dials, self.arcs, self.turn_texts, self.status_texts, self.dial_heads = [], VGroup(), [], [], VGroup()
        for k, (i, x) in enumerate(zip(d.pairs, (3.3, 5.6))):
            dial = VectorDial(d.stop_angles[0, k], radius=0.68, color=FG, show_ticks=True).move_to([x, 0.95, 0])
            arc = Arc(radius=0.68, start_angle=0, angle=float(d.arcs[k]), arc_center=dial.center,
                      stroke_color=GOOD, stroke_width=9)
            head = label(f"{'fast' if k == 0 else 'slow'} pair {i}", size=SMALL, color=DIM).next_to(dial, UP, buff=0.18)
            self.dials.append(dial)
            self.arcs.add(arc)
            self.dial_heads.add(head)
            self.turn_texts.append(self.turns_text(k, 0).next_to(dial, DOWN, buff=0.18))
            self.status_texts.append(self.status_text(k, 0).next_to(self.turn_texts[k], DOWN, buff=0.12))
        self.dial_group = VGroup(*self.dials, self.arcs, self.dial_heads, *self.turn_texts, *self.status_texts)
        self.count_head = VGroup(label("RoPE pairs at", size=SMALL, color=DIM),
                                 label("unseen angles", size=SMALL, color=DIM)).arrange(DOWN, buff=0.1)
        self.count_head.move_to([4.45, self.PLOT_BOTTOM + 1.15, 0])
        self.count_text = self.count_label(0).next_to(self.count_head, DOWN, buff=0.2)

        # the lookup's own error message, wrapped
        self.error_lines = textwrap.wrap(d.report.learned_error, 34)
        msg = VGroup(*[mono(s, size=SMALL, color=FG) for s in self.error_lines]).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        head = mono("PositionOutOfRangeError", size=SMALL, color=BAD)
        body = VGroup(head, msg).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        box = Rectangle(width=body.width + 0.5, height=body.height + 0.45, stroke_color=BAD, stroke_width=3,
                        fill_color=BG, fill_opacity=0.96)
        self.error_box = VGroup(box, body.move_to(box)).move_to([(self.LEFT_X + self.RIGHT_X) / 2, -0.55, 0])
        self.error_text = msg

    def turns_text(self, k: int, stop: int):
        n = int(self.data.stop_turns[stop, k])
        return label(f"{fmt_count(n)} turn{'s' if n != 1 else ''}", size=SMALL, color=FG)

    def status_text(self, k: int, stop: int):
        bad = bool(self.data.stop_unseen[stop, k])
        return label("unseen" if bad else "seen", size=SMALL, color=BAD if bad else GOOD)

    def count_label(self, stop: int):
        d = self.data
        c = int(d.stop_counts[stop])
        return label(f"{c} of {d.n_pairs}", size=LABEL + 4, color=BAD if c else GOOD, weight="BOLD")

    def move_to_stop(self, stop: int) -> list:
        """Animations that walk to ``stops[stop]`` and update every readout there."""
        d = self.data
        m = d.stops[stop]
        anims = [self.walker.animate.set_x(self.x_of(m))]
        new_m = label(fmt_count(m), size=LABEL + 4, color=ACCENT, weight="BOLD")
        new_m.next_to(self.m_head, RIGHT, buff=0.15).align_to(self.m_head, DOWN)
        anims.append(ReplacementTransform(self.m_value, new_m))
        self.m_value = new_m
        for k, dial in enumerate(self.dials):
            anims.append(dial.rotate_to(float(d.stop_angles[stop, k])))
            t = self.turns_text(k, stop).move_to(self.turn_texts[k])
            st = self.status_text(k, stop).move_to(self.status_texts[k])
            anims += [ReplacementTransform(self.turn_texts[k], t), ReplacementTransform(self.status_texts[k], st)]
            self.turn_texts[k], self.status_texts[k] = t, st
        c = self.count_label(stop).move_to(self.count_text)
        anims.append(ReplacementTransform(self.count_text, c))
        self.count_text = c
        self.stop = stop
        return anims

    def body(self) -> None:
        self.make_mobjects()
        p = self.plot
        self.beat("train", FadeIn(self.title_a), FadeIn(self.title_b), FadeIn(self.trained), FadeIn(self.trained_tag),
                  FadeIn(self.guides[0]), FadeIn(p.x_tick_labels), FadeIn(self.L_tick), FadeIn(p.x_axis_label), run_time=1.4)
        self.beat("schemes", FadeIn(self.untrained_a), FadeIn(self.unseen_b), Create(self.wall),
                  FadeIn(self.guides[1]), FadeIn(self.n_tick), run_time=1.4)
        self.beat("rope", FadeIn(self.title_c), Create(p.axes), FadeIn(p.grid), FadeIn(p.y_tick_labels),
                  Create(self.curve), FadeIn(self.area), run_time=2.0)
        self.beat("dials", FadeIn(self.walker), FadeIn(self.m_head), FadeIn(self.m_value),
                  FadeIn(self.dial_group), FadeIn(self.count_head), FadeIn(self.count_text), run_time=1.2)
        self.beat("step", *self.move_to_stop(1), run_time=1.2)
        self.beat("wall", *self.move_to_stop(2), run_time=1.6)
        self.beat("error", Flash(self.wall.get_center(), color=BAD, line_length=0.3, flash_radius=0.45),
                  FadeIn(self.error_box, shift=0.1 * UP), run_time=1.0, hold=1.6)
        self.play(FadeOut(self.error_box), FadeIn(self.no_row), run_time=0.8)
        self.beat("wrapped", Indicate_all(self.dials[0], self.turn_texts[0]), run_time=1.2)
        self.beat("far", *self.move_to_stop(3), run_time=1.6)


def Indicate_all(*mobs):
    from manim import Indicate

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
        g = d.gpt2
        top = self.content_top
        scale = ColorScale.symmetric(d.cmap, d.table)
        self.scale = scale
        # ---- GPT-2: the table, every k-th row and feature drawn as a cell (real entries, no averaging)
        rows, cols = d.sample_rows, d.sample_cols
        self.image = Heatmap(d.table[np.ix_(rows, cols)], scale, cell_size=4.0 / len(rows))
        self.image.move_to([-5.2, -0.55, 0])
        for row in self.image.cells:
            for sq in row:
                sq.set_stroke(width=0.6)
        self.frame = Rectangle(width=self.image.width, height=self.image.height, stroke_color=DIM, stroke_width=2).move_to(self.image)
        self.sample_text = VGroup(label(f"every {ordinal(rows[1] - rows[0])} row,", size=SMALL, color=DIM),
                                  label(f"{ordinal(cols[1] - cols[0])} feature", size=SMALL, color=DIM)).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        self.sample_text.next_to(self.image, RIGHT, buff=0.25).align_to(self.image, DOWN)
        self.gpt_head = label(f"{g.name}: {g.scheme}", size=LABEL, weight="BOLD").move_to([0, top - 0.25, 0])
        self.gpt_head.align_to([-6.75, 0, 0], LEFT)
        self.shape_text = label(f"wpe: ({fmt_count(d.table.shape[0])}, {d.table.shape[1]})", size=SMALL, color=FG)
        self.shape_text.next_to(self.image, UP, buff=0.15)
        yb = self.image.get_bottom()[1]
        self.cap_line = Line([self.image.get_left()[0] - 0.15, yb, 0], [self.image.get_right()[0] + 0.15, yb, 0],
                             stroke_color=BAD, stroke_width=8)
        self.cap_text = label(f"no row {fmt_count(g.n_max)}", size=SMALL, color=BAD).next_to(self.cap_line, DOWN, buff=0.15)

        # ---- a corner of the table, cell by cell
        r, c = d.zoom
        self.zoom_map = Heatmap(d.table[:r, :c], scale, cell_size=0.27).move_to([-1.95, 0.62, 0])
        corner = SurroundingRectangle(self.image.cell(0, 0), color=ACCENT, buff=0.02, stroke_width=3)
        self.corner = corner
        self.zoom_lines = VGroup(
            Line(corner.get_corner(UP + RIGHT), self.zoom_map.get_corner(UP + LEFT), stroke_color=ACCENT, stroke_width=1.5),
            Line(corner.get_corner(DOWN + RIGHT), self.zoom_map.get_corner(DOWN + LEFT), stroke_color=ACCENT, stroke_width=1.5),
        )
        self.zoom_text = label(f"rows 0–{r - 1}, features 0–{c - 1}", size=SMALL, color=DIM).next_to(self.zoom_map, DOWN, buff=0.12)
        self.params_value = label(fmt_count(d.n_params), size=LABEL, color=FG, weight="BOLD")
        self.params_text = VGroup(self.params_value, label("parameters", size=SMALL, color=DIM)).arrange(RIGHT, buff=0.15)
        self.params_text.next_to(self.zoom_text, DOWN, buff=0.22)
        self.params_text[1].align_to(self.params_text[0], DOWN)

        # ---- LLaMA: no table, a formula per pair
        l2, l3 = d.llama2, d.llama3
        x0 = 0.15
        self.llama_head = label("LLaMA: RoPE", size=LABEL, weight="BOLD").move_to([0, top - 0.25, 0]).align_to([x0, 0, 0], LEFT)
        self.facts = label("no table · no cap", size=SMALL, color=DIM).next_to(self.llama_head, RIGHT, buff=0.3)
        self.facts.align_to(self.llama_head, DOWN)
        self.formula = math("m dot theta_i, quad theta_i = b^(-2i slash d)", size=LABEL)
        self.formula.next_to(self.llama_head, DOWN, buff=0.3).align_to(self.llama_head, LEFT)
        self.base_colors = (BLUE, PURPLE_)
        self.legend = VGroup(*[label(f"{m.name}: b = {fmt_count(m.rope_base)}", size=SMALL, color=self.base_colors[k])
                               for k, m in enumerate((l2, l3))]).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        self.legend.next_to(self.formula, DOWN, buff=0.25).align_to(self.llama_head, LEFT)
        self.dim_text = label(f"d = {l2.head_dim}", size=SMALL, color=DIM).next_to(self.formula, RIGHT, buff=0.4)

        sup = {1: "10", 3: "10\u00b3", 5: "10\u2075", 7: "10\u2077"}
        self.plot = Plot((0, d.n_pairs - 1), (1, 1e7), width=3.7, height=2.1, y_log=True,
                         x_ticks=[0, d.n_pairs // 2, d.n_pairs - 1], y_ticks=[10, 1e3, 1e5, 1e7],
                         tick_format=lambda v: sup.get(int(round(np.log10(v))), f"{v:g}") if v >= 10 else f"{int(v)}",
                         x_label="pair i")
        self.plot.shift(np.array([x0 + 0.75, -1.95, 0]) - self.plot.axes[0].get_start())
        self.plot_title = label("positions per full turn", size=SMALL, color=FG)
        self.plot_title.next_to(self.plot.axes[1], UP, buff=0.12).align_to(self.plot.axes[1], LEFT)
        i = np.arange(d.n_pairs)
        self.wl_curves = VGroup(*[self.plot.curve(i, d.wavelengths[k], color=self.base_colors[k], stroke_width=4)
                                  for k in range(2)])
        self.wl_values = VGroup(*[
            label(fmt_count(round(d.wavelengths[k, -1])), size=SMALL, color=self.base_colors[k], weight="BOLD")
            .next_to(self.plot.to_point(d.n_pairs - 1, d.wavelengths[k, -1]), RIGHT, buff=0.12)
            for k in range(2)
        ])
        self.train_line = self.plot.hline(l2.train_length, color=GOOD, dashed=True, stroke_width=2.5)
        self.train_text = label(f"trained: {fmt_count(l2.train_length)}", size=SMALL, color=GOOD)
        self.train_text.next_to(self.train_line, UP, buff=0.06).align_to(self.train_line, LEFT).shift(0.1 * RIGHT)
        self.slow_value = label(f"{d.slow_pairs} of {d.n_pairs}", size=LABEL, color=BAD, weight="BOLD")
        self.slow_text = VGroup(self.slow_value, label("never turn", size=SMALL, color=DIM)).arrange(DOWN, buff=0.08)
        self.slow_text.move_to([5.75, -1.3, 0])

    def body(self) -> None:
        self.make_mobjects()
        p = self.plot
        self.beat("table", FadeIn(self.gpt_head), FadeIn(self.image), Create(self.frame), FadeIn(self.shape_text),
                  FadeIn(self.sample_text), run_time=1.4)
        self.beat("corner", Create(self.corner), Create(self.zoom_lines), FadeIn(self.zoom_map), FadeIn(self.zoom_text),
                  FadeIn(self.params_text), run_time=1.4)
        self.beat("cap", Create(self.cap_line), FadeIn(self.cap_text, shift=0.1 * DOWN), run_time=1.0)
        self.beat("rope", FadeIn(self.llama_head), FadeIn(self.facts), FadeIn(self.formula), FadeIn(self.dim_text),
                  run_time=1.2)
        self.beat("speeds", Create(p.axes), FadeIn(p.grid), FadeIn(p.x_tick_labels), FadeIn(p.y_tick_labels),
                  FadeIn(p.x_axis_label), FadeIn(self.plot_title), FadeIn(self.legend[0]), Create(self.wl_curves[0]),
                  FadeIn(self.wl_values[0]), run_time=1.6)
        self.beat("slow", Create(self.train_line), FadeIn(self.train_text), FadeIn(self.slow_text), run_time=1.2)
        self.beat("base", Create(self.wl_curves[1]), FadeIn(self.legend[1]), FadeIn(self.wl_values[1]), run_time=1.4)
        self.beat("tie", Indicate_all(self.cap_text, self.slow_value), run_time=1.2)
