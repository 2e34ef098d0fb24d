"""The in-memory inverted index that both retrieval modes read.

For each content word (`text.content_words`) it keeps, per field (title, body), the
numbers of the passages that hold it and how often. The store keeps the same postings
word by word, so one stored index serves every retrieval mode: a mode's key function
(`text.stem` for `keyword`) groups the words that share a key, and `title(key)` /
`body(key)` return the postings of all of them together. A question walks only the
postings of its own keys.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import accumulate, chain
from typing import NamedTuple

KeyFunction = Callable[[str], str]

# Passage numbers: unsigned 32-bit. Counts: unsigned 16-bit; a passage holds at most
# 4,000 characters, so no word can occur 65,536 times in one.
NUMBER_TYPECODE = "I"
COUNT_TYPECODE = "H"


class Postings(NamedTuple):
    """Passage numbers holding a word (or key) in one field, ascending, and its count in
    each."""

    numbers: array[int]
    counts: array[int]


def new_postings() -> Postings:
    return Postings(array(NUMBER_TYPECODE), array(COUNT_TYPECODE))


_NO_POSTINGS = new_postings()


class InvertedIndex:
    """Word postings per field, looked up by key; every passage's field lengths."""

    def __init__(
        self,
        title: Mapping[str, Postings],
        body: Mapping[str, Postings],
        title_lengths: array[int],
        body_lengths: array[int],
        key: KeyFunction,
        keys: Mapping[str, str] | None = None,
    ) -> None:
        self._title = title
        self._body = body
        self.title_lengths = title_lengths
        self.body_lengths = body_lengths
        self.key = key
        self._words: dict[str, list[str]] = {}
        # `keys`: the words whose key is not the word itself, with it (kept with a
        # stored index), so that opening it does not compute every word's key.
        words = title.keys() | body.keys()
        if keys is None:
            for word in words:
                self._words.setdefault(key(word), []).append(word)
            return
        self._words = {word: [word] for word in words if word not in keys}
        for word, found in keys.items():
            if word in words:
                self._words.setdefault(found, []).append(word)

    def __len__(self) -> int:
        return len(self.title_lengths)

    def keys(self) -> Iterable[str]:
        """Every key some passage holds."""
        # A field read from the store lists words only passages left out hold.
        return [
            key
            for key, words in self._words.items()
            if any(word in self._title or word in self._body for word in words)
        ]

    def title(self, key: str) -> Postings:
        return self._postings(self._title, key)

    def body(self, key: str) -> Postings:
        return self._postings(self._body, key)

    def holders(self, key: str) -> Iterator[int]:
        """The numbers of the passages holding `key` in their title or body, some more
        than once, in no order: for a question about who holds a key, without summing
        the counts of the words that share it as `title` and `body` do."""
        for word in self._words.get(key, ()):
            for field in (self._title, self._body):
                postings = field.get(word)
                if postings is not None:
                    yield from postings.numbers

    def _postings(self, field: Mapping[str, Postings], key: str) -> Postings:
        found = [field[word] for word in self._words.get(key, ()) if word in field]
        if not found:
            return _NO_POSTINGS
        if len(found) == 1:
            return found[0]
        # Several words share the key (`boil`, `boiling`): one passage, summed counts,
        # numbers ascending like every postings list.
        totals: Counter[int] = Counter()
        for postings in found:
            for number, count in zip(postings.numbers, postings.counts, strict=True):
                totals[number] += count
        numbers = sorted(totals)
        return Postings(
            array(NUMBER_TYPECODE, numbers), array("I", map(totals.__getitem__, numbers))
        )


def concatenated(indexes: Sequence[InvertedIndex]) -> InvertedIndex:
    """One index over the passages of `indexes` in turn: the second one's passage
    numbers follow the first one's, and so on (so every postings list stays ascending).
    All of them must share one key function."""
    if len(indexes) == 1:
        return indexes[0]
    offsets = list(accumulate((len(index) for index in indexes[:-1]), initial=0))
    title: dict[str, Postings] = {}
    body: dict[str, Postings] = {}
    for index, offset in zip(indexes, offsets, strict=True):
        for field, merged in ((index._title, title), (index._body, body)):
            for word, postings in field.items():
                numbers = (
                    postings.numbers
                    if offset == 0
                    else array(NUMBER_TYPECODE, [number + offset for number in postings.numbers])
                )
                found = merged.get(word)
                if found is None:
                    # Copies: the parts' own postings stay as they are.
                    merged[word] = Postings(
                        array(NUMBER_TYPECODE, numbers), array("I", postings.counts)
                    )
                else:
                    found.numbers.extend(numbers)
                    found.counts.extend(postings.counts.tolist())
    return InvertedIndex(
        title,
        body,
        array(NUMBER_TYPECODE, chain.from_iterable(index.title_lengths for index in indexes)),
        array(NUMBER_TYPECODE, chain.from_iterable(index.body_lengths for index in indexes)),
        indexes[0].key,
    )


def add_postings(field: dict[str, Postings], number: int, words: Iterable[str]) -> int:
    """Record passage `number`'s words in `field`; the number of words."""
    tally = Counter(words)
    for word, count in tally.items():
        try:
            numbers, counts = field[word]
        except KeyError:
            numbers, counts = field[word] = new_postings()
        numbers.append(number)
        counts.append(count)
    return tally.total()
