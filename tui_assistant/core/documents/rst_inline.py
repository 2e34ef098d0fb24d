"""reStructuredText's inline markup, read by docutils as Sphinx would show it.

docutils knows no Sphinx directive: `register_unknown` makes each one a
`SphinxDirective`, which reads its content as reStructuredText and never runs anything.
`inline_text` renders a node's children as the words a reader sees, roles by
`sphinx_markup.role_text`; `label_name`, `is_object_marker` and `is_metadata` tell
label, object-marker and metadata lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.languages import en

from tui_assistant.core.documents.directives import is_inserting
from tui_assistant.core.documents.sphinx_markup import (
    Kind,
    directive_kind,
    label_key,
    only_shown,
    role_text,
)

EXPLICIT = re.compile(r"^(\s*)\.\.(?:\s+(.*?))?\s*$")
DIRECTIVE = re.compile(r"^([\w][\w:.+-]*?)::(?:\s+(.*))?$")
_DIRECTIVE_NAME = re.compile(r"^\s*\.\.\s+([\w][\w:.+-]*?)::", re.MULTILINE)
_METADATA = re.compile(r"^:[\w-]+:(?:\s.*)?$")
_LABEL = re.compile(r"^\.\.\s+_(?:`[^`]+`|[^:`]+):\s*$")
# docutils' own pattern for the line that starts a directive's options.
_FIELD_MARKER = re.compile(r":(?![: ])([^:\\]|\\.|:(?!([ `]|$)))*(?<! ):( +|$)")

# Every directive docutils itself knows, by its English name.
_DOCUTILS_DIRECTIVES = frozenset(en.directives)


class SphinxDirective(Directive):
    """A directive docutils does not know (Sphinx's `versionadded`, an extension's
    `confval`): its argument read as text where it is text, its content parsed as
    reStructuredText, nothing run."""

    optional_arguments = 1
    final_argument_whitespace = True
    # No spec: docutils would parse each directive's options with a state machine of
    # its own, built anew every time (a changelog of 600 `change::` entries took
    # seconds for that alone); the option lines come in the argument, and `run` takes
    # them off as docutils would (options are never shown).
    option_spec = None
    has_content = True

    def run(self) -> list[nodes.Node]:
        self.arguments = self._without_options()
        kind = directive_kind(self.name)
        if kind in (Kind.NOTHING, Kind.CODE):
            return []
        if self.name.lower() == "only" and not only_shown(" ".join(self.arguments)):
            return []
        found: list[nodes.Node] = []
        if kind in (Kind.TEXT, Kind.LABELLED, Kind.VERSION) and self.arguments:
            words, messages = self.state.inline_text(self.arguments[0], self.lineno)
            argument = nodes.paragraph(self.arguments[0], "", *words)
            argument.line = self.lineno
            found += [argument, *messages]
        body = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, body)
        found.append(body)
        return found

    def _without_options(self) -> list[str]:
        """The argument as docutils gives it when it parses the options: the lines
        before the first option line (`:name: value`)."""
        if not self.arguments:
            return []
        lines = _argument_lines(self.block_text)
        start = next((i for i, line in enumerate(lines) if _FIELD_MARKER.match(line)), None)
        if start is None:
            return self.arguments
        problem = _option_problem(lines[start:])
        if problem:
            raise self.error(f'Error in "{self.name}" directive:\n{problem}.')
        text = "\n".join(lines[:start])
        words = text.split()
        return words if len(words) <= 1 else text.split(None, 0)


def _option_problem(lines: list[str]) -> str | None:
    """What docutils would say is wrong with a directive's option lines, if anything:
    each must be a field or its indented continuation, one word a name, no name twice."""
    names: set[str] = set()
    for line in lines:
        marker = _FIELD_MARKER.match(line)
        if marker is None:
            if not line[:1].isspace():
                return "invalid option block"
            continue
        name = marker.group().strip()[1:-1].lower()
        if len(name.split()) != 1:
            return "invalid option data: extension option field name may not contain multiple words"
        if name in names:
            return f'invalid option data: duplicate option "{name}"'
        names.add(name)
    return None


def _argument_lines(block: str) -> list[str]:
    """A directive's argument and option lines as docutils reads them: the rest of its
    first line, then the block's lines without their common indent, to a blank line."""
    first, *rest = block.split("\n")
    indent = min((len(line) - len(line.lstrip()) for line in rest if line.strip()), default=0)
    head = first.split("::", 1)[1].strip() if "::" in first else ""
    lines = [head] if head else []
    for line in rest:
        if not line.strip():
            break
        lines.append(line[indent:])
    return lines


def directive_names(text: str) -> set[str]:
    """The names of the directives `text` uses."""
    return {name.lower() for name in _DIRECTIVE_NAME.findall(text)}


def register_unknown(names: set[str]) -> None:
    """Read every directive of `names` docutils does not know as a `SphinxDirective`
    (docutils keeps its directives by name for the whole process)."""
    for name in names - _DOCUTILS_DIRECTIVES:
        directives.register_directive(name, SphinxDirective)


# -- inline markup ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Names:
    """What a document defines that its inline markup refers to."""

    substitutions: Mapping[str, str]  # |name| -> its text
    labels: Mapping[str, str]  # a label (lower case) -> the title it stands above


def substitutions(tree: nodes.document) -> dict[str, str]:
    """Each substitution's text, by name (`.. |name| replace:: text`)."""
    found: dict[str, str] = {}
    for definition in tree.findall(nodes.substitution_definition):
        for name in definition["names"]:
            found[name] = " ".join(inline_text(definition, Names({}, {})).split())
    return found


def inline_text(element: nodes.Element, names: Names) -> str:
    """The words `element`'s children show, with the line breaks its source has where
    they can be told: an inline markup spanning two lines is its text followed by a line
    break, so the result has as many lines as `element.rawsource` when docutils kept it."""
    source = element.rawsource
    parts: list[str] = []
    cursor = 0
    for child in element.children:
        if isinstance(child, nodes.Text):
            parts.append(child.astext())
            continue
        raw = child.rawsource if isinstance(child, nodes.Element) else ""
        shown = _inline(child, names)
        if not raw:
            parts.append(shown)
            continue
        position = source.find(raw, cursor)
        if position < 0:
            if not isinstance(child, nodes.target):
                parts.append(" ".join(shown.split()))
            continue  # a target inside the markup before it: an embedded URI's
        cursor = position + len(raw)
        breaks = raw.count("\n") - shown.count("\n")
        parts.append(shown + "\n" * breaks if breaks >= 0 else " ".join(shown.split()))
    return "".join(parts)


def _inline(node: nodes.Node, names: Names) -> str:
    if isinstance(node, nodes.problematic):
        return role_text(node.astext(), names.labels)
    if isinstance(node, nodes.substitution_reference):
        return names.substitutions.get(node.get("refname", ""), node.astext())
    if isinstance(node, (nodes.footnote_reference, nodes.citation_reference)):
        return f"[{node.astext()}]"
    if isinstance(node, nodes.image):
        return str(node.get("alt", ""))
    if isinstance(node, (nodes.system_message, nodes.target)) and not node.astext():
        return ""
    if isinstance(node, nodes.Element):
        return inline_text(node, names)
    return node.astext()


def label_name(line: str) -> str | None:
    """The name a label line (`.. _name:`, ``.. _`name`:``) gives, lower case."""
    if not _LABEL.match(line.strip()):
        return None
    return label_key(line.strip()[4:-1])


def is_object_marker(line: str) -> bool:
    """Whether `line` is an object description (`.. fixture:: capfd`), which, with no
    content and a title right below it, only marks that title as the object's."""
    explicit = EXPLICIT.match(line)
    directive = DIRECTIVE.match(explicit.group(2) or "") if explicit else None
    if directive is None or is_inserting(directive.group(1).lower().removeprefix("py:")):
        return False  # an autodoc entry is the section's above, not the title's below
    return directive_kind(directive.group(1)) is Kind.TEXT


def is_metadata(line: str) -> bool:
    """Whether `line` is a field of file-wide metadata (`:orphan:`, `:tocdepth: 2`)."""
    return bool(_METADATA.match(line))
