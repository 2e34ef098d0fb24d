"""The evidence panel's highlighting: which words are highlighted, and escape sequences
cleaned away."""

from __future__ import annotations

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
