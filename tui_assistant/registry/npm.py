"""An npm release's tarball, from the registry npm uses.

The registry is `TUI_ASSISTANT_NPM_REGISTRY`, else npm's own: `npm_config_registry` in
the environment, else `registry=` in the project's `.npmrc` (the working folder), the
user's (`~/.npmrc`, or `NPM_CONFIG_USERCONFIG`), the global one (`$PREFIX/etc/npmrc`),
first found wins, else `https://registry.npmjs.org/`. The package's abbreviated
metadata (`application/vnd.npm.install-v1+json`) names each version's `dist.tarball`
and its `dist.integrity` (sha512) or `dist.shasum` (sha1), checked before unpacking.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tui_assistant.errors import FetchError
from tui_assistant.registry.pypi import Release
from tui_assistant.registry.specs import PackageSpec, json_object
from tui_assistant.registry.transport import Registry
from tui_assistant.registry.versions import no_match, npm_range

DEFAULT_REGISTRY = "https://registry.npmjs.org/"
ABBREVIATED = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8"


def npm_registry(
    env: Mapping[str, str] = os.environ, cwd: Path | None = None, home: Path | None = None
) -> str:
    """The registry npm is configured with."""
    for key in ("npm_config_registry", "NPM_CONFIG_REGISTRY"):
        if env.get(key, "").strip():
            return env[key].strip()
    home = home if home is not None else Path.home()
    files = [
        (cwd or Path.cwd()) / ".npmrc",
        Path(env.get("NPM_CONFIG_USERCONFIG") or home / ".npmrc"),
    ]
    prefix = env.get("PREFIX") or env.get("npm_config_prefix")
    files += [Path(prefix) / "etc" / "npmrc"] if prefix else [Path("/usr/local/etc/npmrc")]
    for file in files:
        value = _npmrc_registry(file)
        if value:
            return value
    return DEFAULT_REGISTRY


def _npmrc_registry(file: Path) -> str | None:
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        key, equals, value = line.strip().partition("=")
        value = value.strip().strip("\"'")
        # `${VAR}` values are npm's to expand; a URL is what is read here.
        if equals and key.strip() == "registry" and value and "${" not in value:
            return value
    return None


def find_release(registry: Registry, spec: PackageSpec) -> Release:
    """The tarball of the version `spec` asks for: its exact version, a dist-tag's
    (`next`), the newest in its range, or (neither) the `latest` dist-tag's."""
    name = spec.name
    path = quote(name, safe="@") if not name.startswith("@") else "@" + quote(name[1:], safe="")
    document, _ = registry.get_json(f"{registry.base_url}{path}", ABBREVIATED)
    if not isinstance(document, dict) or not isinstance(document.get("versions"), dict):
        raise FetchError(f"{registry.host} gave no versions for {name}")
    versions: dict[str, Any] = document["versions"]
    wanted = _resolve(spec, versions, json_object(document.get("dist-tags")))
    entry = versions.get(wanted) if wanted is not None else None
    if wanted is None or not isinstance(entry, dict):
        raise FetchError(no_match(spec.wanted or "latest", list(versions), "npm"))
    dist = json_object(entry.get("dist"))
    tarball = dist.get("tarball")
    if not isinstance(tarball, str) or not tarball:
        raise FetchError(f"{name} {wanted} names no tarball on {registry.host}")
    integrity = _sha512(dist.get("integrity"))
    shasum = dist.get("shasum") if isinstance(dist.get("shasum"), str) else None
    filename = tarball.rsplit("/", 1)[-1]
    return Release(name, wanted, tarball, filename, None, integrity, shasum)


def _resolve(spec: PackageSpec, versions: Mapping[str, Any], tags: Mapping[str, Any]) -> str | None:
    """The version `spec` means among the package's `versions` and dist-`tags`."""
    if spec.version is not None:
        if spec.version in versions:
            return spec.version
        return npm_range(spec.version).newest(versions)
    written = spec.range or "latest"
    tagged = tags.get(written)
    if isinstance(tagged, str) and tagged in versions:
        return tagged
    if spec.range is None:
        # No `latest` tag: the newest release, as npm would pick for `*`.
        return npm_range("*").newest(versions)
    try:
        wanted = npm_range(written)
    except ValueError:
        return None  # a dist-tag the package does not have
    return wanted.newest(versions)


def repository_urls(package_json: str) -> list[str]:
    """The repository a package's `package.json` names (`repository`, a string or
    `{"url": ...}`), else its `homepage`; as written (the caller reads the URL)."""
    try:
        document = json_object(json.loads(package_json))
    except ValueError:
        return []
    repository = document.get("repository")
    found = [repository] if isinstance(repository, str) else []
    url = json_object(repository).get("url")
    found += [url] if isinstance(url, str) else []
    homepage = document.get("homepage")
    return found + ([homepage] if isinstance(homepage, str) else [])


def _sha512(integrity: object) -> str | None:
    """The hex sha512 of an SRI string (`sha512-BASE64 ...`); None without one."""
    if not isinstance(integrity, str):
        return None
    for part in integrity.split():
        algorithm, _, digest = part.partition("-")
        if algorithm == "sha512":
            try:
                return base64.b64decode(digest, validate=True).hex()
            except ValueError:
                return None
    return None
