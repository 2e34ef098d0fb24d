"""Shared test helpers: temporary lesson libraries, the real CLI in a subprocess, and the
loopback fake model server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.fake_openai_server import FakeOpenAIServer
from tui_assistant.core.library import Library
from tui_assistant.core.store import open_library
from tui_assistant.core.text import stem

# CI runs the same examples every time, so a submission never fails on a fresh random
# draw; local runs keep exploring (and keep what they find in .hypothesis/).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BUNDLED_LESSONS = PROJECT_ROOT / "lessons"


def memory_library(folder: Path) -> Library:
    """The library at `folder`, indexed in memory (no store on disk) with the keyword keys."""
    return open_library(folder, None, stem)


def write_lesson(folder: Path, lesson_id: str, title: str, text: str) -> Path:
    path = folder / f"{lesson_id}.md"
    path.write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
    return path


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


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


def cli_env(data_dir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a user's script would have: no stray TUI_ASSISTANT_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUI_ASSISTANT_")}
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    env["TUI_ASSISTANT_DATA_DIR"] = str(data_dir)
    env.update(extra or {})
    return env


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
