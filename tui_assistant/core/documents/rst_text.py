"""reStructuredText as its page reads, line for line.

`shown_lines` turns a document's lines into the words a reader of the built page sees,
keeping one line for each line of the file, so a passage's text still stands on the
file's lines (a quote found on its third line is on the file's third line of it):

- roles, references and literals are their text: `` :exc:`~a.b.Error` `` is `Error`,
  `` `Gunicorn <https://gunicorn.org>`_ `` and `` Gunicorn_ `` are `Gunicorn`,
  ``` ``pytest`` ``` is `pytest`, `|name|` is what its substitution says;
- a paragraph's `::` literal marker is `:` (`Example::`) or nothing (`Example ::`, a
  lone `::`), as docutils renders it;
- directives: `.. note::` reads `Note:`, `.. versionchanged:: 8.0` reads `Changed in
  version 8.0:`, an object's signature (`.. confval:: addopts`) is its text; the
  code of `.. code-block::` is kept as written, without the directive line and its
  options; `.. toctree::`, `.. include::`, `.. autofunction::` and the like show
  nothing; `.. only::` shows its content when the HTML page would;
- a field (`:param name: text`) reads `param name: text`;
- labels (`.. _name:`), link targets, substitution definitions, comments and the
  file-wide metadata at the top (`:orphan:`) are no text: their lines are empty.

docutils finds the inline markup (`rst_inline.inline_text` renders a node's children), and a
line scan finds the extent of explicit markup blocks and literal blocks. The parse is
docutils' only: Sphinx's directives are read by `SphinxDirective`, which reads their
content as reStructuredText and never runs anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from docutils import nodes

from tui_assistant.core.documents.rst_inline import (
    DIRECTIVE,
    EXPLICIT,
    Names,
    inline_text,
    is_metadata,
)
from tui_assistant.core.documents.sphinx_markup import (
    LABELS,
    VERSIONS,
    Kind,
    directive_kind,
    only_shown,
)

_FIELD = re.compile(r"^(\s*):([^:`\s][^:`]*):(?=\s|$)")
_OPTION = re.compile(r"^\s+:[^:\s][^:]*:(?:\s|$)")


@dataclass(slots=True)
class _Plan:
    """What the line scan decided: lines that are no text, lines kept as written
    (code), and the explicit markup that reads as other words (`.. note::` -> `Note:`)."""

    empty: set[int]
    literal: set[int]
    prefixes: dict[int, tuple[int, str]]  # line index -> (characters replaced, by what)
    # A directive's content, shown at the directive's own indentation: (first line
    # index, index after the last, how many spaces fewer).
    dedents: list[tuple[int, int, int]]


def shown_lines(lines: list[str], tree: nodes.document | None, names: Names) -> list[str]:
    """The words a reader sees on each line of the file (one line out for each in)."""
    plan = _scan(lines)
    shown = list(lines)
    if tree is not None:
        _render_text(tree, lines, shown, plan, names)
    for index, (length, words) in plan.prefixes.items():
        line = (words + shown[index][length:].lstrip()).rstrip()
        shown[index] = line if line.strip() else ""
    for index in plan.empty:
        shown[index] = ""
    for start, end, spaces in plan.dedents:
        for index in range(start, end):
            line = shown[index]
            shown[index] = line[min(spaces, len(line) - len(line.lstrip(" "))) :]
    return shown


def code_lines(lines: list[str]) -> set[int]:
    """The 0-based indexes of the lines that are code (literal blocks, `code-block`)."""
    return _scan(lines).literal


def _render_text(
    tree: nodes.document, lines: list[str], shown: list[str], plan: _Plan, names: Names
) -> None:
    """Each paragraph, title, term... whose words differ from its source, written over
    its source on the lines where it stands."""
    searched_from = 0
    for element in _text_elements(tree):
        raw = element.rawsource
        if not raw.strip():
            continue
        words = inline_text(element, names)
        raw_lines = raw.split("\n")
        word_lines = words.split("\n")
        if raw_lines[-1].strip() == "::" and len(word_lines) == len(raw_lines) - 1:
            word_lines.append("")  # a literal marker on a line of its own
        if words == raw or len(word_lines) != len(raw_lines):
            continue  # as written, or docutils did not keep its line breaks
        start = _place(raw_lines, lines, element.line, searched_from, plan)
        if start is None:
            continue
        searched_from = start
        pairs = [
            (before.strip(), after.strip())
            for before, after in zip(raw_lines, word_lines, strict=True)
        ]
        places = [shown[start + offset].find(before) for offset, (before, _) in enumerate(pairs)]
        if min(places) < 0:
            continue  # another element already changed these lines
        for offset, ((before, after), at) in enumerate(zip(pairs, places, strict=True)):
            line = shown[start + offset]
            line = line[:at] + after + line[at + len(before) :]
            shown[start + offset] = line if line.strip() else ""


def _text_elements(tree: nodes.document) -> Iterator[nodes.TextElement]:
    """The elements that hold a run of text (paragraphs, titles, terms, table cells' lines),
    outside code, comments, targets and docutils' own messages."""
    skipped = (
        nodes.literal_block,
        nodes.doctest_block,
        nodes.math_block,
        nodes.comment,
        nodes.target,
        nodes.substitution_definition,
        nodes.raw,
    )
    for element in tree.findall(nodes.TextElement):
        if isinstance(element, (nodes.Inline, *skipped)):
            continue
        if any(isinstance(parent, nodes.system_message) for parent in _parents(element)):
            continue
        yield element


def _parents(node: nodes.Node) -> Iterator[nodes.Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _place(
    raw_lines: list[str], lines: list[str], line: int | None, searched_from: int, plan: _Plan
) -> int | None:
    """The index of the file line where `raw_lines` start: near `line` (docutils' line,
    which is the underline for a title), else the first place after `searched_from`."""
    starts: list[int] = [] if line is None else [line - 1, line - 2, line - 3, line]
    starts += range(searched_from, min(len(lines), searched_from + 400))
    return next((start for start in starts if _stands_at(raw_lines, lines, start, plan)), None)


def _stands_at(raw_lines: list[str], lines: list[str], start: int, plan: _Plan) -> bool:
    if start < 0 or start + len(raw_lines) > len(lines):
        return False
    for offset, raw in enumerate(raw_lines):
        index = start + offset
        if index in plan.empty or index in plan.literal or raw.strip() not in lines[index]:
            return False
    return True


def _scan(lines: list[str]) -> _Plan:
    """Explicit markup blocks and literal blocks, by their lines."""
    plan = _Plan(empty=set(), literal=set(), prefixes={}, dedents=[])
    at_top = True  # nothing but metadata, comments and labels yet
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            index += 1
            continue
        indent = len(line) - len(line.lstrip())
        explicit = EXPLICIT.match(line)
        if explicit:
            index = _explicit(lines, index, indent, explicit.group(2) or "", plan)
            continue
        if at_top and indent == 0 and is_metadata(line):
            end = _block_end(lines, index, indent)
            plan.empty.update(range(index, end))
            index = end
            continue
        at_top = False
        field = _FIELD.match(line)
        if field is not None:  # `:param name: text` reads `param name: text`
            plan.prefixes[index] = (field.end(), f"{field.group(1)}{field.group(2)}: ")
        if stripped == "::":
            plan.empty.add(index)
        if stripped.endswith("::") and _paragraph_ends(lines, index):
            end = _block_end(lines, index, indent)
            plan.literal.update(range(index + 1, end))
            index = end
            continue
        index += 1
    return plan


def _paragraph_ends(lines: list[str], index: int) -> bool:
    return index + 1 >= len(lines) or not lines[index + 1].strip()


def _block_end(lines: list[str], index: int, indent: int) -> int:
    """The index after the last line indented deeper than `indent` following `index`
    (blank lines between them included)."""
    end = index + 1
    for later in range(index + 1, len(lines)):
        line = lines[later]
        if not line.strip():
            continue
        if len(line) - len(line.lstrip()) <= indent:
            break
        end = later + 1
    return end


def _explicit(lines: list[str], index: int, indent: int, rest: str, plan: _Plan) -> int:
    """Plan one explicit markup block starting at `index`; the index after it, or the
    index of its content when its content is read as text."""
    end = _block_end(lines, index, indent)
    if not rest and (index + 1 >= len(lines) or not lines[index + 1].strip()):
        plan.empty.add(index)  # an empty comment
        return index + 1
    if rest.startswith("["):  # a footnote or a citation: `.. [1] text`
        marker = rest.split("]", 1)[0] + "]"
        plan.prefixes[index] = (
            lines[index].index(marker) + len(marker),
            " " * indent + marker + " ",
        )
        return index + 1
    directive = DIRECTIVE.match(rest)
    if directive is None or rest.startswith(("_", "|")):
        plan.empty.update(range(index, end))  # a comment, a label, a target, a substitution
        return end
    name, argument = directive.group(1), (directive.group(2) or "").strip()
    kind = directive_kind(name)
    if kind is Kind.NOTHING or (name.lower() == "only" and not only_shown(argument)):
        plan.empty.update(range(index, end))
        return end
    options = _options(lines, index, end)
    plan.empty.update(options)
    content = max([index, *options]) + 1
    if kind is Kind.CODE:
        plan.empty.add(index)
        plan.literal.update(range(content, end))
        return end
    marker_end = lines[index].index("::") + 2
    pad = " " * indent
    if kind is Kind.LABELLED:
        label = LABELS[name.lower().rsplit(":", 1)[-1]]
        plan.prefixes[index] = (marker_end, f"{pad}{label}: ")
    elif kind is Kind.VERSION:
        label = VERSIONS[name.lower().rsplit(":", 1)[-1]]
        version, _, more = argument.partition(" ")
        ending = ":" if more or _has_content(lines, content, end) else "."
        version_end = lines[index].find(version, marker_end) + len(version)
        words = f"{label} {version}".strip() + ending
        plan.prefixes[index] = (max(version_end, marker_end), f"{pad}{words} ")
    elif kind is Kind.TEXT:
        plan.prefixes[index] = (marker_end, pad)
    else:
        plan.empty.add(index)
    indents = [len(line) - len(line.lstrip()) for line in lines[content:end] if line.strip()]
    if indents and min(indents) > indent:
        plan.dedents.append((content, end, min(indents) - indent))
    return content


def _options(lines: list[str], index: int, end: int) -> list[int]:
    """The option lines (`:linenos:`) right under a directive line."""
    found: list[int] = []
    for later in range(index + 1, end):
        if not lines[later].strip():
            break
        if _OPTION.match(lines[later]):
            found.append(later)
        elif found:
            break
    return found


def _has_content(lines: list[str], start: int, end: int) -> bool:
    return any(line.strip() for line in lines[start:end])
