"""Calling a submission's functions in its sandbox, one check at a time, surviving whatever they do.

:class:`StudentCode` starts the sandboxed child, runs the submission's code, and calls its functions on
arrays we send.  A call that hangs, prints without end or kills its process ends that sandbox; the next
call starts a fresh one (running the submission's code again) and a function that hung is not called
again: its later checks say why at once.  Every answer is an :class:`Outcome`, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .sandbox import Failure, Limits, Session, _size
from .submission import Submission

MAX_RESTARTS = 4
CHUNK_RUNS = 1000  # runs in one message to the sandbox
CHUNK_ARRAYS = 2000  # arrays in one message (the wire refuses more than 4096)


@dataclass(frozen=True)
class Proxy:
    """An argument that is a callable in the child, answered here by ``Outcome.calls``' server ``name``."""

    name: str


@dataclass(frozen=True)
class Call:
    """An argument made in the child by calling one of the submission's own functions (``causal_mask(T)``)."""

    fn: str
    args: tuple


@dataclass(frozen=True)
class Value:
    """One returned value as the child described it: ``kind`` is the Python type's name (``ndarray``,
    ``tuple``, ``list``, ``float``, ``None``, ...), ``array`` its numbers where it has any."""

    kind: str
    array: np.ndarray | None = None
    items: tuple = ()
    dtype: str = ""
    shape: tuple = ()
    note: str = ""

    def describe(self) -> str:
        if self.kind == "ndarray":
            if self.array is None:
                return f"an array of dtype {self.dtype} ({self.note or 'not numbers'})"
            return f"an array of shape {tuple(self.array.shape)}"
        if self.kind in ("list", "tuple"):
            return f"a {self.kind} of {len(self.items) if self.items else 'several'} item(s)"
        if self.kind == "None":
            return "None"
        return f"a {self.kind}"


def _value(enc: dict, arrays: list) -> Value:
    arr = None
    a = enc.get("a")
    if isinstance(a, int) and 0 <= a < len(arrays):
        arr = arrays[a]
    items = tuple(_value(i, arrays) for i in enc.get("items", ()) if isinstance(i, dict))
    shape = tuple(int(s) for s in enc.get("shape", ()) if isinstance(s, int))
    return Value(str(enc.get("t", "?"))[:40], arr, items, str(enc.get("dtype", ""))[:40], shape,
                 str(enc.get("note", ""))[:80])


def _shift_specs(spec, k: int):
    """A run's argument specs with their array indices moved on by ``k`` (its arrays follow ``k`` others)."""
    if isinstance(spec, dict):  # {"a": i}, {"fn": …, "args": […]}, {"args": …, "kwargs": …}; a {"v": …} is data
        return {key: (v + k if key == "a" else v if key == "v" else _shift_specs(v, k)) for key, v in spec.items()}
    if isinstance(spec, list):
        return [_shift_specs(v, k) for v in spec]
    return spec


@dataclass
class Outcome:
    """What one call (or series of calls) of a submission's function gave.

    ``ok``: every run returned (``values``, one per run, and ``mutated``: per run, the inputs it changed);
    otherwise ``message`` says in one line what went wrong (``raises ValueError: … (line 12)``,
    ``timed out after 10 s``) and ``values`` holds the runs before it.  ``calls`` logs the proxy
    callables' uses: ``(name, X given, Y returned)``."""

    ok: bool
    values: list = field(default_factory=list)
    mutated: list = field(default_factory=list)
    message: str = ""
    error: dict | None = None
    calls: list = field(default_factory=list)


class StudentCode:
    """One submission, run in its own sandbox (``sandbox=False``: without one, unsafe)."""

    def __init__(self, submission: Submission, limits: Limits = Limits(), sandbox: bool = True):
        self.sub = submission
        self.limits = limits
        self.sandbox = sandbox
        self.session: Session | None = None
        self.loaded: dict | None = None  # the first load's report
        self.load_failure: str | None = None
        self.hung: dict[str, str] = {}  # function -> why it is not called again
        self.restarts = 0
        self.task = 0
        self._servers: dict = {}
        self._log: list = []
        self.output = ""

    # -- places
    def place(self, err: dict) -> str:
        where = err.get("where") or ""
        line = err.get("line")
        if not where and line is None:
            return ""
        return self.sub.place(where, line)

    def place_of(self, file: str, line) -> str:
        """Where a function is defined, from its compiled file name ``<submission:N>``."""
        where = ""
        try:
            idx = int(str(file).rsplit(":", 1)[1].rstrip(">"))
            where = self.sub.units[idx]["where"]
        except (IndexError, ValueError):
            pass
        return self.sub.place(where, line)

    def error_line(self, err: dict) -> str:
        """One line for an error the child reported."""
        where = self.place(err)
        at = f" ({where})" if where else ""
        text = f"{err.get('type', 'Error')}: {err.get('message', '')}".rstrip(": ")
        kind = err.get("kind")
        if kind == "memory":
            return f"runs out of memory (limit {_size(self.limits.memory)}): {text}{at}"
        if kind == "fork":
            return f"starts processes: stopped at the limit of {self.limits.processes} ({text}){at}"
        if kind == "output":
            return f"printed more than {_size(self.limits.output)} (stopped){at}"
        return f"raises {text}{at}"

    def failure_line(self, f: Failure) -> str:
        if f.kind == "timeout":
            return f"timed out after {self.limits.timeout:g} s"
        return f.message

    # -- the sandbox
    def _serve(self, name: str, X: np.ndarray) -> np.ndarray:
        if name not in self._servers:
            raise ValueError(f"no attention named {name!r}")
        if len(self._log) >= 20000:
            raise ValueError("attn was called more than 20000 times")
        Y = np.asarray(self._servers[name](X))
        self._log.append((name, np.array(X, copy=True), Y))
        return Y

    def start(self) -> dict | None:
        """Start a sandbox and run the submission's code: its load report (errors, functions), or None
        when it could not be loaded (``load_failure`` says why)."""
        if self.load_failure:
            return None
        self.session = Session(self.limits, self.sandbox, serve=self._serve)
        got = self.session.load(list(self.sub.units), self.sub.module_name)
        if isinstance(got, Failure):
            unit = self.session.unit
            where = self.sub.units[unit]["where"] if unit is not None and unit < len(self.sub.units) else ""
            at = f" (in {where})" if where else ""
            if got.kind == "timeout":
                self.load_failure = f"running the submission timed out after {self.limits.load_timeout:g} s{at}"
            else:
                self.load_failure = f"running the submission failed: {got.message}{at}"
            self._close_session()
            return None
        if got.get("stopped") == "output":
            self.load_failure = f"the submission printed more than {_size(self.limits.output)} while running (stopped)"
        if self.loaded is None:
            self.loaded = got
        if self.load_failure:
            self._close_session()
            return None
        return got

    def _close_session(self) -> None:
        if self.session is not None:
            self.output += self.session.printed_text()
            self.session.close()
            self.session = None

    def close(self) -> None:
        self._close_session()

    def _reaches_hung(self, fn: str) -> str | None:
        """A function that hung which ``fn`` calls, directly or through others (from the global names
        each function's code uses)."""
        functions = (self.loaded or {}).get("functions", {})
        seen, todo = set(), [fn]
        while todo:
            f = todo.pop()
            for g in functions.get(f, {}).get("uses", []):
                if g in self.hung:
                    return g
                if g in functions and g not in seen:
                    seen.add(g)
                    todo.append(g)
        return None

    # -- calls
    def call(self, fn: str, runs: list, servers: dict | None = None, timeout: float | None = None) -> Outcome:
        """Call ``fn`` once per run (each a list of positional arguments, or ``(args, kwargs)``): arrays are
        sent as they are, :class:`Proxy` and :class:`Call` are made in the child, anything else is sent as
        JSON.  Returns an :class:`Outcome`."""
        if fn in self.hung:
            return Outcome(False, message=f"not run again: {self.hung[fn]} above")
        stuck = self._reaches_hung(fn)
        if stuck:
            return Outcome(False, message=f"not run: it calls {stuck}, which {self.hung[stuck]} above")
        if self.load_failure:
            return Outcome(False, message=f"not run: {self.load_failure}")
        if self.session is None or self.session.dead:
            if self.restarts >= MAX_RESTARTS:
                return Outcome(False, message=f"not run: the sandbox was restarted {MAX_RESTARTS} times")
            if self.session is not None:
                self._close_session()
                self.restarts += 1
            if self.start() is None:
                return Outcome(False, message=f"not run: {self.load_failure}")
        import time

        def spec(a, arrays):
            if isinstance(a, np.ndarray):
                arrays.append(a)
                return {"a": len(arrays) - 1}
            if isinstance(a, Proxy):
                return {"attn": a.name}
            if isinstance(a, Call):
                return {"fn": a.fn, "args": [spec(x, arrays) for x in a.args]}
            return {"v": a}

        # the runs go in messages of at most CHUNK_RUNS runs and CHUNK_ARRAYS arrays (the wire's limit is 4096
        # arrays a message, either way: 10 000 permutations of X are three messages, not one refused)
        chunks: list[tuple[list, list]] = [([], [])]
        for run in runs:
            args, kwargs = run if isinstance(run, tuple) else (run, {})
            arrays: list = []
            one = {"args": [spec(a, arrays) for a in args], "kwargs": {k: spec(v, arrays) for k, v in kwargs.items()}}
            wire_runs, sent = chunks[-1]
            if wire_runs and (len(wire_runs) >= CHUNK_RUNS or len(sent) + len(arrays) > CHUNK_ARRAYS):
                chunks.append(([], []))
                wire_runs, sent = chunks[-1]
            shift = len(sent)
            wire_runs.append(_shift_specs(one, shift))
            sent += arrays
        self._servers, self._log = dict(servers or {}), []
        if timeout is None and len(chunks) > 1:  # the limit is for a thousand runs: 10 000 runs get ten times it
            timeout = self.limits.timeout * len(chunks)
        deadline = time.monotonic() + (timeout or self.limits.timeout)
        values, mutated = [], []
        for wire_runs, sent in chunks:
            self.task += 1
            got = self.session.call(self.task, fn, wire_runs, sent, max(deadline - time.monotonic(), 0.01))
            log = self._log
            if isinstance(got, Failure):
                line = self.failure_line(got)
                if got.kind == "timeout" and timeout:
                    line = f"timed out after {timeout:g} s"
                self.hung[fn] = line
                self._close_session()
                return Outcome(False, values, mutated, message=line, calls=log)
            header, out_arrays = got
            if header.get("id") != self.task or not isinstance(header.get("results"), list):
                self.session.dead = Failure("protocol", "sent an answer to another question")
                self._close_session()
                return Outcome(False, values, mutated, message="sent an answer that could not be read", calls=log)
            for r in header["results"][: len(wire_runs)]:
                values.append(_value(r.get("value", {}), out_arrays))
                mutated.append([m for m in r.get("mutated", []) if isinstance(m, dict)])
            err = header.get("error")
            if isinstance(err, dict):
                line = self.error_line(err)
                if err.get("kind") in ("memory", "output"):  # costly to meet again: its later checks say so at once
                    self.hung[fn] = line
                return Outcome(False, values, mutated, line, err, log)
        return Outcome(True, values, mutated, calls=self._log)
