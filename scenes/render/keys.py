"""The digests a render key is made of, shared by the pipeline (render keys) and the audit cache
(audit keys): what a clip's frames depend on in the code any clip can reach (:func:`source_digest`) and in
the clip's own source and narration (:func:`clip_digest`).  Nothing here imports Manim or a scene.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Iterable
from pathlib import Path

from ..catalog import REPO_DIR, SCENES_DIR, Clip


def _sha(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def _files_digest(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(str(p.relative_to(REPO_DIR)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def narration_of(clip: Clip, cache: dict | None = None) -> bytes:
    """The clip's own section of its family's narration file, canonically serialised."""
    from mathcore.config import ASSETS_DIR

    cache = {} if cache is None else cache
    path = ASSETS_DIR / "narration" / f"{clip.module}.toml"
    if path not in cache:
        try:
            cache[path] = tomllib.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, tomllib.TOMLDecodeError):
            cache[path] = {}
    return json.dumps(cache[path].get(clip.slug), sort_keys=True).encode()


def clip_digest(clip: Clip, cache: dict | None = None) -> str:
    """Digest of what is the clip's own: its identity, its source (see :func:`clip_source`), its narration."""
    ident = f"{clip.number}|{clip.scene}|{clip.module}|{clip.slug}|{clip.title}|{clip.section}".encode()
    return _sha(ident, clip_source_digest(clip).encode(), narration_of(clip, cache))


SOURCE_MEMO = REPO_DIR / ".render-cache" / "plan" / "clip-sources.json"
_memo: dict | None = None


def clip_source_digest(clip: Clip) -> str:
    """sha256 of :func:`clip_source`, remembered by the module's bytes and the clip's siblings
    (``.render-cache/plan``): a plan parses no module that did not change (16 parses: 0.4 s)."""
    global _memo
    from ..catalog import LECTURE

    text = clip.path.read_bytes()
    siblings = sorted(c.scene for c in LECTURE if c.module == clip.module and c.scene != clip.scene)
    k = _sha(text, clip.scene.encode(), "|".join(siblings).encode())
    if _memo is None:
        try:
            _memo = json.loads(SOURCE_MEMO.read_text())
        except (OSError, ValueError):
            _memo = {}
    if k not in _memo:
        _memo[k] = hashlib.sha256(clip_source(clip).encode()).hexdigest()
        if len(_memo) > 512:  # old entries go: keep the newest
            _memo = dict(list(_memo.items())[-256:])
        try:
            SOURCE_MEMO.parent.mkdir(parents=True, exist_ok=True)
            tmp = SOURCE_MEMO.with_name(f"{SOURCE_MEMO.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(_memo))
            os.replace(tmp, SOURCE_MEMO)
        except OSError:
            pass
    return _memo[k]


def source_digest() -> str:
    """Digest of every file any clip can reach (kit, catalog, worker, mathcore), the fonts and manim.cfg."""
    from mathcore.config import ASSETS_DIR

    code = list((SCENES_DIR / "kit").glob("*.py")) + [SCENES_DIR / "catalog.py", SCENES_DIR / "render" / "worker.py"]
    code += list((SCENES_DIR / "figures").glob("*.py"))  # a clip draws from its family's picture description too
    code += list((REPO_DIR / "mathcore").glob("*.py"))
    fonts = list((ASSETS_DIR / "fonts").glob("*"))
    return _sha(_files_digest(code).encode(), _files_digest(fonts).encode(), (REPO_DIR / "manim.cfg").read_bytes())


def clip_source(clip: Clip) -> str:
    """The source a clip depends on within its module: everything except the classes of the
    module's *other* clips (unless this clip's class derives from one of them).  Editing one
    clip's class re-renders that clip only; editing shared module code re-renders them all."""
    import ast

    from ..catalog import LECTURE

    text = clip.path.read_text(encoding="utf-8")
    siblings = {c.scene for c in LECTURE if c.module == clip.module and c.scene != clip.scene}
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text  # the worker will report the error; the key still changes with the text
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    needed, todo = set(), [clip.scene]
    while todo:  # this clip's class and any sibling clip class it derives from
        name = todo.pop()
        node = classes.get(name)
        if node is None or name in needed:
            continue
        needed.add(name)
        todo.extend(b.id for b in node.bases if isinstance(b, ast.Name))
    lines = text.splitlines(keepends=True)
    drop = set()
    for name, node in classes.items():
        if name in siblings and name not in needed:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            drop.update(range(start - 1, node.end_lineno))
    return "".join(line for i, line in enumerate(lines) if i not in drop)
