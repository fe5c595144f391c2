"""The functions a notebook-05 submission may define, the signatures accepted, and what was found.

Accepted (positional arguments; parameter names are free, the order is not):

=================================  =====================================================================
``attention(Q, K, V, mask=None)``  returns ``Y`` or ``(Y, A)``; ``mask`` is bool ``(T_q, T_k)``, True =
                                   may attend (also named ``scaled_dot_product_attention``)
``self_attention(X, Wq, Wk, Wv,    returns ``Y`` or ``(Y, A)``; ``causal`` (or ``is_causal``) optional
causal=False)``
``causal_attention(X, Wq, Wk, Wv)``  returns ``Y`` or ``(Y, A)``; or ``causal_attention(Q, K, V)`` (a
                                   first parameter named Q/q/query, or three parameters)
``causal_mask(T)``                 ``(T, T)`` bool, True on and below the diagonal
``permutation_matrix(perm)``       ``P: (T, T)`` with ``P @ X == X[perm]``
``check_equivariance_max_defect(attn, X, n_trials, seed)``
``prefix_invariance_max_defect(attn, X)``
``my_sinusoidal_position(T, d, base)``, ``rope_angle_grid(T, d, base)``  (``base`` may be left out)
=================================  =====================================================================

Causal attention is the submission's own ``causal_attention`` if it defines one; else its attention
called with its ``causal_mask(T)`` if it defines that, else with mathcore's causal mask; else its
``self_attention(..., causal=True)``.
"""

from __future__ import annotations

from dataclasses import dataclass

ROLES = {  # role -> the names a submission may give it, first preferred
    "attention": ("attention", "scaled_dot_product_attention"),
    "self_attention": ("self_attention",),
    "causal_attention": ("causal_attention", "causal_self_attention"),
    "causal_mask": ("causal_mask",),
    "permutation_matrix": ("permutation_matrix",),
    "check_equivariance_max_defect": ("check_equivariance_max_defect",),
    "prefix_invariance_max_defect": ("prefix_invariance_max_defect",),
    "my_sinusoidal_position": ("my_sinusoidal_position",),
    "rope_angle_grid": ("rope_angle_grid",),
}
NEEDED = {  # role -> (fewest positional arguments we pass, most we may pass)
    "attention": (3, 4),
    "self_attention": (4, 4),
    "causal_attention": (3, 4),
    "causal_mask": (1, 1),
    "permutation_matrix": (1, 1),
    "check_equivariance_max_defect": (2, 4),
    "prefix_invariance_max_defect": (2, 2),
    "my_sinusoidal_position": (2, 3),
    "rope_angle_grid": (2, 3),
}
DOCUMENTED = {
    "attention": "attention(Q, K, V, mask=None)",
    "self_attention": "self_attention(X, Wq, Wk, Wv, causal=False)",
    "causal_attention": "causal_attention(X, Wq, Wk, Wv)",
    "causal_mask": "causal_mask(T)",
    "permutation_matrix": "permutation_matrix(perm)",
    "check_equivariance_max_defect": "check_equivariance_max_defect(attn, X, n_trials, seed)",
    "prefix_invariance_max_defect": "prefix_invariance_max_defect(attn, X)",
    "my_sinusoidal_position": "my_sinusoidal_position(T, d, base)",
    "rope_angle_grid": "rope_angle_grid(T, d, base)",
}
CAUSAL_KEYWORDS = ("causal", "is_causal")
MASK_KEYWORDS = ("mask", "attn_mask")
QKV_NAMES = ("q", "query", "queries")


@dataclass(frozen=True)
class Found:
    """A function the submission defines for a role: its name, parameters (None if not inspectable),
    how many positional arguments it takes (lo, hi; hi None for ``*args``) and where it is."""

    role: str
    name: str
    params: tuple[dict, ...] | None
    where: str

    @property
    def arity(self) -> tuple[int, int | None]:
        if self.params is None:
            return 0, None
        pos = [p for p in self.params if p["kind"] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
        required = sum(1 for p in pos if not p["default"])
        star = any(p["kind"] == "VAR_POSITIONAL" for p in self.params)
        return required, None if star else len(pos)

    def accepts(self, n: int) -> bool:
        lo, hi = self.arity
        return lo <= n and (hi is None or n <= hi)

    def keyword(self, names: tuple[str, ...]) -> str | None:
        """The first of ``names`` it takes as a keyword argument."""
        for p in self.params or ():
            if p["name"] in names and p["kind"] in ("POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"):
                return p["name"]
        return None

    @property
    def usable(self) -> bool:
        lo, hi = NEEDED[self.role]
        return any(self.accepts(n) for n in range(lo, hi + 1))

    @property
    def qkv_form(self) -> bool:
        """For causal_attention: called as ``(Q, K, V)`` rather than ``(X, Wq, Wk, Wv)``."""
        if self.params and self.params[0]["name"].lower() in QKV_NAMES:
            return True
        return not self.accepts(4) and self.accepts(3)

    def signature(self) -> str:
        if self.params is None:
            return f"{self.name}(...)"
        parts = []
        for p in self.params:
            star = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(p["kind"], "")
            parts.append(f"{star}{p['name']}{'=…' if p['default'] else ''}")
        return f"{self.name}({', '.join(parts)})"


@dataclass(frozen=True)
class Detected:
    """What the submission defines, role by role, and how causal attention is made."""

    found: dict  # role -> Found (usable or not)
    causal_source: str  # "causal_attention", "attention+causal_mask", "attention+mask", "self_attention", ""

    def get(self, role: str) -> Found | None:
        f = self.found.get(role)
        return f if f is not None and f.usable else None

    def summary(self) -> str:
        """One line: what was found, what is missing, what cannot be called, and the causal attention."""
        have = [f.signature() for r, f in self.found.items() if f.usable]
        wrong = [f"{f.signature()} (expected {DOCUMENTED[r]})" for r, f in self.found.items() if not f.usable]
        missing = [DOCUMENTED[r].split("(")[0] for r in ROLES if r not in self.found and r not in OPTIONAL]
        parts = [f"found {', '.join(have)}" if have else "found none of the notebook's functions"]
        if wrong:
            parts.append(f"cannot call {', '.join(wrong)}")
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        parts.append(f"causal attention: {CAUSAL_SOURCES[self.causal_source]}")
        return "; ".join(parts)


OPTIONAL = ("self_attention", "causal_attention", "causal_mask", "attention")  # one attention is enough
CAUSAL_SOURCES = {
    "causal_attention": "its causal_attention",
    "attention+causal_mask": "its attention with its causal_mask",
    "attention+mask": "its attention with the causal mask (True = may attend)",
    "self_attention": "its self_attention(..., causal=True)",
    "": "none (no attention that takes a mask, no causal_attention)",
}


def detect(functions: dict, place) -> Detected:
    """``functions``: the child's report ``{name: {"params": [...] | None, "file": ..., "line": n}}``;
    ``place(file, line) -> str`` says where a function is."""
    found = {}
    for role, names in ROLES.items():
        for n in names:
            if n in functions:
                info = functions[n]
                params = tuple(info["params"]) if info.get("params") is not None else None
                found[role] = Found(role, n, params, place(info.get("file", ""), info.get("line")))
                break
    usable = {r for r, f in found.items() if f.usable}
    att = found.get("attention")
    takes_mask = att is not None and att.usable and (att.accepts(4) or att.keyword(MASK_KEYWORDS) is not None)
    sa = found.get("self_attention")
    if "causal_attention" in usable:
        source = "causal_attention"
    elif takes_mask and "causal_mask" in usable:
        source = "attention+causal_mask"
    elif takes_mask:
        source = "attention+mask"
    elif sa is not None and sa.usable and sa.keyword(CAUSAL_KEYWORDS):
        source = "self_attention"
    else:
        source = ""
    return Detected(found, source)
