"""What every section of the benchmark shares: a throwaway copy of the project, timed commands, marks."""


from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ...catalog import REPO_DIR

FRAME_CLIPS = ("01", "06", "12")  # a matrix clip, a chart clip, a curve clip


def _copy_project(dst: Path) -> Path:
    for d in ("mathcore", "microscope", "scenes", "assets", "examples"):
        shutil.copytree(REPO_DIR / d, dst / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO_DIR / "manim.cfg", dst / "manim.cfg")
    return dst


def _run(root: Path, *cmd: str, env: dict | None = None) -> float:
    env = dict(os.environ, PYTHONPATH=str(root), **(env or {}))
    t0 = time.perf_counter()
    r = subprocess.run(list(cmd), cwd=root, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return dt


def _clips(root: Path, *args: str) -> float:
    return _run(root, sys.executable, "-m", "scenes.render.cli", *args)


def _silent(root: Path) -> dict:
    """The environment of a plain ``manim`` run of a clip with the voice off: the project's config with
    ``voice.engine = "none"`` (plain Manim takes the clip's options from the config only)."""
    import re

    cfg = root / "silent-lecture.toml"
    if not cfg.exists():
        text = (root / "assets" / "lecture.toml").read_text(encoding="utf-8")
        cfg.write_text(re.sub(r'(?m)^engine\s*=\s*"[a-z]+"', 'engine = "none"', text), encoding="utf-8")
    return {"ATTENTION_CLIPS_CONFIG": str(cfg)}


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _manifest(root: Path, out: str, q: str) -> dict:
    return json.loads((root / out / q / "manifest.json").read_text())["clips"]


