"""`tui-assistant changes OLD NEW`: two fetched versions of one library compared, the
changelog's entries for the range first, then the documentation's changes, each citing
its passages in their version; a usage error (exit 2, one line) when the two are not
fetched versions of one library. And the fetched libraries' freshness: `status` gives
each one's origin, version and fetch date, and a question asked with two versions loaded
says which version each passage comes from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui_assistant import cli
from tui_assistant.registry.libraries import FetchedMetadata, library_dir, write_metadata

FETCHED_AT = "2026-03-01T09:30:00+00:00"
CHANGES_1 = """\
# Changes

## 1.0 (2025-01-10)

- First release: card refunds.
"""
CHANGES_2 = """\
# Changes

## 2.0 (2026-02-01)

- Refunds are paid back in one day.
- The `shop.legacy` module is gone.

## 1.1 (2025-06-01)

- Bank transfers.

""" + CHANGES_1.split("\n", 2)[2]
REFUNDS_1 = """\
# Refunds

Card refunds take five days to reach the customer's account.

## Limits

A refund can never be larger than the payment it returns, and it must be asked for within ninety days.
"""
INSTALL = """\
# Install

Install the package with pip and set SHOP_KEY before the first start.

## Legacy module

The shop.legacy module keeps the old checkout pages running for one more release.
"""
VERSIONS = {
    "1.0": {"CHANGES.md": CHANGES_1, "docs/refunds.md": REFUNDS_1, "docs/install.md": INSTALL},
    "2.0": {
        "CHANGES.md": CHANGES_2,
        # Changed: five days became one; Limits moved into its own page.
        "docs/refunds.md": REFUNDS_1.replace("five days", "one day").split("## Limits")[0],
        "docs/limits.md": "# Refund limits\n\n" + REFUNDS_1.split("## Limits\n\n")[1],
        # Removed: the legacy module; added: transfers.
        "docs/install.md": INSTALL.split("## Legacy")[0],
        "docs/transfers.md": "# Bank transfers\n\nTransfers are refunded to the same IBAN.\n",
    },
}
PASSAGE_KEYS = {
    "id", "title", "source_path", "line", "end_line", "library", "page", "end_page", "url"
}  # fmt: skip


def fetched(data_dir: Path, package: str, version: str, files: dict[str, str]) -> Path:
    """A library fetched into `data_dir`, as `fetch` leaves it."""
    folder = library_dir(data_dir, f"{package}@{version}")
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    archive = f"https://files.example/{package}-{version}.tar.gz"
    write_metadata(
        folder,
        FetchedMetadata(
            package,
            version,
            "pypi",
            "https://pypi.example/simple/",
            archive,
            "0" * 64,
            FETCHED_AT,
            True,
        ),
    )
    return folder


@pytest.fixture
def shop(clean_env: Path) -> Path:
    for version, files in VERSIONS.items():
        fetched(clean_env, "shop", version, files)
    fetched(clean_env, "ledger", "0.3", {"docs/index.md": "# Ledger\n\nBooks every refund.\n"})
    return clean_env


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def changes_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    status, out, err = run(capsys, "changes", "--json", *args)
    assert status == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_json_gives_the_changelog_entries_of_the_range_then_each_change_with_its_passages(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changes = changes_json(capsys, "shop@1.0", "shop@2.0")
    assert [(c["change"], c["title"]) for c in changes] == [
        ("changelog", "Changes › 2.0 (2026-02-01)"),
        ("changelog", "Changes › 1.1 (2025-06-01)"),
        ("changed", "Refunds"),
        ("moved", "Refund limits"),
        ("added", "Bank transfers"),
        ("removed", "Install › Legacy module"),
    ]
    for change in changes:
        assert set(change) == {"change", "title", "old", "new"}
        for side, version in (("old", "1.0"), ("new", "2.0")):
            passage = change[side]
            if passage is not None:
                assert isinstance(passage, dict) and set(passage) == PASSAGE_KEYS
                assert passage["library"] == f"shop@{version}"
                assert str(passage["source_path"]).startswith(f"shop@{version}/")
    entry, changed, moved = changes[0], changes[2], changes[3]
    assert entry["old"] is None
    assert entry["new"] == {
        "id": "changes",
        "title": "Changes › 2.0 (2026-02-01)",
        "source_path": "shop@2.0/CHANGES.md",
        "line": 3,
        "end_line": 6,
        "library": "shop@2.0",
        "page": None,
        "end_page": None,
        "url": None,
    }
    assert changed["old"]["id"] == changed["new"]["id"] == "docs/refunds"  # type: ignore[index]
    assert moved["old"]["title"] == "Refunds › Limits"  # type: ignore[index]
    assert moved["new"]["source_path"] == "shop@2.0/docs/limits.md"  # type: ignore[index]
    added, removed = changes[4], changes[5]
    assert added["old"] is None and removed["new"] is None


def test_readable_output_shows_the_entries_text_then_each_change_with_file_lines(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "changes", "shop@1.0", "shop@2.0")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "shop@1.0 -> shop@2.0: 2 changelog entries, 1 changed, 1 moved, 1 added, 1 removed"
    )
    assert "  Changes › 2.0 (2026-02-01)  shop@2.0/CHANGES.md:3–6" in lines
    assert "      - Refunds are paid back in one day." in lines
    assert "  Refunds  shop@1.0/docs/refunds.md:1–3 -> shop@2.0/docs/refunds.md:1–3" in lines
    assert "  Refund limits  shop@1.0/docs/refunds.md:5–7 -> shop@2.0/docs/limits.md:1–3" in lines
    assert "  Install › Legacy module  shop@1.0/docs/install.md:5–7" in lines
    # The changelog first, then changed, moved, added, removed.
    headings = [line.split(":")[0] for line in lines if line and not line.startswith(" ")][1:]
    assert headings == ["changelog", "changed (same title, other text)",
                        "moved (the same or reworded text under another title or file)",
                        "added", "removed"]  # fmt: skip


def test_ranges_and_a_bare_name_resolve_to_fetched_versions(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exact = changes_json(capsys, "shop@1.0", "shop@2.0")
    assert changes_json(capsys, "shop@1", "shop") == exact
    assert changes_json(capsys, "shop@<2", "shop@>=2") == exact


def test_newer_to_older_lists_no_changelog_entry_and_the_changes_reversed(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changes = changes_json(capsys, "shop@2.0", "shop@1.0")
    assert [c["change"] for c in changes] == ["changed", "moved", "added", "removed"]
    assert changes[2]["title"] == "Install › Legacy module"


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "shop@1.0",
            "ledger@0.3",
            "OLD and NEW: shop@1.0 and ledger@0.3 are not versions of one library",
        ),
        ("shop@1.0", "shop@1.0", "OLD and NEW: both are shop@1.0: name two versions"),
        ("shop@0.9", "shop@2.0", "OLD: no fetched version of shop matches 0.9 (fetched: 2.0, 1.0)"),
        ("shop@1.0", "shop@3", "NEW: no fetched version of shop matches 3 (fetched: 2.0, 1.0)"),
        ("flask@1.0", "flask@2.0", "OLD: flask@1.0: no version of flask is fetched"),
        ("./docs", "shop@2.0", "OLD: ./docs is not a fetched library's name (NAME@VERSION)"),
    ],
)
def test_two_things_that_are_not_fetched_versions_of_one_library_are_a_usage_error(
    shop: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, said: str
) -> None:
    status, out, err = run(capsys, "changes", old, new)
    assert status == 2 and out == ""
    assert err.startswith(f"tui-assistant: error: {said}")
    assert len(err.splitlines()) == 1


def test_without_both_versions_it_is_a_usage_error(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "changes", "shop@1.0")
    assert status == 2 and "NEW" in err and len(err.splitlines()) == 1


# -- freshness ------------------------------------------------------------------------


def test_status_gives_each_fetched_librarys_origin_version_and_fetch_date(
    shop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nSome notes.\n")
    libraries = ["--library", "shop@2.0", "--library", "shop@1.0", "--library", str(folder)]
    status, out, err = run(capsys, "status", "--json", *libraries)
    assert status == 0, err
    rows = json.loads(out)["libraries"]
    facts = [(r["name"], r["package"], r["version"], r["origin"], r["fetched_at"]) for r in rows]
    assert facts == [
        ("shop@2.0", "shop", "2.0", "pypi", FETCHED_AT),
        ("shop@1.0", "shop", "1.0", "pypi", FETCHED_AT),
        ("notes", None, None, None, None),
    ]
    status, out, _ = run(capsys, "status", *libraries)
    assert f"package: shop 2.0 (pypi, fetched {FETCHED_AT})" in out.splitlines()


def test_with_two_versions_loaded_each_passage_says_its_version(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    both = ["--library", "shop@1.0", "--library", "shop@2.0"]
    # Two versions of one passage: the library may be unsure which (exit 1), not what they say.
    status, out, err = run(capsys, "search", *both, "how long do card refunds take")
    assert status in (0, 1), err
    assert "[shop@2.0:docs/refunds]" in out and "shop@2.0/docs/refunds.md:1–3" in out
    assert "[shop@1.0:docs/refunds]" in out and "shop@1.0/docs/refunds.md:1–3" in out
    status, out, err = run(capsys, "search", "--json", *both, "how long do card refunds take")
    rows = [json.loads(line) for line in out.splitlines()][:-1]
    assert {row["library"] for row in rows} >= {"shop@1.0", "shop@2.0"}
    status, out, err = run(capsys, "ask", "--library", "shop@2.0", "refund limits ninety days")
    assert status == 0, err
    assert "source: shop@2.0/docs/limits.md:1–3" in out.splitlines()
