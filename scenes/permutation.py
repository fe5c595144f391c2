"""Permutation clips.

01 ``PermutationMatrix`` (§1): token rows of X; a list of indices builds P one one-hot
row at a time; P·X computed as rows of X flying to their new slots; the proof on
screen is ``P @ X == X[perm]`` and ``P Pᵀ = I``, both measured by mathcore.

Layout from regions: the list of indices on top, the checks at the bottom, and between them
each beat's subject as large as fits: X alone, then P (with its 0s and 1s and its indices)
while it is built beside a dimmed X, then ``P · X = PX`` across the frame, set at one scale
that fits every ``T`` and ``d`` the config allows.

Render directly with ``manim -ql scenes/permutation.py PermutationMatrix``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
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
from scenes.kit import (
    ACCENT,
    BAD,
    BG,
    DIM,
    FG,
    GOOD,
    LABEL,
    SMALL,
    ClipScene,
    ColorScale,
    Heatmap,
    LabelledMatrix,
    LayoutError,
    Region,
    fmt_measure,
    label,
    math,
    token_color,
)
from scenes.kit.layout import FIT_XHEIGHT_PX, min_xheight_px

DIMMED = 0.22  # opacity of what is not the subject (under the audit's 0.3: background)


@dataclass(frozen=True)
class PermutationMatrixData:
    """What clip 01 draws: ``X: (T, d)``, ``perm``, ``P = permutation_matrix(perm)``, ``P @ X``, the checks."""

    X: np.ndarray
    perm: np.ndarray
    P: np.ndarray
    PX: np.ndarray
    gather_equal: bool  # np.array_equal(P @ X, X[perm])
    orthogonality_defect: float  # max |P Pᵀ − I|
    cmap: str


class PermutationMatrix(ClipScene):
    """01 · Permutation matrices: P·X only moves rows."""

    COL = 0.98  # X's column pitch at scale 1 (a quarter unit between the widest numbers)
    ROW = 0.62  # X's row pitch at scale 1 (P's cells beside it are as tall, so P's rows line up with X's)
    MAX_SCALE = 1.6  # how far the product may grow when T and d are small
    MAX_CELL = 1.3  # P's largest cell while it is built

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PermutationMatrixData:
        X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
        chk = check_permutation(X, cfg.perm)
        return PermutationMatrixData(
            X=X, perm=np.array(cfg.perm), P=chk.P, PX=chk.PX,
            gather_equal=chk.matmul_equals_gather, orthogonality_defect=chk.orthogonality_defect,
            cmap=cfg.cmap_weights,
        )

    def caption_values(self) -> dict:
        d = self.data
        return {"T": d.X.shape[0], "d": d.X.shape[1]}

    # ------------------------------------------------------------------ layout
    def _product(self, s: float) -> VGroup:
        """``P · X = PX`` set at scale ``s``, centred at the origin; parts as attributes."""
        d = self.data
        T = d.X.shape[0]
        names = [f"x_{i}" for i in range(T)]
        kw = dict(col_width=self.COL * s, row_height=self.ROW * s, value_size=SMALL * s, label_size=(LABEL + 14) * s)
        X_mat = LabelledMatrix(d.X, row_labels=names, **kw)
        PX_mat = LabelledMatrix(d.PX, row_labels=[names[k] for k in d.perm],
                                row_colors=[token_color(int(k)) for k in d.perm], **kw)
        for mat in (X_mat, PX_mat):  # row labels just left of the bracket, whatever the scale
            for lab in mat.row_labels:
                lab.shift((mat.left_bracket.get_left()[0] - 0.14 * s - lab.get_right()[0]) * RIGHT)
        P_map = Heatmap(d.P, ColorScale(d.cmap, 0.0, 1.0), cell_size=self.ROW * s)
        P_rows = P_map.index_labels("rows", size=SMALL * s, buff=0.1 * s)
        P_cols = P_map.index_labels("cols", size=SMALL * s, buff=0.08 * s)
        P_full = VGroup(P_map, P_rows, P_cols)
        dot = math("dot", size=(LABEL + 12) * s)
        eq = math("=", size=(LABEL + 6) * s)
        gap = 0.22 * s
        X_mat.shift(-X_mat.brackets.get_center())  # every part centred on the brackets' line
        P_full.shift(X_mat.brackets.get_center() - P_map.get_center())
        dot.next_to(P_full, RIGHT, buff=gap).set_y(0)
        X_mat.shift((dot.get_right()[0] + gap - X_mat.get_left()[0]) * RIGHT)
        eq.next_to(X_mat, RIGHT, buff=gap + 0.05 * s).set_y(0)
        PX_mat.shift(X_mat.brackets.get_center() - PX_mat.brackets.get_center())
        PX_mat.shift((eq.get_right()[0] + gap + 0.05 * s - PX_mat.get_left()[0]) * RIGHT)
        name_size = LABEL + 6
        top = max(P_cols.get_top()[1], X_mat.get_top()[1]) + 0.2 * s
        P_name = math("P", size=name_size * s).next_to([P_map.get_x(), top, 0], UP, buff=0)
        X_name = math("X", size=name_size * s).next_to([X_mat.brackets.get_x(), top, 0], UP, buff=0)
        PX_name = math("P X", size=name_size * s).next_to([PX_mat.brackets.get_x(), top, 0], UP, buff=0)
        g = VGroup(P_full, dot, X_mat, eq, PX_mat, P_name, X_name, PX_name)
        g.shift(-g.get_center())
        g.X_mat, g.PX_mat, g.P_map, g.P_rows, g.P_cols, g.dot, g.eq = X_mat, PX_mat, P_map, P_rows, P_cols, dot, eq
        g.P_name, g.X_name, g.PX_name = P_name, X_name, PX_name
        return g

    def product_in(self, region: Region) -> VGroup:
        """The product as large as fits ``region`` (up to ``MAX_SCALE``), every text legible."""
        probe = self._product(1.0)
        s = min(region.fit_scale(probe, self.MAX_SCALE), self.MAX_SCALE)
        floor = FIT_XHEIGHT_PX / min_xheight_px(probe)
        if s < floor:
            raise LayoutError(f"P·X = PX needs {probe.width * floor:.2f} units at a legible size; "
                              f"the region is {region.width:.2f} wide")
        g = self._product(s)
        for _ in range(3):  # label offsets do not scale exactly: settle
            k = region.fit_scale(g, 1.0)
            if k >= 1.0 - 1e-9:
                break
            s *= k * 0.995
            g = self._product(s)
        if min_xheight_px(g) < FIT_XHEIGHT_PX - 0.2:
            raise LayoutError(f"P·X = PX does not fit region {region.name!r} legibly (scale {s:.2f})")
        region.place(g)
        g.scale_used = s
        return g

    def build_P(self, region: Region) -> VGroup:
        """P as large as fits ``region`` with its 0s and 1s, its indices and its name."""
        d = self.data
        T = d.P.shape[0]
        probe = label("0", size=LABEL)
        name_h = math("P", size=LABEL + 10).height + 0.25
        idx = probe.height + 0.15
        cell = min((region.height - name_h - idx) / T, (region.width - idx - probe.width) / T, self.MAX_CELL)
        hm = Heatmap(d.P, ColorScale(d.cmap, 0.0, 1.0), cell_size=cell, show_values=True, decimals=0,
                     value_size=LABEL)
        rows = hm.index_labels("rows", size=LABEL, buff=0.14)
        cols = hm.index_labels("cols", size=LABEL, buff=0.1)
        name = math("P", size=LABEL + 10).next_to(cols, UP, buff=0.2)
        g = VGroup(hm, rows, cols, name)
        region.place(g)
        g.map, g.rows, g.cols, g.name = hm, rows, cols, name
        return g

    def make_mobjects(self) -> None:
        """Build every widget: X, P·X and P in their final places; X's and P's earlier states."""
        d = self.data
        content = self.layout.content

        # the list of indices, one mobject per entry so each can light up
        items = [label(str(k), size=LABEL + 8, color=FG) for k in d.perm]
        parts = [label("perm = [", size=LABEL + 8, color=DIM)]
        for k, it in enumerate(items):
            parts.append(it)
            parts.append(label("," if k < len(items) - 1 else "]", size=LABEL + 8, color=DIM))
        self.perm_row = VGroup(*parts).arrange(RIGHT, buff=0.1, aligned_edge=DOWN)
        for k in range(2, len(parts) - 1, 2):  # commas hug the entry before them
            VGroup(*parts[k:]).shift(0.07 * LEFT)
            VGroup(*parts[k + 1:]).shift(0.12 * RIGHT)
        self.perm_items = VGroup(*items)
        strip, body = content.take_top(self.perm_row.height, gap=0.35)
        strip.place(self.perm_row)

        ok = d.gather_equal
        self.gather_verdict = label("✓ exactly" if ok else "✗ differs", size=LABEL, color=GOOD if ok else BAD)
        self.check_gather = VGroup(math('P X = X["perm"]', size=LABEL), self.gather_verdict).arrange(RIGHT, buff=0.25)
        self.orth_value = label(fmt_measure(d.orthogonality_defect), size=LABEL,
                                color=GOOD if d.orthogonality_defect == 0 else BAD)
        self.check_orth = VGroup(math("max |P P^T - I| =", size=LABEL), self.orth_value).arrange(RIGHT, buff=0.2)
        checks = VGroup(self.check_gather, self.check_orth).arrange(RIGHT, buff=1.2)
        bottom, above = body.take_bottom(checks.height, gap=0.35)
        bottom.fit(checks)

        # the final picture: P · X = PX
        prod = self.product_in(above)
        self.product = prod
        self.X_mat, self.PX_mat, self.P_map = prod.X_mat, prod.PX_mat, prod.P_map
        self.P_rows_idx, self.P_cols_idx = prod.P_rows, prod.P_cols
        self.dot, self.eq = prod.dot, prod.eq
        self.P_name, self.X_name, self.PX_name = prod.P_name, prod.X_name, prod.PX_name
        self.X_final = VGroup(self.X_mat, self.X_name).copy()

        # X alone, as large as fits (beat "rows")
        x_alone = VGroup(self.X_mat, self.X_name)
        body.fit(x_alone, max_scale=max(1.0, 1.8 / prod.scale_used))

        # P built large at the left, X dimmed at the right (beat "build")
        left, right = body.columns(1.0, 1.0, gap=0.6)
        self.P_build = self.build_P(left)
        x_dim = self.X_final.copy()  # at the product's own scale (or smaller): a dimmed reminder, not read
        right.place(x_dim.scale(min(1.0, right.fit_scale(x_dim))))
        self.X_dimmed = x_dim.set_opacity(DIMMED)

    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.X.shape[0]
        X_group = VGroup(self.X_mat, self.X_name)

        self.beat("rows", FadeIn(self.X_name), Create(self.X_mat.brackets),
                  LaggedStart(*[FadeIn(r, shift=0.15 * RIGHT) for r in self.X_mat.rows], lag_ratio=0.15),
                  run_time=1.6)
        self.beat("perm", Write(self.perm_row), X_group.animate.set_opacity(0.4), run_time=1.2)  # the list: the subject

        # P, one one-hot row at a time, large; X steps aside, dimmed
        pb = self.P_build
        grid = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(DIM, 1.5) for row in pb.map.cells for c in row])
        self.play(Transform(X_group, self.X_dimmed), run_time=0.8)
        self.play(FadeIn(pb.name), FadeIn(pb.rows), FadeIn(pb.cols), Create(grid), run_time=0.8)
        steps = []
        for i in range(T):
            j = int(d.perm[i])
            steps.append(AnimationGroup(
                self.perm_items[i].animate.set_color(ACCENT),
                Indicate(pb.cols[j], color=ACCENT, scale_factor=1.3),
                Indicate(pb.rows[i], color=ACCENT, scale_factor=1.3),
                FadeIn(VGroup(*pb.map.cells[i])),
                FadeIn(VGroup(*pb.map.labels[i * T:(i + 1) * T])),
            ))
        self.beat("build", Succession(*steps), run_time=0.6 * T, hold=0.4)
        self.remove(grid)

        # to the product: P shrinks into place (colours only), X comes back, "=" and P·X's
        # brackets wait dimmed so the rows can fly past them
        self.play(FadeOut(pb.map.labels), run_time=0.4)  # the 0s and 1s go first: P keeps its colours
        self.play(ReplacementTransform(pb.map.cells, self.P_map.cells),
                  ReplacementTransform(pb.rows, self.P_rows_idx), ReplacementTransform(pb.cols, self.P_cols_idx),
                  ReplacementTransform(pb.name, self.P_name), Transform(X_group, self.X_final), run_time=1.2)
        self.add(self.P_map)
        self.eq.set_opacity(DIMMED)
        self.PX_mat.brackets.set_stroke(opacity=DIMMED)
        self.play(FadeIn(self.dot), FadeIn(self.eq), FadeIn(self.PX_name), Create(self.PX_mat.brackets), run_time=0.6)

        # P·X: row perm[i] of X flies into slot i, on a backing of its own so nothing shows through
        flights, flown = [], []
        for i in range(T):
            j = int(d.perm[i])
            src = self.X_mat.rows[j].copy()
            dst = self.PX_mat.rows[i]
            backing = Rectangle(width=src.width + 0.12, height=self.X_mat.row_height * 0.96, stroke_width=0,
                                fill_color=BG, fill_opacity=0.92).move_to(src)
            flyer = VGroup(backing, src)
            one = SurroundingRectangle(self.P_map.cell(i, j), color=ACCENT, buff=0.02, stroke_width=3)
            picked = SurroundingRectangle(self.X_mat.rows[j], color=ACCENT, buff=0.05, stroke_width=2)
            flights.append(Succession(
                AnimationGroup(Create(one), Create(picked), run_time=0.3),
                flyer.animate(path_arc=-0.3).shift(dst.get_center() - src.get_center()),
                AnimationGroup(FadeOut(one), FadeOut(picked), FadeOut(backing), run_time=0.25),
            ))
            flown.append((src, dst))
        undim = AnimationGroup(self.eq.animate.set_opacity(1), self.PX_mat.brackets.animate.set_stroke(opacity=1),
                               run_time=0.4)
        self.beat("product", Succession(LaggedStart(*flights, lag_ratio=0.55), undim), run_time=0.75 * T + 1.0,
                  hold=0.3)
        for src, dst in flown:  # hand the flown copies over to the real P·X rows (same place, same glyphs)
            self.remove(src)
            self.add(dst)

        self.beat("check_gather", FadeIn(self.check_gather, shift=0.2 * UP), run_time=0.8)
        self.beat("check_orthogonal", FadeIn(self.check_orth, shift=0.2 * UP), run_time=0.8)
