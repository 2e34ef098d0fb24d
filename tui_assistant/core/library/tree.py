"""The library as the browser shows it: its folder tree, and the labels of a document's sections.

Pure functions of the library's document list, so the tree browser only draws them.

The order is the same at every start and explained in one line (several libraries are
each a folder at the top, by name): in each folder, its sub-folders, then its documents,
the folder's index document first (`index`, `README`, `_index`), each by name, case
aside and numbers by their value (`ch2` before `ch10`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from tui_assistant.core.documents.formats import without_suffix
from tui_assistant.core.documents.passage import TITLE_SEPARATOR
from tui_assistant.core.library.library import DocumentInfo

# The names of a folder's own page: it opens its folder's documents.
INDEX_NAMES = frozenset({"index", "readme", "_index"})
_NUMBER = re.compile(r"(\d+)")


@dataclass
class Folder:
    """One folder of the library: its sub-folders (by name) and its documents (indexes
    into the library's documents, in browsing order)."""

    path: str
    folders: dict[str, Folder] = field(default_factory=dict)
    documents: list[int] = field(default_factory=list)

    def sorted_folders(self) -> list[Folder]:
        return [self.folders[name] for name in sorted(self.folders, key=name_order)]


def name_order(name: str) -> tuple[tuple[int, str], ...]:
    """A file or folder name as it sorts in the browser: case aside, numbers by value."""
    return tuple(
        (int(part), part) if part.isdigit() else (-1, part)
        for part in _NUMBER.split(name.casefold())
    )


def browsing_order(path: str) -> tuple[bool, tuple[tuple[int, str], ...]]:
    """Where a document sorts among its folder's documents: the index first, then by name."""
    name = path.rsplit("/", 1)[-1]
    return without_suffix(name).casefold() not in INDEX_NAMES, name_order(name)


def tree_path(document: DocumentInfo, several: bool) -> str:
    """Where `document` stands in the tree: its path, under its library's name when
    the tree holds several libraries (each library a top folder)."""
    return f"{document.library}/{document.path}" if several else document.path


def folder_tree(documents: Sequence[DocumentInfo], several: bool = False) -> Folder:
    """The folder tree of `documents`, each folder's documents in browsing order; with
    `several` libraries, each library is a top folder named by its name."""
    root = Folder("")
    for index, document in enumerate(documents):
        folder = root
        *parts, _name = tree_path(document, several).split("/")
        for part in parts:
            child = folder.folders.get(part)
            if child is None:
                child = folder.folders[part] = Folder(
                    f"{folder.path}/{part}" if folder.path else part
                )
            folder = child
        folder.documents.append(index)
    _sort(root, documents)
    return root


def _sort(folder: Folder, documents: Sequence[DocumentInfo]) -> None:
    folder.documents.sort(key=lambda index: browsing_order(documents[index].path))
    for child in folder.folders.values():
        _sort(child, documents)


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
