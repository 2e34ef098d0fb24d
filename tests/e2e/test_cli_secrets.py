"""The API key and credentials in a base URL never show up in anything the CLI prints
or writes. (Settings' repr, str and errors, in process, are in `tests/test_settings.py`.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import RunCli
from tests.helpers.settings_secrets import (
    BAD_URLS,
    KEY,
    assert_no_secret,
    assert_no_secret_in_files,
)


@pytest.mark.parametrize("case", BAD_URLS)
def test_ask_in_openai_mode_with_a_bad_url_exits_2_with_one_line(
    run_cli: RunCli, tmp_path: Path, case: str
) -> None:
    url, expected = BAD_URLS[case]

    result = run_cli(
        "ask",
        "--json",
        "how much salt for pasta water",
        env={
            "TUI_ASSISTANT_PROVIDER": "openai",
            "TUI_ASSISTANT_API_KEY": KEY,
            "TUI_ASSISTANT_BASE_URL": url,
        },
    )

    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("tui-assistant: error: TUI_ASSISTANT_BASE_URL: ")
    assert expected in line
    assert_no_secret(result.stdout + result.stderr)
    assert_no_secret_in_files(tmp_path / "data")


def test_a_bad_url_in_dotenv_is_reported_without_its_credentials(
    run_cli: RunCli, tmp_path: Path
) -> None:
    url, _ = BAD_URLS["user and password"]
    # run_cli works in tmp_path / "cwd", where the app looks for `.env`.
    (tmp_path / "cwd" / ".env").write_text(
        "TUI_ASSISTANT_PROVIDER=openai\n"
        f"TUI_ASSISTANT_API_KEY={KEY}\n"
        f"TUI_ASSISTANT_BASE_URL={url}\n",
        encoding="utf-8",
    )

    result = run_cli("ask", "how much salt for pasta water")

    assert result.returncode == 2
    assert result.stderr == (
        "tui-assistant: error: TUI_ASSISTANT_BASE_URL: must not contain a user name or password\n"
    )
    assert_no_secret(result.stdout + result.stderr)


def test_lessons_and_deterministic_ask_never_print_the_key(run_cli: RunCli, tmp_path: Path) -> None:
    env = {"TUI_ASSISTANT_API_KEY": KEY}

    outputs = [
        run_cli("ask", "how much salt for pasta water", env=env),
        run_cli("ask", "--json", "how much salt for pasta water", "nothing here", env=env),
        run_cli("passages", "--json", env=env),
        run_cli("--version", env=env),
        run_cli("ask", "--library", str(tmp_path / "missing"), "question", env=env),
    ]

    assert [result.returncode for result in outputs] == [0, 0, 0, 0, 2]
    for result in outputs:
        assert_no_secret(result.stdout + result.stderr)
    assert_no_secret_in_files(tmp_path / "data")
