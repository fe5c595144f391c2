"""Clip workers forked from a preloaded server instead of started afresh.

``clips render`` used to start ``python -m scenes.render.worker`` for every clip, and each one
imported Manim, PyAV, SciPy's filters and the scene modules again (about 3 s).  Here a
``multiprocessing`` fork server imports them once (:mod:`scenes.render.preload`) and forks one
child per clip: each clip still renders in a process of its own, started from a clean state (the
server only imported modules; it never rendered), with the job's environment and its output in
the clip's log, as before.  The frames and files are the same bits (``tests/test_reuse.py``).

This module is light (the CLI imports it to hand jobs over); the heavy imports happen in the
server.  ``clips render --no-cache`` starts each worker afresh, as before.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from pathlib import Path

_lock = threading.Lock()
_context = None


def context():
    """The fork-server context, its server preloading :mod:`scenes.render.preload` (started on first use)."""
    global _context
    with _lock:
        if _context is None:
            import multiprocessing

            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["scenes.render.preload"])
            _context = ctx
        return _context


def run(argv: list[str], env: dict, log: Path, on_progress, on_start=None, module: str = "scenes.render.worker") -> int:
    """Run ``module``'s ``main(argv)`` (the worker, or the narration's preflight) in a forked child; its stdout
    and stderr go to ``log``, each animation played calls ``on_progress(played)``; ``on_start(process)`` is told
    the child once it runs (``clips studio`` kills a render an edit made stale).  Returns the exit status
    (negative: killed by that signal)."""
    from multiprocessing.connection import wait

    ctx = context()
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=child, args=(list(argv), dict(env), str(log), send, module), daemon=False)
    proc.start()
    send.close()
    if on_start is not None:
        on_start(proc)
    try:
        while True:
            ready = wait([recv, proc.sentinel])
            if recv not in ready and not recv.poll():
                break  # the child has ended and everything it sent is read
            try:
                played = recv.recv()
            except EOFError:
                break
            if on_progress is not None:
                on_progress(played)
    finally:
        recv.close()
        proc.join()
    return proc.exitcode


def child(argv: list[str], env: dict, log: str, progress, module: str = "scenes.render.worker") -> None:
    """In the forked child: the job's environment, the log as stdout and stderr, then ``module.main``."""
    os.environ.clear()
    os.environ.update(env)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)
    import importlib

    from . import worker

    worker.report_progress = progress.send
    try:
        code = importlib.import_module(module).main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001 - the log's last line names it, as a fresh worker's would
        code = 1
        try:
            traceback.print_exc()
        except OSError:
            pass  # the log's disk is full: said by the flush below
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError as e:  # the log could not be written: a fault of the machine if the clip failed too
        from .worker import FAULT_ERRNOS, FAULT_EXIT

        if code != 0 and e.errno in FAULT_ERRNOS:
            code = FAULT_EXIT
        sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # what could not be written is dropped
    progress.close()
    sys.exit(code)  # multiprocessing's own exit: its finalisers release what the worker made (tqdm's lock)
