"""A non-editable install carries the bundled lessons and finds them from any folder."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import PROJECT_ROOT, cli_env


def test_wheel_ships_the_lessons_and_the_installed_app_finds_them(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(PROJECT_ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("tui_assistant-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tui_assistant/lessons/pasta-water.md" in names

    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = cli_env(tmp_path / "data")
    env["PYTHONPATH"] = str(target)  # the installed copy, not the source tree
    result = subprocess.run(
        [sys.executable, "-m", "tui_assistant", "lessons", "--json"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=env,
        check=True,
    )
    lessons = json.loads(result.stdout)
    assert {
        "id": "pasta-water",
        "title": "Salting pasta water",
        "source_path": "lessons/pasta-water.md",
        "line": 1,
        "end_line": 11,
    } in lessons
    located = subprocess.run(
        [sys.executable, "-c", "import tui_assistant; print(tui_assistant.__file__)"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=env,
        check=True,
    )
    assert located.stdout.startswith(str(target))
