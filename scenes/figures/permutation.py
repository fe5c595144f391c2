"""Clip 01's picture, described once for the clip and its still, and the still itself.

:func:`picture` is what clip 01 shows beside its arrays: the one colour scale (P's zeros and
ones), the permutation written as lecture math (``π = (2, 0, 4, 1, 5, 3)``), and the two proof
lines with their verdicts.  The clip (``scenes/permutation.py``) typesets the proofs' Typst and
draws P with ``scale``; the still below prints the same proofs as mathtext and paints P with
the same scale.  X and P X carry no colour scale in either: they are tables of numbers whose
row names wear the token colours.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scenes.kit.notation import N
from scenes.kit.numbers import measure, scientific
from scenes.stills.spec import PanelArrow, DrawnPanel, FigureStill, HeatmapPanel
from scenes.kit.theme import ColorScale, fmt_value

from . import still


@dataclass(frozen=True)
class Proof:
    """One measured proof line: the formula in Typst (the clip; a measured ``figure`` follows it
    on the same math line), the same line as mathtext (the still), the verdict set beside it,
    and whether the check passed."""

    math: str
    mathtext: str
    verdict: str
    passed: bool
    figure: object = None  # numbers.Figure typeset after ``math`` (``theme.figure``), or None

    @property
    def typst(self) -> str:
        """The whole line in Typst (formula and figure)."""
        return f"{self.math} {self.figure.math}" if self.figure is not None else self.math


@dataclass(frozen=True)
class Picture:
    """What clip 01 and its still show besides the arrays themselves."""

    scale: ColorScale  # P's zeros and ones (the only coloured quantity)
    order: tuple[int, ...]  # π: position m takes row π(m)
    gather: Proof  # (P X)_m = x_π(m), bit for bit
    orthogonal: Proof  # P Pᵀ = I: max |P Pᵀ − I|

    @property
    def order_text(self) -> str:
        """``(2, 0, 4, 1, 5, 3)``: π as the captions and the still write it."""
        return "(" + ", ".join(str(k) for k in self.order) + ")"

    def order_math(self, groups: bool = False) -> str:
        """``π = (2, 0, …)`` in Typst; with ``groups`` every entry is a selectable group (``select(m)``)."""
        entries = ", ".join(f"{{{{{k}}}}}" if groups else str(k) for k in self.order)
        return f"{N.order.math} = ({entries})"


def picture(perm, gather_equal: bool, orthogonality_defect: float, cmap: str) -> Picture:
    """The description of clip 01's picture from its measurements (``mathcore.check_permutation``)."""
    p, m = N.order.math, N.position.math
    defect = measure(orthogonality_defect)
    gather = Proof(f"(P X)_{m} = x_({p}({m}))", rf"$(P\,X)_{m} = x_{{\pi({m})}}$",
                   "✓ bit for bit" if gather_equal else "✗ differs", bool(gather_equal))
    orth = Proof("P P^T = I, quad max abs(P P^T - I) =",
                 rf"$P P^{{\top}} = I,\quad \max\,|P P^{{\top}} - I| = {_mathtext(defect)}$",
                 "exact" if defect.exact else "", orthogonality_defect == 0, defect)
    return Picture(ColorScale(cmap, 0.0, 1.0), tuple(int(k) for k in perm), gather, orth)


def _mathtext(f) -> str:
    """A measured figure (``numbers.Figure``) as mathtext: ``0``, ``0.83``, ``\\approx 2.2\\times 10^{-16}``."""
    if f.exact or not f.approx:
        return f.text.replace("exactly ", "").replace("\u2212", "-").replace("\u2009", r"\,")
    mant, exp = scientific(f.value)
    return rf"\approx {mant.replace(chr(0x2212), '-')}\times 10^{{{exp}}}"


# ====================================================================== the still
def _table(values: np.ndarray, names: tuple[int, ...]):
    """A matrix of numbers between brackets, row ``i`` named ``x_{names[i]}`` in its token's colour
    (the clip's ``LabelledMatrix``), drawn on a panel's axes."""

    def draw(ax, th):
        rows, cols = values.shape
        ax.set_xlim(-1.1, cols + 0.1)
        ax.set_ylim(rows + 0.1, -0.1)
        for i in range(rows):
            ax.text(-0.35, i + 0.5, f"$x_{{{names[i]}}}$", ha="right", va="center", fontsize=11,
                    color=th.color(f"token:{names[i]}"))
            for j in range(cols):
                ax.text(j + 0.92, i + 0.5, fmt_value(values[i, j], 1), ha="right", va="center", fontsize=9,
                        color=th.fg)
        for x, arm in ((-0.05, 0.12), (cols + 0.05, -0.12)):
            ax.plot([x + arm, x, x, x + arm], [0.02, 0.02, rows - 0.02, rows - 0.02], color=th.fg, linewidth=1.2,
                    solid_capstyle="butt")

    return draw


@still("PermutationMatrix")
def rows_move(data, cfg) -> FigureStill:
    """01 · P (one-hot rows built from π) times X is X with its rows moved: (P X)_m = x_π(m)."""
    T, d = data.X.shape
    pic = data.picture
    perm = pic.order
    P = HeatmapPanel(data.P, pic.scale, title="$P$", annotate=True, decimals=0, colorbar=None,
                xticks=tuple(str(k) for k in range(T)), yticks=tuple(str(m) for m in range(T)),
                ylabel="row $m$", xlabel="row of $X$ it picks")
    X = DrawnPanel(_table(data.X, tuple(range(T))), title="$X$", data={"values": data.X, "rows": tuple(range(T))})
    PX = DrawnPanel(_table(data.PX, perm), title=r"$P\,X$", data={"values": data.PX, "rows": perm})
    proofs = (pic.gather, pic.orthogonal)
    return FigureStill(
        "rows_move", "A permutation matrix only moves rows",
        {"P": P, "X": X, "Y": PX}, mosaic="PXY", size=(7.0, 3.7), width_ratios=(T, d + 1.2, d + 1.2),
        subtitle=(rf"$\pi = {pic.order_text}$: row $m$ of $P$ is one-hot at column $\pi(m)$, "
                  rf"so row $m$ of $P\,X$ is row $\pi(m)$ of $X$"),
        arrows=(PanelArrow(("X", (1.0, 1 - (perm[0] + 0.5) / T)), ("Y", (0.0, 1 - 0.5 / T)), color="accent", rad=-0.15),),
        proof=tuple(f"{p.mathtext}  {p.verdict}" for p in proofs),
        proof_color="good" if all(p.passed for p in proofs) else "bad",
    )
