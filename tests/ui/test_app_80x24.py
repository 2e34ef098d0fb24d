"""The app at 80x24, as a user on a small terminal reads it: an unsure question's
possible passages listed by titles that keep their document's name, a conversation
never narrower than a readable line, a long answer opened at the sentences that match
the question, and a model's pick among unsure passages never shown as a sure answer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from tests.helpers import FixedRetriever
from tests.helpers.cloud_pages import UNSURE_QUESTIONS, write_cloud_pages
from tests.helpers.fake_openai_server import CitePassage, FakeOpenAIServer, Hang
from tests.helpers.tui import (
    ask,
    chat_text,
    concluded,
    evidence_text,
    make_app,
    make_context,
    running,
    screen_lines,
    status,
    status_line,
    wait_until,
)
from tui_assistant.core.retrieval.types import NoEvidence
from tui_assistant.core.service import AnswerService
from tui_assistant.providers.openai import OpenAIProvider, new_http_client
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.widgets.chat_pane import MIN_CHAT_WIDTH, ChatPane
from tui_assistant.wiring.context import AppContext

SMALL = (80, 24)
DOCUMENTS = ("Commands", "Configuration", "Deployment")
LONG_HEADING = "Running several commands in one go"


def reference_page(document: str) -> str:
    """A page whose passage has a long title path: document › section › subsection."""
    return (
        f"# {document}\n\n## Basics\n\nRun the tool from a terminal.\n\n"
        f"## Advanced usage of the tool\n\n### {LONG_HEADING}\n\n"
        f"In {document.lower()}, chain commands with the chain subcommand.\n"
    )


@pytest.fixture
def unsure_app(tmp_path: Path) -> AssistantApp:
    """Three pages with long title paths, retrieval not sure between them (its result
    is given: what the screen makes of it is tested, not a ranking)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for document in DOCUMENTS:
        (folder / f"{document.lower()}.md").write_text(reference_page(document), "utf-8")
    context = make_context(folder, tmp_path / "data", retrieval="ranked")
    library = context.library
    candidates = tuple(
        library.passage(number)
        for number in range(len(library))
        if LONG_HEADING in library.info(number).title
    )
    assert len(candidates) == len(DOCUMENTS)
    unsure = NoEvidence("close, none sure", candidates, mode="ranked", ambiguous=True)
    service = AnswerService(FixedRetriever(context.library, unsure))
    return make_app(AppContext(context.settings, context.library, service))


def chat_width(app: AssistantApp) -> int:
    return app.main.query_one(ChatPane).outer_size.width


async def test_an_unsure_question_lists_three_titles_that_keep_their_document_names(
    unsure_app: AssistantApp,
) -> None:
    app = unsure_app
    async with running(app, SMALL) as pilot:
        assert chat_width(app) >= MIN_CHAT_WIDTH
        await ask(pilot, "how do I chain commands")
        await wait_until(pilot, lambda: concluded(app))
        await pilot.pause()
        screen = "\n".join(screen_lines(app))

        assert status(app) == "not sure: 3 possible passages, best first"
        for number, document in enumerate(DOCUMENTS, start=1):
            # The middle of the path gives way; the document's name never does.
            assert f"{number}  {document} › " in screen
        assert "1  … ›" not in screen
        assert chat_width(app) >= MIN_CHAT_WIDTH


def long_page() -> str:
    """A page whose one sentence about the cache comes first and whose end is far below."""
    steps = "\n\n".join(
        f"Step {number} writes the region, the stage and the log settings for the deploy."
        for number in range(1, 31)
    )
    return (
        "# Deploying\n\nTo clear the build cache, run the purge command before a deploy.\n\n"
        f"{steps}\n\nThe last step prints the address of the service.\n"
    )


@pytest.mark.parametrize("size", [SMALL, (120, 35)])
async def test_a_long_answer_opens_at_the_sentence_that_matches_not_its_end(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "deploying.md").write_text(long_page(), "utf-8")
    (folder / "other.md").write_text("# Other\n\nNothing about building here.\n", "utf-8")
    app = make_app(make_context(folder, tmp_path / "data", retrieval="ranked"))
    async with running(app, size) as pilot:
        await ask(pilot, "how do I clear the build cache")
        await wait_until(pilot, lambda: concluded(app) and status(app) == "answered")
        chat = app.main.query_one(ChatPane)

        def shown() -> str:
            """The conversation's text as on screen, its lines joined."""
            region = chat.scrollable_content_region
            lines = screen_lines(app)[region.y : region.bottom]
            return " ".join(" ".join(line[region.x : region.right] for line in lines).split())

        await wait_until(pilot, lambda: "purge command" in shown())
        await pilot.pause(0.1)  # nothing scrolls it to the end afterwards
        assert "clear the build cache" in shown() and "purge command" in shown()
        assert "prints the address of the service" not in shown()
        assert chat.max_scroll_y > 0  # the answer is longer than the pane
        # A command's notice below it brings the bottom back into view.
        chat.add_notice("exported 1 turn", warning=False)
        await wait_until(pilot, lambda: "exported 1 turn" in shown())


@pytest.fixture
def model_server() -> Iterator[FakeOpenAIServer]:
    """A model that cites the first passage it is sent, and passes every check."""
    with FakeOpenAIServer(CitePassage("Set it in the function's settings.")) as server:
        yield server


@pytest.fixture
async def model_app(tmp_path: Path, model_server: FakeOpenAIServer) -> AsyncIterator[AssistantApp]:
    """The app in model mode over the cloud pages, with real retrieval (`ranked`)."""
    provider = OpenAIProvider(
        client=new_http_client(5.0),
        base_url=model_server.base_url,
        model="fake-model",
        api_key=SecretStr("test-key"),
    )
    folder = write_cloud_pages(tmp_path / "cloud")
    yield make_app(make_context(folder, tmp_path / "data", provider, retrieval="ranked"))
    await provider.aclose()


async def test_a_models_pick_among_unsure_passages_is_never_shown_as_a_sure_answer(
    model_app: AssistantApp, model_server: FakeOpenAIServer
) -> None:
    app = model_app
    async with running(app, SMALL) as pilot:
        for number, question in enumerate(UNSURE_QUESTIONS, start=1):
            await ask(pilot, question)
            await wait_until(pilot, lambda number=number: len(app.main.transcript.turns) == number)
            await wait_until(pilot, lambda: concluded(app))
            said = "answered by the model from 3 possible passages"
            assert status(app) == said
            assert status_line(app).startswith(said)
            # Not in the colour of a sure answer.
            assert app.main.status_bar.has_class("-chosen")
            assert not app.main.status_bar.has_class("-answered")
            assert f"{said} (the library was not sure)" in chat_text(app)
            assert chat_width(app) >= MIN_CHAT_WIDTH
        assert model_server.request_count == len(UNSURE_QUESTIONS)


async def test_while_the_model_thinks_no_unsure_candidate_is_shown_as_chosen(
    model_app: AssistantApp, model_server: FakeOpenAIServer
) -> None:
    app = model_app
    model_server.behaviour = Hang()
    async with running(app, SMALL) as pilot:
        await ask(pilot, UNSURE_QUESTIONS[0])
        await wait_until(pilot, lambda: model_server.request_count == 1)
        assert status(app).startswith("asking")
        assert "1/3 · candidate" in evidence_text(app)
        assert "chosen" not in evidence_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: status(app) == "cancelled")
