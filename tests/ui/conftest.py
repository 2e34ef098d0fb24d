"""Fixtures of the UI tests."""

from __future__ import annotations

from pathlib import Path

import pytest

NESTED = {
    "intro.md": "# Intro\n\nWelcome to the library.\n",
    "cooking/eggs.md": "# Boiled eggs\n\nSix minutes for a runny yolk.\n",
    "cooking/pasta.md": (
        "# Pasta\n\nDried pasta keeps.\n\n"
        "## Salting the water\n\nTen grams of salt per litre.\n\n"
        "## Cooking time\n\nTaste early.\n"
    ),
    "kitchen/knives/sharpening.md": (
        "# Sharpening\n\n## Honing\n\nUse a steel.\n\n## Whetstones\n\nSoak the stone.\n"
    ),
}


@pytest.fixture(autouse=True)
def no_watching_unless_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Watch mode off: a file a test writes is reloaded when the test presses ctrl+r,
    not also by itself. The watch tests (`test_library_watch.py`) turn it on by name."""
    monkeypatch.setenv("TUI_ASSISTANT_WATCH", "false")


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    for relative, text in NESTED.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder
