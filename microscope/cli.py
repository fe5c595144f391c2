"""``clips check SUBMISSION...``: what the command does, called by ``scenes/render/cli.py``.

One submission: its verdicts as a table (or ``--json``) and ``OUT/<name>.html``/``.json``.  Several, or a
folder: one line per submission as each finishes, a table of marks, and the gradebook
(``OUT/gradebook.csv`` and ``.html``) beside every report.  Exit status 0 when every property of every
submission passes, 1 otherwise, 2 for bad input (a path that does not exist, a bad option, no sandbox).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .batch import check_many
from .checks import CheckInputs
from .report import as_json, summary, table, write_reports
from .sandbox import Limits, SandboxUnavailable, probe
from .submission import SubmissionError, find_submissions


class CheckUsageError(ValueError):
    """Bad input to ``clips check``: one line, exit status 2."""


UNSAFE = ("clips check: --no-sandbox runs every submission's code unprotected, as you, with your files and "
          "network: only for code you trust")


def limits_from(timeout: float, memory_mib: int) -> Limits:
    if not 0 < timeout <= 3600:
        raise CheckUsageError(f"argument --timeout: seconds per check, more than 0 and at most 3600, got {timeout:g}")
    if not 256 <= memory_mib <= 1 << 20:
        raise CheckUsageError(f"argument --memory: MiB per submission, at least 256, got {memory_mib}")
    return Limits(timeout=float(timeout), memory=int(memory_mib) << 20)


def run(paths: list[str], out: str, jobs: int, json_out: bool, timeout: float, memory_mib: int,
        sandbox: bool, inputs: CheckInputs, client=None) -> int:
    if jobs < 1:
        raise CheckUsageError(f"argument --jobs: must be at least 1, got {jobs}")
    limits = limits_from(timeout, memory_mib)
    try:
        items = find_submissions(paths)
    except SubmissionError as e:
        raise CheckUsageError(str(e)) from None
    if not sandbox:
        print(UNSAFE, file=sys.stderr)
    elif client is None:
        try:
            probe()
        except SandboxUnavailable as e:
            raise CheckUsageError(str(e)) from None
    many = len(items) > 1 or any(Path(p).is_dir() for p in paths)
    log = sys.stderr if json_out else sys.stdout

    def done(rep):
        if many:
            mark = "✓" if rep.passed == rep.total else "✗"
            print(f"  {mark} {rep.name}  {rep.passed}/{rep.total}  {rep.seconds:.1f} s", file=log, flush=True)

    reports = check_many(items, inputs, limits, sandbox, jobs, client, done)
    written = write_reports(reports, Path(out), gradebook=many)
    if json_out:
        sys.stdout.write(as_json(reports))
    else:
        for r in reports if not many else []:
            print(table(r))
        if many:
            print(summary(reports))
        where = Path(out) / "gradebook.html" if many else written[0]
        print(f"check: {len(reports)} submission(s), {sum(r.passed == r.total for r in reports)} pass every "
              f"property; {'the gradebook' if many else 'the report'}: {where}")
    return 0 if all(r.passed == r.total for r in reports) else 1
