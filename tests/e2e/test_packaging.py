"""A non-editable install carries the bundled lessons and finds them from any folder."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.helpers import PROJECT_ROOT, cli_env


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
        "library": "lessons",
        "page": None,
        "end_page": None,
        "url": None,
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
    metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode("utf-8")
    assert "License-Expression: MIT" in text
    assert "Classifier: Operating System :: POSIX :: Linux" in text
    assert "Classifier: Operating System :: MacOS" in text
    assert "Requires-Dist: textual<9,>=8.2" in text
    assert any(name.endswith("licenses/LICENSE") for name in names)


def test_sdist_carries_the_license(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(tmp_path)],
        check=True,
        capture_output=True,
        cwd=PROJECT_ROOT,
    )
    (sdist,) = tmp_path.glob("tui_assistant-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "pyproject.toml", "README.md"} <= names
    assert (PROJECT_ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_only_textuals_public_api_is_imported() -> None:
    """Private modules (`textual._...`) change without notice within a release range."""
    for folder in ("tui_assistant", "tests", "benchmarks"):
        for path in (PROJECT_ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"(from|import)\s+textual\._", text), path
