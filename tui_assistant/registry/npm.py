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
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tui_assistant.errors import FetchError
from tui_assistant.registry.pypi import Release
from tui_assistant.registry.specs import json_object
from tui_assistant.registry.transport import Registry

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


def find_release(registry: Registry, name: str, version: str | None) -> Release:
    """The tarball of `name` at `version` (None: the `latest` dist-tag; a dist-tag
    name such as `next` is followed too)."""
    path = quote(name, safe="@") if not name.startswith("@") else "@" + quote(name[1:], safe="")
    document, _ = registry.get_json(f"{registry.base_url}{path}", ABBREVIATED)
    if not isinstance(document, dict) or not isinstance(document.get("versions"), dict):
        raise FetchError(f"{registry.host} gave no versions for {name}")
    versions: dict[str, Any] = document["versions"]
    tags = json_object(document.get("dist-tags"))
    wanted = version or "latest"
    if wanted not in versions and isinstance(tags.get(wanted), str):
        wanted = tags[wanted]
    entry = versions.get(wanted)
    if not isinstance(entry, dict):
        raise FetchError(f"{name} has no version {wanted} on {registry.host}")
    dist = json_object(entry.get("dist"))
    tarball = dist.get("tarball")
    if not isinstance(tarball, str) or not tarball:
        raise FetchError(f"{name} {wanted} names no tarball on {registry.host}")
    integrity = _sha512(dist.get("integrity"))
    shasum = dist.get("shasum") if isinstance(dist.get("shasum"), str) else None
    filename = tarball.rsplit("/", 1)[-1]
    return Release(name, wanted, tarball, filename, None, integrity, shasum)


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
