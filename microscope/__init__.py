"""microscope: a notebook-05 submission's own code under the microscope (``clips check``).

Runs a student's ``.py`` file or notebook in a bubblewrap sandbox (:mod:`microscope.sandbox`) and checks
the notebook's properties on its functions against :mod:`mathcore`'s reference (:mod:`microscope.checks`).
It imports mathcore and never Manim or the scenes.

    check_submission(path) -> SubmissionReport     every verdict, with its measured figure
    student_run(path, cfg) -> StudentRun           the arrays the clips would draw from the student's numbers
"""

from .check import SubmissionReport, check_submission
from .checks import CheckInputs, Verdict
from .sandbox import Limits, SandboxUnavailable
from .student import StudentRun, student_run
from .submission import Submission, SubmissionError, read_submission

__all__ = ["CheckInputs", "Limits", "SandboxUnavailable", "Submission", "SubmissionError", "SubmissionReport",
           "StudentRun", "Verdict", "check_submission", "read_submission", "student_run"]
