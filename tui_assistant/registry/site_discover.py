"""Which pages of a website to read: its robots.txt rules, then the first list it
offers of its pages under the scope (`llms.txt`, else `llms-full.txt`, else its
sitemaps), else none (the pages are found by following links from the first page).

robots.txt is read with `protego` (Google's rules: `*` and `$` in paths, the longest
match wins between `Allow` and `Disallow`, which the standard library's parser does
not follow). A robots.txt the site does not have (4xx) allows everything; one that
cannot be read (5xx, no answer) stops the fetch, as crawlers do.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from protego import Protego

from tui_assistant.errors import FetchError
from tui_assistant.registry.site_http import PageRefused, SiteClient
from tui_assistant.registry.site_limits import SiteLimits
from tui_assistant.registry.site_lists import (
    markdown_links,
    read_sitemap,
    sitemaps_of_robots,
    unique,
)
from tui_assistant.registry.site_urls import SiteSpec
from tui_assistant.registry.transport import USER_AGENT

MAX_ROBOTS_BYTES = 512 << 10
MAX_SITEMAPS = 50
# A robots.txt Crawl-delay longer than this is read as this.
MAX_CRAWL_DELAY = 10.0
_LISTS = ("llms.txt", "llms-full.txt")


@dataclass(slots=True)
class Plan:
    """Where the pages come from (`llms.txt`, `llms-full.txt`, `sitemap` or `links`),
    the pages listed (none for `links`), and robots.txt's rules."""

    source: str
    pages: list[str]
    robots: Protego | None = None
    delay: float = 0.0
    notes: list[str] = field(default_factory=list)

    def allows(self, url: str) -> bool:
        return self.robots is None or bool(self.robots.can_fetch(url, USER_AGENT))


def plan_crawl(http: SiteClient, spec: SiteSpec, limits: SiteLimits, crawl_deadline: float) -> Plan:
    """The plan for `spec`; FetchError when robots.txt cannot be read."""
    max_bytes = limits.max_page_bytes

    def deadline() -> float:
        return min(crawl_deadline, time.monotonic() + limits.page_seconds)

    robots = _robots(http, spec, deadline())
    plan = Plan("links", [], robots)
    if robots is not None:
        delay = robots.crawl_delay(USER_AGENT)
        plan.delay = min(float(delay), MAX_CRAWL_DELAY) if delay else 0.0
    for name in _LISTS:
        for url in unique([spec.base + name, spec.site + name]):
            if not plan.allows(url):
                continue
            try:
                answer = http.get(
                    url, spec.whole_site(), max_bytes, deadline(), "text/markdown, text/plain"
                )
            except PageRefused:
                continue
            if answer.content_type in ("text/html", "application/xhtml+xml"):
                continue  # a site's "not found" page, not a list
            text = answer.body.decode(answer.charset or "utf-8", "replace")
            pages = markdown_links(text, spec, answer.url)
            if pages:
                plan.source, plan.pages = name, pages
                return plan
    sitemaps = [spec.site + "sitemap.xml", spec.base + "sitemap.xml"]
    if robots is not None:
        sitemaps = sitemaps_of_robots(robots.sitemaps, spec) + sitemaps
    pages = _sitemap_pages(http, spec, unique(sitemaps), max_bytes, deadline, plan.notes)
    if pages:
        plan.source, plan.pages = "sitemap", pages
    return plan


def _robots(http: SiteClient, spec: SiteSpec, deadline: float) -> Protego | None:
    url = spec.site + "robots.txt"
    try:
        answer = http.get(url, spec.whole_site(), MAX_ROBOTS_BYTES, deadline, "text/plain")
    except PageRefused as refused:
        if refused.status is not None and 400 <= refused.status < 500:
            return None
        raise FetchError(f"{url}: {refused}: nothing fetched (robots.txt decides)") from None
    if answer.content_type in ("text/html", "application/xhtml+xml"):
        return None
    return Protego.parse(answer.body.decode(answer.charset or "utf-8", "replace"))


def _sitemap_pages(
    http: SiteClient,
    spec: SiteSpec,
    queue: list[str],
    max_bytes: int,
    deadline: Callable[[], float],
    notes: list[str],
) -> list[str]:
    """The in-scope pages of `queue`'s sitemaps and of the sitemaps their indexes name
    (at most MAX_SITEMAPS read)."""
    pages: list[str] = []
    seen: set[str] = set()
    while queue and len(seen) < MAX_SITEMAPS:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        try:
            answer = http.get(
                url, spec.whole_site(), max_bytes, deadline(), "application/xml, text/xml"
            )
            body = answer.body
            if body[:2] == b"\x1f\x8b":
                body = _gunzip(body, max_bytes)
            found = read_sitemap(body, spec)
        except PageRefused:
            continue
        except ValueError as error:
            notes.append(f"{url}: {error}")
            continue
        pages += found.pages
        queue += [nested for nested in found.sitemaps if nested not in seen]
    if queue and len(seen) >= MAX_SITEMAPS:
        notes.append(f"sitemaps: only the first {MAX_SITEMAPS} read")
    return unique(pages)


def _gunzip(data: bytes, max_bytes: int) -> bytes:
    """A `.xml.gz` sitemap, inflated to at most `max_bytes`."""
    try:
        inflater = zlib.decompressobj(47)
        body = inflater.decompress(data, max_bytes + 1)
    except zlib.error:
        raise ValueError("is not gzip data") from None
    if len(body) > max_bytes:
        raise ValueError("is larger than a page may be once inflated (--max-page-size)")
    return body
