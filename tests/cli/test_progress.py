"""`ask` and `eval` show indexing progress on stderr, only to a person at a terminal and
only when indexing takes more than a second."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import pytest

from tui_assistant import cli, output


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def library(tmp_path: Path, clean_env: Path) -> Path:
    """Twelve documents in three folders (and no stray settings: see `clean_env`)."""
    folder = tmp_path / "docs"
    for n in range(12):
        (folder / f"part-{n // 4}").mkdir(parents=True, exist_ok=True)
        (folder / f"part-{n // 4}" / f"doc-{n}.md").write_text(
            f"# Document {n}\n\nTopic{n} explained at length.\n", encoding="utf-8"
        )
    return folder


def run_ask(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stderr: io.StringIO
) -> str:
    """`ask --json` with each look at the clock a quarter of a second after the last."""
    clock = itertools.count(step=0.25)
    monkeypatch.setattr(output.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr("sys.stderr", stderr)
    code = cli.main(["ask", "--json", "--library", str(library), "topic3 explained"])
    assert code == 0
    return stderr.getvalue()


def test_slow_indexing_shows_progress_on_a_terminal_then_erases_it(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = run_ask(library, tmp_path, monkeypatch, Terminal())

    assert "\rreading 12/12 files" in shown
    assert shown.endswith("\r\x1b[K")  # the line is gone once the answers start
    answer = json.loads(capsys.readouterr().out)
    assert answer["passage_id"] == answer["lesson_id"] == "part-0/doc-3"


def test_no_progress_when_stderr_is_not_a_terminal(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_ask(library, tmp_path, monkeypatch, io.StringIO()) == ""


def test_no_progress_when_indexing_is_quick(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stderr", Terminal())
    assert cli.main(["ask", "--json", "--library", str(library), "topic3 explained"]) == 0
    assert isinstance(cli.sys.stderr, Terminal)
    assert cli.sys.stderr.getvalue() == ""
