"""What the answer checks compare: the one quote grammar of answers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# The one quote grammar of answers (the quote check and the support check): text on one
# line between straight double quotes `"..."`, curly double quotes `“...”` or guillemets
# `«...»`. Single quotes, straight or curly, are left out: they are far more often
# apostrophes. Backticks mark code, not quotation.
_QUOTED = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|«([^»\n]+)»')


@dataclass(frozen=True, slots=True)
class Quoted:
    """One quoted string of a text: where it stands (its marks included) and its words."""

    start: int
    end: int
    inner: str


def quoted_strings(text: str) -> Iterator[Quoted]:
    """The quoted strings of `text`, in order, by the one quote grammar above."""
    for match in _QUOTED.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        yield Quoted(match.start(), match.end(), inner)
