"""Keyword retrieval: the seed's distinct-word rule, over an inverted index.

The rule (`TUI_ASSISTANT_RETRIEVAL=keyword`): each *distinct* normalised question word
scores 2 for a lesson whose title has it, else 1 if its body has it; a lesson needs at
least two distinct matching words; the best score wins, and a tie at the best score
returns no lesson. Scoring walks the postings of the question's words only, so a
question costs in proportion to how many lessons share its words, not to the size of
the library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tui_assistant.core.index import InvertedIndex
from tui_assistant.core.lessons import Lesson
from tui_assistant.core.text import normalise

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


class KeywordRetriever:
    """The distinct-word rule, scored over the postings of the question's words."""

    def __init__(self, index: InvertedIndex) -> None:
        self.index = index

    def retrieve(self, question: str) -> Evidence | None:
        keys = question_keys(question)
        scores: dict[int, int] = {}
        matched: dict[int, list[str]] = {}
        for key in keys:
            in_title = self.index.title(key).lessons
            for number in in_title:
                scores[number] = scores.get(number, 0) + TITLE_WEIGHT
                matched.setdefault(number, []).append(key)
            title_set = set(in_title)
            for number in self.index.body(key).lessons:
                if number not in title_set:
                    scores[number] = scores.get(number, 0) + BODY_WEIGHT
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
        return Evidence(
            lesson=self.index.lessons[best],
            matched_words=tuple(matched[best]),
            score=best_score,
            runner_up_score=runner_up,
        )
