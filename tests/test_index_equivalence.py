"""The indexed keyword retriever gives exactly the answers of the rule as written.

`reference_retrieve` below is the distinct-word rule done the obvious way, lesson by
lesson, with no index: title 2, body 1 per distinct question word, at least two
distinct matches, the best score wins and a tie at the best refuses. The index, its
fast tokenizer, its bit sets and its cache round trip must agree with it on random
libraries and questions.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_assistant.core.index import InvertedIndex, key_normaliser
from tui_assistant.core.passages import Passage
from tui_assistant.core.retrieval import Evidence, KeywordRetriever
from tui_assistant.core.text import normalise


def reference_retrieve(lessons: list[Passage], question: str) -> Evidence | None:
    keys = list(dict.fromkeys(normalise(question)))
    scored: list[tuple[int, int, tuple[str, ...]]] = []
    for number, lesson in enumerate(lessons):
        title_words = set(normalise(lesson.title))
        body_words = set(normalise(lesson.text))
        score = 0
        matched: list[str] = []
        for key in keys:
            if key in title_words:
                score += 2
                matched.append(key)
            elif key in body_words:
                score += 1
                matched.append(key)
        if len(matched) >= 2:
            scored.append((score, number, tuple(matched)))
    if not scored:
        return None
    scored.sort(key=lambda row: row[0], reverse=True)
    best_score, best, matched_words = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else None
    if runner_up == best_score:
        return None
    return Evidence(lessons[best], matched_words, best_score, runner_up)


# A small vocabulary so that random lessons share words, ties happen and stems meet
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
lesson_lists = st.lists(st.tuples(texts, texts), min_size=1, max_size=12).map(
    lambda rows: [
        Passage(id=f"lesson-{number}", title=title, text=text, source_path=f"l/{number}.md")
        for number, (title, text) in enumerate(rows)
    ]
)


@settings(max_examples=300, deadline=None)
@given(lessons=lesson_lists, questions=st.lists(texts, min_size=1, max_size=5))
def test_index_retriever_answers_exactly_like_the_rule(
    lessons: list[Passage], questions: list[str]
) -> None:
    index = InvertedIndex(lessons)
    retrievers = [
        KeywordRetriever(index),
        KeywordRetriever(InvertedIndex.from_snapshot(lessons, index.snapshot())),
    ]
    for question in questions:
        expected = reference_retrieve(lessons, question)
        for retriever in retrievers:
            assert retriever.retrieve(question) == expected


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(texts, st.text(max_size=200)))
def test_fast_tokenizer_gives_the_keys_of_normalise(text: str) -> None:
    assert key_normaliser()(text) == normalise(text)


@settings(max_examples=200, deadline=None)
@given(lessons=lesson_lists)
def test_postings_list_every_lesson_holding_a_word_with_its_count(lessons: list[Passage]) -> None:
    index = InvertedIndex(lessons)
    words = {key for lesson in lessons for key in normalise(lesson.title + " " + lesson.text)}
    for word in words | {"absent"}:
        for field, postings in (("title", index.title(word)), ("text", index.body(word))):
            expected = [
                (number, normalise(getattr(lesson, field)).count(word))
                for number, lesson in enumerate(lessons)
                if word in normalise(getattr(lesson, field))
            ]
            assert list(zip(postings.lessons, postings.counts, strict=True)) == expected
    assert list(index.title_lengths) == [len(normalise(lesson.title)) for lesson in lessons]
    assert list(index.body_lengths) == [len(normalise(lesson.text)) for lesson in lessons]


def test_a_large_library_still_refuses_a_tie_and_reports_the_runner_up() -> None:
    # 200 lessons share "pasta water"; only one adds "salt" in its title.
    lessons = [
        Passage(f"lesson-{number}", "Pasta notes", "water for pasta", f"l/{number}.md")
        for number in range(200)
    ]
    tie = KeywordRetriever(InvertedIndex(lessons)).retrieve("pasta water")
    assert tie is None
    lessons[137] = Passage("lesson-137", "Salt the pasta water", "salt it well", "l/137.md")
    evidence = KeywordRetriever(InvertedIndex(lessons)).retrieve("pasta water salt")
    assert evidence is not None
    assert evidence.passage.id == "lesson-137"
    assert evidence.matched_words == ("pasta", "water", "salt")
    assert (evidence.score, evidence.runner_up_score) == (6, 3)
