"""Fitting the confidence model and measuring its decisions, with plain numpy.

Used by `scripts/held_out.py`. A case is one question's judged ranking: the best
passage's signals, whether that passage is the expected one, and its nearest passages
with how close each is (to find an ambiguous question's candidates).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tui_assistant.core.retrieval.confidence import MAX_CANDIDATES, ConfidenceModel, Signals

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


@dataclass(frozen=True)
class Metrics:
    answerable: int
    unanswerable: int
    answered: int
    answered_right: int
    unanswerable_answered: int
    on_screen: int
    ambiguous: int

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
    def unanswerable_share(self) -> float:
        return self.unanswerable_answered / self.unanswerable if self.unanswerable else 0.0


def fit(
    cases: Sequence[Case], names: Sequence[str], penalty: float = PENALTY
) -> tuple[list[float], float]:
    """Logistic regression by Newton's method; every set weighs the same in total."""
    x = np.array([case.signals.values(names) for case in cases], dtype=np.float64)
    y = np.array([float(case.best == case.expect) for case in cases])
    counts: dict[str, int] = {}
    for case in cases:
        counts[case.set_name] = counts.get(case.set_name, 0) + 1
    weights = np.array([len(cases) / (len(counts) * counts[case.set_name]) for case in cases])
    design = np.hstack([x, np.ones((len(cases), 1))])
    beta = np.zeros(design.shape[1])
    ridge = np.eye(design.shape[1]) * penalty
    ridge[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -50, 50)))
        gradient = design.T @ (weights * (p - y)) + ridge @ beta
        hessian = (design * (weights * p * (1 - p))[:, None]).T @ design + ridge
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return [float(value) for value in beta[:-1]], float(beta[-1])


def candidates(case: Case, gap: float) -> list[str]:
    """An ambiguous question's candidates: the nearest passages close to the best."""
    if not case.order:
        return []
    floor = case.closeness[0] - gap
    chosen = [pid for pid, near in zip(case.order, case.closeness, strict=False) if near >= floor]
    chosen = chosen[:MAX_CANDIDATES]
    return chosen if len(chosen) >= 2 else case.order[:2]


def measure(cases: Sequence[Case], model: ConfidenceModel, gap: float) -> Metrics:
    answerable = unanswerable = answered = right = wrong_unanswerable = on_screen = 0
    ambiguous = 0
    for case in cases:
        probability = model.probability(case.signals)
        decision = model.decide(probability)
        if decision == "answered" and case.tied:
            decision = "ambiguous"
        if decision == "ambiguous" and len(case.order) < 2:
            decision = "no_evidence"
        ambiguous += decision == "ambiguous"
        if case.expect is None:
            unanswerable += 1
            wrong_unanswerable += decision == "answered"
            continue
        answerable += 1
        if decision == "answered":
            answered += 1
            right += case.best == case.expect
            on_screen += case.best == case.expect
        else:
            shown = candidates(case, gap) if decision == "ambiguous" else case.order[:5]
            on_screen += case.expect in shown
    return Metrics(
        answerable,
        unanswerable,
        answered + wrong_unanswerable,
        right,
        wrong_unanswerable,
        on_screen,
        ambiguous,
    )


def by_set(cases: Sequence[Case]) -> dict[str, list[Case]]:
    sets: dict[str, list[Case]] = {}
    for case in cases:
        sets.setdefault(case.set_name, []).append(case)
    return sets


def choose_thresholds(
    cases: Sequence[Case],
    names: Sequence[str],
    coefficients: Sequence[float],
    intercept: float,
    precision_goal: float,
    unanswerable_goal: float,
    gap: float,
) -> tuple[float, float]:
    """The lowest answer threshold at which every set keeps precision at or above
    `precision_goal` and answers at most `unanswerable_goal` of its unanswerable
    questions; then the candidate threshold that best tells answerable questions whose
    right passage is among the candidates from the rest."""
    sets = by_set(cases)

    def model(answer_at: float, close_at: float) -> ConfidenceModel:
        return ConfidenceModel(tuple(names), tuple(coefficients), intercept, answer_at, close_at)

    steps = [round(0.30 + 0.01 * i, 2) for i in range(70)]
    answer_at = steps[-1]
    for threshold in steps:
        measured = [measure(group, model(threshold, 0.0), gap) for group in sets.values()]
        precision = min(m.precision for m in measured)
        wrong = max(m.unanswerable_share for m in measured)
        if precision >= precision_goal and wrong <= unanswerable_goal:
            answer_at = threshold
            break
    best_close, best_score = 0.0, -math.inf
    for close_at in [round(0.02 * i, 2) for i in range(int(answer_at / 0.02) + 1)]:
        fitted = model(answer_at, close_at)
        score = 0.0
        for group in sets.values():
            good = bad = 0
            for case in group:
                probability = fitted.probability(case.signals)
                if probability >= answer_at:
                    continue
                useful = case.expect is not None and case.expect in candidates(case, gap)
                offered = probability >= close_at
                good += offered == useful
                bad += offered != useful
            score += good / max(1, good + bad)
        if score > best_score:
            best_close, best_score = close_at, score
    return answer_at, best_close
