"""The formats of document files, in one list: `FORMATS`.

Each format is one module here defining `FORMAT`, a `DocumentFormat` record (its type
is in `record.py`, which the format modules import while this package imports them)
that says which file names make a document of it, how large one may be, how its bytes
become text and its text passages (or, for PDF, how its pages are read from its bytes),
how the TUI shows its passages, whether a fetched archive keeps it, whether a document
including it reads it as itself, and whether it is read by default. Markdown is also
the fallback (`FALLBACK`): the text of a file of no format is split as Markdown.
Everything that treats formats differently asks the record `format_of` gives; nothing
compares format names.

Adding a format is one new module here (its `FORMAT`) and one line in `FORMATS`.

The readers never ask this registry: what a file's name says (its title when its text
gives none, `file_title`) is given to them, so no module imports another round a
circle. The format modules load their readers (docutils, markdown-it, PDFium) with the
first document of theirs, so the settings, listing a folder and the TUI's choice of
how to show a passage ask the records without loading any reader.
"""

from __future__ import annotations

from tui_assistant.core.documents.formats import html, man, markdown, pdf, python, rst, text
from tui_assistant.core.documents.formats.record import DocumentFormat as DocumentFormat
from tui_assistant.core.documents.passage import stem_id

# In the order users see them: `TUI_ASSISTANT_DOCUMENT_TYPES`, its errors, the report.
FORMATS: tuple[DocumentFormat, ...] = (
    markdown.FORMAT,
    rst.FORMAT,
    text.FORMAT,
    html.FORMAT,
    pdf.FORMAT,
    man.FORMAT,
    python.FORMAT,
)
# What the text of a file of no format (or of one read as pages) is split as.
FALLBACK = markdown.FORMAT

DOCUMENT_KINDS = tuple(format.name for format in FORMATS)
DEFAULT_DOCUMENT_KINDS = tuple(format.name for format in FORMATS if format.on_by_default)
# Every suffix with its format, longest first: `notes.rst.txt` is reStructuredText.
_SUFFIXES = sorted(
    ((suffix, format) for format in FORMATS for suffix in format.suffixes),
    key=lambda pair: -len(pair[0]),
)


def format_of(name: str) -> DocumentFormat | None:
    """The format of a file name or library-relative path (`notes.rst.txt` is rst;
    suffixes match as written, so `NOTES.MD` is none); None for a file that is not a
    document."""
    for suffix, format in _SUFFIXES:
        if name.endswith(suffix):
            return format
    return None


def document_kind(name: str) -> str | None:
    """The name of a file's format (`notes.rst.txt` is `rst`), for code that counts or
    filters by document type; None for a file that is not a document. Code that treats
    formats differently asks the record `format_of` gives."""
    format = format_of(name)
    return None if format is None else format.name


def without_suffix(name: str) -> str:
    """`name` without the suffix that makes it a document (`notes.rst.txt` -> `notes`)."""
    for suffix, _ in _SUFFIXES:
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def file_title(relative_path: str) -> str:
    """The title of a document whose text gives none: its file name without its
    format's suffix (`guide/Install Notes.rst.txt` -> `Install Notes`)."""
    return without_suffix(relative_path.rsplit("/", 1)[-1])


def document_id(relative_path: str) -> str:
    """The id part that names a document: its path without its format's suffix
    (`.md`, `.rst`, `.rst.txt`, `.txt`, `.html`, `.htm`, `.pdf`, `.py`, `.1.gz`…), as
    `passage.stem_id` makes it (`api/child_process.md` -> `api/child-process`)."""
    return stem_id(without_suffix(relative_path))
