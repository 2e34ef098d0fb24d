"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.0365,
    word_share=2.5215,
    meaning=1.8602,
    opening=-0.7509,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=6.5411,
    word_share=2.013,
    meaning=0.0,
    opening=-0.3867,
    title_share=3.7715,
    announcement=-1.5166,
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
            2.5623,
            2.0690,
            0.6476,
            0.2934,
            0.3278,
            0.2195,
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
            4.3402,
            4.7328,
            -1.4842,
        ),
        intercept=-1.6280,
    ),
    answer_at=0.8266,
    close_at=0.8063,
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
            2.7346,
            2.0851,
            1.1182,
            -3.1692,
        ),
        intercept=-2.3024,
    ),
    offer=Logistic(
        names=(
            "matched_share",
            "unknown_share",
        ),
        coefficients=(
            6.2977,
            -1.6573,
        ),
        intercept=-1.1571,
    ),
    answer_at=0.7894,
    close_at=0.8180,
)
