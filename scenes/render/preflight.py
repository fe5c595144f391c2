"""Before anything renders: every ``{brace}`` in the narration of every clip about to render names a value
the clip provides.  ``python -m scenes.render.preflight [--cache on|refresh|off] NN_slug ...`` (``clips render``
runs it in a process forked from the render server, where Manim and the clips are imported already: about 0.1 s
a clip; ``--cache`` is the command's: ``--force`` reads no cache here either).

Each clip is set up as its render would set it up (its data built from the config, its narration read), not
played; then ``ClipScene.narration_problems`` compares the braces with ``caption_values()``.  Each problem is
one line, ``@@narration <line>``, and the exit status is 2 when there is any.  A clip that cannot be set up
here (its module fails to import, its data to build) is left to its render, which reports it.
"""

from __future__ import annotations

import sys

MARK = "@@narration "
PROBLEMS_EXIT = 2


def problems(names: list[str]) -> list[str]:
    """The narration problems of the clips ``names`` (as :func:`main` prints them, without the mark)."""
    import os

    from manim import tempconfig

    from ..catalog import REPO_DIR, resolve
    from . import patches, scene_class

    os.chdir(REPO_DIR)  # Manim reads manim.cfg from the working directory
    patches.install_building()
    out: list[str] = []
    for clip in resolve(names):
        try:
            with tempconfig({"write_to_movie": False, "save_last_frame": False, "disable_caching": True,
                             "verbosity": "ERROR", "progress_bar": "none"}):
                scene = scene_class(clip)(voice="none")
                scene.setup()
                out.extend(scene.narration_problems())
        except Exception as e:  # noqa: BLE001 - its render says what is wrong, with its log
            from scenes.kit.base import NarrationError

            if isinstance(e, NarrationError):  # a narration file that cannot be read: a problem of its own
                out.append(str(e))
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    import clipcache

    p = argparse.ArgumentParser(prog="python -m scenes.render.preflight")
    p.add_argument("--cache", choices=clipcache.MODES, default="on")
    p.add_argument("names", nargs="+")
    opts = p.parse_args(sys.argv[1:] if argv is None else argv)
    clipcache.configure(opts.cache)
    found = problems(opts.names)
    for line in found:
        print(f"{MARK}{line}", flush=True)
    return PROBLEMS_EXIT if found else 0


if __name__ == "__main__":
    sys.exit(main())
