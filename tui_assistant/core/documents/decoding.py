"""A text document file's bytes as UTF-8 text (`utf8_text`); `errors.NotText` says why
they are not. HTML decodes by the charset it declares (`html.decode_html`)."""

from __future__ import annotations

from tui_assistant.errors import NotText

BINARY = "binary file (contains NUL bytes)"


def utf8_text(data: bytes) -> str:
    """A text document's bytes as UTF-8. Raises `NotText` with the reason (a binary
    file: one with NUL bytes)."""
    if b"\x00" in data:
        raise NotText(BINARY)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotText("not UTF-8") from None
