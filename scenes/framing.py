"""The lecture's frame: the title clip and the recap.

00 ``Title``: the lecture's number, title and notebook (from the config) and the four
properties of the notebook as a map of the clips that show them (titles and numbers read
from ``scenes.catalog.LECTURE``).

15 ``Recap`` (§11 diary): the four diary questions, each answered in one line with the
clips that show it.

Render directly with ``manim -ql scenes/framing.py Title``.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, LaggedStart, RoundedRectangle, VGroup

from mathcore.config import LectureConfig
from mathcore.extrapolation import GPT2
from scenes.catalog import LECTURE, Clip
from scenes.kit import ACCENT, BLUE, DIM, FG, GOOD, HEADING, LABEL, SMALL, ClipScene, label
from scenes.kit.theme import PURPLE

PROPERTY_COLORS = (BLUE, ACCENT, GOOD, PURPLE)

# The notebook's four properties (seed: "Four properties to investigate experimentally") and
# the clips that show each.  Clip 06 (causality breaks equivariance) sits with the mask that
# causes it; clip 07 (same words, same outputs) opens the positional part: it is what attention
# cannot do without positions.
PROPERTIES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("Permutation equivariance", (1, 2)),
    ("Causal masking", (3, 6)),
    ("Prefix invariance, KV cache", (4, 5)),
    ("Positional embeddings", (7, 8, 9, 10, 11, 12, 13, 14)),
)


def clip_number(n: int) -> str:
    return f"{n:02d}"


def _clip(n: int) -> Clip:
    for c in LECTURE:
        if c.number == n:
            return c
    raise LookupError(f"no clip number {n} in the catalog")


# ====================================================================== 00 Title
@dataclass(frozen=True)
class TitleData:
    number: int
    title: str
    notebook: str
    properties: tuple[tuple[str, tuple[Clip, ...]], ...]  # (property, clips that show it)


class Title(ClipScene):
    """00 · The lecture's title and a map of its clips."""

    CLOSING_HOLD = 1.5

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> TitleData:
        return TitleData(
            number=cfg.number, title=cfg.title, notebook=cfg.notebook,
            properties=tuple((name, tuple(_clip(n) for n in nums)) for name, nums in PROPERTIES),
        )

    def caption_values(self) -> dict:
        d = self.data
        return {"number": d.number, "title": d.title, "notebook": d.notebook, "n_clips": sum(len(c) for _, c in d.properties)}

    def make_box(self, k: int, width: float, height: float):
        name, clips = self.data.properties[k]
        color = PROPERTY_COLORS[k % len(PROPERTY_COLORS)]
        box = RoundedRectangle(corner_radius=0.15, width=width, height=height, stroke_color=color, stroke_width=3,
                               fill_color=color, fill_opacity=0.08)
        head = label(name, size=SMALL + 1, color=color, weight="BOLD")
        rows = VGroup()
        nums = VGroup()
        for c in clips:
            num = label(clip_number(c.number), size=SMALL, color=color, weight="BOLD")
            txt = label(c.title, size=SMALL, color=FG)
            rows.add(VGroup(num, txt).arrange(RIGHT, buff=0.25))
            nums.add(num)
        rows.arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        for r in rows:  # numbers in one column
            r[1].next_to(r[0], RIGHT, buff=0.25)
            r[1].align_to(rows[0][1], LEFT)
        content = VGroup(head, rows).arrange(DOWN, buff=0.16, aligned_edge=LEFT)
        content.move_to(box).align_to(box, LEFT).shift(0.3 * RIGHT)
        g = VGroup(box, content)
        g.box, g.head, g.rows, g.nums = box, head, rows, nums
        return g

    def make_mobjects(self) -> None:
        d = self.data
        top = self.content_top
        self.lecture_line = label(f"Lecture {d.number} · {d.title}", size=HEADING, color=FG, weight="BOLD")
        self.notebook_line = label(f"notebook {d.notebook}", size=LABEL, color=DIM)
        head = VGroup(self.lecture_line, self.notebook_line).arrange(DOWN, buff=0.1)
        head.move_to([0, top - head.height / 2, 0])
        y_top = head.get_bottom()[1] - 0.2
        y_bottom = -3.05
        w = 6.65
        gap = 0.15
        h_left = (y_top - y_bottom - 2 * gap) / 3
        self.boxes = []
        for k in range(3):
            b = self.make_box(k, w, h_left)
            b.move_to([-w / 2 - gap / 2, y_top - h_left / 2 - k * (h_left + gap), 0])
            self.boxes.append(b)
        b = self.make_box(3, w, y_top - y_bottom)
        b.move_to([w / 2 + gap / 2, (y_top + y_bottom) / 2, 0])
        self.boxes.append(b)

    def body(self) -> None:
        self.make_mobjects()
        self.beat("lecture", FadeIn(self.lecture_line, shift=0.1 * UP), FadeIn(self.notebook_line), run_time=1.0)
        for k, key in enumerate(("equivariance", "causal", "prefix", "positions")):
            b = self.boxes[k]
            self.beat(key, FadeIn(b.box), FadeIn(b.head),
                      LaggedStart(*[FadeIn(r, shift=0.1 * RIGHT) for r in b.rows], lag_ratio=0.2), run_time=1.0,
                      hold=0.3)


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
    """15 · The four diary questions, one line each, with the clips that show the answer."""

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

    def make_mobjects(self) -> None:
        top = self.content_top
        self.rows = []
        y = top - 0.25
        step = (top - 0.6 - (-2.45)) / 3
        for k, a in enumerate(self.data.answers):
            color = PROPERTY_COLORS[k % len(PROPERTY_COLORS)]
            q = label(a.question, size=SMALL, color=DIM)
            ans = label(a.answer, size=SMALL + 1, color=FG)
            badge_nums = VGroup(*[label(clip_number(c.number), size=LABEL, color=color, weight="BOLD") for c in a.clips])
            badge_nums.arrange(RIGHT, buff=0.2)
            badge = VGroup(label("clip" if len(a.clips) == 1 else "clips", size=SMALL, color=DIM), badge_nums)
            badge.arrange(DOWN, buff=0.08)
            text = VGroup(q, ans).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
            row = VGroup(badge, text)
            badge.move_to([-6.3, y - step * k - 0.35, 0])
            text.move_to([0, badge.get_y(), 0]).align_to([-5.4, 0, 0], LEFT)
            row.q, row.ans, row.badge, row.nums = q, ans, badge, badge_nums
            self.rows.append(row)

    def body(self) -> None:
        self.make_mobjects()
        for k, key in enumerate(("q1", "q2", "q3", "q4")):
            r = self.rows[k]
            self.beat(key, FadeIn(r.badge, shift=0.1 * RIGHT), FadeIn(r.q), FadeIn(r.ans, shift=0.1 * UP), run_time=1.0)
