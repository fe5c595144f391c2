"""``clips stills``: each clip's designed stills as PNG and SVG in ``<out>/stills/<theme>/``.

Files are named ``NN_slug__<still>.png`` / ``.svg``.  A clip's stills are the figures
``scenes/figures/`` registers for it (``scenes.figures.stills_for``), drawn with the clip's own
colour scales (``ColorScale``: one colormap and ``Normalize``), so slides match the video;
``--theme dark`` (slides, the default) or ``--theme light`` (print).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from ..catalog import resolve
from .pipeline import OutputLock

THEMES = ("dark", "light")


def scene_class(c):
    return getattr(importlib.import_module(f"scenes.{c.module}"), c.scene)


def cmd_stills(args) -> int:
    from mathcore.config import load_config

    from ..figures import MissingStillError, stills_for
    from ..kit.stills import save

    cfg = load_config()
    clips = resolve(args.names)
    theme = getattr(args, "theme", None) or "dark"
    out = Path(args.out).resolve()
    dst = out / "stills" / theme
    n, failed = 0, []
    with OutputLock(out):
        dst.mkdir(parents=True, exist_ok=True)
        for c in clips:
            try:
                stills = stills_for(scene_class(c), cfg)
            except MissingStillError as e:
                failed.append(f"{c.name}: {e}")
                continue
            written = set()
            for still in stills:
                written.update(save(still, dst / f"{c.name}__{still.name}", theme))
                n += 1
            for old in dst.glob(f"{c.name}__*"):  # stills the clip no longer makes
                if old not in written:
                    old.unlink()
    print(f"stills: {n} figure(s) as PNG and SVG ({theme} theme) -> {dst}")
    for f in failed:
        print(f"clips: {f}", file=sys.stderr)
    return 1 if failed else 0
