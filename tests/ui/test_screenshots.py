"""screenshots/ is current: regenerating it from the real app gives the committed files."""

from __future__ import annotations

from pathlib import Path

from scripts.screenshots import SCENES, take_all
from tests.helpers import PROJECT_ROOT


async def test_screenshots_are_deterministic_and_current(tmp_path: Path) -> None:
    paths = await take_all(tmp_path)
    assert sorted(path.name for path in paths) == sorted(f"{name}.svg" for name in SCENES)
    stale = [
        path.name
        for path in paths
        if path.read_bytes() != (PROJECT_ROOT / "screenshots" / path.name).read_bytes()
    ]
    assert not stale, f"run `python -m scripts.screenshots` to refresh {stale}"
