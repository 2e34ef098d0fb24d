"""Hostile questions and lesson text through the CLI: no crash, nothing from a question
or a lesson reaches the terminal as an escape sequence, and a lesson's hidden
instructions are shown as data."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.helpers import PROJECT_ROOT, RunCli, cli_env, write_lesson
from tests.helpers.hostile import (
    HOSTILE_QUESTIONS,
    INJECTION,
    MEGABYTE,
    assert_terminal_safe,
)

# The expected passages of the hostile questions follow the keyword rule.
KEYWORD = {"TUI_ASSISTANT_RETRIEVAL": "keyword"}


def run_cli_bytes(tmp_path: Path, *args: str, stdin: bytes) -> tuple[int, bytes, bytes]:
    """The CLI with raw bytes on stdin (NUL, undecodable bytes, a megabyte line)."""
    workdir = tmp_path / "bytes-cwd"
    workdir.mkdir(exist_ok=True)
    process = subprocess.run(
        [sys.executable, "-m", "tui_assistant", *args],
        input=stdin,
        capture_output=True,
        env=cli_env(tmp_path / "data", KEYWORD),
        cwd=workdir,
        timeout=60,
    )
    return process.returncode, process.stdout, process.stderr


def argv_questions() -> list[str]:
    return [question for question, _ in HOSTILE_QUESTIONS.values()]


def test_cli_text_output_never_carries_an_escape_sequence(run_cli: RunCli) -> None:
    questions = argv_questions()

    result = run_cli("ask", *questions)

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert_terminal_safe(result.stdout)
    echoed = [line for line in result.stdout.splitlines() if line.startswith("? ")]
    assert len(echoed) == len(questions)
    assert "Traceback" not in result.stdout


def test_cli_json_output_is_ascii_and_returns_each_question_intact(run_cli: RunCli) -> None:
    questions = argv_questions()

    result = run_cli("ask", "--json", *questions, env=KEYWORD)

    assert result.returncode == 0, result.stderr
    assert result.stdout.isascii()
    assert_terminal_safe(result.stdout)
    rows = result.json_lines()
    assert [row["question"] for row in rows] == questions
    for row, (question, expected) in zip(rows, HOSTILE_QUESTIONS.values(), strict=True):
        assert row["passage_id"] == row["lesson_id"] == expected, question
        assert row["outcome"] == ("answered" if expected else "refused")


def test_a_newline_in_a_question_cannot_forge_an_output_line(run_cli: RunCli) -> None:
    result = run_cli("ask", "anything\nanswered from Forged [forged]\nsource: /etc/passwd")

    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == (
        "? anything answered from Forged [forged] source: /etc/passwd"
    )
    assert "\nanswered from Forged" not in result.stdout


def test_cli_reads_hostile_bytes_from_stdin(tmp_path: Path) -> None:
    lines = [
        b"salting\x00 pasta water",  # NUL cannot be passed as an argument
        b"\xff\xfe salting pasta \xc3 water",  # not UTF-8
        b"\x00\x00\x00",
        b"\x1b[31m\x1b]0;title\x07\xe2\x80\xae",
        ("salting pasta water " * (MEGABYTE // 20)).encode(),
        b"\x1b[" * (MEGABYTE // 2),
    ]
    stdin = b"\n".join(lines) + b"\n"

    for mode in ((), ("--json",)):
        code, stdout, stderr = run_cli_bytes(tmp_path, "ask", *mode, stdin=stdin)

        assert code == 0, stderr
        assert stderr == b""
        text = stdout.decode("utf-8")
        assert_terminal_safe(text)
        if mode:
            assert text.isascii()
            rows = [json.loads(line) for line in text.splitlines()]
            assert [row["passage_id"] for row in rows] == [
                "pasta-water",
                "pasta-water",
                None,
                None,
                None,  # over 4,000 characters: refused before retrieval
                None,
            ]
            assert [row["reason"] for row in rows][4:] == ["too_long", "too_long"]
        else:
            echoed = [line for line in text.splitlines() if line.startswith("? ")]
            assert len(echoed) == len(lines)
            # A megabyte question is echoed shortened; the whole of it is in --json.
            assert all(len(line) < 1000 for line in echoed)


def test_output_survives_a_terminal_that_cannot_encode_emoji(tmp_path: Path) -> None:
    process = subprocess.run(
        [sys.executable, "-m", "tui_assistant", "ask", "🍝 salting pasta water ✓"],
        capture_output=True,
        env=cli_env(tmp_path / "data", {"PYTHONIOENCODING": "ascii"}),
        cwd=PROJECT_ROOT,
        timeout=60,
    )

    assert process.returncode == 0, process.stderr
    assert process.stdout.startswith(b"? \\U0001f35d salting pasta water \\u2713")
    assert b"answered from Salting pasta water" in process.stdout


def test_deterministic_mode_cites_the_lesson_whatever_its_text_says(
    injected_library: Path, run_cli: RunCli
) -> None:
    result = run_cli("ask", "--library", str(injected_library), "--json", "salting pasta water")

    [row] = result.json_lines()
    assert row["outcome"] == "answered"
    assert row["citations"] == ["pasta-water"]
    assert row["source_path"] == "lessons/pasta-water.md"
    # The lesson's text is shown literally, instruction and all: it is data, not a command.
    assert INJECTION in row["answer"]


def test_lesson_text_with_escapes_is_shown_without_them(
    make_library: Callable[..., Path], run_cli: RunCli
) -> None:
    folder = make_library(
        {
            "pasta-water": (
                "Salting \x1b[5mpasta\x1b[0m water",
                "Salt \x1b]0;pwned\x07the water\u202e well.\x9b2J Then \x1b[31mboil\x1b[0m.",
            )
        }
    )
    (folder / "pasta-water.md").write_text(
        (folder / "pasta-water.md").read_text() + "\n" + INJECTION + "\n"
    )
    write_lesson(folder, "knife-care", "Caring for kitchen knives", "Hone the edge.")

    result = run_cli("ask", "--library", str(folder), "salting pasta water")

    assert result.returncode == 0, result.stderr
    assert_terminal_safe(result.stdout)
    assert "Salt the water well. Then boil." in result.stdout
