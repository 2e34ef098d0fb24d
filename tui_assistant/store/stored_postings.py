"""A field's postings read from the store's snapshot one word at a time.

A question walks the postings of its own words only, so a library opened to answer
one question reads those few rows (the `postings` table's key is (word, field)), not
every word's; each word read is kept for the next question. The words themselves are
listed once, without their postings, for the index's keys.
"""

from __future__ import annotations

import sqlite3
import threading
from array import array
from collections.abc import Iterator, Mapping

from tui_assistant.core.retrieval.index import NUMBER_TYPECODE, Postings, new_postings


class StoredPostings(Mapping[str, Postings]):
    """One field's postings, by word, numbered as the library numbers its passages
    (`number_of_row` maps a store row to that number), without the rows of
    `left_out` (repeated passages): a word that only they hold is not there."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        lock: threading.Lock,
        field: str,
        number_of_row: array[int],
        left_out: set[int],
    ) -> None:
        self._connection = connection
        self._lock = lock
        self._field = field
        self._number_of_row = number_of_row
        self._left_out = left_out
        self._read: dict[str, Postings | None] = {}
        with lock:
            self._words = frozenset(
                word
                for (word,) in connection.execute(
                    "SELECT word FROM postings WHERE field = ?", (field,)
                )
            )

    def __len__(self) -> int:
        return len(self._words) if not self._left_out else sum(1 for _ in self)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words) if not self._left_out else filter(self.__contains__, self._words)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or word not in self._words:
            return False
        # Only passages left out may hold it: its postings tell.
        return not self._left_out or self.get(word) is not None

    def keys(self) -> frozenset[str]:  # type: ignore[override]
        """The words listed, without reading their postings: with passages left out,
        some may be held by none (`in` tells)."""
        return self._words

    def __getitem__(self, word: str) -> Postings:
        if word not in self._read:
            self._read[word] = self._stored(word) if word in self._words else None
        found = self._read[word]
        if found is None:
            raise KeyError(word)
        return found

    def _stored(self, word: str) -> Postings | None:
        with self._lock:
            row = self._connection.execute(
                "SELECT numbers, counts FROM postings WHERE word = ? AND field = ?",
                (word, self._field),
            ).fetchone()
        if row is None:
            return None
        stored = new_postings()
        stored.numbers.frombytes(row[0])
        stored.counts.frombytes(row[1])
        rows, counts = stored.numbers, stored.counts
        if self._left_out and not self._left_out.isdisjoint(rows):
            places = [i for i, number in enumerate(rows) if number not in self._left_out]
            if not places:
                return None
            rows = array(rows.typecode, map(rows.__getitem__, places))
            counts = array(counts.typecode, map(counts.__getitem__, places))
        numbers = array(NUMBER_TYPECODE, map(self._number_of_row.__getitem__, rows))
        return Postings(numbers, counts)
