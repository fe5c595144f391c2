"""Transcripts (WCAG 1.2.3/1.2.8's media alternative): per clip and for the lecture, HTML and plain text.

A transcript is the narration and the audio descriptions in the order the clip gives them, with the
chapter (clip) titles as headings.  It is built from one source, a :class:`Chapter` per clip, made
from the beats a clip recorded: the manifest's beats for a render (``{key, text, describe, start}``),
or the captions of a clip run with its animations skipped (``scenes.kit.base.Caption``), which is
what the handout prints as prose (``handout.prose_parts`` reads the same chapter).

Also the alt text of a clip's stills (:func:`alt_text`): the figure's title and subtitle, what its
panels show, the measured proof it prints, and the clip's descriptions of its picture.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog import Clip

PARTIAL = ".partial"


@dataclass(frozen=True)
class Item:
    kind: str  # "narration" or "description"
    key: str  # the beat
    text: str
    start: float | None = None  # seconds into the clip (None when not rendered)


@dataclass
class Chapter:
    clip: Clip
    items: list[Item] = field(default_factory=list)
    at: float | None = None  # where the clip starts in the lecture

    @property
    def heading(self) -> str:
        return f"{self.clip.number:02d} {self.clip.title}"

    def narration(self) -> list[tuple[str, str]]:
        """``(beat key, caption)`` in order: what the handout's prose is made of."""
        return [(i.key, i.text) for i in self.items if i.kind == "narration"]

    def descriptions(self) -> list[str]:
        return [i.text for i in self.items if i.kind == "description"]


def _get(b, name, default=None):
    return b.get(name, default) if isinstance(b, dict) else getattr(b, name, default)


def chapter(clip: Clip, beats, at: float | None = None) -> Chapter:
    """A clip's chapter from its beats (manifest dicts or ``Caption`` records): each beat's narration,
    then its description when it has one (a described clip speaks it after the beat)."""
    items = []
    for b in beats:
        start = _get(b, "start")
        items.append(Item("narration", _get(b, "key", ""), _get(b, "text", ""), start))
        d = _get(b, "describe", "") or ""
        if d:
            items.append(Item("description", _get(b, "key", ""), d, start))
    return Chapter(clip, items, at)


def _stamp(seconds: float) -> str:
    s = int(seconds + 1e-6)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# ------------------------------------------------------------------ plain text
def to_text(title: str, chapters: list[Chapter], subtitle: str = "") -> str:
    out = [title, "=" * len(title)]
    if subtitle:
        out.append(subtitle)
    out += ["", "Narration, with audio descriptions of the picture marked [Description].", ""]
    for ch in chapters:
        head = ch.heading + (f" ({_stamp(ch.at)})" if ch.at is not None else "")
        out += [head, "-" * len(head)]
        if ch.clip.section.strip() not in ("", "—", "-"):
            out.append(f"Notebook {ch.clip.section}")
        out.append("")
        for it in ch.items:
            out.append(f"[Description] {it.text}" if it.kind == "description" else it.text)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------ HTML
STYLE = """
:root { color-scheme: light; }
body { margin: 0; background: #FFFFFF; color: #1B1F24; font: 17px/1.6 'Inter', system-ui, -apple-system, 'Segoe UI', sans-serif; }
main { max-width: 46em; margin: 0 auto; padding: 2.2em 1.4em 4em; }
h1 { font-size: 1.9em; line-height: 1.2; margin: 0 0 0.2em; }
.sub { color: #4A525C; margin: 0 0 1.6em; }
h2 { font-size: 1.3em; margin: 2em 0 0.4em; padding-top: 0.6em; border-top: 1px solid #D0D7DE; }
h2 .n { color: #8A4B00; margin-right: 0.4em; font-variant-numeric: tabular-nums; }
.meta { color: #4A525C; margin: 0 0 0.8em; font-size: 0.92em; }
p { margin: 0 0 0.7em; }
p.describe { margin-left: 1.2em; padding-left: 0.8em; border-left: 3px solid #8A4B00; color: #2D333B; }
p.describe .ad { font-weight: 600; color: #6B3A00; }
figure { margin: 1.2em 0 1.4em; }
figure img { max-width: 100%; height: auto; border: 1px solid #D0D7DE; border-radius: 6px; }
figcaption { color: #4A525C; font-size: 0.92em; margin-top: 0.4em; }
a { color: #0B5CAD; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 1em; top: 1em; background: #FFFFFF; padding: 0.3em 0.6em; }
"""


def chapter_html(ch: Chapter, level: int = 2, figure_html: str = "") -> str:
    c = ch.clip
    h = f"h{level}"
    out = [f'<section aria-labelledby="clip-{c.number:02d}">',
           f'<{h} id="clip-{c.number:02d}"><span class="n">{c.number:02d}</span>{html.escape(c.title)}</{h}>']
    meta = []
    if c.section.strip() not in ("", "—", "-"):
        meta.append(f"notebook {html.escape(c.section)}")
    if ch.at is not None:
        meta.append(f"at {_stamp(ch.at)} in the lecture")
    if meta:
        out.append(f'<p class="meta">{" · ".join(meta)}</p>')
    if figure_html:
        out.append(figure_html)
    for it in ch.items:
        if it.kind == "description":
            out.append(f'<p class="describe"><span class="ad">Description:</span> {html.escape(it.text)}</p>')
        else:
            out.append(f"<p>{html.escape(it.text)}</p>")
    out.append("</section>")
    return "\n".join(out)


def page_html(title: str, body: str, subtitle: str = "", lang: str = "en") -> str:
    sub = f'<p class="sub">{html.escape(subtitle)}</p>' if subtitle else ""
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f'<a class="skip" href="#content">Skip to the transcript</a>\n'
            f'<main id="content">\n<h1>{html.escape(title)}</h1>\n{sub}\n{body}\n</main>\n</body>\n</html>\n')


def to_html(title: str, chapters: list[Chapter], subtitle: str = "") -> str:
    return page_html(title, "\n".join(chapter_html(ch) for ch in chapters), subtitle)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + PARTIAL)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_transcripts(qdir: Path, chapters: list[Chapter], heading: str) -> list[Path]:
    """``NN_slug.transcript.html/.txt`` per clip and ``lecture.transcript.html/.txt`` in ``qdir``."""
    paths = []
    for ch in chapters:
        title = f"Transcript: {ch.heading}"
        for ext, text in (("html", to_html(title, [Chapter(ch.clip, ch.items)], heading)),
                          ("txt", to_text(title, [Chapter(ch.clip, ch.items)], heading))):
            p = qdir / f"{ch.clip.name}.transcript.{ext}"
            _write(p, text)
            paths.append(p)
    title = f"{heading}: transcript"
    for ext, text in (("html", to_html(title, chapters)), ("txt", to_text(title, chapters))):
        p = qdir / f"lecture.transcript.{ext}"
        _write(p, text)
        paths.append(p)
    return paths


# ------------------------------------------------------------------ alt text
def alt_text(still, descriptions: list[str] = ()) -> str:
    """A still's alt text: its title and subtitle, its panels' titles, the proof it prints, and
    the clip's descriptions of what its picture shows."""

    fs = still
    parts = [fs.title.rstrip(".") + "."]
    if fs.subtitle:
        parts.append(fs.subtitle.rstrip(".") + ".")
    titles = [getattr(p, "title", "") for p in fs.panels.values()]
    titles = [t for t in titles if t]
    if len(titles) > 1:
        parts.append("Panels: " + "; ".join(titles) + ".")
    elif titles and titles[0] != fs.title:
        parts.append(titles[0].rstrip(".") + ".")
    for line in fs.proof:
        parts.append(line.rstrip(".") + ".")
    parts += [d.rstrip(".") + "." for d in descriptions if d]
    return " ".join(plain_math(" ".join(parts)).split())


_TEX = [(r"\\leftrightarrow", "↔"), (r"\\rightarrow|\\to\b", "→"), (r"\\leftarrow", "←"), (r"\\ldots|\\cdots|\\dots", "…"),
        (r"\\\|", "‖"), (r"\\cdot", "·"), (r"\\times", "×"), (r"\\approx", "≈"), (r"\\leq|\\le\b", "≤"),
        (r"\\geq|\\ge\b", "≥"), (r"\\neq", "≠"), (r"\\infty", "∞"), (r"\\sqrt", "√"), (r"\\sum", "Σ"),
        (r"\\theta", "θ"), (r"\\pi", "π"), (r"\\lambda", "λ"), (r"\\top", "ᵀ"), (r"\\[,;:! ]", " "), (r"\\quad", " ")]
_SUP = str.maketrans("0123456789-−+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺")


def plain_math(s: str) -> str:
    """Matplotlib mathtext (``$x_{1} \\leftrightarrow x_{4}$``) as the plain Unicode a screen reader reads."""
    import re

    s = s.replace("$", "")
    s = re.sub(r"\\(?:mathrm|mathbf|mathit|text|operatorname)\{([^{}]*)\}", r"\1", s)
    for pat, rep in _TEX:
        s = re.sub(pat, rep, s)
    s = re.sub(r"\^\{ᵀ\}|\^ᵀ", "ᵀ", s)
    s = re.sub(r"\^\{([0-9−+-]+)\}", lambda m: m.group(1).translate(_SUP), s)
    s = re.sub(r"_\{([^{}]*)\}", r"_\1", s)
    s = re.sub(r"\^\{([^{}]*)\}", r"^\1", s)
    s = re.sub(r"\\([A-Za-z]+)", r"\1", s)
    return s.replace("{", "").replace("}", "")
