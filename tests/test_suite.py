"""The suite's own scheduling: what `make test` promises about its two workers holds.

`make test` runs ``pytest -n 2 --dist loadgroup`` and ``tests/conftest.py`` gives every test an xdist
group (a clip's file and its row of the clips x configs test share one), so that a group's module
fixtures (a clip's corner audits, the handout's pages) are computed once, on one worker.  pytest-xdist
groups by appending ``@group`` to each item's node id; pytest 9 no longer reads that attribute, and every
test then became its own unit, scattered over both workers, each computing the module's fixtures again.
This runs a small suite through the real command line with the conftest's own grouping hook and checks
that each group ran whole on one worker, its module fixture once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent

CONFTEST = f"""
import importlib.util

spec = importlib.util.spec_from_file_location("clips_conftest", {str(TESTS / "conftest.py")!r})
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
pytest_collection_modifyitems = mod.pytest_collection_modifyitems
"""

MODULE = """
import os
import time

import pytest

LOG = os.environ["SUITE_LOG"]


def note(what):
    with open(LOG, "a") as f:
        f.write(f"{what} {__name__} {os.environ.get('PYTEST_XDIST_WORKER', '-')}\\n")


@pytest.fixture(scope="module")
def shared():
    note("fixture")
    time.sleep(0.3)


@pytest.mark.parametrize("k", range(4))
def test_one(shared, k):
    note("test")
    time.sleep(0.1)
"""


def test_each_group_runs_whole_on_one_worker_and_its_module_fixture_once(tmp_path):
    for name in ("test_clip98_toy", "test_clip99_toy", "test_other_toy"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(MODULE))
    (tmp_path / "conftest.py").write_text(CONFTEST)
    log = tmp_path / "log.txt"
    r = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder",
                        "-q", "-p", "no:cacheprovider", str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "SUITE_LOG": str(log)})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    workers, fixtures = defaultdict(set), defaultdict(int)
    for line in log.read_text().splitlines():
        what, module, worker = line.split()
        workers[module].add(worker)
        fixtures[module] += what == "fixture"
    assert set(workers) == {"test_clip98_toy", "test_clip99_toy", "test_other_toy"}
    assert all(len(w) == 1 for w in workers.values()), dict(workers)  # a group is one worker's
    assert dict(fixtures) == {m: 1 for m in workers}, dict(fixtures)  # so its module fixture runs once
    assert set().union(*workers.values()) == {"gw0", "gw1"}  # and both workers had work
