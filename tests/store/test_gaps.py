"""The gaps file of a library: one JSON line per question, appended whole under a lock,
read back skipping what is not a record, its newer half kept past its cap."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from tui_assistant.core.gaps import Gap
from tui_assistant.core.record import PassageRef
from tui_assistant.store import gaps as gaps_store
from tui_assistant.store.gaps import gaps_path, read_gaps, record_gap
from tui_assistant.store.index_store import store_path

NEAR = PassageRef(
    id="reference/hooks#onclose",
    title="Hooks › onClose",
    source_path="docs/Reference/Hooks.md",
    line=471,
    end_line=530,
)


def test_a_gap_is_one_line_a_person_can_read_and_reads_back_as_it_was(tmp_path: Path) -> None:
    path = gaps_path(tmp_path, tmp_path / "docs")
    assert path.parent == tmp_path / "gaps"
    assert path.stem == store_path(tmp_path, tmp_path / "docs").stem
    asked = Gap(
        "où est le pool ?\nligne deux", "2026-01-02T03:04:05+00:00", "ambiguous", "hybrid", NEAR
    )
    nothing = Gap("unicorns", "2026-01-02T03:04:06+00:00", "no_evidence", "ranked")
    record_gap(path, asked)
    record_gap(path, nothing)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == {
        "version": 1,
        "asked_at": "2026-01-02T03:04:05+00:00",
        "question": "où est le pool ?\nligne deux",
        "reason": "ambiguous",
        "retrieval": "hybrid",
        "nearest": {
            "id": "reference/hooks#onclose",
            "title": "Hooks › onClose",
            "source_path": "docs/Reference/Hooks.md",
            "line": 471,
            "end_line": 530,
        },
    }
    assert read_gaps(path) == [asked, nothing]


def test_a_missing_file_has_no_gaps_and_damaged_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "gaps" / "docs.jsonl"
    assert read_gaps(path) == []
    record_gap(path, Gap("first", "1", "no_evidence", "ranked"))
    with path.open("ab") as stream:
        stream.write(b'{"version": 1, "question": 5}\nnot json\n\xff\xfe\n{"torn": ')
    record_gap(path, Gap("after a torn line", "2", "ambiguous", "ranked", NEAR))
    assert [gap.question for gap in read_gaps(path)] == ["first", "after a torn line"]


def test_past_its_cap_the_file_keeps_its_newer_half(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gaps_store, "MAX_BYTES", 2000)
    path = tmp_path / "gaps.jsonl"
    for number in range(40):
        record_gap(path, Gap(f"question {number}", f"{number:03}", "no_evidence", "ranked"))
    kept = [gap.question for gap in read_gaps(path)]
    assert path.stat().st_size <= 2000
    assert kept[-1] == "question 39"
    assert kept == [f"question {number}" for number in range(40 - len(kept), 40)]


def test_concurrent_writers_lose_and_mix_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gaps_store, "MAX_BYTES", 20_000)  # compactions happen meanwhile
    path = tmp_path / "gaps.jsonl"

    def write(writer: int) -> None:
        for number in range(50):
            record_gap(path, Gap(f"w{writer} q{number}", f"{number:03}", "ambiguous", "ranked"))

    threads = [threading.Thread(target=write, args=(writer,)) for writer in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = path.read_bytes().splitlines()
    assert all(json.loads(line)["version"] == 1 for line in lines)  # no line torn or mixed
    kept = read_gaps(path)
    assert len(kept) == len(lines) > 0
    # Each writer's questions that are kept are its latest, in its order.
    for writer in range(8):
        mine = [int(g.question.split("q")[1]) for g in kept if g.question.startswith(f"w{writer} ")]
        assert mine == sorted(mine) and (not mine or mine[-1] == 49)
