"""The evidence panel: the passage behind the latest answer, matched words highlighted.

It shows the passage's title path, its id and where it is (`source_path:line`, an en
dash, `end_line`), then its text.
"""

from __future__ import annotations

from collections.abc import Collection

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from tui_assistant.core.passages import Passage
from tui_assistant.core.retrieval import Evidence
from tui_assistant.core.text import WORD, clean_display_text, normalise
from tui_assistant.ui.literal import literal, one_line

HINT = "No evidence for the last outcome. Ask a question, or pick a passage with ctrl+l."
HIGHLIGHT_STYLE = "bold reverse"

# Same word shape as core.text.words (letters and digits, inner apostrophes), but with
# positions, so each word can be checked and highlighted in place.


def highlight_spans(text: str, matched_keys: Collection[str]) -> list[tuple[int, int]]:
    """Where in `text` the words whose normalised key is one of `matched_keys` are.

    A word matches when `normalise` of that single word gives a matched key, so
    `boiling` is highlighted for the key `boil` while `basalt` never is for `salt`.
    """
    keys = set(matched_keys)
    if not keys:
        return []
    return [
        (match.start(), match.end())
        for match in WORD.finditer(text)
        if any(key in keys for key in normalise(match.group()))
    ]


def highlighted(text: str, matched_keys: Collection[str]) -> Content:
    """Cleaned `text` as literal Content with its matched words highlighted."""
    clean = clean_display_text(text)
    content = Content(clean)
    for start, end in highlight_spans(clean, matched_keys):
        content = content.stylize(HIGHLIGHT_STYLE, start, end)
    return content


def location(passage: Passage) -> str:
    """`source_path:line`, an en dash and `end_line`, on one line."""
    return f"{one_line(passage.source_path)}:{passage.line}\u2013{passage.end_line}"


class EvidencePanel(VerticalScroll):
    DEFAULT_CSS = """
    EvidencePanel {
        border: round $secondary;
        border-title-color: $text-secondary;
        padding: 0 1;
    }
    EvidencePanel:focus-within { border: round $accent; }
    EvidencePanel #evidence-title { text-style: bold; color: $text-accent; }
    EvidencePanel #evidence-meta { color: $text-muted; margin-bottom: 1; }
    EvidencePanel.-empty #evidence-body { color: $text-muted; text-style: italic; }
    EvidencePanel.-empty #evidence-title, EvidencePanel.-empty #evidence-meta { display: none; }
    """

    def __init__(self) -> None:
        super().__init__(id="evidence", classes="-empty")
        self.border_title = "Evidence"
        self.passage: Passage | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="evidence-title")
        yield Static(id="evidence-meta")
        yield Static(Content(HINT), id="evidence-body")

    def show_evidence(self, evidence: Evidence) -> None:
        """The passage retrieval chose for a question, with why it won."""
        score = f"score {evidence.score:g}"
        if evidence.runner_up_score is not None:
            score += f" (runner-up {evidence.runner_up_score:g})"
        matched = ", ".join(evidence.matched_words)
        self._show(
            evidence.passage,
            extra=[score, f"matched: {matched}"] if matched else [score],
            matched_keys=evidence.matched_words,
            source="answer evidence",
        )

    def show_passage(self, passage: Passage) -> None:
        """A passage the user picked in the browser (no question, so nothing highlighted)."""
        self._show(passage, extra=[], matched_keys=(), source="browsing")

    def show_hint(self) -> None:
        self.passage = None
        self.add_class("-empty")
        self.border_subtitle = ""
        self.query_one("#evidence-title", Static).update("")
        self.query_one("#evidence-meta", Static).update("")
        self.query_one("#evidence-body", Static).update(Content(HINT))

    def _show(
        self, passage: Passage, extra: list[str], matched_keys: Collection[str], source: str
    ) -> None:
        self.passage = passage
        self.remove_class("-empty")
        self.border_subtitle = source
        meta = "\n".join([one_line(passage.id), location(passage), *extra])
        self.query_one("#evidence-title", Static).update(literal(one_line(passage.title)))
        self.query_one("#evidence-meta", Static).update(literal(meta))
        self.query_one("#evidence-body", Static).update(highlighted(passage.text, matched_keys))
        self.scroll_home(animate=False)
