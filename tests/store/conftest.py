"""Fixtures of the store tests: a small library on disk, a data folder, and a count of the
documents the index store reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.store_files import write_kitchen
from tui_assistant.store import updates as store


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_kitchen(tmp_path / "lessons")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The documents the store reads from disk, in order."""
    seen: list[str] = []
    real = store.read_document

    def counting(folder: Path, relative_path: str, **options: object) -> object:
        seen.append(relative_path)
        return real(folder, relative_path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "read_document", counting)
    return seen
