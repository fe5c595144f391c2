"""The lecture config: the shipped file loads; every bad value is one line naming file, key, value and rule."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from mathcore import ConfigError, LectureConfig, load_config
from mathcore.config import CONFIG_ENV, DEFAULT_CONFIG, DEFAULTS, FIELDS, defaults_notice, echo

SHIPPED = DEFAULT_CONFIG.read_text(encoding="utf-8")


def set_value(text: str, key: str, literal: str | None) -> str:
    """Return ``text`` with ``key`` (``section.name``) set to the TOML ``literal``, or removed if None."""
    section, name = key.split(".")
    out, current, done = [], None, False
    for line in text.splitlines():
        head = re.match(r"\s*\[([^\]]+)\]", line)
        if head:
            current = head.group(1).strip()
        elif current == section and re.match(rf"\s*{re.escape(name)}\s*=", line):
            assert not done
            done = True
            if literal is None:
                continue
            line = f"{name} = {literal}"
        out.append(line)
    assert done, f"{key} not found in the shipped config"
    return "\n".join(out) + "\n"


def write(tmp_path: Path, text: str | bytes, name: str = "lecture.toml") -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def one_line_error(path: Path) -> str:
    with pytest.raises(ConfigError) as ei:
        load_config(path)
    msg = str(ei.value)
    assert msg and "\n" not in msg, msg
    assert str(path) in msg, msg
    return msg


# ---------------------------------------------------------------- the shipped file
def test_shipped_config_loads_with_its_values():
    raw = tomllib.loads(SHIPPED)
    cfg = load_config(DEFAULT_CONFIG)
    assert isinstance(cfg, LectureConfig)
    assert cfg.path == DEFAULT_CONFIG
    for field, key in FIELDS.items():
        section, name = key.split(".")
        expect = raw[section][name]
        got = getattr(cfg, field)
        assert (list(got) if isinstance(got, tuple) else got) == expect, key
    assert cfg.tokens_a == tuple(raw["sentences"]["a"].split())
    assert cfg.tokens_b == tuple(raw["sentences"]["b"].split())


def test_every_field_has_a_key():
    fields = {f.name for f in dataclasses.fields(LectureConfig)} - {"path", "defaults"}
    assert fields == set(FIELDS)


def test_config_is_frozen():
    cfg = load_config(DEFAULT_CONFIG)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.T = 5


def test_shipped_config_is_the_default(monkeypatch):
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    assert load_config().path == DEFAULT_CONFIG
    monkeypatch.setenv(CONFIG_ENV, "")
    assert load_config().path == DEFAULT_CONFIG


# ---------------------------------------------------------------- good edits are accepted
@pytest.mark.parametrize("edits, field, expect", [
    ({"sizes.T": "3", "permutation.perm": "[2, 0, 1]"}, "perm", (2, 0, 1)),
    ({"sizes.d": "2"}, "d", 2),
    ({"sizes.d": "6"}, "d", 6),
    ({"positions.rope_base": "500000"}, "rope_base", 500000.0),
    ({"positions.rope_base": "100"}, "rope_base", 100.0),
    ({"positions.rope_base": "1e9"}, "rope_base", 1e9),
    ({"lecture.number": "99"}, "number", 99),
    ({"lecture.title": '"' + "T" * 80 + '"'}, "title", "T" * 80),
    ({"sentences.a": '"transformers attend"', "sentences.b": '"attend transformers"'}, "sentence_a",
     "transformers attend"),
    ({"sentences.a": '"a  dog  saw a cat"', "sentences.b": '"a cat saw a dog"'}, "sentence_a", "a dog saw a cat"),
    ({"positions.train_length": "1024"}, "train_length", 1024),
    ({"colors.weights": '"magma"'}, "cmap_weights", "magma"),
    ({"lecture.default_quality": '"k"'}, "default_quality", "k"),
    ({"lecture.seed": "4294967295"}, "seed", 4294967295),
])
def test_valid_edits_load(tmp_path, edits, field, expect):
    text = SHIPPED
    for k, v in edits.items():
        text = set_value(text, k, v)
    assert getattr(load_config(write(tmp_path, text)), field) == expect


# ---------------------------------------------------------------- one bad value at a time
BAD = [
    ("lecture.number", "0", "an integer from 1 to 99"),
    ("lecture.number", "100", "an integer from 1 to 99"),
    ("lecture.number", '"five"', "an integer from 1 to 99"),
    ("lecture.title", '""', "a non-empty string of at most 80 characters"),
    ("lecture.title", "5", "a non-empty string"),
    ("lecture.title", '"' + "T" * 81 + '"', "a string of at most 80 characters (this one has 81)"),
    ("lecture.notebook", '"   "', "a non-empty string"),
    ("lecture.notebook", '"' + "N" * 61 + '"', "a string of at most 60 characters (this one has 61)"),
    ("lecture.seed", "-1", "an integer from 0 to 4294967295"),
    ("lecture.seed", "4294967296", "an integer from 0 to 4294967295"),
    ("lecture.seed", "1.5", "an integer from 0 to 4294967295"),
    ("lecture.default_quality", '"x"', "one of l, m, h, h60, k"),
    ("lecture.default_quality", '"L"', "one of l, m, h, h60, k"),
    ("sizes.T", "7", "an integer from 3 to 6"),
    ("sizes.T", "2", "an integer from 3 to 6"),
    ("sizes.T", '"6"', "an integer from 3 to 6"),
    ("sizes.T", "true", "an integer from 3 to 6"),
    ("sizes.d", "7", "an even integer from 2 to 6"),
    ("sizes.d", "3", "an even integer from 2 to 6"),
    ("sizes.d", "8", "an even integer from 2 to 6"),
    ("sizes.d", "4.0", "an even integer from 2 to 6"),
    ("sizes.T_heatmap", "7", "an integer from 8 to 16"),
    ("sizes.T_heatmap", "17", "an integer from 8 to 16"),
    ("sizes.n_trials", "99", "an integer from 100 to 10000"),
    ("sizes.n_trials", "10001", "an integer from 100 to 10000"),
    ("permutation.perm", "[0, 1, 2, 3, 4, 5]", "a permutation that moves at least one row"),
    ("permutation.perm", "[0, 0, 1, 2, 3, 4]", "a permutation of 0..5 (sizes.T = 6), each index once"),
    ("permutation.perm", "[1, 2, 3, 4, 5, 6]", "a permutation of 0..5"),
    ("permutation.perm", "[2, 0, 1]", "a permutation of 0..5"),
    ("permutation.perm", "[2.0, 0.0, 4.0, 1.0, 5.0, 3.0]", "a permutation of 0..5"),
    ("permutation.perm", '"203153"', "a permutation of 0..5"),
    ("permutation.perm", "[true, false, 2, 3, 4, 5]", "a permutation of 0..5"),
    ("sentences.a", '"cat"', "a sentence of 2 to 8 words"),
    ("sentences.a", '"a b c d e f g h i"', "a sentence of 2 to 8 words"),
    ("sentences.a", '""', "a non-empty string"),
    ("sentences.a", "3", "a non-empty string"),
    ("sentences.a", '"the ' + "W" * 60 + ' ate"', "sentences clip 07 can draw legibly: the word 'WWWW"),
    ("sentences.a", '"' + " ".join(["wordswordswordswordswordswords", "representationsrepresentations"] * 4) + '"',
     "the two sentences take 8 + 8 lines of word chips and at most 9 fit"),
    ("sentences.a", '"the cat ate the 中"', "text the shipped font (Inter) can draw: it has no glyph for '中'"),
    ("lecture.title", '"Inside the ☃ Transformer"', "text the shipped font (Inter) can draw: it has no glyph for '☃'"),
    ("lecture.notebook", '"05 · 🙂"', "it has no glyph for '🙂'"),
    ("sentences.b", '"the dog ate the mouse"', "the same words as sentences.a ('the cat ate the mouse') in another order"),
    ("sentences.b", '"the cat ate the mouse"', "a different order of the words of sentences.a"),
    ("positions.n_max", "7", "an integer from 8 to 65536"),
    ("positions.n_max", "65537", "an integer from 8 to 65536"),
    ("positions.train_length", "1", "an integer >= 2"),
    ("positions.train_length", "2000", "an integer from 2 to positions.n_max (1024)"),
    ("positions.rope_base", "1.0001", "a number from 100 to 1e9"),
    ("positions.rope_base", "99.9", "a number from 100 to 1e9"),
    ("positions.rope_base", "1.1e9", "a number from 100 to 1e9"),
    ("positions.rope_base", "-10000.0", "a number from 100 to 1e9"),
    ("positions.rope_base", "nan", "a number from 100 to 1e9"),
    ("positions.rope_base", "inf", "a number from 100 to 1e9"),
    ("positions.rope_base", '"big"', "a number from 100 to 1e9"),
    ("positions.rope_base", "true", "a number from 100 to 1e9"),
    ("positions.dilution_widths", "[]", "a list of 1 to 5 even integers from 2 to 4096"),
    ("positions.dilution_widths", "[15]", "a list of 1 to 5 even integers from 2 to 4096"),
    ("positions.dilution_widths", "[0]", "a list of 1 to 5 even integers from 2 to 4096"),
    ("positions.dilution_widths", "[8192]", "a list of 1 to 5 even integers from 2 to 4096"),
    ("positions.dilution_widths", "[2, 4, 6, 8, 10, 12]", "a list of 1 to 5 even integers from 2 to 4096"),
    ("positions.dilution_widths", "64", "a list of 1 to 5 even integers from 2 to 4096"),
    ("positions.dilution_t_max", "99", "an integer from 100 to 100000"),
    ("positions.dilution_t_max", "100001", "an integer from 100 to 100000"),
    ("colors.weights", '"RdBu_r"', "one of viridis, cividis, magma, inferno, plasma"),
    ("colors.weights", '"jet"', "one of viridis"),
    ("colors.signed", '"viridis"', "one of RdBu_r, RdBu, coolwarm"),
    ("colors.angles", '"viridis"', "one of twilight, twilight_shifted, hsv"),
    ("voice.engine", '"espeak"', "one of piper, recorded, none"),
    ("captions.max_line", "23", "an integer from 24 to 60"),
    ("captions.max_line", "61", "an integer from 24 to 60"),
    ("cache.limit", '"4"', "a size with its unit"),
    ("cache.limit", '"500 kB"', 'from "1 MB" up'),
    ("cache.limit", '"4 GBs"', "a size with its unit"),
    ("cache.limit", "4", "a size with its unit"),
]


@pytest.mark.parametrize("key, literal, allowed", BAD, ids=[f"{k}={v}" for k, v, _ in BAD])
def test_bad_value_is_one_line_naming_file_key_value_and_rule(tmp_path, key, literal, allowed):
    value = tomllib.loads(f"x = {literal}")["x"]
    text = set_value(SHIPPED, key, literal)
    words = value.split() if isinstance(value, str) else []
    if key == "sentences.a" and "the cat ate the mouse".split() != words and 2 <= len(words) <= 8:
        b = " ".join(words[::-1]) if words[::-1] != words else " ".join(words[1:] + words[:1])
        text = set_value(text, "sentences.b", f'"{b}"')  # the same words, so this rule is the one broken
    path = write(tmp_path, text)
    msg = one_line_error(path)
    assert f"{key} = {echo(value)} is not allowed" in msg, msg  # a long value named by its start and length
    assert allowed in msg, msg
    assert msg == f"{path}: {key} = {echo(value)} is not allowed: {msg.split('is not allowed: ', 1)[1]}"


def test_every_key_has_a_bad_value_test():
    assert {k for k, _, _ in BAD} == set(FIELDS.values())


# ---------------------------------------------------------------- missing keys, sections, files
@pytest.mark.parametrize("key", sorted(set(FIELDS.values()) - set(DEFAULTS)))
def test_missing_key_is_one_line_naming_it(tmp_path, key):
    path = write(tmp_path, set_value(SHIPPED, key, None))
    assert one_line_error(path) == f"{path}: {key} is missing"


def test_missing_section_names_a_key_in_it(tmp_path):
    text = SHIPPED.replace("[colors]", "[colours]")
    msg = one_line_error(write(tmp_path, text))
    assert re.search(r"colors\.(weights|signed|angles) is missing", msg), msg


def test_missing_file_is_one_line(tmp_path):
    path = tmp_path / "nope.toml"
    assert one_line_error(path) == f"{path}: config file not found"


def test_directory_instead_of_file_is_one_line(tmp_path):
    msg = one_line_error(tmp_path)
    assert "cannot read config" in msg


# ---------------------------------------------------------------- invalid TOML
@pytest.mark.parametrize("text, hint", [
    (SHIPPED.replace("[sizes]", "[sizes"), "line"),
    (SHIPPED + "\n[sizes]\nT = 4\n", "line"),  # section defined twice
    (SHIPPED.replace("T = 6", "T = 6\nT = 5", 1), "line"),  # key defined twice
    (SHIPPED.replace('a = "the cat ate the mouse"', 'a = "the cat ate the mouse'), "line"),  # unterminated string
    ("seed = = 7\n", "line"),
])
def test_invalid_toml_is_one_line_naming_the_file(tmp_path, text, hint):
    msg = one_line_error(write(tmp_path, text))
    assert "not valid TOML" in msg and hint in msg, msg


def test_non_utf8_file_is_one_line(tmp_path):
    msg = one_line_error(write(tmp_path, b"\xff\xfe[lecture]\n"))
    assert "not valid TOML" in msg and "UTF-8" in msg, msg


# ---------------------------------------------------------------- ATTENTION_CLIPS_CONFIG
def test_env_override_is_used(tmp_path, monkeypatch):
    path = write(tmp_path, set_value(SHIPPED, "lecture.seed", "12345"), "other.toml")
    monkeypatch.setenv(CONFIG_ENV, str(path))
    cfg = load_config()
    assert cfg.seed == 12345 and cfg.path == path


def test_explicit_path_beats_env(tmp_path, monkeypatch):
    monkeypatch.setenv(CONFIG_ENV, str(write(tmp_path, set_value(SHIPPED, "lecture.seed", "1"), "env.toml")))
    assert load_config(DEFAULT_CONFIG).seed == tomllib.loads(SHIPPED)["lecture"]["seed"]


def test_env_override_errors_name_the_env_file(tmp_path, monkeypatch):
    path = write(tmp_path, set_value(SHIPPED, "sizes.d", "5"), "bad.toml")
    monkeypatch.setenv(CONFIG_ENV, str(path))
    with pytest.raises(ConfigError) as ei:
        load_config()
    assert str(ei.value) == f"{path}: sizes.d = 5 is not allowed: an even integer from 2 to 6"


def test_env_override_to_missing_file(tmp_path, monkeypatch):
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="missing.toml: config file not found"):
        load_config()


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


# ---------------------------------------------------------------- configs from earlier releases
RELEASE1 = Path(__file__).resolve().parent / "fixtures" / "lecture-release1.toml"  # the first release's shipped file


def test_the_shipped_config_sets_every_key_a_later_release_added():
    raw = tomllib.loads(SHIPPED)
    for key, value in DEFAULTS.items():
        section, name = key.split(".")
        assert raw[section][name] == value, key  # the default is what the shipped file says
    assert load_config(DEFAULT_CONFIG).defaults == () and defaults_notice(load_config(DEFAULT_CONFIG)) is None


@pytest.mark.parametrize("key", sorted(DEFAULTS))
def test_a_config_without_a_later_key_gets_its_default_and_one_line_saying_so(tmp_path, key):
    path = write(tmp_path, set_value(SHIPPED, key, None))
    cfg = load_config(path)
    field = next(f for f, k in FIELDS.items() if k == key)
    assert getattr(cfg, field) == DEFAULTS[key] and cfg.defaults == (key,)
    note = defaults_notice(cfg)
    section, name = key.split(".")
    assert "\n" not in note and str(path) in note and key in note
    assert f"[{section}] {name} = " in note  # how to make it explicit


def test_the_first_releases_config_loads_with_the_defaults_named():
    raw = tomllib.loads(RELEASE1.read_text(encoding="utf-8"))
    assert "voice" not in raw and "captions" not in raw  # the file as that release shipped it
    cfg = load_config(RELEASE1)
    assert cfg.voice == "piper" and cfg.caption_max_line == 42
    assert set(cfg.defaults) == {"voice.engine", "captions.max_line", "cache.limit"}
    assert cfg.cache_limit == "4 GB" and cfg.cache_limit_bytes == 4 * 10**9
    note = defaults_notice(cfg)
    assert note.count("voice.engine") == 2 and '[voice] engine = "piper"' in note and "[captions] max_line = 42" in note
    assert '[cache] limit = "4 GB"' in note


def test_a_bad_value_of_a_later_key_is_still_refused(tmp_path):
    msg = one_line_error(write(tmp_path, set_value(SHIPPED, "voice.engine", '"loud"')))
    assert "voice.engine = 'loud' is not allowed" in msg


# ---------------------------------------------------------------- text in any Latin-script language
def test_a_long_word_in_a_short_sentence_is_fine(tmp_path):
    text = set_value(SHIPPED, "sentences.a", '"representations need understanding"')
    text = set_value(text, "sentences.b", '"understanding need representations"')
    assert load_config(write(tmp_path, text)).tokens_a == ("representations", "need", "understanding")


def test_decomposed_letters_are_composed(tmp_path):
    text = set_value(SHIPPED, "lecture.title", '"Gro\u0308\u00dfe"')
    assert load_config(write(tmp_path, text)).title == "Größe"


@pytest.mark.parametrize("title", ["Selbstaufmerksamkeit — Größe, Reihenfolge & Position (Übung 5)",
                                   "L’auto-attention : ça, c’est l’œuvre", "¿Atención? Señor Muñoz, año 5",
                                   "Ærø, Søndergård og Åse", "Łódź, Dvořák, Şişli, Ðàng"])
def test_titles_in_latin_script_languages_load(tmp_path, title):
    assert load_config(write(tmp_path, set_value(SHIPPED, "lecture.title", f'"{title}"'))).title == title


# ---------------------------------------------------------------- long values and sizes
def test_an_over_long_value_is_named_by_its_start_and_length_never_echoed_whole(tmp_path):
    title = "Attention " * 1000  # 10 000 characters
    msg = one_line_error(write(tmp_path, set_value(SHIPPED, "lecture.title", f'"{title}"')))
    assert "lecture.title" in msg and "10000 characters" in msg and "at most 80 characters" in msg
    assert len(msg) < 300 + len(str(tmp_path)), msg


@pytest.mark.parametrize("text, n", [("4 GB", 4 * 10**9), ("500 MB", 5 * 10**8), ("2 GiB", 2 * 2**30),
                                     ("1.5GB", 15 * 10**8), ("1 MB", 10**6)])
def test_cache_limits_are_read_in_decimal_and_binary_units(text, n):
    from mathcore.config import parse_size

    assert parse_size(text) == n
