"""A PyPI release's source archive, from the index pip uses (the simple API, JSON form).

The index is `TUI_ASSISTANT_PYPI_INDEX_URL`, else pip's own: `PIP_INDEX_URL`, else
`index-url` in pip's configuration files (`/etc/xdg/pip/pip.conf`, `/etc/pip.conf`,
`~/.pip/pip.conf`, `~/.config/pip/pip.conf`, `PIP_CONFIG_FILE`; a later one wins,
`[install]` over `[global]`), else `https://pypi.org/simple`. A project's page is asked
for as `application/vnd.pypi.simple.v1+json` (PEP 691): its files with their sha256.
The release is its sdist (`.tar.gz`, else `.zip`), never a wheel: the documentation
folder is only in the source archive.
"""

from __future__ import annotations

import configparser
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from packaging.version import InvalidVersion, Version

from tui_assistant.errors import FetchError
from tui_assistant.registry.libraries import version_key
from tui_assistant.registry.specs import PackageSpec, json_object, normalise_pypi_name
from tui_assistant.registry.transport import Registry
from tui_assistant.registry.versions import PEP440_OPERATORS, no_match, pypi_range

DEFAULT_INDEX = "https://pypi.org/simple"
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
_SDIST_SUFFIXES = (".tar.gz", ".zip")


@dataclass(frozen=True, slots=True)
class Release:
    """One release's source archive, as the registry's metadata names it."""

    name: str
    version: str
    url: str
    filename: str
    sha256: str | None
    sha512_integrity: str | None = None
    sha1: str | None = None


def pip_index_url(env: Mapping[str, str] = os.environ, home: Path | None = None) -> str:
    """The index URL pip is configured with."""
    if env.get("PIP_INDEX_URL", "").strip():
        return env["PIP_INDEX_URL"].strip()
    home = home if home is not None else Path.home()
    config_home = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    files: list[Path] = [Path("/etc/xdg/pip/pip.conf"), Path("/etc/pip.conf")]
    files += [home / ".pip" / "pip.conf", config_home / "pip" / "pip.conf"]
    if env.get("PIP_CONFIG_FILE"):
        files.append(Path(env["PIP_CONFIG_FILE"]))
    found = DEFAULT_INDEX
    for file in files:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(file, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            continue
        for section in ("global", "install"):
            for key in ("index-url", "index_url"):
                value = parser.get(section, key, fallback="").strip()
                if value:
                    found = value
    return found


def find_release(registry: Registry, spec: PackageSpec) -> Release:
    """The sdist of the release `spec` asks for: its exact version, the newest in its
    range, or (neither) the newest final release that has one."""
    project = normalise_pypi_name(spec.name)
    page, page_url = registry.get_json(f"{registry.base_url}{project}/", SIMPLE_JSON)
    if not isinstance(page, dict) or not isinstance(page.get("files"), list):
        raise FetchError(f"{registry.host} gave no file list for {project} (PEP 691 JSON)")
    files = _files(project, page["files"], page_url)
    sdists = {version: file.release for version, file in files.items() if file.release}
    if not sdists:
        raise FetchError(f"{project} has no source archive on {registry.host}")
    if spec.version is None and spec.range is None:
        finals = [v for v, f in files.items() if f.release and not f.yanked and not _pre(v)]
        finals = finals or [v for v, f in files.items() if f.release and not f.yanked]
        if not finals:
            raise FetchError(f"{project} has no source archive on {registry.host}")
        return sdists[max(finals, key=_order)]
    wanted = pypi_range(f"=={spec.version}" if spec.version is not None else _written(spec))
    listed = [v for v, f in files.items() if not f.yanked]
    version = wanted.newest(listed, [v for v, f in files.items() if f.yanked])
    if version is None:
        raise FetchError(no_match(spec.wanted or "", listed, "pypi"))
    if version not in sdists:
        # The newest match is wheels only: the newest match with a source archive.
        with_sdist = [v for v in listed if v in sdists]
        version = wanted.newest(with_sdist, [v for v in sdists if files[v].yanked]) or version
    if version not in sdists:
        raise FetchError(f"{project} {version} has no source archive on {registry.host}")
    return sdists[version]


@dataclass(slots=True)
class _Files:
    """A version's files on the index: its source archive, if any, and whether the
    version is yanked (every file of it is)."""

    release: Release | None = None
    yanked: bool = True


def _files(project: str, files: Sequence[Any], page_url: str) -> dict[str, _Files]:
    """Every version the index lists (wheels too) with its source archive (`.tar.gz`
    preferred over `.zip`)."""
    found: dict[str, _Files] = {}
    for file in files:
        if not isinstance(file, dict):
            continue
        filename = str(file.get("filename", ""))
        version = _version_of(project, filename)
        if version is None:
            continue
        entry = found.setdefault(version, _Files())
        yanked = file.get("yanked") not in (None, False)
        entry.yanked = entry.yanked and yanked
        suffix = next((s for s in _SDIST_SUFFIXES if filename.lower().endswith(s)), None)
        if suffix is None or (entry.release and entry.release.filename.endswith(".tar.gz")):
            continue
        hashes = json_object(file.get("hashes"))
        sha256 = hashes.get("sha256") if isinstance(hashes.get("sha256"), str) else None
        url = urljoin(page_url, str(file.get("url", "")))
        entry.release = Release(project, version, url, filename, sha256)
    return found


def _version_of(project: str, filename: str) -> str | None:
    """The version in an sdist's (`NAME-VERSION.tar.gz`) or a wheel's file name."""
    lowered = filename.lower()
    if lowered.endswith(".whl"):
        parts = filename[:-4].split("-")
        stem, version = (parts[0], parts[1]) if len(parts) >= 5 else ("", "")
    else:
        suffix = next((s for s in _SDIST_SUFFIXES if lowered.endswith(s)), None)
        if suffix is None:
            return None
        stem, _, version = filename[: -len(suffix)].rpartition("-")
    if not stem or normalise_pypi_name(stem) != project or not version:
        return None
    return version


# `Project-URL` labels that name the source repository, most likely first.
_REPOSITORY_LABELS = ("source", "source code", "repository", "code", "github", "gitlab")


def repository_urls(pkg_info: str) -> list[str]:
    """The URLs a release's core metadata (`PKG-INFO`) gives for its repository: its
    `Project-URL`s labelled Source, Repository, Code (in that order), then the rest of
    them (Homepage, Documentation...) and `Home-page`. The caller keeps the first on a
    known forge."""
    labelled: list[tuple[int, str]] = []
    # The headers end at the first blank line; the long description follows.
    for line in pkg_info.split("\n\n", 1)[0].splitlines():
        key, colon, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if not colon or not value:
            continue
        if key == "project-url":
            label, comma, url = value.partition(",")
            if comma:
                name = label.strip().lower()
                rank = _REPOSITORY_LABELS.index(name) if name in _REPOSITORY_LABELS else 99
                labelled.append((rank, url.strip()))
        elif key == "home-page":
            labelled.append((100, value))
    return [url for _, url in sorted(labelled, key=lambda item: item[0])]


def _written(spec: PackageSpec) -> str:
    """A range as `pypi_range` reads it: `@1.2` or a PEP 440 specifier set."""
    text = spec.range or ""
    return text if text.startswith(PEP440_OPERATORS) else "@" + text


def _order(version: str) -> tuple[int, Version | None, tuple[tuple[int, ...], int, str]]:
    parsed = _pep440(version)
    return (1, parsed, ((), 0, "")) if parsed is not None else (0, None, version_key(version))


def _pre(version: str) -> bool:
    """`2.0rc1`, `1.0.dev0`: a pre-release, never picked as the newest."""
    parsed = _pep440(version)
    return parsed.is_prerelease if parsed is not None else version_key(version)[1] == 1


def _pep440(version: str) -> Version | None:
    try:
        return Version(version)
    except InvalidVersion:
        return None
