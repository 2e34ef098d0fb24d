"""One page of a website over HTTP, by `transport`'s rules and a site's own:

- https only (plain http to loopback), through `transport.new_client`'s client, which
  follows no redirect by itself: a redirect is followed (at most 5) only within the
  scope it is asked with, never to another host and never from https down to http;
- a page is read as a stream against one deadline (a server that answers one byte a
  second stops at it, not at a read timeout that each byte resets), and at most
  `max_bytes` of it are kept, counted after decompression (`gzip`/`deflate` are
  inflated here, a little at a time, so a gzip bomb stops at the cap);
- `If-None-Match`/`If-Modified-Since` ask whether a page kept before changed: a 304
  keeps the stored copy.
"""

from __future__ import annotations

import threading
import time
import zlib
from dataclasses import dataclass
from urllib.parse import urljoin

import httpx

from tui_assistant.errors import FetchError, TuiAssistantError
from tui_assistant.registry.site_urls import SiteSpec, canonical, host_of
from tui_assistant.registry.transport import MAX_REDIRECTS, check_url

ACCEPT_PAGE = "text/markdown, text/html;q=0.9"
_REDIRECTS = (301, 302, 303, 307, 308)
# A read of one chunk waits at most this long, within the page's deadline.
_READ_SECONDS = 10.0


class PageRefused(TuiAssistantError):
    """A page not kept; the message is one line saying why (`status`: the HTTP status
    that refused it, if one did)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class CrawlStopped(FetchError):
    """The whole fetch stops (Ctrl-C)."""


@dataclass(frozen=True, slots=True)
class Conditional:
    """What a page kept before said of its version."""

    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """A page as the server gave it: `url` after redirects, `status` 200 or 304."""

    url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes
    etag: str | None
    last_modified: str | None


class SiteClient:
    """GETs of one website's pages."""

    def __init__(self, client: httpx.Client, stopping: threading.Event | None = None) -> None:
        self.client = client
        self.stopping = stopping or threading.Event()

    def get(
        self,
        url: str,
        scope: SiteSpec,
        max_bytes: int,
        deadline: float,
        accept: str = ACCEPT_PAGE,
        conditional: Conditional | None = None,
    ) -> Answer:
        """The page at `url`, redirects followed within `scope`; PageRefused with one
        line for anything else. `deadline` is a `time.monotonic()` time."""
        headers = {"Accept": accept, "Accept-Encoding": "gzip, deflate"}
        if conditional is not None and conditional.etag:
            headers["If-None-Match"] = conditional.etag
        if conditional is not None and conditional.last_modified:
            headers["If-Modified-Since"] = conditional.last_modified
        for _ in range(MAX_REDIRECTS + 1):
            response = self._send(url, headers, deadline)
            try:
                if response.status_code not in _REDIRECTS:
                    return self._answer(url, response, max_bytes, deadline)
                target = urljoin(url, response.headers.get("Location", ""))
            finally:
                response.close()
            url = self._redirected(url, target, scope)
        raise PageRefused(f"redirected more than {MAX_REDIRECTS} times")

    def _send(self, url: str, headers: dict[str, str], deadline: float) -> httpx.Response:
        check_url(url, "the URL")
        left = deadline - time.monotonic()
        if left <= 0:
            raise PageRefused("no answer before the page's deadline")
        timeout = httpx.Timeout(min(left, _READ_SECONDS), connect=min(left, 10.0))
        try:
            request = self.client.build_request("GET", url, headers=headers, timeout=timeout)
            return self.client.send(request, stream=True)
        except httpx.TimeoutException:
            raise PageRefused("no answer before the page's deadline") from None
        except httpx.HTTPError as error:
            reason = (str(error).strip() or type(error).__name__).splitlines()[0][:120]
            raise PageRefused(f"cannot be reached ({reason})") from None

    @staticmethod
    def _redirected(url: str, target: str, scope: SiteSpec) -> str:
        if host_of(target) != scope.host:
            raise PageRefused(f"redirected to another host, {host_of(target) or target[:80]}")
        if url.startswith("https:") and not target.startswith("https:"):
            raise PageRefused("redirected from https to plain http")
        inside = canonical(target, scope)
        if inside is None:
            raise PageRefused(f"redirected out of the scope, to {target[:120]}")
        return inside

    def _answer(
        self, url: str, response: httpx.Response, max_bytes: int, deadline: float
    ) -> Answer:
        status = response.status_code
        if status not in (200, 304):
            raise PageRefused(f"HTTP {status}", status)
        media, _, parameters = response.headers.get("Content-Type", "").partition(";")
        charset = None
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if key.lower() == "charset" and value.strip():
                charset = value.strip().strip("\"'").lower()
        body = b"" if status == 304 else self._body(response, max_bytes, deadline)
        return Answer(
            url,
            status,
            media.strip().lower(),
            charset,
            body,
            response.headers.get("ETag"),
            response.headers.get("Last-Modified"),
        )

    def _body(self, response: httpx.Response, max_bytes: int, deadline: float) -> bytes:
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity", "gzip", "x-gzip", "deflate"):
            raise PageRefused(f"sent in an encoding not asked for ({encoding[:40]})")
        # 47: a gzip or zlib header, found by zlib itself.
        inflater = None if encoding in ("", "identity") else zlib.decompressobj(47)
        body = bytearray()
        try:
            # As the network gives it: a chunk size would wait for that many bytes.
            for chunk in response.iter_raw():
                if self.stopping.is_set():
                    raise CrawlStopped("interrupted")
                if inflater is None:
                    body += chunk
                else:
                    _inflate(inflater, chunk, body, max_bytes)
                if len(body) > max_bytes:
                    raise PageRefused(f"over {size_words(max_bytes)} (--max-page-size): cut there")
                if time.monotonic() > deadline:
                    raise PageRefused("not read before the page's deadline (--page-seconds)")
        except httpx.TimeoutException:
            raise PageRefused("not read before the page's deadline (--page-seconds)") from None
        except httpx.HTTPError as error:
            raise PageRefused(f"broken off ({type(error).__name__})") from None
        except zlib.error:
            raise PageRefused(f"its {encoding} data is damaged") from None
        return bytes(body)


def _inflate(inflater: zlib._Decompress, chunk: bytes, body: bytearray, max_bytes: int) -> None:
    """`chunk` inflated onto `body`, never more than one byte past `max_bytes` at once."""
    data = chunk
    while data:
        body += inflater.decompress(data, max(1, max_bytes + 1 - len(body)))
        if len(body) > max_bytes:
            return
        data = inflater.unconsumed_tail


def size_words(count: int) -> str:
    """`10 MiB`, `64 KiB`, `1,000 bytes`."""
    if count >= 1 << 20 and count % (1 << 20) == 0:
        return f"{count >> 20} MiB"
    if count >= 1 << 10 and count % (1 << 10) == 0:
        return f"{count >> 10} KiB"
    return f"{count:,} bytes"
