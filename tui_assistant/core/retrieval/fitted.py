"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=3.0103,
    word_share=1.3104,
    meaning=1.6111,
    opening=-0.1416,
    title_share=3.0998,
    announcement=-1.3919,
    pair_share=2.0472,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=5.8514,
    word_share=0.8725,
    meaning=0.0000,
    opening=-0.0493,
    title_share=3.3760,
    announcement=-1.5564,
    pair_share=2.3693,
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
            -0.0148,
            0.1166,
            0.4193,
            0.4806,
            0.4684,
            0.5724,
            1.3633,
            0.1407,
        ),
        intercept=-2.6477,
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
            2.6946,
            0.2556,
            1.0762,
            -5.6048,
            0.6790,
            0.5276,
        ),
        intercept=-0.9888,
    ),
    answer_at=0.9842,
    close_at=0.7546,
)
RANKED_MODEL = ConfidenceModel(
    sure=Logistic(
        names=(
            "evidence",
            "title_evidence",
            "known_share",
            "matched_share",
            "section_lead",
            "sole_match",
        ),
        coefficients=(
            0.4967,
            0.8312,
            -0.4567,
            1.6627,
            0.6118,
            0.1392,
        ),
        intercept=-3.0464,
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
            1.0870,
            1.5469,
            0.1096,
            3.5413,
            -3.3578,
        ),
        intercept=-1.7277,
    ),
    answer_at=0.9531,
    close_at=0.7695,
)
