"""``clips render --student`` and ``clips audit --student``: the clips that show the notebook's functions, drawn
from a student's numbers (issue 34, part 4).

A submission runs once in the sandbox (``scenes.render.student.run_student``, as the command runs it); its
numbers reach the clips as a plain ``kit.student.StudentSource``.  For the correct submission and three classic
mistakes (``permutation_transposed`` -> clip 01, ``mask_triu`` -> clip 03, ``sin_cos_swapped`` -> clip 08) each
clip is run as ``clips audit`` runs it (animations skipped, seconds): its data is the student's arrays, the
failing variant outlines exactly the rows or cells that fail (bound to the data: the audit's records), says the
failing sentence with the right figure, and closes on the verdict ✗ with the figure.  A function that raises
gives the error card.  The command: bad input is one line and exit 2; the clips land in
``OUT/QUALITY/student-NAME/`` and the lecture's manifest is untouched.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mathcore import lecture_inputs, load_config, my_sinusoidal_position, permutation_matrix
from mathcore.rope_measures import sinusoidal_at
from project import REPO, clips, one_line

GALLERY = REPO / "examples" / "submissions"

RAISES = '''
import numpy as np


def permutation_matrix(perm):
    raise ValueError("not written yet")


def my_sinusoidal_position(T, d, base=10000.0):
    return np.zeros((T, d + 1))
'''


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """Each submission run once, in the sandbox, as the command runs it."""
    from scenes.render.student import run_student

    raises = tmp_path_factory.mktemp("subs") / "raises.py"
    raises.write_text(RAISES, encoding="utf-8")
    paths = {n: GALLERY / f"{n}.py" for n in ("correct", "permutation_transposed", "mask_triu", "sin_cos_swapped")}
    paths["raises"] = raises
    return {n: run_student(p, timeout=6.0, memory_mib=512) for n, p in paths.items()}


_RUNS: dict = {}


def audited(scene_cls, source):
    """The clip on the student's numbers, as ``clips audit --student`` runs it (cached per test process)."""
    from scenes.audit.beats import audit_clip
    from scenes.render import patches

    key = (scene_cls.__name__, None if source is None else source.name)
    if key not in _RUNS:
        patches.install_building()
        _RUNS[key] = audit_clip(scene_cls, student=source)
    return _RUNS[key]


def record(res, key):
    return next(r for r in res.records if r.key == key)


def caption(res, key):
    return next(c.text for c in res.scene.captions if c.key == key)


def failed_mids(rec):
    """The ids of the marks drawn in the failed colour at the end of a beat (the outlines a failure shows)."""
    return {it.mid for it in rec.items if it.kind == "graphic" and it.role == "failed" and it.opacity > 0.5}


def failed_boxes(rec):
    """The centres of the graphics drawn in the failed role at the end of a beat (the red outlines)."""
    return [((it.box[0] + it.box[2]) / 2, (it.box[1] + it.box[3]) / 2) for it in rec.items
            if it.kind == "graphic" and it.role == "failed" and it.opacity > 0.5]


def close_verdicts(res):
    """The verdicts at the end of the clip: (passed, figure text) of each (kit.proofs.verdict)."""
    out = []
    for m in res.scene.mobjects:
        for f in m.get_family():
            if getattr(f, "_verdict", False):
                out.append((f.passed, f.figure.text))
    return out


# ------------------------------------------------------------------------------ the data source
def test_the_source_survives_its_file_and_its_digest_names_its_numbers(sources, tmp_path):
    from scenes.kit.student import StudentSource

    s = sources["mask_triu"]
    back = StudentSource.load(s.save(tmp_path / "s.npz"))
    assert back.name == "mask_triu" and back.digest() == s.digest()
    np.testing.assert_array_equal(back.array("causal", "A"), s.array("causal", "A"))
    assert back.prop("causal").status == "fail" and back.prop("causal").figure == s.prop("causal").figure
    # a different student's numbers, a different digest (and so different render keys)
    assert sources["correct"].digest() != s.digest()


def test_a_student_source_is_plain_data_never_a_pickle(sources, tmp_path):
    p = sources["correct"].save(tmp_path / "c.npz")
    with np.load(p, allow_pickle=False) as z:  # loads without pickle: arrays and a JSON string only
        assert "__meta__" in z.files and all(z[k].dtype != object for k in z.files)


# ------------------------------------------------------------------------------ clip 01: permutation_transposed
def test_clip01_draws_the_students_P_and_marks_exactly_the_rows_that_are_not_X_pi(sources):
    from scenes.clips.c01_permutation_matrix import PermutationMatrix

    cfg = load_config()
    X = lecture_inputs(cfg.T, cfg.d, cfg.seed).X
    src = sources["permutation_transposed"]
    d = PermutationMatrix.student_data(cfg, src)
    np.testing.assert_array_equal(d.P, src.array("permutation_matrix", "P"))
    np.testing.assert_array_equal(d.P, permutation_matrix(cfg.perm).T)  # the mistake: Pᵀ
    np.testing.assert_array_equal(d.PX, src.array("permutation_matrix", "PX"))
    wrong = [m for m in range(cfg.T) if not np.array_equal(d.PX[m], X[cfg.perm[m]])]
    assert list(d.bad_rows) == wrong and wrong
    res = audited(PermutationMatrix, src)
    assert not res.problems, res.problems
    # the red outlines at the check are the clip's outlines of exactly the wrong rows of P X: shown at that beat
    # (the audit's record), one per wrong row, each around that row's cells (P X has moved since: so have they)
    rec = record(res, "check_gather_fail")
    scene = res.scene
    shown = failed_mids(rec)
    assert len(scene.bad_frames) == len(wrong) and {id(f) for f in scene.bad_frames} <= shown
    for frame, m in zip(scene.bad_frames, wrong):
        row = np.mean([c.get_center() for c in scene.PX_map.heat.cells[m]], axis=0)
        np.testing.assert_allclose(frame.get_center(), row, atol=1e-6)
    fig = d.picture.gather.figure.text
    assert caption(res, "check_gather_fail") == (
        f"So {len(wrong)} rows of your P X differ from X[π], by up to {fig}.")
    assert float(fig) == pytest.approx(float(np.max(np.abs(d.PX - X[list(cfg.perm)]))), abs=0.05)
    assert caption(res, "close_fail").startswith("Your P is not the permutation matrix of π")
    assert (False, fig) in close_verdicts(res)


def test_clip01_on_the_correct_submission_is_the_lectures_clip(sources):
    from scenes.clips.c01_permutation_matrix import PermutationMatrix

    cfg = load_config()
    lecture = PermutationMatrix.build_data(cfg)
    d = PermutationMatrix.student_data(cfg, sources["correct"])
    for f in ("X", "P", "PX", "PT", "undone"):
        np.testing.assert_array_equal(getattr(d, f), getattr(lecture, f))
    assert d.picks == lecture.picks and not d.bad_rows and not d.bad_P_rows
    res = audited(PermutationMatrix, sources["correct"])
    assert not res.problems, res.problems
    assert [c.key for c in res.scene.captions] == [r.key for r in audited(PermutationMatrix, None).records]
    assert all(ok for ok, _ in close_verdicts(res))


# ------------------------------------------------------------------------------ clip 02: an attention that is not equivariant
NOT_EQUIVARIANT = '''
import numpy as np


def attention(Q, K, V, mask=None):
    T = Q.shape[0]
    S = Q @ K.T / np.sqrt(K.shape[1])
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return A @ V + 0.05 * (np.arange(T) < 2)[:, None], A  # the first two positions get a bonus
'''

Y_ONLY = '''
import numpy as np


def attention(Q, K, V, mask=None):
    S = Q @ K.T / np.sqrt(K.shape[1])
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return A @ V
'''


def test_clip02_on_the_correct_submission_is_the_lectures_clip_on_its_numbers(sources):
    from scenes.clips.c02_permutation_equivariance import PermutationEquivariance

    cfg = load_config()
    src = sources["correct"]
    d = PermutationEquivariance.student_data(cfg, src)
    np.testing.assert_array_equal(d.Y, src.array("equivariance", "Y"))
    np.testing.assert_array_equal(d.Y_PX, src.array("equivariance", "Y_perm"))
    np.testing.assert_array_equal(d.A, src.array("equivariance", "A"))  # their weights, which they returned
    np.testing.assert_array_equal(d.run.defects, src.array("equivariance", "defects"))
    assert d.weights and d.sums and not d.bad_rows and d.picture.passed
    res = audited(PermutationEquivariance, src)
    assert not res.problems, res.problems
    lecture = audited(PermutationEquivariance, None)
    assert [c.key for c in res.scene.captions] == [r.key for r in lecture.records]  # the lecture's sentences
    assert all(ok for ok, _ in close_verdicts(res))


def test_clip02_outlines_exactly_the_rows_of_attn_px_that_are_not_p_attn_x(tmp_path):
    from scenes.clips.c02_permutation_equivariance import PermutationEquivariance as C
    from scenes.kit import count, fmt_measure, measure
    from scenes.render.student import run_student

    cfg = load_config()
    T = cfg.T
    sub = tmp_path / "not_equivariant.py"
    sub.write_text(NOT_EQUIVARIANT, encoding="utf-8")
    src = run_student(sub, timeout=6.0, memory_mib=512)
    assert src.prop("equivariance").status == "fail"
    Y, Y_perm = src.array("equivariance", "Y"), src.array("equivariance", "Y_perm")
    perm = list(cfg.perm)
    np.testing.assert_array_equal(src.array("equivariance", "perm"), perm)
    rows = np.linalg.norm(Y_perm - Y[perm], axis=1)  # ‖Attn(P X)_m − (P·Attn(X))_m‖ for the clip's P
    wrong = [m for m in range(T) if rows[m] >= 1e-10]
    assert wrong and len(wrong) < T  # the bonus moves with the positions: only some rows differ
    d = C.student_data(cfg, src)
    assert list(d.bad_rows) == wrong and not d.picture.passed and not d.sums
    res = audited(C, src)
    assert not res.problems, res.problems
    scene = res.scene
    # the red outlines at the outputs' beat, one per wrong row, each around that row of Attn(P X), its figure beside it
    rec = record(res, "outputs_fail")
    shown = failed_mids(rec)
    assert len(scene.bad_frames) == len(wrong) and {id(f) for f in scene.bad_frames} <= shown
    body = scene.p.Y_body
    for frame, m in zip(scene.bad_frames, wrong):
        np.testing.assert_allclose(frame.get_center(), np.mean([c.get_center() for c in body.cells[m]], axis=0),
                                   atol=1e-6)
    np.testing.assert_array_equal(body.values, Y_perm)  # the outputs on P X the student's attention gave
    assert [f.figure.text for f in scene.bad_figures] == [fmt_measure(rows[m]) for m in wrong]
    assert caption(res, "outputs_fail") == (f"But your outputs on P X are not P Y: {C.rows_text(wrong)}, outlined in red, "
                                            f"differ by up to {fmt_measure(rows.max())}.")
    assert caption(res, "check_fail") == (f"For this P your defect is {fmt_measure(float(np.linalg.norm(rows)))}: over "
                                          f"the pass line at {measure(1e-10).text}, not rounding.")
    # the trials: every defect past the pass line a red dot, and only those
    defects = src.array("equivariance", "defects")
    above = int(np.sum(defects >= 1e-10))
    red = failed_mids(record(res, "running_max_fail"))
    assert {id(m) for m in scene.q.red} <= red and len(scene.q.red) == above
    for dot, k in zip(scene.q.red, np.flatnonzero(defects >= 1e-10)):  # each at its trial's defect
        np.testing.assert_allclose(dot.get_center(), scene.q.plot.to_point(k + 1, defects[k]), atol=1e-6)
    m = float(defects.max())
    assert caption(res, "running_max_fail") == (f"Your running maximum climbs to {fmt_measure(m)}, over the pass line at "
                                                f"{measure(1e-10).text}: {count(above).text} of {len(defects)} "
                                                f"permutations fail, in red.")
    assert "why" not in [r.key for r in res.records]  # the lecture's "why" is not about their attention
    assert caption(res, "close_fail") == (f"Your attention is not permutation equivariant: shuffle the tokens and its "
                                          f"answer changes, by up to {fmt_measure(m)}.")
    assert close_verdicts(res) == [(False, fmt_measure(m))]


def test_clip02_draws_no_weights_for_an_attention_that_returns_none(tmp_path):
    """An attention that returns Y alone: the clip draws X → Y, never the lecture's A as theirs, and says so."""
    from scenes.clips.c02_permutation_equivariance import PermutationEquivariance as C
    from scenes.render.student import run_student

    sub = tmp_path / "y_only.py"
    sub.write_text(Y_ONLY, encoding="utf-8")
    src = run_student(sub, timeout=6.0, memory_mib=512)
    assert src.prop("equivariance").passed and src.array("equivariance", "A") is None
    d = C.student_data(load_config(), src)
    assert not d.weights and not d.sums
    res = audited(C, src)
    assert not res.problems, res.problems
    keys = [r.key for r in res.records]
    assert keys[1] == "setup_fail" and not {"rows", "cols", "why", "rounding"} & set(keys)
    assert not hasattr(res.scene.p, "A_map")
    assert "returns no weights A, so none are drawn" in caption(res, "setup_fail")
    assert all(ok for ok, _ in close_verdicts(res))


def test_clip02_an_attention_that_is_missing_gives_the_error_card(sources):
    from scenes.clips.c02_permutation_equivariance import PermutationEquivariance

    res = audited(PermutationEquivariance, sources["raises"])
    assert not res.problems, res.problems
    assert [r.key for r in res.records] == ["title", "error_fail"]
    assert caption(res, "error_fail").endswith(": " + sources["raises"].prop("equivariance").failure + ".")


# ------------------------------------------------------------------------------ clip 03: mask_triu
def test_clip03_outlines_exactly_the_future_weights_the_mask_leaked(sources):
    from scenes.clips.c03_causal_mask import CausalMask

    cfg = load_config()
    src = sources["mask_triu"]
    d = CausalMask.student_data(cfg, src)
    A = src.array("causal", "A")
    np.testing.assert_array_equal(d.weights, A)
    future = src.array("causal", "future")
    assert set(d.leaked) == {(int(i), int(j)) for i, j in zip(*np.nonzero(future))} and d.leaked
    res = audited(CausalMask, src)
    assert not res.problems, res.problems
    scene = res.scene
    rec = record(res, "proof_zero_fail")
    shown = failed_mids(rec)
    assert {id(f) for f in scene.leak_frames} <= shown  # shown at that beat (the audit's record)
    # each outline around its cell of the causal map (the map and its outlines have moved together since)
    marked = set()
    for frame in scene.leak_frames:
        c = frame.get_center()
        marked |= {(i, j) for i in range(A.shape[0]) for j in range(A.shape[0])
                   if np.allclose(scene.A_small.cell(i, j).get_center(), c, atol=1e-6)}
    assert marked == set(d.leaked) and len(scene.leak_frames) == len(d.leaked)  # every leaked cell, nothing else
    i, j = d.leaked[0]
    assert A[i, j] == np.max(np.triu(A, 1))
    from scenes.kit import fmt_measure, fmt_value

    assert caption(res, "zeros_fail") == (f"But your weights above the diagonal are not 0: {len(d.leaked)} future cells, "
                                          f"outlined in red, the largest {fmt_value(A[i, j], 2)}.")
    assert caption(res, "proof_zero_fail").startswith(f"And the largest weight above the diagonal is "
                                                      f"{fmt_measure(d.upper_max)}: your mask lets row {i} see key {j}.")
    assert caption(res, "close_fail").startswith("Your causal attention is not causal yet")
    verdicts = close_verdicts(res)
    assert (False, fmt_measure(d.upper_max)) in [(ok, t.replace("exactly ", "")) for ok, t in verdicts] or \
        any(not ok and t.startswith("0.74") for ok, t in verdicts)
    assert any(ok for ok, _ in verdicts)  # every row still sums to 1: that verdict stays ✓


def test_clip03_on_the_correct_submission_says_the_lectures_sentences(sources):
    from scenes.clips.c03_causal_mask import CausalMask

    res = audited(CausalMask, sources["correct"])
    assert not res.problems, res.problems
    assert not any(c.key.endswith("_fail") for c in res.scene.captions)
    assert not res.scene.data.leaked and all(ok for ok, _ in close_verdicts(res))


# ------------------------------------------------------------------------------ clip 04: mask_triu
def _row_centre(hm, n):
    return np.mean([c.get_center() for c in hm.cells[n]], axis=0)


def test_clip04_outlines_exactly_the_rows_a_later_token_changed_with_their_measured_difference(sources):
    from scenes.clips.c04_prefix_invariance import PrefixInvariance, rows_text
    from scenes.kit import fmt_measure

    cfg = load_config()
    T = cfg.T
    src = sources["mask_triu"]
    passes = src.array("prefix", "passes")  # passes[t − 1, :t]: the student's outputs on X's first t rows
    assert passes.shape == (T, T, cfg.d)
    d = PrefixInvariance.student_data(cfg, src)
    np.testing.assert_array_equal(d.Y_full, passes[T - 1])
    np.testing.assert_array_equal(d.Y_prefix, passes[T - 2, : T - 1])
    np.testing.assert_array_equal(d.defects_fixed, src.array("prefix", "defects"))
    # the slide's rows: the prefix pass over T − 1 tokens against the full pass, row by row
    gaps = np.max(np.abs(passes[T - 2, : T - 1] - passes[T - 1, : T - 1]), axis=1)
    wrong = [n for n in range(T - 1) if gaps[n] >= 1e-10]
    assert list(d.slide_rows) == wrong and wrong and d.differs
    res = audited(PrefixInvariance, src)
    assert not res.problems, res.problems
    scene = res.scene
    rec = record(res, "slide_fail")
    shown = failed_mids(rec)
    assert len(scene.slide_frames) == len(wrong) and {id(f) for f in scene.slide_frames} <= shown
    for frame, n in zip(scene.slide_frames, wrong):  # each outline around its row of the full outputs
        np.testing.assert_allclose(frame.get_center(), _row_centre(scene.full, n), atol=1e-6)
    figures = [m.figure.text for m in scene.gap_labels if hasattr(m, "figure")]
    assert figures == [fmt_measure(gaps[n]) for n in wrong]  # each row's measured difference beside it
    assert caption(res, "slide_fail") == (f"Slide your prefix outputs onto your full ones: {rows_text(wrong)} land on "
                                          f"different numbers, by up to {fmt_measure(gaps.max())}.")
    assert caption(res, "last_row_fail").endswith("yet yours changed: a later token reaches back into them.")
    # the plot: the prefix lengths past the pass line in red, and the verdict ✗ with the largest difference
    red = [mk.value for mk in scene.fixed_marks if getattr(mk, "_role", None) == "failed"]
    defects = src.array("prefix", "defects")
    assert red == [float(x) for x in defects if x >= 1e-10] and red
    m = float(defects.max())
    assert caption(res, "every_prefix_fail") == (f"Measure every prefix length t, from 1 token to {T}: your outputs "
                                                 f"differ by up to {fmt_measure(m)}.")
    # the bits: the student's worst entry, its difference measured
    t, i, j = d.entry
    assert abs(passes[t - 1, i, j] - passes[T - 1, i, j]) == np.max(np.abs(passes[t - 1, :t] - passes[T - 1, :t]))
    assert caption(res, "bitwise_fail") == (f"Not zero: your entry in row {i}, column {j} differs between the two "
                                            f"passes by {fmt_measure(abs(d.fixed_values[0] - d.fixed_values[1]))}.")
    # no aside on the lecture's two kernels: the clip goes to its close, the rows some prefix changed outlined
    assert [r.key for r in res.records][-2:] == ["bitwise_fail", "close_fail"]
    changed = [n for n in range(T) if max(np.max(np.abs(passes[u - 1, n] - passes[T - 1, n])) for u in range(n + 1, T + 1))
               >= 1e-10]
    assert list(d.close_rows) == changed
    for frame, n in zip(scene.close_frames, changed):
        np.testing.assert_allclose(frame.get_center(), _row_centre(scene.close_map, n), atol=1e-6)
    assert len(scene.close_frames) == len(changed)
    assert caption(res, "close_fail") == (f"Your prefixes' outputs are not the full outputs' first rows: "
                                          f"{rows_text(changed)} change, a later token reaches back into them.")
    assert close_verdicts(res) == [(False, fmt_measure(m))]


ROUNDING = '''
import numpy as np


def causal_attention(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    T = X.shape[0]
    S = Q @ K.T / np.sqrt(K.shape[1])
    S = np.where(np.tril(np.ones((T, T), dtype=bool)), S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return (A @ V) * (1 + T * 2.0**-52)  # a rounding that depends on how many tokens were read
'''


def test_clip04_a_student_equal_only_at_rounding_level_is_outlined_as_rounding_not_as_a_failure(tmp_path):
    """Prefix-invariant at rounding level (the check passes) but not bit for bit: the clip's exact claim is false,
    so the failing sentences are said, with the rounding named; the rows are outlined in the highlight (as the
    lecture's BLAS kernel's last bits are), never in the failed red, and the close says rounding."""
    from scenes.clips.c04_prefix_invariance import PrefixInvariance
    from scenes.render.student import run_student

    sub = tmp_path / "rounding.py"
    sub.write_text(ROUNDING, encoding="utf-8")
    src = run_student(sub, timeout=6.0, memory_mib=512)
    assert src.prop("prefix").passed and 0 < src.prop("prefix").value < 1e-10
    res = audited(PrefixInvariance, src)
    assert not res.problems, res.problems
    scene = res.scene
    assert scene.data.differs and scene.data.slide_rows
    assert all(f._role == "highlight" for f in scene.slide_frames) and len(scene.slide_frames) == len(scene.data.slide_rows)
    assert not [mk for mk in scene.fixed_marks if getattr(mk, "_role", None) == "failed"]
    assert not len(scene.pass_line)  # the axis (10⁻¹⁷ to 10⁻¹⁴) does not reach the pass line
    assert caption(res, "last_row_fail").endswith("yet yours changed: by rounding, not bit for bit.")
    assert caption(res, "close_fail").endswith("change, by rounding, not bit for bit, under the pass line of 10⁻¹⁰.")


def test_clip04_on_the_correct_submission_is_the_lectures_clip(sources):
    from scenes.clips.c04_prefix_invariance import PrefixInvariance

    cfg = load_config()
    src = sources["correct"]
    d = PrefixInvariance.student_data(cfg, src)
    np.testing.assert_array_equal(d.Y_full, src.array("prefix", "passes")[cfg.T - 1])
    assert not d.differs and d.max_fixed == 0.0 and d.entry == PrefixInvariance.build_data(cfg).entry
    res = audited(PrefixInvariance, src)
    assert not res.problems, res.problems
    assert [c.key for c in res.scene.captions] == [r.key for r in audited(PrefixInvariance, None).records]
    assert all(ok for ok, _ in close_verdicts(res))


def test_clip04_where_the_causal_attention_is_missing_gives_the_error_card(sources):
    from scenes.clips.c04_prefix_invariance import PrefixInvariance

    src = sources["raises"]  # defines no attention at all
    res = audited(PrefixInvariance, src)
    assert not res.problems, res.problems
    assert [r.key for r in res.records] == ["title", "error_fail"]
    assert caption(res, "error_fail") == f"Your causal attention gave this clip nothing to draw: {src.prop('prefix').failure}."


# ------------------------------------------------------------------------------ clip 06: softmax_wrong_axis
def test_clip06_outlines_exactly_the_rows_outside_the_swap_that_the_students_causal_attention_moves(sources):
    from mathcore.equivariance import default_swap
    from mathcore.permutation import swap_permutation

    from scenes.clips.c06_causal_breaks_equivariance import CausalBreaksEquivariance, rows_text
    from scenes.kit import fmt_measure
    from scenes.render.student import run_student

    cfg = load_config()
    T = cfg.T
    src = run_student(GALLERY / "softmax_wrong_axis.py", timeout=6.0, memory_mib=512)
    i, j = default_swap(T)
    p = src.array("causal", "swap")
    np.testing.assert_array_equal(p, swap_permutation(T, i, j))
    # the student's causal attention on X and on P X, as the checks ran it: each row's change
    rows = np.linalg.norm(src.array("causal", "Y_swap") - src.array("causal", "Y")[p], axis=1)
    d = CausalBreaksEquivariance.student_data(cfg, src)
    np.testing.assert_allclose(d.report.causal_rows, rows, rtol=0, atol=0)
    odd = [m for m in range(T) if rows[m] >= 1e-10 and not i <= m <= j]
    assert list(d.odd_rows) == odd == [T - 1]  # the column softmax moves the last row, which sees every token
    res = audited(CausalBreaksEquivariance, src)
    assert not res.problems, res.problems
    scene = res.scene
    rec = record(res, "after_fail")
    shown = failed_mids(rec)
    assert len(scene.odd_frames) == len(odd) and {id(f) for f in scene.odd_frames} <= shown
    for frame, m in zip(scene.odd_frames, odd):  # around that row of the chart (widened at the close: so are they)
        assert abs(frame.get_center()[1] - scene.wide_chart.row_y(m)) < 1e-6
    changed = [m for m in range(T) if rows[m] >= 1e-10]
    # (the figure as clip 06 prints its rows: three digits, so its total recomputes from them)
    from scenes.clips.c06_causal_breaks_equivariance import shown as shown_06

    assert caption(res, "causal_fail") == (f"Your causal attention: {rows_text(changed)} change, by up to "
                                           f"{shown_06(rows.max()).text}.")
    assert caption(res, "after_fail") == (f"Row {T - 1} sees all {T} tokens either way, yet yours changes by "
                                          f"{shown_06(rows[T - 1]).text}: outlined in red.")
    assert caption(res, "close_fail") == (f"Your causal attention also moves {rows_text(odd)}, by up to "
                                          f"{shown_06(rows[odd].max()).text}, which a causal mask keeps fixed.")
    verdicts = close_verdicts(res)
    assert (False, shown_06(float(np.linalg.norm(rows))).text) in verdicts or \
        (False, fmt_measure(float(np.linalg.norm(rows)))) in verdicts, verdicts


def test_clip06_on_the_correct_submission_is_the_lectures_clip(sources):
    from scenes.clips.c06_causal_breaks_equivariance import CausalBreaksEquivariance

    d = CausalBreaksEquivariance.student_data(load_config(), sources["correct"])
    assert not d.odd_rows and d.changed_as_lecture
    res = audited(CausalBreaksEquivariance, sources["correct"])
    assert not res.problems, res.problems
    assert [c.key for c in res.scene.captions] == [r.key for r in audited(CausalBreaksEquivariance, None).records]


# ------------------------------------------------------------------------------ clip 07: an attention that sees the order
SEES_ORDER = '''
import numpy as np


def self_attention(X, Wq, Wk, Wv, causal=False):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    T = X.shape[0]
    S = Q @ K.T / np.sqrt(K.shape[1])
    if causal:
        S = np.where(np.tril(np.ones((T, T), dtype=bool)), S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return A @ V + 0.05 * np.arange(T)[:, None]  # a position leaks in: the order shows
'''


def test_clip07_marks_the_matched_rows_an_attention_that_sees_the_order_tells_apart(tmp_path):
    from mathcore.equivariance import matched_differences

    from scenes.clips.c07_same_multiset import SameMultiset
    from scenes.kit import fmt_measure
    from scenes.render.student import run_student

    cfg = load_config()
    sub = tmp_path / "sees_order.py"
    sub.write_text(SEES_ORDER, encoding="utf-8")
    src = run_student(sub, timeout=6.0, memory_mib=512)
    assert src.prop("equivariance").status == "fail"
    d = SameMultiset.student_data(cfg, src)
    np.testing.assert_array_equal(d.plain.Y_a, src.array("equivariance", "Y_a"))
    np.testing.assert_array_equal(d.positioned.Y_b, src.array("equivariance", "Y_b_pos"))
    diffs = matched_differences(src.array("equivariance", "Y_a"), src.array("equivariance", "Y_b"), d.matching)
    wrong = [k for k in range(len(diffs)) if diffs[k] >= 1e-10]
    assert wrong and len(wrong) < len(diffs)  # the words that moved; "the" and "ate" keep their places
    res = audited(SameMultiset, src)
    assert not res.problems, res.problems
    scene = res.scene
    # each row's verdict beside it: ✗ with its figure exactly where the matched outputs differ
    marks = [(m.passed, m.figure.text) for m in scene.diffs]
    assert [k for k, (ok, _) in enumerate(marks) if not ok] == wrong
    # (each as clip 07 relates a rounded figure: "≈ 0.87", the deck's rule)
    from scenes.clips.c07_same_multiset import rounded

    assert all(fig == rounded(diffs[k]).text for k, (ok, fig) in enumerate(marks) if not ok), marks
    assert caption(res, "diffs_fail") == (f"Your matched outputs differ by up to {fmt_measure(diffs.max())}: more than "
                                          "rounding, so your attention sees the order.")
    assert caption(res, "close_fail") == (f"Your attention tells these sentences apart without positions, by up to "
                                          f"{fmt_measure(diffs.max())}: with the same words, it should not.")
    # the close relates a figure rounded for display with "≈" (the deck's rule): the same figure, marked
    assert any(not ok and fig.removeprefix("≈ ") == fmt_measure(diffs.max()) for ok, fig in close_verdicts(res))


def test_clip07_on_the_correct_submission_is_the_lectures_clip(sources):
    from scenes.clips.c07_same_multiset import SameMultiset

    d = SameMultiset.student_data(load_config(), sources["correct"])
    np.testing.assert_array_equal(d.plain.Y_a, sources["correct"].array("equivariance", "Y_a"))
    assert d.plain.max_diff < 1e-10
    res = audited(SameMultiset, sources["correct"])
    assert not res.problems, res.problems
    assert [c.key for c in res.scene.captions] == [r.key for r in audited(SameMultiset, None).records]
    assert all(ok for ok, _ in close_verdicts(res)[:1])


# ------------------------------------------------------------------------------ clip 08: sin_cos_swapped
def test_clip08_marks_exactly_the_cells_that_differ_and_names_the_largest(sources):
    from scenes.clips.c08_sinusoidal_position import SinusoidalPosition

    cfg = load_config()
    src = sources["sin_cos_swapped"]
    d = SinusoidalPosition.student_data(cfg, src)
    np.testing.assert_array_equal(d.PE, src.array("my_sinusoidal_position", "student"))
    samples = sinusoidal_at(np.arange(d.T), d.d, d.base)
    gap = np.abs(d.PE - samples)
    assert set(d.bad_cells) == {(int(i), int(j)) for i, j in zip(*np.nonzero(gap >= 1e-9))}
    assert gap[d.bad_cells[0]] == gap.max()
    # the swap: every sine column holds the cosine (a cell is right only where the two agree)
    ref = my_sinusoidal_position(d.T, d.d, d.base)
    np.testing.assert_allclose(d.PE[:, 0::2], ref[:, 1::2], atol=1e-12)
    res = audited(SinusoidalPosition, src)
    assert not res.problems, res.problems
    rec = record(res, "check_fail")
    shown = failed_mids(rec)
    scene = res.scene
    # the outlines at the check, each around its cell of the working matrix (as the audit recorded that beat) ...
    at_check = [(it.box[0] + it.box[2]) / 2 for it in rec.items if it.role == "failed" and it.kind == "graphic" and not it.verdict]
    assert len(at_check) == len(d.bad_cells)
    # ... and at the close around the same cells of the final matrix
    final = scene.pm.heat
    marked = set()
    for frame in scene.bad_frames:
        c = frame.get_center()
        marked |= {(i, j) for i in range(d.T) for j in range(d.d) if np.allclose(final.cell(i, j).get_center(), c, atol=1e-6)}
    assert marked == set(d.bad_cells) and len(scene.bad_frames) == len(d.bad_cells)
    assert shown and all(id(f) not in shown for f in scene.bad_frames)  # the close's are new outlines
    from scenes.kit import numbers

    i, j = d.bad_cells[0]
    assert caption(res, "check_fail") == (
        f"Your PE differs from the waves' samples in {len(d.bad_cells)} cells, outlined in red: most at position {i}, "
        f"column {j}, {numbers.measure(float(d.PE[i, j])).text} against {numbers.measure(float(samples[i, j])).text}.")
    fig = numbers.measure(d.sample_defect).text
    assert caption(res, "close_fail") == f"Your PE is not the formula: it misses the waves' samples by up to {fig}."
    assert close_verdicts(res) == [(False, fig)]


# ------------------------------------------------------------------------------ clip 10: rope_i_over_d
def test_clip10_writes_the_students_table_and_outlines_exactly_the_cells_that_are_not_m_theta(sources, tmp_path):
    from mathcore import rope_angle_grid

    from scenes.clips.c10_rope_angle_grid import RoPEAngleGrid
    from scenes.render.student import run_student

    cfg = load_config()
    src = run_student(GALLERY / "rope_i_over_d.py", timeout=6.0, memory_mib=512)
    d = RoPEAngleGrid.student_data(cfg, src)
    np.testing.assert_array_equal(d.grid, src.array("rope_angle_grid", "student"))
    ref = rope_angle_grid(d.T, d.d, d.base)
    gap = np.abs(d.grid - ref)
    assert set(d.bad_cells) == {(int(i), int(j)) for i, j in zip(*np.nonzero(gap >= 1e-9))} and d.bad_cells
    assert all(i > 0 and j > 0 for i, j in d.bad_cells)  # position 0 and pair 0 agree: 0·θ, and θ₀ = 1 either way
    res = audited(RoPEAngleGrid, src)
    assert not res.problems, res.problems
    scene = res.scene
    rec = record(res, "check_fail")
    shown = {it.mid for it in rec.items if it.kind == "graphic" and it.role == "failed" and not it.verdict}
    assert {id(f) for f in scene.bad_frames} == shown and len(shown) == len(d.bad_cells)
    grid = scene.table.grid
    for frame, (i, j) in zip(scene.bad_frames, d.bad_cells):
        np.testing.assert_allclose(frame.get_center(), grid.cell(i, j).get_center(), atol=1e-6)
    from scenes.kit import numbers

    fig = numbers.measure(d.defect).text
    assert caption(res, "close_fail") == f"Your table is not m θᵢ with θᵢ = b to the −2i/d: it misses by up to {fig}."
    assert (False, fig) in close_verdicts(res)
    ok = RoPEAngleGrid.student_data(cfg, sources["correct"])
    assert not ok.bad_cells and ok.defect < 1e-9


# ------------------------------------------------------------------------------ the error card
def test_a_function_that_raises_or_returns_the_wrong_shape_gives_the_error_card(sources):
    from scenes.clips.c01_permutation_matrix import PermutationMatrix
    from scenes.clips.c08_sinusoidal_position import SinusoidalPosition

    src = sources["raises"]
    for cls, needle in ((PermutationMatrix, "raises ValueError: not written yet"),
                        (SinusoidalPosition, "returns shape (12, 9), expected (12, 8)")):
        res = audited(cls, src)
        assert not res.problems, res.problems
        assert [r.key for r in res.records] == ["title", "error_fail"]  # and it ends
        card = res.scene.error_card
        assert needle in card.message.text and "Traceback" not in card.message.text
        assert needle in src.prop(cls.STUDENT).message
        said = caption(res, "error_fail")
        assert said.endswith(": " + src.prop(cls.STUDENT).failure + ".")


def test_the_error_cards_words_are_quoted_not_judged_but_a_lecture_text_still_is(sources):
    """The card quotes the student's function names (``permutation_matrix``); the notation check skips a quoted
    text, and only that: the same words unquoted are reported."""
    from scenes.audit.beats import lecture_problems
    from scenes.clips.c01_permutation_matrix import PermutationMatrix

    res = audited(PermutationMatrix, sources["raises"])
    rec = record(res, "error_fail")
    assert not [p for p in lecture_problems([rec]) if p.kind == "notation"]
    for it in rec.items:
        it.quoted = False
    found = [p for p in lecture_problems([rec]) if p.kind == "notation"]
    assert any("permutation_matrix" in p.message for p in found)


def test_every_student_clip_names_the_property_the_command_says(sources):
    """The command's table of student clips agrees with each clip's own STUDENT, and every one of its
    failing sentences names only values the clip provides (the render's preflight)."""
    from scenes.catalog import resolve
    from scenes.render.matrix import scene_class
    from scenes.render.preflight import SpelledNames
    from scenes.render.student import STUDENT_CLIPS

    for c in resolve([]):
        cls = scene_class(c)
        assert (cls.STUDENT is not None) == (c.number in STUDENT_CLIPS), c.name
        if cls.STUDENT is not None:
            assert cls.STUDENT == STUDENT_CLIPS[c.number]
            res = audited(cls, sources["correct"])
            assert not res.scene.narration_problems(named=SpelledNames()), c.name


# ------------------------------------------------------------------------------ the command
@pytest.mark.parametrize("args, needle", [
    (["render", "--student", "no/such/file.py", "3"], "no/such/file.py: no such file"),
    (["render", "--student", str(GALLERY), "3"], "a folder"),
    (["render", "--student", str(GALLERY / "mask_triu.py"), "9"], "clip 09_three_positional_schemes shows no function"),
    (["render", "--student", str(GALLERY / "mask_triu.py"), "12"], "shows no function a student writes"),
    (["audit", "--student", str(GALLERY / "mask_triu.py"), "14"], "shows no function a student writes"),
    (["render", "--no-sandbox", "1"], "--no-sandbox goes with --student"),
])
def test_bad_student_input_is_one_line_exit_2(tmp_path, args, needle):
    r = clips(None, *args, "-q", "t", "--out", str(tmp_path / "out")) if args[0] == "render" else clips(None, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert needle in line
    assert not (tmp_path / "out" / "t").exists() or not list((tmp_path / "out" / "t").rglob("*.mp4"))


def test_render_student_lands_in_its_own_folder_and_leaves_the_lectures_manifest(tmp_path):
    out = tmp_path / "out"
    lecture = out / "t"
    lecture.mkdir(parents=True)
    (lecture / "manifest.json").write_text(json.dumps({"quality": "t", "clips": {}}) + "\n")
    before = (lecture / "manifest.json").read_bytes()
    r = clips(None, "render", "--student", str(GALLERY / "mask_triu.py"), "3", "-q", "t", "--voice", "none",
              "--out", str(out), timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "03_causal_mask: causal attention" in r.stdout and "fails" in r.stdout
    folder = lecture / "student-mask_triu"
    for ext in ("mp4", "srt", "png"):
        assert (folder / f"03_causal_mask.{ext}").stat().st_size > 0
    srt = (folder / "03_causal_mask.srt").read_text()
    assert "But your weights above the diagonal are not 0: 15 future cells" in " ".join(srt.split())
    entry = json.loads((folder / "manifest.json").read_text())["clips"]["03_causal_mask"]
    assert [b["key"] for b in entry["beats"]][-1] == "close_fail"
    assert (lecture / "manifest.json").read_bytes() == before  # the lecture's, untouched
    assert not list(lecture.glob("*.mp4"))
    assert not (out / ".work").exists()  # the student's numbers are not left behind
    # the same submission again: nothing to do (its numbers are the same, so are the keys)
    again = clips(None, "render", "--student", str(GALLERY / "mask_triu.py"), "3", "-q", "t", "--voice", "none",
                  "--out", str(out), timeout=600)
    assert again.returncode == 0 and "unchanged" in again.stdout, again.stdout + again.stderr
    # and rendered afresh (nothing read from the cache), the same bytes: the same submission, the same clip
    first = (folder / "03_causal_mask.mp4").read_bytes()
    fresh = clips(None, "render", "--student", str(GALLERY / "mask_triu.py"), "3", "-q", "t", "--voice", "none",
                  "--force", "--no-cache", "--out", str(out), timeout=600)
    assert fresh.returncode == 0 and "1 rendered" in fresh.stdout, fresh.stdout + fresh.stderr
    assert (folder / "03_causal_mask.mp4").read_bytes() == first
