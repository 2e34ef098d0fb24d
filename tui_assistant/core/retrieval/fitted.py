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
    title_share=0.0000,
    announcement=0.0000,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=6.5408,
    word_share=2.0132,
    meaning=0.0000,
    opening=-0.3867,
    title_share=3.7716,
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
    offer_agreed=False,
)
RANKED_MODEL = ConfidenceModel(
    sure=Logistic(
        names=(
            "word_lead",
            "evidence",
            "title_evidence",
            "known_share",
            "matched_share",
            "section_lead",
            "sole_match",
        ),
        coefficients=(
            0.1266,
            0.7382,
            0.9252,
            -0.3777,
            1.4186,
            0.5032,
            0.4693,
        ),
        intercept=-3.2571,
    ),
    offer=Logistic(
        names=(
            "evidence",
            "title_evidence",
            "known_share",
            "matched_share",
            "unknown_share",
        ),
        coefficients=(
            1.3545,
            1.2668,
            -0.1145,
            2.9168,
            -2.0337,
        ),
        intercept=-2.1924,
    ),
    answer_at=0.8494,
    close_at=0.7779,
    offer_agreed=False,
)
