"""Git's smart HTTP protocol over the project's one HTTP transport.

dulwich's own HTTP client (urllib3) follows redirects to any host and reads answers of
any size, so `BoundedHttpGitClient` replaces its one network call, `_http_request`,
with httpx under `transport.py`'s rules: https (plain http only to a loopback host), a
redirect followed (at most 5) only on the repository's host and never from https down
to http, every answer's bytes capped while read. Servers that speak only git's "dumb"
protocol (plain files, whole history) are refused, and a server's offer of packfiles
on other hosts (`packfile-uris`) is not taken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from urllib.parse import urljoin, urlsplit

import httpx
from dulwich.client import AbstractHttpGitClient
from dulwich.protocol import CAPABILITY_PACKFILE_URIS

from tui_assistant.errors import FetchError
from tui_assistant.registry.transport import (
    MAX_REDIRECTS,
    check_url,
    error_reason,
    host_of,
    new_client,
    shown_url,
)

# One answer of a git server: the ref list, or the pack (bounded again as it is kept).
MAX_ANSWER_BYTES = 200 << 20
_SMART = "application/x-git-"


class BoundedResponse:
    """The part of urllib3's response dulwich reads, over a streamed httpx response,
    whose bytes are counted and capped as they are read."""

    def __init__(self, response: httpx.Response, url: str, asked: str, cap: int) -> None:
        self._response = response
        self.status = response.status_code
        self.headers: Mapping[str, str] = response.headers
        self.content_type: str | None = response.headers.get("Content-Type")
        self.redirect_location = url if url != asked else ""
        self._url = url
        self._chunks: Iterator[bytes] = response.iter_bytes(1 << 16)
        self._buffer = bytearray()
        self._read = 0
        self._cap = cap
        self._host = host_of(url)

    def read(self, amt: int | None = None) -> bytes:
        """Exactly `amt` bytes (fewer only at the end); everything when `amt` is None."""
        while amt is None or len(self._buffer) < amt:
            chunk = self._next_chunk()
            if not chunk:
                break
            self._read += len(chunk)
            if self._read > self._cap:
                raise FetchError(f"{self._host}'s answer is over {self._cap >> 20} MiB")
            self._buffer += chunk
        size = len(self._buffer) if amt is None else min(amt, len(self._buffer))
        taken = bytes(self._buffer[:size])
        del self._buffer[:size]
        return taken

    def _next_chunk(self) -> bytes:
        try:
            return next(self._chunks, b"")
        except httpx.TimeoutException:
            raise FetchError(f"{self._host} stopped answering") from None
        except httpx.HTTPError as error:
            raise FetchError(f"{self._host} broke off ({type(error).__name__})") from None

    def geturl(self) -> str:
        return self._url

    def close(self) -> None:
        self._response.close()


class BoundedHttpGitClient(AbstractHttpGitClient):
    """dulwich's HTTP git client whose requests go through `transport.py`'s rules."""

    def __init__(self, base_url: str, client: httpx.Client | None = None) -> None:
        check_url(base_url, "the repository")
        super().__init__(base_url, dumb=False)
        self._fetch_capabilities.discard(CAPABILITY_PACKFILE_URIS)
        self._client = client or new_client()
        self._host = host_of(base_url)
        self._https = urlsplit(base_url).scheme == "https"

    def close(self) -> None:
        self._client.close()

    def _http_request(
        self,
        url: str,
        headers: dict[str, str] | None = None,
        data: bytes | Iterator[bytes] | None = None,
        raise_for_status: bool = True,
    ) -> tuple[BoundedResponse, Callable[[int], bytes]]:
        asked = url
        body = data if isinstance(data, bytes) or data is None else b"".join(data)
        for _ in range(MAX_REDIRECTS + 1):
            check_url(url, "the repository")
            response = self._send(url, headers or {}, body)
            if not response.is_redirect:
                break
            response.close()
            target = urljoin(url, response.headers.get("Location", ""))
            if host_of(target) != self._host:
                raise FetchError(f"{self._host} redirected to another host, {host_of(target)}")
            if self._https and urlsplit(target).scheme != "https":
                raise FetchError(f"{self._host} redirected from https to plain http")
            url = target
        else:
            raise FetchError(f"{self._host} redirected more than {MAX_REDIRECTS} times")
        answer = BoundedResponse(response, url, asked, MAX_ANSWER_BYTES)
        if answer.status != 200:
            answer.close()
            if answer.status == 404:
                raise FetchError(f"no repository at {shown_url(self._base_url)} (HTTP 404)")
            if answer.status in (401, 403):
                raise FetchError(
                    f"{self._host} asks for a login (HTTP {answer.status}): "
                    "only public repositories are fetched"
                )
            raise FetchError(f"{self._host} answered HTTP {answer.status}")
        if "/info/refs" in url and not (answer.content_type or "").startswith(_SMART):
            answer.close()
            raise FetchError(
                f"{self._host} does not speak git's smart HTTP protocol (a plain file"
                " server): not fetched"
            )
        return answer, answer.read

    def _send(self, url: str, headers: Mapping[str, str], body: bytes | None) -> httpx.Response:
        method = "GET" if body is None else "POST"
        try:
            request = self._client.build_request(method, url, headers=dict(headers), content=body)
            return self._client.send(request, stream=True)
        except httpx.TimeoutException:
            raise FetchError(f"{self._host} did not answer in time") from None
        except httpx.HTTPError as error:
            raise FetchError(f"{self._host} cannot be reached ({error_reason(error)})") from None
