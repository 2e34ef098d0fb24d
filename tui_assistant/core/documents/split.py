"""One document's text to its title and passages, read as the kind its name says."""

from __future__ import annotations

from tui_assistant.core.documents import html, inclusion, markdown, plaintext, python_api
from tui_assistant.core.documents.inclusion import Reader
from tui_assistant.core.documents.passage import Document, document_kind
from tui_assistant.errors import NotText

# Bump whenever a document can split into other passages (text, titles, lines, ids), so
# index stores read by the older rules are rebuilt. 1: rst and Markdown read as the page
# does (markup rendered as text, label- and markup-only sections no passages). 2: HTML
# pages are documents; Sphinx, MyST and documentation-site Markdown read as the page shows
# them; includes and autodoc.
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


def split_document(relative_path: str, text: str, read: Reader | None = None) -> Document:
    """The title and passages of one document (`text` already decoded), read as the
    kind its name says (Markdown for any other name). `read` gives the text of other
    files of the library its includes and autodoc directives name (`inclusion.py`);
    without it they are noted as not read."""
    return _split(document_kind(relative_path) or "md", relative_path, text, read, ())


def _split(
    kind: str, relative_path: str, text: str, read: Reader | None, chain: tuple[str, ...]
) -> Document:
    if kind == "rst":
        from tui_assistant.core.documents import rst  # docutils is loaded only for rst

        document = rst.split_rst(relative_path, text)
    elif kind == "txt":
        document = plaintext.split_plain_text(relative_path, text)
    elif kind == "html":
        document = html.split_html(relative_path, text)
    elif kind == "py":
        document = python_api.split_python(relative_path, text)
    else:
        document = markdown.split_markdown(relative_path, text)
    if not document.pending:
        return document

    def split_included(kind: str, path: str, text: str, chain: tuple[str, ...]) -> Document:
        return _split(kind, path, text, read, chain)

    return inclusion.resolve(document, relative_path, kind, read, split_included, chain)
