"""What to fetch: `pypi:NAME...` and `npm:NAME@...` read as a `PackageSpec`.

Pure: strings in, specs out. After the name comes nothing (the newest release), one
exact version (`==1.2.3`, `@1.2.3`), a range as the registry reads it (PyPI: `@1.2`,
`>=2,<3`, `~=1.4`; npm: `@^5.1`, `@~1.4`, `@1.x`, `@>=2 <3`), an npm dist-tag (`@next`)
or `@latest`; `versions` says which release a range means. A package's library is named
`NAME@VERSION` after its normalised name: PyPI's (PEP 503: `Jinja2` is `jinja2`,
`typing_extensions` is `typing-extensions`) or npm's (a scoped `@types/node` is
`types--node`). Also `json_object`, how the registry's metadata readers and the
lock-file reader take a value that should be a JSON object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from tui_assistant.registry.git_spec import (
    GitSpec,
    is_git_spec,
    parse_git_spec,
    without_credentials,
)
from tui_assistant.registry.site_urls import SiteSpec, parse_site_url
from tui_assistant.registry.versions import PEP440_OPERATORS, npm_range, pypi_range
from tui_assistant.registry.versions_npm import parse_version

Registry = Literal["pypi", "npm"]
REGISTRIES: tuple[Registry, ...] = ("pypi", "npm")

# PEP 508 names; npm's (lower case, may be scoped).
_PYPI_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_PYPI_LEADING_NAME = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(.*)$", re.S)
_NPM_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
# npm refuses a dist-tag that reads as a range, so what is not a range may be one.
_DIST_TAG = re.compile(r"^[A-Za-z][A-Za-z0-9._-]*$")
# The characters a version may have in a library's folder name, `NAME@VERSION`.
VERSION_TEXT = re.compile(r"^[A-Za-z0-9.+_-]+$")
MAX_SPEC_CHARS = 300
_PYPI_HINT = "write pypi:NAME, pypi:NAME==1.2.3 or pypi:'NAME>=1,<2'"
_NPM_HINT = "write npm:NAME, npm:NAME@1.2.3 or npm:NAME@^1.2"


@dataclass(frozen=True, slots=True)
class PackageSpec:
    """One package to fetch: its registry, its name as the registry spells it, and
    either one exact `version`, or a `range` (or npm dist-tag) as written that the
    registry's versions resolve; neither: the newest release."""

    registry: Registry
    name: str
    version: str | None = None
    range: str | None = None

    @property
    def library_base(self) -> str:
        """The package's part of the library's name (`jinja2`, `types--node`)."""
        return package_base(self.registry, self.name)

    @property
    def wanted(self) -> str | None:
        """The version or range asked for, as a no-match line names it (`9`, `>=2,<3`)."""
        return self.version if self.version is not None else self.range

    def __str__(self) -> str:
        if self.version is not None:
            joiner = "==" if self.registry == "pypi" else "@"
            return f"{self.registry}:{self.name}{joiner}{self.version}"
        if self.range is None:
            return f"{self.registry}:{self.name}"
        direct = self.registry == "pypi" and self.range.startswith(PEP440_OPERATORS)
        return f"{self.registry}:{self.name}{'' if direct else '@'}{self.range}"


def normalise_pypi_name(name: str) -> str:
    """PEP 503: runs of `-`, `_`, `.` as one `-`, lower case."""
    return re.sub(r"[-_.]+", "-", name).lower()


def package_base(registry: Registry, name: str) -> str:
    if registry == "pypi":
        return normalise_pypi_name(name)
    return name.removeprefix("@").replace("/", "--")


def library_name_of(registry: Registry, name: str, version: str) -> str:
    """`NAME@VERSION`, the library a release is kept as."""
    return f"{package_base(registry, name)}@{version}"


def parse_spec(text: str) -> PackageSpec | GitSpec:
    """`pypi:requests==2.32.3`, `pypi:attrs`, `pypi:requests@2.32`, `pypi:jinja2>=3,<4`,
    `npm:lodash@4.17.21`, `npm:@types/node@^20`, `npm:react@next`, `NAME@latest`;
    `git+https://HOST/ORG/REPO@REF` (see `git_spec`). Raises ValueError with one line
    saying how to write it."""
    shown = text if len(text) <= 60 else text[:57] + "..."
    if len(text) > MAX_SPEC_CHARS:
        raise ValueError(f"{shown!r} is too long for a package")
    if is_git_spec(text):
        return _git_spec(text)
    registry, colon, rest = text.strip().partition(":")
    if not colon or registry not in REGISTRIES:
        raise ValueError(f"{shown!r}: give pypi:NAME[==VERSION] or npm:NAME[@VERSION]")
    try:
        return _pypi_spec(rest.strip()) if registry == "pypi" else _npm_spec(rest.strip())
    except ValueError as error:
        raise ValueError(f"{shown!r}: {error}") from None


def parse_site_spec(text: str) -> SiteSpec | None:
    """`https://HOST/PATH/` (or `http://` to a loopback host): a documentation website;
    None for a SPEC that is not an http(s) URL. Raises ValueError with one line."""
    shown = text if len(text) <= 60 else text[:57] + "..."
    try:
        return parse_site_url(text)
    except ValueError as error:
        raise ValueError(f"{shown!r}: a website's URL {error}") from None


def _git_spec(text: str) -> GitSpec:
    shown = without_credentials(text)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    try:
        return parse_git_spec(text)
    except ValueError as error:
        raise ValueError(f"{shown!r}: {error}") from None


def _pypi_spec(rest: str) -> PackageSpec:
    match = _PYPI_LEADING_NAME.match(rest)
    written = match.group(2).strip() if match else ""
    if match is None or (written and not written.startswith(("@", *PEP440_OPERATORS))):
        raise ValueError(f"not a PyPI package name: {_quoted(rest)} ({_PYPI_HINT})")
    name = match.group(1)
    if not written or written == "@latest":
        return PackageSpec("pypi", name)
    try:
        wanted = pypi_range(written)
    except ValueError:
        raise ValueError(
            f"not a PEP 440 version or range: {_quoted(written.lstrip('@ '))} ({_PYPI_HINT})"
        ) from None
    if wanted.exact is not None and VERSION_TEXT.match(wanted.exact):
        return PackageSpec("pypi", name, wanted.exact)
    shown = written[1:].strip() if written.startswith("@") else written
    return PackageSpec("pypi", name, None, shown)


def _npm_spec(rest: str) -> PackageSpec:
    at = rest.find("@", 1)
    name, written = (rest, "") if at < 0 else (rest[:at], rest[at + 1 :].strip())
    if not _NPM_NAME.match(name):
        raise ValueError(f"not an npm package name: {_quoted(name)} ({_NPM_HINT})")
    if at < 0 or written in ("", "latest"):
        return PackageSpec("npm", name)
    exact = parse_version(written)
    if exact is not None and VERSION_TEXT.match(written.lstrip("=v")):
        return PackageSpec("npm", name, written.lstrip("=v"))
    try:
        npm_range(written)
    except ValueError:
        # Not a range: a dist-tag (`next`, `beta`) if it can be one.
        if not _DIST_TAG.match(written):
            raise ValueError(
                f"not an npm version, range or dist-tag: {_quoted(written)} ({_NPM_HINT})"
            ) from None
    return PackageSpec("npm", name, None, written)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def json_object(value: object) -> dict[str, Any]:
    """`value` if it is a JSON object (a TOML table), else an empty one: registry
    metadata and project files are read leniently, a key of the wrong shape is absent."""
    return value if isinstance(value, dict) else {}
