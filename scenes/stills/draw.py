"""Drawing the stills: designed matplotlib figures of a clip's data, for slides (dark) and print (light).

A still is a *spec* (``scenes.stills.spec``): plain frozen dataclasses over the same arrays and the same ``ColorScale``
objects the clip draws with, so a still and a clip agree colour for colour and a test can read
what a still shows without drawing it.  :class:`FigureStill` is a designed figure: a title, a
subtitle, panels laid out by a mosaic (``"AB;CC"``), arrows between panels, and the clip's
measured proof printed at the foot.  Its panels:

* :class:`HeatmapPanel`: values coloured by a ``ColorScale`` (non-finite = masked cells), with a colour
  bar, tick labels, numbers in the cells (small matrices) and outlined cells, rows or columns;
* :class:`PlotPanel`: lines, steps, dots or bars over x (log axes allowed), reference lines, shaded
  spans, annotations;
* :class:`BarsPanel`: grouped bars over named categories (log axis with exact zeros marked);
* :class:`TextPanel`: lines of prose and formulas (``$...$`` is matplotlib mathtext), wrapped and fitted
  to the panel; with ``frame`` a card in a family colour, with ``picture`` a drawing beside it;
* :class:`DrawnPanel`: a function drawing on the panel's axes (schematic pictures).

Colours in specs are *roles* (``"fg"``, ``"dim"``, ``"accent"``, ``"good"``, ``"bad"``,
``"blue"``, ``"purple"``, ``"token:3"``, ``"family:2"``, ``"clip:7"``) or ``"#RRGGBB"``; a
:class:`Theme` resolves them, so one spec draws on dark slides and on white paper.  Value colours
never depend on the theme: they come from the spec's ``ColorScale``.  Math is typeset by mathtext
(``$P A P^\\top$``), never by a glyph the font lacks (:func:`missing_glyphs`).

This module never imports Manim's rendering; it only turns specs into figures: the figure and its files
here, the themes in ``themes``, each kind of panel in ``panels``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from scenes.stills.spec import (
    BarsPanel,
    DrawnPanel,
    FigureStill,
    HeatmapPanel,
    PlotPanel,
    TextPanel,
)
from scenes.stills.text import _register_fonts, wrap

from .panels import _draw_arrow, _draw_bars, _draw_heatmap, _draw_plot, _draw_text, _inches, _prepare_text
# the themes are named here too (what the handout and the tests import)
from .themes import (DARK, DIVERGING, EDGE_PT, LIGHT, PROOF_PT, STYLE, STYLE_LIGHT, SUBTITLE_PT,  # noqa: F401
                     THEMES, Theme, theme)


# ====================================================================== drawing
def figure(still: FigureStill, theme_name: str | Theme = "dark"):
    """A matplotlib ``Figure`` of ``still`` in a theme (object-oriented API; no pyplot state)."""
    import matplotlib as mpl
    from matplotlib.figure import Figure

    th = theme(theme_name)
    fs = still
    _register_fonts()
    with mpl.rc_context(fname=str(th.style)):
        fig = Figure(figsize=fs.size, layout="constrained")
        fig.get_layout_engine().set(w_pad=0.06, h_pad=0.06, wspace=0.02, hspace=0.02)
        draw(fs, fig, th)
    return fig


def draw(still: FigureStill, fig, theme_name: str | Theme = "dark") -> dict:
    """Draw ``still`` into ``fig`` (a ``Figure`` or ``SubFigure`` with constrained layout);
    return the panels' axes by key.  Call inside the theme's rc context."""
    from matplotlib.transforms import offset_copy

    th = theme(theme_name)
    fs = still
    fig.set_facecolor(th.bg)
    W, H = fs.size if fig.get_figure(root=True) is fig else _inches(fig)
    sub_lines = wrap(fs.subtitle, W * 72 - 2 * EDGE_PT, SUBTITLE_PT) if fs.subtitle else []
    head_in = (0.3 if fs.title else 0.0) + 0.055 + SUBTITLE_PT * 1.45 / 72 * len(sub_lines)
    proof_lines = [ln for p in fs.proof for ln in wrap(p, W * 72 - 2 * EDGE_PT, PROOF_PT, "bold")]
    foot_in = 0.08 + PROOF_PT * 1.6 / 72 * len(proof_lines) if proof_lines else 0.0
    ratios = [r for r in (head_in, H - head_in - foot_in, foot_in) if r > 0]
    subs = list(np.atleast_1d(fig.subfigures(len(ratios), 1, height_ratios=ratios, hspace=0.0)))
    for s in subs:
        s.set_facecolor(th.bg)
    head = subs.pop(0) if head_in else None
    body = subs.pop(0)
    foot = subs.pop(0) if foot_in else None
    root = fig.get_figure(root=True)
    if head is not None:
        at = offset_copy(head.transSubfigure, fig=root, x=EDGE_PT, y=-EDGE_PT / 2, units="points")
        if fs.title:
            head.text(0.0, 1.0, fs.title, ha="left", va="top", fontsize=13.5, weight="bold", color=th.fg, transform=at)
        for k, line in enumerate(reversed(sub_lines)):  # bottom-up, wrapped to the figure's width
            head.text(0.0, 0.0, line, ha="left", va="bottom", fontsize=SUBTITLE_PT, color=th.dim,
                      transform=offset_copy(head.transSubfigure, fig=root, x=EDGE_PT, y=2 + SUBTITLE_PT * 1.45 * k,
                                            units="points"))
    mosaic = [list(row) for row in fs.mosaic.split(";")]
    axes = body.subplot_mosaic(mosaic, empty_sentinel=".", width_ratios=fs.width_ratios,
                               height_ratios=fs.height_ratios,
                               gridspec_kw={"wspace": fs.wspace, "hspace": fs.hspace})
    for key, panel in fs.panels.items():
        ax = axes[key]
        ax.set_facecolor(th.bg)
        if isinstance(panel, HeatmapPanel):
            _draw_heatmap(panel, ax, body, th)
        elif isinstance(panel, PlotPanel):
            _draw_plot(panel, ax, th)
        elif isinstance(panel, BarsPanel):
            _draw_bars(panel, ax, th)
        elif isinstance(panel, TextPanel):
            _prepare_text(ax)
        elif isinstance(panel, DrawnPanel):
            ax.set_axis_off()
            panel.draw(ax, th)
            if panel.title:
                ax.set_title(panel.title, loc="left")
        else:
            raise TypeError(f"still {fs.name!r}: panel {key!r} is not a panel: {panel!r}")
    if foot is not None:
        at = offset_copy(foot.transSubfigure, fig=root, x=EDGE_PT, units="points")
        for k, p in enumerate(proof_lines):  # the measured figures, wrapped to the figure's width
            foot.text(0.0, 1.0 - k / len(proof_lines), p, ha="left", va="top", fontsize=PROOF_PT, weight="bold",
                      color=th.color(fs.proof_color), transform=at)
    # text panels and arrows need the final axes positions: settle the layout first
    text_panels = {k: p for k, p in fs.panels.items() if isinstance(p, TextPanel)}
    if text_panels or fs.arrows:
        root.draw_without_rendering()
        for k, p in text_panels.items():
            _draw_text(p, axes[k], th)
        for a in fs.arrows:
            _draw_arrow(a, axes, body, th)
    return axes




# ====================================================================== files
def save(still: FigureStill, stem: Path, theme_name: str | Theme = "dark") -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` for ``still`` in a theme, each atomically; return the paths."""
    import matplotlib as mpl

    th = theme(theme_name)
    paths = []
    fig = figure(still, th)
    with mpl.rc_context(fname=str(th.style)):
        for ext in ("png", "svg"):
            dst = stem.with_name(f"{stem.name}.{ext}")
            tmp = dst.with_name(dst.name + ".partial")
            meta = {"Date": None} if ext == "svg" else {"Software": None}
            fig.savefig(tmp, format=ext, metadata=meta, facecolor=th.bg)
            os.replace(tmp, dst)
            paths.append(dst)
    return paths
