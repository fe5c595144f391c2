"""15 ``Recap`` (§11 diary): the four diary questions as four cards, each with the icon of its
answer, the answer in one sentence, and chips naming the clips that show it, in the colour of
their family (the same colours, chips and icons as the map in 00).

* ``q1`` … ``q4``: one card a beat (the cards before it dim to the background);
* ``close``: questions and icons leave; the four answers, with their chips, grow to fill their
  cards.

Laid out from the base scene's regions, so a long lecture title (wrapped onto two lines) or
another notebook name only moves things, never pushes them off the frame.  The icons are
described once, in ``scenes/figures/framing.py``, for this clip and its still; the cards and
chips are ``scenes.kit.cards``, shared with the other framing clip.

Render directly with ``manim -ql scenes/clips/c15_recap.py Recap``.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Succession,
    Transform,
    VGroup,
)

from mathcore.config import LectureConfig
from mathcore.extrapolation import GPT2
from scenes.catalog import Clip
from scenes.figures.framing import RECAP_ICONS
from scenes.kit import DIM, FG, LABEL, SMALL, ClipScene, family_color, label
from scenes.kit.cards import GROW, clip_chip, clip_number, clip_of, drawing, panel
from scenes.kit.compose import GAP, column
from scenes.kit.layout import LayoutError, Region, baseline_y, legible_scale, wrap_words
from scenes.kit.notation import N
from scenes.kit.numbers import count

SHRINK = 0.96  # the step by which texts that must share one size shrink until all fit


def _clips_text(clips) -> str:
    """``clip 02`` / ``clips 04 and 05`` / ``clips 07 to 14``."""
    nums = [clip_number(c.number) for c in clips]
    if len(nums) == 1:
        return f"clip {nums[0]}"
    return f"clips {nums[0]} and {nums[1]}" if len(nums) == 2 else f"clips {nums[0]} to {nums[-1]}"


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
        return RecapData(tuple(Answer(q, a, tuple(clip_of(n) for n in nums)) for q, a, nums in qa))

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

