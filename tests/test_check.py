"""``clips check``: the gallery of classic mistakes gets the right verdicts with the right figures.

The gallery (examples/submissions/) is checked once, two at a time; each entry's verdicts are asserted
property by property, and its figures are computed again here from mathcore and the entry's own mistake,
so a check that measured the wrong thing would fail.  Then the loader (notebooks, magics), the signature
detection, the reports (terminal, JSON, HTML pages axe-clean in Chromium, the gradebook), the command
itself and a Dask cluster.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import mathcore as mc
from microscope.batch import check_many
from microscope.checks import CheckInputs, Checker
from microscope.sandbox import Limits
from microscope.signatures import detect
from microscope.submission import find_submissions, read_submission, strip_magics
from project import REPO, clips, one_line

GALLERY = REPO / "examples" / "submissions"
FAST = Limits(timeout=6.0, memory=512 << 20)  # an honest check on a loaded CI machine took over 2 s
INPUTS = CheckInputs()  # the shipped lecture's numbers (T = 6, d = 4, seed 7, π = [2, 0, 4, 1, 5, 3])
KEYS = ("attention", "permutation_matrix", "equivariance", "causal", "prefix", "check_equivariance_max_defect",
        "prefix_invariance_max_defect", "my_sinusoidal_position", "rope_angle_grid")


@pytest.fixture(scope="module")
def gallery():
    items = [(p, n) for p, n in find_submissions([str(GALLERY)]) if not n.startswith("hostile/")]
    return {r.name: r for r in check_many(items, INPUTS, FAST, True, jobs=2)}


def v(rep, key):
    return next(x for x in rep.verdicts if x.key == key)


def failing(rep) -> dict:
    return {x.key: x.status for x in rep.verdicts if x.status != "pass"}


LI = INPUTS.lecture()
Q, K, V = (mc.matmul(LI.X, W) for W in (LI.Wq, LI.Wk, LI.Wv))
REF = mc.attention(Q, K, V)
CAUSAL = mc.causal_mask(INPUTS.T)


def test_the_inputs_are_the_shipped_lectures():
    cfg = mc.load_config()
    assert CheckInputs.from_config(cfg) == INPUTS


# ------------------------------------------------------------------------------ the gallery, entry by entry
EXPECTED = {
    "correct": {},
    "no_scale": {"attention": "fail"},
    "softmax_wrong_axis": {"attention": "fail", "causal": "fail", "prefix": "fail"},
    "mask_triu": {"causal": "fail", "prefix": "fail"},
    "mask_after_softmax": {"causal": "fail", "prefix": "fail"},
    "zeroed_no_renormalising": {"causal": "fail", "prefix": "fail"},
    "permutation_transposed": {"permutation_matrix": "fail"},
    "equivariance_without_p": {"check_equivariance_max_defect": "fail"},
    "prefix_without_mask": {"prefix_invariance_max_defect": "fail"},
    "sin_cos_swapped": {"my_sinusoidal_position": "fail"},
    "rope_i_over_d": {"rope_angle_grid": "fail"},
    "mutates_input": {"attention": "fail"},
    "loops_forever": {"attention": "error", "equivariance": "error", "causal": "error", "prefix": "error"},
}


def test_every_gallery_entry_gets_exactly_its_verdicts(gallery):
    assert set(gallery) == (set(EXPECTED) - {"correct"}) | {"correct.ipynb", "correct.py"}
    for name, want in EXPECTED.items():
        for rep in ([gallery["correct.py"], gallery["correct.ipynb"]] if name == "correct" else [gallery[name]]):
            assert [x.key for x in rep.verdicts] == list(KEYS)
            assert failing(rep) == want, (name, [(x.key, x.detail) for x in rep.verdicts if x.status != "pass"])


def test_the_correct_submission_passes_at_rounding_level(gallery):
    for rep in (gallery["correct.py"], gallery["correct.ipynb"]):
        assert rep.passed == 9 and not rep.error
        assert v(rep, "attention").value < 1e-15
        assert v(rep, "equivariance").value < 1e-15 and "over 100 random P" in v(rep, "equivariance").figure
        assert v(rep, "permutation_matrix").value == 0.0
        assert v(rep, "causal").figure == ("max weight above the diagonal = 0 (exact); "
                                           "max |row sum − 1| ≈ 2.2 × 10⁻¹⁶")
        assert v(rep, "prefix").note in ("bitwise (exactly equal)",
                                         "not bitwise: equal at rounding level (a BLAS matmul sums in another order)")
        assert v(rep, "check_equivariance_max_defect").note == "it ran attn on 101 permutations of X"
    nb = gallery["correct.ipynb"]
    assert nb.notes == ["skipped 2 shell or magic line(s)", "skipped cell 14 (%%bash): not Python"]
    assert nb.printed.startswith("max defect ")  # its own cells ran (matplotlib too), with no noise of ours


def test_a_missing_scale_and_a_wrong_axis_are_measured_and_named(gallery):
    no_scale = mc.softmax(Q @ K.T, axis=1) @ V
    want = float(np.max(np.abs(no_scale - REF.output)))
    got = v(gallery["no_scale"], "attention")
    assert got.value == pytest.approx(want, rel=1e-12) and want > 0.1
    assert got.figure == f"attention: max |Y − Y_ref| = {want:.4g}"
    assert "it equals softmax(QKᵀ)V, the 1/√dₖ scale is missing" in got.detail
    axis0 = mc.softmax(Q @ K.T / 2.0, axis=0)
    got = v(gallery["softmax_wrong_axis"], "attention")
    assert got.value == pytest.approx(float(np.max(np.abs(axis0 - REF.weights))), rel=1e-12)  # its A, worse than Y
    assert "a softmax over the columns (axis 0), not the rows" in got.detail


def test_the_causal_mistakes_show_the_leaked_weights_and_the_row_sums(gallery):
    triu = mc.attention(Q, K, V, mask=np.triu(np.ones((6, 6), dtype=bool))).weights
    got = v(gallery["mask_triu"], "causal")
    assert got.value == pytest.approx(float(np.max(np.triu(triu, 1))), rel=1e-12)
    assert np.array_equal(got.arrays["future"], np.triu(np.ones((6, 6), dtype=bool), 1))  # all 15 future cells
    assert "15 future weight(s) are not 0" in got.detail and "built with triu?" in got.detail
    assert "causal_mask(6) is not True exactly on and below the diagonal" in got.detail
    after = REF.weights * CAUSAL  # the softmax over everything, then the future zeroed
    for name in ("mask_after_softmax", "zeroed_no_renormalising"):
        got = v(gallery[name], "causal")
        assert got.figure.startswith("max weight above the diagonal = 0 (exact)")
        assert got.value == pytest.approx(float(np.max(np.abs(after.sum(axis=1) - 1))), rel=1e-12)
        r = int(np.argmax(np.abs(after.sum(axis=1) - 1)))
        assert f"row {r} sums to {after.sum(axis=1)[r]:.4g}" in got.detail
        prefix = v(gallery[name], "prefix")
        Yc = after @ V
        want = max(float(np.max(np.abs(Yc[:t] - (mc.attention(Q[:t], K[:t], V[:t]).weights * mc.causal_mask(t))
                                       @ V[:t]))) for t in range(1, 7))
        assert prefix.value == pytest.approx(want, rel=1e-9)


def test_a_transposed_permutation_matrix_is_caught_exactly(gallery):
    perm = np.array(INPUTS.perm)
    P = mc.permutation_matrix(perm)
    got = v(gallery["permutation_transposed"], "permutation_matrix")
    assert got.value == float(np.max(np.abs(P.T @ LI.X - LI.X[perm])))
    assert "builds Pᵀ: its P·X is X[π⁻¹] (row 0 is row 1 of X, not row 2)" in got.detail
    assert np.array_equal(got.arrays["P"], P.T)


def test_the_students_own_checks_are_held_to_the_reference_on_their_own_inputs(gallery):
    ok = v(gallery["correct.py"], "check_equivariance_max_defect")
    # the correct check's draw: default_rng(seed) with the lecture's seed, one permutation a trial, P @ X (exact)
    rng = np.random.default_rng(INPUTS.seed)
    causal = mc.attention_fn(LI.Wq, LI.Wk, LI.Wv, causal=True)
    Y0 = causal(LI.X)
    want = max(float(np.linalg.norm(causal(LI.X[p]) - Y0[p])) for p in (rng.permutation(6) for _ in range(100)))
    assert ok.value == pytest.approx(want, rel=1e-12)
    bad = v(gallery["equivariance_without_p"], "check_equivariance_max_defect")
    assert "(it compares Attn(PX) with Attn(X), without P)" in bad.detail
    assert re.search(r"reports [0-9.]+ on self-attention, which is equivariant", bad.detail)
    prefix = v(gallery["prefix_without_mask"], "prefix_invariance_max_defect")
    assert prefix.detail == "prefix_invariance_max_defect never calls the attention it is given"
    assert v(gallery["correct.py"], "prefix_invariance_max_defect").figure.startswith(
        "0 (exact) on causal attention (the reference: 0 (exact))")


def test_the_position_tables_name_the_largest_difference_and_the_mistake(gallery):
    got = v(gallery["sin_cos_swapped"], "my_sinusoidal_position")
    ref = mc.my_sinusoidal_position(64, 16, 10000.0)
    swapped = ref.copy()
    swapped[:, 0::2], swapped[:, 1::2] = ref[:, 1::2], ref[:, 0::2]
    assert got.value == pytest.approx(float(np.max(np.abs(swapped - ref))), rel=1e-12)
    assert got.detail.endswith(": sine and cosine are swapped")
    assert np.array_equal(got.arrays["reference"], mc.my_sinusoidal_position(12, 8, 10000.0))  # clip 08's table
    got = v(gallery["rope_i_over_d"], "rope_angle_grid")
    bug = np.arange(64)[:, None] * 500000.0 ** (-np.arange(4)[None, :] / 8)
    assert got.value == pytest.approx(float(np.max(np.abs(bug - mc.rope_angle_grid(64, 8, 500000.0)))), rel=1e-12)
    assert got.detail.startswith("rope_angle_grid(64, 8, 500000): largest difference at position 63, pair 1")
    assert got.detail.endswith("the exponent must be −2i/d")


def test_mutation_and_a_hang_are_their_own_verdicts(gallery):
    got = v(gallery["mutates_input"], "attention")
    scale = 1 - 1 / np.sqrt(4)
    assert got.detail == f"attention changes its input Q in place (by up to {np.max(np.abs(Q)) * scale:.4g})"
    hung = gallery["loops_forever"]
    assert v(hung, "attention").detail == f"attention timed out after {FAST.timeout:g} s"
    assert v(hung, "equivariance").detail == (
        f"self_attention not run: it calls attention, which timed out after {FAST.timeout:g} s above")
    assert v(hung, "causal").detail == f"attention not run again: timed out after {FAST.timeout:g} s above"
    assert v(hung, "permutation_matrix").status == "pass"  # the rest of the notebook is still checked


# ------------------------------------------------------------------------------ the checks can fail
def test_each_check_fails_on_a_case_made_for_it():
    """A checker fed made answers (no sandbox needed): every property turns to fail when its numbers are wrong."""

    class Fake:
        def __init__(self, fn):
            self.fn = fn

        def call(self, name, runs, servers=None, timeout=None):
            from microscope.run import Outcome, Value

            vals = []
            for run in runs:
                args = run[0] if isinstance(run, tuple) else run
                vals.append(Value("ndarray", np.asarray(self.fn(name, args), dtype=float)))
            return Outcome(True, vals, [[] for _ in runs])

    def found(*names):
        params = {"attention": ["Q", "K", "V", "mask"], "permutation_matrix": ["perm"],
                  "my_sinusoidal_position": ["T", "d", "base"], "rope_angle_grid": ["T", "d", "base"]}
        return detect({n: {"params": [{"name": p, "kind": "POSITIONAL_OR_KEYWORD", "default": p == "mask"}
                                      for p in params[n]], "file": "<submission:0>", "line": 1} for n in names},
                      lambda f, line: f"line {line}")

    def attention(name, args, bias=0.0):
        Qa, Ka, Va = (np.asarray(a) for a in args[:3])
        mask = args[3] if len(args) > 3 else None
        tr = mc.attention(Qa, Ka, Va, mask=mask)
        return tr.output + bias * np.arange(len(Qa))[:, None]  # a position-dependent bias breaks equivariance

    ck = Checker(Fake(attention), found("attention"), INPUTS)
    assert [x.status for x in (ck.attention(), ck.equivariance(), ck.causal(), ck.prefix())] == ["pass"] * 4
    ck = Checker(Fake(lambda n, a: attention(n, a, 1e-6)), found("attention"), INPUTS)
    assert ck.attention().status == "fail" and ck.equivariance().status == "fail"
    assert ck.equivariance().value == pytest.approx(
        max(np.linalg.norm(1e-6 * (np.arange(6) - np.array(p))[:, None] * np.ones((1, 4)))
            for p in mc.random_permutations(6, 100, 7)), rel=1e-6)
    ck = Checker(Fake(lambda n, a: mc.permutation_matrix(a[0]) + (1e-300 if n else 0)), found("permutation_matrix"),
                 INPUTS)
    assert ck.permutation_matrix().status == "pass"
    rolled = Fake(lambda n, a: np.roll(mc.permutation_matrix(a[0]), 1, axis=0))
    ck = Checker(rolled, found("permutation_matrix"), INPUTS)
    assert ck.permutation_matrix().status == "fail"
    ck = Checker(Fake(lambda n, a: mc.my_sinusoidal_position(*a) + 1e-8), found("my_sinusoidal_position"), INPUTS)
    assert ck.sinusoidal().status == "fail" and ck.sinusoidal().value == pytest.approx(1e-8, rel=1e-6)
    ck = Checker(Fake(lambda n, a: mc.rope_angle_grid(*a) + 1e-10), found("rope_angle_grid"), INPUTS)
    assert ck.rope().status == "pass"  # under the table's line of 10⁻⁹


# ------------------------------------------------------------------------------ loading and signatures

def test_a_permutation_of_x_is_recognised_with_a_negative_zero():
    """The max corner's X has an entry −0 (rounded to one decimal); ``P @ X`` sums it with the other rows' 0s
    into 0, so bitwise it was no permutation of X and a correct check_equivariance_max_defect read as trying 1
    permutation of 10 000.  −0 and 0 are now alike (this fails on the old bitwise comparison)."""
    from microscope.checks import row_perm

    X = np.array([[-1.1, -0.0, 0.5], [1.0, -0.3, 0.2], [0.2, 0.7, -0.6]])
    P = mc.permutation_matrix([2, 0, 1]).astype(np.float64)
    PX = P @ X
    assert np.signbit(X[0, 1]) and not np.signbit(PX[1, 1])  # the case: the product's 0 is +0
    assert row_perm(PX, X).tolist() == [2, 0, 1]
    assert row_perm(PX + np.eye(3) * 1e-16, X) is None or row_perm(PX + 1e-9, X) is None

def test_magic_and_shell_lines_become_pass_at_their_indentation():
    src = ("import numpy as np\n!pip install numpy\n%matplotlib inline\nif True:\n    !ls\nfiles = !ls\n"
           "np.sum?\nx = 1 % 2\n")
    out, n = strip_magics(src)
    assert n == 5
    assert out == "import numpy as np\npass\npass\nif True:\n    pass\npass\npass\nx = 1 % 2\n"
    compile(out, "x", "exec")


def test_a_notebook_runs_cell_by_cell_and_goes_on_past_a_failing_cell(tmp_path):
    sub = read_submission(GALLERY / "correct.ipynb")
    assert sub.kind == "ipynb" and sub.module_name == "__main__"
    assert [u["where"] for u in sub.units][:2] == ["cell 2", "cell 4"]  # code cells only, counted among all
    assert not any("%%bash" in u["source"] for u in sub.units)
    assert read_submission(GALLERY / "correct.py").module_name == "submission"  # its __main__ block does not run
    bad = tmp_path / "notes.txt"
    bad.write_text("x")
    with pytest.raises(ValueError, match=r"a submission is a \.py file or a Jupyter notebook \(\.ipynb\), got \.txt"):
        read_submission(bad)


def _params(*names, defaults=()):
    return [{"name": n, "kind": "POSITIONAL_OR_KEYWORD", "default": n in defaults} for n in names]


def test_signature_detection_says_what_was_found_and_what_is_missing():
    funcs = {"self_attention": {"params": _params("X", "Wq", "Wk", "Wv", "causal", defaults=("causal",)), "line": 3},
             "permutation_matrix": {"params": _params("perm", "T"), "line": 9},
             "rope_angle_grid": {"params": _params("T", "d"), "line": 20}}
    d = detect(funcs, lambda f, line: f"line {line}")
    assert d.causal_source == "self_attention"
    assert d.summary() == (
        "found self_attention(X, Wq, Wk, Wv, causal=…), rope_angle_grid(T, d); "
        "cannot call permutation_matrix(perm, T) (expected permutation_matrix(perm)); "
        "missing check_equivariance_max_defect, prefix_invariance_max_defect, my_sinusoidal_position; "
        "causal attention: its self_attention(..., causal=True)")
    funcs["attention"] = {"params": _params("q", "k", "v", "mask", defaults=("mask",)), "line": 1}
    assert detect(funcs, lambda f, line: "").causal_source == "attention+mask"
    funcs["causal_mask"] = {"params": _params("T"), "line": 2}
    assert detect(funcs, lambda f, line: "").causal_source == "attention+causal_mask"
    funcs["causal_attention"] = {"params": _params("Q", "K", "V"), "line": 2}
    d = detect(funcs, lambda f, line: "")
    assert d.causal_source == "causal_attention" and d.get("causal_attention").qkv_form


# ------------------------------------------------------------------------------ reports
def test_the_reports_and_the_gradebook(gallery, tmp_path):
    from microscope.report import gradebook_csv, summary, table, write_reports

    reps = [gallery[n] for n in sorted(gallery)]
    written = write_reports(reps, tmp_path, gradebook=True)
    assert len(written) == len(reps) + 2
    rows = list(csv.DictReader(io_text((tmp_path / "gradebook.csv").read_text())))
    assert [r["student"] for r in rows] == sorted(gallery)
    assert {r["student"]: r["rope_angle_grid"] for r in rows}["rope_i_over_d"] == "fail"
    assert {r["student"]: (r["passed"], r["total"]) for r in rows}["correct.py"] == ("9", "9")
    data = json.loads((tmp_path / "no_scale.json").read_text())
    assert data["passed"] == 8 and data["verdicts"][0]["status"] == "fail" and "seconds" not in data
    for f in tmp_path.iterdir():  # the files hold no timings: the same check writes the same bytes
        assert not re.search(r"\d\.\d s\b", f.read_text()), f.name
    assert gradebook_csv(reps) == (tmp_path / "gradebook.csv").read_text()
    text = table(gallery["mask_triu"], seconds=False)
    assert "mask_triu (mask_triu.py): 7 of 9 properties pass" in text.splitlines()[0]
    assert "  ✗ fail     causal attention: 0 above the diagonal, rows sum to 1" in text
    assert summary(reps).splitlines()[1].startswith("correct.ipynb")


def io_text(s: str):
    import io

    return io.StringIO(s)


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def test_the_html_reports_pass_axe(gallery, tmp_path):
    from test_present import CHROMIUM, CHROMIUM_ARGS, axe_violations

    from microscope.report import write_reports

    if not Path(CHROMIUM).exists():
        pytest.fail(f"no browser at {CHROMIUM}: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    write_reports([gallery[n] for n in ("correct.ipynb", "mask_triu", "loops_forever")], tmp_path, gradebook=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        seen = {}
        for name in ("correct.ipynb.html", "mask_triu.html", "loops_forever.html", "gradebook.html"):
            page.goto((tmp_path / name).as_uri())
            seen[name] = axe_violations(page)
        # and axe sees a violation when there is one: a header cell's text too faint to read
        page.evaluate("document.querySelector('th').style.color = '#cccccc'")
        faint = axe_violations(page)
        browser.close()
    assert all(not x for x in seen.values()), seen
    assert any(x.startswith("color-contrast") for x in faint)


# ------------------------------------------------------------------------------ the command
def test_clips_check_one_notebook_prints_its_table_and_writes_its_report(tmp_path):
    r = clips(None, "check", str(GALLERY / "mask_triu.py"), "--out", str(tmp_path / "o"))
    assert r.returncode == 1, r.stderr
    assert re.fullmatch(r"mask_triu \(mask_triu.py\): 7 of 9 properties pass  \(\d+\.\d s\)", r.stdout.splitlines()[0])
    assert "causal attention: its attention with its causal_mask" in r.stdout
    assert r.stdout.rstrip().endswith(f"the report: {tmp_path / 'o' / 'mask_triu.html'}")
    assert (tmp_path / "o" / "mask_triu.html").exists() and not (tmp_path / "o" / "gradebook.csv").exists()
    j = clips(None, "check", str(GALLERY / "correct.py"), "--json", "--out", str(tmp_path / "o"))
    assert j.returncode == 0
    assert json.loads(j.stdout)[0]["passed"] == 9


def test_clips_check_bad_input_is_one_line_and_exit_2(tmp_path):
    for args, words in (((str(tmp_path / "nope.py"),), "nope.py: no such file or folder"),
                        ((str(GALLERY / "correct.py"), "--jobs", "0"), "argument --jobs: must be at least 1, got 0"),
                        ((str(GALLERY / "correct.py"), "--timeout", "0"), "argument --timeout"),
                        ((str(tmp_path),), "no .py or .ipynb file in this folder")):
        r = clips(None, "check", *args, "--out", str(tmp_path / "o"))
        assert r.returncode == 2, r.stdout + r.stderr
        assert words in one_line(r.stderr)
    assert not (tmp_path / "o").exists()


CLUSTER = """
import sys
from distributed import LocalCluster
if __name__ == "__main__":
    c = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, scheduler_port=0)
    print(c.scheduler_address, flush=True)
    sys.stdin.read()
    c.close()
"""


def test_a_dask_cluster_gives_the_same_gradebook(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for n in ("correct.py", "no_scale.py", "rope_i_over_d.py"):
        (folder / n).write_bytes((GALLERY / n).read_bytes())
    script = tmp_path / "cluster.py"
    script.write_text(textwrap.dedent(CLUSTER))
    proc = subprocess.Popen([sys.executable, str(script)], cwd=REPO, env=dict(os.environ), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        address = proc.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        r = clips(None, "check", str(folder), "--scheduler", address, "--out", str(tmp_path / "dask"))
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert r.returncode == 1, r.stdout + r.stderr
    local = clips(None, "check", str(folder), "--jobs", "2", "--out", str(tmp_path / "local"))
    assert (tmp_path / "dask" / "gradebook.csv").read_text() == (tmp_path / "local" / "gradebook.csv").read_text()
    assert (tmp_path / "dask" / "no_scale.html").read_bytes() == (tmp_path / "local" / "no_scale.html").read_bytes()
    assert "check: 3 submission(s), 1 pass every property" in local.stdout
