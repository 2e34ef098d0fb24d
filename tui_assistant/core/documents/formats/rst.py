"""reStructuredText (`*.rst`, `*.rst.txt`): split at section titles of the first three
levels, Sphinx markup rendered as the page shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.documents.decoding import utf8_text
from tui_assistant.core.documents.formats.record import MIB, DocumentFormat

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document


def _split(relative_path: str, text: str, name_title: str) -> Document:
    # docutils loads with the first reStructuredText document only.
    from tui_assistant.core.documents.rst import split_rst

    return split_rst(relative_path, text, name_title)


FORMAT = DocumentFormat(
    name="rst",
    suffixes=(".rst.txt", ".rst"),
    max_bytes=MIB,
    decode=utf8_text,
    split=_split,
    shown_as="markdown",
    underlined_titles=True,
    split_as_itself_when_included=True,
)
