"""What a document reads from other files of the library: includes and autodoc.

A document's splitter notes each `include`, `literalinclude` and autodoc directive
(`automodule`, `autoclass`, `autofunction`...) as `Pending`; `resolve` then reads the
files they name through a `Reader` (a function of a library-relative path, given by the
store and confined to the library folder) and puts their passages in the document,
after the passage where the directive stands:

- an included document is split as its own format where that format says so
  (`split_as_itself_when_included`: `.rst` as reStructuredText, `.md` as Markdown),
  anything else as the including document's format, its passages titled under
  the section that includes it and citing the included file's lines;
- a `literalinclude` is a passage of the file's lines (`:lines:` kept to), as code;
- an autodoc directive is a passage per documented object (`python_api`), titled by
  its qualified name and signature, citing the Python source's lines; the module's file
  is found by its dotted name (`pkg/mod.py`, `pkg/mod/__init__.py`, under `src/` or
  `lib/` too); `currentmodule`, `module` and `automodule` name the module of the ones
  after it.

A path outside the library (absolute, or through `..` past its root) is never read;
what is not read is one line of `Document.notes`. Pure: all reading is the reader's.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

from tui_assistant.core.documents import python_api
from tui_assistant.core.documents.directives import (
    AUTODOC,
    MODULE_SETTERS,
    Pending,
)
from tui_assistant.core.documents.formats import DocumentFormat, format_of
from tui_assistant.core.documents.passage import (
    TITLE_SEPARATOR,
    Document,
    PassageDraft,
    UniqueIds,
    cut,
    file_lines,
    join_title,
    slug,
)

MAX_DEPTH = 4  # includes inside includes, at most this deep
_PACKAGE_ROOTS = ("", "src/", "lib/")
_RST_MARKUP = re.compile(r"(?m):[\w:.+-]+:`|``|::\s*$|^\s*:[\w ]+:|^\.\. ")


@dataclass(frozen=True, slots=True)
class Unread:
    """Why a reader did not give a file's text (`outside the library`, `not found`)."""

    reason: str


Reader = Callable[[str], "str | Unread"]
# Splits an included file: (format, library-relative path, text, the includes above it).
Splitter = Callable[[DocumentFormat, str, str, tuple[str, ...]], Document]


def library_path(document_path: str, target: str) -> str | Unread:
    """The library-relative path `target` names from the document at `document_path`."""
    target = target.strip().strip("<>\"'")
    if not target:
        return Unread("names no file")
    if target.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", target):
        return Unread("absolute path (not read)")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(document_path), target))
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        return Unread("outside the library (not read)")
    return joined


def resolve(
    document: Document,
    document_path: str,
    format: DocumentFormat,
    read: Reader | None,
    split: Splitter,
    chain: tuple[str, ...] = (),
) -> Document:
    """`document` with what its pending directives read put in place, and a note for
    each one that could not be."""
    notes = list(document.notes)
    inserted: list[tuple[int, list[PassageDraft]]] = []
    if read is not None:
        read = functools.cache(read)  # a module several autodoc directives name is read once
    module = ""
    for pending in document.pending:
        if pending.directive in MODULE_SETTERS:
            module = pending.argument.strip()
            continue
        what = f"{pending.directive} {pending.argument}"
        if read is None:
            notes.append(f"{what}: not read (no library folder to read it from)")
            continue
        if pending.directive in AUTODOC:
            drafts, note = _autodoc(pending, module, read)
            if pending.directive == "automodule":
                # As Sphinx: an automodule is also a `module` for the directives after it.
                module = pending.argument.strip()
        elif pending.directive == "include":
            drafts, note = _included(pending, document_path, format, read, split, chain)
        else:
            drafts, note = _literal(pending, document_path, read)
        if note:
            notes.append(f"{what}: {note}")
        if drafts:
            inserted.append((pending.line, drafts))
    passages = _placed(document, inserted)
    return replace(document, passages=passages, pending=(), notes=tuple(notes))


def _placed(
    document: Document, inserted: list[tuple[int, list[PassageDraft]]]
) -> tuple[PassageDraft, ...]:
    """The document's passages with each inserted run after the passage its directive
    stands in, under that passage's title, every anchor unique."""
    own = list(document.passages)
    anchors = UniqueIds()
    for draft in own:
        anchors.take(draft.anchor)
    after: dict[int, list[PassageDraft]] = {}
    for line, drafts in inserted:
        place = max((i for i, draft in enumerate(own) if draft.line <= line), default=-1)
        heading = _section_title(document, line) or (
            own[place].title if place >= 0 else document.title
        )
        placed = after.setdefault(place, [])
        for draft in drafts:
            first = not own and place == -1 and not placed
            anchor = "" if first else anchors.take(draft.anchor or slug(draft.title))
            title = join_title(heading, draft.title.split(TITLE_SEPARATOR))
            placed.append(replace(draft, anchor=anchor, title=title))
    result = after.get(-1, [])
    for index, draft in enumerate(own):
        result.append(draft)
        result.extend(after.get(index, []))
    return tuple(result)


def _section_title(document: Document, line: int) -> str:
    """The title of the section `line` stands in, text of its own or not; "" when the
    document says none (before its first heading)."""
    return max(
        ((start, title) for start, title in document.sections if start <= line), default=(0, "")
    )[1]


def _included(
    pending: Pending,
    document_path: str,
    format: DocumentFormat,
    read: Reader,
    split: Splitter,
    chain: tuple[str, ...],
) -> tuple[list[PassageDraft], str]:
    path = library_path(document_path, pending.argument)
    if isinstance(path, Unread):
        return [], path.reason
    if path == document_path or path in chain:
        return [], "includes itself (not read again)"
    if len(chain) >= MAX_DEPTH:
        return [], f"more than {MAX_DEPTH} includes deep (not read)"
    text = _read_part(path, pending, read)
    if isinstance(text, Unread):
        return [], text.reason
    own = format_of(path)
    included_as = own if own is not None and own.split_as_itself_when_included else format
    included = split(included_as, path, text, (*chain, document_path))
    drafts = []
    for draft in included.passages:
        title = draft.title.removeprefix(included.title).removeprefix(TITLE_SEPARATOR)
        drafts.append(replace(draft, title=title or included.title, source=draft.source or path))
    note = "; ".join(included.notes)
    return drafts, note


def _literal(pending: Pending, document_path: str, read: Reader) -> tuple[list[PassageDraft], str]:
    path = library_path(document_path, pending.argument)
    if isinstance(path, Unread):
        return [], path.reason
    text = _read_part(path, pending, read)
    if isinstance(text, Unread):
        return [], text.reason
    lines = list(enumerate(file_lines(text), start=1))
    wanted = _line_numbers(pending.options.get("lines", ""))
    if wanted:
        lines = [(number, line) for number, line in lines if number in wanted]
    name = path.rsplit("/", 1)[-1]
    drafts = [
        PassageDraft(
            slug(name),
            name,
            "\n".join(line for _, line in chunk),
            chunk[0][0],
            chunk[-1][0],
            source=path,
        )
        for chunk in cut(lines)
    ]
    return drafts, "" if drafts else "empty file"


def _read_part(path: str, pending: Pending, read: Reader) -> str | Unread:
    """The text of the file at `path` an include keeps (`_part`), or why there is none."""
    text = read(path)
    if isinstance(text, Unread):
        return text
    part = _part(text, pending.options)
    if part is None:
        return Unread("its start-after or end-before text is not in the file")
    return part


def _part(text: str, options: Mapping[str, str]) -> str | None:
    """The part of `text` an include's `start-after`/`end-before` options keep, the rest
    blanked so every kept line stays on its line; None when a marker is not there."""
    start, end = 0, len(text)
    after = options.get("start-after", "").strip("\"'")
    before = options.get("end-before", "").strip("\"'")
    if after:
        found = text.find(after)
        if found < 0:
            return None
        start = found + len(after)
    if before:
        found = text.find(before, start)
        if found < 0:
            return None
        end = found
    if (start, end) == (0, len(text)):
        return text
    blank = re.sub(r"[^\n]", "", text[:start])
    return blank + text[start:end]


def _line_numbers(spec: str) -> set[int]:
    """`1,3,5-10,20-` as line numbers (an open end up to 100,000)."""
    numbers: set[int] = set()
    for part in spec.replace(" ", "").split(","):
        start, dash, end = part.partition("-")
        if not start.isdigit() and not (dash and end.isdigit()):
            continue
        first = int(start) if start.isdigit() else 1
        last = int(end) if end.isdigit() else (100_000 if dash else first)
        numbers.update(range(first, last + 1))
    return numbers


def _autodoc(pending: Pending, module: str, read: Reader) -> tuple[list[PassageDraft], str]:
    target = pending.argument.split("(", 1)[0].strip()
    if not target:
        return [], "names no object"
    names = [target]
    if module and not target.startswith(module + "."):
        names.append(f"{module}.{target}")
    searched: list[str] = []
    for name in names:
        found = _documented(name, pending, read, searched)
        if found:
            return found, ""
    if searched:
        return [], f"not found with a docstring in {', '.join(dict.fromkeys(searched))}"
    return [], f"no Python source for {target} in the library"


def _documented(
    name: str, pending: Pending, read: Reader, searched: list[str], hops: int = 3
) -> list[PassageDraft]:
    """The passages of `name` from the module that holds it, or from the module it is
    imported from there (a package re-exporting its private modules' objects), named as
    the directive names it."""
    found = _module_source(name, read)
    if found is None:
        return []
    path, source = found
    searched.append(path)
    module = python_api.module_name(path)
    listed = pending.directive == "automodule"  # its members are those `__all__` lists
    objects = python_api.api_objects(path, source, module, only_exported=listed)
    chosen = _chosen(objects, name, pending)
    if chosen or hops == 0 or not name.startswith(module + "."):
        return [_api_draft(item, path) for item in chosen]
    head, _, rest = name[len(module) + 1 :].partition(".")
    imported = python_api.reexports(path, source)
    origin = imported.get(head)
    if origin is None:
        for star in imported.get("*", "").split():
            drafts = _documented(f"{star}.{head}", pending, read, searched, hops - 1)
            if drafts:
                origin = f"{star}.{head}"
                break
        else:
            return []
    target = f"{origin}.{rest}" if rest else origin
    if origin == f"{module}.{head}":
        return []  # `x = x`: nothing more to follow
    drafts = _documented(target, pending, read, searched, hops - 1)
    public = f"{module}.{head}"
    return [
        replace(
            draft,
            title=public + draft.title.removeprefix(origin),
            anchor=slug(public) + draft.anchor.removeprefix(slug(origin)),
        )
        if draft.title.startswith(origin)
        else draft
        for draft in drafts
    ]


def _api_draft(item: python_api.ApiObject, path: str) -> PassageDraft:
    """An object's passage: its docstring read as the reStructuredText Sphinx reads."""
    from tui_assistant.core.documents import myst, rst  # docutils is loaded only for rst

    lines = item.docstring.split("\n")
    if "}`" in item.docstring:  # MyST roles, which some projects write in docstrings
        lines = [myst.with_roles(line, {}) for line in lines]
    if _RST_MARKUP.search("\n".join(lines)):
        lines = rst.shown_rst(lines)
    end_line = item.end_line
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()  # the text still ends on its last file line
        end_line -= 1
    text = "\n".join(lines).strip() or item.docstring
    return PassageDraft(slug(item.qualname), item.title, text, item.line, end_line, source=path)


def _module_source(name: str, read: Reader) -> tuple[str, str] | None:
    """The library path and source of the module holding `name`, longest module first."""
    parts = name.split(".")
    for size in range(len(parts), 0, -1):
        stem = "/".join(parts[:size])
        for path in _candidates(stem):
            text = read(path)
            if not isinstance(text, Unread):
                return path, text
    return None


def _candidates(stem: str) -> Iterator[str]:
    for root in _PACKAGE_ROOTS:
        yield f"{root}{stem}.py"
        yield f"{root}{stem}/__init__.py"


def _chosen(
    objects: list[python_api.ApiObject], name: str, pending: Pending
) -> list[python_api.ApiObject]:
    """The objects a directive documents: `name` itself, and with `:members:` the
    members under it (all, or those listed)."""
    found = [item for item in objects if item.qualname == name]
    if "members" not in pending.options:
        return found
    listed = {member.strip() for member in pending.options["members"].split(",") if member}
    for item in objects:
        if not item.qualname.startswith(name + "."):
            continue
        member = item.qualname[len(name) + 1 :]
        if not listed or member.split(".", 1)[0] in listed:
            found.append(item)
    return found
