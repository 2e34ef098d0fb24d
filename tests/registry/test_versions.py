"""Which release a version as people write it means: PEP 440 on PyPI, npm's ranges on npm."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_assistant.registry.versions import newest_first, newest_in, no_match, pypi_range
from tui_assistant.registry.versions_npm import SemVer, parse_range, parse_version

PYPI = ["1.0", "1.2.0", "1.2.5", "1.2.10", "1.3.0", "1.4.2", "1.9", "2.0rc1", "2.0", "2.5.1"]
PYPI += ["3.0b1", "2.5.1.post1"]


@pytest.mark.parametrize(
    ("written", "picked"),
    [
        ("@1.2", "1.2.10"),  # newest 1.2.x, numbers as numbers
        ("@1", "1.9"),
        ("@2.5.1", "2.5.1"),  # three parts: exactly that
        ("==1.2.5", "1.2.5"),
        ("==1.2.0", "1.2.0"),
        (">=2,<3", "2.5.1.post1"),
        ("~=1.4", "1.9"),
        ("~=1.2.0", "1.2.10"),
        ("<2", "1.9"),  # 2.0rc1 is a pre-release: not unless named
        (">=2.0rc1,<2.1", "2.0"),
        ("==2.0rc1", "2.0rc1"),
        (">2.5", "2.5.1.post1"),  # 3.0b1 only when a range names a pre-release
        (">=3.0b1", "3.0b1"),
        ("!=2.5.1.post1,>=2.5", "2.5.1"),
        ("==1.*", "1.9"),
        ("@9", None),
    ],
)
def test_pep440_ranges_pick_the_newest_release_in_them(written: str, picked: str | None) -> None:
    assert pypi_range(written).newest(PYPI) == picked


def test_a_yanked_release_is_picked_only_when_pinned_exactly() -> None:
    assert pypi_range(">=1").newest(["1.0"], yanked=["1.1"]) == "1.0"
    assert pypi_range("==1.1").newest(["1.0"], yanked=["1.1"]) == "1.1"
    assert pypi_range("@1.1.0").newest(["1.0"], yanked=["1.1.0"]) == "1.1.0"
    assert pypi_range("==1.1.0").newest(["1.0", "1.1"]) == "1.1"  # 1.1 is 1.1.0


@pytest.mark.parametrize("written", ["@", "@x.y", ">=abc", "==", "latest", "@1.2 beta"])
def test_what_is_not_pep440_is_refused(written: str) -> None:
    with pytest.raises(ValueError):
        pypi_range(written)


NPM = ["0.0.3", "0.0.4", "0.2.3", "0.2.9", "0.3.0", "1.2.3", "1.2.9", "1.3.0-beta.1", "1.3.0"]
NPM += ["1.4.0", "1.4.7", "1.10.0", "2.0.0-rc.1", "2.0.0", "2.3.4", "2.4.0", "3.0.0"]


@pytest.mark.parametrize(
    ("written", "picked"),
    [
        ("^1.2.3", "1.10.0"),
        ("^0.2.3", "0.2.9"),  # below 1.0 the minor is the breaking part
        ("^0.0.3", "0.0.3"),
        ("^1.2.x", "1.10.0"),
        ("^0.x", "0.3.0"),
        ("~1.4", "1.4.7"),
        ("~1.2.3", "1.2.9"),
        ("~1", "1.10.0"),
        ("~>1.4.0", "1.4.7"),
        ("~1.x.3", "1.10.0"),  # as npm reads it: `~1.x`
        ("1.x", "1.10.0"),
        ("1.2.*", "1.2.9"),
        ("1.3", "1.3.0"),  # the pre-release of 1.3.0 only when named
        ("*", "3.0.0"),
        ("", "3.0.0"),
        ("x", "3.0.0"),
        (">=2 <3", "2.4.0"),
        (">= 2 < 3", "2.4.0"),
        (">1.4", "3.0.0"),
        (">1 <=2.3", "2.3.4"),  # `<=2.3` is `<2.4.0-0`
        ("<1.4", "1.3.0"),
        ("<=1", "1.10.0"),
        ("1.2.3 - 1.4", "1.4.7"),
        ("1.2 - 2.3.4", "2.3.4"),
        ("1 - 2", "2.4.0"),
        ("^1.3.0-beta.1", "1.10.0"),
        (">=1.3.0-beta.1 <1.3.0", "1.3.0-beta.1"),
        ("<2.0.0-rc.2 >1.10.0", "2.0.0-rc.1"),
        ("^0.2.3 || ^1.4", "1.10.0"),
        ("0.0.x || 3", "3.0.0"),
        ("=1.2.3", "1.2.3"),
        ("v2.0.0", "2.0.0"),
        (">*", None),
        ("^4", None),
    ],
)
def test_npm_ranges_pick_the_newest_release_in_them(written: str, picked: str | None) -> None:
    assert parse_range(written).newest(NPM) == picked


@pytest.mark.parametrize(
    "written", ["next", "^a.b", "1.2.3.4", ">=>1", "~~1", "1 - ", "0x10", "x.3", ">=1.x.3"]
)
def test_what_is_not_an_npm_range_is_refused(written: str) -> None:
    with pytest.raises(ValueError):
        parse_range(written)


def test_semver_order_puts_a_release_after_its_pre_releases() -> None:
    ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta"]
    ordered += ["1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.10.0"]
    parsed = [parse_version(text) for text in ordered]
    assert all(version is not None for version in parsed)
    assert sorted(reversed(parsed)) == parsed  # type: ignore[type-var]
    assert parse_version("1.2") is None and parse_version("01.2.3") is None


versions = st.builds(
    SemVer,
    st.integers(0, 4),
    st.integers(0, 12),
    st.integers(0, 12),
    st.one_of(st.just(()), st.tuples(st.sampled_from(["alpha", "beta", "rc"]), st.integers(0, 3))),
)
# `1`, `1.2.x`, `*`: numbers first, then open parts, as npm writes an x-range.
partial = st.builds(
    lambda numbers, opened: ".".join([*map(str, numbers), *opened][:3]) or "*",
    st.lists(st.integers(0, 12), max_size=3),
    st.lists(st.sampled_from(["x", "*"]), max_size=2),
)
ranges = st.one_of(
    st.builds(
        lambda op, p: op + p, st.sampled_from(["^", "~", "", ">=", "<", ">", "<=", "="]), partial
    ),
    st.builds(lambda a, b: f"{a} - {b}", partial, partial),
    st.builds(lambda a, b: f">={a} <{b}", partial, partial),
)


@given(ranges, st.lists(versions, min_size=1, max_size=25))
def test_the_picked_npm_version_is_in_the_range_and_no_newer_one_is(
    written: str, candidates: list[SemVer]
) -> None:
    wanted = parse_range(written)
    texts = [str(version) for version in candidates]
    picked = wanted.newest(texts)
    inside = [version for version in candidates if wanted.satisfies(version)]
    if picked is None:
        assert inside == []
    else:
        version = parse_version(picked)
        assert version is not None and wanted.satisfies(version)
        assert version == max(inside)
        # npm's rule: a pre-release only when the range names one of that release.
        assert not version.pre or "-" in written


pep440 = st.builds(
    lambda release, pre: ".".join(map(str, release)) + pre,
    st.lists(st.integers(0, 12), min_size=1, max_size=3),
    st.sampled_from(["", "", "", "rc1", "b2", ".post1", ".dev0"]),
)


@given(
    st.sampled_from(["@1", "@1.2", ">=1,<2", "~=1.2", ">=0.5", "<3", "!=1.2,>=1", "==2.*"]),
    st.lists(pep440, min_size=1, max_size=25),
)
def test_the_picked_pypi_version_is_in_the_range_and_no_newer_one_is(
    written: str, candidates: list[str]
) -> None:
    from packaging.version import Version

    wanted = pypi_range(written)
    picked = wanted.newest(candidates)
    finals = [v for v in candidates if not Version(v).is_prerelease]
    inside = [v for v in finals if wanted.specifier.contains(v, prereleases=False)]
    if picked is None:
        assert inside == []
    else:
        assert not Version(picked).is_prerelease  # none of these ranges names one
        assert Version(picked) == max(Version(v) for v in inside)


def test_a_version_nothing_matches_is_one_line_alike_for_both_registries() -> None:
    assert (
        no_match("9", ["2.32.1", "2.32.3", "2.9.0", "2.32.2"], "pypi")
        == "no release matches 9 (newest: 2.32.3, 2.32.2, 2.32.1)"
    )
    assert (
        no_match("^9", ["4.17.21", "4.17.9", "3.0.0", "4.17.20"], "npm")
        == "no release matches ^9 (newest: 4.17.21, 4.17.20, 4.17.9)"
    )
    assert no_match("1", [], "npm") == "no release matches 1 (it has no releases)"


def test_fetched_versions_resolve_by_each_registrys_rules() -> None:
    assert newest_in("pypi", "1", ["1.9", "1.10", "2.0"]) == "1.10"
    assert newest_in("pypi", ">=1,<1.10", ["1.9", "1.10", "2.0"]) == "1.9"
    assert newest_in("npm", "^1.2", ["1.2.0", "1.9.1", "2.0.0"]) == "1.9.1"
    assert newest_in("npm", "1.2.0", ["1.2.0", "1.9.1"]) == "1.2.0"
    assert newest_first("pypi", ["1.9", "1.10", "weird", "2.0rc1"]) == [
        "2.0rc1",
        "1.10",
        "1.9",
        "weird",
    ]
