"""The API key (and credentials in a base URL) never show up in settings' repr/str,
in a configuration error, or in anything the CLI prints or writes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from tests.helpers import CliResult
from tui_assistant.settings import ConfigError, Settings, load_settings

RunCli = Callable[..., CliResult]

KEY = "sk-test-5f3c9a1b7e2d4c6a8b0e"
URL_USER = "alice-user-7731"
URL_PASSWORD = "hunter2-pass-9924"

# Every value that must never be printed back.
SECRETS = (KEY, URL_USER, URL_PASSWORD)


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No stray TUI_ASSISTANT_* variables and no `.env` in the working folder."""
    for name in list(os.environ):
        if name.startswith("TUI_ASSISTANT_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


def assert_no_secret_in_files(folder: Path) -> None:
    if not folder.exists():
        return
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in SECRETS:
                assert secret.encode() not in data, path


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize("provider", ["deterministic", "openai"])
def test_repr_and_str_of_settings_hide_the_key(
    monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", provider)
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", KEY)

    settings = load_settings()

    assert settings.api_key is not None
    assert settings.api_key.get_secret_value() == KEY  # the key itself is kept...
    for shown in (
        repr(settings),
        str(settings),
        f"{settings}",
        f"{settings!r}",
        settings.model_dump_json(),
        json.dumps(settings.model_dump(), default=str),
        str(settings.model_dump()),
        repr(settings.api_key),
        str(settings.api_key),
    ):
        assert KEY not in shown  # ...but never shown


@pytest.mark.usefixtures("clean_environment")
def test_a_key_read_from_dotenv_is_hidden_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"TUI_ASSISTANT_PROVIDER=openai\nTUI_ASSISTANT_API_KEY={KEY}\n", encoding="utf-8"
    )

    settings = load_settings()

    assert settings.api_key is not None and settings.api_key.get_secret_value() == KEY
    assert KEY not in repr(settings)
    assert KEY not in str(settings)


@pytest.mark.usefixtures("clean_environment")
def test_a_key_pasted_with_surrounding_whitespace_is_the_same_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", f"  {KEY}\n")

    settings = load_settings()

    assert settings.api_key is not None and settings.api_key.get_secret_value() == KEY


BAD_URLS = {
    "plain http to a remote host": ("http://example.com/v1", "https is required"),
    "user and password": (
        f"https://{URL_USER}:{URL_PASSWORD}@api.example.com/v1",
        "must not contain a user name or password",
    ),
    "password with a bad port": (
        f"https://{URL_USER}:{URL_PASSWORD}@api.example.com:port/v1",
        "is not a valid URL",
    ),
    "broken IPv6 with password": (
        f"https://{URL_USER}:{URL_PASSWORD}@[::1/v1",
        "is not a valid URL",
    ),
    "key in the query": (f"https://api.example.com/v1?key={KEY}", "query or fragment"),
    "key in the user part": (f"https://{KEY}@api.example.com/v1", "user name or password"),
    "key in an http path": (f"http://example.com/{KEY}", "https is required"),
    "not a URL at all": (f"{URL_USER}:{URL_PASSWORD}", "https:// URL with a host"),
}


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize("case", BAD_URLS)
def test_base_url_errors_echo_neither_key_nor_credentials(
    monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    url, expected = BAD_URLS[case]
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", KEY)
    monkeypatch.setenv("TUI_ASSISTANT_BASE_URL", url)

    with pytest.raises(ConfigError) as caught:
        load_settings()

    message = str(caught.value)
    assert message.startswith("TUI_ASSISTANT_BASE_URL: ")
    assert expected in message
    assert "\n" not in message
    assert_no_secret(message)
    assert url not in message
    # Nothing chained that a traceback printer could show.
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize(
    "key",
    [f"{KEY} extra", f"{KEY}\nX-Injected: 1", f"{KEY}é", f"{KEY}\tx"],
    ids=["space", "header injection", "non-ascii", "tab"],
)
def test_a_key_unfit_for_a_header_is_refused_without_echo(
    monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", key)

    with pytest.raises(ConfigError) as caught:
        load_settings()

    assert str(caught.value) == (
        "TUI_ASSISTANT_API_KEY: must be visible ASCII characters only (no spaces)"
    )


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize(
    "fields",
    [
        {"api_key": f"{KEY}\x00"},
        {"api_key": KEY, "base_url": BAD_URLS["user and password"][0]},
        {"api_key": KEY, "base_url": BAD_URLS["key in the query"][0]},
        {"api_key": KEY, "deadline_seconds": KEY},
    ],
    ids=["nul in key", "password in url", "key in url", "key as deadline"],
)
def test_even_the_raw_validation_error_quotes_no_secret(fields: dict[str, str]) -> None:
    """Code that builds `Settings` directly, not through `load_settings`, still
    cannot print a secret in a traceback."""
    with pytest.raises(ValidationError) as caught:
        Settings(provider="openai", **fields)  # type: ignore[arg-type]

    assert_no_secret(str(caught.value))
    assert_no_secret(repr(caught.value))


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize(
    "fields",
    [
        {"api_key": SecretStr(f"{KEY}\x00")},
        {"api_key": SecretStr(KEY), "base_url": BAD_URLS["user and password"][0]},
        {"api_key": SecretStr(KEY), "base_url": BAD_URLS["key in the query"][0]},
    ],
    ids=["nul in key", "password in url", "key in url"],
)
def test_settings_built_in_code_meet_the_same_rules_without_echo(
    fields: dict[str, object],
) -> None:
    """`Settings` made by code (a test, a script) cannot hold a key unfit for a header or
    a URL that would send credentials, and its error quotes neither."""
    with pytest.raises(ValidationError) as caught:
        Settings(provider="openai", **fields)  # type: ignore[arg-type]

    assert_no_secret(str(caught.value))
    assert_no_secret(repr(caught.value))


@pytest.mark.usefixtures("clean_environment")
def test_other_setting_errors_do_not_echo_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", KEY)
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", KEY)

    with pytest.raises(ConfigError) as caught:
        load_settings()

    assert str(caught.value).startswith("TUI_ASSISTANT_PROVIDER: ")
    assert_no_secret(str(caught.value))


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
        run_cli("lessons", "--json", env=env),
        run_cli("--version", env=env),
        run_cli("ask", "--lessons", str(tmp_path / "missing"), "question", env=env),
    ]

    assert [result.returncode for result in outputs] == [0, 0, 0, 0, 2]
    for result in outputs:
        assert_no_secret(result.stdout + result.stderr)
    assert_no_secret_in_files(tmp_path / "data")
