"""Durable files: whole writes despite short ones, atomic replacement that leaves the old
file whole when it fails, and the one exclusive lock between processes."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

import pytest

from tui_assistant.store import atomic_files as durable
from tui_assistant.store.atomic_files import locked, replace_file, write_all


def short_writes(monkeypatch: pytest.MonkeyPatch, most: int) -> list[int]:
    """Make `os.write` take at most `most` bytes a call, as a full pipe or a signal
    may; returns the sizes asked for."""
    real_write = os.write
    asked: list[int] = []

    def write(descriptor: int, data: bytes) -> int:
        asked.append(len(data))
        return real_write(descriptor, bytes(data[:most]))

    monkeypatch.setattr(durable.os, "write", write)
    return asked


def test_write_all_finishes_what_short_writes_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bytes(range(256)) * 40
    path = tmp_path / "file"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        asked = short_writes(monkeypatch, 1000)
        write_all(descriptor, data)
    finally:
        monkeypatch.undo()
        os.close(descriptor)
    assert path.read_bytes() == data
    # Each call asks for the rest, not the whole again.
    assert asked == [len(data) - 1000 * n for n in range(len(data) // 1000 + 1)]


def test_write_all_of_nothing_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "file"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        write_all(descriptor, b"")
    finally:
        os.close(descriptor)
    assert path.read_bytes() == b""


def test_a_write_error_is_raised_not_swallowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(descriptor: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(durable.os, "write", full)
    descriptor = os.open(tmp_path / "file", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with pytest.raises(OSError) as raised:
            write_all(descriptor, b"record\n")
    finally:
        os.close(descriptor)
    assert raised.value.errno == errno.ENOSPC


def test_replace_file_puts_the_new_content_in_place_privately(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(b"old\n")
    old_inode = path.stat().st_ino
    replace_file(path, b"new\n")
    assert path.read_bytes() == b"new\n"
    # A new file was renamed over the old one, not the old one rewritten in place.
    assert path.stat().st_ino != old_inode
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.jsonl"]


def test_replace_file_creates_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "ledger"
    replace_file(path, b"2024-01\n")
    assert path.read_bytes() == b"2024-01\n"


@pytest.mark.parametrize("failing", ["write", "fsync"])
def test_a_failed_replacement_leaves_the_old_file_whole_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(b"every old record\n")

    def fail(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(durable.os, failing, fail)
    with pytest.raises(OSError):
        replace_file(path, b"the new content " * 1000)
    monkeypatch.undo()
    assert path.read_bytes() == b"every old record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.jsonl"]


def try_lock(path: Path) -> bool:
    """Whether another open of `path` (as another process has) gets the lock now."""
    descriptor = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)
    return True


def test_locked_holds_others_off_until_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "store.lock"
    with locked(path) as descriptor:
        assert os.fstat(descriptor).st_ino == path.stat().st_ino
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert not try_lock(path)
    assert try_lock(path)


def test_locked_lets_go_when_its_holder_fails(tmp_path: Path) -> None:
    path = tmp_path / "store.lock"
    with pytest.raises(RuntimeError), locked(path):
        raise RuntimeError("the holder failed")
    assert try_lock(path)


def test_locked_opens_with_the_flags_given(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError), locked(tmp_path / "missing", os.O_RDONLY):
        pass
    path = tmp_path / "records"
    path.write_bytes(b"kept")
    with locked(path, os.O_WRONLY | os.O_APPEND) as descriptor:
        write_all(descriptor, b" and more")
    assert path.read_bytes() == b"kept and more"
