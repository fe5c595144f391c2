"""The render pipeline behind ``clips render``: skip what did not change, render the rest in
parallel worker processes, and never leave a partial file.

Render key of a clip (checked before anything imports Manim or the scene):

* the clip's identity and its own module's source (``scenes/clips/cNN_slug.py``);
* every file of ``scenes/kit``, ``scenes/figures``, ``scenes/catalog.py`` and ``mathcore`` (the code
  any clip can reach: a clip module may only import these);
* its narration section, the fonts, ``manim.cfg``;
* the installed versions of Manim, Typst, NumPy, PyAV, ManimPango, Python; the quality;
* the *values of the config fields the clip read* the last time it rendered (recorded by
  the worker), so editing ``sizes.T`` re-renders the clips that read ``T`` and no other.

Outputs under ``<out>/<quality>/``: ``NN_slug.mp4``, ``NN_slug.srt``, ``NN_slug.png`` and
``manifest.json``.  Each is written under a temporary name and moved into place with
``os.replace``; the manifest records a clip only after its files are in place (``outputs``: the files,
the lock, the manifest and the disk's faults; this module: the keys, the plan and the runs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog import REPO_DIR, Clip
from . import forked
from .facts import VERSIONED, library_versions, video_facts  # noqa: F401 - the pipeline's names, as before
from .keys import _sha, clip_digest, narration_of, source_digest

# the outputs' files and the disk's faults (named here too: what the CLI, the studio and the tests import)
from .outputs import (  # noqa: F401
    FAULT_ERRNOS,
    OUTPUT_KINDS,
    PARTIAL,
    LectureError,
    Manifest,
    NarrationProblem,
    OutputLock,
    RenderLockedError,
    disk_of,
    fault_message,
    fault_of,
    place,
    sha256_file,
    write_json_atomic,
)


# ------------------------------------------------------------------------------ keys
@dataclass
class KeyContext:
    """What every clip's key shares, computed once per run."""

    quality: str
    shared: str = ""
    narration: dict = field(default_factory=dict)
    config: object = None
    source: str = ""  # digest of the code every clip can reach, the fonts and manim.cfg
    versions: tuple[str, ...] = ()  # the libraries and Python the frames depend on
    voice: str | None = None  # "piper", "recorded", "none": `--voice`, else the config's voice.engine
    described: bool = False  # `--described`: the extended-description version (out/<q>/described/)
    # how the workers run (not part of any key): `--no-cache` (nothing read or kept, fresh worker processes)
    # and the cache's size limit in bytes (each worker trims the cache to it when it is done)
    no_cache: bool = False
    cache_limit: int | None = None
    # `clips render --student`: the student's numbers (the file handed to each worker) and their digest, in
    # every key (a student's clips are never the lecture's, nor another run's of different numbers)
    student: Path | None = None
    student_digest: str = ""

    def __post_init__(self):
        from mathcore.config import load_config

        self.config = load_config()  # raises ConfigError (one line) on a bad value
        self.voice = self.voice or self.config.voice
        if self.cache_limit is None:
            self.cache_limit = self.config.cache_limit_bytes  # `--cache-limit`, else the config's cache.limit
        self.source = source_digest()
        self.versions = library_versions()
        self.shared = _sha(self.source.encode(), ";".join(self.versions).encode(), self.quality.encode(),
                           json.dumps(self.voice_identity(), sort_keys=True).encode(),
                           *([b"described"] if self.described else []),
                           *([b"student", self.student_digest.encode()] if self.student is not None else []))

    def voice_identity(self) -> dict:
        """What every clip's audio depends on: the engine, and for Piper the model and synthesiser."""
        if self.voice == "none":
            return {"engine": "none"}
        from scenes.narration.voice import voice_identity

        return {"engine": self.voice, **(voice_identity() if self.voice == "piper" else {})}

    def worker_args(self, force: bool = False) -> list[str]:
        """The worker's options, as arguments (``scenes.render.worker``): the voice, the described version,
        ``--force`` (a forced job reads no cache), ``--no-cache`` and the cache's size limit."""
        args = ["--voice", self.voice]
        args += ["--described"] if self.described else []
        args += ["--force"] if force else []
        args += ["--no-cache"] if self.no_cache else []
        args += ["--cache-limit", str(self.cache_limit)] if self.cache_limit is not None else []
        args += ["--student", str(self.student)] if self.student is not None else []
        return args

    def static_key(self, clip: Clip) -> str:
        parts = [self.shared.encode(), clip_digest(clip, self.narration).encode()]
        if self.voice != "none":  # the lecturer's recordings for this clip
            from scenes.narration.voice import recordings_digest

            parts.append(recordings_digest(clip.slug).encode())
        return _sha(*parts)

    def config_values(self, fields: Iterable[str]) -> dict:
        out = {}
        for f in sorted(fields):
            v = getattr(self.config, f, None)
            out[f] = list(v) if isinstance(v, tuple) else (str(v) if isinstance(v, Path) else v)
        return out

    def key(self, clip: Clip, fields: Iterable[str]) -> str:
        return _sha(self.static_key(clip).encode(), json.dumps(self.config_values(fields), sort_keys=True).encode())



# ------------------------------------------------------------------------------ planning
@dataclass
class Job:
    clip: Clip
    reason: str  # why it renders ("new", "changed", "forced") or "" if skipped
    expected_animations: int | None = None


def is_current(ctx: KeyContext, qdir: Path, clip: Clip, entry: dict | None) -> str:
    """Return '' if the clip's outputs are current, else why it must render."""
    if not entry:
        return "new"
    if entry.get("key") != ctx.key(clip, entry.get("config_fields", [])):
        return "changed"
    for f in entry.get("files", {}).values():
        p = qdir / f["name"]
        if not p.exists() or p.stat().st_size != f["bytes"]:
            return "missing output"
    return ""


TEXT_FIELDS = ("title", "notebook", "sentence_a", "sentence_b")  # the config's words the clips draw and say


def check_config_text(cfg, engine: str) -> None:
    """Before anything renders: the voice can read every text of the config it will say (the
    config itself has checked that the font draws them and the chips hold them).  Raises
    ``ConfigError`` (one line naming the key, the value and the characters)."""
    if engine != "piper":  # recordings are the lecturer's; silent clips say nothing
        return
    from mathcore.config import FIELDS, ConfigError
    from scenes.narration.voice import spoken, unspeakable

    for f in TEXT_FIELDS:
        value = getattr(cfg, f)
        bad = unspeakable(spoken(value))
        if bad:
            raise ConfigError(f"{cfg.path}: {FIELDS[f]} = {value!r} is not allowed with voice.engine = \"piper\": "
                              f"the voice cannot read {bad!r} (write it in Latin letters, or render silent with "
                              f"--voice none)")


def check_recordings(ctx: KeyContext, clips: list[Clip]) -> None:
    """Before anything renders: every recording of these clips decodes, and with the voice
    "recorded" every beat has one.  Raises ``VoiceError`` (one line naming the file)."""
    if ctx.voice == "none":
        return
    from scenes.narration.voice import RECORDING_EXTS, VOICE_DIR, VoiceError, read_audio, recording_for

    for c in clips:
        folder = VOICE_DIR / c.slug
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                if p.suffix.lower() in RECORDING_EXTS:
                    read_audio(p)
        if ctx.voice == "recorded":
            section = json.loads(narration_of(c, ctx.narration) or b"null") or {}
            for key, text in section.items():
                if isinstance(text, str) and recording_for(c.slug, key) is None:
                    raise VoiceError(f"{folder / (key + '.wav')}: missing: voice.engine = \"recorded\" needs a recording "
                                     f"for every beat of {c.name} (any of {', '.join(RECORDING_EXTS)})")


def plan(ctx: KeyContext, qdir: Path, manifest: Manifest, clips: list[Clip], force: bool) -> list[Job]:
    check_recordings(ctx, clips)
    jobs = []
    for c in clips:
        entry = manifest.entry(c)
        reason = "forced" if force else is_current(ctx, qdir, c, entry)
        jobs.append(Job(c, reason, (entry or {}).get("animations")))
    return jobs


def clean_partials(qdir: Path) -> None:
    """Remove what an interrupted run left half-written."""
    for p in qdir.glob(f"*{PARTIAL}"):
        p.unlink(missing_ok=True)


# ------------------------------------------------------------------------------ running
@dataclass
class Outcome:
    clip: Clip
    ok: bool
    seconds: float
    log: Path
    message: str = ""
    fault: bool = False  # a fault of the machine (no space, no permission): the run stops
    skipped: bool = False  # not started: the run stopped on a fault before its turn
    repairs: list = field(default_factory=list)  # damaged cache entries the worker dropped (one line each)


def _render_in_new_process(argv: list[str], env: dict, log: Path, clip: Clip, on_progress) -> int:
    with open(log, "w", encoding="utf-8") as logf:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scenes.render.worker", *argv],
            cwd=REPO_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        for line in proc.stdout:
            if line.startswith("@@progress "):
                if on_progress is not None:
                    on_progress(clip, int(line.split()[1]))
            else:
                logf.write(line)
        return proc.wait()


def render_local(clip: Clip, quality: str, work: Path, log: Path, on_progress=None, args: list[str] = (),
                 env: dict | None = None, fork: bool = True) -> dict:
    """Render ``clip`` in a worker process of its own into ``work``, with the worker's options ``args``
    (:meth:`KeyContext.worker_args`); its output goes to ``log``.

    The worker is forked from a server that has imported Manim and the scenes once
    (:mod:`scenes.render.forked`); with ``fork=False`` (``--no-cache``, and a Dask worker) it is
    started afresh, ``python -m scenes.render.worker``.

    Returns the worker's ``result.json`` (files it made, config fields read, beats) or raises
    :class:`RenderFailed` with the last line of the log (:class:`RenderFault` for a fault of the machine)."""
    from .worker import FAULT_EXIT, FAULT_MARK

    work.mkdir(parents=True, exist_ok=True)
    (work / "result.json").unlink(missing_ok=True)
    env = dict(os.environ if env is None else env, PYTHONUNBUFFERED="1")
    argv = [clip.name, quality, str(work), *args]
    if fork:
        log.write_text("", encoding="utf-8")
        rc = forked.run(argv, env, log, None if on_progress is None else lambda played: on_progress(clip, played))
    else:
        rc = _render_in_new_process(argv, env, log, clip, on_progress)
    if rc != 0:
        tail = [ln.strip() for ln in log.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
        if rc == FAULT_EXIT:
            if tail and tail[-1].startswith(FAULT_MARK):
                what, _, path = tail[-1][len(FAULT_MARK):].partition(": ")
            else:  # the worker could not even write its log: the disk it is on is full
                what, path = "No space left on device", ""
            raise RenderFault(fault_message(what, path or str(work)))
        raise RenderFailed(tail[-1] if tail else f"worker exited with status {rc}")
    return json.loads((work / "result.json").read_text())


class RenderFailed(RuntimeError):
    """A clip's worker failed; the message is the last line of its log."""


class RenderFault(RenderFailed):
    """The machine stopped the render (no space left, a folder that may not be written): one line naming the
    file and the disk; the command stops, removes its work folders and leaves the outputs it had."""


def commit(clip: Clip, ctx: KeyContext, qdir: Path, manifest: Manifest, lock: threading.Lock, result: dict) -> dict:
    """Move a rendered clip's files into ``qdir`` atomically and record it in the manifest."""
    files = {}
    for kind in OUTPUT_KINDS:
        src = result.get(kind)
        if not src:
            continue
        dst = qdir / f"{clip.name}.{kind}"
        place(Path(src), dst)
        files[kind] = {"name": dst.name, "bytes": dst.stat().st_size, "sha256": sha256_file(dst)}
    duration, frames = video_facts(qdir / f"{clip.name}.mp4")
    entry = {
        "clip": clip.as_dict(),
        "key": ctx.key(clip, result["config_fields"]),
        "config_fields": result["config_fields"],
        "animations": result["animations"],
        "duration": round(duration, 3),
        "frames": frames,
        "beats": result.get("beats", []),
        "descriptions": result.get("descriptions", []),
        "audio": result.get("audio"),
        "segments": result.get("segments"),  # of its plays and waits: how many were drawn, how many reused
        "files": files,
    }
    with lock:
        manifest.record(clip, entry)
    return entry


def run_job(job: Job, ctx: KeyContext, qdir: Path, workroot: Path, manifest: Manifest, lock: threading.Lock,
            on_progress) -> Outcome:
    """Render one job in a local worker process and commit it; its work folder is removed either way."""
    clip = job.clip
    logdir = qdir / "logs"
    logdir.mkdir(exist_ok=True)
    log = logdir / f"{clip.name}.log"
    t0 = time.monotonic()
    work = workroot / clip.name
    try:
        result = render_local(clip, ctx.quality, work, log, on_progress, ctx.worker_args(job.reason == "forced"),
                              fork=not ctx.no_cache)
        commit(clip, ctx, qdir, manifest, lock, result)
    except RenderFault as e:
        return Outcome(clip, False, time.monotonic() - t0, log, str(e), fault=True)
    except RenderFailed as e:
        return Outcome(clip, False, time.monotonic() - t0, log, str(e))
    except OSError as e:
        fault = fault_of(e, qdir)
        if fault is None:
            raise
        return Outcome(clip, False, time.monotonic() - t0, log, fault, fault=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Outcome(clip, True, time.monotonic() - t0, log, repairs=list(result.get("repairs") or []))


def preflight(todo: list[Job], ctx: KeyContext, workroot: Path) -> None:
    """Before anything renders: the narration of every clip about to render names only values the clip
    provides (:mod:`scenes.render.preflight`, in a process forked from the render server); raises
    :class:`NarrationProblem` (one line per problem) if not."""
    from .preflight import MARK, PROBLEMS_EXIT

    if not todo:
        return
    workroot.mkdir(parents=True, exist_ok=True)
    log = workroot / "preflight.log"
    import clipcache

    names = ["--cache", clipcache.store().mode, *(j.clip.name for j in todo)]
    try:
        if ctx.no_cache:
            with open(log, "w", encoding="utf-8") as f:
                rc = subprocess.run([sys.executable, "-m", "scenes.render.preflight", *names], cwd=REPO_DIR,
                                    stdout=f, stderr=subprocess.STDOUT, env=os.environ).returncode
        else:
            log.write_text("", encoding="utf-8")
            rc = forked.run(names, dict(os.environ), log, None, module="scenes.render.preflight")
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    finally:
        log.unlink(missing_ok=True)
    found = [ln[len(MARK):] for ln in lines if ln.startswith(MARK)]
    if rc == PROBLEMS_EXIT and found:
        raise NarrationProblem("\n".join(found))


# ------------------------------------------------------------------------------ executing a plan
@dataclass
class Events:
    """What a runner tells its caller (the CLI draws progress from these); all optional."""

    started: Callable[[Clip], None] = lambda clip: None
    progress: Callable[[Clip, int], None] = lambda clip, played: None
    finished: Callable[[Outcome], None] = lambda outcome: None


class LocalRunner:
    """Renders each job in a worker process on this machine, ``jobs`` at a time."""

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, int(jobs))

    def run(self, todo: list[Job], ctx: KeyContext, qdir: Path, workroot: Path, manifest: Manifest,
            lock: threading.Lock, events: Events) -> list[Outcome]:
        from concurrent.futures import ThreadPoolExecutor

        stop = threading.Event()  # a fault of the machine: no further clip starts

        def work(j: Job) -> Outcome:
            if stop.is_set():
                return Outcome(j.clip, False, 0.0, qdir / "logs" / f"{j.clip.name}.log", "not started", skipped=True)
            events.started(j.clip)
            o = run_job(j, ctx, qdir, workroot, manifest, lock, events.progress)
            if o.fault:
                stop.set()
            events.finished(o)
            return o

        with ThreadPoolExecutor(max_workers=self.jobs) as ex:
            return list(ex.map(work, todo))  # submitted in lecture order


def execute(todo: list[Job], ctx: KeyContext, qdir: Path, workroot: Path, manifest: Manifest, runner=None,
            events: Events | None = None) -> list[Outcome]:
    """Render every job with ``runner`` (a :class:`LocalRunner` by default; ``remote.DaskRunner`` for a
    Dask cluster: the caller hands it in, so the pipeline knows nothing of Dask), committing each
    finished clip atomically; a failure never stops the others.  Outcomes come back in the order of
    ``todo``."""
    events = events or Events()
    return (runner or LocalRunner()).run(todo, ctx, qdir, workroot, manifest, threading.Lock(), events)
