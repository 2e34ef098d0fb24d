"""One document's text to its title and passages, read as the format its name says."""

from __future__ import annotations

from tui_assistant.core.documents import inclusion
from tui_assistant.core.documents.formats import FALLBACK, DocumentFormat, file_title, format_of
from tui_assistant.core.documents.inclusion import Reader
from tui_assistant.core.documents.passage import Document

# Bump whenever a document can split into other passages (text, titles, lines, ids), so
# index stores read by the older rules are rebuilt. 1: rst and Markdown read as the page
# does (markup rendered as text, label- and markup-only sections no passages). 2: HTML
# pages are documents; Sphinx, MyST and documentation-site Markdown read as the page shows
# them; includes and autodoc. 3: HTML at every heading level, reference-list entries and
# the book's index as passages' index terms; a long section's parts titled by what they hold.
# 4: HTML page navigation (DocBook's) and admonition titles read as the page shows them,
# a term's alternatives each a term, parts titled by their prose.
PARSER_VERSION = 4


def text_format(format: DocumentFormat | None) -> DocumentFormat:
    """The format a file's text is read as: its own, unless it has none or is read as
    pages (then Markdown, `formats.FALLBACK`)."""
    return format if format is not None and not format.reads_pages else FALLBACK


def decode_document(relative_path: str, data: bytes) -> str:
    """A document file's text, decoded as its format says: an HTML page by the charset
    it declares (`html.decode_html`), any other document as UTF-8. Raises `NotText` with
    the reason it cannot be read (a binary file: one with NUL bytes)."""
    return decode_as(text_format(format_of(relative_path)), data)


def decode_as(format: DocumentFormat, data: bytes) -> str:
    """`data` decoded as `format`'s text (a format read as pages: as UTF-8 text)."""
    decode = text_format(format).decode
    assert decode is not None  # a text format has one (`DocumentFormat.__post_init__`)
    return decode(data)


def split_document(
    relative_path: str,
    text: str,
    read: Reader | None = None,
    format: DocumentFormat | None = None,
) -> Document:
    """The title and passages of one document (`text` already decoded), read as
    `format`, else as the format its name says (Markdown for any other name). `read`
    gives the text of other files of the library its includes and autodoc directives
    name (`inclusion.py`); without it they are noted as not read."""
    chosen = text_format(format or format_of(relative_path))
    return _split(chosen, relative_path, text, read, ())


def _split(
    format: DocumentFormat,
    relative_path: str,
    text: str,
    read: Reader | None,
    chain: tuple[str, ...],
) -> Document:
    split = format.split
    assert split is not None  # a text format has one (`DocumentFormat.__post_init__`)
    document = split(relative_path, text, file_title(relative_path))
    if not document.pending:
        return document

    def split_included(
        format: DocumentFormat, path: str, text: str, chain: tuple[str, ...]
    ) -> Document:
        return _split(format, path, text, read, chain)

    return inclusion.resolve(document, relative_path, format, read, split_included, chain)
