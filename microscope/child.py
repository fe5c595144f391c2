"""The process that runs a student's code, inside the sandbox: standard library and NumPy only.

Started by :mod:`microscope.sandbox` as ``python -I -S child.py CONFIG_JSON``; this file is bound read-only
into the sandbox on its own (the rest of the project is not there), so it imports nothing of ours.  The parent
module imports it too, for the wire format (:func:`pack`, :class:`Reader`), which both sides share.

What it does, in order:

1. sets its resource limits (address space, CPU seconds, processes, file size, open files, no core
   files) and, where the sandbox was started by root without a user namespace, drops to an unprivileged
   uid (so the process limit holds: the kernel does not count root's processes against it);
2. adds the site-packages folders it is given (NumPy, and matplotlib for the plots in a notebook);
3. reads the submission's code units (a ``.py`` file is one unit, a notebook one unit per code cell)
   and runs them statement by statement, recording every error with its line and going on, as a
   grader reading a notebook would;
4. reports the functions it found, with their signatures;
5. runs the calls the parent sends, one task at a time, and sends back what each returned, what it
   raised (with the line in the submission) and which inputs it changed in place.

The wire: a message is a frame holding a JSON object, followed by as many frames as it says, each
holding one ``.npy`` array; a frame is a 4-byte big-endian length and that many bytes.  Arrays are
read with ``allow_pickle=False`` and must be plain numbers (bool, integer, float): nothing the child
sends can run code in the parent.  The child's own prints go to stdout/stderr, which the parent
reads separately and caps, so a print never breaks a message.
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys

MAX_FRAME = 64 << 20  # bytes in one frame (an array of 8 M float64)
MAX_HEADER = 1 << 20  # bytes of one JSON header
MAX_ARRAYS = 4096  # arrays in one message
SUBMISSION = "<submission:"  # the file name given to the student's code when compiled: "<submission:3>"


class ProtocolError(Exception):
    """The other side sent something that is not a well-formed message."""


# ---------------------------------------------------------------------------------------------- wire
def _npy(a) -> bytes:
    import numpy as np

    buf = io.BytesIO()
    np.save(buf, np.asarray(a), allow_pickle=False)
    return buf.getvalue()


def pack(header: dict, arrays=()) -> bytes:
    """One message: the JSON header (with ``n``, the number of arrays) and the arrays as ``.npy`` frames."""
    blobs = [_npy(a) for a in arrays]
    head = json.dumps(dict(header, n=len(blobs)), separators=(",", ":")).encode("utf-8")
    parts = [struct.pack(">I", len(head)), head]
    for b in blobs:
        parts += [struct.pack(">I", len(b)), b]
    return b"".join(parts)


def load_array(blob: bytes):
    """A ``.npy`` frame as an array of plain numbers, or :class:`ProtocolError` (never unpickles)."""
    import numpy as np

    try:
        a = np.load(io.BytesIO(blob), allow_pickle=False)
    except Exception as e:  # a malformed header, an object array, a truncated body
        raise ProtocolError(f"a malformed array: {type(e).__name__}: {e}") from None
    if not isinstance(a, np.ndarray) or a.dtype.fields is not None or a.dtype.kind not in "biuf":
        raise ProtocolError(f"an array of dtype {getattr(a, 'dtype', type(a).__name__)}, not of plain numbers")
    return a


class Reader:
    """Assembles messages from bytes as they arrive: :meth:`feed`, then :meth:`pop` until it gives None."""

    def __init__(self, max_total: int = 256 << 20):
        self.buf = bytearray()
        self.max_total = max_total

    def feed(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) > self.max_total:
            raise ProtocolError(f"more than {self.max_total >> 20} MiB sent at once")

    def _frame(self, at: int, limit: int):
        if len(self.buf) < at + 4:
            return None, at
        (n,) = struct.unpack(">I", self.buf[at:at + 4])
        if n > limit:
            raise ProtocolError(f"a frame of {n} bytes (at most {limit})")
        if len(self.buf) < at + 4 + n:
            return None, at
        return bytes(self.buf[at + 4:at + 4 + n]), at + 4 + n

    def pop(self):
        """``(header, arrays)`` of the next complete message, or None if it has not all arrived."""
        head, at = self._frame(0, MAX_HEADER)
        if head is None:
            return None
        try:
            header = json.loads(head.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise ProtocolError(f"a header that is not JSON ({e})") from None
        if not isinstance(header, dict) or not isinstance(header.get("kind"), str):
            raise ProtocolError("a header without a kind")
        n = header.get("n", 0)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_ARRAYS:
            raise ProtocolError(f"a header announcing {n!r} arrays")
        blobs = []
        for _ in range(n):
            blob, at = self._frame(at, MAX_FRAME)
            if blob is None:
                return None
            blobs.append(blob)
        del self.buf[:at]
        return header, [load_array(b) for b in blobs]


# ---------------------------------------------------------------------------------------------- the child
class OutputLimit(BaseException):
    """The submission printed more than it may: raised inside its print (a BaseException, so that
    ``except Exception`` in the student's code does not swallow it)."""


class CappedStream(io.TextIOBase):
    """sys.stdout/sys.stderr for the student's code: passes text through to the parent until
    ``limit`` bytes in all, then raises :class:`OutputLimit`."""

    def __init__(self, fd: int, counter: list, limit: int):
        self.fd, self.counter, self.limit = fd, counter, limit

    def writable(self):
        return True

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        data = s.encode("utf-8", "replace")
        self.counter[0] += len(data)
        if self.counter[0] > self.limit:
            raise OutputLimit()
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]
        return len(s)


class Child:
    def __init__(self, cfg: dict):
        self.fin, self.fout = cfg["in"], cfg["out"]
        self.reader = Reader()
        self.where: dict[str, str] = {}  # compiled file name -> "cell 3" / ""
        self.forks = [0]
        self.printed = [0]
        self.output_limit = int(cfg["limits"]["output"])
        self.limits = cfg["limits"]

    # -- the wire
    def send(self, header: dict, arrays=()) -> None:
        data = memoryview(pack(header, arrays))
        while data:
            data = data[os.write(self.fout, data):]

    def recv(self):
        while True:
            msg = self.reader.pop()
            if msg is not None:
                return msg
            chunk = os.read(self.fin, 1 << 16)
            if not chunk:
                raise SystemExit(0)  # the parent is gone
            self.reader.feed(chunk)

    # -- errors, located in the submission
    def located(self, e: BaseException) -> dict:
        import traceback

        line, where = None, None
        for fr in traceback.extract_tb(e.__traceback__):
            if fr.filename.startswith(SUBMISSION):
                line, where = fr.lineno, self.where.get(fr.filename, "")
        if isinstance(e, SyntaxError) and isinstance(e.filename, str) and e.filename.startswith(SUBMISSION):
            line, where = e.lineno, self.where.get(e.filename, "")
        raw = e.msg if isinstance(e, SyntaxError) and e.msg else str(e)
        text = raw.strip().splitlines()[0] if raw.strip() else ""
        if isinstance(e, OutputLimit):
            kind = "output"
        elif isinstance(e, MemoryError):
            kind = "memory"
        elif isinstance(e, BlockingIOError) and self.forks[0]:
            kind = "fork"
        else:
            kind = "raised"
        return {"type": type(e).__name__, "message": text[:300], "line": line, "where": where, "kind": kind,
                "forks": self.forks[0]}

    # -- loading
    def load(self, units: list[dict], module_name: str) -> dict:
        import ast
        import builtins

        ns = {"__name__": module_name, "__builtins__": builtins, "display": lambda *a, **k: None}
        errors = []
        for i, unit in enumerate(units):
            fname = f"{SUBMISSION}{i}>"
            self.where[fname] = unit.get("where", "")
            self.send({"kind": "unit", "index": i})
            source = "\n" * (int(unit.get("line", 1)) - 1) + unit["source"]  # line numbers as in the file/cell
            try:
                tree = ast.parse(source, fname)
            except SyntaxError as e:
                errors.append(self.located(e))
                continue
            for stmt in tree.body:
                try:
                    exec(compile(ast.Module([stmt], type_ignores=[]), fname, "exec"), ns)
                except SystemExit:
                    errors.append({"type": "SystemExit", "message": "calls exit()", "line": stmt.lineno,
                                   "where": unit.get("where", ""), "kind": "raised", "forks": 0})
                except BaseException as e:  # noqa: BLE001 (the student's error is the report)
                    errors.append(self.located(e))
                    if isinstance(e, OutputLimit):
                        return {"errors": errors, "functions": {}, "stopped": "output"}
        self.ns = ns
        return {"errors": errors[:20], "functions": self.functions(ns)}

    @staticmethod
    def functions(ns: dict) -> dict:
        import inspect

        out = {}
        for name, fn in ns.items():
            if name.startswith("_") or not callable(fn) or isinstance(fn, type):
                continue
            code = getattr(fn, "__code__", None)
            if code is None or not code.co_filename.startswith(SUBMISSION):
                continue  # imported, not the student's own
            try:
                sig = inspect.signature(fn)
                params = [{"name": p.name, "kind": p.kind.name, "default": p.default is not p.empty}
                          for p in sig.parameters.values()]
            except (TypeError, ValueError):
                params = None
            out[name] = {"params": params, "file": code.co_filename, "line": code.co_firstlineno,
                         "uses": sorted(_names(code))}
        return out

    # -- calls
    def arg(self, spec, arrays):
        import numpy as np

        if "a" in spec:
            return np.array(arrays[spec["a"]], copy=True)
        if "attn" in spec:
            return self.proxy(spec["attn"])
        if "fn" in spec:
            fn = self.ns[spec["fn"]]
            return fn(*[self.arg(s, arrays) for s in spec["args"]])
        return spec["v"]

    def proxy(self, name: str):
        import numpy as np

        child = self

        def attn(X):
            a = np.asarray(X)
            if a.dtype.kind not in "biuf":
                raise TypeError(f"attn needs an array of numbers, got dtype {a.dtype}")
            child.send({"kind": "attn", "name": name}, [a])
            header, arrays = child.recv()
            if header["kind"] == "attn_error":
                raise ValueError(header.get("message", "attn refused its input"))
            return arrays[0]

        attn.__name__ = f"attn_{name}"
        return attn

    def encode(self, value, arrays: list, depth: int = 0) -> dict:
        import numpy as np

        max_bytes = MAX_FRAME // 2
        if isinstance(value, np.ndarray):
            d = {"t": "ndarray", "dtype": str(value.dtype), "shape": list(value.shape)}
            if value.dtype.kind in "biuf" and value.dtype.fields is None and value.nbytes <= max_bytes:
                arrays.append(value)
                d["a"] = len(arrays) - 1
            return d
        if isinstance(value, (bool, np.bool_)):
            arrays.append(np.asarray(value))
            return {"t": "bool", "a": len(arrays) - 1}
        if isinstance(value, (int, float, np.integer, np.floating)):
            if isinstance(value, int) and not -(2 ** 63) <= value < 2 ** 63:
                value = float(value)
            arrays.append(np.asarray(value))
            return {"t": type(value).__name__, "a": len(arrays) - 1}
        if value is None:
            return {"t": "None"}
        if isinstance(value, (list, tuple)):
            d = {"t": type(value).__name__, "len": len(value)}
            try:
                a = np.asarray(value)
            except (ValueError, TypeError):  # ragged: a list of arrays of different shapes
                a = None
            if a is not None and a.dtype.kind in "biuf" and a.nbytes <= max_bytes:
                arrays.append(a)
                d["a"] = len(arrays) - 1
            if depth == 0 and len(value) <= 8:
                d["items"] = [self.encode(v, arrays, 1) for v in value]
            return d
        return {"t": type(value).__name__}

    def run(self, header: dict, arrays: list) -> None:
        import numpy as np

        fn = self.ns.get(header["fn"])
        results, error, sent = [], None, []
        self.printed[0] = 0  # the output limit holds per check
        for k, run in enumerate(header["runs"]):
            try:
                args = [self.arg(s, arrays) for s in run.get("args", [])]
                kwargs = {key: self.arg(s, arrays) for key, s in run.get("kwargs", {}).items()}
                before = [(i, a.copy()) for i, a in enumerate(args) if isinstance(a, np.ndarray)]
                value = fn(*args, **kwargs)
            except BaseException as e:  # noqa: BLE001 (what the student's code raised is the verdict)
                if isinstance(e, SystemExit):
                    error = {"type": "SystemExit", "message": "calls exit()", "line": None, "where": "",
                             "kind": "raised", "forks": 0}
                else:
                    error = self.located(e)
                error["run"] = k
                break
            mutated = []
            for i, old in before:
                new = args[i]
                if new.shape != old.shape or not np.array_equal(new, old, equal_nan=True):
                    change = None
                    if new.shape == old.shape:
                        with np.errstate(invalid="ignore", over="ignore"):
                            diff = np.abs(new.astype(np.float64) - old.astype(np.float64))
                        finite = diff[np.isfinite(diff)]
                        change = float(finite.max()) if finite.size else None
                    mutated.append({"arg": i, "change": change})
            out = []
            enc = self.encode(value, out)
            if sum(a.nbytes for a in sent) + sum(a.nbytes for a in out) > 4 * MAX_FRAME:
                enc, out = {"t": "ndarray", "note": "too large to send"}, []
            results.append({"value": _shift(enc, len(sent)), "mutated": mutated})
            sent += out
        reap()
        self.send({"kind": "result", "id": header["id"], "results": results, "error": error,
                   "forks": self.forks[0]}, sent)

    def serve(self, module_name: str) -> None:
        header, _ = self.recv()
        if header["kind"] != "load":
            raise ProtocolError(f"expected the submission first, got {header['kind']!r}")
        loaded = self.load(header["units"], module_name)
        reap()
        self.send(dict(loaded, kind="loaded"))
        if loaded.get("stopped"):
            return
        while True:
            header, arrays = self.recv()
            if header["kind"] == "exit":
                return
            if header["kind"] != "call":
                raise ProtocolError(f"unexpected message {header['kind']!r}")
            self.run(header, arrays)


def _names(code) -> set:
    """The global names a function's code (and the functions and lambdas inside it) refers to."""
    names = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            names |= _names(c)
    return names


def reap() -> None:
    """Collect the processes the submission started (each ended at once, see ``main``), so that they do
    not stay as zombies counted against the process limit of the checks after it."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _shift(enc: dict, base: int) -> dict:
    """Array indices in an encoded value, counted from the first array this result sends."""
    enc = dict(enc)
    if "a" in enc:
        enc["a"] += base
    if "items" in enc:
        enc["items"] = [_shift(i, base) for i in enc["items"]]
    return enc


def _limit(resource, which, value):
    resource.setrlimit(which, (value, value))


def main(argv: list[str]) -> int:
    import resource

    cfg = json.loads(argv[1])
    lim = cfg["limits"]
    _limit(resource, resource.RLIMIT_CORE, 0)
    _limit(resource, resource.RLIMIT_AS, int(lim["memory"]))
    resource.setrlimit(resource.RLIMIT_CPU, (int(lim["cpu"]), int(lim["cpu"]) + 2))  # SIGXCPU, then SIGKILL
    _limit(resource, resource.RLIMIT_FSIZE, int(lim["file"]))
    _limit(resource, resource.RLIMIT_NOFILE, 64)
    if cfg.get("drop_to") is not None and os.getuid() == 0:
        # root started bwrap without a user namespace: become an ordinary user, or the kernel would not
        # count this process tree against RLIMIT_NPROC (root is exempt) and a fork bomb would run free
        uid = int(cfg["drop_to"])
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    if cfg.get("processes"):
        _limit(resource, resource.RLIMIT_NPROC, int(cfg["processes"]))
    import site

    for d in cfg.get("site", []):
        site.addsitedir(d)
    sys.path[:] = [p for p in sys.path if p != os.path.dirname(os.path.abspath(__file__))]
    child = Child(cfg)

    def before_fork():
        child.forks[0] += 1

    os.register_at_fork(before=before_fork, after_in_child=lambda: os._exit(70))  # no second writer on the wire
    import numpy  # noqa: F401  (before the student's code: its import time is not theirs)

    sys.stdout = CappedStream(1, child.printed, child.output_limit)
    sys.stderr = CappedStream(2, child.printed, child.output_limit)
    sys.stdin = open(os.devnull)
    try:
        child.serve(cfg.get("module", "__main__"))
    except ProtocolError as e:
        os.write(2, f"microscope child: {e}\n".encode())
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
