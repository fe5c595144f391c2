"""Audio files: any common format read as mono samples, WAV written and read, silence trimmed."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from .settings import RATE, VoiceError


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

