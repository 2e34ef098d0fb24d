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
from itertools import islice
from operator import countOf

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.types import (
    NEAREST_SHOWN,
    NO_SHARED_WORD,
    TIE,
    TOO_LITTLE_MATCHED,
    Evidence,
    Mode,
    NoEvidence,
    Search,
    best_numbers,
    question_keys,
)
from tui_assistant.core.words import stem

TITLE_WEIGHT = 2
BODY_WEIGHT = 1
MIN_DISTINCT_MATCHES = 2


class KeywordRetriever:
    """The distinct-word rule: per passage, 1 for each question word it holds anywhere
    plus 1 more when its title holds it (title 2, body 1)."""

    key: KeyFunction = staticmethod(stem)
    mode: Mode = "keyword"

    def __init__(self, library: Library) -> None:
        self.library = library

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        return self.search(question, count, 0).found

    def search(self, question: str, count: int, limit: int) -> Search:
        scores: Counter[int] = Counter()
        chosen = self._choose(question, scores)
        scored = tuple((number, float(scores[number])) for number in best_numbers(scores, limit))
        if isinstance(chosen, str):
            nearest = best_numbers(scores, NEAREST_SHOWN)
            refusal = NoEvidence(chosen, tuple(map(self.library.passage, nearest)), self.mode)
            return Search(refusal, scored)
        present, winner, score, runner_up = chosen
        others = best_numbers(scores, count - 1, skip=winner) if count > 1 else []
        # The rule answers only when one passage wins outright: no runner-up is as close,
        # so a model gets the winner alone; the others stay one key away.
        evidence = Evidence(
            passages=tuple(map(self.library.passage, [winner, *others])),
            matched_words=tuple(
                key
                for key, in_title, in_body in present
                if holds(in_body, winner) or holds(in_title, winner)
            ),
            score=score,
            runner_up_score=runner_up,
            mode=self.mode,
            close_count=1,
        )
        return Search(evidence, scored)

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
