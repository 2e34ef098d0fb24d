"""The chat pane's answer text: unsupported sentences dimmed and marked in place, or
listed when they cannot be placed."""

from __future__ import annotations

from tui_assistant.ui.chat_pane import (
    UNSUPPORTED_MARKER,
    UNSUPPORTED_STYLE,
    answer_content,
    unplaced_sentences,
)


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
