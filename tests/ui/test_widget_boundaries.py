"""The widgets draw what they are given and post messages up: none builds the
library's life or reaches into a sibling through the screen or the app. The main
screen owns the library (its `ScreenLibrary`); the app asks the screen."""

from __future__ import annotations

import ast
from pathlib import Path

from textual.app import App, ComposeResult

from tests.helpers import BUNDLED_LESSONS, PROJECT_ROOT
from tests.helpers.tui import labels, make_app, make_context, running, wait_until
from tui_assistant.ui.messages import PassageChosen
from tui_assistant.ui.widgets.library_panel import LibraryPanel

WIDGETS = PROJECT_ROOT / "tui_assistant" / "ui" / "widgets"
# Modules a widget must not import: the library's life and the screens that own it.
FORBIDDEN_IMPORTS = ("tui_assistant.wiring.lifecycle", "tui_assistant.ui.screens")
# Built only by the screen's library.
FORBIDDEN_CALLS = {"LibraryLifecycle", "open_context", "load_library", "open_without_vectors"}
# `self.screen.query_one(StatusBar)`, `self.app.query(...)`: reaching a sibling.
QUERIES = {"query_one", "query", "query_exactly_one", "query_children", "get_widget_by_id"}


def crossings(path: Path) -> list[str]:
    """Where the module at `path` builds the library's life or queries a widget it
    does not own."""
    tree = ast.parse(path.read_text("utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            modules = []
        found += [f"{where} imports {m}" for m in modules if m.startswith(FORBIDDEN_IMPORTS)]
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Name) and function.id in FORBIDDEN_CALLS:
            found.append(f"{where} calls {function.id}")
        if (
            isinstance(function, ast.Attribute)
            and function.attr in QUERIES
            and isinstance(function.value, ast.Attribute)
            and function.value.attr in {"screen", "app"}
        ):
            found.append(f"{where} calls {function.value.attr}.{function.attr}")
    return found


def test_no_widget_builds_the_library_or_queries_the_screen_or_the_app() -> None:
    modules = sorted(WIDGETS.glob("*.py"))
    assert any(path.name == "library_panel.py" for path in modules)
    assert [line for path in modules for line in crossings(path)] == []


def test_the_check_sees_a_widget_that_reaches_into_a_sibling(tmp_path: Path) -> None:
    reaching = tmp_path / "reaching.py"
    reaching.write_text(
        "from tui_assistant.wiring.lifecycle import LibraryLifecycle\n"
        "class Panel:\n"
        "    def on_mount(self):\n"
        "        self.lifecycle = LibraryLifecycle(self.settings, print)\n"
        "        self.screen.query_one('StatusBar').note = 'hi'\n"
        "        self.app.query('ChatPane')\n",
        "utf-8",
    )
    assert sorted(crossings(reaching)) == [
        "reaching.py:1 imports tui_assistant.wiring.lifecycle",
        "reaching.py:1 imports tui_assistant.wiring.lifecycle.LibraryLifecycle",
        "reaching.py:4 calls LibraryLifecycle",
        "reaching.py:5 calls screen.query_one",
        "reaching.py:6 calls app.query",
    ]


class PanelAlone(App[None]):
    """The library panel with nothing beside it: no status bar, chat or lifecycle."""

    def __init__(self) -> None:
        super().__init__()
        self.panel = LibraryPanel()
        self.chosen: list[str] = []

    def compose(self) -> ComposeResult:
        yield self.panel

    def on_passage_chosen(self, message: PassageChosen) -> None:
        self.chosen.append(message.passage_id)


async def test_the_library_panel_draws_the_library_it_is_given_and_posts_a_choice_up(
    tmp_path: Path,
) -> None:
    library = make_context(BUNDLED_LESSONS, tmp_path).library
    app = PanelAlone()
    async with app.run_test(size=(60, 12)) as pilot:
        app.panel.show_library(library)
        tree = app.panel.library_browser.library_tree
        await wait_until(pilot, lambda: len(labels(tree)) == 3)
        assert "Library (3 passages)" in str(app.panel.library_browser.border_title)
        tree.focus()
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.chosen != [])
        assert app.chosen == ["knife-care"]


async def test_the_screen_owns_the_library_and_the_app_asks_the_screen(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app) as pilot:
        await pilot.pause()
        assert app.main.loaded
        assert app.main.context is app.main.library.lifecycle.context
        assert app.main.load_error is None
        assert not hasattr(app.main.library_panel, "lifecycle")
        await pilot.press("ctrl+l", "down", "enter")
        await wait_until(pilot, lambda: app.main.evidence.passage is not None)
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == "knife-care"
