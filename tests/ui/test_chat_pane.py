"""The chat pane's answers as rendered Markdown: code looks like code, no markup from the
text, unsupported sentences dimmed and marked in place, or listed when they cannot be."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Static
from textual.widgets.markdown import MarkdownFence

from tests.helpers.tui import drawn_lines, wait_until
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import SupportReport, answered
from tui_assistant.core.record import Turn
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.ui.widgets.chat_pane import UNSUPPORTED_LEGEND, ChatPane, TurnView
from tui_assistant.ui.widgets.markdown_view import (
    UNSUPPORTED_MARKER,
    UNSUPPORTED_STYLE,
    MarkdownView,
)

ANSWER = (
    "Salt well [source:pasta-water]. Oil stops sticking. **Stir** often.\n\n"
    "[@click=app.quit]quit[/] <!-- hidden note -->\n\n"
    "```sh\nnpm config set @myco:registry https://npm.example.com/\n```\n"
)


class ChatApp(App[object]):
    def compose(self) -> ComposeResult:
        yield ChatPane()


def answered_turn(
    question: str,
    answer: str,
    passage: Passage,
    citations: tuple[str, ...],
    flagged: tuple[str, ...] = (),
) -> Turn:
    evidence = Evidence((passage,), (), 1.0, None)
    support = SupportReport(not flagged, flagged)
    outcome = answered(question, evidence, answer, citations=citations, support=support)
    return Turn.of(outcome, "2026-01-02T03:04:05+00:00")


def pasta_turn(flagged: tuple[str, ...] = ()) -> Turn:
    passage = Passage("pasta-water", "Salting", "Salt it.", "lessons/pasta-water.md", 1, 9)
    return answered_turn("how do I salt pasta?", ANSWER, passage, ("pasta-water",), flagged)


def texts(view: TurnView) -> list[str]:
    return [str(static.render()) for static in view.query(Static)]


async def test_an_answer_is_rendered_markdown_with_code_and_no_markup() -> None:
    app = ChatApp()
    async with app.run_test(size=(90, 30)) as pilot:
        view = app.query_one(ChatPane).add_turn(pasta_turn())
        await wait_until(pilot, lambda: any(answer.marked for answer in view.query(MarkdownView)))
        answer = view.query_one(MarkdownView)
        shown = "\n".join(texts(view))
        assert "Salt well [source:pasta-water]. Oil stops sticking. Stir often." in shown
        assert "[@click=app.quit]quit[/]" in shown
        assert "hidden note" not in shown and "<!--" not in shown
        fence = answer.query_one(MarkdownFence)
        assert "npm config set @myco:registry" in str(fence.query_one(Static).render())
        assert "source: lessons/pasta-water.md:1\u20139" in shown
        assert UNSUPPORTED_LEGEND not in shown


async def test_unsupported_sentences_are_dimmed_in_place_or_listed() -> None:
    app = ChatApp()
    async with app.run_test(size=(90, 30)) as pilot:
        # The second one was seen by the checker without its marker: not found as is.
        flagged = ("Oil stops sticking.", "Salt well .")
        view = app.query_one(ChatPane).add_turn(pasta_turn(flagged))
        await wait_until(pilot, lambda: bool(view.query(".unplaced")))
        paragraph = view.query_one(MarkdownView).query(Static).first().render()
        assert isinstance(paragraph, Content)
        assert f"Oil stops sticking.{UNSUPPORTED_MARKER} Stir" in paragraph.plain
        dimmed = [
            paragraph.plain[span.start : span.end]
            for span in paragraph.spans
            if span.style == UNSUPPORTED_STYLE
        ]
        assert dimmed == ["Oil stops sticking."]
        shown = texts(view)
        assert UNSUPPORTED_LEGEND in shown
        assert [text for text in shown if text.startswith("† ")][1:] == ["† Salt well ."]


@pytest.mark.parametrize(("size", "width"), [((80, 24), 48), ((120, 35), 72)])
async def test_long_sources_and_ids_are_never_broken_mid_word(
    size: tuple[int, int], width: int
) -> None:
    """The chat column is 3/5 of the terminal: 48 cells at 80 columns, 72 at 120."""
    citations = (
        "reference/commandline/trust-signer-remove#remove-a-signer-from-multiple-repos",
        "reference/commandline/trust-signer-add",
        "engine/security/trust#signing",
    )
    source_path = "docker-docs/reference/commandline/trust_signer_remove.md"
    passage = Passage(citations[0], "Remove a signer", "Run it.", source_path, 74, 176)
    answer = "Run `docker trust signer remove` [source:x]."
    turn = answered_turn("how do I remove a signer?", answer, passage, citations)
    app = ChatApp()
    async with app.run_test(size=size) as pilot:
        pane = app.query_one(ChatPane)
        pane.styles.width = width
        view = pane.add_turn(turn)
        await wait_until(pilot, lambda: len(view.query(".source")) == 2)
        await pilot.pause()
        source, cites = (
            [text.strip() for text in drawn_lines(line)] for line in view.query(".source")
        )
        shown_source = " ".join(source).removeprefix("source:").strip()
        assert shown_source.endswith("trust_signer_remove.md:74\u2013176")
        assert source_path.endswith(shown_source.removeprefix("\u2026").split(":")[0])
        shown_ids = [part.strip() for part in " ".join(cites).removeprefix("cites:").split(",")]
        assert shown_ids[1:] == list(citations[1:])
        assert shown_ids[0].startswith("\u2026") and citations[0].endswith(shown_ids[0][1:])
        assert all(len(line) <= width - 6 for line in source + cites)
        assert all(line.strip(", ") for line in cites)  # no line of a lone comma
