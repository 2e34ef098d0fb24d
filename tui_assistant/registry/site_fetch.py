"""A website fetched into the data folder as the library `HOST[-PATH-SLUG]@YYYY-MM-DD`.

Read once: a site fetched before is `present` (its newest version), and costs no
network. `fetch --refresh` reads it again as today's version (replacing today's if
there is one), asking for each page kept by the newest version with its
`ETag`/`Last-Modified`, so a page that did not change is copied, not sent again. As for
a package, the pages are written into a staging folder inside the data folder and the
library is renamed into place only once complete.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import httpx

from tui_assistant.errors import FetchError, os_error_words
from tui_assistant.registry.libraries import (
    STAGING_PREFIX,
    FetchedMetadata,
    fetched_names,
    libraries_dir,
    newest,
    read_metadata,
    write_metadata,
)
from tui_assistant.registry.site_crawl import Crawl, PageRecord, Previous, SiteCrawler
from tui_assistant.registry.site_http import SiteClient
from tui_assistant.registry.site_limits import SiteLimits
from tui_assistant.registry.site_urls import SiteSpec, today
from tui_assistant.store.index_store import store_path

# At most this many pages not kept are named one per line; the rest are counted.
MAX_NOTES = 20


@dataclass(frozen=True, slots=True)
class SiteFetched:
    """A website's library: its name and folder, `present` or `fetched`, how it was
    read (one line), and a line per page not kept."""

    name: str
    folder: Path
    status: str
    detail: str | None
    notes: tuple[str, ...] = ()


def fetch_site(
    data_dir: Path,
    client: httpx.Client,
    spec: SiteSpec,
    limits: SiteLimits,
    refresh: bool,
    stopping: threading.Event,
    now: str,
) -> SiteFetched:
    """Fetch `spec` (FetchError with one line when nothing can be kept)."""
    parent = libraries_dir(data_dir)
    before = newest(fetched_names(data_dir), spec.library_base)
    previous = _previous(parent / before) if before else None
    if before and not refresh:
        return SiteFetched(before, parent / before, "present", None)
    version = today()
    name = f"{spec.library_base}@{version}"
    folder = parent / name
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=parent))
    except OSError as error:
        raise FetchError(f"cannot write {parent} ({os_error_words(error)})") from None
    try:
        kept = staging / "library"
        kept.mkdir()
        crawler = SiteCrawler(SiteClient(client, stopping), spec, limits, kept, previous)
        crawl = crawler.crawl()
        if not crawl.pages:
            why = (crawl.stops or crawl.skipped or ["the site listed no page under it"])[0]
            raise FetchError(f"no page kept ({why})")
        write_metadata(kept, _metadata(spec, version, now, crawl))
        if stopping.is_set():
            raise FetchError("interrupted")
        if folder.exists():
            folder.rename(staging / "replaced")  # today's version, read again
        kept.rename(folder)
        if previous is not None and previous.folder != folder:
            carry_store(data_dir, previous.folder, folder)
    except OSError as error:
        raise FetchError(f"cannot write {folder} ({os_error_words(error)})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return SiteFetched(name, folder, "fetched", _detail(crawl, before), _notes(crawl))


def carry_store(data_dir: Path, before: Path, folder: Path) -> None:
    """Start the new version's index store as a copy of the version before's: the pages
    copied unchanged keep their size and time, so only the changed ones are read again."""
    source, target = store_path(data_dir, before), store_path(data_dir, folder)
    if target.exists() or not source.is_file():
        return
    try:
        with (
            contextlib.closing(sqlite3.connect(source.as_uri() + "?mode=ro", uri=True)) as old,
            contextlib.closing(sqlite3.connect(target)) as new,
        ):
            old.backup(new)
            with new:
                new.execute(
                    "UPDATE meta SET value = ? WHERE key = 'folder'", (os.path.abspath(folder),)
                )
    except sqlite3.Error:
        # A store that cannot be copied is built anew when the library is first read.
        with contextlib.suppress(OSError):
            target.unlink()


def _previous(folder: Path) -> Previous | None:
    metadata = read_metadata(folder)
    if metadata is None:
        return None
    if metadata.registry != "web":
        raise FetchError(f"the library {folder.name} holds {metadata.registry}:{metadata.package}")
    pages: dict[str, PageRecord] = {}
    for file, page in metadata.pages.items():
        url = page.get("url") if isinstance(page, dict) else None
        if isinstance(url, str):
            pages[url] = PageRecord(url, file, page.get("etag"), page.get("last_modified"))
    return Previous(folder, pages)


def _metadata(spec: SiteSpec, version: str, now: str, crawl: Crawl) -> FetchedMetadata:
    return FetchedMetadata(
        package=spec.library_base,
        version=version,
        registry="web",
        index_url=spec.base,
        archive_url=spec.url,
        sha256="",
        fetched_at=now,
        documentation=True,
        origin="web",
        url=spec.url,
        pages={
            page.file: {"url": page.url, "etag": page.etag, "last_modified": page.last_modified}
            for page in crawl.pages
        },
        crawl=crawl.source,
    )


def _detail(crawl: Crawl, before: str | None) -> str:
    """`40 pages from llms.txt, 38 unchanged since …@2025-06-01; stopped at …`."""
    words = f"{len(crawl.pages):,} pages from {_SOURCES.get(crawl.source, crawl.source)}"
    if before is not None:
        words += f", {crawl.reused:,} unchanged since {before}"
    return "; ".join([words, *crawl.stops])


_SOURCES = {"links": "its links", "sitemap": "its sitemap"}


def _notes(crawl: Crawl) -> tuple[str, ...]:
    lines = crawl.skipped[:MAX_NOTES]
    if len(crawl.skipped) > MAX_NOTES:
        lines.append(f"and {len(crawl.skipped) - MAX_NOTES:,} more pages")
    return tuple(lines)
