"""Render one clip in this process:

    python -m scenes.render.worker NN_slug QUALITY WORKDIR [--voice piper|recorded|none] [--described]
                                   [--force] [--no-cache] [--cache-limit BYTES] [--prefetch JSON]
                                   [--student NPZ]

``clips render`` starts one worker per clip (in parallel with ``--jobs``) and hands it its options as these
arguments.  The worker renders the scene with Manim into ``WORKDIR/media`` (its typeset files and segments in a
scratch folder on the cache's file system: ``clipcache.Store.scratch``), saves the final frame as a PNG, and
writes ``WORKDIR/result.json`` with the files it made, the config fields the clip read (the render key covers
exactly those), the number of animations, the beats, the damaged cache entries it dropped, and where its time
went (``timings``, for ``make bench``; never in the outputs).  The scene
records every beat as the layout audit does, and the audit of what was drawn is kept under the audit key
(``auditcache.keep``): ``clips audit`` after a render has nothing to run.  Progress goes to stdout as
``@@progress <animations played>`` lines.

A fault of the machine (no space left, a folder it may not write) ends the worker with one line,
``@@fault <what happened>``, and status ``FAULT_EXIT``: the command stops there and says it in one line.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import shutil
import sys
import time
from pathlib import Path

from ..catalog import REPO_DIR, resolve

# (pixel_width, pixel_height, frame_rate) per quality; "t" is a tiny quality for tests
QUALITY_SETTINGS = {
    "l": (854, 480, 15),  # the quick preview
    "m": (1280, 720, 30),
    "h": (1920, 1080, 30),  # the lecture: motion here is 1-2 s moves of flat shapes, smooth at 30 fps
    "h60": (1920, 1080, 60),  # 1080p60, as Manim's -qh
    "k": (3840, 2160, 30),
    "t": (256, 144, 5),
}
FAULT_EXIT = 75  # the worker stopped on a fault of the machine, said in its last line
FAULT_MARK = "@@fault "
FAULT_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)


def _print_progress(played: int) -> None:
    print(f"@@progress {played}", flush=True)


report_progress = _print_progress  # a worker forked by the pipeline sends it down a pipe (forked.py)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m scenes.render.worker")
    p.add_argument("name")
    p.add_argument("quality", choices=tuple(QUALITY_SETTINGS))
    p.add_argument("workdir", type=Path)
    p.add_argument("--voice", choices=("piper", "recorded", "none"), default=None, help="default: the config's")
    p.add_argument("--described", action="store_true")
    p.add_argument("--force", action="store_true", help="read nothing from the cache (and keep what is made)")
    p.add_argument("--no-cache", action="store_true", help="read nothing from the cache and keep nothing")
    p.add_argument("--cache-limit", type=int, default=None, help="trim the cache to this many bytes afterwards")
    p.add_argument("--prefetch", default=None, metavar="JSON",
                   help="a JSON list of spoken lines to synthesise ahead, beside the beats (clips studio)")
    p.add_argument("--student", type=Path, default=None, metavar="NPZ",
                   help="draw the clip from a student's numbers: the file `clips render --student` wrote "
                        "(kit.student.StudentSource; the student's code is never run here)")
    return p


def _scratch(store, clip, quality: str, workdir: Path) -> Path:
    """Where Manim writes what the cache links in and out (typeset SVGs, segments): on the cache's own file
    system, so nothing is copied; in the work folder when the cache cannot be written."""
    try:
        return store.scratch(f"{clip.name}-{quality}")
    except OSError:
        d = workdir / "scratch"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d


def render(name: str, quality: str, workdir: Path, opts: argparse.Namespace | None = None) -> dict:
    opts = opts or parser().parse_args([name, quality, str(workdir)])
    os.chdir(REPO_DIR)  # Manim reads manim.cfg from the working directory
    import clipcache

    store = clipcache.configure("off" if opts.no_cache else "refresh" if opts.force else "on")
    store.report = lambda line: print(f"clips: {line}", flush=True)  # into the log; the command prints them too
    from manim import tempconfig

    from . import patches, segments, speed

    patches.install_render(on_play=lambda n: report_progress(n))
    segments.begin(opts.force, quality, store)

    import importlib

    import mathcore.config as mconfig

    timings = {}
    clip = resolve([name])[0]
    if opts.prefetch and (opts.voice or mconfig.load_config().voice) == "piper":
        from scenes.narration.voice import Narrator

        # the edit's lines, synthesised in a process of their own while the beats before them run
        Narrator("piper", store=store).prefetch(json.loads(opts.prefetch))
    w, h, fps = QUALITY_SETTINGS[quality]
    cfg = mconfig.RecordingConfig(mconfig.load_config())
    module = importlib.import_module(f"scenes.{clip.module}")
    scene_cls = getattr(module, clip.scene)
    media = workdir / "media"
    media.mkdir(parents=True, exist_ok=True)  # the render is under way (the typeset files and segments: scratch)
    scratch = _scratch(store, clip, quality, workdir)
    try:
        with tempconfig({
            "pixel_width": w, "pixel_height": h, "frame_rate": fps,
            "media_dir": str(media), "tex_dir": str(scratch / "typst"), "text_dir": str(scratch / "text"),
            "output_file": clip.name, "verbosity": "WARNING",
            "progress_bar": "none", "write_to_movie": True, "save_last_frame": False,
            # one segment per play/wait, keyed by what it draws (segments.segment_key, not Manim's JSON hash: 60 %
            # of a cached render's time), kept in the cache; Manim prunes nothing (the cache has its own limit)
            "disable_caching": False, "partial_movie_dir": str(scratch / "segments"), "max_files_cached": -1,
            # x264 for flat lecture graphics (tune=animation, a faster preset; CRF unchanged): speed.py
            "video_encoder_options": dict(speed.ENCODER_OPTIONS),
        }):
            # the clip reads the config through the recorder, and records every beat as the audit does
            student = {}
            if opts.student is not None:
                from scenes.kit.student import StudentSource

                student = {"student": StudentSource.load(opts.student)}
            scene = scene_cls(lecture_config=cfg, audit=True, voice=opts.voice, described=opts.described, **student)
            began = time.perf_counter()
            scene.render()
            timings["construct"] = time.perf_counter() - began
            # the thumbnail: the final state drawn afresh (after a drawn hold Manim would draw it over
            # the hold's own background frame, after a reused one not: the same picture either way)
            scene.renderer.static_image = None
            scene.renderer.update_frame(scene)
            frame = scene.renderer.get_frame()
            mp4 = Path(scene.renderer.file_writer.movie_file_path)
            srt = mp4.with_suffix(".srt")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    fields = sorted(cfg.used)  # the render key's fields: what the clip read, before the audit reads more
    from .auditcache import keep

    # the audit of what was drawn, kept under the audit key: `clips audit` then has nothing to run (a student's
    # clip is not the lecture's: its audit is never kept where the lecture's audit would find it).  Only a render
    # in the lecture's own timing keeps it: a preview in another voice (`clips studio --voice none`) or a described
    # render (its holds) lasts otherwise, and its beat times would replace the lecture's under the same key (CI: a
    # studio preview of clip 01 overwrote the shipped deck's kept audit, 2.2 s short by its last beat)
    base = getattr(cfg, "_cfg", cfg)  # the lecture's own config under a student's or a preview's overrides
    own_voice = opts.voice in (None, base.voice)
    if opts.student is None and own_voice and not opts.described:
        keep(clip, scene, cfg)
    from PIL import Image

    png = workdir / f"{clip.name}.png"
    Image.fromarray(frame).convert("RGB").save(png)
    # the captions (the same events as the .srt) and the audio descriptions as WebVTT tracks
    from scenes.narration.captions import caption_cues, description_cues, to_vtt

    tracks = {"vtt": to_vtt(caption_cues(scene.captions)), "descriptions.vtt": to_vtt(description_cues(scene.descriptions), "descriptions")}
    for kind, text in tracks.items():
        (workdir / f"{clip.name}.{kind}").write_text(text, encoding="utf-8")
    audio = None
    if scene.voice_lines:  # the beats' voice, mixed, mastered and muxed beside the video
        from scenes.narration.voice import clip_track

        from .audio import deliver, mux_packets
        from .facts import video_facts

        seconds, _frames = video_facts(mp4)
        # mastered and encoded within the delivery limits, or the same track's delivery from before
        began = time.perf_counter()
        delivery = deliver(clip_track(scene.voice_lines, seconds))
        timings["audio"] = time.perf_counter() - began
        voiced = workdir / f"{clip.name}.voiced.mp4"
        mux_packets(mp4, delivery.extradata, delivery.av_packets(), voiced)
        audio = dict(delivery.measured)  # the master's, and the decoded AAC's as delivered
        mp4 = voiced
        audio.update(lines=len(scene.voice_lines), synthesised=scene.narrator.synthesised,
                     sources=sorted({ln.source for _, ln in scene.voice_lines}))
    result = {
        "clip": clip.name,
        "mp4": str(mp4),
        "srt": str(srt) if srt.exists() else None,
        "png": str(png),
        "config_fields": fields,
        "animations": patches.played(),
        "duration": float(scene.time),
        # every beat: where it starts and how long it lasts (the presenter stops at each end)
        "beats": [{"key": c.key, "start": round(c.start, 6), "duration": round(c.duration, 6), "text": c.text,
                   "events": [[e.start, e.end, e.text] for e in c.events], "describe": c.describe}
                  for c in getattr(scene, "captions", [])],
        # audio descriptions: when each is given (in a described clip, the hold after its beat)
        "descriptions": [{"key": d.key, "start": d.start, "end": d.end, "text": d.text}
                         for d in getattr(scene, "descriptions", [])],
        **{kind: str(workdir / f"{clip.name}.{kind}") for kind in tracks},
        "audio": audio,  # None when silent; else the measured loudness and true peak
        "segments": segments.counts(),  # segments drawn, and taken from the cache
        "repairs": list(store.repairs),  # damaged cache entries dropped (and made again), one line each
        # where the worker's time went (for `make bench`; not in the manifest: timings never reach the output)
        "timings": {k: round(v, 3) for k, v in timings.items()},
    }
    (workdir / "result.json").write_text(json.dumps(result, indent=2))
    if opts.cache_limit is not None and not opts.no_cache:
        store.trim(opts.cache_limit)
    return result


def fault_of(exc: BaseException) -> str | None:
    """One line for a fault of the machine somewhere in ``exc``'s chain (no space, a folder it may not write),
    naming the file; ``None`` for anything else."""
    seen = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno in FAULT_ERRNOS:
            where = e.filename or e.filename2
            return f"{e.strerror or os.strerror(e.errno)}" + (f": {where}" if where else "")
        text = str(e)
        if "No space left on device" in text or "Disk quota exceeded" in text:
            m = next((w for w in text.split() if w.startswith("/")), None)
            return "No space left on device" + (f": {m}" if m else "")
        e = e.__cause__ or e.__context__
    return None


def main(argv: list[str] | None = None) -> int:
    opts = parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        render(opts.name, opts.quality, opts.workdir, opts)
    except Exception as e:
        fault = fault_of(e)
        if fault is None:
            raise
        import traceback

        try:  # the log may be on the disk that is full: the status says it then
            traceback.print_exc()
            print(f"{FAULT_MARK}{fault}", flush=True)
        except OSError:
            pass
        return FAULT_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main())
