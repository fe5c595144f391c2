"""Render a clip's final frame in-process, small, and read pixels where data is drawn.

Manim's own frame tester skips on this machine's cairo, so this is ours.
``save_last_frame`` makes Manim skip every animation's frames and draw only the end.
"""

from __future__ import annotations

import numpy as np

W, H = 427, 240  # 16:9, a quarter of 854x480 in area... half in each side


_SHIPPED: dict = {}


def shipped_audit(scene_cls):
    """The clip run once per test process under the shipped config (every animation skipped): the
    audit of every beat, the final frame and the picture at the end of every beat, both W×H, and the
    config fields it read (``result.used``).  Every test of the clip under the shipped config reads
    this one run: its final frame, its beats, and the shipped corner of the config matrix."""
    if scene_cls not in _SHIPPED:
        from mathcore.config import RecordingConfig, load_config
        from scenes.audit.beats import audit_clip

        rec = RecordingConfig(load_config())
        res = audit_clip(scene_cls, rec, frame_size=(W, H), beat_frames=(W, H))
        res.used = set(rec.used)
        res.scene.audit = res
        res.scene.beat_frames = dict(res.beat_frames)
        _SHIPPED[scene_cls] = res
    return _SHIPPED[scene_cls]


def render_final_frame(scene_cls, width: int = W, height: int = H, lecture_config=None):
    """Run ``scene_cls`` to its end (every animation skipped) and return
    ``(scene, frame: (H, W, 3) uint8)``.  The run is the layout audit's too: ``scene.audit``
    holds what was visible at the end of every beat and the problems found.  Under the shipped
    config at W×H it is the clip's one shipped run (``shipped_audit``)."""
    from scenes.audit.beats import audit_clip

    if lecture_config is None and (width, height) == (W, H):
        res = shipped_audit(scene_cls)
        return res.scene, res.frame
    res = audit_clip(scene_cls, lecture_config, frame_size=(width, height))
    scene = res.scene
    scene.audit = res
    return scene, res.frame


def to_pixel(scene, point, frame) -> tuple[int, int]:
    """Manim coordinates -> (row, col) in ``frame``."""
    fw, fh = scene.frame_size
    h, w = frame.shape[:2]
    col = int(round((point[0] + fw / 2) / fw * w))
    row = int(round((fh / 2 - point[1]) / fh * h))
    return min(max(row, 0), h - 1), min(max(col, 0), w - 1)


def pixel(scene, frame, point) -> np.ndarray:
    r, c = to_pixel(scene, point, frame)
    return frame[r, c].astype(int)


def rgb255(color) -> np.ndarray:
    """A ManimColor or an RGB triple in [0, 1] -> ints 0..255."""
    rgb = np.asarray(color.to_rgb() if hasattr(color, "to_rgb") else color, dtype=float)[:3]
    return np.round(rgb * 255).astype(int)


def dominant_ink(scene, frame, mob, background, min_distance: int = 60) -> np.ndarray:
    """The colour of ``mob``'s fully inked pixels: the mean of the 10% of pixels in its
    bounding box that lie farthest from the background (edges are anti-aliased blends)."""
    r0, c0 = to_pixel(scene, mob.get_corner([-1, 1, 0]), frame)
    r1, c1 = to_pixel(scene, mob.get_corner([1, -1, 0]), frame)
    box = frame[r0 : r1 + 1, c0 : c1 + 1].reshape(-1, 3).astype(int)
    dist = np.abs(box - rgb255(background)).sum(axis=1)
    ink = box[dist > min_distance]
    assert len(ink), f"no ink inside {mob!r}'s box"
    far = ink[np.argsort(np.abs(ink - rgb255(background)).sum(axis=1))[-max(1, len(ink) // 10):]]
    return np.round(far.mean(axis=0)).astype(int)


def assert_captions_readable(caps) -> None:
    """Every caption filled in, on screen long enough to read, none overlapping the next."""
    from scenes.kit import reading_time

    assert all("{" not in c.text for c in caps)
    assert all(c.duration >= reading_time(c.text) - 1e-9 for c in caps)
    assert all(a.start + a.duration <= b.start + 1e-6 for a, b in zip(caps, caps[1:]))


def assert_inside_frame(scene, bottom: float | None = None) -> None:
    """Every mobject on screen lies inside the frame (and above ``bottom`` if given)."""
    fw, fh = scene.frame_size
    low = -fh / 2 if bottom is None else bottom
    for m in scene.mobjects:
        if m.get_family() and m.width > 0:
            assert m.get_left()[0] >= -fw / 2 and m.get_right()[0] <= fw / 2, m
            assert m.get_bottom()[1] >= low and m.get_top()[1] <= fh / 2, m


# ------------------------------------------------------------------ the layout audit
def assert_layout_holds(results) -> None:
    """No layout problem at any beat: ``results`` is one ``AuditResult`` or ``{corner: AuditResult}``."""
    if not isinstance(results, dict):
        results = {"shipped": results}
    lines = [f"{name}: {p}" for name, r in results.items() for p in r.problems]
    assert not lines, f"{len(lines)} layout problem(s):\n" + "\n".join(lines[:40])


_CORNERS = {}


def corner_results(scene_cls, tmp_path_factory) -> dict:
    """The clip audited over the config matrix (``scenes.render.matrix``), corners deduplicated
    by the config fields the clip reads; run once per clip and test process (``tests/test_clips.py``
    and the clip's own file read the same results: both are in the clip's xdist group)."""
    from scenes.catalog import by_scene
    from scenes.render.matrix import audit_matrix, corner_configs

    if "cfgs" not in _CORNERS:
        _CORNERS["cfgs"] = corner_configs(tmp_path_factory.mktemp("corners"))
    if scene_cls not in _CORNERS:
        for k in [k for k in _CORNERS if k != "cfgs"]:  # one clip's corners at a time (a group runs in a row)
            del _CORNERS[k]
        _CORNERS[scene_cls] = audit_matrix(by_scene(scene_cls.__name__), None, _CORNERS["cfgs"],
                                           first=shipped_audit(scene_cls))
    return _CORNERS[scene_cls]


def canonical_records(res) -> list:
    """An audit's records and problems as plain values (every box, colour, opacity, text and stroke of
    every beat; the ids of overlay groups only counted, as they differ between runs)."""
    out = []
    for b in res.records:
        items = [(i.kind, i.name, tuple(map(float, i.box)), float(i.opacity), len(i.units), i.header,
                  float(i.xheight_px), i.filled, None if i.stroke is None else i.stroke.tolist(), i.stroke_half,
                  i.background, i.rgb, i.fill_rgb, i.fill_opacity, i.z, i.bold, i.text, i.is_math, i.stroke_rgb)
                 for i in b.items]
        out.append((b.key, b.time, items, b.header_bottom, None if b.start is None else len(b.start),
                    repr(b.shown), repr(b.named)))
    return [out, sorted(str(p) for p in res.problems)]
