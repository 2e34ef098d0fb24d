"""The questions a library could not answer, on disk: one JSON line per question.

Each library has its own file, `gaps/<library store name>.jsonl` in the data folder
(named like its index store), so a library's gaps follow its folder whatever it is
called or searched with. A line is one object:
`{"version": 1, "asked_at", "question", "reason", "retrieval", "nearest"}`, `nearest`
being the passage it came nearest to (`{"id", "title", "source_path", "line",
"end_line"}`, its id within the library) or null. Any editor, `jq` or a spreadsheet
opens it; nothing in it is sent anywhere.

An append is one `write` of whole lines (one, or a batch of `gap_writer.GapWriter`'s)
under the file's lock, so concurrent servers never interleave lines; it is not synced
to disk (a crash may lose the latest questions, never the file). A file past
`MAX_BYTES` keeps its newer half. A line that is not a valid record is skipped when read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from tui_assistant.core.gaps import Gap
from tui_assistant.core.record import PassageRef
from tui_assistant.store.atomic_files import locked_in_place, replace_file, write_all
from tui_assistant.store.index_store import store_path

GAPS_FOLDER = "gaps"
RECORD_VERSION = 1
# About 10,000 questions: the newer half is kept past this.
MAX_BYTES = 4 << 20


def gaps_path(data_dir: Path, library_folder: Path) -> Path:
    """`<data dir>/gaps/<name of the library's index store>.jsonl`."""
    store = store_path(Path(data_dir), library_folder)
    return Path(data_dir) / GAPS_FOLDER / store.with_suffix(".jsonl").name


def record_gap(path: Path, gap: Gap) -> None:
    """Append `gap` to the file at `path` (made when missing). Raises OSError."""
    record_gaps(path, [gap])


def record_gaps(path: Path, gaps: Sequence[Gap]) -> None:
    """Append `gaps`, in order, to the file at `path` in one write (made when missing).
    Raises OSError."""
    if not gaps:
        return
    lines = b"".join(
        json.dumps(gap_record(gap), ensure_ascii=False).encode("utf-8") + b"\n" for gap in gaps
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked_in_place(path, os.O_RDWR | os.O_CREAT | os.O_APPEND) as descriptor:
        size = os.fstat(descriptor).st_size
        if size and os.pread(descriptor, 1, size - 1) != b"\n":
            lines = b"\n" + lines  # a torn last line stays apart from these
        write_all(descriptor, lines)
        if size + len(lines) > MAX_BYTES:
            held = os.pread(descriptor, size + len(lines), 0).splitlines()
            replace_file(path, b"".join(kept + b"\n" for kept in held[len(held) // 2 :]))


def gap_record(gap: Gap) -> dict[str, object]:
    """`gap` as the object a line holds (the PostgreSQL store keeps the same objects)."""
    return {
        "version": RECORD_VERSION,
        "asked_at": gap.asked_at,
        "question": gap.question,
        "reason": gap.reason,
        "retrieval": gap.retrieval,
        "nearest": _nearest_json(gap.nearest),
    }


def parse_gap(line: bytes | str) -> Gap | None:
    """The gap a line (or a stored object's JSON) holds; None when it is not valid."""
    return _parsed(line)


def read_gaps(path: Path) -> list[Gap]:
    """The valid records of the file at `path`, in the order asked ([] when missing)."""
    try:
        with locked_in_place(path, os.O_RDONLY) as descriptor:
            data = os.pread(descriptor, os.fstat(descriptor).st_size, 0)
    except FileNotFoundError:
        return []
    gaps: list[Gap] = []
    for line in data.splitlines():
        gap = _parsed(line)
        if gap is not None:
            gaps.append(gap)
    return gaps


def _nearest_json(nearest: PassageRef | None) -> dict[str, object] | None:
    if nearest is None:
        return None
    return nearest.model_dump(include={"id", "title", "source_path", "line", "end_line"})


def _parsed(line: bytes | str) -> Gap | None:
    try:
        record = json.loads(line)
        if not isinstance(record, dict) or record.get("version") != RECORD_VERSION:
            return None
        nearest = record.get("nearest")
        question, asked_at, reason = record["question"], record["asked_at"], record["reason"]
        retrieval = record.get("retrieval")
        if not all(isinstance(value, str) for value in (question, asked_at, reason)):
            return None
        return Gap(
            question=question,
            asked_at=asked_at,
            reason=reason,
            retrieval=retrieval if isinstance(retrieval, str) else None,
            nearest=PassageRef.model_validate(nearest) if nearest is not None else None,
        )
    except (ValueError, KeyError, TypeError, ValidationError, UnicodeDecodeError):
        return None
