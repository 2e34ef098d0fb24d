"""The indexed retrievers give exactly the answers of their rules as written.

`reference_retrieve` below is the distinct-word rule done the obvious way, passage by
passage, with no index: title 2, body 1 per distinct question word, at least two
distinct matches, the best score wins and a tie at the best refuses.
`reference_ranked` is the ranked scoring (BM25F over title, body and document path, its
margin and matched share, with the words the library lacks counted twice) written out
the same way. The in-memory index and both retrievers must agree with them on random
libraries and questions.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import library_of
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.retrieval import ranked
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.types import (
    NEAREST_SHOWN,
    NO_SHARED_WORD,
    TIE,
    TOO_LITTLE_MATCHED,
    Evidence,
    NoEvidence,
)
from tui_assistant.core.words import is_cjk, match_keys, normalise_distinct


def nearest(passages: list[Passage], scores: dict[int, float]) -> tuple[Passage, ...]:
    """The passages a refusal offers: the best scores first, equal scores in library order."""
    order = sorted(
        (number for number in scores if scores[number] > 0), key=lambda n: (-scores[n], n)
    )
    return tuple(passages[number] for number in order[:NEAREST_SHOWN])


def reference_retrieve(passages: list[Passage], question: str) -> Evidence | NoEvidence:
    keys = list(dict.fromkeys(match_keys(question)))
    scored: list[tuple[int, int, tuple[str, ...]]] = []
    all_scores: dict[int, float] = {}
    for number, passage in enumerate(passages):
        title_words = set(match_keys(passage.title))
        body_words = set(match_keys(passage.text))
        score = 0
        matched: list[str] = []
        for key in keys:
            if key in title_words:
                score += 2
                matched.append(key)
            elif key in body_words:
                score += 1
                matched.append(key)
        all_scores[number] = score
        if len(matched) >= 2:
            scored.append((score, number, tuple(matched)))
    if not any(all_scores.values()):
        return NoEvidence(NO_SHARED_WORD, (), "keyword")
    if not scored:
        return NoEvidence(TOO_LITTLE_MATCHED, nearest(passages, all_scores), "keyword")
    scored.sort(key=lambda row: row[0], reverse=True)
    best_score, best, matched_words = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else None
    if runner_up == best_score:
        return NoEvidence(TIE, nearest(passages, all_scores), "keyword")
    # An outright winner is sent to a model alone.
    return Evidence((passages[best],), matched_words, best_score, runner_up, "keyword", 1)


RANKED_IGNORED = normalise_distinct(" ".join(ranked.QUESTION_WORDS))


def reference_ranked(passages: list[Passage], question: str) -> ranked.Ranking | None:
    """BM25F over title (weight 2), body (weight 1) and document path, passage by passage."""
    keys = [key for key in dict.fromkeys(match_keys(question)) if key not in RANKED_IGNORED]
    titles = [match_keys(passage.title) for passage in passages]
    bodies = [match_keys(passage.text) for passage in passages]
    # `library_of` files each passage at its source path below the library folder.
    paths = [
        list(dict.fromkeys(match_keys(passage.source_path.split("/", 1)[-1][: -len(".md")])))
        for passage in passages
    ]

    def norms(fields: list[list[str]], effect: float) -> list[float]:
        average = sum(len(field) for field in fields) / len(fields)
        if average == 0:
            return [1.0] * len(fields)
        return [1.0 - effect + effect * len(field) / average for field in fields]

    title_norms = norms(titles, ranked.TITLE_LENGTH_EFFECT)
    body_norms = norms(bodies, ranked.BODY_LENGTH_EFFECT)
    path_norms = norms(paths, ranked.PATH_LENGTH_EFFECT)
    scores: dict[int, float] = {}
    matched: dict[int, list[str]] = {}
    weights: dict[str, float] = {}
    unknown: list[str] = []
    for key in keys:
        holders = [
            number
            for number in range(len(passages))
            if key in titles[number] + bodies[number] + paths[number]
        ]
        weight = math.log(1.0 + (len(passages) - len(holders) + 0.5) / (len(holders) + 0.5))
        weights[key] = weight
        if not holders:
            unknown.append(key)
        for number in holders:
            title_count = titles[number].count(key)
            body_count = bodies[number].count(key)
            frequency = 0.0
            if title_count:
                frequency = ranked.TITLE_WEIGHT * title_count / title_norms[number]
            if body_count:
                frequency += ranked.BODY_WEIGHT * body_count / body_norms[number]
            if key in paths[number]:
                frequency += ranked.PATH_WEIGHT / path_norms[number]
            gain = weight * frequency / (ranked.SATURATION + frequency)
            scores[number] = scores.get(number, 0.0) + gain
            matched.setdefault(number, []).append(key)
    if not scores:
        return None
    order = sorted(scores, key=lambda number: (-scores[number], number))
    best = order[0]
    runner_up = scores[order[1]] if len(order) > 1 else None
    margin = 1.0 if runner_up is None else (scores[best] - runner_up) / scores[best]
    # Words the library lacks count twice in the question's weight; a CJK pair it lacks
    # counts once, and not at all when it is the seam beside a pair the best passage holds.
    sequence = match_keys(question)
    held = set(matched[best])
    seams = {
        pair
        for place, pair in enumerate(sequence)
        if pair in unknown
        and is_cjk(pair)
        and any(
            beside in held and (beside[-1] == pair[0] or beside[0] == pair[-1])
            for beside in sequence[max(place - 1, 0) : place] + sequence[place + 1 : place + 2]
        )
    }
    total = sum(weight for key, weight in weights.items() if key not in seams)
    total += sum(weights[key] for key in unknown if not is_cjk(key))
    share = sum(weights[key] for key in matched[best]) / total
    return ranked.Ranking(
        best, tuple(matched[best]), scores[best], runner_up, margin, share, tuple(unknown)
    )


# A small vocabulary so that random passages share words, ties happen and stems meet
# (boil/boiling/boiled), plus stopwords, apostrophes, digits, case and accents.
VOCABULARY = [
    "boil",
    "boiling",
    "boiled",
    "Salt",
    "salty",
    "pasta",
    "water",
    "egg",
    "eggs",
    "knife",
    "knives",
    "sharpen",
    "stone",
    "the",
    "and",
    "don't",
    "it's",
    "O'Neil's",
    "café",
    "CAFÉ",
    "naïve",
    "42",
    "7",
    "a",
    "x",
    "über",
    "ΣΟΦΙΑ",
    "straße",
    "rice",
    "pan",
    "pans",
    "oil",
    "heat",
    "heated",
    "roll",
    "rolling",
    "stir",
    "stirring",
]
SEPARATORS = [" ", "  ", ", ", ". ", "\n", "\t", "-", "_", "'", "?", "/", "—"]

phrases = st.lists(
    st.tuples(st.sampled_from(VOCABULARY), st.sampled_from(SEPARATORS)), min_size=0, max_size=12
).map(lambda parts: "".join(word + separator for word, separator in parts))
free_text = st.text(max_size=40)
texts = st.one_of(phrases, phrases, free_text)
passage_lists = st.lists(st.tuples(texts, texts), min_size=1, max_size=12).map(
    lambda rows: [
        Passage(id=f"passage-{number}", title=title, text=text, source_path=f"l/{number}.md")
        for number, (title, text) in enumerate(rows)
    ]
)


@settings(max_examples=300, deadline=None)
@given(passages=passage_lists, questions=st.lists(texts, min_size=1, max_size=5))
def test_index_retriever_answers_exactly_like_the_rule(
    passages: list[Passage], questions: list[str]
) -> None:
    retriever = KeywordRetriever(library_of(passages))
    for question in questions:
        assert retriever.retrieve(question) == reference_retrieve(passages, question)


@settings(max_examples=300, deadline=None)
@given(passages=passage_lists, questions=st.lists(texts, min_size=1, max_size=5))
def test_ranked_retriever_ranks_exactly_like_the_rule(
    passages: list[Passage], questions: list[str]
) -> None:
    # The rule as written: question words as typed (spelling is tested apart).
    retriever = ranked.RankedRetriever(library_of(passages), correct_spelling=False)
    for question in questions:
        expected = reference_ranked(passages, question)
        found = retriever.rank(question)
        if expected is None:
            assert found is None
            continue
        assert found is not None
        assert found.passage_number == expected.passage_number
        assert found.matched_words == expected.matched_words
        assert found.unknown_words == expected.unknown_words
        assert found.score == pytest.approx(expected.score)
        assert found.margin == pytest.approx(expected.margin, abs=1e-9)
        assert found.matched_share == pytest.approx(expected.matched_share)


@settings(max_examples=200, deadline=None)
@given(passages=passage_lists)
def test_postings_list_every_passage_holding_a_word_with_its_count(passages: list[Passage]) -> None:
    index = library_of(passages).index
    words = {key for passage in passages for key in match_keys(passage.title + " " + passage.text)}
    for word in words | {"absent"}:
        for field, postings in (("title", index.title(word)), ("text", index.body(word))):
            expected = [
                (number, match_keys(getattr(passage, field)).count(word))
                for number, passage in enumerate(passages)
                if word in match_keys(getattr(passage, field))
            ]
            assert list(zip(postings.numbers, postings.counts, strict=True)) == expected
    assert list(index.title_lengths) == [len(match_keys(passage.title)) for passage in passages]
    assert list(index.body_lengths) == [len(match_keys(passage.text)) for passage in passages]
    for word in words | {"absent"}:
        held = {
            number for field in (index.title(word), index.body(word)) for number in field.numbers
        }
        assert set(index.holders(word)) == held


def test_a_large_library_still_refuses_a_tie_and_reports_the_runner_up() -> None:
    # 200 passages share "pasta water"; only one adds "salt" in its title.
    passages = [
        Passage(f"passage-{number}", "Pasta notes", "water for pasta", f"l/{number}.md")
        for number in range(200)
    ]
    tie = KeywordRetriever(library_of(passages)).retrieve("pasta water")
    assert isinstance(tie, NoEvidence) and tie.why == TIE
    assert len(tie.nearest) == NEAREST_SHOWN
    passages[137] = Passage("passage-137", "Salt the pasta water", "salt it well", "l/137.md")
    evidence = KeywordRetriever(library_of(passages)).retrieve("pasta water salt")
    assert isinstance(evidence, Evidence)
    assert evidence.passage.id == "passage-137"
    assert evidence.matched_words == ("pasta", "water", "salt")
    assert (evidence.score, evidence.runner_up_score) == (6, 3)
