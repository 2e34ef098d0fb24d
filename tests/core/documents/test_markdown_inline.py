"""HTML comments across lines, and Markdown inline marks made plain."""

from __future__ import annotations

from tui_assistant.core.documents.markdown_inline import plain_inline, without_comments


def test_comments_are_removed_across_lines() -> None:
    shown, open_after = without_comments("text <!-- a note", False)
    assert (shown, open_after) == ("text ", True)
    shown, open_after = without_comments("still hidden --> back", open_after)
    assert (shown, open_after) == (" back", False)
    assert without_comments("a <!-- b --> c <!-- d --> e", False) == ("a  c  e", False)


def test_a_comment_in_a_code_span_is_code() -> None:
    line = "write `<!-- x -->` here <!-- gone -->"
    assert without_comments(line, False) == ("write `<!-- x -->` here ", False)


def test_plain_inline_keeps_words_and_drops_marks() -> None:
    assert plain_inline("[Docs](https://x.example/a_b) for `a_b()` **now**") == "Docs for a_b() now"
    assert plain_inline("plain words") == "plain words"
