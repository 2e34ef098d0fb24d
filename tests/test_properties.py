"""Property-based tests: the rules hold for any input, not only the examples we thought of.

Covers the tokenizer and normaliser, the keyword scorer, the citation check and the
document parser. Each must take arbitrary Unicode (or bytes) without an exception, and
keep its invariants.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.helpers import BUNDLED_LESSONS, memory_library
from tui_assistant.core.citations import MAX_ANSWER_CHARS, check_citations
from tui_assistant.core.library import Library, parse_document
from tui_assistant.core.passages import Passage
from tui_assistant.core.retrieval import (
    BODY_WEIGHT,
    MIN_DISTINCT_MATCHES,
    TITLE_WEIGHT,
    Evidence,
    KeywordRetriever,
)
from tui_assistant.core.text import (
    STOPWORDS,
    clean_display_text,
    normalise,
    normalise_distinct,
    words,
)

# Modest, so the whole file runs in seconds on a shared machine.
PROPERTY = settings(max_examples=200, deadline=None)

# Words that occur in the generated lessons and questions, so that matches, ties and
# refusals all happen often; a few share a stem (boil/boiling) on purpose.
VOCABULARY = [
    "salt",
    "salted",
    "water",
    "pasta",
    "egg",
    "eggs",
    "knife",
    "knives",
    "boil",
    "boiling",
    "steel",
    "yolk",
    "pot",
    "edge",
    "simmer",
    "peel",
]

vocabulary_words = st.sampled_from(VOCABULARY)
stopwords = st.sampled_from(sorted(STOPWORDS))
# Arbitrary Unicode, surrogates and controls included.
any_text = st.text(st.characters(codec=None), max_size=200)
# Text with no escape-sequence start (ESC or an 8-bit C1 introducer).
ESCAPE_STARTS = "\x1b\x90\x98\x9b\x9d\x9e\x9f"
text_without_escapes = st.text(st.characters(exclude_characters=ESCAPE_STARTS), max_size=200)
lesson_ids = st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True)


# --- tokenizer and normaliser ----------------------------------------------------


@PROPERTY
@given(any_text)
def test_normalise_takes_any_text_and_keys_are_bare_words(text: str) -> None:
    keys = normalise(text)

    for key in keys:
        assert key
        assert not any(char.isspace() for char in key)
        assert "'" not in key
    assert normalise_distinct(text) == frozenset(keys)


@PROPERTY
@given(any_text)
def test_normalise_is_the_concatenation_over_the_words(text: str) -> None:
    found = words(text)

    assert all(word and not any(char.isspace() for char in word) for word in found)
    assert normalise(text) == [key for word in found for key in normalise(word)]


@PROPERTY
@given(text_without_escapes)
def test_normalise_is_the_concatenation_over_whitespace_separated_chunks(text: str) -> None:
    assert normalise(text) == [key for chunk in text.split() for key in normalise(chunk)]


@PROPERTY
@given(
    # Escape-free: an unclosed escape sequence swallows what follows it, so inserting
    # a word after one changes what it swallows (see `without_escape_sequences`).
    st.lists(
        st.one_of(
            vocabulary_words,
            st.text(st.characters(exclude_characters=ESCAPE_STARTS), min_size=1, max_size=12),
        ),
        max_size=12,
    ),
    st.lists(stopwords, max_size=12),
    st.randoms(use_true_random=False),
)
def test_stopwords_never_contribute_a_key(
    content: list[str], extra_stopwords: list[str], random: object
) -> None:
    """Sprinkling stopwords into a text never changes its keys."""
    mixed = list(content)
    for stopword in extra_stopwords:
        mixed.insert(random.randrange(len(mixed) + 1), stopword)  # type: ignore[attr-defined]

    assert normalise(" ".join(mixed)) == normalise(" ".join(content))


def test_every_stopword_alone_has_no_key() -> None:
    for stopword in STOPWORDS:
        assert normalise(stopword) == [], stopword
        assert normalise(stopword.upper()) == [], stopword


# --- the keyword scorer ------------------------------------------------------------


@st.composite
def libraries(draw: st.DrawFn) -> tuple[Passage, ...]:
    count = draw(st.integers(min_value=1, max_value=6))
    lessons = []
    for number in range(count):
        title = " ".join(draw(st.lists(vocabulary_words, min_size=1, max_size=3)))
        body = " ".join(draw(st.lists(st.one_of(vocabulary_words, stopwords), max_size=10)))
        lessons.append(
            Passage(f"lesson-{number}", title, body or "text", f"lessons/lesson-{number}.md")
        )
    return tuple(lessons)


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


def expected_evidence(lessons: Sequence[Passage], question: str) -> tuple[str, int] | None:
    """The distinct-word rule computed the slow, obvious way: every lesson, every word."""
    keys = normalise_distinct(question)
    scored = []
    for lesson in lessons:
        title, body = normalise_distinct(lesson.title), normalise_distinct(lesson.text)
        matched = [key for key in keys if key in title or key in body]
        score = sum(TITLE_WEIGHT if key in title else BODY_WEIGHT for key in matched)
        if len(matched) >= MIN_DISTINCT_MATCHES:
            scored.append((score, lesson.id))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1], scored[0][0]


def summary(evidence: Evidence | None) -> tuple[str, float, float | None, frozenset[str]] | None:
    if evidence is None:
        return None
    return (
        evidence.passage.id,
        evidence.score,
        evidence.runner_up_score,
        frozenset(evidence.matched_words),
    )


@PROPERTY
@given(libraries(), questions)
def test_scorer_picks_the_unique_best_lesson_with_two_distinct_matches(
    lessons: tuple[Passage, ...], question: str
) -> None:
    evidence = KeywordRetriever(Library.from_passages(lessons)).retrieve(question)

    expected = expected_evidence(lessons, question)
    if evidence is None:
        assert expected is None
        return
    assert (evidence.passage.id, evidence.score) == expected
    assert len(set(evidence.matched_words)) == len(evidence.matched_words)
    assert len(evidence.matched_words) >= MIN_DISTINCT_MATCHES
    assert evidence.runner_up_score is None or evidence.runner_up_score < evidence.score


@PROPERTY
@given(libraries(), plain_questions, st.data())
def test_repeating_a_question_word_never_changes_the_result(
    lessons: tuple[Passage, ...], question: str, data: st.DataObject
) -> None:
    question_words = question.split()
    assume(question_words)
    repeated = data.draw(st.sampled_from(question_words))
    position = data.draw(st.integers(min_value=0, max_value=len(question_words)))
    times = data.draw(st.integers(min_value=1, max_value=3))
    longer = question_words[:position] + [repeated] * times + question_words[position:]
    retriever = KeywordRetriever(Library.from_passages(lessons))

    assert summary(retriever.retrieve(" ".join(longer))) == summary(retriever.retrieve(question))


BUNDLED_RETRIEVER = KeywordRetriever(memory_library(BUNDLED_LESSONS))


@PROPERTY
@given(any_text)
def test_scorer_takes_any_question(question: str) -> None:
    evidence = BUNDLED_RETRIEVER.retrieve(question)

    if evidence is not None:
        assert len(evidence.matched_words) >= MIN_DISTINCT_MATCHES


# --- the citation check ------------------------------------------------------------


@PROPERTY
@given(any_text, any_text)
def test_citation_check_takes_any_text(answer: str, evidence_id: str) -> None:
    check = check_citations(answer, evidence_id)

    assert check.accepted == (check.problem is None)


@st.composite
def accepted_answers(draw: st.DrawFn) -> tuple[str, str]:
    """An answer that cites its evidence, with arbitrary text around the markers."""
    evidence_id = draw(lesson_ids)
    marker = f"[source:{evidence_id}]"
    parts = draw(st.lists(any_text, min_size=2, max_size=4))
    answer = marker.join(parts)
    assume(check_citations(answer, evidence_id).accepted)
    return answer, evidence_id


@PROPERTY
@given(accepted_answers())
def test_an_accepted_answer_cites_exactly_its_evidence(answer_and_id: tuple[str, str]) -> None:
    answer, evidence_id = answer_and_id

    check = check_citations(answer, evidence_id)

    assert f"[source:{evidence_id}]" in answer
    assert check.cited_ids == (evidence_id,)


@PROPERTY
@given(accepted_answers(), st.data())
def test_adding_an_invented_marker_always_rejects(
    answer_and_id: tuple[str, str], data: st.DataObject
) -> None:
    answer, evidence_id = answer_and_id
    # Near misses of the real id as well as anything else a marker can hold.
    invented = data.draw(
        st.one_of(
            st.text(st.characters(exclude_characters="]\n"), max_size=30),
            st.sampled_from(
                [
                    evidence_id.upper(),
                    evidence_id.title(),
                    f" {evidence_id}",
                    f"{evidence_id} ",
                    f"{evidence_id}.md",
                    f"lessons/{evidence_id}.md",
                    evidence_id[:-1],
                    evidence_id + evidence_id[-1],
                    f"{evidence_id}, other",
                ]
            ),
        )
    )
    assume(invented != evidence_id)
    position = data.draw(st.integers(min_value=0, max_value=len(answer)))
    # Any spelling the marker pattern accepts: the check must see it, not skip it.
    opening = data.draw(st.sampled_from(["[source:", "[Source:", "[ SOURCE : ", "[source :"]))
    tampered = answer[:position] + f"{opening}{invented}]" + answer[position:]

    assert not check_citations(tampered, evidence_id).accepted


@PROPERTY
@given(
    lesson_ids,
    st.lists(
        st.text(st.characters(exclude_characters="["), min_size=1, max_size=80).filter(
            lambda part: part.strip()
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_text_that_cites_only_its_evidence_is_accepted(evidence_id: str, parts: list[str]) -> None:
    answer = f" [source:{evidence_id}] ".join(parts) + f" [source:{evidence_id}]"
    assume(len(answer) <= MAX_ANSWER_CHARS)

    assert check_citations(answer, evidence_id).accepted


# --- the document parser -----------------------------------------------------------


@PROPERTY
@given(st.binary(max_size=400))
def test_parser_takes_any_bytes(data: bytes) -> None:
    result = parse_document("lesson.md", data)

    if isinstance(result, str):
        assert result.strip()
        assert "\n" not in result


@st.composite
def lesson_files(draw: st.DrawFn) -> str:
    """Markdown-ish files: arbitrary lines, often with a heading somewhere."""
    line = st.one_of(
        any_text.map(lambda text: text.replace("\n", " ")),
        any_text.map(lambda text: "# " + text.replace("\n", " ")),
        any_text.map(lambda text: "## " + text.replace("\n", " ")),
        st.sampled_from(["", "#", "# ", "#title", "  # indented", "\ufeff# bom", "### deep"]),
    )
    separator = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    prefix = draw(st.sampled_from(["", "\ufeff"]))
    return prefix + separator.join(draw(st.lists(line, max_size=8)))


def one_visible_line(title: str) -> bool:
    return (
        title == title.strip()
        and len(title.splitlines()) == 1
        and bool(clean_display_text(title).strip())
    )


@PROPERTY
@given(lesson_files())
def test_parsed_passages_have_one_line_titles_and_their_own_lines_as_text(content: str) -> None:
    data = content.encode("utf-8", errors="surrogatepass")

    result = parse_document("lesson.md", data)

    if isinstance(result, str):
        return
    assert one_visible_line(result.title)
    # A byte-order mark is not text; lines end at \n, \r\n or \r, as editors count them.
    lines = re.split(r"\r\n|\r|\n", content.removeprefix("\ufeff"))
    # The title comes from the file: a "# " heading in it, else the file name.
    assert result.title == "lesson" or any(
        line.lstrip(" ").startswith("#")
        and result.title in " ".join(clean_display_text(line).split())
        for line in lines
    )
    assert result.passages
    previous_end = 0
    for passage in result.passages:
        assert one_visible_line(passage.title)
        assert passage.title.startswith(result.title)
        assert passage.text and passage.text == passage.text.strip()
        # Passages follow each other in the file without overlapping ...
        assert previous_end < passage.line <= passage.end_line <= len(lines)
        previous_end = passage.end_line
        # ... and a passage's text is its lines, less the heading line that starts it.
        span = lines[passage.line - 1 : passage.end_line]
        assert passage.text in ("\n".join(span).strip(), "\n".join(span[1:]).strip())
