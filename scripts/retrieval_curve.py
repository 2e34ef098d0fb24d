"""Measure retrieval on the development sets and sweep `ranked`'s confidence thresholds.

For each set (cases file + lesson folder) it prints keyword, ranked (at the thresholds
in tui_assistant/core/ranked.py) and the FTS5 top-1 peer side by side, then the
trade-off curve: for every pair of thresholds, answerable accuracy against the share
of unanswerable questions correctly refused. Correctness follows the eval contract:
the retrieved lesson is the expected one, or nothing was retrieved when none is expected.

    python scripts/build_django_devsets.py      # once, to create the sets
    python scripts/retrieval_curve.py            # both Django sets
    python scripts/retrieval_curve.py --set eval/django-faq.jsonl eval/django-faq-lessons
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from fts5_top1 import Fts5TopOne, all_passages  # noqa: E402

from tui_assistant.core import ranked  # noqa: E402
from tui_assistant.core.library import Library  # noqa: E402
from tui_assistant.core.passages import Passage  # noqa: E402
from tui_assistant.core.ranked import RankedRetriever, Ranking  # noqa: E402
from tui_assistant.core.retrieval import Evidence, KeywordRetriever  # noqa: E402
from tui_assistant.core.store import open_library  # noqa: E402
from tui_assistant.core.text import stem  # noqa: E402

DEFAULT_SETS = [
    ("small (FAQ only)", ROOT / "eval/django-faq.jsonl", ROOT / "eval/django-faq-lessons"),
    (
        "large (FAQ + distractors)",
        ROOT / "eval/django-large.jsonl",
        ROOT / "eval/django/large-lessons",
    ),
]
MARGINS = [0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3]
SHARES = [0.0, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]


@dataclass(frozen=True)
class Case:
    question: str
    expect_lesson: str | None


@dataclass(frozen=True)
class Score:
    """Answerable cases answered with the right lesson; unanswerable cases refused."""

    answerable: int
    answered_right: int
    unanswerable: int
    refused: int

    @property
    def accuracy(self) -> float:
        return self.answered_right / max(self.answerable, 1)

    @property
    def refusal(self) -> float:
        return self.refused / max(self.unanswerable, 1)

    def __str__(self) -> str:
        return (
            f"answerable {self.answered_right:>3}/{self.answerable} ({self.accuracy:6.1%})   "
            f"unanswerable refused {self.refused:>3}/{self.unanswerable} ({self.refusal:6.1%})"
        )


def load_cases(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        Case(record["question"], record["expect_lesson"])
        for record in (json.loads(line) for line in lines if line.strip())
    ]


def score(cases: Sequence[Case], answer: Callable[[str], str | None]) -> Score:
    answerable = answered_right = unanswerable = refused = 0
    for case in cases:
        got = answer(case.question)
        if case.expect_lesson is None:
            unanswerable += 1
            refused += got is None
        else:
            answerable += 1
            answered_right += got == case.expect_lesson
    return Score(answerable, answered_right, unanswerable, refused)


@dataclass(frozen=True)
class DevSet:
    name: str
    cases: list[Case]
    library: Library
    rankings: list[Ranking | None]


def measure_set(name: str, cases_path: Path, lessons_path: Path) -> DevSet:
    """Print every mode's numbers on one set; return its rankings for the curve."""
    cases = load_cases(cases_path)
    started = time.perf_counter()
    library = open_library(lessons_path, None, stem)  # read and indexed in memory
    index_seconds = time.perf_counter() - started
    keyword = KeywordRetriever(library)
    chosen = RankedRetriever(library)
    passages = all_passages(library)
    fts5 = Fts5TopOne(passages, drop_stopwords=True)
    fts5_all_words = Fts5TopOne(passages)

    def evidence_id(evidence: Evidence | None) -> str | None:
        return None if evidence is None else evidence.passage.id

    def lesson_id(lesson: Passage | None) -> str | None:
        return None if lesson is None else lesson.id

    print(f"\n== {name}: {len(library)} lessons, {len(cases)} cases ({cases_path.name})")
    print(f"   library read and indexed in {index_seconds:.2f} s")
    rows: list[tuple[str, Callable[[str], str | None]]] = [
        ("keyword", lambda q: evidence_id(keyword.retrieve(q))),
        (
            f"ranked (margin > {ranked.MIN_MARGIN}, share >= {ranked.MIN_MATCHED_SHARE})",
            lambda q: evidence_id(chosen.retrieve(q)),
        ),
        ("ranked top-1, never refusing", lambda q: top_one(chosen, q)),
        ("FTS5 top-1, stopwords dropped", lambda q: lesson_id(fts5.retrieve(q))),
        ("FTS5 top-1, all words", lambda q: lesson_id(fts5_all_words.retrieve(q))),
    ]
    for label, answer in rows:
        started = time.perf_counter()
        result = score(cases, answer)
        per_question_ms = (time.perf_counter() - started) * 1000 / len(cases)
        print(f"   {label:<40} {result}   {per_question_ms:5.2f} ms/question")
    rankings = [chosen.rank(case.question) for case in cases]
    return DevSet(name, cases, library, rankings)


def top_one(retriever: RankedRetriever, question: str) -> str | None:
    ranking = retriever.rank(question)
    return None if ranking is None else retriever.library.passages[ranking.lesson_number].id


def judge_set(dev_set: DevSet, margin: float, share: float) -> tuple[Score, int]:
    """The set's score at these thresholds, and how many wrong lessons would be shown."""
    judge = RankedRetriever(dev_set.library, min_margin=margin, min_matched_share=share)
    answerable = right = unanswerable = refused = wrong = 0
    for case, ranking in zip(dev_set.cases, dev_set.rankings, strict=True):
        got = None
        if ranking is not None and judge.accepts(ranking):
            got = dev_set.library.passages[ranking.lesson_number].id
        wrong += got is not None and got != case.expect_lesson
        if case.expect_lesson is None:
            unanswerable += 1
            refused += got is None
        else:
            answerable += 1
            right += got == case.expect_lesson
    return Score(answerable, right, unanswerable, refused), wrong


def print_curves(dev_sets: Sequence[DevSet]) -> None:
    """The trade-off table per set, then the pair the selection rule picks.

    Rule (fixed before looking at the table): among threshold pairs that refuse at least
    80% of unanswerable questions on every set, take the highest worst-set answerable
    accuracy; break ties by the higher worst-set refusal, then by the lower thresholds.
    """
    results = {
        (margin, share): [judge_set(dev_set, margin, share) for dev_set in dev_sets]
        for margin in MARGINS
        for share in SHARES
    }
    for position, dev_set in enumerate(dev_sets):
        print(
            f"\n   curve on {dev_set.name}: answerable right % / unanswerable refused % "
            f"/ wrong lessons shown (of {len(dev_set.cases)} questions)"
        )
        print("   margin > | share >= " + "".join(f"{share:>14}" for share in SHARES))
        for margin in MARGINS:
            cells = []
            for share in SHARES:
                result, wrong = results[(margin, share)][position]
                cells.append(f"{result.accuracy:4.0%} {result.refusal:4.0%} {wrong:3d}")
            print(f"   {margin:<8.2f} |          " + "".join(f"{cell:>14}" for cell in cells))
    qualifying = [
        pair
        for pair, per_set in results.items()
        if all(result.refusal >= 0.8 for result, _ in per_set)
    ]
    if not qualifying:
        print("\n   no threshold pair refuses 80% of unanswerable questions on every set")
        return
    best = max(
        qualifying,
        key=lambda pair: (
            min(result.accuracy for result, _ in results[pair]),
            min(result.refusal for result, _ in results[pair]),
            -pair[0],
            -pair[1],
        ),
    )
    print(f"\n   selection rule picks margin > {best[0]}, share >= {best[1]}:")
    for dev_set, (result, wrong) in zip(dev_sets, results[best], strict=True):
        print(f"     {dev_set.name:<28} {result}   wrong lessons shown {wrong}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="retrieval modes side by side, and the curve")
    parser.add_argument(
        "--set",
        nargs=2,
        action="append",
        type=Path,
        metavar=("CASES", "LESSONS"),
        help="a cases file and its lesson folder (default: both Django sets)",
    )
    args = parser.parse_args(argv)
    sets = (
        [(f"{cases.name}", cases, lessons) for cases, lessons in args.set]
        if args.set
        else DEFAULT_SETS
    )
    dev_sets: list[DevSet] = []
    for name, cases_path, lessons_path in sets:
        if not lessons_path.is_dir():
            print(f"{lessons_path} is missing: run scripts/build_django_devsets.py first")
            return 2
        dev_sets.append(measure_set(name, cases_path, lessons_path))
    print_curves(dev_sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
