"""The keyword rule, one test per clause, so breaking any clause fails a test; and the
same rule against a plain reference on random libraries and questions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from hypothesis import assume, given
from hypothesis import strategies as st

from tests.helpers import BUNDLED_LESSONS, library_of, memory_library
from tests.helpers.properties import (
    PROPERTY,
    any_text,
    stopwords,
    text_without_escapes,
    vocabulary_words,
)
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.retrieval.keyword import (
    BODY_WEIGHT,
    MIN_DISTINCT_MATCHES,
    TITLE_WEIGHT,
    KeywordRetriever,
)
from tui_assistant.core.retrieval.types import (
    NO_SHARED_WORD,
    TIE,
    TOO_LITTLE_MATCHED,
    Evidence,
    NoEvidence,
)
from tui_assistant.core.words import normalise_distinct

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]


def retrieve(folder: Path, question: str, count: int = 1) -> Evidence | NoEvidence:
    return KeywordRetriever(memory_library(folder)).retrieve(question, count)


def winner(folder: Path, question: str) -> str | None:
    evidence = retrieve(folder, question)
    return evidence.passage.id if isinstance(evidence, Evidence) else None


def test_the_pasta_water_question_finds_the_pasta_passage() -> None:
    evidence = retrieve(BUNDLED_LESSONS, "How much salt should I add to pasta water?")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "pasta-water"
    assert evidence.passage.source_path == "lessons/pasta-water.md"


def test_unrelated_question_finds_nothing_in_bundled_lessons() -> None:
    assert isinstance(retrieve(BUNDLED_LESSONS, "What is the capital of France?"), NoEvidence)


def test_repeating_a_question_word_does_not_raise_a_score(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "alpha": ("Alpha", "Salt and pepper."),
            "beta": ("Beta", "Pepper, thyme and garlic."),
        }
    )
    # Counted by occurrence, "salt" x3 would make alpha win 4 to 3.
    assert winner(folder, "salt salt salt pepper thyme garlic") == "beta"


def test_repeating_a_word_in_a_passage_does_not_raise_its_score(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "alpha": ("Alpha", "Salt salt salt salt salt and pepper pepper."),
            "beta": ("Beta", "Salt, pepper and thyme."),
        }
    )
    assert winner(folder, "salt pepper thyme") == "beta"


def test_a_title_word_scores_two_and_a_body_word_one(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "titled": ("Salt and pepper", "Nothing else here."),
            "wordy": ("Kitchen notes", "Salt, pepper and thyme."),
        }
    )
    evidence = retrieve(folder, "salt pepper thyme")
    assert isinstance(evidence, Evidence)
    assert (evidence.passage.id, evidence.score, evidence.runner_up_score) == ("titled", 4, 3)


def test_a_word_in_title_and_body_counts_once(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "both": ("Salt", "Salt and pepper."),
            "body": ("Kitchen notes", "Salt, pepper and thyme."),
        }
    )
    # 2 (salt, title) + 1 (pepper) = 3 ties with 1 + 1 + 1 = 3: no passage.
    assert winner(folder, "salt pepper thyme") is None


def test_one_matching_word_is_never_enough(make_library: MakeLibrary) -> None:
    folder = make_library({"salt": ("Salt", "All about salt and nothing more.")})
    assert winner(folder, "salt") is None
    assert winner(folder, "salt crystals") is None
    assert winner(folder, "salt nothing") == "salt"


def test_a_tie_at_the_best_score_returns_no_passage(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "first": ("First", "Boil the eggs."),
            "second": ("Second", "Boil more eggs."),
            "third": ("Third", "Something else."),
        }
    )
    assert winner(folder, "boil eggs") is None


def test_a_tie_below_the_best_score_does_not_matter(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "best": ("Boiling eggs", "Boil the eggs for six minutes."),
            "second": ("Second", "Boil more eggs."),
            "third": ("Third", "Boil eggs too."),
        }
    )
    assert winner(folder, "boil eggs six minutes") == "best"


def test_stopwords_never_count_as_matches(make_library: MakeLibrary) -> None:
    folder = make_library({"note": ("What is this", "It is what it is, and how.")})
    assert winner(folder, "what is it and how is this") is None


def test_suffix_rules_let_inflections_meet(make_library: MakeLibrary) -> None:
    folder = make_library({"eggs": ("Boiling eggs", "Cook them."), "other": ("Knives", "Sharpen.")})
    assert winner(folder, "boiled egg") == "eggs"
    assert winner(folder, "sharpening knife") == "other"


def test_matching_is_by_whole_words_not_substrings(make_library: MakeLibrary) -> None:
    folder = make_library({"rock": ("Rocks", "Basalt is a dark volcanic rock.")})
    assert winner(folder, "salt rock") is None
    assert winner(folder, "basalt rock") == "rock"


def test_evidence_lists_matched_words_in_question_order(make_library: MakeLibrary) -> None:
    folder = make_library({"eggs": ("Boiling eggs", "Six minutes for a runny yolk.")})
    evidence = retrieve(folder, "Runny yolk: how many minutes to boil eggs?")
    assert isinstance(evidence, Evidence)
    assert evidence.matched_words == ("runny", "yolk", "minut", "boil", "egg")
    assert evidence.runner_up_score is None


# --- several passages: runners-up and the nearest passages of a refusal ------------


def test_count_three_gives_the_winner_then_runners_up_best_first(
    make_library: MakeLibrary,
) -> None:
    folder = make_library(
        {
            "best": ("Boiling eggs", "Boil the eggs for six minutes."),
            "second": ("Second", "Boil eggs for six hours."),
            "third": ("Third", "Boil water."),
            "fourth": ("Fourth", "Nothing to do with it."),
        }
    )
    evidence = retrieve(folder, "boil eggs six minutes", count=3)
    assert isinstance(evidence, Evidence)
    assert [passage.id for passage in evidence.passages] == ["best", "second", "third"]
    assert evidence.passage.id == "best"


def test_count_never_changes_which_passage_wins_or_its_scores(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "best": ("Boiling eggs", "Boil the eggs for six minutes."),
            "second": ("Second", "Boil eggs for six hours."),
        }
    )
    one = retrieve(folder, "boil eggs six minutes", count=1)
    five = retrieve(folder, "boil eggs six minutes", count=5)
    assert isinstance(one, Evidence) and isinstance(five, Evidence)
    assert [passage.id for passage in one.passages] == ["best"]
    assert [passage.id for passage in five.passages] == ["best", "second"]
    assert summary(one) == summary(five)


def test_a_tie_refuses_saying_so_and_offers_the_tied_passages(make_library: MakeLibrary) -> None:
    folder = make_library(
        {
            "first": ("First", "Boil the eggs."),
            "second": ("Second", "Boil more eggs."),
            "third": ("Third", "Boil water."),
            "fourth": ("Fourth", "Boil milk."),
            "fifth": ("Fifth", "Something else."),
        }
    )
    refusal = retrieve(folder, "boil eggs", count=3)
    assert isinstance(refusal, NoEvidence)
    assert refusal.why == TIE == "two passages match equally well"
    nearest = [passage.id for passage in refusal.nearest]
    # Up to five, best first: the two tied ones before the ones matching one word.
    assert len(nearest) == 4
    assert set(nearest[:2]) == {"first", "second"}
    assert set(nearest[2:]) == {"third", "fourth"}


def test_too_little_matched_refuses_with_the_nearest_passage(make_library: MakeLibrary) -> None:
    folder = make_library({"salt": ("Salt", "All about salt."), "eggs": ("Eggs", "Boil.")})
    refusal = retrieve(folder, "salt crystals")
    assert isinstance(refusal, NoEvidence)
    assert refusal.why == TOO_LITTLE_MATCHED
    assert [passage.id for passage in refusal.nearest] == ["salt"]


def test_a_question_sharing_no_word_refuses_with_nothing_to_offer(
    make_library: MakeLibrary,
) -> None:
    folder = make_library({"salt": ("Salt", "All about salt.")})
    refusal = retrieve(folder, "capital of France")
    assert isinstance(refusal, NoEvidence)
    assert refusal.why == NO_SHARED_WORD
    assert refusal.nearest == ()
    assert refusal.mode == "keyword"


# --- properties: random libraries and questions -----------------------------------


@st.composite
def libraries(draw: st.DrawFn) -> tuple[Passage, ...]:
    count = draw(st.integers(min_value=1, max_value=6))
    passages = []
    for number in range(count):
        title = " ".join(draw(st.lists(vocabulary_words, min_size=1, max_size=3)))
        body = " ".join(draw(st.lists(st.one_of(vocabulary_words, stopwords), max_size=10)))
        passages.append(
            Passage(f"passage-{number}", title, body or "text", f"lessons/passage-{number}.md")
        )
    return tuple(passages)


questions = st.lists(
    st.one_of(vocabulary_words, vocabulary_words, stopwords, st.text(max_size=8)), max_size=8
).map(" ".join)


# Without escape sequences every whitespace-separated chunk is a run of whole words.
# (An unterminated escape swallows what follows it, so "repeating" its introducer
# is not repeating a word.)
plain_questions = st.lists(
    st.one_of(vocabulary_words, vocabulary_words, stopwords, text_without_escapes),
    max_size=8,
).map(" ".join)


def expected_evidence(passages: Sequence[Passage], question: str) -> tuple[str, int] | None:
    """The distinct-word rule computed the slow, obvious way: every passage, every word."""
    keys = normalise_distinct(question)
    scored = []
    for passage in passages:
        title, body = normalise_distinct(passage.title), normalise_distinct(passage.text)
        matched = [key for key in keys if key in title or key in body]
        score = sum(TITLE_WEIGHT if key in title else BODY_WEIGHT for key in matched)
        if len(matched) >= MIN_DISTINCT_MATCHES:
            scored.append((score, passage.id))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1], scored[0][0]


def summary(
    evidence: Evidence | NoEvidence,
) -> tuple[str, float, float | None, frozenset[str]] | None:
    if isinstance(evidence, NoEvidence):
        return None
    return (
        evidence.passage.id,
        evidence.score,
        evidence.runner_up_score,
        frozenset(evidence.matched_words),
    )


@PROPERTY
@given(libraries(), questions)
def test_scorer_picks_the_unique_best_passage_with_two_distinct_matches(
    passages: tuple[Passage, ...], question: str
) -> None:
    evidence = KeywordRetriever(library_of(passages)).retrieve(question)

    expected = expected_evidence(passages, question)
    if isinstance(evidence, NoEvidence):
        assert expected is None
        return
    assert (evidence.passage.id, evidence.score) == expected
    assert len(set(evidence.matched_words)) == len(evidence.matched_words)
    assert len(evidence.matched_words) >= MIN_DISTINCT_MATCHES
    assert evidence.runner_up_score is None or evidence.runner_up_score < evidence.score


@PROPERTY
@given(libraries(), plain_questions, st.data())
def test_repeating_a_question_word_never_changes_the_result(
    passages: tuple[Passage, ...], question: str, data: st.DataObject
) -> None:
    question_words = question.split()
    assume(question_words)
    repeated = data.draw(st.sampled_from(question_words))
    position = data.draw(st.integers(min_value=0, max_value=len(question_words)))
    times = data.draw(st.integers(min_value=1, max_value=3))
    longer = question_words[:position] + [repeated] * times + question_words[position:]
    retriever = KeywordRetriever(library_of(passages))

    assert summary(retriever.retrieve(" ".join(longer))) == summary(retriever.retrieve(question))


BUNDLED_RETRIEVER = KeywordRetriever(memory_library(BUNDLED_LESSONS))


@PROPERTY
@given(any_text)
def test_scorer_takes_any_question(question: str) -> None:
    evidence = BUNDLED_RETRIEVER.retrieve(question)

    if isinstance(evidence, Evidence):
        assert len(evidence.matched_words) >= MIN_DISTINCT_MATCHES


def raw_scores(passages: Sequence[Passage], question: str) -> dict[str, int]:
    """Every passage's score under the rule (title 2, body 1), before the two-match floor."""
    keys = normalise_distinct(question)
    scores = {}
    for passage in passages:
        title, body = normalise_distinct(passage.title), normalise_distinct(passage.text)
        scores[passage.id] = sum(
            TITLE_WEIGHT if key in title else BODY_WEIGHT
            for key in keys
            if key in title or key in body
        )
    return scores


@PROPERTY
@given(libraries(), questions, st.integers(min_value=1, max_value=5))
def test_runners_up_follow_the_winner_in_score_order_whatever_the_count(
    passages: tuple[Passage, ...], question: str, count: int
) -> None:
    retriever = KeywordRetriever(library_of(passages))
    single, several = retriever.retrieve(question), retriever.retrieve(question, count)

    assert summary(several) == summary(single)
    if isinstance(several, NoEvidence):
        assert isinstance(single, NoEvidence) and several.why == single.why
        return
    chosen = [passage.id for passage in several.passages]
    assert len(chosen) == len(set(chosen)) <= count
    scores = raw_scores(passages, question)
    runners_up = [scores[passage_id] for passage_id in chosen[1:]]
    assert runners_up == sorted(runners_up, reverse=True)
    assert all(score > 0 for score in runners_up)
    left_out = [score for passage_id, score in scores.items() if passage_id not in chosen]
    if len(chosen) < count:
        assert not any(left_out)
    elif runners_up:
        assert max(left_out, default=0) <= runners_up[-1]


def test_scored_lists_the_best_passages_by_points_even_when_the_rule_refuses() -> None:
    library = library_of(
        [
            Passage("salt", "Salt", "Salt the pasta water.", "lessons/salt.md"),
            Passage("oil", "Oil", "Oil the pasta water? No.", "lessons/oil.md"),
            Passage("knife", "Knife", "Hone the blade.", "lessons/knife.md"),
        ]
    )
    retriever = KeywordRetriever(library)
    assert isinstance(retriever.retrieve("pasta water"), NoEvidence)  # a tie refuses
    search = retriever.search("pasta water", 1, 5)
    assert isinstance(search.found, NoEvidence)  # the same ranking's verdict
    scored = [(library.passage(n).id, score) for n, score in search.scored]
    assert scored == [("salt", 2.0), ("oil", 2.0)]  # the knife shares no word
    assert len(retriever.search("pasta water", 1, 1).scored) == 1
