"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.1705,
    word_share=2.3541,
    meaning=1.7968,
    opening=-0.7496,
)
HYBRID_MODEL = ConfidenceModel(
    sure=Logistic(
        names=(
            "closeness",
            "matched_share",
            "word_rank_of_meaning_best",
            "meaning_rank_of_word_best",
            "section_lead",
            "neighbour",
        ),
        coefficients=(
            2.7278,
            1.7762,
            0.9480,
            0.0196,
            0.3292,
            0.3284,
        ),
        intercept=-2.9099,
    ),
    offer=Logistic(
        names=(
            "closeness",
            "matched_share",
            "unknown_share",
        ),
        coefficients=(
            4.4431,
            4.7572,
            -1.4965,
        ),
        intercept=-1.6501,
    ),
    answer_at=0.8188,
    close_at=0.7878,
)
RANKED_MODEL = ConfidenceModel(
    sure=Logistic(
        names=(
            "word_lead",
            "matched_share",
            "known_share",
            "unknown_share",
        ),
        coefficients=(
            2.9188,
            2.0403,
            1.1124,
            -3.1894,
        ),
        intercept=-2.3845,
    ),
    offer=Logistic(
        names=(
            "matched_share",
            "unknown_share",
        ),
        coefficients=(
            6.2528,
            -1.6680,
        ),
        intercept=-1.1454,
    ),
    answer_at=0.7723,
    close_at=0.8366,
)
