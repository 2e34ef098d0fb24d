"""The headless commands start without Textual (and without the HTTP client).

Start-up time of `ask` and `lessons` is mostly import time; Textual alone costs more
than answering a question from the index. `PYTHONPROFILEIMPORTTIME` makes Python
list every module it imports on stderr, so the test sees exactly what was loaded.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.helpers import CliResult


def imported_modules(result: CliResult) -> set[str]:
    modules = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            modules.add(line.rsplit("|", 1)[1].strip())
    return modules


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("ask", "--json", "how long to boil eggs"), id="ask"),
        pytest.param(("lessons", "--json"), id="lessons"),
        pytest.param(("library", "--json"), id="library"),
    ],
)
def test_headless_commands_never_import_textual_or_httpx(
    run_cli: Callable[..., CliResult], args: tuple[str, ...]
) -> None:
    result = run_cli(*args, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert result.returncode == 0, result.stderr[-500:]
    modules = imported_modules(result)
    assert "tui_assistant.cli" in modules  # the listing works, so absence means something
    loaded_roots = {name.split(".")[0] for name in modules}
    assert "textual" not in loaded_roots
    assert "watchfiles" not in loaded_roots  # only the TUI watches
    assert "httpx" not in loaded_roots
