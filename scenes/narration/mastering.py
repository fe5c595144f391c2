"""The clip's track: the beats' lines mixed at their times, measured (BS.1770 loudness, true peak) and
mastered to the delivery targets with a look-ahead limiter."""

from __future__ import annotations

import numpy as np

from .settings import LIMIT_DBTP, RATE, TARGET_LUFS, TRUE_PEAK_DBTP, Line


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
