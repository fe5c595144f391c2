"""The layout audit: what is visible at the end of every beat, and what is wrong with it.

``ClipScene`` records a :class:`BeatRecord` at the end of every beat when auditing is on
(:func:`audit_clip` runs a clip that way, skipping every animation's frames: no
rasterising, no encoding).  :func:`check` then asserts, beat by beat:

* everything visible lies inside the safe area (the margins, and above the subtitle band),
  and below the header rule once the header is drawn;
* no text overlaps another text, a filled shape, or a stroke (a curve, a bracket, a
  leader line), unless both belong to one declared overlay (a value on its own cell, a
  word in its chip: :func:`scenes.kit.layout.overlay`) or the graphic is declared
  background;
* every text's x-height is at least ``MIN_XHEIGHT_PX`` at 854×480, Typst scripts included;
* the screen is not nearly empty after the title card.

Things dimmed below ``DIMMED`` opacity are background for the overlap checks (focus by
dimming); anything not fully transparent must still be inside the frame.  What a beat shows is recorded by
``recording``; this module checks it and runs a clip.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from scenes.kit.layout import (
    MIN_XHEIGHT_PX,
    SAFE,
)
from scenes.kit.theme import BG, CONTENT_BOTTOM

# what a beat shows, recorded (named here too: what the base scene and the tests import from the audit)
from .recording import (  # noqa: F401
    _box,
    _describe,
    _draw_nothing,
    _on_screen,
    _record_binding,
    _record_scale,
    _stroke_samples,
    _visible,
    record_claims,
    signature,
    snapshot,
)
from .records import (  # noqa: F401  (the records' names too, as the audit has always named them)
    DIMMED,
    INVISIBLE,
    SPARSE,
    TOL,
    AuditResult,
    BeatRecord,
    ClaimRecord,
    Item,
    Problem,
    ScaleRecord,
    _inside,
    coverage,
    lecturer_words,
)


def _unquoted(text: str, verbatim: tuple[str, ...]) -> str:
    """``text`` with every whole-word occurrence of the lecturer's own words cut out (a word inside
    a longer one, such as the ``e`` of ``1e5``, stays; each cut leaves a line break, so what is
    left on either side cannot join into a new match)."""
    for w in verbatim:
        text = re.sub(rf"(?<!\w){re.escape(w)}(?!\w)", "\n", text)
    return text


def lecture_problems(records: list[BeatRecord], quantities: dict | None = None,
                     verbatim: tuple[str, ...] = ()) -> list[Problem]:
    """The lecture-language checks of every beat after the title card:

    * ``static``: the beat ends on the picture it began with (the narration talks over a frozen
      frame);
    * ``notation``: a text on screen in notebook language (e-notation, a code name such as
      ``n_max``, a range ``0..1023``, a zero printed ``0.0``; Typst math is checked for
      e-notation and ``0.0`` only, since ``x_0`` is how it writes a subscript);
    * ``binding``: a label names a quantity (``binding.names``) that no visible widget shows,
      or a widget bound to a quantity (``binding.shows``) shows other values than the clip's
      data holds for it (``quantities``, from the scene's ``quantities()``).

    The lecturer's own words (``verbatim``, from :func:`lecturer_words`) are quoted as written: a
    notebook named ``8e8`` or a sentence about ``n_max`` is the lecturer's choice, not output the
    clip formatted, so the notation check reads only the rest of each text."""
    from scenes.kit.numbers import CODE_INDEX, E_NOTATION, notebook_output

    out: list[Problem] = []
    for k, rec in enumerate(records):
        if rec.key == "title":
            continue
        if rec.start is not None and rec.start == signature(rec):
            out.append(Problem(rec.key, "static", "the beat ends on the picture it began with"))
        for it in rec.items:
            if it.kind != "text" or it.header or it.opacity < DIMMED or not it.text or it.quoted:
                continue  # (a quoted text is the student's code's own words: kit.student.error_card)
            if it.is_math:
                m, k = E_NOTATION.search(it.text), CODE_INDEX.search(it.text)
                bad = f"e-notation {m.group(0)!r}" if m else (f"code indexing {k.group(0)!r}" if k else None)
            else:
                bad = notebook_output(_unquoted(it.text, verbatim))
            if bad:
                out.append(Problem(rec.key, "notation", f"text {it.name} shows {bad}"))
        shown = {q for q, _ in rec.shown}
        for q, text in rec.named:
            if q not in shown:
                out.append(Problem(rec.key, "binding", f"label {text!r} names {q!r}, which no visible widget shows"))
        if quantities is not None:
            for q, vals in rec.shown:
                if q not in quantities:
                    out.append(Problem(rec.key, "binding", f"a widget shows {q!r}, which the clip's data does not hold"))
                    continue
                want = np.asarray(quantities[q], dtype=float)
                if vals is not None and (vals.shape != want.shape or not np.allclose(vals, want, rtol=0, atol=0,
                                                                                     equal_nan=True)):
                    out.append(Problem(rec.key, "binding", f"a widget bound to {q!r} shows other values than {q!r}"))
    return out


# ------------------------------------------------------------------ checking
def _overlap(a, b, tol=TOL) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > tol) and (min(a[3], b[3]) - max(a[1], b[1]) > tol)


def check(records: list[BeatRecord], sparse_after: int = 1, min_coverage: float = SPARSE,
          contrast: bool = False) -> list[Problem]:
    """Every problem of every beat (see the module docstring)."""
    out: list[Problem] = []
    for k, rec in enumerate(records):
        P = lambda kind, msg: out.append(Problem(rec.key, kind, msg))
        items = rec.items
        for it in items:
            l, b, r, t = it.box
            if it.opacity <= INVISIBLE:
                continue
            if l < SAFE.left - 1e-3 or r > SAFE.right + 1e-3 or t > SAFE.top + 1e-3:
                P("frame", f"{it.kind} {it.name} at x {l:.2f}..{r:.2f}, y {b:.2f}..{t:.2f} leaves the safe area "
                           f"(x {SAFE.left:.2f}..{SAFE.right:.2f}, top {SAFE.top:.2f})")
            elif b < CONTENT_BOTTOM - 1e-3:
                P("band", f"{it.kind} {it.name} reaches y {b:.2f}, into the subtitle band (below {CONTENT_BOTTOM})")
            if rec.header_bottom is not None and not it.header and t > rec.header_bottom + 1e-3:
                P("header", f"{it.kind} {it.name} reaches y {t:.2f}, above the header rule at {rec.header_bottom:.2f}")
            if it.kind == "text" and it.opacity >= DIMMED and it.xheight_px < MIN_XHEIGHT_PX - 1e-6:
                P("small", f"text {it.name} has an x-height of {it.xheight_px:.1f} px at 854×480 (floor {MIN_XHEIGHT_PX:g} px)")
        texts = [i for i in items if i.kind == "text" and i.opacity >= DIMMED]
        graphics = [i for i in items if i.kind == "graphic" and i.opacity >= DIMMED and not i.background]
        for a_i, a in enumerate(texts):
            for b_ in texts[a_i + 1:]:
                if _overlap(a.box, b_.box):
                    P("overlap", f"text {a.name} overlaps text {b_.name}")
            for g in graphics:
                if a.units & g.units:
                    continue
                if g.filled:
                    if _overlap(a.box, g.box):
                        P("overlap", f"text {a.name} lies on {g.name} at x {g.box[0]:.2f}..{g.box[2]:.2f}, "
                                     f"y {g.box[1]:.2f}..{g.box[3]:.2f}")
                elif g.stroke is not None and len(g.stroke):
                    if not _overlap(a.box, (g.box[0] - g.stroke_half, g.box[1] - g.stroke_half,
                                            g.box[2] + g.stroke_half, g.box[3] + g.stroke_half)):
                        continue
                    if _inside(g.stroke, a.box, g.stroke_half).any():
                        P("overlap", f"{g.name} runs through text {a.name}")
        if contrast:
            from scenes.audit.contrast import problems as contrast_problems

            for msg in contrast_problems(rec, BG.to_rgb(), DIMMED):
                P("contrast", msg)
        if k >= sparse_after and rec.header_bottom is not None and "sparse" not in rec.why:
            c = coverage(rec, rec.header_bottom - 0.15)
            if c < min_coverage:
                P("sparse", f"visible content covers {c:.0%} of the content area (want at least {min_coverage:.0%})")
    return out


def check_contrast(records: list[BeatRecord]) -> list[Problem]:
    """Every active text whose contrast with what is behind it is under WCAG's AA minimum, at every beat
    (``scenes.audit.contrast``; kind ``contrast``).  Kept apart from the layout problems of :func:`check`
    until the clips meet it: ``clips audit`` reports both."""
    from scenes.audit.contrast import problems as contrast_problems

    return [Problem(rec.key, "contrast", msg) for rec in records for msg in contrast_problems(rec, BG.to_rgb(), DIMMED)]


@dataclass
class Findings:
    problems: list[Problem]  # all of them: the layout's, the lecture language's, contrast's, and truth's when held to it
    contrast: list[Problem]
    lecture: list[Problem]
    truth: list[Problem] = field(default_factory=list)  # claims, staging, scales, colours, verdicts (``truth``)


def findings(scene) -> Findings:
    """What is wrong at the beats ``scene`` recorded (it ran with ``audit=True``): every clip is held
    to all of it, the layout, the lecture language and WCAG's contrast.  The same for a scene the
    audit ran with its animations skipped and for one a render drew (``scenes.render.auditcache.keep``)."""
    records = scene.audit_records
    contrast = check_contrast(records)
    quantities = scene.quantities() if hasattr(scene, "quantities") else None
    lecture = lecture_problems(records, quantities, lecturer_words(scene.cfg))
    from .truth import truth_problems

    truth = truth_problems(records, scene.cfg)
    held = truth if getattr(scene, "STAGED", False) else []  # a clip is held to them once it is restaged
    return Findings(check(records) + lecture + contrast + held, contrast, lecture, truth)


# ------------------------------------------------------------------ running a clip
def _cache_dir():
    """A media folder for this process (Typst and Pango caches survive between audits;
    one per process, since Manim writes its cache files non-atomically)."""
    import atexit
    import os
    import shutil
    import tempfile
    from pathlib import Path

    global _CACHE
    if _CACHE is None:
        _CACHE = Path(tempfile.gettempdir()) / f"attention-clips-audit-{os.getpid()}"
        _CACHE.mkdir(parents=True, exist_ok=True)
        atexit.register(shutil.rmtree, _CACHE, True)
    return _CACHE


_CACHE = None


def audit_clip(scene_cls, lecture_config=None, frame_size: tuple[int, int] | None = None,
               beat_frames: tuple[int, int] | None = None, student=None) -> AuditResult:
    """Run ``scene_cls`` with every animation skipped (no frames, no video) and check every beat.

    With ``frame_size`` the final frame is drawn at that size too (``result.frame``: ``(H, W, 3)``).
    With ``beat_frames`` (width, height), the picture at the end of every beat is drawn at that
    size (``result.beat_frames``: ``[(beat key, (H, W, 3) array)]``): the frames a reviewer looks
    at, in seconds, without rendering a video (``clips audit --frames``).  ``student``: a
    ``kit.student.StudentSource``: the clip drawn from a student's numbers (``clips audit --student``)."""
    import time

    from manim import tempconfig

    t0 = time.perf_counter()
    # (labels are laid out on theme.TEXT_CANVAS, 854x480, whatever size the frame is drawn at)
    w, h = frame_size or beat_frames or (854, 480)
    with tempconfig({
        "pixel_width": w, "pixel_height": h, "frame_rate": 5,
        # with a frame wanted, Manim's still mode (it skips every animation and draws the end);
        # without, the scene skips animations itself and nothing is drawn at all
        "save_last_frame": frame_size is not None, "write_to_movie": False, "disable_caching": True,
        "media_dir": str(_cache_dir()), "verbosity": "ERROR", "progress_bar": "none",
    }):
        scene = scene_cls(lecture_config=lecture_config, audit=True, voice="none", skip_animations=frame_size is None,
                          **({"student": student} if student is not None else {}))
        if frame_size is None and beat_frames is None:
            # skipping an animation still draws the scene once per play (Manim's static image and
            # its one frame of the skipped animation): no picture is wanted, so nothing is drawn
            scene.renderer.update_frame = _draw_nothing
            scene.renderer.save_static_frame_data = _draw_nothing
        grabbed: list = []
        if beat_frames is not None:
            def grab(sc, key):
                sc.renderer.update_frame(sc)
                grabbed.append((key, np.array(sc.renderer.get_frame())[..., :3].copy()))

            scene.beat_hook = grab
        if frame_size is None and beat_frames is None:
            from scenes.kit.skipfade import skipped_fades

            with skipped_fades():  # nothing is drawn: a plain fade needs none of its copies
                scene.render()
        else:
            scene.render()
        frame = None
        if frame_size is not None:
            scene.renderer.update_frame(scene)
            frame = np.array(scene.renderer.get_frame())[..., :3]
        from manim import config

        scene.frame_size = (config.frame_width, config.frame_height)
    res = AuditResult(scene_cls.__name__, scene.audit_records)
    res.frame = frame
    res.beat_frames = grabbed
    f = findings(scene)
    res.problems, res.contrast, res.lecture, res.truth = f.problems, f.contrast, f.lecture, f.truth
    res.duration = time.perf_counter() - t0
    res.scene = scene
    return res
