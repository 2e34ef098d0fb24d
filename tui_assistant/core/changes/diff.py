"""The documentation of two versions of one library, section by section.

A section is a document's passages under one title path (a long section is cut into
several passages; they are one section here), keyed by its document and title path.
Sections are matched in three passes:

1. the same document and title path: the same text (whitespace aside) is unchanged and
   never reported; other text is `changed`;
2. the same text under another title path or in another document: `moved`;
3. text close enough under another title path or document (word-shingle Jaccard
   similarity at least `MOVED_SIMILARITY`, or `SAME_HEADING_SIMILARITY` when the last
   heading is the same): `moved`, a reworded section rather than one removed and one
   added.

A changed section whose old text is mostly gone from under its title (less than
`MOVED_SIMILARITY` kept) may also have moved: its old text found in a new section is
reported `moved` too. What is left is `added` (in the newer version only) or `removed`
(in the older only).
The changelog's own documents are left out: their entries come first, on their own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from tui_assistant.core.changes.changelog import (
    changelog_entries,
    changelog_passages,
    document_path,
)
from tui_assistant.core.documents.passage import TITLE_SEPARATOR, Passage

ChangeKind = Literal["changelog", "added", "removed", "changed", "moved"]
# Fitted on the development set (eval/changes/, `python -m benchmarks.changes_recall`):
# its reworded sections kept 0.70 or more of their three-word shingles, while no added
# section shared more than 0.09 with any older one; recall is the same from 0.2 to 0.7.
MOVED_SIMILARITY = 0.5
SAME_HEADING_SIMILARITY = 0.3
SHINGLE_WORDS = 3
_WORD = re.compile(r"\w+")
# The order changes are listed in: changelog entries, then the documentation's.
KIND_ORDER: tuple[ChangeKind, ...] = ("changelog", "changed", "moved", "added", "removed")

_LATER_PART = re.compile(r"-part-\d+$")


@dataclass(frozen=True, slots=True)
class Change:
    """One change: its kind, the title it is known by (the newer one, unless removed),
    and the passage it cites in each version (`old`, `new`; None where there is none)."""

    kind: ChangeKind
    title: str
    old: Passage | None
    new: Passage | None


@dataclass(frozen=True, slots=True)
class Section:
    """A document's passages under one title path, as one."""

    document: str
    title: str
    passages: tuple[Passage, ...]

    @property
    def key(self) -> tuple[str, str]:
        return (self.document, self.title)

    @property
    def text(self) -> str:
        return " ".join(" ".join(passage.text for passage in self.passages).split())

    @property
    def heading(self) -> str:
        return self.title.rsplit(TITLE_SEPARATOR, 1)[-1]

    @property
    def cited(self) -> Passage:
        """The passage cited for it: its first, its lines running to its last piece's."""
        first, last = self.passages[0], self.passages[-1]
        if last is first or last.end_line < first.end_line:
            return first
        return replace(first, end_line=last.end_line, end_page=last.end_page or first.end_page)


def sections(passages: Iterable[Passage]) -> list[Section]:
    """`passages` grouped into sections, in the order each first appears."""
    grouped: dict[tuple[str, str], list[Passage]] = {}
    previous: tuple[str, str] | None = None
    for passage in passages:
        document = document_path(passage)
        # A later part of a cut section (`…-part-2`) is titled by what it holds, so it
        # joins the part before it rather than its own title.
        if previous and previous[0] == document and _LATER_PART.search(passage.id):
            key = previous
        else:
            key = (document, passage.title)
        grouped.setdefault(key, []).append(passage)
        previous = key
    return [Section(doc, title, tuple(group)) for (doc, title), group in grouped.items()]


def shingles(text: str) -> frozenset[tuple[str, ...]]:
    """The runs of `SHINGLE_WORDS` words of `text` (lower-cased); a shorter text is one."""
    words = _WORD.findall(text.lower())
    if len(words) <= SHINGLE_WORDS:
        return frozenset({tuple(words)}) if words else frozenset()
    return frozenset(tuple(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - 2))


def similarity(a: str, b: str) -> float:
    """Word-shingle Jaccard similarity of two texts, 0 to 1."""
    first, second = shingles(a), shingles(b)
    if not first or not second:
        return 1.0 if first == second else 0.0
    shared = len(first & second)
    return shared / (len(first) + len(second) - shared)


def documentation_changes(old: Sequence[Passage], new: Sequence[Passage]) -> list[Change]:
    """The sections of `new` changed, moved and added since `old`, and those of `old`
    removed, in that order, each kind in its version's order. The changelog documents
    are left out."""
    old_sections = _without_changelogs(old)
    new_sections = _without_changelogs(new)
    by_key = {section.key: section for section in old_sections}
    changed: list[Change] = []
    left_new: list[Section] = []
    # Changed sections whose old text is mostly gone from under their title: it may
    # have moved to a new section (steps moved under a new subheading).
    rewritten: list[Section] = []
    for section in new_sections:
        before = by_key.pop(section.key, None)
        if before is None:
            left_new.append(section)
        elif before.text != section.text:
            changed.append(Change("changed", section.title, before.cited, section.cited))
            if similarity(before.text, section.text) < MOVED_SIMILARITY:
                rewritten.append(before)
    left_old = [section for section in old_sections if section.key in by_key]
    pairs = _moved([*left_old, *rewritten], left_new)
    moved_from = {id(pairs[id(s)]): s for s in [*left_old, *rewritten] if id(s) in pairs}
    moved = [
        Change("moved", s.title, moved_from[id(s)].cited, s.cited)
        for s in left_new
        if id(s) in moved_from
    ]
    added = [Change("added", s.title, None, s.cited) for s in left_new if id(s) not in moved_from]
    removed = [Change("removed", s.title, s.cited, None) for s in left_old if id(s) not in pairs]
    return changed + moved + added + removed


def version_changes(
    old: Sequence[Passage],
    new: Sequence[Passage],
    old_version: str,
    new_version: str,
    order: Callable[[str], Any],
) -> list[Change]:
    """Everything that changed from `old` (the passages of `old_version`) to `new`: the
    changelog entries of the range first, then the documentation's changes."""
    entries = changelog_entries(new, old_version, new_version, order, old)
    logged = [Change("changelog", entry.title, None, entry.passage) for entry in entries]
    return logged + documentation_changes(old, new)


def _without_changelogs(passages: Sequence[Passage]) -> list[Section]:
    logs = {id(passage) for passage in changelog_passages(passages)}
    return sections(passage for passage in passages if id(passage) not in logs)


def _moved(old: Sequence[Section], new: Sequence[Section]) -> dict[int, Section]:
    """The sections of `new` each section of `old` moved to (by `id` of the old one):
    the same text first, then the most similar, each section paired once."""
    pairs: dict[int, Section] = {}
    taken: set[int] = set()
    by_text: dict[str, list[Section]] = {}
    for after in new:
        by_text.setdefault(after.text, []).append(after)
    for before in old:
        same = [s for s in by_text.get(before.text, []) if id(s) not in taken]
        if same:
            after = max(same, key=lambda s: similarity(before.title, s.title))
            pairs[id(before)] = after
            taken.add(id(after))
    candidates = _similar(
        [s for s in old if id(s) not in pairs], [s for s in new if id(s) not in taken]
    )
    for _, before, after in sorted(candidates, key=lambda c: -c[0]):
        if id(before) not in pairs and id(after) not in taken:
            pairs[id(before)] = after
            taken.add(id(after))
    return pairs


def _similar(
    old: Sequence[Section], new: Sequence[Section]
) -> list[tuple[float, Section, Section]]:
    """The pairs similar enough to be one section moved, with their similarity; only
    pairs sharing a shingle are compared (an index of the old sections' shingles)."""
    old_shingles = [shingles(section.text) for section in old]
    holding: dict[tuple[str, ...], list[int]] = {}
    for number, found in enumerate(old_shingles):
        for shingle in found:
            holding.setdefault(shingle, []).append(number)
    pairs = []
    for after in new:
        mine = shingles(after.text)
        shared = Counter(number for shingle in mine for number in holding.get(shingle, ()))
        for number, count in shared.items():
            before = old[number]
            score = count / (len(mine) + len(old_shingles[number]) - count)
            same_heading = before.heading == after.heading
            if score >= MOVED_SIMILARITY or (same_heading and score >= SAME_HEADING_SIMILARITY):
                # The same heading breaks a tie.
                pairs.append((score + (0.001 if same_heading else 0.0), before, after))
    return pairs
