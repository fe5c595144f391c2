"""Shared test set-up.

* No LaTeX, ever: any attempt to compile TeX during the tests fails them.
* Hypothesis runs derandomized with no deadline, so CI is reproducible.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


class LatexAttempted(AssertionError):
    pass


def _no_latex(*args, **kwargs):
    raise LatexAttempted(f"a LaTeX compile was attempted (args={args[:1]!r}); the project must use Typst or Pango")


@pytest.fixture(autouse=True, scope="session")
def forbid_latex():
    """Replace every entry point Manim uses to run LaTeX with one that fails the test."""
    try:
        import manim.mobject.text.tex_mobject as tex_mobject
        import manim.utils.tex_file_writing as tfw
    except ImportError:  # mathcore-only environments
        yield
        return
    saved = {(tfw, n): getattr(tfw, n) for n in ("tex_to_svg_file", "compile_tex", "convert_to_svg")}
    saved[(tex_mobject, "tex_to_svg_file")] = tex_mobject.tex_to_svg_file
    for (mod, name) in saved:
        setattr(mod, name, _no_latex)
    yield
    for (mod, name), fn in saved.items():
        setattr(mod, name, fn)
