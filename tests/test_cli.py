"""The ``clips`` command, run for real in a subprocess.

The pipeline tests work on a copy of the project whose catalog lists tiny test clips
(rendered at the hidden test quality ``t``: 256x144, 5 fps), so they exercise the real
command, the real workers and Manim in seconds.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from project import CLIPS, REPO, TEST_MODULES, clip_module, clips, make_project, narration_path, one_line  # noqa: F401


# ------------------------------------------------------------------------------ the real lecture
def test_list_shows_the_lecture_in_order():
    r = clips(None, "list")
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    row01 = next(line for line in rows if line.startswith("01 "))
    assert row01.split()[1] == "PermutationMatrix" and "§1" in row01 and "Permutation matrices" in row01
    numbers = [int(line.split()[0]) for line in rows]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    data = json.loads(clips(None, "list", "--json").stdout)
    assert [d["number"] for d in data] == numbers
    assert {"number": 1, "name": "01_permutation_matrix", "scene": "PermutationMatrix",
            "module": "scenes/clips/c01_permutation_matrix.py", "section": "§1", "title": "Permutation matrices"} in data


def test_unknown_clip_is_one_line_with_the_closest_names():
    r = clips(None, "render", "PermutaionMatrix", "-q", "t")
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert "'PermutaionMatrix'" in line and "PermutationMatrix" in line


@pytest.mark.parametrize("args, needle", [
    (("render", "-q", "x"), "'x'"),
    (("render", "--jobs", "0"), "--jobs"),
    (("frobnicate",), "frobnicate"),
])
def test_bad_arguments_are_one_line_exit_2(args, needle):
    r = clips(None, *args)
    assert r.returncode == 2
    assert needle in one_line(r.stderr)


def test_bad_config_value_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "lecture.toml"
    bad.write_text((REPO / "assets" / "lecture.toml").read_text().replace("d = 4 ", "d = 7 "))
    r = clips(None, "render", "1", "-q", "t", "--out", str(tmp_path / "out"), env_extra={"ATTENTION_CLIPS_CONFIG": str(bad)})
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert "sizes.d" in line and "7" in line and "even" in line
    assert not (tmp_path / "out" / "t").exists() or not list((tmp_path / "out" / "t").glob("*.mp4"))


def test_render_real_clip_01_through_the_command(tmp_path):
    out = tmp_path / "out"
    r = clips(None, "render", "PermutationMatrix", "-q", "t", "--out", str(out), timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    q = out / "t"
    for ext in ("mp4", "srt", "png"):
        assert (q / f"01_permutation_matrix.{ext}").stat().st_size > 0
    srt = (q / "01_permutation_matrix.srt").read_text()
    assert "A permutation matrix moves rows around" in srt
    entry = json.loads((q / "manifest.json").read_text())["clips"]["01_permutation_matrix"]
    assert {"perm", "T", "d", "seed"} <= set(entry["config_fields"])
    assert 20 <= entry["duration"] <= 75


# ------------------------------------------------------------------------------ the pipeline, on test clips
@pytest.fixture(scope="module")
def proj(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("proj") / "p", ["alpha", "beta"])
    r = clips(root, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def manifest(root: Path) -> dict:
    return json.loads((root / "out" / "t" / "manifest.json").read_text())["clips"]


def mtimes(root: Path) -> dict:
    return {p.name: p.stat().st_mtime_ns for p in (root / "out" / "t").glob("0*")}


def test_render_writes_clip_subtitles_thumbnail_and_manifest(proj):
    import hashlib

    m = manifest(proj)
    assert set(m) == {"01_alpha", "02_beta"}
    for name, e in m.items():
        assert set(e["files"]) == {"mp4", "srt", "vtt", "descriptions.vtt", "png"}
        for f in e["files"].values():
            data = (proj / "out" / "t" / f["name"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == f["sha256"] and len(data) == f["bytes"]
        assert e["frames"] > 0 and e["duration"] > 0
    assert "T" in m["01_alpha"]["config_fields"] and "T" not in m["02_beta"]["config_fields"]
    assert "sentence_a" in m["02_beta"]["config_fields"]


def test_no_change_skips_every_clip(proj):
    before = mtimes(proj)
    r = clips(proj, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    assert "2 clip(s) up to date" in r.stdout
    assert mtimes(proj) == before


def test_editing_one_clip_file_renders_that_clip_only(proj):
    before = mtimes(proj)
    mod = clip_module(proj, "alpha")
    mod.write_text(mod.read_text() + "\n# an edit\n")
    r = clips(proj, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    assert "1 rendered, 1 unchanged" in r.stdout
    after = mtimes(proj)
    assert after["01_alpha.mp4"] != before["01_alpha.mp4"]
    assert after["02_beta.mp4"] == before["02_beta.mp4"]


def test_editing_a_config_value_renders_the_clips_that_read_it(proj, tmp_path):
    cfg = proj / "assets" / "lecture.toml"
    original = cfg.read_text()
    try:
        cfg.write_text(original.replace('a = "the cat ate the mouse"', 'a = "the dog ate the mouse"')
                       .replace('b = "the mouse ate the cat"', 'b = "the mouse ate the dog"'))
        before = mtimes(proj)
        r = clips(proj, "render", "-q", "t", "--out", "out")
        assert r.returncode == 0, r.stderr
        after = mtimes(proj)
        assert after["02_beta.mp4"] != before["02_beta.mp4"]  # beta reads the sentences
        assert after["01_alpha.mp4"] == before["01_alpha.mp4"]  # alpha does not
    finally:
        cfg.write_text(original)


def test_force_renders_anyway_and_the_same_config_gives_the_same_bits(proj):
    """``--force`` renders a clip whose key is unchanged, reading no cache (every label laid out, every segment
    drawn, afresh) and keeping what it makes: the same bits as the render that filled the cache, and the
    same typeset files kept (each entry is named by its content's checksum)."""
    import clipcache

    before, shas = mtimes(proj), {k: f["sha256"] for k, f in manifest(proj)["01_alpha"]["files"].items()}
    cache = proj / ".render-cache"
    kept = sorted(p.name for p in (cache / "svg").rglob("*.*"))
    assert kept and not list(cache.rglob(f"*{clipcache.TMP}"))
    r = clips(proj, "render", "alpha", "-q", "t", "--out", "out", "--force")
    assert r.returncode == 0 and "1 rendered" in r.stdout
    assert mtimes(proj)["01_alpha.mp4"] != before["01_alpha.mp4"]
    entry = manifest(proj)["01_alpha"]
    assert {k: f["sha256"] for k, f in entry["files"].items()} == shas
    assert entry["segments"]["reused"] == 0  # nothing taken from the cache
    # every typeset file kept before is kept still, under its key (a forced render typesets afresh: its entry
    # is replaced, and Pango's file may differ in bytes that draw nothing)
    assert {n.split(".")[0] for n in kept} <= {p.name.split(".")[0] for p in (cache / "svg").rglob("*.*")}
    assert not list((cache / clipcache.SCRATCH).iterdir()) and not (proj / "out" / ".work").exists()


def test_lecture_joins_clips_with_chapters_and_shifted_subtitles(proj):
    import av
    import srt

    r = clips(proj, "render", "-q", "t", "--out", "out")  # bring everything current first
    assert r.returncode == 0, r.stderr
    r = clips(proj, "lecture", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    q = proj / "out" / "t"
    m = manifest(proj)
    parts = [list(srt.parse((q / f"{n}.srt").read_text())) for n in ("01_alpha", "02_beta")]
    merged = list(srt.parse((q / "lecture.srt").read_text()))
    assert len(merged) == sum(map(len, parts))
    assert [s.content for s in merged] == [s.content for p in parts for s in p]
    assert [s.index for s in merged] == list(range(1, len(merged) + 1))
    with av.open(str(q / "lecture.mp4")) as c:
        chapters = c.chapters()
        assert [ch["metadata"]["title"] for ch in chapters] == ["01 Alpha", "02 Beta"]
        shift = chapters[1]["start"] * chapters[1]["time_base"]
        assert abs(float(shift) - m["01_alpha"]["duration"]) < 0.21
        assert merged[len(parts[0])].start.total_seconds() == pytest.approx(
            float(shift) + parts[1][0].start.total_seconds(), abs=1e-3)
        kinds = sorted(s.type for s in c.streams)
        assert "video" in kinds and "subtitle" in kinds
        v = c.streams.video[0]
        assert v.codec_context.name == "h264"
        n_frames = sum(1 for p in c.demux(v) if p.size)
    assert n_frames == m["01_alpha"]["frames"] + m["02_beta"]["frames"]  # packets copied, not re-encoded


ALPHA_FIGURE = '''
from scenes.figures import still
from scenes.kit.theme import ColorScale
from scenes.stills.spec import FigureStill, HeatmapPanel

@still("Alpha")
def grid(data, cfg):
    return FigureStill("grid", "Alpha", {"A": HeatmapPanel(data.grid, ColorScale(cfg.cmap_weights, 0.0, 1.0))}, size=(4, 3))
'''


def test_stills_and_sheets_have_the_right_sizes(proj):
    from PIL import Image

    (proj / "scenes" / "figures" / "tclip_alpha.py").write_text(ALPHA_FIGURE)  # alpha's designed still
    for theme, paper in (("dark", (14, 17, 23)), ("light", (255, 255, 255))):
        r = clips(proj, "stills", "alpha", "--theme", theme, "--out", "out")
        assert r.returncode == 0, r.stderr
        png = proj / "out" / "stills" / theme / "01_alpha__grid.png"
        assert png.exists() and png.with_suffix(".svg").exists()
        im = Image.open(png).convert("RGB")
        assert im.size == (800, 600)  # 4 x 3 in at 200 dpi
        assert im.getpixel((1, 1)) == paper
    r = clips(proj, "stills", "--theme", "sepia", "--out", "out")
    assert r.returncode == 2 and "sepia" in one_line(r.stderr)
    r = clips(proj, "stills", "beta", "--out", "out")  # a clip without a designed still is named, exit 1
    assert r.returncode == 1 and "Beta has no designed still" in one_line(r.stderr)
    r = clips(proj, "sheet", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    sheet = Image.open(proj / "out" / "t" / "sheets" / "01_alpha.png")
    assert sheet.size[0] == 4 * 427 and sheet.size[1] % 240 == 0 and sheet.size[1] >= 240
    deck = Image.open(proj / "out" / "t" / "sheets" / "deck.png")
    assert deck.size[0] == 4 * 320
    # the frame review's material (../shared/REVIEW.md): the last frame of every beat, named by its key, and
    # beside them what each beat says and what its description adds
    r = clips(proj, "sheet", "alpha", "-q", "t", "--out", "out", "--beats")
    assert r.returncode == 0, r.stderr
    folder = proj / "out" / "t" / "sheets" / "01_alpha"
    beats = json.loads((proj / "out" / "t" / "manifest.json").read_text())["clips"]["01_alpha"]["beats"]
    assert sorted(p.name for p in folder.glob("*.png")) == [f"beat_{k + 1:02d}_{b['key']}.png" for k, b in enumerate(beats)]
    notes = (folder / "beats.txt").read_text()
    assert [ln.split()[2] for ln in notes.splitlines() if ln.startswith("beat ")] == [b["key"] for b in beats]
    assert all(f"SAYS: {b['text']}" in notes for b in beats)


def test_the_lock_keeps_a_second_command_out(proj):
    lock = proj / "out" / ".lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.pwrite(fd, b"4242", 0)
        r = clips(proj, "render", "-q", "t", "--out", "out")
        assert r.returncode == 2
        line = one_line(r.stderr)
        assert "another clips command" in line and "4242" in line
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def test_a_failing_clip_leaves_the_others(tmp_path):
    root = make_project(tmp_path / "p", ["alpha", "broken", "beta"])
    r = clips(root, "render", "-q", "t", "--out", "out", "--jobs", "2")
    assert r.returncode == 1
    assert "03_broken failed" in r.stderr and "broken on purpose" in r.stderr
    assert "logs/03_broken.log" in r.stderr
    q = root / "out" / "t"
    assert (q / "01_alpha.mp4").exists() and (q / "02_beta.mp4").exists()
    assert not (q / "03_broken.mp4").exists()
    assert set(json.loads((q / "manifest.json").read_text())["clips"]) == {"01_alpha", "02_beta"}


def test_a_forked_worker_renders_the_same_bits_and_reports_a_failure_as_a_fresh_one(tmp_path):
    """Workers forked from the preloaded server with the cache (the default) and workers started afresh
    with no cache at all (``--no-cache``) give the same files, the same progress and the same one-line
    failure; the forked ones start with Manim already imported, and --no-cache keeps nothing."""
    out = {}
    for fork in ("1", "0"):
        root = make_project(tmp_path / f"p{fork}", ["alpha", "broken", "beta"])
        r = clips(root, "render", "-q", "t", "--out", "out", "--jobs", "2", *(() if fork == "1" else ("--no-cache",)))
        assert r.returncode == 1 and "03_broken failed" in r.stderr and "broken on purpose" in r.stderr, r.stderr
        q = root / "out" / "t"
        m = json.loads((q / "manifest.json").read_text())["clips"]
        out[fork] = ({n: e["files"] for n, e in m.items()}, {n: e["animations"] for n, e in m.items()},
                     [ln for ln in r.stderr.splitlines() if "broken" in ln][-1].replace(str(root), "ROOT"))
        log = (q / "logs" / "01_alpha.log").read_text()
        assert "@@progress" not in log  # progress goes to the command, not into the log
    assert out["1"] == out["0"]
    assert set(out["1"][0]) == {"01_alpha", "02_beta"}
    import clipcache

    usage = clipcache.Store(tmp_path / "p0" / ".render-cache").usage()
    assert sum(u.entries for u in usage.values()) == 0  # --no-cache kept nothing (the fonts' measures neither)
    assert clipcache.Store(tmp_path / "p1" / ".render-cache").usage()["segments"].entries > 0


def test_a_killed_render_leaves_no_partial_clip_and_resumes(tmp_path):
    root = make_project(tmp_path / "p", ["alpha", "slow"])
    env = dict(os.environ, PYTHONPATH=str(root))
    p = subprocess.Popen([sys.executable, "-m", "scenes.render.cli", "render", "-q", "t", "--out", "out", "--jobs", "1"],
                         cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    q = root / "out" / "t"
    work = root / "out" / ".work" / "t" / "04_slow"
    deadline = time.monotonic() + 240
    while not (work / "media").exists() and time.monotonic() < deadline:  # alpha done, slow under way
        time.sleep(0.3)
    assert (work / "media").exists(), "the slow clip never started"
    time.sleep(2.0)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    assert (q / "01_alpha.mp4").exists()
    assert not (q / "04_slow.mp4").exists()
    assert set(json.loads((q / "manifest.json").read_text())["clips"]) == {"01_alpha"}
    # the next run is not blocked by the dead one, and skips what was finished
    clip_module(root, "slow").write_text(TEST_MODULES["slow"].replace("range(600)", "range(2)"))
    r = clips(root, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    assert "1 rendered, 1 unchanged" in r.stdout
    assert (q / "04_slow.mp4").exists()
    assert not list(q.glob("*.partial"))


def test_a_clip_re_renders_alone_for_its_module_and_its_widgets_and_all_for_the_kit(tmp_path):
    """One module a clip: an edit of clip 05's module or of the widgets beside it (``c05_widgets.py``)
    re-renders 05 alone; an edit of the kit, which every clip can reach, re-renders them all."""
    root = make_project(tmp_path / "p", ["gamma", "delta"])
    assert clips(root, "render", "-q", "t", "--out", "out").returncode == 0
    mod = clip_module(root, "gamma")
    mod.write_text(mod.read_text().replace('label("gamma " + SHARED)', 'label("gamma, edited " + SHARED)'))
    r = clips(root, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0 and "1 rendered, 1 unchanged" in r.stdout, r.stdout + r.stderr
    assert "= 06_delta  unchanged" in r.stdout
    widgets = root / "scenes" / "clips" / "c05_widgets.py"
    widgets.write_text(widgets.read_text().replace('"shared text"', '"shared, edited"'))
    r = clips(root, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0 and "1 rendered, 1 unchanged" in r.stdout, r.stdout + r.stderr
    assert "= 06_delta  unchanged" in r.stdout
    kit = root / "scenes" / "kit" / "compose.py"
    kit.write_text(kit.read_text() + "\n# an edit of the kit\n")
    r = clips(root, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0 and "2 rendered, 0 unchanged" in r.stdout, r.stdout + r.stderr


def test_a_config_from_the_first_release_loads_and_renders_with_one_line_naming_its_defaults(tmp_path):
    """The first release's shipped lecture.toml (no [voice], no [captions]) renders a real clip,
    narrated by the default voice, and the command says once which defaults it used."""
    old = REPO / "tests" / "fixtures" / "lecture-release1.toml"
    out = tmp_path / "out"
    r = clips(None, "render", "1", "-q", "t", "--out", str(out), env_extra={"ATTENTION_CLIPS_CONFIG": str(old)},
              timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    note = one_line(r.stderr)
    assert "written before voice.engine, captions.max_line, cache.limit existed" in note and str(old) in note
    assert '[voice] engine = "piper"' in note and "[captions] max_line = 42" in note
    entry = json.loads((out / "t" / "manifest.json").read_text())["clips"]["01_permutation_matrix"]
    assert (out / "t" / "01_permutation_matrix.mp4").stat().st_size > 0
    assert entry["audio"] and entry["audio"]["lines"] == len(entry["beats"])  # narrated: the voice's default
    # and every other command that reads the config says the same one line
    r = clips(None, "lecture", "-q", "t", "--out", str(out), env_extra={"ATTENTION_CLIPS_CONFIG": str(old)})
    assert "written before voice.engine" in r.stderr.splitlines()[0]


def test_audit_keeps_what_it_found_under_the_render_key_and_audits_again_when_anything_changes(tmp_path):
    """`clips audit` of an unchanged clip is read back from .render-cache/audit (same findings, no run);
    an edit to its narration, its source or a config field it reads audits it again, and a cache entry
    that cannot be read is audited again, never taken."""
    root = make_project(tmp_path / "p", ["alpha", "beta"])

    def audit(*extra, env=None):
        r = clips(root, "audit", *extra, env_extra=env)
        assert r.returncode in (0, 1) and "audit: 2 clip(s)" in r.stdout, r.stdout + r.stderr
        return {ln.split()[1]: ln for ln in r.stdout.splitlines() if ln.strip()[:1] in "✓✗" and "[" in ln}

    first = audit()
    assert set(first) == {"01_alpha", "02_beta"} and not any("unchanged" in ln for ln in first.values())
    again = audit()
    assert all("unchanged since it was audited" in ln for ln in again.values())
    assert [ln.split("problem(s)")[0] for ln in again.values()] == [ln.split("problem(s)")[0] for ln in first.values()]
    # the narration of alpha: alpha only is audited again
    nar = narration_path(root, "alpha")
    nar.write_text(nar.read_text().replace("One beat.", "One beat, edited."))
    edited = audit()
    assert "unchanged" not in edited["01_alpha"] and "unchanged" in edited["02_beta"]
    # a config field alpha reads (d): alpha again; beta reads none of it
    cfg = tmp_path / "d2.toml"
    cfg.write_text(re.sub(r"(?m)^d = \d+", "d = 2", (root / "assets" / "lecture.toml").read_text()))
    other = audit(env={"ATTENTION_CLIPS_CONFIG": str(cfg)})
    assert "unchanged" not in other["01_alpha"] and "unchanged" in other["02_beta"]
    # a damaged entry is dropped (said in one line) and the clip audited again
    import pickle

    for entry in (root / ".render-cache" / "audit").rglob("*.*"):
        try:
            if pickle.loads(entry.read_bytes()).clip == "02_beta":
                entry.write_bytes(os.urandom(entry.stat().st_size))
        except Exception:
            continue
    r = clips(root, "audit")
    assert "damaged audit entry" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "unchanged" in r.stdout.split("02_beta")[0] and "unchanged" not in r.stdout.split("02_beta")[1].split("\n")[0]


# ------------------------------------------------------------------------------ typeset files shared between renders
def test_a_label_is_laid_out_on_one_canvas_at_every_quality(tmp_path, monkeypatch):
    """Pango lays text out on a canvas as wide as the frame in pixels and wraps what is wider: a raw ``Text``
    on the test quality's 256 px comes out on two lines.  The kit lays every label out on one canvas
    (``theme.TEXT_CANVAS``, the audit's): built afresh at t, l, h and k, a long label is the same outlines,
    bit for bit, on one line, so a test render draws the layout the audit checked, and a render at any
    quality links the label files another quality typeset (the cache's ``svg`` kind, keyed by the canvas:
    tested through the command in ``test_a_render_at_another_quality_typesets_no_label_again``)."""
    from manim import Text, tempconfig

    import clipcache
    from scenes.kit import theme
    from scenes.render import worker

    long = "the extrapolation cliff beyond the training length, where every position is new to the model"
    monkeypatch.setattr(clipcache, "_store", clipcache.Store(tmp_path / "cache", "off"))  # laid out here, by Pango

    def typeset(quality: str, where: Path, raw: bool = False):
        w, h, _ = worker.QUALITY_SETTINGS[quality]
        theme._BUILT.clear()
        with tempconfig({"pixel_width": w, "pixel_height": h, "text_dir": str(where / "text"), "media_dir": str(where)}):
            return Text(long, font_size=24) if raw else theme.label(long, size=24)

    def outline(m) -> np.ndarray:
        return np.concatenate([f.points for f in m.family_members_with_points()])

    raw_t, raw_l = typeset("t", tmp_path / "raw-t", raw=True), typeset("l", tmp_path / "raw-l", raw=True)
    assert raw_t.width < raw_l.width - 1 and raw_t.height > 1.5 * raw_l.height  # the frame's canvas wraps it at t
    kit = {q: typeset(q, tmp_path / f"kit-{q}") for q in ("t", "l", "h", "k")}
    assert all(np.array_equal(outline(m), outline(kit["l"])) for m in kit.values())
    assert kit["t"].height < 0.7 * raw_t.height  # one line
    theme._BUILT.clear()


def test_a_render_at_another_quality_typesets_no_label_again(tmp_path):
    """The typeset files a render makes are kept in the cache (``svg``) and linked into the next render that
    lays out the same label or formula, at any quality: a formula's built points depend on the frame (its
    ``mobjects`` entry is the quality's own), its SVG does not.  A render at ``l`` after one at ``t`` keeps
    no new typeset file, and each render's scratch folder is gone when it ends."""
    import clipcache

    root = make_project(tmp_path / "p", ["alpha"])
    clip_module(root, "alpha").write_text(TEST_MODULES["alpha"].replace(
        "from scenes.kit import ClipScene, label", "from scenes.kit import ClipScene, label\nfrom scenes.kit.theme import math").replace(
        'FadeIn(label(f"T = {self.data.grid.shape[0]}"))', 'FadeIn(label(f"T = {self.data.grid.shape[0]}"), math("sum_(i=1)^T x_i"))'))
    assert clips(root, "render", "-q", "t", "--out", "out").returncode == 0
    store = clipcache.Store(root / ".render-cache")
    svgs = sorted(p.name for p in (root / ".render-cache" / "svg").rglob("*.*"))
    assert svgs and store.usage()["svg"].entries == len(svgs)
    r = clips(root, "render", "-q", "l", "--out", "out")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (root / ".render-cache" / "svg").rglob("*.*")) == svgs
    assert store.usage()["mobjects"].entries > 0 and not list((root / ".render-cache" / clipcache.SCRATCH).iterdir())


def test_audit_matrix_with_frames_writes_every_audited_corners_beats(tmp_path):
    """`clips audit NAME --matrix --frames DIR` draws the last frame of every beat of every corner it audits into
    DIR/<clip>/<corner>/ (it wrote nothing with --matrix: a reviewer looking at a corner had to script it)."""
    root = make_project(tmp_path / "p", ["alpha"])
    shots = tmp_path / "shots"
    r = clips(root, "audit", "alpha", "--matrix", "--frames", str(shots), "--size", "320x180")
    assert r.returncode in (0, 1), r.stdout + r.stderr
    corners = re.findall(r"01_alpha \[(\w+)\]", r.stdout)
    assert "shipped" in corners, r.stdout
    assert sorted(p.name for p in (shots / "01_alpha").iterdir()) == sorted(corners)
    for corner in corners:
        pngs = sorted((shots / "01_alpha" / corner).glob("beat_*.png"))
        assert pngs and pngs[0].name.startswith("beat_00_"), corner
