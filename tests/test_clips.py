"""Every clip, one test over clips × configs: at the end of every beat, under the shipped config and
every corner of the config matrix (``scenes.render.matrix``), the picture holds its layout, its lecture
language and its contrast (the audit's problems), the captions are filled in and on screen long enough
to read, and the clip keeps the storyboard's pacing; at its last frame everything lies inside the frame
and above the subtitle band.

This one test replaces the layout, matrix, pacing and inside-the-frame tests each clip's file held
(sixteen copies of the same three checks with hand-typed bounds): the bounds are the storyboard's
(``scenes.catalog.PACING``) and the kit's (``CONTENT_BOTTOM``), and every corner is now held to every
check, where some files checked contrast or pacing under the shipped config only.
"""

from __future__ import annotations

import pytest

from frames import assert_captions_readable, assert_inside_frame, assert_layout_holds, corner_results
from scenes.catalog import CLIPS, PACING
from scenes.kit.theme import CONTENT_BOTTOM
from scenes.render import scene_class


@pytest.mark.parametrize("clip", CLIPS, ids=[c.name for c in CLIPS])
def test_every_beat_of_every_clip_holds_under_every_config(clip, tmp_path_factory):
    results = corner_results(scene_class(clip), tmp_path_factory)
    assert "shipped" in results and len(results) >= 2, sorted(results)  # the shipped config and at least one corner
    assert_layout_holds(results)
    lo, hi = PACING
    for name, res in results.items():
        scene = res.scene
        assert scene.captions, name
        assert_captions_readable(scene.captions)
        assert lo <= scene.time <= hi, (name, scene.time)
        assert [c.start for c in scene.captions] == sorted(c.start for c in scene.captions), name
        assert_inside_frame(scene, bottom=CONTENT_BOTTOM - 1e-3)


@pytest.mark.parametrize("clip", CLIPS, ids=[c.name for c in CLIPS])
def test_an_audit_that_draws_nothing_records_what_the_drawn_one_did(clip):
    """An audit that wants no picture plays plain fades without their copies (scenes.kit.skipfade): every
    beat's record of it (each box, colour, opacity, text, stroke) and every problem it finds are the
    drawn shipped audit's, which plays every fade as Manim does."""
    from frames import canonical_records, shipped_audit
    from mathcore.config import load_config
    from scenes.audit.beats import audit_clip

    cls = scene_class(clip)
    drawn = shipped_audit(cls)
    quick = audit_clip(cls, load_config())
    assert quick.frame is None and not quick.beat_frames
    assert canonical_records(quick) == canonical_records(drawn)


def _without_times(canonical: list) -> list:
    records, problems = canonical
    return [[(b[0],) + tuple(b[2:]) for b in records], problems]


@pytest.mark.parametrize("clip", CLIPS, ids=[c.name for c in CLIPS])
def test_the_audit_a_render_kept_is_the_audits_own_but_for_its_beat_times(clip, shipped_deck):
    """The shipped deck, rendered narrated at the test quality, kept each clip's audit (scenes.render.auditcache.keep):
    every beat's record (each box, colour, opacity, text, stroke) and every problem equal the shipped audit's, which
    ran silent with its animations skipped on the audit's own canvas; only the beat times are the render's, each
    beat ending where the manifest says (a narrated beat lasts as long as its speech).  So `clips audit` after a
    render, which reads what the render kept, finds what it would have found running the clip, and the handout
    prints the captions the clip shows."""
    import json

    from frames import canonical_records, shipped_audit
    from mathcore.config import load_config
    from scenes.render.auditcache import lookup

    kept = lookup(clip, load_config())
    assert kept is not None and kept.kept_by == "render", clip.name
    audited = shipped_audit(scene_class(clip))
    assert _without_times(canonical_records(kept)) == _without_times(canonical_records(audited))
    # the captions it kept (the handout's prose and transcript) are the ones the clip shows, word for word
    assert kept.beats == [{"key": c.key, "text": c.text, "describe": c.describe} for c in audited.scene.captions]
    beats = json.loads((shipped_deck / "manifest.json").read_text())["clips"][clip.name]["beats"]
    assert [r.key for r in kept.records] == [b["key"] for b in beats]
    assert [r.time for r in kept.records] == pytest.approx([b["start"] + b["duration"] for b in beats], abs=1e-5)
