"""The commands over several libraries (`--library` given again, or a `:`-separated
TUI_ASSISTANT_LIBRARY): ids `NAME:ID` and `"library"` in every passage object, one
report per library, `status`, and `gaps` of the questions none could answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import write_lesson
from tui_assistant import cli

pytestmark = pytest.mark.usefixtures("clean_env")

KITCHEN = {
    "pasta": ("Salting pasta water", "Salt the pasta water generously: ten grams a litre."),
    "eggs": ("Boiling eggs", "Boil the eggs for nine minutes, then cool them in cold water."),
}
GARDEN = {
    "compost": ("Compost", "Turn the compost heap every week so it stays warm and sweet."),
    "pruning": ("Pruning roses", "Prune roses in late winter, above an outward bud."),
}


@pytest.fixture
def libraries(tmp_path: Path) -> list[str]:
    options = []
    for name, lessons in (("kitchen", KITCHEN), ("garden", GARDEN)):
        folder = tmp_path / name
        folder.mkdir()
        for lesson_id, (title, text) in lessons.items():
            write_lesson(folder, lesson_id, title, text)
        options += ["--library", str(folder)]
    return options


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert cli.main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_passages_are_named_by_library_with_ids_prefixed(
    libraries: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    rows = run_json(capsys, "passages", "--json", *libraries)
    assert [(row["id"], row["library"], row["source_path"]) for row in rows] == [
        ("kitchen:eggs", "kitchen", "kitchen/eggs.md"),
        ("kitchen:pasta", "kitchen", "kitchen/pasta.md"),
        ("garden:compost", "garden", "garden/compost.md"),
        ("garden:pruning", "garden", "garden/pruning.md"),
    ]


def test_ask_answers_from_any_library_and_says_which(
    libraries: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "keyword")
    assert cli.main(["ask", "--json", *libraries, "turn the compost heap", "boil the eggs"]) == 0
    compost, eggs = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (compost["passage_id"], compost["passages"][0]["library"]) == (
        "garden:compost",
        "garden",
    )
    assert eggs["passage_id"] == eggs["citations"][0] == "kitchen:eggs"


def test_the_setting_lists_named_libraries(
    libraries: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kitchen, garden = libraries[1], libraries[3]
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", f"home={kitchen}:{garden}")
    rows = run_json(capsys, "passages", "--json")
    assert {row["library"] for row in rows} == {"home", "garden"}
    assert rows[0]["id"] == "home:eggs"


def test_two_libraries_of_one_name_exit_2_with_one_line(
    tmp_path: Path, libraries: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "elsewhere" / "kitchen"
    other.mkdir(parents=True)
    assert cli.main(["passages", *libraries, "--library", str(other)]) == 2
    err = capsys.readouterr().err
    assert err == (
        "tui-assistant: error: --library: two libraries are named kitchen:"
        " name one of them as NAME=DIR\n"
    )
    # Named apart, they are two libraries.
    (other / "jam.md").write_text("# Jam\n\nBoil fruit with sugar.\n", encoding="utf-8")
    assert cli.main(["passages", *libraries, "--library", f"pantry={other}"]) == 0
    assert "pantry:jam" in capsys.readouterr().out


def test_the_library_report_is_one_per_library(
    libraries: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    report = run_json(capsys, "library", "--json", *libraries)
    assert [(lib["name"], lib["passages"]["total"]) for lib in report["libraries"]] == [
        ("kitchen", 2),
        ("garden", 2),
    ]
    assert cli.main(["library", *libraries]) == 0
    out = capsys.readouterr().out
    assert out.startswith("library: kitchen (") and "\n\nlibrary: garden (" in out


def test_status_lists_each_library_and_what_answers(
    libraries: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status = run_json(capsys, "status", "--json", *libraries)
    [kitchen, garden] = status["libraries"]
    assert set(kitchen) == {
        "name",
        "documents",
        "passages",
        "vectors",
        "embedding_model",
        "read_at",
        "watch",
        "retrieval",
        "embedding_problem",
        "package",
        "version",
        "origin",
        "fetched_at",
        "embedding_per_second",
        "embedding",
        "store",
    }
    assert kitchen["store"] == garden["store"] == "sqlite"
    # Folders, not fetched packages.
    assert (kitchen["package"], kitchen["version"], kitchen["origin"]) == (None, None, None)
    assert (kitchen["name"], kitchen["passages"], kitchen["retrieval"]) == ("kitchen", 2, "ranked")
    assert (garden["name"], garden["vectors"], garden["embedding_model"]) == ("garden", 0, None)
    assert cli.main(["status", *libraries]) == 0
    out = capsys.readouterr().out
    assert "library: garden\n" in out and "retrieval: ranked" in out
    assert "store: sqlite" in out


def test_gaps_lists_the_questions_no_library_answered_grouped_and_counted(
    libraries: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "keyword")
    assert cli.main(["gaps", *libraries]) == 0
    assert capsys.readouterr().out == "no question has gone unanswered yet\n"
    asked = ["roses", "Roses", "quantum chromodynamics", "turn the compost heap"]
    assert cli.main(["ask", *libraries, *asked]) == 0
    # eval never records its cases.
    cases = Path("cases.jsonl")
    cases.write_text('{"question": "roses", "expect_passage": null}\n', encoding="utf-8")
    assert cli.main(["eval", str(cases), *libraries]) == 0
    capsys.readouterr()
    groups = run_json(capsys, "gaps", "--json", *libraries)["groups"]
    assert [(g["library"], g["nearest"] and g["nearest"]["id"], g["count"]) for g in groups] == [
        ("garden", "garden:pruning", 2),
        ("kitchen", None, 1),  # near no passage: kept in every library searched
        ("garden", None, 1),
    ]
    assert groups[0]["questions"][0]["question"] == "Roses"
    assert groups[0]["questions"][0]["count"] == 2
    assert cli.main(["gaps", *libraries]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("garden: asked 2 times, last ")
    assert "near Pruning roses [garden:pruning] garden/pruning.md:1\N{EN DASH}3" in out
    assert "  2\N{MULTIPLICATION SIGN} Roses (no_evidence)" in out


def test_gaps_are_not_recorded_when_turned_off(
    libraries: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_GAPS", "false")
    assert cli.main(["ask", *libraries, "roses"]) == 0
    capsys.readouterr()
    assert cli.main(["gaps", *libraries]) == 0
    assert capsys.readouterr().out == (
        "no question has gone unanswered yet (TUI_ASSISTANT_GAPS is false: none are recorded)\n"
    )
