"""Manual pages (`*.1` … `*.9`, the section suffixes `*.1p`, `*.3pm`, `*.1ssl`, `*.3x`…,
`*.man`, each also gzip-compressed `*.1.gz`): troff `man` macros read as `man` shows
them, split at `.SH`/`.SS`. Compressed pages are decompressed here, up to the size limit;
a file with no `.TH` or `.SH` is not a manual page."""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

from tui_assistant.core.documents.decoding import BINARY
from tui_assistant.core.documents.formats.record import MIB, DocumentFormat
from tui_assistant.errors import NotText

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document

MAX_BYTES = 4 * MIB
_GZIP = b"\x1f\x8b"
# The sections, and the suffixes packages add to them: POSIX (`p`), Perl (`pm`, `perl`),
# OpenSSL (`ssl`), X11 (`x`).
_SECTIONS = tuple(str(number) for number in range(1, 10))
_NAMED = ("1p", "3p", "3pm", "3perl", "1ssl", "3ssl", "5ssl", "7ssl", "3x", "8x")
_PLAIN = (*(f".{section}" for section in (*_SECTIONS, *_NAMED)), ".man")
SUFFIXES = (*_PLAIN, *(suffix + ".gz" for suffix in _PLAIN))


def decompressed(data: bytes, limit: int = MAX_BYTES) -> bytes:
    """A gzip-compressed page's bytes (others as they are), refused past `limit`."""
    if not data.startswith(_GZIP):
        return data
    inflater = zlib.decompressobj(wbits=31)
    try:
        found = inflater.decompress(data, limit + 1)
    except zlib.error:
        raise NotText("cannot be read as gzip (broken or truncated)") from None
    if len(found) > limit:
        raise NotText(f"larger than {limit // MIB} MiB when decompressed")
    if not inflater.eof:
        raise NotText("cannot be read as gzip (broken or truncated)")
    return found


def _decode(data: bytes) -> str:
    # The reader loads with the first page, not with the settings.
    from tui_assistant.core.documents.man import why_not_a_page

    data = decompressed(data)
    if b"\x00" in data:
        raise NotText(BINARY)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # as man-db reads a page that is not UTF-8
    why = why_not_a_page(text)
    if why is not None and text.strip():
        raise NotText(why)
    return text


def _split(relative_path: str, text: str, name_title: str) -> Document:
    # The reader loads with the first page, not with the settings.
    from tui_assistant.core.documents.man import split_man

    return split_man(relative_path, text, name_title)


FORMAT = DocumentFormat(
    name="man",
    suffixes=SUFFIXES,
    max_bytes=MAX_BYTES,
    decode=_decode,
    split=_split,
    shown_as="literal",
)
