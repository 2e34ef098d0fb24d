"""Every module of the package stays short enough to read in one sitting."""

from __future__ import annotations

from pathlib import Path

import tui_assistant

PACKAGE = Path(tui_assistant.__file__).parent
MOST_LINES = 400


def test_no_module_of_the_package_is_over_400_lines() -> None:
    long = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }

    assert long == {}
