"""``scenes.narration.captions``: a beat's caption as broadcast-standard subtitle events (pure, no rendering).

Splitting: every event at most 2 lines of at most ``max_line`` characters, the words in order and
all there, broken at phrase boundaries and never inside a formula, a name or a number with its unit.
Timing: inside the beat, 5/6 s to 7 s an event, at most 17 characters a second, 2 frames apart,
starting with the voice when the samples show where it pauses.  The rendered clips are read back
with a real subtitle library in ``tests/test_accessibility.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scenes.narration import captions as cap
from scenes.narration.captions import Style

WORDS = ["the", "attention", "row", "of", "X", "moves", "to", "slot", "and", "softmax", "weights", "sum", "one,",
         "exactly.", "but", "causal", "masks:", "P·X", "10⁻¹⁰", "n_max", "1024", "positions", "a", "permutation",
         "equivariant;", "GPT-2", "LLaMA-3", "RoPE", "—", "with", "every", "token", "in", "Pᵀ", "θ_i", "0.5", "s"]


def lines_of(text: str, style: Style = Style()) -> list[tuple[str, ...]]:
    return [lines for _, lines in cap.split(text, style)]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=40), st.sampled_from([42, 32]))
def test_every_event_fits_and_keeps_the_words(words, width):
    text = " ".join(words)
    style = Style(max_line=width)
    events = cap.split(text, style)
    assert events and events[0][0] == 0
    assert [off for off, _ in events] == sorted(off for off, _ in events)
    for off, lines in events:
        assert 1 <= len(lines) <= 2
        assert all(0 < len(ln) <= width for ln in lines), lines
        assert text[off:].startswith(lines[0])  # the offset is where the event's text begins
    # nothing lost, nothing reordered
    assert " ".join(ln for _, lines in events for ln in lines) == text


@pytest.mark.parametrize("formula", ["P A Pᵀ", "‖Attn(PX) − P·Attn(X)‖", "10⁻¹⁰", "n_max", "2 × 10⁻¹⁶", "softmax(Q Kᵀ / √d)",
                                     "−16 LUFS", "7 s", "2 559 196", "3.5 million"])
@pytest.mark.parametrize("width", [42, 32])
def test_a_formula_or_a_number_with_its_unit_is_never_split(formula, width):
    for pre, post in (("The check", "holds for every one of the hundred random permutations we tried."),
                      ("Measured on the delivered files of the whole lecture, the result is", "as promised."),
                      ("", "is what the clip shows, and nothing else, for every config in the matrix.")):
        text = " ".join(p for p in (pre, formula, post) if p)
        lines = [ln for ls in lines_of(text, Style(max_line=width)) for ln in ls]
        assert any(formula in ln for ln in lines), (formula, lines)


def test_breaks_fall_on_phrase_boundaries():
    text = "A permutation matrix moves rows around, and nothing else."
    assert lines_of(text) == [("A permutation matrix moves rows around,", "and nothing else.")]
    two = "Self-attention passes the test. Causal attention fails it, and every row after the swap moves."
    events = lines_of(two)
    assert len(events) == 2 and events[0][-1].endswith("test.")  # an event ends on the sentence end
    short = "Alpha opens."
    assert lines_of(short) == [("Alpha opens.",)]  # one line when it fits


def test_a_word_longer_than_a_line_is_cut_not_dropped():
    word = "x" * 50
    events = lines_of(f"see {word} here", Style(max_line=32))
    flat = [ln for ls in events for ln in ls]
    assert all(len(ln) <= 32 for ln in flat)
    assert "".join(flat).replace("-", "").replace(" ", "") == f"see{word}here"


# ------------------------------------------------------------------ timing
def check_events(events, start, length, fps, style=Style()):
    gap = style.gap_frames / fps
    for e in events:
        assert start - 1e-6 <= e.start < e.end <= start + length - gap + 1e-6, (e, start, length)
        assert style.min_event - 1e-6 <= e.duration <= style.max_event + 1e-6, e
        assert e.chars / e.duration <= style.max_cps + 1e-6, e
    for a, b in zip(events, events[1:]):
        assert b.start - a.end >= gap - 1e-6, (a, b)


@settings(max_examples=150)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=45), st.sampled_from([5, 15, 30, 60]),
       st.floats(0, 20), st.floats(0, 9))
def test_silent_beats_last_long_enough_and_every_event_is_within_the_limits(words, fps, start, extra):
    start = round(start * fps) / fps
    plan = cap.plan(" ".join(words))
    length = np.ceil((plan.min_length(fps) + extra) * fps) / fps
    check_events(plan.events(start, length, fps), start, length, fps)


def _speech(pieces: list[float], rate: int = 8000) -> np.ndarray:
    """A voice line of tone bursts (seconds each) with 0.25 s pauses between."""
    out = []
    for k, sec in enumerate(pieces):
        t = np.arange(int(sec * rate)) / rate
        out.append(0.3 * np.sin(2 * np.pi * 220 * t))
        if k + 1 < len(pieces):
            out.append(np.zeros(int(0.25 * rate)))
    return np.concatenate(out)


def test_events_start_with_the_voice_at_its_pauses():
    rate = 8000
    text = ("The rows before the swap see exactly the same tokens, so they do not move at all; "
            "the rows after it see a different past, and every one of them changes.")
    chunks = cap.split(text)
    assert len(chunks) >= 2
    # a speaker who pauses exactly at each event boundary, speaking each event for its share of time
    shares = [len(" ".join(lines)) for _, lines in chunks]
    pieces = [s / 15 for s in shares]
    samples = _speech(pieces, rate)
    plan = cap.plan(text, samples=samples, rate=rate)
    pause_ends = np.cumsum([p + 0.25 for p in pieces])[:-1]
    for got, want in zip(plan.speech[1:], pause_ends):
        assert abs(got - want) < 0.06, (plan.speech, pause_ends)  # on the pause, not on the character share
    fps = 30
    length = np.ceil(max(plan.min_length(fps), len(samples) / rate + 0.35) * fps) / fps
    events = plan.events(0.0, length, fps)
    check_events(events, 0.0, length, fps)
    for e, s in zip(events[1:], plan.speech[1:]):
        assert e.start >= s - 1e-6 and e.start - s < 1 / fps + 1e-6  # shown when the voice gets there


def test_a_long_beat_never_holds_an_event_past_seven_seconds():
    plan = cap.plan("One short line.")
    events = plan.events(3.0, 12.0, 30)
    assert len(events) == 1 and events[0].duration == pytest.approx(7.0)


def test_a_beat_too_short_for_its_caption_is_lengthened():
    text = "Every minus infinity became an exact zero, because e to the minus infinity is 0."
    plan = cap.plan(text)
    assert plan.min_length(30) >= len(text) / 17
    from scenes.kit.base import reading_time

    assert reading_time(text, 30) >= plan.min_length(30) - 1e-9


def test_vtt_and_srt_writers_read_back_with_a_real_parser():
    import pysubs2

    cues = [(0.0, 1.5, "A & B <i>not a tag</i>"), (1.6, 3.0, "two\nlines")]
    vtt = pysubs2.SSAFile.from_string(cap.to_vtt(cues), format_="vtt")
    srt = pysubs2.SSAFile.from_string(cap.to_srt(cues), format_="srt")
    for subs in (vtt, srt):
        assert [(e.start, e.end) for e in subs] == [(0, 1500), (1600, 3000)]
        assert subs[1].plaintext == "two\nlines"


def test_the_config_sets_the_line_length(tmp_path):
    import re

    from mathcore.config import ConfigError, DEFAULT_CONFIG, load_config

    assert load_config().caption_max_line == 42
    text = DEFAULT_CONFIG.read_text()
    p = tmp_path / "l.toml"
    p.write_text(re.sub(r"(?m)^max_line = \d+", "max_line = 32", text))
    assert load_config(p).caption_max_line == 32
    p.write_text(re.sub(r"(?m)^max_line = \d+", "max_line = 10", text))
    with pytest.raises(ConfigError, match=r"captions\.max_line = 10"):
        load_config(p)
    p.write_text(re.sub(r"(?ms)^\[captions\].*?(?=^\[|\Z)", "", text))
    assert load_config(p).caption_max_line == 42  # an older config without [captions]
