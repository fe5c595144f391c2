"""Before anything renders: every ``{brace}`` in the narration of every clip about to render names a value
the clip provides.  ``python -m scenes.render.preflight [--cache on|refresh|off] NN_slug ...`` (``clips render``
runs it in a process forked from the render server, where Manim and the clips are imported already: about 0.1 s
a clip; ``--cache`` is the command's: ``--force`` reads no cache here either).

Each clip is set up as its render would set it up (its data built from the config, its narration read), not
played; then ``ClipScene.narration_problems`` compares the braces with ``caption_values()`` and with every name
the code spells (a value bound to an element exists only once its beat has built it: such a name is spelled in
the clip's code, and the render checks it when the beat runs).  Each problem is
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
    named = SpelledNames()
    out: list[str] = []
    for clip in resolve(names):
        try:
            with tempconfig({"write_to_movie": False, "save_last_frame": False, "disable_caching": True,
                             "verbosity": "ERROR", "progress_bar": "none"}):
                scene = scene_class(clip)(voice="none")
                scene.setup()
                out.extend(scene.narration_problems(named))
        except Exception as e:  # noqa: BLE001 - its render says what is wrong, with its log
            from scenes.kit.base import NarrationError

            if isinstance(e, NarrationError):  # a narration file that cannot be read: a problem of its own
                out.append(str(e))
    return out


class SpelledNames:
    """Every name the project's code spells (``scenes/``, ``mathcore/``): its identifiers and string keys, and the
    f-strings that build keys (``f"q{i}_icon"`` spells every ``q…_icon``).  A value a clip binds only once a beat
    has built its element (``caption_values``) is spelled in its code, so a brace naming none of these names
    nothing any beat could provide, while one that is spelled is left to the render to check at its beat."""

    def __init__(self):
        self.names: set[str] | None = None  # read on first use: most narrations name only values set up front

    def _read(self) -> None:
        import io
        import re
        import tokenize

        from ..catalog import REPO_DIR

        names: set[str] = set()
        patterns: set[str] = set()
        for top in ("scenes", "mathcore"):
            for f in (REPO_DIR / top).rglob("*.py"):
                try:
                    tokens = list(tokenize.generate_tokens(io.StringIO(f.read_text(encoding="utf-8")).readline))
                except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
                    continue  # its clip's render says what is wrong with it
                for t in tokens:
                    if t.type == tokenize.NAME:
                        names.add(t.string)
                    elif t.type == tokenize.STRING:  # a key: 'pair_sums', or f"q{i}_icon" (any q…_icon)
                        m = re.fullmatch(r"([rRbBuUfF]*)(['\"])(.*)\2", t.string, re.S)
                        if not m:
                            continue
                        body = m.group(3)
                        parts = re.split(r"\{[^{}]*\}", body) if "f" in m.group(1).lower() else [body]
                        if all(re.fullmatch(r"[A-Za-z0-9_]*", p) for p in parts) and "".join(parts):
                            if len(parts) == 1:
                                names.add(body)
                            else:
                                patterns.add("[A-Za-z0-9_]*".join(map(re.escape, parts)))
        self.pattern = re.compile("|".join(sorted(patterns)) or "(?!)")
        self.names = names

    def __contains__(self, name: str) -> bool:
        if self.names is None:
            self._read()
        return name in self.names or self.pattern.fullmatch(name) is not None


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
