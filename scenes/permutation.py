"""Permutation clips.

01 ``PermutationMatrix`` (§1): token rows of X; a list of indices builds P one one-hot
row at a time; P·X computed as rows of X flying to their new slots; the proof on
screen is ``P @ X == X[perm]`` and ``P Pᵀ = I``, both measured by mathcore.

Render directly with ``manim -ql scenes/permutation.py PermutationMatrix``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    MoveToTarget,
    Transform,
    Indicate,
    LaggedStart,
    SurroundingRectangle,
    Succession,
    VGroup,
    Write,
)

from mathcore import check_permutation, lecture_inputs
from mathcore.config import LectureConfig
from scenes.kit.stills import HeatmapStill
from scenes.kit import (
    ACCENT,
    BAD,
    DIM,
    FG,
    GOOD,
    LABEL,
    ClipScene,
    ColorScale,
    Heatmap,
    LabelledMatrix,
    fmt_measure,
    label,
    math,
    token_color,
)


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

    CELL = 0.5  # P's cell size while it is built, with its 0s and 1s
    SMALL_CELL = 0.28 # P's cell size beside the product, colours only
    COL = 1.05  # X's column pitch
    Y = -0.4  # the matrices' centre line

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> PermutationMatrixData:
        X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
        chk = check_permutation(X, cfg.perm)
        return PermutationMatrixData(
            X=X, perm=np.array(cfg.perm), P=chk.P, PX=chk.PX,
            gather_equal=chk.matmul_equals_gather, orthogonality_defect=chk.orthogonality_defect,
            cmap=cfg.cmap_weights,
        )

    @classmethod
    def stills(cls, data: PermutationMatrixData, cfg: LectureConfig) -> list:
        signed = ColorScale.symmetric(cfg.cmap_signed, np.concatenate([data.X.ravel(), data.PX.ravel()]))
        return [
            HeatmapStill("P", f"P from perm = {list(map(int, data.perm))}", data.P,
                         ColorScale(data.cmap, 0.0, 1.0), "column (row of X it picks)", "slot", True, 0),
            HeatmapStill("X", "X: one row per token", data.X, signed, "feature", "token", True, 1),
            HeatmapStill("PX", "P·X = X[perm]: the same rows, moved", data.PX, signed, "feature", "slot", True, 1),
        ]

    def caption_values(self) -> dict:
        d = self.data
        return {"T": d.X.shape[0], "d": d.X.shape[1]}

    # ------------------------------------------------------------------ layout
    def make_mobjects(self) -> None:
        """Build every widget; X and P start in the 'build' layout, P·X in its final place."""
        d = self.data
        T = d.X.shape[0]
        y = self.Y
        names = [f"x_{i}" for i in range(T)]
        self.X_mat = LabelledMatrix(d.X, row_labels=names, col_width=self.COL).place(2.3, y)
        self.PX_mat = LabelledMatrix(
            d.PX, row_labels=[names[k] for k in d.perm], row_colors=[token_color(int(k)) for k in d.perm],
            col_width=self.COL,
        ).place(4.45, y)
        self.P_map = Heatmap(d.P, ColorScale(d.cmap, 0.0, 1.0), cell_size=self.CELL, show_values=True, decimals=0)
        self.P_map.move_to([-4.2, y, 0])

        self.P_rows_idx = self.P_map.index_labels("rows", buff=0.14)
        self.P_cols_idx = self.P_map.index_labels("cols")
        self.name_y = self.P_cols_idx.get_top()[1] + 0.35
        self.P_name = math("P", size=LABEL + 4).move_to([self.P_map.get_center()[0], self.name_y, 0])
        self.X_name = math("X", size=LABEL + 4).move_to([self.X_mat.brackets.get_center()[0], self.name_y, 0])
        self.PX_name = math("P X", size=LABEL + 4).move_to([self.PX_mat.brackets.get_center()[0], self.name_y, 0])

        # the list of indices, one mobject per entry so each can light up
        items = [label(str(k), size=LABEL, color=FG) for k in d.perm]
        parts = [label("perm = [", size=LABEL, color=DIM)]
        for k, it in enumerate(items):
            parts.append(it)
            parts.append(label("," if k < len(items) - 1 else "]", size=LABEL, color=DIM))
        self.perm_row = VGroup(*parts).arrange(RIGHT, buff=0.1, aligned_edge=DOWN)
        self.perm_items = VGroup(*items)
        self.perm_row.move_to([0, self.content_top - 0.3, 0])

        ok = d.gather_equal
        self.gather_verdict = label("✓ exactly" if ok else "✗ differs", size=LABEL, color=GOOD if ok else BAD)
        self.check_gather = VGroup(math('P X = X["perm"]', size=LABEL), self.gather_verdict).arrange(RIGHT, buff=0.25)
        self.orth_value = label(fmt_measure(d.orthogonality_defect), size=LABEL,
                                color=GOOD if d.orthogonality_defect == 0 else BAD)
        self.check_orth = VGroup(math("max |P P^T - I| =", size=LABEL), self.orth_value).arrange(RIGHT, buff=0.2)
        checks = VGroup(self.check_gather, self.check_orth).arrange(RIGHT, buff=1.2)
        checks.move_to([0, -2.75, 0])

    def product_layout(self) -> list:
        """Animations from the 'build' layout to 'P · X = PX' across the frame."""
        y = self.Y
        k = self.SMALL_CELL / self.CELL
        p_target = self.P_map.copy()
        p_target.labels.set_opacity(0)
        p_target.scale(k).move_to([-5.95, y, 0])
        x_shift = np.array([-1.55, y, 0]) - self.X_mat.brackets.get_center()
        self.dot = math("dot", size=LABEL + 10).move_to([-4.78, y, 0])
        self.eq = math("=", size=LABEL + 4).move_to([0, y, 0])
        # place "=" midway between X's right bracket and P·X's labels, once X has moved
        x_right = self.X_mat.brackets.get_right()[0] + x_shift[0]
        self.eq.set_x((x_right + self.PX_mat.row_labels.get_left()[0]) / 2)
        self.P_name.generate_target().move_to([-5.95, self.name_y, 0])
        self.X_name.generate_target().shift(x_shift[0] * RIGHT)
        return [
            Transform(self.P_map, p_target),
            FadeOut(self.P_rows_idx), FadeOut(self.P_cols_idx),
            MoveToTarget(self.P_name), MoveToTarget(self.X_name),
            self.X_mat.animate.shift(x_shift),
        ]

    def body(self) -> None:
        self.make_mobjects()
        d = self.data
        T = d.X.shape[0]

        self.beat("rows", FadeIn(self.X_name), Create(self.X_mat.brackets),
                  LaggedStart(*[FadeIn(r, shift=0.15 * RIGHT) for r in self.X_mat.rows], lag_ratio=0.15),
                  run_time=1.6)
        self.beat("perm", Write(self.perm_row), run_time=1.2)

        # P, one one-hot row at a time
        grid_outline = VGroup(*[c.copy().set_fill(opacity=0).set_stroke(DIM, 1.5) for row in self.P_map.cells for c in row])
        self.play(FadeIn(self.P_name), FadeIn(self.P_rows_idx), FadeIn(self.P_cols_idx), Create(grid_outline), run_time=0.8)
        steps = []
        for i in range(T):
            steps.append(AnimationGroup(
                self.perm_items[i].animate.set_color(ACCENT),
                Indicate(self.P_cols_idx[int(d.perm[i])], color=ACCENT, scale_factor=1.3),
                FadeIn(VGroup(*self.P_map.cells[i])),
                FadeIn(VGroup(*self.P_map.labels[i * T:(i + 1) * T])),
            ))
        self.beat("build", Succession(*steps), run_time=0.55 * T, hold=0.4)
        self.remove(grid_outline)

        # P·X: row perm[i] of X flies into slot i
        self.play(*self.product_layout(), run_time=1.2)
        self.play(FadeIn(self.dot), FadeIn(self.eq), FadeIn(self.PX_name), Create(self.PX_mat.brackets), run_time=0.6)
        flights, flown = [], []
        for i in range(T):
            src = self.X_mat.rows[int(d.perm[i])].copy()
            dst = self.PX_mat.rows[i]
            one = SurroundingRectangle(self.P_map.cell(i, int(d.perm[i])), color=ACCENT, buff=0.02, stroke_width=3)
            picked = SurroundingRectangle(self.X_mat.rows[int(d.perm[i])], color=ACCENT, buff=0.06, stroke_width=2)
            flights.append(Succession(
                AnimationGroup(Create(one), Create(picked), run_time=0.3),
                src.animate(path_arc=-0.35).move_to(dst),
                AnimationGroup(FadeOut(one), FadeOut(picked), run_time=0.2),
            ))
            flown.append((src, dst))
        self.beat("product", LaggedStart(*flights, lag_ratio=0.5), run_time=0.55 * T + 0.8, hold=0.3)
        for src, dst in flown:  # hand the flown copies over to the real P·X rows (same place, same glyphs)
            self.remove(src)
            self.add(dst)

        self.beat("check_gather", FadeIn(self.check_gather, shift=0.2 * UP), run_time=0.8)
        self.beat("check_orthogonal", FadeIn(self.check_orth, shift=0.2 * UP), run_time=0.8)
