"""``clips present``: a presenter page that plays the lecture and stops at the end of every beat.

Writes ``OUT/Q/present/index.html``: one self-contained page (its script, styles and a subset
of Inter inline; nothing fetched from the network) that references the rendered clips and
thumbnails by relative path (``../NN_slug.mp4``, ``../NN_slug.png``), so it works opened from
disk (``file://``) and from any static web server that serves ``OUT/Q/``.

The beats come from the manifest (``"beats": [{key, start, duration, text}]``, written by the
render); a clip rendered before beats were recorded falls back to its subtitles, whose cues
are the beats (one caption a beat, timed by the clock).  Beat boundaries are whole frames,
so the page works in frame numbers: beat ``k`` *stops* on frame ``round(end * fps) - 1``,
the last frame shown before the next beat starts, and *starts* on ``round(start * fps)``.

Captions are the clips' subtitles as WebVTT, inlined in the page: Chromium refuses to load a
``<track>`` file from ``file://`` ("'file:' URLs are treated as unique security origins"),
so the page hands each ``<track>`` a ``blob:`` URL of its inline text.

Also writes ``OUT/Q/lecture-chapters.txt`` (``0:00 Title``, one line a clip, the format video
sites read) when it is missing; ``clips lecture`` writes it with the lecture.
"""

from __future__ import annotations

import base64
import io
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from importlib import resources
from pathlib import Path

from ..catalog import CLIPS
from .chapters import CHAPTERS, chapter_stamp, write_chapters
from .pipeline import PARTIAL, LectureError, Manifest, OutputLock

PRESENT_DIR = "present"
FONTS = (("Inter-Regular.otf", 400), ("Inter-SemiBold.otf", 600))


# ------------------------------------------------------------------------------ what was rendered
@dataclass(frozen=True)
class Video:
    """Timing facts of one rendered clip, read from its packets (no decoding)."""

    frame: Fraction  # seconds a frame lasts
    t0: Fraction  # presentation time of the first frame
    frames: int
    length: Fraction  # end of the last frame: the clip's place in the joined lecture


def probe(mp4: Path) -> Video:
    import av
    from collections import Counter

    with av.open(str(mp4)) as c:
        s = c.streams.video[0]
        packets = [(p.pts, p.duration or 0) for p in c.demux(s) if p.pts is not None and p.size]
        if not packets:
            raise LectureError(f"{mp4.name} holds no video frames; re-render it with `clips render --force`")
        packets.sort()
        # the usual frame length (the muxer may shorten one frame by a few ticks)
        steps = Counter(d for _, d in packets if d) or Counter(b - a for (a, _), (b, _) in zip(packets, packets[1:]))
        step = steps.most_common(1)[0][0] if steps else 1
        end = max(p + (d or step) for p, d in packets)  # as `clips lecture` measures a clip
        tb = s.time_base
        return Video(Fraction(step) * tb, Fraction(packets[0][0]) * tb, len(packets), Fraction(end) * tb)


def missing_clips(qdir: Path, quality: str) -> list[str]:
    manifest = Manifest(qdir, quality)
    return [c.name for c in CLIPS
            if not manifest.entry(c) or not all((qdir / f"{c.name}.{ext}").exists() for ext in ("mp4", "png"))]


def _check_rendered(qdir: Path, quality: str) -> None:
    missing = missing_clips(qdir, quality)
    if len(missing) == len(CLIPS):
        raise LectureError(f"nothing rendered at quality {quality} in {qdir} (missing: {', '.join(missing)}); "
                           f"run `clips render -q {quality}` first")
    if missing:
        raise LectureError(f"{len(missing)} clip(s) not rendered at quality {quality} in {qdir}: {', '.join(missing)}; "
                           f"run `clips render -q {quality}` first")


def _srt_cues(path: Path) -> list:
    import srt

    if not path.exists():
        return []
    return list(srt.parse(path.read_text(encoding="utf-8")))


def beats_of(entry: dict, srt_path: Path) -> list[dict]:
    """``[{key, start, end, text}]`` in seconds: the manifest's beats, else the subtitle cues."""
    beats = entry.get("beats") or []
    if beats:
        return [{"key": b["key"], "start": float(b["start"]), "end": float(b["start"]) + float(b["duration"]),
                 "text": b["text"], "describe": b.get("describe", "")} for b in beats]
    return [{"key": f"cue{i}", "start": c.start.total_seconds(), "end": c.end.total_seconds(), "text": c.content}
            for i, c in enumerate(_srt_cues(srt_path), 1)]


def _vtt_time(seconds: float) -> str:
    ms = int(round(max(seconds, 0.0) * 1000))
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def srt_to_vtt(srt_text: str, duration: float | None = None) -> str:
    """WebVTT of an ``.srt``: same cues, ``.`` before the milliseconds, ends clipped to ``duration``."""
    import srt

    out = ["WEBVTT", ""]
    for i, c in enumerate(srt.parse(srt_text), 1):
        a, b = c.start.total_seconds(), c.end.total_seconds()
        if duration is not None:
            b = min(b, duration)
        if b <= a:
            continue
        # cue text is markup: escape & < >, and it may not hold a blank line
        text = "\n".join(ln for ln in c.content.splitlines() if ln.strip())
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        out += [str(i), f"{_vtt_time(a)} --> {_vtt_time(b)}", text, ""]
    return "\n".join(out)


# ------------------------------------------------------------------------------ the deck
def build_deck(qdir: Path, quality: str) -> dict:
    """Everything the page needs about the rendered lecture, in lecture order."""
    _check_rendered(qdir, quality)
    manifest = Manifest(qdir, quality)
    clips, t = [], Fraction(0)
    for c in CLIPS:
        entry = clip_deck(c, manifest.entry(c), qdir)
        clips.append({**entry, "at": round(float(t), 6)})
        t += Fraction(entry["length"])
    return {"quality": quality, "clips": clips, "total": round(float(t), 6)}


def clip_deck(c, entry: dict, qdir: Path, src: str | None = None, thumb: str | None = None) -> dict:
    """One rendered clip as the page plays it: frame timing, beats (first and stop frames), caption and
    description tracks; ``src`` and ``thumb`` are where the page finds its video and thumbnail
    (``../NN_slug.mp4`` beside the presenter by default).  ``length`` is its place in the joined lecture."""
    v = probe(qdir / f"{c.name}.mp4")
    srt_path = qdir / f"{c.name}.srt"
    duration = float(v.length - v.t0)
    beats = []
    for b in beats_of(entry, srt_path):
        # beats begin and end on frame boundaries; the stop is the last frame before the end
        first = int(round((b["start"] - float(v.t0)) / float(v.frame)))
        stop = int(round((b["end"] - float(v.t0)) / float(v.frame))) - 1
        first, stop = max(0, min(first, v.frames - 1)), max(0, min(stop, v.frames - 1))
        if beats and stop <= beats[-1]["s"]:
            continue  # shorter than a frame: nothing to stop on
        beats.append({"key": b["key"], "start": round(b["start"], 6), "end": round(b["end"], 6),
                      "b": min(first, stop), "s": stop, "text": b["text"], "describe": b.get("describe", "")})
    if not beats:  # a clip without narration still plays, to its last frame
        beats = [{"key": "all", "start": 0.0, "end": duration, "b": 0, "s": v.frames - 1, "text": ""}]
    # the clip's own WebVTT tracks (the render writes them beside the .srt); an older render: from the .srt
    vtt_path, dvtt_path = qdir / f"{c.name}.vtt", qdir / f"{c.name}.descriptions.vtt"
    if vtt_path.exists():
        vtt = vtt_path.read_text(encoding="utf-8")
    else:
        vtt = srt_to_vtt(srt_path.read_text(encoding="utf-8"), duration) if srt_path.exists() else "WEBVTT\n"
    dvtt = dvtt_path.read_text(encoding="utf-8") if dvtt_path.exists() else "WEBVTT\n"
    return {
        "number": c.number, "name": c.name, "title": c.title, "section": c.section,
        "src": src or f"../{c.name}.mp4", "thumb": thumb or f"../{c.name}.png",
        "fd": float(v.frame), "t0": float(v.t0), "frames": v.frames, "duration": round(duration, 6),
        "length": float(v.length), "beats": beats, "vtt": vtt, "dvtt": dvtt,
    }


def lecture_chapters(deck: dict) -> list[tuple[float, str]]:
    return [(c["at"], c["title"]) for c in deck["clips"]]


# ------------------------------------------------------------------------------ the page
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def font_faces(text: str) -> str:
    """``@font-face`` rules with Inter (from ``assets/fonts``) subset to what the page can show, inline."""
    return _font_faces(frozenset(text))


@lru_cache(maxsize=8)
def _font_faces(text: frozenset) -> str:  # kept per set of characters: `clips studio` pages the deck again and again
    from fontTools import subset
    from fontTools.ttLib import TTFont

    from mathcore.config import ASSETS_DIR

    chars = set(text)
    chars.update(map(chr, range(0x20, 0x7F)))
    chars.update(map(chr, range(0xA0, 0x180)))
    chars.update(map(chr, range(0x2010, 0x2060)))  # dashes, quotes, bullets, ellipsis
    chars.update("→←↑↓⇧⏎✓×−·§")
    rules = []
    for fname, weight in FONTS:
        path = ASSETS_DIR / "fonts" / fname
        if not path.exists():
            continue
        opts = subset.Options()
        opts.layout_features = ["*"]  # keep tnum (tabular figures for the timers)
        opts.name_IDs = ["*"]
        opts.notdef_outline = True
        font = TTFont(str(path))
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=[ord(ch) for ch in chars])
        sub.subset(font)
        buf = io.BytesIO()
        font.save(buf)
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        rules.append("@font-face{font-family:'Inter';font-style:normal;font-display:block;"
                     f"font-weight:{weight};src:url(data:font/otf;base64,{data}) format('opentype');}}")
    return "\n".join(rules)


def _json_for_script(data) -> str:
    # safe inside <script type="application/json">: no "</" can end the element
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def render_page(deck: dict, heading: str, extra: dict[str, str] | None = None) -> str:
    """The presenter's page for ``deck``; ``extra`` fills its extension points (``css``, ``app``: markup
    beside the picture, ``body``: markup and scripts after the presenter's), as ``clips studio`` does."""
    import html

    import re

    css, js, page = _asset("presenter.css"), _asset("presenter.js"), _asset("presenter.html")
    extra = extra or {}
    text = heading + "".join(c["title"] + c["section"] + "".join(b["text"] + b.get("describe", "") for b in c["beats"])
                             for c in deck["clips"]) + "".join(extra.values())
    parts = {
        "{{TITLE}}": html.escape(heading),
        "/*{{FONTS}}*/": font_faces(text + css + page + js),
        "/*{{CSS}}*/": css,
        "/*{{EXTRA_CSS}}*/": extra.get("css", ""),
        "<!--{{EXTRA_APP}}-->": extra.get("app", ""),
        "<!--{{EXTRA_BODY}}-->": extra.get("body", ""),
        "{{DECK}}": _json_for_script({**deck, "heading": heading}),
        "/*{{JS}}*/": js,
    }
    # one pass, so nothing inserted (a narration line, say) is ever taken for a placeholder
    return re.sub("|".join(re.escape(k) for k in parts), lambda m: parts[m.group(0)], page)


def write_page(qdir: Path, deck: dict, heading: str) -> Path:
    pdir = qdir / PRESENT_DIR
    pdir.mkdir(exist_ok=True)
    for p in pdir.glob(f"*{PARTIAL}"):
        p.unlink(missing_ok=True)
    dst = pdir / "index.html"
    tmp = dst.with_name(dst.name + PARTIAL)
    tmp.write_text(render_page(deck, heading), encoding="utf-8")
    os.replace(tmp, dst)
    return dst


def _heading() -> str:
    from mathcore.config import load_config

    cfg = load_config()
    return f"Lecture {cfg.number} · {cfg.title}"


def cmd_present(args, quality: str) -> int:
    out = Path(args.out).resolve()
    qdir = out / quality
    heading = _heading()  # a bad config is one line before anything is written
    if not qdir.is_dir():
        _check_rendered(qdir, quality)
    with OutputLock(out):
        deck = build_deck(qdir, quality)
        page = write_page(qdir, deck, heading)
        chapters = qdir / CHAPTERS
        wrote = not chapters.exists()
        if wrote:
            write_chapters(chapters, lecture_chapters(deck))
    n_beats = sum(len(c["beats"]) for c in deck["clips"])
    print(f"present: {len(deck['clips'])} clips, {n_beats} beats, {chapter_stamp(deck['total'])} -> {page}"
          + (f" (and {chapters.name})" if wrote else ""))
    print("  open it in a browser; → Space PageDown: next beat · ← PageUp: back · number+Enter: clip · "
          "O: overview · S: speaker view · C: captions · D: audio descriptions · F: full screen · ?: all keys")
    return 0

