"""Measure retrieval on the development sets, over passages, and sweep `ranked`'s refusal.

Each library is loaded as the app loads it (`store.open_library`, in memory, keyed by
the mode's key function), and each case is judged as `eval` judges it: the retrieved
passage is the expected one, or nothing was retrieved when none is expected. Per set it
prints keyword, ranked (as shipped), ranked's best passage with no refusal, and the
SQLite FTS5 peer over the same passages (an OR of all the question's words, as the
reference; and with the app's stopwords dropped). Then, per set, the trade-off of every
refusal rule tried: for each threshold, answerable questions answered right ("found")
against unanswerable questions refused ("refused").

    python -m scripts.devsets.build --fetch django-faq   # once, for django-large
    python -m scripts.measures.retrieval_curve            # every set of scripts/devsets/sets.py
    python -m scripts.measures.retrieval_curve --set eval/docker-docs.jsonl eval/docker-docs
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scripts.devsets.sets import available
from scripts.measures.fts5_top1 import Fts5TopOne
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval import bm25f, ranked
from tui_assistant.core.retrieval import types as retrieval
from tui_assistant.core.retrieval.keyword import KeywordRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import (
    Evidence,
    NoEvidence,
    Ranking,
)
from tui_assistant.store.index_store import open_library

ROOT = Path(__file__).resolve().parents[2]


# The matched share held fixed while the margin is swept.
SWEPT_SHARE = 0.35


@dataclass(frozen=True)
class Case:
    question: str
    expect: str | None


@dataclass(frozen=True)
class Score:
    """Answerable cases answered with the right passage; unanswerable cases refused."""

    answerable: int
    found: int
    unanswerable: int
    refused: int

    def __str__(self) -> str:
        found = f"{self.found:>3}/{self.answerable:<3}"
        return f"found {found} refused {self.refused:>3}/{self.unanswerable:<3}"


def load_cases(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        Case(record["question"], record["expect_passage"])
        for record in (json.loads(line) for line in lines if line.strip())
    ]


def score(cases: Sequence[Case], answers: Sequence[str | None]) -> Score:
    answerable = found = unanswerable = refused = 0
    for case, got in zip(cases, answers, strict=True):
        if case.expect is None:
            unanswerable += 1
            refused += got is None
        else:
            answerable += 1
            found += got == case.expect
    return Score(answerable, found, unanswerable, refused)


@dataclass(frozen=True)
class Judged:
    """One case's best ranked passage, before refusal, and the numbers a rule may use."""

    passage_id: str | None
    ranking: Ranking | None
    plain_share: float  # matched weight / question weight (no double count)
    normalised_score: float  # best score / the most the question's words could score


def judged(retriever: RankedRetriever, question: str) -> Judged:
    ranking = retriever.rank(question)
    if ranking is None:
        return Judged(None, None, 0.0, 0.0)
    index = retriever.index
    weights = {}
    for key in dict.fromkeys(question_keys(retriever, question)):
        holders = set(index.title(key).numbers) | set(index.body(key).numbers)
        weights[key] = bm25f.inverse_document_frequency(len(index), len(holders))
    total = sum(weights.values())
    matched = sum(weights[key] for key in ranking.matched_words)
    best_possible = (bm25f.SATURATION + 1) / bm25f.SATURATION * total
    return Judged(
        retriever.library.info(ranking.passage_number).id,
        ranking,
        matched / total,
        ranking.score / best_possible,
    )


def question_keys(retriever: RankedRetriever, question: str) -> list[str]:
    """The keys `ranked` scores: the question's keys minus its framing words."""
    keys = retrieval.question_keys(question, retriever.key)
    return [key for key in keys if key not in ranked._QUESTION_KEYS]


# Refusal rules tried, each a family of thresholds: rule(judged, threshold) -> accept?
def _tie(item: Judged) -> bool:
    return item.ranking is not None and item.ranking.margin > 0


RULES: list[tuple[str, list[float], Callable[[Judged, float], bool]]] = [
    (
        "share (unknown words twice) >= x, no exact tie",
        [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55],
        lambda item, x: _tie(item) and item.ranking is not None and item.ranking.matched_share >= x,
    ),
    (
        "plain share >= x, no exact tie",
        [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6],
        lambda item, x: _tie(item) and item.plain_share >= x,
    ),
    (
        "score / question's best possible score >= x, no exact tie",
        [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4],
        lambda item, x: _tie(item) and item.normalised_score >= x,
    ),
    (
        f"share >= {SWEPT_SHARE}, margin > x",
        [0.0, 0.01, 0.02, 0.05, 0.1, 0.2],
        lambda item, x: (
            item.ranking is not None
            and item.ranking.margin > x
            and item.ranking.matched_share >= SWEPT_SHARE
        ),
    ),
]


@dataclass
class DevSet:
    name: str
    cases: list[Case]
    judged: list[Judged]


def measure_set(name: str, cases_path: Path, lessons_path: Path) -> DevSet:
    cases = load_cases(cases_path)
    started = time.perf_counter()
    keyword_library = open_library(lessons_path, None, KeywordRetriever.key)
    ranked_library: Library = (
        keyword_library
        if RankedRetriever.key is KeywordRetriever.key
        else open_library(lessons_path, None, RankedRetriever.key)
    )
    load_seconds = time.perf_counter() - started
    keyword = KeywordRetriever(keyword_library)
    chosen = RankedRetriever(ranked_library)
    fts5 = Fts5TopOne(ranked_library)
    fts5_stopwords = Fts5TopOne(ranked_library, drop_stopwords=True)

    def evidence_id(evidence: Evidence | NoEvidence) -> str | None:
        return evidence.passage.id if isinstance(evidence, Evidence) else None

    print(f"\n== {name}: {len(ranked_library)} passages, {len(cases)} cases ({cases_path.name})")
    print(f"   loaded and indexed in {load_seconds:.1f} s")
    items = [judged(chosen, case.question) for case in cases]
    rows: list[tuple[str, Callable[[str], str | None]]] = [
        ("keyword", lambda q: evidence_id(keyword.retrieve(q))),
        ("ranked", lambda q: evidence_id(chosen.retrieve(q))),
        ("FTS5 over passages (all words)", fts5.retrieve_id),
        ("FTS5 over passages (stopwords dropped)", fts5_stopwords.retrieve_id),
    ]
    for label, answer in rows:
        started = time.perf_counter()
        answers = [answer(case.question) for case in cases]
        per_question_ms = (time.perf_counter() - started) * 1000 / len(cases)
        print(f"   {label:<40} {score(cases, answers)}  {per_question_ms:6.2f} ms/question")
    never_refusing = score(cases, [item.passage_id for item in items])
    print(f"   {'ranked best passage, never refusing':<40} {never_refusing}")
    return DevSet(name, cases, items)


def print_curves(dev_sets: Sequence[DevSet]) -> None:
    for title, thresholds, rule in RULES:
        print(f"\n-- {title}")
        print("   x      " + "".join(f"{dev_set.name:>22}" for dev_set in dev_sets))
        for threshold in thresholds:
            cells = []
            for dev_set in dev_sets:
                answers = [
                    item.passage_id if item.ranking is not None and rule(item, threshold) else None
                    for item in dev_set.judged
                ]
                result = score(dev_set.cases, answers)
                found = f"{result.found:>3}/{result.answerable:<3}"
                cells.append(f"{found} {result.refused:>3}/{result.unanswerable:<3}")
            print(f"   {threshold:<6} " + "".join(f"{cell:>22}" for cell in cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="retrieval modes side by side, and the curves")
    parser.add_argument(
        "--set",
        nargs=2,
        action="append",
        type=Path,
        metavar=("CASES", "LESSONS"),
        help="a cases file and its library folder (default: every development set)",
    )
    args = parser.parse_args(argv)
    sets = (
        [(cases.stem, cases, lessons) for cases, lessons in args.set] if args.set else available()
    )
    print(f"ranked's ranking: k1 {bm25f.SATURATION}, path weight {bm25f.PATH_WEIGHT}")
    print("cells: found = answerable answered with the right passage; refused = unanswerable")
    dev_sets: list[DevSet] = []
    for name, cases_path, lessons_path in sets:
        if not lessons_path.is_dir():
            build = "python -m scripts.devsets.build --fetch django-faq"
            print(f"\n{lessons_path} is missing (run {build}): skipped")
            continue
        dev_sets.append(measure_set(name, cases_path, lessons_path))
    print("\ncurves (per set: found/answerable refused/unanswerable)")
    print_curves(dev_sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
