"""06 ``CausalBreaksEquivariance`` (§5): the same test with causal attention and a swap that moves a
future token into the past.

* ``tokens``, ``swap``: which slots each output row m sees (the mask, cells in the colour of the
  token in the slot), large; the swap recolours it.  The chips over the mask's columns stand a list's gap apart
  (the small mask's columns widen for them).
* ``self``, ``causal``: the mask steps to the left, and stays there ("who sees what" on screen while it
  is narrated); beside it, row for row, the measured quantity ‖Attn(PX)_m − (P·Attn(X))_m‖, named over
  two charts on one log axis: self-attention's, then causal attention's, each chart named on itself.
* ``before``, ``between``, ``after``: a band lights the rows with the same past, a different past (the
  swapped token's cells outlined in the mask), every token.
  While the rows are narrated the mask and the chart are drawn as tall as the content area allows (nothing waits
  under them yet).
* ``totals``: the mask leaves, the chart widens into its room, its name and the pass line's over it, and the two
  totals arrive under it, each the deck's verdict on one short line (✓/✗, the matrix it measures, its figure;
  causal attention's subscript at the text's size).
* ``close``: the chart leaves; the takeaway, Attn_causal(P X) ≠ P·Attn_causal(X), large over the two verdicts
  (a student's odd rows keep the chart, dimmed but for them, the takeaway over it).

``clips render --student`` draws it from a student's causal attention (``STUDENT = "causal"``: its outputs on X
and on the swap's P X, as the checks ran them; the self-attention chart from their attention without a mask on
the same two, mathcore's where they wrote none).  Where their rows change exactly where a causal mask's do, it
is the lecture's clip on their numbers.  Where a row outside the swap moves past the pass line, the failing
variants of ``[causal_breaks_equivariance.student_fail]`` are said over that row outlined in red (bar and
figure), and the close names it with its figure.

Every colour scale, log axis and proof line comes from ``scenes.figures.equivariance`` (the one
description the clip and its still draw from); every widget is placed in a region of ``self.layout``,
sized from the config's ``T``, ``d`` and words.

Render directly with ``manim -ql scenes/clips/c06_causal_breaks_equivariance.py CausalBreaksEquivariance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    DashedVMobject,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    VGroup,
)

from mathcore import (
    causal_mask,
    lecture_inputs,
)
from mathcore.config import LectureConfig
from mathcore.equivariance import (
    THRESHOLD,
    SwapReport,
    default_swap,
    swap_report,
)
from mathcore.permutation import permutation_matrix
from scenes.clips.c06_widgets import CausalMaskGrid, RowChart
from scenes.figures.equivariance import (
    Picture06,
    picture06,
)
from scenes.kit import (
    DIM,
    FAILED,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    TITLE,
    ClipScene,
    Region,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import claim, names, role, shows
from scenes.kit.compose import GAP, reveal
from scenes.kit.layout import background
from scenes.kit.motion import dim, undim
from scenes.kit.notation import N, token_names, token_text
from scenes.kit.numbers import measure, rounded
from scenes.kit.permuting import Handover, TokenColumn
from scenes.kit.proofs import check_mark, cross_mark
from scenes.kit.student import fail_key


@dataclass(frozen=True)
class CausalSwapData:
    """What clip 06 draws: ``X: (T, d)`` and ``PX`` after the swap ``(i, j)`` (its ``perm`` in
    ``report``), the per-row and total defects of causal and self-attention on it (``report``), the
    causal ``mask`` (row ``m`` sees slots ``0 … m``) and the picture's axis and formulas."""

    X: np.ndarray
    PX: np.ndarray
    report: SwapReport
    threshold: float
    mask: np.ndarray
    picture: Picture06
    # a student's causal attention (``clips render --student``): the rows outside the swap (i … j) that it changes
    # past the pass line, which a causal mask keeps (the failing variants' rows, outlined in red); empty for the
    # lecture and for a student whose rows change where the lecture's do
    odd_rows: tuple = ()
    changed_as_lecture: bool = True  # the rows past the pass line are exactly i … j

    @property
    def before_zero(self) -> bool:
        """Every row before the swapped slot has a causal defect of exactly 0."""
        return bool(np.all(self.report.causal_rows[:self.report.i] == 0.0))


DIGITS = 3  # a row's defect and the total printed to three digits: the total recomputed from the printed rows


def shown(x: float):
    """A defect as the clip prints it (``numbers.measure``): three significant digits for an ordinary figure,
    so that the total worked out from the printed rows (the root of the sum of their squares) rounds to the
    printed total; rounding noise and exact zeros as the deck writes them."""
    return measure(x, DIGITS) if 1e-3 <= abs(float(x)) < 1e5 else measure(x)


def shown_text(x: float) -> str:
    """:func:`shown` as a caption says it."""
    return shown(x).text


def approx_text(x: float) -> str:
    """:func:`shown_text` with "≈" where the figure is rounded, as the bar labels print it."""
    f = shown(x)
    return ("≈ " if rounded(f) else "") + f.text


def span_text(a: int, b: int) -> str:
    """Consecutive rows ``a … b`` in words: "1 to 4", "0 and 1" (two rows are not a range)."""
    return f"{a} and {b}" if b == a + 1 else f"{a} to {b}"


def rows_text(rows) -> str:
    """Rows in words: ``row 2``, ``rows 0 and 3``, ``rows 0, 1 and 4``."""
    rows = [str(r) for r in rows]
    if len(rows) == 1:
        return f"row {rows[0]}"
    return "rows " + ", ".join(rows[:-1]) + " and " + rows[-1]


class CausalBreaksEquivariance(ClipScene):
    """06 · A future token swapped into the past changes causal attention's outputs."""

    STAGED = True
    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    CHIP_GAP = GAP.small  # between two chips in a row: the deck's gap between the items of a list
    STUDENT = "causal"  # `clips render --student`: the student's causal attention on X and on the swap's P X
    STUDENT_RUNS = (('Y_swap',), "on P X")
    MAX_PITCH = 0.95  # a row's height at most (the mask's cells are square)

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> CausalSwapData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        i, j = default_swap(cfg.T)
        r = swap_report(li.X, li.Wq, li.Wk, li.Wv, i, j)
        return CausalSwapData(X=li.X, PX=permutation_matrix(r.perm) @ li.X, report=r, threshold=THRESHOLD,
                              mask=causal_mask(cfg.T),
                              picture=picture06(r.causal_rows, r.self_rows, r.causal_total, r.self_total, THRESHOLD))

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> CausalSwapData:
        """The rows the student's causal attention changes under the clip's swap (its outputs on X and on P X, as
        the checks ran them), and their self-attention's (their attention without a mask, on the same two inputs;
        mathcore's where they wrote none), in place of mathcore's."""
        from dataclasses import replace

        lecture = cls.build_data(cfg)
        r = lecture.report
        T = len(r.perm)
        p = np.asarray(student.array(cls.STUDENT, "swap"))
        if not np.array_equal(p, r.perm):
            raise ValueError(f"the student's swap is {p.tolist()}, clip 06 draws {list(r.perm)}")

        def rows(key):
            Y, Ys = student.array(key, "Y"), student.array(key, "Y_swap")
            if Y is None or Ys is None:
                return None
            D = np.asarray(Ys, float) - np.asarray(Y, float)[p]
            return np.linalg.norm(D, axis=1), float(np.linalg.norm(D))

        causal_rows, causal_total = rows(cls.STUDENT)
        mine = rows("equivariance")
        self_rows, self_total = mine if mine is not None else (r.self_rows, r.self_total)
        rep_ = replace(r, causal_rows=causal_rows, self_rows=self_rows, causal_total=causal_total,
                       self_total=self_total)
        changed = {m for m in range(T) if causal_rows[m] >= lecture.threshold}
        swapped = set(range(r.i, r.j + 1))
        return replace(lecture, report=rep_,
                       picture=picture06(causal_rows, self_rows, causal_total, self_total, lecture.threshold),
                       odd_rows=tuple(sorted(changed - swapped)), changed_as_lecture=changed == swapped)

    def student_values(self) -> dict:
        """The failing variants' values, bound to the red outlines and the figures that show them."""
        out = super().student_values()
        d = self.data
        rows = d.report.causal_rows
        if d.odd_rows and hasattr(self, "odd_frames"):
            out["odd_rows"] = claim(rows_text(d.odd_rows), *self.odd_frames)
            out["odd_max"] = claim(shown_text(max(rows[m] for m in d.odd_rows)), *self.odd_frames)
            first, last = 0, len(rows) - 1
            if first in d.odd_rows:
                out["first_value"] = claim(shown_text(rows[first]), self.odd_frames[d.odd_rows.index(first)])
            if last in d.odd_rows:
                out["last_value"] = claim(shown_text(rows[last]), self.odd_frames[d.odd_rows.index(last)])
        if np.any(d.report.self_rows >= d.threshold) and hasattr(self, "self_chart"):
            out["self_worst"] = claim(shown_text(float(np.max(d.report.self_rows))), self.self_chart)
        if not d.changed_as_lecture and hasattr(self, "values"):
            changed = [m for m in range(len(rows)) if rows[m] >= d.threshold]
            out["changed"] = claim(rows_text(changed), *self.values)
        return out

    def quantities(self) -> dict:
        out = super().quantities()
        r = self.data.report
        out["causal_rows"], out["self_rows"] = r.causal_rows, r.self_rows
        return out

    def caption_values(self) -> dict:
        d = self.data
        r = d.report
        T = len(r.perm)
        rows = r.causal_rows
        worst = int(np.argmax(rows))
        out = {
            "i": r.i, "j": r.j, "T": T, "after": r.j + 1, "last": T - 1, "xi": token_text(r.i), "xj": token_text(r.j),
            "causal": shown_text(r.causal_total), "self": shown_text(r.self_total),
            "threshold": measure(d.threshold).text, "worst": worst, "worst_value": shown_text(rows[worst]),
            "worst_approx": approx_text(rows[worst]),
            "swap_rows": span_text(r.i, r.j), "pass_value": shown_text(rows[T - 1]),
            "xlast": token_text(T - 1), "before_last": max(r.i - 1, 0), "i1": r.i + 1, "j1": r.j - 1,
            # what the two swapped tokens see: row i holds x_j (it saw j + 1 slots, now i + 1), row j holds x_i
            "ni": self.tokens_seen(r.i + 1), "nj": self.tokens_seen(r.j + 1), "ni_n": r.i + 1, "nj_n": r.j + 1,
            # the rows between the swapped slots, in words ("2 and 3", "2, 3 and 4"; one row: "2")
            "mid": rows_text(self.between_rows(r.i, r.j)).split(" ", 1)[-1] if r.j - r.i > 1 else "",
            "mask": "the mask", "formula": "the measured quantity", "zero": "a hollow diamond",
            "takeaway": "causal attention is not permutation equivariant",
        }  # plain values until the elements that show them are built
        if hasattr(self, "big"):  # the elements each sentence names, once they are built
            out.update(
                xlast=claim(token_text(T - 1), self.on_screen_tokens), xi=claim(token_text(r.i), self.on_screen_tokens.chips[r.i]),
                xj=claim(token_text(r.j), self.on_screen_tokens.chips[r.j]), T=claim(T, self.on_screen_mask),
                ni=claim(self.tokens_seen(r.i + 1), *self.on_screen_mask.cells[r.i][:r.i + 1]),
                nj=claim(self.tokens_seen(r.j + 1), *self.on_screen_mask.cells[r.j][:r.j + 1]),
                # what each swapped token saw before: the dashed frame around as many slots of its new row
                ni_n=claim(r.i + 1, *([self.ghosts[1]] if hasattr(self, "ghosts") else
                                      self.on_screen_mask.cells[r.j][:r.i + 1])),
                nj_n=claim(r.j + 1, *([self.ghosts[0]] if hasattr(self, "ghosts") else
                                      self.on_screen_mask.cells[r.i][:r.i + 1])),
                threshold=claim(measure(d.threshold).text, self.line_label),
                worst_value=claim(shown_text(rows[worst]), self.values[self.value_rows.index(worst)]),
                # the lecture's words: "≈" as its bar's label prints it
                worst_approx=claim(approx_text(rows[worst]), self.values[self.value_rows.index(worst)]),
                swap_rows=claim(span_text(r.i, r.j), *[self.row_names[m] for m in range(r.i, r.j + 1)]),
                causal=claim(shown_text(r.causal_total), self.verdicts[0]),
                self=claim(shown_text(r.self_total), self.verdicts[1]),
                mask=claim("the mask", self.on_screen_mask), formula=claim("the measured quantity", self.formula),
                zero=claim("a hollow diamond", *self.zero_marks() or [self.causal_chart]),
                takeaway=claim("causal attention is not permutation equivariant", self.takeaway_line),
            )
            if T - 1 in self.causal_chart.passes:  # the last row's verdict, past the pass line
                out["pass_value"] = claim(shown_text(rows[T - 1]), self.causal_chart.passes[T - 1])
            mid = self.between_rows(r.i, r.j)
            if mid:  # the rows between, named by their rows' names beside the mask
                out["mid"] = claim(out["mid"], *[self.row_names[m] for m in mid])
        return out

    def zero_marks(self) -> list:
        """The hollow diamonds on screen at full strength: those of the rows in focus (all, before any row is)."""
        zeros = self.causal_chart.zeros
        focused = getattr(self, "focused", None)
        return [z[0] for m, z in zeros.items() if focused is None or m in focused]

    @staticmethod
    def tokens_seen(n: int) -> str:
        """How many tokens a row of the mask sees, in words ("1 token", "5 tokens")."""
        return f"{n} token" if n == 1 else f"{n} tokens"

    @staticmethod
    def before_key(i: int, zero: bool) -> str:
        """The beat of the rows before slot ``i``: one row or several, unchanged or only rounding."""
        return "before" + ("_one" if i == 1 else "") + ("" if zero else "_rounding")

    @staticmethod
    def between_rows(i: int, j: int) -> list:
        """The rows strictly between the two swapped slots ``i < j``."""
        return list(range(i + 1, j))

    def outline(self, mob, dashed: bool = False):
        """A highlight outline around ``mob`` (dashed: the frame of what a row saw before the swap, in the
        foreground colour)."""
        if dashed:
            box = SurroundingRectangle(mob, color=FG, buff=0.07, stroke_width=3)
            return DashedVMobject(box, num_dashes=max(8, int(4 * (box.width + box.height) / 0.35)))
        return role(SurroundingRectangle(mob, color=HIGHLIGHT, buff=0.03, stroke_width=4), "highlight")

    def swap_steps(self) -> list:
        """The beats of the swapped tokens' rows: ``(key, rows, marks)``.  Row ``i`` (now ``x_j``): its slot ``i``
        cell outlined, a dashed frame around its first ``j + 1`` slots (what ``x_j`` saw in row ``j``); row ``j``
        (now ``x_i``): its slot ``j`` cell, a dashed frame around its first ``i + 1`` slots (what ``x_i`` saw in
        row ``i``); the rows between (if any): their slot ``i`` cells (now ``x_j``) and the chip of ``x_i`` over
        slot ``j``, out of their reach."""
        r = self.data.report
        i, j = r.i, r.j
        cells = self.mask.cells
        self.ghosts = (self.outline(VGroup(*cells[i][:j + 1]), dashed=True),
                       self.outline(VGroup(*cells[j][:i + 1]), dashed=True))
        steps = [("past", [i], VGroup(self.outline(cells[i][i]), self.ghosts[0])),
                 ("future", [j], VGroup(self.outline(cells[j][j]), self.ghosts[1]))]
        mid = self.between_rows(i, j)
        if mid:
            self.reach = VGroup(self.outline(VGroup(*[cells[m][i] for m in mid])),
                                self.outline(self.tokens.chips[i]))
            steps.append(("between" + ("_one" if len(mid) == 1 else ""), mid, self.reach))
        self.steps = steps
        return steps

    # ------------------------------------------------------------------ layout
    def make_picture(self) -> None:
        """The final places: [row names][mask]  [chart][values], the chips over the mask and the measured
        quantity over the chart, the verdicts under it all (``self.compact``, from ``totals`` on); the same
        picture taller while the rows are narrated (the content area down to its bottom: nothing waits under
        it for the verdicts yet); and the mask's large place of the first two beats (``self.big``), which
        moves into the tall one."""
        d = self.data
        r, pic = d.report, d.picture
        T = len(r.perm)
        content = self.layout.content
        self.verdicts = self.aligned(VGroup(
            self.total_verdict(pic.causal_prefix, r.causal_total),
            self.total_verdict(pic.self_prefix, r.self_total)))
        self.formula = self.self_formula = math(pic.row_formula.typst, size=LABEL)
        # the same quantity of causal attention: its Attn carries the subscript from the `causal` beat on
        self.causal_formula = math(self.causal_typst(pic.row_formula.typst), size=LABEL)
        k = min(1.0, content.width / self.causal_formula.width)  # both forms at one size, the wider one fitting
        self.formula.scale(k)
        self.causal_formula.scale(k)
        chip_h = TokenColumn(["x_0"], horizontal=True).height
        # the measured quantity (and at the close the takeaway) in a row of its own across the top; under it the
        # chips over the mask while the rows are narrated, and nothing at the totals (the mask has left)
        fstrip, under = content.take_top(self.causal_formula.height, gap=GAP.normal)
        top, tall_rest = under.take_top(chip_h, gap=GAP.small)
        bottom, rest = under.take_bottom(self.verdicts.height, gap=GAP.normal)
        self.formula_strip = fstrip
        bottom.place(self.verdicts)
        failing = [m for m in range(T) if r.causal_rows[m] >= d.threshold]
        self.value_rows = failing
        self.row_names_w = max(label(f"row {m}", size=SMALL).width for m in range(T)) + GAP.small
        self.max_mask_w = np.inf  # the quantity has its own row: the mask is as wide as its square cells
        self.tall = tall = self.picture_in(tall_rest, top)
        # its rows only (the mask has left by the totals), under a strip for the pass line's name, which stands
        # over the line as in the tall picture (review round 10: at the foot it read "10⁻¹⁰ pass line")
        # and, beside it in that strip, the chart's name, which leaves the foot of the chart to its rows (the strip and
        # the verdicts under the chart took a third of their height): the chart is fitted as if its name stood under it
        self.name_strip, crest = rest.take_top(label("pass line", size=SMALL).height, gap=GAP.tight)
        ext = label("causal attention", size=SMALL).height + GAP.small
        crest = Region(crest.left, crest.right, crest.bottom - ext, crest.top, "compact")
        self.compact = self.picture_in(crest, top, chips=False)
        (self.mask_region, self.self_chart, self.causal_chart, self.row_names, self.values, self.line_label,
         self.mask, self.tokens, self.masked, self.tokens_name) = (
            tall.mask_region, tall.self_chart, tall.causal_chart, tall.row_names, tall.values, tall.line_label,
            tall.mask, tall.tokens, tall.masked, tall.tokens_name)
        # the quantity centred over the chart's axis, in its own row, inside the content area
        for f in (self.formula, self.causal_formula):
            x = self.causal_chart.plot.axes[0].get_center()[0]
            x = max(content.left + f.width / 2, min(x, content.right - f.width / 2))
            f.move_to([x, fstrip.center[1], 0])
        self.small = VGroup(self.tokens_name, self.tokens, self.mask, self.masked, self.row_names)
        names_w = self.row_names_w
        y_bottom, y_top = self.compact.y_bottom, self.compact.y_top

        # the first two beats: the mask as large as the content area allows, its cells as wide as they may be
        big_pitch = min(1.0, (content.height - chip_h - GAP.small) / T)
        big_w = min(2.2 * big_pitch, (content.width - names_w * 1.5 - 1.5) / T)
        bmask, btokens, bmasked = self.mask_parts(big_w, big_pitch)
        bnames = VGroup(*[label(f"row {m}", size=LABEL, color=DIM).next_to(bmask.cells[m][0], LEFT, buff=GAP.normal)
                          for m in range(T)])
        btokens.next_to(bmask, UP, buff=GAP.small)
        bname = names(math(N.inputs.math, size=HEADING + 6), "X").next_to(btokens, LEFT, buff=GAP.normal)
        big = VGroup(bname, btokens, bmask, bmasked, bnames)
        content.fit(big, max_scale=1.2)
        if T > 1:  # the swap moves the chips by their slots: scaled with the group, so each lands over its column
            k = float(btokens.chips[1].get_x() - btokens.chips[0].get_x()) / float(btokens.slots[1][0] - btokens.slots[0][0])
            btokens.slots = [np.asarray(p) * k for p in btokens.slots]
            btokens.row_height *= k
        self.big = big

        # the close: the takeaway in the formula's strip, the chart widened into the mask's room
        self.takeaway_line = math("\"Attn\"_(\"causal\") (P X) != P dot \"Attn\"_(\"causal\") (X)", size=TITLE)
        if d.odd_rows:  # a student's odd rows stay on the chart (the close names them): the takeaway over it
            fstrip.fit(self.takeaway_line, max_scale=1.0)
        else:  # the chart leaves: the takeaway large, over the two verdicts, its evidence (review round 10)
            air = 0.06 * content.width  # some air at its sides: not edge to edge
            Region(content.left + air, content.right - air, self.verdicts.get_top()[1] + GAP.normal, content.top,
                   "takeaway").fit(self.takeaway_line, max_scale=1.5)
        c = self.compact  # the chart widens from where it stands at the totals: its axis ends where the compact one's
        # does (the failing rows' figures stay past the bars' ends), whatever reaches past that end (a tick label, a
        # passing row's verdict past the line) in the widened chart
        end = c.causal_chart.plot.axes[0].get_end()[0]
        reach = c.causal_chart.get_right()[0] - end
        for _ in range(3):
            wide = Region(rest.left + names_w + GAP.small, end + reach, y_bottom, y_top, "wide")
            self.wide_chart = RowChart.fitted(wide, r.causal_rows, d.threshold, pic.axis, self.ticks(),
                                              name="causal attention", line_verdicts=True)  # the same ticks: nothing to garble as it widens
            over = self.wide_chart.plot.axes[0].get_end()[0] - end
            if abs(over) < 1e-6:
                break
            reach -= over
        self.wide_chart.bars.values = self.wide_chart.values
        name = self.wide_chart.plot.x_axis_label  # the chart's name over its axis's start, in the pass line's strip
        name.move_to([self.wide_chart.plot.axes[0].get_start()[0] + name.width / 2,
                      self.name_strip.center[1], 0])
        shows(self.wide_chart.bars, "causal_rows")
        self.wide_line_label = c.line_label.copy()  # over the widened chart's line, as over the tall one's
        self.wide_line_label.set_x(self.wide_chart.line.get_x() + GAP.tight + self.wide_line_label.width / 2)
        self.wide_names = c.row_names.copy()
        for t in self.wide_names:  # the rows' names beside the axis they label
            t.set_x(self.wide_chart.plot.axes[0].get_start()[0] - GAP.small - t.width / 2)
        for m, t in enumerate(self.wide_names):
            t.set_y(self.wide_chart.row_y(m))
        self.wide_values = c.values.copy()
        for v, m in zip(self.wide_values, self.value_rows):
            x = min(self.wide_chart.bars[m].get_right()[0] + GAP.small, content.right - v.width - GAP.small)
            v.move_to([x + v.width / 2, self.wide_chart.row_y(m), 0])

    @staticmethod
    def causal_typst(typst: str) -> str:
        """A formula of self-attention's ``"Attn"`` written for causal attention (``"Attn"_"causal"``)."""
        return typst.replace('"Attn"', '"Attn"_"causal" ')

    # the subscript "causal" of a verdict's formula at the text's size, lowered (review round 10: as a Typst
    # script it stood at the 8 px floor, x-height 8.2 px at 854×480, and read as smaller still)
    CAUSAL_SUB = '_(display("causal"))'

    def total_verdict(self, prefix: str, total: float) -> VGroup:
        """A total as the deck's verdict on one short line (review round 11: with the attention's name in the sans
        before it, each line ran edge to edge): ✓/✗, then the matrix it measures, its Frobenius norm and its
        figure in Typst; causal attention's ``Attn`` carries its subscript at the text's size.  ``prefix`` is
        the picture's Typst, its quoted word first.  A figure rounded for display reads "≈" (an exact one, or
        rounding noise with its own "≈", keeps "=")."""
        from scenes.kit.theme import figure

        formula = prefix.split(" ", 1)[1].replace('_"causal" ', self.CAUSAL_SUB + " ")
        f = shown(total)
        rel = "approx" if rounded(f) else "="
        line = figure(f, size=LABEL, prefix=f"{formula} {rel}")
        passed = total < self.data.threshold
        k = 0.32
        mark = role(check_mark(k), "verified") if passed else role(cross_mark(k), "failed")
        g = VGroup(mark, line).arrange(RIGHT, buff=GAP.small)
        mark.set_y(line.get_center()[1])
        g.value, g.check, g.formula, g.figure, g.passed = line, mark, f"{formula} {rel}", f, bool(passed)
        g._verdict = True
        return g

    @staticmethod
    def aligned(verdicts: VGroup) -> VGroup:
        """The verdicts stacked, their formulas starting at one x, each mark ✓/✗ a list's gap before its own
        formula, at its line."""
        verdicts.arrange(DOWN, buff=GAP.small, aligned_edge=LEFT)
        starts = [v.value.get_left()[0] for v in verdicts]
        x = max(starts)
        for v, s in zip(verdicts, starts):
            v.shift((x - s) * RIGHT)
        return verdicts

    def picture_in(self, rest: Region, top: Region, chips: bool = True) -> SimpleNamespace:
        """The rows' picture in ``rest`` (the chips and the formula in ``top``): row names, the mask, the chart
        (self-attention's and causal attention's, the same place), the failing rows' figures at their bars' ends
        and the pass line's name; its rows as tall as ``rest`` allows (``MAX_PITCH`` at most)."""
        d = self.data
        r, pic = d.report, d.picture
        T = len(r.perm)
        content = self.layout.content
        row_names = VGroup(*[label(f"row {m}", size=SMALL, color=DIM) for m in range(T)])
        names_w = self.row_names_w  # a little air between the band's edge and the names
        values = VGroup(*[self.fail_figure(v) for m, v in enumerate(r.causal_rows) if m in self.value_rows])
        values_w = max([v.width for v in values] + [0.0])
        probe = RowChart.fitted(Region(0, 4, 0, rest.height), r.self_rows, d.threshold, pic.axis, self.ticks(),
                                name="self-attention")
        below = probe.plot.axes[0].get_start()[1] - probe.get_bottom()[1]
        pitch = min(self.MAX_PITCH, (rest.height - below) / T)
        fixed = names_w + GAP.small + GAP.normal + (values_w + GAP.small if values_w else 0.0)
        # a column at least as wide as a chip and the gap to the next (the chips stand over the columns)
        col = self.chip_column(T)
        mask_w = min(T * max(pitch, col), max(T * max(0.45, col), min(rest.width - fixed - 5.0, self.max_mask_w)))
        cw = rest.width - fixed - mask_w
        chart_h = T * pitch + below
        y_top = rest.top  # right under the chips and the formula; any height left over stays under the chart
        y_bottom = y_top - chart_h
        x = rest.left + names_w + GAP.small
        mask_region = Region(x, x + mask_w, y_bottom + below, y_top, "mask")
        # the chart close beside the mask (widgets that belong together): a row's cells and its bar read as one row,
        # and as one group to the audit (the sweep: at T = 3 the first tick label stood 0.62 units off the mask)
        x += mask_w + GAP.normal
        # one chart: self-attention's rows first, then the same bars become causal attention's
        self_chart = RowChart.fitted(Region(x, x + cw, y_bottom, y_top, "self"), r.self_rows, d.threshold,
                                     pic.axis, self.ticks(), name="self-attention")
        causal_chart = RowChart.fitted(Region(x, x + cw, y_bottom, y_top, "causal"), r.causal_rows,
                                       d.threshold, pic.axis, self.ticks(), name="causal attention",
                                       line_verdicts=True)
        for chart, q in ((self_chart, "self_rows"), (causal_chart, "causal_rows")):
            chart.bars.values = chart.values
            shows(chart.bars, q)
        ys = [causal_chart.row_y(m) for m in range(T)]
        for t, y in zip(row_names, ys):
            t.move_to([rest.left + GAP.small + t.width / 2, y, 0])
        for v, m in zip(values, self.value_rows):  # each failing row's defect just past its bar's end
            vx = min(causal_chart.bars[m].get_right()[0] + GAP.small, content.right - v.width - GAP.small)
            v.move_to([vx + v.width / 2, causal_chart.row_y(m), 0])
        # the pass line named on itself, right over its top (the passing rows' verdicts stand past the line in their
        # rows), in the strip of the chips, which stand over the mask only
        line_label = label("pass line", size=SMALL, color=DIM)
        line_label.move_to([causal_chart.line.get_x() + GAP.tight + line_label.width / 2,
                            y_top + GAP.tight + line_label.height / 2, 0])
        # the mask in its place beside the chart, its chips over its columns (in the swap's order)
        mask, tokens, masked = self.mask_parts(mask_w / T, causal_chart.pitch, chips)  # the chart's rows
        mask.move_to([mask_region.center[0], float(np.mean(ys)), 0])
        if chips:
            tokens.move_to([mask_region.center[0], top.center[1], 0])
        tokens_name = names(math(N.inputs.math, size=HEADING), "X").next_to(tokens, LEFT, buff=GAP.normal)
        return SimpleNamespace(mask_region=mask_region, self_chart=self_chart, causal_chart=causal_chart,
                               row_names=row_names, values=values, line_label=line_label, mask=mask, tokens=tokens,
                               masked=masked, tokens_name=tokens_name, y_bottom=y_bottom, y_top=y_top)

    @staticmethod
    def fail_figure(x: float) -> VGroup:
        """A failing row's figure as the deck's verdict: ✗, then the figure, "≈" where it is rounded
        (``.value`` the typeset figure, ``.figure`` the printed ``numbers.Figure``)."""
        f = shown(x)
        line = math(("approx " if rounded(f) else "") + f.math, size=SMALL, color=FAILED)
        mark = role(cross_mark(SMALL / LABEL * 0.32), "failed")
        g = VGroup(mark, line).arrange(RIGHT, buff=GAP.tight)
        mark.set_y(line.get_center()[1])
        g.value, g.check, g.formula, g.figure, g.passed = line, mark, "", f, False
        g._verdict = True
        return role(g, "failed")

    def mask_parts(self, pitch_x: float, pitch_y: float, chips: bool = True):
        """A mask grid (cells ``pitch_x`` wide, ``pitch_y`` tall), its chips over its columns, and an empty part
        where a "masked" word stood."""
        d = self.data
        T = d.X.shape[0]
        mask = shows(CausalMaskGrid(d.mask, [token_color(k) for k in range(T)], pitch=pitch_x, row_height=pitch_y),
                     "mask")
        size = self.chip_size(T, pitch_x)
        if not chips:  # a picture drawn for its rows' places only (the totals'): no chips to fit
            return mask, VGroup(), VGroup()
        # the chips a list's gap apart (review round 10: over the small mask, at 0.9 of a column, they touched)
        tokens = shows(TokenColumn(token_names(range(T)), row_height=pitch_x, horizontal=True, values=d.X,
                                   width=min(0.9, pitch_x - self.CHIP_GAP), size=size), "X")
        tokens.move_to(mask).next_to(mask, UP, buff=GAP.small)
        # no word in the hidden cells: one "masked" in one cell read as that cell's alone (review round 3); the
        # empty outlines are the mask (the narration names them), so the part is kept empty for the beats' moves
        masked = VGroup()
        return mask, tokens, masked

    CHIP_PAD = 0.05  # a chip's name from its box's edge, each side

    @classmethod
    def chip_size(cls, T: int, pitch_x: float) -> float:
        """The chips' names at the label's size where they fit a column ``pitch_x`` wide with the gap, else the
        smallest size."""
        wide = max(math(n, size=LABEL).width for n in token_names(range(T)))
        return LABEL if wide + 2 * cls.CHIP_PAD + cls.CHIP_GAP <= min(0.9 + cls.CHIP_GAP, pitch_x) else SMALL

    @classmethod
    def chip_column(cls, T: int) -> float:
        """The narrowest mask column a chip fits over, its name at the smallest size, with the gap to the next."""
        return max(math(n, size=SMALL).width for n in token_names(range(T))) + 2 * cls.CHIP_PAD + cls.CHIP_GAP

    @staticmethod
    def masked_cells(mask):
        """Where the word "masked" goes: the middle one of row 0's hidden cells."""
        T = mask.mask.shape[0]
        return mask.cells[0][(1 + T) // 2]

    @property
    def on_screen_mask(self):
        """The mask on screen: the large one, which later moves into the small one's place."""
        return self.big[2]

    @property
    def on_screen_tokens(self):
        return self.big[1]

    grid_why = {"empty": "the mask alone, as large as six rows of chips allow: its empty cells are what it shows"}
    chart_why = {"empty": "a log chart of one bar per output row spans the frame beside the mask: the air between "
                          "the bars and the pass line is the distance that proves the point"}

    row_why = {**chart_why, "dashboard": "one row (or the rows between) framed from its name to its figure: the "
                                         "outline joins its name, its cells, their marks, its bar and its figure "
                                         "into one subject, the chips over the mask its columns' heads"}

    def ticks(self):
        """The charts' ticks: every other one of the picture's when a chart is narrow."""
        t = tuple(self.data.picture.ticks)
        return t if len(t) <= 3 else t[::2]

    def band(self, rows) -> Rectangle:
        """An outline around the rows ``rows``, from their names to their printed defects (no fill over the
        subject: the other rows are dimmed instead, :meth:`focus`)."""
        rows = list(rows)
        ch = self.causal_chart
        top = ch.row_y(rows[0]) + ch.pitch / 2
        bottom = ch.row_y(rows[-1]) - ch.pitch / 2
        left, right = self.layout.content.left, self.layout.content.right
        b = Rectangle(width=right - left, height=top - bottom, stroke_color=HIGHLIGHT, stroke_width=2,
                      stroke_opacity=0.8, fill_opacity=0.0)
        return role(background(b.move_to([(left + right) / 2, (top + bottom) / 2, 0])), "highlight")

    def row_parts(self, m: int) -> list:
        """Everything drawn for output row ``m``, each part the widget's own (no new container: the scene keeps
        its list): its name, its row of the mask, its bar (or zero mark) on the causal chart, its printed figure."""
        cc = self.causal_chart
        parts = [self.row_names[m], self.mask.cells[m], cc.bars[m], *([cc.zeros[m]] if m in cc.zeros else []),
                 *([cc.passes[m]] if m in cc.passes and m not in cc.zeros else [])]
        if m in self.value_rows:
            parts.append(self.values[self.value_rows.index(m)])
        return parts

    def focus(self, rows) -> list:
        """The rows ``rows`` at full strength, every other row dimmed: focus by dimming, never a fill over them."""
        T = len(self.data.report.perm)
        rows = set(rows)
        self.focused = rows
        return [(undim if m in rows else dim)(*self.row_parts(m)) for m in range(T)]

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        r = d.report
        T = len(r.perm)
        self.make_picture()
        bname, btokens, bmask, bmasked, bnames = self.big
        self.beat("tokens", FadeIn(bname), reveal(btokens.chips), reveal(bmask.cells), FadeIn(bnames), FadeIn(bmasked),
                  Handover(VGroup(), btokens), Handover(VGroup(), bmask), run_time=1.4, subject=VGroup(bmask, btokens),
                  why=self.grid_why)
        px = names(math(f"{N.permutation.math} {N.inputs.math}", size=HEADING + 6), "PX")
        px.scale(bname.height / math(N.inputs.math, size=HEADING + 6).height)
        px.move_to(bname).align_to(bname, RIGHT)
        move = btokens.permute_rows(r.perm)
        shows(btokens, "PX")
        self.beat("swap", move, swap(bname, px), bmask.recolor([token_color(int(k)) for k in r.perm]), run_time=1.6,
                  subject=VGroup(bmask, btokens), why=self.grid_why)

        # the mask steps aside, and stays: the small one, recoloured and in the swap's order, is where it goes
        small_name = names(math(f"{N.permutation.math} {N.inputs.math}", size=HEADING), "PX")
        small_name.next_to(self.tokens, LEFT, buff=GAP.normal)
        self.mask.set_slot_colors([token_color(int(k)) for k in r.perm])
        self.mask.open_all([token_color(int(k)) for k in r.perm])  # self-attention: every row sees every slot
        self.order_chips(self.tokens, btokens.row_order)
        sc, cc = self.self_chart, self.causal_chart
        self_fails = bool(np.any(r.self_rows >= d.threshold))  # a student's self-attention that does not pass
        self.beat_plays(fail_key("self", self_fails), [
            [AnimationGroup(Transform(px, small_name), Transform(btokens, self.tokens), Transform(bmask, self.mask),
                            FadeOut(bmasked), Transform(bnames, self.row_names))],
            [AnimationGroup(FadeIn(self.formula), FadeIn(sc.plot), Create(sc.line), FadeIn(self.line_label),
                            LaggedStart(*[GrowFromEdge(b, LEFT) for b in sc.bars], lag_ratio=0.1),
                            *[FadeIn(z) for z in sc.zeros.values()], Handover(VGroup(), sc))],
        ], run_time=1.2, subject=VGroup(sc, bmask), why=self.chart_why)
        # from here on the mask on screen is the one that moved
        self.mask, self.tokens, self.masked, self.row_names, self.tokens_name = bmask, btokens, bmasked, bnames, px
        # the same bars become causal attention's: four of them shoot past the pass line
        morph = [Transform(a, b.copy()) for a, b in zip(sc.bars, cc.bars)]
        self.beat_plays(fail_key("causal", not d.changed_as_lecture), [
            [AnimationGroup(*morph, swap(sc.plot.x_axis_label, cc.plot.x_axis_label), self.mask.close_hidden(),
                            swap(self.formula, self.causal_formula),
                            *[FadeOut(z) for z in sc.zeros.values()], *[FadeIn(z) for z in cc.zeros.values()],
                            *[FadeIn(v) for m, v in cc.passes.items() if m not in cc.zeros],
                            Handover(sc, cc))],
            [reveal([v for v in self.values])],  # each figure once its bar has come to its end
        ], run_time=1.0, subject=VGroup(cc, self.mask), why=self.chart_why)
        self.formula = self.causal_formula  # the quantity over the chart is causal attention's from here on
        self.causal_chart = cc

        # a student's rows outside the swap that change past the pass line: outlined in red, bar and figure
        self.odd_frames = VGroup(*[self.odd_frame(cc, self.values[self.value_rows.index(m)], m) for m in d.odd_rows])
        odd_before = [k for k, m in enumerate(d.odd_rows) if m < r.i]
        odd_after = [k for k, m in enumerate(d.odd_rows) if m > r.j]
        band = None
        if r.i > 0:
            band = self.band(range(0, r.i))
            key = fail_key(self.before_key(r.i, True), True) if odd_before else self.before_key(r.i, d.before_zero)
            self.beat(key, FadeIn(band), *self.focus(range(0, r.i)), *[Create(self.odd_frames[k]) for k in odd_before],
                      run_time=0.9,
                      subject=VGroup(self.mask, cc, self.formula), why=self.chart_why)
        # the two swapped tokens' rows, one beat each, then the rows between them: each row its outline, the cell of
        # the swapped token it sees outlined, and a dashed frame around as many of its slots as its token saw in the
        # row it held before the swap (the comparison on screen, not remembered)
        self.row_marks = VGroup()
        for key, rows, marks in self.swap_steps():
            band2 = self.band(rows)
            self.beat(key, ReplacementTransform(band, band2) if band is not None else FadeIn(band2),
                      FadeOut(self.row_marks), *[Create(k) for k in marks], *self.focus(rows), run_time=0.9,
                      subject=VGroup(self.mask, cc, self.formula), why=self.row_why)
            band, self.row_marks = band2, marks
        self.swapped = self.row_marks
        after = list(range(r.j + 1, T))
        if after:
            band3 = self.band(after)
            key = "after_zero" if np.all(r.causal_rows[after] == 0.0) else "after"
            key = fail_key("after", True) if odd_after else key
            self.beat(key, ReplacementTransform(band, band3), FadeOut(self.swapped), *self.focus(after),
                      *[Create(self.odd_frames[k]) for k in odd_after], run_time=0.9,
                      subject=VGroup(self.mask, cc, self.formula), why=self.chart_why)
            band = band3
        else:
            self.play(FadeOut(self.swapped), run_time=0.4)
        # the totals: the rows have been narrated, so the mask and its chips leave; the chart widens into their room
        # (every row back at full strength) and the two verdicts arrive under it
        wide_frames = VGroup(*[self.odd_frame(self.wide_chart, self.wide_values[self.value_rows.index(m)], m)
                               for m in d.odd_rows])
        self.focused = None  # every row at full strength again
        self.beat("totals", FadeOut(band), *[FadeOut(m) for m in (self.mask, self.tokens, self.tokens_name)],
                  ReplacementTransform(cc, self.wide_chart), Transform(self.values, self.wide_values),
                  Transform(self.row_names, self.wide_names), Transform(self.line_label, self.wide_line_label),
                  *([Transform(self.odd_frames, wide_frames)] if d.odd_rows else []),
                  self.formula.animate.set_x(self.wide_chart.plot.axes[0].get_center()[0]),
                  FadeIn(self.verdicts, shift=GAP.small * UP), run_time=1.2,
                  subject=VGroup(self.verdicts, self.wide_chart), why=self.chart_why)
        self.causal_chart = self.wide_chart  # the chart on screen from here on

    @staticmethod
    def order_chips(tokens, order) -> None:
        """Stand ``tokens``' chips in the slots ``order`` gives them (chip ``order[slot]`` over column ``slot``)."""
        shift = tokens.get_center() - np.mean(tokens.slots, axis=0)
        for slot, k in enumerate(order):
            tokens.chips[int(k)].move_to(tokens.slots[slot] + shift)

    def odd_frame(self, chart, value, m: int):
        """A red outline around row ``m``'s bar and its printed figure on ``chart``."""
        box = VGroup(chart.bars[m], value)
        return role(SurroundingRectangle(box, color=FAILED, buff=0.06, stroke_width=3), "failed")

    def closing_key(self) -> str:
        return fail_key("close", bool(self.data.odd_rows))

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        """What the close leaves at full strength: the takeaway and the verdicts, and a student's odd rows."""
        if self.data.odd_rows:
            return VGroup(self.takeaway_line, self.causal_chart, self.line_label, self.row_names, self.values,
                          self.verdicts, self.odd_frames)
        return VGroup(self.takeaway_line, self.verdicts)

    def chart_parts(self) -> list:
        """The chart and everything drawn on its rows."""
        return [self.causal_chart, self.line_label, self.row_names, self.values, self.odd_frames]

    def backdrop(self) -> list:
        """What the close dims under the takeaway (review round 10: the close was the totals' dashboard, nothing
        dimmed): the chart, its rows' names and figures, the pass line's name and the two verdicts; a student's
        rows outlined in red (the close names them) stay at full strength."""
        cc, odd = self.causal_chart, set(self.data.odd_rows)
        parts = [cc.plot, cc.line, self.line_label, self.verdicts]
        for m in range(len(self.data.report.perm)):
            if m in odd:
                continue
            parts += [self.row_names[m], cc.bars[m], *([cc.zeros[m]] if m in cc.zeros else []),
                      *([cc.passes[m]] if m in cc.passes and m not in cc.zeros else [])]
            if m in self.value_rows:
                parts.append(self.values[self.value_rows.index(m)])
        return parts

    def closing(self) -> None:
        """The measured quantity over the chart gives way to the takeaway, the one subject; the chart, its rows and
        the two verdicts stay under it, dimmed."""
        if self.data.odd_rows:  # the odd rows named: the rest of the chart and the verdicts dim under the takeaway
            moves = [swap(self.formula, self.takeaway_line), dim(*self.backdrop())]
        else:  # the chart has said its part: it leaves, the takeaway large over the two verdicts
            moves = [FadeOut(VGroup(*self.chart_parts())), swap(self.formula, self.takeaway_line)]
        self.beat_plays(self.closing_key(), [moves], run_time=1.0, hold=self.CLOSING_HOLD,
                        subject=self.takeaway(), why=self.chart_why)
