"""Every document format's passages reach the screen as its record says: text shown as
written keeps every character Markdown would read as markup, Markdown keeps its meaning,
and underlined section titles (reStructuredText) become headings. Parametrized over the
format list itself, so a new format cannot be left out of the decision."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tui_assistant.core.documents.formats import FORMATS, DocumentFormat
from tui_assistant.ui.widgets.markdown_view import MarkdownView
from tui_assistant.ui.widgets.untrusted_text import readable_source

TEXT = "Call __init__() with *args.\n> 3 is not a quote\n# nor a heading"


class Viewer(App[None]):
    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def compose(self) -> ComposeResult:
        yield MarkdownView(self.source)


async def shown_words(source: str) -> str:
    app = Viewer(source)
    async with app.run_test(size=(80, 12)) as pilot:
        await pilot.pause()
        return " ".join(
            block.content.plain
            for block in app.query("MarkdownBlock")
            if hasattr(block.content, "plain")
        )


@pytest.mark.parametrize("format", FORMATS, ids=lambda format: format.name)
async def test_each_format_is_shown_as_its_record_says(format: DocumentFormat) -> None:
    for suffix in format.suffixes:
        shown = await shown_words(readable_source(TEXT, f"docs/guide{suffix}"))
        if format.shown_as == "literal":
            assert "__init__()" in shown and "*args" in shown, suffix
            assert "> 3 is not a quote" in shown and "# nor a heading" in shown, suffix
        else:
            # Rendered as Markdown: the marks are read, not shown.
            assert "__init__()" not in shown and "# nor a heading" not in shown, suffix


@pytest.mark.parametrize("format", FORMATS, ids=lambda format: format.name)
def test_underlined_titles_become_headings_only_where_the_format_has_them(
    format: DocumentFormat,
) -> None:
    text = "Intro.\n\nDetails\n~~~~~~~\n\nText."
    shown = readable_source(text, f"docs/guide{format.suffixes[0]}")
    if format.underlined_titles:
        assert shown.split("\n") == ["Intro.", "", "#### Details", "", "", "Text."]
    elif format.shown_as == "markdown":
        assert shown == text
    else:
        assert "#### Details" not in shown and "~~~~~~~" in shown


def test_a_file_of_no_format_is_shown_as_markdown() -> None:
    assert readable_source("*emphasis*", "notes/a.markdown") == "*emphasis*"
