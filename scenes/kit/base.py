"""``ClipScene``: the one base every clip extends.

title card -> beats -> closing hold, with the same margins, header, caption timing
and end hold for every clip.  A *beat* plays its animations and adds its caption
(from ``assets/narration/NN_slug.toml``) as a subcaption in one call, so narration and
picture cannot drift apart; Manim writes the captions as the clip's ``.srt``.

A clip declares the data it shows in ``build_data(cfg)`` (computed by mathcore from
the lecture config); tests call it without rendering.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from manim import (DOWN, LEFT, ORIGIN, RIGHT, UP, UR, Animation, AnimationGroup, FadeIn, FadeOut, Group, Line, Mobject,
                   ReplacementTransform, Scene, Transform, VGroup, Write, config)

from mathcore.config import ASSETS_DIR, LectureConfig, load_config

from ..catalog import Clip, by_scene
from .layout import SAFE, Layout, baseline_y, fit_label
from scenes.narration.voice import GAP as VOICE_GAP
from .theme import BG, DIM, FAINT, HEADING, MARGIN, SMALL, TITLE, label, register_fonts

NARRATION_DIR: Path = ASSETS_DIR / "narration"  # one TOML a clip: narration/NN_slug.toml
WORDS_PER_SECOND = 2.5  # reading speed the captions are timed for
MIN_CAPTION = 1.6  # seconds
DEFAULT_RUN = 1.2  # seconds an animation takes unless told


class NarrationError(ValueError):
    """A narration entry is missing or names a value the clip does not provide."""


@lru_cache(maxsize=4)
def _narration_table(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise NarrationError(f"{path}: not valid TOML: {e}") from None


def narration_file(clip: Clip) -> Path:
    """``assets/narration/NN_slug.toml``: the clip's own narration file."""
    return NARRATION_DIR / f"{clip.name}.toml"


def narration(clip: Clip) -> dict[str, str]:
    """The beat captions of ``clip``, from ``assets/narration/NN_slug.toml`` section ``[slug]``."""
    path, slug = narration_file(clip), clip.slug
    if not path.exists():
        raise NarrationError(f"{path}: narration file not found")
    table = _narration_table(path)
    if slug not in table or not isinstance(table[slug], dict):
        raise NarrationError(f"{path}: section [{slug}] is missing")
    return table[slug]


def claim_of(value, *mobs):
    from .binding import claim

    return claim(value, *mobs)


def reading_time(text: str, frame_rate: float = 30.0, max_line: int = 42) -> float:
    """Seconds a silent beat needs to show ``text`` as caption events within the broadcast limits
    (``scenes.narration.captions``: at most 17 characters a second, 5/6 s an event, 2 frames between)."""
    from scenes.narration.captions import Style, reading_length

    return max(MIN_CAPTION, len(text.split()) / WORDS_PER_SECOND, reading_length(text, Style(max_line=max_line), frame_rate))


@dataclass(frozen=True)
class Caption:
    start: float
    duration: float
    text: str
    key: str = ""  # the narration entry (the beat's name)
    events: tuple = ()  # the caption as subtitle events (scenes.narration.captions.Event), clip time
    describe: str = ""  # the audio description of the beat's picture ("" when the narration says it all)
    speech: float = 0.0  # seconds of voice the beat starts with


@dataclass(frozen=True)
class Description:
    """A beat's audio description and when it is given: in a clip, once the beat's voice has
    finished (to the end of the beat); in a described clip, the hold after the beat."""

    key: str
    start: float
    end: float
    text: str
    source: str = ""  # "piper", a recording's path, or "" when not spoken


class ClipScene(Scene):
    """Base scene: subclasses set nothing but ``build_data`` and ``body``.

    ``lecture_config`` renders with that config instead of the one ``load_config`` finds
    (the layout audit runs every clip over a matrix of configs this way); ``audit=True``
    records what is visible at the end of every beat (``audit_records``), as the audit does and as
    a render does to keep the audit of what it drew.
    """

    CLOSING_HOLD: ClassVar[float] = 2.0
    # the notebook property this clip draws from a student's numbers (``clips render --student``): the key of
    # its verdict ("causal", "permutation_matrix", ...); ``None``: the clip shows no student function
    STUDENT: ClassVar[str | None] = None
    # the runs of the student's function the clip draws (keys of the verdict's arrays) and where they were run ("on
    # P X"): a verdict without one of them is drawn as an error card, not a picture with a hole
    STUDENT_RUNS: ClassVar[tuple[tuple[str, ...], str]] = ((), "")
    # held to the audit's truth checks (scenes.audit.truth: claims shown, one subject a frame, the deck's
    # scales, colours and verdicts); set by each clip once it is restaged to meet them
    STAGED: ClassVar[bool] = False

    def __init__(self, *args, lecture_config: LectureConfig | None = None, audit: bool = False,
                 voice: str | None = None, described: bool | None = None, student=None, **kwargs):
        self._lecture_config = lecture_config
        # a student's numbers (``kit.student.StudentSource``) instead of mathcore's: ``student_data`` builds the data
        self.student = student
        self._described = described
        self.auditing = audit
        self.audit_records: list = []
        # the voice: "piper", "recorded" or "none" (the render worker passes `clips render --voice`), else the
        # config's voice.engine.  Audits are silent (``audit_clip`` asks for "none"); a render records its
        # beats narrated, as it draws them.  ``described``: `clips render --described` (the worker passes it).
        self._voice_choice = voice
        super().__init__(*args, **kwargs)

    # ------------------------------------------------------------------ data
    @classmethod
    def clip(cls) -> Clip:
        return by_scene(cls.__name__)

    @classmethod
    def build_data(cls, cfg: LectureConfig) -> Any:
        """The arrays and measurements this clip shows (pure mathcore; no drawing)."""
        raise NotImplementedError

    @classmethod
    def student_data(cls, cfg: LectureConfig, student) -> Any:
        """The same data as :meth:`build_data`, with the arrays the student's functions gave (``student``: a
        ``kit.student.StudentSource``) and what they measure.  Only clips with ``STUDENT`` define it."""
        raise NotImplementedError(f"{cls.__name__} does not draw a student's numbers")

    def student_property(self):
        """The student's verdict on this clip's property (``kit.student.Property``), or ``None`` (the lecture): an
        error card where the checks gave none of the runs the clip draws (``STUDENT_RUNS``: an attention that raised
        or returned something unusable there)."""
        if self.student is None or self.STUDENT is None:
            return None
        p = self.student.prop(self.STUDENT)
        names, where = self.STUDENT_RUNS
        if names and p is not None and p.drawable and any(p.arrays.get(k) is None for k in names):
            from dataclasses import replace

            return replace(p, status="error", arrays={},
                           detail=(p.detail + "; " if p.detail else "") + f"it gave no outputs {where} to draw")
        return p

    def failing(self) -> bool:
        """The student's numbers fail this clip's property (its failing variants are said and drawn)."""
        p = self.student_property()
        return p is not None and not p.passed

    def student_values(self) -> dict[str, Any]:
        """Values the failing variants and the error card fill in (beside :meth:`caption_values`)."""
        return dict(getattr(self, "_student_values", {}))

    def _values(self) -> dict[str, Any]:
        values = self.caption_values()
        if self.student is not None:
            values.update(self.student_values())
        return values

    def quantities(self) -> dict[str, Any]:
        """Every array of the clip's data by its path (``"A"``, ``"plain.Y_a"``): what a widget may be
        bound to (``binding.shows``) and a label may name (``binding.names``); the audit checks, at
        every beat, that a named quantity is on screen and that a bound widget shows its values."""
        import dataclasses

        import numpy as np

        out: dict[str, Any] = {}

        def walk(obj, prefix: str, depth: int) -> None:
            if depth > 2 or not dataclasses.is_dataclass(obj):
                return
            for f in dataclasses.fields(obj):
                v = getattr(obj, f.name)
                if isinstance(v, np.ndarray):
                    out[prefix + f.name] = v
                elif dataclasses.is_dataclass(v):
                    walk(v, f"{prefix}{f.name}.", depth + 1)

        walk(getattr(self, "data", None), "", 0)
        return out

    def caption_values(self) -> dict[str, Any]:
        """Values the narration may name in ``{braces}``.  A value shown by a drawn element is given as
        ``binding.claim(value, element, ...)``; the audit checks, at every beat whose caption or
        description fills it in, that the element is on screen (a plain value must be on screen as
        text).  Called once the beat's picture is built, at the start of each beat's caption."""
        return {}

    def describe_default(self, key: str) -> str | None:
        """An audio description of beat ``key`` made from the data (``"row 4 of X moves to row 1"``), for a
        beat whose picture shows something the narration does not say; the narration's
        ``[slug.describe]`` entry, when there is one, wins.  ``None``: nothing to add.  Return a
        ``binding.claim(text, element, ...)`` to name the elements it describes (the audit checks
        they are on screen)."""
        return None

    # ------------------------------------------------------------------ life cycle
    def setup(self) -> None:
        register_fonts()
        self.camera.background_color = BG
        self.cfg = self._lecture_config if self._lecture_config is not None else load_config()
        p = self.student_property()
        # a student's numbers when there are any to draw (else the lecture's data stays behind the error card)
        self.data = self.build_data(self.cfg) if p is None or not p.drawable else self.student_data(self.cfg, self.student)
        self._narration = narration(self.clip())
        self.captions: list[Caption] = []
        self.descriptions: list[Description] = []
        self.voice_lines: list = []  # (start, voice.Line) per spoken beat
        from scenes.narration.captions import Style

        self.caption_style = Style(max_line=getattr(self.cfg, "caption_max_line", 42))
        # `clips render --described`: the picture holds after each described beat while its description is spoken
        self.described = bool(self._described)
        engine = self._voice_choice or self.cfg.voice
        self.narrator = None
        if engine != "none":
            from scenes.narration.voice import Narrator

            self.narrator = Narrator(engine)

    def construct(self) -> None:
        self.title_card()
        p = self.student_property()
        if p is not None and not p.drawable:  # the student's function gave nothing to draw: say why, and end
            self.error_beat(p)
            return
        self.body()
        self.closing()

    def error_beat(self, prop) -> None:
        """The student's function raised, hung, is missing or returned something unusable: its one-line
        message on an error card (``kit.student.error_card``), said by ``[slug.student_fail].error``."""
        from .student import ERROR_KEY, error_card

        content = self.layout.content
        region = content.inset(0.4, 0.0)
        card = error_card(region, f"Your code: {prop.title}", prop.message)
        card.move_to(content.center)
        self._student_values = {"failure": claim_of(prop.failure, card.message), "title": claim_of(prop.title, card.title)}
        self.error_card = card
        self.beat(ERROR_KEY, FadeIn(card, shift=0.2 * UP), run_time=1.0, hold=self.CLOSING_HOLD, subject=card,
                  why={"empty": "the error card is all there is of the student's run to show: one message",
                       "sparse": "the error card is one message: a short one (\"is not defined\") makes a small card"})

    def body(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ captions and beats
    def _entry(self, key: str) -> str:
        """Beat ``key``'s sentence: the narration's entry, or for a failing variant (``key_fail``) the entry
        of ``[slug.student_fail]`` (``kit.student``)."""
        from .student import FAIL

        slug, where = self.clip().slug, narration_file(self.clip())
        if key.endswith(FAIL) and key not in self._narration:
            table = self._narration.get("student_fail")
            base = key[: -len(FAIL)]
            if not isinstance(table, dict) or not isinstance(table.get(base), str):
                raise NarrationError(f"{where}: [{slug}.student_fail] has no entry {base!r}")
            return table[base]
        if key not in self._narration:
            raise NarrationError(f"{where}: [{slug}] has no entry {key!r}")
        return self._narration[key]

    def caption(self, key: str) -> str:
        slug, where = self.clip().slug, narration_file(self.clip())
        text = self._entry(key)
        values = self._values()
        names = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        missing = names - values.keys()
        if missing:
            raise NarrationError(
                f"{where}: [{slug}].{key} names {{{sorted(missing)[0]}}}; "
                f"this clip provides {', '.join(sorted(values)) or 'no values'}"
            )
        return text.format(**values)

    def narration_problems(self, named=frozenset()) -> list[str]:
        """Every ``{brace}`` of the clip's narration (its captions, ``[slug.say]`` and ``[slug.describe]``) that
        names no value of :meth:`caption_values` nor any name in ``named``, one line each as :meth:`caption` would
        say it: ``clips render`` asks before anything renders (after ``setup``, so the data is built; a value bound
        to an element exists only once the beat has built it, so the render passes every name its code spells)."""
        values = self._values()
        slug, where = self.clip().slug, narration_file(self.clip())
        tables = [("", self._narration), (".say", self._narration.get("say")), (".describe", self._narration.get("describe")),
                  (".student_fail", self._narration.get("student_fail")),
                  (".student_fail_say", self._narration.get("student_fail_say"))]
        out = []
        for suffix, table in tables:
            for key, text in (table or {}).items() if isinstance(table, dict) else ():
                if not isinstance(text, str):
                    continue
                try:
                    names = {f for _, f, _, _ in string.Formatter().parse(text) if f}
                except ValueError as e:
                    out.append(f"{where}: [{slug}{suffix}].{key} is not a caption: {e} (write {{{{ and }}}} for a brace)")
                    continue
                missing = {n for n in names if re.split(r"[.\[]", n)[0] not in values and re.split(r"[.\[]", n)[0] not in named}
                if missing:
                    provided = sorted(values)
                    out.append(f"{where}: [{slug}{suffix}].{key} names {{{sorted(missing)[0]}}}; "
                               f"this clip provides {', '.join(provided) or 'no values'}")
        return out

    def spoken_text(self, key: str, caption: str) -> str:
        """What the voice says for beat ``key``: the narration's ``[slug.say]`` entry if there is
        one (formatted like captions), else the caption put into words (``voice.spoken``)."""
        from scenes.narration.voice import spoken

        say = self._narration.get("say", {})
        from .student import FAIL

        if key.endswith(FAIL) and key not in self._narration:  # a failing variant: [slug.student_fail_say]
            say, key = self._narration.get("student_fail_say", {}), key[: -len(FAIL)]
        if isinstance(say, dict) and key in say:
            return spoken(say[key].format(**self._values()))
        return spoken(caption)

    def description(self, key: str) -> str:
        """The audio description of beat ``key``: the narration's ``[slug.describe]`` entry (``{braces}``
        filled like captions), else :meth:`describe_default`, else ``""``."""
        table = self._narration.get("describe", {})
        if isinstance(table, dict) and isinstance(table.get(key), str):
            text = table[key]
            values = self._values()
            names = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            missing = names - values.keys()
            if missing:
                raise NarrationError(
                    f"{narration_file(self.clip())}: [{self.clip().slug}.describe].{key} names {{{sorted(missing)[0]}}}; "
                    f"this clip provides {', '.join(sorted(values)) or 'no values'}")
            return " ".join(text.format(**values).split())
        made = self.describe_default(key)  # a string, or a binding.claim naming what it describes
        return " ".join(str(made).split()) if made else ""

    def speak(self, key: str, caption: str):
        """The voice line for beat ``key`` (``None`` when the clip is silent)."""
        if self.narrator is None:
            return None
        return self.narrator.line(self.clip().slug, key, caption, self.spoken_text(key, caption))

    def beat(self, key: str, *animations, run_time: float | None = None, hold: float | None = None,
             subject: Mobject | None = None, why: dict[str, str] | None = None, **play_kw) -> None:
        """Play ``animations`` and show caption ``key`` for as long as it takes to read, and to
        say when the clip has a voice.

        The beat lasts ``max(run_time + hold, reading time, speech + GAP)``; ``hold`` defaults
        to 0.6 s.  The voice line starts with the beat, as its caption does.

        ``subject`` is what the beat is about: the audit holds it to be on screen at full strength and
        the largest thing there, in a content area at most half empty and in at most three groups (not
        a dashboard).  ``why`` excuses a beat from one of those checks, by its kind, with the reason
        (``why={"groups": "the two maps and their difference are one comparison"}``): the audit
        reports the reason instead of the problem.
        """
        rt = (run_time if run_time is not None else DEFAULT_RUN) if animations else 0.0
        plays = [(animations, rt, play_kw)] if animations else []
        self._run_beat(key, plays, rt + (0.6 if hold is None else hold), subject, why)

    def beat_plays(self, key: str, plays: list[list], run_time: float, hold: float = 0.3,
                   subject: Mobject | None = None, why: dict[str, str] | None = None) -> None:
        """Like :meth:`beat`, with one caption over several plays made one after another (each a
        ``Succession`` of its animations lasting ``run_time``): an animation never starts, nor
        shows its mobject, before its turn."""
        from manim import Succession

        self._run_beat(key, [([Succession(*anims)], run_time, {}) for anims in plays], len(plays) * run_time + hold,
                       subject, why)

    def _caption_plan(self, key: str, text: str, line):
        """The beat's caption as subtitle events, timed to its voice line (``scenes.narration.captions``)."""
        from scenes.narration.captions import plan
        from scenes.narration.voice import RATE, spoken

        say = self._narration.get("say", {})
        from .student import FAIL

        if key.endswith(FAIL) and key not in self._narration:
            say, key = self._narration.get("student_fail_say", {}), key[: -len(FAIL)]
        own = say.get(key) if isinstance(say, dict) else None
        return plan(text, self.caption_style, line.samples if line is not None else None, RATE, spoken,
                    say=own if own is not None else None)

    def _run_beat(self, key: str, plays: list, least: float, subject: Mobject | None = None,
                  why: dict[str, str] | None = None) -> None:
        text = self.caption(key)
        line = self.speak(key, text)
        cues = self._caption_plan(key, text, line)
        fps = float(config.frame_rate)
        total = max(least, MIN_CAPTION, len(text.split()) / WORDS_PER_SECOND, cues.min_length(fps),
                    line.duration + VOICE_GAP if line is not None else 0.0)
        start = self.time
        if line is not None:
            self.voice_lines.append((start, line))
        if self.auditing:  # the picture as the beat begins, to tell a beat that changes nothing
            from scenes.audit.beats import signature, snapshot

            begun = signature(snapshot(self, key))
        for animations, rt, play_kw in plays:
            self.play(*animations, run_time=rt, **play_kw)
        if total - (self.time - start) > 1e-9:
            self.wait(total - (self.time - start))
        for _ in range(3):  # frame rounding may leave the beat a frame short of its reading time
            if self.time - start >= total - 1e-6:
                break
            self.wait(1 / config.frame_rate)
        # time the caption by the clock, after the fact: frame rounding can make the
        # beat a frame shorter or longer than asked, and captions must never overlap
        shown = self.time - start
        events = cues.events(start, shown, fps)
        for ev in events:
            self.add_subcaption(ev.text, duration=ev.end - ev.start, offset=ev.start - self.time)
        describe = self.description(key)
        speech = line.duration if line is not None else 0.0
        self.captions.append(Caption(start, shown, text, key, tuple(events), describe, speech))
        if describe:
            self._describe_beat(key, describe, start, shown, speech, fps)
        if self.auditing:
            from scenes.audit.beats import record_claims, snapshot

            rec = snapshot(self, key, subject=subject)
            rec.start = begun
            rec.why = dict(why or {})
            rec.claims = record_claims(self, key, text, describe)
            rec.describe = describe
            rec.caption = text
            self.audit_records.append(rec)
            hook = getattr(self, "beat_hook", None)
            if hook is not None:  # e.g. the audit drawing the frame at the end of the beat
                hook(self, key)

    def _describe_beat(self, key: str, text: str, start: float, shown: float, speech: float, fps: float) -> None:
        """Record beat ``key``'s description; in a described clip, hold the picture while it is spoken
        (the lecturer's ``<beat>.describe.<ext>`` recording, else the clip's voice), then go on."""
        import math

        end = start + shown
        if not self.described:
            # announced once the beat's voice has finished, to the end of the beat (where the presenter stops)
            a = min(start + math.ceil(speech * fps - 1e-6) / fps, end - 1 / fps)
            self.descriptions.append(Description(key, round(max(start, a), 6), round(end, 6), text))
            return
        source = ""
        if self.narrator is not None:
            from scenes.narration.voice import spoken

            dline = self.narrator.line(self.clip().slug, f"{key}.describe", text, spoken(text))
            self.voice_lines.append((self.time, dline))
            hold, source = dline.duration + VOICE_GAP, dline.source
        else:
            hold = reading_time(text, fps, self.caption_style.max_line)
        t0 = self.time
        self.wait(max(hold, 1 / fps))
        self.descriptions.append(Description(key, round(t0, 6), round(self.time, 6), text, source))

    # ------------------------------------------------------------------ frame furniture
    def title_card(self) -> None:
        """The clip's title large, then shrunk into the header it keeps."""
        c = self.clip()
        cfg = self.cfg
        big = label(c.title, size=TITLE + 12, weight="BOLD")
        has_section = c.section.strip() not in ("", "—", "-")
        where = f"Lecture {cfg.number} · {cfg.title}" + (f" · notebook {c.section}" if has_section else "")
        sub = fit_label(where, SAFE.width - 1.0, size=SMALL, color=DIM, max_lines=3, align=ORIGIN, break_words=True)
        card = VGroup(big, sub).arrange(DOWN, buff=0.35)
        self.beat("title", FadeIn(card, shift=0.2 * UP), run_time=1.0, hold=0.4, subject=card)

        # the header: the clip number, then the title (neutral: a family's colour is the idea only on
        # the map and the recap); the big title shrinks into its place as the same glyphs (never
        # morphing one string into another)
        num = label(f"{c.number:02d}", size=HEADING, color=DIM, weight="BOLD")
        name = label(c.title, size=HEADING, weight="BOLD")
        name.next_to(num, RIGHT, buff=0.3)
        name.shift((baseline_y(num) - baseline_y(name)) * UP)
        head = VGroup(num, name).to_corner(UP + LEFT, buff=MARGIN)
        tag = VGroup()
        if has_section:
            tag = label(c.section, size=SMALL, color=DIM).to_corner(UR, buff=MARGIN)
            tag.shift((baseline_y(num) - baseline_y(tag)) * UP)
        rule = Line(LEFT * 6.8, LEFT * -6.8, stroke_color=FAINT, stroke_width=2).next_to(head, DOWN, buff=0.16)
        rule.set_x(0)
        self.header = VGroup(head, tag, rule)
        self.play(FadeOut(sub), ReplacementTransform(big, name), FadeIn(num, shift=0.2 * RIGHT), FadeIn(tag),
                  Write(rule), run_time=0.9)
        self.add(self.header)
        self.layout = Layout.below(self.content_top)

    def takeaway(self) -> Mobject | None:
        """What proves the clip's property, on screen now: the closing beat brings it forward,
        large, and lets the rest go (:meth:`bring_forward`).  Every clip names one; ``None``
        leaves the closing beat on the frame before it (the audit reports a static beat)."""
        return None

    def closing_key(self) -> str:
        """The narration entry of the closing beat (a clip may pick a measured variant)."""
        return "close"

    def closing(self) -> None:
        """The takeaway brought forward under the last caption, then a still hold."""
        take = self.takeaway()
        anims = self.bring_forward(take) if take is not None else []
        self.beat(self.closing_key(), *anims, run_time=1.4 if anims else None, hold=self.CLOSING_HOLD, subject=take)

    TAKEAWAY_SCALE: ClassVar[float] = 2.2  # how far the takeaway may grow
    TAKEAWAY_FILL: ClassVar[float] = 0.86  # the share of the content region it may fill

    def bring_forward(self, take: Mobject, region=None) -> list[Animation]:
        """Animations that fade out everything on screen but the header and ``take``, and move
        ``take`` to the middle of ``region`` (the content area) as large as fits (at most
        ``TAKEAWAY_SCALE`` times, and no smaller than it is)."""
        region = region or self.layout.content
        keep = {id(f) for f in take.get_family()} | {id(f) for f in self.header.get_family()}
        leaves = [f for m in self.mobjects for f in m.get_family()
                  if id(f) not in keep and len(getattr(f, "points", ())) and not f.submobjects]
        target = take.copy()
        s = min(region.width * self.TAKEAWAY_FILL / max(take.width, 1e-6),
                region.height * self.TAKEAWAY_FILL / max(take.height, 1e-6), self.TAKEAWAY_SCALE)
        target.scale(max(1.0, s)).move_to(region.center)
        anims: list[Animation] = [Transform(take, target)]
        if leaves:
            anims.insert(0, FadeOut(Group(*leaves)))
        return anims

    # ------------------------------------------------------------------ tidy plays
    TIDY_PLAYS: ClassVar[bool] = False  # a clip that animates widgets part by part turns this on

    def play(self, *args, **kwargs):
        """Play; with ``TIDY_PLAYS``, then leave the scene's list of mobjects as the play meant it to be.

        Manim adds an animation group's container to the scene, and a container added to the
        scene takes its members away from the mobject that owned them (a heatmap animated cell
        by cell is dissolved into loose cells); a later ``remove(heatmap)`` or ``FadeOut`` then
        leaves loose copies behind.  After every play this restores the scene's list: what was
        on screen stays (minus what a remover or a replacing animation took away), what the play
        introduced is added, and containers and loose parts of something still on screen are
        dropped.  (Off by default: a clip that hands moved parts over to a new widget itself, as 02
        does, relies on Manim's own bookkeeping.)"""
        if not self.TIDY_PLAYS:
            return super().play(*args, **kwargs)
        before = [m for m in self.mobjects if type(m) not in (Group, Mobject)]
        anims = [a for a in args if isinstance(a, Animation) or hasattr(a, "build")]
        super().play(*args, **kwargs)
        removed = []

        def removers(a):
            if isinstance(a, AnimationGroup):
                for sub in a.animations:
                    removers(sub)
            elif isinstance(a, Animation) and a.is_remover():
                removed.append(a.mobject)

        for a in anims:
            if isinstance(a, Animation):
                removers(a)
        after_ids = {id(f) for m in self.mobjects for f in m.get_family()}
        kept = [m for m in self.get_restructured_mobject_list(before, [f for m in removed for f in m.get_family()])
                if any(id(f) in after_ids for f in m.get_family())]  # not replaced away (ReplacementTransform)
        kept_ids = {id(f) for m in kept for f in m.get_family()}
        fresh = []

        def collect(m):
            if type(m) in (Group, Mobject):
                for sub in m.submobjects:
                    collect(sub)
            elif id(m) not in kept_ids:
                fresh.append(m)
                kept_ids.update(id(f) for f in m.get_family())

        for m in self.mobjects:
            collect(m)
        self.mobjects = kept + fresh

    @property
    def content_top(self) -> float:
        return self.header[2].get_bottom()[1] - 0.15
