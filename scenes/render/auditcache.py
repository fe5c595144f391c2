"""Layout audits kept on disk under the render key, so a run with nothing changed audits nothing.

An audit's outcome depends on exactly what a render's frames depend on: the code every clip can
reach and the clip's own source and narration (``keys.source_digest`` and ``clip_digest``),
the library versions, and the values of the config fields the clip read while it ran.  So an
audit is kept in the cache (kind ``audit``) under that key: ``<static key>-f<fields>`` lists the fields a run
read, and ``<static key>-v<values>`` is one entry per set of their values met, each the pickled result
(records, problems, contrast, lecture checks, the fields read).  The fields a clip reads are known only once
it has run, so a lookup tries every field list kept under the clip's static key: an entry matches when the
current config gives the same values for the fields that run read (the pipeline's own rule for renders).

A render keeps the audit of what it drew (:func:`keep`, called by the worker): the scene it renders
records every beat as an audit does, so ``clips audit`` after ``clips render`` runs nothing.  What is
kept is what the audit finds (the same records and problems: a beat's picture does not depend on how
long the beat lasts), except the beat times, which are the render's (a narrated beat lasts as long
as its speech); ``kept_by`` says which made it.

The cache checks every entry it serves (a damaged one is dropped and reported); one that does not unpickle
to an audit (another format) is dropped and the clip audited again.  ``--no-cache`` keeps nothing.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from dataclasses import dataclass, field

from clipcache import store

from ..catalog import Clip
from .facts import library_versions
from .keys import clip_digest, source_digest

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


def static_key(clip: Clip) -> str:
    h = hashlib.sha256()
    for part in (FORMAT, source_digest(), clip_digest(clip), ";".join(library_versions())):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def _values(cfg, fields) -> str:
    return json.dumps({f: getattr(cfg, f, None) for f in sorted(fields)}, sort_keys=True, default=str)


def _entry_key(key: str, values: str) -> str:
    return f"{key}-v{hashlib.sha256(values.encode()).hexdigest()[:32]}"


def lookup(clip: Clip, cfg, key: str | None = None) -> CachedAudit | None:
    key = key or static_key(clip)
    for index in store().keys("audit", f"{key}-f"):
        raw = store().get("audit", index)
        if raw is None:
            continue
        try:
            entry = _entry_key(key, _values(cfg, json.loads(raw)))
        except (ValueError, TypeError):
            store().drop("audit", index)
            continue
        data = store().get("audit", entry)
        if data is None:
            continue
        try:
            res = pickle.loads(data)
            if not isinstance(res, CachedAudit):
                raise TypeError(type(res).__name__)
        except Exception:  # another format's pickle: audited again (and kept anew)
            store().drop("audit", entry)
            continue
        res.cached = True
        return res
    return None


def store_audit(clip: Clip, cfg, res: CachedAudit, key: str | None = None) -> None:
    key = key or static_key(clip)
    fields = sorted(res.used)
    fid = hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:16]
    store().put("audit", f"{key}-f{fid}", json.dumps(fields).encode())
    store().put("audit", _entry_key(key, _values(cfg, fields)), pickle.dumps(res, protocol=pickle.HIGHEST_PROTOCOL))


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

    key = static_key(clip)
    hit = lookup(clip, cfg, key)
    if hit is not None:
        return hit
    if scene_cls is None:
        from . import scene_class

        scene_cls = scene_class(clip)
    rec = RecordingConfig(cfg)
    full = audit_clip(scene_cls, rec)
    res = _entry(clip, full.scene, full, rec, full.duration, "audit")
    store_audit(clip, cfg, res, key)
    return res


def keep(clip: Clip, scene, rec) -> CachedAudit | None:
    """After a render: judge the beats ``scene`` recorded (it ran with ``audit=True`` under the
    recorder ``rec``) and keep the findings under the audit key, as ``clips audit`` would have.
    ``None`` when the cache is off."""
    import time

    from scenes.audit.beats import findings

    if store().mode == "off":
        return None
    t0 = time.perf_counter()
    f = findings(scene)  # reads the lecturer's words through the recorder: fields of the entry too
    res = _entry(clip, scene, f, rec, time.perf_counter() - t0, "render")
    store_audit(clip, rec._cfg, res)  # (no room, or a read-only cache: kept nothing; said once)
    return res
