"""Mobject copies, made faster and the same.

Manim copies mobjects all the time: ``Mobject.copy`` for every label taken from the kit's cache,
and ``Transform.begin`` for the start and the target of every animation it plays, skipped or
not.  A copy is ``copy.deepcopy`` of every attribute of every mobject of the family, and that was
44 % of a warm audit (clips 02, 09 and 11).  Two things make it cheaper without changing what a
copy is:

* **Sharing what nothing mutates after construction**: each glyph's parsed SVG path
  (svgelements ``Path``/``Matrix``/``Color``/``Shape``, read only to build the glyph's points)
  and every ``ManimColor`` (colour changes make new ones).  Their ``__deepcopy__`` returns the
  object itself.
* **A deep copy that does not go through ``copy.deepcopy`` for what it already knows**
  (:func:`mobject_deepcopy`): the attributes whose values are immutable (numbers, strings,
  ``None``, the colours and enums above) are taken as they are; numeric arrays are copied in
  their own memory order, as ``ndarray.__deepcopy__`` does; lists and dicts are rebuilt, and the
  mobjects in them copied by this same function; anything else goes to ``copy.deepcopy`` with the
  same memo.  An object met twice is copied once (the memo), as before.

The copy has the same attributes, of the same types, with equal values, as Manim's own
(tests/test_kit.py compares the two over every mobject of two clips' last pictures), and the frames
of a render are bit-identical.  ``scenes/render/patches.py`` installs both, with every other change the
project makes to Manim.
"""

from __future__ import annotations

import copy
import enum
import types

import numpy as np
import svgelements as se
from manim import ManimColor
from manim.constants import CapStyleType, LineJointType
from manim.mobject.mobject import Mobject

_deepcopy = copy.deepcopy
_ndarray = np.ndarray
_FAST: dict[type, bool] = {}  # a class: does it copy with mobject_deepcopy
_SETTERS: dict[type, frozenset] = {}  # a class: the names its data descriptors (properties) own


# the values a copy takes as they are: immutable, or shared on copy (share); enums copy as themselves
ATOMIC = frozenset({bool, int, float, complex, str, bytes, type(None), range, types.FunctionType,
                    types.BuiltinFunctionType, type, np.float64, np.float32, np.int64, np.int32, np.bool_,
                    ManimColor, se.Path, se.Matrix, se.Color, LineJointType, CapStyleType})


def share(self, memo):
    """``__deepcopy__`` of what nothing mutates after construction: the copy is the object itself."""
    return self


def _is_fast(t: type) -> bool:
    fast = _FAST.get(t)
    if fast is None:
        fast = _FAST[t] = getattr(t, "__deepcopy__", None) is mobject_deepcopy
    return fast


def _setters(cls: type) -> frozenset:
    names = _SETTERS.get(cls)
    if names is None:
        names = _SETTERS[cls] = frozenset(
            n for k in cls.__mro__ for n, v in vars(k).items() if hasattr(v, "__set__") and not n.startswith("__"))
    return names


def _copy(v, memo):
    t = type(v)
    if t in ATOMIC:
        return v
    r = memo.get(id(v))
    if r is not None:
        return r
    if t is _ndarray and v.dtype.kind != "O":
        r = memo[id(v)] = v.copy(order="K")
        return r
    if t is list:
        r = memo[id(v)] = []
        for x in v:
            r.append(_copy(x, memo))
        return r
    if t is dict:
        r = memo[id(v)] = {}
        for k, x in v.items():
            r[_copy(k, memo)] = _copy(x, memo)
        return r
    if _is_fast(t):
        return mobject_deepcopy(v, memo)
    if isinstance(v, enum.Enum):  # Enum.__deepcopy__ returns the member
        return v
    return _deepcopy(v, memo)


def mobject_deepcopy(self, memo):
    """``Mobject.__deepcopy__``: the same copy as Manim's, attribute by attribute (see the module)."""
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    d = result.__dict__
    atomic, get = ATOMIC, memo.get
    setters = _setters(cls)
    for k, v in self.__dict__.items():
        t = type(v)
        if t in atomic:
            r = v
        elif t is _ndarray and v.dtype.kind != "O":
            r = get(id(v))
            if r is None:
                r = memo[id(v)] = v.copy(order="K")
        else:
            r = _copy(v, memo)
        if k in setters:
            setattr(result, k, r)
        else:
            d[k] = r
    result.original_id = str(id(self))
    return result


_MANIM_DEEPCOPY = Mobject.__deepcopy__  # Manim's own, for the test that compares the two


def reset() -> None:
    """Forget which classes copy fast (their ``__deepcopy__`` was just replaced, by scenes/render/patches.py)."""
    _FAST.clear()
