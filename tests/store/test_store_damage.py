"""A damaged, foreign or outdated index store is rebuilt with a one-line warning, never
trusted."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.store_files import (
    EXPECTED,
    closed,
    contents,
    contents_once,
    open_,
    store_file,
    write,
)
from tui_assistant.store.index_store import SCHEMA_VERSION

# -- damaged stores are rebuilt -----------------------------------------------------


def random_bytes(data: bytes) -> bytes:
    return random.Random(7).randbytes(len(data))


def truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def header_only(data: bytes) -> bytes:
    return data[:100]


def one_damaged_page(data: bytes) -> bytes:
    # Page 2 onwards hold the tables; scramble one page in the middle of them.
    page = 4096
    middle = (len(data) // page) // 2 * page
    return data[:middle] + random.Random(3).randbytes(page) + data[middle + page :]


@pytest.fixture
def big_folder(tmp_path: Path) -> Path:
    """Enough documents that the store spans many pages."""
    library = tmp_path / "big"
    for n in range(40):
        write(library, f"doc{n:02d}.md", f"# Document {n}\n\n" + f"topic{n} words here. " * 200)
    return library


@pytest.mark.parametrize(
    "damage", [random_bytes, truncated, header_only, one_damaged_page], ids=lambda f: f.__name__
)
def test_a_damaged_store_is_rebuilt_with_a_one_line_warning(
    big_folder: Path,
    data_dir: Path,
    caplog: pytest.LogCaptureFixture,
    damage: Callable[[bytes], bytes],
) -> None:
    good = contents_once(big_folder, data_dir)
    path = store_file(big_folder, data_dir)
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        library = open_(big_folder, data_dir)
        assert contents(library) == good
    (record,) = caplog.records
    message = record.getMessage()
    assert str(path) in message
    assert "rebuilding" in message
    assert "\n" not in message
    # The rebuilt store is trusted next time, silently.
    closed(library)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        assert contents(open_(big_folder, data_dir)) == good
    assert caplog.records == []


def test_another_apps_database_at_the_store_path_is_rebuilt(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = store_file(folder, data_dir)
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE files (name TEXT, size INTEGER)")
        other.execute("INSERT INTO files VALUES ('x', 1)")
    other.close()
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        library = open_(folder, data_dir)
    assert contents(library) == EXPECTED
    (record,) = caplog.records
    assert "is not a tui-assistant index store" in record.getMessage()


def test_a_store_of_another_schema_version_is_rebuilt(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture, reads: list[str]
) -> None:
    closed(open_(folder, data_dir))
    path = store_file(folder, data_dir)
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        # Make the stale store say something wrong, to see it is not trusted.
        connection.execute("UPDATE passages SET text = 'stale'")
    connection.close()
    reads.clear()
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        library = open_(folder, data_dir)
    assert contents(library) == EXPECTED
    assert len(reads) == 3
    (record,) = caplog.records
    assert f"schema {SCHEMA_VERSION + 1}" in record.getMessage()


def test_an_empty_file_at_the_store_path_becomes_a_store_silently(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = store_file(folder, data_dir)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        assert contents(open_(folder, data_dir)) == EXPECTED
    assert caplog.records == []
