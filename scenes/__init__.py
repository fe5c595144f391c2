"""Manim scenes, one module per clip family (``permutation``, ``equivariance``, ...), the shared
kit (``scenes.kit``) and the renderer behind the ``clips`` command (``scenes.render``)."""
