"""A shared PostgreSQL store under faults: a wrong password, a server killed mid-call, an
indexer killed mid-write, the database restarted under load. Each waits on what a user
would see (a process's output, a table's rows, an answer), never on a clock."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from tests.helpers import cli_env, write_lesson
from tests.helpers.embedding_server import EmbeddingServer
from tests.helpers.fake_openai_server import CitePassage, FakeOpenAIServer, Hang
from tests.helpers.mcp_client import data, free_port, http_session
from tests.helpers.postgres import PostgresServer
from tests.helpers.processes import EXIT_TIMEOUT_SECONDS, kill, reaped, wait_for
from tui_assistant.settings import load_settings
from tui_assistant.wiring.indexer import index_libraries

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

MCP = (sys.executable, "-m", "tui_assistant", "mcp")


def cli(tmp_path: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui_assistant", *args],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path / "data", env),
        timeout=120,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "kitchen"
    folder.mkdir()
    write_lesson(folder, "pasta-water", "Salting pasta water", "Use 10 g of salt per litre.")
    write_lesson(folder, "boiled-eggs", "Boiling eggs", "Boil eggs for nine minutes.")
    return folder


@contextmanager
def server(
    tmp_path: Path, name: str, folder: Path, env: dict[str, str]
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`mcp --http` with a data folder of its own, once it listens: its URL and process."""
    port = free_port()
    errors = tmp_path / f"{name}-stderr.txt"
    url = f"http://127.0.0.1:{port}/mcp"
    with errors.open("w", encoding="utf-8") as errlog:
        process = subprocess.Popen(
            [*MCP, "--library", str(folder), "--http", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=errlog,
            text=True,
            env=cli_env(tmp_path / f"data-{name}", env),
        )
        with reaped(process):

            def listening() -> bool:
                said = errors.read_text(encoding="utf-8")
                assert process.poll() is None, said
                return f"serving MCP at {url}" in said

            wait_for(listening, f"server {name} listening", timeout=60)
            yield url, process
            process.terminate()
            process.wait(EXIT_TIMEOUT_SECONDS)


def test_a_wrong_password_is_one_line_naming_the_setting_and_never_shown(
    tmp_path: Path, folder: Path, postgres_server: PostgresServer
) -> None:
    role, right = f"r_{uuid.uuid4().hex[:8]}", f"right-{uuid.uuid4().hex}"
    with psycopg.connect(postgres_server.url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN SUPERUSER PASSWORD '{right}'")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    good = postgres_server.tcp_url(role, right, schema)
    indexed = cli(tmp_path, "index", "--library", str(folder), env={"TUI_ASSISTANT_STORE": good})
    assert indexed.returncode == 0, indexed.stderr
    status = cli(tmp_path, "status", "--library", str(folder), env={"TUI_ASSISTANT_STORE": good})
    assert status.returncode == 0, status.stderr
    assert f"store: postgresql://{role}:***@127.0.0.1:" in status.stdout
    assert right not in status.stdout + status.stderr

    wrong = postgres_server.tcp_url(role, "wrong-hunter2", schema)
    result = cli(
        tmp_path, "ask", "--library", str(folder), "salt", env={"TUI_ASSISTANT_STORE": wrong}
    )
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert "TUI_ASSISTANT_STORE" in line and "password authentication failed" in line
    assert "wrong-hunter2" not in result.stderr + result.stdout


async def test_a_server_killed_mid_call_leaves_the_other_answering(
    tmp_path: Path, folder: Path, pg_url: str, fake_openai_server: FakeOpenAIServer
) -> None:
    env = {
        "TUI_ASSISTANT_STORE": pg_url,
        "TUI_ASSISTANT_PROVIDER": "openai",
        "TUI_ASSISTANT_BASE_URL": fake_openai_server.base_url,
        "TUI_ASSISTANT_API_KEY": "sk-test",
        "TUI_ASSISTANT_MODEL": "fake-model",
    }
    assert cli(tmp_path, "index", "--library", str(folder), env=env).returncode == 0
    question = {"question": "how much salt in pasta water"}
    with (
        server(tmp_path, "a", folder, env) as (first, process),
        server(tmp_path, "b", folder, env) as (second, _),
    ):
        fake_openai_server.behaviour = Hang()

        async def in_flight() -> None:
            async with http_session(first) as session:
                await session.call_tool("ask", question)

        call = asyncio.create_task(in_flight())
        await asyncio.to_thread(
            wait_for, lambda: fake_openai_server.request_count == 1, "the call in flight"
        )
        kill(process)  # type: ignore[arg-type]
        fake_openai_server.behaviour = CitePassage("Use 10 g of salt per litre.")
        async with http_session(second) as other:
            answered = data(await other.call_tool("ask", question))
        assert answered["outcome"] == "answered", answered
        assert answered["citations"] == ["pasta-water"]
        with pytest.raises(Exception):  # noqa: B017 - the killed server's client sees it go
            await call


def test_an_indexer_killed_mid_write_shows_nothing_and_the_next_run_goes_on(
    tmp_path: Path, pg_url: str, no_settings_from_outside: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for number in range(300):
        write_lesson(folder, f"n{number:03}", f"Note {number}", f"Remember item {number} well.")
    with (
        EmbeddingServer(workers=1) as embedding,
        psycopg.connect(pg_url.rsplit("&schema=", 1)[0], autocommit=True) as watcher,
    ):
        schema = pg_url.rsplit("schema=", 1)[1]
        env = {
            "TUI_ASSISTANT_STORE": pg_url,
            "TUI_ASSISTANT_RETRIEVAL": "hybrid",
            "TUI_ASSISTANT_EMBEDDING_BASE_URL": embedding.base_url,
            "TUI_ASSISTANT_EMBEDDING_MODEL": embedding.name,
        }

        def stored() -> int:
            try:
                row = watcher.execute(f'SELECT count(*) FROM "{schema}".piece_vectors').fetchone()
            except psycopg.errors.UndefinedTable:
                return 0
            return int(row[0]) if row else 0

        indexer = subprocess.Popen(
            [sys.executable, "-m", "tui_assistant", "index", "--library", str(folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(tmp_path / "data", env),
        )
        with reaped(indexer):
            wait_for(lambda: stored() > 0, "the first vectors written", timeout=60)
            assert indexer.poll() is None
            kill(indexer)  # type: ignore[arg-type]
        kept = stored()
        (versions,) = watcher.execute(f'SELECT count(*) FROM "{schema}".versions').fetchone()
        assert versions == 0 and kept > 0  # vectors kept, no half version
        # The next run, in this process, says how many passages it embeds.
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("TUI_ASSISTANT_DATA_DIR", str(tmp_path / "data"))
        totals: list[int] = []
        (again,) = index_libraries(
            load_settings(library=[folder]), embedding=lambda done, total: totals.append(total)
        )
        assert again.written and again.passages == 300
        assert max(totals) == 300 - kept  # one piece a passage: none embedded twice
        assert stored() == 300


async def test_calls_ride_out_a_database_restart_under_load_and_keep_every_gap(
    tmp_path: Path, folder: Path, pg_url: str, postgres_server: PostgresServer
) -> None:
    env = {"TUI_ASSISTANT_STORE": pg_url}
    assert cli(tmp_path, "index", "--library", str(folder), env=env).returncode == 0
    agents, calls = 6, 9
    phases = [asyncio.Event(), asyncio.Event()]  # the database stopped; started again
    reached: list[list[int]] = [[], []]

    async def agent(url: str, number: int) -> list[str]:
        failures = []
        async with http_session(url) as session:
            for call in range(calls):
                phase = call // (calls // 3)
                if phase and call % (calls // 3) == 0:  # a third before, during, after
                    reached[phase - 1].append(number)
                    await phases[phase - 1].wait()
                if call % 2:
                    found = data(await session.call_tool("search", {"question": "boil eggs"}))
                    if found["passages"][0]["id"] != "boiled-eggs":
                        failures.append(json.dumps(found))
                else:
                    question = {"question": f"zorblax quota {number} {call}"}
                    result = await session.call_tool("ask", question)
                    if result.is_error:
                        failures.append(str(result.content))
        return failures

    async def all_reached(phase: int) -> None:
        await asyncio.to_thread(
            wait_for,
            lambda: len(reached[phase]) == agents or any(task.done() for task in tasks),
            "every agent's calls",
        )
        assert len(reached[phase]) == agents, [task.result() for task in tasks if task.done()]

    with server(tmp_path, "a", folder, env) as (url, _):
        tasks = [asyncio.create_task(agent(url, number)) for number in range(agents)]
        await all_reached(0)
        await asyncio.to_thread(postgres_server.stop)
        try:
            phases[0].set()
            await all_reached(1)
        finally:
            await asyncio.to_thread(postgres_server.start)
        phases[1].set()
        assert [failure for task in tasks for failure in await task] == []
        schema = pg_url.rsplit("schema=", 1)[1]
        with psycopg.connect(postgres_server.url, autocommit=True) as watcher:

            def kept() -> bool:
                row = watcher.execute(f'SELECT count(*) FROM "{schema}".gaps').fetchone()
                return row is not None and row[0] == agents * (calls + 1) // 2

            wait_for(kept, "every question of every agent kept as a gap")
