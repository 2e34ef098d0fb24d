"""Measure the support check's threshold trade-off on hand-labelled answers.

Each line of the answers file (default `eval/support-answers.jsonl`) is
`{"lesson": ID, "answer": "... [source:ID]", "faithful": bool, "kind": "..."}`: an answer
that does or does not say what the lesson says. For every threshold this prints how many
faithful answers the check lets through and how many unfaithful ones it flags, by kind,
then the answers the current `SUPPORT_THRESHOLD` gets wrong, with the reason.

    python -m scripts.fitting.measure_support_threshold [--answers FILE] [--library DIR]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.checks.support import (
    SUPPORT_THRESHOLD,
    CheckedPassage,
    SentenceVerdict,
    judge_sentences,
)
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

PROJECT_ROOT = Path(__file__).resolve().parents[2]


THRESHOLDS = [round(0.30 + 0.05 * step, 2) for step in range(15)]


@dataclass(frozen=True)
class LabelledAnswer:
    lesson: str
    answer: str
    faithful: bool
    kind: str


def load_answers(path: Path) -> list[LabelledAnswer]:
    answers = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            data = json.loads(line)
            answers.append(
                LabelledAnswer(data["lesson"], data["answer"], bool(data["faithful"]), data["kind"])
            )
    return answers


def verdicts_at(
    answer: LabelledAnswer, passage: CheckedPassage, threshold: float
) -> list[SentenceVerdict]:
    return judge_sentences(answer.answer, passage, threshold)


def passes(verdicts: list[SentenceVerdict]) -> bool:
    return all(verdict.supported for verdict in verdicts)


def lowest_coverage(answer: LabelledAnswer, passage: CheckedPassage) -> float | None:
    coverages = [
        verdict.coverage
        for verdict in judge_sentences(answer.answer, passage)
        if verdict.coverage is not None
    ]
    return min(coverages) if coverages else None


def reason(verdicts: list[SentenceVerdict], threshold: float) -> str:
    parts = []
    for verdict in verdicts:
        if verdict.coverage is not None:
            parts.append(f"coverage {verdict.coverage:.2f}")
        if verdict.missing_numbers:
            parts.append("number " + ", ".join(verdict.missing_numbers) + " not in lesson")
        if verdict.missing_quotes:
            parts.append("quote not verbatim")
    return "; ".join(parts) or "not judged (too short)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=Path, default=PROJECT_ROOT / "eval/support-answers.jsonl")
    parser.add_argument("--library", type=Path, default=PROJECT_ROOT / "lessons")
    args = parser.parse_args()

    library = open_library(args.lessons, None, stem)  # indexed in memory
    passages = {
        info.id: CheckedPassage.of(library.passage(number))
        for number, info in enumerate(library.passages)
    }
    answers = load_answers(args.answers)
    faithful = [a for a in answers if a.faithful]
    unfaithful = [a for a in answers if not a.faithful]
    kinds = sorted({a.kind for a in unfaithful})

    print(f"{len(faithful)} faithful and {len(unfaithful)} unfaithful answers")
    header = f"{'threshold':>9}  {'faithful kept':>13}  {'unfaithful flagged':>18}"
    header += "".join(f"  {kind:>14}" for kind in kinds)
    print(header)
    for threshold in THRESHOLDS:
        kept = sum(passes(verdicts_at(a, passages[a.lesson], threshold)) for a in faithful)
        flagged_by_kind: dict[str, int] = defaultdict(int)
        total_by_kind: dict[str, int] = defaultdict(int)
        for a in unfaithful:
            total_by_kind[a.kind] += 1
            if not passes(verdicts_at(a, passages[a.lesson], threshold)):
                flagged_by_kind[a.kind] += 1
        flagged = sum(flagged_by_kind.values())
        marker = " <- SUPPORT_THRESHOLD" if threshold == SUPPORT_THRESHOLD else ""
        row = f"{threshold:>9.2f}  {f'{kept}/{len(faithful)}':>13}"
        row += f"  {f'{flagged}/{len(unfaithful)}':>18}"
        row += "".join(
            f"  {f'{flagged_by_kind[kind]}/{total_by_kind[kind]}':>14}" for kind in kinds
        )
        print(row + marker)

    print("\nlowest sentence coverage of each answer (judged sentences only):")
    for label, group in [("faithful", faithful)] + [
        (kind, [a for a in unfaithful if a.kind == kind]) for kind in kinds
    ]:
        values = sorted(
            value for a in group if (value := lowest_coverage(a, passages[a.lesson])) is not None
        )
        print(f"  {label:>14}: " + " ".join(f"{value:.2f}" for value in values))

    print(f"\nmisjudged at SUPPORT_THRESHOLD = {SUPPORT_THRESHOLD}:")
    for a in answers:
        verdicts = verdicts_at(a, passages[a.lesson], SUPPORT_THRESHOLD)
        if passes(verdicts) != a.faithful:
            label = "faithful, flagged" if a.faithful else f"{a.kind}, let through"
            print(f"  [{label}] {a.answer}\n      ({reason(verdicts, SUPPORT_THRESHOLD)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
