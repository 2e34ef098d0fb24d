"""Keyword retrieval: the distinct-word rule, over the inverted index.

The rule (`TUI_ASSISTANT_RETRIEVAL=keyword`): each *distinct* normalised question word
scores 2 for a passage whose title has it, else 1 if its body has it; a passage needs
at least two distinct matching words; the best score wins, and a tie at the best score
returns no passage. Scoring walks the postings of the question's words only, so a
question costs in proportion to how many passages share its words, not to the size of
the library.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
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
        scores: Counter[int] = Counter()
        matches: Counter[int] = Counter()
        present: list[tuple[str, set[int]]] = []
        for key in question_keys(question, self.key):
            in_title = index.title(key).numbers
            anywhere = set(in_title)
            anywhere.update(index.body(key).numbers)
            if not anywhere:
                continue
            present.append((key, anywhere))
            matches.update(anywhere)
            scores.update(anywhere)
            scores.update(in_title)
        qualified = [number for number, count in matches.items() if count >= MIN_DISTINCT_MATCHES]
        if not qualified:
            return None
        best_score = max(scores[number] for number in qualified)
        best = [number for number in qualified if scores[number] == best_score]
        if len(best) != 1:
            return None  # a tie at the best score
        winner = best[0]
        runner_up = max((scores[n] for n in qualified if n != winner), default=None)
        return Evidence(
            passage=self.library.passage(winner),
            matched_words=tuple(key for key, anywhere in present if winner in anywhere),
            score=best_score,
            runner_up_score=runner_up,
        )
