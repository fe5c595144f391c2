"""Assemble rendered clips: the joined lecture and contact sheets.

``clips lecture`` joins ``out/<q>/NN_slug.mp4`` in lecture order into ``lecture.mp4``
*without re-encoding* (PyAV copies the H.264 packets and shifts their timestamps), adds
one chapter per clip named after it, merges the clips' subtitles, time-shifted, into
``lecture.srt`` and embeds them as a ``mov_text`` subtitle track.

``clips sheet`` writes ``sheets/NN_slug.png`` (frames across a clip's duration, with time
stamps) and ``sheets/deck.png`` (every clip's thumbnail) for reviewing at a glance.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..catalog import CLIPS, Clip, resolve
from .chapters import CHAPTERS, write_chapters
from .pipeline import PARTIAL, LectureError, Manifest, OutputLock



@dataclass(frozen=True)
class Segment:
    clip: Clip
    mp4: Path
    srt: Path | None
    start: Fraction  # seconds into the lecture
    duration: Fraction


def _rendered(qdir: Path, quality: str) -> list[Clip]:
    manifest = Manifest(qdir, quality)
    missing = [c.name for c in CLIPS if not manifest.entry(c) or not (qdir / f"{c.name}.mp4").exists()]
    if missing:
        raise LectureError(
            f"{len(missing)} clip(s) not rendered at quality {quality} in {qdir}: {', '.join(missing)}; "
            f"run `clips render -q {quality}` first"
        )
    return list(CLIPS)


def _video_length(path: Path) -> tuple[Fraction, object]:
    """Exact length of a clip's video stream (last frame's end) and the stream's codec facts."""
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        end = 0
        for p in c.demux(s):
            if p.pts is not None and p.duration is not None:
                end = max(end, p.pts + p.duration)
        cc = s.codec_context
        # what must match to copy packets into one stream: codec, size, time base, pixel
        # format and the decoder set-up (SPS/PPS in extradata)
        facts = (cc.name, cc.width, cc.height, s.time_base, cc.pix_fmt, bytes(cc.extradata or b""))
        return Fraction(end) * s.time_base, facts


def plan_segments(qdir: Path, quality: str) -> list[Segment]:
    segs, t, first = [], Fraction(0), None
    for c in _rendered(qdir, quality):
        mp4 = qdir / f"{c.name}.mp4"
        length, facts = _video_length(mp4)
        if first is None:
            first = facts
        elif facts != first:
            raise LectureError(f"{mp4.name} was encoded differently ({facts[:5]}) from the first clip ({first[:5]}); "
                               f"re-render with `clips render -q {quality} --force`")
        srt = qdir / f"{c.name}.srt"
        segs.append(Segment(c, mp4, srt if srt.exists() else None, t, length))
        t += length
    return segs


def merged_subtitles(segs: list[Segment]) -> list:
    """Every clip's subtitles shifted by the clip's start, renumbered in order."""
    import srt

    subs = []
    for seg in segs:
        if seg.srt is None:
            continue
        shift = timedelta(seconds=float(seg.start))
        for s in srt.parse(seg.srt.read_text(encoding="utf-8")):
            end = min(s.end, timedelta(seconds=float(seg.duration)))
            subs.append(srt.Subtitle(index=0, start=s.start + shift, end=end + shift, content=s.content))
    for i, s in enumerate(subs, 1):
        s.index = i
    return subs


def _ms(td) -> int:
    return int(round(td.total_seconds() * 1000))


def _mov_text(text: str) -> bytes:
    b = text.encode("utf-8")
    return struct.pack(">H", len(b)) + b


def write_lecture(segs: list[Segment], dst_mp4: Path, dst_srt: Path) -> None:
    import av
    import srt

    subs = merged_subtitles(segs)
    tmp_srt = dst_srt.with_name(dst_srt.name + PARTIAL)
    tmp_srt.write_text(srt.compose(subs, reindex=False), encoding="utf-8")

    tmp = dst_mp4.with_name(dst_mp4.name + PARTIAL)
    ms = Fraction(1, 1000)
    total_ms = int(round(sum(s.duration for s in segs) * 1000))
    # one continuous audio track: each clip's audio cut or padded to its video's exact length,
    # joined, encoded once (no AAC priming or padding at the joins), when any clip has a voice
    from .audio import RATE, decode_audio, encode_delivered, has_audio

    apkts, acc = [], None
    if any(has_audio(seg.mp4) for seg in segs):
        starts = [int(round(seg.start * RATE)) for seg in segs] + [int(round(sum(s.duration for s in segs) * RATE))]
        track = np.concatenate([decode_audio(seg.mp4, (b - a) / RATE) for seg, a, b in zip(segs, starts, starts[1:])])
        acc, apkts, _measured = encode_delivered(track)  # the joins and the encoder must not push peaks over
    with av.open(str(tmp), "w", format="mp4") as out:
        with av.open(str(segs[0].mp4)) as first:
            vout = out.add_stream_from_template(first.streams.video[0])
        aout = None
        if acc is not None:
            aout = out.add_stream("aac", rate=RATE, layout="mono")
            aout.codec_context.extradata = acc.extradata
            aout.time_base = Fraction(1, RATE)
            aout.metadata["language"] = "eng"
        a_iter = iter(apkts)
        a_next = next(a_iter, None)
        sout = out.add_mux_stream("mov_text", time_base=ms)
        sout.metadata["language"] = "eng"
        sout.metadata["title"] = "Narration"
        out.set_chapters([
            {"id": i + 1, "start": int(round(seg.start * 1000)),
             "end": int(round((seg.start + seg.duration) * 1000)), "time_base": ms,
             "metadata": {"title": f"{seg.clip.number:02d} {seg.clip.title}"}}
            for i, seg in enumerate(segs)
        ])

        # subtitle samples: text for each caption, empty samples in the gaps
        sub_packets, t = [], 0
        for s in subs:
            a, b = _ms(s.start), _ms(s.end)
            if a > t:
                sub_packets.append((t, a - t, b"\x00\x00"))
            sub_packets.append((a, b - a, _mov_text(s.content)))
            t = b
        if t < total_ms:
            sub_packets.append((t, total_ms - t, b"\x00\x00"))
        sub_iter = iter(sub_packets)
        pending = next(sub_iter, None)

        for seg in segs:
            with av.open(str(seg.mp4)) as src:
                vin = src.streams.video[0]
                offset = int(seg.start / vin.time_base)
                for pkt in src.demux(vin):
                    if pkt.dts is None:
                        continue
                    # keep the subtitle and audio tracks interleaved with the video
                    now_ms = float((pkt.dts + offset) * vin.time_base * 1000)
                    while pending is not None and pending[0] <= now_ms:
                        _mux_sub(out, sout, pending)
                        pending = next(sub_iter, None)
                    while a_next is not None and a_next.pts * 1000 / RATE <= now_ms:
                        a_next.stream = aout
                        out.mux(a_next)
                        a_next = next(a_iter, None)
                    pkt.pts += offset
                    pkt.dts += offset
                    pkt.stream = vout
                    out.mux(pkt)
        while pending is not None:
            _mux_sub(out, sout, pending)
            pending = next(sub_iter, None)
        while a_next is not None:
            a_next.stream = aout
            out.mux(a_next)
            a_next = next(a_iter, None)
    import os

    os.replace(tmp, dst_mp4)
    os.replace(tmp_srt, dst_srt)


def _mux_sub(out, stream, item) -> None:
    import av

    start, dur, payload = item
    p = av.Packet(payload)
    p.pts = p.dts = start
    p.duration = dur
    p.time_base = Fraction(1, 1000)
    p.stream = stream
    out.mux(p)


def lecture_tracks(segs: list[Segment], manifest: Manifest) -> dict[str, str]:
    """The lecture's WebVTT tracks: every clip's caption events and audio descriptions, shifted to
    the clip's start (the captions are the same events as ``lecture.srt`` and the embedded track)."""
    from scenes.narration.captions import to_vtt

    caps, desc = [], []
    for seg in segs:
        entry = manifest.entry(seg.clip) or {}
        t0, end = float(seg.start), float(seg.start + seg.duration)
        for b in entry.get("beats", []):
            for a, e, text in b.get("events", []):
                caps.append((t0 + a, min(t0 + e, end), text))
        for d in entry.get("descriptions", []):
            desc.append((t0 + d["start"], min(t0 + d["end"], end), d["text"]))
    return {"lecture.vtt": to_vtt(caps), "lecture.descriptions.vtt": to_vtt(desc, "descriptions")}


def lecture_chapters(segs: list[Segment], manifest: Manifest) -> list:
    """One transcript chapter per clip, from the beats its render recorded."""
    from .transcript import chapter

    return [chapter(seg.clip, (manifest.entry(seg.clip) or {}).get("beats", []), float(seg.start)) for seg in segs]


def _heading() -> str:
    from mathcore.config import load_config

    cfg = load_config()
    return f"Lecture {cfg.number} · {cfg.title}"


def cmd_lecture(args, quality: str) -> int:
    import os

    out = Path(args.out).resolve()
    qdir = out / quality / "described" if getattr(args, "described", False) else out / quality
    heading = _heading()
    with OutputLock(out):
        segs = plan_segments(qdir, quality)
        write_lecture(segs, qdir / "lecture.mp4", qdir / "lecture.srt")
        from .transcript import write_transcripts

        write_chapters(qdir / CHAPTERS, [(float(s.start), s.clip.title) for s in segs])  # for a video site's description
        manifest = Manifest(qdir, quality)
        for name, text in lecture_tracks(segs, manifest).items():
            tmp = qdir / (name + PARTIAL)
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, qdir / name)
        write_transcripts(qdir, lecture_chapters(segs, manifest), heading)
    total = float(sum(s.duration for s in segs))
    print(f"lecture: {len(segs)} clips, {total:.1f} s, {len(merged_subtitles(segs))} subtitles -> {qdir / 'lecture.mp4'} "
          f"(and lecture.srt, lecture.vtt, lecture.descriptions.vtt, the transcripts)")
    return 0


# ------------------------------------------------------------------------------ contact sheets
def contact_sheet(mp4: Path, dst: Path, n: int = 12, cols: int = 4, width: int = 427) -> None:
    """A grid of ``n`` frames evenly spread over ``mp4``, each stamped with its time."""
    import av
    import numpy as np
    from PIL import Image, ImageDraw

    with av.open(str(mp4)) as c:
        s = c.streams.video[0]
        frames = [(float(f.pts * s.time_base), f.to_image()) for f in c.decode(s)]
    pick = np.linspace(0, len(frames) - 1, min(n, len(frames))).round().astype(int)
    w = width
    h = round(frames[0][1].height * w / frames[0][1].width)
    rows = -(-len(pick) // cols)
    sheet = Image.new("RGB", (cols * w, rows * h), "black")
    draw = ImageDraw.Draw(sheet)
    for k, i in enumerate(pick):
        t, im = frames[i]
        x, y = (k % cols) * w, (k // cols) * h
        sheet.paste(im.resize((w, h)), (x, y))
        draw.rectangle([x, y, x + 58, y + 16], fill="black")
        draw.text((x + 4, y + 2), f"{int(t // 60)}:{t % 60:05.2f}", fill="white")
    tmp = dst.with_name(dst.name + PARTIAL)
    sheet.save(tmp, format="PNG")
    import os

    os.replace(tmp, dst)


def deck_sheet(qdir: Path, clips: list[Clip], dst: Path, cols: int = 4, width: int = 320) -> None:
    """Every clip's final-frame thumbnail with its name, in lecture order."""
    from PIL import Image, ImageDraw

    thumbs = [(c, Image.open(qdir / f"{c.name}.png").convert("RGB")) for c in clips]
    h = round(thumbs[0][1].height * width / thumbs[0][1].width)
    rows = -(-len(thumbs) // cols)
    sheet = Image.new("RGB", (cols * width, rows * (h + 18)), "black")
    draw = ImageDraw.Draw(sheet)
    for k, (c, im) in enumerate(thumbs):
        x, y = (k % cols) * width, (k // cols) * (h + 18)
        sheet.paste(im.resize((width, h)), (x, y + 18))
        draw.text((x + 4, y + 3), f"{c.number:02d} {c.title}", fill="white")
    tmp = dst.with_name(dst.name + PARTIAL)
    sheet.save(tmp, format="PNG")
    import os

    os.replace(tmp, dst)


def cmd_sheet(args, quality: str) -> int:
    out = Path(args.out).resolve()
    qdir = out / quality
    clips = resolve(args.names)
    with OutputLock(out):
        manifest = Manifest(qdir, quality)
        missing = [c.name for c in clips if not manifest.entry(c)]
        if missing:
            raise LectureError(f"not rendered at quality {quality}: {', '.join(missing)}; run `clips render -q {quality}` first")
        sheets = qdir / "sheets"
        sheets.mkdir(exist_ok=True)
        for c in clips:
            contact_sheet(qdir / f"{c.name}.mp4", sheets / f"{c.name}.png")
            if getattr(args, "beats", False):
                beats = manifest.entry(c).get("beats", [])
                ends = [b["start"] + b["duration"] for b in beats] or None
                keys = [b.get("key", "") for b in beats] or None
                beat_frames(qdir / f"{c.name}.mp4", qdir / f"{c.name}.srt", sheets / c.name, ends, keys)
                if beats:
                    _write_text(sheets / c.name / "beats.txt", beat_notes(c, beats))
        deck_sheet(qdir, clips, sheets / "deck.png")
    extra = " and full-size frames at the end of every beat" if getattr(args, "beats", False) else ""
    print(f"sheets: {len(clips)} clip sheet(s), deck.png{extra} -> {sheets}")
    return 0


def beat_notes(clip, beats: list[dict]) -> str:
    """What a reviewer reads beside the beat frames (``../shared/REVIEW.md``): each beat's span, what the
    narration says and what the audio description adds."""
    lines = [f"{clip.name}: {clip.title}", ""]
    for k, b in enumerate(beats):
        end = b["start"] + b["duration"]
        lines.append(f"beat {k + 1:02d} {b.get('key', '')}  {b['start']:.2f}-{end:.2f} s")
        lines.append(f"  SAYS: {b.get('text', '')}")
        if b.get("describe"):
            lines.append(f"  DESCRIBED: {b['describe']}")
        lines.append("")
    return "\n".join(lines)


def _write_text(dst: Path, text: str) -> None:
    import os

    tmp = dst.with_name(dst.name + PARTIAL)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, dst)


def beat_frames(mp4: Path, srt_path: Path, folder: Path, ends: list[float] | None = None,
                keys: list[str] | None = None) -> list[Path]:
    """Full-size PNGs of the last frame of every beat (``ends``: the manifest's beat ends; a render
    without them: where each subtitle ends): ``folder/beat_NN_key.png`` (``beat_NN.png`` without keys)."""
    import os

    import av
    import srt

    if ends is None:
        cues = list(srt.parse(srt_path.read_text(encoding="utf-8"))) if srt_path.exists() else []
        ends = [c.end.total_seconds() for c in cues]
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("beat_*.png"):
        old.unlink()
    with av.open(str(mp4)) as cont:
        st = cont.streams.video[0]
        frames = [(float(f.pts * st.time_base), f.to_image()) for f in cont.decode(st)]
    times = np.array([t for t, _ in frames])
    out = []
    for k, end in enumerate(ends):
        i = int(np.searchsorted(times, end - 1e-6)) - 1  # the last frame shown before the cue ends
        i = min(max(i, 0), len(frames) - 1)
        dst = folder / (f"beat_{k + 1:02d}_{keys[k]}.png" if keys and k < len(keys) and keys[k] else f"beat_{k + 1:02d}.png")
        tmp = dst.with_name(dst.name + PARTIAL)
        frames[i][1].save(tmp, format="PNG")
        os.replace(tmp, dst)
        out.append(dst)
    return out
