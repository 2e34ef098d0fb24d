"""What the headless commands print: outcomes (readable or JSON), the `eval` report and
progress lines.

Everything printed from a document or a model goes through `clean_display_text` or
JSON's escapes, so no text can drive the terminal or forge an output line.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from tui_assistant.core.checks.quotes import without_quote
from tui_assistant.core.display_text import (
    clean_display_text,
    collapse_blank_lines,
    one_line,
    shortened,
)
from tui_assistant.core.documents.passage import Passage, line_range, location
from tui_assistant.core.excerpt import passage_excerpt
from tui_assistant.core.outcome import Outcome, Reason
from tui_assistant.core.record import OutcomeRecord
from tui_assistant.core.words import normalise_distinct

if TYPE_CHECKING:
    from tui_assistant.core.changes.diff import Change
    from tui_assistant.core.evaluation import EvalReport
    from tui_assistant.core.gaps import GapList
    from tui_assistant.wiring.status import StatusResult

MAX_ECHOED_QUESTION_CHARS = 500
# How the kinds of changes are headed in readable `changes`, in the order they come.
_CHANGE_HEADINGS = {
    "changelog": "changelog",
    "changed": "changed (same title, other text)",
    "moved": "moved (the same or reworded text under another title or file)",
    "added": "added",
    "removed": "removed",
}
# How many sentences of the best possible passage an unsure answer prints.
BEST_EXCERPT_SENTENCES = 2


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`1 document`, `2,349 documents`: the count and its noun, agreeing."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


class ProgressLine:
    """`indexing 1,200/20,000 files` on stderr, redrawn in place, once the work has
    taken a second, and only when stderr is a terminal; erased when the work ends.
    `unit` is singular (`file`); `plural` is its plural when not `unit` + `s`."""

    DELAY_SECONDS = 1.0

    def __init__(self, verb: str, unit: str, scale: int = 1, plural: str | None = None) -> None:
        self.verb, self.unit, self.scale, self.plural = verb, unit, scale, plural
        self.shown = False
        self.started = time.monotonic()
        self.last = 0.0
        self.enabled = sys.stderr.isatty()

    def __enter__(self) -> Callable[[int, int], None] | None:
        return self if self.enabled else None

    def __call__(self, done: int, total: int | None) -> None:
        now = time.monotonic()
        finished = total is not None and done >= total
        if now - self.started < self.DELAY_SECONDS or (now - self.last < 0.1 and not finished):
            return
        self.last = now
        self.shown = True
        # The noun agrees with the total: `1/1 file`, `3/12 files`.
        if total is None:
            count = counted(done // self.scale, self.unit, self.plural)
        else:
            whole = counted(total // self.scale, self.unit, self.plural)
            count = f"{done // self.scale:,}/{whole}"
        line = f"\r{self.verb} {count}\x1b[K"
        print(line, end="", file=sys.stderr, flush=True)

    def __exit__(self, *_: object) -> None:
        if self.shown:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def question_line(question: str) -> str:
    """The question echoed on one line (a newline in it cannot forge an output line),
    shortened when huge: the full text is in `--json` output."""
    line = one_line(question)
    if len(line) > MAX_ECHOED_QUESTION_CHARS:
        line = f"{shortened(line, MAX_ECHOED_QUESTION_CHARS)} ({len(question):,} characters)"
    return line


def print_json(outcome: Outcome) -> None:
    # ensure_ascii escapes every control and bidi character: safe on any terminal.
    print(json.dumps(OutcomeRecord.of(outcome).model_dump(mode="json")), flush=True)


def print_readable(outcome: Outcome) -> None:
    lines: list[str] = [f"? {question_line(outcome.question)}"]
    evidence = outcome.evidence
    if outcome.answered and evidence is not None:
        cited = f"{evidence.passage.title} [{evidence.passage.id}]"
        if outcome.chosen_by == "model":
            # The library was not sure: say whose choice the passage is.
            words = outcome.answered_words()
            lines.append(f"{words} (the library was not sure); it cites {cited}")
        else:
            lines.append(f"answered from {cited}")
        lines.append("")
        lines.append(collapse_blank_lines(outcome.answer or ""))
        lines.append("")
        lines.append(f"source: {evidence.passage.location}")
        if evidence.passage.url:
            lines.append(f"url: {evidence.passage.url}")
        other = [passage for passage in outcome.passages if passage.id != evidence.passage.id]
        # The other passages were sent with the question, or are retrieval's runners-up.
        also = "also sent" if outcome.from_model else "runner-up"
        if outcome.chosen_by == "model":
            also = "other possible passage"
        lines.extend(f"{also}: {passage.location} [{passage.id}]" for passage in other)
        for quote in outcome.quotes:
            where = f"{quote.passage_id}, lines {line_range(quote.line, quote.end_line)}"
            lines.append(f'quote: "{one_line(quote.text)}" ({where})')
        if outcome.support and outcome.support.unsupported_sentences:
            lines.append("not backed by the passage:")
            lines.extend(f"  ! {sentence}" for sentence in outcome.support.unsupported_sentences)
    elif outcome.reason is Reason.AMBIGUOUS and outcome.nearest:
        lines.append(outcome.describe())
        if outcome.model_detail:
            why = without_quote(outcome.model_detail)  # no unchecked model text here
            lines.append(f"the model's answer was refused: {why}")
        lines.extend(possible_passages(outcome.nearest, normalise_distinct(outcome.question)))
    else:
        lines.append(outcome.describe())
        if evidence is not None:
            lines.append(f"passage: {evidence.passage.location}")
        if outcome.nearest:
            lines.append("not an answer: closest passages")
            lines.extend(
                f"  {passage.location} [{passage.id}] {one_line(passage.title)}"
                + (f" {passage.url}" if passage.url else "")
                for passage in outcome.nearest
            )
    print(clean_display_text("\n".join(lines)) + "\n", flush=True)


def possible_passages(passages: Sequence[Passage], keys: Collection[str]) -> list[str]:
    """An unsure question's possible passages, numbered, best first: each title and id,
    `file:lines` and the sentence that best matches the question; the best one, set
    apart from the others, with its best-matching sentences."""
    lines: list[str] = []
    for number, passage in enumerate(passages, start=1):
        sentences = BEST_EXCERPT_SENTENCES if number == 1 else 1
        lines += [""] if number <= 2 else []
        lines += [
            f"{number}. {one_line(passage.title)} [{passage.id}]",
            f"   {passage.location}" + (f"  {passage.url}" if passage.url else ""),
            f"   {passage_excerpt(passage, keys, sentences)}",
        ]
    return lines


def format_eval_report(report: EvalReport, library: str, retrieval: str, mode: str) -> str:
    """The readable `eval` report: a per-kind table, the answerable/refusal split,
    failures."""
    rows = [(kind, tally) for kind, tally in report.by_kind.items()]
    rows.append(("all", report.total))
    width = max(len("kind"), *(len(kind) for kind, _ in rows))
    lines = [
        f"library: {library}   retrieval: {retrieval}   mode: {mode}",
        "",
        f"{'kind':<{width}}  {'cases':>5}  {'correct':>7}  {'accuracy':>8}",
    ]
    for kind, tally in rows:
        if kind == "all":
            lines.append("-" * (width + 26))
        lines.append(
            f"{kind:<{width}}  {tally.cases:>5}  {tally.correct:>7}  {tally.accuracy:>8.1%}"
        )
    answerable, refusals = report.answerable, report.refusals
    lines += [
        "",
        f"answerable (a passage expected): {answerable.correct} of {answerable.cases} "
        f"retrieved the expected passage",
        f"refusals (no passage expected):  {refusals.correct} of {refusals.cases} "
        f"correctly found no passage",
        "",
        f"precision (answered with the expected passage / answered): {report.precision:.1%}",
        f"on screen (expected passage answered, or a candidate or nearest): {report.on_screen:.1%}",
        f"answered though no passage was expected: {report.unanswerable_answered:.1%}",
        f"offered possible passages though none was expected: {report.unanswerable_offered:.1%}",
        f"coverage (answerable answered with the expected passage): {report.coverage:.1%}",
        f"first right (answerable whose first passage shown is the expected one): "
        f"{report.first_right:.1%}",
        f"called nothing while first right (answerable refused, its passage first to look at): "
        f"{report.called_nothing_first_right:.1%}",
    ]
    styles = report.by_style()
    if len(styles) > 1:
        lines.append("")
        for style, part in styles.items():
            lines.append(
                f"{style} questions ({part.total.cases}): precision {part.precision:.1%}, "
                f"coverage {part.coverage:.1%}, first right {part.first_right:.1%}, "
                f"called nothing while first right {part.called_nothing_first_right:.1%}, "
                f"unanswerable offered {part.unanswerable_offered:.1%}"
            )
    if report.model is not None:
        model = report.model
        lines += [
            "",
            f"model: asked {model.asked}, accepted {model.accepted}, "
            f"refused unverified {model.refused_unverified}, "
            f"flagged by the support check {model.flagged_by_support}",
        ]
        if model.other:
            others = ", ".join(f"{reason} {count}" for reason, count in model.other.items())
            lines.append(f"model: other outcomes: {others}")
    failures = report.failures
    lines += ["", f"failures: {len(failures)}" if failures else "failures: none"]
    for failure in failures:
        lines.append(
            f"  line {failure.case.line_number} [{failure.case.kind}] "
            f"{json.dumps(failure.case.question, ensure_ascii=False)}: "
            f"expected {failure.case.expect_passage or 'no passage'}, "
            f"got {failure.got or 'no passage'}"
        )
    return "\n".join(lines)


def format_status(status: StatusResult) -> str:
    """The readable `status`: one block of lines per library."""
    blocks = []
    for library in status.libraries:
        vectors = f"{library.vectors:,}/{counted(library.passages, 'passage')}"
        if library.embedding_model is not None:
            vectors += f" ({library.embedding_model})"
        if library.embedding_per_second:
            vectors += f", {library.embedding_per_second:,.1f} a second"
        blocks.append(
            "\n".join(
                [
                    f"library: {library.name}",
                    *(
                        [
                            f"package: {library.package} {library.version}"
                            f" ({library.origin or 'fetched'}, fetched {library.fetched_at})"
                        ]
                        if library.package
                        else []
                    ),
                    f"documents: {library.documents:,}",
                    f"passages: {library.passages:,}",
                    f"vectors: {vectors if library.embedding_model else 'off'}",
                    f"read at: {library.read_at}",
                    f"watch: {'on' if library.watch else 'off'}",
                    f"retrieval: {library.retrieval}",
                ]
            )
        )
    return clean_display_text("\n\n".join(blocks))


def format_gaps(gaps: GapList, recording: bool = True) -> str:
    """The readable `gaps`: each group, most asked first, with its questions."""
    if not gaps.groups:
        return "no question has gone unanswered yet" + (
            "" if recording else " (TUI_ASSISTANT_GAPS is false: none are recorded)"
        )
    lines: list[str] = []
    for group in gaps.groups:
        near = group.nearest
        where = (
            f"near {one_line(near.title)} [{near.id}]"
            f" {location(near.source_path, near.line, near.end_line)}"
            if near is not None
            else "near no passage"
        )
        asked = "once" if group.count == 1 else f"{group.count:,} times"
        lines.append(f"{group.library}: asked {asked}, last {group.last_asked}, {where}")
        for question in group.questions:
            lines.append(
                f"  {question.count}\N{MULTIPLICATION SIGN} {question_line(question.question)}"
                f" ({question.reason})"
            )
        hidden = group.questions_asked - len(group.questions)
        if hidden > 0:
            others = counted(hidden, "other question")
            lines.append(f"  \N{HORIZONTAL ELLIPSIS} and {others}")
    return clean_display_text("\n".join(lines))


def format_changes(changes: Sequence[Change], old: str, new: str) -> str:
    """The readable `changes`: a summary line, the changelog's entries with their text,
    then each kind of change with each section's title and `file:lines` in its version
    (both versions' for changed and moved)."""
    counts = {kind: sum(change.kind == kind for change in changes) for kind in _CHANGE_HEADINGS}
    summary = ", ".join(
        counted(count, "changelog entry", "changelog entries")
        if kind == "changelog"
        else f"{count:,} {kind}"
        for kind, count in counts.items()
        if count
    )
    lines = [f"{old} -> {new}: {summary or 'no changes'}"]
    for kind, heading in _CHANGE_HEADINGS.items():
        if not counts[kind]:
            continue
        lines += ["", f"{heading}: {counts[kind]:,}"]
        for change in changes:
            if change.kind != kind:
                continue
            places = [passage.location for passage in (change.old, change.new) if passage]
            lines.append(f"  {one_line(change.title)}  {' -> '.join(places)}")
            if kind == "changelog" and change.new is not None:
                text = collapse_blank_lines(change.new.text).strip("\n")
                lines += [f"      {line}".rstrip() for line in text.splitlines()]
    return clean_display_text("\n".join(lines))
