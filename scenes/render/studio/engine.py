"""The engine: the watcher, the render plan and the warm workers, and what it tells the pages."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

from ...catalog import REPO_DIR, SCENES_DIR
from .. import forked
from .. import pipeline as pl
from .common import WATCH_STEP_MS, Problem, failure_problem, rel
from .edits import first_changed_beat
from .jobs import Job, Studio


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

    from ...narration.voice import RECORDING_EXTS, VOICE_DIR

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


