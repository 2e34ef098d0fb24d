"""What a reload changed: how many passages came in and how many went away.

A passage is its id, title and text; one whose text changed went away and came back
(one each way), one that only moved to other lines did not change. Texts are compared
only for the documents the new library read again (`Library.reread`): every other
document's passages were read from the same stored rows, so only their ids and titles
are compared (an id can change when another document takes it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tui_assistant.core.library.library import Library


@dataclass(frozen=True, slots=True)
class PassageChanges:
    added: int
    removed: int

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)

    def __str__(self) -> str:
        """`+3 −1 passages` (U+2212, the minus sign, as in print)."""
        return f"+{self.added:,} \N{MINUS SIGN}{self.removed:,} passages"


def passage_changes(before: Library, after: Library) -> PassageChanges:
    """The passages of `after` that `before` did not have, and the reverse (library by
    library, when they are made of several)."""
    if before.combined or after.combined:
        added = removed = 0
        for name in dict.fromkeys([*before.parts, *after.parts]):
            old_part, new_part = before.parts.get(name), after.parts.get(name)
            if old_part is None or new_part is None:
                added += len(new_part or ())
                removed += len(old_part or ())
                continue
            changes = passage_changes(old_part, new_part)
            added, removed = added + changes.added, removed + changes.removed
        return PassageChanges(added, removed)
    reread = set(after.reread)
    old, new = _passages(before, reread), _passages(after, reread)
    return PassageChanges(added=(new - old).total(), removed=(old - new).total())


def _passages(library: Library, reread: set[str]) -> Counter[tuple[str, str, str | None]]:
    found: Counter[tuple[str, str, str | None]] = Counter()
    for info in library:
        text = None
        if info.document in reread:
            number = library.number_of(info.id)
            assert number is not None
            text = library.passage(number).text
        found[(info.id, info.title, text)] += 1
    return found
