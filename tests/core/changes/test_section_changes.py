"""The documentation of two versions compared section by section, on strings: a section
with the same title path and text is never reported; other text under the same title
path is changed; the same or reworded text under another title path or file is moved,
not removed and added; the rest is added or removed."""

from __future__ import annotations

from tests.core.changes.versions import passages_of
from tui_assistant.core.changes.diff import (
    MOVED_SIMILARITY,
    Change,
    documentation_changes,
    similarity,
)

INSTALL = """\
# Install

Run the installer from the download page and follow its three steps.

## From source

Clone the repository, then run make install as root on the build host.

## Upgrading

Stop the service before you upgrade it, then start it again once the new files are in place.
"""

CONFIG = """\
# Configuration

Settings are read from the environment and from a file named settings.toml.

## Timeouts

Every request gives up after thirty seconds unless the timeout setting says otherwise.
"""


def kinds(changes: list[Change]) -> list[tuple[str, str]]:
    return [(change.kind, change.title) for change in changes]


def test_the_same_documents_have_no_changes_whatever_their_lines() -> None:
    old = passages_of("shop@1.0", {"docs/install.md": INSTALL, "docs/config.md": CONFIG})
    # Wrapped differently and moved down the file: the same words, so nothing changed.
    rewrapped = INSTALL.replace("and follow its", "and\nfollow its")
    new = passages_of("shop@2.0", {"docs/install.md": "\n\n" + rewrapped, "docs/config.md": CONFIG})
    assert documentation_changes(old, new) == []


def test_other_text_under_the_same_title_path_is_changed_citing_both_versions() -> None:
    old = passages_of("shop@1.0", {"docs/config.md": CONFIG})
    new_text = CONFIG.replace("thirty seconds", "ten seconds")
    new = passages_of("shop@2.0", {"docs/config.md": new_text})
    [change] = documentation_changes(old, new)
    assert (change.kind, change.title) == ("changed", "Configuration › Timeouts")
    assert change.old is not None and change.new is not None
    assert (change.old.library, change.new.library) == ("shop@1.0", "shop@2.0")
    assert change.old.source_path == "shop@1.0/docs/config.md"
    assert "thirty" in change.old.text and "ten seconds" in change.new.text
    assert (change.new.line, change.new.end_line) == (5, 7)


def test_a_section_under_another_heading_or_in_another_file_is_moved() -> None:
    old = passages_of("shop@1.0", {"docs/install.md": INSTALL, "docs/config.md": CONFIG})
    # "Upgrading" now lives in its own file, under another title.
    upgrading = INSTALL.split("## Upgrading\n", 1)[1]
    new = passages_of(
        "shop@2.0",
        {
            "docs/install.md": INSTALL.split("## Upgrading", 1)[0],
            "docs/upgrade.md": "# Upgrade guide\n\n" + upgrading,
            "docs/config.md": CONFIG,
        },
    )
    [change] = documentation_changes(old, new)
    assert (change.kind, change.title) == ("moved", "Upgrade guide")
    assert change.old is not None and change.new is not None
    assert change.old.title == "Install › Upgrading"
    assert change.new.source_path == "shop@2.0/docs/upgrade.md"


def test_a_reworded_section_under_a_new_title_is_moved_not_removed_and_added() -> None:
    old = passages_of("shop@1.0", {"docs/config.md": CONFIG})
    reworded = CONFIG.replace("## Timeouts", "## Request timeouts").replace(
        "Every request gives up", "Each request gives up"
    )
    new = passages_of("shop@2.0", {"docs/config.md": reworded})
    [change] = documentation_changes(old, new)
    assert (change.kind, change.title) == ("moved", "Configuration › Request timeouts")
    assert change.old is not None and change.old.title == "Configuration › Timeouts"
    old_text, new_text = change.old.text, change.new.text if change.new else ""
    assert old_text != new_text and similarity(old_text, new_text) >= MOVED_SIMILARITY


def test_new_and_dropped_sections_are_added_and_removed() -> None:
    old = passages_of("shop@1.0", {"docs/install.md": INSTALL, "docs/config.md": CONFIG})
    without_source = INSTALL.replace(
        "## From source\n\nClone the repository, then run make install as root on the build host.\n",
        "",
    )
    proxies = "\n## Proxies\n\nRequests go through the proxy named in the PROXY variable.\n"
    new = passages_of(
        "shop@2.0", {"docs/install.md": without_source, "docs/config.md": CONFIG + proxies}
    )
    assert kinds(documentation_changes(old, new)) == [
        ("added", "Configuration › Proxies"),
        ("removed", "Install › From source"),
    ]
    [added, removed] = documentation_changes(old, new)
    assert added.old is None and added.new is not None
    assert removed.new is None and removed.old is not None
    assert removed.old.library == "shop@1.0"


def test_an_unrelated_section_that_replaces_another_is_not_a_move() -> None:
    old = passages_of("shop@1.0", {"docs/config.md": CONFIG})
    other = CONFIG.replace(
        "## Timeouts\n\nEvery request gives up after thirty seconds unless the timeout "
        "setting says otherwise.",
        "## Logging\n\nLog lines go to standard error in the JSON format, one per event.",
    )
    new = passages_of("shop@2.0", {"docs/config.md": other})
    assert kinds(documentation_changes(old, new)) == [
        ("added", "Configuration › Logging"),
        ("removed", "Configuration › Timeouts"),
    ]


def test_changes_are_listed_changed_then_moved_then_added_then_removed() -> None:
    old = passages_of("shop@1.0", {"docs/install.md": INSTALL, "docs/config.md": CONFIG})
    install = INSTALL.replace("three steps", "four steps").replace("## Upgrading", "## Updating")
    new = passages_of(
        "shop@2.0",
        {
            "docs/install.md": install,
            "docs/config.md": CONFIG.split("## Timeouts", 1)[0],
            "docs/faq.md": "# FAQ\n\nAsk on the forum when the docs say nothing.\n",
        },
    )
    assert [change.kind for change in documentation_changes(old, new)] == [
        "changed",
        "moved",
        "added",
        "removed",
    ]


def test_a_section_cut_into_several_passages_is_one_section() -> None:
    long_text = "\n\n".join(f"Paragraph {n} says something about backups." * 8 for n in range(30))
    old = passages_of("shop@1.0", {"docs/backup.md": "# Backups\n\n" + long_text + "\n"})
    assert len(old) > 1
    new = passages_of(
        "shop@2.0", {"docs/backup.md": "# Backups\n\n" + long_text + "\n\nOne more line.\n"}
    )
    [change] = documentation_changes(old, new)
    assert change.kind == "changed" and change.old is not None and change.new is not None
    # It cites the section from its first line to its last.
    assert change.old.line == 1 and change.old.end_line == old[-1].end_line


def test_the_changelog_is_left_out_of_the_documentation_changes() -> None:
    old = passages_of("shop@1.0", {"CHANGES.md": "# Changes\n\n## 1.0\n\nFirst release.\n"})
    new = passages_of(
        "shop@2.0",
        {"CHANGES.md": "# Changes\n\n## 2.0\n\nRefunds are faster.\n\n## 1.0\n\nFirst release.\n"},
    )
    assert documentation_changes(old, new) == []


def test_similarity_is_word_shingle_jaccard() -> None:
    assert similarity("one two three four", "one two three four") == 1.0
    assert similarity("one two three four", "five six seven eight") == 0.0
    # 2 shared shingles of 3 distinct in all.
    assert similarity("a b c d", "a b c d e") == 2 / 3


def test_text_moved_under_a_new_subheading_is_moved_and_its_old_place_changed() -> None:
    steps = (
        "Build the vault file with the build command, fetch the production key with the keys "
        "command, and set that key on your server before the next deploy."
    )
    old = passages_of(
        "env@1.0", {"README.md": f"# Env\n\nLoads settings.\n\n## Deploying\n\n{steps}\n"}
    )
    new_text = (
        "# Env\n\nLoads settings.\n\n## Deploying\n\nUse the new tool or the vault.\n\n"
        f"### Vault\n\n{steps}\n"
    )
    new = passages_of("env@2.0", {"README.md": new_text})
    assert kinds(documentation_changes(old, new)) == [
        ("changed", "Env › Deploying"),
        ("moved", "Env › Deploying › Vault"),
    ]
    moved = documentation_changes(old, new)[1]
    assert moved.old is not None and moved.old.title == "Env › Deploying"
