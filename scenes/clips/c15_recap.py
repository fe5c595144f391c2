"""15 ``Recap`` (§11 diary): the four diary questions, one a beat, each answered in a sentence and
proved by the clips' own measurements: the verdict (✓ or ✗, then the measured figure) of every
proof, each tagged with the clip that measured it, all taken from mathcore for the lecture's config
(``scenes.figures.framing.diary_proofs``: the same computations as clips 02–05, 11, 13 and 14).

* ``q1`` … ``q4``: the question at the top; the icon of its answer (the same icons as the map in 00),
  large at the left, one size and place for every question, its queries, keys and values in their
  concept colours; beside it the answer, large, and under it its proofs on a panel;
* ``close``: a picture, the sentences gone: one card per answer, its icon, the chip of the clip that
  measured its kept proof and that verdict, large, one size for all; under them where the lecture goes
  next: lecture ``number + 1``, past the training length.

Laid out from the base scene's regions: the icon takes a share of the width, the answer grows as long
as its proofs keep their size, so a longer answer or another count only moves things.

Render directly with ``manim -ql scenes/clips/c15_recap.py Recap``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    ManimColor,
    ReplacementTransform,
    RoundedRectangle,
    Succession,
    Transform,
    VGroup,
)

from mathcore.config import LectureConfig
from mathcore.extrapolation import GPT2, LLAMA2
from scenes.catalog import Clip
from scenes.figures.extrapolation import base_figure, far_pair
from scenes.figures.framing import RECAP_ICONS, RECAP_PAINT, DiaryProof, diary_proofs
from scenes.kit import DIM, FG, HEADING, LABEL, SMALL, ClipScene, label, math
from scenes.kit.theme import BG
from scenes.kit.binding import claim
from scenes.kit.cards import clip_chip, clip_number, clip_of, drawing
from scenes.kit.compose import GAP, row
from scenes.kit.layout import MIN_XHEIGHT_PX, LayoutError, Region, baseline_y, legible_scale, overlay, wrap_words
from scenes.kit.notation import N
from scenes.kit import numbers
from scenes.kit.numbers import count
from scenes.kit.proofs import line_baseline, verdict, worded_line, worded_verdict

PROOF_GROW = 1.0  # how far a question's proofs may grow past their natural size to fill the frame
ANSWER_SIZES = (1.1, 1.0, 0.9, 0.85)  # the answer's sizes tried (× HEADING), largest first: it supports the drawing
ICON_SHARES = (0.44, 0.42, 0.4, 0.38, 0.36, 0.34, 0.32, 0.3, 0.28)  # the icon's share of the width, largest first:
# the drawing is the subject, as large as leaves every question's proofs their natural size
WALL_SHARES = (0.5, 0.47, 0.44, 0.41, 0.38, 0.35, 0.32)  # the last question's drawing share, largest first
WALL_KEEP = 0.72  # its proofs may shrink to this share of the size they have beside the common drawing
CLOSE_GAP = 0.2  # units between two cards of the close
CLOSE_PAD = 0.1  # units inside a card of the close, around its chip, its picture and its words
LEGIBLE_PX = 1.03 * MIN_XHEIGHT_PX  # a proof's texts may shrink to this x-height (854×480) for a larger drawing
MIN_ICON = 1.3  # units: an icon smaller than this no longer reads
BOLD_MATH = 1.6  # the stroke (at HEADING size) that thickens a formula's glyphs to the bold sans's weight


KEEP_TOGETHER = (N.offset.text,)  # phrases a line never breaks inside ("m − n")


def well_broken(text: str, lines: list[str]) -> bool:
    """Whether ``lines`` (``text`` wrapped; ``Text.text`` drops spaces) break ``text`` well: no phrase of
    ``KEEP_TOGETHER`` split between two lines, no line ending on a minus, and no word alone on the last line
    of several (a widow: "terms." under a full line)."""
    squeezed = [ln.replace(" ", "") for ln in lines]
    for phrase in KEEP_TOGETHER:
        if phrase in text and not any(phrase.replace(" ", "") in ln for ln in squeezed):
            return False
    if any(ln.rstrip().endswith(("−", "-")) for ln in lines):
        return False
    if len(lines) > 1 and squeezed[-1] == text.split()[-1]:  # a widow: the last word alone on its line
        return False
    # a symbol stranded at a line's end, away from the words it starts ("…; V" / "is content")
    if any(len(ln.split()) > 1 and len(ln.split()[-1]) == 1 and ln.split()[-1].isalpha() for ln in lines[:-1]):
        return False
    return True


# ------------------------------------------------------------------ notation as math in the recap's words
# The answers, questions and notes are plain text (the still sets them too, ``stills.text.mathify``); on screen
# every symbol in them is typeset as math, as in every other clip: m, n, t, P, L, d, Q, K, V, nₘₐₓ, m − n.
GLUE = "\u2060"  # joins the words of one symbol ("m − n", "L = 64") so a line never breaks inside it
_SYMBOLS = {N.offset.text: N.offset.math, N.table_rows.text: N.table_rows.math}
_LETTER = re.compile(r"(?<![\w$\u2060'’-])([PQKVLmndtb])(?![\w'’-])")
_RELATION = re.compile(r"\$([^$]+)\$ ([=≥]) (\d[\d\u2009]*)")


def glued(text: str) -> str:
    """``text`` with each symbol's words joined (``m − n``, ``L = 64``, ``m ≥ 1024``), so wrapping keeps it whole."""
    for t in _SYMBOLS:
        text = text.replace(t, t.replace(" ", GLUE))
    text = re.sub(r"(\S+) ([=≥]) (\d[\d\u2009]*)", lambda m: GLUE.join(m.groups()), text)
    return re.sub(r"(?<![\w$'’-])([PQKVLmndtb]) (?=\S)", lambda m: m.group(1) + GLUE, text)  # "K and": never "…K" / "and"


def mathed(text: str) -> str:
    """Plain ``text`` as a worded line's source: every symbol as ``$math$`` (``P`` -> ``$P$``, ``m − n`` ->
    ``$m - n$``, ``nₘₐₓ = 1024`` -> ``$n_"max" = 1024$``), the rest words.  Parts already in ``$…$`` stay."""
    def outside_math(src: str, f) -> str:
        return "".join(p if p.startswith("$") else f(p) for p in re.split(r"(\$[^$]*\$)", src))

    def symbols(part: str) -> str:
        for t, m in _SYMBOLS.items():
            part = part.replace(t, f"${m}$")
        return part

    joined = outside_math(outside_math(text.replace(GLUE, " "), symbols),
                          lambda p: _LETTER.sub(lambda m: f"${m.group(1)}$", p))
    return _RELATION.sub(lambda m: f"${m.group(1)} {'>=' if m.group(2) == '≥' else '='} "
                                   f"{m.group(3).replace(chr(0x2009), ' thin ')}$", joined)


def worded_text(text: str, size: float, color=FG, weight: str = "NORMAL") -> VGroup:
    """One line of plain ``text`` set with its symbols as math (:func:`mathed`); ``.text``: the plain words."""
    line = seated(worded_line(mathed(text), size=size, color=color, weight=weight))
    if weight == "BOLD":  # the math as heavy as the bold sans beside it (review round 6: regular math in bold headings)
        for p in line.maths:
            p.set_stroke(color, width=BOLD_MATH * size / HEADING, opacity=1.0)
    line.text = text.replace(GLUE, " ")
    return line


def fit_worded(text: str, max_width: float, size: float, color=FG, weight: str = "NORMAL",
               max_lines: int = 3, line_buff: float = 0.1) -> VGroup:
    """Like ``fit_label``, with the symbols typeset as math: ``text`` wrapped onto at most ``max_lines`` worded
    lines no wider than ``max_width``, shrinking to the legibility floor (``LayoutError`` past it).  Each line's
    ``.text`` is its plain words, the group's ``.text`` the whole text."""
    s = size
    floor = size * 0.6
    src = glued(text)
    while True:
        def measure(t, s=s):
            return worded_text(t, s, color, weight).width

        for n in range(1, max_lines + 1):
            lines = wrap_words(src, max_width, measure, max_lines=n)
            if lines and all(measure(ln) <= max_width + 1e-6 for ln in lines):
                g = VGroup(*[worded_text(ln, s, color, weight) for ln in lines]).arrange(
                    DOWN, buff=line_buff, aligned_edge=LEFT)
                g.text = text
                return g
        if s <= floor + 1e-9:
            raise LayoutError(f"text {text!r} does not fit {max_width:.2f} units in {max_lines} line(s)")
        s = max(floor, s * 0.92)


def _clips_text(clips) -> str:
    """``clip 02`` / ``clips 04 and 05`` / ``clips 03, 04 and 05``."""
    nums = [clip_number(c.number) for c in clips]
    if len(nums) == 1:
        return f"clip {nums[0]}"
    return f"clips {', '.join(nums[:-1])} and {nums[-1]}"


# ------------------------------------------------------------------ colours: neutral frames, concept colours only
NEUTRAL = DIM  # the panels', cards' and chips' one colour: none of the deck's meanings (review R2: the family
NOTE = DIM.interpolate(FG, 0.4)  # a proof's note: quieter than its verdict, clearer than DIM on the panel (review round 3)
PANEL_FILL = 0.06  # colours of panel and chip disagreed, "03" pink in a green panel, and meant nothing stated)


# the permutation's four tokens: a palette of the recap's own, outside the query's orange, the key's blue and the
# value's magenta that the next beats draw (review round 7: x₀ wore the key's blue, x₃ nearly the value's magenta),
# each pair >= 18 CAM02-UCS units apart under normal vision and simulated deuteranomaly, protanomaly and tritanomaly
# (the deck's six token colours keep 15), >= 15 from Q, K and V, and >= 4.5:1 on the background
RECAP_TOKENS = tuple(ManimColor(c) for c in ("#EDED5E", "#5EEDBD", "#C5CBEB", "#B08560"))  # lemon, mint, lilac, brown


TOKEN_FILL = 0.08  # a token chip's wash of its colour: its name keeps >= 4.5:1 on it (review round 10: the brown x₃
# on a 0.15 wash measured 3.9:1 in the review's frames, which paint a held chip's wash twice; 0.08 keeps 4.7:1 there)


def recap_token(i: int) -> ManimColor:
    """Token ``i``'s colour on the recap's permutation (:data:`RECAP_TOKENS`)."""
    return RECAP_TOKENS[i % len(RECAP_TOKENS)]


def neutral_chip(n: int, size: float = SMALL) -> VGroup:
    """Clip ``n``'s chip (``cards.clip_chip``: its number on a tag) in the neutral grey, its number in the
    foreground colour: on the recap a chip names the clip that measured a proof, nothing more."""
    chip = clip_chip(n, size=size)
    chip.box.set_stroke(NEUTRAL).set_fill(NEUTRAL, opacity=0.2)
    chip.num.set_color(FG)
    return chip


def token_order(icon) -> tuple[list[int], list[int]]:
    """The permute icon's tokens: for its top row and its bottom row, which token (0 to 3) each box is, read
    from the shades it draws them in (a box below has its token's shade above), and for each link the token
    it carries (a link ``k`` runs from the top box of its token to bottom box ``k``)."""
    boxes = [s for s in icon.shapes if type(s).__name__ == "Box"]
    top, bottom = boxes[:len(boxes) // 2], boxes[len(boxes) // 2:]
    shades = [b.alpha for b in top]
    below = [shades.index(b.alpha) for b in bottom]
    return list(range(len(top))), below


def seated(line: VGroup) -> VGroup:
    """``line`` with each one-letter formula whose glyph has a tail under the line (``Q``) set on the baseline:
    the worded line seats a formula by its glyphs' lowest point, which for ``Q`` is its tail, so the letter
    stood raised over the words (review round 4b: "rotate Q and K", checked in crops)."""
    for p in getattr(line, "maths", []):
        code = p.typst_code.strip("$ ")
        if code in TAILED:
            p.shift(tail_depth(code, p.height) * DOWN)
    return line


TAILED = ("Q",)  # one-letter formulas whose glyph reaches under the baseline


def tail_depth(letter: str, height: float) -> float:
    """How far ``letter``'s glyph reaches under the baseline, for the letter typeset ``height`` tall: an ``O``
    beside it sits on the baseline (the bottoms of the two glyphs in one formula)."""
    pair = math(f"O {letter}", size=LABEL)
    o, q = pair.submobjects[0], pair.submobjects[-1]
    return (o.get_bottom()[1] - q.get_bottom()[1]) * height / q.height


def _cache_marks(pic: VGroup, labelled: bool) -> None:
    """The KV cache as clip 05 marks it: its arrow gone, the row each column appended this step outlined in the
    highlight's yellow and named on it (``k_m``, ``v_m``); with ``labelled``, the columns named "K cache" and "V
    cache" over them (as in 05), the rows kept from earlier steps framed and named "cached", and "new" in the
    highlight's yellow beside the new row."""
    from scenes.kit import HIGHLIGHT, KEY, VALUE
    from scenes.kit.binding import role
    from scenes.figures.causal import M

    bars = list(pic.submobjects[:8])
    pointer, letters = pic.submobjects[8], pic.letters
    pic.remove(pointer, letters)
    if labelled:  # the question's drawing: the rows taller, so the cache fills its square as the tokens fill theirs
        VGroup(*bars).stretch(cache_stretch(VGroup(*bars)), 1)
    cols = (bars[:4], bars[4:])
    new_rows = VGroup()
    names_ = VGroup(*[math(f"{n}_{M}", size=LABEL, color=BG) for n in ("k", "v")])
    names_.scale(min(1.0, 0.8 * cols[0][-1].height / max(t.height for t in names_)))  # one size for both names
    legible = all(legible_scale(t, 1.05 * MIN_XHEIGHT_PX) <= 1.0 for t in names_)  # (at 854×480)
    for col, t in zip(cols, names_):
        bar = col[-1]
        ring = RoundedRectangle(corner_radius=0.06, width=bar.width + 0.1, height=bar.height + 0.1,
                                stroke_color=HIGHLIGHT, stroke_width=4).move_to(bar).set_fill(opacity=0)
        new_rows.add(role(ring, "highlight"))
        t.move_to(bar)
        overlay(bar, ring, *([t] if legible else []))
    if not legible:  # both names on their bars where both read, else neither (the colours and the tag name them)
        names_ = VGroup()
    pic.add(new_rows, names_)
    pic.new_rows, pic.row_names = new_rows, names_
    pic.heads = VGroup()
    pic.tags = VGroup()
    if not labelled:
        pic.add(letters)
        return
    heads = VGroup(role(label("K cache", size=LABEL, color=KEY), "key"),
                   role(label("V cache", size=LABEL, color=VALUE), "value"))
    for h, col in zip(heads, cols):
        h.next_to(VGroup(*col), UP, buff=GAP.small)
    if heads[0].get_right()[0] + GAP.small > heads[1].get_left()[0]:  # narrow columns: their letters alone
        heads = VGroup(*[role(math(n, size=LABEL, color=c), r).next_to(VGroup(*col), UP, buff=GAP.small)
                         for n, c, r, col in (("K", KEY, "key", cols[0]), ("V", VALUE, "value", cols[1]))])
    base = min(baseline_y(h) for h in heads)
    for h in heads:
        h.shift((base - baseline_y(h)) * UP)
    kept = VGroup(*cols[0][:-1], *cols[1][:-1])
    frame = RoundedRectangle(corner_radius=0.08, width=kept.width + 0.24, height=kept.height + 0.2,
                             stroke_color=DIM, stroke_width=2.5).move_to(kept).set_fill(opacity=0)
    cached = label("cached", size=LABEL, color=DIM).next_to(frame, LEFT, buff=GAP.small)
    new = role(label("new", size=LABEL, color=HIGHLIGHT), "highlight")
    new.next_to(new_rows[0], LEFT, buff=GAP.small).align_to(cached, RIGHT)
    pic.add(heads, frame, cached, new)
    pic.heads, pic.tags, pic.frame = heads, VGroup(cached, new), frame


CACHE_TALL = 0.9  # the labelled cache drawing's height, as a share of its width
CACHE_STRETCH = 2.2  # at most this many times its rows' drawn height


def cache_stretch(bars: VGroup) -> float:
    """How many times taller the cache's ``bars`` are drawn (at most ``CACHE_STRETCH``) for the labelled drawing to
    stand ``CACHE_TALL`` times as tall as it is wide: its width is the tag "cached", the frame and the two columns,
    its height the heads over the columns and the columns (the labels keep their size; only the rows grow)."""
    tag, head = label("cached", size=LABEL), label("K cache", size=LABEL)
    wide = tag.width + GAP.small + bars.width + 2 * 0.12
    col = CACHE_TALL * wide - head.height - GAP.small - 0.1
    return float(np.clip(col / bars.height, 1.0, CACHE_STRETCH))


def _dial_marks(pic: VGroup, labelled: bool) -> None:
    """RoPE's dial: q and k named with their positions (``q_m``, ``k_n``), and the arc between them named "changes
    by ``(m − n)θ``": what rotating by position adds to their angle, the only part of it the positions set."""
    from scenes.figures.causal import M, NN

    letters = pic.letters
    for i, code in ((0, f"q_{M}"), (1, f"k_{NN}")):
        old = letters[i]
        new = math(code, size=LABEL, color=old.get_color())
        new.scale(old.height / math(code[0], size=LABEL).height)
        new._role = getattr(old, "_role", None)
        new.move_to(old).align_to(old, UP + (RIGHT if i == 0 else LEFT))  # q_m grows away from its pointer
        letters.submobjects[i] = new
    pic.arc_name = VGroup()
    if not labelled:
        return
    arc = pic.submobjects[1]
    mid = arc.point_from_proportion(0.5)
    centre = pic.submobjects[0].get_center()
    out = (mid - centre) / np.linalg.norm(mid - centre)
    # the angle between q_m and k_n is their angle before rotation plus (m − n)θ: the arc says what RoPE adds, not
    # the whole angle (review round 6: "(m − n)θ" on the arc held only for q and k aligned before rotation)
    name = VGroup(label("changes by", size=LABEL, color=FG), math(f"({N.offset.math}) theta", size=LABEL, color=FG))
    name.arrange(DOWN, buff=GAP.hair)
    name.words, name.maths = [name[0]], [name[1]]
    name.move_to(mid + out * (GAP.small + 0.5 * max(name.width, name.height) * 0.8))
    v = VGroup(pic.submobjects[4], pic.letters[2])  # the upright v and its name stand apart, right of the dial; the
    ring = pic.submobjects[0]                        # arc's name over the dial, over the arc, clear of v's tip (the arc
    name.next_to(ring, UP, buff=GAP.small)           # lies between the two hands, inside the ring)
    name.set_x(max(name.get_x(), mid[0]))
    q_name = letters[0]  # clear of q_m's name, up and to the left of the arc
    if name.get_bottom()[1] < q_name.get_top()[1] + GAP.tight:
        name.shift(max(0.0, q_name.get_right()[0] + GAP.small - name.get_left()[0]) * RIGHT)
    lift = v.get_top()[1] + GAP.small - name.get_bottom()[1]
    if name.get_right()[0] > v.get_left()[0] - GAP.small and lift > 0:
        name.shift(lift * UP)
    pic.add(name)
    pic.arc_name = name


def _wall_marks(pic: VGroup, labelled: bool) -> None:
    """The table and the dial, each named over it ("GPT-2", "RoPE"); on the dial, as clip 14's close draws it, the
    arc the pair swept in training in the seen colour and named "training" beside it, and the angles past it up to
    the hand in the unseen pale blue; with ``labelled`` the hand's angle named there, "≈ 81°, never seen" (the deck's
    convention: a new angle is a measurement, no ✓ and no ✗).  ``.table`` and ``.dial`` are its halves."""
    from manim import Arc

    from scenes.kit.binding import role
    from scenes.kit.theme import SEEN, UNSEEN

    parts = list(pic.submobjects)
    table, dial = VGroup(*parts[:6]), VGroup(*parts[6:9])
    pic.remove(*parts)
    dial.shift((VGroup(*parts[:6]).get_right()[0] + GAP.normal - dial.get_left()[0]) * RIGHT)  # one picture, side by side
    ring, arc, hand = parts[6:9]
    c = ring.get_center()

    def angle(pt) -> float:
        return float(np.arctan2(pt[1] - c[1], pt[0] - c[0]) % (2 * np.pi))

    radius = float(np.linalg.norm(arc.points[0] - c))
    arc_end, hand_at = angle(arc.points[-1]), angle(hand.get_end())
    past = (hand_at - arc_end) % (2 * np.pi)
    wedge = VGroup()
    if past > 1e-9 and past < 2 * np.pi - 1e-6:  # the angles past training's arc up to the hand: never swept
        wedge = role(Arc(radius=radius, start_angle=arc_end, angle=past, arc_center=c, stroke_color=UNSEEN,
                         stroke_width=arc.get_stroke_width()), "unseen")
        dial.add(wedge)
    pic.wedge = wedge
    names_ = VGroup()
    pic.arc_words = VGroup()
    pic.hand_words = VGroup()
    if labelled:
        from scenes.figures.extrapolation import degrees

        words = role(label("training", size=SMALL, color=SEEN), "seen")
        # beside its arc, at the arc's middle (round 6: under the pivot it read as the hand's name): just inside the
        # ring against the arc where it clears the hand (outside, it widens the drawing and the dial shrinks), else
        # outside the arc, as clip 14 names it
        arc_from = angle(arc.points[0])
        mid = arc_from + ((arc_end - arc_from) % (2 * np.pi)) / 2
        side_ = RIGHT if np.cos(mid) >= 0 else LEFT
        at = c + (ring.width / 2 - GAP.tight) * np.array([np.cos(mid), np.sin(mid), 0.0])
        words.move_to(at, aligned_edge=side_)
        h0, h1 = hand.get_start(), hand.get_end()
        y = float(np.clip(words.get_y(), min(h0[1], h1[1]), max(h0[1], h1[1])))
        hand_x = h0[0] + (h1[0] - h0[0]) * ((y - h0[1]) / (h1[1] - h0[1]) if abs(h1[1] - h0[1]) > 1e-9 else 0.0)
        if abs(hand_x - words.get_x()) < words.width / 2 + GAP.small:  # it would meet the hand: outside
            out = c + (radius + GAP.tight) * np.array([np.cos(mid), np.sin(mid), 0.0])
            words.next_to(out, side_, buff=GAP.tight)
        # the hand's angle over the dial, on one line clear of its top edge (review round 7: "≈ 81°" stacked on "never
        # seen" sat on the ring), in the unseen colour and the deck's one term: an unseen angle, measured (no mark)
        hw = role(worded_line(f"$approx {degrees(hand_at)}°$, an unseen angle", size=SMALL, color=UNSEEN), "unseen")
        hw.next_to(VGroup(ring, arc, wedge), UP, buff=GAP.normal)
        tip = hand.get_end()[0]  # from over the hand's tip rightwards, no further right than the words of the arc
        hw.align_to(np.array([tip - GAP.normal, 0, 0]), LEFT)
        hw.shift(min(0.0, max(VGroup(ring, arc).get_right()[0], words.get_right()[0]) - hw.get_right()[0]) * RIGHT)
        hw.figure = hw.maths[0]
        # each part named under it, both on one line: over the dial stands the hand's angle
        t_name = label("GPT-2", size=LABEL, color=FG).next_to(VGroup(*parts[:6]), DOWN, buff=GAP.small)
        d_name = label("RoPE", size=LABEL, color=FG).next_to(ring, DOWN, buff=GAP.small)
        base = min(baseline_y(t_name), baseline_y(d_name))
        for n_ in (t_name, d_name):
            n_.shift((base - baseline_y(n_)) * UP)
        names_.add(t_name, d_name, words, hw)
        pic.arc_words, pic.hand_words = words, hw
    pic.add(table, dial, names_)
    pic.table, pic.dial, pic.names = table, dial, names_
    pic.ring, pic.arc, pic.hand = ring, arc, hand


def toy_wall_icon(cfg):
    """The fourth answer's icon for the close, drawn for the figure it carries (review round 6: its hand stood 54°
    past its arc beside a count clip 13 measured at 0.007° to 5° past): the toy head's pair (``LLAMA2.head_dim``
    wide, the config's base) that is furthest past its training arc one step past ``L`` (the unseen pair with the
    largest step θᵢ), its arc (L − 1)·θᵢ and its hand at L·θᵢ, just past it.  With no pair unseen there, the slowest
    pair, its arc the whole circle."""
    from dataclasses import replace

    from scenes.kit.icons import Bend, Pointer

    i, arc, hand = toy_pair(cfg)
    icon = RECAP_ICONS[3]
    shapes = []
    for s_ in icon.shapes:
        if type(s_) is Bend:
            s_ = replace(s_, span=float(np.degrees(arc)))
        elif type(s_) is Pointer:
            r = float(np.hypot(s_.x1 - s_.x0, s_.y1 - s_.y0))
            s_ = replace(s_, x1=s_.x0 + r * np.cos(hand), y1=s_.y0 + r * np.sin(hand))
        shapes.append(s_)
    return replace(icon, shapes=tuple(shapes))


def toy_pair(cfg) -> tuple[int, float, float]:
    """Clip 13's toy head (``LLAMA2.head_dim`` wide, the config's base) one step past ``L``: the pair at an unseen
    angle furthest past its training arc (the largest step θᵢ among them), ``(pair, arc (L − 1)·θᵢ, angle L·θᵢ)`` in
    radians, from mathcore; with none unseen, the slowest pair (its arc capped at the whole circle)."""
    from mathcore.extrapolation import LLAMA2, pair_angles, training_arcs
    from mathcore.measure import rope_unseen_pairs

    d, L, b = LLAMA2.head_dim, cfg.train_length, cfg.rope_base
    unseen = np.flatnonzero(rope_unseen_pairs([L], d, L, b)[0])
    i = int(unseen[0]) if len(unseen) else d // 2 - 1  # pairs run fast to slow: the first unseen steps furthest
    return i, float(training_arcs(d, L, b)[i]), float(pair_angles(L, d, b)[i])


def _permute_marks(pic: VGroup, labelled: bool) -> None:
    """The four tokens on chips, each in its own colour of :data:`RECAP_TOKENS` (each chip's frame and name in its
    token's colour, as 02 draws x 0 to x 3), each link in the colour of the token it carries; with ``labelled``, the rows named
    X (above) and P X (below)."""
    icon = RECAP_ICONS[0]
    top, below = token_order(icon)
    n_links = sum(type(s).__name__ == "Stroke" for s in icon.shapes)
    boxes = [pic[n_links + j] for j in range(len(top + below))]
    for j in range(n_links):
        pic[j].set_stroke(recap_token(below[j]), opacity=0.9)
    names_ = VGroup()
    for box, t in zip(boxes, top + below):
        c = recap_token(t)
        box.set_stroke(c, width=3).set_fill(c, opacity=TOKEN_FILL)
        name = math(f"x_{t}", size=LABEL, color=c)
        fill = (0.62, 0.7) if labelled else (0.7, 0.8)  # a thumbnail's names fill more of their chips: they stay legible
        name.scale(min(fill[0] * box.height / name.height, fill[1] * box.width / name.width))
        names_.add(name.move_to(box))
    pic.add(names_)
    overlay(*boxes, *names_)  # each name sits on its chip
    pic.letters = names_
    pic.tokens = top + below
    pic.rows_named = VGroup()
    if labelled:
        n = len(top)
        rows = VGroup(math("X", size=LABEL), math("P X", size=LABEL))
        for r, first in zip(rows, (boxes[0], boxes[n])):
            r.next_to(first, LEFT, buff=GAP.small)
        pic.add(rows)
        pic.rows_named = rows
        pic.spread = lambda extra: _spread(pic, boxes, n_links, extra)
        pic.spread(max(0.0, pic.width - pic.height) / 2)  # as tall as wide, names included: it fills its square


def _spread(pic: VGroup, boxes, n_links: int, extra: float) -> None:
    """The permutation's two rows ``extra`` further apart each, its links stretched between them (still from a
    chip's bottom edge to its new place's top edge)."""
    n = len(boxes) // 2
    upper = VGroup(*boxes[:n], *pic.letters[:n], pic.rows_named[0])
    lower = VGroup(*boxes[n:], *pic.letters[n:], pic.rows_named[1])
    gap = VGroup(*boxes[:n]).get_bottom()[1] - VGroup(*boxes[n:]).get_top()[1]
    mid = np.array([0.0, VGroup(*boxes[:n]).get_bottom()[1] - gap / 2, 0.0])
    for j in range(n_links):
        pic[j].stretch((gap + 2 * extra) / gap, 1, about_point=mid)
    upper.shift(extra * UP)
    lower.shift(extra * DOWN)


MARKS = {"permute": _permute_marks, "cache": _cache_marks, "rotate": _dial_marks, "wall": _wall_marks}


def recap_drawing(k: int, side: float, labelled: bool = True, icon=None) -> VGroup:
    """Answer ``k``'s icon (the shape description its still draws too), no more than ``side`` units either way,
    its largest side exactly ``side``, in the neutral foreground ink with the concept colours of ``RECAP_PAINT``
    (q, k, v), marked by :data:`MARKS` as the source clips mark their pictures: 02's token colours, 05's new row
    and its tag, 11's angle ``(m − n)θ``, 14's names.  The words on it (``labelled``: the large drawing of each
    question) keep the labels' size: the drawing under them shrinks until the whole fits.  ``icon``: another
    description of the same idea (the close's toy dial, :func:`toy_wall_icon`)."""
    icon = icon or RECAP_ICONS[k]
    s = side
    for _ in range(4):
        pic = drawing(icon, FG, s, RECAP_PAINT[k])
        if not hasattr(pic, "letters"):
            pic.letters = VGroup()
        MARKS[icon.name](pic, labelled)
        big = max(pic.width, pic.height)
        if big <= side + 1e-6 and big >= 0.98 * side:
            break
        s *= side / big
    pic.scale(side / max(pic.width, pic.height))
    pic.icon = icon
    return pic


@dataclass(frozen=True)
class Answer:
    question: str
    answer: str
    home: tuple[Clip, ...]  # the clips that answer the diary question (its colour: their family's)
    proofs: tuple[DiaryProof, ...]  # the measured proofs, each from its clip
    key: int  # the proof the close keeps
    takeaway: str = ""  # what the kept proof means, in a few words, under it on the close ("rounding noise")
    also: tuple[int, ...] = ()  # more proofs the close keeps, under the first and above the takeaway
    shared: str = ""  # a condition all its proofs share, once under them on the panel ("sums in a fixed order")

    @property
    def clips(self) -> tuple[Clip, ...]:
        """The clips that measured the proofs, in order, each once."""
        return tuple(clip_of(n) for n in dict.fromkeys(p.clip for p in self.proofs))


@dataclass(frozen=True)
class RecapData:
    answers: tuple[Answer, ...]
    next_lecture: int  # the lecture after this one
    train_length: int
    n_trials: int


def icon_words(doc: str) -> str:
    """An icon's description as part of a sentence: ``A K and a V cache …`` -> ``a K and a V cache …``
    (``RoPE: …`` stays as it is)."""
    doc = doc.rstrip(".")
    first = doc.split()[0]
    return doc[0].lower() + doc[1:] if len(first) == 1 or first[1:].islower() else doc


def icon_said(pic: VGroup) -> str:
    """What answer's drawing ``pic`` shows, as an audio description says it, read from what :data:`MARKS` drew on
    it (the tokens it names, the rows it tags, the names over its parts)."""
    name = pic.icon.name
    if name == "permute":
        n = len(pic.tokens) // 2
        said = (f"{n} tokens, x 0 to x {n - 1}, on chips, each in its own colour, and under them the same {n} in "
                "another order, each joined to its new place: the tokens only move")
        return ("a row named X of " + said.replace("under them the", "under them, named P X, the")
                if len(pic.rows_named) else said)
    if name == "cache":
        if not len(pic.tags):
            return "a K cache and a V cache, the row each appended this step outlined in yellow"
        named = ", k m and v m," if len(pic.row_names) else ""
        return ("a K cache and a V cache, named over their columns, the K rows in the key's colour and the V rows in "
                "the value's; the rows kept from earlier steps framed and named cached, and the one row each column "
                f"appended this step{named} outlined in yellow and named new")
    if name == "rotate":
        arc = ", the arc between them named: changes by (m − n) θ" if len(pic.arc_name) else ""
        return (f"RoPE's dial: q m in the query's colour and k n in the key's turn by their positions{arc}; v, in "
                "the value's colour, stands apart, unturned")
    if name == "wall":
        from scenes.figures.extrapolation import degrees

        if not len(getattr(pic, "arc_words", [])):
            return ("GPT-2's learned table ending at its last row (a red wall), beside RoPE's dial, its hand just past "
                    "the violet arc the pair swept in training")
        return ("GPT-2's learned table, named under it, ending at its last row (a red wall), beside RoPE's dial, "
                f"named under it, larger: the violet arc named training that LLaMA-2's slowest pair swept in "
                f"training, then a pale-blue stretch up to its hand, over which ≈ {degrees(far_pair()[2])}°, an unseen "
                "angle")
    return icon_words(pic.icon.doc)


_QUOTED = re.compile(r'"([^"]*)"')


def _words(typst: str) -> list[re.Match]:
    """The quoted words of a Typst formula that are words of the sentence: not a quoted sub- or superscript
    (``Y_"full"``), nor an operator's name (``"Attn"(X)``)."""
    return [m for m in _QUOTED.finditer(typst) if not typst[:m.start()].rstrip().endswith(("_", "^"))
            and not typst[m.end():].startswith(("(", "_", "^"))]


def worded(typst: str) -> str:
    """Typst with quoted words (``"V rotated:" max abs(Delta Y)``) as a worded line's source: the words in the
    sans, the rest as ``$math$`` (``V rotated: $max abs(Delta Y)$``)."""
    out, pos = [], 0
    for m in _words(typst):
        out += [("math", typst[pos:m.start()]), ("words", m.group(1))]
        pos = m.end()
    out.append(("math", typst[pos:]))
    return " ".join(f"${t.strip()}$" if kind == "math" else t.strip() for kind, t in out if t.strip())


def proof_verdict(p: DiaryProof, size: float) -> VGroup:
    """A proof's verdict in the deck's one style: ✓ or ✗, then the measured line.  A formula that is all math
    is a :func:`verdict`; one with words (``"V rotated:" …``) a :func:`worded_verdict`, its words in the sans,
    its math typeset, its figure last (``= 1.6``, ``≈ 1.1 × 10⁻¹⁶``; a figure with words, ``47 of 64``, after
    a colon)."""
    if p.passed is None:
        return measurement(p, size)
    if not _words(p.formula):
        return verdict(p.formula, p.figure, p.passed, size=size)
    f = p.figure
    words = mathed(worded(p.formula))  # "V left alone:" -> "$V$ left alone:"
    if _words(f.math):  # a figure with words ("47 of 64"): the words carry it
        v = worded_verdict(f"{words}: {worded(f.math)}", None, p.passed, size=size)
        v.figure, v.value = f, v.line
        return v
    if not f.approx:  # "=" before an exact figure, "≈" before a rounded one (1.6 for 1.59…); a noise figure
        rel = "approx" if numbers.rounded(f) else "="  # brings its own "≈"
        words = words[:-1] + f" {rel}$" if words.endswith("$") else words + f" ${rel}$"
    return worded_verdict(words, f, p.passed, size=size)

CLOSE_PICTURES = ("the permutation", "the K and V cache", "RoPE's dial",
                  "GPT-2's table with its red wall beside a dial whose hand stands one step past its training arc")


def close_said(p: DiaryProof) -> str:
    """What a close card's one line shows, as the description says it: what the figure measures, then the mark and
    the figure (``the equivariance defect (a Frobenius norm): a green check, ≈ 4.7 × 10⁻¹⁶ (clip 02)``); the count of
    unseen angles as its line writes it (``in pale blue, no mark, a measurement: 47 of 64 pairs (clip 13), …``)."""
    if p.passed is None:
        shown = re.match(r"\d+ of \d+ pairs", p.figure.text).group(0)
        return (f"in pale blue, no mark, a measurement: {shown} (clip {p.clip:02d}), the toy head's pairs at unseen "
                "angles one step past training")
    mark = "a green check" if p.passed else "a red cross"
    what = p.brief or p.words.split(",")[0]
    return f"{what}: {mark}, {p.figure.text.replace('exactly 0', '0 exact')} (clip {p.clip:02d})"


def measurement(p: DiaryProof, size: float) -> VGroup:
    """A measured fact that is not a verdict (the deck's convention for a RoPE pair turned past its training arc: a
    new angle, neither a success nor a failure): the worded line alone, no ✓ and no ✗, in the unseen colour
    (``47 of 64 pairs at unseen angles``).  Like a verdict: ``.line``, ``.value`` (the line), ``.figure``, ``.check``
    (empty), ``.passed`` (None)."""
    from scenes.kit.binding import role
    from scenes.kit.theme import UNSEEN

    line = role(worded_line(f"{mathed(worded(p.formula))}: {worded(p.figure.math)}", size=size, color=UNSEEN),
                "unseen")
    g = VGroup(line)
    g.line, g.value, g.figure, g.check, g.passed = line, line, p.figure, VGroup(), None
    g.formula = p.formula
    return g


class Recap(ClipScene):
    """15 · The four diary questions, one a beat, each answered and proved by the clips' measurements."""

    STAGED = True
    CLOSING_HOLD = 2.0
    KEYS = ("q1", "q2", "q3", "q4")

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> RecapData:
        Q, K, V = N.queries.text, N.keys.text, N.values.text
        q1, q2, q3, q4 = diary_proofs(cfg)
        qa = (
            ("Why is the equivariance defect only floating-point noise?",
             f"{N.permutation.text} only reorders the tokens: each sum adds the same terms in another order.", (2,),
             q1, 0),
            ("How does causal prefix invariance make KV caching correct?",
             f"Past outputs never change: cache {K} and {V}; each step appends one row to each.", (4, 5), q2, 2),
            (f"Why does RoPE rotate {Q} and {K}, but not {V}?",
             # (review round 9: "scores depend on m − n alone" read as if content did not matter)
             f"Position enters scores only as {N.offset.text}; {V} is content, not position.", (11,), q3, 0),
            # one symbol for a position, m, as in the verdicts (review round 5: nₘₐₓ = 1024 here, m ≥ 1024 there)
            ("Why did GPT-2's table give way to RoPE?",
             "A table has a last row; RoPE has none, but meets unseen angles.", (13, 14), q4, 0),
        )
        # what each kept verdict means, in three to five words, beside it on the close (review round 5: the close
        # left four bare formulas); worded by the verdict, so a config where a proof fails never says it held
        takeaways = (
            "rounding noise" if q1[0].passed else "more than rounding noise",
            "the past never changes" if all(p.passed for p in q2) else "the past changed",
            f"scores see only {N.offset.text}" if q3[0].passed else f"scores see more than {N.offset.text}",
            # the fourth card keeps GPT-2's ✗, RoPE's ✓ and clip 13's count, then what they mean (review round 7: the
            # close had dropped the ✓ and had no meaning line)
            "no wall, but unseen angles" if q4[2].figure.value > 0 else "no wall, no unseen angle",
        )
        # the close keeps one measured figure an answer (review round 10: four cards of ~60 words, a wall of text):
        # 02's defect, 05's cached outputs, 11's outputs with V left alone and 13's count of unseen angles, the one
        # the fourth card's dial draws; the question's panel gave GPT-2's ✗ and RoPE's ✓ in full
        keys = (0, 2, 0, 2)
        also = ((), (), (), ())
        shared = ("", "outputs summed in a fixed order", "", "")  # q2: once under its three one-liners (round 7)
        return RecapData(
            answers=tuple(Answer(q, a, tuple(clip_of(n) for n in home), proofs, key, t, also[k], shared[k])
                          for k, ((q, a, home, proofs, _), t) in enumerate(zip(qa, takeaways, strict=True))
                          for key in (keys[k],)),
            next_lecture=cfg.number + 1, train_length=cfg.train_length, n_trials=cfg.n_trials,
        )

    # ------------------------------------------------------------------ what the sentences fill in
    def caption_values(self) -> dict:
        d = self.data
        q4 = d.answers[3].proofs
        out = {"pairs": LLAMA2.head_dim // 2, "head": LLAMA2.head_dim}
        shown = getattr(self, "cards", None)
        if shown is None:  # the title card: nothing of the recap on screen yet
            return out
        for k, (key, a, card) in enumerate(zip(self.KEYS, d.answers, shown)):
            out[f"{key}_proofs"] = claim("; ".join(p.described() for p in a.proofs), *card.verdicts)
            out[f"{key}_clips"] = claim(_clips_text(a.clips), *card.chips)
            out[f"{key}_icon"] = claim(icon_said(card.drawing), card.drawing)
        c1, c3 = shown[0], shown[2]
        out["q1_figure"] = claim(d.answers[0].proofs[0].figure.text, c1.verdicts[0])
        out["q3_rot"] = claim(d.answers[2].proofs[1].figure.text, c3.verdicts[1])
        out["q4_unseen"] = claim(str(int(q4[2].figure.value)), shown[3].verdicts[2])
        out["q4_L"] = claim(count(self.cfg.train_length).text, shown[3].verdicts[2])
        out["q4_n_max"] = claim(count(GPT2.n_max).text, shown[3].verdicts[0])
        out["head"] = claim(str(LLAMA2.head_dim), shown[3].proofs[2].note)
        base = self.cfg.rope_base
        out["q4_base"] = claim(base_figure(base).text, shown[3].proofs[2].note)
        times = far_pair()[1] // LLAMA2.train_length
        out["q4_times"] = claim({2: "twice", 3: "three times"}.get(times, f"{times} times"), shown[3].proofs[1].note)
        out["q4_far"] = claim(count(far_pair()[1]).text, shown[3].proofs[1].note)
        from scenes.figures.extrapolation import degrees

        out["q4_deg"] = claim(str(degrees(far_pair()[2])), shown[3].drawing.hand_words.figure)
        close = self.close_rows

        def kept(a: Answer) -> str:
            return f"under {CLOSE_PICTURES[d.answers.index(a)]}, {close_said(a.proofs[a.key])}, under it \u201c{a.takeaway}\u201d"

        out["close_verdicts"] = claim("; ".join(kept(a) for a in d.answers), *close.verdicts, *close.takes,
                                      # the pictures: the last card's is the fourth question's, moved onto it
                                      *[r.drawing for r in close.rows[:-1]], shown[3].drawing.table,
                                      shown[3].drawing.dial)
        out["close_next"] = claim(f"lecture {d.next_lecture}", close.next)
        out["close_lecture"] = claim(str(d.next_lecture), close.next.lecture)
        return out

    def q4_key(self) -> str:
        """The fourth answer's sentence: RoPE's pairs one step past training meet unseen angles, or, when
        training was long enough for every pair to wrap, none does."""
        return "q4" if self.data.answers[3].proofs[2].figure.value > 0 else "q4_none"

    # ------------------------------------------------------------------ one question a beat
    def proof_block(self, a: Answer, width: float, height: float) -> VGroup:
        """``a``'s proofs, one under the other: each verdict, and beside it (or under it, when that sets the
        proofs larger) the chip of the clip that measured it and what it compared.  The verdicts share one
        left edge, so do the tags; as large as ``width`` × ``height`` allows, up to ``PROOF_GROW``."""

        def build(beside: bool) -> VGroup:
            items = []
            for p in a.proofs:
                v = proof_verdict(p, HEADING)
                chip = neutral_chip(p.clip, size=SMALL)
                if p.note:
                    note = worded_text(glued(p.note), LABEL, color=NOTE)  # "permutations $P$", "$L = 64$"
                    tag = row(chip, note, gap="small")
                    note.shift((baseline_y(chip.num) - line_baseline(note)) * UP)
                else:  # a one-liner: its chip alone, beside it (review round 6: q2's panel a notebook page)
                    note = VGroup()
                    note.words, note.maths = [], []
                    tag = VGroup(chip)
                items.append((v, chip, note, tag))
            v_w = max(v.width for v, *_ in items)
            block = VGroup()
            for v, chip, note, tag in items:
                if beside or not len(note):  # the tag in a second column, centred on the verdict's line
                    tag.move_to([v.get_left()[0] + (v_w if beside else v.width) + GAP.normal, v.value.get_y(), 0],
                                aligned_edge=LEFT)
                else:  # the tag under the verdict's formula
                    tag.next_to(v, DOWN, buff=GAP.hair, aligned_edge=LEFT)
                    tag.shift((getattr(v, "line", v.value).get_left()[0] - chip.get_left()[0]) * RIGHT)
                one = VGroup(v, tag)
                one.verdict, one.chip, one.note, one.tag = v, chip, note, tag
                block.add(one)
            block.arrange(DOWN, buff=GAP.small, aligned_edge=LEFT)
            block.shared = VGroup()
            if a.shared:  # the condition every proof shares, once under them where their words start, with the last
                shared = worded_text(glued(a.shared), LABEL, color=NOTE)
                words_at = min(getattr(one.verdict, "line", one.verdict.value).get_left()[0] for one in block)
                shared.next_to(block, DOWN, buff=GAP.small).set_x(words_at, LEFT)
                block[-1].add(shared)
                block.shared = shared
            # a measurement (no mark) starts where the verdicts' words do, under them, not under their marks
            marked = [one.verdict for one in block if one.verdict.passed is not None]
            if marked:
                indent = min(getattr(v, "line", v.value).get_left()[0] for v in marked) - block.get_left()[0]
                for one in block:
                    if one.verdict.passed is None:
                        one.shift(indent * RIGHT)
            block.fit = min(PROOF_GROW, width / block.width, height / block.height)
            return block

        beside, under = build(True), build(False)
        block = beside if beside.fit >= under.fit - 1e-9 else under
        block.least = legible_scale(block, LEGIBLE_PX)  # the smallest scale its texts stay legible at
        return block.scale(block.fit)  # ``.fit``: the scale it was set at

    def make_cards(self, share: float = ICON_SHARES[-1], last: float | None = None) -> list[VGroup]:
        """One frame per question: the question along the top; under it, at the left, the answer's icon,
        large (the same size and place for every question), its queries, keys and values in their concept
        colours; at the right the answer, large, and under it the answer's proofs on a panel framed in the
        answer's colour (see :meth:`proof_block`), the two centred on the icon."""
        content = self.layout.content
        d = self.data
        pad = GAP.tight
        qs = [fit_worded(a.question, content.width, size=HEADING, color=DIM, max_lines=2) for a in d.answers]
        tallest = max(q.height for q in qs)
        cards = []
        for k, (a, q) in enumerate(zip(d.answers, qs)):
            color = NEUTRAL  # panels, chips and icons carry no colour of their own (review R2: no one meaning)
            content.place(q, UP + LEFT)
            body = Region(content.left, content.right, content.bottom, content.top - tallest - GAP.normal)
            side = min(body.height, (last if last is not None and k == len(d.answers) - 1 else share) * body.width)
            if side < MIN_ICON - 1e-6:
                raise LayoutError(f"question {k + 1}: {side:.2f} units left for its icon (at least {MIN_ICON})")
            icon_at, right = body.take_left(side, gap=GAP.wide)
            pic = recap_drawing(k, side)
            if hasattr(pic, "spread"):  # the permutation grows as tall as its column: its links read as moves
                pic.spread(max(0.0, icon_at.height - pic.height) / 2)
            icon_at.place(pic)
            # the answer as large as leaves its proofs as large as they are under the smallest answer
            best = None
            for grow in reversed(ANSWER_SIZES):  # smallest first: the proofs' size to keep
                ans = fit_worded(a.answer, right.width, size=HEADING * grow, color=FG, weight="BOLD", max_lines=3)
                right.place(ans, UP + LEFT)
                low = right.below(ans, gap=GAP.normal)
                proofs = self.proof_block(a, low.width - 2 * pad, low.height - 2 * pad)
                if best is not None and proofs.fit < best[3] - 1e-6:
                    break
                if best is not None and not well_broken(a.answer, [ln.text for ln in ans]):
                    continue  # never break a line inside "m − n", never leave one word alone on the last line
                best = (ans, low, proofs, min(proofs.fit, 1.0) if best is None else best[3])
            ans, low, proofs, _ = best
            frame = RoundedRectangle(corner_radius=GAP.tight, width=low.width, height=proofs.height + 2 * pad,
                                     stroke_color=color, stroke_width=2, fill_color=color, fill_opacity=PANEL_FILL)
            frame.move_to(low.point(UP), aligned_edge=UP)
            proofs.move_to(frame).align_to(frame, LEFT).shift(pad * RIGHT)
            overlay(frame, proofs)  # the proofs lie on their panel
            text = VGroup(ans, frame, proofs)
            text.shift((pic.get_y() - text.get_y()) * UP)  # the answer and its proofs beside the icon, centred
            g = VGroup(pic, q, ans, frame, proofs)
            g.drawing, g.q, g.ans, g.frame, g.proofs, g.side = pic, q, ans, frame, proofs, side
            g.verdicts = VGroup(*[p.verdict for p in proofs])
            g.chips = VGroup(*[p.chip for p in proofs])
            g.nums = VGroup(*[p.chip.num for p in proofs])
            cards.append(g)
        return cards

    # ------------------------------------------------------------------ the close: four pictures, one figure each
    def close_figure(self, a: Answer, size: float) -> VGroup:
        """Answer ``a``'s kept proof as the close writes it, one short line: a verdict's mark and its figure alone
        (``✓ ≈ 4.7 × 10⁻¹⁶``, ``✓ 0 exact``; the question's panel named the quantity in full), or, for the count of
        unseen angles, the count in the unseen pale blue, no mark (``47 of 64 pairs``).  The figures are mathcore's,
        as the question's panel printed them.  ``.passed``, ``.figure``, ``.check``, ``.proof`` as a verdict's."""
        from scenes.kit.binding import role
        from scenes.kit.theme import UNSEEN

        p = a.proofs[a.key]
        if p.passed is None:  # "47 of 64 pairs at unseen angles" -> "47 of 64 pairs" (the takeaway says the rest)
            n, of = re.match(r"(\d+) of (\d+) pairs", p.figure.text).groups()
            line = role(worded_line(f"${n}$ of ${of}$ pairs", size=size, color=UNSEEN), "unseen")
            g = VGroup(line)
            g.line, g.value, g.check, g.passed = line, line, VGroup(), None
        else:
            g = verdict("", p.figure, p.passed, size=size)
        g.figure, g.proof = p.figure, p
        return g

    def make_close(self) -> VGroup:
        """The picture the recap ends on: the four answers in a row of cards, each its clip's own picture, large
        (one size for all, the subject), the chip of the clip that measured its kept proof at the card's corner,
        under the picture that proof's figure alone, one line, and under it what it means in a few words, bold; all
        the words at one size.  The questions and the sentences gone (each was answered in full at its beat).  Under
        the row one line, where the lecture goes next: an arrow to lecture ``number + 1``, past the training length."""
        content = self.layout.content
        d = self.data
        n = len(d.answers)
        size = LABEL  # the one size of every word on the close
        figs = [self.close_figure(a, LABEL) for a in d.answers]
        cells = content.columns(*[1.0] * n, gap=CLOSE_GAP)
        inner = cells[0].width - 2 * CLOSE_PAD
        # one size for all the words: LABEL, or less where the widest figure needs it (never under SMALL)
        size = LABEL * min(1.0, inner / max(f.width for f in figs))
        if size < SMALL - 1e-6:
            raise LayoutError(f"the close's figures need {LABEL * inner / max(f.width for f in figs):.1f} < {SMALL}")
        figs = [self.close_figure(a, size) for a in d.answers]
        takes = [fit_worded(a.takeaway, inner, size=size, color=FG, weight="BOLD", max_lines=2) for a in d.answers]
        for t in takes:
            for ln in t:
                ln.set_x(t.get_x())  # each line centred under the figure
        # the last line: where the lecture goes next, at the same size
        lecture = label(f"lecture {d.next_lecture}", size=size, color=FG, weight="BOLD")
        where = label("begins past the training length", size=size, color=DIM)
        arrow = Arrow(ORIGIN, RIGHT * 1.0, buff=0, color=FG, stroke_width=4, max_tip_length_to_length_ratio=0.3)
        nxt = row(arrow, lecture, where, gap="small", align="center")
        where.shift((baseline_y(lecture) - baseline_y(where)) * UP)
        nxt.lecture, nxt.where, nxt.arrow = lecture, where, arrow
        content.place(nxt, DOWN)
        band = content.above(nxt, gap=GAP.wide)
        cells = Region(content.left, content.right, band.bottom, band.top).columns(*[1.0] * n, gap=CLOSE_GAP)
        # the figures on one baseline across the cards, the meanings hanging from one line under them
        base_of = [line_baseline(f.value) for f in figs]
        depth = max(b - f.get_bottom()[1] for f, b in zip(figs, base_of))
        rise = max(f.get_top()[1] - b for f, b in zip(figs, base_of))
        base = cells[0].bottom + CLOSE_PAD + max(t.height for t in takes) + GAP.small + depth
        chip_h = neutral_chip(2, size=SMALL).height
        top, bottom = cells[0].top - CLOSE_PAD - chip_h - GAP.small, base + rise + GAP.normal
        # every picture one size: as large as the narrowest card's width and the height between its chip and its figure
        thumb = min(inner, top - bottom)
        rows = VGroup()
        for k, (a, cell, fig, take) in enumerate(zip(d.answers, cells, figs, takes)):
            p = a.proofs[a.key]
            # the fourth card: the table with its wall beside the toy head's dial, its hand one step past its arc, as
            # clip 13 measured the count the card carries (review round 6)
            pic = recap_drawing(k, thumb, labelled=False, icon=toy_wall_icon(self.cfg) if k == n - 1 else None)
            pic.scale(thumb / max(pic.width, pic.height))
            card = RoundedRectangle(corner_radius=GAP.tight, width=cell.width, height=cell.height,
                                    stroke_color=NEUTRAL, stroke_width=2, fill_color=NEUTRAL,
                                    fill_opacity=PANEL_FILL).move_to(cell.center)
            chip = neutral_chip(p.clip, size=SMALL)
            chip.move_to(card.get_corner(UP + LEFT) + (CLOSE_PAD * RIGHT + CLOSE_PAD * DOWN), aligned_edge=UP + LEFT)
            fig.set_x(cell.center[0]).shift((base - line_baseline(fig.value)) * UP)
            take.set_x(cell.center[0]).shift((base - depth - GAP.small - take.get_top()[1]) * UP)
            pic.move_to([cell.center[0], (top + bottom) / 2, 0])  # centred between the chip and the figure
            overlay(card, pic, chip, fig, take)
            r = VGroup(card, pic, chip, fig, take)
            r.card, r.drawing, r.verdict, r.chip, r.take = card, pic, fig, chip, take
            r.lines, r.chips, r.also = VGroup(), VGroup(), VGroup()
            rows.add(r)
        nxt.set_x(rows.get_x())
        g = VGroup(rows, nxt)
        g.rows, g.next = rows, nxt
        g.verdicts = VGroup(*[r.verdict for r in rows])
        g.takes = VGroup(*[r.take for r in rows])
        g.size = size
        return g

    def make_mobjects(self) -> None:
        # the largest drawing that leaves every question's proofs legible (or as large as the smallest drawing would
        # leave them, where that is smaller still)
        best = [c.proofs.fit for c in self.make_cards(ICON_SHARES[-1])]
        for share in ICON_SHARES:
            self.cards = self.make_cards(share)
            if all(c.proofs.fit >= min(f, c.proofs.least) - 1e-3 for c, f in zip(self.cards, best)):
                break
        self.icon_share = share
        # the last question's picture larger still: RoPE's dial, its hand far past its training arc, is the subject
        # the answer and its proofs stand for (review round 5: two small icons, the subject not the largest thing);
        # as large as keeps its proofs legible and near the size they had beside the common drawing
        keep = self.cards[-1].proofs.fit
        for last in WALL_SHARES:
            if last <= share:
                break
            cards = self.make_cards(share, last)
            p = cards[-1].proofs
            if p.fit >= max(p.least, WALL_KEEP * keep) - 1e-3:
                self.cards, self.last_share = cards, last
                break
        self.close_rows = self.make_close()
        # the last card's measured lines are the fourth question's, turned into the close's (``bring_forward``), and so
        # is its drawing, the table and the dial (its hand turning back to the toy pair's, just past its arc)
        last = self.cards[-1].drawing
        overlay(self.close_rows.rows[-1].card, last.table, last.dial)  # they move onto the last card

    def body(self) -> None:
        self.make_mobjects()
        prev = None
        for k, key in enumerate(self.KEYS):
            c = self.cards[k]
            come = [Create(c.drawing), FadeIn(c.q, shift=GAP.small * DOWN),
                    FadeIn(c.ans, shift=GAP.small * UP), Create(c.frame)]
            proofs = [AnimationGroup(*[FadeIn(p, shift=GAP.small * UP) for p in c.proofs], lag_ratio=0.35)]
            if prev is None:
                anim = Succession(AnimationGroup(*come), *proofs)
            else:
                anim = Succession(FadeOut(prev, shift=GAP.wide * LEFT), AnimationGroup(*come), *proofs)
            self.beat(self.q4_key() if key == "q4" else key, anim, run_time=2.4 if prev is not None else 1.8,
                      subject=VGroup(c.ans, c.frame, c.proofs))
            prev = c

    # ------------------------------------------------------------------ the takeaway: one verdict an answer
    def takeaway(self) -> VGroup:
        return self.close_rows

    def bring_forward(self, take: VGroup, region=None) -> list:
        """The fourth question leaves but its icon and its kept verdict, which move into the last row; the
        other rows and the pointer to the next lecture come in."""
        last = self.cards[-1]
        a = self.data.answers[-1]
        kept = (a.key, *a.also)
        leave = [last.q, last.ans, last.frame, last.drawing.names] + \
            [p for j, p in enumerate(last.proofs) if j not in kept] + \
            [x for j in kept for x in (last.proofs[j].chip, last.proofs[j].note)]
        target = take.rows[-1]
        rest = [*take.rows[:-1], target.card, target.chip, *target.chips, target.take, take.next]
        # the kept line becomes the close's figure (the count alone: "47 of 64 pairs"; the takeaway says the rest)
        moves = [ReplacementTransform(last.verdicts[j], x) for j, x in zip(kept, (target.verdict, *target.lines))]
        moves += [Transform(last.drawing.table, target.drawing.table), Transform(last.drawing.dial, target.drawing.dial)]
        return [Succession(AnimationGroup(*[FadeOut(m) for m in leave]),
                           AnimationGroup(*moves, *[FadeIn(m, shift=GAP.small * UP) for m in rest], lag_ratio=0.12))]

    def closing(self) -> None:
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=2.0, hold=self.CLOSING_HOLD,
                  subject=take)
