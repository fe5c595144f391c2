"""``clips render --scheduler``: clips rendered on a Dask cluster, for real.

A ``LocalCluster`` (two worker processes) is started from a copy of the project with test
clips, exactly as workers on other machines are started from their own checkout; the client
is the real ``clips`` command.  A cluster render equals a local render bit for bit, a failing
clip fails alone, a worker whose project or libraries differ refuses with one line, and a
render without ``--scheduler`` never imports Dask.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from project import clips, make_project

CLUSTER = """
import sys, time
from distributed import LocalCluster
if __name__ == "__main__":
    c = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, scheduler_port=0)
    print(c.scheduler_address, flush=True)
    sys.stdin.read()  # until the test closes our stdin
    c.close()
"""


class Cluster:
    def __init__(self, project: Path):
        script = project / "start_cluster.py"
        script.write_text(CLUSTER)
        env = dict(os.environ, PYTHONPATH=str(project))
        self.proc = subprocess.Popen([sys.executable, str(script)], cwd=project, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.proc.stdout.readline().strip()
        assert self.address.startswith("tcp://"), self.address

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("dask") / "p", ["alpha", "beta", "broken"])


@pytest.fixture(scope="module")
def cluster(project):
    c = Cluster(project)
    yield c
    c.close()


def manifest(project: Path, out: str) -> dict:
    return json.loads((project / out / "t" / "manifest.json").read_text())["clips"]


def test_a_cluster_render_equals_a_local_render_and_a_broken_clip_fails_alone(project, cluster):
    r = clips(project, "render", "-q", "t", "--out", "cl", "--scheduler", cluster.address)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "03_broken failed: RuntimeError: this clip is broken on purpose" in r.stderr
    m = manifest(project, "cl")
    assert set(m) == {"01_alpha", "02_beta"}
    assert [b["key"] for b in m["01_alpha"]["beats"]] == ["title", "one", "close"]
    assert (project / "cl" / "t" / "logs" / "03_broken.log").read_text().strip()
    local = clips(project, "render", "alpha", "beta", "-q", "t", "--out", "lo", "--jobs", "2")
    assert local.returncode == 0, local.stderr
    lm = manifest(project, "lo")
    for name in ("01_alpha", "02_beta"):
        assert m[name]["files"] == lm[name]["files"]  # same bytes, same sha256, from either place
        assert m[name]["key"] == lm[name]["key"]
    # a second cluster run skips what is current, like a local one
    again = clips(project, "render", "alpha", "beta", "-q", "t", "--out", "cl", "--scheduler", cluster.address)
    assert again.returncode == 0 and "2 clip(s) up to date" in again.stdout


def test_a_worker_from_another_commit_refuses(tmp_path, cluster):
    other = make_project(tmp_path / "other", ["alpha", "beta", "broken"])
    with open(other / "mathcore" / "attention.py", "a") as f:
        f.write("\n# an edit the workers do not have\n")
    r = clips(other, "render", "alpha", "-q", "t", "--out", "out", "--scheduler", cluster.address)
    assert r.returncode == 1
    line = [ln for ln in r.stderr.splitlines() if "01_alpha failed" in ln][0]
    assert "refuses 01_alpha: its project source differs from the client's" in line
    assert not (other / "out" / "t" / "01_alpha.mp4").exists()
    mf = other / "out" / "t" / "manifest.json"
    assert not mf.exists() or "01_alpha" not in json.loads(mf.read_text())["clips"]


def test_a_worker_with_other_library_versions_refuses(tmp_path):
    proj = make_project(tmp_path / "p", ["alpha"])
    c = Cluster(_with_versions(make_project(tmp_path / "w", ["alpha"]), "manim==0.0.0"))
    try:
        r = clips(proj, "render", "-q", "t", "--out", "out", "--scheduler", c.address)
    finally:
        c.close()
    assert r.returncode == 1
    assert "its libraries differ (manim==0.0.0 here, manim==" in r.stderr


def _with_versions(project: Path, fake: str) -> Path:
    """A worker checkout that reports another Manim version (as on a machine not updated)."""
    p = project / "scenes" / "render" / "facts.py"
    text = p.read_text()
    text = text.replace("def library_versions() -> tuple[str, ...]:\n",
                        f"def library_versions() -> tuple[str, ...]:\n    return ({fake!r},) + _real_versions()[1:]\n\n\n"
                        "def _real_versions() -> tuple[str, ...]:\n", 1)
    p.write_text(text)
    return project


def test_an_unreachable_scheduler_is_one_line_and_exit_2(project):
    t0 = time.monotonic()
    r = clips(project, "render", "alpha", "-q", "t", "--out", "x", "--scheduler", "tcp://127.0.0.1:9")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr
    assert time.monotonic() - t0 < 8  # a refused connection is told at once (Dask's client tries for 10 s)


def test_without_a_scheduler_dask_is_not_imported(project):
    code = ("import sys; from scenes.render import cli; rc = cli.main(['render', 'alpha', '-q', 't', '--out', 'nd']); "
            "print(rc, 'dask' in sys.modules or 'distributed' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], cwd=project, env=dict(os.environ, PYTHONPATH=str(project)),
                       capture_output=True, text=True, timeout=300)
    assert r.stdout.strip().splitlines()[-1] == "0 False", r.stdout + r.stderr
