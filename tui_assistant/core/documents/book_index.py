"""The book's own index as a way into its passages: each index term becomes an
`index_term` of the passage holding the place its entry points to.

Pure: a reader gives the index's terms with the line each points to in its file
(`html.py` resolves `#anchor` links within one page).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from tui_assistant.core.documents.passage import PassageDraft

# Terms an index gives one passage at most (an index that points everywhere at one
# place says nothing more about it).
MAX_INDEX_TERMS = 60
# An anchor this few lines before a passage is the place where it starts (texinfo
# writes its anchors on the lines before a heading or an entry).
LEAD_LINES = 3


def passage_at(drafts: Sequence[PassageDraft], line: int) -> int | None:
    """The position of the passage holding `line`: the one whose lines span it, else
    the one starting just after it, else the last one starting before it."""
    before: int | None = None
    for position, draft in enumerate(drafts):
        if draft.line <= line <= draft.end_line:
            return position
        if line < draft.line <= line + LEAD_LINES:
            return position
        if draft.line <= line:
            before = position
    return before


def with_index_terms(
    drafts: Sequence[PassageDraft], entries: Iterable[tuple[str, int]]
) -> list[PassageDraft]:
    """`drafts` with each index entry's term (term, the line it points to) added to the
    `index_terms` of the passage at that line (never one its title says already)."""
    added: dict[int, list[str]] = {}
    for term, line in entries:
        position = passage_at(drafts, line)
        if position is not None:
            added.setdefault(position, []).append(term)
    result = list(drafts)
    for position, terms in added.items():
        draft = result[position]
        title = draft.title.casefold()
        fresh = [term for term in terms if term.casefold() not in title]
        merged = tuple(dict.fromkeys((*draft.index_terms, *fresh)))[:MAX_INDEX_TERMS]
        result[position] = replace(draft, index_terms=merged)
    return result
