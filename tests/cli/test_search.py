"""`tui-assistant search QUESTION`: the best passages with title, file:lines and the
sentence that best matches, the library's decision, `--json` one object per passage and
a last decision object, and a grep-like exit status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import write_lesson
from tui_assistant import cli
from tui_assistant.settings import load_settings
from tui_assistant.wiring.context import open_context
from tui_assistant.wiring.library_tools import LibraryTools

pytestmark = pytest.mark.usefixtures("clean_env")

KITCHEN = {
    "pasta": (
        "Salting pasta water",
        "Bring a large pot to the boil. Salt the pasta water generously: ten grams a litre.",
    ),
    "eggs": ("Boiling eggs", "Boil the eggs for nine minutes, then cool them in cold water."),
    "bread": ("Bread dough", "Knead the dough for ten minutes until it is smooth."),
}
GARDEN = {
    "compost": ("Compost", "Turn the compost heap every week so it stays warm and sweet."),
}
PASSAGE_KEYS = [
    "id",
    "title",
    "source_path",
    "line",
    "end_line",
    "page",
    "end_page",
    "url",
    "library",
    "score",
    "text",
]


@pytest.fixture
def kitchen(tmp_path: Path) -> Path:
    folder = tmp_path / "kitchen"
    folder.mkdir()
    for lesson_id, (title, text) in KITCHEN.items():
        write_lesson(folder, lesson_id, title, text)
    return folder


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[Any]]:
    status = cli.main(["search", "--json", *args])
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_passages_come_with_title_lines_and_the_best_sentence(
    kitchen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli.main(["search", "--library", str(kitchen), "how much salt for pasta water"])
    out = capsys.readouterr().out

    assert status == 0
    first = out.splitlines()[:3]
    assert first[0] == "1. Salting pasta water [pasta]"
    assert first[1].strip().startswith("kitchen/pasta.md:")
    # The sentence that best matches, not the passage's first one.
    assert first[2].strip() == "Salt the pasta water generously: ten grams a litre."
    assert out.splitlines()[-1].startswith("answered")


def test_json_is_one_object_per_passage_then_the_decision(
    kitchen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, rows = run_json(capsys, "--library", str(kitchen), "--limit", "2", "boil eggs")

    assert status == 0
    *passages, decision = rows
    assert 1 <= len(passages) <= 2
    assert all(list(row) == PASSAGE_KEYS for row in passages)
    assert passages[0]["id"] == "eggs"
    assert passages[0]["library"] == "kitchen"
    assert passages[0]["page"] is None and passages[0]["end_page"] is None
    assert decision == {"decision": "answered", "reason": None, "retrieval": "ranked"}


def test_nothing_plausibly_about_it_exits_1(
    kitchen: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, rows = run_json(capsys, "--library", str(kitchen), "quantum chromodynamics")

    assert status == 1
    assert rows[-1] == {"decision": "refused", "reason": "no_evidence", "retrieval": "ranked"}


def test_the_ranking_is_the_mcp_search_tools(
    kitchen: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garden = tmp_path / "garden"
    garden.mkdir()
    for lesson_id, (title, text) in GARDEN.items():
        write_lesson(garden, lesson_id, title, text)
    question = "how long do I boil the water for pasta and eggs"
    _, rows = run_json(capsys, "--library", str(kitchen), "--library", str(garden), question)

    context = open_context(load_settings([str(kitchen), str(garden)]))
    try:
        tool = LibraryTools(context).search(question, 5)
    finally:
        context.library.close()
    *passages, decision = rows
    assert [row["id"] for row in passages] == [passage.id for passage in tool.passages]
    assert [row["score"] for row in passages] == [passage.score for passage in tool.passages]
    assert decision["decision"] == tool.decision and decision["reason"] == tool.reason


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--limit", "0", "salt"], "--limit"),
        (["--limit", "11", "salt"], "--limit"),
        (["   "], "QUESTION"),
        (["x" * 4001], "QUESTION"),
        ([], "QUESTION"),
    ],
)
def test_a_bad_argument_exits_2_with_one_line(
    kitchen: Path, capsys: pytest.CaptureFixture[str], args: list[str], named: str
) -> None:
    status = cli.main(["search", "--library", str(kitchen), *args])
    captured = capsys.readouterr()

    assert status == 2
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert named in captured.err
