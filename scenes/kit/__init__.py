"""The shared kit every clip is drawn with: theme, widgets, base scene."""

from .base import Caption, ClipScene, NarrationError, narration, narration_file, reading_time
from .theme import (
    ACCENT,
    BAD,
    BG,
    BLUE,
    DIM,
    FAINT,
    FG,
    GOOD,
    HEADING,
    LABEL,
    PROPERTY_COLORS,
    PURPLE,
    SMALL,
    TITLE,
    ColorScale,
    family_color,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    register_fonts,
    token_color,
)
from .widgets import Bracket, ColorBar, Heatmap, LabelledMatrix, TokenRow, VectorDial
from .motion import Readout, swap
from .layout import Layout, LayoutError, Region, fit_label, overlay, background, place_annotations
from .plots import Plot, downsample_minmax
