"""An HTML page as its reader sees it, line for line of the file.

`read_page` parses a page with the standard library's `html.parser` (tolerant of
malformed markup, never fetching or running anything, and giving the source line of
every tag and text) and keeps:

- the page's main content: when the page marks it (`<main>`, `<article>`,
  `role="main"`, and the containers of Sphinx, MkDocs, wikis and the like), only what
  is inside; never navigation, sidebars, headers and footers outside it, scripts,
  styles, forms, buttons, embedded frames and objects, hidden elements, breadcrumbs,
  "edit this page" links, permalink marks (`¶`), texinfo's navigation panels and menus,
  or latex2html's navigation panels (between its `<!--Navigation Panel-->` comments):
  the lists of what generators write are `html_furniture`'s;
- its text, one line of text for each line of the file: whatever the page shows
  between the tags on a line stands on that line, whitespace collapsed as a browser
  does, so a quote found on a line of the text stands on that line of the file;
  preformatted text (`<pre>`, code) is kept as written;
- its headings (`<h1>` to `<h6>`) with their lines and plain text, and its `<title>`;
  an admonition's title (DocBook's `<div class="note"><h3 class="title">Note</h3>`) is
  no heading but text of the section the box stands in;
- the entries of its reference lists (`<dt>` terms, texinfo's `dl.def` and `@table`,
  Sphinx's described objects): where each starts, the terms it documents (a
  definition's name, else the term's words; alternatives a `<br>` or DocBook's
  `<span class="term">` parts are each a term), and where its list ends; an object
  Sphinx documents (`<dt class="sig" id="pkg.Class.method">`) is named by its qualified
  name and is an entry of its own;
- the book's own index (texinfo's `<table class="index-cp">`, DocBook's `<div
  class="index">` and the like): each term
  with the anchor it links to, never as text; and the line of every element id.

Entities are decoded; a character reference for a line break reads as a space, so it
cannot shift the lines that follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from tui_assistant.core.documents import html_furniture as furniture
from tui_assistant.core.documents.html_entries import EntryPiece, EntryReading
from tui_assistant.core.documents.html_parts import (
    EntryStart,
    Heading,
    IndexMark,
    ListEnd,
    Page,
)
from tui_assistant.core.documents.html_parts import shown_line as shown_line

# What a page's `<head>` holds; any other element starts its body.
_HEAD_TAGS = frozenset(
    {"head", "title", "meta", "link", "script", "style", "base", "noscript", "template"}
)
# Elements with no end tag: never on the stack of open elements.
_VOID_TAGS = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr", "keygen", "frame", "basefont", "isindex",
    }
)  # fmt: skip
# Elements whose start and end part words, as a browser lays them out as blocks.
_BLOCK_TAGS = frozenset(
    {
        "address", "article", "blockquote", "body", "caption", "dd", "details", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
        "html", "li", "main", "ol", "p", "pre", "section", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "tr", "ul", "header", "hgroup", "center", "nav", "aside",
        "footer", "form", "dialog", "menu",
    }
)  # fmt: skip
# An element that a start tag of one of these closes when it is the open one (`<p>a<p>b`).
_CLOSED_BY = {
    "p": _BLOCK_TAGS - {"body", "html"},
    "li": frozenset({"li"}),
    "dt": frozenset({"dt", "dd"}),
    "dd": frozenset({"dt", "dd"}),
    "td": frozenset({"td", "th", "tr"}),
    "th": frozenset({"td", "th", "tr"}),
    "tr": frozenset({"tr"}),
    "option": frozenset({"option"}),
}
_PREFORMATTED = frozenset({"pre", "listing", "plaintext", "xmp"})
# Headings that start a section, at every level a page has.
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# A run of base64 (an embedded image as text) is not words a reader sees.
_BASE64 = re.compile(r"^[A-Za-z0-9+/=]{76,}$")
_PERMALINK_MARKS = frozenset({"¶", "§", "#", "\N{LINK SYMBOL}"})
_LINE_BREAK_REFERENCE = re.compile(r"&(?:#0*1[03]|#[xX]0*[aAdD]|NewLine);?")
_WHITESPACE = re.compile(r"\s+")


def read_page(text: str) -> Page:
    """The main content of the page `text` (decoded), as described above."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = _LINE_BREAK_REFERENCE.sub(" ", text)
    reader = _PageReader()
    reader.feed(text)
    reader.close()
    return reader.page()


@dataclass(slots=True)
class _Open:
    tag: str
    skipped: bool = False
    main: bool = False
    permalink: bool = False
    pre: bool = False
    link: bool = False
    term: bool = False  # a `<dt>` whose words are read as a term
    name: bool = False  # what names the term being read
    terms: bool = False  # a reference list (`<dl>`)
    index: bool = False  # the book's index
    box: bool = False  # an admonition: a heading titling it is text


# A line's words as read: (line, words, preformatted, in the main content, in a link).
_Piece = tuple[int, str, bool, bool, bool]


@dataclass(slots=True)
class _MarkPiece:
    mark: Heading | ListEnd | IndexMark
    main: bool


class _PageReader(HTMLParser, EntryReading):
    def __init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)
        EntryReading.__init__(self)
        self._stack: list[_Open] = []
        self._open_count: dict[str, int] = {}
        self._skipped = 0  # open elements that hide their content
        self._main = 0  # open elements that hold the main content
        self._pre = 0
        self._links = 0
        self._permalinks = 0
        self._found_main = False
        self._furniture: str | None = None  # the comment that opened furniture
        self._title: list[str] | None = None  # the words of the open `<title>`
        self._title_words: list[str] | None = None  # those of the page's first one
        self._heading: tuple[int, int, list[str]] | None = None  # line, level, words
        self._pieces: list[_Piece | _MarkPiece | EntryPiece] = []
        self._link_starts: list[bool] = []  # each link's main flag

    # -- tags --------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._title is not None:  # a title holds no tags: one left open ends here
            self._title_words, self._title = self._title, None
        if self._skipped and tag not in _VOID_TAGS and tag != "title":
            if self._index_rows is not None:
                self._read_index(tag, dict(attrs))
            # Inside what is not shown, only the open elements are counted.
            self._stack.append(_Open(tag))
            self._open_count[tag] = self._open_count.get(tag, 0) + 1
            return
        line = self.getpos()[0]
        if tag == "title" and self._title_words is None and not self._skipped_below_head():
            self._title = self._title or []
            return
        if self._open_count.get("head") and tag not in _HEAD_TAGS:
            while self._pop().tag != "head":
                pass  # the page's body starts, whether or not it says so
        if tag == "br":
            self._add(line, " ")
            if self._term is not None:
                self._term_break()
            return
        if tag in _BLOCK_TAGS:
            while self._stack and tag in _CLOSED_BY.get(self._stack[-1].tag, ()):
                self._pop()
            while self._heading is not None and self._stack:
                self._pop()  # a heading holds no blocks: one left open ends here
            self._add(line, " ")
        if tag in _VOID_TAGS:
            return
        attributes = dict(attrs)
        names = _names(attributes)
        index = (
            tag == "table" and any(n.startswith("index-") or n == "indextable" for n in names)
        ) or (
            tag == "div" and "index" in names  # DocBook's back-of-book index
        )
        skipped = index or self._hides(tag, attributes)
        main = not skipped and self._holds_main(tag, attributes)
        link = tag == "a"
        permalink = link and (attributes.get("href") or "").startswith("#")
        pre = tag in _PREFORMATTED
        classes = (attributes.get("class") or "").split()
        box = tag not in _HEADINGS and not furniture.ADMONITION_NAMES.isdisjoint(classes)
        # DocBook's `<div class="note"><h3 class="title">Note</h3>`: the box's title.
        box_title = bool(self._stack) and self._stack[-1].box and "title" in classes
        opened = _Open(tag, skipped, main, permalink, pre, link, index=index, box=box)
        if not skipped:
            self._note_anchor(attributes, line)
            self._read_entries(opened, attributes, names, line)
        elif index:
            self._pieces.append(_MarkPiece(IndexMark(line), self._main > 0))
            self._index_rows = ["indextable" not in names, False]
        self._stack.append(opened)
        self._open_count[tag] = self._open_count.get(tag, 0) + 1
        self._skipped += skipped
        self._main += main
        self._found_main = self._found_main or main
        self._pre += pre
        self._links += link
        self._permalinks += permalink
        if tag == "a" and not self._skipped:
            self._link_starts.append(self._main > 0)
        if tag in _HEADINGS and self._heading is None and not (self._skipped or box_title):
            self._heading = (line, _HEADINGS[tag], [])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # `<div/>` opens a div in HTML, but a page that writes it means an empty one.
        if tag in _VOID_TAGS:
            self.handle_starttag(tag, attrs)
        elif tag in _BLOCK_TAGS:
            self._add(self.getpos()[0], " ")

    def handle_endtag(self, tag: str) -> None:
        line = self.getpos()[0]
        if tag == "title" and self._title is not None:
            self._title_words, self._title = self._title, None
            return
        if not self._open_count.get(tag):
            if tag in _BLOCK_TAGS or tag == "br":
                self._add(line, " ")
            return  # a stray end tag closes nothing
        while self._stack:
            if self._pop().tag == tag:
                break
        if tag in _BLOCK_TAGS:
            self._add(line, " ")

    def _pop(self) -> _Open:
        entry = self._stack.pop()
        self._open_count[entry.tag] -= 1
        self._skipped -= entry.skipped
        self._main -= entry.main
        self._pre -= entry.pre
        self._links -= entry.link
        self._permalinks -= entry.permalink
        self._naming -= entry.name
        if entry.term and self._term is not None:
            self._end_term(self._term)
        if entry.index:
            self._index_rows = None
        if entry.terms and self._lists:
            self._lists.pop()
            if not self._lists:
                self._pieces.append(_MarkPiece(ListEnd(self.getpos()[0]), self._main > 0))
        if entry.tag == "a" and self._index_link is not None:
            href, words = self._index_link
            self._index_link = None
            term = " ".join("".join(words).split())
            if term and href:
                self._index.append((term, href))
        if (
            entry.tag in _HEADINGS
            and self._heading is not None
            and not any(open_.tag in _HEADINGS for open_ in self._stack)
        ):
            line, level, words = self._heading
            self._heading = None
            plain = " ".join("".join(words).split())
            if plain:
                heading = Heading(line, level, plain)
                self._pieces.append(_MarkPiece(heading, self._main > 0))
        return entry

    def _entry_started(self, entry: EntryPiece) -> None:
        self._pieces.append(entry)

    def _in_main(self) -> bool:
        return self._main > 0

    def _skipped_below_head(self) -> bool:
        return any(entry.skipped and entry.tag != "head" for entry in self._stack)

    def _hides(self, tag: str, attributes: dict[str, str | None]) -> bool:
        if tag in furniture.SKIPPED_TAGS or (
            tag in furniture.SKIPPED_OUTSIDE_MAIN and not self._main
        ):
            return True
        if not attributes:
            return False
        if "hidden" in attributes or attributes.get("aria-hidden") == "true":
            return True
        if (attributes.get("role") or "") in furniture.SKIPPED_ROLES:
            return True
        style = (attributes.get("style") or "").replace(" ", "").lower()
        if "display:none" in style or "visibility:hidden" in style:
            return True
        names = _names(attributes)
        if not self._main and not furniture.SKIPPED_NAMES_OUTSIDE_MAIN.isdisjoint(names):
            return True
        return not furniture.SKIPPED_NAMES.isdisjoint(names)

    def _holds_main(self, tag: str, attributes: dict[str, str | None]) -> bool:
        if tag in furniture.MAIN_TAGS:
            return True
        if not attributes:
            return False
        if attributes.get("role") == "main":
            return True
        if attributes.get("itemprop") == "articleBody":
            return True
        return not furniture.MAIN_NAMES.isdisjoint(_names(attributes))

    def handle_comment(self, data: str) -> None:
        words = " ".join(data.split())
        if self._furniture is None and words in furniture.FURNITURE_COMMENTS:
            self._furniture = words
            self._skipped += 1
        elif self._furniture is not None and words == f"End of {self._furniture}":
            self._furniture = None
            self._skipped -= 1

    # -- text --------------------------------------------------------------------

    def handle_data(self, data: str) -> None:
        if self._title is not None:
            self._title.append(data)
            return
        if self._index_link is not None:
            self._index_link[1].append(data)
        if self._skipped:
            return
        if self._permalinks and data.strip() in _PERMALINK_MARKS:
            return
        if self._heading is not None:
            self._heading[2].append(data)
            return
        if self._term is not None:
            self._term.words.append(data)
            if self._naming:
                self._term.names.append(data)
        line = self.getpos()[0]
        for offset, words in enumerate(data.split("\n")):
            if offset and not self._pre:
                self._add(line + offset - 1, " ")
            self._add(line + offset, words)

    def _add(self, line: int, words: str) -> None:
        if self._skipped or self._heading is not None or not words:
            return
        if len(words) > 75 and _BASE64.match(words.strip()):
            return  # an embedded image's bytes
        pre = self._pre > 0
        if not pre:
            words = _WHITESPACE.sub(" ", words)
        self._pieces.append((line, words, pre, self._main > 0, self._links > 0))

    def page(self) -> Page:
        """The page as read: only its main content's pieces when it marks one."""
        title = " ".join("".join(self._title_words or self._title or []).split())
        page = Page(title=title, anchors=self._anchors, index=self._index)
        for piece in self._pieces:
            if isinstance(piece, _MarkPiece | EntryPiece):
                if piece.main or not self._found_main:
                    if isinstance(piece, _MarkPiece):
                        page.parts.append(piece.mark)
                        if isinstance(piece.mark, Heading):
                            page.chars += len(piece.mark.text)
                    elif piece.terms:
                        page.parts.append(EntryStart(piece.line, tuple(piece.terms), piece.alone))
                continue
            line, words, pre, main, link = piece
            if self._found_main and not main:
                continue
            page.parts.append((line, words, pre, link))
            count = len(words.strip())
            page.chars += count
            if link:
                page.link_chars += count
        page.links = sum(1 for main in self._link_starts if main or not self._found_main)
        return page


def _names(attributes: dict[str, str | None]) -> list[str]:
    """An element's class names and id."""
    names = (attributes.get("class") or "").split()
    element_id = attributes.get("id")
    if element_id:
        names.append(element_id)
    return names
