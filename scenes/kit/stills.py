"""Stills: matplotlib figures of a clip's key data, for slides and handouts.

A clip describes its stills as specs over the same arrays and the same ``ColorScale``
objects it draws with, so a still and a clip agree colour for colour.  ``ClipScene.stills``
gives a default made from the clip's data; a clip overrides it to choose its key figures.
This module never imports Manim's rendering; it only turns specs into figures.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .theme import FAINT, ColorScale, fmt_value

STYLE = Path(__file__).with_name("clips.mplstyle")


@dataclass(frozen=True)
class HeatmapStill:
    """``values`` drawn with ``scale.cmap`` and ``scale.norm``; non-finite cells (masked) in FAINT."""

    name: str
    title: str
    values: np.ndarray
    scale: ColorScale
    xlabel: str = ""
    ylabel: str = ""
    annotate: bool = False  # print each value (small matrices only)
    decimals: int = 2


@dataclass(frozen=True)
class CurveStill:
    """Curves ``(label, y)`` over ``x``; optional log axes and reference lines ``(y, label)``."""

    name: str
    title: str
    x: np.ndarray
    curves: tuple[tuple[str, np.ndarray], ...]
    x_log: bool = False
    y_log: bool = False
    xlabel: str = ""
    ylabel: str = ""
    hlines: tuple[tuple[float, str], ...] = field(default_factory=tuple)
    vlines: tuple[tuple[float, str], ...] = field(default_factory=tuple)
    bars: bool = False  # draw a single curve as bars


Still = HeatmapStill | CurveStill


def default_stills(data, cfg) -> list[Still]:
    """Stills made from every array in a clip's data: 2-D arrays as heatmaps, 1-D as bars.

    Values in [0, 1] use the weights colormap, angles (a field named ``*angle*``) the
    cyclic one over [0, 2π), anything else the diverging one centred on 0.
    """
    out: list[Still] = []
    if not dataclasses.is_dataclass(data):
        return out
    for f in dataclasses.fields(data):
        v = getattr(data, f.name)
        if not isinstance(v, np.ndarray) or v.dtype.kind not in "fiub" or v.size < 2:
            continue
        a = v.astype(float)
        finite = a[np.isfinite(a)]
        if finite.size == 0:
            continue
        if a.ndim == 2:
            if "angle" in f.name:
                scale = ColorScale(cfg.cmap_angles, 0.0, 2 * np.pi)
                a = np.mod(a, 2 * np.pi)
            elif finite.min() >= 0 and finite.max() <= 1:
                scale = ColorScale(cfg.cmap_weights, 0.0, 1.0)
            else:
                scale = ColorScale.symmetric(cfg.cmap_signed, finite)
            out.append(HeatmapStill(f.name, f.name, a, scale, annotate=max(a.shape) <= 8))
        elif a.ndim == 1:
            out.append(CurveStill(f.name, f.name, np.arange(a.size), ((f.name, a),), bars=a.size <= 32))
    return out


def _register_fonts() -> None:
    from matplotlib import font_manager

    from .theme import FONTS_DIR

    known = {f.fname for f in font_manager.fontManager.ttflist}
    for f in sorted(FONTS_DIR.glob("*.[ot]tf")):
        if str(f) not in known:
            font_manager.fontManager.addfont(str(f))


def save(still: Still, stem: Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` for ``still``, each atomically; return the paths."""
    import os

    import matplotlib as mpl

    _register_fonts()
    paths = []
    with mpl.rc_context(fname=str(STYLE)):
        fig = figure(still)
        for ext in ("png", "svg"):
            dst = stem.with_name(f"{stem.name}.{ext}")
            tmp = dst.with_name(dst.name + ".partial")
            meta = {"Date": None} if ext == "svg" else {"Software": None}
            fig.savefig(tmp, format=ext, metadata=meta)
            os.replace(tmp, dst)
            paths.append(dst)
    return paths


def figure(still: Still):
    """A matplotlib ``Figure`` for ``still`` (uses the object-oriented API; no pyplot state)."""
    import matplotlib as mpl
    from matplotlib.figure import Figure

    with mpl.rc_context(fname=str(STYLE)):
        if isinstance(still, HeatmapStill):
            rows, cols = still.values.shape
            fig = Figure(figsize=(min(1.2 + 0.5 * cols, 9), min(1.0 + 0.5 * rows, 8)))
            ax = fig.add_subplot()
            cmap = still.scale.cmap.with_extremes(bad=FAINT.to_hex())
            masked = np.ma.masked_invalid(still.values)
            im = ax.imshow(masked, cmap=cmap, norm=still.scale.norm, interpolation="nearest")
            fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
            if still.annotate:
                for (i, j), v in np.ndenumerate(still.values):
                    txt = fmt_value(v, still.decimals) if np.isfinite(v) else "−∞"
                    col = still.scale.text_color(v).to_hex() if np.isfinite(v) else "#E8E6E3"
                    ax.text(j, i, txt, ha="center", va="center", color=col, fontsize=8)
            ax.set_xticks(range(cols))
            ax.set_yticks(range(rows))
        else:
            fig = Figure(figsize=(7, 3.6))
            ax = fig.add_subplot()
            for lab, y in still.curves:
                if still.bars:
                    ax.bar(still.x, y, label=lab)
                else:
                    ax.plot(still.x, y, label=lab, linewidth=1.4)
            for y, lab in still.hlines:
                ax.axhline(y, linestyle="--", linewidth=1, color="#F25F5C", label=lab)
            for x, lab in still.vlines:
                ax.axvline(x, linestyle=":", linewidth=1.2, color="#F2C14E")
                ax.annotate(lab, (x, 1), xycoords=("data", "axes fraction"), xytext=(3, -12),
                            textcoords="offset points", color="#F2C14E", fontsize=9)
            if still.x_log:
                ax.set_xscale("log")
            if still.y_log:
                ax.set_yscale("log")
            if len(still.curves) > 1 or still.hlines:
                ax.legend()
        ax.set_title(still.title)
        ax.set_xlabel(still.xlabel)
        ax.set_ylabel(still.ylabel)
    return fig
