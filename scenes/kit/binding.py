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


class Claim:
    """A value a sentence fills in (``{braces}`` in a caption or a description) together with the drawn
    element(s) that show it: ``claim("≈ 2.6 million", readout)``.  It formats as its value, so the
    narration files need not know; at every beat the audit checks that each claim the beat's caption or
    description makes is visible on screen (``audit.truth.claim_problems``).  A value a clip provides as a
    plain value is checked as text instead: its string must be on screen at that beat."""

    __slots__ = ("value", "mobs")

    def __init__(self, value, *mobs):
        if not mobs:
            raise ValueError("a claim names the element(s) that show it: claim(value, mobject, ...)")
        self.value = value
        self.mobs = tuple(mobs)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"claim({self.value!r}, {len(self.mobs)} element(s))"

    def __eq__(self, other) -> bool:  # a claim equals its value (tests compare caption values)
        return self.value == (other.value if isinstance(other, Claim) else other)

    def __hash__(self) -> int:
        return hash(self.value)


def claim(value, *mobs) -> Claim:
    """``value``, shown on screen by ``mobs`` (see :class:`Claim`)."""
    return Claim(value, *mobs)


def claim_built(out: dict, owner, name: str, value, *attrs: str) -> None:
    """``out[name] = claim(value, ...)`` over ``owner``'s attributes ``attrs``, once all of them are built (a
    clip's ``caption_values`` is also called at its title card, before anything that shows the value exists)."""
    mobs = [getattr(owner, a, None) for a in attrs]
    if all(m is not None for m in mobs):
        out[name] = claim(value, *mobs)


def role(mob, name: str):
    """Declare what ``mob`` is drawn in a concept colour *for* (``theme.CONCEPT_COLORS``: "highlight",
    "verified", "failed", "query", …); returns ``mob``.  The audit reports an element drawn in a concept
    colour without the role of that colour: one colour, one meaning, across the deck."""
    mob._role = name
    return mob
