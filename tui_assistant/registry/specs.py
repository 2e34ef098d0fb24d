"""What to fetch: `pypi:NAME[==VERSION]` and `npm:NAME[@VERSION]`, as a `PackageSpec`.

Pure: strings in, specs out. A package's library is named `NAME@VERSION` after its
normalised name: PyPI's (PEP 503: `Jinja2` is `jinja2`, `typing_extensions` is
`typing-extensions`) or npm's (a scoped `@types/node` is `types--node`). Also
`json_object`, how the registry's metadata readers and the lock-file reader take a value
that should be a JSON object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Registry = Literal["pypi", "npm"]
REGISTRIES: tuple[Registry, ...] = ("pypi", "npm")

# PEP 508 names; npm's (lower case, may be scoped).
_PYPI_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_NPM_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
# What a version may be in a library's name (the contract's `NAME@VERSION`).
VERSION_TEXT = re.compile(r"^[A-Za-z0-9.+_-]+$")
MAX_SPEC_CHARS = 300


@dataclass(frozen=True, slots=True)
class PackageSpec:
    """One package to fetch: its registry, its name as the registry spells it, and a
    version (an npm dist-tag such as `next` too); None: the newest release."""

    registry: Registry
    name: str
    version: str | None = None

    @property
    def library_base(self) -> str:
        """The package's part of the library's name (`jinja2`, `types--node`)."""
        return package_base(self.registry, self.name)

    def __str__(self) -> str:
        if self.version is None:
            return f"{self.registry}:{self.name}"
        joiner = "==" if self.registry == "pypi" else "@"
        return f"{self.registry}:{self.name}{joiner}{self.version}"


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


def parse_spec(text: str) -> PackageSpec:
    """`pypi:requests==2.32.3`, `pypi:attrs`, `npm:lodash@4.17.21`, `npm:@types/node`.
    Raises ValueError with one line."""
    shown = text if len(text) <= 60 else text[:57] + "..."
    if len(text) > MAX_SPEC_CHARS:
        raise ValueError(f"{shown!r} is too long for a package")
    registry, colon, rest = text.strip().partition(":")
    if not colon or registry not in REGISTRIES:
        raise ValueError(f"{shown!r}: give pypi:NAME[==VERSION] or npm:NAME[@VERSION]")
    if registry == "pypi":
        name, equals, version = rest.partition("==")
        name, version = name.strip(), version.strip()
        if not _PYPI_NAME.match(name):
            raise ValueError(f"{shown!r}: {name!r} is not a PyPI package name")
        if equals and not VERSION_TEXT.match(version):
            raise ValueError(f"{shown!r}: give an exact version after ==")
        return PackageSpec("pypi", name, version if equals else None)
    at = rest.find("@", 1)
    name, version = (rest, "") if at < 0 else (rest[:at], rest[at + 1 :])
    if not _NPM_NAME.match(name):
        raise ValueError(f"{shown!r}: {name!r} is not an npm package name")
    if at >= 0 and not VERSION_TEXT.match(version):
        raise ValueError(f"{shown!r}: give an exact version or a dist-tag after @")
    return PackageSpec("npm", name, version if at >= 0 else None)


def json_object(value: object) -> dict[str, Any]:
    """`value` if it is a JSON object (a TOML table), else an empty one: registry
    metadata and project files are read leniently, a key of the wrong shape is absent."""
    return value if isinstance(value, dict) else {}
