"""A damaged, foreign or outdated index store is rebuilt with a one-line warning, never
trusted; a busy one is left exactly as it is, and the library indexed in memory."""

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
from tui_assistant.store import index_store
from tui_assistant.store.index_store import SCHEMA_VERSION, is_damage

# -- damaged stores are rebuilt -----------------------------------------------------


def random_bytes(data: bytes) -> bytes:
    return random.Random(7).randbytes(len(data))


def truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def header_only(data: bytes) -> bytes:
    return data[:100]


def overwritten_header(data: bytes) -> bytes:
    # Same length, first bytes overwritten: no longer an SQLite file.
    return b"\0" * 100 + data[100:]


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
    "damage",
    [random_bytes, truncated, header_only, overwritten_header, one_damaged_page],
    ids=lambda f: f.__name__,
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


def test_a_store_of_passages_read_by_other_rules_is_rebuilt(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture, reads: list[str]
) -> None:
    closed(open_(folder, data_dir))
    path = store_file(folder, data_dir)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE meta SET value = '0' WHERE key = 'parser'")
        connection.execute("UPDATE passages SET text = 'stale'")
    connection.close()
    reads.clear()
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        library = open_(folder, data_dir)
    assert contents(library) == EXPECTED
    assert len(reads) == 3
    (record,) = caplog.records
    assert "passages read by another version" in record.getMessage()


def test_an_empty_file_at_the_store_path_becomes_a_store_silently(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = store_file(folder, data_dir)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        assert contents(open_(folder, data_dir)) == EXPECTED
    assert caplog.records == []


# -- a busy store is never deleted or rebuilt ---------------------------------------


def file_state(path: Path) -> tuple[int, bytes]:
    return path.stat().st_ino, path.read_bytes()


@pytest.fixture
def short_busy_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_store, "BUSY_TIMEOUT_SECONDS", 0.2)


@pytest.mark.usefixtures("short_busy_wait")
def test_a_store_busy_with_another_writer_is_kept_and_the_library_indexed_in_memory(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    closed(open_(folder, data_dir))
    path = store_file(folder, data_dir)
    before = file_state(path)
    # A change to index while another program holds a write transaction on the store.
    write(folder, "pasta-water.md", "# Pasta water\n\nSalt it with sea salt.\n")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
            library = open_(folder, data_dir)
        # Answered from the library as it is on disk now.
        assert contents(library)["pasta-water"] == ("Pasta water", "Salt it with sea salt.")
        assert file_state(path) == before
    finally:
        other.close()
    (record,) = caplog.records
    message = record.getMessage()
    assert "in memory" in message and str(path) in message
    assert "rebuilding" not in message
    assert "\n" not in message
    assert file_state(path) == before
    # Once the other program is done, the store is brought up to date, silently.
    closed(library)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
        again = open_(folder, data_dir)
        assert contents(again)["pasta-water"] == ("Pasta water", "Salt it with sea salt.")
    assert caplog.records == []


@pytest.mark.usefixtures("short_busy_wait")
def test_a_store_locked_against_readers_is_kept_too(
    folder: Path, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    closed(open_(folder, data_dir))
    path = store_file(folder, data_dir)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        # Exclusive locking: nobody else may even read until this connection closes.
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("UPDATE meta SET value = value WHERE key = 'words'")
        before = file_state(path)
        with caplog.at_level(logging.WARNING, logger="tui_assistant.store.index_store"):
            library = open_(folder, data_dir)
        assert contents(library) == EXPECTED
        assert file_state(path) == before
        other.execute("ROLLBACK")
    finally:
        other.close()
    (record,) = caplog.records
    assert "in memory" in record.getMessage()
    assert "rebuilding" not in record.getMessage()


# -- damage is told from other errors by SQLite's error code -------------------------


def sqlite_error(code: int) -> sqlite3.Error:
    error = sqlite3.DatabaseError(f"error {code}")
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize(
    ("code", "damage"),
    [
        (sqlite3.SQLITE_CORRUPT, True),
        (sqlite3.SQLITE_NOTADB, True),
        (sqlite3.SQLITE_CORRUPT_VTAB, True),  # an extended code of CORRUPT
        (sqlite3.SQLITE_BUSY, False),
        (sqlite3.SQLITE_BUSY_SNAPSHOT, False),
        (sqlite3.SQLITE_LOCKED, False),
        (sqlite3.SQLITE_FULL, False),
        (sqlite3.SQLITE_IOERR, False),
        (sqlite3.SQLITE_IOERR_SHORT_READ, False),
        (sqlite3.SQLITE_READONLY, False),
    ],
)
def test_is_damage_goes_by_the_error_code(code: int, damage: bool) -> None:
    assert is_damage(sqlite_error(code)) is damage


def test_an_error_without_a_code_is_not_taken_for_damage() -> None:
    assert not is_damage(sqlite3.DatabaseError("no code"))


def test_real_errors_are_told_apart(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(random.Random(1).randbytes(8192))
    with pytest.raises(sqlite3.DatabaseError) as not_a_database:
        sqlite3.connect(garbage).execute("SELECT count(*) FROM sqlite_master").fetchone()
    assert is_damage(not_a_database.value)

    database = tmp_path / "busy.sqlite3"
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(sqlite3.OperationalError) as busy:
            sqlite3.connect(database, timeout=0).execute("INSERT INTO t VALUES (1)")
        assert not is_damage(busy.value)
    finally:
        holder.close()
