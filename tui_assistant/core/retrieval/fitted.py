"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score=3.9476,
    word_share=0.7804,
    meaning=1.7918,
    opening=-0.5948,
    title_share=3.1810,
    announcement=-0.8025,
    pair_share=2.0074,
)
RANKED_SECTION_WEIGHTS = SectionWeights(
    word_score=6.7118,
    word_share=0.7886,
    meaning=0.0000,
    opening=-0.4323,
    title_share=3.8728,
    announcement=-1.3353,
    pair_share=2.4366,
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
            0.5103,
            0.2081,
            0.4886,
            0.3987,
            -0.2047,
            1.0237,
            1.2838,
            0.1475,
        ),
        intercept=-2.8913,
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
            2.9080,
            0.5568,
            1.0432,
            -4.3139,
            -0.1894,
            1.5541,
        ),
        intercept=-2.4398,
    ),
    answer_at=0.8091,
    close_at=0.6427,
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
            0.6328,
            0.8858,
            -0.6843,
            1.9061,
            0.6220,
            0.0091,
        ),
        intercept=-3.1695,
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
            1.1604,
            1.2938,
            0.2117,
            2.9542,
            -3.3233,
        ),
        intercept=-1.7798,
    ),
    answer_at=0.8456,
    close_at=0.7199,
)
