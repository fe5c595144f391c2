"""The shared kit every clip is drawn with: theme, widgets, base scene.

Names are imported lazily (PEP 562): ``import scenes.narration.voice`` or ``scenes.kit.numbers``
does not import Manim or the base scene, so planning a render stays light; ``from scenes.kit
import ClipScene`` imports what it names, on first use.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "base": ("Caption", "ClipScene", "NarrationError", "narration", "narration_file", "reading_time"),
    "theme": ("ACCENT", "BAD", "BG", "BLUE", "DIM", "FAINT", "FG", "GOOD", "HEADING", "LABEL", "PROPERTY_COLORS",
              "PURPLE", "SMALL", "TITLE", "ColorScale", "family_color", "fmt_measure", "fmt_value", "label", "math",
              "mono", "register_fonts", "token_color", "figure", "ramp", "HIGHLIGHT", "VERIFIED", "FAILED", "QUERY",
              "KEY", "VALUE", "SIN", "COS", "SEEN", "UNSEEN", "CONCEPT_COLORS"),
    "numbers": ("measure", "count", "power", "nice_ticks", "nice_ceil", "log_ticks"),
    "notation": ("N", "SYMBOLS", "symbol"),
    "compose": ("GAP", "DIMMED", "row", "column", "titled", "stage", "reveal", "rule"),
    "binding": ("shows", "names"),
    "widgets": ("Bracket", "ColorBar", "Heatmap", "LabelledMatrix", "TokenRow", "VectorDial"),
    "motion": ("Readout", "swap", "dim", "undim"),
    "layout": ("Layout", "LayoutError", "Region", "fit_label", "overlay", "background", "place_annotations"),
    "plots": ("Plot", "downsample_minmax"),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'scenes.kit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE))
