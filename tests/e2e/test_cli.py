"""The headless CLI as a user's script runs it: `ask`, `lessons`, `--version`, exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import KNIFE_LESSONS, CliResult, write_lesson
from tui_assistant import __version__

RunCli = Callable[..., CliResult]

ASK_JSON_FIELDS = {
    "question",
    "outcome",
    "reason",
    "lesson_id",
    "title",
    "source_path",
    "line",
    "end_line",
    "answer",
    "citations",
    "support",
    "elapsed_ms",
}


def test_ask_json_from_stdin_is_one_conversation_with_a_follow_up(run_cli: RunCli) -> None:
    questions = [
        "How much salt should I add to pasta water?",
        "",
        "What is the capital of France?",
        "repeat that",
        "How long should I boil eggs for a runny yolk?",
    ]
    result = run_cli("ask", "--json", input="\n".join(questions) + "\n")
    assert result.returncode == 0, result.stderr
    answers = result.json_lines()
    assert [a["question"] for a in answers] == [q for q in questions if q]
    for answer in answers:
        assert set(answer) >= ASK_JSON_FIELDS
    pasta, france, repeat, eggs = answers
    assert (pasta["outcome"], pasta["lesson_id"], pasta["citations"]) == (
        "answered",
        "pasta-water",
        ["pasta-water"],
    )
    assert pasta["source_path"] == "lessons/pasta-water.md"
    assert (pasta["line"], pasta["end_line"]) == (1, 11)
    assert pasta["reason"] is None and pasta["support"] is None
    assert (france["outcome"], france["reason"], france["answer"]) == (
        "refused",
        "no_evidence",
        None,
    )
    assert france["lesson_id"] is None and france["citations"] == []
    assert france["source_path"] is None
    assert france["line"] is None and france["end_line"] is None
    assert (repeat["outcome"], repeat["lesson_id"], repeat["answer"]) == (
        "answered",
        "pasta-water",
        pasta["answer"],
    )
    assert eggs["lesson_id"] == "boiled-eggs"


def test_ask_arguments_are_one_question_each(run_cli: RunCli) -> None:
    result = run_cli("ask", "--json", "how much salt goes in pasta water?", "repeat that")
    assert [a["lesson_id"] for a in result.json_lines()] == ["pasta-water", "pasta-water"]


def test_repeat_first_is_refused(run_cli: RunCli) -> None:
    (answer,) = run_cli("ask", "--json", "repeat that").json_lines()
    assert (answer["outcome"], answer["reason"]) == ("refused", "no_evidence")


def test_readable_output_shows_the_answer_and_the_source_path_on_its_own_line(
    run_cli: RunCli,
) -> None:
    result = run_cli("ask", "how much salt goes in pasta water?", "what is the capital of France?")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert "source: lessons/pasta-water.md:1–11" in lines
    assert any("10 grams of salt per litre" in line for line in lines)
    assert "refused: no passage shares a word with the question" in lines


def test_lessons_json_lists_the_library(run_cli: RunCli) -> None:
    result = run_cli("passages", "--json")
    lessons = json.loads(result.stdout)
    assert {
        "id": "pasta-water",
        "title": "Salting pasta water",
        "source_path": "lessons/pasta-water.md",
        "line": 1,
        "end_line": 11,
        "library": "lessons",
        "page": None,  # a PDF passage's pages only
        "end_page": None,
        "url": None,  # a fetched website's passages only
    } in lessons
    fields = {
        "id", "title", "source_path", "line", "end_line", "library", "page", "end_page", "url"
    }  # fmt: skip
    assert all(set(lesson) == fields for lesson in lessons)


def test_lessons_option_and_setting_choose_the_library(run_cli: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    write_lesson(folder, "rice", "Cooking rice", "Rinse the rice, then simmer it.")
    by_option = run_cli("passages", "--library", str(folder), "--json")
    by_setting = run_cli("passages", "--json", env={"TUI_ASSISTANT_LIBRARY": str(folder)})
    expected = [
        {
            "id": "rice",
            "title": "Cooking rice",
            "source_path": "notes/rice.md",
            "line": 1,
            "end_line": 3,
            "library": "notes",
            "page": None,
            "end_page": None,
            "url": None,
        }
    ]
    assert json.loads(by_option.stdout) == expected
    assert json.loads(by_setting.stdout) == expected
    answer = run_cli("ask", "--library", str(folder), "--json", "how to rinse rice").json_lines()
    assert answer[0]["source_path"] == "notes/rice.md"


def test_bad_lesson_files_are_warned_about_once_each_on_stderr(
    run_cli: RunCli, tmp_path: Path
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    write_lesson(folder, "rice", "Cooking rice", "Rinse the rice.")
    # Any name is fine, and a file without a "# " title is titled with its name.
    (folder / "Bad Name.md").write_text("# x\n\ny", encoding="utf-8")
    (folder / "untitled.md").write_text("nothing", encoding="utf-8")
    # These cannot be read as documents.
    (folder / "binary.md").write_bytes(b"# Binary\n\n\x00")
    (folder / "headings.md").write_text("# Only\n## Headings\n", encoding="utf-8")
    result = run_cli("passages", "--library", str(folder), "--json")
    assert result.returncode == 0
    listed = {row["id"]: row["title"] for row in json.loads(result.stdout)}
    assert listed == {"bad-name": "x", "rice": "Cooking rice", "untitled": "untitled"}
    assert result.stderr.splitlines() == [
        "tui-assistant: warning: 2 reading notes (2 new: binary.md, headings.md),"
        " see `tui-assistant library`"
    ]


def test_version(run_cli: RunCli) -> None:
    result = run_cli("--version")
    assert (result.returncode, result.stdout.strip()) == (0, f"tui-assistant {__version__}")


@pytest.mark.parametrize(
    ("args", "env", "named"),
    [
        (["ask", "--library", "/nonexistent-folder", "q"], {}, "/nonexistent-folder"),
        (["ask", "q"], {"TUI_ASSISTANT_DEADLINE_SECONDS": "60"}, "TUI_ASSISTANT_DEADLINE_SECONDS"),
        (["ask", "q"], {"TUI_ASSISTANT_DEADLINE_SECONDS": "0"}, "TUI_ASSISTANT_DEADLINE_SECONDS"),
        (["ask", "q"], {"TUI_ASSISTANT_PROVIDER": "gemini"}, "TUI_ASSISTANT_PROVIDER"),
        (["ask", "q"], {"TUI_ASSISTANT_RETRIEVAL": "fuzzy"}, "TUI_ASSISTANT_RETRIEVAL"),
        (
            ["ask", "q"],
            {"TUI_ASSISTANT_MONTHLY_CALL_LIMIT": "-1"},
            "TUI_ASSISTANT_MONTHLY_CALL_LIMIT",
        ),
        (
            ["ask", "q"],
            {"TUI_ASSISTANT_PROVIDER": "openai", "TUI_ASSISTANT_BASE_URL": "http://example.com/v1"},
            "TUI_ASSISTANT_BASE_URL",
        ),
        (["ask", "--no-such-option"], {}, "--no-such-option"),
        (["frobnicate"], {}, "frobnicate"),
    ],
)
def test_usage_and_configuration_errors_exit_2_with_one_line(
    run_cli: RunCli, args: list[str], env: dict[str, str], named: str
) -> None:
    result = run_cli(*args, env=env)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert named in lines[0]
    assert "Traceback" not in result.stderr


def test_a_folder_without_a_document_with_text_exits_2(run_cli: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    result = run_cli("ask", "--library", str(folder), "q")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"tui-assistant: error: library folder {folder} has no document with text"
    )


def test_http_base_url_is_fine_for_loopback_and_unused_in_deterministic_mode(
    run_cli: RunCli,
) -> None:
    remote_http = run_cli(
        "ask", "--json", "q", env={"TUI_ASSISTANT_BASE_URL": "http://example.com"}
    )
    assert remote_http.returncode == 0


def test_ask_json_in_ranked_mode_shows_why_the_lesson_won(
    make_library: Callable[..., Path], run_cli: RunCli
) -> None:
    folder = make_library(KNIFE_LESSONS)
    result = run_cli(
        "ask",
        "--json",
        "--library",
        str(folder),
        "Do ceramic knife edges chip?",
        "What is the capital of Australia?",
        env={"TUI_ASSISTANT_RETRIEVAL": "ranked"},
    )
    assert result.returncode == 0, result.stderr
    answered, refused = result.json_lines()
    assert answered["outcome"] == "answered"
    assert answered["lesson_id"] == "ceramic-knives"
    assert answered["matched_words"] == ["ceramic", "knif", "edg", "chip"]
    assert answered["score"] > answered["runner_up_score"] > 0
    assert 0 < answered["confidence"] <= 1
    assert refused["outcome"] == "refused"
    assert refused["reason"] == "no_evidence"
    assert refused["lesson_id"] is None
