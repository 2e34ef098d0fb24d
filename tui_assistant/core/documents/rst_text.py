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
- labels (`.. _name:`), link targets, substitution definitions, comments and the
  file-wide metadata at the top (`:orphan:`) are no text: their lines are empty.

docutils finds the inline markup (`inline_text` renders a node's children), and a
line scan finds the extent of explicit markup blocks and literal blocks. The parse is
docutils' only: Sphinx's directives are read by `SphinxDirective`, which reads their
content as reStructuredText and never runs anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.languages import en

_EXPLICIT = re.compile(r"^(\s*)\.\.(?:\s+(.*?))?\s*$")
_DIRECTIVE = re.compile(r"^([\w][\w:.+-]*?)::(?:\s+(.*))?$")
_DIRECTIVE_NAME = re.compile(r"^\s*\.\.\s+([\w][\w:.+-]*?)::", re.MULTILINE)
_OPTION = re.compile(r"^\s+:[^:\s][^:]*:(?:\s|$)")
_METADATA = re.compile(r"^:[\w-]+:(?:\s.*)?$")
_LABEL = re.compile(r"^\.\.\s+_(?:`[^`]+`|[^:`]+):\s*$")
_ROLE = re.compile(r"^:([\w.+:-]+):`(.+)`$", re.DOTALL)
_LABELLED = re.compile(r"^(.+?)\s*<([^<>]+)>$", re.DOTALL)
_SAMP_FIELD = re.compile(r"\{([^{}]*)\}")
_ONLY_TOKEN = re.compile(r"\(|\)|[^\s()]+")

# Every directive docutils itself knows, by its English name.
_DOCUTILS_DIRECTIVES = frozenset(en.directives)
# The tags the `only` directive sees when the page is built as HTML.
_HTML_TAGS = frozenset({"html", "builder_html", "format_html"})


class Kind(Enum):
    """How a directive reads on the page."""

    NOTHING = "nothing"  # nothing at all (`toctree`, `include`, `autofunction`)
    CODE = "code"  # its content as written, as code (`code-block`)
    LABELLED = "labelled"  # a word, then its content (`note` reads `Note:`)
    VERSION = "version"  # `Changed in version 8.0:`, then its content
    TEXT = "text"  # its argument as text (a signature, a title), then its content
    CONTENT = "content"  # its content only (the argument is a class, a path, a tag)


_NOTHING = frozenset(
    {
        "toctree", "include", "literalinclude", "highlight", "index", "meta", "contents",
        "sectnum", "role", "default-role", "default-domain", "module", "currentmodule",
        "autosummary", "tabularcolumns", "raw", "todo", "todolist", "title", "target-notes",
        "header", "footer", "image", "program", "replace", "unicode", "date",
    }
)  # fmt: skip
_CODE = frozenset(
    {
        "code", "code-block", "sourcecode", "parsed-literal", "math", "doctest", "testcode",
        "testoutput", "testsetup", "testcleanup", "ipython", "productionlist", "prompt",
        "synopsis", "code-tab", "jupyter-execute", "graphviz", "digraph", "graph",
    }
)  # fmt: skip
_CONTENT = frozenset(
    {
        "container", "class", "rst-class", "compound", "epigraph", "highlights",
        "pull-quote", "line-block", "figure", "only", "tabs", "glossary", "hlist",
        "ifconfig", "cssclass",
    }
)  # fmt: skip
_LABELS = {
    "note": "Note",
    "warning": "Warning",
    "tip": "Tip",
    "hint": "Hint",
    "important": "Important",
    "caution": "Caution",
    "danger": "Danger",
    "attention": "Attention",
    "error": "Error",
    "seealso": "See also",
}
_VERSIONS = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


def directive_kind(name: str) -> Kind:
    """How the directive `name` reads (`py:function` as `function`)."""
    name = name.lower().rsplit(":", 1)[-1]
    if name in _NOTHING or name.startswith("auto"):
        return Kind.NOTHING
    if name in _CODE:
        return Kind.CODE
    if name in _LABELS:
        return Kind.LABELLED
    if name in _VERSIONS:
        return Kind.VERSION
    if name in _CONTENT:
        return Kind.CONTENT
    return Kind.TEXT


def only_shown(expression: str) -> bool:
    """Whether `.. only:: expression` shows its content on an HTML page
    (`builder_man` no, `html or latex` yes); an expression not understood shows it."""
    tokens = _ONLY_TOKEN.findall(expression)
    position = 0

    def either() -> bool:
        nonlocal position
        value = both()
        while position < len(tokens) and tokens[position] == "or":
            position += 1
            value = both() or value
        return value

    def both() -> bool:
        nonlocal position
        value = single()
        while position < len(tokens) and tokens[position] == "and":
            position += 1
            value = single() and value
        return value

    def single() -> bool:
        nonlocal position
        if position >= len(tokens):
            raise ValueError(expression)
        token = tokens[position]
        position += 1
        if token == "not":
            return not single()
        if token == "(":
            value = either()
            if position >= len(tokens) or tokens[position] != ")":
                raise ValueError(expression)
            position += 1
            return value
        if token in ("and", "or", ")"):
            raise ValueError(expression)
        return token in _HTML_TAGS

    try:
        value = either()
    except ValueError:
        return True
    return value if position == len(tokens) else True


# -- docutils: Sphinx's directives, read without Sphinx -------------------------------


class _AnyOption(dict[str, Callable[[str], Any]]):
    """Every option is allowed and kept as written."""

    def __missing__(self, key: str) -> Callable[[str], Any]:
        return directives.unchanged


class SphinxDirective(Directive):
    """A directive docutils does not know (Sphinx's `versionadded`, an extension's
    `confval`): its argument read as text where it is text, its content parsed as
    reStructuredText, nothing run."""

    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = _AnyOption(name=directives.unchanged)
    has_content = True

    def run(self) -> list[nodes.Node]:
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


def role_text(raw: str, labels: Mapping[str, str]) -> str:
    """What Sphinx shows for a role docutils does not know: `` :class:`~a.B` `` is `B`,
    `` :ref:`the docs <x>` `` is `the docs`, `` :func:`f` `` is `f()`, `` :kbd:`C-c` ``
    is `C-c`, `` :doc:`python:library/pdb` `` is `pdb`, `` :ref:`label` `` is the title
    the label stands above in this document (else the label). Anything else is
    left as written."""
    found = _ROLE.match(raw)
    if found is None:
        return raw
    role = found.group(1).lower().rsplit(":", 1)[-1]
    content = found.group(2)
    if role == "abbr":
        return content.split(" (", 1)[0]
    labelled = _LABELLED.match(content)
    if labelled:
        return labelled.group(1)
    if role in ("guilabel", "menuselection"):
        return (
            content.replace("&&", "\0")
            .replace("&", "")
            .replace("\0", "&")
            .replace("-->", "\N{TRIANGULAR BULLET}")
        )
    if role == "samp":
        return _SAMP_FIELD.sub(r"\1", content)
    content = content.removeprefix("!")
    if role in ("ref", "numref", "term", "keyword"):
        return labels.get(_label_key(content), content)
    if role == "doc":
        return content.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    if content.startswith("~"):
        content = content[1:].rsplit(".", 1)[-1]
    if role in ("func", "meth") and not content.endswith(")"):
        content += "()"
    return content


def _label_key(name: str) -> str:
    return " ".join(name.strip("`").lower().split())


def label_name(line: str) -> str | None:
    """The name a label line (`.. _name:`, ``.. _`name`:``) gives, lower case."""
    if not _LABEL.match(line.strip()):
        return None
    return _label_key(line.strip()[4:-1])


def is_object_marker(line: str) -> bool:
    """Whether `line` is an object description (`.. fixture:: capfd`), which, with no
    content and a title right below it, only marks that title as the object's."""
    explicit = _EXPLICIT.match(line)
    directive = _DIRECTIVE.match(explicit.group(2) or "") if explicit else None
    return directive is not None and directive_kind(directive.group(1)) is Kind.TEXT


def is_metadata(line: str) -> bool:
    """Whether `line` is a field of file-wide metadata (`:orphan:`, `:tocdepth: 2`)."""
    return bool(_METADATA.match(line))


# -- the lines ------------------------------------------------------------------------


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
        explicit = _EXPLICIT.match(line)
        if explicit:
            index = _explicit(lines, index, indent, explicit.group(2) or "", plan)
            continue
        if at_top and indent == 0 and is_metadata(line):
            end = _block_end(lines, index, indent)
            plan.empty.update(range(index, end))
            index = end
            continue
        at_top = False
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
    directive = _DIRECTIVE.match(rest)
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
        label = _LABELS[name.lower().rsplit(":", 1)[-1]]
        plan.prefixes[index] = (marker_end, f"{pad}{label}: ")
    elif kind is Kind.VERSION:
        label = _VERSIONS[name.lower().rsplit(":", 1)[-1]]
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
