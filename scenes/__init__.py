"""Manim scenes, one module per clip family (``permutation``, ``equivariance``, ...), the shared
kit (``scenes.kit``) and the renderer behind the ``clips`` command (``scenes.render``).

Importing the package points fontconfig at the project's fonts (:func:`_fontconfig`) before any Pango
text is drawn in this process or in the processes it starts."""

from __future__ import annotations

import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
# the system's own configuration, wherever its fontconfig keeps it (Debian, Homebrew on Apple silicon and Intel)
_SYSTEM_CONFS = ("/etc/fonts/fonts.conf", "/opt/homebrew/etc/fonts/fonts.conf", "/usr/local/etc/fonts/fonts.conf")


def _fontconfig_text(fonts: Path, cache: Path, base: str | None) -> str:
    includes = [base] if base else list(_SYSTEM_CONFS)
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
             "<!-- written by scenes/__init__.py: the system's fonts, the lecture's fonts, no rescans -->",
             "<fontconfig>"]
    lines += [f'  <include ignore_missing="yes">{p}</include>' for p in includes]
    lines += [f"  <dir>{fonts}</dir>", f"  <cachedir>{cache}</cachedir>",
              "  <config><rescan><int>0</int></rescan></config>", "</fontconfig>", ""]
    return "\n".join(lines)


def _fontconfig() -> None:
    """Make Inter and DejaVu Sans Mono (``assets/fonts``) fonts of fontconfig's own configuration for this process
    and its children, through ``FONTCONFIG_FILE``: a configuration that includes the system's, adds the lecture's
    font folder and never rescans.  Fonts registered at run time (``theme.register_fonts``) live only as long as
    the configuration they were added to and are not seen by a Pango font map that looked them up before: a
    process that lost them drew every label in a fallback font (a fresh clone's suite: widths 8 to 15 % off,
    layouts refused).  Set before fontconfig starts, the fonts are part of every configuration it loads.
    Nothing happens where the folder cannot be written; ``ATTENTION_CLIPS_FONTCONFIG=0`` turns it off."""
    if os.environ.get("ATTENTION_CLIPS_FONTCONFIG", "1") in ("0", "no", "off"):
        return
    fonts, cache = _ROOT / "assets" / "fonts", _ROOT / ".render-cache" / "fontconfig"
    conf = cache / "fonts.conf"
    current = os.environ.get("FONTCONFIG_FILE")
    if not fonts.is_dir():
        return
    # set by a parent process: written again if the folder was removed since (a cleared cache)
    text = _fontconfig_text(fonts, cache, None if current == str(conf) else current)
    try:
        if not conf.is_file() or conf.read_text() != text:
            cache.mkdir(parents=True, exist_ok=True)
            tmp = conf.with_name(f"fonts.conf.{os.getpid()}.tmp")
            tmp.write_text(text)
            os.replace(tmp, conf)  # whole or absent, for any number of processes
    except OSError:
        return
    os.environ["FONTCONFIG_FILE"] = str(conf)


_fontconfig()
