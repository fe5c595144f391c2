"""One notation for the lecture: the symbol of every concept, for every clip, still and caption.

A position in a sequence is ``m`` (and a second one ``n``) in every clip; the positional
encoding of position ``m`` is ``PE_m`` (row ``m`` of the matrix ``PE``); the train length is
``L``; the learned table has ``n_max`` rows, written as a subscripted symbol, never as the code
name.  Each :class:`Symbol` has its Typst math (on screen), its caption text (Unicode, for
subtitles, transcripts and the narration files) and how the voice says it.

``SYMBOLS[concept]`` (or ``N.<concept>``) is the one place a clip, a still or a test looks a
symbol up; :func:`caption_symbols` is what the narration files may name as ``{sym_<concept>}``.

Nothing here imports Manim.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace


@dataclass(frozen=True)
class Symbol:
    concept: str  # what it stands for, in words
    math: str  # Typst math (no $)
    text: str  # the same in a caption (Unicode)
    spoken: str  # how the voice says it


def _s(concept: str, math: str, text: str | None = None, spoken: str | None = None) -> Symbol:
    return Symbol(concept, math, text if text is not None else math, spoken if spoken is not None else (text or math))


SYMBOLS: dict[str, Symbol] = {
    # sequences and sizes
    "tokens": _s("number of tokens", "T"),
    "width": _s("model width", "d"),
    "inputs": _s("the input rows", "X"),
    "weights": _s("attention weights", "A"),
    "outputs": _s("attention outputs", "Y"),
    "scores": _s("scaled scores", "S"),
    "permutation": _s("a permutation matrix", "P"),
    "identity": _s("the identity", "I"),
    "order": _s("the permutation as a list: position m takes row π(m)", "pi", "π", "pi"),
    "query": _s("a query vector", "q_m", "qₘ", "q m"),
    "key": _s("a key vector", "k_n", "kₙ", "k n"),
    "value": _s("a value vector", "v_n", "vₙ", "v n"),
    "queries": _s("the queries", "Q"),
    "keys": _s("the keys", "K"),
    "values": _s("the values", "V"),
    # positions
    "position": _s("a position", "m"),
    "other_position": _s("a second position", "n"),
    "prefix_length": _s("the length of a prefix: the first t tokens of a sequence", "t"),
    "offset": _s("the offset between two positions", "m - n", "m − n", "m minus n"),
    "shift": _s("a shift added to every position of a sequence (both m and n move by it)", "s"),
    "encoding": _s("the positional encoding of position m", "\"PE\"_m", "PEₘ", "P E of m"),
    "encoding_matrix": _s("the positional encoding matrix", "\"PE\"", "PE", "P E"),
    "train_length": _s("the train length", "L"),
    "table_rows": _s("rows in the learned table", "n_\"max\"", "nₘₐₓ", "n max"),
    "learned_table": _s("the learned position table", "E"),
    "learned_row": _s("row m of the learned position table, added to the token at position m", "E_m", "Eₘ", "E m"),
    # RoPE and sinusoids
    "pair": _s("a pair of coordinates", "i"),
    "rate": _s("the angle pair i turns per position", "theta_i", "θᵢ", "theta i"),
    "angle": _s("the angle of pair i at position m", "m theta_i", "m θᵢ", "m theta i"),
    "base": _s("the frequency base", "b"),
    "wavelength": _s("the wavelength of pair i", "lambda_i", "λᵢ", "lambda i"),
    # measurements
    "trials": _s("random permutations tried", "N"),
    "threshold": _s("the pass line", "10^(-10)", "10⁻¹⁰", "10 to the minus 10"),
}

N = SimpleNamespace(**SYMBOLS)


def symbol(concept: str) -> Symbol:
    try:
        return SYMBOLS[concept]
    except KeyError:
        raise KeyError(f"no symbol for {concept!r}; the notation has {', '.join(sorted(SYMBOLS))}") from None


def caption_symbols() -> dict[str, str]:
    """``{"sym_position": "m", ...}``: every symbol's caption text, for ``{braces}`` in narration."""
    return {f"sym_{k}": s.text for k, s in SYMBOLS.items()}


SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")  # x₂, θ₇ in a caption


def token_names(idx, name: str = "x") -> list[str]:
    """Typst names ``x_k`` of the tokens ``idx``."""
    return [f"{name}_{int(k)}" for k in idx]


def token_text(k: int, name: str = "x") -> str:
    """A token's name in a caption: ``x₂``."""
    return f"{name}{str(int(k)).translate(SUBSCRIPT)}"
