"""Conversation history on disk: one JSON record per line, appended.

Each library has its own file, `history/<library store name>.jsonl` in the data
folder (named like the library's index store), so one library's questions never show
while another is open; libraries searched together have one of their own. A question
is kept to its first `MAX_QUESTION_CHARS` characters: a longer one is refused without
being read, and its record needs no more.

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

The file holds questions and outcomes (`OutcomeRecord`, the `ask --json` object) with
the words the status bar said, never settings, so no API key can end up in it. Records
written by earlier versions load too: a field added since reads as null or empty.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_origin

from pydantic import ValidationError

from tui_assistant.compat import passage_id_key
from tui_assistant.core.display_text import (
    clean_display_text,
    collapse_blank_lines,
    validation_problems,
)
from tui_assistant.core.outcome import Outcome
from tui_assistant.core.record import OutcomeRecord, Turn
from tui_assistant.errors import os_error_words
from tui_assistant.store.atomic_files import (
    locked_in_place,
    replace_file,
    sync_folder,
    write_all,
)
from tui_assistant.store.index_store import store_path

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
class LoadedHistory:
    turns: list[Turn] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    total: int = 0


def history_path(data_dir: Path, library: Path | Sequence[Path]) -> Path:
    """`<data dir>/history/<name of the library's index store>.jsonl`; for several
    libraries searched together, `<their names joined by +>-<hash of their paths>.jsonl`."""
    folders = [library] if isinstance(library, Path) else list(library)
    stores = [store_path(Path(data_dir), folder) for folder in folders]
    if len(stores) == 1:
        name = stores[0].with_suffix(".jsonl").name
    else:
        digest = hashlib.sha256("\0".join(store.stem for store in stores).encode()).hexdigest()
        joined = "+".join(store.stem.rsplit("-", 1)[0] for store in stores)[:60]
        name = f"{joined}-{digest[:16]}.jsonl"
    return Path(data_dir) / HISTORY_FOLDER / name


class HistoryStore:
    """A history file at `path`, created on the first append (`for_library`: a library's
    own, in the data folder)."""

    def __init__(self, path: Path, keep: int = MAX_TURNS_KEPT) -> None:
        self.path = Path(path)
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
                            f"history {self.path} could not be repaired ({os_error_words(error)})"
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
        record = _record(Turn.of(outcome, asked_at or now()))
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

    def _locked(self, flags: int) -> contextlib.AbstractContextManager[int]:
        """The file, opened with `flags` and locked. A file replaced by a compaction
        while this waited for the lock is opened again, so nothing goes to the old one."""
        return locked_in_place(self.path, flags)

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
            turns.append(stored_turn(record))
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
    # Private, as the history it comes from is (0600).
    replace_file(path, export_markdown(turns).encode("utf-8"))
    return path


def latest_answer(turns: Sequence[Turn]) -> str | None:
    """The latest answer with its source path, as text to copy; None before any."""
    latest = next((turn.record for turn in reversed(turns) if turn.record.answered), None)
    if latest is None:
        return None
    text = collapse_blank_lines(clean_display_text(latest.answer or ""))
    if latest.location:
        text += f"\n\nsource: {latest.location}"
    return text


def export_markdown(turns: Iterable[Turn]) -> str:
    """The conversation as Markdown: each question, its outcome, answer and source path."""
    lines = ["# Conversation", ""]
    for turn in turns:
        record = turn.record
        lines += [f"## {record.question}", ""]
        if record.answered:
            lines += [collapse_blank_lines(record.answer or ""), ""]
            if record.location:
                lines.append(f"Source: `{record.location}`")
            if record.citations:
                lines.append("Citations: " + ", ".join(record.citations))
            if record.unsupported_sentences:
                lines.append("Not backed by the passage:")
                lines += [f"- {sentence}" for sentence in record.unsupported_sentences]
        else:
            lines.append(f"*{turn.status}*")
            if record.location:
                lines.append(f"Passage: `{record.location}`")
        lines.append("")
    return "\n".join(lines)


def _record(turn: Turn) -> dict[str, Any]:
    return {
        "version": RECORD_VERSION,
        "asked_at": turn.asked_at,
        "status": turn.status,
        "outcome": turn.record.model_dump(mode="json"),
    }


def stored_turn(record: Mapping[str, Any]) -> Turn:
    """Parse one stored record; raises `ValueError` (one line) when it is not a valid one."""
    if record.get("version") != RECORD_VERSION:
        raise ValueError(f"unknown record version {record.get('version')!r}")
    data = record.get("outcome")
    if not isinstance(data, dict):
        raise ValueError("no outcome object")
    status = record.get("status")
    if not isinstance(status, str):
        raise ValueError("status is not text")
    try:
        outcome = OutcomeRecord.model_validate(_in_todays_shape(data))
    except ValidationError as error:
        raise ValueError(validation_problems(error)) from None
    return Turn(outcome, status, str(record.get("asked_at", "")))


def _in_todays_shape(data: Mapping[str, Any]) -> dict[str, Any]:
    """A stored outcome with the fields added since it was written (null, empty, 0),
    and its passage id read under the name it was written with (`lesson_id` once)."""
    shaped: dict[str, Any] = {
        name: _empty(field.annotation)
        for name, field in OutcomeRecord.model_fields.items()
        if name not in ("question", "outcome")
    }
    shaped.update(data)
    shaped["passage_id"] = shaped["lesson_id"] = data.get(passage_id_key(data))
    return shaped


def _empty(annotation: object) -> object:
    if get_origin(annotation) is list:
        return []
    return 0 if annotation is int else None


def now() -> str:
    """The time now, UTC, to the second (ISO 8601), as every record says when."""
    return datetime.now(UTC).isoformat(timespec="seconds")
