"""The evidence panel: the passages behind the latest outcome, as rendered Markdown.

For an answer it holds a list: the cited passages first, then the other passages the
outcome was built from (sent to the model, or retrieval's next candidates), stepped
through with `[` and `]`. Each shows a header (where it stands in the list, its title
path, its id and `source_path:line–end_line` on one line each, shortened from the
left, where a fetched library's passage comes from, and why it was chosen) above its
text, with the question's words highlighted, the sentences that best match them
underlined and scrolled into view, and quoted lines set apart.

An unsure question (`ambiguous`) lists its possible passages, numbered, best first,
with the best one's text open below the list at once; moving in the list opens the
others. A `no_evidence` refusal lists its closest passages, "not an answer", none
open until one is chosen.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import var
from textual.widgets import OptionList, Static

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.excerpt import passage_excerpt
from tui_assistant.core.outcome import Outcome, Quote, Reason
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.core.words import normalise_distinct
from tui_assistant.ui.keys import (
    FOCUS_LIBRARY,
    NEXT_PASSAGE,
    PREVIOUS_PASSAGE,
    arrow_keys,
    key_name,
)
from tui_assistant.ui.widgets.candidate_list import CandidateList
from tui_assistant.ui.widgets.evidence_view import (
    CLOSEST,
    POSSIBLE,
    location_suffix,
    matched_details,
    ordered_passages,
    origin_line,
    passage_header,
    quoted_lines,
    score_text,
)
from tui_assistant.ui.widgets.markdown_view import SENTENCE_LINES_SHOWN, MarkdownView, line_in
from tui_assistant.ui.widgets.passage_reader import PassageReader
from tui_assistant.ui.widgets.untrusted_text import literal, one_line, readable_source
from tui_assistant.ui.widgets.whole_words import WholeItems, WholeWords, id_item
from tui_assistant.wiring.origins import LibraryOrigins

HINT = (
    "No evidence for the last outcome. Ask a question, or pick a passage with "
    f"{key_name(FOCUS_LIBRARY.key)}."
)
# How to open one of a refusal's listed passages.
OPEN_LISTED = f"{key_name(NEXT_PASSAGE.key)}, then a number, or up/down and enter, opens one"
NEAREST_TITLE = "not an answer: closest passages"
# What the listed passages are, on the line above the one open.
# The panel's states, as its stylesheet names them.
STATES = "-empty -nearest -candidates -passage -several -details -titled -origin".split()


def location_items(passage: Passage) -> WholeItems:
    """`path:line–end_line` (a PDF's `path p. 12–13`) on one line, the path shortened
    from the left to fit."""
    return WholeItems([(one_line(passage.source_path), location_suffix(passage))])


class EvidencePanel(Vertical):
    # The panel's own look, kept beside it as a stylesheet (its states' many rules).
    DEFAULT_CSS = Path(__file__).with_name("evidence_panel.tcss").read_text(encoding="utf-8")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "step(-1)", "Previous passage", id="evidence.previous"),
        Binding("right_square_bracket", "step(1)", "Next passage", id="evidence.next"),
    ]

    # Passages to choose from are listed (an unsure question's, a refusal's closest):
    # the side column gives the panel more room meanwhile.
    listing: var[bool] = var(False)

    def __init__(self) -> None:
        super().__init__(id="evidence", classes="-empty")
        self.border_title = "Evidence"
        self.passages: tuple[Passage, ...] = ()
        self.position = 0  # index into `passages` of the one on screen
        # Listed passages to choose from: an unsure question's possible passages, or
        # a refusal's closest; `_listed_as` says which.
        self.nearest: tuple[Passage, ...] = ()
        self._listed_as = ""
        self._roles: tuple[str, ...] = ()
        self._quotes: tuple[Quote, ...] = ()
        self._matched_keys: tuple[str, ...] = ()
        # The latest question's keys: a passage picked in the browser is read for them.
        self._question_keys: tuple[str, ...] = ()
        self._details: dict[str, str] = {}  # passage id -> why it was chosen
        self._source = ""  # what the list is: an answer's evidence, browsing
        # Where the loaded libraries' passages come from (the screen sets it on each load).
        self.origins = LibraryOrigins()

    def compose(self) -> ComposeResult:
        yield Static(Content(NEAREST_TITLE), id="evidence-notice")
        yield Static(id="evidence-why", markup=False)
        yield CandidateList(id="evidence-list")
        yield Static(id="evidence-step", markup=False)
        # Above the text, so it stays in view however far the text is scrolled.
        yield Static(id="evidence-title", markup=False)
        with PassageReader(id="evidence-reader"):
            yield Static(id="evidence-meta", markup=False)
            yield Static(id="evidence-location", markup=False)
            yield Static(id="evidence-origin", markup=False)
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

    @property
    def reader(self) -> PassageReader:
        """The passage on screen, scrolled by itself below the list."""
        return self.query_one("#evidence-reader", PassageReader)

    @property
    def listed(self) -> CandidateList:
        return self.query_one("#evidence-list", CandidateList)

    @property
    def can_step(self) -> bool:
        """Whether stepping leads anywhere: another passage, or into a list."""
        return len(self.nearest or self.passages) > 1 or bool(self.nearest and not self.passages)

    def show_outcome(self, outcome: Outcome) -> None:
        """The passages behind an outcome: the cited ones first, then the others it was
        built from; an unsure question's possible passages, the best one open; or a
        refusal's closest passages, none open (they are not an answer)."""
        # The ranking's reading marks a mistyped word as the library's word it misspells.
        self._question_keys = outcome.read_words or tuple(normalise_distinct(outcome.question))
        if outcome.reason is Reason.AMBIGUOUS and outcome.nearest:
            self._show_candidates(outcome.nearest, outcome.question)
            return
        if outcome.reason is Reason.NO_EVIDENCE and outcome.nearest:
            self._show_nearest(outcome.nearest, outcome.detail)
            return
        evidence = outcome.evidence
        if evidence is None and not outcome.passages:
            self._show_hint()  # the question's words stay, for a passage picked next
            return
        passages, roles = ordered_passages(outcome)
        self._show_list(passages, roles, evidence, outcome.question, outcome.quotes, "answer")

    def show_evidence(self, evidence: Evidence, question: str | None = None) -> None:
        """The passages retrieval chose for a question, before its outcome is known."""
        # An unsure question's candidates: none is chosen until the model's answer is in.
        first = "candidate" if evidence.model_picks else "chosen"
        roles = (first, *("candidate" for _ in evidence.passages[1:]))
        self._show_list(evidence.passages, roles, evidence, question, (), "answer evidence")

    def show_passage(self, passage: Passage) -> None:
        """A passage the user picked in the browser, read for the latest question."""
        self._show_list((passage,), ("",), None, None, (), "browsing")

    def show_hint(self) -> None:
        """Nothing to show, and no question to read passages for (history cleared)."""
        self._question_keys = ()
        self._show_hint()

    def _show_hint(self) -> None:
        self._reset()
        self.body.show("")
        self.add_class("-empty")
        self.border_subtitle = ""
        self.refresh_bindings()

    def step(self, by: int) -> None:
        """Show the next (`by=1`) or previous (`by=-1`) passage. With listed passages,
        go into the list (where the number keys open one) and, unless it is a refusal's
        list with none open yet, on to the next one."""
        if self.nearest:
            self.listed.focus()
            if self.passages:
                index = (self.position + by) % len(self.nearest)
                self.listed.highlighted = index
                self._open_listed(index)
        elif len(self.passages) > 1:
            self.position = (self.position + by) % len(self.passages)
            self._render_passage()

    # -- keys -----------------------------------------------------------------

    def action_step(self, by: int) -> None:
        self.step(by)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            return len(self.nearest or self.passages) > 1
        return True

    @on(OptionList.OptionHighlighted, "#evidence-list")
    def _follow_highlight(self, event: OptionList.OptionHighlighted) -> None:
        """An unsure question's possible passages open as the highlight reaches them."""
        event.stop()
        if self._listed_as == POSSIBLE and event.option_index != self.position:
            self._open_listed(event.option_index)

    @on(OptionList.OptionSelected, "#evidence-list")
    def _open_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._open_listed(event.option_index)

    @on(MarkdownView.Marked)
    def _marked(self, event: MarkdownView.Marked) -> None:
        event.stop()
        self.call_after_refresh(self._scroll_to_matching)

    @on(PassageReader.Relaid)
    def _relaid(self, event: PassageReader.Relaid) -> None:
        """The sentence moved with the layout (a resize, the text still laying out):
        back to it, until the user scrolls."""
        event.stop()
        if self.body.marked:
            self.call_after_refresh(self._scroll_to_matching)

    # -- drawing --------------------------------------------------------------

    def _reset(self) -> None:
        self.passages = ()
        self.position = 0
        self.nearest = ()
        self._listed_as = ""
        self._roles = ()
        self._quotes = ()
        self._matched_keys = ()
        self._details = {}
        self.listing = False
        self.remove_class(*STATES)
        self.listed.clear_options()

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
        self._matched_keys = self._question_keys
        if evidence is not None:
            self._matched_keys = evidence.matched_words
            self._details = {evidence.passage.id: score_text(evidence)}
            self._name_matched(passages, evidence.matched_words, question)
        self.add_class("-passage", "-titled")
        self._source = self.border_subtitle = source
        self._render_passage()
        self.refresh_bindings()

    def _name_matched(
        self, passages: Iterable[Passage], keys: Collection[str], question: str | None
    ) -> None:
        """Each passage's details name the question's words it holds itself."""
        self._details = matched_details(passages, keys, question, self._details)

    def _show_candidates(self, candidates: tuple[Passage, ...], question: str) -> None:
        """An unsure question: its possible passages listed, the best one open below."""
        self._reset()
        self.nearest = self.passages = candidates
        self._listed_as = POSSIBLE
        self._roles = ()
        self._matched_keys = self._question_keys
        self._name_matched(candidates, self._question_keys, question)
        self.listed.show(
            candidates,
            tuple(passage_excerpt(passage, self._question_keys, 1) for passage in candidates),
        )
        self.add_class("-candidates", "-passage")
        self.listing = True
        self._source = "not sure"
        self._render_passage()
        self.refresh_bindings()

    def _show_nearest(self, nearest: tuple[Passage, ...], why: str | None) -> None:
        """A refusal: its closest passages, as places to look; none open."""
        self._reset()
        self.nearest = nearest
        self._listed_as = CLOSEST
        self.body.show("")
        self.add_class("-nearest")
        self.listing = True
        self._source = self.border_subtitle = "refused"
        hint = f"{why}; {OPEN_LISTED}" if why else OPEN_LISTED
        self.query_one("#evidence-why", Static).update(literal(hint))
        self.listed.show(
            nearest, tuple(passage_excerpt(passage, self._question_keys, 1) for passage in nearest)
        )
        self.refresh_bindings()

    def _open_listed(self, index: int) -> None:
        if self.passages and index == self.position:
            return  # open already
        if not self.passages:  # the first of a refusal's closest passages to open
            self.passages = self.nearest
            self._roles = ("not an answer",) * len(self.nearest)
            self._matched_keys = self._question_keys
            self.add_class("-passage", "-titled")
        self.position = index
        self._render_passage()

    def _render_passage(self) -> None:
        passage = self.passage
        if passage is None:
            return
        count = len(self.passages)
        role = self._roles[self.position] if self._roles else ""
        header = passage_header(
            self._listed_as, self.position, count, role, self._details.get(passage.id, "")
        )
        details = header.details
        self.query_one("#evidence-step", Static).update(literal(header.step))
        self.set_class(count > 1 or bool(self.nearest), "-several")
        if count > 1 and self._listed_as != CLOSEST:
            steps = arrow_keys(NEXT_PASSAGE, PREVIOUS_PASSAGE)
            self.border_subtitle = f"{self._source} · {steps} to step"
        title = self.query_one("#evidence-title", Static)
        title.update(literal(one_line(passage.title)))
        title.tooltip = literal(one_line(passage.title))
        # Shortened to fit when long: the tooltips hold them in full.
        for selector, items in (
            ("#evidence-meta", WholeItems([id_item(passage.id)])),
            ("#evidence-location", location_items(passage)),
        ):
            line = self.query_one(selector, Static)
            line.update(items)
            line.tooltip = Content(str(items))
        # Wrapped whole at the panel's width, never cut mid-word.
        origin = WholeWords(origin_line(self.origins.of(passage), passage.url))
        self.query_one("#evidence-origin", Static).update(origin)
        self.set_class(bool(str(origin)), "-origin")
        self.query_one("#evidence-details", Static).update(literal(details))
        self.set_class(bool(details), "-details")
        text = readable_source(passage.text, passage.source_path)
        self.reader.follow()
        self.reader.scroll_home(animate=False, immediate=True)
        self.body.show(text, self._matched_keys, quoted_lines(passage, self._quotes))

    def _scroll_to_matching(self) -> None:
        """A long passage opens at the lines a model answer quotes from it, else at the
        sentence that best matches the question: unless its first lines are in view from
        the top, the view starts a third of its height above it, so what leads to it is
        read too. Run again on each change of the layout until the user scrolls, so it
        lands in the same place however the layout got there. A passage picked in the
        browser opens at its first line: the reader chose it, not the question."""
        reader = self.reader
        if self._source == "browsing" or reader.user_scrolled or not self.body.marked:
            return
        quoted = self.body.quoted_blocks
        best = (quoted[0], 0) if quoted else self.body.best
        if best is None or not best[0].is_attached:
            return
        block, start = best
        if not block.region:
            return  # not laid out yet: the layout's change comes as `Relaid`
        height = reader.scrollable_content_region.height
        y = line_in(block, start, reader)
        top = 0 if y + SENTENCE_LINES_SHOWN <= height else max(0, y - height // 3)
        # At once: a deferred scroll could land after the user's own.
        reader.scroll_to(y=top, animate=False, immediate=True)
