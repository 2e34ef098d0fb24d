"""The library as the browser shows it: its folder tree, and the labels of a document's sections.

Pure functions of the library's document list, so the tree browser only draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tui_assistant.core.documents.passage import TITLE_SEPARATOR
from tui_assistant.core.library.library import DocumentInfo


@dataclass
class Folder:
    """One folder of the library: its sub-folders (by name) and its documents."""

    path: str
    folders: dict[str, Folder] = field(default_factory=dict)
    documents: list[int] = field(default_factory=list)

    def sorted_folders(self) -> list[Folder]:
        return [self.folders[name] for name in sorted(self.folders)]


def folder_tree(documents: Sequence[DocumentInfo]) -> Folder:
    """The folder tree of `documents` (in library order, so sorted by path)."""
    root = Folder("")
    for index, document in enumerate(documents):
        folder = root
        *parts, _name = document.path.split("/")
        for part in parts:
            child = folder.folders.get(part)
            if child is None:
                child = folder.folders[part] = Folder(
                    f"{folder.path}/{part}" if folder.path else part
                )
            folder = child
        folder.documents.append(index)
    return root


def section_labels(titles: Sequence[str], document_title: str) -> list[str]:
    """The tree labels of one document's passages: each title without the document's
    title and the separator after it, and the parts of a section cut into several
    passages told apart (`Configuration`, `Configuration (2)`) as their ids are."""
    prefix = document_title + TITLE_SEPARATOR
    labels: list[str] = []
    seen: dict[str, int] = {}
    for title in titles:
        label = title[len(prefix) :] if title.startswith(prefix) and title != prefix else title
        seen[label] = part = seen.get(label, 0) + 1
        labels.append(label if part == 1 else f"{label} ({part})")
    return labels
