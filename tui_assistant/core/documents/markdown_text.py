"""What of a Markdown section a reader sees as text, line for line.

Markdown's own marks stay (the app shows passages as Markdown, and the quote check reads
them), but what a rendered page never shows as words is left out:

- HTML tags (`<a id="old-heading"></a>`, `<span class="filename">`, `<div>`): a tag is
  no text, the text between tags is; an image (`<img alt="...">`) is its alt text; an
  mdBook listing (`<Listing number="3-2" caption="...">`) reads `Listing 3-2: ...`;
- link reference definitions (`[atomic]: ../std/sync/atomic/index.html`) and
  thematic breaks (`---`);
- mdBook's preprocessor lines (`{{#include ...}}`, `{{#rustdoc_include ...}}`), which
  insert code from other files; a code block made only of them is no text at all.

Code (fenced blocks, `` `code spans` ``) is kept as written, and only HTML element names
are tags, so `Vec<T>` and `<name>` placeholders stay. Every line keeps its number: what
is left out leaves the line empty.
"""

from __future__ import annotations

import html
import re
from collections.abc import Container, Mapping

from tui_assistant.core.documents.markdown_inline import CODE_SPAN
from tui_assistant.core.documents.passage import Lines

_TAG = re.compile(
    r"<(/?)([A-Za-z][A-Za-z0-9-]*)"
    r"((?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_ATTRIBUTE = re.compile(r"([A-Za-z_:][\w.:-]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")  # a rule: no words
_PREPROCESSOR = re.compile(r"^\s*\{\{#[A-Za-z_]+(?:\s.*)?\}\}\s*$")
_LINK_TITLE = r"(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?[ \t]*$"
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*\S+" + _LINK_TITLE)
_LINK_LABEL = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*$")  # its destination on the next line
_LINK_DESTINATION = re.compile(r"^[ \t]*\S+" + _LINK_TITLE)

# HTML's element names: only these are tags (`<T>` and `<name>` are words).
HTML_ELEMENTS = frozenset(
    """a abbr address article aside audio b bdi bdo big blockquote body br button caption
    center cite code col colgroup data dd del details dfn dialog div dl dt em embed
    fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hr html i
    iframe img input ins kbd label legend li link main mark meta nav noscript object ol
    optgroup option output p param picture pre q rp rt ruby s samp section select small
    source span strike strong sub summary sup svg table tbody td template textarea tfoot
    th thead time tr track tt u ul var video wbr listing""".split()
)


def shown_lines(lines: Lines, fences: Mapping[int, int]) -> Lines:
    """`lines` (a section's, comments already left out) as a reader sees them; `fences`
    maps the first line of each fenced code block to its last."""
    shown: Lines = []
    prose: Lines = []
    fence: Lines = []
    fence_end: int | None = None
    for number, line in lines:
        if fence_end is None and number in fences:
            shown += _prose(prose)
            prose, fence_end = [], fences[number]
        if fence_end is None:
            prose.append((number, line))
            continue
        fence.append((number, line))
        if number >= fence_end:
            shown += _code(fence)
            fence, fence_end = [], None
    return shown + _prose(prose) + _code(fence)


def _code(fence: Lines) -> Lines:
    """A fenced block as written, without preprocessor lines; none at all when they were
    all it held."""
    content = [line for _, line in fence[1:-1] if line.strip()]
    if content and all(_PREPROCESSOR.match(line) for line in content):
        return [(number, "") for number, _ in fence]
    return [(number, "" if _PREPROCESSOR.match(line) else line) for number, line in fence]


def _prose(lines: Lines) -> Lines:
    if not lines:
        return []
    text = "\n".join(line for _, line in lines)
    if "<" in text:
        text = without_tags(text, HTML_ELEMENTS)
    shown_text = text.split("\n")
    if len(shown_text) != len(lines):
        shown_text = [line for _, line in lines]
    shown: Lines = []
    can_define = True  # after a blank line or a definition: a paragraph holds none
    destination_next = False  # a definition's destination on the line after its label
    for index, ((number, _), line) in enumerate(zip(lines, shown_text, strict=True)):
        if destination_next:
            destination_next = False
            shown.append((number, ""))
            continue
        blank = not line.strip()
        following = shown_text[index + 1] if index + 1 < len(shown_text) else ""
        destination_next = bool(
            can_define and _LINK_LABEL.match(line) and _LINK_DESTINATION.match(following)
        )
        definition = destination_next or (can_define and bool(_LINK_DEFINITION.match(line)))
        if definition or blank or _PREPROCESSOR.match(line) or _THEMATIC_BREAK.match(line):
            shown.append((number, ""))
            can_define = definition or blank
            continue
        shown.append((number, line))
        can_define = False
    return shown


def without_tags(text: str, elements: Container[str]) -> str:
    """`text` without its HTML tags (of `elements`, outside code spans), each line break
    kept: an image is its alt text, an mdBook listing `Listing N: caption`."""
    code = [span.span() for span in CODE_SPAN.finditer(text)]
    parts: list[str] = []
    position = 0
    for tag in _TAG.finditer(text):
        name = tag.group(2).lower()
        inside_code = any(start < tag.start() < end for start, end in code)
        if name not in elements or inside_code:
            continue
        words = "" if tag.group(1) else _tag_words(name, tag.group(3))
        raw = tag.group(0)
        parts.append(text[position : tag.start()])
        parts.append(words + "\n" * max(0, raw.count("\n") - words.count("\n")))
        position = tag.end()
    parts.append(text[position:])
    return "".join(parts)


def _tag_words(name: str, attributes: str) -> str:
    if name not in ("img", "listing"):
        return ""
    values = {
        found.group(1).lower(): html.unescape((found.group(2) or "").strip("\"'"))
        for found in _ATTRIBUTE.finditer(attributes)
    }
    if name == "img":
        return values.get("alt", "")
    caption, number = values.get("caption", ""), values.get("number", "")
    label = f"Listing {number}".strip()
    return f"{label}: {caption}" if caption else ""
