"""The studio's state: the deck, its renders, its problems, the jobs that bring a clip up to date."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ...catalog import Clip
from .. import pipeline as pl
from .common import (
    KEEP_VERSIONS,
    STUDIO_DIR,
    Problem,
    _sources,
    code_problems,
    config_problems,
    narration_problems,
    short,
)
from .edits import section_rows


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
        from ...kit.base import narration_file

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
        from ..worker import QUALITY_SETTINGS

        fps = QUALITY_SETTINGS.get(self.quality, (0, 0, 30))[2]
        return {"number": c.number, "name": c.name, "title": c.title, "section": c.section, "src": "", "thumb": "",
                "fd": 1 / fps, "t0": 0.0, "frames": 1, "duration": 0.0, "length": 0.0, "pending": True,
                "beats": [{"key": "all", "start": 0.0, "end": 0.0, "b": 0, "s": 0, "text": "", "describe": ""}],
                "vtt": "WEBVTT\n", "dvtt": "WEBVTT\n"}

    def _publish(self, c: Clip, entry: dict) -> dict:
        """Link a committed render's video and thumbnail under their digests and make its deck entry."""
        from ..present import clip_deck

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
        from ...kit.base import narration_file
        from ...narration.voice import VOICE_DIR

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
        from ...narration.voice import VoiceError

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
        from ...narration.voice import recording_for, spoken

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


