"""``clips handout``: the lecture as one printable PDF (vector), ``<out>/handout-<theme>.pdf``.

Page 1, the cover: the lecture's number, title and notebook, and the property map (clip 00's
key still: the notebook's four properties, each with its clips, in the family colours) with the
title clip's narration.  Then one page per clip: its number in its family's colour, its title and
notebook section, its key figure (the first still ``scenes/figures`` registers for it, drawn 1:1),
and its narration as prose, with a ruled space for notes.

The narration is what the clip shows: the captions it produced, with their measured values filled
in, as its audit recorded them (``scenes.render.auditcache``: kept by the last render or audit of the
clip under the same code and config, else the clip is run with its animations skipped, a few seconds
a clip); nothing is re-implemented.
Light theme (white paper) by default; ``--theme dark`` for reading on a screen.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..catalog import PROPERTIES, Clip, resolve

PAGE = (8.27, 11.69)  # A4 portrait, inches
SIDE = 0.62  # left and right margins, inches
TOP = 0.55
BOTTOM = 0.5
PROSE = 10.5  # body text size, points
LEAD = 1.42  # line height, in font sizes


@dataclass
class ClipPage:
    """What one page prints: the clip, its key still, its captions (beat key, text)."""

    clip: Clip
    still: object | None
    captions: list[tuple[str, str]]
    error: str = ""
    chapter: object = None  # the clip's transcript chapter (scenes.render.transcript): narration and descriptions


def handout_path(out: Path, theme: str) -> Path:
    return Path(out) / f"handout-{theme}.pdf"


def html_path(out: Path, theme: str) -> Path:
    return Path(out) / f"handout-{theme}.html"


def _figure_html(still, descriptions: list[str], theme: str) -> str:
    """A still as an inline PNG with its alt text and its title as the caption."""
    import base64
    import html
    import io

    import matplotlib as mpl

    from scenes.stills.draw import figure, theme as get_theme
    from .transcript import alt_text

    th = get_theme(theme)
    buf = io.BytesIO()
    with mpl.rc_context(fname=str(th.style)):
        fig = figure(still, th)
        fig.savefig(buf, format="png", dpi=110, facecolor=th.bg, metadata={"Software": None})
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    fs = still
    alt = alt_text(still, descriptions)
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
            f"<figcaption>{html.escape(fs.title)}</figcaption></figure>")


def write_handout_html(pages: list[ClipPage], cfg, theme: str, dst: Path) -> None:
    """The handout as one HTML page beside the PDF: the lecture's title, then per clip a heading, its key
    figure with alt text, and its transcript (narration and audio descriptions); self-contained."""
    from .transcript import Chapter, chapter_html, page_html

    body = []
    for p in pages:
        ch = p.chapter if p.chapter is not None else Chapter(p.clip, [])
        fig = _figure_html(p.still, ch.descriptions(), theme) if p.still is not None else ""
        body.append(chapter_html(ch, 2, fig))
    text = page_html(f"Lecture {cfg.number} · {cfg.title}: handout", "\n".join(body), f"notebook {cfg.notebook}")
    tmp = dst.with_name(dst.name + ".partial")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, dst)


def collect(clips: list[Clip], cfg, log=print) -> list[ClipPage]:
    """Each clip's key still and the captions it shows (as its render or audit kept them, else the clip run
    with animations skipped)."""
    from ..figures import stills_for
    from .auditcache import audit
    from .stills import scene_class
    from .transcript import chapter

    pages = []
    for c in clips:
        t0 = time.perf_counter()
        cls = scene_class(c)
        page = ClipPage(c, None, [])
        try:
            page.still = stills_for(cls, cfg)[0]
        except Exception as e:  # reported on the page and in the exit status
            page.error = f"no still: {type(e).__name__}: {e}"
        try:
            res = audit(c, cfg, cls)  # what the clip showed, kept by its render (or audit), else run now
            # one source for the prose and the transcript: the chapter made of the beats the clip recorded
            page.chapter = chapter(c, res.beats)
            page.captions = page.chapter.narration()
        except Exception as e:
            page.error = (page.error + "; " if page.error else "") + f"the clip did not run: {type(e).__name__}: {e}"
        log(f"  {'✓' if not page.error else '✗'} {c.name}  {time.perf_counter() - t0:.1f} s"
            + (f"  ({page.error})" if page.error else ""))
        pages.append(page)
    return pages


# ---------------------------------------------------------------------- drawing a page
def _text(fig, x: float, y: float, s: str, size: float, color: str, weight: str = "normal", ha: str = "left",
          va: str = "baseline"):
    """Text at ``(x, y)`` inches from the page's bottom-left corner."""
    return fig.text(x, y, s, transform=fig.dpi_scale_trans, fontsize=size, color=color, weight=weight, ha=ha, va=va)


def paragraph(fig, s: str, x: float, y: float, width: float, size: float, color: str, weight: str = "normal") -> float:
    """Write ``s`` wrapped to ``width`` inches with its first baseline at ``y``; return the y below it."""
    from scenes.stills.text import mathify, wrap

    for line in wrap(mathify(s), width * 72, size, weight):
        _text(fig, x, y, line, size, color, weight)
        y -= size * LEAD / 72
    return y


def prose_parts(captions: list[tuple[str, str]]) -> tuple[str, str, str]:
    """The narration as lede (the title beat), body (the beats) and coda (the closing beat)."""
    caps = list(captions)
    lede = caps.pop(0)[1] if caps and caps[0][0] == "title" else ""
    coda = caps.pop()[1] if caps and caps[-1][0].startswith("close") else ""  # close, or a worded variant
    return lede, " ".join(t for _, t in caps), coda


def _header(fig, th, c: Clip, cfg, page_no: int, n_pages: int) -> float:
    """The clip's number chip, title and section; the running foot.  Returns the y below the rule."""
    from matplotlib.patches import FancyBboxPatch

    from scenes.stills.text import text_width

    W, H = PAGE
    col = th.color(f"clip:{c.number}")
    y = H - TOP - 0.3
    num = f"{c.number:02d}"
    w = text_width(num, 15, "bold") / 72 + 0.16
    for fc, ec, a in ((col, "none", th.wash * 2.2), ("none", col, 1.0)):
        fig.add_artist(FancyBboxPatch((SIDE, y - 0.09), w, 0.34, boxstyle="round,pad=0,rounding_size=0.05",
                                      transform=fig.dpi_scale_trans, facecolor=fc, edgecolor=ec, alpha=a, linewidth=1.4))
    _text(fig, SIDE + 0.08, y, num, 15, col, "bold")
    _text(fig, SIDE + w + 0.16, y, c.title, 18, th.fg, "bold")
    has_section = c.section.strip() not in ("", "—", "-")
    if has_section:
        _text(fig, W - SIDE, y, f"notebook {c.section}", 10.5, th.dim, ha="right")
    y -= 0.24
    fig.add_artist(_rule(fig, SIDE, W - SIDE, y, col, 1.2))
    _footer(fig, th, cfg, page_no, n_pages)
    return y - 0.12


def _footer(fig, th, cfg, page_no: int, n_pages: int) -> None:
    W, _ = PAGE
    _text(fig, SIDE, BOTTOM - 0.12, f"Lecture {cfg.number} · {cfg.title} · notebook {cfg.notebook}", 8.5, th.dim)
    _text(fig, W - SIDE, BOTTOM - 0.12, f"{page_no} / {n_pages}", 8.5, th.dim, ha="right")


def _rule(fig, x0: float, x1: float, y: float, color: str, width: float = 0.8):
    from matplotlib.lines import Line2D

    return Line2D([x0, x1], [y, y], transform=fig.dpi_scale_trans, color=color, linewidth=width)


def _place_still(fig, still, top: float, th) -> float:
    """Draw ``still`` 1:1 (or scaled to the text width) with its top at ``top`` inches; return its bottom."""
    from scenes.stills.draw import draw

    W, H = PAGE
    fs = still
    w, h = fs.size
    k = min(1.0, (W - 2 * SIDE) / w)
    w, h = w * k, h * k
    x0 = (W - w) / 2
    # a subfigure's place comes from its grid's ratios (it ignores the grid's left/right/top/bottom)
    gs = fig.add_gridspec(3, 3, width_ratios=(x0, w, W - x0 - w), height_ratios=(H - top, h, top - h),
                          wspace=0, hspace=0)
    sub = fig.add_subfigure(gs[1, 1])
    draw(fs, sub, th)
    return top - h


def _notes(fig, th, top: float) -> None:
    """Ruled lines for notes from ``top`` down to the footer."""
    W, _ = PAGE
    if top - BOTTOM < 0.9:
        return
    _text(fig, SIDE, top - 0.05, "Notes", 9, th.dim, "bold")
    y = top - 0.38
    while y > BOTTOM + 0.2:
        fig.add_artist(_rule(fig, SIDE, W - SIDE, y, th.faint, 0.6))
        y -= 0.32


def _prose(fig, th, page: ClipPage, top: float) -> float:
    W, _ = PAGE
    width = W - 2 * SIDE
    y = top - 0.3
    if page.error:
        y = paragraph(fig, f"(This page is incomplete: {page.error}.)", SIDE, y, width, 9.5, th.bad) - 0.06
    lede, body, coda = prose_parts(page.captions)
    if lede:
        y = paragraph(fig, lede, SIDE, y, width, 12, th.fg, "semibold") - 0.08
    if body:
        y = paragraph(fig, body, SIDE, y, width, PROSE, th.fg) - 0.06
    if coda:
        y = paragraph(fig, coda, SIDE, y, width, PROSE, th.dim)
    return y


def clip_page(page: ClipPage, cfg, th, page_no: int, n_pages: int):
    """One A4 page for one clip: header, key figure, narration as prose, notes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=PAGE, layout="constrained")
    fig.get_layout_engine().set(w_pad=0, h_pad=0, wspace=0, hspace=0)
    fig.set_facecolor(th.bg)
    y = _header(fig, th, page.clip, cfg, page_no, n_pages)
    if page.still is not None:
        y = _place_still(fig, page.still, y - 0.1, th)
    y = _prose(fig, th, page, y)
    _notes(fig, th, y - 0.2)
    return fig


def cover_page(page: ClipPage | None, cfg, th, n_pages: int):
    """The cover: the lecture's number, title and notebook; the property map (clip 00's key
    still, or the catalog's properties as a list) and the title clip's narration."""
    from matplotlib.figure import Figure

    W, H = PAGE
    fig = Figure(figsize=PAGE, layout="constrained")
    fig.get_layout_engine().set(w_pad=0, h_pad=0, wspace=0, hspace=0)
    fig.set_facecolor(th.bg)
    y = H - TOP - 0.55
    _text(fig, SIDE, y, f"Lecture {cfg.number}", 14, th.dim, "semibold")
    y -= 0.55
    y = paragraph(fig, cfg.title, SIDE, y, W - 2 * SIDE, 30, th.fg, "bold") + 0.2
    y = paragraph(fig, f"notebook {cfg.notebook} · handout", SIDE, y - 0.12, W - 2 * SIDE, 13, th.dim) - 0.05
    fig.add_artist(_rule(fig, SIDE, W - SIDE, y, th.fg, 1.2))
    y -= 0.2
    if page is not None and page.still is not None:  # the map, under the cover's own title
        from dataclasses import replace


        still = replace(page.still, title="The four properties, and the clips that show them", subtitle="")
        y = _place_still(fig, still, y, th)
    else:
        for k, (name, nums) in enumerate(PROPERTIES):
            y -= 0.34
            _text(fig, SIDE, y, name, 13, th.families[k], "bold")
            _text(fig, SIDE + 3.3, y, "  ".join(f"{n:02d}" for n in nums), 13, th.families[k])
    if page is not None:
        y = _prose(fig, th, page, y)
    _footer(fig, th, cfg, 1, n_pages)
    return fig


def write_handout(pages: list[ClipPage], cfg, theme: str, dst: Path) -> int:
    """Write the handout PDF atomically; return its page count."""
    import matplotlib as mpl
    from matplotlib.backends.backend_pdf import PdfPages

    from scenes.stills.draw import theme as get_theme
    from scenes.stills.text import _register_fonts

    th = get_theme(theme)
    _register_fonts()
    cover = pages[0] if pages and pages[0].clip.number == 0 else None
    rest = pages[1:] if cover is not None else pages
    n_pages = 1 + len(rest)
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".partial")
    meta = {"Title": f"Lecture {cfg.number} · {cfg.title}: handout", "Subject": f"notebook {cfg.notebook}",
            "Creator": "Attention Clips (clips handout)", "Producer": None, "CreationDate": None}
    quiet = logging.getLogger("fontTools")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # subsetting Inter logs harmless timestamp notes
    try:
        with mpl.rc_context(fname=str(th.style)), PdfPages(tmp, metadata=meta) as pdf:
            fig = cover_page(cover, cfg, th, n_pages)
            pdf.savefig(fig, facecolor=th.bg)
            for k, p in enumerate(rest, start=2):
                pdf.savefig(clip_page(p, cfg, th, k, n_pages), facecolor=th.bg)
        os.replace(tmp, dst)
    finally:
        quiet.setLevel(level)
        if tmp.exists():
            tmp.unlink()
    return n_pages


def cmd_handout(args) -> int:
    from mathcore.config import load_config

    from .pipeline import OutputLock

    cfg = load_config()
    theme = getattr(args, "theme", None) or "light"
    clips = resolve([])
    out = Path(args.out).resolve()
    t0 = time.perf_counter()
    print(f"handout: the captions of {len(clips)} clip(s), as their renders or audits kept them "
          "(a clip neither kept is run with its animations skipped)")
    pages = collect(clips, cfg)
    dst = handout_path(out, theme)
    with OutputLock(out):
        n = write_handout(pages, cfg, theme, dst)
        write_handout_html(pages, cfg, theme, html_path(out, theme))
    bad = [p for p in pages if p.error]
    print(f"handout: {n} page(s), {len(clips)} clip(s), {theme} theme, {time.perf_counter() - t0:.1f} s -> {dst} "
          f"(and {html_path(out, theme).name})")
    for p in bad:
        print(f"clips: {p.clip.name}: {p.error}", file=sys.stderr)
    return 1 if bad else 0
