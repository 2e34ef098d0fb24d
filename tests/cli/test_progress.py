"""Progress on stderr: in a terminal one line redrawn in place once the work has taken a
second, erased when it ends; on a pipe or in a log a whole line at most every 10
seconds, never a `\r`. Each line has the count, the rate and the time left. The clock
is the test's (`output.now`), never real waiting."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tui_assistant import cli, output

if TYPE_CHECKING:
    from tests.cli.held_model import HeldEmbedder


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


def test_quick_work_shows_no_progress_on_a_pipe(
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


class Clock:
    """A clock that moves only when told to (`advance`), or by `step` at each look."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_on_a_pipe_a_whole_line_every_ten_seconds_with_the_rate_and_time_left() -> None:
    clock, pipe = Clock(), io.StringIO()
    line = output.ProgressLine("embedding", "passage", stream=pipe, clock=clock)
    with line as progress:
        for second in range(1, 36):
            clock.advance(1.0)
            progress(31 * second, 4614)
    shown = pipe.getvalue()
    assert "\r" not in shown and shown.endswith("\n")
    assert shown.splitlines() == [
        "embedding 310/4,614 passages, 31/s, about 2 min 19 s left",
        "embedding 620/4,614 passages, 31/s, about 2 min 9 s left",
        "embedding 930/4,614 passages, 31/s, about 1 min 59 s left",
    ]


def test_reading_files_on_a_pipe_says_reading() -> None:
    clock, pipe = Clock(), io.StringIO()
    with output.ProgressLine("reading", "file", stream=pipe, clock=clock) as progress:
        clock.advance(12.0)
        progress(1200, 20000)
    assert pipe.getvalue() == "reading 1,200/20,000 files\n"


def test_in_a_terminal_the_line_is_redrawn_in_place_and_erased() -> None:
    clock, terminal = Clock(), Terminal()
    with output.ProgressLine("embedding", "passage", stream=terminal, clock=clock) as progress:
        for second in range(1, 4):
            clock.advance(1.0)
            progress(40 * second, 300)
    shown = terminal.getvalue()
    assert "\n" not in shown
    assert shown.endswith("\r\x1b[K")
    assert "\rembedding 120/300 passages, 40/s, about 4 s left\x1b[K" in shown


def test_ask_wait_on_a_pipe_prints_embedding_lines_ten_seconds_apart(
    held_hybrid: HeldEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Each look at the progress lines' clock is six seconds after the last.
    monkeypatch.setattr(output, "now", Clock(step=6.0))
    held_hybrid.release()
    assert cli.main(["ask", "--json", "--wait", "how much salt for pasta water"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["retrieval"] == "hybrid"
    lines = err.splitlines(keepends=True)
    assert lines, "no progress line"
    assert "\r" not in err
    embedding = [shown for shown in lines if shown.startswith("embedding")]
    assert embedding, err
    for shown in embedding:
        assert re.fullmatch(r"embedding \d/3 passages(, [\d.]+/s, about \d+ s left)?\n", shown)
    assert all(shown.startswith("reading ") for shown in lines if shown not in embedding)
