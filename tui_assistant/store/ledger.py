"""The monthly call ledger: how many provider calls this calendar month (UTC) has used.

A call is recorded *before* its request is sent, under an exclusive file lock, so
several processes sharing one data folder can never send more than the limit between
them, and a crash after recording errs on the side of counting the call.

Format: a text file with one line per recorded call, the UTC time it was recorded
(`2025-06-01T12:00:00Z`). Lines are appended and fsynced while the lock is held. A line
that does not parse (a torn write, a hand edit) is skipped with a warning, not counted;
lines from earlier months are dropped the next time a call is recorded. The lock lives
in its own file so that the ledger itself can be rewritten by an atomic rename.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tui_assistant.errors import LedgerUnavailable, os_error_words
from tui_assistant.store.atomic_files import locked, replace_file, sync_folder, write_all

LEDGER_FILE_NAME = "provider-calls.log"
LOCK_FILE_NAME = "provider-calls.lock"
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]


@dataclass(frozen=True, slots=True)
class LedgerRead:
    """What a ledger file holds: calls per month, and how many lines were unreadable."""

    calls: tuple[datetime, ...]
    unreadable_lines: int
    needs_rewrite: bool


def _utc_now() -> datetime:
    return datetime.now(UTC)


def parse_ledger(text: str, month: tuple[int, int]) -> LedgerRead:
    """Pure: the calls of `month` (year, month) in a ledger's text, skipping bad lines."""
    calls: list[datetime] = []
    unreadable = 0
    other_months = 0
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        try:
            moment = datetime.strptime(stripped, _TIME_FORMAT).replace(tzinfo=UTC)
        except ValueError:
            unreadable += 1
            continue
        if (moment.year, moment.month) == month:
            calls.append(moment)
        else:
            other_months += 1
    torn_tail = bool(text) and not text.endswith("\n")
    return LedgerRead(tuple(calls), unreadable, bool(unreadable or other_months or torn_tail))


class CallLedger:
    """Counts provider calls per calendar month (UTC) in `folder`, across processes."""

    def __init__(self, folder: Path, limit: int, clock: Clock = _utc_now) -> None:
        self.folder = folder
        self.limit = limit
        self.clock = clock

    @property
    def path(self) -> Path:
        return self.folder / LEDGER_FILE_NAME

    def try_record_call(self) -> bool:
        """Record one call if the month's limit allows it; False (nothing written) if not.

        Raises `LedgerUnavailable` when the file system refuses, so the caller can refuse
        the call rather than send it uncounted.
        """
        now = self.clock().astimezone(UTC)
        month = (now.year, now.month)
        try:
            with self._locked():
                current = self._read(month)
                if len(current.calls) >= self.limit:
                    return False
                line = now.strftime(_TIME_FORMAT) + "\n"
                if current.needs_rewrite:
                    kept = "".join(call.strftime(_TIME_FORMAT) + "\n" for call in current.calls)
                    self._replace(kept + line)
                else:
                    self._append(line)
                return True
        except OSError as error:
            raise LedgerUnavailable(
                f"call ledger in {self.folder}: {os_error_words(error)}"
            ) from None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with locked(self.folder / LOCK_FILE_NAME):
            yield

    def _read(self, month: tuple[int, int]) -> LedgerRead:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return LedgerRead((), 0, False)
        read = parse_ledger(raw.decode("utf-8", errors="replace"), month)
        if read.unreadable_lines:
            logger.warning(
                "call ledger %s: skipped %d unreadable line(s); they are not counted",
                self.path,
                read.unreadable_lines,
            )
        return read

    def _append(self, line: str) -> None:
        created = not self.path.exists()
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            write_all(descriptor, line.encode("ascii"))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        if created:
            sync_folder(self.folder)

    def _replace(self, text: str) -> None:
        replace_file(self.path, text.encode("ascii"))
