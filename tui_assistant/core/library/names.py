"""Libraries by name: several libraries searched at once, and their passages told apart.

A library's name is given (`NAME=DIR`) or taken from its folder's name as a slug
(`Fastify Docs/` is `fastify-docs`); it matches `^[a-z0-9][a-z0-9-]*$`, or, for a library
fetched from a package registry, `NAME@VERSION` (`flask@3.1.3`). With several
libraries every passage id is `NAME:ID`; a plain id never holds `:`, so the two forms
cannot be confused. Pure: names and strings only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.documents.passage import bare_slug

LIBRARY_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$|^[a-z0-9][a-z0-9._-]*@[A-Za-z0-9.+_-]+$")
# Between a library's name and a passage id (`fastify:guides/hooks`).
NAME_SEPARATOR = ":"


@dataclass(frozen=True, slots=True)
class LibrarySpec:
    """One library the app reads: its name and its folder."""

    name: str
    folder: Path


def library_name(folder_name: str) -> str:
    """The name a folder gives its library, as a slug (`Café Docs` -> `cafe-docs`); ""
    when nothing is left."""
    return bare_slug(folder_name)


def parse_library_entry(
    entry: str, folder_name: Callable[[str], str] = lambda folder: Path(folder).name
) -> LibrarySpec:
    """`NAME=DIR` or `DIR` as a library; `folder_name(DIR)` is the folder's own name
    (the shell resolves `.` to the folder it stands for). Raises ValueError with one
    line."""
    name, equals, folder = entry.partition("=")
    if not equals or not LIBRARY_NAME.match(name):
        # Not a name before `=` (a folder may hold `=` in its name): all of it is DIR.
        name, folder = "", entry
    if not folder.strip():
        raise ValueError(f"library {entry!r} names no folder")
    if not name:
        name = library_name(folder_name(folder))
        if not name:
            raise ValueError(f"folder {folder!r} gives no library name: give it as NAME=DIR")
    return LibrarySpec(name, Path(folder))


def check_distinct(specs: Iterable[LibrarySpec]) -> None:
    """Raise ValueError naming the first name two libraries share."""
    seen: set[str] = set()
    for spec in specs:
        if spec.name in seen:
            raise ValueError(f"two libraries are named {spec.name}: name one of them as NAME=DIR")
        seen.add(spec.name)


def prefixed_id(name: str, passage_id: str) -> str:
    """`NAME:ID`, a passage's id among several libraries."""
    return f"{name}{NAME_SEPARATOR}{passage_id}"


def split_id(passage_id: str) -> tuple[str | None, str]:
    """(library name, id in its library) of `NAME:ID`; (None, id) of a plain id."""
    name, separator, local = passage_id.partition(NAME_SEPARATOR)
    return (name, local) if separator else (None, passage_id)
