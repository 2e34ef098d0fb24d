"""Files that survive a crash: whole writes, synced folders, atomic replacement, and
the one way the app locks a file between processes."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


def write_all(descriptor: int, data: bytes) -> None:
    """Write all of `data`: `os.write` may write only part of it (a full disk, a
    signal), and the rest must follow or a record would be torn."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def sync_folder(folder: Path) -> None:
    """Make a new or renamed file's directory entry durable: fsyncing the file alone
    could lose the whole file on power loss."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def replace_file(path: Path, data: bytes) -> None:
    """Put a file holding exactly `data` at `path` atomically, and durably."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            write_all(descriptor, data)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    sync_folder(path.parent)


@contextlib.contextmanager
def locked(path: Path | str, flags: int = os.O_RDWR | os.O_CREAT) -> Iterator[int]:
    """`path` opened with `flags` and held under an exclusive lock between processes.

    Closing the file releases the lock, and so does the system when the holder exits,
    however it exits.
    """
    descriptor = os.open(path, flags, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield descriptor
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def locked_in_place(path: Path, flags: int) -> Iterator[int]:
    """`locked(path, flags)`, of the file that is at `path` once the lock is held: a
    file replaced (`replace_file`) while this waited for the lock is opened again, so
    nothing is written to the one it replaced."""
    while True:
        with locked(path, flags) as descriptor:
            try:
                current = os.stat(path).st_ino == os.fstat(descriptor).st_ino
            except FileNotFoundError:
                current = False
            if current:
                yield descriptor
                return
