"""``clips handout``: one vector PDF, the cover (clip 00: the lecture and its property map) and a
page per clip with its key figure, its title and notebook section, and the narration it shows.

The pages are rendered to PNG with poppler's ``pdftoppm`` and read back with ``pdftotext``
(Debian's poppler-utils, installed by ``make``'s set-up).
"""

from __future__ import annotations

import re
import shutil
import string
import subprocess

import numpy as np
import pytest

from mathcore import load_config
from scenes.catalog import CLIPS, PROPERTIES
from scenes.kit import BG
from scenes.kit.base import narration
from scenes.render import handout as ho

CFG = load_config()
POPPLER = all(shutil.which(t) for t in ("pdftoppm", "pdftotext", "pdfinfo", "pdfimages", "pdffonts"))
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils missing: run make test (it installs them)")


@pytest.fixture(scope="module")
def pages():
    """Every clip run once with animations skipped: its key still and the captions it showed."""
    return ho.collect(list(CLIPS), CFG, log=lambda *a: None)


@pytest.fixture(scope="module")
def pdfs(pages, tmp_path_factory):
    out = tmp_path_factory.mktemp("handout")
    return {th: (ho.write_handout(pages, CFG, th, ho.handout_path(out, th)), ho.handout_path(out, th))
            for th in ("light", "dark")}


def run(*cmd) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def page_text(pdf, k: int) -> str:
    """Page ``k`` (from 1) as text, whitespace collapsed."""
    return " ".join(run("pdftotext", "-f", str(k), "-l", str(k), "-layout", str(pdf), "-").split())


# ------------------------------------------------------------------ the narration is the clip's
def test_each_page_has_the_narration_its_clip_showed(pages):
    assert [p.clip for p in pages] == list(CLIPS)
    for p in pages:
        assert not p.error, f"{p.clip.name}: {p.error}"
        assert p.still is not None
        table = narration(p.clip)
        keys = [k for k, _ in p.captions]
        assert keys[0] == "title" and keys[-1].startswith("close")
        assert set(keys) - {""} <= set(table)  # a caption without a key: one the clip times itself
        for key, text in p.captions:
            if not key:
                assert text in {t for k, t in p.captions if k} or text.strip()
                continue
            template = table[key]
            assert "{" not in text and "}" not in text  # every measured value filled in
            if not [f for _, f, _, _ in string.Formatter().parse(template) if f]:
                assert text == template
            else:  # the template's fixed words are all there, around the clip's values
                fixed = [lit for lit, *_ in string.Formatter().parse(template) if lit.strip()]
                pos = 0
                for lit in fixed:
                    pos = text.index(lit, pos) + len(lit)


def test_prose_parts_split_lede_body_and_coda():
    caps = [("title", "A."), ("one", "B."), ("", "B2."), ("two", "C."), ("close", "D.")]
    assert ho.prose_parts(caps) == ("A.", "B. B2. C.", "D.")
    assert ho.prose_parts([("title", "A."), ("one", "B."), ("close_all", "D.")]) == ("A.", "B.", "D.")


# ------------------------------------------------------------------ the PDF
@needs_poppler
def test_page_count_and_every_clip_on_its_page(pdfs):
    n, pdf = pdfs["light"]
    rest = [c for c in CLIPS if c.number != 0]
    assert n == 1 + len(rest)
    info = run("pdfinfo", str(pdf))
    assert int(re.search(r"Pages:\s+(\d+)", info)[1]) == n
    assert re.search(r"Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)", info)
    assert f"Lecture {CFG.number} · {CFG.title}: handout" in info
    cover = page_text(pdf, 1)
    assert CFG.title in cover and CFG.notebook in cover
    for name, nums in PROPERTIES:  # the property map, with every clip's title
        assert name in cover
    for c in CLIPS:
        if 0 < c.number < 15:
            assert c.title in cover
    for k, c in enumerate(rest, start=2):
        text = page_text(pdf, k)
        assert f"{c.number:02d} {c.title}" in text, (k, c.name)
        if c.section.strip() not in ("", "—"):
            assert f"notebook {c.section}" in text
        assert f"{k} / {n}" in text


@needs_poppler
def test_the_pdf_is_vector_with_its_fonts_embedded(pdfs):
    for _, pdf in pdfs.values():
        images = run("pdfimages", "-list", str(pdf)).splitlines()[2:]
        assert images == [], "a raster image in the handout"
        fonts = run("pdffonts", str(pdf)).splitlines()[2:]
        assert fonts and all(" yes " in f for f in fonts)  # embedded
        # no glyph drawn by a fallback font: Inter for text, DejaVu Sans Mono for code, math fonts for math
        assert not [f for f in fonts if "LastResort" in f or re.search(r"DejaVuSans(?!Mono)", f)], fonts
        assert any("Inter" in f for f in fonts) and any("Cmr10" in f or "Cmmi10" in f for f in fonts)


@needs_poppler
def test_pages_render_on_their_paper(pdfs, tmp_path):
    from PIL import Image

    for theme, paper in (("light", (255, 255, 255)), ("dark", tuple(round(255 * c) for c in BG.to_rgb()))):
        n, pdf = pdfs[theme]
        run("pdftoppm", "-r", "30", "-png", str(pdf), str(tmp_path / theme))
        pngs = sorted(tmp_path.glob(f"{theme}-*.png"))
        assert len(pngs) == n
        for png in pngs:
            im = np.asarray(Image.open(png).convert("RGB"), dtype=int)
            h, w, _ = im.shape
            assert h / w == pytest.approx(297 / 210, abs=0.01)
            assert tuple(im[2, 2]) == pytest.approx(paper, abs=2)
            ink = np.any(np.abs(im - np.array(paper)) > 40, axis=-1).mean()
            assert 0.03 < ink < 0.6, (png.name, ink)  # a figure and prose, not blank, not a dark slab


@needs_poppler
def test_the_command_writes_the_light_handout_by_default(pages, tmp_path, monkeypatch):
    from scenes.render.cli import main

    # the command's own work (the theme, the file placed whole); the pages' content is the fixtures' tests':
    # two pages keep it to seconds instead of writing the whole handout twice more
    monkeypatch.setattr(ho, "collect", lambda clips, cfg, log=print: pages[:2])
    assert main(["handout", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "handout-light.pdf").stat().st_size > 0
    assert main(["handout", "--theme", "dark", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "handout-dark.pdf").exists()
    assert not list(tmp_path.glob("*.partial"))


# ------------------------------------------------------------------ the HTML handout
@pytest.fixture(scope="module")
def html_handout(pages, tmp_path_factory):
    dst = tmp_path_factory.mktemp("handout-html") / "handout-light.html"
    ho.write_handout_html(pages, CFG, "light", dst)
    return dst


def test_the_html_handout_has_headings_figures_with_alt_text_and_the_transcript(html_handout, pages):
    import html as H

    text = html_handout.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and '<html lang="en">' in text
    assert text.count("<h1>") == 1 and text.count("<h2 ") == len(CLIPS)
    alts = re.findall(r'<img src="data:image/png;base64,[^"]+" alt="([^"]*)"', text)
    assert len(alts) == len([p for p in pages if p.still is not None]) and all(len(a) > 20 for a in alts)
    for p in pages:  # every beat's narration, in order, and the still's title in its alt text
        pos = text.index(f'id="clip-{p.clip.number:02d}"')
        for _, cap in p.captions:
            pos = text.index(H.escape(cap), pos)
    assert not re.search(r"https?://", text.replace("http://www.w3.org", ""))  # self-contained


def test_the_html_handout_passes_axe(html_handout):
    from test_present import AXE_TAGS, CHROMIUM, CHROMIUM_ARGS

    from playwright.sync_api import sync_playwright
    from axe_playwright_python.sync_playwright import Axe

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = b.new_page()
        page.goto(html_handout.as_uri())
        res = Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
        b.close()
    assert not res.response["violations"], res.generate_report()
