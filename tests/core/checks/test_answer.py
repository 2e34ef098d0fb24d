"""The answer check: a structured answer's (id, quote) pairs are checked as given, plain
text by its markers and quotes; either is refused with a reason, or shown with the
passages it cites and the checked quotes' file lines."""

from __future__ import annotations

import pytest

from tests.core.checks.test_quotes import CONFIG, REGISTRY, SENT
from tui_assistant.core.checks.answer import ModelAnswer, check_model_answer, check_plain_answer
from tui_assistant.core.checks.citations import NOT_GIVEN
from tui_assistant.core.checks.quotes import NOT_IN_PASSAGE, TOO_LONG, TOO_MANY


def test_a_structured_answer_is_checked_by_its_pairs_and_shown_with_their_markers() -> None:
    answer = ModelAnswer(
        " Scopes pick the registry. ",
        (("npm/registry#scopes", "maps a group\nof packages"), ("npm/config", "")),
    )

    check = check_model_answer(answer, SENT)

    assert check.accepted, check.problem
    assert check.cited_ids == ("npm/registry#scopes", "npm/config")
    assert check.answer == (
        "Scopes pick the registry. [source:npm/registry#scopes] [source:npm/config]"
    )
    assert [(quote.passage_id, quote.text, quote.line) for quote in check.quotes] == [
        ("npm/registry#scopes", "maps a group of packages", 12)
    ]


def test_a_pair_quote_is_never_split_or_reassigned_by_its_words() -> None:
    # Words that would read as a sentence end and a marker in plain text stay one quote
    # of one passage: here they are not in it, so the answer is refused.
    answer = ModelAnswer("Scopes.", (("npm/config", 'say "hi". [source:npm/registry#scopes]'),))

    assert check_model_answer(answer, SENT).problem == NOT_IN_PASSAGE


def test_a_quote_of_one_passage_paired_with_another_is_refused() -> None:
    answer = ModelAnswer("Scopes.", (("npm/config", "maps a group of packages"),))

    assert check_model_answer(answer, SENT).problem == NOT_IN_PASSAGE


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (ModelAnswer("x", (("npm/secrets", "one registry"),)), NOT_GIVEN),
        (ModelAnswer("x", (("a]b", "one registry"),)), NOT_GIVEN),
        (ModelAnswer("See [source:npm/secrets].", (("npm/config", ""),)), NOT_GIVEN),
        (ModelAnswer("  ", (("npm/config", "Settings"),)), "blank answer"),
        (ModelAnswer("Scopes.", ()), "no [source:ID] citation"),
        (ModelAnswer("x", (("npm/config", "Settings"),) * 21), TOO_MANY),
        (ModelAnswer("x", (("npm/config", "Settings " * 200),)), TOO_LONG),
        (ModelAnswer("x" * 16_001, (("npm/config", ""),)), "answer longer than 16,000 characters"),
        (ModelAnswer('It says "two registries".', (("npm/config", ""),)), NOT_IN_PASSAGE),
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
    answer = ModelAnswer('Settings: "read from .npmrc files".', (("npm/config", ""),))

    check = check_model_answer(answer, SENT)

    assert check.accepted, check.problem
    assert [quote.passage_id for quote in check.quotes] == ["npm/config"]


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
        ('"two registries" [source:npm/registry#scopes]', NOT_IN_PASSAGE),
        ("No citation at all.", "no [source:ID] citation"),
        ("", "blank answer"),
    ],
)
def test_a_plain_answer_that_fails_a_rule_is_refused_with_it(text: str, problem: str) -> None:
    check = check_plain_answer(text, (REGISTRY, CONFIG))

    assert check.problem == problem and not check.accepted


def test_a_quote_of_a_passage_not_sent_is_refused_even_if_it_stands_there() -> None:
    check = check_plain_answer('"one registry" [source:npm/registry#scopes]', (CONFIG,))

    assert check.problem == NOT_GIVEN
