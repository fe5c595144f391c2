"""The config matrix: the shipped lecture config and configs at the corners of every allowed
range, for the layout audit (``clips audit --matrix`` and the test suite).

Each corner is a set of overrides of the shipped ``assets/lecture.toml`` (TOML keys), written
to a file and loaded through ``load_config``, so every corner is a config the validator
accepts.  Together the corners put every key at its minimum and its maximum, sentences of
eight long words and a long title, ``train_length`` next to ``n_max``, tiny and huge
``rope_base``, and every allowed colormap.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from mathcore.config import ANGLE_CMAPS, DEFAULT_CONFIG, SIGNED_CMAPS, WEIGHT_CMAPS, LectureConfig, load_config

from . import scene_class

LONG_TITLE = "Inside the Transformer: Attention, Positions and What They Cannot Do Alone"
LONG_A = "attentive transformers remember positional encodings whenever learning sequences"
LONG_B = "sequences whenever learning positional encodings remember attentive transformers"

CORNERS: dict[str, dict[str, object]] = {
    "shipped": {},
    # every key at its minimum
    "min": {
        "lecture.number": 1, "lecture.title": "Attention", "lecture.notebook": "05", "lecture.seed": 0,
        "sizes.T": 3, "sizes.d": 2, "sizes.T_heatmap": 8, "sizes.n_trials": 100,
        "permutation.perm": [2, 0, 1], "sentences.a": "cat ate", "sentences.b": "ate cat",
        "positions.n_max": 8, "positions.train_length": 2, "positions.rope_base": 100.0,
        "positions.dilution_widths": [2], "positions.dilution_t_max": 100,
        "colors.weights": "cividis", "colors.signed": "PuOr", "colors.angles": "twilight_shifted",
    },
    # every key at its maximum: eight long words, a long title, train_length = n_max
    "max": {
        "lecture.number": 99, "lecture.title": LONG_TITLE,
        "lecture.notebook": "05 · Self-Attention Properties, Permutations and Positions", "lecture.seed": 2**32 - 1,
        "sizes.T": 6, "sizes.d": 6, "sizes.T_heatmap": 16, "sizes.n_trials": 10000,
        "permutation.perm": [5, 4, 3, 2, 1, 0], "sentences.a": LONG_A, "sentences.b": LONG_B,
        "positions.n_max": 65536, "positions.train_length": 65536, "positions.rope_base": 1e9,
        "positions.dilution_widths": [2, 64, 512, 2048, 4096], "positions.dilution_t_max": 100000,
        "colors.weights": "magma", "colors.signed": "seismic", "colors.angles": "hsv",
    },
    # narrow and few tokens, wide model; train_length one short of n_max
    "T3_d6": {
        "sizes.T": 3, "sizes.d": 6, "sizes.T_heatmap": 16, "permutation.perm": [1, 2, 0],
        "sentences.a": "the mouse ate the cat", "sentences.b": "the cat ate the mouse",
        "positions.n_max": 1024, "positions.train_length": 1023, "positions.rope_base": 500000.0,
        "positions.dilution_widths": [4096], "positions.dilution_t_max": 100,
        "colors.weights": "inferno", "colors.signed": "coolwarm", "colors.angles": "twilight",
        "lecture.seed": 12345,
    },
    # many tokens, narrowest model, tiny table; small base
    "T6_d2": {
        "sizes.T": 6, "sizes.d": 2, "sizes.T_heatmap": 8, "permutation.perm": [1, 0, 3, 2, 5, 4],
        "positions.n_max": 16, "positions.train_length": 15, "positions.rope_base": 100.0,
        "positions.dilution_widths": [2, 4, 8, 16, 32], "positions.dilution_t_max": 100000,
        "colors.weights": "plasma", "colors.signed": "BrBG", "colors.angles": "hsv",
        "sentences.a": "a b c d e f g h", "sentences.b": "h g f e d c b a",
    },
    # the remaining colormaps, with other seeds and shapes
    "T4_d4": {
        # a permutation with a fixed point (token 1 stays in place), as most random permutations have
        "sizes.T": 4, "sizes.d": 4, "sizes.T_heatmap": 10, "permutation.perm": [3, 1, 0, 2],
        "positions.train_length": 1000, "colors.weights": "viridis", "colors.signed": "PiYG",
        "colors.angles": "twilight", "lecture.seed": 2024,
    },
    "T5_d2": {
        # a fixed point again (token 3), with a 3-cycle around it
        "sizes.T": 5, "sizes.d": 2, "sizes.T_heatmap": 13, "permutation.perm": [4, 2, 0, 3, 1],
        "colors.signed": "bwr", "colors.weights": "cividis", "lecture.seed": 99,
        "positions.n_max": 4096, "positions.train_length": 4096,
    },
    "cmaps": {"colors.signed": "RdBu", "colors.weights": "magma", "colors.angles": "twilight_shifted"},
}


# Lectures in other Latin-script languages: titles, notebook names and sentences with their own
# letters (tests/test_languages.py renders every clip of each, narrated, and audits them).
LANGUAGES: dict[str, dict[str, object]] = {
    "de": {
        "lecture.title": "Selbstaufmerksamkeit — Größe, Reihenfolge & Position (Übung 5)",
        "lecture.notebook": "05 · Eigenschaften der Selbstaufmerksamkeit",
        "sentences.a": "Der Großvater überreicht Müllers Enkelin zwölf Äpfel",
        "sentences.b": "Müllers Enkelin überreicht Der Großvater zwölf Äpfel",
    },
    "fr": {
        "lecture.title": "L’auto-attention : taille, ordre et position (exercice 5)",
        "lecture.notebook": "05 · Propriétés de l’auto-attention",
        "sentences.a": "le garçon français mange une crème brûlée",
        "sentences.b": "une crème brûlée mange le garçon français",
    },
    "es": {
        "lecture.title": "Autoatención: tamaño, orden y posición (ejercicio 5)",
        "lecture.notebook": "05 · Propiedades de la autoatención",
        "sentences.a": "el niño pequeño come la piña",
        "sentences.b": "la piña come el niño pequeño",
    },
}


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def config_text(overrides: dict[str, object], base: Path = DEFAULT_CONFIG) -> str:
    """The shipped config's TOML with ``overrides`` (``"section.key": value``) applied."""
    data = tomllib.loads(base.read_text(encoding="utf-8"))
    for key, value in overrides.items():
        section, name = key.split(".")
        data.setdefault(section, {})[name] = value
    out = []
    for section, table in data.items():
        out.append(f"[{section}]")
        out += [f"{k} = {_toml_value(v)}" for k, v in table.items()]
        out.append("")
    return "\n".join(out)


def write_config(overrides: dict[str, object], path: Path) -> Path:
    path.write_text(config_text(overrides), encoding="utf-8")
    return path


def corner_configs(folder: Path) -> dict[str, LectureConfig]:
    """Every corner written into ``folder`` and loaded (validated) as a ``LectureConfig``."""
    folder.mkdir(parents=True, exist_ok=True)
    return {name: load_config(write_config(o, folder / f"{name}.toml")) for name, o in CORNERS.items()}


def covered() -> dict[str, set]:
    """Which values of each colormap key the corners use (a test asserts every allowed one)."""
    seen: dict[str, set] = {"colors.weights": set(), "colors.signed": set(), "colors.angles": set()}
    shipped = tomllib.loads(DEFAULT_CONFIG.read_text(encoding="utf-8"))["colors"]
    for o in CORNERS.values():
        for k in seen:
            seen[k].add(o.get(k, shipped[k.split(".")[1]]))
    return seen


ALLOWED = {"colors.weights": set(WEIGHT_CMAPS), "colors.signed": set(SIGNED_CMAPS), "colors.angles": set(ANGLE_CMAPS)}


def audit_matrix(clip, folder: Path, corners: dict[str, LectureConfig] | None = None, first=None,
                 cached: bool = False, beat_frames: tuple[int, int] | None = None) -> dict:
    """Audit ``clip`` under the shipped config and every corner, skipping a corner whose values
    of the fields the clip has read so far equal those of a corner already audited.

    ``first`` is the shipped config's audit when the caller already has it (an ``AuditResult`` with
    ``used``, the config fields that run read): it is taken as the first corner, not run again.
    With ``cached``, each corner's audit comes from the disk cache (``scenes.render.auditcache``) when
    nothing it depends on has changed: the results then hold what was found, not the scene.  With
    ``beat_frames`` (width, height), every corner is audited afresh and draws the picture at the end of
    each beat at that size (``result.beat_frames``), as ``audit_clip`` does.
    Returns ``{corner name: AuditResult}`` for the corners audited (shipped first)."""
    from mathcore.config import RecordingConfig
    from scenes.audit.beats import audit_clip

    corners = corners if corners is not None else corner_configs(folder)
    cls = scene_class(clip)
    used: set[str] = set()
    done: dict[tuple, str] = {}
    results = {}
    names = list(corners)
    if first is not None:
        results[names[0]] = first
        used |= first.used
        fields = sorted(used)
        done[(tuple(fields), tuple(json.dumps(getattr(corners[names[0]], f), default=str) for f in fields))] = names[0]
    for name, cfg in corners.items():
        if name in results:
            continue
        fields = sorted(used)
        key = tuple(json.dumps(getattr(cfg, f), default=str) for f in fields)
        if used and (tuple(fields), key) in done:
            continue
        if cached and beat_frames is None:
            from .auditcache import audit

            results[name] = audit(clip, cfg, cls)
            used |= results[name].used
        else:
            rec = RecordingConfig(cfg)
            results[name] = audit_clip(cls, rec, beat_frames=beat_frames)
            used |= rec.used
        fields = sorted(used)
        for other in results:  # re-key what was audited by the (possibly larger) set of fields
            oc = corners[other]
            done[(tuple(fields), tuple(json.dumps(getattr(oc, f), default=str) for f in fields))] = other
    return results
