"""Designed stills of the permutation clip (01)."""

from __future__ import annotations

import numpy as np

from scenes.kit.stills import Arrow, FigureStill, Heatmap, sci
from scenes.kit.theme import ColorScale

from . import still


def _names(idx) -> tuple[str, ...]:
    return tuple(f"$x_{{{int(k)}}}$" for k in idx)


@still("PermutationMatrix")
def rows_move(data, cfg) -> FigureStill:
    """01 · P (one-hot rows built from perm) times X is X with its rows moved: P·X = X[perm]."""
    T, d = data.X.shape
    perm = [int(k) for k in data.perm]
    onehot = ColorScale(data.cmap, 0.0, 1.0)  # the clip's scale for P
    signed = ColorScale.symmetric(cfg.cmap_signed, np.concatenate([data.X.ravel(), data.PX.ravel()]))
    toks = tuple(f"token:{k}" for k in range(T))
    P = Heatmap(data.P, onehot, title="$P$", annotate=True, decimals=0, colorbar=None,
                xticks=tuple(str(k) for k in range(T)), yticks=tuple(f"slot {i}" for i in range(T)),
                xlabel="column = row of $X$ it picks")
    X = Heatmap(data.X, signed, title="$X$", annotate=True, decimals=1, colorbar=None,
                yticks=_names(range(T)), ytick_colors=toks, xticks=tuple(str(j) for j in range(d)),
                xlabel="feature")
    PX = Heatmap(data.PX, signed, title=r"$P\,X = X[\mathrm{perm}]$", annotate=True, decimals=1, colorbar="value",
                 yticks=_names(perm), ytick_colors=tuple(f"token:{k}" for k in perm),
                 xticks=tuple(str(j) for j in range(d)), xlabel="feature")
    gather = "bit for bit" if data.gather_equal else "NOT equal"
    return FigureStill(
        "rows_move", "A permutation matrix only moves rows",
        {"P": P, "X": X, "Y": PX}, mosaic="PXY", size=(7.0, 3.7), width_ratios=(T, d + 0.6, d + 1.4),
        subtitle=f"perm = {perm}: row $i$ of $P$ is one-hot at column perm[$i$], so slot $i$ of $P\\,X$ holds row perm[$i$] of $X$",
        arrows=(Arrow(("X", (1.0, 1 - (perm[0] + 0.5) / T)), ("Y", (-0.28, 1 - 0.5 / T)), color="accent", rad=-0.15),),
        proof=(f"$P\\,X = X[\\mathrm{{perm}}]$: {gather}",
               f"$\\mathrm{{max}}\\,|P P^{{\\top}} - I|$ = {sci(data.orthogonality_defect)}: $P^{{\\top}}$ moves every row back"),
        proof_color="good" if data.gather_equal and data.orthogonality_defect == 0 else "bad",
    )
