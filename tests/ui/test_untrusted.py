"""Hostile lesson and model text is shown literally: no markup, no escape sequences."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tests.helpers.tui import ask, make_app, make_context, running, wait_until
from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.ui.widgets.library_browser import LibraryTree
from tui_assistant.ui.widgets.untrusted_text import readable_markdown, shorten_left

HOSTILE_TITLE = "[bold]x[/] salting [@click=app.quit]click me[/] pasta"
HOSTILE_TEXT = (
    "Salt the pasta water [link=https://evil.example]here[/link] and stop at [/ .\n"
    "\x1b[31mred pasta\x1b[0m \x1b]8;;https://evil.example\x07osc link\x1b]8;;\x07 "
    "\x1b]0;new window title\x07 done"
)
HOSTILE_ANSWER = (
    "[bold]Salt[/] it [@click=app.quit]now[/] and [/ \x1b[2J\x1b]52;c;cHduZWQ=\x07"
    "cleared [source:hostile-pasta]"
)


class HostileProvider:
    deadline_seconds = 5.0

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        return ModelAnswer(HOSTILE_ANSWER)


def shown(widget: Widget) -> str:
    return "\n".join(str(static.render()) for static in widget.query(Static))


async def test_hostile_lesson_and_answer_are_shown_as_typed(
    tmp_path: Path, make_library: Callable[[Mapping[str, tuple[str, str]]], Path]
) -> None:
    folder = make_library(
        {
            "hostile-pasta": (HOSTILE_TITLE, HOSTILE_TEXT),
            "eggs": ("Boiling eggs", "Boil eggs for six minutes."),
        }
    )
    app = make_app(make_context(folder, tmp_path / "data", HostileProvider()))
    async with running(app, (100, 32)) as pilot:
        await ask(pilot, "salting pasta water")
        await wait_until(pilot, lambda: app.main.status_bar.state.startswith("answered"))
        chat = shown(app.main.chat)
        assert "[bold]Salt[/] it [@click=app.quit]now[/] and [/ " in chat
        assert "cleared [source:hostile-pasta]" in chat
        evidence = shown(app.main.evidence)
        assert "[bold]x[/] salting [@click=app.quit]click me[/] pasta" in evidence
        assert "[link=https://evil.example]here[/link] and stop at [/ ." in evidence
        assert "red pasta" in evidence and "osc link" in evidence
        everything = chat + evidence
        assert "\x1b" not in everything and "\x07" not in everything
        assert "new window title" not in everything  # the OSC payload is dropped too

        # The title in the lesson browser is literal as well.
        await pilot.press("ctrl+l")
        tree = app.focused
        assert isinstance(tree, LibraryTree)
        labels = [str(node.label) for node in tree.root.children]
        assert HOSTILE_TITLE in labels

        # Typed filter text with markup in it is shown as typed, too.
        await pilot.press("[", "/", "b", "]")
        assert tree.filter_text == "[/b]"
        # (the border_subtitle getter returns markup; its text is what is drawn)
        drawn = Content.from_markup(
            app.main.library_panel.library_browser.border_subtitle or ""
        ).plain
        assert drawn == "filter: [/b] (0)"
        await pilot.press("backspace", "backspace", "backspace", "backspace")

        # Clicking where the fake [@click] "link" is drawn does nothing: the app still runs.
        await pilot.click("#evidence-title")
        await pilot.pause()
        assert app.is_running


# -- text prepared for the Markdown widget ---------------------------------------------


def test_html_comments_are_left_out_but_every_line_is_kept() -> None:
    text = (
        "Intro <!-- YAML added: v0.1.92 --> text\n"
        "<!-- a note\nover lines -->\n"
        "\x1b[31mred\x1b[0m\n"
        "```html\n<!-- shown: it is code -->\n```\n"
        "end <!-- never closed"
    )
    assert readable_markdown(text).split("\n") == [
        "Intro  text",
        "",
        "",
        "red",
        "```html",
        "<!-- shown: it is code -->",
        "```",
        "end ",
    ]


def test_a_location_is_shortened_from_the_left_by_whole_folders() -> None:
    path, suffix = "nodejs/doc/api/crypto.md", ":1538\u20131653"
    assert shorten_left(path, suffix, 80) == path + suffix
    assert shorten_left(path, suffix, 25) == "\u2026/api/crypto.md:1538\u20131653"
    assert shorten_left(path, suffix, 17) == "\u2026pto.md:1538\u20131653"
    assert len(shorten_left(path, suffix, 6)) == 6


def test_a_shortened_location_keeps_its_first_folder_while_the_file_fits() -> None:
    path, suffix = "21.3/docs/reference/tags.rst", ":1\u20139"
    assert shorten_left(path, suffix, 24) == "21.3/\u2026/tags.rst:1\u20139"
    assert shorten_left(path, suffix, 30) == "21.3/\u2026/reference/tags.rst:1\u20139"
    assert shorten_left(path, suffix, 15) == "\u2026/tags.rst:1\u20139"
