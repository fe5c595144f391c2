"""Many submissions at once: in parallel on this machine (``--jobs``), or on a Dask cluster (``--scheduler``).

Each submission is still run in a sandbox of its own.  On a cluster the client reads the files (so the
workers need no access to them) and sends each submission's code to a worker, which checks it in a
sandbox *on that worker* (bwrap must be installed there) and sends the report back.  A worker first
compares its own ``microscope`` and ``mathcore`` source with the client's and refuses with one line if
they differ: a verdict is only as good as the reference that gave it.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from .check import SubmissionReport, check_submission, unreadable
from .checks import CheckInputs
from .sandbox import Limits, SandboxUnavailable, probe
from .submission import Submission, SubmissionError, read_submission


def source_digest() -> str:
    """The digest of every ``.py`` file of ``microscope`` and ``mathcore``: what a verdict depends on."""
    h = hashlib.sha256()
    for pkg in ("microscope", "mathcore"):
        root = Path(__file__).resolve().parent.parent / pkg
        for f in sorted(root.glob("*.py")):
            h.update(f"{pkg}/{f.name}\0".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def _read(path: Path, name: str):
    try:
        return read_submission(path, name)
    except SubmissionError as e:
        return unreadable(str(path), name, str(e))


def check_remote(sub: Submission, inputs: CheckInputs, limits: Limits, sandbox: bool, digest: str) -> dict:
    """Run on a Dask worker: check one submission here, in a sandbox here; the report as a dict."""
    from distributed import get_worker

    where = f"worker {get_worker().address}"
    if source_digest() != digest:
        why = (f"{where} refuses it: its microscope or mathcore source differs from the client's "
               "(run the worker from the same commit)")
        return dict(unreadable(sub.path, sub.name, why).as_dict(), seconds=0.0)
    if sandbox:
        try:
            probe()
        except SandboxUnavailable as e:
            return dict(unreadable(sub.path, sub.name, f"{where}: {e}").as_dict(), seconds=0.0)
    rep = check_submission(sub, inputs, limits, sandbox)
    return dict(rep.as_dict(), seconds=rep.seconds)


def check_many(items: list[tuple[Path, str]], inputs: CheckInputs, limits: Limits = Limits(), sandbox: bool = True,
               jobs: int = 1, client=None, done=None) -> list[SubmissionReport]:
    """Check every ``(path, name)``; the reports in the order given.  ``done(report)`` is called as each
    finishes.  ``client``: a Dask ``distributed.Client`` to run them on (else ``jobs`` threads here, each
    driving one sandboxed process)."""
    subs = [_read(p, n) for p, n in items]
    out: list = [None] * len(subs)
    todo = []
    for i, s in enumerate(subs):
        if isinstance(s, SubmissionReport):
            out[i] = s
            if done:
                done(s)
        else:
            todo.append(i)
    if client is not None:
        from distributed import as_completed as dask_completed

        digest = source_digest()
        futures = {client.submit(check_remote, subs[i], inputs, limits, sandbox, digest, pure=False): i for i in todo}
        for fut in dask_completed(list(futures)):
            i = futures[fut]
            try:
                rep = SubmissionReport.from_dict(fut.result())
            except Exception as e:  # a worker lost mid-check, a task killed
                rep = unreadable(subs[i].path, subs[i].name, f"on the cluster: {type(e).__name__}: {e}")
            out[i] = rep
            if done:
                done(rep)
        return out
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(check_submission, subs[i], inputs, limits, sandbox): i for i in todo}
        for fut in as_completed(futures):
            out[futures[fut]] = fut.result()
            if done:
                done(out[futures[fut]])
    return out


def default_jobs() -> int:
    return os.cpu_count() or 1
