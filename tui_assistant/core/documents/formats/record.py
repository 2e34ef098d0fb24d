"""`DocumentFormat`: what one format of document file is, and how it is read.

The record type lives in its own module so the format modules can build their records
while the package gathers them (`formats/__init__.py` imports every format module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document

MIB = 1024 * 1024
HEADINGS_ONLY = "has no text (headings only)"


def headings_only(text: str) -> str:
    """Why a document whose splitter found no passage gives none."""
    return HEADINGS_ONLY


@dataclass(frozen=True, slots=True)
class DocumentFormat:
    """One format of document: the files that make it and everything that treats it
    differently from the others. A text format has `decode` and `split`; a format read
    from its bytes as pages (PDF) has `split_pages` and `pages_text` instead."""

    # The document type as users name it (`TUI_ASSISTANT_DOCUMENT_TYPES`, the report).
    name: str
    # The endings of the file names that are documents of it, case as written; where one
    # format's ending ends another's (`.rst.txt`, `.txt`), the longer one decides.
    suffixes: tuple[str, ...]
    # The largest file of it that is read; a larger one is skipped with a warning.
    max_bytes: int
    # Its bytes as text (raising `errors.NotText` with why they are not).
    decode: Callable[[bytes], str] | None = None
    # Its text as a title and passages: (path relative to the library, text, the title
    # when the text gives none).
    split: Callable[[str, str, str], Document] | None = None
    # Why a document of it whose text gave no passage is skipped, from that text.
    why_empty: Callable[[str], str] = headings_only
    # Its bytes as a title and passages, or why it is skipped: (path, bytes, the title
    # when the file gives none).
    split_pages: Callable[[str, bytes, str], Document | str] | None = None
    # The text its passages cite, taken from its bytes; None when it cannot be read.
    pages_text: Callable[[bytes], str | None] | None = None
    # How the TUI shows a passage's text: as written, or rendered as Markdown.
    shown_as: Literal["literal", "markdown"] = "markdown"
    # Section titles inside a passage stand above an underline of one repeated
    # punctuation character (reStructuredText); a Markdown view makes them headings.
    underlined_titles: bool = False
    # Passage text keeps Markdown's inline marks (links, emphasis, code), which plain
    # excerpts leave out.
    inline_markdown: bool = False
    # A fetched package's documentation folder keeps its files.
    kept_in_archives: bool = True
    # Included by another document (`.. include::`), it is split as itself; a file of
    # any other format is split as the format of the document that includes it.
    split_as_itself_when_included: bool = False
    # Read unless `TUI_ASSISTANT_DOCUMENT_TYPES` leaves it out (else only when asked for).
    on_by_default: bool = True
    # Each passage documents one named API object, titled by its qualified name.
    documents_api: bool = False
    # Its files are the pages documentation-site generators build (Sphinx, MkDocs): a
    # folder of them may hold the generator's other output, which is not read.
    built_site_pages: bool = False

    def __post_init__(self) -> None:
        text = self.decode is not None and self.split is not None
        paged = self.split_pages is not None and self.pages_text is not None
        if text == paged:
            raise ValueError(
                f"document format {self.name}: give decode and split, or split_pages and pages_text"
            )
        if not self.suffixes or any(not suffix.startswith(".") for suffix in self.suffixes):
            raise ValueError(f"document format {self.name}: suffixes must start with '.'")

    @property
    def reads_pages(self) -> bool:
        """Whether it is read from its bytes as pages, not decoded as text (PDF)."""
        return self.split_pages is not None
