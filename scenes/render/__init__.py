"""The renderer behind the ``clips`` command: CLI, pipeline (planning and execution),
the per-clip worker, the joined lecture and contact sheets, stills, and the benchmark.

The clip families live one module each in ``scenes/``; the shared look in ``scenes/kit``.
"""
