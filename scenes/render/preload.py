"""Imported once, by the render fork server only (never by ``clips`` itself): what every clip's
worker needs, so a worker forked from the server starts with Manim, PyAV, the loudness meter,
the kit and the clip modules already imported (about 3 s a clip, a third of a clip at the test
quality, was spent importing them).

Manim reads ``manim.cfg`` from the working directory when it is imported, as a worker started
with ``cwd=REPO_DIR`` did; so the server moves there first.  A clip module that cannot be
imported is left out: its worker imports it again and fails with the real error in its log.
"""

from __future__ import annotations

import importlib
import os

from ..catalog import CLIPS, REPO_DIR

os.chdir(REPO_DIR)

import av  # noqa: E402,F401
import manim  # noqa: E402,F401
import pyloudnorm  # noqa: E402,F401

from ..kit import base  # noqa: E402,F401
from ..narration import voice  # noqa: E402,F401
from . import audio, patches, preflight, segments, speed, worker  # noqa: E402,F401

patches.install_building()  # the copies every clip's process uses (the render's own patches: its worker)

for _module in sorted({c.module for c in CLIPS}):
    try:
        importlib.import_module(f"scenes.{_module}")
    except BaseException:  # noqa: BLE001 - reported by the clip's own worker, not here
        pass
