"""What ``clips check`` writes: the terminal table, JSON, an HTML report per submission, the gradebook.

Every file is the same bytes for the same submissions, code and inputs (no times, no dates), written
under a temporary name and renamed into place.  The HTML pages are single files with inline styles:
headings, a table with a caption and header cells, the verdict in words beside its mark (colour is
never the only carrier), text at 4.5:1 or more; the tests hold them to axe-core's WCAG 2.1 AA rules.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
from pathlib import Path

from .check import SubmissionReport
from .checks import ERROR, FAIL, MISSING, PASS, SKIPPED, TITLES

MARKS = {PASS: "✓", FAIL: "✗", ERROR: "!", MISSING: "–", SKIPPED: "·"}
WORDS = {PASS: "pass", FAIL: "fail", ERROR: "error", MISSING: "missing", SKIPPED: "skipped"}
SHORT = {  # column heads for the gradebook
    "attention": "attention", "permutation_matrix": "P·X = X[π]", "equivariance": "equivariant", "causal": "causal",
    "prefix": "prefix-invariant", "check_equivariance_max_defect": "equivariance check",
    "prefix_invariance_max_defect": "prefix check", "my_sinusoidal_position": "sinusoidal",
    "rope_angle_grid": "RoPE angles",
}


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.partial")
    tmp.write_text(text, encoding="utf-8", newline="")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------- terminal
def table(rep: SubmissionReport, seconds: bool = True) -> str:
    """One submission's verdicts, one per line, with its figure and, below a verdict that is not a pass,
    why."""
    took = f"  ({rep.seconds:.1f} s)" if seconds else ""
    lines = [f"{rep.name} ({rep.file}): {rep.passed} of {rep.total} properties pass{took}"]
    if rep.found:
        lines.append(f"  {rep.found}")
    for n in rep.notes:
        lines.append(f"  note: {n}")
    w = max(len(t) for t in TITLES.values())
    for v in rep.verdicts:
        lines.append(f"  {MARKS[v.status]} {WORDS[v.status]:<7}  {v.title:<{w}}  {v.figure}".rstrip())
        lines += [f"{'':13}{extra}" for extra in (v.detail, v.note) if extra]
    return "\n".join(lines)


def summary(reports: list[SubmissionReport]) -> str:
    """One row per submission: its score and a mark per property (numbered in the legend below)."""
    w = max([len(r.name) for r in reports] + [10])
    keys = list(TITLES)
    lines = [f"{'submission':<{w}}  score  " + " ".join(f"{i:>2}" for i in range(1, len(keys) + 1))]
    for r in reports:
        marks = " ".join(f"{MARKS[v.status]:>2}" for v in r.verdicts)
        lines.append(f"{r.name:<{w}}  {r.passed:>2}/{r.total:<2}  {marks}")
    lines.append("  ".join(f"{i} {SHORT[k]}" for i, k in enumerate(keys, 1)))
    lines.append("✓ pass  ✗ fail  ! error (raised, hung, a limit)  – missing  · skipped")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- files
def as_json(reports: list[SubmissionReport]) -> str:
    return json.dumps([r.as_dict() for r in reports], indent=2, ensure_ascii=False) + "\n"


STYLE = """
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b;background:#fff;margin:0}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:0 0 .5rem}h2{font-size:1.2rem;margin:1.6rem 0 .5rem}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:600;padding:.4rem 0}
th,td{border:1px solid #8c8c8c;padding:.4rem .6rem;text-align:left;vertical-align:top}
thead th{background:#ececec}
.pass{color:#116329}.fail{color:#a4161a}.error{color:#7a3e00}.missing,.skipped{color:#4a4a4a}
.verdict{font-weight:700;white-space:nowrap}
pre{background:#f4f4f4;padding:.8rem;overflow:auto;white-space:pre-wrap}
code{font-family:"DejaVu Sans Mono",monospace}
a{color:#0b4f9c}
"""


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n")


def _verdict_cell(status: str) -> str:
    return f'<span class="verdict {status}">{MARKS[status]} {WORDS[status]}</span>'


def html_report(rep: SubmissionReport) -> str:
    e = html.escape
    title = f"{rep.name}: {rep.passed} of {rep.total} properties pass"
    rows = []
    for v in rep.verdicts:
        why = " ".join(x for x in (v.detail, v.note) if x)
        rows.append(f"<tr><th scope=\"row\">{e(v.title)}</th><td>{_verdict_cell(v.status)}</td>"
                    f"<td>{e(v.figure)}</td><td>{e(why)}</td></tr>")
    body = [f"<h1>{e(title)}</h1>", f"<p>Submission <code>{e(rep.file)}</code>, checked by <code>clips check</code> "
            "against the lecture's reference (mathcore), in a sandbox.</p>"]
    if rep.error:
        body.append(f"<p><strong>Not checked:</strong> {e(rep.error)}</p>")
    if rep.found:
        body.append(f"<h2>Functions found</h2>\n<p>{e(rep.found)}</p>")
    body.append("<h2>Properties</h2>\n<table>\n<caption>Each property of notebook 05, with what was measured"
                "</caption>\n<thead><tr><th scope=\"col\">Property</th><th scope=\"col\">Verdict</th>"
                "<th scope=\"col\">Measured</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
                + "\n".join(rows) + "\n</tbody>\n</table>")
    if rep.notes:
        body.append("<h2>While running the submission</h2>\n<ul>\n"
                    + "\n".join(f"<li>{e(n)}</li>" for n in rep.notes) + "\n</ul>")
    if rep.printed:
        body.append(f"<h2>What it printed (the start)</h2>\n<pre>{e(rep.printed)}</pre>")
    body.append("<h2>Marks</h2>\n<p>✓ pass, ✗ fail, ! error (the code raised, hung or reached a limit), "
                "– missing (not defined), · skipped (nothing to check it with).</p>")
    return _page(title, "\n".join(body) + "\n")


def gradebook_csv(reports: list[SubmissionReport]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["student", "file", "passed", "total"] + list(TITLES) + ["found", "error"])
    for r in reports:
        by = {v.key: v.status for v in r.verdicts}
        w.writerow([r.name, r.file, r.passed, r.total] + [by.get(k, "") for k in TITLES] + [r.found, r.error])
    return buf.getvalue()


def gradebook_html(reports: list[SubmissionReport], link) -> str:
    """``link(report) -> str``: the report page's address relative to the gradebook."""
    e = html.escape
    heads = "".join(f'<th scope="col">{e(SHORT[k])}</th>' for k in TITLES)
    rows = []
    for r in reports:
        cells = "".join(f"<td>{_verdict_cell(v.status)}</td>" for v in r.verdicts)
        rows.append(f'<tr><th scope="row"><a href="{e(link(r))}">{e(r.name)}</a></th>'
                    f"<td>{r.passed} of {r.total}</td>{cells}</tr>")
    n_all = sum(r.passed == r.total for r in reports)
    title = f"Gradebook: {len(reports)} submissions, {n_all} pass every property"
    legend = "".join(f"<li><strong>{e(SHORT[k])}</strong>: {e(t)}</li>" for k, t in TITLES.items())
    body = (f"<h1>{e(title)}</h1>\n<table>\n<caption>One row per submission; each name links to its report"
            f"</caption>\n<thead><tr><th scope=\"col\">Submission</th><th scope=\"col\">Score</th>{heads}</tr></thead>"
            "\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n<h2>The properties</h2>\n<ul>\n"
            + legend + "\n</ul>\n<p>✓ pass, ✗ fail, ! error (the code raised, hung or reached a limit), "
            "– missing (not defined), · skipped (nothing to check it with).</p>\n")
    return _page(title, body)


def write_reports(reports: list[SubmissionReport], out: Path, gradebook: bool) -> list[Path]:
    """``OUT/<name>.html`` and ``OUT/<name>.json`` per submission, and with ``gradebook`` ``OUT/gradebook.csv``
    and ``OUT/gradebook.html``; the paths written."""
    written = []
    for r in reports:
        page = out / f"{r.name}.html"
        write_atomic(page, html_report(r))
        write_atomic(out / f"{r.name}.json", json.dumps(r.as_dict(), indent=2, ensure_ascii=False) + "\n")
        written.append(page)
    if gradebook:
        write_atomic(out / "gradebook.csv", gradebook_csv(reports))
        write_atomic(out / "gradebook.html", gradebook_html(reports, lambda r: f"{r.name}.html"))
        written += [out / "gradebook.csv", out / "gradebook.html"]
    return written
