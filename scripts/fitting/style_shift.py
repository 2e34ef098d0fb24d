"""How far each confidence signal moves when a question is typed as people type it: per
development set and mode, every real-style case beside the tidy case it rewrites
(scripts/devsets/real_style.py), the mean of (real - tidy) for each signal, in standard
deviations of that signal over the tidy questions (so signals of any scale compare).
A signal that carries across question styles moves little.

Signals are those of each case's best passage as shipped (`fitted.py`), over the pairs
whose best passage is the expected one in both phrasings (so the shift is the
phrasing's, not a different passage's); `--all-pairs` takes every answerable pair.

    TUI_ASSISTANT_DATA_DIR=/tmp/retrieval-data python -m scripts.fitting.style_shift
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from scripts.devsets.sets import SETS, available
from scripts.fitting.devset_rankings import judged, load_set
from tui_assistant.core.retrieval.fitted import (
    RANKED_SECTION_WEIGHTS,
    SECTION_WEIGHTS,
)

ROOT = Path(__file__).resolve().parents[2]


SIGNALS = {
    "hybrid": (
        "closeness",
        "standing",
        "matched_share",
        "known_share",
        "unknown_share",
        "title_share",
        "evidence",
        "title_evidence",
        "sole_match",
        "word_rank_of_meaning_best",
        "meaning_rank_of_word_best",
        "section_lead",
        "close_lead",
    ),
    "ranked": (
        "word_lead",
        "matched_share",
        "known_share",
        "unknown_share",
        "title_share",
        "evidence",
        "title_evidence",
        "sole_match",
        "section_lead",
    ),
}
FITTED = tuple(name for name, _, _ in SETS if name != "django-large")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/tui-assistant-held-out"))
    parser.add_argument("--mode", choices=tuple(SIGNALS), default=None)
    parser.add_argument("--all-pairs", action="store_true")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    args = parser.parse_args()
    data_dir = Path(os.environ.get("TUI_ASSISTANT_DATA_DIR", "/tmp/retrieval-data"))
    args.cache.mkdir(parents=True, exist_ok=True)
    for mode in [args.mode] if args.mode else tuple(SIGNALS):
        names = SIGNALS[mode]
        pairs_per_set: dict[str, int] = {}
        tidy_all: list[list[float]] = []
        pairs: list[tuple[str, list[float], list[float]]] = []
        only = [name for name in args.sets.split(",") if name] or list(FITTED)
        for name, cases_path, folder in available(only):
            print(f"ranking {name} ({mode})", file=sys.stderr, flush=True)
            dev_set = load_set(name, cases_path, folder, mode, data_dir, args.cache)
            sections = SECTION_WEIGHTS if mode == "hybrid" else RANKED_SECTION_WEIGHTS
            cases = judged(dev_set, mode, sections)
            by_question = {
                question: case
                for question, case, style in zip(
                    dev_set.questions, cases, dev_set.styles, strict=True
                )
                if style == "tidy"
            }
            tidy_all += [case.signals.values(names) for case in by_question.values()]
            count = 0
            for case, tidy_text in zip(cases, dev_set.tidy, strict=True):
                tidy = by_question.get(tidy_text or "")
                if case.style != "real" or tidy is None or case.expect is None:
                    continue
                both_right = case.best == case.expect and tidy.best == case.expect
                if not (both_right or args.all_pairs):
                    continue
                pairs.append((name, case.signals.values(names), tidy.signals.values(names)))
                count += 1
            pairs_per_set[name] = count
        spread = np.array(tidy_all).std(axis=0)
        scale = np.where(spread > 0, spread, 1.0)
        table = np.array([(np.array(real) - np.array(tidy)) / scale for _, real, tidy in pairs])
        print(f"\n### `{mode}`: signal shift from tidy to real-style questions\n")
        print(f"{len(table)} pairs over {sum(1 for v in pairs_per_set.values() if v)} sets.\n")
        print("| signal | mean shift (SD of tidy) | pairs where it fell | tidy SD |")
        print("| --- | --- | --- | --- |")
        for column, signal in enumerate(names):
            values = table[:, column]
            print(
                f"| `{signal}` | {values.mean():+.2f} | {(values < -1e-9).mean():.2f}"
                f" | {spread[column]:.3f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
