"""Shared test set-up.

* No LaTeX, ever: any attempt to compile TeX during the tests fails them.
* Manim gets the project's patches (``scenes/render/patches.py``) as ``clips audit`` gives them.
* The test projects and the ``clips`` command the test files share: ``tests/project.py``.
* Hypothesis runs derandomized with no deadline, so CI is reproducible.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

pytest_plugins = ["resultcache"]  # a second run with nothing changed skips what passed (tests/resultcache.py)

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


@pytest.fixture(autouse=True, scope="session")
def manim_patches():
    """The changes every process that builds clips makes to Manim (scenes/render/patches.py: the copies), as
    ``clips audit`` makes them; nothing is patched by importing a module."""
    try:
        from scenes.render import patches
    except ImportError:  # mathcore-only environments
        return
    patches.install_building()


@pytest.fixture(autouse=True, scope="session")
def media_of_this_worker():
    """Widgets drawn outside an audit (``label(...)`` in a test) write Manim's SVG files into
    ``config.media_dir``, ``./media`` by default, which both xdist workers share: Manim writes
    ``<hash>_.svg`` beside the text's file and unlinks it, so two workers drawing the same word at
    once lost each other's file (FileNotFoundError in CI). Each worker gets the audit's own folder."""
    try:
        from manim import config
    except ImportError:  # mathcore-only environments
        yield
        return
    from scenes.audit.beats import _cache_dir

    saved = config.media_dir
    config.media_dir = str(_cache_dir())
    yield
    config.media_dir = saved


# ------------------------------------------------------------------ the shipped lecture, rendered once
def _once(root, steps, prepare=None) -> None:
    """Run the ``clips`` commands ``steps`` (after ``prepare()``) once per test run, whichever xdist
    worker asks first, under an exclusive lock in ``root``; the other worker waits and reads the same files."""
    import fcntl

    from project import clips

    root.mkdir(exist_ok=True)
    done, failed = root / "done", root / "failed"
    with open(root / "lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        if not done.exists() and not failed.exists():
            if prepare is not None:
                prepare()
            for args in steps:
                r = clips(None, *args, timeout=3600)
                if r.returncode != 0:
                    failed.write_text(f"clips {' '.join(args)} exited {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
                    break
            else:
                done.write_text("ok")
    if failed.exists():
        pytest.fail(failed.read_text())


def _run_folder(tmp_path_factory):
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # shared by the workers of a run


@pytest.fixture(scope="session")
def shipped_deck(tmp_path_factory):
    """The shipped lecture's clips rendered narrated at the test quality ``t`` through the real
    ``clips render``: the ``out/t`` folder, rendered once per test run (see ``_once``).  Tests that
    change the deck copy it first (``copy_deck``); the joined lecture is ``shipped_lecture``.
    ``CLIPS_A11Y_DECK`` names a deck already rendered from this commit (its ``out/t``, joined and
    paged), to iterate on the checks.
    """
    from pathlib import Path

    if os.environ.get("CLIPS_A11Y_DECK"):
        return Path(os.environ["CLIPS_A11Y_DECK"])
    root = _run_folder(tmp_path_factory) / "shipped-deck"
    _once(root, [("render", "-q", "t", "--out", str(root / "out"), "--voice", "piper", "--jobs", "2")])
    return root / "out" / "t"


@pytest.fixture(scope="session")
def shipped_lecture(shipped_deck, tmp_path_factory):
    """The shipped deck joined by ``clips lecture`` and paged by ``clips present``, in a copy of its
    ``out`` folder, once per run: the worker that asks for it joins while the other goes on with the
    deck (the language lectures copy the rendered clips, never a half-written lecture)."""
    import shutil

    if os.environ.get("CLIPS_A11Y_DECK"):
        return shipped_deck
    root = _run_folder(tmp_path_factory) / "shipped-lecture"
    out = root / "out"

    def copy():
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(shipped_deck.parent, out, symlinks=True, ignore=shutil.ignore_patterns(".lock"))

    _once(root, [("lecture", "-q", "t", "--out", str(out)), ("present", "-q", "t", "--out", str(out))], prepare=copy)
    return out / "t"


@pytest.fixture
def copy_deck(shipped_deck, tmp_path):
    """A private copy of the shipped deck's ``out`` folder (for tests that render into it): its ``t``."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(shipped_deck.parent, out, symlinks=True, ignore=shutil.ignore_patterns(".lock"))
    return out / "t"


# ------------------------------------------------------------------ how the two workers share the suite
# `make test` runs `pytest -n 2 --dist loadgroup --no-loadscope-reorder`.  Each test gets an xdist group:
# a clip's own file and its row of the clips × configs test (tests/test_clips.py) share the clip's group,
# so one worker runs the clip's shipped audit and corner audits once and both read them; every other file
# is its own group.  Groups are handed out heaviest first (longest-processing-time-first scheduling: the
# idle worker takes the next group), by the figures below, measured on this machine (seconds of one worker,
# `pytest --durations`); a group not listed counts as light and goes last.
GROUP_SECONDS = {
    # the two that need the narrated deck first, so both workers wait for it and it gets both cores
    # (then the accessibility worker joins the lecture while the other renders in German)
    "test_accessibility": 122, "languages-de": 100,
    # the presenter's browser tests wait on real-time playback (a core half idle): the other two lectures
    # come next, so their renders (two jobs) keep both cores busy meanwhile
    "test_present": 87, "languages-fr": 86, "languages-es": 85,
    # the studio's browser tests wait on its renders and on playback, as the presenter's do
    "test_studio": 84,
    "test_cli": 78, "test_faults": 45, "test_config_matrix": 35, "test_stills": 30, "test_handout": 27, "test_dask": 23,
    "test_student_render": 57, "test_reuse": 19, "test_voice": 19, "clip07": 17, "clip02": 16, "clip10": 15, "clip09": 13, "clip14": 11, "clip04": 11, "clip11": 11, "clip03": 10, "clip12": 10,
    "test_kit": 9, "clip08": 8, "clip00": 8, "test_languages": 8, "clip05": 8, "clip13": 8, "clip01": 7,
    "clip06": 5, "clip15": 5, "test_cache": 5, "test_suite": 3, "test_layout": 2, "test_layers": 1,
}


def _group(item) -> str:
    import re

    path = item.path.name
    m = re.match(r"test_clip(\d\d)_", path)
    if m:
        return f"clip{m.group(1)}"
    if path == "test_clips.py":
        clip = item.callspec.params["clip"]
        return f"clip{clip.number:02d}"
    if path == "test_languages.py" and "another_language" in item.name:  # a lecture per language: one each
        return f"languages-{item.callspec.params['lang']}"
    return path.removesuffix(".py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    groups = {}
    for item in items:
        if not any(True for _ in item.iter_markers("xdist_group")):
            g = _group(item)
            item.add_marker(pytest.mark.xdist_group(g))
        else:
            g = next(item.iter_markers("xdist_group")).args[0]
        groups.setdefault(g, []).append(item)
    order = sorted(groups, key=lambda g: -GROUP_SECONDS.get(g, 0.0))  # stable: light groups keep their order
    items[:] = [it for g in order for it in groups[g]]


# ------------------------------------------------------------------ a clip's own test file
# A clip's test file names its scene (``SCENE = CausalMask``; ``FINAL_SIZE = (854, 480)`` for a full-480p final
# frame) and reads these; each runs once per module and test process.
def _scene_of(request):
    scene = getattr(request.module, "SCENE", None)
    if scene is None:
        pytest.fail(f"{request.module.__name__} uses a clip fixture but names no SCENE")
    return scene


@pytest.fixture(scope="module")
def final(request):
    """``(scene, frame)``: the clip run to its end under the shipped config (``frames.render_final_frame``)."""
    from frames import render_final_frame

    return render_final_frame(_scene_of(request), *getattr(request.module, "FINAL_SIZE", ()))


@pytest.fixture(scope="module")
def beats(request):
    """``(scene, {beat key: frame})``: the picture at the end of every beat under the shipped config."""
    from frames import shipped_audit

    res = shipped_audit(_scene_of(request))
    return res.scene, dict(res.beat_frames)


@pytest.fixture(scope="module")
def corners(request, tmp_path_factory):
    """The clip audited over every corner of the config matrix (``frames.corner_results``)."""
    from frames import corner_results

    return corner_results(_scene_of(request), tmp_path_factory)
