"""The inverted index that every retrieval mode reads.

For each normalised word it keeps, per field (title, body), the lesson numbers that
contain it (ascending) and how often. Retrieval walks only the postings of the
question's words.

Compact on purpose, because a library can hold a hundred thousand files: each field
stores all its postings in two flat arrays of machine integers (lesson numbers and
counts) plus one offset per word, instead of a Python object per word or per posting.
`title(word)` / `body(word)` hand out `Postings` slices of those arrays. The flat
layout is also what the on-disk cache stores (`IndexSnapshot`), so a warm start loads
arrays with one `frombytes` each instead of re-reading every lesson.

For the keyword rule, `presence(word)` gives the set of lessons holding a word as a
Python integer used as a bit set, so a question's scores are added up with a few
bitwise operations over whole libraries at C speed. Bit sets of common words are
memoised; a word's bit set is kept only when it is no larger than its postings.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from tui_assistant.core.lessons import Lesson
from tui_assistant.core.text import STOPWORDS, stem, without_escape_sequences

_EMPTY = array("i")
# Lesson numbers and offsets: 32-bit signed is the type every platform has; a
# library is far below 2**31 lessons or postings.
LESSON_TYPECODE = "i"


@dataclass(frozen=True, slots=True)
class Postings:
    """Lesson numbers holding one word in one field, and the word's count in each."""

    lessons: array[int]
    counts: array[int]


_NO_POSTINGS = Postings(_EMPTY, _EMPTY)


@dataclass(frozen=True, slots=True)
class FieldSnapshot:
    """One field's postings, flat: word k owns `lessons[starts[k]:starts[k + 1]]`."""

    words: tuple[str, ...]
    starts: array[int]
    lessons: array[int]
    counts: array[int]


@dataclass(frozen=True, slots=True)
class IndexSnapshot:
    """Everything an index holds besides the lessons: what the disk cache stores."""

    title: FieldSnapshot
    body: FieldSnapshot
    title_lengths: array[int]
    body_lengths: array[int]


class _Field:
    """Postings of one field in flat arrays, looked up by word."""

    __slots__ = ("counts", "lessons", "slots", "snapshot", "starts")

    def __init__(self, snapshot: FieldSnapshot) -> None:
        self.snapshot = snapshot
        self.starts = snapshot.starts
        self.lessons = snapshot.lessons
        self.counts = snapshot.counts
        self.slots: dict[str, int] = {word: slot for slot, word in enumerate(snapshot.words)}

    def postings(self, word: str) -> Postings:
        slot = self.slots.get(word)
        if slot is None:
            return _NO_POSTINGS
        start, end = self.starts[slot], self.starts[slot + 1]
        return Postings(self.lessons[start:end], self.counts[start:end])

    def frequency(self, word: str) -> int:
        """How many lessons hold `word` in this field."""
        slot = self.slots.get(word)
        return 0 if slot is None else self.starts[slot + 1] - self.starts[slot]


class InvertedIndex:
    def __init__(self, lessons: Sequence[Lesson]) -> None:
        self._setup(tuple(lessons), build_snapshot(lessons))

    @classmethod
    def from_snapshot(cls, lessons: Sequence[Lesson], snapshot: IndexSnapshot) -> InvertedIndex:
        """An index over `lessons` from postings built earlier (the disk cache)."""
        if not (len(snapshot.title_lengths) == len(snapshot.body_lengths) == len(lessons)):
            raise ValueError("snapshot does not describe these lessons")
        index = cls.__new__(cls)
        index._setup(tuple(lessons), snapshot)
        return index

    def _setup(self, lessons: tuple[Lesson, ...], snapshot: IndexSnapshot) -> None:
        self.lessons: tuple[Lesson, ...] = lessons
        self.title_lengths: array[int] = snapshot.title_lengths
        self.body_lengths: array[int] = snapshot.body_lengths
        self._title = _Field(snapshot.title)
        self._body = _Field(snapshot.body)
        self._presence: dict[str, int] = {}
        self._title_presence: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.lessons)

    def title(self, word: str) -> Postings:
        return self._title.postings(word)

    def body(self, word: str) -> Postings:
        return self._body.postings(word)

    def snapshot(self) -> IndexSnapshot:
        return IndexSnapshot(
            title=self._title.snapshot,
            body=self._body.snapshot,
            title_lengths=self.title_lengths,
            body_lengths=self.body_lengths,
        )

    def presence(self, word: str) -> int:
        """Bit set of the lessons holding `word` in their title or body (bit n = lesson n)."""
        known = self._presence.get(word)
        if known is not None:
            return known
        numbers = [self.title(word).lessons, self.body(word).lessons]
        bits = _bit_set(len(self.lessons), numbers)
        if self._worth_keeping(sum(map(len, numbers))):
            self._presence[word] = bits
        return bits

    def title_presence(self, word: str) -> int:
        """Bit set of the lessons whose title holds `word`."""
        known = self._title_presence.get(word)
        if known is not None:
            return known
        numbers = self.title(word).lessons
        bits = _bit_set(len(self.lessons), [numbers])
        if self._worth_keeping(len(numbers)):
            self._title_presence[word] = bits
        return bits

    def _worth_keeping(self, posting_count: int) -> bool:
        # A bit set costs len/8 bytes and its postings 4 bytes each: memoise only when
        # the bit set is no bigger, so the memo never more than doubles the index.
        return posting_count * 32 >= len(self.lessons)


def _bit_set(size: int, number_lists: Iterable[array[int]]) -> int:
    bits = bytearray((size >> 3) + 1)
    for numbers in number_lists:
        for number in numbers:
            bits[number >> 3] |= 1 << (number & 7)
    return int.from_bytes(bits, "little")


class _KeyTable(dict[str | bytes, tuple[str, ...]]):
    """Memo from a raw token to the match keys it yields (mostly one; none for a stopword).

    Mirrors `text.normalise` token by token; a library repeats the same few thousand
    words millions of times, so each distinct token is tokenized and stemmed once. A
    token is either a word of the regex tokenizer (str) or a run of ASCII letters,
    digits and apostrophes from the fast path (bytes), which the regex splits exactly
    as `text.words` would.
    """

    def __missing__(self, token: str | bytes) -> tuple[str, ...]:
        text = token.decode("ascii") if isinstance(token, bytes) else token
        keys = tuple(key for key in map(_word_key, _WORD.findall(text)) if key is not None)
        self[token] = keys
        return keys


def _word_key(word: str) -> str | None:
    """`text.normalise` for one lower-case word: its key, or None when it is dropped."""
    if word in STOPWORDS:
        return None
    word = word.replace("'", "")
    if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
        return None
    return stem(word)


# The tokenizer of `text.words`; kept in step by the index-equivalence tests.
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
# ASCII fast path: lower-case letters, keep digits and apostrophes, everything else
# separates words. For ASCII text, casefold() is lower() and the regex's word
# characters are exactly [a-z0-9].
_ASCII_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789'")
_ASCII_WORDS = bytes(
    byte + 32 if 65 <= byte <= 90 else byte if byte in _ASCII_WORD_BYTES else 32
    for byte in range(256)
)


def key_normaliser() -> Callable[[str], list[str]]:
    """A `text.normalise` with a private memo, for normalising many texts in a row."""
    table = _KeyTable()
    lookup = table.__getitem__
    findall = _WORD.findall
    flatten = chain.from_iterable

    def normalise(text: str) -> list[str]:
        text = without_escape_sequences(text)
        if text.isascii():
            tokens: list[Any] = text.encode("ascii").translate(_ASCII_WORDS).split()
        else:
            tokens = findall(text.casefold())
        return list(flatten(map(lookup, tokens)))

    return normalise


class _FieldBuilder:
    """Per-word postings of one field while an index is built.

    Counts start as one byte each (almost every count is below 256) and a word's
    count array widens only when one of its counts does not fit: a hundred thousand
    lessons make some twelve million postings, so four-byte counts would cost
    36 MB more while building.
    """

    __slots__ = ("counts", "lessons")

    def __init__(self) -> None:
        self.lessons: dict[str, array[int]] = {}
        self.counts: dict[str, array[int]] = {}

    def add(self, number: int, keys: list[str]) -> None:
        # The hot loop of a cold start: one step per distinct word of every lesson.
        # (C-level map() variants measured no faster than this plain loop.)
        lessons, counts = self.lessons, self.counts
        for word, count in Counter(keys).items():
            numbers = lessons.get(word)
            if numbers is None:
                numbers = lessons[word] = array(LESSON_TYPECODE)
                counts[word] = array("B")
            numbers.append(number)
            try:
                counts[word].append(count)
            except OverflowError:
                counts[word] = widened = array("I", counts[word])
                widened.append(count)

    def finish(self) -> FieldSnapshot:
        words = tuple(self.lessons)
        total = sum(map(len, self.lessons.values()))
        count_typecode = "I" if any(c.typecode != "B" for c in self.counts.values()) else "B"
        starts = array(LESSON_TYPECODE, bytes(array(LESSON_TYPECODE).itemsize * (len(words) + 1)))
        all_lessons = array(LESSON_TYPECODE)
        all_counts = array(count_typecode)
        position = 0
        for slot, word in enumerate(words):
            # Pop as we go so the per-word arrays are freed while the flat ones grow.
            numbers = self.lessons.pop(word)
            all_lessons.extend(numbers)
            word_counts = self.counts.pop(word)
            if word_counts.typecode == count_typecode:
                all_counts.extend(word_counts)
            else:
                all_counts.extend(array(count_typecode, word_counts))
            position += len(numbers)
            starts[slot + 1] = position
        assert position == total
        return FieldSnapshot(words, starts, all_lessons, compact_counts(all_counts))


def compact_counts(counts: array[int]) -> array[int]:
    """The smallest unsigned array type that holds every count exactly."""
    largest = max(counts, default=0)
    for typecode in ("B", "H", "I"):
        if largest < 1 << (8 * array(typecode).itemsize):
            return array(typecode, counts) if typecode != counts.typecode else counts
    return counts


class IndexBuilder:
    """Builds an index's postings one lesson at a time, in library order.

    Lets the library loader hand each lesson over as it is read, so a library whose
    texts stay on disk is indexed in the same single pass over its files.
    """

    def __init__(self) -> None:
        self._normalise = key_normaliser()
        self._title = _FieldBuilder()
        self._body = _FieldBuilder()
        self._title_lengths = array(LESSON_TYPECODE)
        self._body_lengths = array(LESSON_TYPECODE)

    def add(self, lesson: Lesson) -> None:
        number = len(self._title_lengths)
        title_keys = self._normalise(lesson.title)
        body_keys = self._normalise(lesson.text)
        self._title_lengths.append(len(title_keys))
        self._body_lengths.append(len(body_keys))
        self._title.add(number, title_keys)
        self._body.add(number, body_keys)

    def finish(self) -> IndexSnapshot:
        return IndexSnapshot(
            self._title.finish(), self._body.finish(), self._title_lengths, self._body_lengths
        )


def build_snapshot(lessons: Sequence[Lesson]) -> IndexSnapshot:
    builder = IndexBuilder()
    for lesson in lessons:
        builder.add(lesson)
    return builder.finish()
