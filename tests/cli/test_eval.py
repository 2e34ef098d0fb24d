"""`tui-assistant eval` in process: the bundled cases file, and model mode (warn/strict)
with a scripted provider injected instead of the network."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from tests.helpers import PROJECT_ROOT, SCRIPT, ScriptedProvider, read_cases
from tui_assistant import cli

BUNDLED_CASES = PROJECT_ROOT / "eval" / "bundled.jsonl"


def test_bundled_cases_cover_every_kind_of_case() -> None:
    cases = read_cases(BUNDLED_CASES)
    kinds = {case.kind for case in cases}
    assert {"expected", "unanswerable", "misleading"} <= kinds
    assert len(cases) >= 30
    passage_ids = {path.stem for path in (PROJECT_ROOT / "lessons").glob("*.md")}
    assert {case.expect_passage for case in cases} - {None} == passage_ids


@pytest.mark.parametrize(("mode", "accepted"), [("warn", 2), ("strict", 1)])
def test_eval_in_model_mode_reports_what_the_model_did(
    model_mode: Callable[[str, Mapping[str, str]], ScriptedProvider],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: str,
    accepted: int,
) -> None:
    cases = tmp_path / "cases.jsonl"
    rows = [
        {"question": "How much salt goes in pasta water?", "expect_passage": "pasta-water"},
        {
            "question": "How long do I boil an egg for a runny yolk?",
            "expect_passage": "boiled-eggs",
        },
        {"question": "How often should I hone my knife?", "expect_passage": "knife-care"},
        {"question": "What is the capital of France?", "expect_passage": None},
    ]
    cases.write_text("".join(json.dumps(row) + "\n" for row in rows))
    provider = model_mode(mode, SCRIPT)
    # The expectations follow the keyword rule.
    assert cli.main(["eval", "--json", "--retrieval", "keyword", str(cases)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert provider.calls == [row["question"] for row in rows[:3]]
    assert report["model"] == {
        "asked": 3,
        "accepted": accepted,
        "refused_unverified": 1,
        "flagged_by_support": 1,
        "other": {},
    }
    assert (report["cases"], report["correct"]) == (4, 4)

    assert cli.main(["eval", "--retrieval", "keyword", str(cases)]) == 0
    text = capsys.readouterr().out
    assert (
        f"model: asked 3, accepted {accepted}, refused unverified 1, flagged by the support check 1"
    ) in text


def test_eval_reads_the_expected_passage_under_either_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TUI_ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    rows = [
        ("How much salt goes in pasta water?", "pasta-water"),
        ("How often should I hone my knife?", "boiled-eggs"),  # a wrong expectation
        ("What is the capital of France?", None),
    ]
    reports = []
    for key in ("expect_passage", "expect_lesson"):
        cases = tmp_path / f"{key}.jsonl"
        cases.write_text("".join(json.dumps({"question": q, key: p}) + "\n" for q, p in rows))
        assert cli.main(["eval", "--json", "--retrieval", "keyword", str(cases)]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    new, old = reports
    assert new == old
    assert (new["cases"], new["correct"]) == (3, 2)
    assert [failure["expected"] for failure in new["failures"]] == ["boiled-eggs"]


def test_eval_reports_precision_on_screen_unanswerable_answered_and_coverage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TUI_ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    rows = [
        ("How much salt goes in pasta water?", "pasta-water"),
        ("How often should I hone my knife?", "boiled-eggs"),  # knife-care answers it
        ("What is the capital of France?", None),
        ("boiling water", "boiled-eggs"),  # a keyword tie: refused, both listed nearest
    ]
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        "".join(json.dumps({"question": q, "expect_passage": p}) + "\n" for q, p in rows)
    )
    assert cli.main(["eval", "--json", "--retrieval", "keyword", str(cases)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["precision"] == pytest.approx(1 / 2)
    assert report["on_screen"] == pytest.approx(2 / 3)
    assert report["unanswerable_answered"] == 0.0
    assert report["coverage"] == pytest.approx(1 / 3)
    assert report["first_right"] == pytest.approx(1 / 3)
    assert cli.main(["eval", "--retrieval", "keyword", str(cases)]) == 0
    readable = capsys.readouterr().out
    assert "precision" in readable and "50.0%" in readable
    assert "coverage" in readable and "33.3%" in readable
    assert "first right" in readable
