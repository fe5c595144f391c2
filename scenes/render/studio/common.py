"""The studio's settings, its one-line problems and where in a narration file they belong."""

from __future__ import annotations

import os
import re
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...catalog import REPO_DIR, Clip
from .. import pipeline as pl

DEFAULT_PORT = 8765
DEFAULT_QUALITY = "l"  # the preview: 480p15
STUDIO_DIR = "studio"
FIELDS = ("caption", "describe", "say")  # what a beat's row edits: its caption, description, spoken variant
WATCH_STEP_MS = 40  # the watcher hands over a burst of changes once nothing changed for this long
KEEP_VERSIONS = 3  # per clip, the renders whose files stay served (a page may still be playing one)


class StudioError(RuntimeError):
    """The studio cannot start (its folder is busy, its port taken): one line, exit status 2."""


# ------------------------------------------------------------------------------ problems
@dataclass
class Problem:
    """One line of bad input, and where it belongs on the page: ``config`` (the banner), ``code`` (the
    banner: code every clip reaches), ``clip`` (the clip's row and panel) or ``beat`` (one field of one
    beat: ``field`` is caption, describe or say)."""

    scope: str
    message: str
    clip: str = ""  # the clip's name (NN_slug)
    beat: str = ""  # the beat's key in the narration file
    field: str = ""
    path: str = ""  # the file at fault, relative to the project
    line: int | None = None

    def blocks(self, clip: Clip) -> bool:
        """Whether this problem keeps ``clip`` from rendering (its last good render stays)."""
        return self.scope in ("config", "code") or self.clip == clip.name


def rel(path: Path | str) -> str:
    p = Path(path)
    try:
        return str(p.resolve().relative_to(REPO_DIR))
    except ValueError:
        return str(p)


def short(message: str) -> str:
    """A message with the project's absolute paths made relative to it."""
    return message.replace(str(REPO_DIR) + os.sep, "")


def toml_entries(text: str) -> list[tuple[int, str, str]]:
    """``(line, table, key)`` of every ``key = value`` line of a TOML text, by a line scan that works on
    a file too broken to parse (to tell which entry a parse error is in)."""
    out, table = [], ""
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*\[([^\[\]]+)\]\s*(#.*)?$", line)
        if m:
            table = m.group(1).strip()
            continue
        m = re.match(r"\s*([A-Za-z0-9_-]+)\s*=", line)
        if m:
            out.append((n, table, m.group(1)))
    return out


def where_in_narration(text: str, line: int, clips: list[Clip]) -> tuple[Clip, str, str] | None:
    """The clip, beat and field whose entry holds ``line`` of a narration file (``None``: outside any)."""
    hit = None
    for n, table, key in toml_entries(text):
        if n > line:
            break
        hit = (table, key)
    if hit is None:
        return None
    table, key = hit
    for c in clips:
        for fld, name in (("caption", c.slug), ("describe", f"{c.slug}.describe"), ("say", f"{c.slug}.say")):
            if table == name:
                return c, key, fld
    return None


def narration_problems(path: Path, clips: list[Clip]) -> tuple[dict | None, list[Problem]]:
    """Parse one narration file; the problems found before anything renders: invalid TOML, a section
    missing, an entry that is not text, a brace that opens no name (``{`` alone)."""
    from ...kit.base import narration_file

    mine = [c for c in clips if narration_file(c) == path]
    where = rel(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        return None, [Problem("clip", f"{where}: narration file not found", c.name, path=where) for c in mine]
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        m = re.search(r"line (\d+)", str(e))
        line = int(m.group(1)) if m else None
        msg = f"{where}: not valid TOML: {e}"
        out = []
        spot = where_in_narration(text, line, mine) if line else None
        for c in mine:
            if spot and spot[0] is c:
                out.append(Problem("beat", msg, c.name, spot[1], spot[2], where, line))
            else:
                out.append(Problem("clip", msg, c.name, path=where, line=line))
        return None, out
    out = []
    for c in mine:
        section = data.get(c.slug)
        if not isinstance(section, dict):
            out.append(Problem("clip", f"{where}: section [{c.slug}] is missing", c.name, path=where))
            continue
        tables = [("caption", f"[{c.slug}]", section)] + [
            (f, f"[{c.slug}.{f}]", section[f]) for f in ("describe", "say") if isinstance(section.get(f), dict)]
        for fld, name, table in tables:
            for key, value in table.items():
                if fld == "caption" and isinstance(value, dict):
                    continue
                if not isinstance(value, str):
                    out.append(Problem("beat", f"{where}: {name}.{key} must be text in quotes, got {value!r}",
                                       c.name, key, fld, where))
                    continue
                try:
                    list(string.Formatter().parse(value))
                except ValueError as e:
                    out.append(Problem("beat", f"{where}: {name}.{key}: {e} (a brace names a value, as in "
                                               f"{{T}}; write {{{{ or }}}} for a brace itself)", c.name, key, fld, where))
    return data, out


def _sources(c: Clip) -> set[Path]:
    """The clip's own code, resolved: its module, and the widgets beside it when it has them."""
    return {p.resolve() for p in c.sources}


def code_problems(path: Path, clips: list[Clip]) -> list[Problem]:
    """A Python file that does not compile: its clips' problem if it is a clip module, else every clip's."""
    where = rel(path)
    try:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except FileNotFoundError:
        return []
    except SyntaxError as e:
        msg = f"{where}:{e.lineno}: SyntaxError: {e.msg}"
        mine = [c for c in clips if path.resolve() in _sources(c)]
        if mine:
            return [Problem("clip", msg, c.name, path=where, line=e.lineno) for c in mine]
        return [Problem("code", msg, path=where, line=e.lineno)]
    except ValueError as e:  # null bytes
        return [Problem("code", f"{where}: {e}", path=where)]
    return []


def config_problems(voice: str | None) -> tuple[object | None, list[Problem]]:
    """The lecture config as ``clips render`` checks it: values in range, text the font and the voice can take."""
    from mathcore.config import ConfigError, config_path, load_config

    try:
        cfg = load_config()
        pl.check_config_text(cfg, voice or cfg.voice)
    except ConfigError as e:
        return None, [Problem("config", short(str(e)), path=rel(config_path()))]
    return cfg, []


_EXC_LINE = re.compile(r"^(?:[\w.]+\.)?(\w*(?:Error|Exception|Exit|Interrupt))(?::\s*(.*))?$")
_ENTRY = re.compile(r"\[([\w-]+?)(?:\.(describe|say))?\]\.([\w-]+)")


def failure_problem(log_text: str, clip: Clip, section: dict | None) -> Problem:
    """The one line a failed render's log comes to, placed where it belongs: the beat and field a
    narration error names, else the clip (with the line of its own code that raised, if any)."""
    lines = [ln.rstrip() for ln in log_text.splitlines() if ln.strip()]
    last = lines[-1].strip() if lines else "the render failed"
    m = _EXC_LINE.match(last)
    kind, text = (m.group(1), m.group(2) or "") if m else ("", last)
    message = short(text if kind in ("NarrationError", "VoiceError", "ConfigError") else last)
    e = _ENTRY.search(text)
    if kind == "NarrationError" and e and e.group(1) == clip.slug:
        return Problem("beat", message, clip.name, e.group(3), e.group(2) or "caption")
    s = re.search(r"spoken text of ([\w-]+)\.([\w-]+) ", text)
    if kind == "VoiceError" and s and s.group(1) == clip.slug:
        say = (section or {}).get("say", {})
        return Problem("beat", message, clip.name, s.group(2), "say" if s.group(2) in say else "caption")
    if kind == "KeyError" and section:  # a {name} in a [slug.say] entry the clip does not provide
        name = text.strip("'\"")
        for key, value in (section.get("say") or {}).items():
            if isinstance(value, str) and "{" + name + "}" in value:
                return Problem("beat", f"[{clip.slug}.say].{key} names {{{name}}}, a value this clip does not provide",
                               clip.name, key, "say")
    # where the lecturer looks: the last frame of the clip's own module in the traceback, else of the project's code
    spot, own = "", ""
    for ln in lines:
        f = re.match(r'\s*File "([^"]+)", line (\d+)', ln)
        if f and f.group(1).startswith(str(REPO_DIR)) and "/scenes/render/" not in f.group(1):
            spot = f"{rel(f.group(1))}:{f.group(2)}: "
            if Path(f.group(1)).resolve() in _sources(clip):
                own = spot
    spot = own or spot
    return Problem("clip", f"{spot}{message}" if spot and not message.startswith(spot) else message, clip.name)


