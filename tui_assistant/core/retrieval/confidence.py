"""How sure retrieval is: the chance that a question's best passage is the right one.

A ranking yields a handful of named signals (`Signals`): whether the word ranking and the
meaning ranking put the same passage first, the best passage's cosine similarity and its
lead over the next one, its lead in the word ranking, the share of the question's word
weight it matches, and where each ranking puts the other's best. A logistic model turns
them into one probability; two thresholds turn that into one of three decisions:

- `answered`: the probability reaches `answer_at`: the best passage is shown.
- `ambiguous`: not sure, but the best passage reaches `close_at`: several passages might
  answer, and the closest of them are offered as candidates. A best passage that no
  ranking tells from the runner-up (an exact tie) is ambiguous however sure the model is.
- `no_evidence`: nothing is close enough to be a candidate.

The coefficients and thresholds are constants fitted by `scripts/held_out.py` on every
development set together; docs/retrieval.md shows them, and the same model fitted with
each set left out, measured on the set it never saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.types import NEAREST_SHOWN, Evidence, Mode, NoEvidence

Decision = Literal["answered", "ambiguous", "no_evidence"]

# At most this many candidates are offered for an ambiguous question.
MAX_CANDIDATES = 5


@dataclass(frozen=True, slots=True)
class Signals:
    """What one question's ranking says about its best passage, each roughly in [-1, 1].

    `agreed`: 1.0 when the word and meaning rankings put the best passage first, else 0.0.
    `cosine`: its cosine similarity to the question (0.0 without a meaning ranking).
    `cosine_lead`: its cosine minus the best cosine of any other passage.
    `word_lead`: its word score minus the best other passage's, over the top word score.
    `matched_share`: the share of the question's word weight that it matches.
    `word_rank_of_meaning_best`, `meaning_rank_of_word_best`: 1 / the place each ranking
    gives the other's first passage (1.0 when it is first there too, 0.0 when absent).
    """

    agreed: float = 0.0
    cosine: float = 0.0
    cosine_lead: float = 0.0
    word_lead: float = 0.0
    matched_share: float = 0.0
    word_rank_of_meaning_best: float = 0.0
    meaning_rank_of_word_best: float = 0.0

    def values(self, names: Sequence[str]) -> list[float]:
        return [float(getattr(self, name)) for name in names]


SIGNAL_NAMES: tuple[str, ...] = tuple(Signals.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class ConfidenceModel:
    """A logistic model over some of the signals, and its two decision thresholds."""

    names: tuple[str, ...]
    coefficients: tuple[float, ...]
    intercept: float
    answer_at: float
    close_at: float

    def probability(self, signals: Signals) -> float:
        """The estimated chance that the best passage is the right one."""
        total = self.intercept + math.fsum(
            weight * value
            for weight, value in zip(self.coefficients, signals.values(self.names), strict=True)
        )
        # Clamped so a wild signal cannot overflow exp.
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, total))))

    def decide(self, probability: float) -> Decision:
        if probability >= self.answer_at:
            return "answered"
        if probability >= self.close_at:
            return "ambiguous"
        return "no_evidence"


@dataclass(frozen=True, slots=True)
class Assessment:
    """One question's ranking, judged.

    `order`: passage numbers, best first. `closeness[i]`: how close `order[i]` is to
    the question on the ranking's own scale (a cosine, or a share of the best word
    score); a runner-up within `gap` of the best passage's is close to it.
    """

    order: Sequence[int]
    closeness: Sequence[float]
    gap: float
    signals: Signals
    probability: float
    decision: Decision

    def close(self, limit: int = MAX_CANDIDATES) -> list[int]:
        """The best passage and the runners-up close to it, best first, at most `limit`."""
        if not self.order:
            return []
        floor = self.closeness[0] - self.gap
        shown = self.order[:NEAREST_SHOWN]
        chosen = [
            number for number, near in zip(shown, self.closeness, strict=False) if near >= floor
        ]
        return chosen[:limit]


def assess(
    model: ConfidenceModel,
    order: Sequence[int],
    closeness: Sequence[float],
    gap: float,
    signals: Signals,
    tied: bool = False,
) -> Assessment:
    """The decision for a ranking. `tied`: the best passage and the runner-up are equal
    in every ranking, so however sure the model is of one of them, the question is
    ambiguous."""
    probability = model.probability(signals)
    decision = model.decide(probability)
    if decision == "answered" and tied:
        decision = "ambiguous"  # neither ranking tells the two best apart
    if decision == "ambiguous" and len(order) < 2:
        decision = "no_evidence"  # one passage alone is not "several"
    return Assessment(order, closeness, gap, signals, probability, decision)


# Why a ranked or hybrid retrieval did not answer, as the user reads it.
AMBIGUOUS = "several passages are close to the question but none clearly answers it"
NOT_SURE = "no passage is close enough to the question to answer from"


def conclude(
    library: Library,
    assessment: Assessment,
    count: int,
    matched_words: tuple[str, ...],
    score: float,
    runner_up_score: float | None,
    mode: Mode,
) -> Evidence | NoEvidence:
    """The decision as retrieval's result: the answer's passage with its close runners-up
    first (then the others, up to `count` in all), or the candidates of an ambiguous
    question, or the nearest passages of one with no convincing passage."""
    confidence = round(assessment.probability, 4)
    if assessment.decision == "no_evidence":
        nearest = tuple(map(library.passage, assessment.order[:NEAREST_SHOWN]))
        return NoEvidence(NOT_SURE, nearest, mode, confidence=confidence)
    close = assessment.close()
    if assessment.decision == "ambiguous":
        if len(close) < 2:
            close = list(assessment.order[:2])
        candidates = tuple(map(library.passage, close))
        return NoEvidence(AMBIGUOUS, candidates, mode, ambiguous=True, confidence=confidence)
    others = [number for number in assessment.order if number not in close]
    shown = [*close, *others][: max(count, 1)]
    return Evidence(
        passages=tuple(map(library.passage, shown)),
        matched_words=matched_words,
        score=score,
        runner_up_score=runner_up_score,
        mode=mode,
        close_count=min(len(close), len(shown)),
        confidence=confidence,
    )


# Fitted by `python scripts/held_out.py --fit-all` on every development set together
# (docs/retrieval.md shows them, and the held-out results of the same fit without each set).
HYBRID_MODEL = ConfidenceModel(
    names=SIGNAL_NAMES,
    coefficients=(0.3044, 3.5382, 2.0220, 0.6275, 2.0233, 0.6199, 0.2410),
    intercept=-3.6313,
    answer_at=0.86,
    close_at=0.26,
)
RANKED_MODEL = ConfidenceModel(
    names=("word_lead", "matched_share"),
    coefficients=(1.8871, 3.6172),
    intercept=-2.7150,
    answer_at=0.81,
    close_at=0.24,
)
# A runner-up is close to the best passage (a candidate beside it, or sent with it to a
# model) when its cosine is within this much of the best's (hybrid), or its word score
# within this share of the best's (ranked).
CLOSE_COSINE_GAP = 0.15
CLOSE_SCORE_SHARE = 0.3
