"""Conversation history on disk: one JSON record per line, appended.

Each library has its own file, `history/<library store name>.jsonl` in the data
folder (named like the library's index store), so one library's questions never show
while another is open. A question is kept to its first `MAX_QUESTION_CHARS`
characters: a longer one is refused without being read, and its record needs no more.

Each record is written with a single `write` of a complete line and `fsync`ed, so a
crash can at worst leave one torn final line. Loading skips any line that is not a
valid record and reports it as a warning once: the file is then rewritten with its
valid records only (a new file put in place atomically), so the next start is quiet.
Damaged history never stops the app.

The file keeps the most recent `MAX_TURNS_KEPT` turns: loading trims it to that, and
an append that takes it `COMPACT_SLACK` turns past it trims it again (compacting at
every append past the cap would rewrite the whole file each time).

Every read and write holds an exclusive `flock` on the file, so two running apps
never interleave an append with a rewrite.

The file holds questions and outcomes (the `ask --json` object), never settings, so
no API key can end up in it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tui_assistant.compat import passage_id_key
from tui_assistant.core.display_text import clean_display_text
from tui_assistant.core.documents.passage import location
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.service import MAX_QUESTION_CHARS
from tui_assistant.store.atomic_files import locked, replace_file, sync_folder, write_all
from tui_assistant.store.index_store import store_path

# The one history file of versions that kept a single conversation for every library;
# it is left where it is (never deleted), and no longer read.
HISTORY_FILE_NAME = "history.jsonl"
HISTORY_FOLDER = "history"
RECORD_VERSION = 1

# Start-up reads the whole file but shows at most this many turns: the screen is for
# the recent conversation, and rendering thousands of turns would slow the start.
MAX_TURNS_SHOWN = 200
# The history file keeps this many turns, the most recent ones.
MAX_TURNS_KEPT = 1000
# How far appends may take the file past the cap before it is compacted again.
COMPACT_SLACK = 100


@dataclass(frozen=True, slots=True)
class Turn:
    """One question and what happened to it, in the form the chat pane and export need.

    Built from a live `Outcome` or from a history record, so both render the same way.
    `status` is the status-bar line (`answered`, `refused: ...`) as it was at the time.
    """

    question: str
    outcome: str
    status: str
    answer: str | None = None
    passage_id: str | None = None
    title: str | None = None
    source_path: str | None = None
    citations: tuple[str, ...] = ()
    unsupported_sentences: tuple[str, ...] = ()
    asked_at: str = ""
    line: int | None = None
    end_line: int | None = None

    @property
    def answered(self) -> bool:
        return self.outcome == "answered" and self.answer is not None

    @property
    def location(self) -> str | None:
        """`lessons/pasta-water.md:1–11`, or the source path alone (records written
        before line ranges), or None."""
        if self.source_path is None:
            return None
        if self.line is None or self.end_line is None:
            return self.source_path
        return location(self.source_path, self.line, self.end_line)

    @classmethod
    def from_outcome(cls, outcome: Outcome, asked_at: str | None = None) -> Turn:
        """The turn of a live outcome, as `from_record` reads it back after a restart."""
        passage = outcome.evidence.passage if outcome.evidence else None
        answered = outcome.answered
        support = outcome.support if answered else None
        return cls(
            question=outcome.question[:MAX_QUESTION_CHARS],
            outcome=outcome.kind.value,
            status=outcome.describe(),
            answer=outcome.answer if answered else None,
            passage_id=passage.id if passage else None,
            title=passage.title if passage else None,
            source_path=passage.source_path if passage else None,
            citations=outcome.citations if answered else (),
            unsupported_sentences=support.unsupported_sentences if support else (),
            asked_at=asked_at or _now(),
            line=passage.line if passage else None,
            end_line=passage.end_line if passage else None,
        )

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Turn:
        """Parse one stored record; raises `ValueError` when it is not a valid one."""
        if record.get("version") != RECORD_VERSION:
            raise ValueError(f"unknown record version {record.get('version')!r}")
        data = record.get("outcome")
        if not isinstance(data, dict):
            raise ValueError("no outcome object")
        support = data.get("support")
        unsupported = support.get("unsupported_sentences", []) if isinstance(support, dict) else []
        return cls(
            question=_text(data, "question"),
            outcome=_text(data, "outcome"),
            status=_text(record, "status"),
            answer=_optional_text(data, "answer"),
            passage_id=_optional_text(data, passage_id_key(data)),
            title=_optional_text(data, "title"),
            source_path=_optional_text(data, "source_path"),
            citations=_texts(data.get("citations", [])),
            unsupported_sentences=_texts(unsupported),
            asked_at=str(record.get("asked_at", "")),
            line=_optional_number(data, "line"),
            end_line=_optional_number(data, "end_line"),
        )


@dataclass(frozen=True, slots=True)
class LoadedHistory:
    turns: list[Turn] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    total: int = 0


def history_path(data_dir: Path, library_folder: Path) -> Path:
    """`<data dir>/history/<name of the library's index store>.jsonl`."""
    store = store_path(Path(data_dir), library_folder)
    return Path(data_dir) / HISTORY_FOLDER / store.with_suffix(".jsonl").name


class HistoryStore:
    """A history file, created on the first append: the library's own in the data
    folder when `library` is given, else `history.jsonl` there."""

    def __init__(
        self, data_dir: Path, keep: int = MAX_TURNS_KEPT, *, library: Path | None = None
    ) -> None:
        if library is None:
            self.path = Path(data_dir) / HISTORY_FILE_NAME
        else:
            self.path = history_path(data_dir, library)
        self.keep = keep
        # Records in the file, once a load or a compaction has counted them.
        self._stored: int | None = None

    def load(self, limit: int = MAX_TURNS_SHOWN) -> LoadedHistory:
        """The last `limit` valid turns, and one warning per damaged record; damaged
        records are removed from the file, and turns past the cap dropped."""
        try:
            with self._locked(os.O_RDONLY) as descriptor:
                lines, turns, warnings = _parse(_read_all(descriptor))
                if warnings or len(lines) > self.keep:
                    try:
                        self._rewrite(lines[-self.keep :])
                    except OSError as error:
                        warnings.append(
                            f"history {self.path} could not be repaired ({error.strerror or error})"
                        )
        except FileNotFoundError:
            self._stored = 0
            return LoadedHistory()
        except OSError as error:
            return LoadedHistory(warnings=[f"history {self.path} cannot be read: {error}"])
        turns = turns[-self.keep :]
        self._stored = len(turns)
        return LoadedHistory(turns=turns[-limit:], warnings=warnings, total=len(turns))

    def append(self, outcome: Outcome, asked_at: str | None = None) -> None:
        """Write one record durably."""
        record = _record(outcome, asked_at or _now())
        line = json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        created = not self.path.exists()
        with self._locked(os.O_RDWR | os.O_CREAT | os.O_APPEND) as descriptor:
            size = os.fstat(descriptor).st_size
            # A torn last record has no newline; start a fresh line so this one survives.
            if size and os.pread(descriptor, 1, size - 1) != b"\n":
                line = b"\n" + line
            write_all(descriptor, line)
            os.fsync(descriptor)
            if created:
                sync_folder(self.path.parent)
            if self._stored is not None:
                self._stored += 1
                if self._stored > self.keep + COMPACT_SLACK:
                    lines, _, _ = _parse(_read_all(descriptor))
                    self._rewrite(lines[-self.keep :])

    def clear(self) -> None:
        """Forget every turn (the file is emptied, not deleted, keeping its permissions)."""
        try:
            with self._locked(os.O_WRONLY) as descriptor:
                os.ftruncate(descriptor, 0)
                os.fsync(descriptor)
        except FileNotFoundError:
            return
        self._stored = 0

    @contextlib.contextmanager
    def _locked(self, flags: int) -> Iterator[int]:
        """The file, opened with `flags` and locked. A file replaced by a compaction
        while this waited for the lock is opened again, so nothing goes to the old one."""
        while True:
            with locked(self.path, flags) as descriptor:
                try:
                    current = os.stat(self.path).st_ino == os.fstat(descriptor).st_ino
                except FileNotFoundError:
                    current = False
                if current:
                    yield descriptor
                    return

    def _rewrite(self, lines: list[bytes]) -> None:
        """Put a file of exactly `lines` in place atomically (caller holds the lock)."""
        replace_file(self.path, b"".join(line + b"\n" for line in lines))
        self._stored = len(lines)


def _parse(data: bytes) -> tuple[list[bytes], list[Turn], list[str]]:
    """The valid records' lines and turns, and a warning per damaged record."""
    lines: list[bytes] = []
    turns: list[Turn] = []
    warnings: list[str] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            turns.append(Turn.from_record(record))
        except (ValueError, UnicodeDecodeError, AttributeError, TypeError) as error:
            warnings.append(f"removed damaged history record on line {number} ({error})")
        else:
            lines.append(line)
    return lines, turns, warnings


def _read_all(descriptor: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while chunk := os.pread(descriptor, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def export_conversation(turns: Sequence[Turn], folder: Path) -> Path:
    """Write the conversation as Markdown into `folder`, named by the time (UTC); the
    file written. Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / datetime.now(UTC).strftime("conversation-%Y%m%d-%H%M%S.md")
    path.write_text(export_markdown(turns), encoding="utf-8")
    return path


def latest_answer(turns: Sequence[Turn]) -> str | None:
    """The latest answer with its source path, as text to copy; None before any."""
    latest = next((turn for turn in reversed(turns) if turn.answered), None)
    if latest is None:
        return None
    text = clean_display_text(latest.answer or "")
    if latest.location:
        text += f"\n\nsource: {latest.location}"
    return text


def export_markdown(turns: Iterable[Turn]) -> str:
    """The conversation as Markdown: each question, its outcome, answer and source path."""
    lines = ["# Conversation", ""]
    for turn in turns:
        lines += [f"## {turn.question}", ""]
        if turn.answered:
            lines += [turn.answer or "", ""]
            if turn.location:
                lines.append(f"Source: `{turn.location}`")
            if turn.citations:
                lines.append("Citations: " + ", ".join(turn.citations))
            if turn.unsupported_sentences:
                lines.append("Not backed by the passage:")
                lines += [f"- {sentence}" for sentence in turn.unsupported_sentences]
        else:
            lines.append(f"*{turn.status}*")
            if turn.location:
                lines.append(f"Passage: `{turn.location}`")
        lines.append("")
    return "\n".join(lines)


def _record(outcome: Outcome, asked_at: str) -> dict[str, Any]:
    data = outcome.to_json()
    data["question"] = outcome.question[:MAX_QUESTION_CHARS]
    return {
        "version": RECORD_VERSION,
        "asked_at": asked_at,
        "status": outcome.describe(),
        "outcome": data,
    }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value


def _optional_number(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} is not a whole number")
    return value


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value


def _texts(values: object) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise ValueError("expected a list of text")
    return tuple(values)
