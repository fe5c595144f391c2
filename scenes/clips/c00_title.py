"""00 ``Title``: the lecture's number, title and notebook (from the config) and the four properties of
the notebook (``scenes.catalog.PROPERTIES``) as a map, then one property a beat, large.

* ``lecture``: the title over the map: four cards in a row, in lecture order (arrows between them), each
  with the icon of its idea and its name, in its family's colour;
* ``equivariance`` … ``positions``: the map shrinks to a strip along the top, the property's card lit and
  the others dimmed; below it the property fills the frame: its icon large, its name, what it says (a
  formula or a sentence) and the clips that show it, each with its number and title;
* ``close``: the map returns, filling the frame, every card at full strength with its icon, its name and
  its clips' numbers: the lecture's plan.

Laid out from the base scene's regions, so a long lecture title (wrapped onto two lines) or another
notebook name only moves things, never pushes them off the frame.  The icons are described once, in
``scenes/figures/framing.py``, for this clip and its still; the chips are ``scenes.kit.cards``, shared
with the other framing clip.

Render directly with ``manim -ql scenes/clips/c00_title.py Title``.
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
    ReplacementTransform,
    RoundedRectangle,
    Succession,
    Transform,
    VGroup,
)

from mathcore.config import LectureConfig
from scenes.catalog import PROPERTIES, Clip
from scenes.figures.framing import MAP_ICONS, STATEMENTS, statement_said
from scenes.kit import DIM, FG, HEADING, LABEL, SMALL, TITLE, ClipScene, family_color, label, math
from scenes.kit.binding import claim
from scenes.kit.cards import clip_chip, clip_number, clip_of, drawing, fit_common
from scenes.kit.compose import GAP, column, reveal, row
from scenes.kit.layout import LayoutError, Region, baseline_y, fit_label, legible_scale, overlay
from scenes.kit.motion import dim, swap, undim

CHIPS_A_ROW = 4  # the plan sets a family's clip numbers in rows of at most this many
CHIP_COLUMN = 0.2  # the plan widens a card by this share of a card for each chip column past two
ARROW_GAP = 0.5  # units between two cards of the map: room for the arrow of the lecture's order
ONE_LINE = 0.85  # a card's sentences stay on one line if that sets its text at least this share of the wrapped size
STRIP_ICON = 0.8  # a strip card's icon, as a share of the card's inner height
STRIP_H = 1.0  # units: the map as a strip along the top while one property fills the frame
FOCUS_GROW = 1.5  # how far a property's text may grow past its natural size to fill its card
CLIP_ROWS = 4  # a property with more clips than this lists their numbers alone, on one line


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


def card(region: Region, color) -> RoundedRectangle:
    """A property's card filling ``region``: its family colour's outline over a faint wash of it (drawn
    at full strength: the card is the property on the map, not a background)."""
    box = RoundedRectangle(corner_radius=GAP.tight, width=region.width, height=region.height, stroke_color=color,
                           stroke_width=3, fill_color=color, fill_opacity=0.07)
    return box.move_to(region.center)


@dataclass(frozen=True)
class TitleData:
    number: int
    title: str
    notebook: str
    properties: tuple[tuple[str, tuple[Clip, ...]], ...]  # (property, clips that show it)
    statements: tuple[tuple[tuple[str, str], ...], ...]  # per property: ("math" | "words", text) lines


class Title(ClipScene):
    """00 · The lecture's title, the map of its four properties, one property a beat, and the plan."""

    STAGED = True
    CLOSING_HOLD = 1.5
    KEYS = ("equivariance", "causal", "prefix", "positions")  # one beat per property, in catalog order

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> TitleData:
        return TitleData(
            number=cfg.number, title=cfg.title, notebook=cfg.notebook,
            properties=tuple((name, tuple(clip_of(n) for n in nums)) for name, nums in PROPERTIES),
            statements=STATEMENTS,
        )

    # ------------------------------------------------------------------ what the sentences fill in
    def caption_values(self) -> dict:
        d = self.data
        out = {"number": d.number, "notebook": d.notebook, "title": d.title,
               "notebook_said": notebook_said(notebook_shown(d.notebook, self.clip().title)), "n_clips": sum(len(c) for _, c in d.properties)}
        if not hasattr(self, "tiles"):  # the title card: nothing of the map on screen yet
            return out
        out["title"] = claim(d.title, self.lecture_line)
        out["notebook_said"] = claim(out["notebook_said"], self.notebook_line)
        out["map_icons"] = claim("; ".join(icon_words(i.doc) for i in MAP_ICONS), *[t.drawing for t in self.tiles])
        for k, (key, (name, clips), focus) in enumerate(zip(self.KEYS, d.properties, self.focus)):
            said = (", ".join(clip_number(c.number) for c in clips) if len(clips) > CLIP_ROWS else
                    "; ".join(f"{clip_number(c.number)}, {c.title}" for c in clips))  # what the card shows of them
            out[f"{key}_clips"] = claim(said, *focus.rows)
            out[f"{key}_says"] = claim(" and ".join(statement_said(kind, text) for kind, text in d.statements[k]),
                                         *focus.says)
            out[f"{key}_icon"] = claim(icon_words(MAP_ICONS[k].doc), focus.drawing)
        out["n_clips"] = claim(out["n_clips"], *[c for p in self.plan for c in p.chips])
        out["plan"] = claim("; ".join(f"{name}, clips {', '.join(clip_number(c.number) for c in clips)}"
                                      for name, clips in d.properties), *[p.head for p in self.plan],
                            *[p.chips for p in self.plan])
        return out

    # ------------------------------------------------------------------ the map: four cards in lecture order
    def map_tiles(self, region: Region, chips: bool) -> VGroup:
        """Four cards in a row across ``region``, an arrow between each two (the lecture's order); each with
        its icon above its name (and, with ``chips``, its clips' numbers), as large as the narrowest allows,
        one text size for all four."""
        d = self.data
        # the plan: a card with a long list is wider, so its numbers take as few rows as the others' (a
        # card's space under its numbers is not left empty beside a taller list)
        # (the lecture's map is the same shape, so the plan's names and drawings match it)
        widen = [1 + CHIP_COLUMN * max(0, min(len(c), CHIPS_A_ROW) - 2) for _, c in d.properties]
        cols = region.columns(*widen, gap=ARROW_GAP)
        texts = []
        heads = fit_common([name for name, _ in d.properties], cols[0].width - 2 * GAP.small, HEADING, FG,
                           max_lines=2, weight="BOLD", align=ORIGIN)  # one size for the four names
        for k, ((name, clips), head) in enumerate(zip(d.properties, heads)):
            color = family_color(clips[0].number)
            head.set_color(color)
            parts = [head]
            if chips:
                nums = VGroup(*[clip_chip(c.number, size=SMALL) for c in clips])
                nums.arrange_in_grid(cols=min(len(clips), CHIPS_A_ROW), buff=GAP.tight)
                parts.append(nums)
            texts.append(column(*parts, gap="small", align=ORIGIN))
        text_h = max(t.height for t in texts)
        s = min(1.0, *[(c.width - 2 * GAP.small) / t.width for c, t in zip(cols, texts)])
        # the drawings at one size: the narrowest card's (a wider card does not draw a larger icon)
        pic_side = min(c.inset(GAP.small, GAP.normal).width for c in cols)
        tiles = VGroup()
        for k, (col, text) in enumerate(zip(cols, texts)):
            color = family_color(d.properties[k][1][0].number)
            inner = col.inset(GAP.small, GAP.normal)
            text.scale(s)
            words_at, pic_at = inner.take_bottom(text_h * s, gap=GAP.normal)[0], inner.take_bottom(text_h * s,
                                                                                                gap=GAP.normal)[1]
            side = min(pic_side, pic_at.height)
            pic = drawing(MAP_ICONS[k], color, side)
            pic_at.place(pic)
            words_at.place(text, UP)
            box = card(col, color)
            overlay(box, pic, text)  # the icon and the words lie on their card
            t = VGroup(box, pic, text)
            t.box, t.drawing, t.text, t.head = box, pic, text, text[0]
            t.chips = text[1] if chips else VGroup()
            tiles.add(t)
        if chips:  # the chips on one line across the cards, under the lowest name (names of one or two lines)
            y = min(t.head.get_bottom()[1] for t in tiles) - GAP.small * s
            for t in tiles:
                t.chips.shift((y - t.chips.get_top()[1]) * UP)
        arrows = VGroup(*[Arrow(tiles[k].box.get_right(), tiles[k + 1].box.get_left(), buff=GAP.hair, color=DIM,
                                stroke_width=4, max_tip_length_to_length_ratio=0.35)
                          for k in range(len(tiles) - 1)])
        for a, t in zip(arrows, tiles):
            a.set_y(t.drawing.get_y())
        g = VGroup(tiles, arrows)
        g.tiles, g.arrows = tiles, arrows
        return g

    def strip_tiles(self, region: Region) -> VGroup:
        """The map as a strip across ``region``: four small cards, each with its icon and its name."""
        d = self.data
        cols = region.columns(1, 1, 1, 1, gap=GAP.small)
        inner0 = cols[0].inset(GAP.tight, GAP.tight)
        names = fit_common([name for name, _ in d.properties], inner0.width - STRIP_ICON * inner0.height - GAP.small,
                           SMALL, FG, max_lines=2)  # one size for the four names
        tiles = VGroup()
        for k, (col, (name, clips)) in enumerate(zip(cols, d.properties)):
            color = family_color(clips[0].number)
            inner = col.inset(GAP.tight, GAP.tight)
            pic_at, words_at = inner.take_left(STRIP_ICON * inner.height, gap=GAP.small)
            pic = drawing(MAP_ICONS[k], color, pic_at.width)
            if len(pic.letters):  # at a strip's size the letters would cover the strokes (as in 15's close)
                pic.remove(pic.letters)
                pic.letters = VGroup()
            pic_at.place(pic)
            head = names[k].set_color(color)
            words_at.place(head, LEFT)
            box = card(col, color)
            overlay(box, pic, head)
            t = VGroup(box, pic, head)
            t.box, t.drawing, t.head = box, pic, head
            tiles.add(t)
        return tiles

    def focus_card(self, k: int, region: Region, cap: float = 1e9) -> VGroup:
        """Property ``k`` filling ``region``: its card; its icon large at the left; at the right its name, what
        it says (formulas and sentences), and the clips that show it (chip and title; the chips alone, on one
        line, when there are more than ``CLIP_ROWS``).  ``cap``: the largest scale its text may take (the four
        cards share one type size: the smallest any of them needs).  ``.text_scale``: the scale it took."""
        d = self.data
        name, clips = d.properties[k]
        color = family_color(clips[0].number)
        inner = region.inset(GAP.normal)
        side = min(inner.height, 0.25 * inner.width)
        pic_at, text_at = inner.take_left(side, gap=GAP.wide)
        pic = drawing(MAP_ICONS[k], color, side)
        pic_at.place(pic)

        def build(wrap: float):
            """Name, statements (sentences wrapped at ``wrap``) and clips, at natural size; and the scale
            that fits them to ``text_at``."""
            head = label(name, size=HEADING + 6, color=color, weight="BOLD")
            says = VGroup(*[math(text, size=HEADING) if kind == "math" else
                            fit_label(text, wrap, size=LABEL, color=FG, max_lines=2)
                            for kind, text in d.statements[k]])
            says.arrange(DOWN, buff=GAP.tight, aligned_edge=LEFT)
            rows = VGroup()
            if len(clips) > CLIP_ROWS:  # a long list: the clips' numbers alone, on one line (review round 8: eight
                # titles in two columns made a paragraph a viewer could not read in the beat, in smaller type)
                for c in clips:
                    r = VGroup(clip_chip(c.number, size=LABEL))
                    r.chip, r.title = r[0], None
                    rows.add(r)
                rows.arrange(RIGHT, buff=GAP.small)
            else:
                for c in clips:
                    chip = clip_chip(c.number, size=LABEL)
                    title = label(c.title, size=LABEL, color=DIM)
                    r = row(chip, title, gap="small")
                    title.shift((baseline_y(chip.num) - baseline_y(title)) * UP)
                    r.chip, r.title = chip, title
                    rows.add(r)
                rows.arrange(DOWN, buff=GAP.tight, aligned_edge=LEFT)
                x = max(r.title.get_left()[0] for r in rows)  # the titles start at one edge
                for r in rows:
                    r.title.shift((x - r.title.get_left()[0]) * RIGHT)
            text = column(head, says, rows, gap="normal")
            text.head, text.says, text.rows = head, says, rows
            return text, min(text_at.fit_scale(text, FOCUS_GROW), cap)

        text, s = build(text_at.width)
        for _ in range(2):  # the text is scaled by s: wrap its sentences for the width they will have
            wider, s2 = build(text_at.width / s)
            if s2 < legible_scale(wider) - 1e-9:
                break
            text, s = wider, s2
        # a sentence on one line where it fits: unwrapped, the text may set smaller (down to ONE_LINE of the
        # wrapped size, never under the legible floor) rather than break a sentence over two lines
        one, s1 = build(1e6)
        if any(len(m) > 1 for m in text.says if not hasattr(m, "typst_code")) and \
                s1 >= max(legible_scale(one), ONE_LINE * s) - 1e-9:
            text, s = one, s1
        head, says, rows = text.head, text.says, text.rows
        if s < legible_scale(text) - 1e-9:
            raise LayoutError(f"property {k + 1}'s card is too small for its text ({s:.2f})")
        text_at.place(text.scale(s), LEFT)
        box = card(region, color)
        overlay(box, pic, text)
        g = VGroup(box, pic, text)
        g.box, g.drawing, g.head, g.says, g.rows, g.text_scale = box, pic, head, says, rows, s
        return g

    def make_mobjects(self) -> None:
        d = self.data
        content = self.layout.content
        # the title as large as the map's cards allow: a very long title steps down a size
        for sizes in ((TITLE + 6, TITLE), (TITLE, HEADING), (HEADING, LABEL)):
            self.lecture_line = title_block(f"Lecture {d.number} · {d.title}", content.width, sizes=sizes)
            self.notebook_line = fit_label(f"notebook {notebook_shown(d.notebook, self.clip().title)}", content.width,
                                           size=LABEL, color=DIM,
                                           max_lines=2, align=ORIGIN, break_words=True)
            head = column(self.lecture_line, self.notebook_line, gap="tight", align=ORIGIN)
            content.place(head, UP)
            try:
                self.map = self.map_tiles(content.below(head, gap=GAP.wide), chips=False)
                break
            except LayoutError:
                if sizes[1] == LABEL:
                    raise
        self.tiles = self.map.tiles
        strip_at, focus_at = content.take_top(STRIP_H, gap=GAP.small)
        self.strip = self.strip_tiles(strip_at)
        # the strip on screen: each map card's box and icon, moved into the strip, with the strip's name
        self.strip_view = []
        for t, st in zip(self.tiles, self.strip):
            v = VGroup(t.box, t.drawing, st.head)
            v.box, v.drawing, v.head = t.box, t.drawing, st.head
            self.strip_view.append(v)
        # one type size for the four property beats (review round 8: the long card set smaller than the others)
        cap = min(self.focus_card(k, focus_at).text_scale for k in range(len(d.properties)))
        self.focus = [self.focus_card(k, focus_at, cap) for k in range(len(d.properties))]
        self.plan_map = self.map_tiles(content, chips=True)  # the closing picture: the lecture's plan
        self.plan = self.plan_map.tiles
        for t, st, p in zip(self.tiles, self.strip, self.plan):  # every name and number lies on the card it moves with
            overlay(t.box, t.drawing, st.head, p.head, p.chips)

    def body(self) -> None:
        self.make_mobjects()
        tiles, arrows = self.tiles, self.map.arrows
        self.beat("lecture", FadeIn(self.lecture_line, shift=GAP.small * UP), FadeIn(self.notebook_line),
                  reveal([*tiles], shift=GAP.small * UP), Create(arrows), run_time=1.8,
                  subject=VGroup(self.lecture_line, self.map))
        prev = None
        for k, key in enumerate(self.KEYS):
            focus = self.focus[k]
            if prev is None:  # the title leaves; the map shrinks into the strip along the top
                first = [FadeOut(self.lecture_line, shift=GAP.small * UP), FadeOut(self.notebook_line),
                         FadeOut(arrows)]
                for t, s in zip(tiles, self.strip):  # a strip's icon has no letters: they leave, not shrink away
                    if len(t.drawing.letters) and not len(s.drawing.letters):
                        t.drawing.remove(t.drawing.letters)
                        first.append(FadeOut(t.drawing.letters))
                light = [dim(*self.strip_view[1:])]  # made first: a dimming remembers full strength when made
                for t, s in zip(tiles, self.strip):
                    first += [Transform(t.box, s.box), Transform(t.drawing, s.drawing), swap(t.text, s.head)]
                lead = AnimationGroup(*first)
            else:
                lead = FadeOut(prev, shift=GAP.wide * LEFT)
                light = [dim(self.strip_view[k - 1]), undim(self.strip_view[k])]
            come = AnimationGroup(*light, FadeIn(focus.box),
                                  ReplacementTransform(self.strip_view[k].drawing.copy(), focus.drawing),
                                  FadeIn(focus.head, shift=GAP.small * UP))
            rest = AnimationGroup(*[FadeIn(m, shift=GAP.small * UP) for m in (*focus.says, *focus.rows)],
                                  lag_ratio=0.15)
            self.beat(key, Succession(lead, come, rest), run_time=2.4 if prev is None else 2.0, subject=focus)
            prev = focus

    # ------------------------------------------------------------------ the takeaway: the plan
    def takeaway(self) -> VGroup:
        return self.plan_map

    def closing(self) -> None:
        """The last property leaves; the strip grows back into the map, now filling the frame, every card at
        full strength with its icon, its name and its clips' numbers: the lecture's plan."""
        take = self.plan_map
        grow = [undim(*self.strip_view)]
        for v, p in zip(self.strip_view, self.plan):
            grow += [Transform(v.box, p.box), Transform(v.drawing, p.drawing), swap(v.head, p.head)]
        come = [FadeIn(p.chips, shift=GAP.small * UP) for p in self.plan] + [Create(take.arrows)]
        on_screen = VGroup(*[VGroup(v.box, v.drawing, p.head, p.chips) for v, p in zip(self.strip_view, self.plan)],
                           take.arrows)
        self.beat(self.closing_key(), Succession(FadeOut(self.focus[-1], shift=GAP.wide * LEFT),
                                                 AnimationGroup(*grow), AnimationGroup(*come)),
                  run_time=2.4, hold=self.CLOSING_HOLD, subject=on_screen)


def notebook_shown(name: str, header: str) -> str:
    """The notebook's name under the lecture's title, without a last "·" part that repeats the clip's header
    ("05 · Self-Attention Properties" under the header "Self-attention properties" is "05"): three titles stacked
    read as one title said three times (review round 9)."""
    parts = [p.strip() for p in name.split("\u00b7")]
    if len(parts) > 1 and parts[-1].casefold() == header.strip().casefold():
        return " \u00b7 ".join(parts[:-1])
    return name


def notebook_said(name: str) -> str:
    """The notebook's name inside a sentence: its parts after a "·" in brackets
    (``05 · Self-Attention Properties`` -> ``05 (Self-Attention Properties)``), never a dot read aloud."""
    first, *rest = [p.strip() for p in re.split(r"\s*·\s*", name) if p.strip()] or [name]
    return f"{first} ({', '.join(rest)})" if rest else first


def icon_words(doc: str) -> str:
    """An icon's description as part of a sentence (``Four tokens …`` -> ``four tokens …``)."""
    doc = doc.rstrip(".")
    first = doc.split()[0]
    return doc[0].lower() + doc[1:] if len(first) == 1 or first[1:].islower() else doc
