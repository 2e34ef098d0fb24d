"""A question that names an API object (`Session.mount`, `dict_from_cookiejar`,
`HTTPDigestAuth`) finds that object's API-reference passage first.

Word scores cannot tell `dict_from_cookiejar` from `add_dict_to_cookiejar` (the same
words, `from` and `to` being stop words), and their docstrings say much the same; the
name itself can. Only passages read from Python source (their titles are qualified
names and signatures) are matched, so other documents rank as before. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# A dotted identifier in a question; it names code when it has `.`, `_`, an inner
# capital letter or a call's `(`.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(\()?")
_CODE_LIKE = re.compile(r"[._]|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]")
# A name more objects share than this (`__call__`, `get`) says too little to reorder by.
MAX_NAMED = 5

NamedIndex = Mapping[str, tuple[tuple[int, tuple[str, ...], str], ...]]


def named_index(titles: Iterable[tuple[int, str]]) -> NamedIndex:
    """Python API passages by their object's own name (lower case): each passage's
    number, its qualified name's parts (lower case) and the name as written, from
    `(number, title)` pairs."""
    index: dict[str, list[tuple[int, tuple[str, ...], str]]] = {}
    for number, title in titles:
        qualified = title.split("(", 1)[0].split(" -> ", 1)[0].strip()
        written = [part for part in qualified.split(".") if part]
        if written:
            parts = tuple(part.lower() for part in written)
            index.setdefault(parts[-1], []).append((number, parts, written[-1]))
    return {name: tuple(entries) for name, entries in index.items()}


def named_in(question: str, index: NamedIndex) -> list[int]:
    """The passages a question names, best match first: every part of the name it
    writes appears, in order, in the object's qualified name, ending with it; a longer
    name written, the same letter case and a shorter qualified name come first."""
    found: dict[int, tuple[int, int, int]] = {}
    for match in _IDENTIFIER.finditer(question):
        written = match.group(0).rstrip("(")
        if not (match.group(1) or _CODE_LIKE.search(written)):
            continue
        parts = written.split(".")
        lowered = [part.lower() for part in parts]
        candidates = [
            (number, qualified, name)
            for number, qualified, name in index.get(lowered[-1], ())
            if _within(lowered, qualified)
        ]
        if not 0 < len(candidates) <= MAX_NAMED:
            continue
        for number, qualified, name in candidates:
            rank = (-len(parts), 0 if name == parts[-1] else 1, len(qualified))
            found[number] = min(found.get(number, rank), rank)
    return sorted(found, key=lambda number: found[number])


def _within(parts: list[str], qualified: tuple[str, ...]) -> bool:
    """`parts` appear in `qualified` in order, its last part last (`requests.post`
    within `requests.api.post`)."""
    remaining = iter(qualified[:-1])
    return all(part in remaining for part in parts[:-1])
