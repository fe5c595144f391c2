"""The lecture's clips, in order.  Pure data: importing this never imports Manim.

``clips list`` prints it; ``clips render`` resolves names against it.  ``LECTURE`` is the
whole storyboard; ``CLIPS`` holds the clips whose scene class exists in its module.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

SCENES_DIR = Path(__file__).resolve().parent
REPO_DIR = SCENES_DIR.parent


PACING = (20.0, 75.0)  # the storyboard's "lecture pacing: 20 to 75 seconds a clip"


@dataclass(frozen=True)
class Clip:
    number: int
    scene: str  # the Scene class
    family: str  # the family of clips it belongs to: its stills are in scenes/figures/<family>.py
    section: str  # notebook section
    title: str
    slug: str

    @property
    def name(self) -> str:
        """``NN_slug``: the output file stem."""
        return f"{self.number:02d}_{self.slug}"

    @property
    def module(self) -> str:
        """The clip's module under ``scenes``: ``clips.c01_permutation_matrix`` (one module a clip)."""
        return f"clips.c{self.number:02d}_{self.slug}"

    @property
    def path(self) -> Path:
        """``scenes/clips/cNN_slug.py``: the clip's source (``manim -ql <path> <scene>`` renders it)."""
        return SCENES_DIR / "clips" / f"c{self.number:02d}_{self.slug}.py"

    @property
    def sources(self) -> tuple[Path, ...]:
        """The clip's own code: its module and, when it has them, the widgets beside it (``cNN_widgets.py``)."""
        widgets = SCENES_DIR / "clips" / f"c{self.number:02d}_widgets.py"
        return (self.path, widgets) if widgets.exists() else (self.path,)

    @property
    def narration_path(self) -> Path:
        """``assets/narration/NN_slug.toml``: the clip's sentences, one TOML a clip."""
        return REPO_DIR / "assets" / "narration" / f"{self.name}.toml"

    def as_dict(self) -> dict:
        return {"number": self.number, "name": self.name, "scene": self.scene, "module": f"scenes/clips/{self.path.name}",
                "section": self.section, "title": self.title}


LECTURE: tuple[Clip, ...] = (
    Clip(0, "Title", "framing", "—", "Self-attention properties", "title"),
    Clip(1, "PermutationMatrix", "permutation", "§1", "Permutation matrices", "permutation_matrix"),
    Clip(2, "PermutationEquivariance", "equivariance", "§2, Q1", "Permutation equivariance", "permutation_equivariance"),
    Clip(3, "CausalMask", "causal", "§3", "The causal mask", "causal_mask"),
    Clip(4, "PrefixInvariance", "causal", "§4", "Prefix invariance", "prefix_invariance"),
    Clip(5, "KVCache", "causal", "§4, Q2", "The KV cache", "kv_cache"),
    Clip(6, "CausalBreaksEquivariance", "equivariance", "§5", "Causality breaks equivariance", "causal_breaks_equivariance"),
    Clip(7, "SameMultiset", "equivariance", "§6", "Same words, same outputs", "same_multiset"),
    Clip(8, "SinusoidalPosition", "positions", "§7", "Sinusoidal positions", "sinusoidal_position"),
    Clip(9, "ThreePositionalSchemes", "positions", "§8", "Three positional schemes", "three_positional_schemes"),
    Clip(10, "RoPEAngleGrid", "rope", "§9", "The RoPE angle grid", "rope_angle_grid"),
    Clip(11, "RoPERotatesQK", "rope", "Q3", "RoPE rotates Q and K, not V", "rope_rotates_qk"),
    Clip(12, "PositionalDilution", "extrapolation", "§10", "Positional dilution", "positional_dilution"),
    Clip(13, "ExtrapolationCliff", "extrapolation", "§11", "The extrapolation cliff", "extrapolation_cliff"),
    Clip(14, "GPT2ToLLaMA", "extrapolation", "Q4", "From GPT-2 to LLaMA", "gpt2_to_llama"),
    Clip(15, "Recap", "framing", "§11 diary", "Recap", "recap"),
)
"""The storyboard's clips in lecture order, written or not."""


# The notebook's four properties ("Four properties to investigate experimentally") and the clips
# that show each: a clip's *family*.  Clip 06 (causality breaks equivariance) sits with the mask
# that causes it; clip 07 (same words, same outputs) opens the positional part: it is what
# attention cannot do without positions.  00 and 15 frame the lecture and belong to none.
PROPERTIES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("Permutation equivariance", (1, 2)),
    ("Causal masking", (3, 6)),
    ("Prefix invariance, KV cache", (4, 5)),
    ("Positional embeddings", (7, 8, 9, 10, 11, 12, 13, 14)),
)


def property_of(number: int) -> int | None:
    """The index in ``PROPERTIES`` of the property clip ``number`` shows (None for 00 and 15)."""
    for k, (_, nums) in enumerate(PROPERTIES):
        if number in nums:
            return k
    return None


def _exists(c: Clip) -> bool:
    try:
        return f"class {c.scene}(" in c.path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False


CLIPS: tuple[Clip, ...] = tuple(c for c in LECTURE if _exists(c))
"""The clips whose scene exists: what ``clips list`` shows and ``clips render`` renders."""


class UnknownClipError(LookupError):
    """A clip name matched nothing; the message lists the closest names."""


def by_scene(scene: str) -> Clip:
    for c in LECTURE:
        if c.scene == scene:
            return c
    raise UnknownClipError(f"no clip with scene class {scene!r}")


def _keys(c: Clip) -> set[str]:
    return {c.scene.lower(), c.slug.lower(), c.name.lower(), str(c.number), f"{c.number:02d}"}


def resolve(names: list[str]) -> list[Clip]:
    """Clips named by number (``1``, ``01``), slug, ``NN_slug`` or scene class; lecture order, no repeats."""
    if not names:
        return list(CLIPS)
    chosen = set()
    for n in names:
        hits = [c for c in CLIPS if n.strip().lower() in _keys(c)]
        if not hits:
            vocab = [c.scene for c in CLIPS] + [c.name for c in CLIPS]
            close = difflib.get_close_matches(n, vocab, n=3, cutoff=0.4) or [c.scene for c in CLIPS][:3]
            raise UnknownClipError(f"unknown clip {n!r}; closest: {', '.join(close)} (see `clips list`)")
        chosen.update(c.number for c in hits)
    return [c for c in CLIPS if c.number in chosen]
