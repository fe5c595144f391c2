"""The digests a render key is made of, shared by the pipeline (render keys) and the audit cache
(audit keys): what a clip's frames depend on in the code any clip can reach (:func:`source_digest`) and in
the clip's own source and narration (:func:`clip_digest`).  Nothing here imports Manim or a scene.
"""

from __future__ import annotations

import hashlib
import json
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
    """The clip's own section of its narration file, canonically serialised."""
    from mathcore.config import ASSETS_DIR

    cache = {} if cache is None else cache
    path = ASSETS_DIR / "narration" / f"{clip.name}.toml"
    if path not in cache:
        try:
            cache[path] = tomllib.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, tomllib.TOMLDecodeError):
            cache[path] = {}
    return json.dumps(cache[path].get(clip.slug), sort_keys=True).encode()


def clip_digest(clip: Clip, cache: dict | None = None) -> str:
    """Digest of what is the clip's own: its identity, its module's source, its narration."""
    ident = f"{clip.number}|{clip.scene}|{clip.module}|{clip.slug}|{clip.title}|{clip.section}".encode()
    return _sha(ident, clip_source_digest(clip).encode(), narration_of(clip, cache))


def clip_source_digest(clip: Clip) -> str:
    """Digest of the clip's own code (``Clip.sources``: ``scenes/clips/cNN_slug.py`` and its widgets): an
    edit of it re-renders that clip only; the code every clip shares is in :func:`source_digest`."""
    return _files_digest(clip.sources)


def source_digest() -> str:
    """Digest of every file any clip can reach (kit, narration, audit, figures, catalog, worker, mathcore), the
fonts and manim.cfg."""
    from mathcore.config import ASSETS_DIR

    code = [p for d in ("kit", "narration", "audit") for p in (SCENES_DIR / d).glob("*.py")]
    code += [SCENES_DIR / "catalog.py", SCENES_DIR / "render" / "worker.py"]
    code += list((SCENES_DIR / "figures").glob("*.py"))  # a clip draws from its family's picture description too
    code += [SCENES_DIR / "stills" / "spec.py", SCENES_DIR / "stills" / "text.py"]  # which the figures are made of
    code += list((REPO_DIR / "mathcore").glob("*.py"))
    fonts = list((ASSETS_DIR / "fonts").glob("*"))
    return _sha(_files_digest(code).encode(), _files_digest(fonts).encode(), (REPO_DIR / "manim.cfg").read_bytes())
