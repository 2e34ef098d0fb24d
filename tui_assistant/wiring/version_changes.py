"""Two fetched versions of one library, read and compared: what `tui-assistant changes`
and the MCP `changes` tool give (`core.changes` does the comparing).

Each version is read as `--library NAME@VERSION` reads it, through its index store in
the data folder, so comparing versions already asked about reads nothing again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field

from tui_assistant import PROG
from tui_assistant.core.changes.diff import Change, ChangeKind, version_changes
from tui_assistant.core.display_text import one_line
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.progress import Progress
from tui_assistant.core.record import PassageRef
from tui_assistant.core.words import stem
from tui_assistant.registry.libraries import (
    document_kinds_of,
    fetched_names,
    resolve_fetched,
    version_key,
)
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import open_library

# A fetched library's name before its `@` (`requests`, `docs.example.com-api`).
_PACKAGE_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class ChangeRecord(BaseModel):
    """One change as JSON output gives it."""

    change: ChangeKind = Field(
        description="changelog (an entry of the package's changelog for the range), "
        "added, removed, changed (same title path, other text) or moved (the same or "
        "reworded text under another title path or file)"
    )
    title: str = Field(description="the section's title path (the older one when removed)")
    old: PassageRef | None = Field(description="the passage in the older version; null if none")
    new: PassageRef | None = Field(description="the passage in the newer version; null if none")

    @classmethod
    def of(cls, change: Change) -> ChangeRecord:
        return cls(
            change=change.kind,
            title=one_line(change.title),
            old=_ref(change.old),
            new=_ref(change.new),
        )


def _ref(passage: Passage | None) -> PassageRef | None:
    if passage is None:
        return None
    ref = PassageRef.of(passage)
    return ref.model_copy(update={"title": one_line(ref.title)})


@dataclass(frozen=True, slots=True)
class VersionPair:
    """Two fetched versions of one library: their folders in the data folder."""

    old: Path
    new: Path

    @classmethod
    def of(cls, old: Path, new: Path) -> VersionPair:
        """The pair, or ValueError with one line when the two folders are not two
        versions of one library."""
        old_base, new_base = old.name.partition("@")[0], new.name.partition("@")[0]
        if old_base != new_base:
            raise ValueError(
                f"{old.name} and {new.name} are not versions of one library"
                f" ({old_base}, {new_base})"
            )
        if old == new:
            raise ValueError(f"both are {old.name}: name two versions")
        return cls(old, new)

    @property
    def names(self) -> tuple[str, str]:
        return (self.old.name, self.new.name)

    @property
    def versions(self) -> tuple[str, str]:
        return (self.old.name.partition("@")[2], self.new.name.partition("@")[2])


def fetched_pair(old: str, new: str, data_dir: Path) -> VersionPair:
    """The fetched libraries `old` and `new` name (`NAME@VERSION`, `NAME@RANGE`, or
    `NAME` for the newest). ValueError with one line when either is not fetched, or
    when they are not two versions of one library."""
    return VersionPair.of(fetched_version(old, data_dir), fetched_version(new, data_dir))


def fetched_version(entry: str, data_dir: Path) -> Path:
    """The folder of the fetched library `entry` names; ValueError with one line when
    there is none, naming the versions that are fetched."""
    base = entry.partition("@")[0]
    if not _PACKAGE_NAME.match(base):
        raise ValueError(f"{entry} is not a fetched library's name (NAME@VERSION)")
    folder = resolve_fetched(entry, data_dir)  # a range no fetched version meets: ValueError
    if folder is not None:
        return folder
    versions = [
        name.partition("@")[2] for name in fetched_names(data_dir) if name.startswith(f"{base}@")
    ]
    if versions:
        shown = ", ".join(sorted(versions, key=version_key, reverse=True))
        raise ValueError(f"{entry} is not fetched (fetched: {shown})")
    raise ValueError(f"{entry}: no version of {base} is fetched (get it with {PROG} fetch)")


def library_passages(
    folder: Path, settings: Settings, progress: Progress | None = None
) -> list[Passage]:
    """Every passage of the fetched library at `folder`, with its text, in library
    order; each passage's `library` is the folder's name (`NAME@VERSION`)."""
    kinds = document_kinds_of(folder, settings.document_kinds)
    library = open_library(folder, settings.data_dir, stem, progress, kinds, name=folder.name)
    try:
        numbers = (library.number_of(info.id) for info in library.passages)
        return [library.passage(number) for number in numbers if number is not None]
    finally:
        library.close()


def compare(
    pair: VersionPair, settings: Settings, progress: Progress | None = None
) -> list[Change]:
    """What changed from `pair.old` to `pair.new`: changelog entries, then sections."""
    old_version, new_version = pair.versions
    old = library_passages(pair.old, settings, progress)
    new = library_passages(pair.new, settings, progress)
    return version_changes(old, new, old_version, new_version, version_key)


def records(changes: Sequence[Change]) -> list[ChangeRecord]:
    return [ChangeRecord.of(change) for change in changes]
