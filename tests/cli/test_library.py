"""`tui-assistant library` in process: the report of what a folder holds, as JSON and
as lines; the store it names is the one in the data folder; the vectors' state is read
from the store without loading or fetching a model; errors exit 2 on one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS, write_lesson
from tests.helpers import library_report as report
from tui_assistant import cli


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", "Salt the water well.")
    (folder / "guide.md").write_text("# Guide\n\nIntro.\n\n## Install\n\nRun the installer.\n")
    (folder / "latin1.md").write_bytes("# Café\n\nCrème.\n".encode("latin-1"))
    (folder / ".obsidian").mkdir()
    return folder


def test_the_json_report_counts_what_the_folder_holds(
    clean_env: Path, notes: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["library", "--library", str(notes), "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)

    assert data["library"] == str(notes)
    assert data["documents"] == {
        "total": 2,
        "by_kind": {"md": 2, "rst": 0, "txt": 0, "html": 0, "pdf": 0, "man": 0, "py": 0},
    }
    assert data["passages"]["total"] == 3
    assert data["skipped"]["total"] == 2
    assert data["skipped"]["by_reason"]["not_utf8"] == 1
    assert data["skipped"]["by_reason"]["hidden"] == 1
    (store,) = (clean_env / "libraries").glob("*.sqlite3")
    assert data["store"]["path"] == str(store)
    assert data["store"]["bytes"] >= store.stat().st_size > 0
    assert data["retrieval"] == "ranked"
    assert data["vectors"]["state"] == "off"
    assert data["vectors"]["total"] == 3
    # The skipped files are in the report, not repeated as warnings.
    assert captured.err == ""


def test_the_readable_report_is_lines_a_person_reads(
    clean_env: Path, notes: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["library", "--library", str(notes)]) == 0
    lines = capsys.readouterr().out.splitlines()

    assert lines[:4] == [
        f"library: notes ({notes})",
        "documents: 2 (md 2)",
        "passages: 3 (md 3)",
        "skipped: 2 files",
    ]
    assert "    latin1.md" in lines and "    .obsidian/" in lines
    assert "vectors: off (TUI_ASSISTANT_RETRIEVAL is ranked)" in lines


def test_retrieval_is_taken_from_the_option(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = report(capsys, "--library", str(BUNDLED_LESSONS), "--retrieval", "keyword")

    assert data["retrieval"] == "keyword"
    assert data["vectors"]["reason"] == "TUI_ASSISTANT_RETRIEVAL is keyword"


def test_a_missing_folder_is_one_error_line_and_exit_2(
    clean_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["library", "--library", str(tmp_path / "nowhere"), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert line.startswith("tui-assistant: error: library folder") and "nowhere" in line


def test_restructuredtext_and_text_documents_count_under_their_kind(
    clean_env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", "Salt the water well.")
    (folder / "guide.rst").write_text("Guide\n=====\n\nIntro.\n\nInstall\n-------\n\nRun it.\n")
    (folder / "faq.rst.txt").write_text("FAQ\n===\n\nAsk away.\n")
    (folder / "boiler.txt").write_text("Boiler notes\n\nKeep it at one bar.\n")

    data = report(capsys, "--library", str(folder))
    assert data["documents"]["by_kind"] == {
        "md": 1,
        "rst": 2,
        "txt": 1,
        "html": 0,
        "pdf": 0,
        "man": 0,
        "py": 0,
    }
    assert data["passages"]["by_kind"]["rst"] == 3

    monkeypatch.setenv("TUI_ASSISTANT_DOCUMENT_TYPES", "md")
    only_markdown = report(capsys, "--library", str(folder))
    assert only_markdown["documents"]["by_kind"] == {
        "md": 1,
        "rst": 0,
        "txt": 0,
        "html": 0,
        "pdf": 0,
        "man": 0,
        "py": 0,
    }
