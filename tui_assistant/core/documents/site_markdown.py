"""Markdown as documentation sites write it, read as their pages show it, line for line.

- VitePress, VuePress and Docusaurus containers: `::: tip`, `::: warning Title`,
  `:::note[Title]` read `Tip:`, `Title:`; `::: details Title` reads `Title` (else
  `Details`); `::: code-group`
  and the closing `:::` are no text;
- mkdocs-material admonitions and tabs: `!!! note "Title"`, `??? tip`, `???+ tip` read
  `Title:` / `Tip:`, `=== "Tab"` reads `Tab`, and the content indented under them is read
  at the marker's own indentation (so its code fences are code, its prose prose);
- GitHub alerts: `> [!NOTE]` reads `> Note:`;
- MDX (Docusaurus, React's docs): `import`/`export` lines and `{/* comments */}` are no
  text; a component's tags are no text (`<Tabs>`, `</Note>`), except that an admonition
  component reads as its name (`<Pitfall>` is `Pitfall:`, `<DeepDive>` `Deep Dive:`) and
  a tab as its label (`<TabItem value="npm" label="npm">` is `npm`); the code inside a
  component (`<Sandpack>`) stays code.

Code fences are kept as written; every line keeps its number. Pure.
"""

from __future__ import annotations

import re

from tui_assistant.core.documents.markdown_text import HTML_ELEMENTS
from tui_assistant.core.documents.myst import FENCE, fence_end

_CONTAINER = re.compile(r"^(\s*):{3,}\s*([A-Za-z][\w-]*)?(?:\[(.*)\])?\s*(.*?)\s*$")
_ADMONITION = re.compile(r"^(\s*)(?:!!!|\?\?\?\+?)\s+([\w-]+)(?:[ \t][^\"]*?)?(?:\s+\"(.*)\")?\s*$")
_TAB = re.compile(r"^(\s*)===\+?\s+\"(.*)\"\s*$")
_ALERT = re.compile(r"^(\s*>\s*)\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.IGNORECASE)
_IMPORT = re.compile(r"^import\s+(?:.+\s+from\s+)?['\"][^'\"]+['\"];?\s*$")
_EXPORT = re.compile(r"^export\s+(?:const|let|var|function|default|async)\b")
_JSX_COMMENT = re.compile(r"\{/\*.*?\*/\}")
_TAG_LINE = re.compile(r"^\s*(?:</?[A-Z][\w.]*(?:\s[^<>]*)?/?>\s*)+$")
_TAG = re.compile(r"<(/?)([A-Z][\w.]*)((?:\s[^<>]*?)?)(/?)>")
_PAIR = re.compile(r"<([A-Z][\w.]*)(?:\s[^<>]*)?>(.*?)</\1>")
_LABEL_ATTRIBUTE = re.compile(r"\blabel=(?:\"([^\"]*)\"|'([^']*)'|\{[\"']([^\"']*)[\"']\})")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")

# Components and containers that read as a word on the page.
_NAMED = frozenset(
    {
        "note", "tip", "info", "warning", "danger", "caution", "important", "pitfall",
        "deepdive", "hint", "attention", "error", "success", "question", "example",
        "quote", "abstract", "summary", "bug", "failure", "todo", "seealso",
    }
)  # fmt: skip
_SILENT = frozenset({"code-group", "details", "raw", "v-pre"})


def rewrite(lines: list[str], start: int = 0) -> list[str]:
    """`lines` from index `start` as the page shows them."""
    shown = list(lines)
    in_comment = False
    index = start
    while index < len(shown):
        line = shown[index]
        opened = FENCE.match(line)
        if opened is not None and opened.group(2)[0] != ":":
            index = fence_end(shown, index, opened.group(2)) + 1  # code: as written
            continue
        if in_comment or "{/*" in line:
            line, in_comment = _without_jsx_comments(line, in_comment)
        if _IMPORT.match(line):
            line = ""
        if _EXPORT.match(line):
            end = _statement_end(shown, index)
            for later in range(index, end):
                shown[later] = ""
            index = end
            continue
        marker = _ADMONITION.match(line) or _TAB.match(line)
        if marker is not None:
            shown[index] = _marker_words(marker)
            _dedent_block(shown, index, len(marker.group(1)))
            index += 1
            continue
        shown[index] = _shown(line)
        index += 1
    return shown


def _shown(line: str) -> str:
    container = _CONTAINER.match(line)
    if container is not None:
        indent, name, bracket, rest = container.groups()
        name = (name or "").lower()
        if line.lstrip(" :").startswith("{"):
            return line  # a MyST directive: `myst.py` reads it
        title = bracket or rest
        if name == "details":
            return f"{indent}{title or 'Details'}"
        if name in _SILENT or not name:
            return ""
        return f"{indent}{title or name.capitalize()}:"
    alert = _ALERT.match(line)
    if alert is not None:
        return f"{alert.group(1)}{alert.group(2).capitalize()}:"
    if "<" in line and re.search(r"<[A-Z/]", line):
        return _without_components(line)
    return line


def _without_components(line: str) -> str:
    """A line without its components' tags: a line of tags alone is the words its
    components read as; inside a line, a component's pair of tags leaves its text."""
    if any(tag.group(2).lower() in HTML_ELEMENTS for tag in _TAG.finditer(line)):
        return line  # HTML, read by `markdown_text`
    if _TAG_LINE.match(line):
        indent = line[: len(line) - len(line.lstrip())]
        words = [word for tag in _TAG.finditer(line) if (word := _tag_words(tag))]
        return indent + " ".join(words) if words else ""
    previous = None
    while previous != line:
        previous, line = line, _PAIR.sub(r"\2", line)
    return _TAG.sub(lambda tag: "" if tag.group(4) and tag.group(3).strip() else tag.group(0), line)


def _tag_words(tag: re.Match[str]) -> str:
    closing, name, attributes = tag.group(1), tag.group(2), tag.group(3)
    if closing:
        return ""
    label = _LABEL_ATTRIBUTE.search(attributes)
    if label is not None and name.lower() in ("tabitem", "tab"):
        return next(value for value in label.groups() if value is not None)
    if name.lower() in _NAMED:
        return " ".join(_CAMEL.split(name)).title() + ":"
    return ""


def _marker_words(marker: re.Match[str]) -> str:
    indent = marker.group(1)
    if marker.re is _TAB:
        return indent + marker.group(2)
    kind, title = marker.group(2), marker.group(3)
    if title is not None:
        return f"{indent}{title}:" if title.strip() else ""
    return f"{indent}{kind.capitalize()}:"


def _dedent_block(lines: list[str], index: int, indent: int) -> None:
    """The lines indented under the marker at `index` moved 4 spaces left."""
    for later in range(index + 1, len(lines)):
        line = lines[later]
        if not line.strip():
            continue
        if len(line) - len(line.lstrip(" ")) < indent + 4:
            return
        lines[later] = line[4:]


def _without_jsx_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    if in_comment:
        end = line.find("*/}")
        if end < 0:
            return "", True
        line = line[end + 3 :]
    line = _JSX_COMMENT.sub("", line)
    start = line.find("{/*")
    if start >= 0:
        return line[:start].rstrip(), True
    return line, False


def _statement_end(lines: list[str], index: int) -> int:
    """The index after an `export` statement: where its brackets close."""
    depth = 0
    for later in range(index, len(lines)):
        for char in lines[later]:
            if char in "{([":
                depth += 1
            elif char in "})]":
                depth -= 1
        if depth <= 0:
            return later + 1
    return len(lines)
