"""A numbered list of passages to choose from: an unsure question's possible passages,
or a refusal's closest passages.

Each entry is laid out at the width it is drawn at: its number and title path on the
first line (when it is too long, the headings between the document's name and the
last heading give way first: both say most), then `file:lines` (shortened from the
left) and the sentence that best matches the question, cut to the line. The digit
keys open an entry directly.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui_assistant.core.display_text import ELLIPSIS, one_line
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.retrieval.types import NEAREST_SHOWN
from tui_assistant.ui.widgets.evidence_view import location_suffix
from tui_assistant.ui.widgets.untrusted_text import cut_right, shorten_left
from tui_assistant.ui.widgets.whole_words import LaidOutAtWidth

TITLE_SEPARATOR = " \u203a "
# A title keeps at least this much of its last heading beside the document's name.
MIN_HEADING_CELLS = 8
# Below this many cells beside the location, the sentence is left out.
MIN_SENTENCE_CELLS = 12
_INDENT = "   "
_OPEN_GROUP = Binding.Group("Open")


def fit_title(title: str, width: int) -> str:
    """A title path in at most `width` cells, its document's name kept: whole when it
    fits, else its middle headings given up from the first (`Commands › … › Command
    Chaining`, `Commands › Command Chaining`), else its last heading cut at the end
    (`Commands › Command Ch…`); a document name that leaves its last heading no room
    is cut to make it some (`git-commit(1) — Rec… › -C <commit>, --reuse…`)."""
    title = one_line(title)
    if cell_len(title) <= width:
        return title
    parts = title.split(TITLE_SEPARATOR)
    document, last = parts[0], parts[-1]
    if len(parts) == 1:
        return cut_right(title, width)
    gap = TITLE_SEPARATOR + ELLIPSIS + TITLE_SEPARATOR
    for start in range(2, len(parts)):
        shorter = document + gap + TITLE_SEPARATOR.join(parts[start:])
        if cell_len(shorter) <= width:
            return shorter
    # No room for the `…`: the document and its last heading, as much of it as fits.
    kept = document + TITLE_SEPARATOR
    if cell_len(kept) + MIN_HEADING_CELLS <= width or cell_len(kept + last) <= width:
        return kept + cut_right(last, width - cell_len(kept))
    # A document name too long to leave the last heading room (a manual page's
    # `git-commit(1) — Record changes to the repository`) gives way to it, down to a
    # third of the line; on a line too narrow for both, the document name is cut.
    room = max(width // 3, width - cell_len(TITLE_SEPARATOR + last))
    if width // 3 >= MIN_HEADING_CELLS and room < cell_len(document):
        shortened = cut_right(document, room) + TITLE_SEPARATOR
        return shortened + cut_right(last, width - cell_len(shortened))
    return cut_right(title, width)


class CandidateEntry(LaidOutAtWidth):
    """One listed passage: `number title`, then `file:lines  best sentence`."""

    def __init__(self, number: int, passage: Passage, sentence: str) -> None:
        self.number = number
        self.title = one_line(passage.title)
        self.path = one_line(passage.source_path)
        self.lines_suffix = location_suffix(passage)
        self.sentence = one_line(sentence)

    def __str__(self) -> str:
        """In full, on two lines (what a tooltip or a log shows)."""
        return (
            f"{self.number} {self.title}\n"
            f"{_INDENT}{self.path}{self.lines_suffix}  {self.sentence}".rstrip()
        )

    def content(self, width: int) -> Content:
        # Never markup: every part is literal text.
        width = max(width, len(_INDENT) + 2)
        room = width - len(_INDENT)
        head = Content.assemble(
            (f"{self.number:<{len(_INDENT)}}", "bold"),
            (fit_title(self.title, room), "bold"),
        )
        # With a sentence beside it, the path gives up its folders (the file and its
        # lines say the most), down to half the line or to `first/…/file:lines` (the
        # first folder tells two versions of one library apart).
        first, _, rest = self.path.partition("/")
        file_name = rest.rpartition("/")[2]
        shortest = f"{first}/{ELLIPSIS}/{file_name}" if "/" in rest else self.path
        kept = max(room // 2, cell_len(f"{shortest}{self.lines_suffix}"))
        where = shorten_left(
            self.path, self.lines_suffix, min(kept, room) if self.sentence else room
        )
        beside = room - cell_len(where) - 2
        second = Content.assemble(_INDENT, (where, "dim"))
        if self.sentence and beside >= MIN_SENTENCE_CELLS:
            second = Content.assemble(second, "  ", (cut_right(self.sentence, beside), "italic"))
        return Content("\n").join([head, second])


class CandidateList(OptionList):
    """Passages to choose from, numbered; `1`–`5` open one, as up/down and enter do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            str(number),
            f"open({number})",
            str(number),
            tooltip=f"open listed passage {number}",
            group=_OPEN_GROUP,
            id=f"candidates.open-{number}",
        )
        for number in range(1, NEAREST_SHOWN + 1)
    ]

    def show(self, passages: tuple[Passage, ...], sentences: tuple[str, ...]) -> None:
        """List `passages`, each with its best-matching sentence; the first highlighted."""
        self.clear_options()
        self.add_options(
            Option(CandidateEntry(number, passage, sentence))
            for number, (passage, sentence) in enumerate(
                zip(passages, sentences, strict=True), start=1
            )
        )
        self.highlighted = 0 if passages else None

    def action_open(self, number: int) -> None:
        """Open entry `number` (1-based), as enter on it does."""
        if number <= self.option_count:
            self.highlighted = number - 1
            self.action_select()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open":
            (number,) = parameters
            return isinstance(number, int) and number <= self.option_count
        return True
