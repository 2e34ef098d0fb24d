"""Adjacent word pairs: how much of a question's wording a passage holds as it is written.

Two sections of one page can hold the same question words, one in the question's own
order ("incident commander", "time off", "not unique") and the other scattered; the
first is more likely about what was asked. A question's pair is two neighbouring words
that bind: two content words, or a content word beside a preposition, a particle or a
negation (`BINDING`: "time off", "distributed under", "not unique"). An article, a
pronoun, an auxiliary or a question word binds to nothing in particular ("license is"),
so a pair with one says nothing. A pair weighs the sum of its words' weights in the word
ranking (a stopword weighs nothing), so two rare words side by side count for more than
two common ones. Pure functions over text and numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Container, Mapping, Sequence
from itertools import pairwise

from tui_assistant.core.retrieval.index import KeyFunction
from tui_assistant.core.words import STOPWORDS, content_word, words

# Two neighbouring words: each a content word's key or a stopword as it is.
Pair = tuple[str, str]
# The stopwords that bind to the word beside them: prepositions, particles, negations.
BINDING: frozenset[str] = frozenset(
    """
    about above after again against at before below between by down during for from
    in into no nor not of off on out over through to under until up upon with
    aren't can't cannot couldn't didn't doesn't don't hadn't hasn't haven't isn't
    mustn't shan't shouldn't wasn't weren't won't wouldn't
    """.split()
)


def _keep(_key: str) -> bool:
    return False


def key_sequence(
    text: str,
    key: KeyFunction,
    dropped: Callable[[str], bool] = _keep,
    stopwords: Collection[str] = STOPWORDS,
) -> list[str | None]:
    """The words of `text` in order: a content word as `key` makes it, a stopword of
    `stopwords` as it is, None for any other word (another stopword, a lone letter),
    which parts its neighbours. A content word `dropped` says to leave out (given its
    key) is left out, and its neighbours become neighbours: "trying" in "trying to bind
    ctrl-i" says nothing of the topic."""
    sequence: list[str | None] = []
    for word in words(text):
        found = content_word(word)
        if not found:
            sequence.append(word if word in stopwords else None)
            continue
        match = key(found)
        if not dropped(match):
            sequence.append(match)
    return sequence


def adjacent_pairs(sequence: Sequence[str | None]) -> set[Pair]:
    """The pairs of neighbouring words in `sequence`, but for two stopwords."""
    return {
        (first, second)
        for first, second in pairwise(sequence)
        if first is not None
        and second is not None
        and first != second
        and not (first in STOPWORDS and second in STOPWORDS)
    }


def passage_pairs(title: str, text: str, key: KeyFunction) -> frozenset[Pair]:
    """The adjacent pairs of a passage's title and of its text (none across the two)."""
    return frozenset(
        adjacent_pairs(key_sequence(title, key)) | adjacent_pairs(key_sequence(text, key))
    )


def question_pairs(
    question: str,
    key: KeyFunction,
    weights: Mapping[str, float],
    read: Callable[[str], str | None] = lambda found: found,
    dropped: Callable[[str], bool] = _keep,
) -> dict[Pair, float]:
    """A question's adjacent pairs whose words bind (`BINDING`), each weighing the sum of
    its keys' `weights` (a stopword weighs nothing); pairs that weigh nothing left out.
    `read` gives each content word's key as the ranking reads it (a mistyped word as the
    library's word, None for a word it leaves out); `dropped` as in `key_sequence`."""
    sequence = [
        found if found is None or found in BINDING else read(found)
        for found in key_sequence(question, key, dropped, BINDING)
    ]
    pairs = {}
    for pair in adjacent_pairs(sequence):
        weight = math.fsum(weights.get(found, 0.0) for found in pair)
        if weight > 0:
            pairs[pair] = weight
    return pairs


def pair_share(question: Mapping[Pair, float], held: Container[Pair]) -> float:
    """The share of the question's pair weight that a passage's pairs `held` hold (the
    question's few pairs looked up, not the passage's many walked)."""
    total = math.fsum(question.values())
    if total <= 0:
        return 0.0
    return math.fsum(weight for pair, weight in question.items() if pair in held) / total
