"""Several libraries searched as one.

A question over several libraries is ranked once, over the union of their passages:
one index whose word statistics (how rare a word is, how long passages are) are those
of all the libraries together, and for `hybrid` one matrix of all their vectors. So
the best passage of one library competes with the best of another on one scale, and
the confidence signals (leads, matched shares, cosines) mean what they mean for one
library; merging separate rankings would compare scores that do not carry over from
one library to the next. Each library keeps its own index store and vectors: the
union is built in memory from the libraries as read, and its texts are read from
each library's own store.

In the union every passage id is `NAME:ID` and every passage says its `library`;
paths stay as they are (relative to each library's parent folder), told apart by the
library they belong to. Pure: the libraries are already read.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import replace
from itertools import accumulate

from tui_assistant.core.library.library import DocumentInfo, FileProblem, Library, PassageInfo
from tui_assistant.core.library.names import prefixed_id
from tui_assistant.core.retrieval.index import concatenated


class _Texts:
    """Passage texts of the union, by number, read from the library each one is in."""

    def __init__(self, parts: Sequence[Library], offsets: Sequence[int]) -> None:
        self._parts = parts
        self._offsets = offsets

    def __call__(self, number: int) -> str:
        place = bisect.bisect_right(self._offsets, number) - 1
        return self._parts[place].passage(number - self._offsets[place]).text


def combine(parts: Sequence[Library]) -> Library:
    """`parts` (distinct names) as one library: their passages in turn, ids `NAME:ID`.

    With one part it is that library with its ids prefixed (what a question narrowed
    to one of several libraries searches): its own index, nothing copied."""
    names = [part.name for part in parts]
    if not parts or len(set(names)) != len(names):
        raise ValueError("combine needs libraries of distinct names")
    offsets = list(accumulate((len(part) for part in parts[:-1]), initial=0))
    passages: list[PassageInfo] = []
    documents: list[DocumentInfo] = []
    positions: list[int] = []
    problems: list[FileProblem] = []
    hidden: list[str] = []
    for part, offset in zip(parts, offsets, strict=True):
        name = part.name
        passages.extend(
            replace(info, id=prefixed_id(name, info.id), library=name) for info in part.passages
        )
        documents.extend(
            replace(document, first=document.first + offset, library=name)
            for document in part.documents
        )
        positions.extend(position + offset for position in part.positions)
        problems.extend(
            replace(problem, path=prefixed_id(name, problem.path)) for problem in part.problems
        )
        hidden.extend(prefixed_id(name, path) for path in part.hidden)
    return Library(
        parts[0].folder,
        passages,
        documents,
        concatenated([part.index for part in parts]),
        _Texts(parts, offsets),
        problems,
        positions,
        hidden,
        name="+".join(names),
        parts={part.name: part for part in parts},
    )
