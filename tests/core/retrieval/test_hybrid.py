"""Hybrid retrieval: the lexical ranking and best-piece cosine similarity, fused, judged
by a confidence model. Vectors are made by hand: each passage points along its own axis,
and a question's vector says which passage it means. Tests of the ranking use a model
that is always sure; tests of the decisions use hand-made models or clear-cut cases."""

from __future__ import annotations

from collections.abc import Callable

import pytest

# The `semantic` extra (CI installs it); without it these tests cannot run.
pytest.importorskip("numpy")

import numpy as np
from numpy.typing import NDArray

from tests.helpers import library_of
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.dense import PassageVectors
from tui_assistant.core.retrieval.hybrid import HybridRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import NEAREST_SHOWN, Evidence, NoEvidence
from tui_assistant.core.words import stem

PASSAGES = [
    ("pasta-water", "Pasta water", "Salt the water with ten grams per litre once it boils."),
    ("boiled-eggs", "Boiled eggs", "Cook the eggs six minutes for a runny yolk."),
    ("knife-care", "Knife care", "Hone the blade on a steel rod before each use."),
    ("bread", "Bread dough", "Knead the dough for ten minutes until it is smooth."),
    ("rice", "Rice", "Rinse the rice, then simmer it covered for twelve minutes."),
]
DIMENSIONS = len(PASSAGES) + 1  # the last axis belongs to no passage


def unit(*values: float) -> NDArray[np.float32]:
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[: len(values)] = values
    return vector / np.float32(np.linalg.norm(vector))


def axis(number: int) -> NDArray[np.float32]:
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[number] = 1.0
    return vector


@pytest.fixture
def library() -> Library:
    return library_of(
        Passage(id=pid, title=title, text=text, source_path=f"lessons/{pid}.md")
        for pid, title, text in PASSAGES
    )


def number(library: Library, passage_id: str) -> int:
    found = library.number_of(passage_id)
    assert found is not None
    return found


def vectors_by_axis(
    library: Library, extra: dict[str, NDArray[np.float32]] | None = None
) -> PassageVectors:
    """One piece per passage along its own axis, plus `extra` pieces for some passages."""
    rows = [axis(number) for number in range(len(library))]
    owners = list(range(len(library)))
    for passage_id, vector in (extra or {}).items():
        rows.append(vector)
        owners.append(number(library, passage_id))
    return PassageVectors(np.stack(rows), np.asarray(owners, dtype=np.int32))


# Sure of every best passage: for tests of what the ranking puts first.
CERTAIN = Logistic(names=(), coefficients=(), intercept=10.0)
ALWAYS_SURE = ConfidenceModel(sure=CERTAIN, offer=CERTAIN, answer_at=0.5, close_at=0.1)
# Passages point along their own axes, so the background is 0 and closeness is the
# cosine: sure from a cosine of about 0.72, a candidate from about 0.36.
BY_CLOSENESS = Logistic(names=("closeness",), coefficients=(10.0,), intercept=-5.0)
BY_COSINE = ConfidenceModel(sure=BY_CLOSENESS, offer=BY_CLOSENESS, answer_at=0.9, close_at=0.2)


def retriever(
    library: Library,
    question_vector: NDArray[np.float32],
    vectors: PassageVectors | None = None,
    model: ConfidenceModel = ALWAYS_SURE,
) -> HybridRetriever:
    return HybridRetriever(
        library, vectors or vectors_by_axis(library), lambda question: question_vector, model
    )


def toward(library: Library, passage_id: str, closeness: float = 0.8) -> NDArray[np.float32]:
    """A question vector whose cosine with the passage's axis is `closeness`."""
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[number(library, passage_id)] = closeness
    vector[-1] = np.sqrt(1 - closeness**2)
    return vector


def test_a_question_sharing_no_word_is_answered_by_the_passage_closest_in_meaning(
    library: Library,
) -> None:
    question = "how do I keep an edge sharp"
    # No word in common: the lexical ranking alone refuses.
    assert isinstance(RankedRetriever(library).retrieve(question), NoEvidence)
    found = retriever(library, toward(library, "knife-care")).retrieve(question)
    assert isinstance(found, Evidence)
    assert found.passage.id == "knife-care"
    assert found.mode == "hybrid"
    assert found.matched_words == ()
    assert found.score == pytest.approx(0.8, abs=1e-4)


def test_the_passage_both_rankings_put_first_wins(library: Library) -> None:
    question = "how many grams of salt per litre of pasta water"
    assert RankedRetriever(library).rank(question) is not None
    found = retriever(library, unit(0.8, 0.3, 0.2, 0.1, 0.1)).retrieve(question)
    assert isinstance(found, Evidence) and found.passage.id == "pasta-water"


def test_agreement_of_both_rankings_beats_one_ranking_alone(library: Library) -> None:
    # "dough" and "knead" point lexically at bread only; the meaning is nearest to rice
    # and second nearest to bread, so bread is near the top of both rankings.
    question = "knead dough"
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[number(library, "rice")] = 0.7
    vector[number(library, "bread")] = 0.6
    vector[-1] = 0.3
    vector /= np.linalg.norm(vector)
    found = retriever(library, vector).retrieve(question, count=2)
    assert isinstance(found, Evidence)
    assert [passage.id for passage in found.passages] == ["bread", "rice"]


def test_nothing_close_in_meaning_is_refused_with_the_nearest_passages(
    library: Library,
) -> None:
    # Every passage far from the question, rice closest, then eggs, then pasta.
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    for passage_id, closeness in [("rice", 0.3), ("boiled-eggs", 0.2), ("pasta-water", 0.1)]:
        vector[number(library, passage_id)] = closeness
    vector[-1] = np.sqrt(1 - float(np.sum(vector**2)))
    hybrid = retriever(library, vector, model=BY_COSINE)
    refused = hybrid.retrieve("What is the capital of France?", count=3)
    assert isinstance(refused, NoEvidence) and not refused.ambiguous
    assert refused.mode == "hybrid"
    assert len(refused.nearest) == NEAREST_SHOWN == len(PASSAGES)
    assert [passage.id for passage in refused.nearest][:3] == ["rice", "boiled-eggs", "pasta-water"]


def test_the_model_decides_between_answer_candidates_and_refusal(library: Library) -> None:
    sure = retriever(library, toward(library, "rice", 0.8), model=BY_COSINE)
    unsure = retriever(library, toward(library, "rice", 0.5), model=BY_COSINE)
    far = retriever(library, toward(library, "rice", 0.2), model=BY_COSINE)
    assert isinstance(sure.retrieve("what now"), Evidence)
    candidates = unsure.retrieve("what now")
    assert isinstance(candidates, NoEvidence) and candidates.ambiguous
    assert candidates.nearest[0].id == "rice"
    refused = far.retrieve("what now")
    assert isinstance(refused, NoEvidence) and not refused.ambiguous


def test_several_passages_are_distinct_best_first_with_the_same_best(library: Library) -> None:
    # Knife care has two pieces near the question: it must still be listed once.
    extra = {"knife-care": unit(0.0, 0.3, 0.9, 0.0, 0.0, 0.3)}
    vectors = vectors_by_axis(library, extra)
    vector = unit(0.2, 0.5, 0.8, 0.1, 0.0, 0.2)
    hybrid = retriever(library, vector, vectors)
    one = hybrid.retrieve("which one", count=1)
    three = hybrid.retrieve("which one", count=3)
    assert isinstance(one, Evidence) and isinstance(three, Evidence)
    assert len(one.passages) == 1
    ids = [passage.id for passage in three.passages]
    assert ids == ["knife-care", "boiled-eggs", "pasta-water"]
    assert three.passage == one.passage
    # More than the library holds: each passage once.
    everything = hybrid.retrieve("which one", count=len(library) + 3)
    assert isinstance(everything, Evidence)
    assert sorted(passage.id for passage in everything.passages) == sorted(
        pid for pid, _, _ in PASSAGES
    )


def test_matched_words_are_the_question_keys_in_the_best_passage(library: Library) -> None:
    question = "Should the pasta water get salt, like eggs do?"
    found = retriever(library, toward(library, "pasta-water")).retrieve(question)
    assert isinstance(found, Evidence) and found.passage.id == "pasta-water"
    # "eggs" is in another passage, not the best one.
    assert found.matched_words == tuple(map(stem, ["pasta", "water", "salt"]))


def test_matched_words_hold_a_mistyped_question_word_as_the_word_it_meant(
    library: Library,
) -> None:
    # The evidence pane marks the passage at these words, so a typo must not lose one.
    found = retriever(library, toward(library, "boiled-eggs")).retrieve(
        "how long should i boil an egg for a runnny yollk"
    )
    assert isinstance(found, Evidence) and found.passage.id == "boiled-eggs"
    assert stem("runny") in found.matched_words
    assert stem("yolk") in found.matched_words


def test_signals_say_whether_both_rankings_agree_and_how_close_the_best_is(
    library: Library,
) -> None:
    question = "runny yolk eggs"
    agreed = retriever(library, toward(library, "boiled-eggs", 0.7)).fused(question)
    assert agreed.signals.cosine == pytest.approx(0.7, abs=1e-4)
    # Passages on their own axes meet at 0: the background, so closeness is the cosine.
    assert agreed.signals.closeness == pytest.approx(0.7, abs=1e-4)
    assert agreed.signals.word_rank_of_meaning_best == 1.0
    assert agreed.signals.meaning_rank_of_word_best == 1.0
    assert agreed.signals.matched_share == pytest.approx(1.0)
    assert agreed.signals.neighbour == 0.0  # every passage is its own document
    # Its section lead counts as far as it is close to the question.
    assert agreed.signals.section_lead > 0.0
    assert agreed.signals.close_lead == pytest.approx(0.7 * agreed.signals.section_lead, abs=1e-3)
    # The words point at the eggs, the meaning at rice: the rankings disagree.
    disputed = retriever(library, toward(library, "rice", 0.7)).fused(question)
    assert disputed.signals.word_rank_of_meaning_best == 0.0  # rice holds none of the words
    assert disputed.signals.meaning_rank_of_word_best < 1.0
    # At the library's background or below it, no lead counts.
    far = retriever(library, toward(library, "rice", -0.3)).fused(question)
    assert far.signals.closeness <= 0.0 < far.signals.section_lead
    assert far.signals.close_lead == 0.0


def test_the_shipped_model_answers_when_both_rankings_agree_on_a_close_passage(
    library: Library,
) -> None:
    hybrid = HybridRetriever(
        library, vectors_by_axis(library), lambda question: toward(library, "boiled-eggs", 0.9)
    )
    found = hybrid.retrieve("How long do I cook eggs for a runny yolk?")
    assert isinstance(found, Evidence) and found.passage.id == "boiled-eggs"
    assert found.confidence is not None and found.confidence >= hybrid.model.answer_at


COPIES = [
    (
        "providers/aws/guide/functions.md",
        "Functions",
        "Set the memory size of each function in MB.",
    ),
    (
        "providers/azure/guide/functions.md",
        "Functions",
        "Set the memory size of each function in MB.",
    ),
    (
        "providers/google/guide/functions.md",
        "Functions",
        "Set the memory size of each function in MB.",
    ),
    ("guide/plugins.md", "Plugins", "Install plugins with the plugin install command."),
]


@pytest.fixture
def copies() -> Library:
    return library_of(
        Passage(id=path[: -len(".md")], title=title, text=text, source_path=f"docs/{path}")
        for path, title, text in COPIES
    )


def copies_retriever(library: Library) -> HybridRetriever:
    # The three copies mean the same: one vector for all of them.
    same = axis(0)
    rows = [same, same, same, axis(1)]
    vectors = PassageVectors(np.stack(rows), np.arange(len(rows), dtype=np.int32))
    return HybridRetriever(library, vectors, lambda question: toward_axis(0, 0.9))


def toward_axis(axis_number: int, closeness: float) -> NDArray[np.float32]:
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[axis_number] = closeness
    vector[-1] = np.sqrt(1 - closeness**2)
    return vector


def test_copies_of_a_page_for_several_providers_make_a_question_without_one_ambiguous(
    copies: Library,
) -> None:
    refusal = copies_retriever(copies).retrieve("How do I set the memory size of a function?")
    assert isinstance(refusal, NoEvidence) and refusal.ambiguous
    assert {passage.id for passage in refusal.nearest} >= {
        "providers/aws/guide/functions",
        "providers/azure/guide/functions",
        "providers/google/guide/functions",
    }


@pytest.mark.parametrize("provider", ["aws", "azure", "google"])
def test_the_provider_named_in_the_question_decides_between_copies(
    copies: Library, provider: str
) -> None:
    hybrid = copies_retriever(copies)
    question = f"How do I set the memory size of a function on {provider}?"
    found = hybrid.retrieve(question)
    # Answered, or not sure with the provider's copy shown first: never another copy.
    first = found.passage if isinstance(found, Evidence) else found.nearest[0]
    assert isinstance(found, Evidence) or found.ambiguous
    assert first.id == f"providers/{provider}/guide/functions"


def test_scored_gives_the_fused_order_with_cosines_also_when_nothing_is_close(
    library: Library,
) -> None:
    close = retriever(library, toward(library, "rice", 0.9))
    scored = close.search("rinse the rice", 1, 2).scored
    assert library.passage(scored[0][0]).id == "rice"
    assert scored[0][1] == pytest.approx(0.9, abs=1e-3)
    far = retriever(library, toward(library, "bread", 0.1), model=BY_COSINE)
    assert isinstance(far.retrieve("what is the moon made of"), NoEvidence)
    assert len(far.search("what is the moon made of", 1, 3).scored) == 3


def rice_recording(library: Library, asked: list[str]) -> Callable[[str], NDArray[np.float32]]:
    """An embedding of every question toward the rice passage that keeps what it was asked."""

    def embed(question: str) -> NDArray[np.float32]:
        asked.append(question)
        return toward(library, "rice", 0.9)

    return embed


def test_a_search_embeds_its_question_once_for_its_verdict_and_its_scores(
    library: Library,
) -> None:
    asked: list[str] = []
    hybrid = HybridRetriever(library, vectors_by_axis(library), rice_recording(library, asked))
    search = hybrid.search("rinse the rice", 1, 3)
    assert asked == ["rinse the rice"]
    assert search.found == hybrid.retrieve("rinse the rice")
    assert len(search.scored) == 3


def test_a_mistyped_word_is_given_to_the_model_as_the_word_the_model_and_library_know(
    library: Library,
) -> None:
    asked: list[str] = []
    embed = rice_recording(library, asked)
    vocabulary = ["rinse", "rice", "simmer", "salmon"]
    hybrid = HybridRetriever(
        library, vectors_by_axis(library), embed, ALWAYS_SURE, vocabulary=vocabulary
    )
    found = hybrid.retrieve("how long to simmmer salmon")
    # "simmmer" is neither the model's word nor the library's; "salmon" is the model's.
    assert asked == ["how long to simmer salmon"]
    assert isinstance(found, Evidence) and found.passage.id == "rice"
