"""Python source (`*.py`) as API reference: a passage per documented public object, by
parsing only. Off unless asked for (fetched libraries and autodoc targets ask)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_assistant.core.documents.decoding import utf8_text
from tui_assistant.core.documents.formats.record import MIB, DocumentFormat

if TYPE_CHECKING:
    from tui_assistant.core.documents.passage import Document


def _split(relative_path: str, text: str, name_title: str) -> Document:
    # The reader loads with the first document, not with the settings.
    from tui_assistant.core.documents.python_api import split_python

    return split_python(relative_path, text)  # titled by its module name


# Why a source file that documents nothing public (a private module, an `__init__` of
# re-exports) gives no passage: autodoc directives still read it, so nothing is lost.
SOURCE_ONLY = "documents nothing public (a source the API pages read)"


def _why_empty(text: str) -> str:
    return SOURCE_ONLY


FORMAT = DocumentFormat(
    name="py",
    suffixes=(".py",),
    max_bytes=MIB,
    decode=utf8_text,
    split=_split,
    shown_as="literal",
    kept_in_archives=False,
    on_by_default=False,
    documents_api=True,
    why_empty=_why_empty,
)
