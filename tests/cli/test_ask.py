"""`tui-assistant ask` (and `passages`) in process: the support check per mode, with a
scripted provider injected instead of the network; every `ask --json` field; the old
and new names of options, settings and commands; retrieval modes and refusals."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import (
    BUNDLED_LESSONS,
    KNIFE_LESSONS,
    SALT_FAITHFUL,
    SALT_INVENTED,
    SCRIPT,
    ScriptedProvider,
)
from tui_assistant import cli


@pytest.mark.parametrize(
    ("mode", "outcome", "reason", "support"),
    [
        ("warn", "answered", None, {"supported": False, "unsupported_sentences": [SALT_INVENTED]}),
        ("strict", "refused", "unsupported", None),
        ("off", "answered", None, None),
    ],
)
def test_ask_json_shows_the_support_check_per_mode(
    model_mode: Callable[[str, Mapping[str, str]], ScriptedProvider],
    capsys: pytest.CaptureFixture[str],
    mode: str,
    outcome: str,
    reason: str | None,
    support: dict[str, Any] | None,
) -> None:
    model_mode(mode, SCRIPT)
    assert cli.main(["ask", "--json", "How much salt goes in pasta water?"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["outcome"], result["reason"], result["support"]) == (outcome, reason, support)
    assert result["lesson_id"] == "pasta-water"


def test_ask_readable_output_lists_unsupported_sentences_in_warn_mode(
    model_mode: Callable[[str, Mapping[str, str]], ScriptedProvider],
    capsys: pytest.CaptureFixture[str],
) -> None:
    model_mode("warn", SCRIPT)
    assert cli.main(["ask", "How much salt goes in pasta water?"]) == 0
    out = capsys.readouterr().out
    assert "not backed by the passage:" in out
    assert f"  ! {SALT_INVENTED}" in out
    assert f"  ! {SALT_FAITHFUL}" not in out


# -- names old and new, retrieval modes, and every field of `ask --json` ------------

ASK_JSON_FIELDS = {
    "question",
    "outcome",
    "reason",
    "retrieval",
    "passage_id",
    "lesson_id",
    "title",
    "source_path",
    "line",
    "end_line",
    "page",
    "end_page",
    "url",
    "passages",
    "nearest",
    "answer",
    "citations",
    "quotes",
    "support",
    "elapsed_ms",
    "chosen_by",
    "detail",
}
PASSAGE_FIELDS = {
    "id", "title", "source_path", "line", "end_line", "library", "page", "end_page", "url"
}  # fmt: skip


def ask_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    assert cli.main(["ask", "--json", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.usefixtures("clean_env")
def test_ask_json_has_every_documented_field_when_answered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    (row,) = ask_json(capsys, "How much salt goes in pasta water?")
    assert row.keys() >= ASK_JSON_FIELDS
    assert (row["outcome"], row["reason"], row["retrieval"]) == ("answered", None, "ranked")
    assert row["passage_id"] == row["lesson_id"] == "pasta-water"
    assert row["source_path"] == "lessons/pasta-water.md"
    assert isinstance(row["line"], int) and row["line"] <= row["end_line"]
    # Deterministic mode answers from one passage, the one named at the top level and
    # listed first; its runners-up follow, one key away in the evidence panel.
    shown = row["passages"][0]
    assert len({passage["id"] for passage in row["passages"]}) == len(row["passages"])
    assert shown.keys() == PASSAGE_FIELDS
    assert {key: shown[key] for key in PASSAGE_FIELDS} == {
        "id": row["passage_id"],
        "title": row["title"],
        "source_path": row["source_path"],
        "line": row["line"],
        "end_line": row["end_line"],
        # With one library, "library" is its name (its folder's, as a slug).
        "library": "lessons",
        # Pages are a PDF passage's only.
        "page": None,
        "end_page": None,
        # A URL is a fetched website's passages' only.
        "url": None,
    }
    assert (row["page"], row["end_page"], row["url"]) == (None, None, None)
    assert (row["nearest"], row["quotes"], row["support"]) == ([], [], None)
    assert row["citations"] == ["pasta-water"]
    assert (row["chosen_by"], row["detail"]) == ("library", None)
    # Deterministic mode answers with the passage's own text.
    assert row["answer"] and row["answer"] in (BUNDLED_LESSONS / "pasta-water.md").read_text()


def test_a_refusal_names_up_to_five_nearest_passages_and_why(
    clean_env: Path,
    capsys: pytest.CaptureFixture[str],
    make_library: Callable[..., Path],
) -> None:
    folder = make_library(
        {
            "first": ("First", "Boil the eggs."),
            "second": ("Second", "Boil more eggs."),
            "third": ("Third", "Boil water."),
            "fourth": ("Fourth", "Boil milk."),
        }
    )
    args = ["--library", str(folder), "--retrieval", "keyword", "boil eggs"]
    (row,) = ask_json(capsys, *args)
    assert row.keys() >= ASK_JSON_FIELDS
    assert (row["outcome"], row["reason"], row["retrieval"]) == (
        "refused",
        "no_evidence",
        "keyword",
    )
    assert row["passage_id"] is row["lesson_id"] is None
    assert row["passages"] == [] and row["answer"] is None and row["citations"] == []
    nearest = row["nearest"]
    assert len(nearest) == 4
    assert all(near.keys() == PASSAGE_FIELDS for near in nearest)
    assert {near["id"] for near in nearest[:2]} == {"first", "second"}
    assert all(near["source_path"].startswith("lessons/") for near in nearest)
    # The readable output says why in plain words, and lists the places to look.
    assert cli.main(["ask", *args]) == 0
    readable = capsys.readouterr().out
    assert "refused: two passages match equally well" in readable
    listed = readable.split("not an answer: closest passages\n", 1)[1].splitlines()
    assert [line.split("[")[1].split("]")[0] for line in listed[:4]] == [
        near["id"] for near in nearest
    ]


@pytest.mark.usefixtures("clean_env")
def test_a_question_of_no_library_word_offers_no_nearest_passage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    (row,) = ask_json(capsys, "What is the capital of Australia?")
    assert (row["reason"], row["nearest"]) == ("no_evidence", [])
    assert cli.main(["ask", "What is the capital of Australia?"]) == 0
    assert "refused: no passage shares a word with the question" in capsys.readouterr().out


@pytest.mark.usefixtures("clean_env")
def test_a_5_mb_question_is_refused_as_too_long_before_retrieval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    huge = "How much salt goes in pasta water? " * (5 * 1024 * 1024 // 35)
    rows = ask_json(capsys, huge, "x" * 4000)
    refusal, longest_allowed = rows
    assert (refusal["outcome"], refusal["reason"]) == ("refused", "too_long")
    # Nothing was retrieved: no mode, no passage, nowhere to look.
    assert refusal["retrieval"] is None
    assert refusal["passage_id"] is refusal["lesson_id"] is None
    assert (refusal["passages"], refusal["nearest"]) == ([], [])
    assert longest_allowed["reason"] != "too_long"
    assert cli.main(["ask", huge]) == 0
    out = capsys.readouterr().out
    assert "refused: the question is over 4,000 characters" in out
    assert len(out) < 2000


def test_the_retrieval_option_overrides_the_setting_and_is_reported(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    make_library: Callable[..., Path],
) -> None:
    folder = str(make_library(KNIFE_LESSONS))
    question = "How do I sharpen a ceramic knife?"  # keyword ties; ranked ranks it first

    def first_shown(row: dict[str, Any]) -> str:
        return str(row["passage_id"] or row["nearest"][0]["id"])

    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "ranked")
    (from_setting,) = ask_json(capsys, "--library", folder, question)
    (from_option,) = ask_json(capsys, "--library", folder, "--retrieval", "keyword", question)
    assert (from_setting["retrieval"], first_shown(from_setting)) == ("ranked", "ceramic-knives")
    assert (from_option["retrieval"], from_option["reason"]) == ("keyword", "no_evidence")
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "keyword")
    (back,) = ask_json(capsys, "--retrieval", "ranked", "--library", folder, question)
    assert (back["retrieval"], first_shown(back)) == ("ranked", "ceramic-knives")


@pytest.mark.usefixtures("clean_env")
def test_an_unknown_retrieval_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ask", "--retrieval", "bm25", "salt"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert "--retrieval" in line and "Traceback" not in captured.err


@pytest.mark.parametrize("option", ["--library", "--lessons"])
def test_the_library_option_and_its_old_name_choose_the_folder(
    clean_env: Path,
    capsys: pytest.CaptureFixture[str],
    make_library: Callable[..., Path],
    option: str,
) -> None:
    folder = make_library(KNIFE_LESSONS, name="knives")
    (row,) = ask_json(capsys, option, str(folder), "Which knife saws through crust?")
    assert row["passage_id"] == "bread"
    assert row["source_path"] == "knives/bread.md"


@pytest.mark.parametrize("name", ["TUI_ASSISTANT_LIBRARY", "TUI_ASSISTANT_LESSONS_DIR"])
def test_the_library_setting_and_its_old_name_choose_the_folder(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    make_library: Callable[..., Path],
    name: str,
) -> None:
    monkeypatch.setenv(name, str(make_library(KNIFE_LESSONS, name="knives")))
    (row,) = ask_json(capsys, "Which knife saws through crust?")
    assert row["source_path"] == "knives/bread.md"


@pytest.mark.parametrize("count", ["0", "9"])
def test_passages_outside_one_to_five_exit_2_with_one_line_naming_the_setting(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    count: str,
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PASSAGES", count)
    Path("cases.jsonl").write_text('{"question": "salt", "expect_passage": null}\n')
    for command in (["ask", "salt"], ["passages"], ["eval", "cases.jsonl"]):
        assert cli.main(command) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        (line,) = captured.err.splitlines()
        assert "TUI_ASSISTANT_PASSAGES" in line
        assert "1 to 5" in line


@pytest.mark.usefixtures("clean_env")
def test_passages_and_its_old_name_lessons_list_the_same(
    capsys: pytest.CaptureFixture[str],
) -> None:
    listings = []
    for command in ("passages", "lessons"):
        assert cli.main([command, "--json"]) == 0
        listings.append(json.loads(capsys.readouterr().out))
    new, old = listings
    assert new == old
    assert {row["id"] for row in new} >= {"pasta-water", "boiled-eggs", "knife-care"}
    assert all(row.keys() == PASSAGE_FIELDS for row in new)
    for command in ("passages", "lessons"):
        assert cli.main([command]) == 0
        listings.append(capsys.readouterr().out)
    assert listings[2] == listings[3]
    assert "pasta-water" in listings[2]


@pytest.mark.usefixtures("clean_env")
def test_an_unsure_question_shows_the_best_passage_s_sentences_and_lists_the_others(
    capsys: pytest.CaptureFixture[str], make_library: Callable[..., Path]
) -> None:
    long_text = (
        "Rinse the rice until the water runs clear.\n\n\n\n"
        "Simmer the rice gently, lid on, for twelve minutes.\n"
        "Then let it stand. " + "Fluffy grains need patience. " * 40
    )
    folder = make_library(
        {
            "first": ("Rice", long_text),
            "second": ("Rice", long_text),
            "other": ("Bread", "Bake the loaf in a hot oven."),
        }
    )
    args = ["--library", str(folder), "--retrieval", "ranked", "simmer rice"]
    (row,) = ask_json(capsys, *args)
    # The JSON agents read is unchanged.
    assert (row["outcome"], row["reason"]) == ("refused", "ambiguous")
    assert row["passage_id"] is None and row["passages"] == []
    assert [near["id"] for near in row["nearest"]] == ["first", "second"]
    assert cli.main(["ask", *args]) == 0
    readable = capsys.readouterr().out
    lines = readable.splitlines()
    assert lines[1] == "not sure: 2 possible passages, best first"
    assert "refused" not in readable
    numbered = [line for line in lines if line[:1].isdigit()]
    assert [line.split("[")[1].split("]")[0] for line in numbered] == ["first", "second"]
    best = lines[lines.index(numbered[0]) + 1 : lines.index(numbered[1])]
    assert best[0].strip().endswith("first.md:1\u20138")
    # The sentence that matches, not the whole passage.
    assert "Simmer the rice gently, lid on, for twelve minutes." in best[1]
    assert "patience" not in readable and len(best[1]) < 200


@pytest.mark.usefixtures("clean_env")
def test_readable_answers_show_one_blank_line_where_the_file_has_several(
    capsys: pytest.CaptureFixture[str], make_library: Callable[..., Path]
) -> None:
    text = "Bleed the radiators once a year.\n\n\n\n\nTop up the pressure to 1.5 bar."
    folder = make_library({"boiler": ("Boiler", text)})
    args = ["--library", str(folder), "--retrieval", "keyword", "bleed the radiators"]
    assert cli.main(["ask", *args]) == 0
    readable = capsys.readouterr().out
    assert "Bleed the radiators once a year.\n\nTop up the pressure to 1.5 bar." in readable
    assert "\n\n\n" not in readable
