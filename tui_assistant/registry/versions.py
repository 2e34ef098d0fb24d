"""Which release a version as people write it means, on PyPI (PEP 440) and npm (semver).

Pure: the text after a package's name and the versions a registry has in, one version
out. PyPI: `==1.2.3` (exact), `@1.2` (the newest `1.2.*`; `@1.2.3` is exact), `>=2,<3`,
`~=1.4` and any other PEP 440 specifier set. npm: `1.2.3`, `^5.1`, `~1.4`, `1.x`,
`>=2 <3`, `1 - 2`, `a || b` (see `versions_npm`). A pre-release is picked only when the
range names one, and on PyPI a yanked release only when pinned exactly. A version that
matches nothing is said the same way for both registries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from tui_assistant.registry.versions_npm import NpmRange, parse_range, parse_version

# How many of the newest versions a no-match line names.
SHOWN_VERSIONS = 3
# What may start a PEP 440 specifier written right after the name (`NAME>=2`).
PEP440_OPERATORS = ("==", "!=", "<", ">", "~=", "===")


@dataclass(frozen=True, slots=True)
class PypiRange:
    """A PEP 440 specifier set; `exact`: it pins one version (`==1.2.3`, `@1.2.3`), so
    a yanked release may be picked."""

    text: str
    specifier: SpecifierSet
    exact: str | None = None

    def newest(self, versions: Iterable[str], yanked: Iterable[str] = ()) -> str | None:
        """The newest of `versions` (as the index spells them) in the range; `yanked`
        ones only when the range pins exactly."""
        if self.exact is not None:
            wanted = _pep440(self.exact)
            for text in [*versions, *yanked]:
                if text == self.exact or (wanted is not None and _pep440(text) == wanted):
                    return text
            return None
        prereleases = bool(self.specifier.prereleases)
        best: tuple[Version, str] | None = None
        for text in versions:
            version = _pep440(text)
            if version is None or not self.specifier.contains(version, prereleases=prereleases):
                continue
            if best is None or best[0] < version:
                best = (version, text)
        return None if best is None else best[1]


def pypi_range(text: str) -> PypiRange:
    """The text after a PyPI name: `==1.2.3`, `===x`, `@1.2`, `@1.2.3`, `>=2,<3`,
    `~=1.4`. Raises ValueError (it is not a PEP 440 version or specifier set)."""
    text = text.strip()
    if text.startswith("@"):
        written = text[1:].strip()
        if written.startswith(PEP440_OPERATORS):
            return pypi_range(written)
        try:
            version = Version(written)
        except InvalidVersion:
            raise ValueError(written) from None
        if len(version.release) >= 3 or version.is_prerelease or version.is_postrelease:
            return PypiRange(written, SpecifierSet(f"=={written}"), exact=written)
        return PypiRange(written, SpecifierSet(f"=={version.public}.*"))
    try:
        specifier = SpecifierSet(text)
    except InvalidSpecifier:
        raise ValueError(text) from None
    if not text or len(specifier) == 0:
        raise ValueError(text)
    [only, *more] = list(specifier)
    if not more and only.operator in ("==", "===") and not only.version.endswith("*"):
        return PypiRange(text, specifier, exact=only.version)
    return PypiRange(text, specifier)


def npm_range(text: str) -> NpmRange:
    """The text after an npm name's `@`, a range. Raises ValueError."""
    return parse_range(text)


def _pep440(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


Registry = Literal["pypi", "npm"]


def newest_first(registry: Registry, versions: Iterable[str]) -> list[str]:
    """`versions` from the newest, by the registry's order; ones it cannot read last."""
    texts = list(versions)
    if registry == "pypi":
        pep440 = [(v, t) for t in texts if (v := _pep440(t)) is not None]
        ordered = [t for _, t in sorted(pep440, key=lambda pair: pair[0], reverse=True)]
    else:
        semver = [(s, t) for t in texts if (s := parse_version(t)) is not None]
        ordered = [t for _, t in sorted(semver, key=lambda pair: pair[0], reverse=True)]
    return ordered + sorted(set(texts) - set(ordered), reverse=True)


def newest_in(registry: Registry, written: str, versions: Iterable[str]) -> str | None:
    """The newest of `versions` that `written` (a range as the registry reads it, `@`
    form for PyPI too: `3`, `>=2,<3`, `^1.2`) allows. Raises ValueError for a range
    the registry cannot read."""
    if registry == "pypi":
        text = written if written.startswith(PEP440_OPERATORS) else "@" + written
        return pypi_range(text).newest(versions)
    return npm_range(written).newest(versions)


def no_match(wanted: str, versions: Iterable[str], registry: Registry) -> str:
    """`no release matches 9 (newest: 2.32.3, 2.32.2, 2.32.1)`: the one line for a
    version or range that nothing on the registry meets."""
    newest = newest_first(registry, versions)[:SHOWN_VERSIONS]
    known = f"newest: {', '.join(newest)}" if newest else "it has no releases"
    return f"no release matches {wanted} ({known})"
