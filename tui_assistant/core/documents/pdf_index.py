"""A PDF's navigation: its table of contents and its back-of-book index are not
passages; each index term is a way into the passage on the page it names.

- A section titled as an index (`Index`, `Concept Index`, `Index of Functions, ...`)
  or as contents (`Contents`, `Table of Contents`, `Short Contents`) is navigation.
- An index's entries are `term, 12` lines or `term . . . . 12, 40` lines (leaders,
  which the text leaves out as a table of contents' entries are); their page numbers
  are the printed ones, turned into the file's pages by the running headers' and
  footers' numbers (the most common difference between the two), else taken as they are.
- A term goes to the passage on its page whose text holds it, else to that page's
  first passage.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from tui_assistant.core.documents.passage import PassageDraft
from tui_assistant.core.documents.pdf_layout import (
    CONTENTS_ENTRY,
    PdfContent,
    running_line_places,
)

_INDEX_TITLE = re.compile(r"^(?:[\w&,-]+\s+){0,3}index(?:es)?(?:\s+of\b.*)?$", re.IGNORECASE)
_CONTENTS_TITLE = re.compile(r"^(?:(?:table\s+of|short)\s+)?contents$", re.IGNORECASE)
_COMMA_ENTRY = re.compile(
    r"^(?P<term>\S.*?),\s*(?P<pages>\d+(?:[-\u2013]\d+)?(?:,\s*\d+(?:[-\u2013]\d+)?)*)$"
)
# One or more entries on a line (two columns read across): `term . . . . 12, 40`.
_LEADER_ENTRY = re.compile(
    r"(?P<term>[^.\s].*?)\s*(?:\.\s?){3,}\s*(?P<pages>\d+(?:,\s*\d+)*)(?=\s|$)"
)
_EDGE_NUMBER = re.compile(r"^(\d+)\b|\b(\d+)$")
MAX_TERMS_PER_PASSAGE = 60


def is_navigation(title: str) -> bool:
    """Whether a section so titled is an index or a table of contents."""
    words = " ".join(title.split()).strip(" .:")
    words = re.sub(r"^(?:[A-Z]|\d+(?:\.\d+)*)\s+", "", words)  # `E Index`, `12 Index`
    return bool(_INDEX_TITLE.match(words) or _CONTENTS_TITLE.match(words))


def is_index(title: str) -> bool:
    words = re.sub(r"^(?:[A-Z]|\d+(?:\.\d+)*)\s+", "", " ".join(title.split()).strip(" .:"))
    return bool(_INDEX_TITLE.match(words))


def index_entries(
    content: PdfContent, pages: Iterable[int], texts: Iterable[str]
) -> list[tuple[str, int]]:
    """(term, printed page) of an index that stands on `pages` (1-based): its leader
    lines, read from the pages, and its `term, 12` lines among `texts`."""
    found: list[tuple[str, int]] = []
    for number in sorted(set(pages)):
        if not 1 <= number <= len(content.pages):
            continue
        for line in content.pages[number - 1].lines:
            text = " ".join(line.text.split())
            if CONTENTS_ENTRY.search(text):
                for match in _LEADER_ENTRY.finditer(text):
                    found.extend(_entry(match))
    for text in texts:
        found.extend(_entry(_COMMA_ENTRY.match(" ".join(text.split()))))
    return found


def _entry(match: re.Match[str] | None) -> list[tuple[str, int]]:
    if match is None:
        return []
    term = match.group("term").strip(" .,")
    if not term or not any(char.isalpha() for char in term):
        return []
    pages = [
        int(re.split(r"[-\u2013]", part.strip())[0]) for part in match.group("pages").split(",")
    ]
    return [(term, page) for page in pages]


def page_offset(content: PdfContent) -> int:
    """The file's page number minus the printed one, as the running headers and
    footers say it most often; 0 when they say none."""
    differences: Counter[int] = Counter()
    for number, index in running_line_places(content.pages):
        text = " ".join(content.pages[number - 1].lines[index].text.split())
        found = _EDGE_NUMBER.search(text)
        if found:
            differences[number - int(found.group(1) or found.group(2))] += 1
    return differences.most_common(1)[0][0] if differences else 0


def with_index_terms(
    drafts: Sequence[PassageDraft], entries: Iterable[tuple[str, int]], offset: int
) -> list[PassageDraft]:
    """`drafts` with each index term among the `index_terms` of the passage on its page
    whose text holds it, else of that page's first passage."""
    terms: dict[int, list[str]] = {}
    for term, printed in entries:
        page = printed + offset
        on_page = [
            i
            for i, draft in enumerate(drafts)
            if draft.page is not None and draft.page <= page <= (draft.end_page or draft.page)
        ]
        if not on_page:
            continue
        wanted = term.casefold()
        chosen = next((i for i in on_page if wanted in drafts[i].text.casefold()), on_page[0])
        held = terms.setdefault(chosen, [])
        if term not in held and len(held) < MAX_TERMS_PER_PASSAGE:
            held.append(term)
    return [
        replace(draft, index_terms=(*draft.index_terms, *terms[i])) if i in terms else draft
        for i, draft in enumerate(drafts)
    ]
