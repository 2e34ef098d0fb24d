"""Checking an agent's draft answer against the whole library: every citation known or
not, every quote found at its file lines or not, and the sentences nothing backs."""

from __future__ import annotations

import pytest

from tui_assistant.core.checks.draft import DraftCheck, check_draft
from tui_assistant.core.checks.quotes import MAX_QUOTES, TOO_MANY
from tui_assistant.core.documents.passage import Passage

PASTA = Passage(
    id="pasta-water",
    title="Salting pasta water",
    text=(
        "Pasta absorbs water as it cooks.\n"
        "\n"
        "A good starting point is about 10 grams of salt per litre of water."
    ),
    source_path="lessons/pasta-water.md",
    line=1,
    end_line=5,
)
EGGS = Passage(
    id="guide/eggs#boiling",
    title="Eggs › Boiling",
    text="Cook the eggs for six minutes for a runny yolk.",
    source_path="lessons/guide/eggs.md",
    line=7,
    end_line=9,
)
LIBRARY = {passage.id: passage for passage in (PASTA, EGGS)}


def check(answer: str) -> DraftCheck:
    return check_draft(answer, LIBRARY.get)


def test_a_good_draft_is_verified_with_each_quote_at_its_file_lines() -> None:
    result = check(
        'Use "about 10 grams of salt per litre" [source:pasta-water]. '
        "Cook the eggs for six minutes for a runny yolk [source:guide/eggs#boiling]."
    )
    assert result.verified
    assert [(c.id, c.known) for c in result.citations] == [
        ("pasta-water", True),
        ("guide/eggs#boiling", True),
    ]
    [quote] = result.quotes
    assert (quote.passage_id, quote.found, quote.line, quote.end_line) == (
        "pasta-water",
        True,
        5,
        5,
    )
    assert quote.text == "about 10 grams of salt per litre"
    assert result.unsupported_sentences == ()
    assert result.problems == ()


def test_any_passage_of_the_library_may_be_cited_not_only_retrieved_ones() -> None:
    result = check("Six minutes gives a runny yolk [source:guide/eggs#boiling].")
    assert result.verified


def test_an_unknown_id_is_named_and_fails_verification() -> None:
    result = check("Salt the water [source:pasta-water] and oil it [source:pasta-oil].")
    assert not result.verified
    assert [(c.id, c.known) for c in result.citations] == [
        ("pasta-water", True),
        ("pasta-oil", False),
    ]
    assert "cites pasta-oil, which is not a passage of the library" in result.problems


def test_a_misquote_is_reported_not_found_and_fails_verification() -> None:
    result = check('Use "about 20 grams of salt per litre" [source:pasta-water].')
    assert not result.verified
    [quote] = result.quotes
    assert (quote.passage_id, quote.found, quote.line) == ("pasta-water", False, None)
    assert any("is not in the passage it cites (pasta-water)" in p for p in result.problems)


def test_a_problem_names_a_misquote_as_one_safe_line() -> None:
    result = check('Use "about 20 \x1b[2Jgrams of salt" [source:pasta-water].')
    [problem] = [p for p in result.problems if "is not in" in p]
    assert problem == 'quote "about 20 grams of salt" is not in the passage it cites (pasta-water)'


def test_a_quote_found_only_in_another_passage_than_the_one_cited_is_not_found() -> None:
    result = check('"Cook the eggs for six minutes" [source:pasta-water].')
    assert not result.verified
    assert not result.quotes[0].found


def test_an_unsupported_sentence_is_listed_but_does_not_unverify_the_citations() -> None:
    invented = "Rub butter around the rim of the pot so it never boils over [source:pasta-water]."
    result = check(f"Use about 10 grams of salt per litre [source:pasta-water]. {invented}")
    assert result.verified
    assert result.unsupported_sentences == (invented,)
    assert "1 sentence not backed by the passages cited" in result.problems


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ("Salt the water well.", "no [source:ID] citation"),
        ("   ", "blank answer"),
        (
            "Salt the water [Source: pasta-water].",
            "citation [Source: pasta-water] is not written exactly as [source:ID]",
        ),
    ],
)
def test_drafts_the_citation_rule_refuses_say_why_in_one_line(answer: str, problem: str) -> None:
    result = check(answer)
    assert not result.verified
    assert problem in result.problems
    assert all("\n" not in line for line in result.problems)


def test_more_quotes_than_the_app_allows_fail_with_the_limit_named() -> None:
    quotes = " ".join('"Pasta absorbs water"' for _ in range(MAX_QUOTES + 1))
    result = check(f"{quotes} [source:pasta-water].")
    assert not result.verified
    assert all(quote.found for quote in result.quotes)
    assert TOO_MANY in result.problems


def test_a_quote_in_a_sentence_without_a_marker_may_stand_in_any_cited_passage() -> None:
    result = check(
        "Season the pot [source:pasta-water].\n"
        'As the guide says, "Cook the eggs for six minutes".\n'
        "Then eat [source:guide/eggs#boiling]."
    )
    [quote] = result.quotes
    assert (quote.found, quote.passage_id, quote.line) == (True, "guide/eggs#boiling", 9)
