"""One package (or website, `site_fetch`) fetched into the data folder: look up,
download, check, unpack, index.

A release already fetched is `present` and costs no network when its version is
named. Everything is unpacked into a staging folder inside the fetched libraries'
folder and renamed into place only once complete, so an interrupted fetch (Ctrl-C, a
failure) leaves no half library; the staging folder is removed on the way out.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from tui_assistant.errors import FetchError, os_error_words
from tui_assistant.registry import npm, pypi
from tui_assistant.registry.archive import Limits
from tui_assistant.registry.git import fetch_ref
from tui_assistant.registry.git_spec import GitSpec
from tui_assistant.registry.libraries import (
    STAGING_PREFIX,
    FetchedMetadata,
    libraries_dir,
    read_metadata,
    write_metadata,
)
from tui_assistant.registry.readers import Readers, count_passages, read_archive
from tui_assistant.registry.site_fetch import fetch_site
from tui_assistant.registry.site_limits import SiteLimits
from tui_assistant.registry.site_urls import SiteSpec
from tui_assistant.registry.specs import PackageSpec, library_name_of
from tui_assistant.registry.transport import Progress, Registry, new_client
from tui_assistant.store.history import now

Status = Literal["fetched", "present", "no_docs", "failed"]
# A staging folder older than this was left by a process that is gone.
STALE_STAGING_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What became of one SPEC (`fetch --json` prints it as one object)."""

    spec: str
    library: str | None
    package: str
    version: str | None
    status: Status
    documents: int
    passages: int
    detail: str | None
    # One line each for what was not kept (a website's pages; a repository's links,
    # submodules, big files), said on standard error.
    notes: tuple[str, ...] = ()
    # `pypi`, `npm`, `web` or `git`; when the library was fetched (ISO 8601, UTC).
    origin: str | None = None
    fetched_at: str | None = None


class FetchRecord(BaseModel):
    """One line of `fetch --json`: what became of one SPEC."""

    spec: str = Field(description="the SPEC as given (`pypi:NAME==VERSION`, `npm:NAME@VERSION`)")
    library: str | None = Field(
        description="the library's name, NAME@VERSION, as `--library` takes it; null when "
        "nothing was kept (failed, or no files to keep)"
    )
    package: str
    version: str | None = Field(
        description="the release's version; null when it failed before one was found"
    )
    status: Status = Field(description="fetched, present (fetched before), no_docs or failed")
    documents: int
    passages: int
    detail: str | None = Field(
        description="why it failed, what a no_docs library holds instead, or how a website "
        "was read (and what cap stopped it); null otherwise"
    )
    origin: str | None = Field(description="where it came from: pypi, npm, web or git")
    fetched_at: str | None = Field(
        description="when the library was fetched (ISO 8601, UTC); null when none was kept"
    )

    @classmethod
    def of(cls, result: FetchResult) -> FetchRecord:
        return cls(
            spec=result.spec,
            library=result.library,
            package=result.package,
            version=result.version,
            status=result.status,
            documents=result.documents,
            passages=result.passages,
            detail=result.detail,
            origin=result.origin,
            fetched_at=result.fetched_at,
        )


@dataclass(frozen=True, slots=True)
class Registries:
    """Where each registry is asked (the settings', else the user's tools')."""

    pypi: str
    npm: str


class Fetcher:
    """Fetches packages into `data_dir` over one HTTP client; archives are read by
    `workers` processes (`readers.Readers`)."""

    def __init__(
        self,
        data_dir: Path,
        registries: Registries,
        limits: Limits | None = None,
        site_limits: SiteLimits | None = None,
        refresh: bool = False,
        workers: int = 1,
    ) -> None:
        self.data_dir = data_dir
        self.registries = registries
        self.limits = limits or Limits()
        self.site_limits = site_limits or SiteLimits()
        # `--refresh`: websites are read again (a package's version never changes).
        self.refresh = refresh
        self.client = new_client()
        self._registries: dict[str, Registry] = {}
        # Set on Ctrl-C: every fetch in flight stops at its next downloaded chunk.
        self.stopping = threading.Event()
        self.readers = Readers(workers)

    def stop(self) -> None:
        """Ctrl-C: downloads stop at their next chunk, archives being read at once."""
        self.stopping.set()
        self.readers.stop()

    def close(self) -> None:
        self.readers.close()
        self.client.close()

    def fetch(
        self, spec: PackageSpec | GitSpec | SiteSpec, progress: Progress | None = None
    ) -> FetchResult:
        """Fetch `spec`; a failure is a `failed` result with its one line, never raised
        (a Ctrl-C is: it stops the command)."""
        try:
            if isinstance(spec, GitSpec):
                result = self._fetch_git(spec)
            elif isinstance(spec, SiteSpec):
                result = self._fetch_site(spec)
            else:
                result = self._fetch(spec, progress)
        except FetchError as error:
            named = (
                (spec.repo, spec.ref) if isinstance(spec, GitSpec) else (spec.name, spec.version)
            )
            result = FetchResult(str(spec), None, *named, "failed", 0, 0, str(error))
        kept = result.library and read_metadata(libraries_dir(self.data_dir) / result.library)
        origin = "git" if isinstance(spec, GitSpec) else spec.registry
        return replace(result, origin=origin, fetched_at=kept.fetched_at if kept else None)

    def _fetch_site(self, spec: SiteSpec) -> FetchResult:
        site = fetch_site(
            self.data_dir, self.client, spec, self.site_limits, self.refresh, self.stopping, now()
        )
        documents, passages = self._count(site.folder, site.name)
        status: Status = "present" if site.status == "present" else "fetched"
        version = site.name.partition("@")[2]
        named = (str(spec), site.name, spec.library_base, version, status)
        return FetchResult(*named, documents, passages, site.detail, site.notes)

    def _registry(self, spec: PackageSpec) -> Registry:
        found = self._registries.get(spec.registry)
        if found is None:
            if spec.registry == "pypi":
                found = Registry(self.client, self.registries.pypi, "the PyPI index")
            else:
                found = Registry(self.client, self.registries.npm, "the npm registry")
            self._registries[spec.registry] = found
        return found

    def _fetch(self, spec: PackageSpec, progress: Progress | None) -> FetchResult:
        registry = self._registry(spec)
        if spec.version is not None:
            here = self._present(spec, spec.version)
            if here is not None:
                return here
        finder = pypi.find_release if spec.registry == "pypi" else npm.find_release
        release = finder(registry, spec)
        here = self._present(spec, release.version)
        if here is not None:
            return here
        name = library_name_of(spec.registry, release.name, release.version)
        folder = libraries_dir(self.data_dir) / name
        staging = _new_staging(folder)
        try:
            downloaded = registry.download(release.url, staging / "archive", self._told(progress))
            _check_digest(release, downloaded.sha256, downloaded.sha512, downloaded.sha1)
            kept = staging / "library"
            kept.mkdir()
            read = self.readers.run(
                read_archive,
                downloaded.path,
                release.filename,
                kept,
                spec.registry,
                release.version,
                self.limits,
            )
            unpacked, hint = read.unpacked, read.hint
            if not unpacked.files:
                return FetchResult(
                    str(spec),
                    None,
                    release.name,
                    release.version,
                    "no_docs",
                    0,
                    0,
                    _hinted("the release has no documentation, README or source to keep", hint),
                )
            write_metadata(
                kept,
                FetchedMetadata(
                    package=release.name,
                    version=release.version,
                    registry=spec.registry,
                    index_url=registry.base_url,
                    archive_url=release.url,
                    sha256=downloaded.sha256,
                    fetched_at=now(),
                    documentation=unpacked.documentation,
                ),
            )
            if self.stopping.is_set():
                raise FetchError("interrupted")
            try:
                kept.rename(folder)
            except OSError:
                # Two ranges of one run (`@1`, `~=1.9`) met at one release: one kept it.
                here = self._present(spec, release.version)
                if here is None:
                    raise
                return here
        except OSError as error:
            raise FetchError(f"cannot write {folder} ({os_error_words(error)})") from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        documents, passages = self._count(folder, name)
        detail: str | None = None
        status: Status = "fetched"
        if not unpacked.documentation:
            status = "no_docs"
            detail = "no documentation folder: the README and changelog" + (
                " and the API reference from the source" if spec.registry == "pypi" else ""
            )
            detail = _hinted(detail, hint)
        return FetchResult(
            str(spec), name, release.name, release.version, status, documents, passages, detail
        )

    def _fetch_git(self, spec: GitSpec) -> FetchResult:
        """One ref of a repository, as the library `REPO@REF` (present when fetched
        before from the same URL: a ref named again costs no network)."""
        name = spec.library
        version = name.partition("@")[2]
        folder = libraries_dir(self.data_dir) / name
        metadata = read_metadata(folder)
        if metadata is not None:
            if metadata.registry != "git" or metadata.url != spec.url:
                held = metadata.url or f"{metadata.registry}:{metadata.package}"
                raise FetchError(f"the library {name} holds {held}")
            documents, passages = self._count(folder, name)
            return FetchResult(
                str(spec), name, spec.repo, version, "present", documents, passages, None
            )
        staging = _new_staging(folder)
        try:
            kept = staging / "library"
            kept.mkdir()
            got = fetch_ref(spec, staging, kept, self.limits, self.stopping)
            if not got.files:
                nothing = "the ref has no documentation folder or README to keep"
                return FetchResult(
                    str(spec), None, spec.repo, version, "no_docs", 0, 0, nothing, got.notes
                )
            write_metadata(
                kept,
                FetchedMetadata(
                    package=spec.repo,
                    version=version,
                    registry="git",
                    index_url=spec.url,
                    archive_url=spec.url,
                    sha256="",
                    fetched_at=now(),
                    documentation=got.documentation,
                    origin="git",
                    url=spec.url,
                    ref=spec.ref,
                    commit=got.commit,
                ),
            )
            if self.stopping.is_set():
                raise FetchError("interrupted")
            kept.rename(folder)
        except OSError as error:
            raise FetchError(f"cannot write {folder} ({os_error_words(error)})") from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        documents, passages = self._count(folder, name)
        status: Status = "fetched" if got.documentation else "no_docs"
        detail = None if got.documentation else "no documentation folder: the README and changelog"
        return FetchResult(
            str(spec), name, spec.repo, version, status, documents, passages, detail, got.notes
        )

    def _count(self, folder: Path, name: str) -> tuple[int, int]:
        return self.readers.run(count_passages, folder, self.data_dir, name)

    def _told(self, progress: Progress | None) -> Progress:
        def told(done: int, total: int | None) -> None:
            if self.stopping.is_set():
                raise FetchError("interrupted")
            if progress is not None:
                progress(done, total)

        return told

    def _present(self, spec: PackageSpec, version: str) -> FetchResult | None:
        name = library_name_of(spec.registry, spec.name, version)
        folder = libraries_dir(self.data_dir) / name
        metadata = read_metadata(folder)
        if metadata is None:
            return None
        if metadata.registry != spec.registry:
            raise FetchError(f"the library {name} holds {metadata.registry}:{metadata.package}")
        documents, passages = self._count(folder, name)
        return FetchResult(
            str(spec),
            name,
            metadata.package,
            metadata.version,
            "present",
            documents,
            passages,
            None,
        )


def _check_digest(release: pypi.Release, sha256: str, sha512: str, sha1: str) -> None:
    """The archive's digest against the registry's metadata, before anything is unpacked."""
    if release.sha256 is not None:
        expected, got, algorithm = release.sha256.lower(), sha256, "sha256"
    elif release.sha512_integrity is not None:
        expected, got, algorithm = release.sha512_integrity, sha512, "sha512"
    elif release.sha1 is not None:
        expected, got, algorithm = release.sha1.lower(), sha1, "sha1"
    else:
        raise FetchError(f"the registry gives no digest for {release.filename}: not unpacked")
    if expected != got:
        raise FetchError(
            f"{release.filename}'s {algorithm} does not match the registry's: not unpacked"
        )


def _new_staging(folder: Path) -> Path:
    """A new staging folder beside the library `folder` will be (old ones removed)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_staging(folder.parent)
    return Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder.parent))


def _hinted(detail: str, hint: str | None) -> str:
    return f"{detail}; {hint}" if hint else detail


def _remove_stale_staging(parent: Path) -> None:
    for entry in parent.glob(f"{STAGING_PREFIX}*"):
        with contextlib.suppress(OSError):
            if time.time() - entry.stat().st_mtime > STALE_STAGING_SECONDS:
                shutil.rmtree(entry, ignore_errors=True)
