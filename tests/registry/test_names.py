"""Specs, library names and which fetched library a name means."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_assistant.core.checks.citations import check_citations
from tui_assistant.core.library.names import LIBRARY_NAME, parse_library_entry, split_id
from tui_assistant.registry.libraries import choose_library, newest, version_key
from tui_assistant.registry.specs import PackageSpec, library_name_of, parse_spec


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("pypi:requests==2.32.3", PackageSpec("pypi", "requests", "2.32.3")),
        ("pypi:Jinja2", PackageSpec("pypi", "Jinja2", None)),
        ("npm:lodash@4.17.21", PackageSpec("npm", "lodash", "4.17.21")),
        ("npm:@types/node", PackageSpec("npm", "@types/node", None)),
        ("npm:@types/node@22.9.0", PackageSpec("npm", "@types/node", "22.9.0")),
        ("npm:react@next", PackageSpec("npm", "react", None, "next")),
    ],
)
def test_specs(text: str, spec: PackageSpec) -> None:
    assert parse_spec(text) == spec
    assert str(spec) == text


@pytest.mark.parametrize(
    "text", ["requests", "pip:requests", "pypi:requests>=x", "pypi:../x", "npm:Bad Name", "pypi:"]
)
def test_a_bad_spec_is_one_line(text: str) -> None:
    with pytest.raises(ValueError, match=r"pypi:NAME|not a|exact version") as raised:
        parse_spec(text)
    assert "\n" not in str(raised.value)


def test_library_names_are_normalised_package_names_and_versions() -> None:
    assert library_name_of("pypi", "Jinja2", "3.1.4") == "jinja2@3.1.4"
    assert library_name_of("pypi", "typing_extensions", "4.12.2") == "typing-extensions@4.12.2"
    assert library_name_of("npm", "@types/node", "22.9.0") == "types--node@22.9.0"
    for name in ("jinja2@3.1.4", "types--node@22.9.0", "kitchen", "zope.interface@7.1+local"):
        assert LIBRARY_NAME.match(name)


def test_versions_are_ordered_as_releases() -> None:
    ordered = ["1.0.dev0", "1.0rc1", "1.0", "1.0.post1", "1.2", "1.10.0", "2.0.0-beta.1", "2.0.0"]
    assert sorted(reversed(ordered), key=version_key) == ordered
    assert (
        newest(["flask@2.3.3", "flask@3.1.3", "flask@3.1.10", "flasky@9.0"], "flask")
        == "flask@3.1.10"
    )


def test_a_bare_package_name_narrows_to_its_newest_version() -> None:
    names = ["flask@2.3.3", "flask@3.1.3", "docs"]
    assert choose_library("flask", names) == "flask@3.1.3"
    assert choose_library("flask@2.3.3", names) == "flask@2.3.3"
    assert choose_library("docs", names) == "docs"
    assert choose_library("nothing", names) == "nothing"


def test_a_fetched_name_works_in_ids_and_citations() -> None:
    passage_id = "flask@3.1.3:api#flask-run"
    assert split_id(passage_id) == ("flask@3.1.3", "api#flask-run")
    check = check_citations(f"Use run(). [source:{passage_id}]", [passage_id])
    assert check.accepted and check.cited_ids == (passage_id,)
    assert parse_library_entry("flask@3.1.3=docs").name == "flask@3.1.3"
    assert parse_library_entry("docs").folder == Path("docs")


def fetched(data_dir: Path, name: str, registry: str) -> None:
    from tui_assistant.registry.libraries import FetchedMetadata, library_dir, write_metadata

    folder = library_dir(data_dir, name)
    folder.mkdir(parents=True)
    package, _, version = name.partition("@")
    write_metadata(
        folder, FetchedMetadata(package, version, registry, "", "", "", "", documentation=True)
    )


def test_a_name_at_a_range_means_the_newest_fetched_version_in_it(tmp_path: Path) -> None:
    from tui_assistant.registry.libraries import resolve_fetched

    for name in ("shop@1.9", "shop@1.10", "shop@2.0rc1"):
        fetched(tmp_path, name, "pypi")
    for name in ("pad@1.2.0", "pad@1.9.1", "pad@2.0.0"):
        fetched(tmp_path, name, "npm")
    picked = {
        entry: getattr(resolve_fetched(entry, tmp_path), "name", None)
        for entry in ("shop@1", "shop@1.9", "shop@<1.10", "shop@>=2.0rc1", "pad@^1.2", "pad@1")
    }
    assert picked == {
        "shop@1": "shop@1.10",
        "shop@1.9": "shop@1.9",
        "shop@<1.10": "shop@1.9",
        "shop@>=2.0rc1": "shop@2.0rc1",
        "pad@^1.2": "pad@1.9.1",
        "pad@1": "pad@1.9.1",
    }
    assert resolve_fetched("other@1", tmp_path) is None  # no such package: maybe a folder
    with pytest.raises(ValueError, match=r"^no fetched version of pad matches \^3 \(fetched: 2"):
        resolve_fetched("pad@^3", tmp_path)
    with pytest.raises(ValueError, match=r"'>=>1' is not a version range \(fetched: 2.0rc1, 1"):
        resolve_fetched("shop@>=>1", tmp_path)
