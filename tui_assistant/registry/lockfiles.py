"""A project's pinned dependencies, read from its own files: what `fetch --from` fetches.

Pure: a file's name and text in, `PackageSpec`s out. Read: `requirements*.txt`
(`NAME==VERSION` lines), `uv.lock` and `poetry.lock` (every locked package; with a
project root in `uv.lock`, its direct dependencies), `pyproject.toml` (`==` pins in
`[project] dependencies` and optional dependencies), `Pipfile.lock` (default and
develop packages), `package-lock.json` and `pnpm-lock.yaml` (the root's direct
dependencies at their locked versions), `yarn.lock` (see `lockfiles_js`) and
`package.json` (exact versions). A dependency that is not pinned to one version is
listed in `unpinned`, not guessed; one that is not on a registry at all (an editable
or local folder, a URL) in `local`, with why.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui_assistant.errors import LockfileError
from tui_assistant.registry.lockfiles_js import pnpm_lock, yarn_lock
from tui_assistant.registry.specs import PackageSpec, json_object, normalise_pypi_name

_REQUIREMENT = re.compile(
    r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*===?\s*([A-Za-z0-9.+_!-]+)\s*(?:;.*)?$"
)
_NAME_ONLY = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# PEP 508 `NAME @ URL` (`pkg @ file:///src/pkg`, `pkg @ git+https://...`).
_DIRECT_REFERENCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?\s*@")
_EXACT_NPM = re.compile(r"^=?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$")


@dataclass(frozen=True, slots=True)
class NotFetched:
    """A dependency no registry has: `text` as the file writes it, `why` in words."""

    text: str
    why: str


@dataclass(frozen=True, slots=True)
class Dependencies:
    pinned: tuple[PackageSpec, ...]
    unpinned: tuple[str, ...] = field(default=())
    local: tuple[NotFetched, ...] = field(default=())


def read_dependencies(filename: str, text: str) -> Dependencies:
    """The dependencies a project file pins, by the file's name."""
    name = filename.rsplit("/", 1)[-1].lower()
    if name.endswith(".txt") and name.startswith("requirements"):
        return _requirements(text)
    if name == "uv.lock":
        return _uv_lock(_toml(text, filename))
    if name == "poetry.lock":
        return _locked_packages(_toml(text, filename).get("package"), root=None)
    if name == "pyproject.toml":
        return _pyproject(_toml(text, filename))
    if name == "package-lock.json":
        return _package_lock(_json(text, filename))
    if name == "package.json":
        return _package_json(_json(text, filename))
    if name == "pipfile.lock":
        return _pipfile_lock(_json(text, filename))
    if name in ("pnpm-lock.yaml", "yarn.lock"):
        return _javascript_lock(name, text, filename)
    raise LockfileError(
        f"{filename}: not a file dependencies are read from (requirements*.txt, uv.lock,"
        " poetry.lock, pyproject.toml, Pipfile.lock, package-lock.json, pnpm-lock.yaml,"
        " yarn.lock, package.json)"
    )


def _javascript_lock(name: str, text: str, filename: str) -> Dependencies:
    reader = pnpm_lock if name == "pnpm-lock.yaml" else yarn_lock
    try:
        found = reader(text)
    except ValueError as error:
        raise LockfileError(f"{filename}: {error}") from None
    local = tuple(NotFetched(text, why) for text, why in found.local)
    return Dependencies(_distinct(found.pinned), (), local)


def _toml(text: str, filename: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LockfileError(f"{filename} is not valid TOML ({error})") from None


def _json(text: str, filename: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError as error:
        raise LockfileError(f"{filename} is not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise LockfileError(f"{filename} is not a JSON object")
    return data


def _requirement_lines(lines: Iterable[str]) -> Dependencies:
    pinned: list[PackageSpec] = []
    unpinned: list[str] = []
    local: list[NotFetched] = []
    for raw in lines:
        line = raw.split(" #", 1)[0].split("--hash", 1)[0].strip().rstrip("\\").strip()
        if not line or line.startswith("#"):
            continue
        why = _not_on_an_index(line)
        if why:
            local.append(NotFetched(line, why))
            continue
        if line.startswith("-"):
            continue  # an option: `--index-url`, `--pre`
        match = _REQUIREMENT.match(line)
        if match:
            pinned.append(PackageSpec("pypi", match.group(1), match.group(2)))
        elif _NAME_ONLY.match(line):
            unpinned.append(line)
    return Dependencies(_distinct(pinned), tuple(unpinned), tuple(local))


def _not_on_an_index(line: str) -> str | None:
    """Why a requirement line names nothing an index has; None when it may."""
    if line.startswith(("-e ", "-e\t", "--editable")):
        return "an editable install, not a release on an index"
    if line.startswith(("-r ", "-c ", "--requirement", "--constraint")):
        return "another requirements file: give it to --from on its own"
    if line.startswith("-"):
        return None  # an option: `--index-url`, `--pre`
    if _DIRECT_REFERENCE.match(line):
        return "a direct reference to a URL or path, not a release on an index"
    if line.startswith(("git+", "hg+", "svn+", "bzr+", "http:", "https:")):
        return "a URL, not a release on an index"
    if line.startswith(("file:", ".", "/", "~")) or "/" in line.split(";", 1)[0]:
        return "a local path, not a release on an index"
    return None


def _requirements(text: str) -> Dependencies:
    return _requirement_lines(text.splitlines())


def _pyproject(data: Mapping[str, Any]) -> Dependencies:
    project = json_object(data.get("project"))
    lines = [item for item in project.get("dependencies") or [] if isinstance(item, str)]
    for group in json_object(project.get("optional-dependencies")).values():
        if isinstance(group, list):
            lines += [item for item in group or [] if isinstance(item, str)]
    return _requirement_lines(lines)


def _uv_lock(data: Mapping[str, Any]) -> Dependencies:
    packages = data.get("package")
    root = None
    for package in packages if isinstance(packages, list) else []:
        source = package.get("source") if isinstance(package, dict) else None
        if isinstance(source, dict) and ({"editable", "virtual"} & set(source)):
            root = package
            break
    return _locked_packages(packages, root)


def _locked_packages(packages: object, root: Mapping[str, Any] | None) -> Dependencies:
    """Every `[[package]]` with a name and version; with a `root`, its direct ones."""
    direct: set[str] | None = None
    if root is not None:
        names = [d.get("name") for d in root.get("dependencies") or [] if isinstance(d, dict)]
        direct = {normalise_pypi_name(name) for name in names if isinstance(name, str)}
    pinned: list[PackageSpec] = []
    for package in packages if isinstance(packages, list) else []:
        if not isinstance(package, dict) or package is root:
            continue
        name, version = package.get("name"), package.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            continue
        source = package.get("source")
        if isinstance(source, dict) and not ({"registry"} & set(source)) and "url" not in source:
            continue  # a path, editable or git dependency: not on an index
        if direct is not None and normalise_pypi_name(name) not in direct:
            continue
        pinned.append(PackageSpec("pypi", name, version))
    return Dependencies(_distinct(pinned))


def _package_lock(data: Mapping[str, Any]) -> Dependencies:
    packages = data.get("packages")
    if isinstance(packages, dict) and isinstance(packages.get(""), dict):
        root = packages[""]
        names = [*_keys(root.get("dependencies")), *_keys(root.get("devDependencies"))]
        pinned = []
        for name in names:
            entry = packages.get(f"node_modules/{name}")
            if isinstance(entry, dict) and isinstance(entry.get("version"), str):
                pinned.append(PackageSpec("npm", name, entry["version"]))
        return Dependencies(_distinct(pinned))
    # lockfileVersion 1: the top level of `dependencies`.
    dependencies = data.get("dependencies")
    pinned = [
        PackageSpec("npm", name, entry["version"])
        for name, entry in (dependencies.items() if isinstance(dependencies, dict) else [])
        if isinstance(entry, dict) and isinstance(entry.get("version"), str)
    ]
    return Dependencies(_distinct(pinned))


def _package_json(data: Mapping[str, Any]) -> Dependencies:
    pinned: list[PackageSpec] = []
    unpinned: list[str] = []
    for group in ("dependencies", "devDependencies"):
        entries = data.get(group)
        for name, wanted in entries.items() if isinstance(entries, dict) else []:
            match = _EXACT_NPM.match(str(wanted).strip())
            if match:
                pinned.append(PackageSpec("npm", name, match.group(1)))
            else:
                unpinned.append(f"{name}@{wanted}")
    return Dependencies(_distinct(pinned), tuple(unpinned))


def _pipfile_lock(data: Mapping[str, Any]) -> Dependencies:
    pinned: list[PackageSpec] = []
    unpinned: list[str] = []
    local: list[NotFetched] = []
    for group in ("default", "develop"):
        for name, entry in json_object(data.get(group)).items():
            entry = json_object(entry)
            version = entry.get("version")
            where = next(
                (key for key in ("path", "file", "git", "hg", "svn") if key in entry), None
            )
            if where is not None:
                kind = "a local path" if where == "path" else f"a {where} source"
                local.append(
                    NotFetched(
                        f"{name} ({where}: {entry[where]})", f"{kind}, not a release on an index"
                    )
                )
            elif isinstance(version, str) and version.startswith("=="):
                pinned.append(PackageSpec("pypi", name, version[2:].strip()))
            else:
                unpinned.append(f"{name}{version if isinstance(version, str) else ''}")
    return Dependencies(_distinct(pinned), tuple(unpinned), tuple(local))


def _keys(value: object) -> list[str]:
    return [key for key in value if isinstance(key, str)] if isinstance(value, dict) else []


def _distinct(specs: list[PackageSpec]) -> tuple[PackageSpec, ...]:
    return tuple(dict.fromkeys(specs))
