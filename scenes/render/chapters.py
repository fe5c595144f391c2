"""The lecture's chapters: one ``0:00 Title`` line per clip at the clip's start in ``lecture.mp4``.

``clips lecture`` writes them beside the joined lecture and ``clips present`` writes them when
they are missing; both take them from here, so neither module needs the other.
"""

from __future__ import annotations

import os
from pathlib import Path

from .pipeline import PARTIAL

CHAPTERS = "lecture-chapters.txt"


def chapter_stamp(seconds: float) -> str:
    """``M:SS`` (``H:MM:SS`` from an hour), rounded down: a chapter never starts after its clip."""
    s = int(seconds + 1e-6)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def chapters_text(chapters: list[tuple[float, str]]) -> str:
    """``0:00 Title`` lines, one a clip, as YouTube and Vimeo read them from a description."""
    return "".join(f"{chapter_stamp(t)} {title}\n" for t, title in chapters)


def write_chapters(path: Path, chapters: list[tuple[float, str]]) -> None:
    tmp = path.with_name(path.name + PARTIAL)
    tmp.write_text(chapters_text(chapters), encoding="utf-8")
    os.replace(tmp, path)
