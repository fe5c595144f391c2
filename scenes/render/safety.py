"""Flashes on rendered frames (WCAG 2.1 SC 2.3.1, three flashes or below threshold).

A *flash* is a pair of opposing changes in relative luminance of at least 10 % of the maximum
where the darker state is below 0.80 (general flash), or a pair of opposing transitions to or
from a saturated red (R/(R+G+B) >= 0.8) each changing (R−G−B)·320 by more than 20 (red flash).
It counts only when it covers a large enough area at once: at least 25 % of a 10° field of view,
which on a 1024×768 screen seen from a typical distance is a 341×256 window, a third of the
screen's width and height; so here a flash must cover a quarter of some window a third of the
frame's width and height.

Every frame is reduced to a grid of cells (the mean of each cell's pixels, in linear light); each
cell's signal goes through a hysteresis detector that registers a transition when it has moved by
the threshold from its last extreme in the opposite direction.  A frame transition of one sign is
registered when cells with that transition, in the frame or the one before, cover a quarter of the
worst window; a flash is two opposing frame transitions; the result is the largest number of
flashes in any one second.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAX_FLASHES = 3  # in any one second
GRID = (27, 48)  # cells (rows, columns)
AREA = 0.25  # of the window
WINDOW = 1 / 3  # of the frame's width and height


@dataclass
class FlashReport:
    fps: float
    frames: int
    general: int  # most general flashes in any one second
    red: int  # most red flashes in any one second
    worst_at: float  # seconds: start of the worst second

    @property
    def ok(self) -> bool:
        return self.general <= MAX_FLASHES and self.red <= MAX_FLASHES


def _linear(rgb: np.ndarray) -> np.ndarray:
    c = rgb.astype(np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _cells(frame: np.ndarray, grid=GRID) -> np.ndarray:
    """(rows, cols, 3) mean sRGB in [0, 1] per cell."""
    h, w, _ = frame.shape
    r, c = grid
    a, b = h // r, w // c
    # summed as integers, a cell's rows first (contiguous), then its columns: 4x faster than a float
    # mean over both axes of a 5-d view, and the same means to within 1e-15
    s = frame[: r * a, : c * b].reshape(r, a, c * b * 3).sum(axis=1, dtype=np.uint32)
    return s.reshape(r, c, b, 3).sum(axis=2) / (a * b * 255.0)


def signals(frames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per frame and cell: relative luminance, the red-flash value (R−G−B)·320 (at least 0), and
    whether the cell is a saturated red."""
    lum, red, sat = [], [], []
    for fr in frames:
        cells = _cells(fr)
        lin = _linear(np.round(cells * 255))
        lum.append(0.2126 * lin[..., 0] + 0.7152 * lin[..., 1] + 0.0722 * lin[..., 2])
        R, G, B = cells[..., 0], cells[..., 1], cells[..., 2]
        red.append(np.maximum(0.0, (R - G - B) * 320))
        sat.append(R / np.maximum(R + G + B, 1e-9) >= 0.8)
    return np.array(lum), np.array(red), np.array(sat)


def transitions(x: np.ndarray, threshold: float, dark_below: float | None = None, gate=None) -> np.ndarray:
    """(frames, rows, cols) of +1 / −1 where a cell's signal completed a rise / fall of at least
    ``threshold`` from its last extreme (the darker end below ``dark_below``; ``gate``: where the
    transition may count, e.g. a saturated red at one end)."""
    n = len(x)
    out = np.zeros(x.shape, dtype=np.int8)
    if n == 0:
        return out
    hi = x[0].copy()
    lo = x[0].copy()
    state = np.zeros(x.shape[1:], dtype=np.int8)
    g_hi = gate[0].copy() if gate is not None else None
    g_lo = gate[0].copy() if gate is not None else None
    for t in range(1, n):
        v = x[t]
        if gate is not None:
            g_hi = np.where(v >= hi, gate[t], g_hi)
            g_lo = np.where(v <= lo, gate[t], g_lo)
        hi = np.maximum(hi, v)
        lo = np.minimum(lo, v)
        rise = (state != 1) & (v - lo >= threshold)
        fall = (state != -1) & (hi - v >= threshold)
        if dark_below is not None:
            rise &= lo < dark_below
            fall &= v < dark_below
        if gate is not None:
            rise &= g_lo | gate[t]
            fall &= g_hi | gate[t]
        out[t][rise] = 1
        out[t][fall] = -1
        state = np.where(rise, 1, np.where(fall, -1, state))
        hi = np.where(rise | fall, v, hi)
        lo = np.where(rise | fall, v, lo)
    return out


def _window_share(mask: np.ndarray) -> float:
    """The largest share of any window (a third of the grid each way) that ``mask`` covers."""
    r, c = mask.shape
    wr, wc = max(1, round(r * WINDOW)), max(1, round(c * WINDOW))
    s = np.pad(mask.astype(np.float64), ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    win = s[wr:, wc:] - s[:-wr, wc:] - s[wr:, :-wc] + s[:-wr, :-wc]
    return float(win.max() / (wr * wc))


def frame_transitions(cell_tr: np.ndarray) -> list[tuple[int, int]]:
    """``[(frame, sign)]`` where cells covering a quarter of some window changed the same way
    (in that frame or the one before)."""
    out = []
    last = 0
    for t in range(len(cell_tr)):
        for sign in (1, -1):
            m = cell_tr[t] == sign
            if t > 0:
                m = m | (cell_tr[t - 1] == sign)
            if _window_share(m) >= AREA and sign != last:
                out.append((t, sign))
                last = sign
                break
    return out


def most_per_second(events: list[tuple[int, int]], fps: float) -> tuple[int, int]:
    """(most flashes in any one second, the frame that second starts at): a flash is two opposing transitions."""
    frames = [t for t, _ in events]
    best, at, j = 0, 0, 0
    span = fps  # frames in one second
    for i in range(len(frames)):
        while frames[i] - frames[j] >= span:
            j += 1
        n = (i - j + 1) // 2
        if n > best:
            best, at = n, frames[j]
    return best, at


def analyse(frames, fps: float) -> FlashReport:
    frames = list(frames)
    lum, red, sat = signals(frames)
    general = frame_transitions(transitions(lum, 0.1, dark_below=0.8))
    reds = frame_transitions(transitions(red, 20.0, gate=sat))
    g, g_at = most_per_second(general, fps)
    r, r_at = most_per_second(reds, fps)
    return FlashReport(fps, len(frames), g, r, (g_at if g >= r else r_at) / fps)


def analyse_video(mp4: Path, width: int = 384) -> FlashReport:
    """Decode ``mp4`` (scaled to ``width`` px: the area test does not need more) and analyse it."""
    import av

    with av.open(str(mp4)) as c:
        s = c.streams.video[0]
        fps = float(s.average_rate or s.guessed_rate)
        h = round(s.codec_context.height * width / s.codec_context.width)
        frames = [f.to_ndarray(format="rgb24", width=width, height=h) for f in c.decode(s)]
    return analyse(frames, fps)
