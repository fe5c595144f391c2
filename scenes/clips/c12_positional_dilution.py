"""12 ``PositionalDilution`` (§10): ``c(m) = cos(PE_0, PE_m)`` for ``m = 1 … dilution_t_max`` on a
log axis, for sinusoidal positions of a few widths; each curve is the computed one (drawn from
real samples only).  The marker is measured by :func:`mathcore.extrapolation.ambiguity_onset`:
the first position ``m*`` that some position ``n`` at least twice as far matches in similarity
to position 0, so similarity stops ranking distance.  m* is only the *first* such position: past it,
each position either has such a farther *twin* or not (:func:`mathcore.extrapolation.ambiguity_share`),
and the clip shows the share that do, per stretch of positions and in all, never "everything blurs".
Ends on one lane per width (told apart up to m*, then the measured share with a twin) under the
verdict: how many widths blur within the positions measured.

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
    GrowFromEdge,
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
    AmbiguityShare,
    ambiguity_share,
)
from scenes.clips.c12_widgets import DilutionPanels, TwinLanes, right_column, seated, share_label, share_text, twin_bins
from scenes.figures.extrapolation import (
    base_relation,
    onsets_line,
    width_colors,
    width_ramp_words,
)
from scenes.kit import (
    DIM,
    FG,
    HEADING,
    HIGHLIGHT,
    GAP,
    LABEL,
    SMALL,
    ClipScene,
    N,
    fmt_measure,
    label,
    math,
    names,
    shows,
)
from scenes.kit.binding import claim, role
from scenes.kit.layout import Region
from scenes.kit.numbers import Figure, count, measure
from scenes.kit.theme import figure
from scenes.kit.proofs import worded_line, worded_verdict


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
    ``onset_m[k]`` the onset ``m*`` (NaN where none comes up to ``t_max``); ``shares[k]`` which positions
    have a twin and the share past ``m*`` (``ambiguity_share``); ``bins[k]`` those positions from ``m*`` on
    as one stretch, ``(lo, hi, share)`` (``c12_widgets.twin_bins``), the block its lane draws."""

    t: np.ndarray
    cos: np.ndarray
    widths: tuple[int, ...]
    base: float
    factor: float
    onsets: tuple[AmbiguityOnset, ...]
    shares: tuple[AmbiguityShare, ...] = ()
    bins: tuple = ()
    onset_m: np.ndarray = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "onset_m", np.array([np.nan if o.t is None else o.t for o in self.onsets], float))
        if not self.shares:
            object.__setattr__(self, "shares", tuple(ambiguity_share(r, self.factor) for r in self.cos))
        if not self.bins:
            object.__setattr__(self, "bins", tuple(
                twin_bins(a.twins, a.onset.t + 1) if a.onset.t is not None else twin_bins(a.twins, len(a.twins) + 1)
                for a in self.shares))

    @property
    def horizon(self) -> int:
        """The last position whose twins (at least ``factor`` times as far) lie in the data."""
        return self.shares[0].horizon

    def found(self) -> list[int]:
        """Curve indices with an onset, by width."""
        return [k for k in self.by_width() if self.onsets[k].t is not None]

    def most_blur(self) -> bool:
        """Past its onset, more than half the positions of every width with one have a twin."""
        return all(self.shares[k].checked and self.shares[k].share > 0.5 for k in self.found())

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

    def wobbles_far(self, k: int) -> bool:
        """Curve ``k`` still rises somewhere over its last decade of positions (``m >= t_max / 10``), by at least
        1 % of the panel's range (0.02 in c) from one position to the next: a wobble the panel shows, not a rounding
        error (review round 5: "every one wobbles" was said of d = 256 where its wobble below m = 100 is too small to
        see)."""
        row_ = self.cos[k][self.t >= self.t[-1] / 10]
        return len(row_) > 1 and float(np.max(np.diff(row_))) >= 0.02

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
    # the stacked panels span the content area, but the audit's box count sees only their curves (the
    # axes are hairlines and the grid is faint): a reviewer sees a full frame
    FULL_PANELS = {"empty": "the stacked panels span the content area; only their curves' boxes are counted, "
                            "not the axes' hairlines or faint grid around them"}

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PositionalDilutionData:
        t, cos = sinusoidal_dilution(cfg.dilution_t_max, cfg.dilution_widths, cfg.rope_base)
        shares = tuple(ambiguity_share(r, cls.FACTOR) for r in cos)
        return PositionalDilutionData(
            t=t, cos=cos, widths=tuple(cfg.dilution_widths), base=cfg.rope_base, factor=cls.FACTOR,
            onsets=tuple(a.onset for a in shares), shares=shares,
        )

    STAGED = True
    # review round 4b: the headline says "most", as the ✓ line under it measures (34 % of d = 256's have no twin)
    # review round 6: "no longer means less alike" overstated the measured fact (some n >= 2m is at least as alike)
    TAKEAWAY = "Past $m^*$, for most $m$, farther no longer guarantees less alike"
    TAKEAWAY_WORDS = "past m*, for most m, farther no longer guarantees less alike"

    def caption_values(self) -> dict:
        d = self.data
        order = d.by_width()
        found = d.found()
        clear = [k for k in order if d.onsets[k].t is None]
        shared = [k for k in found if d.shares[k].checked]
        wide = shared[-1] if shared else None
        parts = [f"{count(d.onsets[k].t)} at d = {d.widths[k]}" for k in found]
        values = {
            "t_max": count(d.t[-1]).text,
            "widths": and_list([str(d.widths[k]) for k in order]),
            "first_width": d.widths[order[0]],
            "swing": fmt_measure(d.swing(order[0])),
            "onsets": "; ".join(parts) if parts else "nowhere",
            "onsets_line": onsets_line(d),
            "blurred": and_list([str(d.widths[k]) for k in found]),
            "clear": and_list([str(d.widths[k]) for k in clear]),
            "n_widths": len(d.widths),
            "n_found": len(found),
            "horizon": count(d.horizon).text,
            "factor": f"{d.factor:g}",
            "shares": and_list([share_text(d.shares[k].share) for k in shared]) or "none",
            "c1": measure(d.cos[order[0]][0]).text,
            "half_of": self.half_of(),
            "m_where": "on its panel, beside its drop line",
            "twin_where": "each twin's n beside its ring",
            "ramp": "each in its own colour",
            "reminder": self.reminder_words(),
        }
        F = getattr(self, "figure", None)
        if F is None:  # the title card: nothing drawn yet
            return values
        TL = self.twin_lanes
        lanes = getattr(self, "lanes_on", False)  # the panels have become lanes (set as the meaning beat starts)
        tags = [TL.lanes[k].tag if lanes else F.width_labels[k] for k in range(len(d.widths))]
        solo = getattr(self, "solo_on", False) and len(F.solo)  # the first width alone, large
        axis = (F.solo.panels[0].axes[0], F.solo.x_tick_labels) if solo else (self.stack.bottom.axes[0],
                                                                                self.stack.x_tick_labels)
        if lanes:  # the log axis has gone with the curves: the bars' own axis
            axis = (TL.axis,)
        values.update(
            t_max=claim(values["t_max"], *((TL.reminder,) if lanes else axis)),  # the bars: the twin rule's bound
            widths=claim(values["widths"], *[tags[k] for k in order]),
            blurred=claim(values["blurred"], *[tags[k] for k in found] or axis),
            clear=claim(values["clear"], *[tags[k] for k in clear] or axis),
            onsets=claim(values["onsets"], *[F.onset_labels[k] for k in found] or axis),
            factor=claim(values["factor"], TL.reminder if lanes else self.rule),
            swing=claim(values["swing"], self.swing_label),
            half_of=claim(values["half_of"], self.swing_label),
            half=claim(count(d.t[len(d.t) // 2]).text, F.swing),
            first_curve=claim(f"d = {d.widths[order[0]]}", *((F.solo_curve, F.solo_label) if solo else
                                                             (F.curves[order[0]], F.width_labels[order[0]]))),
            # review round 3: the description said the curve "starts at 1"; m = 0 is off the log axis, and at m = 1
            # the curve is c(1), the value it starts from on screen
            c1=claim(measure(d.cos[order[0]][0]).text, F.solo_curve if solo else F.curves[order[0]]),
            swing_box=claim("A yellow box", F.swing),
            curves=claim("one curve per width", *F.curves),
            ramp=claim(self.ramp_words(), *F.curves),
            rings=claim("a yellow ring", *[m for m in F.markers if len(m)] or [F.swing]),
            rule_line=claim("the rule for m*", self.rule),
            m_where=claim(self.m_where(), *[F.onset_labels[k] for k in found] or axis),
            twin_where=claim("under it, the word twin and its n" if F.twins_under else values["twin_where"],
                             *[F.twin_labels[k] for k in found if len(F.twin_labels[k])] or axis)
            if F.twins_shown else claim("each twin is ringed at its n", *[m for m in F.markers if len(m)] or axis),
            reminder=claim(values["reminder"], TL.reminder),
            every_panel=claim("every panel", *F.onset_labels),
            horizon=claim(values["horizon"], TL.axis_words),
            horizon_line=claim(f"m = {count(d.horizon).text}" + (f", so that {d.factor:g}m is at most {count(d.t[-1]).text}"
                                                                  if getattr(TL, "why_shown", False) else ""),
                               TL.axis_words),
            shares=claim(values["shares"], *[TL.share_labels[k] for k in shared] or [TL.lanes[0].frame]),
            lanes=claim("one bar per width", *[lane.frame for lane in TL.lanes]),
            columns=claim("a block in its colour", *[TL.lanes[k].columns for k in shared] or [TL.lanes[0].frame]),
            share_place=claim(self.share_place(shared), *[TL.share_labels[k] for k in shared] or [TL.lanes[0].frame]),
            lead=claim(f"the takeaway, {self.TAKEAWAY_WORDS}, and under it the verdict", self.takeaway_line)
            if len(self.takeaway_line) else claim("the verdict", self.verdict),
            n_found=claim(values["n_found"], *[F.onset_labels[k] for k in found] or axis),
            verdict=claim(f"{len(found)} of {len(d.widths)} widths with an m*" if not shared else
                          self.verdict_words(shared[-1]), self.verdict),
        )
        if wide is not None:
            values.update(wide=claim(str(d.widths[wide]), tags[wide]),
                          wide_share=claim(share_text(d.shares[wide].share), TL.share_labels[wide]),
                          only=claim("" if d.shares[wide].after == d.shares[wide].checked else "only ", self.verdict),
                          wide_onset=claim(count(d.onsets[wide].t).text, F.onset_labels[wide]))
        return values

    def ramp_words(self) -> str:
        """The widths' colours in words, narrowest to widest (``width_colors``)."""
        return "each in its own colour" if len(self.data.widths) < 2 else f"coloured {width_ramp_words(len(self.data.widths))}"

    def m_where(self) -> str:
        """Where the marks beat writes each m*: in a right column, or on its panel by its drop line (review round 5:
        all on one side of it where they fit there)."""
        F = self.figure
        if F.column:
            return "on the right, beside its panel"
        side = getattr(F, "label_side", "either")
        return f"on its panel, {side} of its drop line" if side in ("right", "left") else "on its panel, beside its drop line"

    def reminder_words(self) -> str:
        """The twin rule under the bars, in words."""
        d = self.data
        return (f"the rule for a twin of m: an n from {d.factor:g} m up to {count(d.t[-1]).text}, "
                "with c of n at least c of m")

    def half_of(self) -> str:
        """What the first beat's box holds, counted: positions ``t[n // 2] … t[n − 1]`` of the ``n``."""
        n = len(self.data.t)
        k = n - n // 2
        return "half of all positions" if 2 * k == n else f"{count(k).text} of the {count(n).text} positions"

    def share_place(self, shared: list[int]) -> str:
        """Where the meaning beat prints each share: on its block (``TwinLanes.on_blocks``), on the right beside its
        m* under a heading where a block is too small for the words, or some of each."""
        on = set(shared) & self.twin_lanes.on_blocks
        words = and_list([share_label(self.data.shares[k].share) for k in shared]) + " with a twin"
        if shared and on == set(shared):
            return f"its share written on it: {words}"
        return f"its share written on it, or just past it where the block is too short: {words}"

    def share_range(self, shared: list[int]) -> tuple[str, str]:
        """The least and the greatest measured share past m* over the widths ``shared``, as printed."""
        vals = [float(self.data.shares[k].share) for k in shared]
        return share_text(min(vals)), share_text(max(vals))

    def most_twinned(self, shared: list[int]) -> bool:
        """Whether, at every width in ``shared``, most (over half) of the positions past m* have a twin."""
        return all(self.data.shares[k].share > 0.5 for k in shared)

    def verdict_words(self, k: int) -> str:
        """The close's verdict as the description reads it: "most positions past m* have a twin", up to the last
        judged position, checked against the measured shares of every width with one (``k``: the widest)."""
        d = self.data
        shared = [j for j in d.found() if d.shares[j].checked]
        lo, hi = self.share_range(shared)
        span = lo if lo == hi else f"{lo} to {hi}"
        mark = "a green check" if self.most_twinned(shared) else "a red cross"
        return (f"{mark} on the measured claim: up to m = {count(d.horizon).text}, most positions past m* have a twin, "
                f"{span} of them")

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
            all_wiggle = not any(d.falls_steadily(k) for k in range(n)) and all(d.wobbles_far(k) for k in range(n))
            if smooth and all_wiggle:
                return "wider"
            return "wider_smoother" if smooth else "wider_differ"
        if key == "marks":
            return key if found == n else (f"{key}_some" if found else f"{key}_none")
        if key == "meaning":
            if not found or not any(d.shares[k].checked for k in d.found()):
                return "meaning_none"
            if found == n and all(d.shares[k].checked and d.shares[k].after == d.shares[k].checked for k in range(n)):
                return "meaning_all"  # the sweep (d = 852, b = 100): one full bar, no grey rest to describe
            return "meaning" if d.most_blur() else "meaning_few"
        if key == "close":
            shared = [k for k in d.found() if d.shares[k].checked]
            if found == n and shared:  # review round 5: the close no longer repeats the shares the meaning beat said
                return "close" if d.most_blur() else "close_all"
            return "close_some" if shared else "close_none"
        return key

    def make_mobjects(self) -> None:
        d = self.data
        order = d.by_width()
        self.colors = width_colors(d.widths)
        # ---- what is plotted, then the rule behind m* (shown at its beat), each on one math line
        self.formula = math(f"c({N.position.math}) = cos({N.encoding_matrix.math}_0, {N.encoding.math}), "
                            f"quad {base_relation(d.base)}")
        self.kind = label("sinusoidal encodings", size=SMALL, color=DIM)
        # review round 5: the rule bounds n by the data's last position (why the shares stop at half of it)
        self.rule = math(f"m^* = min{{m : exists n, med {d.factor:g} m <= n <= {count(d.t[-1]).math}, "
                         f"med c(n) >= c(m)}}")  # math only, no words
        strip, rest = self.layout.content.take_top(self.formula.height, gap=GAP.small)
        strip.place(self.formula, LEFT)
        self.kind.next_to(self.formula, RIGHT, buff=GAP.normal).align_to(self.formula, DOWN)
        self.top_strip = strip
        # the first beat's words over its box: a line of their own over the large panel
        half, last = count(d.t[len(d.t) // 2]), count(d.t[-1])
        self.swing_label = worded_line(f"{self.half_of()}, ${N.position.math} = {half.math}$ to ${last.math}$: here $c$ spans",
                                       figure(measure(d.swing(order[0])), size=SMALL, color=HIGHLIGHT, prefix="="),
                                       size=SMALL, color=HIGHLIGHT)
        for f in self.swing_label.get_family():  # the words in the box's colour: what the box holds
            role(f, "highlight")
        over = max(GAP.tight, label("1", size=SMALL).height / 2 + GAP.hair) + GAP.tight  # review round 5: not jammed on the plot
        solo_region = Region(rest.left, rest.right, rest.bottom, rest.top - self.swing_label.height - over, "solo")
        strip, rest = rest.take_top(self.rule.height, gap=GAP.normal)
        strip.place(self.rule, LEFT)
        self.rule_strip = strip
        # review round 7: stacked, all panels on one scale (round 6's own scales made "wider is smoother" compare
        # panels on different scales); the strip the rule takes next says so while the panels are new
        self.scale_note = seated(worded_line(f"$c({N.position.math})$ for each width, all panels on one scale: "
                                             "1 at the top, 0 dashed", size=SMALL, color=FG))
        strip.fit(self.scale_note, LEFT)
        # ---- one panel per width on one log position axis, narrowest on top
        # the close's right column: m* and its share, stacked when the lanes are tall enough (an estimate of
        # a lane's height from the region the panels get; TwinLanes decides from the real one)
        onsets = [math(f"m^* = {count(o.t).math}", size=LABEL) if o.t is not None else label("none found", size=SMALL)
                  for o in d.onsets]
        # review round 4b: each share is written on its bar, so the right column holds m* alone
        right = right_column(onsets, [None] * len(onsets), 0.0)
        self.figure = P = DilutionPanels(rest, d.t, d.cos, d.widths, d.onsets, self.colors, order,
                                         x_label=worded_line(f"position ${N.position.math}$", size=SMALL), right_width=right,
                                         solo_region=solo_region, headroom=GAP.normal - GAP.tight)
        self.panels, self.curves, self.stack = P.panels, P.curves, P.stack
        self.width_labels, self.onset_values, self.markers = P.width_labels, P.onset_labels, P.markers
        self.twin_values = P.twin_labels
        # ---- the lanes the panels become: told apart up to m*, then the measured share with a twin
        self.twin_lanes = TL = TwinLanes(P, d.widths, d.shares, d.bins, self.colors, float(d.t[-1]), region=rest,
                                         factor=d.factor)
        # ---- the verdict of the close, where the formula was: how many widths blur within the data
        found = d.found()
        n = len(d.widths)
        shared = [k for k in found if d.shares[k].checked]
        # the first curve's last half, framed by a box, and over it in words what the box holds (review round 4b: the
        # box's point, half of all positions in a narrow strip of the log axis, was only in the audio description);
        # the span rounded for display reads "≈" (review round 3: "span 1.6" of 1.555)
        p_box = P.solo.panels[0] if len(P.solo) else P.panels[order[0]]
        # clear of the "1" tick label, which stands level with the panel's top, half its height over it
        over = max(GAP.tight, label("1", size=SMALL).height / 2 + GAP.hair) + GAP.tight  # review round 5: not jammed on the plot
        self.swing_label.set_y(p_box.to_point(1, 1)[1] + over + self.swing_label.height / 2)
        self.swing_label.align_to(P.swing, RIGHT)
        content = self.layout.content
        self.swing_label.shift(max(0.0, content.left - self.swing_label.get_left()[0]) * RIGHT
                               + min(0.0, content.right - self.swing_label.get_right()[0]) * RIGHT)
        if shared:  # the takeaway: past m*, up to the last judged position, most positions have a twin
            # m* is only the first position with a twin: the verdict states the thesis (far positions come to look
            # as alike to position 0 as nearer ones) on the measured shares past m*, at every width with one, and
            # their range; ✓ when most (over half) do at every width, ✗ where one width falls short
            lo, hi = self.share_range(shared)
            # review round 4: the shares are rounded percentages, so the range reads "≈" (once, before it)
            near = "" if all(share_label(d.shares[k].share) == share_text(d.shares[k].share) for k in shared) else "≈ "
            span = f"${near}{lo}$" if lo == hi else f"${near}{lo}$ to ${hi}$"
            # review round 10: a green ✓ on the line of bad news read as "good"; in this deck ✓ marks a verified
            # claim, so the line opens on "measured": the claim checked against the shares, then the figure
            self.verdict = worded_verdict(f"measured to $m = {count(d.horizon).math}$, most $m > m^*$ have a twin: "
                                          f"{span}", passed=self.most_twinned(shared))
            self.verdict.figure = Figure(min(float(d.shares[k].share) for k in shared), span.replace("$", ""),
                                         span.replace("$", ""))
        else:
            self.verdict = worded_verdict(f"widths with an $m^*$ up to ${count(d.t[-1]).math}$: ${len(found)}$ of ${n}$",
                                          passed=len(found) == n)
            seated(self.verdict.line)  # its lone m* on the words' baseline
            self.verdict.figure = Figure(float(len(found)), f"{len(found)}", f"{len(found)} of {n}")
        # the close: the takeaway in words where the formula was, the verdict under it where the rule was (review
        # round 3: the clip's own point was never put on screen); without a finding that most positions blur, the
        # verdict alone, where the formula was
        self.takeaway_line = VGroup()
        if shared and self.most_twinned(shared):
            self.takeaway_line = seated(worded_line(self.TAKEAWAY, size=HEADING))
            self.top_strip.fit(self.takeaway_line, LEFT)
            self.verdict.move_to(self.rule_strip.center).align_to(self.formula, LEFT)
        else:
            self.verdict.move_to(self.top_strip.center).align_to(self.formula, LEFT)
        # each curve shows its row of cos and its width label names it; each onset's marks show m*, its label names it
        for k, o in enumerate(d.onsets):
            P.curves[k].values = d.cos[k]
            shows(P.curves[k], f"cos[{k}]")
            names(P.width_labels[k], f"cos[{k}]")
            shows(TL.lanes[k].columns, f"share_bins[{k}]")
            if o.t is not None:
                P.markers[k].values = np.array([o.t], dtype=float)
                shows(P.markers[k], f"onset_m[{k}]")
                # a bar counts the positions past its m*, which the m* beside it names
                TL.lanes[k].frame.values = P.markers[k].values
                shows(TL.lanes[k].frame, f"onset_m[{k}]")
                names(P.onset_labels[k], f"onset_m[{k}]")
                P.markers[k][-1].values = np.array([o.witness], dtype=float)  # the twin's ring stands at n
                shows(P.markers[k][-1], f"witness[{k}]")
                if len(P.twin_labels[k]):
                    names(P.twin_labels[k], f"witness[{k}]")

    def quantities(self) -> dict:
        """The data's arrays, and each width's curve, onset and shares by itself (``cos[k]``, ``onset_m[k]``,
        ``share_bins[k]``)."""
        q = super().quantities()
        d = self.data
        for k in range(len(d.widths)):
            q[f"cos[{k}]"] = d.cos[k]
            q[f"onset_m[{k}]"] = d.onset_m[k:k + 1]
            q[f"witness[{k}]"] = np.array([np.nan if d.onsets[k].witness is None else d.onsets[k].witness], float)
            q[f"share_bins[{k}]"] = np.asarray(d.bins[k][2], dtype=float)
        return q

    def flat(self) -> dict:
        """The excuse of a beat whose curves barely leave the top of their panels (a wide encoding over few
        positions): the empty panel is what the measurement says, not a frame left unused."""
        span = max(float(np.ptp(r)) for r in self.data.cos)
        if span >= 0.5:
            return {}
        return {"empty": f"every curve stays within {fmt_measure(span)} of 1 over the positions measured: the "
                         "nearly empty panels are the finding"}

    def lone_lane(self) -> dict:
        """The excuse of the lanes' beats when one width never blurs: its one lane, coloured all the way,
        is the whole finding (the left and right columns keep their label and "none found")."""
        d = self.data
        if len(d.widths) == 1 and d.found():  # the sweep: d = 458 alone, its m* found: one lane, 50 % empty
            return {"empty": "one width: its single lane, its m* and its share of twins are the whole finding"}
        if len(d.widths) > 2 and 0 < len(d.found()) < len(d.widths):
            # the sweep (widths 86, 200, 572, 678 to m = 100): the widths that never blur are dark lanes all the way
            return {"empty": f"{len(d.widths) - len(d.found())} of {len(d.widths)} widths never blur: their lanes, "
                             "dark grey all the way, are part of the finding"}
        if len(d.widths) > 2 or d.found():
            return {}
        if len(d.widths) == 2:  # the sweep: two widths, neither blurs (b ≈ 7.8 × 10⁸): two full lanes, 53 % empty
            return {"empty": "two widths that never blur: their two lanes, dark grey all the way, are the finding"}
        return {"empty": "one width that never blurs: its single lane, dark grey all the way, is the finding"}

    def body(self) -> None:
        self.make_mobjects()
        P, d, TL = self.figure, self.data, self.twin_lanes
        flat = self.flat()
        first, rest = d.by_width()[0], d.by_width()[1:]
        if rest:  # the first width alone, large; the others join it in panels of their own
            S = P.solo
            self.solo_on = True
            self.beat("axes", FadeIn(self.formula), FadeIn(self.kind), Create(S.panels[0].axes), FadeIn(S.panels[0].grid),
                      FadeIn(S.panels[0].y_tick_labels), FadeIn(S.x_tick_labels), FadeIn(S.x_axis_label),
                      FadeIn(P.solo_zero), Create(P.solo_curve), FadeIn(P.solo_label), FadeIn(P.y_label), run_time=2.2,
                      subject=VGroup(S, P.solo_curve, P.solo_label, P.solo_zero, P.y_label), why={**self.FULL_PANELS, **flat})
            self.beat(self.variant("first"), Create(P.swing), FadeIn(self.swing_label), FadeIn(P.span), run_time=1.0,
                      subject=VGroup(S, P.solo_curve, P.solo_label, P.solo_zero, P.swing, self.swing_label, P.span),
                      why={**self.FULL_PANELS, **flat})
            axes = [AnimationGroup(FadeIn(p.axes), FadeIn(p.grid), FadeIn(p.y_tick_labels)) for p in self.panels]
            self.solo_on = False
            self.beat(self.variant("wider"), FadeOut(P.swing), FadeOut(self.swing_label), FadeOut(P.span),
                      FadeOut(VGroup(S, P.solo_zero, P.y_label)), *axes, FadeIn(self.scale_note),
                      FadeIn(self.stack.x_tick_labels), FadeIn(self.stack.x_axis_label), FadeIn(P.zeros),
                      ReplacementTransform(P.solo_curve, self.curves[first]),
                      ReplacementTransform(P.solo_label, self.width_labels[first]),
                      *[Create(self.curves[k]) for k in rest], *[FadeIn(self.width_labels[k]) for k in rest],
                      run_time=2.2, subject=VGroup(P, self.scale_note), why={**self.FULL_PANELS, **flat})
            self.beat("rule", FadeOut(self.scale_note), FadeIn(self.rule, shift=GAP.small * DOWN), run_time=1.0,
                      subject=VGroup(self.rule, P), why={**self.FULL_PANELS, **flat})
        else:
            axes = [AnimationGroup(Create(p.axes), FadeIn(p.grid), FadeIn(p.y_tick_labels)) for p in self.panels]
            self.beat("axes", FadeIn(self.formula), FadeIn(self.kind), *axes, FadeIn(P.y_label), FadeIn(self.stack.x_tick_labels),
                      FadeIn(self.stack.x_axis_label), FadeIn(P.zeros), Create(self.curves[first]),
                      FadeIn(self.width_labels[first]), run_time=2.2, subject=P, why={**self.FULL_PANELS, **flat})
            self.beat(self.variant("first"), Create(P.swing), FadeIn(self.swing_label), run_time=1.0,
                      subject=VGroup(P, P.swing, self.swing_label), why={**self.FULL_PANELS, **flat})
            self.beat("rule", FadeOut(P.swing), FadeOut(self.swing_label), FadeIn(self.rule, shift=GAP.small * DOWN), run_time=1.0,
                      subject=VGroup(self.rule, P), why={**self.FULL_PANELS, **flat})
        self.beat(self.variant("marks"),
                  LaggedStart(*[AnimationGroup(FadeIn(self.markers[k]), FadeIn(self.onset_values[k]),
                                               FadeIn(self.twin_values[k])) for k in d.by_width()], lag_ratio=0.4),
                  run_time=2.0, subject=VGroup(self.rule, P, self.markers, self.onset_values, self.twin_values),
                  why={**self.FULL_PANELS, **flat})
        # the panels become lanes: the curves go, each lane shows what its curve measured
        self.lanes_on = True
        leave = [*self.curves, P.y_label, P.zeros, *self.markers, *[t for t in self.twin_values if len(t)],
                 *[VGroup(p.grid, p.axes, p.y_tick_labels) for p in self.panels],
                 self.stack.x_tick_labels, self.stack.x_axis_label]
        tags = [ReplacementTransform(w, lane.tag) for w, lane in zip(self.width_labels, TL.lanes)]
        moves = [self.onset_values[k].animate.move_to(TL.onset_spots[k]) for k in TL.onset_spots]
        self.beat(self.variant("meaning"), AnimationGroup(*[FadeOut(m) for m in leave]),
                  LaggedStart(AnimationGroup(*tags, *moves, *[FadeIn(VGroup(l.rest, l.frame)) for l in TL.lanes], FadeIn(TL.axis),
                                             FadeIn(TL.reminder)),
                              AnimationGroup(*[GrowFromEdge(l.columns, LEFT) for l in TL.lanes if len(l.columns)],
                                             FadeIn(TL.share_labels), FadeIn(TL.on_lanes)),
                              lag_ratio=0.6),
                  run_time=2.4, subject=VGroup(TL, self.onset_values),
                  why=self.lone_lane())

    # -- the close: the lanes under the verdict, the formulas gone
    def takeaway(self):
        TL = self.twin_lanes
        return VGroup(self.takeaway_line, self.verdict, TL.lanes, TL.share_labels, TL.on_lanes, TL.axis,
                      TL.reminder, self.onset_values)

    def closing_key(self) -> str:
        return self.variant("close")

    def closing(self) -> None:
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=1.4, hold=self.CLOSING_HOLD, subject=take,
                  why=self.lone_lane())

    def bring_forward(self, take, region=None) -> list:
        return [FadeOut(self.formula), FadeOut(self.kind), FadeOut(self.rule),
                *([FadeIn(self.takeaway_line)] if len(self.takeaway_line) else []),
                FadeIn(self.verdict, shift=GAP.small * DOWN)]
