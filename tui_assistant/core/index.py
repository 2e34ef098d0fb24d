"""The inverted index that every retrieval mode reads.

For each normalised word it keeps, per field (title, body), the lesson numbers that
contain it (ascending) and how often. Retrieval walks only the postings of the
question's words. Arrays of machine integers, not sets of Python ints, keep a large
library's index small.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tui_assistant.core.lessons import Lesson
from tui_assistant.core.text import normalise

_EMPTY = array("i")


@dataclass(frozen=True, slots=True)
class Postings:
    """Lesson numbers holding one word in one field, and the word's count in each."""

    lessons: array[int]
    counts: array[int]


_NO_POSTINGS = Postings(_EMPTY, _EMPTY)


class InvertedIndex:
    def __init__(self, lessons: Sequence[Lesson]) -> None:
        self.lessons: tuple[Lesson, ...] = tuple(lessons)
        self.title_lengths = array("i")
        self.body_lengths = array("i")
        self._title: dict[str, Postings] = {}
        self._body: dict[str, Postings] = {}
        for number, lesson in enumerate(self.lessons):
            title_words = normalise(lesson.title)
            body_words = normalise(lesson.text)
            self.title_lengths.append(len(title_words))
            self.body_lengths.append(len(body_words))
            _add(self._title, number, Counter(title_words))
            _add(self._body, number, Counter(body_words))

    def __len__(self) -> int:
        return len(self.lessons)

    def title(self, word: str) -> Postings:
        return self._title.get(word, _NO_POSTINGS)

    def body(self, word: str) -> Postings:
        return self._body.get(word, _NO_POSTINGS)


def _add(field: dict[str, Postings], number: int, counts: Counter[str]) -> None:
    for word, count in counts.items():
        postings = field.get(word)
        if postings is None:
            postings = field[word] = Postings(array("i"), array("i"))
        postings.lessons.append(number)
        postings.counts.append(count)
