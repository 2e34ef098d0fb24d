"""How sure retrieval is: the chance that a question's best passage is the right one, and
whether the library answers the question at all.

A ranking yields a handful of named signals (`Signals`): how far the best passage's
cosine stands above the library's background, its lead in the word ranking and in the
section score, the share of the question's word weight it matches, the share of question
words no passage holds, where each ranking puts the other's best, and whether the
runner-up is a neighbour in the same document. Two logistic models turn them into
two chances (`ConfidenceModel`): `sure`, that the best passage is the right one, and
`offer`, that some passage answers the question. Two thresholds turn those into one of
three decisions:

- `answered`: `sure` reaches `answer_at` (and `offer` reaches `close_at`): the best
  passage is shown.
- `ambiguous`: not sure, but `offer` reaches `close_at`: several passages might answer,
  and the closest of them are offered as candidates, best first. A best passage that no
  ranking tells from the runner-up (an exact tie) is ambiguous however sure the model is.
- `no_evidence`: the library likely does not answer it; nothing is offered.

No signal is a raw cosine: cosines count from the library's own background to a perfect
match (`dense.Background`), so the models mean the same for any embedding model whose
cosines are another's shifted and scaled.

The coefficients and thresholds are constants fitted by `scripts/held_out.py --fit-all`
on every development set together (`fitted.py`); docs/retrieval.md shows them, and the
same fit with each set left out, measured on the set it never saw.
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
# A runner-up is close to the best passage (a candidate beside it, or sent with it to a
# model) when its closeness (`dense.Background.scaled`) is within this much of the best's
# (hybrid; about 0.15 of cosine for all-MiniLM-L6-v2), or its word score within this share
# of the best's (ranked). Chosen, not fitted: they decide which candidates are listed,
# not whether.
CLOSE_MEANING_GAP = 0.2
CLOSE_SCORE_SHARE = 0.3
# A sure answer is sent to a model with only the runners-up as close as it: within these,
# a tie in all but rounding. Measured on the development sets, wider gaps sent a wrong
# runner-up with most sure answers and the right one with almost none.
SENT_MEANING_GAP = 0.02
SENT_SCORE_SHARE = 0.1


@dataclass(frozen=True, slots=True)
class Signals:
    """What one question's ranking says about its best passage.

    `cosine`: its cosine similarity to the question (shown, never weighed: its scale
    belongs to the model).
    `closeness`: its cosine between the library's background (0.0) and a perfect match
    (1.0), `dense.Background.scaled`.
    `word_lead`: its word score minus the best other passage's, over the top word score.
    `matched_share`: the share of the question's word weight that it matches, where
    words no passage holds count twice.
    `known_share`: the share of the weight of the question words the library holds
    that it matches.
    `unknown_share`: the share of the question's words that no passage holds, the
    words of its asides left out (`asides`).
    `word_rank_of_meaning_best`, `meaning_rank_of_word_best`: 1 / the place each ranking
    gives the other's first passage (1.0 when it is first there too, 0.0 when absent).
    `section_lead`: its section score's lead over the next passage's (`sections`).
    `close_lead` (derived from the two): `section_lead` times closeness (none below the
    background): a lead says the best passage is the right one only as far as it is
    about the question at all. In a library of three lessons the one on eggs leads any
    question that says "egg" by as much as it leads those it answers.
    `neighbour`: 1.0 when the runner-up is another passage of the same document.
    `title_share`: the share of the question's word weight that its title holds.
    `evidence`, `title_evidence`: the word weight it matches (in its title alone), in
    units of the rarest word's weight: unlike the shares, the same however long the
    question around those words is.
    `sole_match`: 1.0 when it is the only passage holding every question word the
    library holds (at least two of them).
    `own_words`, `document_words`: how many of the question's words it holds that no
    other passage holds, and that no passage of another document holds.
    `standing`: its cosine above the mean of the question's cosines over the library, in
    their standard deviations: how far it stands out from the rest of the library for
    this question, whatever the question's length (a long question's cosines are all
    lower, not just the best one's).
    """

    cosine: float = 0.0
    closeness: float = 0.0
    word_lead: float = 0.0
    matched_share: float = 0.0
    known_share: float = 0.0
    unknown_share: float = 0.0
    word_rank_of_meaning_best: float = 0.0
    meaning_rank_of_word_best: float = 0.0
    section_lead: float = 0.0
    neighbour: float = 0.0
    title_share: float = 0.0
    evidence: float = 0.0
    title_evidence: float = 0.0
    sole_match: float = 0.0
    standing: float = 0.0
    own_words: float = 0.0
    document_words: float = 0.0

    @property
    def close_lead(self) -> float:
        return self.section_lead * max(self.closeness, 0.0)

    def values(self, names: Sequence[str]) -> list[float]:
        return [float(getattr(self, name)) for name in names]


# What the models may weigh: every field, and the signals derived from them.
SIGNAL_NAMES: tuple[str, ...] = (*Signals.__dataclass_fields__, "close_lead")


@dataclass(frozen=True, slots=True)
class Logistic:
    """A logistic model over some of the signals."""

    names: tuple[str, ...]
    coefficients: tuple[float, ...]
    intercept: float

    def probability(self, signals: Signals) -> float:
        total = self.intercept + math.fsum(
            weight * value
            for weight, value in zip(self.coefficients, signals.values(self.names), strict=True)
        )
        # Clamped so a wild signal cannot overflow exp.
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, total))))


@dataclass(frozen=True, slots=True)
class ConfidenceModel:
    """Two logistic models and their thresholds: `sure` (the best passage is the right
    one) answers at `answer_at`; `offer` (the library answers the question) offers
    candidates at `close_at`."""

    sure: Logistic
    offer: Logistic
    answer_at: float
    close_at: float

    def probability(self, signals: Signals) -> float:
        """The estimated chance that the best passage is the right one."""
        return self.sure.probability(signals)

    def decide(self, signals: Signals) -> Decision:
        if self.offer.probability(signals) < self.close_at:
            return "no_evidence"
        if self.sure.probability(signals) >= self.answer_at or undoubted(signals):
            return "answered"
        return "ambiguous"


def undoubted(signals: Signals) -> bool:
    """Whether the words leave no doubt: the best passage holds every question word
    (none is unknown to the library), and either no other passage holds any of them,
    or one of them is its alone and two are its document's alone ("prune my apple
    trees": one note on apple trees, whose pruning section alone says "prune", though
    other notes mention trees)."""
    if signals.matched_share < 1.0 - 1e-9:
        return False
    return signals.word_lead >= 1.0 - 1e-9 or (
        signals.own_words >= 1 and signals.document_words >= 2
    )


@dataclass(frozen=True, slots=True)
class Assessment:
    """One question's ranking, judged.

    `order`: passage numbers, best first. `closeness[i]`: how close `order[i]` is to
    the question on the ranking's own scale (`dense.Background.scaled`, or a share of
    the best word score); a runner-up within `gap` of the best passage's is close to it,
    a candidate beside it; one within `sent_gap` is as close as it, and is sent with a
    sure answer to a model.
    """

    order: Sequence[int]
    closeness: Sequence[float]
    gap: float
    signals: Signals
    probability: float
    decision: Decision
    sent_gap: float = 0.0

    def close(self, limit: int = MAX_CANDIDATES, gap: float | None = None) -> list[int]:
        """The best passage and the runners-up within `gap` (by default `self.gap`) of
        it, best first, at most `limit`."""
        if not self.order:
            return []
        floor = self.closeness[0] - (self.gap if gap is None else gap)
        shown = self.order[:NEAREST_SHOWN]
        chosen = [
            number for number, near in zip(shown, self.closeness, strict=False) if near >= floor
        ]
        return chosen[:limit]

    def candidates(self) -> list[int]:
        """What an ambiguous question offers: the passages close to the best, at least
        two."""
        close = self.close()
        return close if len(close) >= 2 else list(self.order[:2])

    def sent(self) -> list[int]:
        """What a sure answer sends to a model: its passage and any runner-up as close
        as it (within `sent_gap`)."""
        return self.close(gap=self.sent_gap)


def assess(
    model: ConfidenceModel,
    order: Sequence[int],
    closeness: Sequence[float],
    gap: float,
    signals: Signals,
    tied: bool = False,
    sent_gap: float | None = None,
) -> Assessment:
    """The decision for a ranking. `tied`: the best passage and the runner-up are equal
    in every ranking, so however sure the model is of one of them, the question is
    ambiguous. `sent_gap`: see `Assessment` (by default `gap`)."""
    probability = model.probability(signals)
    decision = model.decide(signals)
    if decision == "answered" and tied:
        decision = "ambiguous"  # neither ranking tells the two best apart
    if decision == "ambiguous" and not order:
        decision = "no_evidence"
    sent = gap if sent_gap is None else sent_gap
    return Assessment(order, closeness, gap, signals, probability, decision, sent)


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
    read_words: tuple[str, ...] = (),
) -> Evidence | NoEvidence:
    """The decision as retrieval's result: the answer's passage with the runners-up as
    close as it first (then the others, up to `count` in all), or the candidates of an
    ambiguous question, or the nearest passages of one with no convincing passage
    (with the question's keys as the ranking read them, `read_words`)."""
    confidence = round(assessment.probability, 4)
    if assessment.decision == "no_evidence":
        nearest = tuple(map(library.passage, assessment.order[:NEAREST_SHOWN]))
        return NoEvidence(NOT_SURE, nearest, mode, confidence=confidence, read_words=read_words)
    if assessment.decision == "ambiguous":
        candidates = tuple(map(library.passage, assessment.candidates()))
        return NoEvidence(
            AMBIGUOUS,
            candidates,
            mode,
            ambiguous=True,
            confidence=confidence,
            read_words=read_words,
        )
    close = assessment.sent()
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
