"""The evidence panel: the passages behind the latest outcome, as rendered Markdown.

For an answer it holds a list: the cited passages first, then the other passages the
outcome was built from (sent to the model, or retrieval's next candidates), stepped
through with `[` and `]`. Each shows a header (where it stands in the list, its title
path, its id and `source_path:line–end_line` on one line each, shortened from the
left, and why it was chosen) above its text, with the question's words highlighted
and quoted lines set apart. A `no_evidence` refusal shows its closest passages as a
list, "not an answer"; enter opens one below it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_assistant.core.documents.passage import Passage, line_range
from tui_assistant.core.outcome import Outcome, Quote, Reason
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.core.words import WORD, content_words, stem
from tui_assistant.ui.keys import (
    FOCUS_LIBRARY,
    NEXT_PASSAGE,
    PREVIOUS_PASSAGE,
    arrow_keys,
    key_name,
)
from tui_assistant.ui.markdown_view import MarkdownView, highlight_spans
from tui_assistant.ui.untrusted_text import literal, one_line, readable_source
from tui_assistant.ui.whole_words import WholeItems, id_item

HINT = (
    "No evidence for the last outcome. Ask a question, or pick a passage with "
    f"{key_name(FOCUS_LIBRARY.key)}."
)
# How to open one of a refusal's listed passages.
OPEN_LISTED = f"{key_name(NEXT_PASSAGE.key)}, then up/down and enter open one"
NEAREST_TITLE = "not an answer: closest passages"
CANDIDATES_TITLE = "not sure: one of these candidates may answer it"


def location_suffix(passage: Passage) -> str:
    return ":" + line_range(passage.line, passage.end_line)


def question_words(
    question: str, matched_keys: Collection[str], key: KeyFunction = stem
) -> list[str]:
    """The question's own words (as typed, first spelling of each) whose retrieval key is
    one of `matched_keys`: `scopes` and `packages`, not the stems `scop` and `packag`."""
    keys = set(matched_keys)
    shown: dict[str, str] = {}
    for match in WORD.finditer(one_line(question)):
        for word in content_words(match.group()):
            found = key(word)
            if found in keys and found not in shown:
                shown[found] = match.group()
    return list(shown.values())


def quoted_lines(passage: Passage, quotes: Iterable[Quote]) -> list[tuple[int, int]]:
    """The quotes of `passage` as 0-based, inclusive line ranges of its text.

    A passage's text ends on its `end_line` (its first line may be a heading the text
    leaves out), so text line `i` is file line `end_line - (lines - 1) + i`.
    """
    first = passage.end_line - passage.text.count("\n")
    return [
        (quote.line - first, quote.end_line - first)
        for quote in quotes
        if quote.passage_id == passage.id
    ]


def location_items(passage: Passage) -> WholeItems:
    """`path:line–end_line` on one line, the path shortened from the left to fit."""
    return WholeItems([(one_line(passage.source_path), location_suffix(passage))])


class EvidencePanel(VerticalScroll):
    DEFAULT_CSS = """
    EvidencePanel {
        border: round $secondary;
        border-title-color: $text-secondary;
        padding: 0 1;
    }
    EvidencePanel:focus-within { border: round $accent; }
    EvidencePanel #evidence-notice { color: $text-warning; text-style: bold; }
    EvidencePanel #evidence-why { color: $text-muted; }
    EvidencePanel #evidence-nearest { height: auto; max-height: 9; margin-bottom: 1; }
    EvidencePanel #evidence-step { color: $text-secondary; text-style: bold; }
    EvidencePanel #evidence-title { text-style: bold; color: $text-accent; }
    EvidencePanel #evidence-meta, EvidencePanel #evidence-location {
        color: $text-muted;
        height: 1;
    }
    EvidencePanel #evidence-details { color: $text-muted; }
    EvidencePanel #evidence-body { margin-top: 1; }
    EvidencePanel #evidence-hint { color: $text-muted; text-style: italic; }
    EvidencePanel > * { display: none; }
    EvidencePanel.-empty #evidence-hint { display: block; }
    EvidencePanel.-nearest #evidence-notice, EvidencePanel.-nearest #evidence-why,
    EvidencePanel.-nearest #evidence-nearest { display: block; }
    EvidencePanel.-passage #evidence-title, EvidencePanel.-passage #evidence-meta,
    EvidencePanel.-passage #evidence-location, EvidencePanel.-passage #evidence-body,
    EvidencePanel.-passage.-several #evidence-step,
    EvidencePanel.-passage.-details #evidence-details { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "step(-1)", "Previous passage", id="evidence.previous"),
        Binding("right_square_bracket", "step(1)", "Next passage", id="evidence.next"),
    ]

    def __init__(self) -> None:
        super().__init__(id="evidence", classes="-empty")
        self.border_title = "Evidence"
        self.passages: tuple[Passage, ...] = ()
        self.position = 0  # index into `passages` of the one on screen
        self.nearest: tuple[Passage, ...] = ()
        # What the listed passages are: an ambiguous refusal's candidates, else closest.
        self._listed_as = "closest"
        self._roles: tuple[str, ...] = ()
        self._quotes: tuple[Quote, ...] = ()
        self._matched_keys: tuple[str, ...] = ()
        self._details: dict[str, str] = {}  # passage id -> why it was chosen
        self._source = ""  # what the list is: an answer's evidence, browsing

    def compose(self) -> ComposeResult:
        yield Static(Content(NEAREST_TITLE), id="evidence-notice")
        yield Static(id="evidence-why", markup=False)
        yield OptionList(id="evidence-nearest")
        yield Static(id="evidence-step", markup=False)
        yield Static(id="evidence-title", markup=False)
        yield Static(id="evidence-meta", markup=False)
        yield Static(id="evidence-location", markup=False)
        yield Static(id="evidence-details", markup=False)
        yield MarkdownView(id="evidence-body")
        yield Static(Content(HINT), id="evidence-hint")

    # -- what the app calls ---------------------------------------------------

    @property
    def passage(self) -> Passage | None:
        """The passage on screen (`ctrl+o` opens it), or None."""
        return self.passages[self.position] if self.passages else None

    @property
    def body(self) -> MarkdownView:
        return self.query_one("#evidence-body", MarkdownView)

    def show_outcome(self, outcome: Outcome) -> None:
        """The passages behind an outcome: the cited ones first, then the others it was
        built from; or a refusal's closest passages (an `ambiguous` one's candidates)."""
        if outcome.reason in (Reason.NO_EVIDENCE, Reason.AMBIGUOUS) and outcome.nearest:
            if outcome.reason is Reason.AMBIGUOUS:
                # The title says why: on a small screen the list needs the room.
                self._show_nearest(outcome.nearest, None, CANDIDATES_TITLE)
            else:
                self._show_nearest(outcome.nearest, outcome.detail, NEAREST_TITLE)
            return
        evidence = outcome.evidence
        if evidence is None and not outcome.passages:
            self.show_hint()
            return
        cited = set(outcome.citations) if outcome.answered else set()
        others = (*outcome.passages, *(evidence.passages if evidence else ()))
        by_id = {passage.id: passage for passage in others}
        ordered = [by_id[id_] for id_ in outcome.citations if id_ in by_id and id_ in cited]
        ordered += [passage for passage in others if passage.id not in cited]
        passages = tuple({passage.id: passage for passage in ordered}.values())
        roles = tuple(
            "cited" if passage.id in cited else ("not cited" if outcome.answered else "candidate")
            for passage in passages
        )
        self._show_list(passages, roles, evidence, outcome.question, outcome.quotes, "answer")

    def show_evidence(self, evidence: Evidence, question: str | None = None) -> None:
        """The passages retrieval chose for a question, before its outcome is known."""
        roles = ("chosen", *("candidate" for _ in evidence.passages[1:]))
        self._show_list(evidence.passages, roles, evidence, question, (), "answer evidence")

    def show_passage(self, passage: Passage) -> None:
        """A passage the user picked in the browser (no question, so nothing highlighted)."""
        self._show_list((passage,), ("",), None, None, (), "browsing")

    def show_hint(self) -> None:
        self._reset()
        self.body.show("")
        self.add_class("-empty")
        self.border_subtitle = ""
        self.refresh_bindings()

    def step(self, by: int) -> None:
        """Show the next (`by=1`) or previous (`by=-1`) passage of the list."""
        if len(self.passages) > 1:
            self.position = (self.position + by) % len(self.passages)
            self._render_passage()

    # -- keys -----------------------------------------------------------------

    def action_step(self, by: int) -> None:
        self.step(by)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            return len(self.passages) > 1 and not self.has_class("-nearest")
        return True

    @on(OptionList.OptionSelected, "#evidence-nearest")
    def _open_nearest(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.passages = self.nearest
        self.position = event.option_index
        self._roles = ("not an answer",) * len(self.nearest)
        self.add_class("-passage")
        self._render_passage()

    # -- drawing --------------------------------------------------------------

    def _reset(self) -> None:
        self.passages = ()
        self.position = 0
        self.nearest = ()
        self._listed_as = "closest"
        self._roles = ()
        self._quotes = ()
        self._matched_keys = ()
        self._details = {}
        self.remove_class("-empty", "-nearest", "-passage", "-several", "-details")
        self.query_one("#evidence-nearest", OptionList).clear_options()

    def _show_list(
        self,
        passages: tuple[Passage, ...],
        roles: tuple[str, ...],
        evidence: Evidence | None,
        question: str | None,
        quotes: Sequence[Quote],
        source: str,
    ) -> None:
        self._reset()
        self.passages, self._roles, self._quotes = passages, roles, tuple(quotes)
        if evidence is not None:
            self._matched_keys = evidence.matched_words
            self._details = {evidence.passage.id: score_text(evidence)}
            for passage in passages:
                # Each passage names the question's words it holds itself.
                held = f"{passage.title}\n{passage.text}"
                keys = [key for key in evidence.matched_words if highlight_spans(held, [key])]
                words = question_words(question, keys) if question else keys
                if words:
                    self._details[passage.id] = " · ".join(
                        filter(
                            None,
                            [self._details.get(passage.id, ""), "matched: " + ", ".join(words)],
                        )
                    )
        self.add_class("-passage")
        self._source = self.border_subtitle = source
        self._render_passage()
        self.refresh_bindings()

    def _show_nearest(
        self, nearest: tuple[Passage, ...], why: str | None, title: str = NEAREST_TITLE
    ) -> None:
        self._reset()
        self.nearest = nearest
        self._listed_as = "candidate" if title == CANDIDATES_TITLE else "closest"
        self.query_one("#evidence-notice", Static).update(Content(title))
        self.body.show("")
        self.add_class("-nearest")
        self.border_subtitle = "refused"
        hint = f"{why}; {OPEN_LISTED}" if why else OPEN_LISTED
        self.query_one("#evidence-why", Static).update(literal(hint))
        options = self.query_one("#evidence-nearest", OptionList)
        options.add_options(
            Option(
                WholeItems(
                    [(one_line(passage.source_path), location_suffix(passage))],
                    head=passage.title,
                    head_style="bold",
                )
            )
            for passage in nearest
        )
        options.highlighted = 0
        self.scroll_home(animate=False)
        self.refresh_bindings()

    def _render_passage(self) -> None:
        passage = self.passage
        if passage is None:
            return
        count = len(self.passages)
        role = self._roles[self.position] if self._roles else ""
        step = f"{self._listed_as + ' ' if self.nearest else ''}{self.position + 1}/{count}"
        self.query_one("#evidence-step", Static).update(
            literal(" · ".join(filter(None, [step, role])))
        )
        self.set_class(count > 1 or bool(self.nearest), "-several")
        if count > 1 and not self.nearest:
            steps = arrow_keys(NEXT_PASSAGE, PREVIOUS_PASSAGE)
            self.border_subtitle = f"{self._source} · {steps} to step"
        self.query_one("#evidence-title", Static).update(literal(one_line(passage.title)))
        # Shortened to fit when long: the tooltips hold them in full.
        for selector, items in (
            ("#evidence-meta", WholeItems([id_item(passage.id)])),
            ("#evidence-location", location_items(passage)),
        ):
            line = self.query_one(selector, Static)
            line.update(items)
            line.tooltip = Content(str(items))
        details = self._details.get(passage.id, "")
        self.query_one("#evidence-details", Static).update(literal(details))
        self.set_class(bool(details), "-details")
        text = readable_source(passage.text, passage.source_path)
        self.body.show(text, self._matched_keys, quoted_lines(passage, self._quotes))
        if not self.nearest:
            self.scroll_home(animate=False)


def score_text(evidence: Evidence) -> str:
    """Why the chosen passage won, in figures a reader can compare.

    In hybrid the order is the fused ranking of words and meaning while the score is
    the cosine similarity, so the next passage's cosine can be the higher one: it is
    not shown. In the lexical modes the order is the score's, best first, so the next
    passage's score is shown beside it."""
    sure = "" if evidence.confidence is None else f"; confidence {evidence.confidence:.2f}"
    if evidence.model_picks:
        return f"a candidate the model cited{sure}"
    if evidence.mode == "hybrid":
        return f"best match of words and meaning (cosine {evidence.score:.2f}{sure})"
    name = "BM25" if evidence.mode == "ranked" else "score"
    text = f"best match ({name} {_figure(evidence.score)}"
    if evidence.runner_up_score is not None:
        text += f", next {_figure(evidence.runner_up_score)}"
    return text + sure + ")"


def _figure(score: float) -> str:
    return f"{score:g}" if float(score).is_integer() else f"{score:.2f}"
