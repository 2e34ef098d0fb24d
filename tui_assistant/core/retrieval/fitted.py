"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=3.8685,
    word_share=0.3995,
    meaning=1.6934,
    opening=-0.5636,
    title_share=3.1128,
    announcement=-1.3680,
    pair_share=2.1719,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=6.6063,
    word_share=0.1680,
    meaning=0.0000,
    opening=-0.3658,
    title_share=3.8648,
    announcement=-1.5659,
    pair_share=2.5279,
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
            0.4059,
            0.1979,
            0.4048,
            0.4147,
            0.1883,
            0.6472,
            1.2217,
            0.1708,
        ),
        intercept=-2.7481,
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
            3.4401,
            0.4717,
            0.9717,
            -4.5020,
            0.3307,
            0.8036,
        ),
        intercept=-1.8832,
    ),
    answer_at=0.9219,
    close_at=0.7316,
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
            0.5340,
            0.8713,
            -0.7652,
            1.7751,
            0.6796,
            0.1271,
        ),
        intercept=-3.0597,
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
            1.0593,
            1.4310,
            0.1446,
            3.4112,
            -3.2212,
        ),
        intercept=-1.6741,
    ),
    answer_at=0.9283,
    close_at=0.7425,
)
