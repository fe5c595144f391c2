"""01 ``PermutationMatrix`` (§1): token rows of X; the permutation π, a list of indices, builds P
one one-hot row at a time; P X computed as rows of X flying to their new places; the proof on
screen is ``(P X)_m = x_π(m)`` bit for bit and ``P Pᵀ = I``, both measured by mathcore, and the
clip ends on the two of them, large.

Storyboard (each beat's subject as large as its region allows):

* ``rows``: X alone.
* ``perm``: π written over X, each entry under the position m that takes it.
* ``build``: P large at the left, row m lit while its single 1 lands in column π(m); X dimmed
  at the right (background).
* ``product``: ``P · X = P X`` across the frame; row π(m) of X flies into row m.
* ``check_gather``, ``check_orthogonal``: the two proof lines at the foot.
* ``close``: the two proof lines alone, large.

P's colour scale, π and the proof lines come from :func:`scenes.figures.permutation.picture`,
the one description this clip and its still draw from.

Render directly with ``manim -ql scenes/clips/c01_permutation_matrix.py PermutationMatrix``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    Write,
)

from mathcore import check_permutation, lecture_inputs
from mathcore.config import LectureConfig
from scenes.figures.permutation import Picture, picture
from scenes.kit import (
    BG,
    DIM,
    FAILED,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    SMALL,
    VERIFIED,
    ClipScene,
    Heatmap,
    LabelledMatrix,
    Region,
    label,
    math,
    token_color,
)
from scenes.kit.binding import names, shows
from scenes.kit.compose import DIMMED, GAP, column, reveal, row
from scenes.kit.notation import SUBSCRIPT, N, token_names
from scenes.kit.theme import figure


@dataclass(frozen=True)
class PermutationMatrixData:
    """What clip 01 draws: ``X: (T, d)``, ``perm`` (π), ``P = permutation_matrix(perm)``, ``P @ X``,
    the checks, and the picture's description shared with the still."""

    X: np.ndarray
    perm: np.ndarray
    P: np.ndarray
    PX: np.ndarray
    gather_equal: bool  # np.array_equal(P @ X, X[perm])
    orthogonality_defect: float  # max |P Pᵀ − I|
    cmap: str
    picture: Picture


class PermutationMatrix(ClipScene):
    """01 · Permutation matrices: P X only moves rows."""

    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    GROW = 1.6  # how far a subject may grow past its natural size when T and d are small
    NAME_SIZE = 44  # a row's name x_k: its subscript as large as the numbers beside it

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PermutationMatrixData:
        X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
        chk = check_permutation(X, cfg.perm)
        return PermutationMatrixData(
            X=X, perm=np.array(cfg.perm), P=chk.P, PX=chk.PX,
            gather_equal=chk.matmul_equals_gather, orthogonality_defect=chk.orthogonality_defect,
            cmap=cfg.cmap_weights,
            picture=picture(cfg.perm, chk.matmul_equals_gather, chk.orthogonality_defect, cfg.cmap_weights),
        )

    def caption_values(self) -> dict:
        d = self.data
        T, perm = d.X.shape[0], [int(k) for k in d.perm]
        return {"T": T, "d": d.X.shape[1], "order": d.picture.order_text, "first": perm[0], "second": perm[1],
                "last": f"x{str(T - 1).translate(SUBSCRIPT)}"}

    # ------------------------------------------------------------------ widgets
    def product(self) -> VGroup:
        """``P · X = P X`` at its natural size, every part centred on the brackets' line, each
        named over it; parts as attributes."""
        d = self.data
        kw = dict(value_size=SMALL, label_size=self.NAME_SIZE)
        X_mat = shows(LabelledMatrix(d.X, row_labels=token_names(range(len(d.X))), **kw), "X")
        PX_mat = shows(LabelledMatrix(d.PX, row_labels=token_names(d.perm), **kw,
                                      row_colors=[token_color(int(k)) for k in d.perm]), "PX")
        for mat in (X_mat, PX_mat):  # row names just clear of the bracket, whatever their size
            for lab in mat.row_labels:
                lab.shift((mat.left_bracket.get_left()[0] - GAP.small - lab.get_right()[0]) * RIGHT)
        P_map = shows(Heatmap(d.P, d.picture.scale, cell_size=X_mat.row_height), "P")
        P_rows, P_cols = P_map.index_labels("rows"), P_map.index_labels("cols")
        eq = math("=", size=HEADING)
        parts = row(VGroup(P_map, P_rows, P_cols), X_mat, eq, PX_mat, gap="normal")
        for part, core in ((parts[0], P_map), (X_mat, X_mat.brackets), (PX_mat, PX_mat.brackets)):
            part.shift(-core.get_y() * UP)
        top = parts.get_top()[1] + GAP.small
        titles = VGroup()
        for text, core, q in ((N.permutation.math, P_map, "P"), (N.inputs.math, X_mat.brackets, "X"),
                              (f"{N.permutation.math} {N.inputs.math}", PX_mat.brackets, "PX")):
            titles.add(names(math(text, size=HEADING), q).next_to([core.get_x(), top, 0], UP, buff=0))
        g = VGroup(parts, titles)
        g.X_mat, g.PX_mat, g.P_map, g.P_rows, g.P_cols, g.eq = X_mat, PX_mat, P_map, P_rows, P_cols, eq
        g.P_name, g.X_name, g.PX_name = titles
        return g

    def build_P(self, region: Region) -> VGroup:
        """P as large as fits ``region``, with its 0s and 1s, its indices and its name."""
        d = self.data
        hm = shows(Heatmap(d.P, d.picture.scale, cell_size=self.X_mat.row_height, show_values=True, decimals=0,
                           value_size=LABEL), "P")
        rows, cols = hm.index_labels("rows", size=LABEL), hm.index_labels("cols", size=LABEL)
        name = names(math(N.permutation.math, size=HEADING), "P").next_to(cols, UP, buff=GAP.small)
        g = VGroup(hm, rows, cols, name)
        region.fit(g, max_scale=self.GROW ** 2)
        g.map, g.rows, g.cols, g.name = hm, rows, cols, name
        return g

    def order_line(self) -> VGroup:
        """π written out, ``π = (2, 0, …)``, each entry under the position m that takes it."""
        pic = self.data.picture
        line = math(pic.order_math(groups=True), size=HEADING)
        entries = [list(line.select(m)) for m in range(len(pic.order))]  # the glyphs of π(m), inside the line
        slots = VGroup(*[label(str(m), size=SMALL, color=DIM).next_to(VGroup(*e), UP, buff=GAP.tight)
                         for m, e in enumerate(entries)])
        head = math(N.position.math, size=SMALL, color=DIM).next_to(slots, LEFT, buff=GAP.normal)
        head.set_y(slots.get_y())
        g = VGroup(line, slots, head)
        g.line, g.entries, g.slots = line, entries, slots
        return g

    def light(self, m: int, on: bool) -> list:
        """Animations lighting π's entry ``m`` and its position (or putting them back)."""
        o = self.order
        return [*[glyph.animate.set_color(HIGHLIGHT if on else FG) for glyph in o.entries[m]],
                o.slots[m].animate.set_color(HIGHLIGHT if on else DIM)]

    def proofs(self) -> VGroup:
        """The two proof lines, each a formula and its verdict on one line."""
        out = VGroup()
        for p in (self.data.picture.gather, self.data.picture.orthogonal):
            mark = VERIFIED if p.passed else FAILED
            if p.figure is not None:
                line = figure(p.figure, size=LABEL, color=FG if p.passed else FAILED, prefix=p.math, exact_color=mark)
            else:
                line = row(math(p.math, size=LABEL), label(p.verdict, size=LABEL, color=mark), gap="small")
            out.add(line)
        return out

    def make_mobjects(self) -> None:
        """Every widget in its final place, and X's and P's earlier states."""
        content = self.layout.content
        self.order = self.order_line()
        strip, body = content.take_top(self.order.height, gap=GAP.normal)
        strip.place(self.order)

        self.check_gather, self.check_orth = checks = self.proofs()
        row(*checks, gap="section")
        bottom, above = body.take_bottom(checks.height, gap=GAP.normal)
        bottom.fit(checks)

        prod = self.product()
        above.fit(prod, max_scale=self.GROW)
        self.prod = prod
        self.X_mat, self.PX_mat, self.P_map = prod.X_mat, prod.PX_mat, prod.P_map
        self.P_rows_idx, self.P_cols_idx, self.eq = prod.P_rows, prod.P_cols, prod.eq
        self.P_name, self.X_name, self.PX_name = prod.P_name, prod.X_name, prod.PX_name
        self.X_final = VGroup(self.X_mat, self.X_name).copy()
        self.product = VGroup(prod.P_map, prod.P_rows, prod.P_cols, self.X_mat, self.eq, self.PX_mat,
                              self.P_name, self.X_name, self.PX_name)

        # X alone, as large as fits (beat "rows"), then below π (beat "perm")
        x_alone = VGroup(self.X_mat, self.X_name)
        self.X_below = body.fit(x_alone.copy(), max_scale=self.GROW ** 2)
        content.fit(x_alone, max_scale=self.GROW ** 2)

        # P built large at the left, X dimmed at the right (beat "build")
        left, right = body.columns(1, 1, gap=GAP.section)
        self.P_build = self.build_P(left)
        self.X_dimmed = self.X_final.copy()
        right.fit(self.X_dimmed).fade(1 - DIMMED)  # every part to DIMMED of its own opacity (background)

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.X.shape[0]
        X_group = VGroup(self.X_mat, self.X_name)
        order, pb = self.order, self.P_build

        self.add(self.X_mat)  # whole widgets stay on screen, bound to their data; their parts come in
        self.beat("rows", FadeIn(self.X_name), Create(self.X_mat.brackets), reveal(self.X_mat.rows), run_time=1.6)
        self.beat("perm", Transform(X_group, self.X_below), Write(order.line), reveal([order[2], *order.slots]),
                  run_time=1.2)

        # P, one one-hot row at a time, large; X steps aside, dimmed
        grid = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(DIM) for r in pb.map.cells for c in r])
        pb.map.cells.set_fill(opacity=0)
        pb.map.labels.set_opacity(0)
        self.add(pb.map)
        steps = [Transform(X_group, self.X_dimmed), AnimationGroup(FadeIn(pb.name), FadeIn(pb.rows), FadeIn(pb.cols),
                                                                   Create(grid))]
        for m in range(T):
            j = int(d.perm[m])
            lit = self.light(m, True) + (self.light(m - 1, False) if m else [])
            steps.append(AnimationGroup(
                *lit, Indicate(pb.cols[j], color=HIGHLIGHT), Indicate(pb.rows[m], color=HIGHLIGHT),
                *[c.animate.set_fill(opacity=1) for c in pb.map.cells[m]],
                *[t.animate.set_opacity(1) for t in pb.map.labels[m * T:(m + 1) * T]]))
        self.beat_plays("build", [[step] for step in steps], run_time=0.6)  # nothing shows before its turn
        self.remove(grid)

        # to the product: P shrinks into place (colours only), X comes back, "=" and P X's
        # brackets wait dimmed so the rows can fly past them
        self.play(FadeOut(pb.map.labels), *self.light(T - 1, False), run_time=0.4)
        self.play(ReplacementTransform(pb.map.cells, self.P_map.cells),
                  ReplacementTransform(pb.rows, self.P_rows_idx), ReplacementTransform(pb.cols, self.P_cols_idx),
                  ReplacementTransform(pb.name, self.P_name), Transform(X_group, self.X_final), run_time=1.2)
        self.add(self.P_map)
        self.eq.set_opacity(DIMMED)
        self.PX_mat.brackets.set_stroke(opacity=DIMMED)
        homes = [r.get_center() for r in self.PX_mat.rows]
        for m in range(T):  # P X's rows wait on the rows of X they copy (the same glyphs, in the same place)
            self.PX_mat.rows[m].move_to(self.X_mat.rows[int(d.perm[m])])
        # each row's numbers fly on a backing of their own, so nothing shows through them; the backings
        # follow the numbers (an updater) and lie under every flying row (one animated with them would be
        # drawn over its row); they stay under P X's numbers, inside its brackets
        pitch = self.X_mat.slot_center(0)[1] - self.X_mat.slot_center(1)[1]
        backings = []
        for r in self.PX_mat.rows:
            b = Rectangle(width=r[0].width + GAP.hair, height=pitch, stroke_width=0, fill_color=BG, fill_opacity=0.92)
            backings.append(b.move_to(r[0]).add_updater(lambda b, numbers=r[0]: b.move_to(numbers)))
        self.add(*backings, self.PX_mat)
        self.play(FadeIn(self.eq), FadeIn(self.PX_name), Create(self.PX_mat.brackets), run_time=0.6)

        # P X: row π(m) of X flies into row m
        flights = []
        for m in range(T):
            j = int(d.perm[m])
            flyer = self.PX_mat.rows[m]
            one = SurroundingRectangle(self.P_map.cell(m, j), color=HIGHLIGHT, buff=GAP.hair)
            picked = SurroundingRectangle(self.X_mat.rows[j], color=HIGHLIGHT, buff=GAP.hair)
            flights.append(Succession(
                AnimationGroup(Create(one), Create(picked), run_time=0.3),
                flyer.animate(path_arc=-0.3).shift(homes[m] - flyer.get_center()),
                AnimationGroup(FadeOut(one), FadeOut(picked), run_time=0.25),
            ))
        undim = AnimationGroup(self.eq.animate.set_opacity(1), self.PX_mat.brackets.animate.set_stroke(opacity=1),
                               run_time=0.4)
        self.beat("product", Succession(LaggedStart(*flights, lag_ratio=0.55), undim), run_time=0.75 * T + 1.0)
        for b in backings:
            b.clear_updaters()

        self.beat("check_gather", FadeIn(self.check_gather, shift=GAP.small * UP), run_time=0.8)
        self.beat("check_orthogonal", FadeIn(self.check_orth, shift=GAP.small * UP), run_time=0.8)

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return VGroup(self.check_gather, self.check_orth)

    def bring_forward(self, take: VGroup, region=None) -> list:
        """The two proof lines, side by side at the foot, become one column in the middle, large."""
        anims = super().bring_forward(take, region)[:-1]  # the fade of everything else
        region = region or self.layout.content
        target = column(*[p.copy() for p in take], gap="wide")
        target.scale(min(region.fit_scale(target, self.TAKEAWAY_SCALE), self.TAKEAWAY_FILL * region.fit_scale(target,
                                                                                                         np.inf)))
        target.move_to(region.center)
        return [Succession(AnimationGroup(*anims), AnimationGroup(*[Transform(p, t) for p, t in zip(take, target)]))]

