"""The entries of a page's reference lists and its book index, as `html_text` reads
them: a mixin of its page reader, which calls `_read_entries` for each element it shows,
`_read_index` for each inside the book's index, and `_end_term` when a term's `<dt>`
closes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

# Inside a term (`<dt>`), what names it: texinfo's `<strong>`, Sphinx's `sig-name`.
_NAME_TAGS = frozenset({"strong", "b"})
_NAME_CLASSES = frozenset({"sig-name", "descname"})
# Reference lists that document no terms.
_NOT_TERMS = frozenset({"footnote", "citation"})
# Sphinx ids of objects that are not API names (`cmdoption-pip-install-r`): named by words.
_WORD_IDS = ("cmdoption-", "envvar-", "confval-", "term-", "std-")
MAX_TERM_CHARS = 100
# Between a term's alternatives (`-a<br>--all`): each is a term of its own.
_TERM_BREAK = "\x1f"


class Opened(Protocol):
    """What the reader knows of an element it opened."""

    tag: str
    term: bool
    name: bool
    terms: bool


@dataclass(slots=True)
class EntryPiece:
    line: int
    main: bool
    alone: bool = False
    terms: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _List:
    """An open reference list: whether its entries are terms, the entry read last and
    whether its definition is still to come (a second `<dt>` adds a term to it)."""

    documents_terms: bool
    entry: EntryPiece | None = None
    awaiting: bool = False


@dataclass(slots=True)
class _Term:
    entry: EntryPiece
    words: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    fixed: bool = False  # named by its id already


class EntryReading:
    """The reader's state of reference lists, terms and the book's index."""

    def __init__(self) -> None:
        self._lists: list[_List] = []  # open reference lists
        self._term: _Term | None = None  # the term being read
        self._naming = 0  # open elements naming it
        self._index_link: tuple[str, list[str]] | None = None  # an index entry being read
        self._index: list[tuple[str, str]] = []
        # In the book's index: whether only a row's first link is an entry (texinfo's
        # rows end with a link to the section), and whether the open row had it.
        self._index_rows: list[bool] | None = None
        self._anchors: dict[str, int] = {}

    def _entry_started(self, entry: EntryPiece) -> None:
        raise NotImplementedError

    def _in_main(self) -> bool:
        raise NotImplementedError

    def _read_index(self, tag: str, attributes: dict[str, str | None]) -> None:
        assert self._index_rows is not None
        first_only, linked = self._index_rows
        if tag == "tr":
            self._index_rows[1] = False
        elif tag == "a" and attributes.get("href") and not (first_only and linked):
            self._index_link = (str(attributes["href"]).strip(), [])
            self._index_rows[1] = True

    def _note_anchor(self, attributes: dict[str, str | None], line: int) -> None:
        for anchor in (attributes.get("id"), attributes.get("name")):
            if anchor:
                self._anchors.setdefault(anchor, line)

    def _read_entries(
        self, opened: Opened, attributes: dict[str, str | None], names: list[str], line: int
    ) -> None:
        """Follow reference lists: a `<dl>` opens one, a `<dt>` starts an entry (or adds
        a term to the entry whose definition is still to come), a `<dd>` defines it."""
        tag = opened.tag
        if tag == "dl":
            opened.terms = True
            self._lists.append(_List(_NOT_TERMS.isdisjoint(names)))
        elif tag == "dd" and self._lists:
            self._lists[-1].awaiting = False
        elif tag == "dt" and self._term is None:
            element_id = " ".join((attributes.get("id") or "").split())
            if element_id and "sig" in names:
                # A documented object (Sphinx's `<dt class="sig" id="pkg.Class.method">`)
                # is an entry of its own, named by its qualified name.
                entry = EntryPiece(line, self._in_main(), alone=True)
                fixed = not element_id.startswith(_WORD_IDS)
                if fixed:
                    entry.terms.append(element_id)
                self._entry_started(entry)
                self._term, opened.term = _Term(entry, fixed=fixed), True
                return
            if len(self._lists) != 1 or not self._lists[0].documents_terms:
                return  # a list inside an entry is part of its definition
            listed = self._lists[0]
            if not (listed.awaiting and listed.entry is not None):
                listed.entry = EntryPiece(line, self._in_main())
                self._entry_started(listed.entry)
            listed.awaiting = True
            self._term, opened.term = _Term(listed.entry), True
        elif self._term is not None and tag == "span" and "term" in names:
            self._term_break()  # DocBook's `<span class="term">`: one alternative each
        elif self._term is not None and (tag in _NAME_TAGS or not _NAME_CLASSES.isdisjoint(names)):
            opened.name = True
            self._naming += 1

    def _term_break(self) -> None:
        """The term being read has another alternative after this point."""
        assert self._term is not None
        self._term.words.append(_TERM_BREAK)
        if self._term.names:
            self._term.names.append(_TERM_BREAK)

    def _end_term(self, term: _Term) -> None:
        self._term = None
        if term.fixed:
            return
        names = "".join(term.names)
        read = names if names.replace(_TERM_BREAK, "").strip() else "".join(term.words)
        for alternative in read.split(_TERM_BREAK):
            words = " ".join(alternative.split()).rstrip(" ¶§:")
            if words and len(words) <= MAX_TERM_CHARS:
                term.entry.terms.append(words)
