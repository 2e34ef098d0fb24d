"""Paths and ids laid out at the width they are drawn at, never broken mid-word.

Textual wraps a long word by cutting it anywhere (`…/trust_` then `signer_remove.md`),
which makes a path or an id unreadable and a line range look like two numbers.
`WholeItems` is a Visual (for a `Static`, or an `OptionList` prompt) that lays its
items out at the width it is given each time it is drawn: each item stays whole on
one line, and one wider than a line is shortened from the left with `…` (the end of
a path, the file and its line range, says the most). `WholeWords` wraps a line of
words at spaces, and a URL wider than a line after its `/` (never inside a name).
`LaidOutAtWidth` is what they share with the candidate list's entries: a Visual drawn
from `content(width)`.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Sequence

from rich.cells import cell_len
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.ui.widgets.untrusted_text import cut_right, flow_items, split_location

# Where a word wider than a line may break: after a URL's or a path's separators.
_BREAKABLE = re.compile(r"[^/?&#]*[/?&#]+|[^/?&#]+")


def location_item(location: str) -> tuple[str, str]:
    """A `path:line–end` as an item whose path alone may be shortened."""
    return split_location(one_line(clean_display_text(location)))


def id_item(text: str) -> tuple[str, str]:
    """An id (or any word) as an item, shortened from the left when too wide."""
    return one_line(clean_display_text(text)), ""


class LaidOutAtWidth(Visual):
    """A Visual whose `content` is laid out anew for the width it is drawn at; `str()`
    is the text unshortened, one line of it per drawn line."""

    @abstractmethod
    def content(self, width: int) -> Content:
        """The text laid out `width` cells wide."""

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.content(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        widest = max((cell_len(line) for line in str(self).split("\n")), default=0)
        return min(widest, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.content(width).get_height(rules, width)


class WholeItems(LaidOutAtWidth):
    """`label` then `items`, each `(path, suffix)`, separated by `separator`; an
    optional `head` (wrapped as usual, in `head_style`) on the lines above."""

    def __init__(
        self,
        items: Sequence[tuple[str, str]],
        label: str = "",
        *,
        separator: str = ", ",
        head: str = "",
        head_style: str = "",
    ) -> None:
        self.items = tuple(items)
        self.label = label
        self.separator = separator
        self.head = one_line(clean_display_text(head))
        self.head_style = head_style

    def __str__(self) -> str:
        """The text unshortened, on one line (what a tooltip or a log shows)."""
        text = self.label + self.separator.join(path + suffix for path, suffix in self.items)
        return f"{self.head}\n{text}" if self.head else text

    def lines(self, width: int) -> list[str]:
        """The item lines as drawn `width` cells wide (the head not included)."""
        return flow_items(self.label, self.items, max(width, 1), self.separator)

    def content(self, width: int) -> Content:
        # Never markup: every part is literal text.
        body = Content("\n".join(self.lines(width)))
        if not self.head:
            return body
        return Content.assemble(Content(self.head).stylize(self.head_style), "\n", body)


def whole_word_lines(text: str, width: int) -> list[str]:
    """`text` on lines of at most `width` cells, broken at spaces; a word wider than a
    line (a URL) breaks after its separators (`https://host/` then `en/api.html`), and a
    part still wider than a line, alone, is cut at its end with `…`."""
    width = max(width, 1)
    lines: list[str] = []
    line = ""
    for word in text.split():
        parts = [word] if cell_len(word) <= width else _BREAKABLE.findall(word)
        for number, part in enumerate(parts):
            joint = " " if line and number == 0 else ""
            if cell_len(line + joint + part) <= width:
                line += joint + part
            else:
                if line:
                    lines.append(line)
                line = cut_right(part, width)
    return [*lines, line] if line or not lines else lines


class WholeWords(LaidOutAtWidth):
    """One line of untrusted text, wrapped at the width it is drawn at (`whole_word_lines`),
    shown literally."""

    def __init__(self, text: str) -> None:
        self.text = one_line(clean_display_text(text))

    def __str__(self) -> str:
        return self.text

    def content(self, width: int) -> Content:
        # Never markup: a name or URL holding `[bold]` shows as written.
        return Content("\n".join(whole_word_lines(self.text, width)))
