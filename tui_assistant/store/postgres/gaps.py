"""The questions the libraries could not answer, in the PostgreSQL store: every server
appends, in the same objects as the SQLite store's lines. A gap that cannot be written
(the database is away) waits in memory, up to `MAX_WAITING`, and is written once the
database answers again."""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import Final

import psycopg
from psycopg.types.json import Jsonb

from tui_assistant.core.gaps import Gap
from tui_assistant.store.gaps import gap_record, parse_gap

MAX_WAITING: Final = 10_000


class GapWriter:
    """Appends gaps through `connect()`'s connections, keeping those it could not write."""

    def __init__(self) -> None:
        self._waiting: deque[tuple[str, Gap]] = deque(maxlen=MAX_WAITING)
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def add(self, connection: psycopg.Connection | None, library: str, gap: Gap) -> bool:
        """Keep `gap`; write it and any waiting ones now through `connection`, when there
        is one. False when they wait for the next `flush`."""
        with self._lock:
            self._waiting.append((library, gap))
        return connection is not None and self.flush(connection)

    def flush(self, connection: psycopg.Connection) -> bool:
        """Write the waiting gaps; False (they keep waiting) when the database refuses."""
        with self._lock:
            batch = list(self._waiting)
            if not batch:
                return True
            try:
                with connection.transaction(), connection.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO gaps (library, record) VALUES (%s, %s)",
                        [(library, Jsonb(gap_record(gap))) for library, gap in batch],
                    )
            except psycopg.Error:
                return False
            for _ in batch:
                self._waiting.popleft()
        return True


def read_gaps(connection: psycopg.Connection, library: str) -> list[Gap]:
    """Library `library`'s gaps, in the order asked."""
    gaps = []
    for (record,) in connection.execute(
        "SELECT record FROM gaps WHERE library = %s ORDER BY id", (library,)
    ):
        gap = parse_gap(json.dumps(record))
        if gap is not None:
            gaps.append(gap)
    return gaps
