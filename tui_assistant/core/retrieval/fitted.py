"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.6905,
    word_share=0.9199,
    meaning=1.7952,
    opening=-0.7279,
    title_share=3.4256,
    announcement=-0.7289,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=7.0678,
    word_share=1.3413,
    meaning=0.0000,
    opening=-0.4387,
    title_share=4.0333,
    announcement=-1.2696,
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
            "section_lead",
            "neighbour",
        ),
        coefficients=(
            2.0721,
            0.2896,
            0.5232,
            0.2738,
            0.2858,
            0.3527,
            0.3772,
            0.1089,
        ),
        intercept=-3.5053,
    ),
    offer=Logistic(
        names=(
            "closeness",
            "standing",
            "evidence",
            "unknown_share",
        ),
        coefficients=(
            2.9727,
            0.5766,
            1.3367,
            -2.8611,
        ),
        intercept=-2.4714,
    ),
    answer_at=0.8152,
    close_at=0.7880,
    offer_agreed=True,
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
            0.2250,
            0.7143,
            0.8620,
            -0.3359,
            1.3723,
            0.5246,
            0.0244,
        ),
        intercept=-3.1925,
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
            1.1962,
            1.3898,
            0.0797,
            3.0834,
            -1.9608,
        ),
        intercept=-1.9599,
    ),
    answer_at=0.8592,
    close_at=0.6865,
    offer_agreed=False,
)
