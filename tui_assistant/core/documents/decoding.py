"""A document file's bytes as text: `NotText` says why they are not, `utf8_text` reads
the text formats that are UTF-8 (HTML decodes by its declared charset, `html.py`)."""

from __future__ import annotations

BINARY = "binary file (contains NUL bytes)"


class NotText(ValueError):
    """A document's bytes are not text it can be read as; the message says why."""


def utf8_text(data: bytes) -> str:
    """A text document's bytes as UTF-8. Raises `NotText` with the reason (a binary
    file: one with NUL bytes)."""
    if b"\x00" in data:
        raise NotText(BINARY)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotText("not UTF-8") from None
