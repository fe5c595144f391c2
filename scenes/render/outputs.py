"""The outputs' files: placed atomically (a reader never sees half a file), the output folder's lock, the
manifest, and a fault of the disk (no space, no permission) said in one line naming the disk."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
from pathlib import Path

from ..catalog import Clip
from .facts import VERSIONED, library_versions, video_facts  # noqa: F401 - the pipeline's names, as before

PARTIAL = ".partial"
# a clip's files: the video, its captions (SRT, and WebVTT for browsers), thumbnail, audio descriptions
OUTPUT_KINDS = ("mp4", "srt", "png", "vtt", "descriptions.vtt")


class LectureError(RuntimeError):
    """The lecture cannot be assembled (missing or mismatched clips); one line."""


class RenderLockedError(RuntimeError):
    """Another ``clips`` process holds the output folder."""


class NarrationProblem(ValueError):
    """A narration ``{brace}`` names no value its clip provides: one line each, before anything renders."""


FAULT_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)


def disk_of(path) -> str:
    """The file system ``path`` is on, as a person finds it: its mount point, type, size and free space."""
    p = os.path.realpath(str(path))
    best = ("/", "?")
    try:
        with open("/proc/self/mounts", encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3:
                    mnt = parts[1].replace("\\040", " ")
                    if (p == mnt or p.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best[0]):
                        best = (mnt, parts[2])
    except OSError:
        pass
    from clipcache import human

    try:
        u = shutil.disk_usage(best[0])
        return f"{best[0]} ({best[1]}, {human(u.total)}, {human(u.free)} free)"
    except OSError:
        return best[0]


def fault_message(what: str, path: str | None) -> str:
    """One line for a fault of the machine: what happened, to which file, on which disk."""
    where = f" writing {path}" if path else ""
    if "space" in what.lower() or "quota" in what.lower():
        disk = disk_of(path) if path else "the disk"
        return f"no space left on {disk}{where}: free some space (clips cache --clear frees the cache) and run again"
    return f"cannot write {path or 'a file'}: {what.split(':')[0]} (choose another --out, or make it writable)"


def fault_of(e: BaseException, where=None) -> str | None:
    """:func:`fault_message` for an ``OSError`` of the machine (no space, no permission), else ``None``;
    ``where`` names the folder when the error names no file (a write that ran out of room)."""
    if isinstance(e, OSError) and e.errno in FAULT_ERRNOS:
        return fault_message(e.strerror or os.strerror(e.errno), e.filename or (str(where) if where else None))
    return None



# ------------------------------------------------------------------------------ files
def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def place(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` atomically: write ``dst.partial``, fsync, rename (on a failure, no
    ``.partial`` is left and ``dst`` is as it was)."""
    tmp = dst.with_name(dst.name + PARTIAL)
    try:
        shutil.copyfile(src, tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, dst)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json_atomic(path: Path, data) -> None:
    tmp = path.with_name(path.name + PARTIAL)
    try:
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class OutputLock:
    """An exclusive ``flock`` on ``<out>/.lock`` for the life of a command."""

    def __init__(self, out: Path):
        self.path = out / ".lock"
        self.fd = None

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self.fd, 64, 0).decode(errors="replace").strip() or "?"
            os.close(self.fd)
            raise RenderLockedError(
                f"another clips command (pid {holder}) is writing {self.path.parent}; wait for it to finish"
            ) from None
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, str(os.getpid()).encode(), 0)
        return self

    def __exit__(self, *exc):
        os.ftruncate(self.fd, 0)
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


class Manifest:
    """``<out>/<quality>/manifest.json``: one entry per finished clip."""

    def __init__(self, qdir: Path, quality: str):
        self.path = qdir / "manifest.json"
        self.quality = quality
        try:
            self.data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(self.data.get("clips"), dict):
                raise ValueError
        except (FileNotFoundError, ValueError):
            self.data = {"quality": quality, "clips": {}}

    def entry(self, clip: Clip) -> dict | None:
        return self.data["clips"].get(clip.name)

    def check_writable(self) -> None:
        """Raise the ``OSError`` writing the manifest would raise (an unwritable folder or manifest), before
        anything renders: the manifest is written again as it is (or a probe beside it), atomically."""
        if self.path.exists():
            write_json_atomic(self.path, self.data)
        else:
            probe = self.path.with_name(self.path.name + PARTIAL)
            try:
                probe.write_text("", encoding="utf-8")
            finally:
                probe.unlink(missing_ok=True)

    def record(self, clip: Clip, entry: dict) -> None:
        self.data["clips"][clip.name] = entry
        self.data["clips"] = dict(sorted(self.data["clips"].items()))
        write_json_atomic(self.path, self.data)


