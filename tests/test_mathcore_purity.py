"""mathcore is pure NumPy: importing it never imports Manim, and no file in it mentions an import of manim."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import mathcore

MATHCORE_DIR = Path(mathcore.__file__).resolve().parent
HEAVY = ("manim", "manimpango", "cairo")  # Manim and the drawing stack it pulls in


def test_importing_mathcore_does_not_import_manim():
    code = (
        "import sys, json, mathcore\n"
        "from mathcore import load_config\n"
        "load_config()\n"
        "print(json.dumps(sorted(m for m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=MATHCORE_DIR.parent)
    modules = json.loads(out.stdout)
    assert "mathcore" in modules and "numpy" in modules  # the probe really imported mathcore
    loaded = [m for m in modules if m.split(".")[0].lower() in HEAVY]
    assert loaded == [], loaded


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                "__import__", "import_module") and node.args and isinstance(node.args[0], ast.Constant):
            roots.add(str(node.args[0].value).split(".")[0])
    return roots


def test_no_mathcore_file_imports_manim():
    files = sorted(MATHCORE_DIR.glob("*.py"))
    assert len(files) >= 8
    offenders = {f.name: sorted(imported_roots(f) & set(HEAVY)) for f in files}
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}, offenders
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert "import manim" not in text and "from manim" not in text, f.name


def test_import_scanner_would_catch_an_import(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("import numpy as np\nfrom manim import Scene\nimportlib.import_module('cairo')\n")
    assert imported_roots(p) == {"numpy", "manim", "cairo"}
