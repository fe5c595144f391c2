"""Clip 01's picture, described once for the clip and its still, and the still itself.

:func:`picture` is what clip 01 shows beside its arrays: the deck's colour scales (P's zeros and ones on
the ``"weights"`` scale, X and P X on the ``"inputs"`` scale, numbers printed on their cells), the
permutation written as lecture math (``π = (2, 0, 4, 1, 5, 3)``), and the two measured proofs with their
verdicts (the deck's one style: ✓ or ✗, then ``formula = figure``).  The clip typesets the proofs'
Typst with ``kit.proofs.verdict``; the still below prints the same proofs as mathtext and paints P, X and
P X with the same scales.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scenes.kit.notation import N
from scenes.kit.numbers import measure, scientific
from scenes.kit.scales import scale as deck_scale
from scenes.stills.spec import FigureStill, HeatmapPanel
from scenes.kit.theme import ColorScale

from . import still


@dataclass(frozen=True)
class Proof:
    """One measured proof: the formula in Typst (the clip: ``verdict(math, figure, passed)``) and in
    mathtext (the still), the measured figure, and whether the check passed."""

    math: str
    mathtext: str
    passed: bool
    figure: object  # numbers.Figure printed after the formula

    @property
    def mark(self) -> str:
        return "\u2713" if self.passed else "\u2717"

    @property
    def still_line(self) -> str:
        """The proof as the still prints it: the mark, then ``formula = figure`` (an exact zero marked)."""
        f = self.figure
        rel = f"{self.mathtext} {_mathtext(f)}" if f.approx else f"{self.mathtext} = {_mathtext(f)}"
        return f"{self.mark} ${rel}$" + ("  exact" if f.exact else "")


@dataclass(frozen=True)
class Picture:
    """What clip 01 and its still show besides the arrays themselves."""

    scale: ColorScale  # P's zeros and ones: the deck's "weights" scale
    inputs: ColorScale  # X, P X and Pᵀ P X: the deck's "inputs" scale
    order: tuple[int, ...]  # π: position m takes row π(m)
    gather: Proof  # max_m |(P X)_m − x_π(m)| = 0
    undo: Proof  # max |Pᵀ P − I| = 0: Pᵀ moves every row back

    @property
    def order_text(self) -> str:
        """``(2, 0, 4, 1, 5, 3)``: π as the captions and the still write it."""
        return "(" + ", ".join(str(k) for k in self.order) + ")"

    def order_math(self, groups: bool = False) -> str:
        """``π = (2, 0, …)`` in Typst; with ``groups`` every entry is a selectable group (``select(m)``)."""
        entries = ", ".join(f"{{{{{k}}}}}" if groups else str(k) for k in self.order)
        return f"{N.order.math} = ({entries})"


def picture(perm, gather_defect: float, transpose_defect: float, cfg) -> Picture:
    """The description of clip 01's picture from its measurements (``mathcore.check_permutation``)."""
    p, m = N.order.math, N.position.math
    gather = Proof(f"max_{m} abs((P X)_{m} - x_({p}({m})))", rf"\max_{m}\,|(P\,X)_{m} - x_{{\pi({m})}}|",
                   gather_defect == 0.0, measure(gather_defect))
    undo = Proof("max abs(P^T P - I)", r"\max\,|P^{\top} P - I|", transpose_defect == 0.0, measure(transpose_defect))
    return Picture(deck_scale("weights", cfg), deck_scale("inputs", cfg), tuple(int(k) for k in perm), gather, undo)


def _mathtext(f) -> str:
    """A measured figure (``numbers.Figure``) as mathtext: ``0``, ``0.83``, ``\\approx 2.2\\times 10^{-16}``."""
    if f.exact or not f.approx:
        return f.text.replace("exactly ", "").replace("\u2212", "-").replace("\u2009", r"\,")
    mant, exp = scientific(f.value)
    return rf"\approx {mant.replace(chr(0x2212), '-')}\times 10^{{{exp}}}"


# ====================================================================== the still
def _rows(values: np.ndarray, names, scale: ColorScale, title: str) -> HeatmapPanel:
    """X (or P X) as the clip draws it: value-coloured cells on the deck's inputs scale with their numbers,
    row ``m`` named ``x_k`` in token ``k``'s colour."""
    return HeatmapPanel(values, scale, title=title, annotate=True, decimals=1, colorbar=None, aspect="auto",
                        yticks=tuple(f"$x_{{{k}}}$" for k in names), ytick_colors=tuple(f"token:{k}" for k in names),
                        xticks=("",) * values.shape[1])


@still("PermutationMatrix")
def rows_move(data, cfg) -> FigureStill:
    """01 · P (one-hot rows built from π) times X is X with its rows moved: (P X)_m = x_π(m)."""
    T, d = data.X.shape
    pic = data.picture
    P = HeatmapPanel(data.P, pic.scale, title="$P$", annotate=True, decimals=0, colorbar=None, exact=True,
                     xticks=tuple(str(k) for k in range(T)), yticks=tuple(str(m) for m in range(T)),
                     ylabel="row $m$", xlabel="row of $X$ it picks")
    X = _rows(data.X, tuple(range(T)), pic.inputs, "$X$")
    PX = _rows(data.PX, pic.order, pic.inputs, r"$P\,X$")
    return FigureStill(
        "rows_move", "A permutation matrix only moves rows",
        {"P": P, "X": X, "Y": PX}, mosaic="PXY", size=(7.0, 3.7), width_ratios=(T, 1.5 * d + 0.6, 1.5 * d + 0.6),
        subtitle=(rf"$\pi = {pic.order_text}$: row $m$ of $P$ is one-hot at column $\pi(m)$, "
                  rf"so row $m$ of $P\,X$ is row $\pi(m)$ of $X$; $P^{{\top}}$ moves every row back"),
        proof=tuple(p.still_line for p in (pic.gather, pic.undo)),
        proof_color="good" if all(p.passed for p in (pic.gather, pic.undo)) else "bad",
    )
