"""HTML (`*.html`, `*.htm`): a page's main content, decoded by the charset it declares
and split at its headings; a built site's pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.documents.decoding import BINARY
from tui_assistant.core.documents.formats.record import MIB, DocumentFormat
from tui_assistant.errors import NotText

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document


def _decode(data: bytes) -> str:
    # The HTML reader loads with the first page, not with the settings.
    from tui_assistant.core.documents.html import decode_html

    text = decode_html(data)
    if "\x00" in text:
        raise NotText(BINARY)
    return text


def _split(relative_path: str, text: str, name_title: str) -> Document:
    # The HTML reader loads with the first page, not with the settings.
    from tui_assistant.core.documents.html import split_html

    return split_html(relative_path, text, name_title)


def _why_empty(text: str) -> str:
    # The HTML reader loads with the first page, not with the settings.
    from tui_assistant.core.documents.html import why_no_passages

    return why_no_passages(text)


FORMAT = DocumentFormat(
    name="html",
    suffixes=(".html", ".htm"),
    max_bytes=20 * MIB,
    decode=_decode,
    split=_split,
    why_empty=_why_empty,
    shown_as="literal",
    built_site_pages=True,
)
