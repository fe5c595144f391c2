"""``clips studio``: a live preview in the browser that follows every edit.

    clips studio [NAME ...] [-q l|m|h|h60|k] [--out DIR] [--port N] [--host ADDR] [--jobs N]
                 [--voice piper|recorded|none] [--no-open]

A local web server (aiohttp, on 127.0.0.1 unless told otherwise) serves a page made of the presenter's own
player (``presenter.js``: beat stops, captions, descriptions, keys), the clip list beside it and, for the
clip on screen, every beat's caption, description and spoken variant, editable in place.

A file watcher (``watchfiles``) follows what the clips are made of: the lecture config, the narration
files, the lecturer's recordings and the code under ``scenes/`` and ``mathcore/``.  An edit goes through
the same checks and the same render plan as ``clips render`` (``pipeline.KeyContext``, ``is_current``:
only the clips whose key changed render, beat-level reuse inside them), in workers forked from the same
warm server (``forked.py``), into ``OUT/studio/QUALITY/`` (480p by default): the lecture's own clips in
``OUT/QUALITY/`` are never touched, and every file is placed atomically (``pipeline.commit``).  The page is
told over server-sent events and plays the clip again from the first beat that changed.

* Two edits in quick succession render once: the watcher gathers a burst of saves, and a render an
  edit has made stale (its key changed) is stopped and started again on the new input.
* Bad input (invalid TOML, a ``{brace}`` naming no value, a config value out of range, a clip module
  that does not compile, a render that fails) is one line on the page, where it belongs (the config's
  banner, the clip, the beat's field), and the page keeps playing the last good render; fixing it
  resumes.
* An edit made in the page is written into the narration file with ``tomlkit`` (comments, order and
  layout kept) and is then an edit of that file like any other.
* Code edits restart the warm server (its workers must import the new code) once no worker runs.

The videos are served from ``OUT/studio/QUALITY/media/<sha256>.<ext>``: a name per content, so a page
still playing the previous render never reads half of the next one.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import string
import sys
import threading
import time
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from ..catalog import REPO_DIR, SCENES_DIR, Clip
from . import forked
from . import pipeline as pl

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
    from ..kit.base import narration_file

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


# ------------------------------------------------------------------------------ narration edits
def edit_narration(path: Path, slug: str, key: str, fld: str, text: str, expect: str | None = None) -> None:
    """Write one beat's caption, description or spoken variant into the narration file with ``tomlkit``:
    every other line, comment and blank line stays as it was.  An empty description or spoken variant
    removes the entry; the file is written aside and renamed.  Raises ``ValueError`` (one line) when the
    edit cannot be made (the file does not parse, the beat is unknown, the caption would be empty, or
    ``expect``, the text the page last saw, is no longer what the file says)."""
    import tomlkit

    if fld not in FIELDS:
        raise ValueError(f"a beat's field is one of {', '.join(FIELDS)}, got {fld!r}")
    text = " ".join(str(text).split())  # one line, as every entry of the narration files
    where = rel(path)
    try:
        doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    except Exception as e:  # noqa: BLE001 - tomlkit's parse errors have no common base worth naming
        raise ValueError(f"{where} does not parse ({e}); fix it in the file first") from None
    section = doc.get(slug)
    if section is None or not hasattr(section, "get"):
        raise ValueError(f"{where}: section [{slug}] is missing")
    if fld == "caption":
        if not isinstance(section.get(key), str):
            raise ValueError(f"{where}: [{slug}] has no caption {key!r}")
        table = section
    else:
        if not isinstance(section.get(key), str):
            raise ValueError(f"{where}: [{slug}] has no beat {key!r}")
        table = section.get(fld)
    current = str(table[key]) if table is not None and key in table else ""
    if expect is not None and " ".join(expect.split()) != " ".join(current.split()):
        raise ValueError(f"{where}: [{slug}{'' if fld == 'caption' else '.' + fld}].{key} was changed in the file "
                         f"meanwhile; the page now shows the file's text")
    if fld == "caption" and not text:
        raise ValueError(f"{where}: [{slug}].{key}: a beat's caption cannot be empty")
    if text == current:
        return
    if fld == "caption":
        section[key] = text
    elif text:
        if table is None:
            table = tomlkit.table()
            section.append(fld, table)
        table[key] = text
    elif table is not None and key in table:
        del table[key]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.studio")
    tmp.write_text(tomlkit.dumps(doc), encoding="utf-8")
    try:
        os.chmod(tmp, path.stat().st_mode & 0o7777)
    except OSError:
        pass
    os.replace(tmp, path)


def section_rows(section: dict | None, rendered: list[dict]) -> list[dict]:
    """The beats panel of one clip: every caption of its narration section in file order (raw, with its
    braces), its description and spoken variant, and what the last render showed and said of it."""
    from ..narration.voice import spoken

    if not isinstance(section, dict):
        return []
    describe = section.get("describe") if isinstance(section.get("describe"), dict) else {}
    say = section.get("say") if isinstance(section.get("say"), dict) else {}
    shown = {b["key"]: b for b in rendered}
    rows = []
    for key, value in section.items():
        if not isinstance(value, str):
            continue
        b = shown.get(key)
        rows.append({
            "key": key, "caption": value, "describe": describe.get(key, "") if isinstance(describe.get(key, ""), str) else "",
            "say": say.get(key, "") if isinstance(say.get(key, ""), str) else "",
            "rendered": b is not None, "text": b["text"] if b else "", "described": b.get("describe", "") if b else "",
            "spoken": spoken(b["text"]) if b and b["text"] else "",
        })
    return rows


# ------------------------------------------------------------------------------ which beat changed
def _frame_packets(mp4: Path) -> tuple[list[bytes], float, float]:
    """The video's packets in presentation order (one per frame), its frame length and first time."""
    import av

    with av.open(str(mp4)) as c:
        s = c.streams.video[0]
        pk = sorted((p.pts, bytes(p)) for p in c.demux(s) if p.pts is not None and p.size)
        rate = s.average_rate or s.guessed_rate or 1
        t0 = float(pk[0][0] * s.time_base) if pk else 0.0
        return [b for _, b in pk], float(1 / rate), t0


def first_changed_beat(old: dict | None, new: dict, old_mp4: Path | None, new_mp4: Path, hints: set[str]) -> int:
    """The first beat of the new render that differs from the old one: its caption, description or
    timing, its picture (the first frame whose encoded bytes differ: an unchanged segment is copied
    bit for bit), or an edit known to touch it (``hints``: beat keys whose narration or recording changed)."""
    beats = new.get("beats") or []
    if not beats:
        return 0
    if not old:
        return 0
    candidates = [len(beats)]
    ob = old.get("beats") or []
    for i, b in enumerate(beats):
        if i >= len(ob):
            candidates.append(i)
            break
        o = ob[i]
        if (o["key"], o["text"], o.get("describe", ""), round(o["start"], 4), round(o["duration"], 4)) != \
                (b["key"], b["text"], b.get("describe", ""), round(b["start"], 4), round(b["duration"], 4)):
            candidates.append(i)
            break
    candidates += [i for i, b in enumerate(beats) if b["key"] in hints]
    if old_mp4 is not None and old_mp4.exists():
        try:
            a, fd, t0 = _frame_packets(old_mp4)
            b, fd, t0 = _frame_packets(new_mp4)
            f = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            if f < max(len(a), len(b)):
                t = t0 + (f + 0.5) * fd
                candidates.append(next((i for i, bt in enumerate(beats) if bt["start"] + bt["duration"] > t), len(beats) - 1))
        except Exception:  # noqa: BLE001 - an unreadable old file: the other signs decide
            pass
    first = min(candidates)
    return 0 if first >= len(beats) else first  # nothing tells them apart: the whole clip


# ------------------------------------------------------------------------------ jobs
@dataclass
class Job:
    clip: Clip
    key: str  # the render key the job started from: an edit that changes it stops the job
    rank: int  # 0: an edit of this clip, 1: the clip on the page, 2: the rest of the deck
    hints: set[str] = field(default_factory=set)
    edited: bool = False
    caused: bool = False  # by an edit made while the studio runs (not by what was stale when it started)
    proc: object = None
    cancelled: bool = False
    played: int = 0
    started: float = 0.0
    phases: dict = field(default_factory=dict)  # seconds from the start to the end of each phase (the bench prints them)

    def cancel(self) -> None:
        self.cancelled = True
        p = self.proc
        if p is not None:
            try:
                p.kill()
            except (OSError, ValueError, AttributeError):
                pass


class Studio:
    """The studio's state: what each clip's last good render is, what is wrong, what renders next."""

    def __init__(self, clips: list[Clip], quality: str, out: Path, voice: str | None = None, jobs: int = 1):
        from ..kit.base import narration_file

        self.clips, self.quality, self.voice = clips, quality, voice
        self.jobs = max(1, jobs)
        self.root = out / STUDIO_DIR
        self.qdir = self.root / quality
        self.work = self.root / ".work" / quality
        self.media = self.qdir / "media"
        self.logs = self.qdir / "logs"
        for d in (self.qdir, self.media, self.logs, self.work):
            d.mkdir(parents=True, exist_ok=True)
        pl.clean_partials(self.qdir)
        self.manifest = pl.Manifest(self.qdir, quality)
        self.narration_paths = sorted({narration_file(c) for c in clips})
        self.sections: dict[str, dict | None] = {}  # clip name -> its narration section, as last parsed well
        self.problems: dict[str, list[Problem]] = {}  # by source: "config", "file:<path>", "code:<path>", "render:<clip>"
        self.deck: dict[str, dict] = {}
        self.versions: dict[str, list[str]] = {}  # clip name -> the media digests of its last renders
        self.revision: dict[str, int] = {}
        self.hints: dict[str, set[str]] = {}  # clip name -> beats an edit touched, until it renders
        self.edited: dict[str, int] = {}  # clip name -> the edit generation that made it stale
        self.failed: dict[str, str] = {}  # clip name -> the key whose render failed (not retried until it changes)
        self.running: dict[str, Job] = {}
        self.seconds: dict[str, float] = {}  # clip name -> how long its last render in this studio took
        self.focus = clips[0].name if clips else ""
        self.generation = 0
        self.restart_pending = False
        self.lock = threading.Lock()  # the manifest's (pipeline.commit)
        self.publishing = threading.Lock()
        self.clients: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.wake: asyncio.Event | None = None
        self.ctx = None
        self.timeline: list[dict] = []  # what happened, with times (the bench reads it)
        for c in clips:
            entry = self.manifest.entry(c)
            self.deck[c.name] = self._pending(c)
            if entry and all((self.qdir / f"{c.name}.{k}").exists() for k in ("mp4", "png")):
                try:
                    self._publish(c, entry)
                except Exception:  # noqa: BLE001 - a damaged earlier render: it renders again
                    pass
        self.check(config=True, paths=list(self.narration_paths))

    # ---------------------------------------------------------------- the deck
    def _pending(self, c: Clip) -> dict:
        from .worker import QUALITY_SETTINGS

        fps = QUALITY_SETTINGS.get(self.quality, (0, 0, 30))[2]
        return {"number": c.number, "name": c.name, "title": c.title, "section": c.section, "src": "", "thumb": "",
                "fd": 1 / fps, "t0": 0.0, "frames": 1, "duration": 0.0, "length": 0.0, "pending": True,
                "beats": [{"key": "all", "start": 0.0, "end": 0.0, "b": 0, "s": 0, "text": "", "describe": ""}],
                "vtt": "WEBVTT\n", "dvtt": "WEBVTT\n"}

    def _publish(self, c: Clip, entry: dict) -> dict:
        """Link a committed render's video and thumbnail under their digests and make its deck entry."""
        from .present import clip_deck

        with self.publishing:
            names = {}
            for kind in ("mp4", "png"):
                dst = self.media / f"{entry['files'][kind]['sha256'][:20]}.{kind}"
                if not dst.exists():
                    tmp = dst.with_name(dst.name + pl.PARTIAL)
                    tmp.unlink(missing_ok=True)
                    try:
                        os.link(self.qdir / f"{c.name}.{kind}", tmp)
                    except OSError:  # a file system without hard links
                        import shutil

                        shutil.copyfile(self.qdir / f"{c.name}.{kind}", tmp)
                    os.replace(tmp, dst)
                names[kind] = dst.name
            d = clip_deck(c, entry, self.qdir, src=f"media/{names['mp4']}", thumb=f"media/{names['png']}")
            self.revision[c.name] = self.revision.get(c.name, 0) + 1
            d.update(rev=self.revision[c.name], key=entry.get("key", ""))
            self.deck[c.name] = d
            kept = self.versions.setdefault(c.name, [])
            kept.append((names["mp4"], names["png"]))
            del kept[:-KEEP_VERSIONS]
            # what no page can still be playing: renders older than a clip's last few, and earlier sessions'
            keep = {n for versions in self.versions.values() for pair in versions for n in pair}
            for p in self.media.iterdir():
                if p.name not in keep and not p.name.endswith(pl.PARTIAL):
                    p.unlink(missing_ok=True)
            return d

    def deck_list(self) -> list[dict]:
        return [self.deck[c.name] for c in self.clips]

    def heading(self) -> str:
        try:
            from mathcore.config import load_config

            cfg = load_config()
            return f"Lecture {cfg.number} · {cfg.title}"
        except Exception:  # noqa: BLE001 - a bad config is shown in the banner
            return "Lecture"

    # ---------------------------------------------------------------- checks
    def all_problems(self) -> list[Problem]:
        return [p for ps in self.problems.values() for p in ps]

    def blocked(self, c: Clip) -> bool:
        return any(p.blocks(c) for src, ps in self.problems.items() if not src.startswith("render:") for p in ps)

    def check(self, config: bool = False, paths: list[Path] = ()) -> set[str]:
        """Run the checks that need no render over what changed; returns the clips whose own input
        changed, with the beats it touched added to ``self.hints``."""
        from ..kit.base import narration_file
        from ..narration.voice import VOICE_DIR

        touched: set[str] = set()
        if config:
            _, self.problems["config"] = config_problems(self.voice)
        for path in paths:
            path = Path(path)
            if path.suffix == ".toml" and path in self.narration_paths:
                data, probs = narration_problems(path, self.clips)
                self.problems[f"file:{path}"] = probs
                if data is None:
                    continue
                for c in self.clips:
                    if narration_file(c) != path:
                        continue
                    new, old = data.get(c.slug), self.sections.get(c.name)
                    if isinstance(new, dict) and old is not None and new != old:
                        touched.add(c.name)
                        self.hints.setdefault(c.name, set()).update(_changed_keys(old, new))
                    if isinstance(new, dict):
                        self.sections[c.name] = new
            elif path.suffix == ".py":
                self.problems[f"code:{path}"] = code_problems(path, self.clips)
                if not self.problems[f"code:{path}"]:
                    del self.problems[f"code:{path}"]
                touched.update(c.name for c in self.clips if path.resolve() in _sources(c))
            else:
                try:
                    parts = path.resolve().relative_to(VOICE_DIR.resolve()).parts
                except ValueError:
                    continue
                if len(parts) < 2:
                    continue
                slug, beat = parts[:2]
                for c in self.clips:
                    if c.slug == slug:
                        touched.add(c.name)
                        self.hints.setdefault(c.name, set()).add(Path(beat).stem.removesuffix(".describe"))
        return touched

    def recording_problems(self, ctx) -> None:
        from ..narration.voice import VoiceError

        probs = []
        for c in self.clips:
            try:
                pl.check_recordings(ctx, [c])
            except VoiceError as e:
                probs.append(Problem("clip", short(str(e)), c.name))
        self.problems["recordings"] = probs

    # ---------------------------------------------------------------- planning
    def context(self):
        """A fresh ``KeyContext`` (the config, the code's digest, the voice), or ``None`` while the config is bad."""
        from mathcore.config import ConfigError

        try:
            return pl.KeyContext(self.quality, voice=self.voice)  # (its cache limit: the config's)
        except ConfigError:
            return None

    def stale(self, ctx) -> list[Job]:
        """The clips whose render is not current and that nothing blocks, best first."""
        jobs = []
        for c in self.clips:
            if self.blocked(c) or c.name in self.running:
                continue
            entry = self.manifest.entry(c)
            fields = (entry or {}).get("config_fields", [])
            key = ctx.key(c, fields)
            if not pl.is_current(ctx, self.qdir, c, entry):
                self.failed.pop(c.name, None)
                continue
            if self.failed.get(c.name) == key:
                continue  # it failed on this very input: an edit will change the key
            edited = c.name in self.edited
            rank = 0 if edited else 1 if c.name == self.focus else 2
            jobs.append(Job(c, key, rank, set(self.hints.get(c.name, ())), edited, caused=self.generation > 0))
        return sorted(jobs, key=lambda j: (j.rank, -self.edited.get(j.clip.name, 0), j.clip.number))

    def lines_ahead(self, c: Clip, ctx) -> list[str]:
        """The spoken lines of the clip's beats (as its last render used them) whose words are known before
        it runs (no ``{braces}``) and that no recording replaces: the worker synthesises those it does not
        have on a thread of their own while the beats before them run."""
        if ctx.voice != "piper":
            return []
        from ..narration.voice import recording_for, spoken

        section = self.sections.get(c.name) or {}
        say = section.get("say") if isinstance(section.get("say"), dict) else {}
        entry = self.manifest.entry(c) or {}
        out = []
        for b in entry.get("beats") or []:
            key = b["key"]
            text = say.get(key) if isinstance(say.get(key), str) else section.get(key)
            if isinstance(text, str) and "{" not in text and recording_for(c.slug, key) is None:
                out.append(spoken(text))
        return out

    # ---------------------------------------------------------------- what the page is told
    def status(self) -> dict:
        clips = {}
        for c in self.clips:
            job = self.running.get(c.name)
            if job is not None and not job.cancelled:  # a stopped render winding down is no longer what the clip does
                state = "rendering"
            elif any(p.blocks(c) for p in self.all_problems()):
                state = "error"
            elif self.deck[c.name].get("pending"):
                state = "queued"
            else:
                state = "ready"
            entry = self.manifest.entry(c) or {}
            clips[c.name] = {"state": state, "played": job.played if job else 0, "seconds": self.seconds.get(c.name),
                             "expected": entry.get("animations"), "rev": self.deck[c.name].get("rev", 0),
                             "rows": section_rows(self.sections.get(c.name), self.deck[c.name]["beats"]
                                                  if not self.deck[c.name].get("pending") else [])}
        return {"quality": self.quality, "focus": self.focus, "clips": clips,
                "problems": [asdict(p) for p in self.all_problems()], "restarting": self.restart_pending}

    def send(self, event: str, data: dict) -> None:
        msg = f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"
        for q in list(self.clients):
            q.put_nowait(msg)

    def note(self, what: str, **kw) -> None:
        self.timeline.append({"t": time.time(), "what": what, **kw})
        del self.timeline[:-200]


def _changed_keys(old: dict, new: dict) -> set[str]:
    """The beats whose caption, description or spoken variant differs between two sections."""
    out = {k for k in set(old) | set(new) if not isinstance(old.get(k, new.get(k)), dict) and old.get(k) != new.get(k)}
    for table in ("describe", "say"):
        a = old.get(table) if isinstance(old.get(table), dict) else {}
        b = new.get(table) if isinstance(new.get(table), dict) else {}
        out |= {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
    return out


# ------------------------------------------------------------------------------ the engine
class Engine:
    """Runs the studio: watches, plans, renders in warm workers, tells the pages."""

    def __init__(self, studio: Studio):
        self.s = studio
        self.threads = None

    # ---------------------------------------------------------------- changes
    def changed(self, paths: set[Path]) -> None:
        """An edit (from the watcher, or the page's own write): check it, stop what it made stale, plan."""
        s = self.s
        s.generation += 1
        config_path = _config_path()
        config = any(p.resolve() == config_path.resolve() for p in paths)
        code = any(p.suffix == ".py" for p in paths) or any(_is_font(p) for p in paths)
        touched = s.check(config=config or code, paths=sorted(paths))
        for name in touched:
            s.edited[name] = s.generation
        if code:
            s.restart_pending = True
        s.note("change", paths=[rel(p) for p in sorted(paths)], touched=sorted(touched))
        ctx = s.context()
        if ctx is not None:
            s.ctx = ctx
            s.recording_problems(ctx)
        for job in list(s.running.values()):  # a render this edit made stale stops; the new one starts after it
            entry = s.manifest.entry(job.clip)
            if ctx is None or s.blocked(job.clip) or ctx.key(job.clip, (entry or {}).get("config_fields", [])) != job.key:
                job.cancel()
        self.broadcast()
        self.kick()

    def kick(self) -> None:
        if self.s.wake is not None:
            self.s.wake.set()

    def broadcast(self) -> None:
        self.s.send("state", self.s.status())

    # ---------------------------------------------------------------- scheduling
    async def schedule(self) -> None:
        s = self.s
        loop = asyncio.get_running_loop()
        while True:
            await s.wake.wait()
            s.wake.clear()
            if s.restart_pending:
                if s.running or any(p.scope == "code" for p in s.all_problems()):
                    self.broadcast()
                    continue  # once the workers still running have finished, and the code compiles
                self.broadcast()
                try:
                    await loop.run_in_executor(None, restart_server)
                    s.problems.pop("server", None)
                except Exception as e:  # noqa: BLE001 - the code it preloads failed: said on the page
                    s.problems["server"] = [Problem("code", f"the warm workers' server did not start: "
                                                            f"{type(e).__name__}: {e}")]
                s.restart_pending = False
                s.note("restarted")
                self.broadcast()
            ctx = s.context()
            if ctx is None:
                self.broadcast()
                continue
            s.ctx = ctx
            todo = s.stale(ctx)
            if not todo:
                self.broadcast()
                continue
            # an edit goes first and alone: the rest of the deck gives way (its drawn segments are kept) and
            # waits; the clip on the page goes before the rest
            edit_waiting = any(j.rank == 0 for j in todo)
            if edit_waiting:
                for job in s.running.values():
                    if job.rank > 0:
                        job.cancel()
            elif todo[0].rank == 1 and len(s.running) >= s.jobs:
                worst = max(s.running.values(), key=lambda j: j.rank)
                if worst.rank == 2:
                    worst.cancel()
            limit = 1 if edit_waiting or any(j.rank == 0 for j in s.running.values()) else s.jobs
            for job in todo:
                if len(s.running) >= limit:
                    break
                s.running[job.clip.name] = job
                s.edited.pop(job.clip.name, None)
                s.hints.pop(job.clip.name, None)
                job.started = time.time()
                s.note("render", clip=job.clip.name, rank=job.rank)
                loop.run_in_executor(None, self.render, job, ctx)
            self.broadcast()

    # ---------------------------------------------------------------- one render (in a thread)
    def render(self, job: Job, ctx) -> None:
        s = self.s
        c = job.clip
        log = s.logs / f"{c.name}.log"
        work = s.work / c.name
        outcome, data = "failed", None
        try:
            work.mkdir(parents=True, exist_ok=True)
            (work / "result.json").unlink(missing_ok=True)
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            args = ctx.worker_args()  # the voice and the cache's limit, as arguments (never --force: a studio reuses)
            ahead = s.lines_ahead(c, ctx)
            if ahead:
                args += ["--prefetch", json.dumps(ahead)]
            rc = self._run_worker(job, [c.name, s.quality, str(work), *args], env, log)
            job.phases["worker"] = time.time() - job.started
            if job.cancelled:
                outcome = "cancelled"
            elif rc != 0:
                text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
                data = failure_problem(text, c, s.sections.get(c.name))
            else:
                result = json.loads((work / "result.json").read_text())
                job.phases.update({f"worker {k}": v for k, v in (result.get("timings") or {}).items()})
                old = s.manifest.entry(c)
                old_mp4 = s.media / Path(s.deck[c.name]["src"]).name if s.deck[c.name].get("src") else None
                entry = pl.commit(c, ctx, s.qdir, s.manifest, s.lock, result)
                job.phases["commit"] = time.time() - job.started
                start = first_changed_beat(old, entry, old_mp4, s.qdir / f"{c.name}.mp4", job.hints)
                d = s._publish(c, entry)
                job.phases["publish"] = time.time() - job.started
                data = {"clip": d, "from": start, "edited": job.edited, "caused": job.caused, "first": old is None,
                        "seconds": round(time.time() - job.started, 3), "segments": entry.get("segments"),
                        "phases": {k: round(v, 3) for k, v in job.phases.items()}}
                outcome = "ready"
        except Exception as e:  # noqa: BLE001 - reported on the page, the studio goes on
            data = Problem("clip", f"{type(e).__name__}: {e}", c.name)
        s.loop.call_soon_threadsafe(self.finished, job, outcome, data)

    def _run_worker(self, job: Job, argv: list[str], env: dict, log: Path) -> int:
        def progress(played):
            job.played = played
            if played % 4 == 0:
                self.s.loop.call_soon_threadsafe(self.s.send, "progress", {"clip": job.clip.name, "played": played})

        def started(proc):
            job.proc = proc
            if job.cancelled:
                job.cancel()

        log.write_text("", encoding="utf-8")
        return forked.run(argv, env, log, progress, on_start=started)

    def finished(self, job: Job, outcome: str, data) -> None:
        s = self.s
        c = job.clip
        s.running.pop(c.name, None)
        s.note(outcome, clip=c.name, seconds=round(time.time() - job.started, 3),
               phases={k: round(v, 3) for k, v in job.phases.items()})
        if outcome == "ready":
            s.seconds[c.name] = data["seconds"]
            s.problems.pop(f"render:{c.name}", None)
            s.failed.pop(c.name, None)
            s.send("clip", data)
        elif outcome == "failed":
            s.problems[f"render:{c.name}"] = [data]
            s.failed[c.name] = job.key
        elif job.edited:  # stopped by a newer edit: it still counts as edited
            s.edited.setdefault(c.name, s.generation)
            s.hints.setdefault(c.name, set()).update(job.hints)
        self.broadcast()
        self.kick()


def _config_path() -> Path:
    from mathcore.config import config_path

    return config_path()


def _is_font(p: Path) -> bool:
    from mathcore.config import ASSETS_DIR

    try:
        p.resolve().relative_to((ASSETS_DIR / "fonts").resolve())
        return True
    except ValueError:
        return False


def restart_server() -> None:
    """Stop the warm fork server (its workers would run the code it imported) and start a new one, warm."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    if server is not None and hasattr(server, "_stop"):
        server._stop()
    warm_server()


def warm_server() -> None:
    """Start the fork server now (it imports Manim and the clips once), not on the first edit."""
    ctx = forked.context()
    p = ctx.Process(target=os.getpid)
    p.start()
    p.join()


# ------------------------------------------------------------------------------ the watcher
def watch_roots() -> list[Path]:
    from mathcore.config import ASSETS_DIR

    roots = {SCENES_DIR, REPO_DIR / "mathcore", ASSETS_DIR, _config_path().resolve().parent}
    return sorted(r for r in roots if r.exists())


def watched(path: Path) -> bool:
    """What a clip is made of: the config, the narration files, the recordings, the fonts, the code
    (``scenes/`` and ``mathcore/``), not the caches, logs or editors' temporary files."""
    from mathcore.config import ASSETS_DIR

    from ..narration.voice import RECORDING_EXTS, VOICE_DIR

    p = path.resolve() if path.exists() else path
    name = p.name
    if name.startswith(".") or name.endswith(("~", ".swp", ".tmp", ".partial", ".studio")) or "__pycache__" in p.parts:
        return False
    if p == _config_path().resolve():
        return True
    for root, test in ((ASSETS_DIR / "narration", lambda q: q.suffix == ".toml"),
                       (VOICE_DIR, lambda q: q.suffix.lower() in RECORDING_EXTS),
                       (ASSETS_DIR / "fonts", lambda q: True),
                       (SCENES_DIR, lambda q: q.suffix == ".py"), (REPO_DIR / "mathcore", lambda q: q.suffix == ".py")):
        try:
            p.relative_to(root.resolve())
        except ValueError:
            continue
        return test(p)
    return False


async def watch(engine: Engine, stop: asyncio.Event) -> None:
    import logging

    import watchfiles

    for name in ("watchfiles", "watchfiles.main"):  # the page says what changed
        logging.getLogger(name).setLevel(logging.WARNING)

    async for changes in watchfiles.awatch(*watch_roots(), step=WATCH_STEP_MS, stop_event=stop,
                                           watch_filter=lambda _change, p: watched(Path(p)), recursive=True):
        paths = {Path(p) for _, p in changes}
        if paths:
            engine.changed(paths)


# ------------------------------------------------------------------------------ the web server
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page(studio: Studio) -> str:
    from .present import render_page

    deck = {"quality": studio.quality, "clips": studio.deck_list(), "studio": True}
    t = 0.0
    for c in deck["clips"]:
        c["at"] = round(t, 6)
        t += c.get("length") or c["duration"]
    deck["total"] = round(t, 6)
    extra = {"css": _asset("studio.css"), "app": _asset("studio.html"),
             "body": "<script>\n" + _asset("studio.js") + "\n</script>"}
    return render_page(deck, studio.heading(), extra).replace(
        '<meta name="generator" content="clips present">', '<meta name="generator" content="clips studio">')


def make_app(studio: Studio, engine: Engine):
    from aiohttp import web

    routes = web.RouteTableDef()

    @routes.get("/")
    async def index(request):
        return web.Response(text=page(studio), content_type="text/html", headers={"Cache-Control": "no-store"})

    @routes.get("/api/state")
    async def state(request):
        return web.json_response({"deck": studio.deck_list(), "status": studio.status()},
                                 headers={"Cache-Control": "no-store"})

    @routes.get("/api/timeline")
    async def timeline(request):
        return web.json_response(studio.timeline)

    @routes.get("/events")
    async def events(request):
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        q: asyncio.Queue = asyncio.Queue()
        studio.clients.add(q)
        try:
            await resp.write(f"event: state\ndata: {json.dumps(studio.status(), ensure_ascii=False)}\n\n".encode())
            while True:
                try:
                    msg = await asyncio.wait_for(q.get(), timeout=15)
                except asyncio.TimeoutError:
                    msg = ": keep-alive\n\n"
                await resp.write(msg.encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            studio.clients.discard(q)
        return resp

    @routes.post("/api/focus")
    async def focus(request):
        body = await request.json()
        name = str(body.get("clip", ""))
        if name in studio.deck and name != studio.focus:
            studio.focus = name
            engine.kick()
        return web.json_response({"ok": True})

    @routes.post("/api/edit")
    async def edit(request):
        from ..kit.base import narration_file

        try:
            body = await request.json()
            c = next((c for c in studio.clips if c.name == body.get("clip")), None)
            if c is None:
                raise ValueError(f"no clip {body.get('clip')!r} in this studio")
            path = narration_file(c)
            edit_narration(path, c.slug, str(body.get("key", "")), str(body.get("field", "")), body.get("text", ""),
                           body.get("expect"))
        except ValueError as e:
            return web.json_response({"ok": False, "error": short(str(e))}, status=409)
        studio.note("edit", clip=c.name, key=body.get("key"), field=body.get("field"))
        engine.changed({path})  # at once, the path a saved file takes (the watcher's own event then finds no change)
        return web.json_response({"ok": True})

    @routes.get("/media/{name}")
    async def media(request):
        name = request.match_info["name"]
        if not re.fullmatch(r"[0-9a-f]{20}\.(mp4|png)", name):
            raise web.HTTPNotFound()
        p = studio.media / name
        if not p.exists():
            raise web.HTTPNotFound()
        return web.FileResponse(p, headers={"Cache-Control": "public, max-age=31536000, immutable"})

    app = web.Application()
    app.add_routes(routes)
    return app


async def serve(studio: Studio, host: str, port: int, open_browser: bool, ready=None) -> None:
    from aiohttp import web

    engine = Engine(studio)
    studio.loop = asyncio.get_running_loop()
    studio.wake = asyncio.Event()
    app = make_app(studio, engine)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise StudioError(f"cannot listen on {host}:{port} ({e.strerror or e}); choose another with --port "
                          f"(0: any free port)") from None
    bound = site._server.sockets[0].getsockname()[1] if site._server and site._server.sockets else port
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1', 'localhost') else host}:{bound}/"
    names = ", ".join(c.name for c in studio.clips) if len(studio.clips) <= 4 else f"{len(studio.clips)} clips"
    print(f"studio: {names} at quality {studio.quality} -> {studio.qdir}", flush=True)
    print(f"studio: open {url}  (Ctrl+C stops)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    if open_browser:
        import webbrowser

        loop.run_in_executor(None, webbrowser.open, url)
    tasks = [asyncio.create_task(engine.schedule()), asyncio.create_task(watch(engine, stop))]
    await loop.run_in_executor(None, warm_server)
    studio.note("warm")
    engine.broadcast()
    engine.kick()
    try:
        await stop.wait()
    finally:
        for job in list(studio.running.values()):
            job.cancel()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await runner.cleanup()
        print("studio: stopped", flush=True)


def cmd_studio(args) -> int:
    import logging

    from ..catalog import resolve

    for name in ("fontTools", "watchfiles", "watchfiles.main", "aiohttp.access"):  # the page says what happens; no log lines a second
        logging.getLogger(name).setLevel(logging.WARNING)

    clips = resolve(args.names)
    quality = args.quality or DEFAULT_QUALITY
    out = Path(args.out).resolve()
    if args.jobs < 1:
        raise StudioError(f"argument --jobs: must be at least 1, got {args.jobs}")
    if not 0 <= args.port <= 65535:
        raise StudioError(f"argument --port: a port from 0 to 65535, got {args.port}")
    with pl.OutputLock(out / STUDIO_DIR):
        studio = Studio(clips, quality, out, args.voice, args.jobs)
        for p in studio.all_problems():  # said on the page too, where it can be fixed while the studio runs
            print(f"clips studio: {p.message}", file=sys.stderr)
        asyncio.run(serve(studio, args.host, args.port, not args.no_open))
    return 0
