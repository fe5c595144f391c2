"""The one cache (``clipcache``): atomic entries checked on every read, hard links out, a size limit with
least-recently-used eviction across all kinds, and what a killed writer leaves removed.  (Through the real
command, with renders: ``tests/test_faults.py``.)"""

from __future__ import annotations

import multiprocessing as mp
import re
import os
import signal
import time
from pathlib import Path

import pytest

import clipcache
from clipcache import KINDS, Store


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store(tmp_path / "cache")
    s.report = lambda line: None
    s.clean()
    return s


def entry_of(store: Store, kind: str, key: str) -> Path:
    [p] = [p for p, _ in store._versions(kind, key)]
    return p


def test_an_entry_is_read_back_as_kept_and_named_by_its_checksum(store):
    store.put("voice", "ab12", b"a spoken line")
    assert store.get("voice", "ab12") == b"a spoken line"
    p = entry_of(store, "voice", "ab12")
    assert p.parent == store.root / "voice" / "ab" and p.name.startswith("ab12.") and len(p.name) == len("ab12.") + 32
    store.put("voice", "ab12", b"spoken again")  # replaced, not beside
    assert store.get("voice", "ab12") == b"spoken again" and len(store._versions("voice", "ab12")) == 1
    assert store.get("voice", "ab13") is None and store.get("audio", "ab12") is None


@pytest.mark.parametrize("damage", ["truncated", "random bytes", "two bits flipped", "emptied"])
def test_a_damaged_entry_is_dropped_and_reported_in_one_line_never_served(store, damage):
    import numpy as np

    data = bytes(np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8))
    store.put("mobjects", "cd34", data)
    p = entry_of(store, "mobjects", "cd34")
    raw = bytearray(p.read_bytes())
    if damage == "truncated":
        raw = raw[: len(raw) // 2]
    elif damage == "random bytes":
        raw = bytearray(os.urandom(len(raw)))
    elif damage == "two bits flipped":
        raw[100] ^= 0x04
        raw[3000] ^= 0x80
    else:
        raw = bytearray()
    p.write_bytes(bytes(raw))
    said = []
    store.report = said.append
    assert store.get("mobjects", "cd34") is None
    assert not p.exists() and len(said) == 1 and "\n" not in said[0] and "damaged mobjects entry" in said[0]
    assert store.repairs == said
    store.put("mobjects", "cd34", data)  # made again
    assert store.get("mobjects", "cd34") == data


def test_a_file_entry_is_linked_out_checked_and_never_copied(store, tmp_path):
    src = tmp_path / "segment.mp4"
    src.write_bytes(b"\x00\x00\x00\x18ftypisom" + os.urandom(5000))
    store.put_file("segments", "ef56-l", src)
    kept = entry_of(store, "segments", "ef56-l")
    assert os.path.samefile(kept, src)  # linked in: one copy on disk
    out = store.scratch("probe") / "ef56.mp4"
    assert store.link("segments", "ef56-l", out) and out.read_bytes() == src.read_bytes()
    assert os.path.samefile(out, kept)  # linked out: nothing copied
    # a flipped bit in the kept file is caught when it is linked out: nothing reaches the render
    out.unlink()
    src.unlink()
    raw = bytearray(kept.read_bytes())
    raw[200] ^= 1
    kept.write_bytes(bytes(raw))
    assert not store.link("segments", "ef56-l", out) and not out.exists() and not kept.exists()
    assert not list(out.parent.iterdir())  # no temporary left beside it


def test_a_file_entry_is_linked_into_a_folder_not_made_yet(store, tmp_path):
    """Manim makes its segment folder only when it encodes the first segment, so a render's first lookup links
    into a folder that does not exist yet (the first segment of every render was drawn again)."""
    src = tmp_path / "segment.mp4"
    src.write_bytes(os.urandom(3000))
    store.put_file("segments", "ab78-t", src)
    out = store.scratch("probe") / "segments" / "ab78.mp4"
    assert not out.parent.exists()
    assert store.link("segments", "ab78-t", out) and out.read_bytes() == src.read_bytes()
    assert not store.link("segments", "cd90-t", tmp_path / "nowhere" / "cd90.mp4")  # no entry: no folder made
    assert not (tmp_path / "nowhere").exists()


def test_modes_refresh_reads_nothing_and_off_keeps_nothing(tmp_path):
    on = Store(tmp_path / "c")
    on.put("audit", "aa00", b"x")
    refresh = Store(tmp_path / "c", "refresh")
    assert refresh.get("audit", "aa00") is None and not refresh.link("audit", "aa00", tmp_path / "x")
    refresh.put("audit", "aa00", b"y")
    assert on.get("audit", "aa00") == b"y"
    off = Store(tmp_path / "c", "off")
    off.put("audit", "bb00", b"z")
    assert off.get("audit", "aa00") is None and on.get("audit", "bb00") is None
    with pytest.raises(ValueError):
        Store(tmp_path, "sometimes")


def test_keys_must_be_plain_names_and_kinds_known(store):
    for bad in ("../etc", "a", "a.b", "x" * 161, "sp ace"):
        with pytest.raises(ValueError):
            store.put("voice", bad, b"")
    with pytest.raises(ValueError):
        store.get("plan", "abcd")


def test_the_least_recently_used_entries_go_first_across_kinds(store):
    for i, kind in enumerate(KINDS):  # one 1000-byte entry of every kind, oldest first
        store.put(kind, f"k{i}", bytes([i]) * 1000)
        time.sleep(0.01)
    assert store.get("mobjects", "k0") is not None  # used now: the newest
    time.sleep(0.01)
    usage = store.usage()
    assert all(usage[k].entries == 1 and usage[k].bytes == 1000 for k in KINDS)
    gone = store.trim(3500)
    assert gone.entries == len(KINDS) - 3 and gone.bytes == 1000 * (len(KINDS) - 3)
    left = {k for k, u in store.usage().items() if u.entries}
    assert left == {"mobjects", KINDS[-1], KINDS[-2]}  # the one just used and the two newest


def _write_forever(root: str, ready) -> None:
    s = Store(Path(root))
    ready.set()
    big = os.urandom(1 << 20)
    i = 0
    while True:
        s.put("segments", f"aa{i % 7}", big)
        i += 1


def test_a_writer_killed_at_random_moments_leaves_only_whole_entries_and_its_temporaries_go(tmp_path):
    root = tmp_path / "cache"
    ctx = mp.get_context("fork")
    import random

    rng = random.Random(5)
    for _ in range(6):
        ready = ctx.Event()
        p = ctx.Process(target=_write_forever, args=(str(root), ready))
        p.start()
        ready.wait(10)
        time.sleep(rng.uniform(0.01, 0.3))
        os.kill(p.pid, signal.SIGKILL)
        p.join()
    s = Store(root)
    said = []
    s.report = said.append
    for i in range(7):
        data = s.get("segments", f"aa{i}")
        assert data is None or len(data) == 1 << 20
    assert said == []  # nothing half-written under a real name
    s.clean()
    assert not list(root.rglob(f"*{clipcache.TMP}"))


def test_scratch_folders_of_dead_processes_and_an_earlier_layout_are_removed(tmp_path):
    root = tmp_path / "cache"
    (root / "segments" / "01_permutation_matrix" / "l").mkdir(parents=True)  # an earlier release's layout
    (root / "plan").mkdir()
    (root / "voice" / "f00.wav").parent.mkdir(parents=True)
    (root / "voice" / "f00.wav").write_bytes(b"old")
    dead = root / clipcache.SCRATCH / "999999999-01_alpha"
    dead.mkdir(parents=True)
    s = Store(root)
    mine = s.scratch("02_beta")
    s.clean()
    assert not dead.exists() and mine.is_dir()
    assert sorted(p.name for p in root.iterdir()) == [".scratch", "FORMAT"]
    s.put("voice", "ab12", b"new")
    (root / "voice" / "stray.txt").write_text("not an entry")
    s.clean()  # the marker is there: entries stay, what is no entry goes
    assert s.get("voice", "ab12") == b"new" and not (root / "voice" / "stray.txt").exists()


def test_the_fontconfig_configuration_beside_the_cache_is_never_removed(tmp_path):
    """Importing ``scenes`` writes ``.render-cache/fontconfig/fonts.conf`` and points FONTCONFIG_FILE at it before
    any command cleans the cache; on a fresh clone (no FORMAT marker yet) the first command's clean removed it,
    and every worker it started then looked for its fonts in a configuration that was gone."""
    root = tmp_path / "cache"
    conf = root / clipcache.FONTCONFIG / "fonts.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text("<fontconfig/>")
    s = Store(root)
    s.clean()  # the first command on a fresh clone
    s.put("voice", "ab12", b"new")
    s.clean()
    s.clear()
    assert conf.read_text() == "<fontconfig/>" and (root / "FORMAT").exists()


def test_no_room_keeps_nothing_and_says_so_once(store, monkeypatch):
    import errno

    said = []
    store.report = said.append

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("builtins.open", full)
    store.put("voice", "ab12", b"x")
    store.put("voice", "ab13", b"y")
    monkeypatch.undo()
    assert store.get("voice", "ab12") is None and len(said) == 1 and "No space left on device" in said[0]
    assert not list(store.root.rglob(f"*{clipcache.TMP}"))


# ------------------------------------------------------------------ through the command
def test_clips_cache_shows_each_kind_trims_least_recently_used_first_and_clears(tmp_path):
    """``clips cache`` reports what each kind holds (the bytes on disk), ``--cache-limit`` trims the cache to a
    small limit keeping exactly the most recently used entries, a render after it gives the same bytes (what
    went is made again), and ``--clear`` empties it."""
    import hashlib
    import json

    from project import clips, make_project

    root = make_project(tmp_path / "p", ["alpha", "beta"])
    assert clips(root, "render", "-q", "t", "--out", "out").returncode == 0
    cache = root / ".render-cache"

    def entries():
        return sorted(p for k in KINDS for p in (cache / k).glob("*/*") if clipcache._ENTRY.fullmatch(p.name))

    def outputs(q):
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(q.glob("*.*")) if p.name != "manifest.json"}

    r = clips(root, "cache", "--json")
    shown = json.loads(r.stdout)
    on_disk = {k: sum(p.stat().st_size for p in entries() if p.parts[-3] == k) for k in KINDS}
    assert {k: v["bytes"] for k, v in shown["kinds"].items()} == on_disk and shown["bytes"] > 1_000_000
    text = clips(root, "cache").stdout
    assert all(re.search(rf"(?m)^  {k} +\d+ +[\d.]+ k?M?B$", text) for k in KINDS), text
    before = sorted((p.stat().st_mtime_ns, p, p.stat().st_size) for p in entries())
    limit = 1_000_000
    keep, total = set(), 0
    for _, p, size in reversed(before):  # the newest first, as long as they fit
        if total + size > limit:
            break
        keep.add(p)
        total += size
    assert clips(root, "cache", "--cache-limit", "1 MB").returncode == 0
    assert set(entries()) == keep and 0 < len(keep) < len(before)
    assert clips(root, "render", "-q", "t", "--out", "again").returncode == 0
    assert outputs(root / "again" / "t") == outputs(root / "out" / "t")
    r = clips(root, "cache", "--clear")
    assert r.returncode == 0 and r.stdout.startswith(f"cleared {cache}") and entries() == []


def test_a_preview_in_another_voice_keeps_the_lectures_audit(tmp_path):
    """A render keeps the audit of what it drew under the audit key (``auditcache.keep``), beat times included:
    `clips audit` and the handout read them.  Only a render in the lecture's own voice keeps it: a preview with
    ``--voice none`` (what ``clips studio`` renders) lasts otherwise, and under the same key its times replaced
    the lecture's (CI: the shipped deck's clip 01, 2.2 s short by its last beat, after a studio test).  Here the
    project's own voice is none and the preview speaks: the same rule, the other way round."""
    import hashlib

    from project import clips, make_project

    root = make_project(tmp_path / "p", ["alpha"])
    assert clips(root, "render", "-q", "t", "--out", "out").returncode == 0  # in the lecture's own voice (none here)
    audits = root / ".render-cache" / "audit"

    def kept():
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(audits.glob("*/*"))
                if clipcache._ENTRY.fullmatch(p.name)}

    before = kept()
    assert before
    r = clips(root, "render", "-q", "t", "--out", "preview", "--voice", "piper")  # spoken: other beat times
    assert r.returncode == 0, r.stdout + r.stderr
    assert kept() == before  # the lecture's audit, as its own render kept it
