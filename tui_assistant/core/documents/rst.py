"""reStructuredText documents (`*.rst`, Sphinx's `*.rst.txt`), split at section titles.

docutils parses the document, and only to find its sections: which title lines are
titles, and of what level (the order in which underline styles first appear, as
docutils counts them). It runs safely: `file_insertion_enabled` and `raw_enabled`
off, so `include`, `raw` and `csv-table :file:`/`:url:` read nothing; no
configuration file is read; no message is printed. Unknown directives and roles
(Sphinx's) are only parsed, never run.

- sections of the first three levels start a passage; deeper ones stay inside it;
- a passage's text is the reStructuredText source of its section (title and its
  underline left out), so what is shown, quoted and cited is what the file says, line
  for line; a passage starts at its title's line (the overline, for an overlined title);
- the document title is the first level-1 title, else the file name.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from docutils import nodes
from docutils.core import publish_doctree

from tui_assistant.core.display_text import one_line
from tui_assistant.core.documents.passage import (
    Document,
    HeadingPath,
    Section,
    document_from_sections,
    file_lines,
    file_title,
)

MAX_SECTION_LEVEL = 3
_ROLE = re.compile(r"^:[\w.+:-]+:`(.+)`$", re.DOTALL)
_LABELLED = re.compile(r"^(.+?)\s*<[^<>]+>$", re.DOTALL)

logger = logging.getLogger(__name__)

# What docutils may do while a document is parsed: nothing outside the text itself.
_SAFE_SETTINGS: dict[str, object] = {
    "file_insertion_enabled": False,  # `include`, `csv-table :file:`, `raw :url:`...
    "raw_enabled": False,
    "_disable_config": True,  # no docutils.conf read from disk
    "report_level": 5,  # no message reported ...
    "halt_level": 5,  # ... and none stops the parse
    "warning_stream": False,
    "doctitle_xform": False,  # keep a lone top section a section, as written
    "sectsubtitle_xform": False,
    "syntax_highlight": "none",  # code blocks are never highlighted: no Pygments run
}


@dataclass(frozen=True, slots=True)
class _Title:
    start: int  # 1-based line where the title starts (its overline, if it has one)
    underline: int  # 1-based line of its underline
    level: int
    text: str


def split_rst(relative_path: str, text: str) -> Document:
    """The title and passages of one reStructuredText document (`text` decoded)."""
    lines = file_lines(text)
    titles = _titles("\n".join(lines), lines)
    sections = []
    current = Section(heading_line=None, level=0, path=())
    headings = HeadingPath()
    next_title = 0
    number = 1
    while number <= len(lines):
        if next_title < len(titles) and titles[next_title].start == number:
            title = titles[next_title]
            next_title += 1
            sections.append(current)
            path = headings.enter(title.level, title.text)
            current = Section(heading_line=title.start, level=title.level, path=path)
            number = title.underline + 1
            continue
        current.lines.append((number, lines[number - 1]))
        number += 1
    sections.append(current)
    level_one_title = next((title.text for title in titles if title.level == 1), None)
    document_title = level_one_title or file_title(relative_path)
    return document_from_sections(document_title, level_one_title, sections)


def _titles(text: str, lines: list[str]) -> list[_Title]:
    """The titles of sections of levels 1-3, in order, with the lines they take."""
    try:
        tree = publish_doctree(text, settings_overrides=_SAFE_SETTINGS)
    except Exception as error:  # a document docutils cannot parse
        logger.debug("reStructuredText not parsed (%s); read as one section", error)
        return []
    found: list[_Title] = []
    previous_end = 0
    for section in tree.findall(nodes.section):
        level = _depth(section)
        title = section.next_node(nodes.title)
        if level > MAX_SECTION_LEVEL or title is None or title.parent is not section:
            continue
        underline = title.line
        if underline is None or not 2 <= underline <= len(lines):
            continue
        start = underline - 1
        if start >= 2 and _is_overline(lines[start - 2], lines[underline - 1]):
            start -= 1
        if start <= previous_end:
            continue  # not where docutils says: leave it in the text
        found.append(_Title(start, underline, level, one_line(_plain(title)) or "section"))
        previous_end = underline
    return found


def _plain(title: nodes.Element) -> str:
    """A title's words. A role docutils does not know (Sphinx's `:class:`) is shown as
    Sphinx shows it: `` :class:`~django.http.HttpResponse` `` is `HttpResponse`,
    `` :attr:`last name <User.last_name>` `` is `last name`."""
    parts: list[str] = []
    for node in title.children:
        role = _ROLE.match(node.astext()) if isinstance(node, nodes.problematic) else None
        if role is None:
            parts.append(node.astext())
            continue
        target = role.group(1)
        labelled = _LABELLED.match(target)
        if labelled:
            parts.append(labelled.group(1))
        elif target.startswith("~"):
            parts.append(target[1:].rsplit(".", 1)[-1])
        else:
            parts.append(target.removeprefix("!"))
    return "".join(parts)


def _depth(section: nodes.Element) -> int:
    depth = 0
    node: nodes.Node | None = section
    while node is not None:
        if isinstance(node, nodes.section):
            depth += 1
        node = node.parent
    return depth


def _is_overline(line: str, underline: str) -> bool:
    line, underline = line.rstrip(), underline.rstrip()
    return bool(line) and line == underline and len(set(line)) == 1 and not line[0].isalnum()
