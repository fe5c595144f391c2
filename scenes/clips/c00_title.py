"""00 ``Title``: the lecture's number, title and notebook (from the config) and the four
properties of the notebook (``scenes.catalog.PROPERTIES``) as a map: one card per property,
each with the icon of its idea and the clips that show it, in its family's colour.

* ``lecture``: the title, and the four cards with their names and icons;
* ``equivariance`` … ``positions``: one card at a time comes forward (the rest dim to the
  background) and lists its clips;
* ``close``: the title leaves and the whole map, every card at full strength, grows to fill the
  frame: the lecture's plan.

Laid out from the base scene's regions, so a long lecture title (wrapped onto two lines) or
another notebook name only moves things, never pushes them off the frame.  The icons are
described once, in ``scenes/figures/framing.py``, for this clip and its still; the cards and
chips are ``scenes.kit.cards``, shared with the other framing clip.

Render directly with ``manim -ql scenes/clips/c00_title.py Title``.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    FadeIn,
    FadeOut,
    Restore,
    Succession,
    Transform,
    VGroup,
)

from mathcore.config import LectureConfig
from scenes.catalog import PROPERTIES, Clip
from scenes.figures.framing import MAP_ICONS
from scenes.kit import DIM, FG, HEADING, LABEL, SMALL, TITLE, ClipScene, family_color, label
from scenes.kit.cards import GROW, clip_chip, clip_number, clip_of, drawing, panel
from scenes.kit.compose import DIMMED, GAP, column, reveal
from scenes.kit.layout import LayoutError, Region, baseline_y, fit_label, legible_scale

CHIPS_A_ROW = 4  # the plan sets a family's clip numbers in rows of at most this many


LANDMARK = 0.5  # the opacity a dimmed card keeps for its icon (a picture, not text: no contrast to keep)


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
            properties=tuple((name, tuple(clip_of(n) for n in nums)) for name, nums in PROPERTIES),
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

