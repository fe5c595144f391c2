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


# ------------------------------------------------------------------ the shipped lecture, rendered once
@pytest.fixture(scope="session")
def shipped_deck(tmp_path_factory):
    """The shipped lecture rendered narrated at the test quality ``t`` through the real ``clips render``,
    then joined by ``clips lecture`` and paged by ``clips present``: the ``out/t`` folder.

    It is rendered once per test run, whichever xdist worker asks first, under an exclusive lock in the
    run's shared temporary folder; the other worker waits for it and reads the same files.  Tests that
    change the deck copy it first (``copy_deck``).  ``CLIPS_A11Y_DECK`` names a deck already rendered from
    this commit (its ``out/t``), to iterate on the checks.
    """
    import fcntl

    from test_cli import clips

    if os.environ.get("CLIPS_A11Y_DECK"):
        from pathlib import Path

        return Path(os.environ["CLIPS_A11Y_DECK"])
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root = shared / "shipped-deck"
    root.mkdir(exist_ok=True)
    done, failed = root / "done", root / "failed"
    with open(root / "lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        if not done.exists() and not failed.exists():
            out = root / "out"
            steps = [("render", "-q", "t", "--out", str(out), "--voice", "piper", "--jobs", "2"),
                     ("lecture", "-q", "t", "--out", str(out)), ("present", "-q", "t", "--out", str(out))]
            for args in steps:
                r = clips(None, *args, timeout=3600)
                if r.returncode != 0:
                    failed.write_text(f"clips {' '.join(args)} exited {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
                    break
            else:
                done.write_text("ok")
    if failed.exists():
        pytest.fail(failed.read_text())
    return root / "out" / "t"


@pytest.fixture
def copy_deck(shipped_deck, tmp_path):
    """A private copy of the shipped deck's ``out`` folder (for tests that render into it): its ``t``."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(shipped_deck.parent, out, symlinks=True, ignore=shutil.ignore_patterns(".lock"))
    return out / "t"
