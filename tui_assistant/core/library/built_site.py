"""Built documentation sites: a folder of generated pages is read once, as its pages.

A folder that holds a site's built HTML pages also holds what the generator made
for the browser: Sphinx's `_sources/` copies of every page's source, its general
index (`genindex*.html`), search page, module index (`py-modindex.html`), 404 page,
highlighted source pages (`_modules/`) and static folders; MkDocs' search index,
theme assets and 404 page. Reading them would give each page twice, or give pages of
links and search boxes. `skipped_in_site` names them, in one line for the folder, from
the names in the folder alone: only when a format of built pages (`built_site_pages`:
HTML) is read and the folder has pages of it, so a tree that has only `_sources/` (or
whose HTML is not read) keeps its sources.

The index pages (`genindex.html`, texinfo's `Concept-Index.html`) are never documents,
but their terms are: `index_links` reads an index page's entries, `index_targets`
resolves each to the page and line its link points to (pure; the store's reader reads
the pages and gives each term to the passage at that line).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import unquote

from tui_assistant.core.documents.formats import FORMATS, format_of

SPHINX_MARKERS = frozenset({"objects.inv", "searchindex.js"})
MKDOCS_MARKERS = frozenset({"sitemap.xml", "sitemap.xml.gz"})
BUILT_SITE = "part of a built site, not a page"

_SPHINX_FOLDERS = frozenset({"_sources", "_static", "_images", "_modules", "_downloads"})
_SPHINX_PAGES = ("genindex*.html", "search.html", "*-modindex.html", "404.html")
_MKDOCS_FOLDERS = frozenset({"search", "assets"})
_MKDOCS_PAGES = ("404.html",)


@dataclass(frozen=True, slots=True)
class SiteSkip:
    """What a built site's folder holds besides its pages: the names, and one line that
    says what they are (`part of a built site, not a page: _sources/, genindex*.html (3),
    search.html`)."""

    names: frozenset[str]
    reason: str


def skipped_in_site(entries: Mapping[str, bool], kinds: Collection[str]) -> SiteSkip | None:
    """The entries of one folder (name -> is a folder) that are not documents because
    the folder is a built site; None when it is not one."""
    read = [format for format in FORMATS if format.built_site_pages and format.name in kinds]
    if not any(not is_folder and format_of(name) in read for name, is_folder in entries.items()):
        return None
    names = set(entries)
    rules: list[tuple[frozenset[str], tuple[str, ...]]] = []
    if names & SPHINX_MARKERS:
        rules.append((_SPHINX_FOLDERS, _SPHINX_PAGES))
    if names & MKDOCS_MARKERS or ("404.html" in names and entries.get("search")):
        rules.append((_MKDOCS_FOLDERS, _MKDOCS_PAGES))
    skipped: set[str] = set()
    shown: list[str] = []
    for folders, pages in rules:
        for folder in sorted(folders):
            if entries.get(folder):
                skipped.add(folder)
                shown.append(f"{folder}/")
        for pattern in pages:
            matching = [
                name
                for name, is_folder in entries.items()
                if not is_folder and fnmatch.fnmatchcase(name, pattern)
            ]
            skipped.update(matching)
            if len(matching) == 1:
                shown.append(matching[0])
            elif matching:
                shown.append(f"{pattern} ({len(matching)})")
    if not skipped:
        return None
    return SiteSkip(frozenset(skipped), f"{BUILT_SITE}: {', '.join(shown)}")


# -- the index across pages ---------------------------------------------------------

# Pages that index a site's other pages: Sphinx's general index, DocBook's book index,
# texinfo's index nodes (`Concept-Index.html`, `Index.html`).
_INDEX_PAGE = re.compile(r"^(?:genindex(?:-\w+)?|bookindex|(?:[\w-]+-)?Index(?:-[\w-]+)?)\.html?$")
# What a link's text adds after its term (`send() (in module mail)`) or stands for alone.
_LINK_SUFFIX = re.compile(r"\s*\((?:in |built-in|class|module|function|method|attribute)[^)]*\)$")
_NOT_TERM = re.compile(r"^(?:\[\d+\]|\d+|[\W_]*)$")
_ANCHOR = re.compile(r"""\b(?:id|name)\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s"'>]+))""", re.I)
MAX_SITE_TERM_CHARS = 100


def is_index_page(path: str) -> bool:
    """Whether the page at `path` indexes the site's other pages by term."""
    return bool(_INDEX_PAGE.match(posixpath.basename(path)))


def index_links(text: str) -> list[tuple[str, str]]:
    """The (term, href) of each entry of an index page: Sphinx's `genindex.html` (a
    link's text, else the entry it is a sub-link of), texinfo's index tables (each row's
    first link), DocBook's `bookindex.html` (a `<dt>`'s words before its links, after the
    entry it is a sub-entry of: `wraparound of transaction IDs`)."""
    reader = _IndexReader()
    reader.feed(text)
    reader.close()
    # A book index's page has its navigation links beside it, not in it.
    return reader.book_links or reader.links


def anchor_lines(text: str) -> dict[str, int]:
    """Each `id`/`name` of a page with the 1-based line it stands on (the HTML reader keeps
    a page's lines, so a line names the passage holding the element)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        for match in _ANCHOR.finditer(line):
            found.setdefault(next(group for group in match.groups() if group), number)
    return found


def index_targets(
    index_path: str, links: Iterable[tuple[str, str]], anchors: Mapping[str, Mapping[str, int]]
) -> list[tuple[str, str, int]]:
    """(term, page path, line) for each index link that points to a page of `anchors`
    (page path -> its anchors' lines): a link without an anchor points to line 1."""
    folder = posixpath.dirname(index_path)
    targets: list[tuple[str, str, int]] = []
    for term, href in links:
        page, _, anchor = href.partition("#")
        if "://" in page or page.startswith("/"):
            continue
        path = posixpath.normpath(posixpath.join(folder, unquote(page))) if page else index_path
        lines = anchors.get(path)
        if lines is None:
            continue
        line = lines.get(unquote(anchor)) if anchor else 1
        if line is not None:
            targets.append((term, path, line))
    return targets


class _IndexReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.book_links: list[tuple[str, str]] = []  # those of DocBook's index
        # The words of each open `<li>` outside its links, and the term it linked last.
        self._items: list[list[str]] = []
        self._terms: list[str] = []
        self._link: tuple[str, list[str]] | None = None
        self._rows: list[bool] = []  # per open texinfo index table: the row had its link
        # DocBook's index (`<div class="index">`): per open div, whether it is one; the
        # words of the open `<dt>` outside its links; the terms its sub-entries are under.
        self._divs: list[bool] = []
        self._entry: list[str] | None = None
        self._parents: list[str] = []
        self._last = ""  # the term of the `<dt>` read last

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = attributes.get("class") or ""
        if tag == "div":
            self._divs.append("index" in classes.split())
        if any(self._divs):
            self._read_book_index(tag, attributes)
        elif tag == "table" and ("index-" in classes or "printindex" in classes):
            self._rows.append(False)
        elif tag == "tr" and self._rows:
            self._rows[-1] = False
        elif tag == "li":
            self._items.append([])
            self._terms.append("")
        elif tag == "a" and attributes.get("href") and not (self._rows and self._rows[-1]):
            self._link = (str(attributes["href"]).strip(), [])
            if self._rows:
                self._rows[-1] = True

    def _read_book_index(self, tag: str, attributes: dict[str, str | None]) -> None:
        if tag == "dt":
            self._entry = []
        elif tag == "dd":
            self._parents.append(self._last)
        elif tag == "a" and attributes.get("href") and self._entry is not None:
            self._link = (str(attributes["href"]).strip(), [])

    def _entry_term(self) -> str:
        own = " ".join("".join(self._entry or ()).split()).rstrip(", ")
        return " ".join(part for part in (*self._parents, own) if part)

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._divs:
            self._divs.pop()
        elif tag == "dt" and self._entry is not None:
            self._last = " ".join("".join(self._entry).split()).rstrip(", ")
            self._entry = None
        elif tag == "dd" and self._parents and any(self._divs):
            self._parents.pop()
        elif tag == "a" and self._link is not None and self._entry is not None:
            href, _ = self._link
            self._link = None
            term = self._entry_term()
            if term and len(term) <= MAX_SITE_TERM_CHARS:
                self.book_links.append((term, href))
        elif tag == "table" and self._rows:
            self._rows.pop()
        elif tag == "li" and self._items:
            self._items.pop()
            self._terms.pop()
        elif tag == "a" and self._link is not None:
            href, words = self._link
            self._link = None
            term = _LINK_SUFFIX.sub("", " ".join("".join(words).split()))
            if _NOT_TERM.match(term) and self._items:
                # `[2]` after a term's first link, `(in module x)` under its entry.
                own = self._terms[-1] or " ".join("".join(self._items[-1]).split())
                parent = " ".join("".join(self._items[-2]).split()) if len(self._items) > 1 else ""
                term = _LINK_SUFFIX.sub("", own.rstrip(", ") or parent)
            if not _NOT_TERM.match(term) and len(term) <= MAX_SITE_TERM_CHARS:
                self.links.append((term, href))
                if self._terms:
                    self._terms[-1] = term

    def handle_data(self, data: str) -> None:
        if self._link is not None:
            self._link[1].append(data)
        elif self._entry is not None:
            self._entry.append(data)
        elif self._items:
            self._items[-1].append(data)
