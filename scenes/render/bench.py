"""``make bench``: render-pipeline timings on this machine, side by side in one run.

Works on a throwaway copy of the project (your ``out/`` and files are never touched) and
prints figures and ratios against the targets; it asserts nothing.

    1. the whole deck at 480p15 with --jobs 1, then with --jobs 2 (fresh outputs each)
    2. a no-change ``clips render`` against re-running every clip through plain ``manim``
       with Manim's own cache warm
    3. a one-clip edit (a comment inside one clip's class): only that clip renders
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..catalog import CLIPS, REPO_DIR


def _copy_project(dst: Path) -> Path:
    for d in ("mathcore", "scenes", "assets"):
        shutil.copytree(REPO_DIR / d, dst / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO_DIR / "manim.cfg", dst / "manim.cfg")
    return dst


def _run(root: Path, *cmd: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(root))
    t0 = time.perf_counter()
    r = subprocess.run(list(cmd), cwd=root, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return dt


def _clips(root: Path, *args: str) -> float:
    return _run(root, sys.executable, "-m", "scenes.render.cli", *args)


def main() -> int:
    q = "l"
    n = len(CLIPS)
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="clips-bench-") as tmp:
        root = _copy_project(Path(tmp) / "project")
        print(f"bench: {n} clips at 480p15 on {os.cpu_count()} cores (a copy of the project in {root})", flush=True)

        t1 = _clips(root, "render", "-q", q, "--jobs", "1", "--out", "out1")
        print(f"  deck, --jobs 1: {t1:7.1f} s", flush=True)
        t2 = _clips(root, "render", "-q", q, "--jobs", "2", "--out", "out2")
        print(f"  deck, --jobs 2: {t2:7.1f} s", flush=True)

        t_nochange = min(_clips(root, "render", "-q", q, "--out", "out2") for _ in range(3))
        print(f"  no-change clips render: {t_nochange:.2f} s", flush=True)

        # plain manim with its own cache, warm: the first run compiles the Typst formulas and
        # the second is the first whose animation hashes see them compiled (measured here: a
        # second run still re-renders most animations, a third hits the cache), then measure
        manim = str(Path(sys.executable).with_name("manim"))
        for _ in range(2):
            for c in CLIPS:
                _run(root, manim, "-ql", f"scenes/{c.module}.py", c.scene)
        t_manim = sum(_run(root, manim, "-ql", f"scenes/{c.module}.py", c.scene) for c in CLIPS)
        print(f"  plain manim, cache warm, every clip: {t_manim:.1f} s", flush=True)

        edited = CLIPS[len(CLIPS) // 2]
        path = root / "scenes" / f"{edited.module}.py"
        src = path.read_text(encoding="utf-8")
        head = f"class {edited.scene}("
        cut = src.index("\n", src.index(head)) + 1
        path.write_text(src[:cut] + "    # bench: an edit inside this clip's class\n" + src[cut:], encoding="utf-8")
        t_edit = _clips(root, "render", "-q", q, "--out", "out2")
        print(f"  one-clip edit ({edited.name}): {t_edit:.1f} s", flush=True)

    def mark(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    rows = [
        ("deck 480p15, --jobs 1", f"{t1:.1f} s", ""),
        ("deck 480p15, --jobs 2", f"{t2:.1f} s", f"<= 180 s: {mark(t2 <= 180)}"),
        ("--jobs 2 speed-up", f"{t1 / t2:.2f}x", f">= 1.3x: {mark(t1 / t2 >= 1.3)}"),
        ("no-change clips render", f"{t_nochange:.2f} s", f"<= 1 s: {mark(t_nochange <= 1)}"),
        ("plain manim, warm cache", f"{t_manim:.1f} s", ""),
        ("no-change vs manim cache", f"{t_manim / t_nochange:.0f}x faster", f">= 20x: {mark(t_manim / t_nochange >= 20)}"),
        (f"edit one clip ({edited.name})", f"{t_edit:.1f} s", f"{t_edit / (t1 / n):.1f}x one clip's mean"),
    ]
    print()
    w = max(len(r[0]) for r in rows)
    for name, fig, target in rows:
        print(f"{name:<{w}}  {fig:>14}  {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
