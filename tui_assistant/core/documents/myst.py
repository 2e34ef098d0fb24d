"""MyST (Sphinx's Markdown) as its page reads, line for line.

`rewrite` turns a Markdown document's lines into the lines a reader of the built page
sees, one line for each line of the file, before the Markdown reader finds headings:

- roles are their text (`` {func}`echo` `` is `echo()`, `` {kbd}`Ctrl+C` `` is `Ctrl+C`,
  `` {ref}`Title <label>` `` is `Title`, `` {ref}`label` `` the title the label stands
  above in this document, else the label as words), in headings too;
- labels (`(name)=`), attribute lines (`{.hide-header}`, `{#id}`), comments (`% ...`)
  and block breaks (`+++`) are no text, and a heading's trailing `{#id}` is no word;
- directives (```` ```{name} ```` or `:::{name}`) read as `sphinx_markup.directive_kind`
  says, as rst's do: a `note` reads `Note:` and then its content (Markdown, read as
  such), a `versionadded` `Added in version 2.0:`, a `code-block` is a code fence in
  the language it names, a `toctree` nothing; their options are no text; an
  `eval-rst` block reads as the reStructuredText it holds (`rst_text`);
- `include`, `literalinclude` and the autodoc directives are noted in `pending` (the
  document's reader resolves them, `inclusion.py`): an autodoc directive shows its
  object's name, the others nothing.

Code fences are kept as written. Pure: strings in, strings out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tui_assistant.core.documents.directives import Pending, is_inserting, rst_pending
from tui_assistant.core.documents.markdown_inline import CODE_SPAN, plain_inline
from tui_assistant.core.documents.sphinx_markup import (
    LABELS,
    VERSIONS,
    Kind,
    directive_kind,
    index_terms,
    label_key,
    only_shown,
    role_text,
)

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}|:{3,})(.*)$")
_DIRECTIVE = re.compile(r"^\{([A-Za-z][\w:.+-]*)\}\s*(.*?)\s*$")
_ROLE = re.compile(r"\{([A-Za-z][\w:.+-]*)\}(`+)(.+?)\2(?!`)")
_LABEL = re.compile(r"^ {0,3}\(([^()\s]+)\)=\s*$")
_ATTRIBUTES = re.compile(r"^ {0,3}\{[.#%][^{}]*\}\s*$")
_HEADING = re.compile(r"^( {0,3}#{1,6}[ \t]+)(.*?)[ \t]*$")
_HEADING_ATTRIBUTES = re.compile(r"[ \t]*\{#[\w:.-]+(?:[ \t][^{}]*)?\}$")
_COMMENT = re.compile(r"^ {0,3}%")
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_BLOCK_BREAK = re.compile(r"^ {0,3}\+\+\+")
_OPTION = re.compile(r"^\s*:[\w-]+:(?:\s.*)?$")
_RST_DIRECTIVES = ("eval-rst", "eval-rest")
# Directives whose content is code though Sphinx's own kinds do not say so.
_CODE = frozenset({"mermaid", "code-cell", "jupyter-execute", "plantuml"})


@dataclass(slots=True)
class Rewritten:
    lines: list[str]
    labels: dict[str, str] = field(default_factory=dict)  # label (lower case) -> title
    pending: list[Pending] = field(default_factory=list)
    # `{index}` terms, each with the 1-based line of the text after its directive.
    index: list[tuple[str, int]] = field(default_factory=list)


def rewrite(lines: list[str], start: int = 0) -> Rewritten:
    """`lines` from index `start` as the page shows them (the ones before, front
    matter, are kept as they are)."""
    labels = _labels(lines, start)
    result = Rewritten(list(lines), labels)
    closers: set[int] = set()
    index = start
    while index < len(lines):
        line = lines[index]
        if index in closers:
            result.lines[index] = ""
            index += 1
            continue
        opened = FENCE.match(line)
        if opened is not None:
            marker, info = opened.group(2), opened.group(3).strip()
            directive = _DIRECTIVE.match(info)
            if directive is not None:
                end = fence_end(lines, index, marker)
                closers.add(end)
                index = _directive(result, lines, index, end, (opened.group(1), marker), directive)
                continue
            if marker[0] != ":":
                index = fence_end(lines, index, marker) + 1  # code: as written
                continue
        result.lines[index] = shown_line(line, labels)
        index += 1
    return result


def fence_end(lines: list[str], index: int, marker: str) -> int:
    """The index of the line that closes the fence opened at `index` (a line of at
    least as many of its characters and nothing else), else `len(lines)`."""
    for later in range(index + 1, len(lines)):
        stripped = lines[later].strip()
        if len(stripped) >= len(marker) and stripped == marker[0] * len(stripped):
            return later
    return len(lines)


def shown_line(line: str, labels: dict[str, str]) -> str:
    """One line of prose as the page shows it: no label, attribute or comment line,
    roles as their text, a heading without its `{#id}`."""
    if _LABEL.match(line) or _ATTRIBUTES.match(line) or _COMMENT.match(line):
        return ""
    if _BLOCK_BREAK.match(line):
        return ""
    heading = _HEADING.match(line)
    if heading is not None:
        line = heading.group(1) + _HEADING_ATTRIBUTES.sub("", heading.group(2))
    return with_roles(line, labels) if "{" in line else line


def with_roles(text: str, labels: dict[str, str]) -> str:
    """`text` with each MyST role (outside code spans) as its text."""
    code = [span.span() for span in CODE_SPAN.finditer(text)]
    parts: list[str] = []
    position = 0
    for role in _ROLE.finditer(text):
        if any(start < role.start() < end for start, end in code):
            continue  # written inside code: `{func}` as an example
        parts.append(text[position : role.start()])
        parts.append(role_text(f":{role.group(1)}:`{role.group(3)}`", labels))
        position = role.end()
    parts.append(text[position:])
    return "".join(parts)


def _labels(lines: list[str], start: int) -> dict[str, str]:
    """Each `(label)=` right above a heading, with the heading's plain text."""
    labels: dict[str, str] = {}
    for index in range(start, len(lines)):
        found = _LABEL.match(lines[index])
        if found is None:
            continue
        following = next((line for line in lines[index + 1 :] if line.strip()), "")
        if _LABEL.match(following):
            following = next(
                (line for line in lines[index + 1 :] if line.strip() and not _LABEL.match(line)),
                "",
            )
        heading = _HEADING.match(following)
        if heading is not None:
            text = _HEADING_ATTRIBUTES.sub("", heading.group(2)).rstrip("# ")
            title = " ".join(plain_inline(with_roles(text, {})).split())
            if title:
                labels.setdefault(label_key(found.group(1)), title)
    return labels


def _directive(
    result: Rewritten,
    lines: list[str],
    index: int,
    end: int,
    fence: tuple[str, str],
    directive: re.Match[str],
) -> int:
    """Rewrite one directive's lines (`fence`: its indentation and marker); the index to
    read on from (its content when its content is text, else the line after it)."""
    shown = result.lines
    indent, marker = fence
    name, argument = directive.group(1), directive.group(2)
    base = name.lower().rsplit(":", 1)[-1]
    content = _content_start(lines, index, end)
    for option in range(index + 1, content):
        shown[option] = ""
    if base in _RST_DIRECTIVES:
        _rst_block(result, lines, index, content, end)
        return end + 1
    if is_inserting(base):
        result.pending.append(Pending(base, argument, _options(lines, index, content), index + 1))
        shown[index] = indent + argument if base.startswith("auto") else ""
        return content
    kind = Kind.CODE if base in _CODE else directive_kind(name)
    if base == "index":
        entries = [argument, *(line.strip() for line in lines[content:end])]
        after = next((n + 1 for n in range(end + 1, len(lines)) if lines[n].strip()), end + 1)
        result.index += [(term, after) for term in index_terms(entries)]
    if kind is Kind.NOTHING or (base == "only" and not only_shown(argument)):
        for number in range(index, min(end + 1, len(lines))):
            shown[number] = ""
        return end + 1
    if kind is Kind.CODE:
        code_fence = marker if marker[0] != ":" else "```"
        language = argument.split()[0] if argument and base != "math" else ""
        shown[index] = f"{indent}{code_fence}{language}"
        if end < len(lines):
            shown[end] = indent + code_fence
        return end + 1
    if kind is Kind.LABELLED:
        shown[index] = f"{indent}{LABELS[base]}: {with_roles(argument, result.labels)}".rstrip()
    elif kind is Kind.VERSION:
        version, _, more = argument.partition(" ")
        has_content = any(line.strip() for line in lines[content:end])
        ending = ":" if more or has_content else "."
        words = f"{VERSIONS[base]} {version}".strip() + ending
        shown[index] = f"{indent}{words} {with_roles(more, result.labels)}".rstrip()
    elif kind is Kind.TEXT:
        shown[index] = indent + with_roles(argument, result.labels)
    else:
        shown[index] = ""
    return content


def _content_start(lines: list[str], index: int, end: int) -> int:
    """The index of a directive's first content line, after its options (`:key: value`
    lines, or a `---` ... `---` block of YAML)."""
    later = index + 1
    if later < end and lines[later].strip() == "---":
        closing = next((i for i in range(later + 1, end) if lines[i].strip() == "---"), None)
        if closing is not None:
            return closing + 1
    while later < end and _OPTION.match(lines[later]):
        later += 1
    return later


def _options(lines: list[str], index: int, content: int) -> dict[str, str]:
    options: dict[str, str] = {}
    for line in lines[index + 1 : content]:
        stripped = line.strip()
        if _OPTION.match(line):
            key, _, value = stripped[1:].partition(":")
            options[key.strip()] = value.strip()
        elif ":" in stripped and stripped != "---":
            key, _, value = stripped.partition(":")
            options[key.strip()] = value.strip()
    return options


def _rst_block(result: Rewritten, lines: list[str], index: int, content: int, end: int) -> None:
    """An `eval-rst` block: its content read as the reStructuredText it is."""
    from tui_assistant.core.documents import rst  # docutils is loaded only for rst

    block = lines[content:end]
    margin = min((len(line) - len(line.lstrip()) for line in block if line.strip()), default=0)
    block = [line[margin:] for line in block]
    shown = rst.shown_rst(block)
    for offset, line in enumerate(shown):
        # A `#` line of reStructuredText (a comment in a literal block) is no heading.
        result.lines[content + offset] = "    " + line if _MD_HEADING.match(line) else line
    result.pending.extend(rst_pending(block, first_line=content + 1))
    result.lines[index] = ""
    if end < len(lines):
        result.lines[end] = ""
