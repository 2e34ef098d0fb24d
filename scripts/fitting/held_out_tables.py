"""The markdown tables `held_out.py` prints (docs/retrieval.md shows them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scripts.fitting.confidence_fit import Metrics
from tui_assistant.core.retrieval.confidence import ConfidenceModel

# Answer and offer thresholds of the frontier tables.
FRONTIER = (0.5, 0.6, 0.7, 0.8, 0.9)
OFFER_FRONTIER = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
# (fold, set name, model) -> that set measured by the fold with that model.
MeasureWith = Callable[[Any, str, ConfidenceModel], Metrics]


def table_header() -> str:
    return (
        "| set | answerable / unanswerable | first passage right | right in first 5"
        " | precision | first shown right | on screen | called nothing, first right"
        " | unanswerable answered | unanswerable offered | coverage | answered | not sure |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )


def row(name: str, m: Metrics) -> str:
    return (
        f"| {name} | {m.answerable} / {m.unanswerable} | {m.top_one_share:.2f}"
        f" | {m.top_five_share:.2f} | {m.precision:.2f} | {m.first_right_share:.2f}"
        f" | {m.on_screen_share:.2f} | {m.nothing_first_right_share:.2f}"
        f" | {m.unanswerable_share:.2f} | {m.offered_share:.2f}"
        f" | {m.coverage:.2f} | {m.answered} | {m.ambiguous} |"
    )


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def summary(metrics: Sequence[Metrics], label: str = "mean (lowest)") -> str:
    """Means over the sets, with the worst set in brackets."""
    used = [m for m in metrics if m.answerable or m.unanswerable]

    def low(values: list[float]) -> str:
        return f"{mean(values):.2f} ({min(values, default=0.0):.2f})"

    def high(values: list[float]) -> str:
        return f"{mean(values):.2f} (highest {max(values, default=0.0):.2f})"

    return (
        f"| {label} | {sum(m.answerable for m in used)} / {sum(m.unanswerable for m in used)}"
        f" | {low([m.top_one_share for m in used])}"
        f" | {mean([m.top_five_share for m in used]):.2f}"
        f" | {low([m.precision for m in used])}"
        f" | {low([m.first_right_share for m in used])}"
        f" | {mean([m.on_screen_share for m in used]):.2f}"
        f" | {high([m.nothing_first_right_share for m in used])}"
        f" | {high([m.unanswerable_share for m in used])}"
        f" | {high([m.offered_share for m in used])}"
        f" | {low([m.coverage for m in used])}"
        f" | {sum(m.answered for m in used)} | {sum(m.ambiguous for m in used)} |"
    )


def frontier(folds: Mapping[str, Any], mode: str, measure_with: MeasureWith) -> None:
    """The same folds with only the answer threshold moved, then only the offer one."""

    def metrics(**thresholds: float) -> list[Metrics]:
        return [
            measure_with(fold, name, replace(fold.model, **thresholds))
            for name, fold in folds.items()
        ]

    print(f"\n### `{mode}` frontier: each set left out, other answer thresholds\n")
    print(
        "| answer threshold | precision, mean (lowest) | coverage, mean (lowest)"
        " | first shown right, mean | unanswerable answered, highest |"
    )
    print("| --- | --- | --- | --- | --- |")
    for threshold in FRONTIER:
        found = metrics(answer_at=threshold)
        precision = [m.precision for m in found]
        coverage = [m.coverage for m in found]
        print(
            f"| {threshold:.2f} | {mean(precision):.2f} ({min(precision):.2f})"
            f" | {mean(coverage):.2f} ({min(coverage):.2f})"
            f" | {mean([m.first_right_share for m in found]):.2f}"
            f" | {max(m.unanswerable_share for m in found):.2f} |"
        )
    print(f"\n### `{mode}` frontier: each set left out, other offer thresholds\n")
    print(
        "| offer threshold | first shown right, mean (lowest) | called nothing, first right,"
        " mean (highest) | unanswerable offered, mean (highest) | unanswerable answered,"
        " highest |"
    )
    print("| --- | --- | --- | --- | --- |")
    for threshold in OFFER_FRONTIER:
        found = metrics(close_at=threshold)
        first = [m.first_right_share for m in found]
        nothing = [m.nothing_first_right_share for m in found]
        offered = [m.offered_share for m in found]
        print(
            f"| {threshold:.2f} | {mean(first):.2f} ({min(first):.2f})"
            f" | {mean(nothing):.2f} ({max(nothing):.2f})"
            f" | {mean(offered):.2f} ({max(offered):.2f})"
            f" | {max(m.unanswerable_share for m in found):.2f} |"
        )
