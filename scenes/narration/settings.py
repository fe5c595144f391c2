"""The voice's settings (sample rate, loudness targets, where recordings live), its one-line error and its
one line of speech (:class:`Line`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathcore.config import ASSETS_DIR

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


@dataclass(frozen=True)
class Line:
    """One beat's voice: ``samples`` (mono float32 at ``RATE``) and where it came from."""

    samples: np.ndarray
    source: str  # "piper" or the recording's path
    text: str  # what was spoken (the recording's beat: the caption)

    @property
    def duration(self) -> float:
        return len(self.samples) / RATE
