"""The chat pane: each question and what happened to it, newest at the bottom.

Each turn is drawn from its outcome's record (`record.Turn`), the same whether the
outcome is live or read back from history. Answers show the source path on its own line
under the question, then their checked text rendered as Markdown (`MarkdownView`: no
markup from the text, links not opened by a click), then the citations; refusals say
why in plain words. An answer taller than the pane opens at its question, so the
question and where the answer comes from are read first.
Nothing is shown for a question until its outcome is known, so unchecked model text
never reaches the screen.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tui_assistant.core.outcome import Reason, model_choice_words
from tui_assistant.core.record import Turn
from tui_assistant.core.words import normalise_distinct
from tui_assistant.ui.widgets.markdown_view import UNSUPPORTED_STYLE, MarkdownView, offset_in
from tui_assistant.ui.widgets.untrusted_text import literal, one_line
from tui_assistant.ui.widgets.whole_words import WholeItems, id_item, location_item
from tui_assistant.wiring.session import LoadedHistory

# The conversation is never narrower than this, borders and padding included: about 34
# cells of text, six or seven words a line, so a refusal's reason or a source path reads
# at 80 columns. The side column gives up the rest when it lists passages.
MIN_CHAT_WIDTH = 38

UNSUPPORTED_LEGEND = "† not backed by the passage (support check): read those sentences with care"
WAITING_TEXT = "waiting for the answer; it is shown only after its citation check…"


class TurnView(Vertical):
    """One question and its outcome (or a waiting line while the request is in flight)."""

    DEFAULT_CSS = """
    TurnView { height: auto; margin-bottom: 1; }
    TurnView .question { text-style: bold; color: $text-accent; }
    TurnView .answer { padding-left: 2; height: auto; }
    TurnView .source { padding-left: 2; color: $text-muted; }
    TurnView .legend { padding-left: 2; color: $text-warning; }
    TurnView .waiting { padding-left: 2; color: $text-muted; text-style: italic; }
    TurnView .refusal {
        padding-left: 1;
        border-left: thick $error;
        color: $text-error;
        text-style: bold;
    }
    TurnView .chosen { padding-left: 2; color: $text-warning; }
    TurnView .unsure {
        padding-left: 1;
        border-left: thick $warning;
        color: $text-warning;
        text-style: bold;
    }
    TurnView .stopped {
        padding-left: 1;
        border-left: thick $warning;
        color: $text-warning;
        text-style: bold;
    }
    """

    def __init__(self, question: str, turn: Turn | None = None) -> None:
        super().__init__(classes="turn")
        self.question = question
        self.turn = turn
        # Concluded in this session: a long answer opens at its question.
        self.opens_at_question = False

    def compose(self) -> ComposeResult:
        yield Static(
            Content.assemble(("> ", "bold"), literal(one_line(self.question))), classes="question"
        )
        if self.turn is None:
            yield Static(Content(WAITING_TEXT), classes="waiting")
        else:
            yield from self._outcome_widgets(self.turn)

    def conclude(self, turn: Turn) -> None:
        """Replace the waiting line with the outcome."""
        self.turn = turn
        self.opens_at_question = True
        self.query(".waiting").remove()
        self.mount_all(self._outcome_widgets(turn))

    @staticmethod
    def _outcome_widgets(turn: Turn) -> list[Widget]:
        record = turn.record
        if record.answered:
            widgets: list[Widget] = []
            if record.chosen_by == "model":
                # The library was not sure: the passage is the model's choice, said first.
                chosen = f"{model_choice_words(len(record.passages))} (the library was not sure)"
                widgets.append(Static(literal(chosen), classes="chosen"))
            widgets += [
                _items_line("source: ", [location_item(record.location or "")]),
                MarkdownView(
                    record.answer or "",
                    flagged=record.unsupported_sentences,
                    found_keys=normalise_distinct(record.question),
                    classes="answer",
                ),
                _items_line("cites: ", [id_item(citation) for citation in record.citations]),
            ]
            if record.unsupported_sentences:
                widgets.append(Static(Content(UNSUPPORTED_LEGEND), classes="legend"))
            return widgets
        kind = "refusal" if record.outcome == "refused" else "stopped"
        if record.reason == Reason.AMBIGUOUS:
            kind = "unsure"  # possible passages to read, not a refusal
        widgets = [Static(literal(one_line(turn.status)), classes=kind)]
        if record.location:
            widgets.append(_items_line("passage: ", [location_item(record.location)]))
        return widgets

    @on(MarkdownView.Marked)
    def _list_unplaced(self, event: MarkdownView.Marked) -> None:
        """Flagged sentences that cannot be marked in place (the checker may have seen
        the answer without its citation markers, or with Markdown around a word) are
        listed under the legend instead."""
        event.stop()
        if self.opens_at_question:
            self.opens_at_question = False  # once: later redraws leave the reader's place
            self.call_after_refresh(self._open_at_question)
        if self.turn is None or not self.turn.record.unsupported_sentences:
            return
        self.query(".unplaced").remove()
        for sentence in self.turn.record.unsupported_sentences:
            if sentence not in event.view.placed:
                flagged = literal(f"† {one_line(sentence)}", UNSUPPORTED_STYLE)
                self.mount(Static(flagged, classes="legend unplaced"))

    def _open_at_question(self) -> None:
        chat = next((node for node in self.ancestors if isinstance(node, ChatPane)), None)
        if chat is not None and self.is_attached:
            chat.open_at_question(self)


def _items_line(label: str, items: list[tuple[str, str]]) -> Static:
    """A `source:`/`cites:` line: each path and id whole, the full text in its tooltip."""
    shown = WholeItems(items, label)
    line = Static(shown, classes="source")
    line.tooltip = Content(str(shown))
    return line


class ChatPane(VerticalScroll):
    """The conversation, anchored to its bottom: new turns stay in view until the user
    scrolls up, and asking a question brings the bottom back."""

    DEFAULT_CSS = f"""
    ChatPane {{
        min-width: {MIN_CHAT_WIDTH};
        border: round $primary;
        border-title-color: $text-primary;
        padding: 0 1;
    }}
    ChatPane:focus {{ border: round $accent; }}
    ChatPane .notice {{ color: $text-warning; margin-bottom: 1; }}
    ChatPane .info {{ color: $text-muted; margin-bottom: 1; }}
    ChatPane #chat-empty {{ color: $text-muted; text-style: italic; margin-bottom: 1; }}
    """

    def __init__(self) -> None:
        super().__init__(id="chat")
        self.border_title = "Conversation"

    def compose(self) -> ComposeResult:
        yield Static(
            Content(
                "Answers come only from the library, with their source. Type a question below."
            ),
            id="chat-empty",
        )

    def on_mount(self) -> None:
        self.anchor()

    def add_notice(self, text: str, *, warning: bool = True) -> None:
        """A warning, or a line about what a command did (`warning=False`: where an
        export went, history cleared); the latter brings the pane back to its bottom, so
        it is in view even under a long answer opened at its question."""
        self.mount(Static(literal(text), classes="notice" if warning else "info"))
        if not warning:
            self.anchor()

    def open_at_question(self, turn: TurnView) -> None:
        """A turn taller than the pane opens with its question at the top, the source
        line under it in view (the evidence panel shows the matching sentences); a turn
        that fits stays anchored to the bottom."""
        if turn.outer_size.height <= self.scrollable_content_region.height:
            return
        # Unanchored until the next question (`begin_turn`), so a later layout (the side
        # column giving back its width) does not take the pane back to the answer's end.
        self.anchor(False)
        self.scroll_to(y=offset_in(turn, self), animate=False)

    def begin_turn(self, question: str) -> TurnView:
        """A question the user just asked: the pane goes back to following the bottom."""
        view = TurnView(question)
        self.mount(view)
        self.anchor()
        return view

    def add_turn(self, turn: Turn) -> TurnView:
        """A turn of this session, concluded (a long answer opens at its question)."""
        view = TurnView(turn.question, turn)
        view.opens_at_question = True
        self.mount(view)
        return view

    def conclude(self, view: TurnView, turn: Turn) -> None:
        """Show the outcome of a turn in flight (in view unless the user scrolled away)."""
        view.conclude(turn)

    def show_history(self, loaded: LoadedHistory) -> None:
        """The stored conversation's warnings, then its turns above this session's."""
        for warning in loaded.warnings:
            self.add_notice(f"warning: {warning}")
        shown = len(loaded.turns)
        note = f"earlier conversation ({shown} turn{'s' if shown != 1 else ''})"
        if loaded.total > shown:
            note += f", the last {shown} of {loaded.total}"
        self.add_earlier_turns(loaded.turns, note)

    def add_earlier_turns(self, turns: list[Turn], note: str) -> None:
        """Turns from the stored history go above anything asked in this session."""
        if not turns:
            return
        views: list[Static | TurnView] = [Static(literal(note), classes="info")]
        views += [TurnView(turn.question, turn) for turn in turns]
        first_turn = self.query(TurnView).first() if self.query(TurnView) else None
        if first_turn is not None:
            self.mount_all(views, before=first_turn)
        else:
            self.mount_all(views)

    async def clear_turns(self) -> None:
        await self.query(".turn, .info, .notice").remove()
