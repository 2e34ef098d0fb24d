"""The library in memory: its documents, the passages they split into, and their index.

`Library` is the view retrieval and the UI read; `parse_document` turns one document's
bytes into its title and passages, as its format (`core.documents.formats`) reads them
(splitting is the pure `split.split_document`).
Pure: the folder is listed and read by `store/folder.py` (every document file of the
formats `TUI_ASSISTANT_DOCUMENT_TYPES` allows, at any depth, names starting with `.`
skipped, symlinks never followed, a file over its format's size limit, not in its
encoding or binary, or a PDF that cannot be read, skipped with a one-line
warning naming it), and the index store
(`store/index_store.py`) decides which files to read again.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from tui_assistant.core.documents.book_index import LEAD_LINES, MAX_INDEX_TERMS
from tui_assistant.core.documents.formats import DocumentFormat, document_id, file_title, format_of
from tui_assistant.core.documents.inclusion import Reader
from tui_assistant.core.documents.passage import (
    Document,
    Passage,
    PassageFields,
    UniqueIds,
)
from tui_assistant.core.documents.split import decode_as, split_document, text_format
from tui_assistant.core.library.names import library_name
from tui_assistant.core.retrieval.index import InvertedIndex
from tui_assistant.errors import NotText

# Why a document that only includes other documents of the library is not one itself.
INCLUDES_ONLY = "has no text of its own (what it includes is read as its own document)"
# More include-only documents than this are said in one warning.
INCLUDES_ONLY_NAMED = 3
# Texts of the passages shown last kept at hand (a few megabytes): a server's questions
# come back to the same passages, each read from the store under its one lock.
TEXTS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class FileProblem:
    """Something a user should know about one file: why it was skipped, or that its id
    had to change. `path` is relative to the library folder."""

    path: str
    reason: str
    skipped: bool = True
    # Whether it was not met on the library's previous start (`store.index_store` keeps
    # what it met); a problem with no record to compare with is new.
    new: bool = field(default=True, compare=False)

    def __str__(self) -> str:
        if self.skipped:
            return f"skipped file {printable_file_name(self.path)}: {self.reason}"
        return f"file {printable_file_name(self.path)}: {self.reason}"


def warning_lines(problems: Iterable[object]) -> list[str]:
    """What a user is warned of, a line each: every problem, except that several
    documents that only include others (a Sphinx page of `.. include::` lines) are one
    line, since nothing of theirs is lost."""
    problems = list(problems)  # `FileProblem`s (a `LibraryError`'s are typed as objects)
    including = [
        p
        for p in problems
        if isinstance(p, FileProblem) and p.skipped and p.reason == INCLUDES_ONLY
    ]
    if len(including) <= 1:
        return [str(problem) for problem in problems]
    names = [printable_file_name(problem.path) for problem in including]
    shown = ", ".join(names[:INCLUDES_ONLY_NAMED])
    more = len(names) - INCLUDES_ONLY_NAMED
    grouped = (
        f"skipped {len(names)} files that only include other documents, each read as its"
        f" own: {shown}" + (f" and {more} more" if more > 0 else "")
    )
    lines = [str(problem) for problem in problems if problem not in including]
    return [grouped, *lines]


def problem_keys(problems: Iterable[FileProblem]) -> list[tuple[str, str]]:
    """What tells one problem from another across starts: its file and its message."""
    return sorted({(problem.path, problem.reason) for problem in problems})


def marked_new(
    problems: Iterable[FileProblem], seen: Iterable[tuple[str, str]]
) -> tuple[FileProblem, ...]:
    """`problems`, each marked new unless `seen` (the previous start's keys) has it."""
    before = set(seen)
    return tuple(
        dataclasses.replace(problem, new=(problem.path, problem.reason) not in before)
        for problem in problems
    )


def printable_file_name(name: str) -> str:
    """`name` on one visible line, for messages.

    Control, format (bidi included), line-separator and undecodable characters are
    written as escapes (`\\n`, `\\x1b`, `\\u202e`; a byte that was not UTF-8 as `\\xff`),
    so a hostile file name can neither break a message into lines nor drive the
    terminal, and two different names never look the same.
    """
    shown: list[str] = []
    for char in name:
        code = ord(char)
        if char == "\\":
            shown.append("\\\\")
        elif 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for an undecodable byte
            shown.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            if code < 0x100:
                shown.append(f"\\x{code:02x}")
            elif code <= 0xFFFF:
                shown.append(f"\\u{code:04x}")
            else:
                shown.append(f"\\U{code:08x}")
        else:
            shown.append(char)
    return "".join(shown)


def parse_document(
    relative_path: str,
    data: bytes,
    read: Reader | None = None,
    own: DocumentFormat | None = None,
) -> Document | str:
    """A document file's bytes split into passages, or the reason it is skipped, read
    as its format (`own`, else the one its name says); `read` gives the other files of
    the library it names (`inclusion.Reader`)."""
    own = own or format_of(relative_path)
    if own is not None and own.split_pages is not None:
        return own.split_pages(relative_path, data, file_title(relative_path))
    format = text_format(own)
    try:
        text = decode_as(format, data)
    except NotText as problem:
        return str(problem)
    if not text.strip():
        return "empty"
    document = split_document(relative_path, text, read, format)
    if not document.passages:
        return format.why_empty(text)
    return document


def document_ids(paths: Iterable[str]) -> tuple[dict[str, str], list[FileProblem]]:
    """Each document's id, in path order: a later path whose id is taken gets `-2`,
    `-3`, ... and a notice saying so."""
    ids: dict[str, str] = {}
    taken = UniqueIds()
    notices: list[FileProblem] = []
    for path in paths:
        wanted = document_id(path)
        ids[path] = candidate = taken.take(wanted)
        if candidate != wanted:
            notices.append(
                FileProblem(path, f"id {wanted} is taken, so its id is {candidate}", skipped=False)
            )
    return ids, notices


def repeated_passages(cited: Sequence[tuple[str, str, int]]) -> set[int]:
    """The passages that repeat another, to be left out: `cited` gives each passage in
    library order as (its document's path, the file it cites, its first line).

    A Python object is one passage however many times it is read: an autodoc directive
    and the object's own source file both give it, citing the same source lines. The
    docs page's passage is kept (its place and section; it cites the source's lines,
    so they stay reachable), else the first; the others are left out. Objects are told
    apart by the line they start on, which no two share."""
    keep: dict[tuple[str, int], int] = {}
    for number, (document, file, line) in enumerate(cited):
        if not file.endswith(".py"):
            continue
        kept = keep.get((file, line))
        if kept is None or (document != file and cited[kept][0] == file):
            keep[(file, line)] = number
    kept_numbers = set(keep.values())
    return {
        number
        for number, (_, file, _) in enumerate(cited)
        if file.endswith(".py") and number not in kept_numbers
    }


# -- the in-memory view -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PassageInfo(PassageFields):
    """What the library keeps in memory for one passage; its text stays in the store."""

    id: str
    title: str
    source_path: str
    line: int
    end_line: int
    document: str  # the document's path relative to its library's folder
    library: str = ""
    page: int | None = None
    end_page: int | None = None
    page_starts: tuple[int, ...] = ()
    url: str | None = None  # a fetched website's page
    # Words a reader looks it up by besides its title (`Passage.index_terms`).
    index_terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """One document of the library, for browsing: its passages are
    `library.passages[first : first + count]`."""

    path: str  # relative to its library's folder
    title: str
    first: int
    count: int
    library: str = ""


class Library:
    """The library as loaded: passages in library order, their index, and their texts.

    `passages` is in library order (by path, then within the document). Retrieval
    works on the index's passage numbers; `passage(number)` gives the full passage, its
    text read from where the library keeps it (the store's snapshot, or memory).
    `positions[number]` is that passage's place in `passages` (numbers follow the
    store's row order, which keeps every word's postings ascending).
    """

    def __init__(
        self,
        folder: Path,
        passages: Sequence[PassageInfo],
        documents: Sequence[DocumentInfo],
        index: InvertedIndex,
        text: Callable[[int], str],
        problems: Sequence[FileProblem] = (),
        positions: Sequence[int] | None = None,
        hidden: Sequence[str] = (),
        reread: Sequence[str] = (),
        name: str | None = None,
        parts: Mapping[str, Library] | None = None,
    ) -> None:
        self.folder = folder
        self.name = name if name is not None else (library_name(folder.name) or "library")
        # The libraries this one is made of, by name (`combined.combine`); a library
        # read from one folder is its own only part.
        self.parts: Mapping[str, Library] = dict(parts) if parts is not None else {self.name: self}
        self.passages = tuple(passages)
        self.documents = tuple(documents)
        self.index = index
        self.problems = tuple(problems)
        # Names skipped for starting with `.`: reported, never warned about.
        self.hidden = tuple(hidden)
        # The documents read again (or dropped) when this library was opened: only they
        # can differ from the library it replaces.
        self.reread = tuple(reread)
        self.positions: Sequence[int] = (
            positions if positions is not None else range(len(self.passages))
        )
        self._text = text
        # Tables built from its passages that a retriever would otherwise build at
        # every open, kept with the index (`store.kept_tables`), by name.
        self.tables: dict[str, object] = {}
        self._kept_text = lru_cache(maxsize=TEXTS_KEPT)(text)

    def __len__(self) -> int:
        return len(self.passages)

    @property
    def combined(self) -> bool:
        """Whether its passages come from other libraries, their ids prefixed `NAME:`."""
        return any(part is not self for part in self.parts.values())

    def part_of(self, passage: PassageFields) -> Library:
        """The library read from one folder that holds `passage` (itself, unless combined)."""
        return self.parts.get(passage.library, self) if self.combined else self

    def __iter__(self) -> Iterator[PassageInfo]:
        return iter(self.passages)

    @cached_property
    def _numbers(self) -> dict[str, int]:
        return {
            self.passages[position].id: number for number, position in enumerate(self.positions)
        }

    def number_of(self, passage_id: str) -> int | None:
        """The index number of the passage with this id, if the library has it."""
        return self._numbers.get(passage_id)

    def info(self, number: int) -> PassageInfo:
        return self.passages[self.positions[number]]

    def passage(self, number: int) -> Passage:
        info = self.info(number)
        return Passage(
            id=info.id,
            title=info.title,
            text=self._kept_text(number),
            source_path=info.source_path,
            line=info.line,
            end_line=info.end_line,
            library=info.library,
            page=info.page,
            end_page=info.end_page,
            page_starts=info.page_starts,
            url=info.url,
            index_terms=info.index_terms,
        )

    def get(self, passage_id: str) -> Passage | None:
        number = self.number_of(passage_id)
        return None if number is None else self.passage(number)

    def close(self) -> None:
        """Let go of the store snapshot the texts are read from (after a reload)."""
        self._kept_text.cache_clear()
        if self.combined:
            for part in self.parts.values():
                part.close()
            return
        close = getattr(self._text, "close", None)
        if close is not None:
            close()


def with_site_index_terms(
    infos: Sequence[PassageInfo], targets: Iterable[tuple[str, str, int]]
) -> list[PassageInfo]:
    """`infos` with each term of a site's index pages (term, document path, line it points
    to: `built_site.index_targets`) among the `index_terms` of the passage of that
    document holding the line (`book_index.passage_at`'s rule); a term its title says
    already is left out."""
    targets = list(targets)
    if not targets:  # most libraries have no index page: nothing to look up
        return list(infos)
    by_document: dict[str, list[int]] = {}
    for number, info in enumerate(infos):
        by_document.setdefault(info.document, []).append(number)
    added: dict[int, list[str]] = {}
    for term, path, line in targets:
        numbers = by_document.get(path, [])
        position = _holding([(infos[n].line, infos[n].end_line) for n in numbers], line)
        if position is not None:
            added.setdefault(numbers[position], []).append(term)
    result = list(infos)
    for number, terms in added.items():
        info = result[number]
        title = info.title.casefold()
        fresh = [term for term in terms if term.casefold() not in title]
        merged = tuple(dict.fromkeys((*info.index_terms, *fresh)))[:MAX_INDEX_TERMS]
        result[number] = dataclasses.replace(info, index_terms=merged)
    return result


def _holding(spans: Sequence[tuple[int, int]], line: int) -> int | None:
    """The position of the span holding `line`, else the one starting just after it,
    else the last one starting before it (`book_index.passage_at`)."""
    before: int | None = None
    for position, (start, end) in enumerate(spans):
        if start <= line <= end or line < start <= line + LEAD_LINES:
            return position
        if start <= line:
            before = position
    return before
