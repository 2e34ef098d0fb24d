"""npm's version ranges, as `npm install NAME@RANGE` reads them (node-semver's rules).

Pure. A version is semver (`1.2.3`, `1.2.3-beta.1`, `v1.2.3`, build metadata ignored).
A range is one or more sets joined by `||`; a set is comparators joined by spaces
(`>=1.2.7 <1.3.0`), a hyphen range (`1.2 - 2.3.4`), or sugar over them: `^1.2.3`,
`~1.2.3`, `1.x`, `1.2.*`, `*`, `1.2` (a partial version is the range it leaves open).
A pre-release satisfies a range only when one of the set's comparators names a
pre-release of the same `major.minor.patch`, so `^1.2.0` never picks `1.3.0-beta.1`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

_VERSION = re.compile(
    r"^[=v\s]*(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$"
)
_X = r"x|X|\*|0|[1-9]\d*"
_PARTIAL = re.compile(
    rf"^v?({_X})(?:\.({_X})(?:\.({_X})"
    r"(?:-?([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?)?)?$"
)
_OPEN = ("x", "X", "*")
_SIMPLE = re.compile(r"^(~>?|\^|<=|>=|<|>|=)?(.*)$")
# A number too long to be a release part: refused rather than compared.
_MAX_DIGITS = 16


@total_ordering
@dataclass(frozen=True, slots=True)
class SemVer:
    major: int
    minor: int
    patch: int
    pre: tuple[int | str, ...] = ()

    @property
    def release(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def _key(self) -> tuple[tuple[int, int, int], int, tuple[tuple[int, int | str], ...]]:
        # A release sorts after its pre-releases; numeric identifiers before words.
        pre = tuple((0, p) if isinstance(p, int) else (1, p) for p in self.pre)
        return (self.release, 0 if self.pre else 1, pre)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, SemVer):
            return NotImplemented
        return self._key() < other._key()

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        return text + ("-" + ".".join(str(p) for p in self.pre) if self.pre else "")


def parse_version(text: str) -> SemVer | None:
    """`text` as a semver version; None when it is not one."""
    match = _VERSION.match(text.strip())
    if match is None or any(len(part) > _MAX_DIGITS for part in match.groups()[:3]):
        return None
    major, minor, patch = (int(part) for part in match.groups()[:3])
    return SemVer(major, minor, patch, _pre(match.group(4)))


def _pre(text: str | None) -> tuple[int | str, ...]:
    if not text:
        return ()
    return tuple(int(p) if p.isdigit() and len(p) <= _MAX_DIGITS else p for p in text.split("."))


Comparator = tuple[str, SemVer]
_ZERO = SemVer(0, 0, 0)
# `<X.Y.Z-0`: below every pre-release of X.Y.Z, as node-semver writes upper bounds.
_NOTHING: tuple[Comparator, ...] = (("<", SemVer(0, 0, 0, (0,))),)


def _bound(major: int, minor: int, patch: int) -> SemVer:
    return SemVer(major, minor, patch, (0,))


@dataclass(frozen=True, slots=True)
class NpmRange:
    """A range as sets of comparators: a version satisfies it when it satisfies every
    comparator of one set."""

    text: str
    sets: tuple[tuple[Comparator, ...], ...]

    def satisfies(self, version: SemVer) -> bool:
        return any(_satisfies_set(comparators, version) for comparators in self.sets)

    def newest(self, versions: Iterable[str]) -> str | None:
        """The newest of `versions` (as the registry spells them) in the range."""
        best: tuple[SemVer, str] | None = None
        for text in versions:
            version = parse_version(text)
            fits = version is not None and self.satisfies(version)
            if fits and version is not None and (best is None or best[0] < version):
                best = (version, text)
        return None if best is None else best[1]


def _satisfies_set(comparators: tuple[Comparator, ...], version: SemVer) -> bool:
    if not all(_holds(op, version, bound) for op, bound in comparators):
        return False
    if not version.pre:
        return True
    return any(bound.pre and bound.release == version.release for _, bound in comparators)


def _holds(op: str, version: SemVer, bound: SemVer) -> bool:
    if op == "<":
        return version < bound
    if op == "<=":
        return version <= bound
    if op == ">":
        return version > bound
    if op == ">=":
        return version >= bound
    return version == bound


def parse_range(text: str) -> NpmRange:
    """`text` as an npm range. Raises ValueError (the text is not one)."""
    cleaned = re.sub(r"(~>?|\^|<=|>=|<|>|=)\s+", r"\1", " ".join(text.split()))
    sets = tuple(_set(part.strip()) for part in cleaned.split("||"))
    return NpmRange(text.strip(), sets)


def _set(text: str) -> tuple[Comparator, ...]:
    hyphen = re.fullmatch(r"(\S+) - (\S+)", text)
    if hyphen:
        return _hyphen(hyphen.group(1), hyphen.group(2))
    comparators: list[Comparator] = []
    for word in text.split(" ") if text else ["*"]:
        comparators += _simple(word)
    return tuple(comparators)


def _partial(
    text: str, strict: bool = False
) -> tuple[int | None, int | None, int | None, tuple[int | str, ...]]:
    """`1.2.x` as (1, 2, None, ()); None for each part left open."""
    match = _PARTIAL.match(text)
    if match is None:
        raise ValueError(text)
    parts: list[int | None] = []
    for part in match.groups()[:3]:
        if part is None or part in _OPEN:
            parts.append(None)
        elif len(part) > _MAX_DIGITS:
            raise ValueError(text)
        else:
            parts.append(int(part))
    major, minor, patch = parts
    written = [part for part in match.groups()[:3] if part is not None]
    opened = [a in _OPEN and b not in _OPEN for a, b in itertools.pairwise(written)]
    if strict and any(opened):
        raise ValueError(text)  # npm refuses `1.x.3` as an x-range, but reads `~1.x.3`
    # Once a part is open, the rest are: `~1.x.3` is `~1.x`.
    if major is None:
        minor = patch = None
    if minor is None:
        patch = None
    pre = _pre(match.group(4)) if patch is not None else ()
    return major, minor, patch, pre


def _simple(word: str) -> list[Comparator]:
    match = _SIMPLE.match(word)
    assert match is not None  # the pattern matches any text
    op, rest = match.group(1) or "", match.group(2)
    major, minor, patch, pre = _partial(rest, strict=not op.startswith(("~", "^")))
    if op.startswith("~"):
        return _tilde(major, minor, patch, pre)
    if op == "^":
        return _caret(major, minor, patch, pre)
    return _x_range(op, major, minor, patch, pre)


def _tilde(
    major: int | None, minor: int | None, patch: int | None, pre: tuple[int | str, ...]
) -> list[Comparator]:
    if major is None:
        return [(">=", _ZERO)]
    if minor is None:
        return [(">=", SemVer(major, 0, 0)), ("<", _bound(major + 1, 0, 0))]
    low = SemVer(major, minor, patch or 0, pre)
    return [(">=", low), ("<", _bound(major, minor + 1, 0))]


def _caret(
    major: int | None, minor: int | None, patch: int | None, pre: tuple[int | str, ...]
) -> list[Comparator]:
    if major is None:
        return [(">=", _ZERO)]
    if minor is None:
        return [(">=", SemVer(major, 0, 0)), ("<", _bound(major + 1, 0, 0))]
    low = SemVer(major, minor, patch or 0, pre)
    if major > 0:
        high = _bound(major + 1, 0, 0)
    elif minor > 0 or patch is None:
        high = _bound(0, minor + 1, 0)
    else:
        high = _bound(0, 0, patch + 1)
    return [(">=", low), ("<", high)]


def _x_range(
    op: str, major: int | None, minor: int | None, patch: int | None, pre: tuple[int | str, ...]
) -> list[Comparator]:
    if patch is not None:
        return [(op or "=", SemVer(major or 0, minor or 0, patch, pre))]
    if major is None:
        # `*`, `>=*`, `<=*`: anything; `<*`, `>*`: nothing.
        return list(_NOTHING) if op in ("<", ">") else [(">=", _ZERO)]
    if op in ("", "="):
        if minor is None:
            return [(">=", SemVer(major, 0, 0)), ("<", _bound(major + 1, 0, 0))]
        return [(">=", SemVer(major, minor, 0)), ("<", _bound(major, minor + 1, 0))]
    nxt = SemVer(major + 1, 0, 0) if minor is None else SemVer(major, minor + 1, 0)
    low = SemVer(major, minor or 0, 0)
    if op == ">":
        return [(">=", nxt)]
    if op == ">=":
        return [(">=", low)]
    if op == "<":
        return [("<", SemVer(low.major, low.minor, 0, (0,)))]
    return [("<", SemVer(nxt.major, nxt.minor, 0, (0,)))]  # `<=`


def _hyphen(low_text: str, high_text: str) -> tuple[Comparator, ...]:
    major, minor, patch, pre = _partial(low_text)
    low: list[Comparator] = []
    if major is not None:
        low = [(">=", SemVer(major, minor or 0, patch or 0, pre if patch is not None else ()))]
    major, minor, patch, pre = _partial(high_text)
    high: list[Comparator] = []
    if major is not None:
        if minor is None:
            high = [("<", _bound(major + 1, 0, 0))]
        elif patch is None:
            high = [("<", _bound(major, minor + 1, 0))]
        else:
            high = [("<=", SemVer(major, minor, patch, pre))]
    return tuple(low + high) or ((">=", _ZERO),)
