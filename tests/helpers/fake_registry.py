"""A fake package index and registry on 127.0.0.1 serving real archives the tests make.

`FakeRegistry` is a threaded `http.server` on an ephemeral loopback port. It serves a
PEP 691 simple-API page per PyPI project (`/simple/NAME/`), an npm packument per
package (`/npm/NAME`) and the archives themselves (`/files/FILENAME`), each with the
sha256 (PyPI) or sha512 integrity (npm) of the bytes it serves; `routes` overrides any
path (a redirect, a status). Archives are built with `sdist`, `npm_tarball` and
`tar_of`/`zip_of` for hostile ones.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import threading
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Member:
    """One entry of a test archive: a file (`data`), or `kind` `dir`, `symlink`,
    `hardlink` (to `target`), `device` or `fifo`; `size` overrides the declared size."""

    name: str
    data: bytes = b""
    kind: str = "file"
    target: str = ""


def tar_of(members: list[Member], compress: str = "gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=f"w:{compress}") as tar:
        for member in members:
            info = tarfile.TarInfo(member.name)
            info.mode = 0o644
            source = None
            if member.kind == "file":
                info.size = len(member.data)
                source = io.BytesIO(member.data)
            elif member.kind == "dir":
                info.type = tarfile.DIRTYPE
            elif member.kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, member.target
            elif member.kind == "hardlink":
                info.type, info.linkname = tarfile.LNKTYPE, member.target
            elif member.kind == "device":
                info.type, info.devmajor, info.devminor = tarfile.CHRTYPE, 1, 3
            elif member.kind == "fifo":
                info.type = tarfile.FIFOTYPE
            tar.addfile(info, source)
    return buffer.getvalue()


def zip_of(members: list[Member]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            info = zipfile.ZipInfo(member.name)
            if member.kind == "symlink":
                info.external_attr = 0o120777 << 16
                archive.writestr(info, member.target)
            else:
                info.external_attr = 0o100644 << 16
                archive.writestr(info, member.data)
    return buffer.getvalue()


def sdist(name: str, version: str, files: Mapping[str, str]) -> tuple[str, bytes]:
    """A source distribution `NAME-VERSION.tar.gz` holding `files` under its top folder."""
    top = f"{name.replace('-', '_')}-{version}"
    members = [Member(f"{top}/{path}", text.encode()) for path, text in files.items()]
    return f"{top}.tar.gz", tar_of(members)


def npm_tarball(name: str, version: str, files: Mapping[str, str]) -> tuple[str, bytes]:
    """An npm tarball: `files` under `package/`."""
    members = [Member(f"package/{path}", text.encode()) for path, text in files.items()]
    return f"{name.rsplit('/', 1)[-1]}-{version}.tgz", tar_of(members)


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


class FakeRegistry:
    """PyPI projects and npm packages, served on loopback; `.index_url` and
    `.npm_url` are the settings' values."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.pypi: dict[str, list[dict[str, object]]] = {}
        self.npm: dict[str, dict[str, object]] = {}
        self.routes: dict[str, Route] = {}
        self.requests: list[str] = []
        self.wrong_digest: set[str] = set()
        registry = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                registry.requests.append(self.path)
                route = registry.route(self.path)
                self.send_response(route.status)
                for key, value in route.headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.index_url = f"{self.base}/simple"
        self.npm_url = f"{self.base}/npm/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def add_sdist(self, name: str, version: str, files: Mapping[str, str]) -> str:
        filename, data = sdist(name, version, files)
        return self.add_pypi_archive(name, filename, data)

    def add_pypi_archive(self, name: str, filename: str, data: bytes) -> str:
        self.files[filename] = data
        digest = hashlib.sha256(data).hexdigest()
        if filename in self.wrong_digest:
            digest = "0" * 64
        self.pypi.setdefault(name, []).append(
            {"filename": filename, "url": f"../../files/{filename}", "hashes": {"sha256": digest}}
        )
        return filename

    def add_npm(
        self, name: str, version: str, files: Mapping[str, str], latest: bool = True
    ) -> None:
        filename, data = npm_tarball(name, version, files)
        self.files[filename] = data
        integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        document = self.npm.setdefault(name, {"name": name, "versions": {}, "dist-tags": {}})
        document["versions"][version] = {  # type: ignore[index]
            "name": name,
            "version": version,
            "dist": {"tarball": f"{self.base}/files/{filename}", "integrity": integrity},
        }
        if latest:
            document["dist-tags"]["latest"] = version  # type: ignore[index]

    def route(self, path: str) -> Route:
        if path in self.routes:
            return self.routes[path]
        if path.startswith("/simple/"):
            name = path.removeprefix("/simple/").strip("/")
            if name in self.pypi:
                page = {"meta": {"api-version": "1.1"}, "name": name, "files": self.pypi[name]}
                return Route(
                    body=json.dumps(page).encode(),
                    headers={"Content-Type": "application/vnd.pypi.simple.v1+json"},
                )
        if path.startswith("/npm/"):
            name = path.removeprefix("/npm/").replace("%2f", "/").replace("%2F", "/")
            if name in self.npm:
                return Route(
                    body=json.dumps(self.npm[name]).encode(),
                    headers={"Content-Type": "application/json"},
                )
        if path.startswith("/files/"):
            data = self.files.get(path.removeprefix("/files/"))
            if data is not None:
                return Route(body=data, headers={"Content-Type": "application/octet-stream"})
        return Route(404, b"not found")

    def __enter__(self) -> FakeRegistry:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@contextmanager
def serving() -> Iterator[FakeRegistry]:
    with FakeRegistry() as registry:
        yield registry
