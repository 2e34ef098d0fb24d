"""The small words a new user meets: counts agree with their noun, `ask` with nothing to
ask says so, and a `--library` name that is almost a fetched library's says which."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.fake_registry import FakeRegistry
from tui_assistant import cli
from tui_assistant.core.gaps import AskedQuestion, GapGroup, GapList
from tui_assistant.output import format_gaps, format_status
from tui_assistant.registry.libraries import close_names
from tui_assistant.wiring.status import LibraryStatus, StatusResult


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def one_page(tmp_path: Path, clean_env: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "eggs.md").write_text("# Eggs\n\nBoil eggs for nine minutes.\n", encoding="utf-8")
    return folder


@pytest.fixture
def registry(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeRegistry]:
    with FakeRegistry() as fake:
        monkeypatch.setenv("TUI_ASSISTANT_PYPI_INDEX_URL", fake.index_url)
        yield fake


def test_fetching_one_document_says_document_and_passage_in_the_singular(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.add_sdist("tiny", "1.0", {"README.md": "# tiny\n\nOne small page.\n"})
    assert cli.main(["fetch", "pypi:tiny==1.0"]) == 0
    assert "tiny@1.0: 1 document, 1 passage " in capsys.readouterr().out


def test_indexing_one_file_shows_file_in_the_singular(
    one_page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = itertools.count(step=0.5)  # each look at the clock half a second on
    monkeypatch.setattr("tui_assistant.output.time.monotonic", lambda: next(clock))
    stderr = Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    assert cli.main(["passages", "--library", str(one_page)]) == 0
    assert "\rreading 1/1 file\x1b[K" in stderr.getvalue()


def test_status_says_one_passage_in_the_singular() -> None:
    library = LibraryStatus(
        name="docs",
        documents=1,
        passages=1,
        vectors=1,
        embedding_model="small-model",
        read_at="2025-01-01T00:00:00+00:00",
        watch=False,
        retrieval="hybrid",
    )
    shown = format_status(StatusResult(libraries=[library])).splitlines()
    assert "vectors: 1/1 passage (small-model)" in shown


def test_gaps_says_one_other_question_in_the_singular() -> None:
    asked = [
        AskedQuestion(question=f"q{n}", count=1, last_asked="2025-01-01", reason="no_evidence")
        for n in range(10)
    ]
    group = GapGroup(
        library="docs",
        nearest=None,
        count=11,
        last_asked="2025-01-01",
        questions_asked=11,
        questions=asked,
    )
    assert format_gaps(GapList(groups=[group])).splitlines()[-1] == (
        "  \N{HORIZONTAL ELLIPSIS} and 1 other question"
    )


@pytest.mark.parametrize("given", ["\n", "\n   \n\n", ""])
def test_ask_with_only_blank_lines_says_there_was_no_question(
    given: str,
    one_page: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(given))
    assert cli.main(["ask", "--library", str(one_page)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "tui-assistant: no question: give QUESTION arguments or lines on standard input"
    ]


def test_ask_with_a_question_on_standard_input_says_nothing_more(
    one_page: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\nhow long to boil eggs\n"))
    assert cli.main(["ask", "--library", str(one_page)]) == 0
    captured = capsys.readouterr()
    assert "eggs" in captured.out
    assert "no question" not in captured.err


def fetched(data: Path, *names: str) -> None:
    for name in names:
        (data / "fetched" / name).mkdir(parents=True)
        (data / "fetched" / name / ".fetched.json").write_text("{}\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        ("flaskk", "flask@3.1.3"),
        ("reqests", "requests@2.32.3"),
        ("flaks@3", "flask@3.1.3"),
    ],
)
def test_a_library_name_close_to_a_fetched_one_says_which_it_may_mean(
    given: str, meant: str, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fetched(clean_env, "flask@2.0.1", "flask@3.1.3", "requests@2.32.3")
    assert cli.main(["status", "--library", given]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"tui-assistant: error: library folder {given} does not exist (did you mean {meant}?)"
    ]


def test_a_library_name_close_to_none_is_only_missing(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fetched(clean_env, "flask@3.1.3")
    assert cli.main(["status", "--library", "zebra"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "tui-assistant: error: library folder zebra does not exist"
    ]


def test_close_names_are_the_newest_version_of_each_close_package() -> None:
    names = ["httpx@0.27.0", "httpx@0.28.1", "http-client@1.0", "rich@13.0"]
    assert close_names("httpxx", names) == ["httpx@0.28.1"]
    assert close_names("HTTPX@9", names) == ["httpx@0.28.1"]
    assert close_names("textual", names) == []
