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
import tempfile
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, repeat
from typing import IO, Any

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


class _WordNumbers(dict[str, int]):
    """Word -> its number in a field, numbered in order of first appearance."""

    def __init__(self, words: list[str]) -> None:
        super().__init__()
        self.words = words

    def __missing__(self, word: str) -> int:
        number = self[word] = len(self.words)
        self.words.append(word)
        return number


@dataclass(slots=True)
class _Chunk:
    """Consecutive lessons' postings in lesson order: per lesson, its distinct words'
    numbers and counts. `numbers`/`counts` are None once written to the spill file."""

    sizes: array[int]
    numbers: array[int] | None
    counts: array[int] | None
    number_typecode: str
    count_typecode: str
    posting_count: int


# Postings per chunk: 1,048,576 take 3 MB in memory before the chunk is spilled.
CHUNK_POSTINGS = 1 << 20


class _FieldBuilder:
    """Postings of one field while an index is built, kept lesson by lesson.

    While files are read, each lesson's distinct words are appended as word numbers
    to a chunk array (two bytes each while the field has under 65,536 words), their
    counts to another (one byte each while every count is below 256). A full chunk
    is written to an unnamed temporary file, so memory holds one chunk, not the
    whole library's postings. Only `finish` turns them into the word-by-word flat
    arrays, written into arrays allocated once at their exact size while the chunks
    are read back. A hundred thousand lessons make some twelve million postings:
    one growing Python array per word, copied into the flat arrays at the end, cost
    about three times the memory of the flat arrays; postings kept in memory in
    lesson order would still cost half as much again while the flat arrays fill.
    If no temporary file can be made, chunks stay in memory.
    """

    __slots__ = ("chunks", "counts", "numbers", "sizes", "spill", "word_numbers", "words")

    def __init__(self) -> None:
        self.words: list[str] = []
        self.numbers = _WordNumbers(self.words)
        self.chunks: list[_Chunk] = []
        self.spill: IO[bytes] | None = None
        self._new_chunk()

    def _new_chunk(self) -> None:
        self.word_numbers = array("H" if len(self.words) <= 1 << 16 else LESSON_TYPECODE)
        self.counts = array("B")
        # How many distinct words each lesson has, in lesson order.
        self.sizes = array(LESSON_TYPECODE)

    def add(self, keys: list[str]) -> None:
        # The hot loop of a cold start, kept to C-level calls per lesson.
        tally = Counter(keys)
        numbers = list(map(self.numbers.__getitem__, tally))
        if self.word_numbers.typecode == "H" and len(self.words) > 1 << 16:
            self.word_numbers = array(LESSON_TYPECODE, self.word_numbers)
        self.word_numbers.extend(numbers)
        counts = self.counts
        filled = len(counts)
        try:
            counts.extend(tally.values())
        except OverflowError:
            del counts[filled:]  # extend stops part way through
            self.counts = counts = array("I", counts)
            counts.extend(tally.values())
        self.sizes.append(len(numbers))
        if len(counts) >= CHUNK_POSTINGS:
            self._close_chunk(spill=True)

    def _close_chunk(self, *, spill: bool) -> None:
        numbers, counts = self.word_numbers, self.counts
        chunk = _Chunk(self.sizes, numbers, counts, numbers.typecode, counts.typecode, len(counts))
        self.chunks.append(chunk)
        self._new_chunk()
        if not spill:
            return
        if self.spill is None:
            try:
                # Open across calls until finish() closes it; deleted by the system.
                self.spill = tempfile.TemporaryFile()  # noqa: SIM115
            except OSError:
                return
        try:
            numbers.tofile(self.spill)
            counts.tofile(self.spill)
        except OSError:
            return  # the chunk stays in memory (a partial write is never read back)
        chunk.numbers = chunk.counts = None

    def _chunk_postings(self) -> Iterator[tuple[array[int], array[int], array[int]]]:
        """Each chunk's lesson sizes, word numbers and counts, read back in order."""
        spill, position = self.spill, 0
        for chunk in self.chunks:
            numbers, counts = chunk.numbers, chunk.counts
            if numbers is None or counts is None:
                assert spill is not None
                spill.seek(position)
                numbers, counts = array(chunk.number_typecode), array(chunk.count_typecode)
                numbers.fromfile(spill, chunk.posting_count)
                counts.fromfile(spill, chunk.posting_count)
                position = spill.tell()
            yield chunk.sizes, numbers, counts

    def finish(self) -> FieldSnapshot:
        self._close_chunk(spill=False)
        words = tuple(self.words)
        self.numbers.clear()
        frequency = [0] * len(words)
        for _sizes, numbers, _counts in self._chunk_postings():
            for number, found in Counter(numbers).items():
                frequency[number] += found
        starts = array(LESSON_TYPECODE, [0])
        starts.extend(accumulate(frequency))
        del frequency
        total = starts[-1]
        wide = any(chunk.count_typecode != "B" for chunk in self.chunks)
        all_lessons = array(LESSON_TYPECODE, [0]) * total
        all_counts = array("I" if wide else "B", [0]) * total
        # Next free place of each word in the flat arrays.
        free = starts.tolist()
        take, put_lesson, put_count, advance = (
            free.__getitem__,
            all_lessons.__setitem__,
            all_counts.__setitem__,
            free.__setitem__,
        )
        lesson = 0
        for sizes, numbers, counts in self._chunk_postings():
            position = 0
            for size in sizes:
                if size:
                    end = position + size
                    lesson_words = numbers[position:end]
                    places = list(map(take, lesson_words))
                    # Each map runs to the end: setters return None, so any() never stops.
                    any(map(put_lesson, places, repeat(lesson, size)))
                    any(map(put_count, places, counts[position:end]))
                    any(map(advance, lesson_words, map(_NEXT, places)))
                    position = end
                lesson += 1
        self.chunks.clear()
        if self.spill is not None:
            self.spill.close()
            self.spill = None
        return FieldSnapshot(words, starts, all_lessons, compact_counts(all_counts))


_NEXT = (1).__add__


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
        title_keys = self._normalise(lesson.title)
        body_keys = self._normalise(lesson.text)
        self._title_lengths.append(len(title_keys))
        self._body_lengths.append(len(body_keys))
        self._title.add(title_keys)
        self._body.add(body_keys)

    def finish(self) -> IndexSnapshot:
        return IndexSnapshot(
            self._title.finish(), self._body.finish(), self._title_lengths, self._body_lengths
        )


def build_snapshot(lessons: Sequence[Lesson]) -> IndexSnapshot:
    builder = IndexBuilder()
    for lesson in lessons:
        builder.add(lesson)
    return builder.finish()
