"""Every sentence true and shown, every frame one subject: the audit's checks of what a beat *claims* against
what it *shows*, beat by beat (``BeatRecord``, recorded by ``beats.snapshot``):

* ``claim``: every value the beat's caption or description fills in (``{braces}``) is on screen: a value
  the clip gave with the element that shows it (``binding.claim``) when that element is visible at the end
  of the beat, a plain value when its figure is in a visible text; a description names at least one
  element by its binding (a blind student must not be told of things that are not there);
* ``subject``, ``empty``, ``dashboard``: the beat names its subject (``ClipScene.beat(subject=...)``), which
  is on screen at full strength and the largest group there; the content area is at most half empty;
  the things at full strength form at most three groups.  A beat may be excused from one of these by
  its reason (``beat(why={"dashboard": "..."})``): the reason is what a reviewer reads instead;
* ``scale``: every widget painted by a colour scale is painted by the deck's scale of a named quantity
  (``kit.scales``), and its values lie within the scale's ends; across the deck, one scale per quantity
  (:func:`deck_scale_problems`, over every clip's records);
* ``colour``: an element drawn in a concept colour (``theme.CONCEPT_COLORS``) declares that role
  (``binding.role``), and the verified colour appears only in a verdict: one colour, one meaning;
* ``verdict``: a verdict word on screen (✓, ✗, "exact", "bit for bit", "bitwise") is part of a verdict in
  the deck's one style (``kit.proofs.verdict``: the mark, then the measured figure).

Each check has a test that makes it fail on a case built for it (``tests/test_truth.py``).
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from .records import DIMMED, BeatRecord, Item, Problem, coverage

FULL = 0.9  # the opacity at which a thing is at full strength (the subject; what counts as a group)
HALF_EMPTY = 0.5  # a beat whose visible content covers less than this share of the content area is half empty
MAX_GROUPS = 3  # more full-strength groups than this is a dashboard
GROUP_GAP = 0.3  # units: things closer than twice this belong to one group
COLOUR_TOL = 0.012  # RGB distance under which a drawn colour is a concept colour
VERDICT_WORDS = re.compile(r"✓|✗|\bexact\b|\bbit for bit\b|\bbitwise\b", re.IGNORECASE)
STAGING = ("subject", "empty", "dashboard")


# ------------------------------------------------------------------ claims
def _skeleton(text: str) -> str:
    """What must match between a value and the text showing it: its digits (``≈ 4.7 × 10⁻¹⁶`` ->
    ``4.710-16``) when it has any, else its letters, lower case; spacing, math markup and quotes dropped."""
    t = unicodedata.normalize("NFKC", text).replace("−", "-")  # NFKC: ⁻¹⁶ -> -16, ₃ -> 3
    if re.search(r"\d", t):
        return "".join(ch for ch in t if ch.isdigit() or ch in ".-")
    return "".join(ch for ch in t.lower() if ch.isalpha())


def _visible_texts(rec: BeatRecord) -> list[str]:
    return [it.text for it in rec.items if it.kind == "text" and not it.header and it.opacity >= DIMMED and it.text]


def claim_problems(records: list[BeatRecord]) -> list[Problem]:
    out = []
    for rec in records:
        texts = [_skeleton(t) for t in _visible_texts(rec)]
        described = [c for c in rec.claims if c.where == "describe"]
        for c in rec.claims:
            what = f"the {'caption' if c.where == 'caption' else 'description'}"
            if c.bound:
                if not c.visible:
                    out.append(Problem(rec.key, "claim", f"{what} says {c.text!r} ({{{c.name}}}), but what shows it "
                                                         "is not on screen"))
                continue
            sk = _skeleton(c.text)
            if sk and not any(sk in t for t in texts):
                out.append(Problem(rec.key, "claim", f"{what} fills in {{{c.name}}} = {c.text!r}, which is nowhere on "
                                                     "screen (draw it, or give it as binding.claim with what shows it)"))
        if rec.key != "title" and getattr(rec, "describe", "") and not any(c.bound for c in described):
            out.append(Problem(rec.key, "claim", "the description names nothing on screen by its binding "
                                                 "(fill in a binding.claim of an element it describes)"))
    return out


# ------------------------------------------------------------------ staging
def _groups(items) -> list[list]:
    """Things at full strength, clustered: two are in one group when their boxes, each grown by
    ``GROUP_GAP``, overlap (union-find)."""
    boxes = [it.box for it in items]
    parent = list(range(len(items)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    g = GROUP_GAP
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if a[0] - g < b[2] + g and b[0] - g < a[2] + g and a[1] - g < b[3] + g and b[1] - g < a[3] + g:
                parent[find(i)] = find(j)
    clusters: dict[int, list] = {}
    for i, it in enumerate(items):
        clusters.setdefault(find(i), []).append(it)
    return list(clusters.values())


def _area(items) -> float:
    lo = np.min([it.box[:2] for it in items], axis=0)
    hi = np.max([it.box[2:] for it in items], axis=0)
    return float(np.prod(np.maximum(hi - lo, 0.0)))


def _footprint(items, cells: int = 96) -> float:
    """The area the items' boxes cover (their union, on a raster over their bounding box): what a group of
    separate things beside the subject takes of the frame.  A wide formula line and a label under its far
    end span a large box but cover a strip of it."""
    lo = np.min([it.box[:2] for it in items], axis=0)
    hi = np.max([it.box[2:] for it in items], axis=0)
    size = np.maximum(hi - lo, 1e-9)
    grid = np.zeros((cells, cells), dtype=bool)
    for it in items:
        (i0, j0), (i1, j1) = (np.clip((np.array(it.box[:2]) - lo) / size * cells, 0, cells),
                              np.clip((np.array(it.box[2:]) - lo) / size * cells, 0, cells))
        grid[int(j0):int(np.ceil(j1)), int(i0):int(np.ceil(i1))] = True
    return float(grid.mean() * np.prod(hi - lo))


def staging_problems(records: list[BeatRecord]) -> list[Problem]:
    out = []
    for rec in records:
        if rec.key == "title" or rec.header_bottom is None:
            continue

        def report(kind: str, msg: str) -> None:
            if kind not in rec.why:
                out.append(Problem(rec.key, kind, msg))

        full = [it for it in rec.items if not it.header and it.opacity >= FULL and not it.background]
        # a data grid's cells coloured like the background hold its group together (a mask's black zeros in
        # magma between its ones and its name; an arrow pointing at a weights map whose row is near black), as
        # they fill it for the empty check
        cells = [Item("graphic", "data cell", tuple(b), 1.0) for b in rec.cells]
        if rec.subject is None:
            report("subject", "the beat names no subject (beat(..., subject=...))")
        else:
            mine = [it for it in full if it.mid in rec.subject]
            if not mine:
                report("subject", "the subject is not on screen at full strength")
            else:
                groups = _groups(full + cells)  # the subject's group is what it is drawn with (labels, axes)
                own = _footprint([it for g in groups if any(it.mid in rec.subject for it in g) for it in g])
                real = {id(it) for it in full}  # a group of background-coloured cells alone is no group
                others = [g for g in groups if not any(it.mid in rec.subject for it in g)
                          and any(id(it) in real for it in g)]
                if others:
                    big = max(others, key=_footprint)
                    if _footprint(big) > own * 1.05:
                        name = max(big, key=lambda it: (it.box[2] - it.box[0]) * (it.box[3] - it.box[1])).name
                        report("subject", f"a group with {name} ({_footprint(big):.1f} units²) is larger than the "
                                          f"subject ({own:.1f} units²)")
        c = coverage(rec, rec.header_bottom - 0.15)
        if c < HALF_EMPTY:
            report("empty", f"the content area is {1 - c:.0%} empty (at most {1 - HALF_EMPTY:.0%})")
        real = {id(it) for it in full}
        n = sum(1 for g in _groups(full + cells) if any(id(it) in real for it in g))
        if n > MAX_GROUPS:
            report("dashboard", f"{n} separate groups at full strength (at most {MAX_GROUPS}): one subject a frame")
    return out


# ------------------------------------------------------------------ colour scales
def scale_problems(records: list[BeatRecord], cfg=None) -> list[Problem]:
    """Per clip: every coloured widget on a scale of the deck's (a named quantity), its values within the
    scale's ends, one scale per quantity through the clip, and, for a quantity the config alone makes
    (``kit.scales.FROM_CONFIG``), exactly the registry's scale under ``cfg``: so every clip that shows it
    paints it alike, and the deck has one scale per quantity."""
    from scenes.kit import scales

    out, first = [], {}
    for rec in records:
        for s in rec.scales:
            if s.quantity is None:
                out.append(Problem(rec.key, "scale", f"a {s.what} is painted by a colour scale of no quantity "
                                                     "(ask kit.scales.scale(quantity, cfg) for the deck's)"))
                continue
            _, vmin, vmax, _ = s.signature
            tol = 1e-9 * max(1.0, abs(vmin), abs(vmax))
            if s.lo < vmin - tol or s.hi > vmax + tol:
                out.append(Problem(rec.key, "scale", f"a {s.what} of {s.quantity} paints values {s.lo:.3g} to "
                                                     f"{s.hi:.3g}, beyond its scale's ends {vmin:.3g} to {vmax:.3g}"))
            if first.setdefault(s.quantity, s.signature) != s.signature:
                out.append(Problem(rec.key, "scale", f"{s.quantity} is painted on a second scale in this clip "
                                                     f"({s.signature[0]} {vmin:g} to {vmax:g})"))
            if cfg is not None and s.quantity in scales.FROM_CONFIG:
                want = scales.signature(scales.scale(s.quantity, cfg))
                if s.signature != want:
                    out.append(Problem(rec.key, "scale", f"{s.quantity} is painted {s.signature[0]} {vmin:g} to "
                                                         f"{vmax:g}; the deck paints it {want[0]} {want[1]:g} to "
                                                         f"{want[2]:g}"))
    return out


def deck_scale_problems(runs: dict[str, list[BeatRecord]]) -> list[str]:
    """One scale per quantity over the whole deck (``runs``: clip name -> its beats' records)."""
    seen: dict[str, dict[tuple, set]] = {}
    for clip, records in runs.items():
        for rec in records:
            for s in rec.scales:
                if s.quantity is not None:
                    seen.setdefault(s.quantity, {}).setdefault(s.signature, set()).add(clip)
    out = []
    for q, sigs in sorted(seen.items()):
        if len(sigs) > 1:
            parts = "; ".join(f"{sig[0]} {sig[1]:g} to {sig[2]:g} in {', '.join(sorted(c))}" for sig, c in sigs.items())
            out.append(f"{q} is painted on {len(sigs)} scales: {parts}")
    return out


# ------------------------------------------------------------------ one colour, one meaning
def _concept_rgbs() -> dict[str, np.ndarray]:
    from scenes.kit.theme import CONCEPT_COLORS

    return {name: np.asarray(c.to_rgb(), dtype=float) for name, c in CONCEPT_COLORS.items()}


def colour_problems(records: list[BeatRecord]) -> list[Problem]:
    concepts = _concept_rgbs()
    out = []
    for rec in records:
        for it in rec.items:
            if it.header or it.opacity < DIMMED or it.data or it.background:
                continue
            rgb = it.rgb if it.kind == "text" else (it.fill_rgb if it.filled else it.stroke_rgb)
            if rgb is None:
                continue
            hit = next((n for n, c in concepts.items() if float(np.max(np.abs(np.asarray(rgb) - c))) < COLOUR_TOL), None)
            if hit is not None and it.role != hit:
                out.append(Problem(rec.key, "colour", f"{it.kind} {it.name} is drawn in the {hit} colour "
                                                      f"{'as ' + repr(it.role) if it.role else 'without that role'}"))
            elif hit == "verified" and not it.verdict:
                out.append(Problem(rec.key, "colour", f"{it.kind} {it.name} is drawn in the verified colour outside "
                                                      "a verdict"))
    return out


# ------------------------------------------------------------------ one verdict style
def verdict_problems(records: list[BeatRecord]) -> list[Problem]:
    out = []
    for rec in records:
        for it in rec.items:
            if it.kind != "text" or it.header or it.opacity < DIMMED or it.verdict:
                continue
            m = VERDICT_WORDS.search(it.text or "")
            if m:
                out.append(Problem(rec.key, "verdict", f"text {it.name} says {m.group(0)!r} outside a verdict "
                                                       "(kit.proofs.verdict: the mark, then the measured figure)"))
    return out


def truth_problems(records: list[BeatRecord], cfg=None) -> list[Problem]:
    """Every problem of this module's kinds, beat by beat (``cfg``: the config the clip ran under)."""
    return (claim_problems(records) + staging_problems(records) + scale_problems(records, cfg)
            + colour_problems(records) + verdict_problems(records))
