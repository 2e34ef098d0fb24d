"""Nothing lost, conversation history: writers killed with SIGKILL, then the next start.

Real processes and real files throughout. A writer process appends records with
`HistoryStore` (the app's own code for it) and is killed with `SIGKILL`, which nothing
can intercept, so no tidying up happens. Then `HistoryStore.load` and the real app
(`run_test`) start on what it left: every complete record is there, a torn record is
removed with one warning that names its line (the next load is quiet), and a record
appended before any load starts on a fresh line so it is never glued to the torn bytes.
"""

from __future__ import annotations

import random
import signal
import subprocess
import textwrap
import time
from pathlib import Path

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.processes import kill, start_python
from tests.helpers.tui import (
    ask,
    chat_text,
    history_loaded,
    make_app,
    make_context,
    notices,
    wait_until,
)
from tui_assistant.store.history import HistoryStore

SIZE = (100, 32)
ROUNDS = 8
# The size of the record being written at the kill: writing it takes milliseconds.
PADDING = 8 * 1024 * 1024

# Appends numbered records as fast as it can and prints each number once its append
# has returned, so a killed writer has told us about all but (at most) its last one.
# After the first `small` records each record is padded to megabytes, so writing it
# takes milliseconds and a kill can land inside the write.
# The history file the tests write (the app names its own by the library).
STORED = "conversation.jsonl"

LOOPING_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui_assistant.store.history import HistoryStore
    from tui_assistant.core.outcome import answered
    from tui_assistant.core.documents.passage import Passage
    from tui_assistant.core.retrieval.types import Evidence

    store = HistoryStore(Path(sys.argv[1]) / "conversation.jsonl")
    first, small, padding = int(sys.argv[2]), int(sys.argv[3]), "x" * int(sys.argv[4])
    passage = Passage("pasta-water", "Pasta water", "Salt it.", "lessons/pasta-water.md")
    evidence = Evidence((passage,), ("salt",), 1.0, None)
    for number in range(first, first + 1000):
        # A question is stored to its first 4,000 characters; an answer whole.
        answer = f"Salt it. {padding if number >= first + small else ''} [source:pasta-water]"
        store.append(answered(f"question {number}", evidence, answer))
        print(number, flush=True)
    """
)

# Appends `whole` records, then starts one more and is killed half-way through writing
# it: the kill is certain to land mid-write, whatever the timing.
KILLED_MID_RECORD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from tui_assistant.store import history
    from tui_assistant.core.outcome import Reason, refused

    store = history.HistoryStore(Path(sys.argv[1]) / "conversation.jsonl")
    for number in range(int(sys.argv[2])):
        store.append(refused(f"whole question {number}", Reason.NO_EVIDENCE))
    real_write = os.write

    def write_half_then_die(descriptor, data):
        real_write(descriptor, data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)

    history.os.write = write_half_then_die
    store.append(refused("the torn question", Reason.NO_EVIDENCE))
    """
)


def numbers_in(store: HistoryStore) -> list[int]:
    loaded = store.load()
    # Only a torn last record may be damaged, and it is reported.
    assert all(warning.startswith("removed damaged history record") for warning in loaded.warnings)
    assert len(loaded.warnings) <= 1
    return [int(turn.question.split()[1]) for turn in loaded.turns]


def kill_after(
    writer: subprocess.Popen[str],
    history: Path,
    records: int,
    when_growing: bool,
    rng: random.Random,
) -> list[int]:
    """Let `writer` report `records` appends, then kill it, and return every number it
    reported (some may still have been in the pipe).

    `when_growing`: kill as soon as the file grows past its size at that moment, which
    is while the next record's write is under way; otherwise after a random pause, which
    lands anywhere in the next append (encoding, writing, fsync, reporting).
    """
    assert writer.stdout is not None
    told: list[int] = []
    try:
        while len(told) < records:
            line = writer.stdout.readline()
            assert line, "the writer stopped before it was killed"
            told.append(int(line))
        if when_growing:
            size = history.stat().st_size
            give_up = time.monotonic() + 5
            while history.stat().st_size == size and time.monotonic() < give_up:
                pass
        else:
            time.sleep(rng.uniform(0, 0.05))
    finally:
        rest = kill(writer)
    assert writer.returncode == -signal.SIGKILL, "the writer ended before it was killed"
    return told + [int(line) for line in rest.split()]


def test_writers_killed_mid_append_again_and_again_lose_no_complete_record(
    tmp_path: Path,
) -> None:
    store = HistoryStore(tmp_path / STORED)
    rng = random.Random(6)
    expected: list[int] = []
    torn_tails = 0
    for round_number in range(ROUNDS):
        first = round_number * 1000
        small = rng.randrange(1, 4)
        writer = start_python(LOOPING_WRITER, str(tmp_path), str(first), str(small), str(PADDING))
        told = kill_after(writer, store.path, small, round_number % 2 == 0, rng)
        assert told == list(range(first, first + len(told)))

        torn_tails += not store.path.read_bytes().endswith(b"\n")
        found = numbers_in(store)
        # Every record a writer finished is there, in order, once; at most one more per
        # kill (written, but killed before it could say so).
        assert found[: len(expected)] == expected
        this_round = found[len(expected) :]
        assert this_round in (told, [*told, first + len(told)])
        expected = found

        # `numbers_in` loaded once, which repaired the torn record (if any): the next
        # load is quiet, and the file ends with a whole record.
        # Never a complete record reported as damaged.
        assert store.load().warnings == []
        assert store.path.read_bytes().endswith(b"\n")
    # The kills did tear records (killing while the file grows nearly always does),
    # so the checks above saw repairs.
    assert torn_tails >= 1
    # One line per record: no line holds two records, no torn bytes are left.
    lines = [line for line in store.path.read_bytes().split(b"\n") if line]
    assert len(lines) == len(expected)


def kill_mid_record(folder: Path, whole: int) -> None:
    writer = start_python(KILLED_MID_RECORD, str(folder), str(whole))
    _, stderr = writer.communicate(timeout=30)
    assert writer.returncode == -signal.SIGKILL, stderr


def test_a_torn_last_record_is_removed_once_with_a_warning(tmp_path: Path) -> None:
    kill_mid_record(tmp_path, whole=3)
    store = HistoryStore(tmp_path / STORED)
    assert not store.path.read_bytes().endswith(b"\n")  # the kill did tear a record

    loaded = store.load()
    assert [turn.question for turn in loaded.turns] == [f"whole question {n}" for n in range(3)]
    assert len(loaded.warnings) == 1
    assert loaded.warnings[0].startswith("removed damaged history record on line 4")
    # Repaired: the next start has nothing to say.
    again = HistoryStore(tmp_path / STORED).load()
    assert again.warnings == [] and again.turns == loaded.turns


def test_a_torn_record_written_past_is_removed_from_the_middle(tmp_path: Path) -> None:
    kill_mid_record(tmp_path, whole=3)
    # Another killed writer before any load: the first torn record is now in the middle.
    kill_mid_record(tmp_path, whole=2)
    loaded = HistoryStore(tmp_path / STORED).load()
    assert [turn.question for turn in loaded.turns] == [
        *(f"whole question {n}" for n in range(3)),
        *(f"whole question {n}" for n in range(2)),
    ]
    assert [warning.split(" (")[0] for warning in loaded.warnings] == [
        "removed damaged history record on line 4",
        "removed damaged history record on line 7",
    ]
    assert HistoryStore(tmp_path / STORED).load().warnings == []


async def test_the_app_starts_on_a_torn_history_and_keeps_every_complete_turn(
    tmp_path: Path,
) -> None:
    kill_mid_record(tmp_path, whole=3)

    app = make_app(make_context(BUNDLED_LESSONS, tmp_path), HistoryStore(tmp_path / STORED))
    async with app.run_test(size=SIZE) as pilot:
        await history_loaded(app)
        await pilot.pause()
        shown = chat_text(app)
        assert "earlier conversation (3 turns)" in shown
        for number in range(3):
            assert f"> whole question {number}" in shown
        assert "the torn question" not in shown
        [warning] = notices(app)
        assert warning.startswith("warning: removed damaged history record on line 4")
        # The app's own next turn is stored on a line of its own.
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: len(app.main.transcript.turns) == 4)

    again = make_app(make_context(BUNDLED_LESSONS, tmp_path), HistoryStore(tmp_path / STORED))
    async with again.run_test(size=SIZE) as pilot:
        await history_loaded(again)
        await pilot.pause()
        # The torn record was removed at the first start: no warning now.
        assert "earlier conversation (4 turns)" in chat_text(again)
        assert "> how much salt for pasta water" in chat_text(again)
        assert "source: lessons/pasta-water.md" in chat_text(again)
        assert notices(again) == []
    stored = (tmp_path / STORED).read_bytes()
    assert stored.endswith(b"\n")
    assert stored.count(b"\n") == 4  # the 3 whole records and the new one
