"""The repository development set: packaging's docs at two tags (`eval/packaging-tags/`)
committed as one bare repository, fetched tag by tag, and its questions (the same in
both files, answered by different passages) checked against the fetched libraries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.git_repos import GitRepo
from tui_assistant import cli

EVAL = Path(__file__).resolve().parents[2] / "eval"
TAGS = ("21.3", "24.2")


def cases(tag: str) -> list[dict[str, str | None]]:
    lines = (EVAL / f"packaging-tags-{tag}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_each_tag_is_a_library_holding_the_passages_its_questions_expect(
    clean_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "packaging.git")
    for tag in TAGS:
        folder = EVAL / "packaging-tags" / tag
        files = {
            p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }
        repo.commit(files, tag=tag)
    specs = [f"git+file://{repo.path}@{tag}" for tag in TAGS]
    assert cli.main(["fetch", "--json", *specs]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["library"], r["status"]) for r in results] == [
        ("packaging@21.3", "fetched"),
        ("packaging@24.2", "fetched"),
    ]
    questions = {tag: [case["question"] for case in cases(tag)] for tag in TAGS}
    assert questions["21.3"] == questions["24.2"]
    for tag in TAGS:
        assert cli.main(["passages", "--json", "--library", f"packaging@{tag}"]) == 0
        ids = {row["id"] for row in json.loads(capsys.readouterr().out)}
        expected = {case["expect_passage"] for case in cases(tag)} - {None}
        assert expected <= ids, expected - ids
    differing = [
        old["question"]
        for old, new in zip(cases("21.3"), cases("24.2"), strict=True)
        if old["expect_passage"] != new["expect_passage"]
    ]
    assert len(differing) == len(questions["21.3"])
