"""Every sentence true and shown, every frame one subject: the audit's checks of what a beat *claims* against
what it *shows*, beat by beat (``BeatRecord``, recorded by ``recording.snapshot``):

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
  the deck's one style (``kit.proofs.verdict``: the mark, then the measured figure);
* ``colour word``: a colour the caption or the description names ("a yellow staircase", "pale blue", "slate
  grey bars") is drawn at the end of the beat, as it looks on the background (its opacity blended in): by the
  element a bound claim names when the colour is in that claim's value, else by something on screen (a
  text, a filled area, a stroke, or the ends of a visible colour bar).  Colours are matched in OKLCH around
  the theme's (:data:`COLOUR_WORDS`); words that are no colour there (inside ``$math$`` or quotes, a name
  such as "Red Queen", the lecturer's own words filled in, :data:`NOT_COLOURS`) are skipped.

Each check has a test that makes it fail on a case built for it (``tests/test_truth.py``).
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from .records import DIMMED, BeatRecord, Item, Problem, coverage, lecturer_words

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


# ------------------------------------------------------------------ colour words
# A colour word and what it means in OKLCH (lightness 0..1, chroma, hue in degrees), set around the theme's
# colours (``scenes.kit.theme``): HIGHLIGHT h 85 and VALUE h 104 are yellow, QUERY h 55 orange, FAILED h 24
# red, VERIFIED h 148 green, SIN h 191 cyan, KEY h 253 blue, UNSEEN (L 0.88, C 0.07, h 237) a pale blue,
# SEEN h 298 violet, COS h 358 pink; FG (C 0.005, L 0.93) white, DIM (C 0.02, L 0.61) grey.
# hues: (lo, hi) degrees, lo > hi wrapping through 0; None: achromatic (chroma at most GREY_CHROMA)
CHROMA_MIN = 0.05  # a colour with less chroma than this is a grey (or white, or black) to the eye
GREY_CHROMA = 0.05
COLOUR_WORDS: dict[str, dict] = {
    "red": {"hue": (10, 45)},
    "orange": {"hue": (40, 80)},
    "amber": {"hue": (55, 90)},
    "gold": {"hue": (70, 105)},
    "yellow": {"hue": (75, 120)},
    "green": {"hue": (115, 180)},
    "teal": {"hue": (165, 220)},
    "cyan": {"hue": (175, 230)},
    "blue": {"hue": (205, 285)},
    "violet": {"hue": (270, 335)},
    "purple": {"hue": (270, 335)},
    "lilac": {"hue": (270, 335), "light": (0.65, 1.0)},
    "magenta": {"hue": (315, 10)},
    "pink": {"hue": (330, 25), "light": (0.6, 1.0)},
    "grey": {"hue": None, "light": (0.3, 0.88)},
    "white": {"hue": None, "light": (0.85, 1.0)},
    "black": {"hue": None, "light": (0.0, 0.25)},
    # a blue-grey (CSS slategray #708090: L 0.59, C 0.03, h 248), said of a shaded area, never of a line; down to
    # L 0.35: an area is recorded layer by layer (13's chart area, UNSEEN at 0.3, is #3F4F5D, L 0.42, though
    # drawn over a second layer it shows as #617A8D)
    "slate grey": {"hue": (200, 290), "chroma": (0.01, 0.08), "light": (0.35, 0.7), "area": True},
}
COLOUR_WORDS["gray"] = COLOUR_WORDS["grey"]
COLOUR_WORDS["slate gray"] = COLOUR_WORDS["slate grey"]
# a modifier narrows the colour: pale/light/ice (UNSEEN, not KEY: L 0.72), dark
PALE = {"light": (0.76, 1.0), "chroma": (0.0, 0.13)}
MODIFIERS = {"pale": PALE, "light": PALE, "ice": PALE, "dark": {"light": (0.0, 0.55)}}
# phrases in which a colour word names no colour
NOT_COLOURS = ("red herring", "black box", "grey area", "gray area", "white noise", "white paper", "blue moon",
               "in the red", "in the black")
_COLOUR_RE = re.compile(
    r"\b(?:(?P<mod>pale|light|ice|dark)[ -])?(?P<word>slate gr[ae]y|"
    + "|".join(sorted((w for w in COLOUR_WORDS if " " not in w), key=len, reverse=True)) + r")\b",
    re.IGNORECASE)
_QUOTED = re.compile(r"\$[^$]*\$|\"[^\"]*\"|“[^”]*”|‘[^’]*’|«[^»]*»|(?<!\w)'[^']*'(?!\w)")


def oklch(rgb) -> tuple[float, float, float]:
    """An sRGB colour in [0, 1] as OKLCH: lightness, chroma, hue in degrees (Björn Ottosson's OKLab)."""
    c = np.clip(np.asarray(rgb, dtype=float)[:3], 0.0, 1.0)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m1 = np.array([[0.4122214708, 0.5363325363, 0.0514459929], [0.2119034982, 0.6806995451, 0.1073969566],
                   [0.0883024619, 0.2817188376, 0.6299787005]])
    m2 = np.array([[0.2104542553, 0.7936177850, -0.0040720468], [1.9779984951, -2.4285922050, 0.4505937099],
                   [0.0259040371, 0.7827717662, -0.8086757660]])
    lab = m2 @ np.cbrt(m1 @ lin)
    return float(lab[0]), float(np.hypot(lab[1], lab[2])), float(np.degrees(np.arctan2(lab[2], lab[1])) % 360)


def _spec(word: str, mod: str | None) -> dict:
    spec = dict(COLOUR_WORDS[re.sub(r"\s+", " ", word.lower()).replace("gray", "grey")])
    spec.setdefault("chroma", (0.0, GREY_CHROMA) if spec["hue"] is None else (CHROMA_MIN, 1.0))
    if mod:
        for k, (lo, hi) in MODIFIERS[mod.lower()].items():  # narrow: both must hold
            a, b = spec.get(k, (0.0, 1.0))
            spec[k] = (max(a, lo), min(b, hi))
    return spec


def colour_matches(spec: dict, lch: tuple[float, float, float], area: bool = True) -> bool:
    """Whether a colour seen as ``lch`` (OKLCH) is what ``spec`` (a :data:`COLOUR_WORDS` entry, maybe narrowed
    by a modifier) names; ``area``: it is a filled area (not a text's ink nor a stroke)."""
    L, C, h = lch
    if spec.get("area") and not area:
        return False
    lo, hi = spec.get("light", (0.0, 1.0))
    if not lo <= L <= hi:
        return False
    hue = spec["hue"]
    clo, chi = spec.get("chroma") or ((0.0, GREY_CHROMA) if hue is None else (CHROMA_MIN, 1.0))
    if not clo <= C <= chi:
        return False
    if hue is None:
        return True
    a, b = hue
    return a <= h <= b if a <= b else (h >= a or h <= b)


def colour_name(lch: tuple[float, float, float], area: bool = True) -> str:
    """The words of :data:`COLOUR_WORDS` a colour answers to (for a message), e.g. ``pale blue``."""
    names = [w for w in COLOUR_WORDS if " " not in w and w != "gray" and colour_matches(COLOUR_WORDS[w], lch, area)]
    if colour_matches(COLOUR_WORDS["slate grey"], lch, area):
        names.append("slate grey")
    if not names:
        return "no colour word"
    pale = lch[0] >= PALE["light"][0] and lch[1] <= PALE["chroma"][1] and lch[1] >= CHROMA_MIN
    dark = lch[0] <= MODIFIERS["dark"]["light"][1] and lch[1] >= CHROMA_MIN
    return "/".join(("pale " if pale else "dark " if dark else "") + n if COLOUR_WORDS[n]["hue"] is not None
                    and " " not in n else n for n in names)


def _over_background(rgb, opacity: float) -> np.ndarray:
    """The colour a viewer sees: ``rgb`` at ``opacity`` over the background (sRGB, as Cairo blends)."""
    from scenes.kit.theme import BG

    a = float(np.clip(opacity, 0.0, 1.0))
    return np.clip(a * np.asarray(rgb, dtype=float)[:3] + (1 - a) * np.asarray(BG.to_rgb(), dtype=float), 0.0, 1.0)


def drawn_colours(items, scales=()) -> list[tuple[tuple[float, float, float], bool, str]]:
    """Every colour drawn by ``items`` at a visible opacity, as seen: ``(oklch, is a filled area, hex)``: a
    text's ink, a filled graphic's fill, a stroke; and the end colours (and a diverging scale's middle) of
    each visible colour bar among ``scales``."""
    out = []

    def add(rgb, op, area):
        if rgb is not None and op >= DIMMED:
            mix = _over_background(rgb, op)
            out.append((oklch(mix), area, "#" + "".join(f"{int(round(255 * float(v))):02X}" for v in mix)))

    for it in items:
        if it.kind == "text":
            add(it.rgb, it.opacity, False)
            continue
        if it.fill_rgb is not None:
            add(it.fill_rgb, it.fill_opacity or it.opacity, True)
        if it.stroke_rgb is not None:
            add(it.stroke_rgb, it.stroke_opacity or it.opacity, False)
    for s in scales:
        if "Bar" not in s.what:
            continue
        import matplotlib

        cm = matplotlib.colormaps[s.signature[0]]
        ends = (0.0, 1.0) + ((0.5,) if s.signature[1] == -s.signature[2] else ())
        for t in ends:
            add(cm(t)[:3], 1.0, True)
    return out


def colour_words(text: str, skip: tuple[str, ...] = ()) -> list[tuple[str, dict]]:
    """The colours ``text`` names: ``(phrase, spec)`` in order.  Skipped: math (``$...$``) and quotations,
    the values in ``skip`` (the lecturer's own words filled in), the phrases of :data:`NOT_COLOURS`, and a
    capitalised colour word inside a sentence (a name: "Red Queen")."""
    t = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    for v in sorted(skip, key=len, reverse=True):
        t = re.sub(rf"(?<!\w){re.escape(v)}(?!\w)", lambda m: " " * len(m.group(0)), t)
    for phrase in NOT_COLOURS:
        t = re.sub(rf"\b{re.escape(phrase)}\b", lambda m: " " * len(m.group(0)), t, flags=re.IGNORECASE)
    out = []
    for m in _COLOUR_RE.finditer(t):
        first = m.group(0)[0]
        start = not t[:m.start()].strip() or re.search(r"[.:;!?]\s*$", t[:m.start()])
        if first.isupper() and not start:
            continue  # a name
        if re.search(r"\b(not|never|no longer)\s+$", t[:m.start()], re.IGNORECASE):
            continue  # "not red": no claim that something is red
        out.append((" ".join(m.group(0).lower().split()), _spec(m.group("word"), m.group("mod"))))
    return out


def colour_word_problems(records: list[BeatRecord], verbatim: tuple[str, ...] = ()) -> list[Problem]:
    """Every colour a beat's caption or description names that nothing at the end of the beat is drawn in
    (``verbatim``: the lecturer's own words, from ``records.lecturer_words``: a sentence's word filled into a
    caption is quoted, not a colour)."""
    lecturer = {w.lower() for w in verbatim}
    out = []
    for rec in records:
        drawn = drawn_colours([it for it in rec.items if it.opacity >= DIMMED], rec.scales)
        for where, text in (("caption", getattr(rec, "caption", "")), ("description", rec.describe)):
            if not text:
                continue
            mine = [c for c in rec.claims if (c.where == "caption") == (where == "caption")]
            # a value filled in that is only the lecturer's words (a sentence, a token) names no colour
            skip = tuple(c.text for c in mine if c.text and all(w.lower() in lecturer for w in c.text.split()))
            reported = set()
            for c in mine:  # a colour in a bound claim's value: the element it names is drawn in it
                if not (c.bound and c.visible and c.mids):
                    continue
                own = drawn_colours([it for it in rec.items if it.mid in c.mids and it.opacity >= DIMMED])
                for phrase, spec in colour_words(c.text, skip):
                    if own and not any(colour_matches(spec, lch, area) for lch, area, _ in own):
                        seen = ", ".join(dict.fromkeys(f"{colour_name(lch, area)} ({hx})" for lch, area, hx in own))
                        out.append(Problem(rec.key, "colour word", f"the {where} says {c.text!r} ({{{c.name}}}), but "
                                                                   f"what it names is drawn {seen}"))
                        reported.add(phrase)
            for phrase, spec in colour_words(text, skip):
                if phrase in reported or any(colour_matches(spec, lch, area) for lch, area, _ in drawn):
                    continue
                what = "a filled area " if spec.get("area") else ""
                out.append(Problem(rec.key, "colour word", f"the {where} says {phrase!r}, but nothing drawn at the end "
                                                           f"of the beat is {what}that colour"))
                reported.add(phrase)
    return out


def truth_problems(records: list[BeatRecord], cfg=None) -> list[Problem]:
    """Every problem of this module's kinds, beat by beat (``cfg``: the config the clip ran under)."""
    verbatim = lecturer_words(cfg) if cfg is not None else ()
    return (claim_problems(records) + staging_problems(records) + scale_problems(records, cfg)
            + colour_problems(records) + verdict_problems(records) + colour_word_problems(records, verbatim))
