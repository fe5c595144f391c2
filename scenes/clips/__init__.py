"""The lecture's clips, one module a clip: ``cNN_slug.py`` holds clip NN's scene (``scenes.catalog``
names them).  A clip module imports mathcore, the catalog, the kit and the figures, never another
clip; ``manim -ql scenes/clips/c01_permutation_matrix.py PermutationMatrix`` renders one directly."""
