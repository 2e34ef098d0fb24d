"""reStructuredText documents (`*.rst`, Sphinx's `*.rst.txt`), split at section titles.

docutils parses the document: which title lines are titles, and of what level (the
order in which underline styles first appear, as docutils counts them), and what its
inline markup shows. It runs safely: `file_insertion_enabled` and `raw_enabled` off, so
`include`, `raw` and `csv-table :file:`/`:url:` read nothing; no configuration file is
read; no transform runs; no message is printed. Sphinx's directives and roles are read
as text (`rst_text.py`), never run.

- sections of every level start a passage (one with no text of its own makes none), but
  a section of the first three levels that fits one passage stays whole, its deeper
  titles in its text and its list entries its index terms (`rst_entries.py`);
- a passage's text is its section as the page reads (`rst_text.shown_lines`): roles,
  references and literals as their words, directives as their words and code, labels,
  targets and comments as empty lines, one line for each line of the file, so quotes
  are found on the file's lines; the title and its underline are left out;
- a passage starts at its title's line (the overline, for an overlined title), or at
  the labels (`.. _name:`) and file-wide metadata (`:orphan:`) right above it, which
  belong to it;
- the document title is the level-1 title when it is the only one, else the file name.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, replace
from functools import cache

from docutils import frontend, nodes
from docutils.parsers.rst import Parser
from docutils.utils import new_document

from tui_assistant.core.display_text import one_line
from tui_assistant.core.documents import rst_entries, rst_inline, rst_text
from tui_assistant.core.documents.book_index import with_index_terms
from tui_assistant.core.documents.directives import rst_pending
from tui_assistant.core.documents.passage import (
    WHOLE_SECTION_CHARS,
    Document,
    Entry,
    HeadingPath,
    Section,
    document_from_sections,
    file_lines,
    file_title,
    keeping_ids,
    text_length,
    whole_while_fitting,
)

DEEPEST = 99
# Splitting at the first three levels only gave the ids that passages keep.
EARLIER_DEEPEST = 3

logger = logging.getLogger(__name__)

# What docutils may do while a document is parsed: nothing outside the text itself.
_SAFE_SETTINGS: dict[str, object] = {
    "file_insertion_enabled": False,  # `include`, `csv-table :file:`, `raw :url:`...
    "raw_enabled": False,
    "report_level": 5,  # no message reported ...
    "halt_level": 5,  # ... and none stops the parse
    "warning_stream": False,
    "syntax_highlight": "none",  # code blocks are never highlighted: no Pygments run
}


@dataclass(frozen=True, slots=True)
class _Title:
    start: int  # 1-based line where the title starts (its overline, if it has one)
    underline: int  # 1-based line of its underline
    level: int
    node: nodes.title

    @property
    def text_line(self) -> int:
        return self.underline - 1


def split_rst(relative_path: str, text: str, name_title: str | None = None) -> Document:
    """The title and passages of one reStructuredText document (`text` decoded);
    `name_title` is its title when the text gives none (`passage.file_title`)."""
    lines = file_lines(text)
    tree = _parse("\n".join(lines))
    titles = _titles(tree, lines) if tree is not None else []
    substitutions = rst_inline.substitutions(tree) if tree is not None else {}
    unlabelled = rst_inline.Names(substitutions, {})
    texts = [
        one_line(rst_inline.inline_text(title.node, unlabelled)) or "section" for title in titles
    ]
    starts, labels = _heading_starts(lines, titles, texts)
    names = rst_inline.Names(substitutions, labels)
    shown = rst_text.shown_lines(lines, tree, names)
    code = rst_text.code_lines(lines)
    entries = rst_entries.directive_entries(lines, code)
    if tree is not None:
        entries += rst_entries.list_entries(tree, lines, names)
    # As docutils' own title rule: only a lone top-level section names the document;
    # several (a changelog's versions) are each a section of a document named by its file.
    top = [text for title, text in zip(titles, texts, strict=True) if title.level == 1]
    level_one_title = top[0] if len(top) == 1 else None
    document_title = level_one_title or file_title(relative_path, name_title)
    if entries or any(title.level > EARLIER_DEEPEST for title in titles):
        earlier = _sections(lines, shown, titles, texts, starts, EARLIER_DEEPEST)
        before = document_from_sections(document_title, level_one_title, earlier)
        deep = _sections(lines, shown, titles, texts, starts, DEEPEST)
        sections = whole_while_fitting(earlier, deep)
        _give_entries(sections, entries)
        document = document_from_sections(document_title, level_one_title, sections)
        document = keeping_ids(document, before)
    else:
        sections = _sections(lines, shown, titles, texts, starts, DEEPEST)
        document = document_from_sections(document_title, level_one_title, sections)
    marks = rst_entries.index_marks(lines, code)
    passages = with_index_terms(document.passages, marks) if marks else document.passages
    return replace(document, passages=tuple(passages), pending=tuple(rst_pending(lines)))


def _sections(
    lines: list[str],
    shown: list[str],
    titles: list[_Title],
    texts: list[str],
    starts: list[int],
    deepest: int,
) -> list[Section]:
    """The sections split at titles down to level `deepest`; a deeper title stays in
    its section's text, where a long section is cut first."""
    opening = {start: index for index, start in enumerate(starts)}
    breaks = {start for start, title in zip(starts, titles, strict=True) if title.level > deepest}
    sections = []
    current = Section(heading_line=None, level=0, path=())
    headings = HeadingPath()
    number = 1
    while number <= len(lines):
        index = opening.get(number)
        if index is not None and titles[index].level <= deepest:
            title, title_text = titles[index], texts[index]
            sections.append(current)
            current = Section(
                heading_line=number,
                level=title.level,
                path=headings.enter(title.level, title_text),
                heading=(title.text_line, title_text),
            )
            number = title.underline + 1
            continue
        if number in breaks:
            current.breaks.add(number)
        current.lines.append((number, shown[number - 1]))
        number += 1
    sections.append(current)
    return sections


def _give_entries(sections: list[Section], entries: list[Entry]) -> None:
    """Each entry to the section whose lines hold its first line (ending there too). In
    a section that stays whole, an entry other than an API object's is its terms only."""
    for section in sections:
        if not section.lines:
            continue
        first, last = section.lines[0][0], section.lines[-1][0]
        held = sorted(
            (
                replace(entry, end_line=min(entry.end_line, last))
                for entry in entries
                if first <= entry.line <= last
            ),
            key=lambda entry: entry.line,
        )
        if text_length(section.lines) <= WHOLE_SECTION_CHARS:
            terms = (term for entry in held if not entry.alone for term in entry.terms)
            section.index_terms = tuple(dict.fromkeys((*section.index_terms, *terms)))
            held = [entry for entry in held if entry.alone]
        section.entries = held
        # Entries of a long section go in groups of a passage's size, after its lead.
        section.group_chars = WHOLE_SECTION_CHARS


def shown_rst(lines: list[str]) -> list[str]:
    """reStructuredText `lines` (a block of a MyST document) as the page reads them,
    one line for each."""
    tree = _parse("\n".join(lines))
    substitutions = rst_inline.substitutions(tree) if tree is not None else {}
    return rst_text.shown_lines(lines, tree, rst_inline.Names(substitutions, {}))


@cache
def _settings() -> frontend.Values:
    settings = frontend.get_default_settings(Parser)
    for key, value in _SAFE_SETTINGS.items():
        setattr(settings, key, value)
    return settings


def _parse(text: str) -> nodes.document | None:
    """The document's doctree, as docutils' parser alone reads it; None when it cannot."""
    document = new_document("<rst>", copy.copy(_settings()))
    try:
        rst_inline.register_unknown(rst_inline.directive_names(text))
        Parser().parse(text, document)
    except Exception as error:  # a document docutils cannot parse
        logger.debug("reStructuredText not parsed (%s); read as one section", error)
        return None
    return document


def _titles(tree: nodes.document, lines: list[str]) -> list[_Title]:
    """The titles of sections, in order, with the lines they take."""
    found: list[_Title] = []
    previous_end = 0
    for section in tree.findall(nodes.section):
        level = _depth(section)
        title = section.next_node(nodes.title)
        if title is None or title.parent is not section:
            continue
        underline = title.line
        if underline is None or not 2 <= underline <= len(lines):
            continue
        start = underline - 1
        if start >= 2 and _is_overline(lines[start - 2], lines[underline - 1]):
            start -= 1
        if start <= previous_end:
            continue  # not where docutils says: leave it in the text
        found.append(_Title(start, underline, level, title))
        previous_end = underline
    return found


def _heading_starts(
    lines: list[str], titles: list[_Title], texts: list[str]
) -> tuple[list[int], dict[str, str]]:
    """Where each title's section starts: at the labels (`.. _name:`), object markers
    (`.. fixture:: capfd`) and file-wide metadata (`:orphan:`) right above it, else at
    the title; and each label's title."""
    starts: list[int] = []
    labels: dict[str, str] = {}
    previous_end = 0
    for title, text in zip(titles, texts, strict=True):
        start = title.start
        index = title.start - 2  # the line above, 0-based
        while index >= previous_end:
            line = lines[index]
            label = rst_inline.label_name(line)
            if label is not None:
                labels.setdefault(label, text)
            elif line.strip() and not (
                rst_inline.is_object_marker(line)
                or (previous_end == 0 and rst_inline.is_metadata(line))
            ):
                break
            if line.strip():
                start = index + 1
            index -= 1
        starts.append(start)
        previous_end = title.underline
    return starts, labels


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
