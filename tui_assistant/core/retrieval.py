"""Keyword retrieval: the distinct-word rule, over the inverted index.

The rule (`TUI_ASSISTANT_RETRIEVAL=keyword`): each *distinct* normalised question word
scores 2 for a passage whose title has it, else 1 if its body has it; a passage needs
at least two distinct matching words; the best score wins, and a tie at the best score
returns no passage. Scoring walks the postings of the question's words only, so a
question costs in proportion to how many passages share its words, not to the size of
the library.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice
from operator import countOf
from typing import Protocol

from tui_assistant.core.index import KeyFunction
from tui_assistant.core.library import Library
from tui_assistant.core.passages import Passage
from tui_assistant.core.text import content_words, stem

TITLE_WEIGHT = 2
BODY_WEIGHT = 1
MIN_DISTINCT_MATCHES = 2


@dataclass(frozen=True, slots=True)
class Evidence:
    """The one passage retrieval chose, and why it won."""

    passage: Passage
    matched_words: tuple[str, ...]
    score: float
    runner_up_score: float | None


class Retriever(Protocol):
    library: Library

    def retrieve(self, question: str) -> Evidence | None:
        """The single passage that answers `question`, or None to refuse."""
        ...


def question_keys(question: str, key: KeyFunction = stem) -> list[str]:
    """Distinct keys of a question's content words, in the order they first appear."""
    return list(dict.fromkeys(map(key, content_words(question))))


class KeywordRetriever:
    """The distinct-word rule: per passage, 1 for each question word it holds anywhere
    plus 1 more when its title holds it (title 2, body 1)."""

    key: KeyFunction = staticmethod(stem)

    def __init__(self, library: Library) -> None:
        self.library = library

    def retrieve(self, question: str) -> Evidence | None:
        index = self.library.index
        # A passage's score: 1 per question word it holds anywhere, plus 1 more when
        # its title holds it. Counted straight from the postings, so a word costs one
        # pass over the passages that hold it.
        scores: Counter[int] = Counter()
        present: list[tuple[str, array[int], array[int]]] = []
        for key in question_keys(question, self.key):
            in_title, in_body = index.title(key).numbers, index.body(key).numbers
            if not in_title and not in_body:
                continue
            present.append((key, in_title, in_body))
            scores.update(in_body)
            scores.update(_missing_from(in_title, in_body))
            scores.update(in_title)
        if not scores:
            return None
        values = list(scores.values())
        best_score = max(values)
        if best_score < TITLE_WEIGHT + BODY_WEIGHT:
            # One word in a title also scores 2: only here must matches be counted.
            return self._weak_question(present, scores)
        if countOf(values, best_score) > 1:
            return None  # a tie at the best score
        winner = next(islice(scores, values.index(best_score), None))
        scores[winner] = 0
        runner_up: int | None = max(scores.values())
        if runner_up == MIN_DISTINCT_MATCHES * BODY_WEIGHT:
            runner_up = runner_up if _matched_twice(present, scores, runner_up) else None
        elif runner_up is not None and runner_up < MIN_DISTINCT_MATCHES * BODY_WEIGHT:
            runner_up = None
        return self._evidence(present, winner, best_score, runner_up)

    def _weak_question(
        self, present: list[tuple[str, array[int], array[int]]], scores: Counter[int]
    ) -> Evidence | None:
        """The best score is 2 or less: only passages with two distinct words (two body
        matches, score 2) compete."""
        qualified = _matched_twice(present, scores, MIN_DISTINCT_MATCHES * BODY_WEIGHT)
        if len(qualified) != 1:
            return None
        return self._evidence(present, qualified[0], MIN_DISTINCT_MATCHES * BODY_WEIGHT, None)

    def _evidence(
        self,
        present: list[tuple[str, array[int], array[int]]],
        winner: int,
        score: int,
        runner_up: int | None,
    ) -> Evidence:
        return Evidence(
            passage=self.library.passage(winner),
            matched_words=tuple(
                key
                for key, in_title, in_body in present
                if _holds(in_body, winner) or _holds(in_title, winner)
            ),
            score=score,
            runner_up_score=runner_up,
        )


# Below this many title postings, looking each one up in the body postings is cheaper
# than a pass over all of them.
_LOOKUP_LIMIT = 1000


def _missing_from(numbers: array[int], others: array[int]) -> Iterable[int]:
    """The passage numbers in `numbers` that are not in `others` (both ascending)."""
    if len(numbers) <= _LOOKUP_LIMIT:
        return [number for number in numbers if not _holds(others, number)]
    return set(numbers).difference(others)


def _holds(numbers: array[int], number: int) -> bool:
    """Whether ascending `numbers` holds `number`."""
    place = bisect_left(numbers, number)
    return place < len(numbers) and numbers[place] == number


def _matched_twice(
    present: list[tuple[str, array[int], array[int]]], scores: Counter[int], score: int
) -> list[int]:
    """The passages scoring `score` that hold at least two distinct question words."""
    candidates = [number for number, value in scores.items() if value == score]
    matches: Counter[int] = Counter()
    wanted = set(candidates)
    for _, in_title, in_body in present:
        hits = wanted.intersection(in_body)
        hits.update(wanted.intersection(in_title))
        matches.update(hits)
    return [number for number in candidates if matches[number] >= MIN_DISTINCT_MATCHES]
