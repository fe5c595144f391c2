"""Beat-level reuse and planning without Manim, through the real ``clips`` command.

* An edited caption re-draws only the segments (plays and waits) whose content changed; the
  clip is re-timed, its voice re-mixed, and the result is the same file, bit for bit, as a
  forced full render of the same clip (so the same duration, beats, cues and decoded frames).
* ``--force`` draws every segment.
* Segments are cache entries written aside and renamed: no half-written segment ever sits under a key,
  and one left under a temporary name by a killed render is never taken.
* Planning with the shipped config and the voice on imports neither Manim nor any scene.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import clipcache
from project import clip_module, clips, make_project, narration_path
from scenes.render import segments

REPO = Path(__file__).resolve().parent.parent

# alpha with several beats, so that an edit of one leaves others to reuse
ALPHA = '''
from dataclasses import dataclass
import numpy as np
from manim import FadeIn, Indicate, LEFT, RIGHT
from scenes.kit import ClipScene, label

@dataclass(frozen=True)
class AlphaData:
    grid: np.ndarray

class Alpha(ClipScene):
    @classmethod
    def build_data(cls, cfg):
        return AlphaData(np.arange(cfg.T * cfg.d, dtype=float).reshape(cfg.T, cfg.d) / (cfg.T * cfg.d))

    def body(self):
        a = label(f"T = {self.data.grid.shape[0]}").shift(2 * LEFT)
        b = label("d = %d" % self.data.grid.shape[1]).shift(2 * RIGHT)
        self.beat("one", FadeIn(a), run_time=0.6)
        self.beat("two", FadeIn(b), run_time=0.6)
        self.beat("three", Indicate(a), run_time=0.6)
'''
NARRATION = '[alpha]\ntitle = "A test clip."\none = "One beat."\ntwo = "Two beats."\nthree = "Three beats."\nclose = "The end."\n'


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def entry(root: Path, out: str, name: str = "01_alpha") -> dict:
    return json.loads((root / out / "t" / "manifest.json").read_text())["clips"][name]


@pytest.fixture(scope="module")
def proj(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("reuse") / "p", ["alpha", "beta"])
    clip_module(root, "alpha").write_text(ALPHA)
    narration_path(root, "alpha").write_text(NARRATION)
    r = clips(root, "render", "-q", "t", "--out", "out", "--voice", "piper")
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def test_an_edited_caption_redraws_its_beat_only_and_equals_a_full_render(proj):
    first = entry(proj, "out")
    assert first["segments"]["drawn"] >= 8 and first["segments"]["reused"] == 0
    nar = narration_path(proj, "alpha")
    nar.write_text(NARRATION.replace('two = "Two beats."', 'two = "Two beats, and this caption is now much longer than it was."'))
    r = clips(proj, "render", "-q", "t", "--out", "out", "--voice", "piper")
    assert r.returncode == 0 and "1 rendered, 1 unchanged" in r.stdout, r.stdout + r.stderr
    edited = entry(proj, "out")
    # the edited beat's hold is longer: its segment (and only what its length changed) is drawn again
    assert 1 <= edited["segments"]["drawn"] <= 3, edited["segments"]  # its hold, and the frame-rounding hold after it
    assert edited["segments"]["reused"] >= max(8, 3 * edited["segments"]["drawn"])  # the title card, the other beats, the close
    assert edited["duration"] > first["duration"] + 1.0  # re-timed
    beats = {b["key"]: b for b in edited["beats"]}
    old = {b["key"]: b for b in first["beats"]}
    assert beats["two"]["duration"] > old["two"]["duration"] and beats["three"]["start"] > old["three"]["start"]
    assert edited["audio"]["synthesised"] == 1  # the voice: one new line, re-mixed into the clip's track
    # the same clip rendered in full, from nothing reused, is the same file
    r = clips(proj, "render", "alpha", "-q", "t", "--out", "full", "--voice", "piper", "--force")
    assert r.returncode == 0, r.stdout + r.stderr
    full = entry(proj, "full")
    assert full["segments"]["reused"] == 0 and full["segments"]["drawn"] == edited["segments"]["drawn"] + edited["segments"]["reused"]
    for kind in ("mp4", "srt", "vtt", "png"):
        a, b = proj / "out" / "t" / f"01_alpha.{kind}", proj / "full" / "t" / f"01_alpha.{kind}"
        if a.exists() or b.exists():
            assert sha(a) == sha(b), kind
    assert edited["beats"] == full["beats"] and edited["duration"] == full["duration"] and edited["frames"] == full["frames"]


def test_a_render_that_reuses_everything_is_the_same_file(proj):
    before = entry(proj, "out")
    r = clips(proj, "render", "alpha", "-q", "t", "--out", "again", "--voice", "piper")  # a new folder: nothing to skip
    assert r.returncode == 0, r.stdout + r.stderr
    again = entry(proj, "again")
    assert again["segments"]["drawn"] == 0 and again["segments"]["reused"] > 0
    assert again["files"]["mp4"]["sha256"] == before["files"]["mp4"]["sha256"]
    assert again["beats"] == before["beats"]


def segment_entries(root: Path) -> dict[str, Path]:
    """The test project's kept segments at quality t, by key (``<digest>-t``): entries of the one cache,
    ``.render-cache/segments/<key[:2]>/<key>.<checksum>``, each with its clock kept as ``<key>-clock``."""
    found = {}
    for p in (root / ".render-cache" / "segments").glob("*/*"):
        m = clipcache._ENTRY.fullmatch(p.name)
        if m and m.group(1).endswith("-t"):
            found[m.group(1)] = p
    return found


def leftovers(root: Path) -> list[Path]:
    """Anything in the cache written under a temporary name (the cache's, or Manim's encoder's)."""
    return [p for p in (root / ".render-cache").rglob("*") if p.name.endswith(clipcache.TMP) or segments.TMP_MARK in p.name]


def test_segments_are_complete_files_with_their_clock_beside_them(proj):
    """Every kept segment is a whole entry (its bytes match the checksum in its name), a complete stream with
    as many frames as drawing it wrote, and has its clock kept beside it (an entry of the same kind, key
    ``<key>-clock``); nothing sits in the cache under a temporary name."""
    segs = segment_entries(proj)
    assert len(segs) >= 12 and not leftovers(proj)
    import av

    store = clipcache.Store(proj / ".render-cache")
    for key, s in segs.items():
        assert hashlib.sha256(s.read_bytes()).hexdigest()[: clipcache.SUM] == s.name.rsplit(".", 1)[1], s
        clock = json.loads(store.get("segments", key + "-clock"))
        with av.open(str(s)) as c:  # a complete stream, as many frames as drawing it wrote
            assert sum(1 for p in c.demux(c.streams.video[0]) if p.size) == sum(clock) > 0


def test_a_half_written_segment_is_never_taken(proj):
    """A render killed mid-segment leaves it under a temporary name: the cache's (``.<key>.<pid>.<tid>.tmp``
    beside where the entry would go) or the encoder's (``<digest>.partial-<pid>-<n>.mp4`` in the render's
    scratch folder).  With every kept segment replaced by its first half under such names of a process that
    is gone, the next render takes none of them: it draws every segment again, gives the same file bit for
    bit, and removes what the dead process left."""
    before = entry(proj, "out")
    segs = segment_entries(proj)
    for key, p in segs.items():
        half = p.read_bytes()[: p.stat().st_size // 2]
        p.unlink()
        (p.parent / f".{key}.999999.1{clipcache.TMP}").write_bytes(half)
    scratch = proj / ".render-cache" / clipcache.SCRATCH / "999999-01_alpha-t" / "segments"
    scratch.mkdir(parents=True)
    (scratch / f"0123abcd{segments.TMP_MARK}999999-1.mp4").write_bytes(b"half a segment")
    r = clips(proj, "render", "alpha", "-q", "t", "--out", "killed", "--voice", "piper")
    assert r.returncode == 0, r.stdout + r.stderr
    after = entry(proj, "killed")
    assert after["segments"]["reused"] == 0 and after["segments"]["drawn"] == before["segments"]["drawn"] + before["segments"]["reused"]
    assert after["files"]["mp4"]["sha256"] == before["files"]["mp4"]["sha256"]
    assert not leftovers(proj) and not scratch.parent.exists()
    again = segment_entries(proj)  # kept again, whole, under the keys they had (the same content)
    assert again and set(again) <= set(segs)
    assert all(hashlib.sha256(p.read_bytes()).hexdigest()[: clipcache.SUM] == p.name.rsplit(".", 1)[1] for p in again.values())


PROBE = r'''
import json, sys, tempfile
from pathlib import Path
from scenes.render import pipeline as pl
from scenes.catalog import resolve
ctx = pl.KeyContext("h")
assert ctx.voice == "piper", ctx.voice
clips = resolve([])
q = Path(tempfile.mkdtemp())
m = pl.Manifest(q, "h")
for c in clips:  # entries as a finished render leaves them, so that every key is computed
    m.data["clips"][c.name] = {"key": "x", "config_fields": ["T", "title", "sentence_a"], "files": {}}
jobs = pl.plan(ctx, q, m, clips, False)
assert len(jobs) == len(clips) and all(j.reason == "changed" for j in jobs)
print(json.dumps(sorted(sys.modules)))
'''


def test_planning_imports_neither_manim_nor_any_scene_with_the_voice_on():
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("ATTENTION_CLIPS_CONFIG", "ATTENTION_CLIPS_VOICE")}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    modules = json.loads(out.stdout)
    assert "scenes.render.pipeline" in modules and "scenes.narration.voice" in modules  # the probe really planned
    heavy = [m for m in modules if m.split(".")[0] in ("manim", "manimpango", "cairo", "piper", "onnxruntime", "av", "scipy")]
    assert heavy == [], heavy
    from scenes.catalog import CLIPS

    scenes = [m for m in modules if m.startswith("scenes.clips")] + [m for m in modules if m in {f"scenes.{c.module}" for c in CLIPS}]
    assert scenes == [], scenes
    assert "scenes.kit.base" not in modules
