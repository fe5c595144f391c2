"""The sandbox ``clips check`` runs every submission in (microscope/sandbox.py), tested for real with bwrap.

Hostile code gets its one-line verdict and harms nothing: the network cannot be reached from inside,
nothing is written outside the sandbox's own /tmp, the project tree and the home folder are not there,
memory, CPU time, processes and output are limited, a fork bomb stops at the process limit and leaves
no process behind, and the parent reads the child's answers without ever unpickling them.  Where a check
could pass by accident, the same code run with ``--no-sandbox`` (or a made case) shows it failing.
"""

from __future__ import annotations

import io
import socket
import subprocess
import textwrap
import uuid
from pathlib import Path

import numpy as np
import pytest

from microscope import child as wire
from microscope.check import check_submission
from microscope.run import StudentCode
from microscope.sandbox import Limits
from microscope.submission import read_submission
from project import REPO, clips, one_line

GALLERY = REPO / "examples" / "submissions"
FAST = Limits(timeout=6.0, memory=512 << 20)  # a hostile call costs at most ~6 s in the tests; an honest
# one under a loaded CI machine (two test workers and their renders) took over 2 s and read as timed out


def made(tmp_path: Path, code: str, name: str = "made") -> Path:
    p = tmp_path / f"{name}.py"
    p.write_text("import os, socket, subprocess, sys, time\nimport numpy as np\n\n" + textwrap.dedent(code))
    return p


def run(path: Path, fn: str, *args, limits: Limits = FAST, sandbox: bool = True):
    """Call ``fn(*args)`` of the submission at ``path`` once, in its sandbox: the Outcome."""
    code = StudentCode(read_submission(path), limits, sandbox)
    try:
        assert code.start() is not None, code.load_failure
        return code.call(fn, [list(args)])
    finally:
        code.close()


# ------------------------------------------------------------------------------ the hostile gallery
@pytest.fixture(scope="module")
def hostile():
    from microscope.batch import check_many
    from microscope.checks import CheckInputs
    from microscope.submission import find_submissions

    items = find_submissions([str(GALLERY / "hostile")])
    reports = check_many(items, CheckInputs(), FAST, True, jobs=2)
    return {r.name: r for r in reports}


def statuses(rep) -> dict:
    return {v.key: v.status for v in rep.verdicts if v.status != "pass"}


def detail(rep, key: str) -> str:
    return next(v.detail for v in rep.verdicts if v.key == key)


ATTENTION_ROWS = ("attention", "equivariance", "causal", "prefix")


def test_every_hostile_entry_gets_its_one_line_verdict(hostile):
    assert set(hostile) == {"fork_bomb", "import_torch", "import_torch_notebook", "memory_bomb", "opens_socket",
                            "print_storm", "returns_list", "returns_nan", "write_outside", "wrong_shape"}
    errors = dict.fromkeys(ATTENTION_ROWS, "error")
    assert statuses(hostile["fork_bomb"]) == errors
    assert detail(hostile["fork_bomb"], "attention").startswith(
        "attention starts processes: stopped at the limit of 64 (BlockingIOError: [Errno 11]")
    assert statuses(hostile["memory_bomb"]) == errors
    assert detail(hostile["memory_bomb"], "attention").startswith(
        "attention runs out of memory (limit 512 MiB): MemoryError: Unable to allocate 76.3 MiB")
    assert detail(hostile["memory_bomb"], "causal") == (
        "attention not run again: " + detail(hostile["memory_bomb"], "attention").removeprefix("attention ") + " above")
    assert statuses(hostile["print_storm"]) == errors
    assert detail(hostile["print_storm"], "attention") == "attention printed more than 1 MiB (stopped) (line 17)"
    assert statuses(hostile["opens_socket"]) == errors
    assert detail(hostile["opens_socket"], "attention") == \
        "attention raises OSError: [Errno 101] Network is unreachable (line 14)"
    for name in ("import_torch", "import_torch_notebook"):
        assert statuses(hostile[name]) == errors
        assert "raises NameError: name 'torch' is not defined" in detail(hostile[name], "attention")
    assert hostile["import_torch"].notes == ["raises ModuleNotFoundError: No module named 'torch' (line 2)"]
    assert hostile["import_torch_notebook"].notes == [
        "raises ModuleNotFoundError: No module named 'torch' (cell 2, line 2)"]
    assert statuses(hostile["returns_list"]) == {"permutation_matrix": "fail"}
    assert detail(hostile["returns_list"], "permutation_matrix") == (
        "permutation_matrix([2, 0, 4, 1, 5, 3]) returns a list, expected a NumPy array (np.ndarray) of shape (6, 6)")
    assert statuses(hostile["returns_nan"]) == {"causal": "fail", "prefix": "fail"}
    # the last row may attend to nothing
    assert detail(hostile["returns_nan"], "causal") == "attention returns NaN at (5, 0)"
    assert statuses(hostile["wrong_shape"]) == {"attention": "fail", "equivariance": "fail", "causal": "fail",
                                                "prefix": "error"}
    assert detail(hostile["wrong_shape"], "attention") == "attention returns Y as shape (5, 4), expected (6, 4)"
    assert statuses(hostile["write_outside"]) == {"permutation_matrix": "error",
                                                  "check_equivariance_max_defect": "error"}
    assert detail(hostile["write_outside"], "permutation_matrix") == (
        "permutation_matrix raises OSError: [Errno 30] Read-only file system: '/usr/lib/microscope-was-here' (line 31)")


def test_the_hostile_gallery_left_nothing_behind(hostile):
    home = Path.home()
    for p in (home / "microscope-was-here", Path("/tmp/microscope-was-here"), Path("/usr/lib/microscope-was-here")):
        assert not p.exists(), p  # it wrote the first two inside its own /tmp, the third was refused


# ------------------------------------------------------------------------------ the network
def test_the_network_is_unreachable_from_inside(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.5)
    port = server.getsockname()[1]
    sub = made(tmp_path, f"""
        def local(x):
            socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
            return 1.0

        def outside(x):
            socket.create_connection(("1.1.1.1", 53), timeout=2).close()
            return 1.0
        """)
    o = run(sub, "local", 0)
    assert o.message == "raises ConnectionRefusedError: [Errno 111] Connection refused (line 6)"  # its own loopback
    with pytest.raises(socket.timeout):
        server.accept()  # nothing arrived here
    assert run(sub, "outside", 0).message == "raises OSError: [Errno 101] Network is unreachable (line 10)"
    # and the test can fail: without the sandbox the same call reaches this server
    unsafe = run(sub, "local", 0, sandbox=False)
    assert unsafe.ok, unsafe.message
    server.accept()[0].close()
    server.close()


# ------------------------------------------------------------------------------ the file system
def test_nothing_is_written_outside_its_tmp_and_the_project_and_home_are_not_there(tmp_path):
    target = tmp_path / f"written-{uuid.uuid4().hex}"
    sub = made(tmp_path, """
        def write(path):
            with open(path, "w") as f:
                f.write("a submission was here")
            return 1.0

        def listing(path):
            return float(len(os.listdir(path)))

        def own_tmp(x):
            with open("/tmp/scratch.npy", "wb") as f:
                np.save(f, np.arange(3.0))
            return np.load("/tmp/scratch.npy")
        """)
    o = run(sub, "write", str(target))
    assert o.message == f"raises FileNotFoundError: [Errno 2] No such file or directory: '{target}' (line 6)"
    assert not target.exists()
    assert "Read-only file system" in run(sub, "write", "/usr/microscope-test").message
    for hidden in (str(REPO), str(Path.home() / ".cache"), str(tmp_path)):
        assert "No such file or directory" in run(sub, "listing", hidden).message, hidden
    got = run(sub, "own_tmp", 0)
    assert got.ok and got.values[0].array.tolist() == [0.0, 1.0, 2.0]  # its own /tmp works
    # and the test can fail: without the sandbox the write lands
    assert run(sub, "write", str(target), sandbox=False).ok and target.read_text() == "a submission was here"


# ------------------------------------------------------------------------------ limits
def test_memory_cpu_file_and_output_limits_hold(tmp_path):
    sub = made(tmp_path, """
        def spin(x):
            while True:
                pass

        def big_file(x):
            with open("/tmp/big", "wb") as f:
                for _ in range(100):
                    f.write(b"x" * (1 << 20))

        def raw_storm(x):
            while True:
                os.write(1, b"x" * 65536)

        def hoard(x):
            return np.zeros((12000, 12000))
        """)
    o = run(sub, "spin", 0, limits=Limits(timeout=20, cpu=1))
    assert o.message == "used more than 1 s of CPU time (stopped)"
    assert run(sub, "spin", 0).message == f"timed out after {FAST.timeout:g} s"
    assert run(sub, "big_file", 0).message == "raises OSError: [Errno 27] File too large (line 12)"
    assert run(sub, "raw_storm", 0).message == "printed more than 1 MiB (stopped)"  # past sys.stdout: the parent's cap
    assert run(sub, "hoard", 0).message.startswith(
        "runs out of memory (limit 512 MiB): MemoryError: Unable to allocate")
    ok = run(sub, "hoard", 0, limits=Limits(memory=2 << 30))
    assert ok.ok and ok.values[0].kind == "ndarray"  # the made case: the same call under a higher limit works


def test_a_fork_bomb_is_contained_and_leaves_no_process(tmp_path):
    marker = f"bomb{uuid.uuid4().hex[:10]}"
    sub = made(tmp_path, f"""
        def python_bomb(x):
            while True:
                os.fork()

        def shell_bomb(x):
            subprocess.run(["/bin/sh", "-c", "{marker}() {{ {marker} | {marker} & }}; {marker}"])
            time.sleep(60)

        def sleepers(x):
            for _ in range(5):
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)  # {marker}"])
            while True:
                pass
        """)
    o = run(sub, "python_bomb", 0)
    assert o.message.startswith("starts processes: stopped at the limit of 64 (BlockingIOError")
    o = run(sub, "shell_bomb", 0)  # processes that are not Python: held at 64 until the timeout kills them all
    assert o.message == f"timed out after {FAST.timeout:g} s"
    assert run(sub, "sleepers", 0).message == f"timed out after {FAST.timeout:g} s"  # and the processes it left behind go with it
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout
    assert left == "", left


# ------------------------------------------------------------------------------ the wire
def test_the_parent_never_unpickles_and_rejects_garbage(tmp_path):
    buf = io.BytesIO()
    np.save(buf, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(wire.ProtocolError, match="malformed array"):
        wire.load_array(buf.getvalue())
    r = wire.Reader()
    r.feed(b"\x00\x00\x00\x05hello")
    with pytest.raises(wire.ProtocolError, match="not JSON"):
        r.pop()
    r = wire.Reader()
    r.feed(b"\xff\xff\xff\xff")
    with pytest.raises(wire.ProtocolError, match="a frame of"):
        r.pop()
    header, arrays = _roundtrip({"kind": "result"}, [np.eye(2), np.arange(3)])
    assert header == {"kind": "result", "n": 2} and arrays[0].tolist() == [[1, 0], [0, 1]]
    # a submission that writes into the answer channel gets a verdict, and clips goes on
    sub = made(tmp_path, """
        def forge(x):
            for fd in range(3, 256):
                try:
                    os.write(fd, b"\\xff" * 16)
                except OSError:
                    pass
            return 1.0
        """)
    assert run(sub, "forge", 0).message.startswith("sent an answer that could not be read")


def _roundtrip(header, arrays):
    r = wire.Reader()
    r.feed(wire.pack(header, arrays))
    return r.pop()


def test_a_crash_of_the_interpreter_is_a_verdict(tmp_path):
    sub = made(tmp_path, """
        def crash(x):
            import ctypes
            ctypes.string_at(0)
        """)
    assert run(sub, "crash", 0).message == "the submission's process crashed (SIGSEGV)"


# ------------------------------------------------------------------------------ no sandbox
def _fake_bwrap(tmp_path: Path, script: str) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bwrap").write_text(f"#!/bin/sh\n{script}\n")
    (bin_dir / "bwrap").chmod(0o755)
    return {"PATH": f"{bin_dir}:/usr/bin:/bin"}


def test_without_bwrap_clips_check_refuses_in_one_line_naming_the_package(tmp_path):
    sub = str(GALLERY / "correct.py")
    r = clips(None, "check", sub, "--out", str(tmp_path / "o"), env_extra={"PATH": str(tmp_path)})
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert "bubblewrap" in line and "sudo apt-get install bubblewrap" in line and "--no-sandbox" in line
    r = clips(None, "check", sub, "--out", str(tmp_path / "o"),
              env_extra=_fake_bwrap(tmp_path, 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1'))
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert "cannot create its namespaces here (bwrap: setting up uid map: Permission denied)" in line
    assert "bubblewrap" in line
    assert not (tmp_path / "o").exists()  # nothing ran, nothing written
    r = clips(None, "check", sub, "--out", str(tmp_path / "o"), "--no-sandbox", env_extra={"PATH": str(tmp_path)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "unprotected" in one_line(r.stderr) and "9 of 9 properties pass" in r.stdout


def test_clips_never_crashes_on_the_hostile_gallery(tmp_path):
    r = clips(None, "check", str(GALLERY / "hostile"), "--out", str(tmp_path / "o"), "--jobs", "2",
              "--timeout", "2", "--memory", "512", timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr  # properties fail; nothing crashed
    assert r.stderr == "" and "Traceback" not in r.stdout
    assert "check: 10 submission(s), 0 pass every property" in r.stdout
    assert len((tmp_path / "o" / "gradebook.csv").read_text().splitlines()) == 11


def test_check_submission_never_raises_for_a_file_it_cannot_read(tmp_path):
    bad = tmp_path / "broken.ipynb"
    bad.write_text("{ not json")
    rep = check_submission(bad)
    assert rep.error.startswith(f"{bad}: not a Jupyter notebook nbformat can read")
    assert {v.status for v in rep.verdicts} == {"error"} and rep.passed == 0
    syntax = made(tmp_path, "def attention(Q, K, V:\n    pass\n", "syntax")
    rep = check_submission(syntax)
    assert rep.notes == ["raises SyntaxError: '(' was never closed (line 4)"]
    assert {v.status for v in rep.verdicts} == {"missing"}


def test_ten_thousand_runs_go_through_in_messages_the_wire_accepts(tmp_path):
    """The max corner asks for 10 000 trials: the equivariance check sends 10 002 inputs.  The wire refuses a
    message of more than 4096 arrays, and the child ended with "exit status 3" on every such check.  Now the
    runs go in messages of at most a thousand, in order, each run's array indices its own; on the old code
    this outcome was a failure."""
    path = made(tmp_path, """
        def double(x, k):
            return 2 * x + k
    """)
    code = StudentCode(read_submission(path), FAST, True)
    try:
        assert code.start() is not None, code.load_failure
        runs = [[np.full((2, 2), float(i)), i % 7] for i in range(4500)]
        o = code.call("double", runs, timeout=60.0)
    finally:
        code.close()
    assert o.ok, o.message
    assert len(o.values) == 4500
    assert all(np.array_equal(v.array, np.full((2, 2), 2.0 * i + i % 7)) for i, v in enumerate(o.values))
