"""Stills' specs: a designed figure (:class:`FigureStill`) is plain frozen dataclasses over the same
arrays and the same ``ColorScale`` objects the clip draws with, so a still and a clip agree colour for
colour and a test can read what a still shows without drawing it.  The panel kinds are named as panels
(``HeatmapPanel``, ``PlotPanel``, ``TextPanel`` …), never as the clips' Manim widgets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scenes.stills.text import MINUS
from scenes.kit.theme import (
    ColorScale,
)


@dataclass(frozen=True)
class CellBox:
    """An outline around cells ``rows[0]..rows[1]`` × ``cols[0]..cols[1]`` (inclusive) of a heatmap."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    color: str = "accent"
    label: str = ""  # written just outside the box, on the right
    width: float = 2.2


@dataclass(frozen=True)
class HeatmapPanel:
    """``values`` painted by ``scale`` (its colormap and ``Normalize``); non-finite cells are masked."""

    values: np.ndarray
    scale: ColorScale
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    xticks: tuple[str, ...] | None = None  # one label per column (mathtext allowed); None: indices
    yticks: tuple[str, ...] | None = None
    xtick_colors: tuple[str, ...] | None = None  # colour roles per column label
    ytick_colors: tuple[str, ...] | None = None
    tick_step: int = 1  # label every n-th row/column (large T)
    annotate: bool = False  # print each value in its cell (T <= 6 only)
    decimals: int = 2
    masked_text: str = MINUS + "\u221e"
    colorbar: str | None = ""  # the colour bar's label; None: no colour bar
    cbar_ticks: tuple[float, ...] | None = None
    cbar_ticklabels: tuple[str, ...] | None = None  # mathtext allowed (angles: 0, π, 2π)
    boxes: tuple[CellBox, ...] = ()
    grid: bool = True  # thin paper-coloured lines between cells
    aspect: str = "equal"
    title_color: str = "fg"
    exact: bool = False  # exact 0.0 and 1.0 print as "0" and "1" (a masked weight vs one that rounds to 0.00)
    note: str = ""  # a line under the panel (a measured figure), in ``note_color``
    note_color: str = "dim"


@dataclass(frozen=True)
class Series:
    """One curve, staircase, set of dots or bars of a :class:`PlotPanel`."""

    y: np.ndarray
    x: np.ndarray | None = None  # default 0..n-1
    label: str = ""
    color: str = ""  # "" = the next colour of the cycle
    kind: str = "line"  # line | step | dots | bars
    width: float = 1.8  # line width, dot size or bar width
    style: str = "-"
    alpha: float = 1.0
    marker: str = "o"  # dots: a matplotlib marker ("D" diamond, …)
    hollow: bool = False  # dots: outlined, not filled (exact zeros on a log axis)


@dataclass(frozen=True)
class Rule:
    """A reference line at ``value`` (horizontal in ``PlotPanel.hlines``, vertical in ``vlines``)."""

    value: float
    label: str = ""
    color: str = "bad"
    style: str = "--"
    label_at: str = "right"  # hlines: the label's end of the line, "right" or "left"


@dataclass(frozen=True)
class Span:
    """A shaded band from ``lo`` to ``hi`` along x, labelled at its top."""

    lo: float
    hi: float
    label: str = ""
    color: str = "bad"
    alpha: float = 0.10
    label_y: float | None = None  # the label's height in axes fraction, centred there; None: at the top


@dataclass(frozen=True)
class Note:
    """TextPanel at ``xytext`` (offset points from ``xy``, data coordinates), with an arrow when asked."""

    text: str
    xy: tuple[float, float]
    xytext: tuple[float, float] = (10, 10)
    color: str = "fg"
    arrow: bool = True
    size: float = 9.5
    ha: str = "left"


@dataclass(frozen=True)
class PlotPanel:
    series: tuple[Series, ...]
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    x_log: bool = False
    y_log: bool = False
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None
    xticks: tuple[float, ...] | None = None
    xticklabels: tuple[str, ...] | None = None
    yticks: tuple[float, ...] | None = None
    yticklabels: tuple[str, ...] | None = None
    hlines: tuple[Rule, ...] = ()
    vlines: tuple[Rule, ...] = ()
    spans: tuple[Span, ...] = ()
    notes: tuple[Note, ...] = ()
    legend: str = "best"  # a matplotlib legend location, or "" for none
    grid: bool = True
    x_labels: bool = True  # False: no x tick labels (a lane sharing the x axis of the panel below)
    box: tuple[str, ...] = ()  # lines of text in a corner of the axes (``box_loc``): readouts
    box_loc: str = "lower right"
    box_color: str = "fg"


@dataclass(frozen=True)
class BarGroup:
    label: str
    values: np.ndarray  # one per category
    color: str = ""
    zero_marks: bool = True  # on a log axis, mark exact zeros (a hollow diamond on the floor)
    value_labels: bool = False  # print each value (fmt_measure) above its bar


@dataclass(frozen=True)
class BarsPanel:
    """Grouped bars: one group per :class:`BarGroup`, one slot per category."""

    categories: tuple[str, ...]
    groups: tuple[BarGroup, ...]
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    y_log: bool = False
    ylim: tuple[float, float] | None = None
    hlines: tuple[Rule, ...] = ()
    category_colors: tuple[str, ...] | None = None
    legend: str = "best"
    notes: tuple[Note, ...] = ()
    spans: tuple[Span, ...] = ()  # shaded bands over categories (x = category index)


@dataclass(frozen=True)
class TextLine:
    """One paragraph of a :class:`TextPanel`: wrapped to the panel; ``$...$`` is mathtext.

    ``chips``: clip numbers drawn as tags in their family's colour before the text."""

    text: str
    size: float = 11.0
    color: str = "fg"
    weight: str = "normal"
    chips: tuple[int, ...] = ()
    chips_after: bool = False  # the chips follow the text (``clips 04 05``) instead of leading it
    space_before: float = 0.0  # points of extra space above
    align: str = "left"  # left | center
    mono: bool = False  # code, in the shipped DejaVu Sans Mono


@dataclass(frozen=True)
class TextPanel:
    """Lines of text fitted to the panel (shrunk together if they do not fit); with ``frame`` a
    card: a rounded outline in that colour over a faint wash of it; with ``picture`` a drawing
    (``picture(ax, theme, color)`` on the unit square) in the card's left ``picture_width``."""

    lines: tuple[TextLine, ...]
    frame: str | None = None
    picture: Callable | None = None
    picture_width: float = 0.26  # share of the card's width (``picture_at="left"``) or height ("bottom")
    picture_at: str = "left"  # left | bottom
    valign: str = "top"  # top | center


@dataclass(frozen=True)
class DrawnPanel:
    """``draw(ax, theme)`` draws on the panel's axes (schematics; data-free pictures)."""

    draw: Callable
    title: str = ""
    data: object = None  # what the drawing shows, for tests to read


Panel = HeatmapPanel | PlotPanel | BarsPanel | TextPanel | DrawnPanel


@dataclass(frozen=True)
class PanelArrow:
    """An arrow from a point of one panel to a point of another (each in its data coordinates,
    or axes fraction with ``"axes"``), labelled at its middle."""

    src: tuple[str, tuple[float, float]]
    dst: tuple[str, tuple[float, float]]
    text: str = ""
    color: str = "dim"
    coords: str = "axes fraction"  # "data" or "axes fraction" for both ends
    rad: float = 0.0


@dataclass(frozen=True)
class FigureStill:
    """A designed figure: ``title`` and ``subtitle`` on top, ``panels`` laid out by ``mosaic``
    (rows separated by ``;``, one letter per panel key; ``.`` is empty), ``arrows`` between them,
    and ``proof``, the clip's measured figures, printed at the foot in ``proof_color``."""

    name: str
    title: str
    panels: dict[str, Panel]
    mosaic: str = "A"
    size: tuple[float, float] = (7.0, 4.2)  # inches: drawn 1:1 on the handout's page
    width_ratios: tuple[float, ...] | None = None
    height_ratios: tuple[float, ...] | None = None
    subtitle: str = ""
    proof: tuple[str, ...] = ()
    proof_color: str = "good"
    arrows: tuple[PanelArrow, ...] = ()
    wspace: float = 0.06
    hspace: float = 0.06

    def __post_init__(self):
        keys = set(self.mosaic.replace(";", "").replace(".", ""))
        if keys != set(self.panels):
            raise ValueError(f"still {self.name!r}: mosaic {self.mosaic!r} names {sorted(keys)}, "
                             f"panels are {sorted(self.panels)}")
        if isinstance(self.proof, str):
            object.__setattr__(self, "proof", (self.proof,) if self.proof else ())

    def texts(self) -> list[str]:
        """Every string the still prints (for glyph and wording checks)."""
        out = [self.title, self.subtitle, *self.proof, *(a.text for a in self.arrows)]
        for p in self.panels.values():
            if isinstance(p, HeatmapPanel):
                out += [p.title, p.xlabel, p.ylabel, p.colorbar or "", *(p.xticks or ()), *(p.yticks or ()),
                        *(p.cbar_ticklabels or ()), *(b.label for b in p.boxes), p.note]
            elif isinstance(p, PlotPanel):
                out += [p.title, p.xlabel, p.ylabel, *(s.label for s in p.series), *(p.xticklabels or ()), *p.box,
                        *(p.yticklabels or ()), *(r.label for r in (*p.hlines, *p.vlines)), *(s.label for s in p.spans),
                        *(n.text for n in p.notes)]
            elif isinstance(p, BarsPanel):
                out += [p.title, p.xlabel, p.ylabel, *p.categories, *(g.label for g in p.groups),
                        *(r.label for r in p.hlines), *(n.text for n in p.notes), *(s.label for s in p.spans)]
            elif isinstance(p, TextPanel):
                out += [ln.text for ln in p.lines]
            elif isinstance(p, DrawnPanel):
                out.append(p.title)
        return [s for s in out if s]

