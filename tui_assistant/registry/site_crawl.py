"""A website read into a folder: its pages found (`site_discover`), read at most
`concurrency` at a time at a polite pace, each kept as Markdown (`.md`) or HTML
(`.html`) at the path its URL names (`site_urls.page_file`), and every cap that stops
the crawl said in one line naming its option.

A page kept by an earlier version is asked for with its `ETag`/`Last-Modified`: a 304
copies the stored page. Only the pages the plan lists are read when the site lists
them; else links are followed from the first page, breadth first, within the scope.
Nothing on a page is run: links are read from its text, that is all.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from tui_assistant.core.documents.html import decode_html
from tui_assistant.errors import NotText, os_error_words
from tui_assistant.registry.site_discover import Plan, plan_crawl
from tui_assistant.registry.site_http import (
    Answer,
    Conditional,
    CrawlStopped,
    PageRefused,
    SiteClient,
    size_words,
)
from tui_assistant.registry.site_limits import SiteLimits
from tui_assistant.registry.site_lists import html_links, markdown_links
from tui_assistant.registry.site_urls import SiteSpec, page_file
from tui_assistant.urls import is_loopback

_HTML = ("text/html", "application/xhtml+xml")
_MARKDOWN = ("text/markdown", "text/x-markdown")
_UTF8 = ("utf-8", "utf8", "us-ascii", "ascii")


@dataclass(frozen=True, slots=True)
class PageRecord:
    """A page kept: its URL, its file in the library, and its version's tags."""

    url: str
    file: str
    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True, slots=True)
class Previous:
    """The version fetched before: its folder and its pages by URL."""

    folder: Path
    pages: dict[str, PageRecord]


@dataclass(slots=True)
class Crawl:
    """What one crawl kept and what it did not, each in one line."""

    source: str
    pages: list[PageRecord] = field(default_factory=list)
    reused: int = 0
    bytes: int = 0
    stops: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Got:
    url: str
    depth: int
    page: PageRecord | None = None
    data: bytes = b""
    links: tuple[str, ...] = ()
    # The copy kept before, for a page that did not change.
    reused: Path | None = None
    refused: str | None = None


class _Pace:
    """At most one request every `interval` seconds, across the reading threads."""

    def __init__(self, interval: float, stopping: threading.Event) -> None:
        self.interval, self.stopping = interval, stopping
        self.lock = threading.Lock()
        self.next = 0.0

    def wait(self) -> None:
        if self.interval <= 0:
            return
        with self.lock:
            now = time.monotonic()
            at = max(now, self.next)
            self.next = at + self.interval
        if at > now and self.stopping.wait(at - now):
            raise CrawlStopped("interrupted")


class SiteCrawler:
    """One crawl of `spec` into `target`, re-using `previous` where pages did not change."""

    def __init__(
        self,
        http: SiteClient,
        spec: SiteSpec,
        limits: SiteLimits,
        target: Path,
        previous: Previous | None = None,
    ) -> None:
        self.http, self.spec, self.limits, self.target = http, spec, limits, target
        self.previous = previous
        self.deadline = time.monotonic() + limits.max_seconds
        self.pace = _Pace(0.0, http.stopping)
        self.follow = True

    def crawl(self) -> Crawl:
        plan = plan_crawl(self.http, self.spec, self.limits, self.deadline)
        loopback = is_loopback(self.spec.host.rsplit(":", 1)[0].strip("[]"))
        interval = 0.0 if loopback else 1.0 / self.limits.rate
        self.pace = _Pace(max(interval, plan.delay), self.http.stopping)
        self.follow = plan.source == "links"
        result = Crawl(plan.source, skipped=list(plan.notes))
        self._run(plan, result)
        return result

    def _run(self, plan: Plan, result: Crawl) -> None:
        limits = self.limits
        queue = deque([(self.spec.start, 0), *((url, 1) for url in plan.pages)])
        seen = {url for url, _ in queue}
        files: set[str] = set()
        disallowed = deep = 0
        running: dict[Future[_Got], str] = {}
        pool = ThreadPoolExecutor(limits.concurrency, thread_name_prefix="site")
        try:
            while queue or running:
                stop = self._stop(result, bool(queue or running))
                if stop is not None:
                    result.stops.append(stop)
                    break
                while queue and len(running) < limits.concurrency:
                    url, depth = queue.popleft()
                    if not plan.allows(url):
                        disallowed += 1
                        continue
                    running[pool.submit(self._read, url, depth)] = url
                if not running:
                    continue
                done, _ = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in done:
                    del running[future]
                    got = future.result()
                    if not self._keep(got, result, files):
                        continue
                    for link in got.links:
                        if link in seen:
                            continue
                        seen.add(link)
                        if got.depth + 1 > limits.max_depth:
                            deep += 1
                        else:
                            queue.append((link, got.depth + 1))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if disallowed:
            result.skipped.append(f"{_pages(disallowed)} robots.txt disallows: not read")
        if deep:
            result.stops.append(
                f"{_links(deep)} more than {limits.max_depth} deep not followed (--max-depth)"
            )

    def _stop(self, result: Crawl, more: bool) -> str | None:
        """Why the crawl stops now, if a cap says so."""
        limits = self.limits
        if self.http.stopping.is_set():
            raise CrawlStopped("interrupted")
        if len(result.pages) >= limits.max_pages and more:
            return f"stopped at {limits.max_pages:,} pages (--max-pages)"
        if time.monotonic() > self.deadline:
            return f"stopped after {limits.max_seconds:g} s (--max-seconds)"
        if result.bytes > limits.max_total_bytes:
            return f"stopped at {size_words(limits.max_total_bytes)} in all (--max-total-size)"
        return None

    def _keep(self, got: _Got, result: Crawl, files: set[str]) -> bool:
        """Write what a read gave; False when nothing was kept."""
        if got.refused is not None or got.page is None:
            result.skipped.append(f"{got.url}: {got.refused}")
            return False
        page = got.page
        if page.file in files or len(result.pages) >= self.limits.max_pages:
            return False  # one page under two URLs, or one past the cap
        if result.bytes + len(got.data) > self.limits.max_total_bytes:
            result.bytes += len(got.data)
            return False
        path = self.target / page.file
        try:
            if not path.resolve().is_relative_to(self.target.resolve()):
                raise PageRefused("names a file outside the library")
            path.parent.mkdir(parents=True, exist_ok=True)
            if got.reused is not None:
                # Its time too: the index store sees the file it indexed before.
                shutil.copy2(got.reused, path)
            else:
                path.write_bytes(got.data)
        except (OSError, PageRefused) as error:
            words = os_error_words(error) if isinstance(error, OSError) else str(error)
            result.skipped.append(f"{got.url}: cannot be kept as {page.file} ({words})")
            return False
        files.add(page.file)
        result.pages.append(page)
        result.bytes += len(got.data)
        result.reused += got.reused is not None
        return True

    def _read(self, url: str, depth: int) -> _Got:
        """One page read (in a worker thread); a refusal is a `_Got` saying why."""
        try:
            self.pace.wait()
            before = self.previous.pages.get(url) if self.previous is not None else None
            conditional = None
            if before is not None and (before.etag or before.last_modified):
                conditional = Conditional(before.etag, before.last_modified)
            deadline = min(self.deadline, time.monotonic() + self.limits.page_seconds)
            answer = self.http.get(
                url, self.spec, self.limits.max_page_bytes, deadline, conditional=conditional
            )
            if answer.status == 304:
                return self._unchanged(url, depth, before, answer)
            kind, text, data = _stored(answer)
            file = page_file(answer.url, self.spec, "." + kind)
            if file is None:
                raise PageRefused("has no safe file name")
            page = PageRecord(answer.url, file, answer.etag, answer.last_modified)
            return _Got(url, depth, page, data, self._links(kind, text, answer.url))
        except PageRefused as refused:
            return _Got(url, depth, refused=str(refused))

    def _unchanged(self, url: str, depth: int, before: PageRecord | None, answer: Answer) -> _Got:
        if before is None or self.previous is None:
            raise PageRefused("answered 304 Not Modified to a page not kept before")
        stored = self.previous.folder / before.file
        try:
            data = stored.read_bytes()
        except OSError as error:
            raise PageRefused(f"the copy kept before is gone ({os_error_words(error)})") from None
        kind = "md" if before.file.endswith(".md") else "html"
        text = data.decode("utf-8", "replace")
        page = PageRecord(
            before.url,
            before.file,
            answer.etag or before.etag,
            answer.last_modified or before.last_modified,
        )
        return _Got(url, depth, page, data, self._links(kind, text, before.url), reused=stored)

    def _links(self, kind: str, text: str, url: str) -> tuple[str, ...]:
        if not self.follow:
            return ()
        found = markdown_links if kind == "md" else html_links
        return tuple(found(text, self.spec, url))


def _stored(answer: Answer) -> tuple[str, str, bytes]:
    """A page's kind (`md`, `html`), its text, and the bytes kept: as sent when the
    library's reader decodes them alike, else re-encoded as UTF-8 (an HTML page with a
    byte-order mark, which the reader trusts over a `<meta>` charset)."""
    media, charset, body = answer.content_type, answer.charset, answer.body
    if media in _MARKDOWN or (
        media == "text/plain" and answer.url.lower().endswith((".md", ".markdown"))
    ):
        kind = "md"
    elif media in _HTML:
        kind = "html"
    else:
        raise PageRefused(f"is {media or 'of no declared type'}, not a page: skipped")
    if kind == "html" and charset is None:
        try:
            return kind, decode_html(body), body
        except NotText as error:
            raise PageRefused(f"is {error}") from None
    charset = charset or "utf-8"
    try:
        text = body.decode(charset)
    except (LookupError, UnicodeDecodeError):
        raise PageRefused(f"is not in the charset it declares ({charset[:40]})") from None
    if charset in _UTF8:
        return kind, text, body
    encoded = text.encode("utf-8")
    return kind, text, (b"\xef\xbb\xbf" + encoded if kind == "html" else encoded)


def _pages(count: int) -> str:
    return f"{count:,} page" + ("" if count == 1 else "s")


def _links(count: int) -> str:
    return f"{count:,} link" + ("" if count == 1 else "s")
