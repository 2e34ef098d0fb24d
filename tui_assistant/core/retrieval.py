"""Keyword retrieval: the seed's distinct-word rule, over an inverted index.

The rule (`TUI_ASSISTANT_RETRIEVAL=keyword`): each *distinct* normalised question word
scores 2 for a lesson whose title has it, else 1 if its body has it; a lesson needs at
least two distinct matching words; the best score wins, and a tie at the best score
returns no lesson. Scoring walks the postings of the question's words only, so a
question costs in proportion to how many lessons share its words, not to the size of
the library.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tui_assistant.core.lessons import Lesson
from tui_assistant.core.text import normalise, normalise_distinct

TITLE_WEIGHT = 2
BODY_WEIGHT = 1
MIN_DISTINCT_MATCHES = 2


@dataclass(frozen=True, slots=True)
class Evidence:
    """The one lesson retrieval chose, and why it won."""

    lesson: Lesson
    matched_words: tuple[str, ...]
    score: float
    runner_up_score: float | None


class Retriever(Protocol):
    def retrieve(self, question: str) -> Evidence | None:
        """The single lesson that answers `question`, or None to refuse."""
        ...


def question_keys(question: str) -> list[str]:
    """Distinct normalised words of a question, in the order they first appear."""
    return list(dict.fromkeys(normalise(question)))


class KeywordIndex:
    """Inverted index for the distinct-word rule: word -> lesson numbers, per field."""

    def __init__(self, lessons: Sequence[Lesson]) -> None:
        self.lessons: tuple[Lesson, ...] = tuple(lessons)
        self._title: dict[str, array[int]] = {}
        self._body_only: dict[str, array[int]] = {}
        for number, lesson in enumerate(self.lessons):
            title_keys = normalise_distinct(lesson.title)
            for key in title_keys:
                self._title.setdefault(key, array("i")).append(number)
            for key in normalise_distinct(lesson.text) - title_keys:
                self._body_only.setdefault(key, array("i")).append(number)

    def retrieve(self, question: str) -> Evidence | None:
        keys = question_keys(question)
        scores: dict[int, int] = {}
        matched: dict[int, list[str]] = {}
        for key in keys:
            for postings, weight in ((self._title, TITLE_WEIGHT), (self._body_only, BODY_WEIGHT)):
                for number in postings.get(key, ()):
                    scores[number] = scores.get(number, 0) + weight
                    matched.setdefault(number, []).append(key)
        candidates = [
            (score, number)
            for number, score in scores.items()
            if len(matched[number]) >= MIN_DISTINCT_MATCHES
        ]
        if not candidates:
            return None
        candidates.sort(reverse=True)
        best_score, best = candidates[0]
        runner_up = candidates[1][0] if len(candidates) > 1 else None
        if runner_up == best_score:
            return None
        # Report matched words in question order, whatever order the postings gave.
        hits = set(matched[best])
        return Evidence(
            lesson=self.lessons[best],
            matched_words=tuple(key for key in keys if key in hits),
            score=best_score,
            runner_up_score=runner_up,
        )
