"""Layout audits kept on disk under the render key, so a run with nothing changed audits nothing.

An audit's outcome depends on exactly what a render's frames depend on: the code every clip can
reach and the clip's own source and narration (``keys.source_digest`` and ``clip_digest``),
the library versions, and the values of the config fields the clip read while it ran.  So an
audit is stored under that key: ``.render-cache/audit/<NN_slug>/<static key>/`` holds one entry
per set of config values met, each the pickled result (records, problems, contrast, lecture
checks, the fields read).  The fields a clip reads are known only once it has run, so a lookup
tries every stored entry of the clip's static key: an entry matches when the current config
gives the same values for the fields that run read (the pipeline's own rule for renders).

A render keeps the audit of what it drew (:func:`keep`, called by the worker): the scene it renders
records every beat as an audit does, so ``clips audit`` after ``clips render`` runs nothing.  What is
kept is what the audit finds (the same records and problems: a beat's picture does not depend on how
long the beat lasts), except the beat times, which are the render's (a narrated beat lasts as long
as its speech); ``kept_by`` says which made it.

Entries are written aside and renamed; one that cannot be read is ignored and audited again.
``ATTENTION_CLIPS_AUDIT_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog import REPO_DIR, Clip
from .facts import library_versions
from .keys import clip_digest, source_digest

CACHE_DIR = REPO_DIR / ".render-cache" / "audit"
FORMAT = "3"  # bump when what is stored changes shape (2: the beats' captions; 3: the truth checks)


@dataclass
class CachedAudit:
    """What an audit found, without the scene it ran (``AuditResult`` minus ``scene`` and frames)."""

    clip: str
    records: list
    problems: list
    contrast: list = field(default_factory=list)
    lecture: list = field(default_factory=list)
    truth: list = field(default_factory=list)  # claims, staging, scales, colours, verdicts (scenes.audit.truth)
    duration: float = 0.0
    used: frozenset = frozenset()
    cached: bool = False
    kept_by: str = "audit"  # "audit" (clips audit, animations skipped) or "render" (what a render drew)
    # every beat's caption as shown, ``{key, text, describe}`` in order: what the handout prints of the clip
    beats: list = field(default_factory=list)


def enabled() -> bool:
    return os.environ.get("ATTENTION_CLIPS_AUDIT_CACHE", "1") not in ("0", "no", "off", "")


def static_key(clip: Clip) -> str:
    h = hashlib.sha256()
    for part in (FORMAT, source_digest(), clip_digest(clip), ";".join(library_versions())):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def _values(cfg, fields) -> str:
    return json.dumps({f: getattr(cfg, f, None) for f in sorted(fields)}, sort_keys=True, default=str)


def _entry_name(values: str) -> str:
    return hashlib.sha256(values.encode()).hexdigest()[:32] + ".pkl"


def lookup(clip: Clip, cfg, key: str | None = None) -> CachedAudit | None:
    folder = CACHE_DIR / clip.name / (key or static_key(clip))
    if not folder.is_dir():
        return None
    for index in sorted(folder.glob("*.fields.json")):
        try:
            fields = json.loads(index.read_text(encoding="utf-8"))
            entry = folder / _entry_name(_values(cfg, fields))
            if entry.exists():
                with open(entry, "rb") as f:
                    res = pickle.load(f)
                res.cached = True
                return res
        except (OSError, ValueError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            continue  # unreadable: audit again (and overwrite)
    return None


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def store(clip: Clip, cfg, res: CachedAudit, key: str | None = None) -> None:
    folder = CACHE_DIR / clip.name / (key or static_key(clip))
    folder.mkdir(parents=True, exist_ok=True)
    fields = sorted(res.used)
    fid = hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:16]
    _write(folder / f"{fid}.fields.json", json.dumps(fields).encode())
    _write(folder / _entry_name(_values(cfg, fields)), pickle.dumps(res, protocol=pickle.HIGHEST_PROTOCOL))


def _entry(clip: Clip, scene, found, rec, seconds: float, kept_by: str) -> CachedAudit:
    """What is kept of an audit of ``scene`` (run under the recorder ``rec``): its records, what was
    ``found`` (``problems``, ``contrast``, ``lecture``), the fields read, and every beat's caption as the
    handout and the transcript read it (no times: a narrated beat lasts longer than a silent one, its
    words are the same)."""
    res = CachedAudit(clip.name, scene.audit_records, found.problems, list(found.contrast), list(found.lecture),
                      list(found.truth), seconds, frozenset(rec.used), kept_by=kept_by,
                      beats=[{"key": c.key, "text": c.text, "describe": c.describe} for c in scene.captions])
    res.scene_time = float(scene.time)
    return res


def audit(clip: Clip, cfg, scene_cls=None) -> CachedAudit:
    """The audit of ``clip`` under ``cfg``: from the cache when its key matches, else run
    (recording the config fields the clip reads) and stored."""
    from mathcore.config import RecordingConfig
    from scenes.audit.beats import audit_clip

    key = static_key(clip) if enabled() else None
    if key is not None:
        hit = lookup(clip, cfg, key)
        if hit is not None:
            return hit
    if scene_cls is None:
        from . import scene_class

        scene_cls = scene_class(clip)
    rec = RecordingConfig(cfg)
    full = audit_clip(scene_cls, rec)
    res = _entry(clip, full.scene, full, rec, full.duration, "audit")
    if key is not None:
        store(clip, cfg, res, key)
    return res


def keep(clip: Clip, scene, rec) -> CachedAudit | None:
    """After a render: judge the beats ``scene`` recorded (it ran with ``audit=True`` under the
    recorder ``rec``) and keep the findings under the audit key, as ``clips audit`` would have.
    ``None`` when the cache is off."""
    import time

    from scenes.audit.beats import findings

    if not enabled():
        return None
    t0 = time.perf_counter()
    f = findings(scene)  # reads the lecturer's words through the recorder: fields of the entry too
    res = _entry(clip, scene, f, rec, time.perf_counter() - t0, "render")
    try:
        store(clip, rec._cfg, res)
    except OSError:  # no room, or a read-only cache: the render stands, `clips audit` will run the clip
        return None
    return res
