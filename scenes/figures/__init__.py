"""Designed stills: one module per clip family (``scenes/figures/<module>.py``, named like the
scene module it draws for), each registering figure builders per scene class name::

    @still("PermutationMatrix")
    def rows_move(data, cfg) -> FigureStill: ...

A builder takes the clip's ``build_data(cfg)`` and the config and returns one
``scenes.stills.draw`` spec; a clip's first registered still is its *key figure* (the one the
handout prints).  Figure modules import mathcore and the kit, never a scene module: they read
the clip's data, they do not re-run it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIGURES_DIR = Path(__file__).resolve().parent
REGISTRY: dict[str, list[Callable]] = {}
"""Scene class name -> its still builders, in the order they were registered."""


class MissingStillError(LookupError):
    """A clip has no designed still."""


def still(scene: str) -> Callable:
    """Register the decorated ``builder(data, cfg) -> FigureStill`` as a still of ``scene``."""

    def register(builder: Callable) -> Callable:
        fns = REGISTRY.setdefault(scene, [])
        if all(f.__qualname__ != builder.__qualname__ or f.__module__ != builder.__module__ for f in fns):
            fns.append(builder)
        return builder

    return register


def _load_family(scene: str) -> None:
    from ..catalog import UnknownClipError, by_scene

    try:
        module = by_scene(scene).family
    except UnknownClipError:
        return
    if (FIGURES_DIR / f"{module}.py").exists():
        importlib.import_module(f"{__name__}.{module}")


def builders(scene: str) -> list[Callable]:
    """The still builders registered for ``scene`` (its family module is imported on first use)."""
    if scene not in REGISTRY:
        _load_family(scene)
    return list(REGISTRY.get(scene, ()))


def designed_stills(scene: str, data: Any, cfg) -> list:
    """The designed stills of ``scene`` for its data; raise :class:`MissingStillError` if none."""
    fns = builders(scene)
    if not fns:
        from ..catalog import UnknownClipError, by_scene

        try:
            where = f"scenes/figures/{by_scene(scene).family}.py"
        except UnknownClipError:
            where = "scenes/figures/"
        raise MissingStillError(f"{scene} has no designed still (register one with @still({scene!r}) in {where})")
    return [fn(data, cfg) for fn in fns]


def stills_for(scene_cls, cfg, data: Any = None) -> list:
    """A clip's designed stills, from this registry (the kit's base scene does not know about
    stills: the kit sits below the figures); :class:`MissingStillError` if it has none."""
    if data is None:
        data = scene_cls.build_data(cfg)
    return designed_stills(scene_cls.__name__, data, cfg)
