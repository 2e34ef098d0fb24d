"""`tui-assistant eval` end to end: the report, agreement with `ask`, malformed files.
Model mode with a scripted provider, in process, is in `tests/cli/test_eval.py`."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import PROJECT_ROOT, CliResult, read_cases

BUNDLED_CASES = PROJECT_ROOT / "eval" / "bundled.jsonl"
RunCli = Callable[..., CliResult]


def test_text_report_is_a_per_kind_table_matching_the_json(run_cli: RunCli) -> None:
    text = run_cli("eval", str(BUNDLED_CASES))
    data = run_cli("eval", "--json", str(BUNDLED_CASES))
    assert text.returncode == 0 and data.returncode == 0
    report = json.loads(data.stdout)
    rows = {line.split()[0]: line.split()[1:] for line in text.stdout.splitlines() if line}
    assert rows["kind"] == ["cases", "correct", "accuracy"]
    for kind, tally in report["by_kind"].items():
        assert rows[kind][:2] == [str(tally["cases"]), str(tally["correct"])]
    assert rows["all"] == [
        str(report["cases"]),
        str(report["correct"]),
        f"{report['accuracy']:.1%}",
    ]
    for failure in report["failures"]:
        assert json.dumps(failure["question"]) in text.stdout


def test_json_report_is_consistent(run_cli: RunCli) -> None:
    report = json.loads(
        run_cli("eval", "--json", "--retrieval", "keyword", str(BUNDLED_CASES)).stdout
    )
    cases = read_cases(BUNDLED_CASES)
    assert report["cases"] == len(cases) == sum(k["cases"] for k in report["by_kind"].values())
    assert report["correct"] == sum(k["correct"] for k in report["by_kind"].values())
    assert report["accuracy"] == report["correct"] / report["cases"]
    assert len(report["failures"]) == report["cases"] - report["correct"]
    assert report["answerable"]["cases"] + report["refusals"]["cases"] == report["cases"]
    assert report["model"] is None
    assert report["retrieval"] == "keyword"


def ask_failures(run_cli: RunCli, cases_path: Path, *options: str, env: Any = None) -> Any:
    """Run every case's question through `ask --json` and derive eval's failures."""
    cases = read_cases(cases_path)
    result = run_cli("ask", "--json", *options, *(case.question for case in cases), env=env)
    assert result.returncode == 0, result.stderr
    answers = result.json_lines()
    assert [answer["question"] for answer in answers] == [case.question for case in cases]
    return [
        {"question": case.question, "expected": case.expect_passage, "got": got}
        for case, answer in zip(cases, answers, strict=True)
        if (got := answer["passage_id"]) != case.expect_passage
    ]


@pytest.mark.parametrize("retrieval", ["keyword", "ranked"])
def test_eval_and_ask_agree_case_by_case_on_the_bundled_set(
    run_cli: RunCli, retrieval: str
) -> None:
    env = {"TUI_ASSISTANT_RETRIEVAL": retrieval}
    expected_failures = ask_failures(run_cli, BUNDLED_CASES, env=env)
    report = json.loads(run_cli("eval", "--json", str(BUNDLED_CASES), env=env).stdout)
    assert [
        {key: failure[key] for key in ("question", "expected", "got")}
        for failure in report["failures"]
    ] == expected_failures
    assert report["correct"] == report["cases"] - len(expected_failures)


def test_eval_and_ask_agree_on_another_library(
    run_cli: RunCli,
    make_library: Callable[[Mapping[str, tuple[str, str]]], Path],
    tmp_path: Path,
) -> None:
    folder = make_library(
        {
            "tea-brewing": ("Brewing tea", "Steep black tea in boiling water for four minutes."),
            "rice-cooking": ("Cooking rice", "Rinse the rice, then simmer it in water."),
        }
    )
    cases = tmp_path / "cases.jsonl"
    rows = [
        {"question": "How long do I steep tea?", "expect_passage": "tea-brewing"},
        {"question": "Is boiling water safe to drink?", "expect_passage": None},
        {"question": "Why rinse rice?", "expect_passage": "rice-cooking"},
        {"question": "How long to steep rice?", "expect_passage": "rice-cooking"},
    ]
    cases.write_text("".join(json.dumps(row) + "\n" for row in rows))
    expected_failures = ask_failures(run_cli, cases, "--library", str(folder))
    report = json.loads(run_cli("eval", "--json", "--library", str(folder), str(cases)).stdout)
    assert expected_failures  # the fixture has failures to compare, not only successes
    assert [
        {key: failure[key] for key in ("question", "expected", "got")}
        for failure in report["failures"]
    ] == expected_failures


GOOD_LINE = '{"question": "How much salt for pasta?", "expect_passage": "pasta-water"}'


@pytest.mark.parametrize(
    "bad_line",
    [
        '{"question": "How much salt?", "expect_passage": "pasta-water"',
        '{"expect_passage": "pasta-water"}',
        '{"question": ["How much salt?"], "expect_passage": "pasta-water"}',
        '{"question": "How much salt?", "expect_passage": 1}',
        '{"question": "How much salt?", "expect_passage": "pasta-water", "kind": false}',
        '{"question": "How much salt?", "expect_passage": "no-such-lesson"}',
        '"just a string"',
    ],
)
def test_malformed_cases_file_is_exit_2_naming_the_line(
    run_cli: RunCli, tmp_path: Path, bad_line: str
) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(f"{GOOD_LINE}\n\n{GOOD_LINE}\n{bad_line}\n{GOOD_LINE}\n")
    for options in ([], ["--json"]):
        result = run_cli("eval", *options, str(cases))
        assert result.returncode == 2
        assert result.stdout == ""
        [line] = result.stderr.splitlines()
        assert "line 4" in line and str(cases) in line
        assert "Traceback" not in result.stderr


def test_missing_or_unreadable_cases_file_is_exit_2(run_cli: RunCli, tmp_path: Path) -> None:
    missing = run_cli("eval", str(tmp_path / "nope.jsonl"))
    assert (missing.returncode, missing.stdout) == (2, "")
    assert "nope.jsonl does not exist" in missing.stderr
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = run_cli("eval", str(binary))
    assert (result.returncode, result.stdout) == (2, "")
    assert "not UTF-8" in result.stderr


# --- model mode, in process, with a scripted provider instead of the network -----------
