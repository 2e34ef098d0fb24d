"""The confidence model and its three decisions, with a hand-made model so the rules are
pinned, not the fitted numbers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.helpers import library_of
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.confidence import (
    MAX_CANDIDATES,
    SIGNAL_NAMES,
    Assessment,
    ConfidenceModel,
    Logistic,
    Signals,
    assess,
    conclude,
)
from tui_assistant.core.retrieval.fitted import HYBRID_MODEL, RANKED_MODEL
from tui_assistant.core.retrieval.types import NEAREST_SHOWN, Evidence, NoEvidence

# p = sigmoid(closeness - 5): sure from a closeness of about 7.2, a candidate from 3.6.
BY_CLOSENESS = Logistic(names=("closeness",), coefficients=(1.0,), intercept=-5.0)
BY_COSINE = ConfidenceModel(sure=BY_CLOSENESS, offer=BY_CLOSENESS, answer_at=0.9, close_at=0.2)


@pytest.fixture
def library() -> Library:
    return library_of(
        Passage(id=f"p{n}", title=f"Passage {n}", text=f"Text {n}.", source_path=f"lessons/p{n}.md")
        for n in range(8)
    )


def judged(cosine: float, closeness: list[float], gap: float = 0.1) -> Assessment:
    order = list(range(len(closeness)))
    return assess(BY_COSINE, order, closeness, gap, Signals(closeness=cosine * 10))


def test_the_probability_grows_with_a_signal_of_positive_weight() -> None:
    chances = [BY_COSINE.probability(Signals(closeness=c)) for c in (1.0, 4.0, 6.0, 9.0)]
    assert chances == sorted(chances)
    assert all(0.0 < chance < 1.0 for chance in chances)


def test_three_decisions_by_the_two_thresholds() -> None:
    assert BY_COSINE.decide(Signals(closeness=9.0)) == "answered"
    assert BY_COSINE.decide(Signals(closeness=5.0)) == "ambiguous"
    assert BY_COSINE.decide(Signals(closeness=1.0)) == "no_evidence"


def test_a_sure_best_passage_is_not_answered_when_the_library_likely_lacks_the_answer() -> None:
    # The best passage leads by far (sure), but the question's words are mostly unknown
    # to the library (offer): nothing is offered, let alone answered.
    model = ConfidenceModel(
        sure=Logistic(("word_lead",), (10.0,), -5.0),
        offer=Logistic(("unknown_share",), (-10.0,), 5.0),
        answer_at=0.9,
        close_at=0.5,
    )
    assert model.decide(Signals(word_lead=1.0, unknown_share=0.0)) == "answered"
    assert model.decide(Signals(word_lead=1.0, unknown_share=0.8)) == "no_evidence"
    assert model.decide(Signals(word_lead=0.3, unknown_share=0.0)) == "ambiguous"


def test_a_sure_answer_puts_its_close_runners_up_first_and_only_those_are_close(
    library: Library,
) -> None:
    # p3 is far below the best; p1 and p2 are within the gap.
    assessment = judged(0.9, [0.9, 0.85, 0.82, 0.3, 0.2])
    found = conclude(library, assessment, 5, (), 0.9, 0.85, "hybrid")
    assert isinstance(found, Evidence)
    assert [p.id for p in found.passages] == ["p0", "p1", "p2", "p3", "p4"]
    assert [p.id for p in found.close] == ["p0", "p1", "p2"]
    expected = BY_COSINE.probability(Signals(closeness=9.0))
    assert found.confidence == pytest.approx(expected, abs=1e-4)


def test_a_sure_answer_with_no_close_runner_up_sends_its_passage_alone(library: Library) -> None:
    found = conclude(library, judged(0.95, [0.95, 0.5, 0.4]), 3, (), 0.95, 0.5, "hybrid")
    assert isinstance(found, Evidence)
    assert [p.id for p in found.close] == ["p0"]
    assert len(found.passages) == 3  # the runners-up stay one key away


def test_a_sure_answer_sends_only_runners_up_as_close_as_it(library: Library) -> None:
    # p1 is a candidate-close runner-up (within the gap) but not as close as p0.
    order = [0, 1, 2]
    assessment = assess(
        BY_COSINE, order, [0.9, 0.85, 0.895], 0.1, Signals(closeness=9.0), sent_gap=0.01
    )
    found = conclude(library, assessment, 3, (), 0.9, 0.85, "hybrid")
    assert isinstance(found, Evidence)
    assert [p.id for p in found.close] == ["p0", "p2"]
    assert [p.id for p in found.passages] == ["p0", "p2", "p1"]


def test_an_ambiguous_question_lists_its_close_candidates_at_most_five(library: Library) -> None:
    closeness = [0.6, 0.6, 0.59, 0.58, 0.57, 0.56, 0.55, 0.2]
    refusal = conclude(library, judged(0.6, closeness), 3, (), 0.6, 0.6, "hybrid")
    assert isinstance(refusal, NoEvidence) and refusal.ambiguous
    assert len(refusal.nearest) == MAX_CANDIDATES == 5
    assert [p.id for p in refusal.nearest] == ["p0", "p1", "p2", "p3", "p4"]


def test_an_ambiguous_question_with_one_close_passage_still_offers_two(library: Library) -> None:
    refusal = conclude(library, judged(0.6, [0.6, 0.3, 0.2]), 3, (), 0.6, 0.3, "hybrid")
    assert isinstance(refusal, NoEvidence) and refusal.ambiguous
    assert [p.id for p in refusal.nearest] == ["p0", "p1"]


def test_nothing_close_is_no_evidence_with_the_nearest_passages(library: Library) -> None:
    refusal = conclude(library, judged(0.1, [0.1] * 8), 3, (), 0.1, 0.1, "hybrid")
    assert isinstance(refusal, NoEvidence) and not refusal.ambiguous
    assert len(refusal.nearest) == NEAREST_SHOWN


def test_a_single_plausible_passage_is_offered_not_called_nothing(library: Library) -> None:
    # One passage clears the offer bar but not the answer bar: it is the one candidate.
    assessment = judged(0.6, [0.6])
    assert assessment.decision == "ambiguous"
    assert assessment.candidates() == [0]


@pytest.mark.parametrize("model", [HYBRID_MODEL, RANKED_MODEL])
def test_the_shipped_models_are_well_formed(model: ConfidenceModel) -> None:
    for logistic in (model.sure, model.offer):
        assert set(logistic.names) <= set(SIGNAL_NAMES)
        assert len(logistic.coefficients) == len(logistic.names)
    assert 0.0 < model.answer_at < 1.0 and 0.0 < model.close_at < 1.0


def test_the_shipped_hybrid_model_trusts_agreement_and_closeness() -> None:
    # Both rankings put a passage far above the background first, it holds the
    # question's words (one in its title) and leads the others: sure. Nothing close, no
    # word of the question in the library, the rankings disagree: nothing offered.
    sure = Signals(
        closeness=0.6,
        standing=4.0,
        evidence=2.0,
        title_evidence=1.0,
        word_lead=0.6,
        matched_share=0.9,
        known_share=0.9,
        word_rank_of_meaning_best=1.0,
        meaning_rank_of_word_best=1.0,
        section_lead=3.0,
    )
    hopeless = Signals(closeness=-0.5, unknown_share=1.0)
    assert HYBRID_MODEL.decide(sure) == "answered"
    assert HYBRID_MODEL.decide(hopeless) == "no_evidence"


def test_a_lead_over_passages_on_other_things_is_not_sure_of_a_passage_far_in_meaning() -> None:
    # The bundled lessons and "How long does cooked chicken keep in the fridge?": the
    # lesson on eggs holds "cooked" and "fridge" and leads the other two lessons by as
    # much as it leads them for "How long do I boil an egg for a runny yolk?", but it is
    # hardly closer to the question than the library's background.
    lead = Signals(
        standing=1.35,
        evidence=2.1,
        unknown_share=0.2,
        word_rank_of_meaning_best=1.0,
        meaning_rank_of_word_best=1.0,
        section_lead=7.0,
    )
    far = replace(lead, closeness=0.18)
    near = replace(lead, closeness=0.74)
    assert HYBRID_MODEL.decide(far) != "answered"
    assert HYBRID_MODEL.decide(near) == "answered"


def test_agreeing_rankings_alone_do_not_offer_a_passage_far_from_the_question() -> None:
    # "What is the largest desert in the world?" over a web framework's FAQ: both
    # rankings put the same passage first, but it is less close than the library's
    # average passage and most of the question's words are not in the library.
    far = Signals(
        closeness=-0.36,
        standing=2.3,
        evidence=0.86,
        unknown_share=0.67,
        word_rank_of_meaning_best=1.0,
        meaning_rank_of_word_best=1.0,
    )
    assert HYBRID_MODEL.decide(far) == "no_evidence"


def test_the_shipped_ranked_model_is_sure_when_one_passage_holds_every_word() -> None:
    # Three rare question words, two of them in its title, and a clear lead.
    sure = Signals(
        word_lead=0.8,
        matched_share=1.0,
        known_share=1.0,
        evidence=3.0,
        title_evidence=2.0,
        section_lead=2.0,
    )
    hopeless = Signals(
        word_lead=0.0, matched_share=0.1, known_share=0.3, unknown_share=0.7, evidence=0.2
    )
    assert RANKED_MODEL.decide(sure) == "answered"
    assert RANKED_MODEL.decide(hopeless) == "no_evidence"


def test_the_only_passage_holding_every_question_word_is_answered() -> None:
    # No other passage holds any of the question's words, and none is unknown to it.
    undoubted = Signals(word_lead=1.0, matched_share=1.0, known_share=1.0, evidence=1.0)
    assert RANKED_MODEL.decide(undoubted) == "answered"
    # One unknown word, or a runner-up sharing a word, and the model decides alone.
    for doubted in (
        Signals(word_lead=0.3, matched_share=1.0, known_share=1.0, evidence=1.0),
        Signals(word_lead=1.0, matched_share=0.4, known_share=1.0, evidence=1.0),
    ):
        sure = RANKED_MODEL.probability(doubted) >= RANKED_MODEL.answer_at
        assert (RANKED_MODEL.decide(doubted) == "answered") == sure


def test_a_passage_with_a_word_of_its_own_in_a_document_with_two_is_answered() -> None:
    # Other passages share a word, but one word is this passage's alone and two are its
    # document's alone.
    pinned = Signals(
        word_lead=0.3, matched_share=1.0, known_share=1.0, own_words=1.0, document_words=2.0
    )
    assert RANKED_MODEL.decide(pinned) == "answered"
    # A word of its own in a document with only that one, or an unknown word: the
    # model decides alone.
    for doubted in (
        replace(pinned, document_words=1.0),
        replace(pinned, own_words=0.0),
        replace(pinned, matched_share=0.8),
    ):
        sure = RANKED_MODEL.probability(doubted) >= RANKED_MODEL.answer_at
        assert (RANKED_MODEL.decide(doubted) == "answered") == sure
