"""``make bench``: render timings on this machine, side by side in one run, with ratios
against the targets.  It works on a throwaway copy of the project (your ``out/`` is never
touched) and asserts nothing.  Run it on an otherwise idle machine.

Sections (``python -m scenes.render.bench [preview] [lecture] [frames] [voice] [edit] [nochange] [check] [studio]``, or
``--only edit,nochange``; all by default; ``common`` holds what they share, ``sections`` all but the
studio's, ``studio`` the studio's):

* ``preview``: the deck at 480p15 with ``--jobs 1`` and ``--jobs 2``, a no-change run against
  plain ``manim`` with its own cache warm, a one-clip edit;
* ``lecture``: the deck at the lecture's quality (1080p30) on 2 jobs, silent, against the
  lecture's running time (target: at most half);
* ``frames``: single clips at 1080p60 through the pipeline against a plain ``manim -qh
  --disable_caching`` run of the same scene, both warmed once (target: at least 1.5× faster);
  whether our encoder settings show (the worst sampled frame's PSNR against Manim's frames
  encoded losslessly, beside Manim's own encode's); and the same clip at 1080p30;
* ``voice``: Piper's real-time factor on the lecture's own sentences, and the deck at 1080p30
  with the voice, from an empty voice cache and again with the cache warm;
* ``edit``: clip 03 at 1080p30 with the voice: a forced full render, then one caption edited and the clip
  rendered, three times over (three beats; the figure is the median, target: at most 15 s), and the
  edited clip against a forced full render of it (same file; the largest pixel difference of any decoded
  frame);
* ``nochange``: the deck with the shipped config (the voice on) when nothing changed (target:
  at most 1 s, and at least 20x faster than Manim's own warm cache of one clip);
* ``check``: ``clips check`` on the correct submission (``.py`` and the notebook, whose cells import
  matplotlib), each in its sandbox, the command's start included (target: at most 3 s), and on the whole
  gallery of examples/submissions/ with ``--jobs 2``: the slowest submission but the one that loops
  forever (it takes its 10 s timeout) and the gallery's total;
* ``studio``: one caption of clip 03 edited while ``clips studio`` shows it, from the file's save to the page's
  own "ready" in Chromium (the new clip loaded and seeked to the beat that changed), three edits, the median
  against the target (480p15: at most 3 s; 1080p30: at most 8 s), beside the floor no edit can go under
  (synthesising the sentence, drawing and encoding one segment, muxing), each measured alone.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ...catalog import CLIPS
from .common import _copy_project
from .sections import check, edit, frames, lecture, nochange, preview, voice
from .studio import studio

SECTIONS = {"preview": preview, "lecture": lecture, "frames": frames, "voice": voice, "edit": edit,
            "nochange": nochange, "check": check, "studio": studio}


def main(argv: list[str] | None = None) -> int:
    names = list(sys.argv[1:] if argv is None else argv)
    if names[:1] == ["--only"]:  # `--only edit,nochange`
        names = [n for part in names[1:] for n in part.split(",") if n]
    names = names or list(SECTIONS)
    bad = [n for n in names if n not in SECTIONS]
    if bad:
        print(f"bench: unknown section {bad[0]!r}; choose from {', '.join(SECTIONS)}", file=sys.stderr)
        return 2
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="clips-bench-") as tmp:
        root = _copy_project(Path(tmp) / "project")
        print(f"bench: {len(CLIPS)} clips on {os.cpu_count()} cores (a copy of the project in {root})", flush=True)
        for n in names:
            print(f"[{n}]", flush=True)
            SECTIONS[n](root, rows)
    print()
    w = max(len(r[0]) for r in rows)
    for name, fig, target in rows:
        print(f"{name:<{w}}  {fig:>14}  {target}")
