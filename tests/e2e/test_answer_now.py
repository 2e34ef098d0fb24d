"""`ask` under hybrid on a library whose vectors are not computed yet, run as a user runs
it: it answers at once by words while it embeds in the background, every batch stored as
it arrives, so a run killed in the middle (SIGKILL, no chance to tidy up) loses nothing
it stored and the next run embeds only the rest. The vectors come from a real
OpenAI-compatible server on loopback, which counts what it embeds."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import CliResult, cli_env
from tests.helpers.embedding_server import EmbeddingServer
from tests.helpers.processes import wait_for

pytest.importorskip("numpy")

RunCli = Callable[..., CliResult]
NOTES = 800
QUESTION = "What does the note numbered 17 keep?"


def write_notes(folder: Path) -> Path:
    folder.mkdir()
    for number in range(NOTES):
        (folder / f"note-{number:03}.md").write_text(
            f"# Note {number}\n\nThe note numbered {number} keeps its own words.\n"
        )
    return folder


def stored_pieces(data: Path) -> int:
    stores = list((data / "libraries").glob("*.sqlite3"))
    if not stores:
        return 0
    with contextlib.closing(sqlite3.connect(stores[0], timeout=10)) as connection:
        try:
            (count,) = connection.execute("SELECT count(*) FROM piece_vectors").fetchone()
        except sqlite3.OperationalError:  # the tables are not made yet
            return 0
    return int(count)


def test_a_run_killed_mid_embedding_keeps_its_batches_and_the_next_embeds_the_rest(
    tmp_path: Path, run_cli: RunCli
) -> None:
    notes = write_notes(tmp_path / "notes")
    data = tmp_path / "data"
    settings = {
        "TUI_ASSISTANT_RETRIEVAL": "hybrid",
        "TUI_ASSISTANT_LIBRARY": str(notes),
        "TUI_ASSISTANT_EMBEDDING_BATCH_SIZE": "8",
        "TUI_ASSISTANT_EMBEDDING_CONCURRENCY": "1",
    }
    with EmbeddingServer() as server:
        env = {**settings, **served_by(server)}
        workdir = tmp_path / "cwd"  # made by `run_cli`
        asking = subprocess.Popen(
            [sys.executable, "-m", "tui_assistant", "ask", "--json"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(data, env),
            cwd=workdir,
        )
        try:
            assert asking.stdin is not None and asking.stdout is not None
            asking.stdin.write(QUESTION + "\n")
            asking.stdin.flush()
            # Answered at once, by words, while the vectors are computed.
            first = json.loads(asking.stdout.readline())
            assert first["retrieval"] == "ranked"
            assert first["embedding"]["total"] == NOTES
            assert first["embedding"]["done"] < NOTES
            # The conversation stays open; killed once a batch is stored.
            wait_for(lambda: stored_pieces(data) > 0, "a batch of vectors stored")
            asking.send_signal(signal.SIGKILL)
            asking.wait(10)
        finally:
            if asking.poll() is None:
                asking.kill()
                asking.wait()
            for stream in (asking.stdin, asking.stdout, asking.stderr):
                if stream is not None:
                    stream.close()
    kept = stored_pieces(data)
    assert 0 < kept < NOTES

    # A server of its own, so a request of the killed run still in flight is not counted.
    with EmbeddingServer() as again:
        env = {**settings, **served_by(again)}
        second = run_cli("ask", "--json", "--wait", QUESTION, env=env, timeout=300)
        assert second.returncode == 0, second.stderr
        (answer,) = second.json_lines()
        assert answer["retrieval"] == "hybrid" and answer["embedding"] is None
        # The probe for the model's size, the pieces the killed run had not stored, and
        # the question: nothing stored is embedded again.
        assert again.stats()["texts"] == 1 + (NOTES - kept) + 1
    assert stored_pieces(data) == NOTES


def served_by(server: EmbeddingServer) -> dict[str, str]:
    return {
        "TUI_ASSISTANT_EMBEDDING_BASE_URL": server.base_url,
        "TUI_ASSISTANT_EMBEDDING_MODEL": server.name,
    }
