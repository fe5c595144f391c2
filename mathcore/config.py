"""The lecture config: one TOML file in ``assets/``, loaded into a typed, validated object.

A bad value raises :class:`ConfigError` whose message is one line naming the key,
the value and what is allowed::

    assets/lecture.toml: sizes.d = 7 is not allowed: an even integer from 2 to 6
"""

from __future__ import annotations

import os
import tomllib
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
DEFAULT_CONFIG = ASSETS_DIR / "lecture.toml"
CONFIG_ENV = "ATTENTION_CLIPS_CONFIG"

QUALITIES = ("l", "m", "h", "h60", "k")
# Colormaps allowed per role (matplotlib names), as the house style asks.
WEIGHT_CMAPS = ("viridis", "cividis", "magma", "inferno", "plasma")
SIGNED_CMAPS = ("RdBu_r", "RdBu", "coolwarm", "PuOr", "BrBG", "PiYG", "seismic", "bwr")
ANGLE_CMAPS = ("twilight", "twilight_shifted", "hsv")
VOICES = ("piper", "recorded", "none")  # the voice track: synthetic, the lecturer's recordings only, or silent


# Limits where a clip can no longer be drawn legibly or tell its story honestly (see the README):
MAX_TITLE = 80  # characters: the title card sets it on at most two lines
MAX_NOTEBOOK = 60
# a sentence's words: no count of letters, but what clip 07's chips can draw legibly (mathcore.typeset)
MIN_BASE, MAX_BASE = 100.0, 1e9  # RoPE/sinusoidal base: below 100 every pair wraps within a few
# positions and there are no slow pairs to show; the models in use sit at 1e4 to 1e6


# Keys a later release added, with the value a config written before them gets (the value the shipped
# config has): an older config loads, and the command says in one line what it filled in.
DEFAULTS: dict[str, object] = {
    "voice.engine": "piper",  # release 2: the voice track
    "captions.max_line": 42,  # release 3: subtitle lines of broadcast length
    "cache.limit": "4 GB",  # release 4: the size .render-cache/ is trimmed to (least recently used first)
}

# the cache's size limit: a size with its unit ("4 GB", "500 MB", "2 GiB"); below 1 MB nothing useful is kept
SIZE_UNITS = {"B": 1, "kB": 10**3, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
              "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
MIN_CACHE = 10**6
SIZE_RULE = 'a size with its unit, from "1 MB" up (e.g. "4 GB", "500 MB", "2 GiB")'
# a value longer than this is named by its start and its length in a message, never echoed whole
ECHO_MAX = 120


class ConfigError(ValueError):
    """A lecture config value breaks its rule; the message is one line."""


@dataclass(frozen=True)
class LectureConfig:
    path: Path
    number: int
    title: str
    notebook: str
    seed: int
    default_quality: str
    T: int
    d: int
    T_heatmap: int
    n_trials: int
    perm: tuple[int, ...]
    sentence_a: str
    sentence_b: str
    n_max: int
    train_length: int
    rope_base: float
    dilution_widths: tuple[int, ...]
    dilution_t_max: int
    cmap_weights: str
    cmap_signed: str
    cmap_angles: str
    voice: str = "none"
    caption_max_line: int = 42  # [captions] max_line: characters a subtitle line holds (42 broadcast, 32 DCMP)
    cache_limit: str = "4 GB"  # [cache] limit: .render-cache/ is trimmed to this, least recently used first
    defaults: tuple[str, ...] = ()  # keys of DEFAULTS this config does not set (see defaults_notice)

    @property
    def cache_limit_bytes(self) -> int:
        return parse_size(self.cache_limit)

    @property
    def tokens_a(self) -> tuple[str, ...]:
        return tuple(self.sentence_a.split())

    @property
    def tokens_b(self) -> tuple[str, ...]:
        return tuple(self.sentence_b.split())


# Which TOML key feeds which field; the scenes' render keys use these names too.
FIELDS: dict[str, str] = {
    "number": "lecture.number", "title": "lecture.title", "notebook": "lecture.notebook",
    "seed": "lecture.seed", "default_quality": "lecture.default_quality",
    "T": "sizes.T", "d": "sizes.d", "T_heatmap": "sizes.T_heatmap", "n_trials": "sizes.n_trials",
    "perm": "permutation.perm",
    "sentence_a": "sentences.a", "sentence_b": "sentences.b",
    "n_max": "positions.n_max", "train_length": "positions.train_length",
    "rope_base": "positions.rope_base", "dilution_widths": "positions.dilution_widths",
    "dilution_t_max": "positions.dilution_t_max",
    "cmap_weights": "colors.weights", "cmap_signed": "colors.signed", "cmap_angles": "colors.angles",
    "voice": "voice.engine",
    "caption_max_line": "captions.max_line",
    "cache_limit": "cache.limit",
}


def parse_size(text: str) -> int:
    """``"4 GB"`` -> 4 000 000 000 bytes (``SIZE_UNITS``; decimal and binary units); ``ValueError`` if it is
    not a number and a unit, or under ``MIN_CACHE``."""
    import re

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*", text) if isinstance(text, str) else None
    if not m or m.group(2) not in SIZE_UNITS:
        raise ValueError(SIZE_RULE)
    n = int(float(m.group(1)) * SIZE_UNITS[m.group(2)])
    if n < MIN_CACHE:
        raise ValueError(SIZE_RULE)
    return n


def echo(value) -> str:
    """``repr(value)``, or for a long value its start and its length: a message names it, never repeats it."""
    r = repr(value)
    if len(r) <= ECHO_MAX:
        return r
    n = f"{len(value)} characters" if isinstance(value, str) else f"{len(value)} items" if hasattr(value, "__len__") else ""
    return f"{r[:ECHO_MAX - 20]}… ({n or 'cut short'})"


def _num(x: float) -> str:
    """``100``, ``1e9``: a limit as a person would type it."""
    return f"{x:.0e}".replace("e+0", "e").replace("e+", "e") if x >= 1e6 else f"{x:g}"


class _Reader:
    def __init__(self, data: dict, where: str):
        self.data, self.where = data, where
        self.defaulted: list[str] = []

    def has(self, key: str) -> bool:
        node = self.data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        return True

    def text(self, key: str, value: str) -> str:
        """``value`` if the shipped Inter draws every character of it (a text from the config is
        drawn in every weight: the title card sets it bold, the header regular)."""
        from .typeset import missing_glyphs

        value = unicodedata.normalize("NFC", value)  # "u" + combining diaeresis is the letter "ü"
        bad = missing_glyphs(value)
        if bad:
            self.fail(key, value, f"text the shipped font (Inter) can draw: it has no glyph for {bad!r}")
        return value

    def fail(self, key: str, value, allowed: str):
        raise ConfigError(f"{self.where}: {key} = {echo(value)} is not allowed: {allowed}")

    def get(self, key: str):
        if key in DEFAULTS and not self.has(key):
            self.defaulted.append(key)
            return DEFAULTS[key]
        node = self.data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                raise ConfigError(f"{self.where}: {key} is missing")
            node = node[part]
        return node

    def int(self, key: str, lo: int, hi: int | None = None, *, even: bool = False) -> int:
        v = self.get(key)
        rule = f"an {'even ' if even else ''}integer " + (f"from {lo} to {hi}" if hi is not None else f">= {lo}")
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi) or (even and v % 2):
            self.fail(key, v, rule)
        return v

    def str(self, key: str, choices: tuple[str, ...] | None = None, max_len: int | None = None) -> str:
        v = self.get(key)
        if not isinstance(v, str) or not v.strip():
            self.fail(key, v, "a non-empty string" + (f" of at most {max_len} characters" if max_len else ""))
        if max_len is not None and len(v) > max_len:
            self.fail(key, v, f"a string of at most {max_len} characters (this one has {len(v)})")
        if choices is not None and v not in choices:
            self.fail(key, v, f"one of {', '.join(choices)}")
        return v

    def size(self, key: str) -> str:
        v = self.get(key)
        try:
            parse_size(v)
        except ValueError:
            self.fail(key, v, SIZE_RULE)
        return v

    def float(self, key: str, lo: float, hi: float) -> float:
        v = self.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or not (lo <= v <= hi):
            self.fail(key, v, f"a number from {_num(lo)} to {_num(hi)}")
        return float(v)


def config_path(path: str | os.PathLike | None = None) -> Path:
    """The config to use: ``path``, else ``$ATTENTION_CLIPS_CONFIG``, else ``assets/lecture.toml``."""
    if path is not None:
        return Path(path)
    env = os.environ.get(CONFIG_ENV)
    return Path(env) if env else DEFAULT_CONFIG


def load_config(path: str | os.PathLike | None = None) -> LectureConfig:
    """Load and validate the lecture config; raise :class:`ConfigError` (one line) if any value is bad."""
    p = config_path(path)
    where = str(p)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{where}: config file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{where}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{where}: not valid TOML: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise ConfigError(f"{where}: cannot read config: {e.strerror or e}") from None
    r = _Reader(data, where)

    T = r.int("sizes.T", 3, 6)
    perm = r.get("permutation.perm")
    if (not isinstance(perm, list) or any(isinstance(i, bool) or not isinstance(i, int) for i in perm)
            or sorted(perm) != list(range(T))):
        r.fail("permutation.perm", perm, f"a permutation of 0..{T - 1} (sizes.T = {T}), each index once")
    if perm == list(range(T)):
        r.fail("permutation.perm", perm, "a permutation that moves at least one row")

    sentences = {}
    for k in ("a", "b"):
        s = r.str(f"sentences.{k}")
        if len(s.split()) < 2 or len(s.split()) > 8:
            r.fail(f"sentences.{k}", s, "a sentence of 2 to 8 words")
        s = r.text(f"sentences.{k}", s)
        sentences[k] = " ".join(s.split())
    if sorted(sentences["a"].split()) != sorted(sentences["b"].split()):
        r.fail("sentences.b", sentences["b"], f"the same words as sentences.a ({sentences['a']!r}) in another order")
    if sentences["a"] == sentences["b"]:
        r.fail("sentences.b", sentences["b"], "a different order of the words of sentences.a")
    from .typeset import chips_problem

    why = chips_problem(sentences["a"].split(), sentences["b"].split())
    if why:  # the limit clip 07's word chips really have, measured with the font (mathcore.typeset)
        r.fail("sentences.a", sentences["a"], f"sentences clip 07 can draw legibly: {why}")

    widths = r.get("positions.dilution_widths")
    if (not isinstance(widths, list) or not 1 <= len(widths) <= 5
            or any(isinstance(w, bool) or not isinstance(w, int) or w < 2 or w % 2 or w > 4096 for w in widths)):
        r.fail("positions.dilution_widths", widths, "a list of 1 to 5 even integers from 2 to 4096")

    n_max = r.int("positions.n_max", 8, 1 << 16)
    train_length = r.int("positions.train_length", 2)
    if train_length > n_max:
        r.fail("positions.train_length", train_length, f"an integer from 2 to positions.n_max ({n_max})")

    cfg = LectureConfig(
        path=p,
        number=r.int("lecture.number", 1, 99),
        title=r.text("lecture.title", r.str("lecture.title", max_len=MAX_TITLE)),
        notebook=r.text("lecture.notebook", r.str("lecture.notebook", max_len=MAX_NOTEBOOK)),
        seed=r.int("lecture.seed", 0, 2**32 - 1),
        default_quality=r.str("lecture.default_quality", QUALITIES),
        T=T,
        d=r.int("sizes.d", 2, 6, even=True),
        T_heatmap=r.int("sizes.T_heatmap", 8, 16),
        n_trials=r.int("sizes.n_trials", 100, 10000),
        perm=tuple(perm),
        sentence_a=sentences["a"],
        sentence_b=sentences["b"],
        n_max=n_max,
        train_length=train_length,
        rope_base=r.float("positions.rope_base", MIN_BASE, MAX_BASE),
        dilution_widths=tuple(widths),
        dilution_t_max=r.int("positions.dilution_t_max", 100, 100000),
        cmap_weights=r.str("colors.weights", WEIGHT_CMAPS),
        cmap_signed=r.str("colors.signed", SIGNED_CMAPS),
        cmap_angles=r.str("colors.angles", ANGLE_CMAPS),
        voice=r.str("voice.engine", VOICES),
        # a config without [captions] gets the broadcast 42 (DEFAULTS): 32 for DCMP's education style
        caption_max_line=r.int("captions.max_line", 24, 60),
        cache_limit=r.size("cache.limit"),
    )
    return replace(cfg, defaults=tuple(r.defaulted))


def _toml(v) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)


def defaults_notice(cfg: LectureConfig) -> str | None:
    """One line saying which keys of a later release ``cfg``'s file does not set, the defaults it
    got, and how to make them explicit (None when it sets them all)."""
    if not cfg.defaults:
        return None
    used = ", ".join(f"{k} = {_toml(DEFAULTS[k])}" for k in cfg.defaults)
    add = "; ".join(f"[{k.split('.')[0]}] {k.split('.')[1]} = {_toml(DEFAULTS[k])}" for k in cfg.defaults)
    return (f"{cfg.path}: written before {', '.join(cfg.defaults)} existed: using the default{'s' if len(cfg.defaults) > 1 else ''} "
            f"{used}; to make {'them' if len(cfg.defaults) > 1 else 'it'} explicit, add to the file: {add}")


class RecordingConfig:
    """Wraps a ``LectureConfig`` and records every field read (``used``): the render key of
    a clip covers exactly the fields it read, and the layout audit skips corner configs that
    differ from an audited one only in fields the clip never reads."""

    def __init__(self, cfg):
        object.__setattr__(self, "_cfg", cfg)
        object.__setattr__(self, "used", set())

    def __getattr__(self, name):
        value = getattr(self._cfg, name)
        if not name.startswith("_") and not callable(value):
            self.used.add(name)
        return value

    def __setattr__(self, name, value):
        raise AttributeError("the lecture config is read-only")
