"""01 ``PermutationMatrix`` (§1): token rows of X; the permutation π, a list of indices, builds P one
one-hot row at a time; P X computed as rows of X flying to their new places; Pᵀ applied to P X sends
every row back.  The proofs on screen, both measured by mathcore, are ``max_m |(P X)_m − x_π(m)| = 0``
and ``max |Pᵀ P − I| = 0``, each in the deck's verdict style; the clip ends on the two of them, large.

Storyboard (one subject a beat, as large as its region allows; X, P X and Pᵀ P X are value-coloured
grids on the deck's "inputs" scale with their numbers printed, P is on the "weights" scale):

* ``rows``: X alone, large, braced: T tokens down, d numbers across.
* ``perm``: π written over the frame, each entry under the position m that takes it; X steps into its
  place in the product, and P X's rows wait empty at the right, already named x_π(m).
* ``build``: P fills one one-hot row at a time: row m lit while its single 1 lands in column π(m), the
  row of X it picks outlined.
* ``product``: row π(m) of X flies into row m of P X.
* ``check_gather``: the first verdict under the product.
* ``undo``: P turns over its diagonal into Pᵀ, P X takes X's place, and its rows fly back: Pᵀ P X = X.
* ``check_orthogonal``: the second verdict.
* ``close``: the two verdicts alone, large.

Render directly with ``manim -ql scenes/clips/c01_permutation_matrix.py PermutationMatrix``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Brace,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    ReplacementTransform,
    Rotate,
    Succession,
    Transform,
    VGroup,
    Wait,
    Write,
)

from mathcore import check_permutation, lecture_inputs
from mathcore.config import LectureConfig
from scenes.clips.c01_widgets import RowMap, one_hot_frame, row_frame, row_frame_cells
from scenes.figures.permutation import Picture, picture
from scenes.kit import (
    DIM,
    FG,
    HEADING,
    HIGHLIGHT,
    LABEL,
    ClipScene,
    Heatmap,
    LayoutError,
    Region,
    label,
    math,
)
from scenes.kit.binding import claim, names, role, shows
from scenes.kit.compose import GAP, column, reveal, row
from scenes.kit.motion import swap
from scenes.kit.notation import SUBSCRIPT, N
from scenes.kit.permuting import Handover
from scenes.kit.proofs import verdict
from scenes.kit.student import fail_key
from scenes.kit.theme import FAILED


@dataclass(frozen=True)
class PermutationMatrixData:
    """What clip 01 draws: ``X: (T, d)``, ``perm`` (π), ``P = permutation_matrix(perm)``, ``P @ X``,
    ``PT = Pᵀ`` and ``undone = Pᵀ (P X)``; the measures (``gather_defect = max |P X − X[perm]|``,
    ``transpose_defect = max |Pᵀ P − I|``, ``orthogonality_defect = max |P Pᵀ − I|``) and the picture's
    description shared with the still."""

    X: np.ndarray
    perm: np.ndarray
    P: np.ndarray
    PX: np.ndarray
    PT: np.ndarray
    undone: np.ndarray
    PTP: np.ndarray  # Pᵀ P, drawn beside Pᵀ and P at check_orthogonal: the identity for the lecture's P
    gather_equal: bool  # np.array_equal(P @ X, X[perm])
    gather_defect: float
    transpose_defect: float
    orthogonality_defect: float
    cmap: str
    picture: Picture
    # the row of X each row m of P picks (its largest entry): π itself for the lecture's P
    picks: tuple = ()
    # a student's P (``clips render --student``): the rows of P that differ from the one π builds, and the rows
    # of P X that differ from X[π] (the cells the failing variants outline); empty for the lecture
    bad_P_rows: tuple = ()
    bad_rows: tuple = ()


def sub(k: int) -> str:
    return str(int(k)).translate(SUBSCRIPT)


class PermutationMatrix(ClipScene):
    """01 · Permutation matrices: P X only moves rows, and Pᵀ moves them back."""

    STAGED = True
    STUDENT = "permutation_matrix"  # `clips render --student`: the student's permutation_matrix(π) is drawn
    TIDY_PLAYS = True  # whole widgets stay in the scene (bound to their data) while their parts animate
    GROW = 1.6  # how far a subject may grow past its natural size when T and d are small
    NAME_SIZE = 40  # a row's name x_k: its subscript as large as the numbers beside it
    ROW_H = 0.78  # a row's height before fitting (P's cells are square)
    ROW_GROWTH = (1.0, 1.25, 1.6, 2.0)  # taller rows tried where few tokens leave the frame's height unused
    PADS = (0.2, 0.6, 1.2)  # and wider cells where narrow rows (small d) leave its width unused
    ALONE_SHARE = 0.4  # the share of the content area X's grid covers when it is shown alone

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PermutationMatrixData:
        X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
        chk = check_permutation(X, cfg.perm)
        return PermutationMatrixData(
            X=X, perm=np.array(cfg.perm), P=chk.P, PX=chk.PX, PT=chk.P.T.copy(), undone=chk.undone, PTP=chk.P.T @ chk.P,
            gather_equal=chk.matmul_equals_gather, gather_defect=chk.gather_defect,
            transpose_defect=chk.transpose_defect, orthogonality_defect=chk.orthogonality_defect,
            cmap=cfg.cmap_weights, picture=picture(cfg.perm, chk.gather_defect, chk.transpose_defect, cfg),
            picks=tuple(int(k) for k in cfg.perm),
        )

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> PermutationMatrixData:
        """The student's ``P = permutation_matrix(π)`` and ``P X`` (as the checks multiplied it) on the lecture's
        X, with what they measure: ``max |P X − X[π]|``, ``max |Pᵀ P − I|``, and the rows that differ."""
        X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
        perm = np.array(cfg.perm)
        P = np.asarray(student.array(cls.STUDENT, "P"), dtype=float)
        PX = np.asarray(student.array(cls.STUDENT, "PX"), dtype=float)
        T = X.shape[0]
        eye = np.eye(T)
        reference = eye[perm]
        gather_defect = float(np.max(np.abs(PX - X[perm])))
        transpose_defect = float(np.max(np.abs(P.T @ P - eye)))
        return PermutationMatrixData(
            X=X, perm=perm, P=P, PX=PX, PT=P.T.copy(), undone=P.T @ PX, PTP=P.T @ P,
            gather_equal=bool(np.array_equal(PX, X[perm])), gather_defect=gather_defect,
            transpose_defect=transpose_defect, orthogonality_defect=float(np.max(np.abs(P @ P.T - eye))),
            cmap=cfg.cmap_weights, picture=picture(perm, gather_defect, transpose_defect, cfg),
            picks=tuple(int(k) for k in np.argmax(np.abs(P), axis=1)),
            bad_P_rows=tuple(int(m) for m in range(T) if not np.array_equal(P[m], reference[m])),
            bad_rows=tuple(int(m) for m in range(T) if not np.array_equal(PX[m], X[perm[m]])),
        )

    def student_values(self) -> dict:
        """What the failing variants say, bound to the red outlines and the verdicts that show it."""
        out = super().student_values()
        d = self.data
        if getattr(self, "bad_P_frames", None) is not None and d.bad_P_rows:
            m = d.bad_P_rows[0]
            out["bad_P_row"] = claim(m, self.P_rows_idx[m], self.bad_P_frames[0])
        if getattr(self, "bad_frames", None) is not None and d.bad_rows:
            m = d.bad_rows[0]
            out.update(bad_row=claim(m, self.bad_frames[0]), want=claim(int(d.perm[m]), self.X_map.names[int(d.perm[m])]),
                       nbad=claim(len(d.bad_rows), *self.bad_frames),
                       defect=claim(d.picture.gather.figure.text, self.check_gather))
        if hasattr(self, "check_undo"):
            out["tdefect"] = claim(d.picture.undo.figure.text, self.check_undo)
        return out
    def caption_values(self) -> dict:
        d = self.data
        T, dm = d.X.shape
        perm = [int(k) for k in d.perm]
        picks = list(d.picks) or perm  # the columns P's rows pick: π for the lecture's P
        out = {"T": T, "d": dm, "order": d.picture.order_text, "first": picks[0], "second": picks[1],
               "last": f"x{sub(T - 1)}", "names": f"x{sub(0)} to x{sub(T - 1)}", "close_rows": f"x{sub(0)} to x{sub(T - 1)}",
               "slots": ", ".join(f"x{sub(k)}" for k in perm), "restored": f"x{sub(0)}, x{sub(1)}, … x{sub(T - 1)}",
               "checks": "the two verdicts"}  # plain values until the elements that show them are built
        if hasattr(self, "X_map"):  # the elements each sentence names, once they are built
            out.update(
                T=claim(T, self.T_label), d=claim(dm, self.d_label),
                names=claim(f"x{sub(0)} to x{sub(T - 1)}", self.X_alone.names),
                order=claim(d.picture.order_text, self.order.line),
                slots=claim(", ".join(f"x{sub(k)}" for k in perm), self.PX_map.names),
                first=claim(picks[0], self.P_map.cell(0, picks[0])), second=claim(picks[1], self.P_map.cell(1, picks[1])),
                restored=claim(f"x{sub(0)}, x{sub(1)}, … x{sub(T - 1)}", self.back_map.names),
                checks=claim("the two verdicts", self.check_gather, self.check_undo),
                ptp=claim("Pᵀ P = I", self.ortho.I, self.ortho.I_name),
            )
        else:
            out["ptp"] = "Pᵀ P = I"
        if hasattr(self, "final"):  # the close: P X back, its rows named x_π(m)
            out["slots"] = claim(out["slots"].value if hasattr(out["slots"], "value") else out["slots"], self.final.PX.names)
            out["close_rows"] = claim(f"x{sub(0)} to x{sub(T - 1)}", self.final.X.names)
            out["ptp"] = claim("Pᵀ P = I", self.ortho.I, self.final.I_name)  # its name swapped for "Pᵀ P = I"
        return out

    # ------------------------------------------------------------------ widgets
    def row_map(self, values, rows, size: float = LABEL, pad: float = 0.2, tall: float = 1.0) -> RowMap:
        """X-like rows at the natural row height (grown with ``size``): cells wide enough for the widest
        printed number (or square cells of colour alone, when the numbers would not fit: ``self.numbers``)."""
        d = self.data
        numbers = getattr(self, "numbers", True)
        h = self.row_h * tall * size / LABEL
        if numbers:
            texts = [label(f"{v:.1f}".replace("-", "\u2212"), size=size) for v in np.concatenate([d.X.ravel()])]
            w = max(t.width for t in texts) + pad * size / LABEL
        else:  # colour alone: square cells, wider only by the pad
            w = h + (pad - self.PADS[0]) * size / LABEL
        return RowMap(values, rows, d.picture.inputs, w, h, size, self.NAME_SIZE * size / LABEL,
                      numbers=numbers)

    def product(self) -> VGroup:
        """``P  X = P X`` at its natural size, every part centred on one line (names come once it is fitted)."""
        d = self.data
        T = d.X.shape[0]
        X_map = self.row_map(d.X, range(T), pad=self.pad)
        shows(X_map.heat, "X")
        PX_map = self.row_map(d.PX, d.perm, pad=self.pad)
        shows(PX_map.heat, "PX")
        P_map = shows(Heatmap(d.P, d.picture.scale, cell_size=self.row_h, show_values=True, decimals=self.p_decimals,
                              value_size=LABEL), "P")
        P_rows, P_cols = P_map.index_labels("rows"), P_map.index_labels("cols")
        eq = math("=", size=HEADING)
        parts = row(VGroup(P_map, P_rows, P_cols), X_map, eq, PX_map, gap="normal")
        for part, core in ((parts[0], P_map), (X_map, X_map.heat), (PX_map, PX_map.heat)):
            part.shift(-core.get_y() * UP)
        eq.set_y(0)
        parts.X_map, parts.PX_map, parts.P_map, parts.P_rows, parts.P_cols, parts.eq = X_map, PX_map, P_map, P_rows, P_cols, eq
        return parts

    @property
    def p_decimals(self) -> int:
        """P's cells print whole numbers (its 0s and 1s); a student's P that holds anything else prints a decimal,
        so no cell reads 0 or 1 that is not."""
        P = self.data.P
        return 0 if np.array_equal(P, np.round(P)) else 1

    def title(self, text: str, over, quantity: str):
        """A matrix's name over it, at the heading size, on the names' common baseline."""
        return names(math(text, size=HEADING), quantity).next_to([over.get_x(), self.titles_y, 0], UP, buff=0)

    def order_line(self) -> VGroup:
        """π written out, ``π = (2, 0, …)``, each entry under the position m that takes it."""
        pic = self.data.picture
        line = math(pic.order_math(groups=True), size=HEADING + 6)
        entries = [list(line.select(m)) for m in range(len(pic.order))]  # the glyphs of π(m), inside the line
        slots = VGroup(*[label(str(m), size=LABEL, color=DIM).next_to(VGroup(*e), UP, buff=GAP.tight)
                         for m, e in enumerate(entries)])
        head = math(N.position.math, size=LABEL, color=DIM).next_to(slots, LEFT, buff=GAP.normal)
        head.set_y(slots.get_y())
        g = VGroup(line, slots, head)
        g.line, g.entries, g.slots = line, entries, slots
        return g

    def light(self, m: int, on: bool) -> list:
        """Animations lighting π's entry ``m`` and its position (or putting them back)."""
        o = self.order
        return [*[role(glyph, "highlight").animate.set_color(HIGHLIGHT if on else FG) for glyph in o.entries[m]],
                role(o.slots[m], "highlight").animate.set_color(HIGHLIGHT if on else DIM)]

    def braced(self, x_group: VGroup) -> VGroup:
        """X's braces: T tokens down its right side, d numbers along its foot."""
        T, dm = self.data.X.shape
        heat = x_group[0].heat
        right = Brace(heat, RIGHT, buff=GAP.small, color=DIM)
        foot = Brace(heat, DOWN, buff=GAP.small, color=DIM)
        self.T_label = label(f"{T} tokens", size=LABEL).next_to(right, RIGHT, buff=GAP.small)
        self.d_label = label(f"{dm} numbers each", size=LABEL).next_to(foot, DOWN, buff=GAP.tight)
        return VGroup(right, foot, self.T_label, self.d_label)

    def ortho_row(self, region: Region) -> VGroup:
        """``Pᵀ P = I`` (beat ``check_orthogonal``): Pᵀ and P, their product beside them, at Pᵀ's cell size (smaller
        where the three square grids need it), every cell printed, each grid named over it.  The product is
        mathcore's Pᵀ P; it is named I only where it is the identity (a student's P: named Pᵀ P)."""
        d, pic = self.data, self.data.picture

        def grid(v, q):
            dec = 0 if np.array_equal(v, np.round(v)) else 1
            return shows(Heatmap(v, pic.scale, cell_size=self.row_h, show_values=True, decimals=dec, value_size=LABEL), q)

        PT, P, I_ = grid(d.PT, "PT"), grid(d.P, "P"), grid(d.PTP, "PTP")
        eq = math("=", size=HEADING)
        g = row(PT, P, eq, I_, gap="wide")
        # as large as the product's region allows (few tokens: larger than Pᵀ was beside P X)
        g.scale(min(0.97 * region.width / g.width, region.height / g.height))
        g.move_to(region.center)
        identity = d.transpose_defect == 0.0
        heads = [(PT, f"{N.permutation.math}^T", "PT"), (P, N.permutation.math, "P"),
                 (I_, "I" if identity else f"{N.permutation.math}^T {N.permutation.math}", "PTP")]
        titles = VGroup(*[names(math(t, size=HEADING), q).next_to(m, UP, buff=GAP.small) for m, t, q in heads])
        top = max(t.get_bottom()[1] for t in titles)
        for t in titles:  # one baseline
            t.shift((top - t.get_bottom()[1]) * UP)
        out = VGroup(g, titles)
        # a colormap whose 0 is near the background's colour (inferno, magma: black) splits each grid into its 1s
        dark = float(np.dot(np.asarray(pic.scale.rgb(0.0), dtype=float).ravel()[:3], [0.2126, 0.7152, 0.0722])) < 0.03
        # the three grids are one equation, Pᵀ P = I: with few tokens their cells are large and the gaps between
        # them wide, so they read as separate groups (the sweep: T = 3, cividis), and a dark 0 splits a grid further
        self.ortho_why = {"dashboard": "Pᵀ, P and their product are one equation, Pᵀ P = I, under its verdict"
                                       + ("; this colormap paints a 0 near the background's colour, so each grid "
                                          "reads as its separate 1s" if dark else "")}
        out.PT, out.P, out.I, out.eq = PT, P, I_, eq
        out.I_place = I_.copy()  # where the product stands at check_orthogonal (the close moves the grid on)
        out.PT_name, out.P_name, out.I_name = titles
        return out

    def make_mobjects(self) -> None:
        """Every widget in its final place, and X's earlier places."""
        d, pic = self.data, self.data.picture
        content = self.layout.content
        self.order = self.order_line()
        strip, body = content.take_top(self.order.height, gap=GAP.normal)
        strip.place(self.order)
        # the verdicts take π's strip once P is built and used
        self.check_gather = verdict(pic.gather.math, pic.gather.figure, pic.gather.passed)
        self.check_undo = verdict(pic.undo.math, pic.undo.figure, pic.undo.passed)
        strip.fit(row(self.check_gather, self.check_undo, gap="section"))

        probe = math("P X", size=HEADING)
        names_strip, middle = body.take_top(probe.height, gap=GAP.small)
        # the row height that lets the product cover most of its region (few tokens: taller rows), X's
        # numbers printed on its cells while they stay legible, else colour alone
        best = None
        for numbers in (True, False):
            self.numbers = numbers
            for k in self.ROW_GROWTH:
                for pad in self.PADS:
                    self.row_h, self.pad = self.ROW_H * k, pad
                    prod = self.product()
                    if middle.fits(prod):
                        s = middle.fit_scale(prod, self.GROW)
                        area = prod.width * prod.height * s * s
                        if best is None or area > best[0] * 1.02:  # the first (the smallest cells) unless clearly larger
                            best = (area, numbers, self.row_h, pad)
            if best is not None:
                break
        if best is None:
            raise LayoutError(f"clip 01 cannot fit P X = P X for T={d.X.shape[0]}, d={d.X.shape[1]} in "
                              f"{middle.width:.2f}×{middle.height:.2f} units")
        _, self.numbers, self.row_h, self.pad = best
        prod = self.product()
        middle.fit(prod, max_scale=self.GROW)
        # few rows of many numbers make the product a wide strip, bounded by the frame's width
        T, dm = d.X.shape
        wide = prod.width >= 0.95 * middle.width  # the frame's width bounds the strip: it cannot grow
        bound = ("the frame's width bounds it, and its numbers stay legible" if wide
                 else f"its cells grow at most {self.GROW:g}× past their natural size")
        what = "printed numbers" if self.numbers else "features"
        # (a width-bound strip says so at any height: the sweep drew T = 4, d = 6, a strip 0.66 of the middle's
        # height and 54 % of the content empty)
        self.strip_why = ({"empty": f"{T} rows of {dm} {what} make P X = P X a wide strip: {bound}"}
                          if wide or prod.height < 0.65 * middle.height else None)
        self.titles_y = prod.get_top()[1] + GAP.small
        self.prod = prod
        self.X_map, self.PX_map, self.P_map = prod.X_map, prod.PX_map, prod.P_map
        self.P_rows_idx, self.P_cols_idx, self.eq = prod.P_rows, prod.P_cols, prod.eq
        self.P_name = self.title(N.permutation.math, self.P_map, "P")
        self.X_name = self.title(N.inputs.math, self.X_map.heat, "X")
        self.PX_name = self.title(f"{N.permutation.math} {N.inputs.math}", self.PX_map.heat, "PX")
        self.product = VGroup(prod.P_map, prod.P_rows, prod.P_cols, self.X_map, self.eq, self.PX_map,
                              self.P_name, self.X_name, self.PX_name)
        self.PX_slots = self.PX_map.outline()  # the rows P X still waits for

        # the undo: Pᵀ in P's place, P X in X's, and X again (Pᵀ P X, rows back in order) in P X's
        T = d.X.shape[0]
        self.PT_map = shows(Heatmap(d.PT, pic.scale, cell_size=self.row_h, show_values=True, decimals=self.p_decimals,
                                    value_size=LABEL), "PT")
        self.PT_map.scale(self.P_map.width / self.PT_map.width).move_to(self.P_map)
        self.PT_name = self.title(f"{N.permutation.math}^T", self.P_map, "PT")
        self.back_map = self.row_map(d.undone, range(T), pad=self.pad)
        shows(self.back_map.heat, "undone")
        self.back_map.scale(self.PX_map.heat.height / self.back_map.heat.height)
        self.back_map.shift(self.PX_map.heat.get_center() - self.back_map.heat.get_center())
        self.back_name = self.title(N.inputs.math, self.PX_map.heat, "undone")
        self.back_slots = self.back_map.outline()
        self.ortho = self.ortho_row(middle)

        # X alone, as large as fits beside its braces (beat "rows"): larger numbers in wider cells, which
        # become the product's X in the next beat
        best = None
        for tall in (1.0, 1.4, 2.0):
            for pad in (0.6, 1.3, 2.2, 3.5):
                xa = self.row_map(d.X, range(T), size=HEADING + 8, pad=pad, tall=tall)
                name = math(N.inputs.math, size=HEADING + 20).next_to(xa.heat, UP, buff=GAP.small)
                g = VGroup(xa, name)
                room = self.braced(g.copy())  # the braces' room: measured at this size, kept at any other
                right = room.get_right()[0] - g.get_right()[0]
                below = g.get_bottom()[1] - room.get_bottom()[1]
                region = Region(content.left, content.right - right, content.bottom + below, content.top, "X alone")
                if not region.fits(g):
                    continue
                s_ = region.fit_scale(g, self.GROW ** 2)
                share = xa.heat.width * xa.heat.height * s_ * s_ / (content.width * content.height)
                # the largest numbers among the grids that cover enough of the frame, else the largest grid
                key = (min(share, self.ALONE_SHARE) >= self.ALONE_SHARE, s_ if share >= self.ALONE_SHARE else share)
                if best is None or key > best[0]:
                    best = (key, xa, name, region)
        _, self.X_alone, self.X_alone_name, region = best
        shows(self.X_alone.heat, "X")
        names(self.X_alone_name, "X")
        x_alone = VGroup(self.X_alone, self.X_alone_name)
        region.fit(x_alone, max_scale=self.GROW ** 2)
        self.braces = self.braced(x_alone)
        content.place(VGroup(x_alone, self.braces))

    # ------------------------------------------------------------------ beats
    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.X.shape[0]
        perm = list(d.picks)  # the row of X each row of P picks: π, unless a student's P picks others
        X_group = VGroup(self.X_map, self.X_name)
        order = self.order

        self.add(self.X_alone)  # whole widgets stay on screen, bound to their data; their parts come in
        xa = self.X_alone
        self.beat("rows", FadeIn(self.X_alone_name), reveal([VGroup(n, xa.body(i)) for i, n in enumerate(xa.names)]),
                  FadeIn(self.braces), run_time=1.6, subject=VGroup(xa, self.X_alone_name, self.braces))

        # the product's skeleton: P and P X wait empty, P X's rows already named x_π(m); π over them
        pm = self.P_map
        self.P_grid = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(DIM, width=2, opacity=1.0)
                               for r in pm.cells for c in r])
        pm.cells.set_fill(opacity=0)
        pm.labels.set_opacity(0)
        self.PX_map.heat.set_opacity(0)
        self.PX_map.names.set_opacity(0)
        self.add(pm, self.PX_map)
        self.beat_plays("perm", [
            [AnimationGroup(FadeOut(self.braces), ReplacementTransform(VGroup(xa, self.X_alone_name), X_group))],
            [AnimationGroup(Write(order.line), reveal([order[2], *order.slots]), Create(self.P_grid),
                            FadeIn(self.P_name), FadeIn(self.P_rows_idx), FadeIn(self.P_cols_idx), FadeIn(self.eq),
                            Create(self.PX_slots), self.PX_map.names.animate.set_opacity(1))],
        ], run_time=1.2, subject=VGroup(order, X_group, self.PX_slots, self.PX_map.names), why=self.strip_why)

        # P, one one-hot row at a time; the row of X each row picks, outlined
        steps = []
        picked = None
        for m in range(T):
            j = perm[m]
            frame = role(row_frame(self.X_map, j, HIGHLIGHT), "highlight")
            lit = self.light(m, True) + (self.light(m - 1, False) if m else [])
            anims = [*lit, *[c.animate.set_fill(opacity=1) for c in pm.cells[m]],
                     *[t.animate.set_opacity(1) for t in pm.labels[m * T:(m + 1) * T]],
                     Create(frame), *([FadeOut(picked)] if picked is not None else [])]
            steps.append([AnimationGroup(*anims)])
            picked = frame
        steps.append([AnimationGroup(FadeOut(picked), *self.light(T - 1, False))])
        # a student's P: the rows that are not the one-hot rows π asks for, outlined in red once P is built
        self.bad_P_frames = VGroup(*[role(row_frame_cells(pm, m, FAILED, buff=-0.03), "failed") for m in d.bad_P_rows])
        if d.bad_P_rows:
            steps.append([Create(self.bad_P_frames)])
        self.beat_plays(fail_key("build", bool(d.bad_P_rows)), steps, run_time=0.6, subject=VGroup(pm, self.P_rows_idx, self.P_cols_idx), why=self.strip_why)
        self.remove(self.P_grid)

        # P X: row π(m) of X flies into row m (its numbers and cells; the names wait in their slots)
        homes = [self.PX_map.body(m).get_center() for m in range(T)]
        for m in range(T):  # P X's rows wait on the rows of X they copy (the same cells, in the same place)
            self.PX_map.body(m).move_to(self.X_map.body(perm[m])).set_opacity(1)
        flights = []
        for m in range(T):
            j = perm[m]
            flyer = self.PX_map.body(m)
            one = role(one_hot_frame(pm, m, j, HIGHLIGHT), "highlight")
            src = role(row_frame(self.X_map, j, HIGHLIGHT), "highlight")
            flights.append(Succession(
                AnimationGroup(Create(one), Create(src), run_time=0.3),
                flyer.animate(path_arc=-0.3).shift(homes[m] - flyer.get_center()),
                AnimationGroup(FadeOut(one), FadeOut(src), run_time=0.25),
            ))
        # a student's P X: the rows that are not X[π], outlined in red as they land
        self.bad_frames = VGroup(*[role(row_frame(self.PX_map, m, FAILED, buff=-0.03), "failed").shift(
            homes[m] - self.PX_map.body(m).get_center()) for m in d.bad_rows])  # where the rows land
        self.beat("product" if not d.bad_rows else "product_fail",
                  LaggedStart(*flights, lag_ratio=0.55), FadeIn(self.PX_name),
                  *([Succession(Wait(0.75 * T), Create(self.bad_frames))] if d.bad_rows else []),
                  run_time=0.75 * T + 0.6 + (0.6 if d.bad_rows else 0.0),
                  subject=VGroup(self.PX_map, self.X_map), why=self.strip_why)
        self.remove(self.PX_slots)

        self.beat_plays(fail_key("check_gather", bool(d.bad_rows)),
                        [[FadeOut(order)], [FadeIn(self.check_gather, shift=GAP.small * UP)]],
                        run_time=0.6, subject=VGroup(self.check_gather, self.X_map, self.PX_map), why=self.strip_why)

        # Pᵀ: P turns over its diagonal; P X takes X's place; its rows fly back, in X's order
        px_group = VGroup(self.PX_map, self.PX_name, self.bad_frames)  # a student's wrong rows stay outlined
        shift = self.X_map.heat.get_center() - self.PX_map.heat.get_center()
        back_homes = [self.back_map.body(j).get_center() for j in range(T)]
        for m in range(T):  # Pᵀ P X's row π(m) waits on P X's row m, where P X will stand
            self.back_map.body(perm[m]).move_to(self.PX_map.body(m).get_center() + shift)
        self.back_map.heat.set_opacity(0)
        self.back_map.names.set_opacity(0)
        self.add(self.back_map)
        # P's cells flip over its main diagonal (a half turn about it: cell (i, j) lands on (j, i)), its
        # digits out before and back after, so no digit is ever drawn mirrored
        self.PT_map.labels.set_opacity(0)
        diagonal = pm.cell(T - 1, T - 1).get_center() - pm.cell(0, 0).get_center()
        self.beat_plays("undo", [
            [AnimationGroup(FadeOut(pm.labels), swap(self.P_name, self.PT_name),
                            *([FadeOut(self.bad_P_frames)] if d.bad_P_rows else []))],
            [AnimationGroup(Rotate(pm.cells, angle=PI, axis=diagonal, about_point=pm.get_center()),
                            Handover(pm, self.PT_map))],
            [AnimationGroup(self.PT_map.labels.animate.set_opacity(1), FadeOut(VGroup(self.X_map, self.X_name)))],
            [px_group.animate.shift(shift)],
            [AnimationGroup(Create(self.back_slots), self.back_map.names.animate.set_opacity(1))],
        ], run_time=0.8, subject=VGroup(self.PT_map, self.PX_map), why=self.strip_why)
        for j in range(T):  # the rows to fly sit on P X's, the same cells in the same place
            self.back_map.body(j).set_opacity(1)
        flights = []
        for m in range(T):
            j = perm[m]
            flyer = self.back_map.body(j)
            one = role(one_hot_frame(self.PT_map, j, m, HIGHLIGHT), "highlight")
            src = role(row_frame(self.PX_map, m, HIGHLIGHT), "highlight")
            flights.append(Succession(
                AnimationGroup(Create(one), Create(src), run_time=0.3),
                flyer.animate(path_arc=0.3).shift(back_homes[j] - flyer.get_center()),
                AnimationGroup(FadeOut(one), FadeOut(src), run_time=0.25),
            ))
        undone = d.transpose_defect == 0.0
        self.beat(fail_key("undo_rows", not undone), LaggedStart(*flights, lag_ratio=0.55), FadeIn(self.back_name), run_time=0.75 * T + 0.6,
                  subject=VGroup(self.back_map, self.PX_map), why=self.strip_why)
        self.remove(self.back_slots)
        # Pᵀ P itself: P X and X leave, P comes in beside Pᵀ, and their product appears: I, a 1 on each diagonal cell
        o = self.ortho
        leaving = VGroup(px_group, self.back_map, self.back_name, self.eq, self.P_rows_idx, self.P_cols_idx)
        # Pᵀ moves as a stand-in (the same widget, copied in place): Pᵀ's grid keeps the place it had, for the
        # product's frames and the tests that read them
        pt, pt_name = self.PT_map.copy(), self.PT_name.copy()
        self.remove(self.PT_map, self.PT_name)
        self.add(pt, pt_name)
        o.I.cells.set_fill(opacity=0)  # the product fills row by row, in place
        o.I.labels.set_opacity(0)
        self.add(o.I)
        self.beat_plays(fail_key("check_orthogonal", not undone), [
            [FadeOut(leaving)],
            [AnimationGroup(ReplacementTransform(pt, o.PT), ReplacementTransform(pt_name, o.PT_name),
                            FadeIn(o.P), FadeIn(o.P_name), FadeIn(o.eq))],
            [AnimationGroup(LaggedStart(*[AnimationGroup(*[c.animate.set_fill(opacity=1) for c in o.I.cells[m]],
                                                         *[t.animate.set_opacity(1) for t in o.I.labels[m * T:(m + 1) * T]])
                                          for m in range(T)], lag_ratio=0.3), FadeIn(o.I_name))],
            [FadeIn(self.check_undo, shift=GAP.small * UP)],
        ], run_time=0.8, subject=VGroup(o, self.check_undo), why=self.ortho_why)

    # ------------------------------------------------------------------ the takeaway
    def takeaway(self) -> VGroup:
        return VGroup(self.check_gather, self.check_undo)

    def closing_key(self) -> str:
        d = self.data
        return fail_key("close", d.gather_defect != 0.0 or d.transpose_defect != 0.0)

    CLOSE_SQUEEZE = (1.0, 0.7, 0.5, 0.35, 0.25)  # the close's X and P X cells: width over height, widest that fits

    def close_panels(self) -> VGroup:
        """The close: X, an arrow P, and P X (its rows x_π(m)), beside Pᵀ P (the identity, moved from
        check_orthogonal); the grids level and as large as the content allows over the two verdicts (on one line
        when it holds them). X and P X by colour and row name alone; long rows take narrower cells."""
        d, o = self.data, self.ortho
        T = d.X.shape[0]
        region = self.layout.content
        g_t, u_t = self.check_gather.copy(), self.check_undo.copy()
        verdicts = row(g_t, u_t, gap="section")
        if verdicts.width > region.width:
            verdicts = column(g_t, u_t, gap="small", align=LEFT)
        grid_at, verdict_at = region.take_bottom(verdicts.height, gap=GAP.wide)[::-1]
        for squeeze in self.CLOSE_SQUEEZE:
            I_t = o.I.copy()
            h = self.row_h
            xs, px = (RowMap(v, rows, d.picture.inputs, h * squeeze, h, LABEL, self.NAME_SIZE, numbers=False)
                      for v, rows in ((d.X, range(T)), (d.PX, d.perm)))
            shows(px.heat, "PX")
            shows(xs.heat, "X")
            for m in (xs, px):  # as tall as P X stood in the product, Pᵀ P as tall (its numbers at their size)
                m.scale(self.PX_map.heat.height / m.heat.height)
            I_t.scale(px.heat.height / I_t.height)
            px_name = names(math(f"{N.permutation.math} {N.inputs.math}", size=HEADING), "PX").next_to(
                px.heat, UP, buff=GAP.small)
            x_name = names(math(N.inputs.math, size=HEADING), "X").next_to(xs.heat, UP, buff=GAP.small)
            arrow = Arrow(LEFT, RIGHT, buff=0, color=FG, stroke_width=5, max_tip_length_to_length_ratio=0.3)
            p_over = math(N.permutation.math, size=HEADING).next_to(arrow, UP, buff=GAP.tight)  # the map, not a grid
            moved = row(VGroup(xs, x_name), VGroup(arrow, p_over), VGroup(px, px_name), gap="normal")
            VGroup(arrow, p_over).shift((px.heat.get_y() - arrow.get_y()) * UP)
            VGroup(xs, x_name).shift((px.heat.get_y() - xs.heat.get_y()) * UP)
            x_name.align_to(px_name, DOWN)
            identity = d.transpose_defect == 0.0
            ptp_name = names(math(f"{N.permutation.math}^T {N.permutation.math}" + (" = I" if identity else ""),
                                  size=HEADING), "PTP").next_to(I_t, UP, buff=GAP.small)
            grids = row(moved, VGroup(I_t, ptp_name), gap="section")
            VGroup(I_t, ptp_name).shift((px.heat.get_y() - I_t.get_y()) * UP)  # the grids level
            ptp_name.shift((px_name.get_bottom()[1] - ptp_name.get_bottom()[1]) * UP)
            if grid_at.fits(grids):
                break
        panels = VGroup(grids, verdicts)
        verdict_at.place(verdicts)  # the verdicts at their own size, the grids as large as the rest allows
        grid_at.fit(grids, max_scale=3.0)
        grids.next_to(verdicts, UP, buff=GAP.wide)
        region.place(panels)  # the two centred in the content, one picture
        # what the close covers of the content (its parts' boxes), as the audit's emptiness measure sees it
        parts = (xs, px, I_t, x_name, px_name, ptp_name, arrow, p_over, g_t, u_t)
        share = sum(m.width * m.height for m in parts) / (region.width * region.height)
        self.close_why = ({"empty": f"{T} tokens make three short grids in one row; the frame's width bounds how "
                                    "large they grow, the two verdicts under them keep their own size"}
                          if share < 0.6 else None)
        panels.PX, panels.PX_name, panels.I, panels.I_name, panels.verdicts = px, px_name, I_t, ptp_name, (g_t, u_t)
        panels.X, panels.X_name, panels.arrow, panels.P_name = xs, x_name, arrow, p_over
        return panels

    def closing(self) -> None:
        """Everything leaves but Pᵀ P; P X comes back beside it, each grid over the verdict that measures it."""
        from scenes.kit.compose import others
        from scenes.kit.motion import swap as swap_

        o = self.ortho
        take = self.takeaway()
        self.final = f = self.close_panels()
        leaving = others(self, [take, o.I, o.I_name])
        self.beat_plays(self.closing_key(), [
            [FadeOut(leaving)],
            [AnimationGroup(Transform(o.I, f.I), swap_(o.I_name, f.I_name),
                            *[Transform(v, t) for v, t in zip(take, f.verdicts)], FadeIn(f.X), FadeIn(f.X_name))],
            [GrowArrow(f.arrow), FadeIn(f.P_name), FadeIn(f.PX), FadeIn(f.PX_name)],
        ], run_time=0.9, hold=self.CLOSING_HOLD,
            subject=VGroup(f.X, f.PX, f.I, *take), why=self.close_why)
