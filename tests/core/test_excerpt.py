"""The sentences of a passage that best match a question: what a long passage opens
at, and what an unsure answer lists a possible passage with."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tui_assistant.core.display_text import collapse_blank_lines
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.excerpt import (
    excerpt,
    flowed,
    matching_sentences,
    passage_excerpt,
    prose_sentences,
)
from tui_assistant.core.words import normalise_distinct

CHAIN = (
    "## Chain\n"
    "\n"
    "Oil the bicycle chain every 300 kilometres, and wipe off the excess oil.\n"
    "After a wet ride, dry the chain with an old rag the same day, then oil it, otherwise\n"
    "it rusts overnight. Use a thin chain oil, not cooking oil.\n"
    "\n"
    "```sh\n"
    "oil --chain --bicycle --often\n"
    "```\n"
    "\n"
    "A new chain costs about 15 euros.\n"
)


def keys(question: str) -> frozenset[str]:
    return normalise_distinct(question)


def test_the_sentence_holding_most_of_the_question_s_words_comes_first() -> None:
    found = matching_sentences(CHAIN, keys("How often should I oil my bicycle chain?"))
    best = CHAIN[found[0].start : found[0].end]
    assert best == "Oil the bicycle chain every 300 kilometres, and wipe off the excess oil."
    assert [match.matched for match in found] == sorted(
        (match.matched for match in found), reverse=True
    )


def test_a_mistyped_word_matches_the_sentence_holding_the_word_it_misspells() -> None:
    text = "Store the knife in a block. Sharpen the knife on a whetstone."
    # As typed, both sentences hold one word ("knife") and the earlier would come first.
    found = matching_sentences(text, keys("how do I sharpne a knife"))
    assert text[found[0].start : found[0].end] == "Sharpen the knife on a whetstone."


def test_a_sentence_wrapped_over_lines_is_one_sentence_and_keeps_its_place() -> None:
    found = matching_sentences(CHAIN, keys("dry the chain after a wet ride"))
    start, end = found[0].start, found[0].end
    assert CHAIN[start:end].startswith("After a wet ride") and CHAIN[start:end].endswith(
        "overnight."
    )


def test_headings_and_code_are_not_sentences_to_show() -> None:
    # The heading and the command hold the question's words; neither is prose to read.
    shown = excerpt(CHAIN, keys("chain oil bicycle often"), count=5)
    assert "--chain" not in shown
    assert shown.startswith("Oil the bicycle chain")  # not with the heading "Chain"


def test_a_sentence_that_leads_into_code_is_shown_without_the_fence() -> None:
    text = "Install the tool like so:\n```\nnpm install tool\n```\nThen run it."
    keys = normalise_distinct("install the tool")
    assert excerpt(text, keys) == "Install the tool like so:"
    assert prose_sentences(text) == ["Install the tool like so:", "Then run it."]


def test_an_excerpt_marks_where_sentences_do_not_follow_each_other() -> None:
    shown = excerpt(CHAIN, keys("bicycle chain euros"), count=2)
    assert shown == (
        "Oil the bicycle chain every 300 kilometres, and wipe off the excess oil. "
        "\u2026 A new chain costs about 15 euros."
    )
    assert excerpt(CHAIN, keys("wipe rag"), count=2) == (
        "Oil the bicycle chain every 300 kilometres, and wipe off the excess oil. "
        "After a wet ride, dry the chain with an old rag the same day, then oil it, "
        "otherwise it rusts overnight."
    )


def test_with_no_word_in_common_the_first_sentence_stands_for_the_passage() -> None:
    assert excerpt(CHAIN, keys("tax return")) == (
        "Oil the bicycle chain every 300 kilometres, and wipe off the excess oil."
    )
    assert excerpt("", keys("anything")) == ""


def test_a_markdown_excerpt_reads_as_plain_words() -> None:
    passage = Passage(
        id="server#bodylimit",
        title="Server › bodyLimit",
        text=(
            "Defines the maximum payload the server is allowed to accept; the reader sends\n"
            "[`FST_ERR_CTP_BODY_TOO_LARGE`](./Errors.md#body) when a **body** is larger."
        ),
        source_path="docs/Server.md",
    )
    shown = passage_excerpt(passage, keys("allow a bigger body"), count=1)
    assert shown == (
        "Defines the maximum payload the server is allowed to accept; the reader sends "
        "FST_ERR_CTP_BODY_TOO_LARGE when a body is larger."
    )


def test_flowing_joins_the_lines_of_a_paragraph_and_keeps_blocks_apart() -> None:
    text = "one\ntwo\n\n- item\n  more\n- next\n| a | b |\n| c | d |\n    code\n    code"
    assert flowed(text) == (
        "one two\n\n- item   more\n- next\n| a | b |\n| c | d |\n    code\n    code"
    )


@given(st.text(alphabet=st.sampled_from("ab .\n-#`|"), max_size=80))
def test_flowing_keeps_every_offset(text: str) -> None:
    flow = flowed(text)
    assert len(flow) == len(text)
    assert all(a == b or (a == "\n" and b == " ") for a, b in zip(text, flow, strict=True))


def test_runs_of_blank_lines_collapse_to_one() -> None:
    text = "\n\nFirst paragraph.\n\n\n  \n\t\nSecond\nline.\n\n\n"
    assert collapse_blank_lines(text) == "First paragraph.\n\nSecond\nline."
