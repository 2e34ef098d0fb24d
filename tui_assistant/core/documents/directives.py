"""The directives that read other files, as a document's splitter notes them: includes
(`include`, `literalinclude`), autodoc (`automodule`, `autofunction`...) and the ones
that name the module of those after them (`currentmodule`). `inclusion.resolve` reads
what they name; the format readers only find them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

AUTODOC = frozenset(
    {
        "automodule", "autoclass", "autofunction", "automethod", "autoexception",
        "autodata", "autoattribute", "autoproperty", "autodecorator",
    }
)  # fmt: skip
MODULE_SETTERS = frozenset({"currentmodule", "module"})
INCLUDES = frozenset({"include", "literalinclude"})
_RST_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(?:py:)?([\w-]+)::\s*(.*?)\s*$")
_RST_OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*?)\s*$")


@dataclass(frozen=True, slots=True)
class Pending:
    """A directive that reads another file, as the document writes it."""

    directive: str  # `include`, `literalinclude`, `autofunction`, `currentmodule`...
    argument: str  # a path, or a dotted name
    options: Mapping[str, str]
    line: int  # the directive's 1-based line in the document


def is_inserting(name: str) -> bool:
    """Whether directive `name` reads another file, or names the module of those that do."""
    return name in INCLUDES or name in AUTODOC or name in MODULE_SETTERS


def rst_pending(lines: list[str], first_line: int = 1) -> list[Pending]:
    """The directives of reStructuredText `lines` that read other files (`first_line`
    is the file line of `lines[0]`)."""
    found: list[Pending] = []
    for index, line in enumerate(lines):
        directive = _RST_DIRECTIVE.match(line)
        if directive is None or not is_inserting(directive.group(2).lower()):
            continue
        options: dict[str, str] = {}
        for later in lines[index + 1 :]:
            option = _RST_OPTION.match(later)
            if option is None:
                break
            options[option.group(1)] = option.group(2)
        name = directive.group(2).lower()
        found.append(Pending(name, directive.group(3), options, first_line + index))
    return found
