"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=4.0733,
    word_share=0.6350,
    meaning=1.8166,
    opening=-0.6882,
    title_share=3.2884,
    announcement=-0.7151,
    pair_share=1.9858,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=6.6938,
    word_share=0.7197,
    meaning=0.0000,
    opening=-0.4978,
    title_share=3.9683,
    announcement=-1.2529,
    pair_share=2.4550,
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
            0.5330,
            0.2152,
            0.4816,
            0.3635,
            0.0158,
            0.7261,
            1.2838,
            0.1499,
        ),
        intercept=-2.8413,
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
            3.0753,
            0.5916,
            0.9845,
            -3.2032,
            -0.2049,
            1.4902,
        ),
        intercept=-2.4793,
    ),
    answer_at=0.8263,
    close_at=0.6794,
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
            0.6502,
            0.9231,
            -0.6665,
            1.8149,
            0.6361,
            0.1529,
        ),
        intercept=-3.1785,
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
            1.1758,
            1.3562,
            0.0191,
            3.1013,
            -1.9972,
        ),
        intercept=-1.7717,
    ),
    answer_at=0.8579,
    close_at=0.7257,
)
