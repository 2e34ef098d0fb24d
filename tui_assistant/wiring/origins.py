"""Where each loaded library's passages come from, for a surface to say beside a
passage: a fetched library's package, version, origin (pypi, npm, web, git) and fetch
date, as its `.fetched.json` records them (`registry.libraries.fetched_origin`);
nothing for a folder library. Read once for each library loaded: one small file each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tui_assistant.core.documents.place import PassageFields
from tui_assistant.core.library.library import Library
from tui_assistant.registry.libraries import fetched_origin


@dataclass(frozen=True, slots=True)
class FetchedOrigin:
    """A fetched library: `package` and `version` (a repository's ref, a website's
    fetch date), `origin` (None when its record names none) and `fetched_at` (UTC, ISO
    8601; None when unrecorded)."""

    package: str
    version: str | None = None
    origin: str | None = None
    fetched_at: str | None = None


@dataclass(frozen=True, slots=True)
class LibraryOrigins:
    """The fetched libraries among those loaded, by name; `single` is the one library
    loaded, for a passage that names none. A folder library is in neither."""

    by_name: Mapping[str, FetchedOrigin] = field(default_factory=dict)
    single: FetchedOrigin | None = None

    def of(self, passage: PassageFields) -> FetchedOrigin | None:
        """The fetched library `passage` belongs to; None for a folder library's."""
        return self.by_name.get(passage.library) if passage.library else self.single


def library_origins(library: Library) -> LibraryOrigins:
    """Where the passages of `library` (one, or several combined) come from."""
    by_name: dict[str, FetchedOrigin] = {}
    for name, part in library.parts.items():
        facts = fetched_origin(part.folder)
        if facts["package"] is not None:
            by_name[name] = FetchedOrigin(
                facts["package"], facts["version"], facts["origin"], facts["fetched_at"]
            )
    return LibraryOrigins(by_name, None if library.combined else by_name.get(library.name))
