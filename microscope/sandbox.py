"""Running a submission in a bubblewrap sandbox, one process per submission, with limits.

The sandbox (``bwrap``, Debian's ``bubblewrap``):

* new namespaces for mounts, processes, IPC, host name and the network: inside there is no network
  at all (a socket cannot reach this machine or any other), and the processes outside are invisible;
* a file system of read-only binds: ``/usr`` (and the ``/lib``, ``/bin`` links), the Python
  installation, the virtual environment's ``site-packages`` (at ``/opt/microscope/site/N``, so not
  at its path in the project) and this package's ``child.py``; a private ``/tmp`` (a tmpfs of at
  most 64 MiB, also ``HOME`` and the working directory), ``/proc`` of its own and a minimal ``/dev``.
  The project tree, your home and everything else on the machine are not there at all;
* an empty environment (a handful of variables set), a new session (no terminal to inject keys
  into), killed with its parent;
* limits the child sets on itself before any student code runs: address space, CPU seconds,
  processes, file size, open files, no core files; the parent adds a wall-clock timeout per call
  and a cap on what the submission prints.

Started by root, bwrap runs without a user namespace (a user namespace would map the sandbox's user
to root outside, whom the kernel exempts from the process limit) and the child drops to uid 65534
(``nobody``) itself; started by anyone else, bwrap's user namespace maps it to uid 65534.
"""

from __future__ import annotations

import functools
import json
import os
import selectors
import shutil
import site
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from . import child as wire

CHILD = Path(wire.__file__).resolve()
INSIDE = "/opt/microscope"
NOBODY = 65534
PACKAGE_HINT = "install Debian's bubblewrap (sudo apt-get install bubblewrap)"


class SandboxUnavailable(RuntimeError):
    """bwrap is missing or cannot make its namespaces here: one line, naming the package."""


@dataclass(frozen=True)
class Limits:
    """What one submission may use.  ``timeout``: wall seconds for one check's calls; ``load_timeout``:
    for running the submission's own top-level code (its cells); the rest are per process."""

    timeout: float = 10.0
    load_timeout: float = 60.0
    memory: int = 1 << 30  # bytes of address space
    cpu: int = 300  # CPU seconds of the whole process, a backstop behind the timeouts
    processes: int = 64  # processes and threads (a fork bomb stops here)
    output: int = 1 << 20  # bytes printed, stdout and stderr together
    file: int = 64 << 20  # bytes in one file it writes (in its /tmp)
    tmp: int = 64 << 20  # bytes in its /tmp in all

    def as_dict(self) -> dict:
        return asdict(self)


def _python() -> tuple[str, list[str], list[str]]:
    """(the real interpreter, the folders it needs bound, the site-packages folders to add)."""
    exe = os.path.realpath(sys.executable)
    base = os.path.realpath(sys.base_prefix)
    sites = []
    for p in site.getsitepackages():
        rp = os.path.realpath(p)
        if os.path.isdir(rp) and rp not in sites:
            sites.append(rp)
    return exe, [base], sites


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--perms", "0755", "--dir", "/etc"]  # bwrap would make it 0700: nobody could read what is in it
    for f in ("/etc/ld.so.cache", "/etc/localtime", "/etc/fonts"):  # fontconfig: matplotlib asks fc-list
        args += ["--ro-bind-try", f, f]
    return args


@functools.lru_cache(maxsize=1)
def _bwrap_help() -> str:
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return ""
    r = subprocess.run([bwrap, "--help"], capture_output=True, text=True)
    return r.stdout + r.stderr


def bwrap_command(limits: Limits) -> tuple[list[str], dict]:
    """The bwrap command line that starts the child, and the child's settings (without its fds)."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        raise SandboxUnavailable(f"clips check runs submissions in a sandbox and needs bwrap: {PACKAGE_HINT}, "
                                 "or pass --no-sandbox to run them unprotected (unsafe)")
    exe, binds, sites = _python()
    root = os.geteuid() == 0
    cmd = [bwrap]
    if root:  # no user namespace: the child drops to nobody, so the kernel counts its processes
        cmd += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
                "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        cmd += ["--unshare-all", "--uid", str(NOBODY), "--gid", str(NOBODY)]
        if "--disable-userns" in _bwrap_help():
            cmd += ["--disable-userns"]
    cmd += ["--die-with-parent", "--new-session", "--clearenv"]
    cmd += _system_binds()
    made = {"/", "/usr"}

    def parents(path: str) -> list[str]:  # bwrap would make them 0700: the dropped user could not pass
        out = []
        for p in reversed(Path(path).parents):
            if str(p) not in made:
                made.add(str(p))
                out += ["--perms", "0755", "--dir", str(p)]
        return out

    for b in binds:
        if not (b == "/usr" or b.startswith("/usr/")):
            cmd += parents(b) + ["--ro-bind", b, b]
    inside_sites = []
    for i, s in enumerate(sites):
        cmd += parents(f"{INSIDE}/site/{i}") + ["--ro-bind", s, f"{INSIDE}/site/{i}"]
        inside_sites.append(f"{INSIDE}/site/{i}")
    cmd += ["--ro-bind", str(CHILD), f"{INSIDE}/child.py"]
    cmd += ["--perms", "1777", "--size", str(limits.tmp), "--tmpfs", "/tmp",
            "--proc", "/proc", "--dev", "/dev", "--chdir", "/tmp"]
    for k, v in _env("/tmp").items():
        cmd += ["--setenv", k, v]
    cmd += ["--", exe, "-I", "-S", f"{INSIDE}/child.py"]
    settings = {"site": inside_sites, "drop_to": NOBODY if root else None}
    return cmd, settings


def _env(home: str) -> dict:
    return {"PATH": "/usr/bin:/bin", "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg", "MPLCONFIGDIR": f"{home}/matplotlib",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@functools.lru_cache(maxsize=1)
def probe() -> None:
    """Start an empty sandbox once per process; :class:`SandboxUnavailable` (one line) if bwrap is
    missing or cannot create its namespaces here."""
    cmd, _ = bwrap_command(Limits())
    cmd = cmd[: cmd.index("--") + 1] + [cmd[cmd.index("--") + 1], "-I", "-S", "-c", "pass"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SandboxUnavailable(f"bwrap could not start a sandbox ({e}): {PACKAGE_HINT}, "
                                 "or pass --no-sandbox (unsafe)") from None
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        raise SandboxUnavailable(f"bwrap cannot create its namespaces here ({why}); clips check needs a working "
                                 f"bubblewrap: {PACKAGE_HINT} on a machine that allows user namespaces, "
                                 "or pass --no-sandbox (unsafe)")


# ---------------------------------------------------------------------------------------------- a session
@dataclass
class Failure:
    """Why a call gave no answer: ``kind`` is timeout, output, died or protocol; ``message`` one line."""

    kind: str
    message: str


class Session:
    """One sandboxed child running one submission: :meth:`load`, then :meth:`call` as often as needed.

    ``serve(name, X) -> Y`` answers the proxy callables (``attn``) the child hands the student's checks;
    it runs here, in the parent, and whatever it raises is sent back as the callable's ``ValueError``.
    A call that times out, prints too much or kills the process returns a :class:`Failure` and ends the
    session (the caller starts a new one for the next check)."""

    def __init__(self, limits: Limits, sandbox: bool = True, serve=None):
        self.limits = limits
        self.serve = serve
        self.output = bytearray()  # what the submission printed (the first 64 KiB kept)
        self.printed = 0
        self.reader = wire.Reader()
        self.proc = None
        self.dead: Failure | None = None
        self.unit = None  # the code unit being loaded
        self._tmp = None
        in_r, self.in_w = os.pipe()
        self.out_r, out_w = os.pipe()
        settings_cfg = {"in": in_r, "out": out_w, "limits": limits.as_dict(), "processes": limits.processes}
        if sandbox:
            cmd, settings = bwrap_command(limits)
            cwd, env = "/", {}
        else:  # unsafe: the child runs as this user, with the same limits but no namespaces
            exe, _, sites = _python()
            self._tmp = tempfile.mkdtemp(prefix="microscope-")
            cmd = [exe, "-I", "-S", str(CHILD)]
            settings = {"site": sites, "drop_to": None}
            cwd, env = self._tmp, _env(self._tmp)
            if os.geteuid() == 0:
                settings_cfg["processes"] = None  # root is exempt anyway
        cfg = dict(settings_cfg, **settings)
        try:
            self.proc = subprocess.Popen(cmd + [json.dumps(cfg)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, pass_fds=(in_r, out_w), cwd=cwd,
                                         env=env if not sandbox else {"PATH": "/usr/bin:/bin"})
        finally:
            os.close(in_r)
            os.close(out_w)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.out_r, selectors.EVENT_READ, "wire")
        self.sel.register(self.proc.stdout, selectors.EVENT_READ, "output")

    # -- low level
    def _write(self, data: bytes, deadline: float) -> Failure | None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.in_w, view[: 1 << 16])
            except BrokenPipeError:
                return self._end("died", self._death())
            view = view[n:]
            if time.monotonic() > deadline:
                return self._end("timeout", None)
        return None

    def _death(self) -> str:
        try:
            rc = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "the submission's process stopped answering"
        import signal

        sig = -rc if rc < 0 else rc - 128 if rc > 128 else 0  # bwrap passes a signal on as 128 + its number
        if sig:
            name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else f"signal {sig}"
            if name == "SIGXCPU":
                return f"used more than {self.limits.cpu} s of CPU time (stopped)"
            return f"the submission's process crashed ({name})"
        return f"the submission's process ended (exit status {rc})"

    def _end(self, kind: str, message: str | None) -> Failure:
        self.kill()
        if message is None:
            message = {"timeout": "timed out",
                       "output": f"printed more than {_size(self.limits.output)} (stopped)"}[kind]
        self.dead = Failure(kind, message)
        return self.dead

    def _read_output(self) -> bool:
        data = os.read(self.proc.stdout.fileno(), 1 << 16)
        if not data:
            self.sel.unregister(self.proc.stdout)
            return True
        self.printed += len(data)
        if len(self.output) < 65536:
            self.output += data[: 65536 - len(self.output)]
        return self.printed <= 2 * self.limits.output  # the child's own cap is the first line of defence

    def receive(self, deadline: float, kinds: tuple[str, ...]):
        """The next message of one of ``kinds``, answering ``attn`` requests meanwhile; or a Failure."""
        if self.dead:
            return self.dead
        while True:
            msg = None
            try:
                msg = self.reader.pop()
            except wire.ProtocolError as e:
                return self._end("protocol", f"sent an answer that could not be read ({e})")
            if msg is not None:
                header, arrays = msg
                if header["kind"] == "attn" and self.serve is not None:
                    fail = self._answer(header, arrays, deadline)
                    if fail:
                        return fail
                    continue
                if header["kind"] == "unit":
                    self.unit = header.get("index")
                    continue
                if header["kind"] in kinds:
                    return header, arrays
                return self._end("protocol", f"sent an unexpected message ({header['kind']!r})")
            left = deadline - time.monotonic()
            if left <= 0:
                return self._end("timeout", None)
            for key, _ in self.sel.select(timeout=min(left, 1.0)):
                if key.data == "output":
                    if not self._read_output():
                        return self._end("output", None)
                    continue
                data = os.read(self.out_r, 1 << 20)
                if not data:
                    why = self._death()
                    self._drain_output()
                    return self._end("died", why)
                try:
                    self.reader.feed(data)
                except wire.ProtocolError as e:
                    return self._end("protocol", f"sent an answer that could not be read ({e})")

    def _drain_output(self) -> None:
        """What the process printed before it ended (it is gone: read what is left in the pipe)."""
        for _ in range(64):
            if self.proc.stdout not in [k.fileobj for k in self.sel.get_map().values()]:
                return
            if not any(k.data == "output" for k, _ in self.sel.select(timeout=0.2)):
                return
            self._read_output()

    def _answer(self, header: dict, arrays: list, deadline: float) -> Failure | None:
        try:
            if len(arrays) != 1:
                raise ValueError("attn takes one array")
            Y = self.serve(header.get("name", ""), arrays[0])
            data = wire.pack({"kind": "attn_result"}, [Y])
        except ValueError as e:
            data = wire.pack({"kind": "attn_error", "message": str(e)[:300]})
        return self._write(data, deadline)

    # -- the session
    def load(self, units: list[dict], module: str):
        """Run the submission's code units; the child's ``loaded`` header, or a Failure."""
        deadline = time.monotonic() + self.limits.load_timeout
        fail = self._write(wire.pack({"kind": "load", "units": units}), deadline)
        if fail:
            return fail
        got = self.receive(deadline, ("loaded",))
        return got if isinstance(got, Failure) else got[0]

    def call(self, task_id: int, fn: str, runs: list[dict], arrays: list, timeout: float | None = None):
        """Send one task (``runs``: each ``{"args": [spec], "kwargs": {name: spec}}``); ``(header, arrays)``
        of the child's result, or a Failure."""
        deadline = time.monotonic() + (timeout or self.limits.timeout)
        self.printed = 0
        fail = self._write(wire.pack({"kind": "call", "id": task_id, "fn": fn, "runs": runs}, arrays), deadline)
        if fail:
            return fail
        return self.receive(deadline, ("result",))

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # bwrap: its pid namespace, and every process in it, goes with it
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None and not self.dead:
            try:
                os.write(self.in_w, wire.pack({"kind": "exit"}))
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        if self.proc is not None and self.proc.stdout and not self.dead:
            self._drain_output()  # never a blocking read: without the sandbox, an orphan may hold the pipe
        self.sel.close()
        for fd in (self.in_w, self.out_r):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def printed_text(self) -> str:
        return self.output.decode("utf-8", "replace")


def _size(n: int) -> str:
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << k and n % (1 << k) == 0:
            return f"{n >> k} {unit}"
    return f"{n} bytes"
