"""The project's import contract, checked from the source (every import, module level or inside a
function, absolute or relative).

Layers, lowest first: ``clipcache`` (the one cache under ``.render-cache/``: standard library only) <
``mathcore`` < ``microscope`` (``clips check``: mathcore only) < ``scenes.catalog`` <
``scenes.kit`` (what draws: theme, numbers and notation, layout and composers, motion, widgets) <
``scenes.narration`` (the voice and the captions) <
``scenes.audit`` (what each beat shows, and what is wrong with it) < ``scenes.stills`` (matplotlib figures: spec,
text, drawing) < ``scenes.figures`` (each family's stills and picture descriptions) <
``scenes.kit.base`` (``ClipScene``, which draws, speaks and records every beat) < the clip modules
(``scenes/clips/cNN_slug.py``) < ``scenes.render``.  A module imports only its own layer and the layers
below; clip modules never import each other (a clip's module may import the widgets beside it,
``cNN_widgets``); and no two modules import each other, directly or round a longer cycle.  ``microscope`` runs
students' code: only ``scenes.render`` imports it (``clips check``, ``clips render --student``); the kit, the
figures and the clips below it take a student's numbers as plain arrays (``scenes.kit.student``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

LAYERS = ("clipcache", "mathcore", "microscope", "scenes.catalog", "scenes.kit", "scenes.narration", "scenes.audit", "scenes.stills",
          "scenes.figures", "scenes.kit.base", "clips", "scenes.render")


@dataclass(frozen=True)
class Finding:
    kind: str  # "upward", "sibling", "microscope" or "cycle"
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer(mod: str, clip_modules: set[str]) -> int | None:
    def under(pkg: str) -> bool:
        return mod == pkg or mod.startswith(pkg + ".")

    if under("clipcache"):
        return 0
    if under("mathcore"):
        return 1
    if under("microscope"):
        return 2
    if mod == "scenes.catalog":
        return 3
    if mod == "scenes.kit.base":
        return 9
    for k, pkg in ((4, "scenes.kit"), (5, "scenes.narration"), (6, "scenes.audit"), (7, "scenes.stills"),
                   (8, "scenes.figures")):
        if under(pkg):
            return k
    if mod in clip_modules or mod.startswith("scenes.clips."):
        return 10
    if under("scenes.render"):
        return 11
    return None


def clip_of(mod: str) -> str:
    """The clip a module under ``scenes.clips`` belongs to: ``c13`` for ``scenes.clips.c13_extrapolation_cliff``
    and for the widgets beside it, ``scenes.clips.c13_widgets``."""
    return mod.rpartition(".")[2].partition("_")[0]


def imports(root: Path, path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports anywhere in its body (``from x import y`` counts as
    ``x.y`` when that is a module, else ``x``)."""
    me = module_name(root, path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.add(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}" if target else a.name
                out.add(sub if sub in known else target)
    return {m for m in out if m in known and m != me}


def graph(root: Path) -> dict[str, set[str]]:
    files = [p for d in ("clipcache", "mathcore", "microscope", "scenes") for p in sorted((root / d).rglob("*.py"))]
    known = {module_name(root, p) for p in files}
    return {module_name(root, p): imports(root, p, known) for p in files}


def check(root: Path) -> list[Finding]:
    g = graph(root)
    clip_modules = {m for m in g if m.startswith("scenes.clips.")}
    out: list[Finding] = []
    for mod, deps in sorted(g.items()):
        lm = layer(mod, clip_modules)
        if lm is None:
            continue
        for dep in sorted(deps):
            ld = layer(dep, clip_modules)
            if ld is None:
                continue
            if ld > lm:
                out.append(Finding("upward", f"{mod} (layer {LAYERS[lm]}) imports {dep} (layer {LAYERS[ld]})"))
            elif ld == LAYERS.index("microscope") and lm not in (ld, LAYERS.index("scenes.render")):
                out.append(Finding("microscope", f"{mod} (layer {LAYERS[lm]}) imports {dep}: only scenes.render "
                                                 f"runs students' code; pass their numbers as plain arrays"))
            elif lm == ld == LAYERS.index("clips") and clip_of(mod) != clip_of(dep):
                out.append(Finding("sibling", f"clip module {mod} imports clip module {dep}"))
    # cycles: strongly connected components of more than one module (Tarjan)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    for comp in comps:
        out.append(Finding("cycle", " <-> ".join(comp)))
    return out
