"""The entries of a reStructuredText document's reference lists and its `.. index::` terms.

- a definition list, field list or option list at a section's top level (not inside a
  directive or another list) makes one entry per item, named by its term, field name or
  option strings;
- Sphinx's object directives are entries: `option` (each option string, and with the
  `.. program::` above it `prog --opt` too), `envvar`, `confval`, `describe`, `object`,
  and the domain directives (`.. py:function:: send(message)` is `send`), which are each a
  passage of their own as an API object is;
- `.. index::` directives name terms (`single: a; b`, `pair:`, `see:`, plain `a, b`) for
  the passage their next line of text stands in.

An entry spans its first line to the last line indented deeper than it. Pure: lines and
docutils' tree in, line numbers out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docutils import nodes

from tui_assistant.core.documents.passage import Entry
from tui_assistant.core.documents.rst_inline import DIRECTIVE, EXPLICIT, Names, inline_text
from tui_assistant.core.documents.sphinx_markup import index_terms

MAX_TERM_CHARS = 100
# Object directives named by words (grouped with their neighbours).
_WORD_OBJECTS = frozenset({"option", "cmdoption", "envvar", "confval", "describe", "object"})
# Object directives written without a domain that document an API object.
_API_OBJECTS = frozenset(
    {
        "function", "class", "method", "attribute", "data", "exception", "decorator",
        "decoratormethod", "classmethod", "staticmethod", "property", "hook",
    }
)  # fmt: skip
# Domain directives that document no object.
_NOT_OBJECTS = frozenset({"module", "currentmodule", "default-domain", "namespace", "alias"})
_OPTION_NAME = re.compile(r"^[^\s=\[<]+")
_LISTS = (nodes.definition_list, nodes.field_list, nodes.option_list)


def list_entries(tree: nodes.document, lines: list[str], names: Names) -> list[Entry]:
    """The items of the reference lists at a section's top level, as entries."""
    found: list[Entry] = []
    for listed in tree.findall(lambda node: isinstance(node, _LISTS)):
        if not isinstance(listed.parent, (nodes.section, nodes.document)):
            continue  # a list inside an entry, a directive or a block quote
        cursor = (listed.line or 1) - 1
        for item in listed.children:
            terms = _item_terms(item, names)
            line = _item_line(item, terms, lines, cursor)
            if line is None or not terms:
                continue
            cursor = line
            found.append(Entry(line, block_end(lines, line), terms))
    return found


def _item_terms(item: nodes.Node, names: Names) -> tuple[str, ...]:
    if isinstance(item, nodes.definition_list_item):
        term = item.next_node(nodes.term)
        words = [inline_text(term, names)] if term is not None else []
    elif isinstance(item, nodes.field):
        name = item.next_node(nodes.field_name)
        words = [name.astext()] if name is not None else []
    elif isinstance(item, nodes.option_list_item):
        words = [option.astext() for option in item.findall(nodes.option_string)]
    else:
        words = []
    cleaned = (" ".join(word.split()) for word in words)
    return tuple(word for word in cleaned if word and len(word) <= MAX_TERM_CHARS)


def _item_line(
    item: nodes.Node, terms: tuple[str, ...], lines: list[str], cursor: int
) -> int | None:
    """The 1-based line an item starts on: docutils' when it says, else the first line
    from `cursor` (0-based) that starts with its first option string."""
    line = getattr(item, "line", None)
    if isinstance(line, int) and not isinstance(item, nodes.option_list_item):
        return line
    if not terms:
        return None
    for index in range(max(cursor, 0), len(lines)):
        if lines[index].lstrip().startswith(terms[0]):
            return index + 1
    return None


def block_end(lines: list[str], line: int) -> int:
    """The last 1-based line of the block starting on `line`: it and the lines after it
    indented deeper (blank lines between them included)."""
    first = lines[line - 1]
    indent = len(first) - len(first.lstrip())
    end = line
    for index in range(line, len(lines)):
        text = lines[index]
        if not text.strip():
            continue
        if len(text) - len(text.lstrip()) <= indent:
            break
        end = index + 1
    return end


def directive_entries(lines: list[str], code: set[int]) -> list[Entry]:
    """Sphinx's object directives, as entries (`code`: 0-based lines of code blocks)."""
    found: list[Entry] = []
    program = ""
    for index, name, argument in _directives(lines, code):
        short = name.rsplit(":", 1)[-1]
        if short == "program":
            program = argument
            continue
        if short in _WORD_OBJECTS:
            terms = _option_terms(argument, program) if "option" in short else (argument,)
            alone = False
        elif (":" in name and short not in _NOT_OBJECTS) or short in _API_OBJECTS:
            terms, alone = (_object_name(argument),), True
        else:
            continue
        terms = tuple(t for t in terms if t and len(t) <= MAX_TERM_CHARS)
        if terms:
            found.append(Entry(index + 1, block_end(lines, index + 1), terms, alone))
    return found


def index_marks(lines: list[str], code: set[int]) -> list[tuple[str, int]]:
    """Each `.. index::` term with the 1-based line of the text after the directive."""
    marks: list[tuple[str, int]] = []
    for index, name, argument in _directives(lines, code):
        if name != "index":
            continue
        end = block_end(lines, index + 1)
        entries = [argument] + [line.strip() for line in lines[index + 1 : end]]
        target = next(
            (number + 1 for number in range(end, len(lines)) if lines[number].strip()), end
        )
        marks += [(term, target) for term in index_terms(entries)]
    return marks


def _directives(lines: list[str], code: set[int]) -> Iterator[tuple[int, str, str]]:
    """(0-based line, lower-cased name, argument) of each directive outside code."""
    for index, line in enumerate(lines):
        if index in code:
            continue
        explicit = EXPLICIT.match(line)
        directive = DIRECTIVE.match(explicit.group(2) or "") if explicit else None
        if directive is not None:
            yield index, directive.group(1).lower(), " ".join((directive.group(2) or "").split())


def _option_terms(argument: str, program: str) -> tuple[str, ...]:
    options = [_OPTION_NAME.match(part.strip()) for part in argument.split(", ")]
    names = [option.group(0) for option in options if option is not None]
    with_program = [f"{program} {name}" for name in names] if program else []
    return (*names, *with_program)


def _object_name(signature: str) -> str:
    """An object's name from its signature: `int foo(int x)` is `foo`."""
    before = signature.split("(", 1)[0].strip()
    if "(" in signature and before:
        return before.split()[-1].lstrip("*&")
    return signature
