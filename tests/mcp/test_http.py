"""`mcp --http` without a server: the address, the token rule, and the bearer-token check
in front of the app."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed")

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from tui_assistant.errors import ConfigError, UsageError
from tui_assistant.mcp.http import (
    BearerToken,
    HttpAddress,
    check_token_rule,
    listening_socket,
    parse_http_address,
)
from tui_assistant.settings import Settings


@pytest.mark.parametrize(
    ("value", "address"),
    [
        ("8000", HttpAddress("127.0.0.1", 8000)),
        ("0.0.0.0:8000", HttpAddress("0.0.0.0", 8000)),
        ("docs.internal:80", HttpAddress("docs.internal", 80)),
        ("[::1]:8443", HttpAddress("::1", 8443)),
    ],
)
def test_an_address_is_a_port_with_loopback_or_a_host_and_port(
    value: str, address: HttpAddress
) -> None:
    assert parse_http_address(value) == address


@pytest.mark.parametrize("value", ["", "http", ":8000", "host:", "8000:host", "70000", "0"])
def test_anything_else_is_a_usage_error_naming_the_option(value: str) -> None:
    with pytest.raises(UsageError) as raised:
        parse_http_address(value)
    assert str(raised.value).startswith("--http: ")


def test_the_url_is_the_mcp_path_on_the_address() -> None:
    assert HttpAddress("127.0.0.1", 8000).url == "http://127.0.0.1:8000/mcp"
    assert HttpAddress("::1", 8000).url == "http://[::1]:8000/mcp"


def settings(tmp_path: Path, token: str | None) -> Settings:
    return Settings(data_dir=tmp_path, mcp_token=token)  # type: ignore[arg-type]


def test_only_loopback_serves_without_a_token(tmp_path: Path) -> None:
    for host in ("127.0.0.1", "localhost", "::1"):
        assert check_token_rule(HttpAddress(host, 8000), settings(tmp_path, None)) is None
    for host in ("0.0.0.0", "192.168.1.20", "docs.internal"):
        with pytest.raises(ConfigError) as raised:
            check_token_rule(HttpAddress(host, 8000), settings(tmp_path, None))
        assert str(raised.value).startswith("TUI_ASSISTANT_MCP_TOKEN: serving on ")
    token = check_token_rule(HttpAddress("0.0.0.0", 8000), settings(tmp_path, "s3cret"))
    assert token == "s3cret"
    # A token set is required on loopback too.
    assert check_token_rule(HttpAddress("127.0.0.1", 8000), settings(tmp_path, "s3cret"))


def test_a_request_without_the_bearer_token_gets_401() -> None:
    app = Starlette(routes=[Route("/mcp", lambda _: PlainTextResponse("tools"), methods=["POST"])])
    client = TestClient(BearerToken(app, "s3cret"))
    assert client.post("/mcp").status_code == 401
    assert client.post("/mcp", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert client.post("/mcp", headers={"Authorization": "s3cret"}).status_code == 401
    refused = client.post("/mcp", headers={"Authorization": "Bearer s3cret "})
    assert refused.status_code == 401 and "s3cret" not in refused.text
    assert refused.headers["www-authenticate"] == "Bearer"
    allowed = client.post("/mcp", headers={"Authorization": "Bearer s3cret"})
    assert (allowed.status_code, allowed.text) == (200, "tools")


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError) as raised:
            listening_socket(HttpAddress("127.0.0.1", port))
    assert str(raised.value).startswith(f"--http: cannot listen on 127.0.0.1:{port} (")
    assert "\n" not in str(raised.value)
