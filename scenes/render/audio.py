"""The clips' audio: a mastered voice track muxed into each clip, and one continuous track
for the joined lecture.

Per clip, the beats' voice lines (``scenes.narration.voice``) are mixed at their start times into a
track exactly as long as the video, mastered to −16 LUFS / −1 dBTP, encoded as AAC and muxed
beside the untouched H.264 stream.  For the lecture, every clip's audio is decoded, padded or
trimmed to its clip's exact video length and concatenated, then encoded once: one continuous
track with no priming or padding at the joins, so audio and video stay within a frame.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from scenes.narration import mastering, settings, voice
from scenes.narration.voice import RATE, true_peak_envelope

AAC_BITRATE = 160_000
# The delivered file (after AAC) keeps true peak <= -1 dBTP: the encoder's ringing lifts peaks by up to a few dB
# over the mastered track, so each encoding is decoded and measured, and where it passes this ceiling the track's
# peaks are limited further (loudness kept on target) and encoded again.  The margin covers the difference
# between meters (ours: BS.1770-4's own 48-tap interpolator, voice.true_peak_envelope; ffmpeg's ebur128
# filter: its own 4x interpolator).
DELIVERY_CEILING_DBTP = -1.0
DELIVERY_MARGIN_DB = 0.3
# FFmpeg's "fast" AAC coder: FFmpeg's own default since 2018 ("at higher bitrates [twoloop] sounds worse
# than the fast coder ... and needs quite a lot more CPU", commit fcb681ac), not the default of the FFmpeg
# that PyAV bundles.  On clip 03's voice at 160 kb/s: 0.5 s per encoding instead of 1.6 s, a signal-to-error
# ratio of 48 dB instead of 37, and no +3 dB burst in the stream's first frames (twoloop's, which alone put
# the delivered true peak at +2 dBTP).
AAC_OPTIONS = {"aac_coder": "fast"}
AAC_DELAY = 1024  # the encoder's priming: decoded sample i + 1024 is the track's sample i


def encode_aac(track: np.ndarray):
    """``track`` (mono float) as AAC packets at ``RATE``, timestamps in samples (1/RATE)."""
    import av

    out = []
    cc = av.CodecContext.create("aac", "w")
    cc.sample_rate = RATE
    cc.layout = "mono"
    cc.format = av.AudioFormat("fltp")
    cc.bit_rate = AAC_BITRATE
    cc.time_base = Fraction(1, RATE)
    cc.options = dict(AAC_OPTIONS)
    cc.open()
    n = cc.frame_size or 1024
    a = np.asarray(track, dtype=np.float32)
    for i in range(0, len(a), n):
        chunk = a[i:i + n]
        if len(chunk) < n:
            chunk = np.pad(chunk, (0, n - len(chunk)))
        f = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="fltp", layout="mono")
        f.sample_rate = RATE
        f.pts = i
        f.time_base = Fraction(1, RATE)
        out.extend(cc.encode(f))
    out.extend(cc.encode(None))
    # the last frame was padded to a whole AAC frame: say how much of it is real, so the
    # track ends exactly where the samples (and the picture) end
    if out and out[-1].pts is not None and 0 < len(a) - out[-1].pts < (out[-1].duration or n):
        out[-1].duration = len(a) - out[-1].pts
    return cc, out


def decode_packets(cc, packets) -> np.ndarray:
    """AAC ``packets`` from the encoder ``cc`` decoded again, as mono float at ``RATE``: what a player hears."""
    import av

    dec = av.CodecContext.create("aac", "r")
    dec.sample_rate = RATE
    dec.layout = "mono"
    dec.extradata = cc.extradata
    rs = av.AudioResampler(format="flt", layout="mono", rate=RATE)
    parts = []
    for p in packets:
        for f in dec.decode(p):
            parts.extend(x.to_ndarray().reshape(-1) for x in rs.resample(f))
    for f in dec.decode(None):
        parts.extend(x.to_ndarray().reshape(-1) for x in rs.resample(f))
    parts.extend(x.to_ndarray().reshape(-1) for x in rs.resample(None))
    return np.concatenate(parts).astype(np.float64) if parts else np.zeros(0)


def encode_delivered(track: np.ndarray, attempts: int = 6):
    """``track`` encoded as AAC whose *decoded* true peak stays at most ``DELIVERY_CEILING_DBTP``
    (with ``DELIVERY_MARGIN_DB`` to spare), loudness kept at the mastering target.

    Where the decoded file passes the ceiling, the track's gain dips *there* (over the AAC frame
    around each such peak, by what that peak passed the ceiling), and it is encoded again: the
    encoder's overshoot is local, so one correction nearly always suffices, and the rest of the
    track keeps its level.  Returns ``(codec context, packets, measured)``, ``measured`` holding the
    decoded file's loudness and true peak (``delivered_lufs``, ``delivered_true_peak_dbtp``) and how
    many encodings it took."""
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    from scenes.narration.voice import loudness

    t = np.asarray(track, dtype=np.float64)
    goal = 10 ** ((DELIVERY_CEILING_DBTP - DELIVERY_MARGIN_DB) / 20)
    level = None  # the track's loudness as handed over (mastered): the dips must not lower it by more than 0.2 LU
    for n in range(1, attempts + 1):
        cc, pkts = encode_aac(t)
        if not np.any(t):
            return cc, pkts, {"delivered_lufs": None, "delivered_true_peak_dbtp": None, "encodings": n}
        heard = decode_packets(cc, pkts)
        env = true_peak_envelope(heard)
        peak = float(env.max()) if env.size else 0.0
        if peak <= goal or n == attempts:
            break
        # the gain each decoded sample needed (0.1 dB more than the excess), moved onto the track's time
        # axis, held over the AAC frame around it (its ringing spreads over the frame) and eased in and
        # out over 10 ms, so every sample keeps at least the dip of any peak within a frame of it
        need = np.minimum(1.0, goal * 10 ** (-0.1 / 20) / np.maximum(env, 1e-12))
        need = np.pad(need[AAC_DELAY:AAC_DELAY + len(t)], (0, max(0, len(t) - (len(need) - AAC_DELAY))),
                      constant_values=1.0)
        ease = int(0.010 * RATE)
        gain = minimum_filter1d(need, size=2 * 1024 + 2 * ease + 1)
        gain = uniform_filter1d(gain, size=ease)
        level = loudness(t) if level is None else level
        t = t * gain
        lufs = loudness(t)
        if np.isfinite(lufs) and np.isfinite(level) and level - lufs > 0.2:  # the dips took off more than 0.2 LU
            t = t * 10 ** ((level - lufs) / 20)
    tp = 20 * np.log10(max(peak, 1e-12))
    lufs = loudness(heard) if len(heard) >= RATE // 2 else float("nan")
    return cc, pkts, {"delivered_lufs": round(float(lufs), 2) if np.isfinite(lufs) else None,
                      "delivered_true_peak_dbtp": round(float(tp), 2), "encodings": n}


# ------------------------------------------------------------------ a clip's voice, delivered once
# Mastering a clip's mixed voice and encoding it within the delivery limits is a third of what a render
# costs when its picture is reused (clip 02 at quality t: 1.4 s of master, 2.5 s of encodings).  An edit
# that leaves every voice line and every beat's time as it was (a colour, a size, the title on the opening
# card) gives the same mixed track, hence the same delivered audio: it is kept in the cache (kind "audio")
# under the digest of that track and of what turns it into AAC (this module, the voice's mastering, the libraries).
AUDIO_CACHE_FORMAT = "1"  # bump when what is stored changes shape


@dataclass
class Delivery:
    """A clip's voice as delivered: the AAC packets (data, pts, dts, duration, key frame) in samples
    (1/RATE), the encoder's extradata, and what was measured (the master's and the decoded file's)."""

    extradata: bytes
    packets: list[tuple[bytes, int, int, int, bool]]
    measured: dict

    def av_packets(self) -> list:
        import av

        out = []
        for data, pts, dts, duration, key in self.packets:
            p = av.Packet(data)
            p.pts, p.dts, p.duration = pts, dts, duration
            p.time_base = Fraction(1, RATE)
            p.is_keyframe = key
            out.append(p)
        return out


def delivery_key(raw: np.ndarray) -> str:
    """The digest of the mixed track and of everything that masters and encodes it."""
    from .facts import library_versions

    h = hashlib.sha256(AUDIO_CACHE_FORMAT.encode())
    for part in (";".join(library_versions()).encode(), Path(__file__).read_bytes(),
                 *(Path(m.__file__).read_bytes() for m in (mastering, settings)),
                 str(RATE).encode(), np.ascontiguousarray(raw, dtype=np.float64).tobytes()):
        h.update(hashlib.sha256(part).digest())
    return h.hexdigest()[:40]


def deliver(raw: np.ndarray, reuse: bool = True) -> Delivery:
    """``raw`` (the clip's mixed voice) mastered (``voice.master``) and encoded within the delivery
    limits (:func:`encode_delivered`); from the cache when the same track was delivered before
    (``reuse=False``, or the cache's ``--force`` mode: made afresh, and the entry refreshed).  An entry that
    does not unpickle to a delivery is dropped and the track delivered again."""
    from clipcache import store

    key = delivery_key(raw)
    kept = store().get("audio", key) if reuse else None
    if kept is not None:
        try:
            hit = pickle.loads(kept)
            if isinstance(hit, Delivery):
                return hit
        except Exception:  # another format's pickle
            pass
        store().drop("audio", key)
    track, measured = voice.master(raw)
    cc, pkts, delivered = encode_delivered(track)
    d = Delivery(bytes(cc.extradata or b""), [(bytes(p), p.pts, p.dts, p.duration, bool(p.is_keyframe)) for p in pkts],
                 {**measured, **delivered})
    store().put("audio", key, pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL))
    return d


def mux_with_audio(video_mp4: Path, track: np.ndarray, dst: Path) -> dict:
    """Write ``dst``: the H.264 packets of ``video_mp4`` copied as they are, plus ``track`` as AAC
    (within the delivery limits: :func:`encode_delivered`).  Written under a temporary name and moved
    into place.  Returns what was measured on the decoded AAC."""
    cc, apkts, measured = encode_delivered(track)
    mux_packets(video_mp4, bytes(cc.extradata or b""), apkts, dst)
    return measured


def mux_packets(video_mp4: Path, extradata: bytes, apkts: list, dst: Path) -> None:
    """Write ``dst``: the H.264 packets of ``video_mp4`` copied as they are, and the AAC packets
    ``apkts`` (timestamps in 1/RATE) interleaved by time; under a temporary name, moved into place."""
    import av

    tmp = dst.with_name(dst.name + ".partial.mp4")
    with av.open(str(video_mp4)) as src, av.open(str(tmp), "w", format="mp4") as out:
        vin = src.streams.video[0]
        vout = out.add_stream_from_template(vin)
        aout = out.add_stream("aac", rate=RATE, layout="mono")
        aout.codec_context.extradata = extradata
        aout.time_base = Fraction(1, RATE)
        vpkts = [p for p in src.demux(vin) if p.dts is not None]
        ai = 0
        for p in vpkts:
            t = float(p.dts * vin.time_base)
            while ai < len(apkts) and apkts[ai].pts is not None and apkts[ai].pts / RATE <= t:
                q = apkts[ai]
                q.stream = aout
                out.mux(q)
                ai += 1
            p.stream = vout
            out.mux(p)
        for q in apkts[ai:]:
            q.stream = aout
            out.mux(q)
    os.replace(tmp, dst)


def decode_audio(mp4: Path, seconds: float) -> np.ndarray:
    """A clip's audio as mono float at ``RATE``, exactly ``seconds`` long (silence if it has none)."""
    import av

    n = int(round(seconds * RATE))
    parts = []
    with av.open(str(mp4)) as c:
        if c.streams.audio:
            rs = av.AudioResampler(format="flt", layout="mono", rate=RATE)
            for frame in c.decode(c.streams.audio[0]):
                parts.extend(f.to_ndarray().reshape(-1) for f in rs.resample(frame))
            parts.extend(f.to_ndarray().reshape(-1) for f in rs.resample(None))
    a = np.concatenate(parts) if parts else np.zeros(0, np.float32)
    return np.pad(a[:n], (0, max(0, n - len(a)))).astype(np.float32)


def has_audio(mp4: Path) -> bool:
    import av

    with av.open(str(mp4)) as c:
        return bool(c.streams.audio)
