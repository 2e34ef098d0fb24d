"""PDF documents (`*.pdf`): the text layer and outline, taken out with PDFium.

PDFium (through pypdfium2) parses the file from memory; only its text layer, each
line's font size and place, the outline and the document's Title are asked for
(`pdf_layout.py` and `pdf_sections.py` make passages of them). Nothing in the file is
run or opened: no form environment is set up (so no JavaScript, `/OpenAction`
included, can run), no link is followed, no attachment is read, no remote content is
fetched. A PDF that needs a password, is broken or truncated, or has no text layer (a
scan: no OCR here) is skipped with its reason. PDFium is not thread-safe, so one lock
guards every use.
"""

from __future__ import annotations

import ctypes
import threading

from tui_assistant.core.documents.passage import Document
from tui_assistant.core.documents.pdf_layout import (
    OutlineEntry,
    PdfContent,
    PdfLine,
    PdfPage,
    extracted_text,
)
from tui_assistant.core.documents.pdf_sections import split_pdf_content

_PDFIUM = threading.Lock()
# A bookmark tree with more entries than this is not followed further.
MAX_OUTLINE_ENTRIES = 10_000
NO_TEXT_LAYER = "has no text layer (a scanned PDF? no OCR is done)"


def split_pdf(relative_path: str, data: bytes, name_title: str | None = None) -> Document | str:
    """The title and passages of one PDF file's bytes, or why it is skipped;
    `name_title` is its title when the file gives none (`passage.file_title`)."""
    content = read_pdf(data)
    if isinstance(content, str):
        return content
    document = split_pdf_content(relative_path, content, name_title)
    if not document.passages:
        return NO_TEXT_LAYER
    return document


def pdf_text(data: bytes) -> str | None:
    """The PDF's extracted text (the lines its passages cite), or None."""
    content = read_pdf(data)
    return None if isinstance(content, str) else extracted_text(content)


def read_pdf(data: bytes) -> PdfContent | str:
    """The pages of lines, outline and Title of a PDF, or why it cannot be read."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]  # loaded with the first PDF

    with _PDFIUM:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as error:
            return _reason(str(error))
        try:
            pages = tuple(_pages(document))
            outline = tuple(_outline(document))
            title = str(document.get_metadata_value("Title") or "")
        except pdfium.PdfiumError as error:
            return _reason(str(error))
        finally:
            document.close()
    if not any(line.text.strip() for page in pages for line in page.lines):
        return NO_TEXT_LAYER
    return PdfContent(pages, outline, title)


def _reason(error: str) -> str:
    """PDFium's error as a skip reason."""
    lowered = error.casefold()
    if "password" in lowered or "security" in lowered:
        return "is encrypted (needs a password)"
    if "format" in lowered or "file" in lowered:
        return "is not a readable PDF (broken or truncated)"
    return f"is not a readable PDF ({error})"


def _pages(document: object) -> list[PdfPage]:
    # pypdfium2 loads with the first PDF, never for a library without one.
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw  # type: ignore[import-untyped]

    assert isinstance(document, pdfium.PdfDocument)
    pages: list[PdfPage] = []
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    for index in range(len(document)):
        page = document[index]
        try:
            height = float(page.get_height())
            textpage = page.get_textpage()
            try:
                count = textpage.count_chars()
                text = textpage.get_text_range(0, count) if count > 0 else ""
                lines: list[PdfLine] = []
                start = 0
                # The text's characters are the text page's, one for one, so a line's
                # first character gives its font size and place.
                for line in text.split("\r\n"):
                    if line.strip() and start < count:
                        first = start + (len(line) - len(line.lstrip()))
                        size = float(raw.FPDFText_GetFontSize(textpage, first))
                        raw.FPDFText_GetCharBox(textpage, first, left, right, bottom, top)
                        lines.append(PdfLine(line, size, height - top.value, left.value))
                    start += len(line) + 2
            finally:
                textpage.close()
        finally:
            page.close()
        pages.append(PdfPage(height, tuple(lines)))
    return pages


def _outline(document: object) -> list[OutlineEntry]:
    # pypdfium2 loads with the first PDF, never for a library without one.
    import pypdfium2 as pdfium

    assert isinstance(document, pdfium.PdfDocument)
    entries: list[OutlineEntry] = []
    heights: dict[int, float] = {}
    for bookmark in document.get_toc():
        if len(entries) >= MAX_OUTLINE_ENTRIES:
            break
        destination = bookmark.get_dest()
        if destination is None:
            continue
        page = destination.get_index()
        if page is None or not 0 <= page < len(document):
            continue
        top = None
        mode, view = destination.get_view()
        if mode == 1 and len(view) >= 2:  # /XYZ left top zoom
            if page not in heights:
                heights[page] = float(document.get_page_size(page)[1])
            top = heights[page] - float(view[1])
        entries.append(OutlineEntry(bookmark.get_title(), bookmark.level + 1, page, top))
    return entries
