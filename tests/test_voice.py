"""The voice track: words for the voice, real offline synthesis, caching by content, the
lecturer's recordings, loudness, and sync, through the real ``clips`` command."""

from __future__ import annotations

import glob
import json
import re
import string
import tomllib
import wave
from pathlib import Path

import av
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scenes.kit.theme import fmt_measure
from scenes.narration.voice import (
    GAP,
    RATE,
    SPEAKABLE,
    Narrator,
    loudness,
    spoken,
    true_peak,
    trim_silence,
    unspeakable,
)
from clipcache import Store
from project import clips, make_project, narration_path
from test_lecture_language import read_back

REPO = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ words for the voice
def _number_back(words: str) -> float:
    """Parse "about minus 4.7 times 10 to the minus 16" (or "10 to the minus 10", "exactly 0") back into a float."""
    m = re.fullmatch(r"(?:about |exactly )?(minus )?(?:([\d.]+)(?: times )?)?(?:10 to the (minus )?(\d+))?", words)
    assert m and (m.group(2) or m.group(4)), words
    mant = float(m.group(2)) if m.group(2) else 1.0
    v = mant * (10.0 ** ((-1 if m.group(3) else 1) * int(m.group(4))) if m.group(4) else 1.0)
    return -v if m.group(1) else v


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300))
def test_every_printed_measure_is_said_as_its_value(x):
    printed = fmt_measure(x)
    said = spoken(printed)
    assert not unspeakable(said), (printed, said)
    back = _number_back(said)
    assert np.isclose(back, read_back(printed), rtol=1e-12, atol=0)  # the voice says what the caption prints


@pytest.mark.parametrize("text, said", [
    ("4.7e\u221216", "4.7 times 10 to the minus 16"),
    ("A becomes P A P\u1d40.", "A becomes P A P transpose."),
    ("QK\u1d40 over \u221ad", "Q K transpose over square root of d"),
    ("n_max = 1\u2009024 rows", "n max equals 1024 rows"),
    ("a turn is 2\u03c0", "a turn is two pi"),
    ("P\u00b7Y moves", "P times Y moves"),
    ("Lecture 5 \u00b7 Inside", "Lecture 5, Inside"),
    ("exactly 0", "exactly 0"),
    ("≈ 2.2 × 10⁻¹⁶", "about 2.2 times 10 to the minus 16"),
    ("the 10⁻¹⁰ line", "the 10 to the minus 10 line"),
    ("nₘₐₓ = 1024 rows", "n max equals 1024 rows"),
])
def test_symbols_are_said_in_words(text, said):
    assert spoken(text) == said


def _placeholder_values():
    """Representative values of every kind a caption is filled with."""
    pool = [fmt_measure(v) for v in (0.0, 2.2e-16, 4.7e-16, 0.83, 2.4, 12.0, 172.0, 65536.0, 1e-10)]
    return pool + ["10\u2009000", "3", "the cat ate the mouse", "16, 64, 256", "5 · Inside the Transformer"]


def test_no_narration_text_sent_to_the_voice_holds_a_symbol_it_would_misread():
    """Every caption template, filled with every kind of value the clips print, is speakable
    once put into words; so is every [slug.say] entry."""
    values = _placeholder_values()
    n = 0
    for f in sorted(glob.glob(str(REPO / "assets" / "narration" / "*.toml"))):
        for slug, section in tomllib.loads(Path(f).read_text(encoding="utf-8")).items():
            entries = dict(section)
            entries.update({f"say.{k}": v for k, v in section.get("say", {}).items()})
            for key, text in entries.items():
                if not isinstance(text, str):
                    continue
                names = [fld for _, fld, _, _ in string.Formatter().parse(text) if fld]
                for v in values:
                    said = spoken(text.format(**{name: v for name in names}))
                    assert SPEAKABLE.match(said), f"{Path(f).name} [{slug}].{key}: {unspeakable(said)!r} in {said!r}"
                    n += 1
    assert n > 500


# ------------------------------------------------------------------ real synthesis
@pytest.fixture(scope="module")
def narrator(tmp_path_factory):
    return Narrator("piper", store=Store(tmp_path_factory.mktemp("voicecache")))


def test_one_short_sentence_is_synthesised_offline_deterministically_and_cached(narrator):
    a = narrator.line("t", "one", "Same words, same outputs.", "Same words, same outputs.")
    assert a.source == "piper" and narrator.synthesised == 1
    assert 0.8 < a.duration < 4.0 and a.samples.dtype == np.float32
    onset = np.flatnonzero(np.abs(a.samples) > 0.02)[0] / RATE
    assert onset < 0.08  # leading silence trimmed: the line starts with its beat
    b = narrator.line("t", "two", "Same words, same outputs.", "Same words, same outputs.")
    assert narrator.synthesised == 1 and np.array_equal(a.samples, b.samples)  # from the cache
    fresh = narrator.synthesise("Same words, same outputs.")
    cached = np.asarray(a.samples, dtype=np.float64)
    assert len(fresh) == len(cached) and np.max(np.abs(fresh - cached)) < 1.5 / 32767  # the same bits, up to 16-bit storage


def test_the_voice_runs_on_one_quiet_thread_and_says_what_piper_load_says(narrator):
    """The narrator's ONNX session is one thread that does not spin (a render runs a worker per core),
    and it gives the very samples of Piper's own ``PiperVoice.load`` with ONNX Runtime's defaults."""
    from piper import PiperVoice
    from piper.config import SynthesisConfig

    from scenes.narration.voice import piper_model

    narrator.synthesise("Warm up.")
    opts = narrator._voice.session.get_session_options()
    assert opts.intra_op_num_threads == 1 and opts.inter_op_num_threads == 1
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    model, cfg = piper_model()
    theirs = PiperVoice.load(str(model), config_path=str(cfg))
    say, quiet = "Rotary embeddings turn each pair of coordinates.", SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    a = np.concatenate([c.audio_int16_array for c in narrator._voice.synthesize(say, quiet)])
    b = np.concatenate([c.audio_int16_array for c in theirs.synthesize(say, quiet)])
    assert len(a) > 22050 and np.array_equal(a, b)


def test_lines_synthesised_ahead_are_waited_for_and_not_synthesised_twice(tmp_path, monkeypatch):
    """``Narrator.prefetch`` (``clips studio`` hands the worker an edit's lines): a process of its own writes them
    into the cache while this one goes on; the beat that needs one waits for it and does not synthesise it."""
    from scenes.narration import voice as V

    store = Store(tmp_path)
    a = Narrator("piper", store=store)
    says = ["A line said ahead of its beat.", "And a second one."]
    proc = a.prefetch(says + ["P A P\u1d40"])  # a text the voice would misread is left to its beat, which refuses it
    assert proc is not None
    monkeypatch.setattr(Narrator, "synthesise", lambda self, say: pytest.fail(f"synthesised again: {say}"))
    lines = [a.line("t", f"k{i}", s, s) for i, s in enumerate(says)]
    assert a.synthesised == 2 and all(ln.duration > 0.5 for ln in lines)
    proc.join(10)
    assert store.usage()["voice"].entries == 2 and all(store.has("voice", a.cache_key(s)) for s in says)
    assert Narrator("piper", store=store).prefetch(says) is None  # all cached: nothing to do
    assert Narrator("piper", store=Store(tmp_path, "refresh")).prefetch(says) is None  # --force: each beat speaks
    assert not V._AHEAD


def _speech_like(seconds: float, seed: int) -> np.ndarray:
    """Bursts of harmonic tone with sharp onsets and quiet between (a voice's loudness and peaks, roughly)."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    x = np.zeros(n)
    t = 0
    while t < n - RATE:
        d = int(rng.uniform(0.3, 1.5) * RATE)
        tt = np.arange(d) / RATE
        f = rng.uniform(90, 220)
        burst = sum(rng.uniform(0.1, 0.5) / k * np.sin(2 * np.pi * k * f * tt + rng.uniform(0, 6)) for k in range(1, 8))
        x[t:t + d] += burst * np.minimum(1, tt * 40) * rng.uniform(0.2, 1.0)
        t += d + int(rng.uniform(0.05, 0.6) * RATE)
    return x


def test_the_mastering_meter_measures_what_pyloudnorm_measures():
    """``LoudnessMeter`` (the mastering's: the track K-weighted once, each trial gain's limiter dips filtered
    alone) against pyloudnorm's BS.1770 meter on the same signal, with and without the dips."""
    import pyloudnorm

    from scenes.narration.voice import LIMIT_DBTP, LoudnessMeter, _limiter_gain, true_peak_envelope

    ref = pyloudnorm.Meter(RATE)
    for seed, seconds in ((0, 6.0), (1, 31.3), (2, 0.5)):
        x = _speech_like(seconds, seed) if seconds > 1 else 0.2 * np.sin(np.arange(int(seconds * RATE)) / 7)
        m = LoudnessMeter(x)
        assert m.of() == pytest.approx(ref.integrated_loudness(x), abs=1e-9)
        env = true_peak_envelope(x)
        for g in (1.0, 3.0, 8.0):
            dip = _limiter_gain(g * env, 10 ** (LIMIT_DBTP / 20))
            assert m.of(g, dip) == pytest.approx(ref.integrated_loudness(x * g * dip), abs=1e-9), (seed, g)


def test_the_limiter_filters_only_around_peaks_and_gives_the_whole_tracks_gain():
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    from scenes.narration.voice import _limiter_gain, true_peak_envelope

    x = _speech_like(20.0, 3)
    env = true_peak_envelope(x) * 4.0
    ceiling = 0.8
    att = int(0.005 * RATE)
    whole = uniform_filter1d(minimum_filter1d(np.minimum(1.0, ceiling / np.maximum(env, 1e-12)), size=2 * att + 1), size=att)
    mine = _limiter_gain(env, ceiling)
    assert (env > ceiling).any() and np.max(np.abs(mine - whole)) < 1e-12
    assert np.all(mine[whole == 1.0] == 1.0) and np.all(mine * env <= ceiling * (1 + 1e-12))


def test_mastering_reaches_the_target_loudness_under_the_peak_ceiling():
    import pyloudnorm

    from scenes.narration.voice import LIMIT_DBTP, TARGET_LUFS, master, true_peak

    for seed in (4, 5):
        out, measured = master(_speech_like(25.0, seed) * (0.05 if seed == 4 else 2.0))
        lufs = pyloudnorm.Meter(RATE).integrated_loudness(out.astype(np.float64))
        assert abs(lufs - TARGET_LUFS) < 0.1 and measured["lufs"] == pytest.approx(lufs, abs=0.01)
        assert 20 * np.log10(true_peak(out)) <= LIMIT_DBTP + 0.5


def test_text_the_voice_would_misread_is_refused(narrator):
    from scenes.narration.voice import VoiceError

    with pytest.raises(VoiceError, match="would misread"):
        narrator.line("t", "bad", "x", "P A P\u1d40")


def test_trim_keeps_the_speech_and_drops_the_quiet():
    t = np.arange(RATE) / RATE
    a = np.concatenate([np.zeros(RATE // 2), 0.3 * np.sin(2 * np.pi * 220 * t), np.zeros(RATE // 2)]).astype(np.float32)
    b = trim_silence(a)
    assert abs(len(b) / RATE - 1.04) < 0.02


# ------------------------------------------------------------------ through the clips command
def _wav(path: Path, seconds: float, freq: float = 300.0) -> Path:
    t = np.arange(int(seconds * 22050)) / 22050
    x = (0.25 * np.sin(2 * np.pi * freq * t) * 32767).astype("<i2")
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(x.tobytes())
    return path


def _audio(mp4: Path) -> tuple[np.ndarray, float, float]:
    """(decoded mono samples at RATE, audio stream length, video stream length) in seconds."""
    with av.open(str(mp4)) as c:
        a, v = c.streams.audio[0], c.streams.video[0]
        alen, vlen = float(a.duration * a.time_base), float(v.duration * v.time_base)
        x = np.concatenate([f.to_ndarray().reshape(-1) for f in c.decode(a)])
    return x, alen, vlen


def _onsets(x: np.ndarray, after: list[float]) -> list[float]:
    """Energy voice-activity: the first 10 ms window above -35 dBFS at or after each time."""
    win = RATE // 100
    e = 20 * np.log10(np.sqrt(np.mean(x[: len(x) // win * win].reshape(-1, win).astype(float) ** 2, axis=1)) + 1e-12)
    loud = e > -35
    out = []
    for t in after:
        k = np.flatnonzero(loud[int(t * 100):])
        out.append((int(t * 100) + k[0]) / 100 if len(k) else np.inf)
    return out


@pytest.fixture(scope="module")
def voiced(tmp_path_factory):
    p = make_project(tmp_path_factory.mktemp("voice") / "p", ["alpha", "beta"])
    r = clips(p, "render", "-q", "t", "--out", "out", "--voice", "piper", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    return p


def test_every_voiced_clip_has_an_audio_track_of_its_length_at_broadcast_loudness(voiced):
    m = json.loads((voiced / "out" / "t" / "manifest.json").read_text())["clips"]
    for name, entry in m.items():
        x, alen, vlen = _audio(voiced / "out" / "t" / f"{name}.mp4")
        assert abs(alen - vlen) <= 1 / 5 + 1e-9  # within one frame (test quality: 5 fps)
        assert abs(len(x) / RATE - vlen) < 0.03
        assert abs(loudness(x.astype(float)) - (-16.0)) <= 1.0  # measured on the decoded track (BS.1770)
        assert 20 * np.log10(true_peak(x.astype(float))) <= -1.0 + 0.05
        assert entry["audio"]["sources"] == ["piper"] and entry["audio"]["lines"] == len(entry["beats"])


def test_each_subtitle_starts_within_a_tenth_of_a_second_of_its_speech(voiced):
    m = json.loads((voiced / "out" / "t" / "manifest.json").read_text())["clips"]
    for name, entry in m.items():
        x, _, _ = _audio(voiced / "out" / "t" / f"{name}.mp4")
        starts = [b["start"] for b in entry["beats"]]
        for cue, onset in zip(starts, _onsets(x, starts)):
            assert abs(onset - cue) <= 0.1, (name, cue, onset)
        # and each beat lasts at least its speech and the gap after it
        for b in entry["beats"]:
            assert b["duration"] >= GAP


def test_the_lecture_carries_one_track_in_sync_at_every_join_and_at_its_end(voiced):
    r = clips(voiced, "lecture", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    lec = voiced / "out" / "t" / "lecture.mp4"
    x, alen, vlen = _audio(lec)
    assert abs(alen - vlen) <= 1 / 5
    with av.open(str(lec)) as c:
        chapters = [float(ch["start"] * ch["time_base"]) for ch in c.chapters()]
    m = json.loads((voiced / "out" / "t" / "manifest.json").read_text())["clips"]
    first_speech = [e["beats"][0]["start"] for e in m.values()]
    for ch, lead, onset in zip(chapters, first_speech, _onsets(x, chapters)):
        assert abs(onset - (ch + lead)) <= 1 / 5, (ch, onset)


def test_an_edited_sentence_resynthesises_that_beat_only(voiced):
    f = narration_path(voiced, "beta")
    f.write_text(f.read_text().replace('one = "One beat."', 'one = "One beat, edited."'))
    r = clips(voiced, "render", "-q", "t", "--out", "out", "--voice", "piper")
    assert r.returncode == 0, r.stderr
    assert "01_alpha  unchanged" in r.stdout
    entry = json.loads((voiced / "out" / "t" / "manifest.json").read_text())["clips"]["02_beta"]
    assert entry["audio"]["synthesised"] == 1


def test_a_recording_replaces_its_beat_and_retimes_it(voiced):
    before = json.loads((voiced / "out" / "t" / "manifest.json").read_text())["clips"]
    _wav(voiced / "assets" / "voice" / "alpha" / "one.wav", 3.0)
    r = clips(voiced, "render", "-q", "t", "--out", "out", "--voice", "piper")
    assert r.returncode == 0, r.stderr
    assert "02_beta  unchanged" in r.stdout
    after = json.loads((voiced / "out" / "t" / "manifest.json").read_text())["clips"]["01_alpha"]
    one = [b for b in after["beats"] if b["key"] == "one"][0]
    assert one["duration"] >= 3.0 + GAP - 0.05
    assert after["duration"] > before["01_alpha"]["duration"] + 1.5
    assert any(s.endswith("one.wav") for s in after["audio"]["sources"])


def test_an_unreadable_recording_is_one_line_naming_the_file_and_exit_2(voiced):
    bad = voiced / "assets" / "voice" / "beta" / "one.mp3"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_bytes(b"this is not audio")
    try:
        r = clips(voiced, "render", "-q", "t", "--out", "out", "--voice", "piper")
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1 and str(bad) in r.stderr and "cannot read this recording" in r.stderr
    finally:
        bad.unlink()


def test_recorded_voice_needs_a_recording_for_every_beat(voiced):
    r = clips(voiced, "render", "beta", "-q", "t", "--out", "out", "--voice", "recorded")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "missing" in r.stderr and str(voiced / "assets" / "voice" / "beta") in r.stderr


def test_voice_none_renders_silent_clips(voiced):
    r = clips(voiced, "render", "alpha", "-q", "t", "--out", "silent", "--voice", "none")
    assert r.returncode == 0, r.stderr
    with av.open(str(voiced / "silent" / "t" / "01_alpha.mp4")) as c:
        assert not c.streams.audio


# ------------------------------------------------------------------ a voice delivered once
def _tiny_video(path: Path, seconds: float = 3.0, fps: int = 5) -> Path:
    with av.open(str(path), "w") as out:
        s = out.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = 64, 36, "yuv420p"
        for i in range(int(seconds * fps)):
            f = av.VideoFrame.from_ndarray(np.full((36, 64, 3), 15 * i, np.uint8), format="rgb24")
            out.mux(s.encode(f))
        out.mux(s.encode(None))
    return path


def test_a_voice_delivered_before_is_muxed_bit_for_bit_and_anything_else_is_mastered_afresh(tmp_path, monkeypatch):
    """``audio.deliver``: the same mixed track gives the same delivery from the cache (neither mastered nor
    encoded again), muxed into the same bytes as a delivery made afresh; a track one sample different, a
    forced render, an unreadable entry and the off switch each master and encode again."""
    from scenes.narration import voice as V
    from scenes.render import audio as A

    import clipcache

    monkeypatch.setattr(clipcache, "_store", clipcache.Store(tmp_path / "cache"))
    rng = np.random.default_rng(3)
    t = np.arange(3 * RATE) / RATE
    raw = 0.05 * np.sin(2 * np.pi * 180 * t) * (1 + rng.standard_normal(t.size) * 0.2) * (t % 1 < 0.7)
    video = _tiny_video(tmp_path / "v.mp4")
    made = []
    real_master = V.master
    monkeypatch.setattr(V, "master", lambda x: (made.append(1), real_master(x))[1])

    first = A.deliver(raw)
    assert made == [1] and first.measured["delivered_true_peak_dbtp"] <= -1.0
    assert abs(first.measured["lufs"] - V.TARGET_LUFS) < 0.2 and first.measured["encodings"] >= 1
    again = A.deliver(raw.copy())
    assert made == [1] and again.packets == first.packets and again.measured == first.measured
    # muxed from the cache: the same bytes as the encoder's own packets muxed by mux_with_audio
    a, b = tmp_path / "a.mp4", tmp_path / "b.mp4"
    A.mux_packets(video, again.extradata, again.av_packets(), a)
    track, _ = real_master(raw)
    assert A.mux_with_audio(video, track, b)["delivered_lufs"] == first.measured["delivered_lufs"]
    assert a.read_bytes() == b.read_bytes()
    assert A.has_audio(a) and not list(tmp_path.glob("*.partial*"))

    other = raw.copy()
    other[RATE] += 1e-6
    A.deliver(other)
    assert made == [1, 1]
    A.deliver(raw, reuse=False)  # `clips render --force`
    assert made == [1, 1, 1]
    clipcache.store().put("audio", A.delivery_key(raw), b"not a pickle")  # a whole entry of another format
    assert A.deliver(raw).packets == first.packets and made == [1, 1, 1, 1]
    assert A.deliver(raw).packets == first.packets and made == [1, 1, 1, 1]  # rewritten whole
    monkeypatch.setattr(clipcache, "_store", clipcache.Store(tmp_path / "cache", "off"))  # --no-cache
    A.deliver(raw)
    assert made == [1, 1, 1, 1, 1]
    assert not list((tmp_path / "cache").rglob("*.tmp"))


def _write_many(path: str, n: int) -> None:
    from scenes.narration.voice import write_wav

    x = np.sin(np.arange(4800) / 7.0).astype(np.float32) * 0.5
    for _ in range(n):
        write_wav(Path(path), x)


def test_two_workers_writing_the_same_line_at_once_both_succeed_and_leave_it_whole(tmp_path):
    """Two render workers that speak the same sentence cache the same WAV at once: each writes under a
    name of its own and renames it into place, so neither loses its file to the other (a shared
    ``.partial`` name failed CI with FileNotFoundError) and what is left is one whole line."""
    import multiprocessing as mp

    from scenes.narration.voice import read_wav

    path = tmp_path / "line.wav"
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_write_many, args=(str(path), 300)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    assert len(read_wav(path)) == 4800 and not list(tmp_path.glob("*.partial"))
