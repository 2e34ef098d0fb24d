"""The reference-manual rows of the development-set builder: a GNU manual's Texinfo
source is typeset with what its release would add, its licence file says how, and a man
page set keeps only the commands its row names."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.devsets import build, texinfo
from scripts.devsets.manuals import GIT_COMMANDS, MAKE, MANUALS, SED
from tests.scripts.test_devsets_build import run, tree_files, write_deb, write_tar

TEXI = b"""\\input texinfo
@setfilename sed.info
@include version.texi
@include config.texi
@copying
This file documents version @value{VERSION} of
@value{SSED}, a stream editor.

Copyright @copyright{} 1998--2022 Free Software Foundation, Inc.

@quotation
Permission is granted to copy under the terms of the GNU Free Documentation License.
@end quotation
@end copying
@bye
"""
CONFIG = b"@set SSED GNU @command{sed}\n"


def sed_files() -> dict[str, bytes]:
    return {
        "doc/sed.texi": TEXI,
        "doc/config.texi": CONFIG,
        "doc/fdl.texi": b"@c the licence\n",
        "doc/sub/other.texi": b"",
        "README": b"GNU sed\n",
    }


def test_the_manual_is_typeset_with_the_version_file_a_release_would_make() -> None:
    tree = texinfo.texinfo_tree(SED, sed_files())
    assert sorted(tree) == ["config.texi", "fdl.texi", "sed.texi", "version.texi"]
    assert tree["version.texi"].decode() == (
        "@set UPDATED 6 November 2022\n@set UPDATED-MONTH November 2022\n"
        "@set EDITION 4.9\n@set VERSION 4.9\n"
    )


def test_a_file_the_repository_lacks_is_replaced_by_the_rows_stand_in() -> None:
    tree = texinfo.texinfo_tree(MAKE, {"doc/make.texi": b"\\input texinfo\n@bye\n"})
    assert tree["make-stds.texi"].startswith(b"@node Makefile Conventions\n")
    assert b"fdl-1.3" in tree["fdl.texi"]
    assert texinfo.command("html", "make.texi", "make.html", MAKE.makeinfo_options) == [
        "makeinfo",
        "--html",
        "--no-split",
        "--no-validate",
        "-o",
        "make.html",
        "make.texi",
    ]


def test_the_licence_gives_the_copying_notice_as_plain_text() -> None:
    notice = texinfo.copying_notice(SED, sed_files())
    assert notice.startswith("This file documents version 4.9 of\nGNU sed, a stream editor.")
    assert "Copyright (C) 1998--2022 Free Software Foundation" in notice
    assert "@" not in notice


def test_the_licence_names_the_commit_and_the_command(tmp_path: Path) -> None:
    text = texinfo.licence_text(
        SED, "pdf", "the repository at commit abc", "sed-pdf", sed_files(), "7.1"
    )
    first = text.split("\n\n", 1)[0]
    assert "doc/sed.texi of GNU sed 4.9, from the repository at commit abc" in first
    assert "`texi2pdf --batch --quiet --clean -o sed.pdf sed.texi` (Texinfo 7.1)" in first
    assert "`python -m scripts.devsets.build sed-pdf`" in first


def test_a_manual_without_texinfo_installed_is_one_line_naming_the_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tar(tmp_path / "sed-4.9.tar.gz", {f"sed-4.9/{k}": v for k, v in sed_files().items()})
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    assert run(tmp_path, "sed-html") == 1
    error = capsys.readouterr().err.strip()
    assert error == (
        f"error: {tmp_path / 'sed-4.9.tar.gz'}: makeinfo is not installed (Debian: texinfo)"
    )
    assert not (tmp_path / "eval" / "sed-html").exists()


def test_the_man_pages_kept_are_the_commands_the_row_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = "usr/share/doc/git-doc/"
    page = b"<html><h1>git-commit(1)</h1></html>"
    write_deb(
        # apt-get download writes the epoch's colon as %3a.
        tmp_path / "git-doc_1%3a2.39.5-0+deb12u3_all.deb",
        {
            doc + "git-commit.html": page,
            doc + "git-commit.txt": b"plain text",
            doc + "git-commit-tree.html": b"<html>plumbing</html>",
            doc + "howto/git-commit.html": b"<html>elsewhere</html>",
            doc + "copyright": b"Files: *\nLicense: GPL-2\n",
        },
    )
    assert run(tmp_path, "manpages-git") == 0
    assert "warning" not in capsys.readouterr().err
    assert tree_files(tmp_path / "eval" / "manpages-git") == {"git-commit.html": page}
    assert "commit" in GIT_COMMANDS and "commit-tree" not in GIT_COMMANDS
    licence = (tmp_path / "eval" / "manpages-git.LICENSE").read_text()
    assert licence.startswith("Extracted from the Debian package git-doc 1:2.39.5-0+deb12u3")


def test_the_listing_names_the_manuals_and_how_to_make_their_archives(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert build.main(["--list"]) == 0
    listing = capsys.readouterr().out
    for tree in MANUALS:
        assert f"{tree.name}: {tree.source.describe()}" in listing
    assert (
        "git -C CLONE_OF_mirror_sed archive --format=tar.gz --prefix=sed-4.9/ -o sed-4.9.tar.gz "
        "7e2e575a36bc88c0f3f3d6d8083c5f5b0ed44009 doc/sed.texi doc/config.texi doc/fdl.texi"
    ) in listing
