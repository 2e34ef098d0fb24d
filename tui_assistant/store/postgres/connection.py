"""Connections to the PostgreSQL store, with the `postgres` extra's driver (psycopg 3).

Every connection sets the deployment's schema first on its search path (pgvector's
types stay reachable in `public`) and names this program, its pid and host in
`application_name`, so `pg_stat_activity` says who is connected. A failure to connect
is one line naming `TUI_ASSISTANT_STORE`, with the password masked.
"""

from __future__ import annotations

import os
import socket

import psycopg
from pgvector.psycopg import register_vector

from tui_assistant import PROG
from tui_assistant.errors import ConfigError
from tui_assistant.store.postgres.url import SETTING, StoreUrl

CONNECT_SECONDS = 5


def application_name(role: str) -> str:
    """`tui-assistant ROLE pid@host`, cut to PostgreSQL's 63 bytes."""
    return f"{PROG} {role} {os.getpid()}@{socket.gethostname()}"[:63]


def connect(store: StoreUrl, role: str, *, autocommit: bool = True) -> psycopg.Connection:
    """A connection to `store` for `role` (`index`, `server`, `listen`)."""
    try:
        connection = psycopg.connect(
            store.conninfo,
            autocommit=autocommit,
            connect_timeout=CONNECT_SECONDS,
            application_name=application_name(role),
        )
    except psycopg.Error as error:
        raise ConfigError(unreachable(store, error)) from None
    try:
        connection.execute(f'SET search_path TO "{store.schema}", public')
        if not autocommit:
            connection.commit()
    except psycopg.Error as error:
        connection.close()
        raise ConfigError(unreachable(store, error)) from None
    return connection


def unreachable(store: StoreUrl, error: BaseException) -> str:
    """One line: the store (password masked) and the driver's reason."""
    reason = " ".join(str(error).split()) or type(error).__name__
    return store.hidden(f"{SETTING}: cannot use {store.shown} ({reason})")


def register_vectors(connection: psycopg.Connection) -> None:
    """pgvector's types on `connection` (numpy arrays in and out)."""
    register_vector(connection)
