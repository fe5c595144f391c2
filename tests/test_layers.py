"""The import contract (tests/layers.py): no module imports a layer above its own, no clip module
imports another, and no import cycle, counting imports inside functions."""

from __future__ import annotations

import textwrap
from pathlib import Path

from layers import check, graph

ROOT = Path(__file__).resolve().parent.parent


def test_the_project_keeps_its_layers():
    findings = check(ROOT)
    assert not findings, "\n".join(map(str, findings))


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    for d in ("mathcore", "scenes", "scenes/kit", "scenes/narration", "scenes/audit", "scenes/figures", "scenes/clips",
              "scenes/render"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
        (tmp_path / d / "__init__.py").touch()
    return tmp_path


def test_the_checker_finds_each_kind_of_breach(tmp_path):
    """Findings of each kind: the kit reaching up to the figures and the narration up to the audit,
    pipeline <-> remote and assemble <-> present, each behind a function-level import."""
    root = _tree(tmp_path, {
        "scenes/kit/layout.py": """
            def stills():
                from scenes.figures import designed_stills
            """,
        "scenes/narration/voice.py": "from scenes.audit import beats\n",
        "scenes/figures/causal.py": "from . import still\n",
        "scenes/render/pipeline.py": """
            def execute():
                from .remote import run
            """,
        "scenes/render/remote.py": "from .pipeline import commit\n",
        "scenes/render/assemble.py": """
            def chapters():
                from . import present
            """,
        "scenes/render/present.py": "from .assemble import Manifest\n",
        "scenes/clips/c03_causal_mask.py": "from scenes.kit import base\n",
        "scenes/clips/c10_rope_angle_grid.py": "import scenes.clips.c03_causal_mask\n",
        "scenes/catalog.py": "",
        "mathcore/config.py": "def f():\n    import scenes.catalog\n",
    })
    found = {str(f) for f in check(root)}
    assert "upward: scenes.kit.layout (layer scenes.kit) imports scenes.figures (layer scenes.figures)" in found
    assert "upward: scenes.narration.voice (layer scenes.narration) imports scenes.audit (layer scenes.audit)" in found
    assert "cycle: scenes.render.pipeline <-> scenes.render.remote" in found
    assert "cycle: scenes.render.assemble <-> scenes.render.present" in found
    assert "sibling: clip module scenes.clips.c10_rope_angle_grid imports clip module scenes.clips.c03_causal_mask" in found
    assert any(f.startswith("upward: mathcore.config") for f in found)
    assert len(found) == 6


def test_relative_and_function_level_imports_are_resolved():
    g = graph(ROOT)
    assert "scenes.kit.theme" in g["scenes.kit.widgets"]  # from .theme import ...
    assert "mathcore.config" in g["scenes.kit.base"]


def test_only_the_render_layer_imports_the_microscope(tmp_path):
    """The kit and the clips take a student's numbers as plain arrays (scenes.kit.student), never by importing
    microscope (which runs students' code); the render layer may."""
    root = _tree(tmp_path, {
        "microscope/__init__.py": "",
        "microscope/student.py": "import mathcore\n",
        "scenes/kit/student.py": "def load():\n    from microscope.student import student_run\n",
        "scenes/clips/c03_causal_mask.py": "import microscope.student\n",
        "scenes/render/student.py": "from microscope.student import student_run\n",
        "scenes/catalog.py": "",
    })
    found = {str(f) for f in check(root)}
    assert any(f.startswith("microscope: scenes.kit.student (layer scenes.kit) imports microscope.student") for f in found)
    assert any(f.startswith("microscope: scenes.clips.c03_causal_mask (layer clips) imports microscope.student")
               for f in found)
    assert not any(f.startswith("microscope: scenes.render") for f in found), found
