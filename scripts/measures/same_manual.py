"""One manual read as PDF and as HTML: do both copies show the same first passage?

Each question of a cases file (its expected passages are the PDF copy's ids) runs
through the app's own service on each copy. Passage ids differ between the copies, so
two passages are taken as the same when their last headings say the same (section
numbers such as `3.4.1.` or `Chapter 3.` aside, the last two when there are two), or
when their texts share at least half their content words (a quarter, when the last
headings alone say the same). Reported: how often the best passage of the
two copies is the same (over the questions where both find one), and for each copy the
share of answerable questions whose first passage shown (the answer's, or an unsure
answer's first candidate) is the expected one, with its precision and the unanswerable
questions it answered.

    python -m scripts.measures.same_manual --pdf eval/fhs-pdf --html eval/fhs-html \\
        --cases eval/fhs-pdf.jsonl [--retrieval ranked] [--json]
    python -m scripts.measures.same_manual --pair autoconf     # or fhs, devref

`--pair NAME` names one of the development sets' pairs (`PAIRS`) instead of the three
paths.

With the default retrieval (`auto`) an embedding model makes it hybrid; vectors are kept
in the data folder (`TUI_ASSISTANT_DATA_DIR`). A copy the app cannot read (no HTML
reader) is reported as such, and the other copy's numbers still are. Two entries of a
reference (a macro, a variable, an option) are the same when their titles name the same
entry, whatever argument list or neighbours each copy's title shows.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tui_assistant.core.documents.passage import TITLE_SEPARATOR, Passage
from tui_assistant.core.evaluation import EvalCase, EvalReport, evaluate, parse_cases
from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.core.words import content_words
from tui_assistant.errors import LibraryError
from tui_assistant.settings import Settings
from tui_assistant.wiring.context import AppContext, open_context

ROOT = Path(__file__).resolve().parents[2]


# The development sets' manuals held as PDF and as HTML: (PDF folder, HTML folder, cases).
PAIRS = {
    "fhs": ("eval/fhs-pdf", "eval/fhs-html", "eval/fhs-pdf.jsonl"),
    "devref": ("eval/devref-pdf", "eval/devref-html", "eval/devref-pdf.jsonl"),
    "autoconf": ("eval/autoconf-pdf", "eval/autoconf-html", "eval/autoconf-pdf.jsonl"),
    "make": ("eval/make-pdf", "eval/make-html", "eval/make-pdf.jsonl"),
    "sed": ("eval/sed-pdf", "eval/sed-html", "eval/sed-pdf.jsonl"),
}
SAME_WORDS = 0.5
_SECTION_NUMBER = re.compile(
    r"^(?:(?:chapter|appendix|section)\s+)?[0-9a-z]?(?:\.?\d+)*\.?\s+", re.I
)
_NOT_WORDS = re.compile(r"[^\w]+")


def heading_key(title: str, depth: int = 2) -> str:
    """A passage title's last `depth` headings, without their numbers, as plain
    lower-case words (two, since many manuals have a `Purpose` in every section)."""
    headings = title.split(TITLE_SEPARATOR)[1:][-depth:]
    plain = []
    for heading in headings:
        heading = re.sub(r"\s*\(part \d+\)$", "", heading.strip())
        plain.append(_NOT_WORDS.sub(" ", _SECTION_NUMBER.sub("", heading).casefold()).strip())
    return " / ".join(plain)


_SIGNATURE = re.compile(r"\s*(?:\([^()]*\)?|\[[^\]]*\]?)")
# A name a manual's entry is titled by: `AC_INIT`, `CFLAGS`, `--build`, `.PHONY`.
_ENTRY_NAME = re.compile(
    r"^(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[A-Z0-9]*|--?[a-z][\w-]*|\.[A-Z_]+)$"
)


def entry_names(title: str) -> set[str]:
    """The names an entry's last heading gives (`AC_LANG_PUSH (language) [Macro]` and
    `AC_LANG_PUSH, AC_LANG_POP` both give AC_LANG_PUSH): a PDF entry keeps its
    argument list and its kind, an HTML one often lists its neighbours."""
    last = _SIGNATURE.sub(" ", title.split(TITLE_SEPARATOR)[-1])
    names = (
        part.strip().split(" ")[0].split("=")[0]
        for part in re.split(r",|\N{HORIZONTAL ELLIPSIS}", last)
    )
    return {name for name in names if _ENTRY_NAME.match(name)}


def word_overlap(a: Passage, b: Passage) -> float:
    words_a, words_b = set(content_words(a.text)), set(content_words(b.text))
    if not words_a or not words_b:
        return 0.0
    return len(words_a & words_b) / len(words_a | words_b)


def same_passage(a: Passage, b: Passage) -> bool:
    """Whether two passages of two copies of one manual are the same section."""
    if heading_key(a.title) and heading_key(a.title) == heading_key(b.title):
        return True
    if entry_names(a.title) & entry_names(b.title):
        return True
    overlap = word_overlap(a, b)
    if heading_key(a.title, 1) and heading_key(a.title, 1) == heading_key(b.title, 1):
        return overlap >= SAME_WORDS / 2
    return overlap >= SAME_WORDS


def best_passage(outcome: Outcome) -> Passage | None:
    """The passage retrieval put first: the answer's, else the first closest one."""
    if outcome.evidence is not None:
        return outcome.evidence.passage
    return outcome.nearest[0] if outcome.nearest else None


def first_shown(outcome: Outcome) -> Passage | None:
    """The passage a person sees first: the answer's, or an unsure answer's first."""
    if outcome.evidence is not None:
        return outcome.evidence.passage
    if outcome.reason is Reason.AMBIGUOUS and outcome.nearest:
        return outcome.nearest[0]
    return None


@dataclass
class Copy:
    name: str
    folder: Path
    report: EvalReport | None = None
    problem: str | None = None
    passages: int = 0


def read_copy(copy: Copy, cases: Sequence[EvalCase], retrieval: str, data_dir: Path) -> Copy:
    settings = Settings(library=[copy.folder], data_dir=data_dir, retrieval=retrieval)  # type: ignore[call-arg]
    try:
        context: AppContext = open_context(settings)
    except LibraryError as error:
        copy.problem = str(error)
        return copy
    try:
        copy.passages = len(context.library)
        copy.report = asyncio.run(evaluate(cases, context.service))
    finally:
        context.library.close()
    return copy


def expected_passages(pdf: Path, data_dir: Path, ids: set[str]) -> dict[str, Passage]:
    settings = Settings(library=[pdf], data_dir=data_dir, retrieval="ranked")  # type: ignore[call-arg]
    context = open_context(settings, embed_now=False)
    try:
        return {id_: p for id_ in ids if (p := context.library.get(id_)) is not None}
    finally:
        context.library.close()


def rates(report: EvalReport, expected: dict[str, Passage], exact: bool) -> dict[str, float | int]:
    """First passage shown right, precision and unanswerable answered, for one copy.
    `exact`: the copy whose ids the cases name; the other is matched by `same_passage`."""
    answerable = [r for r in report.results if r.case.expect_passage is not None]
    right = answered = answered_right = unanswerable = 0
    for result in report.results:
        want = result.case.expect_passage
        shown = first_shown(result.outcome)
        if want is None:
            unanswerable += result.outcome.evidence is not None
            continue
        target = expected.get(want)
        hit = shown is not None and (
            shown.id == want if exact else target is not None and same_passage(shown, target)
        )
        right += hit
        if result.outcome.evidence is not None:
            answered += 1
            answered_right += hit
    unanswerable_cases = len(report.results) - len(answerable)
    return {
        "answerable": len(answerable),
        "first_right": right / len(answerable) if answerable else 0.0,
        "answered": answered,
        "precision": answered_right / answered if answered else 0.0,
        "unanswerable_answered": unanswerable / unanswerable_cases if unanswerable_cases else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", choices=sorted(PAIRS), help="a development sets' pair")
    parser.add_argument("--pdf", type=Path, help="the library folder of the PDF")
    parser.add_argument("--html", type=Path, help="the folder of the HTML copy")
    parser.add_argument("--cases", type=Path, help="cases naming the PDF's ids")
    parser.add_argument("--retrieval", default="auto", choices=["auto", "hybrid", "ranked"])
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(argv)
    if options.pair:
        options.pdf, options.html, options.cases = (ROOT / path for path in PAIRS[options.pair])
    elif options.pdf is None or options.html is None or options.cases is None:
        parser.error("give --pair, or all of --pdf, --html and --cases")
    data_dir = Path(os.environ.get("TUI_ASSISTANT_DATA_DIR", "/tmp/same-manual-data"))
    cases = parse_cases(options.cases.read_text(encoding="utf-8").splitlines())
    ids = {c.expect_passage for c in cases if c.expect_passage is not None}
    expected = expected_passages(options.pdf, data_dir, ids)
    missing = sorted(ids - expected.keys())
    if missing:
        raise SystemExit(f"{options.cases}: not passages of {options.pdf}: {', '.join(missing)}")
    pdf = read_copy(Copy("pdf", options.pdf), cases, options.retrieval, data_dir)
    html = read_copy(Copy("html", options.html), cases, options.retrieval, data_dir)

    result: dict[str, object] = {"cases": len(cases), "retrieval": options.retrieval}
    for copy in (pdf, html):
        if copy.report is None:
            result[copy.name] = {"problem": copy.problem}
        else:
            result[copy.name] = {
                "passages": copy.passages,
                **rates(copy.report, expected, exact=copy is pdf),
            }
    if pdf.report is not None and html.report is not None:
        both = same = 0
        for a, b in zip(pdf.report.results, html.report.results, strict=True):
            first_a, first_b = best_passage(a.outcome), best_passage(b.outcome)
            if first_a is None or first_b is None:
                continue
            both += 1
            same += same_passage(first_a, first_b)
        result["same_first_passage"] = same / both if both else 0.0
        result["compared"] = both
    if options.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
