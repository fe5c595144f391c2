"""The one cache under ``.render-cache/``: every piece of work a command keeps for the next one goes
through here, and nothing it serves is taken on trust.

Kinds (``KINDS``), each a folder: ``mobjects`` (built labels and formulas, ``scenes.kit.theme``), ``svg`` (the
typeset SVG files Manim reads them from), ``voice`` (spoken lines, and the voice model's digest), ``audio`` (a
clip's voice as delivered, ``scenes.render.audio``), ``audit`` (what an audit found, ``scenes.render.auditcache``),
``segments`` (one encoded play or wait and its clock, ``scenes.render.segments``) and ``fonts`` (the shipped
font's coverage and measured words, ``mathcore.typeset``).

* **An entry carries its own checksum in its name**: ``<kind>/<key[:2]>/<key>.<sha256 of its bytes>``.  Every
  read hashes what it read and compares: an entry cut short, overwritten or with one bit flipped is dropped,
  reported in one line (``Store.repairs``; the command prints it) and made again by the caller; it is never served.
* **Atomic**: an entry is written under a temporary name of its own process and thread (``.<name>.<pid>.<tid>.tmp``)
  and renamed into place, so a reader sees a whole entry or none; a killed writer's temporaries are removed by
  the next command (:meth:`Store.clean`).
* **Files others read by path** (a segment Manim joins, an SVG it parses) are entries too: :meth:`Store.link`
  hard-links a checked entry to where it is wanted (nothing is copied), :meth:`Store.put_file` links a finished
  file in.  A render's working files live in a scratch folder on the cache's own file system
  (:meth:`Store.scratch`), removed when the render ends, and by the next command if it was killed.
* **A size limit across all kinds**: :meth:`Store.trim` removes the least recently used entries (a hit touches
  its entry) until the cache holds at most the limit; the commands trim after they write.
* **Modes**: ``"on"``; ``"refresh"`` (``clips render --force``: nothing is read, everything made is kept);
  ``"off"`` (``--no-cache``: nothing is read or kept).

Standard library only, below every other package of the project (``mathcore`` keeps its font measures here).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / ".render-cache"
KINDS = ("mobjects", "svg", "voice", "audio", "audit", "segments", "fonts")
MODES = ("on", "refresh", "off")
FORMAT = "clipcache 1"  # .render-cache/FORMAT: a cache laid out otherwise (an earlier release's) is emptied once
SUM = 32  # hex digits of an entry's sha256 kept in its name
TMP = ".tmp"
SCRATCH = ".scratch"
# beside the entries, never removed: the fontconfig configuration importing ``scenes`` writes (FONTCONFIG_FILE
# points at it in that process and every process it starts, which would find no fonts without it)
FONTCONFIG = "fontconfig"
_KEY = re.compile(r"[A-Za-z0-9_-]{2,160}")
_ENTRY = re.compile(rf"([A-Za-z0-9_-]{{2,160}})\.([0-9a-f]{{{SUM}}})")
_NO_ROOM = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)


def _sum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:SUM]


def _file_sum(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()[:SUM]


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stderr(line: str) -> None:
    print(f"clips: {line}", file=sys.stderr, flush=True)


def human(n: float) -> str:
    """``1.2 GB``, ``340 kB``: a size as ``clips cache`` prints it (decimal units, as the config's)."""
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"


@dataclass(frozen=True)
class Usage:
    entries: int
    bytes: int


class Store:
    """The cache at ``root`` in ``mode`` (see the module).  One per process: :func:`store`."""

    def __init__(self, root: Path = ROOT, mode: str = "on"):
        if mode not in MODES:
            raise ValueError(f"cache mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.root = Path(root)
        self.mode = mode
        self.repairs: list[str] = []  # one line per damaged entry dropped by this process
        self.report = _stderr  # called with each of those lines
        self.unwritable: str | None = None  # why the cache could not be written (said once), if it could not

    # ------------------------------------------------------------------ entries
    def _dir(self, kind: str, key: str) -> Path:
        if kind not in KINDS:
            raise ValueError(f"unknown cache kind {kind!r} (one of {', '.join(KINDS)})")
        if not _KEY.fullmatch(key):
            raise ValueError(f"a cache key is 2 to 160 letters, digits, '-' or '_', got {key!r}")
        return self.root / kind / key[:2]

    def _versions(self, kind: str, key: str) -> list[tuple[Path, str]]:
        """Every entry named ``key.<sum>`` (normally one), newest first."""
        d = self._dir(kind, key)
        found = []
        try:
            with os.scandir(d) as it:
                for e in it:
                    m = _ENTRY.fullmatch(e.name)
                    if m and m.group(1) == key:
                        try:
                            found.append((e.stat().st_mtime_ns, Path(e.path), m.group(2)))
                        except FileNotFoundError:
                            continue
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [(p, s) for _, p, s in sorted(found, reverse=True)]

    def _drop(self, kind: str, path: Path, why: str) -> None:
        try:
            path.unlink()
        except FileNotFoundError:
            return  # another process dropped it first, and said so
        except OSError:
            pass
        line = f"cache: a damaged {kind} entry ({why}) was dropped and made again: {path}"
        self.repairs.append(line)
        self.report(line)

    @staticmethod
    def _touch(path: Path) -> None:
        try:
            os.utime(path)  # used now: the last to go when the cache is trimmed
        except OSError:
            pass

    def get(self, kind: str, key: str) -> bytes | None:
        """The bytes kept under ``key``, checked against their checksum; ``None`` if there are none (or the
        mode reads nothing).  A damaged entry is dropped and reported, and ``None`` returned."""
        if self.mode != "on":
            return None
        for path, want in self._versions(kind, key):
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                continue
            except OSError as e:
                self._drop(kind, path, e.strerror or "unreadable")
                continue
            if _sum(data) != want:
                self._drop(kind, path, "its bytes do not match its checksum")
                continue
            self._touch(path)
            return data
        return None

    def has(self, kind: str, key: str) -> bool:
        """Whether an entry is kept under ``key`` (unchecked: :meth:`get` checks it when it is read)."""
        return self.mode == "on" and bool(self._versions(kind, key))

    def keys(self, kind: str, prefix: str) -> list[str]:
        """The keys of ``kind`` that start with ``prefix`` (at least its first two characters), newest first."""
        d = self._dir(kind, prefix if len(prefix) >= 2 else prefix + "__")
        out: list[tuple[int, str]] = []
        try:
            with os.scandir(d) as it:
                for e in it:
                    m = _ENTRY.fullmatch(e.name)
                    if m and m.group(1).startswith(prefix):
                        try:
                            out.append((e.stat().st_mtime_ns, m.group(1)))
                        except FileNotFoundError:
                            pass
        except (FileNotFoundError, NotADirectoryError):
            return []
        return list(dict.fromkeys(k for _, k in sorted(out, reverse=True)))

    def _write(self, kind: str, key: str, fill) -> Path | None:
        """Write an entry with ``fill(tmp) -> checksum`` and rename it into place; ``None`` when there is no
        room or no permission (the work goes on, uncached: said once)."""
        if self.mode == "off":
            return None
        d = self._dir(kind, key)
        tmp = d / f".{key}.{os.getpid()}.{threading.get_ident()}{TMP}"
        try:
            d.mkdir(parents=True, exist_ok=True)
            tmp.unlink(missing_ok=True)
            final = d / f"{key}.{fill(tmp)}"
            os.replace(tmp, final)
        except OSError as e:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            if e.errno not in _NO_ROOM:
                raise
            if self.unwritable is None:
                self.unwritable = f"{self.root}: {e.strerror}"
                self.report(f"cache: cannot keep work in {self.root} ({e.strerror}); going on without it")
            return None
        for old, _ in self._versions(kind, key):
            if old != final:
                old.unlink(missing_ok=True)
        return final

    def put(self, kind: str, key: str, data: bytes) -> None:
        """Keep ``data`` under ``key`` (atomically; replacing what was kept)."""

        def fill(tmp: Path) -> str:
            with open(tmp, "xb") as f:
                f.write(data)
            return _sum(data)

        self._write(kind, key, fill)

    def put_file(self, kind: str, key: str, src: Path) -> None:
        """Keep the finished file ``src`` under ``key``: linked in (it stays where it is; nothing is copied
        unless the cache is on another file system)."""

        def fill(tmp: Path) -> str:
            try:
                os.link(src, tmp)
            except OSError as e:
                if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
                    raise
                shutil.copyfile(src, tmp)
            return _file_sum(tmp)

        self._write(kind, key, fill)

    def link(self, kind: str, key: str, dst: Path) -> bool:
        """Put the entry kept under ``key`` at ``dst`` (a hard link, checked after linking: what is at ``dst`` is
        what was kept; ``dst``'s folder made if need be); ``False`` if there is none (or the mode reads nothing)."""
        if self.mode != "on":
            return False
        dst = Path(dst)
        versions = self._versions(kind, key)
        if versions:  # where it is wanted may not exist yet (Manim makes its segment folder at its first encode)
            dst.parent.mkdir(parents=True, exist_ok=True)
        for path, want in versions:
            tmp = dst.with_name(f".{dst.name}.{os.getpid()}.{threading.get_ident()}{TMP}")
            tmp.unlink(missing_ok=True)
            try:
                os.link(path, tmp)
            except FileNotFoundError:
                continue
            except OSError as e:
                if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
                    raise
                try:
                    shutil.copyfile(path, tmp)
                except FileNotFoundError:
                    continue
            if _file_sum(tmp) != want:
                tmp.unlink(missing_ok=True)
                self._drop(kind, path, "its bytes do not match its checksum")
                continue
            self._touch(tmp)
            os.replace(tmp, dst)
            return True
        return False

    def drop(self, kind: str, key: str) -> None:
        """Forget ``key`` (a caller that found a checked entry unusable, e.g. of another format)."""
        for path, _ in self._versions(kind, key):
            path.unlink(missing_ok=True)

    # ------------------------------------------------------------------ scratch folders
    def scratch(self, name: str) -> Path:
        """A fresh folder of this process on the cache's file system (``.scratch/<pid>-<name>``), for files
        linked out of the cache; remove it when done (the next command removes it if this process dies)."""
        d = self.root / SCRATCH / f"{os.getpid()}-{name}"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    # ------------------------------------------------------------------ the whole cache
    def _entries(self):
        """``(kind, path, stat)`` of every entry; also what is no entry (a foreign file) as kind ``None``."""
        for kind in KINDS:
            top = self.root / kind
            try:
                subs = list(os.scandir(top))
            except FileNotFoundError:
                continue
            for sub in subs:
                if not sub.is_dir(follow_symlinks=False):
                    yield None, Path(sub.path), None
                    continue
                try:
                    files = list(os.scandir(sub.path))
                except FileNotFoundError:
                    continue
                for f in files:
                    if f.name.endswith(TMP):
                        continue  # a writer's, alive or not (clean)
                    try:
                        st = f.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    if _ENTRY.fullmatch(f.name) and f.is_file(follow_symlinks=False):
                        yield kind, Path(f.path), st
                    else:
                        yield None, Path(f.path), st

    def usage(self) -> dict[str, Usage]:
        """Entries and bytes per kind."""
        n = dict.fromkeys(KINDS, 0)
        b = dict.fromkeys(KINDS, 0)
        for kind, _, st in self._entries():
            if kind is not None:
                n[kind] += 1
                b[kind] += st.st_size
        return {k: Usage(n[k], b[k]) for k in KINDS}

    def trim(self, limit: int) -> Usage:
        """Remove the least recently used entries, of any kind, until the cache holds at most ``limit``
        bytes; returns what was removed."""
        entries = []
        total = 0
        for kind, path, st in self._entries():
            if kind is None:
                continue
            entries.append((st.st_mtime_ns, path, st.st_size))
            total += st.st_size
        entries.sort()
        gone = freed = 0
        for _, path, size in entries:
            if total <= limit:
                break
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            total -= size
            gone += 1
            freed += size
        return Usage(gone, freed)

    def clean(self) -> None:
        """Remove what dead processes left: temporaries, scratch folders, and anything that is no entry
        (a cache of an earlier release is emptied once: its layout is not this one's)."""
        marker = self.root / "FORMAT"
        try:
            fresh = marker.read_text(encoding="utf-8").strip() != FORMAT
        except FileNotFoundError:
            fresh = self.root.exists()
        except OSError:
            fresh = False
        try:
            if fresh:
                for p in self.root.iterdir():
                    if p.name not in (SCRATCH, FONTCONFIG):
                        shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
            self.root.mkdir(parents=True, exist_ok=True)
            if fresh or not marker.exists():
                tmp = marker.with_name(f".FORMAT.{os.getpid()}{TMP}")
                tmp.write_text(FORMAT + "\n", encoding="utf-8")
                os.replace(tmp, marker)
        except OSError as e:
            if e.errno not in _NO_ROOM:
                raise
            return
        for kind in KINDS:
            for sub in (self.root / kind).glob("*"):
                for f in sub.glob(f"*{TMP}") if sub.is_dir() else ():
                    try:
                        pid = int(f.name.rsplit(".", 3)[-3])
                    except (ValueError, IndexError):
                        pid = -1
                    if pid <= 0 or not _alive(pid):
                        f.unlink(missing_ok=True)
        for kind, path, _ in list(self._entries()):
            if kind is None:
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
        scratch = self.root / SCRATCH
        if scratch.is_dir():
            for d in scratch.iterdir():
                try:
                    pid = int(d.name.split("-", 1)[0])
                except ValueError:
                    pid = -1
                if pid <= 0 or not _alive(pid):
                    shutil.rmtree(d, ignore_errors=True)

    def clear(self) -> Usage:
        """Empty the cache (every entry of every kind); returns what was removed."""
        before = self.usage()
        for kind in KINDS:
            shutil.rmtree(self.root / kind, ignore_errors=True)
        self.clean()
        return Usage(sum(u.entries for u in before.values()), sum(u.bytes for u in before.values()))


_store: Store | None = None
_lock = threading.Lock()


def store() -> Store:
    """This process's cache (``.render-cache/`` beside the project, mode ``"on"`` unless :func:`configure`\\ d)."""
    global _store
    with _lock:
        if _store is None:
            _store = Store()
        return _store


def configure(mode: str = "on", root: Path | None = None) -> Store:
    """Set this process's cache: its mode (``"on"``, ``"refresh"``, ``"off"``) and, for tests, its folder."""
    global _store
    with _lock:
        _store = Store(ROOT if root is None else root, mode)
        return _store
