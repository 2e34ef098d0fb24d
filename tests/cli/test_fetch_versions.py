"""`fetch` with versions as people write them, against a fake index and registry on
loopback: ranges resolve to their newest release, which is shown and names the library;
what matches nothing, what is not a name, and what no registry has are one line each."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.fake_registry import FakeRegistry
from tui_assistant import cli


def shop(version: str) -> dict[str, str]:
    return {
        "README.md": f"# shop\n\nCarts and checkout, version {version}.\n",
        "docs/refunds.md": f"# Refunds\n\nRefunds in shop {version} go back to the card.\n",
    }


def leftpad(version: str) -> dict[str, str]:
    return {
        "README.md": f"# leftpad\n\nPads strings, version {version}.\n",
        "docs/api.md": "# API\n\nleftpad(str, len) pads.\n",
    }


@pytest.fixture
def registry(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeRegistry]:
    with FakeRegistry() as fake:
        monkeypatch.setenv("TUI_ASSISTANT_PYPI_INDEX_URL", fake.index_url)
        monkeypatch.setenv("TUI_ASSISTANT_NPM_REGISTRY", fake.npm_url)
        for version in ("1.9", "1.10", "2.0rc1", "2.1", "2.1.1", "3.0"):
            fake.add_sdist("shop", version, shop(version))
        fake.pypi["shop"][-2]["yanked"] = "a broken build"  # 2.1.1
        fake.pypi["shop"].append(
            {"filename": "shop-3.1-py3-none-any.whl", "url": "../../files/x.whl", "hashes": {}}
        )
        for version in ("1.2.0", "1.3.0", "1.3.5", "2.0.0-beta.1"):
            fake.add_npm("leftpad", version, leftpad(version), latest=version == "1.3.5")
        fake.npm["leftpad"]["dist-tags"]["next"] = "2.0.0-beta.1"  # type: ignore[index]
        yield fake


def fetch(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> list[dict[str, Any]]:
    assert cli.main(["fetch", "--json", *args]) == code
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_ranges_fetch_the_newest_release_in_them_and_name_the_library_after_it(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    results = fetch(
        capsys,
        "pypi:shop@1",
        "pypi:shop>=2,<3",
        "pypi:shop~=1.9",
        "npm:leftpad@^1.2",
        "npm:leftpad@~1.2",
        "npm:leftpad@>=1.3 <2",
    )
    assert [(r["spec"], r["version"], r["library"]) for r in results] == [
        ("pypi:shop@1", "1.10", "shop@1.10"),
        # 2.1.1 is yanked and 2.0rc1 a pre-release: neither unless pinned exactly.
        ("pypi:shop>=2,<3", "2.1", "shop@2.1"),
        ("pypi:shop~=1.9", "1.10", "shop@1.10"),
        ("npm:leftpad@^1.2", "1.3.5", "leftpad@1.3.5"),
        ("npm:leftpad@~1.2", "1.2.0", "leftpad@1.2.0"),
        ("npm:leftpad@>=1.3 <2", "1.3.5", "leftpad@1.3.5"),
    ]
    # Two ranges that meet at one release fetch it once, whichever comes first.
    statuses = [r["status"] for r in results]
    assert sorted(statuses[0:3:2]) == sorted(statuses[3:6:2]) == ["fetched", "present"]
    assert statuses[1] == statuses[4] == "fetched"
    assert cli.main(["fetch", "pypi:shop>=2,<3"]) == 0
    assert capsys.readouterr().out.startswith("present shop@2.1: ")


def test_an_exact_pin_reaches_a_yanked_or_pre_release_and_a_tag_its_version(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    results = fetch(
        capsys, "pypi:shop==2.1.1", "pypi:shop@2.0rc1", "npm:leftpad@next", "npm:leftpad@latest"
    )
    assert [(r["library"], r["status"]) for r in results] == [
        ("shop@2.1.1", "fetched"),
        ("shop@2.0rc1", "fetched"),
        ("leftpad@2.0.0-beta.1", "fetched"),
        ("leftpad@1.3.5", "fetched"),
    ]
    assert cli.main(["fetch", "pypi:shop"]) == 0
    assert capsys.readouterr().out.startswith("fetched shop@3.0: ")


def test_a_version_nothing_matches_is_one_line_alike_for_both_registries(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["fetch", "pypi:shop@9", "npm:leftpad@^9", "npm:leftpad@stable"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "failed pypi:shop@9: no release matches 9 (newest: 3.1, 3.0, 2.1)",
        "failed npm:leftpad@^9: no release matches ^9 (newest: 2.0.0-beta.1, 1.3.5, 1.3.0)",
        "failed npm:leftpad@stable: no release matches stable (newest: 2.0.0-beta.1, 1.3.5, 1.3.0)",
    ]
    [wheels_only] = fetch(capsys, "pypi:shop@3.1", code=1)
    assert (wheels_only["version"], wheels_only["status"]) == (None, "failed")
    assert wheels_only["detail"].startswith("shop 3.1 has no source archive on 127.0.0.1")


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        (
            "pypi:foo bar",
            """SPEC 'pypi:foo bar': not a PyPI package name: "foo bar" """
            """(write pypi:NAME, pypi:NAME==1.2.3 or pypi:'NAME>=1,<2')""",
        ),
        ("pypi:foo>=x", """not a PEP 440 version or range: ">=x" (write pypi:NAME,"""),
        ("npm:left pad", """not an npm package name: "left pad" (write npm:NAME,"""),
        ("npm:leftpad@>=>1", """not an npm version, range or dist-tag: ">=>1\""""),
    ],
)
def test_a_spec_that_is_not_a_name_or_range_says_how_to_write_one(
    spec: str, said: str, registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["fetch", spec]) == 2
    out, err = capsys.readouterr()
    assert said in err and len(err.strip().splitlines()) == 1 and out == ""
    assert registry.requests == []


def test_from_lists_what_no_registry_has_and_fetches_the_rest(
    registry: FakeRegistry, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    requirements = clean_env.parent / "requirements.txt"
    requirements.write_text("-e ./localpkg\nshop==1.9\nmine @ file:///src/mine\n")
    assert cli.main(["fetch", "--from", str(requirements)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "failed -e ./localpkg: not fetched: an editable install, not a release on an index",
        "failed mine @ file:///src/mine: not fetched: a direct reference to a URL or path,"
        " not a release on an index",
    ]
    assert lines[2].startswith("fetched shop@1.9: ")
    results = fetch(capsys, "--from", str(requirements))
    assert results[0] == {
        "spec": "-e ./localpkg",
        "library": None,
        "package": "-e ./localpkg",
        "version": None,
        "status": "failed",
        "documents": 0,
        "passages": 0,
        "detail": "not fetched: an editable install, not a release on an index",
        "origin": None,
        "fetched_at": None,
    }
    assert [r["status"] for r in results[1:]] == ["failed", "present"]


def test_a_pnpm_lock_is_fetched_at_its_locked_versions(
    registry: FakeRegistry, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = clean_env.parent / "pnpm-lock.yaml"
    lock.write_text(
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      leftpad:\n"
        "        specifier: ^1.2.0\n        version: 1.3.0\n"
    )
    [result] = fetch(capsys, "--from", str(lock))
    assert (result["library"], result["status"]) == ("leftpad@1.3.0", "fetched")


def passage_libraries(capsys: pytest.CaptureFixture[str], entry: str) -> set[str]:
    assert cli.main(["status", "--json", "--library", entry]) == 0
    return {library["name"] for library in json.loads(capsys.readouterr().out)["libraries"]}


def test_library_name_at_range_uses_the_newest_fetched_version_in_it(
    registry: FakeRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch(capsys, "pypi:shop==1.9", "pypi:shop==1.10", "pypi:shop==2.1", "npm:leftpad@1.2.0")
    fetch(capsys, "npm:leftpad@1.3.0")
    assert passage_libraries(capsys, "shop@1") == {"shop@1.10"}
    assert passage_libraries(capsys, "shop@>=1,<1.10") == {"shop@1.9"}
    assert passage_libraries(capsys, "shop@1.9") == {"shop@1.9"}
    assert passage_libraries(capsys, "shop") == {"shop@2.1"}
    assert passage_libraries(capsys, "leftpad@^1.2") == {"leftpad@1.3.0"}
    assert passage_libraries(capsys, "leftpad@~1.2") == {"leftpad@1.2.0"}
    assert cli.main(["ask", "--json", "--library", "shop@~=1.9", "where do refunds go?"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["outcome"] == "answered" and answer["source_path"].startswith("shop@1.10/")

    assert cli.main(["status", "--library", "shop@5"]) == 2
    err = capsys.readouterr().err
    assert "--library: no fetched version of shop matches 5 (fetched: 2.1, 1.10, 1.9)" in err
    assert len(err.strip().splitlines()) == 1
