"""Recording a beat: what is visible at its end (:func:`snapshot`: every item's box, opacity, colour and
x-height; the colour scales drawn; the bindings shown), and what its caption and description claim
(:func:`record_claims`)."""

from __future__ import annotations

import numpy as np
from manim import Mobject, VMobject

from scenes.kit.layout import (
    PX_PER_UNIT,
    _looks_like_text,
    _text_xheight_units,
)
from scenes.kit.theme import BG

from .records import (
    DIMMED,
    INVISIBLE,
    BeatRecord,
    ClaimRecord,
    Item,
    ScaleRecord,
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
        elif getattr(m, "_data_cells", False):  # cells that stand for data without a colour scale (a float's bits)
            data = True
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

