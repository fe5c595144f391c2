"""``clips studio``: the live preview, driven in a real browser.

The real ``clips studio`` command runs on a copy of the project (its assets, code and caches: the real
narration files are never edited by a test) with one clip, clip 01, at the test quality ``t``, silent.
Debian's Chromium, headless and driven by Playwright as in ``tests/test_present.py``, opens the page.
The tests edit what a lecturer edits (the narration file in an editor, a caption in the page, the config,
the clip's code) and read what the page does: the clip it swaps in (``studio.readyLog``), the beat it
plays and the caption it shows there, and the one-line error it shows where it belongs while it keeps
playing the last good render.  The studio's own timeline (``/api/timeline``) says what it rendered.

Below the browser tests, the pieces each on its own: the narration edits written with tomlkit, the checks
that place an error, the first beat that changed, and the watcher's filter.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from test_present import CHROMIUM, CHROMIUM_ARGS, axe_violations

REPO = Path(__file__).resolve().parent.parent
CLIP = "01"
WAIT_MS = 120_000


# ------------------------------------------------------------------------------ the studio, running
@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("studio") / "p"
    root.mkdir()
    for d in ("mathcore", "scenes", "assets"):
        shutil.copytree(REPO / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "manim.cfg", root / "manim.cfg")
    return root


class Running:
    def __init__(self, project: Path):
        self.project = project
        env = dict(os.environ, PYTHONPATH=str(project), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scenes.render.cli", "studio", CLIP, "-q", "t", "--voice", "none", "--port", "0",
             "--no-open", "--jobs", "1"],
            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        deadline = time.time() + 120
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            m = re.search(r"open (http://\S+)", line)
            if m:
                self.url = m.group(1)
                break
        else:
            raise AssertionError(f"clips studio did not start: {''.join(self.lines)}{self.proc.stderr.read()}")
        self.err = []
        for stream, sink in ((self.proc.stdout, self.lines), (self.proc.stderr, self.err)):  # read, so it never blocks
            threading.Thread(target=lambda s=stream, k=sink: k.extend(iter(s.readline, "")), daemon=True).start()

    def timeline(self) -> list[dict]:
        with urllib.request.urlopen(self.url + "api/timeline", timeout=10) as r:
            return json.loads(r.read())

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9


@pytest.fixture(scope="module")
def studio(project):
    s = Running(project)
    yield s
    assert s.stop() == 0, "".join(s.err)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no browser at {CHROMIUM}: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-studio")), executable_path=CHROMIUM,
            args=CHROMIUM_ARGS + ["--autoplay-policy=no-user-gesture-required"], headless=True,
            viewport={"width": 1400, "height": 860})
        yield ctx
        ctx.close()


class Page:
    def __init__(self, browser, studio: Running):
        self.studio = studio
        self.page = browser.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(studio.url)
        # the clip's first render (the copy starts with nothing rendered)
        self.page.wait_for_function("() => window.studio && window.presenter && !presenter.CLIPS[0].pending "
                                    "&& presenter.state.phase === 'stopped'", timeout=WAIT_MS)

    def js(self, expr: str):
        return self.page.evaluate(expr)

    def readies(self) -> int:
        return self.js("studio.readyLog.length")

    def wait_ready(self, after: int) -> dict:
        """The next clip the page swapped in and seeked, ready to play; then the beat played to its stop."""
        self.page.wait_for_function(f"() => studio.readyLog.length > {after}", timeout=WAIT_MS)
        entry = self.js("studio.readyLog[studio.readyLog.length - 1]")
        if entry["playing"]:
            self.page.wait_for_function("() => presenter.state.phase === 'stopped' && presenter.log.length > 0 "
                                        "&& presenter.state.target === -1", timeout=WAIT_MS)
        return entry

    def caption(self) -> str:
        return " ".join(self.js("document.querySelector('#caption span').textContent").split())

    def src(self) -> str:
        return self.js("presenter.CLIPS[0].src")

    def field(self, key: str, fld: str = "caption"):
        return self.page.locator(f'.st-beat[data-key="{key}"] textarea[data-field="{fld}"]')

    def error_of(self, key: str, fld: str = "caption") -> str:
        return self.page.locator(f'.st-beat[data-key="{key}"] .st-err[data-for="{fld}"]').inner_text()

    def wait_error(self, selector: str, needle: str) -> str:
        try:
            self.page.wait_for_function(
                f"() => {{ const e = document.querySelector({json.dumps(selector)}); "
                f"return e && !e.hidden && e.textContent.includes({json.dumps(needle)}); }}", timeout=WAIT_MS)
        except Exception:
            raise AssertionError(f"{needle!r} never showed in {selector}: the page knows of "
                                 f"{self.js('JSON.stringify(studio.status && studio.status.problems)')}; "
                                 f"the studio did {self.studio.timeline()[-6:]}") from None
        return self.page.locator(selector).inner_text()

    def wait_clear(self, selector: str) -> None:
        self.page.wait_for_function(
            f"() => {{ const e = document.querySelector({json.dumps(selector)}); return !e || e.hidden || !e.textContent.trim(); }}",
            timeout=WAIT_MS)

    def plays_on(self) -> dict:
        """→ from where the page stands: it plays the next beat and stops (the last good render is playable)."""
        n = self.js("presenter.log.length")
        self.js("document.activeElement && document.activeElement.blur()")  # keys typed into a caption are text
        self.page.keyboard.press("ArrowRight")
        self.page.wait_for_function(f"() => presenter.log.length > {n} && presenter.state.phase === 'stopped'",
                                    timeout=WAIT_MS)
        return self.js("presenter.log[presenter.log.length - 1]")


@pytest.fixture(scope="module")
def page(browser, studio):
    p = Page(browser, studio)
    yield p
    assert not p.errors, p.errors
    p.page.close()


def narration(project: Path) -> Path:
    from scenes.catalog import resolve

    return project / resolve([CLIP])[0].narration_path.relative_to(REPO)


def set_caption(path: Path, key: str, text: str) -> str:
    """Replace beat ``key``'s caption line in the file, as an editor would save it; returns the old text."""
    src = path.read_text(encoding="utf-8")
    m = re.search(rf'(?m)^{key} = "(.*)"$', src)
    assert m, key
    path.write_text(src[:m.start(1)] + text + src[m.end(1):], encoding="utf-8")
    return m.group(1)


def clip_module(project: Path) -> Path:
    from scenes.catalog import resolve

    return project / resolve([CLIP])[0].path.relative_to(REPO)


# ------------------------------------------------------------------------------ in the browser
def test_the_page_is_the_presenter_with_the_clip_list_and_its_beats(page, studio, project):
    assert page.src().startswith("media/") and page.src().endswith(".mp4")
    keys = page.js("[...document.querySelectorAll('.st-beat')].map(li => li.dataset.key)")
    assert keys[:3] == ["title", "rows", "perm"]
    # the caption as written (with its braces) beside what the render showed
    assert page.field("rows").input_value() == "Here are {T} tokens, each a row of X with {d} numbers."
    shown = page.page.locator('.st-beat[data-key="rows"] .shown').inner_text()
    assert re.search(r"On screen: Here are \d tokens", shown)
    assert page.js("document.querySelector('meta[name=generator]').content") == "clips studio"
    # the studio writes its own folder; the lecture's clips are not touched
    assert (project / "out" / "studio" / "t" / "manifest.json").exists()
    assert not (project / "out" / "t").exists()
    assert not axe_violations(page.page)


def test_a_caption_saved_in_the_file_plays_from_its_beat(page, studio, project):
    before = page.readies()
    new = "P X sends row π(m) of X to row m."
    old = set_caption(narration(project), "product", new)
    saved = time.time()
    entry = page.wait_ready(before)
    assert entry["playing"] and entry["key"] == "product"  # from the first beat that changed
    stop = page.js("presenter.log[presenter.log.length - 1]")
    assert stop["key"] == "product"
    assert page.caption() == new
    assert page.js("presenter.CLIPS[0].beats.find(b => b.key === 'product').text") == new
    assert page.field("product").input_value() == new
    assert entry["at"] / 1000 > saved
    assert old != new


def test_a_caption_edited_in_the_page_is_written_into_the_file_and_plays(page, studio, project):
    path = narration(project)
    before_text = path.read_text(encoding="utf-8")
    before = page.readies()
    new = "Row m of P holds one 1, in column π(m)."
    ta = page.field("build")
    ta.fill(new)
    ta.press("Enter")
    entry = page.wait_ready(before)
    assert entry["key"] == "build"
    assert page.caption() == new
    after_text = path.read_text(encoding="utf-8")
    # the file changed in that one line: comments, blank lines and every other entry as they were
    a, b = before_text.splitlines(), after_text.splitlines()
    assert len(a) == len(b)
    changed = [(x, y) for x, y in zip(a, b) if x != y]
    assert changed == [(next(x for x in a if x.startswith("build = ")), f'build = "{new}"')]
    assert page.js("studio.edits[studio.edits.length - 1].ok") is True


def test_two_quick_saves_render_once_the_last(page, studio, project):
    path = narration(project)
    before = page.readies()
    t0 = time.time()
    set_caption(path, "product", "First of two quick saves.")
    time.sleep(0.3)
    last = "The second save is the one you see."
    set_caption(path, "product", last)
    entry = page.wait_ready(before)
    assert page.caption() == last and entry["key"] == "product"
    time.sleep(1.5)  # nothing else follows
    assert page.readies() == before + 1
    done = [e for e in studio.timeline() if e["t"] >= t0 and e["what"] in ("ready", "failed")]
    assert [e["what"] for e in done] == ["ready"], done


@pytest.fixture
def restored(project, request):
    """Files a test breaks are put back as they were when it fails half-way (the next test starts from good
    input).  A test that passes leaves its files as its last step made them: putting them back then would be
    one more edit, rendered while the next test runs."""
    saved = {}

    def keep(path: Path) -> str:
        saved.setdefault(path, path.read_text(encoding="utf-8"))
        return saved[path]

    failed = request.session.testsfailed
    yield keep
    if request.session.testsfailed == failed:
        return
    for path, text in saved.items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def test_invalid_toml_is_shown_at_its_beat_and_the_last_render_plays_on(page, studio, project, restored):
    path = narration(project)
    good = restored(path)
    src, rev = page.src(), page.js("presenter.CLIPS[0].rev")
    path.write_text(good.replace('perm = "A permutation', 'perm = "A permutation\n', 1), encoding="utf-8")
    msg = page.wait_error('.st-beat[data-key="perm"] .st-err[data-for="caption"]', "not valid TOML")
    assert path.name in msg and "line" in msg and "\n" not in msg.strip()
    assert page.field("perm").get_attribute("aria-invalid") == "true"
    page.js("presenter.show(0, 0)")
    stop = page.plays_on()
    assert stop["key"] == "title" and page.src() == src
    path.write_text(good, encoding="utf-8")
    page.wait_clear('.st-beat[data-key="perm"] .st-err[data-for="caption"]')
    assert page.field("perm").get_attribute("aria-invalid") == "false"
    time.sleep(1.0)
    assert page.js("presenter.CLIPS[0].rev") == rev  # the file as it was: nothing to render again


def test_a_brace_naming_no_value_is_shown_at_its_beat_until_fixed(page, studio, project, restored):
    path = narration(project)
    restored(path)
    src = page.src()
    old = set_caption(path, "product", "P X sends row {nowhere} of X to row m.")
    msg = page.wait_error('.st-beat[data-key="product"] .st-err[data-for="caption"]', "{nowhere}")
    assert "this clip provides" in msg and "T" in msg
    assert page.src() == src
    page.js("presenter.show(0, 0)")
    assert page.plays_on()["key"] == "title"
    before = page.readies()
    set_caption(path, "product", "Fixed: P X sends row π(m) of X to row m.")
    entry = page.wait_ready(before)
    assert entry["key"] == "product" and page.caption() == "Fixed: P X sends row π(m) of X to row m."
    page.wait_clear('.st-beat[data-key="product"] .st-err[data-for="caption"]')
    assert old


def test_a_config_value_out_of_range_is_shown_in_the_banner_until_fixed(page, studio, project, restored):
    cfg = project / "assets" / "lecture.toml"
    good = restored(cfg)
    assert re.search(r"(?m)^T = \d+", good)
    src = page.src()
    cfg.write_text(re.sub(r"(?m)^T = \d+", "T = 9", good, count=1), encoding="utf-8")
    msg = page.wait_error("#st-banner", "sizes.T")
    assert "9" in msg and "lecture.toml" in msg
    assert not axe_violations(page.page)  # the page with an error shown
    page.js("presenter.show(0, 0)")
    assert page.plays_on()["key"] == "title" and page.src() == src
    cfg.write_text(good, encoding="utf-8")
    page.wait_clear("#st-banner")


def test_a_clip_module_that_does_not_compile_is_shown_on_the_clip_until_fixed(page, studio, project, restored):
    mod = clip_module(project)
    good = restored(mod)
    src, rev = page.src(), page.js("presenter.CLIPS[0].rev")
    mod.write_text(good + "\ndef broken(:\n    pass\n", encoding="utf-8")
    msg = page.wait_error("#st-clip-problem", "SyntaxError")
    assert re.search(r"scenes/\S+\.py:\d+: SyntaxError", msg)
    assert page.js("document.querySelector('.st-list .s').textContent") == "needs a fix"
    page.js("presenter.show(0, 0)")
    assert page.plays_on()["key"] == "title" and page.src() == src
    mod.write_text(good, encoding="utf-8")
    page.wait_clear("#st-clip-problem")
    # the warm workers start again with the code as it is now, and the clip has nothing to render
    deadline = time.time() + 60
    while time.time() < deadline and not any(e["what"] == "restarted" for e in studio.timeline()):
        time.sleep(0.3)
    assert any(e["what"] == "restarted" for e in studio.timeline())
    assert page.js("presenter.CLIPS[0].rev") == rev
    # and an edit after it renders with the new workers
    before = page.readies()
    set_caption(narration(project), "product", "After the code was fixed.")
    assert page.wait_ready(before)["key"] == "product" and page.caption() == "After the code was fixed."


def test_nothing_half_written_is_left_in_out(studio, project):
    out = project / "out"
    assert not [p for p in out.rglob("*") if ".partial" in p.name and ".work" not in p.parts]
    m = json.loads((out / "studio" / "t" / "manifest.json").read_text())
    files = m["clips"]["01_permutation_matrix"]["files"]
    for f in files.values():
        assert (out / "studio" / "t" / f["name"]).stat().st_size == f["bytes"]


# ------------------------------------------------------------------------------ the pieces
NARRATION = '''# Narration for a test clip.
# {braces} are values the clip measured.

[alpha]
title = "Alpha opens."   # the title card
one = "Alpha, the one beat."

close = "Alpha closes."

[alpha.say]
one = "Alpha, the only beat."

[beta]
title = "Beta opens."
'''


def test_an_edit_keeps_every_other_line_comment_and_blank_line(tmp_path):
    from scenes.render.studio import edit_narration

    p = tmp_path / "n.toml"
    p.write_text(NARRATION, encoding="utf-8")
    edit_narration(p, "alpha", "title", "caption", "Alpha, \"quoted\", opens.", expect="Alpha opens.")
    text = p.read_text(encoding="utf-8")
    assert text == NARRATION.replace('title = "Alpha opens."', 'title = "Alpha, \\"quoted\\", opens."', 1)
    # a description where the section had none: a [alpha.describe] table; an empty spoken variant: removed
    edit_narration(p, "alpha", "one", "describe", "A grid fades in.")
    edit_narration(p, "alpha", "one", "say", "")
    import tomllib

    data = tomllib.loads(p.read_text(encoding="utf-8"))
    assert data["alpha"]["describe"] == {"one": "A grid fades in."} and data["alpha"]["say"] == {}
    assert data["beta"] == {"title": "Beta opens."}
    assert p.read_text(encoding="utf-8").startswith("# Narration for a test clip.\n# {braces}")
    assert '"Alpha opens."   # the title card' not in p.read_text() and "# the title card" in p.read_text()


@pytest.mark.parametrize("args, needle", [
    (("alpha", "nope", "caption", "x"), "has no caption 'nope'"),
    (("alpha", "one", "caption", "  "), "cannot be empty"),
    (("gamma", "one", "caption", "x"), "section [gamma] is missing"),
    (("alpha", "one", "colour", "x"), "one of caption, describe, say"),
])
def test_an_edit_that_cannot_be_made_is_one_line_and_writes_nothing(tmp_path, args, needle):
    from scenes.render.studio import edit_narration

    p = tmp_path / "n.toml"
    p.write_text(NARRATION, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(needle)):
        edit_narration(p, *args)
    assert p.read_text(encoding="utf-8") == NARRATION


def test_an_edit_of_text_changed_in_the_file_meanwhile_is_refused(tmp_path):
    from scenes.render.studio import edit_narration

    p = tmp_path / "n.toml"
    p.write_text(NARRATION, encoding="utf-8")
    with pytest.raises(ValueError, match="changed in the file meanwhile"):
        edit_narration(p, "alpha", "one", "caption", "Mine.", expect="What the page saw before the file changed.")
    assert p.read_text(encoding="utf-8") == NARRATION


def _clip(slug: str, number: int = 1):
    from scenes.catalog import Clip

    return Clip(number, slug.title(), "tclip", "§1", slug.title(), slug)


def test_a_toml_error_is_placed_at_the_entry_it_is_in(tmp_path, monkeypatch):
    from scenes.kit import base
    from scenes.render import studio

    monkeypatch.setattr(base, "NARRATION_DIR", tmp_path)
    a, b = _clip("alpha"), _clip("beta", 2)
    alpha, beta = NARRATION.split("[beta]")
    p, q = tmp_path / f"{a.name}.toml", tmp_path / f"{b.name}.toml"
    assert base.narration_file(a) == p
    q.write_text("[beta]" + beta, encoding="utf-8")
    p.write_text(alpha.replace('one = "Alpha, the one beat."', 'one = "Alpha, the one beat.\n'), encoding="utf-8")
    data, probs = studio.narration_problems(p, [a, b])
    assert data is None
    assert [(x.clip, x.scope, x.beat, x.field) for x in probs] == [(a.name, "beat", "one", "caption")]
    assert all("not valid TOML" in x.message and "line 6" in x.message for x in probs)
    # on a line before any entry of the clip's: the clip's
    p.write_text(alpha.replace("[alpha]", "[alpha\n"), encoding="utf-8")
    _, probs = studio.narration_problems(p, [a])
    assert [(x.scope, x.clip) for x in probs] == [("clip", a.name)]
    # in the say table: that field
    p.write_text(alpha.replace('one = "Alpha, the only beat."', 'one = "Alpha, the only beat'), encoding="utf-8")
    _, probs = studio.narration_problems(p, [a])
    assert [(x.beat, x.field) for x in probs] == [("one", "say")]
    # a brace that opens no name, and text that is not text
    p.write_text(alpha.replace("Alpha closes.", "Alpha closes {."), encoding="utf-8")
    q.write_text("[beta]\ntitle = 3\n", encoding="utf-8")
    _, probs = studio.narration_problems(p, [a, b])
    _, more = studio.narration_problems(q, [a, b])
    assert [(x.clip, x.beat, x.field) for x in probs + more] == [(a.name, "close", "caption"), (b.name, "title", "caption")]
    assert "{{" in probs[0].message and "must be text" in more[0].message
    # a section missing from the clip's file
    q.write_text("[gamma]\ntitle = \"x\"\n", encoding="utf-8")
    _, probs = studio.narration_problems(q, [b])
    assert [(x.scope, x.clip) for x in probs] == [("clip", b.name)] and "[beta] is missing" in probs[0].message


def test_a_failed_render_is_placed_where_its_log_says(tmp_path):
    from scenes.render.studio import failure_problem

    c = _clip("alpha")
    log = ('Traceback (most recent call last):\n  File "x.py", line 1\n'
           'scenes.kit.base.NarrationError: /p/assets/narration/01_alpha.toml: [alpha.describe].one names {nope}; '
           'this clip provides T\n')
    p = failure_problem(log, c, {})
    assert (p.scope, p.beat, p.field) == ("beat", "one", "describe") and p.message.endswith("provides T")
    p = failure_problem("Traceback\nKeyError: 'zz'\n", c, {"say": {"one": "say {zz} now"}})
    assert (p.scope, p.beat, p.field) == ("beat", "one", "say") and "{zz}" in p.message
    from scenes.catalog import REPO_DIR

    p = failure_problem(f'Traceback\n  File "{REPO_DIR}/scenes/kit/tclip.py", line 12, in body\nNameError: name \'q\' is not defined\n',
                        c, {})
    assert (p.scope, p.message) == ("clip", "scenes/kit/tclip.py:12: NameError: name 'q' is not defined")
    # a clip's own line before the kit's that raised
    mod = c.path.relative_to(REPO_DIR)
    p = failure_problem(f'Traceback\n  File "{REPO_DIR}/{mod}", line 30, in body\n'
                        f'  File "{REPO_DIR}/scenes/kit/widgets.py", line 99, in make\nValueError: bad size\n', c, {})
    assert p.message == f"{mod}:30: ValueError: bad size"


def test_a_syntax_error_is_the_clips_own_or_everyones(tmp_path):
    from scenes.catalog import CLIPS
    from scenes.render.studio import code_problems

    bad = tmp_path / "m.py"
    bad.write_text("def f(:\n    pass\n")
    (p,) = code_problems(bad, list(CLIPS))
    assert p.scope == "code" and p.line == 1 and "SyntaxError" in p.message
    bad.write_text("def f():\n    pass\n")
    assert code_problems(bad, list(CLIPS)) == []


def test_a_syntax_error_in_a_clips_module_or_the_widgets_beside_it_is_that_clips(tmp_path, monkeypatch):
    """One module a clip (``scenes/clips/cNN_slug.py``) and the widgets only it draws (``cNN_widgets.py``): a
    syntax error in either is shown on that clip alone, and an edit of either renders that clip."""
    from scenes import catalog
    from scenes.render.studio import code_problems

    monkeypatch.setattr(catalog, "SCENES_DIR", tmp_path)
    (tmp_path / "clips").mkdir()
    a, b = _clip("alpha"), _clip("beta", 2)
    for c in (a, b):
        c.path.write_text("X = 1\n")
    widgets = tmp_path / "clips" / "c02_widgets.py"
    widgets.write_text("X = 2\n\ndef f(:\n    pass\n")
    assert b.sources == (b.path, widgets) and a.sources == (a.path,)
    (p,) = code_problems(widgets, [a, b])
    assert (p.scope, p.clip, p.line) == ("clip", b.name, 3) and "SyntaxError" in p.message
    a.path.write_text("def g(:\n    pass\n")
    (p,) = code_problems(a.path, [a, b])
    assert (p.scope, p.clip, p.line) == ("clip", a.name, 1)


def test_the_first_changed_beat_is_the_first_whose_words_time_or_picture_differ():
    from scenes.render.studio import first_changed_beat

    def beats(*texts, shift=0.0):
        out, t = [], 0.0
        for i, x in enumerate(texts):
            d = 2.0 + (shift if i == 1 else 0.0)
            out.append({"key": f"b{i}", "text": x, "describe": "", "start": t, "duration": d})
            t += d
        return {"beats": out}

    old = beats("a", "b", "c", "d")
    assert first_changed_beat(old, beats("a", "b", "c", "d"), None, Path("/nonexistent"), set()) == 0  # nothing tells: from the start
    assert first_changed_beat(old, beats("a", "B", "c", "d"), None, Path("/nonexistent"), set()) == 1
    assert first_changed_beat(old, beats("a", "b", "c", "d", shift=0.5), None, Path("/nonexistent"), set()) == 1
    assert first_changed_beat(old, beats("a", "b", "c", "d"), None, Path("/nonexistent"), {"b2"}) == 2
    assert first_changed_beat(None, beats("a", "b"), None, Path("/nonexistent"), set()) == 0


def test_the_watcher_follows_what_clips_are_made_of_and_nothing_else():
    from mathcore.config import ASSETS_DIR
    from scenes.catalog import REPO_DIR, SCENES_DIR
    from scenes.render.studio import watched

    yes = [ASSETS_DIR / "lecture.toml", ASSETS_DIR / "narration" / "03_causal_mask.toml", ASSETS_DIR / "voice" / "x" / "build.wav",
           SCENES_DIR / "kit" / "theme.py", SCENES_DIR / "clips" / "c03_causal_mask.py", REPO_DIR / "mathcore" / "attention.py", ASSETS_DIR / "fonts" / "Inter-Regular.otf"]
    no = [ASSETS_DIR / "narration" / ".03_causal_mask.toml.swp", ASSETS_DIR / "narration" / "notes.txt",
          SCENES_DIR / "kit" / "__pycache__" / "theme.cpython-311.pyc", ASSETS_DIR / "voice" / "x" / "notes.txt",
          REPO_DIR / ".render-cache" / "segments" / "x.mp4", REPO_DIR / "out" / "studio" / "l" / "manifest.json"]
    assert [watched(p) for p in yes] == [True] * len(yes)
    assert [watched(p) for p in no] == [False] * len(no)
