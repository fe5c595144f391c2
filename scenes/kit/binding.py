"""Labels bound to the data they name: a title can never name data that is not there.

``shows(widget, "plain.Y_a")`` says a widget (a heatmap, a matrix, a plot's curve) shows the
clip's quantity at that path of its data (``ClipScene.quantities()``); ``names(label, ...)``
says a label (a matrix's title, a colour bar's title, a readout) names it.  At every beat the
audit records both, and reports a visible label whose quantity no visible widget shows, and a
bound widget whose ``values`` differ from the quantity's (``audit.lecture_problems``).  A widget
that changes what it shows is re-bound in the same step (``Heatmap.animate_values(..., shows=)``).

Nothing here imports Manim.
"""

from __future__ import annotations


def shows(widget, quantity: str):
    """Bind ``widget`` to ``quantity`` (what its ``values`` are); returns the widget."""
    widget._shows = quantity
    return widget


def names(label, quantity: str):
    """Declare that ``label`` names ``quantity``; returns the label."""
    label._names = quantity
    return label


def bound(widget) -> str | None:
    return getattr(widget, "_shows", None)
