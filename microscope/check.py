"""One submission, checked: :func:`check_submission` -> :class:`SubmissionReport`."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .checks import ERROR, PASS, TITLES, Checker, CheckInputs, Verdict
from .run import StudentCode
from .sandbox import Limits
from .signatures import detect
from .submission import Submission, SubmissionError, read_submission


@dataclass
class SubmissionReport:
    """Everything ``clips check`` says about one submission.  ``seconds`` is how long it took (shown in the
    terminal, never written into a file: the files are the same bytes for the same code and inputs)."""

    name: str
    file: str
    kind: str
    found: str  # the one-line found/missing summary
    notes: list[str]  # what loading it left out or met (skipped magics, errors in its own cells)
    verdicts: list[Verdict]
    printed: str = ""  # the first of what it printed
    error: str = ""  # a submission that could not be read or run at all
    seconds: float = field(default=0.0, compare=False)

    @property
    def passed(self) -> int:
        return sum(v.status == PASS for v in self.verdicts)

    @property
    def total(self) -> int:
        return len(self.verdicts)

    def as_dict(self) -> dict:
        return {"name": self.name, "file": self.file, "kind": self.kind, "found": self.found, "notes": self.notes,
                "error": self.error, "passed": self.passed, "total": self.total,
                "verdicts": [v.as_dict() for v in self.verdicts], "printed": self.printed}

    @classmethod
    def from_dict(cls, d: dict) -> "SubmissionReport":
        vs = [Verdict(v["key"], v["title"], v["status"], v.get("figure", ""), v.get("value"), v.get("detail", ""),
                      v.get("note", "")) for v in d["verdicts"]]
        return cls(d["name"], d["file"], d["kind"], d["found"], list(d["notes"]), vs, d.get("printed", ""),
                   d.get("error", ""), d.get("seconds", 0.0))


def _not_run(why: str) -> list[Verdict]:
    return [Verdict(k, t, ERROR, detail=f"not run: {why}") for k, t in TITLES.items()]


def unreadable(path: str, name: str, why: str) -> SubmissionReport:
    return SubmissionReport(name, Path(path).name, Path(path).suffix[1:], "", [], _not_run(why), error=why)


def check_submission(submission: Submission | str | Path, inputs: CheckInputs | None = None,
                     limits: Limits = Limits(), sandbox: bool = True, name: str | None = None) -> SubmissionReport:
    """Run every check on one submission in its own sandbox.  Never raises for anything the submission
    does: a file that cannot be read, code that cannot run, a function that hangs, all become verdicts.
    ``inputs`` defaults to :class:`CheckInputs` (the shipped lecture's numbers); ``sandbox=False`` runs the
    code without one (unsafe: only for code you trust)."""
    t0 = time.monotonic()
    inputs = inputs or CheckInputs()
    if not isinstance(submission, Submission):
        try:
            submission = read_submission(submission, name)
        except SubmissionError as e:
            return unreadable(str(submission), name or Path(submission).stem, str(e))
    code = StudentCode(submission, limits, sandbox)
    try:
        loaded = code.start()
        if loaded is None:
            rep = SubmissionReport(submission.name, Path(submission.path).name, submission.kind, "",
                                   list(submission.notes), _not_run(code.load_failure), error=code.load_failure)
        else:
            found = detect(loaded.get("functions", {}), code.place_of)
            notes = list(submission.notes) + [code.error_line(e) for e in loaded.get("errors", [])[:10]]
            verdicts = Checker(code, found, inputs).all()
            rep = SubmissionReport(submission.name, Path(submission.path).name, submission.kind, found.summary(),
                                   notes, verdicts)
    finally:
        code.close()
    rep.printed = code.output[:2000]
    rep.seconds = time.monotonic() - t0
    return rep
