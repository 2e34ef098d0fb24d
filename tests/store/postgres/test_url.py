"""The store setting read as a URL: the password never shows, a bad value is one line."""

from __future__ import annotations

import pytest

from tui_assistant.errors import ConfigError
from tui_assistant.store.postgres.url import parse_store_url


def test_the_password_is_masked_in_what_is_shown() -> None:
    url = parse_store_url("postgresql://reader:s3cret-pw@db.example:5433/docs")
    assert "s3cret-pw" not in url.shown
    assert "s3cret-pw" not in repr(url)
    assert url.shown == "postgresql://reader:***@db.example:5433/docs"
    assert url.hidden("auth failed for s3cret-pw") == "auth failed for ***"


def test_socket_folders_and_a_schema_are_read() -> None:
    url = parse_store_url("postgresql://postgres:@/postgres?host=/run/pg&schema=team_a")
    assert url.schema == "team_a"
    assert "schema" not in url.conninfo
    assert "host=%2Frun%2Fpg" in url.conninfo


@pytest.mark.parametrize(
    "value", ["mysql://x@h/db", "postgresql://x@h/", "postgresql://x@h/db?schema=Bad-Name"]
)
def test_a_url_that_is_not_a_store_is_one_line_naming_the_setting(value: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_store_url(value)
    assert str(raised.value).startswith("TUI_ASSISTANT_STORE: ")
    assert "\n" not in str(raised.value)
