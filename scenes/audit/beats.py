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
dimming); anything not fully transparent must still be inside the frame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from manim import Mobject, VMobject

from scenes.kit.layout import (
    MIN_XHEIGHT_PX,
    PX_PER_UNIT,
    SAFE,
    _looks_like_text,
    _text_xheight_units,
)
from scenes.kit.theme import BG, CONTENT_BOTTOM

from .records import (
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


# ------------------------------------------------------------------ recording
def _describe(m: Mobject) -> str:
    t = getattr(m, "text", None) or getattr(m, "typst_code", None) or getattr(m, "original_text", None)
    if t:
        t = " ".join(str(t).split()).strip("$ ")
        return repr(t[:40])
    return type(m).__name__


def _max_op(values) -> float:
    a = np.asarray(values, dtype=float).ravel()
    return float(a.max()) if a.size else 0.0


def _faint(color) -> bool:
    """A colour so close to the background that it cannot hide anything (grid lines, cell borders)."""
    if color is None:
        return True
    rgb = np.asarray(color.to_rgb(), dtype=float)
    return float(np.max(np.abs(rgb - np.asarray(BG.to_rgb())))) < 0.2


def _stroke_samples(m: VMobject) -> np.ndarray:
    pts = m.points
    if len(pts) < 4:
        return np.zeros((0, 2))
    n = len(pts) // 4
    curves = pts[: 4 * n].reshape(n, 4, 3)
    ts = np.linspace(0.0, 1.0, 5)
    # cubic Bézier samples, then extra samples along long straight spans
    b = ((1 - ts) ** 3)[:, None, None] * curves[None, :, 0] + (3 * (1 - ts) ** 2 * ts)[:, None, None] * curves[None, :, 1] \
        + (3 * (1 - ts) * ts ** 2)[:, None, None] * curves[None, :, 2] + (ts ** 3)[:, None, None] * curves[None, :, 3]
    samples = [b.reshape(-1, 3)[:, :2]]
    a, e = curves[:, 0, :2], curves[:, 3, :2]
    lengths = np.linalg.norm(e - a, axis=1)
    for k in np.flatnonzero(lengths > 0.1):
        k_n = int(np.ceil(lengths[k] / 0.05))
        s = np.linspace(0, 1, k_n + 1)[:, None]
        samples.append(a[k] + s * (e[k] - a[k]))
    return np.concatenate(samples)


def _rgb(color) -> tuple | None:
    return None if color is None else tuple(float(c) for c in color.to_rgb())


def _box(m: Mobject) -> tuple[float, float, float, float]:
    """``(left, bottom, right, top)``: what ``m.get_left()[0]``, ``get_bottom()[1]`` … give, from one
    pass over the anchors of its family instead of four (Manim gathers them anew for each edge)."""
    if not isinstance(m, VMobject) or any(not isinstance(f, VMobject) for f in m.get_family()):
        return (float(m.get_left()[0]), float(m.get_bottom()[1]), float(m.get_right()[0]), float(m.get_top()[1]))
    parts = []
    for f in m.get_family():  # VMobject.get_anchors: the points of a one-point mobject, else each curve's ends
        p = f.points
        if len(p) == 1:
            parts.append(p)
        elif len(p):
            n = f.n_points_per_cubic_curve
            parts += [p[::n, :2], p[n - 1::n, :2]]
    if not parts:
        return (0.0, 0.0, 0.0, 0.0)  # as Manim: the critical points of nothing are the origin
    pts = np.concatenate([q[:, :2] for q in parts])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def _draw_nothing(*args, **kwargs) -> None:
    return None


def snapshot(scene, key: str, subject: Mobject | None = None) -> BeatRecord:
    """Every visible text and graphic of ``scene`` now, with what the checks need."""
    header = getattr(scene, "header", None)
    header_ids = {id(m) for m in header.get_family()} if header is not None else set()
    seen: dict[int, Item] = {}

    shown, named, scales, cells = [], [], [], []
    tags: dict[int, tuple] = {}  # id -> (role, verdict, data) inherited from ancestors

    def walk(m: Mobject, units: frozenset, background: bool, inherited: tuple = (None, False, False),
             quoted_above: bool = False) -> None:
        if hasattr(m, "_shows") or hasattr(m, "_names"):
            _record_binding(m, shown, named)
        role, verdict, data = inherited
        role = getattr(m, "_role", None) or role
        verdict = verdict or bool(getattr(m, "_verdict", False))
        if getattr(m, "color_scale", None) is not None:
            data = True
            _record_scale(m, scales)
        inherited = (role, verdict, data)
        tags[id(m)] = inherited
        quoted = quoted_above or bool(getattr(m, "_quoted", False))
        units = units | getattr(m, "_overlay_ids", frozenset())
        background = background or bool(getattr(m, "_audit_background", False))
        if _looks_like_text(m):
            fam = [f for f in m.get_family() if isinstance(f, VMobject) and len(f.points)]
            if not fam:
                return
            op = max(_max_op(f.get_fill_opacities()) for f in fam)
            if op <= INVISIBLE:
                return
            xh = _text_xheight_units(m)
            prev = seen.get(id(m))
            if prev is not None:
                prev.units = prev.units | units
                return
            seen[id(m)] = Item("text", _describe(m), _box(m), op, units, id(m) in header_ids,
                               xheight_px=(xh or 0.0) * PX_PER_UNIT, rgb=_rgb(fam[0].get_fill_color()), z=len(seen),
                               bold=str(getattr(m, "weight", "")).upper() in ("BOLD", "SEMIBOLD", "ULTRABOLD", "HEAVY"),
                               text="" if getattr(m, "_matrix_entry", False) else _source(m),
                               is_math=hasattr(m, "typst_code"), mid=id(m), role=role, verdict=verdict, data=data,
                               quoted=quoted)
            return
        if isinstance(m, VMobject) and len(m.points) >= 4 and id(m) not in seen:
            fill_op = _max_op(m.get_fill_opacities())
            stroke_op = _max_op(m.get_stroke_opacities())
            sw = float(m.get_stroke_width() or 0.0)
            filled = fill_op > INVISIBLE and not _faint(m.get_fill_color())
            stroked = sw > 0 and stroke_op > INVISIBLE and not _faint(m.get_stroke_color())
            if filled or stroked:
                op = max(fill_op if filled else 0.0, stroke_op if stroked else 0.0)
                seen[id(m)] = Item(
                    "graphic", _describe(m), _box(m), op, units, id(m) in header_ids, filled=filled,
                    stroke=_stroke_samples(m) if stroked and not filled else None,
                    stroke_half=sw * 0.005, background=background,
                    fill_rgb=_rgb(m.get_fill_color()) if filled else None, fill_opacity=fill_op if filled else 0.0,
                    z=len(seen), stroke_rgb=_rgb(m.get_stroke_color()) if stroked else None,
                    stroke_opacity=stroke_op if stroked else 0.0,
                    mid=id(m), role=role, verdict=verdict, data=data,
                )
            elif id(m) in seen:
                seen[id(m)].units |= units
            elif data and fill_op >= DIMMED and not background and id(m) not in header_ids:
                cells.append(_box(m))  # a data cell coloured like the background: content all the same
        for sm in m.submobjects:
            walk(sm, units, background, inherited, quoted)

    for m in scene.mobjects:
        walk(m, frozenset(), False)
    hb = None
    if header is not None and any(id(m) in seen or id(m) in header_ids for m in header[2].get_family()) \
            and any(header[2] is f for m in scene.mobjects for f in m.get_family()):
        hb = float(header.get_bottom()[1])
    subj = None
    if subject is not None:
        ids = {id(f) for f in subject.get_family()}
        subj = frozenset(i for i in seen if i in ids)
    return BeatRecord(key, float(scene.time), list(seen.values()), hb, shown=shown, named=named, subject=subj,
                      scales=scales, cells=cells)


def _record_scale(m: Mobject, out: list) -> None:
    if not _visible(m):
        return
    from scenes.kit.scales import signature

    s = m.color_scale
    v = np.asarray(getattr(m, "values", []), dtype=float).ravel()
    v = v[np.isfinite(v)]
    lo, hi = (float(v.min()), float(v.max())) if v.size else (float(s.vmin), float(s.vmax))
    out.append(ScaleRecord(getattr(s, "quantity", None), signature(s), lo, hi, type(m).__name__))


def _on_screen(scene, m: Mobject) -> bool:
    """``m`` is in the scene (itself or inside something added) and drawn at least at the background
    level (``DIMMED``): what a viewer can see."""
    on = {id(f) for top in scene.mobjects for f in top.get_family()}
    return id(m) in on and _visible(m)


def record_claims(scene, key: str, caption: str, describe: str) -> list[ClaimRecord]:
    """The claims beat ``key``'s caption and description make (see :class:`ClaimRecord`)."""
    import string

    from scenes.kit.binding import Claim

    out: list[ClaimRecord] = []
    values = scene.caption_values()

    def visible(c: Claim) -> bool:
        return all(_on_screen(scene, m) for m in c.mobs)

    def mids(c: Claim) -> frozenset:
        return frozenset(id(f) for m in c.mobs for f in m.get_family())

    def from_template(template: str, where: str) -> None:
        names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
        for name in dict.fromkeys(names):
            v = values.get(name)
            bound = isinstance(v, Claim)
            out.append(ClaimRecord(name, where, str(v), bound, visible(v) if bound else None,
                                   mids(v) if bound else frozenset()))

    narration = getattr(scene, "_narration", {})
    if isinstance(narration.get(key), str):
        from_template(narration[key], "caption")
    table = narration.get("describe", {})
    if isinstance(table, dict) and isinstance(table.get(key), str):
        from_template(table[key], "describe")
    elif describe:
        d = scene.describe_default(key)
        if isinstance(d, Claim):
            out.append(ClaimRecord("", "describe", str(d), True, visible(d), mids(d)))
    return out


def _source(m: Mobject) -> str:
    t = getattr(m, "typst_code", None)
    if t is not None:
        return " ".join(str(t).split()).strip("$ ")
    return str(getattr(m, "original_text", "") or getattr(m, "text", "") or "")  # Text.text has lost its spaces


def _visible(m: Mobject) -> bool:
    for f in m.family_members_with_points():
        if _max_op(f.get_fill_opacities()) >= DIMMED or (
                (f.get_stroke_width() or 0) > 0 and _max_op(f.get_stroke_opacities()) >= DIMMED):
            return True
    return False


def _record_binding(m: Mobject, shown: list, named: list) -> None:
    if not _visible(m):
        return
    q = getattr(m, "_shows", None)
    if q is not None:
        v = getattr(m, "values", None)
        shown.append((q, None if v is None else np.array(v, dtype=float, copy=True)))
    q = getattr(m, "_names", None)
    if q is not None:
        named.append((q, _source(m) or _describe(m)))


def signature(record: BeatRecord) -> frozenset:
    """What a beat's picture is: every visible thing outside the header, by kind, text, place
    (to 0.02 units), opacity and colour.  Two equal signatures are the same picture."""
    def r(t):
        return None if t is None else tuple(round(float(c), 2) for c in t)

    return frozenset(
        (it.kind, it.text or it.name, tuple(round(c / 0.02) for c in it.box), round(it.opacity, 1),
         r(it.rgb), r(it.fill_rgb), r(it.stroke_rgb))
        for it in record.items if not it.header and it.opacity > INVISIBLE
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
