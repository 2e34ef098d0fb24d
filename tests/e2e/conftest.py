"""Everything under tests/e2e is slow and end to end (subprocesses of the app, pseudo-
terminals, SIGKILL): marked `e2e`, so `pytest -m "not e2e"` runs the fast suite."""

from __future__ import annotations

from pathlib import Path

import pytest

E2E_FOLDER = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_FOLDER in item.path.resolve().parents:
            item.add_marker(pytest.mark.e2e)
