"""Keyword retrieval: the distinct-word rule, over the inverted index.

The rule (`TUI_ASSISTANT_RETRIEVAL=keyword`): each *distinct* normalised question word
scores 2 for a passage whose title has it, else 1 if its body has it; a passage needs
at least two distinct matching words; the best score wins, and a tie at the best score
returns no passage. Scoring walks the postings of the question's words only, so a
question costs in proportion to how many passages share its words, not to the size of
the library.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import islice
from operator import countOf
from typing import Literal, Protocol

from tui_assistant.core.index import KeyFunction
from tui_assistant.core.library import Library
from tui_assistant.core.passages import Passage
from tui_assistant.core.text import content_words, stem

TITLE_WEIGHT = 2
BODY_WEIGHT = 1
MIN_DISTINCT_MATCHES = 2


# How many passages a refusal offers as places to look (or as candidates).
NEAREST_SHOWN = 5

Mode = Literal["keyword", "ranked", "hybrid"]


@dataclass(frozen=True, slots=True)
class Evidence:
    """The passage retrieval chose, why it won, and the runners-up after it.

    `passages[0]` is the chosen one (`passage`); the others follow best first, distinct,
    one key away in the evidence panel. The first `close_count` of them (all when None)
    are close enough to the chosen one to be sent with it to a model. `confidence` is
    the estimated chance that the chosen passage is the right one (None for `keyword`).
    """

    passages: tuple[Passage, ...]
    matched_words: tuple[str, ...]
    score: float
    runner_up_score: float | None
    mode: Mode = "keyword"
    close_count: int | None = None
    confidence: float | None = None

    @property
    def passage(self) -> Passage:
        return self.passages[0]

    @property
    def close(self) -> tuple[Passage, ...]:
        """The chosen passage and the runners-up close to it."""
        return self.passages if self.close_count is None else self.passages[: self.close_count]


@dataclass(frozen=True, slots=True)
class NoEvidence:
    """No passage is convincing enough to answer from: why, in plain words, and the
    closest passages (best first) as places to look, never as an answer.

    `ambiguous`: several passages are close but none clearly answers; `nearest` are
    then the candidates. `confidence` as for `Evidence`, of the best of them.
    """

    why: str
    nearest: tuple[Passage, ...] = ()
    mode: Mode = "keyword"
    ambiguous: bool = False
    confidence: float | None = None


class Retriever(Protocol):
    library: Library
    mode: Mode

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        """The passage that answers `question` and up to `count - 1` runners-up, or
        a refusal with the nearest passages."""
        ...

    def scored(self, question: str, count: int) -> list[tuple[int, float]]:
        """The `count` best passages for `question` by this mode's own score, best
        first, as (passage number, score), whether or not `retrieve` would answer."""
        ...


# Why a retrieval refused, as the user reads it.
NO_SHARED_WORD = "no passage shares a word with the question"
TIE = "two passages match equally well"
TOO_LITTLE_MATCHED = "too little of the question matched any passage"


def best_numbers(scores: Mapping[int, float], count: int, skip: int | None = None) -> list[int]:
    """The `count` highest-scoring passage numbers with a positive score, best first
    (equal scores in passage order), without `skip`."""
    wanted = count + (skip is not None)
    positive = [value for value in scores.values() if value > 0]
    if wanted <= 0 or not positive:
        return []
    # The lowest score that can still make the list, found at C speed: at 100,000
    # passages a question's common words may score tens of thousands of them.
    cut = heapq.nlargest(wanted, positive)[-1]
    above: list[int] = []
    at_cut: list[int] = []
    for number, value in scores.items():
        if value > cut:
            above.append(number)
        elif value == cut:
            at_cut.append(number)
    above.sort(key=lambda number: (-scores[number], number))
    ranked = above + heapq.nsmallest(wanted - len(above), at_cut)
    return [number for number in ranked if number != skip][:count]


def question_keys(question: str, key: KeyFunction = stem) -> list[str]:
    """Distinct keys of a question's content words, in the order they first appear."""
    return list(dict.fromkeys(map(key, content_words(question))))


class KeywordRetriever:
    """The distinct-word rule: per passage, 1 for each question word it holds anywhere
    plus 1 more when its title holds it (title 2, body 1)."""

    key: KeyFunction = staticmethod(stem)
    mode: Mode = "keyword"

    def __init__(self, library: Library) -> None:
        self.library = library

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        scores: Counter[int] = Counter()
        chosen = self._choose(question, scores)
        if isinstance(chosen, str):
            nearest = best_numbers(scores, NEAREST_SHOWN)
            return NoEvidence(chosen, tuple(map(self.library.passage, nearest)), self.mode)
        present, winner, score, runner_up = chosen
        others = best_numbers(scores, count - 1, skip=winner) if count > 1 else []
        return Evidence(
            passages=tuple(map(self.library.passage, [winner, *others])),
            matched_words=tuple(
                key
                for key, in_title, in_body in present
                if holds(in_body, winner) or holds(in_title, winner)
            ),
            score=score,
            runner_up_score=runner_up,
            mode=self.mode,
        )

    def scored(self, question: str, count: int) -> list[tuple[int, float]]:
        scores: Counter[int] = Counter()
        self._choose(question, scores)
        return [(number, float(scores[number])) for number in best_numbers(scores, count)]

    def _choose(
        self, question: str, scores: Counter[int]
    ) -> tuple[list[tuple[str, array[int], array[int]]], int, int, int | None] | str:
        """The rule itself: the winner, its score and the runner-up's, or why none
        wins. Fills `scores` with every passage's score."""
        index = self.library.index
        # A passage's score: 1 per question word it holds anywhere, plus 1 more when
        # its title holds it. Counted straight from the postings, so a word costs one
        # pass over the passages that hold it.
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
            return NO_SHARED_WORD
        values = list(scores.values())
        best_score = max(values)
        if best_score < TITLE_WEIGHT + BODY_WEIGHT:
            # One word in a title also scores 2: only here must matches be counted.
            qualified = _matched_twice(present, scores, MIN_DISTINCT_MATCHES * BODY_WEIGHT)
            if len(qualified) > 1:
                return TIE
            if not qualified:
                return TOO_LITTLE_MATCHED
            return present, qualified[0], MIN_DISTINCT_MATCHES * BODY_WEIGHT, None
        if countOf(values, best_score) > 1:
            return TIE
        winner = next(islice(scores, values.index(best_score), None))
        others = Counter({number: value for number, value in scores.items() if number != winner})
        runner_up: int | None = max(others.values(), default=None)
        if runner_up == MIN_DISTINCT_MATCHES * BODY_WEIGHT:
            runner_up = runner_up if _matched_twice(present, others, runner_up) else None
        elif runner_up is not None and runner_up < MIN_DISTINCT_MATCHES * BODY_WEIGHT:
            runner_up = None
        return present, winner, best_score, runner_up


# Below this many title postings, looking each one up in the body postings is cheaper
# than a pass over all of them.
_LOOKUP_LIMIT = 1000


def _missing_from(numbers: array[int], others: array[int]) -> Iterable[int]:
    """The passage numbers in `numbers` that are not in `others` (both ascending)."""
    if len(numbers) <= _LOOKUP_LIMIT:
        return [number for number in numbers if not holds(others, number)]
    return set(numbers).difference(others)


def holds(numbers: array[int], number: int) -> bool:
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
