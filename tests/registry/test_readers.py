"""Archives read in a worker process are read as in the caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.fake_registry import Member, tar_of
from tui_assistant.errors import ArchiveError
from tui_assistant.registry.archive import Limits
from tui_assistant.registry.readers import Readers, read_archive

SOURCE = b'"""Shop."""\n\n\ndef checkout(cart):\n    """Charge the cart."""\n'
MEMBERS = [
    Member("shop-1.0/README.md", b"# shop\n\nCarts.\n"),
    Member("shop-1.0/docs/guide.rst", b"Guide\n=====\n\nHow to shop.\n"),
    Member("shop-1.0/src/shop/__init__.py", SOURCE),
    Member("shop-1.0/tests/test_shop.py", b'"""Tests."""\n'),
]


def kept(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_worker_keeps_the_same_files_as_the_caller(tmp_path: Path) -> None:
    archive = tmp_path / "shop-1.0.tar.gz"
    archive.write_bytes(tar_of(MEMBERS))
    results = {}
    for workers in (1, 2):
        target = tmp_path / f"kept-{workers}"
        target.mkdir()
        pool = Readers(workers)
        try:
            read = pool.run(read_archive, archive, archive.name, target, "pypi", "1.0", Limits())
        finally:
            pool.close()
        results[workers] = (read, kept(target))
    assert results[1] == results[2]
    read, files = results[2]
    assert read.unpacked.documentation and read.hint is None
    assert sorted(files) == ["README.md", "docs/guide.rst", "src/shop/__init__.py"]


def test_a_refused_archive_is_refused_from_a_worker_with_its_line(tmp_path: Path) -> None:
    archive = tmp_path / "shop-1.0.tar.gz"
    archive.write_bytes(tar_of([*MEMBERS, Member("/etc/evil.md", b"x")]))
    pool = Readers(2)
    try:
        with pytest.raises(ArchiveError, match="absolute path"):
            pool.run(read_archive, archive, archive.name, tmp_path, "pypi", "1.0", Limits())
    finally:
        pool.close()
