"""The studio's section: a caption edit from the file's save to the page's own "ready", against its floor."""


from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ...catalog import REPO_DIR, resolve
from .common import _manifest, mark
from .sections import EDIT_CLIP, _caption_edit

STUDIO_TARGETS = (("l", 3.0), ("h", 8.0))  # save-to-ready in `clips studio`: 480p15, and the lecture's 1080p30


def _studio_start(root: Path, clip, quality: str):
    """``clips studio`` on the copy, for one clip; returns (process, url)."""
    import re
    import threading

    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "scenes.render.cli", "studio", clip.name, "-q", quality, "--port", "0",
                             "--no-open", "--jobs", "1"], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        m = re.search(r"open (http://\S+)", line)
        if m:
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # keep it flowing
            return proc, m.group(1)
    sys.exit(f"bench: clips studio did not start (exit {proc.wait()})")


def _floor(root: Path, clip, quality: str, sentence: str, hold: float) -> dict:
    """What one caption edit cannot go under, each measured alone in this process, warm: synthesising the
    sentence, drawing and encoding one segment (a hold of the edited beat's length over the clip's last
    picture, through the worker's encoder settings) and muxing the clip's video with its voice."""
    import av

    from clipcache import Store

    from ...narration.voice import Narrator
    from .. import audio, patches, speed
    from ..worker import QUALITY_SETTINGS

    out = {}
    with tempfile.TemporaryDirectory() as cache:
        n = Narrator("piper", store=Store(Path(cache)))
        n.synthesise("A first sentence, to load the model.")
        t0 = time.perf_counter()
        n.synthesise(sentence)
        out["synthesise"] = time.perf_counter() - t0
        from manim import Scene, tempconfig

        patches.install_held_frames()
        w, h, fps = QUALITY_SETTINGS[quality]
        qdir = root / "out" / "studio" / quality

        from manim import DOWN, Square, Text, VGroup

        class Hold(Scene):  # a picture as busy as a clip's (a grid of filled cells, a line of text), held
            def construct(self):
                cells = VGroup(*[Square(0.5, fill_opacity=0.3 + 0.05 * (i % 12), stroke_width=2) for i in range(96)])
                caption = Text("Line three is softmax, row by row", font_size=28).to_edge(DOWN)
                self.add(cells.arrange_in_grid(8, 12, buff=0.08), caption)
                self.wait(hold)

        for k in range(2):  # the second, warm
            with tempconfig({"pixel_width": w, "pixel_height": h, "frame_rate": fps, "media_dir": str(Path(cache) / f"m{k}"),
                             "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none",
                             "video_encoder_options": dict(speed.ENCODER_OPTIONS)}):
                t0 = time.perf_counter()
                Hold().render()
                out["segment"] = time.perf_counter() - t0
        mp4 = qdir / f"{clip.name}.mp4"
        with av.open(str(mp4)) as c:
            a = c.streams.audio[0]
            extradata = bytes(a.codec_context.extradata or b"")
            pk = []
            for p in c.demux(a):
                if p.size:
                    p.pts, p.dts = int(p.pts * a.time_base * audio.RATE), int(p.dts * a.time_base * audio.RATE)
                    p.duration = int((p.duration or 0) * a.time_base * audio.RATE)
                    pk.append(p)
        video = Path(cache) / "video.mp4"
        with av.open(str(mp4)) as src, av.open(str(video), "w", format="mp4") as dst:
            v = dst.add_stream_from_template(src.streams.video[0])
            for p in src.demux(src.streams.video[0]):
                if p.dts is not None:
                    p.stream = v
                    dst.mux(p)
        t0 = time.perf_counter()
        audio.mux_packets(video, extradata, pk, Path(cache) / "muxed.mp4")
        out["mux"] = time.perf_counter() - t0
    out["floor"] = out["synthesise"] + out["segment"] + out["mux"]
    return out


def studio(root: Path, rows: list) -> None:
    """A caption edit in `clips studio`, from the file's save to the page's own "ready" (the new clip loaded and
    seeked to the beat that changed, in Chromium): clip 03 with the voice at 480p15 and at 1080p30."""
    import tomllib

    from playwright.sync_api import sync_playwright

    c = resolve([EDIT_CLIP])[0]
    chromium = os.environ.get("CLIPS_CHROMIUM") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        rows.append(("studio save-to-ready", "skipped", f"no Chromium at {chromium} (make test installs it)"))
        return
    only = os.environ.get("CLIPS_BENCH_STUDIO_QUALITIES")  # e.g. "h": one quality alone
    for q, target in [t for t in STUDIO_TARGETS if not only or t[0] in only.split(",")]:
        proc, url = _studio_start(root, c, q)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=[
                    "--headless", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"])
                page = browser.new_page(viewport={"width": 1400, "height": 860})
                page.goto(url)
                t0 = time.perf_counter()
                page.wait_for_function("() => window.studio && !presenter.CLIPS[0].pending && presenter.state.phase === 'stopped'",
                                       timeout=900_000)
                first = time.perf_counter() - t0
                times, notes = [], []
                for where in (0.5, 0.25, 0.75):
                    n = page.evaluate("studio.readyLog.length")
                    key = _caption_edit(root, c, where)
                    saved = time.time()
                    page.wait_for_function(f"() => studio.readyLog.length > {n} && "
                                           f"studio.readyLog[studio.readyLog.length - 1].key === {json.dumps(key)}",
                                           timeout=300_000)
                    ready = page.evaluate("studio.readyLog[studio.readyLog.length - 1].at") / 1000
                    times.append(ready - saved)
                    page.wait_for_function("() => presenter.state.phase === 'stopped'", timeout=120_000)
                    tl = json.loads(page.evaluate("fetch('api/timeline').then(r => r.text())"))
                    seen = next((e["t"] for e in tl if e["what"] == "change" and e["t"] >= saved - 0.01), saved)
                    done = next((e for e in reversed(tl) if e["what"] == "ready"), {"t": ready, "seconds": 0})
                    ph = done.get("phases", {})
                    notes.append(f"{key} {times[-1]:.2f} s (seen {seen - saved:.2f}, worker {ph.get('worker', 0):.2f}, "
                                 f"commit {ph.get('commit', 0) - ph.get('worker', 0):.2f}, "
                                 f"publish {ph.get('publish', 0) - ph.get('commit', 0):.2f}, page {ready - done['t']:.2f}; "
                                 f"in the worker: construct {ph.get('worker construct', 0):.2f}, "
                                 f"audio {ph.get('worker audio', 0):.2f})")
                    print(f"  studio {q}: {notes[-1]}", flush=True)
                    time.sleep(1.0)
                browser.close()
        finally:
            proc.send_signal(2)
            proc.wait(timeout=60)
        section = tomllib.loads((root / c.narration_path.relative_to(REPO_DIR)).read_text())[c.slug]
        m = _manifest(root, "out/studio", q)[c.name]
        beat = next(b for b in m["beats"] if b["key"] == key)
        from ...narration.voice import spoken

        fl = _floor(root, c, q, spoken(section[key]), beat["duration"])
        t = sorted(times)[1]
        label = {"l": "480p15", "h": "1080p30"}[q]
        print(f"  studio {c.name} {label}: first render {first:.1f} s; caption edits save-to-ready "
              f"{'; '.join(notes)}; floor {fl['floor']:.2f} s (synthesise {fl['synthesise']:.2f}, one segment "
              f"{fl['segment']:.2f}, mux {fl['mux']:.2f})", flush=True)
        rows += [
            (f"studio {c.name} {label}: caption edit, save to page ready", f"{t:.2f} s",
             f"<= {target:.0f} s: {mark(t <= target)} (median of three: {', '.join(f'{x:.2f}' for x in times)})"),
            ("  floor: synthesise + one segment + mux", f"{fl['floor']:.2f} s",
             f"{fl['synthesise']:.2f} + {fl['segment']:.2f} + {fl['mux']:.2f} s"),
        ]


