"""The answer check: a structured answer's (id, quote) pairs are checked as given, plain
text by its markers and quotes; either is refused with a reason, or shown with the
passages it cites and the checked quotes' file lines."""

from __future__ import annotations

import pytest

from tests.core.checks.test_quotes import CONFIG, REGISTRY, SENT
from tui_assistant.core.checks.answer import (
    NO_TEXT,
    ModelAnswer,
    check_model_answer,
    check_plain_answer,
    has_own_text,
)
from tui_assistant.core.checks.citations import NOT_GIVEN
from tui_assistant.core.checks.quotes import EMPTY_QUOTE, TOO_LONG, TOO_MANY
from tui_assistant.core.documents.passage import Passage

# Words of CONFIG, long enough to be a quote.
PER = "per project, per user"


def test_a_structured_answer_is_checked_by_its_pairs_and_shown_with_their_markers() -> None:
    answer = ModelAnswer(
        " Scopes pick the registry. ",
        (
            ("npm/registry#scopes", "maps a group\nof packages"),
            ("npm/config", "per project, per user"),
        ),
    )

    check = check_model_answer(answer, SENT)

    assert check.accepted, check.problem
    assert check.cited_ids == ("npm/registry#scopes", "npm/config")
    assert check.answer == (
        "Scopes pick the registry. [source:npm/registry#scopes] [source:npm/config]"
    )
    assert [(quote.passage_id, quote.text, quote.line) for quote in check.quotes] == [
        ("npm/registry#scopes", "maps a group of packages", 12),
        ("npm/config", "per project, per user", 3),
    ]


def test_a_pair_quote_is_never_split_or_reassigned_by_its_words() -> None:
    # Words that would read as a sentence end and a marker in plain text stay one quote
    # of one passage: here they are not in it, so the answer is refused.
    answer = ModelAnswer("Scopes.", (("npm/config", 'say "hi". [source:npm/registry#scopes]'),))

    assert check_model_answer(answer, SENT).problem == (
        'quote not in the passage: "say "hi". [source:npm/registry#scopes]"'
    )


def test_a_quote_of_one_passage_paired_with_another_is_refused() -> None:
    answer = ModelAnswer("Scopes.", (("npm/config", "maps a group of packages"),))

    assert check_model_answer(answer, SENT).problem == (
        'quote not in the passage: "maps a group of packages"'
    )


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (ModelAnswer("x", (("npm/secrets", "one registry"),)), NOT_GIVEN),
        (ModelAnswer("x", (("a]b", "one registry"),)), NOT_GIVEN),
        (ModelAnswer("See [source:npm/secrets].", (("npm/config", PER),)), NOT_GIVEN),
        (ModelAnswer("  ", (("npm/config", PER),)), "blank answer"),
        (ModelAnswer("Scopes.", ()), "no [source:ID] citation"),
        (ModelAnswer("Scopes.", (("npm/config", PER),) * 21), TOO_MANY),
        (ModelAnswer("Scopes.", (("npm/config", "Settings " * 200),)), TOO_LONG),
        (ModelAnswer("x" * 16_001, (("npm/config", PER),)), "answer longer than 16,000 characters"),
        (
            ModelAnswer('It says "there are two registries".', (("npm/config", PER),)),
            'quote not in the passage: "there are two registries"',
        ),
        (ModelAnswer("From the docs:", (("npm/config", PER),)), NO_TEXT),
        (ModelAnswer("Scopes.", (("npm/config", ""),)), EMPTY_QUOTE),
        (ModelAnswer("Scopes.", (("npm/config", " \n "),)), EMPTY_QUOTE),
        (
            ModelAnswer("Scopes.", (("npm/config", "per project"),)),
            'a quote of fewer than 3 words: "per project"',
        ),
    ],
    ids=[
        "id not sent",
        "bracket in id",
        "marker in text not sent",
        "blank",
        "cites nothing",
        "21 quotes",
        "long quote",
        "long answer",
        "quote in text",
        "no text",
        "empty quote",
        "whitespace quote",
        "short quote",
    ],
)
def test_a_structured_answer_that_fails_a_rule_is_refused_with_it(
    answer: ModelAnswer, problem: str
) -> None:
    check = check_model_answer(answer, SENT)

    assert not check.accepted
    assert check.problem == problem
    assert check.answer == "" and check.quotes == ()


def test_a_quote_in_a_structured_answers_text_stands_in_a_passage_it_cites() -> None:
    answer = ModelAnswer('Settings: "read from .npmrc files".', (("npm/config", PER),))

    check = check_model_answer(answer, SENT)

    assert check.accepted, check.problem
    assert [(quote.passage_id, quote.text) for quote in check.quotes] == [
        ("npm/config", "read from .npmrc files"),
        ("npm/config", PER),
    ]


def test_support_is_read_against_the_passages_the_pairs_cite() -> None:
    answer = ModelAnswer(
        "Settings are read from npmrc files per project. Bananas grow on tall green trees.",
        (("npm/config", "per project, per user"),),
    )

    check = check_model_answer(answer, SENT)

    assert check.accepted and check.support is not None
    assert check.support.unsupported_sentences == ("Bananas grow on tall green trees.",)
    assert check_model_answer(answer, SENT, with_support=False).support is None


def test_plain_text_is_checked_by_its_markers_and_quotes() -> None:
    text = ' "Settings are read from .npmrc files" [source:npm/config]. '

    check = check_model_answer(ModelAnswer(text), SENT)

    assert check == check_plain_answer(text, SENT)
    assert check.accepted and check.answer == text.strip()
    assert check.cited_ids == ("npm/config",)
    assert [(quote.passage_id, quote.line) for quote in check.quotes] == [("npm/config", 3)]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Tokens [source:npm/secrets].", NOT_GIVEN),
        (
            '"there are two registries" [source:npm/registry#scopes]',
            'quote not in the passage: "there are two registries"',
        ),
        ("No citation at all.", "no [source:ID] citation"),
        ("", "blank answer"),
        ("From the docs: [source:npm/config]", NO_TEXT),
        ("See [source:npm/config] and [source:npm/registry#scopes].", NO_TEXT),
        ("According to the documentation: [source:npm/config].", NO_TEXT),
        ('Settings: "" [source:npm/config]', EMPTY_QUOTE),
        ('Settings: "  " [source:npm/config]', EMPTY_QUOTE),
        ('Settings: "" and "read from .npmrc files" [source:npm/config]', EMPTY_QUOTE),
        (
            'Settings are "per user" [source:npm/config]',
            'a quote of fewer than 3 words: "per user"',
        ),
    ],
)
def test_a_plain_answer_that_fails_a_rule_is_refused_with_it(text: str, problem: str) -> None:
    check = check_plain_answer(text, (REGISTRY, CONFIG))

    assert check.problem == problem and not check.accepted


def test_a_quote_of_a_passage_not_sent_is_refused_even_if_it_stands_there() -> None:
    check = check_plain_answer('"one registry" [source:npm/registry#scopes]', (CONFIG,))

    assert check.problem == NOT_GIVEN


@pytest.mark.parametrize(
    "text",
    [
        "10 grams per litre. [source:npm/config]",
        "Yes: per project. [source:npm/config]",
        '"read from .npmrc files" [source:npm/config]',
        "See the .npmrc file. [source:npm/config]",
    ],
)
def test_an_answer_with_a_word_of_its_own_or_a_quote_has_text(text: str) -> None:
    assert has_own_text(text)
    assert check_plain_answer(text, SENT, with_support=False).problem != NO_TEXT


def test_a_one_word_quote_of_a_long_specific_string_is_checked_as_usual() -> None:
    line = Passage(
        id="npm/line",
        title="Line",
        text="Add this line:\n\n    @myco:registry=https://npm.example.com/\n",
        source_path="docs/npm/line.md",
    )

    check = check_plain_answer(
        'Add "@myco:registry=https://npm.example.com/" [source:npm/line]', [line]
    )

    assert check.accepted, check.problem
    assert check_plain_answer('Add "@myco:registry" [source:npm/line]', [line]).problem == (
        'a quote of fewer than 3 words: "@myco:registry"'
    )


def test_a_problem_quoting_the_model_is_one_short_clean_line() -> None:
    quote = "per user\x1b[31m, " + "and then some more words " * 10
    check = check_plain_answer(f'Settings: "{quote}" [source:npm/config]', SENT)

    assert check.problem is not None
    assert check.problem.startswith('quote not in the passage: "per user, and then')
    assert "\x1b" not in check.problem and "\n" not in check.problem
    assert len(check.problem) < 100 and check.problem.endswith('…"')
