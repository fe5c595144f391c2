"""Captions to the broadcast standard: a beat's caption as subtitle events.

A beat has one caption in the narration file (one short sentence, sometimes two).  On screen it
becomes one or more *events*, each of at most ``max_lines`` lines of at most ``max_line``
characters (Netflix's English template: 2 lines of 42; DCMP for education: 32), each shown
between ``min_event`` (5/6 s) and ``max_event`` (7 s), at most ``max_cps`` characters a second
(17), at least ``gap_frames`` (2) frames after the event before it.

* :func:`split` cuts the caption at phrase boundaries: a sentence end first, then ``; :``, a
  comma or a dash, then before a conjunction or a preposition, and never inside a name, a number
  with its unit or a formula (``P A Pᵀ``, ``‖Attn(PX) − P·Attn(X)‖``, ``10⁻¹⁰``, ``n_max``,
  anything in brackets, both sides of an operator).  Lines and events are chosen together
  (a small dynamic programme) so that breaks fall on the strongest boundaries and two lines of
  an event are balanced.
* :func:`speech_starts` says when the voice reaches each event: the spoken text's share up to
  the event (proportional to the spoken text), snapped to the pause the synthesiser (or the
  lecturer) makes at that phrase boundary when the line's samples show one.  Piper 1.8 can
  report phoneme durations only through an ONNX patch of the model (``include_alignments``,
  which needs the ``onnx`` package); the pauses in the samples give the same phrase boundaries
  for synthetic and recorded lines alike.
* :func:`plan` lays the events out inside a beat and says how long the beat must last for every
  event to be readable (``BeatCaptions.min_length``): the base scene makes the beat at least
  that long.  :meth:`BeatCaptions.events` times them once the beat's real length is known.

Pure Python and NumPy: nothing here imports Manim.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

MAX_LINE = 42
MAX_LINES = 2
MIN_EVENT = 5 / 6
MAX_EVENT = 7.0
MAX_CPS = 17.0
GAP_FRAMES = 2


@dataclass(frozen=True)
class Style:
    """The limits every event keeps (``[captions] max_line`` in the lecture config sets ``max_line``)."""

    max_line: int = MAX_LINE
    max_lines: int = MAX_LINES
    min_event: float = MIN_EVENT
    max_event: float = MAX_EVENT
    max_cps: float = MAX_CPS
    gap_frames: int = GAP_FRAMES

    def needed(self, chars: int) -> float:
        """Seconds an event of ``chars`` characters must stay on screen."""
        return max(self.min_event, chars / self.max_cps)


@dataclass(frozen=True)
class Event:
    """One subtitle event: seconds from the clip's start, and its lines."""

    start: float
    end: float
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def chars(self) -> int:
        """Characters read, counting a line break as the space it stands for."""
        return len(" ".join(self.lines))

    @property
    def duration(self) -> float:
        return self.end - self.start


# ------------------------------------------------------------------ where a caption may break
_OPERATORS = set("=−-+×·/≈≤≥<>→←≠~∝∈⊂⇒↦")
_UNITS = {"s", "ms", "min", "h", "%", "dB", "dBTP", "LUFS", "px", "pt", "fps", "Hz", "kHz", "×", "x", "°",
          "million", "billion", "thousand", "trillion", "k", "M", "B", "KB", "MB", "GB", "bits", "bytes",
          "rad", "radians", "degrees", "percent"}
_CONJUNCTIONS = {"and", "but", "or", "nor", "so", "because", "which", "that", "while", "where", "when",
                 "then", "if", "than", "as", "whereas", "until", "unless", "since", "though", "although"}
_PREPOSITIONS = {"of", "in", "on", "to", "for", "with", "from", "at", "by", "into", "over", "under", "across",
                 "through", "between", "per", "after", "before", "about", "against", "along", "without"}
_STRANDED = {"a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "with", "from", "and", "or", "its",
             "their", "his", "her", "is", "are", "be", "not", "no", "each", "every", "this", "that", "these"}
_MATHY = re.compile(r"[ᵀ⁻⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉ᵢⱼₖₘₙ_·‖|√Σπθλαβγδεμσωφψ∞^(){}\[\]]")
_NUMBER = re.compile(r"^[−\-+≈~]?\(?\d[\d.,]*(?:[eE][−\-+]?\d+)?[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*%?\)?[.,;:!?]?$")
_OPENERS, _CLOSERS = "([{", ")]}"


def _bare(tok: str) -> str:
    return tok.strip(".,;:!?\"'“”‘’")


def _mathy(tok: str) -> bool:
    w = _bare(tok)
    if not w:
        return False
    if _MATHY.search(w) or any(ch in _OPERATORS for ch in w):
        return True
    if len(w) == 1 and w.isalpha():
        return True  # a symbol: P, X, i, j
    if re.fullmatch(r"[A-Z]{2,4}", w):  # PX, QK, PE
        return True
    return bool(re.search(r"[A-Za-z]\d|\d[A-Za-z]", w)) and not re.fullmatch(r"[A-Za-z]+-\d+", w)


def _number(tok: str) -> bool:
    return bool(_NUMBER.match(tok))


@dataclass
class _Atom:
    text: str
    start: int  # character offset of the atom in the caption
    cost: float = 0.0  # cost of breaking after this atom (math.inf: never)


def _break_cost(a: str, b: str) -> float:
    """Cost of a break between token ``a`` and the next token ``b``; ``inf`` where it is forbidden."""
    ba, bb = _bare(a), _bare(b)
    if a in _OPERATORS or b in _OPERATORS:
        return math.inf  # both sides of an operator belong to one formula
    if a[-1] in _OPERATORS and a[-1] not in "-−" or (len(b) > 1 and b[0] in _OPERATORS and b[0] not in "-−"):
        return math.inf  # P·  ·X
    punctuated = a.endswith((",", ";", ":", ".", "!", "?"))
    if not punctuated and _mathy(a) and _mathy(b):
        return math.inf  # P A Pᵀ
    if _number(a) and (bb in _UNITS or re.fullmatch(r"\d{3}[.,;:!?]?", b)):
        return math.inf  # a number with its unit, or the next group of its digits
    if a[:1].isupper() and b[:1].isupper() and len(ba) > 1 and len(bb) > 1 and not a.endswith((".", "!", "?", ":", ",", ";")) \
            and ba.isalpha() and bb.replace("-", "").isalnum() and not bb.isupper():
        return math.inf  # a name: New Computer Modern, Self Attention
    if a.endswith((".", "!", "?")) or a.endswith(('."', '?"', '!"', ".”")):
        return 0.0
    if a.endswith((":", ";")):
        return 1.0
    if a.endswith(",") or b in ("—", "–") or a in ("—", "–") or a.endswith("—"):
        return 2.0
    if ba.lower() in _STRANDED:
        return 9.0
    if bb.lower() in _CONJUNCTIONS:
        return 3.0
    if bb.lower() in _PREPOSITIONS:
        return 4.0
    return 6.0


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start()) for m in re.finditer(r"\S+", text)]


def _atoms(text: str, loosen: int = 0) -> list[_Atom]:
    """The caption as unbreakable runs of words, each with the cost of a break after it.

    ``loosen`` > 0 allows breaks inside formulas and names (cost 20), as a last resort for a run
    longer than a line; ``loosen`` > 1 also inside brackets."""
    toks = _tokens(text)
    if not toks:
        return []
    depth = 0
    bars = {ch: text.count(ch) % 2 == 0 for ch in "‖|"}
    inside_bar = {"‖": False, "|": False}
    atoms: list[_Atom] = []
    cur = _Atom(toks[0][0], toks[0][1])
    for i, (tok, _) in enumerate(toks):
        for ch in tok:
            if ch in _OPENERS:
                depth += 1
            elif ch in _CLOSERS:
                depth = max(0, depth - 1)
            elif ch in bars and bars[ch]:
                inside_bar[ch] = not inside_bar[ch]
        if i + 1 == len(toks):
            cur.cost = 0.0
            atoms.append(cur)
            break
        nxt, off = toks[i + 1]
        cost = _break_cost(tok, nxt)
        enclosed = depth > 0 or any(inside_bar.values())
        if enclosed:
            cost = 25.0 if loosen > 1 else math.inf
        elif math.isinf(cost) and loosen > 0:
            cost = 20.0
        if math.isinf(cost):
            cur.text = text[cur.start: off + len(nxt)]
            continue
        cur.cost = cost
        atoms.append(cur)
        cur = _Atom(nxt, off)
    return atoms


def _hard_split(atoms: list[_Atom], width: int) -> list[_Atom]:
    """Cut a word longer than a line (no phrase boundary can help) with a hyphen."""
    out = []
    for a in atoms:
        while len(a.text) > width:
            head = a.text[: width - 1]
            out.append(_Atom(head + "-", a.start, 30.0))
            a = _Atom(a.text[width - 1:], a.start + width - 1, a.cost)
        out.append(a)
    return out


def _join(atoms: list[_Atom]) -> str:
    return " ".join(a.text for a in atoms)


def _lines_of(atoms: list[_Atom], style: Style) -> tuple[float, tuple[str, ...]] | None:
    """The best way to set ``atoms`` as one event: ``(cost, lines)``, or ``None`` if they do not fit."""
    text = _join(atoms)
    if len(text) <= style.max_line:
        return 0.0, (text,)
    if style.max_lines < 2:
        return None
    best = None
    for k in range(1, len(atoms)):
        top, bottom = _join(atoms[:k]), _join(atoms[k:])
        if len(top) > style.max_line:
            break
        if len(bottom) > style.max_line and style.max_lines == 2:
            continue
        if style.max_lines > 2 and len(bottom) > style.max_line:
            rest = _lines_of(atoms[k:], Style(style.max_line, style.max_lines - 1))
            if rest is None:
                continue
            cost = atoms[k - 1].cost + rest[0]
            cand = (cost, (top,) + rest[1])
        else:
            # balanced lines read best; a slightly longer bottom line (a pyramid) is the custom
            balance = abs(len(top) - len(bottom)) / style.max_line * 4 + (0.5 if len(top) > len(bottom) else 0.0)
            cand = (atoms[k - 1].cost + balance, (top, bottom))
        if best is None or cand[0] < best[0]:
            best = cand
    return best


def _split_atoms(atoms: list[_Atom], style: Style) -> list[tuple[int, tuple[str, ...]]] | None:
    """Events as ``(index of first atom, lines)``; ``None`` if some atom cannot be set."""
    n = len(atoms)
    INF = math.inf
    best = [INF] * (n + 1)
    back: list[tuple[int, tuple[str, ...]] | None] = [None] * (n + 1)
    best[0] = 0.0
    for i in range(n):
        if math.isinf(best[i]):
            continue
        for j in range(i + 1, n + 1):
            if len(_join(atoms[i:j])) > style.max_line * style.max_lines + 1:
                break
            got = _lines_of(atoms[i:j], style)
            if got is None:
                continue
            end_cost = atoms[j - 1].cost if j < n else 0.0
            # an event costs 3 (fewer, fuller events read better), its closing break twice its
            # line break (an event should end on the strongest boundary), its lines' balance
            cost = best[i] + 3.0 + 2.0 * end_cost + got[0]
            if cost < best[j]:
                best[j], back[j] = cost, (i, got[1])
    if math.isinf(best[n]):
        return None
    out, j = [], n
    while j > 0:
        i, lines = back[j]
        out.append((i, lines))
        j = i
    return out[::-1]


def split(text: str, style: Style = Style()) -> list[tuple[int, tuple[str, ...]]]:
    """``text`` as events: ``[(character offset of the event in text, lines)]``."""
    text = " ".join(text.split())
    if not text:
        return []
    for loosen in (0, 1, 2):
        atoms = _atoms(text, loosen)
        got = _split_atoms(atoms, style)
        if got is not None:
            return [(atoms[i].start, lines) for i, lines in got]
    atoms = _hard_split(_atoms(text, 2), style.max_line)
    got = _split_atoms(atoms, style)
    assert got is not None
    return [(atoms[i].start, lines) for i, lines in got]


# ------------------------------------------------------------------ when the voice gets there
def pauses(samples: np.ndarray, rate: int, min_pause: float = 0.06, floor_db: float = -32.0) -> list[tuple[float, float]]:
    """Quiet stretches of a spoken line: ``[(start, end)]`` seconds, at least ``min_pause`` long and
    ``floor_db`` under the line's loudest 10 ms (so a quiet recording finds its pauses too)."""
    a = np.asarray(samples, dtype=np.float64)
    win = max(1, rate // 100)
    n = len(a) // win
    if n < 3:
        return []
    rms = np.sqrt(np.mean(a[: n * win].reshape(n, win) ** 2, axis=1) + 1e-20)
    quiet = 20 * np.log10(rms / rms.max()) < floor_db
    out, k = [], 0
    while k < n:
        if quiet[k]:
            j = k
            while j < n and quiet[j]:
                j += 1
            if (j - k) * win / rate >= min_pause and k > 0 and j < n:
                out.append((k * win / rate, j * win / rate))
            k = j
        else:
            k += 1
    return out


def speech_starts(caption: str, offsets: list[int], samples: np.ndarray | None, rate: int,
                  spoken=None, say: str | None = None) -> list[float]:
    """Seconds into the voice line at which it reaches each event (``offsets`` into ``caption``).

    The share of the spoken text before the event, times the line's length (``spoken`` turns
    caption text into the words said; with a ``say`` text of its own, the caption's share), then
    moved to the end of the pause the speaker makes nearest that point, if one lies within
    0.6 s: a phrase boundary is where a speaker breathes."""
    if samples is None or not len(samples):
        return []
    duration = len(samples) / rate
    words = spoken or (lambda s: s)
    full = words(caption) if say is None else caption
    total = max(1, len(full))
    quiet = pauses(samples, rate)
    out, last = [], 0.0
    for k, off in enumerate(offsets):
        if k == 0:
            out.append(0.0)
            continue
        head = caption[:off].strip()
        share = (len(words(head)) + 1 if say is None else len(head) + 1) / total
        guess = min(duration, share * duration)
        near = [b for a, b in quiet if abs(b - guess) <= 0.6 and b > last]
        t = min(near, key=lambda b: abs(b - guess)) - 0.04 if near else guess
        t = max(t, last)
        out.append(t)
        last = t
    return out


# ------------------------------------------------------------------ a beat's events
@dataclass
class BeatCaptions:
    """A beat's caption split into events, with where the voice reaches each (``speech``)."""

    text: str
    chunks: list[tuple[int, tuple[str, ...]]]
    speech: list[float] = field(default_factory=list)  # seconds after the beat's start; [] when silent
    style: Style = Style()

    def _needed(self) -> list[float]:
        return [self.style.needed(len(" ".join(lines))) for _, lines in self.chunks]

    def _starts(self, fps: float) -> list[float]:
        """Earliest start of each event: with the voice, or after the one before has been read."""
        gap = self.style.gap_frames / fps
        need = self._needed()
        starts: list[float] = []
        for k in range(len(self.chunks)):
            t = 0.0 if k == 0 else starts[-1] + need[k - 1] + gap
            if self.speech:
                t = max(t, self.speech[k])
            starts.append(_frame_ceil(t, fps))
        return starts

    def min_length(self, fps: float) -> float:
        """Seconds the beat must last so that every event is readable (and ends ``gap`` before the next beat)."""
        if not self.chunks:
            return 0.0
        gap = self.style.gap_frames / fps
        return self._starts(fps)[-1] + self._needed()[-1] + gap

    def events(self, start: float, length: float, fps: float) -> list[Event]:
        """The events of a beat that starts at ``start`` and lasts ``length`` seconds."""
        if not self.chunks:
            return []
        gap = self.style.gap_frames / fps
        need = self._needed()
        starts = self._starts(fps)
        if not self.speech and len(starts) > 1:
            # silent: spread the events over the beat in proportion to their reading times
            spare = max(0.0, length - self.min_length(fps))
            extra = [spare * n / sum(need) for n in need]
            acc, starts = 0.0, []
            for k in range(len(self.chunks)):
                starts.append(_frame_ceil(acc, fps))
                acc = starts[-1] + need[k] + extra[k] + gap
        out = []
        for k, (_, lines) in enumerate(self.chunks):
            a = starts[k]
            b = (starts[k + 1] - gap) if k + 1 < len(starts) else (length - gap)
            b = min(b, a + self.style.max_event)
            b = max(b, a + min(need[k], max(0.0, length - gap - a)))  # never shorter than readable, inside the beat
            out.append(Event(round(start + a, 6), round(start + b, 6), lines))
        return out


def _frame_ceil(t: float, fps: float) -> float:
    return math.ceil(t * fps - 1e-6) / fps


def plan(text: str, style: Style = Style(), samples: np.ndarray | None = None, rate: int = 48000,
         spoken=None, say: str | None = None) -> BeatCaptions:
    """``text`` as a beat's events, timed to the voice line ``samples`` when there is one."""
    text = " ".join(text.split())
    chunks = split(text, style)
    speech = speech_starts(text, [off for off, _ in chunks], samples, rate, spoken, say) if samples is not None else []
    return BeatCaptions(text, chunks, speech, style)


def reading_length(text: str, style: Style = Style(), fps: float = 30.0) -> float:
    """Seconds a silent beat needs to show ``text`` within the limits."""
    return plan(text, style).min_length(fps)


# ------------------------------------------------------------------ files
def _vtt_time(seconds: float) -> str:
    ms = int(round(max(seconds, 0.0) * 1000))
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def _srt_time(seconds: float) -> str:
    return _vtt_time(seconds).replace(".", ",")


def vtt_escape(text: str) -> str:
    text = "\n".join(ln for ln in text.splitlines() if ln.strip())
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_vtt(cues: list[tuple[float, float, str]], kind: str = "captions") -> str:
    """WebVTT of ``(start, end, text)`` cues (``kind`` is said in a note: captions or descriptions)."""
    out = ["WEBVTT", "", f"NOTE {kind}", ""]
    for i, (a, b, text) in enumerate(cues, 1):
        if b <= a:
            continue
        out += [str(i), f"{_vtt_time(a)} --> {_vtt_time(b)}", vtt_escape(text), ""]
    return "\n".join(out)


def to_srt(cues: list[tuple[float, float, str]]) -> str:
    out = []
    for i, (a, b, text) in enumerate((c for c in cues if c[1] > c[0]), 1):
        out += [str(i), f"{_srt_time(a)} --> {_srt_time(b)}", text, ""]
    return "\n".join(out)


def caption_cues(captions) -> list[tuple[float, float, str]]:
    """Every event of every beat (``base.Caption.events``) as ``(start, end, text)``."""
    return [(e.start, e.end, e.text) for c in captions for e in c.events]


def description_cues(descriptions) -> list[tuple[float, float, str]]:
    """The beats' audio descriptions (``base.Description``) as ``(start, end, text)``."""
    return [(d.start, d.end, d.text) for d in descriptions]
