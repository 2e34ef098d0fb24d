"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.2686,
    word_share=1.2258,
    meaning=1.8437,
    opening=-0.6962,
    title_share=3.4708,
    announcement=-0.6876,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=7.0860,
    word_share=1.3410,
    meaning=0.0000,
    opening=-0.4536,
    title_share=3.9852,
    announcement=-1.2754,
)
HYBRID_MODEL = ConfidenceModel(
    sure=Logistic(
        names=(
            "closeness",
            "standing",
            "evidence",
            "title_evidence",
            "word_rank_of_meaning_best",
            "meaning_rank_of_word_best",
            "close_lead",
            "neighbour",
        ),
        coefficients=(
            0.6907,
            0.2307,
            0.4866,
            0.2848,
            0.0825,
            0.7191,
            1.1805,
            0.1177,
        ),
        intercept=-2.8791,
    ),
    offer=Logistic(
        names=(
            "closeness",
            "standing",
            "evidence",
            "unknown_share",
            "word_rank_of_meaning_best",
            "meaning_rank_of_word_best",
        ),
        coefficients=(
            3.0548,
            0.6047,
            1.0265,
            -3.1233,
            -0.1964,
            1.4503,
        ),
        intercept=-2.5849,
    ),
    answer_at=0.8266,
    close_at=0.6773,
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
            0.3731,
            0.6994,
            0.9060,
            -0.4775,
            1.3843,
            0.5242,
            0.2025,
        ),
        intercept=-3.1267,
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
            1.1968,
            1.4070,
            0.0073,
            3.0535,
            -1.9444,
        ),
        intercept=-1.8134,
    ),
    answer_at=0.8750,
    close_at=0.7269,
)
