"""The store setting read as a PostgreSQL URL: the schema it names, and the URL with its
password masked wherever it is shown (errors, logs, status); whether the driver is
installed. Pure: nothing here needs the driver."""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from tui_assistant.errors import ConfigError

SETTING = "TUI_ASSISTANT_STORE"
DEFAULT_SCHEMA = "tui_assistant"
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_MASK = "***"
INSTALL_LINE = (
    f"{SETTING}: a PostgreSQL store needs the postgres extra: pip install 'tui-assistant[postgres]'"
)


@dataclass(frozen=True, slots=True)
class StoreUrl:
    """A PostgreSQL store: `conninfo` for libpq (our own `schema` query key removed),
    `schema` the deployment's schema, `shown` the URL with its password masked."""

    conninfo: str
    schema: str
    shown: str
    password: str | None

    def __repr__(self) -> str:
        return f"StoreUrl({self.shown!r}, schema={self.schema!r})"

    def hidden(self, text: str) -> str:
        """`text` with the password masked, should a driver's message quote it."""
        if self.password:
            text = text.replace(self.password, _MASK)
        return text


def parse_store_url(value: str) -> StoreUrl:
    """`postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?host=/socket/dir&schema=NAME]`;
    `ConfigError` naming the setting (never echoing the value) when it is not one."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("postgresql", "postgres"):
        raise ConfigError(f"{SETTING}: must be sqlite or a postgresql:// URL")
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = DEFAULT_SCHEMA
    kept = []
    for key, item in query:
        if key == "schema":
            schema = item
        else:
            kept.append((key, item))
    if not _SCHEMA_NAME.match(schema):
        raise ConfigError(f"{SETTING}: schema must be lower-case letters, digits and _")
    if not parts.path.strip("/"):
        raise ConfigError(f"{SETTING}: the URL names no database (postgresql://USER@HOST/DB)")
    conninfo = urlunsplit(parts._replace(query=urlencode(kept)))
    password = parts.password or dict(kept).get("password")
    shown_query = urlencode([(k, _MASK if k == "password" else v) for k, v in kept])
    netloc = parts.netloc
    if parts.password:
        user, _, place = netloc.rpartition("@")
        name = user.split(":", 1)[0]
        netloc = f"{name}:{_MASK}@{place}"
    shown = urlunsplit(parts._replace(netloc=netloc, query=shown_query))
    return StoreUrl(conninfo, schema, shown, password or None)


def require_driver() -> None:
    """`ConfigError` saying how to install the extra when its driver is missing."""
    if any(importlib.util.find_spec(name) is None for name in ("psycopg", "pgvector")):
        raise ConfigError(INSTALL_LINE)
