"""Reading a submission: a ``.py`` file, or a Jupyter notebook (``.ipynb``, read with nbformat).

A submission becomes a list of code units for the sandboxed child to run in order: a ``.py`` file is
one unit; a notebook gives one unit per code cell (markdown and raw cells are left out).  Shell and
magic lines (``!pip install numpy``, ``%matplotlib inline``, ``x = !ls``, ``np.sum?``) are not Python:
each becomes ``pass`` at its indentation, so the lines around it keep their numbers and an ``if`` whose
body was a magic still parses.  A cell that starts with a cell magic runs without that line when the
magic only times or captures it (``%%time``, ``%%timeit``, ``%%capture``), and is skipped otherwise
(``%%bash``, ``%%writefile``, ...).  Nothing here runs the code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SUFFIXES = (".py", ".ipynb")
MAX_BYTES = 5 << 20
PYTHON_CELL_MAGICS = ("time", "timeit", "capture", "prun")  # cell magics whose body is plain Python
_SHELL_OR_MAGIC = re.compile(r"^\s*(?:[!%]|[\w.,\s\[\]]+=\s*[!%][\w!])")
_HELP = re.compile(r"^\s*[\w.]+\s*\?{1,2}\s*$")


class SubmissionError(ValueError):
    """A file that cannot be read as a submission: one line naming it and why."""


@dataclass(frozen=True)
class Submission:
    """``name``: how reports call it (the path relative to the folder given, without its suffix);
    ``units``: ``{"where": "cell 3" or "", "line": first line, "source": code}``; ``notes``: what was
    left out (magics, cells)."""

    name: str
    path: str
    kind: str  # "py" or "ipynb"
    units: tuple[dict, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def module_name(self) -> str:
        """``__name__`` while it runs: a notebook runs as ``__main__`` (as in Jupyter), a ``.py`` file as
        an imported module, so its ``if __name__ == "__main__":`` block does not run."""
        return "__main__" if self.kind == "ipynb" else "submission"

    def place(self, where: str, line) -> str:
        """``line 12`` for a file, ``cell 3, line 4`` for a notebook."""
        if line is None:
            return where
        return f"{where}, line {line}" if where else f"line {line}"


def strip_magics(source: str) -> tuple[str, int]:
    """``source`` with each shell/magic/help line replaced by ``pass`` at its indentation; and how many."""
    out, n = [], 0
    for ln in source.split("\n"):
        if _SHELL_OR_MAGIC.match(ln) or _HELP.match(ln):
            indent = ln[: len(ln) - len(ln.lstrip())]
            out.append(f"{indent}pass")
            n += 1
        else:
            out.append(ln)
    return "\n".join(out), n


def _cell_magic(source: str) -> tuple[str | None, str]:
    """(the cell magic's name or None, the source without its magic line)."""
    lines = source.split("\n")
    for i, ln in enumerate(lines):
        if not ln.strip():
            continue
        if ln.lstrip().startswith("%%"):
            name = ln.strip()[2:].split()[0] if ln.strip()[2:] else ""
            return name, "\n".join([""] * (i + 1) + lines[i + 1:])
        break
    return None, source


def read_submission(path: str | Path, name: str | None = None) -> Submission:
    """Read ``path`` (``.py`` or ``.ipynb``) into a :class:`Submission`; :class:`SubmissionError` if it cannot be."""
    p = Path(path)
    if p.suffix not in SUFFIXES:
        raise SubmissionError(f"{p}: a submission is a .py file or a Jupyter notebook (.ipynb), "
                              f"got {p.suffix or 'no suffix'}")
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise SubmissionError(f"{p}: {size >> 20} MiB is too large for a submission "
                                  f"(at most {MAX_BYTES >> 20} MiB)")
        raw = p.read_bytes()
    except OSError as e:
        raise SubmissionError(f"{p}: cannot be read ({e.strerror or e})") from None
    name = name or p.stem
    if p.suffix == ".py":
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise SubmissionError(f"{p}: not UTF-8 text ({e.reason} at byte {e.start})") from None
        text, n = strip_magics(text)
        notes = (f"skipped {n} shell or magic line(s)",) if n else ()
        return Submission(name, str(p), "py", ({"where": "", "line": 1, "source": text},), notes)
    return _read_notebook(p, raw, name)


def _read_notebook(p: Path, raw: bytes, name: str) -> Submission:
    import nbformat

    try:
        nb = nbformat.reads(raw.decode("utf-8-sig"), as_version=4)
    except Exception as e:  # nbformat raises its own, json's and validation errors
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise SubmissionError(f"{p}: not a Jupyter notebook nbformat can read ({first[:160]})") from None
    units, skipped_cells, magic_lines = [], [], 0
    for k, cell in enumerate(nb.cells, 1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(source)
        magic, body = _cell_magic(source)
        if magic is not None:
            if magic not in PYTHON_CELL_MAGICS:
                skipped_cells.append(f"cell {k} (%%{magic})")
                continue
            source = body
        source, n = strip_magics(source)
        magic_lines += n
        units.append({"where": f"cell {k}", "line": 1, "source": source})
    notes = []
    if magic_lines:
        notes.append(f"skipped {magic_lines} shell or magic line(s)")
    if skipped_cells:
        notes.append(f"skipped {', '.join(skipped_cells)}: not Python")
    return Submission(name, str(p), "ipynb", tuple(units), tuple(notes))


def find_submissions(paths: list[str]) -> list[tuple[Path, str]]:
    """Every submission under ``paths`` (files as given; folders searched recursively, hidden folders and
    ``.ipynb_checkpoints`` left out), sorted, each with its name: a file's stem, or its path inside the
    folder it was found in without the suffix (``group-a/alice``).  Raises SubmissionError naming a path
    that does not exist or a file that is not a submission."""
    found: list[tuple[Path, str]] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file()
                           and not any(part.startswith(".") for part in f.relative_to(p).parts))
            if not files:
                raise SubmissionError(f"{p}: no .py or .ipynb file in this folder")
            found += [(f, f.relative_to(p).with_suffix("").as_posix()) for f in files]
        elif p.is_file():
            if p.suffix not in SUFFIXES:
                raise SubmissionError(f"{p}: a submission is a .py file or a Jupyter notebook (.ipynb), "
                                      f"got {p.suffix or 'no suffix'}")
            found.append((p, p.stem))
        else:
            raise SubmissionError(f"{p}: no such file or folder")
    names: dict[str, int] = {}
    for _, n in found:
        names[n] = names.get(n, 0) + 1
    out, seen = [], set()
    for f, n in found:
        if names[n] > 1:  # alice.py and alice.ipynb, or the same name in two folders: keep them apart
            n = f"{n}.{f.suffix[1:]}"
            k = 2
            while n in seen:
                n, k = f"{f.with_suffix('').as_posix()}-{k}.{f.suffix[1:]}", k + 1
        seen.add(n)
        out.append((f, n))
    return out
