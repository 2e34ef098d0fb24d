"""`mcp --workers N`: a count that cannot serve is one line, before anything is read."""

from __future__ import annotations

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from tui_assistant import cli


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--http", "8999", "--workers", "0"], "--workers: 0 is not a number from 1 to 64"),
        (["--http", "8999", "--workers", "65"], "--workers: 65 is not a number from 1 to 64"),
        (["--workers", "2"], "--workers: several workers serve over HTTP only (give --http)"),
    ],
)
@pytest.mark.usefixtures("clean_env")
def test_a_worker_count_that_cannot_serve_is_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["mcp", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [f"tui-assistant: error: {said}"]
