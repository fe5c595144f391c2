"""Faults through the real command: every cache kind damaged (cut short, overwritten with random bytes, two bits
flipped) gives the same clip as a clean render and one line per entry; a kill at random moments leaves no
partial file; a full disk and an unwritable output folder (a small tmpfs) are one line each and leave the
previous outputs intact; a narration brace naming no value and an over-long config value are one line, exit 2,
before anything renders.  (The cache's own rules, without renders: ``tests/test_cache.py``.)"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

import clipcache
from project import clips, make_project, narration_path, one_line

REPAIR = re.compile(r"^clips: cache: a damaged (\w+) entry \(.*\) was dropped and made again: \S+$")


def entries(root: Path, kinds=clipcache.KINDS) -> list[Path]:
    """Every entry of ``kinds`` in the test project's cache."""
    cache = root / ".render-cache"
    return sorted(p for k in kinds for p in (cache / k).glob("*/*") if clipcache._ENTRY.fullmatch(p.name))


def whole(p: Path) -> bool:
    """The entry's bytes match the checksum in its name."""
    return hashlib.sha256(p.read_bytes()).hexdigest()[: clipcache.SUM] == p.name.rsplit(".", 1)[1]


def damage(p: Path, how: str, rng: np.random.Generator) -> None:
    raw = bytearray(p.read_bytes())
    if how == "truncated":
        raw = raw[: len(raw) // 2]
    elif how == "random bytes":
        raw = bytearray(rng.integers(0, 256, max(len(raw), 1), dtype=np.uint8).tobytes())
    else:  # two bits flipped
        for i in rng.choice(len(raw), size=2, replace=len(raw) < 2):
            raw[i] ^= 1 << int(rng.integers(0, 8))
    p.write_bytes(bytes(raw))


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def outputs(qdir: Path) -> dict[str, str]:
    return {p.name: sha(p) for p in sorted(qdir.iterdir()) if p.is_file()}


def repaired(stderr: str) -> set[str]:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    bad = [ln for ln in lines if not REPAIR.match(ln)]
    assert not bad, stderr  # nothing but one line per damaged entry
    return {REPAIR.match(ln).group(1) for ln in lines}


def findings(stdout: str) -> list[str]:
    return [ln for ln in stdout.splitlines() if ln.startswith("      ")]


def test_every_cache_kind_damaged_gives_the_clean_clip_and_one_line_per_entry(tmp_path):
    """A voiced clip renders; then, three times, every entry of every kind is damaged (cut to half its length,
    overwritten with random bytes, two bits flipped) and the clip rendered again into a new folder: the same
    MP4, captions and thumbnail as the clean render, each damaged entry said in one line and made again, and
    every entry left whole.  The audit's entries are read by ``clips audit`` (damaged after the render that
    rewrote them), the voice model's digest by the command itself.  ``--force`` over damaged entries reads
    none and leaves every entry whole."""
    root = make_project(tmp_path / "p", ["alpha"])
    cfg = root / "assets" / "lecture.toml"  # a voiced lecture: its own render keeps its audit (a preview's does not)
    cfg.write_text(re.sub(r'(?m)^engine = "\w+"', 'engine = "piper"', cfg.read_text()))
    r = clips(root, "render", "-q", "t", "--out", "clean", "--voice", "piper")
    assert r.returncode == 0, r.stderr
    clean = outputs(root / "clean" / "t")
    assert set(clipcache.KINDS) - {k for k in clipcache.KINDS if entries(root, [k])} == set()  # every kind in use
    found = clips(root, "audit")  # the test clip's own findings (it is sparse), read back from the render
    assert "unchanged" in found.stdout and found.stderr == ""
    rng = np.random.default_rng(35)
    for i, how in enumerate(("truncated", "random bytes", "two bits flipped")):
        for p in entries(root):
            damage(p, how, rng)
        r = clips(root, "render", "-q", "t", "--out", f"d{i}", "--voice", "piper")
        assert r.returncode == 0, r.stderr
        assert outputs(root / f"d{i}" / "t") == clean, how
        kinds = repaired(r.stderr)
        # every kind a render reads (the svg files: through the labels whose mobjects were damaged)
        assert kinds >= {"mobjects", "svg", "voice", "audio", "segments", "fonts"}, (how, kinds)
        assert all(whole(p) for p in entries(root)), how
        for p in entries(root, ["audit"]):
            damage(p, how, rng)
        r = clips(root, "audit")
        assert repaired(r.stderr) == {"audit"} and "unchanged" not in r.stdout, (how, r.stderr)  # audited again
        assert r.returncode == found.returncode and findings(r.stdout) == findings(found.stdout)
    for p in entries(root):
        damage(p, "two bits flipped", rng)
    r = clips(root, "render", "-q", "t", "--out", "clean", "--voice", "piper", "--force")
    assert r.returncode == 0 and repaired(r.stderr) == set(), r.stderr  # nothing read, so nothing damaged served
    assert outputs(root / "clean" / "t") == clean
    assert all(whole(p) for p in entries(root))


def test_a_damaged_voice_model_digest_is_one_line_even_when_nothing_changed(tmp_path):
    """The voice model's digest is kept in the cache (reading the 63 MB model costs 0.3 s); a damaged one was
    a 30-line traceback on every command, a run with nothing to do included."""
    root = make_project(tmp_path / "p", ["alpha"])
    assert clips(root, "render", "-q", "t", "--out", "out", "--voice", "piper").returncode == 0
    [digest] = [p for p in entries(root, ["voice"]) if "-digest." in p.name]
    digest.write_bytes(b"not a digest at all")
    r = clips(root, "render", "-q", "t", "--out", "out", "--voice", "piper")
    assert r.returncode == 0 and "up to date" in r.stdout, r.stderr
    assert REPAIR.match(one_line(r.stderr)) and "voice" in one_line(r.stderr)
    assert all(whole(p) for p in entries(root, ["voice"]))


def test_a_render_killed_at_random_moments_leaves_no_partial_file(tmp_path):
    """``clips render`` killed (SIGKILL, the whole process group) at random moments: the cache holds only whole
    entries under real names, the output folder only whole clips; the next command removes what the killed
    one left (temporaries, scratch and work folders) and renders the rest."""
    root = make_project(tmp_path / "p", ["alpha", "beta"])
    rng = np.random.default_rng(7)
    env = dict(os.environ, PYTHONPATH=str(root))
    for delay in rng.uniform(1.0, 8.0, size=4):
        p = subprocess.Popen([sys.executable, "-m", "scenes.render.cli", "render", "-q", "t", "--out", "out", "--force"],
                             cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(delay)
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        time.sleep(0.3)  # the forked workers, killed with their group
        assert all(whole(e) for e in entries(root))
        for f in (root / "out" / "t").glob("*.mp4") if (root / "out" / "t").is_dir() else ():
            assert ".partial" not in f.name
    r = clips(root, "render", "-q", "t", "--out", "out")
    assert r.returncode == 0, r.stderr
    cache = root / ".render-cache"
    left = [p for p in cache.rglob("*") if p.name.endswith(clipcache.TMP) or ".partial-" in p.name]
    assert left == [] and not list((cache / clipcache.SCRATCH).iterdir())
    assert not (root / "out" / ".work").exists() and not list((root / "out").rglob("*.partial*"))


@contextmanager
def small_disk(path: Path, size: str = "3m"):
    """A tmpfs of ``size`` at ``path`` (skipped where this process may not mount one)."""
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(disk: Path, leave_kb: int) -> None:
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "filler").write_bytes(b"\0" * max(free - leave_kb * 1024, 0))


def test_a_full_disk_and_an_unwritable_output_are_one_line_each_and_the_outputs_stay(tmp_path):
    """``--out`` on a small tmpfs: with 4 and 30 kB left, a forced render stops with one line naming the disk
    (its mount point, type and free space) and exit 2, the work folders removed and every previous output the
    same bytes; mounted read-only, one line saying it cannot write, exit 2, the outputs the same."""
    root = make_project(tmp_path / "p", ["alpha", "beta"])
    with small_disk(tmp_path / "disk") as disk:
        out = disk / "out"
        assert clips(root, "render", "-q", "t", "--out", str(out)).returncode == 0
        before = outputs(out / "t")
        for kb in (4, 30):
            fill(disk, kb)
            r = clips(root, "render", "-q", "t", "--out", str(out), "--force")
            line = one_line(r.stderr)
            assert r.returncode == 2 and line.startswith(f"clips: no space left on {disk} (tmpfs"), (kb, r.stderr)
            assert outputs(out / "t") == before and not (out / ".work").exists()
            assert not [p for p in out.rglob("*") if "partial" in p.name]
            (disk / "filler").unlink()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        r = clips(root, "render", "-q", "t", "--out", str(out), "--force")
        line = one_line(r.stderr)
        assert r.returncode == 2 and line.startswith("clips: cannot write ") and "Read-only" in line, r.stderr
        assert outputs(out / "t") == before


def test_a_narration_brace_naming_no_value_is_exit_2_before_anything_renders(tmp_path):
    root = make_project(tmp_path / "p", ["alpha", "beta"])
    assert clips(root, "render", "-q", "t", "--out", "out").returncode == 0
    before = outputs(root / "out" / "t")
    for slug in ("alpha", "beta"):  # both clips stale; beta's narration names a value no clip provides
        f = narration_path(root, slug)
        f.write_text(f.read_text().replace('one = "One beat."', 'one = "One beat of {nothing}."' if slug == "beta" else 'one = "One beat, edited."'))
    r = clips(root, "render", "-q", "t", "--out", "out")
    line = one_line(r.stderr)
    assert r.returncode == 2 and "02_beta.toml" in line and "{nothing}" in line, r.stderr
    assert "rendered" not in r.stdout and outputs(root / "out" / "t") == before  # alpha not rendered either


def test_an_over_long_config_value_is_named_not_echoed(tmp_path):
    cfg = tmp_path / "lecture.toml"
    src = (Path(__file__).resolve().parent.parent / "assets" / "lecture.toml").read_text()
    cfg.write_text(re.sub(r'(?m)^title = .*$', 'title = "' + "x" * 10_000 + '"', src, count=1))
    r = clips(None, "render", "1", "-q", "t", "--out", str(tmp_path / "out"), env_extra={"ATTENTION_CLIPS_CONFIG": str(cfg)})
    line = one_line(r.stderr)
    assert r.returncode == 2 and "10000 characters" in line and len(line) < 400, line
