"""Test results kept under the digest of everything they depend on: a second `make test` with nothing
changed does not run again what already passed.

The digest covers every file of the project the tests can read (``clipcache/``, ``mathcore/``, ``scenes/``, ``tests/``,
``assets/``, ``manim.cfg``, ``pyproject.toml``, ``Makefile``), the Python and every installed
distribution's version, the system tools the tests drive (FFmpeg, Chromium, Poppler) and the
environment variables that steer the tests.  Change any of them and every test runs again.  A test that
passed under the same digest is reported as skipped with the digest named; one that failed, or is new,
runs.  The results are written only when the tree did not change while the tests ran.

``make test FULL=1`` (``CLIPS_TESTS_FULL=1``) runs everything regardless; a fresh clone has no results
and runs everything.  The results live in ``.test-results/`` (not tracked).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STORE = REPO / ".test-results"
TREES = ("clipcache", "mathcore", "scenes", "tests", "assets")
FILES = ("manim.cfg", "pyproject.toml", "Makefile")
ENV_PREFIXES = ("ATTENTION_CLIPS_", "CLIPS_", "HYPOTHESIS_")
TOOLS = (("ffmpeg", "-version"), ("chromium", "--version"), ("pdftoppm", "-v"))
FULL_ENV = "CLIPS_TESTS_FULL"


def _tool_version(cmd: tuple[str, str]) -> str:
    exe = shutil.which(cmd[0])
    if not exe:
        return f"{cmd[0]}: absent"
    try:
        r = subprocess.run([exe, cmd[1]], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return f"{cmd[0]}: unreadable"
    first = (r.stdout or r.stderr).strip().splitlines()
    return f"{cmd[0]}: {first[0] if first else ''}"


def tree_digest() -> str:
    """The digest of the project's files, the installed versions, the tools and the steering variables."""
    h = hashlib.sha256()
    paths = []
    for t in TREES:
        paths += [p for p in (REPO / t).rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.suffix not in (".pyc",)]
    paths += [REPO / f for f in FILES if (REPO / f).is_file()]
    for p in sorted(paths):
        h.update(str(p.relative_to(REPO)).encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    h.update(f"{sys.version}|{platform.machine()}|{platform.system()}".encode())
    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions() if d.metadata["Name"])
    h.update("\n".join(dists).encode())
    h.update("\n".join(_tool_version(c) for c in TOOLS).encode())
    env = sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith(ENV_PREFIXES) and k != FULL_ENV)
    h.update("\n".join(env).encode())
    return h.hexdigest()[:20]


def _plain(nodeid: str) -> str:
    """The node id without xdist's ``@group`` suffix (``--dist loadgroup`` adds it)."""
    head, sep, tail = nodeid.rpartition("@")
    return head if sep and "::" in head and "/" not in tail and "[" not in tail else nodeid


class ResultCache:
    def __init__(self, config):
        self.config = config
        self.digest = tree_digest()
        self.path = STORE / f"{self.digest}.json"
        self.passed_before: set[str] = set()
        if os.environ.get(FULL_ENV) != "1" and self.path.is_file():
            try:
                self.passed_before = set(json.loads(self.path.read_text())["passed"])
            except (OSError, ValueError, KeyError):
                self.passed_before = set()
        self.passed: set[str] = set()
        self.failed: set[str] = set()
        self.kept = 0

    # every process (controller and workers) marks what passed before
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not self.passed_before:
            return
        mark = pytest.mark.skip(reason=f"passed under this exact tree and toolset (digest {self.digest}); "
                                       f"make test FULL=1 runs it again")
        for item in items:
            if _plain(item.nodeid) in self.passed_before:
                item.add_marker(mark)
                self.kept += 1

    # the controller (or the only process) records the outcomes
    def pytest_runtest_logreport(self, report):
        nid = _plain(report.nodeid)
        if report.failed:
            self.failed.add(nid)
        elif report.when == "call" and report.passed:
            self.passed.add(nid)
        elif report.when == "setup" and report.skipped and nid in self.passed_before:
            self.passed.add(nid)

    def pytest_sessionfinish(self, session, exitstatus):
        if os.environ.get("PYTEST_XDIST_WORKER"):
            return
        if tree_digest() != self.digest:  # something changed while the tests ran: keep nothing
            return
        keep = (self.passed | self.passed_before) - self.failed
        if not keep:
            return
        STORE.mkdir(exist_ok=True)
        for old in STORE.glob("*.json"):  # results of other trees are of no further use
            if old != self.path:
                old.unlink(missing_ok=True)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"digest": self.digest, "passed": sorted(keep)}, indent=0))
        os.replace(tmp, self.path)

    def pytest_terminal_summary(self, terminalreporter):
        if self.passed_before and not os.environ.get("PYTEST_XDIST_WORKER"):
            terminalreporter.write_line(
                f"{len(self.passed_before)} tests passed before under this exact tree and toolset (digest "
                f"{self.digest}) and were not run again; make test FULL=1 runs everything.")


def pytest_configure(config):
    config.pluginmanager.register(ResultCache(config), "clips-resultcache")
