"""One colour scale per quantity, across the whole deck.

A student who has seen a weight of 0.3 painted teal in one clip must see teal for 0.3 in every clip,
and in every still.  So a colour scale is never made for a picture: it is asked for *by quantity*
(:func:`scale`), and the deck's registry (:data:`QUANTITIES`) says how each quantity is painted:

* quantities several clips show (``"weights"``, ``"inputs"``, ``"outputs"``, ``"scores"``, ``"encodings"``,
  ``"angles"``) have one scale made from the lecture config alone: the same for every clip that shows
  them, whatever else that clip shows;
* quantities one clip shows (``"sentence vectors"``, ``"scheme scores"``, ``"slow
  angles"``, ``"table"``, ``"output shifts"``) are made from the values that clip declares (all of them, once: one scale
  through the clip and its still).

Every scale made here carries its ``quantity``; the audit records the quantity and the scale of every
coloured widget on screen (``audit.beats``), reports a widget painted by a scale that names no quantity,
or values beyond their scale's ends (clipped colours would lie), and the deck's test asserts one scale
per quantity over every clip.  The colormap says the kind of quantity: the config's weights colormap
(viridis by default) is for weights in [0, 1] alone; signed quantities take the diverging map; angles
mod 2π the cyclic one; the slow pairs' log angles a sequential map of their own.

Nothing here imports Manim; mathcore computes every value a scale is made from.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

LOG_ANGLE_CMAP = "cividis"  # the slow pairs' log10 angles: sequential, and not the weights' viridis
LOG_ANGLE_SPARE = "YlGnBu_r"  # ... nor the weights' colormap when a config picks cividis for the weights
CHANGE_CMAP = "gray"  # norms of changes: one hue, black (no change, as an unpainted exact 0) to white; no blue beside the
# signed maps' negatives, no yellow (the highlight's outline stays one meaning)

QUANTITIES: dict[str, str] = {
    # shared by several clips: made from the config alone
    "weights": "attention weights A in [0, 1] (and P's 0s and 1s: rows that pick one token each)",
    "inputs": "the lecture's token vectors X and their queries, keys and values (Q, K, V; the caches)",
    "outputs": "attention outputs Y of the lecture's tokens (self-attention, causal, decoded, with RoPE; and ΔY, what "
               "sliding every RoPE position by s does to them: clip 11), and the values V they average (y₀ = v₀ "
               "causally: clips 04 and 05 draw V and Y on this one scale)",
    "scores": "attention scores Q Kᵀ / √d of the lecture's tokens (−∞ where masked)",
    "encodings": "positional encodings PE, in [−1, 1]",
    "angles": "RoPE angles m θᵢ mod 2π (a cyclic scale)",
    # shown by one clip: made from the values it declares
    "sentence vectors": "the two sentences' vectors through attention (clip 07): their embeddings, with and without "
                        "positions, the positions' encodings added to them, the outputs and their means, all on one "
                        "signed square-root stretch (one output of 4 among a crowd under 1; an input and the output it "
                        "becomes read on one bar)",
    "scheme scores": "qₘ · kₙ of one token at positions m and n under each positional scheme (clip 09)",
    "slow angles": "log₁₀ of the slow RoPE pairs' angles (clip 10)",
    "table": "a learned position table's entries (clips 09 and 14)",
    "output shifts": "ΔY: how far RoPE's outputs move when every position slides by s, V alone and V rotated (clip 11)",
    "output changes": "‖Δyₙ‖ ≥ 0: how far each past output moves when a token is appended (clip 05; a grey map, black to "
                      "white, on a log scale (decades below the smallest change keep it a visible grey), without the highlight's yellow or a signed map's blue; an exact 0 "
                      "is left unpainted, black as the map's 0)",
}
FROM_CONFIG = ("weights", "inputs", "outputs", "scores", "encodings", "angles")
# quantities painted with a signed square-root stretch (declared by their colour bars' ticks): one large value
# among many small ones would otherwise wash the crowd out to the diverging map's white middle
STRETCHED = {"sentence vectors": 0.5}


class UnknownQuantity(KeyError):
    pass


def scale(quantity: str, cfg, values=None):
    """The deck's colour scale for ``quantity`` under config ``cfg`` (a ``ColorScale`` whose ``quantity``
    is set).  Quantities of :data:`FROM_CONFIG` ignore ``values``; the others are made from ``values``
    (an array or a list of arrays: everything the clip shows of that quantity)."""
    if quantity not in QUANTITIES:
        raise UnknownQuantity(f"no colour scale for {quantity!r}; the deck's quantities: {', '.join(QUANTITIES)}")
    if quantity in FROM_CONFIG:
        return _from_config(quantity, _config_key(cfg))
    if values is None:
        raise ValueError(f"the {quantity!r} scale is made from the values the clip shows: pass values=")
    return _from_values(quantity, cfg, values)


def _config_key(cfg) -> tuple:
    return (cfg.T, cfg.d, cfg.seed, cfg.cmap_weights, cfg.cmap_signed, cfg.cmap_angles,
            float(getattr(cfg, "rope_base", 10000.0)))


def _tag(s, quantity: str):
    s.quantity = quantity
    return s


@lru_cache(maxsize=64)
def _from_config(quantity: str, key: tuple):
    from .theme import ColorScale

    T, d, seed, cmap_weights, cmap_signed, cmap_angles, base = key
    if quantity == "weights":
        return _tag(ColorScale(cmap_weights, 0.0, 1.0), quantity)
    if quantity == "encodings":
        return _tag(ColorScale(cmap_signed, -1.0, 1.0), quantity)
    if quantity == "angles":
        return _tag(ColorScale(cmap_angles, 0.0, 2 * np.pi), quantity)
    values = _lecture_values(T, d, seed, base)
    return _tag(ColorScale.symmetric(cmap_signed, values[quantity]), quantity)


ROPE_SHIFT = 3  # a shift of every position whose RoPE outputs the deck's outputs scale holds (kept: clip 15's recap)


def rope_shift(d: int, base: float = 10000.0, s_max: int = 1000) -> int:
    """The shift clip 11 shows: the smallest ``s`` (1 to ``s_max``) that turns the first pair by ``s θ₀`` between
    60° and 120° (mod 360°), so a turn reads as a turn (at ``s θ₀ ≈ π`` every hand ends opposite where it was: a
    flip), computed from the rates; ``ROPE_SHIFT`` when no shift does."""
    from mathcore import rope_frequencies

    theta0 = float(rope_frequencies(d, base)[0])
    for s in range(1, s_max + 1):
        if np.pi / 3 <= (s * theta0) % (2 * np.pi) <= 2 * np.pi / 3:
            return s
    return ROPE_SHIFT


@lru_cache(maxsize=16)
def _lecture_values(T: int, d: int, seed: int, base: float = 10000.0) -> dict[str, list[np.ndarray]]:
    """What the deck computes from the lecture's inputs, by quantity: the inputs and their projections,
    the outputs of self-attention and of causal attention (with the values V they average: clips 04 and 05
    draw V and Y on one scale; and of bidirectional attention over every
    prefix, which a decoder without the mask would recompute: clip 05; and of RoPE self-attention, V left
    alone and V rotated, at positions 0 to T−1 and ``ROPE_SHIFT`` later, and their difference ΔY), and every
    finite score.  The inputs
    include what clip 09 shows them become: plus a learned table's rows (drawn like ``learned_absolute_position``:
    its first T rows do not depend on the table's length), plus the sinusoidal rows, and the queries RoPE turns."""
    from mathcore import lecture_inputs
    from mathcore.attention import self_attention_trace

    inp = lecture_inputs(T, d, seed)
    out: dict[str, list[np.ndarray]] = {"inputs": [inp.X], "outputs": [], "scores": []}
    for causal in (False, True):
        tr = self_attention_trace(inp.X, inp.Wq, inp.Wk, inp.Wv, causal=causal)
        out["inputs"] += [tr.Q, tr.K, tr.V]
        out["outputs"].append(tr.output)
        if causal:  # the values the outputs average (causally y₀ is v₀ itself: one row, one colour; clips 04, 05)
            out["outputs"].append(tr.V)
        s = np.asarray(tr.scaled, dtype=float)
        out["scores"].append(s[np.isfinite(s)])
    from mathcore.causal import prefix_outputs

    out["outputs"] += prefix_outputs(inp.X, inp.Wq, inp.Wk, inp.Wv, causal=False)
    from mathcore.positions import learned_absolute_table

    out["inputs"].append(inp.X + learned_absolute_table(d, T, seed))  # X plus a learned table's first T rows (clip 09)
    if d % 2 == 0:  # the tokens with their sinusoidal positions added, and the queries RoPE turns (clip 09)
        from mathcore import apply_rope, my_sinusoidal_position

        out["inputs"] += [inp.X + my_sinusoidal_position(T, d, base), apply_rope(inp.X @ inp.Wq, base=base)]
    if d % 2 == 0:  # RoPE rotates pairs of features
        from mathcore.rope_measures import rope_self_attention_trace

        for rotate_v in (False, True):
            for moved in sorted({ROPE_SHIFT, rope_shift(d, base)}):  # clip 11's shift, and the one kept before it
                ys = [rope_self_attention_trace(inp.X, inp.Wq, inp.Wk, inp.Wv, np.arange(T, dtype=float) + shift, base,
                                                rotate_v=rotate_v).output for shift in (0, moved)]
                # and what the shift does to them, ΔY (clip 11 paints it in the outputs' colours, on their one bar)
                out["outputs"] += [*ys, ys[1] - ys[0]]
    return out


def _from_values(quantity: str, cfg, values):
    from .theme import ColorScale

    if quantity == "slow angles":
        arrays = values if isinstance(values, (list, tuple)) else [values]
        f = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays])
        f = f[np.isfinite(f)]
        lo, hi = (float(np.floor(f.min())), float(np.ceil(f.max()))) if f.size else (0.0, 1.0)
        cmap = LOG_ANGLE_CMAP if getattr(cfg, "cmap_weights", None) != LOG_ANGLE_CMAP else LOG_ANGLE_SPARE
        return _tag(ColorScale(cmap, lo, max(hi, lo + 1)), quantity)
    if quantity == "output changes":
        arrays = values if isinstance(values, (list, tuple)) else [values]
        f = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays])
        f = f[np.isfinite(f)]
        pos = f[f > 0]
        if not pos.size:
            return _tag(ColorScale(CHANGE_CMAP, 0.0, 1.0), quantity)
        return _tag(change_scale(float(pos.min()), float(pos.max())), quantity)
    s = ColorScale.symmetric(cfg.cmap_signed, values)
    if quantity in STRETCHED:
        s = ColorScale(s.name, s.vmin, s.vmax, gamma=STRETCHED[quantity])
    return _tag(s, quantity)


CHANGE_FLOOR = 0.25  # where the smallest change sits along the changes' log bar, at least: a grey, never black


def change_scale(lo: float, hi: float):
    """The "output changes" scale for changes from ``lo`` to ``hi`` (both > 0): logarithmic, from whole decades
    below ``lo`` (the fewest, at least one, that put ``lo`` at ``CHANGE_FLOOR`` of the bar or higher: every cell
    that moved is a visible grey, none black) to ``hi`` (white)."""
    import math as _m

    from .theme import ColorScale

    e = _m.floor(_m.log10(lo))
    top = _m.log10(hi) if hi > lo else _m.log10(lo) + 1.0
    k = 1
    while (_m.log10(lo) - (e - k)) / (top - (e - k)) < CHANGE_FLOOR:
        k += 1
    return ColorScale(CHANGE_CMAP, 10.0 ** (e - k), 10.0 ** top, log=True)


def signature(s) -> tuple:
    """What makes two scales paint alike: colormap, ends and stretch."""
    return (s.name, round(float(s.vmin), 12), round(float(s.vmax), 12), s.gamma)
