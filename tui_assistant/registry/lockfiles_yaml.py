"""The part of YAML that `pnpm-lock.yaml` and a yarn berry `yarn.lock` are written in.

Pure. Block mappings nested by indentation, keys plain or quoted (`'@types/node':`,
`"lodash@npm:^4.17.21":`), values plain or quoted scalars (kept as text, never typed).
Sequences, block scalars (`|`, `>`) and everything nested under them are skipped;
flow collections (`{integrity: ...}`) are kept as their text. That is all the lock
files' readers need, without a YAML library among the app's dependencies.
"""

from __future__ import annotations

import json
from typing import Any

from tui_assistant.errors import YamlSubsetError


def parse_mapping(text: str) -> dict[str, Any]:
    """`text` as nested dicts of str; raises YamlSubsetError naming the first line that
    is not a mapping entry."""
    root: dict[str, Any] = {}
    # Open mappings, innermost last, each with the indentation of its entries' parent.
    stack: list[tuple[int, dict[str, Any]]] = [(-1, root)]
    skip_deeper_than: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if skip_deeper_than is not None:
            if indent > skip_deeper_than:
                continue
            skip_deeper_than = None
        if stripped == "-" or stripped.startswith("- "):
            skip_deeper_than = indent  # a sequence item and what it holds
            continue
        while indent <= stack[-1][0]:
            stack.pop()
        key, value = _entry(stripped, number)
        parent = stack[-1][1]
        if value is None:
            child: dict[str, Any] = {}
            parent[key] = child
            stack.append((indent, child))
        elif value in ("|", ">", "|-", ">-", "|+", ">+"):
            parent[key] = ""
            skip_deeper_than = indent
        else:
            parent[key] = value
    return root


def _entry(line: str, number: int) -> tuple[str, str | None]:
    """`key: value` as (key, value); `key:` as (key, None)."""
    if line[0] in "'\"":
        end = _closing_quote(line)
        if end < 0 or not line[end + 1 :].lstrip().startswith(":"):
            raise YamlSubsetError(f"line {number} is not a `key: value` entry")
        key = _unquote(line[: end + 1])
        rest = line[end + 1 :].lstrip()[1:]
    else:
        colon = line.find(": ")
        if colon < 0:
            if not line.endswith(":"):
                raise YamlSubsetError(f"line {number} is not a `key: value` entry")
            colon = len(line) - 1
        key, rest = line[:colon].strip(), line[colon + 1 :]
    value = rest.strip()
    if not value or value.startswith("#"):
        return key, None
    if value[0] in "'\"":
        return key, _unquote(value[: _closing_quote(value) + 1] or value)
    return key, value.split(" #", 1)[0].strip()


def _closing_quote(text: str) -> int:
    """Where the quoted scalar at the start of `text` ends; -1 when it does not."""
    quote, index = text[0], 1
    while index < len(text):
        if quote == '"' and text[index] == "\\":
            index += 2
            continue
        if text[index] == quote:
            if quote == "'" and text[index + 1 : index + 2] == "'":
                index += 2  # '' is one quote inside single quotes
                continue
            return index
        index += 1
    return -1


def _unquote(text: str) -> str:
    if len(text) < 2 or text[-1] != text[0]:
        return text
    if text[0] == "'":
        return text[1:-1].replace("''", "'")
    try:
        value = json.loads(text)
    except ValueError:
        return text[1:-1]
    return value if isinstance(value, str) else text[1:-1]
