"""Conversation history on disk: durable appends, damaged records skipped, no secrets."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Reason, SupportReport, answered, refused
from tui_assistant.core.record import OutcomeRecord, Turn
from tui_assistant.core.retrieval.types import Evidence
from tui_assistant.core.service import MAX_QUESTION_CHARS
from tui_assistant.store import history
from tui_assistant.store.history import (
    COMPACT_SLACK,
    MAX_TURNS_KEPT,
    HistoryStore,
    export_markdown,
    history_path,
    stored_turn,
)

PASSAGE = Passage(
    "pasta-water", "Salting pasta water", "Salt the water.", "lessons/pasta-water.md", 3, 9
)
EVIDENCE = Evidence((PASSAGE,), ("salt", "pasta"), 4.0, 1.0)
ASKED_AT = "2026-01-02T03:04:05+00:00"
STORED = "conversation.jsonl"


def test_appended_turns_load_back_in_order(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.append(answered("q1", EVIDENCE, "A1 [source:pasta-water]"))
    store.append(refused("q2", Reason.NO_EVIDENCE))
    loaded = HistoryStore(tmp_path / STORED).load()
    assert loaded.warnings == []
    assert [turn.question for turn in loaded.turns] == ["q1", "q2"]
    first, second = loaded.turns
    assert first.record.answered and first.record.answer == "A1 [source:pasta-water]"
    assert first.record.source_path == "lessons/pasta-water.md"
    assert first.record.citations == ["pasta-water"]
    assert not second.record.answered
    assert second.status == "refused: no passage matched this question"
    assert second.record.source_path is None


def test_a_missing_file_is_an_empty_history(tmp_path: Path) -> None:
    loaded = HistoryStore(tmp_path / "not-yet" / STORED).load()
    assert loaded.turns == [] and loaded.warnings == []


def test_damaged_and_torn_records_are_skipped_with_a_warning(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.append(answered("good one", EVIDENCE, "A [source:pasta-water]"))
    with store.path.open("ab") as file:
        file.write(b"not json at all\n")
        file.write(b'{"version": 1, "status": "answered"}\n')  # no outcome
        file.write(b'{"version": 1, "asked_at": "x", "status": "ans')  # torn by a crash
    loaded = store.load()
    assert [turn.question for turn in loaded.turns] == ["good one"]
    assert len(loaded.warnings) == 3
    assert all("removed damaged history record" in warning for warning in loaded.warnings)
    assert "line 2" in loaded.warnings[0]


def test_an_append_after_a_torn_record_starts_on_a_new_line(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.path.write_bytes(b'{"version": 1, "torn')
    store.append(answered("after the crash", EVIDENCE, "A [source:pasta-water]"))
    loaded = store.load()
    assert [turn.question for turn in loaded.turns] == ["after the crash"]
    assert len(loaded.warnings) == 1


def test_records_hold_the_question_and_the_outcome_json(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    outcome = answered("how much salt?", EVIDENCE, "Use 10 g. [source:pasta-water]")
    store.append(outcome, asked_at="2024-01-01T00:00:00+00:00")
    (line,) = store.path.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    assert record["outcome"] == OutcomeRecord.of(outcome).model_dump(mode="json")
    assert record["asked_at"] == "2024-01-01T00:00:00+00:00"
    assert record["outcome"]["question"] == "how much salt?"


def test_the_file_is_private_to_the_user(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.append(refused("q", Reason.NO_EVIDENCE))
    assert store.path.stat().st_mode & 0o077 == 0


def test_clear_forgets_every_turn(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.append(refused("q", Reason.NO_EVIDENCE))
    store.clear()
    assert store.load().turns == []
    store.append(refused("after", Reason.NO_EVIDENCE))
    assert [turn.question for turn in store.load().turns] == ["after"]


def test_load_shows_only_the_most_recent_turns(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    for number in range(5):
        store.append(refused(f"q{number}", Reason.NO_EVIDENCE))
    loaded = store.load(limit=2)
    assert [turn.question for turn in loaded.turns] == ["q3", "q4"]
    assert loaded.total == 5


def test_unsupported_sentences_survive_the_round_trip(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    outcome = answered(
        "q",
        EVIDENCE,
        "Salt it. Oil helps. [source:pasta-water]",
        support=SupportReport(False, ("Oil helps.",)),
    )
    store.append(outcome)
    (turn,) = store.load().turns
    assert turn.record.unsupported_sentences == ("Oil helps.",)


def test_export_names_each_answers_source_path() -> None:
    turns = [
        Turn.of(answered("how much salt?", EVIDENCE, "10 g. [source:pasta-water]"), ASKED_AT),
        Turn.of(refused("capital of france?", Reason.NO_EVIDENCE), ASKED_AT),
    ]
    markdown = export_markdown(turns)
    assert "## how much salt?" in markdown
    assert "10 g. [source:pasta-water]" in markdown
    assert "Source: `lessons/pasta-water.md:3–9`" in markdown
    assert "## capital of france?" in markdown
    assert "*refused: no passage matched this question*" in markdown


def test_a_record_without_line_numbers_still_names_its_file() -> None:
    record = {
        "version": 1,
        "asked_at": "2026-01-01T00:00:00+00:00",
        "status": "answered",
        "outcome": {
            **OutcomeRecord.of(answered("q", EVIDENCE, "A [source:pasta-water]")).model_dump(
                mode="json"
            )
        },
    }
    del record["outcome"]["line"], record["outcome"]["end_line"]  # written before lines existed
    assert stored_turn(record).record.location == "lessons/pasta-water.md"


def test_damage_is_repaired_once_so_the_next_load_is_quiet(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.append(answered("before", EVIDENCE, "A [source:pasta-water]"))
    with store.path.open("ab") as file:
        file.write(b"not json at all\n")
    store.append(refused("after", Reason.NO_EVIDENCE))

    first = HistoryStore(tmp_path / STORED).load()
    assert [warning.split(" (")[0] for warning in first.warnings] == [
        "removed damaged history record on line 2"
    ]
    second = HistoryStore(tmp_path / STORED).load()
    assert second.warnings == []
    assert [turn.question for turn in second.turns] == ["before", "after"]
    assert b"not json" not in store.path.read_bytes()
    assert store.path.stat().st_mode & 0o077 == 0  # the rewritten file is private too
    assert [path.name for path in tmp_path.iterdir()] == [STORED]


def test_a_repair_that_cannot_be_written_still_loads_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.append(refused("kept", Reason.NO_EVIDENCE))
    with store.path.open("ab") as file:
        file.write(b"garbage\n")

    def read_only_folder(source: object, target: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(history.os, "replace", read_only_folder)
    loaded = store.load()
    monkeypatch.undo()
    assert [turn.question for turn in loaded.turns] == ["kept"]
    assert loaded.warnings[0].startswith("removed damaged history record on line 2")
    assert "could not be repaired (Permission denied)" in loaded.warnings[-1]
    assert [path.name for path in tmp_path.iterdir()] == [STORED]  # no leftovers


def test_the_cap_keeps_the_most_recent_turns(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED, keep=5)
    for number in range(8):
        store.append(refused(f"q{number}", Reason.NO_EVIDENCE))
    loaded = HistoryStore(tmp_path / STORED, keep=5).load()
    assert [turn.question for turn in loaded.turns] == [f"q{n}" for n in range(3, 8)]
    assert loaded.total == 5 and loaded.warnings == []
    # The file itself was trimmed, not just what was shown.
    assert len(store.path.read_bytes().splitlines()) == 5


def test_appends_past_the_cap_compact_the_file(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED, keep=3)
    store.load()  # the app loads before it appends; that is when the count is known
    for number in range(3 + COMPACT_SLACK + 1):
        store.append(refused(f"q{number}", Reason.NO_EVIDENCE))
    lines = store.path.read_bytes().splitlines()
    assert len(lines) == 3
    assert [json.loads(line)["outcome"]["question"] for line in lines] == [
        f"q{n}" for n in range(COMPACT_SLACK + 1, COMPACT_SLACK + 4)
    ]


def test_the_default_cap() -> None:
    assert HistoryStore(Path("unused") / STORED).keep == MAX_TURNS_KEPT == 1000


def test_an_append_after_a_compaction_by_another_store_lands_in_the_new_file(
    tmp_path: Path,
) -> None:
    """Two apps on one data folder: one rewrites the file while the other appends."""
    one, other = HistoryStore(tmp_path / STORED, keep=2), HistoryStore(tmp_path / STORED)
    for number in range(4):
        one.append(refused(f"q{number}", Reason.NO_EVIDENCE))
    one.load()  # trims the file to two turns: a new file is put in place
    other.append(refused("from the other app", Reason.NO_EVIDENCE))
    assert [turn.question for turn in HistoryStore(tmp_path / STORED).load().turns] == [
        "q2",
        "q3",
        "from the other app",
    ]


def test_a_short_write_is_completed_not_left_torn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`os.write` may take only part of a record (a full disk, a signal); `append` must
    write the rest rather than leave a torn record behind a running app."""
    real_write = os.write
    calls: list[int] = []

    def short_write(descriptor: int, data: bytes) -> int:
        calls.append(len(data))
        return real_write(descriptor, bytes(data[:100]))

    store = HistoryStore(tmp_path / STORED)
    monkeypatch.setattr(history.os, "write", short_write)
    store.append(refused("a question long enough to need several writes " * 20, Reason.NO_EVIDENCE))
    monkeypatch.undo()
    store.append(refused("the next question", Reason.NO_EVIDENCE))

    assert len(calls) > 1
    loaded = store.load()
    assert loaded.warnings == []
    assert [turn.question for turn in loaded.turns][1] == "the next question"
    assert loaded.turns[0].question.startswith("a question long enough")


def test_a_huge_refused_question_is_kept_to_its_first_4000_characters(tmp_path: Path) -> None:
    question = "how much salt " + "x" * (5 * 1024 * 1024)
    store = HistoryStore(tmp_path / STORED)
    outcome = refused(question, Reason.TOO_LONG)
    store.append(outcome)
    turn = Turn.of(outcome, ASKED_AT)
    assert MAX_QUESTION_CHARS == 4000
    assert turn.question == question[:4000]
    assert turn.status == "refused: the question is over 4,000 characters"
    assert store.path.stat().st_size < 10_000
    (loaded,) = HistoryStore(tmp_path / STORED).load().turns
    assert loaded.question == question[:4000]
    assert loaded.record.outcome == "refused"


def test_a_live_turn_reads_back_the_same_after_a_restart(tmp_path: Path) -> None:
    """The chat shows a live outcome and its stored record alike."""
    flagged = replace(
        answered("how much salt?", EVIDENCE, "10 g. [source:pasta-water]"),
        support=SupportReport(False, ("10 g.",)),
    )
    outcomes = [flagged, refused("capital of france?", Reason.NO_EVIDENCE)]
    store = HistoryStore(tmp_path / STORED)
    live = []
    for outcome in outcomes:
        store.append(outcome, "2026-01-02T03:04:05+00:00")
        live.append(Turn.of(outcome, "2026-01-02T03:04:05+00:00"))
    assert HistoryStore(tmp_path / STORED).load().turns == live
    assert live[0].record.unsupported_sentences == ("10 g.",) and live[0].record.line is not None


# Records as earlier versions wrote them: the first kind (the passage as `lesson_id`, no
# lines, passages, quotes or retrieval), and one from just before the outward record.
EARLIER_RECORDS = [
    '{"version": 1, "asked_at": "2025-12-01T04:37:04+00:00", "status": "answered", '
    '"outcome": {"question": "how much salt?", "outcome": "answered", "reason": null, '
    '"lesson_id": "pasta-water", "title": "Salting pasta water", "source_path": '
    '"lessons/pasta-water.md", "answer": "Salt it. [source:pasta-water]", "citations": '
    '["pasta-water"], "support": null, "elapsed_ms": 3, "matched_words": ["salt"], '
    '"score": 2, "runner_up_score": null}}',
    '{"version": 1, "asked_at": "2026-01-02T03:04:06+00:00", "status": "refused: several '
    'passages might answer this: ctrl+down to step", "outcome": {"question": "eggs or '
    'pasta?", "outcome": "refused", "reason": "ambiguous", "retrieval": "ranked", '
    '"passage_id": null, "lesson_id": null, "title": null, "source_path": null, "line": '
    'null, "end_line": null, "passages": [], "nearest": [{"id": "pasta-water", "title": '
    '"Salting pasta water", "source_path": "lessons/pasta-water.md", "line": 3, '
    '"end_line": 9}], "answer": null, "citations": [], "quotes": [], "support": null, '
    '"elapsed_ms": 0, "matched_words": [], "score": null, "runner_up_score": null, '
    '"confidence": 0.5}}',
]


def test_history_written_by_earlier_versions_still_loads(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / STORED)
    store.path.write_text("\n".join(EARLIER_RECORDS) + "\n", encoding="utf-8")

    loaded = store.load()

    assert loaded.warnings == []
    first, second = loaded.turns
    assert first.record.answered and first.record.answer == "Salt it. [source:pasta-water]"
    assert first.record.passage_id == first.record.lesson_id == "pasta-water"
    assert first.record.location == "lessons/pasta-water.md"
    assert (first.record.passages, first.record.quotes, first.record.retrieval) == ([], [], None)
    assert second.status.startswith("refused: several passages might answer this")
    assert [passage.id for passage in second.record.nearest] == ["pasta-water"]
    # Read back, each is written again as it was read, its passages of no library name
    # and no pages.
    earlier = json.loads(EARLIER_RECORDS[1])["outcome"]
    no_pages = {"page": None, "end_page": None, "url": None}
    earlier["nearest"] = [{**near, "library": "", **no_pages} for near in earlier["nearest"]]
    # Fields added since read as null: no pages, nobody chose, no model answer was refused,
    # no embedding under way.
    earlier |= {**no_pages, "chosen_by": None, "detail": None, "embedding": None}
    assert earlier == second.record.model_dump(mode="json")


def test_libraries_searched_together_have_a_history_of_their_own(tmp_path: Path) -> None:
    docs, api = tmp_path / "docs", tmp_path / "api"
    alone = history_path(tmp_path, docs)
    together = history_path(tmp_path, [docs, api])
    assert alone == history_path(tmp_path, [docs])
    assert together.parent == alone.parent and together != alone
    assert together.name.startswith("docs+api-")
    assert together != history_path(tmp_path, [api, docs])


def test_an_exported_conversation_is_private_as_the_history_is(tmp_path: Path) -> None:
    turns = [Turn.of(answered("how much salt?", EVIDENCE, "10 g. [source:pasta-water]"), ASKED_AT)]
    path = history.export_conversation(turns, tmp_path / "exports")
    assert path.read_text(encoding="utf-8").startswith("# Conversation")
    assert path.stat().st_mode & 0o777 == 0o600
