"""Opening the evidence passage in the user's editor, at its line."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import SuspendNotSupported

from tests.core.documents.test_pdf import boiler_manual
from tests.helpers import BUNDLED_LESSONS
from tests.helpers.pdf_files import pdf_bytes
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
from tui_assistant.ui.editor import editor_command, open_pdf, pdf_viewer_command
from tui_assistant.ui.hooks import AppHooks

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
    app = RecordingApp(context.settings, hooks=AppHooks(start=lambda settings, progress: context))
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
    app = RecordingApp(context.settings, hooks=AppHooks(start=lambda settings, progress: context))
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


# -- PDF documents open in a viewer, at their page ----------------------------------


def test_known_pdf_viewers_are_told_the_page_and_others_get_the_file(tmp_path: Path) -> None:
    path = tmp_path / "manual.pdf"
    shown = str(path)

    def command(viewer: str) -> tuple[list[str], bool] | None:
        return pdf_viewer_command({"PDF_VIEWER": viewer, "PATH": ""}, path, 12)

    assert command("zathura") == (["zathura", "--page=12", shown], True)
    assert command("/usr/bin/evince") == (["/usr/bin/evince", "--page-index=12", shown], True)
    assert command("okular --unique") == (["okular", "--unique", "--page", "12", shown], True)
    assert command("mupdf") == (["mupdf", shown, "12"], True)
    assert command("'/opt/My Viewer/view' -x") == (["/opt/My Viewer/view", "-x", shown], False)


def test_without_pdf_viewer_the_system_opener_shows_the_file(tmp_path: Path) -> None:
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    for name in ("xdg-open", "open"):
        (bin_folder / name).write_text("#!/bin/sh\n", encoding="utf-8")
        (bin_folder / name).chmod(0o755)
    path = tmp_path / "manual.pdf"
    environ = {"PATH": str(bin_folder)}

    assert pdf_viewer_command(environ, path, 3, "linux") == (
        [str(bin_folder / "xdg-open"), str(path)],
        False,
    )
    assert pdf_viewer_command(environ, path, 3, "darwin") == (
        [str(bin_folder / "open"), str(path)],
        False,
    )
    assert pdf_viewer_command({"PATH": str(tmp_path / "none")}, path, 3, "linux") is None


def test_open_pdf_says_which_page_when_the_viewer_cannot_be_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "manual.pdf"
    started: list[list[str]] = []
    monkeypatch.setenv("PDF_VIEWER", "zathura")
    assert open_pdf(path, 12, started.append) == "opened manual.pdf at page 12"
    monkeypatch.setenv("PDF_VIEWER", "some-viewer")
    assert open_pdf(path, 12, started.append) == "opened manual.pdf: go to page 12"
    assert started == [["zathura", "--page=12", str(path)], ["some-viewer", str(path)]]
    monkeypatch.delenv("PDF_VIEWER")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert open_pdf(path, 12, started.append) == (
        "no PDF viewer (set $PDF_VIEWER): open manual.pdf at page 12"
    )

    def refused(argv: list[str]) -> None:
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setenv("PDF_VIEWER", "zathura")
    assert open_pdf(path, 12, refused) == (
        "PDF viewer zathura did not start: No such file or directory"
    )


async def test_ctrl_o_opens_a_pdf_passage_in_the_viewer_at_its_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "manuals"
    folder.mkdir()
    (folder / "boiler.pdf").write_bytes(pdf_bytes(boiler_manual()))
    viewer_folder = tmp_path / "viewer"
    viewer_folder.mkdir()
    viewer, record = recording_editor(viewer_folder)
    zathura = viewer_folder / "zathura"  # a viewer known to take a page
    viewer.rename(zathura)
    monkeypatch.setenv("PDF_VIEWER", str(zathura))
    context = make_context(folder, tmp_path / "data")
    app = RecordingApp(context.settings, hooks=AppHooks(start=lambda settings, progress: context))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "what pressure should the boiler be at")
        await wait_until(pilot, lambda: concluded(app))
        shown = app.main.evidence.passage
        assert shown is not None and shown.page == 2
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: record.exists() and record.stat().st_size > 0)
        assert record.read_text(encoding="utf-8").splitlines() == [
            "--page=2",
            str(folder / "boiler.pdf"),
        ]
        assert note(app) == "opened boiler.pdf at page 2"


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
