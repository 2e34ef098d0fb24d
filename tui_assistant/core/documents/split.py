"""One document's text to its title and passages, read as the kind its name says."""

from __future__ import annotations

from tui_assistant.core.documents import html, markdown, plaintext, python_api
from tui_assistant.core.documents.html import NotText
from tui_assistant.core.documents.passage import Document, document_kind

# Bump whenever a document can split into other passages (text, titles, lines, ids), so
# index stores read by the older rules are rebuilt. 1: rst and Markdown read as the page
# does (markup rendered as text, label- and markup-only sections no passages). 2: HTML
# pages are documents.
PARSER_VERSION = 2


def decode_document(relative_path: str, data: bytes) -> str:
    """A document file's text: an HTML page decoded by the charset it declares
    (`html.decode_html`), any other document as UTF-8. Raises `NotText` with the
    reason it cannot be read (a binary file: one with NUL bytes)."""
    binary = NotText("binary file (contains NUL bytes)")
    if document_kind(relative_path) == "html":
        text = html.decode_html(data)
        if "\x00" in text:
            raise binary
        return text
    if b"\x00" in data:
        raise binary
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotText("not UTF-8") from None


def split_document(relative_path: str, text: str) -> Document:
    """The title and passages of one document (`text` already decoded), read as the
    kind its name says (Markdown for any other name)."""
    kind = document_kind(relative_path)
    if kind == "rst":
        from tui_assistant.core.documents import rst  # docutils is loaded only for rst

        return rst.split_rst(relative_path, text)
    if kind == "txt":
        return plaintext.split_plain_text(relative_path, text)
    if kind == "html":
        return html.split_html(relative_path, text)
    if kind == "py":
        return python_api.split_python(relative_path, text)
    return markdown.split_markdown(relative_path, text)
