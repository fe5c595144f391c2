"""12 ``PositionalDilution`` (§10): ``c(m) = cos(PE_0, PE_m)`` for ``m = 1 … dilution_t_max`` on a
log axis, for sinusoidal positions of a few widths; each curve is the computed one (drawn from
real samples only).  The marker is measured by :func:`mathcore.extrapolation.ambiguity_onset`:
the first position ``m*`` that some position ``n`` at least twice as far matches in similarity
to position 0, so similarity stops ranking distance.  Ends on where positions blur, per width.

The clip reads as a storyboard: the widgets (``scenes.clips.c12_widgets``) lay
themselves out in the regions they are given; colours, scales and proof lines come from the
description the still shares (``scenes.figures.extrapolation``).

Render directly with ``manim -ql scenes/clips/c12_positional_dilution.py PositionalDilution``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    ReplacementTransform,
    VGroup,
)

from mathcore import (
    sinusoidal_dilution,
)
from mathcore.config import LectureConfig
from mathcore.extrapolation import (
    AmbiguityOnset,
    ambiguity_onset,
)
from scenes.clips.c12_widgets import DilutionPanels
from scenes.figures.extrapolation import (
    base_relation,
    onsets_line,
    width_colors,
)
from scenes.kit import (
    DIM,
    GAP,
    SMALL,
    ClipScene,
    N,
    fmt_measure,
    label,
    math,
    names,
    shows,
)
from scenes.kit.compose import others
from scenes.kit.numbers import count


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


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

