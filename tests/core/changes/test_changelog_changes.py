"""A package's changelog found in its documentation, and its entries for the versions
after the older one up to the newer one, whatever style its version headings are in."""

from __future__ import annotations

import pytest

from tests.core.changes.versions import passages_of
from tui_assistant.core.changes.changelog import (
    changelog_entries,
    heading_version,
    is_changelog,
)
from tui_assistant.core.changes.diff import version_changes
from tui_assistant.core.documents.passage import Passage
from tui_assistant.registry.libraries import version_key

MARKDOWN = """\
# Changelog

## [Unreleased]

- Nothing yet.

## [2.1.0] - 2024-06-01

### Added

- Refunds by bank transfer.

## v2.0.1 (2024-05-02)

- Fixed the rounding of refunds.

## Version 2.0.0

- Refunds are asynchronous.

## 1.9.0 (2024-01-10)

- Card payments.
"""

RST = """\
Release notes
=============

24.1 - 2024-06-10
-----------------

* Drop support for Python 3.7.

24.0 - 2024-03-10
-----------------

* Rewrite the markers parser.

23.2 - 2023-10-01
-----------------

* Document packaging.metadata.
"""

# A Markdown changelog underlining its headings, which split no passages.
UNDERLINED = """\
Release History
===============

dev
---

- \\[Short description of non-trivial change.\\]

2.32.3 (2024-05-29)
-------------------

**Bugfixes**
- Fixed custom SSLContexts in sub-classes of HTTPAdapter.

2.32.2 (2024-05-21)
-------------------

- Renamed `_get_connection` to `get_connection_with_tls_context`.

2.31.0 (2023-05-22)
-------------------

- Security fix for Proxy-Authorization headers.
"""


def titles(entries: list) -> list[str]:  # type: ignore[type-arg]
    return [entry.title for entry in entries]


@pytest.mark.parametrize(
    ("heading", "version"),
    [
        ("Changelog › 2.32.0 (2024-05-20)", "2.32.0"),
        ("Changelog › v2.32.0", "2.32.0"),
        ("Changelog › Version 2.32.0", "2.32.0"),
        ("Changelog › [2.32.0] - 2024-05-20", "2.32.0"),
        ("History › requests 2.32.0", "2.32.0"),
        ("Changes › 24.1rc1 - 2024-06-01", "24.1rc1"),
        ("Changes › 2.0.0 › Bugfixes", "2.0.0"),
        ("Changes › Unreleased", None),
        ("Changes › Support for the 3.12 series of the interpreter arrived late", None),
        ("Changes › 2024-05-20", None),
    ],
)
def test_a_version_heading_in_each_style_names_its_version(
    heading: str, version: str | None
) -> None:
    assert heading_version(heading) == version


@pytest.mark.parametrize(
    ("path", "title", "found"),
    [
        ("CHANGES.rst", "Changes", True),
        ("CHANGELOG.md", "", True),
        ("HISTORY.md", "", True),
        ("NEWS.txt", "", True),
        ("docs/changelog.rst", "", True),
        ("docs/changes/2.0.md", "Version 2.0", True),
        ("docs/whatsnew.md", "", True),
        ("docs/upgrading.md", "Release notes", True),
        ("docs/history.md", "", True),
        ("docs/guide.md", "Guide", False),
        ("src/shop/history.py", "shop.history", False),
    ],
)
def test_changelog_documents_are_found_by_name_folder_or_title(
    path: str, title: str, found: bool
) -> None:
    assert is_changelog(path, title) is found


def test_the_entries_of_the_range_are_after_old_up_to_new_in_any_heading_style() -> None:
    new = passages_of("shop@2.1.0", {"CHANGELOG.md": MARKDOWN})
    entries = changelog_entries(new, "1.9.0", "2.1.0", version_key)
    assert titles(entries) == [
        "Changelog › [2.1.0] - 2024-06-01 › Added",
        "Changelog › v2.0.1 (2024-05-02)",
        "Changelog › Version 2.0.0",
    ]
    assert [entry.version for entry in entries] == ["2.1.0", "2.0.1", "2.0.0"]
    assert entries[0].passage.source_path == "shop@2.1.0/CHANGELOG.md"
    assert "bank transfer" in entries[0].passage.text


def test_a_narrower_range_and_a_partial_version_are_ordered_as_versions() -> None:
    new = passages_of("shop@2.1.0", {"CHANGELOG.md": MARKDOWN})
    assert [e.version for e in changelog_entries(new, "2.0", "2.0.1", version_key)] == ["2.0.1"]
    assert changelog_entries(new, "2.1.0", "2.1.0", version_key) == []


def test_rst_section_titles_with_dates_are_entries() -> None:
    new = passages_of(
        "packaging@24.1", {"CHANGELOG.rst": RST, "docs/index.rst": "Docs\n====\n\nHi.\n"}
    )
    entries = changelog_entries(new, "23.2", "24.1", version_key)
    assert [entry.version for entry in entries] == ["24.1", "24.0"]
    assert "Python 3.7" in entries[0].passage.text


def test_underlined_markdown_headings_cut_one_passage_into_entries_with_their_lines() -> None:
    new = passages_of("requests@2.32.3", {"HISTORY.md": UNDERLINED})
    entries = changelog_entries(new, "2.31.0", "2.32.3", version_key)
    assert [entry.version for entry in entries] == ["2.32.3", "2.32.2"]
    first = entries[0]
    assert first.title == "HISTORY › 2.32.3 (2024-05-29)"
    lines = UNDERLINED.splitlines()
    assert lines[first.passage.line - 1] == "2.32.3 (2024-05-29)"
    assert lines[first.passage.end_line - 1].startswith("- Fixed custom SSLContexts")
    assert "2.32.2" not in first.passage.text


def test_a_changelog_included_in_the_docs_too_gives_each_entry_once() -> None:
    new = passages_of("shop@2.1.0", {"CHANGELOG.md": MARKDOWN, "docs/changelog.md": MARKDOWN})
    entries = changelog_entries(new, "2.0.1", "2.1.0", version_key)
    assert [entry.passage.source_path for entry in entries] == ["shop@2.1.0/CHANGELOG.md"]


def test_libraries_versioned_by_date_take_the_changelog_passages_that_are_new() -> None:
    before = "## 1.0\n\nFirst.\n\n## 0.9\n\nBeta.\n"
    old = passages_of("docs.example.com@2026-01-05", {"changelog.md": "# Changelog\n\n" + before})
    new = passages_of(
        "docs.example.com@2026-02-01",
        {"changelog.md": "# Changelog\n\n## 1.1\n\nSecond.\n\n" + before},
    )
    entries = changelog_entries(new, "2026-01-05", "2026-02-01", version_key, old)
    assert titles(entries) == ["Changelog › 1.1"]


def test_version_changes_lists_the_changelog_entries_first() -> None:
    old = passages_of("shop@1.9.0", {"CHANGELOG.md": MARKDOWN, "docs/a.md": "# A\n\nOld words.\n"})
    new = passages_of("shop@2.1.0", {"CHANGELOG.md": MARKDOWN, "docs/a.md": "# A\n\nNew words.\n"})
    changes = version_changes(old, new, "1.9.0", "2.1.0", version_key)
    assert [change.kind for change in changes] == ["changelog"] * 3 + ["changed"]
    assert all(change.old is None for change in changes[:3])


def test_an_entry_cut_across_two_passages_continues_in_the_second() -> None:
    first_text = (
        "Release History\n\n2.1.0 (2024-02-01)\n\n- Faster.\n\n2.0.0 (2024-01-01)\n\n- New API."
    )
    first = Passage("history", "HISTORY", first_text, "shop@2.1.0/HISTORY.md", 1, 10)
    rest = Passage("history-2", "HISTORY", "- More of 2.0.0.", "shop@2.1.0/HISTORY.md", 11, 11)
    entries = changelog_entries([first, rest], "1.0", "2.1.0", version_key)
    assert [(e.title, e.version, e.passage.line) for e in entries] == [
        ("HISTORY › 2.1.0 (2024-02-01)", "2.1.0", 3),
        ("HISTORY › 2.0.0 (2024-01-01)", "2.0.0", 7),
        ("HISTORY › 2.0.0 (continued)", "2.0.0", 11),
    ]
