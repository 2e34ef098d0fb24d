"""What the model is offered: whole sentences of each passage, not the file's hard wraps,
while a quote of such a sentence still maps back to the file lines it stands on."""

from __future__ import annotations

import json

from tui_assistant.core.checks.answer import ModelAnswer, check_model_answer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.providers.prompt import build_messages, response_format

# A reference page wrapped at 60 columns, as many docs are.
WRAPPED = Passage(
    id="cli#chaining",
    title="Commands › Command Chaining",
    text=(
        "Commands can be chained: the first one runs, and if it succeeds the next one\n"
        "runs, and then\n"
        "the last. Register the subcommands like so:\n"
        "\n"
        "```\n"
        "cli.add(one)\n"
        "```\n"
        "\n"
        "- a list item stays\n"
        "- on its own line"
    ),
    source_path="docs/cli.md",
    line=20,
    end_line=31,
)


def offered_quotes(passage: Passage) -> list[str]:
    schema = response_format([passage])["json_schema"]["schema"]
    (choice,) = schema["properties"]["citations"]["items"]["anyOf"]
    quotes: list[str] = choice["properties"]["quote"]["enum"]
    return quotes


def test_the_quotes_offered_are_whole_sentences_across_hard_wraps() -> None:
    quotes = offered_quotes(WRAPPED)

    assert (
        "Commands can be chained: the first one runs, and if it succeeds the next one "
        "runs, and then the last." in quotes
    )
    assert "Register the subcommands like so:" in quotes
    assert not any(quote.endswith(("and then", "next one")) for quote in quotes)
    assert "a list item stays" in quotes and "on its own line" in quotes


def test_the_passage_text_sent_is_flowed_but_keeps_its_blocks() -> None:
    payload = json.loads(build_messages("How do I chain commands?", [WRAPPED])[-1]["content"])
    (sent,) = payload["passages"]

    assert "next one runs, and then the last." in sent["text"]
    assert "```\ncli.add(one)\n```" in sent["text"]
    assert "- a list item stays\n- on its own line" in sent["text"]


def test_a_whole_sentence_offered_still_maps_back_to_its_file_lines() -> None:
    sentence = offered_quotes(WRAPPED)[0]

    check = check_model_answer(ModelAnswer("Chain them.", (("cli#chaining", sentence),)), [WRAPPED])

    assert check.accepted, check.problem
    (quote,) = check.quotes
    assert quote.text.count("\n") == 2  # the passage's own words, as the file wraps them
    # Heading on line 20, a blank line, then the text.
    assert (quote.line, quote.end_line) == (22, 24)


def test_no_quote_offered_is_too_short_for_the_quote_check() -> None:
    short = Passage(
        id="x", title="X", text="Yes. It works. It works well here.", source_path="x.md"
    )

    assert offered_quotes(short) == ["It works well here."]
