"""The library in the app: the tree browser, opening a passage in an editor, indexing
progress before `ready`, and reloading with ctrl+r."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import SuspendNotSupported
from textual.widgets import Static

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    HangingProvider,
    SlowStart,
    ask,
    make_app,
    make_context,
    note,
    running,
    status,
    wait_until,
)
from tui_assistant.core.library import LibraryError
from tui_assistant.settings import Settings
from tui_assistant.ui.app import AssistantApp, run_app
from tui_assistant.ui.editor import editor_command
from tui_assistant.ui.lesson_browser import DocumentData, FolderData, LessonTree, PassageData

SIZE = (100, 32)

NESTED = {
    "intro.md": "# Intro\n\nWelcome to the library.\n",
    "cooking/eggs.md": "# Boiled eggs\n\nSix minutes for a runny yolk.\n",
    "cooking/pasta.md": (
        "# Pasta\n\nDried pasta keeps.\n\n"
        "## Salting the water\n\nTen grams of salt per litre.\n\n"
        "## Cooking time\n\nTaste early.\n"
    ),
    "kitchen/knives/sharpening.md": (
        "# Sharpening\n\n## Honing\n\nUse a steel.\n\n## Whetstones\n\nSoak the stone.\n"
    ),
}


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    for relative, text in NESTED.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def labels(tree: LessonTree) -> list[str]:
    """The visible lines of the tree, indented two spaces per level."""
    shown: list[str] = []

    def walk(node: object, depth: int) -> None:
        from textual.widgets.tree import TreeNode

        assert isinstance(node, TreeNode)
        for child in node.children:
            shown.append("  " * depth + str(child.label))
            if child.is_expanded:
                walk(child, depth + 1)

    walk(tree.root, 0)
    return shown


def evidence_text(app: AssistantApp) -> str:
    return "\n".join(str(static.render()) for static in app.evidence.query(Static))


# -- the tree ---------------------------------------------------------------------


async def test_tree_shows_folders_first_and_opens_them_with_right_and_left(
    nested: Path, tmp_path: Path
) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l")
        tree = app.lesson_browser.lesson_tree
        assert app.focused is tree
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert "7 passages" in str(app.status_bar.query_one("#status-mode", Static).render())

        await pilot.press("right")  # open cooking/
        assert labels(tree) == ["cooking/", "  Boiled eggs", "  Pasta", "kitchen/", "Intro"]
        await pilot.press("down", "down", "right")  # open Pasta: its sections
        assert labels(tree)[3:6] == ["    Pasta", "    Salting the water", "    Cooking time"]
        await pilot.press("right", "down", "enter")  # first section, then the next
        assert app.evidence.passage is not None
        assert app.evidence.passage.id == "cooking/pasta#salting-the-water"
        shown = evidence_text(app)
        assert "Pasta › Salting the water" in shown
        assert "cooking/pasta#salting-the-water" in shown
        assert "library/cooking/pasta.md:5\u20137" in shown
        assert "Ten grams of salt per litre." in shown

        await pilot.press("left")  # on a leaf: up to its document
        assert isinstance(tree.cursor_node and tree.cursor_node.data, DocumentData)
        await pilot.press("left")  # close the document
        assert labels(tree) == ["cooking/", "  Boiled eggs", "  Pasta", "kitchen/", "Intro"]
        await pilot.press("left", "left")  # up to cooking/, then close it
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert isinstance(tree.cursor_node and tree.cursor_node.data, FolderData)


async def test_enter_on_a_document_shows_its_first_passage(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", "down", "down", "enter")  # Intro, a leaf
        assert app.evidence.passage is not None and app.evidence.passage.id == "intro"
        await pilot.press("up", "up", "enter", "down", "down", "enter")  # cooking/, Pasta
        assert app.evidence.passage.id == "cooking/pasta"


async def test_typing_filters_the_tree_with_ancestors_opened(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", *"whet")
        tree = app.lesson_browser.lesson_tree
        assert labels(tree) == ["kitchen/", "  knives/", "    Sharpening", "      Whetstones"]
        assert "filter: whet (1)" in str(app.lesson_browser.border_subtitle)
        # The cursor is on the match: enter shows it.
        assert isinstance(tree.cursor_node and tree.cursor_node.data, PassageData)
        await pilot.press("enter")
        assert app.evidence.passage is not None
        assert app.evidence.passage.id == "kitchen/knives/sharpening#whetstones"

        await pilot.press("backspace", "backspace", "backspace", "backspace", *"salt")
        assert labels(tree) == ["cooking/", "  Pasta", "    Salting the water"]
        await pilot.press(*"zzz")
        assert labels(tree) == []
        assert "filter: saltzzz (0)" in str(app.lesson_browser.border_subtitle)
        for _ in "saltzzz":
            await pilot.press("backspace")
        assert labels(tree) == ["cooking/", "kitchen/", "Intro"]
        assert "type to filter" in str(app.lesson_browser.border_subtitle)


# -- open in editor -----------------------------------------------------------------


def test_editor_command_prefers_visual_and_splits_like_a_shell(tmp_path: Path) -> None:
    path = tmp_path / "doc.md"
    assert editor_command({}, path, 3) is None
    assert editor_command({"EDITOR": "  "}, path, 3) is None
    assert editor_command({"EDITOR": "vi"}, path, 3) == ["vi", "+3", str(path)]
    assert editor_command({"EDITOR": "vi", "VISUAL": "code --wait"}, path, 7) == [
        "code",
        "--wait",
        "+7",
        str(path),
    ]
    assert editor_command({"EDITOR": "'/opt/my editor/ed' -n"}, path, 1) == [
        "/opt/my editor/ed",
        "-n",
        "+1",
        str(path),
    ]


class RecordingApp(AssistantApp):
    """Runs the editor without suspending (a headless test has no terminal to give up)."""

    def run_in_terminal(self, argv: list[str]) -> int:
        self.ran = argv
        return subprocess.run(argv, check=False).returncode


def recording_editor(tmp_path: Path) -> tuple[Path, Path]:
    """A script that writes its arguments, one per line, to a file."""
    record = tmp_path / "argv.txt"
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys\n"
        f"open({str(record)!r}, 'w', encoding='utf-8').write('\\n'.join(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    wrapper = tmp_path / "editor"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} {script} "$@"\n', encoding="utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return wrapper, record


async def test_ctrl_o_opens_the_evidence_passage_at_its_line(
    nested: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor, record = recording_editor(tmp_path)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(editor))
    context = make_context(nested, tmp_path / "data")
    app = RecordingApp(context.settings, start=lambda settings, progress: context)
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", "right", "down", "down", "right", "right", "down", "enter")
        assert app.evidence.passage is not None
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: record.exists())
        assert record.read_text(encoding="utf-8").splitlines() == [
            "+5",
            str(nested / "cooking" / "pasta.md"),
        ]
        assert "back from the editor" in note(app)


async def test_ctrl_o_without_an_editor_or_a_passage_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+o")
        assert note(app) == "no passage shown to open"
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: status(app) == "answered")
        await pilot.press("ctrl+o")
        assert note(app) == "no editor: set $VISUAL or $EDITOR"
        assert status(app) == "answered"  # the outcome stays in view
        assert app.is_running


async def test_an_editor_that_cannot_start_or_suspend_is_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
    context = make_context(BUNDLED_LESSONS, tmp_path / "data")
    app = RecordingApp(context.settings, start=lambda settings, progress: context)
    async with running(app, SIZE) as pilot:
        await pilot.press("ctrl+l", "enter", "ctrl+o")
        assert note(app).startswith("editor ") and "did not start" in note(app)
        assert app.is_running

    # The real `run_in_terminal` under run_test: the headless driver cannot suspend.
    plain = make_app(make_context(BUNDLED_LESSONS, tmp_path / "data"))
    async with running(plain, SIZE) as pilot:
        with pytest.raises(SuspendNotSupported):
            plain.run_in_terminal(["true"])
        await pilot.press("ctrl+l", "enter", "ctrl+o")
        assert note(plain) == "cannot open an editor: this terminal cannot be suspended"
        assert plain.is_running


# -- loading and reloading ----------------------------------------------------------


async def test_progress_is_shown_before_ready_and_questions_wait(tmp_path: Path) -> None:
    context = make_context(BUNDLED_LESSONS, tmp_path)
    slow = SlowStart(context)
    app = AssistantApp(context.settings, start=slow, cursor_blink=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: status(app) == "indexing 1,200/20,000 files")
            assert not app.loaded
            await ask(pilot, "how much salt for pasta water")
            assert app.question_box.value == "how much salt for pasta water"
            assert "ask again once the library is loaded" in note(app)
            assert app.turns == []
            slow.release.set()
            await wait_until(pilot, lambda: status(app) == "ready")
            assert "3 passages" in str(app.status_bar.query_one("#status-mode", Static).render())
            await pilot.press("enter")
            await wait_until(pilot, lambda: status(app) == "answered")
    finally:
        slow.release.set()


async def test_a_missing_library_folder_ends_the_app_with_status_2(tmp_path: Path) -> None:
    settings = Settings(lessons_dir=tmp_path / "missing", data_dir=tmp_path / "data")
    app = AssistantApp(settings, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 2
    assert isinstance(app.load_error, LibraryError)
    assert "does not exist" in str(app.load_error)


def test_run_app_raises_the_load_error_for_the_cli(tmp_path: Path) -> None:
    settings = Settings(lessons_dir=tmp_path / "missing", data_dir=tmp_path / "data")
    with pytest.raises(LibraryError, match="does not exist"):
        run_app(settings, headless=True)


async def test_ctrl_r_picks_up_an_added_file(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        (nested / "cooking" / "rice.md").write_text("# Rice\n\nRinse it first.\n")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reloaded"))
        assert note(app) == "reloaded: 8 passages (+1)"
        assert status(app) == "ready"
        assert "8 passages" in str(app.status_bar.query_one("#status-mode", Static).render())
        await pilot.press("ctrl+l", "right")
        assert "  Rice" in labels(app.lesson_browser.lesson_tree)
        await pilot.press("escape")
        await ask(pilot, "rinse rice first")
        await wait_until(pilot, lambda: status(app) == "answered")
        assert app.evidence.passage is not None and app.evidence.passage.id == "cooking/rice"


async def test_a_failed_reload_keeps_the_loaded_library(nested: Path, tmp_path: Path) -> None:
    app = make_app(make_context(nested, tmp_path / "data"))
    async with running(app, SIZE) as pilot:
        moved = nested.with_name("moved")
        os.rename(nested, moved)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reload failed"))
        assert "does not exist" in note(app)
        assert len(app.context.library) == 7
        await ask(pilot, "ten grams salt litre")
        await wait_until(pilot, lambda: status(app) == "answered")


async def test_reload_is_refused_while_a_question_is_in_flight(tmp_path: Path) -> None:
    provider = HangingProvider()
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, provider))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: provider.started.is_set())
        await pilot.press("ctrl+r")
        assert note(app) == "reload after the answer: a question is in flight"
        assert not app.reloading
        await pilot.press("escape")
        assert status(app) == "cancelled"
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: note(app).startswith("reloaded"))
