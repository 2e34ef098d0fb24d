"""What every retrieval mode returns: the chosen passage with its runners-up, or a
refusal with the nearest passages; and the helpers the modes share."""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.retrieval.word_pairs import Pair
from tui_assistant.core.words import content_words, is_cjk, stem

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
    `read_words`: the question's keys as the ranking read them (a mistyped word as the
    library's word it misspells), to mark in the passages; empty when it read none.
    """

    why: str
    nearest: tuple[Passage, ...] = ()
    mode: Mode = "keyword"
    ambiguous: bool = False
    confidence: float | None = None
    read_words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Search:
    """One ranking of a question, read two ways: what `retrieve` gives (`found`), and
    the best passages by the mode's own score, best first, as (passage number, score),
    whether or not it answers (`scored`)."""

    found: Evidence | NoEvidence
    scored: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Ranking:
    """The best passage for a question before any refusal, and the numbers that judge it.

    `margin` is (best - runner-up) / best, 1.0 when no other passage scored.
    `matched_share` is the best passage's matched word weight over the question's word
    weight, where words that no passage holds (`unknown_words`) count twice.
    `key_count` is how many of the question's keys were scored.
    """

    passage_number: int
    matched_words: tuple[str, ...]
    score: float
    runner_up_score: float | None
    margin: float
    matched_share: float
    unknown_words: tuple[str, ...] = ()
    # The question's keys that only its asides hold (`asides`).
    aside_words: tuple[str, ...] = ()
    # Every passage that scored, by number, and the question's keys each one holds.
    scores: Mapping[int, float] = field(default_factory=dict)
    matched: Mapping[int, Sequence[str]] = field(default_factory=dict)
    # Each question key's weight, and the question's total (unknown words twice).
    weights: Mapping[str, float] = field(default_factory=dict)
    total_weight: float = 1.0
    key_count: int = 1
    # Per passage, the question's keys its title holds.
    in_title: Mapping[int, Sequence[str]] = field(default_factory=dict)
    # The weight of a word that one passage holds (the most a word weighs).
    rarest_weight: float = 1.0
    # The question's adjacent word pairs, each with its weight (`word_pairs`).
    pairs: Mapping[Pair, float] = field(default_factory=dict)

    def share_of(self, number: int) -> float:
        """The share of the question's word weight that passage `number` matches."""
        held = self.matched.get(number, ())
        return math.fsum(self.weights[key] for key in held) / self.total_weight

    def title_share_of(self, number: int) -> float:
        """The share of the question's word weight that passage `number`'s title holds."""
        held = self.in_title.get(number, ())
        return math.fsum(self.weights[key] for key in held) / self.total_weight

    def evidence_of(self, number: int, title_only: bool = False) -> float:
        """The word weight passage `number` matches (its title alone, with `title_only`),
        in units of the rarest word's weight: how many rare question words it holds,
        whatever else the question says. A long or chatty question dilutes every share
        of its weight, not this."""
        held = (self.in_title if title_only else self.matched).get(number, ())
        return math.fsum(self.weights[key] for key in held) / self.rarest_weight

    def own_words_of(self, number: int) -> int:
        """How many of the question's words passage `number` holds that no other passage
        does (a word one passage holds weighs `rarest_weight`)."""
        return sum(
            math.isclose(self.weights[key], self.rarest_weight)
            for key in self.matched.get(number, ())
        )

    def sole_holder(self, number: int) -> bool:
        """Whether passage `number` is the only one holding every question word the
        library holds, and those are at least two: the words leave no doubt."""
        known = len(self.weights) - len(self.unknown_words)
        if known < 2 or len(self.matched.get(number, ())) != known:
            return False
        return not any(
            len(held) == known for other, held in self.matched.items() if other != number
        )

    def known_share_of(self, number: int) -> float:
        """The share of the weight of the question words the library holds that passage
        `number` matches: words no passage holds left out."""
        unknown = set(self.unknown_words)
        known = math.fsum(weight for key, weight in self.weights.items() if key not in unknown)
        held = math.fsum(self.weights[key] for key in self.matched.get(number, ()))
        return held / known if known > 0 else 0.0

    @property
    def unknown_share(self) -> float:
        """The share of the question's words that no passage holds, its asides left out
        (CJK pairs too: with no spaces, a pair across two words says nothing)."""
        asides = set(self.aside_words)
        unknown = [key for key in self.unknown_words if not is_cjk(key) and key not in asides]
        counted = self.key_count - len(asides)
        return len(unknown) / counted if counted > 0 else 0.0


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
