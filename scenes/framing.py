"""The lecture's frame: the title clip and the recap.

00 ``Title``: the lecture's number, title and notebook (from the config) and the four
properties of the notebook (``scenes.catalog.PROPERTIES``) as a map: one card per property,
each with a small drawing of its idea and the clips that show it, in its family's colour.

15 ``Recap`` (§11 diary): the four diary questions as four cards, each with a drawing of its
answer, the answer in one sentence, and chips naming the clips that show it, in the colour of
their family (the same colours and chips as the map in 00).

Both frames are laid out from the base scene's regions, so a long lecture title (wrapped onto
two lines) or another notebook name only moves things, never pushes them off the frame.

Render directly with ``manim -ql scenes/framing.py Title``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Arc,
    Arrow,
    Circle,
    Create,
    FadeIn,
    LaggedStart,
    Line,
    Restore,
    RoundedRectangle,
    Square,
    VGroup,
    VMobject,
)

from mathcore.config import LectureConfig
from mathcore.extrapolation import GPT2
from scenes.catalog import LECTURE, PROPERTIES, Clip
from scenes.kit import BAD, BG, DIM, FG, HEADING, LABEL, SMALL, TITLE, ClipScene, family_color, label, math
from scenes.kit.layout import (
    FIT_XHEIGHT_PX,
    LayoutError,
    Region,
    background,
    baseline_y,
    fit_label,
    legible_scale,
    overlay,
    wrap_words,
    xheight_px,
)


def clip_number(n: int) -> str:
    return f"{n:02d}"


def _clip(n: int) -> Clip:
    for c in LECTURE:
        if c.number == n:
            return c
    raise LookupError(f"no clip number {n} in the catalog")


# ====================================================================== drawings
# Small schematic pictures of each idea, drawn in one family colour.  They carry no data
# (00 and 15 show none): shapes only, built to fit a ``size`` × ``size`` box at the origin.
def _cells(n: int, side: float, fill, stroke=BG) -> VGroup:
    g = VGroup()
    for i in range(n):
        for j in range(n):
            sq = Square(side_length=side, stroke_color=stroke, stroke_width=1.5)
            sq.move_to([(j - (n - 1) / 2) * side, ((n - 1) / 2 - i) * side, 0])
            f = fill(i, j)
            sq.set_fill(f[0], opacity=f[1]) if f is not None else sq.set_fill(BG, opacity=0)
            g.add(sq)
    return g


def draw_permute(color, size: float = 1.0) -> VGroup:
    """Four tokens (one shade each) and the same four in another order: rows only move."""
    n, perm = 4, (2, 0, 3, 1)
    side = size / 5.2
    shades = (1.0, 0.72, 0.46, 0.22)
    pitch = size / n
    def token(shade, x, y):
        return Square(side_length=side, stroke_color=color, stroke_width=2, fill_color=color, fill_opacity=shade) \
            .move_to([x, y, 0])

    top = VGroup(*[token(shades[k], (k - (n - 1) / 2) * pitch, size * 0.36) for k in range(n)])
    bottom = VGroup(*[token(shades[perm[k]], (k - (n - 1) / 2) * pitch, -size * 0.36) for k in range(n)])
    links = VGroup(*[Line(top[perm[k]].get_bottom(), bottom[k].get_top(), stroke_color=color, stroke_width=2.5,
                          stroke_opacity=0.75) for k in range(n)])
    return VGroup(links, top, bottom)


def draw_causal(color, size: float = 1.0) -> VGroup:
    """A 4×4 attention grid with its upper triangle masked off."""
    n = 4
    return _cells(n, size / n, lambda i, j: (color, 0.35 + 0.6 * (j == i) + 0.05 * j) if j <= i else None, stroke=DIM) \
        .set_stroke(width=1.2)


def draw_cache(color, size: float = 1.0) -> VGroup:
    """A K and a V cache: rows kept from earlier steps, and the one new row added."""
    rows, h = 4, size / 6.0
    g = VGroup()
    for c, x in enumerate((-size * 0.24, size * 0.24)):
        for i in range(rows):
            new = i == rows - 1
            bar = RoundedRectangle(corner_radius=h * 0.3, width=size * 0.4, height=h * 0.8,
                                   stroke_color=FG if new else color, stroke_width=2 if new else 1.5,
                                   fill_color=color, fill_opacity=1.0 if new else 0.38)
            bar.move_to([x, size * 0.4 - (i + 0.5) * h * 1.25, 0])
            g.add(bar)
    arrow = Arrow([0, -size * 0.5, 0], [0, -size * 0.5 + h * 1.6, 0], buff=0, stroke_width=3, color=FG,
                  max_tip_length_to_length_ratio=0.45)
    arrow.next_to(g, DOWN, buff=0.04)
    return VGroup(g, arrow)


def _curve(f, x0: float, x1: float, n: int = 48, **style) -> VMobject:
    xs = np.linspace(x0, x1, n)
    c = VMobject(**style)
    c.set_points_smoothly([np.array([x, f(x), 0.0]) for x in xs])
    return c


def draw_waves(color, size: float = 1.0) -> VGroup:
    """Three sinusoids of falling frequency: one position code per pair of columns."""
    g = VGroup()
    w = size * 0.8  # a wide drawing: 1.6 × 1
    for k, (freq, op) in enumerate(((5.0, 1.0), (2.5, 0.75), (1.25, 0.5))):
        y0 = size * (0.33 - 0.33 * k)
        g.add(_curve(lambda x, y0=y0, freq=freq: y0 + size * 0.12 * np.sin(freq * np.pi * x / w), -w, w, n=64,
                     stroke_color=color, stroke_width=3, stroke_opacity=op))
    return g


def draw_rotate(color, size: float = 1.2) -> VGroup:
    """RoPE: q and k turn on a dial by their positions; v stands apart, unturned (labelled)."""
    r = size * 0.36
    c = np.array([-size * 0.14, size * 0.06, 0.0])
    face = Circle(radius=r, stroke_color=DIM, stroke_width=2).move_to(c)

    def unit(deg):
        return np.array([np.cos(np.deg2rad(deg)), np.sin(np.deg2rad(deg)), 0.0])

    def hand(deg, col):
        return Arrow(c, c + r * unit(deg), buff=0, color=col, stroke_width=4, max_tip_length_to_length_ratio=0.25)

    q, k = hand(80, color), hand(-15, color)
    turn = Arc(radius=r * 1.2, start_angle=np.deg2rad(-15), angle=np.deg2rad(95), arc_center=c, stroke_color=color,
               stroke_width=2, stroke_opacity=0.7)
    x_v = size * 0.42
    v = Arrow([x_v, c[1] - r * 0.55, 0], [x_v, c[1] + r, 0], buff=0, color=FG, stroke_width=4,
              max_tip_length_to_length_ratio=0.25)
    names = VGroup(math("q", size=LABEL, color=color).move_to(c + (r * 1.2 + 0.2) * unit(110)),
                   math("k", size=LABEL, color=color).move_to(c + (r * 1.2 + 0.2) * unit(-45)),
                   math("v", size=LABEL, color=FG).next_to(v, DOWN, buff=0.08))
    g = VGroup(face, turn, q, k, v, names)
    overlay(*g)  # the letters name the hands they sit by
    g.names = names
    return g


def draw_wall(color, size: float = 1.2) -> VGroup:
    """A learned table that ends at its last row (a wall), beside a RoPE dial that never does."""
    rows, h = 5, size / 7.5
    table = VGroup(*[RoundedRectangle(corner_radius=0.03, width=size * 0.42, height=h * 0.78, stroke_width=1.5,
                                      stroke_color=color, fill_color=color, fill_opacity=0.55 - 0.07 * i)
                     .move_to([-size * 0.26, size * 0.42 - (i + 0.5) * h, 0]) for i in range(rows)])
    wall = Line([-size * 0.5, 0, 0], [-size * 0.02, 0, 0], stroke_color=BAD, stroke_width=6)
    wall.next_to(table, DOWN, buff=h * 0.25)
    r = size * 0.2
    c = np.array([size * 0.3, -size * 0.05, 0.0])
    face = Circle(radius=r, stroke_color=color, stroke_width=2.5).move_to(c)
    hand = Arrow(c, c + r * np.array([np.cos(1.0), np.sin(1.0), 0]), buff=0, color=color, stroke_width=3.5,
                 max_tip_length_to_length_ratio=0.35)
    spin = Arc(radius=r * 1.35, start_angle=-0.6, angle=4.2, arc_center=c, stroke_color=color, stroke_width=2,
               stroke_opacity=0.7)
    return VGroup(table, wall, face, spin, hand)


FAMILY_DRAWINGS = (draw_permute, draw_causal, draw_cache, draw_waves)
"""One drawing per property of ``scenes.catalog.PROPERTIES``, in the same order."""


def fitted_drawing(draw, color, box: float) -> VGroup:
    """``draw``'s picture as large as fits a ``box`` × ``box`` square (drawn at that size, so
    letters in it keep their size unless the picture must shrink to fit)."""
    g = draw(color, box)
    g.scale(box / max(g.width, g.height))
    return g


def clip_chip(n: int, size: float = SMALL) -> VGroup:
    """Clip ``n``'s number on a small tag in its family's colour: the link between the map
    in 00, every clip's header and the recap in 15."""
    color = family_color(n)
    num = label(clip_number(n), size=size, color=color, weight="BOLD")
    box = RoundedRectangle(corner_radius=0.08, width=num.width + 0.22, height=num.height + 0.12, stroke_color=color,
                           stroke_width=2, fill_color=color, fill_opacity=0.16)
    num.move_to(box)
    overlay(box, num)  # the number sits on its own tag
    g = VGroup(box, num)
    g.box, g.num = box, num
    return g


def panel(region: Region, color, fill: float = 0.07, stroke: float = 3.0) -> RoundedRectangle:
    """A card filling ``region``: the family colour's outline over a faint wash of it."""
    box = RoundedRectangle(corner_radius=0.14, width=region.width, height=region.height, stroke_color=color,
                           stroke_width=stroke, fill_color=color, fill_opacity=fill)
    box.move_to(region.center)
    return background(box)  # text lies on the card by design


def _break_long_words(text: str, width: float, **kw) -> str:
    """``text`` with every word wider than ``width`` cut into pieces that fit (a title may be
    one 80-character word)."""
    out = []
    for word in text.split():
        while len(word) > 1 and label(word, **kw).width > width:
            n = len(word) - 1
            while n > 1 and label(word[:n], **kw).width > width:
                n -= 1
            out.append(word[:n])
            word = word[n:]
        out.append(word)
    return " ".join(out)


def wrap_common(texts, width: float, size: float, color, max_lines: int = 3, line_buff: float = 0.1) -> list[VGroup]:
    """Each of ``texts`` wrapped onto at most ``max_lines`` lines no wider than ``width``, all at
    one size: the largest up to ``size`` at which every one fits (never under the legibility
    floor: ``LayoutError``).  Words are measured once and lines priced by their words, so this
    costs one Pango layout per word, not one per candidate line and size."""
    words = {w for t in texts for w in t.split()}
    ww = {w: label(w, size=size).width for w in words}
    space = label("n n", size=size).width - label("nn", size=size).width

    def measure_at(s):
        return lambda line: (sum(ww[w] for w in line.split()) + space * (len(line.split()) - 1)) * s / size

    floor_size = size * FIT_XHEIGHT_PX / xheight_px(label("x", size=size))
    s = size
    while not all(wrap_words(t, width * 0.97, measure_at(s), max_lines) for t in texts):
        if s <= floor_size + 1e-9:
            raise LayoutError(f"{len(texts)} texts do not fit {width:.2f} units in {max_lines} lines at a legible size")
        s = max(floor_size, s * 0.96)
    for _ in range(4):
        out = []
        for t in texts:
            lines = wrap_words(t, width * 0.97, measure_at(s), max_lines)
            g = VGroup(*[label(ln, size=s, color=color) for ln in lines])
            g.arrange(DOWN, buff=line_buff, aligned_edge=LEFT)
            g.text = t
            out.append(g)
        over = max(g.width for g in out) / width
        if over <= 1.0:
            break
        s /= over * 1.005  # what kerning added to the priced words: all of them a little smaller
    return out


def title_block(text: str, width: float, sizes=(TITLE, HEADING), color=FG) -> VGroup:
    """The lecture's title: one line at ``sizes[0]`` if it fits, else wrapped onto two lines at
    ``sizes[1]`` (shrunk only if two lines are still too wide; a word wider than the line is cut)."""
    one = label(text, size=sizes[0], color=color, weight="BOLD")
    if one.width <= width:
        g = VGroup(one)
        g.text = text
        return g
    try:
        return fit_label(text, width, size=sizes[1], color=color, weight="BOLD", max_lines=2, align=ORIGIN)
    except LayoutError:
        cut = _break_long_words(text, width, size=sizes[1], weight="BOLD")
        g = fit_label(cut, width, size=sizes[1], color=color, weight="BOLD", max_lines=3, align=ORIGIN)
        g.text = text
        return g


# ====================================================================== 00 Title
@dataclass(frozen=True)
class TitleData:
    number: int
    title: str
    notebook: str
    properties: tuple[tuple[str, tuple[Clip, ...]], ...]  # (property, clips that show it)


class Title(ClipScene):
    """00 · The lecture's title and a map of its clips: one card per property."""

    CLOSING_HOLD = 1.5

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> TitleData:
        return TitleData(
            number=cfg.number, title=cfg.title, notebook=cfg.notebook,
            properties=tuple((name, tuple(_clip(n) for n in nums)) for name, nums in PROPERTIES),
        )

    def caption_values(self) -> dict:
        d = self.data
        return {"number": d.number, "title": d.title, "notebook": d.notebook,
                "n_clips": sum(len(c) for _, c in d.properties)}

    def card_text(self, k: int) -> tuple:
        """Property ``k``'s colour, its name, and one row per clip (chip, title), at natural size."""
        name, clips = self.data.properties[k]
        color = family_color(clips[0].number)
        head = label(name, size=SMALL + 4, color=color, weight="BOLD")
        chips = [clip_chip(c.number) for c in clips]
        chip_w = max(ch.width for ch in chips)
        rows = VGroup()
        for c, chip in zip(clips, chips):
            txt = label(c.title, size=SMALL, color=FG)
            chip.move_to(ORIGIN, aligned_edge=LEFT)
            txt.move_to([chip_w + 0.2, 0, 0], aligned_edge=LEFT)
            txt.shift((baseline_y(chip.num) - baseline_y(txt)) * UP)  # title and number on one baseline
            rows.add(VGroup(chip, txt))
        rows.arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        return color, head, rows

    def make_cards(self, regions: list[Region]) -> list[VGroup]:
        """One card per property: the three small ones with the drawing at the left and the text
        beside it; the tall one (``regions[-1]``) with drawing and name on top and its clips
        spread below.  Every card's text is set at one common scale."""
        parts = [self.card_text(k) for k in range(len(regions))]
        plans, scales = [], []
        for k, (region, (color, head, rows)) in enumerate(zip(regions, parts)):
            inner = region.inset(0.22, 0.12)
            tall = k == len(regions) - 1
            if not tall:
                side = min(inner.height - 0.1, 1.35)
                drawing = fitted_drawing(FAMILY_DRAWINGS[k], color, side)
                drawing.move_to([inner.left + side / 2, inner.center[1], 0])
                text = VGroup(head, rows).copy().arrange(DOWN, buff=0.16, aligned_edge=LEFT)
                text_region = Region(drawing.get_right()[0] + 0.3, inner.right, inner.bottom, inner.top,
                                     f"card{k}.text")
                scales.append(text_region.fit_scale(text))
                plans.append((drawing, text_region, None))
            else:
                drawing = fitted_drawing(FAMILY_DRAWINGS[k], color, 1.5)
                band_h = max(drawing.height, head.height)
                band, below = inner.take_top(band_h, gap=0.3)
                need = rows.copy().arrange(DOWN, buff=0.1, aligned_edge=LEFT)
                scales.append(below.fit_scale(need))
                plans.append((drawing, below, band))
        s = min(1.0, *scales)
        floor = max(legible_scale(VGroup(head, rows)) for _, head, rows in parts)
        if s < floor - 1e-9:
            raise LayoutError(f"the map's cards are too small for their text ({s:.2f} < {floor:.2f})")
        cards = []
        for k, ((color, head, rows), (drawing, where, band)) in enumerate(zip(parts, plans)):
            box = panel(regions[k], color)
            head.scale(s)
            rows.scale(s)
            if band is None:
                text = VGroup(head, rows).arrange(DOWN, buff=0.16 * s, aligned_edge=LEFT)
                where.place(text, LEFT)
            else:
                room = band.width - head.width - 0.35  # the drawing takes what the name leaves of the band
                if drawing.width > room:
                    drawing.scale(room / drawing.width)
                top = VGroup(drawing, head).arrange(RIGHT, buff=0.35)
                band.place(top, LEFT)
                pitch = min(where.height / len(rows), rows[0].height * 1.9)
                rows.arrange(DOWN, buff=pitch - rows[0].height, aligned_edge=LEFT)
                where.place(rows, LEFT)
            g = VGroup(box, drawing, head, rows)
            g.box, g.drawing, g.head, g.rows = box, drawing, head, rows
            g.nums = VGroup(*[r[0].num for r in rows])
            g.titles = VGroup(*[r[1] for r in rows])
            cards.append(g)
        return cards

    def make_mobjects(self) -> None:
        d = self.data
        content = self.layout.content
        # the title as large as the map's cards allow: a very long title steps down a size
        # rather than squeezing the cards under their legible size
        for sizes in ((TITLE, HEADING), (HEADING, LABEL), (LABEL, SMALL)):
            self.lecture_line = title_block(f"Lecture {d.number} · {d.title}", content.width, sizes=sizes)
            self.notebook_line = fit_label(f"notebook {d.notebook}", content.width, size=SMALL, color=DIM,
                                           max_lines=2, align=ORIGIN, break_words=True)
            head = VGroup(self.lecture_line, self.notebook_line).arrange(DOWN, buff=0.1)
            content.place(head, UP)
            cards = content.below(head, gap=0.22)
            left, right = cards.columns(1.12, 0.88, gap=0.18)
            try:
                self.boxes = self.make_cards([*left.rows(1, 1, 1, gap=0.14), right])
                return
            except LayoutError:
                if sizes[1] == SMALL:
                    raise

    def body(self) -> None:
        self.make_mobjects()
        cards = self.boxes
        for c in cards:
            c.shown = [c.box, c.drawing, c.head]
        self.beat("lecture", FadeIn(self.lecture_line, shift=0.1 * UP), FadeIn(self.notebook_line),
                  LaggedStart(*[FadeIn(VGroup(*c.shown), shift=0.1 * UP) for c in cards], lag_ratio=0.2),
                  run_time=1.6)
        for k, key in enumerate(("equivariance", "causal", "prefix", "positions")):
            focus = cards[k]
            self.beat(key, *focus_on(cards, k),
                      LaggedStart(*[FadeIn(r, shift=0.1 * RIGHT) for r in focus.rows], lag_ratio=0.2), run_time=1.2,
                      hold=0.3)
            focus.shown.append(focus.rows)
        self.play(*focus_on(cards, None), run_time=0.6)  # the whole map for the last words (and the thumbnail)


def focus_on(cards, k: int | None) -> list:
    """Animations that bring card ``k`` to full strength and fade every other card back
    (``k=None``: every card at full strength).  A card's ``shown`` lists its parts on screen."""
    anims = []
    for j, c in enumerate(cards):
        faded = getattr(c, "faded", None)
        if j == k or k is None:
            if faded is not None:
                anims.append(Restore(faded))
                c.faded = None
        elif faded is None:
            grp = VGroup(*c.shown)
            grp.save_state()
            anims.append(grp.animate.fade(0.5))
            c.faded = grp
    return anims


# ====================================================================== 15 Recap
@dataclass(frozen=True)
class Answer:
    question: str
    answer: str
    clips: tuple[Clip, ...]


@dataclass(frozen=True)
class RecapData:
    answers: tuple[Answer, ...]


RECAP_DRAWINGS = (draw_permute, draw_cache, draw_rotate, draw_wall)
"""The drawing of each diary answer, in the order of ``RecapData.answers``."""


class Recap(ClipScene):
    """15 · The four diary questions as four cards: a drawing of the answer, the answer in one
    sentence, and chips naming the clips that show it, in their family's colour."""

    CLOSING_HOLD = 2.0

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> RecapData:
        qa = (
            ("Why is the equivariance defect only floating-point noise?",
             "Every step is row-wise or a sum: P only reorders the terms.", (2,)),
            ("How does causal prefix invariance make KV caching correct?",
             "Past outputs never change: cache K, V; compute one new query.", (4, 5)),
            ("Why does RoPE rotate Q and K, but not V?",
             "Scores become relative (m − n); V is content, not position.", (11,)),
            (f"Why did GPT-2's table (n_max = {GPT2.n_max}) give way to RoPE?",
             "A table has a last row; RoPE has none, but meets new angles.", (13, 14)),
        )
        return RecapData(tuple(Answer(q, a, tuple(_clip(n) for n in nums)) for q, a, nums in qa))

    def make_cards(self, regions: list[Region]) -> list[VGroup]:
        """One card per answer: the drawing above the clip chips at the left, the question and
        its answer at the right; every card's text at one common scale."""
        splits = [region.inset(0.22, 0.18) for region in regions]
        splits = [inner.take_left(min(1.9, inner.width * 0.3), gap=0.3) for inner in splits]

        width = min(where.width for _, where in splits)
        questions = wrap_common([a.question for a in self.data.answers], width, SMALL, DIM)
        answers = wrap_common([a.answer for a in self.data.answers], width, LABEL + 2, FG)
        parts = []
        for a, (col, text_region), q, ans in zip(self.data.answers, splits, questions, answers):
            chips = VGroup(*[clip_chip(c.number, size=LABEL) for c in a.clips]).arrange(RIGHT, buff=0.12)
            tag = label("clip" if len(a.clips) == 1 else "clips", size=SMALL, color=DIM)
            link = VGroup(tag, chips).arrange(RIGHT, buff=0.14)
            text = VGroup(q, ans).arrange(DOWN, buff=0.22, aligned_edge=LEFT)
            parts.append((a, col, text_region, chips, link, q, ans, text))
        s_link = min(1.0, *[col.width / link.width for _, col, _, _, link, *_ in parts])
        s_text = min(1.0, *[where.fit_scale(text) for _, _, where, *_, text in parts])
        cards = []
        for k, ((a, col, text_region, chips, link, q, ans, text), region) in enumerate(zip(parts, regions)):
            color = family_color(a.clips[0].number)
            box = panel(region, color)
            link.scale(s_link)
            col.place(link, DOWN)
            side = min(col.width, col.top - link.get_top()[1] - 0.2)
            drawing = fitted_drawing(RECAP_DRAWINGS[k], color, side)
            drawing.move_to([col.center[0], (col.top + link.get_top()[1] + 0.2) / 2, 0])
            text.scale(s_text)
            text_region.place(text, LEFT)
            g = VGroup(box, drawing, link, q, ans)
            g.box, g.drawing, g.link, g.q, g.ans = box, drawing, link, q, ans
            g.chips, g.nums = chips, VGroup(*[c.num for c in chips])
            cards.append(g)
        return cards

    def make_mobjects(self) -> None:
        content = self.layout.content
        top, bottom = content.rows(1, 1, gap=0.22)
        self.rows = self.make_cards([*top.columns(1, 1, gap=0.22), *bottom.columns(1, 1, gap=0.22)])

    def body(self) -> None:
        self.make_mobjects()
        cards = self.rows
        for k, key in enumerate(("q1", "q2", "q3", "q4")):
            c = cards[k]
            c.shown = [c.box, c.drawing, c.link, c.q, c.ans]
            self.beat(key, *focus_on(cards[:k + 1], k), FadeIn(c.box), Create(c.drawing),
                      FadeIn(c.link, shift=0.1 * UP), FadeIn(c.q), FadeIn(c.ans, shift=0.1 * UP), run_time=1.2)
        self.play(*focus_on(cards, None), run_time=0.6)  # all four answers for the last words (and the thumbnail)
