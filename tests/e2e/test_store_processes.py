"""Several processes on one index store: four `ask` started together on a cold store all
answer, and what they leave behind is a complete store."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import BUNDLED_LESSONS, cli_env
from tui_assistant.core.words import stem
from tui_assistant.store import updates as store
from tui_assistant.store.index_store import open_library

QUESTIONS = ["How much salt goes in pasta water?", "How long do I boil eggs for a runny yolk?"]


def test_processes_starting_together_on_a_cold_store_all_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The three bundled lessons and forty filler documents, so indexing takes a while.
    folder = tmp_path / "lessons"
    folder.mkdir()
    for lesson in BUNDLED_LESSONS.glob("*.md"):
        (folder / lesson.name).write_bytes(lesson.read_bytes())
    for n in range(40):
        (folder / f"doc{n:02d}.md").write_text(f"# Document {n}\n\n" + f"topic{n} here. " * 200)
    data_dir = tmp_path / "data"
    command = [sys.executable, "-m", "tui_assistant", "ask", "--json", "--library", str(folder)]
    processes = [
        subprocess.Popen(
            [*command, *QUESTIONS],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(data_dir),
            cwd=tmp_path,
        )
        for _ in range(4)
    ]
    texts = open_library(folder, None, stem)
    for process in processes:
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr
        assert "warning" not in stderr
        rows = [json.loads(line) for line in stdout.splitlines()]
        assert [(row["outcome"], row["lesson_id"]) for row in rows] == [
            ("answered", "pasta-water"),
            ("answered", "boiled-eggs"),
        ]
        assert rows[0]["answer"] == texts.get("pasta-water").text
        assert rows[0]["source_path"] == "lessons/pasta-water.md"

    # Nothing was lost or left half-written: a warm open reads no file.
    def unexpected_read(folder: Path, relative_path: str) -> None:
        raise AssertionError(f"{relative_path} was read again")

    monkeypatch.setattr(store, "read_document", unexpected_read)
    library = open_library(folder, data_dir, stem)
    assert len(library) == 43
    assert library.get("pasta-water").text == texts.get("pasta-water").text
