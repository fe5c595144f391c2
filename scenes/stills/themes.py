"""The stills' themes: dark for slides (the clips' own look), light for print; a role resolves to a colour."""


from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenes.kit.theme import (
    ACCENT,
    BAD,
    BG,
    BLUE,
    COS,
    DIM,
    FAINT,
    FG,
    GOOD,
    KEY,
    PROPERTY_COLORS,
    PURPLE,
    QUERY,
    SEEN,
    SIN,
    TOKEN_COLORS,
    UNSEEN,
    VALUE,
)

STYLE = Path(__file__).with_name("clips.mplstyle")  # dark: slides, the clips' own look
STYLE_LIGHT = Path(__file__).with_name("clips-light.mplstyle")  # light: print
EDGE_PT = 4.5  # the title's and the proof's inset from the figure's left edge, points
PROOF_PT = 11.0  # the measured proof's size, points
SUBTITLE_PT = 9.5
DIVERGING = ("RdBu_r", "RdBu", "coolwarm", "PuOr", "BrBG", "PiYG", "seismic", "bwr", "PRGn", "RdYlBu", "Spectral")


# ====================================================================== themes
@dataclass(frozen=True)
class Theme:
    """The furniture of a still: paper, ink and the accent colours (value colours come from scales)."""

    name: str
    style: Path
    bg: str
    fg: str
    dim: str
    faint: str
    masked: str  # a masked (non-finite) cell
    accent: str
    good: str
    bad: str
    blue: str
    purple: str
    tokens: tuple[str, ...]
    families: tuple[str, ...]  # one per property of scenes.catalog.PROPERTIES
    wash: float  # opacity of a card's tint
    # concept colours (scenes.kit.theme.CONCEPT_COLORS) by role name, e.g. ("sin", "#3DD6D0"): one colour
    # per idea in the stills as in the clips; a role missing here falls back to the attributes above
    concepts: tuple[tuple[str, str], ...] = ()

    def color(self, role: str) -> str:
        """``"#RRGGBB"`` for a colour role or a literal hex colour."""
        if not role:
            return self.fg
        if role.startswith("#"):
            return role
        kind, _, arg = role.partition(":")
        if kind == "token":
            return self.tokens[int(arg) % len(self.tokens)]
        if kind == "family":
            return self.families[int(arg)]
        if kind == "clip":
            from scenes.catalog import property_of

            k = property_of(int(arg))
            return self.fg if k is None else self.families[k]
        for name, hex_ in self.concepts:
            if name == kind:
                return hex_
        try:
            return getattr(self, kind)
        except AttributeError:
            raise ValueError(f"unknown colour role {role!r}") from None


def _hex(c) -> str:
    return c.to_hex().upper()[:7]


DARK = Theme(
    "dark", STYLE, bg=_hex(BG), fg=_hex(FG), dim=_hex(DIM), faint=_hex(FAINT), masked=_hex(FAINT),
    accent=_hex(ACCENT), good=_hex(GOOD), bad=_hex(BAD), blue=_hex(BLUE), purple=_hex(PURPLE),
    tokens=tuple(_hex(c) for c in TOKEN_COLORS), families=tuple(_hex(c) for c in PROPERTY_COLORS), wash=0.10,
    concepts=(("sin", _hex(SIN)), ("cos", _hex(COS)), ("query", _hex(QUERY)), ("key", _hex(KEY)),
              ("value", _hex(VALUE)), ("seen", _hex(SEEN)), ("unseen", _hex(UNSEEN))),
)
# Paper: the same hues, deepened until they read as ink on white (text contrast >= 4.5:1 for the
# accents, the Okabe–Ito token colours with their yellow darkened); masked cells a light grey.
LIGHT = Theme(
    "light", STYLE_LIGHT, bg="#FFFFFF", fg="#1F2328", dim="#59636E", faint="#D1D9E0", masked="#E6EAEF",
    accent="#9A6700", good="#1A7F37", bad="#CF222E", blue="#0969DA", purple="#8250DF",
    tokens=("#E69F00", "#56B4E9", "#009E73", "#B8A200", "#CC79A7", "#0072B2", "#D55E00", "#7F7F7F"),
    families=("#0969DA", "#BF3989", "#1A7F64", "#7E57C2"), wash=0.06,
    concepts=(("sin", "#00787A"), ("cos", "#C2185B"),  # >= 5:1 on white, apart under every CVD (>= 14 CAM02-UCS)
              ("query", "#B54A00"), ("key", "#0969DA"),  # >= 5:1 on white, >= 55 CAM02-UCS apart under every CVD
              ("value", "#4A3F0A"),  # a deep olive (yellow cannot be ink on white): 10:1, >= 14 from query and key under every CVD
              ("seen", "#6F42C1"), ("unseen", "#8C7BC8")),  # seen 6.5:1 on white; never seen paler (3.6:1, for fills and lines)
)
THEMES = {"dark": DARK, "light": LIGHT}


def theme(name: str | Theme) -> Theme:
    if isinstance(name, Theme):
        return name
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; one of {', '.join(THEMES)}") from None

