"""Rendering on a Dask distributed cluster: ``clips render --scheduler tcp://HOST:PORT``.

Each clip whose key changed becomes one task.  A Dask worker runs it in *its own checkout*
of this project: it first checks that its project source and library versions equal the
client's (the parts of the render key that describe code), refusing with one line if not,
then renders the clip in a fresh worker process (``scenes.render.worker``) with the
client's lecture config, and returns the files.  The client writes them into ``out/``
exactly as a local render does (lock, atomic moves, manifest, failure isolation), so a
cluster render and a local render of the same commit and config give the same bits.

This module imports Dask only when a runner is made; ``clips render`` without
``--scheduler`` never imports it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

from ..catalog import resolve
from .pipeline import (
    Events,
    Job,
    KeyContext,
    Manifest,
    OUTPUT_KINDS,
    Outcome,
    RenderFailed,
    clip_digest,
    commit,
    library_versions,
    render_local,
    source_digest,
)

KINDS = OUTPUT_KINDS


class ClusterError(RuntimeError):
    """The cluster cannot be used (unreachable scheduler, no workers): one line."""


def render_remote(clip_name: str, quality: str, expect: dict, config_text: str, topic: str) -> dict:
    """Run on a Dask worker: check this checkout against the client's, then render one clip.

    Returns ``{"ok": True, "result": ..., "files": {kind: bytes}, "log": str}``, or
    ``{"ok": False, "message": ..., "log": ...}`` when the render failed, or
    ``{"refused": "one line"}`` when this worker's project or libraries differ."""
    from distributed import get_worker

    worker = get_worker()
    where = f"worker {worker.address}"
    clip = resolve([clip_name])[0]
    mine = {"source": source_digest(), "versions": list(library_versions()), "clip": clip_digest(clip)}
    if mine["versions"] != expect["versions"]:
        diff = [f"{a} here, {b} on the client" for a, b in zip(mine["versions"], expect["versions"]) if a != b]
        return {"refused": f"{where} refuses {clip_name}: its libraries differ ({'; '.join(diff)})"}
    if mine["source"] != expect["source"] or mine["clip"] != expect["clip"]:
        part = "its project source" if mine["source"] != expect["source"] else f"the source or narration of {clip_name}"
        return {"refused": f"{where} refuses {clip_name}: {part} differs from the client's "
                           f"(run the worker from the same commit)"}
    tmp = Path(tempfile.mkdtemp(prefix=f"clips-{clip_name}-"))
    try:
        cfg = tmp / "lecture.toml"
        cfg.write_text(config_text, encoding="utf-8")
        env = dict(os.environ, ATTENTION_CLIPS_CONFIG=str(cfg))  # the client's config; its options are arguments
        log = tmp / "worker.log"

        def progress(_clip, played):
            worker.log_event(topic, {"clip": clip_name, "played": played})

        try:
            result = render_local(clip, quality, tmp / "work", log, progress, expect.get("args", []), env,
                                  fork=False)  # a Dask worker's own process
        except RenderFailed as e:
            return {"ok": False, "message": str(e), "log": log.read_text(encoding="utf-8", errors="replace")}
        files = {k: Path(result[k]).read_bytes() for k in KINDS if result.get(k)}
        return {"ok": True, "result": result, "files": files, "worker": worker.address,
                "log": log.read_text(encoding="utf-8", errors="replace")}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class DaskRunner:
    """Execute a render plan on the Dask cluster at ``address``."""

    def __init__(self, address: str, connect_timeout: float = 10.0):
        self.address = address
        self.connect_timeout = connect_timeout

    REFUSED_FOR = 1.0  # seconds a refused connection is tried again (a scheduler just starting) before giving up

    def probe(self) -> None:
        """A TCP scheduler that refuses the connection is told at once: Dask's client would keep trying
        for the whole ``connect_timeout``, and a mistyped port then cost ten seconds of nothing."""
        import socket
        from urllib.parse import urlsplit

        where = urlsplit(self.address if "://" in self.address else f"tcp://{self.address}")
        try:
            host, port = where.hostname, where.port
        except ValueError:
            return  # not host:port: Dask says what is wrong with it
        if where.scheme != "tcp" or not host or port is None:
            return
        give_up = time.monotonic() + self.REFUSED_FOR
        while True:
            try:
                socket.create_connection((host, port), timeout=self.connect_timeout).close()
                return
            except ConnectionRefusedError as e:
                if time.monotonic() >= give_up:
                    raise ClusterError(f"cannot reach the Dask scheduler at {self.address}: {e.strerror or e}") from None
                time.sleep(0.1)
            except OSError:
                return  # unreachable, or slow: the client's own timeout and message

    def _client(self):
        from distributed import Client

        self.probe()
        try:
            return Client(self.address, timeout=f"{self.connect_timeout}s")
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {self.address}: {e}") from None

    def run(self, todo: list[Job], ctx: KeyContext, qdir: Path, workroot: Path, manifest: Manifest, lock,
            events: Events) -> list[Outcome]:
        from distributed import as_completed

        from mathcore.config import config_path

        client = self._client()
        try:
            if not client.scheduler_info().get("workers"):
                client.wait_for_workers(1, timeout=self.connect_timeout)
        except TimeoutError:
            client.close()
            raise ClusterError(f"the Dask scheduler at {self.address} has no workers") from None
        topic = f"clips-progress-{uuid.uuid4().hex}"
        by_name = {j.clip.name: j for j in todo}
        seen: set[str] = set()

        def on_event(event):
            msg = event[1] if isinstance(event, tuple) else event
            j = by_name.get(msg.get("clip"))
            if j is None:
                return
            if j.clip.name not in seen:
                seen.add(j.clip.name)
                events.started(j.clip)
            events.progress(j.clip, int(msg["played"]))

        client.subscribe_topic(topic, on_event)
        config_text = config_path().read_text(encoding="utf-8")
        expect_common = {"source": ctx.source, "versions": list(ctx.versions)}
        logdir = qdir / "logs"
        logdir.mkdir(exist_ok=True)
        t0 = {}
        futures = {}
        try:
            for j in todo:
                expect = dict(expect_common, clip=clip_digest(j.clip), args=ctx.worker_args(j.reason == "forced"))
                t0[j.clip.name] = time.monotonic()
                fut = client.submit(render_remote, j.clip.name, ctx.quality, expect, config_text, topic,
                                    pure=False, key=f"render-{j.clip.name}-{uuid.uuid4().hex[:8]}")
                futures[fut] = j
            outcomes: dict[str, Outcome] = {}
            for fut in as_completed(list(futures)):
                j = futures[fut]
                o = self._collect(fut, j, ctx, qdir, workroot, manifest, lock, logdir, time.monotonic() - t0[j.clip.name])
                outcomes[j.clip.name] = o
                events.finished(o)
        finally:
            client.unsubscribe_topic(topic)
            client.close()
        return [outcomes[j.clip.name] for j in todo]

    def _collect(self, fut, job: Job, ctx, qdir, workroot, manifest, lock, logdir: Path, secs: float) -> Outcome:
        clip = job.clip
        log = logdir / f"{clip.name}.log"
        try:
            res = fut.result()
        except Exception as e:  # the task itself died (KilledWorker, a worker lost mid-render, ...)
            log.write_text(f"{type(e).__name__}: {e}\n", encoding="utf-8")
            return Outcome(clip, False, secs, log, f"on the cluster: {type(e).__name__}: {e}")
        if "refused" in res:
            log.write_text(res["refused"] + "\n", encoding="utf-8")
            return Outcome(clip, False, secs, log, res["refused"])
        log.write_text(res.get("log", ""), encoding="utf-8")
        if not res["ok"]:
            return Outcome(clip, False, secs, log, res["message"])
        work = workroot / clip.name
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        result = dict(res["result"])
        for kind, data in res["files"].items():
            dst = work / f"{clip.name}.{kind}"
            dst.write_bytes(data)
            result[kind] = str(dst)
        commit(clip, ctx, qdir, manifest, lock, result)
        return Outcome(clip, True, secs, log)
