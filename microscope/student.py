"""A student's numbers for the clips (``clips render --student``, to be built on this).

:func:`student_run` runs a submission's functions in the sandbox on the lecture's inputs, exactly as
``clips check`` does, and returns the arrays the clips would draw from them, with the verdict and the
figure of each property and, where a function raised, hung or is missing, the one-line message a clip
shows as its error card.  Everything is measured against mathcore here, in the parent process.

=====================  ==================================================================================
``run.P``, ``run.PX``  clip 01: the student's P for the lecture's π, and ``P·X`` (as mathcore multiplies)
``run.perms``,         clip 02: the ``n_trials`` random permutations (mathcore's ``random_permutations``)
``run.defects``        and ``‖Attn(PX) − P·Attn(X)‖_F`` of the student's attention for each, in order
``run.A``,             clips 03/04: the student's causal weights ``(T, T)``, the future cells it leaked
``run.future``,        (bool, above the diagonal and not exactly 0: the cells to outline in red) and its
``run.row_sums``       row sums
``run.prefix``,        clip 04: ``max |Y_full[:t] − Y(X[:t])|`` for ``t = 1..T``, and every pass's outputs
``run.passes``         ``(T, T, d)``: ``passes[t − 1, :t]`` is ``Y(X[:t])`` (NaN below row ``t − 1``)
``run.pe``,            clip 08: the student's sinusoidal table, mathcore's, and ``|difference|`` (the cells
``run.pe_reference``,  to mark) at the first of ``inputs.sinusoidal_sizes``
``run.pe_diff``
``run.angles``, …      clip 10: the same for ``rope_angle_grid`` at the first of ``inputs.rope_sizes``
=====================  ==================================================================================

An array is None where the student's function did not give it; ``run.verdicts[key]`` then says why
(``status`` error/missing/fail and ``detail``, e.g. ``attention timed out after 10 s``).  For a clip that
needs other inputs (clip 06's swap, clip 07's sentences), :class:`microscope.run.StudentCode` calls any of
the submission's functions on any arrays, in the same sandbox, and never raises for what they do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .check import SubmissionReport, check_submission
from .checks import CheckInputs, Verdict
from .sandbox import Limits
from .submission import Submission


@dataclass(frozen=True)
class StudentRun:
    report: SubmissionReport
    verdicts: dict  # key -> Verdict

    def _get(self, key: str, name: str) -> np.ndarray | None:
        v: Verdict | None = self.verdicts.get(key)
        return None if v is None else v.arrays.get(name)

    P = property(lambda self: self._get("permutation_matrix", "P"))
    PX = property(lambda self: self._get("permutation_matrix", "PX"))
    perms = property(lambda self: self._get("equivariance", "perms"))
    defects = property(lambda self: self._get("equivariance", "defects"))
    A = property(lambda self: self._get("causal", "A"))
    future = property(lambda self: self._get("causal", "future"))
    row_sums = property(lambda self: self._get("causal", "row_sums"))
    prefix = property(lambda self: self._get("prefix", "defects"))
    passes = property(lambda self: self._get("prefix", "passes"))
    pe = property(lambda self: self._get("my_sinusoidal_position", "student"))
    pe_reference = property(lambda self: self._get("my_sinusoidal_position", "reference"))
    pe_diff = property(lambda self: self._get("my_sinusoidal_position", "diff"))
    angles = property(lambda self: self._get("rope_angle_grid", "student"))
    angles_reference = property(lambda self: self._get("rope_angle_grid", "reference"))
    angles_diff = property(lambda self: self._get("rope_angle_grid", "diff"))

    def message(self, key: str) -> str:
        """What a clip says when the property did not pass: the figure and why, in one line."""
        v = self.verdicts[key]
        return "; ".join(x for x in (v.figure, v.detail) if x)


def student_run(submission: Submission | str, cfg=None, inputs: CheckInputs | None = None,
                limits: Limits = Limits(), sandbox: bool = True) -> StudentRun:
    """Run ``submission`` on the lecture's inputs (``cfg``: a :class:`mathcore.LectureConfig`, default the
    shipped config; ``inputs`` overrides, e.g. ``CheckInputs.from_config(cfg)`` with the clip's sizes)."""
    if inputs is None:
        from mathcore.config import load_config

        inputs = CheckInputs.from_config(cfg or load_config())
    rep = check_submission(submission, inputs, limits, sandbox)
    return StudentRun(rep, {v.key: v for v in rep.verdicts})
