"""``clips stills``: each clip's designed stills as PNG and SVG in ``<out>/stills/<theme>/``.

Files are named ``NN_slug__<still>.png`` / ``.svg``.  A clip's stills are the figures
``scenes/figures/`` registers for it (``scenes.figures.stills_for``), drawn with the clip's own
colour scales (``ColorScale``: one colormap and ``Normalize``), so slides match the video;
``--theme dark`` (slides, the default) or ``--theme light`` (print).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..catalog import resolve
from . import scene_class
from .pipeline import OutputLock

THEMES = ("dark", "light")


def clip_descriptions(c, cls, cfg) -> list[str]:
    """The clip's audio descriptions of its picture, in beat order, values filled in: the narration's
    ``[slug.describe]`` texts (the clip is run with its animations skipped only when one names a
    measured value), else nothing."""
    import string

    from ..kit.base import NarrationError, narration

    try:
        table = narration(c).get("describe", {})
    except NarrationError:
        return []
    if not isinstance(table, dict) or not table:
        return []
    if all(not [f for _, f, _, _ in string.Formatter().parse(t) if f] for t in table.values() if isinstance(t, str)):
        return [" ".join(t.split()) for t in table.values() if isinstance(t, str)]
    from scenes.audit.beats import audit_clip

    return [cap.describe for cap in audit_clip(cls, lecture_config=cfg).scene.captions if cap.describe]


def add_alt_text(paths: list[Path], alt: str) -> None:
    """Give each written still its alt text: the PNG's ``Description`` text chunk, the SVG's ``<title>``
    and ``<desc>`` (with ``role="img"``), and ``<stem>.alt.txt`` beside them for pasting into slides."""
    import html
    import os
    import re

    from PIL import Image, PngImagePlugin

    for p in paths:
        tmp = p.with_name(p.name + ".partial")
        if p.suffix == ".png":
            with Image.open(p) as im:
                info = PngImagePlugin.PngInfo()
                info.add_itxt("Description", alt)
                im.save(tmp, format="PNG", pnginfo=info)
        elif p.suffix == ".svg":
            text = p.read_text(encoding="utf-8")
            title = html.escape(alt.split(". ")[0].rstrip("."))
            text = re.sub(r"(<svg\b[^>]*?)>", lambda m: f'{m.group(1)} role="img" aria-labelledby="alt-title alt-desc">'
                          f'<title id="alt-title">{title}</title><desc id="alt-desc">{html.escape(alt)}</desc>', text, count=1)
            tmp.write_text(text, encoding="utf-8")
        else:
            continue
        os.replace(tmp, p)
    if paths:
        stem = paths[0].with_suffix("")
        txt = stem.with_name(stem.name + ".alt.txt")
        tmp = txt.with_name(txt.name + ".partial")
        tmp.write_text(alt + "\n", encoding="utf-8")
        os.replace(tmp, txt)


def cmd_stills(args) -> int:
    from mathcore.config import load_config

    from ..figures import MissingStillError, stills_for
    from scenes.stills.draw import save
    from .transcript import alt_text

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
            descriptions = clip_descriptions(c, scene_class(c), cfg)
            for still in stills:
                paths = save(still, dst / f"{c.name}__{still.name}", theme)
                add_alt_text(paths, alt_text(still, descriptions))
                written.update(paths)
                written.add(dst / f"{c.name}__{still.name}.alt.txt")
                n += 1
            for old in dst.glob(f"{c.name}__*"):  # stills the clip no longer makes
                if old not in written:
                    old.unlink()
    print(f"stills: {n} figure(s) as PNG and SVG with alt text ({theme} theme) -> {dst}")
    for f in failed:
        print(f"clips: {f}", file=sys.stderr)
    return 1 if failed else 0
