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
    RoundedRectangle,
    Succession,
    Transform,
    VGroup,
)

from mathcore.config import LectureConfig
from mathcore.extrapolation import GPT2, LLAMA2
from scenes.catalog import Clip
from scenes.figures.framing import RECAP_ICONS, RECAP_PAINT, DiaryProof, diary_proofs
from scenes.kit import DIM, FG, HEADING, LABEL, SMALL, ClipScene, label, math
from scenes.kit.theme import BG
from scenes.kit.binding import claim
from scenes.kit.cards import clip_chip, clip_number, clip_of, drawing
from scenes.kit.compose import GAP, row
from scenes.kit.layout import LayoutError, Region, baseline_y, overlay, wrap_words
from scenes.kit.notation import N
from scenes.kit import numbers
from scenes.kit.numbers import count
from scenes.kit.proofs import line_baseline, verdict, worded_line, worded_verdict

PROOF_GROW = 1.15  # how far a question's proofs may grow past their natural size to fill the frame
ANSWER_SIZES = (1.5, 1.3, 1.15, 1.0)  # the answer's sizes tried (× HEADING), largest first
ICON_SHARE = 0.3  # the icon is at most this share of the frame's width
CLOSE_GROW = 1.35  # how far the close's verdicts may grow past their natural size
MIN_ICON = 1.3  # units: an icon smaller than this no longer reads


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
# every symbol in them is typeset as math, as in every other clip: m, n, P, L, d, Q, K, V, nₘₐₓ, m − n.
GLUE = "\u2060"  # joins the words of one symbol ("m − n", "L = 64") so a line never breaks inside it
_SYMBOLS = {N.offset.text: N.offset.math, N.table_rows.text: N.table_rows.math}
_LETTER = re.compile(r"(?<![\w$\u2060'’-])([PQKVLmnd])(?![\w'’-])")
_RELATION = re.compile(r"\$([^$]+)\$ ([=≥]) (\d[\d\u2009]*)")


def glued(text: str) -> str:
    """``text`` with each symbol's words joined (``m − n``, ``L = 64``, ``m ≥ 1024``), so wrapping keeps it whole."""
    for t in _SYMBOLS:
        text = text.replace(t, t.replace(" ", GLUE))
    text = re.sub(r"(\S+) ([=≥]) (\d[\d\u2009]*)", lambda m: GLUE.join(m.groups()), text)
    return re.sub(r"(?<![\w$'’-])([PQKVLmnd]) (?=\S)", lambda m: m.group(1) + GLUE, text)  # "K and": never "…K" / "and"


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
    line = worded_line(mathed(text), size=size, color=color, weight=weight)
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


def recap_drawing(k: int, side: float) -> VGroup:
    """Answer ``k``'s icon ``side`` units large, in the neutral foreground ink with the concept colours of
    ``RECAP_PAINT`` (q, k, v); the first answer's four tokens as neutral chips, each named on the chip, x 0 to
    x 3, on both rows (review round 3: in the deck's token colours, token 0 wore the key's blue and token 3 the
    value's magenta, the hues q2 and q3 give K and V), their shades the icon's own, one a token.  ``letters``:
    the names (the close, where the chips are too small to hold them, drops them; the shades remain)."""
    pic = drawing(RECAP_ICONS[k], FG, side, RECAP_PAINT[k])
    if RECAP_ICONS[k].name == "permute":
        icon = RECAP_ICONS[k]
        top, below = token_order(icon)
        n_links = sum(type(s).__name__ == "Stroke" for s in icon.shapes)
        boxes = [pic[n_links + j] for j in range(len(top + below))]
        names_ = VGroup()
        for box, t in zip(boxes, top + below):
            shade = box.get_fill_opacity()
            ink = BG if shade > 0.4 else FG  # the name in the ink that reads on its chip's shade
            name = math(f"x_{t}", size=LABEL, color=ink)
            name.scale(min(0.62 * box.height / name.height, 0.7 * box.width / name.width))
            names_.add(name.move_to(box))
        pic.add(names_)
        overlay(*boxes, *names_)  # each name sits on its chip
        pic.letters = names_
        pic.tokens = top + below
    return pic


@dataclass(frozen=True)
class Answer:
    question: str
    answer: str
    home: tuple[Clip, ...]  # the clips that answer the diary question (its colour: their family's)
    proofs: tuple[DiaryProof, ...]  # the measured proofs, each from its clip
    key: int  # the proof the close keeps

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
             f"Past outputs never change: cache {K} and {V}, add one query a step.", (4, 5), q2, 2),
            (f"Why does RoPE rotate {Q} and {K}, but not {V}?",
             f"Scores depend only on {N.offset.text}; {V} is content, not position.", (11,), q3, 0),
            (f"Why did GPT-2's table ({N.table_rows.text} = {count(GPT2.n_max).text}) give way to RoPE?",
             "A table has a last row; RoPE has none, but meets new angles.", (13, 14), q4, 2),
        )
        return RecapData(
            answers=tuple(Answer(q, a, tuple(clip_of(n) for n in home), proofs, key)
                          for q, a, home, proofs, key in qa),
            next_lecture=cfg.number + 1, train_length=cfg.train_length, n_trials=cfg.n_trials,
        )

    # ------------------------------------------------------------------ what the sentences fill in
    def caption_values(self) -> dict:
        d = self.data
        q4 = d.answers[3].proofs
        out = {"pairs": LLAMA2.head_dim // 2}
        shown = getattr(self, "cards", None)
        if shown is None:  # the title card: nothing of the recap on screen yet
            return out
        for k, (key, a, card) in enumerate(zip(self.KEYS, d.answers, shown)):
            out[f"{key}_proofs"] = claim("; ".join(p.described() for p in a.proofs), *card.verdicts)
            out[f"{key}_clips"] = claim(_clips_text(a.clips), *card.chips)
            doc = RECAP_ICONS[k].doc
            if getattr(card.drawing, "tokens", None):  # the recap names the tokens on their chips
                for first in ("Four", "four"):
                    doc = doc.replace(f"{first} tokens (one shade each) and",
                                      "four tokens, named x 0 to x 3 on their chips, and")
            out[f"{key}_icon"] = claim(icon_words(doc), card.drawing)
        c1, c3 = shown[0], shown[2]
        out["q1_figure"] = claim(d.answers[0].proofs[0].figure.text, c1.verdicts[0])
        out["q3_rot"] = claim(d.answers[2].proofs[1].figure.text, c3.verdicts[1])
        out["q4_unseen"] = claim(str(int(q4[2].figure.value)), shown[3].verdicts[2])
        out["q4_L"] = claim(count(self.cfg.train_length).text, shown[3].verdicts[2])
        out["q4_n_max"] = claim(count(GPT2.n_max).text, shown[3].verdicts[0])
        close = self.close_rows
        out["close_verdicts"] = claim("; ".join(a.proofs[a.key].described(short=True) for a in d.answers),
                                      *close.verdicts)
        out["close_next"] = claim(f"lecture {d.next_lecture}", close.next)
        out["close_lecture"] = claim(str(d.next_lecture), close.next.lecture)
        return out

    def q4_key(self) -> str:
        """The fourth answer's sentence: RoPE's pairs one step past training meet new angles, or, when
        training was long enough for every pair to wrap, none does."""
        return "q4" if not self.data.answers[3].proofs[2].passed else "q4_none"

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
                note = worded_text(glued(p.note), LABEL, color=NOTE)  # "permutations $P$", "$L = 64$"
                tag = row(chip, note, gap="small")
                note.shift((baseline_y(chip.num) - line_baseline(note)) * UP)
                items.append((v, chip, note, tag))
            v_w = max(v.width for v, *_ in items)
            block = VGroup()
            for v, chip, note, tag in items:
                if beside:  # the tag in a second column, centred on the verdict's line
                    tag.move_to([v.get_left()[0] + v_w + GAP.normal, v.value.get_y(), 0], aligned_edge=LEFT)
                else:  # the tag under the verdict's formula
                    tag.next_to(v, DOWN, buff=GAP.hair, aligned_edge=LEFT)
                    tag.shift((getattr(v, "line", v.value).get_left()[0] - chip.get_left()[0]) * RIGHT)
                one = VGroup(v, tag)
                one.verdict, one.chip, one.note, one.tag = v, chip, note, tag
                block.add(one)
            block.arrange(DOWN, buff=GAP.small, aligned_edge=LEFT)
            block.fit = min(PROOF_GROW, width / block.width, height / block.height)
            return block

        beside, under = build(True), build(False)
        block = beside if beside.fit >= under.fit - 1e-9 else under
        return block.scale(block.fit)  # ``.fit``: the scale it was set at

    def make_cards(self) -> list[VGroup]:
        """One frame per question: the question along the top; under it, at the left, the answer's icon,
        large (the same size and place for every question), its queries, keys and values in their concept
        colours; at the right the answer, large, and under it the answer's proofs on a panel framed in the
        answer's colour (see :meth:`proof_block`), the two centred on the icon."""
        content = self.layout.content
        d = self.data
        pad = GAP.small
        qs = [fit_worded(a.question, content.width, size=HEADING, color=DIM, max_lines=2) for a in d.answers]
        tallest = max(q.height for q in qs)
        cards = []
        for k, (a, q) in enumerate(zip(d.answers, qs)):
            color = NEUTRAL  # panels, chips and icons carry no colour of their own (review R2: no one meaning)
            content.place(q, UP + LEFT)
            body = Region(content.left, content.right, content.bottom, content.top - tallest - GAP.normal)
            side = min(body.height, ICON_SHARE * body.width)
            if side < MIN_ICON - 1e-6:
                raise LayoutError(f"question {k + 1}: {side:.2f} units left for its icon (at least {MIN_ICON})")
            icon_at, right = body.take_left(side, gap=GAP.wide)
            pic = recap_drawing(k, side)
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

    # ------------------------------------------------------------------ the close: one verdict an answer
    def make_close(self) -> VGroup:
        """The picture the recap ends on: the four answers as their icons, large, in a column, each with the
        verdict of its kept proof beside it (one size for all, as large as the widest allows) and the chip
        of the clip that measured it; the questions and the sentences gone.  Under them, where the lecture
        goes next: an arrow to lecture ``number + 1``, past the training length."""
        content = self.layout.content
        d = self.data
        lecture = label(f"lecture {d.next_lecture}", size=HEADING, color=FG, weight="BOLD")
        where = label("begins past the training length", size=LABEL, color=DIM)
        arrow = Arrow(ORIGIN, RIGHT * 1.1, buff=0, color=FG, stroke_width=4, max_tip_length_to_length_ratio=0.3)
        nxt = row(arrow, lecture, where, gap="small", align="center")
        where.shift((baseline_y(lecture) - baseline_y(where)) * UP)
        nxt.lecture, nxt.where, nxt.arrow = lecture, where, arrow
        content.place(nxt, DOWN + LEFT)
        grid = content.above(nxt, gap=GAP.normal)
        cells = grid.rows(*([1] * len(d.answers)), gap=GAP.tight)
        side = min(c.height for c in cells)
        chips = [neutral_chip(a.proofs[a.key].clip, size=LABEL) for a in d.answers]
        verdicts = [proof_verdict(a.proofs[a.key], HEADING)
                    for a in d.answers]
        room = grid.width - side - GAP.wide - max(c.width for c in chips) - 2 * GAP.normal
        grow = min(CLOSE_GROW, room / max(v.width for v in verdicts), 0.62 * side / max(v.height for v in verdicts))
        rows = VGroup()
        for k, (a, cell, chip, v) in enumerate(zip(d.answers, cells, chips, verdicts)):
            color = NEUTRAL
            pic = recap_drawing(k, side - 2 * GAP.hair)
            if len(pic.letters):  # at this size the letters would cover the strokes: the colours name them
                pic.remove(pic.letters)
            slot, _ = cell.inset(GAP.small, GAP.hair).take_left(side - 2 * GAP.hair, gap=0)
            slot.place(pic)  # every icon centred in one slot: the icons' column
            v.scale(grow)
            chip.next_to(pic, RIGHT, buff=GAP.normal).set_y(pic.get_y())
            v.next_to(chip, RIGHT, buff=GAP.normal)
            v.shift((pic.get_y() - v.value.get_y()) * UP)  # the formula's line through the icon's middle
            card = RoundedRectangle(corner_radius=GAP.tight, width=cell.width, height=cell.height, stroke_color=color,
                                    stroke_width=2, fill_color=color, fill_opacity=PANEL_FILL).move_to(cell.center)
            r = VGroup(card, pic, chip, v)
            r.card, r.drawing, r.verdict, r.chip = card, pic, v, chip
            rows.add(r)
        # three columns, each from one edge: the icons (centred in their slot), the chips, the verdicts
        x_chip = max(r.chip.get_left()[0] for r in rows)
        for r in rows:
            r.chip.shift((x_chip - r.chip.get_left()[0]) * RIGHT)
        x = max(r.chip.get_right()[0] for r in rows) + GAP.normal
        for r in rows:
            r.verdict.shift((x - r.verdict.get_left()[0]) * RIGHT)
            overlay(r.card, r.drawing, r.chip, r.verdict)  # each answer lies on its card
        nxt.shift((rows[0].chip.get_left()[0] - arrow.get_left()[0]) * RIGHT)
        g = VGroup(rows, nxt)
        g.rows, g.next = rows, nxt
        g.verdicts = VGroup(*[r.verdict for r in rows])
        return g

    def make_mobjects(self) -> None:
        self.cards = self.make_cards()
        self.close_rows = self.make_close()
        # the last row's verdict on screen is the fourth question's, moved there (``bring_forward``)
        a = self.data.answers[-1]
        kept = self.cards[-1].verdicts[a.key]
        self.close_rows.verdicts = VGroup(*[r.verdict for r in self.close_rows.rows[:-1]], kept)
        overlay(self.close_rows.rows[-1].card, kept, self.cards[-1].drawing)  # they move onto the last card

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
        kept = last.verdicts[a.key]
        leave = [last.q, last.ans, last.frame] + \
            [p for j, p in enumerate(last.proofs) if j != a.key] + [last.proofs[a.key].chip, last.proofs[a.key].note]
        target = take.rows[-1]
        rest = [*take.rows[:-1], target.card, target.chip, take.next]
        return [Succession(AnimationGroup(*[FadeOut(m) for m in leave]),
                           AnimationGroup(Transform(kept, target.verdict), Transform(last.drawing, target.drawing),
                                          *[FadeIn(m, shift=GAP.small * UP) for m in rest], lag_ratio=0.12))]

    def closing(self) -> None:
        take = self.takeaway()
        self.beat(self.closing_key(), *self.bring_forward(take), run_time=2.0, hold=self.CLOSING_HOLD,
                  subject=take)
