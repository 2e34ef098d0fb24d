"""The monthly call ledger: the limit, the UTC month, forgiving of damage. Concurrent and
killed processes are in `tests/e2e/test_nothing_lost.py`."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tui_assistant.errors import LedgerUnavailable
from tui_assistant.store.ledger import LEDGER_FILE_NAME, CallLedger, parse_ledger

JUNE = datetime(2025, 6, 14, 9, 30, tzinfo=UTC)
JULY = datetime(2025, 7, 1, 0, 0, 5, tzinfo=UTC)


def ledger_at(folder: Path, limit: int, moment: datetime) -> CallLedger:
    return CallLedger(folder, limit, clock=lambda: moment)


def test_calls_are_allowed_up_to_the_limit_and_then_refused(tmp_path: Path) -> None:
    ledger = ledger_at(tmp_path, 3, JUNE)
    assert [ledger.try_record_call() for _ in range(5)] == [True, True, True, False, False]
    assert (tmp_path / LEDGER_FILE_NAME).read_text().splitlines() == ["2025-06-14T09:30:00Z"] * 3


def test_a_limit_of_zero_allows_no_call(tmp_path: Path) -> None:
    assert ledger_at(tmp_path, 0, JUNE).try_record_call() is False


def test_a_new_month_starts_from_zero_and_drops_old_lines(tmp_path: Path) -> None:
    june = ledger_at(tmp_path, 2, JUNE)
    assert june.try_record_call() and june.try_record_call()
    assert not june.try_record_call()
    july = ledger_at(tmp_path, 2, JULY)
    assert july.try_record_call()
    assert (tmp_path / LEDGER_FILE_NAME).read_text() == "2025-07-01T00:00:05Z\n"


def test_the_month_is_the_utc_month(tmp_path: Path) -> None:
    from datetime import timedelta, timezone

    # 23:30 on 31 May in UTC-2 is already 1 June in UTC.
    late_may_local = datetime(2025, 5, 31, 23, 30, tzinfo=timezone(timedelta(hours=-2)))
    assert ledger_at(tmp_path, 1, late_may_local).try_record_call()
    assert not ledger_at(tmp_path, 1, JUNE).try_record_call()


def test_a_missing_folder_is_created(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "yet"
    assert ledger_at(folder, 1, JUNE).try_record_call()
    assert (folder / LEDGER_FILE_NAME).is_file()


def test_corrupt_and_torn_lines_are_skipped_with_a_warning_and_cleaned_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / LEDGER_FILE_NAME
    path.write_bytes(b"2025-06-01T00:00:00Z\n\x00\xffgarbage\n2025-06-02T00:00:00Z\n2025-06-0")
    ledger = ledger_at(tmp_path, 4, JUNE)
    with caplog.at_level(logging.WARNING):
        assert ledger.try_record_call()
    assert "skipped 2 unreadable line(s)" in caplog.text
    assert path.read_text().splitlines() == [
        "2025-06-01T00:00:00Z",
        "2025-06-02T00:00:00Z",
        "2025-06-14T09:30:00Z",
    ]
    assert ledger.try_record_call()
    assert not ledger.try_record_call()


def test_a_folder_that_cannot_be_used_raises_ledger_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(LedgerUnavailable):
        ledger_at(blocker, 1, JUNE).try_record_call()


def test_parse_ledger_counts_only_the_given_month() -> None:
    text = "2025-05-31T23:59:59Z\n2025-06-01T00:00:00Z\nnot a time\n\n2025-06-30T23:59:59Z\n"
    read = parse_ledger(text, (2025, 6))
    assert len(read.calls) == 2
    assert read.unreadable_lines == 1
    assert read.needs_rewrite


def test_parse_ledger_of_a_clean_current_file_needs_no_rewrite() -> None:
    read = parse_ledger("2025-06-01T00:00:00Z\n", (2025, 6))
    assert (len(read.calls), read.unreadable_lines, read.needs_rewrite) == (1, 0, False)
