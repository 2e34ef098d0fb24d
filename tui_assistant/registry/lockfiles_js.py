"""The npm packages `pnpm-lock.yaml` and `yarn.lock` lock, for `fetch --from`.

Pure. `pnpm-lock.yaml` (lockfile versions 5 to 9): the root project's dependencies,
devDependencies and optionalDependencies at their locked versions (`importers: .:`, else
the top level), peer suffixes (`1.2.3(react@18.2.0)`, `1.2.3_react@18.2.0`) dropped and
aliases (`npm:string-width@4.2.3`) followed to the real package. `yarn.lock` v1 (its own
format): every locked package, as it has no record of which are direct. `yarn.lock` from
yarn 2 and later (berry, YAML): the root workspace's dependencies when it is there, else
every package resolved from the registry (`@npm:`). A `link:`, `file:`, `workspace:`,
git or URL dependency of the root is listed as not fetched, with why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tui_assistant.errors import YamlSubsetError
from tui_assistant.registry.lockfiles_yaml import parse_mapping
from tui_assistant.registry.specs import PackageSpec, json_object
from tui_assistant.registry.versions_npm import parse_version

_GROUPS = ("dependencies", "devDependencies", "optionalDependencies")
# `link:../x`, `file:x.tgz`, `workspace:*`, `git+https://...`, `github:u/r`, a URL.
_NOT_REGISTRY = re.compile(r"^(link|file|workspace|portal|patch|git(\+[a-z]+)?|github|https?):")


@dataclass
class JsLock:
    """What a JavaScript lock file locks: registry releases, and (text, why) for the
    rest."""

    pinned: list[PackageSpec] = field(default_factory=list)
    local: list[tuple[str, str]] = field(default_factory=list)

    def add(self, name: str, locked: str) -> None:
        """`name` locked at `locked` as a lock file writes it (peers, alias and all)."""
        version = re.sub(r"[(_].*$", "", locked.strip())
        found = _NOT_REGISTRY.match(version)
        if found:
            self.local.append(
                (f"{name}@{locked}", f"a {found.group(1)}: dependency, not on the registry")
            )
            return
        alias = re.match(r"^(?:npm:)?(@?[^@]+)@(.+)$", version)
        if alias and parse_version(alias.group(2)) is not None:
            name, version = alias.group(1), alias.group(2)
        if parse_version(version) is not None:
            self.pinned.append(PackageSpec("npm", name, version))


def pnpm_lock(text: str) -> JsLock:
    """Raises ValueError naming the line this reader cannot take."""
    data = parse_mapping(text)
    importers = json_object(data.get("importers"))
    root = json_object(importers.get(".")) if importers else data
    found = JsLock()
    for group in _GROUPS:
        for name, entry in json_object(root.get(group)).items():
            # Lockfile 6 and 9: `name: {specifier, version}`; 5: `name: version`.
            locked = json_object(entry).get("version") if isinstance(entry, dict) else entry
            if isinstance(locked, str):
                found.add(name, locked)
    return found


def yarn_lock(text: str) -> JsLock:
    """Raises ValueError naming the line this reader cannot take."""
    if "__metadata:" in text:
        return _yarn_berry(parse_mapping(text))
    return _yarn_classic(text)


def _yarn_classic(text: str) -> JsLock:
    found = JsLock()
    names: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            if not line.rstrip().endswith(":"):
                raise YamlSubsetError(f"line {number} is not a `PACKAGE@RANGE:` entry")
            names = [_package_of(part.strip().strip('"')) for part in line.rstrip()[:-1].split(",")]
            continue
        key, _, value = line.strip().partition(" ")
        if key == "version" and names:
            found.add(names[0], value.strip().strip('"'))
            names = []
    return found


def _package_of(entry: str) -> str:
    """`@babel/core@^7.0.0` -> `@babel/core`; an alias `x@npm:real@^1` -> `real`."""
    name, _, wanted = entry[1:].partition("@")
    name = entry[0] + name
    alias = re.match(r"^npm:(@?[^@]+)@", wanted)
    return alias.group(1) if alias else name


def _yarn_berry(data: dict[str, Any]) -> JsLock:
    entries = {key: json_object(value) for key, value in data.items() if key != "__metadata"}
    root = next(
        (e for e in entries.values() if str(e.get("resolution", "")).endswith("@workspace:.")),
        None,
    )
    direct = set(json_object(root.get("dependencies"))) if root is not None else None
    found = JsLock()
    for entry in entries.values():
        resolution = str(entry.get("resolution", ""))
        name, _, source = resolution[1:].partition("@")
        name = resolution[:1] + name
        if direct is not None and name not in direct:
            continue
        if source.startswith("npm:"):
            found.add(name, source[4:])
        elif entry is not root:
            found.add(name, source)
    return found
