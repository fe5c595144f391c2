"""What the audit records at the end of a beat (:class:`BeatRecord` and its items, claims and scales), the
problems it reports, and the measure of a frame's coverage: the records every check reads
(``scenes.audit.beats`` for the layout, ``scenes.audit.truth`` for the truth checks), kept below both so
neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scenes.kit.layout import PX_PER_UNIT, SAFE
from scenes.kit.theme import CONTENT_BOTTOM

DIMMED = 0.3  # opacity below which a thing is background for the overlap checks
INVISIBLE = 0.02
TOL = 1.2 / PX_PER_UNIT  # 1.2 px: boxes that merely touch do not overlap
SPARSE = 0.10  # a beat whose visible content covers less than this share of the content area is "nearly empty"


@dataclass
class Item:
    kind: str  # "text" or "graphic"
    name: str  # what it is, for messages
    box: tuple[float, float, float, float]  # left, bottom, right, top
    opacity: float
    units: frozenset = frozenset()
    header: bool = False
    xheight_px: float = np.inf
    filled: bool = False  # a graphic with visible fill (its box is its area)
    stroke: np.ndarray | None = None  # (n, 2) sample points of a visible stroke
    stroke_half: float = 0.0  # half the stroke width, units
    background: bool = False
    # for the contrast check (scenes.audit.contrast): colours as RGB in [0, 1], drawing order, weight
    rgb: tuple | None = None  # a text's fill colour
    fill_rgb: tuple | None = None  # a filled graphic's fill colour
    fill_opacity: float = 0.0
    z: int = 0
    bold: bool = False
    # for the lecture-language checks: a text's whole source and whether it is Typst math; a
    # stroke's colour (a beat's picture is compared by what, where and in which colour)
    text: str = ""
    is_math: bool = False
    stroke_rgb: tuple | None = None
    stroke_opacity: float = 0.0  # a visible stroke's opacity (a filled graphic's outline may be fainter than its fill)
    # for the claims, colour and staging checks: the mobject's id, the role an ancestor declared
    # (``binding.role``), whether it is part of a verdict (``proofs.verdict``) or of a widget coloured
    # by a data scale (a heatmap's cells, a colour bar's stripes)
    mid: int = 0
    role: str | None = None
    verdict: bool = False
    data: bool = False
    # a text that quotes what a student's code said (``kit.student.error_card``: its message, which names their
    # functions as they wrote them): the lecture-language check does not judge it
    quoted: bool = False


@dataclass
class BeatRecord:
    key: str
    time: float
    items: list[Item]
    header_bottom: float | None  # the header rule's y once the header is drawn
    start: frozenset | None = None  # the picture's signature when the beat began (see ``signature``)
    shown: list = field(default_factory=list)  # (quantity, values) of every visible bound widget
    named: list = field(default_factory=list)  # (quantity, text) of every visible label naming one
    subject: frozenset | None = None  # ids of the items of the beat's declared subject (None: none declared)
    why: dict = field(default_factory=dict)  # check kind -> the beat's reason to be excused from it
    claims: list = field(default_factory=list)  # ClaimRecord of every value the caption and description fill in
    scales: list = field(default_factory=list)  # ScaleRecord of every visible widget painted by a colour scale
    describe: str = ""  # the beat's audio description
    caption: str = ""  # the beat's caption, its {braces} filled in
    # boxes of the visible cells of a data widget painted in a colour near the background (a weight of 0 in
    # inferno, a zero of a permutation matrix): invisible to the overlap checks, yet content a viewer reads
    cells: list = field(default_factory=list)

    def texts(self) -> list[Item]:
        return [i for i in self.items if i.kind == "text"]


@dataclass
class ClaimRecord:
    """A value a beat's caption or description fills in: ``bound`` when the clip gave it with the element(s)
    showing it (``binding.claim``), and then whether they are all on screen at the end of the beat."""

    name: str
    where: str  # "caption" or "describe"
    text: str
    bound: bool
    visible: bool | None = None
    mids: frozenset = frozenset()  # ids of the mobjects (and their families) a bound claim names


@dataclass
class ScaleRecord:
    """A visible widget painted by a colour scale: the scale's quantity (None: not the deck's), its
    signature (``kit.scales.signature``) and the finite values the widget paints."""

    quantity: str | None
    signature: tuple
    lo: float
    hi: float
    what: str


@dataclass
class Problem:
    beat: str
    kind: str  # frame, header, band, overlap, small, sparse
    message: str

    def __str__(self) -> str:
        return f"[{self.beat}] {self.kind}: {self.message}"


@dataclass
class AuditResult:
    clip: str
    records: list[BeatRecord]
    problems: list[Problem] = field(default_factory=list)
    duration: float = 0.0


def lecturer_words(cfg) -> tuple[str, ...]:
    """The texts a clip draws as the lecturer wrote them (the lecture's title, the notebook's name,
    the words of the two sentences), longest first: the audit quotes them, it does not judge them."""
    words = {cfg.title, cfg.notebook, *cfg.sentence_a.split(), *cfg.sentence_b.split()}
    return tuple(sorted((w for w in words if w.strip()), key=lambda w: (-len(w), w)))


def _inside(point_xy: np.ndarray, box, grow: float) -> np.ndarray:
    l, b, r, t = box
    x, y = point_xy[:, 0], point_xy[:, 1]
    return (x > l + TOL - grow) & (x < r - TOL + grow) & (y > b + TOL - grow) & (y < t - TOL + grow)


def coverage(record: BeatRecord, content_top: float) -> float:
    """Share of the content area covered by the boxes of what is visible (a coarse raster)."""
    left, right, bottom, top = SAFE.left, SAFE.right, CONTENT_BOTTOM, content_top
    nx, ny = 142, 60
    grid = np.zeros((ny, nx), dtype=bool)
    boxes = [it.box for it in record.items if not (it.header or it.opacity < DIMMED or it.background)]
    for l, b, r, t in boxes + list(record.cells):
        i0 = int(np.clip((l - left) / (right - left) * nx, 0, nx))
        i1 = int(np.clip(np.ceil((r - left) / (right - left) * nx), 0, nx))
        j0 = int(np.clip((top - t) / (top - bottom) * ny, 0, ny))
        j1 = int(np.clip(np.ceil((top - b) / (top - bottom) * ny), 0, ny))
        grid[j0:j1, i0:i1] = True
    return float(grid.mean())
