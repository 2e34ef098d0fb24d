"""Under `hybrid`, a library whose vectors are not all computed is answered at once by
the word ranking, saying how far the vectors are; `ask` moves to hybrid once they are
in, stops embedding after its last answer (what it stored is kept), and `ask --wait`
and `eval` wait for them first. The fake model's batches are held and released by the
tests (`held_hybrid`), so "not all computed yet" is a condition, not a race."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from tests.cli.held_model import HeldEmbedder
from tests.helpers import BUNDLED_LESSONS
from tui_assistant import cli
from tui_assistant.commands import common
from tui_assistant.settings import load_settings
from tui_assistant.store.vectors import stored_vectors
from tui_assistant.wiring.context import load_library

PASTA = "how much salt for pasta water"
PASSAGES = 3  # the bundled lessons


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.01)


@pytest.fixture(autouse=True)
def runs(monkeypatch: pytest.MonkeyPatch) -> list[common.EmbeddingInBackground]:
    """Every background embedding started; a command's end waits only a moment for one
    whose batch is held (the fixture `held_hybrid` releases it at the test's end)."""
    started: list[common.EmbeddingInBackground] = []

    class Recorded(common.EmbeddingInBackground):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(common, "EmbeddingInBackground", Recorded)
    monkeypatch.setattr(common, "STOP_SECONDS", 0.05)
    return started


def hybrid_now(run: common.EmbeddingInBackground) -> bool:
    """Whether the run's vectors are in and its command answers by meaning."""
    return run.current() is not run.context


class Conversation:
    """Standard input whose next line is read only once `between` has run: what a test
    does between two questions of one `ask`."""

    def __init__(self, *steps: str | Callable[[], None]) -> None:
        self.steps = steps

    def __iter__(self) -> Iterator[str]:
        for step in self.steps:
            if callable(step):
                step()
            else:
                yield step + "\n"


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_ask_answers_by_words_at_once_then_by_meaning_once_the_vectors_are_in(
    held_hybrid: HeldEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    runs: list[common.EmbeddingInBackground],
) -> None:
    seen: list[dict[str, object]] = []

    def vectors_arrive() -> None:
        seen.extend(json_lines(capsys.readouterr().out))
        held_hybrid.release()
        (run,) = runs
        wait_until(lambda: hybrid_now(run), "the vectors are in")

    monkeypatch.setattr("sys.stdin", Conversation(PASTA, vectors_arrive, PASTA))
    assert cli.main(["ask", "--json"]) == 0
    out, err = capsys.readouterr()
    (first,), (second,) = seen, json_lines(out)
    # Nothing embedded yet: answered at once, by words, saying how far the vectors are.
    assert first["outcome"] == "answered" and first["passage_id"] == "pasta-water"
    assert first["retrieval"] == "ranked"
    assert first["embedding"] == {"done": 0, "total": PASSAGES}
    # The same conversation, once they are in: by meaning, nothing left to say.
    assert second["retrieval"] == "hybrid" and second["embedding"] is None
    assert err == ""


def test_readable_ask_says_it_answers_by_words_while_embedding(
    held_hybrid: HeldEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["ask", PASTA]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[1] == "answered from Salting pasta water [pasta-water]"
    assert f"(words only while embedding (0/{PASSAGES}))" in out.splitlines()


def test_after_its_last_answer_ask_stops_embedding_keeps_what_it_stored_and_says_so(
    held_hybrid: HeldEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
    runs: list[common.EmbeddingInBackground],
) -> None:
    def one_batch_stored() -> None:
        held_hybrid.release(1)
        wait_until(lambda: stored_passages(clean_env) == 1, "one batch stored")

    monkeypatch.setattr("sys.stdin", Conversation(one_batch_stored, PASTA))
    assert cli.main(["ask", "--json"]) == 0
    out, err = capsys.readouterr()
    (answer,) = json_lines(out)
    assert answer["retrieval"] == "ranked" and answer["embedding"] == {"done": 1, "total": 3}
    assert err.splitlines() == [
        "tui-assistant: embedding stopped at 1/3 passages"
        " (kept; `tui-assistant ask --wait` finishes it)"
    ]
    # The next run goes on from there: it embeds only the two passages left.
    held_hybrid.release()
    (stopped,) = runs
    wait_until(lambda: not stopped.running, "the stopped run ends")
    before, stored = held_hybrid.pieces, stored_pieces(clean_env)
    assert stored_passages(clean_env) < PASSAGES  # it stopped after the batch held
    assert cli.main(["ask", "--json", "--wait", PASTA]) == 0
    (waited,) = json_lines(capsys.readouterr().out)
    assert waited["retrieval"] == "hybrid" and waited["embedding"] is None
    assert held_hybrid.pieces - before == stored_pieces(clean_env) - stored


def stored_pieces(data: Path) -> int:
    """Vectors of passage pieces the store holds."""
    (store,) = (data / "libraries").glob("*.sqlite3")
    with contextlib.closing(sqlite3.connect(store)) as connection:
        (count,) = connection.execute("SELECT count(*) FROM piece_vectors").fetchone()
    return int(count)


def stored_passages(data: Path) -> int:
    """Passages of the bundled lessons whose vectors the store holds."""
    settings = load_settings()
    library = load_library(settings)
    try:
        (store,) = (data / "libraries").glob("*.sqlite3")
        return max((model.embedded for model in stored_vectors(store, library)), default=0)
    finally:
        library.close()


def test_ask_wait_computes_the_vectors_first(
    held_hybrid: HeldEmbedder, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    held_hybrid.release()
    assert cli.main(["ask", "--json", "--wait", PASTA]) == 0
    (answer,) = json_lines(capsys.readouterr().out)
    assert answer["retrieval"] == "hybrid" and answer["embedding"] is None
    assert held_hybrid.pieces == stored_pieces(clean_env) > 0


def test_search_ranks_by_words_at_once_and_says_how_far_the_vectors_are(
    held_hybrid: HeldEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["search", "--json", PASTA]) == 0
    *passages, last = json_lines(capsys.readouterr().out)
    assert passages[0]["id"] == "pasta-water"
    assert last["retrieval"] == "ranked"
    assert last["embedding"] == {"done": 0, "total": PASSAGES}
    assert held_hybrid.pieces == 0  # one question: nothing embedded in the background

    assert cli.main(["search", PASTA]) == 0
    readable = capsys.readouterr().out.splitlines()
    assert readable[-1] == f"(words only while embedding (0/{PASSAGES}))"

    held_hybrid.release()
    assert cli.main(["search", "--json", "--wait", PASTA]) == 0
    last = json_lines(capsys.readouterr().out)[-1]
    assert last["retrieval"] == "hybrid" and last["embedding"] is None


def test_eval_waits_for_the_vectors_unless_told_not_to(
    held_hybrid: HeldEmbedder,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    runs: list[common.EmbeddingInBackground],
) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"question": PASTA, "expect_lesson": "pasta-water"}) + "\n")
    assert cli.main(["eval", "--json", "--no-wait", str(cases)]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["retrieval"] == "ranked" and report["correct"] == 1
    assert err.splitlines()[0] == f"tui-assistant: words only while embedding (0/{PASSAGES})"

    held_hybrid.release()
    (stopped,) = runs
    wait_until(lambda: not stopped.running, "the stopped run ends")
    assert cli.main(["eval", "--json", str(cases)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["retrieval"] == "hybrid"
    assert "words only" not in err


def test_the_field_is_null_when_the_retrieval_needs_no_vectors(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["ask", "--json", "--library", str(BUNDLED_LESSONS), PASTA]) == 0
    (answer,) = json_lines(capsys.readouterr().out)
    assert answer["retrieval"] == "ranked" and answer["embedding"] is None


def test_status_says_how_far_the_vectors_are_and_null_once_complete(
    held_hybrid: HeldEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
) -> None:
    def one_batch_stored() -> None:
        held_hybrid.release(1)
        wait_until(lambda: stored_passages(clean_env) == 1, "one batch stored")

    monkeypatch.setattr("sys.stdin", Conversation(one_batch_stored, PASTA))
    assert cli.main(["ask", "--json"]) == 0
    capsys.readouterr()
    assert cli.main(["status", "--json"]) == 0
    (library,) = json.loads(capsys.readouterr().out)["libraries"]
    # Nothing is embedded by `status`: no rate, no time left.
    assert library["embedding"] == {"done": 1, "total": 3, "rate": None, "eta_seconds": None}
    assert library["retrieval"] == "ranked"
    assert cli.main(["status"]) == 0
    assert "vectors: 1/3 passages (fake-bag-of-words@1)" in capsys.readouterr().out.splitlines()

    held_hybrid.release()
    assert cli.main(["ask", "--wait", PASTA]) == 0
    capsys.readouterr()
    assert cli.main(["status", "--json"]) == 0
    (library,) = json.loads(capsys.readouterr().out)["libraries"]
    assert library["embedding"] is None and library["retrieval"] == "hybrid"
