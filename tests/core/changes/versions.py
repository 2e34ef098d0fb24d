"""Passages of made-up versions of a library, split from strings as the library splits
files (no disk)."""

from __future__ import annotations

from tui_assistant.core.documents.formats import document_id as id_of_document
from tui_assistant.core.documents.passage import Passage, passage_id
from tui_assistant.core.documents.split import split_document


def passages_of(library: str, files: dict[str, str]) -> list[Passage]:
    """The passages of the library `library` (`NAME@VERSION`) made of `files` (path in
    the library folder -> text), in path order."""
    found = []
    for path in sorted(files):
        document = split_document(path, files[path])
        for draft in document.passages:
            found.append(
                Passage(
                    id=passage_id(id_of_document(path), draft.anchor),
                    title=draft.title,
                    text=draft.text,
                    source_path=f"{library}/{path}",
                    line=draft.line,
                    end_line=draft.end_line,
                    library=library,
                )
            )
    return found
