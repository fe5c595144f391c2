"""Manim scenes, one module per clip family, plus the shared kit and the ``clips`` CLI."""
