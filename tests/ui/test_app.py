"""The real app driven with key presses: asking, refusing, browsing, cancelling, deadlines."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    CitingProvider,
    HangingProvider,
    ask,
    ask_workers_done,
    concluded,
    make_app,
    make_context,
    running,
    status,
    wait_until,
)
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Outcome, Reason, SupportReport
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.core.service import AnswerService
from tui_assistant.errors import ProviderFailure
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.widgets.chat_pane import UNSUPPORTED_LEGEND, TurnView
from tui_assistant.ui.widgets.evidence_panel import HINT
from tui_assistant.ui.widgets.library_browser import LibraryTree
from tui_assistant.ui.widgets.question_box import QuestionBox

SIZE = (100, 32)
PASTA_QUESTION = "how much salt for pasta water"


def shown_text(widget: object) -> str:
    """The plain text of every Static inside a widget, as the user reads it."""
    from textual.widget import Widget

    assert isinstance(widget, Widget)
    return "\n".join(str(static.render()) for static in widget.query(Static))


def finished(app: AssistantApp) -> Callable[[], bool]:
    return lambda: concluded(app)


async def test_starts_ready_with_the_question_box_focused(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.pause()
        assert status(app) == "ready"
        assert "deterministic · 3 passages" in shown_text(app.main.status_bar)
        assert isinstance(app.focused, QuestionBox)
        assert HINT in shown_text(app.main.evidence)


async def test_question_answers_with_source_evidence_and_status(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION, typed=True)
        await wait_until(pilot, finished(app))
        assert status(app) == "answered"
        chat = shown_text(app.main.chat)
        assert "> how much salt for pasta water" in chat
        assert "about 10 grams of salt per litre" in chat
        assert "source: lessons/pasta-water.md" in chat
        assert "cites: pasta-water" in chat
        evidence = shown_text(app.main.evidence)
        assert "Salting pasta water" in evidence
        assert "pasta-water\nlessons/pasta-water.md:1\u2013" in evidence
        assert app.main.question_box.value == ""


async def test_model_answer_shows_citation_and_score(tmp_path: Path) -> None:
    provider = CitingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, finished(app))
        assert status(app) == "answered"
        assert provider.calls == [(PASTA_QUESTION, "pasta-water")]
        chat = shown_text(app.main.chat)
        assert "Use about 10 grams of salt per litre. [source:pasta-water]" in chat
        assert "source: lessons/pasta-water.md" in chat
        assert "\nbest match (" in shown_text(app.main.evidence)


async def test_unrelated_question_is_refused_without_a_provider_call(tmp_path: Path) -> None:
    provider = CitingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "what is the capital of france")
        await wait_until(pilot, finished(app))
        assert status(app).startswith("refused: no passage")
        assert status(app) in shown_text(app.main.chat)
        assert provider.calls == []
        assert HINT in shown_text(app.main.evidence)


async def test_provider_failure_is_a_refusal_in_plain_words(tmp_path: Path) -> None:
    class FailingProvider(CitingProvider):
        async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
            raise ProviderFailure(Reason.PROVIDER_ERROR, "HTTP 503")

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, FailingProvider()))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, finished(app))
        assert status(app) == "refused: the provider did not return a usable answer (HTTP 503)"
        assert "passage: lessons/pasta-water.md" in shown_text(app.main.chat)
        # A refusal after retrieval still shows the lesson it was about.
        assert (
            app.main.evidence.passage is not None and app.main.evidence.passage.id == "pasta-water"
        )


async def test_an_answer_that_cites_another_source_is_refused(tmp_path: Path) -> None:
    class WrongCitation(CitingProvider):
        async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
            return ModelAnswer("Salt it well. [source:no-such-passage]")

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, WrongCitation()))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, finished(app))
        assert status(app).startswith("refused: the model's answer failed the citation check")
        assert "Salt it well" not in shown_text(app.main.chat)


async def test_escape_cancels_a_hanging_request_and_no_answer_appears(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, provider.started.is_set)
        assert status(app).startswith("asking")
        assert app.main.question_box.busy
        # The evidence is shown while waiting; the answer text is not.
        assert (
            app.main.evidence.passage is not None and app.main.evidence.passage.id == "pasta-water"
        )
        await pilot.press("escape")
        assert status(app) == "cancelled"
        assert not app.main.question_box.busy
        await wait_until(pilot, lambda: provider.cancelled)
        provider.release.set()
        await wait_until(pilot, lambda: ask_workers_done(app))
        await pilot.pause()
        assert status(app) == "cancelled"
        assert "LATE ANSWER" not in shown_text(app.main.chat)
        assert "cancelled" in shown_text(app.main.chat)
        assert app.main.transcript.session.outcomes[-1].kind.value == "cancelled"


async def test_a_late_answer_after_cancel_is_never_shown(tmp_path: Path) -> None:
    provider = HangingProvider(swallow_cancel=True)
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, provider.started.is_set)
        await pilot.press("escape")
        await wait_until(pilot, lambda: provider.cancelled)
        # The provider "answers" a moment after the cancel; the worker then ends.
        await wait_until(pilot, lambda: ask_workers_done(app))
        await pilot.pause()
        assert status(app) == "cancelled"
        assert "LATE ANSWER" not in shown_text(app.main.chat)
        assert len(app.main.transcript.session.outcomes) == 1


async def test_one_request_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    bells: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: bells.append(None))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, provider.started.is_set)
        await ask(pilot, "how long to boil eggs")
        await wait_until(pilot, lambda: bells == [None])  # refused with the bell
        await pilot.pause()
        assert provider.calls == 1
        assert status(app).startswith("asking")
        assert app.main.question_box.value == "how long to boil eggs"  # kept for later
        await pilot.press("escape")
        assert status(app) == "cancelled"


async def test_the_service_deadline_says_timed_out_not_cancelled(tmp_path: Path) -> None:
    # The provider ignores time; the service's deadline ends the call and cancels it.
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider, deadline_seconds=0.2))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, finished(app))
        assert status(app) == "timed out: no answer within 0.2 s"
        assert "timed out" in shown_text(app.main.chat)
        assert provider.cancelled
        assert app.main.transcript.session.outcomes[-1].kind.value == "timed_out"


async def test_asking_counts_seconds_on_the_apps_clock(tmp_path: Path) -> None:
    now = [100.0]
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider), clock=lambda: now[0])
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, provider.started.is_set)
        assert status(app) == "asking… 0.0 s (esc to stop)"
        now[0] += 2.4
        await wait_until(pilot, lambda: status(app) == "asking… 2.4 s (esc to stop)")
        await pilot.press("escape")
        assert status(app) == "cancelled"


async def test_escape_without_a_request_returns_focus_to_the_question_box(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l")
        assert isinstance(app.focused, LibraryTree)
        await pilot.press("escape")
        assert isinstance(app.focused, QuestionBox)
        assert status(app) == "ready"


async def test_up_and_down_recall_earlier_questions(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "boil eggs runny")
        await ask(pilot, "sharpen knife whetstone")
        await pilot.press("d", "r")
        await pilot.press("up")
        assert app.main.question_box.value == "sharpen knife whetstone"
        await pilot.press("up")
        assert app.main.question_box.value == "boil eggs runny"
        await pilot.press("up")
        assert app.main.question_box.value == "boil eggs runny"
        await pilot.press("down", "down")
        assert app.main.question_box.value == "dr"  # the unfinished draft comes back


async def test_f1_shows_help_and_escape_closes_it(tmp_path: Path) -> None:
    from tui_assistant.ui.dialogs.help_screen import HelpScreen, key_rows
    from tui_assistant.ui.screens.main_screen import MainScreen

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = shown_text(app.screen)
        for key in ("enter", "escape", "ctrl+l", "ctrl+o", "ctrl+r", "ctrl+q", "f1", "ctrl+p"):
            assert key in help_text
        # Built from the bindings: every key users press is there, with what it does.
        groups = [("Anywhere", app.BINDINGS), *MainScreen.key_groups()]
        for key, description in key_rows(groups):
            assert key in help_text and description in " ".join(help_text.split())
        assert "ctrl+down" in help_text and "[" in help_text and "]" in help_text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        assert isinstance(app.focused, QuestionBox)


async def test_footer_bindings_all_have_ids() -> None:
    from textual.binding import Binding

    from tui_assistant.ui.dialogs.help_screen import HelpScreen
    from tui_assistant.ui.screens.main_screen import MainScreen
    from tui_assistant.ui.widgets.evidence_panel import EvidencePanel

    for owner in (AssistantApp, MainScreen, QuestionBox, EvidencePanel, HelpScreen, LibraryTree):
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding) and binding.id, (owner, binding)


async def test_ctrl_q_quits(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_unsupported_sentences_are_marked_with_a_legend(tmp_path: Path) -> None:
    class FlaggingService(AnswerService):
        def judge(self, question: str, evidence: Evidence, answer: ModelAnswer) -> Outcome:
            outcome = super().judge(question, evidence, answer)
            return replace(outcome, support=SupportReport(False, ("Olive oil stops sticking.",)))

    provider = CitingProvider("Use 10 grams per litre. Olive oil stops sticking.")
    context = make_context(BUNDLED_LESSONS, tmp_path, provider, service_class=FlaggingService)
    app = make_app(context)
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, finished(app))
        # Where the mark stands in the answer is the chat pane's own test.
        assert UNSUPPORTED_LEGEND in shown_text(app.main.chat)
        assert status(app) == "answered: 1 sentence not backed by the passage"


async def test_library_problems_are_shown_once_as_a_notice(
    tmp_path: Path, make_library: Callable[[Mapping[str, tuple[str, str]]], Path]
) -> None:
    folder = make_library({"pasta-water": ("Salting pasta water", "Salt the water well.")})
    (folder / "latin-1.md").write_bytes(b"# Caf\xe9\n\ntext\n")
    app = make_app(make_context(folder, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.pause()
        notices = [str(s.render()) for s in app.main.chat.query(".notice")]
        assert len(notices) == 1
        assert "latin-1.md" in notices[0] and "not UTF-8" in notices[0]


async def test_chat_stays_at_its_bottom_unless_the_user_scrolled_away(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, (80, 24)) as pilot:
        for question in ["salt pasta water", "boil eggs runny yolk", "sharpen knife steel"] * 2:
            await ask(pilot, question)
            await wait_until(pilot, lambda: provider.calls > 0 and app.main.pending is not None)
            provider.release.set()
            await wait_until(pilot, lambda: app.main.pending is None)
            provider.release.clear()
        chat = app.main.chat
        await wait_until(pilot, lambda: concluded(app) and chat.scroll_y == chat.max_scroll_y)
        latest = chat.query(TurnView).last()
        # The pane stays at its bottom: the newest turn's end is in view.
        assert chat.scroll_y > 0 and chat.scroll_y == chat.max_scroll_y
        assert latest.region.bottom > chat.region.y
        assert latest.region.y < chat.region.bottom

        await ask(pilot, "salt pasta water")
        await wait_until(pilot, lambda: provider.started.is_set() and bool(chat.query(".waiting")))
        chat.scroll_home(animate=False, immediate=True)  # the user goes back to read
        await wait_until(pilot, lambda: chat.scroll_y == 0)
        provider.release.set()
        await wait_until(pilot, lambda: concluded(app))
        await pilot.pause()
        assert chat.scroll_y == 0


async def test_footer_offers_stop_only_while_a_request_is_in_flight(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))

    def footer_actions() -> set[str]:
        return {
            binding.action for (_, binding, enabled, _) in app.active_bindings.values() if enabled
        }

    async with running(app, SIZE) as pilot:
        await pilot.pause()
        assert "cancel" not in footer_actions()
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, provider.started.is_set)
        assert "cancel" in footer_actions()
        await pilot.press("escape")
        await pilot.pause()
        assert "cancel" not in footer_actions()


async def test_command_palette_offers_export_copy_clear_and_theme(tmp_path: Path) -> None:
    from textual.command import CommandPalette

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert {"Export conversation", "Copy latest answer", "Clear history", "Theme"} <= titles
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette))
        assert status(app) == "ready"


async def test_escape_closes_help_before_it_cancels(tmp_path: Path) -> None:
    from tui_assistant.ui.dialogs.help_screen import HelpScreen

    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, PASTA_QUESTION)
        await wait_until(pilot, provider.started.is_set)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        assert status(app).startswith("asking")
        await pilot.press("escape")
        assert status(app) == "cancelled"
