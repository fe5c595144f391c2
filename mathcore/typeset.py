"""What the config's text looks like when drawn, measured from the shipped font files.

The lecture draws its labels with Pango in the shipped Inter (``assets/fonts``).  The config
is checked before anything renders and before Manim is imported, so the checks here read
the fonts themselves with fontTools:

* :func:`missing_glyphs`: the characters of a text that Inter (Regular, SemiBold and Bold,
  every weight a config text is drawn in) has no glyph for;
* :func:`ink_width`: a text's drawn width in Manim units at a Pango ``font_size``: the glyphs'
  advances with the font's pair kerning (GPOS ``kern``, as HarfBuzz applies it), from the
  first glyph's ink to the last one's (Manim's ``Text`` is as wide as its outlines).  A test
  binds it to what Pango draws (``tests/test_languages.py``: within 1 %);
* :func:`sentence_chips`: the one place the sentences are drawn whole, clip 07's two rows of
  word chips (``TokenRow``: chips wrap onto further lines, and the two rows are scaled to fit
  the content area, never below the legible floor).  It returns why a pair of sentences
  cannot be drawn legibly, naming the word and what would fit.

Pure Python (fontTools, shipped with matplotlib); no Manim.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

FONTS_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
WEIGHTS = {"NORMAL": "Inter-Regular.otf", "SEMIBOLD": "Inter-SemiBold.otf", "BOLD": "Inter-Bold.otf"}
PANGO_POINTS = 72.0  # Manim's Text: ``font_size`` points per em, 72 points per unit (measured: tests)

# ------------------------------------------------------------------ the widgets' geometry
# Read from the widgets that draw the sentences; tests/test_languages.py builds them and checks
# every number here against what they draw, so a restyle that changes one fails a test.
LABEL = 30  # scenes.kit.theme.LABEL: the chips' text size
CHIP_PAD = 0.35  # TokenRow: a chip is its word's width + 0.35 ...
CHIP_MIN = 0.8  # ... and at least 0.8 wide
CHIP_HEIGHT_PAD = 0.35  # ... and "Xg" + 0.35 tall
CHIP_GAP = 0.18  # TokenRow gap between chips
LINE_GAP = 0.22  # TokenRow line_gap (show_index=False: no index row under the chips)
ROWS_BUFF = 0.9  # clip 07: the two sentences' rows, one above the other (compose.column, gap "section")
ROW_MARGIN = 0.0  # clip 07: TokenRow(max_width=content.width)
CONTENT_W, CONTENT_H = 13.522, 5.995  # clip 07's content area (between the header rule and the subtitle band)
PX_PER_UNIT = 854 / (8.0 * 16 / 9)  # legibility is judged at 854x480 (scenes.kit.layout)
FIT_XHEIGHT_PX = 8.5  # Region.fit stops here (scenes.kit.layout.FIT_XHEIGHT_PX)


@lru_cache(maxsize=4)
def _font(weight: str):
    from fontTools.ttLib import TTFont

    return TTFont(str(FONTS_DIR / WEIGHTS[weight]), lazy=True)


@lru_cache(maxsize=4)
def _cmap(weight: str) -> dict:
    return _font(weight).getBestCmap()


@lru_cache(maxsize=4)
def _font_key(weight: str, what: str) -> str:
    """The cache key of something measured from a weight's font file: its bytes' digest (a font replaced by
    another measures afresh)."""
    import hashlib

    digest = hashlib.sha256((FONTS_DIR / WEIGHTS[weight]).read_bytes()).hexdigest()
    return f"{digest[:40]}-{what}"


@lru_cache(maxsize=4)
def _coverage(weight: str) -> frozenset:
    """The code points a weight of Inter has glyphs for (read once from the font, then kept in the cache's
    ``fonts`` kind: reading the cmap costs 0.1 s a font)."""
    import json

    from clipcache import store

    key = _font_key(weight, "coverage")
    kept = store().get("fonts", key)
    if kept is not None:
        try:
            return frozenset(json.loads(kept))
        except ValueError:
            store().drop("fonts", key)
    cps = sorted(_cmap(weight))
    store().put("fonts", key, json.dumps(cps).encode())
    return frozenset(cps)


def missing_glyphs(text: str, weights: tuple[str, ...] = tuple(WEIGHTS)) -> str:
    """The characters of ``text`` (spaces aside) that some weight of Inter cannot draw, in order, once each."""
    out = []
    for ch in text:
        if ch.isspace() or ch in out or " " <= ch <= "~":  # printable ASCII: every weight has it (tests)
            continue
        if any(ord(ch) not in _coverage(w) for w in weights):
            out.append(ch)
    return "".join(out)


@lru_cache(maxsize=4)
def _kerning(weight: str) -> list:
    gpos = _font(weight)["GPOS"].table
    subtables = []
    for rec in gpos.FeatureList.FeatureRecord:
        if rec.FeatureTag != "kern":
            continue
        for i in rec.Feature.LookupListIndex:
            lookup = gpos.LookupList.Lookup[i]
            for st in lookup.SubTable:
                if lookup.LookupType == 9:  # extension lookups wrap the real subtable
                    st = st.ExtSubTable
                subtables.append(st)
        break
    return subtables


def _kern(weight: str, left: str, right: str) -> int:
    for st in _kerning(weight):
        cov = st.Coverage.glyphs
        if left not in cov:
            continue
        if st.Format == 1:
            for rec in st.PairSet[cov.index(left)].PairValueRecord:
                if rec.SecondGlyph == right:
                    return int(getattr(rec.Value1, "XAdvance", 0) or 0)
        else:
            c1 = st.ClassDef1.classDefs.get(left, 0)
            c2 = st.ClassDef2.classDefs.get(right, 0)
            return int(getattr(st.Class1Record[c1].Class2Record[c2].Value1, "XAdvance", 0) or 0)
    return 0


@lru_cache(maxsize=4096)
def _bounds(weight: str, glyph: str):
    from fontTools.pens.boundsPen import BoundsPen

    gs = _font(weight).getGlyphSet()
    pen = BoundsPen(gs)
    gs[glyph].draw(pen)
    return pen.bounds  # None for a blank glyph


def _glyphs(text: str, weight: str) -> list[str]:
    cmap = _cmap(weight)
    font = _font(weight)
    notdef = font.getGlyphOrder()[0]
    return [cmap.get(ord(ch), notdef) for ch in unicodedata.normalize("NFC", text)]


@lru_cache(maxsize=4)
def _extents(weight: str) -> dict:
    """Every text measured in ``weight`` so far, as kept in the cache's ``fonts`` kind."""
    import json

    from clipcache import store

    kept = store().get("fonts", _font_key(weight, "extents"))
    try:
        known = json.loads(kept) if kept is not None else {}
    except ValueError:
        known = {}
    return known if isinstance(known, dict) else {}


@lru_cache(maxsize=8192)
def ink_extent_em(text: str, weight: str = "NORMAL") -> tuple[float, float, float, float]:
    """``(left, right, bottom, top)`` of ``text``'s ink in ems, on one line (measured once per font
    file and kept in the cache: opening the font's tables costs 0.2 s)."""
    import json

    from clipcache import store

    known = _extents(weight)
    if text in known:
        return tuple(known[text])
    known[text] = ext = _measure(text, weight)
    store().put("fonts", _font_key(weight, "extents"), json.dumps(known, sort_keys=True).encode())
    return ext


def _measure(text: str, weight: str) -> tuple[float, float, float, float]:
    font = _font(weight)
    upm = font["head"].unitsPerEm
    hmtx = font["hmtx"]
    glyphs = _glyphs(text, weight)
    x = 0
    lo = hi = bot = top = None
    for i, g in enumerate(glyphs):
        b = _bounds(weight, g)
        if b is not None:
            lo = x + b[0] if lo is None else min(lo, x + b[0])
            hi = x + b[2] if hi is None else max(hi, x + b[2])
            bot = b[1] if bot is None else min(bot, b[1])
            top = b[3] if top is None else max(top, b[3])
        x += hmtx[g][0] + (_kern(weight, g, glyphs[i + 1]) if i + 1 < len(glyphs) else 0)
    if lo is None:
        return (0.0, 0.0, 0.0, 0.0)
    return (lo / upm, hi / upm, bot / upm, top / upm)


def ink_width(text: str, size: float, weight: str = "NORMAL") -> float:
    """Manim units ``text`` is wide when Pango draws it at ``font_size=size`` in Inter."""
    lo, hi, _, _ = ink_extent_em(text, weight)
    return (hi - lo) * size / PANGO_POINTS


def ink_height(text: str, size: float, weight: str = "NORMAL") -> float:
    _, _, bot, top = ink_extent_em(text, weight)
    return (top - bot) * size / PANGO_POINTS


def xheight_px(size: float) -> float:
    """The x-height of Inter at ``size`` in pixels at 854x480 (the audit's measure)."""
    return ink_height("x", size) * PX_PER_UNIT


# ------------------------------------------------------------------ clip 07's sentence chips
@dataclass(frozen=True)
class ChipFit:
    """How clip 07 draws two sentences as rows of chips."""

    lines: tuple[int, int]  # lines each sentence's chips take
    width: float  # the two rows' width and height at LABEL size (units)
    height: float
    scale: float  # the scale fitting them into the content area (at most 1)
    legible: float  # the smallest scale keeping the text at the legible floor

    @property
    def ok(self) -> bool:
        return self.scale >= self.legible - 1e-9


def chip_width(word: str) -> float:
    return max(ink_width(word, LABEL) + CHIP_PAD, CHIP_MIN)


def _flow(words: list[str], max_width: float) -> tuple[int, float]:
    """TokenRow's wrapping: (lines, widest line)."""
    lines, width, widest = 1, 0.0, 0.0
    first = True
    for w in words:
        cw = chip_width(w)
        step = cw + (0.0 if first else CHIP_GAP)
        if not first and width + step > max_width:
            lines += 1
            widest = max(widest, width)
            width, step = 0.0, cw
        width += step
        first = False
    return lines, max(widest, width)


def sentence_chips(a: list[str], b: list[str]) -> ChipFit:
    max_width = CONTENT_W - ROW_MARGIN
    chip_h = ink_height("Xg", LABEL) + CHIP_HEIGHT_PAD
    (la, wa), (lb, wb) = _flow(a, max_width), _flow(b, max_width)
    height = sum(n * chip_h + (n - 1) * LINE_GAP for n in (la, lb)) + ROWS_BUFF
    width = max(wa, wb)
    scale = min(1.0, CONTENT_W / width, CONTENT_H / height)
    return ChipFit((la, lb), width, height, scale, FIT_XHEIGHT_PX / xheight_px(LABEL))


def chips_problem(a: list[str], b: list[str]) -> str | None:
    """Why clip 07 cannot draw sentences ``a`` and ``b`` legibly (None when it can): names the
    word that does not fit and what would."""
    fit = sentence_chips(a, b)
    if fit.ok:
        return None
    widest = max(a + b, key=chip_width)
    room = CONTENT_W / fit.legible  # the widest a line may be, at the legible floor
    if chip_width(widest) > room:
        # how many of its letters would fit
        n = len(widest)
        while n > 1 and chip_width(widest[:n]) > room:
            n -= 1
        return (f"the word {widest!r} is {ink_width(widest, LABEL):.1f} units wide in its chip, and at most "
                f"{room - CHIP_PAD:.1f} fit on a line at a legible size (its first {n} of {len(widest)} letters)")
    chip_h = ink_height("Xg", LABEL) + CHIP_HEIGHT_PAD
    most = int((CONTENT_H / fit.legible - ROWS_BUFF + 2 * LINE_GAP) // (chip_h + LINE_GAP))
    return (f"the two sentences take {fit.lines[0]} + {fit.lines[1]} lines of word chips and at most {most} fit "
            f"at a legible size (longest word {widest!r}); use shorter words or fewer")
