"""What every retrieval mode returns: the chosen passage with its runners-up, or a
refusal with the nearest passages; and the helpers the modes share."""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.words import content_words, stem

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
    `model_picks`: these are an ambiguous question's candidates, of which retrieval chose
    none (their `score` means nothing); a model's answer picks the one it cites first.
    """

    passages: tuple[Passage, ...]
    matched_words: tuple[str, ...]
    score: float
    runner_up_score: float | None
    mode: Mode = "keyword"
    close_count: int | None = None
    confidence: float | None = None
    model_picks: bool = False

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


@dataclass(frozen=True, slots=True)
class Search:
    """One ranking of a question, read two ways: what `retrieve` gives (`found`), and
    the best passages by the mode's own score, best first, as (passage number, score),
    whether or not it answers (`scored`)."""

    found: Evidence | NoEvidence
    scored: tuple[tuple[int, float], ...] = ()


class Retriever(Protocol):
    library: Library
    mode: Mode

    def retrieve(self, question: str, count: int = 1) -> Evidence | NoEvidence:
        """The passage that answers `question` and up to `count - 1` runners-up, or
        a refusal with the nearest passages."""
        ...

    def search(self, question: str, count: int, limit: int) -> Search:
        """`retrieve(question, count)` and the `limit` best passages with their scores,
        from one ranking."""
        ...


# Why a retrieval refused, as the user reads it.
NO_SHARED_WORD = "no passage shares a word with the question"
TIE = "two passages match equally well"
TOO_LITTLE_MATCHED = "too little of the question matched any passage"


def best_numbers(scores: Mapping[int, float], count: int, skip: int | None = None) -> list[int]:
    """The `count` highest-scoring passage numbers with a positive score, best first
    (equal scores in passage order), without `skip`."""
    wanted = count + (skip is not None)
    if wanted <= 0:
        return []
    positive = [value for value in scores.values() if value > 0]
    if not positive:
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
