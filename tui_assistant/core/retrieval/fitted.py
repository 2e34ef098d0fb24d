"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.3430,
    word_share=2.4890,
    meaning=1.9055,
    opening=-0.6483,
    title_share=2.4223,
    announcement=-1.5081,
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
            "standing",
            "evidence",
            "title_evidence",
            "word_rank_of_meaning_best",
            "meaning_rank_of_word_best",
            "section_lead",
            "neighbour",
        ),
        coefficients=(
            2.4417,
            0.2154,
            0.6358,
            0.1806,
            0.4557,
            0.5045,
            0.2695,
            0.0053,
        ),
        intercept=-3.5119,
    ),
    offer=Logistic(
        names=(
            "closeness",
            "standing",
            "evidence",
            "unknown_share",
        ),
        coefficients=(
            3.8408,
            0.4568,
            1.4956,
            -2.5467,
        ),
        intercept=-2.9751,
    ),
    answer_at=0.8472,
    close_at=0.8684,
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
    answer_at=0.8662,
    close_at=0.7779,
    offer_agreed=False,
)
