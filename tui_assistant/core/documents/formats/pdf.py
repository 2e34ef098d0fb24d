"""PDF (`*.pdf`): the text layer, split at the outline, else at headings, else by page.
Read from its bytes, never decoded as text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.documents.formats.record import MIB, DocumentFormat

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document


def _split_pages(relative_path: str, data: bytes, name_title: str) -> Document | str:
    # PDFium loads for PDFs only.
    from tui_assistant.core.documents.pdf import split_pdf

    return split_pdf(relative_path, data, name_title)


def _pages_text(data: bytes) -> str | None:
    # PDFium loads for PDFs only.
    from tui_assistant.core.documents.pdf import pdf_text

    return pdf_text(data)


FORMAT = DocumentFormat(
    name="pdf",
    suffixes=(".pdf",),
    max_bytes=200 * MIB,
    split_pages=_split_pages,
    pages_text=_pages_text,
    shown_as="literal",
)
