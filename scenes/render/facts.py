"""What a render depends on and what it made, for the pipeline and the worker alike: the library
versions in every key, and a video's length and frame count.  Below both (the worker and the
segments read them without importing the pipeline, which hands jobs to the worker)."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

VERSIONED = ("manim", "typst", "numpy", "av", "manimpango")


def _version(pkg: str) -> str:
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return "absent"


def library_versions() -> tuple[str, ...]:
    return tuple(f"{p}=={_version(p)}" for p in VERSIONED) + (f"python=={sys.version.split()[0]}",)


def video_facts(path: Path) -> tuple[float, int]:
    """``(duration seconds, frame count)`` of an mp4, read with PyAV."""
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        frames = s.frames or sum(1 for _ in c.demux(s) if _.size)
        duration = float(frames / s.average_rate)  # the picture's length (an audio track may pad past it)
    return duration, int(frames)
