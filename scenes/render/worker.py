"""Render one clip in this process: ``python -m scenes.render.worker <NN_slug> <quality> <workdir>``.

``clips render`` starts one worker per clip (in parallel with ``--jobs``).  The worker
renders the scene with Manim into ``<workdir>/media``, saves the final frame as a PNG,
and writes ``<workdir>/result.json`` with the files it made, the config fields the clip
read (the render key covers exactly those), the number of animations and the duration.  The scene
records every beat as the layout audit does, and the audit of what was drawn is kept under the
audit key (``auditcache.keep``): ``clips audit`` after a render has nothing to run.
Progress goes to stdout as ``@@progress <animations played>`` lines.
"""

from __future__ import annotations

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

# Typst formulas and Pango labels become SVG files named by the hash of their source (Manim's
# tex_dir and text_dir).  A worker renders into a fresh media folder, so without this every
# render would typeset every formula and label again; the files are kept here between renders,
# in a folder per set of library versions (a new Typst or Pango typesets afresh).
SHARED_SVG_DIR = REPO_DIR / ".render-cache" / "svg"
FORCE_ENV = "ATTENTION_CLIPS_FORCE"  # "1": draw every segment (`clips render --force`)
PREFETCH_ENV = "ATTENTION_CLIPS_PREFETCH"  # a JSON list of spoken lines to synthesise ahead, beside the beats (studio)


def _shared_svg_dir() -> Path:
    import hashlib

    from .facts import library_versions

    return SHARED_SVG_DIR / hashlib.sha256("\n".join(library_versions()).encode()).hexdigest()[:16]


def shared_svg_dirs(quality: str) -> dict[str, Path]:
    """The shared folders a render of ``quality`` links its typeset files from, per kind.

    A Typst formula's SVG is the same at every quality, and so is a label's: Pango lays a label out on
    a canvas and wraps what is wider, so every label is laid out on one canvas (``theme.TEXT_CANVAS``)
    whatever the quality, and Manim names its file by the text and its style.  (Laid out on the frame's
    own canvas, a quality-t render wrapped every label longer than about 11 units, and a 1080p render
    linking the same folder read those back.)"""
    from scenes.kit.theme import TEXT_CANVAS

    root = _shared_svg_dir()
    return {"typst": root / "typst", "text": root / "text-{}x{}".format(*TEXT_CANVAS)}


def _seed_svg_cache(private: Path, shared: Path) -> None:
    """Link the shared SVGs into this render's folder (a link costs nothing and copies nothing)."""
    private.mkdir(parents=True, exist_ok=True)
    if not shared.is_dir():
        return
    for f in shared.glob("*.svg"):
        try:
            os.link(f, private / f.name)
        except FileExistsError:
            pass
        except OSError:  # another file system: fall back to a copy
            shutil.copyfile(f, private / f.name)


def _keep_svg_cache(private: Path, shared: Path) -> None:
    """Copy the SVGs this render typeset into the shared folder, each atomically (written aside,
    then renamed), so a render running beside this one never reads half a file."""
    shared.mkdir(parents=True, exist_ok=True)
    for f in private.glob("*.svg"):
        dst = shared / f.name
        if dst.exists():
            continue
        tmp = shared / f".{f.name}.{os.getpid()}.tmp"
        shutil.copyfile(f, tmp)
        os.replace(tmp, dst)


def _print_progress(played: int) -> None:
    print(f"@@progress {played}", flush=True)


report_progress = _print_progress  # a worker forked by the pipeline sends it down a pipe (forked.py)


def render(name: str, quality: str, workdir: Path) -> dict:
    os.chdir(REPO_DIR)  # Manim reads manim.cfg from the working directory
    from manim import Scene, config, tempconfig

    from . import speed

    speed.install()  # a held frame is converted once, not once per repeat (same bitstream)
    from . import segments

    # beat-level reuse: every play/wait is a segment cached by its content (see segments.py)
    segments.install(force=os.environ.get(FORCE_ENV) == "1")

    import mathcore.config as mconfig

    timings = {}
    clip = resolve([name])[0]
    if os.environ.get(PREFETCH_ENV) and os.environ.get("ATTENTION_CLIPS_VOICE", "piper") == "piper":
        from scenes.narration.voice import Narrator

        # the edit's lines, synthesised in a process of their own while the beats before them run
        Narrator("piper").prefetch(json.loads(os.environ[PREFETCH_ENV]))
    w, h, fps = QUALITY_SETTINGS[quality]
    cfg = mconfig.RecordingConfig(mconfig.load_config())

    played = [0]
    original_play = Scene.play

    def play(self, *a, **kw):
        original_play(self, *a, **kw)
        played[0] += 1
        report_progress(played[0])

    Scene.play = play

    import importlib

    module = importlib.import_module(f"scenes.{clip.module}")
    scene_cls = getattr(module, clip.scene)
    media = workdir / "media"
    svgs = {kind: media / kind for kind in ("typst", "text")}
    shared = shared_svg_dirs(quality)
    for kind, private in svgs.items():
        _seed_svg_cache(private, shared[kind])
    segdir = segments.cache_dir(clip.name) / quality
    segments.clean_temporaries(segdir)
    with tempconfig({
        "pixel_width": w, "pixel_height": h, "frame_rate": fps,
        "media_dir": str(media), "tex_dir": str(svgs["typst"]), "text_dir": str(svgs["text"]),
        "output_file": clip.name, "verbosity": "WARNING",
        "progress_bar": "none", "write_to_movie": True, "save_last_frame": False,
        # one segment per play/wait, keyed by what it draws (segments.segment_key, not Manim's
        # JSON hash: 60 % of a cached render's time), kept between renders in the clip's folder
        "disable_caching": False, "partial_movie_dir": str(segdir), "max_files_cached": segments.MAX_FILES,
        # x264 for flat lecture graphics (tune=animation, a faster preset; CRF unchanged): see speed.py
        "video_encoder_options": dict(speed.ENCODER_OPTIONS),
    }):
        # the clip reads the config through the recorder, and records every beat as the audit does
        scene = scene_cls(lecture_config=cfg, audit=True)
        began = time.perf_counter()
        scene.render()
        timings["construct"] = time.perf_counter() - began
        # the thumbnail: the final state drawn afresh (after a drawn hold Manim would draw it over
        # the hold's own background frame, after a reused one not: the same picture either way)
        scene.renderer.static_image = None
        scene.renderer.update_frame(scene)
        frame = scene.renderer.get_frame()
        fw = scene.renderer.file_writer
        mp4 = Path(fw.movie_file_path)
        srt = mp4.with_suffix(".srt")
        _ = config  # config is what tempconfig set; nothing else to read
    for kind, private in svgs.items():
        _keep_svg_cache(private, shared[kind])
    fields = sorted(cfg.used)  # the render key's fields: what the clip read, before the audit reads more
    from .auditcache import keep

    # the audit of what was drawn, kept under the audit key: `clips audit` then has nothing to run
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
        delivery = deliver(clip_track(scene.voice_lines, seconds), reuse=os.environ.get(FORCE_ENV) != "1")
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
        "animations": played[0],
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
        # where the worker's time went (for `make bench`; not in the manifest: timings never reach the output)
        "timings": {k: round(v, 3) for k, v in timings.items()},
    }
    (workdir / "result.json").write_text(json.dumps(result, indent=2))
    return result


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    name, quality, workdir = argv
    render(name, quality, Path(workdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
