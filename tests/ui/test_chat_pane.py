"""Pure display helpers: which words the evidence panel highlights, how flags look."""

from __future__ import annotations

from tui_assistant.ui.chat_pane import (
    UNSUPPORTED_MARKER,
    UNSUPPORTED_STYLE,
    answer_content,
    unplaced_sentences,
)
from tui_assistant.ui.evidence_panel import highlight_spans, highlighted


def words_at(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[start:end] for start, end in spans]


def test_inflections_of_a_matched_word_are_highlighted_and_nothing_else() -> None:
    text = "Boiling eggs: boil the egg, then salt it. Basalt is a rock; salty water."
    assert words_at(text, highlight_spans(text, {"boil", "egg", "salt"})) == [
        "Boiling",
        "eggs",
        "boil",
        "egg",
        "salt",
    ]


def test_no_matched_words_means_no_highlight() -> None:
    assert highlight_spans("Boil the eggs.", ()) == []


def test_highlighted_text_is_cleaned_of_escape_sequences() -> None:
    content = highlighted("\x1b[31mboil\x1b[0m the eggs", {"boil"})
    assert content.plain == "boil the eggs"
    assert [content.plain[span.start : span.end] for span in content.spans] == ["boil"]


def test_unsupported_sentences_are_dimmed_and_marked_in_place() -> None:
    content = answer_content("Salt well. Oil stops sticking. Stir often.", ("Oil stops sticking.",))
    assert content.plain == f"Salt well. Oil stops sticking.{UNSUPPORTED_MARKER} Stir often."
    styled = {content.plain[span.start : span.end]: span.style for span in content.spans}
    assert styled["Oil stops sticking."] == UNSUPPORTED_STYLE


def test_a_flagged_sentence_not_found_in_the_answer_is_listed_instead() -> None:
    answer = "Salt well [source:pasta-water]. Oil helps."
    flagged = ("Salt well .", "Oil helps.")  # as seen without the citation marker
    content = answer_content(answer, flagged)
    assert content.plain == f"Salt well [source:pasta-water]. Oil helps.{UNSUPPORTED_MARKER}"
    assert unplaced_sentences(answer, flagged) == ["Salt well ."]
