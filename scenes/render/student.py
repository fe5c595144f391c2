"""``clips render --student SUBMISSION [CLIP…]`` and ``clips audit --student``: the clips that show the notebook's
functions, drawn from a student's numbers.

The submission runs once, here, in the sandbox (``microscope.student_run``, as ``clips check`` runs it); what
its functions returned goes to the render workers as data (``kit.student.StudentSource``, an ``.npz`` in the
run's work folder named by the worker's ``--student`` argument), never by running the student's code again.
The clips land in ``OUT/QUALITY/student-<name>/`` with a manifest of their own; the student's numbers are part
of every render key there (their digest), and a student's render never keeps its audit where the lecture's
is looked up: a student's clip is never served for the lecture's, nor the other way round.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# the clips that draw a student's function, and the property (the verdict's key) each one shows
STUDENT_CLIPS = {
    1: "permutation_matrix",
    2: "equivariance",
    3: "causal",
    4: "prefix",
    6: "causal",
    7: "equivariance",
    8: "my_sinusoidal_position",
    10: "rope_angle_grid",
}
# the clips the issue names that do not draw a student's numbers yet (said so, in one line)
NOT_YET = {5: "prefix"}


class StudentUsageError(ValueError):
    """Bad input to ``--student``: one line, exit status 2."""


def student_name(path: Path) -> str:
    """The folder's name for a submission: its file name without the extension, in letters, digits, ``-``
    and ``_`` (``Ada Lovelace.ipynb`` -> ``Ada_Lovelace``)."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", path.stem).strip("_")
    return name or "submission"


def submission_path(value: str) -> Path:
    p = Path(value)
    if not p.exists():
        raise StudentUsageError(f"--student {value}: no such file (give a student's .py or .ipynb)")
    if p.is_dir():
        raise StudentUsageError(f"--student {value}: a folder; give one student's .py or .ipynb (clips check "
                                f"grades a folder)")
    if p.suffix.lower() not in (".py", ".ipynb"):
        raise StudentUsageError(f"--student {value}: a {p.suffix or 'file without extension'}; a submission is a "
                                f".py file or a Jupyter notebook (.ipynb)")
    return p


def student_clips(names: list[str]):
    """The clips to draw from the student's numbers: those named (each must show a student's function),
    else every one that does."""
    from ..catalog import resolve

    if not names:
        return [c for c in resolve([]) if c.number in STUDENT_CLIPS]
    clips = resolve(names)
    have = ", ".join(f"{n:02d}" for n in sorted(STUDENT_CLIPS))
    for c in clips:
        if c.number in NOT_YET:
            raise StudentUsageError(f"clip {c.name} does not draw a student's numbers yet (its {NOT_YET[c.number]}); "
                                    f"--student renders {have}")
        if c.number not in STUDENT_CLIPS:
            raise StudentUsageError(f"clip {c.name} shows no function a student writes; --student renders {have}")
    return clips


def source_of(run, name: str):
    """A ``kit.student.StudentSource`` (plain arrays and verdicts) from a ``microscope.StudentRun``."""
    from scenes.kit.student import Property, StudentSource

    props = {}
    notes = list(getattr(run.report, "notes", []) or [])
    for key, v in run.verdicts.items():
        arrays = {k: a for k, a in v.arrays.items() if hasattr(a, "dtype")}
        detail = v.detail
        if v.status == "missing" and notes:  # why the code may not have defined it: what its file raised
            detail = f"{detail} (running the file: {notes[0]})"
        props[key] = Property(key, v.title, v.status, v.figure, v.value, detail, arrays)
    return StudentSource(name, props)


def run_student(path: Path, sandbox: bool = True, timeout: float = 10.0, memory_mib: int = 1024):
    """Run the submission once in the sandbox on the lecture's inputs; its numbers as a ``StudentSource``."""
    from mathcore.config import load_config
    from microscope.checks import CheckInputs
    from microscope.cli import UNSAFE, CheckUsageError, limits_from
    from microscope.sandbox import SandboxUnavailable, probe
    from microscope.student import student_run

    try:
        limits = limits_from(timeout, memory_mib)
    except CheckUsageError as e:
        raise StudentUsageError(str(e)) from None
    if sandbox:
        try:
            probe()
        except SandboxUnavailable as e:
            raise StudentUsageError(str(e)) from None
    else:
        print(UNSAFE.replace("clips check", "clips --student"), file=sys.stderr)
    cfg = load_config()
    run = student_run(str(path), cfg, CheckInputs.from_config(cfg), limits, sandbox)
    return source_of(run, student_name(path))


def summary(source, clips) -> list[str]:
    """One line per clip: the property it shows and the student's verdict on it."""
    out = []
    for c in clips:
        p = source.prop(STUDENT_CLIPS[c.number])
        what = "holds" if p.passed else ("fails: " + p.message if p.drawable else "an error card: " + p.message)
        out.append(f"  {c.name}: {p.title}: {what}")
    return out
