"""A file named on the command line that cannot be read (`eval CASES.jsonl`,
`fetch --from FILE`): exit 2 and one line naming the file and why, in one wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_assistant import cli

COMMANDS = {
    "eval": (["eval"], "cases file"),
    "fetch --from": (["fetch", "--from"], "--from:"),
}


def unreadable(kind: str, tmp_path: Path) -> Path:
    path = tmp_path / "requirements.txt"
    if kind == "not UTF-8":
        path.write_bytes(b"shop==1.0 \xff\n")
    elif kind == "a folder":
        path.mkdir()
    return path


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("missing", "does not exist"),
        ("not UTF-8", "is not UTF-8 text"),
        ("a folder", "cannot be read (Is a directory)"),
    ],
)
def test_an_unreadable_file_is_one_line_naming_it_and_why(
    command: str,
    kind: str,
    why: str,
    clean_env: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    arguments, prefix = COMMANDS[command]
    path = unreadable(kind, tmp_path)
    assert cli.main([*arguments, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert f"{prefix} {path} {why}" in line
