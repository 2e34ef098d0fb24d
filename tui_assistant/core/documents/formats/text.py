"""Plain text (`*.txt`): a passage per blank-line paragraph, titled by the first line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.documents.decoding import utf8_text
from tui_assistant.core.documents.formats.record import MIB, DocumentFormat

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document


def _split(relative_path: str, text: str, name_title: str) -> Document:
    # The reader loads with the first document, not with the settings.
    from tui_assistant.core.documents.plaintext import split_plain_text

    return split_plain_text(relative_path, text, name_title)


FORMAT = DocumentFormat(
    name="txt",
    suffixes=(".txt",),
    max_bytes=MIB,
    decode=utf8_text,
    split=_split,
    shown_as="literal",
)
