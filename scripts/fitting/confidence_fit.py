"""Fitting the section weights and the confidence models, and measuring their decisions,
with plain numpy. Used by `scripts/fitting/held_out.py`.

A case is one question's judged ranking: the best passage's signals, whether that passage
is the expected one, and its nearest passages with how close each is (to find an
ambiguous question's candidates). Decisions are the app's own (`confidence.assess`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from tui_assistant.core.retrieval.confidence import (
    ConfidenceModel,
    Logistic,
    Signals,
    assess,
)
from tui_assistant.core.retrieval.confidence import undoubted as confidence_undoubted
from tui_assistant.core.retrieval.sections import SectionWeights

# Ridge penalty on the coefficients (not the intercept): keeps a fit on a few hundred
# questions from leaning on one set's quirks.
PENALTY = 1.0


@dataclass(frozen=True)
class Case:
    set_name: str
    expect: str | None
    best: str
    signals: Signals
    order: list[str]  # nearest passages, best first (ids)
    closeness: list[float]  # how close each is, on the ranking's own scale
    tied: bool = False  # the best passage equals the runner-up in every ranking
    style: str = "tidy"  # how the question is phrased: tidy or real


@dataclass(frozen=True)
class Metrics:
    answerable: int
    unanswerable: int
    answered: int
    answered_right: int
    unanswerable_answered: int
    unanswerable_offered: int
    on_screen: int
    first_right: int
    ambiguous: int
    top_one: int
    top_five: int
    nothing_first_right: int = 0  # answerable, refused no_evidence, right passage first

    @property
    def nothing_first_right_share(self) -> float:
        return self.nothing_first_right / self.answerable if self.answerable else 0.0

    @property
    def precision(self) -> float:
        return self.answered_right / self.answered if self.answered else 1.0

    @property
    def coverage(self) -> float:
        return self.answered_right / self.answerable if self.answerable else 0.0

    @property
    def on_screen_share(self) -> float:
        return self.on_screen / self.answerable if self.answerable else 0.0

    @property
    def first_right_share(self) -> float:
        return self.first_right / self.answerable if self.answerable else 0.0

    @property
    def unanswerable_share(self) -> float:
        return self.unanswerable_answered / self.unanswerable if self.unanswerable else 0.0

    @property
    def offered_share(self) -> float:
        return self.unanswerable_offered / self.unanswerable if self.unanswerable else 0.0

    @property
    def top_one_share(self) -> float:
        return self.top_one / self.answerable if self.answerable else 0.0

    @property
    def top_five_share(self) -> float:
        return self.top_five / self.answerable if self.answerable else 0.0


def logistic(
    x: np.ndarray, y: np.ndarray, weights: np.ndarray, penalty: float = PENALTY
) -> tuple[list[float], float]:
    """Weighted logistic regression by Newton's method; the intercept is not penalised."""
    design = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(design.shape[1])
    ridge = np.eye(design.shape[1]) * penalty
    ridge[-1, -1] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -50, 50)))
        gradient = design.T @ (weights * (p - y)) + ridge @ beta
        hessian = (design * (weights * p * (1 - p))[:, None]).T @ design + ridge
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return [float(value) for value in beta[:-1]], float(beta[-1])


def set_weights(set_names: Sequence[Hashable]) -> np.ndarray:
    """Every set (or set and question style) weighs the same in total, whatever its
    number of questions: the models are fitted as much on how people type as on tidy
    questions, though a set has fewer of the first."""
    counts: dict[Hashable, int] = {}
    for name in set_names:
        counts[name] = counts.get(name, 0) + 1
    total = len(set_names)
    return np.array([total / (len(counts) * counts[name]) for name in set_names])


def fit_logistic(cases: Sequence[Case], names: Sequence[str], label: str) -> Logistic:
    """`label`: `right` (the best passage is the expected one) or `answerable`."""
    x = np.array([case.signals.values(names) for case in cases], dtype=np.float64)
    if label == "right":
        y = np.array([float(case.best == case.expect) for case in cases])
    else:
        y = np.array([float(case.expect is not None) for case in cases])
    groups = [(case.set_name, case.style) for case in cases]
    coefficients, intercept = logistic(x, y, set_weights(groups))
    return Logistic(tuple(names), tuple(coefficients), intercept)


@dataclass(frozen=True)
class Head:
    """One answerable question's first fused places (`candidates`, passage ids), the
    features of each (`section_features`), and the expected passage's id."""

    set_name: str
    candidates: list[str]
    features: list[tuple[float, ...]]
    expect: str
    style: str = "tidy"


def fit_sections(heads: Sequence[Head], penalty: float = 0.1) -> SectionWeights:
    """Pairwise logistic regression: the expected passage against each other candidate
    of its question's head, every set weighing the same."""
    rows: list[np.ndarray] = []
    names: list[str] = []
    share: list[float] = []
    usable = [head for head in heads if head.expect in head.candidates]
    per_set: dict[str, int] = {}
    for head in usable:
        per_set[head.set_name] = per_set.get(head.set_name, 0) + 1
    for head in usable:
        features = np.array(head.features, dtype=np.float64)
        right = head.candidates.index(head.expect)
        others = [place for place in range(len(head.candidates)) if place != right]
        for place in others:
            rows.append(features[right] - features[place])
            names.append(head.set_name)
            share.append(1.0 / (per_set[head.set_name] * len(others)))
    x = np.array(rows)
    x = np.vstack([x, -x])
    y = np.r_[np.ones(len(rows)), np.zeros(len(rows))]
    weights = np.r_[share, share] * len(rows) / len(per_set)
    design = x  # no intercept: a difference has none
    beta = np.zeros(design.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -50, 50)))
        gradient = design.T @ (weights * (p - y)) + penalty * beta
        hessian = (design * (weights * p * (1 - p))[:, None]).T @ design + penalty * np.eye(
            len(beta)
        )
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return SectionWeights(*(round(float(value), 4) for value in beta))


def decisions(case: Case, model: ConfidenceModel, gap: float) -> tuple[str, list[str]]:
    """The app's decision for a case, and what it shows: the answer, the candidates of
    an ambiguous question, or nothing offered."""
    numbers = list(range(len(case.order)))
    assessment = assess(model, numbers, case.closeness, gap, case.signals, case.tied)
    if assessment.decision == "answered":
        return "answered", [case.best]
    if assessment.decision == "ambiguous":
        return "ambiguous", [case.order[number] for number in assessment.candidates()]
    return "no_evidence", []


def measure(cases: Sequence[Case], model: ConfidenceModel, gap: float) -> Metrics:
    counts = dict.fromkeys(
        (
            "answerable unanswerable answered right unanswerable_answered offered on_screen"
            " first_right ambiguous top_one top_five nothing_first_right"
        ).split(),
        0,
    )
    for case in cases:
        decision, shown = decisions(case, model, gap)
        counts["ambiguous"] += decision == "ambiguous"
        if case.expect is None:
            counts["unanswerable"] += 1
            counts["unanswerable_answered"] += decision == "answered"
            counts["offered"] += decision == "ambiguous"
            counts["answered"] += decision == "answered"
            continue
        counts["answerable"] += 1
        counts["top_one"] += case.best == case.expect
        counts["top_five"] += case.expect in case.order[:5]
        counts["answered"] += decision == "answered"
        counts["right"] += decision == "answered" and case.best == case.expect
        counts["first_right"] += bool(shown) and shown[0] == case.expect
        counts["nothing_first_right"] += decision == "no_evidence" and case.best == case.expect
        # A no_evidence refusal still lists the nearest passages as places to look.
        counts["on_screen"] += case.expect in (shown or case.order[:5])
    return Metrics(
        counts["answerable"],
        counts["unanswerable"],
        counts["answered"],
        counts["right"],
        counts["unanswerable_answered"],
        counts["offered"],
        counts["on_screen"],
        counts["first_right"],
        counts["ambiguous"],
        counts["top_one"],
        counts["top_five"],
        counts["nothing_first_right"],
    )


def by_set(cases: Sequence[Case]) -> dict[str, list[Case]]:
    sets: dict[str, list[Case]] = {}
    for case in cases:
        sets.setdefault(case.set_name, []).append(case)
    return sets


@dataclass(frozen=True)
class Goals:
    """What the training sets must keep, on average over the sets (each set weighing the
    same): precision of answered at least `precision`, at most `answered` of their
    unanswerable questions answered and at most `offered` of them offered as candidates.
    An average, not every set: a set with a dozen unanswerable questions moves by 8
    points per question, and the strictest set alone would set every threshold.
    Precision 0.90, not 0.95: with the reference manuals among the sets (sed, git's
    manual pages, the PostgreSQL manual: short questions naming one option that many
    passages hold), 0.95 or 0.93 on average put `hybrid`'s answer threshold at 0.98,
    where a passage holding every word of the question, first in both rankings, was not
    sure and the other sets answered about half as many questions."""

    precision: float = 0.90
    answered: float = 0.03
    offered: float = 0.20


def fit_confidence(
    cases: Sequence[Case],
    sure_names: Sequence[str],
    offer_names: Sequence[str],
    gap: float,
    goals: Goals,
) -> ConfidenceModel:
    """Both logistic models, then the thresholds: the lowest offer threshold at which
    the sets offer at most `goals.offered` of their unanswerable questions, and the
    lowest answer threshold at which they keep `goals.precision` and answer at most
    `goals.answered` of their unanswerable questions (averages over the sets)."""
    sure = fit_logistic(cases, sure_names, "right")
    offer = fit_logistic(cases, offer_names, "answerable")

    def model(answer_at: float, close_at: float) -> ConfidenceModel:
        return ConfidenceModel(sure, offer, answer_at, close_at)

    # Every distinct probability is a threshold worth trying (just above it). The
    # decisions are those of `decisions`, as arrays, so each try is a few array sums.
    set_index = {name: place for place, name in enumerate(by_set(cases))}
    group = np.array([set_index[case.set_name] for case in cases])
    sizes = len(set_index)
    p_sure = np.array([sure.probability(case.signals) for case in cases])
    p_offer = np.array([offer.probability(case.signals) for case in cases])
    tied = np.array([case.tied for case in cases])
    several = np.array([len(case.order) >= 2 for case in cases])
    unanswerable = np.array([case.expect is None for case in cases])
    right = np.array([case.expect is not None and case.best == case.expect for case in cases])
    undoubted = np.array([confidence_undoubted(case.signals) for case in cases])

    def per_set(values: np.ndarray) -> np.ndarray:
        return np.bincount(group, weights=values.astype(float), minlength=sizes)

    unanswerable_count = per_set(unanswerable)

    def share(part: np.ndarray, whole: np.ndarray, empty: float) -> np.ndarray:
        return np.where(whole > 0, part / np.maximum(whole, 1), empty)

    offers = sorted(set(p_offer[unanswerable].tolist()))
    close_at = 1.0
    for threshold in [0.0, *(value + 1e-9 for value in offers)]:
        offered = (p_offer >= threshold) & several & unanswerable
        if share(per_set(offered), unanswerable_count, 0.0).mean() <= goals.offered:
            close_at = threshold
            break
    answer_at = 1.0
    kept = p_offer >= close_at
    for threshold in sorted(set(p_sure.tolist())):
        answered = kept & ((p_sure >= threshold) | undoubted) & ~tied
        count = per_set(answered)
        precision = share(per_set(answered & right), count, 1.0)
        wrong = share(per_set(answered & unanswerable), unanswerable_count, 0.0)
        if precision.mean() >= goals.precision and wrong.mean() <= goals.answered:
            answer_at = threshold
            break
    return model(answer_at, close_at)
