"""Settings: defaults, `.env`, validation with one line naming the variable; and the API
key (and credentials in a base URL) never in their repr, str or errors. (What the CLI
prints and writes is checked in `tests/e2e/test_cli_secrets.py`.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from tests.helpers.settings_secrets import (
    BAD_URLS,
    KEY,
    assert_no_secret,
)
from tui_assistant.core.library.names import LibrarySpec
from tui_assistant.errors import ConfigError, UsageError
from tui_assistant.locations import default_data_dir
from tui_assistant.settings import Settings, describe, load_settings

pytestmark = pytest.mark.usefixtures("no_settings_from_outside")


def test_defaults_are_the_documented_ones() -> None:
    settings = load_settings()
    assert settings.provider == "deterministic"
    assert settings.base_url == "https://api.openai.com/v1"
    assert settings.model == "gpt-4o-mini"
    assert settings.api_key is None
    assert settings.deadline_seconds == 20
    assert settings.monthly_call_limit is None
    assert settings.retrieval == "auto"
    assert settings.passages == 3
    assert settings.library == ()
    assert [spec.name for spec in settings.libraries] == ["lessons"]
    assert settings.data_dir == default_data_dir()
    assert settings.embedding_model is None
    assert settings.support_check == "warn"
    assert settings.watch is True


def test_dotenv_in_the_working_folder_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "TUI_ASSISTANT_MODEL=llama3\nTUI_ASSISTANT_DEADLINE_SECONDS=5\n", encoding="utf-8"
    )
    settings = load_settings()
    assert (settings.model, settings.deadline_seconds) == ("llama3", 5)


def test_environment_wins_over_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("TUI_ASSISTANT_MODEL=llama3\n", encoding="utf-8")
    monkeypatch.setenv("TUI_ASSISTANT_MODEL", "qwen")
    assert load_settings().model == "qwen"


def test_library_option_overrides_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", "/from/env")
    assert load_settings(Path("/from/option")).library == (
        LibrarySpec("option", Path("/from/option")),
    )


@pytest.mark.parametrize("name", ["TUI_ASSISTANT_LIBRARY", "TUI_ASSISTANT_LESSONS_DIR"])
def test_the_library_is_read_under_its_name_and_its_old_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    monkeypatch.setenv(name, "/docs/library")
    assert load_settings().library == (LibrarySpec("library", Path("/docs/library")),)
    monkeypatch.delenv(name)
    (tmp_path / ".env").write_text(f"{name}=/from/dotenv\n", encoding="utf-8")
    assert load_settings().library == (LibrarySpec("dotenv", Path("/from/dotenv")),)


def test_the_new_library_name_wins_over_the_old_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_LESSONS_DIR", "/old")
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", "/new")
    assert load_settings().library == (LibrarySpec("new", Path("/new")),)


def test_several_libraries_are_named_by_their_folders_or_as_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", "/src/Fastify Docs:web=/src/starlette/docs")
    assert load_settings().library == (
        LibrarySpec("fastify-docs", Path("/src/Fastify Docs")),
        LibrarySpec("web", Path("/src/starlette/docs")),
    )
    # `--library`, given again, names each folder on its own (a path may hold `:`).
    given = load_settings(["api=/x/a:b", "/y/Guide", "."]).library
    assert given == (
        LibrarySpec("api", Path("/x/a:b")),
        LibrarySpec("guide", Path("/y/Guide")),
        LibrarySpec(tmp_path.name.lower().replace("_", "-"), Path(".")),
    )
    # A folder whose name holds `=` before a non-name is a folder, not a name.
    assert load_settings(["/x/a=b"]).library == (LibrarySpec("a-b", Path("/x/a=b")),)


def test_two_libraries_of_one_name_are_a_usage_error_naming_the_option_or_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(UsageError) as given:
        load_settings(["/a/docs", "/b/docs"])
    assert str(given.value) == (
        "--library: two libraries are named docs: name one of them as NAME=DIR"
    )
    monkeypatch.setenv("TUI_ASSISTANT_LIBRARY", "/a/docs:docs=/b/api")
    with pytest.raises(ConfigError) as set_:
        load_settings()
    assert str(set_.value).startswith("TUI_ASSISTANT_LIBRARY: two libraries are named docs")
    with pytest.raises(UsageError) as nameless:
        load_settings(["/a/___"])
    assert "gives no library name: give it as NAME=DIR" in str(nameless.value)


@pytest.mark.parametrize(
    ("variable", "value", "field", "expected"),
    [
        ("TUI_ASSISTANT_GAPS", "false", "gaps", False),
        ("TUI_ASSISTANT_GAPS", "", "gaps", True),
        ("TUI_ASSISTANT_MCP_TOKEN", " ", "mcp_token", None),
    ],
)
def test_gaps_and_the_mcp_token_are_read(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, field: str, expected: object
) -> None:
    monkeypatch.setenv(variable, value)
    assert getattr(load_settings(), field) == expected


def test_the_mcp_token_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_MCP_TOKEN", "team-secret-token")
    settings = load_settings()
    assert "team-secret-token" not in repr(settings) + str(settings)
    assert settings.mcp_token is not None
    assert settings.mcp_token.get_secret_value() == "team-secret-token"


@pytest.mark.parametrize("mode", ["auto", "keyword", "ranked", "hybrid"])
def test_every_retrieval_mode_is_accepted(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", mode)
    assert load_settings().retrieval == mode


def test_an_unknown_retrieval_mode_is_one_line_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "bm25")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    message = str(raised.value)
    assert message.startswith("TUI_ASSISTANT_RETRIEVAL: ")
    assert "\n" not in message


def test_the_retrieval_option_overrides_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_RETRIEVAL", "keyword")
    assert load_settings(retrieval="ranked").retrieval == "ranked"
    assert load_settings().retrieval == "keyword"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("true", True), ("FALSE", False), (" 0 ", False), ("yes", True), ("off", False), ("", True)],
)
def test_watch_mode_is_turned_on_or_off(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: bool
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_WATCH", value)
    assert load_settings().watch is expected


@pytest.mark.parametrize("value", ["maybe", "2", "tru"])
def test_a_watch_value_that_is_not_true_or_false_is_one_line(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_WATCH", value)
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value) == "TUI_ASSISTANT_WATCH: must be true or false"


@pytest.mark.parametrize("count", ["1", "5"])
def test_passages_sent_may_be_one_to_five(monkeypatch: pytest.MonkeyPatch, count: str) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PASSAGES", count)
    assert load_settings().passages == int(count)


@pytest.mark.parametrize("count", ["0", "9", "-1"])
def test_passages_outside_one_to_five_are_refused(
    monkeypatch: pytest.MonkeyPatch, count: str
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PASSAGES", count)
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value) == "TUI_ASSISTANT_PASSAGES: must be from 1 to 5"


@pytest.mark.parametrize(
    "url",
    [
        "https://api.openai.com/v1",
        "http://127.0.0.1:8080/v1",
        "http://127.5.6.7/v1",
        "http://localhost:11434/v1",
        "http://[::1]:8000/v1",
    ],
)
def test_accepted_base_urls(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_BASE_URL", url)
    assert load_settings().base_url == url


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/v1",
        "http://10.0.0.5/v1",
        "http://localhost.example.com/v1",
        "ftp://127.0.0.1/v1",
        "not a url",
        "https://user:pw@api.example.com/v1",
    ],
)
def test_rejected_base_urls_name_the_variable(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_BASE_URL", url)
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", "sk-secret-value")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    message = str(raised.value)
    assert message.startswith("TUI_ASSISTANT_BASE_URL: ")
    assert "\n" not in message
    assert "sk-secret-value" not in message and "pw" not in message.split(": ", 1)[1]


def test_a_plain_http_url_says_https_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_BASE_URL", "http://example.com/v1")
    with pytest.raises(ConfigError, match="https is required"):
        load_settings()


def test_base_url_is_only_checked_in_openai_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_BASE_URL", "http://example.com/v1")
    assert load_settings().provider == "deterministic"


@pytest.mark.parametrize(
    ("value", "ok"), [("0.5", True), ("20", True), ("0", False), ("20.5", False)]
)
def test_deadline_is_above_zero_and_at_most_20(
    monkeypatch: pytest.MonkeyPatch, value: str, ok: bool
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_DEADLINE_SECONDS", value)
    if ok:
        assert load_settings().deadline_seconds == float(value)
    else:
        with pytest.raises(ConfigError, match=r"^TUI_ASSISTANT_DEADLINE_SECONDS: "):
            load_settings()


def test_the_key_never_appears_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", "sk-secret-value")
    settings = load_settings()
    assert "sk-secret-value" not in repr(settings)
    assert "sk-secret-value" not in str(settings)
    assert settings.api_key is not None
    assert settings.api_key.get_secret_value() == "sk-secret-value"


def test_a_dotenv_that_is_not_utf8_is_one_line_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"TUI_ASSISTANT_API_KEY=sk-\xff-secret\n")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    message = str(raised.value)
    assert message == ".env in the working folder is not UTF-8 text (byte 26)"
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"deadline_seconds": 0}, "deadline_seconds"),
        ({"deadline_seconds": 21}, "deadline_seconds"),
        ({"monthly_call_limit": -1}, "monthly_call_limit"),
        ({"provider": "openai", "model": " "}, "model"),
        ({"provider": "openai", "base_url": "http://example.com/v1"}, "base_url"),
    ],
)
def test_settings_built_in_code_meet_the_same_rules(fields: dict[str, object], named: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Settings(**fields)  # type: ignore[arg-type]
    assert describe(raised.value).startswith(f"TUI_ASSISTANT_{named.upper()}: ")


def test_settings_built_in_code_read_the_rest_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_MODEL", "llama3")
    settings = Settings(library=tmp_path, data_dir=tmp_path)
    assert (settings.library, settings.data_dir, settings.model) == (
        (LibrarySpec(tmp_path.name.lower().replace("_", "-"), tmp_path),),
        tmp_path,
        "llama3",
    )


def test_the_deadline_is_checked_whatever_the_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_DEADLINE_SECONDS", "25")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value) == (
        "TUI_ASSISTANT_DEADLINE_SECONDS: must be greater than 0 and at most 20"
    )


def test_an_empty_model_is_refused_only_in_openai_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_MODEL", " ")
    assert load_settings().model == " "
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    with pytest.raises(ConfigError, match=r"^TUI_ASSISTANT_MODEL: must not be empty$"):
        load_settings()


def test_settings_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(ValidationError):
        settings.model = "other"  # type: ignore[misc]


# -- the key and URL credentials are never echoed ------------------------------------


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


def test_a_key_read_from_dotenv_is_hidden_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"TUI_ASSISTANT_PROVIDER=openai\nTUI_ASSISTANT_API_KEY={KEY}\n", encoding="utf-8"
    )

    settings = load_settings()

    assert settings.api_key is not None and settings.api_key.get_secret_value() == KEY
    assert KEY not in repr(settings)
    assert KEY not in str(settings)


def test_a_key_pasted_with_surrounding_whitespace_is_the_same_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", "openai")
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", f"  {KEY}\n")

    settings = load_settings()

    assert settings.api_key is not None and settings.api_key.get_secret_value() == KEY


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


def test_other_setting_errors_do_not_echo_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_ASSISTANT_API_KEY", KEY)
    monkeypatch.setenv("TUI_ASSISTANT_PROVIDER", KEY)

    with pytest.raises(ConfigError) as caught:
        load_settings()

    assert str(caught.value).startswith("TUI_ASSISTANT_PROVIDER: ")
    assert_no_secret(str(caught.value))
