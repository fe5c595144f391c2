"""The renderer behind the ``clips`` command: CLI, pipeline (planning and execution),
the per-clip worker, the joined lecture and contact sheets, stills, and the benchmark.

The clip families live one module each in ``scenes/``; the shared look in ``scenes/kit``.
"""


def scene_class(clip):
    """The Scene class of ``clip`` (a ``scenes.catalog.Clip``): its module imported on first use.
    The one place a clip's name becomes its class (the render layer may import clip modules)."""
    import importlib

    return getattr(importlib.import_module(f"scenes.{clip.module}"), clip.scene)
