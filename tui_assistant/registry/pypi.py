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

from tui_assistant.errors import FetchError
from tui_assistant.registry.libraries import version_key
from tui_assistant.registry.specs import json_object, normalise_pypi_name
from tui_assistant.registry.transport import Registry

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


def find_release(registry: Registry, name: str, version: str | None) -> Release:
    """The sdist of `name` at `version` (None: the newest final release that has one)."""
    project = normalise_pypi_name(name)
    page, page_url = registry.get_json(f"{registry.base_url}{project}/", SIMPLE_JSON)
    if not isinstance(page, dict) or not isinstance(page.get("files"), list):
        raise FetchError(f"{registry.host} gave no file list for {project} (PEP 691 JSON)")
    sdists = _sdists(project, page["files"], page_url)
    if not sdists:
        raise FetchError(f"{project} has no source archive on {registry.host}")
    if version is None:
        finals = [v for v in sdists if not _is_pre_release(v)] or list(sdists)
        version = max(finals, key=version_key)
    found = sdists.get(version)
    if found is None:
        found = next((r for v, r in sdists.items() if version_key(v) == version_key(version)), None)
    if found is None:
        raise FetchError(f"{project} {version} has no source archive on {registry.host}")
    return found


def _sdists(project: str, files: Sequence[Any], page_url: str) -> dict[str, Release]:
    """The non-yanked source archives by version (`.tar.gz` preferred)."""
    found: dict[str, Release] = {}
    for file in files:
        if not isinstance(file, dict) or file.get("yanked") not in (None, False):
            continue
        filename = str(file.get("filename", ""))
        suffix = next((s for s in _SDIST_SUFFIXES if filename.lower().endswith(s)), None)
        if suffix is None:
            continue
        stem, dash, version = filename[: -len(suffix)].rpartition("-")
        if not dash or normalise_pypi_name(stem) != project or not version:
            continue
        hashes = json_object(file.get("hashes"))
        sha256 = hashes.get("sha256") if isinstance(hashes.get("sha256"), str) else None
        url = urljoin(page_url, str(file.get("url", "")))
        if version in found and found[version].filename.endswith(".tar.gz"):
            continue
        found[version] = Release(project, version, url, filename, sha256)
    return found


def _is_pre_release(version: str) -> bool:
    """`2.0rc1`, `1.0.dev0`, `3.0.0-beta.1`: a pre-release, never picked as the newest."""
    return version_key(version)[1] == 1
