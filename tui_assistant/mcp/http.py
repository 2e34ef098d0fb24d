"""The MCP server over streamable HTTP (`tui-assistant mcp --http [HOST:]PORT`), for a
team whose agents share one server.

The SDK's streamable HTTP app serves the tools at `/mcp`; uvicorn runs it on a socket
bound here first, so a port in use is one line and exit 2, not a traceback. It listens
on loopback unless HOST says otherwise. Any other address needs a bearer token
(`TUI_ASSISTANT_MCP_TOKEN`): without one the command refuses to start. With a token set,
every request must send `Authorization: Bearer <token>` (compared in constant time) or
is answered 401; the token is never logged or shown. The tools only read: nothing a
client sends writes to the library.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from tui_assistant import PROG
from tui_assistant.errors import ConfigError, UsageError, os_error_words
from tui_assistant.settings import Settings
from tui_assistant.urls import is_loopback

DEFAULT_HOST = "127.0.0.1"
MCP_PATH = "/mcp"
HEALTH_PATH = "/health"
TOKEN_SETTING = "TUI_ASSISTANT_MCP_TOKEN"


@dataclass(frozen=True, slots=True)
class HttpAddress:
    host: str
    port: int

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}{MCP_PATH}"


def parse_http_address(value: str) -> HttpAddress:
    """`PORT`, `HOST:PORT` or `[IPV6]:PORT`; `UsageError` naming `--http` otherwise."""
    host, colon, port = value.rpartition(":")
    if not colon:
        host, port = DEFAULT_HOST, value
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"--http: {value!r} is not [HOST:]PORT (a port from 1 to 65535)")
    return HttpAddress(host, int(port))


def check_token_rule(address: HttpAddress, settings: Settings) -> str | None:
    """The token clients must send, if any; `ConfigError` when `address` is not loopback
    and no token is set."""
    token = settings.mcp_token.get_secret_value() if settings.mcp_token is not None else None
    if token is None and not is_loopback(address.host):
        raise ConfigError(
            f"{TOKEN_SETTING}: serving on {address.host}, which is not loopback, needs a"
            " bearer token for clients to send"
        )
    return token


class BearerToken:
    """ASGI middleware: an HTTP request without `Authorization: Bearer <token>` gets 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = b""
            for name, value in scope["headers"]:
                if name == b"authorization":
                    given = value
            if not hmac.compare_digest(given, self._expected):
                refusal = JSONResponse(
                    {"error": "unauthorized: send Authorization: Bearer <token>"},
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Health:
    """ASGI middleware: `GET /health` answers `health()` as JSON, with no token asked
    (it says nothing of the libraries' text); every other request goes on to `app`."""

    def __init__(self, app: ASGIApp, health: Callable[[], dict[str, object]]) -> None:
        self.app = app
        self.health = health

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == HEALTH_PATH:
            await JSONResponse(self.health())(scope, receive, send)
            return
        await self.app(scope, receive, send)


def listening_socket(address: HttpAddress) -> socket.socket:
    """A socket bound to `address` and listening; `ConfigError` (one line) when it
    cannot be (a port in use, an address not of this machine)."""
    try:
        family = socket.AF_INET6 if _is_ipv6(address.host) else socket.AF_INET
        infos = socket.getaddrinfo(address.host, address.port, family, socket.SOCK_STREAM)
        family, kind, protocol, _, where = infos[0]
        listener = socket.socket(family, kind, protocol)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(where)
            listener.listen(128)
        except BaseException:
            listener.close()
            raise
    except OSError as error:
        reason = os_error_words(error)
        raise ConfigError(
            f"--http: cannot listen on {address.host}:{address.port} ({reason})"
        ) from None
    return listener


def _is_ipv6(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).version == 6
    except ValueError:
        return False


def run_http(
    app: ASGIApp,
    address: HttpAddress,
    token: str | None,
    health: Callable[[], dict[str, object]] | None = None,
) -> None:
    """Serve `app` on `address` until interrupted (Ctrl-C, SIGTERM); `health` answers
    `GET /health`."""
    # uvicorn loads only when serving over HTTP: stdio never needs it.
    import uvicorn

    listener = listening_socket(address)
    served = BearerToken(app, token) if token is not None else app
    if health is not None:
        served = Health(served, health)
    # Warnings only: uvicorn's access log is off, and no header is ever logged.
    config = uvicorn.Config(served, log_level="warning", access_log=False, lifespan="on")
    print(f"{PROG}: serving MCP at {address.url}", file=sys.stderr, flush=True)
    uvicorn.Server(config).run(sockets=[listener])
