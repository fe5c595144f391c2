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
    PURPLE,
    SMALL,
    TITLE,
    ColorScale,
    fmt_measure,
    fmt_value,
    label,
    math,
    mono,
    register_fonts,
    token_color,
)
from .widgets import Bracket, Heatmap, LabelledMatrix, TokenRow, VectorDial
from .plots import Plot, downsample_minmax
