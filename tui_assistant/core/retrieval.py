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
    """The distinct-word rule, scored with bit sets over the whole library at once.

    Every lesson's score is the sum, over the question's distinct words, of 1 when
    the lesson holds the word anywhere plus 1 more when its title does (title 2, body
    1). The sums are kept "bit-sliced": `slices[i]` is the bit set of lessons whose
    score has bit i, so adding one word costs a few integer operations over
    len(library)/8 bytes, however many lessons hold the word.
    """

    def __init__(self, index: InvertedIndex) -> None:
        self.index = index

    def retrieve(self, question: str) -> Evidence | None:
        index = self.index
        slices: list[int] = []
        matched_once = 0
        matched_twice = 0
        present: list[tuple[str, int]] = []
        for key in question_keys(question):
            anywhere = index.presence(key)
            if not anywhere:
                continue
            present.append((key, anywhere))
            matched_twice |= matched_once & anywhere
            matched_once |= anywhere
            _add_one(slices, anywhere)
            in_title = index.title_presence(key)
            if in_title:
                _add_one(slices, in_title)
        # Only lessons with MIN_DISTINCT_MATCHES (two) distinct words compete.
        best_set, best_score = _highest(slices, matched_twice)
        if best_set.bit_count() != 1:
            return None  # nobody qualifies, or a tie at the best score
        best = best_set.bit_length() - 1
        others = matched_twice & ~best_set
        runner_up = _highest(slices, others)[1] if others else None
        return Evidence(
            lesson=index.lessons[best],
            matched_words=tuple(key for key, anywhere in present if anywhere >> best & 1),
            score=best_score,
            runner_up_score=runner_up,
        )


def _add_one(slices: list[int], members: int) -> None:
    """Add 1 to the score of every lesson in `members` (a ripple-carry adder on bit sets)."""
    carry = members
    for position, bits in enumerate(slices):
        slices[position] = bits ^ carry
        carry &= bits
        if not carry:
            return
    slices.append(carry)


def _highest(slices: list[int], candidates: int) -> tuple[int, int]:
    """The candidates sharing the highest score, and that score (0 when none)."""
    score = 0
    for position in range(len(slices) - 1, -1, -1):
        narrowed = candidates & slices[position]
        if narrowed:
            candidates = narrowed
            score |= 1 << position
    return candidates, score
