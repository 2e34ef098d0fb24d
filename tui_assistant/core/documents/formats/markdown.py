"""Markdown (`*.md`): split at headings of levels 1-3; the format of any other file
whose text is split (`formats.FALLBACK`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.documents.decoding import utf8_text
from tui_assistant.core.documents.formats.record import MIB, DocumentFormat

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document


def _split(relative_path: str, text: str, name_title: str) -> Document:
    # The reader (and markdown-it) loads with the first document, not with the settings.
    from tui_assistant.core.documents.markdown import split_markdown

    return split_markdown(relative_path, text, name_title)


FORMAT = DocumentFormat(
    name="md",
    suffixes=(".md",),
    max_bytes=MIB,
    decode=utf8_text,
    split=_split,
    shown_as="markdown",
    inline_markdown=True,
    split_as_itself_when_included=True,
)
