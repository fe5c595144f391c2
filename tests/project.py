"""The test projects and the real ``clips`` command, shared by the test files that run it.

A test project is a copy of this project whose catalog lists tiny test clips (rendered at the hidden
test quality ``t``: 256x144, 5 fps), so a test exercises the real command, the real workers and Manim in
seconds: :func:`make_project`, then :func:`clips` runs the command in it (or in the project itself).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLIPS = Path(sys.executable).with_name("clips")

TEST_MODULES = {  # each test clip's module, by its slug
    "alpha": '''
from dataclasses import dataclass
import numpy as np
from manim import FadeIn
from scenes.kit import ClipScene, label

@dataclass(frozen=True)
class AlphaData:
    grid: np.ndarray

class Alpha(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return AlphaData(np.arange(cfg.T * cfg.d, dtype=float).reshape(cfg.T, cfg.d) / (cfg.T * cfg.d))

    def body(self):
        self.beat("one", FadeIn(label(f"T = {self.data.grid.shape[0]}")), run_time=0.4)
''',
    "beta": '''
from manim import FadeIn
from scenes.kit import ClipScene, label

class Beta(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return {"s": cfg.sentence_a}

    def body(self):
        self.beat("one", FadeIn(label(self.data["s"])), run_time=0.4)
''',
    "broken": '''
from scenes.kit import ClipScene

class Broken(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return {}

    def body(self):
        raise RuntimeError("this clip is broken on purpose")
''',
    "slow": '''
from scenes.kit import ClipScene

class Slow(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return {}

    def body(self):
        for _ in range(600):
            self.wait(0.5)
''',
    "gamma": '''
from manim import FadeIn
from scenes.kit import ClipScene, label

from scenes.clips.c05_widgets import SHARED

class Gamma(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return {}

    def body(self):
        self.beat("one", FadeIn(label("gamma " + SHARED)), run_time=0.4)
''',
    "delta": '''
from manim import FadeIn
from scenes.kit import ClipScene, label

class Delta(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return {}

    def body(self):
        self.beat("one", FadeIn(label("delta shared text")), run_time=0.4)
''',
}
CATALOG_ROWS = {
    "alpha": 'Clip(1, "Alpha", "tclip_alpha", "§a", "Alpha", "alpha"),',
    "beta": 'Clip(2, "Beta", "tclip_beta", "§b", "Beta", "beta"),',
    "broken": 'Clip(3, "Broken", "tclip_broken", "§c", "Broken", "broken"),',
    "slow": 'Clip(4, "Slow", "tclip_slow", "§d", "Slow", "slow"),',
    "gamma": 'Clip(5, "Gamma", "tclip_pair", "§e", "Gamma", "gamma"),',
    "delta": 'Clip(6, "Delta", "tclip_pair", "§f", "Delta", "delta"),',
}
NUMBERS = {"alpha": 1, "beta": 2, "broken": 3, "slow": 4, "gamma": 5, "delta": 6}


def clip_module(root: Path, slug: str) -> Path:
    """Where test clip ``slug``'s module lives in a test project: ``scenes/clips/cNN_slug.py``."""
    return root / "scenes" / "clips" / f"c{NUMBERS[slug]:02d}_{slug}.py"


def narration_path(root: Path, slug: str) -> Path:
    """Test clip ``slug``'s narration file in a test project: ``assets/narration/NN_slug.toml``."""
    return root / "assets" / "narration" / f"{NUMBERS[slug]:02d}_{slug}.toml"


def make_project(root: Path, clips: list[str]) -> Path:
    """A copy of the project whose lecture is ``clips`` (test clips)."""
    root.mkdir(parents=True, exist_ok=True)
    for d in ("clipcache", "mathcore", "scenes", "assets"):
        shutil.copytree(REPO / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "manim.cfg", root / "manim.cfg")
    cat = root / "scenes" / "catalog.py"
    text = cat.read_text()
    rows = "\n    ".join(CATALOG_ROWS[c] for c in clips)
    text, n = re.subn(r"LECTURE: tuple\[Clip, \.\.\.\] = \(\n.*?\n\)\n", f"LECTURE: tuple[Clip, ...] = (\n    {rows}\n)\n",
                      text, flags=re.S)
    assert n == 1
    cat.write_text(text)
    cfg = root / "assets" / "lecture.toml"  # test projects are silent unless a test asks for a voice
    cfg.write_text(re.sub(r'(?m)^engine = "\w+"', 'engine = "none"', cfg.read_text()))
    for slug, src in TEST_MODULES.items():
        clip_module(root, slug).write_text(src)
        narration_path(root, slug).write_text(f'[{slug}]\ntitle = "A test clip."\none = "One beat."\nclose = "The end."\n')
    (root / "scenes" / "clips" / "c05_widgets.py").write_text('SHARED = "shared text"  # beside clip 05 (gamma)\n')
    return root


def clips(project: Path | None, *args: str, timeout: float = 300, env_extra: dict | None = None):
    env = dict(os.environ)
    if project is not None:
        env["PYTHONPATH"] = str(project)
        cmd = [sys.executable, "-m", "scenes.render.cli", *args]
    else:
        cmd = [str(CLIPS), *args]
    env.update(env_extra or {})
    return subprocess.run(cmd, cwd=project or REPO, env=env, capture_output=True, text=True, timeout=timeout)


def one_line(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    return lines[0]
