"""mathcore: the mathematics behind every clip, in pure NumPy (never imports Manim).

The notebook's names are the API: ``permutation_matrix``, ``check_equivariance_max_defect``,
``prefix_invariance_max_defect``, ``my_sinusoidal_position``, ``rope_angle_grid``, ...
"""

from .attention import (
    KERNELS,
    AttentionTrace,
    attention,
    attention_fn,
    causal_mask,
    matmul,
    self_attention,
    self_attention_trace,
    softmax,
)
from .config import ConfigError, LectureConfig, load_config
from .errors import (
    MathcoreError,
    NonFiniteError,
    NotAPermutationError,
    OddDimensionError,
    PositionError,
    PositionOutOfRangeError,
    ShapeError,
)
from .lecture import LectureInputs, SentencePair, lecture_inputs, sentence_pair
from .measure import (
    ExtrapolationReport,
    KVCacheTrace,
    KVStep,
    bidirectional_staleness,
    cosine_to_first,
    extrapolation_report,
    kv_cache_decode,
    neighbour_similarity,
    prefix_defects,
    prefix_invariance_max_defect,
    relative_score_grid,
    rope_training_coverage,
    rope_unseen_pairs,
    sinusoidal_dilution,
    toeplitz_defect,
)
from .permutation import (
    PermutationCheck,
    as_permutation,
    check_equivariance_max_defect,
    check_permutation,
    equivariance_defects,
    inverse_permutation,
    permutation_matrix,
    permutation_row_defects,
    random_permutations,
    swap_permutation,
)
from .positions import (
    apply_rope,
    learned_absolute_position,
    learned_absolute_table,
    my_sinusoidal_position,
    rope_angle_grid,
    rope_frequencies,
    sinusoidal_wavelengths,
)

__all__ = [name for name in dir() if not name.startswith("_")]
