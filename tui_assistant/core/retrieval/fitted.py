"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=3.0262,
    word_share=1.1720,
    meaning=1.6019,
    opening=-0.1403,
    title_share=3.0410,
    announcement=-1.3801,
    pair_share=2.0744,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=5.8862,
    word_share=0.7669,
    meaning=0.0000,
    opening=-0.0506,
    title_share=3.3022,
    announcement=-1.5468,
    pair_share=2.3643,
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
            -0.0282,
            0.1080,
            0.4458,
            0.4642,
            0.5310,
            0.5682,
            1.3667,
            0.1761,
        ),
        intercept=-2.6765,
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
            2.7054,
            0.2580,
            1.0706,
            -5.6046,
            0.6729,
            0.5326,
        ),
        intercept=-0.9891,
    ),
    answer_at=0.8402,
    close_at=0.7560,
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
            0.5225,
            0.8152,
            -0.4063,
            1.6501,
            0.6364,
            0.1370,
        ),
        intercept=-3.1315,
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
            1.0840,
            1.5775,
            0.1021,
            3.5357,
            -3.3588,
        ),
        intercept=-1.7272,
    ),
    answer_at=0.8172,
    close_at=0.7700,
)
