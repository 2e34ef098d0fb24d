"""A fetched package's documentation folder keeps the files of every format whose record
says so (in any case, as archives name them), and only those."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.fake_registry import Member, tar_of
from tui_assistant.core.documents.formats import FORMATS
from tui_assistant.registry.archive import Limits, keep_path, unpack

NAMES = {
    name: format.kept_in_archives
    for format in FORMATS
    for suffix in format.suffixes
    for name in (f"docs/guide{suffix}", f"docs/GUIDE{suffix.upper()}")
}


def test_the_documentation_folder_keeps_every_format_the_records_keep(tmp_path: Path) -> None:
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(tar_of([Member(f"pkg-1.0/{name}", b"text\n") for name in NAMES]))
    target = tmp_path / "library"
    target.mkdir()

    kept = set(unpack(archive, archive.name, target, False, Limits()).files)

    assert kept == {name for name, kept_in_archives in NAMES.items() if kept_in_archives}
    for name, kept_in_archives in NAMES.items():
        assert keep_path(name, python=False) is kept_in_archives, name
