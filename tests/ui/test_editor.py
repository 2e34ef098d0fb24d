"""Opening the evidence passage in the user's editor, at its line."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import SuspendNotSupported

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    ask,
    concluded,
    make_app,
    make_context,
    note,
    running,
    status,
    wait_until,
)
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.editor import editor_command

SIZE = (100, 32)


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
        assert app.main.evidence.passage is not None
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
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
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


async def test_ctrl_o_without_an_editor_says_so_on_an_80_column_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.helpers.tui import status_line

    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path))
    async with running(app, (80, 24)) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: "no editor" in status_line(app))
        assert "$EDITOR" in status_line(app)
