"""The stills: designed matplotlib figures of a clip's data, for slides (dark) and print (light).

``spec``: a still is plain frozen dataclasses (:class:`~scenes.stills.spec.FigureStill` and its
panels) over the clip's own arrays and colour scales; ``text``: fonts, glyphs, mathtext and wrapping
with the shipped fonts' metrics; ``draw``: the themes and the drawing of a spec with matplotlib.
The figures (``scenes/figures/<family>.py``) build the specs; nothing here imports Manim.
"""
