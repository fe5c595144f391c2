"""``clips stills``: each clip's key data as matplotlib PNG and SVG in ``<out>/stills/``.

Files are named ``NN_slug__<still>.png`` / ``.svg``; the figures use the clip's own colour
scales (``ColorScale``: one colormap and ``Normalize``), so slides match the video.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..catalog import resolve
from .pipeline import OutputLock


def cmd_stills(args) -> int:
    from mathcore.config import load_config

    from ..kit.stills import save

    cfg = load_config()
    clips = resolve(args.names)
    out = Path(args.out).resolve()
    dst = out / "stills"
    n = 0
    with OutputLock(out):
        dst.mkdir(parents=True, exist_ok=True)
        for c in clips:
            cls = getattr(importlib.import_module(f"scenes.{c.module}"), c.scene)
            written = set()
            for still in cls.stills(cls.build_data(cfg), cfg):
                written.update(save(still, dst / f"{c.name}__{still.name}"))
                n += 1
            for old in dst.glob(f"{c.name}__*"):  # stills the clip no longer makes
                if old not in written:
                    old.unlink()
    print(f"stills: {n} figure(s) as PNG and SVG -> {dst}")
    return 0
