"""What `GET /health` says of the libraries served: each one's name, the version of it
the store holds that is served, and its passage count; never any of its text.

A PostgreSQL store's version is the id its indexer wrote. An SQLite store's is the
highest passage number it has handed out: numbers are never reused, so any re-read
file moves it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from tui_assistant.core.library.library import Library
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import store_path
from tui_assistant.wiring.store_setting import uses_postgres


def library_health(settings: Settings, library: Library) -> list[dict[str, object]]:
    """`{"name", "version_id", "passages"}` for each library of `library`."""
    rows: list[dict[str, object]] = []
    for part in library.parts.values():
        if uses_postgres(settings):
            # psycopg loads only for a PostgreSQL store.
            from tui_assistant.wiring.shared_store import served_version

            version: object = served_version(settings, part.name)
        else:
            version = _sqlite_version(store_path(settings.data_dir, part.folder))
        rows.append({"name": part.name, "version_id": version, "passages": len(part)})
    return rows


def _sqlite_version(path: Path) -> str | None:
    try:
        uri = f"{Path(os.path.abspath(path)).as_uri()}?mode=ro"
        connection = sqlite3.connect(uri, uri=True, timeout=1.0)
    except sqlite3.Error:
        return None
    try:
        row = connection.execute(
            "SELECT seq FROM sqlite_sequence WHERE name = 'passages'"
        ).fetchone()
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return None if row is None else str(row[0])
