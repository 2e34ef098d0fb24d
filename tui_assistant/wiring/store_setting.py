"""Which store the settings name (`TUI_ASSISTANT_STORE`, `--store`): `sqlite`, or a
PostgreSQL URL read and checked here without its driver, so the SQLite path never
loads psycopg and a missing extra is one line saying how to install it."""

from __future__ import annotations

from tui_assistant.settings import SQLITE_STORE, Settings
from tui_assistant.store.postgres.url import StoreUrl, parse_store_url, require_driver


def uses_postgres(settings: Settings) -> bool:
    return settings.store.get_secret_value() != SQLITE_STORE


def store_url(settings: Settings) -> StoreUrl:
    """The PostgreSQL store the settings name; `ConfigError` when it is not one or the
    `postgres` extra is not installed."""
    url = parse_store_url(settings.store.get_secret_value())
    require_driver()
    return url


def shown_store(settings: Settings) -> str:
    """The store as status shows it: `sqlite`, or the URL with its password masked."""
    if not uses_postgres(settings):
        return SQLITE_STORE
    return parse_store_url(settings.store.get_secret_value()).shown
