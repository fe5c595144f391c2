"""02 ``PermutationEquivariance`` (§2, Q1): Attn(X) as weights A and outputs Y; permute the input
and A's rows and columns travel to P A Pᵀ while Y's rows move; then N random P with a running
maximum of ‖Attn(PX) − P·Attn(X)‖_F against the pass line; why only rounding is left, as a picture.

* ``setup``: X → A → Y filling the frame, each named over it; A on the deck's weights scale (linear, 0
  to 1, as in every clip), its largest weight printed on its cell (it travels with its row and column), Y as coloured cells on the deck's outputs scale (wider where Y is narrow),
  each with its colour bar.
* ``permute_input``, ``rows``, ``cols``, ``outputs``: P X; A's rows (P A: Y dims, its label no
  longer describes what is drawn) then its columns (P A Pᵀ); Y's rows (P Y), named by the equation they
  show, Attn(P X) = P·Attn(X).  Travelled cells are handed over to a fresh map of the values they show, in the
  same beat.
* ``check``: the picture steps up; the defect of this P, typeset with its formula, under it.
* ``trials``, ``running_max``: the plot of every trial fills the frame; this P keeps its column before trial 1,
  the words "this P" beside its dot; the pass line and the staircase carry their own labels; the figures sit in
  the empty band under the pass line.  The running maximum's rises are a few pixels on the still's log axis, so
  the words say where it ends, not how many steps it takes.
* ``why``: one output row as the weighted sum of value vectors it is, and below it the same row of
  Attn(P X): the same terms, flown into the order P gives them.
* ``rounding``: that row's measured difference, rounding.
* ``close``: the equation over the plot that proves it, as tall as the frame allows; the verdict (✓, max over
  the trials ≈ 4.7 × 10⁻¹⁶) on the plot, in the gap between the staircase and the pass line it measures.

Every colour scale is the deck's (``kit.scales``), every log axis and formula comes from
``scenes.figures.equivariance`` (the one description the clip and its still draw from); every widget
is placed in a region of ``self.layout``, sized from the config's ``T``, ``d`` and words.

``clips render --student`` draws it from a student's attention (``STUDENT = "equivariance"``: their
``self_attention`` or ``attention``, no mask, the lecture's weights, as the checks ran it): their Y on X and on P X
for the clip's π, the row defects for that P, and their defects over the random P the check drew (the trial chart).
The weights are drawn only when their attention returned them (``(Y, A)``, on X and on P X): an attention that
returns Y alone is drawn as X → Y, its rows and columns beats skipped and the setup's sentence saying that it gave
no weights (``[permutation_equivariance.student_fail].setup``); the lecture's A is never passed off as theirs.  The
"why" picture (one output row as the weighted sum of value vectors, reordered) argues from the lecture's
attention's structure, so it is drawn only when the property holds and their outputs are their weights times the
values (Y = A V, to rounding, on X and on P X); else the clip goes from the running maximum to its close.  Where
equivariance holds it is the lecture's clip on their numbers, word for word.  Where it fails, the rows of
Attn(P X) that are not P·Attn(X) are outlined in red with their measured differences, the trials past the pass
line are red dots, the failing variants of ``[permutation_equivariance.student_fail]`` are said, and the close
gives Attn(P X) ≠ P·Attn(X) with ✗ and the measured maximum.

Render directly with ``manim -ql scenes/clips/c02_permutation_equivariance.py PermutationEquivariance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    Dot,
    SurroundingRectangle,
    FadeIn,
    FadeOut,
    VGroup,
)

from mathcore import (
    attention_fn,
    lecture_inputs,
    self_attention,
)
from mathcore.config import LectureConfig
from mathcore.equivariance import (
    THRESHOLD,
    EquivarianceRun,
    equivariance_defect,
    equivariance_run,
    permuted_weights,
    running_max,
)
from mathcore.permutation import permutation_matrix, permutation_row_defects
from scenes.clips.c02_widgets import RowHeatmap, SumLine, TravelMap, TrialMarks, staircase
from scenes.figures.equivariance import (
    DEFECT,
    EQUIVARIANT,
    Picture02,
    picture02,
)
from scenes.kit import (
    DIM,
    FAILED,
    HEADING,
    FG,
    HIGHLIGHT,
    LABEL,
    SMALL,
    TITLE,
    ClipScene,
    ColorBar,
    Plot,
    Region,
    fmt_measure,
    label,
    math,
    swap,
    token_color,
)
from scenes.kit.binding import claim, names, role, shows
from scenes.kit.compose import DIMMED, GAP, column, reveal, row, stage
from scenes.kit.layout import fit_cells
from scenes.kit.motion import dim, undim
from scenes.kit.notation import N, token_names, token_text
from scenes.kit.numbers import count, measure, nice_count_ticks
from scenes.kit.permuting import Handover, TokenColumn
from scenes.kit.proofs import verdict, worded_verdict
from scenes.kit.theme import figure
from scenes.kit.scales import scale as deck_scale
from scenes.kit.student import fail_key


@dataclass(frozen=True)
class EquivarianceData:
    """What clip 02 draws.

    ``X: (T, d)``; ``A, Y``: weights and outputs of self-attention on X; ``perm`` (π, the
    config's) and ``P = permutation_matrix(perm)``; ``PX = P X``, ``PA = P A`` (A's rows moved),
    ``A_moved = P A Pᵀ`` (rows and columns), ``PY = P Y``; ``A_PX, Y_PX``: self-attention run on
    ``P X``; ``defect``: ‖Attn(PX) − P·Attn(X)‖_F for ``perm``; ``run``: the ``n_trials`` random
    permutations with their defects and running maximum; ``picture``: scales, axes and formulas.
    """

    X: np.ndarray
    PX: np.ndarray
    A: np.ndarray
    PA: np.ndarray
    A_moved: np.ndarray
    A_PX: np.ndarray
    Y: np.ndarray
    PY: np.ndarray
    Y_PX: np.ndarray
    perm: np.ndarray
    defect: float
    weights_defect: float  # max |A_PX − P A Pᵀ|
    run: EquivarianceRun
    row_defects: np.ndarray  # ‖Attn(P X)_m − (P·Attn(X))_m‖ for each row m, this P
    V: np.ndarray  # the values V = X W_V: the terms of every output row
    why_row: int  # the row of Attn(P X) the "why" picture draws (the one that differs most)
    cmap: str
    cmap_signed: str
    picture: Picture02
    # a student's attention (``clips render --student``): whether A is theirs (they returned weights) and drawn,
    # whether the "why" sums are drawn (the property holds and Y = A V), the rows of Attn(P X) that are not
    # P·Attn(X) past the pass line (outlined in red)
    weights: bool = True
    sums: bool = True
    bad_rows: tuple = ()

    @property
    def why_token(self) -> int:
        """The token whose output the "why" picture draws: row ``why_row`` of Attn(P X) is its row of Y."""
        return int(self.perm[self.why_row])

    @property
    def zero_trials(self) -> int:
        """How many random permutations gave a defect of exactly 0."""
        return int(np.sum(self.run.defects == 0.0))


class PermutationEquivariance(ClipScene):
    """02 · Permute the input and self-attention permutes its output: exactly, up to rounding."""

    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    STUDENT = "equivariance"  # `clips render --student`: the student's attention on X, on P X and the random P X
    STUDENT_RUNS = (('Y', 'Y_perm', 'perms', 'defects'), "on P X")
    SUM_TALL = 1.8  # at most how much taller than wide the cells of the "why" sums grow
    SUM_DIMS = 4  # below this many value dimensions the cells may grow taller still, in proportion
    Y_WIDE = 2.2  # at most how much wider than tall Y's cells grow
    THIS_P_HALF = 0.12  # half this P's mark (its dot, 0.09, or an exact zero's diamond, 0.115), scene units
    TRIAL_HALF = 0.115  # half the widest mark of a trial (an exact zero's diamond on the floor)
    STAGED = True

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> EquivarianceData:
        li = lecture_inputs(cfg.T, cfg.d, cfg.seed)
        perm = np.array(cfg.perm)
        P = permutation_matrix(perm)
        Y, A = self_attention(li.X, li.Wq, li.Wk, li.Wv)
        Y_PX, A_PX = self_attention(P @ li.X, li.Wq, li.Wk, li.Wv)
        attn = attention_fn(li.Wq, li.Wk, li.Wv)
        A_moved = permuted_weights(A, perm)
        run = equivariance_run(attn, li.X, cfg.n_trials, cfg.seed)
        rows = permutation_row_defects(attn, li.X, perm)
        return EquivarianceData(
            X=li.X, PX=P @ li.X, A=A, PA=P @ A, A_moved=A_moved, A_PX=A_PX, Y=Y, PY=P @ Y, Y_PX=Y_PX, perm=perm,
            defect=equivariance_defect(attn, li.X, perm), weights_defect=float(np.max(np.abs(A_PX - A_moved))),
            run=run, row_defects=rows, V=li.X @ li.Wv, why_row=int(np.argmax(rows)),
            cmap=cfg.cmap_weights, cmap_signed=cfg.cmap_signed,
            picture=picture02(run.defects, run.max_defect, run.threshold, cfg),
        )

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> EquivarianceData:
        """The student's attention (no mask, the lecture's weights) on X and on P X for the clip's π, and their
        defects over the random P the check drew, in place of mathcore's; their weights where they returned them."""
        from dataclasses import replace

        lecture = cls.build_data(cfg)
        T = lecture.X.shape[0]

        def arr(name):
            a = student.array(cls.STUDENT, name)
            return None if a is None else np.asarray(a)

        perm = arr("perm").astype(int)
        if not np.array_equal(perm, lecture.perm):
            raise ValueError(f"the student's P is {perm.tolist()}, clip 02 draws {lecture.perm.tolist()}")
        Y, Y_PX = arr("Y").astype(float), arr("Y_perm").astype(float)
        if Y.shape != lecture.Y.shape or Y_PX.shape != lecture.Y.shape:
            raise ValueError(f"the student's outputs are {Y.shape} and {Y_PX.shape}, clip 02 draws {lecture.Y.shape}")
        P = permutation_matrix(perm)
        D = Y_PX - Y[perm]
        rows = np.linalg.norm(D, axis=1)
        defects = arr("defects").astype(float)
        rm = running_max(defects)
        run = EquivarianceRun(arr("perms"), defects, rm, float(rm[-1]), THRESHOLD, bool(rm[-1] < THRESHOLD))
        A, A_PX = arr("A"), arr("A_perm")
        weights = A is not None and A_PX is not None
        out = dict(Y=Y, PY=P @ Y, Y_PX=Y_PX, defect=float(np.linalg.norm(D)), run=run, row_defects=rows,
                   why_row=int(np.argmax(rows)), weights=weights,
                   bad_rows=tuple(m for m in range(T) if rows[m] >= THRESHOLD),
                   picture=picture02(defects, run.max_defect, THRESHOLD, cfg))
        if weights:
            A, A_PX = A.astype(float), A_PX.astype(float)
            A_moved = permuted_weights(A, perm)
            out.update(A=A, PA=P @ A, A_moved=A_moved, A_PX=A_PX,
                       weights_defect=float(np.max(np.abs(A_PX - A_moved))))
        V = lecture.V
        out["sums"] = bool(weights and run.passed and np.max(np.abs(Y - out["A"] @ V)) < THRESHOLD
                           and np.max(np.abs(Y_PX - out["A_PX"] @ V[perm])) < THRESHOLD)
        return replace(lecture, **out)

    def closing_key(self) -> str:
        return fail_key("close", not self.data.picture.passed)

    def student_values(self) -> dict:
        """The failing variants' values, bound to the red outlines, figures and dots that show them."""
        out = super().student_values()
        d = self.data
        if d.bad_rows and hasattr(self, "bad_frames"):
            out["bad_rows"] = claim(self.rows_text(d.bad_rows), *self.bad_frames)
            out["bad_max"] = claim(fmt_measure(float(max(d.row_defects[m] for m in d.bad_rows))), *self.bad_figures)
        if hasattr(self, "q") and len(self.q.red):
            above = int(np.sum(d.run.defects >= d.run.threshold))
            out["above"] = claim(count(above).text, *self.q.red)
        return out

    @staticmethod
    def rows_text(rows) -> str:
        """Rows in words: ``row 2``, ``rows 0 and 3``, ``rows 0, 1 and 4``."""
        rows = [str(r) for r in rows]
        return f"row {rows[0]}" if len(rows) == 1 else "rows " + ", ".join(rows[:-1]) + " and " + rows[-1]

    def caption_values(self) -> dict:
        d = self.data
        q, k = np.unravel_index(int(np.argmax(d.A)), d.A.shape)
        first = int(d.perm[0])
        T = d.X.shape[0]
        m, t = d.why_row, d.why_token
        out = {
            "T": T, "n": count(len(d.run.defects)).text, "defect": fmt_measure(d.defect),
            "max": fmt_measure(d.run.max_defect), "zeros": count(d.zero_trials).text,
            "threshold": measure(d.run.threshold).text, "peak_q": token_text(q), "peak_k": token_text(k),
            "peak": fmt_measure(d.A[q, k]), "first": token_text(first), "first_y": token_text(first, "y"),
            "xlast": token_text(T - 1), "d": d.X.shape[1], "token_y": token_text(t, "y"), "row": m,
            "row_defect": fmt_measure(float(d.row_defects[m])),
            "order": ", ".join(token_text(int(j), "v") for j in d.perm),
            "bar": "0 to 1", "y_bar": "a grid of coloured cells", "proof": fmt_measure(d.run.max_defect),
            "relation": "equals" if self.printed_sum(d.A[t], 2) == 1 else "is ≈, its weights rounded,",
            "this_p": "this P's mark stays where it stood, before trial 1",
            "y_name": "the equation Attn(P X) = P·Attn(X)",
        }  # plain values until the elements that show them are built
        p = getattr(self, "p", None)
        if p is not None:  # the elements each sentence names, once they are built
            out.update(
                T=claim(T, p.X_col), xlast=claim(token_text(T - 1), p.X_col), first=claim(token_text(first), p.X_col),
                first_y=claim(token_text(first, "y"), p.Y_mat), y_bar=claim(self.y_form, p.Y_mat),
            )
            if d.weights:  # A drawn: the lecture's, or the student's own weights
                out.update(peak=claim(fmt_measure(d.A[q, k]), p.A_map.peak_text), bar=claim("0 to 1", p.bar))
        if hasattr(self, "outputs_words"):  # the outputs' name after their rows moved: the equation, where it fits
            out["y_name"] = claim(self.outputs_words, self.p.Y_name)
        if hasattr(self, "q"):
            marks = list(self.q.marks.dots) if self.q.marks.mode == "dots" else [self.q.marks.band]
            out.update(defect=claim(fmt_measure(d.defect), self.check),
                       n=claim(count(len(d.run.defects)).text, *marks),
                       threshold=claim(measure(d.run.threshold).text, self.q.line),
                       max=claim(fmt_measure(d.run.max_defect), self.q.max_text if len(self.q.max_text) else self.close_verdict),
                       zeros=claim(count(d.zero_trials).text, self.q.zero_note if len(self.q.zero_note) else self.q.marks),
                       proof=claim(fmt_measure(d.run.max_defect), self.close_verdict))
            out["this_p"] = claim("this P's mark stays where it stood, before trial 1, the words this P beside it",
                                  self.this_p, self.this_tag)
            if d.sums:
                out.update(T=claim(T, *self.sums[0].terms), token_y=claim(token_text(t, "y"), self.sums[0].head),
                           relation=claim(out["relation"], self.sums[0].eq), d=claim(d.X.shape[1], self.sums[0].result),
                           order=claim(out["order"], *[t.name for t in self.sums[1].terms]),
                           row_defect=claim(fmt_measure(float(d.row_defects[m])), self.row_check))
        return out

    # ------------------------------------------------------------------ part 1: one permutation
    def y_widget(self, values, order, cell: float):
        """Y (or P Y) as coloured cells with their colour bar, row names ``y_k`` in their token's colour.
        Returns ``(widget, body, bar)``."""
        pic = self.data.picture
        rows = token_names(order, "y")
        colors = [token_color(int(k)) for k in order]
        wide = getattr(self, "y_wide", 1.0)  # Y's cells widen into width a narrow Y leaves over
        m = RowHeatmap(values, pic.outputs, cell_size=(cell * wide, cell) if wide > 1.0 else cell, row_labels=rows,
                       row_colors=colors)
        return m, m.heat, ColorBar(pic.outputs, height=m.heat.height)

    def part1(self, cell: float) -> SimpleNamespace:
        """X's chips → A with its colour bar → Y at row height ``cell``, each named over it."""
        d = self.data
        T = d.X.shape[0]
        pic = d.picture
        p = SimpleNamespace()
        p.cell = cell
        p.X_col = shows(TokenColumn(token_names(range(T)), row_height=cell, values=d.X), "X")
        p.Y_mat, p.Y_body, p.y_bar = self.y_widget(d.Y, range(T), cell)
        shows(p.Y_mat, "Y")
        p.arrow, p.arrow2 = (math("arrow.r", size=LABEL, color=DIM) for _ in range(2))
        p.Y_part = row(p.Y_mat, p.y_bar, gap="small")
        if not d.weights:  # a student's attention that returned Y alone: X → Y, no weights drawn
            parts = row(p.X_col, p.arrow, p.Y_part, gap="small")
            p.Y_part.shift((p.X_col.get_y() - p.Y_body.get_y()) * UP)
            top = parts.get_top()[1] + GAP.tight
            p.X_name = names(math(N.inputs.math, size=HEADING), "X")
            p.Y_name = names(math(N.outputs.math, size=HEADING), "Y")
            for name, core in ((p.X_name, p.X_col), (p.Y_name, p.Y_body)):
                name.next_to([core.get_x(), top, 0], UP, buff=0)
            p.group = VGroup(parts, p.X_name, p.Y_name)
            return p
        p.A_map = TravelMap(d.A, pic.weights, cell, range(T), peak=fmt_measure(float(np.max(d.A))))
        shows(p.A_map.heat, "A")
        p.bar = ColorBar(pic.weights, height=p.A_map.heat.height, ticks=pic.weight_ticks)
        p.A_part = row(p.A_map, p.bar, gap="small")
        parts = row(p.X_col, p.arrow, p.A_part, p.arrow2, p.Y_part, gap="small")
        for part, core in ((p.A_part, p.A_map.heat), (p.Y_part, p.Y_body)):
            part.shift((p.X_col.get_y() - core.get_y()) * UP)
        top = parts.get_top()[1] + GAP.tight
        p.X_name = names(math(N.inputs.math, size=HEADING), "X")
        p.Y_name = names(math(pic.outputs_formula.typst, size=HEADING), "Y")
        p.A_name = names(math(pic.weights_formula.typst, size=HEADING), "A")
        for name, core in ((p.X_name, p.X_col), (p.A_name, p.A_map.heat), (p.Y_name, p.Y_body)):
            name.next_to([core.get_x(), top, 0], UP, buff=0)
        # A's formula centred over A, apart from X's name (review: "X  A = softmax(…)" on one line read as one
        # expression): a section's gap from X's and Y's names, at the heading's size, else at the label's, else
        # A's name alone
        x_right = p.X_col.get_x() + max(p.X_name.width, math(f"{N.permutation.math} {N.inputs.math}", size=HEADING).width) / 2

        def apart(name):  # from X's name and from P X's, which takes its place
            return (name.get_left()[0] >= x_right + GAP.section
                    and name.get_right()[0] <= p.Y_name.get_left()[0] - GAP.section)

        if not apart(p.A_name):
            p.A_name = names(math(pic.weights_formula.typst, size=LABEL), "A")
            p.A_name.next_to([p.A_map.heat.get_x(), top, 0], UP, buff=0)
            if not apart(p.A_name):
                p.A_name = names(math(N.weights.math, size=HEADING), "A")
                p.A_name.next_to([p.A_map.heat.get_x(), top, 0], UP, buff=0)
        p.group = VGroup(parts, p.X_name, p.A_name, p.Y_name)
        return p

    def make_part1(self) -> None:
        """The picture of one permutation, as large as the whole content area allows (the check's line
        comes under it in its own beat, when the picture steps up)."""
        d = self.data
        T, dm = d.X.shape
        content = self.layout.content
        start = min(TokenColumn.MAX_ROW, content.height / T)
        # Y as coloured cells on the deck's outputs scale (its rows read by their colours as they move)
        g, cell = fit_cells(lambda c: self.part1(c).group, content, start, (T if d.weights else 0) + dm, T)
        if g.width < content.width:  # a narrow Y widens its cells into the width left over
            self.y_wide = min(self.Y_WIDE, 1.0 + (content.width - g.width) / (dm * cell))
        self.p = self.part1(cell)
        self.a_formula = getattr(self.p, "A_name", None)  # A's name at the setup (its formula where it fits)
        content.place(self.p.group)
        self.y_form = "a grid of coloured cells"
        # few tokens of many numbers make the picture a wide strip, bounded by the frame's width
        self.strip_why = ({"empty": f"{T} tokens of {dm} numbers make X → A → Y a short strip: the frame's width "
                                    "bounds it (chips at their tallest, Y's cells at their widest)"}
                          if self.p.group.height < 0.75 * content.height else
                          # X → A → Y span the content area (both ways at least 3/4): what is empty is the room
                          # between the three grids and their arrows
                          {"empty": "X → A → Y span the content area; the air left is between the three grids, "
                                    "where the arrows and the rows' paths run"})

    def rename(self, attr: str, expr: str, quantity: str):
        """Swap the name in ``attr`` for ``expr`` (naming ``quantity``) in the same place."""
        old = getattr(self.p, attr)
        new = names(math(expr, size=HEADING), quantity).move_to(old)
        if attr == "Y_name" and self.data.bad_rows:  # a student's outputs on P X, which are not P Y
            new = names(math(expr, size=HEADING), quantity).move_to(old)
            if new.get_right()[0] > self.layout.content.right:
                new.shift((self.layout.content.right - new.get_right()[0]) * RIGHT)
        if attr == "A_name":  # centred over A's map, wherever A's formula stood
            new.set_x(self.p.A_map.heat.get_x())
        setattr(self.p, attr, new)
        return swap(old, new)

    def outputs_name(self):
        """The outputs' name once their rows have moved as the inputs' did: the property itself, Attn(P X) =
        P·Attn(X), over P Y, the comparison it names (review round 10: the equation was written only at the close,
        never over the two matrices it compares).  At the heading's size where it fits over Y, inside the frame and
        a section's gap from A's name; else at the label's; else P Y.  Sets ``self.p.Y_name``."""
        p = self.p
        old = p.Y_name
        content = self.layout.content
        right = content.right
        left = (p.A_name if self.data.weights else p.X_name).get_right()[0] + GAP.section
        floor = p.Y_body.get_top()[1] + GAP.tight  # over Y's cells, never on them
        new = None
        for size in (HEADING, LABEL):
            eq = math(EQUIVARIANT.typst, size=size)
            eq.next_to([p.Y_body.get_x(), old.get_bottom()[1], 0], UP, buff=0)
            if eq.get_right()[0] > right:
                eq.shift((right - eq.get_right()[0]) * RIGHT)
            if eq.get_top()[1] > content.top:  # under the header's rule (its parentheses are taller than Y = A V)
                eq.shift((content.top - eq.get_top()[1]) * UP)
            if eq.get_left()[0] >= left and eq.get_bottom()[1] >= floor - 1e-9:
                new = eq
                break
        self.outputs_words = "the equation Attn(P X) = P·Attn(X)"
        if new is None:
            new = math(f"{N.permutation.math} Y", size=HEADING).move_to(old)
            self.outputs_words = "P Y"
        p.Y_name = names(new, "PY")
        return new

    def hand_over_y(self, values=None, quantity: str = "PY"):
        """Y's travelled rows handed over to a fresh matrix of P Y (or ``values``, naming ``quantity``), in the
        same place."""
        d, p = self.data, self.p
        new, body, _ = self.y_widget(d.PY if values is None else values, d.perm, self.cell)
        new.shift(p.Y_body.get_center() - body.get_center())
        shows(new, quantity)
        old = p.Y_mat
        p.Y_mat, p.Y_body = new, body
        return Handover(old, new)

    # ------------------------------------------------------------------ part 2: many permutations
    def plot_parts(self, region: Region, close: bool = False) -> SimpleNamespace:
        """The plot of every trial filling ``region``: the pass line and the staircase labelled on
        themselves, the figures in the empty band between them (at the ``close``, the staircase
        carries its maximum itself)."""
        d = self.data
        run, pic = d.run, d.picture
        n = len(run.defects)
        lo, hi = pic.axis
        q = SimpleNamespace()
        q.y_title = math(DEFECT.typst, size=LABEL)
        strip, body = region.take_top(q.y_title.height, gap=GAP.small)
        # room after the last trial for its mark inside the axis, however many trials: a dot (radius 0.04) or an
        # exact zero's diamond on the floor (0.13 wide: the last of 343 trials, exactly 0, reached past the frame)
        reach = 0.1
        pad = max(1.0, n * reach / (body.width - reach))
        # room before trial 1: on the plot of the trials, this P's own column (the words "this P", then its mark,
        # clear of the y axis and of trial 1's mark: it is not one of the random permutations, and it stays as they
        # come); the close has none
        q.tag_width = self.this_p_label().width
        room = (2 * reach if close else
                2 * GAP.small + q.tag_width + GAP.tight + 2 * self.THIS_P_HALF + self.TRIAL_HALF)
        lead = max(1.0, (n + pad) * room / (body.width - room))

        def fit(lead):
            return Plot.fitted(body, (-lead, n + pad), (10.0 ** lo, 10.0 ** hi), y_log=True,
                               x_ticks=nice_count_ticks(n), y_ticks=[10.0 ** e for e in pic.ticks],
                               x_label="random permutation")

        q.plot = fit(lead)
        if not close:  # the axis is narrower than the region (its tick labels): from the y axis to trial 1, ``room``
            axis = q.plot.axes[0].get_length()
            q.plot = fit(max(lead, (room * (n + pad) - axis) / (axis - room)))
        unit = q.plot.to_point(1, 10.0 ** lo)[0] - q.plot.to_point(0, 10.0 ** lo)[0]
        q.this_x = 1 - (self.TRIAL_HALF + GAP.small + self.THIS_P_HALF) / unit  # this P's column, before trial 1
        strip.place(q.y_title, LEFT)
        q.y_title.align_to(q.plot.axes[1], LEFT)
        q.line = q.plot.hline(run.threshold, color=DIM)
        q.line_label = label("pass line", size=SMALL).next_to(q.line.get_end(), UP, buff=GAP.tight)
        q.line_label.align_to(q.line, RIGHT)
        q.marks = TrialMarks(q.plot, run.defects, color=DIM)
        q.red = VGroup()  # a student's trials past the pass line: red dots
        if q.marks.mode == "dots":
            positive = np.flatnonzero(run.defects > 0)
            for dot, k in zip(q.marks.dots, positive):
                if run.defects[k] >= run.threshold:
                    q.red.add(role(dot.set_color(FAILED), "failed"))
        q.curve = role(staircase(q.plot, run.running_max, HIGHLIGHT), "highlight")
        q.curve_label = role(label("running max", size=SMALL, color=HIGHLIGHT), "highlight")
        q.curve_label.next_to(q.curve.get_end(), UP, buff=GAP.tight).align_to(q.curve, RIGHT)
        axes = q.plot.axes[0]
        if q.curve_label.get_top()[1] + GAP.normal < q.line.get_y() - GAP.normal:
            q.band = Region(axes.get_start()[0] + GAP.normal, axes.get_end()[0] - GAP.normal,
                            q.curve_label.get_top()[1] + GAP.normal, q.line.get_y() - GAP.normal, "band")
        else:  # a student's staircase over the pass line: the band under the line, over the axis
            q.band = Region(axes.get_start()[0] + GAP.normal, axes.get_end()[0] - GAP.normal,
                            axes.get_y() + GAP.normal, q.line.get_y() - GAP.normal, "band")
        q.max_text = column(role(math(pic.max_line.typst, size=HEADING, color=HIGHLIGHT), "highlight"),
                            label(pic.max_note, size=SMALL, color=DIM), gap="tight")
        q.zero_note = VGroup()
        if close:
            q.max_text = VGroup()
        elif d.zero_trials:
            q.zero_note = row(q.marks.zeros[0].copy(), label(
                f"exactly 0 in {count(d.zero_trials).text} of {count(n).text} trials", size=SMALL), gap="small")
        if len(q.max_text):  # on the staircase's level (height reads as value on a log axis), not under the pass line
            (self.on_level if d.picture.passed else self.under_level)(q, q.max_text)
        if len(q.zero_note):
            q.band.fit(q.zero_note, align=UP + LEFT)
        q.group = VGroup(q.plot, q.y_title, q.line, q.line_label, q.marks, q.curve, q.curve_label, q.max_text,
                         q.zero_note)
        return q

    @classmethod
    def trials_left(cls, q: SimpleNamespace) -> float:
        """Where the trials' marks begin (trial 1's left edge), a gap into the axis at least: a figure about the
        trials starts there, over them, not over this P's column and its words before trial 1."""
        axis = q.plot.axes[0]
        return max(axis.get_start()[0] + GAP.normal, q.plot.to_point(1, q.plot.y_range[0])[0] - cls.TRIAL_HALF)

    @classmethod
    def on_level(cls, q: SimpleNamespace, mob) -> bool:
        """Put ``mob`` just above the staircase's top level, from where the trials begin (above every trial's mark:
        none is over the running maximum), left of the staircase's label; over that label where both do not fit side
        by side.  Whether it stands clear of the pass line (a third of the way up to it at most)."""
        level = q.curve.get_top()[1]
        mob.next_to([cls.trials_left(q), level + GAP.small, 0], UP + RIGHT, buff=0)
        if mob.get_right()[0] > q.curve_label.get_left()[0] - GAP.normal:
            mob.next_to(q.curve_label, UP, buff=GAP.small).align_to(q.curve_label, RIGHT)
        return mob.get_top()[1] < q.line.get_y() - GAP.normal

    @classmethod
    def under_level(cls, q: SimpleNamespace, mob) -> bool:
        """A student's staircase over the pass line: put ``mob`` just under it and under every red trial, from where
        the trials begin, in the empty air between them and the pass line.  Whether it stands clear of the line."""
        low = min([q.curve.get_bottom()[1]] + [m.get_bottom()[1] for m in q.red])
        mob.next_to([cls.trials_left(q), low - GAP.small, 0], DOWN + RIGHT, buff=0)
        return mob.get_bottom()[1] > q.line.get_y() + GAP.normal

    def make_plot(self) -> None:
        d = self.data
        self.plot_why = {"empty": "the log plot spans the content area: its axes hold the trials, far below the "
                                  "pass line, and the air between them is the distance that proves the point"}
        content = self.layout.content
        self.q = q = self.plot_parts(content)
        self.plot, self.line, self.line_label, self.marks, self.max_curve = q.plot, q.line, q.line_label, q.marks, q.curve
        self.trial_dots, self.max_text, self.zero_note = q.marks.dots, q.max_text, q.zero_note
        # this P (clip 01's): its point on the axis before the random trials, its measure in the band
        if d.defect > 0:
            # in trial 1's column, inside the axis's range (not left of its first tick), in the text's colour: yellow
            # is the running maximum's (the trials that follow take its column, so it leaves as they come)
            over = d.defect >= d.run.threshold  # a student's P past the pass line: red
            self.this_p = Dot(q.plot.to_point(q.this_x, q.plot.y_clip(d.defect)), radius=0.09,
                              color=FAILED if over else FG)
            if over:
                role(self.this_p, "failed")
        else:
            self.this_p = q.plot.exact_zero(q.this_x, color=FG, text=None)
        # its figure beside it, on the data (the axis's title names the quantity), large: the beat's one subject
        # (an exact zero is a verdict: its ✓ before the 0 and its "exact" mark)
        fig = (verdict("", d.defect, d.defect < d.run.threshold, size=TITLE) if d.defect == 0.0
               else figure(d.defect, size=TITLE))
        self.check = column(fig, label("this P, from clip 01", size=SMALL, color=DIM), gap="tight")
        self.check.next_to(self.this_p, RIGHT, buff=GAP.normal)
        floor = q.plot.axes[0].get_y() + GAP.small  # never on the axis and its tick labels (a zero's diamond sits on it)
        if self.check.get_bottom()[1] < floor:
            self.check.shift((floor - self.check.get_bottom()[1]) * UP)
        if d.defect >= d.run.threshold:  # a student's past the pass line: above it, under the axis's top
            ceiling = q.plot.axes[1].get_top()[1]
            if self.check.get_bottom()[1] < q.line.get_y() + GAP.small:
                self.check.shift((q.line.get_y() + GAP.small - self.check.get_bottom()[1]) * UP)
            if self.check.get_top()[1] > ceiling:
                self.check.shift((ceiling - self.check.get_top()[1]) * UP)
        elif self.check.get_top()[1] > q.line.get_y() - GAP.small:  # never over the pass line
            self.check.shift((q.line.get_y() - GAP.small - self.check.get_top()[1]) * UP)
        self.this_tag = self.this_p_tag(q)
        q.group.add(self.this_p, self.this_tag)  # it leaves with the plot
        if d.sums:
            self.make_sums()

        # the close: the equation that holds and its verdict, over the plot that proves it
        pic = d.picture
        # what the maximum is over, in words (100 random P, not every P); the quantity is the axis's title
        self.close_verdict = worded_verdict(f"max over {count(len(d.run.defects)).text} random $P$", d.run.max_defect,
                                            pic.passed, size=HEADING, relation="" if pic.passed else "=")
        # the plot as tall as the frame allows under the equation, the verdict on it, in the empty band between
        # the staircase and the pass line (the distance it measures); where that band is too low for it, over it
        # a student's attention that fails: the equation that does not hold
        self.final = math(EQUIVARIANT.typst if pic.passed else EQUIVARIANT.typst.replace(" = ", " != "), size=TITLE)
        top, rest = content.take_top(self.final.height, gap=GAP.normal)
        q = self.plot_parts(rest, close=True)
        place = self.on_level if pic.passed else self.under_level
        on_plot = place(q, self.close_verdict)
        if not on_plot:
            self.final = column(self.final, self.close_verdict, gap="small", align=ORIGIN)
            top, rest = content.take_top(self.final.height, gap=GAP.wide)
            q = self.plot_parts(rest, close=True)
        top.place(self.final)
        if on_plot:
            q.group.add(self.close_verdict)
        self.q_close = q
        self.q_close.marks.set_opacity(DIMMED)  # the staircase is the subject: the trials behind it

    @staticmethod
    def this_p_label():
        """The words that name this P's mark on the plot of the trials."""
        return label("this P", size=SMALL, color=DIM)

    def this_p_tag(self, q: SimpleNamespace):
        """The words "this P" that stay with this P's mark while the trials fill the plot (its figure, beside it in
        the beat before, would sit on their marks): beside the mark, on its left, in the room its column keeps for
        them between the y axis and the mark (review round 10: under the mark, on the x axis's floor, they stood
        ~90 px from it).  Level with the mark; an exact zero's diamond sits on the floor, so the words stand on
        the floor beside it; a student's mark near the pass line keeps them on its side of the line."""
        tag = self.this_p_label()
        mark = self.this_p
        tag.next_to(mark, LEFT, buff=GAP.tight)
        floor = q.plot.axes[0].get_y() + GAP.tight
        if tag.get_bottom()[1] < floor:  # never on the x axis (an exact zero's diamond sits on it)
            tag.shift((floor - tag.get_bottom()[1]) * UP)
        line = q.line.get_y()
        if tag.get_bottom()[1] - GAP.tight < line < tag.get_top()[1] + GAP.tight:  # never across the pass line
            if mark.get_y() >= line:
                tag.shift((line + GAP.tight - tag.get_bottom()[1]) * UP)
            else:
                tag.shift((line - GAP.tight - tag.get_top()[1]) * UP)
        return tag

    @staticmethod
    def printed_sum(weights, decimals: int) -> float:
        """What a viewer gets adding the weights as printed, to ``decimals`` places."""
        return round(sum(round(float(w), decimals) for w in weights), decimals)

    def make_sums(self) -> None:
        """Why only rounding, as a picture: the output row of one token as the weighted sum of value vectors it
        is (y_t = Σ_n A_tn v_n), and under it the same row of Attn(P X): the same terms in the order P gives
        them.  Both lines as large as fits, their terms in the same slots; the row's measured difference
        under them."""
        d = self.data
        pic = d.picture
        T, dm = d.X.shape
        m, t = d.why_row, d.why_token
        inputs, outputs = deck_scale("inputs", self.cfg), deck_scale("outputs", self.cfg)
        self.row_check = verdict(f"norm(\"Attn\"(P X)_{m} - y_{t})", float(d.row_defects[m]),
                                 float(d.row_defects[m]) < d.run.threshold)
        strip, body = self.layout.content.take_bottom(self.row_check.height, gap=GAP.wide)
        strip.place(self.row_check)

        tall = wide = 1.0
        # the weights are printed to 2 places (3 do not fit 2 lines of T terms): where the printed ones do not sum
        # to 1 (review: 0.15 + 0.18 + 0.19 + 0.14 + 0.17 + 0.16 = 0.99), the lines say ≈, not =
        dec = 2
        rel = "=" if self.printed_sum(d.A[t], dec) == 1 else "approx"

        def build(cell):
            top = SumLine(f"y_{t}", d.Y[t], d.A[t], d.V, range(T), outputs, pic.weights, inputs, cell, tall=tall,
                          wide=wide, decimals=dec, rel=rel)
            bottom = SumLine(f"\"Attn\"(P X)_{m}", d.Y_PX[m], d.A[t], d.V, d.perm, outputs, pic.weights, inputs,
                             cell, tall=tall, wide=wide, decimals=dec, rel=rel)
            bottom.next_to(top, DOWN, buff=GAP.normal)
            bottom.shift((top.result.get_x() - bottom.result.get_x()) * RIGHT)  # the results' columns stacked
            g = VGroup(top, bottom)
            g.top, g.bottom = top, bottom
            return g

        per_w = 2 * T * (SumLine.WIDE + SumLine.WEIGHT) / 2 + SumLine.WIDE
        g, cell = fit_cells(build, body, min(1.0, body.height / (2 * dm + 2)), per_w, 2 * dm)
        # the lines are as wide as the frame allows; their cells grow taller into the height left over
        # few value dimensions make short columns: they may grow taller in proportion (a value column of d = 2
        # cells as tall as one of 4), so two short lines do not leave half the frame empty
        tall = min(self.SUM_TALL * max(1.0, self.SUM_DIMS / dm), 1.0 + (body.height - g.height) / (2 * dm * cell))
        wide = min(self.SUM_TALL, 1.0 + (body.width - g.width) / (per_w * cell))
        g = build(cell)
        if g.width > body.width:  # the weights' numbers set a floor under their cells: give back what they took
            wide = max(1.0, wide - (g.width - body.width) / (per_w * cell))
            g = build(cell)
        body.place(g)
        # while the sum is the only subject (why), the two lines stand in the middle of the content; they rise to
        # their place over the verdict's strip as the verdict comes (rounding)
        self.sums_lift = g.get_y() - self.layout.content.center[1]
        g.shift(self.sums_lift * DOWN)
        self.sums = (g.top, g.bottom)
        self.sums_why = {"empty": "two lines of one sum, term by term, span the frame's width; the air between the "
                                  "terms holds their + signs, and the columns grow as tall as a term may"}
        shows(g.top.result, "why.y")
        shows(g.bottom.result, "why.attn_px")

    def quantities(self) -> dict:
        out = super().quantities()
        d = self.data
        out["why.y"] = d.Y[d.why_token][:, None]
        out["why.attn_px"] = d.Y_PX[d.why_row][:, None]
        return out

    # ------------------------------------------------------------------ the clip
    def body(self) -> None:
        d = self.data
        self.make_part1()
        p = self.p
        self.cell = p.cell
        T = d.X.shape[0]
        w = d.weights
        whole = lambda: VGroup(p.X_col, *([p.A_map] if w else []), p.Y_mat)  # noqa: E731  (one permutation, as it is now)

        a_in = ([FadeIn(p.arrow2), FadeIn(p.A_name), reveal([VGroup(*r) for r in p.A_map.heat.cells]),
                 FadeIn(p.A_map.keys), FadeIn(p.A_map.peak_text), FadeIn(p.bar), Handover(VGroup(), p.A_map)]
                if w else [])
        self.beat(fail_key("setup", not w),  # an attention that returned Y alone: the setup says no weights are drawn
                  FadeIn(p.X_name), reveal(p.X_col.chips), FadeIn(p.arrow), *a_in,
                  FadeIn(p.Y_name), FadeIn(p.Y_mat), FadeIn(p.y_bar),
                  Handover(VGroup(), p.X_col),  # whole widgets, bound to their data
                  run_time=1.8, subject=whole(), why=self.strip_why)

        move = p.X_col.permute_rows(d.perm)
        shows(p.X_col, "PX")
        self.beat("permute_input", move, self.rename("X_name", f"{N.permutation.math} {N.inputs.math}", "PX"),
                  run_time=1.6, subject=p.X_col, why=self.strip_why)

        y_group = [p.Y_mat, p.y_bar, p.Y_name] + ([p.arrow2] if w else [])
        if w:  # A's rows, then its columns; Y steps back (its name describes the A that was)
            self.maps = [p.A_map]
            stepped = self.strip_why or {"empty": "Y steps back, dimmed, while A's rows and columns travel: the dimmed "
                                                  "half of the picture is context, not empty"}
            A0 = p.A_map
            A1 = A0.settled(d.PA, range(T))
            shows(A1.heat, "PA")
            p.A_map = A1  # the map on screen once the beat is over (what its sentences name)
            self.beat("rows", A0.travel_rows(d.perm), self.rename("A_name", "P A", "PA"), *[dim(m) for m in y_group],
                      Handover(A0, A1), run_time=1.6, subject=A1, why=stepped)
            order = [int(k) for k in d.perm]
            A2 = A1.settled(d.A_moved, order)
            shows(A2.heat, "A_moved")
            p.A_map = A2
            self.beat("cols", A1.travel_cols(d.perm), self.rename("A_name", "P A P^T", "A_moved"), Handover(A1, A2),
                      run_time=1.6, subject=A2, why=stepped)
            self.maps += [A1, A2]
            self.A_final = A2.heat
            self.play(*[undim(m) for m in y_group], run_time=0.5)
        self.bad_frames, self.bad_figures = VGroup(), VGroup()
        if d.bad_rows:  # a student's outputs on P X: Y's rows move to P Y, then become Attn(P X), the rows that
            # differ outlined in red, each with its measured difference where Y's colour bar stood
            travel = [p.Y_mat.permute_rows(d.perm), self.rename("Y_name", f"{N.permutation.math} Y", "PY"),
                      self.hand_over_y()]
            old_name = p.Y_name
            seen = [self.hand_over_y(d.Y_PX, "Y_PX"), self.rename("Y_name", "\"Attn\"(P X)", "Y_PX"),
                    FadeOut(p.y_bar)]
            body = p.Y_body
            right = self.layout.content.right
            for m in d.bad_rows:
                cells = VGroup(*body.cells[m])
                frame = role(SurroundingRectangle(cells, color=FAILED, buff=0.04, stroke_width=4), "failed")
                self.bad_frames.add(frame)
                fig = figure(float(d.row_defects[m]), size=SMALL, color=FAILED)
                fig.next_to(frame, RIGHT, buff=GAP.small)
                if fig.get_right()[0] > right:  # in the room Y's colour bar leaves, inside the frame
                    fig.shift((right - fig.get_right()[0]) * RIGHT)
                self.bad_figures.add(role(fig, "failed"))
            self.beat_plays(fail_key("outputs", True), [
                [AnimationGroup(*travel)],
                [AnimationGroup(*seen)],
                [AnimationGroup(Create(self.bad_frames), FadeIn(self.bad_figures))],  # over the outputs they mark
            ], run_time=1.0, subject=VGroup(p.Y_mat, p.X_col), why=self.strip_why)
            del old_name
        else:
            self.beat("outputs", p.Y_mat.permute_rows(d.perm), swap(p.Y_name, self.outputs_name()),
                      self.hand_over_y(), run_time=1.6, subject=VGroup(p.Y_mat, p.X_col), why=self.strip_why)

        # the same measure as a point on the log axis the trials will fill: this P first
        self.make_plot()
        part1 = [p.X_col, p.X_name, p.arrow, p.Y_mat, p.Y_name, self.bad_frames, self.bad_figures]
        part1 += [p.arrow2, p.A_map, p.bar, p.A_name] if w else []
        part1 += [] if d.bad_rows else [p.y_bar]
        self.play(*[FadeOut(m) for m in part1], run_time=0.8)
        q = self.q
        check = "check_zero" if d.defect == 0.0 else fail_key("check", d.defect >= d.run.threshold)
        self.beat(check,
                  FadeIn(q.plot), FadeIn(q.y_title), Create(q.line), FadeIn(q.line_label), FadeIn(self.this_p),
                  FadeIn(self.check, shift=GAP.small * UP), run_time=1.4,
                  subject=VGroup(q.plot, self.check, self.this_p), why=self.plot_why)

        # part 2: every trial
        marks_in = reveal(self.marks.dots) if self.marks.mode == "dots" else Create(self.marks.band)
        zeros = [FadeIn(self.marks.zeros), FadeIn(self.zero_note)] if d.zero_trials else []
        self.beat("trials_zeros" if d.zero_trials else "trials", FadeOut(self.check), FadeIn(self.this_tag), marks_in, *zeros,
                  run_time=2.0,
                  subject=VGroup(q.plot, q.marks, q.line), why=self.plot_why)
        self.beat(fail_key("running_max", not d.picture.passed),
                  Create(q.curve), FadeIn(q.curve_label), FadeIn(q.max_text, shift=GAP.small * UP),
                  run_time=1.8, subject=VGroup(q.plot, q.curve, q.max_text), why=self.plot_why)
        if not d.sums:  # the "why" argues from the lecture's attention (a reordered weighted sum): not drawn
            return

        # why only rounding: one row as the sum it is; the same terms, reordered, make Attn(P X)'s row
        top, bottom = self.sums
        copies = [top.term_of[int(j)].copy() for j in d.perm]
        # the copies drop together onto the second line, then slide to the places P gives them, each arc
        # bulging down, away from the line above
        drop = (bottom.terms[0].get_y() - top.terms[0].get_y()) * UP
        slides = [c.animate(path_arc=0.8 * np.sign(b.get_x() - c.get_x())).move_to(b)
                  for c, b in zip(copies, bottom.terms)]
        late = [bottom.result, bottom.head, bottom.eq, bottom.pluses]
        for m in late:
            m.set_opacity(0)
        self.beat_plays("why", [
            [FadeOut(q.group)],  # the plot leaves before the picture comes
            [AnimationGroup(reveal([VGroup(top.result, top.head), top.eq, *[x for k, t in enumerate(top.terms)
                                   for x in ([top.pluses[k - 1]] if k else []) + [t]]], lag=0.12),
                            Handover(VGroup(), top))],
            [AnimationGroup(*[c.animate.shift(drop) for c in copies])],
            [AnimationGroup(*slides, Handover(VGroup(*copies), bottom))],
            [AnimationGroup(*[m.animate.set_opacity(1) for m in late])],
        ], run_time=1.2, subject=VGroup(top, bottom), why=self.sums_why)
        self.beat("rounding", VGroup(top, bottom).animate.shift(self.sums_lift * UP),
                  FadeIn(self.row_check, shift=GAP.small * UP), run_time=0.8,
                  subject=VGroup(self.row_check, top, bottom), why=self.sums_why)

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return VGroup(self.final, self.q_close.group)

    def closing(self) -> None:
        """The picture leaves; the equation that holds and its verdict come in, over the plot that proves it:
        the staircase far below the pass line (a student's that fails: Attn(P X) ≠ P·Attn(X), ✗ and the maximum,
        over the plot whose staircase crosses it)."""
        leaving = [*self.sums, self.row_check] if self.data.sums else [self.q.group]
        self.beat(self.closing_key(), stage(leaving, [self.final, self.q_close.group], lag=1.0),
                  run_time=1.4, hold=self.CLOSING_HOLD, subject=self.takeaway(), why=self.plot_why)
