"""The one place `fetch` talks to the network: a registry's metadata and its archives.

Rules, whatever a registry or a redirect says:
- https only, plain http only to a loopback host;
- metadata comes from the registry's own host; an archive from the URL the registry's
  metadata names (PyPI's `files.pythonhosted.org`, a custom index's own file host);
- a redirect is followed (at most 5) only to the host the request was for or to the
  registry's host, never to another host and never from https down to http;
- sizes are capped (metadata 64 MiB, an archive 200 MiB) while reading, not trusted
  from headers; proxies come from the environment (`HTTPS_PROXY`, `NO_PROXY`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from tui_assistant.errors import FetchError
from tui_assistant.urls import check_base_url

MAX_METADATA_BYTES = 64 << 20
MAX_ARCHIVE_BYTES = 200 << 20
MAX_REDIRECTS = 5
TIMEOUT_SECONDS = 30.0
USER_AGENT = "tui-assistant-fetch"

Progress = Callable[[int, int | None], None]


def check_url(url: str, what: str) -> None:
    """https:// anywhere, http:// only to a loopback host; no credentials."""
    try:
        parts = urlsplit(url)
        if parts.query and parts.scheme in ("http", "https"):
            # An archive URL may carry a query (signed links): only its base is checked.
            url = parts._replace(query="").geturl()
        check_base_url(url.split("#", 1)[0])
    except ValueError as error:
        raise FetchError(f"{what} {shown_url(url)} {error}") from None


def new_client() -> httpx.Client:
    """A client that follows no redirect by itself (`Registry` decides) and takes
    proxies from the environment."""
    return httpx.Client(
        follow_redirects=False,
        trust_env=True,
        timeout=httpx.Timeout(TIMEOUT_SECONDS, connect=10.0),
        headers={"User-Agent": USER_AGENT},
    )


@dataclass(frozen=True, slots=True)
class Downloaded:
    path: Path
    sha256: str
    sha512: str
    sha1: str


class Registry:
    """HTTP to one registry: `base_url` is its index (PyPI's `/simple`, npm's root)."""

    def __init__(self, client: httpx.Client, base_url: str, what: str) -> None:
        check_url(base_url, what)
        self.client = client
        self.base_url = base_url.rstrip("/") + "/"
        self.host = host_of(self.base_url)

    def get_json(self, url: str, accept: str) -> tuple[Any, str]:
        """The JSON document at `url` on the registry's host, and the URL it came from
        (after redirects on that host); FetchError for anything else."""
        if host_of(url) != self.host:
            raise FetchError(f"{shown_url(url)} is not on the registry's host {self.host}")
        with self._open(url, {"Accept": accept}, (self.host,)) as (response, final):
            if response.status_code == 404:
                raise FetchError(f"not found on {self.host} (HTTP 404)")
            _check_status(response)
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > MAX_METADATA_BYTES:
                    raise FetchError(f"{self.host}'s answer is over {MAX_METADATA_BYTES >> 20} MiB")
        try:
            return json.loads(bytes(body)), final
        except ValueError:
            raise FetchError(f"{self.host} did not answer with JSON") from None

    def download(self, url: str, target: Path, progress: Progress | None = None) -> Downloaded:
        """The archive at `url` written to `target`, with its digests; at most
        MAX_ARCHIVE_BYTES. Redirects only to `url`'s host or the registry's."""
        allowed = (self.host, host_of(url))
        sha256, sha512, sha1 = hashlib.sha256(), hashlib.sha512(), hashlib.sha1()
        size = 0
        with self._open(url, {}, allowed) as (response, _), target.open("wb") as out:
            _check_status(response)
            declared = response.headers.get("Content-Length")
            total = int(declared) if declared and declared.isdigit() else None
            for chunk in response.iter_bytes(1 << 16):
                size += len(chunk)
                if size > MAX_ARCHIVE_BYTES:
                    raise FetchError(f"the archive is over {MAX_ARCHIVE_BYTES >> 20} MiB")
                for digest in (sha256, sha512, sha1):
                    digest.update(chunk)
                out.write(chunk)
                if progress is not None:
                    progress(size, total)
        return Downloaded(target, sha256.hexdigest(), sha512.hexdigest(), sha1.hexdigest())

    def _open(self, url: str, headers: Mapping[str, str], hosts: tuple[str, ...]) -> _Opened:
        return _Opened(self.client, url, headers, hosts)


class _Opened:
    """A streamed GET with redirects followed by the rules above."""

    def __init__(
        self, client: httpx.Client, url: str, headers: Mapping[str, str], hosts: tuple[str, ...]
    ) -> None:
        self.client, self.url, self.headers, self.hosts = client, url, headers, hosts
        self.response: httpx.Response | None = None

    def __enter__(self) -> tuple[httpx.Response, str]:
        url = self.url
        for _ in range(MAX_REDIRECTS + 1):
            check_url(url, "the URL")
            try:
                request = self.client.build_request("GET", url, headers=dict(self.headers))
                response = self.client.send(request, stream=True)
            except httpx.TimeoutException:
                raise FetchError(f"{host_of(url)} did not answer in time") from None
            except httpx.HTTPError as error:
                raise FetchError(
                    f"{host_of(url)} cannot be reached ({error_reason(error)})"
                ) from None
            if not response.is_redirect:
                self.response = response
                return response, url
            response.close()
            target = urljoin(url, response.headers.get("Location", ""))
            if host_of(target) not in self.hosts:
                raise FetchError(f"{host_of(url)} redirected to another host, {host_of(target)}")
            if urlsplit(url).scheme == "https" and urlsplit(target).scheme != "https":
                raise FetchError(f"{host_of(url)} redirected from https to plain http")
            url = target
        raise FetchError(f"{host_of(self.url)} redirected more than {MAX_REDIRECTS} times")

    def __exit__(self, *_: object) -> None:
        if self.response is not None:
            self.response.close()


def _check_status(response: httpx.Response) -> None:
    if response.status_code != 200:
        raise FetchError(f"{host_of(str(response.url))} answered HTTP {response.status_code}")


def error_reason(error: httpx.HTTPError) -> str:
    """A transport error's first line, cut to fit a message."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:120]


def host_of(url: str) -> str:
    """`host` or `host:port`, lower-cased: how every fetch line names a server."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    return f"{host}:{parts.port}" if parts.port else host


def shown_url(url: str) -> str:
    """A URL short enough for one error line."""
    return url if len(url) <= 80 else url[:77] + "..."
