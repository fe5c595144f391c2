"""The lecture's frame: the title clip and the recap.

00 ``Title``: the lecture's number, title and notebook (from the config) and the four
properties of the notebook (``scenes.catalog.PROPERTIES``) as a map: one card per property,
each with the icon of its idea and the clips that show it, in its family's colour.

* ``lecture``: the title, and the four cards with their names and icons;
* ``equivariance`` … ``positions``: one card at a time comes forward (the rest dim to the
  background) and lists its clips;
* ``close``: the title leaves and the whole map, every card at full strength, grows to fill the
  frame: the lecture's plan.

15 ``Recap`` (§11 diary): the four diary questions as four cards, each with the icon of its
answer, the answer in one sentence, and chips naming the clips that show it, in the colour of
their family (the same colours, chips and icons as the map in 00).

* ``q1`` … ``q4``: one card a beat (the cards before it dim to the background);
* ``close``: questions and icons leave; the four answers, with their chips, grow to fill their
  cards.

Both frames are laid out from the base scene's regions, so a long lecture title (wrapped onto
two lines) or another notebook name only moves things, never pushes them off the frame.  The
icons are described once, in ``scenes/figures/framing.py``, for these clips and their stills.

Render directly with ``manim -ql scenes/framing.py Title``.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (DOWN, LEFT, ORIGIN, RIGHT, UP, AnimationGroup, Create, FadeIn, FadeOut, Restore, RoundedRectangle,
                   Succession, Transform, VGroup)

from mathcore.config import LectureConfig
from mathcore.extrapolation import GPT2
from scenes.catalog import LECTURE, PROPERTIES, Clip
from scenes.figures.framing import MAP_ICONS, RECAP_ICONS
from scenes.kit import DIM, FG, HEADING, LABEL, SMALL, TITLE, ClipScene, family_color, label
from scenes.kit.compose import DIMMED, GAP, column, reveal
from scenes.kit.icons import Icon, to_manim
from scenes.kit.layout import (LayoutError, Region, background, baseline_y, fit_label, legible_scale, overlay,
                               wrap_words)
from scenes.kit.notation import N
from scenes.kit.numbers import count

GROW = 1.3  # how far the closing beat lets the cards' text grow past its natural size
CHIPS_A_ROW = 4  # the plan sets a family's clip numbers in rows of at most this many
LANDMARK = 0.5  # the opacity a dimmed card keeps for its icon (a picture, not text: no contrast to keep)
SHRINK = 0.96  # the step by which texts that must share one size shrink until all fit


def clip_number(n: int) -> str:
    return f"{n:02d}"


def _clip(n: int) -> Clip:
    for c in LECTURE:
        if c.number == n:
            return c
    raise LookupError(f"no clip number {n} in the catalog")


def _clips_text(clips) -> str:
    """``clip 02`` / ``clips 04 and 05`` / ``clips 07 to 14``."""
    nums = [clip_number(c.number) for c in clips]
    if len(nums) == 1:
        return f"clip {nums[0]}"
    return f"clips {nums[0]} and {nums[1]}" if len(nums) == 2 else f"clips {nums[0]} to {nums[-1]}"


# ====================================================================== pieces
def drawing(icon: Icon, color, box: float) -> VGroup:
    """``icon``'s picture as large as fits a ``box`` × ``box`` square (drawn at that size, so its
    letters keep their size unless the picture must shrink to fit)."""
    g = to_manim(icon, color, box)
    g.scale(box / max(g.width, g.height))
    g.icon = icon
    return g


def clip_chip(n: int, size: float = SMALL) -> VGroup:
    """Clip ``n``'s number on a small tag in its family's colour: the link between the map
    in 00, every clip's header and the recap in 15."""
    color = family_color(n)
    num = label(clip_number(n), size=size, color=color, weight="BOLD")
    box = RoundedRectangle(corner_radius=GAP.hair, width=num.width + 2 * GAP.tight, height=num.height + GAP.tight,
                           stroke_color=color, stroke_width=2, fill_color=color, fill_opacity=0.16)
    num.move_to(box)
    overlay(box, num)  # the number sits on its own tag
    g = VGroup(box, num)
    g.box, g.num = box, num
    return g


def panel(region: Region, color) -> RoundedRectangle:
    """A card filling ``region``: the family colour's outline over a faint wash of it."""
    box = RoundedRectangle(corner_radius=GAP.tight, width=region.width, height=region.height, stroke_color=color,
                           stroke_width=3, fill_color=color, fill_opacity=0.07)
    box.move_to(region.center)
    return background(box)  # text lies on the card by design


def fit_common(texts, width: float, size: float, color, max_lines: int = 3) -> list[VGroup]:
    """Each of ``texts`` wrapped onto at most ``max_lines`` lines no wider than ``width``, all at one
    size: the largest up to ``size`` at which every one fits (never under the legibility floor:
    ``LayoutError``).  Words are measured once and lines priced by their words, so this costs one
    Pango layout per word, not one per candidate line and size."""
    words = {w for t in texts for w in t.split()}
    ww = {w: label(w, size=size).width for w in words}
    space = label("n n", size=size).width - label("nn", size=size).width

    def measure_at(s):
        return lambda line: (sum(ww[w] for w in line.split()) + space * (len(line.split()) - 1)) * s / size

    floor = size * legible_scale(label("x", size=size))
    s = size
    while not all(wrap_words(t, width, measure_at(s), max_lines) for t in texts):
        if s <= floor:
            raise LayoutError(f"{len(texts)} texts do not fit {width:.2f} units in {max_lines} lines at a legible size")
        s = max(floor, s * SHRINK)
    out = []
    pitch = label("Hy", size=s).height + GAP.hair  # one baseline pitch, whatever letters a line holds
    for t in texts:
        g = VGroup(*[label(ln, size=s, color=color) for ln in wrap_words(t, width, measure_at(s), max_lines)])
        g.arrange(DOWN, aligned_edge=LEFT)
        for k, ln in enumerate(g):
            ln.shift((baseline_y(g[0]) - k * pitch - baseline_y(ln)) * UP)
        g.text = t
        out.append(g)
    over = max(g.width for g in out) / width  # what kerning added to the priced words: all a little smaller
    return [g.scale(1 / over) if over > 1 else g for g in out]


def title_block(text: str, width: float, sizes=(TITLE, HEADING), color=FG) -> VGroup:
    """The lecture's title: one line at ``sizes[0]`` if it fits, else wrapped onto two lines at
    ``sizes[1]`` (shrunk only if two lines are still too wide; a word wider than the line is cut)."""
    one = label(text, size=sizes[0], color=color, weight="BOLD")
    if one.width <= width:
        g = VGroup(one)
        g.text = text
        return g
    kw = dict(size=sizes[1], color=color, weight="BOLD", align=ORIGIN)
    try:
        return fit_label(text, width, max_lines=2, **kw)
    except LayoutError:
        return fit_label(text, width, max_lines=3, break_words=True, **kw)


def dim_all_but(cards, k: int | None) -> list:
    """Animations that bring card ``k`` to full strength and dim every other card to the background
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
            words = VGroup(*[m for m in c.shown if m is not c.drawing])
            anims.append(words.animate.fade(1 - DIMMED))  # every part to DIMMED of its own opacity: background
            anims.append(c.drawing.animate.fade(1 - LANDMARK))  # the icons stay as landmarks of the map
            c.faded = grp
    return anims


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
    KEYS = ("equivariance", "causal", "prefix", "positions")  # one beat per property, in catalog order

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> TitleData:
        return TitleData(
            number=cfg.number, title=cfg.title, notebook=cfg.notebook,
            properties=tuple((name, tuple(_clip(n) for n in nums)) for name, nums in PROPERTIES),
        )

    def caption_values(self) -> dict:
        d = self.data
        out = {"number": d.number, "title": d.title, "notebook": d.notebook,
               "n_clips": sum(len(c) for _, c in d.properties)}
        for key, (name, clips) in zip(self.KEYS, d.properties):
            out[f"{key}_clips"] = "; ".join(f"{clip_number(c.number)}, {c.title}" for c in clips)
        return out

    def card_text(self, k: int) -> tuple:
        """Property ``k``'s colour, its name, and one row per clip (chip, title), at natural size."""
        name, clips = self.data.properties[k]
        color = family_color(clips[0].number)
        head = label(name, size=LABEL, color=color, weight="BOLD")
        chips = [clip_chip(c.number) for c in clips]
        chip_w = max(ch.width for ch in chips)
        rows = VGroup()
        for c, chip in zip(clips, chips):
            txt = label(c.title, size=SMALL, color=FG)
            chip.move_to(ORIGIN, aligned_edge=LEFT)
            txt.move_to([chip_w + GAP.small, 0, 0], aligned_edge=LEFT)
            txt.shift((baseline_y(chip.num) - baseline_y(txt)) * UP)  # title and number on one baseline
            rows.add(VGroup(chip, txt))
        column(*rows, gap="tight")
        return color, head, rows

    def make_cards(self, regions: list[Region], grow: float = 1.0) -> list[VGroup]:
        """One card per property: the small ones with the icon at the left and the text beside it;
        the tall one (``regions[-1]``) with icon and name on top and its clips spread below.  Every
        card's text is set at one common scale (at most ``grow``)."""
        parts = [self.card_text(k) for k in range(len(regions))]
        side = min(r.inset(GAP.normal, GAP.tight).height for r in regions[:-1])  # one icon size for the map
        plans, scales = [], []
        for k, (region, (color, head, rows)) in enumerate(zip(regions, parts)):
            inner = region.inset(GAP.normal, GAP.tight)
            pic = drawing(MAP_ICONS[k], color, side)
            if k < len(regions) - 1:
                icon_at, text_at = inner.take_left(side, gap=GAP.normal)
                text = column(head.copy(), rows.copy(), gap="tight")
                band = None
            else:
                band, text_at = inner.take_top(2 * head.height, gap=GAP.normal)  # the name and a small icon
                icon_at = band
                pic.scale(band.height / pic.height)
                text = column(*rows.copy(), gap="hair")
            icon_at.place(pic, LEFT)
            scales.append(text_at.fit_scale(text, grow))
            plans.append((pic, text_at, band))
        s = min(grow, *scales)
        floor = max(legible_scale(VGroup(head, rows)) for _, head, rows in parts)
        if s < floor - 1e-9:
            raise LayoutError(f"the map's cards are too small for their text ({s:.2f} < {floor:.2f})")
        cards = []
        for k, ((color, head, rows), (pic, where, band)) in enumerate(zip(parts, plans)):
            box = panel(regions[k], color)
            head.scale(s)
            rows.scale(s)
            if band is None:
                where.place(column(head, rows, gap=GAP.tight * s), LEFT)
            else:
                room = band.width - head.width - GAP.wide  # the icon takes what the name leaves of the band
                if pic.width > room:
                    pic.scale(room / pic.width)
                band.place(pic, LEFT)
                head.next_to(pic, RIGHT, buff=GAP.wide)
                room = (where.height - sum(r.height for r in rows)) / max(1, len(rows) - 1)
                column(*rows, gap=max(GAP.hair * s, min(room, GAP.wide * s)))
                where.place(rows, UP + LEFT)
            g = VGroup(box, pic, head, rows)
            g.box, g.drawing, g.head, g.rows = box, pic, head, rows
            g.nums = VGroup(*[r[0].num for r in rows])
            g.titles = VGroup(*[r[1] for r in rows])
            cards.append(g)
        return cards

    def card_regions(self, area: Region, split=(1.12, 0.88)) -> list[Region]:
        """Three cards stacked at the left, the tall positional card at the right (``split``: their
        widths' proportion)."""
        left, right = area.columns(*split, gap=GAP.small)
        return [*left.rows(1, 1, 1, gap=GAP.small), right]

    def make_mobjects(self) -> None:
        d = self.data
        content = self.layout.content
        # the title as large as the map's cards allow: a very long title steps down a size
        # rather than squeezing the cards under their legible size
        for sizes in ((TITLE, HEADING), (HEADING, LABEL), (LABEL, SMALL)):
            self.lecture_line = title_block(f"Lecture {d.number} · {d.title}", content.width, sizes=sizes)
            self.notebook_line = fit_label(f"notebook {d.notebook}", content.width, size=SMALL, color=DIM,
                                           max_lines=2, align=ORIGIN, break_words=True)
            head = column(self.lecture_line, self.notebook_line, gap="tight", align=ORIGIN)
            content.place(head, UP)
            try:
                self.map_area = content.below(head, gap=GAP.normal)
                self.boxes = self.make_cards(self.card_regions(self.map_area), grow=GROW)  # as large as room allows
                break
            except LayoutError:
                if sizes[1] == SMALL:
                    raise
        # the closing picture: the names on one line each, as large as the widest allows
        self.plan = self.plan_cards(self.card_regions(content, split=(1.25, 0.75)))

    def plan_cards(self, regions: list[Region]) -> list[VGroup]:
        """The closing picture, the lecture's plan: each card with its icon, its name and its clips'
        numbers only (their titles were read in the beats), as large as the cards allow, one text scale
        for all four."""
        blocks = []
        for k, (region, card) in enumerate(zip(regions, self.boxes)):
            color = family_color(self.data.properties[k][1][0].number)
            inner = region.inset(GAP.small)
            chips = VGroup(*[r[0].copy() for r in card.rows]).arrange_in_grid(cols=min(len(card.rows), CHIPS_A_ROW),
                                                                            buff=GAP.tight)
            text = column(card.head.copy(), chips, gap="small")
            if k < len(regions) - 1:
                side = inner.height  # one icon size for the plan: the small cards' height
                icon_at, text_at = inner.take_left(side, gap=GAP.wide)
            else:  # the tall card: its icon over its name and numbers, in the lower half
                icon_at, text_at = inner.take_top(inner.height / 2, gap=GAP.wide)
            blocks.append((region, color, icon_at, text_at, text, chips))
        s = min(t_at.fit_scale(text, GROW ** 2) for *_, t_at, text, _ in blocks)
        cards = []
        for k, (region, color, icon_at, text_at, text, chips) in enumerate(blocks):
            small = k < len(regions) - 1
            pic = drawing(MAP_ICONS[k], color, side)
            text.scale(s)
            if small:
                icon_at.place(pic, LEFT)
                text_at.place(text, LEFT)
            else:
                region.inset(GAP.small).place(column(pic, text, gap="wide", align=ORIGIN))
            g = VGroup(panel(region, color), pic, text[0], chips)
            g.box, g.drawing, g.head, g.chips = g
            cards.append(g)
        return cards

    def body(self) -> None:
        self.make_mobjects()
        cards = self.boxes
        for c in cards:
            c.shown = [c.box, c.drawing, c.head]
        self.beat("lecture", FadeIn(self.lecture_line, shift=GAP.small * UP), FadeIn(self.notebook_line),
                  reveal([VGroup(*c.shown) for c in cards]), run_time=1.6)
        for k, key in enumerate(self.KEYS):
            focus = cards[k]
            self.beat(key, *dim_all_but(cards, k), reveal(focus.rows, shift=GAP.small * RIGHT), run_time=1.2,
                      hold=0.3)
            focus.shown.append(focus.rows)

    # ------------------------------------------------------------------ the takeaway: the plan
    def takeaway(self) -> VGroup:
        return VGroup(*self.boxes)

    def bring_forward(self, take: VGroup, region=None) -> list:
        """The title and the clips' titles leave; every card comes back to full strength and grows into
        the whole frame, its icon, name and clip numbers large."""
        leave, grow = [FadeOut(self.lecture_line), FadeOut(self.notebook_line)], []
        for c, big in zip(self.boxes, self.plan):
            leave.append(FadeOut(c.titles))
            grow += [Transform(c.box, big.box), Transform(c.drawing, big.drawing), Transform(c.head, big.head),
                     *[Transform(r[0], chip) for r, chip in zip(c.rows, big.chips)]]
        return [Succession(AnimationGroup(*leave), AnimationGroup(*grow))]  # first what leaves, then the plan


# ====================================================================== 15 Recap
@dataclass(frozen=True)
class Answer:
    question: str
    answer: str
    clips: tuple[Clip, ...]


@dataclass(frozen=True)
class RecapData:
    answers: tuple[Answer, ...]


class Recap(ClipScene):
    """15 · The four diary questions as four cards: the icon of the answer, the answer in one
    sentence, and chips naming the clips that show it, in their family's colour."""

    CLOSING_HOLD = 2.0
    KEYS = ("q1", "q2", "q3", "q4")

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> RecapData:
        Q, K, V = N.queries.text, N.keys.text, N.values.text
        qa = (
            ("Why is the equivariance defect only floating-point noise?",
             "Every step is row-wise or a sum: P only reorders the terms.", (2,)),
            ("How does causal prefix invariance make KV caching correct?",
             f"Past outputs never change: cache {K}, {V}; compute one new query.", (4, 5)),
            (f"Why does RoPE rotate {Q} and {K}, but not {V}?",
             f"Scores become relative ({N.offset.text}); {V} is content, not position.", (11,)),
            (f"Why did GPT-2's table ({N.table_rows.text} = {count(GPT2.n_max).text}) give way to RoPE?",
             "A table has a last row; RoPE has none, but meets new angles.", (13, 14)),
        )
        return RecapData(tuple(Answer(q, a, tuple(_clip(n) for n in nums)) for q, a, nums in qa))

    def caption_values(self) -> dict:
        return {f"{key}_clips": _clips_text(a.clips) for key, a in zip(self.KEYS, self.data.answers)}

    def make_cards(self, regions: list[Region]) -> list[VGroup]:
        """One card per answer: the icon above the clip chips at the left, the question and its
        answer at the right; every card's text at one common scale."""
        links = []
        for a in self.data.answers:
            chips = VGroup(*[clip_chip(c.number, size=LABEL) for c in a.clips]).arrange(RIGHT, buff=GAP.tight)
            tag = label("clip" if len(a.clips) == 1 else "clips", size=SMALL, color=DIM)
            link = VGroup(tag, chips).arrange(RIGHT, buff=GAP.tight)
            link.tag, link.chips = tag, chips
            links.append(link)
        inners = [r.inset(GAP.small, GAP.tight) for r in regions]
        side = min(i.height for i in inners) - max(ln.height for ln in links) - GAP.small
        col_w = side  # the icon's column; the links shrink to it (one scale for all four)
        s_link = min(1.0, col_w / max(ln.width for ln in links))
        for ln in links:
            ln.scale(s_link)
        splits = [i.take_left(col_w, gap=GAP.normal) for i in inners]
        width = min(where.width for _, where in splits)
        questions = fit_common([a.question for a in self.data.answers], width, SMALL, DIM)
        answers = fit_common([a.answer for a in self.data.answers], width, LABEL, FG)
        texts = [column(q, ans, gap="small") for q, ans in zip(questions, answers)]
        s_text = min(1.0, *[where.fit_scale(t) for (_, where), t in zip(splits, texts)])
        cards = []
        for k, (a, (col, text_at), link, text, region) in enumerate(zip(self.data.answers, splits, links, texts,
                                                                         regions)):
            color = family_color(a.clips[0].number)
            box = panel(region, color)
            col.place(link, DOWN)
            pic = drawing(RECAP_ICONS[k], color, side)
            Region(col.left, col.right, link.get_top()[1] + GAP.small, col.top).place(pic)
            text_at.place(text.scale(s_text), LEFT)
            q, ans = text
            g = VGroup(box, pic, link, q, ans)
            g.box, g.drawing, g.link, g.q, g.ans, g.box_area = box, pic, link, q, ans, region
            g.chips, g.nums = link.chips, VGroup(*[c.num for c in link.chips])
            cards.append(g)
        return cards

    def make_mobjects(self) -> None:
        content = self.layout.content
        top, bottom = content.rows(1, 1, gap=GAP.small)
        self.card_areas = [*top.columns(1, 1, gap=GAP.small), *bottom.columns(1, 1, gap=GAP.small)]
        self.rows = self.make_cards(self.card_areas)

    def body(self) -> None:
        self.make_mobjects()
        cards = self.rows
        for k, key in enumerate(self.KEYS):  # the answers accumulate: a recap, read as a whole
            c = cards[k]
            self.beat(key, FadeIn(c.box), Create(c.drawing),
                      FadeIn(c.link, shift=GAP.small * UP), FadeIn(c.q), FadeIn(c.ans, shift=GAP.small * UP),
                      run_time=1.2)

    # ------------------------------------------------------------------ the takeaway: the four answers
    def takeaway(self) -> VGroup:
        return VGroup(*[VGroup(c.chips, c.ans) for c in self.rows])

    def bring_forward(self, take: VGroup, region=None) -> list:
        """Questions, icons and the words "clip(s)" leave; each answer, its chips above it, grows to
        fill its card, all four at one size."""
        targets = [column(c.chips.copy(), c.ans.copy(), gap="small") for c in self.rows]
        rooms = [c.box_area.inset(GAP.normal, GAP.small) for c in self.rows]
        s = min(room.fit_scale(t, GROW ** 2) for room, t in zip(rooms, targets))
        leave, grow = [], []
        for c, room, t in zip(self.rows, rooms, targets):
            room.place(t.scale(s), LEFT)
            chips, ans = t
            leave += [FadeOut(c.q), FadeOut(c.drawing), FadeOut(c.link.tag)]
            grow += [Transform(c.chips, chips), Transform(c.ans, ans)]
        return [Succession(AnimationGroup(*leave), AnimationGroup(*grow))]  # first what leaves, then the answers
