"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.1813,
    word_share=2.3387,
    meaning=1.7970,
    opening=-0.7503,
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
            2.7357,
            1.7721,
            0.9507,
            0.0198,
            0.3310,
            0.3306,
        ),
        intercept=-2.9143,
    ),
    offer=Logistic(
        names=(
            "closeness",
            "matched_share",
            "unknown_share",
        ),
        coefficients=(
            4.4655,
            4.7426,
            -1.5068,
        ),
        intercept=-1.6431,
    ),
    answer_at=0.8200,
    close_at=0.7891,
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
            2.9400,
            1.9651,
            1.1740,
            -3.2554,
        ),
        intercept=-2.3777,
    ),
    offer=Logistic(
        names=(
            "matched_share",
            "unknown_share",
        ),
        coefficients=(
            6.2531,
            -1.6849,
        ),
        intercept=-1.1306,
    ),
    answer_at=0.7716,
    close_at=0.8386,
)
