"""The libraries' folders, and a document read from one as indexing reads it."""

from __future__ import annotations

import os
from pathlib import Path

from tui_assistant.core.library.library import Library
from tui_assistant.settings import Settings
from tui_assistant.store.folder import read_document_text


def document_text(library: Library, path: str) -> str | None:
    """A document of `library` (one folder) read from its folder as indexing reads it;
    None when it cannot be, or when `path` leads outside the folder."""
    folder = os.path.realpath(library.folder)
    if os.path.commonpath([folder, os.path.realpath(os.path.join(folder, path))]) != folder:
        return None
    return read_document_text(library.folder, path)


def library_folders(settings: Settings) -> tuple[Path, ...]:
    """The folders of the libraries the settings name, in their order."""
    return tuple(spec.folder for spec in settings.libraries)
