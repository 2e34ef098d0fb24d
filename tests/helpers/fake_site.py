"""A documentation website on 127.0.0.1 for `fetch https://…` tests.

`FakeSite` is a threaded `http.server` on an ephemeral loopback port. `pages` maps a
path to a `Page` (its body and type, optionally a Markdown twin sent to a client that
asks for `text/markdown`, an ETag answered with 304); `routes` maps a path to a function
that writes the whole answer itself (a redirect, an endless body, a slow server).
Every request is logged as `(path, status)`; `sent` counts the body bytes a route wrote.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Page:
    body: str | bytes
    content_type: str = "text/html; charset=utf-8"
    markdown: str | None = None
    etag: str | None = None


Route = Callable[[BaseHTTPRequestHandler], None]


def html(title: str, text: str, *links: str) -> str:
    anchors = "".join(f'<li><a href="{link}">{link}</a></li>' for link in links)
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body><main>"
        f"<h1>{title}</h1><p>{text}</p><ul>{anchors}</ul></main></body></html>\n"
    )


class FakeSite:
    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.routes: dict[str, Route] = {}
        self.requests: list[tuple[str, int]] = []
        self.headers: list[dict[str, str]] = []
        self.sent = 0
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                path = self.path
                with site.lock:
                    site.headers.append(dict(self.headers))
                route = site.routes.get(path) or site.routes.get(path.split("?", 1)[0])
                if route is not None:
                    site.log(path, 200)
                    route(self)
                    return
                page = site.pages.get(path.split("?", 1)[0])
                if page is None:
                    self.answer(404, b"not here", "text/plain")
                    return
                if page.etag is not None and self.headers.get("If-None-Match") == page.etag:
                    site.log(path, 304)
                    self.send_response(304)
                    self.send_header("ETag", page.etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body, kind = page.body, page.content_type
                if page.markdown is not None and "text/markdown" in self.headers.get("Accept", ""):
                    body, kind = page.markdown, "text/markdown; charset=utf-8"
                extra = {"ETag": page.etag} if page.etag else {}
                self.answer(200, body.encode() if isinstance(body, str) else body, kind, extra)

            def answer(
                self, status: int, body: bytes, kind: str, extra: dict[str, str] | None = None
            ) -> None:
                site.log(self.path, status)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for key, value in (extra or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def log(self, path: str, status: int) -> None:
        with self.lock:
            self.requests.append((path, status))

    def add_sent(self, count: int) -> None:
        with self.lock:
            self.sent += count

    def asked(self, path: str) -> list[int]:
        """The statuses `path` was answered with, in order."""
        return [status for asked, status in self.requests if asked == path]

    def __enter__(self) -> FakeSite:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
