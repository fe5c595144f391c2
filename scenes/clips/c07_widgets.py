"""The widgets only clip 07 draws (``scenes/clips/c07_same_multiset.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    UP,
    RoundedRectangle,
    VGroup,
)

from scenes.kit.layout import baseline_y, overlay
from scenes.kit.theme import SMALL, label


def chip_text_size(chip_height: float, size: float = SMALL) -> float:
    """The largest text size (at most ``size``) whose ``"Xg"`` leaves 0.06 units of air in a chip."""
    probe = label("Xg", size=size)
    return float(min(size, size * (chip_height - 0.12) / probe.height))


class WordColumn(VGroup):
    """Words in chips, one per row ``row_height`` apart (top to bottom), all of one width: the word in white on its
    colour's frame and tint, as the sentences' chips (kit ``TokenRow``) draw it (legible on any word colour).

    Every word sits on one baseline inside its chip, whatever its ascenders and descenders
    ("the" and "mouse" line up).  ``chips[i]`` is ``VGroup(box, text)`` of ``words[i]``;
    ``texts[i]`` its text.  Chips are at most ``MAX_CHIP`` tall, however tall the rows."""

    MAX_CHIP = 0.72
    FILL = 0.9  # a chip's height as a share of its row
    PAD = 0.06  # air above and below a chip's text, together

    @classmethod
    def min_row(cls, size: float = SMALL) -> float:
        """The shortest row whose chip holds text of ``size``."""
        return (label("Xg", size=size).height + cls.PAD) / cls.FILL

    @classmethod
    def chip_width(cls, words: Sequence[str], size: float = SMALL) -> float:
        """The width of a column of chips that holds every word of ``words`` at ``size``."""
        return max(label(w, size=size).width for w in words) + 0.3

    def __init__(self, words: Sequence[str], colors: Sequence, row_height: float, width: float | None = None,
                 size: float | None = None, **kw):
        super().__init__(**kw)
        self.words = tuple(words)
        h = min(row_height * self.FILL, self.MAX_CHIP)
        self.text_size = size if size is not None else chip_text_size(h)
        # white words, as the sentences' own chips write them; the word's colour is its chip's frame and fill
        texts = [label(w, size=self.text_size) for w in self.words]
        probe = label("Xg", size=self.text_size)
        w = width if width is not None else self.chip_width(self.words, self.text_size)
        depth = baseline_y(probe) - probe.get_bottom()[1]
        self.chips = VGroup()
        self.texts = VGroup()
        n = len(self.words)
        for i, (t, c) in enumerate(zip(texts, colors)):
            box = RoundedRectangle(corner_radius=0.08, width=w, height=h, stroke_color=c, stroke_width=2,
                                   fill_color=c, fill_opacity=0.15)
            box.move_to(np.array([0.0, ((n - 1) / 2 - i) * row_height, 0.0]))
            t.set_x(box.get_x())
            t.shift((box.get_bottom()[1] + (h - probe.height) / 2 + depth - baseline_y(t)) * UP)
            self.chips.add(overlay(VGroup(box, t)))
            self.texts.add(t)
        self.add(self.chips)
