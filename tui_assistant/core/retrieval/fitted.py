"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.0331,
    word_share=0.6785,
    meaning=1.7995,
    opening=-0.6069,
    title_share=3.2230,
    announcement=-0.7251,
    pair_share=2.0122,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=6.7827,
    word_share=0.7087,
    meaning=0.0000,
    opening=-0.5017,
    title_share=3.9574,
    announcement=-1.2508,
    pair_share=2.5014,
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
            0.5406,
            0.2061,
            0.4573,
            0.4332,
            -0.0713,
            0.8460,
            1.2787,
            0.1544,
        ),
        intercept=-2.8281,
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
            3.0976,
            0.5764,
            1.0015,
            -3.8873,
            -0.1705,
            1.5016,
        ),
        intercept=-2.4980,
    ),
    answer_at=0.8225,
    close_at=0.6515,
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
            0.5988,
            1.0102,
            -0.5323,
            1.6608,
            0.6034,
            0.1240,
        ),
        intercept=-3.1106,
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
            1.1220,
            1.4745,
            0.0543,
            3.0962,
            -2.6731,
        ),
        intercept=-1.7644,
    ),
    answer_at=0.8543,
    close_at=0.7182,
)
