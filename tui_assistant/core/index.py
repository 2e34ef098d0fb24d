"""The in-memory inverted index that both retrieval modes read.

For each match key it keeps, per field (title, body), the numbers of the passages that
hold it (ascending) and how often. A question walks only the postings of its own
keys. Keys come from a passage's content words (what the store keeps) through the
retrieval mode's key function (`text.stem` for `keyword`), so the same stored words
serve every mode.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

KeyFunction = Callable[[str], str]

# Passage numbers: unsigned 32-bit. Counts: unsigned 16-bit; a passage holds at most
# 4,000 characters, so no word can occur 65,536 times in one.
NUMBER_TYPECODE = "I"
COUNT_TYPECODE = "H"


@dataclass(frozen=True, slots=True)
class Postings:
    """Passage numbers holding one key in one field, and the key's count in each."""

    numbers: array[int]
    counts: array[int]


_NO_POSTINGS = Postings(array(NUMBER_TYPECODE), array(COUNT_TYPECODE))


class InvertedIndex:
    """Postings per field, and every passage's field lengths (in keys)."""

    def __init__(
        self,
        title: dict[str, Postings],
        body: dict[str, Postings],
        title_lengths: array[int],
        body_lengths: array[int],
    ) -> None:
        self._title = title
        self._body = body
        self.title_lengths = title_lengths
        self.body_lengths = body_lengths

    def __len__(self) -> int:
        return len(self.title_lengths)

    def title(self, key: str) -> Postings:
        return self._title.get(key, _NO_POSTINGS)

    def body(self, key: str) -> Postings:
        return self._body.get(key, _NO_POSTINGS)


class _KeyMemo(dict[str, str]):
    """Word -> key, each distinct word keyed once: a library repeats a few thousand
    words millions of times."""

    def __init__(self, key: KeyFunction) -> None:
        super().__init__()
        self._key = key

    def __missing__(self, word: str) -> str:
        key = self[word] = self._key(word)
        return key


class IndexBuilder:
    """Builds an index one passage at a time, in library order."""

    def __init__(self, key: KeyFunction) -> None:
        self._keys = _KeyMemo(key)
        self._title: dict[str, Postings] = {}
        self._body: dict[str, Postings] = {}
        self._title_lengths = array(NUMBER_TYPECODE)
        self._body_lengths = array(NUMBER_TYPECODE)

    def add(self, title_words: Iterable[str], body_words: Iterable[str]) -> None:
        """Add the next passage by its content words (`text.content_words`)."""
        number = len(self._title_lengths)
        self._title_lengths.append(_add_field(self._title, number, self._keys, title_words))
        self._body_lengths.append(_add_field(self._body, number, self._keys, body_words))

    def finish(self) -> InvertedIndex:
        return InvertedIndex(self._title, self._body, self._title_lengths, self._body_lengths)


def _add_field(
    field: dict[str, Postings], number: int, keys: _KeyMemo, words: Iterable[str]
) -> int:
    tally = Counter(map(keys.__getitem__, words))
    for key, count in tally.items():
        postings = field.get(key)
        if postings is None:
            postings = field[key] = Postings(array(NUMBER_TYPECODE), array(COUNT_TYPECODE))
        postings.numbers.append(number)
        postings.counts.append(count)
    return tally.total()
