"""The lecture as published, checked for accessibility (WCAG 2.1 AA), on the real clips.

Every clip of the lecture is rendered narrated at the test quality ``t`` (256x144, 5 fps: the voice,
the beats and the captions are what a 1080p render makes; only the picture is smaller) through the
real ``clips render``, then joined by ``clips lecture`` and paged by ``clips present``.  On those files:

* captions: every event of every clip's SRT and WebVTT, of ``lecture.srt`` / ``lecture.vtt`` and of the
  subtitle stream embedded in ``lecture.mp4`` (extracted by ffmpeg), read back with pysubs2 (a subtitle
  library, not our writer), is within the broadcast limits: at most 2 lines of at most 42 characters,
  5/6 s to 7 s, at most 17 characters a second, at least 2 frames after the event before it;
* every clip and the lecture have a descriptions track, and a transcript (HTML and text) in lecture order;
* the delivered audio, decoded from the MP4s (after AAC), measured with ffmpeg's EBU R128 meter (not the
  mastering code): true peak at most −1 dBTP, integrated loudness −16 ± 1 LUFS, every clip and the lecture;
* no flash over WCAG 2.3.1's limit in any clip's frames (the analyser itself is tested on strobes).

The contrast check at every beat, the described render and axe-core on the pages have their own tests
below and in ``tests/test_present.py``.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scenes.catalog import CLIPS
from project import clip_module, clips, make_project, narration_path

MAX_LINE, MAX_LINES, MIN_S, MAX_S, MAX_CPS, GAP_FRAMES = 42, 2, 5 / 6, 7.0, 17.0, 2
FPS = 5  # the test quality's frame rate
FFMPEG = shutil.which("ffmpeg")
needs_ffmpeg = pytest.mark.skipif(FFMPEG is None, reason="ffmpeg missing: run make test (it installs it)")


# ------------------------------------------------------------------ the lecture, rendered
@pytest.fixture(scope="module")
def deck(shipped_lecture) -> Path:
    return shipped_lecture  # rendered once for the run and joined (tests/conftest.py); its clips shared with the language tests


def manifest(q: Path) -> dict:
    return json.loads((q / "manifest.json").read_text())["clips"]


def assert_within_limits(subs, where: str, fps: float = FPS, end: float | None = None) -> int:
    """Every event of ``subs`` (a pysubs2 file) within the broadcast limits; returns how many there are."""
    events = [e for e in subs if e.plaintext.strip()]
    assert events, f"{where}: no caption events"
    for e in events:
        # as a viewer reads it: WebVTT escapes <, > and & in cue text (pysubs2 keeps "&gt;"), SRT does not
        lines = html.unescape(e.plaintext).split("\n") if "&" in e.plaintext else e.plaintext.split("\n")
        text = " ".join(lines)
        dur = (e.end - e.start) / 1000
        what = f"{where} {e.start / 1000:.2f}-{e.end / 1000:.2f} s {lines!r}"
        assert len(lines) <= MAX_LINES and all(len(ln) <= MAX_LINE for ln in lines), what
        assert MIN_S - 0.002 <= dur <= MAX_S + 0.002, f"{what}: {dur:.3f} s on screen"
        assert len(text) / dur <= MAX_CPS + 0.05, f"{what}: {len(text) / dur:.1f} characters a second"
        if end is not None:
            assert e.end / 1000 <= end + 0.002, what
    for a, b in zip(events, events[1:]):
        assert (b.start - a.end) / 1000 >= GAP_FRAMES / fps - 0.002, f"{where}: {a.plaintext!r} then {b.plaintext!r}"
    return len(events)


def test_every_caption_event_of_every_clip_is_within_the_limits(deck):
    import pysubs2

    m = manifest(deck)
    assert sorted(m) == sorted(c.name for c in CLIPS)
    total = 0
    for c in CLIPS:
        e = m[c.name]
        srt = pysubs2.load(str(deck / f"{c.name}.srt"))
        vtt = pysubs2.load(str(deck / f"{c.name}.vtt"))
        n = assert_within_limits(srt, f"{c.name}.srt", end=e["duration"])
        assert assert_within_limits(vtt, f"{c.name}.vtt", end=e["duration"]) == n
        assert [(x.start, x.end, x.plaintext) for x in srt] == [(x.start, x.end, x.plaintext) for x in vtt]
        # the events are the beats' captions, in order, nothing lost, each inside its beat
        beats = e["beats"]
        words = " ".join(x.plaintext.replace("\n", " ") for x in srt).split()
        assert words == " ".join(b["text"] for b in beats).split(), c.name
        for b in beats:
            for a, z, _ in b["events"]:
                assert b["start"] - 1e-3 <= a < z <= b["start"] + b["duration"] + 1e-3
        # the voice starts with its beat, and its first event with it
        assert all(b["events"][0][0] == pytest.approx(b["start"], abs=1e-3) for b in beats)
        total += n
    print(f"{total} caption events in {len(CLIPS)} clips, all within the limits")


@needs_ffmpeg
def test_the_lecture_tracks_and_the_embedded_subtitles_are_within_the_limits(deck, tmp_path):
    import pysubs2

    per_clip = sum(len([e for e in pysubs2.load(str(deck / f"{c.name}.srt")) if e.plaintext.strip()]) for c in CLIPS)
    lecture = [pysubs2.load(str(deck / "lecture.srt")), pysubs2.load(str(deck / "lecture.vtt"))]
    extracted = tmp_path / "embedded.srt"
    r = subprocess.run([FFMPEG, "-v", "error", "-y", "-i", str(deck / "lecture.mp4"), "-map", "0:s:0", str(extracted)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lecture.append(pysubs2.load(str(extracted)))
    for subs, name in zip(lecture, ("lecture.srt", "lecture.vtt", "lecture.mp4's subtitle stream")):
        assert assert_within_limits(subs, name) == per_clip, name


def test_every_clip_and_the_lecture_have_a_descriptions_track_and_a_transcript(deck):
    import pysubs2

    m = manifest(deck)
    for c in CLIPS:
        text = (deck / f"{c.name}.descriptions.vtt").read_text(encoding="utf-8")
        assert text.startswith("WEBVTT") and "descriptions" in text.splitlines()[2]
        described = [b for b in m[c.name]["beats"] if b["describe"]]
        assert len(pysubs2.SSAFile.from_string(text, format_="vtt")) == len(described)
        page = (deck / f"{c.name}.transcript.html").read_text(encoding="utf-8")
        plain = (deck / f"{c.name}.transcript.txt").read_text(encoding="utf-8")
        assert c.title in page and c.title in plain
        pos = 0
        for b in m[c.name]["beats"]:  # the narration in order, with its descriptions
            i = plain.index(b["text"], pos)
            pos = i + len(b["text"])
            if b["describe"]:
                pos = plain.index(f"[Description] {b['describe']}", pos)
    assert (deck / "lecture.descriptions.vtt").read_text().startswith("WEBVTT")
    whole = (deck / "lecture.transcript.txt").read_text(encoding="utf-8")
    heads = [whole.index(f"{c.number:02d} {c.title}") for c in CLIPS]
    assert heads == sorted(heads)  # one chapter a clip, in lecture order
    html = (deck / "lecture.transcript.html").read_text(encoding="utf-8")
    assert html.count("<h2 ") == len(CLIPS) and '<html lang="en">' in html


# ------------------------------------------------------------------ the delivered audio
def ebur128(path: Path) -> tuple[float, float]:
    """(integrated loudness LUFS, true peak dBTP) of ``path``'s audio, by ffmpeg's EBU R128 meter."""
    r = subprocess.run([FFMPEG, "-hide_banner", "-nostats", "-i", str(path), "-map", "0:a", "-af", "ebur128=peak=true",
                        "-f", "null", "-"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    summary = r.stderr[r.stderr.rindex("Summary:"):]
    lufs = float(re.search(r"I:\s+(-?[\d.]+|-inf) LUFS", summary).group(1))
    peak = float(re.search(r"True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS", summary).group(1))
    return lufs, peak


@needs_ffmpeg
def test_delivered_audio_is_within_the_limits_after_aac(deck):
    m = manifest(deck)
    report = {}
    for name in [c.name for c in CLIPS] + ["lecture"]:
        lufs, peak = ebur128(deck / f"{name}.mp4")
        report[name] = (lufs, peak)
        assert peak <= -1.0, f"{name}: true peak {peak} dBTP on the decoded AAC"
        assert -17.0 <= lufs <= -15.0, f"{name}: {lufs} LUFS"
        if name != "lecture":  # what the render measured on its own decode agrees with ffmpeg
            a = m[name]["audio"]
            assert a["delivered_true_peak_dbtp"] <= -1.0 and abs(a["delivered_lufs"] - lufs) < 0.3
    print("delivered (LUFS, dBTP):", report)


# ------------------------------------------------------------------ flashes
def test_no_clip_flashes_over_the_limit(deck):
    from scenes.render.safety import analyse_video

    worst = {}
    for c in CLIPS:
        rep = analyse_video(deck / f"{c.name}.mp4")
        worst[c.name] = (rep.general, rep.red)
        assert rep.ok, (c.name, rep)
    print("flashes in the worst second (general, red):", worst)


def _strobe(hz: float, fps: int = 30, secs: float = 2.0, color=(255, 255, 255), base=(0, 0, 0), area: float = 1.0):
    h, w = 144, 256
    frames = []
    for i in range(int(fps * secs)):
        f = np.zeros((h, w, 3), np.uint8)
        f[:] = base
        if int(i * 2 * hz / fps) % 2 == 0:
            f[: int(h * area ** 0.5), : int(w * area ** 0.5)] = color
        frames.append(f)
    return frames


@pytest.mark.parametrize("hz, expect_ok", [(2, True), (3, True), (4, False), (10, False)])
def test_the_flash_analyser_counts_flashes_a_second(hz, expect_ok):
    from scenes.render.safety import analyse

    rep = analyse(_strobe(hz), 30)
    assert rep.general == hz and rep.ok is expect_ok


def test_the_flash_analyser_knows_red_flashes_small_areas_and_slow_fades():
    from scenes.render.safety import analyse

    dark_red = analyse(_strobe(5, color=(90, 0, 0)), 30)  # too dim for a general flash, but saturated red
    assert dark_red.general == 0 and dark_red.red == 5 and not dark_red.ok
    assert analyse(_strobe(5, area=0.02), 30).ok  # a small blinking marker is not a flash
    assert analyse(_strobe(5, color=(255, 255, 255), base=(250, 250, 250)), 30).ok  # too small a change
    fade = [np.full((144, 256, 3), int(255 * abs(np.sin(np.pi * i / 60))), np.uint8) for i in range(120)]
    assert analyse(fade, 30).general <= 1  # one slow swell a second is no strobe


# ------------------------------------------------------------------ contrast at every beat
def test_the_contrast_check_runs_at_every_beat_and_finds_low_contrast():
    from manim import Rectangle

    from scenes.audit.beats import check_contrast, snapshot
    from scenes.kit.theme import BG, DIM, FG, label

    class S:  # the audit's view of a scene: its mobjects
        def __init__(self, *mobs):
            self.mobjects, self.time = list(mobs), 0.0

    def probs(*mobs):
        return check_contrast([snapshot(S(*mobs), "beat")])

    assert not probs(label("fine", color=FG))
    assert not probs(label("dim grey on the background", color=DIM, size=28))
    low = probs(label("grey on grey", color="#3A3F47"))
    # the house's smallest text is 25 pt at 1080p: large text, 3:1 (normal text needs 4.5:1)
    assert low and low[0].kind == "contrast" and "needs 3:1 for large text" in low[0].message
    from scenes.audit.contrast import em_px, is_large, ratio

    small = 6.0 * 18.67 / em_px(6.0)  # an x-height (at 854x480) of 14 pt at 1080p
    assert not is_large(small, bold=False) and is_large(small * 1.01, bold=True) and is_large(small * 18 / 14 * 1.01, False)
    assert ratio((1, 1, 1), (0, 0, 0)) == pytest.approx(21)
    assert ratio((0x77 / 255,) * 3, (1, 1, 1)) == pytest.approx(4.48, abs=0.01)  # #777 on white, WCAG's example
    # on a filled cell drawn before it, the cell is what is behind the text
    cell = Rectangle(width=3, height=1, fill_color="#F2C14E", fill_opacity=1, stroke_width=0)
    assert probs(cell, label("light on yellow", color=FG))
    assert not probs(cell, label("dark on yellow", color=BG))
    # dimmed into the background (opacity under 0.3): exempt, as WCAG exempts inactive text
    assert not probs(label("dimmed", color="#3A3F47").set_opacity(0.2))


def test_the_audit_checks_contrast_at_every_beat_of_a_clip():
    from scenes.audit.beats import audit_clip
    from scenes.render.matrix import scene_class

    res = audit_clip(scene_class(CLIPS[1]))
    assert len(res.records) == len(res.scene.captions)  # one record a beat
    texts = [i for r in res.records for i in r.texts()]
    assert texts and all(i.rgb is not None for i in texts)
    assert isinstance(res.contrast, list)
    print(f"{CLIPS[1].name}: {len(res.contrast)} contrast problem(s):", *res.contrast, sep="\n  ")


# ------------------------------------------------------------------ the described render
def _decode(mp4: Path):
    import av

    with av.open(str(mp4)) as c:
        s = c.streams.video[0]
        frames = [(float(f.pts * s.time_base), f.to_ndarray(format="rgb24").astype(np.int16)) for f in c.decode(s)]
    from scenes.render.audio import decode_audio
    from scenes.render.pipeline import video_facts

    seconds, _ = video_facts(mp4)
    return frames, decode_audio(mp4, seconds), seconds


def test_described_render_holds_the_picture_while_each_description_is_spoken(tmp_path):
    import wave

    import pysubs2

    from scenes.narration.voice import RATE

    root = make_project(tmp_path / "p", ["alpha"])
    narration_path(root, "alpha").write_text(
        '[alpha]\ntitle = "A test clip."\none = "One beat."\nclose = "The end."\n'
        '[alpha.describe]\ntitle = "The title card fades in."\none = "A label reading T = {T} appears in the middle."\n')
    src = clip_module(root, "alpha")
    src.write_text(src.read_text().replace(
        "    def body(self):", "    def caption_values(self):\n        return {'T': self.data.grid.shape[0]}\n\n    def body(self):"))
    # the lecturer recorded one description: 1.5 s of tone, which the hold must follow
    rec = root / "assets" / "voice" / "alpha" / "one.describe.wav"
    rec.parent.mkdir(parents=True)
    tone = (0.3 * np.sin(2 * np.pi * 220 * np.arange(int(1.5 * RATE)) / RATE) * 32767).astype("<i2")
    with wave.open(str(rec), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(RATE), w.writeframes(tone.tobytes())
    for extra in ((), ("--described",)):
        r = clips(root, "render", "-q", "t", "--out", "out", "--voice", "piper", *extra)
        assert r.returncode == 0, r.stdout + r.stderr
    q, qd = root / "out" / "t", root / "out" / "t" / "described"
    plain = json.loads((q / "manifest.json").read_text())["clips"]["01_alpha"]
    desc = json.loads((qd / "manifest.json").read_text())["clips"]["01_alpha"]
    assert [d["key"] for d in desc["descriptions"]] == ["title", "one"]
    assert desc["descriptions"][1]["text"] == "A label reading T = 6 appears in the middle."
    holds = [d["end"] - d["start"] for d in desc["descriptions"]]
    assert holds[1] == pytest.approx(1.5 + 0.35, abs=0.25)  # the recording (trimmed), then the voice's gap
    assert desc["duration"] == pytest.approx(plain["duration"] + sum(holds), abs=0.21)
    # each hold comes right after its beat and the next beat waits for it
    beats = {b["key"]: b for b in desc["beats"]}
    for d in desc["descriptions"]:
        b = beats[d["key"]]
        assert d["start"] == pytest.approx(b["start"] + b["duration"], abs=1e-3)
    assert beats["one"]["start"] >= desc["descriptions"][0]["end"] - 1e-3
    frames, audio, seconds = _decode(qd / "01_alpha.mp4")
    times = np.array([t for t, _ in frames])
    for d in desc["descriptions"]:
        # the picture holds: every frame of the hold is the beat's last frame
        held = [f for t, f in frames if d["start"] - 1e-3 <= t < d["end"] - 1e-3]
        assert held and all(np.abs(f - held[0]).mean() < 0.05 for f in held), d["key"]  # (H.264 noise only)
        last = frames[int(np.searchsorted(times, d["start"] - 1e-3)) - 1][1]
        assert np.abs(held[0] - last).mean() < 1.0
        # ... while the description is heard (the voice, or the recording), and is quiet around it
        a, b = int(d["start"] * RATE), int(d["end"] * RATE)
        speech = audio[a:b]
        assert np.sqrt(np.mean(speech[: int(0.8 * (b - a))] ** 2)) > 0.01, d["key"]
    # the described clip's captions are still the beats' (within the limits) and its descriptions track the holds
    assert_within_limits(pysubs2.load(str(qd / "01_alpha.srt")), "described 01_alpha.srt")
    cues = pysubs2.load(str(qd / "01_alpha.descriptions.vtt"))
    assert [(c.start, c.end) for c in cues] == [(round(d["start"] * 1000), round(d["end"] * 1000)) for d in desc["descriptions"]]
    # and the plain render is untouched; its descriptions are announced at the end of their beats
    assert [d["end"] for d in plain["descriptions"]] == pytest.approx(
        [b["start"] + b["duration"] for b in plain["beats"] if b["describe"]], abs=1e-3)
    r = clips(root, "lecture", "-q", "t", "--out", "out", "--described")
    assert r.returncode == 0, r.stderr
    assert (qd / "lecture.mp4").exists() and "A label reading T = 6" in (qd / "lecture.descriptions.vtt").read_text()
    assert "[Description] A label reading T = 6" in (qd / "lecture.transcript.txt").read_text()


@settings(max_examples=40, deadline=None)
@given(st.integers(27, 300), st.integers(48, 500), st.integers(0, 2**32 - 1))
def test_the_cells_are_the_mean_of_their_pixels(h, w, seed):
    """The flash analyser's grid: each cell the mean of its pixels (the integer sums, as a float mean
    of the same pixels gives it), the rows and columns that do not fill a cell left out."""
    from scenes.render.safety import GRID, _cells

    frame = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    r, c = GRID
    a, b = h // r, w // c
    want = frame[: r * a, : c * b].astype(np.float64).reshape(r, a, c, b, 3).mean(axis=(1, 3)) / 255
    got = _cells(frame)
    assert got.shape == (r, c, 3) and np.abs(got - want).max() < 1e-12
