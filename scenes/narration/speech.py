"""Captions turned into words a speech synthesiser reads right (``spoken``), and what it cannot read."""

from __future__ import annotations

import re
import unicodedata

from scenes.kit.numbers import unsuperscript

# ------------------------------------------------------------------ words for the voice
_WORDS = [  # whole tokens, tried before anything else (longest first)
    ("QKᵀ", "Q K transpose"), ("Kᵀ", "K transpose"), ("Pᵀ", "P transpose"), ("ᵀ", " transpose"),
    ("nₘₐₓ", "n max"), ("PEₘ", "P E of m"), ("PEₙ", "P E of n"), ("qₘ", "q m"), ("kₙ", "k n"), ("vₙ", "v n"),
    ("θᵢ", "theta i"), ("λᵢ", "lambda i"), ("ₘ", " m"), ("ₙ", " n"), ("₀", " 0"),
    ("n_max", "n max"), ("d_model", "d model"), ("head_dim", "head dim"), ("T_heatmap", "T heatmap"),
    ("softmax", "soft max"), ("Softmax", "Soft max"), ("Attn", "attention"), ("RoPE", "rope"),
    ("LLaMA-2", "llama 2"), ("LLaMA-3", "llama 3"), ("LLaMA", "llama"), ("GPT-2", "G P T 2"),
    ("BLAS", "blass"), ("KV", "K V"), ("PE", "P E"), ("1e-10", "10 to the minus 10"), ("1e−10", "10 to the minus 10"),
    ("−∞", "minus infinity"), ("-∞", "minus infinity"), ("∞", "infinity"), ("2π", "two pi"), ("π", "pi"),
    ("θ", "theta"), ("λ", "lambda"), ("Δ", "delta "), ("Σ", " sum of "), ("√", " square root of "), ("‖", ""), ("|", ""),
    ("≈", "about"), ("≠", "is not"), ("≤", "at most"), ("≥", "at least"), ("→", "to"), ("←", "from"),
    ("×", "times"), ("…", "..."), ("—", ","), ("–", " to "), ("%", " percent"), ("ᵢ", " i"),
    ("&", " and "), ("+", " plus "), ("=", " equals "), ("*", " star"), ("/", " over "), ("\\", " "),
    ("^", " to the "), ("~", "about "), ("<", " less than "), (">", " greater than "),
    ("“", ""), ("”", ""), ("‘", "'"), ("’", "'"), ('"', ""), ("[", "("), ("]", ")"), ("{", "("), ("}", ")"),
]
_NUMBER = re.compile(r"(?<![\w.])([−-]?)(\d+(?:[\u2009\u202f ]\d{3})*(?:\.\d+)?)(?:e([−-]?\d+))?(?![\w])")
# Latin letters the voice (Piper's espeak-ng phonemizer, en-us) reads inside words as the nearest English
# sounds: Latin-1 and Latin Extended-A (ä ö ü ß é è ê ç ñ å ø æ œ ł ř ...), measured in tests/test_languages.py.
LATIN_SPOKEN = "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f"
SPEAKABLE = re.compile(rf"^[A-Za-z0-9{LATIN_SPOKEN} ,.;:!?'()\-]*$")
_QUIET = dict.fromkeys("„‚«»‹›¿¡", "")  # quotation marks and Spanish opening marks: not said
_LATIN_EXTRA = {"ẞ": "SS", "ƒ": "f", "Ə": "E", "ə": "e", "Ɖ": "D", "ɖ": "d"}


def _for_voice(ch: str) -> str:
    """One character as the voice reads it: as it is, unpunctuated, or transliterated (a ligature
    ``ﬁ`` -> ``fi``; a Latin letter beyond what the voice reads -> its base letter, ``ạ`` -> ``a``)."""
    if SPEAKABLE.match(ch):
        return ch
    if ch in _QUIET:
        return _QUIET[ch]
    if unicodedata.combining(ch):  # an accent no letter composes with: not said
        return ""
    k = unicodedata.normalize("NFKC", ch)
    if k != ch and SPEAKABLE.match(k):
        return k
    if unicodedata.name(ch, "").startswith("LATIN"):
        base = _LATIN_EXTRA.get(ch) or "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if base and SPEAKABLE.match(base):
            return base
    return ch


# The typographic signs of Latin-script lecture text, said as words the (English) voice reads: "cours n° 2" ->
# "cours number 2", "§ 3" -> "section 3", "5 €" and "€5" -> "5 euros", "3½" -> "3 and a half", "90°" -> "90 degrees";
# an en dash between numbers is a range ("3–5": "3 to 5"), elsewhere a pause ("a – b": "a, b").  Measured through
# Piper's phonemizer in tests/test_languages.py.
_FRACTIONS = {"½": ("one half", "a half"), "¼": ("one quarter", "a quarter"), "¾": ("three quarters", "three quarters"),
              "⅓": ("one third", "a third"), "⅔": ("two thirds", "two thirds"), "⅛": ("one eighth", "an eighth")}
_CURRENCY = {"€": "euros", "£": "pounds", "$": "dollars"}
_AMOUNT = r"\d+(?:[\u2009\u202f\u00a0 ]\d{3})*(?:[.,]\d+)?"
_SIGNS = [
    (re.compile(r"(?<![^\W\d_])[nN][°º]\s*(?=\d)|№\s*"), "number "),  # n° 2, N° 2, nº 2, № 2
    (re.compile(r"(\d)\s*°\s*C\b"), r"\1 degrees Celsius"), (re.compile(r"(\d)\s*°\s*F\b"), r"\1 degrees Fahrenheit"),
    (re.compile(r"°"), " degrees"),
    (re.compile(r"(\d+)[ºª]"), lambda m: m.group(1) + _ordinal(int(m.group(1)))),  # 2º, 3ª: 2nd, 3rd
    (re.compile(r"§§\s*"), "sections "), (re.compile(r"§\s*"), "section "), (re.compile(r"¶\s*"), "paragraph "),
    (re.compile(rf"([€£$])\s?({_AMOUNT})"), lambda m: f"{m.group(2)} {_CURRENCY[m.group(1)]}"),  # €5 -> 5 euros
    (re.compile(r"\s?([€£$])"), lambda m: f" {_CURRENCY[m.group(1)]}"),  # 5 € -> 5 euros
    (re.compile(r"(\d)\s*([½¼¾⅓⅔⅛])"), lambda m: f"{m.group(1)} and {_FRACTIONS[m.group(2)][1]}"),  # 3½
    (re.compile(r"[½¼¾⅓⅔⅛]"), lambda m: f" {_FRACTIONS[m.group(0)][0]} "),
    (re.compile(r"(\d?)([\u2150-\u215f\u2189])"),  # the other fractions: ⅕ -> 1 over 5
     lambda m: f"{m.group(1)} and " * bool(m.group(1)) + unicodedata.normalize("NFKC", m.group(2)).replace("⁄", " over ")),
    (re.compile(r"(\d)\s*[–‒]\s*(?=[−-]?\d)"), r"\1 to "),  # a range: 3–5, 1990 – 2000
    (re.compile(r"\s*[–―]\s*"), ", "),  # a dash between words: a pause
    (re.compile(r"‰"), " per mille"), (re.compile(r"±"), " plus or minus "), (re.compile(r"÷"), " divided by "),
    (re.compile(r"©"), " copyright "), (re.compile(r"[®™†‡]"), ""), (re.compile(r"\s*•\s*"), ", "),
    (re.compile(r"[‐‑]"), "-"), (re.compile(r"⁄"), " over "),
]


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def say_number(sign: str, digits: str, exp: str | None) -> str:
    """``("−", "4.7", "−16")`` -> "minus 4.7 times 10 to the minus 16"; ``10 000`` -> "10000"."""
    words = ("minus " if sign else "") + re.sub(r"[\u2009\u202f ]", "", digits)
    if exp is not None:
        e = exp.replace("−", "-")
        words += " times 10 to the " + ("minus " + e[1:] if e.startswith("-") else e)
    return words


def spoken(text: str) -> str:
    """``text`` as words a speech synthesiser reads right (see the module docstring)."""
    # the lecture's powers of ten: "≈ 2.2 × 10⁻¹⁶" -> "about 2.2 times 10 to the minus 16"
    text = re.sub(r"10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "10 to the " + unsuperscript(m.group(1)).replace("−", "minus ")
                  .replace("+", ""), text)
    text = unicodedata.normalize("NFC", text)
    for pattern, words in _SIGNS:  # the typographic signs, before numbers are put into words
        text = pattern.sub(words, text)
    out = _NUMBER.sub(lambda m: say_number(m.group(1), m.group(2), m.group(3)), text)
    out = re.sub(r"(\w)_(\w)", r"\1 \2", out)  # x_0 -> x 0, y_full -> y full
    out = re.sub(r"(?<=\S)·(?=\S)", " times ", out)  # P·X -> P times X
    out = out.replace(" · ", ", ").replace("·", ", ")
    for a, b in _WORDS:
        out = out.replace(a, b)
    out = out.replace("−", " minus ").replace("_", " ")
    out = "".join(_for_voice(ch) for ch in unicodedata.normalize("NFC", out))  # letters of any Latin-script language
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    return out


def unspeakable(text: str) -> str:
    """The characters of ``text`` a voice would misread (empty when it is safe to send)."""
    return "".join(sorted({ch for ch in text if not SPEAKABLE.match(ch)}))

