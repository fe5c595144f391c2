"""Text contrast at every beat (WCAG 2.1 SC 1.4.3, AA): the audit's check of what is behind each text.

The audit (``scenes.audit.recording.snapshot``) records for each visible text its colour, opacity, size,
weight and drawing order, and for each filled shape its fill colour and opacity.  Here, for each
text that is the subject or active (not dimmed into the background: opacity at least
``audit.DIMMED``; WCAG exempts inactive text), the backdrop is the frame's background with every
filled shape drawn before the text that covers the text's centre composited over it in drawing
order, each with its own opacity; the text's colour is composited over that backdrop with the
text's opacity.  The contrast ratio of the two must be at least 4.5:1, or 3:1 for large text:
18 pt, or 14 pt bold, at the reference size, a 1920×1080 frame shown at 96 dpi (1 pt = 4/3 px).

Pure NumPy: the relative luminance and contrast ratio of WCAG 2.x (sRGB, linearised).
"""

from __future__ import annotations

import numpy as np

NORMAL_MIN = 4.5
LARGE_MIN = 3.0
REFERENCE_HEIGHT = 1080  # px: the frame the sizes refer to
AUDIT_HEIGHT = 480  # px: the audit's x-heights are measured at 854x480
XHEIGHT_RATIO = 0.546  # Inter's x-height over its em (1118/2048); Typst's math font is smaller, so this errs strict
LARGE_PX = 18 * 4 / 3  # 18 pt = 24 px
LARGE_BOLD_PX = 14 * 4 / 3  # 14 pt bold = 18.7 px


def relative_luminance(rgb) -> float:
    """WCAG 2.x relative luminance of an sRGB colour given as three floats in [0, 1]."""
    c = np.clip(np.asarray(rgb, dtype=float)[:3], 0.0, 1.0)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2])


def ratio(a, b) -> float:
    """WCAG contrast ratio of two colours, from 1 to 21."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def over(top, alpha: float, bottom) -> np.ndarray:
    """``top`` at opacity ``alpha`` composited over ``bottom`` (as the renderer does, in sRGB)."""
    a = float(np.clip(alpha, 0.0, 1.0))
    return a * np.asarray(top, dtype=float)[:3] + (1 - a) * np.asarray(bottom, dtype=float)[:3]


def em_px(xheight_px_at_audit: float) -> float:
    """A text's em size in px at the reference frame, from its x-height at the audit's frame."""
    return xheight_px_at_audit * REFERENCE_HEIGHT / AUDIT_HEIGHT / XHEIGHT_RATIO


def is_large(xheight_px_at_audit: float, bold: bool) -> bool:
    size = em_px(xheight_px_at_audit)
    return size >= LARGE_PX - 1e-6 or (bold and size >= LARGE_BOLD_PX - 1e-6)


def required(item) -> float:
    return LARGE_MIN if is_large(item.xheight_px, getattr(item, "bold", False)) else NORMAL_MIN


def _covers(box, x: float, y: float) -> bool:
    l, b, r, t = box
    return l <= x <= r and b <= y <= t


def backdrop(text, items, bg) -> np.ndarray:
    """What is behind ``text``: ``bg`` with each filled shape drawn before it that covers its centre."""
    l, b, r, t = text.box
    cx, cy = (l + r) / 2, (b + t) / 2
    col = np.asarray(bg, dtype=float)[:3]
    for g in sorted((i for i in items if i.kind == "graphic" and i.filled and i.fill_rgb is not None
                     and i.z < text.z and _covers(i.box, cx, cy)), key=lambda i: i.z):
        col = over(g.fill_rgb, g.fill_opacity, col)
    return col


def problems(record, bg, dimmed: float) -> list[str]:
    """A message for every active text of a beat record whose contrast is under its minimum."""
    out = []
    for it in record.items:
        if it.kind != "text" or it.opacity < dimmed or it.rgb is None:
            continue
        back = backdrop(it, record.items, bg)
        fore = over(it.rgb, it.opacity, back)
        r, need = ratio(fore, back), required(it)
        if r < need - 1e-9:
            out.append(f"text {it.name} ({_hex(fore)}) on {_hex(back)} has a contrast of {r:.2f}:1 "
                       f"(needs {need:g}:1{' for large text' if need == LARGE_MIN else ''})")
    return out


def _hex(rgb) -> str:
    c = np.clip(np.round(np.asarray(rgb, dtype=float)[:3] * 255), 0, 255).astype(int)
    return "#" + "".join(f"{v:02X}" for v in c)
