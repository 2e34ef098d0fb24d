"""A manual page's troff source as the lines `man` acts on, one for each line of the file.

What changes nothing on a terminal is read here and left out: comments, macro
definitions (`.de` … `..`) and ignored blocks (`.ig`), string definitions (`.ds`, kept
for `\\*(xx`), and the branches of `.if`/`.ie`/`.el` a terminal does not take (a `\\{`
block to its `\\}`). A line that ends in `\\c` continues on the next text line. Every
other line is a request with its rendered arguments, or text as shown (`man_text`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tui_assistant.core.documents.man_text import arguments, condition, render

_CONTROL = re.compile(r"[.'][ \t]*([^ \t\\]*)[ \t]*(.*)$", re.DOTALL)
_COMMENT = ('.\\"', "'\\\"", '\\"', ".\\#", "'\\#", "\\#")
_DEFINITIONS = frozenset({"de", "de1", "dei", "am", "am1", "ami", "ig"})
_STRINGS = frozenset({"ds", "ds1", "as", "as1"})


@dataclass(frozen=True, slots=True)
class TroffLine:
    """One line of the file: a request (`name` and rendered `arguments`), text as shown
    (`name` None), or nothing shown (`name` "")."""

    number: int
    name: str | None
    arguments: tuple[str, ...] = ()
    text: str = ""


class TroffReader:
    """Reads a page's lines in order, keeping what earlier lines defined."""

    def __init__(self) -> None:
        self.strings: dict[str, str] = {}
        self._definition_end: str | None = None  # the line ending a skipped definition
        self._skipping = 0  # open `\{` blocks of a branch not taken
        self._conditions: list[bool] = []  # `.ie` results an `.el` has yet to answer
        self._joined = ""  # text a `\c` carries onto the next text line

    def lines(self, lines: list[str]) -> Iterator[TroffLine]:
        for number, line in enumerate(lines, start=1):
            yield self.line(number, line)

    def line(self, number: int, line: str) -> TroffLine:
        nothing = TroffLine(number, "")
        if self._definition_end is not None:
            ending = _CONTROL.match(line) if line[:1] in (".", "'") else None
            if ending is not None and ending.group(1) == self._definition_end:
                self._definition_end = None
            return nothing
        if self._skipping:
            self._skipping += line.count("\\{") - line.count("\\}")
            self._skipping = max(self._skipping, 0)
            return nothing
        if "\\}" in line:
            line = line.replace("\\}", "")  # the end of a branch taken
            if line.strip() in ("", ".", "'"):
                return nothing
        if line.startswith(_COMMENT):
            return nothing
        control = _CONTROL.match(line) if line[:1] in (".", "'") else None
        if control is None:
            return self._text(number, line)
        name, rest = control.groups()
        if name in ("if", "ie"):
            holds, body = condition(rest, self.strings)
            if name == "ie":
                self._conditions.append(holds)
            return self._branch(number, holds, body)
        if name == "el":
            holds = not self._conditions.pop() if self._conditions else False
            return self._branch(number, holds, rest)
        if name in _DEFINITIONS:
            given = arguments(rest)
            end = given[0] if name == "ig" and given else (given[1] if len(given) > 1 else "")
            self._definition_end = end or "."  # `..` (or `.  .`) ends it
            return nothing
        if name in _STRINGS:
            self._define(name, rest)
            return nothing
        return TroffLine(number, name, tuple(render(a, self.strings) for a in arguments(rest)))

    def _branch(self, number: int, holds: bool, body: str) -> TroffLine:
        block = body.startswith("\\{")
        if block:
            body = body[2:]
        if not holds:
            if block:
                self._skipping = max(1 + body.count("\\{") - body.count("\\}"), 0)
            return TroffLine(number, "")
        body = body.strip()
        if body in ("", "\\"):
            return TroffLine(number, "")
        return self.line(number, body)

    def _define(self, name: str, rest: str) -> None:
        parts = rest.split(None, 1)
        if not parts:
            return
        value = parts[1].removeprefix('"') if len(parts) > 1 else ""
        if name.startswith("as"):
            value = self.strings.get(parts[0], "") + value
        self.strings[parts[0]] = value

    def _text(self, number: int, line: str) -> TroffLine:
        shown = render(line, self.strings)
        if self._joined:
            joined, self._joined = self._joined, ""
            glue = "" if joined[-1:].isalnum() else " "
            shown = joined.rstrip() + glue + shown.lstrip()
        if line.rstrip().endswith("\\c") and not line.rstrip().endswith("\\\\c"):
            self._joined = shown
            return TroffLine(number, "")
        return TroffLine(number, None, text=shown)
